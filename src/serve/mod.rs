//! `morris serve`: the explorer page and the HTTP API over a database folder, read-only.
//!
//! Routes (all `GET`; `HEAD` too):
//!
//! | path | answer |
//! |---|---|
//! | `/` , `/app.js`, `/style.css`, `/favicon.svg` | the explorer page, embedded in the binary |
//! | `/api/variants` | [`crate::query::wire::VariantsJson`]: each variant with its board and the rule sets the folder holds |
//! | `/api/query?variant=..&position=..` | exactly `query --json` ([`crate::query::wire::QueryJson`]) |
//! | `/api/stats?variant=..` | exactly `stats --json` ([`crate::query::wire::StatsJson`]) |
//! | `/api/explore?variant=..&position=..` | [`crate::query::wire::ExploreJson`]: the query plus each move's parts and resulting position, and what solving a missing sector costs |
//! | `/api/bestmove?variant=..&position=..[&seed=N][&strength=S]` | [`crate::query::wire::BestMoveJson`]: the move perfect play picks ([`crate::query::choose`]), or a weaker level draws ([`crate::query::sample`]) |
//! | `/api/line?variant=..&position=..&moves=M1,M2,..` | [`crate::query::wire::LineJson`]: `explore`'s answer for each position of a line, in one request; an illegal move ends it |
//! | `/api/practice?variant=..&sector=W-B-WF-BF[&value=V][&min_depth=D][&side=w\|b][&seed=N]` | [`crate::query::wire::PracticeJson`]: a random solved position of the sector, with value V if given, a win or loss at least D plies from the end, the side to move `side` where the hands allow |
//! | `/api/depths?variant=..&sector=W-B-WF-BF` | [`crate::query::wire::DepthsJson`]: the sector's depth histogram, every slot read |
//!
//! Every API route but `variants` takes the rule switches by name (`flying`, `removal`,
//! `phases`, `full-board`); `variant` defaults to `nine` as on the command line. Names and
//! values are checked against the known sets and only select among the rule-set folders
//! `DIR/VARIANT.RULESETID` built from them, so no parameter ever becomes a path.
//!
//! Statuses: 200; 400 bad input (a parameter unknown, repeated, missing or malformed, a
//! position or sector that is malformed or cannot occur, a game that is over for `bestmove`);
//! 404 a sector that is not solved (the message names the `solve` command), no practice
//! position found, or no such path; 405
//! another method; 408 a request head that did not arrive within the timeout; 413 a body over
//! 4 KiB; 431 a request head over 16 KiB; 500 a damaged database or an I/O error; 503 database
//! work that did not finish within the timeout. Errors are `{"error":"..."}`, the 408, 413
//! and 431 of the HTTP layer too. One line per request goes to standard error: method,
//! target, status, duration.
//!
//! axum routes (on hyper and tower, the tokio project's stack); the connections are served by
//! hyper's HTTP/1 directly rather than through `axum::serve`, to bound the request head's size
//! and read time and answer a client too slow to send it with a 408 (see `serve/conn.rs`). A
//! middleware bounds bodies (`serve/body.rs`), tower-http handler time. Database reads (`pread`
//! into a bounded cache of checked blocks, so that a file changed under the server is an error,
//! never a fault) run on tokio's blocking threads, at most a few per core at once.

mod answer;
mod api;
mod app;
mod assets;
mod body;
mod catalog;
mod conn;
mod cors;
mod cost;
mod params;
mod practice;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use app::App;
use axum::routing::get;
use axum::Router;
use catalog::Catalog;
pub use cors::Cors;
use tower_http::timeout::TimeoutLayer;

/// How `morris serve` runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// The database folder (a subfolder per variant and rule set), opened read-only.
    pub db: PathBuf,
    /// Whether `db` holds compact tables (built by `morris tables`) rather than sector files.
    pub tables: bool,
    /// Where to listen.
    pub bind: SocketAddr,
    /// How long a request may take to arrive, and to be answered.
    pub timeout: Duration,
    /// Which other origins' pages may read the answers.
    pub cors: Cors,
}

/// Why the server could not start or stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The database folder is not one.
    #[error(transparent)]
    Database(#[from] crate::error::Error),
    /// The address cannot be listened on.
    #[error("cannot listen on {addr}: {cause}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// The operating system's error.
        cause: std::io::Error,
    },
    /// The runtime could not start.
    #[error("cannot start the server: {0}")]
    Runtime(std::io::Error),
}

impl Error {
    /// Whether the user gave something wrong (a folder that is no database folder) rather
    /// than the system failing (an address in use or not allowed, no runtime).
    pub fn is_bad_input(&self) -> bool {
        match self {
            Error::Database(e) => e.is_bad_input(),
            Error::Bind { .. } | Error::Runtime(_) => false,
        }
    }
}

/// Serves until the process ends; calls `listening` with the bound address once it accepts
/// connections (the port is the one given, or the one the system chose for port 0).
///
/// # Errors
/// A folder that holds sector files itself (a rule-set folder), an address that cannot be
/// bound, or a runtime that cannot start.
pub fn run(config: &Config, listening: impl FnOnce(SocketAddr)) -> Result<(), Error> {
    let catalog = Catalog::new(&config.db, config.tables)?;
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .max_blocking_threads(4 * workers + 4)
        .enable_all()
        .build()
        .map_err(Error::Runtime)?;
    let app = Arc::new(App {
        catalog,
        work: Arc::new(tokio::sync::Semaphore::new(2 * workers + 2)),
        timeout: config.timeout,
    });
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(config.bind)
            .await
            .map_err(|cause| Error::Bind {
                addr: config.bind,
                cause,
            })?;
        let addr = listener.local_addr().map_err(|cause| Error::Bind {
            addr: config.bind,
            cause,
        })?;
        listening(addr);
        let routes = router(app, config.timeout, config.cors.clone());
        conn::accept(listener, routes, config.timeout).await;
        Ok(())
    })
}

/// The routes, with the body limit, the handler timeout and cross-origin access.
fn router(app: Arc<App>, timeout: Duration, cors: Cors) -> Router {
    Router::new()
        .route("/", get(assets::index))
        .route("/app.js", get(assets::script))
        .route("/game.js", get(assets::game_script))
        .route("/editor.js", get(assets::editor_script))
        .route("/style.css", get(assets::style))
        .route("/favicon.svg", get(assets::icon))
        .route("/api/variants", get(api::variants))
        .route("/api/query", get(api::query))
        .route("/api/explore", get(api::explore))
        .route("/api/bestmove", get(api::bestmove))
        .route("/api/practice", get(api::practice))
        .route("/api/line", get(api::line))
        .route("/api/stats", get(api::stats))
        .route("/api/depths", get(api::depths))
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .with_state(app)
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(cors),
            cors::layer,
        ))
        .layer(axum::middleware::from_fn(body::bounded))
        // A second net under the handlers' own deadline (see `api`), which says more.
        .layer(TimeoutLayer::with_status_code(
            axum::http::StatusCode::SERVICE_UNAVAILABLE,
            timeout + Duration::from_secs(1),
        ))
}
