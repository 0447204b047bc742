//! [`Store`] on PostgreSQL, for several `senet serve` processes sharing one database.
//!
//! The schema is created and migrated on open (the table `senet_schema` counts the
//! migrations applied; two servers starting at once take turns on an advisory lock). Every
//! change is atomic; [`Store::append`] is sequence-checked against `games.nevents` under the
//! row's lock, so of two servers extending one game only the first succeeds and the other
//! gets [`StoreError::Conflict`] (409 to its client). Each committed change also sends
//! `NOTIFY senet, 'SERVER GAME'` (`'SERVER GAME GAME ...'` for appends committed together),
//! which [`Store::watch`] delivers to the other servers so
//! that their WebSocket watchers see the move at once.
//!
//! Appends (every throw and move) take a fast path (the private module `writer`): one
//! prepared statement each, one round trip, and the appends arriving together committed as
//! one transaction (group commit). The other changes and every read use a pool of blocking
//! connections.

use crate::store::{
    GameMeta, Seat, SeriesGameRow, SeriesLink, SeriesMeta, Snapshot, Store, StoreError,
    StoredEvent, StoredGame, StoredSeries, Summary,
};
use postgres::fallible_iterator::FallibleIterator;
use postgres::{Client, NoTls, Transaction};
use std::sync::Mutex;
use std::time::Duration;

mod writer;

/// The schema, one migration per entry; never edit an entry once released, add one.
const MIGRATIONS: &[&str] = &[
    "
CREATE TABLE series (
    id       TEXT PRIMARY KEY,
    rules    TEXT NOT NULL,
    options  TEXT NOT NULL,
    target   TEXT NOT NULL,
    starts   TEXT NOT NULL,
    mode     TEXT NOT NULL,
    seat1    TEXT NOT NULL,
    seat2    TEXT NOT NULL,
    token1   TEXT,
    token2   TEXT,
    created  BIGINT NOT NULL
);
CREATE TABLE games (
    id           TEXT PRIMARY KEY,
    rules        TEXT NOT NULL,
    options      TEXT NOT NULL,
    seed         BIGINT NOT NULL,
    seed_hash    TEXT NOT NULL,
    mode         TEXT NOT NULL,
    seat1        TEXT NOT NULL,
    seat2        TEXT NOT NULL,
    token1       TEXT,
    token2       TEXT,
    created      BIGINT NOT NULL,
    updated      BIGINT NOT NULL,
    nevents      INTEGER NOT NULL,
    position     TEXT NOT NULL,
    state        TEXT NOT NULL,
    player       SMALLINT,
    moves        INTEGER NOT NULL,
    series       TEXT REFERENCES series(id),
    series_index INTEGER,
    series_first SMALLINT,
    invite       TEXT
);
CREATE UNIQUE INDEX games_in_series ON games(series, series_index) WHERE series IS NOT NULL;
CREATE TABLE events (
    game  TEXT NOT NULL REFERENCES games(id),
    seq   INTEGER NOT NULL,
    kind  TEXT NOT NULL CHECK (kind IN ('throw', 'move')),
    value TEXT NOT NULL,
    PRIMARY KEY (game, seq)
);
",
    "
-- Issue 19: the analysis of a finished game (JSON), kept once computed.
CREATE TABLE analyses (
    game    TEXT PRIMARY KEY REFERENCES games(id),
    nevents INTEGER NOT NULL,
    body    TEXT NOT NULL,
    created BIGINT NOT NULL
);
",
    crate::players::MIGRATION,
    crate::moderation::MIGRATION,
    crate::service::import::MIGRATION,
    crate::puzzles::MIGRATION,
    crate::tournaments::MIGRATION,
];

/// The channel of change notifications.
const CHANNEL: &str = "senet";

/// A PostgreSQL database holding every game, shared by any number of servers.
pub struct PgStore {
    url: String,
    /// Idle connections, reused.
    pool: Mutex<Vec<Client>>,
    /// This server's name in notifications, so that it skips its own.
    me: String,
    /// Commits the appends (see [`writer`]).
    writer: writer::Writer,
}

/// A client error as a [`StoreError`]: a database that cannot be reached or serve now (a
/// lost connection; SQLSTATE classes 08 connection exception and 53 insufficient resources,
/// 57P01-57P03 shutting down or starting) is [`StoreError::Unavailable`], anything else
/// [`StoreError::Backend`].
fn backend(e: postgres::Error) -> StoreError {
    if let Some(db) = e.as_db_error() {
        let code = db.code().code();
        let m = format!("{} ({code})", db.message());
        if unavailable_code(code) {
            return StoreError::Unavailable(m);
        }
        return StoreError::Backend(m);
    }
    let io = std::error::Error::source(&e).is_some_and(|s| s.is::<std::io::Error>());
    if e.is_closed() || io {
        return StoreError::Unavailable(e.to_string());
    }
    StoreError::Backend(e.to_string())
}

/// Whether SQLSTATE `code` says the database cannot serve now (see [`backend`]).
fn unavailable_code(code: &str) -> bool {
    code.starts_with("08") || code.starts_with("53") || code.starts_with("57P0")
}

/// A failed connection attempt as a [`StoreError`], for the pool's connections and the
/// writer's alike.
fn cannot_connect(e: postgres::Error) -> StoreError {
    match e.as_db_error() {
        // The server answered and refused: a bad user, password or database.
        Some(db) if !unavailable_code(db.code().code()) => {
            StoreError::Backend(format!("cannot connect to PostgreSQL: {e}"))
        }
        // Down, restarting or full: 503 to the client, who may try again.
        _ => StoreError::Unavailable(format!("cannot connect to PostgreSQL: {e}")),
    }
}

fn unique_violation(e: &postgres::Error) -> bool {
    e.code() == Some(&postgres::error::SqlState::UNIQUE_VIOLATION)
}

fn seat_column(seat: u8) -> Result<&'static str, StoreError> {
    match seat {
        1 => Ok("token1"),
        2 => Ok("token2"),
        s => Err(StoreError::Backend(format!("there is no seat {s}"))),
    }
}

fn split_options(options: &str) -> Vec<String> {
    options
        .split(',')
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect()
}

impl PgStore {
    /// Connects to the database at `url` (`postgres://USER[:PASSWORD]@HOST[:PORT]/DB`; a
    /// host starting with `/`, percent-encoded, is a socket directory), checks that it is
    /// empty or a senet database, and migrates it.
    pub fn open(url: &str) -> Result<PgStore, StoreError> {
        let mut config: tokio_postgres::Config = url
            .parse()
            .map_err(|e| StoreError::Backend(format!("the PostgreSQL URL is not valid: {e}")))?;
        config.connect_timeout(Duration::from_secs(10));
        config.application_name("senet serve");
        let me = format!("{:016x}", rand::random::<u64>());
        let store = PgStore {
            url: url.to_string(),
            pool: Mutex::new(Vec::new()),
            writer: writer::Writer::start(config, me.clone())?,
            me,
        };
        let mut c = store.connect()?;
        migrate(&mut c)?;
        store.put(c);
        Ok(store)
    }

    fn connect(&self) -> Result<Client, StoreError> {
        let mut config: postgres::Config = self
            .url
            .parse()
            .map_err(|e| StoreError::Backend(format!("the PostgreSQL URL is not valid: {e}")))?;
        config.connect_timeout(Duration::from_secs(10));
        config.application_name("senet serve");
        config.connect(NoTls).map_err(cannot_connect)
    }

    /// Runs `f` on a pooled connection; a connection that failed is dropped, not reused.
    fn with<T>(
        &self,
        f: impl FnOnce(&mut Client) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let pooled = self.pool.lock().unwrap_or_else(|p| p.into_inner()).pop();
        let mut c = match pooled {
            Some(c) if !c.is_closed() => c,
            _ => self.connect()?,
        };
        let r = f(&mut c);
        if !c.is_closed() {
            self.put(c);
        }
        r
    }

    fn put(&self, c: Client) {
        let mut p = self.pool.lock().unwrap_or_else(|p| p.into_inner());
        if p.len() < 32 {
            p.push(c);
        }
    }

    /// Sends the change notification of game `id` (delivered when `tx` commits).
    fn notify(&self, tx: &mut Transaction<'_>, id: &str) -> Result<(), StoreError> {
        tx.execute(
            "SELECT pg_notify($1, $2)",
            &[&CHANNEL, &format!("{} {id}", self.me)],
        )
        .map(|_| ())
        .map_err(backend)
    }
}

/// [`crate::sql::Tx`] on a PostgreSQL transaction.
struct PgTx<'a, 'b> {
    tx: &'a mut Transaction<'b>,
    me: &'a str,
}

impl crate::sql::Tx for PgTx<'_, '_> {
    fn exec(&mut self, sql: &str, args: &[crate::sql::Val]) -> Result<u64, StoreError> {
        let params: Vec<&(dyn postgres::types::ToSql + Sync)> =
            args.iter().map(|a| a as _).collect();
        self.tx.execute(sql, &params).map_err(backend)
    }

    fn rows(
        &mut self,
        sql: &str,
        args: &[crate::sql::Val],
    ) -> Result<Vec<crate::sql::Row>, StoreError> {
        let params: Vec<&(dyn postgres::types::ToSql + Sync)> =
            args.iter().map(|a| a as _).collect();
        self.tx
            .query(sql, &params)
            .map_err(backend)?
            .iter()
            .map(crate::sql::pg_row)
            .collect()
    }

    fn for_update(&self) -> &'static str {
        " FOR UPDATE"
    }

    fn notify(&mut self, what: &str) -> Result<(), StoreError> {
        self.tx
            .execute(
                "SELECT pg_notify($1, $2)",
                &[&CHANNEL, &format!("{} {what}", self.me)],
            )
            .map(|_| ())
            .map_err(backend)
    }
}

impl Drop for PgStore {
    fn drop(&mut self) {
        // Closing a connection blocks on its own runtime, which a tokio worker thread may
        // not do: close them on a thread of their own.
        let clients = std::mem::take(&mut *self.pool.lock().unwrap_or_else(|p| p.into_inner()));
        if !clients.is_empty() {
            let _ = std::thread::spawn(move || drop(clients)).join();
        }
    }
}

/// Creates or migrates the schema, under an advisory lock; refuses a database holding
/// other tables and no senet schema, or a newer senet schema.
fn migrate(c: &mut Client) -> Result<(), StoreError> {
    let mut tx = c.transaction().map_err(backend)?;
    tx.execute("SELECT pg_advisory_xact_lock(7365746)", &[])
        .map_err(backend)?;
    let tables: Vec<String> = tx
        .query(
            "SELECT table_name::text FROM information_schema.tables
             WHERE table_schema = current_schema() ORDER BY 1",
            &[],
        )
        .map_err(backend)?
        .iter()
        .map(|r| r.get(0))
        .collect();
    let version: i32 = if tables.iter().any(|t| t == "senet_schema") {
        tx.query_one("SELECT version FROM senet_schema", &[])
            .map_err(backend)?
            .get(0)
    } else if tables.is_empty() {
        tx.batch_execute("CREATE TABLE senet_schema (version INTEGER NOT NULL); INSERT INTO senet_schema VALUES (0);")
            .map_err(backend)?;
        0
    } else {
        return Err(StoreError::Backend(format!(
            "refusing the PostgreSQL database: it is not empty and not a senet database (its tables: {})",
            tables.join(", ")
        )));
    };
    if version as usize > MIGRATIONS.len() {
        return Err(StoreError::Backend(format!(
            "the database has senet schema version {version}, newer than this senet's ({}); use a newer senet",
            MIGRATIONS.len()
        )));
    }
    for (i, m) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        tx.batch_execute(m).map_err(backend)?;
        tx.execute("UPDATE senet_schema SET version = $1", &[&(i as i32 + 1)])
            .map_err(backend)?;
    }
    tx.commit().map_err(backend)
}

fn insert_events(
    tx: &mut Transaction<'_>,
    id: &str,
    first: u32,
    events: &[StoredEvent],
) -> Result<(), StoreError> {
    if events.is_empty() {
        return Ok(());
    }
    let st = tx
        .prepare("INSERT INTO events (game, seq, kind, value) VALUES ($1, $2, $3, $4)")
        .map_err(backend)?;
    for (i, e) in events.iter().enumerate() {
        let (kind, value) = match e {
            StoredEvent::Throw(t) => ("throw", t),
            StoredEvent::Move(m) => ("move", m),
        };
        tx.execute(&st, &[&id, &((first as usize + i) as i32), &kind, value])
            .map_err(|e| {
                if unique_violation(&e) {
                    StoreError::Conflict
                } else {
                    backend(e)
                }
            })?;
    }
    Ok(())
}

fn insert_game(
    tx: &mut Transaction<'_>,
    meta: &GameMeta,
    events: &[StoredEvent],
    snap: &Snapshot,
) -> Result<(), StoreError> {
    let n = tx
        .execute(
            "INSERT INTO games (id, rules, options, seed, seed_hash, mode, seat1, seat2,
                token1, token2, created, updated, nevents, position, state, player, moves,
                series, series_index, series_first, invite, page_throws)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,
                $18, $19, $20, $21, $22)
             ON CONFLICT DO NOTHING",
            &[
                &meta.id,
                &meta.rules,
                &meta.options.join(","),
                &(meta.seed as i64),
                &meta.seed_hash,
                &meta.mode,
                &meta.seats[0].to_text(),
                &meta.seats[1].to_text(),
                &meta.token_hashes[0],
                &meta.token_hashes[1],
                &meta.created,
                &snap.updated,
                &(events.len() as i32),
                &snap.position,
                &snap.state,
                &snap.player.map(i16::from),
                &(snap.moves as i32),
                &meta.series.as_ref().map(|l| l.id.as_str()),
                &meta.series.as_ref().map(|l| l.index as i32),
                &meta.series.as_ref().map(|l| l.first as i16),
                &meta.invite,
                &i64::from(meta.page_throws),
            ],
        )
        .map_err(backend)?;
    if n == 0 {
        return Err(StoreError::Exists);
    }
    insert_events(tx, &meta.id, 0, events)
}

impl Store for PgStore {
    fn create(
        &self,
        meta: &GameMeta,
        events: &[StoredEvent],
        snap: &Snapshot,
    ) -> Result<(), StoreError> {
        self.with(|c| {
            let mut tx = c.transaction().map_err(backend)?;
            insert_game(&mut tx, meta, events, snap)?;
            tx.commit().map_err(backend)
        })
    }

    fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        self.with(|c| {
            // One snapshot for the game row and its events.
            let mut tx = c
                .build_transaction()
                .isolation_level(postgres::IsolationLevel::RepeatableRead)
                .read_only(true)
                .start()
                .map_err(backend)?;
            let Some(r) = tx
                .query_opt(
                    "SELECT rules, options, seed, seed_hash, mode, seat1, seat2, token1, token2,
                        created, nevents, series, series_index, series_first, invite,
                        page_throws
                     FROM games WHERE id = $1",
                    &[&id],
                )
                .map_err(backend)?
            else {
                return Ok(None);
            };
            let link: (Option<String>, Option<i32>, Option<i16>) =
                (r.get(11), r.get(12), r.get(13));
            let series = match link {
                (None, _, _) => None,
                (Some(sid), Some(index), Some(first @ 1..=2)) if index >= 0 => Some(SeriesLink {
                    id: sid,
                    index: index as u32,
                    first: first as u8,
                }),
                (Some(sid), index, first) => {
                    return Err(StoreError::Corrupt(format!(
                        "{id}: series {sid} with index {index:?} and first seat {first:?}"
                    )))
                }
            };
            let nevents: i32 = r.get(10);
            let rows = tx
                .query(
                    "SELECT seq, kind, value FROM events WHERE game = $1 ORDER BY seq",
                    &[&id],
                )
                .map_err(backend)?;
            let mut events = Vec::with_capacity(rows.len());
            for row in rows {
                let seq: i32 = row.get(0);
                let kind: &str = row.get(1);
                let value: String = row.get(2);
                if seq as usize != events.len() {
                    return Err(StoreError::Corrupt(format!(
                        "{id}: event {seq} out of order"
                    )));
                }
                events.push(match kind {
                    "throw" => StoredEvent::Throw(value),
                    _ => StoredEvent::Move(value),
                });
            }
            if events.len() as i64 != nevents as i64 {
                return Err(StoreError::Corrupt(format!(
                    "{id}: {} events stored, {nevents} expected",
                    events.len()
                )));
            }
            let s1: String = r.get(5);
            let s2: String = r.get(6);
            let seed: i64 = r.get(2);
            let options: String = r.get(1);
            tx.commit().map_err(backend)?;
            Ok(Some(StoredGame {
                meta: GameMeta {
                    id: id.to_string(),
                    rules: r.get(0),
                    options: split_options(&options),
                    seed: seed as u64,
                    seed_hash: r.get(3),
                    mode: r.get(4),
                    seats: [Seat::from_text(&s1)?, Seat::from_text(&s2)?],
                    token_hashes: [r.get(7), r.get(8)],
                    invite: r.get(14),
                    created: r.get(9),
                    series,
                    page_throws: r.get::<_, i64>(15) != 0,
                },
                events,
            }))
        })
    }

    fn append(
        &self,
        id: &str,
        first_seq: u32,
        events: &[StoredEvent],
        snap: &Snapshot,
    ) -> Result<(), StoreError> {
        // One statement, committed with the other appends arriving meanwhile (see
        // [`writer`]); the row lock orders concurrent appends, the second sees the first's
        // nevents.
        self.writer.append(id, first_seq, events, snap)
    }

    fn analysis(&self, id: &str, nevents: u32) -> Result<Option<String>, StoreError> {
        self.with(|c| {
            let row = c
                .query_opt(
                    "SELECT body FROM analyses WHERE game = $1 AND nevents = $2",
                    &[&id, &(nevents as i32)],
                )
                .map_err(backend)?;
            Ok(row.map(|r| r.get(0)))
        })
    }

    fn transaction(
        &self,
        f: &mut dyn FnMut(&mut dyn crate::sql::Tx) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        self.with(|c| {
            let mut tx = c.transaction().map_err(backend)?;
            f(&mut PgTx {
                tx: &mut tx,
                me: &self.me,
            })?;
            tx.commit().map_err(backend)
        })
    }

    fn put_analysis(&self, id: &str, nevents: u32, body: &str) -> Result<(), StoreError> {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64);
        self.with(|c| {
            c.execute(
                "INSERT INTO analyses (game, nevents, body, created) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (game) DO UPDATE SET nevents = $2, body = $3, created = $4",
                &[&id, &(nevents as i32), &body, &now],
            )
            .map_err(backend)?;
            Ok(())
        })
    }

    fn summaries(&self, ids: &[String]) -> Result<Vec<Summary>, StoreError> {
        self.with(|c| {
            let rows = c
                .query(
                    "SELECT id, rules, mode, seat1, seat2, state, player, moves, created, updated
                     FROM games WHERE id = ANY($1)
                     ORDER BY updated DESC, id",
                    &[&ids],
                )
                .map_err(backend)?;
            Ok(rows
                .iter()
                .map(|r| Summary {
                    id: r.get(0),
                    rules: r.get(1),
                    mode: r.get(2),
                    seats: [r.get(3), r.get(4)],
                    state: r.get(5),
                    player: r.get::<_, Option<i16>>(6).map(|p| p as u8),
                    moves: r.get::<_, i32>(7) as u32,
                    created: r.get(8),
                    updated: r.get(9),
                })
                .collect())
        })
    }

    fn create_series(
        &self,
        series: &SeriesMeta,
        game: &GameMeta,
        events: &[StoredEvent],
        snap: &Snapshot,
    ) -> Result<(), StoreError> {
        self.with(|c| {
            let mut tx = c.transaction().map_err(backend)?;
            let n = tx
                .execute(
                    "INSERT INTO series (id, rules, options, target, starts, mode, seat1, seat2,
                        token1, token2, created)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
                     ON CONFLICT DO NOTHING",
                    &[
                        &series.id,
                        &series.rules,
                        &series.options.join(","),
                        &series.target,
                        &series.starts,
                        &series.mode,
                        &series.seats[0].to_text(),
                        &series.seats[1].to_text(),
                        &series.token_hashes[0],
                        &series.token_hashes[1],
                        &series.created,
                    ],
                )
                .map_err(backend)?;
            if n == 0 {
                return Err(StoreError::Exists);
            }
            insert_game(&mut tx, game, events, snap)?;
            tx.commit().map_err(backend)
        })
    }

    fn load_series(&self, id: &str) -> Result<Option<StoredSeries>, StoreError> {
        self.with(|c| {
            let mut tx = c
                .build_transaction()
                .isolation_level(postgres::IsolationLevel::RepeatableRead)
                .read_only(true)
                .start()
                .map_err(backend)?;
            let Some(r) = tx
                .query_opt(
                    "SELECT rules, options, target, starts, mode, seat1, seat2, token1, token2,
                        created FROM series WHERE id = $1",
                    &[&id],
                )
                .map_err(backend)?
            else {
                return Ok(None);
            };
            let rows = tx
                .query(
                    "SELECT id, series_index, series_first, position FROM games
                     WHERE series = $1 ORDER BY series_index",
                    &[&id],
                )
                .map_err(backend)?;
            tx.commit().map_err(backend)?;
            let mut games = Vec::new();
            for g in rows {
                let index: i32 = g.get(1);
                let first: i16 = g.get(2);
                let gid: String = g.get(0);
                if index as usize != games.len() || !(1..=2).contains(&first) {
                    return Err(StoreError::Corrupt(format!(
                        "series {id}: game {gid} has index {index} and first seat {first}"
                    )));
                }
                games.push(SeriesGameRow {
                    id: gid,
                    index: index as u32,
                    first: first as u8,
                    position: g.get(3),
                });
            }
            let (s1, s2): (String, String) = (r.get(5), r.get(6));
            let options: String = r.get(1);
            Ok(Some(StoredSeries {
                meta: SeriesMeta {
                    id: id.to_string(),
                    rules: r.get(0),
                    options: split_options(&options),
                    target: r.get(2),
                    starts: r.get(3),
                    mode: r.get(4),
                    seats: [Seat::from_text(&s1)?, Seat::from_text(&s2)?],
                    token_hashes: [r.get(7), r.get(8)],
                    created: r.get(9),
                },
                games,
            }))
        })
    }

    fn claim(
        &self,
        id: &str,
        seat: u8,
        series_seat: u8,
        code_hash: &str,
        token_hash: &str,
    ) -> Result<bool, StoreError> {
        let col = seat_column(seat)?;
        let scol = seat_column(series_seat)?;
        self.with(|c| {
            let mut tx = c.transaction().map_err(backend)?;
            let n = tx
                .execute(
                    &format!(
                        "UPDATE games SET {col} = $1, invite = NULL
                         WHERE id = $2 AND invite = $3 AND {col} IS NULL"
                    ),
                    &[&token_hash, &id, &code_hash],
                )
                .map_err(backend)?;
            if n == 0 {
                return Ok(false);
            }
            tx.execute(
                &format!(
                    "UPDATE series SET {scol} = $1
                     WHERE id = (SELECT series FROM games WHERE id = $2) AND {scol} IS NULL"
                ),
                &[&token_hash, &id],
            )
            .map_err(backend)?;
            self.notify(&mut tx, id)?;
            tx.commit().map_err(backend)?;
            Ok(true)
        })
    }

    fn set_invite(&self, id: &str, seat: u8, code_hash: Option<&str>) -> Result<bool, StoreError> {
        let col = seat_column(seat)?;
        self.with(|c| {
            let mut tx = c.transaction().map_err(backend)?;
            let n = tx
                .execute(
                    &format!("UPDATE games SET invite = $1 WHERE id = $2 AND {col} IS NULL"),
                    &[&code_hash, &id],
                )
                .map_err(backend)?;
            self.notify(&mut tx, id)?;
            tx.commit().map_err(backend)?;
            Ok(n == 1)
        })
    }

    fn watch(
        &self,
        on_change: Box<dyn Fn(Option<String>) + Send + Sync>,
    ) -> Result<(), StoreError> {
        let url = self.url.clone();
        let me = self.me.clone();
        let (ready, listening) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("senet-listen".into())
            .spawn(move || listen(&url, &me, &*on_change, ready))
            .map_err(|e| StoreError::Backend(format!("cannot start the listener: {e}")))?;
        // Changes made after this returns are reported.
        listening
            .recv_timeout(Duration::from_secs(10))
            .map_err(|_| StoreError::Backend("cannot LISTEN for other servers' changes".into()))
    }
}

/// Delivers other servers' change notifications to `on_change` for ever; after a lost
/// connection it reconnects and reports `None` (anything may have changed meanwhile).
fn listen(
    url: &str,
    me: &str,
    on_change: &(dyn Fn(Option<String>) + Send + Sync),
    ready: std::sync::mpsc::Sender<()>,
) {
    let mut lost = false;
    loop {
        let client = url
            .parse::<postgres::Config>()
            .ok()
            .and_then(|c| c.connect(NoTls).ok());
        let Some(mut client) = client else {
            std::thread::sleep(Duration::from_secs(1));
            continue;
        };
        if client.batch_execute(&format!("LISTEN {CHANNEL}")).is_err() {
            std::thread::sleep(Duration::from_secs(1));
            continue;
        }
        let _ = ready.send(());
        if lost {
            on_change(None);
        }
        let mut n = client.notifications();
        let mut it = n.blocking_iter();
        while let Ok(Some(note)) = it.next() {
            // `SERVER GAME`, or `SERVER GAME GAME ...` for a batch of appends.
            let mut parts = note.payload().split(' ');
            if parts.next() == Some(me) {
                continue;
            }
            for game in parts.filter(|g| !g.is_empty()) {
                on_change(Some(game.to_string()));
            }
        }
        lost = true;
        std::thread::sleep(Duration::from_millis(200));
    }
}
