//! The value codec: the one place where a value becomes a stored cell's bytes and back.

use crate::rules::Value;

const UNUSED_1: u8 = 254;
const DRAW_1: u8 = 255;
const UNUSED_2: u16 = 65534;
const DRAW_2: u16 = 65535;

/// The largest depth a cell of each width holds.
pub fn max_depth_for_width(width: u8) -> u32 {
    if width == 1 {
        253
    } else {
        65533
    }
}

/// A cell's content: `None` for an unused slot.
pub type Cell = Option<Value>;

/// Encodes a cell into `out`, whose length is the cell width (1 or 2 bytes).
#[inline]
pub fn encode_cell(cell: Cell, out: &mut [u8]) {
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

/// The code of a cell (as [`Row::code`] reads it) decoded, for a cell of `width` bytes.
#[inline]
pub fn decode_code(code: u16, width: u8) -> Cell {
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
