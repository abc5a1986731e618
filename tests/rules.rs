//! The rules engine against the independent naive generator, published perft counts, and the
//! backward generator's round trip.

mod common;
mod naive;

use common::{random_position, variant, Rng, VARIANTS};
use morris::movegen::{for_each_unmove, generate, has_move, play};
use morris::perft::perft;
use morris::{Color, Flying, Move, Position, Removal, Variant};
use naive::NaiveGame;

/// Each variant with default rules, plus overrides that change what the generator does.
fn rule_sets() -> Vec<(Variant, NaiveGame)> {
    let mut sets = Vec::new();
    for name in VARIANTS {
        sets.push((variant(name, None, None), NaiveGame::new(name, None, None)));
    }
    sets.push((
        variant("nine", None, Some(Removal::Strict)),
        NaiveGame::new("nine", None, Some(true)),
    ));
    sets.push((
        variant("nine", Some(Flying::Never), None),
        NaiveGame::new("nine", Some(false), None),
    ));
    sets.push((
        variant("six", Some(Flying::Three), None),
        NaiveGame::new("six", Some(true), None),
    ));
    sets.push((
        variant("seven", Some(Flying::Three), Some(Removal::Strict)),
        NaiveGame::new("seven", Some(true), Some(true)),
    ));
    sets
}

fn sorted_notations(v: &Variant, pos: &Position) -> Vec<String> {
    let mut names: Vec<String> = generate(v, pos)
        .iter()
        .map(|m| m.to_notation(v.board()))
        .collect();
    names.sort();
    names
}

#[test]
fn move_sets_and_results_match_the_naive_generator() {
    let mut rng = Rng::new(1);
    for (v, naive) in rule_sets() {
        for _ in 0..1500 {
            let (pos, turn) = random_position(&v, &mut rng);
            let text = pos.to_notation(&v, turn);
            let engine = sorted_notations(&v, &pos);
            let expected = naive.moves(&text);
            assert_eq!(engine, expected, "{} {:?}: {text}", v.name(), v.rules());
            assert_eq!(has_move(&v, &pos), !expected.is_empty(), "{text}");
            for mv in generate(&v, &pos) {
                let name = mv.to_notation(v.board());
                let after = play(&pos, mv).to_notation(&v, turn.other());
                assert_eq!(after, naive.play(&text, &name), "{text} {name}");
            }
        }
    }
}

/// `data/perft.tsv`: variant, depth, count, from each start position.
fn published_perft() -> Vec<(String, u32, u64)> {
    let text = include_str!("../data/perft.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                f[0].to_string(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn start_perft_matches_data_and_naive_to_depth_5() {
    let rows = published_perft();
    for name in VARIANTS {
        let v = variant(name, None, None);
        let naive = NaiveGame::new(name, None, None);
        let start = Position::start(&v);
        let text = start.to_notation(&v, Color::White);
        assert_eq!(text, naive.start());
        for depth in 1..=5 {
            let count = perft(&v, &start, depth);
            assert_eq!(count, naive.perft(&text, depth), "{name} depth {depth}");
            let row = rows.iter().find(|r| r.0 == *name && r.1 == depth);
            assert_eq!(
                row.map(|r| r.2),
                Some(count),
                "{name} depth {depth} in data/perft.tsv"
            );
        }
    }
}

#[test]
fn midgame_perft_matches_naive_to_depth_3() {
    let mut rng = Rng::new(2);
    for (v, naive) in rule_sets() {
        for _ in 0..25 {
            let (pos, turn) = random_position(&v, &mut rng);
            let text = pos.to_notation(&v, turn);
            assert_eq!(
                perft(&v, &pos, 3),
                naive.perft(&text, 3),
                "{} {text}",
                v.name()
            );
        }
    }
}

fn unmoves(v: &Variant, pos: &Position) -> Vec<(Position, Move)> {
    let mut list = Vec::new();
    for_each_unmove(v, pos, |prev, mv| list.push((prev, mv)));
    list
}

#[test]
fn every_move_is_undone_and_every_unmove_replays() {
    let mut rng = Rng::new(3);
    for (v, _) in rule_sets() {
        for _ in 0..1500 {
            let (pos, _) = random_position(&v, &mut rng);
            pos.check(&v).unwrap();
            for mv in generate(&v, &pos) {
                let after = play(&pos, mv);
                assert!(after.check(&v).is_ok(), "{pos:?} {mv:?}");
                assert!(
                    unmoves(&v, &after).contains(&(pos, mv)),
                    "{} {pos:?} {mv:?}",
                    v.name()
                );
            }
            let list = unmoves(&v, &pos);
            let mut dedup = list.clone();
            dedup.sort();
            dedup.dedup();
            assert_eq!(dedup.len(), list.len(), "un-moves repeat for {pos:?}");
            for (prev, mv) in list {
                assert!(prev.check(&v).is_ok(), "{} {prev:?}", v.name());
                assert!(
                    generate(&v, &prev).contains(&mv),
                    "{} {prev:?} {mv:?} -> {pos:?}",
                    v.name()
                );
                assert_eq!(play(&prev, mv), pos);
            }
        }
    }
}

#[test]
fn notation_round_trips() {
    let mut rng = Rng::new(4);
    for name in VARIANTS {
        let v = variant(name, None, None);
        for _ in 0..500 {
            let (pos, turn) = random_position(&v, &mut rng);
            let text = pos.to_notation(&v, turn);
            assert_eq!(Position::parse(&v, &text).unwrap(), (pos, turn), "{text}");
            for mv in generate(&v, &pos) {
                assert_eq!(
                    Move::parse(v.board(), &mv.to_notation(v.board())).unwrap(),
                    mv
                );
            }
        }
    }
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
    ];
    for (name, size) in expected {
        let v = variant(name, None, None);
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
    for name in VARIANTS {
        let v = variant(name, None, None);
        for _ in 0..200 {
            let (pos, _) = random_position(&v, &mut rng);
            let count = generate(&v, &pos).len();
            for s in v.symmetries() {
                let image = Position {
                    mover: s.apply(pos.mover),
                    opponent: s.apply(pos.opponent),
                    ..pos
                };
                assert_eq!(generate(&v, &image).len(), count);
            }
        }
    }
}
