//! Bots played by the page's own engine (issue 54): the server stores their games like any
//! bot game but never searches for them.

mod support {
    pub mod http;
}

use axum::http::StatusCode;
use senet_rules::AnyGame;
use senet_server::{router, Limits, Service, SqliteStore};
use serde_json::{json, Value};
use std::sync::Arc;
use support::http::call;

fn open_limits() -> Limits {
    Limits {
        per_second: 0.0,
        ..Limits::default()
    }
}

#[tokio::test]
async fn a_bot_game_played_in_the_page_costs_the_server_no_search() {
    let svc = Service::new(Arc::new(SqliteStore::in_memory().unwrap()));
    let app = router(svc.clone(), open_limits());
    let (s, c) = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some(json!({"rules": "kendall5", "mode": "bot", "bot": "casual", "seat": 1, "bot_in_page": true})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{c}");
    let id = c["id"].as_str().unwrap().to_string();
    // The page holds both seats' tokens; the bot's seat says the page plays it.
    assert!(
        c["tokens"]["1"].is_string() && c["tokens"]["2"].is_string(),
        "{c}"
    );
    let seats = &c["state"]["seats"];
    assert_eq!(seats[1]["kind"], "bot");
    assert_eq!(seats[1]["bot"], "casual");
    assert_eq!(seats[1]["in_page"], true);
    assert!(seats[0].get("in_page").is_none(), "{seats}");
    let mut moves = 0;
    for _ in 0..5000 {
        let (_, st) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
        if st["status"]["state"] == "over" {
            break;
        }
        let seat = st["status"]["player"].as_u64().unwrap();
        let tok = c["tokens"][seat.to_string()].as_str().unwrap().to_string();
        let (s, r) = if st["status"]["state"] == "throw" {
            call(
                &app,
                "POST",
                &format!("/api/games/{id}/throw"),
                Some(&tok),
                Some(json!({"seq": st["seq"]})),
            )
            .await
        } else {
            // The page's engine: the bot's move, as the native engine chooses it.
            let mv = if seat == 2 {
                let g: AnyGame = st["position"].as_str().unwrap().parse().unwrap();
                let (m, _) = senet_bots::play::choose("casual", &g, 7).unwrap();
                Value::String(senet_rules::Notation::move_string(&g, m))
            } else {
                st["legal"][0]["move"].clone()
            };
            moves += 1;
            call(
                &app,
                "POST",
                &format!("/api/games/{id}/move"),
                Some(&tok),
                Some(json!({"move": mv, "seq": st["seq"]})),
            )
            .await
        };
        assert_eq!(s, StatusCode::OK, "{r}");
    }
    let (_, st) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(
        st["status"]["state"], "over",
        "the game was played to its end"
    );
    assert!(moves > 10);
    assert_eq!(
        svc.searches_started(),
        0,
        "the server searched for a bot the page plays"
    );
    // The record is stored and says who played.
    let (s, rec) = call(&app, "GET", &format!("/api/games/{id}/record"), None, None).await;
    assert_eq!(s, StatusCode::OK, "{rec}");

    // A bot the server plays is a search (the counter works).
    let (s, c) = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some(json!({"rules": "kendall5", "mode": "bot", "bot": "casual", "seat": 2})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{c}");
    for _ in 0..100 {
        if svc.searches_started() > 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(svc.searches_started() > 0);
}

#[tokio::test]
async fn bot_in_page_is_only_for_bot_games() {
    let app = router(
        Service::new(Arc::new(SqliteStore::in_memory().unwrap())),
        open_limits(),
    );
    let (s, e) = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some(json!({"rules": "kendall5", "mode": "hotseat", "bot_in_page": true})),
    )
    .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert!(
        e["error"]
            .as_str()
            .unwrap()
            .contains("only for mode \"bot\""),
        "{e}"
    );
}
