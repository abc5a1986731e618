// The game tree of the explorer and its two texts: the address's move list with variations in
// parentheses, and a PGN-like game text with headers. Pure functions, no page access: app.js
// and the editor build on them.
'use strict';

// A node of the game tree: a position, the move that led to it (null at the root), its ply
// from the root, its parent, and its continuations, the first of which is the main one.
function treeNode(position, move, parent) {
  return { position, move, parent, ply: parent ? parent.ply + 1 : 0, children: [] };
}

// The continuation of `from` by `move` ({move, position}): the existing one, or a new one
// added after the others (a new variation when `from` already has a continuation).
function grow(from, move, position) {
  const known = from.children.find((c) => c.move === move);
  if (known) return known;
  const next = treeNode(position, move, from);
  from.children.push(next);
  return next;
}

// The line through `n`: from the root to `n`, then on along the main continuations.
// Gathered from `n` up and turned round: `unshift` would move the whole array at each step,
// quadratic in a long game's length.
function lineThrough(n) {
  const path = [];
  for (let x = n; x; x = x.parent) path.push(x);
  path.reverse();
  for (let x = n.children[0]; x; x = x.children[0]) path.push(x);
  return path;
}

// Whether `n` lies on the main line (every step the first continuation).
function onMainLine(n) {
  for (let x = n; x.parent; x = x.parent) if (x.parent.children[0] !== x) return false;
  return true;
}

// The moves from the root to `n` (gathered from `n` up and turned round, as in `lineThrough`).
function movesTo(n) {
  const moves = [];
  for (let x = n; x.parent; x = x.parent) moves.push(x.move);
  return moves.reverse();
}

// The node the moves lead to from `root`, or null.
function follow(root, moves) {
  let x = root;
  for (const mv of moves) {
    x = x.children.find((c) => c.move === mv);
    if (!x) return null;
  }
  return x;
}

// The variation `n` belongs to, nearest first: the node where it leaves its parent's main
// continuation, or null on the main line.
function variationStart(n) {
  for (let x = n; x.parent; x = x.parent) if (x.parent.children[0] !== x) return x;
  return null;
}

// Makes the variation holding `n` its parent's main continuation (the former main one becomes
// its first alternative). Returns whether anything changed.
function promote(n) {
  const v = variationStart(n);
  if (!v) return false;
  const siblings = v.parent.children;
  siblings.splice(siblings.indexOf(v), 1);
  siblings.unshift(v);
  return true;
}

// Cuts `n` and everything after it from the tree. Returns its parent (null for the root,
// which stays).
function cut(n) {
  if (!n.parent) return null;
  const siblings = n.parent.children;
  siblings.splice(siblings.indexOf(n), 1);
  return n.parent;
}

// ------------------------------------------------------------- the address's move list

// Walks the continuations of `n` in the order a game's text lists them: each line's main
// moves, each alternative right after the move it replaces, its own line before the main line
// goes on. With a stack of its own, not by recursion: a game may nest more variations than a
// script's call stack holds frames. `visit.line()` makes the state of the line from `n`;
// `visit.main(node, line)` is called for each main move of a line, `visit.open(node, line)`
// for the first move of an alternative to `line`'s last move (it returns the state of the
// variation's line), and `visit.close(line)` when a variation's line ends.
function walkLines(n, visit) {
  const stack = [{ x: n, next: 0, line: visit.line(), variation: false }];
  while (stack.length > 0) {
    const f = stack[stack.length - 1];
    const children = f.x.children;
    if (f.next === 0 && children.length === 0) {
      stack.pop();
      if (f.variation) visit.close(f.line);
    } else if (f.next === 0) {
      visit.main(children[0], f.line);
      f.next = 1;
    } else if (f.next < children.length) {
      const a = children[f.next];
      f.next += 1;
      stack.push({ x: a, next: 0, line: visit.open(a, f.line), variation: true });
    } else {
      f.x = children[0];
      f.next = 0;
    }
  }
}

// The continuations of `n` as the address writes them: the main moves separated by commas,
// each alternative in parentheses after the move it replaces: `a5,b4,(c5,d4),c5`. Moves are
// never empty, so each part but a list's first follows a comma.
function moveList(n) {
  const out = [];
  walkLines(n, {
    line: () => ({ started: false }),
    main: (m, line) => {
      if (line.started) out.push(',');
      out.push(m.move);
      line.started = true;
    },
    open: (a) => {
      out.push(',', '(', a.move);
      return { started: true };
    },
    close: () => out.push(')'),
  });
  return out.join('');
}

// A move sequence from tokens (moves, '(' and ')'): [{move, variations: [sequence]}]; each
// variation replaces the move it follows. Throws an Error naming what is wrong.
function sequenceOf(tokens) {
  const stack = [[]];
  for (const t of tokens) {
    const here = stack[stack.length - 1];
    if (t === '(') {
      if (here.length === 0) throw new Error('a variation "(" must follow the move it replaces');
      const variation = [];
      here[here.length - 1].variations.push(variation);
      stack.push(variation);
    } else if (t === ')') {
      if (stack.length === 1) throw new Error('a ")" closes no variation');
      if (here.length === 0) throw new Error('a variation "()" holds no move');
      stack.pop();
    } else {
      here.push({ move: t, variations: [] });
    }
  }
  if (stack.length > 1) throw new Error(`${stack.length - 1} variation${stack.length > 2 ? 's are' : ' is'} not closed by ")"`);
  return stack[0];
}

// The address's move list read back (see `moveList`).
function parseMoveList(text) {
  return sequenceOf(text.match(/\(|\)|[^,()\s]+/g) || []);
}

// ------------------------------------------------------------- the game text

// The move number of node `n` as players count: White's moves `3.`, Black's `3...`, from
// whoever moved first (`blackFirst`).
function moveNumber(n, blackFirst) {
  const half = n.ply - 1 + (blackFirst ? 1 : 0);
  return { number: Math.floor(half / 2) + 1, white: half % 2 === 0 };
}

// The movetext of the continuations of `n`: `1. a5 b4 2. c5 (2. d4 e5) 2... d4`, each move
// followed by `mark(node)` (an annotation such as `?`, or nothing). A line's state says
// whether its next Black move may go without its number (it needs it after a variation or at
// the start).
function movetext(n, blackFirst, mark = () => '') {
  const out = [];
  walkLines(n, {
    line: () => ({ started: false, numbered: false }),
    main: (m, line) => {
      const k = moveNumber(m, blackFirst);
      if (line.started) out.push(' ');
      if (k.white) out.push(`${k.number}. `);
      else if (!line.numbered) out.push(`${k.number}... `);
      out.push(m.move + mark(m));
      line.started = true;
      line.numbered = true;
    },
    open: (a, line) => {
      line.numbered = false;
      const k = moveNumber(a, blackFirst);
      out.push(` (${k.number}${k.white ? '.' : '...'} ${a.move}${mark(a)}`);
      return { started: true, numbered: false };
    },
    close: () => out.push(')'),
  });
  return out.join('');
}

// The result a line's end shows: `1-0`, `0-1`, `1/2-1/2` for a game over, else `*`.
function resultOf(end) {
  if (!end.over || end.value == null) return '*';
  if (end.value === 'draw') return '1/2-1/2';
  const whiteWins = (end.value === 'win') === (end.turn === 'w');
  return whiteWins ? '1-0' : '0-1';
}

// The whole game as text: headers naming the variant, its rule switches and (when it is not
// the variant's start) the position the game starts from, then the movetext with its
// variations. `switches` is [[name, value]] of the rule set; `extra` more [[name, value]]
// headers; `drawn` names the draw rule that ended the main line (its `Termination`), or is null;
// `mark(node)` annotates a move (see `movetext`).
function gameText(root, variant, switches, extra = [], drawn = null, mark = () => '') {
  const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);
  const main = lineThrough(root);
  const headers = [['Event', 'morris explorer'], ['Variant', variant.name]];
  for (const [name, value] of switches) headers.push([capital(name), value]);
  if (root.position !== variant.start_position) {
    headers.push(['SetUp', '1'], ['Position', root.position]);
  }
  for (const h of extra) headers.push(h);
  const result = drawn ? '1/2-1/2' : resultOf(main[main.length - 1]);
  headers.push(['Result', result]);
  if (drawn) headers.push(['Termination', drawn]);
  const blackFirst = root.position.split(' ')[1] === 'b';
  const moves = movetext(root, blackFirst, mark);
  const tags = headers.map(([k, v]) => `[${k} "${String(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"]`);
  return `${tags.join('\n')}\n\n${moves ? moves + ' ' : ''}${result}\n`;
}

// A game text read back: {headers: {name(lower case): value}, moves: sequence}. Move numbers,
// results, `{comments}`, `;` comments and annotations (a move's `!`, `?`, `!?`, `??` and the
// like, numeric annotation glyphs `$1`) are skipped. Throws an Error naming what is wrong.
function parseGameText(text) {
  const headers = {};
  const tokens = [];
  const re = /\[\s*([A-Za-z0-9_-]+)\s+"((?:[^"\\]|\\.)*)"\s*\]|\{[^}]*\}|;[^\n]*|\(|\)|[^\s()[\]{};]+|\S/g;
  for (const m of text.matchAll(re)) {
    const t = m[0];
    if (m[1] !== undefined) {
      headers[m[1].toLowerCase()] = m[2].replace(/\\(.)/g, '$1');
    } else if (t.startsWith('{') || t.startsWith(';')) {
      continue;
    } else if (/^(1-0|0-1|1\/2-1\/2|\*)$/.test(t) || /^\$\d+$/.test(t)) {
      continue;
    } else if (t === '(' || t === ')') {
      tokens.push(t);
    } else {
      // A move may carry its number: `12.a1-a4`, `12...d7`, `12…d7`.
      // And an annotation: `d6!`, `a1-a4?!` (alone, `!!` is not a move).
      const bare = t.replace(/^\d+(\.+|…)/, '');
      const move = /^[!?]+$/.test(bare) ? bare : bare.replace(/[!?]+$/, '');
      if (move === '') continue;
      if (!/^[a-z]/.test(move)) throw new Error(`"${t}" is not a move`);
      tokens.push(move);
    }
  }
  return { headers, moves: sequenceOf(tokens) };
}

// ------------------------------------------------------------- Sanmill's games

// Sanmill's `[Variant]` names for the variants it shares with morris.
const SANMILL_VARIANTS = {
  "nine men's morris": 'nine',
  "twelve men's morris": 'twelve',
  morabaraba: 'morabaraba',
  'lasker morris': 'lasker',
};

// The points of Sanmill's FEN board, in its order: the inner ring, the middle, the outer, each
// from its top middle point clockwise.
const SANMILL_POINTS = [
  'd5', 'e5', 'e4', 'e3', 'd3', 'c3', 'c4', 'c5',
  'd6', 'f6', 'f4', 'f2', 'd2', 'b2', 'b4', 'b6',
  'd7', 'g7', 'g4', 'g1', 'd1', 'a1', 'a4', 'a7',
];

// The position of a Sanmill FEN (`O*@*****/********/******** b m s 5 0 4 0 0 0 ...`: the board
// as above with `O` White, `@` Black, `*` empty; the side to move; the phase and the action;
// then White's pieces on the board and in hand, Black's, and the pieces each is to remove), in
// this page's notation for `board`. Throws an Error naming what does not fit: a board without
// Sanmill's 24 points, a marked point, a removal still to make, counts that disagree with the
// board.
function sanmillPosition(fen, board) {
  const fields = fen.trim().split(/\s+/);
  if (fields.length < 10) throw new Error(`the FEN "${fen}" has ${fields.length} fields, not Sanmill's 17`);
  const [rings, side, , action, wBoard, wHand, bBoard, bHand, wRemove, bRemove] = fields;
  const cells = rings.split('/').join('');
  if (rings.split('/').length !== 3 || cells.length !== 24) {
    throw new Error(`the FEN's board "${rings}" is not three rings of 8 points`);
  }
  const names = new Set(board.points.map((p) => p.name));
  if (board.points.length !== 24 || !SANMILL_POINTS.every((p) => names.has(p))) {
    throw new Error("a Sanmill FEN describes a board of 24 points (nine's, twelve's, Lasker's or Morabaraba's), not this variant's");
  }
  if (side !== 'w' && side !== 'b') throw new Error(`the FEN's side to move "${side}" is not w or b`);
  const on = {};
  const count = { w: 0, b: 0 };
  [...cells].forEach((c, i) => {
    if (c === 'O') { on[SANMILL_POINTS[i]] = 'w'; count.w += 1; } else if (c === '@') { on[SANMILL_POINTS[i]] = 'b'; count.b += 1; } else if (c === 'X') {
      throw new Error(`the FEN marks ${SANMILL_POINTS[i]} as a removed point, which morris's rules do not have`);
    } else if (c !== '*') {
      throw new Error(`the FEN's board holds "${c}", not O, @ or *`);
    }
  });
  const number = (text, what) => {
    if (!/^\d+$/.test(text)) throw new Error(`the FEN's ${what} "${text}" is not a count`);
    return Number(text);
  };
  if (action === 'r' || number(wRemove, "White's pieces to remove") > 0 || number(bRemove, "Black's pieces to remove") > 0) {
    throw new Error('the FEN has a removal still to make; set the game up a move earlier or later');
  }
  if (number(wBoard, "White's count on the board") !== count.w || number(bBoard, "Black's count on the board") !== count.b) {
    throw new Error(`the FEN's counts (${wBoard} White, ${bBoard} Black on the board) disagree with its board (${count.w} and ${count.b})`);
  }
  const rows = board.ranks.map((rank) => rank.map((p) => (on[p] === 'w' ? 'W' : on[p] === 'b' ? 'B' : '.')).join(''));
  return `${rows.join('/')} ${side} ${number(wHand, "White's hand")} ${number(bHand, "Black's hand")}`;
}
