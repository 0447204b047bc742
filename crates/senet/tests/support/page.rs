#![allow(dead_code)] // shared by tests/browser.rs and tests/deploy.rs, which use different parts
//! Reading and driving senet's pages in a browser session: what the page offers (a throw, a
//! move, the end), playing a game through it, and small waits.

use super::webdriver::Session;
use serde_json::Value;
use std::time::{Duration, Instant};

/// What the page lets its user do now; with `press` set, that action done at once by the
/// page's own button (the throw, or the first move button) in the same script.
pub const STEP: &str = r#"
const st = document.querySelector('#status');
const seq = st ? Number(st.dataset.seq) : -1;
if (document.querySelector('#result-text')) return ['over', seq];
const t = document.querySelector('#throw');
if (t && !t.disabled && !t.hidden) { if (press) t.click(); return ['throw', seq]; }
const b = document.querySelector('.move-btn');
if (b) { if (press) b.click(); return ['move', seq]; }
return ['wait', seq];
"#;

/// Runs [`STEP`], pressing or not: what the page offered and its event count before.
pub fn look(s: &Session, press: bool) -> (String, i64) {
    let v = s.js(&format!("const press = {press};\n{STEP}"));
    (
        v[0].as_str().unwrap_or("wait").to_string(),
        v[1].as_i64().unwrap_or(-1),
    )
}

pub fn step(s: &Session) -> (String, i64) {
    look(s, false)
}

/// Plays one action if the page offers one, as `act` in tests/browser.rs does with move buttons, but pressed
/// by the page's script in the same round trip that looks: one WebDriver command where
/// WebDriver's own clicks take three, for the loops that only need a game played to its end
/// (real clicks, taps and keys have their own tests). Returns what the page offered and its
/// event count before the action.
pub fn act_quick(s: &Session) -> (String, i64) {
    let (kind, seq) = look(s, true);
    match kind.as_str() {
        "throw" | "move" => wait_change(s, seq),
        "over" => {}
        _ => std::thread::sleep(Duration::from_millis(30)),
    }
    (kind, seq)
}

/// Plays the game on the page to its end by its buttons (the throw button, the first move
/// button) as the other seat answers; the seconds it took.
pub fn play_to_end(s: &Session) -> f64 {
    let started = Instant::now();
    let mut progress = Progress::new();
    loop {
        let (k, seq) = act_quick(s);
        if k == "over" {
            break;
        }
        progress.saw(seq);
    }
    started.elapsed().as_secs_f64()
}

/// Acts (throws) until the page offers a move, 30 s at most.
pub fn until_move(s: &Session) {
    let t = Instant::now();
    loop {
        let (k, _) = step(s);
        if k == "move" {
            return;
        }
        assert!(t.elapsed() < Duration::from_secs(30), "no move offered");
        act_quick(s);
    }
}

/// Waits until the page's event count differs from `seq` (the server acknowledged).
pub fn wait_change(s: &Session, seq: i64) {
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs(10) {
        let (k, n) = step(s);
        if n != seq || k == "over" {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!(
        "the page did not change after an action: {} {}",
        s.text("#error"),
        s.js("return [document.querySelector('#status').textContent, document.activeElement.outerHTML.slice(0, 200), document.querySelector('#board-wrap').className, scrollY, innerWidth, document.querySelector('#throw').disabled]")
    );
}

/// How long a game may go on with no new event before its test fails. It bounds a hang, not
/// the game's length, which a slow or busy machine stretches (a whole two-browser game once
/// took over 400 s on a loaded 2-core machine while every action was answered).
pub const STALL: Duration = Duration::from_secs(90);

/// Watches a game loop by the page's event count (`#status` data-seq, as [`step`] and
/// `act` in tests/browser.rs return it): fails when it has not moved for [`STALL`].
pub struct Progress {
    seq: i64,
    since: Instant,
}

impl Progress {
    pub fn new() -> Self {
        Progress {
            seq: i64::MIN,
            since: Instant::now(),
        }
    }

    /// Notes the event count seen now; whether it has not moved for [`STALL`].
    pub fn stalled(&mut self, seq: i64) -> bool {
        if seq != self.seq {
            self.seq = seq;
            self.since = Instant::now();
        }
        self.since.elapsed() >= STALL
    }

    /// Notes the event count seen now, and fails if it has not moved for [`STALL`].
    pub fn saw(&mut self, seq: i64) {
        assert!(
            !self.stalled(seq),
            "the game stalled: no new event for {} s (event {seq})",
            STALL.as_secs()
        );
    }
}

pub fn set_select(s: &Session, css: &str, value: &str) {
    s.wait_for(css, 10);
    s.js(&format!(
        "const e = document.querySelector({css:?}); e.value = {value:?}; e.dispatchEvent(new Event('change')); return e.value"
    ));
}

pub fn wait_text(s: &Session, css: &str, needle: &str, secs: u64) -> String {
    let t = Instant::now();
    loop {
        let text = s.text(css);
        if text.contains(needle) {
            return text;
        }
        assert!(
            t.elapsed() < Duration::from_secs(secs),
            "{css}: {text:?} lacks {needle:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

pub fn game_id(s: &Session) -> String {
    s.js("return location.pathname.split('/')[2]")
        .as_str()
        .unwrap()
        .to_string()
}

/// Turns the page's motion off (the setting the page's own switch stores; read at each
/// replay) for the tests whose subject is not motion: replays drawn in software on two
/// cores slowed every other test beside them. Motion itself is tested with it on: the
/// animated whole game, and the whole games by keyboard and by touch.
pub fn motion_off(s: &Session) {
    s.js("localStorage.setItem('senet.motion', 'off'); return 1");
}

pub fn strings(v: Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect()
}

/// Renames the page's player through the header's account dialog.
pub fn rename_in_page(s: &Session, name: &str) {
    s.click_css("#account-btn");
    s.wait_for("#account-dialog[open] #rename-name", 10);
    s.js(&format!(
        "document.querySelector('#rename-name').value = {name:?}; return 1"
    ));
    s.click_css("#rename-submit");
    wait_text(s, "#me-link", name, 10);
    wait_text(s, "#account-note", name, 10);
    s.click_css("#account-close");
}

/// The game ID in the page's address, if it is a game page.
pub fn game_id_or_none(s: &Session) -> Option<String> {
    let p = s.js("return location.pathname");
    let p = p.as_str().unwrap_or("");
    p.strip_prefix("/g/")
        .filter(|g| !g.contains('/') && !g.is_empty())
        .map(String::from)
}

/// Waits (20 s at most) until pages `a` and `b` show one game, as when one accepted the
/// other's seek and the other was told of the pairing; its ID.
pub fn both_in_one_game(a: &Session, b: &Session) -> String {
    let t = Instant::now();
    while game_id_or_none(a).is_none_or(|g| Some(g) != game_id_or_none(b)) {
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "both open the game: {:?} {:?}",
            a.js("return location.pathname"),
            b.js("return location.pathname")
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    game_id(a)
}

/// axe-core's script: `$SENET_AXE`, else the npm package scripts/test.sh installs under
/// target/npm.
pub fn axe_source() -> String {
    let p = std::env::var_os("SENET_AXE")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../../target/npm/node_modules/axe-core/axe.min.js")
        });
    std::fs::read_to_string(&p).unwrap_or_else(|e| {
        panic!(
            "axe-core is missing at {} ({e}); scripts/test.sh installs it with npm",
            p.display()
        )
    })
}

/// Runs axe-core in the page; returns its serious and critical violations.
pub fn axe(s: &Session, axe: &str) -> Vec<String> {
    s.js(&format!("{axe}; return 1"));
    let v = s.js_async(
        "const done = arguments[arguments.length - 1];
         axe.run(document, { resultTypes: ['violations'] }).then(r => done(r.violations
           .filter(v => v.impact === 'serious' || v.impact === 'critical')
           .map(v => `${v.id} (${v.impact}): ${v.help}: ` + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '))))
           .catch(e => done(['axe failed: ' + e]));",
    );
    strings(v)
}
