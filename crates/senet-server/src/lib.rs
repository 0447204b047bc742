//! # senet-server
//!
//! `senet serve`: the browser game on an embedded SQLite database, with online play between
//! two browsers (seat tokens, invite links), live updates over WebSocket, spectators,
//! review, and server-side throws committed to by a published seed hash.
//!
//! - [`api`]: the HTTP layer (routes, errors, limits, WebSocket); knows nothing of the rules.
//! - [`http`]: connections: the connection cap and the header and idle deadlines.
//! - [`service`]: the games, written against the generic `Game` API of `senet-rules`.
//! - [`store`]: the storage interface; [`sqlite`]: its SQLite implementation.
//! - [`seeds`]: the seed commitment and the throws drawn from it.
//! - [`opponent`]: the one place bots are asked for moves.
//! - [`web`]: the embedded page, script and style sheet.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod api;
pub mod http;
pub mod opponent;
pub mod seeds;
pub mod service;
pub mod sqlite;
pub mod store;
pub mod web;

pub use api::{router, Limits};
pub use service::Service;
pub use sqlite::SqliteStore;
pub use store::Store;

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

/// Opens (creating and migrating) the database at `db`, binds `addr`, calls `ready` with the
/// bound address, and serves until `shutdown` completes.
pub async fn serve(
    addr: &str,
    db: &Path,
    limits: Limits,
    ready: impl FnOnce(SocketAddr),
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), String> {
    let store = SqliteStore::open(db).map_err(|e| e.to_string())?;
    let app = router(Service::new(Arc::new(store)), limits.clone());
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let local = listener
        .local_addr()
        .map_err(|e| format!("cannot read the bound address: {e}"))?;
    ready(local);
    http::serve(listener, app, &limits, shutdown).await
}
