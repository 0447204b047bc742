//! API tests through the router: every endpoint, every error the API promises, and that a
//! refused request changes nothing.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use senet_rules::Record;
use senet_server::{router, seeds, Limits, Service, SqliteStore};
use serde_json::{json, Value};
use std::sync::Arc;
use tower::ServiceExt;

struct App {
    router: Router,
    svc: Arc<Service>,
}

fn app_with(limits: Limits) -> App {
    let svc = Service::new(Arc::new(SqliteStore::in_memory().unwrap()));
    App {
        router: router(svc.clone(), limits),
        svc,
    }
}

fn app() -> App {
    app_with(Limits {
        per_second: 0.0,
        ..Limits::default()
    })
}

async fn raw(
    app: &App,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<&str>,
) -> (StatusCode, String, axum::http::HeaderMap) {
    let mut r = Request::builder().method(method).uri(uri);
    if let Some(t) = token {
        r = r.header("authorization", format!("Bearer {t}"));
    }
    let req = r
        .header("content-type", "application/json")
        .body(body.map_or(Body::empty(), |b| Body::from(b.to_string())))
        .unwrap();
    let res = app.router.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let headers = res.headers().clone();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    // Binary bodies (the engine's WebAssembly) are read as lossy text.
    (
        status,
        String::from_utf8_lossy(&bytes).into_owned(),
        headers,
    )
}

async fn call(
    app: &App,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let b = body.map(|b| b.to_string());
    let (s, text, _) = raw(app, method, uri, token, b.as_deref()).await;
    let v = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (s, v)
}

/// Asserts an error status with a JSON `error` message containing `needle`.
fn is_error(r: &(StatusCode, Value), status: StatusCode, needle: &str) {
    assert_eq!(r.0, status, "{}", r.1);
    let msg = r.1["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error in {}", r.1));
    assert!(
        msg.to_lowercase().contains(&needle.to_lowercase()),
        "{msg:?} should mention {needle:?}"
    );
}

async fn create(app: &App, body: Value) -> Value {
    let r = call(app, "POST", "/api/games", None, Some(body)).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    r.1
}

async fn state(app: &App, id: &str) -> Value {
    let r = call(app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    r.1
}

/// The claim code of created game `c`'s invite link.
fn invite_code(c: &Value) -> &str {
    c["invite"]
        .as_str()
        .unwrap()
        .split("claim=")
        .nth(1)
        .unwrap()
}

/// Claims the invite of created game `c`; returns the new seat's token.
async fn claim(app: &App, c: &Value) -> String {
    let id = c["id"].as_str().unwrap();
    let code = invite_code(c);
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

/// The state once no bot is to act (bots answer in the background).
async fn settled(app: &App, id: &str) -> Value {
    for _ in 0..2000 {
        let st = state(app, id).await;
        let p = &st["status"]["player"];
        let bot = p.as_u64().is_some_and(|p| {
            st["status"]["state"] != "over" && st["seats"][p as usize - 1]["kind"] == "bot"
        });
        if !bot {
            return st;
        }
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    panic!("the bot of game {id} never answered");
}

/// Plays a hot-seat game to its end with the first legal move each time; returns the id.
async fn play_out(app: &App, rules: &str, options: &[&str]) -> (String, Value) {
    let c = create(
        app,
        json!({ "rules": rules, "options": options, "mode": "hotseat" }),
    )
    .await;
    let id = c["id"].as_str().unwrap().to_string();
    let tokens = c["tokens"].clone();
    let mut st = c["state"].clone();
    for _ in 0..20_000 {
        let s = &st["status"];
        if s["state"] == "over" {
            return (id, st);
        }
        let tok = tokens[s["player"].to_string()]
            .as_str()
            .unwrap()
            .to_string();
        let r = if s["state"] == "throw" {
            call(
                app,
                "POST",
                &format!("/api/games/{id}/throw"),
                Some(&tok),
                Some(json!({ "seq": state(app, &id).await["seq"] })),
            )
            .await
        } else {
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
    panic!("the game did not end");
}

#[tokio::test]
async fn rules_lists_every_rule_set_with_options_throws_and_levels() {
    let a = app();
    let (s, v) = call(&a, "GET", "/api/rules", None, None).await;
    assert_eq!(s, StatusCode::OK);
    let ids: Vec<&str> = v["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    for r in senet_rules::RuleSet::ALL {
        assert!(ids.contains(&r.id()), "{} missing", r.id());
    }
    let k = &v["rules"][0];
    assert!(k["throws"].as_array().unwrap().len() >= 2);
    assert!(k["options"]
        .as_array()
        .unwrap()
        .iter()
        .any(|o| o["name"] == "cap"));
    assert!(v["levels"].as_array().unwrap().contains(&json!("casual")));
}

#[tokio::test]
async fn sides_are_named_as_each_rule_set_names_them() {
    // Issue 16: the page called the first player "light"; pyramid's first player is black
    // (Y2), senat's is Arms (S1). The names come from senet-rules.
    let a = app();
    let (_, v) = call(&a, "GET", "/api/rules", None, None).await;
    let sides = |id: &str| {
        let r = v["rules"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .unwrap();
        [r["sides"][0]["name"].clone(), r["sides"][1]["name"].clone()]
    };
    assert_eq!(sides("pyramid"), [json!("black"), json!("white")]);
    assert_eq!(sides("senat"), [json!("Arms"), json!("Sun")]);
    assert_eq!(sides("parker"), [json!("red"), json!("yellow")]);
    let c = create(&a, json!({ "rules": "pyramid", "mode": "hotseat" })).await;
    assert_eq!(c["state"]["sides"][0]["name"], "black");
    assert_eq!(c["state"]["sides"][0]["colour"], "black");
}

#[tokio::test]
async fn creating_games_in_each_mode_and_every_creation_error() {
    let a = app();
    // Hot-seat: both tokens to the creator; no invite.
    let c = create(&a, json!({ "rules": "kendall5", "mode": "hotseat" })).await;
    assert_eq!(c["tokens"].as_object().unwrap().len(), 2);
    assert!(c.get("invite").is_none());
    assert_eq!(
        c["state"]["status"],
        json!({ "state": "throw", "player": 1 })
    );
    assert_eq!(
        c["state"]["seed"],
        Value::Null,
        "the seed is secret until the end"
    );
    assert_eq!(c["state"]["seed_hash"].as_str().unwrap().len(), 64);
    // Online: one token, and an invite link with the other seat's token.
    let c = create(
        &a,
        json!({ "rules": "kendall", "mode": "online", "seat": 2 }),
    )
    .await;
    assert_eq!(
        c["tokens"].as_object().unwrap().keys().collect::<Vec<_>>(),
        ["2"]
    );
    let inv = c["invite"].as_str().unwrap();
    assert!(inv.starts_with(&format!("/g/{}#claim=", c["id"].as_str().unwrap())));
    assert_eq!(c["state"]["invite_open"], true);
    // Bot in the first seat: it throws and moves in the background, after the answer.
    let c = create(
        &a,
        json!({ "rules": "kendall5", "mode": "bot", "bot": "strong", "seat": 2 }),
    )
    .await;
    assert_eq!(c["state"]["seats"][0]["kind"], "bot");
    let st = settled(&a, c["id"].as_str().unwrap()).await;
    assert_eq!(st["status"]["player"], 2);
    assert!(st["events"].as_array().unwrap().len() >= 2);
    // Options are applied.
    let c = create(
        &a,
        json!({ "rules": "kendall5", "options": ["cap=300"], "mode": "hotseat" }),
    )
    .await;
    assert!(c["state"]["position"]
        .as_str()
        .unwrap()
        .starts_with("kendall5:cap=300 "));

    let post = |b: &'static str| raw(&a, "POST", "/api/games", None, Some(b));
    let (s, t, _) = post("{nope").await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{t}");
    assert!(t.contains("not valid JSON"));
    let (s, t, _) = post(r#"{"rules":"kendall","mode":"hotseat","colour":"red"}"#).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{t}");
    assert!(t.contains("colour"));
    let cases = [
        (
            json!({ "rules": "chess", "mode": "hotseat" }),
            "rule sets are",
        ),
        (
            json!({ "rules": "kendall", "options": ["cap=0"], "mode": "hotseat" }),
            "cap",
        ),
        (
            json!({ "rules": "kendall", "options": ["speed=3"], "mode": "hotseat" }),
            "no option",
        ),
        (
            json!({ "rules": "kendall", "mode": "solo" }),
            "mode must be",
        ),
        (
            json!({ "rules": "kendall", "mode": "bot" }),
            "needs \"bot\"",
        ),
        (
            json!({ "rules": "kendall", "mode": "bot", "bot": "god" }),
            "levels are",
        ),
        (
            json!({ "rules": "kendall", "mode": "online", "bot": "casual" }),
            "only for mode",
        ),
        (
            json!({ "rules": "kendall", "mode": "online", "seat": 3 }),
            "seat must be",
        ),
    ];
    for (body, needle) in cases {
        let r = call(&a, "POST", "/api/games", None, Some(body)).await;
        is_error(&r, StatusCode::UNPROCESSABLE_ENTITY, needle);
    }
    let big = format!(
        r#"{{"rules":"kendall","mode":"hotseat","options":["{}"]}}"#,
        "x".repeat(40_000)
    );
    let (s, _, _) = raw(&a, "POST", "/api/games", None, Some(&big)).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE);
}

#[tokio::test]
async fn throw_and_move_errors_change_nothing() {
    let a = app();
    let c = create(&a, json!({ "rules": "kendall5", "mode": "online" })).await;
    let id = c["id"].as_str().unwrap();
    let t1 = c["tokens"]["1"].as_str().unwrap();
    let t2 = &claim(&a, &c).await;
    let t2 = t2.as_str();
    let throw = format!("/api/games/{id}/throw");
    let mv = format!("/api/games/{id}/move");
    let before = state(&a, id).await;

    is_error(
        &call(&a, "POST", &throw, None, None).await,
        StatusCode::UNAUTHORIZED,
        "token",
    );
    is_error(
        &call(&a, "POST", &throw, Some("0123456789abcdef"), None).await,
        StatusCode::FORBIDDEN,
        "not a seat token",
    );
    let (s, t, _) = {
        let req = Request::builder()
            .method("POST")
            .uri(&throw)
            .header("authorization", "Basic abc")
            .body(Body::empty())
            .unwrap();
        let res = a.router.clone().oneshot(req).await.unwrap();
        let s = res.status();
        let b = res.into_body().collect().await.unwrap().to_bytes();
        (s, String::from_utf8(b.to_vec()).unwrap(), ())
    };
    assert_eq!(s, StatusCode::BAD_REQUEST, "{t}");
    is_error(
        &call(&a, "POST", &throw, Some(t2), Some(json!({ "seq": 0 }))).await,
        StatusCode::CONFLICT,
        "not your turn",
    );
    is_error(
        &call(
            &a,
            "POST",
            &mv,
            Some(t1),
            Some(json!({ "move": "1-4", "seq": 0 })),
        )
        .await,
        StatusCode::CONFLICT,
        "throw first",
    );
    is_error(
        &call(&a, "POST", &throw, Some(t1), Some(json!({ "seq": 7 }))).await,
        StatusCode::CONFLICT,
        "reload",
    );
    is_error(
        &call(&a, "POST", &throw, Some(t1), None).await,
        StatusCode::BAD_REQUEST,
        "\"seq\" is required",
    );
    is_error(
        &call(
            &a,
            "POST",
            &mv,
            Some(t1),
            Some(json!({ "move": "1-4", "seq": null })),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "\"seq\" is required",
    );
    is_error(
        &call(&a, "POST", &throw, Some(t1), Some(json!({ "seq": "x" }))).await,
        StatusCode::BAD_REQUEST,
        "\"seq\" must be a whole number",
    );
    is_error(
        &call(&a, "POST", "/api/games/nosuchgame/throw", Some(t1), None).await,
        StatusCode::NOT_FOUND,
        "no game",
    );
    assert_eq!(
        state(&a, id).await,
        before,
        "refused requests change nothing"
    );

    // Now a throw: seat 1 must move; throwing again, moving for seat 2, or an illegal move fail.
    let r = call(&a, "POST", &throw, Some(t1), Some(json!({ "seq": 0 }))).await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    assert_eq!(r.1["events_from"], 0);
    assert_eq!(r.1["events"][0]["player"], 1);
    assert!(r.1["events"][0]["throw"].is_string());
    let thrown = state(&a, id).await;
    assert_eq!(thrown["status"]["state"], "move");
    is_error(
        &call(&a, "POST", &throw, Some(t1), Some(json!({ "seq": 1 }))).await,
        StatusCode::CONFLICT,
        "in hand",
    );
    is_error(
        &call(
            &a,
            "POST",
            &mv,
            Some(t2),
            Some(json!({ "move": "1-4", "seq": 1 })),
        )
        .await,
        StatusCode::CONFLICT,
        "not your turn",
    );
    is_error(
        &call(
            &a,
            "POST",
            &mv,
            Some(t1),
            Some(json!({ "move": "30-off", "seq": 1 })),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "30",
    );
    is_error(
        &call(
            &a,
            "POST",
            &mv,
            Some(t1),
            Some(json!({ "move": "🐍".repeat(40), "seq": 1 })),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "64 bytes",
    );
    is_error(
        &call(
            &a,
            "POST",
            &mv,
            Some(t1),
            Some(json!({ "mvoe": "1-4", "seq": 1 })),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "mvoe",
    );
    assert_eq!(
        state(&a, id).await,
        thrown,
        "refused requests change nothing"
    );

    // A legal move is accepted and reported with its effects.
    let legal = thrown["legal"][0]["move"].as_str().unwrap();
    let r = call(
        &a,
        "POST",
        &mv,
        Some(t1),
        Some(json!({ "move": legal, "seq": 1 })),
    )
    .await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    assert_eq!(r.1["events"][0]["move"], legal);
    assert_eq!(r.1["seq"], 2);
}

#[tokio::test]
async fn a_change_is_checked_for_authority_then_sequence_then_content() {
    // Issue 36: a stale move was parsed before its seq was checked (422 where the API says
    // 409), and /next without a token on a game outside a series answered 422 before 401.
    let a = app();
    let c = create(&a, json!({ "rules": "kendall5", "mode": "hotseat" })).await;
    let id = c["id"].as_str().unwrap();
    let t = c["tokens"]["1"].as_str().unwrap();
    let other = create(&a, json!({ "rules": "kendall5", "mode": "hotseat" })).await;
    let stranger = other["tokens"]["1"].as_str().unwrap();
    let (throw, mv, next) = (
        format!("/api/games/{id}/throw"),
        format!("/api/games/{id}/move"),
        format!("/api/games/{id}/next"),
    );
    let r = call(&a, "POST", &throw, Some(t), Some(json!({ "seq": 0 }))).await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    let thrown = state(&a, id).await;
    assert_eq!(thrown["status"]["state"], "move");
    let stale = |body: &str| body.replace("SEQ", "0");
    for (uri, token, body, status, needle) in [
        // A move made on the state before the throw: stale, whatever its move says.
        (
            &mv,
            Some(t),
            stale(r#"{"move":"9-99","seq":SEQ}"#),
            StatusCode::CONFLICT,
            "reload",
        ),
        (
            &mv,
            Some(t),
            stale(r#"{"move":5,"seq":SEQ}"#),
            StatusCode::CONFLICT,
            "reload",
        ),
        (
            &mv,
            Some(t),
            stale(r#"{"move":"1-2","seq":SEQ,"x":1}"#),
            StatusCode::CONFLICT,
            "reload",
        ),
        (
            &throw,
            Some(t),
            stale(r#"{"seq":SEQ,"x":1}"#),
            StatusCode::CONFLICT,
            "reload",
        ),
        (
            &next,
            Some(t),
            stale(r#"{"seq":SEQ}"#),
            StatusCode::CONFLICT,
            "reload",
        ),
        // No token, or another game's: refused for that, whatever the body.
        (
            &mv,
            None,
            stale(r#"{"move":5}"#),
            StatusCode::UNAUTHORIZED,
            "token",
        ),
        (
            &mv,
            None,
            "{not json".to_string(),
            StatusCode::UNAUTHORIZED,
            "token",
        ),
        (
            &next,
            None,
            r#"{"seq":1}"#.to_string(),
            StatusCode::UNAUTHORIZED,
            "token",
        ),
        (
            &next,
            Some(stranger),
            r#"{"seq":1}"#.to_string(),
            StatusCode::FORBIDDEN,
            "not a seat token",
        ),
        (
            &throw,
            Some(stranger),
            stale(r#"{"seq":SEQ}"#),
            StatusCode::FORBIDDEN,
            "not a seat token",
        ),
        // A body with no readable seq, then no seq at all.
        (
            &mv,
            Some(t),
            "{not json".to_string(),
            StatusCode::BAD_REQUEST,
            "not valid JSON",
        ),
        (
            &mv,
            Some(t),
            r#"{"move":5}"#.to_string(),
            StatusCode::BAD_REQUEST,
            "\"seq\" is required",
        ),
        // With the current seq, the content is judged.
        (
            &mv,
            Some(t),
            r#"{"move":5,"seq":1}"#.to_string(),
            StatusCode::BAD_REQUEST,
            "\"move\" must be text",
        ),
        (
            &mv,
            Some(t),
            r#"{"move":"9-99","seq":1}"#.to_string(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "9-99",
        ),
        (
            &throw,
            Some(t),
            r#"{"seq":1}"#.to_string(),
            StatusCode::CONFLICT,
            "in hand",
        ),
        (
            &next,
            Some(t),
            r#"{"seq":1}"#.to_string(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "not part of a series",
        ),
    ] {
        let (s, text, _) = raw(&a, "POST", uri, token, Some(&body)).await;
        let v: Value = serde_json::from_str(&text).unwrap();
        is_error(&(s, v), status, needle);
    }
    assert_eq!(
        state(&a, id).await,
        thrown,
        "refused requests change nothing"
    );
}

#[tokio::test]
async fn a_whole_game_ends_reveals_its_seed_and_its_throws_verify() {
    let a = app();
    let (id, st) = play_out(&a, "kendall5", &[]).await;
    assert_eq!(st["status"]["state"], "over");
    let seed = st["seed"].as_str().unwrap();
    let hash = st["seed_hash"].as_str().unwrap();
    assert_eq!(seeds::commitment(seed.parse().unwrap()), hash);

    // The record replays and its throws follow from the revealed seed.
    let (s, text, h) = raw(&a, "GET", &format!("/api/games/{id}/record"), None, None).await;
    assert_eq!(s, StatusCode::OK);
    assert!(h["content-disposition"]
        .to_str()
        .unwrap()
        .contains("attachment"));
    let rec = Record::from_json(&text).unwrap();
    assert_eq!(rec.seed, Some(seed.parse().unwrap()));
    let rp = rec.replay().unwrap();
    assert_eq!(rp.end.to_string(), st["position"].as_str().unwrap());
    seeds::verify(&rec, hash).unwrap();
    // A changed throw, or another hash, is caught.
    let wrong = seeds::commitment(1);
    assert!(seeds::verify(&rec, &wrong)
        .unwrap_err()
        .contains("hashes to"));
    let mut forged = rec.clone();
    let i = forged
        .events
        .iter()
        .position(|e| matches!(e, senet_rules::Event::Throw { .. }))
        .unwrap();
    let old = match &forged.events[i] {
        senet_rules::Event::Throw { throw } => throw.clone(),
        _ => unreachable!(),
    };
    let other = if old == "1" { "2" } else { "1" };
    forged.events[i] = senet_rules::Event::Throw {
        throw: other.into(),
    };
    assert!(seeds::verify(&forged, hash)
        .unwrap_err()
        .contains("the seed gives"));

    // The throws endpoint gives what the page's verifier needs.
    let (s, t) = call(&a, "GET", &format!("/api/games/{id}/throws"), None, None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(t["seed"], seed);
    let n = rec
        .events
        .iter()
        .filter(|e| matches!(e, senet_rules::Event::Throw { .. }))
        .count();
    assert_eq!(t["throws"].as_array().unwrap().len(), n);

    // Finished games accept nothing.
    let c = a.svc.state(&id).await.unwrap();
    assert!(c.legal.is_empty());
    let r = call(
        &a,
        "GET",
        &format!("/api/games/{id}/hint"),
        Some("00"),
        None,
    )
    .await;
    is_error(&r, StatusCode::FORBIDDEN, "token");

    // Review: every step, and out-of-range steps refused.
    let total = st["seq"].as_u64().unwrap();
    let (s, f) = call(
        &a,
        "GET",
        &format!("/api/games/{id}/review?at=0"),
        None,
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(f["event"], Value::Null);
    assert_eq!(f["total"], total);
    let (_, f) = call(
        &a,
        "GET",
        &format!("/api/games/{id}/review?at={total}"),
        None,
        None,
    )
    .await;
    assert_eq!(f["position"], st["position"]);
    assert_eq!(f["status"]["state"], "over");
    let r = call(
        &a,
        "GET",
        &format!("/api/games/{id}/review?at={}", total + 1),
        None,
        None,
    )
    .await;
    is_error(&r, StatusCode::UNPROCESSABLE_ENTITY, "at must be");
    let r = call(
        &a,
        "GET",
        &format!("/api/games/{id}/review?at=-1"),
        None,
        None,
    )
    .await;
    assert_eq!(r.0, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn moves_throws_hints_and_bot_replies_in_a_bot_game() {
    let a = app();
    let c = create(
        &a,
        json!({ "rules": "kendall", "mode": "bot", "bot": "casual" }),
    )
    .await;
    let id = c["id"].as_str().unwrap();
    let t = c["tokens"]["1"].as_str().unwrap();
    assert!(
        c["tokens"].get("2").is_none(),
        "no token for the bot's seat"
    );
    // Hint needs a token, and a throw in hand.
    let hint = format!("/api/games/{id}/hint");
    is_error(
        &call(&a, "GET", &hint, None, None).await,
        StatusCode::UNAUTHORIZED,
        "token",
    );
    is_error(
        &call(&a, "GET", &hint, Some(t), None).await,
        StatusCode::CONFLICT,
        "throw first",
    );
    // The seed is not revealed while the game runs.
    is_error(
        &call(&a, "GET", &format!("/api/games/{id}/throws"), None, None).await,
        StatusCode::CONFLICT,
        "revealed when the game is over",
    );
    let (_, text, _) = raw(&a, "GET", &format!("/api/games/{id}/record"), None, None).await;
    assert_eq!(Record::from_json(&text).unwrap().seed, None);

    let mut st = c["state"].clone();
    let mut bot_moves = 0;
    for _ in 0..40 {
        if st["status"]["state"] == "over" {
            break;
        }
        assert_eq!(st["status"]["player"], 1, "the bot has played its turns");
        let before = st["seq"].as_u64().unwrap();
        let r = if st["status"]["state"] == "throw" {
            call(
                &a,
                "POST",
                &format!("/api/games/{id}/throw"),
                Some(t),
                Some(json!({ "seq": st["seq"] })),
            )
            .await
        } else {
            let (s, h) = call(&a, "GET", &hint, Some(t), None).await;
            assert_eq!(s, StatusCode::OK, "{h}");
            assert!(st["legal"]
                .as_array()
                .unwrap()
                .iter()
                .any(|m| m["move"] == h["move"]));
            call(
                &a,
                "POST",
                &format!("/api/games/{id}/move"),
                Some(t),
                Some(json!({ "move": h["move"], "seq": st["seq"] })),
            )
            .await
        };
        // The answer holds the player's own event only: the bot replies afterwards.
        assert_eq!(r.0, StatusCode::OK, "{}", r.1);
        assert_eq!(r.1["seq"].as_u64().unwrap(), before + 1);
        st = settled(&a, id).await;
        bot_moves += st["events"].as_array().unwrap()[before as usize + 1..]
            .iter()
            .filter(|e| e["player"] == 2 && e["move"].is_string())
            .count();
    }
    assert!(bot_moves > 0, "the bot answered");
}

#[tokio::test]
async fn lists_static_files_openapi_and_unknown_paths() {
    let a = app();
    let g1 = create(&a, json!({ "rules": "kendall", "mode": "hotseat" })).await;
    let g2 = create(&a, json!({ "rules": "kendall5", "mode": "hotseat" })).await;
    let ids = format!(
        "{},{},nosuchgame,bad!id",
        g1["id"].as_str().unwrap(),
        g2["id"].as_str().unwrap()
    );
    let (s, l) = call(&a, "GET", &format!("/api/games?ids={ids}"), None, None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(l["games"].as_array().unwrap().len(), 2);
    assert_eq!(l["games"][0]["state"], "throw");
    let many = vec!["a"; 101].join(",");
    is_error(
        &call(&a, "GET", &format!("/api/games?ids={many}"), None, None).await,
        StatusCode::BAD_REQUEST,
        "at most 100",
    );

    for path in ["/", "/g/abc", "/g/abc/review", "/l/0a1b2c3d"] {
        let (s, t, h) = raw(&a, "GET", path, None, None).await;
        assert_eq!(s, StatusCode::OK);
        assert!(t.contains(r#"<script type="module" src="/static/main.js">"#));
        assert!(h["content-security-policy"]
            .to_str()
            .unwrap()
            .contains("default-src 'self'"));
    }
    // Every module the page imports is served; no module imports anything from elsewhere.
    let mut seen = vec!["main.js".to_string()];
    let mut i = 0;
    while i < seen.len() {
        let (s, t, h) = raw(&a, "GET", &format!("/static/{}", seen[i]), None, None).await;
        assert_eq!(s, StatusCode::OK, "{}", seen[i]);
        assert!(h["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/javascript"));
        // No external resources: the only URL in the script is the SVG namespace name.
        let t = t.replace("'http://www.w3.org/2000/svg'", "");
        assert!(
            !t.contains("http://") && !t.contains("https://"),
            "no external resources in {}",
            seen[i]
        );
        // A worker's script is loaded by the page too (the engine's, issue 54).
        for w in t.split("new Worker('/static/").skip(1) {
            let file = w.split('\'').next().unwrap().to_string();
            if !seen.contains(&file) {
                seen.push(file);
            }
        }
        for line in t.lines().filter(|l| l.starts_with("import ")) {
            let from = line
                .split(" from './")
                .nth(1)
                .expect("imports are relative");
            let file = from.trim_end_matches("';").to_string();
            if !seen.contains(&file) {
                seen.push(file);
            }
        }
        i += 1;
    }
    assert_eq!(seen.len(), senet_server::web::SCRIPTS.len(), "{seen:?}");
    let (_, t, _) = raw(&a, "GET", "/static/verify.js", None, None).await;
    assert!(t.contains("export function verifyThrows"));
    // The page's engine (issue 54): served as WebAssembly when this server was built with
    // it, else refused in words (the page then asks the server).
    let (s, body, h) = raw(&a, "GET", "/static/senet_engine.wasm", None, None).await;
    if senet_server::web::has_engine() {
        assert_eq!(s, StatusCode::OK);
        assert_eq!(h["content-type"], "application/wasm");
        assert!(senet_server::web::ENGINE_WASM.starts_with(b"\0asm"));
    } else {
        assert_eq!(s, StatusCode::NOT_FOUND);
        assert!(body.contains("without the page's engine"), "{body}");
    }
    let (s, _, _) = raw(&a, "GET", "/static/app.js", None, None).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "the one script of old is gone");
    let (_, page, _) = raw(&a, "GET", "/", None, None).await;
    assert!(!page.contains("http://") && !page.contains("https://"));
    let (s, _, _) = raw(&a, "GET", "/static/style.css", None, None).await;
    assert_eq!(s, StatusCode::OK);
    // The service worker (issue 54): its version and its list filled in, and every page,
    // asset and rule set it keeps at install answers (one failure would fail its install).
    let (s, sw, h) = raw(&a, "GET", "/sw.js", None, None).await;
    assert_eq!(s, StatusCode::OK);
    assert!(h["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/javascript"));
    assert!(!sw.contains("__VERSION__") && !sw.contains("__ASSETS__"));
    let list = sw
        .lines()
        .find_map(|l| l.strip_prefix("const ASSETS = "))
        .expect("the asset list");
    let list: Vec<String> = serde_json::from_str(list.trim_end_matches(';')).unwrap();
    for (name, _) in senet_server::web::SCRIPTS {
        assert!(list.contains(&format!("/static/{name}")), "{name} is kept");
    }
    assert_eq!(
        list.contains(&"/static/senet_engine.wasm".to_string()),
        senet_server::web::has_engine()
    );
    for path in &list {
        let (s, _, _) = raw(&a, "GET", path, None, None).await;
        assert_eq!(s, StatusCode::OK, "{path}");
    }
    let (s, m, h) = raw(&a, "GET", "/manifest.webmanifest", None, None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(h["content-type"], "application/manifest+json");
    let m: Value = serde_json::from_str(&m).unwrap();
    assert_eq!(m["start_url"], "/");
    for icon in m["icons"].as_array().unwrap() {
        let (s, _, h) = raw(&a, "GET", icon["src"].as_str().unwrap(), None, None).await;
        assert_eq!(s, StatusCode::OK, "{icon}");
        assert_eq!(h["content-type"], icon["type"].as_str().unwrap());
    }
    let (s, _, _) = raw(&a, "GET", "/static/../../etc/passwd", None, None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    is_error(
        &call(&a, "GET", "/api/nothing", None, None).await,
        StatusCode::NOT_FOUND,
        "openapi",
    );
    is_error(
        &call(&a, "GET", "/api/games/x!y", None, None).await,
        StatusCode::NOT_FOUND,
        "no game",
    );
    let (s, _) = call(&a, "DELETE", "/api/games", None, None).await;
    assert_eq!(s, StatusCode::METHOD_NOT_ALLOWED);

    // The OpenAPI document is JSON and describes every API route.
    let (s, doc) = call(&a, "GET", "/api/openapi.json", None, None).await;
    assert_eq!(s, StatusCode::OK);
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    for p in [
        "/api/rules",
        "/api/games",
        "/api/games/{id}",
        "/api/games/{id}/throw",
        "/api/games/{id}/move",
        "/api/games/{id}/hint",
        "/api/games/{id}/record",
        "/api/games/{id}/review",
        "/api/games/{id}/throws",
        "/api/games/{id}/ws",
        "/api/openapi.json",
    ] {
        assert!(doc["paths"].get(p).is_some(), "{p} is not documented");
    }
}

#[tokio::test]
async fn the_rate_limit_answers_429_and_leaves_pages_alone() {
    let a = app_with(Limits {
        per_second: 0.001,
        burst: 3,
        ..Limits::default()
    });
    for _ in 0..3 {
        assert_eq!(
            call(&a, "GET", "/api/rules", None, None).await.0,
            StatusCode::OK
        );
    }
    let (s, _, h) = raw(&a, "GET", "/api/rules", None, None).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(h["retry-after"], "1");
    assert_eq!(raw(&a, "GET", "/", None, None).await.0, StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bot_work_of_one_client_runs_one_search_at_a_time_beside_the_answers() {
    // Eight bot searches may run at once on the server, one per client address.
    let svc = Service::with_bot_limits(Arc::new(SqliteStore::in_memory().unwrap()), 8, 1);
    let a = App {
        router: router(
            svc.clone(),
            Limits {
                per_second: 0.0,
                ..Limits::default()
            },
        ),
        svc,
    };
    // Six games whose expert bot starts: every create is answered before its bot has moved.
    let mut ids = Vec::new();
    for _ in 0..6 {
        let c = create(
            &a,
            json!({ "rules": "kendall", "mode": "bot", "bot": "expert", "seat": 2 }),
        )
        .await;
        assert_eq!(c["state"]["seq"], 0, "the bot has not acted in the answer");
        ids.push(c["id"].as_str().unwrap().to_string());
    }
    for id in &ids {
        let st = settled(&a, id).await;
        assert_eq!(st["status"]["player"], 2);
    }
    assert_eq!(
        a.svc.peak_bot_work(),
        1,
        "one client's bots ran one at a time"
    );
}

#[tokio::test]
async fn a_refused_claim_keeps_the_creators_connection_and_the_claim_reaches_it() {
    use tokio::sync::broadcast::error::TryRecvError;
    let a = app();
    let c = create(&a, json!({ "rules": "kendall5", "mode": "online" })).await;
    let id = c["id"].as_str().unwrap();
    let t1 = c["tokens"]["1"].as_str().unwrap();
    // The creator waits for the friend on the game's live connection.
    let mut sub = a
        .svc
        .subscribe(
            std::net::IpAddr::from([10, 0, 0, 1]),
            id,
            senet_server::service::Who::token(Some(t1)),
        )
        .await
        .unwrap();
    while sub.rx.try_recv().is_ok() {}
    // A wrong code is refused; the server looks again at the stored game, and the creator's
    // connection stays open (it used to be dropped with the cached game).
    let claim_uri = format!("/api/games/{id}/claim");
    let r = call(
        &a,
        "POST",
        &claim_uri,
        None,
        Some(json!({ "code": "0000" })),
    )
    .await;
    is_error(&r, StatusCode::FORBIDDEN, "not this game's invite");
    match sub.rx.try_recv() {
        Err(TryRecvError::Empty) | Ok(_) => {}
        Err(e) => panic!("the creator's connection was dropped by a refused claim: {e:?}"),
    }
    // The right code claims the seat, and the creator hears of it on the same connection.
    claim(&a, &c).await;
    let mut heard = Vec::new();
    loop {
        match sub.rx.try_recv() {
            Ok(m) => heard.push(serde_json::from_str::<Value>(&m).unwrap()),
            Err(TryRecvError::Empty) => break,
            Err(e) => panic!("the creator's connection was dropped: {e:?}"),
        }
    }
    assert!(
        heard
            .iter()
            .any(|m| m["type"] == "invite" && m["claimed"] == true),
        "{heard:?}"
    );
    a.svc.unsubscribe(&sub).await;
}

#[tokio::test]
async fn an_invite_is_claimed_once_by_its_claimer_and_the_creator_can_revoke_it() {
    let a = app();
    let c = create(&a, json!({ "rules": "kendall5", "mode": "online" })).await;
    let id = c["id"].as_str().unwrap();
    let t1 = c["tokens"]["1"].as_str().unwrap();
    // The creator holds seat 1's token only: nothing in the answer acts for seat 2.
    assert_eq!(c["tokens"].as_object().unwrap().len(), 1);
    assert!(!c.to_string().contains("token="), "{c}");
    let code = invite_code(&c);
    let claim_uri = format!("/api/games/{id}/claim");
    is_error(
        &call(
            &a,
            "POST",
            &claim_uri,
            None,
            Some(json!({ "code": "0000" })),
        )
        .await,
        StatusCode::FORBIDDEN,
        "not this game's invite",
    );
    is_error(
        &call(&a, "POST", &claim_uri, None, Some(json!({}))).await,
        StatusCode::BAD_REQUEST,
        "code",
    );
    let r = call(&a, "POST", &claim_uri, None, Some(json!({ "code": code }))).await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    assert_eq!(r.1["seat"], 2);
    let t2 = r.1["token"].as_str().unwrap().to_string();
    assert_ne!(t2, t1);
    assert_eq!(r.1["state"]["invite_open"], false);
    // A claimed invite cannot be claimed again, on this server or after a restart of it.
    is_error(
        &call(&a, "POST", &claim_uri, None, Some(json!({ "code": code }))).await,
        StatusCode::CONFLICT,
        "already been claimed",
    );
    a.svc.clear_cache();
    is_error(
        &call(&a, "POST", &claim_uri, None, Some(json!({ "code": code }))).await,
        StatusCode::CONFLICT,
        "already been claimed",
    );
    // The claimer's token plays seat 2; the creator's token does not.
    let r = call(
        &a,
        "POST",
        &format!("/api/games/{id}/throw"),
        Some(t1),
        Some(json!({ "seq": state(&a, id).await["seq"] })),
    )
    .await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    let st = state(&a, id).await;
    if st["status"]["player"] == 2 {
        is_error(
            &call(
                &a,
                "POST",
                &format!("/api/games/{id}/throw"),
                Some(t1),
                Some(json!({ "seq": state(&a, id).await["seq"] })),
            )
            .await,
            StatusCode::CONFLICT,
            "not your turn",
        );
    }
    // Revoking needs the creator's token and an unclaimed seat.
    let inv = format!("/api/games/{id}/invite");
    is_error(
        &call(&a, "DELETE", &inv, Some(t1), None).await,
        StatusCode::CONFLICT,
        "already been claimed",
    );

    let c = create(
        &a,
        json!({ "rules": "kendall5", "mode": "online", "seat": 2 }),
    )
    .await;
    let id = c["id"].as_str().unwrap();
    let t2 = c["tokens"]["2"].as_str().unwrap();
    let code = invite_code(&c);
    let inv = format!("/api/games/{id}/invite");
    is_error(
        &call(&a, "DELETE", &inv, None, None).await,
        StatusCode::UNAUTHORIZED,
        "token",
    );
    let r = call(&a, "DELETE", &inv, Some(t2), None).await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    assert_eq!(r.1["invite"], Value::Null);
    assert_eq!(state(&a, id).await["invite_open"], false);
    let claim_uri = format!("/api/games/{id}/claim");
    is_error(
        &call(&a, "POST", &claim_uri, None, Some(json!({ "code": code }))).await,
        StatusCode::CONFLICT,
        "revoked",
    );
    // A new invite replaces it; only the new code claims seat 1.
    let r = call(&a, "POST", &inv, Some(t2), None).await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    let code2 = invite_code(&r.1);
    is_error(
        &call(&a, "POST", &claim_uri, None, Some(json!({ "code": code }))).await,
        StatusCode::FORBIDDEN,
        "not this game's invite",
    );
    let r = call(&a, "POST", &claim_uri, None, Some(json!({ "code": code2 }))).await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    assert_eq!(r.1["seat"], 1);
}

#[tokio::test]
async fn creating_games_keeps_the_cache_within_its_cap() {
    let a = app();
    a.svc.set_max_live(50);
    let mut ids = Vec::new();
    for _ in 0..300 {
        let c = create(&a, json!({ "rules": "kendall5", "mode": "hotseat" })).await;
        ids.push(c["id"].as_str().unwrap().to_string());
        assert!(
            a.svc.cached_games() <= 50,
            "{} cached",
            a.svc.cached_games()
        );
    }
    // Dropped games are reloaded from the store.
    assert_eq!(state(&a, &ids[0]).await["seq"], 0);
}

/// A GET of /api/rules with an X-Forwarded-For header.
async fn rules_from(a: &App, forwarded: &str) -> StatusCode {
    let req = Request::builder()
        .uri("/api/rules")
        .header("x-forwarded-for", forwarded)
        .body(Body::empty())
        .unwrap();
    a.router.clone().oneshot(req).await.unwrap().status()
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_forwarded_client_has_its_own_rate_limit() {
    // The requests come from 127.0.0.1 (no peer address in these tests).
    let limits = Limits {
        per_second: 0.001,
        burst: 2,
        ..Limits::default()
    };
    let proxied = app_with(Limits {
        trusted_proxies: vec!["127.0.0.1".parse().unwrap()],
        ..limits.clone()
    });
    for client in ["203.0.113.7", "198.51.100.2, 203.0.113.8"] {
        for _ in 0..2 {
            assert_eq!(rules_from(&proxied, client).await, StatusCode::OK);
        }
        assert_eq!(
            rules_from(&proxied, client).await,
            StatusCode::TOO_MANY_REQUESTS
        );
    }
    // The client is the last address before the proxy: a forged first entry does not
    // give a fresh bucket.
    assert_eq!(
        rules_from(&proxied, "192.0.2.99, 203.0.113.7").await,
        StatusCode::TOO_MANY_REQUESTS
    );
    // Without the setting the header is ignored: all share the proxy's address.
    let direct = app_with(limits);
    assert_eq!(rules_from(&direct, "203.0.113.7").await, StatusCode::OK);
    assert_eq!(rules_from(&direct, "203.0.113.8").await, StatusCode::OK);
    assert_eq!(
        rules_from(&direct, "203.0.113.9").await,
        StatusCode::TOO_MANY_REQUESTS
    );
}

/// A GET of /api/rules with no X-Forwarded-For header (from the proxy itself).
async fn rules_unforwarded(a: &App) -> StatusCode {
    let req = Request::builder()
        .uri("/api/rules")
        .body(Body::empty())
        .unwrap();
    a.router.clone().oneshot(req).await.unwrap().status()
}

#[tokio::test]
async fn behind_a_trusted_proxy_an_unparsable_forwarded_entry_is_its_own_client_never_the_proxy() {
    // Issue 36: an entry that is no address made the client count as the proxy, so that
    // every such request spent the one bucket all of the proxy's traffic falls back on.
    let proxied = app_with(Limits {
        per_second: 0.001,
        burst: 2,
        trusted_proxies: vec!["127.0.0.1".parse().unwrap()],
        ..Limits::default()
    });
    // `unknown` (what some proxies write) is a client of its own: its bucket runs out...
    for _ in 0..2 {
        assert_eq!(rules_from(&proxied, "unknown").await, StatusCode::OK);
    }
    assert_eq!(
        rules_from(&proxied, "unknown").await,
        StatusCode::TOO_MANY_REQUESTS
    );
    // ...and the proxy's own bucket, and every other client's, is untouched.
    assert_eq!(rules_unforwarded(&proxied).await, StatusCode::OK);
    assert_eq!(rules_from(&proxied, "garbage").await, StatusCode::OK);
    // Junk that a client put left of the proxy's entry is never read: the client is the
    // address the proxy wrote.
    for _ in 0..2 {
        assert_eq!(
            rules_from(&proxied, "not-an-ip, 198.51.100.5").await,
            StatusCode::OK
        );
    }
    assert_eq!(
        rules_from(&proxied, "198.51.100.5").await,
        StatusCode::TOO_MANY_REQUESTS
    );
    // An entry with a port names the address.
    assert_eq!(
        rules_from(&proxied, "198.51.100.6:5124").await,
        StatusCode::OK
    );
    assert_eq!(
        rules_from(&proxied, "[2001:db8::6]:443").await,
        StatusCode::OK
    );
    assert_eq!(rules_from(&proxied, "198.51.100.6").await, StatusCode::OK);
    assert_eq!(
        rules_from(&proxied, "198.51.100.6").await,
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(rules_from(&proxied, "2001:db8::6").await, StatusCode::OK);
    assert_eq!(
        rules_from(&proxied, "2001:db8::6").await,
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(rules_unforwarded(&proxied).await, StatusCode::OK);
}

#[tokio::test]
async fn watchers_are_capped_per_game_and_address_and_joining_costs_no_message_per_watcher() {
    use std::net::IpAddr;
    let a = app();
    a.svc.set_watch_limits(300, 100);
    let c = create(&a, json!({ "rules": "kendall5", "mode": "hotseat" })).await;
    let id = c["id"].as_str().unwrap();
    let ip = |n: u32| IpAddr::from((0x0a00_0000u32 + n / 100).to_be_bytes());
    // The first watcher, then 299 more from three addresses.
    let mut first = a
        .svc
        .subscribe(ip(0), id, senet_server::service::Who::default())
        .await
        .unwrap();
    let mut subs = Vec::new();
    for n in 1..300 {
        subs.push(
            a.svc
                .subscribe(ip(n), id, senet_server::service::Who::default())
                .await
                .unwrap(),
        );
    }
    // Over the cap of the game: refused with 429 and a reason.
    let e = a
        .svc
        .subscribe(ip(500), id, senet_server::service::Who::default())
        .await
        .err()
        .unwrap();
    assert!(e.message().contains("300 live connections"), "{e:?}");
    for s in subs.drain(..) {
        a.svc.unsubscribe(&s).await;
    }
    // 299 joins and 299 leaves told the first watcher in a handful of messages, not 598.
    tokio::time::sleep(std::time::Duration::from_millis(700)).await;
    let mut told = 0;
    let mut last = Value::Null;
    while let Ok(m) = first.rx.try_recv() {
        told += 1;
        last = serde_json::from_str(&m).unwrap();
    }
    assert!((1..=4).contains(&told), "{told} presence messages");
    assert_eq!(last["watchers"]["spectators"], 1, "{last}");
    // Per address: the 101st connection of one address is refused; others still join.
    let mut mine = Vec::new();
    for _ in 0..99 {
        mine.push(
            a.svc
                .subscribe(ip(0), id, senet_server::service::Who::default())
                .await
                .unwrap(),
        );
    }
    let e = a
        .svc
        .subscribe(ip(0), id, senet_server::service::Who::default())
        .await
        .err()
        .unwrap();
    assert!(
        e.message().contains("this address already has 100"),
        "{e:?}"
    );
    assert!(a
        .svc
        .subscribe(ip(100), id, senet_server::service::Who::default())
        .await
        .is_ok());
}

#[tokio::test]
async fn games_survive_a_restart_from_the_database_file() {
    let dir = std::env::temp_dir().join(format!("senet-api-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("games.sqlite");
    let _ = std::fs::remove_file(&db);
    let open = || {
        let svc = Service::new(Arc::new(SqliteStore::open(&db).unwrap()));
        App {
            router: router(
                svc.clone(),
                Limits {
                    per_second: 0.0,
                    ..Limits::default()
                },
            ),
            svc,
        }
    };
    let a = open();
    let c = create(
        &a,
        json!({ "rules": "kendall", "mode": "bot", "bot": "beginner" }),
    )
    .await;
    let id = c["id"].as_str().unwrap().to_string();
    let t = c["tokens"]["1"].as_str().unwrap().to_string();
    let mut last = Value::Null;
    for _ in 0..10 {
        let st = settled(&a, &id).await;
        last = if st["status"]["state"] == "throw" {
            call(
                &a,
                "POST",
                &format!("/api/games/{id}/throw"),
                Some(&t),
                Some(json!({ "seq": state(&a, &id).await["seq"] })),
            )
            .await
            .1
        } else {
            let m = st["legal"][0]["move"].clone();
            call(
                &a,
                "POST",
                &format!("/api/games/{id}/move"),
                Some(&t),
                Some(json!({ "move": m, "seq": st["seq"] })),
            )
            .await
            .1
        };
    }
    let before = settled(&a, &id).await;
    assert!(before["seq"].as_u64() >= last["seq"].as_u64());
    drop(a);
    // A new server on the same file: the same game, the same tokens, and play goes on.
    let b = open();
    let after = state(&b, &id).await;
    assert_eq!(after, before);
    b.svc.clear_cache();
    let r = if after["status"]["state"] == "throw" {
        call(
            &b,
            "POST",
            &format!("/api/games/{id}/throw"),
            Some(&t),
            Some(json!({ "seq": state(&b, &id).await["seq"] })),
        )
        .await
    } else {
        let m = after["legal"][0]["move"].clone();
        call(
            &b,
            "POST",
            &format!("/api/games/{id}/move"),
            Some(&t),
            Some(json!({ "move": m, "seq": after["seq"] })),
        )
        .await
    };
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn websocket_pushes_moves_to_players_and_spectators() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;

    let svc = Service::new(Arc::new(SqliteStore::in_memory().unwrap()));
    let app = router(
        svc.clone(),
        Limits {
            per_second: 0.0,
            ..Limits::default()
        },
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(
            listener,
            app.into_make_service_with_connect_info::<std::net::SocketAddr>(),
        )
        .await
        .unwrap()
    });
    let a = App {
        router: router(svc.clone(), Limits::default()),
        svc,
    };
    let c = create(&a, json!({ "rules": "kendall5", "mode": "online" })).await;
    let id = c["id"].as_str().unwrap();
    let t1 = c["tokens"]["1"].as_str().unwrap();
    let t2 = &claim(&a, &c).await;
    let t2 = t2.as_str();

    let url = |q: &str| format!("ws://{addr}/api/games/{id}/ws{q}");
    // A wrong token is refused before the upgrade.
    let e = tokio_tungstenite::connect_async(url("?token=bad"))
        .await
        .unwrap_err();
    assert!(e.to_string().contains("403"), "{e}");
    let e = tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/nosuch/ws"))
        .await
        .unwrap_err();
    assert!(e.to_string().contains("404"), "{e}");

    let (mut p2, _) = tokio_tungstenite::connect_async(url(&format!("?token={t2}")))
        .await
        .unwrap();
    let (mut spec, _) = tokio_tungstenite::connect_async(url("")).await.unwrap();
    async fn next_of(
        ws: &mut (impl StreamExt<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin),
        kind: &str,
    ) -> Value {
        loop {
            let m = tokio::time::timeout(std::time::Duration::from_secs(5), ws.next())
                .await
                .expect("a message in time")
                .unwrap()
                .unwrap();
            if let Message::Text(t) = m {
                let v: Value = serde_json::from_str(&t).unwrap();
                if v["type"] == kind {
                    return v;
                }
            }
        }
    }
    let first = next_of(&mut p2, "state").await;
    assert_eq!(first["seq"], 0);
    let first = next_of(&mut spec, "state").await;
    assert_eq!(first["watchers"]["seats"], json!([false, true]));

    let r = call(
        &a,
        "POST",
        &format!("/api/games/{id}/throw"),
        Some(t1),
        Some(json!({ "seq": state(&a, id).await["seq"] })),
    )
    .await;
    assert_eq!(r.0, StatusCode::OK);
    for ws in [&mut p2, &mut spec] {
        let u = next_of(ws, "update").await;
        assert_eq!(u["seq"], 1);
        assert_eq!(u["events_from"], 0);
        assert_eq!(u["events"][0]["throw"], r.1["events"][0]["throw"]);
    }
    // A reconnecting browser gets the whole state again.
    p2.close(None).await.unwrap();
    let (mut p2, _) = tokio_tungstenite::connect_async(url(&format!("?token={t2}")))
        .await
        .unwrap();
    let again = next_of(&mut p2, "state").await;
    assert_eq!(again["seq"], 1);
    assert_eq!(again["events"].as_array().unwrap().len(), 1);
    // Spectators cannot act: the API needs a seat token for every change.
    p2.send(Message::Text("hello".into())).await.unwrap();
    assert_eq!(state(&a, id).await["seq"], 1);
}

#[tokio::test]
async fn garbage_requests_get_4xx_never_a_failure() {
    let a = app();
    let c = create(&a, json!({ "rules": "kendall", "mode": "hotseat" })).await;
    let id = c["id"].as_str().unwrap().to_string();
    let t1 = c["tokens"]["1"].as_str().unwrap().to_string();
    // A fixed pseudo-random sequence of bodies, paths and queries (SplitMix64).
    let mut rng = senet_rules::seed::SplitMix(12345);
    let mut next = move || rng.next_u64();
    let pieces = [
        "{",
        "}",
        "\"move\"",
        ":",
        "\"rules\"",
        "\"mode\"",
        "null",
        "[",
        "]",
        ",",
        "1e999",
        "-1",
        "\"\\u0000\"",
        "\"kendall\"",
        "\"online\"",
        "true",
        "\"seq\"",
        "4294967296",
        "\"é\"",
    ];
    let paths = [
        "/api/games".to_string(),
        format!("/api/games/{id}/throw"),
        format!("/api/games/{id}/move"),
    ];
    for i in 0..300 {
        let n = next() % 12;
        let body: String = (0..n)
            .map(|_| pieces[(next() % pieces.len() as u64) as usize])
            .collect();
        let path = &paths[i % paths.len()];
        let (s, text, _) = raw(&a, "POST", path, Some(&t1), Some(&body)).await;
        assert!(
            s.is_client_error() || s.is_success(),
            "POST {path} {body:?} gave {s}: {text}"
        );
        if !s.is_success() {
            let v: Value = serde_json::from_str(&text).unwrap();
            assert!(v["error"].is_string(), "{text}");
        }
    }
    for q in [
        "at=abc",
        "at=99999999999999999999",
        "at=",
        "ids=,,,",
        "x=%ff",
    ] {
        for p in [
            format!("/api/games/{id}/review?{q}"),
            format!("/api/games?{q}"),
        ] {
            let (s, text, _) = raw(&a, "GET", &p, None, None).await;
            assert!(
                s.is_client_error() || s.is_success(),
                "GET {p} gave {s}: {text}"
            );
        }
    }
    for p in [
        "/api/games/%00",
        "/api/games/a%2Fb/throw",
        "/api/games/ü",
        "/g/%zz",
    ] {
        let (s, text, _) = raw(&a, "GET", p, None, None).await;
        assert!(
            s.is_client_error() || s.is_success(),
            "GET {p} gave {s}: {text}"
        );
    }
}

#[tokio::test]
async fn bad_bodies_are_explained_in_words_naming_the_field() {
    let a = app();
    let c = create(&a, json!({ "rules": "kendall5", "mode": "hotseat" })).await;
    let id = c["id"].as_str().unwrap();
    let t = c["tokens"]["1"].as_str().unwrap();
    let mv = format!("/api/games/{id}/move");
    for (uri, body, want) in [
        (
            "/api/games",
            r#"{"rules":"kendall","mode":"hotseat","series":{"points":"x"}}"#,
            r#""series" must be {"points": N} or {"games": N}"#,
        ),
        (
            "/api/games",
            r#"{"rules":"kendall","mode":"online","seat":"x"}"#,
            r#""seat" must be a whole number, not the text "x""#,
        ),
        (
            "/api/games",
            r#"{"rules":5,"mode":"online"}"#,
            r#""rules" must be text, not the number 5"#,
        ),
        (
            "/api/games",
            r#"{"mode":"online"}"#,
            r#"the request body needs the field "rules""#,
        ),
        (
            "/api/games",
            r#"{"rules":"kendall","mode":"online","colour":1}"#,
            r#"unknown field "colour" in the request body; the fields are: rules, options"#,
        ),
        (
            "/api/games",
            r#"{"rules":"kendall","mode":"online","options":"cap=3"}"#,
            r#""options" must be a list, not the text "cap=3""#,
        ),
        ("/api/games", "[1]", "must be a JSON object"),
        ("/api/games", r#"{"rules":"kendall""#, "not valid JSON"),
        (
            mv.as_str(),
            r#"{"seq":-1}"#,
            r#""seq" must be a whole number from 0 to 4294967295, not the number -1"#,
        ),
        (
            mv.as_str(),
            r#"{"seq":0,"move":1}"#,
            r#""move" must be text, not the number 1"#,
        ),
        (
            mv.as_str(),
            r#"{"seq":0,"mv":"1-3"}"#,
            r#"unknown field "mv" in the request body; the fields are: move, seq"#,
        ),
    ] {
        let (s, text, _) = raw(&a, "POST", uri, Some(t), Some(body)).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{body}: {text}");
        let v: Value = serde_json::from_str(&text).unwrap();
        let m = v["error"].as_str().unwrap();
        assert!(m.contains(want), "{body}: {m:?} should say {want:?}");
        for rust in ["Some(", "untagged", "u32", "u8", "`", "line 1 column"] {
            assert!(!m.contains(rust), "{body}: {m:?} has {rust:?}");
        }
    }
    let r = call(
        &a,
        "GET",
        &format!("/api/games/{id}/review?at=x"),
        None,
        None,
    )
    .await;
    is_error(
        &r,
        StatusCode::BAD_REQUEST,
        r#""at" must be a whole number"#,
    );
}

#[tokio::test]
async fn whole_numbers_with_a_zero_fraction_are_whole_numbers() {
    // Issue 36: `"seq": 853.0` was refused though the document's `integer` allows it (JSON
    // Schema: any number whose fraction is zero).
    let a = app();
    let c = create(
        &a,
        json!({ "rules": "kendall5", "mode": "online", "seat": 2.0 }),
    )
    .await;
    assert!(c["tokens"]["2"].is_string(), "{c}");
    let c = create(&a, json!({ "rules": "kendall5", "mode": "hotseat" })).await;
    let id = c["id"].as_str().unwrap();
    let t = c["tokens"]["1"].as_str().unwrap();
    let throw = format!("/api/games/{id}/throw");
    let (s, text, _) = raw(&a, "POST", &throw, Some(t), Some(r#"{"seq": 0.0}"#)).await;
    assert_eq!(s, StatusCode::OK, "{text}");
    let st = state(&a, id).await;
    let legal = st["legal"][0]["move"].as_str().unwrap();
    let body = format!(r#"{{"move": "{legal}", "seq": 1e0}}"#);
    let (s, text, _) = raw(
        &a,
        "POST",
        &format!("/api/games/{id}/move"),
        Some(t),
        Some(&body),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{text}");
    // A fraction, or a number past the field's range, is still refused in words.
    for (body, want) in [
        (
            r#"{"seq": 2.5}"#,
            r#""seq" must be a whole number from 0 to 4294967295, not the number 2.5"#,
        ),
        (
            r#"{"seq": 4294967296.0}"#,
            r#""seq" must be a whole number from 0 to 4294967295, not the number 4294967296"#,
        ),
        (
            r#"{"seq": -1.0}"#,
            r#""seq" must be a whole number from 0 to 4294967295, not the number -1"#,
        ),
    ] {
        let (s, text, _) = raw(&a, "POST", &throw, Some(t), Some(body)).await;
        let v: Value = serde_json::from_str(&text).unwrap();
        is_error(&(s, v), StatusCode::BAD_REQUEST, want);
    }
}

#[tokio::test]
async fn malformed_json_is_explained_in_words() {
    // Issue 36: a misspelt `true` or a word without quotes answered "expected ident".
    let a = app();
    for (body, want) in [
        (r#"{"rules": "kendall", "mode": hotseat}"#, "a value was expected (text in double quotes, a number, true, false, null, [...] or {...}) (line 1, column"),
        (r#"{"rules": "kendall", "mode": nul}"#, "a word that is not true, false or null (text must be in double quotes) (line 1, column"),
        (r#"{"rules": "kendall", "mode": "hotseat", "seat": tru}"#, "a word that is not true, false or null"),
        (r#"{"rules": "kendall""#, "it ends inside an object"),
        (r#"{"rules": "kendall",}"#, "a comma (,) before a closing } or ] is not allowed"),
        (r#"{rules: 1}"#, "a field name must be text in double quotes"),
        (r#"{"rules": "kendall"} x"#, "there is more after the JSON value"),
    ] {
        let (s, text, _) = raw(&a, "POST", "/api/games", None, Some(body)).await;
        let v: Value = serde_json::from_str(&text).unwrap();
        is_error(&(s, v.clone()), StatusCode::BAD_REQUEST, want);
        let m = v["error"].as_str().unwrap();
        assert!(m.starts_with("the request body is not valid JSON: "), "{m}");
        for raw in ["ident", "EOF", "`"] {
            assert!(!m.contains(raw), "{body}: {m:?} has {raw:?}");
        }
    }
}

#[tokio::test]
async fn a_game_without_an_invite_says_so_when_one_is_claimed_renewed_or_revoked() {
    // Issue 36: claiming a hot-seat game answered "already claimed".
    let a = app();
    for (mode, bot, words) in [
        ("hotseat", None, "this is a hot-seat game"),
        ("bot", Some("beginner"), "this is a game against a bot"),
    ] {
        let c = create(&a, json!({ "rules": "kendall5", "mode": mode, "bot": bot })).await;
        let id = c["id"].as_str().unwrap();
        let t = c["tokens"]["1"].as_str().unwrap();
        let uri = format!("/api/games/{id}/claim");
        let r = call(&a, "POST", &uri, None, Some(json!({ "code": "0123abcd" }))).await;
        is_error(&r, StatusCode::CONFLICT, words);
        let m = r.1["error"].as_str().unwrap();
        assert!(
            m.contains("no invite to claim") && !m.contains("already"),
            "{m}"
        );
        let uri = format!("/api/games/{id}/invite");
        for (method, what) in [("POST", "renew"), ("DELETE", "revoke")] {
            let r = call(&a, method, &uri, Some(t), None).await;
            is_error(&r, StatusCode::CONFLICT, &format!("no invite to {what}"));
            assert!(
                !r.1["error"].as_str().unwrap().contains("already"),
                "{}",
                r.1
            );
        }
    }
}
