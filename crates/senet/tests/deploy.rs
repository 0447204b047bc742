//! The deployment of `docs/deploy.md`, tested: nginx with the shipped configuration
//! (`deploy/nginx/senet.conf`, only its `# [site]` lines replaced) terminating TLS in front
//! of two `senet serve` processes on one PostgreSQL database, and two people playing a rated
//! game through it in headless Chromium. Also two servers on one database without a proxy,
//! each with its own player in Chromium: a challenge made on one is seen live and accepted on
//! the other (issue 57).
//!
//! Needs the Debian packages `nginx`, `postgresql`, `chromium`, `chromium-driver`, and the
//! `openssl` and `curl` commands, so it is ignored by a plain `cargo test`;
//! `scripts/test.sh` installs what is missing and runs it with `-- --ignored`.

#[allow(dead_code)] // the browser tests' support: this test uses a part of it
mod support {
    pub mod page;
    pub mod webdriver;
}

use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsStr;
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use support::page::{
    act_quick, both_in_one_game, motion_off, rename_in_page, set_select, strings, wait_text,
    Progress,
};
use support::webdriver::{free_port, http, temp_dir, Driver, Server, Session};

/// Runs a command to its end; its standard output, or a panic with everything it said.
fn run(cmd: &mut Command) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{cmd:?} does not run: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn is_root() -> bool {
    run(Command::new("id").arg("-u")).trim() == "0"
}

/// A throwaway PostgreSQL cluster on a loopback port (as `crates/senet-server/tests/support/pg.rs`
/// makes them; this crate has no PostgreSQL client, so the database is made by `createdb`),
/// stopped on drop. As root it runs as the user `postgres`.
struct Postgres {
    dir: PathBuf,
    bin: PathBuf,
    port: u16,
}

impl Postgres {
    fn start(dir: &Path) -> Postgres {
        let bin = std::env::var_os("SENET_PG_BIN")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                let mut v: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
                    .expect("PostgreSQL is installed (apt-get install -y postgresql)")
                    .filter_map(|e| {
                        let e = e.ok()?;
                        let n = e.file_name().to_str()?.parse().ok()?;
                        Some((n, e.path().join("bin")))
                    })
                    .filter(|(_, p)| p.join("initdb").exists())
                    .collect();
                v.sort();
                v.pop().expect("PostgreSQL server binaries").1
            });
        std::fs::create_dir_all(dir).unwrap();
        if is_root() {
            run(Command::new("chown").arg("postgres:postgres").arg(dir));
        }
        let pg = Postgres {
            dir: dir.to_path_buf(),
            bin,
            port: free_port(),
        };
        let data = dir.join("data");
        let opts = format!(
            "-c listen_addresses=127.0.0.1 -p {} -k {} -c fsync=off",
            pg.port,
            dir.display()
        );
        pg.pg(
            "initdb",
            &[
                "-D".as_ref(),
                data.as_os_str(),
                "-A".as_ref(),
                "trust".as_ref(),
                "-U".as_ref(),
                "senet".as_ref(),
                "-E".as_ref(),
                "UTF8".as_ref(),
                "--no-sync".as_ref(),
            ],
        );
        pg.pg(
            "pg_ctl",
            &[
                "-D".as_ref(),
                data.as_os_str(),
                "-l".as_ref(),
                dir.join("log").as_os_str(),
                "-o".as_ref(),
                opts.as_ref(),
                "-w".as_ref(),
                "start".as_ref(),
            ],
        );
        pg
    }

    /// Runs the PostgreSQL program `prog` with `args`, as `postgres` when we are root.
    fn pg(&self, prog: &str, args: &[&OsStr]) -> String {
        let mut c = if is_root() {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(self.bin.join(prog));
            c
        } else {
            Command::new(self.bin.join(prog))
        };
        run(c.args(args))
    }

    /// Connection options of the cluster's loopback port, as user senet.
    fn conn(&self) -> [String; 6] {
        [
            "-h".into(),
            "127.0.0.1".into(),
            "-p".into(),
            self.port.to_string(),
            "-U".into(),
            "senet".into(),
        ]
    }

    /// Creates an empty database; its URL.
    fn create_db(&self, name: &str) -> String {
        let conn = self.conn();
        let mut args: Vec<&OsStr> = conn.iter().map(OsStr::new).collect();
        args.push(name.as_ref());
        self.pg("createdb", &args);
        format!("postgres://senet@127.0.0.1:{}/{name}", self.port)
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let data = self.dir.join("data");
        let mut c = if is_root() {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"])
                .arg(self.bin.join("pg_ctl"));
            c
        } else {
            Command::new(self.bin.join("pg_ctl"))
        };
        let _ = c
            .arg("-D")
            .arg(&data)
            .args(["-m", "immediate", "-w", "stop"])
            .output();
    }
}

/// nginx, not daemonised, from a prefix directory of its own; stopped on drop.
struct Nginx {
    child: Child,
}

impl Drop for Nginx {
    fn drop(&mut self) {
        // SIGTERM: the master stops its workers, then itself.
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .output();
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(10) {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The shipped configuration, `deploy/nginx/senet.conf`.
fn shipped_conf() -> (PathBuf, String) {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../deploy/nginx/senet.conf");
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    (p, text)
}

/// The shipped configuration with its `# [site]` lines made this test's: each replacement
/// is on a marked line, and every marked line is replaced.
fn site_conf(upstreams: [u16; 2], http: u16, https: u16, cert: &Path, key: &Path) -> String {
    let (path, text) = shipped_conf();
    let subs: Vec<(&str, String)> = vec![
        (
            "server 127.0.0.1:8081;",
            format!("server 127.0.0.1:{};", upstreams[0]),
        ),
        (
            "server 127.0.0.1:8082;",
            format!("server 127.0.0.1:{};", upstreams[1]),
        ),
        ("listen 80;", format!("listen 127.0.0.1:{http};")),
        (
            "listen 443 ssl http2;",
            format!("listen 127.0.0.1:{https} ssl http2;"),
        ),
        (
            "server_name senet.example.org;",
            "server_name localhost;".into(),
        ),
        (
            "ssl_certificate /etc/letsencrypt/live/senet.example.org/fullchain.pem;",
            format!("ssl_certificate {};", cert.display()),
        ),
        (
            "ssl_certificate_key /etc/letsencrypt/live/senet.example.org/privkey.pem;",
            format!("ssl_certificate_key {};", key.display()),
        ),
    ];
    let mut marked = 0;
    let mut out = String::new();
    for line in text.lines() {
        let mut line = line.to_string();
        if line.ends_with("# [site]") {
            marked += 1;
            let (from, to) = subs
                .iter()
                .find(|(from, _)| line.contains(from))
                .unwrap_or_else(|| {
                    panic!("{}: the test knows no value for {line:?}", path.display())
                });
            line = line.replacen(from, to, 1);
        } else {
            assert!(
                !subs.iter().any(|(from, _)| line.contains(from)),
                "{}: {line:?} is site-specific but not marked `# [site]`",
                path.display()
            );
        }
        out.push_str(&line);
        out.push('\n');
    }
    // server_name appears in both server blocks.
    assert_eq!(
        marked,
        subs.len() + 1,
        "{}: the `# [site]` lines",
        path.display()
    );
    out
}

/// The access log's format: what the test reads back, fields separated by `|` (the upstream
/// address is a list, `A, B`, when nginx tried one server and then another).
const LOG_FORMAT: &str = "log_format senet_test '$status|$upstream_addr|$senet_game|$request_method|$uri|$proxy_add_x_forwarded_for';";

/// Starts nginx on the shipped configuration, from `dir`, TLS on `https`.
fn start_nginx(dir: &Path, conf: &str, https: u16) -> Nginx {
    for d in [
        "tmp/body",
        "tmp/proxy",
        "tmp/fastcgi",
        "tmp/uwsgi",
        "tmp/scgi",
    ] {
        std::fs::create_dir_all(dir.join(d)).unwrap();
    }
    std::fs::write(dir.join("senet.conf"), conf).unwrap();
    let d = dir.display();
    // As root the workers stay root (the temporary paths are root's); otherwise nginx runs
    // as the user it is.
    let user = if is_root() { "user root;" } else { "" };
    let top = format!(
        "{user}
worker_processes 1;
pid {d}/nginx.pid;
error_log {d}/error.log notice;
events {{ worker_connections 512; }}
http {{
    client_body_temp_path {d}/tmp/body;
    proxy_temp_path {d}/tmp/proxy;
    fastcgi_temp_path {d}/tmp/fastcgi;
    uwsgi_temp_path {d}/tmp/uwsgi;
    scgi_temp_path {d}/tmp/scgi;
    include {d}/senet.conf;
    {LOG_FORMAT}
    access_log {d}/access.log senet_test;
}}
"
    );
    std::fs::write(dir.join("nginx.conf"), top).unwrap();
    let nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"]
        .into_iter()
        .find(|p| Path::new(p).exists())
        .unwrap_or("nginx");
    let args = |c: &mut Command| {
        c.arg("-p")
            .arg(dir)
            .arg("-c")
            .arg(dir.join("nginx.conf"))
            .arg("-e")
            .arg(dir.join("error.log"));
    };
    let mut t = Command::new(nginx);
    args(&mut t);
    run(t.arg("-t"));
    let mut c = Command::new(nginx);
    args(&mut c);
    let mut child = c
        .args(["-g", "daemon off;"])
        .stdin(Stdio::null())
        .spawn()
        .expect("nginx runs (Debian package nginx)");
    let t = Instant::now();
    while TcpStream::connect(("127.0.0.1", https)).is_err() {
        if let Ok(Some(st)) = child.try_wait() {
            panic!(
                "nginx exited ({st}): {}",
                std::fs::read_to_string(dir.join("error.log")).unwrap_or_default()
            );
        }
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "nginx did not listen"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    Nginx { child }
}

/// A self-signed certificate for localhost and 127.0.0.1: its certificate and key files.
fn make_cert(dir: &Path) -> (PathBuf, PathBuf) {
    let (cert, key) = (dir.join("cert.pem"), dir.join("key.pem"));
    run(Command::new("openssl")
        .args(["req", "-x509", "-newkey", "ec", "-pkeyopt"])
        .args(["ec_paramgen_curve:prime256v1", "-nodes", "-days", "2"])
        .args(["-subj", "/CN=localhost"])
        .args(["-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"])
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&cert));
    (cert, key)
}

/// curl, checking the certificate against `cert`, from the loopback address `from`; the
/// arguments after it. Its standard output.
fn curl(cert: &Path, from: &str, args: &[&str]) -> String {
    run(Command::new("curl")
        .args(["--silent", "--show-error", "--cacert"])
        .arg(cert)
        .args(["--interface", from])
        .args(args))
}

/// The response headers of one request made with curl (its `--dump-header -`).
fn headers_of(cert: &Path, from: &str, args: &[&str]) -> String {
    let mut all = vec!["--dump-header", "-", "--output", "/dev/null"];
    all.extend_from_slice(args);
    curl(cert, from, &all)
}

/// The `Set-Cookie` header of the session cookie in `headers`.
fn session_cookie(headers: &str) -> String {
    headers
        .lines()
        .filter_map(|l| l.split_once(':'))
        .find(|(k, v)| {
            k.eq_ignore_ascii_case("set-cookie") && v.trim().starts_with("senet_session=")
        })
        .map(|(_, v)| v.trim().to_string())
        .unwrap_or_else(|| panic!("no session cookie in {headers}"))
}

/// Whether a `Set-Cookie` value carries the attribute `Secure`.
fn secure(cookie: &str) -> bool {
    cookie
        .split(';')
        .any(|a| a.trim().eq_ignore_ascii_case("secure"))
}

/// One line of the access log ([`LOG_FORMAT`]).
#[derive(Debug)]
struct Logged {
    status: String,
    upstream: String,
    game: String,
    method: String,
    uri: String,
    xff: String,
}

fn access_log(dir: &Path) -> Vec<Logged> {
    let text = std::fs::read_to_string(dir.join("access.log")).unwrap_or_default();
    text.lines()
        .map(|l| {
            let w: Vec<&str> = l.splitn(6, '|').collect();
            assert_eq!(w.len(), 6, "{l}");
            Logged {
                status: w[0].into(),
                upstream: w[1].into(),
                game: w[2].into(),
                method: w[3].into(),
                uri: w[4].into(),
                xff: w[5].into(),
            }
        })
        .collect()
}

/// The access log once `ready` holds of it. nginx writes a request's line after sending its
/// response, so a client can be done before the line is there: wait up to 10 s for it.
fn access_log_when(dir: &Path, what: &str, ready: impl Fn(&[Logged]) -> bool) -> Vec<Logged> {
    let t = Instant::now();
    loop {
        let log = access_log(dir);
        if ready(&log) {
            return log;
        }
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "the access log never showed {what}: {} lines",
            log.len()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
#[ignore = "needs nginx, postgresql, chromium; run by scripts/test.sh"]
fn two_players_through_nginx_over_https_seek_play_on_a_clock_and_see_ratings() {
    let started = Instant::now();
    let dir = temp_dir("deploy");
    let pg = Postgres::start(&dir.join("pg"));
    let db = pg.create_db("senet");
    // Two servers on the database, behind a proxy on this machine. One after the other:
    // the first creates the tables.
    let mut servers: Vec<Server> = (0..2)
        .map(|_| Server::start_with(db.as_ref(), 0, &["--trusted-proxy", "127.0.0.1"]))
        .collect();
    let upstreams = [servers[0].port, servers[1].port];
    let (http, https) = (free_port(), free_port());
    let (cert, key) = make_cert(&dir);
    let ngx_dir = dir.join("nginx");
    std::fs::create_dir_all(&ngx_dir).unwrap();
    let conf = site_conf(upstreams, http, https, &cert, &key);
    let _nginx = start_nginx(&ngx_dir, &conf, https);
    let base = format!("https://127.0.0.1:{https}");
    eprintln!(
        "deploy: PostgreSQL, two servers ({upstreams:?}) and nginx ({http}, {https}) in {:.1} s",
        started.elapsed().as_secs_f64()
    );

    // Plain HTTP is sent to HTTPS.
    let h = headers_of(
        &cert,
        "127.0.0.1",
        &[&format!("http://127.0.0.1:{http}/g/abc?x=1")],
    );
    assert!(h.starts_with("HTTP/1.1 301"), "{h}");
    assert!(
        h.lines()
            .any(|l| l.eq_ignore_ascii_case("location: https://127.0.0.1/g/abc?x=1")),
        "{h}"
    );

    // The servers' metrics are not served to the public.
    let code = curl(
        &cert,
        "127.0.0.1",
        &[
            "--output",
            "/dev/null",
            "--write-out",
            "%{http_code}",
            &format!("{base}/metrics"),
        ],
    );
    assert_eq!(code, "404");

    // The session cookie made through the proxy is Secure (the server trusts the proxy's
    // X-Forwarded-Proto); made directly over plain HTTP it is not, nor when someone other
    // than the trusted proxy claims https.
    let me = [
        "--request",
        "POST",
        "--header",
        "Content-Type: application/json",
        "--data",
        "{}",
    ];
    let via_proxy = |from: &str| {
        let mut a = me.to_vec();
        let url = format!("{base}/api/me");
        a.push(&url);
        session_cookie(&headers_of(&cert, from, &a))
    };
    let c = via_proxy("127.0.0.1");
    assert!(secure(&c) && c.contains("HttpOnly"), "{c}");
    for (from, xfp) in [("127.0.0.1", "http"), ("127.0.0.2", "https")] {
        let mut a = me.to_vec();
        let h = format!("X-Forwarded-Proto: {xfp}");
        let url = format!("{}/api/me", servers[0].url);
        a.extend(["--header", &h, &url]);
        let c = session_cookie(&headers_of(&cert, from, &a));
        assert!(!secure(&c), "direct from {from} with {h}: {c}");
    }

    // X-Forwarded-For reaches the servers: the proxy appends its client's address, and the
    // servers take the rightmost entry that is not the proxy as the client, whatever the
    // client wrote itself. Clients at two addresses (127.0.0.2 and .3), both claiming to
    // be 198.51.100.7, have rate buckets of their own on the server that holds one game's
    // requests: the first spends its burst (200 requests, then 50 a second) and is refused
    // (429); the second, right after, is not, which it would be if the servers keyed the
    // bucket by the claimed address or by the proxy's.
    let codes = |out: &str| -> Vec<u16> {
        out.lines()
            .filter_map(|l| l.strip_prefix("STATUS "))
            .map(|c| c.trim().parse().unwrap())
            .collect()
    };
    let flood = |from: &str, n: usize| {
        let url = format!("{base}/api/games/ratecheck?n=[1-{n}]");
        let out = curl(
            &cert,
            from,
            &[
                "--header",
                "X-Forwarded-For: 198.51.100.7",
                "--write-out",
                "\nSTATUS %{http_code}\n",
                &url,
            ],
        );
        let c = codes(&out);
        assert_eq!(c.len(), n, "{out}");
        assert!(c.iter().all(|&c| c == 429 || c == 404 || c == 400), "{c:?}");
        c.iter().filter(|&&c| c == 429).count()
    };
    let refused = flood("127.0.0.2", 800);
    assert!(
        (1..=600).contains(&refused),
        "127.0.0.2 spent its burst: {refused} of 800 refused"
    );
    assert_eq!(
        flood("127.0.0.3", 100),
        0,
        "127.0.0.3 has a bucket of its own"
    );
    let probe = |l: &&Logged| l.game == "ratecheck";
    let log = access_log_when(&ngx_dir, "900 ratecheck requests", |l| {
        l.iter().filter(probe).count() >= 900
    });
    let probed: Vec<&Logged> = log.iter().filter(probe).collect();
    assert_eq!(probed.len(), 900);
    let by: BTreeSet<&str> = probed.iter().map(|l| l.upstream.as_str()).collect();
    assert_eq!(by.len(), 1, "one game's requests go to one server: {by:?}");
    assert_eq!(probed[0].xff, "198.51.100.7, 127.0.0.2");
    assert_eq!(probed[899].xff, "198.51.100.7, 127.0.0.3");
    eprintln!(
        "deploy: TLS, redirect, cookie and rate buckets checked at {:.1} s",
        started.elapsed().as_secs_f64()
    );

    // Two people in Chromium (the certificate is the test's own).
    let driver = Driver::start();
    let tls = ["--ignore-certificate-errors"];
    let a = driver.session_with(&dir.join("a"), 1100, 850, &tls);
    let b = driver.session_with(&dir.join("b"), 1000, 850, &tls);
    for s in [&a, &b] {
        s.goto(&format!("{base}/"));
        s.wait_for("#me-link", 20);
        s.wait_for("#seek-form", 20);
        motion_off(s);
    }
    rename_in_page(&a, "Alice56");
    rename_in_page(&b, "Bob56");
    // The browser holds the session cookie as Secure and HttpOnly.
    for s in [&a, &b] {
        let cookies = s.cookies();
        let c = cookies
            .iter()
            .find(|c| c["name"] == "senet_session")
            .unwrap_or_else(|| panic!("no session cookie: {cookies:?}"));
        assert_eq!(c["secure"], json!(true), "{c}");
        assert_eq!(c["httpOnly"], json!(true), "{c}");
    }
    // The lobby's WebSocket through the proxy: live, and A's seek appears on B's page
    // without a reload.
    wait_text(&b, "#lobby-conn", "live", 10);
    set_select(&a, "#seek-rules", "kendall5");
    a.click_css("#seek-rated-rated");
    a.click_css("#seek-clock-live");
    a.js("document.querySelector('#seek-minutes').value = '10'; document.querySelector('#seek-increment').value = '5'; return 1");
    a.click_css("#seek-create");
    wait_text(&a, "#seeks li.mine", "Alice56", 10);
    let seen = wait_text(&b, "#seeks li", "Alice56", 10);
    for part in ["1500?", "10+5", "rated"] {
        assert!(seen.contains(part), "{part}: {seen}");
    }
    b.click_css("#seeks li .seek-accept");
    let id = both_in_one_game(&a, &b);
    for s in [&a, &b] {
        s.wait_for("#board", 20);
        s.wait_for("#clock-1", 10);
        let names = wait_text(s, "#players", "Alice56", 10);
        assert!(names.contains("Bob56"), "{names}");
        assert!(s.text("#game-kind").contains("Rated · 10+5"));
    }
    // They play it to its end, each page following the other's moves over its game's
    // WebSocket.
    let mut progress = Progress::new();
    let (mut by_a, mut by_b) = (0, 0);
    loop {
        let (ka, sa) = act_quick(&a);
        let (kb, sb) = act_quick(&b);
        if ka == "over" && kb == "over" {
            break;
        }
        by_a += (ka == "throw" || ka == "move") as u32;
        by_b += (kb == "throw" || kb == "move") as u32;
        assert!(
            !progress.stalled(sa.max(sb)),
            "the game stalled ({by_a}, {by_b}): {:?} {:?} / {:?} {:?}",
            a.text("#status"),
            a.text("#error"),
            b.text("#status"),
            b.text("#error"),
        );
    }
    assert!(by_a > 3 && by_b > 3, "both played ({by_a}, {by_b})");
    let (ra, rb) = (a.text("#result-text"), b.text("#result-text"));
    assert!(
        ra.contains("You win") != rb.contains("You win"),
        "one of them won: {ra} / {rb}"
    );
    // Both see the new ratings.
    let change = |s: &Session| {
        wait_text(s, "#rating-change", "→", 20);
        strings(s.js(
            "return [...document.querySelectorAll('#rating-change li')].map((li) => li.textContent)",
        ))
        .join("\n")
    };
    let (ca, cb) = (change(&a), change(&b));
    assert_eq!(ca, cb, "both pages show both changes");
    let (won, lost) = if ra.contains("You win") {
        ("Alice56", "Bob56")
    } else {
        ("Bob56", "Alice56")
    };
    let line = |who: &str| {
        ca.lines()
            .find(|l| l.starts_with(who))
            .unwrap_or_else(|| panic!("{who} in {ca}"))
            .to_string()
    };
    assert!(
        line(won).contains("1500 → ") && line(won).contains("(+"),
        "{ca}"
    );
    assert!(
        line(lost).contains("1500 → ") && line(lost).contains("(−"),
        "{ca}"
    );
    eprintln!(
        "deploy: game {id} played ({} actions) at {:.1} s",
        by_a + by_b,
        started.elapsed().as_secs_f64()
    );
    // Leaving the game page closes its WebSocket, which nginx logs then.
    for s in [&a, &b] {
        s.goto(&format!("{base}/p/{won}"));
        s.wait_for("#player-name", 20);
    }
    let lobby_ws = |log: &[Logged]| {
        log.iter()
            .filter(|l| l.uri == "/api/lobby/ws" && l.status == "101")
            .count()
    };
    let game_ws = |log: &[Logged]| {
        log.iter()
            .filter(|l| l.uri == format!("/api/games/{id}/ws") && l.status == "101")
            .count()
    };
    let log = access_log_when(
        &ngx_dir,
        "both pages' game and lobby WebSockets upgraded through the proxy",
        |l| game_ws(l) >= 2 && lobby_ws(l) >= 2,
    );

    // Every request of the game went to one server; the two servers both served.
    let mut per_game: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for l in &log {
        per_game
            .entry(l.game.as_str())
            .or_default()
            .insert(l.upstream.as_str());
    }
    let game_requests = log.iter().filter(|l| l.game == id).count();
    assert!(game_requests > 20, "{game_requests} requests of the game");
    assert_eq!(
        per_game[id.as_str()].len(),
        1,
        "all the game's requests went to one server: {:?}",
        per_game[id.as_str()]
    );
    let all: BTreeSet<&str> = log.iter().map(|l| l.upstream.as_str()).collect();
    for p in upstreams {
        assert!(
            all.contains(format!("127.0.0.1:{p}").as_str()),
            "server {p} served requests: {all:?}"
        );
    }
    assert!(
        log.iter().all(|l| !l.status.starts_with('5')),
        "no request failed: {:?}",
        log.iter()
            .filter(|l| l.status.starts_with('5'))
            .collect::<Vec<_>>()
    );
    let moves = log
        .iter()
        .filter(|l| l.method == "POST" && l.game == id)
        .count();
    assert!(moves >= (by_a + by_b) as usize, "{moves} POSTs of the game");

    eprintln!(
        "deploy: {} requests through nginx, {game_requests} of the game, all to {:?}; per server: {:?}",
        log.len(),
        per_game[id.as_str()],
        upstreams.map(|p| {
            let a = format!("127.0.0.1:{p}");
            log.iter().filter(|l| l.upstream == a).count()
        })
    );

    // The server that held the game goes down: nginx sends the game to the other one, which
    // reads it from the shared database.
    let holder = servers
        .iter()
        .position(|s| per_game[id.as_str()].contains(format!("127.0.0.1:{}", s.port).as_str()))
        .unwrap();
    servers.remove(holder).kill();
    let body = curl(
        &cert,
        "127.0.0.1",
        &["--fail", &format!("{base}/api/games/{id}")],
    );
    let st: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(st["status"]["state"], "over", "{st}");
    let log = access_log_when(&ngx_dir, "the game read after its server went down", |l| {
        l.last().is_some_and(|l| l.game == id.as_str())
    });
    let last = log.last().unwrap();
    assert_eq!(
        (last.status.as_str(), last.game.as_str()),
        ("200", id.as_str())
    );
    assert!(
        last.upstream
            .ends_with(&format!("127.0.0.1:{}", servers[0].port)),
        "{last:?}"
    );

    eprintln!(
        "deploy: one server down, the game came from {}",
        last.upstream
    );

    // docs/deploy.md's restore drill: a dump taken while the servers run, restored into a
    // database of its own, read by a server of its own: the game as it was.
    let dump = pg.dir.join("senet.dump");
    pg.pg(
        "pg_dump",
        &[
            "--format=custom".as_ref(),
            "--file".as_ref(),
            dump.as_os_str(),
            db.as_ref(),
        ],
    );
    let drill = pg.create_db("senet_drill");
    pg.pg(
        "pg_restore",
        &[
            "--no-owner".as_ref(),
            format!("--dbname={drill}").as_ref(),
            dump.as_os_str(),
        ],
    );
    let restored = Server::start_with(drill.as_ref(), 0, &[]);
    let (status, body) =
        support::webdriver::http(restored.port, "GET", &format!("/api/games/{id}"), None).unwrap();
    assert_eq!(status, 200, "{body}");
    let back: Value = serde_json::from_str(&body).unwrap();
    assert!(st["seq"].as_u64().unwrap() > 20, "{st}");
    for k in ["seq", "status", "position", "seed", "events", "players"] {
        assert_eq!(back[k], st[k], "{k} after the restore");
    }
    let (status, body) =
        support::webdriver::http(restored.port, "GET", &format!("/api/players/{won}"), None)
            .unwrap();
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("kendall5"), "{body}");
    eprintln!("deploy: done in {:.1} s", started.elapsed().as_secs_f64());
    drop((a, b, driver, restored));
    drop(servers);
    drop(pg);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 57: a challenge across servers, in the browser. Two servers on one PostgreSQL
/// database, each with its own player (A on the first, B on the second): A challenges B from
/// B's page; B's lobby, on the other server, shows it at once (the database's notice); B
/// accepts there, and A's lobby, on the first server, goes to the game, which both servers
/// serve alike.
#[test]
#[ignore = "needs postgresql, chromium; run by scripts/test.sh"]
fn a_challenge_made_on_one_server_is_accepted_on_another_in_the_browser() {
    let dir = temp_dir("challenge-pg");
    let pg = Postgres::start(&dir.join("pg"));
    let db = pg.create_db("senet");
    // One after the other: the first creates the tables.
    let servers: Vec<Server> = (0..2)
        .map(|_| Server::start_with(db.as_ref(), 0, &["--puzzles", "0"]))
        .collect();
    let driver = Driver::start();
    let a = driver.session(&dir.join("a"), 1000, 900);
    let b = driver.session(&dir.join("b"), 1000, 900);
    for (s, server) in [(&a, &servers[0]), (&b, &servers[1])] {
        s.goto(&format!("{}/", server.url));
        s.wait_for("#me-link", 20);
        motion_off(s);
    }
    rename_in_page(&a, "Alice57");
    rename_in_page(&b, "Bob57");
    wait_text(&b, "#lobby-conn", "live", 20);
    wait_text(&a, "#lobby-conn", "live", 20);
    // A, on the first server, challenges B from B's page.
    a.goto(&format!("{}/p/Bob57", servers[0].url));
    a.wait_for("#challenge-send", 20);
    a.js("document.querySelector('#challenge-rules').value = 'houses'; document.querySelector('#challenge-rated').checked = false; return 1");
    a.click_css("#challenge-send");
    wait_text(&a, "#challenge-status", "Challenge sent", 10);
    a.click_css("#challenge-lobby");
    a.wait_for("#challenges .challenge-withdraw", 20);
    // B, in the lobby of the second server, sees it without a reload, and accepts.
    b.wait_for("#challenges .challenge-accept", 20);
    let offer = b.text("#challenges");
    assert!(
        offer.contains("Alice57") && offer.contains("challenges you") && offer.contains("casual"),
        "{offer}"
    );
    b.click_css("#challenges .challenge-accept");
    let game = |s: &Session| {
        s.js("return location.pathname")
            .as_str()
            .unwrap_or("")
            .strip_prefix("/g/")
            .map(str::to_string)
    };
    let t = Instant::now();
    let id = loop {
        if let (Some(x), Some(y)) = (game(&a), game(&b)) {
            assert_eq!(x, y, "both in one game");
            break x;
        }
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "the challenge did not send both players to a game"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    // Both servers serve it alike: the challenge's rule set, casual, the two players.
    for server in &servers {
        let (st, g) = http(server.port, "GET", &format!("/api/games/{id}"), None).unwrap();
        assert_eq!(st, 200, "{g}");
        let g: Value = serde_json::from_str(&g).unwrap();
        assert_eq!(g["rules"], "houses");
        assert_eq!(g["rated"], false);
        let names: Vec<&str> = (0..2)
            .map(|i| g["players"][i]["name"].as_str().unwrap_or(""))
            .collect();
        assert!(
            names.contains(&"Alice57") && names.contains(&"Bob57"),
            "{g}"
        );
    }
    for s in [&a, &b] {
        s.wait_for("#board", 20);
        wait_text(s, "#players", "Alice57", 10);
    }
}
