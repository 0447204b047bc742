//! `POST /api/games/import`: a finished bot or hot-seat game that the page played with no
//! server (its throws drawn by the browser) is stored as an ordinary game marked
//! `page_throws`, with no seed; a record that is not a finished game from the rule set's
//! start, or that has a seed, is refused with the reason in words.

mod support {
    pub mod http;
    pub mod records;
}

use axum::http::StatusCode;
use axum::Router;
use senet_rules::{AnyGame, Event, Game, Notation, Record, RuleSet};
use senet_server::{router, Limits, Service, SqliteStore};
use serde_json::{json, Value};
use std::sync::Arc;
use support::http::call;
use support::records::random_game;

fn app_on(store: SqliteStore) -> Router {
    router(
        Service::new(Arc::new(store)),
        Limits {
            per_second: 0.0,
            ..Limits::default()
        },
    )
}

fn app() -> Router {
    app_on(SqliteStore::in_memory().unwrap())
}

fn record_json(rec: &Record) -> Value {
    serde_json::to_value(rec).unwrap()
}

async fn import(app: &Router, body: Value) -> (StatusCode, Value) {
    call(app, "POST", "/api/games/import", None, Some(body)).await
}

/// Asserts a refusal with `status` whose message contains `needle`.
fn refused(r: &(StatusCode, Value), status: StatusCode, needle: &str) {
    assert_eq!(r.0, status, "{}", r.1);
    let msg = r.1["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error in {}", r.1));
    assert!(msg.contains(needle), "{msg:?} should mention {needle:?}");
}

/// Checks an imported game through the API: its state, record, throws, list entry, review,
/// and that its tokens are seat tokens of it.
async fn check_imported(app: &Router, c: &Value, rec: &Record, end: &AnyGame) {
    let id = c["id"].as_str().unwrap();
    let st = &c["state"];
    let winner = rec.result.as_ref().unwrap().winner;
    for st in [
        st,
        &call(app, "GET", &format!("/api/games/{id}"), None, None)
            .await
            .1,
    ] {
        assert_eq!(st["id"], id);
        assert_eq!(st["rules"], rec.rules);
        assert_eq!(st["status"]["state"], "over", "{}", st["status"]);
        assert_eq!(st["status"]["winner"], json!(winner));
        assert_eq!(st["position"], end.position());
        assert_eq!(st["page_throws"], true);
        assert_eq!(st["seed"], Value::Null, "no seed, though the game is over");
        assert_eq!(st["seed_hash"], "");
        assert_eq!(st["rated"], false);
        assert_eq!(st["series"], Value::Null);
        assert_eq!(st["seq"], rec.events.len());
        assert_eq!(st["events"].as_array().unwrap().len(), rec.events.len());
        assert_eq!(st["legal"], json!([]));
    }
    // The record download: the same events and result, no seed.
    let (s, got) = call(app, "GET", &format!("/api/games/{id}/record"), None, None).await;
    assert_eq!(s, StatusCode::OK, "{got}");
    let got: Record = serde_json::from_value(got).unwrap();
    assert_eq!(got.seed, None);
    assert_eq!(got.rules, rec.rules);
    assert_eq!(got.events, rec.events);
    assert_eq!(got.result, rec.result);
    // No seed to check the throws by.
    let r = call(app, "GET", &format!("/api/games/{id}/throws"), None, None).await;
    refused(&r, StatusCode::CONFLICT, "drawn by a browser");
    refused(&r, StatusCode::CONFLICT, "no seed to check them by");
    // Listed like any game.
    let (s, l) = call(app, "GET", &format!("/api/games?ids={id}"), None, None).await;
    assert_eq!(s, StatusCode::OK);
    let games = l["games"].as_array().unwrap();
    assert_eq!(games.len(), 1, "{l}");
    assert_eq!(games[0]["id"], id);
    assert_eq!(games[0]["state"], "over");
    assert_eq!(games[0]["mode"], c["state"]["mode"]);
    // Reviewed like any game.
    let (s, r) = call(
        app,
        "GET",
        &format!("/api/games/{id}/review?at=2"),
        None,
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{r}");
    assert_eq!(r["total"], rec.events.len());
    // Each token is a seat token of the game: accepted as such, refused for the game's end.
    let seq = st["seq"].clone();
    for (seat, tok) in c["tokens"].as_object().unwrap() {
        let r = call(
            app,
            "POST",
            &format!("/api/games/{id}/throw"),
            Some(tok.as_str().unwrap()),
            Some(json!({ "seq": seq })),
        )
        .await;
        refused(&r, StatusCode::CONFLICT, "over");
        assert!(["1", "2"].contains(&seat.as_str()));
    }
    let r = call(
        app,
        "POST",
        &format!("/api/games/{id}/throw"),
        Some("0123456789abcdef0123456789abcdef"),
        Some(json!({ "seq": seq })),
    )
    .await;
    assert_eq!(r.0, StatusCode::FORBIDDEN, "{}", r.1);
}

#[tokio::test]
async fn finished_games_of_every_rule_set_are_stored_in_both_modes() {
    let app = app();
    for (i, &rules) in RuleSet::ALL.iter().enumerate() {
        let (rec, end) = random_game(rules, 1000 + i as u64);
        assert!(rec.result.is_some());
        // Hot seat: both seats are people's, each with a token.
        let r = import(
            &app,
            json!({ "record": record_json(&rec), "mode": "hotseat" }),
        )
        .await;
        assert_eq!(r.0, StatusCode::CREATED, "{}: {}", rules.id(), r.1);
        let c = r.1;
        assert_eq!(
            c["tokens"].as_object().unwrap().keys().collect::<Vec<_>>(),
            ["1", "2"]
        );
        assert!(
            c.get("invite").is_none() && c.get("series").is_none(),
            "{c}"
        );
        assert_eq!(c["state"]["mode"], "hotseat");
        for s in c["state"]["seats"].as_array().unwrap() {
            assert_eq!(s["kind"], "human", "{s}");
        }
        check_imported(&app, &c, &rec, &end).await;
        // Against a bot the page played, the person in either seat: only the person's seat
        // has a token; the bot's seat is the page's bot.
        let seat = 1 + i % 2;
        let r = import(
            &app,
            json!({ "record": record_json(&rec), "mode": "bot", "bot": "expert", "seat": seat }),
        )
        .await;
        assert_eq!(r.0, StatusCode::CREATED, "{}: {}", rules.id(), r.1);
        let c = r.1;
        assert_eq!(
            c["tokens"].as_object().unwrap().keys().collect::<Vec<_>>(),
            [&seat.to_string()]
        );
        assert_eq!(c["state"]["mode"], "bot");
        let seats = c["state"]["seats"].as_array().unwrap();
        assert_eq!(seats[seat - 1]["kind"], "human", "{seats:?}");
        let bot = &seats[2 - seat];
        assert_eq!(bot["kind"], "bot", "{bot}");
        assert_eq!(bot["bot"], "expert");
        assert_eq!(bot["in_page"], true);
        check_imported(&app, &c, &rec, &end).await;
    }
    // Without `seat`, the person has seat 1.
    let (rec, _) = random_game(RuleSet::Kendall5, 7);
    let r = import(
        &app,
        json!({ "record": record_json(&rec), "mode": "bot", "bot": "beginner" }),
    )
    .await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    assert_eq!(
        r.1["tokens"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["1"]
    );
    assert_eq!(r.1["state"]["seats"][1]["bot"], "beginner");
}

#[tokio::test]
async fn a_record_that_names_the_usual_start_and_a_large_body_are_taken() {
    let app = app();
    // "start" given, but the rule set's own start: the same game.
    let (rec, end) = random_game(RuleSet::Senat, 3);
    let mut v = record_json(&rec);
    v["start"] = json!(AnyGame::new(RuleSet::Senat, &[] as &[&str])
        .unwrap()
        .position());
    let r = import(&app, json!({ "record": v, "mode": "hotseat" })).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    check_imported(&app, &r.1, &rec, &end).await;
    // A body larger than the other endpoints' 16 KiB limit (random games' records are
    // 2-13 KB; a record laid out one event a line, as the downloads are, or a long game of
    // real play is larger).
    let (rec, end) = random_game(RuleSet::Kendall, 9);
    let body = json!({ "record": record_json(&rec), "mode": "hotseat" });
    let mut text = serde_json::to_string_pretty(&body).unwrap();
    text.insert_str(1, &" ".repeat(40_000));
    assert!(text.len() > 32 * 1024);
    let req = axum::http::Request::builder()
        .method("POST")
        .uri("/api/games/import")
        .header("content-type", "application/json")
        .body(axum::body::Body::from(text))
        .unwrap();
    let res = tower::ServiceExt::oneshot(app.clone(), req).await.unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let bytes = http_body_util::BodyExt::collect(res.into_body())
        .await
        .unwrap()
        .to_bytes();
    let c: Value = serde_json::from_slice(&bytes).unwrap();
    check_imported(&app, &c, &rec, &end).await;
    // But not beyond 1 MiB.
    let mut v = record_json(&rec);
    v["padding"] = json!("x".repeat(1 << 20));
    let r = import(&app, json!({ "record": v, "mode": "hotseat" })).await;
    refused(&r, StatusCode::PAYLOAD_TOO_LARGE, "too large");
}

#[tokio::test]
async fn records_that_are_no_finished_game_from_the_start_are_refused_in_words() {
    let app = app();
    let (rec, _) = random_game(RuleSet::Kendall5, 11);
    let good = record_json(&rec);
    let with = |f: &dyn Fn(&mut Value)| {
        let mut v = good.clone();
        f(&mut v);
        v
    };
    let hot = |record: Value| json!({ "record": record, "mode": "hotseat" });

    // Not a record at all, or a malformed one.
    let r = import(
        &app,
        json!({ "record": "{\"format\": 1}", "mode": "hotseat" }),
    )
    .await;
    refused(
        &r,
        StatusCode::BAD_REQUEST,
        "\"record\" must be a game record",
    );
    let r = import(&app, json!({ "mode": "hotseat" })).await;
    refused(&r, StatusCode::BAD_REQUEST, "needs the field \"record\"");
    let r = import(&app, hot(with(&|v| v["events"][0] = json!({ "throw": 4 })))).await;
    refused(
        &r,
        StatusCode::UNPROCESSABLE_ENTITY,
        "\"record\": not a valid record: event 1 is {\"throw\":4}",
    );
    let r = import(
        &app,
        hot(with(&|v| {
            v.as_object_mut().unwrap().remove("events");
        })),
    )
    .await;
    refused(
        &r,
        StatusCode::UNPROCESSABLE_ENTITY,
        "missing field `events`",
    );
    let r = import(&app, hot(with(&|v| v["format"] = json!("senet-record/9")))).await;
    refused(
        &r,
        StatusCode::UNPROCESSABLE_ENTITY,
        "format is \"senet-record/9\"",
    );
    let r = import(&app, hot(with(&|v| v["surprise"] = json!(1)))).await;
    refused(
        &r,
        StatusCode::UNPROCESSABLE_ENTITY,
        "unknown field `surprise`",
    );
    assert!(
        !r.1["error"].as_str().unwrap().contains(" at line "),
        "{}",
        r.1
    );

    // An unknown rule set, a bad option.
    let r = import(&app, hot(with(&|v| v["rules"] = json!("chess")))).await;
    refused(
        &r,
        StatusCode::UNPROCESSABLE_ENTITY,
        "unknown rule set \"chess\"",
    );
    let r = import(
        &app,
        hot(with(&|v| v["options"] = json!({ "nosuch": true }))),
    )
    .await;
    refused(&r, StatusCode::UNPROCESSABLE_ENTITY, "nosuch");

    // An illegal move: the event is named by its number (from 1).
    let i = rec
        .events
        .iter()
        .position(|e| matches!(e, Event::Move { .. }))
        .unwrap();
    for bad in ["nonsense", "30-off"] {
        let r = import(
            &app,
            hot(with(&|v| v["events"][i] = json!({ "move": bad }))),
        )
        .await;
        refused(
            &r,
            StatusCode::UNPROCESSABLE_ENTITY,
            "the record does not replay: event ",
        );
        refused(
            &r,
            StatusCode::UNPROCESSABLE_ENTITY,
            &format!("event {} (move 1): {bad}", i + 1),
        );
    }
    // A throw where a move is due.
    let r = import(
        &app,
        hot(with(&|v| v["events"][i] = json!({ "throw": "2" }))),
    )
    .await;
    refused(
        &r,
        StatusCode::UNPROCESSABLE_ENTITY,
        &format!("event {} (move 1)", i + 1),
    );

    // An unfinished game (with its result dropped, or kept: then the replay disagrees).
    let half = rec.events.len() / 2;
    let unfinished = with(&|v| {
        v["events"].as_array_mut().unwrap().truncate(half);
        v.as_object_mut().unwrap().remove("result");
    });
    let r = import(&app, hot(unfinished.clone())).await;
    refused(
        &r,
        StatusCode::UNPROCESSABLE_ENTITY,
        "only a finished game can be uploaded; ",
    );
    refused(
        &r,
        StatusCode::UNPROCESSABLE_ENTITY,
        &format!("not over after its {half} events"),
    );
    let r = import(
        &app,
        hot(with(&|v| {
            v["events"].as_array_mut().unwrap().truncate(half)
        })),
    )
    .await;
    refused(
        &r,
        StatusCode::UNPROCESSABLE_ENTITY,
        &format!("only a finished game can be uploaded; this record's game is not over after its {half} events"),
    );
    // A result the replay does not give.
    let w = rec.result.as_ref().unwrap().winner.unwrap();
    let r = import(&app, hot(with(&|v| v["result"]["winner"] = json!(3 - w)))).await;
    refused(
        &r,
        StatusCode::UNPROCESSABLE_ENTITY,
        &format!(
            "the record does not replay: the record claims winner Some({})",
            3 - w
        ),
    );
    let r = import(
        &app,
        hot(with(&|v| {
            v["events"].as_array_mut().unwrap().clear();
            v.as_object_mut().unwrap().remove("result");
        })),
    )
    .await;
    refused(
        &r,
        StatusCode::UNPROCESSABLE_ENTITY,
        "only a finished game can be uploaded",
    );

    // A seed: throws drawn by a browser have none.
    let r = import(&app, hot(with(&|v| v["seed"] = json!(42)))).await;
    refused(
        &r,
        StatusCode::UNPROCESSABLE_ENTITY,
        "the record has a \"seed\"",
    );

    // A start of its own: the game from a later position, although it replays to its end.
    let mut g = AnyGame::new(RuleSet::Kendall5, &[] as &[&str]).unwrap();
    for e in &rec.events[..4] {
        match e {
            Event::Throw { throw } => g
                .set_throw(senet_rules::Throw::parse(throw).unwrap())
                .unwrap(),
            Event::Move { mv } => {
                let m = g.parse_move(mv).unwrap();
                g.play_unchecked(m);
            }
        }
    }
    let later = with(&|v| {
        v["start"] = json!(g.position());
        v["events"].as_array_mut().unwrap().drain(..4);
    });
    assert!(serde_json::from_value::<Record>(later.clone())
        .unwrap()
        .replay()
        .is_ok());
    let r = import(&app, hot(later)).await;
    refused(
        &r,
        StatusCode::UNPROCESSABLE_ENTITY,
        "starts from a position of its own",
    );
}

#[tokio::test]
async fn modes_levels_and_seats_are_checked() {
    let app = app();
    let (rec, _) = random_game(RuleSet::Kendall, 5);
    let record = record_json(&rec);
    let unp = StatusCode::UNPROCESSABLE_ENTITY;
    for (body, status, needle) in [
        (
            json!({ "mode": "online" }),
            unp,
            "mode must be bot or hotseat, got \"online\"",
        ),
        (
            json!({ "mode": "solo" }),
            unp,
            "mode must be bot or hotseat, got \"solo\"",
        ),
        (json!({ "mode": "bot" }), unp, "a bot game needs \"bot\""),
        (
            json!({ "mode": "bot", "bot": "grandmaster" }),
            unp,
            "unknown bot level \"grandmaster\"",
        ),
        (
            json!({ "mode": "bot", "bot": "expert", "seat": 3 }),
            unp,
            "seat must be 1 or 2, got 3",
        ),
        (
            json!({ "mode": "bot", "bot": "expert", "seat": 0 }),
            unp,
            "seat must be 1 or 2, got 0",
        ),
        (
            json!({ "mode": "hotseat", "bot": "expert" }),
            unp,
            "\"bot\" is only for mode \"bot\"",
        ),
        (
            json!({ "mode": "hotseat", "seat": 1 }),
            unp,
            "\"seat\" is only for mode \"bot\"",
        ),
        (
            json!({}),
            StatusCode::BAD_REQUEST,
            "needs the field \"mode\"",
        ),
        (
            json!({ "mode": "bot", "bot": "expert", "bot_in_page": true }),
            StatusCode::BAD_REQUEST,
            "unknown field \"bot_in_page\"",
        ),
        (
            json!({ "mode": "bot", "bot": "expert", "seat": "1" }),
            StatusCode::BAD_REQUEST,
            "\"seat\"",
        ),
    ] {
        let mut b = body.clone();
        b["record"] = record.clone();
        let r = import(&app, b).await;
        refused(&r, status, needle);
    }
    // Checked before the record: a bad mode with a bad record answers about the mode.
    let r = import(&app, json!({ "mode": "online", "record": { "format": 1 } })).await;
    refused(&r, unp, "mode must be bot or hotseat");
}

#[tokio::test]
async fn an_uploaded_game_keeps_its_mark_in_a_reopened_database() {
    let dir = std::env::temp_dir().join(format!("senet-import-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("games.sqlite");
    let _ = std::fs::remove_file(&path);
    let (rec, end) = random_game(RuleSet::Pyramid, 21);
    let id = {
        let app = app_on(SqliteStore::open(&path).unwrap());
        let r = import(
            &app,
            json!({ "record": record_json(&rec), "mode": "bot", "bot": "casual", "seat": 2 }),
        )
        .await;
        assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
        // A game the server threw, beside it, keeps its seed.
        let (s, h) = call(
            &app,
            "POST",
            "/api/games",
            None,
            Some(json!({ "rules": "kendall5", "mode": "hotseat" })),
        )
        .await;
        assert_eq!(s, StatusCode::CREATED);
        assert_eq!(h["state"]["page_throws"], false);
        assert_eq!(h["state"]["seed_hash"].as_str().unwrap().len(), 64);
        r.1
    };
    let app = app_on(SqliteStore::open(&path).unwrap());
    check_imported(&app, &id, &rec, &end).await;
    let uri = format!("/api/games/{}", id["id"].as_str().unwrap());
    let (_, st) = call(&app, "GET", &uri, None, None).await;
    assert_eq!(st["seats"][0]["in_page"], true);
    assert_eq!(st["seats"][0]["bot"], "casual");
    assert_eq!(st["seats"][1]["kind"], "human");
    std::fs::remove_dir_all(&dir).unwrap();
}
