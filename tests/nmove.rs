//! The N-move rule's budgets (`morris::nmove`) against an independent value iteration that
//! carries the move counter: for every position and every number of quiet plies left, the
//! outcome by the budget is the outcome of the game played with the counter, and the counts of
//! cursed wins and blessed losses per sector follow from it.
//!
//! The iteration knows nothing of levels or budgets. It reads the rule as `data/rules.md`
//! states it: a slide or a fly without a removal adds one to the count, a placement or a
//! removal starts it again, a position with no move is decided by the rules whatever the count,
//! and a position with moves but none of the count left is drawn. With `r` plies left a
//! position's outcome is its best move's: a move that starts the count again leads to the
//! child's outcome for a fresh counter (N left), found earlier, sectors dependencies first; a
//! move that counts leads to the child's outcome with `r - 1` left.

mod common;

use std::collections::BTreeMap;

use morris::nmove::{Keep, RuleAnalysis, RuleValue};
use morris::rules::{for_each_move, play, too_few_pieces, value_without_moves, Outcome, Value};
use morris::space::plan;
use morris::store::Database;
use morris::{Position, Sector, Silent, Variant};
use rayon::prelude::*;

/// The outcomes, for a fresh counter, of every slot of the sectors iterated (`None`: unused).
type Fresh = BTreeMap<Sector, Vec<Option<Outcome>>>;

/// One position's moves, classified by the rule's text.
struct Moves {
    /// The best outcome the mover reaches by a move that starts the count again (`None`:
    /// no such move).
    reset: Option<Outcome>,
    /// The children by a move that counts, as (sector of the unit, slot).
    counted: Vec<(usize, u64)>,
    /// The outcome when the position has no move at all.
    without_moves: Option<Outcome>,
}

/// The better of two outcomes for the mover.
fn best(a: Outcome, b: Outcome) -> Outcome {
    let rank = |o| match o {
        Outcome::Win => 2,
        Outcome::Draw => 1,
        Outcome::Loss => 0,
    };
    if rank(a) >= rank(b) {
        a
    } else {
        b
    }
}

/// Classifies the moves of `pos`, a position of the unit `sectors`.
fn moves_of(
    v: &Variant,
    db: &Database,
    sectors: &[Sector],
    fresh: &Fresh,
    pos: &Position,
) -> Moves {
    let (mut reset, mut counted, mut any) = (None::<Outcome>, Vec::new(), false);
    for_each_move(v, pos, |mv| {
        any = true;
        let child = play(pos, mv);
        let slot_of = |s: Sector| db.index(s).index(&child);
        if too_few_pieces(&child) {
            reset = Some(Outcome::Win);
        } else if mv.from().is_some() && mv.removed().is_none() {
            let s = Sector::of(&child);
            let k = sectors
                .iter()
                .position(|&u| u == s)
                .expect("a slide or fly without a removal stays in its work unit");
            counted.push((k, slot_of(s)));
        } else {
            let s = Sector::of(&child);
            let child_value = fresh[&s][slot_of(s) as usize].expect("a used slot");
            let got = child_value.before_move();
            reset = Some(reset.map_or(got, |r| best(r, got)));
        }
    });
    let without_moves = (!any).then(|| match value_without_moves(v, pos) {
        Value::Loss(_) => Outcome::Loss,
        Value::Win(_) => Outcome::Win,
        Value::Draw => Outcome::Draw,
    });
    Moves {
        reset,
        counted,
        without_moves,
    }
}

/// Iterates the outcome with `r` plies left, `r` from 0 to `n`, over every unit from `roots`;
/// checks each against the analysis's budgets, and returns the outcomes for a fresh counter.
fn iterate_and_check(v: &Variant, db: &Database, analysis: &RuleAnalysis, n: u16) -> Fresh {
    let mut fresh: Fresh = BTreeMap::new();
    let roots = db.present();
    for unit in plan(v, &roots) {
        let sectors = unit.sectors.clone();
        let slots: Vec<(usize, u64, Position)> = sectors
            .iter()
            .enumerate()
            .flat_map(|(k, &s)| {
                let index = db.index(s);
                (0..index.size()).filter_map(move |i| index.position(i).map(|p| (k, i, p)))
            })
            .collect();
        let moves: Vec<Moves> = slots
            .par_iter()
            .map(|(_, _, p)| moves_of(v, db, &sectors, &fresh, p))
            .collect();
        let sizes: Vec<u64> = sectors.iter().map(|&s| db.index(s).size()).collect();
        let mut now: Vec<Vec<Outcome>> = sizes
            .iter()
            .map(|&z| vec![Outcome::Draw; z as usize])
            .collect();
        let mut stationary = false;
        for left in 0..=n {
            // Once an iteration changes nothing, no later one does: the moves that start the
            // count again lead to the same outcomes at every count.
            if stationary && left < n {
                continue;
            }
            let next: Vec<Outcome> = moves
                .par_iter()
                .map(|m| match m.without_moves {
                    Some(o) => o,
                    None if left == 0 => Outcome::Draw,
                    None => m
                        .counted
                        .iter()
                        .fold(m.reset.unwrap_or(Outcome::Loss), |acc, &(k, i)| {
                            best(acc, now[k][i as usize].before_move())
                        }),
                })
                .collect();
            let mut changed = false;
            for ((k, i, p), &o) in slots.iter().zip(&next) {
                let budget = analysis.budget(p).unwrap();
                assert_eq!(
                    budget.outcome_with(left),
                    o,
                    "{} with {left} of {n} plies left: budget {budget:?}",
                    p.to_notation(v, morris::Color::White)
                );
                changed |= now[*k][*i as usize] != o;
                now[*k][*i as usize] = o;
            }
            stationary = left > 0 && !changed;
        }
        for (k, &s) in sectors.iter().enumerate() {
            let index = db.index(s);
            let outcomes = (0..index.size())
                .map(|i| index.position(i).map(|_| now[k][i as usize]))
                .collect();
            fresh.insert(s, outcomes);
        }
    }
    fresh
}

/// Counts the rule values of each sector from the iteration's fresh outcomes and the
/// database's values, and asserts that they are the analysis's, position by position by an
/// analysis that keeps only counts.
fn assert_counts(
    db: &Database,
    analysis: &RuleAnalysis,
    counted: &RuleAnalysis,
    fresh: &Fresh,
) -> [u64; 5] {
    let mut all = [0u64; 5];
    for (&s, outcomes) in fresh {
        let index = db.index(s);
        let mut counts = [0u64; 5];
        for (i, o) in outcomes.iter().enumerate() {
            let Some(ruled) = *o else { continue };
            let pos = index.position(i as u64).unwrap();
            let game = db.probe_outcome(&pos).unwrap();
            let value = RuleValue::of(game, ruled).expect("the rule only adds draws");
            assert_eq!(
                counted.rule_value(db, &pos).unwrap(),
                value,
                "sector {s} slot {i}"
            );
            counts[value as usize] += 1;
        }
        assert_eq!(analysis.counts(s).unwrap().positions, counts, "sector {s}");
        assert_eq!(counted.counts(s).unwrap().positions, counts, "sector {s}");
        for k in 0..5 {
            all[k] += counts[k];
        }
    }
    all
}

/// `variant` solved (with `extra` solve arguments) into the fresh folder `name`, opened.
fn solved(name: &str, variant: &str, extra: &[&str]) -> (std::path::PathBuf, Variant, Database) {
    let dir = common::solved(name, variant, extra);
    let v = Variant::by_name(variant).unwrap();
    let db = Database::open(&dir, &v).unwrap();
    (dir, v, db)
}

/// Solves `variant` (with `extra` solve arguments), analyses it under the `n`-move rule and
/// checks the analysis against the iteration; returns the counts of every rule value.
fn check(name: &str, variant: &str, extra: &[&str], n: u16) -> [u64; 5] {
    let (_, v, db) = solved(name, variant, extra);
    let analysis = RuleAnalysis::run(&db, n, &db.present(), Keep::Budgets, &Silent).unwrap();
    let counted = RuleAnalysis::run(&db, n, &db.present(), Keep::Counts, &Silent).unwrap();
    let fresh = iterate_and_check(&v, &db, &analysis, n);
    assert_counts(&db, &analysis, &counted, &fresh)
}

#[test]
fn six_under_the_hundred_ply_rule_is_the_counter_iterations() {
    let counts = check("nmove-six", "six", &[], 100);
    // Six's wins need few quiet plies: some, but few, are spoiled by the rule.
    let cursed = counts[RuleValue::CursedWin as usize];
    assert!(
        cursed > 0 && cursed * 1000 < counts[RuleValue::Win as usize],
        "{counts:?}"
    );
}

#[test]
fn nine_endgames_under_the_hundred_ply_rule_are_the_counter_iterations() {
    check("nmove-nine-3-3", "nine", &["--sector", "3-3-0-0"], 100);
    check("nmove-nine-4-4", "nine", &["--sector", "4-4-0-0"], 100);
}

#[test]
fn a_short_rule_spoils_more_of_nine_s_three_piece_wins() {
    let short = check("nmove-nine-3-3-short", "nine", &["--sector", "3-3-0-0"], 4);
    let long = check("nmove-nine-3-3-long", "nine", &["--sector", "3-3-0-0"], 40);
    let (cursed, blessed) = (
        RuleValue::CursedWin as usize,
        RuleValue::BlessedLoss as usize,
    );
    assert!(
        short[cursed] > long[cursed] && short[blessed] > long[blessed],
        "{short:?} {long:?}"
    );
    // The rule moves wins and losses to draws, never the other way.
    let draw = RuleValue::Draw as usize;
    assert_eq!(short[draw], long[draw]);
    assert_eq!(short.iter().sum::<u64>(), long.iter().sum::<u64>());
}

#[test]
fn a_rule_longer_than_every_depth_changes_no_value() {
    let (_, v, db) = solved("nmove-six-long", "six", &[]);
    let analysis = RuleAnalysis::run(&db, 1000, &db.present(), Keep::Counts, &Silent).unwrap();
    let total = analysis.total();
    assert_eq!(total.of(RuleValue::CursedWin), 0);
    assert_eq!(total.of(RuleValue::BlessedLoss), 0);
    let wins: u64 = db
        .present()
        .iter()
        .map(|&s| {
            let index = db.index(s);
            (0..index.size())
                .filter_map(|i| index.position(i))
                .filter(|p| db.probe_outcome(p).unwrap() == Outcome::Win)
                .count() as u64
        })
        .sum();
    assert_eq!(total.of(RuleValue::Win), wins);
    assert!(wins > 0);
    // The start position is drawn either way.
    let start = Position::start(&v);
    assert_eq!(analysis.rule_value(&db, &start).unwrap(), RuleValue::Draw);
}

/// Seven's published counts under the 100-ply rule (`data/results/seven-standard-n100.tsv`,
/// written by `scripts/results.sh`) are what this build counts: none of its wins is cursed,
/// its deepest moving-phase value (70 plies) being shorter than the rule.
#[test]
fn seven_s_published_counts_under_the_hundred_ply_rule_are_reproduced() {
    let dir = common::solved("nmove-seven", "seven", &[]);
    let out = common::morris(&[
        "--variant",
        "seven",
        "stats",
        "--n-move-rule",
        "100",
        "--quiet",
        "--db",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", common::text(&out));
    let rows = |t: &str| t.lines().skip(1).map(String::from).collect::<Vec<_>>();
    let published = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("data/results/seven-standard-n100.tsv"),
    )
    .unwrap();
    let ours = String::from_utf8(out.stdout).unwrap();
    assert_eq!(rows(&ours), rows(&published));
    let total = ours.lines().last().unwrap();
    assert!(
        total.starts_with("total\t31965324\t20395438\t0\t"),
        "{total}"
    );
}

/// `query --n-move-rule` on a cursed win of six: the JSON adds the rule's values as the
/// contract says, every winning move is cursed too (a move out of the unit into a loss would
/// have made the win safe), and a rule longer than every depth gives back the plain win.
#[test]
fn query_gives_the_rule_values_of_a_cursed_win_and_of_its_moves() {
    let (dir, v, db) = solved("nmove-six-query", "six", &[]);
    let analysis = RuleAnalysis::run(&db, 100, &db.present(), Keep::Counts, &Silent).unwrap();
    let index = db.index("6-5-0-0".parse().unwrap());
    let pos = (0..index.size())
        .filter_map(|i| index.position(i))
        .find(|p| analysis.rule_value(&db, p).unwrap() == RuleValue::CursedWin)
        .expect("six's 6-5-0-0 holds cursed wins under the 100-ply rule");
    let notation = pos.to_notation(&v, morris::Color::White);
    let query = |extra: &[&str]| {
        let mut args = vec!["--variant", "six", "query", "--db", dir.to_str().unwrap()];
        args.extend(extra);
        args.push(&notation);
        let out = common::morris(&args);
        assert!(out.status.success(), "{}", common::text(&out));
        String::from_utf8(out.stdout).unwrap()
    };
    let json: serde_json::Value =
        serde_json::from_str(&query(&["--json", "--n-move-rule", "100"])).unwrap();
    assert_eq!(json["value"], "win");
    assert_eq!(json["rule_value"], "cursed-win");
    assert_eq!(json["n_move_rule"], 100);
    let moves = json["moves"].as_array().unwrap();
    let mut wins = 0;
    for m in moves {
        let (value, rule) = (
            m["value"].as_str().unwrap(),
            m["rule_value"].as_str().unwrap(),
        );
        match value {
            "win" => {
                wins += 1;
                assert_eq!(rule, "cursed-win", "{m}");
            }
            "draw" => assert_eq!(rule, "draw", "{m}"),
            _ => assert!(rule == "loss" || rule == "blessed-loss", "{m}"),
        }
    }
    assert!(wins > 0, "{json}");
    let long: serde_json::Value =
        serde_json::from_str(&query(&["--json", "--n-move-rule", "1000"])).unwrap();
    assert_eq!(long["rule_value"], "win");
    let plain: serde_json::Value = serde_json::from_str(&query(&["--json"])).unwrap();
    assert!(plain.get("rule_value").is_none() && plain.get("n_move_rule").is_none());
    assert!(plain["moves"][0].get("rule_value").is_none());
    let text = query(&["--n-move-rule", "100"]);
    assert!(
        text.contains("under the 100-move rule, from a fresh counter")
            && text.contains("cursed win"),
        "{text}"
    );
    assert!(
        text.contains("100-ply rule") && text.contains("cursed-win"),
        "{text}"
    );
}

/// Nine's moving-phase endgames up to seven pieces a side under the 100-ply rule
/// (`data/results/nine-standard-max7-n100.tsv`, `stats --n-move-rule 100` of `solve
/// --max-pieces 7`; too long to rebuild here) agree with nine's published whole-game counts
/// (`nine-standard.json`): per sector, wins and cursed wins are its wins, blessed losses and
/// losses its losses, and the draws its draws.
#[test]
fn nine_s_endgames_under_the_rule_split_the_published_values() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/results");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("nine-standard.json")).unwrap())
            .unwrap();
    let published: BTreeMap<String, [u64; 3]> = json["sectors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let n = |k: &str| s[k].as_u64().unwrap();
            (
                s["sector"].as_str().unwrap().to_string(),
                [n("win"), n("draw"), n("loss")],
            )
        })
        .collect();
    let tsv = std::fs::read_to_string(root.join("nine-standard-max7-n100.tsv")).unwrap();
    let mut rows = 0;
    let mut total = [0u64; 5];
    for line in tsv.lines().skip(2) {
        let f: Vec<&str> = line.split('\t').collect();
        let c: Vec<u64> = f[1..].iter().map(|x| x.parse().unwrap()).collect();
        assert_eq!(c[0], c[1..].iter().sum::<u64>(), "{line}");
        if f[0] == "total" {
            assert_eq!(&c[1..], &total[..], "{line}");
            continue;
        }
        let [win, draw, loss] = published[f[0]];
        assert_eq!(
            (c[1] + c[2], c[3], c[4] + c[5]),
            (win, draw, loss),
            "{line}"
        );
        for k in 0..5 {
            total[k] += c[k + 1];
        }
        rows += 1;
    }
    assert_eq!(rows, 25);
    assert!(total[RuleValue::CursedWin as usize] > 0 && total[RuleValue::BlessedLoss as usize] > 0);
}
