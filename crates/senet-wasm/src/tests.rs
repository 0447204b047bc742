//! The JSON API, natively.

use super::call;
use serde_json::Value;

fn ask(req: &str) -> Value {
    serde_json::from_str(&call(req)).expect("every answer is JSON")
}

fn error(req: &str) -> String {
    let a = ask(req);
    a["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error for {req}: {a}"))
        .to_string()
}

fn start(rules: &str) -> String {
    let a = ask(&format!(r#"{{"op":"new","rules":"{rules}"}}"#));
    a["position"].as_str().expect("a position").to_string()
}

#[test]
fn bad_requests_are_refused_in_words() {
    assert!(error("{").contains("ends inside an object"));
    assert!(error("[1]").contains("JSON object"));
    assert!(error(r#"{"op":"fly"}"#).contains("unknown op \"fly\"; the ops are: rules, new"));
    assert!(error(r#"{"op":"state","positon":"x"}"#).contains("its fields are: position, throw"));
    assert!(error(r#"{"op":"state"}"#).contains("no \"position\""));
    let e = error(r#"{"op":"state","position":"kendall5 garbage"}"#);
    assert!(!e.is_empty() && e != "garbage", "{e}");
    let p = start("kendall5");
    let e = error(&format!(r#"{{"op":"throw","position":"{p}","throw":"7"}}"#));
    assert!(e.contains('7'), "{e}");
    let e = error(&format!(r#"{{"op":"play","position":"{p}","move":"1-2"}}"#));
    assert!(e.contains("throw"), "a move before the throw: {e}");
    let e = error(&format!(
        r#"{{"op":"play","position":"{p}","throw":"3","move":"29-30"}}"#
    ));
    assert!(e.len() > 10, "an illegal move: {e}");
    let e = error(&format!(
        r#"{{"op":"bot","position":"{p}","bot":"grandmaster","seed":1}}"#
    ));
    assert!(e.contains("grandmaster"), "{e}");
    let e = error(&format!(
        r#"{{"op":"bot","position":"{p}","bot":"random"}}"#
    ));
    assert!(e.contains("seed"), "{e}");
    let e = error(&format!(r#"{{"op":"hint","position":"{p}"}}"#));
    assert!(e.contains("no move is awaited"), "{e}");
    let e = error(&format!(r#"{{"op":"value","position":"{p}","depth":9}}"#));
    assert!(e.contains("depth must be at most"), "{e}");
    assert!(error(r#"{"op":"analyze_step","session":99}"#).contains("no analysis session 99"));
    assert!(error(r#"{"op":"analyze","record":{"rules":"kendall5"}}"#).len() > 10);
    assert!(error(r#"{"op":"new","rules":"chess"}"#).contains("chess"));
    let e = error(r#"{"op":"new","rules":"houses","options":{"nonsense":true}}"#);
    assert!(e.contains("nonsense"), "{e}");
}

#[test]
fn a_game_is_played_through_the_api() {
    let rules = ask(r#"{"op":"rules"}"#);
    let ids: Vec<&str> = rules["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert!(
        ids.contains(&"kendall5") && ids.contains(&"parker"),
        "{ids:?}"
    );
    assert_eq!(rules["levels"][3], "expert");
    for id in ids {
        let mut p = start(id);
        for seed in 0..400u64 {
            let s = ask(&format!(r#"{{"op":"state","position":"{p}"}}"#));
            assert!(s["view"].is_object(), "{s}");
            match s["status"]["state"].as_str().unwrap() {
                "throw" => {
                    let throws = s["throws"].as_array().unwrap();
                    let t = throws[seed as usize % throws.len()]["throw"]
                        .as_str()
                        .unwrap();
                    let a = ask(&format!(
                        r#"{{"op":"throw","position":"{p}","throw":"{t}"}}"#
                    ));
                    p = a["position"].as_str().unwrap().to_string();
                }
                "move" => {
                    let bot = ["random", "greedy", "beginner"][seed as usize % 3];
                    let b = ask(&format!(
                        r#"{{"op":"bot","position":"{p}","bot":"{bot}","seed":{seed}}}"#
                    ));
                    let m = b["move"].as_str().unwrap_or_else(|| panic!("{b}"));
                    let legal = s["legal"].as_array().unwrap();
                    let l = legal.iter().find(|l| l["move"] == m).expect("a legal move");
                    let a = ask(&format!(r#"{{"op":"play","position":"{p}","move":"{m}"}}"#));
                    assert_eq!(a["position"], l["position"], "{a}");
                    assert_eq!(a["kinds"], l["kinds"]);
                    p = a["position"].as_str().unwrap().to_string();
                }
                _ => break,
            }
        }
    }
}

#[test]
fn hints_values_and_analyses_answer_as_the_native_functions() {
    let p = start("kendall5");
    let h = ask(&format!(r#"{{"op":"hint","position":"{p}","throw":"2"}}"#));
    let moves = h["moves"].as_array().unwrap();
    assert!(moves.iter().any(|m| m["move"] == h["best"]), "{h}");
    assert_eq!(h["level"], "expert");
    let text = call(&format!(r#"{{"op":"value","position":"{p}","depth":2}}"#));
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["awaits"], "throw", "{v}");
    assert_eq!(v["throws"].as_array().unwrap().len(), 5);
    // Compared as text: serde_json reads some numbers back one unit off in the last place.
    let direct = senet_bots::analysis::value_bounded(&p, None, Some(2)).unwrap();
    assert_eq!(text, serde_json::to_string(&direct).unwrap());

    // A short game's record, analysed at once and in chunks of 3 events: the same.
    let rec = senet_rules::Record::from_json(
        r#"{"format":"senet-record/1","rules":"kendall5","events":[{"throw":"2"},{"move":"9-11"},{"throw":"5"}]}"#,
    );
    let rec = match rec {
        Ok(r) => r.to_json(),
        Err(e) => panic!("{e}"),
    };
    let whole = ask(&format!(r#"{{"op":"analyze","record":{rec}}}"#));
    assert_eq!(whole["status"], "done", "{whole}");
    let s = ask(&format!(
        r#"{{"op":"analyze_start","record":{}}}"#,
        Value::from(rec.clone())
    ));
    let id = s["session"].as_u64().unwrap();
    assert_eq!(s["total"], 3);
    let mut last = Value::Null;
    for _ in 0..3 {
        last = ask(&format!(
            r#"{{"op":"analyze_step","session":{id},"events":2}}"#
        ));
        if last["status"] == "done" {
            break;
        }
        assert_eq!(last["done"], 2);
    }
    assert_eq!(last["analysis"], whole["analysis"]);
    assert_eq!(
        ask(&format!(r#"{{"op":"analyze_stop","session":{id}}}"#))["stopped"],
        false
    );
}
