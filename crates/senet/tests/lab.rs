//! `senet lab`: a small run writes a complete report, plots are valid SVG, and the same seed
//! gives the same JSON.

use std::path::{Path, PathBuf};
use std::process::Command;

fn lab(out: &Path, seed: &str, extra: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_senet"))
        .args([
            "lab",
            "--games",
            "12",
            "--seed",
            seed,
            "--threads",
            "2",
            "--out",
        ])
        .arg(out)
        .args(extra)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("senet-lab-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn a_small_run_writes_a_complete_report() {
    let d = tmp("full");
    let out = lab(
        &d,
        "5",
        &["--bots", "random,random", "--bots", "greedy,random"],
    );
    assert!(out.contains("wrote"), "{out}");
    let md = std::fs::read_to_string(d.join("report.md")).unwrap();
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("report.json")).unwrap()).unwrap();
    let sets = json["rule_sets"].as_array().unwrap();
    // Every rule set, once per bot pair.
    let n = senet_rules::RuleSet::ALL.len();
    assert_eq!(sets.len(), 2 * n);
    for r in senet_rules::RuleSet::ALL {
        assert!(
            md.contains(&format!("| {} | random vs random | 12 |", r.id())),
            "{md}"
        );
        assert!(
            md.contains(&format!("| {} | greedy vs random | 12 |", r.id())),
            "{md}"
        );
    }
    for s in sets {
        assert_eq!(s["games"], 12);
        for key in [
            "first_player",
            "decisions",
            "turns",
            "captures",
            "swaps",
            "sent_back",
            "backward",
            "forfeits",
            "bonus",
            "lead_changes",
        ] {
            assert!(!s[key].is_null(), "{key} missing");
        }
        let rate = s["first_player"]["rate"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&rate));
        assert!(s["decisions"]["mean"].as_f64().unwrap() > 10.0);
    }
    // Scored rule sets carry their score distribution.
    assert!(sets
        .iter()
        .any(|s| s["rules"] == "pyramid" && !s["scores"].is_null()));
    assert!(md.contains("## Scores"));
    for svg in ["lengths.svg", "first_player.svg", "events.svg"] {
        let text = std::fs::read_to_string(d.join(svg)).unwrap();
        let doc = roxmltree::Document::parse(&text)
            .unwrap_or_else(|e| panic!("{svg} is not valid XML: {e}"));
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        assert!(text.contains("parker"), "{svg} names every rule set");
    }
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn the_same_seed_gives_the_same_json() {
    let (a, b, c) = (tmp("a"), tmp("b"), tmp("c"));
    lab(
        &a,
        "9",
        &["--rules", "kendall5,houses", "--option", "swap=true"],
    );
    lab(
        &b,
        "9",
        &["--rules", "kendall5,houses", "--option", "swap=true"],
    );
    lab(
        &c,
        "10",
        &["--rules", "kendall5,houses", "--option", "swap=true"],
    );
    let read = |d: &Path| std::fs::read_to_string(d.join("report.json")).unwrap();
    assert_eq!(read(&a), read(&b));
    assert_ne!(read(&a), read(&c));
    assert!(read(&a).contains("swap=true"), "the option reaches houses");
    for d in [a, b, c] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn bad_lab_arguments_are_clear_errors() {
    let d = tmp("bad");
    for (args, needle) in [
        (
            vec!["--rules", "kendall", "--option", "swap=true"],
            "no selected rule set has the option",
        ),
        (vec!["--bots", "nosuchbot,random"], "unknown bot"),
        (vec!["--rules", "chess"], "unknown rule set"),
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_senet"))
            .arg("lab")
            .args(&args)
            .arg("--out")
            .arg(&d)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains(needle), "{args:?}: {e}");
    }
}

/// Issue 13: where a rule set scores (P11, S12 with `score`, Y9) the report has points per
/// game and per series; the rule sets that count games won are not in that table.
#[test]
fn scored_rule_sets_get_points_per_game_and_per_series() {
    let d = tmp("series");
    lab(
        &d,
        "3",
        &[
            "--rules",
            "parker,senat,kendall5",
            "--option",
            "score=true",
            "--bots",
            "greedy,greedy",
        ],
    );
    let md = std::fs::read_to_string(d.join("report.md")).unwrap();
    let series = md.split("## Series").nth(1).expect("a series section");
    assert!(series.contains("| parker | greedy vs greedy |"), "{series}");
    assert!(series.contains("| 100 |"), "{series}");
    assert!(
        series.contains("| senat (score=true) | greedy vs greedy |"),
        "{series}"
    );
    assert!(!series.contains("kendall5"), "{series}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("report.json")).unwrap()).unwrap();
    let text = json.to_string();
    assert!(text.contains("\"points_per_game\""), "{text}");
    assert!(text.contains("\"series\":{\"target\":100"), "{text}");
}

/// `--luck JUDGE`: the same games (every plain figure unchanged), and the first player's share
/// with each throw's luck taken out, inside the plain interval and with a narrower one of its
/// own; a judge that does not value by win chance is refused.
#[test]
fn the_luck_taken_out_keeps_the_games_and_narrows_the_first_players_interval() {
    let run = |out: &Path, luck: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_senet"))
            .args(["lab", "--rules", "kendall5,senat", "--bots"])
            .args(["expectimax:1,expectimax:1", "--games", "40", "--seed", "4"])
            .arg("--out")
            .arg(out)
            .args(luck)
            .output()
            .unwrap()
    };
    let (plain, lucky) = (tmp("plain"), tmp("lucky"));
    for (d, luck) in [(&plain, &[][..]), (&lucky, &["--luck", "expectimax:1"][..])] {
        let o = run(d, luck);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let read = |d: &Path| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(d.join("report.json")).unwrap()).unwrap()
    };
    let (p, mut l) = (read(&plain), read(&lucky));
    for s in l["rule_sets"].as_array_mut().unwrap() {
        let a = s
            .as_object_mut()
            .unwrap()
            .remove("first_player_luck_adjusted")
            .expect("the luck-adjusted share");
        assert_eq!(a["judge"], "expectimax:1");
        let (rate, low, high) = (
            a["rate"].as_f64().unwrap(),
            a["low"].as_f64().unwrap(),
            a["high"].as_f64().unwrap(),
        );
        let fp = &s["first_player"];
        let (plow, phigh) = (fp["low"].as_f64().unwrap(), fp["high"].as_f64().unwrap());
        assert!(plow < rate && rate < phigh, "{s}: {a}");
        assert!(high - low < (phigh - plow) / 2.0, "{s}: {a}");
    }
    // Only the command line and the new figure differ.
    l["command"] = p["command"].clone();
    assert_eq!(p, l);
    let md = std::fs::read_to_string(lucky.join("report.md")).unwrap();
    let section = md
        .split("## The first player with the luck taken out")
        .nth(1)
        .expect("the luck section");
    assert!(
        section.contains("| kendall5 | expectimax:1 vs expectimax:1 |"),
        "{section}"
    );
    assert!(
        md.contains("--luck expectimax:1"),
        "the command is in the report"
    );
    let o = run(&tmp("badjudge"), &["--luck", "random"]);
    assert_eq!(o.status.code(), Some(1));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("win chance"), "{e}");
    for d in [plain, lucky] {
        std::fs::remove_dir_all(d).unwrap();
    }
}
