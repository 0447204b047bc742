//! The command-line contract for `parker` (cells for squares, two dice, the dice-off).

use serde_json::Value;
use std::process::{Command, Output};

const START: &str = "parker .....ooooO/........../Xxxxx..... turn=- throw=- dec=0";

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
    assert!(e.starts_with("error: ") && !e.contains("panicked"), "{e}");
    e
}

#[test]
fn new_moves_apply_show_with_cells_and_dice() {
    assert_eq!(ok(&["new", "parker"]).trim(), START);
    let p1 = "parker .....ooooO/........../Xxxxx..... turn=1 throw=- dec=0";
    let moves: Value = serde_json::from_str(&ok(&["moves", p1, "--throw", "2-3"])).unwrap();
    let list: Vec<(&str, &str, &str, &str)> = moves
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["move"].as_str().unwrap(),
                m["from"].as_str().unwrap(),
                m["to"].as_str().unwrap(),
                m["die"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        list,
        [
            ("e1-g1", "e1", "g1", "2"),
            ("e1-h1", "e1", "h1", "3"),
            ("e1-j1", "e1", "j1", "total"),
            ("a1-f1", "a1", "f1", "total"),
        ]
    );
    assert_eq!(
        ok(&["apply", p1, "E1-G1", "--throw", "3-2"]).trim(),
        "parker .....ooooO/........../Xxxx..x... turn=1 throw=3 dec=1"
    );
    let e = err(&["apply", p1, "e1-f1", "--throw", "2-3"]);
    assert!(e.contains("Legal moves: e1-g1"), "{e}");
    let show = ok(&["show", START]);
    assert!(show.contains(" 1   X  x  x  x  x  .  .  .  .  ."), "{show}");
    assert!(show.contains("dice-off"), "{show}");
    let v: Value = serde_json::from_str(&ok(&["show", "--json", START])).unwrap();
    assert_eq!(v["board"]["cells"].as_array().unwrap().len(), 30);
}

#[test]
fn the_dice_off_is_a_throw_of_1_or_2() {
    let e = err(&["moves", START, "--throw", "3-4"]);
    assert!(e.contains("(P3)"), "{e}");
    // After the dice-off the starting player must throw the dice: no moves yet.
    assert_eq!(ok(&["moves", START, "--throw", "2"]).trim(), "[]");
}

#[test]
fn random_game_replays_with_a_score() {
    let rec = ok(&["random-game", "parker", "--seed", "5"]);
    assert_eq!(rec, ok(&["random-game", "parker", "--seed", "5"]));
    let v: Value = serde_json::from_str(&rec).unwrap();
    let throw = v["events"][0]["throw"].as_str().unwrap();
    assert!(
        throw == "1" || throw == "2",
        "the dice-off comes first: {throw}"
    );
    let score = &v["result"]["score"];
    assert!(score.is_array(), "{rec}");
    let path = std::env::temp_dir().join(format!("parker-{}.json", std::process::id()));
    std::fs::write(&path, &rec).unwrap();
    let out = ok(&["replay", path.to_str().unwrap()]);
    std::fs::remove_file(&path).unwrap();
    assert!(out.contains("all legal") && out.contains("score"), "{out}");
}
