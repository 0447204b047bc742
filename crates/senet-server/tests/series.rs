//! Series of games through the API (issue 13): creating a series, the series score on the
//! game state, "next game" for both seats online and against a bot, every error of `next`,
//! the series page data and record, and a restart in the middle of a series.

mod support {
    pub mod http;
}

use axum::http::StatusCode;
use axum::Router;
use senet_rules::Series;
use senet_server::{router, Limits, Service, SqliteStore};
use serde_json::{json, Value};
use std::sync::Arc;
use support::http::call;

fn app_on(store: SqliteStore) -> (Router, Arc<Service>) {
    let svc = Service::new(Arc::new(store));
    let r = router(
        svc.clone(),
        Limits {
            per_second: 0.0,
            ..Limits::default()
        },
    );
    (r, svc)
}

fn is_error(r: &(StatusCode, Value), status: StatusCode, needle: &str) {
    assert_eq!(r.0, status, "{}", r.1);
    let msg = r.1["error"].as_str().unwrap_or_default().to_lowercase();
    assert!(
        msg.contains(&needle.to_lowercase()),
        "{msg:?} lacks {needle:?}"
    );
}

/// The token of whoever is to act now: `tokens` holds series seat 1's and seat 2's.
fn token_to_act<'a>(st: &Value, tokens: &'a [Option<String>; 2]) -> Option<&'a str> {
    let player = st["status"]["player"].as_u64()?;
    let seats = st["series"]["seats"].as_array()?;
    let seat = seats.iter().find(|s| s["player"] == player)?["seat"].as_u64()?;
    tokens[seat as usize - 1].as_deref()
}

/// Plays game `id` to its end with the first legal moves; returns the final state.
async fn play_game(app: &Router, id: &str, tokens: &[Option<String>; 2]) -> Value {
    let mut st = call(app, "GET", &format!("/api/games/{id}"), None, None)
        .await
        .1;
    for _ in 0..100_000 {
        if st["status"]["state"] == "over" {
            return st;
        }
        let Some(tok) = token_to_act(&st, tokens).map(String::from) else {
            // A bot is to act: it answers in the background.
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
            st = call(app, "GET", &format!("/api/games/{id}"), None, None)
                .await
                .1;
            continue;
        };
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
            let moves = st["legal"].as_array().unwrap();
            let m = moves[st["seq"].as_u64().unwrap() as usize % moves.len()]["move"].clone();
            let body = json!({ "move": m, "seq": st["seq"] });
            call(
                app,
                "POST",
                &format!("/api/games/{id}/move"),
                Some(&tok),
                Some(body),
            )
            .await
        };
        assert_eq!(r.0, StatusCode::OK, "{}", r.1);
        st = r.1;
    }
    panic!("the game did not end");
}

/// `{"seq": N}` with game `id`'s current event count.
async fn seq_of(app: &Router, id: &str) -> Value {
    let st = call(app, "GET", &format!("/api/games/{id}"), None, None)
        .await
        .1;
    json!({ "seq": st["seq"] })
}

/// Claims the invite of created game `c`; returns the new seat's token.
async fn claim(app: &Router, c: &Value) -> String {
    let id = c["id"].as_str().unwrap();
    let code = c["invite"]
        .as_str()
        .unwrap()
        .split("claim=")
        .nth(1)
        .unwrap();
    let r = call(
        app,
        "POST",
        &format!("/api/games/{id}/claim"),
        None,
        Some(json!({ "code": code })),
    )
    .await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    r.1["token"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn an_online_series_of_three_games_with_next_game_for_both_seats() {
    let (app, _) = app_on(SqliteStore::in_memory().unwrap());
    let c = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some(json!({ "rules": "kendall5", "mode": "online", "series": { "games": 3 } })),
    )
    .await;
    assert_eq!(c.0, StatusCode::CREATED, "{}", c.1);
    let c = c.1;
    let sid = c["series"].as_str().unwrap().to_string();
    let mut id = c["id"].as_str().unwrap().to_string();
    // Game 1: seat 1 (the creator) plays the first player (alternate starts).
    let t1 = c["tokens"]["1"].as_str().unwrap().to_string();
    let invite = c["invite"].as_str().unwrap();
    assert!(invite.contains("#claim="), "{invite}");
    let t2 = claim(&app, &c).await;
    let tokens = [Some(t1.clone()), Some(t2.clone())];
    let s = &c["state"]["series"];
    assert_eq!(s["game"], 1);
    assert_eq!(s["first"], 1);
    assert_eq!(s["score"], json!([0, 0]));
    assert_eq!(s["target"], json!({ "games": 3 }));
    assert_eq!(s["scores"], false);

    // Next game before the end, without a token, with a wrong token: refused. (The seq
    // comes before the game's state: without it, 400.)
    let next = format!("/api/games/{id}/next");
    is_error(
        &call(
            &app,
            "POST",
            &next,
            Some(&t1),
            Some(seq_of(&app, &id).await),
        )
        .await,
        StatusCode::CONFLICT,
        "not over yet",
    );
    is_error(
        &call(&app, "POST", &next, Some(&t1), None).await,
        StatusCode::BAD_REQUEST,
        "\"seq\" is required",
    );
    is_error(
        &call(&app, "POST", &next, None, None).await,
        StatusCode::UNAUTHORIZED,
        "token",
    );
    is_error(
        &call(&app, "POST", &next, Some("nope"), None).await,
        StatusCode::FORBIDDEN,
        "not a seat token",
    );

    let mut total = [0u64, 0];
    for game in 1..=3u64 {
        let end = play_game(&app, &id, &tokens).await;
        let s = &end["series"];
        assert_eq!(s["game"], game);
        let p = s["points"].as_array().unwrap();
        total[0] += p[0].as_u64().unwrap();
        total[1] += p[1].as_u64().unwrap();
        assert_eq!(s["score"], json!(total));
        assert_eq!(
            p[0].as_u64().unwrap() + p[1].as_u64().unwrap(),
            1,
            "a win is a point"
        );
        if game == 3 {
            assert_eq!(s["over"], true);
            is_error(
                &call(
                    &app,
                    "POST",
                    &format!("/api/games/{id}/next"),
                    Some(&t2),
                    Some(seq_of(&app, &id).await),
                )
                .await,
                StatusCode::CONFLICT,
                "the series is over",
            );
            break;
        }
        assert_eq!(s["over"], false);
        // Seat 2 asks first, then seat 1 gets the same game.
        let a = call(
            &app,
            "POST",
            &format!("/api/games/{id}/next"),
            Some(&t2),
            Some(seq_of(&app, &id).await),
        )
        .await;
        assert_eq!(a.0, StatusCode::CREATED, "{}", a.1);
        let b = call(
            &app,
            "POST",
            &format!("/api/games/{id}/next"),
            Some(&t1),
            Some(seq_of(&app, &id).await),
        )
        .await;
        assert_eq!(b.0, StatusCode::CREATED, "{}", b.1);
        assert_eq!(a.1["id"], b.1["id"]);
        // The seats swap sides: in even games seat 2 plays the first player.
        let even = game % 2 == 1;
        assert_eq!(a.1["seat"], if even { 1 } else { 2 });
        assert_eq!(b.1["seat"], if even { 2 } else { 1 });
        // The old game points to the new one, for the page of the seat that did not ask.
        let old = call(&app, "GET", &format!("/api/games/{id}"), None, None)
            .await
            .1;
        assert_eq!(old["series"]["next"], a.1["id"]);
        id = a.1["id"].as_str().unwrap().to_string();
        let st = &a.1["state"]["series"];
        assert_eq!(st["game"], game + 1);
        assert_eq!(st["before"], json!(total));
        assert_eq!(st["first"], if even { 2 } else { 1 });
    }

    let s = call(&app, "GET", &format!("/api/series/{sid}"), None, None).await;
    assert_eq!(s.0, StatusCode::OK, "{}", s.1);
    assert_eq!(s.1["games"].as_array().unwrap().len(), 3);
    assert_eq!(s.1["score"], json!(total));
    assert_eq!(s.1["over"], true);
    let w = if total[0] > total[1] {
        json!(1)
    } else {
        json!(2)
    };
    assert_eq!(s.1["winner"], w);

    let (st, rec) = call(
        &app,
        "GET",
        &format!("/api/series/{sid}/record"),
        None,
        None,
    )
    .await;
    assert_eq!(st, StatusCode::OK);
    let text = serde_json::to_string(&rec).unwrap();
    let series = Series::from_json(&text).unwrap();
    let r = series.replay().unwrap();
    assert!(r.standing.over);
    assert_eq!(r.standing.score.map(u64::from), total);
    assert_eq!(
        series.games.iter().map(|g| g.first).collect::<Vec<_>>(),
        [1, 2, 1]
    );

    is_error(
        &call(&app, "GET", "/api/series/nosuch", None, None).await,
        StatusCode::NOT_FOUND,
        "no series",
    );
    is_error(
        &call(&app, "GET", "/api/series/no$such", None, None).await,
        StatusCode::NOT_FOUND,
        "no series",
    );
}

#[tokio::test]
async fn a_series_against_a_bot_scores_parker_points_and_bad_requests_are_refused() {
    let (app, _) = app_on(SqliteStore::in_memory().unwrap());
    // P11: parker scores the winner's saved pegs.
    let c = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some(
            json!({ "rules": "parker", "mode": "bot", "bot": "beginner", "seat": 2,
                     "series": { "points": 1 }, "starts": "rules" }),
        ),
    )
    .await;
    assert_eq!(c.0, StatusCode::CREATED, "{}", c.1);
    let id = c.1["id"].as_str().unwrap().to_string();
    // Creator is series seat 2; with starts=rules in parker the seats keep their colours
    // (P3: the dice-off decides who starts), so seat 2 plays player 2.
    assert_eq!(c.1["state"]["series"]["first"], 1);
    let t = c.1["tokens"]["2"].as_str().unwrap().to_string();
    let end = play_game(&app, &id, &[None, Some(t.clone())]).await;
    let s = &end["series"];
    assert_eq!(s["scores"], true);
    let p = s["points"].as_array().unwrap();
    let won = p[0].as_u64().unwrap() + p[1].as_u64().unwrap();
    assert!(won >= 10, "a parker win is worth 10 to 130 points: {p:?}");
    assert_eq!(
        s["over"], true,
        "a series to 1 point ends with the first win"
    );
    is_error(
        &call(
            &app,
            "POST",
            &format!("/api/games/{id}/next"),
            Some(&t),
            Some(seq_of(&app, &id).await),
        )
        .await,
        StatusCode::CONFLICT,
        "series is over",
    );

    // Bad series requests.
    for (body, needle) in [
        (
            json!({ "rules": "kendall", "mode": "hotseat", "series": { "points": 0 } }),
            "1 to 100000",
        ),
        (
            json!({ "rules": "kendall", "mode": "hotseat", "series": { "games": 5000 } }),
            "number of games",
        ),
        (
            json!({ "rules": "kendall", "mode": "hotseat", "series": { "points": 3 }, "starts": "loser" }),
            "alternate or rules",
        ),
        (
            json!({ "rules": "kendall", "mode": "hotseat", "starts": "rules" }),
            "only for a series",
        ),
    ] {
        is_error(
            &call(&app, "POST", "/api/games", None, Some(body)).await,
            StatusCode::UNPROCESSABLE_ENTITY,
            needle,
        );
    }
    let r = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some(json!({ "rules": "kendall", "mode": "hotseat", "series": { "goals": 3 } })),
    )
    .await;
    assert_eq!(r.0, StatusCode::BAD_REQUEST, "{}", r.1);
    // Next of a single game.
    let c = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some(json!({ "rules": "kendall5", "mode": "hotseat" })),
    )
    .await
    .1;
    let single = c["id"].as_str().unwrap();
    let tok = c["tokens"]["1"].as_str().unwrap();
    assert_eq!(c["state"]["series"], Value::Null);
    is_error(
        &call(
            &app,
            "POST",
            &format!("/api/games/{single}/next"),
            Some(tok),
            Some(seq_of(&app, single).await),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "not part of a series",
    );
    is_error(
        &call(&app, "POST", "/api/games/nosuch/next", Some(tok), None).await,
        StatusCode::NOT_FOUND,
        "no game",
    );
}

#[tokio::test]
async fn a_series_survives_a_restart_between_games() {
    let dir = std::env::temp_dir().join(format!("senet-series-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("s.sqlite");
    let _ = std::fs::remove_file(&db);
    let (app, _) = app_on(SqliteStore::open(&db).unwrap());
    let c = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some(
            json!({ "rules": "senat", "options": ["score=true"], "mode": "hotseat",
                     "series": { "points": 50 } }),
        ),
    )
    .await
    .1;
    let sid = c["series"].as_str().unwrap().to_string();
    let id = c["id"].as_str().unwrap().to_string();
    let tokens = [
        Some(c["tokens"]["1"].as_str().unwrap().to_string()),
        Some(c["tokens"]["2"].as_str().unwrap().to_string()),
    ];
    let end = play_game(&app, &id, &tokens).await;
    let score = end["series"]["score"].clone();
    // S12: the winner scores the opposing pieces left on the board (1 to 5).
    let p = end["series"]["points"].as_array().unwrap();
    let won = p[0].as_u64().unwrap() + p[1].as_u64().unwrap();
    assert!((1..=5).contains(&won), "{p:?}");
    let n = call(
        &app,
        "POST",
        &format!("/api/games/{id}/next"),
        tokens[0].as_deref(),
        Some(seq_of(&app, &id).await),
    )
    .await;
    assert_eq!(n.0, StatusCode::CREATED, "{}", n.1);
    let id2 = n.1["id"].as_str().unwrap().to_string();
    let before = call(&app, "GET", &format!("/api/series/{sid}"), None, None)
        .await
        .1;
    drop(app);
    // A new server on the same file: the series is read from the games' stored positions,
    // without loading and replaying the games (issue 36), and reads as it did.
    let (app, svc) = app_on(SqliteStore::open(&db).unwrap());
    let after = call(&app, "GET", &format!("/api/series/{sid}"), None, None)
        .await
        .1;
    assert_eq!(after, before);
    assert_eq!(svc.games_in_memory(), 0);
    // Both games, the score, the link to the next game.
    let old = call(&app, "GET", &format!("/api/games/{id}"), None, None)
        .await
        .1;
    assert_eq!(old["series"]["next"], json!(id2));
    let st = call(&app, "GET", &format!("/api/games/{id2}"), None, None)
        .await
        .1;
    assert_eq!(st["series"]["before"], score);
    assert_eq!(st["series"]["game"], 2);
    // The next game again gives the same game, not a third.
    let again = call(
        &app,
        "POST",
        &format!("/api/games/{id}/next"),
        tokens[1].as_deref(),
        Some(seq_of(&app, &id).await),
    )
    .await;
    assert_eq!(again.1["id"], json!(id2));
    let s = call(&app, "GET", &format!("/api/series/{sid}"), None, None)
        .await
        .1;
    assert_eq!(s["games"].as_array().unwrap().len(), 2);
    // Play on after the restart.
    play_game(&app, &id2, &tokens).await;
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn the_series_endpoints_are_documented() {
    let (app, _) = app_on(SqliteStore::in_memory().unwrap());
    let (s, doc) = call(&app, "GET", "/api/openapi.json", None, None).await;
    assert_eq!(s, StatusCode::OK);
    for p in [
        "/api/games/{id}/next",
        "/api/series/{id}",
        "/api/series/{id}/record",
    ] {
        assert!(doc["paths"].get(p).is_some(), "{p} is not documented");
    }
    let props = &doc["components"]["schemas"]["NewGame"]["properties"];
    assert!(props.get("series").is_some() && props.get("starts").is_some());
    // The series result page is served.
    let (s, _) = call(&app, "GET", "/s/abc", None, None).await;
    assert_eq!(s, StatusCode::OK);
}
