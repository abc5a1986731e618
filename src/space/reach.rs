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
    /// The same sectors as bits, for the check of every position a batch probes: one load
    /// where a walk of the `BTreeSet` cost a good part of a probe.
    bits: SectorBits,
}

impl Reachable {
    /// The reachable sectors of `variant` (a plan of the whole game: milliseconds).
    pub fn new(variant: &Variant) -> Reachable {
        let sectors = reachable(variant);
        Reachable {
            bits: SectorBits::new(variant.pieces(), &sectors),
            variant: variant.clone(),
            sectors,
        }
    }

    /// The sectors, the terminal ones included.
    pub fn sectors(&self) -> &BTreeSet<Sector> {
        &self.sectors
    }

    /// Whether a game reaches `sector`.
    pub fn contains(&self, sector: Sector) -> bool {
        self.bits.contains(sector)
    }

    /// Checks that `sector` holds positions a game can reach and that are stored: its counts
    /// fit the variant, the mover keeps three pieces, and some game from the start reaches it.
    ///
    /// # Errors
    /// `InvalidInput::Sector` saying which of these fails, and why.
    pub fn check_sector(&self, sector: Sector) -> Result<(), InvalidInput> {
        sector.check(&self.variant)?;
        let why = if sector.is_terminal() {
            "the mover has fewer than three pieces, so every position is lost at depth 0 and nothing is stored".to_string()
        } else if !self.contains(sector) {
            format!(
                "no game from the start reaches it{}",
                lost_without_mills(&self.variant, sector, "the mover", "the opponent")
            )
        } else {
            return Ok(());
        };
        Err(InvalidInput::Sector {
            sector: sector.to_string(),
            why,
        })
    }

    /// Checks that `pos` (with `turn` to move) can arise in a game from the start.
    ///
    /// # Errors
    /// `InvalidInput::Position` saying why not: the side that just moved has already lost, or
    /// no game reaches its sector (and, where it can be told, what makes it impossible).
    pub fn check(&self, pos: &Position, turn: Color) -> Result<(), InvalidInput> {
        match impossible(&self.variant, self, pos, turn) {
            None => Ok(()),
            Some(why) => Err(InvalidInput::Position {
                input: pos.to_notation(&self.variant, turn),
                why,
            }),
        }
    }
}

/// A set of sectors of a variant of `pieces` pieces a side as bits, one per `(mover, opponent,
/// mover_hand, opponent_hand)` with each count from 0 to `pieces` (nine: 10^4 bits).
#[derive(Clone, Debug)]
struct SectorBits {
    side: usize,
    words: Vec<u64>,
}

impl SectorBits {
    fn new(pieces: u8, sectors: &BTreeSet<Sector>) -> SectorBits {
        let side = usize::from(pieces) + 1;
        let mut bits = SectorBits {
            side,
            words: vec![0; side.pow(4).div_ceil(64)],
        };
        for &s in sectors {
            if let Some(i) = bits.slot(s) {
                bits.words[i / 64] |= 1 << (i % 64);
            }
        }
        bits
    }

    /// The bit of `s`; `None` for counts beyond the pieces (in no set).
    fn slot(&self, s: Sector) -> Option<usize> {
        let counts = [s.mover, s.opponent, s.mover_hand, s.opponent_hand];
        counts.iter().try_fold(0, |i, &c| {
            let c = usize::from(c);
            (c < self.side).then_some(i * self.side + c)
        })
    }

    fn contains(&self, s: Sector) -> bool {
        self.slot(s)
            .is_some_and(|i| self.words[i / 64] >> (i % 64) & 1 == 1)
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
/// that just moved has already lost, or no game reaches its sector (not in `reachable`).
///
/// Both front-ends refuse such a position with `invalid position "...": ` and this reason,
/// before reading the database: `query` and `GET /api/query` answer alike.
fn impossible(
    variant: &Variant,
    reachable: &Reachable,
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
    if reachable.contains(sector) {
        return None;
    }
    let counts = format!(
        "{mover} to move with {} on the board and {} in hand, {opponent} with {} and {} (sector {sector})",
        pos.mover.len(),
        pos.mover_hand,
        pos.opponent.len(),
        pos.opponent_hand
    );
    let why = lost_without_mills(variant, sector, &mover.to_string(), &opponent.to_string());
    Some(format!(
        "cannot occur in a game: no game from the start reaches {counts}{why}"
    ))
}

/// Why no game reaches `sector` when pieces are gone that no mill could have taken, as `; ...`
/// (empty when that is not the reason), naming the sides `mover` and `opponent`. Each mill
/// removes one piece, and a side forms mills only with three pieces on the board: at most one
/// mill for each placement from its third on.
fn lost_without_mills(variant: &Variant, s: Sector, mover: &str, opponent: &str) -> String {
    // Under Lasker's phases mills also come from moves made with pieces in hand: no reason.
    if variant.rules().phases != Phases::Separate {
        return String::new();
    }
    let pieces = variant.pieces() as u32;
    let on = |board: u8, hand: u8| board as u32 + hand as u32;
    let mover_lost = pieces.saturating_sub(on(s.mover, s.mover_hand));
    let opponent_lost = pieces.saturating_sub(on(s.opponent, s.opponent_hand));
    let mover_placed = pieces.saturating_sub(s.mover_hand as u32);
    let opponent_placed = pieces.saturating_sub(s.opponent_hand as u32);
    if opponent_lost > mover_placed.saturating_sub(2) {
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
    }
}

fn pieces_text(n: u32) -> String {
    if n == 1 {
        "1 piece".into()
    } else {
        format!("{n} pieces")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bits hold exactly the set's sectors, for every variant and every count up to one
    /// beyond its pieces (the bits' edge).
    #[test]
    fn the_bits_hold_the_sets_sectors() {
        for name in Variant::names() {
            let v = Variant::by_name(name).unwrap();
            let r = Reachable::new(&v);
            let top = v.pieces() + 1;
            let mut held = 0;
            for mover in 0..=top {
                for opponent in 0..=top {
                    for mover_hand in 0..=top {
                        for opponent_hand in 0..=top {
                            let s = Sector {
                                mover,
                                opponent,
                                mover_hand,
                                opponent_hand,
                            };
                            assert_eq!(r.contains(s), r.sectors().contains(&s), "{name} {s}");
                            held += usize::from(r.contains(s));
                        }
                    }
                }
            }
            assert_eq!(held, r.sectors().len(), "{name}");
        }
    }
}
