//! # senet-server
//!
//! `senet serve`: the browser game on an embedded SQLite database, with online play between
//! two browsers (seat tokens, invite links), live updates over WebSocket, spectators,
//! review, and server-side throws committed to by a published seed hash.
//!
//! - [`api`]: the HTTP layer (routes, errors, limits, WebSocket); knows nothing of the rules.
//! - [`http`]: connections: the connection cap and the header and idle deadlines.
//! - [`service`]: the games, written against the generic `Game` API of `senet-rules`.
//! - [`store`]: the storage interface; [`sqlite`]: its SQLite implementation; [`postgres`]:
//!   its PostgreSQL implementation, shared by several servers.
//! - [`backup`]: `senet backup`, a consistent copy of a live SQLite database (SQLite's online
//!   backup API), checked before it is put in place.
//! - [`seeds`]: the seed commitment and the throws drawn from it.
//! - Bots are asked for moves through `senet_bots::play`, the adapter shared with `senet play`.
//! - [`analysis`]: the review's analysis of finished games and the stateless valuation.
//! - [`moderation`]: reports, bans, closed accounts and the expiry of idle sessions and
//!   anonymous players, shared by the servers and `senet admin`.
//! - [`metrics`]: what an operator watches: `GET /metrics` (Prometheus) and `GET /healthz`.
//! - [`web`]: the embedded page, script and style sheet; [`rulespage`]: the rules pages'
//!   rules and demonstrations.
//! - [`wire`]: the JSON of the API as Rust types; the OpenAPI document (`/api/openapi.json`)
//!   is generated from them and the handlers' annotations with utoipa.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod analysis;
pub mod api;
pub mod backup;
pub mod http;
pub mod metrics;
pub mod moderation;
pub mod online;
pub mod players;
pub mod postgres;
pub mod puzzles;
pub mod rulespage;
pub mod seeds;
pub mod service;
pub mod sql;
pub mod sqlite;
pub mod store;
pub mod tournaments;
pub mod web;
pub mod wire;

pub use api::{router, Limits};
pub use postgres::PgStore;
pub use service::Service;
pub use sqlite::SqliteStore;
pub use store::Store;

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

/// Whether `db` names a PostgreSQL database (a `postgres://` or `postgresql://` URL) rather
/// than a SQLite file.
pub fn is_postgres(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

/// `db` as printed: a PostgreSQL URL without its password.
pub fn db_display(db: &str) -> String {
    if !is_postgres(db) {
        return db.to_string();
    }
    match (db.find("://"), db.rfind('@')) {
        (Some(s), Some(at)) if at > s => {
            let user = &db[s + 3..at];
            let user = user.split(':').next().unwrap_or("");
            format!("{}{user}{}", &db[..s + 3], &db[at..])
        }
        _ => db.to_string(),
    }
}

/// Opens the store `db` names: a SQLite file (created and migrated; a file that is not a
/// senet database is refused) or a PostgreSQL database (migrated).
pub fn open_store(db: &str) -> Result<Arc<dyn Store>, String> {
    if is_postgres(db) {
        return Ok(Arc::new(PgStore::open(db).map_err(|e| e.to_string())?));
    }
    Ok(Arc::new(
        SqliteStore::open(Path::new(db)).map_err(|e| e.to_string())?,
    ))
}

/// Opens the database `db` (see [`open_store`]), binds `addr`, calls `ready` with the bound
/// address, and serves until `shutdown` completes; then stops gracefully: no new
/// connection is accepted, requests in flight (and so their appends) are finished, and every
/// WebSocket is closed with code 1012 and the reason "server restarting", which the page
/// answers by reconnecting.
pub async fn serve(
    addr: &str,
    db: &str,
    limits: Limits,
    ready: impl FnOnce(SocketAddr),
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), String> {
    let spec = db.to_string();
    let store = tokio::task::spawn_blocking(move || open_store(&spec))
        .await
        .map_err(|e| format!("cannot open the database: {e}"))??;
    let svc = Service::new(store);
    let watcher = svc.clone();
    tokio::task::spawn_blocking(move || watcher.watch_store())
        .await
        .map_err(|e| format!("cannot watch the database: {e}"))??;
    let app = router(svc.clone(), limits.clone());
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let local = listener
        .local_addr()
        .map_err(|e| format!("cannot read the bound address: {e}"))?;
    ready(local);
    svc.start_puzzles(limits.puzzles);
    let shutdown = async move {
        shutdown.await;
        svc.begin_shutdown();
    };
    http::serve(listener, app, &limits, shutdown).await
}
