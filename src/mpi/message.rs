//! The messages between rank 0 and the workers, encoded with bincode.

use std::time::Duration;

use bincode::{Decode, Encode};

use crate::progress::UnitTimes;

/// From a worker to rank 0.
#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub(super) enum ToScheduler {
    /// The worker is up and planned the units whose fingerprint is `plan`.
    Hello {
        /// The worker's plan fingerprint.
        plan: u64,
    },
    /// The unit is done: solved by this worker (`times`) or found solved by another process.
    Solved {
        /// The unit's position in the plan.
        unit: u64,
        /// Where the time went.
        times: Option<Times>,
    },
    /// Solving the unit failed.
    Failed {
        /// The unit's position in the plan.
        unit: u64,
        /// The error.
        why: String,
    },
}

/// From rank 0 to a worker.
#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub(super) enum ToWorker {
    /// Solve the unit at this position of the plan.
    Solve {
        /// The unit's position in the plan.
        unit: u64,
    },
    /// No more work: the run is complete (`None`) or failed elsewhere.
    Stop {
        /// Why the run failed.
        why: Option<String>,
    },
}

/// [`UnitTimes`] on the wire, durations in nanoseconds.
#[derive(Clone, Copy, Debug, PartialEq, Encode, Decode)]
pub(super) struct Times {
    slots: u64,
    init: u64,
    levels: u32,
    retrograde: u64,
    write: u64,
    verify: u64,
}

impl From<UnitTimes> for Times {
    fn from(t: UnitTimes) -> Times {
        let ns = |d: Duration| d.as_nanos().min(u64::MAX as u128) as u64;
        Times {
            slots: t.slots,
            init: ns(t.init),
            levels: t.levels,
            retrograde: ns(t.retrograde),
            write: ns(t.write),
            verify: ns(t.verify),
        }
    }
}

impl From<Times> for UnitTimes {
    fn from(t: Times) -> UnitTimes {
        UnitTimes {
            slots: t.slots,
            init: Duration::from_nanos(t.init),
            levels: t.levels,
            retrograde: Duration::from_nanos(t.retrograde),
            write: Duration::from_nanos(t.write),
            verify: Duration::from_nanos(t.verify),
        }
    }
}

fn config() -> impl bincode::config::Config {
    bincode::config::standard()
}

/// The bytes of a message.
pub(super) fn encode<T: Encode>(message: &T) -> Vec<u8> {
    bincode::encode_to_vec(message, config()).expect("plain data encodes")
}

/// A message from its bytes.
pub(super) fn decode<T: Decode<()>>(bytes: &[u8]) -> Result<T, String> {
    match bincode::decode_from_slice(bytes, config()) {
        Ok((m, used)) if used == bytes.len() => Ok(m),
        Ok(_) => Err("trailing bytes".into()),
        Err(e) => Err(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_round_trip() {
        let times = UnitTimes {
            slots: 210_140,
            init: Duration::from_micros(82_800),
            levels: 27,
            retrograde: Duration::from_nanos(374_800_123),
            write: Duration::from_millis(7),
            verify: Duration::from_millis(3),
        };
        let up = [
            ToScheduler::Hello { plan: u64::MAX },
            ToScheduler::Solved {
                unit: 7,
                times: Some(times.into()),
            },
            ToScheduler::Solved {
                unit: 0,
                times: None,
            },
            ToScheduler::Failed {
                unit: 296,
                why: "disk full".into(),
            },
        ];
        for m in up {
            assert_eq!(decode::<ToScheduler>(&encode(&m)), Ok(m));
        }
        let down = [
            ToWorker::Solve { unit: 1358 },
            ToWorker::Stop { why: None },
            ToWorker::Stop {
                why: Some("rank 2 failed".into()),
            },
        ];
        for m in down {
            assert_eq!(decode::<ToWorker>(&encode(&m)), Ok(m));
        }
        let back: UnitTimes = Times::from(times).into();
        assert_eq!(back.retrograde, times.retrograde);
        assert!(decode::<ToWorker>(&[0xFF, 0xFF]).is_err());
    }
}
