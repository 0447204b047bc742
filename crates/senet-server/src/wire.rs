//! The JSON of the API as Rust types: every request and response body and every WebSocket
//! message. Handlers answer with these types (serialised by serde) and the OpenAPI document
//! is generated from the same types (utoipa's `ToSchema`, see [`crate::api`]), so the
//! document cannot drift from what the server sends. Rule data comes from the rules crate's
//! own types (`BoardView`, `Target`, ...) and analyses from the bots crate's, which derive
//! `ToSchema` under their `openapi` feature.

use senet_bots::analysis::{Analysis, MoveValue};
use senet_rules::{BoardView, Target, ThrowKind};
use serde::Serialize;
use std::collections::BTreeMap;
use utoipa::ToSchema;

/// An error: why the request was refused (4xx) or failed (5xx). A refused request changes
/// nothing.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = Error)]
pub struct ErrorBody {
    /// The explanation, in words.
    pub error: String,
}

/// `GET /healthz`: whether the server and its database answer.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok`, or `unavailable` (then the status is 503).
    pub status: String,
    /// `ok`, or why the database did not answer.
    pub database: String,
    /// Whether the server was told to stop and is finishing its requests.
    pub stopping: bool,
}

/// One side as the rule set names it, with the colour word of its pieces.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Side {
    /// The side's name, e.g. `black` (pyramid) or `Arms` (senat).
    pub name: &'static str,
    /// The colour of its pieces: light, dark, black, white, red or yellow.
    pub colour: &'static str,
}

/// A rule set's option, by type.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum OptionInfo {
    /// `true` or `false`.
    Bool {
        /// The option's name (`NAME=VALUE` in `options`).
        name: &'static str,
        /// The value when not given.
        default: bool,
        /// What it does, with its ruling.
        description: &'static str,
    },
    /// A whole number in `min..=max`.
    Int {
        /// The option's name (`NAME=VALUE` in `options`).
        name: &'static str,
        /// The value when not given.
        default: u32,
        /// Smallest accepted value.
        min: u32,
        /// Largest accepted value.
        max: u32,
        /// What it does, with its ruling.
        description: &'static str,
    },
}

/// A special square of a board.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Special {
    /// The cell's label.
    pub label: String,
    /// What is special about it, with its ruling.
    pub text: &'static str,
    /// Its short mark (a word of at most eight letters), where it has one.
    #[schema(required = true)]
    pub mark: Option<&'static str>,
}

/// A rule set as the lobby and the rules summary show it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RuleInfo {
    /// Rule set ID (`rules` of `POST /api/games`).
    pub id: &'static str,
    /// Its name.
    pub name: &'static str,
    /// Where the rules come from.
    pub source: &'static str,
    /// Its options.
    pub options: Vec<OptionInfo>,
    /// The two sides, first player then second.
    pub sides: [Side; 2],
    /// The outcomes of a throw at the start as `[throw, weight]` (integer weights; the
    /// chance is the weight over their sum).
    pub throws: Vec<(String, u32)>,
    /// What the throws are made with.
    pub throw_kind: ThrowKind,
    /// The direction of travel, for a legend.
    pub path: &'static str,
    /// The special squares.
    pub specials: Vec<Special>,
    /// Each player's pieces.
    pub pieces: [u8; 2],
}

/// Every rule set and the bot levels.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Catalogue {
    /// Every rule set with its options, throws, board path and special squares.
    pub rules: Vec<RuleInfo>,
    /// The bot levels (`bot` of `POST /api/games`), weakest first.
    pub levels: Vec<&'static str>,
    /// The level hints are given at.
    pub hint_level: &'static str,
}

/// Summaries of the listed games that exist.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct GameList {
    /// The games, most recent first.
    pub games: Vec<crate::store::Summary>,
}

/// Who sits in a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum SeatKind {
    /// A person.
    Human,
    /// A bot (its level in `bot`).
    Bot,
}

/// A player of a game and who plays it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PlayerSeat {
    /// The player, 1 or 2.
    pub player: usize,
    /// Human or bot.
    pub kind: SeatKind,
    /// The bot's level, for a bot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
    /// A bot that the page plays with its own engine (the seat's token is the page's);
    /// absent for a bot the server plays and for a person.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub in_page: bool,
}

/// Where a game stands.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(tag = "state", rename_all = "lowercase")]
pub enum GameStatus {
    /// A player is to throw.
    Throw {
        /// The player to throw, 1 or 2.
        player: usize,
    },
    /// A player is to move with the throw in hand.
    Move {
        /// The player to move, 1 or 2.
        player: usize,
        /// The throw in hand.
        #[schema(required = true)]
        throw: Option<String>,
    },
    /// The game is over.
    Over {
        /// The winner, 1 or 2 (null: no winner at the turn cap).
        #[schema(required = true)]
        winner: Option<usize>,
        /// Whether the game ended at the turn cap.
        capped: bool,
        /// The players' scores, where the rule set scores.
        #[schema(required = true)]
        score: Option<[u32; 2]>,
    },
}

/// A legal move with its squares and effects.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct LegalMove {
    /// The move string (send it as `move`).
    #[serde(rename = "move")]
    pub mv: String,
    /// The square it moves from (null for a pass).
    #[schema(required = true)]
    pub from: Option<u8>,
    /// The square it moves to (null for a pass).
    #[schema(required = true)]
    pub to: Option<u8>,
    /// The name of `from`.
    #[schema(required = true)]
    pub from_name: Option<String>,
    /// The name of `to`.
    #[schema(required = true)]
    pub to_name: Option<String>,
    /// What the move does: step, backward, swap, capture, sent back, trap, bear off,
    /// forfeit, bonus throw.
    pub kinds: Vec<&'static str>,
    /// Whether the mover goes on after it.
    pub turn_continues: bool,
    /// The die it uses, in rule sets with two dice.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub die: Option<String>,
}

/// Who is watching a game live.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Watchers {
    /// Whether each seat has a live connection.
    pub seats: [bool; 2],
    /// Live connections without a seat token.
    pub spectators: u32,
}

/// A series seat as a game of the series sees it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SeriesGameSeat {
    /// The series seat, 1 or 2.
    pub seat: usize,
    /// The player this seat is in this game.
    pub player: u8,
    /// Human or bot.
    pub kind: SeatKind,
    /// The bot's level, for a bot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
    /// A bot that the page plays with its own engine (the seat's token is the page's);
    /// absent for a bot the server plays and for a person.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub in_page: bool,
}

/// Who starts each game of a series.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum StartsName {
    /// The series seats take turns.
    Alternate,
    /// The rule set's own start rule (a fair draw; in parker the dice-off of P3).
    Rules,
}

/// A game's place in its series (issue 13). Seats are the series' two seats, by number;
/// each game says which seat plays player 1.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SeriesInfo {
    /// The series' ID.
    pub id: String,
    /// The game's number in the series, from 1.
    pub game: u32,
    /// What the series is played to.
    pub target: Target,
    /// Who starts each game.
    pub starts: StartsName,
    /// The series seat playing player 1 in this game.
    pub first: u8,
    /// The series' seats.
    pub seats: Vec<SeriesGameSeat>,
    /// Whether the rule set scores (parker P11, senat with score S12, pyramid Y9); else a
    /// point is a game won.
    pub scores: bool,
    /// Points of seats 1 and 2 before this game.
    pub before: [u32; 2],
    /// This game's points of seats 1 and 2, once over (nothing at the turn cap).
    #[schema(required = true)]
    pub points: Option<[u32; 2]>,
    /// The running score of seats 1 and 2.
    pub score: [u32; 2],
    /// Whether the series is over.
    pub over: bool,
    /// The winning seat once over (null: a drawn series, or not over).
    #[schema(required = true)]
    pub winner: Option<u8>,
    /// The next game's ID once either seat started it.
    #[schema(required = true)]
    pub next: Option<String>,
}

/// What a state sent over the WebSocket is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum StateMessage {
    /// The first message: the state with every event.
    State,
    /// A change: the state with the events from `events_from`.
    Update,
}

/// A game's state: the position, whose turn, the legal moves, the seats and the events.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = State)]
pub struct GameState {
    /// Game ID.
    pub id: String,
    /// Rule set ID.
    pub rules: &'static str,
    /// The rule set's name.
    pub rules_name: &'static str,
    /// The two sides as the rule set names them (first player, then second), with the
    /// colour word of their pieces.
    pub sides: [Side; 2],
    /// The options, as `NAME=VALUE`.
    pub options: Vec<String>,
    /// `bot`, `hotseat` or `online`.
    pub mode: String,
    /// Who plays each player.
    pub seats: Vec<PlayerSeat>,
    /// Number of events; send it back as `seq` to detect a stale page.
    pub seq: usize,
    /// Decisions played.
    pub moves: u32,
    /// Whose turn, or the result.
    pub status: GameStatus,
    /// Position string (docs/notation.md).
    pub position: String,
    /// The board as drawn.
    pub view: BoardView,
    /// The legal moves.
    pub legal: Vec<LegalMove>,
    /// When a throw is pending: its outcomes as `[throw, weight]`.
    pub throws: Vec<(String, u32)>,
    /// What the game's throws are made with (a single value of dice is the die left to
    /// play).
    pub throw_kind: ThrowKind,
    /// SHA-256 commitment to the game's seed.
    pub seed_hash: String,
    /// Online games: an invite is open (unclaimed, not revoked).
    pub invite_open: bool,
    /// Online games: the seat still waiting for its invite to be claimed.
    #[schema(required = true)]
    pub open_seat: Option<usize>,
    /// The seed, revealed when the game is over; always null for a game whose throws were
    /// drawn by a browser (`page_throws`).
    #[schema(required = true)]
    pub seed: Option<String>,
    /// The throws were drawn by a player's browser while the server was out of reach: a
    /// finished game played in the page and uploaded afterwards (`POST /api/games/import`).
    /// The server cannot vouch for such throws: the game has no seed (`seed_hash` is empty,
    /// `seed` null) and `GET /api/games/{id}/throws` answers 409.
    pub page_throws: bool,
    /// Who is watching live.
    pub watchers: Watchers,
    /// Index of the first event in `events`.
    pub events_from: usize,
    /// The events from `events_from` on.
    pub events: Vec<crate::service::EventOut>,
    /// The game's place in its series; null for a single game.
    #[schema(required = true)]
    pub series: Option<SeriesInfo>,
    /// The players of seats 1 and 2 of a game between players (null otherwise), with their
    /// ratings now, or, once a rated game's result is applied, the ratings it made.
    #[schema(required = true)]
    pub players: [Option<PlayerRef>; 2],
    /// The seat of the asking session's player: in answers to `GET /api/games/{id}` only;
    /// always null in WebSocket messages, which every watcher shares.
    #[schema(required = true)]
    pub you: Option<u8>,
    /// Whether the game is rated.
    pub rated: bool,
    /// The clock, for a game with one.
    #[schema(required = true)]
    pub clock: Option<ClockView>,
    /// How a game between players ended (also when by the rules); null while it runs.
    #[schema(required = true)]
    pub result: Option<ResultOut>,
    /// A seat that has had no connection, in a live game still running.
    #[schema(required = true)]
    pub away: Option<AwayOut>,
    /// A rematch offered or made.
    #[schema(required = true)]
    pub rematch: Option<RematchOut>,
    /// The rating changes of seats 1 and 2 once a rated game's result is applied.
    #[schema(required = true)]
    pub rating_change: Option<[i64; 2]>,
    /// The tournament the game belongs to (its page is `/tournaments/ID`); null for a game
    /// of no tournament.
    #[schema(required = true)]
    pub tournament: Option<String>,
    /// Only on WebSocket messages.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<StateMessage>,
}

/// A finished game played in the page with no server (offline: the page's engine drew its
/// throws), to be stored (`POST /api/games/import`).
#[derive(Clone, Debug, serde::Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportGame {
    /// The game's record: a `senet-record/1` object (docs/notation.md) as the page's engine
    /// or a game's record download writes it, starting from the rule set's start, with no
    /// `seed` (throws drawn by a browser have none), replaying without an illegal event to
    /// the end of the game.
    #[schema(value_type = Object)]
    pub record: serde_json::Value,
    /// `bot` (a person against a bot the page played) or `hotseat` (two people on one
    /// screen).
    pub mode: String,
    /// Mode `bot` only: the bot's level (`levels` of `GET /api/rules`).
    #[serde(default)]
    pub bot: Option<String>,
    /// Mode `bot` only: the person's seat, 1 or 2 (1 when absent); the bot had the other.
    #[serde(default)]
    pub seat: Option<u8>,
}

/// A created game: its ID, the creator's seat tokens and, for online games, the invite link.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Created {
    /// Game ID.
    pub id: String,
    /// Seat number ("1", "2") to token, for the creator's seats.
    pub tokens: BTreeMap<String, String>,
    /// Online games: path of the invite link, `/g/ID#claim=CODE`; its one-time claim code
    /// gives the other seat to whoever claims it first (`POST /api/games/{id}/claim`). The
    /// creator holds no token for that seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
    /// The game's state.
    pub state: GameState,
    /// The series' ID, when a series was created.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub series: Option<String>,
}

/// A claimed invite: the seat and its token.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Claimed {
    /// Game ID.
    pub id: String,
    /// The claimed seat, 1 or 2.
    pub seat: u8,
    /// The seat's token (`Authorization: Bearer TOKEN`).
    pub token: String,
    /// The game's state.
    pub state: GameState,
}

/// An online game's invite after a change.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct InviteLink {
    /// The new invite link's path, or null once revoked.
    #[schema(required = true)]
    pub invite: Option<String>,
}

/// The hint: the hint level's move and every legal move's win chance.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Hint {
    /// The move the hint level would play.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its win chance for the mover.
    pub score: f64,
    /// The level the hint is given at.
    pub level: &'static str,
    /// Every legal move with its win chance, best first.
    pub moves: Vec<MoveValue>,
}

/// The board after the first `at` events of a game.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Review {
    /// Events played to reach the board.
    pub at: usize,
    /// Events of the game.
    pub total: usize,
    /// The last event played (event `at - 1`); null at the start.
    #[schema(required = true)]
    pub event: Option<crate::service::EventOut>,
    /// Position string.
    pub position: String,
    /// Whose turn, or the result.
    pub status: GameStatus,
    /// The board as drawn.
    pub view: BoardView,
    /// The legal moves.
    pub legal: Vec<LegalMove>,
}

/// A throw of a finished game and the distribution it was drawn from.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct DrawnThrow {
    /// The throw.
    pub throw: String,
    /// The outcomes it was drawn from as `[throw, weight]`, in drawing order.
    pub outcomes: Vec<(String, u32)>,
}

/// A finished game's seed, its published hash and every throw with its distribution.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Throws {
    /// The seed (decimal).
    pub seed: String,
    /// SHA-256("senet-seed:SEED"), published at the start.
    pub seed_hash: String,
    /// Every throw in order.
    pub throws: Vec<DrawnThrow>,
}

/// The next game of a series.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct NextGame {
    /// The next game's ID.
    pub id: String,
    /// The caller's player number in it.
    pub seat: u8,
    /// The series' ID.
    pub series: String,
    /// The next game's state.
    pub state: GameState,
}

/// A series seat.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SeriesSeat {
    /// The seat, 1 or 2.
    pub seat: usize,
    /// Human or bot.
    pub kind: SeatKind,
    /// The bot's level, for a bot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
    /// A bot that the page plays with its own engine (the seat's token is the page's);
    /// absent for a bot the server plays and for a person.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub in_page: bool,
}

/// Whether a game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Playing {
    /// Still played.
    Playing,
    /// Over.
    Over,
}

/// A game of a series.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SeriesGame {
    /// Game ID.
    pub id: String,
    /// The game's number in the series, from 1.
    pub game: u32,
    /// The series seat playing player 1.
    pub first: u8,
    /// Over or playing.
    pub state: Playing,
    /// The game's points of seats 1 and 2, once over.
    #[schema(required = true)]
    pub points: Option<[u32; 2]>,
    /// The winning seat, once over (null: no winner).
    #[schema(required = true)]
    pub winner: Option<u8>,
    /// The running score after this game.
    pub score: [u32; 2],
    /// Decisions played.
    pub moves: u32,
}

/// A series: its settings, seats, games and standing.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Series {
    /// The series' ID.
    pub id: String,
    /// Rule set ID.
    pub rules: String,
    /// The options, as `NAME=VALUE`.
    pub options: Vec<String>,
    /// `bot`, `hotseat` or `online`.
    pub mode: String,
    /// What the series is played to.
    pub target: Target,
    /// Who starts each game: `alternate` or `rules`.
    pub starts: String,
    /// The series' seats.
    pub seats: Vec<SeriesSeat>,
    /// Whether the rule set scores; else a point is a game won.
    pub scores: bool,
    /// Every game so far.
    pub games: Vec<SeriesGame>,
    /// Points of seats 1 and 2.
    pub score: [u32; 2],
    /// Finished games.
    pub finished: usize,
    /// Whether the series is over.
    pub over: bool,
    /// The winning seat once over (null: a drawn series, or not over).
    #[schema(required = true)]
    pub winner: Option<u8>,
}

/// `done`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Done {
    /// The analysis is done.
    Done,
}

/// `running`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Running {
    /// The analysis runs (or waits for a free slot).
    Running,
}

/// A finished analysis.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct AnalysisDone {
    /// `done`.
    pub status: Done,
    /// The analysis (kept as the JSON it was stored as).
    #[schema(value_type = Analysis)]
    pub analysis: serde_json::Value,
}

/// An analysis still running.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct AnalysisRunning {
    /// `running`.
    pub status: Running,
    /// Events analysed so far (0 while queued).
    pub done: usize,
    /// Events of the record.
    pub total: usize,
}

/// The analysis of a game, or its progress.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum AnalysisReply {
    /// Done (200).
    Done(AnalysisDone),
    /// Running (202).
    Running(AnalysisRunning),
}

/// A WebSocket message other than a state.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Notice {
    /// Who is watching (seats at once, spectators at most every 300 ms).
    Presence {
        /// Who is watching live.
        watchers: Watchers,
    },
    /// The invite was claimed, revoked or renewed.
    Invite {
        /// Whether an invite is open now.
        open: bool,
        /// Whether the invited seat is taken.
        claimed: bool,
    },
    /// The reader fell behind: fetch the state.
    Resync,
}

/// A WebSocket message: a state (`type` state first, then update) or a notice. (The server
/// sends the two kinds as [`GameState`] and [`Notice`]; this type names their union for the
/// document.)
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum LiveMessage {
    /// `state` or `update`.
    State(Box<GameState>),
    /// `presence`, `invite` or `resync`.
    Notice(Notice),
}

// ---- Online play (issue 33, docs/online.md) ----

pub use crate::online::ClockJson as Clock;

/// A player as shown beside a game or a seek.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct PlayerRef {
    /// The player's ID.
    pub id: String,
    /// The player's name.
    pub name: String,
    /// The player's rating in the rule set concerned.
    #[schema(required = true)]
    pub rating: Option<i64>,
    /// Whether that rating is provisional (deviation above 110).
    pub provisional: bool,
}

/// A rating in one rule set.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RatingOut {
    /// Rule set ID.
    pub rules: String,
    /// The rule set's name.
    pub rules_name: String,
    /// Glicko-2 rating, rounded.
    pub rating: i64,
    /// Rating deviation, rounded.
    pub rd: i64,
    /// Whether the rating is provisional.
    pub provisional: bool,
    /// Rated games played.
    pub games: i64,
    /// The rating after each rated game (player pages only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub history: Option<Vec<HistoryOut>>,
}

/// One point of a rating's history.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct HistoryOut {
    /// Unix seconds.
    pub at: i64,
    /// The rating after the game.
    pub rating: i64,
    /// The deviation after the game.
    pub rd: i64,
    /// The game.
    pub game: String,
}

/// The session's player.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Me {
    /// The player's ID.
    pub id: String,
    /// The player's name.
    pub name: String,
    /// Whether the player has an account (can sign in elsewhere).
    pub account: bool,
    /// Send as `X-CSRF-Token` with every write this session's cookie authorises.
    pub csrf: String,
    /// The player's ratings.
    pub ratings: Vec<RatingOut>,
    /// The games the player is seated in that are still being played (on any browser),
    /// most recent first.
    pub playing: Vec<String>,
}

/// An open seek.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SeekOut {
    /// Seek ID.
    pub id: String,
    /// The seeker, with the rating in the seek's rule set.
    pub player: PlayerRef,
    /// Rule set ID.
    pub rules: String,
    /// The rule set's name.
    pub rules_name: String,
    /// Options as `NAME=VALUE`.
    pub options: Vec<String>,
    /// Rated or casual.
    pub rated: bool,
    /// The clock.
    pub clock: Clock,
    /// A quick-pairing player waiting (not offered to everyone).
    pub pool: bool,
    /// When (ms since the Unix epoch).
    pub created: i64,
}

/// A game being played between two players, to watch.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct LiveGame {
    /// Game ID.
    pub id: String,
    /// Rule set ID.
    pub rules: String,
    /// The rule set's name.
    pub rules_name: String,
    /// Seats 1 and 2.
    pub players: [PlayerRef; 2],
    /// The clock.
    #[schema(required = true)]
    pub clock: Option<Clock>,
    /// Rated or casual.
    pub rated: bool,
    /// Moves played.
    pub moves: i64,
}

/// A lobby WebSocket message (`GET /api/lobby/ws`).
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum LobbyMessage {
    /// The open seeks (the whole list, on connecting and on every change).
    Seeks {
        /// Oldest first.
        seeks: Vec<SeekOut>,
    },
    /// Games being played now.
    Games {
        /// Most recently changed first.
        games: Vec<LiveGame>,
    },
    /// A seek or a pairing became a game between these players.
    Paired {
        /// The game.
        game: String,
        /// The players of seats 1 and 2.
        players: [String; 2],
    },
    /// The challenges between these players changed (made, withdrawn, declined): their pages
    /// read theirs again (`GET /api/challenges`); who challenged whom is not broadcast.
    Challenges {
        /// The challenger and the challenged.
        players: [String; 2],
    },
    /// A tournament changed (a player joined or left, a pairing, a game ended, it started
    /// or ended): its whole state, standings included (issue 57). Sent by every server
    /// within a second of the change.
    Tournament {
        /// The tournament.
        tournament: Box<TournamentOut>,
    },
}

/// A challenge to a player by name (issue 57): a seek that only they may accept.
#[derive(Clone, Debug, serde::Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChallengeRequest {
    /// The challenged player's name.
    pub player: String,
    /// Rule set ID.
    pub rules: String,
    /// Options as `NAME=VALUE`.
    #[serde(default)]
    pub options: Vec<String>,
    /// Rated (default) or casual.
    #[serde(default = "yes")]
    pub rated: bool,
    /// The clock.
    pub clock: Clock,
}

/// A challenge as its two players see it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ChallengeOut {
    /// Its ID.
    pub id: String,
    /// Who challenged, with their rating in the rule set.
    pub from: PlayerRef,
    /// Who is challenged, with their rating in the rule set.
    pub to: PlayerRef,
    /// Rule set ID.
    pub rules: String,
    /// The rule set's name.
    pub rules_name: String,
    /// Options as `NAME=VALUE`.
    pub options: Vec<String>,
    /// Rated or casual.
    pub rated: bool,
    /// The clock.
    pub clock: Clock,
    /// When it was made (ms since 1970).
    pub created: i64,
}

/// The session's player's open challenges.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Challenges {
    /// Challenges to the player, oldest first.
    pub incoming: Vec<ChallengeOut>,
    /// Challenges the player made, oldest first.
    pub outgoing: Vec<ChallengeOut>,
}

/// A seek, or a quick pairing's wish.
#[derive(Clone, Debug, serde::Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeekRequest {
    /// Rule set ID.
    pub rules: String,
    /// Options as `NAME=VALUE`.
    #[serde(default)]
    pub options: Vec<String>,
    /// Rated (default) or casual.
    #[serde(default = "yes")]
    pub rated: bool,
    /// The clock.
    pub clock: Clock,
}

fn yes() -> bool {
    true
}

/// A game made for the caller: its ID and the caller's seat.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Paired {
    /// Game ID.
    pub game: String,
    /// The caller's seat, 1 or 2.
    pub seat: u8,
}

/// Quick pairing found nobody yet: the caller waits with this seek.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Waiting {
    /// The waiting seek's ID (delete it to stop waiting).
    pub seek: String,
}

/// A new name.
#[derive(Clone, Debug, serde::Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NameRequest {
    /// 3-20 letters, digits, `_`, `-`, starting with a letter.
    pub name: String,
}

/// A name and a password (making an account, or signing in).
#[derive(Clone, serde::Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// The name.
    pub name: String,
    /// The password (8-128 characters).
    pub password: String,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("name", &self.name)
            .field("password", &"(hidden)")
            .finish()
    }
}

/// Signing out.
#[derive(Clone, Debug, Default, serde::Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Logout {
    /// End every session of the player, not only this one.
    #[serde(default)]
    pub everywhere: bool,
}

/// A password change.
#[derive(Clone, serde::Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    /// The password now.
    pub old: String,
    /// The new password (8-128 characters).
    pub new: String,
}

/// A report about another player (issue 56).
#[derive(Clone, Debug, serde::Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReportRequest {
    /// The reported player's name.
    pub player: String,
    /// The game it is about, if any (the reported player must have played in it).
    #[serde(default)]
    pub game: Option<String>,
    /// What happened (3-500 characters).
    pub reason: String,
}

/// A report filed.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ReportMade {
    /// The report's ID.
    pub id: String,
}

/// Deleting one's own account.
#[derive(Clone, Default, serde::Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DeleteMe {
    /// The password, for an account (an anonymous player has none).
    #[serde(default)]
    pub password: Option<String>,
}

/// The account was deleted.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Deleted {
    /// The name the player's games now show.
    pub name: String,
}

/// A session, in a player's data.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SessionOut {
    /// Unix seconds.
    pub created: i64,
    /// Last used (unix seconds; written at most hourly), when known.
    #[schema(required = true)]
    pub seen: Option<i64>,
}

/// A report the player filed, in their data.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ReportOut {
    /// The report's ID.
    pub id: String,
    /// The reported player's name.
    pub player: String,
    /// The game, if any.
    #[schema(required = true)]
    pub game: Option<String>,
    /// The reason given.
    pub reason: String,
    /// Unix seconds.
    pub created: i64,
    /// When the operator dealt with it (unix seconds).
    #[schema(required = true)]
    pub resolved: Option<i64>,
}

/// Everything stored about the session's player (`GET /api/me/data`).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct MyData {
    /// When exported (unix seconds).
    pub exported: i64,
    /// The player as their page shows them, with every game.
    pub player: PlayerPage,
    /// The player's sessions (browsers signed in).
    pub sessions: Vec<SessionOut>,
    /// The reports the player filed.
    pub reports: Vec<ReportOut>,
    /// The player's puzzle rating (issue 57).
    pub puzzle_rating: PuzzleRatingOut,
    /// Every puzzle the player answered: its ID, whether the first answer solved it, when.
    pub puzzles: Vec<PuzzleAttemptOut>,
    /// The player's open challenges, to them and by them.
    pub challenges: Challenges,
    /// The tournaments the player made or plays in (invitations included), latest first;
    /// their games are in `player`'s games.
    pub tournaments: Vec<TournamentSummary>,
    /// What is not in this file, and why.
    pub not_included: String,
}

/// A puzzle a player answered.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PuzzleAttemptOut {
    /// The puzzle's ID.
    pub puzzle: String,
    /// Whether the first answer was the best move.
    pub solved: bool,
    /// When (unix seconds).
    pub at: i64,
}

/// Nothing to say beyond success.
#[derive(Clone, Debug, Default, Serialize, ToSchema)]
pub struct Empty {}

/// A game's clock at the moment of the answer.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ClockView {
    /// The clock's settings.
    pub spec: Clock,
    /// Milliseconds left of seats 1 and 2.
    pub remaining: [i64; 2],
    /// The seat whose clock runs (null once the game is over).
    #[schema(required = true)]
    pub running: Option<u8>,
}

/// How a game between players ended.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ResultOut {
    /// The winning seat, or null (a draw, an aborted game).
    #[schema(required = true)]
    pub winner: Option<u8>,
    /// `rules`, `resign`, `flag`, `flag-draw`, `abort` or `claim`.
    pub reason: String,
}

/// A seat without a connection in a live game.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct AwayOut {
    /// The seat that left.
    pub seat: u8,
    /// Milliseconds until the other may claim the win (0: now).
    pub claim_in: i64,
}

/// A rematch's state.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RematchOut {
    /// The seat offering it, until it is made.
    #[schema(required = true)]
    pub offered_by: Option<u8>,
    /// The rematch, once both agreed.
    #[schema(required = true)]
    pub game: Option<String>,
}

/// What a rematch request did: the offer stands, or the new game.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RematchReply {
    /// The new game once both agreed; null while the offer waits.
    #[schema(required = true)]
    pub game: Option<String>,
}

/// A game on a player's page.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PlayerGameOut {
    /// Game ID.
    pub id: String,
    /// Rule set ID.
    pub rules: String,
    /// The rule set's name.
    pub rules_name: String,
    /// The opponent.
    #[schema(required = true)]
    pub opponent: Option<PlayerRef>,
    /// The player's seat.
    pub seat: u8,
    /// `win`, `loss`, `draw`, `aborted` or `playing`.
    pub result: String,
    /// How it ended (see [`ResultOut::reason`]); null while playing.
    #[schema(required = true)]
    pub reason: Option<String>,
    /// Rated or casual.
    pub rated: bool,
    /// The player's rating change, once applied.
    #[schema(required = true)]
    pub delta: Option<i64>,
    /// Unix seconds of the last change.
    pub ended: i64,
}

/// A player's page.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PlayerPage {
    /// The player's ID.
    pub id: String,
    /// The player's name.
    pub name: String,
    /// Whether the player has an account.
    pub account: bool,
    /// Unix seconds.
    pub created: i64,
    /// Ratings per rule set with their history.
    pub ratings: Vec<RatingOut>,
    /// Recent games, newest first.
    pub games: Vec<PlayerGameOut>,
}

/// A leaderboard row.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct LeaderRow {
    /// 1 for the best.
    pub rank: usize,
    /// The player's name.
    pub name: String,
    /// Rating, rounded.
    pub rating: i64,
    /// Deviation, rounded.
    pub rd: i64,
    /// Rated games played.
    pub games: i64,
}

/// The players with a settled rating in one rule set, best first.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Leaderboard {
    /// Rule set ID.
    pub rules: String,
    /// The rule set's name.
    pub rules_name: String,
    /// Best first (at most 100).
    pub players: Vec<LeaderRow>,
}

// ---------------------------------------------------------------- puzzles (issue 57)

/// A puzzle to solve: the position, the throw and the legal moves (never their values: those
/// come with the answer, `POST /api/puzzles/{id}/solve`).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PuzzleOut {
    /// The puzzle's ID.
    pub id: String,
    /// Rule set ID.
    pub rules: &'static str,
    /// The rule set's name.
    pub rules_name: &'static str,
    /// The two sides, first player then second.
    pub sides: [Side; 2],
    /// The position awaiting the move, its throw set (docs/notation.md).
    pub position: String,
    /// The player to move, 1 or 2.
    pub player: usize,
    /// The throw to play.
    pub throw: String,
    /// The board as drawn.
    pub view: BoardView,
    /// The legal moves (as a game's `legal`).
    pub legal: Vec<LegalMove>,
    /// What the rule set throws with.
    pub throw_kind: ThrowKind,
    /// Its themes: water, blockade, bear-off, swap, capture.
    pub themes: Vec<String>,
    /// The puzzle's Glicko-2 rating, rounded.
    pub rating: i64,
    /// How many players tried it, and how many solved it.
    pub plays: i64,
    /// How many of them solved it.
    pub solved: i64,
    /// Whether this is the puzzle of the day.
    pub daily: bool,
    /// The asking player's puzzle rating (null without a session).
    #[schema(required = true)]
    pub you: Option<PuzzleRatingOut>,
}

/// A player's puzzle rating.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PuzzleRatingOut {
    /// The rating, rounded.
    pub rating: i64,
    /// Whether it is still provisional (its deviation above 110).
    pub provisional: bool,
    /// Puzzles tried (first attempts).
    pub tried: i64,
    /// Of them, solved.
    pub solved: i64,
}

/// The answer to a puzzle.
#[derive(Clone, Debug, serde::Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PuzzleAnswer {
    /// The move chosen (one of the puzzle's `legal` moves).
    #[serde(rename = "move")]
    pub mv: String,
}

/// One legal move of a puzzle with its win chance.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PuzzleMoveOut {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// The mover's win chance after it (exact when the puzzle is `exact`).
    pub chance: f64,
    /// What it does (step, capture, trap, bear off, ...).
    pub kinds: Vec<String>,
}

/// What an answer to a puzzle gives: right or not, every move's win chance, why, and the
/// ratings.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PuzzleResult {
    /// The puzzle's ID.
    pub id: String,
    /// Whether the move chosen was the best one.
    pub solved: bool,
    /// The move chosen.
    pub played: String,
    /// The best move.
    pub best: String,
    /// Every legal move with its win chance, best first.
    pub moves: Vec<PuzzleMoveOut>,
    /// Whether the chances are exact (from the exact tables) rather than the expert bot's.
    pub exact: bool,
    /// The best move's chance minus the second best's.
    pub margin: f64,
    /// The rule that decides it, with its ruling ID, when one does.
    #[schema(required = true)]
    pub why: Option<String>,
    /// Its themes.
    pub themes: Vec<String>,
    /// Whether the attempt was rated (only a player's first attempt at a puzzle is).
    pub rated: bool,
    /// The player's puzzle rating before and after (equal when not rated).
    pub rating_before: i64,
    /// The player's puzzle rating after.
    pub rating_after: i64,
    /// The puzzle's rating after.
    pub puzzle_rating: i64,
    /// The player's puzzle rating now.
    pub you: PuzzleRatingOut,
}

// ---- tournaments (issue 57) ----

/// A new tournament (`POST /api/tournaments`).
#[derive(Clone, Debug, serde::Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TournamentRequest {
    /// Its name (1 to 60 characters; a name is made when absent).
    #[serde(default)]
    pub name: Option<String>,
    /// `arena` (for a set time, paired again as soon as a game ends; a win 2 points, 4 on a
    /// streak of two wins), `round-robin` or `swiss` (the invited players; a win 1 point, a
    /// draw ½, a bye 1).
    pub kind: String,
    /// Rule set ID.
    pub rules: String,
    /// Options as `NAME=VALUE`.
    #[serde(default)]
    pub options: Vec<String>,
    /// Rated (default) or casual games.
    #[serde(default = "yes")]
    pub rated: bool,
    /// Every game's clock (an arena's is minutes, not days).
    pub clock: Clock,
    /// An arena's length in minutes (2 to 720).
    #[serde(default)]
    pub minutes: Option<u32>,
    /// A Swiss event's rounds (1 to 15); a round-robin has one round fewer than its players
    /// (as many as its players when they are odd).
    #[serde(default)]
    pub rounds: Option<u32>,
    /// Seconds from now to the start (0 to 604800; 60 when absent). A round-robin or Swiss
    /// event's creator may start it earlier (`POST /api/tournaments/{id}/start`).
    #[serde(default)]
    pub starts_in: Option<u32>,
    /// The players invited to a round-robin (1 to 15) or Swiss (1 to 63) event, by name;
    /// they accept with `POST /api/tournaments/{id}/join`. None for an arena, which anyone
    /// may join.
    #[serde(default)]
    pub invite: Vec<String>,
}

/// A tournament as listed.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TournamentSummary {
    /// Its ID (the page is `/tournaments/ID`).
    pub id: String,
    /// Its name.
    pub name: String,
    /// `arena`, `round-robin` or `swiss`.
    pub kind: String,
    /// Who made it.
    pub creator: String,
    /// Rule set ID.
    pub rules: String,
    /// The rule set's name.
    pub rules_name: String,
    /// Options as `NAME=VALUE`.
    pub options: Vec<String>,
    /// Rated or casual games.
    pub rated: bool,
    /// Every game's clock.
    pub clock: Clock,
    /// An arena's length in minutes.
    #[schema(required = true)]
    pub minutes: Option<u32>,
    /// Rounds planned (a round-robin's are known once it starts); 0 for an arena.
    pub rounds: u32,
    /// Rounds (an arena: pairings) made so far.
    pub round: u32,
    /// When it starts (Unix ms).
    pub starts: i64,
    /// When an arena ends (Unix ms): no pairing after it; the games under way are played out.
    #[schema(required = true)]
    pub ends: Option<i64>,
    /// `created` (not started), `running`, `finishing` (an arena past its end with games
    /// under way), `over` or `cancelled` (fewer than two players at the start).
    pub state: String,
    /// Players who joined.
    pub players: u32,
}

/// A tournament's player's standing.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct StandingOut {
    /// 1 for the leader; equal scores, tie-breaks and wins share no rank (the order they
    /// joined decides).
    pub rank: u32,
    /// The player, with their rating in the rule set.
    pub player: PlayerRef,
    /// Points.
    pub score: f64,
    /// Round-robin and Swiss: the sum of their opponents' points (Buchholz); 0 in an arena.
    pub tiebreak: f64,
    /// Games finished (aborted games do not count).
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Each finished game (and bye) in order.
    pub sheet: Vec<SheetOut>,
    /// An arena player on a streak of two wins or more: their next win is doubled.
    pub fire: bool,
    /// Still playing (an arena's player who left is paused; they may join again).
    pub active: bool,
    /// Their game under way.
    #[schema(required = true)]
    pub playing: Option<String>,
}

/// One finished game or bye of a player.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SheetOut {
    /// The game (null for a bye).
    #[schema(required = true)]
    pub game: Option<String>,
    /// `win`, `draw`, `loss` or `bye`.
    pub result: String,
    /// Points it made.
    pub points: f64,
    /// An arena's win or draw doubled by a streak.
    pub doubled: bool,
}

/// A tournament's game.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TournamentGameOut {
    /// Game ID (the page is `/g/ID`).
    pub id: String,
    /// The round (an arena: the pairing) it was made in, from 1.
    pub round: u32,
    /// The players of seats 1 and 2.
    pub players: [PlayerRef; 2],
    /// Finished.
    pub over: bool,
    /// The winning seat once over (null for a draw, an aborted game or a game under way).
    #[schema(required = true)]
    pub winner: Option<u8>,
    /// Aborted (one side never moved): it counts for nobody.
    pub aborted: bool,
}

/// A bye: a round a player sat out, scored as a win.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ByeOut {
    /// The round.
    pub round: u32,
    /// The player.
    pub player: PlayerRef,
}

/// A tournament: its settings, standings and games.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TournamentOut {
    /// Its settings and state.
    pub info: TournamentSummary,
    /// The server's time (Unix ms), for the page's countdowns.
    pub now: i64,
    /// The standings, leader first.
    pub standings: Vec<StandingOut>,
    /// Invited players who have not accepted (round-robin and Swiss).
    pub invited: Vec<PlayerRef>,
    /// Every game, latest first.
    pub games: Vec<TournamentGameOut>,
    /// The byes, by round.
    pub byes: Vec<ByeOut>,
}

/// Tournaments to see and join.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TournamentList {
    /// Those not over (soonest first), then the last 20 finished.
    pub tournaments: Vec<TournamentSummary>,
    /// Round-robin and Swiss events the session's player is invited to and has not
    /// answered (empty without a session).
    pub invitations: Vec<TournamentSummary>,
}
