//! The explorer page in real headless Chromium, driven over WebDriver (Debian's `chromium` and
//! `chromium-driver`; CI installs them): the start's value, clicked moves with a mill and a
//! removal, every shown value against `query --json`, undo and redo, the address reopening the
//! position, the statistics tab, a move by the database in a game, and a phone-sized screen;
//! addresses naming a variant or rules the folder lacks, and the hidden evaluation in Play;
//! Play's draw rules, their record in the game's text and their N in the address; review in Play
//! without the database moving, the annotations and the hint; the keyboard (one Tab stop, arrow
//! keys); the values on movable pieces and removals; the value chart; the statistics' filter,
//! order and CSV; practice by goal, side and depth; variations, the game as text (also of a
//! game nesting thousands of variations, and a game of Sanmill's from its FEN) and the board
//! editor. Every test runs at a desktop's size and at a phone's (390×844).
//!
//! The WebDriver client is the few W3C commands this test needs, over the same small HTTP
//! client as the API tests: every call has a socket timeout and every wait a bound.

use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use morris::rules::{generate, play};
use morris::{Move, Position, Variant};
use serde_json::{json, Value};

mod prerequisite;
mod serve_support;

use serve_support::{enc, morris, request, solved, wait_for, Server};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// Whether Chromium and chromedriver are installed (see `prerequisite`).
fn browser_present(test: &str) -> bool {
    const INSTALL: &str = "sudo apt-get install -y chromium chromium-driver";
    prerequisite::present(
        test,
        &[
            prerequisite::Needed {
                program: CHROMIUM,
                install: INSTALL,
            },
            prerequisite::Needed {
                program: CHROMEDRIVER,
                install: INSTALL,
            },
        ],
    )
}

/// A chromedriver process with one Chromium session; both end when dropped.
struct Browser {
    driver: Child,
    addr: SocketAddr,
    session: String,
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Browser {
    fn start(profile: &Path, log: &Path) -> Browser {
        // The port is free when chosen; another process may take it first, so try again.
        for _ in 0..3 {
            let addr: SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
            let mut driver = Command::new(CHROMEDRIVER)
                .arg(format!("--port={}", addr.port()))
                .arg(format!("--log-path={}", log.display()))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("start chromedriver");
            let ready = wait_for(Duration::from_secs(15), || {
                let r = request(addr, "GET", "/status", "").ok()?;
                let v: Value = serde_json::from_slice(&r.body).ok()?;
                (v["value"]["ready"] == true).then_some(())
            });
            if ready.is_none() {
                let _ = driver.kill();
                let _ = driver.wait();
                continue;
            }
            let _ = std::fs::remove_dir_all(profile);
            let capabilities = json!({"capabilities": {"alwaysMatch": {
                "browserName": "chrome",
                "goog:chromeOptions": {
                    "binary": CHROMIUM,
                    "args": [
                        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                        "--no-first-run", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync",
                        "--disable-dev-shm-usage", "--hide-scrollbars",
                        "--force-device-scale-factor=1", "--window-size=1200,1000",
                        format!("--user-data-dir={}", profile.display()),
                    ],
                },
                "timeouts": {"script": 15000, "pageLoad": 30000, "implicit": 0},
            }}});
            let created = request(addr, "POST", "/session", &capabilities.to_string());
            let session = created
                .ok()
                .and_then(|r| serde_json::from_slice::<Value>(&r.body).ok())
                .and_then(|v| v["value"]["sessionId"].as_str().map(str::to_string));
            match session {
                Some(session) => {
                    return Browser {
                        driver,
                        addr,
                        session,
                    }
                }
                None => {
                    let _ = driver.kill();
                    let _ = driver.wait();
                }
            }
        }
        panic!(
            "could not start chromedriver and a Chromium session; see {}",
            log.display()
        );
    }

    /// One WebDriver command; panics with the driver's message on an error.
    fn cmd(&self, method: &str, path: &str, body: Value) -> Value {
        let target = format!("/session/{}{path}", self.session);
        let body = if method == "GET" {
            String::new()
        } else {
            body.to_string()
        };
        let r = request(self.addr, method, &target, &body)
            .unwrap_or_else(|e| panic!("webdriver {method} {path}: {e}"));
        let v: Value = serde_json::from_slice(&r.body)
            .unwrap_or_else(|e| panic!("webdriver {method} {path}: {e}: {}", r.text()));
        if r.status != 200 {
            panic!("webdriver {method} {path}: {} {}", r.status, v["value"]);
        }
        v["value"].clone()
    }

    fn goto(&self, url: &str) {
        self.cmd("POST", "/url", json!({ "url": url }));
    }

    fn js(&self, script: &str) -> Value {
        self.cmd(
            "POST",
            "/execute/sync",
            json!({ "script": script, "args": [] }),
        )
    }

    fn click(&self, css: &str) {
        let found = self.cmd(
            "POST",
            "/element",
            json!({"using": "css selector", "value": css}),
        );
        let id = found[ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("no element {css}: {found}"));
        self.cmd("POST", &format!("/element/{id}/click"), json!({}));
    }

    fn window(&self, width: u32, height: u32) {
        self.cmd(
            "POST",
            "/window/rect",
            json!({"width": width, "height": height}),
        );
    }

    /// The window's inner width, which names screenshots of each size.
    fn width(&self) -> u64 {
        self.js("return window.innerWidth").as_u64().unwrap_or(0)
    }

    fn screenshot(&self, path: &Path) {
        let data = self.cmd("GET", "/screenshot", json!({}));
        let png = base64(data.as_str().expect("screenshot data"));
        assert_eq!(&png[1..4], b"PNG");
        std::fs::write(path, png).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = request(
            self.addr,
            "DELETE",
            &format!("/session/{}", self.session),
            "",
        );
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Decodes standard base64 (the screenshot).
fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = text
        .bytes()
        .filter(|c| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/')
        .map(value)
        .collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &d)| n | (d as u32) << (18 - 6 * i));
        out.extend(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}

/// The page's state once it shows `position`: waits (at most 15 s) for it to be ready.
fn shown(browser: &Browser, position: &str) -> Value {
    shown_within(browser, position, 15)
}

/// [`shown`], waiting at most `seconds`: a page that draws thousands of variations may take
/// longer on a loaded machine, and the test is of what it shows, not of its speed.
fn shown_within(browser: &Browser, position: &str, seconds: u64) -> Value {
    let state = wait_for(Duration::from_secs(seconds), || {
        let s = browser.js(
            "const b = document.body.dataset; const v = document.getElementById('verdict');
             return {ready: b.ready, position: b.position || null, value: v.dataset.value,
               depth: v.dataset.depth, verdict: v.textContent, hash: location.hash,
               error: document.getElementById('error').hidden ? null : document.getElementById('error').textContent,
               moves: [...document.querySelectorAll('#moves li')].map(e =>
                 [e.dataset.move, e.dataset.value, e.dataset.depth])};",
        );
        (s["ready"] == "true" && s["position"] == position).then_some(s)
    });
    state.unwrap_or_else(|| {
        panic!(
            "the page did not show {position} within {seconds} s: {}",
            browser.js("return [document.body.dataset.ready, document.body.dataset.position, document.getElementById('error').textContent]")
        )
    })
}

/// The shown value and moves are those of `query --json` for the same position, in order,
/// except that drawing moves come by their traps two moves deep (the library's search, to four
/// decimals), the most first, ties in the command line's order.
fn check_against_cli(db: &Path, page: &Value, position: &str) {
    let q = query_json(db, position);
    assert_eq!(page["value"], q["value"], "{position}");
    let depth = q["depth"].as_u64().map_or(String::new(), |d| d.to_string());
    assert_eq!(page["depth"], depth.as_str(), "{position}");
    let six = Variant::by_name("six").unwrap();
    let library = morris::Database::new(db, &six).unwrap();
    let (pos, _) = Position::parse(&six, position).unwrap();
    let traps = |m: &Value| -> i64 {
        if m["value"] != "draw" {
            return 0;
        }
        let mv = morris::Move::parse(six.board(), m["move"].as_str().unwrap()).unwrap();
        let t = morris::query::traps::at_depth(&library, &[play(&pos, mv)], 2, u64::MAX)
            .unwrap()
            .unwrap()[0];
        -(t.chance * 1e4).round() as i64
    };
    let mut moves: Vec<&Value> = q["moves"].as_array().unwrap().iter().collect();
    // The command line's order: wins, then draws, then losses; only the draws move.
    moves.sort_by_key(|m| match m["value"].as_str() {
        Some("win") => (0, 0),
        Some("draw") => (1, traps(m)),
        _ => (2, 0),
    });
    let expected: Vec<Value> = moves
        .iter()
        .map(|m| {
            let depth = m["depth"].as_u64().map_or(String::new(), |d| d.to_string());
            json!([m["move"], m["value"], depth])
        })
        .collect();
    assert_eq!(page["moves"].as_array().unwrap(), &expected, "{position}");
}

/// `stats --json` of six.
fn stats_json(db: &Path) -> Value {
    let out = morris(&[
        "--variant",
        "six",
        "stats",
        "--json",
        "--db",
        db.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `query --json` of a position of six.
fn query_json(db: &Path, position: &str) -> Value {
    let out = morris(&[
        "--variant",
        "six",
        "query",
        "--json",
        "--db",
        db.to_str().unwrap(),
        position,
    ]);
    assert!(out.status.success(), "{position}");
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The value and depth `query --json` gives a position of six.
fn value_of(db: &Path, position: &str) -> (String, Option<u64>) {
    let q = query_json(db, position);
    (
        q["value"].as_str().unwrap().to_string(),
        q["depth"].as_u64(),
    )
}

fn target_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

#[test]
fn the_explorer_plays_a_line_of_six_in_chromium() {
    if !browser_present("the_explorer_plays_a_line_of_six_in_chromium") {
        return;
    }
    let db = solved("serve-browser", "six", &[]);
    let (server, browser) = session("serve-browser", &db);
    for (width, height) in SIZES {
        browser.window(width, height);
        line_at_one_size(&browser, &server, &db);
        stats_and_play_at_one_size(&browser, &db);
    }

    // A phone-sized screen: nothing wider than the screen, the board fits.
    browser.click("#tab-explore");
    browser.window(390, 844);
    let fits = wait_for(Duration::from_secs(5), || {
        let v = browser.js(
            "const b = document.getElementById('board').getBoundingClientRect();
             return [document.documentElement.scrollWidth, window.innerWidth, b.width, b.right];",
        );
        let (scroll, inner) = (v[0].as_f64()?, v[1].as_f64()?);
        (inner < 500.0 && scroll <= inner + 1.0 && v[3].as_f64()? <= inner + 1.0).then_some(v)
    });
    assert!(
        fits.is_some(),
        "the page is wider than a phone screen: {}",
        browser.js("return [document.documentElement.scrollWidth, window.innerWidth]")
    );
    browser.screenshot(&target_dir().join("explorer-six-phone.png"));
    // The statistics chart's text is as large on a phone as on a desktop (12px, not 6).
    browser.click("#tab-stats");
    let size = wait_for(Duration::from_secs(15), || {
        let v = browser.js(
            "const t = document.querySelector('#stats-chart text'); if (!t) return null;
             const c = document.getElementById('stats-chart');
             return 12 * c.getBoundingClientRect().width / c.viewBox.baseVal.width;",
        );
        v.as_f64()
    })
    .expect("the statistics chart is drawn");
    assert!(size >= 11.0, "the chart's text is {size}px on a phone");
    browser.click("#tab-explore");
}

/// A line of six played by clicks and from the list, each shown value against `query --json`,
/// the value chart, undo and redo, and the address reopening the line.
fn line_at_one_size(browser: &Browser, server: &Server, db: &Path) {
    let variant = Variant::by_name("six").unwrap();
    let start = ".../.../..../.../... w 6 6";

    open(
        browser,
        &format!("{}/#variant=six&position={}", server.url(), enc(start)),
    );
    let page = shown(browser, start);
    assert_eq!(page["value"], "draw");
    assert!(page["verdict"].as_str().unwrap().starts_with("Draw"));
    check_against_cli(db, &page, start);
    // Drawing moves say how many of the opponent's replies lose after them, and the chance that
    // a random opponent loses within two of its moves; the list puts the most traps first (as
    // check_against_cli found), and the board's marks carry the chance as well as "=".
    let words = browser.js(
        "return [...document.querySelectorAll('#moves li')].map(e =>
           [e.querySelector('.mv-val').textContent, Number(e.dataset.trap), e.querySelector('button').title])",
    );
    let words = words.as_array().unwrap();
    for w in words {
        let (text, title) = (w[0].as_str().unwrap(), w[2].as_str().unwrap());
        let percent = format!("{}%", (w[1].as_f64().unwrap() * 100.0).round());
        assert!(
            text.starts_with(&format!("draw · {percent} in 2 · ")) && text.ends_with(" lose"),
            "{text}"
        );
        assert!(
            title.contains(&format!(
                "loses within 2 of them with a chance of {percent}"
            )),
            "{title}"
        );
    }
    let chances: Vec<f64> = words.iter().map(|w| w[1].as_f64().unwrap()).collect();
    assert!(chances.windows(2).all(|p| p[0] >= p[1]), "{chances:?}");
    assert!(
        chances[0] > chances[chances.len() - 1],
        "the traps differ: {chances:?}"
    );
    let labels =
        browser.js("return [...document.querySelectorAll('text.depth')].map(t => t.textContent)");
    let top = format!("={}%", (chances[0] * 100.0).round());
    assert!(
        labels
            .as_array()
            .unwrap()
            .iter()
            .any(|l| *l == top.as_str()),
        "{labels} {top}"
    );

    // Clicks on the board: three placements by White close the top mill a5-c5-e5, and the
    // fourth click removes Black's piece on b4.
    let (mut pos, mut turn) = Position::parse(&variant, start).unwrap();
    let mut position = start.to_string();
    let mut positions = vec![start.to_string()];
    let clicks: &[(&[&str], &str)] = &[
        (&["a5"], "a5"),
        (&["b4"], "b4"),
        (&["c5"], "c5"),
        (&["d4"], "d4"),
        (&["e5", "b4"], "e5xb4"),
        (&["b4"], "b4"),
    ];
    for (points, mv) in clicks {
        for p in *points {
            browser.click(&format!("[data-point=\"{p}\"]"));
        }
        pos = play(&pos, Move::parse(variant.board(), mv).unwrap());
        turn = turn.other();
        position = pos.to_notation(&variant, turn);
        let page = shown(browser, &position);
        check_against_cli(db, &page, &position);
        positions.push(position.clone());
        assert!(page["hash"].as_str().unwrap().contains("variant=six"));
        if mv.contains('x') {
            // The closed mill stands out over the lines, and a cross marks the removal.
            let marks = browser.js(
                "return [[...document.querySelectorAll('line.mill-edge.w')].map(l => getComputedStyle(l).opacity),
                         [...document.querySelectorAll('[data-removed]')].map(g => g.dataset.removed)]",
            );
            let edges = marks[0].as_array().unwrap();
            assert_eq!(edges.len(), 2, "a5-c5-e5 is two edges: {marks}");
            for o in edges {
                assert!(
                    o.as_str().unwrap().parse::<f64>().unwrap() >= 0.8,
                    "{marks}"
                );
            }
            assert_eq!(marks[1], json!(["b4"]));
        }
    }
    // The line lists the moves played.
    let line = browser.js(
        "return [...document.querySelectorAll('#line button')].map(b => b.firstChild.textContent)",
    );
    assert_eq!(line.as_array().unwrap().len(), clicks.len() + 1);
    assert!(line[5].as_str().unwrap().contains("e5xb4"), "{line}");
    // Numbered by move pairs, as players count: 1. White's, 1… Black's.
    assert_eq!(line[1], "1. a5");
    assert_eq!(line[2], "1\u{2026} b4");
    assert_eq!(line[5], "3. e5xb4");

    // The value chart: a dot per ply, each move judged from the values before and after it
    // as `query --json` gives them; a click on a dot goes there.
    let dots = browser.js(
        "return [...document.querySelectorAll('#chart .ply')].map(c => [c.dataset.ply, c.dataset.quality])",
    );
    let dots = dots.as_array().unwrap();
    assert_eq!(dots.len(), positions.len(), "{dots:?}");
    let values: Vec<(String, Option<u64>)> = positions.iter().map(|p| value_of(db, p)).collect();
    for (i, dot) in dots.iter().enumerate().skip(1) {
        let ((before, d0), (after, d1)) = (&values[i - 1], &values[i]);
        let kept = match before.as_str() {
            "win" => "loss",
            "loss" => "win",
            _ => "draw",
        };
        let quality = if after != kept {
            "blunder"
        } else if before == "draw" || *d1 == d0.map(|d| d - 1) {
            "best"
        } else {
            "inaccurate"
        };
        assert_eq!(
            dot[1], quality,
            "ply {i}: {before} {d0:?} -> {after} {d1:?}"
        );
    }
    assert!(
        dots.iter().any(|d| d[1] == "blunder"),
        "this line has mistakes: {dots:?}"
    );
    // Review: each move of the game list annotated from the same values (`??` a win thrown
    // into a loss, `?` a step of the result lost, `?!` the result kept at a worse depth), each
    // side's errors counted under the chart and the first that changed the result named.
    let marks = browser.js(
        "return [...document.querySelectorAll('#line button')].slice(1).map(b => b.dataset.mark || '')",
    );
    let rank = |v: &str| match v {
        "win" => 2,
        "draw" => 1,
        _ => 0,
    };
    let flip = |v: &str| match v {
        "win" => "loss",
        "loss" => "win",
        _ => "draw",
    };
    let mut counts = [[0; 3]; 2];
    let mut first = None;
    for i in 1..values.len() {
        let ((before, d0), (after, d1)) = (&values[i - 1], &values[i]);
        let lost = rank(before) - rank(flip(after));
        let mark = match lost {
            2 => "??",
            1 => "?",
            _ if before == "draw" || *d1 == d0.map(|d| d - 1) => "",
            _ => "?!",
        };
        assert_eq!(
            marks[i - 1],
            mark,
            "ply {i}: {before} {d0:?} -> {after} {d1:?}"
        );
        let side = usize::from(positions[i - 1].contains(" b "));
        if let Some(k) = ["??", "?", "?!"].iter().position(|m| *m == mark) {
            counts[side][k] += 1;
            if first.is_none() && k < 2 {
                first = Some(i);
            }
        }
    }
    let summary = browser.js("const r = document.getElementById('review-summary'); return [r.hidden, r.textContent, r.dataset.first]");
    assert_eq!(summary[0], false, "{summary}");
    let said = |c: [i32; 3], name: &str| {
        let parts: Vec<String> = ["??", "?", "?!"]
            .iter()
            .zip(c)
            .filter(|(_, n)| *n > 0)
            .map(|(m, n)| format!("{n} {m}"))
            .collect();
        if parts.is_empty() {
            format!("{name} no error")
        } else {
            format!("{name} {}", parts.join(", "))
        }
    };
    let text = summary[1].as_str().unwrap();
    assert!(
        text.starts_with(&format!(
            "Review: {}; {}.",
            said(counts[0], "White"),
            said(counts[1], "Black")
        )),
        "{text} {counts:?}"
    );
    let first = first.expect("this line changes its result");
    assert_eq!(summary[2], first.to_string(), "{text}");
    assert!(text.contains("The first decisive error: "), "{text}");
    browser.js("document.querySelector('#chart .ply[data-ply=\"2\"]').dispatchEvent(new MouseEvent('click')); return null");
    shown(browser, &positions[2]);
    browser.click("#last");
    shown(browser, &position);

    // A move from the list, then undo and redo.
    let page = shown(browser, &position);
    let first = page["moves"][0][0].as_str().unwrap().to_string();
    browser.click(&format!("#moves li[data-move=\"{first}\"] button"));
    let after = pos.to_notation(&variant, turn);
    let next = play(&pos, Move::parse(variant.board(), &first).unwrap());
    let next = next.to_notation(&variant, turn.other());
    check_against_cli(db, &shown(browser, &next), &next);
    browser.click("#undo");
    shown(browser, &after);
    browser.click("#redo");
    shown(browser, &next);
    shot(browser, "explorer-six");

    // The address reopens the position.
    browser.cmd("POST", "/refresh", json!({}));
    let page = shown(browser, &next);
    check_against_cli(db, &page, &next);
    let url = browser.cmd("GET", "/url", json!({}));
    assert!(url.as_str().unwrap().contains("position="), "{url}");
    shot(browser, "explorer-six-reloaded");
    // ... and the whole line with it: its start, its moves, Undo back through them.
    assert!(
        url.as_str()
            .unwrap()
            .contains(&format!("moves=a5,b4,c5,d4,e5xb4,b4,{first}")),
        "{url}"
    );
    let line = browser.js("return document.querySelectorAll('#line button').length");
    assert_eq!(line, json!(clicks.len() + 2));
    // The whole line came in one request: one `/api/line`, and one `explore` for the shown
    // position (not one per move).
    let requests = browser.js(
        "const r = performance.getEntriesByType('resource').map(e => e.name);
         return [r.filter(n => n.includes('/api/line')).length, r.filter(n => n.includes('/api/explore')).length]",
    );
    assert_eq!(requests, json!([1, 1]));
    browser.click("#undo");
    shown(browser, &after);
    let url = browser.cmd("GET", "/url", json!({}));
    assert!(
        url.as_str()
            .unwrap()
            .ends_with(&format!("ply={}", clicks.len())),
        "{url}"
    );
    browser.cmd("POST", "/refresh", json!({}));
    shown(browser, &after);
    // A move the address names that is not legal ends the line there, saying so.
    open(
        browser,
        &format!("{}/#variant=six&moves=a5,a5,b4", server.url()),
    );
    let page = shown(browser, "W../.../..../.../... b 5 6");
    let error = page["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error: {page}"));
    assert!(error.contains("move 2, a5, is not legal"), "{error}");
}

/// The statistics tab, and a game against the database.
fn stats_and_play_at_one_size(browser: &Browser, db: &Path) {
    let variant = Variant::by_name("six").unwrap();
    let start = ".../.../..../.../... w 6 6";
    // The statistics tab: a row per solved sector.
    let stats = stats_json(db);
    let sectors = stats["sectors"].as_array().unwrap().len();
    browser.click("#tab-stats");
    let rows = wait_for(Duration::from_secs(15), || {
        let n = browser.js("return document.querySelectorAll('#stats-table tr').length");
        (n.as_u64() == Some(sectors as u64 + 1)).then_some(n)
    });
    assert!(
        rows.is_some(),
        "the statistics table did not show {sectors} sectors"
    );
    // The chart: the first 40 sectors (a whole game's hundreds of bars would be a page
    // thousands of pixels tall); the table all of them.
    let chart = browser.js("const c = document.getElementById('stats-chart');
         return [c.querySelectorAll('rect').length, c.getBoundingClientRect().height,
                 document.getElementById('stats-shown').textContent]");
    assert!(chart[0].as_u64().unwrap() >= 40, "{chart}");
    assert!(chart[1].as_f64().unwrap() < 1000.0, "{chart}");
    assert_eq!(
        chart[2],
        format!("{sectors} of {sectors} sectors; the chart shows the first 40, the table all.")
    );
    shot(browser, "explorer-six-stats");
    // A filter, a phase and a column's order select the sectors; the CSV holds exactly them.
    browser.js(
        "const f = document.getElementById('stats-filter'); f.value = '3-';
         f.dispatchEvent(new Event('input'));
         const p = document.getElementById('stats-phase'); p.value = 'moving';
         p.dispatchEvent(new Event('change'));
         document.querySelector('#stats-table button[data-sort=\"max_depth\"]').click(); return null",
    );
    let mut expected: Vec<&Value> = stats["sectors"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| {
            let name = r["sector"].as_str().unwrap();
            name.contains("3-") && name.ends_with("-0-0")
        })
        .collect();
    // Largest first, ties in the database's order (a stable sort).
    expected.sort_by_key(|r| std::cmp::Reverse(r["max_depth"].as_u64().unwrap()));
    let table = browser.js(
        "return [[...document.querySelectorAll('#stats-table tr[data-sector]')].map(r => r.dataset.sector),
                 document.querySelector('#stats-table th[aria-sort]').textContent,
                 document.querySelector('#stats-table th[aria-sort]').getAttribute('aria-sort'), statsCsv()]",
    );
    let names: Vec<&str> = expected
        .iter()
        .map(|r| r["sector"].as_str().unwrap())
        .collect();
    assert!(names.len() > 2, "{names:?}");
    assert_eq!(table[0], json!(names));
    assert_eq!(table[1], "max depth");
    assert_eq!(table[2], "descending");
    let columns = [
        "sector",
        "positions",
        "win",
        "loss",
        "draw",
        "raw_positions",
        "raw_win",
        "raw_loss",
        "raw_draw",
        "max_depth",
    ];
    let mut csv = columns.join(",") + "\n";
    for r in &expected {
        let cells: Vec<String> = columns
            .iter()
            .map(|c| match &r[*c] {
                Value::String(s) => s.clone(),
                v => v.to_string(),
            })
            .collect();
        csv += &(cells.join(",") + "\n");
    }
    assert_eq!(table[3], csv);
    // The same column again: the other way round.
    browser.click("#stats-table button[data-sort=\"max_depth\"]");
    let order = browser.js(
        "return [...document.querySelectorAll('#stats-table tr[data-sector]')].map(r => r.dataset.sector)",
    );
    expected.sort_by_key(|r| r["max_depth"].as_u64().unwrap());
    let names: Vec<&str> = expected
        .iter()
        .map(|r| r["sector"].as_str().unwrap())
        .collect();
    assert_eq!(order, json!(names));

    // A sector's name opens its depth histogram: a bar per depth with positions, the counts
    // in words, and a CSV whose rows add up to `stats --json`'s counts of the sector.
    let sector = names[names.len() - 1];
    browser.click(&format!(
        "#stats-table tr[data-sector=\"{sector}\"] button.depths-open"
    ));
    let shown_depths = wait_for(Duration::from_secs(15), || {
        let v = browser.js(
            "return [document.getElementById('depths').hidden, document.getElementById('depths-sector').textContent,
                     document.getElementById('depths-summary').textContent,
                     document.querySelectorAll('#depths-chart rect').length, depthsCsv()]",
        );
        (v[0] == false && v[4] != "").then_some(v)
    })
    .expect("the depths were shown within 15 s");
    let row = stats["sectors"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["sector"] == sector)
        .unwrap();
    assert_eq!(shown_depths[1], sector);
    let summary = shown_depths[2].as_str().unwrap();
    let count = |k: &str| row[k].as_u64().unwrap();
    let words = |n: u64| {
        let s = n.to_string();
        let mut out = String::new();
        for (i, c) in s.chars().enumerate() {
            if i > 0 && (s.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    };
    assert!(
        summary.starts_with(&format!(
            "{} positions: {} won, {} lost, {} drawn",
            words(count("positions")),
            words(count("win")),
            words(count("loss")),
            words(count("draw"))
        )),
        "{summary}"
    );
    assert!(
        summary.contains(&format!("the deepest {} plies", count("max_depth"))),
        "{summary}"
    );
    let csv = shown_depths[4].as_str().unwrap();
    let mut totals = std::collections::HashMap::new();
    let mut bars = 0;
    for line in csv.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        *totals.entry(f[1].to_string()).or_insert(0u64) += f[2].parse::<u64>().unwrap();
        bars += u64::from(f[1] != "draw");
    }
    for k in ["win", "loss", "draw"] {
        assert_eq!(totals.get(k).copied().unwrap_or(0), count(k), "{k}: {csv}");
    }
    assert!(csv.starts_with("depth,value,positions\n"), "{csv}");
    assert_eq!(
        shown_depths[3], bars,
        "a bar per CSV row of wins and losses"
    );
    browser.click("#depths-close");
    browser.js(
        "const f = document.getElementById('stats-filter'); f.value = '';
         f.dispatchEvent(new Event('input'));
         const p = document.getElementById('stats-phase'); p.value = 'all';
         p.dispatchEvent(new Event('change'));
         document.querySelector('#stats-table button[data-sort=\"sector\"]').click(); return null",
    );

    // A game against the database: White places on a5, the database answers with a best move.
    browser.click("#tab-play");
    browser.click("#new-game");
    shown(browser, start);
    browser.click("[data-point=\"a5\"]");
    let (p0, t0) = Position::parse(&variant, start).unwrap();
    let placed = play(&p0, Move::parse(variant.board(), "a5").unwrap());
    let placed_text = placed.to_notation(&variant, t0.other());
    let replied = wait_for(Duration::from_secs(15), || {
        let s = browser.js("return [document.body.dataset.ready, document.body.dataset.position, document.querySelectorAll('#line button').length]");
        (s[0] == "true" && s[2] == 3).then(|| s[1].as_str().unwrap().to_string())
    })
    .expect("the database answered within 15 s");
    let q = query_json(db, &placed_text);
    let reply =
        browser.js("return document.querySelectorAll('#line button')[2].firstChild.textContent");
    let reply = reply
        .as_str()
        .unwrap()
        .split_whitespace()
        .last()
        .unwrap()
        .to_string();
    let chosen = q["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == reply.as_str())
        .unwrap_or_else(|| panic!("{reply} is not a move of {placed_text}"));
    assert_eq!(chosen["value"], q["value"], "the database kept the value");
    assert_eq!(chosen["depth"], q["depth"]);
    let (after, t1) = Position::parse(&variant, &placed_text).unwrap();
    let expected = play(&after, Move::parse(variant.board(), &reply).unwrap());
    assert_eq!(replied, expected.to_notation(&variant, t1.other()));
}

/// A screenshot in the target folder, named with `-phone` at a phone's width.
fn shot(browser: &Browser, name: &str) {
    let suffix = if browser.width() < 500 { "-phone" } else { "" };
    browser.screenshot(&target_dir().join(format!("{name}{suffix}.png")));
}

/// Opens `url` in a fresh page (through a blank one, so that a change of the fragment alone is
/// a new load, not a `hashchange` the old page may answer late).
fn open(browser: &Browser, url: &str) {
    browser.goto("about:blank");
    browser.goto(url);
}

/// A server of `db` and a browser session on it, the profile and the driver's log named after
/// `tag`.
fn session(tag: &str, db: &Path) -> (Server, Browser) {
    let server = Server::start(db, 10.0);
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let browser = Browser::start(
        &tmp.join(format!("{tag}-profile")),
        &tmp.join(format!("{tag}-chromedriver.log")),
    );
    (server, browser)
}

/// The window sizes every page test runs at: a desktop, and a phone (390×844).
const SIZES: [(u32, u32); 2] = [(1200, 1000), (390, 844)];

#[test]
fn addresses_the_folder_lacks_say_so_and_a_hidden_evaluation_stays_hidden_in_play() {
    if !browser_present(
        "addresses_the_folder_lacks_say_so_and_a_hidden_evaluation_stays_hidden_in_play",
    ) {
        return;
    }
    let db = solved("serve-browser-address", "six", &[]);
    // Nine's endgames beside six: nine comes first in the list, but its start is not solved.
    let out = morris(&[
        "--variant",
        "nine",
        "solve",
        "--max-pieces",
        "3",
        "-q",
        "--db",
        db.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let (server, browser) = session("serve-browser-address", &db);
    for (width, height) in SIZES {
        browser.window(width, height);
        addresses_at_one_size(&browser, &server);
    }
}

fn addresses_at_one_size(browser: &Browser, server: &Server) {
    let start = ".../.../..../.../... w 6 6";

    // Without an address the page opens on a game whose start is solved: six, not nine.
    open(browser, &format!("{}/", server.url()));
    let page = shown(browser, start);
    assert!(page["error"].is_null(), "{page}");

    // A pasted position the server refuses leaves the board and the line as they were; the
    // next move and its undo show no stale error.
    browser.js(
        "document.getElementById('position-input').value = 'not a position';
         document.getElementById('goto').requestSubmit(); return null",
    );
    let error = error_shown(browser);
    assert!(error.contains("Cannot open \"not a position\""), "{error}");
    let page = shown(browser, start);
    assert_eq!(
        page["hash"],
        "#variant=six&position=.../.../..../.../...+w+6+6"
    );
    browser.click("[data-point=\"a5\"]");
    let page = shown(browser, "W../.../..../.../... b 5 6");
    assert!(page["error"].is_null(), "{page}");
    browser.click("#undo");
    let page = shown(browser, start);
    assert!(page["error"].is_null(), "{page}");

    // Nine's start is not solved here: before anyone moves, Play says so and promises no
    // play, and with the database to move it makes no move.
    let nine = ".../.../.../....../.../.../... w 9 9";
    open(browser, &format!("{}/#variant=nine&tab=play", server.url()));
    shown(browser, nine);
    let note = engine_note(browser);
    assert!(
        note.contains("not solved here") && !note.contains("plays"),
        "{note}"
    );
    browser.click(".side[data-side=\"b\"]");
    std::thread::sleep(Duration::from_millis(1500));
    let note = engine_note(browser);
    assert!(
        note.contains("not solved here") && !note.contains("played"),
        "{note}"
    );
    shown(browser, nine);

    // Play where the database has no value: it says so and offers Explore.
    let unsolved = "W.W/.../.../W...W./.../B.B/..B b 0 0";
    open(
        browser,
        &format!(
            "{}/#variant=nine&position={}&tab=play&side=w",
            server.url(),
            enc(unsolved)
        ),
    );
    shown(browser, unsolved);
    let note = wait_for(Duration::from_secs(10), || {
        let t = browser.js("return document.getElementById('engine').textContent");
        let t = t.as_str()?.to_string();
        t.contains("not solved here").then_some(t)
    })
    .expect("Play says the position is not solved");
    assert!(note.contains("Explore"), "{note}");
    browser.click("#explore-here");
    // Explore says what solving the missing sector costs.
    let cost = browser.js("return document.getElementById('unsolved').textContent");
    let cost = cost.as_str().unwrap();
    assert!(
        cost.contains("morris solve --variant nine")
            && cost.contains("Solving it takes about")
            && cost.contains("on two cores (a fast machine takes about ")
            && cost.contains("of disk"),
        "{cost}"
    );
    let tab =
        browser.js("return document.getElementById('tab-explore').getAttribute('aria-selected')");
    assert_eq!(tab, "true");

    // An unknown variant (also in capitals) is named, with what the folder holds, and stays
    // on screen over six's start, the address as given.
    for name in ["nosuch", "SIX"] {
        open(browser, &format!("{}/#variant={name}", server.url()));
        let page = shown(browser, start);
        let error = page["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error: {page}"));
        assert!(
            error.contains(&format!("\"{name}\"")) && error.contains("it holds: nine, six"),
            "{error}"
        );
        assert_eq!(page["hash"], format!("#variant={name}"));
    }
    // Rules the folder does not hold, or that do not exist, are not replaced silently.
    for rules in ["removal=strict", "removal=bogus"] {
        open(browser, &format!("{}/#variant=six&{rules}", server.url()));
        let page = shown(browser, start);
        let error = page["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error: {page}"));
        assert!(
            error.contains(&rules.replace('=', " ")) && error.contains("does not hold"),
            "{error}"
        );
        assert_eq!(page["hash"], format!("#variant=six&{rules}"));
        // A move moves on: the error goes and the address follows the game again.
        browser.click("[data-point=\"a5\"]");
        let page = shown(browser, "W../.../..../.../... b 5 6");
        assert!(page["error"].is_null(), "{page}");
        assert!(page["hash"]
            .as_str()
            .unwrap()
            .contains("variant=six&position="));
    }

    // The keyboard: a point takes the focus, has an accessible name, plays with Enter, and
    // keeps the focus after the move.
    open(browser, &format!("{}/#variant=six", server.url()));
    shown(browser, start);
    let label = browser.js(
        "const p = document.querySelector('[data-point=\"c5\"]'); p.focus();
         return [p.getAttribute('aria-label'), p.getAttribute('tabindex'), document.activeElement.dataset.point]",
    );
    assert_eq!(
        label,
        json!(["c5, empty, placing or moving here draws", "0", "c5"])
    );
    browser.cmd(
        "POST",
        "/actions",
        json!({"actions": [{"type": "key", "id": "keyboard", "actions": [
            {"type": "keyDown", "value": "\u{E007}"}, {"type": "keyUp", "value": "\u{E007}"}]}]}),
    );
    shown(browser, ".W./.../..../.../... b 5 6");
    let focus = browser.js(
        "return [document.activeElement.dataset.point, document.activeElement.getAttribute('aria-label'),
                 document.getElementById('verdict').getAttribute('aria-live')]",
    );
    assert_eq!(focus, json!(["c5", "c5, white piece", "polite"]));
    // The board is one Tab stop, a group of buttons; the arrow keys move the focus to the
    // nearest point that way on the screen (neither walking the game nor scrolling), and the
    // Tab stop follows.
    let stops = browser.js(
        "return [document.querySelectorAll('#board [tabindex=\"0\"]').length,
                 document.querySelectorAll('#board [tabindex=\"-1\"]').length,
                 document.getElementById('board').getAttribute('role')]",
    );
    assert_eq!(stops, json!([1, 15, "group"]));
    let key = |code: &str| {
        browser.cmd(
            "POST",
            "/actions",
            json!({"actions": [{"type": "key", "id": "keyboard", "actions": [
                {"type": "keyDown", "value": code}, {"type": "keyUp", "value": code}]}]}),
        );
        browser
            .js("return document.activeElement.dataset.point || null")
            .as_str()
            .map(str::to_string)
    };
    for (code, point) in [
        ("\u{E014}", "e5"), // right
        ("\u{E015}", "e3"), // down
        ("\u{E012}", "d3"), // left
        ("\u{E013}", "d4"), // up
    ] {
        assert_eq!(key(code).as_deref(), Some(point), "after {code:?}");
    }
    shown(browser, ".W./.../..../.../... b 5 6");
    let stops = browser.js(
        "return [...document.querySelectorAll('#board [tabindex=\"0\"]')].map(p => p.dataset.point)",
    );
    assert_eq!(stops, json!(["d4"]));
    // Enter plays the focused point: Black places on d4.
    key("\u{E007}");
    shown(browser, ".W./..B/..../.../... w 5 5");

    // The marks on the board read without their colours: +depth a win, −depth a loss, = a
    // draw, each the value of the best move through that point.
    let won = "W.B/.../.W.B/.../W.. b 3 4";
    open(
        browser,
        &format!("{}/#variant=six&position={}", server.url(), enc(won)),
    );
    let page = shown(browser, won);
    let labels = browser.js(
        "return [...document.querySelectorAll('text.depth')].map(t => [t.textContent, t.getAttribute('class')])",
    );
    let labels = labels.as_array().unwrap();
    assert!(!labels.is_empty(), "{page}");
    for label in labels {
        let (text, class) = (label[0].as_str().unwrap(), label[1].as_str().unwrap());
        let ok = match text.chars().next() {
            Some('+') => class.contains("win"),
            Some('\u{2212}') => class.contains("loss"),
            Some('=') => class.contains("draw"),
            _ => false,
        };
        assert!(ok, "{text} {class}");
    }
    let best = &page["moves"][0];
    assert!(
        labels
            .iter()
            .any(|l| l[0] == format!("+{}", best[2].as_str().unwrap())),
        "{labels:?} {best}"
    );

    // In the moving phase each piece that moves has its best move's value at the corner of
    // its ring, and while a mill's removal is chosen each piece to remove has its value on
    // it, a draw's `=` too.
    let moving = "WW./.../BB.W/.../..B w 0 0";
    open(
        browser,
        &format!("{}/#variant=six&position={}", server.url(), enc(moving)),
    );
    let page = shown(browser, moving);
    let label = |m: &Value| match (m[1].as_str().unwrap(), m[2].as_str().unwrap()) {
        ("win", d) => format!("+{d}"),
        ("loss", d) => format!("\u{2212}{d}"),
        _ => "=".to_string(),
    };
    let rings = browser.js(
        "return [...document.querySelectorAll('#board circle.ring')].map(r => {
           const x = r.getAttribute('cx'), y = r.getAttribute('cy');
           const p = [...document.querySelectorAll('#board [data-point]')].find(h => h.getAttribute('cx') === x && h.getAttribute('cy') === y).dataset.point;
           const t = document.querySelector(`#board text.badge-text[data-mark=\"${p}\"]`);
           return [p, r.getAttribute('class'), t ? t.textContent : null];
         })",
    );
    let rings = rings.as_array().unwrap();
    // a5 is blocked; c5 and e3 move.
    assert_eq!(rings.len(), 2, "{rings:?}");
    for ring in rings {
        let point = ring[0].as_str().unwrap();
        // The API lists moves best first: the first from this point is its best.
        let best = page["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m[0].as_str().unwrap().starts_with(&format!("{point}-")))
            .unwrap();
        assert_eq!(ring[2], label(best), "{point}: {ring} {best}");
    }
    browser.click("[data-point=\"e3\"]");
    browser.click("[data-point=\"e5\"]");
    let removals = browser.js(
        "return [...document.querySelectorAll('#board text.depth[data-mark]')].map(t => [t.dataset.mark, t.textContent])",
    );
    let removals = removals.as_array().unwrap();
    assert_eq!(removals.len(), 3, "{removals:?}");
    for r in removals {
        let m = page["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m[0] == format!("e3-e5x{}", r[0].as_str().unwrap()).as_str())
            .unwrap();
        assert_eq!(r[1], label(m), "{r} {m}");
    }
    browser
        .js("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape'})); return null");

    // A variant this folder lacks: the error says what solving it would cost.
    open(browser, &format!("{}/#variant=seven", server.url()));
    let error = wait_for(Duration::from_secs(10), || {
        let e = browser.js("return document.getElementById('error').textContent");
        let e = e.as_str()?.to_string();
        e.contains("Solving it takes about").then_some(e)
    })
    .expect("the cost of solving seven is shown");
    assert!(
        error.contains("\"seven\"") && error.contains("of disk"),
        "{error}"
    );

    // A game from Sanmill: its variant's name, a set-up position as its FEN, annotations and
    // numeric glyphs; the moves are played from the FEN's position.
    let sanmill = "[Event \"Sanmill-Game\"]\r\n[Variant \"Nine Men's Morris\"]\r\n\
        [FEN \"OOO*****/@@@*****/******** w m s 3 0 3 0 0 0 -1 -1 -1 -1 0 0 30 ids:nodes\"]\r\n\
        [SetUp \"1\"]\r\n\r\n30. d5-c5! $1 {a comment} d6-d5?! 31. c5-c4 *";
    import(browser, sanmill);
    let nine = Variant::by_name("nine").unwrap();
    let from = ".../.BB/.WW/...WB./.../.../... w 0 0";
    let (mut pos, mut turn) = Position::parse(&nine, from).unwrap();
    for mv in ["d5-c5", "d6-d5", "c5-c4"] {
        pos = play(&pos, Move::parse(nine.board(), mv).unwrap());
        turn = turn.other();
    }
    shown(browser, &pos.to_notation(&nine, turn));
    let list: Vec<String> = game_list(browser).into_iter().map(|(t, _)| t).collect();
    assert_eq!(list, ["start", "1. d5-c5", "1\u{2026} d6-d5", "2. c5-c4"]);
    let hash = hash(browser);
    assert!(
        hash.contains(&format!("position={}", from.replace(' ', "+"))),
        "{hash}"
    );
    // A FEN that cannot be a position here is refused, naming why.
    import(
        browser,
        "[Variant \"Nine Men's Morris\"][FEN \"********/@OOOO*@*/**@***** w p r 4 5 3 6 1 0 -1 -1 -1 -1 0 0 4 ids:nodes\"]",
    );
    let error = error_shown(browser);
    assert!(error.contains("a removal still to make"), "{error}");

    // With the evaluation hidden, the database's moves in Play say nothing of the value.
    open(browser, &format!("{}/#variant=six", server.url()));
    shown(browser, start);
    browser.click("#hide-eval");
    browser.click("#tab-play");
    browser.click(".side[data-side=\"b\"]");
    let note = wait_for(Duration::from_secs(15), || {
        let text = browser.js("return document.getElementById('engine').textContent");
        let text = text.as_str()?.to_string();
        text.starts_with("The database played").then_some(text)
    })
    .expect("the database moves within 15 s");
    assert!(
        note.ends_with('.') && note.split(' ').count() == 4,
        "the note tells the value: {note}"
    );
    for word in ["win", "draw", "loss", "plies", "ply"] {
        assert!(!note.contains(word), "the note tells the value: {note}");
    }
    // The profile as found: the evaluation shown.
    browser.js("localStorage.removeItem('morris.hideEval'); return null");
}

/// Runs `at_one_size` in one browser session at each of [`SIZES`], over six solved whole in a
/// fresh folder named `tag`, when Chromium is installed (see `browser_present`).
fn on_six_at_each_size(test: &str, tag: &str, at_one_size: impl Fn(&Browser, &Server, &Path)) {
    if !browser_present(test) {
        return;
    }
    let db = solved(tag, "six", &[]);
    let (server, browser) = session(tag, &db);
    for (width, height) in SIZES {
        browser.window(width, height);
        at_one_size(&browser, &server, &db);
    }
}

#[test]
fn play_ends_in_a_draw_by_repetition_or_by_the_n_move_rule() {
    on_six_at_each_size(
        "play_ends_in_a_draw_by_repetition_or_by_the_n_move_rule",
        "serve-browser-draws",
        |browser, server, _| draws_at_one_size(browser, server),
    );
}

fn draws_at_one_size(browser: &Browser, server: &Server) {
    let endgame = "WW./.../BB../.../W.B w 0 0";
    open(
        browser,
        &format!("{}/#variant=six&position={}", server.url(), enc(endgame)),
    );
    shown(browser, endgame);

    // The rules themselves, on lines made up for them.
    let rule = |line: &str, n: u32| {
        browser.js(&format!(
            "const d = drawByRule({line}.map(([position, move]) => ({{position, move}})), {n});
             return d && d.reason"
        ))
    };
    let twice = r#"[["A", null], ["B", "a5-a3"], ["A", "a3-a5"], ["B", "a5-a3"]]"#;
    assert!(rule(twice, 100).is_null());
    let thrice = r#"[["A", null], ["B", "a5-a3"], ["A", "a3-a5"], ["B", "a5-a3"], ["A", "a3-a5"]]"#;
    let said = rule(thrice, 100);
    assert!(
        said.as_str()
            .unwrap()
            .starts_with("Draw by threefold repetition"),
        "{said}"
    );
    let quiet = r#"[["A", null], ["B", "a5-a3"], ["C", "b4-c4"], ["D", "c5-e5"]]"#;
    assert!(rule(quiet, 4).is_null());
    let said = rule(quiet, 3);
    assert!(
        said.as_str()
            .unwrap()
            .starts_with("Draw by the 3-move rule"),
        "{said}"
    );
    let removal = r#"[["A", null], ["B", "a5-a3"], ["C", "b4-c4xe1"], ["D", "c5-e5"]]"#;
    assert!(
        rule(removal, 2).is_null(),
        "a removal starts the count again"
    );
    // As in Sanmill, placements do not count, and one starts the count again: with N = 5 no
    // draw comes while placing.
    let placing = r#"[["A", null], ["B", "a5"], ["C", "b4"], ["D", "c5"], ["E", "e5"], ["F", "a3"], ["G", "c3"]]"#;
    assert!(rule(placing, 5).is_null());
    assert!(rule(placing, 1).is_null());
    let after_placing =
        r#"[["A", null], ["B", "a5-a3"], ["C", "c5"], ["D", "b4-c4"], ["E", "c4-b4"]]"#;
    assert!(
        rule(after_placing, 3).is_null(),
        "a placement starts the count again"
    );
    assert!(rule(after_placing, 2)
        .as_str()
        .unwrap()
        .starts_with("Draw by the 2-move rule: 2 moves"));

    // In a game: with N = 1, White's first move without a mill ends it, and the database
    // does not answer.
    browser.click("#tab-play");
    browser.js("const i = document.getElementById('n-move'); i.value = '1';
         i.dispatchEvent(new Event('change')); return null");
    let moved = browser.js(
        "const li = [...document.querySelectorAll('#moves li')].find(l => !l.dataset.move.includes('x'));
         li.querySelector('button').click(); return li.dataset.move",
    );
    let moved = moved.as_str().unwrap().to_string();
    let variant = Variant::by_name("six").unwrap();
    let (pos, turn) = Position::parse(&variant, endgame).unwrap();
    let after = play(&pos, Move::parse(variant.board(), &moved).unwrap())
        .to_notation(&variant, turn.other());
    shown(browser, &after);
    // The last move is drawn as an arrow; Flip turns the board half round and back.
    let arrows = browser.js("return document.querySelectorAll('#board .last-arrow').length");
    assert_eq!(arrows, 1, "{moved}");
    let ys = "return ['a1', 'a5'].map(p => Number(document.querySelector(`[data-point=\"${p}\"]`).getAttribute('cy')))";
    let before = browser.js(ys);
    assert!(
        before[0].as_f64() > before[1].as_f64(),
        "a1 below a5: {before}"
    );
    browser.click("#flip");
    let flipped = browser.js(ys);
    assert!(
        flipped[0].as_f64() < flipped[1].as_f64(),
        "flipped, a1 above a5: {flipped}"
    );
    browser.click("#flip");
    assert_eq!(browser.js(ys), before);
    let note = wait_for(Duration::from_secs(5), || {
        let text = browser.js("return document.getElementById('engine').textContent");
        let text = text.as_str()?.to_string();
        text.starts_with("Draw by the 1-move rule").then_some(text)
    })
    .unwrap_or_else(|| panic!("no draw after {moved}"));
    assert!(note.ends_with("The game is over."), "{note}");
    let enabled = browser.js(
        "return [...document.querySelectorAll('#moves button')].filter(b => !b.disabled).length",
    );
    assert_eq!(enabled, 0, "moves are still offered after the draw");
    std::thread::sleep(Duration::from_millis(800));
    let still = browser.js("return document.body.dataset.position");
    assert_eq!(still, after.as_str(), "the database moved after the draw");
    // The status says the game is drawn by the rule, not what perfect play would give, and
    // the game's text records the draw and the rule's N.
    let verdict = browser.js("return document.getElementById('verdict').textContent");
    assert!(
        verdict
            .as_str()
            .unwrap()
            .starts_with("Drawn by ruleDraw by the 1-move rule"),
        "{verdict}"
    );
    browser.js("document.getElementById('game-text').open = true; document.getElementById('export').click(); return null");
    let text = browser.js("return document.getElementById('game-text-input').value");
    let text = text.as_str().unwrap();
    for line in [
        "[NMoveRule \"1\"]",
        "[Result \"1/2-1/2\"]",
        "[Termination \"1-move rule\"]",
    ] {
        assert!(text.contains(line), "{line} not in {text}");
    }
    assert!(text.trim_end().ends_with(" 1/2-1/2"), "{text}");
    browser.js("localStorage.removeItem('morris.nMove'); document.getElementById('game-text-input').value = ''; return null");

    // The Play tab, the side and the N-move rule are in the address: reopened, it plays
    // again under that rule, whatever the user's own choice.
    let hash = browser.js("return location.hash");
    let hash = hash.as_str().unwrap().to_string();
    assert!(hash.contains("nmove=1&tab=play&side=w"), "{hash}");
    open(browser, &format!("{}/{hash}", server.url()));
    shown(browser, &after);
    let tab = browser.js(
        "return [document.getElementById('tab-play').getAttribute('aria-selected'),
                 document.getElementById('play-panel').hidden, document.getElementById('n-move').value]",
    );
    assert_eq!(tab, json!(["true", false, "1"]), "{hash}");
    let note = wait_for(Duration::from_secs(5), || {
        let text = browser.js("return document.getElementById('engine').textContent");
        let text = text.as_str()?.to_string();
        text.starts_with("Draw by the 1-move rule").then_some(text)
    });
    assert!(
        note.is_some(),
        "the reopened link is not drawn under its rule"
    );
    assert_eq!(
        browser.js("return localStorage.getItem('morris.nMove')"),
        Value::Null,
        "a link's rule is not kept as the user's own"
    );
}

#[test]
fn play_reviews_a_game_without_moving_and_gives_hints() {
    on_six_at_each_size(
        "play_reviews_a_game_without_moving_and_gives_hints",
        "serve-browser-review",
        review_at_one_size,
    );
}

/// The number of moves in the game list (its start not counted).
fn game_moves(browser: &Browser) -> usize {
    let n = browser.js("return document.querySelectorAll('#line button').length");
    n.as_u64().unwrap() as usize - 1
}

/// Waits until the page shows a position with `moves` moves in the game list, and returns it.
fn shown_after(browser: &Browser, moves: usize) -> String {
    wait_for(Duration::from_secs(15), || {
        let s = browser.js("return [document.body.dataset.ready, document.body.dataset.position, document.querySelectorAll('#line button').length]");
        (s[0] == "true" && s[2] == moves as u64 + 1).then(|| s[1].as_str().unwrap().to_string())
    })
    .unwrap_or_else(|| {
        panic!(
            "no position after {moves} moves at width {}: {} {}",
            browser.width(),
            game_moves(browser),
            browser.js("return [document.getElementById('engine').textContent, document.getElementById('error').textContent,
                        [...document.querySelectorAll('#moves button')].map(b => b.disabled), state.review, state.at, state.line.length]")
        )
    })
}

fn review_at_one_size(browser: &Browser, server: &Server, db: &Path) {
    open(
        browser,
        &format!("{}/#variant=six&tab=play&side=w", server.url()),
    );
    shown(browser, SIX[0]);
    // Two moves each: the user's (a5, then the best), the database's answers.
    browser.click("[data-point=\"a5\"]");
    shown_after(browser, 2);
    browser.js("document.querySelector('#moves li:first-child button').click(); return null");
    shown_after(browser, 4);
    let end = browser.js("return document.body.dataset.position");
    // Stepping back through the game, the database does not move, even where it is to move;
    // either side may be played there, and the note says why the database waits.
    click_in_game(browser, "1. a5");
    shown(browser, SIX[1]);
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(game_moves(browser), 4, "the database moved while reviewing");
    shown(browser, SIX[1]);
    let note = engine_note(browser);
    assert!(note.starts_with("Reviewing the game"), "{note}");
    let enabled = browser
        .js("return [...document.querySelectorAll('#moves button')].every(b => !b.disabled)");
    assert_eq!(enabled, true, "Black's moves are offered while reviewing");
    // At the end of the line the game goes on.
    browser.click("#last");
    shown(browser, end.as_str().unwrap());
    // Review mode: the database never moves; the user plays both sides.
    browser.click("#review");
    browser.js("document.querySelector('#moves li:first-child button').click(); return null");
    shown_after(browser, 5);
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(game_moves(browser), 5, "the database moved in review mode");
    let note = engine_note(browser);
    assert!(
        note.starts_with("Reviewing: the database does not move"),
        "{note}"
    );
    // Off again, at the line's end with the database to move: it answers.
    browser.click("#review");
    shown_after(browser, 6);

    // With the evaluation hidden, a hint names a best move and draws it, nothing more.
    browser.click("#hide-eval");
    let position = browser.js("return document.body.dataset.position");
    let position = position.as_str().unwrap().to_string();
    let visible = browser.js("return !document.getElementById('hint').hidden");
    assert_eq!(visible, true, "no hint with the evaluation hidden");
    browser.click("#hint");
    let note = engine_note(browser);
    let hinted = note
        .strip_prefix("Hint: ")
        .and_then(|n| n.strip_suffix(" is a best move."))
        .unwrap_or_else(|| panic!("{note}"))
        .to_string();
    let q = query_json(db, &position);
    let m = q["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == hinted.as_str())
        .unwrap_or_else(|| panic!("{hinted} is not a move of {position}"));
    assert_eq!(
        (&m["value"], &m["depth"]),
        (&q["value"], &q["depth"]),
        "{hinted}"
    );
    let drawn =
        browser.js("return document.querySelectorAll('#board .arrow, #board .selected').length");
    assert!(drawn.as_u64().unwrap() >= 1, "the hint is not drawn");
    for word in ["win", "draw", "loss", "plies"] {
        assert!(!note.contains(word), "the hint tells the value: {note}");
    }
    browser.click("#hide-eval");
    let visible = browser.js("return !document.getElementById('hint').hidden");
    assert_eq!(visible, false, "a hint with the evaluation shown");
    browser.js("localStorage.removeItem('morris.hideEval'); return null");
}

#[test]
fn best_play_adds_the_perfect_line_and_steps_through_it() {
    on_six_at_each_size(
        "best_play_adds_the_perfect_line_and_steps_through_it",
        "serve-browser-best",
        best_play_at_one_size,
    );
}

/// Clicks Show best play and waits for its note; returns the note and the line's positions.
fn best_play(browser: &Browser) -> (String, Vec<String>) {
    browser.click("#best-play");
    let note = wait_for(Duration::from_secs(60), || {
        let v = browser.js("const n = document.getElementById('best-note');
             return n.hidden || document.body.dataset.ready !== 'true' ? null : n.textContent");
        v.as_str().map(str::to_string)
    })
    .expect("best play ends within a minute");
    let line = browser.js("return state.line.map(n => n.position)");
    let line = line
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .collect();
    (note, line)
}

fn best_play_at_one_size(browser: &Browser, server: &Server, db: &Path) {
    // White wins in 27 plies: the line is 27 plies to the end, each position's depth one less
    // than the last's (query --json says so), and the page shows its first move.
    open(
        browser,
        &format!("{}/#variant=six&position={}", server.url(), enc(SIX[2])),
    );
    shown(browser, SIX[2]);
    let (note, line) = best_play(browser);
    assert_eq!(
        note,
        "Best play from the shown position: 27 plies, until the game is over."
    );
    assert_eq!(line.len(), 28, "{line:?}");
    for (i, p) in line.iter().enumerate() {
        let (value, depth) = value_of(db, p);
        let expected = if i % 2 == 0 { "win" } else { "loss" };
        let expected = if i == 27 { "loss" } else { expected };
        assert_eq!(
            (value.as_str(), depth),
            (expected, Some(27 - i as u64)),
            "ply {i}: {p}"
        );
    }
    shown(browser, &line[1]);
    browser.click("#redo");
    shown(browser, &line[2]);

    // From the start, a draw: every position of the line is drawn, until one comes again.
    open(browser, &format!("{}/#variant=six", server.url()));
    shown(browser, SIX[0]);
    let (note, line) = best_play(browser);
    assert!(
        note.ends_with("until a position of the line comes again: a draw."),
        "{note}"
    );
    let last = line.last().unwrap();
    assert_eq!(
        line.iter().filter(|p| *p == last).count(),
        2,
        "the line ends where a position comes again: {line:?}"
    );
    for p in line.iter().step_by(7) {
        assert_eq!(value_of(db, p), ("draw".to_string(), None), "{p}");
    }
    // With the evaluation hidden there is no best play to show.
    browser.click("#hide-eval");
    let hidden = browser.js("return document.getElementById('best-play').hidden");
    assert_eq!(hidden, true);
    browser.click("#hide-eval");
    browser.js("localStorage.removeItem('morris.hideEval'); return null");
}

/// The buttons of the game list: their text and whether each is the shown move.
fn game_list(browser: &Browser) -> Vec<(String, bool)> {
    let v = browser.js(
        "return [...document.querySelectorAll('#line button')].map(b => [b.firstChild.textContent, b.classList.contains('current')])",
    );
    v.as_array()
        .unwrap()
        .iter()
        .map(|b| (b[0].as_str().unwrap().to_string(), b[1] == true))
        .collect()
}

/// Clicks the game list's button that reads `text`.
fn click_in_game(browser: &Browser, text: &str) {
    let found = browser.js(&format!(
        "const b = [...document.querySelectorAll('#line button')].find(b => b.firstChild.textContent === {text:?});
         if (!b) return false; b.click(); return true"
    ));
    assert_eq!(found, true, "no move {text} in the game list");
}

/// The page's address, after the `#`.
fn hash(browser: &Browser) -> String {
    let h = browser.js("return decodeURIComponent(location.hash)");
    h.as_str().unwrap().to_string()
}

/// Imports a game text through the page's box.
fn import(browser: &Browser, text: &str) {
    browser.js(&format!(
        "document.getElementById('game-text').open = true;
         document.getElementById('game-text-input').value = {text:?};
         document.getElementById('import').click(); return null"
    ));
}

/// The error box's text, once shown (at most 10 s).
fn error_shown(browser: &Browser) -> String {
    wait_for(Duration::from_secs(10), || {
        let e = browser.js(
            "const b = document.getElementById('error'); return b.hidden ? null : b.textContent",
        );
        e.as_str().map(str::to_string)
    })
    .expect("an error is shown")
}

#[test]
fn variations_are_kept_promoted_deleted_and_the_game_goes_to_text_and_back() {
    on_six_at_each_size(
        "variations_are_kept_promoted_deleted_and_the_game_goes_to_text_and_back",
        "serve-browser-tree",
        |browser, server, db| {
            variations_at_one_size(browser, server);
            game_text_at_one_size(browser, db);
        },
    );
}

/// Six's start and the positions after a5, a5 b4, a5 c5 and a5 b4 c5.
const SIX: [&str; 5] = [
    ".../.../..../.../... w 6 6",
    "W../.../..../.../... b 5 6",
    "W../B../..../.../... w 5 5",
    "WB./.../..../.../... w 5 5",
    "WW./B../..../.../... b 4 5",
];

fn variations_at_one_size(browser: &Browser, server: &Server) {
    open(browser, &format!("{}/#variant=six", server.url()));
    shown(browser, SIX[0]);
    browser.click("[data-point=\"a5\"]");
    shown(browser, SIX[1]);
    browser.click("[data-point=\"b4\"]");
    shown(browser, SIX[2]);
    // Back one move, and another reply: a variation beside b4, which stays.
    click_in_game(browser, "1. a5");
    shown(browser, SIX[1]);
    browser.click("[data-point=\"c5\"]");
    shown(browser, SIX[3]);
    let expected = |current: usize| -> Vec<(String, bool)> {
        ["start", "1. a5", "1\u{2026} b4", "1\u{2026} c5"]
            .iter()
            .enumerate()
            .map(|(i, t)| (t.to_string(), i == current))
            .collect()
    };
    assert_eq!(game_list(browser), expected(3));
    browser.screenshot(&target_dir().join(format!("explorer-tree-{}.png", browser.width())));
    let nested = browser.js("return document.querySelectorAll('#line ol.variation button').length");
    assert_eq!(nested, 1, "c5 is drawn as a variation");
    let h = hash(browser);
    assert!(
        h.contains("moves=a5,b4,(c5)") && h.contains("at=a5,c5"),
        "{h}"
    );
    // The address keeps the whole tree and the move shown.
    browser.cmd("POST", "/refresh", json!({}));
    shown(browser, SIX[3]);
    assert_eq!(game_list(browser), expected(3));
    // Promoted, the variation becomes the main line; b4 its variation.
    browser.click("#promote");
    let h = wait_for(Duration::from_secs(5), || {
        let h = hash(browser);
        h.contains("moves=a5,c5,(b4)").then_some(h)
    })
    .unwrap_or_else(|| panic!("not promoted: {}", hash(browser)));
    assert!(!h.contains("at=") && !h.contains("ply="), "{h}");
    assert_eq!(
        game_list(browser)
            .iter()
            .map(|(t, _)| t.as_str())
            .collect::<Vec<_>>(),
        ["start", "1. a5", "1\u{2026} c5", "1\u{2026} b4"]
    );
    // Deleted, b4 goes and the page shows the position before it.
    click_in_game(browser, "1\u{2026} b4");
    shown(browser, SIX[2]);
    browser.click("#cut");
    shown(browser, SIX[1]);
    let h = hash(browser);
    assert!(h.contains("moves=a5,c5&ply=1"), "{h}");
    assert_eq!(game_list(browser).len(), 3);
    // Walking the shown line: Redo goes on along the main line.
    browser.click("#redo");
    shown(browser, SIX[3]);
}

fn game_text_at_one_size(browser: &Browser, db: &Path) {
    // Export: headers with the variant and its rules, then the moves.
    browser.js("document.getElementById('game-text').open = true; document.getElementById('export').click(); return null");
    let text = browser.js("return document.getElementById('game-text-input').value");
    let text = text.as_str().unwrap();
    for line in [
        "[Variant \"six\"]",
        "[Removal \"standard\"]",
        "[Result \"*\"]",
        "1. a5 c5 *",
    ] {
        assert!(text.contains(line), "{line} not in {text}");
    }
    // Import: a game with a variation, numbers written either way, a comment.
    let game = "[Variant \"six\"]\n[Removal \"standard\"]\n\n1. a5 b4 (1... c5 {another try} 2.e5) 2. c5 *";
    import(browser, game);
    shown(browser, SIX[4]);
    assert_eq!(
        game_list(browser)
            .iter()
            .map(|(t, _)| t.as_str())
            .collect::<Vec<_>>(),
        [
            "start",
            "1. a5",
            "1\u{2026} b4",
            "1\u{2026} c5",
            "2. e5",
            "2. c5"
        ]
    );
    // Each move's value is the database's.
    let page = shown(browser, SIX[4]);
    check_against_cli(db, &page, SIX[4]);
    browser.js("document.getElementById('export').click(); return null");
    let again = browser.js("return document.getElementById('game-text-input').value");
    assert!(
        again
            .as_str()
            .unwrap()
            .contains("1. a5 b4? (1... c5 2. e5) 2. c5? *"),
        "{again}"
    );
    // A game set up from a position says so, and comes back the same.
    let set_up = format!(
        "[Variant \"six\"]\n[SetUp \"1\"]\n[Position \"{}\"]\n\n1... b4 *",
        SIX[1]
    );
    import(browser, &set_up);
    shown(browser, SIX[2]);
    browser.js("document.getElementById('export').click(); return null");
    let again = browser.js("return document.getElementById('game-text-input').value");
    let again = again.as_str().unwrap();
    assert!(
        again.contains(&format!("[Position \"{}\"]", SIX[1])) && again.contains("1... b4? *"),
        "{again}"
    );
    // A text that does not hold is refused whole, naming why; the game shown stays.
    for (bad, why) in [
        ("1. a5 a5", "move 2, a5, is not legal"),
        (
            "[Variant \"nosuch\"] 1. a5",
            "no solved sectors of the variant \"nosuch\"",
        ),
        (
            "[Variant \"six\"] [Removal \"strict\"] 1. a5",
            "does not hold six under removal strict",
        ),
        ("1. a5 (b4", "not closed"),
        ("1. a5 !!", "\"!!\" is not a move"),
    ] {
        import(browser, bad);
        let error = error_shown(browser);
        assert!(
            error.starts_with("Cannot import the game") && error.contains(why),
            "{bad}: {error}"
        );
        let page = shown(browser, SIX[2]);
        assert_eq!(game_list(browser).len(), 2, "{bad}: {page}");
    }
    browser.js("document.getElementById('game-text-input').value = ''; return null");
}

#[test]
fn a_game_nesting_twelve_thousand_variations_goes_to_text_and_back() {
    on_six_at_each_size(
        "a_game_nesting_twelve_thousand_variations_goes_to_text_and_back",
        "serve-browser-nested",
        |browser, server, _| nested_at_one_size(browser, server),
    );
}

/// How many variations the deep game nests, each inside the one before: more than a
/// script's call stack holds frames of a walk that recurses once per variation.
const NESTED: usize = 12_000;

/// The deep game, from a moving phase of six (`NESTED` plies from `start`): at each level a
/// main move that ends there and, as its alternative, the variation holding the next level.
/// Each level is [main move, its position, alternative, its position]; every move is legal and
/// closes no mill, so that each line goes on.
fn nested_game(start: &str) -> Vec<[String; 4]> {
    let variant = Variant::by_name("six").unwrap();
    let (mut pos, mut turn) = Position::parse(&variant, start).unwrap();
    let quiet = |pos: &Position| -> Vec<Move> {
        generate(&variant, pos)
            .into_iter()
            .filter(|m| m.removed().is_none())
            .collect()
    };
    let mut levels = Vec::with_capacity(NESTED);
    for k in 0..NESTED {
        let moves = quiet(&pos);
        // The alternative goes on where two quiet moves follow it, the choice turning round
        // the candidates so that the line wanders rather than repeats two moves.
        let on = (0..moves.len())
            .map(|j| moves[(k + j) % moves.len()])
            .find(|&m| quiet(&play(&pos, m)).len() >= 2)
            .unwrap_or_else(|| panic!("no way on at level {k}"));
        let main = *moves.iter().find(|&&m| m != on).unwrap();
        let after = |m: Move| play(&pos, m).to_notation(&variant, turn.other());
        levels.push([
            main.to_notation(variant.board()),
            after(main),
            on.to_notation(variant.board()),
            after(on),
        ]);
        pos = play(&pos, on);
        turn = turn.other();
    }
    levels
}

/// The move's number as the game text writes it at `ply` (White moving first): `3.`, `3...`.
fn move_number(ply: usize) -> String {
    let half = ply - 1;
    format!(
        "{}{}",
        half / 2 + 1,
        if half.is_multiple_of(2) { "." } else { "..." }
    )
}

/// The texts a game of `levels` (see `nested_game`) should give: its movetext and the
/// address's move list, each variation closed at the very end.
fn nested_texts(levels: &[[String; 4]]) -> (String, String) {
    let mut movetext = String::new();
    let mut list = levels[0][0].clone();
    for (k, [main, _, alternative, _]) in levels.iter().enumerate() {
        let number = move_number(k + 1);
        let gap = if k == 0 { "" } else { " " };
        movetext += &format!("{gap}{number} {main} ({number} {alternative}");
        list += &format!(",({alternative}");
        if let Some(next) = levels.get(k + 1) {
            list += &format!(",{}", next[0]);
        }
    }
    movetext += &")".repeat(levels.len());
    list += &")".repeat(levels.len());
    (movetext, list)
}

/// How deep the game is that goes the whole way through Import: past the depth at which a
/// browser's layout gives out when lists nest (about 1,500), so that the page's bound on
/// nesting is what lets it be drawn.
const DRAWN: usize = 2_000;

fn nested_at_one_size(browser: &Browser, server: &Server) {
    let start = "WW./.../BB../.../W.B w 0 0";
    let levels = nested_game(start);
    let (movetext, list) = nested_texts(&levels);

    open(
        browser,
        &format!("{}/#variant=six&position={}", server.url(), enc(start)),
    );
    shown(browser, start);
    // The game grows through the page's own tree, not by clicks or an import (24,000 requests
    // to the server), and is not redrawn on the way. Exported with the Export button; any error
    // the page throws is kept.
    let exported = browser.js(&format!(
        "window.errors = [];
         window.addEventListener('error', (e) => errors.push(String(e.message)));
         window.addEventListener('unhandledrejection', (e) => errors.push(String(e.reason)));
         let x = state.root;
         for (const [main, mainAt, alternative, alternativeAt] of {levels}) {{
           grow(x, main, mainAt);
           x = grow(x, alternative, alternativeAt);
         }}
         document.getElementById('game-text').open = true;
         document.getElementById('export').click();
         return [document.getElementById('game-text-input').value, errors]",
        levels = json!(levels)
    ));
    assert_eq!(exported[1], json!([]), "the export failed");
    let text = exported[0].as_str().unwrap();
    let clip = |s: &str| match s.len() {
        0..=300 => s.to_string(),
        n => format!("{} … {}", &s[..200], &s[n - 80..]),
    };
    let headers = format!("[SetUp \"1\"]\n[Position \"{start}\"]\n[Result \"*\"]\n\n");
    assert!(
        text.starts_with("[Event \"morris explorer\"]\n[Variant \"six\"]\n")
            && text.contains(&headers),
        "{}",
        clip(text)
    );
    assert!(
        text.ends_with(&format!(
            "({} {}{} *\n",
            move_number(NESTED),
            levels[NESTED - 1][2],
            ")".repeat(NESTED)
        )),
        "{}",
        clip(text)
    );
    let moves = &text[text.find(&headers).unwrap() + headers.len()..];
    assert!(
        moves == format!("{movetext} *\n"),
        "the movetext differs from the game's: {} against {}",
        clip(moves),
        clip(&movetext)
    );
    // The address's move list, with the start shown.
    let address = browser.js("return encodeHash()");
    let address = address.as_str().unwrap();
    assert!(
        address.contains(&format!("&moves={list}&ply=0")),
        "{}",
        clip(address)
    );

    // Back: read and grown move by move against the server as Import does before it shows the
    // game, into a tree of its own that gives the same text (at the first size only: it is the
    // same script at both, and takes a request per move).
    if browser.width() < 1000 {
        return nested_drawn(
            browser,
            &levels,
            &text[..text.find(&headers).unwrap() + headers.len()],
        );
    }
    browser.js(
        "window.reimport = null;
         (async () => {
           const text = document.getElementById('game-text-input').value;
           const parsed = parseGameText(text);
           const game = gameOfHeaders(parsed.headers);
           const start = await api('explore', { ...gameParams(game), position: parsed.headers.position });
           const root = treeNode(start.position, null, null);
           await growTree(game, root, parsed.moves, () => false);
           const switches = SWITCHES.map((s) => [s, game.ruleSet.rules[s]]);
           return gameText(root, game.variant, switches) === text;
         })().then((same) => { reimport = { same }; }, (e) => { reimport = { error: String(e) }; });
         return null",
    );
    let back = wait_for(Duration::from_secs(600), || {
        std::thread::sleep(Duration::from_millis(500));
        let r = browser.js("return window.reimport");
        (!r.is_null()).then_some(r)
    })
    .expect("the game is read back within 600 s");
    assert_eq!(back, json!({"same": true}));
    let errors = browser.js(
        "return [errors, document.getElementById('error').hidden ? null : document.getElementById('error').textContent]",
    );
    assert_eq!(errors, json!([[], null]));

    nested_drawn(
        browser,
        &levels,
        &text[..text.find(&headers).unwrap() + headers.len()],
    );
}

/// A shallower game of the same kind (`DRAWN` deep, its `headers` as exported) goes the whole
/// way through Import: shown, its move list drawn with every variation in the one before (up
/// to the page's bound on nesting), in the address, and exported again as it came.
fn nested_drawn(browser: &Browser, levels: &[[String; 4]], headers: &str) {
    let clip = |s: &str| match s.len() {
        0..=300 => s.to_string(),
        n => format!("{} … {}", &s[..200], &s[n - 80..]),
    };
    let (movetext, list) = nested_texts(&levels[..DRAWN]);
    let game = format!("{headers}{movetext} *\n");
    browser.js("window.errors = []; return null");
    import(browser, &game);
    let page = shown_within(browser, &levels[0][1], 90);
    assert!(page["error"].is_null(), "{page}");
    let drawn = browser.js("let deepest = 0;
         for (const b of document.querySelectorAll('#line button')) {
           let depth = 0;
           for (let e = b; e; e = e.parentElement) if (e.matches('ol.variation')) depth += 1;
           deepest = Math.max(deepest, depth);
         }
         return [document.querySelectorAll('#line button').length, deepest]");
    // Nested up to the page's bound (MAX_NESTING in app.js), listed at it below.
    assert_eq!(drawn, json!([2 * DRAWN + 1, 32]));
    let address = hash(browser);
    assert!(
        address.contains(&format!("&moves={list}")),
        "{}",
        clip(&address)
    );
    browser.js("document.getElementById('export').click(); return null");
    let again = browser.js("return [document.getElementById('game-text-input').value, errors]");
    // The same game, its moves now annotated from the values the import read (`?`, `?!`):
    // without the annotations, the same text.
    let unmarked = again[0].as_str().unwrap().replace(['?', '!'], "");
    assert_eq!(json!([unmarked, again[1]]), json!([game, []]));
}

#[test]
fn the_board_editor_builds_a_position_and_names_what_is_wrong() {
    on_six_at_each_size(
        "the_board_editor_builds_a_position_and_names_what_is_wrong",
        "serve-browser-editor",
        editor_at_one_size,
    );
}

/// The editor's check once it has answered: (ok, text, position built).
fn edit_check(browser: &Browser, position: &str) -> (bool, String) {
    let v = wait_for(Duration::from_secs(10), || {
        let v = browser.js(
            "const c = document.getElementById('edit-check');
             return [c.dataset.ok, c.textContent, document.getElementById('edit-position').textContent]",
        );
        (v[0] != "" && v[2] == position).then_some(v)
    })
    .unwrap_or_else(|| {
        panic!(
            "the editor did not check {position}: {}",
            browser.js("return document.getElementById('edit-position').textContent")
        )
    });
    (v[0] == "true", v[1].as_str().unwrap().to_string())
}

fn editor_at_one_size(browser: &Browser, server: &Server, db: &Path) {
    open(browser, &format!("{}/#variant=six", server.url()));
    shown(browser, SIX[0]);
    browser.click("#tab-edit");
    assert!(hash(browser).contains("tab=edit"));
    let (ok, _) = edit_check(browser, SIX[0]);
    assert!(ok);
    // A white piece on a5 with six still in hand: seven white pieces, which the server refuses
    // with `query`'s own reason.
    browser.click("[data-point=\"a5\"]");
    let wrong = "W../.../..../.../... w 6 6";
    let (ok, text) = edit_check(browser, wrong);
    assert!(!ok, "{text}");
    let out = morris(&[
        "--variant",
        "six",
        "query",
        "--db",
        db.to_str().unwrap(),
        wrong,
    ]);
    assert_eq!(out.status.code(), Some(2));
    let reason = String::from_utf8_lossy(&out.stderr);
    let reason = reason
        .trim()
        .trim_start_matches("morris: ")
        .trim_start_matches("error: ");
    assert!(
        text.contains(reason.split(';').next().unwrap()),
        "page: {text}\nquery: {reason}"
    );
    browser.screenshot(&target_dir().join(format!("explorer-editor-{}.png", browser.width())));
    let done = browser.js("return document.getElementById('edit-done').disabled");
    assert_eq!(done, true, "a wrong position cannot be explored");
    // Five in hand and Black to move: a position of a game.
    browser.js(
        "const h = document.getElementById('edit-hand-w'); h.value = '5'; h.dispatchEvent(new Event('change'));
         const t = document.getElementById('edit-turn'); t.value = 'b'; t.dispatchEvent(new Event('change'));
         return null",
    );
    let (ok, text) = edit_check(browser, SIX[1]);
    assert!(ok, "{text}");
    // Black on b4 (one more than Black holds back), then removed again by a second click;
    // the empty tool clears a5, and White's tool puts it back.
    browser.click(".tool[data-tool=\"b\"]");
    browser.click("[data-point=\"b4\"]");
    let (ok, _) = edit_check(browser, "W../B../..../.../... b 5 6");
    assert!(!ok, "Black has placed one more than it holds back");
    browser.click("[data-point=\"b4\"]");
    assert!(edit_check(browser, SIX[1]).0);
    browser.click(".tool[data-tool=\"empty\"]");
    browser.click("[data-point=\"a5\"]");
    let (ok, _) = edit_check(browser, ".../.../..../.../... b 5 6");
    assert!(!ok);
    browser.click(".tool[data-tool=\"w\"]");
    browser.click("[data-point=\"a5\"]");
    assert!(edit_check(browser, SIX[1]).0);
    // Explored: the Explore tab shows it with the database's values.
    browser.click("#edit-done");
    let page = shown(browser, SIX[1]);
    check_against_cli(db, &page, SIX[1]);
    let tab =
        browser.js("return document.getElementById('tab-explore').getAttribute('aria-selected')");
    assert_eq!(tab, "true");
    assert_eq!(
        game_list(browser).len(),
        1,
        "a new game from the set-up position"
    );
}

#[test]
fn the_database_plays_weaker_and_sets_endgames_to_practise() {
    on_six_at_each_size(
        "the_database_plays_weaker_and_sets_endgames_to_practise",
        "serve-browser-practice",
        |browser, server, db| {
            practice_at_one_size(browser, server, db);
            browser.js("localStorage.removeItem('morris.strength'); return null");
        },
    );
}

fn practice_at_one_size(browser: &Browser, server: &Server, db: &Path) {
    open(
        browser,
        &format!("{}/#variant=six&tab=play&side=w", server.url()),
    );
    shown(browser, SIX[0]);
    // A weaker level, kept in the address.
    browser.js(
        "const s = document.getElementById('strength'); s.value = 'novice';
         s.dispatchEvent(new Event('change')); return null",
    );
    assert!(
        hash(browser).contains("strength=novice"),
        "{}",
        hash(browser)
    );
    // Practice: the solved moving sectors, most pieces first; 3 against 4 to defend.
    browser.js("document.getElementById('practice').open = true; return null");
    let sectors = wait_for(Duration::from_secs(10), || {
        let v = browser.js(
            "return [...document.querySelectorAll('#practice-sector option')].map(o => o.value)",
        );
        (v.as_array()?.len() > 1).then_some(v)
    })
    .expect("the practice sectors are listed");
    let sectors: Vec<&str> = sectors
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(sectors.first(), Some(&"6-6-0-0"), "{sectors:?}");
    assert!(sectors.contains(&"3-3-0-0"), "{sectors:?}");
    // Each sector offers the goals its positions give, with their shares: a value no position
    // of it has is not offered.
    let stats = stats_json(db);
    let mut refused = 0;
    for sector in &sectors {
        let goals = browser.js(&format!(
            "const s = document.getElementById('practice-sector'); s.value = {sector:?};
             s.dispatchEvent(new Event('change'));
             return [...document.querySelectorAll('#practice-goal option')].map(o => [o.value, o.disabled, o.textContent])"
        ));
        let row = stats["sectors"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["sector"] == *sector)
            .unwrap();
        for goal in goals.as_array().unwrap() {
            let count = row[goal[0].as_str().unwrap()].as_u64().unwrap();
            assert_eq!(goal[1], count == 0, "{sector}: {goal} {row}");
            let text = goal[2].as_str().unwrap();
            assert!(
                if count == 0 {
                    text.ends_with("(none)")
                } else {
                    text.ends_with("%)")
                },
                "{sector}: {text}"
            );
            refused += usize::from(count == 0);
        }
    }
    assert!(refused > 0, "every sector of six holds every value");
    // Black, a win at least 5 plies from the end: the position has Black to move and the
    // database's value is that deep.
    browser.click(".side[data-side=\"b\"]");
    browser.js(
        "document.getElementById('practice-sector').value = '4-3-0-0';
         document.getElementById('practice-sector').dispatchEvent(new Event('change'));
         document.getElementById('practice-goal').value = 'win';
         document.getElementById('practice-depth').value = '5';
         document.getElementById('practice-start').click(); return null",
    );
    let deep = wait_for(Duration::from_secs(10), || {
        let v = browser.js("return [document.body.dataset.ready, document.body.dataset.position, document.querySelectorAll('#line button').length]");
        let p = v[1].as_str()?.to_string();
        (v[0] == "true" && v[2] == 1 && p.ends_with(" b 0 0")).then_some(p)
    })
    .expect("a practice position with Black to move is shown");
    let page = shown(browser, &deep);
    check_against_cli(db, &page, &deep);
    assert_eq!(page["value"], "win", "{deep}");
    let depth: u64 = page["depth"].as_str().unwrap().parse().unwrap();
    assert!(depth >= 5, "{page}");
    browser.click(".side[data-side=\"w\"]");
    browser.js(
        "document.getElementById('practice-sector').value = '3-4-0-0';
         document.getElementById('practice-goal').value = 'loss';
         document.getElementById('practice-start').click(); return null",
    );
    let position = wait_for(Duration::from_secs(10), || {
        let v = browser.js("return [document.body.dataset.ready, document.body.dataset.position, document.querySelectorAll('#line button').length]");
        let p = v[1].as_str()?.to_string();
        (v[0] == "true" && v[2] == 1 && p.ends_with(" w 0 0") && p != SIX[0]).then_some(p)
    })
    .expect("a practice position is shown");
    let variant = Variant::by_name("six").unwrap();
    let (pos, _) = Position::parse(&variant, &position).unwrap();
    assert_eq!((pos.mover.len(), pos.opponent.len()), (3, 4), "{position}");
    let page = shown(browser, &position);
    check_against_cli(db, &page, &position);
    assert_eq!(page["value"], "loss", "{position}");
    // The user plays the side to move: the slowest loss (a lost position that is not over has
    // a move, and after it the database has one), and the database answers as a novice.
    browser.click("#moves li:first-child button");
    let note = wait_for(Duration::from_secs(15), || {
        let t = browser.js("return document.getElementById('engine').textContent");
        let t = t.as_str()?.to_string();
        t.starts_with("The database played").then_some(t)
    })
    .expect("the database answers");
    assert!(note.contains("novice-strength choice"), "{note}");
    shot(browser, "explorer-practice");

    // At full strength, a lost position played out by the slowest loss each time: the
    // database wins, and no position occurs twice on the way (a winner never repeats).
    browser.js(
        "const s = document.getElementById('strength'); s.value = 'perfect';
         s.dispatchEvent(new Event('change'));
         document.getElementById('practice-start').click(); return null",
    );
    wait_for(Duration::from_secs(10), || {
        let v = browser.js("return [document.body.dataset.ready, document.querySelectorAll('#line button').length, document.body.dataset.position]");
        (v[0] == "true" && v[1] == 1 && v[2] != position.as_str()).then_some(())
    })
    .expect("a second practice position is shown");
    let over = wait_for(Duration::from_secs(60), || {
        let v = browser.js("if (document.body.dataset.ready !== 'true') return null;
             const moves = document.querySelectorAll('#moves li').length;
             if (moves === 0) return document.getElementById('verdict').textContent;
             const b = document.querySelector('#moves li:first-child button');
             if (b && !b.disabled) b.click();
             return null");
        v.as_str().map(str::to_string)
    })
    .expect("the game ends within a minute");
    assert!(over.contains("Black has won"), "{over}");
    let line = browser.js("return state.line.map(n => n.position)");
    let line: Vec<&str> = line
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    let distinct: std::collections::HashSet<&&str> = line.iter().collect();
    assert_eq!(distinct.len(), line.len(), "a position repeats: {line:?}");
    assert!(line.len() >= 3, "{line:?}");
}

#[test]
fn the_page_obeys_its_policy_and_says_truly_how_and_whether_the_database_plays() {
    on_six_at_each_size(
        "the_page_obeys_its_policy_and_says_truly_how_and_whether_the_database_plays",
        "serve-browser-truthful",
        |browser, server, _| truthful_at_one_size(browser, server),
    );
}

/// The play note's text once the page has settled.
fn engine_note(browser: &Browser) -> String {
    browser
        .js("return document.getElementById('engine').textContent")
        .as_str()
        .unwrap()
        .to_string()
}

/// Picks `strength` in Play's list as a person would.
fn pick_strength(browser: &Browser, strength: &str) {
    browser.js(&format!(
        "const s = document.getElementById('strength'); s.value = '{strength}';
         s.dispatchEvent(new Event('change')); return null"
    ));
}

fn truthful_at_one_size(browser: &Browser, server: &Server) {
    // The Content-Security-Policy refuses inline style attributes (a console error each load),
    // so neither the served page nor the scripts may use one.
    let page = request(server.addr, "GET", "/", "").unwrap().text();
    assert!(!page.contains(" style="), "an inline style in index.html");
    open(browser, &format!("{}/#variant=six", server.url()));
    shown(browser, SIX[0]);
    let styled = browser.js("return document.querySelectorAll('[style]').length");
    assert_eq!(styled, 0, "elements with an inline style");

    // The list offers every level the API knows, strongest first; the note names the chosen
    // strength, "perfectly" only at full strength.
    browser.click("#tab-play");
    let offered =
        browser.js("return [...document.querySelectorAll('#strength option')].map(o => o.value)");
    assert_eq!(
        offered,
        json!(morris::query::Strength::ALL.map(|s| s.name()))
    );
    for (strength, words) in [
        ("club", "club strength"),
        ("novice", "novice strength"),
        ("expert", "expert strength"),
        ("advanced", "advanced strength"),
        ("intermediate", "intermediate strength"),
        ("casual", "casual strength"),
        ("strong", "strong strength"),
        ("perfect", "perfectly"),
    ] {
        pick_strength(browser, strength);
        let note = engine_note(browser);
        assert!(note.contains(words), "{strength}: {note}");
        if strength != "perfect" {
            assert!(!note.contains("perfect"), "{strength}: {note}");
        }
    }
    browser.js("localStorage.removeItem('morris.strength'); return null");

    // With the evaluation hidden, Set up says only that a game reaches the position, and no
    // text anywhere shown on the page tells a value or a depth.
    open(browser, &format!("{}/#variant=six", server.url()));
    shown(browser, SIX[0]);
    browser.click("#hide-eval");
    browser.click("#tab-edit");
    let (ok, text) = edit_check(browser, SIX[0]);
    assert!(ok, "{text}");
    assert_eq!(text, "A position of a game.");
    let leaks = browser.js(r"const found = [];
          const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          for (let n = walk.nextNode(); n; n = walk.nextNode()) {
            const parent = n.parentElement;
            if (!parent || !parent.checkVisibility()) continue;
            if (/(White|Black) wins|\bdraw\b|\d+ pl(y|ies)|not solved/i.test(n.textContent)) {
              found.push(n.textContent);
            }
          }
          return found");
    assert_eq!(leaks, json!([]), "the hidden evaluation shows");
    browser.js("localStorage.removeItem('morris.hideEval'); return null");
}

#[test]
fn the_endgame_course_passes_a_won_lesson_and_fails_a_given_away_one() {
    on_six_at_each_size(
        "the_endgame_course_passes_a_won_lesson_and_fails_a_given_away_one",
        "serve-browser-course",
        course_at_one_size,
    );
}

/// The course's state: the lessons listed (with their classes), the status, and whether the
/// user is to move in a shown position of Play.
fn course_state(browser: &Browser) -> Value {
    browser.js(
        "return {lessons: [...document.querySelectorAll('#course-lessons li')].map(l => [l.dataset.lesson, l.className]),
                 status: document.getElementById('course-status').textContent,
                 ready: document.body.dataset.ready === 'true',
                 mine: !!state.data && state.data.moves.length > 0 && state.data.turn === state.human && humanToMove(),
                 stored: localStorage.getItem(courseKey())};",
    )
}

/// Plays a lesson of six's course: clicking the first move of the list (the best: the fastest
/// win) until it passes, or the last (the worst) until it fails.
fn play_lesson(browser: &Browser, lesson: &str, worst: bool) -> String {
    browser.click(&format!(
        "#course-lessons li[data-lesson=\"{lesson}\"] button"
    ));
    let started = wait_for(Duration::from_secs(15), || {
        let s = course_state(browser);
        s["status"].as_str()?.starts_with("Lesson").then_some(s)
    })
    .expect("the lesson started");
    assert!(
        started["status"]
            .as_str()
            .unwrap()
            .contains("3 against 3: win"),
        "{started}"
    );
    let which = if worst { "last-child" } else { "first-child" };
    for _ in 0..80 {
        let s = wait_for(Duration::from_secs(20), || {
            let s = course_state(browser);
            let status = s["status"].as_str()?.to_string();
            (status.starts_with("Passed")
                || status.starts_with("Not this time")
                || (s["ready"] == true && s["mine"] == true))
                .then_some(s)
        })
        .unwrap_or_else(|| panic!("the lesson went on: {}", course_state(browser)));
        let status = s["status"].as_str().unwrap();
        if !status.starts_with("Lesson") {
            return status.to_string();
        }
        browser.js(&format!(
            "document.querySelector('#moves li:{which} button').click(); return null"
        ));
        // The next position is shown before the next round looks.
        wait_for(Duration::from_secs(15), || {
            let s = course_state(browser);
            (s["mine"] == false || !s["status"].as_str()?.starts_with("Lesson")).then_some(())
        });
    }
    panic!(
        "the lesson did not end in 80 moves: {}",
        course_state(browser)
    );
}

fn course_at_one_size(browser: &Browser, server: &Server, db: &Path) {
    open(browser, &format!("{}/#variant=six&tab=play", server.url()));
    shown(browser, SIX[0]);
    browser.js("localStorage.removeItem(courseKey()); document.getElementById('practice').open = true; return null");
    // The lessons six gives: those whose sector has positions of the goal's value (no 7
    // against 4 in a game of six pieces), in the course's order.
    let stats = stats_json(db);
    let has = |sector: &str, goal: &str| {
        stats["sectors"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["sector"] == sector && s[goal].as_u64().unwrap() > 0)
    };
    let expected: Vec<String> = [
        ("7-4-0-0", "win"),
        ("5-4-0-0", "win"),
        ("4-3-0-0", "win"),
        ("3-4-0-0", "draw"),
        ("3-3-0-0", "win"),
    ]
    .iter()
    .filter(|(s, g)| has(s, g))
    .map(|(s, g)| format!("{s}{g}"))
    .collect();
    assert!(!expected.iter().any(|l| l.starts_with("7-4")));
    let listed = wait_for(Duration::from_secs(15), || {
        let s = course_state(browser);
        let ids: Vec<String> = s["lessons"]
            .as_array()?
            .iter()
            .map(|l| l[0].as_str().unwrap().to_string())
            .collect();
        (!ids.is_empty()).then_some(ids)
    })
    .expect("the course is listed");
    assert_eq!(listed, expected);

    // Played well, three against three is won, and the lesson is marked passed and kept.
    let status = play_lesson(browser, "3-3-0-0win", false);
    assert!(
        status.starts_with("Passed: 3 against 3: win. You won."),
        "{status}"
    );
    let s = course_state(browser);
    assert!(s["stored"].as_str().unwrap().contains("3-3-0-0win"), "{s}");
    let passed: Vec<&Value> = s["lessons"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l[1].as_str().unwrap().contains("passed"))
        .collect();
    assert_eq!(passed.len(), 1, "{s}");
    assert_eq!(passed[0][0], "3-3-0-0win");
    // Played badly, it is given away, and the lesson says so and stays passed from before.
    let status = play_lesson(browser, "3-3-0-0win", true);
    assert!(
        status.starts_with("Not this time: after your last move the position is"),
        "{status}"
    );
    browser.js("localStorage.removeItem(courseKey()); return null");
}
