//! Forward move generation and backward generation (un-moves) for the retrograde solver.

use arrayvec::ArrayVec;

use super::board::Board;
use super::mv::Move;
use super::point::{Point, PointSet};
use super::position::Position;
use super::value::Value;
use super::variant::{FullBoard, NoMove, Removal, Variant};

/// Room for every move of any position of a 32-point board with 12 pieces a side.
pub const MAX_MOVES: usize = 1024;

/// A list of moves on the stack: generating moves never allocates.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// The opponent pieces a mill may remove, under the variant's removal policy.
#[inline]
pub(crate) fn removable(board: &Board, removal: Removal, opponent: PointSet) -> PointSet {
    let in_mills = board.mill_points(opponent);
    let free = opponent - in_mills;
    match removal {
        Removal::Strict => free,
        Removal::Standard if free.is_empty() => opponent,
        Removal::Standard => free,
        Removal::Lenient => opponent,
    }
}

/// Whether the mover has lost before moving: fewer than three pieces on board and in hand.
#[inline]
pub fn too_few_pieces(pos: &Position) -> bool {
    pos.mover_pieces() < 3
}

/// Whether the mover may fly this turn (when it moves a piece rather than placing one).
#[inline]
pub(super) fn may_fly(variant: &Variant, pos: &Position) -> bool {
    variant.rules().flies(pos.mover_pieces())
}

/// Whether the board is full and the rules make that a draw: the position is then over,
/// drawn, with no moves.
#[inline]
pub(crate) fn full_board_draw(variant: &Variant, pos: &Position) -> bool {
    variant.rules().full_board == FullBoard::Draw && pos.empty(variant).is_empty()
}

/// The value of a position without legal moves (after [`too_few_pieces`], a blocked side
/// or a full board): a loss at depth 0, or a draw for a full board where the rules say so.
#[inline]
pub fn value_without_moves(variant: &Variant, pos: &Position) -> Value {
    if !too_few_pieces(pos) && full_board_draw(variant, pos) {
        Value::Draw
    } else {
        match variant.rules().no_move {
            NoMove::Loss => Value::Loss(0),
        }
    }
}

/// Calls `f` with every legal move of `pos`; none when the position is finished.
#[inline]
pub fn for_each_move(variant: &Variant, pos: &Position, mut f: impl FnMut(Move)) {
    if too_few_pieces(pos) || full_board_draw(variant, pos) {
        return;
    }
    let board = variant.board();
    let rules = variant.rules();
    let removal = rules.removal;
    let empty = pos.empty(variant);
    // Removals depend only on the opponent's pieces, so compute them once, lazily.
    let mut removals: Option<PointSet> = None;
    let mut emit = |mv: Move, mover_after: PointSet, f: &mut dyn FnMut(Move)| {
        if board.in_mill(mover_after, mv.to()) {
            let r = *removals.get_or_insert_with(|| removable(board, removal, pos.opponent));
            if r.is_empty() {
                f(mv);
            }
            for p in r {
                f(mv.removing(p));
            }
        } else {
            f(mv);
        }
    };
    if rules.may_place(pos.mover_hand) {
        for to in empty {
            emit(Move::place(to), pos.mover.with(to), &mut f);
        }
    }
    if rules.may_move(pos.mover_hand) {
        let fly = may_fly(variant, pos);
        for from in pos.mover {
            let targets = if fly {
                empty
            } else {
                board.adjacent(from) & empty
            };
            let rest = pos.mover.without(from);
            for to in targets {
                emit(Move::shift(from, to), rest.with(to), &mut f);
            }
        }
    }
}

/// Every legal move of `pos`, in generation order.
#[must_use]
pub fn generate(variant: &Variant, pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    for_each_move(variant, pos, |m| list.push(m));
    list
}

/// Whether the mover has at least one legal move.
pub fn has_move(variant: &Variant, pos: &Position) -> bool {
    if too_few_pieces(pos) || full_board_draw(variant, pos) {
        return false;
    }
    let rules = variant.rules();
    if rules.may_place(pos.mover_hand) || (rules.may_move(pos.mover_hand) && may_fly(variant, pos))
    {
        return !pos.empty(variant).is_empty();
    }
    let empty = pos.empty(variant);
    pos.mover
        .iter()
        .any(|p| !(variant.board().adjacent(p) & empty).is_empty())
}

/// The position after `mv`, seen from the new mover. `mv` must be legal in `pos`.
#[inline]
#[must_use]
pub fn play(pos: &Position, mv: Move) -> Position {
    let mut mover = pos.mover.with(mv.to());
    let mut hand = pos.mover_hand;
    match mv.from() {
        Some(from) => mover = mover.without(from),
        None => hand -= 1,
    }
    let opponent = match mv.removed() {
        Some(r) => pos.opponent.without(r),
        None => pos.opponent,
    };
    Position {
        mover: opponent,
        opponent: mover,
        mover_hand: pos.opponent_hand,
        opponent_hand: hand,
    }
}

/// Calls `f(previous, mv)` for every position `previous` and legal move `mv` with
/// `play(previous, mv) == *pos`: un-placements, un-slides and un-flies, each with or without
/// an un-removal. `pos` must pass [`Position::check`]; every `previous` does too.
pub fn for_each_unmove(variant: &Variant, pos: &Position, f: impl FnMut(Position, Move)) {
    for_each_unmove_with(variant, pos, true, f)
}

/// [`for_each_unmove`], with the un-removals (predecessors where the last move took one of
/// the mover's pieces) only when `unremovals`: a caller that knows they all lie in sectors
/// it does not want skips their generation, the costliest part.
pub(crate) fn for_each_unmove_with(
    variant: &Variant,
    pos: &Position,
    unremovals: bool,
    mut f: impl FnMut(Position, Move),
) {
    let board = variant.board();
    let rules = variant.rules();
    let pieces = rules.pieces as u32;
    // The opponent made the last move; it must have had a move, so at least three pieces.
    if pos.opponent_pieces() < 3 {
        return;
    }
    let empty = pos.empty(variant);
    let them = pos.opponent; // the side that moved last, after its move
    let us = pos.mover; // the side that may have lost a piece
                        // Could the last mover remove nothing from `us`? Then a mill-closing move removed nothing.
    let nothing_removable = removable(board, rules.removal, us).is_empty();
    let can_unremove = unremovals && pos.mover_pieces() < pieces;
    let undo = |before_them: PointSet,
                to: Point,
                mv: Move,
                before_hand: u8,
                f: &mut dyn FnMut(Position, Move)| {
        let prev = |us_before: PointSet| Position {
            mover: before_them,
            opponent: us_before,
            mover_hand: before_hand,
            opponent_hand: pos.mover_hand,
        };
        if !board.in_mill(them, to) || nothing_removable {
            f(prev(us), mv);
        }
        if board.in_mill(them, to) && can_unremove {
            // The removed piece stood on a point empty now and empty before the move.
            for r in empty - before_them {
                let us_before = us.with(r);
                if removable(board, rules.removal, us_before).contains(r) {
                    f(prev(us_before), mv.removing(r));
                }
            }
        }
    };
    // Un-placements: the last mover held one more piece, and the hands before were possible.
    let hand_before = pos.opponent_hand + 1;
    if rules.may_place(hand_before) && rules.hands_alternate(hand_before, pos.mover_hand) {
        for to in them {
            undo(them.without(to), to, Move::place(to), hand_before, &mut f);
        }
    }
    // Un-slides and un-flies: the last mover's hand is what it is now, and it could move.
    if rules.may_move(pos.opponent_hand) && rules.hands_alternate(pos.opponent_hand, pos.mover_hand)
    {
        let fly = rules.flies(pos.opponent_pieces());
        for to in them {
            let sources = if fly {
                empty
            } else {
                board.adjacent(to) & empty
            };
            for from in sources {
                undo(
                    them.without(to).with(from),
                    to,
                    Move::shift(from, to),
                    pos.opponent_hand,
                    &mut f,
                );
            }
        }
    }
}
