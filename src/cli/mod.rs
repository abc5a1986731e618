//! The `morris` command line: one file per subcommand over the library, with the arguments,
//! the output and exit codes, and the progress bars each in a file of its own.

mod args;
mod bars;
mod check;
mod folder;
mod moves;
mod mpi;
mod output;
mod query;
#[cfg(feature = "serve")]
mod serve;
mod signals;
mod simulate;
mod solve;
mod stats;
mod tables;
mod units;
mod variants;
mod verify;

use std::process::ExitCode;

use clap::Parser;

use args::{Cli, Command};
pub use output::{is_closed_pipe, Failure, EXIT_BAD_INPUT};
pub use signals::ignore_file_size_limit_signal;

/// Parses the command line and runs the subcommand.
pub fn run() -> Result<ExitCode, Failure> {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout with exit 0; usage errors exit 2.
            let _ = e.print();
            return Ok(ExitCode::from(if e.use_stderr() {
                EXIT_BAD_INPUT
            } else {
                0
            }));
        }
    };
    let variant = cli.game.variant()?;
    match cli.command {
        Command::Variants { json } => variants::variants(json),
        Command::Solve(args) => solve::solve(&variant, &args),
        Command::Tables(args) => tables::tables(&variant, &args),
        Command::Stats {
            source,
            n_move_rule: Some(n),
            quiet,
            ..
        } => stats::rule_values(&variant, &source, n, quiet),
        Command::Stats {
            source,
            json,
            depths: false,
            ..
        } => stats::stats(&variant, &source, json),
        Command::Stats {
            source,
            depths: true,
            quiet,
            ..
        } => stats::depths(&variant, &source, quiet),
        Command::Query {
            source,
            json,
            n_move_rule,
            position,
        } => query::query(&variant, &source, json, n_move_rule, &position),
        Command::Verify(args) => verify::verify(&variant, &args),
        Command::Check {
            source,
            sector,
            quiet,
        } => check::check(&variant, &source, sector.as_deref(), quiet),
        #[cfg(feature = "serve")]
        Command::Serve(args) => serve::serve(args),
        Command::Moves { json, position } => moves::moves(&variant, json, &position),
        Command::Perft {
            depth,
            divide,
            position,
        } => moves::perft_command(&variant, depth, divide, position),
    }
}
