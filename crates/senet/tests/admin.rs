//! The operator's commands (issue 56, docs/deploy.md): `senet admin` against a server's
//! database, and `senet serve` stopping on SIGTERM.

use senet_server::{moderation, players, SqliteStore};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

fn senet(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_senet"))
        .args(args)
        .output()
        .expect("runs")
}

fn ok(args: &[&str]) -> String {
    let o = senet(args);
    assert!(
        o.status.success(),
        "senet {args:?} failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

fn err(args: &[&str]) -> String {
    let o = senet(args);
    assert_eq!(
        o.status.code(),
        Some(1),
        "senet {args:?} should fail with 1"
    );
    let e = String::from_utf8(o.stderr).unwrap();
    assert!(e.starts_with("error: ") && !e.contains("panicked"), "{e}");
    e
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("senet-admin-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A database with the players Alice and Mallory and Alice's report about Mallory.
fn database(dir: &Path) -> String {
    let db = dir.join("senet.sqlite");
    let store = SqliteStore::open(&db).unwrap();
    players::create_player(&store, "alice-id", |_| "Alice".into(), "s1", 100).unwrap();
    players::create_player(&store, "mallory-id", |_| "Mallory".into(), "s2", 100).unwrap();
    let r = moderation::report(
        &store,
        "r1",
        "alice-id",
        "mallory",
        None,
        "insults in chat",
        200,
    )
    .unwrap();
    assert_eq!(r, Ok("r1".to_string()));
    db.to_string_lossy().to_string()
}

#[test]
fn admin_lists_reports_bans_renames_and_closes_accounts_in_words() {
    let dir = temp("cmds");
    let db = database(&dir);
    let a = |args: &[&str]| -> Vec<String> {
        ["admin", "--db", &db]
            .iter()
            .chain(args)
            .map(|s| s.to_string())
            .collect()
    };
    let run_ok = |args: &[&str]| {
        let v = a(args);
        ok(&v.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let run_err = |args: &[&str]| {
        let v = a(args);
        err(&v.iter().map(String::as_str).collect::<Vec<_>>())
    };

    let out = run_ok(&["reports"]);
    assert!(
        out.contains("r1") && out.contains("Alice") && out.contains("Mallory"),
        "{out}"
    );
    assert!(out.contains("insults in chat"), "{out}");
    let v: Value = serde_json::from_str(&run_ok(&["reports", "--json"])).unwrap();
    assert_eq!(v[0]["reported"], "Mallory");
    assert_eq!(v[0]["banned"], false);

    let out = run_ok(&["show", "mallory"]);
    assert!(
        out.contains("id: mallory-id") && out.contains("banned: -"),
        "{out}"
    );
    assert!(out.contains("reports about them: 1 (1 open)"), "{out}");

    let out = run_ok(&["ban", "Mallory", "--reason", "insults"]);
    assert!(out.contains("Mallory is banned"), "{out}");
    assert!(run_ok(&["ban", "Mallory", "--reason", "again"]).contains("banned already"));
    assert!(run_ok(&["show", "Mallory"]).contains("(insults)"));
    assert!(run_ok(&["reports"]).contains("Mallory (banned)"));
    let store = SqliteStore::open(Path::new(&db)).unwrap();
    assert_eq!(
        moderation::standing(&store, "mallory-id").unwrap(),
        moderation::Standing::Banned
    );
    assert!(
        players::session_player(&store, "s2", 150)
            .unwrap()
            .is_none(),
        "the ban ended Mallory's session"
    );
    assert!(players::session_player(&store, "s1", 150)
        .unwrap()
        .is_some());
    drop(store);

    // Renames: checked like a player's own.
    assert!(run_ok(&["rename", "mallory-id", "Renamed"]).contains("Mallory is now Renamed"));
    assert!(run_err(&["rename", "Renamed", "alice"]).contains("taken"));
    assert!(run_err(&["rename", "Renamed", "1 bad name"]).contains("name"));

    assert!(run_ok(&["resolve", "r1", "--note", "banned"]).contains("dealt with"));
    assert!(run_err(&["resolve", "r1"]).contains("no open report"));
    assert_eq!(run_ok(&["reports"]).trim(), "no open reports");
    assert!(run_ok(&["reports", "--all"]).contains("r1"));

    assert!(run_ok(&["unban", "Renamed"]).contains("no longer banned"));
    assert!(run_err(&["unban", "Renamed"]).contains("not banned"));
    let out = run_ok(&["close", "Renamed"]);
    assert!(out.contains("now deleted-mallory-"), "{out}");
    assert!(run_err(&["close", "mallory-id"]).contains("closed already"));
    assert!(run_ok(&["expire"]).contains("removed"));

    // Bad input, in words, and nothing made.
    assert!(run_err(&["show", "Nobody"]).contains("no player \"Nobody\""));
    let missing = dir.join("nothing.sqlite");
    let e = err(&["admin", "--db", missing.to_str().unwrap(), "reports"]);
    assert!(e.contains("there is no database file"), "{e}");
    assert!(!missing.exists(), "no database was made");
    let junk = dir.join("junk.sqlite");
    std::fs::write(&junk, "not a database at all").unwrap();
    err(&["admin", "--db", junk.to_str().unwrap(), "reports"]);
    assert_eq!(
        std::fs::read_to_string(&junk).unwrap(),
        "not a database at all",
        "a file that is not a senet database is left unchanged"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

fn get(addr: &str, path: &str) -> (u16, String) {
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (status, text)
}

#[test]
fn serve_answers_health_and_metrics_and_stops_cleanly_on_sigterm() {
    let dir = temp("term");
    let db = dir.join("senet.sqlite");
    let mut child = Command::new(env!("CARGO_BIN_EXE_senet"))
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--db",
            db.to_str().unwrap(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    let (s, body) = get(&addr, "/healthz");
    assert_eq!(s, 200, "{body}");
    assert!(body.contains(r#""status":"ok""#), "{body}");
    let (s, body) = get(&addr, "/metrics");
    assert_eq!(s, 200, "{body}");
    assert!(
        body.contains("# TYPE senet_http_requests_total counter"),
        "{body}"
    );
    assert!(body.contains(r#"route="/healthz""#), "{body}");

    let k = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(k.success());
    let mut rest = String::new();
    out.read_to_string(&mut rest).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{rest}");
    assert!(rest.contains("senet serve: stopped"), "{rest}");
    std::fs::remove_dir_all(&dir).unwrap();
}
