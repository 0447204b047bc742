//! Running senet in public (issue 56, docs/deploy.md): the health check and the metrics, a
//! graceful stop with games in flight, limits per address, the expiry of idle sessions and
//! anonymous players, reports, bans, closed accounts and a player's own data.

mod support {
    pub mod http;
    pub mod online;
}

use axum::http::StatusCode;
use axum::Router;
use senet_server::moderation::{self, Standing};
use senet_server::service::AddressLimits;
use senet_server::sql::Tx;
use senet_server::store::{
    GameMeta, SeriesMeta, Snapshot, StoreError, StoredEvent, StoredGame, StoredSeries, Summary,
};
use senet_server::{players, router, Limits, Service, SqliteStore, Store};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use support::http::call;
use support::online::Browser;

fn open_limits() -> Limits {
    Limits {
        per_second: 0.0,
        per_address: AddressLimits::off(),
        ..Limits::default()
    }
}

fn is_error(r: &(StatusCode, Value), status: StatusCode, needle: &str) {
    assert_eq!(r.0, status, "{}", r.1);
    let m = r.1["error"].as_str().unwrap_or_default().to_lowercase();
    assert!(m.contains(&needle.to_lowercase()), "{m:?} lacks {needle:?}");
}

/// A SQLite store that can be taken down: every call then fails as a database out of reach.
struct Flaky {
    inner: SqliteStore,
    down: AtomicBool,
}

impl Flaky {
    fn up(&self) -> Result<(), StoreError> {
        if self.down.load(Ordering::SeqCst) {
            Err(StoreError::Unavailable(
                "the test took the database down".into(),
            ))
        } else {
            Ok(())
        }
    }
}

impl Store for Flaky {
    fn create(&self, m: &GameMeta, e: &[StoredEvent], s: &Snapshot) -> Result<(), StoreError> {
        self.up()?;
        self.inner.create(m, e, s)
    }
    fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        self.up()?;
        self.inner.load(id)
    }
    fn append(
        &self,
        id: &str,
        first: u32,
        e: &[StoredEvent],
        s: &Snapshot,
    ) -> Result<(), StoreError> {
        self.up()?;
        self.inner.append(id, first, e, s)
    }
    fn summaries(&self, ids: &[String]) -> Result<Vec<Summary>, StoreError> {
        self.up()?;
        self.inner.summaries(ids)
    }
    fn create_series(
        &self,
        series: &SeriesMeta,
        g: &GameMeta,
        e: &[StoredEvent],
        s: &Snapshot,
    ) -> Result<(), StoreError> {
        self.up()?;
        self.inner.create_series(series, g, e, s)
    }
    fn load_series(&self, id: &str) -> Result<Option<StoredSeries>, StoreError> {
        self.up()?;
        self.inner.load_series(id)
    }
    fn claim(&self, id: &str, seat: u8, ss: u8, c: &str, t: &str) -> Result<bool, StoreError> {
        self.up()?;
        self.inner.claim(id, seat, ss, c, t)
    }
    fn set_invite(&self, id: &str, seat: u8, c: Option<&str>) -> Result<bool, StoreError> {
        self.up()?;
        self.inner.set_invite(id, seat, c)
    }
    fn analysis(&self, id: &str, n: u32) -> Result<Option<String>, StoreError> {
        self.up()?;
        self.inner.analysis(id, n)
    }
    fn put_analysis(&self, id: &str, n: u32, body: &str) -> Result<(), StoreError> {
        self.up()?;
        self.inner.put_analysis(id, n, body)
    }
    fn transaction(
        &self,
        f: &mut dyn FnMut(&mut dyn Tx) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        self.up()?;
        self.inner.transaction(f)
    }
}

/// The value of the sample `name` (with its labels as written) in a metrics text.
fn sample(text: &str, name: &str) -> Option<f64> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
}

async fn metrics(app: &Router) -> String {
    let (s, v) = call(app, "GET", "/metrics", None, None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v.as_str().expect("the metrics are text").to_string()
}

#[tokio::test]
async fn healthz_answers_200_while_the_database_answers_and_503_when_it_does_not() {
    let store = Arc::new(Flaky {
        inner: SqliteStore::in_memory().unwrap(),
        down: AtomicBool::new(false),
    });
    let svc = Service::new(store.clone());
    let app = router(svc, open_limits());
    let (s, v) = call(&app, "GET", "/healthz", None, None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["status"], "ok");
    assert_eq!(v["database"], "ok");
    store.down.store(true, Ordering::SeqCst);
    let (s, v) = call(&app, "GET", "/healthz", None, None).await;
    assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    assert_eq!(v["status"], "unavailable");
    assert!(
        v["database"]
            .as_str()
            .unwrap()
            .contains("took the database down"),
        "{v}"
    );
    // The failure is counted.
    let m = metrics(&app).await;
    assert!(
        sample(&m, r#"senet_database_errors_total{kind="unavailable"}"#).unwrap() >= 1.0,
        "{m}"
    );
    store.down.store(false, Ordering::SeqCst);
    let (s, _) = call(&app, "GET", "/healthz", None, None).await;
    assert_eq!(s, StatusCode::OK);
}

#[tokio::test]
async fn metrics_count_requests_by_route_moves_searches_and_games_in_memory() {
    let svc = Service::new(Arc::new(SqliteStore::in_memory().unwrap()));
    let app = router(svc.clone(), open_limits());
    let (s, c) = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some(json!({"rules": "kendall5", "mode": "hotseat"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{c}");
    let id = c["id"].as_str().unwrap().to_string();
    let mut moves = 0;
    let mut events = 0;
    for _ in 0..12 {
        let (_, st) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
        let seat = st["status"]["player"].to_string();
        let tok = c["tokens"][&seat].as_str().unwrap().to_string();
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
            moves += 1;
            call(
                &app,
                "POST",
                &format!("/api/games/{id}/move"),
                Some(&tok),
                Some(json!({"move": st["legal"][0]["move"], "seq": st["seq"]})),
            )
            .await
        };
        assert_eq!(s, StatusCode::OK, "{r}");
        events += 1;
    }
    // A hint is a search.
    let before = svc.searches_started();
    let (_, st) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    let tok = c["tokens"][st["status"]["player"].to_string()]
        .as_str()
        .unwrap()
        .to_string();
    if st["status"]["state"] == "throw" {
        call(
            &app,
            "POST",
            &format!("/api/games/{id}/throw"),
            Some(&tok),
            Some(json!({"seq": st["seq"]})),
        )
        .await;
        events += 1;
    }
    let (s, h) = call(
        &app,
        "GET",
        &format!("/api/games/{id}/hint"),
        Some(&tok),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{h}");
    assert_eq!(svc.searches_started(), before + 1);
    call(&app, "GET", "/api/nosuch", None, None).await;
    call(&app, "BREW", "/api/rules", None, None).await;

    let m = metrics(&app).await;
    assert_eq!(
        sample(&m, "senet_moves_appended_total"),
        Some(moves as f64),
        "{m}"
    );
    let throws = sample(&m, r#"senet_events_appended_total{kind="throw"}"#).unwrap_or(0.0);
    let moved = sample(&m, r#"senet_events_appended_total{kind="move"}"#).unwrap_or(0.0);
    assert_eq!(throws + moved, events as f64, "{m}");
    assert_eq!(
        sample(
            &m,
            r#"senet_http_requests_total{method="POST",route="/api/games/{id}/move",status="200"}"#
        ),
        Some(moves as f64),
        "{m}"
    );
    assert_eq!(
        sample(
            &m,
            r#"senet_http_requests_total{method="POST",route="/api/games",status="201"}"#
        ),
        Some(1.0),
        "{m}"
    );
    // An unknown path is counted without its text (no label per path an attacker chooses).
    assert!(
        sample(
            &m,
            r#"senet_http_requests_total{method="GET",route="other",status="404"}"#
        )
        .is_some(),
        "{m}"
    );
    // A made-up method is `other`, whatever it was.
    assert!(
        m.contains(r#"method="other",route="/api/rules",status="405""#),
        "{m}"
    );
    assert!(!m.contains("BREW"), "{m}");
    assert!(
        m.contains(
            r#"senet_http_request_duration_seconds_bucket{route="/api/games/{id}",le="0.005"}"#
        ),
        "{m}"
    );
    assert_eq!(sample(&m, "senet_searches_total"), Some(1.0), "{m}");
    assert_eq!(sample(&m, "senet_games_in_memory"), Some(1.0), "{m}");
    assert_eq!(sample(&m, "senet_searches_running"), Some(0.0), "{m}");
    assert_eq!(sample(&m, "senet_searches_queued"), Some(0.0), "{m}");
    assert_eq!(
        sample(&m, r#"senet_websockets_open{kind="game"}"#),
        Some(0.0),
        "{m}"
    );
    assert_eq!(sample(&m, "senet_shutting_down"), Some(0.0), "{m}");
}

#[tokio::test]
async fn metrics_are_refused_to_a_client_that_is_not_the_operators() {
    let svc = Service::new(Arc::new(SqliteStore::in_memory().unwrap()));
    // Behind a proxy on loopback, the client is the forwarded address.
    let app = router(
        svc,
        Limits {
            trusted_proxies: vec!["127.0.0.1".parse().unwrap()],
            metrics_from: vec!["192.0.2.9".parse().unwrap()],
            ..open_limits()
        },
    );
    let req = |from: &str| {
        axum::http::Request::builder()
            .uri("/metrics")
            .header("x-forwarded-for", from)
            .body(axum::body::Body::empty())
            .unwrap()
    };
    use tower::ServiceExt;
    let r = app.clone().oneshot(req("203.0.113.5")).await.unwrap();
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    let r = app.clone().oneshot(req("192.0.2.9")).await.unwrap();
    assert_eq!(r.status(), StatusCode::OK, "--metrics-from names it");
    assert!(r.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/plain; version=0.0.4"));
}

/// One HTTP/1.1 request on a new connection: the status and the body as JSON (or text).
fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &str,
) -> std::io::Result<(u16, Value)> {
    let s = TcpStream::connect(addr)?;
    s.set_read_timeout(Some(Duration::from_secs(20)))?;
    let mut r = BufReader::new(s);
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    r.get_mut().write_all(req.as_bytes())?;
    let mut line = String::new();
    r.read_line(&mut line)?;
    let status: u16 = line
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("no status line: {line:?}")))?;
    let mut len = None;
    loop {
        line.clear();
        r.read_line(&mut line)?;
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if let Some((_, v)) = l
            .split_once(':')
            .filter(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        {
            len = v.trim().parse().ok();
        }
    }
    let mut out = Vec::new();
    match len {
        Some(n) => {
            out.resize(n, 0);
            r.read_exact(&mut out)?;
        }
        None => {
            r.read_to_end(&mut out)?;
        }
    }
    let text = String::from_utf8_lossy(&out).to_string();
    Ok((
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    ))
}

/// Starts `senet serve`'s server on `db`; its address, the sender that stops it, and the
/// task that ends when it has stopped.
fn start(
    rt: &tokio::runtime::Runtime,
    db: &str,
) -> (
    SocketAddr,
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<Result<(), String>>,
) {
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let (tx, rx) = std::sync::mpsc::channel();
    let db = db.to_string();
    let task = rt.spawn(async move {
        senet_server::serve(
            "127.0.0.1:0",
            &db,
            open_limits(),
            move |a| {
                let _ = tx.send(a);
            },
            async move {
                let _ = stopped.await;
            },
        )
        .await
    });
    let addr = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("the server starts");
    (addr, stop, task)
}

#[test]
fn a_stopping_server_finishes_its_requests_tells_websockets_it_restarts_and_loses_no_acknowledged_move(
) {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
    use tokio_tungstenite::tungstenite::Message;

    let dir = std::env::temp_dir().join(format!("senet-stop-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("senet.sqlite").to_string_lossy().to_string();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let (addr, stop, task) = start(&rt, &db);

    // Four hot-seat games, played by a thread each until the server goes away.
    let mut games = Vec::new();
    for _ in 0..4 {
        let (s, c) = http(
            addr,
            "POST",
            "/api/games",
            None,
            r#"{"rules":"kendall5","mode":"hotseat"}"#,
        )
        .unwrap();
        assert_eq!(s, 201, "{c}");
        games.push(c);
    }
    let id0 = games[0]["id"].as_str().unwrap().to_string();
    let (mut game_ws, mut lobby_ws) = rt.block_on(async {
        let (g, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id0}/ws"))
            .await
            .unwrap();
        let (l, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/lobby/ws"))
            .await
            .unwrap();
        (g, l)
    });
    let (s, m) = http(addr, "GET", "/metrics", None, "").unwrap();
    assert_eq!(s, 200);
    let m = m.as_str().unwrap().to_string();
    assert_eq!(
        sample(&m, r#"senet_websockets_open{kind="game"}"#),
        Some(1.0),
        "{m}"
    );
    assert_eq!(
        sample(&m, r#"senet_websockets_open{kind="lobby"}"#),
        Some(1.0),
        "{m}"
    );

    let players: Vec<_> = games
        .iter()
        .cloned()
        .map(|c| {
            std::thread::spawn(move || {
                let id = c["id"].as_str().unwrap().to_string();
                // The number of events of the game the server acknowledged last.
                let mut acked = 0u64;
                loop {
                    let Ok((200, st)) = http(addr, "GET", &format!("/api/games/{id}"), None, "")
                    else {
                        return (id, acked);
                    };
                    if st["status"]["state"] == "over" {
                        return (id, acked);
                    }
                    let tok = c["tokens"][st["status"]["player"].to_string()]
                        .as_str()
                        .unwrap()
                        .to_string();
                    let r = if st["status"]["state"] == "throw" {
                        http(
                            addr,
                            "POST",
                            &format!("/api/games/{id}/throw"),
                            Some(&tok),
                            &json!({"seq": st["seq"]}).to_string(),
                        )
                    } else {
                        http(
                            addr,
                            "POST",
                            &format!("/api/games/{id}/move"),
                            Some(&tok),
                            &json!({"move": st["legal"][0]["move"], "seq": st["seq"]}).to_string(),
                        )
                    };
                    match r {
                        Ok((200, after)) => acked = after["seq"].as_u64().unwrap(),
                        // Refused, or the server went away mid-request: not acknowledged.
                        _ => return (id, acked),
                    }
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(700));
    stop.send(()).unwrap();
    let stopped = rt.block_on(async { tokio::time::timeout(Duration::from_secs(15), task).await });
    assert!(
        matches!(stopped, Ok(Ok(Ok(())))),
        "the server stops cleanly: {stopped:?}"
    );

    // Both live connections were closed with "server restarting" (1012).
    for ws in [&mut game_ws, &mut lobby_ws] {
        let frame = rt.block_on(async {
            loop {
                match tokio::time::timeout(Duration::from_secs(5), ws.next()).await {
                    Ok(Some(Ok(Message::Close(f)))) => return f,
                    Ok(Some(Ok(_))) => continue,
                    other => panic!("no close frame: {other:?}"),
                }
            }
        });
        let frame = frame.expect("a close frame with a code");
        assert_eq!(frame.code, CloseCode::Restart);
        assert_eq!(frame.reason.as_str(), "server restarting");
    }
    let acked: Vec<(String, u64)> = players.into_iter().map(|t| t.join().unwrap()).collect();
    assert!(
        acked.iter().any(|(_, n)| *n > 2),
        "the games were being played: {acked:?}"
    );

    // Every acknowledged event is stored, and the restarted server serves the games on.
    let store = SqliteStore::open(std::path::Path::new(&db)).unwrap();
    for (id, n) in &acked {
        let g = store.load(id).unwrap().unwrap();
        assert!(
            g.events.len() as u64 >= *n,
            "{id}: {} stored, {n} acknowledged",
            g.events.len()
        );
    }
    drop(store);
    let (addr, stop, task) = start(&rt, &db);
    for (id, n) in &acked {
        let (s, st) = http(addr, "GET", &format!("/api/games/{id}"), None, "").unwrap();
        assert_eq!(s, 200, "{st}");
        assert!(st["seq"].as_u64().unwrap() >= *n);
    }
    stop.send(()).unwrap();
    rt.block_on(task).unwrap().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A router that sees clients by the `X-Forwarded-For` of a proxy on loopback, with the
/// default limits per address.
fn behind_proxy() -> (Router, Arc<dyn Store>) {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
    let svc = Service::new(store.clone());
    let app = router(
        svc,
        Limits {
            per_second: 0.0,
            trusted_proxies: vec!["127.0.0.1".parse().unwrap()],
            ..Limits::default()
        },
    );
    (app, store)
}

fn from(app: &Router, addr: &str) -> Browser {
    let mut b = Browser::new(app);
    b.forwarded = Some(addr.to_string());
    b
}

#[tokio::test]
async fn one_address_cannot_fill_the_database_or_the_lobby_and_others_still_play() {
    let (app, _) = behind_proxy();
    let defaults = AddressLimits::default();
    // New players: a loop from one address is refused in words after the limit.
    let mut made = Vec::new();
    for i in 0..defaults.players + 5 {
        let mut b = from(&app, "198.51.100.7");
        let r = b.call("POST", "/api/me", None).await;
        if i < defaults.players {
            assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
            made.push(b);
        } else {
            is_error(
                &r,
                StatusCode::TOO_MANY_REQUESTS,
                "too many new players from your address",
            );
        }
    }
    // Seeks: each player may have 3 open; the address at most 6 over all its players.
    let seek =
        json!({"rules": "kendall5", "rated": false, "clock": {"minutes": 5, "increment": 3}});
    let mut open = 0;
    for b in made.iter_mut().take(4) {
        for _ in 0..3 {
            let r = b.call("POST", "/api/seeks", Some(seek.clone())).await;
            if open < defaults.open_seeks {
                assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
                open += 1;
            } else {
                is_error(&r, StatusCode::TOO_MANY_REQUESTS, "open seeks");
            }
        }
    }
    // Accounts cost an Argon2 hash each: 5 an hour from one address.
    for (i, b) in made
        .iter_mut()
        .enumerate()
        .skip(10)
        .take(defaults.accounts as usize + 1)
    {
        let r = b
            .call(
                "POST",
                "/api/account",
                Some(json!({"name": format!("Flood{i}"), "password": "correct horse"})),
            )
            .await;
        if i < 10 + defaults.accounts as usize {
            assert_eq!(r.0, StatusCode::OK, "{}", r.1);
        } else {
            is_error(&r, StatusCode::TOO_MANY_REQUESTS, "too many accounts");
        }
    }
    // Someone else comes in, seeks, and is paired with a third person at once.
    let mut alice = from(&app, "203.0.113.20");
    assert_eq!(
        alice.call("POST", "/api/me", None).await.0,
        StatusCode::CREATED
    );
    let (s, mine) = alice.call("POST", "/api/seeks", Some(seek.clone())).await;
    assert_eq!(s, StatusCode::CREATED, "{mine}");
    let (_, list) = alice.call("GET", "/api/seeks", None).await;
    assert_eq!(
        list.as_array().unwrap().len(),
        defaults.open_seeks as usize + 1,
        "{list}"
    );
    let mut bob = from(&app, "203.0.113.21");
    assert_eq!(
        bob.call("POST", "/api/me", None).await.0,
        StatusCode::CREATED
    );
    let (s, p) = bob
        .call(
            "POST",
            &format!("/api/seeks/{}/accept", mine["id"].as_str().unwrap()),
            None,
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{p}");
    // The flood's seeks can be taken too, and a taken one frees a place for its address.
    let flood_seek = list
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] != mine["id"])
        .unwrap();
    let (s, _) = bob
        .call(
            "POST",
            &format!("/api/seeks/{}/accept", flood_seek["id"].as_str().unwrap()),
            None,
        )
        .await;
    assert_eq!(s, StatusCode::CREATED);
    let r = made[5].call("POST", "/api/seeks", Some(seek.clone())).await;
    assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
}

#[tokio::test]
async fn idle_sessions_and_anonymous_players_without_games_expire_and_nothing_else_does() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
    let svc = Service::new(store.clone());
    let app = router(svc, open_limits());
    let mut idle = Browser::join(&app).await;
    let mut player = Browser::join(&app).await;
    let mut other = Browser::join(&app).await;
    let mut account = Browser::join(&app).await;
    let r = account
        .call(
            "POST",
            "/api/account",
            Some(json!({"name": "Keeper", "password": "correct horse"})),
        )
        .await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    let game = support::online::seek_and_accept(&mut player, &mut other, false).await;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    // Nothing has been idle yet.
    let e = moderation::expire(
        &*store,
        now,
        moderation::SESSION_IDLE_S,
        moderation::ANONYMOUS_IDLE_S,
    )
    .unwrap();
    assert_eq!(e, moderation::Expired::default());
    // Four days on: the anonymous player with no game is gone with its session; the
    // players of a game and the account stay (their sessions too: 30 days).
    let later = now + 4 * 86_400;
    let e = moderation::expire(
        &*store,
        later,
        moderation::SESSION_IDLE_S,
        moderation::ANONYMOUS_IDLE_S,
    )
    .unwrap();
    assert_eq!((e.players, e.sessions), (1, 1), "{e:?}");
    assert_eq!(
        moderation::standing(&*store, &idle.id()).unwrap(),
        Standing::Gone
    );
    for b in [&player, &other, &account] {
        assert_eq!(
            moderation::standing(&*store, &b.id()).unwrap(),
            Standing::Good
        );
    }
    let (s, _) = idle.call("GET", "/api/me", None).await;
    assert_eq!(
        s,
        StatusCode::UNAUTHORIZED,
        "the removed player's cookie is no session"
    );
    // 31 days on, every session has been idle too long: they end, the players stay.
    let e = moderation::expire(
        &*store,
        now + 31 * 86_400,
        moderation::SESSION_IDLE_S,
        moderation::ANONYMOUS_IDLE_S,
    )
    .unwrap();
    assert_eq!((e.players, e.sessions), (0, 3), "{e:?}");
    let (s, g) = account
        .call("GET", &format!("/api/games/{game}"), None)
        .await;
    assert_eq!(s, StatusCode::OK, "the game stays: {g}");
    // A session is also refused when read after its idle time, before any sweep.
    let store2: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
    players::create_player(&*store2, "p1", |_| "Old".into(), "hash", now - 40 * 86_400).unwrap();
    assert!(players::session_player(&*store2, "hash", now)
        .unwrap()
        .is_none());
    assert!(players::session_player(&*store2, "hash", now - 39 * 86_400)
        .unwrap()
        .is_some());
}

#[tokio::test]
async fn a_report_a_ban_and_closing_an_account_act_on_every_server() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
    let app = router(Service::new(store.clone()), open_limits());
    let mut alice = Browser::join(&app).await;
    let mut mallory = Browser::join(&app).await;
    let game = support::online::seek_and_accept(&mut alice, &mut mallory, false).await;
    let name = mallory.me["name"].as_str().unwrap().to_string();

    // Reports: checked, in words.
    for (body, status, needle) in [
        (
            json!({"player": "nobody-here", "reason": "rude"}),
            StatusCode::NOT_FOUND,
            "no player",
        ),
        (
            json!({"player": name, "reason": "x"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "3 to 500",
        ),
        (
            json!({"player": alice.me["name"], "reason": "test"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "yourself",
        ),
        (
            json!({"player": name, "game": "nosuch", "reason": "stalling"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "did not play in game",
        ),
        (
            json!({"player": name, "reason": "stalling", "extra": 1}),
            StatusCode::BAD_REQUEST,
            "extra",
        ),
    ] {
        is_error(
            &alice.call("POST", "/api/reports", Some(body)).await,
            status,
            needle,
        );
    }
    let (s, r) = alice
        .call("POST", "/api/reports", Some(json!({"player": name, "game": game, "reason": "insults in the name\nand stalling"})))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{r}");
    let open = moderation::reports(&*store, false).unwrap();
    assert_eq!(open.len(), 1);
    assert_eq!(
        (open[0].reported.as_str(), open[0].game.as_deref()),
        (name.as_str(), Some(game.as_str()))
    );

    // Mallory seeks; the operator bans them: the seek goes, sessions end (on a server with no
    // cached session at once; on this one within its 10 s cache), no seek, no acceptance,
    // no quick pairing.
    let seek =
        json!({"rules": "kendall5", "rated": false, "clock": {"minutes": 5, "increment": 3}});
    let (s, _) = mallory.call("POST", "/api/seeks", Some(seek.clone())).await;
    assert_eq!(s, StatusCode::CREATED);
    let (s, alice_seek) = alice.call("POST", "/api/seeks", Some(seek.clone())).await;
    assert_eq!(s, StatusCode::CREATED);
    assert!(moderation::ban(&*store, &mallory.id(), "insults", 1).unwrap());
    let (_, list) = alice.call("GET", "/api/seeks", None).await;
    assert_eq!(
        list.as_array().unwrap().len(),
        1,
        "only Alice's seek is left: {list}"
    );
    is_error(
        &mallory.call("POST", "/api/seeks", Some(seek.clone())).await,
        StatusCode::FORBIDDEN,
        "banned",
    );
    is_error(
        &mallory
            .call(
                "POST",
                &format!("/api/seeks/{}/accept", alice_seek["id"].as_str().unwrap()),
                None,
            )
            .await,
        StatusCode::FORBIDDEN,
        "banned",
    );
    is_error(
        &mallory
            .call("POST", "/api/pairing", Some(seek.clone()))
            .await,
        StatusCode::FORBIDDEN,
        "banned",
    );
    let other_server = router(Service::new(store.clone()), open_limits());
    let (s, _) = mallory.on(&other_server).call("GET", "/api/me", None).await;
    assert_eq!(
        s,
        StatusCode::UNAUTHORIZED,
        "the banned player's sessions ended"
    );
    // The banned player leaves no lobby entry, and the report shows the ban.
    assert!(moderation::reports(&*store, false).unwrap()[0].banned);
    assert!(moderation::resolve(&*store, &open[0].id, Some("banned"), 2).unwrap());
    assert!(moderation::reports(&*store, false).unwrap().is_empty());
    assert!(moderation::unban(&*store, &mallory.id()).unwrap());

    // Alice downloads her data, then deletes her account: the game stays under a new name.
    let (s, data) = alice.call("GET", "/api/me/data", None).await;
    assert_eq!(s, StatusCode::OK, "{data}");
    assert_eq!(data["player"]["id"], alice.me["id"]);
    assert!(
        data["player"]["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == game.as_str()),
        "{data}"
    );
    assert_eq!(data["sessions"].as_array().unwrap().len(), 1);
    assert_eq!(data["reports"][0]["player"], name.as_str());
    let (s, d) = alice.call("DELETE", "/api/me", None).await;
    assert_eq!(s, StatusCode::OK, "{d}");
    let new_name = d["name"].as_str().unwrap();
    assert!(new_name.starts_with("deleted-"), "{d}");
    assert_eq!(alice.cookie, None, "the cookie is cleared");
    let (s, g) = mallory
        .on(&other_server)
        .call("GET", &format!("/api/games/{game}"), None)
        .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(
        moderation::standing(&*store, alice.me["id"].as_str().unwrap()).unwrap(),
        Standing::Closed
    );

    // An account is deleted only with its password.
    let mut carol = Browser::join(&other_server).await;
    let r = carol
        .call(
            "POST",
            "/api/account",
            Some(json!({"name": "Carol", "password": "correct horse"})),
        )
        .await;
    assert_eq!(r.0, StatusCode::OK, "{}", r.1);
    is_error(
        &carol.call("DELETE", "/api/me", None).await,
        StatusCode::UNAUTHORIZED,
        "password",
    );
    is_error(
        &carol
            .call(
                "DELETE",
                "/api/me",
                Some(json!({"password": "wrong horse"})),
            )
            .await,
        StatusCode::UNAUTHORIZED,
        "wrong password",
    );
    let (s, _) = carol
        .call(
            "DELETE",
            "/api/me",
            Some(json!({"password": "correct horse"})),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    let mut again = Browser::new(&other_server);
    let r = again
        .call(
            "POST",
            "/api/login",
            Some(json!({"name": "Carol", "password": "correct horse"})),
        )
        .await;
    assert_eq!(
        r.0,
        StatusCode::UNAUTHORIZED,
        "a closed account cannot sign in: {}",
        r.1
    );
}
