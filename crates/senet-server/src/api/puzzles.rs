//! The HTTP side of puzzles (issue 57, `docs/puzzles.md`): the next puzzle, the puzzle of the
//! day, a puzzle by ID, and an answer. A puzzle is read by anyone; an answer needs the
//! session (every visitor has one: `POST /api/me`), whose player's puzzle rating it moves.

use super::online::Caller;
use super::{body, ok_json, ApiResult, AppState};
use crate::service::Failure;
#[allow(unused_imports)] // named by the utoipa annotations
use crate::wire::{ErrorBody, PuzzleAnswer, PuzzleOut, PuzzleResult};
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct NextQuery {
    rules: Option<String>,
    theme: Option<String>,
}

#[utoipa::path(
    get,
    path = "/api/puzzles/next",
    summary = "the next puzzle for the session's player: one not tried yet, near their puzzle rating (without a session, near 1500), of the rule set and theme asked for (any when absent)",
    params(
        ("rules" = Option<String>, Query, description = "a rule set ID"),
        ("theme" = Option<String>, Query, description = "water, blockade, bear-off, swap or capture"),
    ),
    responses(
        (status = 200, description = "the puzzle (its moves' values come with the answer)", body = PuzzleOut),
        (status = 400, description = "malformed query (an unknown parameter)", body = ErrorBody),
        (status = 404, description = "no puzzle left to try of that rule set and theme", body = ErrorBody),
        (status = 422, description = "unknown rule set or theme", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn next(
    State(s): State<AppState>,
    h: HeaderMap,
    q: Result<Query<NextQuery>, QueryRejection>,
) -> ApiResult {
    let Query(q) = q.map_err(|e| Failure::BadRequest(e.body_text()))?;
    let c = Caller::of(&s, &h, false).await?;
    ok_json(
        s.svc
            .puzzle_next(
                c.player_id(),
                q.rules.filter(|r| !r.is_empty()),
                q.theme.filter(|t| !t.is_empty()),
            )
            .await?,
    )
}

#[utoipa::path(
    get,
    path = "/api/puzzles/daily",
    summary = "the puzzle of the day (UTC), the same for everyone",
    responses(
        (status = 200, description = "the puzzle", body = PuzzleOut),
        (status = 404, description = "no puzzle yet", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn daily(State(s): State<AppState>, h: HeaderMap) -> ApiResult {
    let c = Caller::of(&s, &h, false).await?;
    ok_json(s.svc.puzzle_daily(c.player_id()).await?)
}

#[utoipa::path(
    get,
    path = "/api/puzzles/{id}",
    summary = "a puzzle by ID",
    params(("id" = String, Path, description = "puzzle ID", pattern = "^[A-Za-z0-9]{1,32}$")),
    responses(
        (status = 200, description = "the puzzle", body = PuzzleOut),
        (status = 404, description = "no such puzzle", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn puzzle(
    State(s): State<AppState>,
    h: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult {
    let c = Caller::of(&s, &h, false).await?;
    ok_json(s.svc.puzzle(&id, c.player_id()).await?)
}

#[utoipa::path(
    post,
    path = "/api/puzzles/{id}/solve",
    summary = "answer a puzzle with a move: whether it was the best, every legal move's win chance (exact where the tables hold the position), the rule that decides it, and the ratings; only a player's first answer to a puzzle is rated",
    params(("id" = String, Path, description = "puzzle ID", pattern = "^[A-Za-z0-9]{1,32}$")),
    request_body = PuzzleAnswer,
    responses(
        (status = 200, description = "judged", body = PuzzleResult),
        (status = 400, description = "malformed request", body = ErrorBody),
        (status = 401, description = "no session: POST /api/me first", body = ErrorBody),
        (status = 403, description = "no or wrong X-CSRF-Token", body = ErrorBody),
        (status = 404, description = "no such puzzle", body = ErrorBody),
        (status = 408, description = "the request body did not arrive in time", body = ErrorBody),
        (status = 413, description = "body over the size limit", body = ErrorBody),
        (status = 422, description = "not a legal move of the puzzle", body = ErrorBody),
        (status = 429, description = "rate limit (Retry-After)", body = ErrorBody),
        (status = 500, description = "the server failed", body = ErrorBody),
    )
)]
pub(super) async fn solve(
    State(s): State<AppState>,
    h: HeaderMap,
    Path(id): Path<String>,
    b: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let c = Caller::of(&s, &h, true).await?;
    let (p, _) = c.player()?;
    let req: PuzzleAnswer = body(b)?;
    let r: PuzzleResult = s.svc.puzzle_solve(&p.id, &id, &req.mv).await?;
    ok_json(r)
}
