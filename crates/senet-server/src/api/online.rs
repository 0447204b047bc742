//! The HTTP side of online play (issue 33, `docs/online.md`): the session cookie and its
//! CSRF check, players and accounts, seeks, quick pairing, the lobby's WebSocket, game
//! endings, player pages and leaderboards.

use super::{body, error, ok_json, ApiResult, AppState, ClientAddr, WsPlace};
use crate::online::csrf_of;
use crate::players::PlayerRow;
use crate::service::{Failure, Who};
use crate::wire::{
    Credentials, DeleteMe, Deleted, Empty, ErrorBody, GameState, Leaderboard, LiveGame,
    LobbyMessage, Logout, Me, MyData, NameRequest, Paired, PasswordChange, PlayerPage,
    RematchReply, ReportMade, ReportRequest, SeekOut, SeekRequest, Waiting,
};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Extension;

/// The session cookie's name.
pub const COOKIE: &str = "senet_session";

/// Whether the request reached us over TLS through a trusted proxy (the cookie is then
/// `Secure`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Https(pub bool);

/// The session secret of the request's cookie, if any.
fn cookie_secret(h: &HeaderMap) -> Option<String> {
    h.get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == COOKIE)
        .map(|(_, v)| v.trim().to_string())
        .filter(|v| !v.is_empty() && v.len() <= 128)
}

/// Who made a request: a seat token (`Authorization: Bearer`), which carries no cookie
/// authority, or else the session of the cookie.
pub(super) struct Caller {
    token: Option<String>,
    player: Option<PlayerRow>,
    secret: Option<String>,
}

impl Caller {
    /// Reads the request's authority. A write (`write`) authorised by the cookie must carry
    /// the session's CSRF token in `X-CSRF-Token`.
    pub(super) async fn of(s: &AppState, h: &HeaderMap, write: bool) -> Result<Caller, Failure> {
        if let Some(t) = super::token(h)? {
            return Ok(Caller {
                token: Some(t.to_string()),
                player: None,
                secret: None,
            });
        }
        let Some(secret) = cookie_secret(h) else {
            return Ok(Caller {
                token: None,
                player: None,
                secret: None,
            });
        };
        let player = s.svc.session(&secret).await?;
        if player.is_some() && write {
            let sent = h.get("x-csrf-token").and_then(|v| v.to_str().ok());
            if sent != Some(csrf_of(&secret).as_str()) {
                return Err(Failure::Forbidden(
                    "this change is authorised by the session cookie and needs the header X-CSRF-Token with the session's csrf value (GET /api/me)"
                        .into(),
                ));
            }
        }
        Ok(Caller {
            token: None,
            player,
            secret: Some(secret),
        })
    }

    /// The request's authority over a game's seats.
    pub(super) fn who(&self) -> Who<'_> {
        Who {
            token: self.token.as_deref(),
            player: self.player.as_ref().map(|p| p.id.as_str()),
        }
    }

    /// The session's player, or 401.
    pub(super) fn player(&self) -> Result<(&PlayerRow, &str), Failure> {
        match (&self.player, &self.secret) {
            (Some(p), Some(s)) => Ok((p, s)),
            _ => Err(Failure::Unauthorized(
                "no session: POST /api/me first (it sets the session cookie)".into(),
            )),
        }
    }

    /// The session's player ID, if any.
    pub(super) fn player_id(&self) -> Option<&str> {
        self.player.as_ref().map(|p| p.id.as_str())
    }
}

/// Sets the session cookie to `secret` for a year, or (`None`) clears it.
fn set_cookie(r: &mut Response, secret: Option<&str>, https: bool) {
    let v = format!(
        "{COOKIE}={}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{}",
        secret.unwrap_or(""),
        if secret.is_some() { 31_536_000 } else { 0 },
        if https { "; Secure" } else { "" }
    );
    if let Ok(v) = HeaderValue::from_str(&v) {
        r.headers_mut().append(header::SET_COOKIE, v);
    }
}

/// A body holding a password: refused in words that never repeat what was sent.
fn secret_body<T: serde::de::DeserializeOwned>(
    b: Result<Bytes, BytesRejection>,
    shape: &str,
) -> Result<T, Failure> {
    match body::<T>(b) {
        Ok(v) => Ok(v),
        Err(Failure::BadRequest(_)) => Err(Failure::BadRequest(format!(
            "the body must be the JSON object {shape}"
        ))),
        Err(e) => Err(e),
    }
}

pub(super) fn created(v: impl serde::Serialize) -> Response {
    let mut r = ok_json(v).unwrap_or_else(IntoResponse::into_response);
    *r.status_mut() = StatusCode::CREATED;
    r
}

#[utoipa::path(
    get,
    path = "/api/me",
    summary = "the session's player (by the session cookie)",
    responses(
        (status = 200, description = "the player", body = Me),
        (status = 401, description = "no session: POST /api/me makes one", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn me(State(s): State<AppState>, h: HeaderMap) -> ApiResult {
    let c = Caller::of(&s, &h, false).await?;
    let (p, secret) = c.player()?;
    ok_json(s.svc.me(p, secret).await?)
}

#[utoipa::path(
    post,
    path = "/api/me",
    summary = "become a player: with no valid session, makes an anonymous player with a generated name and sets the session cookie (HttpOnly, SameSite=Lax)",
    responses(
        (status = 200, description = "the session already had a player", body = Me),
        (status = 201, description = "a new anonymous player; the cookie is set", body = Me),
        (status = 429, description = "rate limit (Retry-After), or too many new players from this address (20 an hour by default)", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn new_me(
    State(s): State<AppState>,
    Extension(Https(https)): Extension<Https>,
    Extension(ClientAddr(ip)): Extension<ClientAddr>,
    h: HeaderMap,
) -> ApiResult {
    if let Some(secret) = cookie_secret(&h) {
        if let Some(p) = s.svc.session(&secret).await? {
            return ok_json(s.svc.me(&p, &secret).await?);
        }
    }
    let (p, secret) = s.svc.new_player(ip).await?;
    let mut r = created(s.svc.me(&p, &secret).await?);
    set_cookie(&mut r, Some(&secret), https);
    Ok(r)
}

#[utoipa::path(
    patch,
    path = "/api/me",
    summary = "rename the session's player",
    request_body = NameRequest,
    responses(
        (status = 200, description = "renamed", body = Me),
        (status = 400, description = "malformed request", body = ErrorBody),
        (status = 408, description = "the request body did not arrive in time", body = ErrorBody),
        (status = 413, description = "body over the size limit", body = ErrorBody),
        (status = 401, description = "no session", body = ErrorBody),
        (status = 403, description = "no or wrong X-CSRF-Token", body = ErrorBody),
        (status = 409, description = "the name is taken (names are unique without regard to case)", body = ErrorBody),
        (status = 422, description = "not a valid name (3-20 ASCII letters, digits, _ and -, starting with a letter)", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn rename(
    State(s): State<AppState>,
    h: HeaderMap,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let c = Caller::of(&s, &h, true).await?;
    let (p, secret) = c.player()?;
    let req: NameRequest = body(b)?;
    s.svc.rename(p, &req.name).await?;
    let p = s.svc.session(secret).await?.unwrap_or_else(|| p.clone());
    ok_json(s.svc.me(&p, secret).await?)
}

#[utoipa::path(
    post,
    path = "/api/account",
    summary = "make the session's player an account with a name and a password (Argon2id), to sign in on other browsers",
    request_body = Credentials,
    responses(
        (status = 200, description = "the account", body = Me),
        (status = 400, description = "malformed request", body = ErrorBody),
        (status = 408, description = "the request body did not arrive in time", body = ErrorBody),
        (status = 413, description = "body over the size limit", body = ErrorBody),
        (status = 401, description = "no session", body = ErrorBody),
        (status = 403, description = "no or wrong X-CSRF-Token", body = ErrorBody),
        (status = 409, description = "the name is taken, or the player has an account already", body = ErrorBody),
        (status = 422, description = "not a valid name, or a password not 8-128 characters", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After), or too many accounts made from this address (5 an hour by default)", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn account(
    State(s): State<AppState>,
    Extension(ClientAddr(ip)): Extension<ClientAddr>,
    h: HeaderMap,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let c = Caller::of(&s, &h, true).await?;
    let (p, secret) = c.player()?;
    let req: Credentials = secret_body(b, r#"{"name": TEXT, "password": TEXT}"#)?;
    s.svc.make_account(ip, p, &req.name, &req.password).await?;
    let p = s.svc.session(secret).await?.unwrap_or_else(|| p.clone());
    ok_json(s.svc.me(&p, secret).await?)
}

#[utoipa::path(
    post,
    path = "/api/login",
    summary = "sign in to an account: a new session (cookie) on this browser",
    request_body = Credentials,
    responses(
        (status = 200, description = "signed in; the cookie is set", body = Me),
        (status = 400, description = "malformed request", body = ErrorBody),
        (status = 408, description = "the request body did not arrive in time", body = ErrorBody),
        (status = 413, description = "body over the size limit", body = ErrorBody),
        (status = 401, description = "wrong name or password (the same answer for both)", body = ErrorBody),
        (status = 429, description = "too many sign-in attempts for this name or from this address, or the rate limit", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn login(
    State(s): State<AppState>,
    Extension(ClientAddr(ip)): Extension<ClientAddr>,
    Extension(Https(https)): Extension<Https>,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let req: Credentials = secret_body(b, r#"{"name": TEXT, "password": TEXT}"#)?;
    let (p, secret) = s.svc.login(ip, &req.name, &req.password).await?;
    let mut r = ok_json(s.svc.me(&p, &secret).await?)?;
    set_cookie(&mut r, Some(&secret), https);
    Ok(r)
}

#[utoipa::path(
    post,
    path = "/api/logout",
    summary = "sign out: this session, or (everywhere) every session of the player",
    request_body = Logout,
    responses(
        (status = 200, description = "signed out; the cookie is cleared", body = Empty),
        (status = 400, description = "malformed request", body = ErrorBody),
        (status = 408, description = "the request body did not arrive in time", body = ErrorBody),
        (status = 413, description = "body over the size limit", body = ErrorBody),
        (status = 401, description = "no session", body = ErrorBody),
        (status = 403, description = "no or wrong X-CSRF-Token", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn logout(
    State(s): State<AppState>,
    Extension(Https(https)): Extension<Https>,
    h: HeaderMap,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let c = Caller::of(&s, &h, true).await?;
    let (p, secret) = c.player()?;
    let req: Logout = body(b)?;
    s.svc.logout(p, secret, req.everywhere).await?;
    let mut r = ok_json(Empty {})?;
    set_cookie(&mut r, None, https);
    Ok(r)
}

#[utoipa::path(
    delete,
    path = "/api/me",
    summary = "delete the session's player: the name is replaced (deleted-...), the password, sessions and open seeks go; the games stay, so the other players' records and ratings do; an account must give its password",
    request_body = DeleteMe,
    responses(
        (status = 200, description = "deleted; the cookie is cleared", body = Deleted),
        (status = 400, description = "malformed request", body = ErrorBody),
        (status = 408, description = "the request body did not arrive in time", body = ErrorBody),
        (status = 413, description = "body over the size limit", body = ErrorBody),
        (status = 401, description = "no session, or the account's password is missing or wrong", body = ErrorBody),
        (status = 403, description = "no or wrong X-CSRF-Token", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn delete_me(
    State(s): State<AppState>,
    Extension(Https(https)): Extension<Https>,
    h: HeaderMap,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let c = Caller::of(&s, &h, true).await?;
    let (p, _) = c.player()?;
    let req: DeleteMe = secret_body(b, r#"{"password": TEXT} or nothing"#)?;
    let name = s.svc.delete_me(p, req.password.as_deref()).await?;
    let mut r = ok_json(Deleted { name })?;
    set_cookie(&mut r, None, https);
    Ok(r)
}

#[utoipa::path(
    get,
    path = "/api/me/data",
    summary = "download everything stored about the session's player (a JSON file): the player, ratings with history, every game, sessions, reports filed",
    responses(
        (status = 200, description = "the data (Content-Disposition: attachment)", body = MyData),
        (status = 401, description = "no session", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn my_data(State(s): State<AppState>, h: HeaderMap) -> ApiResult {
    let c = Caller::of(&s, &h, false).await?;
    let (p, _) = c.player()?;
    let data = s.svc.my_data(p).await?;
    let mut r = ok_json(data)?;
    let file = format!("attachment; filename=\"senet-{}.json\"", p.name);
    if let Ok(v) = HeaderValue::from_str(&file) {
        r.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(r)
}

#[utoipa::path(
    post,
    path = "/api/reports",
    summary = "report a player to the site's operator (what happened, maybe in which game); at most 10 reports a day",
    request_body = ReportRequest,
    responses(
        (status = 201, description = "filed", body = ReportMade),
        (status = 400, description = "malformed request", body = ErrorBody),
        (status = 408, description = "the request body did not arrive in time", body = ErrorBody),
        (status = 413, description = "body over the size limit", body = ErrorBody),
        (status = 401, description = "no session", body = ErrorBody),
        (status = 403, description = "no or wrong X-CSRF-Token", body = ErrorBody),
        (status = 404, description = "no such player", body = ErrorBody),
        (status = 422, description = "a reason not 3-500 characters, oneself, or a game the player did not play", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After), or 10 reports filed in the last day", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn report(
    State(s): State<AppState>,
    h: HeaderMap,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let c = Caller::of(&s, &h, true).await?;
    let (p, _) = c.player()?;
    let req: ReportRequest = body(b)?;
    Ok(created(s.svc.report(p, &req).await?))
}

#[utoipa::path(
    post,
    path = "/api/password",
    summary = "change the account's password; every other session ends",
    request_body = PasswordChange,
    responses(
        (status = 200, description = "changed", body = Empty),
        (status = 400, description = "malformed request", body = ErrorBody),
        (status = 408, description = "the request body did not arrive in time", body = ErrorBody),
        (status = 413, description = "body over the size limit", body = ErrorBody),
        (status = 401, description = "no session", body = ErrorBody),
        (status = 403, description = "the old password is wrong, or no or wrong X-CSRF-Token", body = ErrorBody),
        (status = 409, description = "the player has no account", body = ErrorBody),
        (status = 422, description = "a new password not 8-128 characters", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn password(
    State(s): State<AppState>,
    h: HeaderMap,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let c = Caller::of(&s, &h, true).await?;
    let (p, secret) = c.player()?;
    let req: PasswordChange = secret_body(b, r#"{"old": TEXT, "new": TEXT}"#)?;
    s.svc.change_password(p, secret, &req.old, &req.new).await?;
    ok_json(Empty {})
}

#[utoipa::path(
    get,
    path = "/api/seeks",
    summary = "the open seeks, oldest first",
    responses(
        (status = 200, description = "the open seeks", body = [SeekOut]),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn seeks(State(s): State<AppState>) -> ApiResult {
    ok_json(s.svc.seeks().await?)
}

#[utoipa::path(
    post,
    path = "/api/seeks",
    summary = "open a seek: a game anyone may accept from the lobby",
    request_body = SeekRequest,
    responses(
        (status = 201, description = "the seek", body = SeekOut),
        (status = 400, description = "malformed request", body = ErrorBody),
        (status = 408, description = "the request body did not arrive in time", body = ErrorBody),
        (status = 413, description = "body over the size limit", body = ErrorBody),
        (status = 401, description = "no session", body = ErrorBody),
        (status = 403, description = "no or wrong X-CSRF-Token, or the player is banned or closed", body = ErrorBody),
        (status = 409, description = "the player has 3 open seeks already", body = ErrorBody),
        (status = 422, description = "unknown rule set or option, or a bad clock", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After), too many seeks from this address (60 an hour by default), or its most open seeks at once (6)", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn new_seek(
    State(s): State<AppState>,
    Extension(ClientAddr(ip)): Extension<ClientAddr>,
    h: HeaderMap,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let c = Caller::of(&s, &h, true).await?;
    let (p, _) = c.player()?;
    let req: SeekRequest = body(b)?;
    let seek = s.svc.create_seek(ip, p, &req, false).await?;
    Ok(created(s.svc.seek_out(&seek).await?))
}

#[utoipa::path(
    delete,
    path = "/api/seeks/{id}",
    summary = "withdraw one's open seek (or stop waiting in quick pairing)",
    params(("id" = String, Path, description = "seek ID")),
    responses(
        (status = 200, description = "withdrawn", body = Empty),
        (status = 401, description = "no session", body = ErrorBody),
        (status = 403, description = "no or wrong X-CSRF-Token", body = ErrorBody),
        (status = 404, description = "no such open seek of the player", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn cancel_seek(
    State(s): State<AppState>,
    Path(id): Path<String>,
    h: HeaderMap,
) -> ApiResult {
    let c = Caller::of(&s, &h, true).await?;
    let (p, _) = c.player()?;
    s.svc.cancel_seek(p, &id).await?;
    ok_json(Empty {})
}

#[utoipa::path(
    post,
    path = "/api/seeks/{id}/accept",
    summary = "accept an open seek: the game starts for both players at once (seats drawn at random); a seek is taken once",
    params(("id" = String, Path, description = "seek ID")),
    responses(
        (status = 201, description = "the game and the caller's seat", body = Paired),
        (status = 401, description = "no session", body = ErrorBody),
        (status = 403, description = "no or wrong X-CSRF-Token, or the player is banned or closed", body = ErrorBody),
        (status = 409, description = "the seek is taken or withdrawn, or it is the caller's own", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn accept(
    State(s): State<AppState>,
    Path(id): Path<String>,
    h: HeaderMap,
) -> ApiResult {
    let c = Caller::of(&s, &h, true).await?;
    let (p, _) = c.player()?;
    Ok(created(s.svc.accept_seek(p, &id).await?))
}

#[utoipa::path(
    post,
    path = "/api/pairing",
    summary = "quick pairing: pairs at once with a player waiting for the same settings within the rating range (±100, widening by 50 every 5 s), or waits (the pairing is announced on the lobby's WebSocket)",
    request_body = SeekRequest,
    responses(
        (status = 200, description = "paired: the game and the caller's seat", body = Paired),
        (status = 202, description = "waiting, with this seek", body = Waiting),
        (status = 400, description = "malformed request", body = ErrorBody),
        (status = 408, description = "the request body did not arrive in time", body = ErrorBody),
        (status = 413, description = "body over the size limit", body = ErrorBody),
        (status = 401, description = "no session", body = ErrorBody),
        (status = 403, description = "no or wrong X-CSRF-Token, or the player is banned or closed", body = ErrorBody),
        (status = 409, description = "the player has 3 open seeks already", body = ErrorBody),
        (status = 422, description = "unknown rule set or option, or a bad clock", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After), too many seeks from this address (60 an hour by default), or its most open seeks at once (6)", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn pairing(
    State(s): State<AppState>,
    Extension(ClientAddr(ip)): Extension<ClientAddr>,
    h: HeaderMap,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let c = Caller::of(&s, &h, true).await?;
    let (p, _) = c.player()?;
    let req: SeekRequest = body(b)?;
    match s.svc.pairing(ip, p, &req).await? {
        Ok(paired) => ok_json(paired),
        Err(waiting) => {
            let mut r = ok_json(waiting)?;
            *r.status_mut() = StatusCode::ACCEPTED;
            Ok(r)
        }
    }
}

#[utoipa::path(
    get,
    path = "/api/live",
    summary = "games being played between players now, to watch",
    responses(
        (status = 200, description = "most recently changed first (at most 30)", body = [LiveGame]),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn live_games(State(s): State<AppState>) -> ApiResult {
    ok_json(s.svc.live_games().await?)
}

#[utoipa::path(
    get,
    path = "/api/lobby/ws",
    summary = "the lobby live (WebSocket): the open seeks and the games being played, on connecting and on every change, and each pairing (LobbyMessage)",
    responses(
        (status = 101, description = "switching to the WebSocket protocol; messages are LobbyMessage"),
        (status = 400, description = "not a WebSocket handshake", body = ErrorBody),
        (status = 426, description = "the connection cannot be upgraded", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 503, description = "the server has its most live connections open (Retry-After)", body = ErrorBody),
    )
)]
pub(super) async fn lobby_ws(
    State(s): State<AppState>,
    conn: Option<Extension<crate::http::ConnSlot>>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> ApiResult {
    let upgrade = match upgrade {
        Ok(u) => u,
        Err(e) => return Ok(error(e.status(), e.body_text())),
    };
    let place = match WsPlace::for_app(&s) {
        Ok(p) => p,
        Err(full) => return Ok(*full),
    };
    let (first, rx) = s.svc.lobby_subscribe().await;
    let ping = s.ws_ping;
    let stopping = s.svc.stopping();
    // Counted apart from the games' sockets for the metrics (never refused here: the cap is
    // `place`'s).
    let counted = WsPlace::take(&s.lobby_sockets, usize::MAX);
    Ok(upgrade.max_message_size(4096).on_upgrade(move |socket| {
        let conn = conn.map(|Extension(c)| c);
        if let Some(c) = &conn {
            c.upgraded();
        }
        async move {
            lobby_live(socket, first, rx, ping, stopping).await;
            drop((place, counted, conn));
        }
    }))
}

async fn lobby_live(
    mut socket: WebSocket,
    first: Vec<std::sync::Arc<str>>,
    mut rx: tokio::sync::broadcast::Receiver<std::sync::Arc<str>>,
    ping: std::time::Duration,
    stopping: tokio::sync::watch::Receiver<bool>,
) {
    use tokio::sync::broadcast::error::RecvError;
    let stop = super::stopped(stopping);
    tokio::pin!(stop);
    for m in first {
        if socket
            .send(Message::Text(m.to_string().into()))
            .await
            .is_err()
        {
            return;
        }
    }
    let mut heard = tokio::time::Instant::now();
    let mut tick = tokio::time::interval_at(heard + ping, ping);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            // Stopping first: the lobby's channel closes when the stopped server's service
            // is dropped, which may be the same instant.
            biased;
            () = &mut stop => {
                super::restarting(&mut socket).await;
                break;
            }
            _ = tick.tick() => {
                if heard.elapsed() >= 2 * ping
                    || socket.send(Message::Ping(Vec::new().into())).await.is_err()
                {
                    break;
                }
            }
            m = rx.recv() => {
                let text: String = match m {
                    Ok(t) => t.to_string(),
                    Err(RecvError::Lagged(_)) => continue,
                    // Only a stopped server's service drops the lobby's channel.
                    Err(RecvError::Closed) => {
                        super::restarting(&mut socket).await;
                        break;
                    }
                };
                if socket.send(Message::Text(text.into())).await.is_err() {
                    break;
                }
            }
            m = socket.recv() => match m {
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                Some(Ok(_)) => heard = tokio::time::Instant::now(),
            },
        }
    }
}

macro_rules! ending {
    ($name:ident, $path:literal, $summary:literal, $call:ident, $conflict:literal) => {
        #[utoipa::path(
            post,
            path = $path,
            summary = $summary,
            params(("id" = String, Path, description = "game ID", pattern = "^[A-Za-z0-9]{1,32}$")),
            security(("seat" = [])),
            responses(
                (status = 200, description = "the game state after it", body = GameState),
                (status = 400, description = "bad Authorization header", body = ErrorBody),
                (status = 401, description = "no seat token or session", body = ErrorBody),
                (status = 403, description = "not a player of this game, or no or wrong X-CSRF-Token", body = ErrorBody),
                (status = 404, description = "no such game", body = ErrorBody),
                (status = 409, description = $conflict, body = ErrorBody),
                (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
                (status = 500, description = "the server failed; nothing was changed", body = ErrorBody),
            )
        )]
        pub(super) async fn $name(
            State(s): State<AppState>,
            Path(id): Path<String>,
            h: HeaderMap,
        ) -> ApiResult {
            let c = Caller::of(&s, &h, true).await?;
            if c.who().token.is_none() && c.who().player.is_none() {
                return Err(Failure::Unauthorized(
                    "this request needs the seat's token (Authorization: Bearer TOKEN) or the session of a player of the game".into(),
                ));
            }
            ok_json(s.svc.$call(&id, c.who()).await?)
        }
    };
}

ending!(
    resign,
    "/api/games/{id}/resign",
    "resign: the other seat wins (rated games change the ratings)",
    resign,
    "the game is over"
);
ending!(
    abort,
    "/api/games/{id}/abort",
    "abort a game before both players have moved: no result, unrated",
    abort,
    "the game is over, or both players have moved"
);
ending!(
    claim_win,
    "/api/games/{id}/claim-win",
    "claim the win: the other seat has had no connection for 60 s in a live game",
    claim_win,
    "the game is over, the other player is connected or left less than 60 s ago, or the game has no live clock"
);

#[utoipa::path(
    post,
    path = "/api/games/{id}/rematch",
    summary = "offer a rematch of a finished game between players, or accept the other's offer: a new game with the same settings and the seats swapped",
    params(("id" = String, Path, description = "game ID", pattern = "^[A-Za-z0-9]{1,32}$")),
    responses(
        (status = 200, description = "the offer stands (game null), or the new game", body = RematchReply),
        (status = 401, description = "no session", body = ErrorBody),
        (status = 403, description = "not a player of this game, or no or wrong X-CSRF-Token", body = ErrorBody),
        (status = 404, description = "no such game", body = ErrorBody),
        (status = 409, description = "the game is still being played, or is not between players from the lobby", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn rematch(
    State(s): State<AppState>,
    Path(id): Path<String>,
    h: HeaderMap,
) -> ApiResult {
    let c = Caller::of(&s, &h, true).await?;
    ok_json(s.svc.rematch(&id, c.who()).await?)
}

#[utoipa::path(
    get,
    path = "/api/players/{name}",
    summary = "a player's page: ratings per rule set with their history, recent games",
    params(("name" = String, Path, description = "the player's name (any case)")),
    responses(
        (status = 200, description = "the player", body = PlayerPage),
        (status = 404, description = "no such player", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn player(State(s): State<AppState>, Path(name): Path<String>) -> ApiResult {
    ok_json(s.svc.player_page(&name).await?)
}

#[utoipa::path(
    get,
    path = "/api/leaderboard/{rules}",
    summary = "the players with a settled rating (deviation at most 110) in a rule set, best first",
    params(("rules" = String, Path, description = "rule set ID")),
    responses(
        (status = 200, description = "at most 100 players", body = Leaderboard),
        (status = 404, description = "no such rule set", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn leaderboard(State(s): State<AppState>, Path(rules): Path<String>) -> ApiResult {
    ok_json(s.svc.leaderboard(&rules).await?)
}

/// For the document: the lobby's messages.
#[allow(dead_code)]
fn _schemas(_: LobbyMessage) {}
