//! The `query` and `verify` subcommands.

use std::path::Path;
use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use morris::query::wire;
use morris::query::Analysis;
use morris::space::{reachable, Sector};
use morris::store::Database;
use morris::verify::verify_with as verify_db;
use morris::Progress;
use morris::{Color, Position, Value, Variant};

use crate::cli::{bad_input, for_each_position, Failure, Out, EXIT_FAILURE};

fn to_json(variant: &Variant, pos: &Position, turn: Color, a: &Analysis) -> String {
    wire::json(&wire::QueryJson::new(variant, pos, turn, a))
}

/// The board as a small grid, ranks down the side and files along the bottom.
pub fn diagram(variant: &Variant, pos: &Position, turn: Color) -> String {
    let board = variant.board();
    let (white, black) = match turn {
        Color::White => (pos.mover, pos.opponent),
        Color::Black => (pos.opponent, pos.mover),
    };
    let files = board
        .all()
        .iter()
        .map(|p| board.coord(p).0)
        .max()
        .unwrap_or(0)
        + 1;
    let mut out = String::new();
    for rank in board.ranks() {
        let r = board.coord(rank[0]).1;
        let mut row = vec![' '; 2 * files as usize];
        for &p in rank {
            let f = board.coord(p).0 as usize;
            row[2 * f] = if white.contains(p) {
                'W'
            } else if black.contains(p) {
                'B'
            } else {
                '.'
            };
        }
        out.push_str(&format!(
            "{:>2}  {}\n",
            r + 1,
            row.iter().collect::<String>().trim_end()
        ));
    }
    let letters: Vec<String> = (0..files)
        .map(|f| ((b'a' + f) as char).to_string())
        .collect();
    out.push_str(&format!("    {}\n", letters.join(" ")));
    out.push_str(&format!(
        "    in hand: White {}, Black {}\n",
        if turn == Color::White {
            pos.mover_hand
        } else {
            pos.opponent_hand
        },
        if turn == Color::White {
            pos.opponent_hand
        } else {
            pos.mover_hand
        }
    ));
    out
}

fn verdict(turn: Color, value: Value) -> String {
    match value {
        Value::Loss(0) => format!("{turn} to move has lost: the game is over"),
        Value::Win(d) => format!("{turn} to move wins in {d} plies"),
        Value::Loss(d) => format!("{turn} to move loses in {d} plies"),
        Value::Draw => format!("{turn} to move: draw"),
    }
}

fn to_text(variant: &Variant, pos: &Position, turn: Color, a: &Analysis) -> String {
    let mut out = diagram(variant, pos, turn);
    out.push_str(&format!("{}\n", verdict(turn, a.value)));
    if !a.moves.is_empty() {
        out.push_str(&format!(
            "\n  {:<10} {:<6} {:>5}\n",
            "move", "value", "depth"
        ));
        for m in &a.moves {
            let depth = m.value.depth().map_or("-".to_string(), |d| d.to_string());
            let best = if m.value == a.value { "*" } else { " " };
            out.push_str(&format!(
                "{best} {:<10} {:<6} {:>5}\n",
                m.mv.to_notation(variant.board()),
                m.value.name(),
                depth
            ));
        }
    }
    out.trim_end().to_string()
}

/// `morris query`.
pub fn query(
    variant: &Variant,
    dir: &Path,
    json: bool,
    position: &str,
) -> Result<ExitCode, Failure> {
    let db = Database::new(dir, variant)?;
    let batch = position == "-";
    let reachable = reachable(variant);
    for_each_position(
        variant,
        position,
        |e| serde_json::json!({ "error": e }).to_string(),
        |pos, turn| {
            if let Some(why) = wire::impossible(variant, &reachable, pos, turn) {
                return Err(bad_input(format!(
                    "invalid position {:?}: {why}",
                    pos.to_notation(variant, turn)
                )));
            }
            let a = db.analyse(pos)?;
            Ok(if json || batch {
                to_json(variant, pos, turn, &a)
            } else {
                to_text(variant, pos, turn, &a)
            })
        },
    )
}

/// The progress of `verify`: a bar, and one log line per sector recomputed unless quiet.
struct Bar {
    bar: ProgressBar,
    quiet: bool,
}

impl Progress for Bar {
    fn phase(&self, name: &str, total: u64) {
        self.bar.set_position(0);
        self.bar.set_length(total);
        self.bar.set_message(name.to_string());
    }
    fn advance(&self, n: u64) {
        self.bar.inc(n);
    }
    fn sector_checked(
        &self,
        sector: Sector,
        positions: u64,
        children: u64,
        faults: u64,
        time: std::time::Duration,
    ) {
        if self.quiet {
            return;
        }
        let found = match faults {
            0 => "sound".to_string(),
            n => format!("{n} faults"),
        };
        let line = format!(
            "sector {sector}: {positions} positions, {children} child values in {time:.2?}, {found}"
        );
        // The bar is hidden when stderr is not a terminal; a long run's log still gets the line.
        if self.bar.is_hidden() {
            eprintln!("{line}");
        } else {
            self.bar.println(line);
        }
    }
}

/// The sectors `verify` and `check` look at: the one named, or every file present.
///
/// # Errors
/// A malformed or impossible sector; no sector files at all (with the command that solves
/// them).
pub fn sectors_to_check(db: &Database, sector: Option<&str>) -> Result<Vec<Sector>, Failure> {
    let variant = db.variant();
    let sectors = match sector {
        Some(text) => {
            let s: Sector = text.parse()?;
            s.check(variant)?;
            vec![s]
        }
        None => db.present(),
    };
    if sectors.is_empty() {
        return Err(bad_input(format!(
            "no sector files of {} in {}; run `{}` first",
            variant.rule_set_name(),
            db.dir().display(),
            db.solve_command("")
        )));
    }
    Ok(sectors)
}

/// `morris verify`.
pub fn verify(
    variant: &Variant,
    dir: &Path,
    sector: Option<&str>,
    max_faults: usize,
    resume: bool,
    quiet: bool,
) -> Result<ExitCode, Failure> {
    let db = Database::new(dir, variant)?;
    let sectors = sectors_to_check(&db, sector)?;
    let bar = ProgressBar::with_draw_target(
        Some(0),
        if quiet {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        },
    );
    bar.set_style(
        ProgressStyle::with_template("verify [{bar:30}] {pos}/{len} {msg} ({eta})")
            .unwrap()
            .progress_chars("=> "),
    );
    let report = verify_db(
        &db,
        &sectors,
        max_faults,
        resume,
        &Bar {
            bar: bar.clone(),
            quiet,
        },
    );
    bar.finish_and_clear();
    let mut out = Out::new();
    for f in &report.faults {
        out.line(format_args!("FAULT {f}"))?;
    }
    if report.fault_count > report.faults.len() as u64 {
        out.line(format_args!(
            "... and {} more faults",
            report.fault_count - report.faults.len() as u64
        ))?;
    }
    if report.skipped > 0 {
        out.line(format_args!(
            "{} sectors proved before (their proof records match the files) were not recomputed",
            report.skipped
        ))?;
    }
    out.line(format_args!(
        "checked {} sectors, {} positions, {} child values: {}",
        report.sectors,
        report.positions,
        report.children,
        if report.fault_count == 0 {
            "all hold".to_string()
        } else {
            format!("{} faults", report.fault_count)
        }
    ))?;
    Ok(if report.fault_count == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_FAILURE)
    })
}
