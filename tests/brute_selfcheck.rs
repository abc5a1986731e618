//! Self-checks of the independent brute-force solver used to test the real one.

mod brute;
mod common;

use std::collections::HashMap;
use std::time::Instant;

use brute::{BruteForce, Outcome};
use common::custom_variant;
use morris::rules::{for_each_move, generate, play};
use morris::{Color, PointSet, Position, Variant};
use rayon::prelude::*;

fn variant(name: &str) -> Variant {
    Variant::by_name(name).unwrap()
}

fn pos(v: &Variant, text: &str) -> Position {
    Position::parse(v, text).unwrap().0
}

/// The value the definition gives `p` from its children's stored values.
fn one_ply(bf: &BruteForce, v: &Variant, p: &Position) -> Outcome {
    if bf.is_full_board_draw(p) {
        assert!(generate(v, p).is_empty(), "a full board has no move");
        return Outcome::Draw;
    }
    let mut min_loss: Option<u32> = None;
    let mut max_win: Option<u32> = None;
    let mut draw = false;
    for_each_move(v, p, |mv| {
        let c = play(p, mv);
        let cv = if c.mover_pieces() < 3 {
            assert_eq!(bf.value(&c), None);
            Outcome::Loss(0)
        } else {
            bf.value(&c)
                .expect("a child of a domain position is in the domain")
        };
        match cv {
            Outcome::Loss(d) => min_loss = Some(min_loss.map_or(d, |m| m.min(d))),
            Outcome::Win(d) => max_win = Some(max_win.map_or(d, |m| m.max(d))),
            Outcome::Draw => draw = true,
        }
    });
    match (min_loss, draw, max_win) {
        (Some(d), _, _) => Outcome::Win(d + 1),
        (None, true, _) => Outcome::Draw,
        (None, false, Some(d)) => Outcome::Loss(d + 1),
        (None, false, None) => Outcome::Loss(0),
    }
}

fn solve_timed(name: &str) -> (Variant, BruteForce) {
    let v = variant(name);
    let t = Instant::now();
    let bf = BruteForce::solve(&v);
    let s = bf.stats();
    println!(
        "{name}: solved in {:.2?}; start {:?}; {} positions: {} wins, {} losses, {} draws; longest win {}, loss {}",
        t.elapsed(),
        bf.value(&Position::start(&v)),
        bf.len(),
        s.wins,
        s.losses,
        s.draws,
        s.max_win,
        s.max_loss
    );
    assert_eq!(s.positions, bf.len());
    (v, bf)
}

/// Every domain position agrees with its one-ply value, depths have the right parity, and
/// the domain is exactly the set of checked positions with three pieces a side.
fn check_consistency(v: &Variant, bf: &BruteForce) {
    let mut all = Vec::with_capacity(bf.len() as usize);
    bf.for_each(|p, o| all.push((p, o)));
    assert_eq!(all.len() as u64, bf.len());
    all.par_iter().for_each(|(p, o)| {
        assert!(p.check(v).is_ok() && p.mover_pieces() >= 3 && p.opponent_pieces() >= 3);
        assert_eq!(
            bf.value(p),
            Some(*o),
            "for_each and value disagree on {p:?}"
        );
        match *o {
            Outcome::Win(d) => assert_eq!(d % 2, 1),
            Outcome::Loss(d) => assert_eq!(d % 2, 0),
            Outcome::Draw => {}
        }
        assert_eq!(one_ply(bf, v, p), *o, "one-ply value differs on {p:?}");
    });
}

/// A position with a blocked mover, and that it really has no move.
fn blocked_three(v: &Variant) -> Position {
    // W on a3 b3 a2, B on c3 b2 a1: every neighbour of White is taken.
    let p = pos(v, "WWB/WB./B.. w 0 0");
    assert!(generate(v, &p).is_empty());
    p
}

#[test]
fn three_start_is_draw_and_consistent() {
    let (v, bf) = solve_timed("three");
    assert_eq!(bf.value(&Position::start(&v)), Some(Outcome::Draw));
    check_consistency(&v, &bf);
}

#[test]
fn three_diag_consistent() {
    let (v, bf) = solve_timed("three-diag");
    check_consistency(&v, &bf);
}

#[test]
fn five_start_is_draw_and_consistent() {
    let (v, bf) = solve_timed("five");
    assert_eq!(bf.value(&Position::start(&v)), Some(Outcome::Draw));
    check_consistency(&v, &bf);
}

#[test]
fn hand_picked_three() {
    for name in ["three", "three-diag"] {
        let v = variant(name);
        let bf = BruteForce::solve(&v);
        // Blocked: Loss at 0.
        let b = blocked_three(&v);
        assert_eq!(bf.value(&b), Some(Outcome::Loss(0)), "{name}");
        // The same board with Black to move: Black has moves, so it is not a Loss(0).
        assert_ne!(bf.value(&b.flipped()), Some(Outcome::Loss(0)), "{name}");
        // White places c1, closes a1-b1-c1 and leaves Black with two pieces: Win(1).
        let w = pos(&v, "BB./.../WW. w 1 1");
        assert_eq!(bf.value(&w), Some(Outcome::Win(1)), "{name}");
        // Outside the domain: a side with two pieces, or hands that cannot alternate.
        assert_eq!(bf.value(&pos(&v, "BB./.../WW. w 0 0")), None);
        assert_eq!(
            bf.value(&Position {
                mover_hand: 0,
                opponent_hand: 2,
                ..Position::start(&v)
            }),
            None
        );
        // Reading back through notation agrees with value.
        let text = w.to_notation(&v, Color::White);
        assert_eq!(bf.value(&pos(&v, &text)), Some(Outcome::Win(1)));
    }
}

#[test]
fn hand_picked_five() {
    let v = variant("five");
    let bf = BruteForce::solve(&v);
    // Moving phase, Black has three pieces; White slides into a mill and removes one: Win(1).
    // W on a5 e5 c4 completes a5-c5-e5 by sliding c4-c5; B on a3 b2 e1.
    let p = pos(&v, "W.W/.W./B.../B../..B w 0 0");
    let wins_now = generate(&v, &p)
        .iter()
        .any(|&m| play(&p, m).mover_pieces() < 3);
    assert!(
        wins_now,
        "the constructed position must allow a winning capture"
    );
    assert_eq!(bf.value(&p), Some(Outcome::Win(1)));
    // Every position in the domain whose mover has no move is Loss(0), and every one with
    // a capture to two pieces is Win(1).
    bf.for_each(|p, o| {
        let moves = generate(&v, &p);
        if moves.is_empty() {
            assert_eq!(o, Outcome::Loss(0));
        } else if moves.iter().any(|&m| play(&p, m).mover_pieces() < 3) {
            assert_eq!(o, Outcome::Win(1));
        }
    });
}

#[test]
#[ignore = "solves six: about 10-20 s and 0.75 GB in release"]
fn six_start_is_draw() {
    let (v, bf) = solve_timed("six");
    assert_eq!(bf.value(&Position::start(&v)), Some(Outcome::Draw));
}

#[test]
#[ignore = "solves six-diag: about 10-20 s and 0.75 GB in release"]
fn six_diag_solves() {
    let (v, bf) = solve_timed("six-diag");
    println!("six-diag start: {:?}", bf.value(&Position::start(&v)));
}

/// Every board and hand pair of a small variant: `value` answers exactly for the domain.
fn check_domain_membership(v: &Variant, bf: &BruteForce) {
    let n = v.board().len() as u32;
    let pieces = v.pieces();
    let mut count = 0u64;
    for mover in 0u32..1 << n {
        for opponent in 0u32..1 << n {
            for mover_hand in 0..=pieces {
                for opponent_hand in 0..=pieces {
                    let p = Position {
                        mover: PointSet::from_bits(mover),
                        opponent: PointSet::from_bits(opponent),
                        mover_hand,
                        opponent_hand,
                    };
                    let inside =
                        p.check(v).is_ok() && p.mover_pieces() >= 3 && p.opponent_pieces() >= 3;
                    assert_eq!(bf.value(&p).is_some(), inside, "{p:?}");
                    count += inside as u64;
                }
            }
        }
    }
    assert_eq!(count, bf.len());
}

/// A second, different algorithm for small variants: value iteration by depth over a hash
/// map (pass d resolves exactly the positions of depth d), compared on every position.
fn check_value_iteration(v: &Variant, bf: &BruteForce) {
    let mut domain = Vec::new();
    bf.for_each(|p, _| domain.push(p));
    let mut known: HashMap<Position, Outcome> = HashMap::new();
    let mut d = 0u32;
    loop {
        let mut found = Vec::new();
        for p in &domain {
            if known.contains_key(p) || bf.is_full_board_draw(p) {
                continue;
            }
            let mut loss_child = false;
            let mut all_wins = true;
            for m in generate(v, p) {
                let c = play(p, m);
                let cv = if c.mover_pieces() < 3 {
                    Some(Outcome::Loss(0))
                } else {
                    known.get(&c).copied()
                };
                match cv {
                    Some(Outcome::Loss(_)) => loss_child = true,
                    Some(Outcome::Win(_)) => {}
                    _ => all_wins = false,
                }
            }
            if d % 2 == 1 && loss_child {
                found.push((*p, Outcome::Win(d)));
            } else if d.is_multiple_of(2) && all_wins && !loss_child {
                found.push((*p, Outcome::Loss(d)));
            }
        }
        if found.is_empty() && d > 0 {
            break;
        }
        known.extend(found);
        d += 1;
    }
    for p in &domain {
        let expect = known.get(p).copied().unwrap_or(Outcome::Draw);
        assert_eq!(bf.value(p), Some(expect), "{p:?}");
    }
}

#[test]
fn three_domain_and_value_iteration() {
    for name in ["three", "three-diag"] {
        let v = variant(name);
        let bf = BruteForce::solve(&v);
        check_domain_membership(&v, &bf);
        check_value_iteration(&v, &bf);
    }
}

const THREE_LINES: &[&str] = &[
    "a3-b3-c3", "a2-b2-c2", "a1-b1-c1", "a3-a2-a1", "b3-b2-b1", "c3-c2-c1",
];

/// Lasker phases (cyclic units of two hand pairs each) and full boards: the brute force's
/// domain is exactly the positions that pass `check` with three pieces a side, every value
/// follows from its children, and value iteration by depth gives the same values.
#[test]
fn three_board_lasker_and_full_board_self_check() {
    for (pieces, sw) in [
        (4, ["three", "standard", "lasker", "loss"]),
        (4, ["always", "strict", "lasker", "loss"]),
        (5, ["never", "lenient", "lasker", "draw"]),
        (5, ["three", "standard", "separate", "draw"]),
        (5, ["never", "standard", "separate", "loss"]),
    ] {
        let v = custom_variant("three-board", THREE_LINES, pieces, sw);
        let t = Instant::now();
        let bf = BruteForce::solve(&v);
        let s = bf.stats();
        println!(
            "{} pieces {sw:?}: solved in {:.2?}; start {:?}; {} positions: {} wins, {} losses, {} draws",
            pieces,
            t.elapsed(),
            bf.value(&Position::start(&v)),
            bf.len(),
            s.wins,
            s.losses,
            s.draws
        );
        check_consistency(&v, &bf);
        check_domain_membership(&v, &bf);
        if pieces == 4 {
            check_value_iteration(&v, &bf);
        }
    }
}

/// Hand-picked full boards on three's board with five pieces a side: a draw under
/// `full_board = draw`, a loss at 0 under `full_board = loss`; and a placement that fills the
/// board without a mill is worth that draw.
#[test]
fn hand_picked_full_boards() {
    for phases in ["separate", "lasker"] {
        let draw = custom_variant(
            "three5",
            THREE_LINES,
            5,
            ["never", "standard", phases, "draw"],
        );
        let loss = custom_variant(
            "three5",
            THREE_LINES,
            5,
            ["never", "standard", phases, "loss"],
        );
        let (bd, bl) = (BruteForce::solve(&draw), BruteForce::solve(&loss));
        // White has five on the board, Black four and one in hand, Black to move: no mill.
        let full = "WBW/BWB/WBW b 0 1";
        assert_eq!(bd.value(&pos(&draw, full)), Some(Outcome::Draw), "{phases}");
        assert_eq!(
            bl.value(&pos(&loss, full)),
            Some(Outcome::Loss(0)),
            "{phases}"
        );
        // White to place the last free point, c1, with no mill of its own there: the board is
        // full after it, Black to move. Black's pieces a2 c2 b3 b1 are no mill either.
        let before = "WBW/BWB/WB. w 1 1";
        let p = pos(&draw, before);
        let moves = generate(&draw, &p);
        assert_eq!(moves.len(), 1, "{phases}: {moves:?}");
        assert_eq!(bd.value(&p), Some(Outcome::Draw), "{phases}");
        assert_eq!(
            bl.value(&pos(&loss, before)),
            Some(Outcome::Win(1)),
            "{phases}"
        );
    }
}
