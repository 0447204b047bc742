//! Running senet in public (issue 56, `docs/deploy.md`): what is stored for moderation and
//! retention, written once against [`crate::sql::Tx`] like [`crate::players`], so SQLite and
//! PostgreSQL behave the same and `senet admin` (which opens the database directly) and the
//! servers change the same rows.
//!
//! - Reports: a player reports another (a reason, maybe a game); an operator lists them and
//!   marks them dealt with.
//! - Bans: a banned player's sessions end and open seeks go; they can neither seek nor be
//!   paired (checked inside the transaction that makes a seek, so on every server at once).
//! - Closing an account (by the operator, or by the player: deleting it): the name is
//!   replaced by `deleted-` and a part of the ID, the password and sessions go, the games
//!   stay (the other players' records and ratings depend on them), and the player leaves the
//!   leaderboard.
//! - Retention: sessions end after [`SESSION_IDLE_S`] unused; an anonymous player with no
//!   game, no account and no report is removed [`ANONYMOUS_IDLE_S`] after it was last used.

use crate::players::{run, PlayerRow};
use crate::sql::{Row, Tx};
use crate::store::{Store, StoreError};

/// Issue 56's migration, the same text on SQLite and PostgreSQL.
pub(crate) const MIGRATION: &str = "
-- Issue 56: moderation, retention, limits per address.
ALTER TABLE players ADD COLUMN seen BIGINT;       -- unix s: a session of the player last used
ALTER TABLE players ADD COLUMN banned BIGINT;     -- unix s when banned; NULL: not banned
ALTER TABLE players ADD COLUMN ban_reason TEXT;
ALTER TABLE players ADD COLUMN closed BIGINT;     -- unix s when the account was closed
ALTER TABLE sessions ADD COLUMN seen BIGINT;      -- unix s: last used; NULL: not since created
ALTER TABLE seeks ADD COLUMN addr TEXT;           -- the seeker's client address
CREATE INDEX seeks_addr ON seeks(addr) WHERE game IS NULL;
CREATE TABLE reports (
    id       TEXT PRIMARY KEY,
    reporter TEXT NOT NULL REFERENCES players(id),
    reported TEXT NOT NULL REFERENCES players(id),
    game     TEXT,
    reason   TEXT NOT NULL,
    created  BIGINT NOT NULL,                     -- unix s
    resolved BIGINT,                              -- unix s when dealt with
    note     TEXT                                 -- the operator's note
);
CREATE INDEX reports_open ON reports(created) WHERE resolved IS NULL;
CREATE INDEX reports_reported ON reports(reported);
";

/// A session unused this long (seconds) ends: 30 days.
pub const SESSION_IDLE_S: i64 = 30 * 86_400;
/// An anonymous player with no game, no account and no report is removed this long
/// (seconds) after a session of theirs was last used: 3 days.
pub const ANONYMOUS_IDLE_S: i64 = 3 * 86_400;
/// A session's (and its player's) last use is written at most this often (seconds), so that
/// reading a session costs no write.
pub const SEEN_EVERY_S: i64 = 3_600;
/// Open reports one player may have filed in the last day.
pub const REPORTS_PER_DAY: i64 = 10;
/// The longest report reason, in characters.
pub const REASON_MAX: usize = 500;

/// What a player's standing forbids, read fresh from the database.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// May play, seek and be paired.
    Good,
    /// Banned by the operator.
    Banned,
    /// The account was closed (by the operator or by the player).
    Closed,
    /// No such player (removed).
    Gone,
}

/// The standing of player `id` inside a transaction.
pub fn standing_tx(tx: &mut dyn Tx, id: &str) -> Result<Standing, StoreError> {
    let rows = tx.rows(
        "SELECT banned, closed FROM players WHERE id = $1",
        &[id.into()],
    )?;
    Ok(match rows.first() {
        None => Standing::Gone,
        Some(r) if r[1].int().is_some() => Standing::Closed,
        Some(r) if r[0].int().is_some() => Standing::Banned,
        Some(_) => Standing::Good,
    })
}

/// The standing of player `id`.
pub fn standing(store: &dyn Store, id: &str) -> Result<Standing, StoreError> {
    run(store, |tx| standing_tx(tx, id))
}

/// Notes that a session (and its player) was used at `now`, when last written more than
/// [`SEEN_EVERY_S`] ago (`seen` is what was read with the session).
pub fn touch(
    store: &dyn Store,
    session: &str,
    player: &str,
    seen: Option<i64>,
    now: i64,
) -> Result<(), StoreError> {
    if seen.is_some_and(|s| now - s < SEEN_EVERY_S) {
        return Ok(());
    }
    run(store, |tx| {
        tx.exec(
            "UPDATE sessions SET seen = $1 WHERE token = $2",
            &[now.into(), session.into()],
        )?;
        tx.exec(
            "UPDATE players SET seen = $1 WHERE id = $2",
            &[now.into(), player.into()],
        )?;
        Ok(())
    })
}

/// What [`expire`] removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Expired {
    /// Sessions unused for longer than the session's idle time.
    pub sessions: u64,
    /// Anonymous players with no game, account or report, unused for longer than theirs.
    pub players: u64,
}

/// Removes sessions unused for `session_idle` seconds and anonymous players with no game,
/// no account and no report unused for `anonymous_idle` seconds (with their sessions and
/// open seeks), as of `now` (unix seconds). One transaction.
pub fn expire(
    store: &dyn Store,
    now: i64,
    session_idle: i64,
    anonymous_idle: i64,
) -> Result<Expired, StoreError> {
    run(store, |tx| {
        let sessions = tx.exec(
            "DELETE FROM sessions WHERE COALESCE(seen, created) < $1",
            &[(now - session_idle).into()],
        )?;
        let gone: Vec<String> = tx
            .rows(
                "SELECT p.id FROM players p
                 WHERE p.password IS NULL AND COALESCE(p.seen, p.created) < $1
                   AND NOT EXISTS (SELECT 1 FROM games g WHERE g.player1 = p.id OR g.player2 = p.id)
                   AND NOT EXISTS (SELECT 1 FROM reports r WHERE r.reporter = p.id OR r.reported = p.id)
                   AND NOT EXISTS (SELECT 1 FROM seeks k WHERE k.player = p.id AND k.game IS NOT NULL)
                   AND NOT EXISTS (SELECT 1 FROM tournament_players t WHERE t.player = p.id)
                   AND NOT EXISTS (SELECT 1 FROM tournaments t WHERE t.creator = p.id)
                 LIMIT 10000",
                &[(now - anonymous_idle).into()],
            )?
            .iter()
            .map(|r| r[0].need_text("players.id"))
            .collect::<Result<_, _>>()?;
        let mut sessions = sessions;
        let mut lobby = false;
        for id in &gone {
            sessions += tx.exec("DELETE FROM sessions WHERE player = $1", &[id.into()])?;
            lobby |= tx.exec("DELETE FROM seeks WHERE player = $1", &[id.into()])? > 0;
            // Challenges made to the player (issue 57) go too.
            tx.exec("DELETE FROM seeks WHERE target = $1", &[id.into()])?;
            tx.exec("DELETE FROM ratings WHERE player = $1", &[id.into()])?;
            crate::puzzles::forget_player(tx, id)?;
            tx.exec("DELETE FROM players WHERE id = $1", &[id.into()])?;
        }
        if lobby {
            tx.notify("!lobby")?;
        }
        Ok(Expired {
            sessions,
            players: gone.len() as u64,
        })
    })
}

/// A report as stored, with the names as they are now.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ReportRow {
    /// The report's ID.
    pub id: String,
    /// Who reported (name).
    pub reporter: String,
    /// Who was reported (name).
    pub reported: String,
    /// The reported player's ID.
    pub reported_id: String,
    /// The game it is about, if any.
    pub game: Option<String>,
    /// The reason given.
    pub reason: String,
    /// Unix seconds.
    pub created: i64,
    /// Unix seconds when dealt with.
    pub resolved: Option<i64>,
    /// The operator's note.
    pub note: Option<String>,
    /// Whether the reported player is banned now.
    pub banned: bool,
}

/// Why a report was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReportRefused {
    /// No player has that name.
    NoSuchPlayer,
    /// A player cannot report themselves.
    Themselves,
    /// The game does not exist or the reported player did not play in it.
    NotTheirGame,
    /// [`REPORTS_PER_DAY`] filed in the last day.
    TooMany,
}

/// Files a report by `reporter` about the player named `name` (maybe about `game`).
pub fn report(
    store: &dyn Store,
    id: &str,
    reporter: &str,
    name: &str,
    game: Option<&str>,
    reason: &str,
    now: i64,
) -> Result<Result<String, ReportRefused>, StoreError> {
    let key = crate::online::name_key(name);
    run(store, |tx| {
        let Some(reported) = tx
            .rows(
                "SELECT id FROM players WHERE name_key = $1",
                &[(&key).into()],
            )?
            .first()
            .map(|r| r[0].need_text("players.id"))
            .transpose()?
        else {
            return Ok(Err(ReportRefused::NoSuchPlayer));
        };
        if reported == reporter {
            return Ok(Err(ReportRefused::Themselves));
        }
        if let Some(g) = game {
            let played = tx.rows(
                "SELECT 1 FROM games WHERE id = $1 AND (player1 = $2 OR player2 = $2)",
                &[g.into(), (&reported).into()],
            )?;
            if played.is_empty() {
                return Ok(Err(ReportRefused::NotTheirGame));
            }
        }
        let recent = tx.rows(
            "SELECT count(*) FROM reports WHERE reporter = $1 AND created >= $2",
            &[reporter.into(), (now - 86_400).into()],
        )?;
        if recent.first().and_then(|r| r[0].int()).unwrap_or(0) >= REPORTS_PER_DAY {
            return Ok(Err(ReportRefused::TooMany));
        }
        tx.exec(
            "INSERT INTO reports (id, reporter, reported, game, reason, created, resolved, note)
             VALUES ($1, $2, $3, $4, $5, $6, NULL, NULL)",
            &[
                id.into(),
                reporter.into(),
                (&reported).into(),
                game.into(),
                reason.into(),
                now.into(),
            ],
        )?;
        Ok(Ok(id.to_string()))
    })
}

fn report_row(r: &Row) -> Result<ReportRow, StoreError> {
    Ok(ReportRow {
        id: r[0].need_text("reports.id")?,
        reporter: r[1].need_text("players.name")?,
        reported: r[2].need_text("players.name")?,
        reported_id: r[3].need_text("reports.reported")?,
        game: r[4].text().map(str::to_string),
        reason: r[5].need_text("reports.reason")?,
        created: r[6].need_int("reports.created")?,
        resolved: r[7].int(),
        note: r[8].text().map(str::to_string),
        banned: r[9].int().is_some(),
    })
}

const REPORT_SELECT: &str = "SELECT r.id, a.name, b.name, r.reported, r.game, r.reason, r.created, r.resolved, r.note, b.banned
     FROM reports r JOIN players a ON a.id = r.reporter JOIN players b ON b.id = r.reported";

/// The reports, oldest first: only those not dealt with unless `all`.
pub fn reports(store: &dyn Store, all: bool) -> Result<Vec<ReportRow>, StoreError> {
    run(store, |tx| {
        let filter = if all { "" } else { " WHERE r.resolved IS NULL" };
        tx.rows(
            &format!("{REPORT_SELECT}{filter} ORDER BY r.created, r.id"),
            &[],
        )?
        .iter()
        .map(report_row)
        .collect()
    })
}

/// The reports filed by player `id`, oldest first.
pub fn reports_by(store: &dyn Store, id: &str) -> Result<Vec<ReportRow>, StoreError> {
    run(store, |tx| {
        tx.rows(
            &format!("{REPORT_SELECT} WHERE r.reporter = $1 ORDER BY r.created, r.id"),
            &[id.into()],
        )?
        .iter()
        .map(report_row)
        .collect()
    })
}

/// Marks report `id` dealt with (with the operator's note). Returns whether it was open.
pub fn resolve(
    store: &dyn Store,
    id: &str,
    note: Option<&str>,
    now: i64,
) -> Result<bool, StoreError> {
    run(store, |tx| {
        Ok(tx.exec(
            "UPDATE reports SET resolved = $1, note = $2 WHERE id = $3 AND resolved IS NULL",
            &[now.into(), note.into(), id.into()],
        )? > 0)
    })
}

/// A player found by name for the operator: the row, and its ban and closing times.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The player.
    pub player: PlayerRow,
    /// When banned (unix seconds).
    pub banned: Option<i64>,
    /// The ban's reason.
    pub ban_reason: Option<String>,
    /// When the account was closed (unix seconds).
    pub closed: Option<i64>,
}

/// A player by name (without regard to case) or by ID.
pub fn find(store: &dyn Store, name_or_id: &str) -> Result<Option<Found>, StoreError> {
    let key = crate::online::name_key(name_or_id);
    run(store, |tx| {
        tx.rows(
            "SELECT id, name, password, created, banned, ban_reason, closed FROM players
             WHERE name_key = $1 OR id = $2 ORDER BY CASE WHEN id = $2 THEN 0 ELSE 1 END LIMIT 1",
            &[(&key).into(), name_or_id.into()],
        )?
        .first()
        .map(|r| {
            Ok(Found {
                player: PlayerRow {
                    id: r[0].need_text("players.id")?,
                    name: r[1].need_text("players.name")?,
                    account: r[2].text().is_some(),
                    created: r[3].need_int("players.created")?,
                },
                banned: r[4].int(),
                ban_reason: r[5].text().map(str::to_string),
                closed: r[6].int(),
            })
        })
        .transpose()
    })
}

/// Ends every session and withdraws every open seek of player `id` (inside a transaction).
fn end_everything(tx: &mut dyn Tx, id: &str) -> Result<(), StoreError> {
    tx.exec("DELETE FROM sessions WHERE player = $1", &[id.into()])?;
    // They are paired in no tournament again (issue 57).
    crate::tournaments::withdraw_everywhere(tx, id)?;
    if tx.exec(
        "DELETE FROM seeks WHERE player = $1 AND game IS NULL",
        &[id.into()],
    )? > 0
    {
        tx.notify("!lobby")?;
    }
    Ok(())
}

/// Bans player `id` (`reason` kept for the operator): their sessions end and their open
/// seeks go. Returns whether they were not banned already.
pub fn ban(store: &dyn Store, id: &str, reason: &str, now: i64) -> Result<bool, StoreError> {
    run(store, |tx| {
        let n = tx.exec(
            "UPDATE players SET banned = $1, ban_reason = $2 WHERE id = $3 AND banned IS NULL",
            &[now.into(), reason.into(), id.into()],
        )?;
        end_everything(tx, id)?;
        Ok(n > 0)
    })
}

/// Lifts a ban. Returns whether the player was banned.
pub fn unban(store: &dyn Store, id: &str) -> Result<bool, StoreError> {
    run(store, |tx| {
        Ok(tx.exec(
            "UPDATE players SET banned = NULL, ban_reason = NULL WHERE id = $1 AND banned IS NOT NULL",
            &[id.into()],
        )? > 0)
    })
}

/// The name a closed account takes: `deleted-` and the first 8 characters of its ID.
pub fn closed_name(id: &str) -> String {
    let part: String = id.chars().take(8).collect();
    format!("deleted-{part}")
}

/// Closes player `id`'s account: the name becomes [`closed_name`], the password, sessions
/// and open seeks go; the games, ratings and reports stay. Returns the new name, or `None`
/// when it was closed already.
pub fn close(store: &dyn Store, id: &str, now: i64) -> Result<Option<String>, StoreError> {
    let name = closed_name(id);
    let key = crate::online::name_key(&name);
    run(store, |tx| {
        let n = tx.exec(
            "UPDATE players SET name = $1, name_key = $2, password = NULL, closed = $3
             WHERE id = $4 AND closed IS NULL",
            &[(&name).into(), (&key).into(), now.into(), id.into()],
        )?;
        if n == 0 {
            return Ok(None);
        }
        end_everything(tx, id)?;
        Ok(Some(name.clone()))
    })
}

/// A session of a player, for the player's own data: when made and last used.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SessionRow {
    /// Unix seconds.
    pub created: i64,
    /// Unix seconds, when known.
    pub seen: Option<i64>,
}

/// The sessions of player `id`.
pub fn sessions_of(store: &dyn Store, id: &str) -> Result<Vec<SessionRow>, StoreError> {
    run(store, |tx| {
        tx.rows(
            "SELECT created, seen FROM sessions WHERE player = $1 ORDER BY created",
            &[id.into()],
        )?
        .iter()
        .map(|r| {
            Ok(SessionRow {
                created: r[0].need_int("sessions.created")?,
                seen: r[1].int(),
            })
        })
        .collect()
    })
}

/// Open seeks from client address `addr` now (on every server sharing the database).
pub fn open_seeks_from(tx: &mut dyn Tx, addr: &str) -> Result<i64, StoreError> {
    Ok(tx
        .rows(
            "SELECT count(*) FROM seeks WHERE addr = $1 AND game IS NULL",
            &[addr.into()],
        )?
        .first()
        .and_then(|r| r[0].int())
        .unwrap_or(0))
}
