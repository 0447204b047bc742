//! The games: creating them, throwing, moving, bots, hints, records, review and live
//! updates. Everything here is written against the generic [`Game`] API, so it works for
//! every rule set the rules crate has; the HTTP layer ([`crate::api`]) only translates
//! requests into these calls.
//!
//! Each game in use is cached as a `Live` value behind its own async lock, so requests to
//! one game are serialised; a change is written to the [`Store`] (and so is durable) before
//! the cache is updated, the request answered, and watchers notified.

use crate::seeds;
use crate::store::{
    GameMeta, Seat, SeriesLink, SeriesMeta, Snapshot, Store, StoreError, StoredEvent, StoredGame,
    Summary,
};
use crate::wire::{
    self, Catalogue, Claimed, DrawnThrow, GameState, GameStatus, Hint, InviteLink, LegalMove,
    NextGame, Notice, OptionInfo, PlayerSeat, RuleInfo, SeatKind, SeriesGame, SeriesGameSeat,
    SeriesInfo, SeriesSeat, Special, StartsName, StateMessage, Throws, Watchers,
};
use senet_bots::analysis::MoveValue;
use senet_bots::play as opponent;
use senet_rules::series::{self, Starts, Target};
use senet_rules::{AnyGame, Game, MoveList, OptionKind, Player, Record, RuleSet, Status, Throw};
use senet_rules::{Metrics, Notation, View};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;
use tokio::sync::{broadcast, Mutex as AsyncMutex};

mod challenges;
pub(crate) mod import;
mod online;
mod puzzles;
mod tournaments;
use crate::players::Online;
pub use online::{now_ms, AddressLimits, Who};
pub use puzzles::{new_puzzle, puzzle_id, starting_rating};

/// How often spectators' comings and goings are told to a game's watchers, at most.
const PRESENCE_EVERY: std::time::Duration = std::time::Duration::from_millis(300);

/// The message telling a live connection to fetch the state (`{"type": "resync"}`).
pub const RESYNC: &str = r#"{"type":"resync"}"#;

/// Games kept in memory at most (games with a request or a watcher are never dropped).
const MAX_LIVE: usize = 4096;

/// What went wrong, in terms the HTTP layer maps to a status code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// Malformed request (400).
    BadRequest(String),
    /// No seat token (401).
    Unauthorized(String),
    /// A token that is not this game's (403).
    Forbidden(String),
    /// No such game (404).
    NotFound(String),
    /// Not now: out of turn, wrong phase, game over, stale (409).
    Conflict(String),
    /// A well-formed but illegal move or option (422).
    Unprocessable(String),
    /// A request body over the size limit (413).
    TooLarge(String),
    /// A request body that did not arrive in time (408).
    Timeout(String),
    /// Over a limit on live connections (429).
    Busy(String),
    /// The server failed (500); nothing was changed.
    Internal(String),
    /// The server cannot serve the request now, its database being out of reach (503 with
    /// Retry-After); nothing was changed, and the same request may succeed later.
    Unavailable(String),
}

impl Failure {
    /// The explanation.
    pub fn message(&self) -> &str {
        match self {
            Failure::BadRequest(m)
            | Failure::Unauthorized(m)
            | Failure::Forbidden(m)
            | Failure::NotFound(m)
            | Failure::Conflict(m)
            | Failure::Unprocessable(m)
            | Failure::TooLarge(m)
            | Failure::Timeout(m)
            | Failure::Busy(m)
            | Failure::Internal(m)
            | Failure::Unavailable(m) => m,
        }
    }
}

impl From<StoreError> for Failure {
    fn from(e: StoreError) -> Failure {
        match e {
            StoreError::Conflict => Failure::Conflict(
                "the game was changed by another request; reload it and try again".into(),
            ),
            // The cause stays in the server: the client learns that it may try again.
            StoreError::Unavailable(_) => Failure::Unavailable(
                "the server is busy: its database cannot be reached just now, and nothing was changed; try again in a moment"
                    .into(),
            ),
            e => Failure::Internal(e.to_string()),
        }
    }
}

type Res<T> = Result<T, Failure>;

/// A request to create a game.
#[derive(Clone, Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// Rule set ID (`GET /api/rules`).
    pub rules: String,
    /// Options as `NAME=VALUE`, at most 32.
    #[serde(default)]
    pub options: Vec<String>,
    /// `bot`, `hotseat` or `online`.
    pub mode: String,
    /// The bot level, for mode `bot`.
    #[serde(default)]
    pub bot: Option<String>,
    /// For mode `bot`: the page plays the bot with its own engine (issue 54). The bot's seat
    /// then gets a token too (in `tokens`), with which the page sends the bot's throws and
    /// moves; the server never searches for it.
    #[serde(default)]
    pub bot_in_page: bool,
    /// The creator's seat (1 or 2) for `bot` and `online` games; 1 when absent. In a series
    /// it is the creator's series seat (seat 1 plays first in game 1 with alternating starts).
    #[serde(default)]
    pub seat: Option<u8>,
    /// Play a series of games to this target (`{"points": N}` or `{"games": N}`) instead of
    /// a single game.
    #[serde(default)]
    pub series: Option<Target>,
    /// Who starts each game of a series: `alternate` (default), or the rule set's own start
    /// rule (a fair draw; in parker the dice-off of P3). Only with `series`.
    #[serde(default)]
    pub starts: Option<String>,
}

pub use crate::wire::Created;

/// One throw or move as shown to players.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[schema(as = Event)]
pub struct EventOut {
    /// Index in the game's events.
    pub seq: u32,
    /// The player who threw or moved (1 or 2).
    pub player: u8,
    /// The throw, for a throw.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub throw: Option<String>,
    /// The move string, for a move.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub mv: Option<String>,
    /// What the move did (`Effects::names`): step, backward, swap, capture, sent back, trap,
    /// bear off, forfeit, bonus throw.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub kinds: Vec<&'static str>,
    /// Whether the mover goes on.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub turn_continues: bool,
}

/// A game in memory.
struct Live {
    meta: GameMeta,
    start: AnyGame,
    game: AnyGame,
    events: Vec<EventOut>,
    throws: u64,
    tx: broadcast::Sender<Arc<str>>,
    /// Open live connections of seat 1, seat 2, and spectators.
    watchers: [u32; 3],
    /// The game's place in its series, if it belongs to one.
    series: Option<LiveSeries>,
    /// A bot turn of this game is being computed in the background.
    bot_busy: bool,
    /// A presence message is due (see [`Service::presence_changed`]).
    presence_pending: bool,
    /// The online columns: players, clock, result, away, rematch (issue 33).
    online: Online,
    /// The players of seats 1 and 2 as shown (name, rating), for a game between players.
    names: [Option<wire::PlayerRef>; 2],
}

/// A game's place in its series (issue 13).
#[derive(Clone, Debug)]
struct LiveSeries {
    meta: SeriesMeta,
    target: Target,
    starts: Starts,
    /// This game's index, from 0.
    index: u32,
    /// The series seat playing the first player in this game.
    first: u8,
    /// Points of series seats 1 and 2 before this game.
    before: [u32; 2],
    /// The next game's ID, once created.
    next: Option<String>,
}

/// `points:N` or `games:N`, as stored.
fn target_text(t: Target) -> String {
    match t {
        Target::Points(n) => format!("points:{n}"),
        Target::Games(n) => format!("games:{n}"),
    }
}

fn parse_target(s: &str) -> Result<Target, String> {
    let t = match s.split_once(':') {
        Some(("points", n)) => n.parse().ok().map(Target::Points),
        Some(("games", n)) => n.parse().ok().map(Target::Games),
        _ => None,
    };
    t.ok_or_else(|| format!("bad series target {s:?}"))
}

fn parse_starts(s: &str) -> Result<Starts, String> {
    s.parse::<Starts>().map_err(|e| e.message().to_string())
}

fn starts_text(s: Starts) -> &'static str {
    match s {
        Starts::Alternate => "alternate",
        Starts::Rules => "rules",
    }
}

/// The modes of a game (`mode` of `POST /api/games`).
pub const MODES: [&str; 3] = ["bot", "hotseat", "online"];

/// Who starts each game of a series (`starts` of `POST /api/games`).
pub const STARTS: [&str; 2] = ["alternate", "rules"];

fn starts_name(s: Starts) -> StartsName {
    match s {
        Starts::Alternate => StartsName::Alternate,
        Starts::Rules => StartsName::Rules,
    }
}

/// The series seat (1 or 2) that plays the first player in game `index` of a series.
fn first_seat(rules: &str, starts: Starts, index: u32) -> u8 {
    match starts {
        Starts::Alternate => 1 + (index % 2) as u8,
        // P3: parker's dice-off inside each game decides who starts; seats keep colours.
        Starts::Rules if rules == RuleSet::Parker.id() => 1,
        Starts::Rules => 1 + rand::random::<bool>() as u8,
    }
}

/// Series seats' values arranged as the players of a game whose first player is `first`.
fn arrange<T: Clone>(first: u8, v: &[T; 2]) -> [T; 2] {
    if first == 1 {
        v.clone()
    } else {
        [v[1].clone(), v[0].clone()]
    }
}

impl LiveSeries {
    /// This game's points (by series seat) once it is over, and the score after it.
    fn points(&self, g: &AnyGame) -> (Option<[u32; 2]>, [u32; 2]) {
        match g.status() {
            Status::Over(o) => {
                let p = series::by_seat(self.first, series::game_points(&o));
                (Some(p), [self.before[0] + p[0], self.before[1] + p[1]])
            }
            _ => (None, self.before),
        }
    }

    fn standing(&self, g: &AnyGame) -> series::Standing {
        let (p, score) = self.points(g);
        series::standing(
            self.target,
            score,
            self.index as usize + p.is_some() as usize,
        )
    }

    fn info(&self, g: &AnyGame, start: &AnyGame) -> SeriesInfo {
        let (points, score) = self.points(g);
        let st = self.standing(g);
        let seats = self
            .meta
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let player = if self.first as usize == i + 1 { 1 } else { 2 };
                let (kind, bot, in_page) = seat_kind(s);
                SeriesGameSeat {
                    seat: i + 1,
                    player,
                    kind,
                    bot,
                    in_page,
                }
            })
            .collect();
        SeriesInfo {
            id: self.meta.id.clone(),
            game: self.index + 1,
            target: self.target,
            starts: starts_name(self.starts),
            first: self.first,
            seats,
            scores: series::scores(start),
            before: self.before,
            points,
            score,
            over: st.over,
            winner: st.winner,
            next: self.next.clone(),
        }
    }
}

/// A seat's kind, bot level and whether the page plays the bot, as the API shows them.
fn seat_kind(s: &Seat) -> (SeatKind, Option<String>, bool) {
    match s {
        Seat::Human => (SeatKind::Human, None, false),
        Seat::Bot(l) => (SeatKind::Bot, Some(l.clone()), false),
        Seat::PageBot(l) => (SeatKind::Bot, Some(l.clone()), true),
    }
}

/// Applies one stored event to `g`, checking it.
fn apply(g: &mut AnyGame, e: &StoredEvent, seq: u32) -> Result<EventOut, String> {
    let player = g
        .status()
        .player()
        .ok_or("an event after the end of the game")?
        .index() as u8
        + 1;
    match e {
        StoredEvent::Throw(t) => {
            let t = Throw::parse(t).map_err(|e| e.to_string())?;
            g.set_throw(t).map_err(|e| e.to_string())?;
            Ok(EventOut {
                seq,
                player,
                throw: Some(t.to_string()),
                mv: None,
                kinds: vec![],
                turn_continues: false,
            })
        }
        StoredEvent::Move(m) if senet_rules::is_legacy_pass(g, m, true) => {
            // C7: a pyramid game stored before the ruling holds a `pass` for a lost die; the
            // turn has already passed, so it changes nothing on the board, but it counts as
            // the decision it was (C5), so that a game it brought to the cap ends there.
            // Stored events were checked when written, so a `pass` while a throw is pending
            // can be nothing else.
            senet_rules::play_legacy_pass(g);
            Ok(EventOut {
                seq,
                player,
                throw: None,
                mv: Some("pass".into()),
                kinds: vec![],
                turn_continues: false,
            })
        }
        StoredEvent::Move(m) => {
            let mv = g.parse_move(m).map_err(|e| e.to_string())?;
            let text = g.move_string(mv);
            let fx = g.play_unchecked(mv);
            Ok(EventOut {
                seq,
                player,
                throw: None,
                mv: Some(text),
                kinds: fx.names(),
                turn_continues: fx.turn_continues,
            })
        }
    }
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

fn snapshot(g: &AnyGame) -> Snapshot {
    let (state, player) = match g.status() {
        Status::Throw(p) => ("throw", Some(p.index() as u8 + 1)),
        Status::Move(p) => ("move", Some(p.index() as u8 + 1)),
        Status::Over(o) => ("over", o.winner.map(|p| p.index() as u8 + 1)),
    };
    Snapshot {
        position: g.position(),
        state: state.into(),
        player,
        moves: g.decisions(),
        updated: now(),
        clock: None,
        deadline: None,
    }
}

/// The status of a game as the API shows it (same shape as `senet apply --json`).
pub fn status_of(g: &AnyGame) -> GameStatus {
    match g.status() {
        Status::Throw(p) => GameStatus::Throw {
            player: p.index() + 1,
        },
        Status::Move(p) => GameStatus::Move {
            player: p.index() + 1,
            throw: g.in_hand().map(|t| t.to_string()),
        },
        Status::Over(o) => GameStatus::Over {
            winner: o.winner.map(|p| p.index() + 1),
            capped: o.capped,
            score: o.score,
        },
    }
}

/// The legal moves with their squares and effects (what the API's `legal` lists).
pub fn legal_moves_of(g: &AnyGame) -> Vec<LegalMove> {
    legal_moves(g)
}

/// The legal moves with their squares and effects.
fn legal_moves(g: &AnyGame) -> Vec<LegalMove> {
    let mut ms = MoveList::new();
    g.legal_moves(&mut ms);
    ms.iter()
        .map(|&m| {
            let mut h = *g;
            let fx = h.play_unchecked(m);
            let squares = (!m.is_pass()).then_some((m.from, m.to));
            LegalMove {
                mv: g.move_string(m),
                from: squares.map(|s| s.0),
                to: squares.map(|s| s.1),
                from_name: squares.map(|s| g.square_name(s.0)),
                to_name: squares.map(|s| g.square_name(s.1)),
                kinds: fx.names(),
                turn_continues: fx.turn_continues,
                die: g.die_used(m),
            }
        })
        .collect()
}

/// The outcomes of the pending throw with their weights.
fn dist(g: &AnyGame) -> Vec<(String, u32)> {
    g.throw_dist()
        .outcomes
        .iter()
        .map(|(t, w)| (t.to_string(), *w))
        .collect()
}

/// The two sides as the rule set names them (from senet-rules), first player then second.
fn sides(r: RuleSet) -> [wire::Side; 2] {
    r.sides().map(|s| wire::Side {
        name: s.name,
        colour: s.colour,
    })
}

/// Every rule set with its options, throws, board path and special squares, and the bot
/// levels: what the lobby and the rules summary show.
pub fn catalogue() -> Catalogue {
    let rules = RuleSet::ALL.iter().filter_map(|&r| rule_info(r)).collect();
    Catalogue {
        rules,
        levels: opponent::levels().to_vec(),
        hint_level: opponent::HINT_LEVEL,
    }
}

/// One rule set as the catalogue describes it (its default options' throws and board).
pub fn rule_info(r: RuleSet) -> Option<RuleInfo> {
    {
        {
            let g = AnyGame::new(r, &[] as &[&str]).ok()?;
            let view = g.view();
            let options = r
                .option_specs()
                .iter()
                .map(|o| match o.kind {
                    OptionKind::Bool { default } => OptionInfo::Bool {
                        name: o.name,
                        default,
                        description: o.description,
                    },
                    OptionKind::Int { default, min, max } => OptionInfo::Int {
                        name: o.name,
                        default,
                        min,
                        max,
                        description: o.description,
                    },
                })
                .collect();
            let specials = view
                .cells
                .iter()
                .filter_map(|c| {
                    c.special.map(|text| Special {
                        label: c.label.clone(),
                        text,
                        mark: c.mark,
                    })
                })
                .collect();
            Some(RuleInfo {
                id: r.id(),
                name: r.name(),
                source: r.source(),
                options,
                sides: sides(r),
                throws: dist(&g),
                throw_kind: g.throw_dist().kind,
                path: view.path,
                specials,
                pieces: g.census().map(|c| c.total()),
            })
        }
    }
}

/// Why a game of `mode` (not online) has no invite to `what` (claim, renew, revoke).
fn without_invite(mode: &str, what: &str) -> String {
    let game = match mode {
        "hotseat" => "a hot-seat game: both seats play on one screen",
        _ => "a game against a bot",
    };
    format!("this is {game}, so it has no invite to {what}; only online games have one")
}

fn random_token() -> String {
    let a: u128 = rand::random();
    format!("{a:032x}")
}

fn random_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut x: u64 = rand::random();
    (0..10)
        .map(|_| {
            let c = ALPHABET[(x % 32) as usize] as char;
            x /= 32;
            c
        })
        .collect()
}

/// Whether `id` looks like a game ID (checked before touching the store).
pub fn valid_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 32 && id.bytes().all(|c| c.is_ascii_alphanumeric())
}

fn bot_seed(seed: u64, decisions: u32) -> u64 {
    seed ^ (decisions as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl Live {
    fn from_stored(s: StoredGame) -> Result<Live, String> {
        let rules: RuleSet = s
            .meta
            .rules
            .parse()
            .map_err(|e: senet_rules::Error| e.to_string())?;
        let start = AnyGame::new(rules, &s.meta.options).map_err(|e| e.to_string())?;
        let mut game = start;
        let mut events = Vec::with_capacity(s.events.len());
        let mut throws = 0;
        for (i, e) in s.events.iter().enumerate() {
            events.push(apply(&mut game, e, i as u32).map_err(|m| format!("event {i}: {m}"))?);
            throws += matches!(e, StoredEvent::Throw(_)) as u64;
        }
        Ok(Live {
            meta: s.meta,
            start,
            game,
            events,
            throws,
            tx: broadcast::channel(64).0,
            watchers: [0; 3],
            series: None,
            bot_busy: false,
            presence_pending: false,
            online: Online::default(),
            names: [None, None],
        })
    }

    /// The seat of a token, or of the session's player in a game between players.
    fn seat_of(&self, who: Who<'_>) -> Res<Player> {
        if let (None, Some(me)) = (who.token, who.player) {
            for p in Player::BOTH {
                if self.online.players[p.index()].as_deref() == Some(me) {
                    return Ok(p);
                }
            }
            return Err(Failure::Forbidden(format!(
                "you are not a player of game {}",
                self.meta.id
            )));
        }
        let Some(token) = who.token else {
            return Err(Failure::Unauthorized(
                "this request needs the seat's token: send the header Authorization: Bearer TOKEN"
                    .into(),
            ));
        };
        let d = seeds::digest(token);
        for p in Player::BOTH {
            if self.meta.token_hashes[p.index()].as_deref() == Some(d.as_str()) {
                return Ok(p);
            }
        }
        Err(Failure::Forbidden(format!(
            "the token is not a seat token of game {}",
            self.meta.id
        )))
    }

    /// Checks the `seq` a state-changing request was made at: required, and the game's.
    fn check_seq(&self, seq: Option<u32>) -> Res<()> {
        match seq {
            None => Err(Failure::BadRequest(format!(
                "\"seq\" is required: send the game's current event count (\"seq\" in its state, now {}) so that a request made on an old state is refused",
                self.events.len()
            ))),
            Some(s) if s as usize != self.events.len() => Err(Failure::Conflict(format!(
                "the request was made at event {s} but the game is at event {}; reload it",
                self.events.len()
            ))),
            _ => Ok(()),
        }
    }

    /// The seat of an online game still waiting for its invite to be claimed.
    fn open_seat(&self) -> Option<Player> {
        Player::BOTH.into_iter().find(|p| {
            self.meta.mode == "online"
                && self.meta.seats[p.index()] == Seat::Human
                && self.meta.token_hashes[p.index()].is_none()
        })
    }

    /// Checks that `seat` may act now; `want_throw` says which phase the request needs.
    fn check_turn(&self, seat: Player, want_throw: bool) -> Res<()> {
        if let Some(r) = &self.online.result {
            return Err(Failure::Conflict(format!(
                "the game is over ({})",
                online::reason_words(&r.reason)
            )));
        }
        match self.game.status() {
            Status::Over(_) => Err(Failure::Conflict("the game is over".into())),
            s if s.player() != Some(seat) => Err(Failure::Conflict(format!(
                "it is not your turn: player {} is to {}",
                s.player().map_or(0, |p| p.index() + 1),
                if matches!(s, Status::Throw(_)) {
                    "throw"
                } else {
                    "move"
                }
            ))),
            Status::Throw(_) if !want_throw => Err(Failure::Conflict(
                "throw first: there is no throw in hand to move with".into(),
            )),
            Status::Move(_) if want_throw => Err(Failure::Conflict(format!(
                "the throw {} is in hand: move (or pass) first",
                self.game.in_hand().map_or("-".into(), |t| t.to_string())
            ))),
            _ => Ok(()),
        }
    }

    /// The state, with the events from index `from` on.
    fn state(&self, from: usize) -> GameState {
        let g = &self.game;
        let over = matches!(g.status(), Status::Over(_));
        let seats = self
            .meta
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let (kind, bot, in_page) = seat_kind(s);
                PlayerSeat {
                    player: i + 1,
                    kind,
                    bot,
                    in_page,
                }
            })
            .collect();
        let rules = g.rules();
        let from = from.min(self.events.len());
        GameState {
            id: self.meta.id.clone(),
            rules: rules.id(),
            rules_name: rules.name(),
            sides: sides(rules),
            options: self.meta.options.clone(),
            mode: self.meta.mode.clone(),
            seats,
            seq: self.events.len(),
            moves: g.decisions(),
            status: self.status(),
            position: g.position(),
            view: g.view(),
            legal: if self.online.result.is_some() {
                Vec::new()
            } else {
                legal_moves(g)
            },
            throws: if matches!(g.status(), Status::Throw(_)) {
                dist(g)
            } else {
                Vec::new()
            },
            throw_kind: g.throw_dist().kind,
            seed_hash: self.meta.seed_hash.clone(),
            invite_open: self.meta.invite.is_some() && self.open_seat().is_some(),
            open_seat: self.open_seat().map(|p| p.index() + 1),
            seed: (over && !self.meta.page_throws).then(|| self.meta.seed.to_string()),
            page_throws: self.meta.page_throws,
            watchers: self.watchers(),
            events_from: from,
            events: self.events[from..].to_vec(),
            series: self.series.as_ref().map(|s| s.info(g, &self.start)),
            players: self.names.clone(),
            you: None,
            rated: self.online.rated,
            clock: self.clock_view(),
            result: self.result_out(),
            away: self.away_out(),
            rematch: self.rematch_out(),
            rating_change: self.online.rating_change,
            tournament: self.online.tournament.clone(),
            kind: None,
        }
    }

    /// Who is watching live.
    fn watchers(&self) -> Watchers {
        Watchers {
            seats: [self.watchers[0] > 0, self.watchers[1] > 0],
            spectators: self.watchers[2],
        }
    }

    /// Tells watchers of a change: the state with the events from `from`.
    fn publish_update(&self, from: usize) {
        if self.tx.receiver_count() > 0 {
            let mut out = self.state(from);
            out.kind = Some(StateMessage::Update);
            self.publish(&out);
        }
    }

    /// Takes a stored change: the game after it, its throw count and its events (from
    /// `first`); tells watchers. Returns the state with the new events.
    fn commit(
        &mut self,
        g: AnyGame,
        throws: u64,
        new: Vec<(StoredEvent, EventOut)>,
        first: u32,
    ) -> GameState {
        self.game = g;
        self.throws = throws;
        self.events.extend(new.into_iter().map(|(_, e)| e));
        let out = self.state(first as usize);
        if self.tx.receiver_count() > 0 {
            let mut msg = out.clone();
            msg.kind = Some(StateMessage::Update);
            self.publish(&msg);
        }
        out
    }

    /// Sends a message to the game's live connections.
    fn publish(&self, msg: &impl Serialize) {
        let Ok(text) = serde_json::to_string(msg) else {
            return;
        };
        // No receivers is fine: nobody is watching.
        let _ = self.tx.send(Arc::from(text));
    }

    fn record(&self) -> Record {
        let over = matches!(self.game.status(), Status::Over(_));
        // A game whose throws a browser drew has no seed to give (its stored one is unused).
        let seed = (over && !self.meta.page_throws).then_some(self.meta.seed);
        let mut r = Record::new(&self.start, seed);
        for e in &self.events {
            match (&e.throw, &e.mv) {
                (Some(t), _) => r
                    .events
                    .push(senet_rules::Event::Throw { throw: t.clone() }),
                (_, Some(m)) => r.push_move(m.clone()),
                _ => {}
            }
        }
        r.finish(&self.game);
        r
    }
}

/// Plays the bot seats until a person is to act or the game ends, adding the events.
fn run_bots(
    meta: &GameMeta,
    g: &mut AnyGame,
    throws: &mut u64,
    seq: u32,
    out: &mut Vec<(StoredEvent, EventOut)>,
) -> Res<()> {
    loop {
        let Some(p) = g.status().player() else {
            return Ok(());
        };
        let Seat::Bot(level) = &meta.seats[p.index()] else {
            return Ok(());
        };
        let n = seq + out.len() as u32;
        let ev = match g.status() {
            Status::Throw(_) => {
                let t = seeds::draw(g, meta.seed, *throws);
                *throws += 1;
                StoredEvent::Throw(t.to_string())
            }
            _ => {
                let (m, _) = opponent::choose_level(level, g, bot_seed(meta.seed, g.decisions()))
                    .map_err(Failure::Internal)?;
                StoredEvent::Move(g.move_string(m))
            }
        };
        let shown = apply(g, &ev, n).map_err(Failure::Internal)?;
        out.push((ev, shown));
    }
}

/// Whether a bot seat is to act in `g`.
fn bot_to_act(meta: &GameMeta, g: &AnyGame) -> bool {
    g.status()
        .player()
        .is_some_and(|p| matches!(meta.seats[p.index()], Seat::Bot(_)))
}

/// Who asked for bot work: the client's address (see [`crate::api`]).
pub type Client = IpAddr;

/// What a search is for. A bot's reply in a game comes before a question (a hint, a
/// valuation): a game waits on its reply, a question can be asked again.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Work {
    /// A bot's turn in a game.
    Reply = 0,
    /// A hint or `POST /api/value`.
    Ask = 1,
}

/// The searches waiting and running (see [`BotLimiter`]).
#[derive(Default)]
struct Queues {
    running: usize,
    /// The most searches that ever ran at once.
    peak: usize,
    running_by: HashMap<Client, usize>,
    /// Per kind of work: the clients with searches waiting, in turn order, and each one's
    /// waiting searches in the order they came.
    turn: [VecDeque<Client>; 2],
    waiting: [HashMap<Client, VecDeque<tokio::sync::oneshot::Sender<()>>>; 2],
}

impl Queues {
    fn push(&mut self, work: Work, client: Client, go: tokio::sync::oneshot::Sender<()>) {
        let w = work as usize;
        let q = self.waiting[w].entry(client).or_default();
        if q.is_empty() {
            self.turn[w].push_back(client);
        }
        q.push_back(go);
    }

    /// Starts waiting searches while fewer than `total` run: replies before questions, and
    /// within each, one search per client in turn (a client at `per_client` running
    /// searches waits). A waiter that gave up is skipped.
    fn dispatch(&mut self, total: usize, per_client: usize) {
        'start: while self.running < total {
            for w in 0..2 {
                for _ in 0..self.turn[w].len() {
                    let Some(c) = self.turn[w].pop_front() else {
                        break;
                    };
                    if self.running_by.get(&c).copied().unwrap_or(0) >= per_client {
                        self.turn[w].push_back(c);
                        continue;
                    }
                    let q = self.waiting[w].get_mut(&c).expect("a client in turn waits");
                    let mut started = false;
                    while let Some(go) = q.pop_front() {
                        if go.send(()).is_ok() {
                            started = true;
                            break;
                        }
                    }
                    if q.is_empty() {
                        self.waiting[w].remove(&c);
                    } else {
                        self.turn[w].push_back(c);
                    }
                    if started {
                        self.running += 1;
                        self.peak = self.peak.max(self.running);
                        *self.running_by.entry(c).or_insert(0) += 1;
                        continue 'start;
                    }
                }
            }
            break;
        }
    }

    fn finish(&mut self, client: Client) {
        self.running -= 1;
        if let Some(n) = self.running_by.get_mut(&client) {
            *n -= 1;
            if *n == 0 {
                self.running_by.remove(&client);
            }
        }
    }
}

/// Bounds bot work: at most `total` searches at once on the whole server (one per core by
/// default), at most `per_client` at once for one client address. Searches over the bound
/// wait: bots' replies in games first, then questions (hints, valuations), each served to
/// the waiting clients in turn (one client's many requests wait behind each other, not in
/// front of everyone else's). A question that waits longer than `ask_wait` is refused (503,
/// Retry-After) instead of answered late.
struct BotLimiter {
    queues: std::sync::Mutex<Queues>,
    total: usize,
    per_client: usize,
    ask_wait: std::sync::Mutex<Duration>,
    /// `senet_searches_total`.
    counted: prometheus::IntCounter,
}

/// A search waiting for its turn; dropped after its turn came but before it ran (given up,
/// or too late), it gives the place back.
struct Waiting<'a> {
    limiter: &'a BotLimiter,
    client: Client,
    started: Option<tokio::sync::oneshot::Receiver<()>>,
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        if let Some(mut started) = self.started.take() {
            // Under the lock, so that no turn is given between the check and the drop.
            let mut q = self.limiter.queues();
            if started.try_recv().is_ok() {
                q.finish(self.client);
                q.dispatch(self.limiter.total, self.limiter.per_client);
            }
        }
    }
}

/// A running search's place, given back (and the next one started) on drop.
struct Running<'a>(&'a BotLimiter, Client);

impl Drop for Running<'_> {
    fn drop(&mut self) {
        let mut q = self.0.queues();
        q.finish(self.1);
        q.dispatch(self.0.total, self.0.per_client);
    }
}

impl BotLimiter {
    fn new(total: usize, per_client: usize, counted: prometheus::IntCounter) -> BotLimiter {
        BotLimiter {
            counted,
            queues: std::sync::Mutex::new(Queues::default()),
            total: total.max(1),
            per_client: per_client.max(1),
            ask_wait: std::sync::Mutex::new(Duration::from_secs(5)),
        }
    }

    fn queues(&self) -> std::sync::MutexGuard<'_, Queues> {
        // Each change to the queues completes under the lock: a poisoned one is consistent.
        self.queues.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs a search `f` on the blocking pool when its turn comes.
    async fn run<T: Send + 'static>(
        &self,
        work: Work,
        client: Client,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Res<T> {
        let (go, started) = tokio::sync::oneshot::channel();
        {
            let mut q = self.queues();
            q.push(work, client, go);
            q.dispatch(self.total, self.per_client);
        }
        // Until the search runs, a guard: a request given up (a closed connection drops
        // this future) after its turn came gives the place back.
        let mut waiting = Waiting {
            limiter: self,
            client,
            started: Some(started),
        };
        let turn = waiting.started.as_mut().expect("set above");
        let ok = match work {
            Work::Reply => turn.await.is_ok(),
            Work::Ask => {
                let wait = *self.ask_wait.lock().unwrap_or_else(|p| p.into_inner());
                matches!(tokio::time::timeout(wait, turn).await, Ok(Ok(())))
            }
        };
        if !ok {
            // Too long (the guard gives back a turn that came just now).
            return Err(Failure::Unavailable(
                "the server is busy with other searches (bots' moves in games come first); \
                 ask again in a moment"
                    .into(),
            ));
        }
        waiting.started = None;
        self.counted.inc();
        let running = Running(self, client);
        let r = tokio::task::spawn_blocking(f).await;
        drop(running);
        r.map_err(|e| Failure::Internal(format!("bot task failed: {e}")))
    }
}

/// Texts kept by key, the most recently put first, at most `count` of them and `bytes` in
/// all (the oldest dropped).
struct RecentTexts {
    texts: std::sync::Mutex<VecDeque<(String, Arc<str>)>>,
    count: usize,
    bytes: usize,
}

impl RecentTexts {
    fn new(count: usize, bytes: usize) -> RecentTexts {
        RecentTexts {
            texts: std::sync::Mutex::new(VecDeque::new()),
            count,
            bytes,
        }
    }

    fn get(&self, key: &str) -> Option<String> {
        let t = self.texts.lock().unwrap_or_else(|p| p.into_inner());
        t.iter().find(|(k, _)| k == key).map(|(_, v)| v.to_string())
    }

    fn put(&self, key: &str, text: &str) {
        let mut t = self.texts.lock().unwrap_or_else(|p| p.into_inner());
        t.retain(|(k, _)| k != key);
        t.push_front((key.to_string(), Arc::from(text)));
        let mut total: usize = t.iter().map(|(_, v)| v.len()).sum();
        while t.len() > self.count || (total > self.bytes && t.len() > 1) {
            if let Some((_, v)) = t.pop_back() {
                total -= v.len();
            }
        }
    }
}

/// The game service: every operation of the API.
pub struct Service {
    me: Weak<Service>,
    store: Arc<dyn Store>,
    live: std::sync::Mutex<HashMap<String, Arc<AsyncMutex<Live>>>>,
    analyses: crate::analysis::Analyses,
    series_records: RecentTexts,
    max_live: AtomicUsize,
    bots: BotLimiter,
    watch_per_game: AtomicUsize,
    watch_per_client: AtomicUsize,
    watchers_by_client: std::sync::Mutex<HashMap<Client, usize>>,
    /// The lobby: open seeks, games being played, pairings (issue 33).
    lobby: online::Lobby,
    /// What `/metrics` shows (issue 56).
    metrics: Arc<crate::metrics::Metrics>,
    /// Set once the server is told to stop: live connections are closed with "server
    /// restarting" and the sweeper stops.
    stopping: tokio::sync::watch::Sender<bool>,
}

/// A live connection's view of a game: the first message and the stream of changes.
pub struct Subscription {
    /// The full state (`{"type":"state", ...}`).
    pub first: String,
    /// Later messages (`update` and `presence`), as JSON text.
    pub rx: broadcast::Receiver<Arc<str>>,
    /// Which watcher slot to release when the connection ends (0, 1 seats; 2 spectator).
    pub slot: usize,
    /// The game ID.
    pub id: String,
    /// The client address it counts against.
    pub client: Client,
}

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, StoreError> + Send + 'static,
) -> Res<T> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| Failure::Internal(format!("store task failed: {e}")))?
        .map_err(Failure::from)
}

impl Service {
    /// A service over a store, with the default bot limits (a bot search per core at once,
    /// two per client).
    pub fn new(store: Arc<dyn Store>) -> Arc<Service> {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Service::with_bot_limits(store, cores, 2)
    }

    /// A service over a store running at most `total` bot searches at once, `per_client`
    /// of them for one client address.
    pub fn with_bot_limits(store: Arc<dyn Store>, total: usize, per_client: usize) -> Arc<Service> {
        let metrics = Arc::new(crate::metrics::Metrics::new());
        // Every call to the database is counted (events appended, errors) on its way.
        let store: Arc<dyn Store> =
            Arc::new(crate::metrics::CountingStore::new(store, metrics.clone()));
        Arc::new_cyclic(|me| Service {
            me: me.clone(),
            store,
            live: std::sync::Mutex::new(HashMap::new()),
            analyses: crate::analysis::Analyses::default(),
            series_records: RecentTexts::new(64, 32 << 20),
            max_live: AtomicUsize::new(MAX_LIVE),
            bots: BotLimiter::new(total, per_client, metrics.searches.clone()),
            watch_per_game: AtomicUsize::new(200),
            watch_per_client: AtomicUsize::new(20),
            watchers_by_client: std::sync::Mutex::new(HashMap::new()),
            lobby: online::Lobby::default(),
            metrics,
            stopping: tokio::sync::watch::channel(false).0,
        })
    }

    /// The service's metrics, with the gauges read now (`GET /metrics`).
    pub fn metrics(&self) -> &crate::metrics::Metrics {
        let m = &self.metrics;
        m.games_in_memory.set(self.games_in_memory() as i64);
        let q = self.bots.queues();
        m.searches_running.set(q.running as i64);
        let queued: usize = q
            .waiting
            .iter()
            .flat_map(|w| w.values())
            .map(VecDeque::len)
            .sum();
        m.searches_queued.set(queued as i64);
        drop(q);
        m.shutting_down.set(i64::from(*self.stopping.borrow()));
        m
    }

    /// The service's metrics as they are (the gauges as last read by [`Service::metrics`]).
    pub fn counters(&self) -> &crate::metrics::Metrics {
        &self.metrics
    }

    /// Bot searches started since the service started (bot moves, hints, values).
    pub fn searches_started(&self) -> u64 {
        self.metrics.searches.get()
    }

    /// Whether the database answers now (`GET /healthz`): a trivial query, within `wait`.
    pub async fn healthy(&self, wait: Duration) -> Result<(), String> {
        let store = self.store.clone();
        let q = tokio::task::spawn_blocking(move || {
            crate::players::run(&*store, |tx| tx.rows("SELECT 1", &[]).map(|_| ()))
        });
        match tokio::time::timeout(wait, q).await {
            Ok(Ok(Ok(()))) => Ok(()),
            Ok(Ok(Err(e))) => Err(e.to_string()),
            Ok(Err(e)) => Err(format!("the check failed: {e}")),
            Err(_) => Err(format!(
                "the database did not answer within {} ms",
                wait.as_millis()
            )),
        }
    }

    /// Tells the live connections and the sweeper that the server is stopping: each
    /// WebSocket is closed with code 1012 and the reason "server restarting" (the page
    /// reconnects), and no new sweep starts. Requests in flight are finished by the
    /// connection layer ([`crate::http::serve`]).
    pub fn begin_shutdown(&self) {
        self.stopping.send_replace(true);
    }

    /// A receiver that sees `true` once [`Service::begin_shutdown`] was called.
    pub fn stopping(&self) -> tokio::sync::watch::Receiver<bool> {
        self.stopping.subscribe()
    }

    /// Games held in memory now (loaded and replayed from the store when first read).
    pub fn games_in_memory(&self) -> usize {
        self.live.lock().unwrap_or_else(|p| p.into_inner()).len()
    }

    /// Keeps at most `n` idle games in memory (the default is 4,096).
    pub fn set_max_live(&self, n: usize) {
        self.max_live.store(n.max(1), Ordering::Relaxed);
    }

    /// How long a question (a hint, a valuation) may wait for a search before it is
    /// refused (5 s by default).
    pub fn set_ask_wait(&self, wait: Duration) {
        *self.bots.ask_wait.lock().unwrap_or_else(|p| p.into_inner()) = wait;
    }

    /// Values a position (`POST /api/value`) as a question of `client`: within the bot
    /// searches' bounds and turns.
    pub async fn value(
        &self,
        client: Client,
        req: crate::analysis::ValueRequest,
    ) -> Res<senet_bots::analysis::PositionValue> {
        self.bots
            .run(Work::Ask, client, move || crate::analysis::value(&req))
            .await?
    }

    /// The most bot searches (bot turns and hints) that ever ran at once.
    pub fn peak_bot_work(&self) -> usize {
        self.bots.queues().peak
    }

    /// Starts the bot's turn of a game in the background when a bot is to act and none is
    /// already thinking there. The request that led here is answered at once; the bot's
    /// events reach watchers as an update, and `GET` shows them once stored.
    fn kick_bots(&self, arc: &Arc<AsyncMutex<Live>>, l: &mut Live, client: Client) {
        if l.bot_busy || !bot_to_act(&l.meta, &l.game) {
            return;
        }
        let Some(me) = self.me.upgrade() else {
            return;
        };
        l.bot_busy = true;
        let (arc, id) = (arc.clone(), l.meta.id.clone());
        tokio::spawn(async move { me.drive_bots(arc, id, client).await });
    }

    /// Plays the bot seats of game `id` until a person is to act or the game ends. The
    /// search runs on the blocking pool without the game's lock (bounded by the level's node
    /// budget, see `senet_bots::Level::budget`); the lock is held only to store and publish
    /// the result, and only if nobody changed the game meanwhile.
    async fn drive_bots(self: Arc<Self>, arc: Arc<AsyncMutex<Live>>, id: String, client: Client) {
        for attempt in 0..5 {
            let (meta, g, throws, first) = {
                let l = arc.lock().await;
                if !bot_to_act(&l.meta, &l.game) {
                    drop(l);
                    arc.lock().await.bot_busy = false;
                    return;
                }
                (l.meta.clone(), l.game, l.throws, l.events.len() as u32)
            };
            let work = self
                .bots
                .run(Work::Reply, client, move || {
                    let (mut g, mut throws, mut out) = (g, throws, Vec::new());
                    run_bots(&meta, &mut g, &mut throws, first, &mut out).map(|()| (g, throws, out))
                })
                .await;
            let Ok(Ok((g, throws, new))) = work else {
                break;
            };
            let mut l = arc.lock().await;
            if l.events.len() as u32 != first {
                continue; // changed meanwhile (another server): think again
            }
            let stored: Vec<StoredEvent> = new.iter().map(|(s, _)| s.clone()).collect();
            let snap = snapshot(&g);
            let store = self.store.clone();
            let key = id.clone();
            match blocking(move || store.append(&key, first, &stored, &snap)).await {
                Ok(()) => {
                    l.bot_busy = false;
                    l.commit(g, throws, new, first);
                    return;
                }
                Err(Failure::Conflict(_)) => {
                    // Another server changed the game meanwhile: its version replaces this
                    // one, and that server's bots act on it.
                    l.bot_busy = false;
                    drop(l);
                    self.reload(&id).await;
                    return;
                }
                Err(_) => {
                    drop(l);
                    tokio::time::sleep(std::time::Duration::from_millis(100 << attempt)).await;
                }
            }
        }
        arc.lock().await.bot_busy = false;
    }

    fn cache(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<AsyncMutex<Live>>>> {
        self.live.lock().unwrap_or_else(|p| p.into_inner())
    }

    async fn get(&self, id: &str) -> Res<Arc<AsyncMutex<Live>>> {
        let missing = || Failure::NotFound(format!("there is no game {id:?}"));
        if !valid_id(id) {
            return Err(missing());
        }
        if let Some(l) = self.cache().get(id) {
            return Ok(l.clone());
        }
        let store = self.store.clone();
        let key = id.to_string();
        let stored = blocking(move || store.load(&key))
            .await?
            .ok_or_else(missing)?;
        let mut live = Live::from_stored(stored)
            .map_err(|m| Failure::Internal(format!("game {id} cannot be replayed: {m}")))?;
        self.load_online(&mut live).await?;
        if let Some(link) = live.meta.series.clone() {
            live.series = Some(self.live_series(&link).await?);
        }
        let arc = self.insert_live(live);
        // A bot to act in a stored game (its server stopped while it thought) acts now.
        self.kick_bots(&arc, &mut *arc.lock().await, IpAddr::from([0, 0, 0, 0]));
        Ok(arc)
    }

    /// [`Service::get`] for a request made at event `seq`: a cached game behind it (another
    /// server sharing the store extended it, and its notice has not arrived yet) is refreshed
    /// from the store first, so that the request is judged on the game as stored.
    async fn get_at(&self, id: &str, seq: Option<u32>) -> Res<Arc<AsyncMutex<Live>>> {
        let arc = self.get(id).await?;
        let Some(s) = seq else { return Ok(arc) };
        if arc.lock().await.events.len() >= s as usize {
            return Ok(arc);
        }
        self.refresh(Some(id.to_string())).await;
        self.get(id).await
    }

    /// Follows the changes other servers make to the shared store (PostgreSQL): a watched
    /// game is reloaded and its watchers get the new events at once; an unwatched one is
    /// dropped from the cache, to be reloaded by its next request. Needs a tokio runtime;
    /// blocks until the store reports changes (call it on a blocking thread).
    pub fn watch_store(&self) -> Result<(), String> {
        let Some(me) = self.me.upgrade() else {
            return Ok(());
        };
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Option<String>>();
        self.store
            .watch(Box::new(move |id| {
                let _ = tx.send(id);
            }))
            .map_err(|e| e.to_string())?;
        tokio::spawn(async move {
            while let Some(id) = rx.recv().await {
                me.refresh(id).await;
            }
        });
        Ok(())
    }

    /// Takes another server's change to game `id` (`None`: to any game; an ID starting
    /// `!` is a lobby change, see [`Store::watch`]).
    async fn refresh(&self, id: Option<String>) {
        match id.as_deref() {
            Some(w) if w.starts_with('!') => return self.lobby_note(w).await,
            None => self.lobby_refresh().await,
            _ => {}
        }
        let ids: Vec<String> = match id {
            Some(id) => vec![id],
            None => self.cache().keys().cloned().collect(),
        };
        for id in ids {
            self.reload(&id).await;
        }
    }

    /// Brings cached game `id` up to date with the store in place: its watchers keep their
    /// channel and are sent what changed (another server's moves, a claimed or revoked
    /// invite). A game no one watches, or one that can no longer be loaded, is forgotten
    /// instead (its next request loads it); its watchers' connections are then closed.
    async fn reload(&self, id: &str) {
        let Some(arc) = self.cache().get(id).cloned() else {
            return;
        };
        if arc.lock().await.tx.receiver_count() == 0 {
            self.forget(id);
            return;
        }
        let store = self.store.clone();
        let key = id.to_string();
        let fresh = match blocking(move || store.load(&key)).await {
            Ok(Some(g)) => Live::from_stored(g).ok(),
            _ => None,
        };
        let Some(mut fresh) = fresh else {
            self.forget(id);
            return;
        };
        if self.load_online(&mut fresh).await.is_err() {
            self.forget(id);
            return;
        }
        if let Some(link) = fresh.meta.series.clone() {
            match self.live_series(&link).await {
                Ok(ls) => fresh.series = Some(ls),
                Err(_) => {
                    self.forget(id);
                    return;
                }
            }
        }
        let mut l = arc.lock().await;
        let old = l.events.len();
        if fresh.events.len() < old {
            return; // this copy is ahead of what was read: a later note follows
        }
        let invite_changed =
            fresh.meta.invite != l.meta.invite || fresh.meta.token_hashes != l.meta.token_hashes;
        let online_changed = fresh.online != l.online || fresh.names != l.names;
        fresh.tx = l.tx.clone();
        fresh.watchers = l.watchers;
        fresh.bot_busy = l.bot_busy;
        fresh.presence_pending = l.presence_pending;
        *l = fresh;
        if l.events.len() > old || online_changed {
            l.publish_update(old);
        }
        if invite_changed {
            let open = l.meta.invite.is_some() && l.open_seat().is_some();
            let claimed = l.open_seat().is_none();
            l.publish(&Notice::Invite { open, claimed });
        }
    }

    /// Caches a game (keeping the one already cached under its ID, if any), first dropping
    /// every idle game (no request, no watcher) when the cache is full: loaded and created
    /// games alike stay within [`MAX_LIVE`] unless that many are in use.
    fn insert_live(&self, live: Live) -> Arc<AsyncMutex<Live>> {
        let mut cache = self.cache();
        if cache.len() >= self.max_live.load(Ordering::Relaxed) {
            cache.retain(|_, l| {
                Arc::strong_count(l) > 1 || l.try_lock().map_or(true, |g| g.tx.receiver_count() > 0)
            });
        }
        cache
            .entry(live.meta.id.clone())
            .or_insert_with(|| Arc::new(AsyncMutex::new(live)))
            .clone()
    }

    /// Games in the cache now.
    pub fn cached_games(&self) -> usize {
        self.cache().len()
    }

    /// A game's place in its series, from the stored series and its games' positions.
    async fn live_series(&self, link: &SeriesLink) -> Res<LiveSeries> {
        let store = self.store.clone();
        let sid = link.id.clone();
        let stored = blocking(move || store.load_series(&sid))
            .await?
            .ok_or_else(|| Failure::Internal(format!("the series {} is missing", link.id)))?;
        let bad = |m: String| Failure::Internal(format!("series {}: {m}", link.id));
        let target = parse_target(&stored.meta.target).map_err(bad)?;
        let starts = parse_starts(&stored.meta.starts).map_err(bad)?;
        let mut before = [0u32; 2];
        for row in stored.games.iter().take(link.index as usize) {
            let g: AnyGame = row
                .position
                .parse()
                .map_err(|e: senet_rules::Error| bad(format!("game {}: {e}", row.id)))?;
            let Status::Over(o) = g.status() else {
                return Err(bad(format!(
                    "game {} is not over but a later game exists",
                    row.id
                )));
            };
            let p = series::by_seat(row.first, series::game_points(&o));
            before = [before[0] + p[0], before[1] + p[1]];
        }
        Ok(LiveSeries {
            meta: stored.meta,
            target,
            starts,
            index: link.index,
            first: link.first,
            before,
            next: stored
                .games
                .get(link.index as usize + 1)
                .map(|r| r.id.clone()),
        })
    }

    fn forget(&self, id: &str) {
        self.cache().remove(id);
    }

    /// Creates a game; a bot in the first seat starts its first turn in the background.
    pub async fn create(&self, client: Client, req: NewGame) -> Res<Created> {
        self.create_as(client, req, None).await
    }

    /// [`Service::create`] by a session's `player`: the creator's seat of a bot or online
    /// game (a single game) belongs to the player too, so that it is theirs on any browser
    /// they are signed in on (issue 33).
    pub async fn create_as(
        &self,
        client: Client,
        req: NewGame,
        player: Option<&str>,
    ) -> Res<Created> {
        let rules: RuleSet = req
            .rules
            .parse()
            .map_err(|e: senet_rules::Error| Failure::Unprocessable(e.message().to_string()))?;
        if req.options.len() > 32 || req.options.iter().any(|o| o.len() > 64) {
            return Err(Failure::BadRequest(
                "at most 32 options of at most 64 bytes each".into(),
            ));
        }
        let start = AnyGame::new(rules, &req.options)
            .map_err(|e| Failure::Unprocessable(e.message().to_string()))?;
        let own = match req.seat.unwrap_or(1) {
            1 => Player::First,
            2 => Player::Second,
            s => {
                return Err(Failure::Unprocessable(format!(
                    "seat must be 1 or 2, got {s}"
                )))
            }
        };
        let mut seats = [Seat::Human, Seat::Human];
        match (req.mode.as_str(), &req.bot) {
            ("bot", Some(level)) => {
                opponent::check_level(level).map_err(Failure::Unprocessable)?;
                seats[own.other().index()] = if req.bot_in_page {
                    Seat::PageBot(level.clone())
                } else {
                    Seat::Bot(level.clone())
                };
            }
            ("bot", None) => {
                return Err(Failure::Unprocessable(format!(
                    "a bot game needs \"bot\": one of {}",
                    opponent::levels().join(", ")
                )))
            }
            ("hotseat" | "online", None) if req.bot_in_page => {
                return Err(Failure::Unprocessable(
                    "\"bot_in_page\" is only for mode \"bot\"".into(),
                ))
            }
            ("hotseat" | "online", None) => {}
            ("hotseat" | "online", Some(_)) => {
                return Err(Failure::Unprocessable(format!(
                    "\"bot\" is only for mode \"bot\", not {:?}",
                    req.mode
                )))
            }
            (m, _) => {
                return Err(Failure::Unprocessable(format!(
                    "mode must be bot, hotseat or online, got {m:?}"
                )))
            }
        }
        let seed: u64 = rand::random();
        // `seats` are the players of a single game, or the series seats of a series.
        // Online, the other seat has no token yet: it is minted for whoever claims the
        // invite (see [`Service::claim`]); the creator only learns the one-time claim code.
        let mut tokens = [None, None];
        let mut hashes = [None, None];
        let mut invite_code = None;
        for p in Player::BOTH {
            if matches!(seats[p.index()], Seat::Human | Seat::PageBot(_)) {
                if req.mode == "online" && p != own {
                    invite_code = Some(random_token());
                } else {
                    let t = random_token();
                    hashes[p.index()] = Some(seeds::digest(&t));
                    tokens[p.index()] = Some(t);
                }
            }
        }
        let series_meta = match req.series {
            None if req.starts.is_some() => {
                return Err(Failure::Unprocessable(
                    "\"starts\" is only for a series (with \"series\")".into(),
                ))
            }
            None => None,
            Some(t) => {
                let target = t
                    .check()
                    .map_err(|e| Failure::Unprocessable(e.message().to_string()))?;
                let starts = parse_starts(req.starts.as_deref().unwrap_or("alternate"))
                    .map_err(Failure::Unprocessable)?;
                Some((
                    SeriesMeta {
                        id: random_id(),
                        rules: rules.id().into(),
                        options: senet_rules::record::options_of(&start),
                        target: target_text(target),
                        starts: starts_text(starts).into(),
                        mode: req.mode.clone(),
                        seats: seats.clone(),
                        token_hashes: hashes.clone(),
                        created: now(),
                    },
                    target,
                    starts,
                ))
            }
        };
        // In a series, game 1's players are the series seats arranged by who starts.
        let first = series_meta
            .as_ref()
            .map_or(1, |(m, _, starts)| first_seat(&m.rules, *starts, 0));
        let mut meta = GameMeta {
            id: random_id(),
            rules: rules.id().into(),
            options: senet_rules::record::options_of(&start),
            seed,
            seed_hash: seeds::commitment(seed),
            mode: req.mode.clone(),
            seats: arrange(first, &seats),
            token_hashes: arrange(first, &hashes),
            invite: invite_code.as_deref().map(seeds::digest),
            created: now(),
            series: series_meta.as_ref().map(|(m, _, _)| SeriesLink {
                id: m.id.clone(),
                index: 0,
                first,
            }),
            page_throws: false,
        };
        // A bot in the first seat starts in the background once the game is stored.
        let (g, throws) = (start, 0);
        let stored: Vec<StoredEvent> = Vec::new();
        let snap = snapshot(&g);
        // A clash of random IDs is astronomically rare; retry a few times anyway.
        let mut tries = 0;
        let mut series_meta = series_meta;
        loop {
            let store = self.store.clone();
            let (m, ev, sn) = (meta.clone(), stored.clone(), snap.clone());
            let sm = series_meta.as_ref().map(|(m, _, _)| m.clone());
            let r = blocking(move || match sm {
                Some(sm) => store.create_series(&sm, &m, &ev, &sn),
                None => store.create(&m, &ev, &sn),
            })
            .await;
            match r {
                Err(Failure::Internal(_)) if tries < 3 => {
                    tries += 1;
                    meta.id = random_id();
                    if let Some((m, _, _)) = &mut series_meta {
                        m.id = random_id();
                        if let Some(l) = &mut meta.series {
                            l.id = m.id.clone();
                        }
                    }
                }
                r => break r?,
            }
        }
        let live = Live {
            meta: meta.clone(),
            start,
            game: g,
            events: Vec::new(),
            throws,
            tx: broadcast::channel(64).0,
            watchers: [0; 3],
            bot_busy: false,
            presence_pending: false,
            online: Online::default(),
            names: [None, None],
            series: series_meta.as_ref().map(|(m, target, starts)| LiveSeries {
                meta: m.clone(),
                target: *target,
                starts: *starts,
                index: 0,
                first,
                before: [0, 0],
                next: None,
            }),
        };
        let mut live = live;
        if let (Some(p), true, None) = (
            player,
            matches!(req.mode.as_str(), "bot" | "online"),
            &live.series,
        ) {
            let (store, id, pl, seat) = (
                self.store.clone(),
                meta.id.clone(),
                p.to_string(),
                own.index() as u8 + 1,
            );
            if blocking(move || crate::players::set_player(&*store, &id, seat, &pl)).await? {
                live.online.players[own.index()] = Some(p.to_string());
                let _ = self.load_online(&mut live).await;
            }
        }
        let state = live.state(0);
        let arc = self.insert_live(live);
        self.kick_bots(&arc, &mut *arc.lock().await, client);
        let mut mine = BTreeMap::new();
        for p in Player::BOTH {
            // `p` is the seat of `seats`; its player in this game is by `first`.
            let player = series::seat_of(first, p);
            if let Some(t) = &tokens[p.index()] {
                mine.insert(player.to_string(), t.clone());
            }
        }
        let invite = invite_code.map(|c| format!("/g/{}#claim={c}", meta.id));
        Ok(Created {
            id: meta.id,
            tokens: mine,
            invite,
            state,
            series: series_meta.map(|(m, _, _)| m.id),
        })
    }

    /// Starts the next game of the series that game `id` belongs to, for the seat of
    /// `token` (either seat may; the second request gets the game the first created). The
    /// game must be over and the series not. Returns the new game's ID, the caller's seat
    /// (player) in it, and its state.
    pub async fn next(
        &self,
        client: Client,
        id: &str,
        token: Who<'_>,
        seq: Option<u32>,
    ) -> Res<NextGame> {
        let arc = self.get_at(id, seq).await?;
        let mut l = arc.lock().await;
        // Authority, then sequence, then content (`Service::check_change`).
        let player = l.seat_of(token)?;
        l.check_seq(seq)?;
        let Some(ls) = l.series.clone() else {
            return Err(Failure::Unprocessable(format!(
                "game {id} is not part of a series; start a new game from the lobby"
            )));
        };
        let seat = series::seat_of(ls.first, player);
        if !matches!(l.game.status(), Status::Over(_)) {
            return Err(Failure::Conflict(
                "the game is not over yet: the next game of the series starts when this one has ended"
                    .into(),
            ));
        }
        let st = ls.standing(&l.game);
        if st.over {
            return Err(Failure::Conflict(format!(
                "the series is over ({} - {}): there is no next game",
                st.score[0], st.score[1]
            )));
        }
        let next_id = match &ls.next {
            Some(n) => n.clone(),
            None => {
                let n = self.create_next(client, &ls, st.score).await?;
                if let Some(s) = &mut l.series {
                    s.next = Some(n.clone());
                }
                l.publish_update(l.events.len());
                n
            }
        };
        drop(l);
        let arc = self.get(&next_id).await?;
        let l = arc.lock().await;
        let first = l.series.as_ref().map_or(1, |s| s.first);
        let me = if first == seat { 1 } else { 2 };
        Ok(NextGame {
            id: next_id,
            seat: me,
            series: ls.meta.id,
            state: l.state(0),
        })
    }

    /// Creates game `ls.index + 1` of a series whose score is `score`; returns its ID (or
    /// the ID of the game another server created in that place first).
    async fn create_next(&self, client: Client, ls: &LiveSeries, score: [u32; 2]) -> Res<String> {
        let m = &ls.meta;
        let index = ls.index + 1;
        let first = first_seat(&m.rules, ls.starts, index);
        let rules: RuleSet = m
            .rules
            .parse()
            .map_err(|e: senet_rules::Error| Failure::Internal(e.to_string()))?;
        let start =
            AnyGame::new(rules, &m.options).map_err(|e| Failure::Internal(e.to_string()))?;
        let seed: u64 = rand::random();
        let mut meta = GameMeta {
            id: random_id(),
            rules: m.rules.clone(),
            options: m.options.clone(),
            seed,
            seed_hash: seeds::commitment(seed),
            mode: m.mode.clone(),
            seats: arrange(first, &m.seats),
            token_hashes: arrange(first, &m.token_hashes),
            invite: None,
            created: now(),
            series: Some(SeriesLink {
                id: m.id.clone(),
                index,
                first,
            }),
            page_throws: false,
        };
        // A bot in the first seat starts in the background once the game is stored.
        let (g, throws) = (start, 0);
        let stored: Vec<StoredEvent> = Vec::new();
        let snap = snapshot(&g);
        for _ in 0..4 {
            let store = self.store.clone();
            let (mm, ev, sn) = (meta.clone(), stored.clone(), snap.clone());
            let r = tokio::task::spawn_blocking(move || store.create(&mm, &ev, &sn))
                .await
                .map_err(|e| Failure::Internal(format!("store task failed: {e}")))?;
            match r {
                Ok(()) => {
                    let live = Live {
                        meta: meta.clone(),
                        start,
                        game: g,
                        events: Vec::new(),
                        throws,
                        tx: broadcast::channel(64).0,
                        watchers: [0; 3],
                        bot_busy: false,
                        presence_pending: false,
                        online: Online::default(),
                        names: [None, None],
                        series: Some(LiveSeries {
                            index,
                            first,
                            before: score,
                            next: None,
                            ..ls.clone()
                        }),
                    };
                    let arc = self.insert_live(live);
                    self.kick_bots(&arc, &mut *arc.lock().await, client);
                    return Ok(meta.id);
                }
                Err(StoreError::Exists) => {
                    // Another server may have created this place of the series first.
                    let store = self.store.clone();
                    let sid = m.id.clone();
                    let s = blocking(move || store.load_series(&sid)).await?;
                    if let Some(row) = s.and_then(|s| s.games.into_iter().nth(index as usize)) {
                        return Ok(row.id);
                    }
                    meta.id = random_id();
                }
                Err(e) => return Err(e.into()),
            }
        }
        Err(Failure::Internal("could not create the next game".into()))
    }

    /// A series: its settings, seats, games (ID, first seat, points, running score) and
    /// standing.
    pub async fn series(&self, sid: &str) -> Res<wire::Series> {
        let (stored, games) = self.series_games(sid).await?;
        let m = &stored.meta;
        let target = parse_target(&m.target).map_err(Failure::Internal)?;
        let mut score = [0u32; 2];
        let mut finished = 0;
        let mut list = Vec::new();
        for (row, g) in stored.games.iter().zip(&games) {
            let (state, points, winner) = match g.status() {
                Status::Over(o) => {
                    let p = series::by_seat(row.first, series::game_points(&o));
                    score = [score[0] + p[0], score[1] + p[1]];
                    finished += 1;
                    (
                        wire::Playing::Over,
                        Some(p),
                        o.winner.map(|w| series::seat_of(row.first, w)),
                    )
                }
                _ => (wire::Playing::Playing, None, None),
            };
            list.push(SeriesGame {
                id: row.id.clone(),
                game: row.index + 1,
                first: row.first,
                state,
                points,
                winner,
                score,
                moves: g.decisions(),
            });
        }
        let st = series::standing(target, score, finished);
        let seats = m
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let (kind, bot, in_page) = seat_kind(s);
                SeriesSeat {
                    seat: i + 1,
                    kind,
                    bot,
                    in_page,
                }
            })
            .collect();
        let start = AnyGame::new(
            m.rules
                .parse()
                .map_err(|e: senet_rules::Error| Failure::Internal(e.to_string()))?,
            &m.options,
        )
        .map_err(|e| Failure::Internal(e.to_string()))?;
        Ok(wire::Series {
            id: m.id.clone(),
            rules: m.rules.clone(),
            options: m.options.clone(),
            mode: m.mode.clone(),
            target,
            starts: m.starts.clone(),
            seats,
            scores: series::scores(&start),
            games: list,
            score: st.score,
            finished: st.finished,
            over: st.over,
            winner: st.winner,
        })
    }

    /// A series as stored, and each game's position as of its last stored event (the
    /// snapshot beside its events): what a read of the series needs, without loading and
    /// replaying its games (issue 36: a 999-game series took about 1 s of CPU a read).
    async fn series_games(&self, sid: &str) -> Res<(crate::store::StoredSeries, Vec<AnyGame>)> {
        let stored = self.stored_series(sid).await?;
        let mut games = Vec::with_capacity(stored.games.len());
        for row in &stored.games {
            match row.position.parse::<AnyGame>() {
                Ok(g) => games.push(g),
                // A snapshot this version cannot read: the game's events decide.
                Err(_) => {
                    let arc = self.get(&row.id).await?;
                    let l = arc.lock().await;
                    games.push(l.game);
                }
            }
        }
        Ok((stored, games))
    }

    async fn stored_series(&self, sid: &str) -> Res<crate::store::StoredSeries> {
        let missing = || Failure::NotFound(format!("there is no series {sid:?}"));
        if !valid_id(sid) {
            return Err(missing());
        }
        let store = self.store.clone();
        let key = sid.to_string();
        blocking(move || store.load_series(&key))
            .await?
            .ok_or_else(missing)
    }

    /// The series record (`senet-series/1`) with every game's record. A finished series
    /// never changes: its record is made once and kept (the most recent few), so that
    /// reading it again costs nothing.
    pub async fn series_record(&self, sid: &str) -> Res<String> {
        if let Some(text) = self.series_records.get(sid) {
            return Ok(text);
        }
        let stored = self.stored_series(sid).await?;
        let m = &stored.meta;
        let bad = |e: senet_rules::Error| Failure::Internal(format!("series {sid}: {e}"));
        let rules: RuleSet = m.rules.parse().map_err(bad)?;
        let target = parse_target(&m.target).map_err(Failure::Internal)?;
        let starts = parse_starts(&m.starts).map_err(Failure::Internal)?;
        let mut s =
            senet_rules::Series::new(rules, &m.options, target, starts, None).map_err(bad)?;
        s.seats = Some([m.seats[0].to_text(), m.seats[1].to_text()]);
        for row in &stored.games {
            let arc = self.get(&row.id).await?;
            let l = arc.lock().await;
            s.push_game(row.first, None).map_err(bad)?;
            s.update_last(l.record()).map_err(bad)?;
        }
        let text = s.to_json();
        if s.standing().over {
            self.series_records.put(sid, &text);
        }
        Ok(text)
    }

    /// The checks of a change to game `id` that come before its content, in the API's order:
    /// the game exists (404); the token is a seat's of it (401, 403); `seq`, read from the
    /// body on its own (an error when the body has no readable `seq`), is given (400) and is
    /// the game's event count (409). The change's own checks repeat them under the game's
    /// lock, since the game may change in between.
    pub async fn check_change(
        &self,
        id: &str,
        token: Who<'_>,
        seq: Result<Option<u32>, Failure>,
    ) -> Res<()> {
        let arc = self.get_at(id, seq.clone().ok().flatten()).await?;
        let l = arc.lock().await;
        l.seat_of(token)?;
        l.check_seq(seq?)
    }

    /// The full state of a game, with every event.
    pub async fn state(&self, id: &str) -> Res<GameState> {
        let l = self.get(id).await?;
        let l = l.lock().await;
        Ok(l.state(0))
    }

    /// Throws for the seat of `token`; the state after it, with the new event. A bot's reply
    /// follows in the background (see `Service::kick_bots`).
    pub async fn throw(
        &self,
        client: Client,
        id: &str,
        token: Who<'_>,
        seq: Option<u32>,
    ) -> Res<GameState> {
        self.act(client, id, token, seq, None).await
    }

    /// Plays `mv` for the seat of `token`; the state after it, with the new event. A bot's
    /// reply follows in the background.
    pub async fn play(
        &self,
        client: Client,
        id: &str,
        token: Who<'_>,
        mv: &str,
        seq: Option<u32>,
    ) -> Res<GameState> {
        if mv.len() > 64 {
            return Err(Failure::BadRequest(
                "a move string is at most 64 bytes".into(),
            ));
        }
        self.act(client, id, token, seq, Some(mv)).await
    }

    async fn act(
        &self,
        client: Client,
        id: &str,
        token: Who<'_>,
        seq: Option<u32>,
        mv: Option<&str>,
    ) -> Res<GameState> {
        let arc = self.get_at(id, seq).await?;
        let mut l = arc.lock().await;
        // Authority, then sequence, then content (`Service::check_change`): a stale move is
        // refused as stale (409), not judged on a game it was not made for.
        let seat = l.seat_of(token)?;
        l.check_seq(seq)?;
        l.check_turn(seat, mv.is_none())?;
        // The clock (issue 33): a flag that fell before this request ends the game instead.
        let now_ms = online::now_ms();
        if l.online
            .clock_state
            .and_then(|c| c.flagged(now_ms))
            .is_some()
        {
            drop(l);
            self.settle_clock(id).await;
            return Err(Failure::Conflict(
                "your time ran out before this request arrived: the game is over".into(),
            ));
        }
        let mut g = l.game;
        let mut throws = l.throws;
        let first = l.events.len() as u32;
        let ev = match mv {
            None => {
                let t = seeds::draw(&g, l.meta.seed, throws);
                throws += 1;
                StoredEvent::Throw(t.to_string())
            }
            Some(text) => {
                let m = g
                    .parse_move(text)
                    .map_err(|e| Failure::Unprocessable(e.message().to_string()))?;
                StoredEvent::Move(g.move_string(m))
            }
        };
        let shown = apply(&mut g, &ev, first).map_err(Failure::Internal)?;
        let new = vec![(ev, shown)];
        let stored: Vec<StoredEvent> = new.iter().map(|(s, _)| s.clone()).collect();
        let mut snap = snapshot(&g);
        // A move charges the mover's clock and starts the next side's; a throw takes no time
        // of its own (the thrower's clock runs on).
        let mut clock = l.online.clock_state;
        if let (Some(spec), Some(c), true) = (l.online.clock, clock.as_mut(), mv.is_some()) {
            let next = g.status().player().map(|p| p.index());
            if let Err(side) = c.after_move(spec, seat.index(), next, now_ms) {
                return Err(Failure::Conflict(format!(
                    "the time of player {} ran out",
                    side + 1
                )));
            }
        }
        if let Some(c) = clock {
            snap.clock = Some(c.text());
            snap.deadline = c.deadline();
        }
        let store = self.store.clone();
        let key = id.to_string();
        if let Err(e) = blocking(move || store.append(&key, first, &stored, &snap)).await {
            if matches!(e, Failure::Conflict(_)) {
                drop(l);
                self.reload(id).await;
            }
            return Err(e);
        }
        l.online.clock_state = clock;
        let over = matches!(g.status(), Status::Over(_));
        let out = l.commit(g, throws, new, first);
        self.kick_bots(&arc, &mut l, client);
        if over && l.online.rated {
            drop(l);
            self.rate_later(id);
        }
        Ok(out)
    }

    /// Claims the open invite of online game `id` with its one-time `code`: mints the
    /// invited seat's token for the caller only and closes the invite. Returns the seat, its
    /// token and the state.
    pub async fn claim(&self, id: &str, code: &str) -> Res<Claimed> {
        self.claim_as(id, code, None).await
    }

    /// [`Service::claim`] by a session's `player`: the claimed seat belongs to the player too.
    pub async fn claim_as(&self, id: &str, code: &str, player: Option<&str>) -> Res<Claimed> {
        if code.is_empty() || code.len() > 128 {
            return Err(Failure::BadRequest(
                "\"code\" must be the claim code from the invite link".into(),
            ));
        }
        let h = seeds::digest(code);
        // A game cached before another server changed its invite may be stale: on a
        // refusal, look once more at the stored game.
        for fresh in [false, true] {
            if fresh {
                self.reload(id).await;
            }
            let arc = self.get(id).await?;
            let mut l = arc.lock().await;
            let refusal = match (l.open_seat(), &l.meta.invite) {
                (None, _) if l.meta.mode != "online" => {
                    return Err(Failure::Conflict(without_invite(&l.meta.mode, "claim")));
                }
                (None, _) => {
                    Failure::Conflict("this game's invite has already been claimed".into())
                }
                (Some(_), None) => {
                    Failure::Conflict("this invite was revoked by the game's creator".into())
                }
                (Some(_), Some(x)) if *x != h => Failure::Forbidden(
                    "the claim code is not this game's invite; ask for a new link".into(),
                ),
                (Some(p), Some(_)) => {
                    let token = random_token();
                    let th = seeds::digest(&token);
                    let seat = p.index() as u8 + 1;
                    let series_seat = l
                        .series
                        .as_ref()
                        .map_or(seat, |s| series::seat_of(s.first, p));
                    let (store, key, code_hash, tok) =
                        (self.store.clone(), id.to_string(), h.clone(), th.clone());
                    let ok =
                        blocking(move || store.claim(&key, seat, series_seat, &code_hash, &tok))
                            .await?;
                    if !ok {
                        drop(l);
                        self.reload(id).await;
                        return Err(Failure::Conflict(
                            "this invite has already been claimed or was revoked".into(),
                        ));
                    }
                    l.meta.token_hashes[p.index()] = Some(th.clone());
                    l.meta.invite = None;
                    if let Some(s) = &mut l.series {
                        s.meta.token_hashes[series_seat as usize - 1] = Some(th);
                    }
                    l.publish(&Notice::Invite {
                        open: false,
                        claimed: true,
                    });
                    if let (Some(pl), None) = (player, &l.series) {
                        let (store, key, pl, s) =
                            (self.store.clone(), id.to_string(), pl.to_string(), seat);
                        if blocking(move || crate::players::set_player(&*store, &key, s, &pl))
                            .await?
                        {
                            let _ = self.load_online(&mut l).await;
                        }
                    }
                    return Ok(Claimed {
                        id: id.to_string(),
                        seat,
                        token,
                        state: l.state(0),
                    });
                }
            };
            if fresh {
                return Err(refusal);
            }
        }
        Err(Failure::Internal("unreachable".into()))
    }

    /// Revokes (`renew` false) or replaces (`renew` true) the open invite of game `id`, for
    /// the creator (the seat of `token`) while the invited seat is unclaimed. Returns the new
    /// invite path, if any.
    pub async fn invite(&self, id: &str, token: Who<'_>, renew: bool) -> Res<InviteLink> {
        let arc = self.get(id).await?;
        let mut l = arc.lock().await;
        l.seat_of(token)?;
        if l.meta.mode != "online" {
            let what = if renew { "renew" } else { "revoke" };
            return Err(Failure::Conflict(without_invite(&l.meta.mode, what)));
        }
        let Some(p) = l.open_seat() else {
            drop(l);
            self.reload(id).await;
            return Err(Failure::Conflict(
                "the invite has already been claimed: the other seat is taken".into(),
            ));
        };
        let code = renew.then(random_token);
        let h = code.as_deref().map(seeds::digest);
        let (store, key, hh) = (self.store.clone(), id.to_string(), h.clone());
        let seat = p.index() as u8 + 1;
        if !blocking(move || store.set_invite(&key, seat, hh.as_deref())).await? {
            drop(l);
            self.reload(id).await;
            return Err(Failure::Conflict(
                "the invite has already been claimed: the other seat is taken".into(),
            ));
        }
        l.meta.invite = h;
        l.publish(&Notice::Invite {
            open: renew,
            claimed: false,
        });
        Ok(InviteLink {
            invite: code.map(|c| format!("/g/{id}#claim={c}")),
        })
    }

    /// The move the hint level would play now, for the seat to move.
    pub async fn hint(&self, client: Client, id: &str, token: Who<'_>) -> Res<Hint> {
        let arc = self.get(id).await?;
        let l = arc.lock().await;
        let seat = l.seat_of(token)?;
        if l.online.clock.is_some() || l.online.rated {
            return Err(Failure::Forbidden(
                "no hints in a game on a clock or a rated game: it is between two people".into(),
            ));
        }
        l.check_turn(seat, false)?;
        let g = l.game;
        let seed = bot_seed(l.meta.seed, g.decisions()) ^ 0x5eed;
        drop(l);
        let (m, score, moves) = self
            .bots
            .run(Work::Ask, client, move || {
                opponent::hint(&g, seed).map(|h| {
                    let (m, s) = (h.best, h.chance(h.best).unwrap_or(0.0));
                    let all: Vec<MoveValue> = h
                        .best_first()
                        .into_iter()
                        .map(|(m, win)| MoveValue {
                            mv: g.move_string(m),
                            win,
                        })
                        .collect();
                    (g.move_string(m), s, all)
                })
            })
            .await?
            .map_err(Failure::Internal)?;
        Ok(Hint {
            mv: m,
            score,
            level: opponent::HINT_LEVEL,
            moves,
        })
    }

    /// The analysis of a finished game (issue 19): computed once in the background; until
    /// then its progress. Refused while the game runs, so that no player of an online game
    /// sees win chances during it.
    pub async fn analysis(&self, client: Client, id: &str) -> Res<wire::AnalysisReply> {
        let arc = self.get(id).await?;
        let l = arc.lock().await;
        if !matches!(l.game.status(), Status::Over(_)) {
            return Err(Failure::Conflict(
                "the analysis is made once the game is over".into(),
            ));
        }
        let rec = l.record();
        drop(l);
        self.analyses
            .get_or_start(self.store.clone(), client, id, rec)
            .await
    }

    /// The game record (`senet-record/1`); the seed is in it once the game is over.
    pub async fn record(&self, id: &str) -> Res<String> {
        let l = self.get(id).await?;
        let l = l.lock().await;
        Ok(l.record().to_json())
    }

    /// The position after the first `at` events (all when `None`), for review.
    pub async fn review(&self, id: &str, at: Option<usize>) -> Res<wire::Review> {
        let arc = self.get(id).await?;
        let l = arc.lock().await;
        let total = l.events.len();
        let at = at.unwrap_or(total);
        if at > total {
            return Err(Failure::Unprocessable(format!(
                "at must be from 0 to {total}, got {at}"
            )));
        }
        let mut g = l.start;
        let rec = l.record();
        for e in &rec.events[..at] {
            let ev = match e {
                senet_rules::Event::Throw { throw } => StoredEvent::Throw(throw.clone()),
                senet_rules::Event::Move { mv } => StoredEvent::Move(mv.clone()),
            };
            apply(&mut g, &ev, 0).map_err(Failure::Internal)?;
        }
        Ok(wire::Review {
            at,
            total,
            event: at.checked_sub(1).map(|i| l.events[i].clone()),
            position: g.position(),
            status: status_of(&g),
            view: g.view(),
            legal: legal_moves(&g),
        })
    }

    /// For a finished game: the seed, its published hash, and every throw with the
    /// distribution it was drawn from, so that a browser can check them (see [`seeds`]).
    pub async fn throws(&self, id: &str) -> Res<Throws> {
        let arc = self.get(id).await?;
        let l = arc.lock().await;
        if l.meta.page_throws {
            return Err(Failure::Conflict(
                "this game's throws were drawn by a browser while the server was out of reach (an uploaded offline game): there is no seed to check them by"
                    .into(),
            ));
        }
        if !matches!(l.game.status(), Status::Over(_)) {
            return Err(Failure::Conflict(
                "the seed is revealed when the game is over".into(),
            ));
        }
        let mut g = l.start;
        let mut list = Vec::new();
        let rec = l.record();
        for e in &rec.events {
            match e {
                senet_rules::Event::Throw { throw } => {
                    list.push(DrawnThrow {
                        throw: throw.clone(),
                        outcomes: dist(&g),
                    });
                    apply(&mut g, &StoredEvent::Throw(throw.clone()), 0)
                }
                senet_rules::Event::Move { mv } => apply(&mut g, &StoredEvent::Move(mv.clone()), 0),
            }
            .map_err(Failure::Internal)?;
        }
        Ok(Throws {
            seed: l.meta.seed.to_string(),
            seed_hash: l.meta.seed_hash.clone(),
            throws: list,
        })
    }

    /// Summaries of the listed games that exist.
    pub async fn summaries(&self, ids: Vec<String>) -> Res<Vec<Summary>> {
        if ids.len() > 100 {
            return Err(Failure::BadRequest("at most 100 IDs per request".into()));
        }
        let ids: Vec<String> = ids.into_iter().filter(|i| valid_id(i)).collect();
        let store = self.store.clone();
        blocking(move || store.summaries(&ids)).await
    }

    /// Opens a live connection: the full state now, then every change. A valid seat token
    /// marks that seat as present; without one the connection is a spectator's.
    pub async fn subscribe(&self, client: Client, id: &str, token: Who<'_>) -> Res<Subscription> {
        let arc = self.get(id).await?;
        let mut l = arc.lock().await;
        // A seat's token must be the seat's; a session's player who is not seated watches.
        let slot = match (token.token, token.player) {
            (None, None) => 2,
            (None, Some(_)) => l.seat_of(token).map_or(2, |p| p.index()),
            (Some(_), _) => l.seat_of(token)?.index(),
        };
        let per_game = self.watch_per_game.load(Ordering::Relaxed);
        if l.watchers.iter().sum::<u32>() as usize >= per_game {
            return Err(Failure::Busy(format!(
                "game {id} already has {per_game} live connections, the most allowed; try again later"
            )));
        }
        {
            let per_client = self.watch_per_client.load(Ordering::Relaxed);
            let mut by = self
                .watchers_by_client
                .lock()
                .unwrap_or_else(|p| p.into_inner());
            let n = by.entry(client).or_insert(0);
            if *n >= per_client {
                return Err(Failure::Busy(format!(
                    "this address already has {per_client} live connections, the most allowed; close some first"
                )));
            }
            *n += 1;
        }
        let rx = l.tx.subscribe();
        l.watchers[slot] += 1;
        if slot < 2 && l.watchers[slot] == 1 {
            self.seat_presence(&mut l, slot, true);
        }
        let mut first = l.state(0);
        first.kind = Some(StateMessage::State);
        let flipped = l.watchers[slot] == 1;
        self.presence_changed(&arc, &mut l, slot, flipped);
        Ok(Subscription {
            // Cannot fail (no map with other keys than text); if it did, the reader would
            // be told to fetch the state.
            first: serde_json::to_string(&first).unwrap_or_else(|_| RESYNC.to_string()),
            rx,
            slot,
            id: id.to_string(),
            client,
        })
    }

    /// Ends a live connection.
    pub async fn unsubscribe(&self, sub: &Subscription) {
        {
            let mut by = self
                .watchers_by_client
                .lock()
                .unwrap_or_else(|p| p.into_inner());
            if let Some(n) = by.get_mut(&sub.client) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    by.remove(&sub.client);
                }
            }
        }
        if let Ok(arc) = self.get(&sub.id).await {
            let mut l = arc.lock().await;
            l.watchers[sub.slot] = l.watchers[sub.slot].saturating_sub(1);
            let flipped = l.watchers[sub.slot] == 0;
            if sub.slot < 2 && flipped {
                self.seat_presence(&mut l, sub.slot, false);
            }
            self.presence_changed(&arc, &mut l, sub.slot, flipped);
        }
    }

    /// Tells watchers who is present: at once when a seat comes or goes (`flipped`), else
    /// (spectators) at most once per [`PRESENCE_EVERY`], so that many watchers joining and
    /// leaving one game cost O(1) each instead of a message to every watcher per join.
    fn presence_changed(
        &self,
        arc: &Arc<AsyncMutex<Live>>,
        l: &mut Live,
        slot: usize,
        flipped: bool,
    ) {
        if slot < 2 && flipped {
            l.publish(&presence(l));
            return;
        }
        if l.presence_pending {
            return;
        }
        l.presence_pending = true;
        let arc = arc.clone();
        tokio::spawn(async move {
            tokio::time::sleep(PRESENCE_EVERY).await;
            let mut l = arc.lock().await;
            l.presence_pending = false;
            l.publish(&presence(&l));
        });
    }

    /// Live connections allowed per game and per client address (defaults 200 and 20).
    pub fn set_watch_limits(&self, per_game: usize, per_client: usize) {
        self.watch_per_game
            .store(per_game.max(1), Ordering::Relaxed);
        self.watch_per_client
            .store(per_client.max(1), Ordering::Relaxed);
    }

    /// Drops every cached game (tests: the next request reloads from the store).
    pub fn clear_cache(&self) {
        self.cache().clear();
    }
}

fn presence(l: &Live) -> Notice {
    Notice::Presence {
        watchers: l.watchers(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Finished series' records are kept by count and bytes, the most recent first.
    #[test]
    fn recent_texts_keep_the_newest_within_count_and_bytes() {
        let r = RecentTexts::new(2, 10);
        r.put("a", "1234");
        r.put("b", "5678");
        r.put("c", "9");
        assert_eq!(
            (r.get("a"), r.get("b"), r.get("c")),
            (None, Some("5678".into()), Some("9".into()))
        );
        r.put("d", "123456789");
        // Two kept, ten bytes in all: "b" goes by count.
        assert_eq!(
            (r.get("b"), r.get("c"), r.get("d")),
            (None, Some("9".into()), Some("123456789".into()))
        );
        r.put("e", "12");
        // Over ten bytes: the oldest go until it fits.
        assert_eq!(
            (r.get("c"), r.get("d"), r.get("e")),
            (None, None, Some("12".into()))
        );
        r.put("d", "x");
        assert_eq!(r.get("d"), Some("x".into()));
    }

    /// Bots' replies start before questions, and waiting clients take turns: one client's
    /// many questions do not all go before another's one (issue 36).
    #[test]
    fn replies_come_before_questions_and_clients_take_turns() {
        let (a, b, c): (Client, Client, Client) = (
            "10.0.0.1".parse().unwrap(),
            "10.0.0.2".parse().unwrap(),
            "10.0.0.3".parse().unwrap(),
        );
        let mut q = Queues::default();
        let mut rx = Vec::new();
        for (work, who, name) in [
            (Work::Ask, a, "a1"),
            (Work::Ask, a, "a2"),
            (Work::Ask, a, "a3"),
            (Work::Ask, b, "b1"),
            (Work::Reply, c, "c1"),
        ] {
            let (tx, r) = tokio::sync::oneshot::channel();
            q.push(work, who, tx);
            rx.push((name, who, r));
        }
        // One search at a time: note which starts after each finish.
        let mut order = Vec::new();
        for _ in 0..5 {
            q.dispatch(1, 2);
            let (name, who) = rx
                .iter_mut()
                .find_map(|(n, w, r)| r.try_recv().is_ok().then_some((*n, *w)))
                .expect("one started");
            order.push(name);
            q.finish(who);
        }
        assert_eq!(order, ["c1", "a1", "b1", "a2", "a3"]);
        // A client at its own bound waits while another's search starts.
        let mut q = Queues::default();
        let mut started = Vec::new();
        for who in [a, a, b] {
            let (tx, r) = tokio::sync::oneshot::channel();
            q.push(Work::Reply, who, tx);
            started.push(r);
        }
        q.dispatch(2, 1);
        let ok: Vec<bool> = started.iter_mut().map(|r| r.try_recv().is_ok()).collect();
        assert_eq!(ok, [true, false, true]);
    }

    /// A bot's reply of `ms` milliseconds for `who`, started in the background.
    fn long_reply(
        limiter: &Arc<BotLimiter>,
        who: Client,
        ms: u64,
    ) -> tokio::task::JoinHandle<Res<()>> {
        let l = limiter.clone();
        tokio::spawn(async move {
            l.run(Work::Reply, who, move || {
                std::thread::sleep(Duration::from_millis(ms))
            })
            .await
        })
    }

    /// A question queued behind busy searches is refused within its bound (503), a bot's
    /// reply waits its turn, and a question that gave up never takes a place.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_question_waits_at_most_its_bound_and_replies_wait_their_turn() {
        let limiter = Arc::new(BotLimiter::new(
            1,
            2,
            prometheus::IntCounter::new("t", "t").unwrap(),
        ));
        *limiter.ask_wait.lock().unwrap() = Duration::from_millis(150);
        let who: Client = "10.0.0.1".parse().unwrap();
        let long = long_reply(&limiter, who, 800);
        tokio::time::sleep(Duration::from_millis(100)).await;
        let t = std::time::Instant::now();
        let other: Client = "10.0.0.2".parse().unwrap();
        let asked = limiter.run(Work::Ask, other, || 7).await;
        assert!(matches!(asked, Err(Failure::Unavailable(_))), "{asked:?}");
        assert!(
            t.elapsed() < Duration::from_millis(600),
            "{:?}",
            t.elapsed()
        );
        let l = limiter.clone();
        let reply = tokio::spawn(async move { l.run(Work::Reply, other, || 8).await });
        long.await.unwrap().unwrap();
        assert_eq!(reply.await.unwrap().unwrap(), 8);
        assert_eq!(limiter.queues().running, 0);
        assert_eq!(limiter.run(Work::Ask, other, || 9).await.unwrap(), 9);
    }

    /// A request given up after its turn came (its connection closed) gives the place back:
    /// the server's searches do not leak away (issue 36 review).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_search_given_up_after_its_turn_came_gives_its_place_back() {
        use std::future::Future;
        let limiter = Arc::new(BotLimiter::new(
            1,
            2,
            prometheus::IntCounter::new("t", "t").unwrap(),
        ));
        let who: Client = "10.0.0.1".parse().unwrap();
        let long = long_reply(&limiter, who, 300);
        tokio::time::sleep(Duration::from_millis(50)).await;
        let other: Client = "10.0.0.2".parse().unwrap();
        let mut asked = Box::pin(limiter.run(Work::Ask, other, || 1));
        // Polled once: it waits in the queue.
        std::future::poll_fn(|cx| {
            assert!(asked.as_mut().poll(cx).is_pending());
            std::task::Poll::Ready(())
        })
        .await;
        long.await.unwrap().unwrap();
        // Its turn came when the long search ended; it is given up without running.
        assert_eq!(limiter.queues().running, 1);
        drop(asked);
        assert_eq!(limiter.queues().running, 0);
        assert_eq!(limiter.run(Work::Reply, who, || 2).await.unwrap(), 2);
    }

    #[test]
    fn c7_a_stored_pyramid_game_with_the_old_pass_for_a_lost_die_still_loads() {
        // Black plays 30-off with the 1 of 1-3; the 3 has no move and is lost (C7). A game
        // stored before C7 holds an explicit `pass` next: it loads, and changes nothing.
        let mut g: AnyGame = "pyramid ........S..S..ss.............S off=-,- turn=1 dice=- dec=20"
            .parse()
            .unwrap();
        apply(&mut g, &StoredEvent::Throw("1-3".into()), 0).unwrap();
        apply(&mut g, &StoredEvent::Move("30-off".into()), 1).unwrap();
        let after = g;
        let out = apply(&mut g, &StoredEvent::Move("pass".into()), 2).unwrap();
        // The board and the turn are unchanged; the pass counts as the decision it was (C5).
        assert_eq!(g.decisions(), after.decisions() + 1);
        assert_eq!(
            g.position(),
            after.position().replace("dec=21", "dec=22"),
            "only the decision count moves"
        );
        assert_eq!(out.mv.as_deref(), Some("pass"));
        assert!(!out.turn_continues);
        // The next player's throw follows as usual.
        apply(&mut g, &StoredEvent::Throw("2-4".into()), 3).unwrap();
        assert!(matches!(g.status(), Status::Move(Player::Second)));
    }

    #[test]
    fn c7_a_stored_pyramid_game_that_the_old_pass_brought_to_the_turn_cap_is_over() {
        // Issue 36: the smallest case. With the cap at 7 and 5 decisions played, white throws
        // 2-2 and can play only 26-28 (Y8); the other 2 is lost (C7). Before C7 the game
        // stored an explicit `pass` as decision 7, which ended it at the cap (C5).
        let mut g: AnyGame =
            "pyramid:cap=7 LlLlMmMmMmSsSs.sSS....S..s.... off=-,- turn=2 dice=- dec=5"
                .parse()
                .unwrap();
        apply(&mut g, &StoredEvent::Throw("2-2".into()), 0).unwrap();
        apply(&mut g, &StoredEvent::Move("26-28".into()), 1).unwrap();
        assert!(matches!(g.status(), Status::Throw(Player::First)));
        apply(&mut g, &StoredEvent::Move("pass".into()), 2).unwrap();
        let Status::Over(o) = g.status() else {
            panic!("the stored game should be over: {}", g.position())
        };
        assert!(o.capped && o.winner.is_none(), "{o:?}");
        assert!(
            apply(&mut g, &StoredEvent::Throw("1-1".into()), 3).is_err(),
            "nothing follows the end"
        );
    }
}
