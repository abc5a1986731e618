//! Advice: the one place where a `morris` command line is written for a user, from an error's
//! data (a missing sector, an old folder), and the messages that carry it.

use crate::error::{Error, Missing};
use crate::rules::Rules;

/// The options that select a variant and rule set: `--variant nine --flying three ...`, every
/// switch named, so that the command means the same whatever the defaults become.
pub fn game_options(variant: &str, rules: &Rules) -> String {
    let mut out = format!("--variant {variant}");
    for (name, value) in rules.switches() {
        out.push_str(&format!(" --{name} {value}"));
    }
    out
}

/// The `morris` command that fills in what `m` says is missing: its sector alone (with
/// `sector`), or its whole rule set; for tables, the `morris tables` that builds them (tables
/// are built whole from a solved database folder).
pub fn solve_command(m: &Missing, sector: bool) -> String {
    if m.tables {
        return format!(
            "morris tables {} --db DB --out {}",
            game_options(&m.variant, &m.rules),
            m.db.display()
        );
    }
    let mut command = format!(
        "morris solve {} --db {}",
        game_options(&m.variant, &m.rules),
        m.db.display()
    );
    if sector {
        command.push_str(&format!(" --sector {}", m.sector));
    }
    command
}

/// The `morris solve` of the whole game of a missing sector's rule set, without a folder (for a
/// server, whose folders a client must not see).
pub fn whole_game_command(m: &Missing) -> String {
    format!("morris solve {}", game_options(&m.variant, &m.rules))
}

/// The command that fills what `e` says is missing, when it says so: a missing sector's
/// `solve --sector` (or `tables`), an old folder's whole solve.
pub fn command_of(e: &Error) -> Option<String> {
    match e {
        Error::Missing(m) => Some(solve_command(m, true)),
        Error::OldFormat { missing, .. } => Some(solve_command(missing, false)),
        _ => None,
    }
}

/// The message of an error as every front-end gives it to a person: the error, and for a
/// missing sector or an old folder the command that cures it.
pub fn message(e: &Error) -> String {
    match (e, command_of(e)) {
        (Error::Missing(_), Some(command)) => format!("{e}; run `{command}`"),
        (_, Some(command)) => format!("{e}: `{command}`"),
        (_, None) => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;
    use crate::space::Sector;
    use crate::store::Database;

    #[test]
    fn a_missing_sector_names_every_switch_and_its_folder() {
        let v = Variant::by_name("six").expect("six");
        let db = Database::new(std::path::Path::new("/data/db"), &v).expect("a database");
        let e = db.missing("3-3-0-0".parse::<Sector>().expect("sector"));
        let m = e.missing().expect("missing");
        assert_eq!(
            solve_command(m, true),
            "morris solve --variant six --flying never --removal standard --phases separate \
             --full-board loss --db /data/db --sector 3-3-0-0"
        );
        assert_eq!(
            whole_game_command(m),
            "morris solve --variant six --flying never --removal standard --phases separate \
             --full-board loss"
        );
        assert!(message(&e).ends_with("; run `morris solve --variant six --flying never --removal standard --phases separate --full-board loss --db /data/db --sector 3-3-0-0`"));
    }
}
