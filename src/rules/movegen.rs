//! Forward move generation and backward generation (un-moves) for the retrograde solver.

use arrayvec::ArrayVec;

use super::board::Board;
use super::mv::Move;
use super::point::PointSet;
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
    let empty = pos.empty(variant);
    let mut emit = Emitter::new(variant, pos);
    if rules.may_place(pos.mover_hand) {
        for to in empty {
            emit.emit(Move::place(to), pos.mover.with(to), &mut f);
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
                emit.emit(Move::shift(from, to), rest.with(to), &mut f);
            }
        }
    }
}

/// Hands the moves of one position to a caller, each with its removals where it closes a
/// mill (generic over the caller, so that its code is inlined, not called through a pointer).
struct Emitter<'a> {
    board: &'a Board,
    removal: Removal,
    opponent: PointSet,
    /// The pieces a mill may take: they depend only on the opponent's pieces, so they are
    /// worked out once, when a mill first closes.
    removals: Option<PointSet>,
}

impl<'a> Emitter<'a> {
    /// The emitter of `pos`'s moves.
    #[inline]
    fn new(variant: &'a Variant, pos: &Position) -> Emitter<'a> {
        Emitter {
            board: variant.board(),
            removal: variant.rules().removal,
            opponent: pos.opponent,
            removals: None,
        }
    }

    /// Hands `mv` (after which the mover holds `mover_after`) to `f`, once per removal when it
    /// closes a mill (once without, when nothing may be taken).
    #[inline]
    fn emit(&mut self, mv: Move, mover_after: PointSet, f: &mut impl FnMut(Move)) {
        if self.board.in_mill(mover_after, mv.to()) {
            let (board, removal, opponent) = (self.board, self.removal, self.opponent);
            let r = *self
                .removals
                .get_or_insert_with(|| removable(board, removal, opponent));
            if r.is_empty() {
                f(mv);
            }
            for p in r {
                f(mv.removing(p));
            }
        } else {
            f(mv);
        }
    }
}

/// The legal moves of a position that close no mill, as [`split_moves`] answers them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpenMoves {
    /// The points where a placement closes no mill (empty when the mover may not place).
    pub placements: PointSet,
    /// How many shifts (slides or flights) close no mill.
    pub shifts: u32,
}

impl OpenMoves {
    /// How many moves close no mill.
    pub fn count(&self) -> u32 {
        self.placements.len() + self.shifts
    }
}

/// The legal moves of `pos` split by whether they close a mill, for a caller that needs the
/// others only counted (or, for placements, their points): calls `closing` with every move
/// that closes a mill (once per piece it may take, or once without a removal when none may
/// be taken) and returns the others. Together they are exactly the moves of
/// [`for_each_move`]; the shifts are counted by population counts (per piece, its empty
/// neighbours) rather than a move at a time.
pub fn split_moves(variant: &Variant, pos: &Position, closing: impl FnMut(Move)) -> OpenMoves {
    if too_few_pieces(pos) || full_board_draw(variant, pos) {
        return OpenMoves::default();
    }
    let board = variant.board();
    let rules = variant.rules();
    let empty = pos.empty(variant);
    let mut emit = Emitter::new(variant, pos);
    let mut closing = closing;
    // The points where one more piece of the mover closes a mill; a move there closes one
    // unless the piece that moves was one of that mill's.
    let targets = board.closing_points(pos.mover) & empty;
    let mut others = OpenMoves::default();
    if rules.may_place(pos.mover_hand) {
        for to in targets {
            emit.emit(Move::place(to), pos.mover.with(to), &mut closing);
        }
        others.placements = empty - targets;
    }
    if rules.may_move(pos.mover_hand) {
        let fly = may_fly(variant, pos);
        let mut all = 0;
        for from in pos.mover {
            all += if fly {
                empty.len()
            } else {
                (board.adjacent(from) & empty).len()
            };
        }
        let mut closed = 0;
        for to in targets {
            let sources = if fly {
                pos.mover
            } else {
                board.adjacent(to) & pos.mover
            };
            for from in sources {
                let after = pos.mover.without(from).with(to);
                if board.in_mill(after, to) {
                    closed += 1;
                    emit.emit(Move::shift(from, to), after, &mut closing);
                }
            }
        }
        others.shifts = all - closed;
    }
    others
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
    let undo = Undoer {
        board,
        removal: rules.removal,
        empty,
        us,
        mover_hand: pos.mover_hand,
        // Could the last mover remove nothing from `us`? Then a mill-closing move removed
        // nothing.
        nothing_removable: removable(board, rules.removal, us).is_empty(),
        can_unremove: unremovals && pos.mover_pieces() < pieces,
    };
    // Un-placements: the last mover held one more piece, and the hands before were possible.
    let hand_before = pos.opponent_hand + 1;
    if rules.may_place(hand_before) && rules.hands_alternate(hand_before, pos.mover_hand) {
        for to in them {
            let closed = board.in_mill(them, to);
            undo.undo(
                them.without(to),
                closed,
                Move::place(to),
                hand_before,
                &mut f,
            );
        }
    }
    // Un-slides and un-flies: the last mover's hand is what it is now, and it could move.
    if rules.may_move(pos.opponent_hand) && rules.hands_alternate(pos.opponent_hand, pos.mover_hand)
    {
        let fly = rules.flies(pos.opponent_pieces());
        for to in them {
            let closed = board.in_mill(them, to);
            let sources = if fly {
                empty
            } else {
                board.adjacent(to) & empty
            };
            let rest = them.without(to);
            for from in sources {
                let mv = Move::shift(from, to);
                undo.undo(rest.with(from), closed, mv, pos.opponent_hand, &mut f);
            }
        }
    }
}

/// Hands the un-moves of one position to a caller, each with its un-removals where the move
/// closed a mill (generic over the caller, so that its code is inlined).
struct Undoer<'a> {
    board: &'a Board,
    removal: Removal,
    empty: PointSet,
    /// The side that may have lost a piece.
    us: PointSet,
    mover_hand: u8,
    nothing_removable: bool,
    can_unremove: bool,
}

impl Undoer<'_> {
    /// Hands the positions before `mv` (whose mover held `before_them` and `before_hand`;
    /// `closed` when its point is now in a mill of the last mover's) to `f`.
    #[inline]
    fn undo(
        &self,
        before_them: PointSet,
        closed: bool,
        mv: Move,
        before_hand: u8,
        f: &mut impl FnMut(Position, Move),
    ) {
        let prev = |us_before: PointSet| Position {
            mover: before_them,
            opponent: us_before,
            mover_hand: before_hand,
            opponent_hand: self.mover_hand,
        };
        if !closed || self.nothing_removable {
            f(prev(self.us), mv);
        }
        if closed && self.can_unremove {
            // The removed piece stood on a point empty now and empty before the move.
            for r in self.empty - before_them {
                let us_before = self.us.with(r);
                if removable(self.board, self.removal, us_before).contains(r) {
                    f(prev(us_before), mv.removing(r));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RuleSwitch;

    /// The moves that close a mill and the count of the others are exactly the moves of
    /// [`for_each_move`], on random positions of every variant under every rule switch.
    #[test]
    fn split_moves_are_the_moves_split_by_mills() {
        let mut r = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move |n: u64| {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            r % n
        };
        let mut compared = 0;
        for name in Variant::names() {
            for flying in crate::rules::Flying::ALL {
                for phases in crate::rules::Phases::ALL {
                    let v = Variant::by_name(name).unwrap().with_overrides(
                        crate::rules::RuleOverrides {
                            flying: Some(*flying),
                            phases: Some(*phases),
                            ..Default::default()
                        },
                    );
                    let n = v.board().len() as u64;
                    let pieces = v.pieces() as u64;
                    for _ in 0..300 {
                        let mut pos = Position::default();
                        for side in 0..2 {
                            let on = next(pieces + 1).min(n / 2);
                            for _ in 0..on {
                                let p = super::super::point::Point::new(next(n) as u8);
                                if !(pos.mover | pos.opponent).contains(p) {
                                    if side == 0 {
                                        pos.mover = pos.mover.with(p);
                                    } else {
                                        pos.opponent = pos.opponent.with(p);
                                    }
                                }
                            }
                        }
                        pos.mover_hand = next(pieces - pos.mover.len() as u64 + 1) as u8;
                        pos.opponent_hand = next(pieces - pos.opponent.len() as u64 + 1) as u8;
                        if pos.check(&v).is_err() {
                            continue;
                        }
                        let mut all: Vec<Move> = generate(&v, &pos).to_vec();
                        let mut closing = Vec::new();
                        let others = split_moves(&v, &pos, |m| closing.push(m));
                        let board = v.board();
                        for m in &closing {
                            let after = play(&pos, *m).opponent;
                            assert!(board.in_mill(after, m.to()), "{name}: {m:?}");
                        }
                        let opened = all
                            .iter()
                            .filter(|m| !board.in_mill(play(&pos, **m).opponent, m.to()))
                            .count();
                        assert_eq!(others.count() as usize, opened, "{name} {pos:?}");
                        let open_placements = all
                            .iter()
                            .filter(|m| m.from().is_none())
                            .filter(|m| !board.in_mill(play(&pos, **m).opponent, m.to()))
                            .fold(PointSet::from_bits(0), |set, m| set.with(m.to()));
                        assert_eq!(others.placements, open_placements, "{name} {pos:?}");
                        all.retain(|m| board.in_mill(play(&pos, *m).opponent, m.to()));
                        all.sort();
                        closing.sort();
                        assert_eq!(all, closing, "{name} {pos:?}");
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 5000, "{compared}");
    }
}
