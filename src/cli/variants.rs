//! `morris variants`: every variant with its board, pieces and rules.

use std::process::ExitCode;

use morris::rules::{FullBoard, Phases};
use morris::{Flying, InvalidInput, Removal, Variant};

use super::output::{Failure, Out};

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
    phases: Phases,
    full_board: FullBoard,
    rule_set: String,
}

/// `morris variants`.
pub fn variants(json: bool) -> Result<ExitCode, Failure> {
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
        .collect::<Result<_, InvalidInput>>()?;
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
