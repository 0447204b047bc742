//! The HTTP side of tournaments (issue 57, `docs/tournaments.md`): make one (signed in),
//! list them, read one, join, leave, start early. A tournament's live changes come over the
//! lobby's WebSocket (`LobbyMessage::Tournament`).

use super::online::{created, Caller};
use super::{body, ok_json, ApiResult, AppState};
#[allow(unused_imports)] // named by the utoipa annotations
use crate::wire::{ErrorBody, TournamentList, TournamentOut, TournamentRequest};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::HeaderMap;

#[utoipa::path(
    post,
    path = "/api/tournaments",
    summary = "make a tournament (signed in): an arena for a set time, or a round-robin or Swiss event among invited players, with its rule set, clock and start; its maker plays in it",
    request_body = TournamentRequest,
    responses(
        (status = 201, description = "the tournament", body = TournamentOut),
        (status = 400, description = "malformed request", body = ErrorBody),
        (status = 401, description = "no session", body = ErrorBody),
        (status = 403, description = "no or wrong X-CSRF-Token, no account (sign in first), or the player is banned or closed", body = ErrorBody),
        (status = 404, description = "an invited name is no player's", body = ErrorBody),
        (status = 408, description = "the request body did not arrive in time", body = ErrorBody),
        (status = 409, description = "the player has 3 tournaments not yet over", body = ErrorBody),
        (status = 413, description = "body over the size limit", body = ErrorBody),
        (status = 422, description = "unknown kind, rule set or option; a bad clock, length, number of rounds or invitations, start or name", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn create(
    State(s): State<AppState>,
    h: HeaderMap,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let c = Caller::of(&s, &h, true).await?;
    let (p, _) = c.player()?;
    let req: TournamentRequest = body(b)?;
    Ok(created(s.svc.create_tournament(p, &req).await?))
}

#[utoipa::path(
    get,
    path = "/api/tournaments",
    summary = "tournaments not over (soonest first) and the last 20 finished, with the session's player's invitations",
    responses(
        (status = 200, description = "the tournaments", body = TournamentList),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn list(State(s): State<AppState>, h: HeaderMap) -> ApiResult {
    let c = Caller::of(&s, &h, false).await?;
    ok_json(s.svc.tournaments(c.player().ok().map(|(p, _)| p)).await?)
}

#[utoipa::path(
    get,
    path = "/api/tournaments/{id}",
    summary = "a tournament: its settings and state, standings (points, tie-break, each game), invited players, games and byes",
    params(("id" = String, Path, description = "tournament ID")),
    responses(
        (status = 200, description = "the tournament", body = TournamentOut),
        (status = 404, description = "no tournament of that ID", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn get(State(s): State<AppState>, Path(id): Path<String>) -> ApiResult {
    ok_json(s.svc.tournament(&id).await?)
}

#[utoipa::path(
    post,
    path = "/api/tournaments/{id}/join",
    summary = "join an arena (or come back to it after leaving) until it ends, or accept an invitation to a round-robin or Swiss event before it starts",
    params(("id" = String, Path, description = "tournament ID")),
    responses(
        (status = 200, description = "the tournament", body = TournamentOut),
        (status = 401, description = "no session", body = ErrorBody),
        (status = 403, description = "no or wrong X-CSRF-Token, or the player is banned or closed", body = ErrorBody),
        (status = 404, description = "no tournament of that ID", body = ErrorBody),
        (status = 409, description = "over, started (round-robin, Swiss), or not invited", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn join(
    State(s): State<AppState>,
    h: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult {
    let c = Caller::of(&s, &h, true).await?;
    let (p, _) = c.player()?;
    ok_json(s.svc.join_tournament(p, &id).await?)
}

#[utoipa::path(
    post,
    path = "/api/tournaments/{id}/leave",
    summary = "leave a tournament: an arena's player is paused (their game under way is played out; join again to be paired again), an invitation is declined, a round-robin or Swiss player withdraws (their later opponents take a bye)",
    params(("id" = String, Path, description = "tournament ID")),
    responses(
        (status = 200, description = "the tournament", body = TournamentOut),
        (status = 401, description = "no session", body = ErrorBody),
        (status = 403, description = "no or wrong X-CSRF-Token", body = ErrorBody),
        (status = 404, description = "no tournament of that ID, or the player is not in it", body = ErrorBody),
        (status = 409, description = "the creator of a round-robin or Swiss event not yet started", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn leave(
    State(s): State<AppState>,
    h: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult {
    let c = Caller::of(&s, &h, true).await?;
    let (p, _) = c.player()?;
    ok_json(s.svc.leave_tournament(p, &id).await?)
}

#[utoipa::path(
    post,
    path = "/api/tournaments/{id}/start",
    summary = "the creator starts the tournament now rather than at its time (a round-robin or Swiss event with the players who accepted; cancelled with fewer than two)",
    params(("id" = String, Path, description = "tournament ID")),
    responses(
        (status = 200, description = "the tournament", body = TournamentOut),
        (status = 401, description = "no session", body = ErrorBody),
        (status = 403, description = "no or wrong X-CSRF-Token, or not the creator", body = ErrorBody),
        (status = 404, description = "no tournament of that ID", body = ErrorBody),
        (status = 409, description = "started already", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn start(
    State(s): State<AppState>,
    h: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult {
    let c = Caller::of(&s, &h, true).await?;
    let (p, _) = c.player()?;
    ok_json(s.svc.start_tournament(p, &id).await?)
}
