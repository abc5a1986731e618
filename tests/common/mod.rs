//! Helpers shared by the integration tests: a small deterministic RNG and random positions.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

use morris::movegen::{generate, play};
use morris::{Color, Flying, PointSet, Position, Removal, Variant};

/// The variants of the seed games plus twelve.
pub const VARIANTS: &[&str] = &[
    "nine",
    "six",
    "six-diag",
    "five",
    "seven",
    "three",
    "three-diag",
    "twelve",
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

/// Standard output then standard error, as text.
pub fn output_text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr)
}

/// The rule-set folder of `variant` (default rules) under a database folder.
pub fn rule_dir(db: &std::path::Path, variant: &str) -> std::path::PathBuf {
    db.join(Variant::by_name(variant).unwrap().rule_set_name())
}

/// Where a sector file's payload starts (the header's field at offset 288).
pub fn payload_offset(file: &[u8]) -> usize {
    u64::from_le_bytes(file[288..296].try_into().unwrap()) as usize
}
