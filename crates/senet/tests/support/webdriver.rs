//! A tiny WebDriver client over a tiny HTTP/1.1 client (std only), for driving headless
//! Chromium through chromedriver. Traffic goes only to 127.0.0.1.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// One HTTP request to 127.0.0.1:`port`; returns the status and the body.
pub fn http(
    port: u16,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> Result<(u16, String), String> {
    let mut s =
        TcpStream::connect(("127.0.0.1", port)).map_err(|e| format!("connect {port}: {e}"))?;
    s.set_read_timeout(Some(Duration::from_secs(120))).ok();
    let b = body.unwrap_or("");
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{b}",
        b.len()
    );
    s.write_all(req.as_bytes()).map_err(|e| e.to_string())?;
    let mut r = BufReader::new(s);
    let mut line = String::new();
    r.read_line(&mut line).map_err(|e| e.to_string())?;
    let status: u16 = line
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| format!("bad status line {line:?}"))?;
    let (mut len, mut chunked) = (None, false);
    loop {
        line.clear();
        r.read_line(&mut line).map_err(|e| e.to_string())?;
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        let lower = l.to_ascii_lowercase();
        if let Some(v) = lower.strip_prefix("content-length:") {
            len = v.trim().parse::<usize>().ok();
        }
        if lower.starts_with("transfer-encoding:") && lower.contains("chunked") {
            chunked = true;
        }
    }
    let mut out = Vec::new();
    if chunked {
        loop {
            line.clear();
            r.read_line(&mut line).map_err(|e| e.to_string())?;
            let n = usize::from_str_radix(line.trim().split(';').next().unwrap_or("0"), 16)
                .map_err(|e| e.to_string())?;
            if n == 0 {
                break;
            }
            let mut chunk = vec![0; n + 2];
            r.read_exact(&mut chunk).map_err(|e| e.to_string())?;
            out.extend_from_slice(&chunk[..n]);
        }
    } else if let Some(n) = len {
        out.resize(n, 0);
        r.read_exact(&mut out).map_err(|e| e.to_string())?;
    } else {
        r.read_to_end(&mut out).map_err(|e| e.to_string())?;
    }
    Ok((status, String::from_utf8_lossy(&out).into_owned()))
}

/// A free loopback port.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// A running chromedriver; killed on drop.
pub struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    /// Starts chromedriver on a free port and waits until it is ready.
    pub fn start() -> Driver {
        let port = free_port();
        let child = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .arg("--allowed-ips=127.0.0.1")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver runs (Debian package chromium-driver)");
        let d = Driver { child, port };
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(30) {
            if let Ok((200, b)) = http(port, "GET", "/status", None) {
                if b.contains("\"ready\":true") {
                    return d;
                }
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("chromedriver did not become ready");
    }

    /// A new headless Chromium with a fresh profile in `profile`.
    pub fn session(&self, profile: &Path, width: u32, height: u32) -> Session {
        self.session_with(profile, width, height, &[])
    }

    /// [`Driver::session`] with more command-line switches for Chromium.
    pub fn session_with(&self, profile: &Path, width: u32, height: u32, extra: &[&str]) -> Session {
        self.open(profile, width, height, extra, false)
    }

    /// A phone with a touch screen (`width` under 400): the page sees touch input
    /// (`pointer: coarse`, touch events), and [`Session::tap`] taps with a finger.
    pub fn touch_session(&self, profile: &Path, width: u32, height: u32) -> Session {
        assert!(width < 400, "touch is emulated for phones");
        self.open(profile, width, height, &[], true)
    }

    fn open(
        &self,
        profile: &Path,
        width: u32,
        height: u32,
        extra: &[&str],
        touch: bool,
    ) -> Session {
        std::fs::create_dir_all(profile).unwrap();
        // Headless Chromium's window is at least 500 px wide: a phone's width is emulated.
        let phone = width < 400;
        let mobile = phone.then(|| {
            json!({ "deviceMetrics": { "width": width, "height": height, "pixelRatio": 1.0, "touch": touch } })
        });
        let mut caps = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium_binary(),
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage",
                    format!("--user-data-dir={}", profile.display()),
                    format!("--window-size={width},{height}"),
                ],
            },
        }}});
        if let Some(args) =
            caps["capabilities"]["alwaysMatch"]["goog:chromeOptions"]["args"].as_array_mut()
        {
            args.extend(extra.iter().map(|a| json!(a)));
        }
        if let Some(m) = mobile {
            caps["capabilities"]["alwaysMatch"]["goog:chromeOptions"]["mobileEmulation"] = m;
        }
        let v = call(self.port, "POST", "/session", Some(caps)).expect("a browser session");
        let id = v["sessionId"].as_str().expect("session id").to_string();
        Session {
            port: self.port,
            id,
            phone,
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn chromium_binary() -> String {
    for p in ["/usr/bin/chromium", "/usr/bin/chromium-browser"] {
        if Path::new(p).exists() {
            return p.into();
        }
    }
    "chromium".into()
}

fn call(port: u16, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
    let b = body.map(|b| b.to_string());
    let (status, text) = http(port, method, path, b.as_deref())?;
    let v: Value = serde_json::from_str(&text).map_err(|e| format!("{e}: {text}"))?;
    if status != 200 {
        return Err(format!("{method} {path}: {status} {}", v["value"]));
    }
    Ok(v["value"].clone())
}

/// A browser session.
pub struct Session {
    port: u16,
    id: String,
    phone: bool,
}

/// The W3C key of an element reference.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

impl Session {
    fn cmd(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        call(
            self.port,
            method,
            &format!("/session/{}{path}", self.id),
            body,
        )
    }

    /// Opens a URL.
    pub fn goto(&self, url: &str) {
        self.cmd("POST", "/url", Some(json!({ "url": url })))
            .unwrap_or_else(|e| panic!("open {url}: {e}"));
    }

    /// Runs a script in the page and returns its value.
    pub fn js(&self, script: &str) -> Value {
        self.cmd(
            "POST",
            "/execute/sync",
            Some(json!({ "script": script, "args": [] })),
        )
        .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    /// Runs an asynchronous script (it calls `arguments[arguments.length - 1]` with its
    /// result) and returns that result.
    pub fn js_async(&self, script: &str) -> Value {
        self.cmd(
            "POST",
            "/execute/async",
            Some(json!({ "script": script, "args": [] })),
        )
        .unwrap_or_else(|e| panic!("async script failed: {e}"))
    }

    /// Presses keys as a keyboard would, on whatever has the focus: each `&str` is one key
    /// (a character, or a WebDriver key code such as `\u{E014}` for the right arrow).
    pub fn keys(&self, keys: &[&str]) {
        let mut actions = vec![];
        for k in keys {
            actions.push(json!({ "type": "keyDown", "value": k }));
            actions.push(json!({ "type": "keyUp", "value": k }));
        }
        self.cmd(
            "POST",
            "/actions",
            Some(json!({ "actions": [{ "type": "key", "id": "keyboard", "actions": actions }] })),
        )
        .unwrap_or_else(|e| panic!("keys {keys:?}: {e}"));
    }

    /// The element matching a CSS selector, if any.
    pub fn find(&self, css: &str) -> Option<String> {
        self.cmd(
            "POST",
            "/element",
            Some(json!({ "using": "css selector", "value": css })),
        )
        .ok()
        .and_then(|v| v[ELEMENT].as_str().map(String::from))
    }

    /// Waits up to `secs` for an element.
    pub fn wait_for(&self, css: &str, secs: u64) -> String {
        let t = Instant::now();
        loop {
            if let Some(e) = self.find(css) {
                return e;
            }
            if t.elapsed() > Duration::from_secs(secs) {
                panic!("no {css} after {secs} s; page text: {}", self.text("body"));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits for `css` for as long as the text of `progress` keeps changing: fails once it
    /// has stood still for `stall_secs` (or after ten minutes in all). For work whose time
    /// depends on the machine and the game, such as the page's analysis of a long game on a
    /// busy machine: what is checked is that it goes on and ends, not how fast.
    #[allow(dead_code)] // tests/browser.rs
    pub fn wait_while_progressing(&self, css: &str, progress: &str, stall_secs: u64) -> String {
        let (start, mut moved) = (Instant::now(), Instant::now());
        let mut last = String::new();
        loop {
            if let Some(e) = self.find(css) {
                return e;
            }
            let now = self.text(progress);
            if now != last {
                (last, moved) = (now, Instant::now());
            }
            if moved.elapsed() > Duration::from_secs(stall_secs)
                || start.elapsed() > Duration::from_secs(600)
            {
                panic!(
                    "no {css} after {} s, {progress} unchanged for {} s; page text: {}",
                    start.elapsed().as_secs(),
                    moved.elapsed().as_secs(),
                    self.text("body")
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Scrolls an element to the middle of the view.
    fn scroll_to_middle(&self, element: &str) -> Result<(), String> {
        self.cmd(
            "POST",
            "/execute/sync",
            Some(json!({
                "script": "arguments[0].scrollIntoView({ block: 'center', inline: 'center' }); return 1",
                "args": [{ ELEMENT: element }],
            })),
        )
        .map(|_| ())
    }

    /// Clicks an element (a real click through the browser); on an emulated phone first
    /// scrolled to the middle of the view (chromedriver's own scrolling misplaces clicks
    /// there).
    pub fn click(&self, element: &str) -> Result<(), String> {
        if self.phone {
            let _ = self.scroll_to_middle(element);
        }
        self.cmd(
            "POST",
            &format!("/element/{element}/click"),
            Some(json!({})),
        )
        .map(|_| ())
    }

    /// Taps an element with a finger: a W3C pointer action of type touch at its centre
    /// (scrolled to the middle of the view first, as [`Session::click`] does on a phone).
    pub fn tap(&self, element: &str) -> Result<(), String> {
        self.scroll_to_middle(element)?;
        let finger = json!({
            "type": "pointer", "id": "finger", "parameters": { "pointerType": "touch" },
            "actions": [
                { "type": "pointerMove", "duration": 0, "origin": { ELEMENT: element }, "x": 0, "y": 0 },
                { "type": "pointerDown", "button": 0 },
                { "type": "pause", "duration": 40 },
                { "type": "pointerUp", "button": 0 },
            ],
        });
        let r = self.cmd("POST", "/actions", Some(json!({ "actions": [finger] })));
        let _ = self.cmd("DELETE", "/actions", None);
        r.map(|_| ())
    }

    /// Clicks the first element matching `css`. The page may draw that part of itself again
    /// between finding the element and clicking it (a bot's move redraws the tip and its
    /// buttons): a stale element is found again, as a person's click would hit the new one.
    pub fn click_css(&self, css: &str) {
        let mut tries = 0;
        loop {
            let e = self.wait_for(css, 10);
            match self.click(&e) {
                Ok(()) => return,
                Err(err) if err.contains("stale element") && tries < 5 => {
                    tries += 1;
                    std::thread::sleep(Duration::from_millis(50));
                }
                Err(err) => panic!("click {css}: {err}"),
            }
        }
    }

    /// The visible text of the first element matching `css` ("" if none).
    pub fn text(&self, css: &str) -> String {
        let Some(e) = self.find(css) else {
            return String::new();
        };
        self.cmd("GET", &format!("/element/{e}/text"), None)
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default()
    }

    /// The cookies the browser holds for the current page, as WebDriver describes them
    /// (`name`, `value`, `secure`, `httpOnly`, `sameSite`, ...).
    #[allow(dead_code)] // tests/deploy.rs
    pub fn cookies(&self) -> Vec<Value> {
        let v = self.cmd("GET", "/cookie", None).expect("cookies");
        v.as_array().cloned().unwrap_or_default()
    }

    /// Saves a PNG screenshot of the viewport.
    pub fn screenshot(&self, path: &Path) {
        let v = self.cmd("GET", "/screenshot", None).expect("screenshot");
        let png = base64(v.as_str().expect("base64 text"));
        assert!(png.starts_with(b"\x89PNG"), "a PNG");
        if let Some(d) = path.parent() {
            std::fs::create_dir_all(d).unwrap();
        }
        std::fs::write(path, png).unwrap();
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.cmd("DELETE", "", None);
    }
}

fn base64(s: &str) -> Vec<u8> {
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0);
    for c in s.bytes().filter_map(val) {
        acc = (acc << 6) | c;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

/// A `senet serve` process on a database file; killed (SIGKILL) on drop.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    /// The port.
    pub port: u16,
}

impl Server {
    /// Starts `senet serve` on `port` (0: any) and reads the address it prints.
    pub fn start(db: &Path, port: u16) -> Server {
        Server::start_with(db.as_os_str(), port, &[])
    }

    /// [`Server::start`] on a database given as text (a file, or a PostgreSQL URL), with
    /// more arguments for `senet serve`.
    pub fn start_with(db: &std::ffi::OsStr, port: u16, extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_senet"))
            .args(["serve", "--addr", &format!("127.0.0.1:{port}"), "--db"])
            .arg(db)
            .args(extra)
            // No puzzles made in the background unless a test asks: they would take the
            // two cores from every other browser test.
            .args(if extra.contains(&"--puzzles") {
                &[][..]
            } else {
                &["--puzzles", "0"][..]
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("senet serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .trim_end_matches('/')
            .to_string();
        let port = url.rsplit(':').next().unwrap().parse().unwrap();
        Server { child, url, port }
    }

    /// Stops the process as an operator does (SIGTERM: a graceful stop) and waits for it;
    /// its exit status.
    #[allow(dead_code)] // tests/browser_site.rs
    pub fn terminate(mut self) -> std::process::ExitStatus {
        let sent = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success(), "SIGTERM was not sent");
        self.child.wait().expect("the server ends")
    }

    /// Kills the process at once (no shutdown), as a crash would.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A fresh temporary directory for this test.
pub fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("senet-e2e-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}
