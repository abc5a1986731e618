//! The `morris` command line: thin wrapper over the library, mapping errors to exit codes.
#![deny(unsafe_code)]

mod cli;
mod query_cmd;
mod solve_cmd;

use std::process::ExitCode;

fn main() -> ExitCode {
    match cli::run() {
        Ok(code) => code,
        Err(failure) => {
            eprintln!("morris: {:#}", failure.error);
            ExitCode::from(failure.code)
        }
    }
}
