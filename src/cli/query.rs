//! `morris query`: a position's value and every move's, as a diagram and a table or as JSON.

use std::process::ExitCode;

use morris::query::wire;
use morris::{Analysis, Color, Position, Value, Variant};

use super::args::Source;
use super::output::{for_each_position, Failure};

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
    source: &Source,
    json: bool,
    position: &str,
) -> Result<ExitCode, Failure> {
    let db = super::folder::reader(source, variant)?;
    let batch = position == "-";
    for_each_position(
        variant,
        position,
        |e| serde_json::json!({ "error": e }).to_string(),
        |pos, turn| {
            let a = db.analyse(pos)?;
            Ok(if json || batch {
                to_json(variant, pos, turn, &a)
            } else {
                to_text(variant, pos, turn, &a)
            })
        },
    )
}
