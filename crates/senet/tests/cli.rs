//! The command-line contract (README): output shapes, determinism, errors and exit codes.

use serde_json::Value;
use std::process::{Command, Output};

fn senet(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_senet"))
        .args(args)
        .output()
        .expect("runs")
}

fn ok(args: &[&str]) -> String {
    let o = senet(args);
    assert!(
        o.status.success(),
        "senet {args:?} failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

fn err(args: &[&str]) -> String {
    let o = senet(args);
    assert_eq!(
        o.status.code(),
        Some(1),
        "senet {args:?} should fail with 1"
    );
    let e = String::from_utf8(o.stderr).unwrap();
    assert!(e.starts_with("error: "), "{e}");
    assert!(!e.contains("panicked"), "{e}");
    e
}

const K5: &str = "kendall5 XOXOXOXOXO.................... off=0,0 turn=1 throw=- dec=0";

#[test]
fn rules_lists_every_rule_set_with_options() {
    let v: Value = serde_json::from_str(&ok(&["rules", "--json"])).unwrap();
    let ids: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert!(
        ids.contains(&"kendall") && ids.contains(&"kendall5"),
        "{ids:?}"
    );
    for r in v.as_array().unwrap() {
        assert!(r["name"].is_string() && r["source"].is_string());
        let opts = r["options"].as_array().unwrap();
        assert!(
            opts.iter().any(|o| o["name"] == "cap"),
            "every rule set has the turn cap"
        );
    }
    assert!(ok(&["rules"]).contains("kendall5"));
}

#[test]
fn new_prints_the_start_position_with_options() {
    assert_eq!(ok(&["new", "kendall5"]).trim(), K5);
    assert_eq!(
        ok(&["new", "kendall", "--option", "cap=50"]).trim(),
        "kendall:cap=50 OXOXOXOXOX.................... off=0,0 turn=1 throw=- forced=10 dec=0"
    );
    let e = err(&["new", "kendall", "--option", "cap=zero"]);
    assert!(e.contains("cap"), "{e}");
    let e = err(&["new", "kendall", "--option", "nosuch=1"]);
    assert!(e.contains("no option \"nosuch\""), "{e}");
    let e = err(&["new", "senet-classic"]);
    assert!(e.contains("unknown rule set"), "{e}");
}

#[test]
fn moves_lists_every_legal_move_with_details() {
    let v: Value = serde_json::from_str(&ok(&["moves", K5, "--throw", "5"])).unwrap();
    let moves = v.as_array().unwrap();
    let names: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
    assert_eq!(names, ["1-6", "3-8", "5-10", "7-12", "9-14"]);
    let first = &moves[0];
    assert_eq!(first["from"], 1);
    assert_eq!(first["to"], 6);
    assert_eq!(
        first["kinds"],
        serde_json::json!(["step", "swap", "bonus throw"])
    );
    assert_eq!(first["turn_continues"], true);
    assert_eq!(
        first["position"],
        "kendall5 OOXOXXXOXO.................... off=0,0 turn=1 throw=- dec=1"
    );
    // A throw of 2 ends the turn; `to` of a bear-off is "off".
    let v: Value = serde_json::from_str(&ok(&[
        "moves",
        "kendall5 O...........................X. off=4,4 turn=1 throw=2 dec=90",
    ]))
    .unwrap();
    let m = &v.as_array().unwrap()[0];
    assert_eq!(m["move"], "29-off");
    assert_eq!(m["to"], "off");
    assert_eq!(m["kinds"], serde_json::json!(["step", "bear off"]));
}

#[test]
fn moves_needs_a_throw_exactly_when_none_is_pending() {
    let e = err(&["moves", K5]);
    assert!(e.contains("--throw"), "{e}");
    let e = err(&[
        "moves",
        "kendall5 XOXOXOXOXO.................... off=0,0 turn=1 throw=3 dec=0",
        "--throw",
        "3",
    ]);
    assert!(e.contains("already holds the throw 3"), "{e}");
    // senat after a bear-off: the throw is 4, and 2 of its steps are left (S10).
    let senat = "senat ...................X....O..... off=4,4 turn=1 throw=4 left=2 dec=21";
    let e = err(&["moves", senat, "--throw", "1"]);
    assert!(
        e.contains("already holds the throw 4, with 2 leftover steps to play"),
        "{e}"
    );
    let e = err(&["bot", senat, "--bot", "random", "--throw", "1"]);
    assert!(e.contains("the throw 4, with 2 leftover steps"), "{e}");
    let e = err(&["moves", K5, "--throw", "6"]);
    assert!(e.contains("not a possible throw"), "{e}");
    let e = err(&["moves", K5, "--throw", "x"]);
    assert!(e.contains("throw"), "{e}");
}

#[test]
fn apply_plays_a_move_or_says_why_not() {
    assert_eq!(
        ok(&["apply", K5, "1-6", "--throw", "5"]).trim(),
        "kendall5 OOXOXXXOXO.................... off=0,0 turn=1 throw=- dec=1"
    );
    let e = err(&["apply", K5, "2-7", "--throw", "5"]);
    assert!(e.contains("no piece on 2"), "{e}");
    let v: Value =
        serde_json::from_str(&ok(&["apply", K5, "7-12", "--throw", "5", "--json"])).unwrap();
    assert_eq!(v["status"]["state"], "throw");
    assert_eq!(v["status"]["player"], 1);
}

#[test]
fn malformed_positions_are_clear_errors() {
    for (pos, needle) in [
        ("", "empty"),
        ("kendall5", "board"),
        ("kendall5 XOXOXOXOXO", "30 squares"),
        (
            "kendall5 XOXOXOXOXO...................Z off=0,0 turn=1 throw=- dec=0",
            "square 30 holds 'Z'",
        ),
        (
            "kendall5 XOXOXOXOXO.................... off=1,0 turn=1 throw=- dec=0",
            "must add up to 5",
        ),
        (
            "kendall5 XOXOXOXOXO.................... off=0,0 turn=3 throw=- dec=0",
            "turn",
        ),
        (
            "kendall5 XOXOXOXOXO.................... off=0,0 turn=1 throw=6 dec=0",
            "not a kendall5 throw",
        ),
        (
            "kendall5 XOXOXOXOXO.................... off=0,0 turn=1 throw=- dec=0 x=1",
            "unknown field x",
        ),
        (
            "kendall5 XOXOXOXOXO.................... off=0,0 turn=1 turn=2 throw=- dec=0",
            "twice",
        ),
        (
            "kendall5 XOXOXOXO.O................X... off=0,0 turn=1 throw=- dec=0",
            "27",
        ),
        (
            "kendall OXOXOXOXO.X................... off=0,0 turn=1 throw=- forced=10 dec=0",
            "forced=10",
        ),
    ] {
        let e = err(&["show", pos]);
        assert!(e.contains(needle), "{pos:?}: {e}");
    }
}

#[test]
fn random_game_is_reproducible_and_replays() {
    let a = ok(&["random-game", "kendall", "--seed", "42"]);
    let b = ok(&["random-game", "kendall", "--seed", "42"]);
    let c = ok(&["random-game", "kendall", "--seed", "43"]);
    assert_eq!(a, b);
    assert_ne!(a, c);
    let dir = std::env::temp_dir().join(format!("senet-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("g.json");
    std::fs::write(&file, &a).unwrap();
    let out = ok(&["replay", file.to_str().unwrap()]);
    assert!(
        out.contains("all legal") && out.contains("result: player"),
        "{out}"
    );
    let v: Value =
        serde_json::from_str(&ok(&["replay", file.to_str().unwrap(), "--json"])).unwrap();
    assert_eq!(v["status"]["state"], "over");
    let rec: Value = serde_json::from_str(&a).unwrap();
    assert_eq!(v["position"], rec["result"]["position"]);

    // Corrupt the 5th move: the replay names it.
    let mut bad: Value = rec.clone();
    let events = bad["events"].as_array_mut().unwrap();
    let idx = events
        .iter()
        .enumerate()
        .filter(|(_, e)| e.get("move").is_some())
        .nth(4)
        .unwrap()
        .0;
    events[idx] = serde_json::json!({"move": "1-30"});
    std::fs::write(&file, serde_json::to_string(&bad).unwrap()).unwrap();
    let e = err(&["replay", file.to_str().unwrap()]);
    assert!(e.contains(&format!("event {} (move 5)", idx + 1)), "{e}");

    // A false result is caught.
    let mut bad = rec.clone();
    bad["result"]["winner"] = if rec["result"]["winner"] == 1 {
        2.into()
    } else {
        1.into()
    };
    std::fs::write(&file, serde_json::to_string(&bad).unwrap()).unwrap();
    assert!(err(&["replay", file.to_str().unwrap()]).contains("claims winner"));

    // Not JSON, wrong format, missing file.
    std::fs::write(&file, "{not json").unwrap();
    assert!(err(&["replay", file.to_str().unwrap()]).contains("not a valid record"));
    assert!(err(&["replay", "/nonexistent/senet.json"]).contains("cannot read"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn replay_says_in_words_what_is_wrong_with_text_that_is_no_record() {
    // Issue 36: `senet replay /dev/null` showed serde's "EOF while parsing a value at line 1
    // column 0"; malformed JSON showed "expected ident".
    let e = err(&["replay", "/dev/null"]);
    assert!(e.contains("not a valid record: the text is empty"), "{e}");
    let dir = std::env::temp_dir().join(format!("senet-cli-words-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("g.json");
    for (text, want) in [
        (
            "{not json",
            "a field name must be text in double quotes (line 1, column 2)",
        ),
        (
            r#"{"format": tru}"#,
            "a word that is not true, false or null",
        ),
        (r#"{"format": "senet-record/1""#, "it ends inside an object"),
        (
            r#"{"format": "x",}"#,
            "a comma (,) before a closing } or ] is not allowed",
        ),
    ] {
        std::fs::write(&file, text).unwrap();
        let e = err(&["replay", file.to_str().unwrap()]);
        assert!(
            e.contains("it is not JSON: ") && e.contains(want),
            "{text}: {e}"
        );
        for raw in ["EOF", "ident", " at line "] {
            assert!(!e.contains(raw), "{text}: {e} has {raw:?}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn c7_an_old_pyramid_record_that_a_lost_dies_pass_brought_to_the_cap_replays_to_its_result() {
    // Issue 36: a record written before ruling C7 holds a `pass` for a lost die, which was a
    // decision then (C5). In this one (the smallest case) white throws 2-2 with the cap at 7
    // and 5 decisions played; only 26-28 can be played (Y8); the `pass` for the other 2 was
    // decision 7 and ended the game as a capped draw. The replay must reach that result.
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/pyramid-capped-before-c7.json"
    );
    let out = ok(&["replay", fixture]);
    assert!(out.contains("result: draw (turn cap reached)"), "{out}");
    let v: Value = serde_json::from_str(&ok(&["replay", fixture, "--json"])).unwrap();
    let rec: Value = serde_json::from_str(&std::fs::read_to_string(fixture).unwrap()).unwrap();
    assert_eq!(v["status"]["state"], "over");
    assert_eq!(v["position"], rec["result"]["position"]);
    assert_eq!(
        v["moves"], 1,
        "26-28 is the one move played; the old pass is not a move"
    );
}

#[test]
fn c5_c7_a_pyramid_game_capped_mid_turn_replays_to_its_written_position() {
    // Issue: a record written before ruling C7 that the cap (C5, cap=62) ended after white's
    // 19-23, the first die of 2-4, holds `turn=2 dice=2`: the engine of the time kept the 2,
    // which has no move, in hand, and the cap ended the game before its `pass`. Under C7 that
    // die is lost and the turn passes (`turn=1 dice=-`). The same capped draw: both records
    // replay to the position they hold.
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/pyramid-capped-mid-turn-before-c7.json"
    );
    let text = std::fs::read_to_string(fixture).unwrap();
    let old_end = "pyramid:cap=62 ......L.L.............l.SS.... off=S,ss turn=2 dice=2 dec=62";
    let new_end = "pyramid:cap=62 ......L.L.............l.SS.... off=S,ss turn=1 dice=- dec=62";
    assert!(text.contains(old_end));
    let dir = std::env::temp_dir().join(format!("senet-cli-capped-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let new = dir.join("new.json");
    std::fs::write(&new, text.replace(old_end, new_end)).unwrap();
    for (file, end) in [(fixture, old_end), (new.to_str().unwrap(), new_end)] {
        let out = ok(&["replay", file]);
        assert!(out.contains("5 moves replayed, all legal"), "{out}");
        assert!(out.contains(&format!("final position: {end}")), "{out}");
        assert!(
            out.contains("result: draw (turn cap reached), score 2-4"),
            "{out}"
        );
        let v: Value = serde_json::from_str(&ok(&["replay", file, "--json"])).unwrap();
        assert_eq!(v["position"], end);
        assert_eq!(v["status"]["state"], "over");
    }
    // Only those two: the die played, or the 2 on black's turn, is still refused.
    for bad in [
        "off=S,ss turn=2 dice=4 dec=62",
        "off=S,ss turn=1 dice=2 dec=62",
    ] {
        let f = dir.join("bad.json");
        std::fs::write(&f, text.replace("off=S,ss turn=2 dice=2 dec=62", bad)).unwrap();
        let e = err(&["replay", f.to_str().unwrap()]);
        assert!(e.contains("differs from the replay's"), "{bad}: {e}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_command_lines_exit_with_2() {
    let o = senet(&["frobnicate"]);
    assert_eq!(o.status.code(), Some(2));
    let o = senet(&["random-game", "kendall"]);
    assert_eq!(o.status.code(), Some(2), "--seed is required");
}

#[test]
fn senat_leftover_steps_are_a_decision_of_their_own() {
    // X on 20, 21, 26, 29 (one off), O on 1: 29 with a 4 bears off with 2 steps to spare.
    let p = "senat O..................XX....X..X. off=1,4 turn=1 throw=- dec=80";
    let v: Value = serde_json::from_str(&ok(&["moves", p, "--throw", "4"])).unwrap();
    let off = v
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == "29-off")
        .unwrap();
    assert_eq!(off["kinds"], serde_json::json!(["step", "bear off"]));
    assert_eq!(off["turn_continues"], true);
    let left = off["position"].as_str().unwrap();
    assert_eq!(
        left,
        "senat O..................XX....X.... off=2,4 turn=1 throw=4 left=2 dec=81"
    );
    let v: Value = serde_json::from_str(&ok(&["moves", left])).unwrap();
    let names: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["20-22", "21-23", "26-28", "decline"]);
    assert_eq!(v[3]["kinds"], serde_json::json!(["bonus throw"]));
    let e = err(&["apply", left, "20-21"]);
    assert!(e.contains("leftover"), "{e}");
}

#[test]
fn senat_and_houses_options_reach_positions_and_records() {
    assert_eq!(
        ok(&["new", "senat", "--option", "die", "--option", "score"]).trim(),
        "senat:die=true,score=true OXOXOXOXOX.................... off=0,0 turn=1 throw=1 forced=10 dec=0"
    );
    let rec = ok(&[
        "random-game",
        "houses",
        "--seed",
        "5",
        "--option",
        "six_sticks",
    ]);
    assert!(
        rec.contains("\"six_sticks\": true") || rec.contains("\"six_sticks\":true"),
        "{rec}"
    );
    let path = std::env::temp_dir().join(format!("senet-houses-{}.json", std::process::id()));
    std::fs::write(&path, &rec).unwrap();
    let out = ok(&["replay", path.to_str().unwrap()]);
    std::fs::remove_file(&path).ok();
    assert!(out.contains("all legal"), "{out}");
    assert!(out.contains("houses:six_sticks=true"), "{out}");
}
