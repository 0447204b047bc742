//! `senet backup`: a consistent copy of a SQLite database while `senet serve` is serving it,
//! through SQLite's online backup API (rusqlite's `backup` feature).
//!
//! How it stays consistent without holding up the server: the server runs its file in WAL
//! mode ([`crate::sqlite`]), where a reader never blocks a writer. The backup opens a read
//! transaction on the source and keeps it open for the whole copy, so every page comes from
//! one snapshot: the database as it was when the backup began, every move acknowledged before
//! then included (an append is committed before it is answered), and nothing half-written
//! after. The server goes on committing into the WAL meanwhile. The pages are copied
//! [`Options::pages_per_step`] at a time with a short [`Options::pause`] between steps, so
//! the copy shares the disk and the processor with the server instead of taking them.
//! (Without the held snapshot, SQLite restarts a backup from its first page whenever another
//! connection writes between two steps, which a server busy with moves does all the time.)
//! A file that is not in WAL mode (one no server has opened) is copied in the same steps
//! without the held snapshot, since there a reader would block the writers; should writes
//! restart it [`MAX_RESTARTS`] times, the rest is copied in one step.
//!
//! The copy is written to a temporary file in the directory of `OUT`, checked (`PRAGMA
//! integrity_check`, a senet database of the same schema, every game holding the events
//! its row counts, and [`crate::SqliteStore::open`] accepting it), and only then renamed
//! into place: a failed backup never leaves a file at `OUT`. Restoring is serving the copy:
//! `senet serve --db OUT`.

use crate::{db_display, is_postgres, SqliteStore};
use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, OpenFlags};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How a backup proceeds.
#[derive(Clone, Debug)]
pub struct Options {
    /// Replace `OUT` if it exists (otherwise an existing `OUT` is refused).
    pub force: bool,
    /// Pages copied per step (SQLite's pages are 4 KiB by default).
    pub pages_per_step: i32,
    /// The pause between two steps.
    pub pause: Duration,
    /// How long the source may stay locked (busy) in all before the backup gives up.
    pub busy_limit: Duration,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            force: false,
            pages_per_step: 256,
            pause: Duration::from_millis(1),
            busy_limit: Duration::from_secs(30),
        }
    }
}

/// Restarts of a backup of a file not in WAL mode before the rest is copied in one step.
pub const MAX_RESTARTS: u32 = 3;

/// What a database file holds, as [`verify`] found it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Facts {
    /// Games stored.
    pub games: u64,
    /// Events (throws and moves) stored, over every game.
    pub events: u64,
    /// Its senet schema version (`PRAGMA user_version`: the migrations applied).
    pub schema: i64,
    /// Its size, bytes.
    pub bytes: u64,
}

/// What a backup copied.
#[derive(Clone, Debug)]
pub struct Copied {
    /// The copy as checked.
    pub facts: Facts,
    /// Pages copied (the source's page count in the snapshot).
    pub pages: u64,
    /// Whether the source was in WAL mode (copied from one held snapshot).
    pub wal: bool,
    /// Times SQLite restarted the copy because the source changed (only without WAL).
    pub restarts: u32,
    /// Whether [`SqliteStore::open`] checked the copy (not for a copy of an older schema,
    /// which it would migrate: `senet serve --db OUT` upgrades such a copy when it opens it).
    pub store_checked: bool,
    /// Wall time of the whole backup, checks included.
    pub elapsed: Duration,
}

impl Copied {
    /// The copy in words: games, events, size and time.
    pub fn summary(&self) -> String {
        format!(
            "{} games, {} events, {} ({} pages) in {:.2} s",
            self.facts.games,
            self.facts.events,
            size_in_words(self.facts.bytes),
            self.pages,
            self.elapsed.as_secs_f64()
        )
    }
}

/// `bytes` as KiB, MiB or GiB with one decimal (bytes below 1 KiB).
pub fn size_in_words(bytes: u64) -> String {
    let b = bytes as f64;
    match bytes {
        0..1024 => format!("{bytes} bytes"),
        1024..1_048_576 => format!("{:.1} KiB", b / 1024.0),
        1_048_576..1_073_741_824 => format!("{:.1} MiB", b / 1_048_576.0),
        _ => format!("{:.1} GiB", b / 1_073_741_824.0),
    }
}

/// Copies the SQLite database `db` to `out` (see the module documentation); an error says
/// in words what is wrong, and leaves nothing at `out`.
pub fn backup(db: &str, out: &Path, opts: &Options) -> Result<Copied, String> {
    let start = Instant::now();
    if is_postgres(db) {
        return Err(format!(
            "{} is a PostgreSQL database; senet backup copies a SQLite file. Back up PostgreSQL \
             with its own tools: pg_dump --format=custom --file=senet.dump DATABASE (restore \
             into an empty database with pg_restore --dbname DATABASE senet.dump)",
            db_display(db)
        ));
    }
    let src_path = Path::new(db);
    match std::fs::metadata(src_path) {
        Ok(m) if m.is_dir() => {
            return Err(format!("{db} is a directory, not a database file"));
        }
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(format!("{db} does not exist"));
        }
        Err(e) => return Err(format!("cannot read {db}: {e}")),
    }
    check_out(src_path, out, opts.force)?;

    let src = Connection::open_with_flags(
        src_path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| format!("cannot open {db}: {e}"))?;
    src.busy_timeout(Duration::from_secs(5))
        .map_err(|e| format!("cannot open {db}: {e}"))?;
    // The backup only reads the source.
    src.execute_batch("PRAGMA query_only = 1")
        .map_err(|e| format!("cannot open {db}: {e}"))?;
    let (_, schema) = senet_shape(&src, db)?;
    let current = this_schema_version()?;
    if schema > current {
        return Err(format!(
            "{db} has senet schema version {schema}, newer than this senet's ({current}); back \
             it up with the senet that serves it"
        ));
    }
    let mode: String = src
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .map_err(|e| format!("cannot read {db}: {e}"))?;
    let wal = mode.eq_ignore_ascii_case("wal");

    let dir = out_dir(out);
    let tmp = Temp::new(&dir, out);
    let mut dst = Connection::open_with_flags(
        &tmp.path,
        OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| format!("cannot create a file in {}: {e}", dir.display()))?;

    // WAL: one read transaction for the whole copy, so that every page comes from one
    // snapshot (the counts read here are that snapshot's).
    let snapshot = if wal {
        src.execute_batch("BEGIN")
            .map_err(|e| format!("cannot read {db}: {e}"))?;
        Some(counts(&src).map_err(|e| format!("cannot read {db}: {e}"))?)
    } else {
        None
    };
    let (pages, restarts) = copy_pages(&src, &mut dst, opts, wal)
        .map_err(|e| format!("the copy of {db} failed: {e}"))?;
    if wal {
        src.execute_batch("COMMIT")
            .map_err(|e| format!("cannot read {db}: {e}"))?;
    }
    drop(src);
    dst.close()
        .map_err(|(_, e)| format!("cannot finish the copy: {e}"))?;

    // The checks, on the temporary file.
    let facts = verify(&tmp.path).map_err(|e| format!("the copy of {db} is bad: {e}"))?;
    if facts.schema != schema {
        return Err(format!(
            "the copy of {db} has schema version {}, the source {schema}",
            facts.schema
        ));
    }
    if let Some((games, events)) = snapshot {
        if (games, events) != (facts.games, facts.events) {
            return Err(format!(
                "the copy of {db} holds {} games and {} events, its snapshot {games} and {events}",
                facts.games, facts.events
            ));
        }
    }
    let store_checked = facts.schema == current;
    if store_checked {
        // What `senet serve --db OUT` will do first; it changes nothing in a database of the
        // current schema.
        let store = SqliteStore::open(&tmp.path)
            .map_err(|e| format!("the copy of {db} is not a database senet serves: {e}"))?;
        drop(store);
        checkpoint(&tmp.path)?;
    }
    let facts = Facts {
        bytes: std::fs::metadata(&tmp.path)
            .map_err(|e| format!("cannot read the copy: {e}"))?
            .len(),
        ..facts
    };
    std::fs::File::open(&tmp.path)
        .and_then(|f| f.sync_all())
        .map_err(|e| format!("cannot write the copy to disk: {e}"))?;
    tmp.place(out, opts.force)?;
    Ok(Copied {
        facts,
        pages,
        wal,
        restarts,
        store_checked,
        elapsed: start.elapsed(),
    })
}

/// Checks the database file at `path` without changing it: `PRAGMA integrity_check`, a
/// senet database (the `games` and `events` tables, a schema version), and every game
/// holding as many events as its row says (the server writes both in one transaction, so a
/// torn copy would differ). Returns what it holds.
pub fn verify(path: &Path) -> Result<Facts, String> {
    let p = path.display().to_string();
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| format!("cannot open {p}: {e}"))?;
    conn.execute_batch("PRAGMA query_only = 1")
        .map_err(|e| format!("cannot open {p}: {e}"))?;
    let (_, schema) = senet_shape(&conn, &p)?;
    let problems: Vec<String> = conn
        .prepare("PRAGMA integrity_check")
        .and_then(|mut st| st.query_map([], |r| r.get(0))?.collect())
        .map_err(|e| format!("the integrity check of {p} failed: {e}"))?;
    if problems != ["ok"] {
        return Err(format!(
            "the integrity check (PRAGMA integrity_check) of {p} found damage: {}",
            problems.join("; ")
        ));
    }
    let torn: i64 = conn
        .query_row(
            "SELECT count(*) FROM games g
             LEFT JOIN (SELECT game, count(*) AS n FROM events GROUP BY game) e ON e.game = g.id
             WHERE g.nevents != coalesce(e.n, 0)",
            [],
            |r| r.get(0),
        )
        .map_err(|e| format!("cannot read {p}: {e}"))?;
    if torn != 0 {
        return Err(format!(
            "{p}: {torn} games hold a different number of events than their rows say"
        ));
    }
    let (games, events) = counts(&conn).map_err(|e| format!("cannot read {p}: {e}"))?;
    drop(conn);
    let bytes = std::fs::metadata(path)
        .map_err(|e| format!("cannot read {p}: {e}"))?
        .len();
    Ok(Facts {
        games,
        events,
        schema,
        bytes,
    })
}

/// The games and events `conn` holds.
fn counts(conn: &Connection) -> rusqlite::Result<(u64, u64)> {
    let games: i64 = conn.query_row("SELECT count(*) FROM games", [], |r| r.get(0))?;
    let events: i64 = conn.query_row("SELECT count(*) FROM events", [], |r| r.get(0))?;
    Ok((games as u64, events as u64))
}

/// Whether `conn` holds a senet database: its tables and schema version, or why not in
/// words (`name` is the file as the user wrote it). Reads only.
fn senet_shape(conn: &Connection, name: &str) -> Result<(Vec<String>, i64), String> {
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
        .and_then(|mut st| st.query_map([], |r| r.get(0))?.collect())
        .map_err(|e| match e {
            rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::NotADatabase => {
                format!("{name} is not a SQLite database, so not a senet one")
            }
            e => format!("{name} cannot be read as a SQLite database ({e})"),
        })?;
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(|e| format!("cannot read {name}: {e}"))?;
    if tables.is_empty() {
        return Err(format!(
            "{name} is an empty SQLite database, not a senet one (it holds no tables)"
        ));
    }
    if version < 1
        || !["events", "games"]
            .iter()
            .all(|t| tables.iter().any(|x| x == t))
    {
        return Err(format!(
            "{name} is a SQLite database but not a senet one (its tables: {})",
            tables.join(", ")
        ));
    }
    Ok((tables, version))
}

/// The schema version this senet writes: the `user_version` of a database
/// [`SqliteStore::open`] has just created (in a directory of its own under the system's
/// temporary directory, removed again).
fn this_schema_version() -> Result<i64, String> {
    static VERSION: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
    if let Some(v) = VERSION.get() {
        return Ok(*v);
    }
    let dir = std::env::temp_dir().join(format!(
        "senet-backup-schema-{}-{}",
        std::process::id(),
        unique()
    ));
    std::fs::create_dir_all(&dir).map_err(|e| {
        format!(
            "cannot create {} (to learn this senet's schema version): {e}",
            dir.display()
        )
    })?;
    let probe = dir.join("schema.sqlite");
    let v = SqliteStore::open(&probe)
        .map_err(|e| e.to_string())
        .and_then(|s| {
            drop(s);
            let c = Connection::open(&probe).map_err(|e| e.to_string())?;
            c.query_row("PRAGMA user_version", [], |r| r.get::<_, i64>(0))
                .map_err(|e| e.to_string())
        });
    let _ = std::fs::remove_dir_all(&dir);
    let v = v.map_err(|e| format!("cannot learn this senet's schema version: {e}"))?;
    Ok(*VERSION.get_or_init(|| v))
}

/// Copies every page of `src` to `dst`, `opts.pages_per_step` at a time with `opts.pause`
/// between steps; returns the pages copied and the restarts seen.
fn copy_pages(
    src: &Connection,
    dst: &mut Connection,
    opts: &Options,
    wal: bool,
) -> rusqlite::Result<(u64, u32)> {
    let b = Backup::new(src, dst)?;
    let step = opts.pages_per_step.max(1);
    let mut busy = Duration::ZERO;
    let mut restarts = 0;
    let mut last_remaining = i32::MAX;
    loop {
        // Not in WAL mode, a source that keeps changing restarts the copy; after
        // MAX_RESTARTS the rest goes in one step (it holds the lock only that long).
        let n = if !wal && restarts >= MAX_RESTARTS {
            -1
        } else {
            step
        };
        match b.step(n)? {
            StepResult::Done => break,
            StepResult::More => {
                let p = b.progress();
                if p.remaining > last_remaining {
                    restarts += 1;
                }
                last_remaining = p.remaining;
                std::thread::sleep(opts.pause);
            }
            StepResult::Busy | StepResult::Locked => {
                if busy >= opts.busy_limit {
                    return Err(rusqlite::Error::SqliteFailure(
                        rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_BUSY),
                        Some(format!(
                            "the database stayed locked for {} s",
                            opts.busy_limit.as_secs()
                        )),
                    ));
                }
                let wait = Duration::from_millis(10);
                std::thread::sleep(wait);
                busy += wait;
            }
            _ => std::thread::sleep(opts.pause),
        }
    }
    Ok((b.progress().pagecount.max(0) as u64, restarts))
}

/// Folds a WAL that opening the copy may have left back into the file, so that the file
/// alone is the copy.
fn checkpoint(path: &Path) -> Result<(), String> {
    let c = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| format!("cannot open the copy: {e}"))?;
    c.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
        .map_err(|e| format!("cannot finish the copy: {e}"))?;
    c.close()
        .map_err(|(_, e)| format!("cannot finish the copy: {e}"))?;
    let wal = sidecar(path, "-wal");
    if std::fs::metadata(&wal).is_ok_and(|m| m.len() > 0) {
        return Err(format!(
            "the copy's write-ahead log {} was not folded into it",
            wal.display()
        ));
    }
    Ok(())
}

/// The directory `out` goes in.
fn out_dir(out: &Path) -> PathBuf {
    match out.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Refuses an `out` that cannot be written: its directory missing, a directory, the source
/// itself, or an existing file without `force`.
fn check_out(src: &Path, out: &Path, force: bool) -> Result<(), String> {
    let o = out.display();
    let dir = out_dir(out);
    match std::fs::metadata(&dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => {
            return Err(format!(
                "{} is not a directory, so {o} cannot go in it",
                dir.display()
            ))
        }
        Err(_) => {
            return Err(format!(
                "the directory {} does not exist; create it first, or name another place for {o}",
                dir.display()
            ))
        }
    }
    match std::fs::metadata(out) {
        Ok(m) if m.is_dir() => Err(format!(
            "{o} is a directory; name the file to write, e.g. {}",
            out.join("senet-backup.sqlite").display()
        )),
        Ok(_) => {
            let same = match (std::fs::canonicalize(src), std::fs::canonicalize(out)) {
                (Ok(a), Ok(b)) => a == b,
                _ => false,
            };
            if same {
                Err(format!("{o} is the database itself; name another file"))
            } else if force {
                Ok(())
            } else {
                Err(format!(
                    "{o} exists already; give --force to replace it, or name another file"
                ))
            }
        }
        Err(_) => Ok(()),
    }
}

/// A number that differs between calls and processes (the temporary file's name).
fn unique() -> u128 {
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed) as u128;
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    t.wrapping_mul(31).wrapping_add(n)
}

/// `path` with `suffix` appended to its name (`-wal`, `-shm`, `-journal`).
fn sidecar(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_os_string();
    s.push(suffix);
    PathBuf::from(s)
}

/// The copy under way: a hidden file beside `OUT`, removed with its SQLite side files
/// unless it was put in place.
struct Temp {
    path: PathBuf,
}

impl Temp {
    fn new(dir: &Path, out: &Path) -> Temp {
        let name = out
            .file_name()
            .map_or("backup".into(), |n| n.to_string_lossy().into_owned());
        Temp {
            path: dir.join(format!(
                ".{name}.senet-backup-{}-{}.tmp",
                std::process::id(),
                unique()
            )),
        }
    }

    /// Moves the copy to `out`: a rename over it with `force`, else a hard link that fails
    /// if `out` appeared meanwhile (a rename where links are not supported); then makes the
    /// directory entry durable.
    fn place(self, out: &Path, force: bool) -> Result<(), String> {
        let o = out.display();
        if force {
            std::fs::rename(&self.path, out).map_err(|e| format!("cannot write {o}: {e}"))?;
        } else {
            match std::fs::hard_link(&self.path, out) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    return Err(format!(
                        "{o} appeared while the backup ran; give --force to replace it"
                    ));
                }
                Err(_) if !out.exists() => {
                    std::fs::rename(&self.path, out)
                        .map_err(|e| format!("cannot write {o}: {e}"))?;
                }
                Err(e) => return Err(format!("cannot write {o}: {e}")),
            }
        }
        // Drop removes what is left under the temporary name (the link's other name).
        drop(self);
        if let Ok(d) = std::fs::File::open(out_dir(out)) {
            let _ = d.sync_all();
        }
        Ok(())
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        for suffix in ["", "-journal", "-wal", "-shm"] {
            let _ = std::fs::remove_file(sidecar(&self.path, suffix));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{GameMeta, Seat, Snapshot, StoredEvent};
    use crate::Store;

    fn dir(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("senet-backup-unit-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn meta(id: &str) -> GameMeta {
        GameMeta {
            id: id.into(),
            rules: "kendall5".into(),
            options: vec![],
            seed: 7,
            seed_hash: "h".into(),
            mode: "hotseat".into(),
            seats: [Seat::Human, Seat::Human],
            token_hashes: [None, None],
            invite: None,
            created: 1,
            series: None,
            page_throws: false,
        }
    }

    fn snap() -> Snapshot {
        Snapshot {
            position: "p".into(),
            state: "throw".into(),
            player: Some(1),
            moves: 0,
            updated: 1,
            clock: None,
            deadline: None,
        }
    }

    #[test]
    fn a_copy_holds_what_the_source_holds_and_refusals_are_in_words() {
        let d = dir("words");
        let src = d.join("live.sqlite");
        let store = SqliteStore::open(&src).unwrap();
        for i in 0..5 {
            let id = format!("g{i}");
            store.create(&meta(&id), &[], &snap()).unwrap();
            let ev = [
                StoredEvent::Throw("3".into()),
                StoredEvent::Move("pass".into()),
            ];
            store.append(&id, 0, &ev, &snap()).unwrap();
        }
        let out = d.join("copy.sqlite");
        let c = backup(src.to_str().unwrap(), &out, &Options::default()).unwrap();
        assert_eq!((c.facts.games, c.facts.events), (5, 10));
        assert!(c.wal && c.store_checked, "{c:?}");
        assert_eq!(verify(&out).unwrap().games, 5);
        assert!(
            c.summary().starts_with("5 games, 10 events, "),
            "{}",
            c.summary()
        );
        let copy = SqliteStore::open(&out).unwrap();
        assert_eq!(copy.load("g3").unwrap().unwrap().events.len(), 2);
        drop(copy);

        let s = src.to_str().unwrap();
        let err = |db: &str, out: &Path, force: bool| {
            backup(
                db,
                out,
                &Options {
                    force,
                    ..Options::default()
                },
            )
            .unwrap_err()
        };
        let e = err(s, &out, false);
        assert!(e.contains("exists already; give --force"), "{e}");
        assert!(backup(
            s,
            &out,
            &Options {
                force: true,
                ..Options::default()
            }
        )
        .is_ok());
        let e = err(s, &src, true);
        assert!(e.contains("is the database itself"), "{e}");
        let e = err(s, &d, true);
        assert!(e.contains("is a directory; name the file"), "{e}");
        let e = err(s, &d.join("no/such/dir/copy.sqlite"), false);
        assert!(e.contains("does not exist; create it first"), "{e}");
        let e = err(
            d.join("missing.sqlite").to_str().unwrap(),
            &d.join("x"),
            false,
        );
        assert!(e.ends_with("missing.sqlite does not exist"), "{e}");
        let e = err("postgres://senet@localhost/senet", &d.join("x"), false);
        assert!(e.contains("pg_dump"), "{e}");

        // Not SQLite, SQLite of something else, empty, newer than this senet.
        let text = d.join("notes.txt");
        std::fs::write(
            &text,
            "not a database, just some words that fill a page".repeat(40),
        )
        .unwrap();
        let e = err(text.to_str().unwrap(), &d.join("x"), false);
        assert!(e.contains("is not a SQLite database"), "{e}");
        let other = d.join("other.sqlite");
        Connection::open(&other)
            .unwrap()
            .execute_batch("CREATE TABLE contacts (name TEXT)")
            .unwrap();
        let e = err(other.to_str().unwrap(), &d.join("x"), false);
        assert!(e.contains("not a senet one (its tables: contacts)"), "{e}");
        let empty = d.join("empty.sqlite");
        std::fs::write(&empty, "").unwrap();
        let e = err(empty.to_str().unwrap(), &d.join("x"), false);
        assert!(e.contains("is an empty SQLite database"), "{e}");
        let newer = d.join("newer.sqlite");
        std::fs::copy(&out, &newer).unwrap();
        Connection::open(&newer)
            .unwrap()
            .execute_batch("PRAGMA user_version = 999")
            .unwrap();
        let e = err(newer.to_str().unwrap(), &d.join("x"), false);
        assert!(
            e.contains("schema version 999, newer than this senet's"),
            "{e}"
        );
        // No refusal left a file behind.
        let mut left: Vec<String> = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with('.') || n == "x")
            .collect();
        left.sort();
        assert!(left.is_empty(), "{left:?}");
        drop(store);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_file_not_in_wal_mode_is_copied_too() {
        let d = dir("rollback");
        let src = d.join("old.sqlite");
        let store = SqliteStore::open(&src).unwrap();
        store.create(&meta("a"), &[], &snap()).unwrap();
        drop(store);
        Connection::open(&src)
            .unwrap()
            .execute_batch("PRAGMA journal_mode=DELETE")
            .unwrap();
        let out = d.join("copy.sqlite");
        let c = backup(src.to_str().unwrap(), &out, &Options::default()).unwrap();
        assert!(!c.wal);
        assert_eq!(c.facts.games, 1);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn sizes_in_words() {
        assert_eq!(size_in_words(512), "512 bytes");
        assert_eq!(size_in_words(2048), "2.0 KiB");
        assert_eq!(size_in_words(5 * 1_048_576 + 524_288), "5.5 MiB");
    }
}
