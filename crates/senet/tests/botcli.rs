//! The JSON shape of `senet bot` and `senet match`, and their errors.

use serde_json::Value;
use std::process::Command;

fn senet(args: &[&str]) -> (i32, String, String) {
    senet_in(args, Command::new(env!("CARGO_BIN_EXE_senet")))
}

/// [`senet`] with the weights files of the folder `nets` (`SENET_NETS`).
fn senet_with_nets(args: &[&str], nets: &std::path::Path) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_senet"));
    cmd.env("SENET_NETS", nets);
    senet_in(args, cmd)
}

fn senet_in(args: &[&str], mut cmd: Command) -> (i32, String, String) {
    let out = cmd.args(args).output().expect("run senet");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const START: &str = "kendall5 XOXOXOXOXO.................... off=0,0 turn=1 throw=- dec=0";

#[test]
fn the_random_bot_draws_a_fresh_seed_per_call_unless_given_one_and_says_which() {
    // Issue 36: without --seed the random bot used seed 0 and picked the same move index on
    // every call. The opening of kendall5 with a throw of 1 has five legal moves.
    let choose = |extra: &[&str]| {
        let mut args = vec!["bot", START, "--bot", "random", "-t", "1"];
        args.extend_from_slice(extra);
        let (code, out, err) = senet(&args);
        assert_eq!(code, 0, "{err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        (
            v["move"].as_str().unwrap().to_string(),
            v["seed"].as_u64().unwrap(),
        )
    };
    let calls: Vec<(String, u64)> = (0..12).map(|_| choose(&[])).collect();
    let seeds: std::collections::BTreeSet<u64> = calls.iter().map(|c| c.1).collect();
    let moves: std::collections::BTreeSet<&str> = calls.iter().map(|c| c.0.as_str()).collect();
    assert_eq!(seeds.len(), 12, "a fresh seed per call: {calls:?}");
    assert!(
        seeds.iter().all(|&s| s < 1 << 53),
        "exact in any JSON reader: {seeds:?}"
    );
    // Twelve calls all choosing one of five moves: a chance of 5^-11 if the seeds are fresh.
    assert!(moves.len() > 1, "{calls:?}");
    // The seed in the JSON repeats the choice; a given seed is used and reported.
    for (mv, seed) in &calls[..3] {
        assert_eq!(
            &choose(&["--seed", &seed.to_string()]),
            &(mv.clone(), *seed)
        );
    }
    assert_eq!(choose(&["--seed", "7"]), choose(&["--seed", "7"]));
    assert_eq!(choose(&["--seed", "7"]).1, 7);
}

#[test]
fn bot_prints_the_move_scores_nodes_and_time() {
    let (code, out, err) = senet(&["bot", START, "--bot", "expectimax:2", "--throw", "5"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["move"], "1-6");
    assert_eq!(v["bot"], "expectimax:2");
    assert_eq!(v["player"], 1);
    assert_eq!(v["throw"], "5");
    assert_eq!(v["score_kind"], "win_chance");
    assert_eq!(v["scores_exact"], true);
    assert!(v["nodes"].as_u64().unwrap() > 10);
    assert!(v["time_ms"].as_f64().unwrap() >= 0.0);
    let scores = v["scores"].as_array().unwrap();
    assert_eq!(scores.len(), 5);
    for s in scores {
        let x = s["score"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&x));
        assert!(s["move"].is_string() && s["position"].is_string() && s["kinds"].is_array());
    }
    let best = scores.iter().find(|s| s["move"] == "1-6").unwrap()["score"].as_f64();
    assert!(scores.iter().all(|s| s["score"].as_f64() <= best));
}

#[test]
fn bot_fast_mode_marks_bounds() {
    let (code, out, err) = senet(&["bot", START, "--bot", "expectimax:2", "-t", "5", "--fast"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["move"], "1-6");
    assert_eq!(v["scores_exact"], false);
}

#[test]
fn bot_errors_explain() {
    let (code, _, err) = senet(&["bot", START, "--bot", "expectimax:2"]);
    assert_eq!(code, 1);
    assert!(err.contains("--throw"), "{err}");
    let (code, _, err) = senet(&["bot", START, "--bot", "deep-blue", "-t", "3"]);
    assert_eq!(code, 1);
    assert!(err.contains("expectimax:N"), "{err}");
}

#[test]
fn match_json_has_the_rate_interval_draws_length_and_timings() {
    let (code, out, err) = senet(&[
        "match",
        "--rules",
        "kendall5",
        "--a",
        "greedy",
        "--b",
        "random",
        "--pairs",
        "8",
        "--seed",
        "3",
        "--threads",
        "2",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["rules"], "kendall5");
    assert_eq!(v["a"], "greedy");
    assert_eq!(v["b"], "random");
    assert_eq!(v["pairs"], 8);
    assert_eq!(v["games"], 16);
    let rate = v["a_rate"].as_f64().unwrap();
    let ci = v["ci95"].as_array().unwrap();
    assert!(ci[0].as_f64().unwrap() <= rate && rate <= ci[1].as_f64().unwrap());
    assert_eq!(
        v["a_wins"].as_u64().unwrap()
            + v["b_wins"].as_u64().unwrap()
            + v["draws"].as_u64().unwrap(),
        16
    );
    assert!(v["avg_length"].as_f64().unwrap() > 10.0);
    assert!(v["median_ms_per_move"]["a"].is_number());
    assert!(v["median_cpu_ms_per_move"]["b"].is_number());
    // The same seed gives the same games.
    let (_, again, _) = senet(&[
        "match",
        "--rules",
        "kendall5",
        "--a",
        "greedy",
        "--b",
        "random",
        "--pairs",
        "8",
        "--seed",
        "3",
        "--threads",
        "1",
        "--json",
    ]);
    let w: Value = serde_json::from_str(&again).unwrap();
    assert_eq!(v["a_rate"], w["a_rate"]);
    assert_eq!(v["avg_length"], w["avg_length"]);
}

#[test]
fn match_text_names_the_result() {
    let (code, out, err) = senet(&[
        "match",
        "--rules",
        "kendall",
        "--a",
        "expectimax:1",
        "--b",
        "random",
        "--pairs",
        "3",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("A's score:") && out.contains("95% interval"),
        "{out}"
    );
}

#[test]
fn ladder_writes_the_document_with_the_bars_and_the_command_that_made_it() {
    let dir = std::env::temp_dir().join(format!("senet-ladder-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("bots.md");
    let out_s = out.to_str().unwrap();
    let (code, stdout, err) = senet(&[
        "ladder",
        "--rules",
        "kendall5",
        "--pairs",
        "3",
        "--extra-pairs",
        "2",
        "--timing-positions",
        "4",
        "--threads",
        "1",
        "--out",
        out_s,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        stdout.contains("| expectimax:3 | expectimax:2 | 3 |"),
        "{stdout}"
    );
    let doc = std::fs::read_to_string(&out).unwrap();
    assert!(doc.starts_with("# Bots"), "{doc}");
    assert!(doc.contains("senet ladder --rules kendall5 --pairs 3 --extra-pairs 2 --seed 1"));
    assert!(doc.contains("`kendall5`: expectimax:2 beats greedy in at least 60%"));
    assert!(doc.contains("| mcts:1000 | expectimax:2 | 2 |"), "{doc}");
    assert!(!doc.contains("Incomplete"));
    std::fs::remove_dir_all(&dir).unwrap();

    let (code, _, err) = senet(&["ladder", "--pairs-for", "pyramid:5", "--out", "-"]);
    assert_eq!(code, 1);
    assert!(err.contains("RULES=N"), "{err}");
}

/// Issue 13: `senet match --series N` plays duplicate series and reports series and points.
#[test]
fn match_series_reports_series_won_and_points() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_senet"))
        .args([
            "match",
            "--rules",
            "parker",
            "--a",
            "greedy+points",
            "--b",
            "random",
            "--pairs",
            "4",
            "--series",
            "100",
            "--seed",
            "3",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["series"], 8);
    assert_eq!(v["target"]["points"], 100);
    assert_eq!(v["scores"], true);
    let won = v["a_series_won"].as_u64().unwrap()
        + v["b_series_won"].as_u64().unwrap()
        + v["series_drawn"].as_u64().unwrap();
    assert_eq!(won, 8);
    // P11: a series to 100 needs at least 100 points from the winner.
    let per_series = v["points_per_series"]["a"].as_f64().unwrap()
        + v["points_per_series"]["b"].as_f64().unwrap();
    assert!(per_series >= 100.0, "{v}");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_senet"))
        .args([
            "match", "--rules", "kendall", "--a", "greedy", "--b", "random", "--pairs", "2",
            "--series", "0",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("1 to 100000 points"));
}

#[test]
fn solve_builds_a_table_the_bots_read() {
    let dir = std::env::temp_dir().join(format!("senet-solve-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let (code, out, err) = senet(&[
        "solve", "kendall5", "--pieces", "1", "--dir", d, "--json", "--stats",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let t = &v["tables"][0];
    assert_eq!(t["rules"], "kendall5");
    assert_eq!(t["states"], 812);
    assert_eq!(t["levels"][0]["pieces"], serde_json::json!([1, 1]));
    let path = dir.join("kendall5-1.senet-exact");
    assert_eq!(
        t["bytes"].as_u64().unwrap(),
        std::fs::metadata(&path).unwrap().len()
    );
    let mean = t["stats"]["mean_side_to_throw"][0].as_f64().unwrap();
    assert!((0.5..0.6).contains(&mean), "{mean}");
    assert!(err.contains("level 1v1: 812 positions"), "{err}");
    // The residual of the values as kept: f32 rounding only.
    let residual = t["bellman_residual"].as_f64().unwrap();
    assert!(residual < 1e-6, "{residual}");
    assert_eq!(t["bits"], 32);
    assert!(t["threads"].as_u64().unwrap() >= 1);
    // 16-bit values on two threads: half the values' bytes, a residual within their
    // rounding, and a table the bots read.
    let d16 = dir.join("b16");
    let (code, out, err) = senet(&[
        "solve",
        "kendall5",
        "--pieces",
        "1",
        "--dir",
        d16.to_str().unwrap(),
        "--json",
        "--bits",
        "16",
        "--threads",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let t16 = &v["tables"][0];
    assert_eq!(t16["bits"], 16);
    assert_eq!(t16["threads"], 2);
    let residual = t16["bellman_residual"].as_f64().unwrap();
    assert!(residual > 1e-7 && residual <= 1.0 / 65535.0, "{residual}");
    assert_eq!(
        t["bytes"].as_u64().unwrap() - t16["bytes"].as_u64().unwrap(),
        812 * 2
    );
    // The text report.
    let (code, out, err) = senet(&["solve", "senat", "--pieces", "1", "--dir", d]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("senat: 812 positions with 1-1 pieces per side, built in"),
        "{out}"
    );
    // Errors.
    let (code, _, err) = senet(&["solve", "parker", "--dir", d]);
    assert_eq!(code, 1);
    assert!(
        err.contains("kendall, kendall5, senat, houses or all"),
        "{err}"
    );
    let (code, _, err) = senet(&["solve", "kendall", "--pieces", "5", "--dir", d]);
    assert_eq!(code, 1);
    assert!(err.contains("--pieces must be from 1 to 4"), "{err}");
    let (code, _, err) = senet(&["solve", "kendall", "--bits", "8", "--dir", d]);
    assert_eq!(code, 1);
    assert!(err.contains("--bits must be 16 or 32, got 8"), "{err}");
    // A corrupt table is reported by the ladder's error measurement, which then uses the
    // in-memory tables.
    let mut bytes = std::fs::read(&path).unwrap();
    let n = bytes.len();
    bytes[n - 1] ^= 0x20;
    std::fs::write(&path, &bytes).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_senet"))
        .args([
            "ladder",
            "--rules",
            "kendall5",
            "--errors",
            "2",
            "--errors-only",
        ])
        .env("SENET_TABLES", &dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("kendall5-1.senet-exact is corrupt"), "{err}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("| kendall5 | 2v2 | expectimax:3 |"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `senet train --net` on pyramid and parker writes a network file the bots read
/// (`SENET_NETS`), starting from the hand-set evaluator; without `--net` it says what to use.
#[test]
fn train_net_writes_pyramid_and_parker_networks_the_bots_read() {
    let dir = std::env::temp_dir().join(format!("senet-train-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for rules in ["pyramid", "parker"] {
        let (code, out, err) = senet(&["train", "--rules", rules, "--net", "--games", "30"]);
        assert_eq!(code, 0, "{err}");
        assert!(out.starts_with("senet-fnet/1\n"), "{out:.80}");
        assert!(out.contains("30 self-play games from the hand-set evaluator"));
        std::fs::write(dir.join(format!("{rules}.txt")), &out).unwrap();
        let (code, _, err) = senet(&["train", "--rules", rules, "--games", "30"]);
        assert_ne!(code, 0);
        assert!(err.contains("use --net"), "{err}");
    }
    // The bots play with the file given by SENET_NETS.
    let (code, out, err) = senet_with_nets(
        &[
            "match",
            "--rules",
            "parker",
            "--a",
            "greedy@tuned",
            "--b",
            "greedy@hand",
            "--pairs",
            "5",
            "--seed",
            "1",
            "--json",
        ],
        &dir,
    );
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["games"], 10);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `senet train --net --hidden 32` starts a 32-unit track network whose file the bots read
/// (`SENET_NETS`); a size the network has no pass for is refused with the sizes it has.
#[test]
fn train_net_hidden_writes_a_larger_network_the_bots_read() {
    let (code, out, err) = senet(&[
        "train", "--rules", "kendall5", "--net", "--hidden", "32", "--games", "20",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("senet-net/1 kendall5 H=32 NI=79\n"),
        "{out:.300}"
    );
    let dir = std::env::temp_dir().join(format!("senet-train-hidden-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("kendall5.txt"), &out).unwrap();
    let (code, _, err) = senet_with_nets(
        &[
            "match",
            "--rules",
            "kendall5",
            "--a",
            "expectimax:1",
            "--b",
            "greedy",
            "--pairs",
            "3",
            "--seed",
            "1",
            "--json",
        ],
        &dir,
    );
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("do not parse"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
    let (code, _, err) = senet(&[
        "train", "--rules", "kendall5", "--net", "--hidden", "48", "--games", "20",
    ]);
    assert_ne!(code, 0);
    assert!(
        err.contains("--hidden must be one of [16, 32, 64, 128, 256, 512], got 48"),
        "{err}"
    );
    // pyramid's and parker's networks have one size: --hidden is refused, not ignored.
    let (code, _, err) = senet(&[
        "train", "--rules", "pyramid", "--net", "--hidden", "32", "--games", "5",
    ]);
    assert_ne!(code, 0);
    assert!(
        err.contains("--hidden: pyramid's network has one size"),
        "{err}"
    );
}

/// `senet train --net --export F --searched N` writes middle-game positions valued by search
/// in the data format scripts/train_endgame.py reads; `--export` alone says what it needs.
#[test]
fn train_net_searched_exports_positions_valued_by_search() {
    let dir = std::env::temp_dir().join(format!("senet-searched-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("k5.data");
    let f = file.to_str().unwrap();
    let searched = |n: &'static str, more: &[&'static str]| {
        let mut a = vec![
            "train",
            "--rules",
            "kendall5",
            "--net",
            "--export",
            f,
            "--searched",
            n,
        ];
        a.extend_from_slice(more);
        a
    };
    let args = searched(
        "3",
        &[
            "--depth", "0", "--keep", "0.5", "--bot", "greedy", "--seed", "4",
        ],
    );
    let (code, out, err) = senet(&args);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("(met in 3 games greedy played, seed 4, valued at depth 0)"),
        "{out}"
    );
    let bytes = std::fs::read(&file).unwrap();
    let nl = bytes.iter().position(|&b| b == b'\n').unwrap();
    let head = std::str::from_utf8(&bytes[..nl]).unwrap();
    let n: usize = head.rsplit("N=").next().unwrap().parse().unwrap();
    assert!(
        head.starts_with("senet-endgame-data/1 kendall5 NI=79 SLOTS=20 N="),
        "{head}"
    );
    assert!(n > 50, "{n} positions");
    assert!(
        out.starts_with(&format!("{n} positions of kendall5")),
        "{out}"
    );
    // Each record: 20 input indices, 20 values, the target, the held-out flag.
    assert_eq!(bytes.len() - nl - 1, n * (20 * 5 + 5));
    // Seeded: the same command writes the same file.
    assert_eq!(senet(&args).0, 0);
    assert_eq!(std::fs::read(&file).unwrap(), bytes);
    // A budget of one node a move leaves a two-throw search at depth 0: the same file.
    let mut bounded = args.clone();
    let at = bounded.iter().position(|&a| a == "--depth").unwrap() + 1;
    bounded[at] = "2";
    bounded.extend_from_slice(&["--budget", "1"]);
    let (code, out, err) = senet(&bounded);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("valued at depth 2 within 1 node a move)"),
        "{out}"
    );
    assert_eq!(std::fs::read(&file).unwrap(), bytes);
    let mut pyramid = searched("2", &[]);
    pyramid[2] = "pyramid";
    for (bad, msg) in [
        (
            vec!["train", "--rules", "kendall5", "--export", f],
            "--export needs --endgame",
        ),
        (pyramid, "pyramid has no track network"),
        (searched("2", &["--keep", "0"]), "must lie in (0, 1], got 0"),
        (
            searched("2", &["--depth", "9"]),
            "the search depth must be 0-5, got 9",
        ),
        (
            searched("2", &["--budget", "0"]),
            "the node budget must be 1-10000000000, got 0",
        ),
    ] {
        let (code, _, err) = senet(&bad);
        assert_ne!(code, 0, "{bad:?}");
        assert!(err.contains(msg), "{bad:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn exactset_and_ladder_exact_measure_the_bots_on_exact_decisions() {
    let dir = std::env::temp_dir().join(format!("senet-exactset-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let set = dir.join("k5.jsonl");
    let s = set.to_str().unwrap();
    // No table files there: the 2-piece tables built in memory.
    let tables = dir.join("tables");
    let t = tables.to_str().unwrap();
    let (code, out, err) = senet(&[
        "exactset",
        "kendall5",
        "--decisions",
        "12",
        "--player",
        "greedy",
        "--dir",
        t,
        "-o",
        s,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("12 decisions of kendall5 with 2 pieces a side"),
        "{out}"
    );
    let text = std::fs::read_to_string(&set).unwrap();
    assert_eq!(text.lines().count(), 13);
    // `senet ladder --exact SET` of random and expert: its report, and each subject as
    // bot@pieces of the tables it read.
    let ladder = |set: &str| {
        let (code, out, err) = senet(&[
            "ladder",
            "--exact",
            set,
            "--exact-bots",
            "random,expert",
            "--dir",
            t,
            "--json",
        ]);
        assert_eq!(code, 0, "{err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        let names: Vec<String> = v[0]["subjects"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| format!("{}@{}", s["bot"].as_str().unwrap(), s["tables"]))
            .collect();
        (v, names, err)
    };
    let (v, names, _) = ladder(s);
    let subjects = v[0]["subjects"].as_array().unwrap();
    assert_eq!(
        names,
        [
            "random@0",
            "expert@1",
            "expert@2",
            "analysis@1",
            "analysis@2"
        ]
    );
    assert_eq!(subjects[2]["tags"][0]["error_rate"], 0.0);
    assert_eq!(subjects[4]["tags"][0]["best_exact"], 1.0);
    // A set one piece past the tables (its header says 3) is measured once, with the tables
    // the bots have: the set holds the exact values. So is a set two pieces past them (the
    // solved game's five-a-side decisions, issue 55), saying which tables the bots read.
    let one_past = dir.join("k5-one-past.jsonl");
    std::fs::write(&one_past, text.replacen("\"pieces\":2", "\"pieces\":3", 1)).unwrap();
    let (_, names, _) = ladder(one_past.to_str().unwrap());
    assert_eq!(names, ["random@0", "expert@2", "analysis@2"]);
    std::fs::write(&one_past, text.replacen("\"pieces\":2", "\"pieces\":4", 1)).unwrap();
    let (_, names, err) = ladder(one_past.to_str().unwrap());
    assert_eq!(names, ["random@0", "expert@2", "analysis@2"]);
    assert!(
        err.contains("the bots read the tables to 2 pieces"),
        "{err}"
    );
    // A set of more pieces than the tables hold, and a broken file, are refused in words.
    let (code, _, err) = senet(&[
        "exactset",
        "kendall5",
        "--pieces",
        "3",
        "--decisions",
        "2",
        "--dir",
        t,
        "-o",
        s,
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("senet solve kendall5 --pieces 3"), "{err}");
    std::fs::write(&set, text.replacen("\"value\":0.", "\"value\":7.", 1)).unwrap();
    let (code, _, err) = senet(&["ladder", "--exact", s, "--dir", t]);
    assert_eq!(code, 1);
    assert!(
        err.contains("line 2") && err.contains("not a win chance"),
        "{err}"
    );
    let (code, _, err) = senet(&["exactset", "pyramid", "-o", s]);
    assert_eq!(code, 1);
    assert!(err.contains("not pyramid"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `senet solve --for`: a build stopped with its work in the checkpoint (exit status 3), the
/// same command going on from it until the table is written (and the checkpoint removed),
/// the same table as a straight build; `--restart` drops a checkpoint, a foreign one is
/// refused with what to do.
#[test]
fn solve_stops_for_a_session_and_goes_on_from_its_checkpoint() {
    let dir = std::env::temp_dir().join(format!("senet-solve-ck-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (straight, resumed) = (dir.join("straight"), dir.join("resumed"));
    let run = |d: &std::path::Path, more: &[&str]| {
        let d = d.to_str().unwrap();
        let mut a = vec![
            "solve",
            "kendall",
            "--pieces",
            "2",
            "--threads",
            "1",
            "--json",
        ];
        a.extend_from_slice(more);
        a.extend_from_slice(&["--dir", d]);
        senet(&a)
    };
    let (code, _, err) = run(&straight, &[]);
    assert_eq!(code, 0, "{err}");
    let partial = resumed.join("kendall-2.senet-partial");
    let mut runs = 0;
    loop {
        runs += 1;
        assert!(runs < 1000, "no end in sight");
        let (code, out, err) = run(&resumed, &["--for", "0"]);
        let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out} {err}"));
        let t = &v["tables"][0];
        if code == 3 {
            assert_eq!(t["stopped"], true, "{out}");
            assert!(partial.exists());
            assert_eq!(t["checkpoint"], partial.to_str().unwrap());
            continue;
        }
        assert_eq!(code, 0, "{err}");
        assert!(err.contains("going on from the checkpoint"), "{err}");
        assert!(
            t["levels"]
                .as_array()
                .unwrap()
                .iter()
                .all(|l| l["resumed"] == true),
            "{out}"
        );
        break;
    }
    assert!(runs > 10, "{runs} runs");
    assert!(
        !partial.exists(),
        "the checkpoint is removed once the table is written"
    );
    let file = "kendall-2.senet-exact";
    assert_eq!(
        std::fs::read(straight.join(file)).unwrap(),
        std::fs::read(resumed.join(file)).unwrap()
    );
    // Another build's checkpoint (32-bit values kept as f64, this one wants 16) is refused;
    // --restart drops it.
    let (code, _, _) = run(&resumed, &["--for", "0", "--bits", "32"]);
    assert_eq!(code, 3);
    let (code, _, err) = run(&resumed, &["--bits", "16"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("of another build") && err.contains("--restart"),
        "{err}"
    );
    let (code, _, err) = run(&resumed, &["--bits", "16", "--restart"]);
    assert_eq!(code, 0, "{err}");
    assert!(!partial.exists());
    // --checkpoint-minutes 0 still saves at a stop and still reads a checkpoint.
    let (code, _, _) = run(&resumed, &["--for", "0", "--checkpoint-minutes", "0"]);
    assert_eq!(code, 3);
    assert!(partial.exists());
    let (code, _, err) = run(&resumed, &["--checkpoint-minutes", "0"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("going on from the checkpoint"), "{err}");
    assert!(!partial.exists());
    let (code, _, err) = run(&resumed, &["--for=-1"]);
    assert_eq!(code, 1);
    assert!(err.contains("--for must be a number of minutes"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `senet fvi` (issue 55): a held-out pool, a training pool that leaves it out, its backups
/// written for the trainer, the residual and the water study as JSON; a bad pool is refused
/// with what is wrong.
#[test]
fn fvi_samples_backs_up_and_measures_the_residual() {
    let dir = std::env::temp_dir().join(format!("senet-fvi-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (held, train, data) = (dir.join("held.pool"), dir.join("train.pool"), dir.join("d"));
    let (held, train, data) = (
        held.to_str().unwrap(),
        train.to_str().unwrap(),
        data.to_str().unwrap(),
    );
    let sample = |extra: &[&str]| {
        let mut a = vec![
            "fvi", "sample", "--rules", "kendall5", "--games", "3", "--bot", "greedy",
        ];
        a.extend_from_slice(extra);
        let (code, out, err) = senet(&a);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("positions of kendall5"), "{out}");
    };
    sample(&["--seed", "1", "--distinct", "-o", held]);
    sample(&["--seed", "2", "--exclude", held, "-o", train]);
    let held_lines: std::collections::HashSet<String> = std::fs::read_to_string(held)
        .unwrap()
        .lines()
        .skip(1)
        .map(str::to_string)
        .collect();
    let train_text = std::fs::read_to_string(train).unwrap();
    assert!(train_text.lines().skip(1).all(|l| !held_lines.contains(l)));
    let (code, out, err) = senet(&["fvi", "backup", train, "--export", data]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("backed up one throw deep"), "{out}");
    let head = std::fs::read(data).unwrap();
    assert!(head.starts_with(b"senet-endgame-data/1 kendall5"));
    let (code, out, err) = senet(&["fvi", "residual", held, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["n"].as_u64().unwrap() as usize, held_lines.len());
    let (mean, p99) = (v["mean"].as_f64().unwrap(), v["p99"].as_f64().unwrap());
    assert!(mean > 0.0 && mean < 0.05 && p99 >= mean, "{v}");
    let (code, out, err) = senet(&["fvi", "water", held, "--deep", "1", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["deep"], 1);
    std::fs::write(
        held,
        "senet-middle-pool/1 kendall5 N=1\nkendall5 nonsense\n",
    )
    .unwrap();
    let (code, _, err) = senet(&["fvi", "residual", held]);
    assert_eq!(code, 1);
    assert!(err.contains("line 2"), "{err}");
    let (code, _, err) = senet(&["fvi", "sample", "--rules", "pyramid", "-o", train]);
    assert_eq!(code, 1);
    assert!(err.contains("pyramid has no track network"), "{err}");
    let (code, _, err) = senet(&["fvi", "water", train, "--deep", "9"]);
    assert_eq!(code, 1);
    assert!(err.contains("--deep"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 55: a main network with a second hidden layer (a `senet-net/2` file of
/// `scripts/train_endgame.py --hidden2`) is read from `SENET_NETS` and searched with; TD(λ)
/// self-play, whose gradients are those of one hidden layer, refuses to resume from it.
#[test]
fn a_two_layer_network_in_senet_nets_is_searched_with_and_td_refuses_it() {
    use senet_bots::net::{Layout, NetEval, Second};
    let one = {
        let mut net = NetEval::from_linear_sized(&senet_bots::weights::KENDALL5, 16, 3, "t");
        for (i, x) in net.p.iter_mut().enumerate() {
            *x += ((i * 7919 % 1000) as f32 / 1000.0 - 0.5) * 0.5;
        }
        net
    };
    let l = Layout { n: 16 };
    // The second layer passes the first through (the identity, no biases): the same values.
    let mut two = one.clone();
    let v = two.p[l.v()..l.b()].to_vec();
    two.p[l.v()..l.b()].fill(0.0);
    two.second = Some(Second {
        w: (0..256)
            .map(|i| if i / 16 == i % 16 { 1.0 } else { 0.0 })
            .collect(),
        c: vec![0.0; 16],
        v,
    });
    let mut shifted = two.clone();
    shifted.second.as_mut().unwrap().c.fill(-0.3);
    let dir = std::env::temp_dir().join(format!("senet-two-layer-{}", std::process::id()));
    let score = |net: Option<&NetEval>| {
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        if let Some(net) = net {
            std::fs::write(dir.join("kendall5.txt"), net.to_text("test")).unwrap();
        }
        let (code, out, err) =
            senet_with_nets(&["bot", START, "--bot", "expectimax:0", "-t", "2"], &dir);
        assert_eq!(code, 0, "{err}");
        assert!(!err.contains("do not parse"), "{err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        v["scores"][0]["score"].as_f64().unwrap()
    };
    let text = two.to_text("test");
    assert!(
        text.contains("\nsenet-net/2 kendall5 H=16 H2=16 NI=79\n"),
        "{text:.200}"
    );
    let (s1, s2, s3, embedded) = (
        score(Some(&one)),
        score(Some(&two)),
        score(Some(&shifted)),
        score(None),
    );
    assert_eq!(s1, s2);
    assert_ne!(s2, s3);
    assert_ne!(s1, embedded);
    std::fs::write(dir.join("kendall5.txt"), two.to_text("test")).unwrap();
    let (code, _, err) = senet_with_nets(
        &[
            "train", "--rules", "kendall5", "--net", "--resume", "--games", "5",
        ],
        &dir,
    );
    assert_ne!(code, 0);
    assert!(
        err.contains("has a second hidden layer: TD(λ) self-play trains networks of one"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn match_with_luck_reports_the_luck_adjusted_score_and_refuses_a_bad_judge() {
    let args = |judge: &'static str| {
        let mut v: Vec<&str> =
            "match --rules kendall --a expectimax:1 --b random --pairs 4 --seed 2 --json --luck"
                .split(' ')
                .collect();
        v.push(judge);
        v
    };
    let (code, out, err) = senet(&args("expectimax:1"));
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let l = &v["luck_adjusted"];
    assert_eq!(l["judge"], "expectimax:1");
    let (rate, ci) = (l["a_rate"].as_f64().unwrap(), l["ci95"].as_array().unwrap());
    assert!(ci[0].as_f64().unwrap() <= rate && rate <= ci[1].as_f64().unwrap());
    assert!(l["a_luck_per_game"].is_number());
    // Without --luck there is nothing adjusted.
    let (_, plain, _) = senet(&args("expectimax:1")[..12]);
    let w: Value = serde_json::from_str(&plain).unwrap();
    assert!(w["luck_adjusted"].is_null());
    assert_eq!(v["a_rate"], w["a_rate"], "the judge changed the games");
    // A judge that is no bot, or no search bot, is refused with the reason.
    let (code, _, err) = senet(&args("deep-blue"));
    assert_eq!(code, 1);
    assert!(err.contains("deep-blue"), "{err}");
    let (code, _, err) = senet(&args("random"));
    assert_eq!(code, 1);
    assert!(err.contains("win chance"), "{err}");
    // Series have no luck adjustment.
    let mut series = args("expectimax:1");
    series.extend(["--series", "3"]);
    let (code, _, err) = senet(&series);
    assert_ne!(code, 0);
    assert!(err.contains("--luck") || err.contains("--series"), "{err}");
}
