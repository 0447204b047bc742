//! The HTTP layer: routes, request parsing, errors as JSON, limits, the WebSocket and the
//! embedded web app. It knows nothing of the rules: every handler calls [`Service`].
//! The API is described by an OpenAPI document generated from the handlers' annotations
//! (`#[utoipa::path]`) and the body types of [`crate::wire`] (see [`openapi_document`]),
//! served at `/api/openapi.json`.

mod challenges;
mod doc;
mod online;
mod puzzles;
mod tournaments;
pub use doc::openapi_document;
pub use online::COOKIE;

use crate::analysis::ValueRequest;
use crate::service::{Failure, NewGame, Service, Subscription, Who};
use crate::web;
use crate::wire::{
    AnalysisDone, AnalysisReply, AnalysisRunning, Catalogue, Claimed, Created, ErrorBody, GameList,
    GameState, Health, Hint, ImportGame, InviteLink, NextGame, Review, Series, Throws,
};
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, Query, Request, State};
use axum::handler::Handler;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, MethodRouter};
use axum::Extension;
use axum::Router;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter as GovLimiter};
use senet_bots::analysis::PositionValue;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tower_http::timeout::{RequestBodyTimeoutLayer, TimeoutLayer};

/// Limits of the HTTP layer.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Largest request body, in bytes (413 beyond).
    pub body_bytes: usize,
    /// API requests per second per client address, sustained (429 beyond); 0 turns the
    /// limit off.
    pub per_second: f64,
    /// API requests a client address may make in a burst (at least 1).
    pub burst: u32,
    /// Proxies whose `X-Forwarded-For` header names the client: for a request from one of
    /// these addresses, the client is the header's last address that is not a trusted
    /// proxy. Empty: the client is the connection's peer address.
    pub trusted_proxies: Vec<IpAddr>,
    /// Open connections at most, WebSockets included; when full, the oldest idle one is
    /// closed to make room (a new connection is closed at once only when none is idle).
    pub max_connections: usize,
    /// Open connections at most from one client address (not counted for a trusted
    /// proxy's address: its clients' WebSockets are capped per forwarded client instead).
    pub max_per_address: usize,
    /// Open WebSockets at most, over all games and clients (503 beyond), so that watchers
    /// leave room for requests.
    pub max_websockets: usize,
    /// How often a WebSocket is pinged; one that has sent nothing (not even the pong) for
    /// twice this long is closed.
    pub ws_ping: Duration,
    /// Time a client has to send a request's headers, counted from the connection's start
    /// or the end of its previous response (so it also closes idle keep-alive connections).
    pub header_timeout: Duration,
    /// Time a client has to send a request's body (408 beyond).
    pub body_timeout: Duration,
    /// Time a whole request may take, body and answer (408 beyond).
    pub request_timeout: Duration,
    /// Client addresses that may read `GET /metrics` besides loopback ones (a Prometheus
    /// server elsewhere); any other client is refused (403), so that a proxy that passes
    /// everything does not publish the server's figures.
    pub metrics_from: Vec<IpAddr>,
    /// Limits per client address on making players, accounts and seeks (issue 56).
    pub per_address: crate::service::AddressLimits,
    /// Puzzles per rule set that [`crate::serve`] makes in the background when the database
    /// holds fewer (issue 57; 0: none, the default here; `senet serve --puzzles`).
    pub puzzles: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        let (max_connections, max_per_address, max_websockets) =
            crate::http::caps_for_connections(512);
        Limits {
            body_bytes: 16 * 1024,
            per_second: 50.0,
            burst: 200,
            trusted_proxies: Vec::new(),
            max_connections,
            max_per_address,
            max_websockets,
            ws_ping: Duration::from_secs(30),
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            metrics_from: Vec::new(),
            per_address: crate::service::AddressLimits::default(),
            puzzles: 0,
        }
    }
}

/// The rate limit per client address: `governor`'s keyed GCRA limiter (a token bucket
/// without a timer per client), `Limits::per_second` sustained with bursts of
/// `Limits::burst`.
struct RateLimiter {
    /// `None`: no limit (`per_second` 0).
    gov: Option<DefaultKeyedRateLimiter<IpAddr>>,
    /// The proxies whose `X-Forwarded-For` names the client ([`Limits::trusted_proxies`]).
    trusted_proxies: Vec<IpAddr>,
}

impl RateLimiter {
    fn new(limits: &Limits) -> RateLimiter {
        let burst = NonZeroU32::new(limits.burst).unwrap_or(NonZeroU32::MIN);
        let gov = (limits.per_second > 0.0).then(|| {
            // One request's worth of time, kept between a nanosecond and a day so that any
            // positive rate gives a quota.
            let period = Duration::try_from_secs_f64(1.0 / limits.per_second)
                .unwrap_or(Duration::MAX)
                .clamp(Duration::from_nanos(1), Duration::from_secs(86_400));
            let quota = Quota::with_period(period)
                .unwrap_or(Quota::per_second(NonZeroU32::MIN))
                .allow_burst(burst);
            GovLimiter::keyed(quota)
        });
        RateLimiter {
            gov,
            trusted_proxies: limits.trusted_proxies.clone(),
        }
    }

    fn allow(&self, ip: IpAddr) -> bool {
        let Some(gov) = &self.gov else { return true };
        if gov.len() > 100_000 {
            // Forget clients whose bucket has refilled: they lose nothing.
            gov.retain_recent();
        }
        gov.check_key(&ip).is_ok()
    }
}

/// The client's address as the rate limit and the bot limits see it (a request extension
/// set by the [`limit`] middleware).
#[derive(Clone, Copy, Debug)]
struct ClientAddr(IpAddr);

/// The client of a request: the peer, or for a trusted proxy the address it forwards.
///
/// The `X-Forwarded-For` entries are read from the right (the entry nearest the server was
/// written by the proxy closest to it); trusted proxies are skipped, and the first other
/// entry is the client. An entry may carry a port (`203.0.113.7:5124`, `[2001:db8::7]:443`),
/// as some proxies write it. An entry that is still no address (`unknown`, garbage) is an
/// unidentified client, never the proxy: it gets an address of its own made from the entry
/// ([`unidentified`]), so such clients share one rate bucket per distinct entry and no
/// client's junk can spend the proxy's bucket, which every proxied client would share.
/// Entries left of the client's are never read: only the client wrote them.
fn client_of(req: &Request, trusted: &[IpAddr]) -> IpAddr {
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(IpAddr::V4(Ipv4Addr::LOCALHOST), |c| c.0.ip());
    if !trusted.contains(&peer) {
        return peer;
    }
    // Every header line's entries in order; later lines were added nearer the server.
    let entries: Vec<&[u8]> = req
        .headers()
        .get_all("x-forwarded-for")
        .iter()
        .flat_map(|v| v.as_bytes().split(|&b| b == b','))
        .map(<[u8]>::trim_ascii)
        .filter(|e| !e.is_empty())
        .collect();
    for e in entries.into_iter().rev() {
        match forwarded_ip(e) {
            Some(ip) if trusted.contains(&ip) => continue,
            Some(ip) => return ip,
            None => return unidentified(e),
        }
    }
    peer
}

/// One `X-Forwarded-For` entry as an address: `IP`, `IPv4:PORT` or `[IPv6]:PORT`.
fn forwarded_ip(entry: &[u8]) -> Option<IpAddr> {
    let s = std::str::from_utf8(entry).ok()?;
    if let Ok(ip) = s.parse() {
        return Some(ip);
    }
    if let Ok(a) = s.parse::<SocketAddr>() {
        return Some(a.ip());
    }
    // `[IPv6]` without a port.
    s.strip_prefix('[')?.strip_suffix(']')?.parse().ok()
}

/// The address that stands for a forwarded client whose entry is no address: in the
/// discard-only prefix `100::/64` (RFC 6666), which no real client has, with a hash of the
/// entry (ASCII case ignored) as the rest. The same entry always gives the same address.
fn unidentified(entry: &[u8]) -> IpAddr {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    entry.to_ascii_lowercase().hash(&mut h);
    IpAddr::V6(std::net::Ipv6Addr::from(
        (0x0100_u128 << 112) | u128::from(h.finish()),
    ))
}

#[derive(Clone)]
struct AppState {
    svc: Arc<Service>,
    limiter: Arc<RateLimiter>,
    /// Open WebSockets, against `Limits::max_websockets`.
    websockets: Arc<AtomicUsize>,
    /// Open WebSockets of the lobby (the rest of `websockets` are games').
    lobby_sockets: Arc<AtomicUsize>,
    max_websockets: usize,
    ws_ping: Duration,
    /// Who may read `/metrics` besides loopback clients ([`Limits::metrics_from`]).
    metrics_from: Arc<Vec<IpAddr>>,
}

/// A WebSocket's place under `Limits::max_websockets`, given back on drop.
struct WsPlace(Arc<AtomicUsize>);

impl WsPlace {
    /// A place for a new WebSocket of the app, or the 503 (Retry-After) refusal when the
    /// server has its most live connections open.
    fn for_app(s: &AppState) -> Result<WsPlace, Box<Response>> {
        WsPlace::take(&s.websockets, s.max_websockets).ok_or_else(|| {
            let mut r = error(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "the server has its most live connections open ({}); try again later",
                    s.max_websockets
                ),
            );
            r.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("10"));
            Box::new(r)
        })
    }

    fn take(count: &Arc<AtomicUsize>, max: usize) -> Option<WsPlace> {
        count
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < max).then_some(n + 1)
            })
            .ok()
            .map(|_| WsPlace(count.clone()))
    }
}

impl Drop for WsPlace {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The seconds a client is told to wait (Retry-After) when the database cannot be reached
/// (503): long enough for a restarting PostgreSQL, short enough that a player barely notices.
const UNAVAILABLE_RETRY_AFTER: &str = "2";

/// An error response: `{"error": MESSAGE}` with the status code.
fn error(status: StatusCode, message: impl Into<String>) -> Response {
    let body = ErrorBody {
        error: message.into(),
    };
    let mut r = (status, axum::Json(body)).into_response();
    if status == StatusCode::TOO_MANY_REQUESTS {
        r.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    }
    if status == StatusCode::SERVICE_UNAVAILABLE {
        r.headers_mut().insert(
            header::RETRY_AFTER,
            HeaderValue::from_static(UNAVAILABLE_RETRY_AFTER),
        );
    }
    r
}

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        let status = match &self {
            Failure::BadRequest(_) => StatusCode::BAD_REQUEST,
            Failure::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            Failure::Forbidden(_) => StatusCode::FORBIDDEN,
            Failure::NotFound(_) => StatusCode::NOT_FOUND,
            Failure::Conflict(_) => StatusCode::CONFLICT,
            Failure::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Failure::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Failure::Timeout(_) => StatusCode::REQUEST_TIMEOUT,
            Failure::Busy(_) => StatusCode::TOO_MANY_REQUESTS,
            Failure::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            Failure::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
        };
        error(status, self.message())
    }
}

type ApiResult = Result<Response, Failure>;

fn ok_json(v: impl Serialize) -> ApiResult {
    Ok(axum::Json(v).into_response())
}

/// The seat token from `Authorization: Bearer TOKEN`.
fn token(h: &HeaderMap) -> Result<Option<&str>, Failure> {
    let Some(v) = h.get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    let v = v
        .to_str()
        .map_err(|_| Failure::BadRequest("the Authorization header is not text".into()))?;
    match v.strip_prefix("Bearer ") {
        Some(t) if !t.trim().is_empty() && t.len() <= 128 => Ok(Some(t.trim())),
        _ => Err(Failure::BadRequest(
            "the Authorization header must be \"Bearer TOKEN\" with the seat's token".into(),
        )),
    }
}

/// Parses a JSON body into `T`; an empty body is `{}`.
fn body<T: serde::de::DeserializeOwned>(b: Result<Bytes, BytesRejection>) -> Result<T, Failure> {
    fields(json_object(b)?)
}

/// A request body as a JSON object (an empty body is `{}`), with every whole number written
/// with a fraction (`853.0`, `1e3`) made an integer: JSON Schema's `integer`, which the
/// OpenAPI document gives such fields, is any number whose fraction is zero.
fn json_object(b: Result<Bytes, BytesRejection>) -> Result<Value, Failure> {
    use axum::extract::rejection::FailedToBufferBody;
    let b = b.map_err(|e| match e {
        BytesRejection::FailedToBufferBody(FailedToBufferBody::LengthLimitError(_)) => {
            Failure::TooLarge("the request body is too large".into())
        }
        BytesRejection::FailedToBufferBody(_) => {
            Failure::Timeout("the request body did not arrive in time or could not be read".into())
        }
        e => Failure::BadRequest(e.body_text()),
    })?;
    let text: &[u8] = if b.iter().all(u8::is_ascii_whitespace) {
        b"{}"
    } else {
        &b
    };
    let mut v: Value = serde_json::from_slice(text).map_err(|e| {
        Failure::BadRequest(format!(
            "the request body is not valid JSON: {} (line {}, column {})",
            senet_rules::json_syntax_in_words(&e),
            e.line(),
            e.column()
        ))
    })?;
    if !v.is_object() {
        return Err(Failure::BadRequest(
            "the request body must be a JSON object ({...}); see /api/openapi.json".into(),
        ));
    }
    whole_numbers(&mut v);
    Ok(v)
}

/// Makes every number of `v` whose fraction is zero, within 64 bits, an integer.
fn whole_numbers(v: &mut Value) {
    match v {
        Value::Number(n) if !n.is_i64() && !n.is_u64() => {
            if let Some(f) = n.as_f64().filter(|f| f.fract() == 0.0) {
                if f >= 0.0 && f < u64::MAX as f64 {
                    *v = Value::from(f as u64);
                } else if f < 0.0 && f >= i64::MIN as f64 {
                    *v = Value::from(f as i64);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(whole_numbers),
        Value::Object(o) => o.values_mut().for_each(whole_numbers),
        _ => {}
    }
}

/// The fields of a body object as `T`, each error naming its field.
fn fields<T: serde::de::DeserializeOwned>(v: Value) -> Result<T, Failure> {
    serde_path_to_error::deserialize(v).map_err(|e| {
        let path = e.path().to_string();
        Failure::BadRequest(field_error(&path, &strip_position(&e.inner().to_string())))
    })
}

/// The `seq` of a change's body, read on its own: the API checks a change's authority, then
/// its sequence, then its content, so a stale request is refused (409) whatever else its
/// body holds. A body that is no JSON object has no readable `seq`: its error answers here.
fn seq_of(v: &Result<Value, Failure>) -> Result<Option<u32>, Failure> {
    let v = v.as_ref().map_err(Clone::clone)?;
    match v.get("seq") {
        None | Some(Value::Null) => Ok(None),
        Some(s) => serde_json::from_value(s.clone())
            .map(Some)
            .map_err(|e| Failure::BadRequest(field_error("seq", &e.to_string()))),
    }
}

/// serde's message without its " at line L column C".
fn strip_position(m: &str) -> String {
    match m.rfind(" at line ") {
        Some(i) => m[..i].to_string(),
        None => m.to_string(),
    }
}

/// serde's description of a wrong value in words: `expected u32` and the like become what a
/// person would write, and the field is named.
fn in_words(serde: &str) -> String {
    // Numbers are shown bare, other values quoted.
    let mut out = String::new();
    let mut rest = serde;
    while let Some(i) = rest.find('`') {
        let (head, tail) = rest.split_at(i);
        let tail = &tail[1..];
        let end = tail.find('`').unwrap_or(tail.len());
        let v = &tail[..end];
        out.push_str(head);
        if v.parse::<f64>().is_ok() {
            out.push_str(v);
        } else {
            out.push('"');
            out.push_str(v);
            out.push('"');
        }
        rest = tail.get(end + 1..).unwrap_or("");
    }
    out.push_str(rest);
    for (from, to) in [
        (
            "expected u32",
            "expected a whole number from 0 to 4294967295",
        ),
        ("expected u8", "expected a whole number"),
        ("expected u64", "expected a whole number"),
        ("expected usize", "expected a whole number"),
        ("expected a sequence", "expected a list"),
        ("expected a string", "expected text"),
        ("invalid type: string", "got the text"),
        ("invalid type: integer", "got the number"),
        ("invalid value: integer", "got the number"),
        ("invalid type: floating point", "got the number"),
        ("invalid type: boolean", "got"),
        ("invalid type: map", "got an object"),
        ("invalid type: sequence", "got a list"),
        ("invalid type: null", "got null"),
    ] {
        out = out.replace(from, to);
    }
    out
}

/// A body field's error as one sentence naming the field.
fn field_error(path: &str, serde: &str) -> String {
    if let Some(rest) = serde.strip_prefix("unknown field `") {
        let (name, known) = rest.split_once('`').unwrap_or((rest, ""));
        let known: Vec<&str> = known
            .split('`')
            .enumerate()
            .filter(|(i, _)| i % 2 == 1)
            .map(|(_, f)| f)
            .collect();
        return format!(
            "unknown field \"{name}\" in the request body; the fields are: {}",
            known.join(", ")
        );
    }
    if let Some(rest) = serde.strip_prefix("missing field `") {
        let name = rest.trim_end_matches('`');
        return format!("the request body needs the field \"{name}\"");
    }
    if path.starts_with("series") {
        return "\"series\" must be {\"points\": N} or {\"games\": N} with a whole number N".into();
    }
    if serde.contains("untagged enum") || serde.starts_with("expected value") {
        return format!("\"{path}\" is not in a form the API accepts; see /api/openapi.json");
    }
    let words = in_words(serde);
    let words = words.replacen("got ", "", 1);
    // "got the text \"x\", expected text" -> "\"seq\" must be ..., not the text \"x\""
    match words.split_once(", expected ") {
        Some((got, want)) => format!("\"{path}\" must be {want}, not {got}"),
        None => format!("\"{path}\": {words}"),
    }
}

#[utoipa::path(
    get,
    path = "/api/rules",
    summary = "rule sets (options, sides, throws, path, special squares) and bot levels",
    responses(
        (status = 200, description = "catalogue", body = Catalogue),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
    )
)]
async fn rules() -> Response {
    axum::Json(crate::service::catalogue()).into_response()
}

#[utoipa::path(
    get,
    path = "/api/rules/{id}",
    summary = "a rule set's rules page: its rules with their ruling IDs, each shown on positions where the rules crate allows one move and forbids another (with why)",
    params(("id" = String, Path, description = "the rule set's ID, e.g. kendall")),
    responses(
        (status = 200, description = "the rules page", body = crate::rulespage::RulesPage),
        (status = 404, description = "no such rule set", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
    )
)]
async fn rules_page(Path(id): Path<String>) -> Response {
    match crate::rulespage::page(&id) {
        Some(p) => axum::Json(p).into_response(),
        None => error(
            StatusCode::NOT_FOUND,
            format!("no rule set {id:?}; the rule sets are listed at /api/rules"),
        ),
    }
}

#[utoipa::path(
    post,
    path = "/api/games",
    summary = "create a game; a bot in the first seat plays at once",
    request_body = NewGame,
    responses(
        (status = 201, description = "created", body = Created),
        (status = 400, description = "malformed request (bad JSON, unknown field, bad Authorization header)", body = ErrorBody),
        (status = 413, description = "body over the size limit", body = ErrorBody),
        (status = 422, description = "illegal move, unknown rule set or option, bad mode or level", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 408, description = "the request body did not arrive in time", body = ErrorBody),
        (status = 500, description = "the server failed; nothing was changed", body = ErrorBody),
    )
)]
async fn create(
    State(s): State<AppState>,
    Extension(ClientAddr(ip)): Extension<ClientAddr>,
    h: HeaderMap,
    b: Result<Bytes, BytesRejection>,
) -> Response {
    let req: NewGame = match body(b) {
        Ok(r) => r,
        Err(f) => return f.into_response(),
    };
    // The creator's seat belongs to the session's player when the request carries the
    // session's CSRF token (without it the game is made all the same, for the token alone).
    let caller = online::Caller::of(&s, &h, true).await.ok();
    let player = caller.as_ref().and_then(|c| c.player_id());
    match s.svc.create_as(ip, req, player).await {
        Ok(c) => (StatusCode::CREATED, axum::Json(c)).into_response(),
        Err(f) => f.into_response(),
    }
}

/// The largest body `POST /api/games/import` takes: a finished game's record, which may
/// hold thousands of events (the other endpoints keep [`Limits::body_bytes`]).
pub const IMPORT_BODY_BYTES: usize = 1 << 20;

#[utoipa::path(
    post,
    path = "/api/games/import",
    summary = "store a finished bot or hot-seat game that the page played with no server (offline), its throws drawn by the browser",
    description = "The record must read as a senet-record/1 object, start from the rule set's start, carry no seed, replay without an illegal event and end the game. The game is stored as a casual single game marked `page_throws`: it has no seed (`seed` stays null, `seed_hash` is empty, GET /api/games/{id}/throws answers 409 and the record download has no seed). Mode `bot`: the person's seat (`seat`, 1 when absent) gets a token, the other seat is the bot of level `bot` that the page played (`in_page`), with no token. Mode `hotseat`: both seats get a token. The body may be up to 1 MiB.",
    request_body = ImportGame,
    responses(
        (status = 201, description = "stored: its id, the tokens of the people's seats and its state (over)", body = Created),
        (status = 400, description = "malformed request (bad JSON, unknown or missing field, a record that is no object)", body = ErrorBody),
        (status = 413, description = "body over 1 MiB", body = ErrorBody),
        (status = 422, description = "a record that is not valid, has a seed, starts from a position of its own, has an illegal event (named with its number, from 1) or whose game is not over; a bad mode, level or seat", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 408, description = "the request body did not arrive in time", body = ErrorBody),
        (status = 500, description = "the server failed; nothing was changed", body = ErrorBody),
    )
)]
async fn import(State(s): State<AppState>, b: Result<Bytes, BytesRejection>) -> Response {
    let req: ImportGame = match body(b) {
        Ok(r) => r,
        Err(f) => return f.into_response(),
    };
    match s.svc.import(req).await {
        Ok(c) => (StatusCode::CREATED, axum::Json(c)).into_response(),
        Err(f) => f.into_response(),
    }
}

#[derive(Deserialize)]
struct ListQuery {
    ids: Option<String>,
}

#[utoipa::path(
    get,
    path = "/api/games",
    summary = "summaries of the listed games that exist, most recent first",
    params(("ids" = Option<String>, Query, description = "comma-separated IDs, at most 100")),
    responses(
        (status = 200, description = "the games", body = GameList),
        (status = 400, description = "malformed request (bad JSON, unknown field, bad Authorization header)", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed; nothing was changed", body = ErrorBody),
    )
)]
async fn list(State(s): State<AppState>, q: Result<Query<ListQuery>, QueryRejection>) -> ApiResult {
    let Query(q) = q.map_err(|e| Failure::BadRequest(e.body_text()))?;
    let ids: Vec<String> = q
        .ids
        .unwrap_or_default()
        .split(',')
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect();
    let games = s.svc.summaries(ids).await?;
    ok_json(GameList { games })
}

#[utoipa::path(
    get,
    path = "/api/games/{id}",
    summary = "the full state with every event",
    params(("id" = String, Path, description = "game ID", pattern = "^[A-Za-z0-9]{1,32}$")),
    responses(
        (status = 200, description = "state", body = GameState),
        (status = 404, description = "no such game", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed; nothing was changed", body = ErrorBody),
    )
)]
async fn game(State(s): State<AppState>, Path(id): Path<String>, h: HeaderMap) -> ApiResult {
    let caller = online::Caller::of(&s, &h, false).await?;
    ok_json(s.svc.state_as(&id, caller.player_id()).await?)
}

/// The body of a throw (and of starting a series' next game).
#[derive(Deserialize, Default, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
struct ThrowBody {
    /// The game's event count the request was made at (`seq` of the state); required, so
    /// that a request made on an old state is refused (409).
    #[schema(value_type = u32, required = true)]
    seq: Option<u32>,
}

/// The body of a move.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
struct MoveBody {
    /// A legal move string (`legal[].move`).
    #[serde(rename = "move")]
    #[schema(min_length = 1, max_length = 64)]
    mv: String,
    /// The game's event count the request was made at (`seq` of the state); required, so
    /// that a request made on an old state is refused (409).
    #[schema(value_type = u32, required = true)]
    seq: Option<u32>,
}

#[utoipa::path(
    post,
    path = "/api/games/{id}/throw",
    summary = "throw for the seat of the token (the server draws the throw from the game's seed)",
    params(("id" = String, Path, description = "game ID", pattern = "^[A-Za-z0-9]{1,32}$")),
    request_body = ThrowBody,
    security(("seat" = [])),
    responses(
        (status = 200, description = "the game state after the change, with the new events", body = GameState),
        (status = 400, description = "malformed request: bad JSON, an unknown field, a missing seq, a bad Authorization header", body = ErrorBody),
        (status = 401, description = "no seat token", body = ErrorBody),
        (status = 403, description = "the token is not a seat token of this game", body = ErrorBody),
        (status = 404, description = "no such game", body = ErrorBody),
        (status = 409, description = "not now: out of turn, wrong phase (throw/move), game over, or a stale seq", body = ErrorBody),
        (status = 413, description = "body over the size limit", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed; nothing was changed", body = ErrorBody),
        (status = 408, description = "the request body did not arrive in time", body = ErrorBody),
    )
)]
async fn throw(
    State(s): State<AppState>,
    Extension(ClientAddr(ip)): Extension<ClientAddr>,
    Path(id): Path<String>,
    h: HeaderMap,
    b: Result<Bytes, BytesRejection>,
) -> Response {
    let r = async {
        // Authority, then sequence, then content (see `seq_of`).
        let caller = online::Caller::of(&s, &h, true).await?;
        let tok = caller.who();
        let v = json_object(b);
        s.svc.check_change(&id, tok, seq_of(&v)).await?;
        let req: ThrowBody = fields(v?)?;
        ok_json(s.svc.throw(ip, &id, tok, req.seq).await?)
    }
    .await;
    r.unwrap_or_else(IntoResponse::into_response)
}

#[utoipa::path(
    post,
    path = "/api/games/{id}/move",
    summary = "play a move (a move string from legal); bot seats then play their turns",
    params(("id" = String, Path, description = "game ID", pattern = "^[A-Za-z0-9]{1,32}$")),
    request_body = MoveBody,
    security(("seat" = [])),
    responses(
        (status = 200, description = "the game state after the change, with the new events", body = GameState),
        (status = 400, description = "malformed request: bad JSON, an unknown field, a missing seq or move, a bad Authorization header", body = ErrorBody),
        (status = 401, description = "no seat token", body = ErrorBody),
        (status = 403, description = "the token is not a seat token of this game", body = ErrorBody),
        (status = 404, description = "no such game", body = ErrorBody),
        (status = 409, description = "not now: out of turn, wrong phase (throw/move), game over, or a stale seq", body = ErrorBody),
        (status = 413, description = "body over the size limit", body = ErrorBody),
        (status = 422, description = "illegal move, unknown rule set or option, bad mode or level", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed; nothing was changed", body = ErrorBody),
        (status = 408, description = "the request body did not arrive in time", body = ErrorBody),
    )
)]
async fn play(
    State(s): State<AppState>,
    Extension(ClientAddr(ip)): Extension<ClientAddr>,
    Path(id): Path<String>,
    h: HeaderMap,
    b: Result<Bytes, BytesRejection>,
) -> Response {
    let r = async {
        // Authority, then sequence, then content (see `seq_of`).
        let caller = online::Caller::of(&s, &h, true).await?;
        let tok = caller.who();
        let v = json_object(b);
        s.svc.check_change(&id, tok, seq_of(&v)).await?;
        let req: MoveBody = fields(v?)?;
        ok_json(s.svc.play(ip, &id, tok, &req.mv, req.seq).await?)
    }
    .await;
    r.unwrap_or_else(IntoResponse::into_response)
}

/// The body of a claim.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
struct ClaimBody {
    /// The claim code from the invite link (`#claim=CODE`).
    #[schema(min_length = 1, max_length = 128)]
    code: String,
}

#[utoipa::path(
    post,
    path = "/api/games/{id}/claim",
    summary = "claim an online game's invite with its one-time code: mints the invited seat's token for the caller only; a claimed invite cannot be claimed again",
    params(("id" = String, Path, description = "game ID", pattern = "^[A-Za-z0-9]{1,32}$")),
    request_body = ClaimBody,
    responses(
        (status = 200, description = "the claimed seat and its token", body = Claimed),
        (status = 400, description = "malformed request (no code)", body = ErrorBody),
        (status = 403, description = "the code is not this game's invite", body = ErrorBody),
        (status = 404, description = "no such game", body = ErrorBody),
        (status = 409, description = "the invite was already claimed, or revoked, or the game has none (hot-seat and bot games)", body = ErrorBody),
        (status = 408, description = "the request body did not arrive in time", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed; nothing was changed", body = ErrorBody),
        (status = 413, description = "body over the size limit", body = ErrorBody),
    )
)]
async fn claim(
    State(s): State<AppState>,
    Path(id): Path<String>,
    h: HeaderMap,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let req: ClaimBody = body(b)?;
    let caller = online::Caller::of(&s, &h, true).await.ok();
    let player = caller.as_ref().and_then(|c| c.player_id());
    ok_json(s.svc.claim_as(&id, &req.code, player).await?)
}

#[utoipa::path(
    post,
    path = "/api/games/{id}/invite",
    summary = "a new invite link for the unclaimed seat of an online game (the old code stops working), for the creator",
    params(("id" = String, Path, description = "game ID", pattern = "^[A-Za-z0-9]{1,32}$")),
    security(("seat" = [])),
    responses(
        (status = 200, description = "the new invite", body = InviteLink),
        (status = 400, description = "bad Authorization header", body = ErrorBody),
        (status = 401, description = "no seat token", body = ErrorBody),
        (status = 403, description = "the token is not a seat token of this game", body = ErrorBody),
        (status = 404, description = "no such game", body = ErrorBody),
        (status = 409, description = "the invite has already been claimed, or the game has none (hot-seat and bot games)", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed; nothing was changed", body = ErrorBody),
    )
)]
async fn reinvite(State(s): State<AppState>, Path(id): Path<String>, h: HeaderMap) -> ApiResult {
    ok_json(s.svc.invite(&id, Who::token(token(&h)?), true).await?)
}

#[utoipa::path(
    delete,
    path = "/api/games/{id}/invite",
    summary = "revoke the unclaimed invite of an online game, for the creator",
    params(("id" = String, Path, description = "game ID", pattern = "^[A-Za-z0-9]{1,32}$")),
    security(("seat" = [])),
    responses(
        (status = 200, description = "revoked", body = InviteLink),
        (status = 400, description = "bad Authorization header", body = ErrorBody),
        (status = 401, description = "no seat token", body = ErrorBody),
        (status = 403, description = "the token is not a seat token of this game", body = ErrorBody),
        (status = 404, description = "no such game", body = ErrorBody),
        (status = 409, description = "the invite has already been claimed, or the game has none (hot-seat and bot games)", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed; nothing was changed", body = ErrorBody),
    )
)]
async fn revoke(State(s): State<AppState>, Path(id): Path<String>, h: HeaderMap) -> ApiResult {
    ok_json(s.svc.invite(&id, Who::token(token(&h)?), false).await?)
}

#[utoipa::path(
    get,
    path = "/api/games/{id}/hint",
    summary = "the hint: the expert bot's move and every legal move's win chance, for the seat to move",
    params(("id" = String, Path, description = "game ID", pattern = "^[A-Za-z0-9]{1,32}$")),
    security(("seat" = [])),
    responses(
        (status = 200, description = "the hint", body = Hint),
        (status = 400, description = "malformed request (bad JSON, unknown field, bad Authorization header)", body = ErrorBody),
        (status = 401, description = "no seat token", body = ErrorBody),
        (status = 403, description = "the token is not a seat token of this game", body = ErrorBody),
        (status = 404, description = "no such game", body = ErrorBody),
        (status = 409, description = "not now: out of turn, wrong phase (throw/move), game over, or a stale seq", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed; nothing was changed", body = ErrorBody),
    )
)]
async fn hint(
    State(s): State<AppState>,
    Extension(ClientAddr(ip)): Extension<ClientAddr>,
    Path(id): Path<String>,
    h: HeaderMap,
) -> ApiResult {
    let caller = online::Caller::of(&s, &h, false).await?;
    ok_json(s.svc.hint(ip, &id, caller.who()).await?)
}

#[utoipa::path(
    get,
    path = "/api/games/{id}/record",
    summary = "the game record (senet-record/1, docs/notation.md); seed included once over (never for an uploaded offline game, whose throws the browser drew)",
    params(("id" = String, Path, description = "game ID", pattern = "^[A-Za-z0-9]{1,32}$")),
    responses(
        (status = 200, description = "record JSON, as an attachment"),
        (status = 404, description = "no such game", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed; nothing was changed", body = ErrorBody),
    )
)]
async fn record(State(s): State<AppState>, Path(id): Path<String>) -> ApiResult {
    let text = s.svc.record(&id).await?;
    Ok(json_attachment(&format!("senet-{id}.json"), text))
}

#[utoipa::path(
    post,
    path = "/api/games/{id}/next",
    summary = "start the next game of the series this game belongs to, for the seat of the token (either seat; the second request gets the game the first one created). The game must be over and the series not",
    params(("id" = String, Path, description = "game ID", pattern = "^[A-Za-z0-9]{1,32}$")),
    request_body = ThrowBody,
    security(("seat" = [])),
    responses(
        (status = 201, description = "the next game: its id, the caller's player number in it (seat), the series id and the game's state", body = NextGame),
        (status = 400, description = "malformed request (bad Authorization header)", body = ErrorBody),
        (status = 401, description = "no seat token", body = ErrorBody),
        (status = 403, description = "the token is not a seat token of this game", body = ErrorBody),
        (status = 404, description = "no such game", body = ErrorBody),
        (status = 409, description = "the game is not over yet, or the series is over", body = ErrorBody),
        (status = 422, description = "the game is not part of a series", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 408, description = "the request body did not arrive in time", body = ErrorBody),
        (status = 500, description = "the server failed; nothing was changed", body = ErrorBody),
        (status = 413, description = "body over the size limit", body = ErrorBody),
    )
)]
async fn next(
    State(s): State<AppState>,
    Extension(ClientAddr(ip)): Extension<ClientAddr>,
    Path(id): Path<String>,
    h: HeaderMap,
    b: Result<Bytes, BytesRejection>,
) -> Response {
    let r = async {
        // Authority, then sequence, then content (see `seq_of`).
        let caller = online::Caller::of(&s, &h, true).await?;
        let tok = caller.who();
        let v = json_object(b);
        s.svc.check_change(&id, tok, seq_of(&v)).await?;
        let req: ThrowBody = fields(v?)?;
        let v = s.svc.next(ip, &id, tok, req.seq).await?;
        Ok::<Response, Failure>((StatusCode::CREATED, axum::Json(v)).into_response())
    }
    .await;
    r.unwrap_or_else(IntoResponse::into_response)
}

#[utoipa::path(
    get,
    path = "/api/series/{id}",
    summary = "a series: settings, seats, every game (id, first seat, winner seat, points, running score) and the standing",
    params(("id" = String, Path, description = "series ID", pattern = "^[A-Za-z0-9]{1,32}$")),
    responses(
        (status = 200, description = "the series", body = Series),
        (status = 404, description = "no such series", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed; nothing was changed", body = ErrorBody),
    )
)]
async fn series(State(s): State<AppState>, Path(id): Path<String>) -> ApiResult {
    ok_json(s.svc.series(&id).await?)
}

#[utoipa::path(
    get,
    path = "/api/series/{id}/record",
    summary = "the series record (senet-series/1, docs/notation.md) with every game's record; senet replay checks it",
    params(("id" = String, Path, description = "series ID", pattern = "^[A-Za-z0-9]{1,32}$")),
    responses(
        (status = 200, description = "series record JSON, as an attachment"),
        (status = 404, description = "no such series", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed; nothing was changed", body = ErrorBody),
    )
)]
async fn series_record(State(s): State<AppState>, Path(id): Path<String>) -> ApiResult {
    let text = s.svc.series_record(&id).await?;
    Ok(json_attachment(&format!("senet-series-{id}.json"), text))
}

/// A JSON document offered for download as `file`.
fn json_attachment(file: &str, text: String) -> Response {
    let name = format!("attachment; filename=\"{file}\"");
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            ),
            (
                header::CONTENT_DISPOSITION,
                HeaderValue::from_str(&name).unwrap_or(HeaderValue::from_static("attachment")),
            ),
        ],
        text,
    )
        .into_response()
}

#[derive(Deserialize)]
struct ReviewQuery {
    at: Option<String>,
}

#[utoipa::path(
    get,
    path = "/api/games/{id}/review",
    summary = "the board after the first `at` events",
    params(("id" = String, Path, description = "game ID", pattern = "^[A-Za-z0-9]{1,32}$"), ("at" = Option<usize>, Query, minimum = 0)),
    responses(
        (status = 200, description = "the board, the last event and the legal moves", body = Review),
        (status = 400, description = "malformed request (bad JSON, unknown field, bad Authorization header)", body = ErrorBody),
        (status = 404, description = "no such game", body = ErrorBody),
        (status = 422, description = "illegal move, unknown rule set or option, bad mode or level", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed; nothing was changed", body = ErrorBody),
    )
)]
async fn review(
    State(s): State<AppState>,
    Path(id): Path<String>,
    q: Result<Query<ReviewQuery>, QueryRejection>,
) -> ApiResult {
    let Query(q) = q.map_err(|e| Failure::BadRequest(e.body_text()))?;
    let at = match q.at {
        None => None,
        Some(a) => Some(a.parse::<usize>().map_err(|_| {
            Failure::BadRequest(format!(
                "\"at\" must be a whole number of events from 0, not {a:?}"
            ))
        })?),
    };
    ok_json(s.svc.review(&id, at).await?)
}

#[utoipa::path(
    get,
    path = "/api/games/{id}/analysis",
    summary = "the analysis of a finished game (every decision's win chance and loss, every throw's luck, a summary per player); computed once in the background, 202 with progress until then",
    params(("id" = String, Path, description = "game ID", pattern = "^[A-Za-z0-9]{1,32}$")),
    responses(
        (status = 200, description = "done", body = AnalysisDone),
        (status = 202, description = "running: events analysed so far of the total (0 while queued)", body = AnalysisRunning),
        (status = 404, description = "no such game", body = ErrorBody),
        (status = 409, description = "the game is not over", body = ErrorBody),
        (status = 422, description = "the game is too long to analyse here (more than 4,000 events)", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After), or this client already has two analyses waiting or running", body = ErrorBody),
        (status = 500, description = "the analysis failed", body = ErrorBody),
    )
)]
/// The analysis of a finished game: 200 once done, 202 with progress while it runs.
async fn analysis(
    State(s): State<AppState>,
    Extension(ClientAddr(ip)): Extension<ClientAddr>,
    Path(id): Path<String>,
) -> ApiResult {
    Ok(match s.svc.analysis(ip, &id).await? {
        AnalysisReply::Done(d) => (StatusCode::OK, axum::Json(d)).into_response(),
        AnalysisReply::Running(r) => (StatusCode::ACCEPTED, axum::Json(r)).into_response(),
    })
}

#[utoipa::path(
    post,
    path = "/api/value",
    summary = "values any position without a game: every legal move's win chance, or awaiting a throw every throw's value and luck; searched within the expert level's node budget",
    request_body = ValueRequest,
    responses(
        (status = 200, description = "the value", body = PositionValue),
        (status = 400, description = "malformed request (bad JSON, unknown field, no position)", body = ErrorBody),
        (status = 413, description = "the body is too large", body = ErrorBody),
        (status = 422, description = "a bad position or throw, a throw given for a position that holds one, or too deep a depth", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 503, description = "the server's searches stayed busy for 5 s (bots' moves in games come first; Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed; nothing was changed", body = ErrorBody),
        (status = 408, description = "the request body did not arrive in time", body = ErrorBody),
    )
)]
/// Values any position without a game (every move's win chance, every throw's luck).
async fn value(
    State(s): State<AppState>,
    Extension(ClientAddr(ip)): Extension<ClientAddr>,
    b: Result<Bytes, BytesRejection>,
) -> Response {
    let req: ValueRequest = match body(b) {
        Ok(r) => r,
        Err(f) => return f.into_response(),
    };
    match s.svc.value(ip, req).await {
        Ok(v) => axum::Json(v).into_response(),
        Err(f) => f.into_response(),
    }
}

#[utoipa::path(
    get,
    path = "/api/games/{id}/throws",
    summary = "finished games: the seed, its hash, and every throw with the outcomes and weights it was drawn from",
    description = "Throw i (from 0) is the outcome at floor(r * total / 2^32) along the cumulative weights, r = the first 4 bytes (big-endian) of SHA-256(\"senet-throw:SEED:i\"); seed_hash = SHA-256(\"senet-seed:SEED\").",
    params(("id" = String, Path, description = "game ID", pattern = "^[A-Za-z0-9]{1,32}$")),
    responses(
        (status = 200, description = "the seed, its hash and every throw with its outcomes", body = Throws),
        (status = 404, description = "no such game", body = ErrorBody),
        (status = 409, description = "the game is not over yet, or its throws were drawn by a browser (an uploaded offline game, `page_throws`): there is no seed to check them by", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed; nothing was changed", body = ErrorBody),
    )
)]
async fn throws(State(s): State<AppState>, Path(id): Path<String>) -> ApiResult {
    ok_json(s.svc.throws(&id).await?)
}

#[derive(Deserialize)]
struct WsQuery {
    token: Option<String>,
}

#[utoipa::path(
    get,
    path = "/api/games/{id}/ws",
    summary = "WebSocket of live changes",
    description = "Messages are JSON text (schema LiveMessage): {type: state, ...State with every event} first, then {type: update, ...State with events from events_from} (also for bot replies and for changes made through other servers on the same database), {type: presence, watchers} (seats at once; spectators at most every 300 ms), {type: invite, open, claimed} when the invite is claimed, revoked or renewed, and {type: resync} when the reader fell behind (fetch the state). Incoming messages are ignored. The server pings every 30 s (`Limits::ws_ping`) and closes a socket that has sent nothing, not even the pong, for twice that. Refusals before the upgrade are JSON errors like every other endpoint's.",
    params(("id" = String, Path, description = "game ID", pattern = "^[A-Za-z0-9]{1,32}$"), ("token" = Option<String>, Query, description = "a seat token marks the seat present; without it the connection is a spectator's")),
    responses(
        (status = 101, description = "switching protocols"),
        (status = 403, description = "the token is not a seat token of this game", body = ErrorBody),
        (status = 404, description = "no such game", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After), or too many live connections for the game (200) or for this address (20)", body = ErrorBody),
        (status = 503, description = "the server has its most WebSockets open (`--max-websockets`; Retry-After)", body = ErrorBody),
        (status = 400, description = "malformed request (not a WebSocket handshake, a bad query)", body = ErrorBody),
        (status = 426, description = "the connection cannot be upgraded", body = ErrorBody),
        (status = 500, description = "the server failed; nothing was changed", body = ErrorBody),
    )
)]
async fn ws(
    State(s): State<AppState>,
    Extension(ClientAddr(ip)): Extension<ClientAddr>,
    conn: Option<Extension<crate::http::ConnSlot>>,
    Path(id): Path<String>,
    h: HeaderMap,
    q: Result<Query<WsQuery>, QueryRejection>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> ApiResult {
    // Refusals before the upgrade are JSON errors like every other endpoint's.
    let upgrade = match upgrade {
        Ok(u) => u,
        Err(e) => return Ok(error(e.status(), e.body_text())),
    };
    let Query(q) = q.map_err(|e| Failure::BadRequest(e.body_text()))?;
    let place = match WsPlace::for_app(&s) {
        Ok(p) => p,
        Err(full) => return Ok(*full),
    };
    let caller = online::Caller::of(&s, &h, false).await?;
    let who = Who {
        token: q.token.as_deref(),
        player: caller.player_id(),
    };
    let sub = s.svc.subscribe(ip, &id, who).await?;
    let svc = s.svc.clone();
    let ping = s.ws_ping;
    Ok(upgrade.max_message_size(4096).on_upgrade(move |socket| {
        // The socket keeps its connection's place under the connection caps, and is no
        // longer an idle connection that may be closed to make room.
        let conn = conn.map(|Extension(c)| c);
        if let Some(c) = &conn {
            c.upgraded();
        }
        async move {
            live(socket, sub, svc, ping).await;
            drop((place, conn));
        }
    }))
}

/// Sends the state, then every change, until either side closes or the client stops
/// answering: it is pinged every `ping`, and closed after twice that without a message.
async fn live(mut socket: WebSocket, mut sub: Subscription, svc: Arc<Service>, ping: Duration) {
    use tokio::sync::broadcast::error::RecvError;
    let stop = stopped(svc.stopping());
    tokio::pin!(stop);
    let mut heard = tokio::time::Instant::now();
    let mut tick = tokio::time::interval_at(heard + ping, ping);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    if socket
        .send(Message::Text(sub.first.clone().into()))
        .await
        .is_ok()
    {
        loop {
            tokio::select! {
                // Stopping first: when the server stops, the game's channel may close in the
                // same instant, and the page must still hear "server restarting".
                biased;
                () = &mut stop => {
                    restarting(&mut socket).await;
                    break;
                }
                _ = tick.tick() => {
                    if heard.elapsed() >= 2 * ping {
                        let _ = socket.send(Message::Close(None)).await;
                        break;
                    }
                    if socket.send(Message::Ping(Vec::new().into())).await.is_err() {
                        break;
                    }
                }
                m = sub.rx.recv() => {
                    let text: String = match m {
                        Ok(t) => t.to_string(),
                        // Too slow a reader missed messages: tell it to fetch the state.
                        Err(RecvError::Lagged(_)) => crate::service::RESYNC.to_string(),
                        // The game left the cache while watched (it could not be loaded
                        // again): say so, and the page connects again.
                        Err(RecvError::Closed) => {
                            let _ = socket
                                .send(Message::Close(Some(axum::extract::ws::CloseFrame {
                                    code: CLOSE_GONE,
                                    reason: "the game was unloaded; connect again".into(),
                                })))
                                .await;
                            break;
                        }
                    };
                    if socket.send(Message::Text(text.into())).await.is_err() {
                        break;
                    }
                }
                m = socket.recv() => match m {
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                    // Pongs (and pings, answered by the library) show the client is there;
                    // other messages are ignored.
                    Some(Ok(_)) => heard = tokio::time::Instant::now(),
                },
            }
        }
    }
    svc.unsubscribe(&sub).await;
}

/// The close code of a WebSocket closed because the server is stopping: 1012, "Service
/// Restart" (RFC 6455's registry); the page reconnects at once.
pub const CLOSE_RESTARTING: u16 = 1012;

/// The close code of a game's WebSocket whose game left the server's memory while watched:
/// 1001, "Going Away"; the page connects again, which loads the game.
pub const CLOSE_GONE: u16 = 1001;

/// Completes once the server is stopping (see [`Service::begin_shutdown`]).
pub(crate) async fn stopped(mut rx: tokio::sync::watch::Receiver<bool>) {
    if rx.wait_for(|s| *s).await.is_err() {
        // The service is gone: nothing will ever say stop.
        std::future::pending::<()>().await;
    }
}

/// Closes a live connection because the server is stopping (code 1012, "server
/// restarting").
pub(crate) async fn restarting(socket: &mut WebSocket) {
    let _ = socket
        .send(Message::Close(Some(axum::extract::ws::CloseFrame {
            code: CLOSE_RESTARTING,
            reason: "server restarting".into(),
        })))
        .await;
}

#[utoipa::path(
    get,
    path = "/healthz",
    summary = "health check for a load balancer or a supervisor: 200 when the database answers, 503 when it does not",
    responses(
        (status = 200, description = "the server and its database answer", body = Health),
        (status = 503, description = "the database does not answer (or the server is stopping)", body = Health),
    )
)]
async fn healthz(State(s): State<AppState>) -> Response {
    let stopping = *s.svc.stopping().borrow();
    let db = s.svc.healthy(Duration::from_secs(2)).await;
    let ok = db.is_ok() && !stopping;
    let body = Health {
        status: if ok { "ok" } else { "unavailable" }.into(),
        database: match &db {
            Ok(()) => "ok".into(),
            Err(e) => e.clone(),
        },
        stopping,
    };
    let mut r = axum::Json(body).into_response();
    if !ok {
        *r.status_mut() = StatusCode::SERVICE_UNAVAILABLE;
        r.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("2"));
    }
    r
}

#[utoipa::path(
    get,
    path = "/metrics",
    summary = "the server's metrics in Prometheus's text format (requests by route and status, latency, moves appended, WebSockets, searches, database errors, games in memory); only for loopback clients and --metrics-from addresses",
    responses(
        (status = 200, description = "Prometheus text exposition format 0.0.4", content_type = "text/plain"),
        (status = 403, description = "not a client allowed to read the metrics", body = ErrorBody),
    )
)]
async fn metrics(
    State(s): State<AppState>,
    Extension(ClientAddr(ip)): Extension<ClientAddr>,
) -> Response {
    if !(ip.is_loopback() || s.metrics_from.contains(&ip)) {
        return error(
            StatusCode::FORBIDDEN,
            format!(
                "the metrics are for the operator: {ip} may not read them (serve --metrics-from IP allows an address besides loopback)"
            ),
        );
    }
    let lobby = s.lobby_sockets.load(Ordering::Acquire);
    let all = s.websockets.load(Ordering::Acquire);
    let m = s.svc.metrics();
    m.websockets.with_label_values(&["lobby"]).set(lobby as i64);
    m.websockets
        .with_label_values(&["game"])
        .set(all.saturating_sub(lobby) as i64);
    (
        [(header::CONTENT_TYPE, crate::metrics::CONTENT_TYPE)],
        m.render(),
    )
        .into_response()
}

/// The route a request matched (a response extension set after routing), for the metrics.
#[derive(Clone)]
struct RouteTag(Arc<str>);

async fn tag_route(path: Option<axum::extract::MatchedPath>, req: Request, next: Next) -> Response {
    let mut r = next.run(req).await;
    if let Some(p) = path {
        r.extensions_mut().insert(RouteTag(Arc::from(p.as_str())));
    }
    r
}

#[utoipa::path(
    get,
    path = "/api/openapi.json",
    summary = "this document",
    responses(
        (status = 200, description = "this OpenAPI 3.1 document (JSON), generated from the server's types"),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
    )
)]
async fn openapi() -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        openapi_document(),
    )
        .into_response()
}

async fn not_found(method: Method, uri: axum::http::Uri) -> Response {
    if uri.path().starts_with("/api/") {
        error(
            StatusCode::NOT_FOUND,
            format!("no endpoint {method} {}; see /api/openapi.json", uri.path()),
        )
    } else {
        (StatusCode::NOT_FOUND, "not found").into_response()
    }
}

async fn limit(State(s): State<AppState>, req: Request, next: Next) -> Response {
    let started = std::time::Instant::now();
    let method = req.method().clone();
    let r = limited(&s, req, next).await;
    let route = r
        .extensions()
        .get::<RouteTag>()
        .map_or_else(|| Arc::from("other"), |t| t.0.clone());
    // A method a client made up is counted as `other`: no label a client can multiply.
    let method = match method {
        Method::GET
        | Method::POST
        | Method::PATCH
        | Method::DELETE
        | Method::PUT
        | Method::HEAD
        | Method::OPTIONS => method.as_str(),
        _ => "other",
    };
    let m = s.svc.counters();
    m.requests
        .with_label_values(&[&*route, method, r.status().as_str()])
        .inc();
    m.latency
        .with_label_values(&[&*route])
        .observe(started.elapsed().as_secs_f64());
    r
}

async fn limited(s: &AppState, mut req: Request, next: Next) -> Response {
    let ip = client_of(&req, &s.limiter.trusted_proxies);
    req.extensions_mut().insert(ClientAddr(ip));
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    let https = peer.is_some_and(|p| s.limiter.trusted_proxies.contains(&p))
        && req
            .headers()
            .get("x-forwarded-proto")
            .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"https"));
    req.extensions_mut().insert(online::Https(https));
    if req.uri().path().starts_with("/api/") && !s.limiter.allow(ip) {
        return error(
            StatusCode::TOO_MANY_REQUESTS,
            "too many requests from this address; slow down",
        );
    }
    let mut r = next.run(req).await;
    let h = r.headers_mut();
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    if !h.contains_key(header::CACHE_CONTROL) {
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    r
}

/// The operator's routes outside `/api/` (issue 56), documented with the API.
pub const OPERATOR_ROUTES: &[(&str, &[&str])] = &[("/healthz", &["get"]), ("/metrics", &["get"])];

/// Declares the API's routes once: [`API_ROUTES`] (what the OpenAPI test compares with the
/// document) and the router's `/api/` routes are made from the same table.
macro_rules! api_routes {
    ($($path:literal => $($method:ident $handler:expr),+;)*) => {
        /// Every route under `/api/` with the methods it serves (lowercase).
        pub const API_ROUTES: &[(&str, &[&str])] = &[$(($path, &[$(stringify!($method)),+])),*];

        /// Adds the API's routes to `r`.
        fn api(r: Router<AppState>) -> Router<AppState> {
            r$(.route($path, MethodRouter::new()$(.$method($handler))+))*
        }
    };
}

api_routes! {
    "/api/openapi.json" => get openapi;
    "/api/rules" => get rules;
    "/api/rules/{id}" => get rules_page;
    "/api/games" => post create, get list;
    "/api/games/import" => post import.layer(DefaultBodyLimit::max(IMPORT_BODY_BYTES));
    "/api/games/{id}" => get game;
    "/api/games/{id}/throw" => post throw;
    "/api/games/{id}/move" => post play;
    "/api/games/{id}/hint" => get hint;
    "/api/games/{id}/claim" => post claim;
    "/api/games/{id}/invite" => post reinvite, delete revoke;
    "/api/games/{id}/record" => get record;
    "/api/games/{id}/review" => get review;
    "/api/games/{id}/throws" => get throws;
    "/api/games/{id}/analysis" => get analysis;
    "/api/value" => post value;
    "/api/games/{id}/ws" => get ws;
    "/api/games/{id}/next" => post next;
    "/api/series/{id}" => get series;
    "/api/series/{id}/record" => get series_record;
    "/api/me" => get online::me, post online::new_me, patch online::rename, delete online::delete_me;
    "/api/me/data" => get online::my_data;
    "/api/reports" => post online::report;
    "/api/account" => post online::account;
    "/api/login" => post online::login;
    "/api/logout" => post online::logout;
    "/api/password" => post online::password;
    "/api/seeks" => get online::seeks, post online::new_seek;
    "/api/seeks/{id}" => delete online::cancel_seek;
    "/api/seeks/{id}/accept" => post online::accept;
    "/api/pairing" => post online::pairing;
    "/api/live" => get online::live_games;
    "/api/lobby/ws" => get online::lobby_ws;
    "/api/games/{id}/resign" => post online::resign;
    "/api/games/{id}/abort" => post online::abort;
    "/api/games/{id}/claim-win" => post online::claim_win;
    "/api/games/{id}/rematch" => post online::rematch;
    "/api/players/{name}" => get online::player;
    "/api/leaderboard/{rules}" => get online::leaderboard;
    "/api/challenges" => post challenges::challenge, get challenges::list;
    "/api/challenges/{id}" => delete challenges::withdraw;
    "/api/challenges/{id}/accept" => post challenges::accept;
    "/api/challenges/{id}/decline" => post challenges::decline;
    "/api/puzzles/next" => get puzzles::next;
    "/api/puzzles/daily" => get puzzles::daily;
    "/api/puzzles/{id}" => get puzzles::puzzle;
    "/api/puzzles/{id}/solve" => post puzzles::solve;
    "/api/tournaments" => post tournaments::create, get tournaments::list;
    "/api/tournaments/{id}" => get tournaments::get;
    "/api/tournaments/{id}/join" => post tournaments::join;
    "/api/tournaments/{id}/leave" => post tournaments::leave;
    "/api/tournaments/{id}/start" => post tournaments::start;
}

/// The whole HTTP application: the API under `/api/`, the web app elsewhere.
pub fn router(svc: Arc<Service>, limits: Limits) -> Router {
    // Clocks, pairings and ratings are swept in the background (needs a runtime).
    if tokio::runtime::Handle::try_current().is_ok() {
        svc.start_sweeper();
    }
    svc.set_address_limits(limits.per_address.clone());
    let state = AppState {
        svc,
        limiter: Arc::new(RateLimiter::new(&limits)),
        websockets: Arc::new(AtomicUsize::new(0)),
        lobby_sockets: Arc::new(AtomicUsize::new(0)),
        max_websockets: limits.max_websockets.max(1),
        ws_ping: limits.ws_ping,
        metrics_from: Arc::new(limits.metrics_from.clone()),
    };
    let app = Router::new()
        .route("/", get(web::page))
        .route("/g/{id}", get(web::page))
        .route("/g/{id}/review", get(web::page))
        .route("/static/{file}", get(web::asset))
        .route("/s/{id}", get(web::page))
        .route("/rules/{id}", get(web::page))
        .route("/p/{name}", get(web::page))
        .route("/leaderboard/{rules}", get(web::page))
        .route("/l/{id}", get(web::page))
        .route("/puzzles", get(web::page))
        .route("/puzzles/{id}", get(web::page))
        .route("/tournaments", get(web::page))
        .route("/tournaments/{id}", get(web::page))
        .route("/sw.js", get(web::service_worker))
        .route("/manifest.webmanifest", get(web::manifest))
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics));
    api(app)
        .route_layer(middleware::from_fn(tag_route))
        .fallback(not_found)
        .layer(middleware::from_fn_with_state(state.clone(), limit))
        .layer(DefaultBodyLimit::max(limits.body_bytes))
        .layer(RequestBodyTimeoutLayer::new(limits.body_timeout))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            limits.request_timeout,
        ))
        .with_state(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each client address has its own bucket of `burst` requests, refilled at `per_second`;
    /// a limit of 0 lets everything through, and any positive rate (however small or large)
    /// makes a quota.
    #[test]
    fn the_rate_limiter_keeps_a_bucket_per_client_that_refills() {
        let l = RateLimiter::new(&Limits {
            per_second: 20.0,
            burst: 2,
            ..Limits::default()
        });
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "::1".parse().unwrap());
        assert!(l.allow(a) && l.allow(a));
        assert!(!l.allow(a), "the burst is spent");
        assert!(l.allow(b), "another client has its own bucket");
        std::thread::sleep(Duration::from_millis(60));
        assert!(l.allow(a), "one request's worth refilled after 50 ms");
        let off = RateLimiter::new(&Limits {
            per_second: 0.0,
            ..Limits::default()
        });
        assert!((0..1000).all(|_| off.allow(a)));
        for rate in [1e-300, 1e-6, 1e12, f64::MAX] {
            let l = RateLimiter::new(&Limits {
                per_second: rate,
                burst: 1,
                ..Limits::default()
            });
            assert!(l.allow(a), "rate {rate}: the first request passes");
        }
    }
}
