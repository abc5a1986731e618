//! Tests that need a program this machine may lack (Chromium, chromedriver, `mpirun`, Python,
//! a C compiler): on a newcomer's machine they say loudly that they were not run, why, and the
//! one command that installs what they need, and pass; under `CI=true` the absence fails them,
//! so that CI can never skip them silently.
#![allow(dead_code)]

use std::path::Path;

/// A program a test needs: found at a path, or on `PATH` by name.
pub struct Needed {
    /// A path (`/usr/bin/chromium`) or a name looked up on `PATH` (`mpirun`).
    pub program: &'static str,
    /// The command that installs it on this project's machines.
    pub install: &'static str,
}

/// Whether `program` is there: a path that exists, or a name found on `PATH`.
pub fn found(program: &str) -> bool {
    if program.contains('/') {
        return Path::new(program).exists();
    }
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

/// Whether `test` can run: every program in `needs` is there. When one is missing, this
/// prints why and how to install it, and returns `false` (the caller returns, and the test
/// passes without running); under `CI=true` it panics instead.
pub fn present(test: &str, needs: &[Needed]) -> bool {
    let missing: Vec<&Needed> = needs.iter().filter(|n| !found(n.program)).collect();
    if missing.is_empty() {
        return true;
    }
    let names: Vec<&str> = missing.iter().map(|n| n.program).collect();
    let mut install: Vec<&str> = missing.iter().map(|n| n.install).collect();
    install.dedup();
    let message = format!(
        "{test}: NOT RUN: {} not found; install with `{}`",
        names.join(", "),
        install.join(" && ")
    );
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{message} (CI=true: a test that cannot run fails)");
    }
    eprintln!("\n*** {message} ***\n");
    false
}

/// The Python interpreter that has every module of `modules` (`$MORRIS_PYTHON`, else
/// `python3`), or `None` after saying why `test` is not run (under `CI=true` it panics).
pub fn python_with(test: &str, modules: &[&str]) -> Option<String> {
    let python = std::env::var("MORRIS_PYTHON").unwrap_or_else(|_| "python3".to_string());
    let import = format!("import {}", modules.join(", "));
    let has = std::process::Command::new(&python)
        .args(["-c", &import])
        .output()
        .is_ok_and(|o| o.status.success());
    if has {
        return Some(python);
    }
    let message = format!(
        "{test}: NOT RUN: {python} lacks the Python modules {}; install with \
         `python3 -m venv target/py && target/py/bin/pip install {}` and run with \
         MORRIS_PYTHON=target/py/bin/python (.ci/run does)",
        modules.join(", "),
        modules.join(" ")
    );
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{message} (CI=true: a test that cannot run fails)");
    }
    eprintln!("\n*** {message} ***\n");
    None
}

/// Runs `scripts/SCRIPT` of the checkout with `python` (as [`python_with`] found it) and
/// `args`, asserting that it succeeds; returns its standard output.
pub fn run_script<S: AsRef<std::ffi::OsStr>>(python: &str, script: &str, args: &[S]) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scripts")
        .join(script);
    let out = std::process::Command::new(python)
        .arg(&path)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {python} {}: {e}", path.display()));
    assert!(
        out.status.success(),
        "{script} {:?}: {}{}",
        args.iter().map(|a| a.as_ref()).collect::<Vec<_>>(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}
