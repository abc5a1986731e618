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

/// How many slots a request draws at random before it reads the sector in order.
const TRIES: u64 = 10_000;

/// How many slots the ordered read takes, from a random one on, before the request gives up:
/// a whole sector of up to this size, so that a value a sector holds is found however rare
/// (six's and the endgames' sectors; nine's largest hold about 50 M slots).
const SCAN: u64 = 4_000_000;

/// The values `value` may ask for.
const VALUES: [(&str, Outcome); 3] = [
    ("win", Outcome::Win),
    ("draw", Outcome::Draw),
    ("loss", Outcome::Loss),
];

/// `GET /api/practice`: draws slots of the sector until one holds a position that a game can
/// reach, with the value asked for (at least `min_depth` plies from the end when it is a win or
/// a loss), and answers it in a random one of its symmetric images, with the side asked for to
/// move where the hands allow. Random draws come first; then the sector is read in order from
/// a random slot, so that a rare value is found too.
pub(super) fn practice_work(app: &App, p: &Params) -> Result<String, ApiError> {
    // Every parameter is checked before the database is read.
    let seed = p.seed()?.unwrap_or_else(random_seed);
    let wanted = value(p)?;
    let min_depth = min_depth(p)?;
    let side = side(p)?;
    // A sector is a few characters: a longer text is refused clipped.
    let sector: Sector = clip(p.required("sector")?).parse()?;
    let (opened, variant) = app.select(p)?;
    opened.reachable.check_sector(sector)?;
    // An unsolved sector: 404 with the `morris solve` that fills it.
    opened.db.sector(sector)?;
    let index = opened.db.index(sector);
    let mut rng = SplitMix64::new(seed);
    let scan = SCAN.min(index.size());
    // Where the ordered read starts, drawn when it starts (so that a seed's random draws are
    // those of a request that finds its position among them).
    let mut first = 0;
    for tries in 1..=TRIES + scan {
        let slot = if tries <= TRIES {
            rng.below(index.size())
        } else {
            if tries == TRIES + 1 {
                first = rng.below(index.size());
            }
            (first + tries - TRIES - 1) % index.size()
        };
        let Some((pos, turn)) = candidate(&opened, &variant, &index, slot, side, &mut rng) else {
            continue;
        };
        let v = opened.db.probe(&pos)?;
        // A finished position (no move left) is nothing to practise.
        if v == Value::Loss(0)
            || wanted.is_some_and(|w| w != v.outcome())
            || v.depth().is_some_and(|d| d < min_depth)
        {
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
    let mut with = match wanted {
        Some(w) => format!(
            " with value {}",
            VALUES.iter().find(|v| v.1 == w).map_or("", |v| v.0)
        ),
        None => String::new(),
    };
    if min_depth > 0 {
        with.push_str(&format!(" at least {min_depth} plies from the end"));
    }
    let read = if scan == index.size() {
        format!("in {TRIES} random slots and all {scan} of the sector")
    } else {
        format!(
            "in {TRIES} random slots and {scan} of its {} in order",
            index.size()
        )
    };
    Err(ApiError::new(
        StatusCode::NOT_FOUND,
        format!("no position of {sector}{with} found {read}"),
    ))
}

/// The `min_depth` parameter: 0 unless given.
fn min_depth(p: &Params) -> Result<u32, ApiError> {
    let Some(text) = p.get("min_depth") else {
        return Ok(0);
    };
    text.parse::<u32>().map_err(|_| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            format!(
                "min_depth must be a number of plies from 0 to 2^32-1, found {:?}",
                clip(text)
            ),
        )
    })
}

/// The `side` parameter (`w` or `b`): the colour to move where the hands leave it open.
fn side(p: &Params) -> Result<Color, ApiError> {
    match p.get("side") {
        None | Some("w") => Ok(Color::White),
        Some("b") => Ok(Color::Black),
        Some(other) => Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("unknown side {:?} (expected w, b)", clip(other)),
        )),
    }
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

/// The position of `slot` in a random symmetric image, with the side to move, when the slot is
/// used and a game can reach the position.
///
/// The side to move is `side` where the hands allow (always in the moving phase, where either
/// may move), so that the player, who takes the side to move, plays it; while placing, the
/// hands decide (Black with one more piece in hand, else White).
fn candidate(
    opened: &Opened,
    variant: &Variant,
    index: &SectorIndex,
    slot: u64,
    side: Color,
    rng: &mut SplitMix64,
) -> Option<(Position, Color)> {
    let symmetries = variant.symmetries();
    let sym = &symmetries[rng.below(symmetries.len() as u64) as usize];
    let canonical = index.position(slot)?;
    let pos = Position {
        mover: sym.apply(canonical.mover),
        opponent: sym.apply(canonical.opponent),
        ..canonical
    };
    let turn = pos.turn_from_hands(side);
    opened.reachable.check(&pos, turn).ok()?;
    Some((pos, turn))
}
