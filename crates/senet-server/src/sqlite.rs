//! [`Store`] on an embedded SQLite file (rusqlite, bundled SQLite).
//!
//! The file is created and migrated on open (`PRAGMA user_version` counts the migrations
//! applied). It runs in WAL mode with `synchronous=NORMAL`: a committed transaction survives
//! the server process being killed at any moment (only a power cut can lose the last
//! commits); `--db` on a disk with `synchronous=FULL` semantics is a one-line change in
//! [`SqliteStore::open`].

use crate::store::{
    GameMeta, Seat, SeriesGameRow, SeriesLink, SeriesMeta, Snapshot, Store, StoreError,
    StoredEvent, StoredGame, StoredSeries, Summary,
};
use rusqlite::{params, Connection, OptionalExtension};
use std::path::Path;
use std::sync::Mutex;

/// The schema, one migration per entry; never edit an entry once released, add one.
const MIGRATIONS: &[&str] = &[
    "
CREATE TABLE games (
    id        TEXT PRIMARY KEY,
    rules     TEXT NOT NULL,
    options   TEXT NOT NULL,   -- NAME=VALUE joined by commas
    seed      INTEGER NOT NULL, -- u64 bit pattern
    seed_hash TEXT NOT NULL,
    mode      TEXT NOT NULL,
    seat1     TEXT NOT NULL,
    seat2     TEXT NOT NULL,
    token1    TEXT,            -- SHA-256 of the seat token
    token2    TEXT,
    created   INTEGER NOT NULL,
    updated   INTEGER NOT NULL,
    nevents   INTEGER NOT NULL,
    position  TEXT NOT NULL,
    state     TEXT NOT NULL,
    player    INTEGER,
    moves     INTEGER NOT NULL
);
CREATE TABLE events (
    game  TEXT NOT NULL REFERENCES games(id),
    seq   INTEGER NOT NULL,
    kind  TEXT NOT NULL CHECK (kind IN ('throw', 'move')),
    value TEXT NOT NULL,
    PRIMARY KEY (game, seq)
) WITHOUT ROWID;
",
    "
-- Issue 13: series of games. Existing games keep every column; their series columns are NULL.
CREATE TABLE series (
    id       TEXT PRIMARY KEY,
    rules    TEXT NOT NULL,
    options  TEXT NOT NULL,   -- NAME=VALUE joined by commas
    target   TEXT NOT NULL,   -- points:N or games:N
    starts   TEXT NOT NULL,   -- alternate or rules
    mode     TEXT NOT NULL,
    seat1    TEXT NOT NULL,
    seat2    TEXT NOT NULL,
    token1   TEXT,            -- SHA-256 of the series seat's token
    token2   TEXT,
    created  INTEGER NOT NULL
);
ALTER TABLE games ADD COLUMN series TEXT REFERENCES series(id);
ALTER TABLE games ADD COLUMN series_index INTEGER;
ALTER TABLE games ADD COLUMN series_first INTEGER;
CREATE UNIQUE INDEX games_in_series ON games(series, series_index) WHERE series IS NOT NULL;
",
    "
-- Issue 14: invites with one-time claim codes (SHA-256 of the code; NULL once claimed or
-- revoked). Older games keep the second seat's token they were created with.
ALTER TABLE games ADD COLUMN invite TEXT;
",
    "
-- Issue 19: the analysis of a finished game (JSON), kept once computed.
CREATE TABLE analyses (
    game    TEXT PRIMARY KEY REFERENCES games(id),
    nevents INTEGER NOT NULL,  -- the events of the game it analysed
    body    TEXT NOT NULL,
    created INTEGER NOT NULL
) WITHOUT ROWID;
",
    crate::players::MIGRATION,
    crate::moderation::MIGRATION,
    crate::service::import::MIGRATION,
    crate::puzzles::MIGRATION,
    crate::tournaments::MIGRATION,
];

/// [`crate::sql::Tx`] on a SQLite transaction.
struct SqliteTx<'a>(&'a rusqlite::Transaction<'a>);

impl crate::sql::Tx for SqliteTx<'_> {
    fn exec(&mut self, sql: &str, args: &[crate::sql::Val]) -> Result<u64, StoreError> {
        self.0
            .prepare_cached(&crate::sql::sqlite_sql(sql))
            .and_then(|mut st| st.execute(rusqlite::params_from_iter(args)))
            .map(|n| n as u64)
            .map_err(backend)
    }

    fn rows(
        &mut self,
        sql: &str,
        args: &[crate::sql::Val],
    ) -> Result<Vec<crate::sql::Row>, StoreError> {
        let mut st = self
            .0
            .prepare_cached(&crate::sql::sqlite_sql(sql))
            .map_err(backend)?;
        let n = st.column_count();
        let rows = st
            .query_map(rusqlite::params_from_iter(args), |r| {
                crate::sql::sqlite_row(r, n)
            })
            .map_err(backend)?;
        rows.collect::<Result<_, _>>().map_err(backend)
    }

    fn for_update(&self) -> &'static str {
        ""
    }

    fn notify(&mut self, _what: &str) -> Result<(), StoreError> {
        Ok(())
    }
}

/// A SQLite database file holding every game.
pub struct SqliteStore {
    conn: Mutex<Connection>,
}

/// Refuses a file that is not SQLite, a SQLite database of something else, one from a newer
/// senet, or a damaged one; reads only.
fn check_senet_file(conn: &Connection, path: &Path) -> Result<(), StoreError> {
    let p = path.display();
    let refuse = |why: String| StoreError::Backend(format!("refusing {p}: {why}"));
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
        .and_then(|mut st| st.query_map([], |r| r.get(0))?.collect())
        .map_err(|e| match e {
            rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::NotADatabase => {
                refuse("it is not a SQLite database".into())
            }
            e => refuse(format!("it cannot be read as a SQLite database ({e})")),
        })?;
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(|e| refuse(e.to_string()))?;
    if tables.is_empty() && version == 0 {
        return Ok(()); // an empty database: senet sets it up
    }
    let want = ["events", "games"];
    if version < 1 || !want.iter().all(|t| tables.iter().any(|x| x == t)) {
        return Err(refuse(format!(
            "it is a SQLite database but not a senet one (its tables: {})",
            if tables.is_empty() {
                "none".into()
            } else {
                tables.join(", ")
            }
        )));
    }
    if version as usize > MIGRATIONS.len() {
        return Err(refuse(format!(
            "it has senet schema version {version}, newer than this senet's ({}); use a newer senet",
            MIGRATIONS.len()
        )));
    }
    let problems: Vec<String> = conn
        .prepare("PRAGMA quick_check")
        .and_then(|mut st| st.query_map([], |r| r.get(0))?.collect())
        .map_err(|e| refuse(format!("the integrity check failed: {e}")))?;
    if problems != ["ok"] {
        return Err(refuse(format!(
            "the integrity check (PRAGMA quick_check) found damage: {}",
            problems.join("; ")
        )));
    }
    Ok(())
}

fn backend(e: rusqlite::Error) -> StoreError {
    StoreError::Backend(e.to_string())
}

impl SqliteStore {
    /// Opens (creating and migrating as needed) the database at `path`. An existing file
    /// must be a senet database (or an empty SQLite file) that passes `PRAGMA quick_check`;
    /// anything else is refused before a byte of it is changed.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let exists = path.exists();
        let conn = Connection::open(path)
            .map_err(|e| StoreError::Backend(format!("cannot open {}: {e}", path.display())))?;
        if exists {
            check_senet_file(&conn, path)?;
        }
        Self::init(conn)
    }

    /// A private in-memory database (tests).
    pub fn in_memory() -> Result<SqliteStore, StoreError> {
        Self::init(Connection::open_in_memory().map_err(backend)?)
    }

    fn init(mut conn: Connection) -> Result<SqliteStore, StoreError> {
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(backend)?;
        // journal_mode returns a row; query it rather than execute.
        let _: String = conn
            .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
            .map_err(backend)?;
        conn.execute_batch("PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;")
            .map_err(backend)?;
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(backend)?;
        if version as usize > MIGRATIONS.len() {
            return Err(StoreError::Backend(format!(
                "the database has schema version {version}, newer than this senet ({})",
                MIGRATIONS.len()
            )));
        }
        for (i, m) in MIGRATIONS.iter().enumerate().skip(version as usize) {
            let tx = conn.transaction().map_err(backend)?;
            tx.execute_batch(m).map_err(backend)?;
            tx.execute_batch(&format!("PRAGMA user_version = {}", i + 1))
                .map_err(backend)?;
            tx.commit().map_err(backend)?;
        }
        Ok(SqliteStore {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave a half-done transaction behind
        // (rusqlite rolls back on drop), so a poisoned lock is safe to reuse.
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }
}

fn insert_events(
    tx: &rusqlite::Transaction<'_>,
    id: &str,
    first: u32,
    events: &[StoredEvent],
) -> Result<(), StoreError> {
    let mut st = tx
        .prepare_cached("INSERT INTO events (game, seq, kind, value) VALUES (?1, ?2, ?3, ?4)")
        .map_err(backend)?;
    for (i, e) in events.iter().enumerate() {
        let (kind, value) = match e {
            StoredEvent::Throw(t) => ("throw", t),
            StoredEvent::Move(m) => ("move", m),
        };
        st.execute(params![id, first + i as u32, kind, value])
            .map_err(|e| match e {
                rusqlite::Error::SqliteFailure(f, _)
                    if f.code == rusqlite::ErrorCode::ConstraintViolation =>
                {
                    StoreError::Conflict
                }
                e => backend(e),
            })?;
    }
    Ok(())
}

/// The token column of seat 1 or 2.
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

fn insert_game(
    tx: &rusqlite::Transaction<'_>,
    meta: &GameMeta,
    events: &[StoredEvent],
    snap: &Snapshot,
) -> Result<(), StoreError> {
    {
        let n = tx
            .execute(
                "INSERT OR IGNORE INTO games (id, rules, options, seed, seed_hash, mode, seat1, seat2,
                    token1, token2, created, updated, nevents, position, state, player, moves,
                    series, series_index, series_first, invite, page_throws)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
                    ?18, ?19, ?20, ?21, ?22)",
                params![
                    meta.id,
                    meta.rules,
                    meta.options.join(","),
                    meta.seed as i64,
                    meta.seed_hash,
                    meta.mode,
                    meta.seats[0].to_text(),
                    meta.seats[1].to_text(),
                    meta.token_hashes[0],
                    meta.token_hashes[1],
                    meta.created,
                    snap.updated,
                    events.len() as i64,
                    snap.position,
                    snap.state,
                    snap.player,
                    snap.moves,
                    meta.series.as_ref().map(|l| l.id.as_str()),
                    meta.series.as_ref().map(|l| l.index),
                    meta.series.as_ref().map(|l| l.first),
                    meta.invite,
                    i64::from(meta.page_throws),
                ],
            )
            .map_err(backend)?;
        if n == 0 {
            return Err(StoreError::Exists);
        }
        insert_events(tx, &meta.id, 0, events)
    }
}

impl Store for SqliteStore {
    fn create(
        &self,
        meta: &GameMeta,
        events: &[StoredEvent],
        snap: &Snapshot,
    ) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction().map_err(backend)?;
        insert_game(&tx, meta, events, snap)?;
        tx.commit().map_err(backend)
    }

    fn create_series(
        &self,
        series: &SeriesMeta,
        game: &GameMeta,
        events: &[StoredEvent],
        snap: &Snapshot,
    ) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction().map_err(backend)?;
        let n = tx
            .execute(
                "INSERT OR IGNORE INTO series (id, rules, options, target, starts, mode, seat1, seat2,
                    token1, token2, created)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                params![
                    series.id,
                    series.rules,
                    series.options.join(","),
                    series.target,
                    series.starts,
                    series.mode,
                    series.seats[0].to_text(),
                    series.seats[1].to_text(),
                    series.token_hashes[0],
                    series.token_hashes[1],
                    series.created,
                ],
            )
            .map_err(backend)?;
        if n == 0 {
            return Err(StoreError::Exists);
        }
        insert_game(&tx, game, events, snap)?;
        tx.commit().map_err(backend)
    }

    fn load_series(&self, id: &str) -> Result<Option<StoredSeries>, StoreError> {
        let conn = self.conn();
        let row = conn
            .prepare_cached(
                "SELECT rules, options, target, starts, mode, seat1, seat2, token1, token2, created
                 FROM series WHERE id = ?1",
            )
            .map_err(backend)?
            .query_row([id], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, String>(4)?,
                    r.get::<_, String>(5)?,
                    r.get::<_, String>(6)?,
                    r.get::<_, Option<String>>(7)?,
                    r.get::<_, Option<String>>(8)?,
                    r.get::<_, i64>(9)?,
                ))
            })
            .optional()
            .map_err(backend)?;
        let Some((rules, options, target, starts, mode, s1, s2, t1, t2, created)) = row else {
            return Ok(None);
        };
        let mut st = conn
            .prepare_cached(
                "SELECT id, series_index, series_first, position FROM games
                 WHERE series = ?1 ORDER BY series_index",
            )
            .map_err(backend)?;
        let rows = st
            .query_map([id], |r| {
                Ok(SeriesGameRow {
                    id: r.get(0)?,
                    index: r.get(1)?,
                    first: r.get(2)?,
                    position: r.get(3)?,
                })
            })
            .map_err(backend)?;
        let mut games = Vec::new();
        for row in rows {
            let g = row.map_err(backend)?;
            if g.index as usize != games.len() || !(1..=2).contains(&g.first) {
                return Err(StoreError::Corrupt(format!(
                    "series {id}: game {} has index {} and first seat {}",
                    g.id, g.index, g.first
                )));
            }
            games.push(g);
        }
        Ok(Some(StoredSeries {
            meta: SeriesMeta {
                id: id.to_string(),
                rules,
                options: split_options(&options),
                target,
                starts,
                mode,
                seats: [Seat::from_text(&s1)?, Seat::from_text(&s2)?],
                token_hashes: [t1, t2],
                created,
            },
            games,
        }))
    }

    fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let conn = self.conn();
        let row = conn
            .prepare_cached(
                "SELECT rules, options, seed, seed_hash, mode, seat1, seat2, token1, token2, created, nevents,
                    series, series_index, series_first, invite, page_throws
                 FROM games WHERE id = ?1",
            )
            .map_err(backend)?
            .query_row([id], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, i64>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, String>(4)?,
                    r.get::<_, String>(5)?,
                    r.get::<_, String>(6)?,
                    r.get::<_, Option<String>>(7)?,
                    r.get::<_, Option<String>>(8)?,
                    r.get::<_, i64>(9)?,
                    r.get::<_, i64>(10)?,
                    (
                        r.get::<_, Option<String>>(11)?,
                        r.get::<_, Option<u32>>(12)?,
                        r.get::<_, Option<u8>>(13)?,
                    ),
                    r.get::<_, Option<String>>(14)?,
                    r.get::<_, i64>(15)?,
                ))
            })
            .optional()
            .map_err(backend)?;
        let Some((
            rules,
            options,
            seed,
            seed_hash,
            mode,
            s1,
            s2,
            t1,
            t2,
            created,
            nevents,
            link,
            invite,
            page_throws,
        )) = row
        else {
            return Ok(None);
        };
        let series = match link {
            (None, _, _) => None,
            (Some(sid), Some(index), Some(first @ 1..=2)) => Some(SeriesLink {
                id: sid,
                index,
                first,
            }),
            (Some(sid), index, first) => {
                return Err(StoreError::Corrupt(format!(
                    "{id}: series {sid} with index {index:?} and first seat {first:?}"
                )))
            }
        };
        let mut st = conn
            .prepare_cached("SELECT seq, kind, value FROM events WHERE game = ?1 ORDER BY seq")
            .map_err(backend)?;
        let rows = st
            .query_map([id], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                ))
            })
            .map_err(backend)?;
        let mut events = Vec::new();
        for row in rows {
            let (seq, kind, value) = row.map_err(backend)?;
            if seq != events.len() as i64 {
                return Err(StoreError::Corrupt(format!(
                    "{id}: event {seq} out of order"
                )));
            }
            events.push(match kind.as_str() {
                "throw" => StoredEvent::Throw(value),
                _ => StoredEvent::Move(value),
            });
        }
        if events.len() as i64 != nevents {
            return Err(StoreError::Corrupt(format!(
                "{id}: {} events stored, {nevents} expected",
                events.len()
            )));
        }
        Ok(Some(StoredGame {
            meta: GameMeta {
                id: id.to_string(),
                rules,
                options: options
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(String::from)
                    .collect(),
                seed: seed as u64,
                seed_hash,
                mode,
                seats: [Seat::from_text(&s1)?, Seat::from_text(&s2)?],
                token_hashes: [t1, t2],
                invite,
                created,
                series,
                page_throws: page_throws != 0,
            },
            events,
        }))
    }

    fn append(
        &self,
        id: &str,
        first_seq: u32,
        events: &[StoredEvent],
        snap: &Snapshot,
    ) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction().map_err(backend)?;
        let n = tx
            .prepare_cached(
                "UPDATE games SET nevents = ?1, position = ?2, state = ?3, player = ?4, moves = ?5,
                    updated = ?6, clock_state = COALESCE(?9, clock_state), deadline = ?10
                 WHERE id = ?7 AND nevents = ?8 AND result IS NULL",
            )
            .map_err(backend)?
            .execute(params![
                first_seq as i64 + events.len() as i64,
                snap.position,
                snap.state,
                snap.player,
                snap.moves,
                snap.updated,
                id,
                first_seq as i64,
                snap.clock,
                snap.deadline,
            ])
            .map_err(backend)?;
        if n == 0 {
            return Err(StoreError::Conflict);
        }
        insert_events(&tx, id, first_seq, events)?;
        tx.commit().map_err(backend)
    }

    fn transaction(
        &self,
        f: &mut dyn FnMut(&mut dyn crate::sql::Tx) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(backend)?;
        let mut t = SqliteTx(&tx);
        f(&mut t)?;
        tx.commit().map_err(backend)
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
        let mut conn = self.conn();
        let tx = conn.transaction().map_err(backend)?;
        let n = tx
            .execute(
                &format!(
                    "UPDATE games SET {col} = ?1, invite = NULL
                     WHERE id = ?2 AND invite = ?3 AND {col} IS NULL"
                ),
                params![token_hash, id, code_hash],
            )
            .map_err(backend)?;
        if n == 0 {
            return Ok(false);
        }
        tx.execute(
            &format!(
                "UPDATE series SET {scol} = ?1
                 WHERE id = (SELECT series FROM games WHERE id = ?2) AND {scol} IS NULL"
            ),
            params![token_hash, id],
        )
        .map_err(backend)?;
        tx.commit().map_err(backend)?;
        Ok(true)
    }

    fn set_invite(&self, id: &str, seat: u8, code_hash: Option<&str>) -> Result<bool, StoreError> {
        let col = seat_column(seat)?;
        let n = self
            .conn()
            .execute(
                &format!("UPDATE games SET invite = ?1 WHERE id = ?2 AND {col} IS NULL"),
                params![code_hash, id],
            )
            .map_err(backend)?;
        Ok(n == 1)
    }

    fn analysis(&self, id: &str, nevents: u32) -> Result<Option<String>, StoreError> {
        self.conn()
            .query_row(
                "SELECT body FROM analyses WHERE game = ?1 AND nevents = ?2",
                rusqlite::params![id, nevents],
                |r| r.get(0),
            )
            .optional()
            .map_err(backend)
    }

    fn put_analysis(&self, id: &str, nevents: u32, body: &str) -> Result<(), StoreError> {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64);
        self.conn()
            .execute(
                "INSERT INTO analyses (game, nevents, body, created) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (game) DO UPDATE SET nevents = ?2, body = ?3, created = ?4",
                rusqlite::params![id, nevents, body, now],
            )
            .map_err(backend)?;
        Ok(())
    }

    fn summaries(&self, ids: &[String]) -> Result<Vec<Summary>, StoreError> {
        let conn = self.conn();
        let mut st = conn
            .prepare_cached(
                "SELECT id, rules, mode, seat1, seat2, state, player, moves, created, updated
                 FROM games WHERE id = ?1",
            )
            .map_err(backend)?;
        let mut out = Vec::new();
        for id in ids {
            let s = st
                .query_row([id], |r| {
                    Ok(Summary {
                        id: r.get(0)?,
                        rules: r.get(1)?,
                        mode: r.get(2)?,
                        seats: [r.get(3)?, r.get(4)?],
                        state: r.get(5)?,
                        player: r.get(6)?,
                        moves: r.get(7)?,
                        created: r.get(8)?,
                        updated: r.get(9)?,
                    })
                })
                .optional()
                .map_err(backend)?;
            out.extend(s);
        }
        out.sort_by(|a, b| b.updated.cmp(&a.updated).then(a.id.cmp(&b.id)));
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(id: &str) -> GameMeta {
        GameMeta {
            id: id.into(),
            rules: "kendall5".into(),
            options: vec!["cap=500".into()],
            seed: u64::MAX - 3,
            seed_hash: "h".into(),
            mode: "online".into(),
            seats: [Seat::Human, Seat::Bot("casual".into())],
            token_hashes: [Some("t1".into()), None],
            invite: Some("i".into()),
            created: 5,
            series: None,
            page_throws: false,
        }
    }

    fn snap(moves: u32) -> Snapshot {
        Snapshot {
            position: "p".into(),
            state: "throw".into(),
            player: Some(1),
            moves,
            updated: 7 + moves as i64,
            clock: None,
            deadline: None,
        }
    }

    #[test]
    fn games_round_trip_and_appends_are_sequence_checked() {
        let s = SqliteStore::in_memory().unwrap();
        s.create(&meta("a"), &[StoredEvent::Throw("3".into())], &snap(0))
            .unwrap();
        assert_eq!(s.create(&meta("a"), &[], &snap(0)), Err(StoreError::Exists));
        s.append("a", 1, &[StoredEvent::Move("1-4".into())], &snap(1))
            .unwrap();
        // A second writer that read the game before that append is refused, nothing changes.
        assert_eq!(
            s.append("a", 1, &[StoredEvent::Move("3-6".into())], &snap(1)),
            Err(StoreError::Conflict)
        );
        assert_eq!(
            s.append("a", 5, &[StoredEvent::Move("3-6".into())], &snap(1)),
            Err(StoreError::Conflict)
        );
        let g = s.load("a").unwrap().unwrap();
        assert_eq!(g.meta, meta("a"));
        assert_eq!(
            g.events,
            vec![
                StoredEvent::Throw("3".into()),
                StoredEvent::Move("1-4".into())
            ]
        );
        assert_eq!(s.load("zz").unwrap(), None);
        let l = s.summaries(&["zz".into(), "a".into()]).unwrap();
        assert_eq!(l.len(), 1);
        assert_eq!(l[0].moves, 1);
        assert_eq!(l[0].seats, ["human".to_string(), "bot:casual".to_string()]);
    }

    #[test]
    fn the_series_migration_keeps_existing_games() {
        // A database at schema version 1 (before series) with a game in it.
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(MIGRATIONS[0]).unwrap();
        conn.execute_batch("PRAGMA user_version = 1").unwrap();
        conn.execute(
            "INSERT INTO games (id, rules, options, seed, seed_hash, mode, seat1, seat2, token1,
                token2, created, updated, nevents, position, state, player, moves)
             VALUES ('old', 'kendall5', 'cap=500', 1, 'h', 'online', 'human', 'bot:casual', 't1',
                NULL, 5, 6, 1, 'p', 'move', 1, 0)",
            [],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO events (game, seq, kind, value) VALUES ('old', 0, 'throw', '3')",
            [],
        )
        .unwrap();
        let s = SqliteStore::init(conn).unwrap();
        let g = s.load("old").unwrap().unwrap();
        assert_eq!(g.meta.series, None);
        assert_eq!(g.meta.options, ["cap=500"]);
        assert_eq!(g.events, [StoredEvent::Throw("3".into())]);
        // New series and their games live beside it.
        let sm = SeriesMeta {
            id: "s1".into(),
            rules: "kendall5".into(),
            options: vec![],
            target: "points:3".into(),
            starts: "alternate".into(),
            mode: "online".into(),
            seats: [Seat::Human, Seat::Human],
            token_hashes: [Some("a".into()), Some("b".into())],
            created: 9,
        };
        let mut m = meta("g1");
        m.series = Some(SeriesLink {
            id: "s1".into(),
            index: 0,
            first: 1,
        });
        s.create_series(&sm, &m, &[], &snap(0)).unwrap();
        // The same place in the series cannot be taken twice.
        let mut m2 = meta("g2");
        m2.series = m.series.clone();
        assert_eq!(s.create(&m2, &[], &snap(0)), Err(StoreError::Exists));
        m2.series.as_mut().unwrap().index = 1;
        m2.series.as_mut().unwrap().first = 2;
        s.create(&m2, &[], &snap(0)).unwrap();
        let got = s.load_series("s1").unwrap().unwrap();
        assert_eq!(got.meta, sm);
        assert_eq!(
            got.games
                .iter()
                .map(|g| (g.id.as_str(), g.first))
                .collect::<Vec<_>>(),
            [("g1", 1), ("g2", 2)]
        );
        assert_eq!(s.load("g2").unwrap().unwrap().meta.series, m2.series);
        assert_eq!(s.load_series("zz").unwrap(), None);
    }

    fn temp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("senet-refuse-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(name);
        let _ = std::fs::remove_file(&p);
        p
    }

    #[test]
    fn files_that_are_not_senet_databases_are_refused_unchanged() {
        // Not SQLite at all.
        let text = temp("notes.txt");
        std::fs::write(&text, "my notes\n".repeat(500)).unwrap();
        let e = SqliteStore::open(&text).err().unwrap().to_string();
        assert!(e.contains("not a SQLite database"), "{e}");
        assert_eq!(
            std::fs::read(&text).unwrap(),
            "my notes\n".repeat(500).as_bytes()
        );
        // Another program's SQLite database, in rollback-journal mode.
        let other = temp("other.sqlite");
        {
            let c = Connection::open(&other).unwrap();
            c.execute_batch(
                "CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('a');",
            )
            .unwrap();
        }
        let before = std::fs::read(&other).unwrap();
        let e = SqliteStore::open(&other).err().unwrap().to_string();
        assert!(
            e.contains("not a senet one") && e.contains("contacts"),
            "{e}"
        );
        assert_eq!(std::fs::read(&other).unwrap(), before, "not a byte changed");
        let c = Connection::open(&other).unwrap();
        let mode: String = c
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "delete", "not switched to WAL");
        // A senet database damaged on disk fails the quick check at start.
        let bad = temp("bad.sqlite");
        {
            let s = SqliteStore::open(&bad).unwrap();
            for i in 0..300 {
                s.create(
                    &meta(&format!("g{i}")),
                    &[StoredEvent::Throw("3".into())],
                    &snap(0),
                )
                .unwrap();
            }
            let c = s.conn();
            c.execute_batch("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode=DELETE;")
                .unwrap();
        }
        let mut bytes = std::fs::read(&bad).unwrap();
        assert!(bytes.len() > 4 * 4096);
        for b in &mut bytes[2 * 4096 + 100..3 * 4096] {
            *b = 0x5a;
        }
        std::fs::write(&bad, &bytes).unwrap();
        let e = SqliteStore::open(&bad).err().unwrap().to_string();
        assert!(e.contains("refusing") && e.contains("bad.sqlite"), "{e}");
        // An empty file is a new database.
        let empty = temp("empty.sqlite");
        std::fs::write(&empty, b"").unwrap();
        SqliteStore::open(&empty).unwrap();
        std::fs::remove_dir_all(text.parent().unwrap()).unwrap();
    }

    #[test]
    fn a_file_database_is_migrated_once_and_survives_reopening() {
        let dir = std::env::temp_dir().join(format!("senet-store-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.sqlite");
        let _ = std::fs::remove_file(&path);
        {
            let s = SqliteStore::open(&path).unwrap();
            s.create(&meta("b"), &[], &snap(0)).unwrap();
        }
        let s = SqliteStore::open(&path).unwrap();
        assert_eq!(s.load("b").unwrap().unwrap().meta.id, "b");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
