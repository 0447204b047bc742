#![allow(dead_code)] // shared by tests/load.rs and examples/load.rs, which use different parts
//! A bounded loopback load generator for `senet serve`: client threads, each with one
//! keep-alive HTTP/1.1 connection, play many hot-seat games at once through the JSON API,
//! choosing uniformly random legal moves (seeded). It stops at a deadline or a move count,
//! whichever comes first, and sends traffic only to the 127.0.0.1 server it started.
//! Used by `tests/load.rs` (a short check) and `examples/load.rs` (the measurement).

use senet_server::{router, Limits, PgStore, Service, SqliteStore, Store};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What to run.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Client threads (each one connection, one request in flight).
    pub clients: usize,
    /// Games each client keeps going at once, in turn.
    pub games_per_client: usize,
    /// Stop after this long.
    pub seconds: f64,
    /// Stop after this many accepted moves in all.
    pub max_moves: u64,
    /// Rule set of the games.
    pub rules: String,
    /// A PostgreSQL database URL to use instead of a SQLite file under the directory.
    pub postgres: Option<String>,
    /// Servers sharing the database (PostgreSQL only); client `c` talks to server
    /// `c % servers`.
    pub servers: usize,
}

/// What happened.
#[derive(Debug, Default)]
pub struct Report {
    /// Accepted moves (decisions), forfeits included.
    pub moves: u64,
    /// Accepted throws.
    pub throws: u64,
    /// Games created / finished.
    pub created: u64,
    /// Games finished.
    pub finished: u64,
    /// Requests that failed (non-2xx or I/O).
    pub errors: u64,
    /// Wall time, seconds.
    pub seconds: f64,
    /// Latency of every throw and move request, microseconds, sorted.
    pub latencies_us: Vec<u32>,
    /// Game IDs with the moves each client saw accepted, to check against the database.
    pub accepted: Vec<(String, u64)>,
    /// CPU time the client threads used, seconds (Linux; 0 elsewhere).
    pub client_cpu_s: f64,
}

/// CPU time the calling thread has used, seconds (Linux's `/proc/thread-self/schedstat`;
/// 0 where it cannot be read).
pub fn thread_cpu_s() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map_or(0.0, |ns| ns as f64 / 1e9)
}

impl Report {
    /// The latency at quantile `q` (0..1), milliseconds.
    pub fn quantile_ms(&self, q: f64) -> f64 {
        if self.latencies_us.is_empty() {
            return 0.0;
        }
        let i = ((self.latencies_us.len() as f64 - 1.0) * q).round() as usize;
        self.latencies_us[i] as f64 / 1000.0
    }
}

struct Conn {
    r: BufReader<TcpStream>,
    addr: SocketAddr,
}

impl Conn {
    fn open(addr: SocketAddr) -> std::io::Result<Conn> {
        let s = TcpStream::connect(addr)?;
        s.set_nodelay(true)?;
        s.set_read_timeout(Some(Duration::from_secs(30)))?;
        Ok(Conn {
            r: BufReader::new(s),
            addr,
        })
    }

    fn request(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: &str,
    ) -> std::io::Result<(u16, Vec<u8>)> {
        let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        self.r.get_mut().write_all(req.as_bytes())?;
        let mut line = String::new();
        self.r.read_line(&mut line)?;
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .ok_or_else(|| std::io::Error::other(format!("bad status line {line:?}")))?;
        let mut len = 0;
        loop {
            line.clear();
            self.r.read_line(&mut line)?;
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            if let Some(v) = l
                .split_once(':')
                .filter(|(k, _)| k.eq_ignore_ascii_case("content-length"))
            {
                len = v.1.trim().parse().unwrap_or(0);
            }
        }
        let mut out = vec![0; len];
        self.r.read_exact(&mut out)?;
        Ok((status, out))
    }
}

struct Game {
    id: String,
    tokens: Value,
    state: Value,
    accepted: u64,
}

/// Starts a server on 127.0.0.1 (a file database under `dir`, rate limit off) on a tokio
/// runtime with two worker threads, runs the plan against it, and stops everything.
pub fn run(plan: &Plan, dir: &Path) -> Report {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let limits = Limits {
        per_second: 0.0,
        // Every simulated player comes from loopback.
        per_address: senet_server::service::AddressLimits::off(),
        ..Limits::default()
    };
    let mut stores: Vec<Arc<dyn Store>> = Vec::new();
    match &plan.postgres {
        None => {
            let db = dir.join("load.sqlite");
            for ext in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{ext}", db.display()));
            }
            stores.push(Arc::new(SqliteStore::open(&db).unwrap()));
        }
        Some(url) => {
            for _ in 0..plan.servers.max(1) {
                stores.push(Arc::new(PgStore::open(url).unwrap()));
            }
        }
    }
    let mut addrs = Vec::new();
    let mut stops = Vec::new();
    let mut servers = Vec::new();
    for store in stores {
        let svc = Service::new(store);
        let w = svc.clone();
        rt.block_on(async { tokio::task::spawn_blocking(move || w.watch_store()).await })
            .unwrap()
            .unwrap();
        let app = router(svc, limits.clone());
        let listener = rt
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .unwrap();
        addrs.push(listener.local_addr().unwrap());
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let l = limits.clone();
        servers.push(rt.spawn(async move {
            senet_server::http::serve(listener, app, &l, async {
                let _ = stop_rx.await;
            })
            .await
        }));
        stops.push(stop_tx);
    }

    let moves = Arc::new(AtomicU64::new(0));
    let done = Arc::new(AtomicBool::new(false));
    let start = Instant::now();
    let deadline = start + Duration::from_secs_f64(plan.seconds);
    let threads: Vec<_> = (0..plan.clients)
        .map(|c| {
            let plan = plan.clone();
            let moves = moves.clone();
            let done = done.clone();
            let addr = addrs[c % addrs.len()];
            std::thread::spawn(move || client(c as u64, &plan, addr, deadline, &moves, &done))
        })
        .collect();
    let mut report = Report::default();
    for t in threads {
        let r = t.join().unwrap();
        report.moves += r.moves;
        report.throws += r.throws;
        report.created += r.created;
        report.finished += r.finished;
        report.errors += r.errors;
        report.latencies_us.extend(r.latencies_us);
        report.accepted.extend(r.accepted);
        report.client_cpu_s += r.client_cpu_s;
    }
    report.seconds = start.elapsed().as_secs_f64();
    report.latencies_us.sort_unstable();
    for s in stops {
        let _ = s.send(());
    }
    for s in servers {
        let _ = rt.block_on(s);
    }
    // The stores close their connections off the runtime's threads.
    drop(rt);
    report
}

fn client(
    c: u64,
    plan: &Plan,
    addr: SocketAddr,
    deadline: Instant,
    moves: &AtomicU64,
    done: &AtomicBool,
) -> Report {
    let mut r = Report::default();
    let mut conn = match Conn::open(addr) {
        Ok(x) => x,
        Err(_) => {
            r.errors += 1;
            return r;
        }
    };
    // SplitMix64: the client's seeded choice of moves.
    let mut rng =
        senet_rules::seed::SplitMix(c.wrapping_mul(senet_rules::seed::GAMMA) ^ 0x1234_5678);
    let mut next = move || rng.next_u64();
    let create = json!({ "rules": plan.rules, "mode": "hotseat" }).to_string();
    let mut games: Vec<Option<Game>> = (0..plan.games_per_client).map(|_| None).collect();
    let mut i = 0;
    while Instant::now() < deadline && !done.load(Ordering::Relaxed) {
        let slot = &mut games[i % plan.games_per_client];
        i += 1;
        let g = match slot {
            Some(g) => g,
            None => match conn.request("POST", "/api/games", None, &create) {
                Ok((201, b)) => {
                    let v: Value = serde_json::from_slice(&b).unwrap();
                    r.created += 1;
                    slot.insert(Game {
                        id: v["id"].as_str().unwrap().to_string(),
                        tokens: v["tokens"].clone(),
                        state: v["state"].clone(),
                        accepted: 0,
                    })
                }
                _ => {
                    r.errors += 1;
                    continue;
                }
            },
        };
        let st = &g.state["status"];
        if st["state"] == "over" {
            r.finished += 1;
            r.accepted.push((g.id.clone(), g.accepted));
            *slot = None;
            continue;
        }
        let token = g.tokens[st["player"].to_string()]
            .as_str()
            .unwrap()
            .to_string();
        let seq = &g.state["seq"];
        let throw = st["state"] == "throw";
        let (path, body) = if throw {
            (
                format!("/api/games/{}/throw", g.id),
                json!({ "seq": seq }).to_string(),
            )
        } else {
            let legal = g.state["legal"].as_array().unwrap();
            let k = ((next() >> 32) * legal.len() as u64) >> 32;
            (
                format!("/api/games/{}/move", g.id),
                json!({ "move": legal[k as usize]["move"], "seq": seq }).to_string(),
            )
        };
        let t = Instant::now();
        match conn.request("POST", &path, Some(&token), &body) {
            Ok((200, b)) => {
                r.latencies_us.push(t.elapsed().as_micros() as u32);
                g.state = serde_json::from_slice(&b).unwrap();
                if throw {
                    r.throws += 1;
                } else {
                    r.moves += 1;
                    g.accepted += 1;
                    if moves.fetch_add(1, Ordering::Relaxed) + 1 >= plan.max_moves {
                        done.store(true, Ordering::Relaxed);
                    }
                }
            }
            _ => {
                r.errors += 1;
                match Conn::open(addr) {
                    Ok(x) => conn = x,
                    Err(_) => break,
                }
            }
        }
    }
    for g in games.into_iter().flatten() {
        r.accepted.push((g.id, g.accepted));
    }
    r.client_cpu_s = thread_cpu_s();
    r
}
