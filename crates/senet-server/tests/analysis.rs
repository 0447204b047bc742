//! Issue 19 over HTTP: the analysis of a finished game (computed once in the background, with
//! progress), the stateless valuation of a position, and hints that value every move.

mod support {
    pub mod http;
}

use axum::http::StatusCode;
use axum::Router;
use senet_server::{router, Limits, Service, SqliteStore};
use serde_json::{json, Value};
use std::sync::Arc;
use support::http::call;

fn app() -> Router {
    app_on(Arc::new(SqliteStore::in_memory().unwrap()))
}

fn app_on(store: Arc<SqliteStore>) -> Router {
    let svc = Service::new(store);
    router(
        svc,
        Limits {
            per_second: 0.0,
            ..Limits::default()
        },
    )
}

/// Creates a hot-seat game and plays it with the legal move picked by `seq`, stopping after
/// `decisions` moves (or at the end); returns the id, the tokens and the last state.
async fn play(app: &Router, rules: &str, decisions: usize) -> (String, Value, Value) {
    let (s, c) = call(
        app,
        "POST",
        "/api/games",
        None,
        Some(json!({ "rules": rules, "mode": "hotseat" })),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{c}");
    let id = c["id"].as_str().unwrap().to_string();
    let tokens = c["tokens"].clone();
    let mut st = c["state"].clone();
    let mut played = 0;
    while st["status"]["state"] != "over" && played < decisions {
        let tok = tokens[st["status"]["player"].to_string()]
            .as_str()
            .unwrap()
            .to_string();
        let r = if st["status"]["state"] == "throw" {
            call(
                app,
                "POST",
                &format!("/api/games/{id}/throw"),
                Some(&tok),
                Some(json!({ "seq": st["seq"] })),
            )
            .await
        } else {
            played += 1;
            let moves = st["legal"].as_array().unwrap();
            let m = moves[st["seq"].as_u64().unwrap() as usize % moves.len()]["move"].clone();
            call(
                app,
                "POST",
                &format!("/api/games/{id}/move"),
                Some(&tok),
                Some(json!({ "move": m, "seq": st["seq"] })),
            )
            .await
        };
        assert_eq!(r.0, StatusCode::OK, "{}", r.1);
        st = r.1;
    }
    (id, tokens, st)
}

#[tokio::test]
async fn a_finished_game_is_analysed_once_with_progress_meanwhile() {
    let app = app();
    let (id, _, st) = play(&app, "kendall5", 6).await;
    assert_ne!(st["status"]["state"], "over");
    let uri = format!("/api/games/{id}/analysis");
    let (s, v) = call(&app, "GET", &uri, None, None).await;
    assert_eq!(s, StatusCode::CONFLICT, "{v}");
    assert!(v["error"]
        .as_str()
        .unwrap()
        .contains("once the game is over"));

    let (id, _, st) = play(&app, "kendall5", usize::MAX).await;
    assert_eq!(st["status"]["state"], "over");
    let uri = format!("/api/games/{id}/analysis");
    let (s, first) = call(&app, "GET", &uri, None, None).await;
    assert!(
        s == StatusCode::ACCEPTED && first["status"] == "running",
        "{s} {first}"
    );
    let total = first["total"].as_u64().unwrap();
    let events = st["events"].as_array().map_or(0, |e| e.len());
    assert!(total as usize >= events && total > 0);
    let mut done = None;
    for _ in 0..600 {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        let (s, v) = call(&app, "GET", &uri, None, None).await;
        if s == StatusCode::OK {
            done = Some(v);
            break;
        }
        assert_eq!(s, StatusCode::ACCEPTED, "{v}");
        assert!(v["done"].as_u64().unwrap() <= total);
    }
    let done = done.expect("the analysis finishes");
    assert_eq!(done["status"], "done");
    let a = &done["analysis"];
    assert_eq!(a["rules"], "kendall5");
    assert_eq!(a["notes"].as_array().unwrap().len() as u64, total);
    assert_eq!(a["over"], true);
    for p in 0..2 {
        for k in ["choices", "error_rate", "luck", "luck_adjusted", "blunders"] {
            assert!(a["players"][p][k].is_number(), "{k}: {}", a["players"][p]);
        }
    }
    // Kept: asked again, it is there at once, the same.
    let (s, again) = call(&app, "GET", &uri, None, None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(again, done);
    let (s, v) = call(&app, "GET", "/api/games/nosuchgame/analysis", None, None).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{v}");
}

#[tokio::test]
async fn any_position_is_valued_without_a_game() {
    let app = app();
    let pos = "kendall5 ....XX...................X..O. off=2,4 turn=1 throw=- dec=40";
    let (s, v) = call(
        &app,
        "POST",
        "/api/value",
        None,
        Some(json!({ "position": pos })),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["awaits"], "throw");
    let throws = v["throws"].as_array().unwrap();
    assert_eq!(throws.len(), 5);
    let mean: f64 = throws
        .iter()
        .map(|t| t["chance"].as_f64().unwrap() * t["win"].as_f64().unwrap())
        .sum();
    assert!((mean - v["win"].as_f64().unwrap()).abs() < 1e-9);
    let luck: f64 = throws
        .iter()
        .map(|t| t["chance"].as_f64().unwrap() * t["luck"].as_f64().unwrap())
        .sum();
    assert!(luck.abs() < 1e-9);

    let (s, v) = call(
        &app,
        "POST",
        "/api/value",
        None,
        Some(json!({ "position": pos, "throw": "3" })),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["awaits"], "move");
    assert_eq!(v["best"], "26-29");
    assert_eq!(v["moves"][0]["move"], "26-29");
    assert_eq!(v["moves"].as_array().unwrap().len(), 3);

    // Every rule set's start is valued.
    for &rules in senet_rules::RuleSet::ALL {
        let start = senet_rules::AnyGame::new(rules, &[] as &[&str]).unwrap();
        let body = json!({ "position": senet_rules::Notation::position(&start) });
        let (s, v) = call(&app, "POST", "/api/value", None, Some(body)).await;
        assert_eq!(s, StatusCode::OK, "{rules}: {v}");
        assert!(
            v["first"]
                .as_f64()
                .is_some_and(|p| (0.0..=1.0).contains(&p)),
            "{rules}: {v}"
        );
    }

    for (body, status, needle) in [
        (
            json!({ "position": "kendall5 nonsense" }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "position",
        ),
        (
            json!({ "position": pos, "throw": "9" }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "throw",
        ),
        (
            json!({ "position": pos, "depth": 9 }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "depth must be at most 5",
        ),
        (
            json!({ "position": pos, "colour": "red" }),
            StatusCode::BAD_REQUEST,
            "colour",
        ),
        (json!({}), StatusCode::BAD_REQUEST, "position"),
    ] {
        let (s, v) = call(&app, "POST", "/api/value", None, Some(body.clone())).await;
        assert_eq!(s, status, "{body}: {v}");
        let msg = v["error"].as_str().unwrap_or_default();
        assert!(msg.contains(needle), "{body}: {msg}");
    }
}

#[tokio::test]
async fn the_hint_values_every_legal_move() {
    let app = app();
    let (id, tokens, st) = play(&app, "senat", 3).await;
    let mut st = st;
    let tok = |st: &Value| {
        tokens[st["status"]["player"].to_string()]
            .as_str()
            .unwrap_or_else(|| panic!("no token for {st}"))
            .to_string()
    };
    if st["status"]["state"] == "throw" {
        let t = tok(&st);
        st = call(
            &app,
            "POST",
            &format!("/api/games/{id}/throw"),
            Some(&t),
            Some(json!({ "seq": st["seq"] })),
        )
        .await
        .1;
    }
    let t = tok(&st);
    let (s, h) = call(
        &app,
        "GET",
        &format!("/api/games/{id}/hint"),
        Some(&t),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{h}");
    let legal = st["legal"].as_array().unwrap();
    let moves = h["moves"].as_array().unwrap();
    assert_eq!(moves.len(), legal.len());
    assert_eq!(h["level"], "expert");
    assert_eq!(moves[0]["win"].as_f64(), h["score"].as_f64(), "best first");
    assert!(moves
        .iter()
        .all(|m| legal.iter().any(|l| l["move"] == m["move"])));
    assert!(moves.iter().any(|m| m["move"] == h["move"]));
}

/// The analysis is stored with the game: a server started afresh on the same database
/// answers it at once, without analysing again.
#[tokio::test]
async fn the_analysis_is_kept_in_the_database() {
    let dir = std::env::temp_dir().join(format!("senet-analysis-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("g.sqlite");
    let app = app_on(Arc::new(SqliteStore::open(&db).unwrap()));
    let (id, _, _) = play(&app, "pyramid", usize::MAX).await;
    let uri = format!("/api/games/{id}/analysis");
    let mut done = None;
    for _ in 0..600 {
        let (s, v) = call(&app, "GET", &uri, None, None).await;
        if s == StatusCode::OK {
            done = Some(v);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let done = done.expect("the analysis finishes");
    // Storing follows the answer in the background: wait for it.
    let store = SqliteStore::open(&db).unwrap();
    let n = done["analysis"]["notes"].as_array().unwrap().len() as u32;
    let t = std::time::Instant::now();
    while senet_server::Store::analysis(&store, &id, n)
        .unwrap()
        .is_none()
    {
        assert!(t.elapsed().as_secs() < 10, "the analysis is stored");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    drop(app);
    let again = app_on(Arc::new(store));
    let (s, v) = call(&again, "GET", &uri, None, None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v, done);
    std::fs::remove_dir_all(&dir).ok();
}

/// One client has at most two analyses waiting or running; a third is refused in words
/// (429) while they run, and served once they are done (issue 36).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_client_has_at_most_two_analyses_under_way() {
    let app = app();
    let mut ids = Vec::new();
    for _ in 0..3 {
        let (id, _, st) = play(&app, "kendall5", usize::MAX).await;
        assert_eq!(st["status"]["state"], "over");
        ids.push(id);
    }
    let ask = |id: &String| {
        let (app, path) = (app.clone(), format!("/api/games/{id}/analysis"));
        async move { call(&app, "GET", &path, None, None).await }
    };
    assert_eq!(ask(&ids[0]).await.0, StatusCode::ACCEPTED);
    assert_eq!(ask(&ids[1]).await.0, StatusCode::ACCEPTED);
    let (s, e) = ask(&ids[2]).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{e}");
    assert!(
        e["error"].as_str().unwrap().contains("analyses under way"),
        "{e}"
    );
    // Once the first two are done, the third starts.
    for id in &ids[..2] {
        let t = std::time::Instant::now();
        while ask(id).await.0 != StatusCode::OK {
            assert!(t.elapsed().as_secs() < 120, "the analysis did not finish");
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    }
    assert!(matches!(
        ask(&ids[2]).await.0,
        StatusCode::ACCEPTED | StatusCode::OK
    ));
}
