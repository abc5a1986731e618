//! Helpers shared by the integration tests: a small deterministic RNG and random positions.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

use morris::rules::{generate, play};
use morris::rules::{NoMove, Phases, RuleOverrides};
use morris::{Color, Flying, PointSet, Position, Removal, Rules, Variant};

/// The variants of the seed games plus the family beyond them.
pub const VARIANTS: &[&str] = &[
    "nine",
    "six",
    "six-diag",
    "five",
    "seven",
    "three",
    "three-diag",
    "twelve",
    "lasker",
    "morabaraba",
];

/// xorshift64*: deterministic, dependency-free randomness for reproducible tests.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// A random subset of `from` with `k` points (k <= |from|).
    pub fn subset(&mut self, from: PointSet, k: u32) -> PointSet {
        let mut pts: Vec<_> = from.iter().collect();
        let mut set = PointSet::EMPTY;
        for _ in 0..k {
            let i = self.below(pts.len() as u64) as usize;
            set = set.with(pts.swap_remove(i));
        }
        set
    }
}

/// A variant by name with optional rule overrides.
pub fn variant(name: &str, flying: Option<Flying>, removal: Option<Removal>) -> Variant {
    Variant::by_name(name).unwrap().with_rules(flying, removal)
}

/// A random valid position with its colour to move: half from random play from the start,
/// half random boards with hands that alternate (many of these cannot occur in play, which
/// is what a move generator must handle too).
pub fn random_position(v: &Variant, rng: &mut Rng) -> (Position, Color) {
    let pieces = v.pieces() as u32;
    if rng.below(2) == 0 {
        let mut pos = Position::start(v);
        let mut turn = Color::White;
        let plies = rng.below(4 * pieces as u64 + 20);
        for _ in 0..plies {
            let moves = generate(v, &pos);
            if moves.is_empty() {
                break;
            }
            pos = play(&pos, moves[rng.below(moves.len() as u64) as usize]);
            turn = turn.other();
        }
        return (pos, turn);
    }
    let (mover_hand, opponent_hand) = if rng.below(2) == 0 {
        (0, 0)
    } else {
        let h = 1 + rng.below(pieces as u64) as u32;
        if h < pieces && rng.below(2) == 0 {
            (h + 1, h)
        } else {
            (h, h)
        }
    };
    let all = v.board().all();
    let mover_count = rng.below((pieces - mover_hand + 1) as u64) as u32;
    let mover = rng.subset(all, mover_count);
    let opponent_count =
        (rng.below((pieces - opponent_hand + 1) as u64) as u32).min((all - mover).len());
    let opponent = rng.subset(all - mover, opponent_count);
    let pos = Position {
        mover,
        opponent,
        mover_hand: mover_hand as u8,
        opponent_hand: opponent_hand as u8,
    };
    let fallback = if rng.below(2) == 0 {
        Color::White
    } else {
        Color::Black
    };
    (pos, pos.turn_from_hands(fallback))
}

/// Runs the `morris` binary with `args`, feeding it `stdin`.
pub fn run_morris(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_morris"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// Runs the `morris` binary with `args` and no input.
pub fn morris(args: &[&str]) -> Output {
    run_morris(args, "")
}

/// Standard output then standard error, as text (the short name the tests use).
pub fn text(o: &Output) -> String {
    output_text(o)
}

/// Solves `variant` (with `extra` arguments, quietly) into the folder `db`, asserting that it
/// succeeds; returns what it printed.
pub fn solve_into(variant: &str, db: &std::path::Path, extra: &[&str]) -> String {
    let mut args = vec!["--variant", variant, "solve", "--quiet", "--db"];
    args.push(db.to_str().unwrap());
    args.extend(extra);
    let out = morris(&args);
    assert!(
        out.status.success(),
        "solve {variant} {extra:?}: {}",
        text(&out)
    );
    text(&out)
}

/// Builds the tables of `variant` from the database folder `db` into `out`, quietly, asserting
/// that it succeeds.
pub fn tables_into(variant: &str, db: &std::path::Path, out: &std::path::Path) {
    let (db, out) = (db.to_str().unwrap(), out.to_str().unwrap());
    let o = morris(&[
        "--variant",
        variant,
        "tables",
        "-q",
        "--db",
        db,
        "--out",
        out,
    ]);
    assert!(o.status.success(), "tables {variant}: {}", text(&o));
}

/// A fresh folder `name` under the build's temporary folder, with `variant` solved into it
/// (with `extra` arguments).
pub fn solved(name: &str, variant: &str, extra: &[&str]) -> std::path::PathBuf {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    solve_into(variant, &dir, extra);
    dir
}

/// Standard output then standard error, as text.
pub fn output_text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr)
}

/// The rule-set folder of `variant` (default rules) under a database folder.
pub fn rule_dir(db: &std::path::Path, variant: &str) -> std::path::PathBuf {
    db.join(morris::store::rule_set_folder(
        &Variant::by_name(variant).unwrap(),
    ))
}

/// Where a sector file's payload starts (the header's field at offset 288).
pub fn payload_offset(file: &[u8]) -> usize {
    u64::from_le_bytes(file[288..296].try_into().unwrap()) as usize
}

/// The names of every value of every rule switch, in the order flying, removal, phases,
/// full board.
pub const FLYING: &[&str] = &["never", "three", "always"];
pub const REMOVAL: &[&str] = &["standard", "strict", "lenient"];
pub const PHASES: &[&str] = &["separate", "lasker"];
pub const FULL_BOARD: &[&str] = &["loss", "draw"];

/// Every combination of the four switches, as names: 36 of them.
pub fn switch_combinations() -> Vec<[&'static str; 4]> {
    let mut out = Vec::new();
    for f in FLYING {
        for r in REMOVAL {
            for p in PHASES {
                for b in FULL_BOARD {
                    out.push([*f, *r, *p, *b]);
                }
            }
        }
    }
    out
}

/// The overrides that set every switch to the named values.
pub fn overrides(switches: [&str; 4]) -> RuleOverrides {
    RuleOverrides {
        flying: Some(switches[0].parse().unwrap()),
        removal: Some(switches[1].parse().unwrap()),
        phases: Some(switches[2].parse().unwrap()),
        full_board: Some(switches[3].parse().unwrap()),
    }
}

/// A named variant with every switch set by name.
pub fn variant_with(name: &str, switches: [&str; 4]) -> Variant {
    Variant::by_name(name)
        .unwrap()
        .with_overrides(overrides(switches))
}

/// A variant on a board given by its lines, with `pieces` a side and every switch set by name.
pub fn custom_variant(name: &str, lines: &[&str], pieces: u8, switches: [&str; 4]) -> Variant {
    let rules = Rules {
        pieces,
        flying: switches[0].parse().unwrap(),
        removal: switches[1].parse().unwrap(),
        phases: switches[2].parse().unwrap(),
        full_board: switches[3].parse().unwrap(),
        no_move: NoMove::Loss,
    };
    Variant::custom(name, lines, rules).unwrap()
}

/// A short label of a variant's rule set for messages, e.g. `nine[three,standard,lasker,loss]`.
pub fn label(v: &Variant) -> String {
    let r = v.rules();
    format!(
        "{}[{} pieces,{},{},{},{}]",
        v.name(),
        r.pieces,
        r.flying,
        r.removal,
        r.phases,
        r.full_board
    )
}

/// A random valid position of any rule set with its colour to move, spread over what the
/// rules distinguish: random play from the start; random boards with random hands (under
/// lasker phases any hands, so also pieces in hand next to pieces that move or fly); boards
/// as full as the pieces allow (a full board where the pieces can fill it); and sides with
/// three or four pieces (flying, also with pieces in hand).
pub fn random_rules_position(v: &Variant, rng: &mut Rng) -> (Position, Color) {
    let lasker = v.rules().phases == Phases::Lasker;
    let pieces = v.pieces() as u32;
    let all = v.board().all();
    let n = all.len();
    let kind = rng.below(4);
    if kind == 0 {
        return random_position(v, rng);
    }
    let (m, o) = if lasker {
        let hand = |rng: &mut Rng| match rng.below(3) {
            0 => 0,
            1 => 1 + rng.below(2) as u32,
            _ => rng.below(pieces as u64 + 1) as u32,
        };
        (hand(rng), hand(rng))
    } else if rng.below(2) == 0 {
        (0, 0)
    } else {
        let h = 1 + rng.below(pieces as u64) as u32;
        if h < pieces && rng.below(2) == 0 {
            (h + 1, h)
        } else {
            (h, h)
        }
    };
    let (mc, oc) = match kind {
        1 => {
            let mc = (rng.below((pieces - m + 1) as u64) as u32).min(n);
            let oc = (rng.below((pieces - o + 1) as u64) as u32).min(n - mc);
            (mc, oc)
        }
        2 => {
            // As full as it gets, then maybe one or two pieces fewer.
            let mc = (pieces - m).min(n);
            let oc = (pieces - o).min(n - mc);
            let less = rng.below(3) as u32;
            if rng.below(2) == 0 {
                (mc.saturating_sub(less), oc)
            } else {
                (mc, oc.saturating_sub(less))
            }
        }
        _ => {
            let few = |hand: u32, rng: &mut Rng| {
                let target = 2 + rng.below(3) as u32; // 2, 3 or 4 pieces in all
                target.saturating_sub(hand).min(pieces - hand)
            };
            let mc = few(m, rng).min(n);
            let oc = if rng.below(2) == 0 {
                few(o, rng)
            } else {
                rng.below((pieces - o + 1) as u64) as u32
            }
            .min(n - mc);
            (mc, oc)
        }
    };
    let mover = rng.subset(all, mc);
    let opponent = rng.subset(all - mover, oc);
    let pos = Position {
        mover,
        opponent,
        mover_hand: m as u8,
        opponent_hand: o as u8,
    };
    let random_colour = if rng.below(2) == 0 {
        Color::White
    } else {
        Color::Black
    };
    let turn = if lasker {
        random_colour
    } else {
        pos.turn_from_hands(random_colour)
    };
    (pos, turn)
}

/// Whether every point of the board is occupied.
pub fn board_full(v: &Variant, pos: &Position) -> bool {
    (pos.mover | pos.opponent) == v.board().all()
}

/// A fresh folder under the target directory, removed first if present.
pub fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `program args`, feeding `input` from a thread (the answers stream out while the
/// questions stream in, so neither pipe may fill up), and returns standard output.
pub fn pipe(program: &str, args: &[&str], input: String) -> String {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap().unwrap();
    assert!(
        out.status.code().is_some_and(|c| c <= 2),
        "{program} {args:?} crashed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Positions from random play from the start, of lengths 0 to `max_plies`.
pub fn played(v: &Variant, rng: &mut Rng, count: usize, max_plies: u64) -> Vec<String> {
    (0..count)
        .map(|_| {
            let mut pos = Position::start(v);
            let mut turn = Color::White;
            for _ in 0..rng.below(max_plies + 1) {
                let moves = generate(v, &pos);
                if moves.is_empty() {
                    break;
                }
                pos = play(&pos, moves[rng.below(moves.len() as u64) as usize]);
                turn = turn.other();
            }
            pos.to_notation(v, turn)
        })
        .collect()
}

/// Random moving-phase boards with `low..=high` pieces a side and either side to move.
pub fn boards(v: &Variant, rng: &mut Rng, count: usize, low: u64, high: u64) -> Vec<String> {
    let all = v.board().all();
    (0..count)
        .map(|_| {
            let w = low + rng.below(high - low + 1);
            let b = low + rng.below(high - low + 1);
            let mover = rng.subset(all, w as u32);
            let opponent = rng.subset(all - mover, b as u32);
            let pos = Position {
                mover,
                opponent,
                mover_hand: 0,
                opponent_hand: 0,
            };
            let turn = [Color::White, Color::Black][rng.below(2) as usize];
            pos.to_notation(v, turn)
        })
        .collect()
}

/// Asks `morris QUERY_ARGS -` (a `query` without `--json`'s position) and the reader command
/// `reader` (a program and its arguments, one answer line per position: `VALUE DEPTH|-`) about
/// every position; asserts that they agree wherever query answered, and returns how many it
/// answered.
pub fn reader_agrees(query_args: &[&str], reader: &[&str], positions: &[String]) -> usize {
    let input: String = positions.iter().map(|p| format!("{p}\n")).collect();
    let mut args = query_args.to_vec();
    args.push("-");
    let query = pipe(env!("CARGO_BIN_EXE_morris"), &args, input.clone());
    let answers = pipe(reader[0], &reader[1..], input);
    let query: Vec<&str> = query.lines().collect();
    let answers: Vec<&str> = answers.lines().collect();
    assert_eq!(query.len(), positions.len(), "query answers one line each");
    assert_eq!(
        answers.len(),
        positions.len(),
        "the reader answers one line each"
    );
    let mut answered = 0;
    for ((position, q), r) in positions.iter().zip(query).zip(answers) {
        let json: serde_json::Value = serde_json::from_str(q).unwrap();
        if json.get("error").is_some() {
            assert!(
                r.starts_with("error"),
                "{position}: query refused, the reader answered {r}"
            );
            continue;
        }
        answered += 1;
        let depth = json["depth"]
            .as_u64()
            .map_or("-".to_string(), |d| d.to_string());
        let expected = format!("{} {depth}", json["value"].as_str().unwrap());
        assert_eq!(r, expected, "{position}: reader vs query");
    }
    answered
}
