//! Challenges and tournaments through the API (issue 57; the arena on two servers is in
//! postgres.rs). Challenges: a player challenges another by name; only the
//! challenged player sees it as incoming and may accept it; accepting makes the game between
//! the two with the challenge's clock and rating; declining and withdrawing end it; both
//! lobbies are told; bad requests are refused in words; a challenge is never a lobby seek.

mod support {
    pub mod online;
}

use axum::http::StatusCode;
use senet_server::{router, Limits, Service, SqliteStore};
use serde_json::{json, Value};
use std::sync::Arc;
use support::online::Browser;

fn is_error(r: &(StatusCode, Value), status: StatusCode, needle: &str) {
    assert_eq!(r.0, status, "{}", r.1);
    let e = r.1["error"].as_str().unwrap_or_default();
    assert!(e.contains(needle), "{e:?} lacks {needle:?}");
}

/// A server on an in-memory SQLite database with no rate limits: its service, its router
/// and its store.
fn server() -> (
    Arc<Service>,
    axum::Router,
    Arc<dyn senet_server::store::Store>,
) {
    let store: Arc<dyn senet_server::store::Store> = Arc::new(SqliteStore::in_memory().unwrap());
    let svc = Service::new(store.clone());
    let app = router(
        svc.clone(),
        Limits {
            per_second: 0.0,
            per_address: senet_server::service::AddressLimits::off(),
            ..Limits::default()
        },
    );
    (svc, app, store)
}

async fn named(app: &axum::Router, name: &str) -> Browser {
    let mut b = Browser::join(app).await;
    let (s, me) = b
        .call("PATCH", "/api/me", Some(json!({ "name": name })))
        .await;
    assert_eq!(s, StatusCode::OK, "{me}");
    b
}

#[tokio::test]
async fn a_challenge_by_name_is_seen_accepted_declined_and_withdrawn_by_the_right_players() {
    let (svc, app, _) = server();
    let mut ramses = named(&app, "Ramses").await;
    let mut nefertari = named(&app, "Nefertari").await;
    let mut other = named(&app, "Imhotep").await;
    let (_, mut lobby) = svc.lobby_subscribe().await;

    let body = json!({ "player": "nefertari", "rules": "kendall5", "rated": true, "clock": { "minutes": 5, "increment": 3 } });
    let (s, c) = ramses
        .call("POST", "/api/challenges", Some(body.clone()))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{c}");
    assert_eq!(c["from"]["name"], "Ramses");
    assert_eq!(c["to"]["name"], "Nefertari");
    assert_eq!(c["rated"], true);
    let cid = c["id"].as_str().unwrap().to_string();
    // Both lobbies are told, with the two player IDs only.
    let m = lobby.recv().await.unwrap();
    let m: Value = serde_json::from_str(&m).unwrap();
    assert_eq!(m["type"], "challenges", "{m}");
    assert_eq!(m["players"], json!([ramses.id(), nefertari.id()]));
    assert!(m.get("rules").is_none());
    // Not a lobby seek.
    let (_, seeks) = other.call("GET", "/api/seeks", None).await;
    assert_eq!(seeks, json!([]), "a challenge is not listed");
    // Seen by the two, each on their side; by nobody else.
    let (_, mine) = ramses.call("GET", "/api/challenges", None).await;
    assert_eq!(mine["outgoing"][0]["id"], cid.as_str());
    assert_eq!(mine["incoming"], json!([]));
    let (_, theirs) = nefertari.call("GET", "/api/challenges", None).await;
    assert_eq!(theirs["incoming"][0]["id"], cid.as_str());
    let (_, none) = other.call("GET", "/api/challenges", None).await;
    assert_eq!(none, json!({ "incoming": [], "outgoing": [] }));

    // Refused in words.
    is_error(
        &ramses
            .call("POST", "/api/challenges", Some(body.clone()))
            .await,
        StatusCode::CONFLICT,
        "challenged Nefertari already",
    );
    is_error(
        &ramses
            .call(
                "POST",
                "/api/challenges",
                Some(json!({ "player": "ramses", "rules": "kendall5", "clock": { "days": 3 } })),
            )
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "yourself",
    );
    is_error(
        &ramses
            .call(
                "POST",
                "/api/challenges",
                Some(json!({ "player": "Nobody", "rules": "kendall5", "clock": { "days": 3 } })),
            )
            .await,
        StatusCode::NOT_FOUND,
        "no player named \"Nobody\"",
    );
    is_error(
        &ramses
            .call(
                "POST",
                "/api/challenges",
                Some(json!({ "player": "Imhotep", "rules": "chess", "clock": { "days": 3 } })),
            )
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "chess",
    );
    is_error(
        &other
            .call("POST", &format!("/api/challenges/{cid}/accept"), None)
            .await,
        StatusCode::NOT_FOUND,
        "no open challenge",
    );
    is_error(
        &other
            .call("POST", &format!("/api/seeks/{cid}/accept"), None)
            .await,
        StatusCode::CONFLICT,
        "a challenge to another player",
    );
    is_error(
        &ramses
            .call("POST", &format!("/api/challenges/{cid}/accept"), None)
            .await,
        StatusCode::CONFLICT,
        "your own challenge",
    );
    is_error(
        &nefertari
            .call("DELETE", &format!("/api/challenges/{cid}"), None)
            .await,
        StatusCode::NOT_FOUND,
        "to withdraw",
    );
    is_error(
        &ramses
            .call("POST", &format!("/api/challenges/{cid}/decline"), None)
            .await,
        StatusCode::NOT_FOUND,
        "to decline",
    );
    is_error(
        &nefertari
            .send(
                "POST",
                &format!("/api/challenges/{cid}/accept"),
                None,
                false,
            )
            .await,
        StatusCode::FORBIDDEN,
        "X-CSRF-Token",
    );

    // Accepted: a rated game on the clock between the two.
    let (s, paired) = nefertari
        .call("POST", &format!("/api/challenges/{cid}/accept"), None)
        .await;
    assert_eq!(s, StatusCode::CREATED, "{paired}");
    let game = paired["game"].as_str().unwrap();
    let (_, st) = nefertari
        .call("GET", &format!("/api/games/{game}"), None)
        .await;
    assert_eq!(st["rated"], true);
    assert_eq!(st["mode"], "online");
    assert!(st["clock"].is_object(), "{st}");
    let mut names: Vec<&str> = st["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["Nefertari", "Ramses"]);
    let (_, gone) = nefertari.call("GET", "/api/challenges", None).await;
    assert_eq!(gone["incoming"], json!([]));
    is_error(
        &nefertari
            .call("POST", &format!("/api/challenges/{cid}/accept"), None)
            .await,
        StatusCode::NOT_FOUND,
        "no open challenge",
    );

    // Declined, and withdrawn.
    let (_, c2) = other.call("POST", "/api/challenges", Some(json!({ "player": "Ramses", "rules": "senat", "rated": false, "clock": { "days": 3 } }))).await;
    let c2 = c2["id"].as_str().unwrap().to_string();
    let (s, _) = ramses
        .call("POST", &format!("/api/challenges/{c2}/decline"), None)
        .await;
    assert_eq!(s, StatusCode::OK);
    let (_, left) = other.call("GET", "/api/challenges", None).await;
    assert_eq!(left["outgoing"], json!([]), "the challenger sees it gone");
    let (_, c3) = other.call("POST", "/api/challenges", Some(json!({ "player": "Ramses", "rules": "senat", "rated": false, "clock": { "days": 3 } }))).await;
    let c3 = c3["id"].as_str().unwrap().to_string();
    let (s, _) = other
        .call("DELETE", &format!("/api/challenges/{c3}"), None)
        .await;
    assert_eq!(s, StatusCode::OK);
    let (_, left) = ramses.call("GET", "/api/challenges", None).await;
    assert_eq!(left["incoming"], json!([]));
    // Challenges count among a player's open seeks: three at most.
    for n in ["Khufu", "Khafre", "Menkaure", "Djoser"] {
        named(&app, n).await;
    }
    for n in ["Khufu", "Khafre", "Menkaure"] {
        let (s, c) = other
            .call(
                "POST",
                "/api/challenges",
                Some(json!({ "player": n, "rules": "senat", "clock": { "days": 3 } })),
            )
            .await;
        assert_eq!(s, StatusCode::CREATED, "{c}");
    }
    is_error(
        &other
            .call(
                "POST",
                "/api/challenges",
                Some(json!({ "player": "Djoser", "rules": "senat", "clock": { "days": 3 } })),
            )
            .await,
        StatusCode::CONFLICT,
        "3 open seeks",
    );
    // No session: 401.
    let mut anon = Browser::new(&app);
    is_error(
        &anon.call("GET", "/api/challenges", None).await,
        StatusCode::UNAUTHORIZED,
        "no session",
    );
}

// ---- tournaments (issue 57) ----

async fn account(app: &axum::Router, name: &str) -> Browser {
    let mut b = Browser::join(app).await;
    let (s, r) = b
        .call(
            "POST",
            "/api/account",
            Some(json!({ "name": name, "password": "a long password" })),
        )
        .await;
    assert!(s.is_success(), "{r}");
    let (_, me) = b.call("GET", "/api/me", None).await;
    assert!(me["csrf"].is_string());
    b
}

/// Waits (the sweeper works every second) until tournament `id` satisfies `f`.
async fn until(b: &mut Browser, id: &str, what: &str, f: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..200 {
        let (s, t) = b.call("GET", &format!("/api/tournaments/{id}"), None).await;
        assert_eq!(s, StatusCode::OK, "{t}");
        if f(&t) {
            return t;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("tournament {id}: never {what}");
}

/// Plays out round `round` of tournament `t`: in each game the second seat resigns, so the
/// first seat wins. Returns the round's games as (first, second) player IDs.
async fn resign_round(
    by_id: &mut std::collections::HashMap<String, Browser>,
    t: &Value,
    round: u64,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for g in t["games"].as_array().unwrap() {
        if g["round"] != round {
            continue;
        }
        let (a, b) = (
            g["players"][0]["id"].as_str().unwrap().to_string(),
            g["players"][1]["id"].as_str().unwrap().to_string(),
        );
        let id = g["id"].as_str().unwrap();
        let (s, st) = by_id
            .get_mut(&b)
            .unwrap()
            .call("POST", &format!("/api/games/{id}/resign"), None)
            .await;
        assert_eq!(s, StatusCode::OK, "{st}");
        assert_eq!(st["status"]["winner"], 1);
        assert_eq!(st["tournament"], t["info"]["id"]);
        // A tournament game has no rematch.
        let (s, r) = by_id
            .get_mut(&a)
            .unwrap()
            .call("POST", &format!("/api/games/{id}/rematch"), None)
            .await;
        assert_eq!(s, StatusCode::CONFLICT, "{r}");
        out.push((a, b));
    }
    out
}

/// A round-robin among invited players: refusals in words; invitations seen, accepted and
/// declined; started early by its creator; everyone meets everyone once, with one bye each
/// (three players); rounds follow one another as games end; the standings count a win 1 and
/// a bye 1, with the opponents' points as tie-break. Then a Swiss event of five over three
/// rounds: nobody meets twice, nobody has two byes, and the standings are in order.
#[tokio::test]
async fn round_robin_and_swiss_events_pair_every_round_and_score_it() {
    let (_, app, _) = server();
    let mut host = account(&app, "Host").await;
    let mut anon = named(&app, "Anon").await;
    let mut a = named(&app, "Amun").await;
    let mut b = named(&app, "Bastet").await;
    let mut c = named(&app, "Khonsu").await;
    let mut d = named(&app, "Djehuti").await;
    let clock = json!({ "minutes": 5, "increment": 2 });
    let rr = json!({ "kind": "round-robin", "rules": "kendall", "clock": clock,
        "invite": ["Amun", "Bastet", "Khonsu"], "starts_in": 3600 });

    // Refused in words.
    let post = |body: Value| ("POST", "/api/tournaments", Some(body));
    let (m, u, bd) = post(rr.clone());
    is_error(&anon.call(m, u, bd).await, StatusCode::FORBIDDEN, "sign in");
    for (body, status, needle) in [
        (
            json!({ "kind": "ladder", "rules": "kendall", "clock": clock }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "arena, round-robin or swiss",
        ),
        (
            json!({ "kind": "arena", "rules": "kendall", "clock": { "days": 2 }, "minutes": 30 }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "not days",
        ),
        (
            json!({ "kind": "arena", "rules": "kendall", "clock": clock }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "\"minutes\"",
        ),
        (
            json!({ "kind": "arena", "rules": "kendall", "clock": clock, "minutes": 1 }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "2 to 720",
        ),
        (
            json!({ "kind": "round-robin", "rules": "kendall", "clock": clock }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invites 1 to 15",
        ),
        (
            json!({ "kind": "round-robin", "rules": "kendall", "clock": clock, "invite": ["Nobody"] }),
            StatusCode::NOT_FOUND,
            "no player named",
        ),
        (
            json!({ "kind": "round-robin", "rules": "kendall", "clock": clock, "invite": ["Host"] }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "yourself",
        ),
        (
            json!({ "kind": "swiss", "rules": "kendall", "clock": clock, "invite": ["Amun"] }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "\"rounds\"",
        ),
        (
            json!({ "kind": "swiss", "rules": "nope", "clock": clock, "invite": ["Amun"], "rounds": 2 }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "nope",
        ),
    ] {
        let (m, u, bd) = post(body);
        is_error(&host.call(m, u, bd).await, status, needle);
    }
    is_error(
        &host.call("GET", "/api/tournaments/nosuch", None).await,
        StatusCode::NOT_FOUND,
        "no tournament",
    );

    let (m, u, bd) = post(rr);
    let (s, t) = host.call(m, u, bd).await;
    assert_eq!(s, StatusCode::CREATED, "{t}");
    let rid = t["info"]["id"].as_str().unwrap().to_string();
    assert_eq!(t["info"]["state"], "created");
    assert_eq!(t["invited"].as_array().unwrap().len(), 3);
    // The invited see it; others may not join.
    let (_, list) = a.call("GET", "/api/tournaments", None).await;
    assert_eq!(list["invitations"][0]["id"], rid.as_str(), "{list}");
    is_error(
        &d.call("POST", &format!("/api/tournaments/{rid}/join"), None)
            .await,
        StatusCode::CONFLICT,
        "only the invited",
    );
    for p in [&mut a, &mut b] {
        let (s, r) = p
            .call("POST", &format!("/api/tournaments/{rid}/join"), None)
            .await;
        assert_eq!(s, StatusCode::OK, "{r}");
    }
    let (s, r) = c
        .call("POST", &format!("/api/tournaments/{rid}/leave"), None)
        .await;
    assert_eq!(s, StatusCode::OK, "{r}");
    assert_eq!(r["invited"], json!([]), "declined: no longer invited");
    is_error(
        &a.call("POST", &format!("/api/tournaments/{rid}/start"), None)
            .await,
        StatusCode::FORBIDDEN,
        "creator",
    );
    let (s, t) = host
        .call("POST", &format!("/api/tournaments/{rid}/start"), None)
        .await;
    assert_eq!(s, StatusCode::OK, "{t}");
    assert_eq!(t["info"]["state"], "running");
    assert_eq!(
        t["info"]["rounds"], 3,
        "three players: three rounds, a bye each"
    );
    is_error(
        &c.call("POST", &format!("/api/tournaments/{rid}/join"), None)
            .await,
        StatusCode::CONFLICT,
        "",
    );

    let mut by_id: std::collections::HashMap<String, Browser> = [&host, &a, &b, &c, &d]
        .into_iter()
        .map(|p| (p.id(), p.clone()))
        .collect();
    let mut met = std::collections::HashSet::new();
    let mut wins: std::collections::HashMap<String, u32> = Default::default();
    for round in 1..=3u64 {
        let t = until(&mut host, &rid, "paired the round", |t| {
            t["info"]["round"] == round
        })
        .await;
        let games = resign_round(&mut by_id, &t, round).await;
        assert_eq!(games.len(), 1, "three players: one game a round");
        for (x, y) in games {
            let key = if x < y {
                (x.clone(), y)
            } else {
                (y, x.clone())
            };
            assert!(met.insert(key), "a pair met twice");
            *wins.entry(x).or_default() += 1;
        }
    }
    let t = until(&mut host, &rid, "ended", |t| t["info"]["state"] == "over").await;
    assert_eq!(met.len(), 3, "everyone met everyone");
    let byes = t["byes"].as_array().unwrap();
    assert_eq!(byes.len(), 3);
    let bye_players: std::collections::HashSet<&str> = byes
        .iter()
        .map(|b| b["player"]["id"].as_str().unwrap())
        .collect();
    assert_eq!(bye_players.len(), 3, "one bye each");
    for s in t["standings"].as_array().unwrap() {
        let id = s["player"]["id"].as_str().unwrap();
        let w = wins.get(id).copied().unwrap_or(0);
        assert_eq!(s["score"], json!(f64::from(w) + 1.0), "{s}");
        assert_eq!(s["wins"], w);
        assert_eq!(
            s["sheet"].as_array().unwrap().len(),
            3,
            "two games and a bye"
        );
    }
    let scores: Vec<f64> = t["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["score"].as_f64().unwrap())
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");

    // Swiss: five players, three rounds.
    let (s, t) = host
        .call(
            "POST",
            "/api/tournaments",
            Some(
                json!({ "kind": "swiss", "rules": "kendall5", "clock": { "days": 3 }, "rounds": 3,
                "invite": ["Amun", "Bastet", "Khonsu", "Djehuti"], "starts_in": 1 }),
            ),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{t}");
    let sid = t["info"]["id"].as_str().unwrap().to_string();
    for p in [&mut a, &mut b, &mut c, &mut d] {
        let (s, r) = p
            .call("POST", &format!("/api/tournaments/{sid}/join"), None)
            .await;
        assert_eq!(s, StatusCode::OK, "{r}");
    }
    let mut met = std::collections::HashSet::new();
    for round in 1..=3u64 {
        let t = until(&mut host, &sid, "paired the round", |t| {
            t["info"]["round"] == round
        })
        .await;
        assert_eq!(t["info"]["state"], "running");
        let games = resign_round(&mut by_id, &t, round).await;
        assert_eq!(games.len(), 2, "five players: two games and a bye");
        for (x, y) in games {
            let key = if x < y { (x, y) } else { (y, x) };
            assert!(met.insert(key), "a pair met twice in a Swiss event");
        }
    }
    let t = until(&mut host, &sid, "ended", |t| t["info"]["state"] == "over").await;
    let byes: Vec<&str> = t["byes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["player"]["id"].as_str().unwrap())
        .collect();
    assert_eq!(byes.len(), 3);
    assert_eq!(
        byes.iter().collect::<std::collections::HashSet<_>>().len(),
        3,
        "no second bye"
    );
    let st = t["standings"].as_array().unwrap();
    assert_eq!(st.len(), 5);
    let total: f64 = st.iter().map(|s| s["score"].as_f64().unwrap()).sum();
    assert_eq!(total, 6.0 + 3.0, "six games won and three byes");
    let key = |s: &Value| {
        (
            s["score"].as_f64().unwrap(),
            s["tiebreak"].as_f64().unwrap(),
        )
    };
    assert!(st.windows(2).all(|w| key(&w[0]) >= key(&w[1])), "{st:?}");
    let _ = &mut anon;
}

/// A tournament player who never comes (issue 57): their clock runs out before their first
/// move, so the game is aborted and counts for nobody; they are withdrawn and their opponent
/// takes the round as a bye (a point), and a round-robin of two then ends with them first.
#[tokio::test]
async fn a_no_show_is_withdrawn_and_the_opponent_takes_a_bye() {
    let (_, app, store) = server();
    let mut host = account(&app, "Host").await;
    let mut a = named(&app, "Amun").await;
    let (s, t) = host
        .call(
            "POST",
            "/api/tournaments",
            Some(
                json!({ "kind": "round-robin", "rules": "kendall", "invite": ["Amun"],
                "clock": { "minutes": 1, "increment": 0 }, "starts_in": 3600 }),
            ),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{t}");
    let id = t["info"]["id"].as_str().unwrap().to_string();
    let (s, r) = a
        .call("POST", &format!("/api/tournaments/{id}/join"), None)
        .await;
    assert_eq!(s, StatusCode::OK, "{r}");
    let (s, r) = host
        .call("POST", &format!("/api/tournaments/{id}/start"), None)
        .await;
    assert_eq!(s, StatusCode::OK, "{r}");
    let t = until(&mut host, &id, "paired", |t| t["info"]["round"] == 1).await;
    let g = &t["games"][0];
    let gid = g["id"].as_str().unwrap().to_string();
    // Nobody has looked at the game: its clock, moved two minutes into the past, has run
    // out for the side to move first, who never moved.
    let first = g["players"][0]["id"].as_str().unwrap().to_string();
    let second = g["players"][1]["id"].as_str().unwrap().to_string();
    senet_server::players::run(&*store, |tx| {
        let rows = tx.rows(
            "SELECT clock_state FROM games WHERE id = $1",
            &[gid.as_str().into()],
        )?;
        let mut c = senet_server::online::ClockState::parse(rows[0][0].text().unwrap()).unwrap();
        c.since -= 120_000;
        tx.exec(
            "UPDATE games SET clock_state = $1, deadline = $2 WHERE id = $3",
            &[c.text().into(), c.deadline().into(), gid.as_str().into()],
        )
    })
    .unwrap();
    let t = until(&mut host, &id, "ended", |t| t["info"]["state"] == "over").await;
    assert_eq!(t["games"][0]["aborted"], true, "{t}");
    assert_eq!(t["byes"][0]["player"]["id"], second.as_str(), "{t}");
    assert_eq!(t["byes"][0]["round"], 1);
    let st = t["standings"].as_array().unwrap();
    assert_eq!(st[0]["player"]["id"], second.as_str());
    assert_eq!(st[0]["score"], 1.0);
    assert_eq!(st[0]["sheet"][0]["result"], "bye");
    assert_eq!(st[1]["player"]["id"], first.as_str());
    assert_eq!(st[1]["score"], 0.0);
    assert_eq!(st[1]["active"], false, "the no-show is withdrawn");
    // The tournament is in the player's data export.
    let (s, data) = a.call("GET", "/api/me/data", None).await;
    assert_eq!(s, StatusCode::OK, "{data}");
    assert_eq!(data["tournaments"][0]["id"], id.as_str(), "{data}");
    assert_eq!(data["tournaments"][0]["state"], "over");
}
