//! The `morris` command line: argument parsing and the subcommands' output.

mod check;
mod query;
mod solve;

use std::fmt;
use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::anyhow;
use clap::{Args, Parser, Subcommand};
use morris::rules::perft;
use morris::rules::{generate, play};
use morris::rules::{RuleOverrides, RuleSwitch};
use morris::{Color, Error, Flying, Position, Removal, Variant};

/// Exit code for bad input: arguments, positions, a missing database.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit code for a verification or runtime failure.
pub const EXIT_FAILURE: u8 = 1;

/// An error on its way to `main`, with the exit code it maps to.
pub struct Failure {
    /// The process exit code.
    pub code: u8,
    /// What went wrong, with context.
    pub error: anyhow::Error,
}

impl From<Error> for Failure {
    /// What the user gave (arguments, positions, folders, an unsolved sector) is bad input
    /// (exit 2); damaged or foreign data, I/O errors and solver limits are runtime failures
    /// (exit 1).
    fn from(e: Error) -> Failure {
        let code = if e.is_bad_input() {
            EXIT_BAD_INPUT
        } else {
            EXIT_FAILURE
        };
        Failure {
            code,
            error: e.into(),
        }
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

/// Solves the Morris family of board games (Nine, Six, Five, Seven, Three and Twelve Men's Morris,
/// Lasker Morris and Morabaraba)
/// by retrograde analysis, and answers questions about their positions.
///
/// Positions are written `ROWS TURN WHITE_HAND BLACK_HAND`: the board's ranks from the top down,
/// separated by `/`, each rank's points left to right as W, B or `.`; TURN is w or b; then the
/// pieces each side still has to place. Nine's start: `.../.../.../....../.../.../... w 9 9`.
/// Moves are written `d7` (placement), `a1-a4` (slide or fly), with `xg7` for a removal.
///
/// Exit codes: 0 success, 1 a runtime failure, 2 bad input.
#[derive(Parser, Debug)]
#[command(name = "morris", version, about, long_about, max_term_width = 100)]
pub struct Cli {
    #[command(flatten)]
    game: GameArgs,
    #[command(subcommand)]
    command: Command,
}

/// The variant and rule overrides every subcommand takes.
#[derive(Args, Debug)]
struct GameArgs {
    /// The game: nine, six, six-diag, five, seven, three, three-diag, twelve, lasker or
    /// morabaraba (see `morris variants`).
    #[arg(long, global = true, default_value = "nine")]
    variant: String,
    /// Override when a side may fly: `never`, `three` (with exactly three pieces while
    /// moving) or `always` (whenever moving).
    #[arg(long, global = true, value_name = "never|three|always")]
    flying: Option<String>,
    /// Override which pieces a mill removes: `standard` (pieces in mills only when all are),
    /// `strict` (never a piece in a mill) or `lenient` (any piece).
    #[arg(long, global = true, value_name = "standard|strict|lenient")]
    removal: Option<String>,
    /// Override how the phases work: `separate` (place while pieces are in hand, then move)
    /// or `lasker` (while pieces are in hand, each turn either places or moves).
    #[arg(long, global = true, value_name = "separate|lasker")]
    phases: Option<String>,
    /// Override what a full board means for the side to move: `loss` (it cannot move) or
    /// `draw` (the game is drawn).
    #[arg(long = "full-board", global = true, value_name = "loss|draw")]
    full_board: Option<String>,
}

impl GameArgs {
    fn variant(&self) -> Result<Variant, Error> {
        fn parse<T: RuleSwitch>(text: &Option<String>) -> Result<Option<T>, Error> {
            text.as_deref().map(T::parse).transpose()
        }
        let overrides = RuleOverrides {
            flying: parse(&self.flying)?,
            removal: parse(&self.removal)?,
            phases: parse(&self.phases)?,
            full_board: parse(&self.full_board)?,
        };
        Ok(Variant::by_name(&self.variant)?.with_overrides(overrides))
    }
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List every variant with its board, pieces and rules.
    Variants {
        /// Print one JSON array instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// List the legal moves of a position, sorted, on one line separated by spaces.
    ///
    /// A finished position (the mover has fewer than three pieces or cannot move) prints an
    /// empty line.
    Moves {
        /// Print a JSON array of strings instead.
        #[arg(long)]
        json: bool,
        /// The position (`start` for the empty board), or `-` to read one per line from standard
        /// input and answer one line each.
        position: String,
    },
    /// Solve the game (or part of it) into a database folder, resuming what is already solved.
    ///
    /// Work units (strongly connected sets of sectors) are solved dependencies first; sectors
    /// whose files are complete and valid are skipped, so an interrupted run picks up where it
    /// stopped. Prints the start position's value when the whole game is solved.
    Solve(SolveArgs),
    /// Print per solved sector: canonical and raw positions, wins, losses, draws, maximum depth.
    Stats {
        /// The database folder (a subfolder per variant and rule set).
        #[arg(long, default_value = "db")]
        db: PathBuf,
        /// Print one JSON object instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// The value and depth of a position and of every legal move, best first, from a database.
    ///
    /// Depth counts plies to the end of the game under perfect play: wins as short as possible,
    /// losses as long as possible. A move's value is what the side to move gets by playing it,
    /// its depth counted from the current position. With POSITION `-`, one position is read
    /// per line of standard input and one JSON object printed per line.
    Query {
        /// The database folder (a subfolder per variant and rule set).
        #[arg(long, default_value = "db")]
        db: PathBuf,
        /// Print one JSON object: {"variant", "position", "value", "depth", "moves": [...]}.
        #[arg(long)]
        json: bool,
        /// The position (`start` for the empty board), or `-` to read one per line from standard
        /// input.
        position: String,
    },
    /// Prove a database: check every file's header and checksum, and recompute every stored
    /// position from its children by forward move generation (value and depth).
    ///
    /// Exits 1 on any fault, naming the sector and position with the expected and stored values.
    Verify {
        /// The database folder (a subfolder per variant and rule set).
        #[arg(long, default_value = "db")]
        db: PathBuf,
        /// Only this sector `W-B-WF-BF`.
        #[arg(long, value_name = "W-B-WF-BF")]
        sector: Option<String>,
        /// List at most this many faults (all are counted).
        #[arg(long, default_value_t = 20)]
        max_faults: usize,
        /// Go on where an interrupted `verify --resume` stopped: record each sector found
        /// sound in `W-B-WF-BF.proved` next to its file (the checksums of its file and of the
        /// files it reads), and skip recomputing a sector whose record matches the files as
        /// they are now (their blocks are still checked).
        #[arg(long)]
        resume: bool,
        /// No progress bar.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Check every sector file's integrity (header, block table, every payload block's
    /// checksum) without recomputing values: a fast pass over a whole database.
    ///
    /// Exits 1 on any damage, naming the file and block.
    Check {
        /// The database folder (a subfolder per variant and rule set).
        #[arg(long, default_value = "db")]
        db: PathBuf,
        /// Only this sector `W-B-WF-BF`.
        #[arg(long, value_name = "W-B-WF-BF")]
        sector: Option<String>,
        /// No progress bar.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Serve the perfect-play explorer page and the HTTP API over a database folder.
    ///
    /// Opens the databases read-only; answers `GET /api/variants`, `/api/query` (exactly
    /// `query --json`), `/api/stats` (exactly `stats --json`), `/api/explore` and
    /// `/api/bestmove`, and the explorer page at `/`. Logs one line per request to standard
    /// error.
    #[cfg(feature = "serve")]
    Serve {
        /// The database folder (a subfolder per variant and rule set).
        #[arg(long, default_value = "db")]
        db: PathBuf,
        /// The address to listen on: loopback unless told otherwise (port 0: any free port).
        #[arg(long, default_value = "127.0.0.1:8080")]
        bind: std::net::SocketAddr,
        /// Seconds a request may take to arrive, and to be answered.
        #[arg(long, default_value_t = 10.0, value_parser = parse_timeout)]
        timeout: f64,
    },
    /// Count the move sequences of a given length (the last line printed is the count).
    Perft {
        /// Length of the move sequences to count.
        #[arg(long, short)]
        depth: u32,
        /// Before the total, print each first move with the count below it.
        #[arg(long)]
        divide: bool,
        /// The position (default: the start), or `-` to read one per line from standard input.
        position: Option<String>,
    },
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The database folder; each variant and rule set gets a subfolder of sector files.
    #[arg(long, default_value = "db")]
    pub db: PathBuf,
    /// Worker threads, 1 to 1024 (default: every core).
    #[arg(long, value_parser = thread_count)]
    pub threads: Option<usize>,
    /// Only the moving-phase sectors with at most K pieces per side (the endgame databases).
    #[arg(long, value_name = "K")]
    pub max_pieces: Option<u8>,
    /// Only this sector `W-B-WF-BF` (mover on board, opponent on board, mover's hand,
    /// opponent's hand) and the sectors it depends on.
    #[arg(long, value_name = "W-B-WF-BF", conflicts_with = "max_pieces")]
    pub sector: Option<String>,
    /// List the work units in dependency order with their sizes, and solve nothing.
    #[arg(long)]
    pub plan: bool,
    /// Replay the units' costs for N workers (a list such as 1,2,4,8) and print the wall
    /// time each would take and the critical path; solves nothing (implies --plan).
    #[arg(long, value_name = "N,...", value_delimiter = ',', value_parser = worker_count)]
    pub simulate_workers: Vec<usize>,
    /// With --simulate-workers: the costs of the units a log of `solve` lists (its lines
    /// `solved UNIT (N slots) in TIME: ...`) instead of the cost model's.
    #[arg(long, value_name = "LOG", requires = "simulate_workers")]
    pub unit_times: Option<PathBuf>,
    /// Solve across the ranks of an MPI job, `mpirun -np N morris solve --mpi ...`: rank 0
    /// schedules the work units, ranks 1 to N-1 solve them into the shared --db folder
    /// (needs a build with the `mpi` feature).
    #[arg(long, conflicts_with_all = ["plan", "simulate_workers"])]
    pub mpi: bool,
    /// Prove each unit right after writing it, as `verify` does, while the files it reads
    /// are still in the page cache, recording each proof as `verify --resume` does; a fault
    /// stops the run, and the unit's files are renamed `*.unsound` so that nothing builds on
    /// them.
    #[arg(long, conflicts_with_all = ["plan", "simulate_workers"])]
    pub verify: bool,
    /// No progress bars.
    #[arg(long, short)]
    pub quiet: bool,
}

/// The most worker threads `solve` starts: far more than any machine's cores, and few enough
/// that starting them cannot exhaust memory.
pub const MAX_THREADS: usize = 1024;

/// Parses `--threads`, refusing 0 and anything above [`MAX_THREADS`] at once.
fn thread_count(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
        Ok(_) => Err(format!(
            "worker threads must be at least 1 and at most {MAX_THREADS}"
        )),
        Err(e) => Err(e.to_string()),
    }
}

/// Parses `--simulate-workers`, one count of the list.
fn worker_count(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=1_000_000).contains(&n) => Ok(n),
        Ok(_) => Err("workers must be at least 1 and at most 1000000".into()),
        Err(e) => Err(e.to_string()),
    }
}

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
        Command::Variants { json } => variants(json),
        Command::Solve(args) => solve::solve(&variant, &args),
        Command::Stats { db, json } => solve::stats(&variant, &db, json),
        Command::Query { db, json, position } => query::query(&variant, &db, json, &position),
        Command::Verify {
            db,
            sector,
            max_faults,
            resume,
            quiet,
        } => query::verify(&variant, &db, sector.as_deref(), max_faults, resume, quiet),
        Command::Check { db, sector, quiet } => {
            check::check(&variant, &db, sector.as_deref(), quiet)
        }
        #[cfg(feature = "serve")]
        Command::Serve { db, bind, timeout } => serve(db, bind, timeout),
        Command::Moves { json, position } => for_each_position(
            &variant,
            &position,
            |e| format!("error: {e}"),
            |pos, _| Ok(moves_line(&variant, pos, json)),
        ),
        Command::Perft {
            depth,
            divide,
            position,
        } => {
            let position = position
                .unwrap_or_else(|| Position::start(&variant).to_notation(&variant, Color::White));
            for_each_position(
                &variant,
                &position,
                |e| format!("error: {e}"),
                |pos, _| {
                    let mut out = String::new();
                    if divide {
                        for mv in sorted_moves(&variant, pos) {
                            let n = perft(&variant, &play(pos, mv.1), depth.saturating_sub(1));
                            out.push_str(&format!("{} {n}\n", mv.0));
                        }
                    }
                    out.push_str(&perft(&variant, pos, depth).to_string());
                    Ok(out)
                },
            )
        }
    }
}

/// `--timeout`: seconds, from a millisecond to a day.
#[cfg(feature = "serve")]
fn parse_timeout(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(t) if (0.001..=86_400.0).contains(&t) => Ok(t),
        _ => Err(format!(
            "{text:?} is not a number of seconds from 0.001 to 86400"
        )),
    }
}

/// `morris serve`: prints the address it listens on, then serves until killed.
#[cfg(feature = "serve")]
fn serve(db: PathBuf, bind: std::net::SocketAddr, timeout: f64) -> Result<ExitCode, Failure> {
    let config = morris::serve::Config {
        db,
        bind,
        timeout: std::time::Duration::from_secs_f64(timeout),
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

/// Answers one position, or with `-` each line of standard input in order, writing and flushing
/// each answer as it is made. In batch mode a bad line (not UTF-8, not a position, or one
/// `answer` refuses) is answered by `error_line("line N: message")` in its place, the batch goes
/// on, and the run exits 2 at the end (1 when a line met a runtime failure).
pub fn for_each_position(
    variant: &Variant,
    arg: &str,
    error_line: impl Fn(&str) -> String,
    mut answer: impl FnMut(&Position, Color) -> Result<String, Failure>,
) -> Result<ExitCode, Failure> {
    let mut out = Out::new();
    if arg != "-" {
        let (pos, turn) = Position::parse(variant, arg)?;
        out.line(answer(&pos, turn)?)?;
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
            Ok(line) => Position::parse(variant, line.trim())
                .map_err(Failure::from)
                .and_then(|(pos, turn)| answer(&pos, turn)),
            Err(_) => Err(bad_input("not UTF-8".into())),
        };
        match answered {
            Ok(text) => out.line(text)?,
            Err(failure) => {
                bad += 1;
                code = code.min(failure.code);
                out.line(error_line(&format!("line {number}: {:#}", failure.error)))?;
            }
        }
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

/// The legal moves with their notation, sorted by notation.
fn sorted_moves(variant: &Variant, pos: &Position) -> Vec<(String, morris::Move)> {
    let mut moves: Vec<_> = generate(variant, pos)
        .iter()
        .map(|&m| (m.to_notation(variant.board()), m))
        .collect();
    moves.sort();
    moves
}

fn moves_line(variant: &Variant, pos: &Position, json: bool) -> String {
    let names: Vec<String> = sorted_moves(variant, pos)
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    if json {
        serde_json::to_string(&names).expect("strings serialize")
    } else {
        names.join(" ")
    }
}

#[derive(serde::Serialize)]
struct VariantInfo {
    name: String,
    summary: String,
    points: usize,
    lines: usize,
    mills: usize,
    symmetries: usize,
    pieces: u8,
    flying: Flying,
    removal: Removal,
    phases: morris::rules::Phases,
    full_board: morris::rules::FullBoard,
    rule_set: String,
}

fn variants(json: bool) -> Result<ExitCode, Failure> {
    let infos: Vec<VariantInfo> = Variant::names()
        .map(|name| {
            let v = Variant::by_name(name)?;
            Ok(VariantInfo {
                name: v.name().to_string(),
                summary: v.summary().to_string(),
                points: v.board().len(),
                lines: v.board().lines().len(),
                mills: v.board().mills().len(),
                symmetries: v.symmetries().len(),
                pieces: v.pieces(),
                flying: v.rules().flying,
                removal: v.rules().removal,
                phases: v.rules().phases,
                full_board: v.rules().full_board,
                rule_set: v.rules().id(),
            })
        })
        .collect::<Result<_, Error>>()?;
    let mut out = Out::new();
    if json {
        out.line(serde_json::to_string(&infos).expect("plain data serializes"))?;
        return Ok(ExitCode::SUCCESS);
    }
    out.line(format_args!(
        "{:<11} {:>6} {:>5} {:>5} {:>10} {:>6} {:>7} {:>8} {:>8} {:>10}  description",
        "variant",
        "points",
        "lines",
        "mills",
        "symmetries",
        "pieces",
        "flying",
        "removal",
        "phases",
        "full-board"
    ))?;
    for i in &infos {
        out.line(format_args!(
            "{:<11} {:>6} {:>5} {:>5} {:>10} {:>6} {:>7} {:>8} {:>8} {:>10}  {}",
            i.name,
            i.points,
            i.lines,
            i.mills,
            i.symmetries,
            i.pieces,
            i.flying,
            i.removal,
            i.phases,
            i.full_board,
            i.summary
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}
