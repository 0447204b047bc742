//! The `Store` conformance suite on SQLite (the same suite runs on PostgreSQL in
//! `tests/postgres.rs`).

mod support {
    pub mod store_suite;
}

use senet_server::SqliteStore;

#[test]
fn sqlite_passes_the_store_suite() {
    support::store_suite::check(&SqliteStore::in_memory().unwrap());
}
