//! `morris serve`: the explorer page and the HTTP API until the process is killed.

use std::process::ExitCode;

use super::args::ServeArgs;
use super::output::{Failure, Out, EXIT_BAD_INPUT, EXIT_FAILURE};

/// `morris serve`: prints the address it listens on, then serves until killed.
pub fn serve(args: ServeArgs) -> Result<ExitCode, Failure> {
    let config = morris::serve::Config {
        db: args.db,
        bind: args.bind,
        timeout: std::time::Duration::from_secs_f64(args.timeout),
    };
    let shown = config.db.display().to_string();
    morris::serve::run(&config, |addr| {
        // Scripts read the port from this line (with --bind 127.0.0.1:0, say).
        let _ = Out::new().line(format_args!(
            "morris serve: listening on http://{addr}/ (database {shown})"
        ));
    })
    .map_err(|e| Failure {
        code: if e.is_bad_input() {
            EXIT_BAD_INPUT
        } else {
            EXIT_FAILURE
        },
        error: e.into(),
    })?;
    Ok(ExitCode::SUCCESS)
}
