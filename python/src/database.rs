//! `morris.open` and `morris.Database`: a database folder or a tables folder, probed one
//! position at a time or by the batch (in parallel, the GIL released), analysed as
//! `morris query --json` answers.

use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, RwLock};

use morris::front::NoOneRuleSet;
use morris::nmove::RuleCache;
use morris::query::wire::{self, QueryJson, StatsJson};
use morris::query::Strength;
use morris::store::Reading;
use morris::{Database, Outcome, Silent, Value, Variant};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyList};
use rayon::prelude::*;

use crate::args::{count, Count, Folder, Folders, Text};
use crate::errors::{
    check_folder, detached, guard, missing_sector_error, nothing_solved, BadInputError,
    BadPositionError, Fail,
};
use crate::game::{Game, PyVariant, RuleArgs};
use crate::position::Target;

/// The value of a position for the side to move: `value` is `"win"`, `"loss"` or `"draw"`,
/// `depth` the plies to the end under perfect play (wins as short, losses as long as
/// possible), `None` for a draw.
///
/// Compares equal to another `Probe` of the same value and depth, and unpacks as
/// `value, depth = probe`.
#[pyclass(
    name = "Probe",
    module = "morris",
    frozen,
    eq,
    hash,
    skip_from_py_object
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Probe {
    value: Value,
}

impl Probe {
    pub(crate) fn of(value: Value) -> Probe {
        Probe { value }
    }
}

/// The depths below which every value has one shared `Probe` object.
const SHARED_DEPTHS: u32 = 1024;

/// The shared `Probe` objects: index `d` below [`SHARED_DEPTHS`] the win or loss in `d`
/// plies (wins have odd depths, losses even ones), index [`SHARED_DEPTHS`] the draw.
fn shared_probes(py: Python<'_>) -> PyResult<&'static [Py<Probe>]> {
    static SHARED: PyOnceLock<Vec<Py<Probe>>> = PyOnceLock::new();
    let shared = SHARED.get_or_try_init(py, || {
        (0..=SHARED_DEPTHS)
            .map(|i| {
                let v = match i {
                    SHARED_DEPTHS => Value::Draw,
                    d if d % 2 == 1 => Value::Win(d),
                    d => Value::Loss(d),
                };
                Py::new(py, Probe::of(v))
            })
            .collect::<PyResult<Vec<_>>>()
    })?;
    Ok(shared)
}

/// The `Probe` object of `value` from `shared` ([`shared_probes`]), a new one beyond its
/// depths.
fn shared_probe(py: Python<'_>, shared: &[Py<Probe>], value: Value) -> PyResult<Py<Probe>> {
    // Wins have odd depths and losses even ones: the depth alone says which.
    let at = match value {
        Value::Draw => Some(SHARED_DEPTHS),
        Value::Win(d) | Value::Loss(d) => Some(d).filter(|&d| d < SHARED_DEPTHS),
    };
    match at {
        Some(i) => Ok(shared[i as usize].clone_ref(py)),
        None => Py::new(py, Probe::of(value)),
    }
}

/// The `Probe` object of `value`: one shared object per value of depth below
/// [`SHARED_DEPTHS`] (a batch of 100,000 answers makes no new objects; a `Probe` is frozen), a
/// new one beyond.
pub(crate) fn probe_object(py: Python<'_>, value: Value) -> PyResult<Py<Probe>> {
    shared_probe(py, shared_probes(py)?, value)
}

/// One position of a `probe_many` batch.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Item {
    /// A `morris.Position` of the database's rule set.
    Given(morris::Position),
    /// A text, by its number in the batch's texts (parsed and checked in the batch).
    Text(usize),
    /// Refused before any reading (its error raised already, or `None` asked for).
    Refused,
}

/// Positions a `probe_many` batch hands to the workers at a time. While they probe one chunk,
/// the thread that holds the GIL takes the next chunk's items apart and turns the answers of
/// the one before into objects, so that the Python side of a batch overlaps its probing. For a
/// list, that thread is one of the pool's workers, and probes chunks itself once every item is
/// taken; any other iterable is read on the calling thread.
const CHUNK: usize = 1024;

/// One chunk of a `probe_many` batch: its items, its texts and, back from the workers, its
/// packed answers.
#[derive(Default)]
struct Chunk {
    /// The number of its first item in the batch.
    first: usize,
    items: Vec<Item>,
    /// The texts its `Item::Text` items number.
    texts: Vec<String>,
    packed: Vec<Packed>,
}

impl Chunk {
    fn clear(&mut self, first: usize) {
        self.first = first;
        self.items.clear();
        self.texts.clear();
        self.packed.clear();
    }
}

/// A chunk to fill: one of `chunks` kept from an earlier batch, or a new one.
fn fresh(chunks: &mut Vec<Chunk>, first: usize) -> Chunk {
    let mut chunk = chunks.pop().unwrap_or_default();
    chunk.clear(first);
    chunk
}

/// The answer to one item of a batch whose texts are `texts`.
fn answer(db: &Database, game: &Game, texts: &[String], item: &Item) -> Result<Value, Fail> {
    guard(|| match *item {
        Item::Given(pos) => Ok(db.probe(&pos)?),
        Item::Text(k) => Ok(db.probe(&game.parse(texts[k].trim())?.0)?),
        Item::Refused => Err(Fail::BadInput(String::from("refused"))),
    })
}

/// A `probe_many` batch under way on the thread holding the GIL: its chunks sent to the
/// workers and back, and those back that wait for an earlier one.
struct Batch<'s, 'py> {
    py: Python<'py>,
    db: &'s Database,
    game: &'s Game,
    raise: bool,
    shared: &'static [Py<Probe>],
    done: mpsc::Sender<Chunk>,
    /// Always `Some` but while this thread waits on it without the GIL (a `Receiver` is not
    /// `Sync`, so it goes into that closure and back).
    back: Option<mpsc::Receiver<Chunk>>,
    waiting: Vec<Chunk>,
    sent: usize,
    received: usize,
}

impl<'s, 'py> Batch<'s, 'py> {
    fn new(py: Python<'py>, db: &'s Database, game: &'s Game, raise: bool) -> PyResult<Self> {
        let (done, back) = mpsc::channel();
        Ok(Batch {
            py,
            db,
            game,
            raise,
            shared: shared_probes(py)?,
            done,
            back: Some(back),
            waiting: Vec::new(),
            sent: 0,
            received: 0,
        })
    }

    /// Hands `chunk` to the workers of `scope`.
    fn send(&mut self, scope: &rayon::Scope<'s>, mut chunk: Chunk) {
        let (db, game, done) = (self.db, self.game, self.done.clone());
        scope.spawn(move |_| {
            let Chunk {
                items,
                texts,
                packed,
                ..
            } = &mut chunk;
            items
                .par_iter()
                .with_min_len(256)
                .map(|item| answer(db, game, texts, item).map_or(Packed::FAILED, Packed::of))
                .collect_into_vec(packed);
            // The receiver is gone only when the batch has failed already.
            let _ = done.send(chunk);
        });
        self.sent += 1;
    }

    /// The next chunk back from the workers; meanwhile this thread, if one of the workers,
    /// probes a chunk without the GIL, else (or when every chunk is taken) waits without it.
    fn wait(&mut self) -> Chunk {
        loop {
            let back = self.back.as_ref().expect("the receiver is back");
            if let Ok(c) = back.try_recv() {
                return c;
            }
            if let Some(rayon::Yield::Executed) = self.py.detach(rayon::yield_now) {
                continue;
            }
            let back = self.back.take().expect("the receiver is back");
            let (c, back) = self.py.detach(move || (back.recv(), back));
            self.back = Some(back);
            return c.expect("a chunk sent is sent back: a sender lives in this batch");
        }
    }

    /// Takes the chunks back from the workers so far, without waiting.
    fn collect_ready(
        &mut self,
        chunks: &mut Vec<Chunk>,
        out: &mut Vec<Option<Py<Probe>>>,
    ) -> PyResult<()> {
        let back = self.back.as_ref().expect("the receiver is back");
        let ready: Vec<Chunk> = back.try_iter().collect();
        for c in ready {
            self.collect(c, chunks, out)?;
        }
        Ok(())
    }

    /// Takes `chunk` back, and emits the chunks back so far that come next in order; their
    /// buffers go into `chunks`.
    fn collect(
        &mut self,
        chunk: Chunk,
        chunks: &mut Vec<Chunk>,
        out: &mut Vec<Option<Py<Probe>>>,
    ) -> PyResult<()> {
        self.received += 1;
        self.waiting.push(chunk);
        while let Some(at) = self.waiting.iter().position(|c| c.first == out.len()) {
            let chunk = self.waiting.swap_remove(at);
            self.emit(&chunk, out)?;
            chunks.push(chunk);
        }
        Ok(())
    }

    /// The answers of a chunk back from the workers, into `out`.
    fn emit(&self, chunk: &Chunk, out: &mut Vec<Option<Py<Probe>>>) -> PyResult<()> {
        let (py, shared) = (self.py, self.shared);
        for (j, (item, &p)) in chunk.items.iter().zip(&chunk.packed).enumerate() {
            match p.value() {
                Some(v) => out.push(Some(shared_probe(py, shared, v)?)),
                // Failures are rare: the first is asked again for its error.
                None if self.raise && *item != Item::Refused => {
                    match py.detach(|| answer(self.db, self.game, &chunk.texts, item)) {
                        Ok(v) => out.push(Some(shared_probe(py, shared, v)?)),
                        Err(e) => {
                            let at = format!("item {}: ", chunk.first + j);
                            return Err(e.into_py(py, Some(&at)));
                        }
                    }
                }
                None => out.push(None),
            }
        }
        Ok(())
    }
}

/// The buffers of a thread's `probe_many` batches, kept from one batch to the next: fresh
/// buffers of 100,000 positions are fresh pages, and the page faults cost about a tenth of the
/// probing. A batch takes them (one that runs inside another, from a generator, finds none)
/// and gives them back unless larger than [`SCRATCH_KEPT`] positions.
#[derive(Default)]
struct Scratch {
    /// Chunks to fill, back from an earlier batch.
    chunks: Vec<Chunk>,
    /// Empty between batches (its objects go into the batch's list).
    out: Vec<Option<Py<Probe>>>,
}

thread_local! {
    static SCRATCH: std::cell::Cell<Scratch> = std::cell::Cell::new(Scratch::default());
}

/// The most positions whose buffers a thread keeps between batches (28 bytes each).
const SCRATCH_KEPT: usize = 1 << 20;

/// A batch's answer in four bytes: a win's or a loss's depth (odd for wins, even for losses),
/// a draw, or a failure.
#[derive(Clone, Copy)]
struct Packed(u32);

impl Packed {
    const DRAW: Packed = Packed(u32::MAX - 1);
    const FAILED: Packed = Packed(u32::MAX);

    fn of(value: Value) -> Packed {
        match value {
            Value::Draw => Packed::DRAW,
            // Depths are far below u32::MAX - 1 (a game of that many plies needs more
            // positions than any sector holds).
            Value::Win(d) | Value::Loss(d) => Packed(d.min(u32::MAX - 2)),
        }
    }

    fn value(self) -> Option<Value> {
        match self.0 {
            u32::MAX => None,
            d if d == u32::MAX - 1 => Some(Value::Draw),
            d if d % 2 == 1 => Some(Value::Win(d)),
            d => Some(Value::Loss(d)),
        }
    }
}

#[pymethods]
impl Probe {
    /// `Probe("win", 13)`, `Probe("loss", 0)`, `Probe("draw")`: wins have odd depths,
    /// losses even ones.
    #[new]
    #[pyo3(signature = (value, depth = None))]
    fn new(value: Text, depth: Option<Count<u32>>) -> PyResult<Probe> {
        let (value, depth) = (value.0, count(depth));
        let v = match (value.as_str(), depth) {
            ("draw", None) => Value::Draw,
            ("win", Some(d)) if d % 2 == 1 => Value::Win(d),
            ("loss", Some(d)) if d % 2 == 0 => Value::Loss(d),
            _ => {
                return Err(PyValueError::new_err(format!(
                    "no value {value:?} at depth {depth:?}: a win has an odd depth, a loss an \
                     even one, a draw none"
                )))
            }
        };
        Ok(Probe::of(v))
    }

    /// `"win"`, `"loss"` or `"draw"`, for the side to move.
    #[getter]
    fn value(&self) -> &'static str {
        self.value.name()
    }

    /// Plies to the end under perfect play; `None` for a draw.
    #[getter]
    fn depth(&self) -> Option<u32> {
        self.value.depth()
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        (self.value(), self.depth())
            .into_pyobject(py)?
            .into_any()
            .try_iter()
            .map(Bound::into_any)
    }

    fn __repr__(&self) -> String {
        match self.value.depth() {
            Some(d) => format!("Probe(value='{}', depth={d})", self.value.name()),
            None => format!("Probe(value='{}', depth=None)", self.value.name()),
        }
    }
}

/// A database folder (sector files, written by `morris solve`) or a tables folder (compact
/// tables, written by `morris tables`) of one variant and rule set, opened for reading.
///
/// Made by `morris.open`. Every method takes a position as a `morris.Position` or as text in
/// notation, releases the GIL while it works, and may be called from many threads at once.
#[pyclass(name = "Database", module = "morris", frozen)]
pub(crate) struct PyDatabase {
    /// The open folder; `None` once closed. Read-locked for a call's length (a probe holds it
    /// a few hundred nanoseconds; only `close` takes it to write).
    db: RwLock<Option<Arc<Database>>>,
    game: Arc<Game>,
    path: PathBuf,
    /// The N-move rule's analysis the calls asked so far.
    rules: RuleCache,
}

impl PyDatabase {
    /// The open folder.
    ///
    /// # Errors
    /// `ValueError` once the database is closed, as a closed file's.
    fn open_db(&self) -> PyResult<Arc<Database>> {
        self.db
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
            .ok_or_else(|| {
                PyValueError::new_err(format!("the database {} is closed", self.path.display()))
            })
    }

    /// `probe_many` of a numpy array of bitboards, a row `(white, black, white_hand,
    /// black_hand, turn)` each: two numpy arrays, values and depths (see `probe_many`).
    fn probe_array(&self, array: &Bound<'_, PyAny>, raise: bool) -> PyResult<Py<PyAny>> {
        let py = array.py();
        let numpy = py.import("numpy")?;
        let shape: Vec<usize> = array.getattr("shape")?.extract()?;
        if shape.len() != 2 || shape[1] != 5 {
            return Err(BadInputError::new_err(format!(
                "an array of positions has shape (N, 5), a row (white, black, white_hand, \
                 black_hand, turn) each; found shape {shape:?}"
            )));
        }
        let kind: String = array.getattr("dtype")?.getattr("kind")?.extract()?;
        if kind != "i" && kind != "u" {
            let dtype = array.getattr("dtype")?.str()?.to_string();
            return Err(PyTypeError::new_err(format!(
                "an array of positions holds integers, not {dtype}"
            )));
        }
        // Unsigned 64-bit values beyond i64 wrap negative and are refused as out of range.
        let rows = numpy.call_method1("ascontiguousarray", (array, "<i8"))?;
        let bytes = rows.call_method0("tobytes")?;
        let cells: Vec<i64> = bytes
            .cast::<PyBytes>()?
            .as_bytes()
            .chunks_exact(8)
            .map(|c| i64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect();
        let db = self.open_db()?;
        let (db, game) = (&*db, &*self.game);
        let answer = |row: &[i64]| {
            guard(|| {
                let (bits, turn) = bits_of_row(row)?;
                let (pos, _) = game.position_of_bits(bits, turn)?;
                Ok(db.probe(&pos)?)
            })
        };
        let packed: Vec<Packed> = py.detach(|| {
            cells
                .par_chunks(5)
                .with_min_len(256)
                .map(|row| answer(row).map_or(Packed::FAILED, Packed::of))
                .collect()
        });
        let mut values = Vec::with_capacity(packed.len());
        let mut depths = Vec::with_capacity(2 * packed.len());
        for (i, p) in packed.into_iter().enumerate() {
            // Failures are rare: the first is asked again for its error.
            let r = match p.value() {
                Some(v) => Ok(v),
                None if raise => py.detach(|| answer(&cells[5 * i..5 * i + 5])),
                None => Err(Fail::BadInput(String::from("failed"))),
            };
            let (value, depth): (i8, i16) = match r {
                Ok(v) => (
                    match v {
                        Value::Win(_) => 1,
                        Value::Draw => 0,
                        Value::Loss(_) => -1,
                    },
                    v.depth()
                        .map_or(-1, |d| i16::try_from(d).unwrap_or(i16::MAX)),
                ),
                Err(e) if raise => return Err(e.into_py(py, Some(&format!("item {i}: ")))),
                Err(_) => (-2, -1),
            };
            values.push(value.to_le_bytes()[0]);
            depths.extend(depth.to_le_bytes());
        }
        let array_of = |bytes: &[u8], dtype: &str| -> PyResult<Bound<'_, PyAny>> {
            numpy
                .call_method1("frombuffer", (PyBytes::new(py, bytes), dtype))?
                .call_method0("copy")
        };
        let out = (array_of(&values, "i1")?, array_of(&depths, "<i2")?);
        Ok(out.into_pyobject(py)?.into_any().unbind())
    }

    /// Item `i` of a `probe_many` batch into `chunk`: a position that is refused before any
    /// reading (of another rule set, text that is not text) is an item's error as any other,
    /// raised with its number or answered `None`.
    fn take(
        &self,
        i: usize,
        item: &Bound<'_, PyAny>,
        raise: bool,
        chunk: &mut Chunk,
    ) -> PyResult<()> {
        let py = item.py();
        match Target::extract(item, &self.game) {
            Ok(Target::Given { pos, .. }) => chunk.items.push(Item::Given(pos)),
            Ok(Target::Text(text)) => {
                chunk.items.push(Item::Text(chunk.texts.len()));
                chunk.texts.push(text);
            }
            Err(e) if e.is_instance_of::<BadPositionError>(py) => {
                if raise {
                    let message = format!("item {i}: {}", e.value(py));
                    return Err(BadPositionError::new_err(message));
                }
                chunk.items.push(Item::Refused);
            }
            Err(e) => return Err(e),
        }
        Ok(())
    }

    /// The answers of a `probe_many` batch of the items `items` yields, into `scratch.out` in
    /// order, each chunk probed as a job of `scope`. The thread holding the GIL takes the
    /// items apart and makes the answers' objects while the workers probe, and probes too
    /// while it waits if it is one of them (see [`CHUNK`]); the first failure in the batch's
    /// order is raised under `raise`, whether a probe's or an item's.
    fn probe_items<'py, 's>(
        &self,
        py: Python<'py>,
        items: impl Iterator<Item = PyResult<Bound<'py, PyAny>>>,
        raise: bool,
        scratch: &mut Scratch,
        (db, game): (&'s Database, &'s Game),
        scope: &rayon::Scope<'s>,
    ) -> PyResult<()> {
        let Scratch { chunks, out } = scratch;
        let mut batch = Batch::new(py, db, game, raise)?;
        let mut chunk = fresh(chunks, 0);
        let mut refused = None;
        for (i, item) in items.enumerate() {
            if let Err(e) = item.and_then(|item| self.take(i, &item, raise, &mut chunk)) {
                refused = Some(e);
                break;
            }
            if chunk.items.len() == CHUNK {
                let next = fresh(chunks, i + 1);
                batch.send(scope, std::mem::replace(&mut chunk, next));
                batch.collect_ready(chunks, out)?;
            }
        }
        if !chunk.items.is_empty() {
            batch.send(scope, chunk);
        }
        // The rest, in order: an item refused while taking the items apart is raised only
        // after every failure before it.
        while batch.received < batch.sent {
            let c = batch.wait();
            batch.collect(c, chunks, out)?;
        }
        refused.map_or(Ok(()), Err)
    }

    /// Runs `f` on the position `position`, without the GIL.
    fn on<T: Send>(
        &self,
        position: &Bound<'_, PyAny>,
        f: impl FnOnce(&Database, &morris::Position, morris::Color) -> Result<T, Fail> + Send,
    ) -> PyResult<T> {
        let target = Target::extract(position, &self.game)?;
        let db = self.open_db()?;
        let (db, game) = (&*db, &*self.game);
        detached(position.py(), || {
            let (pos, turn) = target.resolve(game)?;
            f(db, &pos, turn)
        })
    }
}

/// `json.loads` of a JSON text the library wrote.
pub(crate) fn json_value<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    static LOADS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    LOADS.import(py, "json", "loads")?.call1((text,))
}

#[pymethods]
impl PyDatabase {
    /// The variant and rule set.
    #[getter]
    fn variant(&self) -> PyVariant {
        PyVariant::of(self.game.clone())
    }

    /// The folder as given to `morris.open`.
    #[getter]
    fn path(&self) -> String {
        self.path.display().to_string()
    }

    /// Whether the folder holds compact tables (else sector files).
    #[getter]
    fn is_tables(&self) -> PyResult<bool> {
        Ok(self.open_db()?.is_tables())
    }

    /// The sectors present, `W-B-WF-BF`, in increasing order.
    fn sectors(&self) -> PyResult<Vec<String>> {
        Ok(self
            .open_db()?
            .present()
            .iter()
            .map(|s| s.to_string())
            .collect())
    }

    /// Closes the folder: its files and caches are released, and every later call raises
    /// `ValueError`. Closing again does nothing. A `with morris.open(...) as t:` block closes
    /// it at its end.
    fn close(&self) {
        self.db.write().unwrap_or_else(|e| e.into_inner()).take();
    }

    /// Whether `close` was called.
    #[getter]
    fn closed(&self) -> bool {
        self.db.read().unwrap_or_else(|e| e.into_inner()).is_none()
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __exit__(
        &self,
        _kind: &Bound<'_, PyAny>,
        _value: &Bound<'_, PyAny>,
        _traceback: &Bound<'_, PyAny>,
    ) -> bool {
        self.close();
        false
    }

    /// `probe(position)`, or `default` when the position's sector is not solved here (as
    /// `chess.syzygy`'s `get_wdl`): the other errors raise as `probe`'s do.
    #[pyo3(signature = (position, default = None))]
    fn get(&self, position: &Bound<'_, PyAny>, default: Option<Py<PyAny>>) -> PyResult<Py<PyAny>> {
        let py = position.py();
        match self.probe(position) {
            Ok(p) => Ok(p.into_any()),
            Err(e) if missing_sector_error(py).is_ok_and(|c| e.is_instance(py, c)) => {
                Ok(default.unwrap_or_else(|| py.None()))
            }
            Err(e) => Err(e),
        }
    }

    /// The value of a position: `Probe(value, depth)`.
    ///
    /// Raises `morris.BadPositionError` (malformed, or no game reaches it),
    /// `morris.MissingSectorError` (its sector is not solved here) or
    /// `morris.DamagedFileError`.
    fn probe(&self, position: &Bound<'_, PyAny>) -> PyResult<Py<Probe>> {
        let value = self.on(position, |db, pos, _| Ok(db.probe(pos)?))?;
        probe_object(position.py(), value)
    }

    /// Win, draw or loss without the depth: `"win"`, `"draw"` or `"loss"`. From tables only
    /// the win/draw/loss file is read, which is faster.
    fn outcome(&self, position: &Bound<'_, PyAny>) -> PyResult<&'static str> {
        self.on(position, |db, pos, _| {
            Ok(match db.probe_outcome(pos)? {
                Outcome::Win => "win",
                Outcome::Draw => "draw",
                Outcome::Loss => "loss",
            })
        })
    }

    /// The values of many positions (`morris.Position` objects or texts, any iterable), in
    /// order, worked out in parallel with the GIL released.
    ///
    /// With `errors="raise"` the first position that fails raises its error, the message
    /// prefixed with `item N: ` (N counting from 0); with `errors="none"` it gets `None`.
    ///
    /// A numpy array of shape `(N, 5)` gives N positions as bitboards, a row each (`white`,
    /// `black`, `white_hand`, `black_hand`, `turn`: 0 White, 1 Black; `Position.bits` gives
    /// the first four), and the answer is two numpy arrays of N: `values` (int8: 1 win,
    /// 0 draw, -1 loss; -2 for a position that failed under `errors="none"`) and `depths`
    /// (int16, plies; -1 for draws and failures). numpy is needed only for this form.
    #[pyo3(
        signature = (positions, *, errors = Text(String::from("raise"))),
        text_signature = "($self, positions, *, errors='raise')"
    )]
    fn probe_many(
        &self,
        py: Python<'_>,
        positions: &Bound<'_, PyAny>,
        errors: Text,
    ) -> PyResult<Py<PyAny>> {
        let errors = errors.0;
        let raise = match errors.as_str() {
            "raise" => true,
            "none" => false,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "errors must be \"raise\" or \"none\", not {errors:?}"
                )))
            }
        };
        if is_numpy_array(positions)? {
            return self.probe_array(positions, raise);
        }
        // Items are kept small (a position, or the number of a text) and the answers packed
        // (`Packed`): the batch's cost beside the probing is walking the Python objects and the
        // memory it touches.
        let mut scratch = SCRATCH.take();
        scratch.out.clear();
        let db = self.open_db()?;
        let on = (&*db, &*self.game);
        let probed = if let Ok(list) = positions.cast::<PyList>() {
            // A list's items are read without running Python code, so the batch runs on one
            // of the pool's workers, which takes the GIL there: it is then one of the threads
            // that probe (while it waits for chunks), and the batch keeps the machine's cores
            // busy with as many threads as there are cores.
            let list = list.clone().unbind();
            py.detach(|| {
                rayon::scope(|scope| {
                    Python::attach(|py| {
                        let items = list.bind(py).iter().map(Ok);
                        self.probe_items(py, items, raise, &mut scratch, on, scope)
                    })
                })
            })
        } else {
            // Any other iterable runs its own code (a generator, a database cursor) on the
            // calling thread, where the objects it may be bound to live: its chunks go to the
            // pool from here, and this thread only waits for them.
            let items = positions.try_iter()?;
            rayon::in_place_scope(|scope| {
                self.probe_items(py, items, raise, &mut scratch, on, scope)
            })
        };
        let out = &mut scratch.out;
        if let Err(e) = probed {
            out.clear();
            return Err(e);
        }
        let list = PyList::new(py, out.drain(..))?;
        if out.capacity() <= SCRATCH_KEPT {
            SCRATCH.set(scratch);
        }
        Ok(list.into_any().unbind())
    }

    /// The position's value and every legal move's, best first: a dict equal to what
    /// `morris query --json` prints for it (`variant`, `position`, `value`, `depth`, `moves`:
    /// `[{"move", "value", "depth"}, ...]`). Of tables without their depth files every
    /// `depth` is `None` and the dict adds `"metric": None`, as the command line does.
    ///
    /// `n_move_rule=N` (1 to 30,000 plies) adds the values under the N-move rule for a fresh
    /// counter, as `morris query --json --n-move-rule N` does: `"rule_value"` (`"win"`,
    /// `"cursed-win"`, `"draw"`, `"blessed-loss"` or `"loss"`) to the dict and to every move,
    /// and `"n_move_rule": N`. The first call analyses the position's sector and every sector
    /// it leads to (seconds for six and seven); the analysis is kept for later calls with the
    /// same N.
    #[pyo3(
        signature = (position, *, n_move_rule = None),
        text_signature = "($self, position, *, n_move_rule=None)"
    )]
    fn analysis<'py>(
        &self,
        position: &Bound<'py, PyAny>,
        n_move_rule: Option<Count<u64>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let n = match count(n_move_rule) {
            None => None,
            Some(n @ 1..) if n <= u64::from(morris::nmove::MAX_N) => Some(n as u16),
            Some(n) => {
                return Err(Fail::BadInput(format!(
                    "n_move_rule takes N from 1 to {} plies, not {n}",
                    morris::nmove::MAX_N
                ))
                .into_py(position.py(), None))
            }
        };
        let rules = &self.rules;
        let text = self.on(position, |db, pos, turn| {
            let a = db.answer(pos)?;
            let json = QueryJson::of(db.variant(), pos, turn, &a);
            let Some(n) = n else {
                return Ok(wire::json(&json));
            };
            let ruled = rules.answer(db, n, pos, &a.moves(), &Silent)?;
            Ok(wire::json(&json.with_rule(&ruled)))
        })?;
        json_value(position.py(), &text)
    }

    /// The move the database plays, in notation, as the explorer's `GET /api/bestmove` with
    /// the same `strength` and `seed` (and the C library's `morris_best_move_at`); `None` when
    /// the game is over.
    ///
    /// `strength="perfect"` (the default) keeps the position's value: for a win the fastest,
    /// for a draw the move that sets the most traps (an opponent moving at random loses most
    /// often within two moves), for a loss the move that leaves the opponent the fewest replies
    /// keeping theirs, then the most mistakes; ties go to the first in notation order, or with `seed`
    /// to one chosen by the seed. The weaker levels, `"expert"`, `"strong"`, `"advanced"`,
    /// `"intermediate"`, `"club"`, `"casual"` and `"novice"`, draw among every solved move by a
    /// softmax over value and depth (temperature 0.08 to 0.8), repeatably with `seed`, anew each
    /// call without one.
    #[pyo3(
        signature = (position, *, strength = Text(String::from("perfect")), seed = None),
        text_signature = "($self, position, *, strength='perfect', seed=None)"
    )]
    fn best_move<'py>(
        &self,
        position: &Bound<'py, PyAny>,
        strength: Text,
        seed: Option<Count<u64>>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let py = position.py();
        let seed = count(seed);
        let strength = Strength::parse(&strength.0).map_err(|e| Fail::from(e).into_py(py, None))?;
        let mv = self.on(position, |db, pos, _| {
            Ok(morris::query::move_at(db, pos, strength, seed)?)
        })?;
        mv.map(|m| crate::position::move_object(py, &self.game.variant, m))
            .transpose()
    }

    /// The dict `morris stats --json` prints for this folder: every sector's counts and the
    /// start position's value.
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let db = self.open_db()?;
        let db = &*db;
        let text = detached(py, || {
            if db.present().is_empty() {
                return Err(nothing_solved(db));
            }
            Ok(wire::json(&StatsJson::read(db)?))
        })?;
        json_value(py, &text)
    }

    fn __repr__(&self) -> String {
        format!(
            "<morris.Database {} of {} in {}>",
            if self.is_tables().unwrap_or(false) {
                "tables"
            } else {
                "sector files"
            },
            crate::game::variant_repr(&self.game.variant),
            self.path.display()
        )
    }
}

/// Opens `root` for reading: its compact tables when the rule set's folder holds table files,
/// else its sector files, read as `reading` says. A folder with neither is an error with the
/// command that fills it.
pub(crate) fn open_database(root: &Path, game: &Game, reading: Reading) -> Result<Database, Fail> {
    check_folder(root)?;
    some_solved(Database::open_reading(root, &game.variant, reading)?)
}

/// `db`, or the error with the command that fills it when it holds no sector at all.
fn some_solved(db: Database) -> Result<Database, Fail> {
    if db.present().is_empty() {
        return Err(nothing_solved(&db));
    }
    Ok(db)
}

/// The game of a folder: `variant` with the rule keywords when given, else the folder's one
/// solved rule set (see [`the_rule_set`]).
fn folder_game(
    py: Python<'_>,
    root: &Path,
    variant: Option<&Bound<'_, PyAny>>,
    rules: RuleArgs,
) -> PyResult<Arc<Game>> {
    chosen_game(py, variant, rules, |rules| the_rule_set(root, rules))
}

/// `variant` with the rule keywords when given, else the one rule set `find` finds (with the
/// GIL released: it lists folders).
fn chosen_game(
    py: Python<'_>,
    variant: Option<&Bound<'_, PyAny>>,
    rules: RuleArgs,
    find: impl FnOnce(&RuleArgs) -> Result<Variant, Fail> + Send,
) -> PyResult<Arc<Game>> {
    match variant {
        Some(v) if !v.is_none() => crate::game::resolve(v, rules),
        _ => {
            let found = detached(py, || find(&rules))?;
            Ok(crate::game::game_of(found))
        }
    }
}

/// The one rule set solved in `root` that agrees with the rule keywords given: what
/// `morris.open(path)` opens when it is not told the variant.
fn the_rule_set(root: &Path, rules: &RuleArgs) -> Result<Variant, Fail> {
    check_folder(root)?;
    if !root.exists() {
        let command = format!("morris solve --variant VARIANT --db {}", root.display());
        return Err(Fail::NothingSolved {
            message: format!(
                "{}: no such folder, so nothing is solved there; run `{command}`",
                root.display()
            ),
            command,
        });
    }
    one_rule_set(
        morris::front::the_rule_set(root, rules.overrides()?),
        "morris.open(path",
    )
}

/// The one rule set found, or why there is not one; `call` begins the call that names one.
fn one_rule_set(found: Result<Variant, NoOneRuleSet>, call: &str) -> Result<Variant, Fail> {
    match found {
        Ok(v) => Ok(v),
        Err(NoOneRuleSet::Nothing { message, command }) => {
            Err(Fail::NothingSolved { message, command })
        }
        Err(NoOneRuleSet::Several { message, names }) => Err(Fail::BadInput(format!(
            "{message}: name the one to open, as in {call}, \"{}\")",
            names[0]
        ))),
        Err(NoOneRuleSet::Error(e)) => Err(e.into()),
    }
}

/// Opens a database folder (written by `morris solve`) or a tables folder (written by
/// `morris tables`) of `variant` (a name or a `morris.Variant`; rule switches as keywords).
/// Without `variant`, the folder's one solved rule set (that agrees with the keywords given)
/// is opened; a folder holding several asks for the variant.
///
/// `path` may be a list of folders, read as one: each sector comes from the first folder that
/// holds it (an app's shipped endgames in one, tables fetched later in another).
///
/// Sector files are mapped read-only, as the command line reads them: the fastest way, for a
/// process whose files nothing changes while it runs. With `cache_bytes=N` they are read into
/// a cache of at most N bytes of checked blocks instead (slower on random positions, but a
/// file changed under a long-running process is an error until it is whole again, never a
/// crash). Tables are always read through a cache: N bytes, 64 MiB by default.
///
/// Raises `morris.MissingSectorError` when the folder holds nothing of that rule set (the
/// message names the command that solves it), `morris.BadInputError` for an unknown variant
/// or rule value, or a path that is not a folder.
#[pyfunction]
#[pyo3(signature = (path, variant = None, *, flying = None, removal = None, phases = None, full_board = None, cache_bytes = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn open(
    py: Python<'_>,
    path: Folders,
    variant: Option<&Bound<'_, PyAny>>,
    flying: Option<Text>,
    removal: Option<Text>,
    phases: Option<Text>,
    full_board: Option<Text>,
    cache_bytes: Option<Count<u64>>,
) -> PyResult<PyDatabase> {
    let reading = match count(cache_bytes) {
        None => Reading::Mapped,
        Some(bytes) => Reading::Cached(Some(bytes)),
    };
    let roots = path.0;
    let rules = crate::game::RuleArgs::new(flying, removal, phases, full_board);
    let game = if let [root] = &roots[..] {
        folder_game(py, root, variant, rules)?
    } else {
        let roots = &roots;
        detached(py, || roots.iter().try_for_each(|r| check_folder(r)))?;
        chosen_game(py, variant, rules, |rules| {
            let files: Arc<dyn morris::store::Files> =
                Arc::new(morris::store::Layers::on_disk(roots.clone()));
            let what = format!("the folders {}", list_paths(roots));
            let found = morris::front::the_rule_set_in(files, &roots[0], &what, rules.overrides()?);
            one_rule_set(found, "morris.open([folders]")
        })?
    };
    let db = {
        let (roots, game) = (&roots, &*game);
        detached(py, || match &roots[..] {
            [root] => open_database(root, game, reading),
            _ => some_solved(Database::open_folders(roots, &game.variant, reading)?),
        })?
    };
    Ok(PyDatabase {
        db: RwLock::new(Some(Arc::new(db))),
        game,
        path: roots[0].clone(),
        rules: RuleCache::default(),
    })
}

/// Folders named for a message: `a, b and c`.
fn list_paths(roots: &[PathBuf]) -> String {
    let names: Vec<String> = roots.iter().map(|r| r.display().to_string()).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

/// Opens files the caller holds in memory instead of a folder (an app's bundled tables, files
/// fetched over a network): `files` maps each file's path inside a database or tables folder
/// (`"RULESET/SECTOR.wdl"`, as `morris tables` lays them out) to its bytes (`bytes`,
/// `bytearray`, `memoryview` or any buffer; copied). `variant` and the rule keywords as for
/// `morris.open` (without `variant`, the one rule set the paths hold). Every block is checked
/// as it is read, through a cache of `cache_bytes` (64 MiB by default).
///
/// Raises as `morris.open` does; `morris.BadInputError` when a key is not text or a value not
/// bytes.
#[pyfunction]
#[pyo3(signature = (files, variant = None, *, flying = None, removal = None, phases = None, full_board = None, cache_bytes = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn open_files(
    py: Python<'_>,
    files: &Bound<'_, pyo3::types::PyDict>,
    variant: Option<&Bound<'_, PyAny>>,
    flying: Option<Text>,
    removal: Option<Text>,
    phases: Option<Text>,
    full_board: Option<Text>,
    cache_bytes: Option<Count<u64>>,
) -> PyResult<PyDatabase> {
    let mut held = morris::store::InMemory::new();
    for (name, bytes) in files.iter() {
        let name: String = name.extract().map_err(|_| {
            Fail::BadInput(format!("files: a key is {}, not a path", type_name(&name)))
                .into_py(py, None)
        })?;
        // bytes and bytearray as they are; any other buffer (memoryview, array) copied through
        // memoryview() and bytes(), which the limited API offers where the buffer protocol is
        // not.
        let as_bytes = |o: &Bound<'_, PyAny>| {
            o.extract::<std::borrow::Cow<'_, [u8]>>()
                .map(|c| c.into_owned())
        };
        let bytes: Vec<u8> = match as_bytes(&bytes) {
            Ok(b) => b,
            Err(_) => {
                // memoryview() refuses what is not a buffer (an int would make bytes(n)).
                let builtins = py.import("builtins")?;
                let copied = builtins
                    .getattr("memoryview")?
                    .call1((&bytes,))
                    .and_then(|view| builtins.getattr("bytes")?.call1((view,)))
                    .ok();
                match copied.as_ref().map(as_bytes) {
                    Some(Ok(b)) => b,
                    _ => {
                        let why = format!("files[{name:?}] is {}, not bytes", type_name(&bytes));
                        return Err(Fail::BadInput(why).into_py(py, None));
                    }
                }
            }
        };
        held.insert(PathBuf::from(name), bytes);
    }
    let files: Arc<dyn morris::store::Files> = Arc::new(held);
    let root = Path::new("");
    let rules = crate::game::RuleArgs::new(flying, removal, phases, full_board);
    let game = chosen_game(py, variant, rules, |rules| {
        let files = files.clone();
        let found =
            morris::front::the_rule_set_in(files, root, "the files given", rules.overrides()?);
        one_rule_set(found, "morris.open_files(files")
    })?;
    let bytes = count(cache_bytes).unwrap_or(morris::store::READER_CACHE_BYTES);
    let db = detached(py, || {
        some_solved(Database::from_files(files, root, &game.variant, bytes)?)
    })?;
    Ok(PyDatabase {
        db: RwLock::new(Some(Arc::new(db))),
        game,
        path: PathBuf::from("<files in memory>"),
        rules: RuleCache::default(),
    })
}

/// The name of a Python object's type, for messages.
fn type_name(object: &Bound<'_, PyAny>) -> String {
    object
        .get_type()
        .name()
        .map_or_else(|_| String::from("an object"), |n| n.to_string())
}

/// The tables (`Database::tables`) if the folder holds any of the rule set, else the sector
/// files mapped (`Database::new`), as `morris stats` reads them.
fn files(root: &Path, game: &Game) -> Result<Database, Fail> {
    check_folder(root)?;
    some_solved(Database::open_reading(
        root,
        &game.variant,
        Reading::Mapped,
    )?)
}

/// The dict `morris stats --json` prints for a database or tables folder: per solved sector
/// its canonical and raw counts of positions, wins, losses and draws, its largest depth and
/// its file's checksum, and the start position's value (`None` while unsolved).
#[pyfunction]
#[pyo3(signature = (path, variant = None, *, flying = None, removal = None, phases = None, full_board = None))]
pub(crate) fn stats<'py>(
    py: Python<'py>,
    path: Folder,
    variant: Option<&Bound<'py, PyAny>>,
    flying: Option<Text>,
    removal: Option<Text>,
    phases: Option<Text>,
    full_board: Option<Text>,
) -> PyResult<Bound<'py, PyAny>> {
    let path = path.0;
    let rules = crate::game::RuleArgs::new(flying, removal, phases, full_board);
    let game = folder_game(py, &path, variant, rules)?;
    let text = {
        let (root, game) = (&path, &*game);
        detached(py, || {
            let db = files(root, game)?;
            Ok(wire::json(&StatsJson::read(&db)?))
        })?
    };
    json_value(py, &text)
}

/// Whether `obj` is a numpy array (its class or a base is numpy's `ndarray`), told without
/// importing numpy, so that numpy is needed only by those who pass arrays.
fn is_numpy_array(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    for class in obj.get_type().getattr("__mro__")?.try_iter()? {
        let class = class?;
        let module: String = class.getattr("__module__")?.extract()?;
        let name: String = class.getattr("__name__")?.extract()?;
        if module == "numpy" && name == "ndarray" {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The bitboards and side to move of one row of a numpy array of positions.
fn bits_of_row(row: &[i64]) -> Result<(morris::front::Bits, morris::Color), Fail> {
    let bad = |why: String| {
        Fail::from(morris::InvalidInput::Position {
            input: format!("{row:?}"),
            why,
        })
    };
    let set = |x: i64, side: &str| {
        u32::try_from(x).map_err(|_| bad(format!("{side}'s points {x} are not 32 bits")))
    };
    let hand = |x: i64, side: &str| {
        u8::try_from(x).map_err(|_| bad(format!("{side}'s hand {x} is not 0 to 255")))
    };
    let turn = match row[4] {
        0 => morris::Color::White,
        1 => morris::Color::Black,
        t => {
            return Err(bad(format!(
                "turn must be 0 (White) or 1 (Black), found {t}"
            )))
        }
    };
    let bits = morris::front::Bits {
        white: set(row[0], "White")?,
        black: set(row[1], "Black")?,
        white_hand: hand(row[2], "White")?,
        black_hand: hand(row[3], "Black")?,
    };
    Ok((bits, turn))
}
