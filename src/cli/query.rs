//! `morris query`: a position's value and every move's, as a diagram and a table or as JSON.

use std::process::ExitCode;

use morris::nmove::{RuleCache, RuleValue, RuledAnswer};
use morris::query::{wire, Answer};
use morris::{Color, Database, Move, Outcome, Position, Value, Variant};

use super::args::Source;
use super::output::{for_each_position, Failure};

fn to_json(
    variant: &Variant,
    pos: &Position,
    turn: Color,
    a: &Answer,
    rule: Option<&RuledAnswer>,
) -> String {
    let answer = wire::QueryJson::of(variant, pos, turn, a);
    wire::json(&match rule {
        Some(r) => answer.with_rule(r),
        None => answer,
    })
}

/// The values of `pos` and its moves under the `n`-move rule, analysing first what `rules`
/// lacks, with a progress bar.
fn ruled(
    db: &Database,
    rules: &RuleCache,
    n: u16,
    pos: &Position,
    a: &Answer,
) -> Result<RuledAnswer, Failure> {
    let bar = super::bars::CheckBar::new("rule", " slots", 0, false);
    let answer = rules.answer(db, n, pos, &a.moves(), &bar)?;
    bar.bar.finish_and_clear();
    Ok(answer)
}

/// The verdict's line under the rule.
fn rule_verdict(turn: Color, r: &RuledAnswer) -> String {
    let said = match r.value {
        RuleValue::Win => "wins",
        RuleValue::CursedWin => "draws (a cursed win: won only without the rule)",
        RuleValue::Draw => "draws",
        RuleValue::BlessedLoss => "draws (a blessed loss: lost only without the rule)",
        RuleValue::Loss => "loses",
    };
    format!(
        "under the {}-move rule, from a fresh counter, {turn} to move {said}",
        r.n
    )
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

/// What a folder without depth files says of the position, and why it gives no depth.
fn outcome_verdict(turn: Color, outcome: Outcome) -> String {
    let said = match outcome {
        Outcome::Win => format!("{turn} to move wins"),
        Outcome::Loss => format!("{turn} to move loses"),
        Outcome::Draw => format!("{turn} to move: draw"),
    };
    format!(
        "{said}\n(these tables hold win/draw/loss without their depth files: no distances are \
         known, and winning moves are not told apart)"
    )
}

/// The diagram, the verdict and the table of moves: each row a move, its value's name, its
/// depth (`-` for none) and whether it keeps the position's value; with a rule, its verdict
/// and a column of each move's value under it.
fn text(
    variant: &Variant,
    (pos, turn): (&Position, Color),
    verdict: String,
    rows: Vec<(Move, &str, String, bool)>,
    rule: Option<&RuledAnswer>,
) -> String {
    let mut out = diagram(variant, pos, turn);
    out.push_str(&format!("{verdict}\n"));
    if let Some(r) = rule {
        out.push_str(&format!("{}\n", rule_verdict(turn, r)));
    }
    let column = |k: usize| rule.map_or(String::new(), |r| format!(" {}", r.moves[k].name()));
    if !rows.is_empty() {
        let head = rule.map_or(String::new(), |r| format!(" {}-ply rule", r.n));
        out.push_str(&format!(
            "\n  {:<10} {:<6} {:>5}{head}\n",
            "move", "value", "depth"
        ));
        for (k, (mv, value, depth, best)) in rows.into_iter().enumerate() {
            out.push_str(&format!(
                "{} {:<10} {:<6} {:>5}{}\n",
                if best { "*" } else { " " },
                mv.to_notation(variant.board()),
                value,
                depth,
                column(k)
            ));
        }
    }
    out.trim_end().to_string()
}

fn to_text(
    variant: &Variant,
    pos: &Position,
    turn: Color,
    a: &Answer,
    rule: Option<&RuledAnswer>,
) -> String {
    match a {
        Answer::Values(a) => {
            let rows = (a.moves.iter())
                .map(|m| {
                    let depth = m.value.depth().map_or("-".to_string(), |d| d.to_string());
                    (m.mv, m.value.name(), depth, m.value == a.value)
                })
                .collect();
            text(variant, (pos, turn), verdict(turn, a.value), rows, rule)
        }
        // Outcomes without distances: depth `-` throughout.
        Answer::Outcomes(a) => {
            let rows = (a.moves.iter())
                .map(|m| {
                    (
                        m.mv,
                        m.outcome.name(),
                        "-".to_string(),
                        m.outcome == a.outcome,
                    )
                })
                .collect();
            text(
                variant,
                (pos, turn),
                outcome_verdict(turn, a.outcome),
                rows,
                rule,
            )
        }
    }
}

/// `morris query`.
pub fn query(
    variant: &Variant,
    source: &Source,
    json: bool,
    n_move_rule: Option<u16>,
    position: &str,
) -> Result<ExitCode, Failure> {
    let db = super::folder::reader(source, variant)?;
    let batch = position == "-";
    let rules = RuleCache::default();
    for_each_position(
        variant,
        position,
        |e| serde_json::json!({ "error": e }).to_string(),
        |pos, turn| {
            let a = db.answer(pos)?;
            let rule = match n_move_rule {
                Some(n) => Some(ruled(&db, &rules, n, pos, &a)?),
                None => None,
            };
            Ok(if json || batch {
                to_json(variant, pos, turn, &a, rule.as_ref())
            } else {
                to_text(variant, pos, turn, &a, rule.as_ref())
            })
        },
    )
}
