//! What tournaments store, and the rules they are run by (issue 57, `docs/tournaments.md`).
//!
//! Three kinds: an **arena** (lichess style: for a set time, a player whose game ended is
//! paired again at once; a win is 2 points, a draw 1, and after two wins in a row each
//! win is worth 4 and a draw 2 until a game is not won), and a **round-robin** or **Swiss**
//! event among invited players (a win 1, a draw ½, a bye 1; Swiss pairs players of equal
//! score who have not met).
//!
//! Every pairing is a *wave*: a round of a round-robin or Swiss event, or one pairing of the
//! arena's free players. A wave is decided once, even with several servers on one database:
//! its games are written in the transaction that moves the tournament's wave counter from
//! the value its pairing was computed on ([`claim_wave`]); a server that computed on a stale
//! counter writes nothing and throws its games away. Standings are never stored: they are
//! derived from the tournament's finished games ([`standings`]), so they cannot disagree
//! with them.

use crate::online::ClockSpec;
use crate::players::{run, set_online};
use crate::sql::{Row, Tx};
use crate::store::{Store, StoreError};
use std::collections::{HashMap, HashSet};

/// Issue 57's second migration, the same text on SQLite and PostgreSQL.
pub(crate) const MIGRATION: &str = "
-- Issue 57: tournaments, their players and byes; a tournament's games are ordinary games.
CREATE TABLE tournaments (
    id       TEXT PRIMARY KEY,
    name     TEXT NOT NULL,
    kind     TEXT NOT NULL,             -- arena, round-robin or swiss
    creator  TEXT NOT NULL REFERENCES players(id),
    rules    TEXT NOT NULL,
    options  TEXT NOT NULL,             -- NAME=VALUE, comma-separated
    clock    TEXT NOT NULL,             -- crate::online::ClockSpec::text
    rated    BIGINT NOT NULL,
    minutes  BIGINT NOT NULL,           -- an arena's length (0 for the others)
    rounds   BIGINT NOT NULL,           -- rounds planned (0 for an arena)
    starts   BIGINT NOT NULL,           -- ms
    state    TEXT NOT NULL,             -- created, running, over or cancelled
    round    BIGINT NOT NULL,           -- waves paired so far (see claim_wave)
    created  BIGINT NOT NULL            -- s
);
CREATE INDEX tournaments_state ON tournaments(state);
CREATE TABLE tournament_players (
    tournament TEXT NOT NULL REFERENCES tournaments(id),
    player     TEXT NOT NULL REFERENCES players(id),
    invited    BIGINT NOT NULL,         -- 1: invited to a round-robin or Swiss event
    joined     BIGINT,                  -- ms; NULL while an invitation is not accepted
    active     BIGINT NOT NULL,         -- 0: left (an arena: paused; the others: withdrawn)
    PRIMARY KEY (tournament, player)
);
CREATE INDEX tournament_players_player ON tournament_players(player);
CREATE TABLE tournament_byes (
    tournament TEXT NOT NULL REFERENCES tournaments(id),
    round      BIGINT NOT NULL,
    player     TEXT NOT NULL REFERENCES players(id),
    PRIMARY KEY (tournament, round, player)
);
ALTER TABLE games ADD COLUMN tournament TEXT;
ALTER TABLE games ADD COLUMN tround BIGINT;
CREATE INDEX games_tournament ON games(tournament) WHERE tournament IS NOT NULL;
";

/// A tournament's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Paired again as soon as a game ends, for a set time.
    Arena,
    /// Everyone plays everyone once.
    RoundRobin,
    /// A set number of rounds, players of equal score paired.
    Swiss,
}

impl Kind {
    /// `arena`, `round-robin` or `swiss`.
    pub fn text(self) -> &'static str {
        match self {
            Kind::Arena => "arena",
            Kind::RoundRobin => "round-robin",
            Kind::Swiss => "swiss",
        }
    }

    /// Reads [`Kind::text`].
    pub fn parse(s: &str) -> Option<Kind> {
        [Kind::Arena, Kind::RoundRobin, Kind::Swiss]
            .into_iter()
            .find(|k| k.text() == s)
    }

    /// Points of a win, a draw and a bye in units (an arena's points; halves of a point in
    /// the others).
    fn units(self) -> (i64, i64, i64) {
        match self {
            Kind::Arena => (2, 1, 0),
            Kind::RoundRobin | Kind::Swiss => (2, 1, 2),
        }
    }

    /// Units per point shown.
    pub fn per_point(self) -> f64 {
        match self {
            Kind::Arena => 1.0,
            Kind::RoundRobin | Kind::Swiss => 2.0,
        }
    }
}

/// A tournament as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentRow {
    /// Its ID.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its kind.
    pub kind: Kind,
    /// The player who made it.
    pub creator: String,
    /// Rule set ID.
    pub rules: String,
    /// Options as `NAME=VALUE`.
    pub options: Vec<String>,
    /// The clock of every game.
    pub clock: ClockSpec,
    /// Whether its games are rated.
    pub rated: bool,
    /// An arena's length in minutes (0 for the others).
    pub minutes: i64,
    /// Rounds planned (0 for an arena; a round-robin's are set when it starts).
    pub rounds: i64,
    /// When it starts (ms).
    pub starts: i64,
    /// `created`, `running`, `over` or `cancelled`.
    pub state: String,
    /// Waves paired so far: an arena's pairings, the others' rounds.
    pub round: i64,
    /// Unix seconds.
    pub created: i64,
}

impl TournamentRow {
    /// When an arena ends (ms): no pairing after it; the games under way are played out.
    pub fn ends(&self) -> Option<i64> {
        (self.kind == Kind::Arena).then(|| self.starts + self.minutes * 60_000)
    }
}

const COLS: &str =
    "id, name, kind, creator, rules, options, clock, rated, minutes, rounds, starts, state, round, created";

fn row(r: &Row) -> Result<TournamentRow, StoreError> {
    let kind = r[2].need_text("tournaments.kind")?;
    let options = r[5].need_text("tournaments.options")?;
    Ok(TournamentRow {
        id: r[0].need_text("tournaments.id")?,
        name: r[1].need_text("tournaments.name")?,
        kind: Kind::parse(&kind)
            .ok_or_else(|| StoreError::Corrupt(format!("bad tournament kind {kind:?}")))?,
        creator: r[3].need_text("tournaments.creator")?,
        rules: r[4].need_text("tournaments.rules")?,
        options: options
            .split(',')
            .filter(|o| !o.is_empty())
            .map(str::to_string)
            .collect(),
        clock: ClockSpec::parse(&r[6].need_text("tournaments.clock")?)
            .map_err(StoreError::Corrupt)?,
        rated: r[7].int() == Some(1),
        minutes: r[8].need_int("tournaments.minutes")?,
        rounds: r[9].need_int("tournaments.rounds")?,
        starts: r[10].need_int("tournaments.starts")?,
        state: r[11].need_text("tournaments.state")?,
        round: r[12].need_int("tournaments.round")?,
        created: r[13].need_int("tournaments.created")?,
    })
}

/// Stores a new tournament, with its creator and the `invited` players (round-robin and
/// Swiss) as its players: the creator joined, the invited not yet.
pub fn create(
    store: &dyn Store,
    t: &TournamentRow,
    invited: &[String],
    now_ms: i64,
) -> Result<(), StoreError> {
    run(store, |tx| {
        tx.exec(
            &format!(
                "INSERT INTO tournaments ({COLS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)"
            ),
            &[
                (&t.id).into(),
                (&t.name).into(),
                t.kind.text().into(),
                (&t.creator).into(),
                (&t.rules).into(),
                t.options.join(",").into(),
                t.clock.text().into(),
                t.rated.into(),
                t.minutes.into(),
                t.rounds.into(),
                t.starts.into(),
                (&t.state).into(),
                t.round.into(),
                t.created.into(),
            ],
        )?;
        insert_player(tx, &t.id, &t.creator, t.kind != Kind::Arena, Some(now_ms))?;
        for p in invited {
            insert_player(tx, &t.id, p, true, None)?;
        }
        tx.notify(&format!("!tournament:{}", t.id))?;
        Ok(())
    })
}

fn insert_player(
    tx: &mut dyn Tx,
    id: &str,
    player: &str,
    invited: bool,
    joined: Option<i64>,
) -> Result<(), StoreError> {
    tx.exec(
        "INSERT INTO tournament_players (tournament, player, invited, joined, active) VALUES ($1, $2, $3, $4, 1)",
        &[id.into(), player.into(), invited.into(), joined.into()],
    )?;
    Ok(())
}

/// Tournament `id`.
pub fn get(store: &dyn Store, id: &str) -> Result<Option<TournamentRow>, StoreError> {
    run(store, |tx| {
        tx.rows(
            &format!("SELECT {COLS} FROM tournaments WHERE id = $1"),
            &[id.into()],
        )?
        .first()
        .map(row)
        .transpose()
    })
}

/// Tournaments not yet over (soonest first), then the `recent` last finished.
pub fn list(store: &dyn Store, recent: i64) -> Result<Vec<TournamentRow>, StoreError> {
    run(store, |tx| {
        let mut out: Vec<TournamentRow> = tx
            .rows(
                &format!(
                    "SELECT {COLS} FROM tournaments WHERE state IN ('created', 'running') ORDER BY starts, id LIMIT 200"
                ),
                &[],
            )?
            .iter()
            .map(row)
            .collect::<Result<_, _>>()?;
        for r in tx.rows(
            &format!(
                "SELECT {COLS} FROM tournaments WHERE state IN ('over', 'cancelled') ORDER BY starts DESC, id LIMIT $1"
            ),
            &[recent.into()],
        )? {
            out.push(row(&r)?);
        }
        Ok(out)
    })
}

/// Tournaments not yet over that `player` is invited to and has not answered.
pub fn invitations(store: &dyn Store, player: &str) -> Result<Vec<TournamentRow>, StoreError> {
    let cols = COLS
        .split(", ")
        .map(|c| format!("t.{c}"))
        .collect::<Vec<_>>()
        .join(", ");
    run(store, |tx| {
        tx.rows(
            &format!(
                "SELECT {cols} FROM tournaments t JOIN tournament_players p ON p.tournament = t.id
                 WHERE p.player = $1 AND p.joined IS NULL AND t.state = 'created' ORDER BY t.starts, t.id"
            ),
            &[player.into()],
        )?
        .iter()
        .map(row)
        .collect()
    })
}

/// The tournaments `player` made or is a player of (invitations included), latest first.
pub fn of_player(store: &dyn Store, player: &str) -> Result<Vec<TournamentRow>, StoreError> {
    run(store, |tx| {
        tx.rows(
            &format!(
                "SELECT {COLS} FROM tournaments t WHERE t.creator = $1 OR EXISTS
                   (SELECT 1 FROM tournament_players p WHERE p.tournament = t.id AND p.player = $1)
                 ORDER BY t.starts DESC, t.id LIMIT 1000"
            ),
            &[player.into()],
        )?
        .iter()
        .map(row)
        .collect()
    })
}

/// How many tournaments not yet over `player` made.
pub fn open_made_by(store: &dyn Store, player: &str) -> Result<i64, StoreError> {
    run(store, |tx| {
        Ok(tx
            .rows(
                "SELECT COUNT(*) FROM tournaments WHERE creator = $1 AND state IN ('created', 'running')",
                &[player.into()],
            )?
            .first()
            .and_then(|r| r[0].int())
            .unwrap_or(0))
    })
}

/// A tournament's player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    /// Player ID.
    pub player: String,
    /// Invited to a round-robin or Swiss event.
    pub invited: bool,
    /// When they joined (ms), `None` while an invitation is unanswered.
    pub joined: Option<i64>,
    /// Still playing (an arena's paused players and the others' withdrawn are not).
    pub active: bool,
}

/// The players of tournament `id`, in the order they joined (invitations unanswered last).
pub fn entrants(store: &dyn Store, id: &str) -> Result<Vec<Entrant>, StoreError> {
    run(store, |tx| {
        tx.rows(
            "SELECT player, invited, joined, active FROM tournament_players WHERE tournament = $1
             ORDER BY joined IS NULL, joined, player",
            &[id.into()],
        )?
        .iter()
        .map(|r| {
            Ok(Entrant {
                player: r[0].need_text("tournament_players.player")?,
                invited: r[1].int() == Some(1),
                joined: r[2].int(),
                active: r[3].int() == Some(1),
            })
        })
        .collect()
    })
}

/// A tournament's game as its standings need it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TGame {
    /// Game ID.
    pub id: String,
    /// The wave it was paired in.
    pub round: i64,
    /// The players of seats 1 and 2.
    pub players: [String; 2],
    /// Finished.
    pub over: bool,
    /// The winning seat when over (`None`: a draw, or aborted).
    pub winner: Option<u8>,
    /// Aborted (no move by one side): it counts for nobody.
    pub aborted: bool,
    /// When it last changed (Unix seconds): when it ended, once over.
    pub updated: i64,
}

/// The games of tournament `id`, in the order they were paired.
pub fn games(store: &dyn Store, id: &str) -> Result<Vec<TGame>, StoreError> {
    run(store, |tx| {
        tx.rows(
            "SELECT id, tround, player1, player2, state, player, result, updated FROM games
             WHERE tournament = $1 ORDER BY tround, id",
            &[id.into()],
        )?
        .iter()
        .map(|r| {
            let over = r[4].text() == Some("over");
            let result = r[6]
                .text()
                .map(crate::players::GameResult::parse)
                .transpose()?;
            Ok(TGame {
                id: r[0].need_text("games.id")?,
                round: r[1].need_int("games.tround")?,
                players: [
                    r[2].need_text("games.player1")?,
                    r[3].need_text("games.player2")?,
                ],
                over,
                winner: if over {
                    r[5].int().and_then(|w| u8::try_from(w).ok())
                } else {
                    None
                },
                aborted: result.is_some_and(|g| g.reason == "abort"),
                updated: r[7].int().unwrap_or(0),
            })
        })
        .collect()
    })
}

/// The byes of tournament `id`: (round, player).
pub fn byes(store: &dyn Store, id: &str) -> Result<Vec<(i64, String)>, StoreError> {
    run(store, |tx| {
        tx.rows(
            "SELECT round, player FROM tournament_byes WHERE tournament = $1 ORDER BY round, player",
            &[id.into()],
        )?
        .iter()
        .map(|r| {
            Ok((
                r[0].need_int("tournament_byes.round")?,
                r[1].need_text("tournament_byes.player")?,
            ))
        })
        .collect()
    })
}

/// Tournament `id`, its row locked until `tx` ends (PostgreSQL; SQLite's transaction holds
/// the only write lock already).
fn locked(tx: &mut dyn Tx, id: &str) -> Result<Option<TournamentRow>, StoreError> {
    tx.rows(
        &format!(
            "SELECT {COLS} FROM tournaments WHERE id = $1{}",
            tx.for_update()
        ),
        &[id.into()],
    )?
    .first()
    .map(row)
    .transpose()
}

/// What [`join`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Joined {
    /// Joined (or back from a pause).
    Yes,
    /// No such tournament.
    Missing,
    /// Not open to this player now, and why.
    Refused(String),
}

/// `player` joins tournament `id`: an arena anyone may join (or come back to) until it
/// ends; a round-robin or Swiss event only its invited players, before it starts.
pub fn join(store: &dyn Store, id: &str, player: &str, now_ms: i64) -> Result<Joined, StoreError> {
    run(store, |tx| {
        let Some(t) = locked(tx, id)? else {
            return Ok(Joined::Missing);
        };
        let me = tx.rows(
            "SELECT joined, active FROM tournament_players WHERE tournament = $1 AND player = $2",
            &[id.into(), player.into()],
        )?;
        let ended =
            t.state == "over" || t.state == "cancelled" || t.ends().is_some_and(|e| now_ms >= e);
        if ended {
            return Ok(Joined::Refused("the tournament is over".into()));
        }
        match t.kind {
            Kind::Arena => match me.first() {
                None => insert_player(tx, id, player, false, Some(now_ms))?,
                Some(_) => {
                    tx.exec(
                        "UPDATE tournament_players SET active = 1 WHERE tournament = $1 AND player = $2",
                        &[id.into(), player.into()],
                    )?;
                }
            },
            Kind::RoundRobin | Kind::Swiss => {
                if me.is_empty() {
                    return Ok(Joined::Refused(
                        "only the invited players play this tournament".into(),
                    ));
                }
                if t.state != "created" {
                    return Ok(Joined::Refused(
                        "the tournament has started: its players were fixed when it began".into(),
                    ));
                }
                tx.exec(
                    "UPDATE tournament_players SET joined = COALESCE(joined, $3), active = 1 WHERE tournament = $1 AND player = $2",
                    &[id.into(), player.into(), now_ms.into()],
                )?;
            }
        }
        tx.notify(&format!("!tournament:{id}"))?;
        Ok(Joined::Yes)
    })
}

/// `player` leaves tournament `id`: an arena's player is paused (not paired again until
/// they join again); before a round-robin or Swiss event starts, an invited player declines
/// (accepted or not: they are no longer invited); after it starts, they withdraw (not
/// paired again; their round-robin opponents take a bye). Returns whether they were in it.
pub fn leave(store: &dyn Store, id: &str, player: &str) -> Result<bool, StoreError> {
    run(store, |tx| {
        let Some(t) = locked(tx, id)? else {
            return Ok(false);
        };
        let n = if t.kind != Kind::Arena && t.state == "created" && t.creator != player {
            // Declined: no longer invited.
            tx.exec(
                "DELETE FROM tournament_players WHERE tournament = $1 AND player = $2",
                &[id.into(), player.into()],
            )?
        } else {
            tx.exec(
                "UPDATE tournament_players SET active = 0 WHERE tournament = $1 AND player = $2",
                &[id.into(), player.into()],
            )?
        };
        if n == 1 {
            tx.notify(&format!("!tournament:{id}"))?;
        }
        Ok(n == 1)
    })
}

/// Moves tournament `id` from state `from` to `to` (once, by whichever server comes first),
/// setting its planned rounds when given. Returns whether this call did.
pub fn set_state(
    store: &dyn Store,
    id: &str,
    from: &str,
    to: &str,
    rounds: Option<i64>,
) -> Result<bool, StoreError> {
    run(store, |tx| {
        let n = tx.exec(
            "UPDATE tournaments SET state = $1, rounds = COALESCE($2, rounds)
             WHERE id = $3 AND state = $4",
            &[to.into(), rounds.into(), id.into(), from.into()],
        )?;
        if n == 1 {
            tx.notify(&format!("!tournament:{id}"))?;
        }
        Ok(n == 1)
    })
}

/// Brings tournament `id`'s start forward to `now_ms` while it has not started (its maker's
/// "start now"; the sweeper starts it). Returns whether it had not started.
pub fn start_at(store: &dyn Store, id: &str, now_ms: i64) -> Result<bool, StoreError> {
    run(store, |tx| {
        Ok(tx.exec(
            "UPDATE tournaments SET starts = $1 WHERE id = $2 AND state = 'created'",
            &[now_ms.into(), id.into()],
        )? == 1)
    })
}

/// The players of `entrants` who joined (an unanswered invitation is not a player), in the
/// order they joined.
pub fn joined(entrants: &[Entrant]) -> Vec<String> {
    entrants
        .iter()
        .filter(|e| e.joined.is_some())
        .map(|e| e.player.clone())
        .collect()
}

/// A game of a wave, already created (no players yet), to seat.
#[derive(Clone, Debug)]
pub struct WaveGame {
    /// Game ID.
    pub id: String,
    /// Players of seats 1 and 2.
    pub players: [String; 2],
    /// Its clock as it starts.
    pub clock: (ClockSpec, crate::online::ClockState),
}

/// Claims wave `seen + 1` of tournament `id` (still running) for `games` and `byes`: all or
/// nothing, and only if no server claimed it first. Returns whether this call did; when it
/// did not, nothing changed (the caller deletes its games).
pub fn claim_wave(
    store: &dyn Store,
    id: &str,
    seen: i64,
    games: &[WaveGame],
    byes: &[String],
    rated: bool,
) -> Result<bool, StoreError> {
    let r = run(store, |tx| {
        let n = tx.exec(
            "UPDATE tournaments SET round = round + 1 WHERE id = $1 AND round = $2 AND state = 'running'",
            &[id.into(), seen.into()],
        )?;
        if n != 1 {
            return Err(StoreError::Conflict);
        }
        for g in games {
            // Nobody plays two tournament games at once.
            let busy = tx.rows(
                "SELECT COUNT(*) FROM games WHERE tournament = $1 AND state <> 'over' AND result IS NULL
                   AND (player1 IN ($2, $3) OR player2 IN ($2, $3))",
                &[id.into(), (&g.players[0]).into(), (&g.players[1]).into()],
            )?;
            if busy.first().and_then(|r| r[0].int()).unwrap_or(0) > 0 {
                return Err(StoreError::Conflict);
            }
            // Nobody who left (or was withdrawn) since the pairing was computed.
            let active = tx.rows(
                "SELECT COUNT(*) FROM tournament_players WHERE tournament = $1 AND player IN ($2, $3) AND active = 1",
                &[id.into(), (&g.players[0]).into(), (&g.players[1]).into()],
            )?;
            if active.first().and_then(|r| r[0].int()) != Some(2) {
                return Err(StoreError::Conflict);
            }
            set_online(tx, &g.id, &g.players, Some(g.clock), rated)?;
            tx.exec(
                "UPDATE games SET tournament = $1, tround = $2 WHERE id = $3",
                &[id.into(), (seen + 1).into(), (&g.id).into()],
            )?;
        }
        for p in byes {
            tx.exec(
                "INSERT INTO tournament_byes (tournament, round, player) VALUES ($1, $2, $3)",
                &[id.into(), (seen + 1).into(), p.into()],
            )?;
        }
        for g in games {
            tx.notify(&format!(
                "!paired:{}:{}:{}",
                g.id, g.players[0], g.players[1]
            ))?;
        }
        tx.notify(&format!("!tournament:{id}"))?;
        Ok(())
    });
    match r {
        Ok(()) => Ok(true),
        Err(StoreError::Conflict) => Ok(false),
        Err(e) => Err(e),
    }
}

/// Tournament game `game` was aborted because `absent` never moved before their clock ran
/// out: they are paused (an arena: they join again when they are back) or withdrawn (a
/// round-robin or Swiss event), and in a round-robin or Swiss event `present` takes the
/// round as a bye (a win's points). Called once per game, by the server whose ending of it
/// was stored.
pub fn no_show(
    store: &dyn Store,
    tournament: &str,
    game: &str,
    absent: &str,
    present: &str,
) -> Result<(), StoreError> {
    run(store, |tx| {
        let Some(kind) = tx
            .rows(
                "SELECT kind FROM tournaments WHERE id = $1",
                &[tournament.into()],
            )?
            .first()
            .map(|r| r[0].need_text("tournaments.kind"))
            .transpose()?
        else {
            return Ok(());
        };
        tx.exec(
            "UPDATE tournament_players SET active = 0 WHERE tournament = $1 AND player = $2",
            &[tournament.into(), absent.into()],
        )?;
        if kind != Kind::Arena.text() {
            let round = tx
                .rows("SELECT tround FROM games WHERE id = $1", &[game.into()])?
                .first()
                .and_then(|r| r[0].int());
            if let Some(round) = round {
                tx.exec(
                    "INSERT INTO tournament_byes (tournament, round, player)
                     SELECT $1, $2, $3 WHERE NOT EXISTS
                       (SELECT 1 FROM tournament_byes WHERE tournament = $1 AND round = $2 AND player = $3)",
                    &[tournament.into(), round.into(), present.into()],
                )?;
            }
        }
        tx.notify(&format!("!tournament:{tournament}"))?;
        Ok(())
    })
}

/// Takes a banned or closed player out of every tournament's pairings (inside the
/// transaction that bans or closes them); their games stay in the standings.
pub(crate) fn withdraw_everywhere(tx: &mut dyn Tx, player: &str) -> Result<(), StoreError> {
    tx.exec(
        "UPDATE tournament_players SET active = 0 WHERE player = $1",
        &[player.into()],
    )?;
    Ok(())
}

// ---- standings and pairings: pure functions ----

/// One line of a player's score sheet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SheetLine {
    /// The game (`None` for a bye).
    pub game: Option<String>,
    /// `win`, `draw`, `loss` or `bye`.
    pub result: &'static str,
    /// Units scored (see [`Kind::per_point`]).
    pub units: i64,
    /// An arena's win or draw doubled by a streak.
    pub doubled: bool,
}

/// A player's standing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// Player ID.
    pub player: String,
    /// Units scored.
    pub units: i64,
    /// Their finished games and byes, in order.
    pub sheet: Vec<SheetLine>,
    /// An arena player on a streak: their next win is doubled.
    pub fire: bool,
    /// Tie-break: the sum of their opponents' units (Buchholz), for round-robin and Swiss.
    pub tiebreak: i64,
    /// Their game under way, if any.
    pub playing: Option<String>,
}

impl Standing {
    /// Wins, draws and losses.
    pub fn record(&self) -> (usize, usize, usize) {
        let n = |r: &str| self.sheet.iter().filter(|l| l.result == r).count();
        (n("win"), n("draw"), n("loss"))
    }
}

/// The standings of a tournament of `kind` among `players`, from its games and byes: by
/// units, then tie-break, then wins, then the order they joined in. Aborted games count for
/// nobody; games under way count when they finish.
pub fn standings(
    kind: Kind,
    players: &[String],
    games: &[TGame],
    byes: &[(i64, String)],
) -> Vec<Standing> {
    let (win, draw, bye) = kind.units();
    let mut by: HashMap<&str, Standing> = players
        .iter()
        .map(|p| {
            (
                p.as_str(),
                Standing {
                    player: p.clone(),
                    units: 0,
                    sheet: Vec::new(),
                    fire: false,
                    tiebreak: 0,
                    playing: None,
                },
            )
        })
        .collect();
    // Each player's events in wave order: (round, game index or bye).
    let mut events: Vec<(i64, Option<usize>, &str)> = Vec::new();
    for (i, g) in games.iter().enumerate() {
        for p in &g.players {
            events.push((g.round, Some(i), p));
        }
    }
    for (r, p) in byes {
        events.push((*r, None, p));
    }
    events.sort_by_key(|e| (e.0, e.1));
    let mut streak: HashMap<&str, u32> = HashMap::new();
    for (_, gi, p) in events {
        let Some(s) = by.get_mut(p) else { continue };
        let Some(gi) = gi else {
            s.units += bye;
            s.sheet.push(SheetLine {
                game: None,
                result: "bye",
                units: bye,
                doubled: false,
            });
            continue;
        };
        let g = &games[gi];
        if !g.over {
            s.playing = Some(g.id.clone());
            continue;
        }
        if g.aborted {
            continue;
        }
        let seat = if g.players[0] == p { 1 } else { 2 };
        let result = match g.winner {
            Some(w) if w == seat => "win",
            Some(_) => "loss",
            None => "draw",
        };
        let st = streak.entry(p).or_insert(0);
        let doubled = kind == Kind::Arena && *st >= 2 && result != "loss";
        let base = match result {
            "win" => win,
            "draw" => draw,
            _ => 0,
        };
        let units = if doubled { base * 2 } else { base };
        *st = if result == "win" { *st + 1 } else { 0 };
        s.units += units;
        s.sheet.push(SheetLine {
            game: Some(g.id.clone()),
            result,
            units,
            doubled,
        });
    }
    for (p, st) in &streak {
        if let Some(s) = by.get_mut(p) {
            s.fire = kind == Kind::Arena && *st >= 2;
        }
    }
    if kind != Kind::Arena {
        let units: HashMap<String, i64> =
            by.values().map(|s| (s.player.clone(), s.units)).collect();
        for g in games.iter().filter(|g| g.over && !g.aborted) {
            for (me, them) in [(0, 1), (1, 0)] {
                let u = units.get(&g.players[them]).copied().unwrap_or(0);
                if let Some(s) = by.get_mut(g.players[me].as_str()) {
                    s.tiebreak += u;
                }
            }
        }
    }
    let order: HashMap<&str, usize> = players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.as_str(), i))
        .collect();
    let mut out: Vec<Standing> = by.into_values().collect();
    out.sort_by_key(|s| {
        (
            std::cmp::Reverse(s.units),
            std::cmp::Reverse(s.tiebreak),
            std::cmp::Reverse(s.record().0),
            order.get(s.player.as_str()).copied().unwrap_or(usize::MAX),
        )
    });
    out
}

/// A player free to be paired in an arena.
#[derive(Clone, Debug)]
pub struct Free {
    /// Player ID.
    pub player: String,
    /// Their units so far.
    pub units: i64,
    /// Their last opponent.
    pub last: Option<String>,
    /// Since when they have been free (ms).
    pub since: i64,
}

/// Players who wait this long (ms) may meet their last opponent again.
pub const REMATCH_AFTER_MS: i64 = 10_000;

/// An arena's pairing of its free players: by score, each with the nearest in the order who
/// is not their last opponent (unless both have waited [`REMATCH_AFTER_MS`]). Someone may
/// be left to wait for the next game to end.
pub fn arena_pairs(free: &[Free], now_ms: i64) -> Vec<[String; 2]> {
    let mut order: Vec<&Free> = free.iter().collect();
    order.sort_by(|a, b| b.units.cmp(&a.units).then(a.player.cmp(&b.player)));
    let mut used = vec![false; order.len()];
    let mut out = Vec::new();
    for i in 0..order.len() {
        if used[i] {
            continue;
        }
        let a = order[i];
        let pick = (i + 1..order.len()).find(|&j| {
            let b = order[j];
            !used[j]
                && (a.last.as_deref() != Some(b.player.as_str())
                    && b.last.as_deref() != Some(a.player.as_str())
                    || (now_ms - a.since >= REMATCH_AFTER_MS
                        && now_ms - b.since >= REMATCH_AFTER_MS))
        });
        if let Some(j) = pick {
            used[i] = true;
            used[j] = true;
            out.push([a.player.clone(), order[j].player.clone()]);
        }
    }
    out
}

/// Round `k` (from 0) of a round-robin among `players` (the circle method): its pairs and
/// the player with a bye, if the number is odd. Over `rounds_of(n)` rounds everyone meets
/// everyone once, and seats alternate.
pub fn round_robin(players: &[String], k: usize) -> (Vec<[String; 2]>, Option<String>) {
    let mut ring: Vec<Option<&String>> = players.iter().map(Some).collect();
    if ring.len() % 2 == 1 {
        ring.push(None);
    }
    let n = ring.len();
    if n < 2 {
        return (Vec::new(), players.first().cloned());
    }
    // Fix the first; rotate the rest k steps.
    let rest: Vec<Option<&String>> = (0..n - 1)
        .map(|i| ring[1 + (i + (n - 1) - k % (n - 1)) % (n - 1)])
        .collect();
    let mut seq = vec![ring[0]];
    seq.extend(rest);
    let (mut pairs, mut bye) = (Vec::new(), None);
    for i in 0..n / 2 {
        let (a, b) = (seq[i], seq[n - 1 - i]);
        match (a, b) {
            (Some(a), Some(b)) => {
                if (k + i).is_multiple_of(2) {
                    pairs.push([a.clone(), b.clone()]);
                } else {
                    pairs.push([b.clone(), a.clone()]);
                }
            }
            (Some(p), None) | (None, Some(p)) => bye = Some(p.clone()),
            (None, None) => {}
        }
    }
    (pairs, bye)
}

/// A round-robin's rounds among `n` players.
pub fn rounds_of(n: usize) -> i64 {
    if n < 2 {
        0
    } else {
        (n + n % 2 - 1) as i64
    }
}

/// A Swiss round: `ranked` are the players by standing (best first), `met` the pairs who
/// have played, `had_bye` those who had a bye. The lowest-ranked player without a bye sits
/// out an odd number; the rest are paired top down, each with the best-ranked player they
/// have not met (backtracking when that leaves someone without an opponent; meeting again
/// only when no pairing avoids it).
pub fn swiss_round(
    ranked: &[String],
    met: &HashSet<(String, String)>,
    had_bye: &HashSet<String>,
) -> (Vec<[String; 2]>, Option<String>) {
    let mut left: Vec<String> = ranked.to_vec();
    let mut bye = None;
    if left.len() % 2 == 1 {
        let i = left
            .iter()
            .rposition(|p| !had_bye.contains(p))
            .unwrap_or(left.len() - 1);
        bye = Some(left.remove(i));
    }
    let has_met = |a: &str, b: &str| {
        met.contains(&(a.to_string(), b.to_string()))
            || met.contains(&(b.to_string(), a.to_string()))
    };
    fn go(
        left: &[String],
        used: &mut Vec<bool>,
        out: &mut Vec<[String; 2]>,
        ok: &dyn Fn(&str, &str) -> bool,
        budget: &mut u32,
    ) -> bool {
        let Some(i) = used.iter().position(|u| !u) else {
            return true;
        };
        used[i] = true;
        for j in i + 1..left.len() {
            if used[j] || !ok(&left[i], &left[j]) {
                continue;
            }
            if *budget == 0 {
                break;
            }
            *budget -= 1;
            used[j] = true;
            out.push([left[i].clone(), left[j].clone()]);
            if go(left, used, out, ok, budget) {
                return true;
            }
            out.pop();
            used[j] = false;
        }
        used[i] = false;
        false
    }
    let mut out = Vec::new();
    let mut used = vec![false; left.len()];
    let mut budget = 200_000;
    if !go(
        &left,
        &mut used,
        &mut out,
        &|a, b| !has_met(a, b),
        &mut budget,
    ) {
        // Everyone has met everyone they could: pair top down regardless.
        out = left
            .chunks(2)
            .map(|c| [c[0].clone(), c[1].clone()])
            .collect();
    }
    (out, bye)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("p{i}")).collect()
    }

    fn game(id: &str, round: i64, a: &str, b: &str, winner: Option<u8>) -> TGame {
        TGame {
            id: id.into(),
            round,
            players: [a.into(), b.into()],
            over: true,
            winner,
            aborted: false,
            updated: 0,
        }
    }

    /// Arena (lichess): a win 2, a draw 1; after two wins in a row, wins are 4 and a draw 2
    /// (which ends the streak), until a game is not won; an aborted game counts for nobody.
    #[test]
    fn arena_points_double_on_a_streak_of_two_wins() {
        let p = names(2);
        let mut gs = vec![
            game("a", 1, "p0", "p1", Some(1)),
            game("b", 2, "p1", "p0", Some(2)),
            game("c", 3, "p0", "p1", Some(1)),
            game("d", 4, "p0", "p1", None),
            game("e", 5, "p0", "p1", Some(1)),
        ];
        gs.push(TGame {
            aborted: true,
            ..game("f", 6, "p0", "p1", None)
        });
        let s = standings(Kind::Arena, &p, &gs, &[]);
        let p0 = s.iter().find(|s| s.player == "p0").unwrap();
        let units: Vec<i64> = p0.sheet.iter().map(|l| l.units).collect();
        assert_eq!(units, [2, 2, 4, 2, 2]);
        assert_eq!(p0.units, 12);
        assert!(!p0.fire);
        let p1 = s.iter().find(|s| s.player == "p1").unwrap();
        assert_eq!(p1.units, 1);
        assert_eq!(s[0].player, "p0");
    }

    #[test]
    fn round_robin_meets_everyone_once() {
        for n in 2..=9 {
            let p = names(n);
            let mut met = HashSet::new();
            let mut byes = 0;
            for k in 0..rounds_of(n) as usize {
                let (pairs, bye) = round_robin(&p, k);
                byes += usize::from(bye.is_some());
                let mut seen = HashSet::new();
                for [a, b] in pairs {
                    assert!(seen.insert(a.clone()) && seen.insert(b.clone()));
                    let key = if a < b { (a, b) } else { (b, a) };
                    assert!(met.insert(key), "n={n}: a pair met twice");
                }
            }
            assert_eq!(met.len(), n * (n - 1) / 2, "n={n}");
            assert_eq!(byes, if n % 2 == 1 { n } else { 0 });
        }
    }

    #[test]
    fn swiss_avoids_meeting_again_and_gives_one_bye_each() {
        let p = names(7);
        let mut met = HashSet::new();
        let mut had = HashSet::new();
        for _ in 0..5 {
            let (pairs, bye) = swiss_round(&p, &met, &had);
            let bye = bye.expect("seven players: one bye");
            assert!(had.insert(bye), "a second bye");
            for [a, b] in pairs {
                assert!(met.insert((a, b)), "a pair met again");
            }
        }
    }

    #[test]
    fn arena_pairs_by_score_and_avoids_the_last_opponent() {
        let f = |p: &str, units, last: Option<&str>| Free {
            player: p.into(),
            units,
            last: last.map(Into::into),
            since: 0,
        };
        let free = [
            f("a", 8, Some("b")),
            f("b", 7, Some("a")),
            f("c", 6, None),
            f("d", 0, None),
        ];
        let pairs = arena_pairs(&free, 1000);
        assert_eq!(
            pairs,
            [["a".to_string(), "c".into()], ["b".into(), "d".into()]]
        );
        // Two who just met wait, unless they waited long enough.
        let two = [f("a", 0, Some("b")), f("b", 0, Some("a"))];
        assert!(arena_pairs(&two, 1000).is_empty());
        assert_eq!(arena_pairs(&two, REMATCH_AFTER_MS).len(), 1);
    }
}
