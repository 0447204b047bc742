//! The connection layer over real sockets: slow headers, a stalled body, idle keep-alive
//! connections, the caps on open connections (in all, per address, WebSockets) and the
//! WebSockets' ping deadline.

use senet_server::{http, router, Limits, Service, SqliteStore};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Starts a server with `limits` on a free loopback port, in a runtime of its own thread.
fn start(limits: Limits) -> SocketAddr {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let svc = Service::new(Arc::new(SqliteStore::in_memory().unwrap()));
            let app = router(svc, limits.clone());
            let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(l.local_addr().unwrap()).unwrap();
            http::serve(l, app, &limits, std::future::pending()).await
        })
    });
    rx.recv().unwrap()
}

fn limits() -> Limits {
    Limits {
        per_second: 0.0,
        header_timeout: Duration::from_millis(800),
        body_timeout: Duration::from_millis(800),
        ..Limits::default()
    }
}

fn connect(addr: SocketAddr) -> TcpStream {
    let s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(8))).unwrap();
    s
}

/// Reads until the server closes the connection (or 8 s pass); returns what came.
fn read_to_close(s: &mut TcpStream) -> (String, bool) {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        match s.read(&mut chunk) {
            Ok(0) => return (String::from_utf8_lossy(&buf).into(), true),
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {
                return (String::from_utf8_lossy(&buf).into(), true)
            }
            Err(_) => return (String::from_utf8_lossy(&buf).into(), false),
        }
    }
}

fn get_rules(addr: SocketAddr) -> String {
    get_rules_on(&mut connect(addr))
}

/// Asks for the rules on an open connection (closed after the answer); what came back.
fn get_rules_on(s: &mut TcpStream) -> String {
    s.write_all(b"GET /api/rules HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    read_to_close(s).0
}

#[test]
fn headers_sent_a_line_at_a_time_are_cut_off() {
    let addr = start(limits());
    let mut s = connect(addr);
    let t = Instant::now();
    s.write_all(b"GET /api/rules HTTP/1.1\r\n").unwrap();
    // One header line every 300 ms: each arrives well within any per-read timeout, but the
    // headers as a whole never end.
    let mut closed = false;
    for i in 0..20 {
        std::thread::sleep(Duration::from_millis(300));
        if s.write_all(format!("X-Slow-{i}: 1\r\n").as_bytes())
            .is_err()
        {
            closed = true;
            break;
        }
    }
    if !closed {
        closed = read_to_close(&mut s).1;
    }
    assert!(closed, "the slow client was not cut off");
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    assert!(get_rules(addr).starts_with("HTTP/1.1 200"));
}

#[test]
fn a_stalled_body_is_answered_408() {
    let addr = start(limits());
    let mut s = connect(addr);
    let t = Instant::now();
    s.write_all(
        b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"rules\":",
    )
    .unwrap();
    let (text, closed) = read_to_close(&mut s);
    assert!(closed || text.contains("408"), "{text}");
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(text.contains("did not arrive in time"), "{text}");
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
}

#[test]
fn idle_connections_are_closed_after_the_header_deadline() {
    let addr = start(limits());
    let idle: Vec<TcpStream> = (0..4).map(|_| connect(addr)).collect();
    std::thread::sleep(Duration::from_millis(1500));
    for mut s in idle {
        assert!(read_to_close(&mut s).1, "an idle connection was kept open");
    }
    assert!(get_rules(addr).starts_with("HTTP/1.1 200"));
    // A keep-alive connection idle after its answer is closed too.
    let mut s = connect(addr);
    s.write_all(b"GET /api/rules HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let t = Instant::now();
    let (text, closed) = read_to_close(&mut s);
    assert!(closed && text.starts_with("HTTP/1.1 200"));
    assert!(t.elapsed() < Duration::from_secs(5));
}

/// Limits whose deadlines outlast a test's waits.
fn patient(l: Limits) -> Limits {
    Limits {
        header_timeout: Duration::from_secs(20),
        body_timeout: Duration::from_secs(20),
        ..l
    }
}

/// A request in flight: its body never finishes arriving (within the test).
fn stalled_post(s: &mut TcpStream) {
    s.write_all(
        b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"rules\":",
    )
    .unwrap();
}

/// Whether the server closed `s` at once, having sent nothing.
fn closed_at_once(s: &mut TcpStream) -> bool {
    let _ = s.write_all(b"GET /api/rules HTTP/1.1\r\nHost: x\r\n\r\n");
    s.set_read_timeout(Some(Duration::from_secs(2))).unwrap();
    let (text, closed) = read_to_close(s);
    closed && text.is_empty()
}

/// `n` connections that send nothing, opened 30 ms apart (oldest first).
fn idle_sockets(addr: SocketAddr, n: usize) -> Vec<TcpStream> {
    (0..n)
        .map(|_| {
            let s = connect(addr);
            std::thread::sleep(Duration::from_millis(30));
            s
        })
        .collect()
}

/// Fills a cap of `n` with idle connections, then checks that a newcomer is served and the
/// oldest idle one closed to make room; the idle ones, oldest first.
fn a_newcomer_closes_the_oldest_idle(addr: SocketAddr, n: usize) -> Vec<TcpStream> {
    let mut idle = idle_sockets(addr, n);
    std::thread::sleep(Duration::from_millis(100));
    assert!(get_rules(addr).starts_with("HTTP/1.1 200"));
    idle[0]
        .set_read_timeout(Some(Duration::from_secs(2)))
        .unwrap();
    assert!(read_to_close(&mut idle[0]).1, "the oldest idle one stayed");
    idle
}

/// `n` connections, each with a request in flight.
fn busy_sockets(addr: SocketAddr, n: usize) -> Vec<TcpStream> {
    (0..n)
        .map(|_| {
            let mut s = connect(addr);
            stalled_post(&mut s);
            s
        })
        .collect()
}

/// A connection from another loopback address (Linux routes all of 127/8 to lo).
fn connect_from(local: &str, addr: SocketAddr) -> TcpStream {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let s = rt.block_on(async {
        let sock = tokio::net::TcpSocket::new_v4().unwrap();
        sock.bind(format!("{local}:0").parse().unwrap()).unwrap();
        sock.connect(addr).await.unwrap()
    });
    let s = s.into_std().unwrap();
    s.set_nonblocking(false).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(8))).unwrap();
    s
}

#[test]
fn when_full_the_oldest_idle_connection_makes_room_and_busy_ones_stay() {
    let addr = start(patient(Limits {
        max_connections: 8,
        ..limits()
    }));
    // Eight idle sockets fill the cap: a ninth connection is served, and the oldest idle
    // one is closed to make room (before, the newcomer was refused).
    let mut idle = a_newcomer_closes_the_oldest_idle(addr, 8);
    // The newest idle one is still there, and answers.
    assert!(get_rules_on(idle.last_mut().unwrap()).starts_with("HTTP/1.1 200"));
    drop(idle);
    std::thread::sleep(Duration::from_millis(200));
    // Eight requests in flight fill the cap: none is idle, so a newcomer is closed at once.
    let busy = busy_sockets(addr, 8);
    std::thread::sleep(Duration::from_millis(200));
    assert!(closed_at_once(&mut connect(addr)));
    drop(busy);
    std::thread::sleep(Duration::from_millis(200));
    assert!(get_rules(addr).starts_with("HTTP/1.1 200"));
}

#[test]
fn one_address_cannot_take_every_connection() {
    let addr = start(patient(Limits {
        max_connections: 64,
        max_per_address: 4,
        ..limits()
    }));
    let busy = busy_sockets(addr, 4);
    std::thread::sleep(Duration::from_millis(200));
    // A fifth from the same address is closed at once; another address is served.
    assert!(closed_at_once(&mut connect(addr)));
    assert!(get_rules_on(&mut connect_from("127.0.0.2", addr)).starts_with("HTTP/1.1 200"));
    // Idle ones of the address make room for its newcomers, oldest first.
    drop(busy);
    std::thread::sleep(Duration::from_millis(200));
    a_newcomer_closes_the_oldest_idle(addr, 4);
}

#[test]
fn a_trusted_proxys_connections_are_not_capped_per_address() {
    let addr = start(patient(Limits {
        max_connections: 64,
        max_per_address: 2,
        trusted_proxies: vec!["127.0.0.1".parse().unwrap()],
        ..limits()
    }));
    let busy = busy_sockets(addr, 4);
    std::thread::sleep(Duration::from_millis(200));
    assert!(get_rules(addr).starts_with("HTTP/1.1 200"));
    drop(busy);
}

/// A new online game's ID, made over a socket.
fn new_game(addr: SocketAddr) -> String {
    let body = r#"{"rules":"kendall5","mode":"online"}"#;
    let mut s = connect(addr);
    s.write_all(
        format!(
            "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .as_bytes(),
    )
    .unwrap();
    let text = read_to_close(&mut s).0;
    let json = &text[text.find("\r\n\r\n").unwrap() + 4..];
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    v["id"].as_str().unwrap().to_string()
}

#[test]
fn websockets_hold_their_place_are_capped_and_closed_when_silent() {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    let addr = start(patient(Limits {
        max_connections: 6,
        max_per_address: 6,
        max_websockets: 3,
        ws_ping: Duration::from_millis(300),
        ..limits()
    }));
    let id = new_game(addr);
    let url = format!("ws://{addr}/api/games/{id}/ws");
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        // Two sockets whose clients read (so they answer the pings), one that never reads.
        let mut live = Vec::new();
        for _ in 0..2 {
            live.push(tokio_tungstenite::connect_async(&url).await.unwrap().0);
        }
        let (mut silent, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
        // The server's WebSocket cap: a fourth is refused with 503.
        let e = tokio_tungstenite::connect_async(&url).await.unwrap_err();
        assert!(e.to_string().contains("503"), "{e}");
        // The three sockets keep their connections' places: with three requests in flight
        // the cap of six is full, and a newcomer is closed at once.
        let busy = busy_sockets(addr, 3);
        tokio::time::sleep(Duration::from_millis(200)).await;
        let over = tokio::task::spawn_blocking(move || closed_at_once(&mut connect(addr)));
        assert!(over.await.unwrap(), "a WebSocket was not counted");
        drop(busy);
        // Read the answering sockets for 1.5 s (five pings): they stay open.
        let readers: Vec<_> = live
            .into_iter()
            .map(|mut ws| {
                tokio::spawn(async move {
                    let (mut pings, mut closed) = (0, false);
                    let end = tokio::time::Instant::now() + Duration::from_millis(1500);
                    while let Ok(m) = tokio::time::timeout_at(end, ws.next()).await {
                        match m {
                            Some(Ok(Message::Ping(_))) => pings += 1,
                            Some(Ok(Message::Close(_))) | Some(Err(_)) | None => {
                                closed = true;
                                break;
                            }
                            _ => {}
                        }
                    }
                    (pings, closed)
                })
            })
            .collect();
        for r in readers {
            let (pings, closed) = r.await.unwrap();
            assert!(pings >= 3 && !closed, "pings {pings}, closed {closed}");
        }
        // The silent one was closed by the server (it never answered a ping) ...
        let mut ended = false;
        let end = tokio::time::Instant::now() + Duration::from_secs(3);
        while let Ok(Some(m)) = tokio::time::timeout_at(end, silent.next()).await {
            if matches!(m, Ok(Message::Close(_)) | Err(_)) {
                ended = true;
                break;
            }
        }
        assert!(ended, "a silent WebSocket was kept open");
        // ... so its place is free for a new socket.
        assert!(tokio_tungstenite::connect_async(&url).await.is_ok());
    });
}
