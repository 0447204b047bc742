//! The engine in the page (issue 54), in real headless Chromium: with the server built with
//! the page's engine (`scripts/build-wasm.sh`, which `scripts/test.sh` runs first), a bot
//! game is played by the page's own engine to its end, with a hint and the win-chance bar,
//! and reviewed with the analysis made in the page: the server's search counter does not
//! move. Ignored by a plain `cargo test`; `scripts/test.sh` runs it.

mod support {
    pub mod page;
    #[allow(dead_code)]
    pub mod webdriver;
}

use serde_json::Value;
use std::time::{Duration, Instant};
use support::page::{act_quick, game_id, motion_off, set_select, until_move, wait_text, Progress};
use support::webdriver::{http, temp_dir, Driver, Server, Session};

/// `senet_searches_total` of the server's metrics.
fn searches(port: u16) -> f64 {
    let (s, text) = http(port, "GET", "/metrics", None).unwrap();
    assert_eq!(s, 200, "{text}");
    text.lines()
        .find_map(|l| l.strip_prefix("senet_searches_total "))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no senet_searches_total in {text}"))
}

fn engine_state(s: &Session) -> String {
    let t = Instant::now();
    loop {
        let v = s.js("return document.documentElement.dataset.engine || ''");
        let v = v.as_str().unwrap_or("").to_string();
        if !v.is_empty() {
            return v;
        }
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "the engine never loaded"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
#[ignore = "needs chromium, chromium-driver and the engine built by scripts/build-wasm.sh; run by scripts/test.sh"]
fn a_bot_game_hint_bar_and_review_run_in_the_page_and_cost_the_server_no_search() {
    let dir = temp_dir("engine");
    let server = Server::start(&dir.join("g.sqlite"), 0);
    let (status, _) = http(server.port, "GET", "/static/senet_engine.wasm", None).unwrap();
    assert_eq!(
        status, 200,
        "this senet was built without the page's engine: run scripts/build-wasm.sh, then build again"
    );
    let driver = Driver::start();
    let s = driver.session(&dir.join("profile"), 1100, 900);
    s.goto(&format!("{}/", server.url));
    s.wait_for("#create", 20);
    // No replays to wait for: the bot's events follow each other at once.
    motion_off(&s);
    assert_eq!(engine_state(&s), "ready");
    set_select(&s, "#rules", "kendall5");
    set_select(&s, "#level", "casual");
    s.click_css("#create");
    s.wait_for("#board", 20);
    let id = game_id(&s);
    let (_, st) = http(server.port, "GET", &format!("/api/games/{id}"), None).unwrap();
    let st: Value = serde_json::from_str(&st).unwrap();
    assert_eq!(
        st["seats"][1]["in_page"], true,
        "the page plays the bot: {}",
        st["seats"]
    );
    assert_eq!(engine_state(&s), "ready");

    // A hint from the page's engine, the bar from it too.
    until_move(&s);
    s.click_css("#hint");
    let hint = wait_text(&s, "#hint-text", "Hint (expert bot)", 20);
    assert!(hint.contains("winning chance"), "{hint}");
    let t = Instant::now();
    while s.js("return document.querySelector('#win-bar[data-first]') ? 1 : 0") != 1 {
        assert!(t.elapsed() < Duration::from_secs(20), "no win-chance bar");
        std::thread::sleep(Duration::from_millis(100));
    }

    // The whole game, the bot's moves chosen by the page.
    let started = Instant::now();
    let mut progress = Progress::new();
    loop {
        let (k, seq) = act_quick(&s);
        if k == "over" {
            break;
        }
        progress.saw(seq);
    }
    wait_text(&s, "#result-text", "", 10);
    eprintln!("the game took {:.1} s", started.elapsed().as_secs_f64());
    let started = Instant::now();
    assert_eq!(
        searches(server.port),
        0.0,
        "the server searched during a page-played game"
    );

    // The review's analysis is made in the page.
    s.goto(&format!("{}/g/{id}/review", server.url));
    s.wait_for("#analysis-summary", 120);
    eprintln!(
        "the review's analysis took {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert_eq!(
        searches(server.port),
        0.0,
        "the server searched for the review"
    );
    let (status, _) = http(server.port, "GET", &format!("/api/games/{id}/record"), None).unwrap();
    assert_eq!(status, 200, "the game is stored on the server");
    drop(server);
}
