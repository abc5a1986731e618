//! The rules engine against the independent naive generator (tests/naive), on every rule set:
//! each variant's defaults, every combination of flying × removal × phases × full board on
//! nine, six, three, lasker, morabaraba, twelve and three's board with five pieces (where the
//! board can fill up); published perft counts; and the backward generator's round trip, on
//! random positions and exhaustively on three's board.

mod common;
mod naive;

use std::collections::BTreeSet;

use common::{
    board_full, custom_variant, label, random_rules_position, switch_combinations, variant_with,
    Rng, VARIANTS,
};
use morris::rules::perft;
use morris::rules::{for_each_unmove, generate, has_move, play, value_without_moves};
use morris::rules::{Phases, RuleOverrides};
use morris::{Color, Move, PointSet, Position, Value, Variant};
use naive::{NaiveGame, Options, Terminal};
use rayon::prelude::*;

/// A rule set under test: the engine's variant and the naive generator of the same rules.
struct RuleSet {
    v: Variant,
    naive: NaiveGame,
}

/// Every variant with its default rules.
fn default_sets() -> Vec<RuleSet> {
    VARIANTS
        .iter()
        .map(|name| RuleSet {
            v: Variant::by_name(name).unwrap(),
            naive: NaiveGame::named(name),
        })
        .collect()
}

/// The boards on which every combination of the switches is tested.
const COMBINATION_BOARDS: &[&str] = &["nine", "six", "three", "lasker", "morabaraba", "twelve"];

/// Every combination of the switches on a named variant.
fn combination_sets(name: &str) -> Vec<RuleSet> {
    switch_combinations()
        .into_iter()
        .map(|sw| RuleSet {
            v: variant_with(name, sw),
            naive: NaiveGame::new(name, Options::named(sw)),
        })
        .collect()
}

/// Every combination of the switches on three's board with `pieces` a side (with five the
/// board fills up: nine points, ten pieces).
fn three_board_sets(pieces: u8) -> Vec<RuleSet> {
    let lines = naive::board_lines("three");
    switch_combinations()
        .into_iter()
        .map(|sw| RuleSet {
            v: custom_variant(&format!("three{pieces}"), &lines, pieces, sw),
            naive: NaiveGame::custom(&lines, Options::named(sw).pieces(pieces as u32)),
        })
        .collect()
}

/// Every rule set: defaults, then all combinations on each board.
fn all_sets() -> Vec<RuleSet> {
    let mut sets = default_sets();
    for name in COMBINATION_BOARDS {
        sets.extend(combination_sets(name));
    }
    sets.extend(three_board_sets(5));
    sets
}

/// The engine's moves of `pos` with the positions they lead to, in notation, sorted by move.
fn engine_successors(v: &Variant, pos: &Position, turn: Color) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = generate(v, pos)
        .iter()
        .map(|&m| {
            (
                m.to_notation(v.board()),
                play(pos, m).to_notation(v, turn.other()),
            )
        })
        .collect();
    out.sort();
    out
}

/// What differs between two sorted move lists, for a failure message.
fn difference(engine: &[(String, String)], naive: &[(String, String)]) -> String {
    let e: BTreeSet<_> = engine.iter().collect();
    let n: BTreeSet<_> = naive.iter().collect();
    let only_e: Vec<_> = e.difference(&n).take(8).collect();
    let only_n: Vec<_> = n.difference(&e).take(8).collect();
    format!(
        "{} engine moves, {} naive moves; engine only: {only_e:?}; naive only: {only_n:?}",
        engine.len(),
        naive.len()
    )
}

/// Compares one position's moves, results and finished state; describes any disagreement.
fn compare_position(set: &RuleSet, pos: &Position, turn: Color) -> Option<String> {
    let v = &set.v;
    let text = pos.to_notation(v, turn);
    let at = || format!("{} `{text}`", label(v));
    if let Err(e) = pos.check(v) {
        return Some(format!("{}: the generated position fails check: {e}", at()));
    }
    match Position::parse(v, &text) {
        Ok(parsed) if parsed == (*pos, turn) => {}
        other => return Some(format!("{}: parse gives {other:?}", at())),
    }
    let engine = engine_successors(v, pos, turn);
    let expected = set.naive.successors(&text);
    if engine != expected {
        return Some(format!("{}: {}", at(), difference(&engine, &expected)));
    }
    if has_move(v, pos) == expected.is_empty() {
        return Some(format!(
            "{}: has_move {} with {} moves",
            at(),
            has_move(v, pos),
            expected.len()
        ));
    }
    // Finished positions: a full board is a draw under `full_board = draw`, else no move is a loss.
    let naive_terminal = set.naive.terminal(&text);
    let engine_terminal = if !expected.is_empty() {
        None
    } else {
        match value_without_moves(v, pos) {
            Value::Draw => Some(Terminal::Draw),
            Value::Loss(0) => Some(Terminal::Loss),
            other => return Some(format!("{}: no move, engine value {other:?}", at())),
        }
    };
    if naive_terminal != engine_terminal {
        return Some(format!(
            "{}: naive terminal {naive_terminal:?}, engine {engine_terminal:?}",
            at()
        ));
    }
    None
}

/// Runs `check` on `count` random positions of every set (sets in parallel) and fails with
/// the first disagreements found.
fn on_random_positions(
    sets: &[RuleSet],
    count: usize,
    seed: u64,
    check: impl Fn(&RuleSet, &Position, Color, &mut Rng) -> Option<String> + Sync,
) {
    let failures: Vec<String> = sets
        .par_iter()
        .enumerate()
        .flat_map_iter(|(i, set)| {
            let mut rng = Rng::new(seed * 1000 + i as u64);
            let mut found = Vec::new();
            for _ in 0..count {
                let (pos, turn) = random_rules_position(&set.v, &mut rng);
                if let Some(f) = check(set, &pos, turn, &mut rng) {
                    found.push(f);
                    if found.len() >= 3 {
                        break;
                    }
                }
            }
            found
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures[..failures.len().min(30)].join("\n")
    );
}

#[test]
fn default_rules_match_the_naive_generator() {
    on_random_positions(&default_sets(), 10000, 1, |set, pos, turn, _| {
        compare_position(set, pos, turn)
    });
}

#[test]
fn every_switch_combination_matches_the_naive_generator() {
    let mut sets = Vec::new();
    for name in COMBINATION_BOARDS {
        sets.extend(combination_sets(name));
    }
    sets.extend(three_board_sets(5));
    on_random_positions(&sets, 2000, 2, |set, pos, turn, _| {
        compare_position(set, pos, turn)
    });
}

/// Every position the rules test draws is one of the kinds that matter, on some rule set:
/// lasker positions with pieces in hand that move, flying with pieces in hand, full boards,
/// mills that remove nothing. (Guards the random generator against losing coverage.)
#[test]
fn random_positions_cover_the_new_rules() {
    let mut seen = [0u32; 5];
    for set in all_sets() {
        let v = &set.v;
        let mut rng = Rng::new(77);
        for _ in 0..300 {
            let (pos, _) = random_rules_position(v, &mut rng);
            let moves = generate(v, &pos);
            let lasker = v.rules().phases == Phases::Lasker;
            if lasker && pos.mover_hand > 0 && moves.iter().any(|m| m.from().is_some()) {
                seen[0] += 1;
                let fly = moves.iter().any(|m| {
                    m.from()
                        .is_some_and(|f| !v.board().adjacent(f).contains(m.to()))
                });
                if fly {
                    seen[1] += 1;
                }
            }
            if board_full(v, &pos) && pos.mover_pieces() >= 3 {
                seen[2] += 1;
            }
            if moves.iter().any(|m| m.removed().is_some()) {
                seen[3] += 1;
            }
            let quiet_mill = moves.iter().any(|&m| {
                let after = play(&pos, m);
                m.removed().is_none() && v.board().in_mill(after.opponent, m.to())
            });
            if quiet_mill {
                seen[4] += 1;
            }
        }
    }
    assert!(seen.iter().all(|&k| k >= 50), "{seen:?}");
}

/// `data/perft.tsv`: variant, depth, count, and optionally the rules (`-` for the variant's
/// defaults, else `switch=value,...`) and a position (else the start).
struct PerftRow {
    variant: String,
    depth: u32,
    count: u64,
    rules: Vec<(String, String)>,
    position: Option<String>,
}

fn published_perft() -> Vec<PerftRow> {
    let text = include_str!("../data/perft.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert!((3..=5).contains(&f.len()), "perft.tsv: {l:?}");
            let rules = match f.get(3) {
                None | Some(&"-") => Vec::new(),
                Some(r) => r
                    .split(',')
                    .map(|kv| {
                        let (k, v) = kv.split_once('=').expect("switch=value");
                        (k.to_string(), v.to_string())
                    })
                    .collect(),
            };
            PerftRow {
                variant: f[0].to_string(),
                depth: f[1].parse().unwrap(),
                count: f[2].parse().unwrap(),
                rules,
                position: f.get(4).map(|p| p.to_string()),
            }
        })
        .collect()
}

/// The engine's variant of a perft row's rules.
fn row_variant(row: &PerftRow) -> Variant {
    let mut o = RuleOverrides::default();
    for (k, val) in &row.rules {
        match k.as_str() {
            "flying" => o.flying = Some(val.parse().unwrap()),
            "removal" => o.removal = Some(val.parse().unwrap()),
            "phases" => o.phases = Some(val.parse().unwrap()),
            "full-board" => o.full_board = Some(val.parse().unwrap()),
            _ => panic!("perft.tsv: unknown switch {k:?}"),
        }
    }
    Variant::by_name(&row.variant).unwrap().with_overrides(o)
}

/// The naive game of a perft row's rules.
fn row_naive(row: &PerftRow) -> NaiveGame {
    let options = row
        .rules
        .iter()
        .fold(Options::default(), |o, (k, val)| o.with(k, val));
    NaiveGame::new(&row.variant, options)
}

#[test]
fn perft_matches_data_and_naive() {
    let rows = published_perft();
    // Every variant's start with its default rules, depths 1 to 5.
    for name in VARIANTS {
        for depth in 1..=5 {
            assert!(
                rows.iter().any(|r| r.variant == *name
                    && r.depth == depth
                    && r.rules.is_empty()
                    && r.position.is_none()),
                "{name} depth {depth} missing from data/perft.tsv"
            );
        }
    }
    let failures: Vec<String> = rows
        .par_iter()
        .filter_map(|row| {
            let (v, naive) = (row_variant(row), row_naive(row));
            let (pos, text) = match &row.position {
                None => {
                    let start = Position::start(&v);
                    let text = start.to_notation(&v, Color::White);
                    assert_eq!(text, naive.start());
                    (start, text)
                }
                Some(t) => (Position::parse(&v, t).unwrap().0, t.clone()),
            };
            let engine = perft(&v, &pos, row.depth);
            let reference = naive.perft(&text, row.depth);
            (engine != row.count || reference != row.count).then(|| {
                format!(
                    "{} {:?} {:?} depth {}: data {}, engine {engine}, naive {reference}",
                    row.variant, row.rules, row.position, row.depth, row.count
                )
            })
        })
        .collect();
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Prints the perft rows of data/perft.tsv from the naive generator (run with --ignored
/// --nocapture to regenerate them).
#[test]
#[ignore = "prints data/perft.tsv rows from the naive generator"]
fn print_perft_rows_from_the_naive_generator() {
    let rows = published_perft();
    let counts: Vec<u64> = rows
        .par_iter()
        .map(|row| {
            let naive = row_naive(row);
            let text = row.position.clone().unwrap_or_else(|| naive.start());
            naive.perft(&text, row.depth)
        })
        .collect();
    for (row, count) in rows.iter().zip(counts) {
        let rules: Vec<String> = row.rules.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let mut line = format!("{}\t{}\t{count}", row.variant, row.depth);
        if !rules.is_empty() || row.position.is_some() {
            line.push('\t');
            line.push_str(&if rules.is_empty() {
                "-".to_string()
            } else {
                rules.join(",")
            });
        }
        if let Some(p) = &row.position {
            line.push('\t');
            line.push_str(p);
        }
        println!("{line}");
    }
}

#[test]
fn midgame_perft_matches_naive_to_depth_3() {
    // Each default rule set, and every combination on the small boards where that is cheap.
    let mut sets = default_sets();
    sets.extend(combination_sets("three"));
    sets.extend(three_board_sets(5));
    sets.extend(
        combination_sets("twelve")
            .into_iter()
            .enumerate()
            .filter(|(i, _)| i % 5 == 0)
            .map(|(_, s)| s),
    );
    on_random_positions(&sets, 6, 3, |set, pos, turn, _| {
        let text = pos.to_notation(&set.v, turn);
        let (engine, reference) = (perft(&set.v, pos, 3), set.naive.perft(&text, 3));
        (engine != reference).then(|| {
            format!(
                "{} `{text}`: engine {engine}, naive {reference}",
                label(&set.v)
            )
        })
    });
}

fn unmoves(v: &Variant, pos: &Position) -> Vec<(Position, Move)> {
    let mut list = Vec::new();
    for_each_unmove(v, pos, |prev, mv| list.push((prev, mv)));
    list
}

/// Forward moves are undone and un-moves replay, and a random un-move agrees with the naive
/// generator; describes any disagreement.
fn check_unmoves(set: &RuleSet, pos: &Position, turn: Color, rng: &mut Rng) -> Option<String> {
    let v = &set.v;
    let text = pos.to_notation(v, turn);
    let at = || format!("{} `{text}`", label(v));
    for mv in generate(v, pos) {
        let after = play(pos, mv);
        if let Err(e) = after.check(v) {
            return Some(format!(
                "{}: {mv:?} leads to a position failing check: {e}",
                at()
            ));
        }
        if !unmoves(v, &after).contains(&(*pos, mv)) {
            return Some(format!(
                "{}: {} is not among the un-moves of `{}`",
                at(),
                mv.to_notation(v.board()),
                after.to_notation(v, turn.other())
            ));
        }
    }
    let list = unmoves(v, pos);
    let mut dedup = list.clone();
    dedup.sort();
    dedup.dedup();
    if dedup.len() != list.len() {
        return Some(format!("{}: un-moves repeat", at()));
    }
    for (prev, mv) in &list {
        let name = mv.to_notation(v.board());
        if let Err(e) = prev.check(v) {
            return Some(format!(
                "{}: un-move {name} from a position failing check: {e}",
                at()
            ));
        }
        if !generate(v, prev).contains(mv) || play(prev, *mv) != *pos {
            return Some(format!(
                "{}: un-move {name} from `{}` does not replay",
                at(),
                prev.to_notation(v, turn.other())
            ));
        }
    }
    if !list.is_empty() {
        let (prev, mv) = list[rng.below(list.len() as u64) as usize];
        let prev_text = prev.to_notation(v, turn.other());
        let name = mv.to_notation(v.board());
        if !set
            .naive
            .successors(&prev_text)
            .contains(&(name.clone(), text.clone()))
        {
            return Some(format!(
                "{}: the naive generator has no {name} from `{prev_text}` to it",
                at()
            ));
        }
    }
    None
}

#[test]
fn every_move_is_undone_and_every_unmove_replays() {
    on_random_positions(&all_sets(), 400, 4, check_unmoves);
}

/// Lasker positions where the mover holds pieces and may also move or fly: drawn on purpose.
#[test]
fn lasker_unmoves_with_pieces_in_hand_and_flying() {
    let mut sets: Vec<RuleSet> = Vec::new();
    for name in COMBINATION_BOARDS {
        sets.extend(
            combination_sets(name)
                .into_iter()
                .filter(|s| s.v.rules().phases == Phases::Lasker),
        );
    }
    sets.extend(
        three_board_sets(5)
            .into_iter()
            .filter(|s| s.v.rules().phases == Phases::Lasker),
    );
    let failures: Vec<String> = sets
        .par_iter()
        .enumerate()
        .flat_map_iter(|(i, set)| {
            let v = &set.v;
            let p = v.pieces() as u32;
            let all = v.board().all();
            let mut rng = Rng::new(500 + i as u64);
            let mut found = Vec::new();
            for _ in 0..300 {
                // Both sides with pieces in hand and few enough in all to fly at three.
                let m = 1 + rng.below(2) as u32;
                let o = rng.below(3) as u32;
                let mc = (2 + rng.below(3) as u32).saturating_sub(m).min(p - m);
                let oc = (rng.below(p as u64 - o as u64 + 1) as u32).min(all.len() - mc);
                let mover = rng.subset(all, mc);
                let opponent = rng.subset(all - mover, oc);
                let pos = Position {
                    mover,
                    opponent,
                    mover_hand: m as u8,
                    opponent_hand: o as u8,
                };
                let turn = if rng.below(2) == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                found.extend(compare_position(set, &pos, turn));
                found.extend(check_unmoves(set, &pos, turn, &mut rng));
                if found.len() >= 3 {
                    break;
                }
            }
            found
        })
        .collect();
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Every position of a small game (all boards, all hands that pass `check`), as the rules
/// say positions are: disjoint sides, at most `pieces` a side on board + in hand, hands that
/// alternate under separate phases and any hands under lasker.
fn every_position(v: &Variant) -> Vec<Position> {
    let n = v.board().len();
    let p = v.pieces();
    let lasker = v.rules().phases == Phases::Lasker;
    let mut out = Vec::new();
    for mover in 0u32..1 << n {
        let comp = ((1u32 << n) - 1) & !mover;
        let mut opp = 0u32;
        loop {
            for m in 0..=p {
                for o in 0..=p {
                    let pos = Position {
                        mover: PointSet::from_bits(mover),
                        opponent: PointSet::from_bits(opp),
                        mover_hand: m,
                        opponent_hand: o,
                    };
                    let expected = pos.mover_pieces() <= p as u32
                        && pos.opponent_pieces() <= p as u32
                        && (lasker || m == o || m == o + 1);
                    assert_eq!(pos.check(v).is_ok(), expected, "{} {pos:?}", label(v));
                    if expected {
                        out.push(pos);
                    }
                }
            }
            opp = opp.wrapping_sub(comp) & comp;
            if opp == 0 {
                break;
            }
        }
    }
    out
}

/// Exhaustively on a small game: the un-moves of every position are exactly the (previous
/// position, move) pairs whose move leads to it, over every position that passes `check`.
fn unmoves_are_exact(v: &Variant) {
    let positions = every_position(v);
    let mut edges: Vec<(Position, Position, Move)> = positions
        .par_iter()
        .flat_map_iter(|prev| {
            generate(v, prev)
                .into_iter()
                .map(move |m| (play(prev, m), *prev, m))
        })
        .collect();
    edges.par_sort_unstable();
    let failures: Vec<String> = positions
        .par_iter()
        .filter_map(|pos| {
            let start = edges.partition_point(|e| e.0 < *pos);
            let end = edges.partition_point(|e| e.0 <= *pos);
            let expected: Vec<(Position, Move)> =
                edges[start..end].iter().map(|e| (e.1, e.2)).collect();
            let mut got = unmoves(v, pos);
            got.sort_unstable();
            (got != expected).then(|| {
                let turn = Color::White;
                let name = |(p, m): &(Position, Move)| {
                    format!(
                        "{} from `{}`",
                        m.to_notation(v.board()),
                        p.to_notation(v, turn.other())
                    )
                };
                let missing: Vec<String> = expected
                    .iter()
                    .filter(|e| !got.contains(e))
                    .take(4)
                    .map(name)
                    .collect();
                let extra: Vec<String> = got
                    .iter()
                    .filter(|e| !expected.contains(e))
                    .take(4)
                    .map(name)
                    .collect();
                format!(
                    "{} `{}` (colours as if White to move): missing {missing:?}, extra {extra:?}",
                    label(v),
                    pos.to_notation(v, turn)
                )
            })
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} positions:\n{}",
        failures.len(),
        failures[..failures.len().min(10)].join("\n")
    );
}

#[test]
fn unmoves_are_exact_on_three_board_games() {
    let lines = naive::board_lines("three");
    let mut games = Vec::new();
    for sw in [
        ["three", "standard", "lasker", "loss"],
        ["always", "strict", "lasker", "draw"],
        ["never", "lenient", "lasker", "loss"],
        ["three", "standard", "separate", "draw"],
        ["always", "lenient", "separate", "loss"],
    ] {
        games.push(custom_variant("three4", &lines, 4, sw));
        games.push(custom_variant("three5", &lines, 5, sw));
    }
    for sw in [
        ["never", "standard", "lasker", "loss"],
        ["three", "strict", "lasker", "loss"],
    ] {
        games.push(variant_with("three", sw));
    }
    for v in &games {
        unmoves_are_exact(v);
    }
}

#[test]
fn notation_round_trips() {
    let mut rng = Rng::new(4);
    for set in default_sets() {
        let v = &set.v;
        for _ in 0..500 {
            let (pos, turn) = random_rules_position(v, &mut rng);
            let text = pos.to_notation(v, turn);
            assert_eq!(Position::parse(v, &text).unwrap(), (pos, turn), "{text}");
            for mv in generate(v, &pos) {
                assert_eq!(
                    Move::parse(v.board(), &mv.to_notation(v.board())).unwrap(),
                    mv
                );
            }
        }
    }
}

/// Under lasker phases any hands parse, whoever is to move; under separate phases they
/// must alternate.
#[test]
fn lasker_positions_take_any_hands() {
    let lasker = Variant::by_name("lasker").unwrap();
    let nine = Variant::by_name("nine").unwrap();
    for (w, b) in [(10, 10), (3, 7), (7, 3), (0, 5), (5, 0), (1, 2)] {
        for turn in ["w", "b"] {
            let text = format!(".../.../.../....../.../.../... {turn} {w} {b}");
            let (pos, colour) = Position::parse(&lasker, &text).unwrap();
            assert_eq!(pos.to_notation(&lasker, colour), text);
        }
    }
    assert!(Position::parse(&nine, ".../.../.../....../.../.../... w 3 7").is_err());
    assert!(Position::parse(&lasker, ".../.../.../....../.../.../... w 11 7").is_err());
    assert!(Position::parse(&lasker, "WWW/WWW/WWW/....../.../.../... w 2 7").is_err());
}

#[test]
fn symmetry_groups_have_the_expected_sizes_and_preserve_the_board() {
    let expected = [
        ("nine", 16),
        ("six", 16),
        ("six-diag", 16),
        ("five", 16),
        ("seven", 8),
        ("three", 8),
        ("three-diag", 8),
        ("twelve", 16),
        ("lasker", 16),
        ("morabaraba", 16),
    ];
    for (name, size) in expected {
        let v = Variant::by_name(name).unwrap();
        let syms = v.symmetries();
        assert_eq!(syms.len(), size, "{name}");
        let b = v.board();
        for s in syms {
            for &m in b.mills() {
                assert!(b.mills().contains(&s.apply(m)));
            }
            for p in b.all() {
                assert_eq!(s.apply(b.adjacent(p)), b.adjacent(s.map(p)));
            }
            // A group: closed under composition.
            for t in syms {
                let composed: Vec<_> = b.all().iter().map(|p| t.map(s.map(p))).collect();
                assert!(syms.iter().any(|u| b
                    .all()
                    .iter()
                    .map(|p| u.map(p))
                    .eq(composed.iter().copied())));
            }
        }
    }
}

#[test]
fn symmetric_positions_have_symmetric_moves() {
    let mut rng = Rng::new(5);
    for set in all_sets().iter().step_by(7) {
        let v = &set.v;
        for _ in 0..100 {
            let (pos, _) = random_rules_position(v, &mut rng);
            let count = generate(v, &pos).len();
            for s in v.symmetries() {
                let image = Position {
                    mover: s.apply(pos.mover),
                    opponent: s.apply(pos.opponent),
                    ..pos
                };
                assert_eq!(generate(v, &image).len(), count, "{}", label(v));
            }
        }
    }
}

/// The defaults of the variants, as the rules issue gives them.
#[test]
fn variant_defaults() {
    let expect = [
        ("nine", 9, "three", "separate", "loss"),
        ("lasker", 10, "three", "lasker", "loss"),
        ("morabaraba", 12, "three", "separate", "draw"),
        ("twelve", 12, "never", "separate", "draw"),
        ("six", 6, "never", "separate", "loss"),
        ("three", 3, "never", "separate", "loss"),
    ];
    for (name, pieces, flying, phases, full) in expect {
        let r = Variant::by_name(name).unwrap().rules();
        assert_eq!(
            (
                r.pieces,
                r.flying.to_string(),
                r.removal.to_string(),
                r.phases.to_string(),
                r.full_board.to_string()
            ),
            (
                pieces,
                flying.to_string(),
                "standard".to_string(),
                phases.to_string(),
                full.to_string()
            ),
            "{name}"
        );
    }
    // Morabaraba's and twelve's board: nine's 16 mills plus the 4 corner diagonals.
    for name in ["morabaraba", "twelve"] {
        let b = Variant::by_name(name).unwrap();
        assert_eq!(b.board().mills().len(), 20, "{name}");
        assert_eq!(b.board().len(), 24, "{name}");
    }
}
