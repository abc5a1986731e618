//! The query string of an API request: known names only, each at most once.

use axum::http::StatusCode;

use super::answer::ApiError;
use crate::rules::{RuleOverrides, RuleSwitch};

/// The rule switches every API route takes, by their command-line names.
pub const RULES: [&str; 4] = ["flying", "removal", "phases", "full-board"];

use crate::rules::clip;

/// The decoded parameters of a query string.
#[derive(Debug)]
pub struct Params(Vec<(String, String)>);

impl Params {
    /// Decodes `raw` (`application/x-www-form-urlencoded`), accepting the names in `allowed`
    /// and the rule switches, each once.
    ///
    /// # Errors
    /// 400 for an unknown or repeated name, naming it and the accepted ones.
    pub fn parse(raw: Option<&str>, allowed: &[&str]) -> Result<Params, ApiError> {
        let pairs: Vec<(String, String)> = serde_urlencoded::from_str(raw.unwrap_or(""))
            .map_err(|e| bad(format!("malformed query string: {e}")))?;
        for (i, (name, _)) in pairs.iter().enumerate() {
            if !allowed.contains(&name.as_str()) && !RULES.contains(&name.as_str()) {
                let mut known: Vec<&str> = allowed.to_vec();
                known.extend(RULES);
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
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The value of `name`.
    ///
    /// # Errors
    /// 400 when it is missing.
    pub fn required(&self, name: &str) -> Result<&str, ApiError> {
        self.get(name)
            .ok_or_else(|| bad(format!("missing parameter {name:?}")))
    }

    /// The variant's name: `nine` unless given, as on the command line.
    pub fn variant(&self) -> &str {
        self.get("variant").unwrap_or("nine")
    }

    /// The rule switches given.
    ///
    /// # Errors
    /// 400 for a value that is not one of the switch's names.
    pub fn overrides(&self) -> Result<RuleOverrides, ApiError> {
        fn parse<T: RuleSwitch>(p: &Params) -> Result<Option<T>, ApiError> {
            p.get(T::NAME)
                .map(|v| {
                    T::parse(v).map_err(|_| {
                        let names: Vec<&str> = T::ALL.iter().map(|t| t.name()).collect();
                        bad(format!(
                            "unknown {} value {:?} (expected {})",
                            T::NAME,
                            clip(v),
                            names.join(", ")
                        ))
                    })
                })
                .transpose()
        }
        Ok(RuleOverrides {
            flying: parse(self)?,
            removal: parse(self)?,
            phases: parse(self)?,
            full_board: parse(self)?,
        })
    }
}

fn bad(message: String) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, message)
}
