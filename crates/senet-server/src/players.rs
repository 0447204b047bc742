//! What online play stores (issue 33, `docs/online.md`): players and their sessions, ratings
//! and their history, seeks, and the online columns of a game (its players, clock, result,
//! who is away, the rematch). Written once against [`Tx`], so SQLite and PostgreSQL behave
//! the same; every change that must happen once (a seek taken, a result, a rating update) is
//! a conditional update inside a transaction.

use crate::online::{ClockSpec, ClockState, Rating};
use crate::sql::{Row, Tx};
use crate::store::{Store, StoreError};

/// Issue 33's migration, the same text on SQLite and PostgreSQL (`BIGINT` and `DOUBLE
/// PRECISION` read as SQLite's integer and real); each store lists it among its migrations.
pub(crate) const MIGRATION: &str = "
-- Issue 33: players, sessions, ratings, seeks; games between players on a clock.
CREATE TABLE players (
    id       TEXT PRIMARY KEY,
    name     TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,   -- the name in lower case: names are unique without case
    password TEXT,                   -- Argon2id PHC string; NULL for an anonymous player
    created  BIGINT NOT NULL
);
CREATE TABLE sessions (
    token   TEXT PRIMARY KEY,        -- SHA-256 of the session's secret (the cookie)
    player  TEXT NOT NULL REFERENCES players(id),
    created BIGINT NOT NULL
);
CREATE INDEX sessions_player ON sessions(player);
CREATE TABLE ratings (
    player TEXT NOT NULL REFERENCES players(id),
    rules  TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    rd     DOUBLE PRECISION NOT NULL,
    vol    DOUBLE PRECISION NOT NULL,
    games  BIGINT NOT NULL,
    PRIMARY KEY (player, rules)
);
CREATE TABLE rating_history (
    player TEXT NOT NULL REFERENCES players(id),
    rules  TEXT NOT NULL,
    game   TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,  -- after the game
    rd     DOUBLE PRECISION NOT NULL,
    delta  DOUBLE PRECISION NOT NULL,  -- the change the game made
    at     BIGINT NOT NULL,
    PRIMARY KEY (player, game)
);
CREATE TABLE seeks (
    id      TEXT PRIMARY KEY,
    player  TEXT NOT NULL REFERENCES players(id),
    rules   TEXT NOT NULL,
    options TEXT NOT NULL,
    rated   BIGINT NOT NULL,
    clock   TEXT NOT NULL,
    pool    BIGINT NOT NULL,           -- 1: quick pairing's waiting player
    rating  DOUBLE PRECISION NOT NULL, -- the seeker's rating when seeking
    created BIGINT NOT NULL,           -- ms
    game    TEXT                       -- set once, when taken
);
CREATE INDEX seeks_open ON seeks(created) WHERE game IS NULL;
ALTER TABLE games ADD COLUMN player1 TEXT;
ALTER TABLE games ADD COLUMN player2 TEXT;
ALTER TABLE games ADD COLUMN clock TEXT;
ALTER TABLE games ADD COLUMN clock_state TEXT;
ALTER TABLE games ADD COLUMN deadline BIGINT;
ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN result TEXT;
ALTER TABLE games ADD COLUMN rated_done BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN rating_change TEXT;
ALTER TABLE games ADD COLUMN away1 BIGINT;
ALTER TABLE games ADD COLUMN away2 BIGINT;
ALTER TABLE games ADD COLUMN rematch_offer BIGINT;
ALTER TABLE games ADD COLUMN rematch_game TEXT;
CREATE INDEX games_deadline ON games(deadline) WHERE deadline IS NOT NULL;
CREATE INDEX games_player1 ON games(player1) WHERE player1 IS NOT NULL;
CREATE INDEX games_player2 ON games(player2) WHERE player2 IS NOT NULL;
";

/// Runs `f` in one transaction of `store` and returns what it returned.
pub fn run<T>(
    store: &dyn Store,
    mut f: impl FnMut(&mut dyn Tx) -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    let mut out = None;
    store.transaction(&mut |tx| {
        out = Some(f(tx)?);
        Ok(())
    })?;
    out.ok_or_else(|| StoreError::Backend("a transaction returned nothing".into()))
}

/// A player as stored (never with the password).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRow {
    /// The player's ID (public).
    pub id: String,
    /// The player's name.
    pub name: String,
    /// Whether the player has an account (a password).
    pub account: bool,
    /// Unix seconds.
    pub created: i64,
}

fn player_row(r: &Row) -> Result<PlayerRow, StoreError> {
    Ok(PlayerRow {
        id: r[0].need_text("players.id")?,
        name: r[1].need_text("players.name")?,
        account: r[2].text().is_some(),
        created: r[3].need_int("players.created")?,
    })
}

const PLAYER_COLS: &str = "p.id, p.name, p.password, p.created";

/// The name is taken (by a name equal without regard to case).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameTaken;

/// Creates an anonymous player named by `name(attempt)` (the next attempt when a name is
/// taken) with a session whose secret's SHA-256 is `session`.
pub fn create_player(
    store: &dyn Store,
    id: &str,
    name: impl Fn(u32) -> String,
    session: &str,
    now: i64,
) -> Result<PlayerRow, StoreError> {
    for attempt in 0..20 {
        let n = name(attempt);
        let made = run(store, |tx| {
            let taken = tx.rows(
                "SELECT 1 FROM players WHERE name_key = $1",
                &[crate::online::name_key(&n).into()],
            )?;
            if !taken.is_empty() {
                return Ok(false);
            }
            tx.exec(
                "INSERT INTO players (id, name, name_key, password, created) VALUES ($1, $2, $3, NULL, $4)",
                &[id.into(), (&n).into(), crate::online::name_key(&n).into(), now.into()],
            )?;
            tx.exec(
                "INSERT INTO sessions (token, player, created) VALUES ($1, $2, $3)",
                &[session.into(), id.into(), now.into()],
            )?;
            Ok(true)
        });
        match made {
            Ok(true) => {
                return Ok(PlayerRow {
                    id: id.into(),
                    name: n,
                    account: false,
                    created: now,
                })
            }
            Ok(false) => continue,
            // Two servers chose one name at once: the unique index refused the second.
            Err(StoreError::Backend(m)) if m.to_lowercase().contains("unique") => continue,
            Err(e) => return Err(e),
        }
    }
    Err(StoreError::Backend(
        "no free generated name in 20 tries".into(),
    ))
}

/// The player of a session (by the SHA-256 of its secret) that was used within
/// [`crate::moderation::SESSION_IDLE_S`] of `now` (unix seconds), with the session's last use.
pub fn session_player(
    store: &dyn Store,
    session: &str,
    now: i64,
) -> Result<Option<(PlayerRow, i64)>, StoreError> {
    run(store, |tx| {
        tx.rows(
            &format!(
                "SELECT {PLAYER_COLS}, COALESCE(s.seen, s.created) FROM sessions s JOIN players p ON p.id = s.player
                 WHERE s.token = $1 AND COALESCE(s.seen, s.created) >= $2"
            ),
            &[
                session.into(),
                (now - crate::moderation::SESSION_IDLE_S).into(),
            ],
        )?
        .first()
        .map(|r| Ok((player_row(r)?, r[4].need_int("sessions.seen")?)))
        .transpose()
    })
}

/// A player by name (without regard to case).
pub fn player_by_name(store: &dyn Store, name: &str) -> Result<Option<PlayerRow>, StoreError> {
    Ok(login_lookup(store, name)?.map(|(p, _)| p))
}

/// A player by name with the PHC string of its password, if it has one.
pub fn login_lookup(
    store: &dyn Store,
    name: &str,
) -> Result<Option<(PlayerRow, Option<String>)>, StoreError> {
    run(store, |tx| {
        tx.rows(
            &format!("SELECT {PLAYER_COLS} FROM players p WHERE p.name_key = $1"),
            &[crate::online::name_key(name).into()],
        )?
        .first()
        .map(|r| Ok((player_row(r)?, r[2].text().map(str::to_string))))
        .transpose()
    })
}

/// Renames a player and, with `password`, makes it an account (or changes its password).
/// Fails with [`NameTaken`] when another player has the name.
pub fn set_name_password(
    store: &dyn Store,
    id: &str,
    name: &str,
    password: Option<&str>,
) -> Result<Result<(), NameTaken>, StoreError> {
    let key = crate::online::name_key(name);
    let r = run(store, |tx| {
        let other = tx.rows(
            "SELECT id FROM players WHERE name_key = $1 AND id <> $2",
            &[(&key).into(), id.into()],
        )?;
        if !other.is_empty() {
            return Ok(Err(NameTaken));
        }
        tx.exec(
            "UPDATE players SET name = $1, name_key = $2, password = COALESCE($3, password) WHERE id = $4",
            &[name.into(), (&key).into(), password.into(), id.into()],
        )?;
        tx.notify("!lobby")?;
        Ok(Ok(()))
    });
    match r {
        Err(StoreError::Backend(m)) if m.to_lowercase().contains("unique") => Ok(Err(NameTaken)),
        r => r,
    }
}

/// Opens a session (secret's SHA-256 `session`) for a player.
pub fn new_session(
    store: &dyn Store,
    player: &str,
    session: &str,
    now: i64,
) -> Result<(), StoreError> {
    run(store, |tx| {
        tx.exec(
            "INSERT INTO sessions (token, player, created) VALUES ($1, $2, $3)",
            &[session.into(), player.into(), now.into()],
        )
        .map(|_| ())
    })
}

/// Ends one session, or (with `everywhere`) every session of its player but `keep`.
pub fn end_sessions(
    store: &dyn Store,
    player: &str,
    keep: Option<&str>,
) -> Result<u64, StoreError> {
    run(store, |tx| {
        tx.exec(
            "DELETE FROM sessions WHERE player = $1 AND token <> $2",
            &[player.into(), keep.unwrap_or("").into()],
        )
    })
}

/// Ends the session `session`.
pub fn end_session(store: &dyn Store, session: &str) -> Result<(), StoreError> {
    run(store, |tx| {
        tx.exec("DELETE FROM sessions WHERE token = $1", &[session.into()])
            .map(|_| ())
    })
}

/// A rating from the columns `rating, rd, vol, games` (the start's values where null).
pub(crate) fn rating_of_row(r: &[crate::sql::Val]) -> Rating {
    let d = Rating::default();
    Rating {
        rating: r[0].real().unwrap_or(d.rating),
        rd: r[1].real().unwrap_or(d.rd),
        vol: r[2].real().unwrap_or(d.vol),
        games: r[3].int().unwrap_or(d.games),
    }
}

/// A player's rating in one rule set (the starting rating when it has none).
pub fn rating(
    tx: &mut dyn Tx,
    player: &str,
    rules: &str,
    lock: bool,
) -> Result<Rating, StoreError> {
    let sql = format!(
        "SELECT rating, rd, vol, games FROM ratings WHERE player = $1 AND rules = $2{}",
        if lock { tx.for_update() } else { "" }
    );
    Ok(
        match tx.rows(&sql, &[player.into(), rules.into()])?.first() {
            Some(r) => rating_of_row(r),
            None => Rating::default(),
        },
    )
}

/// A player's ratings, by rule set.
pub fn ratings_of(store: &dyn Store, player: &str) -> Result<Vec<(String, Rating)>, StoreError> {
    run(store, |tx| {
        tx.rows(
            "SELECT rules, rating, rd, vol, games FROM ratings WHERE player = $1 ORDER BY games DESC, rules",
            &[player.into()],
        )?
        .iter()
        .map(|r| {
            Ok((
                r[0].need_text("ratings.rules")?,
                rating_of_row(&r[1..]),
            ))
        })
        .collect()
    })
}

/// One point of a rating's history.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryPoint {
    /// Rule set.
    pub rules: String,
    /// The game that made the change.
    pub game: String,
    /// The rating after it.
    pub rating: f64,
    /// The deviation after it.
    pub rd: f64,
    /// The change.
    pub delta: f64,
    /// Unix seconds.
    pub at: i64,
}

/// A player's rating history, oldest first.
pub fn history(store: &dyn Store, player: &str) -> Result<Vec<HistoryPoint>, StoreError> {
    run(store, |tx| {
        tx.rows(
            "SELECT rules, game, rating, rd, delta, at FROM rating_history WHERE player = $1 ORDER BY at, game",
            &[player.into()],
        )?
        .iter()
        .map(|r| {
            Ok(HistoryPoint {
                rules: r[0].need_text("rating_history.rules")?,
                game: r[1].need_text("rating_history.game")?,
                rating: r[2].real().unwrap_or(0.0),
                rd: r[3].real().unwrap_or(0.0),
                delta: r[4].real().unwrap_or(0.0),
                at: r[5].int().unwrap_or(0),
            })
        })
        .collect()
    })
}

/// The players with a settled rating in `rules`, best first.
pub fn leaderboard(
    store: &dyn Store,
    rules: &str,
    limit: i64,
) -> Result<Vec<(String, Rating)>, StoreError> {
    run(store, |tx| {
        tx.rows(
            "SELECT p.name, r.rating, r.rd, r.vol, r.games FROM ratings r JOIN players p ON p.id = r.player
             WHERE r.rules = $1 AND r.rd <= $2 AND p.banned IS NULL AND p.closed IS NULL ORDER BY r.rating DESC, p.name_key LIMIT $3",
            &[rules.into(), crate::online::PROVISIONAL_RD.into(), limit.into()],
        )?
        .iter()
        .map(|r| {
            Ok((
                r[0].need_text("players.name")?,
                rating_of_row(&r[1..]),
            ))
        })
        .collect()
    })
}

/// Names and ratings (in `rules`) of these players.
pub fn names_ratings(
    store: &dyn Store,
    ids: &[String],
    rules: &str,
) -> Result<Vec<(String, String, Rating)>, StoreError> {
    run(store, |tx| {
        let mut out = Vec::new();
        for id in ids {
            if let Some(r) = tx
                .rows("SELECT name FROM players WHERE id = $1", &[id.into()])?
                .first()
            {
                let name = r[0].need_text("players.name")?;
                out.push((id.clone(), name, rating(tx, id, rules, false)?));
            }
        }
        Ok(out)
    })
}

/// How an online game ended, beside what the rules say (`result` column: `REASON:WINNER`,
/// 0 for no winner).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The winning seat (1 or 2), or `None` for a draw or an aborted game.
    pub winner: Option<u8>,
    /// `rules`, `resign`, `flag`, `flag-draw`, `abort` or `claim`.
    pub reason: String,
}

impl GameResult {
    /// The stored form.
    pub fn text(&self) -> String {
        format!("{}:{}", self.reason, self.winner.unwrap_or(0))
    }

    /// Reads [`GameResult::text`].
    pub fn parse(s: &str) -> Result<GameResult, StoreError> {
        let bad = || StoreError::Corrupt(format!("bad result {s:?}"));
        let (reason, w) = s.rsplit_once(':').ok_or_else(bad)?;
        let w: u8 = w.parse().map_err(|_| bad())?;
        if w > 2 || !["rules", "resign", "flag", "flag-draw", "abort", "claim"].contains(&reason) {
            return Err(bad());
        }
        Ok(GameResult {
            winner: (w > 0).then_some(w),
            reason: reason.into(),
        })
    }
}

/// A game's online columns.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Online {
    /// The players of seats 1 and 2 (a game from a seek or a pairing has both).
    pub players: [Option<String>; 2],
    /// The clock, if the game has one.
    pub clock: Option<ClockSpec>,
    /// The clock's state as last stored.
    pub clock_state: Option<ClockState>,
    /// Whether the game is rated.
    pub rated: bool,
    /// How the game ended otherwise than by its rules (resign, flag, abort, claim).
    pub result: Option<GameResult>,
    /// The rating changes of seats 1 and 2 once applied.
    pub rating_change: Option<[i64; 2]>,
    /// Since when (ms) each seat has had no connection, if it left.
    pub away: [Option<i64>; 2],
    /// The seat offering a rematch.
    pub rematch_offer: Option<u8>,
    /// The rematch, once made.
    pub rematch_game: Option<String>,
    /// The tournament the game belongs to (issue 57).
    pub tournament: Option<String>,
}

/// The online columns of game `id` (defaults for a game that has none).
pub fn online_of(store: &dyn Store, id: &str) -> Result<Online, StoreError> {
    run(store, |tx| {
        let rows = tx.rows(
            "SELECT player1, player2, clock, clock_state, rated, result, rating_change, away1, away2,
                rematch_offer, rematch_game, tournament FROM games WHERE id = $1",
            &[id.into()],
        )?;
        let Some(r) = rows.first() else {
            return Ok(Online::default());
        };
        let corrupt = |m: String| StoreError::Corrupt(format!("{id}: {m}"));
        Ok(Online {
            players: [
                r[0].text().map(str::to_string),
                r[1].text().map(str::to_string),
            ],
            clock: r[2]
                .text()
                .map(ClockSpec::parse)
                .transpose()
                .map_err(corrupt)?,
            clock_state: r[3]
                .text()
                .map(ClockState::parse)
                .transpose()
                .map_err(corrupt)?,
            rated: r[4].int().unwrap_or(0) != 0,
            result: r[5].text().map(GameResult::parse).transpose()?,
            rating_change: r[6].text().and_then(|t| {
                let (a, b) = t.split_once(',')?;
                Some([a.parse().ok()?, b.parse().ok()?])
            }),
            away: [r[7].int(), r[8].int()],
            rematch_offer: r[9].int().and_then(|s| u8::try_from(s).ok()),
            rematch_game: r[10].text().map(str::to_string),
            tournament: r[11].text().map(str::to_string),
        })
    })
}

/// Sets a new game's online columns (players, clock, rated) in `tx`.
pub fn set_online(
    tx: &mut dyn Tx,
    id: &str,
    players: &[String; 2],
    clock: Option<(ClockSpec, ClockState)>,
    rated: bool,
) -> Result<(), StoreError> {
    let n = tx.exec(
        "UPDATE games SET player1 = $1, player2 = $2, clock = $3, clock_state = $4, deadline = $5, rated = $6
         WHERE id = $7",
        &[
            (&players[0]).into(),
            (&players[1]).into(),
            clock.map(|(s, _)| s.text()).into(),
            clock.map(|(_, c)| c.text()).into(),
            clock.and_then(|(_, c)| c.deadline()).into(),
            rated.into(),
            id.into(),
        ],
    )?;
    if n != 1 {
        return Err(StoreError::Backend(format!(
            "game {id} is not there to seat its players"
        )));
    }
    Ok(())
}

/// Deletes a game made for a seek or rematch that was taken by someone else first.
pub fn delete_game(store: &dyn Store, id: &str) -> Result<(), StoreError> {
    run(store, |tx| {
        tx.exec("DELETE FROM events WHERE game = $1", &[id.into()])?;
        tx.exec("DELETE FROM games WHERE id = $1", &[id.into()])?;
        Ok(())
    })
}

/// Ends game `id` at `nevents` events with `result` (once: only while it has no result and
/// no other event came), stopping its clock. Returns whether it did.
pub fn finish(
    store: &dyn Store,
    id: &str,
    nevents: u32,
    result: &GameResult,
    clock: Option<&ClockState>,
    now_s: i64,
) -> Result<bool, StoreError> {
    run(store, |tx| {
        let n = tx.exec(
            "UPDATE games SET result = $1, state = 'over', player = $2, clock_state = COALESCE($3, clock_state),
                deadline = NULL, updated = $4
             WHERE id = $5 AND nevents = $6 AND result IS NULL AND state <> 'over'",
            &[
                result.text().into(),
                result.winner.map(i64::from).into(),
                clock.map(ClockState::text).into(),
                now_s.into(),
                id.into(),
                (nevents as i64).into(),
            ],
        )?;
        if n == 1 {
            tx.notify(id)?;
        }
        Ok(n == 1)
    })
}

/// Games whose running clock ran out by `now` (ms).
pub fn due(store: &dyn Store, now: i64) -> Result<Vec<String>, StoreError> {
    run(store, |tx| {
        tx.rows(
            "SELECT id FROM games WHERE deadline IS NOT NULL AND deadline <= $1 AND result IS NULL
             ORDER BY deadline LIMIT 200",
            &[now.into()],
        )?
        .iter()
        .map(|r| r[0].need_text("games.id"))
        .collect()
    })
}

/// Finished rated games whose ratings are not applied yet.
pub fn unrated_finished(store: &dyn Store) -> Result<Vec<String>, StoreError> {
    run(store, |tx| {
        tx.rows(
            "SELECT id FROM games WHERE rated = 1 AND rated_done = 0 AND state = 'over' LIMIT 200",
            &[],
        )?
        .iter()
        .map(|r| r[0].need_text("games.id"))
        .collect()
    })
}

/// Applies a finished rated game to both players' ratings, once: returns the changes of
/// seats 1 and 2 when this call applied them, `None` when they were applied before or the
/// game is not a finished rated game between two players. An aborted game changes nothing.
pub fn apply_ratings(
    store: &dyn Store,
    id: &str,
    now_s: i64,
) -> Result<Option<[i64; 2]>, StoreError> {
    run(store, |tx| {
        let lock = tx.for_update();
        let rows = tx.rows(
            &format!(
                "SELECT rules, player1, player2, state, player, result, rated, rated_done FROM games WHERE id = $1{lock}"
            ),
            &[id.into()],
        )?;
        let Some(r) = rows.first() else {
            return Ok(None);
        };
        let (Some(p1), Some(p2)) = (r[1].text(), r[2].text()) else {
            return Ok(None);
        };
        if r[3].text() != Some("over") || r[6].int() != Some(1) || r[7].int() != Some(0) {
            return Ok(None);
        }
        let result = r[5].text().map(GameResult::parse).transpose()?;
        let winner = match &result {
            Some(g) => g.winner,
            None => r[4].int().and_then(|w| u8::try_from(w).ok()),
        };
        let rules = r[0].need_text("games.rules")?;
        let (p1, p2) = (p1.to_string(), p2.to_string());
        if result.as_ref().is_some_and(|g| g.reason == "abort") {
            tx.exec(
                "UPDATE games SET rated_done = 1 WHERE id = $1",
                &[id.into()],
            )?;
            return Ok(None);
        }
        // Rows locked in one order (by player ID), so two games ending at once never wait
        // on each other in a cycle.
        let (ra, rb) = if p1 <= p2 {
            let a = rating(tx, &p1, &rules, true)?;
            (a, rating(tx, &p2, &rules, true)?)
        } else {
            let b = rating(tx, &p2, &rules, true)?;
            (rating(tx, &p1, &rules, true)?, b)
        };
        let score = match winner {
            Some(1) => 1.0,
            Some(2) => 0.0,
            _ => 0.5,
        };
        let (na, nb) = crate::online::rate(ra, rb, score);
        let mut change = [0i64; 2];
        for (i, (p, old, new)) in [(&p1, ra, na), (&p2, rb, nb)].into_iter().enumerate() {
            change[i] = new.rating.round() as i64 - old.rating.round() as i64;
            tx.exec(
                "DELETE FROM ratings WHERE player = $1 AND rules = $2",
                &[p.into(), (&rules).into()],
            )?;
            tx.exec(
                "INSERT INTO ratings (player, rules, rating, rd, vol, games) VALUES ($1, $2, $3, $4, $5, $6)",
                &[p.into(), (&rules).into(), new.rating.into(), new.rd.into(), new.vol.into(), new.games.into()],
            )?;
            tx.exec(
                "INSERT INTO rating_history (player, rules, game, rating, rd, delta, at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                &[
                    p.into(),
                    (&rules).into(),
                    id.into(),
                    new.rating.into(),
                    new.rd.into(),
                    (new.rating - old.rating).into(),
                    now_s.into(),
                ],
            )?;
        }
        tx.exec(
            "UPDATE games SET rated_done = 1, rating_change = $1 WHERE id = $2",
            &[format!("{},{}", change[0], change[1]).into(), id.into()],
        )?;
        tx.notify(id)?;
        Ok(Some(change))
    })
}

/// Marks seat `seat` (1 or 2) of game `id` away since `since` (ms), or back (`None`).
pub fn set_away(
    store: &dyn Store,
    id: &str,
    seat: u8,
    since: Option<i64>,
) -> Result<(), StoreError> {
    let col = if seat == 1 { "away1" } else { "away2" };
    run(store, |tx| {
        tx.exec(
            &format!("UPDATE games SET {col} = $1 WHERE id = $2"),
            &[since.into(), id.into()],
        )?;
        tx.notify(id)
    })
}

/// What a rematch offer did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rematch {
    /// The offer stands; the other seat has not offered.
    Offered,
    /// Both offered: the caller makes game `new` (it was recorded as the rematch).
    Agreed,
    /// The rematch was already made: this game.
    Made(String),
}

/// Seat `seat` offers a rematch of game `id`; when the other seat had offered, records `new`
/// as the rematch (once).
pub fn offer_rematch(
    store: &dyn Store,
    id: &str,
    seat: u8,
    new: &str,
) -> Result<Rematch, StoreError> {
    run(store, |tx| {
        let lock = tx.for_update();
        let rows = tx.rows(
            &format!("SELECT rematch_offer, rematch_game FROM games WHERE id = $1{lock}"),
            &[id.into()],
        )?;
        let Some(r) = rows.first() else {
            return Err(StoreError::Corrupt(format!("{id}: no such game")));
        };
        if let Some(g) = r[1].text() {
            return Ok(Rematch::Made(g.to_string()));
        }
        match r[0].int() {
            Some(o) if o != seat as i64 => {
                tx.exec(
                    "UPDATE games SET rematch_game = $1 WHERE id = $2",
                    &[new.into(), id.into()],
                )?;
                tx.notify(id)?;
                Ok(Rematch::Agreed)
            }
            _ => {
                tx.exec(
                    "UPDATE games SET rematch_offer = $1 WHERE id = $2",
                    &[(seat as i64).into(), id.into()],
                )?;
                tx.notify(id)?;
                Ok(Rematch::Offered)
            }
        }
    })
}

/// An open seek (or, with `pool`, a player waiting in quick pairing).
#[derive(Clone, Debug, PartialEq)]
pub struct SeekRow {
    /// Seek ID.
    pub id: String,
    /// The seeker.
    pub player: String,
    /// Rule set ID.
    pub rules: String,
    /// Options as `NAME=VALUE`.
    pub options: Vec<String>,
    /// Rated or casual.
    pub rated: bool,
    /// The clock.
    pub clock: ClockSpec,
    /// Quick pairing's waiting player rather than a listed seek.
    pub pool: bool,
    /// The seeker's rating when seeking.
    pub rating: f64,
    /// When (ms).
    pub created: i64,
    /// A challenge (issue 57): the one player who may accept it; it is not listed among the
    /// lobby's seeks.
    pub target: Option<String>,
}

/// What [`create_seek`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeekMade {
    /// The seek is open.
    Made,
    /// The player has their most open seeks already.
    PlayerFull,
    /// The address has its most open seeks already.
    AddressFull,
    /// The player may not seek (banned, closed, removed).
    Refused(crate::moderation::Standing),
}

/// Opens a seek, unless the player has `max` open already, the client address `from.0` has
/// `from.1` open already (0: no limit), or the player is banned or closed (issue 56).
pub fn create_seek(
    store: &dyn Store,
    s: &SeekRow,
    max: i64,
    from: &(String, i64),
) -> Result<SeekMade, StoreError> {
    run(store, |tx| {
        let lock = tx.for_update();
        // Lock the seeker's row so that two seeks at once count each other.
        tx.rows(
            &format!("SELECT id FROM players WHERE id = $1{lock}"),
            &[(&s.player).into()],
        )?;
        let standing = crate::moderation::standing_tx(tx, &s.player)?;
        if standing != crate::moderation::Standing::Good {
            return Ok(SeekMade::Refused(standing));
        }
        let open = tx.rows(
            "SELECT count(*) FROM seeks WHERE player = $1 AND game IS NULL",
            &[(&s.player).into()],
        )?;
        if open.first().and_then(|r| r[0].int()).unwrap_or(0) >= max {
            return Ok(SeekMade::PlayerFull);
        }
        if from.1 > 0 && crate::moderation::open_seeks_from(tx, &from.0)? >= from.1 {
            return Ok(SeekMade::AddressFull);
        }
        tx.exec(
            "INSERT INTO seeks (id, player, rules, options, rated, clock, pool, rating, created, game, addr, target)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, NULL, $10, $11)",
            &[
                (&s.id).into(),
                (&s.player).into(),
                (&s.rules).into(),
                s.options.join(",").into(),
                s.rated.into(),
                s.clock.text().into(),
                s.pool.into(),
                s.rating.into(),
                s.created.into(),
                (&from.0).into(),
                s.target.clone().into(),
            ],
        )?;
        match &s.target {
            Some(t) => tx.notify(&format!("!challenge:{}:{t}", s.player))?,
            None => tx.notify("!lobby")?,
        }
        Ok(SeekMade::Made)
    })
}

/// The open seeks, oldest first.
pub fn open_seeks(store: &dyn Store) -> Result<Vec<SeekRow>, StoreError> {
    run(store, |tx| {
        tx.rows(
            "SELECT id, player, rules, options, rated, clock, pool, rating, created, target FROM seeks
             WHERE game IS NULL ORDER BY created, id",
            &[],
        )?
        .iter()
        .map(|r| {
            let options = r[3].need_text("seeks.options")?;
            Ok(SeekRow {
                id: r[0].need_text("seeks.id")?,
                player: r[1].need_text("seeks.player")?,
                rules: r[2].need_text("seeks.rules")?,
                options: options
                    .split(',')
                    .filter(|o| !o.is_empty())
                    .map(str::to_string)
                    .collect(),
                rated: r[4].int() == Some(1),
                clock: ClockSpec::parse(&r[5].need_text("seeks.clock")?)
                    .map_err(StoreError::Corrupt)?,
                pool: r[6].int() == Some(1),
                rating: r[7].real().unwrap_or(1500.0),
                created: r[8].need_int("seeks.created")?,
                target: r[9].text().map(str::to_string),
            })
        })
        .collect()
    })
}

/// Withdraws an open seek of `player` (or a challenge `player` made). Returns whether it
/// did.
pub fn cancel_seek(store: &dyn Store, id: &str, player: &str) -> Result<bool, StoreError> {
    withdraw(store, id, "player", player)
}

/// Declines an open challenge to `player`. Returns whether it did.
pub fn decline_challenge(store: &dyn Store, id: &str, player: &str) -> Result<bool, StoreError> {
    withdraw(store, id, "target", player)
}

/// Deletes open seek `id` whose column `who` (`player` or `target`) is `player`, and tells
/// the lobby (or the challenge's two players).
fn withdraw(store: &dyn Store, id: &str, who: &str, player: &str) -> Result<bool, StoreError> {
    run(store, |tx| {
        let rows = tx.rows(
            &format!(
                "SELECT player, target FROM seeks WHERE id = $1 AND {who} = $2 AND game IS NULL{}",
                tx.for_update()
            ),
            &[id.into(), player.into()],
        )?;
        let Some(r) = rows.first() else {
            return Ok(false);
        };
        let (from, to) = (
            r[0].need_text("seeks.player")?,
            r[1].text().map(str::to_string),
        );
        tx.exec("DELETE FROM seeks WHERE id = $1", &[id.into()])?;
        match to {
            Some(t) => tx.notify(&format!("!challenge:{from}:{t}"))?,
            None => tx.notify("!lobby")?,
        }
        Ok(true)
    })
}

/// Takes the seeks `ids` (one seek accepted, or two waiting players paired) for game `game`,
/// already created, and seats its players: all or nothing. Returns whether it did; when
/// another took a seek first, nothing changed (the caller deletes its game).
pub fn take_seeks(
    store: &dyn Store,
    ids: &[&str],
    game: &str,
    players: &[String; 2],
    clock: Option<(ClockSpec, ClockState)>,
    rated: bool,
) -> Result<bool, StoreError> {
    let r = run(store, |tx| {
        for id in ids {
            let n = tx.exec(
                "UPDATE seeks SET game = $1 WHERE id = $2 AND game IS NULL",
                &[game.into(), (*id).into()],
            )?;
            if n != 1 {
                // Roll back the seeks taken so far.
                return Err(StoreError::Conflict);
            }
        }
        set_online(tx, game, players, clock, rated)?;
        // The two have their game: their other open seeks go (as on lichess), so that nobody
        // is paired twice by seeks left behind.
        tx.exec(
            "DELETE FROM seeks WHERE game IS NULL AND player IN ($1, $2)",
            &[(&players[0]).into(), (&players[1]).into()],
        )?;
        tx.notify("!lobby")?;
        tx.notify(&format!("!paired:{game}:{}:{}", players[0], players[1]))?;
        Ok(())
    });
    match r {
        Ok(()) => Ok(true),
        Err(StoreError::Conflict) => Ok(false),
        Err(e) => Err(e),
    }
}

/// A game being played between two players.
#[derive(Clone, Debug, PartialEq)]
pub struct LiveRow {
    /// Game ID.
    pub id: String,
    /// Rule set ID.
    pub rules: String,
    /// The players of seats 1 and 2.
    pub players: [String; 2],
    /// The clock.
    pub clock: Option<ClockSpec>,
    /// Rated or casual.
    pub rated: bool,
    /// Moves played.
    pub moves: i64,
}

/// Games between players still being played, most recently changed first.
pub fn live_games(store: &dyn Store, limit: i64) -> Result<Vec<LiveRow>, StoreError> {
    run(store, |tx| {
        tx.rows(
            "SELECT id, rules, player1, player2, clock, rated, moves FROM games
             WHERE player1 IS NOT NULL AND player2 IS NOT NULL AND state <> 'over' AND result IS NULL
             ORDER BY updated DESC, id LIMIT $1",
            &[limit.into()],
        )?
        .iter()
        .map(|r| {
            Ok(LiveRow {
                id: r[0].need_text("games.id")?,
                rules: r[1].need_text("games.rules")?,
                players: [r[2].need_text("games.player1")?, r[3].need_text("games.player2")?],
                clock: r[4].text().map(ClockSpec::parse).transpose().map_err(StoreError::Corrupt)?,
                rated: r[5].int() == Some(1),
                moves: r[6].int().unwrap_or(0),
            })
        })
        .collect()
    })
}

/// A finished or running game of a player, for the player page.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerGame {
    /// Game ID.
    pub id: String,
    /// Rule set ID.
    pub rules: String,
    /// The player's seat (1 or 2).
    pub seat: u8,
    /// The other player.
    pub opponent: Option<String>,
    /// `throw`, `move` or `over`.
    pub state: String,
    /// The winner when over (by the rules or [`GameResult`]).
    pub winner: Option<u8>,
    /// The stored result, if the game ended otherwise than by its rules.
    pub result: Option<GameResult>,
    /// Rated or casual.
    pub rated: bool,
    /// The rating changes, once applied.
    pub change: Option<[i64; 2]>,
    /// Unix seconds of the last change.
    pub updated: i64,
}

/// A player's most recent games.
pub fn player_games(
    store: &dyn Store,
    player: &str,
    limit: i64,
) -> Result<Vec<PlayerGame>, StoreError> {
    run(store, |tx| {
        tx.rows(
            "SELECT id, rules, player1, player2, state, player, result, rated, rating_change, updated FROM games
             WHERE player1 = $1 OR player2 = $1 ORDER BY updated DESC, id LIMIT $2",
            &[player.into(), limit.into()],
        )?
        .iter()
        .map(|r| {
            let p1 = r[2].text().map(str::to_string);
            let p2 = r[3].text().map(str::to_string);
            let seat = if p1.as_deref() == Some(player) { 1 } else { 2 };
            let result = r[6].text().map(GameResult::parse).transpose()?;
            let state = r[4].need_text("games.state")?;
            Ok(PlayerGame {
                id: r[0].need_text("games.id")?,
                rules: r[1].need_text("games.rules")?,
                seat,
                opponent: if seat == 1 { p2 } else { p1 },
                winner: match &result {
                    Some(g) => g.winner,
                    None if state == "over" => r[5].int().and_then(|w| u8::try_from(w).ok()),
                    None => None,
                },
                state,
                result,
                rated: r[7].int() == Some(1),
                change: r[8].text().and_then(|t| {
                    let (a, b) = t.split_once(',')?;
                    Some([a.parse().ok()?, b.parse().ok()?])
                }),
                updated: r[9].int().unwrap_or(0),
            })
        })
        .collect()
    })
}

/// The sum over every player and rule set of (rating - 1500) and the sum of every recorded
/// change: equal when every change was applied exactly once (the load run checks it).
pub fn rating_sums(store: &dyn Store) -> Result<(f64, f64, i64), StoreError> {
    run(store, |tx| {
        let a = tx.rows(
            "SELECT COALESCE(SUM(rating - 1500), 0), COUNT(*) FROM ratings",
            &[],
        )?;
        let b = tx.rows("SELECT COALESCE(SUM(delta), 0) FROM rating_history", &[])?;
        Ok((
            a[0][0].real().unwrap_or(0.0),
            b[0][0].real().unwrap_or(0.0),
            a[0][1].int().unwrap_or(0),
        ))
    })
}

/// The games a player is seated in that are still being played, most recent first.
pub fn playing(store: &dyn Store, player: &str) -> Result<Vec<String>, StoreError> {
    run(store, |tx| {
        tx.rows(
            "SELECT id FROM games WHERE (player1 = $1 OR player2 = $1) AND state <> 'over'
             AND result IS NULL ORDER BY updated DESC, id LIMIT 20",
            &[player.into()],
        )?
        .iter()
        .map(|r| r[0].need_text("games.id"))
        .collect()
    })
}

/// Seat `seat` (1 or 2) of game `id` belongs to `player` (a bot game's or an invite game's
/// person who has a session), unless it already belongs to someone.
pub fn set_player(store: &dyn Store, id: &str, seat: u8, player: &str) -> Result<bool, StoreError> {
    let col = if seat == 1 { "player1" } else { "player2" };
    run(store, |tx| {
        let n = tx.exec(
            &format!("UPDATE games SET {col} = $1 WHERE id = $2 AND {col} IS NULL"),
            &[player.into(), id.into()],
        )?;
        if n == 1 {
            tx.notify(id)?;
        }
        Ok(n == 1)
    })
}

/// Withdraws the open seeks on a live clock (not correspondence) made before `before` (ms):
/// their seekers have most likely left. Returns how many.
pub fn expire_seeks(store: &dyn Store, before: i64) -> Result<u64, StoreError> {
    run(store, |tx| {
        let n = tx.exec(
            "DELETE FROM seeks WHERE game IS NULL AND clock NOT LIKE '%day%' AND created < $1",
            &[before.into()],
        )?;
        if n > 0 {
            tx.notify("!lobby")?;
        }
        Ok(n)
    })
}

/// The ratings (and deviations) the players of game `id` had after it, where the game's
/// ratings were applied: a finished game is shown with the ratings it made, not today's.
pub fn ratings_after(store: &dyn Store, id: &str) -> Result<Vec<(String, f64, f64)>, StoreError> {
    run(store, |tx| {
        tx.rows(
            "SELECT player, rating, rd FROM rating_history WHERE game = $1",
            &[id.into()],
        )?
        .iter()
        .map(|r| {
            Ok((
                r[0].need_text("rating_history.player")?,
                r[1].real().unwrap_or(0.0),
                r[2].real().unwrap_or(0.0),
            ))
        })
        .collect()
    })
}
