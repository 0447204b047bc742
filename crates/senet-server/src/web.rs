//! The web app, embedded in the binary: one HTML page, its script and its style sheet. No
//! external resources are loaded at run time.

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

/// The page (lobby, game and review are routed by the script).
pub const INDEX: &str = include_str!("../static/index.html");
/// The script.
pub const APP_JS: &str = include_str!("../static/app.js");
/// The style sheet.
pub const STYLE_CSS: &str = include_str!("../static/style.css");
/// The OpenAPI document of the JSON API.
pub const OPENAPI: &str = include_str!("../static/openapi.json");

const CSP: &str = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; \
connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

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

/// Serves `/static/app.js` and `/static/style.css`.
pub async fn asset(Path(file): Path<String>) -> Response {
    let (body, kind) = match file.as_str() {
        "app.js" => (APP_JS, "text/javascript; charset=utf-8"),
        "style.css" => (STYLE_CSS, "text/css; charset=utf-8"),
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
