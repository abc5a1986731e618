//! The reference reader `scripts/read_db.py`, written from `docs/format.md` alone, answers what
//! `morris query` answers; and the format document's worked example holds.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Instant;

mod common;

use common::{boards, pipe, played, reader_agrees, solved, Rng};
use morris::space::Sector;
use morris::space::{Orbits, SectorIndex};
use morris::{Color, Position, Variant};

/// Asks `morris query` and the Python reader about every position; returns how many query
/// answered (every one of them the reader must answer alike).
fn compare(db: &Path, variant: &str, positions: &[String]) -> usize {
    let db = db.to_str().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/read_db.py");
    let reader = [
        "python3",
        script.to_str().unwrap(),
        "--db",
        db,
        "--variant",
        variant,
    ];
    reader_agrees(
        &["--variant", variant, "query", "--db", db],
        &reader,
        positions,
    )
}

#[test]
fn python_reader_agrees_with_query() {
    let python = Command::new("python3").arg("--version").output();
    assert!(
        python.is_ok_and(|o| o.status.success()),
        "python3 is needed to run scripts/read_db.py (the format's reference reader); install it"
    );
    let start = Instant::now();
    let mut rng = Rng::new(2024);

    let six = Variant::by_name("six").unwrap();
    let db = solved("read-db-six", "six", &[]);
    let mut positions = Vec::new();
    for max_plies in [8, 14, 30, 80] {
        positions.extend(played(&six, &mut rng, 2500, max_plies));
    }
    let six_answered = compare(&db, "six", &positions);
    assert!(
        six_answered * 100 >= positions.len() * 95,
        "six: query answered {six_answered}"
    );

    let nine = Variant::by_name("nine").unwrap();
    let db = solved("read-db-nine", "nine", &["--max-pieces", "5"]);
    let positions = boards(&nine, &mut rng, 10_000, 3, 5);
    let answered = compare(&db, "nine", &positions);
    assert!(
        answered * 100 >= positions.len() * 95,
        "nine: query answered {answered}"
    );
    eprintln!(
        "read_db: six {six_answered} and nine {answered} of 10000 answered alike, {:.1?}",
        start.elapsed()
    );
}

/// The worked example of docs/format.md, computed by the library.
#[test]
fn format_document_worked_example() {
    let nine = Variant::by_name("nine").unwrap();
    let (pos, turn) = Position::parse(&nine, ".WW/.../.B./B....B/.../.../..W b 0 0").unwrap();
    assert_eq!(turn, Color::Black);
    assert_eq!((pos.mover.bits(), pos.opponent.bits()), (17024, 8388614));
    let sector = Sector::of(&pos);
    assert_eq!(sector.to_string(), "3-3-0-0");
    let orbits = Arc::new(Orbits::new(&nine));
    assert_eq!(orbits.count(3), 158);
    let index = SectorIndex::new(orbits, sector);
    assert_eq!(index.size(), 158 * 1330);
    let slot = index.index(&pos);
    let canonical = index.position(slot).unwrap();
    assert_eq!(slot, 96 * 1330 + 240);
    assert_eq!(
        (canonical.mover.bits(), canonical.opponent.bits()),
        (6146, 32960)
    );
    assert_eq!(
        canonical.to_notation(&nine, Color::Black),
        ".B./.../WW./..BB../W../.../... b 0 0"
    );
    // The other image of the opponent's set under the representative's stabiliser.
    assert_eq!(index.position(96 * 1330 + 391), None);
}

// Every variant, through the command line only: the positions are notation strings built here
// and moves `morris moves` lists, so this test does not depend on the library's module paths.

/// Runs `morris args`, asserts that it succeeded, and returns standard output.
fn morris(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_morris"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "morris {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A board as the notation shows it: its points' names in notation order (ranks from the top,
/// each left to right) and how many points each rank has.
struct Layout {
    names: Vec<String>,
    ranks: Vec<usize>,
}

impl Layout {
    /// The board of `game` (a variant and its rule options): the placements on the empty board
    /// are its points.
    fn of(game: &[&str]) -> Layout {
        let out = morris(&[game, &["moves", "--json", "start"]].concat());
        let names: Vec<String> = serde_json::from_str(&out).unwrap();
        let coord = |n: &String| (n[1..].parse::<u32>().unwrap(), n.as_bytes()[0]);
        let mut points: Vec<(u32, u8, String)> = names
            .into_iter()
            .map(|n| {
                let (rank, file) = coord(&n);
                (rank, file, n)
            })
            .collect();
        points.sort_by_key(|&(rank, file, _)| (std::cmp::Reverse(rank), file));
        let mut ranks: Vec<usize> = Vec::new();
        for (i, p) in points.iter().enumerate() {
            if i > 0 && points[i - 1].0 == p.0 {
                *ranks.last_mut().unwrap() += 1;
            } else {
                ranks.push(1);
            }
        }
        Layout {
            names: points.into_iter().map(|p| p.2).collect(),
            ranks,
        }
    }

    fn point(&self, name: &str) -> usize {
        self.names.iter().position(|n| n == name).unwrap()
    }
}

/// A position in notation's terms: a `W`, `B` or `.` per point, the side to move, the hands.
#[derive(Clone)]
struct Spot {
    cells: Vec<u8>,
    white_moves: bool,
    hands: [u8; 2],
}

impl Spot {
    /// `counts[0]` pieces of the side to move and `counts[1]` of the other on random points,
    /// with `hands` (the mover's first); either colour to move.
    fn random_mover(l: &Layout, rng: &mut Rng, counts: [usize; 2], hands: [u8; 2]) -> Spot {
        let mut s = Spot::random(l, rng, counts[0], counts[1], hands);
        if !s.white_moves {
            for c in &mut s.cells {
                *c = match *c {
                    b'W' => b'B',
                    b'B' => b'W',
                    c => c,
                };
            }
            s.hands = [hands[1], hands[0]];
        }
        s
    }

    /// `white` and `black` pieces on random points.
    fn random(l: &Layout, rng: &mut Rng, white: usize, black: usize, hands: [u8; 2]) -> Spot {
        let mut free: Vec<usize> = (0..l.names.len()).collect();
        let mut cells = vec![b'.'; l.names.len()];
        for (count, c) in [(white, b'W'), (black, b'B')] {
            for _ in 0..count {
                let i = rng.below(free.len() as u64) as usize;
                cells[free.swap_remove(i)] = c;
            }
        }
        Spot {
            cells,
            white_moves: rng.below(2) == 0,
            hands,
        }
    }

    fn notation(&self, l: &Layout) -> String {
        let mut rows = Vec::new();
        let mut at = 0;
        for &n in &l.ranks {
            rows.push(String::from_utf8(self.cells[at..at + n].to_vec()).unwrap());
            at += n;
        }
        let turn = if self.white_moves { 'w' } else { 'b' };
        format!(
            "{} {turn} {} {}",
            rows.join("/"),
            self.hands[0],
            self.hands[1]
        )
    }

    /// Plays a move as `morris moves` writes it: `d7`, `a1-a4`, each maybe with `xg7`.
    fn play(&mut self, l: &Layout, mv: &str) {
        let (me, side) = if self.white_moves {
            (b'W', 0)
        } else {
            (b'B', 1)
        };
        let (shift, removed) = match mv.split_once('x') {
            Some((s, r)) => (s, Some(r)),
            None => (mv, None),
        };
        let to = match shift.split_once('-') {
            Some((from, to)) => {
                self.cells[l.point(from)] = b'.';
                to
            }
            None => {
                self.hands[side] -= 1;
                shift
            }
        };
        self.cells[l.point(to)] = me;
        if let Some(r) = removed {
            self.cells[l.point(r)] = b'.';
        }
        self.white_moves = !self.white_moves;
    }
}

/// Random games from each of `spots`, `plies` moves long at most, through `morris moves`:
/// every position on the way, the starting ones included.
fn walks(game: &[&str], l: &Layout, rng: &mut Rng, spots: Vec<Spot>, plies: usize) -> Vec<Spot> {
    let mut all = spots.clone();
    let mut live = spots;
    for _ in 0..plies {
        let input: String = live.iter().map(|s| s.notation(l) + "\n").collect();
        let out = pipe(
            env!("CARGO_BIN_EXE_morris"),
            &[game, &["moves", "--json", "-"]].concat(),
            input,
        );
        let mut next = Vec::new();
        for (spot, line) in live.iter().zip(out.lines()) {
            // A position the notation refuses (hands that cannot alternate) goes no further.
            let moves: Vec<String> = match serde_json::from_str(line) {
                Ok(moves) => moves,
                Err(_) if line.starts_with("error: ") => continue,
                Err(e) => panic!("moves of {}: {line}: {e}", spot.notation(l)),
            };
            if moves.is_empty() {
                continue;
            }
            let mut s = spot.clone();
            s.play(l, &moves[rng.below(moves.len() as u64) as usize]);
            next.push(s);
        }
        all.extend(next.iter().cloned());
        live = next;
    }
    all
}

/// Asks `morris query --json -` and the Python reader about every position: where query
/// answers, the reader must answer the same value and depth; where query refuses (a position
/// that cannot occur, a sector not solved), the reader must refuse too. Returns how many were
/// answered and how many refused.
fn agree(db: &Path, game: &[&str], positions: &[String]) -> (usize, usize) {
    let input: String = positions.iter().map(|p| format!("{p}\n")).collect();
    let db = db.to_str().unwrap();
    let query = pipe(
        env!("CARGO_BIN_EXE_morris"),
        &[game, &["query", "--json", "--db", db, "-"]].concat(),
        input.clone(),
    );
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/read_db.py");
    let reader = pipe(
        "python3",
        &[&[script.to_str().unwrap(), "--db", db], game].concat(),
        input,
    );
    let query: Vec<&str> = query.lines().collect();
    let reader: Vec<&str> = reader.lines().collect();
    assert_eq!(query.len(), positions.len(), "query answers one line each");
    assert_eq!(
        reader.len(),
        positions.len(),
        "the reader answers one line each"
    );
    let (mut answered, mut refused) = (0, 0);
    for ((position, q), r) in positions.iter().zip(query).zip(reader) {
        let json: serde_json::Value = serde_json::from_str(q).unwrap();
        if let Some(e) = json.get("error") {
            refused += 1;
            assert!(
                r.starts_with("error: "),
                "{game:?} {position}: query refuses ({e}), the reader answers {r:?}"
            );
            continue;
        }
        answered += 1;
        let depth = json["depth"]
            .as_u64()
            .map_or("-".to_string(), |d| d.to_string());
        let expected = format!("{} {depth}", json["value"].as_str().unwrap());
        assert_eq!(r, expected, "{game:?} {position}: reader vs query");
    }
    (answered, refused)
}

/// The rule-set id of `name` with `options` (pairs `--switch value`) over its defaults.
fn rule_set(listed: &serde_json::Value, name: &str, options: &[&str]) -> String {
    let info = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == name)
        .unwrap();
    let mut id = info["rule_set"].as_str().unwrap().to_string();
    for pair in options.chunks(2) {
        let switch = pair[0].trim_start_matches("--");
        let at = id.find(&format!("{switch}-")).unwrap() + switch.len() + 1;
        let end = id[at..].find('.').map_or(id.len(), |e| at + e);
        id.replace_range(at..end, pair[1]);
    }
    id
}

#[test]
fn python_reader_agrees_with_query_on_every_variant() {
    let start = Instant::now();
    let mut rng = Rng::new(2025);
    let listed: serde_json::Value = serde_json::from_str(&morris(&["variants", "--json"])).unwrap();
    let mut games: Vec<(String, Vec<&str>)> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v["name"].as_str().unwrap().to_string(), vec![]))
        .collect();
    assert!(games.len() >= 10, "morris variants lists {}", games.len());
    // And two rule sets of other rules, whose folders the options must select: three under
    // Lasker's phases is small enough to solve whole, placement included.
    let overrides = vec![
        "--flying",
        "always",
        "--removal",
        "lenient",
        "--phases",
        "lasker",
        "--full-board",
        "draw",
    ];
    games.push(("six".to_string(), overrides));
    let three = vec!["--phases", "lasker", "--flying", "three"];
    games.push(("three".to_string(), three));
    let mut report = Vec::new();
    for (name, options) in &games {
        let info = listed
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["name"] == name.as_str())
            .unwrap();
        let pieces = info["pieces"].as_u64().unwrap() as usize;
        let points = info["points"].as_u64().unwrap() as usize;
        let lasker = options.contains(&"lasker") || info["phases"] == "lasker";
        let game: Vec<&str> = [&["--variant", name.as_str()], &options[..]].concat();
        let l = Layout::of(&game);
        assert_eq!(
            l.names.len(),
            points,
            "{name}: the empty board's placements"
        );
        let k = pieces.min(4);
        let tag = format!("read-db-all-{name}-{}", options.len());

        // Nothing solved yet: finished positions are still losses at depth 0, and the rest
        // is refused.
        let db = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(&tag);
        let _ = fs::remove_dir_all(&db);
        let mut finished = Vec::new();
        for _ in 0..40 {
            let mover = rng.below(3) as usize;
            let opponent = 2 + rng.below(k as u64 - 1) as usize;
            let s = Spot::random_mover(&l, &mut rng, [mover, opponent], [0, 0]);
            finished.push(s.notation(&l));
        }
        finished.push("start".to_string());
        let (lost, _) = agree(&db, &game, &finished);
        assert!(lost > 0, "{name}: no finished position answered");

        // A small solve: the moving phase with at most k pieces a side, and under Lasker's
        // phases a few sectors where a side with a piece in hand may move instead.
        let mut extra = vec!["--max-pieces".to_string(), k.to_string()];
        extra.extend(options.iter().map(|o| o.to_string()));
        let extra: Vec<&str> = extra.iter().map(|s| s.as_str()).collect();
        let db = solved(&tag, name, &extra);
        if lasker {
            // With three pieces a side the whole game is small; else the sectors 3-3-1-0 needs.
            let mut args = vec!["--variant", name, "solve", "--quiet"];
            if pieces > 3 {
                args.extend(["--sector", "3-3-1-0"]);
            }
            args.extend(&options[..]);
            args.extend(["--db", db.to_str().unwrap()]);
            morris(&args);
        }

        // Moving-phase boards of the solved sectors, and random games from some of them
        // (with captures down to finished positions, and blocked sides).
        let boards: Vec<Spot> = (0..400)
            .map(|_| {
                let w = 3 + rng.below(k as u64 - 2) as usize;
                let b = 3 + rng.below(k as u64 - 2) as usize;
                Spot::random(&l, &mut rng, w, b, [0, 0])
            })
            .collect();
        let games_from = boards[..60].to_vec();
        let mut positions: Vec<String> = boards.iter().map(|s| s.notation(&l)).collect();
        let (solved, _) = agree(&db, &game, &positions);
        assert_eq!(
            solved,
            positions.len(),
            "{name}: every solved board answered"
        );
        positions = walks(&game, &l, &mut rng, games_from, 8)
            .iter()
            .map(|s| s.notation(&l))
            .collect();
        let (played, _) = agree(&db, &game, &positions);
        assert!(
            played * 10 >= positions.len() * 9,
            "{name}: played {played}"
        );

        // Unsolved sectors (a side with k + 1), placement positions from the start, hands of
        // one piece or none with two to k on the board (a solved sector under Lasker's phases,
        // impossible or unsolved ones otherwise), and the finished positions again.
        let mut others = finished;
        for _ in 0..40 {
            let big = (k + 1).min(pieces).min(points - 3);
            let small = 3 + rng.below(big as u64 - 2) as usize;
            let (w, b) = if rng.below(2) == 0 {
                (big, small)
            } else {
                (small, big)
            };
            others.push(Spot::random(&l, &mut rng, w, b, [0, 0]).notation(&l));
        }
        let empty = Spot {
            cells: vec![b'.'; points],
            white_moves: true,
            hands: [pieces as u8; 2],
        };
        others.extend(
            walks(&game, &l, &mut rng, vec![empty; 10], 2 * pieces)
                .iter()
                .map(|s| s.notation(&l)),
        );
        let mut in_hand = Vec::new();
        for _ in 0..300 {
            let w = 2 + rng.below(k as u64 - 1) as usize;
            let b = 2 + rng.below(k as u64 - 1) as usize;
            let hands = [rng.below(2) as u8, rng.below(2) as u8];
            in_hand.push(Spot::random(&l, &mut rng, w, b, hands));
        }
        let in_hand: Vec<String> = walks(&game, &l, &mut rng, in_hand, 3)
            .iter()
            .map(|s| s.notation(&l))
            .collect();
        let (placed, _) = agree(&db, &game, &in_hand);
        if lasker {
            assert!(
                placed > 100,
                "{name}: {placed} positions with hands answered"
            );
        }
        let (answered, refused) = agree(&db, &game, &others);
        assert!(
            answered > 0 && refused > 0,
            "{name}: {answered} / {refused}"
        );

        // Sectors hidden: query refuses their positions, and those with a move into one: a
        // mill closed by a side with three pieces (3-4-0-0 into 3-3-0-0); under Lasker's
        // phases a move by a side with a piece in hand (3-3-1-0 into 3-3-0-1), flying with two
        // on the board and one in hand (2-3-1-0 into 3-2-0-1: the pieces on the board may be
        // blocked, more often on small boards).
        let folder = db.join(format!("{name}.{}", rule_set(&listed, name, options)));
        let mut probes: Vec<String> = boards.iter().map(|s| s.notation(&l)).collect();
        probes.extend(in_hand);
        let mut holes = vec![vec!["3-3-0-0"]];
        if lasker {
            holes.push(vec!["3-3-0-1", "3-2-0-1"]);
            probes.extend(
                (0..300).map(|_| Spot::random_mover(&l, &mut rng, [2, 3], [1, 0]).notation(&l)),
            );
        }
        let mut kept = 0;
        for hole in holes {
            let file = |sector: &str, ext: &str| folder.join(format!("{sector}.{ext}"));
            let hidden: Vec<&str> = hole
                .into_iter()
                .filter(|s| fs::rename(file(s, "sec"), file(s, "hidden")).is_ok())
                .collect();
            let (answered, refused) = agree(&db, &game, &probes);
            assert!(
                (k == 3 && !lasker) || (answered > 0 && refused > 0),
                "{name} without {hidden:?}: {answered} / {refused}"
            );
            for s in hidden {
                fs::rename(file(s, "hidden"), file(s, "sec")).unwrap();
            }
            kept += answered;
        }
        report.push(format!(
            "{name}{}{} {}",
            if options.is_empty() { "" } else { " " },
            options.join(" "),
            solved + played + placed + answered + lost + kept
        ));
    }
    eprintln!(
        "read_db, positions answered alike: {}; {:.1?}",
        report.join(", "),
        start.elapsed()
    );
}
