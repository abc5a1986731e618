//! Every example in README.md and docs/*.md runs, and prints what the document shows.
//!
//! Each document runs from top to bottom in a fresh folder set up as the root of a checkout
//! (`data` and `scripts` linked to the checkout's, `target/release/morris`), with the `morris`
//! under test first on `PATH`; `cargo run --release --` is read as `morris`, as the README says.
//! The conventions a document follows:
//!
//! - A ```` ```sh ```` block is commands, one a line (a line ending in `\` goes on), a `#` after
//!   a space starting a remark. `#` lines right after a command show its standard output: `# TEXT`
//!   is the line TEXT. `#` lines at the start of a block or after a blank line are remarks. A
//!   ```` ```console ```` block writes each command as `$ COMMAND`, its output on the lines after.
//! - A block right after the line `<!-- output of: COMMAND -->` shows COMMAND's standard output;
//!   COMMAND runs where the marker stands. ```` ```json ```` and untagged blocks must be such
//!   output; a ```` ```rust ```` block must be the crate's doctest in `src/lib.rs` (which
//!   `cargo test` runs); ```` ```text ```` and ```` ```bibtex ```` blocks are illustrations. A block
//!   of any other kind fails the test, so that every new example is seen.
//! - Output is compared line by line, trailing spaces ignored. A line `...` stands for any number
//!   of lines (none included); output shown without one at its end must end there. In a JSON line
//!   (starting with `{`, `[` or `"`), `...` outside a string stands for any text, the string
//!   `"..."` for any string, and spaces outside strings are ignored.
//! - A command runs with `bash` (`set -o pipefail`) and must exit 0 within two minutes; one
//!   with no output shown is run all the same. `morris serve`, which runs until stopped, is
//!   started on a free loopback port (its `--bind` set to `127.0.0.1:0`), must say where it
//!   listens and serve its page and `/api/variants`, and runs until the document's end;
//!   `curl 'http://127.0.0.1:8080/PATH'` asks the document's latest server for PATH and must get
//!   200. `python3 scripts/...` runs where `python3` is installed (under `CI=true` it must be).
//!   A command the test cannot run must be in [`NOT_RUN`] with the reason; any other command
//!   fails the test.

mod common;
mod prerequisite;
mod serve_support;

use std::fmt::Write as _;
use std::net::SocketAddr;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The checkout's root.
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Documents under docs/ whose examples this test leaves to others, with why.
const ELSEWHERE: &[(&str, &str)] = &[
    (
        "docs/python.md",
        "Python examples, which belong to the Python package's tests",
    ),
    (
        "docs/c.md",
        "C, C++ and Dart examples, which belong to the C library's tests",
    ),
];

/// Commands the documents show that this test does not run, by how they start, with why.
const NOT_RUN: &[(&str, &str)] = &[
    (
        "cargo test --release",
        "runs the whole test suite, this test included",
    ),
    (
        "cargo build --release --features mpi",
        "needs an MPI library; .ci/run builds it and runs tests/mpi.rs",
    ),
    (
        "cargo build --release -p morris-capi",
        "builds the C library; .ci/run builds and tests it",
    ),
    (
        "RUSTFLAGS=\"-C target-cpu=",
        "rebuilds the binary under test for another processor level",
    ),
    (
        "sudo apt-get install",
        "installs system packages, which .ci/run does",
    ),
    (
        "apt-get install",
        "installs system packages, which .ci/run does",
    ),
    (
        "pip install ./python",
        "builds and installs the Python package; .ci/run does and runs its tests",
    ),
    (
        "python -c \"import morris",
        "needs the Python package installed (pip install ./python); its tests make these calls",
    ),
    (
        "pip install numpy matplotlib",
        "installs the plotting scripts' packages",
    ),
    (
        "mpirun --oversubscribe -np 3",
        "needs the mpi feature and Open MPI; tests/mpi.rs runs `mpirun --oversubscribe -np 3 \
         morris solve --mpi` and compares the files with one process's (the rank logs it \
         shows hold process ids and times)",
    ),
    (
        "mpirun -np 17 --hostfile",
        "needs a cluster: a host file and a folder shared by its machines",
    ),
    (
        "scripts/results.sh",
        "overwrites the published data/results/ and solves for minutes (nine: hours)",
    ),
    (
        "COMPACT=1 REMOVALS=standard scripts/results.sh",
        "overwrites the published data/results/ and solves Morabaraba for hours",
    ),
    (
        "REMOVALS=strict scripts/results.sh",
        "overwrites the published data/results/ and solves nine for hours",
    ),
    (
        "python3 scripts/plot-depths.py",
        "overwrites the published docs/*.png and needs numpy and matplotlib",
    ),
];

/// The longest a command may take: the slowest examples solve or build tables of six in
/// seconds.
const LIMIT: Duration = Duration::from_secs(120);

/// A fenced block of a document.
#[derive(Debug)]
struct Block {
    /// The line of its opening fence, from 1.
    line: usize,
    /// The first word after the opening fence: `sh`, `json`, or empty.
    tag: String,
    /// Its lines, less the fence's indentation.
    lines: Vec<String>,
    /// The command of the `<!-- output of: COMMAND -->` line right before it.
    output_of: Option<String>,
}

/// The fenced blocks of a document, and the lines of output markers that no block follows.
fn blocks(text: &str) -> (Vec<Block>, Vec<usize>) {
    let mut blocks = Vec::new();
    let mut stray = Vec::new();
    let mut open: Option<(usize, Block)> = None;
    let mut marker: Option<(usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if let Some((fence_indent, block)) = open.as_mut() {
            if trimmed.trim_end() == "```" {
                blocks.push(open.take().unwrap().1);
            } else {
                let cut = indent.min(*fence_indent);
                block.lines.push(line[cut..].to_string());
            }
            continue;
        }
        if let Some(info) = trimmed.strip_prefix("```") {
            let output_of = marker.take().map(|(_, command)| command);
            let tag = info.split_whitespace().next().unwrap_or("").to_string();
            let block = Block {
                line: i + 1,
                tag,
                lines: Vec::new(),
                output_of,
            };
            open = Some((indent, block));
            continue;
        }
        if let Some((at, _)) = marker.take() {
            stray.push(at);
        }
        if let Some(rest) = trimmed.strip_prefix("<!-- output of:") {
            let command = rest.trim_end().trim_end_matches("-->").trim();
            marker = Some((i + 1, command.to_string()));
        }
    }
    stray.extend(marker.map(|(at, _)| at));
    (blocks, stray)
}

/// A command of a document and the output it shows.
#[derive(Debug)]
struct Example {
    /// Its line in the document, from 1.
    line: usize,
    /// The command, remark and continuation lines resolved.
    command: String,
    /// The output lines shown; none shown means none compared.
    expected: Vec<String>,
}

/// The text before a remark (`#` outside quotes, at the start or after a space), trimmed.
fn without_remark(line: &str) -> &str {
    let mut quote = None;
    let mut previous = ' ';
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None if c == '#' && previous.is_whitespace() => return line[..i].trim(),
            None => {}
        }
        previous = c;
    }
    line.trim()
}

/// The commands of a ```` ```sh ```` block with the output lines after each.
fn sh_examples(block: &Block) -> Vec<Example> {
    let mut examples: Vec<Example> = Vec::new();
    // Output lines belong to the command before them only when no blank line parts them.
    let mut after_command = false;
    // A command continued on the next line: its first line's number and its text so far.
    let mut continued: Option<(usize, String)> = None;
    for (i, line) in block.lines.iter().enumerate() {
        let part = without_remark(line);
        if continued.is_none() {
            if line.trim().is_empty() {
                after_command = false;
                continue;
            }
            if let Some(shown) = line.trim_start().strip_prefix('#') {
                if after_command {
                    let shown = shown.strip_prefix(' ').unwrap_or(shown);
                    examples
                        .last_mut()
                        .unwrap()
                        .expected
                        .push(shown.to_string());
                }
                continue;
            }
        }
        let (start, text) = match continued.take() {
            Some((start, text)) => (start, format!("{text} ")),
            None => (block.line + 1 + i, String::new()),
        };
        match part.strip_suffix('\\') {
            Some(head) => continued = Some((start, text + head.trim())),
            None => {
                examples.push(Example {
                    line: start,
                    command: text + part,
                    expected: Vec::new(),
                });
                after_command = true;
            }
        }
    }
    examples
}

/// The commands of a ```` ```console ```` block (`$ COMMAND`, then its output).
fn console_examples(block: &Block) -> Vec<Example> {
    let mut examples: Vec<Example> = Vec::new();
    for (i, line) in block.lines.iter().enumerate() {
        if let Some(command) = line.strip_prefix("$ ") {
            examples.push(Example {
                line: block.line + 1 + i,
                command: command.trim().to_string(),
                expected: Vec::new(),
            });
        } else if let Some(example) = examples.last_mut() {
            example.expected.push(line.clone());
        }
    }
    examples
}

/// How the test runs a command.
#[derive(Debug, PartialEq)]
enum How {
    /// Through bash, its standard output compared.
    Run,
    /// Through bash where `python3` is installed.
    Python,
    /// Started, checked to answer over HTTP, stopped at the document's end.
    Serve,
    /// `GET` of this target on the document's latest server.
    Get(String),
    /// Not run, for this reason.
    NotRun(&'static str),
}

/// The pipeline stages of a command (split at `|` outside quotes).
fn stages(command: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut quote = None;
    let mut start = 0;
    for (i, c) in command.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None if c == '|' => {
                out.push(command[start..i].trim());
                start = i + 1;
            }
            None => {}
        }
    }
    out.push(command[start..].trim());
    out
}

/// How to run `command` (with `cargo run --release --` read as `morris`), or why the test
/// cannot.
fn how(command: &str) -> Result<How, String> {
    if let Some((_, why)) = NOT_RUN.iter().find(|(start, _)| command.starts_with(start)) {
        return Ok(How::NotRun(why));
    }
    if let Some(rest) = command.strip_prefix("curl ") {
        let url = rest.trim().trim_matches('\'');
        return match url.strip_prefix("http://127.0.0.1:8080") {
            Some(target) if !rest.trim().contains(' ') => Ok(How::Get(target.to_string())),
            _ => Err("a curl example asks `http://127.0.0.1:8080/...`, quoted, and no more".into()),
        };
    }
    let stages = stages(command);
    let mut python = false;
    for stage in &stages {
        let words: Vec<&str> = stage.split_whitespace().collect();
        match words.as_slice() {
            ["morris", "serve", ..] if stages.len() == 1 => return Ok(How::Serve),
            ["morris", ..] | ["printf", ..] => {}
            ["python3", script, ..] if script.starts_with("scripts/") => python = true,
            _ => {
                return Err(format!(
                    "the test does not know how to run `{stage}`: make it a `morris` command, or \
                     list it in NOT_RUN (tests/docs.rs) with the reason"
                ))
            }
        }
    }
    Ok(if python { How::Python } else { How::Run })
}

/// `command` with `cargo run --release --` read as `morris`.
fn as_installed(command: &str) -> String {
    match command.strip_prefix("cargo run --release --") {
        Some(rest) => format!("morris{rest}"),
        None => command.to_string(),
    }
}

/// The pieces of an expected JSON line between its wildcards, spaces outside strings removed;
/// with `wildcards` false, the whole line so normalised as one piece.
fn json_pieces(line: &str, wildcards: bool) -> Vec<String> {
    let mut pieces = vec![String::new()];
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    let mut in_string = false;
    while i < chars.len() {
        let c = chars[i];
        let rest: String = chars[i..].iter().take(5).collect();
        if in_string {
            pieces.last_mut().unwrap().push(c);
            if c == '\\' && i + 1 < chars.len() {
                pieces.last_mut().unwrap().push(chars[i + 1]);
                i += 1;
            } else if c == '"' {
                in_string = false;
            }
        } else if c.is_whitespace() {
            // Spaces outside strings are layout: JSON is printed without them.
        } else if wildcards && rest.starts_with("...") {
            pieces.push(String::new());
            i += 2;
        } else if wildcards && rest == "\"...\"" {
            pieces.last_mut().unwrap().push('"');
            pieces.push("\"".to_string());
            i += 4;
        } else {
            pieces.last_mut().unwrap().push(c);
            in_string = c == '"';
        }
        i += 1;
    }
    pieces
}

/// Whether `text` is `pieces` joined by stretches of any text (a glob with `*` between pieces).
fn glob(pieces: &[String], text: &str) -> bool {
    let (first, rest) = pieces.split_first().unwrap();
    let Some(mut text) = text.strip_prefix(first.as_str()) else {
        return false;
    };
    let Some((last, middle)) = rest.split_last() else {
        return text.is_empty();
    };
    for piece in middle {
        match text.find(piece.as_str()) {
            Some(at) => text = &text[at + piece.len()..],
            None => return false,
        }
    }
    text.len() >= last.len() && text.ends_with(last.as_str())
}

/// Whether the output line `actual` is what the document's line `shown` shows.
fn line_matches(shown: &str, actual: &str) -> bool {
    let shown = shown.trim_end();
    if shown.starts_with(['{', '[', '"']) {
        let actual = json_pieces(actual, false).concat();
        return glob(&json_pieces(shown, true), &actual);
    }
    shown == actual.trim_end()
}

/// Whether `actual` is the output that `shown` shows (a line `...` standing for any lines).
fn output_matches(shown: &[String], actual: &str) -> bool {
    let actual: Vec<&str> = actual.lines().collect();
    // reach[j]: whether the shown lines so far can account for the first j output lines.
    let mut reach = vec![false; actual.len() + 1];
    reach[0] = true;
    for line in shown {
        let mut next = vec![false; actual.len() + 1];
        if line.trim() == "..." {
            let mut any = false;
            for j in 0..=actual.len() {
                any |= reach[j];
                next[j] = any;
            }
        } else {
            for j in 0..actual.len() {
                next[j + 1] = reach[j] && line_matches(line, actual[j]);
            }
        }
        reach = next;
    }
    reach[actual.len()]
}

/// `command` (a `morris serve`) bound to a free loopback port: a fixed port may be taken, and
/// no test should listen beyond loopback.
fn on_free_port(command: &str) -> String {
    let mut words: Vec<&str> = command.split(' ').collect();
    match words
        .iter()
        .position(|w| *w == "--bind" || w.starts_with("--bind="))
    {
        Some(i) if words[i] != "--bind" => words[i] = "--bind=127.0.0.1:0",
        Some(i) if i + 1 < words.len() => words[i + 1] = "127.0.0.1:0",
        _ => words.extend(["--bind", "127.0.0.1:0"]),
    }
    words.join(" ")
}

/// A `morris serve` that a document started; stopped when dropped.
struct Served {
    /// The server process itself (`exec` replaced the shell).
    child: Child,
    /// Where it listens.
    addr: SocketAddr,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The folder a document runs in, and what it has started there.
struct Place {
    /// The folder, set up as the root of a checkout.
    dir: PathBuf,
    /// `PATH` with the folder's `bin` (the `morris` under test) first.
    path: String,
    /// The servers started so far, the latest last.
    servers: Vec<Served>,
}

impl Place {
    /// A fresh folder set up as the root of a checkout, with `morris` first on `PATH`.
    fn new(name: &str) -> Place {
        let dir = common::scratch(&format!("docs-{}", name.replace('/', "-")));
        let binary = env!("CARGO_BIN_EXE_morris");
        for (link, to) in [
            ("data", format!("{ROOT}/data")),
            ("scripts", format!("{ROOT}/scripts")),
            ("bin/morris", binary.to_string()),
            ("target/release/morris", binary.to_string()),
        ] {
            let link = dir.join(link);
            std::fs::create_dir_all(link.parent().unwrap()).unwrap();
            std::os::unix::fs::symlink(to, link).unwrap();
        }
        let path = format!(
            "{}:{}",
            dir.join("bin").display(),
            std::env::var("PATH").unwrap_or_default()
        );
        Place {
            dir,
            path,
            servers: Vec::new(),
        }
    }

    /// `bash -c COMMAND` here, in its own process group, set up but not started.
    fn bash(&self, command: &str) -> Command {
        let mut c = Command::new("bash");
        c.arg("-c")
            .arg(command)
            .current_dir(&self.dir)
            .env("PATH", &self.path)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        c
    }

    /// Runs `command`; its output when it exits 0 within [`LIMIT`].
    fn run(&self, command: &str) -> Result<String, String> {
        let child = self
            .bash(&format!("set -o pipefail\n{command}"))
            .spawn()
            .map_err(|e| format!("cannot start bash: {e}"))?;
        let group = child.id();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || tx.send(child.wait_with_output()));
        let out: Output = match rx.recv_timeout(LIMIT) {
            Ok(out) => out.map_err(|e| e.to_string())?,
            Err(_) => {
                let _ = Command::new("kill")
                    .args(["-KILL", "--", &format!("-{group}")])
                    .status();
                return Err(format!("still running after {LIMIT:?}; stopped"));
            }
        };
        if !out.status.success() {
            return Err(format!(
                "exited with {}: {}",
                out.status,
                String::from_utf8_lossy(&out.stderr).trim_end()
            ));
        }
        String::from_utf8(out.stdout).map_err(|e| format!("output not UTF-8: {e}"))
    }

    /// Starts `command` (a `morris serve`) on a free loopback port, checks that it serves its
    /// page and its API, and keeps it running.
    fn serve(&mut self, command: &str) -> Result<(), String> {
        let command = on_free_port(command);
        let log = self.dir.join(format!("serve-{}.log", self.servers.len()));
        let mut child = self
            .bash(&format!("exec {command}"))
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .map_err(|e| format!("cannot start bash: {e}"))?;
        let line =
            serve_support::first_line(&mut child, Duration::from_secs(30)).unwrap_or_default();
        let addr = serve_support::address_in(&line);
        let Some(addr) = addr.filter(|a| a.ip().is_loopback()) else {
            let _ = child.kill();
            let _ = child.wait();
            let log = std::fs::read_to_string(&log).unwrap_or_default();
            return Err(format!(
                "did not say where it listens on loopback within 30 s (first line {line:?}): {}",
                log.trim_end()
            ));
        };
        let served = Served { child, addr };
        for target in ["/", "/api/variants"] {
            let answer = serve_support::request(addr, "GET", target, "")
                .map_err(|e| format!("GET {target}: {e}"))?;
            if answer.status != 200 {
                return Err(format!(
                    "GET {target}: {}: {}",
                    answer.status,
                    answer.text()
                ));
            }
        }
        self.servers.push(served);
        Ok(())
    }

    /// The body of `GET target` on the latest server.
    fn get(&self, target: &str) -> Result<String, String> {
        let server = self
            .servers
            .last()
            .ok_or("no `morris serve` earlier in the document to ask")?;
        let answer = serve_support::request(server.addr, "GET", target, "")
            .map_err(|e| format!("GET {target}: {e}"))?;
        if answer.status != 200 {
            return Err(format!("{}: {}", answer.status, answer.text()));
        }
        Ok(answer.text())
    }
}

/// What one document's run found.
#[derive(Default)]
struct Report {
    /// Commands run, servers started and requests made.
    ran: usize,
    /// Outputs compared with what the document shows.
    compared: usize,
    /// Commands not run, with why.
    not_run: Vec<String>,
    /// What is wrong, each with its line.
    failures: Vec<String>,
}

/// What became of one example.
enum Outcome {
    /// Run as the document says; `compared`: its output was compared with the document's.
    Ran { compared: bool },
    /// Not run, for this reason.
    NotRun(String),
}

/// Runs `command` and compares its output with `expected` (not compared when empty).
fn example(
    place: &mut Place,
    at: &str,
    command: &str,
    expected: &[String],
) -> Result<Outcome, String> {
    let output = match how(command)? {
        How::NotRun(why) => return Ok(Outcome::NotRun(why.to_string())),
        How::Python => {
            let python = prerequisite::Needed {
                program: "python3",
                install: "sudo apt-get install -y python3",
            };
            if !prerequisite::present(at, &[python]) {
                return Ok(Outcome::NotRun("python3 is not installed".to_string()));
            }
            place.run(command)?
        }
        How::Run => place.run(command)?,
        How::Serve if !expected.is_empty() => {
            return Err("a server's output is not compared: show an answer with curl".into())
        }
        How::Serve => {
            place.serve(command)?;
            String::new()
        }
        How::Get(target) => place.get(&target)?,
    };
    if expected.is_empty() {
        return Ok(Outcome::Ran { compared: false });
    }
    if !output_matches(expected, &output) {
        let printed: String = output.lines().take(40).fold(String::new(), |mut s, l| {
            let _ = writeln!(s, "    {l}");
            s
        });
        return Err(format!(
            "the document shows\n    {}\nbut it prints\n{printed}",
            expected.join("\n    ")
        ));
    }
    Ok(Outcome::Ran { compared: true })
}

impl Report {
    /// Runs one example at `line` of `doc` and records what became of it.
    fn example(
        &mut self,
        place: &mut Place,
        doc: &str,
        line: usize,
        command: &str,
        expected: &[String],
    ) {
        let command = as_installed(command);
        let at = format!("{doc}:{line}");
        match example(place, &at, &command, expected) {
            Ok(Outcome::Ran { compared }) => {
                self.ran += 1;
                self.compared += usize::from(compared);
            }
            Ok(Outcome::NotRun(why)) => self.not_run.push(format!("{at}: `{command}`: {why}")),
            Err(why) => self.failures.push(format!("{at}: `{command}`: {why}")),
        }
    }
}

/// Whether a ```` ```rust ```` block is a doctest of the crate's documentation (`src/lib.rs`).
fn is_doctest(block: &Block) -> bool {
    let lib = std::fs::read_to_string(format!("{ROOT}/src/lib.rs")).unwrap();
    let doc: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| l.strip_prefix(' ').unwrap_or(l))
        .collect();
    doc.windows(block.lines.len().max(1))
        .any(|w| w.iter().zip(&block.lines).all(|(a, b)| a == b))
}

/// Runs the examples of one document in order.
fn run_document(doc: &str) -> Report {
    let text = std::fs::read_to_string(format!("{ROOT}/{doc}")).unwrap();
    let mut report = Report::default();
    let mut place = Place::new(doc);
    let (blocks, stray) = blocks(&text);
    for line in stray {
        report.failures.push(format!(
            "{doc}:{line}: an output marker with no block right after it"
        ));
    }
    for block in &blocks {
        let at = block.line;
        if let Some(command) = &block.output_of {
            report.example(&mut place, doc, at, command, &block.lines);
            continue;
        }
        match block.tag.as_str() {
            "sh" => {
                for e in sh_examples(block) {
                    report.example(&mut place, doc, e.line, &e.command, &e.expected);
                }
            }
            "console" => {
                for e in console_examples(block) {
                    report.example(&mut place, doc, e.line, &e.command, &e.expected);
                }
            }
            "rust" if is_doctest(block) => report.compared += 1,
            "rust" => report.failures.push(format!(
                "{doc}:{at}: a Rust example that is not the doctest of src/lib.rs, so nothing runs it"
            )),
            "text" | "bibtex" => {}
            "json" | "" => report.failures.push(format!(
                "{doc}:{at}: a block that shows output without `<!-- output of: COMMAND -->` \
                 right before it (or tag it `text` if it shows no command's output)"
            )),
            tag => report.failures.push(format!(
                "{doc}:{at}: a `{tag}` block, which this test does not know: tests/docs.rs says \
                 what each kind of block is"
            )),
        }
    }
    report
}

/// README.md and docs/*.md, less those left to others.
fn documents() -> Vec<String> {
    let mut docs = vec!["README.md".to_string()];
    let mut found: Vec<String> = std::fs::read_dir(format!("{ROOT}/docs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    found.sort();
    for (doc, _) in ELSEWHERE {
        assert!(
            found.contains(&doc.to_string()),
            "{doc} is listed in ELSEWHERE but is gone"
        );
    }
    docs.extend(
        found
            .into_iter()
            .filter(|d| !ELSEWHERE.iter().any(|(e, _)| e == d)),
    );
    docs
}

#[test]
fn every_example_in_the_documents_prints_what_they_show() {
    let mut failures = Vec::new();
    for doc in documents() {
        let start = Instant::now();
        let report = run_document(&doc);
        eprintln!(
            "{doc}: {} run, {} outputs compared, {} not run, {} failures in {:.1?}",
            report.ran,
            report.compared,
            report.not_run.len(),
            report.failures.len(),
            start.elapsed()
        );
        for line in &report.not_run {
            eprintln!("  not run: {line}");
        }
        failures.extend(report.failures);
    }
    assert!(
        failures.is_empty(),
        "{} problems with the documents' examples:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn outputs_are_matched_as_the_conventions_say() {
    let lines = |s: &str| s.lines().map(str::to_string).collect::<Vec<_>>();
    assert!(output_matches(&lines("a\n...\nd"), "a\nb\nc\nd\n"));
    assert!(output_matches(&lines("a\n...\nb"), "a\nb\n"));
    assert!(!output_matches(&lines("a\nb"), "a\nb\nc\n"));
    assert!(output_matches(&lines("a  \n..."), "a\nb\n"));
    assert!(!output_matches(&lines("a\n..."), "b\n"));
    let json = r#"{"position":".../... w 9 9","turn":"w","moves":[{"move":"a1"}]}"#;
    assert!(line_matches(
        r#"{"position":".../... w 9 9", ..., "moves":[...]}"#,
        json
    ));
    assert!(line_matches(
        r#"{"position":"...", "moves":[{"move":"a1"}]}"#,
        json
    ));
    assert!(!line_matches(r#"{"position":".../...  w 9 9", ...}"#, json));
    assert!(!line_matches(r#"{"position":".../... w 9 9"}"#, json));
    assert!(!line_matches(r#"{"moves":[...]}"#, json));
    let block = Block {
        line: 1,
        tag: "sh".into(),
        lines: lines(
            "# a remark\nmorris a   # a remark\n# out 1\n#\n#   out 3\n\n# a remark\nmorris b \\\n  --c 'd # e'",
        ),
        output_of: None,
    };
    let examples = sh_examples(&block);
    assert_eq!(examples.len(), 2);
    assert_eq!(examples[0].command, "morris a");
    assert_eq!(examples[0].expected, ["out 1", "", "  out 3"]);
    assert_eq!(examples[1].command, "morris b --c 'd # e'");
    assert!(examples[1].expected.is_empty());
    assert_eq!(how("cargo test --release"), Ok(How::NotRun(NOT_RUN[0].1)));
    assert_eq!(how("printf 'x\\n' | morris moves -"), Ok(How::Run));
    assert_eq!(how("morris serve --bind 127.0.0.1:0"), Ok(How::Serve));
    assert_eq!(
        how("curl 'http://127.0.0.1:8080/api/stats?variant=six'"),
        Ok(How::Get("/api/stats?variant=six".into()))
    );
    assert!(how("rm -rf db").is_err());
    assert_eq!(
        on_free_port("morris serve"),
        "morris serve --bind 127.0.0.1:0"
    );
    assert_eq!(
        on_free_port("morris serve --bind 0.0.0.0:80 --db x"),
        "morris serve --bind 127.0.0.1:0 --db x"
    );
    assert_eq!(
        on_free_port("morris serve --bind=[::1]:80"),
        "morris serve --bind=127.0.0.1:0"
    );
    assert!(how("morris query start | sh").is_err());
}
