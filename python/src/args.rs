//! Arguments as the library takes them: text that is valid Unicode and counts that are not
//! negative, each bad one raised as `morris.BadInputError` (or its position and move
//! subclasses) with the command line's kind of message, not as `UnicodeEncodeError` or
//! `OverflowError`.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyString};

use crate::errors::{BadInputError, BadMoveError, BadPositionError};

/// What a text argument is, for the class and the words of its error.
#[derive(Clone, Copy, Debug)]
pub(crate) enum What {
    /// A position in notation: `morris.BadPositionError`.
    Position,
    /// A move in notation: `morris.BadMoveError`.
    Move,
    /// Anything else (a name, a value, a sector): `morris.BadInputError`.
    Other,
}

/// The text of a `str` argument.
///
/// # Errors
/// `TypeError` when `obj` is not a `str`; the error class of `what` when it holds a lone
/// surrogate, which no notation, name or value of morris contains (Rust text is UTF-8).
pub(crate) fn text(obj: &Bound<'_, PyAny>, what: What) -> PyResult<String> {
    let s = obj.cast::<PyString>().map_err(|_| {
        PyTypeError::new_err(format!(
            "expected a str, not {}",
            obj.get_type()
                .name()
                .map_or_else(|_| "another type".to_string(), |n| n.to_string())
        ))
    })?;
    s.to_cow().map(std::borrow::Cow::into_owned).map_err(|_| {
        let message = format!(
            "{} is not valid text: it holds a lone surrogate (no {} does)",
            s.repr()
                .map_or_else(|_| "the text".to_string(), |r| r.to_string()),
            match what {
                What::Position => "position in notation",
                What::Move => "move in notation",
                What::Other => "name, value or sector of morris",
            }
        );
        match what {
            What::Position => BadPositionError::new_err(message),
            What::Move => BadMoveError::new_err(message),
            What::Other => BadInputError::new_err(message),
        }
    })
}

/// A `str` argument other than a position or a move (a name, a rule value, a sector, an
/// option), as [`text`] with [`What::Other`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Text(pub(crate) String);

impl<'a, 'py> FromPyObject<'a, 'py> for Text {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Text> {
        text(&obj, What::Other).map(Text)
    }
}

/// A count argument (`threads`, `max_pieces`, `max_faults`, `seed`): an `int` from 0 to the
/// largest `T`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Count<T>(pub(crate) T);

impl<'a, 'py, T> FromPyObject<'a, 'py> for Count<T>
where
    T: for<'b> FromPyObject<'b, 'py> + Copy + std::fmt::Display + Bounded,
{
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Count<T>> {
        if !obj.is_instance_of::<PyInt>() {
            return Err(PyTypeError::new_err(format!(
                "expected an int, not {}",
                obj.get_type()
                    .name()
                    .map_or_else(|_| "another type".to_string(), |n| n.to_string())
            )));
        }
        match obj.extract::<T>() {
            Ok(v) => Ok(Count(v)),
            Err(_) => Err(BadInputError::new_err(format!(
                "{}: must be an integer from 0 to {}",
                obj.repr()
                    .map_or_else(|_| "the count".to_string(), |r| r.to_string()),
                T::MAX
            ))),
        }
    }
}

/// The largest value of a count's type, for its error message.
pub(crate) trait Bounded {
    /// The largest value.
    const MAX: Self;
}

impl Bounded for u8 {
    const MAX: u8 = u8::MAX;
}

impl Bounded for u32 {
    const MAX: u32 = u32::MAX;
}

impl Bounded for u64 {
    const MAX: u64 = u64::MAX;
}

impl Bounded for usize {
    const MAX: usize = usize::MAX;
}

/// The inner value of an optional count.
pub(crate) fn count<T>(c: Option<Count<T>>) -> Option<T> {
    c.map(|c| c.0)
}

/// The inner text of an optional text.
pub(crate) fn opt_text(t: Option<Text>) -> Option<String> {
    t.map(|t| t.0)
}

/// One folder or several: a path, or a list or tuple of paths (several folders read as one,
/// the first that holds a sector answering for it).
#[derive(Clone, Debug)]
pub(crate) struct Folders(pub(crate) Vec<std::path::PathBuf>);

impl<'a, 'py> FromPyObject<'a, 'py> for Folders {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Folders> {
        let many = obj.is_instance_of::<pyo3::types::PyList>()
            || obj.is_instance_of::<pyo3::types::PyTuple>();
        if !many {
            return Ok(Folders(vec![obj.extract::<Folder>()?.0]));
        }
        let mut roots = Vec::new();
        for item in obj.try_iter()? {
            roots.push(item?.extract::<Folder>()?.0);
        }
        if roots.is_empty() {
            return Err(BadInputError::new_err(
                "no folder was given: the list is empty",
            ));
        }
        Ok(Folders(roots))
    }
}

/// A folder argument (`str` or `os.PathLike`), as the system names files.
#[derive(Clone, Debug)]
pub(crate) struct Folder(pub(crate) std::path::PathBuf);

impl<'a, 'py> FromPyObject<'a, 'py> for Folder {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Folder> {
        match obj.extract::<std::path::PathBuf>() {
            Ok(p) => Ok(Folder(p)),
            // A lone surrogate that the file system's encoding cannot carry: bad input, as
            // the command line calls a path it cannot use.
            Err(e) if e.is_instance_of::<pyo3::exceptions::PyUnicodeError>(obj.py()) => {
                Err(BadInputError::new_err(format!(
                    "{}: not a path this system can name ({e})",
                    obj.repr()
                        .map_or_else(|_| "the path".to_string(), |r| r.to_string())
                )))
            }
            Err(e) => Err(e),
        }
    }
}
