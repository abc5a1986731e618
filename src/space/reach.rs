//! Reachability: which sectors and positions a game from the start can reach, and why not.

use std::collections::BTreeSet;

use super::sector::{plan, Sector};
use crate::invalid::InvalidInput;
use crate::rules::{Color, Phases, Position, Variant};

/// The sectors some game from the start reaches, the terminal ones included, to tell the
/// positions that can occur from those that cannot. Every front-end that takes a position
/// (`query`, `moves`, `perft`, the HTTP API) checks it here, so that all refuse alike.
#[derive(Clone, Debug)]
pub struct Reachable {
    variant: Variant,
    sectors: BTreeSet<Sector>,
}

impl Reachable {
    /// The reachable sectors of `variant` (a plan of the whole game: milliseconds).
    pub fn new(variant: &Variant) -> Reachable {
        Reachable {
            variant: variant.clone(),
            sectors: reachable(variant),
        }
    }

    /// The sectors, the terminal ones included.
    pub fn sectors(&self) -> &BTreeSet<Sector> {
        &self.sectors
    }

    /// Whether a game reaches `sector`.
    pub fn contains(&self, sector: Sector) -> bool {
        self.sectors.contains(&sector)
    }

    /// Checks that `pos` (with `turn` to move) can arise in a game from the start.
    ///
    /// # Errors
    /// `InvalidInput::Position` saying why not: the side that just moved has already lost, or
    /// no game reaches its sector (and, where it can be told, what makes it impossible).
    pub fn check(&self, pos: &Position, turn: Color) -> Result<(), InvalidInput> {
        match impossible(&self.variant, &self.sectors, pos, turn) {
            None => Ok(()),
            Some(why) => Err(InvalidInput::Position {
                input: pos.to_notation(&self.variant, turn),
                why,
            }),
        }
    }
}

/// Every sector that some game reaches from the start, the terminal sectors included (a
/// mover below three pieces has lost: depth 0). A position outside them cannot occur in a game.
pub fn reachable(variant: &Variant) -> BTreeSet<Sector> {
    let mut out = BTreeSet::new();
    for s in plan(variant, &[Sector::start(variant)])
        .into_iter()
        .flat_map(|u| u.sectors)
    {
        out.insert(s);
        out.extend(s.successors_with_terminal(variant));
    }
    out
}

/// Why a well-formed position cannot arise in a game from the start, if it cannot: the side
/// that just moved has already lost, or no game reaches its sector (`reachable` holds every
/// sector that some game reaches, as [`crate::space::reachable`] gives them).
///
/// Both front-ends refuse such a position with `invalid position "...": ` and this reason,
/// before reading the database: `query` and `GET /api/query` answer alike.
fn impossible(
    variant: &Variant,
    reachable: &BTreeSet<Sector>,
    pos: &Position,
    turn: Color,
) -> Option<String> {
    let (mover, opponent) = (turn, turn.other());
    if pos.opponent_pieces() < 3 {
        return Some(format!(
            "cannot occur in a game: {opponent}, the side that just moved, has {} on the board and {} in hand, fewer than three pieces, so the game ended before this position",
            pos.opponent.len(),
            pos.opponent_hand
        ));
    }
    let sector = Sector::of(pos);
    if reachable.contains(&sector) {
        return None;
    }
    let counts = format!(
        "{mover} to move with {} on the board and {} in hand, {opponent} with {} and {} (sector {sector})",
        pos.mover.len(),
        pos.mover_hand,
        pos.opponent.len(),
        pos.opponent_hand
    );
    // Each mill removes one piece, and a side forms mills only with three pieces on the board:
    // at most one mill for each placement from its third on.
    let pieces = variant.pieces() as u32;
    let (mover_lost, opponent_lost) = (pieces - pos.mover_pieces(), pieces - pos.opponent_pieces());
    let (mover_placed, opponent_placed) = (
        (variant.pieces() - pos.mover_hand) as u32,
        (variant.pieces() - pos.opponent_hand) as u32,
    );
    // Under Lasker's phases mills also come from moves made with pieces in hand: no reason.
    let separate = variant.rules().phases == Phases::Separate;
    let why = if !separate {
        String::new()
    } else if opponent_lost > mover_placed.saturating_sub(2) {
        format!(
            "; {opponent} has lost {}, but {mover} has placed only {mover_placed} and a mill needs three pieces on the board",
            pieces_text(opponent_lost)
        )
    } else if mover_lost > opponent_placed.saturating_sub(2) {
        format!(
            "; {mover} has lost {}, but {opponent} has placed only {opponent_placed} and a mill needs three pieces on the board",
            pieces_text(mover_lost)
        )
    } else {
        String::new()
    };
    Some(format!(
        "cannot occur in a game: no game from the start reaches {counts}{why}"
    ))
}

fn pieces_text(n: u32) -> String {
    if n == 1 {
        "1 piece".into()
    } else {
        format!("{n} pieces")
    }
}
