//! The HTTP side of challenges (issue 57): challenge a player by name, list, accept,
//! decline and withdraw. Every route needs the session (and a write its CSRF token).

use super::online::{created, Caller};
use super::{body, ok_json, ApiResult, AppState, ClientAddr};
#[allow(unused_imports)] // named by the utoipa annotations
use crate::wire::{ChallengeOut, ChallengeRequest, Challenges, Empty, ErrorBody, Paired};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Extension;

#[utoipa::path(
    post,
    path = "/api/challenges",
    summary = "challenge a player by name: a game (rule set, options, clock, rated or casual) that only they may accept; they see it in their lobby at once",
    request_body = ChallengeRequest,
    responses(
        (status = 201, description = "the challenge", body = ChallengeOut),
        (status = 400, description = "malformed request", body = ErrorBody),
        (status = 401, description = "no session", body = ErrorBody),
        (status = 403, description = "no or wrong X-CSRF-Token, or the player is banned or closed", body = ErrorBody),
        (status = 404, description = "no player of that name", body = ErrorBody),
        (status = 408, description = "the request body did not arrive in time", body = ErrorBody),
        (status = 409, description = "that player was challenged already or cannot be challenged now, or the challenger has 3 open seeks and challenges already", body = ErrorBody),
        (status = 413, description = "body over the size limit", body = ErrorBody),
        (status = 422, description = "oneself, unknown rule set or option, or a bad clock", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After), or too many seeks and challenges from this address", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn challenge(
    State(s): State<AppState>,
    Extension(ClientAddr(ip)): Extension<ClientAddr>,
    h: HeaderMap,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let c = Caller::of(&s, &h, true).await?;
    let (p, _) = c.player()?;
    let req: ChallengeRequest = body(b)?;
    Ok(created(s.svc.challenge(ip, p, &req).await?))
}

#[utoipa::path(
    get,
    path = "/api/challenges",
    summary = "the session's player's open challenges: to them and by them",
    responses(
        (status = 200, description = "the challenges", body = Challenges),
        (status = 401, description = "no session", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn list(State(s): State<AppState>, h: HeaderMap) -> ApiResult {
    let c = Caller::of(&s, &h, false).await?;
    let (p, _) = c.player()?;
    ok_json(s.svc.challenges(p).await?)
}

#[utoipa::path(
    post,
    path = "/api/challenges/{id}/accept",
    summary = "accept a challenge made to you: the game starts for both (seats drawn at random; the challenger's lobby goes to it)",
    params(("id" = String, Path, description = "challenge ID")),
    responses(
        (status = 201, description = "the game and your seat", body = Paired),
        (status = 401, description = "no session", body = ErrorBody),
        (status = 403, description = "no or wrong X-CSRF-Token, or the player is banned or closed", body = ErrorBody),
        (status = 404, description = "no open challenge of that ID to you", body = ErrorBody),
        (status = 409, description = "your own challenge, or taken a moment before", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn accept(
    State(s): State<AppState>,
    h: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult {
    let c = Caller::of(&s, &h, true).await?;
    let (p, _) = c.player()?;
    Ok(created(s.svc.accept_challenge(p, &id).await?))
}

#[utoipa::path(
    post,
    path = "/api/challenges/{id}/decline",
    summary = "decline a challenge made to you",
    params(("id" = String, Path, description = "challenge ID")),
    responses(
        (status = 200, description = "declined", body = Empty),
        (status = 401, description = "no session", body = ErrorBody),
        (status = 403, description = "no or wrong X-CSRF-Token", body = ErrorBody),
        (status = 404, description = "no open challenge of that ID to you", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn decline(
    State(s): State<AppState>,
    h: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult {
    let c = Caller::of(&s, &h, true).await?;
    let (p, _) = c.player()?;
    s.svc.decline_challenge(p, &id).await?;
    ok_json(Empty {})
}

#[utoipa::path(
    delete,
    path = "/api/challenges/{id}",
    summary = "withdraw a challenge you made",
    params(("id" = String, Path, description = "challenge ID")),
    responses(
        (status = 200, description = "withdrawn", body = Empty),
        (status = 401, description = "no session", body = ErrorBody),
        (status = 403, description = "no or wrong X-CSRF-Token", body = ErrorBody),
        (status = 404, description = "no open challenge of that ID by you", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn withdraw(
    State(s): State<AppState>,
    h: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult {
    let c = Caller::of(&s, &h, true).await?;
    let (p, _) = c.player()?;
    s.svc.withdraw_challenge(p, &id).await?;
    ok_json(Empty {})
}
