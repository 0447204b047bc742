//! Play with no server (issue 54), in real headless Chromium: the page is loaded once, its
//! service worker keeps it; then the server process is stopped, and the page, reloaded from
//! the worker's cache, plays a whole bot game on every rule set and a hot-seat game with a
//! hint, by its buttons, with its own engine and throws. The server is started again on the
//! same database and port: the page uploads every finished game's record, says so, and the
//! server holds each game with its events. Ignored by a plain `cargo test`; `scripts/test.sh`
//! runs it (after building the engine).

mod support {
    pub mod page;
    #[allow(dead_code)]
    pub mod webdriver;
}

use serde_json::Value;
use std::time::{Duration, Instant};
use support::page::{motion_off, play_to_end, set_select, until_move, wait_text};
use support::webdriver::{free_port, http, temp_dir, Driver, Server, Session};

const RULE_SETS: [&str; 6] = [
    "parker", "senat", "houses", "pyramid", "kendall", "kendall5",
];

/// Waits until `script` returns true (a JS expression's value), failing after `secs`.
fn wait_js(s: &Session, script: &str, secs: u64, what: &str) {
    let t = Instant::now();
    while s.js(&format!("return !!({script})")) != Value::Bool(true) {
        assert!(t.elapsed() < Duration::from_secs(secs), "{what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The local game's ID from the page's address (`/l/ID`).
fn local_id(s: &Session) -> String {
    let p = s.js("return location.pathname");
    let p = p.as_str().unwrap_or("");
    p.strip_prefix("/l/")
        .unwrap_or_else(|| panic!("not a local game's page: {p}"))
        .to_string()
}

/// Starts a game in the lobby (reloaded: from the worker's cache) with the server stopped.
fn start_local(s: &Session, url: &str, rules: &str, mode: &str) -> String {
    s.goto(&format!("{url}/"));
    s.wait_for("#create", 20);
    wait_text(s, "#offline", "out of reach", 10);
    set_select(s, "#rules", rules);
    if mode == "bot" {
        set_select(s, "#level", "beginner");
    }
    s.js(&format!(
        "document.querySelector('input[name=mode][value={mode}]').checked = true; return 1"
    ));
    s.click_css("#create");
    s.wait_for("#board", 20);
    let id = local_id(s);
    assert_eq!(s.text("#conn"), "○ in this browser");
    id
}

#[test]
#[ignore = "needs chromium, chromium-driver and the engine built by scripts/build-wasm.sh; run by scripts/test.sh"]
fn with_the_server_stopped_bot_and_hotseat_games_are_played_in_the_page_and_stored_when_it_returns()
{
    let dir = temp_dir("offline");
    let db = dir.join("g.sqlite");
    let port = free_port();
    let server = Server::start(&db, port);
    let url = server.url.clone();
    let (status, _) = http(port, "GET", "/static/senet_engine.wasm", None).unwrap();
    assert_eq!(
        status, 200,
        "this senet was built without the page's engine: run scripts/build-wasm.sh, then build again"
    );
    let (status, manifest) = http(port, "GET", "/manifest.webmanifest", None).unwrap();
    assert_eq!(status, 200);
    let manifest: Value = serde_json::from_str(&manifest).unwrap();
    assert_eq!(manifest["start_url"], "/");
    assert_eq!(manifest["display"], "standalone");
    for icon in manifest["icons"].as_array().unwrap() {
        let (status, _) = http(port, "GET", icon["src"].as_str().unwrap(), None).unwrap();
        assert_eq!(status, 200, "{icon}");
    }

    let driver = Driver::start();
    let s = driver.session(&dir.join("profile"), 1100, 900);
    s.goto(&format!("{url}/"));
    s.wait_for("#create", 20);
    motion_off(&s);
    wait_js(
        &s,
        "document.documentElement.dataset.engine === 'ready'",
        60,
        "the engine never loaded",
    );
    wait_js(
        &s,
        "document.documentElement.dataset.offline === 'ready'",
        60,
        "the service worker never took the page",
    );
    // The manifest is the page's, and the worker kept the engine.
    assert_eq!(
        s.js("return document.querySelector('link[rel=manifest]').href"),
        format!("{url}/manifest.webmanifest")
    );
    let kept = s.js_async(
        "const done = arguments[arguments.length - 1];
         caches.keys().then(async (ks) => {
           const c = await caches.open(ks.find((k) => k.startsWith('senet-')));
           done([!!(await c.match('/static/senet_engine.wasm')), !!(await c.match('/api/rules'))]);
         }).catch((e) => done(String(e)));",
    );
    assert_eq!(kept, serde_json::json!([true, true]), "{kept}");

    // The server stops (as an operator stops it; the page is not told).
    assert!(server.terminate().success());
    let (refused, _) = (http(port, "GET", "/healthz", None).is_err(), ());
    assert!(refused, "the server still answers");

    // A bot game on every rule set, played to its end in the page.
    let mut games = Vec::new();
    for rules in RULE_SETS {
        let id = start_local(&s, &url, rules, "bot");
        let secs = play_to_end(&s);
        let result = wait_text(&s, "#result-text", "", 10);
        wait_text(&s, "#upload", "out of reach", 10);
        eprintln!("{rules}: bot game played with no server in {secs:.1} s: {result}");
        games.push((rules, id));
    }

    // A hot-seat game, with a hint from the page's engine on the first move.
    let id = start_local(&s, &url, "kendall5", "hotseat");
    until_move(&s);
    s.click_css("#hint");
    let hint = wait_text(&s, "#hint-text", "Hint (expert bot)", 20);
    assert!(hint.contains("winning chance"), "{hint}");
    assert!(
        s.text("#status").contains("Player "),
        "{}",
        s.text("#status")
    );
    let secs = play_to_end(&s);
    eprintln!("kendall5: hot-seat game played with no server in {secs:.1} s");
    games.push(("kendall5", id.clone()));

    // The record the page's download link gives (made in the page).
    let rec = s.js_async(
        "const done = arguments[arguments.length - 1];
         import('/static/local.js').then(async (m) => {
           done(JSON.stringify(await m.recordOf(location.pathname.split('/')[2])));
         }).catch((e) => done(String(e)));",
    );
    assert!(
        s.js("return document.querySelector('#download').getAttribute('download')")
            .as_str()
            .is_some_and(|d| d.ends_with(".json")),
        "no download link"
    );
    let rec: Value = serde_json::from_str(rec.as_str().unwrap())
        .unwrap_or_else(|e| panic!("the record is not JSON ({e}): {rec}"));
    assert_eq!(rec["format"], "senet-record/1");
    assert!(rec.get("seed").is_none(), "{rec}");
    assert!(rec["result"]["position"].is_string(), "{rec}");

    // The server comes back: the page (still open) uploads every game and says so.
    let server = Server::start(&db, port);
    wait_text(&s, "#upload", "has stored this game", 30);
    let stored = s.js("return document.querySelector('#stored-review').getAttribute('href')");
    assert!(stored.as_str().unwrap().ends_with("/review"), "{stored}");
    wait_js(
        &s,
        "Object.values(JSON.parse(localStorage.getItem('senet.local') || '{}')).every((g) => g.uploaded || g.upload_error)",
        60,
        "not every game was uploaded",
    );
    let uploaded = s.js(
        "const a = JSON.parse(localStorage.getItem('senet.local') || '{}');
         return Object.values(a).map((g) => [g.id, g.uploaded || null, g.events.length, g.upload_error || null]);",
    );
    let uploaded = uploaded.as_array().unwrap().clone();
    assert_eq!(uploaded.len(), games.len(), "{uploaded:?}");
    for (rules, id) in &games {
        let g = uploaded
            .iter()
            .find(|g| g[0] == id.as_str())
            .unwrap_or_else(|| panic!("{rules} game {id} not kept"));
        assert_eq!(g[3], Value::Null, "{rules}: refused: {g}");
        let sid = g[1]
            .as_str()
            .unwrap_or_else(|| panic!("{rules} game {id} not uploaded: {g}"));
        let (status, st) = http(port, "GET", &format!("/api/games/{sid}"), None).unwrap();
        assert_eq!(status, 200, "{st}");
        let st: Value = serde_json::from_str(&st).unwrap();
        assert_eq!(st["rules"], *rules);
        assert_eq!(st["status"]["state"], "over", "{rules}");
        assert_eq!(st["page_throws"], true, "{rules}");
        assert_eq!(st["seq"], g[2], "{rules}: every event is stored");
    }
    // The stored game's review says where its throws came from.
    s.click_css("#stored-review");
    wait_text(&s, "#verify", "no seed to check them by", 20);
    // The lobby lists them as stored, with their reviews.
    s.goto(&format!("{url}/"));
    s.wait_for("#local-games", 20);
    let list = s.text("#local-games");
    assert_eq!(
        list.matches("stored on the server").count(),
        games.len(),
        "{list}"
    );
    drop(server);
}
