//! From C's arguments to the library's types and back: strings, paths, the rule switches,
//! bitboards, values and moves.

use std::ffi::{c_char, c_int, CStr};
use std::path::PathBuf;

use morris_lib::rules::{clip, RuleOverrides, SWITCHES};
use morris_lib::{front, Color, Move, Value, Variant};

use crate::guard::Failure;
use crate::{morris_move, morris_value, MORRIS_DRAW, MORRIS_LOSS, MORRIS_MOVE_TEXT, MORRIS_WIN};

/// The bytes of a C string argument named `what`.
///
/// # Safety
/// `ptr` is NULL or a NUL-terminated string that outlives the call.
unsafe fn bytes<'a>(ptr: *const c_char, what: &str) -> Result<&'a [u8], Failure> {
    if ptr.is_null() {
        return Err(Failure::bad(format!("{what} is NULL")));
    }
    // SAFETY: the caller's promise.
    Ok(unsafe { CStr::from_ptr(ptr) }.to_bytes())
}

/// A C string argument named `what` as UTF-8.
///
/// # Safety
/// As [`bytes`].
pub(crate) unsafe fn text<'a>(ptr: *const c_char, what: &str) -> Result<&'a str, Failure> {
    // SAFETY: the caller's promise.
    let bytes = unsafe { bytes(ptr, what) }?;
    std::str::from_utf8(bytes).map_err(|e| Failure::bad(format!("{what} is not UTF-8: {e}")))
}

/// An optional C string argument: `None` for NULL.
///
/// # Safety
/// As [`bytes`].
pub(crate) unsafe fn optional_text<'a>(
    ptr: *const c_char,
    what: &str,
) -> Result<Option<&'a str>, Failure> {
    if ptr.is_null() {
        return Ok(None);
    }
    // SAFETY: the caller's promise.
    unsafe { text(ptr, what) }.map(Some)
}

/// A path argument: any bytes on Unix, UTF-8 elsewhere.
///
/// # Safety
/// As [`bytes`].
pub(crate) unsafe fn path(ptr: *const c_char, what: &str) -> Result<PathBuf, Failure> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        // SAFETY: the caller's promise.
        let bytes = unsafe { bytes(ptr, what) }?;
        Ok(PathBuf::from(std::ffi::OsStr::from_bytes(bytes)))
    }
    #[cfg(not(unix))]
    {
        // SAFETY: the caller's promise.
        Ok(PathBuf::from(unsafe { text(ptr, what) }?))
    }
}

/// The variant `name` under the rule switches `rules` (as [`overrides`] reads them).
pub(crate) fn variant(name: &str, rules: Option<&str>) -> Result<Variant, Failure> {
    Ok(Variant::by_name(name)?.with_overrides(overrides(rules)?))
}

/// The rule switches `rules`: `NAME=VALUE` pairs separated by commas, e.g.
/// `removal=strict,flying=always`, with the command line's names (`flying`, `removal`,
/// `phases`, `full-board`).
pub(crate) fn overrides(rules: Option<&str>) -> Result<RuleOverrides, Failure> {
    let mut given: Vec<(&str, &str)> = Vec::new();
    for pair in rules.unwrap_or("").split(',').map(str::trim) {
        if pair.is_empty() {
            continue;
        }
        let known = || {
            SWITCHES
                .iter()
                .map(|s| s.name)
                .collect::<Vec<_>>()
                .join(", ")
        };
        let Some((name, value)) = pair.split_once('=') else {
            return Err(Failure::bad(format!(
                "rule {:?}: expected NAME=VALUE with NAME one of {}",
                clip(pair),
                known()
            )));
        };
        let (name, value) = (name.trim(), value.trim());
        if !SWITCHES.iter().any(|s| s.name == name) {
            return Err(Failure::bad(format!(
                "unknown rule switch {:?} (known: {})",
                clip(name),
                known()
            )));
        }
        if given.iter().any(|(n, _)| *n == name) {
            return Err(Failure::bad(format!("rule switch {name:?} given twice")));
        }
        given.push((name, value));
    }
    Ok(RuleOverrides::from_names(|name| {
        given.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    })?)
}

/// The position of bitboards in notation, `ROWS TURN WHITE_HAND BLACK_HAND`
/// ([`front::notation_of_bits`]); the notation's parser checks the rest.
pub(crate) fn notation(
    variant: &Variant,
    white: u32,
    black: u32,
    hands: (u8, u8),
    side_to_move: c_int,
) -> Result<String, Failure> {
    let bits = front::Bits {
        white,
        black,
        white_hand: hands.0,
        black_hand: hands.1,
    };
    // The bits are checked first, then the side to move.
    let turn = if side_to_move == 1 {
        Color::Black
    } else {
        Color::White
    };
    let text = front::notation_of_bits(variant, bits, turn).map_err(morris_lib::Error::from)?;
    match side_to_move {
        0 | 1 => Ok(text),
        s => Err(Failure::bad(format!(
            "side to move must be 0 (White) or 1 (Black), found {s}"
        ))),
    }
}

/// A value as C sees it.
pub(crate) fn value(v: Value) -> morris_value {
    let depth = |d: u32| i32::try_from(d).unwrap_or(i32::MAX);
    match v {
        Value::Win(d) => morris_value {
            value: MORRIS_WIN,
            depth: depth(d),
        },
        Value::Loss(d) => morris_value {
            value: MORRIS_LOSS,
            depth: depth(d),
        },
        Value::Draw => morris_value {
            value: MORRIS_DRAW,
            depth: -1,
        },
    }
}

/// A move and its value as C sees them.
pub(crate) fn move_entry(variant: &Variant, mv: Move, v: Value) -> Result<morris_move, Failure> {
    let notation = mv.to_notation(variant.board());
    let mut text = [0 as c_char; MORRIS_MOVE_TEXT];
    if notation.len() >= MORRIS_MOVE_TEXT {
        return Err(Failure::new(
            crate::MORRIS_DAMAGED,
            format!("move {notation:?} is longer than morris_move.text holds"),
        ));
    }
    for (slot, byte) in text.iter_mut().zip(notation.bytes()) {
        *slot = byte as c_char;
    }
    let point = |p: Option<morris_lib::Point>| p.map_or(-1, |p| p.index() as i32);
    let value = value(v);
    Ok(morris_move {
        text,
        value: value.value,
        depth: value.depth,
        from: point(mv.from()),
        to: point(Some(mv.to())),
        removed: point(mv.removed()),
    })
}

/// Copies `text` and a NUL into the caller's buffer `buf` of `len` bytes.
///
/// # Errors
/// `MORRIS_BUFFER` when it does not fit (then `buf`, if it has room, holds the empty string);
/// `MORRIS_BAD_INPUT` for a NULL buffer of non-zero length.
///
/// # Safety
/// `buf` is NULL or points to `len` writable bytes.
pub(crate) unsafe fn write_text(
    what: &str,
    text: &str,
    buf: *mut c_char,
    len: usize,
) -> Result<(), Failure> {
    if buf.is_null() && len > 0 {
        return Err(Failure::bad(format!("the buffer for {what} is NULL")));
    }
    if text.len() >= len {
        if len > 0 {
            // SAFETY: buf holds at least one byte.
            unsafe { *buf = 0 };
        }
        return Err(Failure::buffer(what, text.len() + 1, len));
    }
    // SAFETY: buf holds len > text.len() bytes; the regions cannot overlap (text is ours).
    unsafe {
        std::ptr::copy_nonoverlapping(text.as_ptr().cast::<c_char>(), buf, text.len());
        *buf.add(text.len()) = 0;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_are_name_value_pairs() {
        let v = variant("six", Some(" removal=strict , flying=always,")).unwrap();
        let r = v.rules();
        assert_eq!(
            (r.removal.to_string(), r.flying.to_string()),
            ("strict".into(), "always".into())
        );
        assert_eq!(
            variant("nine", None).unwrap().rules(),
            Variant::by_name("nine").unwrap().rules()
        );
        for bad in [
            "flying",
            "speed=3",
            "flying=sometimes",
            "flying=never,flying=three",
        ] {
            let e = variant("six", Some(bad)).unwrap_err();
            assert_eq!(e.code, crate::MORRIS_BAD_INPUT, "{bad}: {}", e.message);
        }
        assert!(variant("ten", None)
            .unwrap_err()
            .message
            .contains("unknown variant"));
    }

    #[test]
    fn bits_follow_the_notation_order() {
        let six = Variant::by_name("six").unwrap();
        // Points 0 (a5) and 15 (e1) White, 6 (a3) Black.
        let text = notation(&six, 1 | 1 << 15, 1 << 6, (4, 5), 1).unwrap();
        assert_eq!(text, "W../.../B.../.../..W b 4 5");
        assert!(notation(&six, 1 << 16, 0, (0, 0), 0)
            .unwrap_err()
            .message
            .contains("bit 16"));
        assert!(notation(&six, 1, 1, (0, 0), 0)
            .unwrap_err()
            .message
            .contains("a5"));
        assert!(notation(&six, 0, 0, (0, 0), 2).is_err());
    }

    #[test]
    fn text_that_does_not_fit_is_refused() {
        let mut buf = [1 as c_char; 4];
        // SAFETY: buf has 4 bytes.
        let e = unsafe { write_text("the move", "a1-a4", buf.as_mut_ptr(), 4) }.unwrap_err();
        assert_eq!(e.code, crate::MORRIS_BUFFER);
        assert_eq!(buf[0], 0);
        // SAFETY: as above.
        unsafe { write_text("the move", "a1-", buf.as_mut_ptr(), 4) }.unwrap();
        assert_eq!(buf, [b'a' as c_char, b'1' as c_char, b'-' as c_char, 0]);
    }
}
