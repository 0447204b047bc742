//! The online load run of issue 33 (bounded, loopback only): simulated players seek, pair and
//! play rated kendall5 games on a clock through several `senet serve` servers on one
//! PostgreSQL database, then the database is checked: every seek paired once, no game lost
//! or doubled, every game finished, every rating update applied once (the sum of the rating
//! changes equals the sum of the ratings' moves from 1500).
//!
//!     cargo run --release -p senet-server --example online_load -- [--players 200]
//!         [--games 1000] [--servers 2] [--threads 8] [--clock 5+3] [--seed 1]
//!         [--db postgres://...]
//!
//! Without `--db` it starts a throwaway PostgreSQL cluster with PostgreSQL's default
//! durability. Player `p` uses server `p % servers` and client thread `p % threads`; each
//! thread holds one keep-alive HTTP connection and one lobby WebSocket per server it uses.
//! An idle player either asks for quick pairing (`POST /api/pairing`) or looks at the open
//! seeks and accepts one of another player (`POST /api/seeks/{id}/accept`), opening a seek of
//! its own when there is none; a waiting player learns of its game from the lobby's `paired`
//! message (on its own server, whichever server made the pairing). Moves are uniformly random
//! legal moves. The clients stand in for the game's WebSocket by handing the state to the
//! opponent's thread after each turn (in process), so that no request is spent polling.
//!
//! Figures and the machine they were measured on: docs/performance.md.

#[path = "../tests/support/cpu.rs"]
mod cpu;
#[path = "../tests/support/pg.rs"]
mod pg;

use rand::{Rng, SeedableRng};
use senet_server::{router, Limits, PgStore, Service, Store};
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet, VecDeque};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

struct Conn {
    r: BufReader<TcpStream>,
    addr: SocketAddr,
}

impl Conn {
    fn open(addr: SocketAddr) -> Conn {
        let s = TcpStream::connect(addr).expect("connect");
        s.set_nodelay(true).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        Conn {
            r: BufReader::new(s),
            addr,
        }
    }

    /// One request with the player's cookie and CSRF token; the status, the session cookie
    /// if one was set, and the body.
    fn request(
        &mut self,
        method: &str,
        path: &str,
        who: Option<(&str, &str)>,
        body: &str,
    ) -> (u16, Option<String>, Value) {
        let auth = who.map_or(String::new(), |(cookie, csrf)| {
            format!("Cookie: senet_session={cookie}\r\nX-CSRF-Token: {csrf}\r\n")
        });
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        self.r.get_mut().write_all(req.as_bytes()).unwrap();
        let mut line = String::new();
        self.r.read_line(&mut line).unwrap();
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("bad status line {line:?}"));
        let (mut len, mut cookie) = (0, None);
        loop {
            line.clear();
            self.r.read_line(&mut line).unwrap();
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            if let Some((k, v)) = l.split_once(':') {
                if k.eq_ignore_ascii_case("content-length") {
                    len = v.trim().parse().unwrap_or(0);
                }
                if k.eq_ignore_ascii_case("set-cookie") {
                    cookie = v
                        .trim()
                        .split(';')
                        .next()
                        .and_then(|kv| kv.strip_prefix("senet_session="))
                        .map(str::to_string);
                }
            }
        }
        let mut out = vec![0; len];
        self.r.read_exact(&mut out).unwrap();
        (
            status,
            cookie,
            serde_json::from_slice(&out).unwrap_or(Value::Null),
        )
    }
}

type Ws = tokio_tungstenite::tungstenite::WebSocket<TcpStream>;

fn lobby(addr: SocketAddr) -> Ws {
    let s = TcpStream::connect(addr).unwrap();
    let (ws, _) =
        tokio_tungstenite::tungstenite::client::client(format!("ws://{addr}/api/lobby/ws"), s)
            .expect("lobby WebSocket");
    ws.get_ref()
        .set_read_timeout(Some(Duration::from_millis(1)))
        .unwrap();
    ws
}

#[derive(Clone, Debug, PartialEq)]
enum Doing {
    Idle,
    Waiting(String),
    Playing(String),
}

struct Player {
    id: String,
    cookie: String,
    csrf: String,
    server: usize,
    doing: Doing,
    /// When the player last acted or heard of its game.
    last: Instant,
}

/// A turn handed to a player's thread: game and state.
type Inbox = Mutex<VecDeque<(usize, String, Value)>>;

#[derive(Default)]
struct Counts {
    started: AtomicU64,
    finished: AtomicU64,
    moves: AtomicU64,
    throws: AtomicU64,
    errors: AtomicU64,
    stale: AtomicU64,
    accept_lost: AtomicU64,
    seeks: AtomicU64,
    pairings: AtomicU64,
    accepts: AtomicU64,
    found_by_me: AtomicU64,
    reread: AtomicU64,
}

struct Shared {
    target: u64,
    clock: Value,
    inboxes: Vec<Inbox>,
    owner: HashMap<String, (usize, usize)>,
    counts: Counts,
    /// Every game a client heard of, and those it saw end.
    known: Mutex<HashSet<String>>,
    ended: Mutex<HashSet<String>>,
    double: AtomicU64,
    move_us: Mutex<Vec<u32>>,
    /// What each player is doing (for the report of a stalled run).
    doing: Mutex<HashMap<String, String>>,
    client_cpu: Mutex<f64>,
}

fn thread_cpu_s() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map_or(0.0, |ns| ns as f64 / 1e9)
}

fn client(t: usize, mut mine: Vec<Player>, addrs: Vec<SocketAddr>, sh: Arc<Shared>, seed: u64) {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(seed ^ (t as u64 + 1).wrapping_mul(0x9E37));
    let mut conns: Vec<Conn> = addrs.iter().map(|&a| Conn::open(a)).collect();
    let mut lobbies: Vec<Ws> = addrs.iter().map(|&a| lobby(a)).collect();
    let mut ready: VecDeque<(usize, String, Value)> = VecDeque::new();
    let mut lat = Vec::new();
    let c = &sh.counts;
    let deadline = Instant::now() + Duration::from_secs(1800);
    let hand = |p: &str, game: &str, st: &Value| {
        if let Some(&(th, i)) = sh.owner.get(p) {
            sh.inboxes[th]
                .lock()
                .unwrap()
                .push_back((i, game.to_string(), st.clone()));
        }
    };
    loop {
        let mut busy = false;
        // Pairings told by the lobby.
        for ws in lobbies.iter_mut() {
            while let Ok(m) = ws.read() {
                let Ok(text) = m.into_text() else { continue };
                let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
                if v["type"] != "paired" {
                    continue;
                }
                let game = v["game"].as_str().unwrap().to_string();
                // Both servers tell a pairing (the other one a moment later): a game already
                // over is old news.
                if sh.ended.lock().unwrap().contains(&game) {
                    continue;
                }
                for p in v["players"].as_array().unwrap() {
                    let Some(&(th, i)) = sh.owner.get(p.as_str().unwrap()) else {
                        continue;
                    };
                    if th != t || mine[i].doing == Doing::Playing(game.clone()) {
                        continue;
                    }
                    if matches!(mine[i].doing, Doing::Playing(_)) {
                        sh.double.fetch_add(1, Ordering::Relaxed);
                        continue;
                    }
                    mine[i].doing = Doing::Playing(game.clone());
                    ready.push_back((i, game.clone(), Value::Null));
                    busy = true;
                }
            }
        }
        ready.extend(sh.inboxes[t].lock().unwrap().drain(..));
        // What a page does when its live connection missed something: a waiting player
        // looks at its games (GET /api/me), a player whose game went quiet reads it again.
        for (i, p) in mine.iter_mut().enumerate() {
            if p.last.elapsed() < Duration::from_secs(3) {
                continue;
            }
            p.last = Instant::now();
            match p.doing.clone() {
                Doing::Playing(g) => {
                    c.reread.fetch_add(1, Ordering::Relaxed);
                    ready.push_back((i, g, Value::Null));
                }
                Doing::Waiting(_) => {
                    let who = Some((p.cookie.as_str(), p.csrf.as_str()));
                    let (_, _, me) = conns[p.server].request("GET", "/api/me", who, "");
                    if let Some(g) = me["playing"].as_array().and_then(|a| a.first()) {
                        c.found_by_me.fetch_add(1, Ordering::Relaxed);
                        let g = g.as_str().unwrap().to_string();
                        p.doing = Doing::Playing(g.clone());
                        ready.push_back((i, g, Value::Null));
                    }
                }
                Doing::Idle => {}
            }
        }
        // Turns.
        while let Some((i, game, mut st)) = ready.pop_front() {
            busy = true;
            // Every game a client hears of is counted once.
            if sh.known.lock().unwrap().insert(game.clone()) {
                c.started.fetch_add(1, Ordering::Relaxed);
            }
            if mine[i].doing != Doing::Playing(game.clone())
                && sh.ended.lock().unwrap().contains(&game)
            {
                continue;
            }
            if mine[i].doing != Doing::Playing(game.clone()) {
                if matches!(mine[i].doing, Doing::Waiting(_)) || mine[i].doing == Doing::Idle {
                    // A turn handed before the lobby's message: take the game now.
                    if mine[i].doing == Doing::Idle
                        && !st.is_null()
                        && st["status"]["state"] == "over"
                    {
                        continue;
                    }
                    mine[i].doing = Doing::Playing(game.clone());
                } else {
                    continue;
                }
            }
            mine[i].last = Instant::now();
            let p = &mine[i];
            let who = Some((p.cookie.as_str(), p.csrf.as_str()));
            let conn = &mut conns[p.server];
            if st.is_null() {
                let (s, _, v) = conn.request("GET", &format!("/api/games/{game}"), who, "");
                if s != 200 {
                    c.errors.fetch_add(1, Ordering::Relaxed);
                    continue;
                }
                st = v;
            }
            let you = st["players"]
                .as_array()
                .and_then(|a| a.iter().position(|x| x["id"] == json!(p.id)))
                .map(|s| s as u64 + 1);
            // Only a player whose own action changed the turn tells the other: a state read
            // again after a refusal is already the other's news.
            let mut acted = false;
            loop {
                let state = st["status"]["state"].as_str().unwrap_or("over").to_string();
                if state == "over" {
                    if mine[i].doing == Doing::Playing(game.clone()) {
                        mine[i].doing = Doing::Idle;
                        // The other player learns of the end too.
                        let other = st["players"][(you.unwrap_or(1) % 2) as usize]["id"]
                            .as_str()
                            .unwrap_or_default()
                            .to_string();
                        if sh.ended.lock().unwrap().insert(game.clone()) {
                            c.finished.fetch_add(1, Ordering::Relaxed);
                        }
                        if acted {
                            hand(&other, &game, &st);
                        }
                    }
                    break;
                }
                if st["status"]["player"].as_u64() != you {
                    let other = st["players"][(you.unwrap_or(1) % 2) as usize]["id"]
                        .as_str()
                        .unwrap_or_default()
                        .to_string();
                    if acted {
                        hand(&other, &game, &st);
                    }
                    break;
                }
                let seq = st["seq"].clone();
                let t0 = Instant::now();
                let (s, _, v) = if state == "throw" {
                    conns[p.server].request(
                        "POST",
                        &format!("/api/games/{game}/throw"),
                        who,
                        &json!({ "seq": seq }).to_string(),
                    )
                } else {
                    let legal = st["legal"].as_array().unwrap();
                    let m = &legal[rng.random_range(0..legal.len())]["move"];
                    conns[p.server].request(
                        "POST",
                        &format!("/api/games/{game}/move"),
                        who,
                        &json!({ "move": m, "seq": seq }).to_string(),
                    )
                };
                match s {
                    200 => {
                        acted = true;
                        if state == "throw" {
                            c.throws.fetch_add(1, Ordering::Relaxed);
                        } else {
                            c.moves.fetch_add(1, Ordering::Relaxed);
                            lat.push(t0.elapsed().as_micros() as u32);
                        }
                        st = v;
                    }
                    409 => {
                        // A state handed late (the other side acted on its own reading):
                        // read the game again.
                        c.stale.fetch_add(1, Ordering::Relaxed);
                        let (s, _, v) =
                            conns[p.server].request("GET", &format!("/api/games/{game}"), who, "");
                        if s != 200 {
                            c.errors.fetch_add(1, Ordering::Relaxed);
                            break;
                        }
                        st = v;
                    }
                    _ => {
                        c.errors.fetch_add(1, Ordering::Relaxed);
                        eprintln!("{s} on {game}: {v}");
                        break;
                    }
                }
            }
        }
        // Idle players look for a game while games are wanted.
        let wanted = c.started.load(Ordering::Relaxed) < sh.target;
        for (i, p) in mine.iter_mut().enumerate() {
            let who = Some((p.cookie.as_str(), p.csrf.as_str()));
            let conn = &mut conns[p.server];
            match (&p.doing, wanted) {
                (Doing::Waiting(seek), false) => {
                    let (s, _, _) = conn.request("DELETE", &format!("/api/seeks/{seek}"), who, "");
                    if s == 200 {
                        p.doing = Doing::Idle;
                    }
                    busy = true;
                }
                (Doing::Idle, true) => {
                    busy = true;
                    let body =
                        json!({"rules": "kendall5", "rated": true, "clock": sh.clock}).to_string();
                    let got = if rng.random_bool(0.5) {
                        c.pairings.fetch_add(1, Ordering::Relaxed);
                        let (s, _, v) = conn.request("POST", "/api/pairing", who, &body);
                        match s {
                            200 => Some(v["game"].as_str().unwrap().to_string()),
                            202 => {
                                p.doing = Doing::Waiting(v["seek"].as_str().unwrap().into());
                                p.last = Instant::now();
                                None
                            }
                            _ => {
                                c.errors.fetch_add(1, Ordering::Relaxed);
                                None
                            }
                        }
                    } else {
                        let (_, _, seeks) = conn.request("GET", "/api/seeks", who, "");
                        let theirs: Vec<&Value> = seeks
                            .as_array()
                            .map(|a| {
                                a.iter()
                                    .filter(|s| s["player"]["id"] != json!(p.id))
                                    .collect()
                            })
                            .unwrap_or_default();
                        if theirs.is_empty() {
                            let (s, _, v) = conn.request("POST", "/api/seeks", who, &body);
                            if s == 201 {
                                c.seeks.fetch_add(1, Ordering::Relaxed);
                                p.doing = Doing::Waiting(v["id"].as_str().unwrap().into());
                                p.last = Instant::now();
                            } else {
                                c.errors.fetch_add(1, Ordering::Relaxed);
                            }
                            None
                        } else {
                            let s = theirs[rng.random_range(0..theirs.len())];
                            let sid = s["id"].as_str().unwrap();
                            let (st, _, v) =
                                conn.request("POST", &format!("/api/seeks/{sid}/accept"), who, "");
                            match st {
                                201 => {
                                    c.accepts.fetch_add(1, Ordering::Relaxed);
                                    Some(v["game"].as_str().unwrap().to_string())
                                }
                                409 => {
                                    c.accept_lost.fetch_add(1, Ordering::Relaxed);
                                    None
                                }
                                _ => {
                                    c.errors.fetch_add(1, Ordering::Relaxed);
                                    None
                                }
                            }
                        }
                    };
                    if let Some(game) = got {
                        p.doing = Doing::Playing(game.clone());
                        ready.push_back((i, game, Value::Null));
                    }
                }
                _ => {}
            }
        }
        let all_idle = mine.iter().all(|p| p.doing == Doing::Idle);
        if (!wanted && all_idle && sh.inboxes[t].lock().unwrap().is_empty() && ready.is_empty())
            || Instant::now() > deadline
        {
            break;
        }
        if !busy {
            let mut d = sh.doing.lock().unwrap();
            for p in &mine {
                d.insert(p.id.clone(), format!("{:?}", p.doing));
            }
            drop(d);
            std::thread::sleep(Duration::from_millis(2));
        }
    }
    sh.move_us.lock().unwrap().extend(lat);
    *sh.client_cpu.lock().unwrap() += thread_cpu_s();
}

fn main() {
    let (mut players, mut target, mut servers, mut threads, mut clock, mut seed, mut db) = (
        200usize,
        1000u64,
        2usize,
        8usize,
        "5+3".to_string(),
        1u64,
        None::<String>,
    );
    let args: Vec<String> = std::env::args().skip(1).collect();
    for w in args.chunks(2) {
        let v = w.get(1).cloned().unwrap_or_default();
        let num = |what: &str| -> u64 {
            v.parse().ok().filter(|&n| n > 0).unwrap_or_else(|| {
                eprintln!("error: {what} needs a positive number, got {v:?}");
                std::process::exit(2)
            })
        };
        match w[0].as_str() {
            "--players" => players = num("--players").max(2) as usize,
            "--games" => target = num("--games"),
            "--servers" => servers = num("--servers").min(8) as usize,
            "--threads" => threads = num("--threads").min(64) as usize,
            "--seed" => seed = num("--seed"),
            "--clock" => clock = v,
            "--db" => db = Some(v),
            a => {
                eprintln!("error: unknown argument {a:?}; see the comment at the top of examples/online_load.rs");
                std::process::exit(2)
            }
        }
    }
    let spec = senet_server::online::ClockSpec::parse(&clock).unwrap_or_else(|e| {
        eprintln!("error: --clock: {e} (write it as 5+3)");
        std::process::exit(2)
    });
    eprintln!("starting PostgreSQL and {servers} servers ...");
    let cluster = db.is_none().then(|| pg::Cluster::start_with(""));
    let url = db.unwrap_or_else(|| cluster.as_ref().unwrap().create_db("online"));
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let limits = Limits {
        per_second: 0.0,
        // Every simulated player comes from loopback.
        per_address: senet_server::service::AddressLimits::off(),
        max_websockets: 4096,
        ..Limits::default()
    };
    let mut addrs = Vec::new();
    for _ in 0..servers {
        let store: Arc<dyn Store> = Arc::new(PgStore::open(&url).expect("the database"));
        let svc = Service::new(store);
        let w = svc.clone();
        rt.block_on(async { tokio::task::spawn_blocking(move || w.watch_store()).await })
            .unwrap()
            .unwrap();
        let listener = rt
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .unwrap();
        addrs.push(listener.local_addr().unwrap());
        let l = limits.clone();
        rt.spawn(async move {
            let app = router(svc, l.clone());
            senet_server::http::serve(listener, app, &l, std::future::pending()).await
        });
    }
    // The players: anonymous, one session each.
    let mut all: Vec<Vec<Player>> = (0..threads).map(|_| Vec::new()).collect();
    let mut owner = HashMap::new();
    let mut conns: Vec<Conn> = addrs.iter().map(|&a| Conn::open(a)).collect();
    for p in 0..players {
        let server = p % servers;
        let (s, cookie, me) = conns[server].request("POST", "/api/me", None, "");
        assert_eq!(s, 201, "{me}");
        let t = p % threads;
        owner.insert(me["id"].as_str().unwrap().to_string(), (t, all[t].len()));
        all[t].push(Player {
            id: me["id"].as_str().unwrap().into(),
            cookie: cookie.expect("the session cookie"),
            csrf: me["csrf"].as_str().unwrap().into(),
            server,
            doing: Doing::Idle,
            last: Instant::now(),
        });
    }
    drop(conns);
    let sh = Arc::new(Shared {
        target,
        clock: serde_json::to_value(spec.to_json()).unwrap(),
        inboxes: (0..threads).map(|_| Mutex::new(VecDeque::new())).collect(),
        owner,
        counts: Counts::default(),
        known: Mutex::new(HashSet::new()),
        ended: Mutex::new(HashSet::new()),
        double: AtomicU64::new(0),
        move_us: Mutex::new(Vec::new()),
        doing: Mutex::new(HashMap::new()),
        client_cpu: Mutex::new(0.0),
    });
    let before = cpu::Cpu::now(cluster.as_ref().and_then(|c| c.postmaster_pid()));
    let start = Instant::now();
    let handles: Vec<_> = all
        .into_iter()
        .enumerate()
        .map(|(t, mine)| {
            let (a, s) = (addrs.clone(), sh.clone());
            std::thread::spawn(move || client(t, mine, a, s, seed))
        })
        .collect();
    let progress = {
        let sh = sh.clone();
        let url = url.clone();
        let mut last = (0, Instant::now());
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_secs(5));
            let c = &sh.counts;
            let m = c.moves.load(Ordering::Relaxed);
            if m != last.0 {
                last = (m, Instant::now());
            } else if last.1.elapsed() > Duration::from_secs(12) {
                let u = url.clone();
                let rows = std::thread::spawn(move || {
                    let mut db = postgres::Client::connect(&u, postgres::NoTls).unwrap();
                    db.query("SELECT id, player1, player2, state, player, nevents FROM games WHERE player1 IS NOT NULL AND state <> 'over'", &[])
                        .unwrap()
                        .iter()
                        .map(|r| {
                            let (id, p1, p2, st, pl, n): (String, String, String, String, Option<i16>, i32) =
                                (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4), r.get(5));
                            (id, p1, p2, st, pl, n)
                        })
                        .collect::<Vec<_>>()
                })
                .join()
                .unwrap();
                let d = sh.doing.lock().unwrap();
                for (id, p1, p2, st, pl, n) in rows {
                    eprintln!(
                        "stalled {id}: {st} by {pl:?} after {n} events; seat 1 {p1} {:?}; seat 2 {p2} {:?}",
                        d.get(&p1),
                        d.get(&p2)
                    );
                }
            }
            eprintln!(
                "... {:.0} s: games started {}, finished {}, moves {}",
                start.elapsed().as_secs_f64(),
                c.started.load(Ordering::Relaxed),
                c.finished.load(Ordering::Relaxed),
                c.moves.load(Ordering::Relaxed)
            );
            if Arc::strong_count(&sh) <= 2 {
                return;
            }
        })
    };
    for h in handles {
        h.join().unwrap();
    }
    drop(progress);
    let wall = start.elapsed().as_secs_f64();
    // Let the sweepers apply the last ratings.
    std::thread::sleep(Duration::from_secs(6));
    let after = cpu::Cpu::now(cluster.as_ref().and_then(|c| c.postmaster_pid()));
    let c = &sh.counts;
    let started = c.started.load(Ordering::Relaxed);
    // The database's account of it.
    let u = url.clone();
    let check = std::thread::spawn(move || {
        let mut db = postgres::Client::connect(&u, postgres::NoTls).expect("connect");
        let one = |db: &mut postgres::Client, q: &str| -> i64 { db.query_one(q, &[]).unwrap().get(0) };
        let games = one(&mut db, "SELECT count(*) FROM games WHERE player1 IS NOT NULL");
        let unfinished = one(&mut db, "SELECT count(*) FROM games WHERE player1 IS NOT NULL AND state <> 'over'");
        let flags = one(&mut db, "SELECT count(*) FROM games WHERE result LIKE 'flag%'");
        let aborts = one(&mut db, "SELECT count(*) FROM games WHERE result LIKE 'abort%'");
        let lost = one(&mut db, "SELECT count(*) FROM seeks WHERE game IS NOT NULL AND game NOT IN (SELECT id FROM games)");
        let orphans = one(&mut db, "SELECT count(*) FROM games g WHERE player1 IS NOT NULL AND NOT EXISTS (SELECT 1 FROM seeks s WHERE s.game = g.id)");
        let bad_takes = one(&mut db, "SELECT count(*) FROM (SELECT game, count(*) AS n, sum(pool) AS pools FROM seeks WHERE game IS NOT NULL GROUP BY game) t WHERE NOT ((n = 1) OR (n = 2 AND pools = 2))");
        let open = one(&mut db, "SELECT count(*) FROM seeks WHERE game IS NULL");
        let unrated = one(&mut db, "SELECT count(*) FROM games WHERE rated = 1 AND state = 'over' AND rated_done = 0");
        let rated = one(&mut db, "SELECT count(*) FROM games WHERE rated = 1 AND rated_done = 1 AND (result IS NULL OR result NOT LIKE 'abort%')");
        let history = one(&mut db, "SELECT count(*) FROM rating_history");
        let r = db
            .query_one("SELECT COALESCE(sum(rating - 1500), 0)::float8, (SELECT COALESCE(sum(delta), 0)::float8 FROM rating_history) FROM ratings", &[])
            .unwrap();
        let (sum, deltas): (f64, f64) = (r.get(0), r.get(1));
        (games, unfinished, flags, aborts, lost, orphans, bad_takes, open, unrated, rated, history, sum, deltas)
    })
    .join()
    .unwrap();
    let (
        games,
        unfinished,
        flags,
        aborts,
        lost,
        orphans,
        bad_takes,
        open,
        unrated,
        rated,
        history,
        sum,
        deltas,
    ) = check;
    let mut lat = sh.move_us.lock().unwrap().clone();
    lat.sort_unstable();
    let q = |x: f64| {
        lat.get(((lat.len().max(1) - 1) as f64 * x).round() as usize)
            .copied()
            .unwrap_or(0) as f64
            / 1000.0
    };
    let moves = c.moves.load(Ordering::Relaxed);
    let throws = c.throws.load(Ordering::Relaxed);
    println!(
        "{players} players, {servers} servers on one PostgreSQL, {threads} client threads, kendall5 rated {clock}: {wall:.1} s"
    );
    println!(
        "games started {started} (quick pairing asked {}, seeks opened {}, seeks accepted {}, accepts lost to another {}), finished by clients {}",
        c.pairings.load(Ordering::Relaxed),
        c.seeks.load(Ordering::Relaxed),
        c.accepts.load(Ordering::Relaxed),
        c.accept_lost.load(Ordering::Relaxed),
        c.finished.load(Ordering::Relaxed),
    );
    println!(
        "moves {moves}, throws {throws} ({:.0} requests/s), stale turns re-read {}, quiet games re-read {}, pairings found by GET /api/me {}, errors {}, a player paired twice at once {}",
        (moves + throws) as f64 / wall,
        c.stale.load(Ordering::Relaxed),
        c.reread.load(Ordering::Relaxed),
        c.found_by_me.load(Ordering::Relaxed),
        c.errors.load(Ordering::Relaxed),
        sh.double.load(Ordering::Relaxed)
    );
    println!(
        "latency of a move: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        q(0.5),
        q(0.9),
        q(0.99),
        q(1.0)
    );
    println!(
        "database: games between players {games} (unfinished {unfinished}; flag falls {flags}, aborted {aborts}); seeks pointing at a missing game {lost}; games without their seek {orphans}; games taken by a wrong number of seeks {bad_takes}; seeks left open {open}"
    );
    println!(
        "ratings: rated games applied {rated} (not applied {unrated}), history rows {history} (2 per game: {}), sum of ratings - 1500 = {sum:.6}, sum of changes = {deltas:.6}",
        2 * rated
    );
    let process = after.process - before.process;
    let client = *sh.client_cpu.lock().unwrap();
    let server = process - client;
    let postgres = after.postgres - before.postgres;
    let per = |s: f64| s * 1000.0 / games.max(1) as f64;
    println!(
        "CPU s: clients {client:.1}, servers {server:.1}, PostgreSQL {postgres:.1}; per game: servers {:.0} ms, PostgreSQL {:.0} ms; load average {} -> {}",
        per(server),
        per(postgres),
        before.loadavg,
        after.loadavg
    );
    let ok = games as u64 == started
        && unfinished == 0
        && lost == 0
        && orphans == 0
        && bad_takes == 0
        && unrated == 0
        && history == 2 * rated
        && (sum - deltas).abs() < 1e-6
        && c.errors.load(Ordering::Relaxed) == 0
        && sh.double.load(Ordering::Relaxed) == 0
        && started >= target;
    println!(
        "checks (every seek paired once, no game lost or doubled, every rating applied once): {}",
        if ok { "passed" } else { "FAILED" }
    );
    drop(rt);
    drop(cluster);
    if !ok {
        std::process::exit(1);
    }
}
