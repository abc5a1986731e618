//! Errors: the library's typed errors turned into Python exceptions with the command line's
//! messages (and its advice: the `morris solve` or `morris tables` that fills a gap), and every
//! panic caught before it reaches Python.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use morris::{Database, InvalidInput};
use pyo3::create_exception;
use pyo3::exceptions::{PyBaseException, PyException, PyKeyError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};

create_exception!(
    morris,
    Error,
    PyException,
    "Everything morris raises: the base class of its errors."
);
create_exception!(
    morris,
    BadInputError,
    Error,
    "What was given is not valid: a variant, a rule value, a sector, a folder, an option."
);
create_exception!(
    morris,
    BadPositionError,
    BadInputError,
    "A position that is malformed, or that no game from the start reaches."
);
create_exception!(
    morris,
    BadMoveError,
    BadInputError,
    "A move that is malformed, or not legal in the position."
);
/// The doc of `morris.MissingSectorError`.
const MISSING_DOC: &str = "A sector needed to answer is not solved (or has no tables); the \
message names the `morris solve` (or `morris tables`) command that fills it, also in the \
attribute `command`. A subclass of `morris.Error` and of `KeyError`, as chess.syzygy's \
MissingTableError is, so that `Database.get` and a caller's `except KeyError` treat a position \
the tables do not cover as a key not found.";

/// `morris.MissingSectorError`, made once: `create_exception!` gives a class one base, and
/// this one has two. Its `str()` is the message, as every morris error's (KeyError's would
/// quote it).
static MISSING_SECTOR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// The class `morris.MissingSectorError`.
pub(crate) fn missing_sector_error(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    let class = MISSING_SECTOR.get_or_try_init(py, || -> PyResult<Py<PyType>> {
        let builtins = py.import("builtins")?;
        let bases = PyTuple::new(
            py,
            [
                py.get_type::<Error>().into_any(),
                py.get_type::<PyKeyError>().into_any(),
            ],
        )?;
        let dict = PyDict::new(py);
        dict.set_item("__module__", "morris")?;
        dict.set_item("__doc__", MISSING_DOC)?;
        dict.set_item(
            "__str__",
            py.get_type::<PyBaseException>().getattr("__str__")?,
        )?;
        let class = builtins
            .getattr("type")?
            .call1(("MissingSectorError", bases, dict))?;
        Ok(class.cast_into::<PyType>()?.unbind())
    })?;
    Ok(class.bind(py))
}

/// A `morris.MissingSectorError` with `message`.
fn missing_sector(py: Python<'_>, message: String) -> PyErr {
    match missing_sector_error(py) {
        Ok(class) => PyErr::from_type(class.clone(), message),
        Err(e) => e,
    }
}
create_exception!(
    morris,
    DamagedFileError,
    Error,
    "A database or table file is damaged (a checksum fails, it is truncated, ...); the file is \
     in the attribute `path`."
);
create_exception!(
    morris,
    NoDistanceError,
    Error,
    "A win's or a loss's depth was asked of tables held without their depth files (built with \
     `morris tables --wdl-only`): the value is known (`Database.outcome`, `Database.analysis`), \
     its depth is not, and none is guessed; the sector is in the attribute `sector`."
);

/// Why a call failed, on its way to becoming a Python exception.
#[derive(Debug)]
pub(crate) enum Fail {
    /// The library's error.
    Lib(morris::Error),
    /// Bad input the binding itself found (a folder that is a file, options that exclude
    /// each other).
    BadInput(String),
    /// A position the binding refused in words of its own: bitboards with a bit off the board
    /// or a point on both sides.
    BadPosition(String),
    /// A folder without a single sector of the rule set, and the command that solves some.
    NothingSolved {
        /// The message, as the command line's.
        message: String,
        /// The command.
        command: String,
    },
    /// A panic: a bug, reported instead of crashing the interpreter.
    Panic(String),
    /// An exception raised by Python code the call ran (a progress callback), or an
    /// interruption (KeyboardInterrupt).
    Python(PyErr),
    /// The work was stopped on Python's request (`morris::Error::Cancelled`, or a proof
    /// reported cancelled); the caller knows why.
    Cancelled,
}

impl From<morris::Error> for Fail {
    fn from(e: morris::Error) -> Fail {
        match e {
            morris::Error::Cancelled => Fail::Cancelled,
            e => Fail::Lib(e),
        }
    }
}

impl From<InvalidInput> for Fail {
    fn from(e: InvalidInput) -> Fail {
        Fail::Lib(morris::Error::from(e))
    }
}

impl From<PyErr> for Fail {
    fn from(e: PyErr) -> Fail {
        Fail::Python(e)
    }
}

impl Fail {
    /// The Python exception, its message prefixed with `prefix` when given (a batch says
    /// which item failed).
    pub(crate) fn into_py(self, py: Python<'_>, prefix: Option<&str>) -> PyErr {
        let text = |message: String| match prefix {
            Some(p) => format!("{p}{message}"),
            None => message,
        };
        match self {
            Fail::Lib(e) => library_error(py, &e, text(message(&e))),
            Fail::BadInput(m) => BadInputError::new_err(text(m)),
            Fail::BadPosition(m) => BadPositionError::new_err(text(m)),
            Fail::NothingSolved { message, command } => {
                let err = missing_sector(py, text(message));
                set(py, &err, "sector", None::<String>);
                set(py, &err, "command", command);
                err
            }
            Fail::Panic(m) => Error::new_err(text(format!(
                "internal error (a bug in morris, please report it): {m}"
            ))),
            Fail::Python(e) => e,
            Fail::Cancelled => Error::new_err(text(String::from("cancelled"))),
        }
    }
}

/// The exception class of a library error, with its attributes.
fn library_error(py: Python<'_>, e: &morris::Error, message: String) -> PyErr {
    match e {
        morris::Error::Input(InvalidInput::Position { .. }) => BadPositionError::new_err(message),
        morris::Error::Input(InvalidInput::Move { .. }) => BadMoveError::new_err(message),
        morris::Error::Input(_) | morris::Error::BadFolder { .. } => {
            BadInputError::new_err(message)
        }
        morris::Error::Missing(m) => {
            let err = missing_sector(py, message);
            set(py, &err, "sector", Some(m.sector.to_string()));
            set(py, &err, "command", solve_command(m, true));
            err
        }
        morris::Error::NoDistance { sector, .. } => {
            let err = NoDistanceError::new_err(format!(
                "{message}; Database.outcome and Database.analysis answer without depths"
            ));
            set(py, &err, "sector", sector.to_string());
            err
        }
        morris::Error::Damaged { path, .. } => {
            let err = DamagedFileError::new_err(message);
            set(py, &err, "path", path.display().to_string());
            err
        }
        _ => Error::new_err(message),
    }
}

/// Sets an attribute of the exception (best effort: the message says it all anyway).
fn set<'py, V: IntoPyObject<'py>>(py: Python<'py>, err: &PyErr, name: &str, value: V) {
    let _ = err.value(py).setattr(name, value);
}

pub(crate) use morris::front::{message, solve_command};

/// The failure of a folder holding no sector of the rule set, with the command that solves
/// some (the command line's words).
pub(crate) fn nothing_solved(db: &Database) -> Fail {
    let (message, command) = morris::front::nothing_solved(db);
    Fail::NothingSolved { message, command }
}

/// Refuses a folder argument that exists and is not a folder.
pub(crate) fn check_folder(dir: &Path) -> Result<(), Fail> {
    Ok(morris::front::check_folder(dir, None, false)?)
}

/// Runs `f`, turning a panic into [`Fail::Panic`].
pub(crate) fn guard<T>(f: impl FnOnce() -> Result<T, Fail>) -> Result<T, Fail> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(payload) => Err(Fail::Panic(panic_message(payload))),
    }
}

/// A panic's message.
fn panic_message(payload: Box<dyn Any + Send>) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        return (*s).to_string();
    }
    if let Some(s) = payload.downcast_ref::<String>() {
        return s.clone();
    }
    String::from("a panic without a message")
}

/// Runs `f` with the GIL released (other Python threads go on meanwhile), a panic caught.
pub(crate) fn detached<T: Send>(
    py: Python<'_>,
    f: impl FnOnce() -> Result<T, Fail> + Send,
) -> PyResult<T> {
    py.detach(|| guard(f)).map_err(|e| e.into_py(py, None))
}
