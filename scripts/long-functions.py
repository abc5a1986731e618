#!/usr/bin/env python3
"""Lists the functions of Rust (and JavaScript) sources longer than a limit, longest first.

    python3 scripts/long-functions.py [--max N] [PATH ...]   (default: --max 80 src)

A function's length runs from its `fn` line (or `function` line) to the line of its closing
brace, found by counting braces outside strings, characters and comments. Exits 1 when any
function is longer than the limit, so that CI can hold the line.
"""
import argparse
import os
import re
import sys

FN = re.compile(r'^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?(extern\s+"[^"]*"\s+)?fn\s+(\w+)')
JS_FN = re.compile(r'^\s*(async\s+)?function\s*\*?\s*(\w+)|^\s*(const|let)\s+(\w+)\s*=\s*(async\s*)?\(.*=>\s*\{\s*$')


def strip(line, state):
    """The line without strings and comments; `state` carries a block comment across lines."""
    out, i, n = [], 0, len(line)
    while i < n:
        if state['block']:
            j = line.find('*/', i)
            if j < 0:
                return ''.join(out)
            state['block'], i = False, j + 2
            continue
        c = line[i]
        if line.startswith('//', i):
            break
        if line.startswith('/*', i):
            state['block'], i = True, i + 2
            continue
        if c in '"`':
            j = i + 1
            while j < n and line[j] != c:
                j += 2 if line[j] == '\\' else 1
            i = j + 1
            continue
        if c == "'" and re.match(r"'(\\.|[^\\'])'", line[i:]):
            i += len(re.match(r"'(\\.|[^\\'])'", line[i:]).group(0))
            continue
        out.append(c)
        i += 1
    return ''.join(out)


def functions(path):
    js = path.endswith('.js')
    lines = open(path, encoding='utf-8').read().split('\n')
    state = {'block': False}
    stack = []  # (name, start line, depth at which its body opened)
    depth = 0
    pending = None
    for number, line in enumerate(lines, 1):
        m = (JS_FN if js else FN).match(line)
        if m and not state['block']:
            name = next(g for g in (m.groups()[::-1]) if g and re.fullmatch(r'\w+', g))
            pending = (name, number)
        code = strip(line, state)
        for c in code:
            if c == '{':
                depth += 1
                if pending:
                    stack.append((pending[0], pending[1], depth))
                    pending = None
            elif c == '}':
                if stack and stack[-1][2] == depth:
                    name, start, _ = stack.pop()
                    yield name, start, number - start + 1
                depth -= 1
        if pending and code.rstrip().endswith(';'):
            pending = None  # a declaration without a body (a trait method)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--max', type=int, default=80)
    parser.add_argument('paths', nargs='*', default=['src'])
    args = parser.parse_args()
    found = []
    for root in args.paths:
        walk = [(root, [], [root])] if os.path.isfile(root) else os.walk(root)
        for folder, _, files in walk:
            for f in files:
                path = f if os.path.isfile(f) and folder == f else os.path.join(folder, f)
                if path.endswith(('.rs', '.js')):
                    found += [(n, path, name, start) for name, start, n in functions(path)]
    long = sorted((x for x in found if x[0] > args.max), reverse=True)
    for n, path, name, start in long:
        print(f'{n:5} {path}:{start} {name}')
    print(f'{len(long)} functions over {args.max} lines', file=sys.stderr)
    return 1 if long else 0


if __name__ == '__main__':
    sys.exit(main())
