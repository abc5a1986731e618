//! The `morris` command line: thin wrapper over the library, mapping errors to exit codes.
#![deny(unsafe_code)]

mod cli;
mod query_cmd;
mod solve_cmd;

use std::io::{self, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    match cli::run() {
        Ok(code) => code,
        // The reader of our output went away (`morris ... | head -1`): it has what it wanted.
        Err(failure) if cli::is_closed_pipe(&failure) => ExitCode::SUCCESS,
        Err(failure) => {
            // Not eprintln!, which panics when standard error is closed too.
            let _ = writeln!(io::stderr(), "morris: {:#}", failure.error);
            ExitCode::from(failure.code)
        }
    }
}
