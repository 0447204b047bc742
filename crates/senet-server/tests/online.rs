//! Online play through the API (issue 33, docs/online.md): players and accounts, CSRF,
//! login limits, seeks taken once under races, quick pairing, clocks and flag falls, claims
//! after leaving, resign, abort, rematch, ratings applied once, player pages.

mod support {
    pub mod online;
}

use axum::http::StatusCode;
use axum::Router;
use senet_server::sql::Val;
use senet_server::{players, router, Limits, Service, SqliteStore, Store};
use serde_json::{json, Value};
use std::sync::Arc;
use support::online::{play_out, seek_and_accept, Browser};

fn open() -> Limits {
    Limits {
        per_second: 0.0,
        // Every simulated player comes from loopback.
        per_address: senet_server::service::AddressLimits::off(),
        ..Limits::default()
    }
}

/// A server on an in-memory SQLite store; the store too, to reach behind the API.
fn server() -> (Router, Arc<Service>, Arc<dyn Store>) {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
    let svc = Service::new(store.clone());
    (router(svc.clone(), open()), svc, store)
}

fn is_error(r: &(StatusCode, Value), status: StatusCode, needle: &str) {
    assert_eq!(r.0, status, "{}", r.1);
    let m = r.1["error"].as_str().unwrap_or_default().to_lowercase();
    assert!(m.contains(&needle.to_lowercase()), "{m:?} lacks {needle:?}");
}

#[tokio::test]
async fn a_visitor_becomes_a_named_player_and_keeps_it_across_browsers_with_an_account() {
    let (app, _, _) = server();
    let mut a = Browser::new(&app);
    is_error(
        &a.call("GET", "/api/me", None).await,
        StatusCode::UNAUTHORIZED,
        "POST /api/me",
    );
    let (s, me) = a.call("POST", "/api/me", None).await;
    assert_eq!(s, StatusCode::CREATED);
    assert_eq!(me["account"], false);
    let generated = me["name"].as_str().unwrap().to_string();
    assert!(generated.len() >= 3);
    // The cookie is the session: POST again keeps the player.
    let (s, again) = a.call("POST", "/api/me", None).await;
    assert_eq!((s, &again["id"]), (StatusCode::OK, &me["id"]));
    // Rename; names are unique without regard to case and refuse tricks.
    let (s, r) = a
        .call("PATCH", "/api/me", Some(json!({"name": "Imhotep"})))
        .await;
    assert_eq!(
        (s, r["name"].as_str()),
        (StatusCode::OK, Some("Imhotep")),
        "{r}"
    );
    let mut b = Browser::join(&app).await;
    is_error(
        &b.call("PATCH", "/api/me", Some(json!({"name": "imHOTEP"})))
            .await,
        StatusCode::CONFLICT,
        "taken",
    );
    is_error(
        &b.call("PATCH", "/api/me", Some(json!({"name": "Imho\u{200B}tep"})))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invisible",
    );
    // An account keeps the player on another browser; passwords never come back.
    let (s, acc) = a
        .call(
            "POST",
            "/api/account",
            Some(json!({"name": "Imhotep", "password": "step pyramid"})),
        )
        .await;
    assert_eq!(
        (s, &acc["account"]),
        (StatusCode::OK, &json!(true)),
        "{acc}"
    );
    assert!(!acc.to_string().contains("step pyramid"));
    let mut other = Browser::new(&app);
    let (s, signed) = other
        .call(
            "POST",
            "/api/login",
            Some(json!({"name": "IMHOTEP", "password": "step pyramid"})),
        )
        .await;
    assert_eq!((s, &signed["id"]), (StatusCode::OK, &me["id"]), "{signed}");
    // Unknown name and wrong password: the same answer.
    let wrong = Browser::new(&app)
        .call(
            "POST",
            "/api/login",
            Some(json!({"name": "Imhotep", "password": "wrong one!"})),
        )
        .await;
    let unknown = Browser::new(&app)
        .call(
            "POST",
            "/api/login",
            Some(json!({"name": "Nobody", "password": "wrong one!"})),
        )
        .await;
    assert_eq!(wrong, unknown);
    is_error(&wrong, StatusCode::UNAUTHORIZED, "wrong name or password");
    // Password change ends the other sessions; the old password stops working.
    is_error(
        &a.call(
            "POST",
            "/api/password",
            Some(json!({"old": "not it at all", "new": "bent pyramid"})),
        )
        .await,
        StatusCode::FORBIDDEN,
        "old password",
    );
    let (s, _) = a
        .call(
            "POST",
            "/api/password",
            Some(json!({"old": "step pyramid", "new": "bent pyramid"})),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    is_error(
        &other.call("GET", "/api/me", None).await,
        StatusCode::UNAUTHORIZED,
        "session",
    );
    assert_eq!(a.call("GET", "/api/me", None).await.0, StatusCode::OK);
    // Sign out everywhere.
    let mut c = Browser::new(&app);
    c.call(
        "POST",
        "/api/login",
        Some(json!({"name": "imhotep", "password": "bent pyramid"})),
    )
    .await;
    let (s, _) = c
        .call("POST", "/api/logout", Some(json!({"everywhere": true})))
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(c.cookie, None, "the cookie is cleared");
    is_error(
        &a.call("GET", "/api/me", None).await,
        StatusCode::UNAUTHORIZED,
        "session",
    );
}

#[tokio::test]
async fn a_cookie_write_without_the_csrf_token_is_refused() {
    let (app, _, _) = server();
    let mut a = Browser::join(&app).await;
    let r = a
        .send("PATCH", "/api/me", Some(json!({"name": "Forged"})), false)
        .await;
    is_error(&r, StatusCode::FORBIDDEN, "X-CSRF-Token");
    let seek = json!({"rules": "kendall5", "clock": {"minutes": 5, "increment": 3}});
    is_error(
        &a.send("POST", "/api/seeks", Some(seek.clone()), false)
            .await,
        StatusCode::FORBIDDEN,
        "X-CSRF-Token",
    );
    // Another session's token does not do either.
    let b = Browser::join(&app).await;
    a.csrf = b.csrf.clone();
    is_error(
        &a.call("POST", "/api/seeks", Some(seek)).await,
        StatusCode::FORBIDDEN,
        "X-CSRF-Token",
    );
    assert_eq!(
        Browser::new(&app).call("GET", "/api/seeks", None).await.1,
        json!([])
    );
}

#[tokio::test]
async fn login_attempts_are_limited_per_name() {
    let (app, _, _) = server();
    let mut a = Browser::join(&app).await;
    a.call(
        "POST",
        "/api/account",
        Some(json!({"name": "Khufu", "password": "great pyramid"})),
    )
    .await;
    let mut last = (StatusCode::OK, Value::Null);
    for _ in 0..11 {
        last = Browser::new(&app)
            .call(
                "POST",
                "/api/login",
                Some(json!({"name": "khufu", "password": "guess guess"})),
            )
            .await;
    }
    is_error(
        &last,
        StatusCode::TOO_MANY_REQUESTS,
        "too many sign-in attempts",
    );
    // Even the right password waits now.
    let right = Browser::new(&app)
        .call(
            "POST",
            "/api/login",
            Some(json!({"name": "khufu", "password": "great pyramid"})),
        )
        .await;
    assert_eq!(right.0, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seek_is_taken_exactly_once_when_many_accept_at_the_same_moment() {
    let (app, _, _) = server();
    // A second server on the same store.
    let (app2, _, store) = server();
    let _ = store;
    let mut a = Browser::join(&app).await;
    for round in 0..5 {
        let (s, seek) = a
            .call(
                "POST",
                "/api/seeks",
                Some(json!({"rules": "kendall5", "rated": false, "clock": {"days": 3}})),
            )
            .await;
        assert_eq!(s, StatusCode::CREATED, "{seek}");
        let sid = seek["id"].as_str().unwrap().to_string();
        let mut takers = Vec::new();
        for _ in 0..6 {
            takers.push(Browser::join(&app).await);
        }
        let tasks: Vec<_> = takers
            .into_iter()
            .map(|mut b| {
                let uri = format!("/api/seeks/{sid}/accept");
                tokio::spawn(async move { b.call("POST", &uri, None).await })
            })
            .collect();
        let mut won = 0;
        for t in tasks {
            let (s, v) = t.await.unwrap();
            match s {
                StatusCode::CREATED => won += 1,
                StatusCode::CONFLICT => assert!(v["error"].as_str().unwrap().contains("seek")),
                s => panic!("{s}: {v}"),
            }
        }
        assert_eq!(won, 1, "round {round}");
    }
    let _ = app2;
    // Own seeks cannot be accepted; at most 3 open.
    let (_, mine) = a
        .call(
            "POST",
            "/api/seeks",
            Some(json!({"rules": "kendall5", "clock": {"minutes": 3, "increment": 2}})),
        )
        .await;
    let sid = mine["id"].as_str().unwrap();
    is_error(
        &a.call("POST", &format!("/api/seeks/{sid}/accept"), None)
            .await,
        StatusCode::CONFLICT,
        "own seek",
    );
    for _ in 0..2 {
        a.call(
            "POST",
            "/api/seeks",
            Some(json!({"rules": "kendall5", "clock": {"minutes": 3, "increment": 2}})),
        )
        .await;
    }
    is_error(
        &a.call(
            "POST",
            "/api/seeks",
            Some(json!({"rules": "kendall5", "clock": {"minutes": 3, "increment": 2}})),
        )
        .await,
        StatusCode::CONFLICT,
        "3 open seeks",
    );
    is_error(
        &a.call(
            "POST",
            "/api/seeks",
            Some(json!({"rules": "kendall5", "clock": {"days": 30}})),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "1 to 14",
    );
    let (s, _) = a.call("DELETE", &format!("/api/seeks/{sid}"), None).await;
    assert_eq!(s, StatusCode::OK);
}

#[tokio::test]
async fn quick_pairing_pairs_two_waiting_players_of_the_same_settings() {
    let (app, _, _) = server();
    let mut a = Browser::join(&app).await;
    let mut b = Browser::join(&app).await;
    let mut c = Browser::join(&app).await;
    let want = json!({"rules": "kendall5", "clock": {"minutes": 5, "increment": 3}});
    let (s, w) = a.call("POST", "/api/pairing", Some(want.clone())).await;
    assert_eq!(s, StatusCode::ACCEPTED, "{w}");
    // Another clock does not pair.
    let (s, _) = c
        .call(
            "POST",
            "/api/pairing",
            Some(json!({"rules": "kendall5", "clock": {"minutes": 3, "increment": 2}})),
        )
        .await;
    assert_eq!(s, StatusCode::ACCEPTED);
    // The waiting list is not the lobby's seeks.
    assert_eq!(b.call("GET", "/api/seeks", None).await.1, json!([]));
    let (s, p) = b.call("POST", "/api/pairing", Some(want)).await;
    assert_eq!(s, StatusCode::OK, "{p}");
    let game = p["game"].as_str().unwrap();
    let (_, st) = a.call("GET", &format!("/api/games/{game}"), None).await;
    let you_a = st["you"].as_u64().unwrap();
    assert_eq!(you_a + p["seat"].as_u64().unwrap(), 3, "{st}");
    assert_eq!(st["clock"]["spec"]["text"], "5+3");
    assert_eq!(st["rated"], true);
    assert_eq!(st["players"][you_a as usize - 1]["id"], json!(a.id()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_on_a_clock_changes_both_ratings_once_and_shows_on_the_player_page() {
    let (app, _, store) = server();
    let mut a = Browser::join(&app).await;
    let mut b = Browser::join(&app).await;
    let game = seek_and_accept(&mut a, &mut b, true).await;
    // A spectator (no seat) sees the game in the live list.
    let (_, live) = Browser::new(&app).call("GET", "/api/live", None).await;
    assert_eq!(live[0]["id"], json!(game), "{live}");
    let (_, st) = a.call("GET", &format!("/api/games/{game}"), None).await;
    assert_eq!(
        st["clock"]["running"], st["status"]["player"],
        "{}",
        st["clock"]
    );
    // A player cannot act in the other's seat.
    let other = if st["you"] == 1 { &mut b } else { &mut a };
    let r = other
        .call(
            "POST",
            &format!("/api/games/{game}/throw"),
            Some(json!({"seq": 0})),
        )
        .await;
    is_error(&r, StatusCode::CONFLICT, "not your turn");
    let end = play_out(&mut a, &mut b, &game).await;
    assert_eq!(end["result"]["reason"], "rules", "{}", end["result"]);
    // The ratings are applied once, in the background.
    let mut change = Value::Null;
    for _ in 0..100 {
        let (_, st) = a.call("GET", &format!("/api/games/{game}"), None).await;
        change = st["rating_change"].clone();
        if !change.is_null() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let d: Vec<i64> = change
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap())
        .collect();
    assert!(
        d[0] != 0 && d[0] == -d[1],
        "equal ratings move by equal amounts: {d:?}"
    );
    let winner = end["result"]["winner"].as_u64().unwrap() as usize;
    assert!(d[winner - 1] > 0);
    // Applying again changes nothing.
    assert_eq!(players::apply_ratings(&*store, &game, 0).unwrap(), None);
    let (sum, deltas, n) = players::rating_sums(&*store).unwrap();
    assert_eq!(n, 2);
    assert!((sum - deltas).abs() < 1e-6, "{sum} vs {deltas}");
    // The player page and /api/me show it; the rating is provisional.
    let name = a.me["name"].as_str().unwrap().to_string();
    let (s, page) = Browser::new(&app)
        .call("GET", &format!("/api/players/{name}"), None)
        .await;
    assert_eq!(s, StatusCode::OK, "{page}");
    assert_eq!(page["games"][0]["id"], json!(game));
    assert!(page["games"][0]["delta"].as_i64().is_some());
    assert_eq!(page["ratings"][0]["history"].as_array().unwrap().len(), 1);
    assert_eq!(page["ratings"][0]["provisional"], true);
    let (_, me) = a.call("GET", "/api/me", None).await;
    assert_eq!(me["ratings"][0]["rules"], "kendall5");
    // Nobody is settled after one game: the leaderboard is empty.
    let (_, lb) = a.call("GET", "/api/leaderboard/kendall5", None).await;
    assert_eq!(lb["players"], json!([]));
    // Rematch: one offers, the other accepts; the seats are swapped.
    let (s, r) = a
        .call("POST", &format!("/api/games/{game}/rematch"), None)
        .await;
    assert_eq!((s, &r["game"]), (StatusCode::OK, &Value::Null), "{r}");
    let (_, r) = b
        .call("POST", &format!("/api/games/{game}/rematch"), None)
        .await;
    let next = r["game"].as_str().expect("the rematch").to_string();
    let (_, st2) = a.call("GET", &format!("/api/games/{next}"), None).await;
    assert_eq!(st2["players"][0]["id"], st["players"][1]["id"]);
    assert_eq!(st2["players"][1]["id"], st["players"][0]["id"]);
    let (_, old) = a.call("GET", &format!("/api/games/{game}"), None).await;
    assert_eq!(old["rematch"]["game"], json!(next));
}

/// Moves a game's clock `ms` into the past (as if that much time had gone by), behind the
/// API's back, and makes the server read it again.
fn age_clock(store: &dyn Store, svc: &Service, id: &str, ms: i64) {
    players::run(store, |tx| {
        let rows = tx.rows(
            "SELECT clock_state, deadline FROM games WHERE id = $1",
            &[id.into()],
        )?;
        let c = senet_server::online::ClockState::parse(rows[0][0].text().unwrap()).unwrap();
        let mut c2 = c;
        c2.since -= ms;
        tx.exec(
            "UPDATE games SET clock_state = $1, deadline = $2 WHERE id = $3",
            &[c2.text().into(), c2.deadline().into(), Val::from(id)],
        )
    })
    .unwrap();
    svc.clear_cache();
}

async fn wait_over(a: &mut Browser, id: &str) -> Value {
    for _ in 0..60 {
        let (_, st) = a.call("GET", &format!("/api/games/{id}"), None).await;
        if st["status"]["state"] == "over" {
            return st;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("game {id} did not end");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_fall_ends_the_game_as_a_loss_and_a_side_that_never_moved_aborts_it() {
    let (app, svc, store) = server();
    let mut a = Browser::join(&app).await;
    let mut b = Browser::join(&app).await;
    // Nobody moves: the first side's flag aborts the game.
    let game = seek_and_accept(&mut a, &mut b, true).await;
    age_clock(&*store, &svc, &game, 11 * 60_000);
    let st = wait_over(&mut a, &game).await;
    assert_eq!(st["result"], json!({"winner": null, "reason": "abort"}));
    assert_eq!(st["clock"]["running"], Value::Null);
    // Each side moves once, then the side to act runs out: a loss.
    let game = seek_and_accept(&mut a, &mut b, true).await;
    let (_, st) = a.call("GET", &format!("/api/games/{game}"), None).await;
    let (first, second) = if st["you"] == 1 {
        (&mut a, &mut b)
    } else {
        (&mut b, &mut a)
    };
    let mut moved = [false; 2];
    while !(moved[0] && moved[1]) {
        let st = first.play_turn(&game).await;
        moved[0] = true;
        if st["status"]["player"] == 1 {
            continue;
        }
        second.play_turn(&game).await;
        moved[1] = true;
    }
    let (_, st) = first.call("GET", &format!("/api/games/{game}"), None).await;
    let to_act = st["status"]["player"].as_u64().unwrap();
    let left = st["clock"]["remaining"][to_act as usize - 1]
        .as_i64()
        .unwrap();
    assert!(left > 9 * 60_000, "{}", st["clock"]);
    age_clock(&*store, &svc, &game, left + 1);
    let st = wait_over(first, &game).await;
    assert_eq!(st["result"]["reason"], "flag", "{}", st["result"]);
    assert_eq!(st["result"]["winner"], json!(3 - to_act));
    assert_eq!(st["clock"]["remaining"][to_act as usize - 1], 0);
    // Decided once: acting after it is refused.
    let r = first
        .call(
            "POST",
            &format!("/api/games/{game}/throw"),
            Some(json!({"seq": st["seq"]})),
        )
        .await;
    assert_eq!(r.0, StatusCode::CONFLICT);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_gone_60_s_lets_the_other_claim_the_win_and_resign_and_abort_end_games() {
    let (app, svc, store) = server();
    let mut a = Browser::join(&app).await;
    let mut b = Browser::join(&app).await;
    let game = seek_and_accept(&mut a, &mut b, false).await;
    let (_, st) = a.call("GET", &format!("/api/games/{game}"), None).await;
    let sa = st["you"].as_u64().unwrap() as u8;
    // b left 30 s ago: too early to claim.
    let now = senet_server::service::now_ms();
    players::set_away(&*store, &game, 3 - sa, Some(now - 30_000)).unwrap();
    svc.clear_cache();
    let (_, st) = a.call("GET", &format!("/api/games/{game}"), None).await;
    let claim_in = st["away"]["claim_in"].as_i64().unwrap();
    assert!((29_000..=30_000).contains(&claim_in), "{}", st["away"]);
    is_error(
        &a.call("POST", &format!("/api/games/{game}/claim-win"), None)
            .await,
        StatusCode::CONFLICT,
        "after 60 s",
    );
    // The one who left cannot claim.
    is_error(
        &b.call("POST", &format!("/api/games/{game}/claim-win"), None)
            .await,
        StatusCode::CONFLICT,
        "no win to claim",
    );
    players::set_away(&*store, &game, 3 - sa, Some(now - 61_000)).unwrap();
    svc.clear_cache();
    let (s, st) = a
        .call("POST", &format!("/api/games/{game}/claim-win"), None)
        .await;
    assert_eq!(s, StatusCode::OK, "{st}");
    assert_eq!(st["result"], json!({"winner": sa, "reason": "claim"}));
    // Resign.
    let game = seek_and_accept(&mut a, &mut b, false).await;
    let (s, st) = b
        .call("POST", &format!("/api/games/{game}/resign"), None)
        .await;
    assert_eq!(s, StatusCode::OK, "{st}");
    assert_eq!(st["result"]["reason"], "resign");
    is_error(
        &a.call("POST", &format!("/api/games/{game}/resign"), None)
            .await,
        StatusCode::CONFLICT,
        "over",
    );
    // Abort before both moved; not after.
    let game = seek_and_accept(&mut a, &mut b, false).await;
    let (s, st) = a
        .call("POST", &format!("/api/games/{game}/abort"), None)
        .await;
    assert_eq!(
        (s, &st["result"]["reason"]),
        (StatusCode::OK, &json!("abort"))
    );
    // A stranger cannot end anyone's game.
    let mut c = Browser::join(&app).await;
    let game = seek_and_accept(&mut a, &mut b, false).await;
    is_error(
        &c.call("POST", &format!("/api/games/{game}/resign"), None)
            .await,
        StatusCode::FORBIDDEN,
        "not a player",
    );
    is_error(
        &Browser::new(&app)
            .call("POST", &format!("/api/games/{game}/resign"), None)
            .await,
        StatusCode::UNAUTHORIZED,
        "token",
    );
}

/// Plays each side's first turn (so that both have moved) and returns the state.
async fn both_move_once(a: &mut Browser, b: &mut Browser, game: &str) -> Value {
    let (_, st) = a.call("GET", &format!("/api/games/{game}"), None).await;
    let (first, second) = if st["you"] == 1 { (a, b) } else { (b, a) };
    let mut moved = [false; 2];
    let mut st = Value::Null;
    while !(moved[0] && moved[1]) {
        st = first.play_turn(game).await;
        moved[0] = true;
        if st["status"]["state"] == "over" || st["status"]["player"] == st["you"] {
            continue;
        }
        st = second.play_turn(game).await;
        moved[1] = true;
    }
    let (_, st2) = first.call("GET", &format!("/api/games/{game}"), None).await;
    let _ = st;
    st2
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_is_a_draw_when_the_other_side_can_no_longer_win_before_the_cap() {
    let (app, svc, store) = server();
    let mut a = Browser::join(&app).await;
    let mut b = Browser::join(&app).await;
    // A turn cap of 11 decisions, played one action at a time until both sides have moved and
    // 7 decisions are made: then each side has at most 4 decisions left for its five pieces.
    // (Bonus throws give one side several decisions in a row, so whole turns could run into
    // the cap; single actions stop exactly there, unless one side's first turn alone makes
    // 10 decisions.)
    let (s, seek) = a
        .call(
            "POST",
            "/api/seeks",
            Some(json!({"rules": "kendall5", "options": ["cap=11"], "clock": {"minutes": 1, "increment": 0}})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{seek}");
    let sid = seek["id"].as_str().unwrap();
    let (_, p) = b
        .call("POST", &format!("/api/seeks/{sid}/accept"), None)
        .await;
    let game = p["game"].as_str().unwrap().to_string();
    let decisions = |st: &Value| -> u32 {
        let pos = st["position"].as_str().unwrap();
        pos.split_whitespace()
            .find_map(|t| t.strip_prefix("dec="))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no dec= in {pos}"))
    };
    let mut moved = [false; 2];
    for _ in 0..200 {
        let (_, st) = a.call("GET", &format!("/api/games/{game}"), None).await;
        assert_ne!(st["status"]["state"], "over", "{}", st["status"]);
        if moved[0] && moved[1] && decisions(&st) >= 7 {
            break;
        }
        let player = st["status"]["player"].as_u64().unwrap();
        let seat = if st["you"].as_u64() == Some(player) {
            &mut a
        } else {
            &mut b
        };
        if let (_, Some(true)) = seat.act_once(&game).await {
            moved[player as usize - 1] = true;
        }
    }
    let (_, st) = a.call("GET", &format!("/api/games/{game}"), None).await;
    assert!(
        decisions(&st) >= 7 && decisions(&st) < 11,
        "{}",
        st["position"]
    );
    age_clock(&*store, &svc, &game, 10 * 60_000);
    let st = wait_over(&mut a, &game).await;
    assert_eq!(
        st["result"],
        json!({"winner": null, "reason": "flag-draw"}),
        "{}",
        st["status"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clocks_survive_a_server_restart() {
    let dir = std::env::temp_dir().join(format!("senet-online-restart-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("restart.sqlite");
    let _ = std::fs::remove_file(&db);
    let (game, before, mut a);
    {
        let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&db).unwrap());
        let app = router(Service::new(store), open());
        a = Browser::join(&app).await;
        let mut b = Browser::join(&app).await;
        game = seek_and_accept(&mut a, &mut b, true).await;
        let st = both_move_once(&mut a, &mut b, &game).await;
        before = st["clock"].clone();
        assert!(before["remaining"][0].as_i64().unwrap() > 0, "{before}");
    }
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    // A new server on the same file: the clock goes on from where it was.
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&db).unwrap());
    let app = router(Service::new(store), open());
    let mut a = a.on(&app);
    let (_, st) = a.call("GET", &format!("/api/games/{game}"), None).await;
    let after = &st["clock"];
    assert_eq!(after["running"], before["running"]);
    let r = before["running"].as_u64().unwrap() as usize - 1;
    let (b0, a0) = (
        before["remaining"][r].as_i64().unwrap(),
        after["remaining"][r].as_i64().unwrap(),
    );
    assert!(a0 < b0 && a0 > b0 - 5_000, "running side: {b0} then {a0}");
    assert_eq!(after["remaining"][1 - r], before["remaining"][1 - r]);
    // The increment was given: each side has more than the 10 minutes minus its thinking.
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn the_session_cookie_is_httponly_samesite_and_secure_behind_a_tls_proxy() {
    use axum::body::Body;
    use axum::extract::ConnectInfo;
    use axum::http::Request;
    use tower::ServiceExt;
    let proxy: std::net::IpAddr = [10, 0, 0, 1].into();
    let svc = Service::new(Arc::new(SqliteStore::in_memory().unwrap()));
    let app = router(
        svc,
        Limits {
            per_second: 0.0,
            trusted_proxies: vec![proxy],
            ..Limits::default()
        },
    );
    for (peer, proto, secure) in [
        (proxy, "https", true),
        (proxy, "http", false),
        ([192, 0, 2, 9].into(), "https", false),
    ] {
        let mut req = Request::builder()
            .method("POST")
            .uri("/api/me")
            .header("x-forwarded-proto", proto)
            .header("x-forwarded-for", "203.0.113.5")
            .body(Body::empty())
            .unwrap();
        req.extensions_mut()
            .insert(ConnectInfo(std::net::SocketAddr::new(peer, 4000)));
        let res = app.clone().oneshot(req).await.unwrap();
        let c = res.headers()["set-cookie"].to_str().unwrap().to_string();
        assert!(c.contains("HttpOnly") && c.contains("SameSite=Lax"), "{c}");
        assert_eq!(c.contains("Secure"), secure, "{peer} {proto}: {c}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_made_with_a_session_is_the_players_on_any_browser_signed_in() {
    let (app, _, _) = server();
    let mut a = Browser::join(&app).await;
    a.call(
        "POST",
        "/api/account",
        Some(json!({"name": "Senenmut", "password": "temple of amun"})),
    )
    .await;
    let (s, g) = a
        .call(
            "POST",
            "/api/games",
            Some(json!({"rules": "kendall5", "mode": "bot", "bot": "beginner", "seat": 2})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    // Another browser signs in: the game is listed, and it can play without the seat token.
    let mut other = Browser::new(&app);
    other
        .call(
            "POST",
            "/api/login",
            Some(json!({"name": "senenmut", "password": "temple of amun"})),
        )
        .await;
    let (_, me) = other.call("GET", "/api/me", None).await;
    assert_eq!(me["playing"], json!([id]), "{me}");
    let mut st = Value::Null;
    for _ in 0..100 {
        let (_, s2) = other.call("GET", &format!("/api/games/{id}"), None).await;
        if s2["status"]["player"] == 2 {
            st = s2;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(st["you"], 2, "{st}");
    assert_eq!(st["players"][1]["name"], "Senenmut");
    let st = other.play_turn(&id).await;
    assert!(st["seq"].as_u64().unwrap() > 0);
    // A stranger's session has no seat there.
    let mut c = Browser::join(&app).await;
    let (_, s3) = c.call("GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(s3["you"], Value::Null);
}

#[tokio::test]
async fn a_password_never_comes_back_in_an_answer() {
    let (app, _, _) = server();
    let mut a = Browser::join(&app).await;
    for body in [
        json!({"name": "Teti", "password": 987654321}),
        json!({"name": "Teti", "password": "hunter22", "extra": "hunter22"}),
        json!({"name": 5, "password": "hunter22"}),
    ] {
        for path in ["/api/account", "/api/login"] {
            let (s, v) = a.call("POST", path, Some(body.clone())).await;
            assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
            let t = v.to_string();
            assert!(!t.contains("987654321") && !t.contains("hunter22"), "{t}");
        }
    }
    let (s, v) = a
        .call(
            "POST",
            "/api/password",
            Some(json!({"old": 123456789, "new": "x"})),
        )
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(!v.to_string().contains("123456789"), "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_seek_left_unanswered_for_30_minutes_is_withdrawn_and_correspondence_stays() {
    let (app, _, store) = server();
    let mut a = Browser::join(&app).await;
    for clock in [json!({"minutes": 5, "increment": 3}), json!({"days": 3})] {
        let (s, _) = a
            .call(
                "POST",
                "/api/seeks",
                Some(json!({"rules": "kendall5", "clock": clock})),
            )
            .await;
        assert_eq!(s, StatusCode::CREATED);
    }
    // Both made 31 minutes ago.
    players::run(&*store, |tx| {
        tx.exec(
            "UPDATE seeks SET created = created - $1",
            &[Val::Int(31 * 60_000)],
        )
    })
    .unwrap();
    let mut left = Value::Null;
    for _ in 0..40 {
        let (_, v) = a.call("GET", "/api/seeks", None).await;
        left = v;
        if left.as_array().unwrap().len() == 1 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    }
    assert_eq!(left.as_array().unwrap().len(), 1, "{left}");
    assert_eq!(left[0]["clock"]["days"], 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_rated_game_shows_the_ratings_it_made_and_rated_games_give_no_hints() {
    let (app, _, _) = server();
    let mut a = Browser::join(&app).await;
    let mut b = Browser::join(&app).await;
    let first = seek_and_accept(&mut a, &mut b, true).await;
    // No hints between people on a clock.
    let (_, st) = a.call("GET", &format!("/api/games/{first}"), None).await;
    let to_act = if st["you"] == st["status"]["player"] {
        &mut a
    } else {
        &mut b
    };
    is_error(
        &to_act
            .call("GET", &format!("/api/games/{first}/hint"), None)
            .await,
        StatusCode::FORBIDDEN,
        "no hints",
    );
    play_out(&mut a, &mut b, &first).await;
    let wait_change = |id: String, mut who: Browser| async move {
        for _ in 0..100 {
            let (_, st) = who.call("GET", &format!("/api/games/{id}"), None).await;
            if !st["rating_change"].is_null() {
                return st;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        panic!("no rating change on {id}");
    };
    let after_first = wait_change(first.clone(), a.clone()).await;
    let second = seek_and_accept(&mut a, &mut b, true).await;
    play_out(&mut a, &mut b, &second).await;
    wait_change(second, a.clone()).await;
    // The first game still shows the ratings it made, not today's.
    let (_, again) = a.call("GET", &format!("/api/games/{first}"), None).await;
    assert_eq!(again["players"], after_first["players"]);
    let (_, me) = a.call("GET", "/api/me", None).await;
    let mine = after_first["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == me["id"])
        .unwrap()["rating"]
        .clone();
    assert_ne!(
        me["ratings"][0]["rating"], mine,
        "two games moved the rating twice"
    );
}
