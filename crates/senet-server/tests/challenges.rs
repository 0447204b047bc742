//! Challenges through the API (issue 57): a player challenges another by name; only the
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
    let svc = Service::new(Arc::new(SqliteStore::in_memory().unwrap()));
    let app = router(
        svc.clone(),
        Limits {
            per_second: 0.0,
            per_address: senet_server::service::AddressLimits::off(),
            ..Limits::default()
        },
    );
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
