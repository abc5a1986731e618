//! Long work from Python: `solve` and `verify` run on a thread of their own while the calling
//! thread waits without the GIL, wakes every tenth of a second to let Python handle signals
//! (Ctrl-C asks the work to stop through [`Progress::cancelled`]: it skips what is left and
//! returns, no thread unwinds), and the library's progress reports reach a Python callback or
//! a tqdm-style bar.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

use morris::{Progress, Sector, UnitTimes, WorkUnit};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use crate::errors::{guard, Error, Fail};

/// How often the waiting thread lets Python handle signals, and the least time between two
/// reports to Python (the last one always goes).
const INTERVAL: Duration = Duration::from_millis(100);

/// Where progress goes.
pub(crate) enum Sink {
    /// Nowhere.
    Nothing,
    /// `progress(done, total)`.
    Call(Py<PyAny>),
    /// A tqdm-style bar: its `total` is set, then `update(n)` adds what was done since.
    Bar(Py<PyAny>),
}

impl Sink {
    /// The sink of a `progress` argument.
    pub(crate) fn of(progress: Option<&Bound<'_, PyAny>>) -> PyResult<Sink> {
        let Some(p) = progress.filter(|p| !p.is_none()) else {
            return Ok(Sink::Nothing);
        };
        if p.is_callable() {
            Ok(Sink::Call(p.clone().unbind()))
        } else if p.hasattr("update")? {
            Ok(Sink::Bar(p.clone().unbind()))
        } else {
            Err(PyTypeError::new_err(format!(
                "progress must be a callable progress(done, total) or a tqdm-style bar with \
                 update(n), not {}",
                p.get_type().name()?
            )))
        }
    }
}

/// What counts as work done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Measure {
    /// The index slots of the work units finished (`solve`).
    UnitSlots,
    /// The steps the library advances (`verify`: slots proved).
    Steps,
}

/// What the sink was last told.
struct Told {
    at: Option<Instant>,
    done: u64,
    total_set: bool,
}

/// The library's progress reports, counted and passed on to Python; the switch that stops the
/// work.
pub(crate) struct Reporter {
    sink: Sink,
    measure: Measure,
    total: AtomicU64,
    done: AtomicU64,
    /// The index slots of each work unit, by its first sector (`solve`).
    weights: OnceLock<HashMap<Sector, u64>>,
    told: Mutex<Told>,
    cancel: AtomicBool,
    /// Why the work was stopped: the first exception (a callback's, or KeyboardInterrupt).
    reason: Mutex<Option<PyErr>>,
}

impl Reporter {
    pub(crate) fn new(sink: Sink, measure: Measure) -> Reporter {
        Reporter {
            sink,
            measure,
            total: AtomicU64::new(0),
            done: AtomicU64::new(0),
            weights: OnceLock::new(),
            told: Mutex::new(Told {
                at: None,
                done: 0,
                total_set: false,
            }),
            cancel: AtomicBool::new(false),
            reason: Mutex::new(None),
        }
    }

    /// Sets the whole work's size.
    pub(crate) fn set_total(&self, total: u64) {
        self.total.store(total, Relaxed);
    }

    /// Sets the work units' sizes (their sum is the total).
    pub(crate) fn set_weights(&self, weights: HashMap<Sector, u64>) {
        self.set_total(weights.values().sum());
        let _ = self.weights.set(weights);
    }

    fn weight(&self, unit: &WorkUnit) -> u64 {
        self.weights
            .get()
            .and_then(|w| w.get(&unit.sectors[0]))
            .copied()
            .unwrap_or(0)
    }

    /// Asks the work to stop, for `reason` (the first one stands).
    pub(crate) fn stop(&self, reason: PyErr) {
        let mut slot = self.reason.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_none() {
            *slot = Some(reason);
        }
        self.cancel.store(true, Relaxed);
    }

    fn take_reason(&self) -> Option<PyErr> {
        self.reason.lock().unwrap_or_else(|e| e.into_inner()).take()
    }

    fn add(&self, n: u64) {
        self.done.fetch_add(n, Relaxed);
    }

    /// Passes the count on to Python (at most every [`INTERVAL`] unless `last`), then stops
    /// if asked to.
    fn step(&self) {
        if let Err(e) = self.tell(false) {
            self.stop(e);
        }
    }

    /// Tells the sink `(done, total)` when there is news and it is time (or `last`).
    fn tell(&self, last: bool) -> PyResult<()> {
        if matches!(self.sink, Sink::Nothing) {
            return Ok(());
        }
        let mut told = self.told.lock().unwrap_or_else(|e| e.into_inner());
        let total = self.total.load(Relaxed);
        let done = if last {
            total
        } else {
            self.done.load(Relaxed).min(total)
        };
        let due = told.at.is_none_or(|at| at.elapsed() >= INTERVAL);
        if !last && (!due || (told.at.is_some() && done == told.done)) {
            return Ok(());
        }
        if last && told.at.is_some() && done == told.done {
            return Ok(());
        }
        told.at = Some(Instant::now());
        let before = std::mem::replace(&mut told.done, done);
        let set_total = !std::mem::replace(&mut told.total_set, true);
        Python::attach(|py| match &self.sink {
            Sink::Nothing => Ok(()),
            Sink::Call(f) => f.bind(py).call1((done, total)).map(drop),
            Sink::Bar(bar) => {
                let bar = bar.bind(py);
                if set_total {
                    bar.setattr("total", total)?;
                }
                bar.call_method1("update", (done.saturating_sub(before),))
                    .map(drop)
            }
        })
    }
}

impl Progress for Reporter {
    fn unit(&self, unit: &WorkUnit, _number: usize, _count: usize, done: bool) {
        if done && self.measure == Measure::UnitSlots {
            self.add(self.weight(unit));
        }
        self.step();
    }

    fn unit_solved(&self, unit: &WorkUnit, _times: &UnitTimes) {
        if self.measure == Measure::UnitSlots {
            self.add(self.weight(unit));
        }
        self.step();
    }

    fn advance(&self, n: u64) {
        if self.measure == Measure::Steps {
            self.add(n);
            self.step();
        }
    }

    fn cancelled(&self) -> bool {
        self.cancel.load(Relaxed)
    }

    fn sector_checked(
        &self,
        _sector: Sector,
        _positions: u64,
        _children: u64,
        _faults: u64,
        _time: Duration,
    ) {
        self.step();
    }
}

/// Runs `work` on a thread of its own and waits for it with the GIL released, waking every
/// [`INTERVAL`] to let Python handle signals: an interruption (Ctrl-C) or an exception in the
/// progress callback stops the work at its next report and is raised here. At the end the
/// sink hears `(total, total)`.
pub(crate) fn cancellable<T: Send>(
    py: Python<'_>,
    reporter: &Reporter,
    work: impl FnOnce() -> Result<T, Fail> + Send,
) -> PyResult<T> {
    let finished = (Mutex::new(false), Condvar::new());
    let result = std::thread::scope(|s| {
        let handle = s.spawn(|| {
            let result = guard(work);
            let (lock, signal) = &finished;
            *lock.lock().unwrap_or_else(|e| e.into_inner()) = true;
            signal.notify_all();
            result
        });
        loop {
            let done = py.detach(|| {
                let (lock, signal) = &finished;
                let flag = lock.lock().unwrap_or_else(|e| e.into_inner());
                let (flag, _) = signal
                    .wait_timeout_while(flag, INTERVAL, |done| !*done)
                    .unwrap_or_else(|e| e.into_inner());
                *flag
            });
            if done {
                break;
            }
            if let Err(interrupt) = py.check_signals() {
                reporter.stop(interrupt);
            }
        }
        handle
            .join()
            .unwrap_or_else(|_| Err(Fail::Panic(String::from("the worker thread died"))))
    });
    if let Some(reason) = reporter.take_reason() {
        return Err(reason);
    }
    match result {
        Ok(value) => {
            reporter.tell(true)?;
            Ok(value)
        }
        Err(Fail::Cancelled) => Err(Error::new_err("cancelled")),
        Err(fail) => Err(fail.into_py(py, None)),
    }
}
