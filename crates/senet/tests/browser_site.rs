//! The site's operator and its players in real headless Chromium (issue 56): a server
//! stopped with SIGTERM tells the pages it restarts and they reconnect by themselves; a
//! player reports another from their page and the operator reads it with `senet admin`; a
//! player downloads their data and deletes their player. Ignored by a plain `cargo test`
//! (they need chromium and chromium-driver); `scripts/test.sh` runs them.

mod support {
    pub mod page;
    // Shared with tests/browser.rs, which uses all of it.
    #[allow(dead_code)]
    pub mod webdriver;
}

use serde_json::Value;
use std::process::Command;
use std::time::{Duration, Instant};
use support::page::wait_text;
use support::webdriver::{http, temp_dir, Driver, Server, Session};

/// Waits until the text of `css` holds `needle`, polling every 50 ms (a state that may last
/// only a second is still seen).
fn until(s: &Session, css: &str, needle: &str, secs: u64) {
    let t = Instant::now();
    loop {
        if s.text(css).contains(needle) {
            return;
        }
        assert!(
            t.elapsed() < Duration::from_secs(secs),
            "{css} never said {needle:?}: {:?}",
            s.text(css)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
#[ignore = "needs chromium and chromium-driver; run by scripts/test.sh"]
fn a_server_stopped_with_sigterm_tells_the_pages_and_they_reconnect_when_it_is_back() {
    let dir = temp_dir("sigterm");
    let db = dir.join("g.sqlite");
    let server = Server::start(&db, 0);
    let (port, url) = (server.port, server.url.clone());
    let (status, text) = http(
        port,
        "POST",
        "/api/games",
        Some(r#"{"rules":"kendall5","mode":"hotseat"}"#),
    )
    .unwrap();
    assert_eq!(status, 201, "{text}");
    let id = serde_json::from_str::<Value>(&text).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let driver = Driver::start();
    let game = driver.session(&dir.join("p1"), 1000, 800);
    game.goto(&format!("{url}/g/{id}"));
    game.wait_for("#board", 20);
    until(&game, "#conn", "live", 20);
    let lobby = driver.session(&dir.join("p2"), 1000, 800);
    lobby.goto(&format!("{url}/"));
    lobby.wait_for("#lobby-conn", 20);
    until(&lobby, "#lobby-conn", "live", 20);

    let code = server.terminate();
    assert!(code.success(), "a graceful stop exits with 0: {code:?}");
    until(&game, "#conn", "server restarting", 10);
    until(&lobby, "#lobby-conn", "server restarting", 10);
    // Back on the same port (as an upgrade restarts it): both pages are live again on
    // their own, within a few seconds.
    let server = Server::start(&db, port);
    until(&game, "#conn", "live", 15);
    until(&lobby, "#lobby-conn", "live", 15);
    let errors = game.js(
        "return [...document.querySelectorAll('.error')].map(e => e.textContent.trim()).filter(t => t)",
    );
    assert_eq!(
        errors,
        serde_json::json!([]),
        "the game page shows no error"
    );
    drop(server);
}

fn admin(db: &std::path::Path, args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_senet"))
        .args(["admin", "--db"])
        .arg(db)
        .args(args)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "senet admin {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

#[test]
#[ignore = "needs chromium and chromium-driver; run by scripts/test.sh"]
fn a_player_reports_another_downloads_their_data_and_deletes_their_player() {
    let dir = temp_dir("moderate");
    let db = dir.join("g.sqlite");
    let server = Server::start(&db, 0);
    let driver = Driver::start();
    let a = driver.session(&dir.join("a"), 1000, 900);
    let b = driver.session(&dir.join("b"), 1000, 900);
    for s in [&a, &b] {
        s.goto(&format!("{}/", server.url));
        s.wait_for("#me-link", 20);
    }
    let b_name = b.text("#me-link");
    let a_name = a.text("#me-link");

    // A reports B from B's page.
    a.goto(&format!("{}/p/{b_name}", server.url));
    a.wait_for("#report-open", 20);
    a.click_css("#report-open");
    a.wait_for("#report-reason", 5);
    a.js("const r = document.querySelector('#report-reason'); r.value = 'x';");
    a.click_css("#report-submit");
    wait_text(&a, "#report-status", "3 to 500", 10);
    a.js("const r = document.querySelector('#report-reason'); r.value = 'Insults in the name.';");
    a.click_css("#report-submit");
    wait_text(&a, "#report-status", "the report was sent", 10);
    let reports = admin(&db, &["reports"]);
    assert!(
        reports.contains(&a_name) && reports.contains(&b_name),
        "{reports}"
    );
    assert!(reports.contains("Insults in the name."), "{reports}");
    // One's own page offers no report.
    b.goto(&format!("{}/p/{b_name}", server.url));
    b.wait_for("#player-name", 20);
    assert!(b.find("#report-open").is_none());

    // A's data, then A deletes their player from the account dialog.
    a.goto(&format!("{}/", server.url));
    a.wait_for("#account-btn", 20);
    let data = a.js_async(
        "const done = arguments[0]; fetch('/api/me/data').then(r => r.json()).then(done, e => done(String(e)));",
    );
    assert_eq!(data["player"]["name"], a_name.as_str(), "{data}");
    assert_eq!(data["reports"][0]["player"], b_name.as_str(), "{data}");
    a.click_css("#account-btn");
    a.wait_for("#my-data-link", 5);
    a.click_css("#delete-submit");
    wait_text(&a, "#delete-error", "I understand", 5);
    a.click_css("#delete-confirm");
    a.click_css("#delete-submit");
    // The page starts over as a new anonymous player.
    let t = Instant::now();
    loop {
        if let Some(n) = a.find("#me-link").map(|_| a.text("#me-link")) {
            if !n.is_empty() && n != a_name {
                break;
            }
        }
        assert!(t.elapsed() < Duration::from_secs(20), "no new player");
        std::thread::sleep(Duration::from_millis(100));
    }
    let shown = admin(&db, &["show", data["player"]["id"].as_str().unwrap()]);
    assert!(shown.contains("name: deleted-"), "{shown}");
    assert!(!shown.contains("closed: -"), "{shown}");
    drop(server);
}
