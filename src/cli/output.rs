//! What the command line prints and how it ends: standard output line by line, exit codes, and
//! errors turned into messages with advice (the `morris solve` that would fill a gap).

use std::fmt;
use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use anyhow::anyhow;
use morris::rules::{Color, Position};
use morris::space::Reachable;
use morris::{Error, InvalidInput, Value, Variant};

/// Exit code for bad input: arguments, positions, a missing database.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit code for a verification or runtime failure.
pub const EXIT_FAILURE: u8 = 1;

/// An error on its way to `main`, with the exit code it maps to.
#[derive(Debug)]
pub struct Failure {
    /// The process exit code.
    pub code: u8,
    /// What went wrong, with context.
    pub error: anyhow::Error,
}

impl From<Error> for Failure {
    /// What the user gave (arguments, positions, folders, an unsolved sector) is bad input
    /// (exit 2); damaged or foreign data, I/O errors and solver limits are runtime failures
    /// (exit 1). A missing sector or an old folder comes with the `morris solve` that cures it.
    fn from(e: Error) -> Failure {
        let code = if e.is_bad_input() {
            EXIT_BAD_INPUT
        } else {
            EXIT_FAILURE
        };
        let error = match morris::front::command_of(&e) {
            Some(_) => anyhow!(morris::front::message(&e)),
            None => e.into(),
        };
        Failure { code, error }
    }
}

impl From<InvalidInput> for Failure {
    fn from(e: InvalidInput) -> Failure {
        Failure::from(Error::from(e))
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure {
            code: EXIT_FAILURE,
            error: e.into(),
        }
    }
}

/// A bad-input failure (exit 2) with a message.
pub fn bad_input(message: String) -> Failure {
    Failure {
        code: EXIT_BAD_INPUT,
        error: anyhow!(message),
    }
}

pub use morris::front::solve_command;

/// The start position's value in words.
pub fn describe_start(v: Value) -> String {
    match v {
        Value::Win(d) => format!("win for White (the first player) in {d} plies"),
        Value::Loss(d) => format!("win for Black (the second player) in {d} plies"),
        Value::Draw => "draw".into(),
    }
}

/// A start position's outcome without its depth, in words.
pub fn describe_outcome(o: morris::Outcome) -> String {
    match o {
        morris::Outcome::Win => "win for White (the first player)".into(),
        morris::Outcome::Loss => "win for Black (the second player)".into(),
        morris::Outcome::Draw => "draw".into(),
    }
}

/// Answers one position, or with `-` each line of standard input in order, writing and flushing
/// each answer as it is made. Every position is checked as a game from the start could reach
/// it before `answer` sees it, for every command alike. In batch mode a bad line (not UTF-8, not a position, or one
/// `answer` refuses) is answered by `error_line("line N: message")` in its place, the batch goes
/// on, and the run exits 2 at the end (1 when a line met a runtime failure).
pub fn for_each_position(
    variant: &Variant,
    arg: &str,
    error_line: impl Fn(&str) -> String,
    mut answer: impl FnMut(&Position, Color) -> Result<String, Failure>,
) -> Result<ExitCode, Failure> {
    let mut out = Out::new();
    let reachable = Reachable::new(variant);
    let mut answer = |text: &str| -> Result<String, Failure> {
        let (pos, turn) = Position::parse(variant, text)?;
        reachable.check(&pos, turn)?;
        answer(&pos, turn)
    };
    if arg != "-" {
        out.line(answer(arg)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut bad = 0usize;
    let mut code = EXIT_BAD_INPUT;
    let mut input = io::stdin().lock();
    let mut bytes = Vec::new();
    for number in 1u64.. {
        bytes.clear();
        let read = input.read_until(b'\n', &mut bytes).map_err(|e| Failure {
            code: EXIT_FAILURE,
            error: anyhow::Error::new(e).context("reading standard input"),
        })?;
        if read == 0 {
            break;
        }
        let answered = match std::str::from_utf8(&bytes) {
            Ok(line) => answer(line.trim()),
            Err(_) => Err(bad_input("not UTF-8".into())),
        };
        if let Err(failure) = &answered {
            bad += 1;
            code = code.min(failure.code);
        }
        out.line(match answered {
            Ok(text) => text,
            Err(failure) => error_line(&format!("line {number}: {:#}", failure.error)),
        })?;
    }
    if bad > 0 {
        return Err(Failure {
            code,
            error: anyhow!("{bad} line(s) of standard input could not be answered"),
        });
    }
    Ok(ExitCode::SUCCESS)
}

/// A write to standard output failed. `main` ends the run quietly with exit 0 when the reader
/// has closed the pipe (`morris ... | head -1`), and reports anything else (exit 1).
#[derive(Debug)]
pub struct StdoutError(pub io::Error);

impl fmt::Display for StdoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("writing to standard output")
    }
}

impl std::error::Error for StdoutError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}

/// Whether the run failed only because standard output's reader went away.
pub fn is_closed_pipe(failure: &Failure) -> bool {
    failure
        .error
        .downcast_ref::<StdoutError>()
        .is_some_and(|e| e.0.kind() == io::ErrorKind::BrokenPipe)
}

/// Standard output for every subcommand: each line is flushed as it is written, so answers
/// reach a reader at once (a co-process, a pipe), and every write error propagates as a
/// [`StdoutError`] instead of a panic.
pub struct Out(io::BufWriter<io::StdoutLock<'static>>);

impl Out {
    /// Locks standard output.
    pub fn new() -> Out {
        Out(io::BufWriter::new(io::stdout().lock()))
    }

    /// Writes `text` and a newline, and flushes them.
    pub fn line(&mut self, text: impl fmt::Display) -> Result<(), Failure> {
        writeln!(self.0, "{text}")
            .and_then(|()| self.0.flush())
            .map_err(|e| Failure {
                code: EXIT_FAILURE,
                error: StdoutError(e).into(),
            })
    }
}
