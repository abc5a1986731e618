//! The `morris` command line: thin wrapper over the library, mapping errors to exit codes.
#![deny(unsafe_code)]

mod check_cmd;
mod cli;
mod query_cmd;
mod solve_cmd;

use std::process::ExitCode;

fn main() -> ExitCode {
    // An interrupted solve leaves no temporary files behind (the unit's lock goes with the
    // process); 130 and 143 are the shell's codes for death by SIGINT and SIGTERM.
    let _ = ctrlc::set_handler(|| {
        morris::storage::remove_temporary_files();
        std::process::exit(130);
    });
    match cli::run() {
        Ok(code) => code,
        Err(failure) => {
            eprintln!("morris: {:#}", failure.error);
            ExitCode::from(failure.code)
        }
    }
}
