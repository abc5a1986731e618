//! Compact tables (`morris tables`, docs/tables.md) answer exactly what the database answers:
//! every position of six and seven, a random 1% of nine `--max-pieces 6`; `stats` alike; a
//! flipped byte anywhere in a table file is reported by `check`, `query` and `verify`, never
//! answered.

use std::fs;
use std::path::{Path, PathBuf};

mod common;

use common::{output_text, run_morris, scratch, Rng};
use morris::store::{Database, READER_CACHE_BYTES};
use morris::{Color, Sector, Variant};

/// Solves `variant` (with `extra` arguments) into `DIR/db` and builds its tables into
/// `DIR/tables`; returns the two folders.
fn solve_and_build(name: &str, variant: &str, extra: &[&str]) -> (PathBuf, PathBuf) {
    let dir = scratch(name);
    let (db, tables) = (dir.join("db"), dir.join("tables"));
    let db_arg = db.to_str().unwrap();
    let mut args = vec!["--variant", variant, "solve", "--quiet", "--db", db_arg];
    args.extend(extra);
    let out = run_morris(&args, "");
    assert!(out.status.success(), "solve: {}", output_text(&out));
    let out = run_morris(
        &[
            "--variant",
            variant,
            "tables",
            "--db",
            db_arg,
            "--out",
            tables.to_str().unwrap(),
            "--quiet",
            "--json",
        ],
        "",
    );
    assert!(out.status.success(), "tables: {}", output_text(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let (wdl, depth, database) = (
        json["wdl_bytes"].as_u64().unwrap(),
        json["depth_bytes"].as_u64().unwrap(),
        json["database_bytes"].as_u64().unwrap(),
    );
    assert!(
        wdl + depth < database,
        "{variant}: tables of {wdl} + {depth} bytes, database {database}"
    );
    (db, tables)
}

/// Opens the database and the tables of `variant` (default rules) side by side.
fn open_both(db: &Path, tables: &Path, variant: &Variant) -> (Database, Database) {
    let d = Database::reader(db, variant, READER_CACHE_BYTES).unwrap();
    let t = Database::tables(tables, variant, READER_CACHE_BYTES).unwrap();
    assert!(t.is_tables() && !d.is_tables());
    (d, t)
}

/// Compares the cells of the slots `keep` selects in every sector; returns how many slots
/// and how many positions (used slots) were compared.
fn compare(db: &Database, tables: &Database, mut keep: impl FnMut() -> bool) -> (u64, u64) {
    let sectors = db.present();
    assert_eq!(tables.present(), sectors, "the same sectors");
    let (mut slots, mut positions) = (0, 0);
    for s in sectors {
        let (d, t) = (db.sector(s).unwrap(), tables.sector(s).unwrap());
        assert_eq!(t.stats(), d.stats(), "{s}: statistics");
        assert_eq!(
            t.database_checksum(),
            d.database_checksum(),
            "{s}: source checksum"
        );
        let index = db.index(s);
        index.for_each_slot(0, index.size(), |slot, pos| {
            if !keep() {
                return;
            }
            slots += 1;
            positions += pos.is_some() as u64;
            let expected = d.cell(slot).unwrap();
            assert_eq!(expected.is_some(), pos.is_some(), "{s} slot {slot}: used");
            // Both ways a reader asks: knowing the position, and by the slot alone.
            assert_eq!(
                t.cell_of(slot, pos.as_ref()).unwrap(),
                expected,
                "{s} slot {slot}"
            );
            if slot % 7 == 0 {
                assert_eq!(t.cell(slot).unwrap(), expected, "{s} slot {slot} unranked");
            }
        });
    }
    (slots, positions)
}

/// `stats --json` and `stats --depths` answer alike from the database and from the tables.
fn stats_alike(variant: &str, db: &Path, tables: &Path) {
    let stats = |flag: &str, dir: &Path, what: &str| {
        let out = run_morris(
            &[
                "--variant",
                variant,
                "stats",
                flag,
                dir.to_str().unwrap(),
                what,
                "--quiet",
            ],
            "",
        );
        assert!(out.status.success(), "stats {flag}: {}", output_text(&out));
        String::from_utf8(out.stdout).unwrap()
    };
    for what in ["--json", "--depths"] {
        assert_eq!(
            stats("--tables", tables, what),
            stats("--db", db, what),
            "{variant}: stats {what} --tables and --db"
        );
    }
}

#[test]
fn every_position_of_six_and_seven_equals_the_database() {
    for variant in ["six", "seven"] {
        let (db, tables) = solve_and_build(&format!("tables-{variant}"), variant, &[]);
        let v = Variant::by_name(variant).unwrap();
        let (d, t) = open_both(&db, &tables, &v);
        let (slots, positions) = compare(&d, &t, || true);
        let expected: u64 = d.present().iter().map(|&s| d.index(s).size()).sum();
        assert_eq!(slots, expected, "{variant}: every slot compared");
        let stats: u64 = d
            .present()
            .iter()
            .map(|&s| d.sector(s).unwrap().stats().positions)
            .sum();
        assert_eq!(positions, stats, "{variant}: every position compared");
        stats_alike(variant, &db, &tables);
        // A second run keeps every table built from the same database files.
        let out = run_morris(
            &[
                "--variant",
                variant,
                "tables",
                "--db",
                db.to_str().unwrap(),
                "--out",
                tables.to_str().unwrap(),
                "--quiet",
                "--json",
            ],
            "",
        );
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let sectors = json["sectors"].as_array().unwrap();
        assert!(sectors.iter().all(|s| s["kept"] == true), "{variant}: kept");
        eprintln!("{variant}: {positions} positions in {slots} slots alike");
    }
}

#[test]
fn a_random_percent_of_nine_to_six_pieces_equals_the_database() {
    let (db, tables) = solve_and_build("tables-nine6", "nine", &["--max-pieces", "6"]);
    let v = Variant::by_name("nine").unwrap();
    let (d, t) = open_both(&db, &tables, &v);
    let mut rng = Rng::new(26);
    let (slots, positions) = compare(&d, &t, || rng.below(100) == 0);
    let all: u64 = d.present().iter().map(|&s| d.index(s).size()).sum();
    assert!(
        slots * 100 > all * 95 / 100,
        "{slots} of {all} slots compared"
    );
    stats_alike("nine", &db, &tables);
    eprintln!("nine --max-pieces 6: {positions} positions in {slots} of {all} slots alike");
}

/// Copies the folder `from` to `to` (files only, one level of subfolders).
fn copy_tree(from: &Path, to: &Path) {
    let _ = fs::remove_dir_all(to);
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::create_dir_all(to).unwrap();
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}

/// Runs `morris --variant six ARGS --tables DIR`, returning success and the text.
fn six_on(tables: &Path, args: &[&str], stdin: &str) -> (bool, String) {
    let mut all = vec!["--variant", "six"];
    all.extend(args);
    all.extend(["--tables", tables.to_str().unwrap()]);
    let out = run_morris(&all, stdin);
    (out.status.success(), output_text(&out))
}

#[test]
fn a_flipped_byte_is_reported_never_answered() {
    let (_, tables) = solve_and_build("tables-six-flip", "six", &[]);
    let v = Variant::by_name("six").unwrap();
    let t = Database::tables(&tables, &v, READER_CACHE_BYTES).unwrap();
    // The largest sector, its middle block, and a position whose slot lies in it.
    let sector: Sector = *t
        .present()
        .iter()
        .max_by_key(|&&s| t.index(s).size())
        .unwrap();
    let index = t.index(sector);
    let rule_dir = t.dir().to_path_buf();
    let file = t.sector(sector).unwrap();
    for (kind, where_) in [
        ("wdl", "block"),
        ("dtm", "block"),
        ("wdl", "header"),
        ("dtm", "index"),
    ] {
        let copy = tables.parent().unwrap().join("flipped");
        copy_tree(&tables, &copy);
        let dir = copy.join(rule_dir.file_name().unwrap());
        let path = dir.join(format!("{sector}.{kind}"));
        let mut bytes = fs::read(&path).unwrap();
        let per = u32::from_le_bytes(bytes[24..28].try_into().unwrap()) as u64;
        let blocks = u64_at(&bytes, 296);
        let (index_at, data_at) = (u64_at(&bytes, 320) as usize, u64_at(&bytes, 328) as usize);
        let block = blocks / 2;
        let entry = index_at + 16 * block as usize;
        let at = match where_ {
            "block" => data_at + u64_at(&bytes, entry) as usize + 5,
            "header" => 250,
            _ => entry + 3,
        };
        bytes[at] ^= 0x10;
        fs::write(&path, &bytes).unwrap();
        // A won or lost position of the damaged block (the depth file is read only for those).
        let slots = block * per..((block + 1) * per).min(index.size());
        let position = slots
            .filter_map(|slot| Some((index.position(slot)?, file.cell(slot).unwrap()?)))
            .find(|(_, value)| value.depth().is_some())
            .map(|(pos, _)| pos.to_notation(&v, Color::White))
            .expect("a won or lost position in the block");
        let name = format!("{sector}.{kind}");

        let (ok, text) = six_on(&copy, &["check"], "");
        assert!(!ok, "check passed a flipped {kind} {where_} byte: {text}");
        assert!(text.contains(&name), "check names the file: {text}");
        if where_ == "block" {
            assert!(
                text.contains(&format!("block {block}")),
                "check names the block: {text}"
            );
        }
        let (ok, text) = six_on(&copy, &["verify"], "");
        assert!(!ok, "verify passed a flipped {kind} {where_} byte: {text}");
        assert!(text.contains(&name), "verify names the file: {text}");

        let (ok, text) = six_on(&copy, &["query", "--json", &position], "");
        assert!(
            !ok,
            "query answered from a flipped {kind} {where_} byte: {text}"
        );
        assert!(text.contains(&name), "query names the file: {text}");
        assert!(!text.contains("\"value\""), "no value answered: {text}");
    }
}

/// A way of damaging a table file.
type Damager<'a> = Box<dyn Fn() + 'a>;

/// A rerun of `tables` keeps nothing it has not checked: a table file truncated, extended,
/// with a flipped block byte or a damaged block index, the win/draw/loss and depth files
/// swapped, or a depth file deleted, is rebuilt (and said so), to the same bytes as before;
/// then `check --tables` holds and counts both files of every sector.
#[test]
fn a_rerun_rebuilds_every_table_that_fails_its_check() {
    let (db, tables) = solve_and_build("tables-six-rerun", "six", &[]);
    let v = Variant::by_name("six").unwrap();
    let dir = Database::tables(&tables, &v, 0)
        .unwrap()
        .dir()
        .to_path_buf();
    let sector = "4-4-0-0";
    let (wdl, dtm) = (
        dir.join(format!("{sector}.wdl")),
        dir.join(format!("{sector}.dtm")),
    );
    let (wdl_bytes, dtm_bytes) = (fs::read(&wdl).unwrap(), fs::read(&dtm).unwrap());
    let index_at = u64_at(&wdl_bytes, 320) as usize;
    let data_at = u64_at(&wdl_bytes, 328) as usize;
    let damage: Vec<(&str, Damager)> = vec![
        (
            "truncated",
            Box::new(|| fs::write(&wdl, &wdl_bytes[..4096]).unwrap()),
        ),
        (
            "extended",
            Box::new(|| {
                let mut b = wdl_bytes.clone();
                b.extend_from_slice(&[0; 100]);
                fs::write(&wdl, b).unwrap()
            }),
        ),
        (
            "block byte",
            Box::new(|| {
                let mut b = wdl_bytes.clone();
                b[data_at + 7] ^= 0x21;
                fs::write(&wdl, b).unwrap()
            }),
        ),
        (
            "block index",
            Box::new(|| {
                let mut b = dtm_bytes.clone();
                b[index_at + 3] ^= 0x04;
                fs::write(&dtm, b).unwrap()
            }),
        ),
        (
            "swapped",
            Box::new(|| {
                fs::write(&wdl, &dtm_bytes).unwrap();
                fs::write(&dtm, &wdl_bytes).unwrap();
            }),
        ),
        ("depth deleted", Box::new(|| fs::remove_file(&dtm).unwrap())),
    ];
    let (dbs, ts) = (db.to_str().unwrap(), tables.to_str().unwrap());
    for (case, damage) in &damage {
        damage();
        let (ok, text) = six_on(&tables, &["check"], "");
        if *case == "depth deleted" {
            // A sector without its depth file is a WDL-only sector, not a fault.
            assert!(
                ok && text.contains("1 sectors are win/draw/loss tables"),
                "{text}"
            );
        } else {
            assert!(!ok, "{case}: check holds: {text}");
        }
        let out = run_morris(
            &["--variant", "six", "tables", "-q", "--db", dbs, "--out", ts],
            "",
        );
        let text = output_text(&out);
        assert!(out.status.success(), "{case}: {text}");
        if *case != "depth deleted" {
            assert!(
                text.contains(&format!("rebuilding {sector}: its tables fail their check")),
                "{case}: {text}"
            );
        }
        assert_eq!(fs::read(&wdl).unwrap(), wdl_bytes, "{case}");
        assert_eq!(fs::read(&dtm).unwrap(), dtm_bytes, "{case}");
        let (ok, text) = six_on(&tables, &["check"], "");
        assert!(ok, "{case}: {text}");
    }
    let sectors = Database::tables(&tables, &v, 0).unwrap().present().len();
    let (_, text) = six_on(&tables, &["check"], "");
    assert!(
        text.contains(&format!(
            "checked {} files of {sectors} sectors",
            2 * sectors
        )),
        "{text}"
    );
    // Without its depth table a sector answers values without depths, and says so.
    let t = Database::tables(&tables, &v, READER_CACHE_BYTES).unwrap();
    let s: Sector = sector.parse().unwrap();
    let (index, file) = (t.index(s), t.sector(s).unwrap());
    let position = (0..index.size())
        .filter_map(|slot| Some((index.position(slot)?, file.cell(slot).unwrap()?)))
        .find(|(_, value)| value.depth().is_some())
        .map(|(pos, _)| pos.to_notation(&v, Color::White))
        .expect("a won or lost position");
    drop((file, t));
    fs::remove_file(&dtm).unwrap();
    let (ok, text) = six_on(&tables, &["query", "--json", &position], "");
    assert!(
        ok && text.contains(r#""depth":null,"metric":null"#),
        "{text}"
    );
    let (ok, text) = six_on(&tables, &["check"], "");
    assert!(
        ok && !text.contains("FAULT") && !text.contains("No such file"),
        "{text}"
    );
    fs::write(&dtm, &dtm_bytes).unwrap();
}

/// `tables --out` inside the database folder (or the folder itself) is refused before
/// anything is written.
#[test]
fn tables_out_inside_the_database_is_refused() {
    let (db, _) = solve_and_build("tables-six-inside", "six", &[]);
    let rules = fs::read_dir(&db).unwrap().next().unwrap().unwrap().path();
    for out in [
        db.clone(),
        db.join("tables"),
        rules.join("t"),
        db.join("new").join("deeper"),
    ] {
        let o = run_morris(
            &[
                "--variant",
                "six",
                "tables",
                "--db",
                db.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ],
            "",
        );
        assert_eq!(
            o.status.code(),
            Some(2),
            "{}: {}",
            out.display(),
            output_text(&o)
        );
        assert!(
            output_text(&o).contains("database folder")
                || output_text(&o).contains("another folder"),
            "{}",
            output_text(&o)
        );
        assert!(!out.exists() || out == db, "{}", out.display());
    }
}

/// Every position of the folder's sectors, probed from `a` and `b`: both answer alike.
fn probes_alike(a: &Database, b: &Database, what: &str) -> u64 {
    let mut n = 0;
    for s in a.present() {
        let index = a.index(s);
        index.for_each_slot(0, index.size(), |_, pos| {
            if let Some(pos) = pos {
                assert_eq!(
                    a.probe(&pos).unwrap(),
                    b.probe(&pos).unwrap(),
                    "{what}: {s}"
                );
                n += 1;
            }
        });
    }
    n
}

/// The files of `folder` (one level of subfolders), in memory under the same paths.
fn in_memory(folder: &Path) -> morris::store::InMemory {
    let mut files = morris::store::InMemory::new();
    for file in walk(folder) {
        let bytes = fs::read(&file).unwrap();
        files.insert(file, bytes);
    }
    files
}

/// A database and tables handed over as bytes in memory (as a browser or a phone app holds
/// them) answer every position as the folders on disk do.
#[test]
fn a_folder_held_in_memory_answers_as_on_disk() {
    let (db, tables) = solve_and_build("tables-memory", "six", &[]);
    let v = Variant::by_name("six").unwrap();
    let (d, t) = open_both(&db, &tables, &v);
    for (folder, disk) in [(&db, &d), (&tables, &t)] {
        let files = std::sync::Arc::new(in_memory(folder));
        let m = Database::from_files(files, folder, &v, READER_CACHE_BYTES).unwrap();
        assert_eq!(m.is_tables(), disk.is_tables());
        assert_eq!(m.present(), disk.present());
        assert_eq!(m.planned(), disk.planned());
        assert!(m.planned_fault().is_none());
        let n = probes_alike(disk, &m, "in memory");
        // The proof's rows come from memory too: read whole, or decoded whole.
        for s in m.present() {
            let (rows, file) = (m.rows(s).unwrap(), d.rows(s).unwrap());
            let index = m.index(s);
            let cells = |f: &morris::store::SectorFile| {
                (0..index.size())
                    .step_by(13)
                    .map(|slot| f.cell(slot).unwrap())
                    .collect::<Vec<_>>()
            };
            assert_eq!(cells(&rows), cells(&file), "{s}: rows");
        }
        assert!(n > 1000, "{n} positions");
        // The same files read on request by a caller's function (as a C callback reads them),
        // which is never asked for bytes past a file's end.
        let lengths: Vec<(PathBuf, u64)> = walk(folder)
            .into_iter()
            .map(|p| {
                let len = fs::metadata(&p).unwrap().len();
                (p, len)
            })
            .collect();
        let read = |path: &Path, offset: u64, buf: &mut [u8]| {
            use std::os::unix::fs::FileExt;
            let len = fs::metadata(path)?.len();
            assert!(
                offset + buf.len() as u64 <= len,
                "{}: read past its end",
                path.display()
            );
            fs::File::open(path)?.read_exact_at(buf, offset)
        };
        let files = std::sync::Arc::new(morris::store::ReadBy::new(lengths, read));
        let r = Database::from_files(files, folder, &v, READER_CACHE_BYTES).unwrap();
        assert_eq!(probes_alike(disk, &r, "read by a function"), n);
    }
}

/// The files of `folder`'s subfolders.
fn walk(folder: &Path) -> Vec<PathBuf> {
    fs::read_dir(folder)
        .unwrap()
        .flat_map(|e| fs::read_dir(e.unwrap().path()).unwrap())
        .map(|f| f.unwrap().path())
        .collect()
}

/// One folder may hold some sectors as sector files and others as tables: probes, `query`,
/// `check` and `verify` read each sector from what holds it.
#[test]
fn one_folder_holds_some_sectors_raw_and_others_as_tables() {
    let (db, tables) = solve_and_build("tables-mixed", "six", &[]);
    let v = Variant::by_name("six").unwrap();
    let mixed = db.parent().unwrap().join("mixed");
    copy_tree(&db, &mixed);
    let (dir, table_dir) = (
        mixed.join(morris::store::rule_set_folder(&v)),
        tables.join(morris::store::rule_set_folder(&v)),
    );
    let d = Database::new(&db, &v).unwrap();
    let sectors = d.present();
    // Every other sector as tables only.
    for s in sectors.iter().step_by(2) {
        fs::remove_file(dir.join(format!("{s}.sec"))).unwrap();
        for ext in ["wdl", "dtm"] {
            let name = format!("{s}.{ext}");
            fs::copy(table_dir.join(&name), dir.join(&name)).unwrap();
        }
    }
    for m in [
        Database::new(&mixed, &v).unwrap(),
        Database::reader(&mixed, &v, READER_CACHE_BYTES).unwrap(),
    ] {
        assert_eq!(m.present(), sectors);
        assert!(!m.is_tables());
        probes_alike(&d, &m, "mixed");
    }
    let six = |args: &[&str]| {
        let mut all = vec!["--variant", "six"];
        all.extend(args);
        let out = run_morris(&all, "");
        (out.status.success(), output_text(&out))
    };
    let arg = mixed.to_str().unwrap();
    let (ok, text) = six(&["check", "--db", arg]);
    let files = sectors.len() + sectors.iter().step_by(2).count();
    assert!(
        ok && text.contains(&format!(
            "checked {files} files of {} sectors",
            sectors.len()
        )),
        "{text}"
    );
    let (ok, text) = six(&["verify", "--db", arg, "--quiet"]);
    assert!(ok, "{text}");
    let (ok, text) = six(&["stats", "--db", arg, "--json"]);
    let (_, expected) = six(&["stats", "--db", db.to_str().unwrap(), "--json"]);
    assert!(ok && text == expected, "{text}");
    // A solve of the mixed folder finds every sector solved.
    let (ok, text) = six(&["solve", "--db", arg, "--quiet"]);
    assert!(ok, "{text}");
    for s in sectors.iter().step_by(2) {
        assert!(!dir.join(format!("{s}.sec")).exists(), "{s} solved again");
    }
}
