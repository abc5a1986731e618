//! `morris serve`: the explorer page and the HTTP API until the process is killed.

use std::io::Write;
use std::process::ExitCode;

use morris::serve::Cors;

use super::args::ServeArgs;
use super::output::{bad_input, Failure, Out, EXIT_BAD_INPUT, EXIT_FAILURE};

/// `morris serve`: prints the address it listens on, then serves until killed.
pub fn serve(args: ServeArgs) -> Result<ExitCode, Failure> {
    let (root, option) = match &args.source.tables {
        Some(dir) => (dir.clone(), "--tables"),
        None => (args.source.db.clone(), "--db"),
    };
    super::folder::check_folder(&root, option)?;
    let cors = cors(&args.cors)?;
    if !args.bind.ip().is_loopback() {
        let _ = writeln!(
            std::io::stderr(),
            "morris serve: --bind {} makes the explorer page and the API reachable from the network. \
             Both are read-only, but anyone who can reach this machine can use them and load it. \
             To publish them, bind to 127.0.0.1 and put a reverse proxy (nginx, Caddy) in front, \
             with TLS, rate limits and access control (docs/explorer.md).",
            args.bind
        );
    }
    warn_if_empty(&root, args.source.tables.is_some());
    let config = morris::serve::Config {
        tables: args.source.tables.is_some(),
        db: root,
        bind: args.bind,
        timeout: std::time::Duration::from_secs_f64(args.timeout),
        cors,
    };
    let shown = config.db.display().to_string();
    let what = if config.tables { "tables" } else { "database" };
    morris::serve::run(&config, |addr| {
        // Scripts read the port from this line (with --bind 127.0.0.1:0, say).
        let _ = Out::new().line(format_args!(
            "morris serve: listening on http://{addr}/ ({what} {shown})"
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

/// Warns on standard error when the folder holds nothing to answer with (a mistyped `--db`): the
/// server still starts, and its page says the same, but the person starting it should know.
fn warn_if_empty(root: &std::path::Path, tables: bool) {
    let why = match morris::store::solved_rule_sets(root, Default::default()) {
        Ok(found) if !found.is_empty() => return,
        Ok(_) => "holds no solved sectors or tables of any variant",
        Err(_) => "cannot be read (does it exist?)",
    };
    let fill = match tables {
        true => format!(
            "morris tables --variant six --db DB --out {}",
            root.display()
        ),
        false => format!("morris solve --variant six --db {}", root.display()),
    };
    let _ = writeln!(
        std::io::stderr(),
        "morris serve: warning: {} {why}; the page will have nothing to show. Fill it with \
         `{fill}` (six takes about a second), or pass the folder that holds your databases.",
        root.display()
    );
}

/// `--cors`: nothing, `any`, or origins `scheme://host[:port]`.
fn cors(given: &[String]) -> Result<Cors, Failure> {
    if given.is_empty() {
        return Ok(Cors::Off);
    }
    if given.iter().any(|o| o == "any") {
        return Ok(Cors::Any);
    }
    for origin in given {
        let scheme_ok = origin.starts_with("http://") || origin.starts_with("https://");
        let host = origin.split_once("://").map_or("", |(_, h)| h);
        if !scheme_ok || host.is_empty() || host.contains('/') {
            return Err(bad_input(format!(
                "--cors {origin:?}: an origin is `http://HOST[:PORT]` or `https://HOST[:PORT]` (no path), or `any`"
            )));
        }
    }
    Ok(Cors::Origins(given.to_vec()))
}
