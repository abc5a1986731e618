//! The scripts behind docs/results.md's figures: `scripts/summary.py` computes a published
//! game's figures from its files in data/results, and the document gives them;
//! `scripts/malom_sectors.py` finds Malom's sector graphs (nine's of the size the document cites)
//! holding every sector of morris's under the same name.

use std::path::Path;

mod prerequisite;

#[test]
fn the_figures_of_nine_in_the_results_document_are_those_of_its_published_files() {
    let Some(python) = prerequisite::python_with("summary", &["json"]) else {
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let summary = prerequisite::run_script(
        &python,
        "summary.py",
        &[root.join("data/results/nine-standard")],
    );
    // Computed from nine-standard.json, -start.json and -depths.tsv.
    for line in [
        "| moving (both hands empty) | 49 | 8,904,593,601 | 20.6% | loss in 204 (7-8-0-0) |",
        "| placement | 269 | 17,838,514,173 | 23.2% | loss in 206 (5-6-2-2) |",
        "First moves: 24 of 24 draw (a1 a4 a7 b2 b4 b6 c3 c4 c5 d1 d2 d3 d5 d6 d7 e3 e4 e5 f2 f4 f6 g1 g4 g7).",
        "Deepest lost: 1 position in 206 plies.",
        "Deepest won: 1 position in 205 plies.",
    ] {
        assert!(summary.lines().any(|l| l == line), "{line}\n{summary}");
    }
    let document = std::fs::read_to_string(root.join("docs/results.md")).unwrap();
    let section = &document[document
        .find("## Nine Men's Morris, standard removal")
        .unwrap()..];
    let section = &section[..section.find("\n## ").unwrap()];
    for line in summary.lines().filter(|l| l.starts_with("| ")) {
        assert!(section.contains(line), "docs/results.md lacks {line}");
    }
    assert!(summary.starts_with(
        "318 sectors, 26,743,107,774 canonical positions (427.7 G counting every board)."
    ));
    assert!(section.contains("318 sectors in 297 work units, 27.8 G index slots, 26,743,107,774 canonical positions\n(427.7 G counting every board)"));
}

#[test]
fn every_sector_of_ours_is_one_of_malom_s_and_nine_s_graph_has_the_cited_size() {
    let Some(python) = prerequisite::python_with("malom_sectors", &["subprocess"]) else {
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text =
        prerequisite::run_script(&python, "malom_sectors.py", &[env!("CARGO_BIN_EXE_morris")]);
    for line in [
        "nine: Malom 498 sectors, morris 318, all of morris's among Malom's: yes",
        "morabaraba: Malom 1216 sectors, morris 838, all of morris's among Malom's: yes",
        "lasker: Malom 3070 sectors, morris 2482, all of morris's among Malom's: yes",
    ] {
        assert!(text.lines().any(|l| l.starts_with(line)), "{line}\n{text}");
    }
    let document = std::fs::read_to_string(root.join("docs/results.md")).unwrap();
    for figure in [
        "Malom's coarser graph\n  has 498",
        "nine 318 of Malom's 498",
        "Morabaraba and\n  Twelve 838 of 1,216, Lasker 2,482 of 3,070",
    ] {
        assert!(
            document.contains(figure),
            "docs/results.md lacks {figure:?}"
        );
    }
}
