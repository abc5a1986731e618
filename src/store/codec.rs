//! The value codec: the one place where a value becomes bytes and back.
//!
//! Three encodings of a [`Value`] live here, each for its own use, and nowhere else:
//!
//! - **cells**, the stored form (`docs/format.md`): one byte holds the depth 0..=253 (odd: a
//!   win for the mover, even: a loss), 254 an unused slot, 255 a draw; two bytes (`u16`,
//!   little-endian) hold 0..=65533, 65534 unused, 65535 draw;
//! - **keys**, the order in which a parent prefers its children's values ([`Key`]): the
//!   solver's placement rows and the proof both take the smallest key of a position's
//!   children, and [`Key::parent`] turns it into the position's value;
//! - **proof codes**, the compact values the proof keeps per slot ([`Proved`]).

use crate::rules::Value;

const UNUSED_1: u8 = 254;
const DRAW_1: u8 = 255;
const UNUSED_2: u16 = 65534;
const DRAW_2: u16 = 65535;

/// A cell's content: `None` for an unused slot.
pub type Cell = Option<Value>;

/// The largest depth a cell of each width holds.
pub(super) fn max_depth_for_width(width: u8) -> u32 {
    if width == 1 {
        253
    } else {
        65533
    }
}

/// The narrowest cell width (1 or 2 bytes) that holds depths up to `max_depth`.
pub(crate) fn width_for_depth(max_depth: u32) -> u8 {
    if max_depth <= max_depth_for_width(1) {
        1
    } else {
        2
    }
}

/// Encodes a cell into `out`, whose length is the cell width (1 or 2 bytes).
#[inline]
pub(crate) fn encode_cell(cell: Cell, out: &mut [u8]) {
    if out.len() == 1 {
        out[0] = match cell {
            None => UNUSED_1,
            Some(Value::Draw) => DRAW_1,
            Some(v) => v.depth().unwrap() as u8,
        };
    } else {
        let x = match cell {
            None => UNUSED_2,
            Some(Value::Draw) => DRAW_2,
            Some(v) => v.depth().unwrap() as u16,
        };
        out.copy_from_slice(&x.to_le_bytes());
    }
}

/// The code of a cell (its byte, or its two bytes as a little-endian `u16`) decoded, for a
/// cell of `width` bytes.
#[inline]
pub(super) fn decode_code(code: u16, width: u8) -> Cell {
    let (unused, draw) = if width == 1 {
        (UNUSED_1 as u16, DRAW_1 as u16)
    } else {
        (UNUSED_2, DRAW_2)
    };
    match code {
        c if c == unused => None,
        c if c == draw => Some(Value::Draw),
        d => Some(Value::from_depth(d as u32)),
    }
}

/// A child's value as its parent ranks it, smaller better: a child's loss at depth d is key
/// d, a draw [`Key::DRAW`], a child's win at depth d `Key::WIN + (0xFFFF - d)` (the longest
/// win best), and a child without a stored value [`Key::BAD`] (its bit survives an `|` of
/// keys, so that a pass over children can note it without a branch).
#[derive(Debug)]
pub(crate) struct Key;

impl Key {
    /// A drawn child.
    pub(crate) const DRAW: u32 = 0x1_0000;
    /// The base of a winning child's key.
    pub(crate) const WIN: u32 = 0x2_0000;
    /// A child whose slot holds no value (damage, or an index fault).
    pub(crate) const BAD: u32 = 0x4_0000;

    /// The key of a child's cell.
    #[inline]
    pub(crate) fn of(cell: Cell) -> u32 {
        match cell {
            Some(Value::Loss(d)) => d,
            Some(Value::Draw) => Key::DRAW,
            Some(Value::Win(d)) => Key::WIN + (0xFFFF - d),
            None => Key::BAD,
        }
    }

    /// The value of a position whose best child (with a stored value) has the key `best`.
    #[inline]
    pub(crate) fn parent(best: u32) -> Value {
        if best < Key::DRAW {
            Value::Win(best + 1)
        } else if best == Key::DRAW {
            Value::Draw
        } else {
            Value::Loss(0xFFFF - (best - Key::WIN) + 1)
        }
    }

    /// [`Key::of`] a two-byte cell's code, without a branch: odd depths are wins, even ones
    /// losses, and the two largest codes stand for an unused slot and a draw.
    #[inline]
    pub(crate) fn of_wide(code: u16) -> u32 {
        let d = code as u32;
        let depth_key = if d & 1 == 1 {
            Key::WIN + (0xFFFF - d)
        } else {
            d
        };
        let key = if d == DRAW_2 as u32 {
            Key::DRAW
        } else {
            depth_key
        };
        if d == UNUSED_2 as u32 {
            Key::BAD
        } else {
            key
        }
    }
}

/// How the codes of one file's cells become keys: the one-byte codes by a table of their
/// decoding, the two-byte ones by [`Key::of_wide`].
#[derive(Clone, Debug)]
pub(crate) enum Keys {
    /// One-byte cells: a table.
    Narrow(Box<[u32; 256]>),
    /// Two-byte cells.
    Wide,
}

impl Keys {
    /// The keys of cells of `width` bytes.
    pub(crate) fn of_width(width: u8) -> Keys {
        match width {
            1 => Keys::Narrow(Box::new(std::array::from_fn(|c| {
                Key::of(decode_code(c as u16, 1))
            }))),
            _ => Keys::Wide,
        }
    }

    /// The key of a cell's code.
    #[inline]
    pub(crate) fn key(&self, code: u16) -> u32 {
        match self {
            Keys::Narrow(table) => table[code as usize & 0xFF],
            Keys::Wide => Key::of_wide(code),
        }
    }
}

/// What the children of a slot prove, in 16 bits: not reached yet, a child without a stored
/// value, a draw, a depth beyond what any cell holds, then depth d as d + 4.
#[derive(Debug)]
pub(crate) struct Proved;

impl Proved {
    /// No position led here (yet).
    pub(crate) const UNREACHED: u16 = 0;
    /// A child has no stored value.
    pub(crate) const BROKEN: u16 = 1;
    const DRAW: u16 = 2;
    /// A depth no cell holds (children as deep as the widest cells allow).
    pub(crate) const TOO_DEEP: u16 = 3;
    const DEPTH_BASE: u32 = 4;

    /// The code of a proved value.
    #[inline]
    pub(crate) fn code(value: Value) -> u16 {
        match value {
            Value::Draw => Proved::DRAW,
            Value::Win(d) | Value::Loss(d) => {
                u16::try_from(d + Proved::DEPTH_BASE).unwrap_or(Proved::TOO_DEEP)
            }
        }
    }

    /// The value of a code of [`Proved::code`] (not one of the three marks).
    #[inline]
    pub(crate) fn value(code: u16) -> Value {
        if code == Proved::DRAW {
            Value::Draw
        } else {
            Value::from_depth(code as u32 - Proved::DEPTH_BASE)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two-byte codes become the keys their decoded cells have, every one of them.
    #[test]
    fn wide_keys_are_the_keys_of_decoded_cells() {
        for code in 0..=u16::MAX {
            assert_eq!(
                Key::of_wide(code),
                Key::of(decode_code(code, 2)),
                "code {code}"
            );
        }
    }

    /// Every cell code of both widths survives encoding.
    #[test]
    fn cells_round_trip() {
        for width in [1u8, 2] {
            let top = if width == 1 { 255 } else { u16::MAX };
            for code in 0..=top {
                let cell = decode_code(code, width);
                let mut out = [0u8; 2];
                encode_cell(cell, &mut out[..width as usize]);
                let back = if width == 1 {
                    out[0] as u16
                } else {
                    u16::from_le_bytes(out)
                };
                assert_eq!(back, code, "width {width}");
            }
        }
        assert_eq!(width_for_depth(253), 1);
        assert_eq!(width_for_depth(254), 2);
    }

    /// The best child's key gives the parent's value, and proved values survive their codes.
    #[test]
    fn best_keys_and_codes_of_values() {
        assert_eq!(Key::parent(Key::of(Some(Value::Loss(0)))), Value::Win(1));
        assert_eq!(Key::parent(Key::of(Some(Value::Draw))), Value::Draw);
        assert_eq!(Key::parent(Key::of(Some(Value::Win(5)))), Value::Loss(6));
        // A shallower loss beats a draw, a draw beats every win, a longer win is better.
        assert!(Key::of(Some(Value::Loss(8))) < Key::of(Some(Value::Draw)));
        assert!(Key::of(Some(Value::Draw)) < Key::of(Some(Value::Win(1))));
        assert!(Key::of(Some(Value::Win(9))) < Key::of(Some(Value::Win(3))));
        assert!(Key::of(None) > Key::of(Some(Value::Win(1))));
        for v in [
            Value::Draw,
            Value::Loss(0),
            Value::Win(1),
            Value::Loss(65530),
        ] {
            assert_eq!(Proved::value(Proved::code(v)), v);
        }
        assert_eq!(Proved::code(Value::Loss(65534)), Proved::TOO_DEEP);
    }
}
