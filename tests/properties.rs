//! Property tests (proptest): no input panics the notation parsers, and forward and backward
//! generation are exact inverses on random positions of every variant.

mod common;

use common::{random_position, variant, Rng, VARIANTS};
use morris::rules::{for_each_unmove, generate, play};
use morris::{Move, Position, Variant};
use proptest::prelude::*;

fn unmoves(v: &Variant, pos: &Position) -> Vec<(Position, Move)> {
    let mut list = Vec::new();
    for_each_unmove(v, pos, |prev, mv| list.push((prev, mv)));
    list
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn parsing_any_text_never_panics(text in "[WB.w b/0-9x-]{0,40}", which in 0..VARIANTS.len()) {
        let v = variant(VARIANTS[which], None, None);
        if let Ok((pos, turn)) = Position::parse(&v, &text) {
            prop_assert!(pos.check(&v).is_ok());
            let again = pos.to_notation(&v, turn);
            prop_assert_eq!(Position::parse(&v, &again).unwrap(), (pos, turn));
        }
        let _ = Move::parse(v.board(), &text);
    }

    #[test]
    fn moves_and_unmoves_are_inverse(seed in any::<u64>(), which in 0..VARIANTS.len()) {
        let v = variant(VARIANTS[which], None, None);
        let (pos, _) = random_position(&v, &mut Rng::new(seed));
        for mv in generate(&v, &pos) {
            let after = play(&pos, mv);
            prop_assert!(unmoves(&v, &after).contains(&(pos, mv)));
        }
        for (prev, mv) in unmoves(&v, &pos) {
            prop_assert!(prev.check(&v).is_ok());
            prop_assert!(generate(&v, &prev).contains(&mv));
            prop_assert_eq!(play(&prev, mv), pos);
        }
    }
}

mod serve_support;

use std::sync::OnceLock;

use morris::space::SectorIndex;
use morris::store::{rule_set_folder, Database, READER_CACHE_BYTES};
use morris::Sector;

/// A solved database of three (small files: every mutation below is read through).
fn three() -> &'static std::path::Path {
    static DB: OnceLock<std::path::PathBuf> = OnceLock::new();
    DB.get_or_init(|| serve_support::solved("properties-three", "three", &[]))
}

/// Every position of the sector file `name` of three, and its value in the sound database.
fn sound_values(sector: Sector) -> &'static [(Position, morris::Value)] {
    static VALUES: OnceLock<Vec<(Position, morris::Value)>> = OnceLock::new();
    VALUES.get_or_init(|| {
        let v = Variant::by_name("three").unwrap();
        let db = Database::new(three(), &v).unwrap();
        let index: SectorIndex = db.index(sector);
        (0..index.size())
            .filter_map(|slot| index.position(slot))
            .map(|p| (p, db.probe(&p).unwrap()))
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Sector names: any text parses to a sector that prints back the same, or is refused.
    #[test]
    fn sector_names_round_trip_or_are_refused(text in "[0-9-]{0,12}|.{0,12}") {
        if let Ok(s) = text.parse::<Sector>() {
            prop_assert_eq!(s.to_string().parse::<Sector>().unwrap(), s);
        }
    }

    /// A sector file with bytes changed anywhere (header, block table, payload) or cut short:
    /// opening and probing it never panics, and never answers a value other than the sound
    /// one, whether the file is mapped or read block by block.
    #[test]
    fn damaged_files_never_answer_wrong(
        changes in proptest::collection::vec((any::<u32>(), any::<u8>()), 1..4),
        cut in proptest::option::of(any::<u32>()),
        read in any::<bool>(),
    ) {
        let v = Variant::by_name("three").unwrap();
        let sector: Sector = "3-3-0-0".parse().unwrap();
        let sound = sound_values(sector);
        let from = three().join(rule_set_folder(&v)).join("3-3-0-0.sec");
        let mut bytes = std::fs::read(&from).unwrap();
        for (at, x) in changes {
            let at = at as usize % bytes.len();
            bytes[at] ^= x.max(1);
        }
        if let Some(cut) = cut {
            bytes.truncate(cut as usize % bytes.len());
        }
        let dir = std::env::temp_dir().join(format!("morris-prop-damage-{}", std::process::id()));
        let folder = dir.join(rule_set_folder(&v));
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("3-3-0-0.sec"), &bytes).unwrap();
        let db = if read {
            Database::reader(&dir, &v, READER_CACHE_BYTES).unwrap()
        } else {
            Database::new(&dir, &v).unwrap()
        };
        for (pos, value) in sound.iter().step_by(97) {
            if let Ok(got) = db.probe(pos) {
                prop_assert_eq!(got, *value);
            }
        }
    }

    /// HTTP parameters: any query string gets an answer of a known status with a JSON body,
    /// never a server error, and the server lives on.
    #[test]
    fn any_query_string_is_answered(
        route in prop::sample::select(vec!["query", "explore", "bestmove", "stats", "variants"]),
        query in "[a-z=&%0-9A-F+./-]{0,60}",
    ) {
        static SERVER: OnceLock<std::sync::Mutex<serve_support::Server>> = OnceLock::new();
        let server = SERVER.get_or_init(|| std::sync::Mutex::new(serve_support::Server::start(three(), 5.0)));
        let mut server = server.lock().unwrap();
        let r = serve_support::get(server.addr, &format!("/api/{route}?variant=three&{query}"));
        prop_assert!([200, 400, 404].contains(&r.status), "{} {}: {}", route, query, r.text());
        prop_assert!(serde_json::from_slice::<serde_json::Value>(&r.body).is_ok());
        prop_assert!(server.alive());
    }
}
