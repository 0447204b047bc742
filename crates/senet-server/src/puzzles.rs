//! What puzzles store (issue 57; its migration also adds the challenges' column, `seeks.target`): the puzzles (a position, its throw and every legal move's
//! win chance, made by `senet_bots::puzzle`), each with a Glicko-2 rating; each player's
//! puzzle rating; and each player's attempts, so that a puzzle counts once for a player and
//! the next one is one not seen yet. Written once against [`Tx`], as `crate::players` is:
//! SQLite and PostgreSQL behave the same, and a first attempt rates both sides exactly once
//! even with several servers.

use crate::online::{rate, Rating};
use crate::players::{rating_of_row, run};
use crate::sql::{Row, Tx};
use crate::store::{Store, StoreError};

/// Issue 57's migration, the same text on SQLite and PostgreSQL.
pub(crate) const MIGRATION: &str = "
-- Issue 57: puzzles with their ratings, players' puzzle ratings and attempts.
CREATE TABLE puzzles (
    id       TEXT PRIMARY KEY,          -- from the rule set and the position (the same puzzle has one ID everywhere)
    rules    TEXT NOT NULL,
    data     TEXT NOT NULL,             -- the puzzle as JSON (senet_bots::puzzle::Puzzle)
    themes   TEXT NOT NULL,             -- space-separated, with a space at each end
    rating   DOUBLE PRECISION NOT NULL,
    rd       DOUBLE PRECISION NOT NULL,
    vol      DOUBLE PRECISION NOT NULL,
    plays    BIGINT NOT NULL,
    solved   BIGINT NOT NULL,
    created  BIGINT NOT NULL
);
CREATE INDEX puzzles_rules_rating ON puzzles(rules, rating);
CREATE INDEX puzzles_rating ON puzzles(rating);
CREATE TABLE puzzle_ratings (
    player TEXT PRIMARY KEY REFERENCES players(id),
    rating DOUBLE PRECISION NOT NULL,
    rd     DOUBLE PRECISION NOT NULL,
    vol    DOUBLE PRECISION NOT NULL,
    games  BIGINT NOT NULL
);
CREATE TABLE puzzle_attempts (
    player TEXT NOT NULL REFERENCES players(id),
    puzzle TEXT NOT NULL REFERENCES puzzles(id),
    solved BIGINT NOT NULL,
    at     BIGINT NOT NULL,
    PRIMARY KEY (player, puzzle)
);
CREATE TABLE puzzle_mined (          -- finished games whose blunders were made puzzles
    game TEXT PRIMARY KEY,
    at   BIGINT NOT NULL
);
-- Challenges: a seek that one named player may accept (not listed in the lobby).
ALTER TABLE seeks ADD COLUMN target TEXT REFERENCES players(id);
CREATE INDEX seeks_target ON seeks(target) WHERE game IS NULL AND target IS NOT NULL;
";

/// A puzzle as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleRow {
    /// Its ID.
    pub id: String,
    /// Rule set ID.
    pub rules: String,
    /// The puzzle as JSON (`senet_bots::puzzle::Puzzle`).
    pub data: String,
    /// Its themes.
    pub themes: Vec<String>,
    /// Its rating.
    pub rating: Rating,
    /// How many players tried it (first attempts).
    pub plays: i64,
    /// How many of them solved it.
    pub solved: i64,
}

const COLS: &str = "id, rules, data, themes, rating, rd, vol, plays, solved";

fn row(r: &Row) -> Result<PuzzleRow, StoreError> {
    Ok(PuzzleRow {
        id: r[0].need_text("puzzles.id")?,
        rules: r[1].need_text("puzzles.rules")?,
        data: r[2].need_text("puzzles.data")?,
        themes: r[3]
            .need_text("puzzles.themes")?
            .split_whitespace()
            .map(str::to_string)
            .collect(),
        // rating, rd, vol, plays: a puzzle's rated games are its plays.
        rating: rating_of_row(&r[4..8]),
        plays: r[7].int().unwrap_or(0),
        solved: r[8].int().unwrap_or(0),
    })
}

/// A new puzzle to store: its ID, rule set, JSON and themes, and the rating it starts at.
pub struct NewPuzzle {
    /// Its ID.
    pub id: String,
    /// Rule set ID.
    pub rules: String,
    /// The puzzle as JSON.
    pub data: String,
    /// Its themes.
    pub themes: Vec<String>,
    /// Its starting rating.
    pub rating: f64,
}

/// Stores the puzzles not stored yet (by ID; another server may store the same ones at
/// once); how many were new.
pub fn insert(store: &dyn Store, puzzles: &[NewPuzzle], now: i64) -> Result<u64, StoreError> {
    run(store, |tx| {
        let mut n = 0;
        for p in puzzles {
            n += tx.exec(
                "INSERT INTO puzzles (id, rules, data, themes, rating, rd, vol, plays, solved, created)
                 VALUES ($1, $2, $3, $4, $5, 350.0, 0.06, 0, 0, $6) ON CONFLICT (id) DO NOTHING",
                &[
                    (&p.id).into(),
                    (&p.rules).into(),
                    (&p.data).into(),
                    format!(" {} ", p.themes.join(" ")).into(),
                    p.rating.into(),
                    now.into(),
                ],
            )?;
        }
        Ok(n)
    })
}

/// How many puzzles each rule set has.
pub fn counts(store: &dyn Store) -> Result<Vec<(String, i64)>, StoreError> {
    run(store, |tx| {
        tx.rows(
            "SELECT rules, COUNT(*) FROM puzzles GROUP BY rules ORDER BY rules",
            &[],
        )?
        .iter()
        .map(|r| Ok((r[0].need_text("puzzles.rules")?, r[1].need_int("count")?)))
        .collect()
    })
}

/// A puzzle by ID.
pub fn get(store: &dyn Store, id: &str) -> Result<Option<PuzzleRow>, StoreError> {
    run(store, |tx| {
        tx.rows(
            &format!("SELECT {COLS} FROM puzzles WHERE id = $1"),
            &[id.into()],
        )?
        .first()
        .map(row)
        .transpose()
    })
}

/// Up to `n` puzzles that `player` has not tried, of rule set `rules` (any when `None`) and
/// theme `theme` (any when `None`), nearest to `rating` first.
pub fn nearest_untried(
    store: &dyn Store,
    player: &str,
    rules: Option<&str>,
    theme: Option<&str>,
    rating: f64,
    n: i64,
) -> Result<Vec<PuzzleRow>, StoreError> {
    run(store, |tx| {
        // The filters are written into the statement (as 1 = 1 when absent) rather than
        // bound as NULL, whose type PostgreSQL cannot infer.
        let mut args = vec![player.into(), rating.into(), n.into()];
        let mut sql = format!(
            "SELECT {COLS} FROM puzzles p WHERE NOT EXISTS
               (SELECT 1 FROM puzzle_attempts a WHERE a.player = $1 AND a.puzzle = p.id)"
        );
        if let Some(r) = rules {
            args.push(r.into());
            sql += &format!(" AND p.rules = ${}", args.len());
        }
        if let Some(t) = theme {
            args.push(format!("% {t} %").into());
            sql += &format!(" AND p.themes LIKE ${}", args.len());
        }
        sql += " ORDER BY ABS(p.rating - $2), p.id LIMIT $3";
        tx.rows(&sql, &args)?.iter().map(row).collect()
    })
}

/// The puzzle of day `day` (days since 1970-01-01, UTC): the same on every server for a
/// given set of puzzles.
pub fn of_day(store: &dyn Store, day: i64) -> Result<Option<PuzzleRow>, StoreError> {
    run(store, |tx| {
        let total = tx.rows("SELECT COUNT(*) FROM puzzles", &[])?[0][0].need_int("count")?;
        if total == 0 {
            return Ok(None);
        }
        // A fixed scramble of the days: consecutive days do not give neighbouring IDs.
        let k = (day.wrapping_mul(0x9E37_79B9_7F4A_7C15_u64 as i64) as u64 % total as u64) as i64;
        tx.rows(
            &format!("SELECT {COLS} FROM puzzles ORDER BY id LIMIT 1 OFFSET $1"),
            &[k.into()],
        )?
        .first()
        .map(row)
        .transpose()
    })
}

/// A player's puzzle rating (the starting one before any attempt).
pub fn rating_of(tx: &mut dyn Tx, player: &str, lock: bool) -> Result<Rating, StoreError> {
    let sql = format!(
        "SELECT rating, rd, vol, games FROM puzzle_ratings WHERE player = $1{}",
        if lock { tx.for_update() } else { "" }
    );
    Ok(match tx.rows(&sql, &[player.into()])?.first() {
        Some(r) => rating_of_row(r),
        None => Rating::default(),
    })
}

/// A player's puzzle rating, read on its own.
pub fn player_rating(store: &dyn Store, player: &str) -> Result<Rating, StoreError> {
    run(store, |tx| rating_of(tx, player, false))
}

/// What an attempt did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Attempted {
    /// Whether this was the player's first attempt at the puzzle (only that one is rated).
    pub first: bool,
    /// The player's puzzle rating before and after.
    pub player: (Rating, Rating),
    /// The puzzle's rating before and after.
    pub puzzle: (Rating, Rating),
}

/// Records `player`'s attempt at puzzle `id`, `solved` or not: the first attempt rates the
/// player and the puzzle as one Glicko-2 game (the player wins by solving it); a later one
/// changes nothing. One transaction; `None` when there is no such puzzle.
pub fn attempt(
    store: &dyn Store,
    player: &str,
    id: &str,
    solved: bool,
    now: i64,
) -> Result<Option<Attempted>, StoreError> {
    run(store, |tx| {
        let lock = tx.for_update();
        let Some(p) = tx
            .rows(
                &format!("SELECT {COLS} FROM puzzles WHERE id = $1{lock}"),
                &[id.into()],
            )?
            .first()
            .map(row)
            .transpose()?
        else {
            return Ok(None);
        };
        let me = rating_of(tx, player, true)?;
        let first = tx
            .rows(
                "SELECT 1 FROM puzzle_attempts WHERE player = $1 AND puzzle = $2",
                &[player.into(), id.into()],
            )?
            .is_empty();
        if !first {
            return Ok(Some(Attempted {
                first,
                player: (me, me),
                puzzle: (p.rating, p.rating),
            }));
        }
        let (after, puzzle_after) = rate(me, p.rating, if solved { 1.0 } else { 0.0 });
        tx.exec(
            "INSERT INTO puzzle_attempts (player, puzzle, solved, at) VALUES ($1, $2, $3, $4)",
            &[player.into(), id.into(), solved.into(), now.into()],
        )?;
        tx.exec(
            "UPDATE puzzles SET rating = $2, rd = $3, vol = $4, plays = plays + 1, solved = solved + $5 WHERE id = $1",
            &[
                id.into(),
                puzzle_after.rating.into(),
                puzzle_after.rd.into(),
                puzzle_after.vol.into(),
                (solved as i64).into(),
            ],
        )?;
        tx.exec(
            "INSERT INTO puzzle_ratings (player, rating, rd, vol, games) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (player) DO UPDATE SET rating = $2, rd = $3, vol = $4, games = $5",
            &[
                player.into(),
                after.rating.into(),
                after.rd.into(),
                after.vol.into(),
                after.games.into(),
            ],
        )?;
        Ok(Some(Attempted {
            first,
            player: (me, after),
            puzzle: (p.rating, puzzle_after),
        }))
    })
}

/// Up to `limit` finished games whose blunders have not been looked at yet, newest first.
pub fn unmined(store: &dyn Store, limit: i64) -> Result<Vec<String>, StoreError> {
    run(store, |tx| {
        tx.rows(
            "SELECT g.id FROM games g WHERE g.state = 'over'
               AND NOT EXISTS (SELECT 1 FROM puzzle_mined m WHERE m.game = g.id)
             ORDER BY g.updated DESC, g.id LIMIT $1",
            &[limit.into()],
        )?
        .iter()
        .map(|r| r[0].need_text("games.id"))
        .collect()
    })
}

/// Notes that game `id`'s blunders were looked at (another server may have done it too).
pub fn mined(store: &dyn Store, id: &str, now: i64) -> Result<(), StoreError> {
    run(store, |tx| {
        tx.exec(
            "INSERT INTO puzzle_mined (game, at) VALUES ($1, $2) ON CONFLICT (game) DO NOTHING",
            &[id.into(), now.into()],
        )?;
        Ok(())
    })
}

/// Removes a player's puzzle rating and attempts (inside the transaction that removes the
/// player).
pub(crate) fn forget_player(tx: &mut dyn Tx, player: &str) -> Result<(), StoreError> {
    tx.exec(
        "DELETE FROM puzzle_attempts WHERE player = $1",
        &[player.into()],
    )?;
    tx.exec(
        "DELETE FROM puzzle_ratings WHERE player = $1",
        &[player.into()],
    )?;
    Ok(())
}

/// Every puzzle a player answered, oldest first: its ID, whether solved, when.
pub fn attempts_of(
    store: &dyn Store,
    player: &str,
) -> Result<Vec<(String, bool, i64)>, StoreError> {
    run(store, |tx| {
        tx.rows(
            "SELECT puzzle, solved, at FROM puzzle_attempts WHERE player = $1 ORDER BY at, puzzle",
            &[player.into()],
        )?
        .iter()
        .map(|r| {
            Ok((
                r[0].need_text("puzzle_attempts.puzzle")?,
                r[1].int() == Some(1),
                r[2].need_int("puzzle_attempts.at")?,
            ))
        })
        .collect()
    })
}

/// How many puzzles a player has tried and solved.
pub fn tried(store: &dyn Store, player: &str) -> Result<(i64, i64), StoreError> {
    run(store, |tx| {
        let r = tx.rows(
            "SELECT COUNT(*), CAST(COALESCE(SUM(solved), 0) AS BIGINT) FROM puzzle_attempts WHERE player = $1",
            &[player.into()],
        )?;
        Ok((r[0][0].need_int("count")?, r[0][1].int().unwrap_or(0)))
    })
}
