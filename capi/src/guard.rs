//! The boundary: every entry point's body runs under [`guard`], which catches panics, turns
//! failures into a status code and records the message (and the advice, apart) as the calling
//! thread's last error.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::ffi::{c_char, c_int, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

use morris_lib::{Error, InvalidInput};

use crate::{MORRIS_BAD_INPUT, MORRIS_BUFFER, MORRIS_DAMAGED, MORRIS_IO, MORRIS_MISSING};
use crate::{MORRIS_NO_DISTANCE, MORRIS_OK, MORRIS_PANIC};

thread_local! {
    /// The message of this thread's last call: empty after a success.
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
    /// The advice of this thread's last call: the `morris` command that fills what was
    /// missing, or empty.
    static LAST_ADVICE: RefCell<CString> = RefCell::new(CString::default());
    /// The status code of this thread's last call.
    static LAST_STATUS: Cell<c_int> = const { Cell::new(MORRIS_OK) };
}

/// What a call hands back when it fails: the status code, the message for the app's user,
/// and the advice for its developer (the `morris` command that fills what is missing).
#[derive(Debug)]
pub(crate) struct Failure {
    pub(crate) code: c_int,
    pub(crate) message: String,
    pub(crate) advice: String,
}

impl Failure {
    /// `MORRIS_MISSING` for a folder that holds nothing to answer from: the front door's
    /// `message` without the `command` it ends with, which becomes the advice.
    pub(crate) fn missing(message: &str, command: String) -> Failure {
        let message = message
            .strip_suffix(&format!("; run `{command}`"))
            .unwrap_or(message);
        Failure {
            code: MORRIS_MISSING,
            message: message.to_string(),
            advice: command,
        }
    }

    /// A failure with `code`.
    pub(crate) fn new(code: c_int, message: impl Into<String>) -> Failure {
        Failure {
            code,
            message: message.into(),
            advice: String::new(),
        }
    }

    /// Bad input (arguments, a position, a folder): `MORRIS_BAD_INPUT`.
    pub(crate) fn bad(message: impl Into<String>) -> Failure {
        Failure::new(MORRIS_BAD_INPUT, message)
    }

    /// A buffer too small for `needed` bytes: `MORRIS_BUFFER`.
    pub(crate) fn buffer(what: &str, needed: usize, len: usize) -> Failure {
        Failure::new(
            MORRIS_BUFFER,
            format!("{what} needs {needed} bytes with its terminating NUL, the buffer holds {len}"),
        )
    }
}

impl From<Error> for Failure {
    /// The library's error as the command line words it, with its kind's code; the `morris`
    /// command that fills in a missing sector is the advice, apart from the message, which an
    /// app may show its user.
    fn from(e: Error) -> Failure {
        let code = match &e {
            Error::Input(_) | Error::BadFolder { .. } => MORRIS_BAD_INPUT,
            Error::Missing(_) => MORRIS_MISSING,
            Error::NoDistance { .. } => MORRIS_NO_DISTANCE,
            Error::Io { .. } | Error::Memory { .. } => MORRIS_IO,
            // Damaged, foreign or old-format files, and anything else: the data cannot be used.
            _ => MORRIS_DAMAGED,
        };
        Failure {
            code,
            message: e.to_string(),
            advice: morris_lib::front::command_of(&e).unwrap_or_default(),
        }
    }
}

impl From<InvalidInput> for Failure {
    fn from(e: InvalidInput) -> Failure {
        Failure::from(Error::from(e))
    }
}

/// Runs `body`, catching any panic, and records the outcome as this thread's last error:
/// empty on success, the message on failure.
///
/// # Errors
/// The failure's code: the body's, or `MORRIS_PANIC` for a panic.
pub(crate) fn guard<T>(body: impl FnOnce() -> Result<T, Failure>) -> Result<T, c_int> {
    let (result, message, advice) = match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(value)) => (Ok(value), String::new(), String::new()),
        Ok(Err(failure)) => (Err(failure.code), failure.message, failure.advice),
        Err(payload) => {
            let message = format!(
                "internal error: a panic was caught at the C boundary: {}",
                panic_message(&*payload)
            );
            // Dropping a payload runs foreign code: it must not unwind either.
            let _ = catch_unwind(AssertUnwindSafe(move || drop(payload)));
            (Err(MORRIS_PANIC), message, String::new())
        }
    };
    set_last(&LAST_ERROR, message);
    set_last(&LAST_ADVICE, advice);
    let code = match &result {
        Ok(_) => MORRIS_OK,
        Err(code) => *code,
    };
    let _ = LAST_STATUS.try_with(|slot| slot.set(code));
    result
}

/// A status code from a body that returns nothing.
pub(crate) fn status(body: impl FnOnce() -> Result<(), Failure>) -> c_int {
    match guard(body) {
        Ok(()) => MORRIS_OK,
        Err(code) => code,
    }
}

/// The text of a panic's payload.
fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".to_string()
    }
}

/// Records `message` as this thread's last error or advice (NUL bytes would cut it: they
/// become `?`).
fn set_last(last: &'static std::thread::LocalKey<RefCell<CString>>, message: String) {
    let message = CString::new(message.replace('\0', "?")).unwrap_or_default();
    // During the thread's teardown the slot may be gone: nothing to record then.
    let _ = last.try_with(|slot| {
        if let Ok(mut slot) = slot.try_borrow_mut() {
            *slot = message;
        }
    });
}

/// The status code of this thread's last call.
pub(crate) fn last_status() -> c_int {
    LAST_STATUS.try_with(Cell::get).unwrap_or(MORRIS_OK)
}

/// The message and the advice of this thread's last call, as text (empty after a success).
pub(crate) fn last_message() -> (String, String) {
    let text = |last: &'static std::thread::LocalKey<RefCell<CString>>| {
        last.try_with(|slot| {
            slot.try_borrow()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default()
        })
        .unwrap_or_default()
    };
    (text(&LAST_ERROR), text(&LAST_ADVICE))
}

/// This thread's last error, valid until its next call into the library.
pub(crate) fn last_error() -> *const c_char {
    last_pointer(&LAST_ERROR)
}

/// This thread's last advice, valid until its next call into the library.
pub(crate) fn last_advice() -> *const c_char {
    last_pointer(&LAST_ADVICE)
}

/// A pointer to the text of `last`, or to an empty string.
fn last_pointer(last: &'static std::thread::LocalKey<RefCell<CString>>) -> *const c_char {
    static EMPTY: &CStr = c"";
    let ptr = catch_unwind(|| {
        last.try_with(|slot| slot.try_borrow().map(|s| s.as_ptr()).ok())
            .ok()
            .flatten()
    });
    match ptr {
        Ok(Some(p)) => p,
        _ => EMPTY.as_ptr(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    fn last() -> String {
        // SAFETY: last_error returns a valid NUL-terminated string.
        unsafe { CStr::from_ptr(last_error()) }
            .to_string_lossy()
            .into_owned()
    }

    #[test]
    fn a_panic_becomes_a_code_and_a_message() {
        let code = status(|| panic!("boom {}", 7));
        assert_eq!(code, MORRIS_PANIC);
        assert_eq!(last_status(), MORRIS_PANIC);
        assert!(last().contains("boom 7"), "{}", last());
        assert_eq!(status(|| Ok(())), MORRIS_OK);
        assert_eq!(last_status(), MORRIS_OK);
        assert_eq!(last(), "");
    }

    #[test]
    fn failures_keep_their_code_and_message() {
        let code = status(|| Err(Failure::bad("no\0pe")));
        assert_eq!(code, MORRIS_BAD_INPUT);
        assert_eq!(last(), "no?pe");
    }

    #[test]
    fn the_last_error_is_per_thread() {
        assert_eq!(status(|| Err(Failure::bad("main"))), MORRIS_BAD_INPUT);
        std::thread::spawn(|| {
            assert_eq!(last(), "");
            assert_eq!(status(|| Err(Failure::bad("other"))), MORRIS_BAD_INPUT);
            assert_eq!(last(), "other");
        })
        .join()
        .unwrap();
        assert_eq!(last(), "main");
    }
}
