//! Puzzles in real headless Chromium (issue 57): a server that makes its puzzles on start;
//! a visitor solves one by clicking its best move and sees their puzzle rating rise, then
//! misses the next one by keyboard (N, arrows, Enter) and sees it fall, with every move's win
//! chance and the ratings' changes shown; the puzzle of the day opens from the lobby; axe
//! finds nothing serious on the page in either theme. Ignored by a plain `cargo test`;
//! `scripts/test.sh` runs it.

mod support {
    pub mod page;
    #[allow(dead_code)]
    pub mod webdriver;
}

use senet_bots::puzzle;
use serde_json::Value;
use std::time::{Duration, Instant};
use support::page::{axe, axe_source, set_select, wait_text};
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
