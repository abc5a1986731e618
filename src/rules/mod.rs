//! The rules of the games: boards, variants, positions, moves and their generation, values.

mod board;
mod movegen;
mod mv;
mod perft;
mod point;
mod position;
mod symmetry;
mod value;
mod variant;

pub use crate::invalid::{clip, CLIP_CHARS};
pub use board::Board;
pub use movegen::{
    for_each_move, for_each_unmove, generate, has_move, play, split_moves, too_few_pieces,
    value_without_moves, MoveList, OpenMoves, MAX_MOVES,
};
pub(crate) use movegen::{for_each_unmove_with, full_board_draw, removable};
pub use mv::Move;
pub use perft::{perft, perft_estimate};
pub use point::{Point, PointIter, PointSet, MAX_POINTS};
pub use position::{Color, Position};
pub use symmetry::Symmetry;
pub use value::{Outcome, Value};
pub use variant::{
    Flying, FullBoard, NoMove, Phases, Removal, RuleOverrides, RuleSwitch, Rules, Switch, Variant,
    SWITCHES,
};
