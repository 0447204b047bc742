//! A browser-like client of the online API for tests: it keeps its session cookie and sends
//! the CSRF token with every write, as the page does.

#![allow(dead_code)]

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

/// One browser: a router (a server) and the cookie it holds.
#[derive(Clone)]
pub struct Browser {
    pub app: Router,
    pub cookie: Option<String>,
    pub csrf: Option<String>,
    pub me: Value,
    /// Sent as `X-Forwarded-For` (the client's address behind a trusted proxy).
    pub forwarded: Option<String>,
}

impl Browser {
    pub fn new(app: &Router) -> Browser {
        Browser {
            app: app.clone(),
            cookie: None,
            csrf: None,
            me: Value::Null,
            forwarded: None,
        }
    }

    /// The same session on another server.
    pub fn on(&self, app: &Router) -> Browser {
        Browser {
            app: app.clone(),
            ..self.clone()
        }
    }

    /// Sends a request with the cookie (and, for writes, the CSRF token unless `csrf` is
    /// false); keeps a cookie the server sets.
    pub async fn send(
        &mut self,
        method: &str,
        uri: &str,
        body: Option<Value>,
        csrf: bool,
    ) -> (StatusCode, Value) {
        let mut r = Request::builder().method(method).uri(uri);
        if let Some(c) = &self.cookie {
            r = r.header("cookie", format!("senet_session={c}"));
        }
        if let Some(f) = &self.forwarded {
            r = r.header("x-forwarded-for", f);
        }
        if csrf && method != "GET" {
            if let Some(t) = &self.csrf {
                r = r.header("x-csrf-token", t);
            }
        }
        let req = r
            .header("content-type", "application/json")
            .body(body.map_or(Body::empty(), |b| Body::from(b.to_string())))
            .unwrap();
        let res = self.app.clone().oneshot(req).await.unwrap();
        let status = res.status();
        for v in res.headers().get_all("set-cookie") {
            let v = v.to_str().unwrap();
            let kv = v.split(';').next().unwrap();
            if let Some(secret) = kv.strip_prefix("senet_session=") {
                self.cookie = (!secret.is_empty()).then(|| secret.to_string());
            }
        }
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        let text = String::from_utf8(bytes.to_vec()).unwrap();
        let v = serde_json::from_str(&text).unwrap_or(Value::String(text));
        if v.get("csrf").is_some() && v.get("id").is_some() {
            self.csrf = v["csrf"].as_str().map(str::to_string);
            self.me = v.clone();
        }
        (status, v)
    }

    pub async fn call(
        &mut self,
        method: &str,
        uri: &str,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        self.send(method, uri, body, true).await
    }

    /// A new anonymous player.
    pub async fn join(app: &Router) -> Browser {
        let mut b = Browser::new(app);
        let (s, me) = b.call("POST", "/api/me", None).await;
        assert_eq!(s, StatusCode::CREATED, "{me}");
        b
    }

    pub fn id(&self) -> String {
        self.me["id"].as_str().unwrap().to_string()
    }

    /// Takes one action in game `id` if it is this seat's: a throw, or the first legal move.
    /// Returns the state it acted on and whether it moved (`None`: not its turn, or over).
    pub async fn act_once(&mut self, id: &str) -> (Value, Option<bool>) {
        let (s, st) = self.call("GET", &format!("/api/games/{id}"), None).await;
        assert_eq!(s, StatusCode::OK, "{st}");
        let state = st["status"]["state"].as_str().unwrap().to_string();
        if state == "over" || st["status"]["player"].as_u64() != st["you"].as_u64() {
            return (st, None);
        }
        let seq = st["seq"].clone();
        let moved = state != "throw";
        let (s, r) = if moved {
            let mv = st["legal"][0]["move"].clone();
            self.call(
                "POST",
                &format!("/api/games/{id}/move"),
                Some(json!({"move": mv, "seq": seq})),
            )
            .await
        } else {
            self.call(
                "POST",
                &format!("/api/games/{id}/throw"),
                Some(json!({"seq": seq})),
            )
            .await
        };
        assert_eq!(s, StatusCode::OK, "{r}");
        (st, Some(moved))
    }

    /// Plays its turns of game `id` (throw, then the first legal move) until it is the other
    /// seat's turn or the game is over; returns the state.
    pub async fn play_turn(&mut self, id: &str) -> Value {
        loop {
            if let (st, None) = self.act_once(id).await {
                return st;
            }
        }
    }
}

/// Plays game `id` between `a` and `b` to its end; returns the final state.
pub async fn play_out(a: &mut Browser, b: &mut Browser, id: &str) -> Value {
    for _ in 0..10_000 {
        let st = a.play_turn(id).await;
        if st["status"]["state"] == "over" {
            return st;
        }
        let st = b.play_turn(id).await;
        if st["status"]["state"] == "over" {
            return st;
        }
    }
    panic!("game {id} did not end");
}

/// A rated kendall5 seek of `a` on a 10+5 clock accepted by `b`: the game ID.
pub async fn seek_and_accept(a: &mut Browser, b: &mut Browser, rated: bool) -> String {
    let (s, seek) = a
        .call(
            "POST",
            "/api/seeks",
            Some(json!({"rules": "kendall5", "rated": rated, "clock": {"minutes": 10, "increment": 5}})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{seek}");
    let sid = seek["id"].as_str().unwrap();
    let (s, p) = b
        .call("POST", &format!("/api/seeks/{sid}/accept"), None)
        .await;
    assert_eq!(s, StatusCode::CREATED, "{p}");
    p["game"].as_str().unwrap().to_string()
}
