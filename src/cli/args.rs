//! The command line's arguments: the game every subcommand takes, and each subcommand's own.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use morris::rules::{RuleOverrides, SWITCHES};
use morris::{InvalidInput, Variant};

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
    /// The game and its rules.
    #[command(flatten)]
    pub game: GameArgs,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The variant and rule overrides every subcommand takes; the names come from the library's
/// one table of variants and switches.
#[derive(Args, Debug)]
pub struct GameArgs {
    #[arg(long, global = true, default_value = "nine", help = variant_help())]
    variant: String,
    #[arg(long, global = true, value_name = value_names(0), help = switch_help(0))]
    flying: Option<String>,
    #[arg(long, global = true, value_name = value_names(1), help = switch_help(1))]
    removal: Option<String>,
    #[arg(long, global = true, value_name = value_names(2), help = switch_help(2))]
    phases: Option<String>,
    #[arg(long = "full-board", global = true, value_name = value_names(3), help = switch_help(3))]
    full_board: Option<String>,
}

fn variant_help() -> String {
    let names: Vec<&str> = Variant::names().collect();
    format!("The game: {} (see `morris variants`)", names.join(", "))
}

fn value_names(switch: usize) -> String {
    SWITCHES[switch].values.join("|")
}

fn switch_help(switch: usize) -> String {
    format!("Override the variant's rule. {}", SWITCHES[switch].help)
}

impl GameArgs {
    /// The variant with the overrides given.
    pub fn variant(&self) -> Result<Variant, InvalidInput> {
        // The fields are in the order of the table.
        let given = [&self.flying, &self.removal, &self.phases, &self.full_board];
        let overrides = RuleOverrides::from_names(|name| {
            let i = SWITCHES.iter().position(|s| s.name == name)?;
            given[i].as_deref()
        })?;
        Ok(Variant::by_name(&self.variant)?.with_overrides(overrides))
    }
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
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
    /// Build compact tables from a solved database folder: per sector a win/draw/loss table
    /// and a depth table, compressed in blocks that each decode alone, every block checksummed.
    ///
    /// `query`, `stats`, `check`, `verify` and `serve` read them with `--tables TABLES` and
    /// answer exactly as from the database. Resumes: tables already built from the same
    /// database files are kept.
    Tables(TablesArgs),
    /// Solve the game (or part of it) into a database folder, resuming what is already solved.
    ///
    /// Work units (strongly connected sets of sectors) are solved dependencies first; sectors
    /// whose files are complete and valid are skipped, so an interrupted run picks up where it
    /// stopped. Prints the start position's value when the whole game is solved.
    Solve(SolveArgs),
    /// Print per solved sector: canonical and raw positions, wins, losses, draws, maximum depth.
    Stats {
        #[command(flatten)]
        source: Source,
        /// Print one JSON object instead of a table.
        #[arg(long)]
        json: bool,
        /// Print the depth histogram of every solved sector together instead: canonical
        /// positions per depth and value, tab-separated as `scripts/depths.py` counts a
        /// database folder (every slot is read: minutes for a whole game of nine).
        #[arg(long, conflicts_with = "json")]
        depths: bool,
        /// Print instead, per sector, how many positions the N-move rule leaves won, cursed
        /// (won without the rule, drawn with it), drawn, blessed (lost without the rule, drawn
        /// with it) and lost, for a fresh counter: N quiet plies (slides and flies without a
        /// removal) in a row draw the game (`data/rules.md`). Analyses every sector held, from
        /// its values (a retrograde pass as long as a solve's).
        #[arg(long, value_name = "N", conflicts_with_all = ["json", "depths"])]
        n_move_rule: Option<u16>,
        /// No progress bar (with --depths or --n-move-rule).
        #[arg(long, short)]
        quiet: bool,
    },
    /// The value and depth of a position and of every legal move, best first, from a database.
    ///
    /// Depth counts plies to the end of the game under perfect play: wins as short as possible,
    /// losses as long as possible. A move's value is what the side to move gets by playing it,
    /// its depth counted from the current position. With POSITION `-`, one position is read
    /// per line of standard input and one JSON object printed per line.
    Query {
        #[command(flatten)]
        source: Source,
        /// Print one JSON object: {"variant", "position", "value", "depth", "moves": [...]}.
        #[arg(long)]
        json: bool,
        /// Add each value under the N-move rule (N quiet plies, slides and flies without a
        /// removal, in a row draw the game; `data/rules.md`) for a fresh counter: win, cursed
        /// win (won only without the rule), draw, blessed loss (lost only without it) or loss;
        /// the JSON adds "rule_value" and "n_move_rule". First analyses the position's sector
        /// and every sector it leads to (seconds for six and seven; a whole game of nine
        /// takes as long as its solve).
        #[arg(long, value_name = "N")]
        n_move_rule: Option<u16>,
        /// The position (`start` for the empty board), or `-` to read one per line from standard
        /// input.
        position: String,
    },
    /// Prove a database: check every file's header and checksum, and recompute every stored
    /// position from its children by forward move generation (value and depth).
    ///
    /// Exits 1 on any fault, naming the sector and position with the expected and stored values.
    Verify(VerifyArgs),
    /// Check every sector file's integrity (header, block table, every payload block's
    /// checksum) without recomputing values: a fast pass over a whole database.
    ///
    /// Exits 1 on any damage, naming the file and block.
    Check {
        #[command(flatten)]
        source: Source,
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
    Serve(ServeArgs),
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

/// Where values are read from: a database folder, or the compact tables built from one.
#[derive(Args, Debug, Clone)]
pub struct Source {
    /// The database folder (a subfolder per variant and rule set).
    #[arg(long, default_value = "db")]
    pub db: PathBuf,
    /// Read compact tables (built by `morris tables`) instead of a database folder: the same
    /// answers, from a folder a tenth of the database's size or less.
    #[arg(long, value_name = "TABLES", conflicts_with = "db")]
    pub tables: Option<PathBuf>,
}

/// `morris tables`.
#[derive(Args, Debug)]
pub struct TablesArgs {
    /// The solved database folder to build from (a subfolder per variant and rule set).
    #[arg(long, default_value = "db")]
    pub db: PathBuf,
    /// The folder to write the tables to (a subfolder per variant and rule set); tables
    /// already built there from the same database files are kept.
    #[arg(long, value_name = "TABLES")]
    pub out: PathBuf,
    /// Worker threads, 1 to 1024 (default: every core).
    #[arg(long, value_parser = thread_count)]
    pub threads: Option<usize>,
    /// The zstd level of the win/draw/loss blocks (1 to 22; higher: smaller and slower to build,
    /// as fast to read).
    #[arg(long, default_value_t = 19, value_parser = clap::value_parser!(i32).range(1..=22))]
    pub wdl_level: i32,
    /// The zstd level of the depth blocks (1 to 22).
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(i32).range(1..=22))]
    pub depth_level: i32,
    /// The win/draw/loss model: `smaller` picks per sector whichever of the others compresses
    /// a sample of its blocks smaller.
    #[arg(long, value_enum, default_value = "smaller")]
    pub model: ModelArg,
    /// Build the win/draw/loss tables only, without depth tables: a smaller set whose readers
    /// answer every position's value, and no distances (`query` says so). Tables already
    /// built and sound are kept, their depth tables with them; a sector rebuilt loses its
    /// depth table.
    #[arg(long)]
    pub wdl_only: bool,
    /// Print one JSON object with every sector's file sizes and checksums.
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `tables --model`.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum ModelArg {
    /// Per sector, the smaller of the two.
    Smaller,
    /// The win/draw/loss symbols themselves.
    None,
    /// Each symbol's rank under its position's context (mill threats, mobility).
    Contexts,
}

/// `morris solve`.
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
    /// List the work units in dependency order with their sizes, and solve nothing. Over a
    /// folder that holds solved units, it also says how many and the modelled time left.
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
    /// Solve into compact tables: each sector is turned into its two tables (as `tables`
    /// builds them, with its default options or the levels below) in the --db folder as soon
    /// as every unit that reads it is solved, and its sector file removed. The disk holds the
    /// tables and only the files some unit still reads (`--plan` prints the peak); the
    /// finished folder is read with `--tables`. Units read their children from sector files,
    /// so a later solve that reads a sector already turned decodes its tables (slower, still
    /// exact). With --simulate-workers: the units' costs include turning them into tables.
    #[arg(long)]
    pub compact: bool,
    /// With --compact: the zstd level of the win/draw/loss blocks, as `tables --wdl-level`
    /// (1 to 22; default 19).
    #[arg(long, requires = "compact", value_parser = clap::value_parser!(i32).range(1..=22))]
    pub wdl_level: Option<i32>,
    /// With --compact: the zstd level of the depth blocks, as `tables --depth-level` (1 to 22;
    /// default 12). Most of the time of turning a sector goes to its depth blocks: at 6 a
    /// sector turns in about half the time, its depth table 4-11% larger (Morabaraba's 6-6-0-0
    /// and 4-10-0-0); `solve --plan` models the time at the level given.
    #[arg(long, requires = "compact", value_parser = clap::value_parser!(i32).range(1..=22))]
    pub depth_level: Option<i32>,
    /// No progress bars.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `morris verify`.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub source: Source,
    /// Only this sector `W-B-WF-BF`.
    #[arg(long, value_name = "W-B-WF-BF")]
    pub sector: Option<String>,
    /// List at most this many faults (all are counted).
    #[arg(long, default_value_t = 20)]
    pub max_faults: usize,
    /// Go on where an interrupted `verify --resume` stopped: record each sector found
    /// sound in `W-B-WF-BF.proved` next to its file (the checksums of its file and of the
    /// files it reads), and skip recomputing a sector whose record matches the files as
    /// they are now (their blocks are still checked).
    #[arg(long)]
    pub resume: bool,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `morris serve`.
#[cfg(feature = "serve")]
#[derive(Args, Debug)]
pub struct ServeArgs {
    #[command(flatten)]
    pub source: Source,
    /// The address to listen on: loopback unless told otherwise (port 0: any free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub bind: std::net::SocketAddr,
    /// Seconds a request may take to arrive, and to be answered.
    #[arg(long, default_value_t = 10.0, value_parser = parse_timeout)]
    pub timeout: f64,
    /// Let pages of this origin (e.g. `https://example.org`) read the API's answers; repeat
    /// for more, or `any` for every origin. Without it, browsers keep the answers from pages
    /// of other origins.
    #[arg(long, value_name = "ORIGIN|any")]
    pub cors: Vec<String>,
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
