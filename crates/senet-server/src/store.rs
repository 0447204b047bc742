//! Where games are kept. The server holds every game behind [`Store`]; [`crate::sqlite`]
//! implements it on an embedded SQLite file, [`crate::postgres`] on a PostgreSQL database
//! that several servers share: [`Store::append`] is an optimistic, sequence-checked append,
//! so two servers never both extend one game.
//!
//! The store knows nothing of the rules: a game is its metadata and its list of events
//! (throws and moves as text), plus a denormalised summary for game lists.

use std::fmt;

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person with the seat's token.
    Human,
    /// A bot of this level (see [`senet_bots::play::levels`]).
    Bot(String),
    /// A bot of this level that the page plays with its own engine (issue 54): the seat has
    /// a token, held by the page, which sends the bot's throws and moves; the server never
    /// searches for it.
    PageBot(String),
}

impl Seat {
    /// `human`, `bot:LEVEL` or `page-bot:LEVEL`, as stored.
    pub fn to_text(&self) -> String {
        match self {
            Seat::Human => "human".into(),
            Seat::Bot(l) => format!("bot:{l}"),
            Seat::PageBot(l) => format!("page-bot:{l}"),
        }
    }

    /// Parses [`Seat::to_text`].
    pub fn from_text(s: &str) -> Result<Seat, StoreError> {
        if let Some(l) = s.strip_prefix("page-bot:") {
            return Ok(Seat::PageBot(l.to_string()));
        }
        match s.strip_prefix("bot:") {
            Some(l) => Ok(Seat::Bot(l.to_string())),
            None if s == "human" => Ok(Seat::Human),
            None => Err(StoreError::Corrupt(format!("bad seat {s:?}"))),
        }
    }
}

/// A stored throw or move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoredEvent {
    /// A throw, e.g. `4` or `3-5`.
    Throw(String),
    /// A move string, e.g. `10-13`.
    Move(String),
}

/// Everything fixed when a game is created.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameMeta {
    /// The game's ID (URL-safe).
    pub id: String,
    /// Rule set ID.
    pub rules: String,
    /// Options as `NAME=VALUE`.
    pub options: Vec<String>,
    /// The secret seed of the throws.
    pub seed: u64,
    /// The published hash of the seed.
    pub seed_hash: String,
    /// `bot`, `hotseat` or `online`.
    pub mode: String,
    /// Seats of the first and second player.
    pub seats: [Seat; 2],
    /// SHA-256 (hex) of each human seat's token; `None` for a bot, or for the second seat
    /// of an online game until its invite is claimed.
    pub token_hashes: [Option<String>; 2],
    /// SHA-256 (hex) of the open invite's one-time claim code, if any.
    pub invite: Option<String>,
    /// Creation time, Unix seconds.
    pub created: i64,
    /// The series this game belongs to, if any.
    pub series: Option<SeriesLink>,
    /// The throws were drawn by a player's browser with no server: an uploaded offline game
    /// (`POST /api/games/import`). The server cannot vouch for them; [`GameMeta::seed`] is
    /// unused and [`GameMeta::seed_hash`] empty.
    pub page_throws: bool,
}

/// Where a game stands in its series.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeriesLink {
    /// The series' ID.
    pub id: String,
    /// The game's index in the series, from 0.
    pub index: u32,
    /// The series seat (1 or 2) that plays the first player in this game.
    pub first: u8,
}

/// Everything fixed when a series is created (issue 13). Its games are ordinary games
/// linked to it by [`GameMeta::series`]; the series seats' tokens are the games' tokens,
/// arranged by which seat plays the first player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeriesMeta {
    /// The series' ID (URL-safe).
    pub id: String,
    /// Rule set ID.
    pub rules: String,
    /// Options as `NAME=VALUE`.
    pub options: Vec<String>,
    /// `points:N` or `games:N`.
    pub target: String,
    /// `alternate` or `rules`.
    pub starts: String,
    /// `bot`, `hotseat` or `online`.
    pub mode: String,
    /// Who sits in series seats 1 and 2.
    pub seats: [Seat; 2],
    /// SHA-256 (hex) of each human series seat's token.
    pub token_hashes: [Option<String>; 2],
    /// Creation time, Unix seconds.
    pub created: i64,
}

/// A game of a series as listed by [`Store::load_series`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeriesGameRow {
    /// Game ID.
    pub id: String,
    /// Index in the series, from 0.
    pub index: u32,
    /// The series seat playing the first player.
    pub first: u8,
    /// The game's current position string (its snapshot).
    pub position: String,
}

/// A stored series: its metadata and its games in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredSeries {
    /// Its metadata.
    pub meta: SeriesMeta,
    /// Its games, by index.
    pub games: Vec<SeriesGameRow>,
}

/// The denormalised state kept beside the events, for lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// The current position string.
    pub position: String,
    /// `throw`, `move` or `over`.
    pub state: String,
    /// The player to throw or move (1 or 2), or the winner when over (None for a draw).
    pub player: Option<u8>,
    /// Moves (decisions) played.
    pub moves: u32,
    /// Time of the change, Unix seconds.
    pub updated: i64,
    /// The clock's state after the change (`crate::online::ClockState::text`), for a game
    /// with a clock.
    pub clock: Option<String>,
    /// When the running clock runs out (ms since the Unix epoch), for a game with a clock
    /// still running.
    pub deadline: Option<i64>,
}

/// A stored game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// Its metadata.
    pub meta: GameMeta,
    /// Every event, in order (sequence numbers are the indices).
    pub events: Vec<StoredEvent>,
}

/// A game as listed.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[schema(as = GameSummary)]
pub struct Summary {
    /// Game ID.
    pub id: String,
    /// Rule set ID.
    pub rules: String,
    /// `bot`, `hotseat` or `online`.
    pub mode: String,
    /// Seats as stored (`human`, `bot:LEVEL`).
    pub seats: [String; 2],
    /// `throw`, `move` or `over`.
    pub state: String,
    /// The player to throw or move (1 or 2), or the winner when over (null for a draw).
    #[schema(required = true)]
    pub player: Option<u8>,
    /// Moves played.
    pub moves: u32,
    /// Unix seconds.
    pub created: i64,
    /// Unix seconds.
    pub updated: i64,
}

/// What can go wrong in a store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// Another writer appended first: the expected sequence number is taken.
    Conflict,
    /// The ID already exists (on create).
    Exists,
    /// The stored data does not make sense.
    Corrupt(String),
    /// The database failed.
    Backend(String),
    /// The database cannot be reached now (down, restarting, out of connections or
    /// resources): the call changed nothing, and the same call may succeed later.
    Unavailable(String),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Conflict => write!(f, "the game was changed by another request"),
            StoreError::Exists => write!(f, "a game with this ID exists"),
            StoreError::Corrupt(m) => write!(f, "stored game is corrupt: {m}"),
            StoreError::Backend(m) => write!(f, "database error: {m}"),
            StoreError::Unavailable(m) => write!(f, "the database is unavailable: {m}"),
        }
    }
}

impl std::error::Error for StoreError {}

/// The storage interface. Calls block; the server runs them on the blocking thread pool.
/// Every method is atomic: when it returns `Ok`, the change is durable.
pub trait Store: Send + Sync + 'static {
    /// Creates a game with its first events (a bot in the first seat may already have
    /// played) and its snapshot. A game of a series takes its place in the series: fails with
    /// [`StoreError::Exists`] when that place (series and index) is taken, as when the ID is.
    fn create(
        &self,
        meta: &GameMeta,
        events: &[StoredEvent],
        snap: &Snapshot,
    ) -> Result<(), StoreError>;

    /// Loads a game, or `None` if there is no such ID.
    fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError>;

    /// Appends `events` with sequence numbers `first_seq..` and replaces the snapshot, in one
    /// transaction. Fails with [`StoreError::Conflict`] when `first_seq` is not the number of
    /// events stored (someone else appended first), or when the game was ended otherwise than
    /// by its rules (its online `result` is set: a resignation, flag, abort or claim, perhaps
    /// on another server), changing nothing.
    fn append(
        &self,
        id: &str,
        first_seq: u32,
        events: &[StoredEvent],
        snap: &Snapshot,
    ) -> Result<(), StoreError>;

    /// Summaries of the games with these IDs that exist, most recently updated first.
    fn summaries(&self, ids: &[String]) -> Result<Vec<Summary>, StoreError>;

    /// Creates a series with its first game (whose [`GameMeta::series`] names it), in one
    /// transaction.
    fn create_series(
        &self,
        series: &SeriesMeta,
        game: &GameMeta,
        events: &[StoredEvent],
        snap: &Snapshot,
    ) -> Result<(), StoreError>;

    /// Loads a series and the list of its games, or `None` if there is no such ID.
    fn load_series(&self, id: &str) -> Result<Option<StoredSeries>, StoreError>;

    /// Claims seat `seat` (1 or 2) of game `id` with its open invite: when the game's
    /// invite is `code_hash` and the seat has no token, stores `token_hash` as the seat's
    /// token (and as series seat `series_seat`'s in the game's series, if it has one) and
    /// closes the invite, in one transaction. Returns whether it did.
    fn claim(
        &self,
        id: &str,
        seat: u8,
        series_seat: u8,
        code_hash: &str,
        token_hash: &str,
    ) -> Result<bool, StoreError>;

    /// Replaces game `id`'s invite (`None` revokes it) while seat `seat` has no token.
    /// Returns whether it did.
    fn set_invite(&self, id: &str, seat: u8, code_hash: Option<&str>) -> Result<bool, StoreError>;

    /// The analysis of game `id` (issue 19, JSON text) if one was kept for the game with
    /// `nevents` events.
    fn analysis(&self, id: &str, nevents: u32) -> Result<Option<String>, StoreError>;

    /// Keeps the analysis of game `id` made when it had `nevents` events (it replaces an
    /// earlier one).
    fn put_analysis(&self, id: &str, nevents: u32, body: &str) -> Result<(), StoreError>;

    /// Runs `f` in one transaction (online play's tables, `crate::players`): committed when
    /// `f` returns `Ok`, rolled back when it returns `Err`.
    fn transaction(
        &self,
        f: &mut dyn FnMut(&mut dyn crate::sql::Tx) -> Result<(), StoreError>,
    ) -> Result<(), StoreError>;

    /// Calls `on_change` with a game's ID whenever another server sharing this store changes
    /// that game, and with `None` when changes may have been missed (a lost connection).
    /// A store only one server can use (SQLite) has nothing to report and ignores it.
    /// Changes that are not a game's are told with an ID starting `!` (`!lobby`: the open
    /// seeks changed; `!paired:GAME:P1:P2`: players were paired; see `crate::players`).
    fn watch(
        &self,
        on_change: Box<dyn Fn(Option<String>) + Send + Sync>,
    ) -> Result<(), StoreError> {
        let _ = on_change;
        Ok(())
    }
}
