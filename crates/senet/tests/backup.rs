//! `senet backup` against a live `senet serve` (the debug binaries): a thread plays moves
//! in several games through the HTTP API without pause while backups run; every move
//! acknowledged before a backup began is in its copy, each copy is a consistent prefix of
//! the live database (its integrity check passes and each game replays), and `senet serve`
//! on a copy serves its games. Then the refusals, in words.

use senet_rules::{AnyGame, Game, MoveList, Notation, RuleSet, Status, Throw};
use senet_server::store::{GameMeta, Seat, Snapshot, StoredEvent};
use senet_server::{SqliteStore, Store};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn senet(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_senet"))
        .args(args)
        .output()
        .expect("senet runs")
}

/// A fresh temporary directory for this test.
fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("senet-backup-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A `senet serve` process on a database file, rate limit off; killed on drop.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(db: &Path) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_senet"))
            .args([
                "serve",
                "--addr",
                "127.0.0.1:0",
                "--rate",
                "0",
                "--puzzles",
                "0",
                "--db",
            ])
            .arg(db)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("senet serve starts");
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        let addr = line
            .split_whitespace()
            .find_map(|w| w.strip_prefix("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .trim_end_matches('/')
            .to_string();
        // Keep reading what it prints, so that it never writes to a closed pipe.
        std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
        Server { child, addr }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One keep-alive HTTP/1.1 connection.
struct Conn {
    r: BufReader<TcpStream>,
    host: String,
}

impl Conn {
    fn open(addr: &str) -> Conn {
        let s = TcpStream::connect(addr).unwrap();
        s.set_nodelay(true).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        Conn {
            r: BufReader::new(s),
            host: addr.to_string(),
        }
    }

    fn request(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: &str,
    ) -> (u16, Value) {
        let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.host,
            body.len()
        );
        self.r.get_mut().write_all(req.as_bytes()).unwrap();
        let mut line = String::new();
        self.r.read_line(&mut line).unwrap();
        let status: u16 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
        let mut len = 0;
        loop {
            line.clear();
            self.r.read_line(&mut line).unwrap();
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            if let Some((_, v)) = l
                .split_once(':')
                .filter(|(k, _)| k.eq_ignore_ascii_case("content-length"))
            {
                len = v.trim().parse().unwrap();
            }
        }
        let mut b = vec![0; len];
        self.r.read_exact(&mut b).unwrap();
        (status, serde_json::from_slice(&b).unwrap_or(Value::Null))
    }
}

/// A game the writer plays: its ID, seat tokens and latest state.
struct Live {
    id: String,
    tokens: Value,
    state: Value,
}

/// Plays hot-seat `kendall5` games through the API until `stop`: `games` at once, in turn,
/// uniformly random legal moves; a finished game is replaced by a new one. `acked` holds each
/// game's events as acknowledged (the `seq` of its last answer).
fn writer(
    addr: String,
    games: usize,
    stop: Arc<AtomicBool>,
    acked: Arc<Mutex<BTreeMap<String, usize>>>,
) {
    let mut c = Conn::open(&addr);
    let mut rng = senet_rules::seed::SplitMix(0x5eed_bac0);
    let create = json!({ "rules": "kendall5", "mode": "hotseat" }).to_string();
    let new_game = |c: &mut Conn| {
        let (s, v) = c.request("POST", "/api/games", None, &create);
        assert_eq!(s, 201, "{v}");
        let g = Live {
            id: v["id"].as_str().unwrap().to_string(),
            tokens: v["tokens"].clone(),
            state: v["state"].clone(),
        };
        let seq = g.state["seq"].as_u64().unwrap() as usize;
        acked.lock().unwrap().insert(g.id.clone(), seq);
        g
    };
    let mut live: Vec<Live> = (0..games).map(|_| new_game(&mut c)).collect();
    let mut i = 0;
    while !stop.load(Ordering::Relaxed) {
        let k = i % games;
        i += 1;
        let st = live[k].state["status"].clone();
        if st["state"] == "over" {
            live[k] = new_game(&mut c);
            continue;
        }
        let g = &live[k];
        let token = g.tokens[st["player"].to_string()]
            .as_str()
            .unwrap()
            .to_string();
        let seq = g.state["seq"].clone();
        let (path, body) = if st["state"] == "throw" {
            (format!("/api/games/{}/throw", g.id), json!({ "seq": seq }))
        } else {
            let legal = g.state["legal"].as_array().unwrap();
            let m = &legal[(rng.next_u64() % legal.len() as u64) as usize]["move"];
            (
                format!("/api/games/{}/move", g.id),
                json!({ "move": m, "seq": seq }),
            )
        };
        let (s, v) = c.request("POST", &path, Some(&token), &body.to_string());
        assert_eq!(s, 200, "{path}: {v}");
        let seq = v["seq"].as_u64().unwrap() as usize;
        acked.lock().unwrap().insert(g.id.clone(), seq);
        live[k].state = v;
    }
}

/// Replays a stored game's events from its rule set's start, checking each.
fn replays(g: &senet_server::store::StoredGame) -> Result<AnyGame, String> {
    let rules: RuleSet = g.meta.rules.parse().map_err(|e| format!("{e}"))?;
    let opts: Vec<&str> = g.meta.options.iter().map(String::as_str).collect();
    let mut game = AnyGame::new(rules, &opts).map_err(|e| e.to_string())?;
    for (i, e) in g.events.iter().enumerate() {
        let r = match e {
            StoredEvent::Throw(t) => Throw::parse(t).and_then(|t| game.set_throw(t)),
            StoredEvent::Move(m) => game.parse_move(m).and_then(|m| game.play(m).map(|_| ())),
        };
        r.map_err(|err| format!("event {i} ({e:?}): {err}"))?;
    }
    Ok(game)
}

/// Stores `n` finished random `kendall5` games in `db` (before any server opens it), each
/// with an analysis row of 48 KiB, so that a copy takes many steps; returns their IDs.
fn fill(db: &Path, n: usize) -> Vec<String> {
    let store = SqliteStore::open(db).unwrap();
    let mut rng = senet_rules::seed::SplitMix(7);
    let pad = format!("{{\"pad\": \"{}\"}}", "x".repeat(48 * 1024));
    (0..n)
        .map(|i| {
            let mut g = AnyGame::new(RuleSet::Kendall5, &[] as &[&str]).unwrap();
            let mut events = Vec::new();
            loop {
                match g.status() {
                    Status::Over(_) => break,
                    Status::Throw(_) => {
                        let d = g.throw_dist();
                        let mut r = (rng.next_u64() % d.total as u64) as u32;
                        let &(t, _) = d
                            .outcomes
                            .iter()
                            .find(|&&(_, w)| {
                                r < w || {
                                    r -= w;
                                    false
                                }
                            })
                            .unwrap();
                        g.set_throw(t).unwrap();
                        events.push(StoredEvent::Throw(t.to_string()));
                    }
                    Status::Move(_) => {
                        let mut ms = MoveList::new();
                        g.legal_moves(&mut ms);
                        let m = ms[(rng.next_u64() % ms.len() as u64) as usize];
                        events.push(StoredEvent::Move(g.move_string(m)));
                        g.play(m).unwrap();
                    }
                }
            }
            let id = format!("fill{i:04}");
            let meta = GameMeta {
                id: id.clone(),
                rules: "kendall5".into(),
                options: vec![],
                seed: i as u64,
                seed_hash: "0".repeat(64),
                mode: "hotseat".into(),
                seats: [Seat::Human, Seat::Human],
                token_hashes: [None, None],
                invite: None,
                created: 1,
                series: None,
                page_throws: false,
            };
            let snap = Snapshot {
                position: g.position(),
                state: "over".into(),
                player: None,
                moves: g.decisions(),
                updated: 1,
                clock: None,
                deadline: None,
            };
            store.create(&meta, &events, &snap).unwrap();
            store.put_analysis(&id, events.len() as u32, &pad).unwrap();
            id
        })
        .collect()
}

#[test]
fn a_backup_of_a_busy_server_is_a_consistent_copy_that_serves() {
    let t0 = Instant::now();
    let dir = temp_dir("live");
    let live = dir.join("live.sqlite");
    let filled = fill(&live, 300);
    let server = Server::start(&live);
    let stop = Arc::new(AtomicBool::new(false));
    let acked: Arc<Mutex<BTreeMap<String, usize>>> = Arc::default();
    let w = {
        let (addr, stop, acked) = (server.addr.clone(), stop.clone(), acked.clone());
        std::thread::spawn(move || writer(addr, 6, stop, acked))
    };
    let total = |a: &BTreeMap<String, usize>| a.values().sum::<usize>();
    while total(&acked.lock().unwrap()) < 150 {
        assert!(
            t0.elapsed() < Duration::from_secs(10),
            "the writer is stuck"
        );
        std::thread::sleep(Duration::from_millis(20));
    }

    // Backups while the writer goes on: what was acknowledged before each began.
    let mut copies = Vec::new();
    let mut during = 0;
    for i in 0..4 {
        let before = acked.lock().unwrap().clone();
        let out = dir.join(format!("copy{i}.sqlite"));
        let o = senet(&[
            "backup",
            "--db",
            live.to_str().unwrap(),
            out.to_str().unwrap(),
        ]);
        // Events acknowledged while this backup ran.
        during = during.max(total(&acked.lock().unwrap()) - total(&before));
        let text = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(
            o.status.success(),
            "{text}{}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(text.starts_with("senet backup: copied "), "{text}");
        assert!(
            text.contains(" games, ") && text.contains(" events, "),
            "{text}"
        );
        assert!(
            text.contains("integrity check ok, opens as a senet database"),
            "{text}"
        );
        assert!(
            text.contains(&format!("senet serve --db {}", out.display())),
            "{text}"
        );
        println!("{}", text.lines().next().unwrap());
        copies.push((before, out));
        std::thread::sleep(Duration::from_millis(100));
    }
    stop.store(true, Ordering::Relaxed);
    w.join().unwrap();
    let acked = acked.lock().unwrap().clone();
    assert!(during > 0, "the writer made no move while a backup ran");
    println!("at most {during} events acknowledged while one backup ran");
    drop(server);

    // The live database after the writer stopped: what every copy must be a prefix of.
    let reference = SqliteStore::open(&live).unwrap();
    for (before, out) in &copies {
        let facts = senet_server::backup::verify(out).unwrap();
        let copy = SqliteStore::open(out).unwrap();
        let mut games = 0;
        for (id, &all) in &acked {
            let Some(g) = copy.load(id).unwrap() else {
                assert!(
                    !before.contains_key(id),
                    "{id} was created before the backup"
                );
                continue;
            };
            games += 1;
            let n = g.events.len();
            if let Some(&b) = before.get(id) {
                assert!(
                    n >= b,
                    "{id}: {n} events in the copy, {b} acknowledged before"
                );
            }
            let r = reference.load(id).unwrap().unwrap();
            assert_eq!(r.events.len(), all, "{id}: the live database");
            assert_eq!(g.events[..], r.events[..n], "{id}: not a prefix");
            replays(&g).unwrap_or_else(|e| panic!("{id} in {}: {e}", out.display()));
        }
        for id in &filled {
            let g = copy
                .load(id)
                .unwrap()
                .expect("a game stored before the server started");
            assert_eq!(g, reference.load(id).unwrap().unwrap());
            assert!(copy.analysis(id, g.events.len() as u32).unwrap().is_some());
        }
        assert_eq!(
            games + filled.len() as u64,
            facts.games,
            "{}",
            out.display()
        );
    }

    // Restoring is serving the copy.
    let (_, out) = copies.last().unwrap();
    let copy = SqliteStore::open(out).unwrap();
    let (id, g) = acked
        .keys()
        .find_map(|id| copy.load(id).unwrap().map(|g| (id.clone(), g)))
        .unwrap();
    drop(copy);
    let server = Server::start(out);
    let (s, v) = Conn::open(&server.addr).request("GET", &format!("/api/games/{id}"), None, "");
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["seq"].as_u64().unwrap() as usize, g.events.len(), "{v}");
    assert_eq!(v["position"], replays(&g).unwrap().position());
    drop(server);
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(t0.elapsed() < Duration::from_secs(20), "{:?}", t0.elapsed());
}

#[test]
fn backup_refusals_are_in_words_and_leave_no_file() {
    let dir = temp_dir("words");
    let err = |args: &[&str]| {
        let o = senet(args);
        assert_eq!(
            o.status.code(),
            Some(1),
            "senet {args:?} should fail with 1"
        );
        let e = String::from_utf8(o.stderr).unwrap();
        assert!(e.starts_with("error: senet backup: "), "{e}");
        assert!(!e.contains("panicked"), "{e}");
        e
    };
    let p = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let out = p("out.sqlite");

    let e = err(&["backup", "--db", &p("missing.sqlite"), &out]);
    assert!(e.contains("missing.sqlite does not exist"), "{e}");
    std::fs::write(dir.join("notes.txt"), "just words").unwrap();
    let e = err(&["backup", "--db", &p("notes.txt"), &out]);
    assert!(e.contains("notes.txt is not a SQLite database"), "{e}");
    let e = err(&[
        "backup",
        "--db",
        "postgres://senet:secret@db.internal/senet",
        &out,
    ]);
    assert!(
        e.contains("is a PostgreSQL database") && e.contains("pg_dump"),
        "{e}"
    );
    assert!(!e.contains("secret"), "the password is not printed: {e}");
    let e = err(&["backup", "--db", dir.to_str().unwrap(), &out]);
    assert!(e.contains("is a directory, not a database file"), "{e}");

    // A real database, served by nothing.
    let db = dir.join("games.sqlite");
    drop(SqliteStore::open(&db).unwrap());
    let db = db.to_str().unwrap();
    let e = err(&["backup", "--db", db, &p("no/such/dir/out.sqlite")]);
    assert!(e.contains("does not exist; create it first"), "{e}");
    let e = err(&["backup", "--db", db, dir.to_str().unwrap()]);
    assert!(e.contains("is a directory; name the file to write"), "{e}");
    let e = err(&["backup", "--db", db, db]);
    assert!(e.contains("is the database itself"), "{e}");
    std::fs::write(&out, "keep me").unwrap();
    let e = err(&["backup", "--db", db, &out]);
    assert!(
        e.contains("exists already; give --force to replace it"),
        "{e}"
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "keep me");
    let o = senet(&["backup", "--db", db, &out, "--force"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        senet_server::backup::verify(Path::new(&out)).unwrap().games,
        0
    );
    // Nothing half-written was left beside the copies.
    let left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
