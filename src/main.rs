//! The `morris` command line: thin wrapper over the library, mapping errors to exit codes.
#![deny(unsafe_code)]
#![warn(clippy::too_many_lines)]

mod cli;

use std::io::{self, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    if let Some(missing) = morris::missing_cpu_feature() {
        let _ = writeln!(
            io::stderr(),
            "morris: this build needs the processor feature {missing}, which this processor \
             lacks; build for it with RUSTFLAGS=\"-C target-cpu=native\" cargo build --release"
        );
        return ExitCode::from(1);
    }
    cli::ignore_file_size_limit_signal();
    // An interrupted solve leaves no temporary files behind (the unit's lock goes with the
    // process). The handler cannot tell SIGINT from SIGTERM; 130 is the shell's code for the
    // first.
    let _ = ctrlc::set_handler(|| {
        morris::store::remove_temporary_files();
        std::process::exit(130);
    });
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
