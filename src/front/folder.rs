//! Folders as a person names them: checked to be folders, and the one rule set a folder holds
//! found when the person does not name it.

use std::path::Path;
use std::sync::Arc;

use super::advice::solve_command;
use crate::error::Error;
use crate::invalid::InvalidInput;
use crate::rules::{RuleOverrides, Variant};
use crate::space::Sector;
use crate::store::{solved_rule_sets, solved_rule_sets_in, Database, Files};

/// Refuses a folder (`option` names it as the front-end's user wrote it, e.g. `--db`) that
/// exists and is not a folder; with `must_exist`, one that does not exist either.
///
/// # Errors
/// `Error::Input` for a path that is not a folder; `Error::Io` for one that cannot be read (or
/// does not exist, with `must_exist`).
pub fn check_folder(dir: &Path, option: Option<&str>, must_exist: bool) -> Result<(), Error> {
    match std::fs::metadata(dir) {
        Ok(meta) if !meta.is_dir() => Err(InvalidInput::Request(format!(
            "{}{}: not a folder (it holds a subfolder per variant and rule set)",
            option.map_or(String::new(), |o| format!("{o} ")),
            dir.display()
        ))
        .into()),
        Err(cause) if must_exist => Err(Error::Io {
            path: dir.to_path_buf(),
            cause,
        }),
        _ => Ok(()),
    }
}

/// What to say of a folder that holds no sector of `db`'s rule set: the message, with the
/// `morris solve` (or `morris tables`) that makes some, and that command.
pub fn nothing_solved(db: &Database) -> (String, String) {
    let missing = db.missing(Sector::start(db.variant()));
    let command = match missing.missing() {
        Some(m) => solve_command(m, false),
        None => String::from("morris solve"),
    };
    let what = if db.is_tables() {
        "no tables"
    } else {
        "no solved sectors"
    };
    let message = format!(
        "{what} of {} in {}; run `{command}`",
        db.variant().name(),
        db.dir().display()
    );
    (message, command)
}

/// Why a folder has no one rule set to open.
#[derive(Debug)]
pub enum NoOneRuleSet {
    /// Nothing of the rules asked for is solved there: what to say, and the command that
    /// solves something.
    Nothing {
        /// The message, with the command.
        message: String,
        /// The command.
        command: String,
    },
    /// Several rule sets are solved there: the message names them; a front-end adds how to
    /// name one in its own terms (the first of `names`, say).
    Several {
        /// The message.
        message: String,
        /// The variants' names, in the order of `morris variants`.
        names: Vec<String>,
    },
    /// The folder cannot be used.
    Error(Error),
}

impl From<Error> for NoOneRuleSet {
    fn from(e: Error) -> NoOneRuleSet {
        NoOneRuleSet::Error(e)
    }
}

/// The one rule set solved in `root` (sector files or tables) that agrees with `overrides`:
/// what a reader opens when it is not told the variant.
///
/// # Errors
/// [`NoOneRuleSet`]: none, several, or a folder that cannot be used.
pub fn the_rule_set(root: &Path, overrides: RuleOverrides) -> Result<Variant, NoOneRuleSet> {
    check_folder(root, None, false)?;
    let found = solved_rule_sets(root, overrides)?;
    one_of(found, &root.display().to_string(), root, overrides)
}

/// [`the_rule_set`] among a caller's files (see `Database::from_files`), named `what` in
/// messages.
///
/// # Errors
/// As [`the_rule_set`].
pub fn the_rule_set_in(
    files: Arc<dyn Files>,
    root: &Path,
    what: &str,
    overrides: RuleOverrides,
) -> Result<Variant, NoOneRuleSet> {
    let found = solved_rule_sets_in(files, root, overrides)?;
    one_of(found, what, root, overrides)
}

/// The one rule set `found` in `what` (the folder `root`), or why there is not one.
fn one_of(
    found: Vec<Variant>,
    what: &str,
    root: &Path,
    overrides: RuleOverrides,
) -> Result<Variant, NoOneRuleSet> {
    let name = |v: &Variant| format!("{} ({})", v.name(), v.rules().id());
    match found.as_slice() {
        [one] => Ok(one.clone()),
        [] => {
            let command = format!("morris solve --variant VARIANT --db {}", root.display());
            let message = format!(
                "{what} holds no solved rule set{}: it holds a subfolder per variant and rule set, as \
                 `{command}` or `morris tables` writes it",
                if overrides == RuleOverrides::default() {
                    ""
                } else {
                    " with these rules"
                },
            );
            Err(NoOneRuleSet::Nothing { message, command })
        }
        many => Err(NoOneRuleSet::Several {
            message: format!(
                "{what} holds {} rule sets ({})",
                many.len(),
                many.iter().map(name).collect::<Vec<_>>().join(", ")
            ),
            names: many.iter().map(|v| v.name().to_string()).collect(),
        }),
    }
}
