//! A sector's depth histogram: how many of its positions are won or lost in each number of plies.

use rayon::prelude::*;

use crate::error::Error;
use crate::rules::Value;
use crate::space::Sector;
use crate::store::Database;

/// Canonical positions of a sector by value for the side to move, as `scripts/depths.py`
/// counts a whole game (every used slot once).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Depths {
    /// `win[d]`: positions won in `d` plies.
    pub win: Vec<u64>,
    /// `loss[d]`: positions lost in `d` plies.
    pub loss: Vec<u64>,
    /// Drawn positions.
    pub draw: u64,
}

impl Depths {
    /// Every position counted.
    pub fn positions(&self) -> u64 {
        self.win.iter().chain(&self.loss).sum::<u64>() + self.draw
    }

    fn add(&mut self, value: Value) {
        let bump = |counts: &mut Vec<u64>, d: u32| {
            let d = d as usize;
            if counts.len() <= d {
                counts.resize(d + 1, 0);
            }
            counts[d] += 1;
        };
        match value {
            Value::Win(d) => bump(&mut self.win, d),
            Value::Loss(d) => bump(&mut self.loss, d),
            Value::Draw => self.draw += 1,
        }
    }

    /// The counts of `self` and `other` together.
    pub fn merge(mut self, other: Depths) -> Depths {
        for (mine, theirs) in [(&mut self.win, other.win), (&mut self.loss, other.loss)] {
            if mine.len() < theirs.len() {
                mine.resize(theirs.len(), 0);
            }
            for (m, t) in mine.iter_mut().zip(theirs) {
                *m += t;
            }
        }
        self.draw += other.draw;
        self
    }
}

/// Slots read by one task.
const CHUNK: u64 = 1 << 20;

/// The depth histogram of `sector`, every slot read (in parallel, a million slots a task).
///
/// # Errors
/// The sector is not solved (`Error::Missing`) or a block of it is damaged.
pub fn depths(db: &Database, sector: Sector) -> Result<Depths, Error> {
    let values = db.sector(sector)?;
    let slots = db.index(sector).size();
    (0..slots.div_ceil(CHUNK))
        .into_par_iter()
        .map(|chunk| {
            let mut d = Depths::default();
            for slot in chunk * CHUNK..slots.min((chunk + 1) * CHUNK) {
                if let Some(v) = values.cell(slot)? {
                    d.add(v);
                }
            }
            Ok(d)
        })
        .try_reduce(Depths::default, |a, b| Ok(a.merge(b)))
}
