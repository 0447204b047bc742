//! The connection layer over real sockets: slow headers, a stalled body, idle keep-alive
//! connections and the cap on open connections.

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
    let mut s = connect(addr);
    s.write_all(b"GET /api/rules HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    read_to_close(&mut s).0
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
fn idle_connections_are_closed_and_the_cap_keeps_room_for_others() {
    let addr = start(Limits {
        max_connections: 16,
        ..limits()
    });
    // Sixteen idle sockets fill the cap: a seventeenth connection is closed at once.
    let idle: Vec<TcpStream> = (0..16).map(|_| connect(addr)).collect();
    std::thread::sleep(Duration::from_millis(100));
    let mut over = connect(addr);
    let _ = over.write_all(b"GET /api/rules HTTP/1.1\r\nHost: x\r\n\r\n");
    let (text, closed) = read_to_close(&mut over);
    assert!(closed && text.is_empty(), "{text}");
    // The idle ones are dropped after the header deadline; then everyone is served again.
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
