//! The API's handlers: parameters checked on the runtime, database work on blocking threads.

use std::sync::Arc;

use axum::extract::{RawQuery, State};
use axum::http::{header, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

use super::answer::{json, public_message, whole_game_command, ApiError};
use super::app::App;
use super::catalog::Opened;
use super::params::Params;
use crate::error::Error;
use crate::progress::Silent;
use crate::query::wire::{self, BestMoveJson, ExploreJson, ExploreMoveJson, QueryJson, StatsJson};
use crate::query::{choose, random_seed, sample, traps, Choice, Rule, Sample, Strength};
use crate::rules::clip;
use crate::rules::Value;
use crate::rules::Variant;
use crate::rules::{generate, play, Move};
use crate::rules::{Color, Position};
use crate::space::Sector;

/// The work of one route: from the checked parameters to the body.
type Work = fn(&App, &Params) -> Result<String, ApiError>;

/// Checks the parameters, then does `work` on a blocking thread, within the timeout and with
/// at most the pool's permits in flight.
async fn answer(app: Arc<App>, raw: Option<String>, allowed: &[&str], work: Work) -> Response {
    let params = match Params::parse(raw.as_deref(), allowed) {
        Ok(p) => p,
        Err(e) => return e.into_response(),
    };
    let timeout = app.timeout;
    let task = async move {
        let permit = app.work.clone().acquire_owned().await.map_err(|_| {
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server is shutting down".into(),
            )
        })?;
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work(&app, &params)
        })
        .await
        .map_err(|e| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("the request failed: {e}"),
            )
        })?
    };
    match tokio::time::timeout(timeout, task).await {
        Ok(Ok(body)) => json(body),
        Ok(Err(e)) => e.into_response(),
        Err(_) => ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the database did not answer within {:.1} s; try again",
                timeout.as_secs_f64()
            ),
        )
        .into_response(),
    }
}

/// `GET /api/variants`.
pub(super) async fn variants(State(app): State<Arc<App>>, RawQuery(q): RawQuery) -> Response {
    answer(app, q, &[], variants_work).await
}

/// `GET /api/query`: exactly `query --json`.
pub(super) async fn query(State(app): State<Arc<App>>, RawQuery(q): RawQuery) -> Response {
    answer(app, q, &["variant", "position", "n_move_rule"], query_work).await
}

/// `GET /api/explore`.
pub(super) async fn explore(State(app): State<Arc<App>>, RawQuery(q): RawQuery) -> Response {
    answer(app, q, &["variant", "position", "traps"], explore_work).await
}

/// `GET /api/line`.
pub(super) async fn line(State(app): State<Arc<App>>, RawQuery(q): RawQuery) -> Response {
    answer(
        app,
        q,
        &["variant", "position", "moves", "traps"],
        line_work,
    )
    .await
}

/// The most moves `GET /api/line` plays in one request (a request head is at most 16 KiB).
const LINE_MOVES: usize = 2_000;

/// `GET /api/line`: each position of a line (the start, then after each move of `moves`, a
/// comma-separated list), as `explore` answers it. A move that is not legal where it stands
/// ends the line there, and the answer says which and why.
fn line_work(app: &App, p: &Params) -> Result<String, ApiError> {
    // One of the opponent's moves unless asked: a game's every position two deep would take
    // seconds; the page asks `explore` of the position it shows.
    let depth = p.traps(1)?;
    let (opened, variant) = app.select(p)?;
    let (mut pos, mut turn) = position(&variant, &opened, p)?;
    let moves: Vec<&str> = p
        .get("moves")
        .unwrap_or("")
        .split(',')
        .filter(|m| !m.is_empty())
        .collect();
    if moves.len() > LINE_MOVES {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!(
                "a line of {} moves is longer than the {LINE_MOVES} one request plays",
                moves.len()
            ),
        ));
    }
    let mut positions = Vec::with_capacity(moves.len() + 1);
    let mut stopped = None;
    positions.push(explore_position(&opened, &variant, &pos, turn, depth)?);
    for (i, name) in moves.iter().enumerate() {
        let here = positions.last().expect("the start is explored");
        let Some(next) = here.moves.iter().find(|m| m.mv == *name) else {
            stopped = Some(wire::StoppedJson {
                index: i + 1,
                mv: crate::rules::clip(name).to_string(),
                error: format!(
                    "move {}, {}, is not legal in {}",
                    i + 1,
                    crate::rules::clip(name),
                    here.position
                ),
            });
            break;
        };
        (pos, turn) = Position::parse(&variant, &next.position)?;
        positions.push(explore_position(&opened, &variant, &pos, turn, depth)?);
    }
    Ok(wire::line(&wire::LineJson {
        variant: variant.name().to_string(),
        positions,
        stopped,
    }))
}

/// `GET /api/bestmove`.
pub(super) async fn bestmove(State(app): State<Arc<App>>, RawQuery(q): RawQuery) -> Response {
    answer(
        app,
        q,
        &["variant", "position", "seed", "strength"],
        bestmove_work,
    )
    .await
}

/// `GET /api/practice`.
pub(super) async fn practice(State(app): State<Arc<App>>, RawQuery(q): RawQuery) -> Response {
    answer(
        app,
        q,
        &["variant", "sector", "value", "seed", "min_depth", "side"],
        super::practice::practice_work,
    )
    .await
}

/// `GET /api/stats`: exactly `stats --json`.
pub(super) async fn stats(State(app): State<Arc<App>>, RawQuery(q): RawQuery) -> Response {
    answer(app, q, &["variant"], stats_work).await
}

/// `GET /api/depths`.
pub(super) async fn depths(State(app): State<Arc<App>>, RawQuery(q): RawQuery) -> Response {
    answer(app, q, &["variant", "sector"], depths_work).await
}

/// One sector's depth histogram: every slot read, so nine's largest sectors take seconds.
fn depths_work(app: &App, p: &Params) -> Result<String, ApiError> {
    // A sector is a few characters: a longer text is refused clipped.
    let sector: Sector = clip(p.required("sector")?).parse()?;
    let (opened, variant) = app.select(p)?;
    opened.reachable.check_sector(sector)?;
    let d = crate::query::depths::depths(&opened.db, sector)?;
    Ok(wire::line(&wire::DepthsJson {
        variant: variant.name().to_string(),
        sector: sector.to_string(),
        positions: d.positions(),
        win: d.win,
        loss: d.loss,
        draw: d.draw,
    }))
}

/// Any other path.
pub(super) async fn not_found(uri: Uri) -> Response {
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!("no such path: {}", clip(uri.path())),
    )
    .into_response()
}

/// A known path with another method than GET or HEAD.
pub(super) async fn method_not_allowed(method: Method, uri: Uri) -> Response {
    let mut response = ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!(
            "{} {}: only GET is served",
            clip(method.as_str()),
            clip(uri.path())
        ),
    )
    .into_response();
    response
        .headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
    response
}

/// The `position` parameter, parsed, and refused as the command line refuses it when no game
/// can reach it.
fn position(variant: &Variant, opened: &Opened, p: &Params) -> Result<(Position, Color), ApiError> {
    let (pos, turn) = Position::parse(variant, p.required("position")?)?;
    opened.reachable.check(&pos, turn)?;
    Ok((pos, turn))
}

fn variants_work(app: &App, _: &Params) -> Result<String, ApiError> {
    let mut out: Vec<wire::VariantJson> = Vec::new();
    for set in app.catalog.present() {
        let opened = app.catalog.open(&set.variant)?;
        let v = &set.variant;
        let start = wire::ValueJson::probe(&opened.db, &Position::start(v));
        let rule_set = wire::RuleSetJson {
            id: v.rules().id(),
            rules: wire::RulesJson::of(v),
            default: set.default,
            sectors_solved: opened.db.present().len(),
            sectors_total: opened
                .reachable
                .sectors()
                .iter()
                .filter(|s| !s.is_terminal())
                .count(),
            start,
        };
        match out.last_mut() {
            Some(last) if last.name == v.name() => last.rule_sets.push(rule_set),
            _ => out.push(wire::VariantJson {
                name: v.name().to_string(),
                summary: v.summary().to_string(),
                pieces: v.pieces(),
                start_position: Position::start(v).to_notation(v, Color::White),
                board: wire::BoardJson::of(v),
                rule_sets: vec![rule_set],
            }),
        }
    }
    Ok(wire::line(&wire::VariantsJson {
        switches: &crate::rules::SWITCHES,
        variants: out,
    }))
}

fn query_work(app: &App, p: &Params) -> Result<String, ApiError> {
    let (opened, variant) = app.select(p)?;
    let (pos, turn) = position(&variant, &opened, p)?;
    let answer = opened.db.answer(&pos)?;
    let json = QueryJson::of(&variant, &pos, turn, &answer);
    let Some(n) = p.n_move_rule()? else {
        return Ok(wire::line(&json));
    };
    let cost = opened.rules.cost(&opened.db, n, &pos);
    if cost > SERVED_RULE_SLOTS {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!(
                "the {n}-move rule's values of this position need an analysis of {cost} slots first, more than the server's {SERVED_RULE_SLOTS}: run `morris query --n-move-rule {n}` on the database folder instead"
            ),
        ));
    }
    let ruled = (opened.rules).answer(&opened.db, n, &pos, &answer.moves(), &Silent)?;
    Ok(wire::line(&json.with_rule(&ruled)))
}

/// The most slots the server analyses for one request's N-move rule (seven's whole game is
/// 32 M; each slot costs about what a solve's does).
const SERVED_RULE_SLOTS: u64 = 100_000_000;

fn stats_work(app: &App, p: &Params) -> Result<String, ApiError> {
    let (opened, variant) = app.select(p)?;
    let stats = StatsJson::read(&opened.db)?;
    if stats.sectors.is_empty() {
        let Some(m) = opened
            .db
            .missing(Sector::start(&variant))
            .missing()
            .cloned()
        else {
            unreachable!("a missing sector's error says what is missing")
        };
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!(
                "no sector of {} (rule set {}) is solved; solve the game with `{}` on the server's database folder",
                variant.name(),
                variant.rules().id(),
                whole_game_command(&m)
            ),
        ));
    }
    Ok(wire::line(&stats))
}

fn explore_work(app: &App, p: &Params) -> Result<String, ApiError> {
    let depth = p.traps(traps::DEPTH)?;
    let (opened, variant) = app.select(p)?;
    let (pos, turn) = position(&variant, &opened, p)?;
    Ok(wire::line(&explore_position(
        &opened, &variant, &pos, turn, depth,
    )?))
}

/// The position with each move's parts and result; values where their sectors are solved; the
/// drawing moves' traps up to `trap_depth` of the opponent's moves.
fn explore_position(
    opened: &Opened,
    variant: &Variant,
    pos: &Position,
    turn: Color,
    trap_depth: u32,
) -> Result<ExploreJson, Error> {
    let db = &opened.db;
    let board = variant.board();
    let name = |p: crate::rules::Point| board.point_name(p).to_string();
    let (mut unsolved, mut solve_cost) = (None, None);
    let (value, moves) = match db.analyse(pos) {
        Ok(a) => (
            Some(a.value),
            a.moves.iter().map(|m| (m.mv, Some(m.value))).collect(),
        ),
        // Some sector is not solved: say which and what solving it costs, and give the values
        // there are.
        Err(e @ Error::Missing(_)) => {
            unsolved = Some(public_message(&e));
            if let Error::Missing(m) = &e {
                // Over compact tables the missing piece is a table build, not a solve.
                solve_cost = (!m.tables).then(|| opened.costs.of(db, m));
            }
            (known(db.probe(pos))?, known_moves(db, variant, pos)?)
        }
        Err(e) => return Err(e),
    };
    let drawing = drawing_traps(db, pos, &moves, trap_depth)?;
    let (white, black) = match turn {
        Color::White => (pos.mover, pos.opponent),
        Color::Black => (pos.opponent, pos.mover),
    };
    let (white_hand, black_hand) = match turn {
        Color::White => (pos.mover_hand, pos.opponent_hand),
        Color::Black => (pos.opponent_hand, pos.mover_hand),
    };
    Ok(ExploreJson {
        variant: variant.name().to_string(),
        position: pos.to_notation(variant, turn),
        turn: turn.letter(),
        white_on_board: white.len(),
        black_on_board: black.len(),
        white_hand,
        black_hand,
        value: value.map(Value::name),
        depth: value.and_then(Value::depth),
        unsolved,
        solve_cost,
        moves: moves
            .into_iter()
            .map(|(mv, v)| {
                let (replies, losing_replies, trap_chance, trap_depth) = match v {
                    Some(Value::Draw) => match drawing.iter().find(|(m, _)| *m == mv) {
                        Some((_, t)) => (
                            Some(t.replies),
                            Some(t.losing),
                            Some(wire::rounded(t.chance)),
                            Some(t.depth),
                        ),
                        None => {
                            let (n, losing) = draw_quality(db, variant, &play(pos, mv))?;
                            let chance = losing.map(|l| wire::rounded(f64::from(l) / f64::from(n)));
                            (Some(n), losing, chance, losing.map(|_| 1))
                        }
                    },
                    _ => (None, None, None, None),
                };
                Ok(ExploreMoveJson {
                    mv: mv.to_notation(board),
                    from: mv.from().map(name),
                    to: name(mv.to()),
                    remove: mv.removed().map(name),
                    value: v.map(Value::name),
                    depth: v.and_then(Value::depth),
                    position: play(pos, mv).to_notation(variant, turn.other()),
                    replies,
                    losing_replies,
                    trap_chance,
                    trap_depth,
                })
            })
            .collect::<Result<_, Error>>()?,
    })
}

/// Every move of `pos` with its value where its result's sector is solved: best first, then
/// the moves without a value, each group in notation order.
fn known_moves(
    db: &crate::store::Database,
    variant: &Variant,
    pos: &Position,
) -> Result<Vec<(Move, Option<Value>)>, Error> {
    let board = variant.board();
    let mut moves = generate(variant, pos)
        .iter()
        .map(|&mv| {
            let v = known(db.probe(&play(pos, mv)))?.map(Value::before_move);
            Ok((mv, v, mv.to_notation(board)))
        })
        .collect::<Result<Vec<_>, Error>>()?;
    moves.sort_by(|(_, a, an), (_, b, bn)| match (a, b) {
        (Some(a), Some(b)) => a.preference(*b).then_with(|| an.cmp(bn)),
        (a, b) => b.is_some().cmp(&a.is_some()).then_with(|| an.cmp(bn)),
    });
    Ok(moves.into_iter().map(|(mv, v, _)| (mv, v)).collect())
}

/// After a drawing move (`next` is the opponent's position): the opponent's replies and how
/// many of them lose, `None` for the count when a reply's value is not solved.
fn draw_quality(
    db: &crate::store::Database,
    variant: &Variant,
    next: &Position,
) -> Result<(u32, Option<u32>), Error> {
    let replies = generate(variant, next);
    let mut losing = 0;
    for &r in &replies {
        // The value for us, to move after the reply: a win means the reply lost.
        match known(db.probe(&play(next, r)))? {
            Some(Value::Win(_)) => losing += 1,
            Some(_) => {}
            None => return Ok((replies.len() as u32, None)),
        }
    }
    Ok((replies.len() as u32, Some(losing)))
}

/// The traps of each drawing move of `moves` ([`traps::deepest`] up to `depth`), or none when
/// a sector they reach is not solved (the moves are then counted one reply deep, as far as
/// their sectors are solved).
fn drawing_traps(
    db: &crate::store::Database,
    pos: &Position,
    moves: &[(Move, Option<Value>)],
    depth: u32,
) -> Result<Vec<(Move, traps::Traps)>, Error> {
    let drawing: Vec<Move> = moves
        .iter()
        .filter(|(_, v)| *v == Some(Value::Draw))
        .map(|&(mv, _)| mv)
        .collect();
    let after: Vec<Position> = drawing.iter().map(|&mv| play(pos, mv)).collect();
    match traps::deepest(db, &after, depth, traps::budget(db)) {
        Ok(found) => Ok(drawing.into_iter().zip(found).collect()),
        Err(Error::Missing(_)) => Ok(Vec::new()),
        Err(e) => Err(e),
    }
}

/// A probe's value, `None` for an unsolved sector; other errors pass.
fn known(probe: Result<Value, Error>) -> Result<Option<Value>, Error> {
    match probe {
        Ok(v) => Ok(Some(v)),
        Err(Error::Missing { .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

fn bestmove_work(app: &App, p: &Params) -> Result<String, ApiError> {
    // Every parameter is checked before the database is read.
    let seed = p.seed()?;
    let strength = strength(p)?;
    let (opened, variant) = app.select(p)?;
    let (pos, turn) = position(&variant, &opened, p)?;
    let answer = match strength.temperature() {
        None => perfect_move(&opened, &variant, &pos, turn, seed)?,
        Some(t) => {
            let seed = seed.unwrap_or_else(random_seed);
            let Some(s) = sample(&opened.db, &pos, t, seed)? else {
                return Err(game_over(&variant, &pos, turn));
            };
            sampled_move(&variant, &pos, turn, strength, &s)
        }
    };
    Ok(wire::line(&answer))
}

/// The `strength` parameter: perfect play unless given.
fn strength(p: &Params) -> Result<Strength, ApiError> {
    Ok(p.get("strength")
        .map(Strength::parse)
        .transpose()?
        .unwrap_or(Strength::Perfect))
}

/// The 400 of a position without moves.
fn game_over(variant: &Variant, pos: &Position, turn: Color) -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        format!(
            "no move in {:?}: the game is over, {turn} to move has lost",
            pos.to_notation(variant, turn)
        ),
    )
}

/// The move perfect play chooses ([`choose`]), as it has always been answered.
fn perfect_move(
    opened: &Opened,
    variant: &Variant,
    pos: &Position,
    turn: Color,
    seed: Option<u64>,
) -> Result<BestMoveJson, ApiError> {
    let Some(choice) = choose(&opened.db, pos, seed)? else {
        return Err(game_over(variant, pos, turn));
    };
    Ok(BestMoveJson {
        variant: variant.name().to_string(),
        position: pos.to_notation(variant, turn),
        mv: choice.mv.to_notation(variant.board()),
        value: choice.value.name(),
        depth: choice.value.depth(),
        after: play(pos, choice.mv).to_notation(variant, turn.other()),
        rule: choice.rule.name(),
        reason: reason(&choice),
        candidates: choice.candidates,
        good_replies: choice.good_replies,
        replies: choice.replies,
        trap_chance: choice.traps.map(|t| wire::rounded(t.chance)),
        trap_depth: choice.traps.map(|t| t.depth),
    })
}

/// The move a weaker level drew ([`sample`]), in the fields of perfect play's answer.
fn sampled_move(
    variant: &Variant,
    pos: &Position,
    turn: Color,
    strength: Strength,
    s: &Sample,
) -> BestMoveJson {
    BestMoveJson {
        variant: variant.name().to_string(),
        position: pos.to_notation(variant, turn),
        mv: s.mv.to_notation(variant.board()),
        value: s.value.name(),
        depth: s.value.depth(),
        after: play(pos, s.mv).to_notation(variant, turn.other()),
        rule: SAMPLED,
        reason: sampled_reason(strength, s),
        candidates: s.candidates,
        good_replies: None,
        replies: s.replies,
        trap_chance: None,
        trap_depth: None,
    }
}

/// The `rule` of a weaker level's move: drawn, not chosen by a rule of perfect play.
const SAMPLED: &str = "sampled";

/// `n` plies, singular or plural.
fn plies(n: u32) -> String {
    match n {
        1 => String::from("1 ply"),
        n => format!("{n} plies"),
    }
}

/// `n` replies, singular or plural.
fn replies(n: usize) -> String {
    match n {
        1 => String::from("1 reply"),
        n => format!("{n} replies"),
    }
}

/// Why the move was chosen, in plain words.
fn reason(choice: &Choice) -> String {
    let depth = choice.value.depth().unwrap_or(0);
    let (good, all) = (choice.good_replies.unwrap_or(0), choice.replies);
    match choice.rule {
        Rule::FastestWin => match choice.candidates {
            1 => format!("a win in {}, the only move that wins as fast", plies(depth)),
            n => format!(
                "a win in {}, the fastest; {n} moves win as fast",
                plies(depth)
            ),
        },
        Rule::DrawMostTraps => match (choice.candidates, choice.traps) {
            (1, _) => format!(
                "a draw, the only drawing move; of the opponent's {}, {good} {} not lose",
                replies(all),
                if good == 1 { "does" } else { "do" }
            ),
            (n, Some(t)) => format!(
                "a draw; of the {n} drawing moves, one that sets the most traps: an opponent \
                 moving at random loses {} with a chance of {:.0}% ({good} of its {all} replies \
                 keep the draw)",
                match t.depth {
                    1 => String::from("at once"),
                    d => format!("within {d} of its moves"),
                },
                100.0 * t.chance
            ),
            (n, None) => format!("a draw, one of {n} drawing moves"),
        },
        Rule::SlowestLossFewestWinningReplies => match choice.candidates {
            1 => format!(
                "a loss in {}, the only move that loses as slowly; of the opponent's {}, {good} {}",
                plies(depth),
                replies(all),
                if good == 1 { "wins" } else { "win" }
            ),
            n => format!(
                "a loss in {}, the slowest; of the {n} moves that lose as slowly, one that leaves \
                 the opponent the fewest winning replies ({good} of {all})",
                plies(depth)
            ),
        },
    }
}

/// A value in words: "a win in 13 plies", "a draw", "a loss in 2 plies".
fn value_words(v: Value) -> String {
    match v {
        Value::Win(d) => format!("a win in {}", plies(d)),
        Value::Draw => String::from("a draw"),
        Value::Loss(d) => format!("a loss in {}", plies(d)),
    }
}

/// Why a weaker level played its move, in plain words: the level, the move's value against the
/// best, the moves left out, and the move's chance.
fn sampled_reason(strength: Strength, s: &Sample) -> String {
    let what = if s.value == s.best {
        match s.candidates {
            1 => format!("the best move, {}", value_words(s.best)),
            n => format!("one of the {n} best moves, {}", value_words(s.best)),
        }
    } else {
        let (one, many) = match s.best {
            Value::Win(_) => ("wins", "win"),
            Value::Draw => ("draws", "draw"),
            Value::Loss(_) => ("loses", "lose"),
        };
        format!(
            "{}, where {} was best ({} of {} moves {})",
            value_words(s.value),
            value_words(s.best),
            s.best_outcome,
            s.solved,
            if s.best_outcome == 1 { one } else { many }
        )
    };
    let left_out = match s.unsolved {
        0 => String::new(),
        1 => String::from("; 1 move whose result is not solved was left out"),
        n => format!("; {n} moves whose results are not solved were left out"),
    };
    let chance = match s.probability * 100.0 {
        p if p < 1.0 => String::from("under 1%"),
        p if p > 99.0 => String::from("over 99%"),
        p => format!("{p:.0}%"),
    };
    format!(
        "a {}-strength choice: {what}{left_out}; this move's chance was {chance}",
        strength.name()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Move, Value, Variant};

    fn choice(rule: Rule, value: Value, candidates: usize, good: Option<usize>) -> Choice {
        let six = Variant::by_name("six").unwrap();
        Choice {
            mv: Move::parse(six.board(), "a5").unwrap(),
            value,
            rule,
            candidates,
            good_replies: good,
            replies: 7,
            traps: (rule == Rule::DrawMostTraps).then_some(traps::Traps {
                replies: 7,
                losing: 7 - good.unwrap_or(0) as u32,
                chance: 0.6,
                depth: 2,
            }),
        }
    }

    #[test]
    fn reasons_count_in_the_singular_and_the_plural() {
        let win = |depth, n| reason(&choice(Rule::FastestWin, Value::Win(depth), n, None));
        assert_eq!(win(1, 1), "a win in 1 ply, the only move that wins as fast");
        assert_eq!(
            win(25, 3),
            "a win in 25 plies, the fastest; 3 moves win as fast"
        );
        let draw = |n, good| reason(&choice(Rule::DrawMostTraps, Value::Draw, n, good));
        assert_eq!(
            draw(1, Some(1)),
            "a draw, the only drawing move; of the opponent's 7 replies, 1 does not lose"
        );
        assert_eq!(
            draw(4, Some(2)),
            "a draw; of the 4 drawing moves, one that sets the most traps: an opponent moving at \
             random loses within 2 of its moves with a chance of 60% (2 of its 7 replies keep \
             the draw)"
        );
        let loss = reason(&choice(
            Rule::SlowestLossFewestWinningReplies,
            Value::Loss(2),
            1,
            Some(3),
        ));
        assert_eq!(
            loss,
            "a loss in 2 plies, the only move that loses as slowly; of the opponent's 7 replies, 3 win"
        );
        for text in [win(1, 1), draw(1, Some(1)), loss] {
            assert!(
                !text.contains(" 1 plies") && !text.contains("the 1 "),
                "{text}"
            );
        }
    }

    #[test]
    fn weaker_levels_say_what_they_gave_away() {
        let six = Variant::by_name("six").unwrap();
        let s = |value, best, best_outcome, unsolved, probability| Sample {
            mv: Move::parse(six.board(), "a5").unwrap(),
            value,
            best,
            probability,
            candidates: 1,
            best_outcome,
            solved: 21,
            unsolved,
            replies: 7,
        };
        assert_eq!(
            sampled_reason(Strength::Club, &s(Value::Draw, Value::Win(13), 4, 0, 0.09)),
            "a club-strength choice: a draw, where a win in 13 plies was best (4 of 21 moves \
             win); this move's chance was 9%"
        );
        assert_eq!(
            sampled_reason(
                Strength::Strong,
                &s(Value::Win(13), Value::Win(13), 1, 0, 0.996)
            ),
            "a strong-strength choice: the best move, a win in 13 plies; this move's chance was \
             over 99%"
        );
        assert_eq!(
            sampled_reason(
                Strength::Novice,
                &s(Value::Loss(2), Value::Draw, 1, 3, 0.004)
            ),
            "a novice-strength choice: a loss in 2 plies, where a draw was best (1 of 21 moves \
             draws); 3 moves whose results are not solved were left out; this move's chance \
             was under 1%"
        );
    }
}
