//! `senet analyze` from the command line: the readable report, JSON, series, and errors.

use std::process::Command;

fn senet(args: &[&str], stdin: Option<&str>) -> (String, String, i32) {
    use std::io::Write;
    let mut c = Command::new(env!("CARGO_BIN_EXE_senet"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("senet runs");
    if let Some(s) = stdin {
        c.stdin.take().unwrap().write_all(s.as_bytes()).unwrap();
    } else {
        drop(c.stdin.take());
    }
    let o = c.wait_with_output().unwrap();
    (
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
        o.status.code().unwrap_or(-1),
    )
}

fn random_game(rules: &str, seed: &str) -> String {
    let (out, err, code) = senet(&["random-game", rules, "--seed", seed], None);
    assert_eq!(code, 0, "{err}");
    out
}

#[test]
fn analyze_prints_every_decision_and_a_summary_per_player() {
    let rec = random_game("kendall5", "3");
    let (out, err, code) = senet(&["analyze", "-", "--depth", "1"], Some(&rec));
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("kendall5 analysed by expectimax at depth 1"),
        "{out}"
    );
    for row in [
        "real choices",
        "error rate (gnubg mEMG)",
        "blunders ??",
        "luck-adjusted result",
        "plays like",
    ] {
        assert!(out.contains(row), "{row} missing:\n{out}");
    }
    let (json, _, _) = senet(&["analyze", "-", "--depth", "1", "--json"], Some(&rec));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let events = serde_json::from_str::<serde_json::Value>(&rec).unwrap()["events"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(v["notes"].as_array().unwrap().len(), events);
    let decisions = v["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["kind"] == "move")
        .count();
    // One table row per decision.
    let rows = out
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|w| w.parse::<usize>().is_ok())
        })
        .count();
    assert_eq!(rows, decisions);
    assert_eq!(
        v["players"][0]["decisions"].as_u64().unwrap()
            + v["players"][1]["decisions"].as_u64().unwrap(),
        decisions as u64
    );
    assert_eq!(v["depth"], 1);
    assert_eq!(v["over"], true);
}

#[test]
fn analyze_takes_the_games_of_a_series() {
    let dir = std::env::temp_dir().join(format!("senet-analyze-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("series.json");
    let mut series = senet_rules::Series::new(
        senet_rules::RuleSet::Kendall5,
        &[] as &[&str],
        senet_rules::Target::Games(2),
        senet_rules::series::Starts::Alternate,
        None,
    )
    .unwrap();
    for (i, seed) in ["4", "5"].iter().enumerate() {
        series.push_game(1 + i as u8, None).unwrap();
        let rec = senet_rules::Record::from_json(&random_game("kendall5", seed)).unwrap();
        series.update_last(rec).unwrap();
    }
    std::fs::write(&file, series.to_json()).unwrap();
    let f = file.to_str().unwrap();
    let (json, err, code) = senet(&["analyze", f, "--depth", "0", "--json"], None);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 2);
    let (json, _, code) = senet(
        &["analyze", f, "--depth", "0", "--json", "--game", "2"],
        None,
    );
    assert_eq!(code, 0);
    let one: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(one[0], v[1]);
    let (_, err, code) = senet(&["analyze", f, "--game", "3"], None);
    assert_eq!(code, 1);
    assert!(err.contains("--game 3: the series has 2 games"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn analyze_refuses_bad_input_with_a_reason() {
    let (_, err, code) = senet(&["analyze", "/nonexistent/game.json"], None);
    assert_eq!(code, 1);
    assert!(err.contains("cannot read /nonexistent/game.json"), "{err}");
    let (_, err, code) = senet(&["analyze", "-"], Some("{\"format\": 3}"));
    assert_eq!(code, 1);
    assert!(err.starts_with("error: "), "{err}");
    let rec = random_game("senat", "1");
    let (_, err, code) = senet(&["analyze", "-", "--depth", "7"], Some(&rec));
    assert_eq!(code, 1);
    assert!(err.contains("depth must be 0-5"), "{err}");
    let bad = rec.replacen("\"move\":\"", "\"move\":\"x", 1);
    let (_, err, code) = senet(&["analyze", "-"], Some(&bad));
    assert_eq!(code, 1);
    assert!(err.contains("event "), "{err}");
}

#[test]
fn analyze_values_one_position() {
    let pos = "kendall5 ....XX...................X..O. off=2,4 turn=1 throw=- dec=40";
    let (out, err, code) = senet(&["analyze", "--position", pos, "--json"], None);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["awaits"], "throw");
    assert_eq!(v["throws"].as_array().unwrap().len(), 5);
    let (out, err, code) = senet(&["analyze", "--position", pos, "--throw", "3"], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("player 1 to move: win chance"), "{out}");
    assert!(out.lines().nth(1).unwrap().contains("26-29"), "{out}");
    assert!(out.lines().nth(1).unwrap().ends_with("best"), "{out}");
    let (_, err, code) = senet(&["analyze", "--position", "kendall5 nonsense"], None);
    assert_eq!(code, 1);
    assert!(err.starts_with("error: bad position"), "{err}");
}
