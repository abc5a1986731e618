//! The front door: what every front-end (the command line, the server, Python, C) does with a
//! person's request, so that each of them only converts types. Advice for a typed error (the
//! one place a command line is written), a folder checked and its one rule set found, a move
//! played with its legality check, the worker threads of a run and the roots of a solve.

mod advice;
mod bits;
mod folder;

pub use advice::{command_of, game_options, message, solve_command, whole_game_command};
pub use bits::{bits_of, notation_of_bits, position_of_bits, Bits};
pub use folder::{check_folder, nothing_solved, the_rule_set, the_rule_set_in, NoOneRuleSet};

use crate::error::Error;
use crate::invalid::{clip, InvalidInput};
use crate::rules::{generate, play as play_move, Move, Position, Variant};
use crate::space::{endgame_roots, Reachable, Sector};

/// How a front-end spells an option's name: `--max-pieces` on the command line, `max_pieces`
/// as a Python keyword or a C argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spelling {
    /// `--max-pieces`.
    Flag,
    /// `max_pieces`.
    Keyword,
}

impl Spelling {
    /// `name` (written as a flag's, `max-pieces`) as this front-end spells it.
    pub fn option(self, name: &str) -> String {
        match self {
            Spelling::Flag => format!("--{name}"),
            Spelling::Keyword => name.replace('-', "_"),
        }
    }
}

/// The most worker threads a run starts: far more than any machine's cores, and few enough that
/// starting them cannot exhaust memory.
pub const MAX_THREADS: usize = 1024;

/// The worker threads of a run: `threads` of them, or one per core.
///
/// # Errors
/// `Error::Input` for a count outside 1 to [`MAX_THREADS`], or when the threads cannot start.
pub fn thread_pool(threads: Option<usize>, spelling: Spelling) -> Result<rayon::ThreadPool, Error> {
    if let Some(n) = threads {
        if !(1..=MAX_THREADS).contains(&n) {
            return Err(InvalidInput::Request(format!(
                "{} {n}: worker threads must be at least 1 and at most {MAX_THREADS}",
                spelling.option("threads")
            ))
            .into());
        }
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| InvalidInput::Request(format!("cannot start worker threads: {e}")).into())
}

/// The root sectors of a solve: one sector and what it needs, the endgames up to `max_pieces`
/// a side, or the whole game.
///
/// # Errors
/// `Error::Input` for both at once, a malformed sector or one no game reaches, fewer than 3
/// pieces.
pub fn solve_roots(
    variant: &Variant,
    max_pieces: Option<u8>,
    sector: Option<&str>,
    spelling: Spelling,
) -> Result<Vec<Sector>, Error> {
    match (sector, max_pieces) {
        (Some(_), Some(_)) => Err(InvalidInput::Request(format!(
            "{} and {} exclude each other: give one",
            spelling.option("sector"),
            spelling.option("max-pieces")
        ))
        .into()),
        (Some(text), None) => {
            let s: Sector = text.parse()?;
            Reachable::new(variant).check_sector(s)?;
            Ok(vec![s])
        }
        (None, Some(k)) if k < 3 => Err(InvalidInput::Request(format!(
            "{} {k}: a side needs at least 3 pieces to play",
            spelling.option("max-pieces")
        ))
        .into()),
        (None, Some(k)) => Ok(endgame_roots(variant, k)),
        (None, None) => Ok(vec![Sector::start(variant)]),
    }
}

/// The position after the move `text` in `pos`, refused unless the move is legal there.
///
/// # Errors
/// As [`legal_move`].
pub fn play(
    variant: &Variant,
    pos: &Position,
    turn: crate::rules::Color,
    text: &str,
) -> Result<Position, InvalidInput> {
    legal_move(variant, pos, turn, text).map(|mv| play_move(pos, mv))
}

/// The move `text` of `pos`, refused unless it is legal there.
///
/// # Errors
/// `InvalidInput::Move` for a malformed move or one not legal in `pos` (the message names the
/// position, as `turn` is to move in it, and its legal moves).
pub fn legal_move(
    variant: &Variant,
    pos: &Position,
    turn: crate::rules::Color,
    text: &str,
) -> Result<Move, InvalidInput> {
    let text = text.trim();
    let board = variant.board();
    let mv = Move::parse(board, text)?;
    if generate(variant, pos).contains(&mv) {
        return Ok(mv);
    }
    Err(InvalidInput::Move {
        input: clip(text),
        why: format!(
            "not a legal move in {} (legal: {})",
            pos.to_notation(variant, turn),
            legal_moves(variant, pos)
        ),
    })
}

/// The legal moves of `pos` in notation order, as a refusal lists them: clipped, or "none,
/// the game is over".
pub fn legal_moves(variant: &Variant, pos: &Position) -> String {
    let board = variant.board();
    let mut names: Vec<String> = generate(variant, pos)
        .iter()
        .map(|m| m.to_notation(board))
        .collect();
    names.sort();
    match names.join(" ") {
        s if s.is_empty() => String::from("none, the game is over"),
        s => clip(&s),
    }
}
