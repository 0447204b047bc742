//! Puzzles in real headless Chromium (issue 57): a server that makes its puzzles on start;
//! a visitor solves one by clicking its best move and sees their puzzle rating rise, then
//! misses the next one by keyboard (N, arrows, Enter) and sees it fall, with every move's win
//! chance and the ratings' changes shown; the puzzle of the day opens from the lobby; axe
//! finds nothing serious on the page in either theme. Tournaments (issue 57), in the same
//! binary: a player signs up from the tournaments page, makes an arena with its form, a
//! second player joins it and shows on the first one's page live, the start pairs them and
//! sends both to the game, which links back to the tournament and offers no rematch; the
//! standings then show the result, and axe finds nothing serious there in either theme.
//! Ignored by a plain `cargo test`; `scripts/test.sh` runs it.

mod support {
    pub mod page;
    #[allow(dead_code)]
    pub mod webdriver;
}

use senet_bots::puzzle;
use serde_json::Value;
use std::time::{Duration, Instant};
use support::page::{axe, axe_source, both_in_one_game, set_select, wait_text};
use support::webdriver::{http, temp_dir, Driver, Server, Session};

/// The rating shown in `#puzzle-rating` ("Your puzzle rating: 1523? · ...").
fn shown_rating(s: &Session) -> i64 {
    let t = s.text("#puzzle-rating");
    t.split("rating: ")
        .nth(1)
        .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|r| r.parse().ok())
        .unwrap_or_else(|| panic!("no rating in {t:?}"))
}

/// The puzzle on the page, as the server gives it.
fn puzzle_on_page(s: &Session, port: u16) -> Value {
    let id =
        s.js("return document.querySelector('#puzzle-link').getAttribute('href').split('/')[2]");
    let (st, z) = http(
        port,
        "GET",
        &format!("/api/puzzles/{}", id.as_str().unwrap()),
        None,
    )
    .unwrap();
    assert_eq!(st, 200, "{z}");
    serde_json::from_str(&z).unwrap()
}

/// The best move of the page's puzzle, found again here as the generator judged it.
fn best_of(z: &Value) -> String {
    let g: senet_rules::AnyGame = z["position"].as_str().unwrap().parse().unwrap();
    puzzle::judge(&g, "test")
        .expect("the position is a puzzle")
        .best
}

#[test]
#[ignore = "needs chromium and chromium-driver; run by scripts/test.sh"]
fn a_visitor_solves_a_puzzle_misses_one_and_sees_the_rating_move() {
    let dir = temp_dir("puzzles");
    let server = Server::start_with(dir.join("g.sqlite").as_os_str(), 0, &["--puzzles", "4"]);
    // The server makes its puzzles in the background.
    let t = Instant::now();
    while http(server.port, "GET", "/api/puzzles/next?rules=kendall5", None)
        .unwrap()
        .0
        != 200
    {
        assert!(
            t.elapsed() < Duration::from_secs(180),
            "no kendall5 puzzle was made"
        );
        std::thread::sleep(Duration::from_millis(250));
    }
    let driver = Driver::start();
    let s = driver.session(&dir.join("profile"), 1100, 900);
    s.goto(&format!("{}/", server.url));
    s.wait_for("#puzzles-link", 20);
    s.click_css("#puzzles-link");
    s.wait_for("#puzzle-rules", 20);
    set_select(&s, "#puzzle-rules", "kendall5");
    wait_text(&s, "#puzzle-title", "Kendall, five pieces", 20);
    wait_text(&s, "#puzzle-task", "Find the best move", 20);
    wait_text(&s, "#puzzle-rating", "Your puzzle rating: 1500?", 20);

    // Solved by a click on the best move's button.
    let z = puzzle_on_page(&s, server.port);
    let best = best_of(&z);
    s.click_css(&format!(".move-btn[data-move='{best}']"));
    wait_text(&s, "#puzzle-verdict", "Right", 20);
    let change = s.text("#puzzle-rating-change");
    assert!(change.contains("1500 →"), "{change}");
    let up = shown_rating(&s);
    assert!(up > 1500, "solving raised the rating: {up}");
    let shown = s.js("return [...document.querySelectorAll('#moves .move-btn .win')].length");
    assert_eq!(
        shown.as_u64().unwrap() as usize,
        z["legal"].as_array().unwrap().len(),
        "every move's chance is shown"
    );

    if let Some(dir) = std::env::var_os("SENET_SCREENSHOTS") {
        s.screenshot(&std::path::PathBuf::from(dir).join("puzzle.png"));
    }

    // Missed by keyboard: N for the next, arrows to a move that is not the best, Enter.
    let first = z["id"].clone();
    s.js("document.activeElement.blur(); return 1");
    s.keys(&["n"]);
    let t = Instant::now();
    let z = loop {
        let z = puzzle_on_page(&s, server.port);
        if z["id"] != first && s.text("#puzzle-task").contains("Find the best move") {
            break z;
        }
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "N did not bring the next puzzle"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    let best = best_of(&z);
    let moves: Vec<String> = z["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect();
    let wrong = moves
        .iter()
        .position(|m| *m != best)
        .expect("a puzzle has another move");
    s.keys(&["\u{E015}"]); // arrow down: the first move button
    for _ in 0..wrong {
        s.keys(&["\u{E015}"]);
    }
    let focused = s.js("return document.activeElement.dataset.move || ''");
    assert_eq!(focused.as_str().unwrap(), moves[wrong]);
    s.keys(&["\u{E007}"]); // Enter
    wait_text(&s, "#puzzle-verdict", "Not the best", 20);
    let down = shown_rating(&s);
    assert!(down < up, "missing lowered the rating: {up} → {down}");
    assert!(s
        .text("#puzzle-task")
        .contains(&format!("Not the best: {best} was")));

    // The puzzle of the day, from the lobby.
    s.goto(&format!("{}/", server.url));
    s.wait_for("#daily-link", 20);
    s.click_css("#daily-link");
    wait_text(&s, "#puzzle-title", "Puzzle of the day", 20);

    // axe: nothing serious, in both themes, before and after an answer.
    let source = axe_source();
    let mut bad = vec![];
    for theme in ["light", "dark"] {
        s.js(&format!(
            "localStorage.setItem('senet.theme', '{theme}'); localStorage.setItem('senet.puzzles', '{{}}'); return 1"
        ));
        s.goto(&format!("{}/puzzles", server.url));
        wait_text(&s, "#puzzle-task", "", 20);
        s.wait_for("#moves .move-btn", 20);
        bad.extend(
            axe(&s, &source)
                .into_iter()
                .map(|v| format!("{theme}, open: {v}")),
        );
        s.js("document.querySelector('#moves .move-btn').click(); return 1");
        s.wait_for("#puzzle-verdict", 20);
        bad.extend(
            axe(&s, &source)
                .into_iter()
                .map(|v| format!("{theme}, answered: {v}")),
        );
        if let Some(dir) = std::env::var_os("SENET_SCREENSHOTS") {
            s.js("document.querySelector('#puzzle-title').scrollIntoView(); return 1");
            s.screenshot(&std::path::PathBuf::from(dir).join(format!("puzzle-{theme}.png")));
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

/// Sets a form field's value as typing would.
fn set_value(s: &Session, css: &str, v: &str) {
    s.js(&format!(
        "const e = document.querySelector({css:?}); e.value = {v:?}; e.dispatchEvent(new Event('input', {{ bubbles: true }})); return 1"
    ));
}

#[test]
#[ignore = "needs chromium and chromium-driver; run by scripts/test.sh"]
fn a_player_makes_an_arena_another_joins_live_and_the_start_pairs_them() {
    let dir = temp_dir("tournament");
    let server = Server::start_with(dir.join("g.sqlite").as_os_str(), 0, &["--puzzles", "0"]);
    let driver = Driver::start();
    let a = driver.session(&dir.join("a"), 1100, 900);
    let b = driver.session(&dir.join("b"), 1100, 900);

    // A has no account: the page says one is needed, and its button opens the account
    // dialog, where A signs up; the form then shows.
    a.goto(&format!("{}/tournaments", server.url));
    wait_text(&a, "#create-needs-account", "needs an account", 20);
    assert!(a.find("#tournament-form").is_none());
    a.click_css("#create-signin");
    a.wait_for("#account-dialog[open] #signup-name", 10);
    set_value(&a, "#signup-name", "Hathor57");
    set_value(&a, "#signup-password", "sycamore-of-the-south");
    a.click_css("#signup-submit");
    wait_text(&a, "#account-note", "Signed up", 20);
    a.click_css("#account-close");
    a.wait_for("#tournament-form", 10);

    // An arena of 10 minutes, 3+2, starting in 5 minutes (A starts it early).
    a.click_css("#t-kind-arena");
    set_value(&a, "#t-name", "Nile arena");
    set_select(&a, "#t-rules", "kendall5");
    set_value(&a, "#t-length", "10");
    set_value(&a, "#t-minutes", "3");
    set_value(&a, "#t-increment", "2");
    set_value(&a, "#t-starts", "5");
    a.click_css("#t-create");
    wait_text(&a, "#t-title", "Nile arena", 20);
    let id = a
        .js("return location.pathname")
        .as_str()
        .unwrap()
        .strip_prefix("/tournaments/")
        .expect("the tournament's page")
        .to_string();
    wait_text(
        &a,
        "#t-settings",
        "Arena · Kendall, five pieces (modern) · 3+2 · rated · 10 minutes",
        5,
    );
    wait_text(&a, "#t-state", "starts in 4:", 5);
    wait_text(&a, "#standings", "Hathor57", 5);
    a.wait_for("#t-start", 5);
    a.wait_for("#t-conn.live", 10);
    // Marks this page: still there after B joins means no reload.
    a.js("window.stayed = true; return 1");

    // B (a player without an account) finds it from the lobby and joins.
    b.goto(&format!("{}/", server.url));
    b.wait_for("#tournaments-link", 20);
    let b_name = b.text("#me-link");
    b.click_css("#tournaments-link");
    wait_text(&b, "#upcoming", "Nile arena", 20);
    b.click_css(&format!("#upcoming li[data-id='{id}'] .t-link"));
    b.wait_for("#t-join", 20);
    b.wait_for("#t-conn.live", 10);
    b.click_css("#t-join");
    b.wait_for("#t-leave", 10);

    // A sees B in the standings at once, told politely, with no reload.
    wait_text(&a, "#standings", &b_name, 10);
    wait_text(&a, "#t-announce", &format!("{b_name} joined."), 5);
    assert_eq!(a.js("return window.stayed === true"), Value::Bool(true));

    // A starts it now: both are paired and sent to one game, a tournament's.
    a.click_css("#t-start");
    let game = both_in_one_game(&a, &b);
    let (st, g) = http(server.port, "GET", &format!("/api/games/{game}"), None).unwrap();
    assert_eq!(st, 200, "{g}");
    let g: Value = serde_json::from_str(&g).unwrap();
    assert_eq!(g["tournament"].as_str(), Some(id.as_str()));
    wait_text(&a, "#game-kind", "a tournament game", 20);

    // A leaves the arena from its page (the game's link to it): not paired again, while the
    // game under way is played out; back to it by the page's link.
    a.click_css("#game-tournament");
    a.wait_for("#t-my-game a", 20);
    a.click_css("#t-leave");
    a.wait_for("#t-join", 10);
    wait_text(&a, "#t-you", "You left", 5);
    a.wait_for("#standings a.playing", 5);
    let source = axe_source();
    let mut bad: Vec<String> = axe(&a, &source)
        .into_iter()
        .map(|v| format!("light, game under way: {v}"))
        .collect();
    a.click_css("#t-my-game a");

    // A resigns: the result links back to the tournament and offers no rematch.
    a.wait_for("#resign", 20);
    a.click_css("#resign");
    a.click_css("#resign-yes");
    wait_text(&a, "#result-text", "resigned", 20);
    a.wait_for("#tournament-link", 10);
    b.wait_for("#tournament-link", 10);
    assert!(a.find("#rematch").is_none() && b.find("#rematch").is_none());
    a.click_css("#tournament-link");

    // The standings: B first with 2 points and a win's mark, A a loss.
    wait_text(&a, "#t-title", "Nile arena", 20);
    let leader = wait_text(&a, "#standings tbody tr:first-child", &b_name, 10);
    assert!(leader.contains("1 (1-0-0)"), "{leader}");
    assert_eq!(a.text("#standings tbody tr:first-child .t-score"), "2");
    a.wait_for(
        &format!("#standings tbody tr:first-child .mark-sheet.win[href='/g/{game}']"),
        5,
    );
    a.wait_for("#standings tbody tr:last-child .mark-sheet.loss", 5);
    wait_text(&a, "#standings tbody tr:last-child", "(left)", 5);
    let a_first = g["players"][0]["name"].as_str() == Some("Hathor57");
    wait_text(&a, "#t-game-list", if a_first { "0–1" } else { "1–0" }, 5);

    // axe: nothing serious on the tournament page or the list, in both themes.
    for theme in ["light", "dark"] {
        a.js(&format!(
            "localStorage.setItem('senet.theme', '{theme}'); return 1"
        ));
        a.goto(&format!("{}/tournaments/{id}", server.url));
        a.wait_for("#standings .mark-sheet", 20);
        bad.extend(
            axe(&a, &source)
                .into_iter()
                .map(|v| format!("{theme}, tournament: {v}")),
        );
        if let Some(dir) = std::env::var_os("SENET_SCREENSHOTS") {
            a.screenshot(&std::path::PathBuf::from(dir).join(format!("tournament-{theme}.png")));
        }
        a.goto(&format!("{}/tournaments", server.url));
        wait_text(&a, "#running", "Nile arena", 20);
        if let Some(dir) = std::env::var_os("SENET_SCREENSHOTS") {
            a.screenshot(&std::path::PathBuf::from(dir).join(format!("tournaments-{theme}.png")));
        }
        bad.extend(
            axe(&a, &source)
                .into_iter()
                .map(|v| format!("{theme}, list: {v}")),
        );
    }
    assert!(bad.is_empty(), "{bad:#?}");
}
