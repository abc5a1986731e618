//! The query string of an API request: known names only, each at most once.

use axum::http::StatusCode;

use super::answer::ApiError;
use crate::rules::{clip, RuleOverrides, SWITCHES};

/// Whether `name` is a rule switch's: every API route takes them, by their command-line names.
fn is_switch(name: &str) -> bool {
    SWITCHES.iter().any(|s| s.name == name)
}

/// The decoded parameters of a query string.
#[derive(Debug)]
pub(super) struct Params(Vec<(String, String)>);

impl Params {
    /// The `seed` parameter, if given.
    pub(super) fn seed(&self) -> Result<Option<u64>, ApiError> {
        self.get("seed")
            .map(|s| {
                s.parse::<u64>().map_err(|_| {
                    ApiError::new(
                        StatusCode::BAD_REQUEST,
                        format!(
                            "seed must be a number from 0 to 2^64-1, found {:?}",
                            clip(s)
                        ),
                    )
                })
            })
            .transpose()
    }

    /// The `n_move_rule` parameter, if given: 1 to [`crate::nmove::MAX_N`] plies.
    pub(super) fn n_move_rule(&self) -> Result<Option<u16>, ApiError> {
        let Some(s) = self.get("n_move_rule") else {
            return Ok(None);
        };
        match s.parse::<u16>() {
            Ok(n @ 1..=crate::nmove::MAX_N) => Ok(Some(n)),
            _ => Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                format!(
                    "n_move_rule must be a number of plies from 1 to {}, found {:?}",
                    crate::nmove::MAX_N,
                    clip(s)
                ),
            )),
        }
    }

    /// The `traps` parameter: how many of the opponent's moves a drawing move's traps look at,
    /// 1 to 3; `default` when not given.
    pub(super) fn traps(&self, default: u32) -> Result<u32, ApiError> {
        match self.get("traps") {
            None => Ok(default),
            Some(s) => match s.parse::<u32>() {
                Ok(n @ 1..=3) => Ok(n),
                _ => Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    format!(
                        "traps must be 1, 2 or 3 (moves of the opponent), found {:?}",
                        clip(s)
                    ),
                )),
            },
        }
    }

    /// Decodes `raw` (`application/x-www-form-urlencoded`), accepting the names in `allowed`
    /// and the rule switches, each once.
    ///
    /// # Errors
    /// 400 for an unknown or repeated name, naming it and the accepted ones.
    pub(super) fn parse(raw: Option<&str>, allowed: &[&str]) -> Result<Params, ApiError> {
        let pairs: Vec<(String, String)> = serde_urlencoded::from_str(raw.unwrap_or(""))
            .map_err(|e| bad(format!("malformed query string: {e}")))?;
        for (i, (name, _)) in pairs.iter().enumerate() {
            if !allowed.contains(&name.as_str()) && !is_switch(name) {
                let mut known: Vec<&str> = allowed.to_vec();
                known.extend(SWITCHES.iter().map(|s| s.name));
                return Err(bad(format!(
                    "unknown parameter {:?} (known: {})",
                    clip(name),
                    known.join(", ")
                )));
            }
            if pairs[..i].iter().any(|(n, _)| n == name) {
                return Err(bad(format!("parameter {name:?} given twice")));
            }
        }
        Ok(Params(pairs))
    }

    /// The value of `name`, if given.
    pub(super) fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The value of `name`.
    ///
    /// # Errors
    /// 400 when it is missing.
    pub(super) fn required(&self, name: &str) -> Result<&str, ApiError> {
        self.get(name)
            .ok_or_else(|| bad(format!("missing parameter {name:?}")))
    }

    /// The variant's name: `nine` unless given, as on the command line.
    pub(super) fn variant(&self) -> &str {
        self.get("variant").unwrap_or("nine")
    }

    /// The rule switches given.
    ///
    /// # Errors
    /// 400 for a value that is not one of the switch's names.
    pub(super) fn overrides(&self) -> Result<RuleOverrides, ApiError> {
        Ok(RuleOverrides::from_names(|name| self.get(name))?)
    }
}

fn bad(message: String) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, message)
}
