//! End-to-end tests in real headless Chromium, driven through chromedriver, against
//! `senet serve` (the debug binary). They need the Debian packages `chromium` and
//! `chromium-driver`, so they are ignored by a plain `cargo test`; `scripts/test.sh`
//! installs the packages if missing and runs them with `-- --ignored`.
//!
//! Screenshots go to `$SENET_SCREENSHOTS` (default: a directory under the target dir);
//! `SENET_SCREENSHOTS=docs/screenshots` refreshes the checked-in ones.

mod support {
    pub mod page;
    pub mod webdriver;
}

use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use support::page::{
    act_quick, axe, axe_source, both_in_one_game, game_id, game_id_or_none, motion_off,
    rename_in_page, set_select, step, strings, wait_change, wait_text, Progress,
};
use support::webdriver::{http, temp_dir, Driver, Server, Session};

/// Plays one action if the page offers one: a throw, or a move, by clicking the board
/// (a movable piece, then its target) when `board` is set, else a move button. Returns
/// what the page offered and its event count before the action.
fn act(s: &Session, board: bool) -> (String, i64) {
    let (kind, seq) = step(s);
    match kind.as_str() {
        "throw" => {
            if let Some(e) = s.find("#throw") {
                if s.click(&e).is_ok() {
                    wait_change(s, seq);
                }
            }
        }
        "move" => {
            let via_board =
                board && s.js("return !!document.querySelector('.piece.movable')") == json!(true);
            if via_board {
                let sq = s.js("return document.querySelector('.piece.movable').dataset.square");
                click_retry(s, &format!(".cell[data-square='{}']", sq.as_str().unwrap()));
                s.wait_for(".cell.target, #off-zone.target", 5);
                click_retry(s, ".cell.target, #off-zone.target");
                {
                    // Two moves between the same squares (two dice) leave a choice of buttons.
                    let t = Instant::now();
                    while step(s).1 == seq && t.elapsed() < Duration::from_secs(3) {
                        std::thread::sleep(Duration::from_millis(20));
                    }
                    if step(s).1 == seq {
                        s.click_css(".move-btn");
                        wait_change(s, seq);
                    }
                }
            } else if let Some(e) = s.find(".move-btn") {
                if s.click(&e).is_ok() {
                    wait_change(s, seq);
                }
            }
        }
        _ => std::thread::sleep(Duration::from_millis(30)),
    }
    (kind, seq)
}

/// Presses (`Session::click` or `Session::tap`) the element matching `css`, finding it
/// again if the page redrew it in between (hovering a piece redraws the board).
fn press_retry(
    s: &Session,
    css: &str,
    what: &str,
    press: fn(&Session, &str) -> Result<(), String>,
) {
    let mut last = String::new();
    for _ in 0..5 {
        let e = s.wait_for(css, 10);
        match press(s, &e) {
            Ok(()) => return,
            Err(err) => last = err,
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("{what} {css}: {last}");
}

/// Clicks the element matching `css` (see [`press_retry`]).
fn click_retry(s: &Session, css: &str) {
    press_retry(s, css, "click", Session::click);
}

fn screenshots() -> PathBuf {
    std::env::var_os("SENET_SCREENSHOTS")
        .map(|p| {
            let p = PathBuf::from(p);
            if p.is_absolute() {
                p
            } else {
                // Relative to the repository root.
                PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                    .join("../..")
                    .join(p)
            }
        })
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("screenshots"))
}

/// Opens the lobby at `url`, starts a game of `rules` against a bot (of `level`, or the
/// lobby's default) and waits for its board.
fn open_bot_game(s: &Session, url: &str, rules: &str, level: Option<&str>) {
    s.goto(&format!("{url}/"));
    s.wait_for("#create", 20);
    set_select(s, "#rules", rules);
    if let Some(level) = level {
        set_select(s, "#level", level);
    }
    s.click_css("#create");
    s.wait_for("#board", 20);
}

/// Creates a game of `rules` against the bot `bot` through the API, the page's player in
/// `seat`, opens it with that seat's token and waits for its board. Returns the game's ID.
fn open_api_bot_game(s: &Session, server: &Server, rules: &str, bot: &str, seat: u8) -> String {
    let c = api(
        server.port,
        "POST",
        "/api/games",
        Some(json!({ "rules": rules, "mode": "bot", "bot": bot, "seat": seat })),
    );
    let id = c["id"].as_str().unwrap().to_string();
    let tok = c["tokens"][seat.to_string()].as_str().unwrap();
    s.goto(&format!("{}/g/{id}#seat={seat}&token={tok}", server.url));
    s.wait_for("#board", 20);
    id
}

fn api(port: u16, method: &str, path: &str, body: Option<Value>) -> Value {
    let b = body.map(|b| b.to_string());
    let (status, text) = http(port, method, path, b.as_deref()).unwrap();
    assert!(status < 300, "{method} {path}: {status} {text}");
    serde_json::from_str(&text).unwrap()
}

#[test]
#[ignore = "needs chromium and chromium-driver; run by scripts/test.sh"]
fn a_whole_game_against_a_bot_in_the_browser_then_review() {
    let dir = temp_dir("bot");
    let server = Server::start(&dir.join("g.sqlite"), 0);
    let driver = Driver::start();
    let s = driver.session(&dir.join("profile"), 1100, 850);
    open_bot_game(&s, &server.url, "kendall5", Some("casual"));
    motion_off(&s);
    assert!(s.text("#title").contains("against a bot"));

    let mut progress = Progress::new();
    let mut actions = 0;
    let mut hinted = false;
    loop {
        // Issue 19: once, a hint values every legal move; the win-chance bar is on against a
        // bot.
        if !hinted && step(&s).0 == "move" && s.find(".move-btn").is_some() {
            let buttons = s.js("return document.querySelectorAll('.move-btn').length");
            if buttons.as_u64().unwrap() >= 2 {
                hinted = true;
                s.click_css("#hint");
                wait_text(&s, "#hint-text", "Hint (expert bot)", 10);
                let valued = s.js("return document.querySelectorAll('.move-btn .win').length");
                assert_eq!(valued, buttons, "every move button shows its win chance");
                let t = Instant::now();
                while s.js("return document.querySelector('#win-bar').dataset.first || ''")
                    == json!("")
                {
                    assert!(
                        t.elapsed() < Duration::from_secs(10),
                        "the win-chance bar is drawn"
                    );
                    std::thread::sleep(Duration::from_millis(50));
                }
                assert!(s.text("#win-bar").contains('%'), "{}", s.text("#win-bar"));
                s.screenshot(&screenshots().join("hint.png"));
            }
        }
        // The first twelve actions by clicks on the board, then by the page's own buttons
        // pressed in one round trip (WebDriver's own clicks have the keyboard's, the touch
        // and the animated games' tests).
        let (k, seq) = if actions < 12 {
            act(&s, true)
        } else {
            act_quick(&s)
        };
        if k == "over" {
            break;
        }
        if k != "wait" {
            actions += 1;
        }
        progress.saw(seq);
    }
    let result = s.text("#result-text");
    assert!(
        result.contains("win") || result.contains("draw"),
        "{result}"
    );
    // The page checks every throw against the seed hash it was shown at the start.
    let t = Instant::now();
    while !s.text("#verify").starts_with('✔') {
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "{}",
            s.text("#verify")
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(s
        .text("#verify")
        .contains("this browser was shown at the start"));
    let moves = s.js("return document.querySelectorAll('#events li').length");
    assert!(moves.as_u64().unwrap() > 5);
    s.screenshot(&screenshots().join("game-over.png"));

    // Review: step through, and the record link.
    let id = s.js("return location.pathname.split('/')[2]");
    let id = id.as_str().unwrap();
    s.goto(&format!("{}/g/{id}/review", server.url));
    s.wait_for("#review-next", 10);
    assert!(s.text("#review-event").contains("the start position"));
    s.click_css("#review-next");
    s.click_css("#review-next");
    let t = Instant::now();
    while !s.text("#review-event").starts_with("Event 2 of") {
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "{}",
            s.text("#review-event")
        );
        std::thread::sleep(Duration::from_millis(30));
    }
    s.click_css("#review-last");
    let rec = api(server.port, "GET", &format!("/api/games/{id}/record"), None);
    let total = rec["events"].as_array().unwrap().len();
    let t = Instant::now();
    while !s
        .text("#review-event")
        .starts_with(&format!("Event {total} of {total}"))
    {
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "{}",
            s.text("#review-event")
        );
        std::thread::sleep(Duration::from_millis(30));
    }
    assert!(s.find("#download").is_some());

    // The analysis: the win-chance graph, marks in the event list, each player's summary;
    // a click on the graph jumps to that point of the game.
    s.wait_while_progressing("#win-graph", "#analysis-progress", 60);
    let summary = s.text("#analysis-summary");
    for row in [
        "error rate",
        "luck-adjusted result",
        "plays like",
        "blunders",
    ] {
        assert!(summary.contains(row), "{row}: {summary}");
    }
    s.click_css("#review-first");
    let graph = s.wait_for("#win-graph", 5);
    assert!(s.click(&graph).is_ok());
    let t = Instant::now();
    while s.text("#review-event").contains("the start position") {
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "the graph's click moves the review"
        );
        std::thread::sleep(Duration::from_millis(30));
    }
    // Step to a decision: the verdict names the win chance after it.
    let t = Instant::now();
    while !s.text("#review-verdict").contains("winning chance")
        || !s.text("#review-event").contains("played")
    {
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "{}",
            s.text("#review-verdict")
        );
        s.click_css("#review-next");
        std::thread::sleep(Duration::from_millis(60));
    }
    let luck = s.js("return document.querySelectorAll('#review-events .luck').length");
    assert!(luck.as_u64().unwrap() > 0, "throws show their luck");
    s.screenshot(&screenshots().join("review.png"));
}

#[test]
#[ignore = "needs chromium and chromium-driver; run by scripts/test.sh"]
fn an_online_game_between_two_browsers_with_a_spectator() {
    let dir = temp_dir("online");
    let server = Server::start(&dir.join("g.sqlite"), 0);
    let driver = Driver::start();
    let a = driver.session(&dir.join("a"), 1000, 800);
    let b = driver.session(&dir.join("b"), 420, 860);
    let c = driver.session(&dir.join("c"), 1000, 800);
    a.goto(&format!("{}/", server.url));
    a.wait_for("#create", 20);
    motion_off(&a);
    // Pyramid's short games: what is tested is the link, the seats and the spectator.
    set_select(&a, "#rules", "pyramid");
    a.click_css("input[name=mode][value=online]");
    a.click_css("#create");
    let link = a.wait_for("#invite-link", 20);
    let _ = link;
    let invite = a.js("return document.querySelector('#invite-link').value");
    let invite = invite.as_str().unwrap().to_string();
    assert!(invite.contains("#claim="), "{invite}");
    b.goto(&invite);
    b.wait_for("#board", 20);
    motion_off(&b);
    assert_eq!(
        b.js("return location.hash"),
        json!(""),
        "the claim code leaves the address bar"
    );
    let game_url = invite.split('#').next().unwrap().to_string();
    // The claimed link is spent: a third browser opening it only watches.
    c.goto(&invite);
    c.wait_for("#board", 20);
    motion_off(&c);
    let t = Instant::now();
    while !c.text("#error").contains("already been claimed") {
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "{}",
            c.text("#error")
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(c.text("#status").contains("watching"));
    // A crafted link with another token for the seat this browser holds asks first, and
    // keeping the held token keeps it.
    let held = || {
        b.js("return JSON.parse(localStorage.getItem('senet.games'))[location.pathname.split('/')[2]].tokens['2']")
    };
    let mine = held();
    assert!(mine.is_string());
    b.goto(&format!("{}/", server.url));
    b.wait_for("#create", 20);
    b.goto(&format!(
        "{game_url}#seat=2&token=0123456789abcdef0123456789abcdef"
    ));
    b.wait_for("#ask", 20);
    b.click_css("#ask-no");
    b.wait_for("#board", 20);
    assert_eq!(
        held(),
        mine,
        "the crafted token did not replace the held one"
    );
    // The first player's page learns over the WebSocket that the friend is here.
    let t = Instant::now();
    while !a.text("#invite").contains("Your friend is here") {
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "{}",
            a.text("#invite")
        );
        std::thread::sleep(Duration::from_millis(50));
    }

    let mut progress = Progress::new();
    let (mut by_a, mut by_b) = (0, 0);
    loop {
        let (ka, sa) = act_quick(&a);
        let (kb, sb) = act_quick(&b);
        if ka == "over" && kb == "over" {
            break;
        }
        by_a += (ka == "throw" || ka == "move") as u32;
        by_b += (kb == "throw" || kb == "move") as u32;
        progress.saw(sa.max(sb));
    }
    assert!(by_a > 3 && by_b > 3, "both played ({by_a}, {by_b})");
    // Both players and the spectator see the same end and the same moves.
    let events = |s: &Session| {
        s.js("return [...document.querySelectorAll('#events li')].map(e => e.textContent)")
    };
    let t = Instant::now();
    while c.find("#result-text").is_none() || events(&c) != events(&a) {
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "the spectator is behind"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(events(&a), events(&b));
    assert!(
        c.find("#throw").is_none()
            || c.js("return document.querySelector('#throw').hidden") == json!(true)
    );
    let result_a = a.text("#result-text");
    let result_b = b.text("#result-text");
    assert!(
        (result_a.contains("You win") && !result_b.contains("You win"))
            || (result_b.contains("You win") && !result_a.contains("You win"))
            || result_a.contains("draw"),
        "{result_a} / {result_b}"
    );
    b.screenshot(&screenshots().join("phone-online-over.png"));
}

#[test]
#[ignore = "needs chromium and chromium-driver; run by scripts/test.sh"]
fn a_killed_server_restarts_and_the_game_goes_on() {
    let dir = temp_dir("restart");
    let db = dir.join("g.sqlite");
    let server = Server::start(&db, 0);
    let port = server.port;
    let url = server.url.clone();
    let driver = Driver::start();
    let s = driver.session(&dir.join("profile"), 1000, 800);
    open_bot_game(&s, &url, "kendall", None);
    let mut n = 0;
    while n < 12 {
        let (k, _) = act(&s, false);
        assert_ne!(k, "over");
        n += (k != "wait") as u32;
    }
    let (_, seq_before) = step(&s);
    let events_before =
        s.js("return [...document.querySelectorAll('#events li')].map(e => e.textContent)");
    // Kill the server (SIGKILL: no shutdown) right after an acknowledged move.
    server.kill();
    let t = Instant::now();
    while !s.text("#conn").contains("reconnecting") {
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "the page did not notice"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let server = Server::start(&db, port);
    let t = Instant::now();
    while !s.text("#conn").contains("live") {
        assert!(
            t.elapsed() < Duration::from_secs(30),
            "the page did not reconnect"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let (_, seq_after) = step(&s);
    assert_eq!(seq_after, seq_before, "no acknowledged move was lost");
    assert_eq!(
        s.js("return [...document.querySelectorAll('#events li')].map(e => e.textContent)"),
        events_before
    );
    let mut n = 0;
    while n < 10 {
        let (k, _) = act(&s, false);
        if k == "over" {
            break;
        }
        n += (k != "wait") as u32;
    }
    let (_, seq_end) = step(&s);
    assert!(seq_end > seq_after, "play went on after the restart");
    drop(server);
}

#[test]
#[ignore = "needs chromium and chromium-driver; run by scripts/test.sh"]
fn screenshots_of_every_rule_set() {
    let dir = temp_dir("shots");
    let server = Server::start(&dir.join("g.sqlite"), 0);
    let driver = Driver::start();
    let s = driver.session(&dir.join("profile"), 1100, 760);
    let out = screenshots();
    let rules = api(server.port, "GET", "/api/rules", None);
    for r in rules["rules"].as_array().unwrap() {
        let id = r["id"].as_str().unwrap();
        // The bot moves first, so the board shows a game under way; then the player throws.
        open_api_bot_game(&s, &server, id, "casual", 2);
        let (k, seq) = step(&s);
        assert_eq!(k, "throw", "{id}: {}", s.text("#status"));
        // The sides are named as the rule set names them (issue 16: pyramid's first player is
        // black, not "light"), and drawn in its colours.
        let side = r["sides"][1]["name"].as_str().unwrap();
        assert!(
            s.text("#status").contains(&format!("Your turn ({side})")),
            "{id}: {}",
            s.text("#status")
        );
        if id == "pyramid" {
            let fill = s.js(
                "return getComputedStyle(document.querySelector('#board .piece.p1 .body')).fill",
            );
            assert_eq!(
                fill,
                json!("rgb(29, 26, 23)"),
                "pyramid's first player is black"
            );
        }
        s.click_css("#throw");
        wait_change(&s, seq);
        s.wait_for(".move-btn", 10);
        // Hover a movable piece so its targets are highlighted.
        if s.js("return !!document.querySelector('.piece.movable')") == json!(true) {
            let sq = s.js("return document.querySelector('.piece.movable').dataset.square");
            s.click_css(&format!(".cell[data-square='{}']", sq.as_str().unwrap()));
            s.wait_for(".cell.target, #off-zone.target", 5);
        }
        let path = out.join(format!("{id}.png"));
        s.screenshot(&path);
        assert!(
            std::fs::metadata(&path).unwrap().len() > 10_000,
            "{id}: a real picture"
        );
        // The dark theme, switched with the header's button (and kept).
        s.click_css("#theme-btn");
        assert_eq!(
            s.js("return document.documentElement.dataset.theme"),
            json!("dark")
        );
        if s.js("return !!document.querySelector('.piece.movable')") == json!(true) {
            let sq = s.js("return document.querySelector('.piece.movable').dataset.square");
            s.click_css(&format!(".cell[data-square='{}']", sq.as_str().unwrap()));
        }
        s.screenshot(&out.join(format!("{id}-dark.png")));
        s.click_css("#theme-btn");
        assert_eq!(
            s.js("return localStorage.getItem('senet.theme')"),
            json!("light")
        );
        // A throw in flight: the sticks (or dice) tumble before they show the throw.
        if id == "kendall" {
            let (_, seq) = step(&s);
            if let Some(b) = s.find(".move-btn") {
                s.click(&b).unwrap();
                wait_change(&s, seq);
            }
            let t = Instant::now();
            while step(&s).0 != "throw" {
                assert!(t.elapsed() < Duration::from_secs(20), "no throw offered");
                std::thread::sleep(Duration::from_millis(50));
            }
            s.js("document.querySelector('#throw').click(); return 1");
            // The sticks tumble once the server's answer is in (a loaded machine may take a
            // while to answer), for about half a second.
            s.wait_for(".throw-shown.tumbling", 10);
            s.screenshot(&out.join("throw-in-flight.png"));
        }
    }
    s.goto(&format!("{}/", server.url));
    s.wait_for("#create", 20);
    s.screenshot(&out.join("lobby.png"));
    s.goto(&format!("{}/rules/kendall", server.url));
    s.wait_for(".demo-play", 20);
    s.js("document.querySelector('.demo').scrollIntoView(); return 1");
    s.screenshot(&out.join("rules.png"));
}

// ---------------------------------------------------------------- series (issue 13)

/// Plays the game on the page to its end (move buttons).
fn play_to_end(s: &Session) {
    support::page::play_to_end(s);
}

/// Chooses "a series of N games" in the lobby.
fn choose_series(s: &Session, n: u32) {
    s.click_css("input[name=play][value=series]");
    s.js(&format!(
        "document.querySelector('#series-n').value = '{n}'; return 1"
    ));
    set_select(s, "#series-unit", "games");
}

#[test]
#[ignore = "needs chromium and chromium-driver; run by scripts/test.sh"]
fn a_series_of_three_games_against_a_bot_in_the_browser() {
    let dir = temp_dir("series-bot");
    let server = Server::start(&dir.join("g.sqlite"), 0);
    let driver = Driver::start();
    let s = driver.session(&dir.join("profile"), 1100, 850);
    s.goto(&format!("{}/", server.url));
    s.wait_for("#create", 20);
    motion_off(&s);
    // Pyramid's games are the shortest (about 65 decisions against kendall5's 180): the
    // series is what is tested here, whole stick games have their own tests.
    set_select(&s, "#rules", "pyramid");
    set_select(&s, "#level", "beginner");
    choose_series(&s, 3);
    s.click_css("#create");
    s.wait_for("#board", 20);
    let mut ids = vec![];
    for game in 1..=3 {
        let line = wait_text(&s, "#series-score", &format!("game {game}"), 20);
        assert!(line.contains("Series of 3 games"), "{line}");
        ids.push(game_id(&s));
        play_to_end(&s);
        let line = wait_text(&s, "#series-score", "this game:", 10);
        if game < 3 {
            s.click_css("#next-game");
            let t = Instant::now();
            while game_id(&s) == ids[ids.len() - 1] {
                assert!(t.elapsed() < Duration::from_secs(20), "no next game");
                std::thread::sleep(Duration::from_millis(50));
            }
            s.wait_for("#board", 20);
        } else {
            let r = wait_text(&s, "#series-result", "series", 10);
            assert!(
                r.contains("You won the series") || r.contains("The bot") || r.contains("drawn"),
                "{r} / {line}"
            );
            s.screenshot(&screenshots().join("series-over.png"));
        }
    }
    assert_eq!(ids.len(), 3);
    assert!(ids[0] != ids[1] && ids[1] != ids[2]);
    // The series result page lists the three games with the running score.
    s.click_css("#series-page");
    s.wait_for("#series-summary", 20);
    assert_eq!(
        s.js("return document.querySelectorAll('.series-table tbody tr').length"),
        json!(3)
    );
    let fin = s.text("#series-final");
    assert!(fin.contains("series"), "{fin}");
    // The series record downloads and replays.
    let sid = s.js("return location.pathname.split('/')[2]");
    let rec = api(
        server.port,
        "GET",
        &format!("/api/series/{}/record", sid.as_str().unwrap()),
        None,
    );
    let series = senet_rules::Series::from_json(&rec.to_string()).unwrap();
    let r = series.replay().unwrap();
    assert!(r.standing.over);
    assert_eq!(series.games.len(), 3);
    assert_eq!(
        series.games.iter().map(|g| g.first).collect::<Vec<_>>(),
        [1, 2, 1],
        "starts alternate"
    );
}

#[test]
#[ignore = "needs chromium and chromium-driver; run by scripts/test.sh"]
fn an_online_series_between_two_browsers() {
    let dir = temp_dir("series-online");
    let server = Server::start(&dir.join("g.sqlite"), 0);
    let driver = Driver::start();
    let a = driver.session(&dir.join("a"), 1000, 800);
    let b = driver.session(&dir.join("b"), 1000, 800);
    a.goto(&format!("{}/", server.url));
    a.wait_for("#create", 20);
    motion_off(&a);
    // Short games (as in the bot series above): the series is what is tested.
    set_select(&a, "#rules", "pyramid");
    a.click_css("input[name=mode][value=online]");
    choose_series(&a, 2);
    a.click_css("#create");
    a.wait_for("#invite-link", 20);
    let invite = a.js("return document.querySelector('#invite-link').value");
    b.goto(invite.as_str().unwrap());
    b.wait_for("#board", 20);
    motion_off(&b);
    let line = wait_text(&b, "#series-score", "game 1", 10);
    assert!(line.contains("Series of 2 games"), "{line}");
    for game in 1..=2 {
        let mut progress = Progress::new();
        loop {
            let (ka, sa) = act_quick(&a);
            let (kb, sb) = act_quick(&b);
            if ka == "over" && kb == "over" {
                break;
            }
            progress.saw(sa.max(sb));
        }
        wait_text(&a, "#series-score", "this game:", 10);
        wait_text(&b, "#series-score", "this game:", 10);
        // Both see the same score.
        let score = |s: &Session| s.text("#series-score");
        let t = Instant::now();
        while score(&a).replace("you", "seat 1") != score(&b).replace("you", "seat 2") {
            assert!(
                t.elapsed() < Duration::from_secs(10),
                "{} / {}",
                score(&a),
                score(&b)
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        if game == 2 {
            wait_text(&a, "#series-result", "series", 10);
            wait_text(&b, "#series-result", "series", 10);
            break;
        }
        // Seat 2 starts the next game; seat 1's page learns of it and follows.
        let old = game_id(&a);
        b.click_css("#next-game");
        wait_text(&a, "#series", "Your opponent has started it", 20);
        a.click_css("#next-game");
        let t = Instant::now();
        while game_id(&a) == old || game_id(&b) == old {
            assert!(t.elapsed() < Duration::from_secs(20), "no next game");
            std::thread::sleep(Duration::from_millis(50));
        }
        assert_eq!(
            game_id(&a),
            game_id(&b),
            "both seats are in the same next game"
        );
        a.wait_for("#board", 20);
        b.wait_for("#board", 20);
        // With alternating starts seat 2 now plays the first player.
        let st = api(
            server.port,
            "GET",
            &format!("/api/games/{}", game_id(&a)),
            None,
        );
        assert_eq!(st["series"]["first"], 2);
        assert_eq!(st["series"]["game"], 2);
    }
}

// ---------------------------------------------------------------- look, feel, access (issue 32)

/// The page's event count (`#status` data-seq) and the pieces it draws on its board (`#board`,
/// the server's position), as sorted "square:player:kind" strings, read in one script: read
/// in two, a bot's reply arriving in between paired one event's count with a later board.
const DRAWN: &str = r#"
const st = document.querySelector('#status');
return [st ? Number(st.dataset.seq) : -1, [...document.querySelectorAll('#board .pieces .piece')]
  .map(p => `${p.dataset.square}:${p.dataset.player}:${p.dataset.kind}`).sort()];
"#;

/// The same for a BoardView as the API sends it.
fn pieces_of(view: &Value) -> Vec<String> {
    let mut v: Vec<String> = view["cells"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| {
            c["pieces"].as_array().unwrap().iter().map(move |p| {
                format!(
                    "{}:{}:{}",
                    c["square"],
                    p["player"],
                    p["kind"].as_str().unwrap()
                )
            })
        })
        .collect();
    v.sort();
    v
}

/// Waits until the page shows the server's latest event, then checks that the pieces it
/// draws are the server's; with `settled`, also waits for any replay to end and checks that
/// the replay's ghosts ended where the server's pieces are.
fn drawn_is_servers(s: &Session, port: u16, id: &str, settled: bool) {
    let t = Instant::now();
    loop {
        let st = api(port, "GET", &format!("/api/games/{id}"), None);
        let drawn = s.js(DRAWN);
        let seq = drawn[0].as_i64().unwrap_or(-1);
        if seq == st["seq"].as_i64().unwrap() {
            assert_eq!(
                strings(drawn[1].clone()),
                pieces_of(&st["view"]),
                "the board draws the server's position at event {seq}"
            );
            if !settled {
                return;
            }
            // One script reads the three, so that a replay started by the bot's next event
            // in between cannot be taken for a replay that left its ghosts behind.
            let now = s.js("const w = document.querySelector('#board-wrap');
                 return [w.classList.contains('running'), w.dataset.mismatch || '0',
                         document.querySelectorAll('svg.ghosts').length]");
            if now[0] == json!(false) {
                assert_eq!(
                    now[1],
                    json!("0"),
                    "a replay ended off the server's position"
                );
                assert_eq!(now[2], json!(0), "no ghosts are left after a replay");
                return;
            }
        }
        assert!(
            t.elapsed() < Duration::from_secs(15),
            "the page did not catch up with the server"
        );
        std::thread::sleep(Duration::from_millis(40));
    }
}

#[test]
#[ignore = "needs chromium and chromium-driver; run by scripts/test.sh"]
fn animated_whole_game_draws_the_servers_position_after_every_event() {
    let dir = temp_dir("animated");
    let server = Server::start(&dir.join("g.sqlite"), 0);
    let driver = Driver::start();
    let s = driver.session(&dir.join("profile"), 1100, 850);
    // houses: pieces sent back, the water, bonus throws.
    open_bot_game(&s, &server.url, "houses", Some("beginner"));
    assert_eq!(
        s.js("return matchMedia('(prefers-reduced-motion: reduce)').matches"),
        json!(false),
        "animations are on"
    );
    let id = game_id(&s);
    let mut progress = Progress::new();
    let mut n = 0;
    loop {
        // Most actions right away (input finishes a replay at once), every eighth after the
        // replay has ended (waiting for each replay to end doubles the game's time; at
        // every fourth, the waits were half of this test's time).
        // Every action by WebDriver's clicks (trusted input: the layout-shift check below
        // leaves out shifts right after input, which a script's click() is not).
        let (k, seq) = act(&s, n % 3 == 0);
        if k == "over" {
            break;
        }
        if k != "wait" {
            n += 1;
            drawn_is_servers(&s, server.port, &id, n % 8 == 0);
        }
        progress.saw(seq);
    }
    drawn_is_servers(&s, server.port, &id, true);
    let runs = s.js("return Number(document.querySelector('#board-wrap').dataset.runs || 0)");
    assert!(runs.as_u64().unwrap() > 10, "moves were animated ({runs})");
    // No layout shift while the game was played (shifts right after the player's own input
    // do not count, as in Cumulative Layout Shift).
    let cls = s.js_async(
        "const done = arguments[arguments.length - 1]; let sum = 0;
         new PerformanceObserver((l) => { for (const e of l.getEntries()) if (!e.hadRecentInput) sum += e.value; })
           .observe({ type: 'layout-shift', buffered: true });
         setTimeout(() => done(sum), 200);",
    );
    assert!(cls.as_f64().unwrap() < 0.1, "layout shift {cls}");
}

/// WebDriver key codes.
const RIGHT: &str = "\u{E014}";
const ENTER: &str = "\u{E007}";

#[test]
#[ignore = "needs chromium and chromium-driver; run by scripts/test.sh"]
fn a_whole_game_by_keyboard_alone() {
    let dir = temp_dir("keyboard");
    let server = Server::start(&dir.join("g.sqlite"), 0);
    let driver = Driver::start();
    let s = driver.session(&dir.join("profile"), 1100, 850);
    open_api_bot_game(&s, &server, "kendall5", "beginner", 1);
    let mut progress = Progress::new();
    let mut moves = 0;
    let mut hinted = false;
    loop {
        let (k, seq) = step(&s);
        match k.as_str() {
            "over" => break,
            "throw" => {
                s.keys(&["t"]);
                wait_change(&s, seq);
            }
            "move" => {
                if !hinted
                    && s.js("return document.querySelectorAll('.move-btn').length") != json!(1)
                {
                    hinted = true;
                    s.keys(&["h"]);
                    wait_text(&s, "#hint-text", "Hint", 10);
                }
                s.keys(&[RIGHT]);
                // The chosen move's button has the focus, drawn visibly.
                let focus = s.js(
                    "const a = document.activeElement; return [a.classList.contains('move-btn'), getComputedStyle(a).outlineStyle, a.getAttribute('aria-label') || '']",
                );
                assert_eq!(focus[0], json!(true), "arrows choose a move: {focus}");
                assert_ne!(focus[1], json!("none"), "the focus is visible");
                assert!(focus[2].as_str().unwrap().len() > 3, "the move has a name");
                s.keys(&[ENTER]);
                wait_change(&s, seq);
                moves += 1;
            }
            _ => std::thread::sleep(Duration::from_millis(30)),
        }
        progress.saw(seq);
    }
    assert!(moves > 5, "{moves} moves by keyboard");
    assert!(hinted, "H gave a hint");
    let r = s.text("#result-text");
    assert!(r.contains("win") || r.contains("draw"), "{r}");
}

#[test]
#[ignore = "needs chromium and chromium-driver; run by scripts/test.sh"]
fn the_screen_reader_hears_squares_moves_and_throws() {
    let dir = temp_dir("names");
    let server = Server::start(&dir.join("g.sqlite"), 0);
    let driver = Driver::start();
    let s = driver.session(&dir.join("profile"), 1100, 850);
    open_api_bot_game(&s, &server, "kendall", "beginner", 2);
    // Every square has a name with its number, its special text and what stands on it.
    let names = strings(s.js(
        "return [...document.querySelectorAll('#board .cell')].map(c => c.getAttribute('aria-label'))",
    ));
    assert_eq!(names.len(), 30);
    assert!(names.iter().all(|n| n.starts_with("square ")), "{names:?}");
    let n26 = names.iter().find(|n| n.starts_with("square 26,")).unwrap();
    assert!(n26.contains("safe") && n26.contains("K7"), "{n26}");
    assert!(
        names.iter().any(|n| n.contains("light cone"))
            && names.iter().any(|n| n.contains("dark spool")),
        "{names:?}"
    );
    // A throw is announced in the live region.
    let (k, seq) = step(&s);
    assert_eq!(k, "throw");
    s.click_css("#throw");
    wait_change(&s, seq);
    wait_text(&s, "#announce", "threw", 5);
    assert_eq!(
        s.js("return document.querySelector('#announce').getAttribute('aria-live')"),
        json!("polite")
    );
    // The moves are buttons with names; after ours, the bot's moves are announced.
    s.wait_for(".move-btn", 10);
    let label = s.js("return document.querySelector('.move-btn').getAttribute('aria-label')");
    // The throw is the server's (random): a throw with no legal move offers the forfeit.
    let label = label.as_str().unwrap();
    assert!(
        label.contains("the piece on") || label.contains("forfeit the throw"),
        "{label}"
    );
    let (_, seq) = step(&s);
    s.click_css(".move-btn");
    wait_change(&s, seq);
    // (A bonus throw keeps the turn: play on until the bot has moved.)
    let t = Instant::now();
    while !s.text("#announce").contains("the bot") {
        act(&s, false);
        assert!(
            t.elapsed() < Duration::from_secs(30),
            "{}",
            s.text("#announce")
        );
    }
    assert!(
        s.text("#announce").contains("played"),
        "{}",
        s.text("#announce")
    );
}

#[test]
#[ignore = "needs chromium and chromium-driver; run by scripts/test.sh"]
fn rules_pages_demonstrations_play_their_moves() {
    let dir = temp_dir("rules");
    let server = Server::start(&dir.join("g.sqlite"), 0);
    let driver = Driver::start();
    let s = driver.session(&dir.join("profile"), 1100, 850);
    let rules = api(server.port, "GET", "/api/rules", None);
    let mut shown = 0;
    for r in rules["rules"].as_array().unwrap() {
        let id = r["id"].as_str().unwrap();
        let page = api(server.port, "GET", &format!("/api/rules/{id}"), None);
        s.goto(&format!("{}/rules/{id}", server.url));
        s.wait_for(".rule", 20);
        assert!(s.text("h2").contains(r["name"].as_str().unwrap()));
        // Every rule with its ruling IDs.
        let sections = page["sections"].as_array().unwrap();
        assert_eq!(
            s.js("return document.querySelectorAll('section.rule h3 .id').length"),
            json!(sections
                .iter()
                .filter(|x| !x["rulings"].as_array().unwrap().is_empty())
                .count())
        );
        let demos: Vec<&Value> = sections
            .iter()
            .flat_map(|x| x["demos"].as_array().unwrap())
            .collect();
        assert!(!demos.is_empty(), "{id} shows at least one rule on a board");
        for (i, d) in demos.iter().enumerate() {
            let drawn = |s: &Session| {
                strings(s.js(&format!(
                    "return [...document.querySelectorAll('.demo')[{i}].querySelectorAll('svg.board .pieces .piece')].map(p => `${{p.dataset.square}}:${{p.dataset.player}}:${{p.dataset.kind}}`).sort()"
                )))
            };
            assert_eq!(drawn(&s), pieces_of(&d["view"]), "{id} demo {i} before");
            // Every animation's keyframes are recorded as they start.
            s.js(RECORD_ANIMATIONS);
            s.click_css(&format!(".demo-play[data-demo='{i}']"));
            assert_eq!(
                drawn(&s),
                pieces_of(&d["after"]),
                "{id} demo {i} after its move"
            );
            // The moving piece travels square by square along its path: the numbered track,
            // or on parker's board the mover's own loop from the view (P1), backward for a
            // backward move.
            let kinds = strings(d["allowed"]["kinds"].clone());
            let (from, to) = (&d["allowed"]["from"], &d["allowed"]["to"]);
            let plain = |k: &str| !kinds.iter().any(|x| x == k);
            if from.is_u64() && to.is_u64() && plain("trap") && plain("bear off") {
                let (a, b) = (from.as_u64().unwrap(), to.as_u64().unwrap());
                let squares: Vec<u64> = match d["view"]["paths"].as_array() {
                    Some(paths) => {
                        let turn = &d["position"].as_str().unwrap()["parker ".len()..];
                        let turn = turn.split("turn=").nth(1).unwrap();
                        let pl = if turn.starts_with('2') { 1 } else { 0 };
                        let path: Vec<u64> = paths[pl]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|x| x.as_u64().unwrap())
                            .collect();
                        let n = path.len();
                        let step = if plain("backward") { 1 } else { n - 1 };
                        let mut k = path.iter().position(|&x| x == a).unwrap();
                        let mut v = vec![a];
                        while path[k] != b {
                            k = (k + step) % n;
                            v.push(path[k]);
                        }
                        v
                    }
                    None if a <= b => (a..=b).collect(),
                    None => (b..=a).rev().collect(),
                };
                if id == "parker" && d["ruling"] == "P1" {
                    // h1-i2 goes round the corner: h1 i1 j1 j2 i2.
                    assert_eq!(squares, [8, 9, 10, 20, 19]);
                }
                let centres = s.js(&format!(
                    "return {squares:?}.map((q) => {{ const r = document.querySelector('#board-demo-{i} .cell[data-square=\"' + q + '\"] rect.sq'); return [Number(r.getAttribute('x')) + Number(r.getAttribute('width')) / 2, Number(r.getAttribute('y')) + Number(r.getAttribute('height')) / 2]; }})"
                ));
                let frames = s.js(&format!("return ((window.__frames.find((a) => a.demo === {i}) || {{}}).transforms || []).map((t) => (/translate\\(([-\\d.]+)px, ([-\\d.]+)px\\)/.exec(t) || []).slice(1).map(Number))"));
                let close = |a: &Value, b: &Value| {
                    (a[0].as_f64().unwrap() - b[0].as_f64().unwrap()).abs() < 0.2
                        && (a[1].as_f64().unwrap() - b[1].as_f64().unwrap()).abs() < 0.2
                };
                let (c, f) = (centres.as_array().unwrap(), frames.as_array().unwrap());
                assert!(
                    c.len() == f.len() && c.iter().zip(f).all(|(a, b)| close(a, b)),
                    "{id} demo {i} ({}): the piece passes the centres of {squares:?} {centres}, not {frames}",
                    d["allowed"]["move"]
                );
            }
            if let Some(f) = d["forbidden"]["why"].as_str() {
                let text = s.js(&format!(
                    "return document.querySelectorAll('.demo')[{i}].querySelector('.demo-why').textContent"
                ));
                assert!(
                    text.as_str().unwrap().contains(&f[..20.min(f.len())]),
                    "{text}"
                );
            }
            shown += 1;
        }
        // A ruling no board shows says why, under its rule.
        for x in sections {
            for nb in x["no_board"].as_array().unwrap() {
                let shown = s.js(&format!(
                    "return [...document.querySelectorAll('.no-board[data-ruling={}]')].map((e) => e.textContent).join(' | ')",
                    nb["ruling"]
                ));
                assert!(
                    shown
                        .as_str()
                        .unwrap()
                        .contains(nb["reason"].as_str().unwrap()),
                    "{id} {}: {shown}",
                    nb["ruling"]
                );
            }
        }
        // The throw odds, and a link from the lobby's and the game's rules summary.
        assert!(s.text(".odds").contains('%'));
    }
    assert!(shown >= 12, "{shown} demonstrations");
    s.goto(&format!("{}/", server.url));
    s.wait_for("#create", 20);
    assert!(s.find("a[href='/rules/kendall']").is_some() || s.find("a[href^='/rules/']").is_some());
}

/// Records the keyframes of every animation the page starts in `window.__frames`, from now
/// on: each the `transform`s of its frames, with the index of the rules page's `.demo` that
/// holds the animated element (-1 if none).
const RECORD_ANIMATIONS: &str = "window.__frames = [];
if (!window.__recording) {
  window.__recording = true;
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (frames, opts) {
    const demo = this.closest ? this.closest('.demo') : null;
    window.__frames.push({
      demo: [...document.querySelectorAll('.demo')].indexOf(demo),
      transforms: [].concat(frames).map((f) => f.transform || ''),
    });
    return animate.call(this, frames, opts);
  };
}
return 1";

/// Checks that the page does not scroll sideways and that every target is at least 44 x 44
/// CSS px (WCAG 2.5.5; links inside sentences are exempt, as there).
fn phone_checks(s: &Session, what: &str) {
    let v = s.js(
        r#"
const de = document.documentElement;
const small = [];
const sel = 'button, select, input:not([type=checkbox]):not([type=radio]):not([type=range]), summary, [role=button], [tabindex="0"]:not(ol):not(div), a:not(p a):not(li a):not(td a), label:has(> input[type=checkbox]), label:has(> input[type=radio])';
for (const e of document.querySelectorAll(sel)) {
  const r = e.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) continue;
  if (getComputedStyle(e).visibility === 'hidden' || e.closest('[hidden]')) continue;
  if (r.width < 44 - 0.5 || r.height < 44 - 0.5) small.push(`${e.tagName}#${e.id}.${e.getAttribute('class')} ${r.width.toFixed(0)}x${r.height.toFixed(0)} "${(e.textContent || '').trim().slice(0, 30)}"`);
}
return [de.scrollWidth, window.innerWidth, small];
"#,
    );
    assert!(
        v[0].as_u64().unwrap() <= v[1].as_u64().unwrap(),
        "{what}: the page scrolls sideways ({} > {})",
        v[0],
        v[1]
    );
    assert_eq!(v[2], json!([]), "{what}: targets under 44 px");
}

#[test]
#[ignore = "needs chromium and chromium-driver; run by scripts/test.sh"]
fn on_a_phone_nothing_scrolls_sideways_and_every_target_is_44px() {
    let dir = temp_dir("phone");
    // A puzzle of each rule set, made in the background (issue 57).
    let server = Server::start_with(dir.join("g.sqlite").as_os_str(), 0, &["--puzzles", "1"]);
    let driver = Driver::start();
    let s = driver.session(&dir.join("profile"), 360, 640);
    // The lobby with open seeks and a game being played (issue 33).
    let p1 = ApiPlayer::new(server.port, "Hatshepsut");
    let p2 = ApiPlayer::new(server.port, "Thutmose");
    let (live, _) = seek_game(&p1, &p2, "kendall5", true);
    p1.seek("kendall5", true, json!({ "minutes": 5, "increment": 3 }));
    p2.seek("kendall", false, json!({ "days": 3 }));
    s.goto(&format!("{}/", server.url));
    s.wait_for("#create", 20);
    motion_off(&s);
    s.wait_for("#seeks li.seek + li.seek", 20);
    s.wait_for("#live li.live-game", 20);
    assert_eq!(
        s.js("return window.innerWidth"),
        json!(360),
        "a 360 px viewport, nothing wider: {}",
        s.js("return [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 361).slice(0, 8).map(e => e.tagName + '#' + e.id + '.' + e.getAttribute('class') + ' ' + e.getBoundingClientRect().right.toFixed(0))")
    );
    phone_checks(&s, "lobby");
    s.js("document.querySelector('#play').scrollIntoView(); return 1");
    s.screenshot(&screenshots().join("phone-lobby-seeks.png"));
    s.click_css("#account-btn");
    s.wait_for("#account-dialog[open] #rename-name", 10);
    phone_checks(&s, "account dialog");
    s.click_css("#account-close");
    s.goto(&format!("{}/g/{live}", server.url));
    s.wait_for("#clock-1", 20);
    phone_checks(&s, "online game");
    s.screenshot(&screenshots().join("phone-online-game.png"));
    s.goto(&format!("{}/p/Hatshepsut", server.url));
    s.wait_for("#player-name", 20);
    phone_checks(&s, "player page");
    s.goto(&format!("{}/leaderboard/kendall5", server.url));
    s.wait_for(".switcher", 20);
    phone_checks(&s, "leaderboard");
    // Puzzles (issue 57): the board upright, the moves, then the answer. The server makes
    // them in the background (a random seed, so some starts take longer): the page is
    // opened once one exists, or it shows that there is none.
    let t = Instant::now();
    while http(server.port, "GET", "/api/puzzles/next", None)
        .unwrap()
        .0
        != 200
    {
        assert!(t.elapsed() < Duration::from_secs(180), "no puzzle was made");
        std::thread::sleep(Duration::from_millis(250));
    }
    s.goto(&format!("{}/puzzles", server.url));
    s.wait_for("#moves .move-btn", 60);
    phone_checks(&s, "puzzle");
    s.js("document.querySelector('#moves .move-btn').click(); return 1");
    s.wait_for("#puzzle-verdict", 20);
    phone_checks(&s, "puzzle answered");
    s.js("document.querySelector('#puzzle-title').scrollIntoView(); return 1");
    s.screenshot(&screenshots().join("phone-puzzle.png"));
    // Tournaments (issue 57): the list with the form, and an arena with its standings.
    let (st, r) = p1.call(
        "POST",
        "/api/account",
        Some(json!({ "name": "Hatshepsut", "password": "deir el-bahari" })),
    );
    assert!((200..300).contains(&st), "{r}");
    let (st, t) = p1.call(
        "POST",
        "/api/tournaments",
        Some(
            json!({ "kind": "arena", "name": "Karnak arena", "rules": "kendall5",
            "clock": { "minutes": 3, "increment": 2 }, "minutes": 30, "starts_in": 600 }),
        ),
    );
    assert_eq!(st, 201, "{t}");
    let (st, r) = p2.call(
        "POST",
        &format!(
            "/api/tournaments/{}/join",
            t["info"]["id"].as_str().unwrap()
        ),
        None,
    );
    assert_eq!(st, 200, "{r}");
    s.goto(&format!("{}/tournaments", server.url));
    s.wait_for("#tournament-lists a[href^='/tournaments/']", 20);
    phone_checks(&s, "tournaments");
    s.goto(&format!(
        "{}/tournaments/{}",
        server.url,
        t["info"]["id"].as_str().unwrap()
    ));
    s.wait_for("#standings tbody tr + tr", 20);
    phone_checks(&s, "tournament");
    s.screenshot(&screenshots().join("phone-tournament.png"));
    s.goto(&format!("{}/", server.url));
    s.wait_for("#create", 20);
    set_select(&s, "#rules", "senat");
    set_select(&s, "#level", "beginner");
    s.click_css("#create");
    s.wait_for("#board", 20);
    let id = game_id(&s);
    // The board stands upright: each square is at least 44 px both ways.
    let sq = s.js("const r = document.querySelector('#board .cell').getBoundingClientRect(); return [r.width, r.height]");
    assert!(
        sq[0].as_f64().unwrap() >= 44.0 && sq[1].as_f64().unwrap() >= 44.0,
        "{sq}"
    );
    phone_checks(&s, "game");
    let mut shot = false;
    let mut progress = Progress::new();
    loop {
        if !shot && step(&s).0 == "move" {
            shot = true;
            phone_checks(&s, "game with moves");
            s.screenshot(&screenshots().join("phone-game.png"));
        }
        // The layout is what is checked here; taps have their own test.
        let (k, seq) = act_quick(&s);
        if k == "over" {
            break;
        }
        progress.saw(seq);
    }
    phone_checks(&s, "game over");
    s.goto(&format!("{}/g/{id}/review", server.url));
    s.wait_for("#review-next", 20);
    s.wait_while_progressing("#win-graph", "#analysis-progress", 60);
    phone_checks(&s, "review");
    s.goto(&format!("{}/rules/parker", server.url));
    s.wait_for(".demo-play", 20);
    phone_checks(&s, "rules page");
}

/// Taps the element matching `css` with a finger (see [`press_retry`]).
fn tap_retry(s: &Session, css: &str) {
    press_retry(s, css, "tap", Session::tap);
}

/// Issue 32, phones: a whole game at 360 x 640 played by touch alone, with a finger's taps
/// (W3C pointer actions of type touch): the sticks, a piece, then its target.
#[test]
#[ignore = "needs chromium and chromium-driver; run by scripts/test.sh"]
fn a_whole_game_by_touch_on_a_phone() {
    let dir = temp_dir("touch");
    let server = Server::start(&dir.join("g.sqlite"), 0);
    let driver = Driver::start();
    let s = driver.touch_session(&dir.join("profile"), 360, 640);
    open_bot_game(&s, &server.url, "kendall5", Some("beginner"));
    // What is tested is the finger's taps; the animations have a test of their own.
    motion_off(&s);
    assert_eq!(
        s.js("return [innerWidth, matchMedia('(pointer: coarse)').matches, navigator.maxTouchPoints > 0]"),
        json!([360, true, true]),
        "a touch phone"
    );
    s.js("window.__pointers = []; document.addEventListener('pointerdown', (e) => window.__pointers.push(e.pointerType), true); return 1");
    let mut progress = Progress::new();
    let (mut throws, mut moves, mut taps) = (0, 0, 0);
    loop {
        let (kind, seq) = step(&s);
        match kind.as_str() {
            "over" => break,
            "throw" => {
                tap_retry(&s, "#throw");
                wait_change(&s, seq);
                throws += 1;
                taps += 1;
            }
            "move" => {
                if s.js("return !!document.querySelector('.piece.movable')") == json!(true) {
                    // The piece, then the square it goes to.
                    let sq = s.js("return document.querySelector('.piece.movable').dataset.square");
                    tap_retry(
                        &s,
                        &format!(".cell[data-square='{}']", sq.as_str().unwrap()),
                    );
                    s.wait_for(".cell.target, #off-zone.target", 5);
                    tap_retry(&s, ".cell.target, #off-zone.target");
                    taps += 2;
                } else {
                    // No piece can move: the throw is forfeited with its button.
                    tap_retry(&s, ".move-btn");
                    taps += 1;
                }
                wait_change(&s, seq);
                moves += 1;
            }
            _ => std::thread::sleep(Duration::from_millis(30)),
        }
        progress.saw(seq);
    }
    assert!(s.text("#result-text").len() > 3);
    assert!(throws >= 5 && moves >= 5, "{throws} throws, {moves} moves");
    // Every press was a finger's, and none missed: each tap moved the game on.
    let pointers = strings(s.js("return window.__pointers"));
    assert!(
        pointers.len() >= taps,
        "{} presses for {taps} taps",
        pointers.len()
    );
    assert!(pointers.iter().all(|p| p == "touch"), "{pointers:?}");
    assert_eq!(
        s.js("return document.documentElement.scrollWidth <= innerWidth"),
        json!(true),
        "nothing scrolls sideways"
    );
}

#[test]
#[ignore = "needs chromium and chromium-driver; run by scripts/test.sh"]
fn axe_finds_nothing_serious_on_any_page_in_either_theme() {
    let source = axe_source();
    let dir = temp_dir("axe");
    let server = Server::start(&dir.join("g.sqlite"), 0);
    let driver = Driver::start();
    let s = driver.session(&dir.join("profile"), 1100, 850);
    // A finished game for the review, and one under way with moves to choose.
    let id = open_api_bot_game(&s, &server, "kendall5", "beginner", 1);
    let (k, seq) = step(&s);
    assert_eq!(k, "throw");
    s.click_css("#throw");
    wait_change(&s, seq);
    // Online play (issue 33): two players with a rated game behind them (a player page with
    // a rating graph), a game on a clock under way and an open seek in the lobby.
    let p1 = ApiPlayer::new(server.port, "Ramses");
    let p2 = ApiPlayer::new(server.port, "Nefertari");
    let (done, seats) = seek_game(&p1, &p2, "kendall5", true);
    play_by_api(&done, seats);
    let (live, _) = seek_game(&p2, &p1, "kendall5", false);
    p1.seek("kendall", true, json!({ "days": 3 }));
    let mut bad = vec![];
    for theme in ["light", "dark"] {
        s.js(&format!(
            "localStorage.setItem('senet.theme', '{theme}'); return 1"
        ));
        for (what, path, ready) in [
            ("lobby", "/".to_string(), "#seeks li.seek"),
            ("game", format!("/g/{id}"), "#board"),
            ("rules", "/rules/houses".to_string(), ".demo-play"),
            ("online game", format!("/g/{live}"), "#clock-1"),
            ("online game over", format!("/g/{done}"), "#rating-change"),
            ("player", "/p/Ramses".to_string(), "#rating-graph"),
            (
                "leaderboard",
                "/leaderboard/kendall5".to_string(),
                ".switcher",
            ),
        ] {
            s.goto(&format!("{}{path}", server.url));
            s.wait_for(ready, 20);
            std::thread::sleep(Duration::from_millis(300));
            assert_eq!(
                s.js("return document.documentElement.dataset.theme"),
                json!(theme)
            );
            for v in axe(&s, &source) {
                bad.push(format!("{what} ({theme}): {v}"));
            }
        }
        // The header's account dialog, open.
        s.goto(&format!("{}/", server.url));
        s.click_css("#account-btn");
        s.wait_for("#account-dialog[open] #rename-name", 10);
        for v in axe(&s, &source) {
            bad.push(format!("account dialog ({theme}): {v}"));
        }
    }
    // Finish the game, then the review in both themes.
    s.goto(&format!("{}/g/{id}", server.url));
    s.wait_for("#board", 20);
    motion_off(&s);
    play_to_end(&s);
    for theme in ["light", "dark"] {
        s.js(&format!(
            "localStorage.setItem('senet.theme', '{theme}'); return 1"
        ));
        s.goto(&format!("{}/g/{id}", server.url));
        s.wait_for("#result-text", 20);
        for v in axe(&s, &source) {
            bad.push(format!("game over ({theme}): {v}"));
        }
        s.goto(&format!("{}/g/{id}/review", server.url));
        s.wait_while_progressing("#win-graph", "#analysis-progress", 60);
        // Which marks a game earns is chance: every mark class is added as a specimen
        // (a copy of a real event row, plain and current), so each mark's colour is
        // checked against both row backgrounds every time, whatever the game earned.
        let added = s.js("const list = document.querySelector('.events'); let n = 0;
             if (!list || !list.firstElementChild) return -1;
             for (const m of [['inaccuracy', '?!'], ['mistake', '?'], ['blunder', '??']])
               for (const current of [false, true]) {
                 const li = list.firstElementChild.cloneNode(true);
                 li.classList.remove('current', 'marked', 'inaccuracy', 'mistake', 'blunder');
                 li.querySelectorAll('.mark').forEach(e => e.remove());
                 li.classList.add('marked', m[0]);
                 if (current) li.classList.add('current');
                 const sp = document.createElement('span');
                 sp.className = 'mark ' + m[0];
                 sp.textContent = ' ' + m[1] + ' \u{2212}12.5%';
                 li.append(sp); list.append(li); n++;
               }
             return n");
        assert_eq!(added, json!(6), "the review lists its events");
        for v in axe(&s, &source) {
            bad.push(format!("review ({theme}): {v}"));
        }
    }
    assert!(bad.is_empty(), "axe-core:\n{}", bad.join("\n"));
}

#[test]
#[ignore = "needs chromium and chromium-driver; run by scripts/test.sh"]
fn a_newcomers_first_game_points_at_moves_and_explains_squares() {
    let dir = temp_dir("newcomer");
    let server = Server::start(&dir.join("g.sqlite"), 0);
    let driver = Driver::start();
    let s = driver.session(&dir.join("profile"), 1100, 850);
    s.goto(&format!("{}/", server.url));
    s.wait_for("#learn", 20);
    set_select(&s, "#rules", "kendall5");
    s.click_css("#learn");
    s.wait_for("#board", 20);
    assert!(s.text("#title").contains("against a bot"));
    wait_text(&s, "#tip", "Throw", 10);
    let mut progress = Progress::new();
    let mut pointed = false;
    let mut explained = None;
    while explained.is_none() {
        let (k, _) = step(&s);
        if k == "move"
            && s.js("return document.querySelectorAll('.piece.movable').length > 0") == json!(true)
        {
            assert!(
                s.text("#tip").contains("ringed pieces") || s.text("#tip").contains("Square"),
                "{}",
                s.text("#tip")
            );
            assert_eq!(
                s.js("return document.querySelector('#board-wrap').classList.contains('newcomer')"),
                json!(true),
                "the movable pieces beckon"
            );
            pointed = true;
        }
        let tip = s.text("#tip");
        if tip.contains("Square ") {
            explained = Some(tip);
        }
        let (k, seq) = act(&s, false);
        assert_ne!(k, "over", "no special square was reached");
        progress.saw(seq);
    }
    assert!(pointed);
    let tip = explained.unwrap();
    assert!(
        tip.contains('(') && tip.contains(')'),
        "the square's ruling: {tip}"
    );
    // Tips can be turned off, and stay off.
    s.click_css("#tips-off");
    assert_eq!(s.text("#tip"), "");
    s.js("location.reload(); return 1");
    s.wait_for("#board", 20);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(s.text("#tip"), "");
}

#[test]
#[ignore = "needs chromium and chromium-driver; run by scripts/test.sh"]
fn reduced_motion_turns_animation_off_and_settings_are_kept() {
    let dir = temp_dir("still");
    let server = Server::start(&dir.join("g.sqlite"), 0);
    let driver = Driver::start();
    let s = driver.session_with(
        &dir.join("profile"),
        1100,
        850,
        &["--force-prefers-reduced-motion"],
    );
    s.goto(&format!("{}/", server.url));
    s.wait_for("#create", 20);
    assert_eq!(
        s.js("return matchMedia('(prefers-reduced-motion: reduce)').matches"),
        json!(true)
    );
    // Sound is off until turned on; the switch and the volume are kept.
    assert_eq!(
        s.js("return document.querySelector('#sound-btn').getAttribute('aria-pressed')"),
        json!("false")
    );
    s.click_css("#sound-btn");
    s.js("const v = document.querySelector('#volume'); v.value = 30; v.dispatchEvent(new Event('change')); return 1");
    set_select(&s, "#rules", "senat");
    s.click_css("#create");
    s.wait_for("#board", 20);
    assert_eq!(
        s.js("return document.querySelector('#sound-btn').getAttribute('aria-pressed')"),
        json!("true")
    );
    assert_eq!(
        s.js("return document.querySelector('#volume').value"),
        json!("30")
    );
    let id = game_id(&s);
    let mut n = 0;
    while n < 16 {
        let (k, seq) = step(&s);
        if k == "over" {
            break;
        }
        if k == "throw" {
            s.click_css("#throw");
            assert_eq!(
                s.js("return !!document.querySelector('.tumbling')"),
                json!(false),
                "no tumble"
            );
            wait_change(&s, seq);
        } else {
            act(&s, false);
        }
        n += (k != "wait") as u32;
        drawn_is_servers(&s, server.port, &id, false);
        assert_eq!(
            s.js("return document.querySelector('#board-wrap').classList.contains('running') || document.querySelectorAll('svg.ghosts').length > 0"),
            json!(false),
            "no replay"
        );
    }
    assert_eq!(
        s.js("return document.querySelector('#board-wrap').dataset.runs || '0'"),
        json!("0")
    );
}

#[test]
#[ignore = "needs chromium and chromium-driver; run by scripts/test.sh"]
fn a_busy_server_is_shown_calmly_and_the_request_is_sent_again() {
    // Issue 36: a server whose database is out of reach answers 503 with Retry-After; the
    // page says that the server is busy (not an error), waits, and sends the request again.
    let dir = temp_dir("busy");
    let server = Server::start(&dir.join("g.sqlite"), 0);
    let driver = Driver::start();
    let s = driver.session(&dir.join("profile"), 1100, 850);
    s.goto(&format!("{}/", server.url));
    s.wait_for("#create", 20);
    set_select(&s, "#rules", "kendall5");
    set_select(&s, "#level", "casual");
    s.click_css("#create");
    s.wait_for("#board", 20);
    let t = Instant::now();
    while step(&s).0 != "throw" {
        assert!(t.elapsed() < Duration::from_secs(20), "no throw offered");
        act(&s, false);
    }
    let seq = step(&s).1;
    // The next two POSTs get the server's 503 without reaching it, as when its database is
    // down; the third goes through.
    s.js(r#"
const real = window.fetch;
window.busyAnswers = 0;
window.fetch = (url, opt) => {
  if (opt && opt.method === 'POST' && window.busyAnswers < 2) {
    window.busyAnswers++;
    return Promise.resolve(new Response(JSON.stringify({ error: 'the server is busy' }), {
      status: 503, headers: { 'Retry-After': '1', 'Content-Type': 'application/json' } }));
  }
  return real(url, opt);
};
return 1"#);
    s.click_css("#throw");
    let notice = wait_text(&s, "#busy", "busy", 5);
    assert!(notice.contains("retrying"), "{notice:?}");
    assert_eq!(s.text("#error"), "", "no error is shown while retrying");
    wait_change(&s, seq);
    assert_eq!(s.js("return window.busyAnswers"), json!(2));
    assert_eq!(
        s.js("const b = document.querySelector('#busy'); return !!b && !b.hidden"),
        json!(false),
        "the notice goes once the request went through"
    );
    assert_eq!(s.text("#error"), "");
}

// ---------------------------------------------------------------- online play (issue 33)

/// One HTTP request with extra headers; returns the status, the `Set-Cookie` values and the
/// body (the support client's `http` sends no headers of its own choosing).
fn http_headers(
    port: u16,
    method: &str,
    path: &str,
    body: Option<&str>,
    headers: &[(&str, &str)],
) -> (u16, Vec<String>, String) {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(120))).ok();
    let b = body.unwrap_or("");
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
        b.len()
    );
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(b);
    s.write_all(req.as_bytes()).unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let raw = String::from_utf8_lossy(&raw).into_owned();
    let (head, rest) = raw.split_once("\r\n\r\n").unwrap_or((&raw, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let lines: Vec<&str> = head.lines().collect();
    let cookies = lines
        .iter()
        .filter_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("set-cookie")
                .then(|| v.trim().to_string())
        })
        .collect();
    let chunked = lines.iter().any(|l| {
        let l = l.to_ascii_lowercase();
        l.starts_with("transfer-encoding:") && l.contains("chunked")
    });
    let body = if chunked {
        let mut out = String::new();
        let mut r = rest;
        while let Some((size, tail)) = r.split_once("\r\n") {
            let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
            if n == 0 || tail.len() < n {
                break;
            }
            out.push_str(&tail[..n]);
            r = tail[n..].trim_start_matches("\r\n");
        }
        out
    } else {
        rest.to_string()
    };
    (status, cookies, body)
}

/// A player of the site driven through its API: its session cookie and CSRF token.
struct ApiPlayer {
    port: u16,
    cookie: String,
    csrf: String,
    id: String,
    name: String,
}

impl ApiPlayer {
    /// A new anonymous player (`POST /api/me`), renamed to `name`.
    fn new(port: u16, name: &str) -> ApiPlayer {
        let (status, cookies, body) = http_headers(port, "POST", "/api/me", Some("{}"), &[]);
        assert_eq!(status, 201, "POST /api/me: {body}");
        let cookie = cookies
            .iter()
            .find(|c| c.starts_with("senet_session="))
            .and_then(|c| c.split(';').next())
            .unwrap_or_else(|| panic!("no session cookie in {cookies:?}"))
            .to_string();
        let me: Value = serde_json::from_str(&body).unwrap();
        let mut p = ApiPlayer {
            port,
            cookie,
            csrf: me["csrf"].as_str().unwrap().to_string(),
            id: me["id"].as_str().unwrap().to_string(),
            name: me["name"].as_str().unwrap().to_string(),
        };
        let me = p.ok("PATCH", "/api/me", json!({ "name": name }));
        p.name = me["name"].as_str().unwrap().to_string();
        assert_eq!(p.name, name);
        p
    }

    /// A request by cookie and CSRF token: the status and the JSON answer. The server's
    /// rate limit (429) is waited out.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let b = body.map(|b| b.to_string());
        let t = Instant::now();
        loop {
            let (status, _, text) = http_headers(
                self.port,
                method,
                path,
                b.as_deref(),
                &[("Cookie", &self.cookie), ("X-CSRF-Token", &self.csrf)],
            );
            if status == 429 && t.elapsed() < Duration::from_secs(60) {
                std::thread::sleep(Duration::from_millis(250));
                continue;
            }
            return (status, serde_json::from_str(&text).unwrap_or(Value::Null));
        }
    }

    /// [`ApiPlayer::call`] that must succeed.
    fn ok(&self, method: &str, path: &str, body: Value) -> Value {
        let body = (method != "GET").then_some(body);
        let (status, v) = self.call(method, path, body);
        assert!(status < 300, "{method} {path}: {status} {v}");
        v
    }

    /// Opens a seek of `rules` on `clock`.
    fn seek(&self, rules: &str, rated: bool, clock: Value) -> Value {
        self.ok(
            "POST",
            "/api/seeks",
            json!({ "rules": rules, "options": [], "rated": rated, "clock": clock }),
        )
    }
}

/// A game between `a` and `b` from a seek of `a`'s that `b` accepts: its ID and the two
/// players by seat.
fn seek_game<'a>(
    a: &'a ApiPlayer,
    b: &'a ApiPlayer,
    rules: &str,
    rated: bool,
) -> (String, [&'a ApiPlayer; 2]) {
    let s = a.seek(rules, rated, json!({ "minutes": 10, "increment": 5 }));
    assert_eq!(s["player"]["id"].as_str(), Some(a.id.as_str()));
    let r = b.ok(
        "POST",
        &format!("/api/seeks/{}/accept", s["id"].as_str().unwrap()),
        json!({}),
    );
    let game = r["game"].as_str().unwrap().to_string();
    let seats = if r["seat"] == 1 { [b, a] } else { [a, b] };
    (game, seats)
}

/// Plays a game to its end through the API, each seat by its player's cookie (the first
/// legal move every time).
fn play_by_api(game: &str, seats: [&ApiPlayer; 2]) {
    let t = Instant::now();
    loop {
        let (_, st) = seats[0].call("GET", &format!("/api/games/{game}"), None);
        if st["status"]["state"] == "over" {
            return;
        }
        let p = seats[st["status"]["player"].as_u64().unwrap() as usize - 1];
        let seq = &st["seq"];
        let (status, v) = if st["status"]["state"] == "throw" {
            p.call(
                "POST",
                &format!("/api/games/{game}/throw"),
                Some(json!({ "seq": seq })),
            )
        } else {
            let mv = &st["legal"][0]["move"];
            p.call(
                "POST",
                &format!("/api/games/{game}/move"),
                Some(json!({ "move": mv, "seq": seq })),
            )
        };
        assert!(status < 300 || status == 409, "{status} {v}");
        assert!(
            t.elapsed() < Duration::from_secs(120),
            "the game took too long"
        );
    }
}

/// Milliseconds of a clock as the page writes it: `4:59`, `0:09.4`, `1:02:03`.
fn clock_ms(text: &str) -> u64 {
    let (whole, tenths) = text.split_once('.').unwrap_or((text, "0"));
    let secs = whole.split(':').fold(0u64, |acc, x| {
        acc * 60 + x.trim().parse::<u64>().unwrap_or(0)
    });
    secs * 1000 + tenths.parse::<u64>().unwrap_or(0) * 100
}

/// The time shown on seat `seat`'s clock, and whether it runs.
fn clock_of(s: &Session, seat: u8) -> (u64, bool) {
    let v = s.js(&format!(
        "const c = document.querySelector('#clock-{seat}'); return c ? [c.querySelector('.time').textContent, c.classList.contains('running')] : ['', false]"
    ));
    (clock_ms(v[0].as_str().unwrap()), v[1] == json!(true))
}

#[test]
#[ignore = "needs chromium and chromium-driver; run by scripts/test.sh"]
fn two_strangers_meet_in_the_lobby_play_on_a_clock_and_see_new_ratings() {
    let dir = temp_dir("strangers");
    let server = Server::start(&dir.join("g.sqlite"), 0);
    let driver = Driver::start();
    let a = driver.session(&dir.join("a"), 1100, 850);
    let b = driver.session(&dir.join("b"), 1000, 850);
    let c = driver.session(&dir.join("c"), 1000, 800);
    for s in [&a, &b, &c] {
        s.goto(&format!("{}/", server.url));
        s.wait_for("#me-link", 20);
        s.wait_for("#seek-form", 20);
        // Motion off: this test is about online play (the animations have tests of their
        // own), and a whole game's moves travelling square by square would take minutes.
        motion_off(s);
    }
    // Every visitor is a player with a generated name; two rename themselves.
    rename_in_page(&a, "Alice33");
    rename_in_page(&b, "Bob33");
    wait_text(&b, "#lobby-conn", "live", 10);
    assert!(
        b.text("#seeks-empty").contains("No open seeks"),
        "{}",
        b.text("#seeks")
    );

    // A opens a rated kendall5 seek on 10+5 from the lobby's form.
    set_select(&a, "#seek-rules", "kendall5");
    a.click_css("#seek-rated-rated");
    a.click_css("#seek-clock-live");
    a.js("document.querySelector('#seek-minutes').value = '10'; document.querySelector('#seek-increment').value = '5'; return 1");
    a.click_css("#seek-create");
    let mine = wait_text(&a, "#seeks li.mine", "Alice33", 10);
    assert!(a.find("#seeks li.mine .seek-cancel").is_some(), "{mine}");
    assert!(a.find("#seeks li.mine .seek-accept").is_none());

    // B's lobby shows it without a reload, with A's provisional rating, and B accepts.
    let seen = wait_text(&b, "#seeks li", "Alice33", 10);
    for part in ["1500?", "Kendall, five pieces", "10+5", "rated"] {
        assert!(seen.contains(part), "{part}: {seen}");
    }
    b.click_css("#seeks li .seek-accept");

    // Both pages open the game: B's from the accept, A's from the lobby's "paired".
    let id = both_in_one_game(&a, &b);
    for s in [&a, &b] {
        s.wait_for("#board", 20);
        s.wait_for("#clock-1", 10);
        let names = wait_text(s, "#players", "Alice33", 10);
        assert!(
            names.contains("Bob33") && names.contains("1500?"),
            "{names}"
        );
        assert!(s.text("#game-kind").contains("Rated · 10+5"));
        assert!(s.text("#status").contains("Your turn") || s.text("#status").contains("to throw"));
        assert!(
            s.find("#hint").is_none()
                || s.js("return document.querySelector('#hint').hidden") == json!(true),
            "no hints against a player"
        );
    }
    // The clocks: 10 minutes each; the side to play's clock runs and counts down, the other
    // stands still.
    let st = api(server.port, "GET", &format!("/api/games/{id}"), None);
    let to_play = st["status"]["player"].as_u64().unwrap() as u8;
    let (run0, running) = clock_of(&a, to_play);
    let (still0, other_running) = clock_of(&a, 3 - to_play);
    assert!(running && !other_running, "the side to play's clock runs");
    assert!(run0 <= 600_000 && run0 > 590_000, "{run0}");
    assert_eq!(still0, 600_000);
    std::thread::sleep(Duration::from_millis(1600));
    let (run1, _) = clock_of(&a, to_play);
    let (still1, _) = clock_of(&a, 3 - to_play);
    assert!(
        run0 - run1 >= 1000,
        "the running clock counts down: {run0} then {run1}"
    );
    assert_eq!(still1, still0, "the other clock stands");
    a.screenshot(&screenshots().join("online-clocks.png"));

    // A third browser watches from the lobby's "Playing now".
    c.wait_for(&format!("#live a.watch[href='/g/{id}']"), 20);
    assert!(c.text("#live").contains("Alice33") && c.text("#live").contains("Bob33"));
    c.click_css(&format!("#live a.watch[href='/g/{id}']"));
    c.wait_for("#board", 20);
    assert!(
        c.text("#status").contains("watching"),
        "{}",
        c.text("#status")
    );
    assert!(c.find("#resign").is_none(), "a spectator cannot resign");

    // They play it to its end through the page: A's first ten actions by clicks on the
    // board, then both by the pages' own buttons pressed in one round trip ([`act_quick`]:
    // this test runs last of the suite, and WebDriver's clicks made it the longest).
    let mut progress = Progress::new();
    let (mut by_a, mut by_b) = (0, 0);
    let mut watched = 0;
    loop {
        let (ka, sa) = if by_a < 10 {
            act(&a, true)
        } else {
            act_quick(&a)
        };
        let (kb, sb) = act_quick(&b);
        if ka == "over" && kb == "over" {
            break;
        }
        by_a += (ka == "throw" || ka == "move") as u32;
        by_b += (kb == "throw" || kb == "move") as u32;
        if watched == 0 && by_a + by_b > 6 {
            // The spectator sees the moves as they are played.
            let n = c.js("return document.querySelectorAll('#events li').length");
            watched = n.as_u64().unwrap();
        }
        assert!(
            !progress.stalled(sa.max(sb)),
            "the game stalled ({by_a}, {by_b}): {:?} {:?} / {:?} {:?} / {}",
            a.text("#status"),
            a.text("#error"),
            b.text("#status"),
            b.text("#error"),
            api(server.port, "GET", &format!("/api/games/{id}"), None)["status"]
        );
    }
    assert!(by_a > 3 && by_b > 3, "both played ({by_a}, {by_b})");
    assert!(watched > 0, "the spectator saw moves during the game");
    let events = |s: &Session| {
        s.js("return [...document.querySelectorAll('#events li')].map(e => e.textContent)")
    };
    let t = Instant::now();
    while c.find("#result-text").is_none() || events(&c) != events(&a) {
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "the spectator is behind"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(events(&a), events(&b));
    let (ra, rb) = (a.text("#result-text"), b.text("#result-text"));
    assert!(
        ra.contains("You win") != rb.contains("You win"),
        "one of them won: {ra} / {rb}"
    );
    assert_eq!(
        a.js("return document.querySelectorAll('.clock.running').length"),
        json!(0),
        "the clocks stopped"
    );

    // Both see the new ratings: "1500 → 1662 (+162)" for the winner, a fall for the other.
    let change = |s: &Session| {
        wait_text(s, "#rating-change", "→", 20);
        strings(s.js("return [...document.querySelectorAll('#rating-change li')].map((li) => li.textContent)")).join("\n")
    };
    let (ca, cb) = (change(&a), change(&b));
    assert_eq!(ca, cb, "both pages show both changes");
    assert_eq!(change(&c), ca, "and so does the spectator's");
    let won = if ra.contains("You win") {
        "Alice33"
    } else {
        "Bob33"
    };
    let line = |who: &str| {
        ca.lines()
            .find(|l| l.starts_with(who))
            .unwrap_or_else(|| panic!("{who} in {ca}"))
            .to_string()
    };
    let (lw, ll) = if won == "Alice33" {
        (line("Alice33"), line("Bob33"))
    } else {
        (line("Bob33"), line("Alice33"))
    };
    assert!(lw.contains("1500 → ") && lw.contains("(+"), "{lw}");
    assert!(ll.contains("1500 → ") && ll.contains("(−"), "{ll}");
    a.screenshot(&screenshots().join("online-over.png"));

    // A's page: the kendall5 rating, the graph with its line, the game with a link to its
    // review.
    a.goto(&format!("{}/p/Alice33", server.url));
    a.wait_for("#player-name", 20);
    assert!(
        a.text("#ratings").contains("Kendall, five pieces"),
        "{}",
        a.text("#ratings")
    );
    a.wait_for("#rating-graph polyline.rline[data-rules='kendall5']", 5);
    a.wait_for(&format!("#player-games a[href='/g/{id}/review']"), 5);
    let g = a.text("#player-games");
    assert!(
        g.contains("Bob33") && (g.contains("Won") || g.contains("Lost")),
        "{g}"
    );
    a.screenshot(&screenshots().join("player-page.png"));
}

/// Waits until the page's address is a game other than `not`, and returns its ID.
fn wait_game(s: &Session, not: Option<&str>) -> String {
    let t = Instant::now();
    loop {
        if let Some(g) = game_id_or_none(s).filter(|g| Some(g.as_str()) != not) {
            s.wait_for("#board", 20);
            return g;
        }
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "no game opened: {:?}",
            s.js("return location.pathname")
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Offers a rematch on `a`'s page, accepts it on `b`'s; returns the new game's ID, which
/// both pages open.
fn rematch(a: &Session, b: &Session, old: &str) -> String {
    a.click_css("#rematch");
    wait_text(a, "#rematch-text", "Waiting for your opponent", 10);
    wait_text(b, "#rematch", "Accept the rematch", 10);
    b.click_css("#rematch");
    let g = wait_game(b, Some(old));
    assert_eq!(wait_game(a, Some(old)), g, "both pages follow the rematch");
    g
}

#[test]
#[ignore = "needs chromium and chromium-driver; run by scripts/test.sh"]
fn quick_pairing_then_abort_resign_rematch_and_a_claimed_win() {
    let dir = temp_dir("quick");
    let server = Server::start(&dir.join("g.sqlite"), 0);
    let driver = Driver::start();
    let a = driver.session(&dir.join("a"), 1000, 850);
    let b = driver.session(&dir.join("b"), 1000, 850);
    for s in [&a, &b] {
        s.goto(&format!("{}/", server.url));
        s.wait_for("#me-link", 20);
        motion_off(s);
    }
    rename_in_page(&a, "Khufu33");
    rename_in_page(&b, "Khafre33");
    wait_text(&b, "#lobby-conn", "live", 10);
    // A waits in quick pairing, cancels, waits again; B asks for the same game and is paired
    // with A at once.
    let quick = ".quick-btn[data-clock='5+3']";
    a.click_css(quick);
    wait_text(&a, "#pairing", "Looking for an opponent", 10);
    a.click_css("#pairing-cancel");
    let t = Instant::now();
    while !a.text("#pairing").is_empty() {
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "the wait is cancelled"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    a.click_css(quick);
    wait_text(&a, "#pairing", "5+3, rated", 10);
    b.click_css(quick);
    let g1 = wait_game(&b, None);
    assert_eq!(wait_game(&a, None), g1, "A's page follows the pairing");
    wait_text(&a, "#game-kind", "Rated · 5+3", 10);

    // Nobody has moved: either may abort; the game ends unrated.
    b.wait_for("#abort", 10);
    b.click_css("#abort");
    for s in [&a, &b] {
        wait_text(s, "#result-text", "aborted", 10);
    }
    assert!(a.find("#resign").is_none());

    // A rematch, offered by A and accepted by B.
    let g2 = rematch(&a, &b, &g1);
    // Resigning asks first; "Keep playing" keeps playing.
    a.click_css("#resign");
    a.click_css("#resign-no");
    a.wait_for("#resign", 5);
    assert!(a.find("#result-text").is_none(), "still playing");
    a.click_css("#resign");
    a.click_css("#resign-yes");
    let rb = wait_text(&b, "#result-text", "resigned", 10);
    assert!(
        rb.contains("You win: Khufu33 (") && rb.contains(") resigned"),
        "{rb}"
    );
    let ra = wait_text(&a, "#result-text", "resigned", 10);
    assert!(
        ra.contains("Khafre33 (") && ra.contains("you resigned"),
        "{ra}"
    );
    wait_text(&a, "#rating-change", "→", 20);

    // Another rematch; B leaves it: A sees the countdown, then claims the win.
    let g3 = rematch(&b, &a, &g2);
    assert!(g3 != g1);
    wait_text(&a, "#players", "Khafre33", 10);
    b.goto(&format!("{}/", server.url));
    // B's lobby offers the way back to the game under way.
    b.wait_for(&format!("#my-games a[href='/g/{g3}']"), 20);
    let away = wait_text(&a, "#away", "left the game", 15);
    assert!(
        away.contains("Khafre33") && away.contains("claimed in 0:"),
        "{away}"
    );
    assert!(a.find("#claim-win").is_none());
    let t = Instant::now();
    while a.find("#claim-win").is_none() {
        assert!(t.elapsed() < Duration::from_secs(75), "{}", a.text("#away"));
        std::thread::sleep(Duration::from_millis(200));
    }
    a.click_css("#claim-win");
    let r = wait_text(&a, "#result-text", "left the game", 10);
    assert!(r.starts_with("You win: Khafre33"), "{r}");
}

#[test]
#[ignore = "needs chromium and chromium-driver; run by scripts/test.sh"]
fn an_account_made_in_the_page_signs_in_elsewhere_and_signs_out_everywhere() {
    let dir = temp_dir("account");
    let server = Server::start(&dir.join("g.sqlite"), 0);
    let driver = Driver::start();
    let a = driver.session(&dir.join("a"), 1000, 850);
    let b = driver.session(&dir.join("b"), 1000, 850);
    for s in [&a, &b] {
        s.goto(&format!("{}/", server.url));
        s.wait_for("#me-link", 20);
    }
    let anon_b = b.text("#me-link");
    // A refused name is refused in words.
    a.click_css("#account-btn");
    a.wait_for("#account-dialog[open] #rename-name", 10);
    a.js("document.querySelector('#rename-name').value = 'x'; return 1");
    a.click_css("#rename-submit");
    let e = wait_text(&a, "#rename-error", "3", 10);
    assert!(e.len() > 10, "{e}");
    // A signs up with a name and a password.
    let set = |s: &Session, css: &str, v: &str| {
        s.js(&format!(
            "document.querySelector({css:?}).value = {v:?}; return 1"
        ));
    };
    set(&a, "#signup-name", "Sobek33");
    set(&a, "#signup-password", "crocodile-of-the-nile");
    a.click_css("#signup-submit");
    wait_text(&a, "#account-note", "Signed up", 20);
    wait_text(&a, "#me-link", "Sobek33", 5);
    assert!(a.find("#signup-name").is_none() && a.find("#password-old").is_some());
    a.click_css("#account-close");

    // B: a wrong password, then the right one; B is now Sobek33 too.
    b.click_css("#account-btn");
    b.wait_for("#account-dialog[open] #signin-name", 10);
    set(&b, "#signin-name", "Sobek33");
    set(&b, "#signin-password", "not-the-password");
    b.click_css("#signin-submit");
    wait_text(&b, "#signin-error", "wrong name or password", 20);
    set(&b, "#signin-password", "crocodile-of-the-nile");
    b.click_css("#signin-submit");
    wait_text(&b, "#me-link", "Sobek33", 20);
    b.wait_for("#seek-form", 20);

    // The player page says it is an account.
    b.click_css("#me-link");
    wait_text(&b, "#player-name", "Sobek33", 20);
    assert!(b.text("#app").contains("Account since"));

    // A changes the password, which signs B out; then A signs out everywhere.
    a.click_css("#account-btn");
    a.wait_for("#account-dialog[open] #password-old", 10);
    set(&a, "#password-old", "crocodile-of-the-nile");
    set(&a, "#password-new", "horus-the-falcon-god");
    a.click_css("#password-submit");
    wait_text(&a, "#account-note", "password was changed", 20);
    b.goto(&format!("{}/", server.url));
    b.wait_for("#me-link", 20);
    let now_b = b.text("#me-link");
    assert!(
        now_b != "Sobek33" && now_b != anon_b,
        "B's session ended: a new anonymous player ({now_b})"
    );
    a.click_css("#signout-all");
    a.wait_for("#me-link", 20);
    let t = Instant::now();
    while a.text("#me-link") == "Sobek33" {
        assert!(t.elapsed() < Duration::from_secs(10), "A signed out");
        std::thread::sleep(Duration::from_millis(50));
    }
    // The new password signs in again.
    a.click_css("#account-btn");
    a.wait_for("#account-dialog[open] #signin-name", 10);
    set(&a, "#signin-name", "Sobek33");
    set(&a, "#signin-password", "horus-the-falcon-god");
    a.click_css("#signin-submit");
    wait_text(&a, "#me-link", "Sobek33", 20);
}

#[test]
#[ignore = "needs chromium and chromium-driver; run by scripts/test.sh"]
fn clocks_are_written_as_players_read_them_and_low_time_is_marked() {
    let dir = temp_dir("clocktext");
    let server = Server::start(&dir.join("g.sqlite"), 0);
    let driver = Driver::start();
    let s = driver.session(&dir.join("profile"), 800, 600);
    s.goto(&format!("{}/", server.url));
    s.wait_for("#me-link", 20);
    let v = s.js_async(
        "const done = arguments[arguments.length - 1];
         import('/static/clock.js').then((m) => {
           const live = { minutes: 10, increment: 5 }, corr = { days: 3 };
           done([
             m.clockText(600000, live), m.clockText(599999, live), m.clockText(9400, live),
             m.clockText(-5, live), m.clockText(3723000, { minutes: 60, increment: 0 }),
             m.clockText(2 * 86400000 + 5 * 3600000 + 999, corr), m.clockText(5 * 3600000 + 12 * 60000, corr),
             m.clockText(30 * 60000, corr), m.clockWords(61000, live), m.clockWords(90000000, corr),
             m.clockSpecText({ minutes: 5, increment: 3 }), m.clockSpecText({ days: 1 }),
             m.lowAt(live), m.lowAt({ minutes: 1, increment: 0 }), m.lowAt({ minutes: 60, increment: 0 }), m.lowAt(corr),
             m.warnings({ minutes: 1, increment: 0 }), m.warnings(live),
           ]);
         }).catch((e) => done(String(e)));",
    );
    assert_eq!(
        v,
        json!([
            "10:00",
            "9:59",
            "0:09.4",
            "0:00.0",
            "1:02:03",
            "2 d 5 h",
            "5 h 12 min",
            "30:00",
            "1 minute 1 second",
            "1 day 1 hour",
            "5+3",
            "1 day",
            30000,
            10000,
            30000,
            3600000,
            [30000, 10000],
            [60000, 30000, 10000]
        ])
    );
}
