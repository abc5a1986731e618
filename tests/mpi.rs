//! `solve --mpi` under Open MPI's `mpirun`: the same files as one process, byte for byte; a
//! worker killed in the middle of a unit ends the job, and the same command run again
//! finishes the database, again byte-identical. Needs `--features mpi` and `mpirun`: without
//! the feature a single test says how to run them; without `mpirun` each says it did not run.

mod prerequisite;

/// Built without the `mpi` feature, the MPI tests do not exist: this says how to run them.
#[cfg(not(feature = "mpi"))]
#[test]
fn mpi_tests_need_the_mpi_feature() {
    eprintln!(
        "\n*** tests/mpi.rs: NOT RUN: built without the mpi feature; run `cargo test --release --features mpi --test mpi` (needs `sudo apt-get install -y openmpi-bin libopenmpi-dev libclang-dev`; .ci/run does) ***\n"
    );
}

#[cfg(feature = "mpi")]
mod with_mpi {
    use super::prerequisite;

    use std::collections::BTreeMap;
    use std::fs;
    use std::io::{BufRead, BufReader};
    use std::path::{Path, PathBuf};
    use std::process::{Child, Command, Output, Stdio};
    use std::sync::mpsc;
    use std::sync::OnceLock;
    use std::time::{Duration, Instant};

    const MORRIS: &str = env!("CARGO_BIN_EXE_morris");

    /// Whether `mpirun` is installed (see `prerequisite`).
    fn mpirun_present(test: &str) -> bool {
        prerequisite::present(
            test,
            &[prerequisite::Needed {
                program: "mpirun",
                install: "sudo apt-get install -y openmpi-bin libopenmpi-dev libclang-dev",
            }],
        )
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// `mpirun -np N morris ARGS`, set up for a test machine: more ranks than cores
    /// (`--oversubscribe`), root allowed (CI containers run as root), and no single-copy
    /// shared-memory transfers (containers often forbid the ptrace they need).
    fn mpirun(ranks: usize, args: &[&str]) -> Command {
        let mut c = Command::new("mpirun");
        c.args(["--oversubscribe", "-np", &ranks.to_string(), MORRIS])
            .args(args)
            .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
            .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
            .env("OMPI_MCA_btl_vader_single_copy_mechanism", "none")
            .stdin(Stdio::null());
        c
    }

    fn text(o: &Output) -> String {
        String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr)
    }

    fn run(mut c: Command) -> Output {
        c.output()
            .expect("mpirun not found: install Open MPI (Debian: openmpi-bin libopenmpi-dev)")
    }

    /// The sector files and the record of planned sectors under a database folder by name,
    /// and the names of any other files (lock files excepted).
    fn files(db: &Path) -> (BTreeMap<String, Vec<u8>>, Vec<String>) {
        let mut sectors = BTreeMap::new();
        let mut others = Vec::new();
        for dir in fs::read_dir(db).unwrap().flatten() {
            for e in fs::read_dir(dir.path()).unwrap().flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                if name.ends_with(".sec") || name == "planned" {
                    sectors.insert(name, fs::read(e.path()).unwrap());
                } else if !name.ends_with(".lock") {
                    others.push(name);
                }
            }
        }
        (sectors, others)
    }

    fn assert_same(expected: &BTreeMap<String, Vec<u8>>, db: &Path, what: &str) {
        let (got, others) = files(db);
        assert!(others.is_empty(), "{what}: left behind {others:?}");
        assert_eq!(
            got.keys().collect::<Vec<_>>(),
            expected.keys().collect::<Vec<_>>(),
            "{what}"
        );
        for (name, bytes) in expected {
            assert!(got[name] == *bytes, "{what}: {name} differs");
        }
    }

    /// A single-process solve's files, made once per test run.
    fn reference(name: &str, args: &[&str]) -> &'static BTreeMap<String, Vec<u8>> {
        static SIX: OnceLock<BTreeMap<String, Vec<u8>>> = OnceLock::new();
        static NINE: OnceLock<BTreeMap<String, Vec<u8>>> = OnceLock::new();
        let cell = if name == "six" { &SIX } else { &NINE };
        cell.get_or_init(|| {
            let db = scratch(&format!("mpi-reference-{name}"));
            let out = Command::new(MORRIS)
                .args(args)
                .args(["--quiet", "--db", db.to_str().unwrap()])
                .output()
                .unwrap();
            assert!(out.status.success(), "{}", text(&out));
            files(&db).0
        })
    }

    const SIX: &[&str] = &["--variant", "six", "solve", "--threads", "1"];
    const NINE5: &[&str] = &[
        "--variant",
        "nine",
        "solve",
        "--max-pieces",
        "5",
        "--threads",
        "1",
    ];

    #[test]
    fn three_ranks_write_the_files_of_one_process() {
        if !mpirun_present("three_ranks_write_the_files_of_one_process") {
            return;
        }
        for (name, args, units) in [("six", SIX, 71), ("nine", NINE5, 6)] {
            let expected = reference(name, args);
            let db = scratch(&format!("mpi-{name}"));
            let mut mpi_args = args.to_vec();
            mpi_args.extend(["--mpi", "--db", db.to_str().unwrap()]);
            let out = run(mpirun(3, &mpi_args));
            let log = text(&out);
            assert!(out.status.success(), "{name}: {log}");
            assert_same(expected, &db, name);
            // Rank 0 planned and handed out; both workers solved something and said so.
            assert!(
                log.contains(&format!(
                    "{units} work units ({units} solved now, 0 already done)"
                )),
                "{log}"
            );
            assert!(log.contains("[rank 0 ") && log.contains("workers"), "{log}");
            for w in [1, 2] {
                assert!(
                    log.contains(&format!("-> rank {w}")),
                    "{name}: rank {w} idle: {log}"
                );
                assert!(
                    log.lines()
                        .any(|l| l.starts_with(&format!("[rank {w} ")) && l.contains("] solved ")),
                    "{log}"
                );
            }
            if name == "six" {
                assert!(log.contains("start position: draw"), "{log}");
            }
            // Run again: everything is skipped, nothing changes.
            let out = run(mpirun(3, &mpi_args));
            assert!(out.status.success(), "{}", text(&out));
            assert!(
                text(&out).contains(&format!("({} solved now, {units} already done)", 0)),
                "{}",
                text(&out)
            );
            assert_same(expected, &db, name);
        }
    }

    #[test]
    fn one_rank_alone_solves_everything() {
        if !mpirun_present("one_rank_alone_solves_everything") {
            return;
        }
        let expected = reference("six", SIX);
        let db = scratch("mpi-one-rank");
        let mut args = SIX.to_vec();
        args.extend(["--mpi", "--quiet", "--db", db.to_str().unwrap()]);
        let out = run(mpirun(1, &args));
        assert!(out.status.success(), "{}", text(&out));
        assert_same(expected, &db, "one rank");
    }

    /// Every file under a database folder by name, lock files left out.
    fn all_files(db: &Path) -> BTreeMap<String, Vec<u8>> {
        let mut out = BTreeMap::new();
        for dir in fs::read_dir(db).unwrap().flatten() {
            for e in fs::read_dir(dir.path()).unwrap().flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                if !name.ends_with(".lock") {
                    out.insert(name, fs::read(e.path()).unwrap());
                }
            }
        }
        out
    }

    /// `solve --mpi --compact`: three ranks (and one alone) end with the tables a single
    /// compact process writes, byte for byte, no sector file left; the workers turn the units
    /// whose last reader they solved.
    #[test]
    fn three_ranks_solve_compact_as_one_process_does() {
        if !mpirun_present("three_ranks_solve_compact_as_one_process_does") {
            return;
        }
        let one = scratch("mpi-compact-one-process");
        let out = Command::new(MORRIS)
            .args(SIX)
            .args(["--compact", "--quiet", "--db", one.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out));
        let expected = all_files(&one);
        assert!(expected.keys().any(|k| k.ends_with(".wdl")));
        assert!(!expected.keys().any(|k| k.ends_with(".sec")));
        for ranks in [3, 1] {
            let db = scratch(&format!("mpi-compact-{ranks}"));
            let mut args = SIX.to_vec();
            args.extend(["--mpi", "--compact", "--db", db.to_str().unwrap()]);
            let out = run(mpirun(ranks, &args));
            let log = text(&out);
            assert!(out.status.success(), "{ranks} ranks: {log}");
            assert!(all_files(&db) == expected, "{ranks} ranks: other files");
            if ranks == 3 {
                assert!(
                    log.lines()
                        .any(|l| l.starts_with("[rank ") && l.contains("] turned ")),
                    "{log}"
                );
            }
        }
    }

    /// Kills `child` and fails when it runs past `limit`.
    fn wait_for(child: &mut Child, limit: Duration, what: &str) -> std::process::ExitStatus {
        let start = Instant::now();
        loop {
            if let Some(status) = child.try_wait().unwrap() {
                return status;
            }
            if start.elapsed() > limit {
                let _ = child.kill();
                panic!("{what} still running after {limit:?}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    #[test]
    fn a_worker_killed_mid_unit_ends_the_job_and_a_rerun_finishes_identically() {
        if !mpirun_present("a_worker_killed_mid_unit_ends_the_job_and_a_rerun_finishes_identically")
        {
            return;
        }
        let expected = reference("nine", NINE5);
        let db = scratch("mpi-kill");
        let mut args = NINE5.to_vec();
        args.extend(["--mpi", "--db", db.to_str().unwrap()]);
        let mut child = mpirun(3, &args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("mpirun not found");
        // Read the ranks' log as it comes: each worker names its pid, then each unit it begins.
        let (lines, log) = mpsc::channel::<String>();
        let stderr = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if lines.send(line).is_err() {
                    break;
                }
            }
        });
        let mut pids = BTreeMap::new();
        let mut seen = Vec::new();
        let victim = loop {
            let line = log
                .recv_timeout(Duration::from_secs(120))
                .unwrap_or_else(|_| panic!("no unit worth killing began: {seen:#?}"));
            seen.push(line.clone());
            let Some(rest) = line.strip_prefix("[rank ") else {
                continue;
            };
            let rank: usize = rest.split(' ').next().unwrap().parse().unwrap();
            if let Some(pid) = line.split("] pid ").nth(1) {
                pids.insert(rank, pid.split(' ').next().unwrap().to_string());
            }
            // A unit of millions of slots: it takes seconds with one thread.
            let big = ["3-5-0-0", "4-5-0-0", "5-5-0-0"];
            if rank > 0 && line.contains("] solving ") && big.iter().any(|u| line.ends_with(u)) {
                break (rank, line);
            }
        };
        std::thread::sleep(Duration::from_millis(700));
        let pid = &pids[&victim.0];
        let killed = Command::new("kill").args(["-KILL", pid]).status().unwrap();
        assert!(killed.success());
        let status = wait_for(&mut child, Duration::from_secs(60), "mpirun after the kill");
        assert!(!status.success(), "the job must fail when a rank dies");
        let rest: Vec<String> = log.try_iter().collect();
        let (partial, _) = files(&db);
        assert!(
            !partial.is_empty() && partial.len() < expected.len(),
            "the kill did not land mid-run ({} of {} files): {victim:?}\n{rest:#?}",
            partial.len(),
            expected.len()
        );
        // The killed unit is not there.
        let unit = victim.1.rsplit("solving ").next().unwrap();
        for s in unit.split(' ') {
            assert!(!partial.contains_key(&format!("{s}.sec")), "{s} survived");
        }
        // The same command again resumes: finished units are skipped, the rest redone.
        let out = run(mpirun(3, &args));
        let again = text(&out);
        assert!(out.status.success(), "{again}");
        assert!(
            again.contains("6 work units, ") && !again.contains(" 0 already solved"),
            "nothing was skipped: {again}"
        );
        assert_same(expected, &db, "after the kill and a rerun");
    }

    /// Nine's endgames up to six pieces a side (454 M slots, about two minutes on two cores for
    /// each run): three ranks write the files of one process, byte for byte.
    #[test]
    fn nine_to_six_pieces_with_three_ranks_equals_one_process() {
        if !mpirun_present("nine_to_six_pieces_with_three_ranks_equals_one_process") {
            return;
        }
        let args: &[&str] = &["--variant", "nine", "solve", "--max-pieces", "6"];
        let one = scratch("mpi-nine6-reference");
        let out = Command::new(MORRIS)
            .args(args)
            .args(["--threads", "2", "--quiet", "--db", one.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out));
        let expected = files(&one).0;
        // The sector files of W and B from 3 to 6, and the record of the plan.
        assert_eq!(expected.len(), 17, "W and B from 3 to 6");
        let db = scratch("mpi-nine6");
        let mut mpi_args = args.to_vec();
        mpi_args.extend(["--threads", "1", "--mpi", "--db", db.to_str().unwrap()]);
        let out = run(mpirun(3, &mpi_args));
        assert!(out.status.success(), "{}", text(&out));
        assert_same(&expected, &db, "nine to 6 pieces");
    }
}
