//! The web app, embedded in the binary: one HTML page, its script (ES modules, entry
//! `main.js`; the art is SVG drawn by `art.js`) and its style sheet. No external resources
//! are loaded at run time.

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

/// The page (lobby, game, review, series and rules pages are routed by the script).
pub const INDEX: &str = include_str!("../static/index.html");
/// The script's ES modules by file name; the page loads `main.js`, which imports the rest.
pub const SCRIPTS: &[(&str, &str)] = &[
    ("main.js", include_str!("../static/main.js")),
    ("dom.js", include_str!("../static/dom.js")),
    ("api.js", include_str!("../static/api.js")),
    ("sha256.js", include_str!("../static/sha256.js")),
    ("verify.js", include_str!("../static/verify.js")),
    ("art.js", include_str!("../static/art.js")),
    ("board.js", include_str!("../static/board.js")),
    ("anim.js", include_str!("../static/anim.js")),
    ("sound.js", include_str!("../static/sound.js")),
    ("rules.js", include_str!("../static/rules.js")),
    ("lobby.js", include_str!("../static/lobby.js")),
    ("game.js", include_str!("../static/game.js")),
    ("review.js", include_str!("../static/review.js")),
    ("series.js", include_str!("../static/series.js")),
    ("me.js", include_str!("../static/me.js")),
    ("clock.js", include_str!("../static/clock.js")),
    ("online.js", include_str!("../static/online.js")),
    ("seeks.js", include_str!("../static/seeks.js")),
    ("players.js", include_str!("../static/players.js")),
    ("engine.js", include_str!("../static/engine.js")),
    ("local.js", include_str!("../static/local.js")),
    ("puzzles.js", include_str!("../static/puzzles.js")),
    ("challenges.js", include_str!("../static/challenges.js")),
    ("tournaments.js", include_str!("../static/tournaments.js")),
    (
        "engine-worker.js",
        include_str!("../static/engine-worker.js"),
    ),
];
/// The style sheet.
pub const STYLE_CSS: &str = include_str!("../static/style.css");
/// The app's icon, drawn for this project, and its renderings for systems that want PNGs.
pub const ICONS: &[(&str, &str, &[u8])] = &[
    (
        "icon.svg",
        "image/svg+xml",
        include_bytes!("../static/icon.svg"),
    ),
    (
        "icon-192.png",
        "image/png",
        include_bytes!("../static/icon-192.png"),
    ),
    (
        "icon-512.png",
        "image/png",
        include_bytes!("../static/icon-512.png"),
    ),
];
/// The web app manifest: the page installs as an app (issue 54).
pub const MANIFEST: &str = include_str!("../static/manifest.webmanifest");
/// The service worker's script before the version and the asset list are filled in.
const SERVICE_WORKER: &str = include_str!("../static/sw.js");

/// What the service worker keeps at install: the page, every asset, the rule sets.
fn offline_assets() -> Vec<String> {
    let mut v = vec!["/".to_string(), "/manifest.webmanifest".into()];
    v.extend(SCRIPTS.iter().map(|(n, _)| format!("/static/{n}")));
    v.push("/static/style.css".into());
    v.extend(ICONS.iter().map(|(n, _, _)| format!("/static/{n}")));
    if has_engine() {
        v.push("/static/senet_engine.wasm".into());
    }
    v.push("/api/rules".into());
    v.extend(
        senet_rules::RuleSet::ALL
            .iter()
            .map(|r| format!("/api/rules/{}", r.id())),
    );
    v
}

/// The service worker's script: its version is a hash of everything it keeps, so a server
/// with any asset changed installs afresh.
fn service_worker_text() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        use sha2::{Digest, Sha256};
        let mut h = Sha256::new();
        h.update(INDEX);
        h.update(STYLE_CSS);
        h.update(MANIFEST);
        h.update(SERVICE_WORKER);
        for (n, body) in SCRIPTS {
            h.update(n);
            h.update(body);
        }
        for (_, _, body) in ICONS {
            h.update(body);
        }
        h.update(ENGINE_WASM);
        h.update(env!("CARGO_PKG_VERSION"));
        let version: String = h.finalize()[..8]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let assets = serde_json::to_string(&offline_assets()).expect("a list of strings");
        SERVICE_WORKER
            .replace("'__VERSION__'", &format!("'{version}'"))
            .replace("__ASSETS__", &assets)
    })
}

/// Serves `/sw.js`, the service worker (scope: the whole site).
pub async fn service_worker() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        service_worker_text(),
    )
        .into_response()
}

/// Serves `/manifest.webmanifest`.
pub async fn manifest() -> Response {
    (
        [
            (header::CONTENT_TYPE, "application/manifest+json"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        MANIFEST,
    )
        .into_response()
}

/// The page's engine (issue 54): the rules and bots in WebAssembly, run by the page in a Web
/// Worker (`engine.js`, `engine-worker.js`); empty when this server was built without it
/// (`scripts/build-wasm.sh` makes it; see `build.rs`).
pub const ENGINE_WASM: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/senet_engine.wasm"));

/// Whether this server was built with the page's engine.
pub fn has_engine() -> bool {
    !ENGINE_WASM.is_empty()
}

// `wasm-unsafe-eval` lets the page compile its engine (WebAssembly), nothing else.
const CSP: &str = "default-src 'self'; img-src 'self' data:; style-src 'self'; \
script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self' ws: wss:; \
frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/// Serves the page.
pub async fn page() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CONTENT_SECURITY_POLICY, CSP),
        ],
        INDEX,
    )
        .into_response()
}

/// Serves the script's modules (`/static/main.js` and the rest of [`SCRIPTS`]) and
/// `/static/style.css`.
pub async fn asset(Path(file): Path<String>) -> Response {
    if file == "senet_engine.wasm" {
        if !has_engine() {
            return (
                StatusCode::NOT_FOUND,
                "this server was built without the page's engine (scripts/build-wasm.sh builds it); the page asks the server instead",
            )
                .into_response();
        }
        return (
            [
                (header::CONTENT_TYPE, "application/wasm"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            ENGINE_WASM,
        )
            .into_response();
    }
    if let Some((_, kind, body)) = ICONS.iter().find(|(n, _, _)| *n == file) {
        return (
            [
                (header::CONTENT_TYPE, *kind),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            *body,
        )
            .into_response();
    }
    let script = SCRIPTS.iter().find(|(name, _)| *name == file);
    let (body, kind) = match (file.as_str(), script) {
        (_, Some((_, body))) => (*body, "text/javascript; charset=utf-8"),
        ("style.css", _) => (STYLE_CSS, "text/css; charset=utf-8"),
        _ => return (StatusCode::NOT_FOUND, "not found").into_response(),
    };
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}
