//! Endgame practice (`GET /api/practice`): a random solved position of a sector, with a value.

use axum::http::StatusCode;

use super::answer::ApiError;
use super::app::App;
use super::catalog::Opened;
use super::params::Params;
use crate::query::wire::{self, PracticeJson};
use crate::query::{random_seed, SplitMix64};
use crate::rules::{clip, Color, Outcome, Position, Value, Variant};
use crate::space::{Sector, SectorIndex};

/// How many slots a request draws before it gives up.
const TRIES: u64 = 10_000;

/// The values `value` may ask for.
const VALUES: [(&str, Outcome); 3] = [
    ("win", Outcome::Win),
    ("draw", Outcome::Draw),
    ("loss", Outcome::Loss),
];

/// `GET /api/practice`: draws slots of the sector until one holds a position that a game can
/// reach, with the value asked for, and answers it in a random one of its symmetric images.
pub(super) fn practice_work(app: &App, p: &Params) -> Result<String, ApiError> {
    // Every parameter is checked before the database is read.
    let seed = p.seed()?.unwrap_or_else(random_seed);
    let wanted = value(p)?;
    // A sector is a few characters: a longer text is refused clipped.
    let sector: Sector = clip(p.required("sector")?).parse()?;
    let (opened, variant) = app.select(p)?;
    opened.reachable.check_sector(sector)?;
    // An unsolved sector: 404 with the `morris solve` that fills it.
    opened.db.sector(sector)?;
    let index = opened.db.index(sector);
    let mut rng = SplitMix64::new(seed);
    for tries in 1..=TRIES {
        let Some((pos, turn)) = candidate(&opened, &variant, &index, &mut rng) else {
            continue;
        };
        let v = opened.db.probe(&pos)?;
        // A finished position (no move left) is nothing to practise.
        if v == Value::Loss(0) || wanted.is_some_and(|w| w != v.outcome()) {
            continue;
        }
        return Ok(wire::line(&PracticeJson {
            variant: variant.name().to_string(),
            sector: sector.to_string(),
            position: pos.to_notation(&variant, turn),
            value: v.name(),
            depth: v.depth(),
            tries,
        }));
    }
    let with = match wanted {
        Some(w) => format!(
            " with value {}",
            VALUES.iter().find(|v| v.1 == w).map_or("", |v| v.0)
        ),
        None => String::new(),
    };
    Err(ApiError::new(
        StatusCode::NOT_FOUND,
        format!("no position of {sector}{with} found in {TRIES} tries"),
    ))
}

/// The `value` parameter, if given.
fn value(p: &Params) -> Result<Option<Outcome>, ApiError> {
    let Some(name) = p.get("value") else {
        return Ok(None);
    };
    match VALUES.iter().find(|v| v.0 == name) {
        Some(v) => Ok(Some(v.1)),
        None => Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("unknown value {:?} (expected win, draw, loss)", clip(name)),
        )),
    }
}

/// The position of a random slot in a random symmetric image, with the side to move, when the
/// slot is used and a game can reach the position.
///
/// The side to move is White where the hands allow (always in the moving phase, where either
/// may move), so that the player, who takes the side to move, plays White; Black while placing
/// with one more piece in hand.
fn candidate(
    opened: &Opened,
    variant: &Variant,
    index: &SectorIndex,
    rng: &mut SplitMix64,
) -> Option<(Position, Color)> {
    let slot = rng.below(index.size());
    let symmetries = variant.symmetries();
    let sym = &symmetries[rng.below(symmetries.len() as u64) as usize];
    let canonical = index.position(slot)?;
    let pos = Position {
        mover: sym.apply(canonical.mover),
        opponent: sym.apply(canonical.opponent),
        ..canonical
    };
    let turn = pos.turn_from_hands(Color::White);
    opened.reachable.check(&pos, turn).ok()?;
    Some((pos, turn))
}
