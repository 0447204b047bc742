//! The games: creating them, throwing, moving, bots, hints, records, review and live
//! updates. Everything here is written against the generic [`Game`] API, so it works for
//! every rule set the rules crate has; the HTTP layer ([`crate::api`]) only translates
//! requests into these calls.
//!
//! Each game in use is cached as a [`Live`] value behind its own async lock, so requests to
//! one game are serialised; a change is written to the [`Store`] (and so is durable) before
//! the cache is updated, the request answered, and watchers notified.

use crate::opponent;
use crate::seeds;
use crate::store::{GameMeta, Seat, Snapshot, Store, StoreError, StoredEvent, StoredGame, Summary};
use senet_rules::{AnyGame, Game, MoveList, OptionKind, Player, Record, RuleSet, Status, Throw};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use tokio::sync::{broadcast, Mutex as AsyncMutex};

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
    /// The server failed (500); nothing was changed.
    Internal(String),
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
            | Failure::Internal(m) => m,
        }
    }
}

impl From<StoreError> for Failure {
    fn from(e: StoreError) -> Failure {
        match e {
            StoreError::Conflict => Failure::Conflict(
                "the game was changed by another request; reload it and try again".into(),
            ),
            e => Failure::Internal(e.to_string()),
        }
    }
}

type Res<T> = Result<T, Failure>;

/// A request to create a game.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// Rule set ID.
    pub rules: String,
    /// Options as `NAME=VALUE`.
    #[serde(default)]
    pub options: Vec<String>,
    /// `bot`, `hotseat` or `online`.
    pub mode: String,
    /// The bot level for `bot` games.
    #[serde(default)]
    pub bot: Option<String>,
    /// The creator's seat (1 or 2) for `bot` and `online` games; 1 when absent.
    #[serde(default)]
    pub seat: Option<u8>,
}

/// A created game: its ID, the creator's seat tokens and, for online games, the invite
/// link path holding the other seat's token.
#[derive(Clone, Debug, Serialize)]
pub struct Created {
    /// Game ID.
    pub id: String,
    /// Seat number ("1", "2") to token, for the creator's seats.
    pub tokens: BTreeMap<String, String>,
    /// For online games: the path of the link that gives the second player their seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
    /// The game's state.
    pub state: Value,
}

/// One throw or move as shown to players.
#[derive(Clone, Debug, Serialize)]
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
    /// What the move did (`Effects::names`).
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
            // turn has already passed, so it changes nothing. Stored events were checked
            // when written, so a `pass` while a throw is pending can be nothing else.
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
    }
}

/// The status of a game as JSON (same shape as `senet apply --json`).
pub fn status_json(g: &AnyGame) -> Value {
    match g.status() {
        Status::Throw(p) => json!({ "state": "throw", "player": p.index() + 1 }),
        Status::Move(p) => json!({
            "state": "move", "player": p.index() + 1,
            "throw": g.in_hand().map(|t| t.to_string()),
        }),
        Status::Over(o) => json!({
            "state": "over",
            "winner": o.winner.map(|p| p.index() + 1),
            "capped": o.capped,
            "score": o.score,
        }),
    }
}

/// The legal moves with their squares and effects.
fn legal_json(g: &AnyGame) -> Value {
    let mut ms = MoveList::new();
    g.legal_moves(&mut ms);
    Value::Array(
        ms.iter()
            .map(|&m| {
                let mut h = *g;
                let fx = h.play_unchecked(m);
                let mut v = json!({
                    "move": g.move_string(m),
                    "from": if m.is_pass() { Value::Null } else { m.from.into() },
                    "to": if m.is_pass() { Value::Null } else { m.to.into() },
                    "from_name": if m.is_pass() { Value::Null } else { g.square_name(m.from).into() },
                    "to_name": if m.is_pass() { Value::Null } else { g.square_name(m.to).into() },
                    "kinds": fx.names(),
                    "turn_continues": fx.turn_continues,
                });
                if let Some(d) = g.die_used(m) {
                    v["die"] = d.into();
                }
                v
            })
            .collect(),
    )
}

fn dist_json(g: &AnyGame) -> Value {
    let d = g.throw_dist();
    Value::Array(
        d.outcomes
            .iter()
            .map(|(t, w)| json!([t.to_string(), w]))
            .collect(),
    )
}

/// The two sides as the rule set names them (from senet-rules), first player then second.
fn sides_json(r: RuleSet) -> Value {
    Value::Array(
        r.sides()
            .iter()
            .map(|s| json!({ "name": s.name, "colour": s.colour }))
            .collect(),
    )
}

/// Every rule set with its options, throws, board path and special squares, and the bot
/// levels: what the lobby and the rules summary show.
pub fn catalogue() -> Value {
    let rules: Vec<Value> = RuleSet::ALL
        .iter()
        .filter_map(|&r| {
            let g = AnyGame::new(r, &[] as &[&str]).ok()?;
            let view = g.view();
            let options: Vec<Value> = r
                .option_specs()
                .iter()
                .map(|o| match o.kind {
                    OptionKind::Bool { default } => json!({
                        "name": o.name, "type": "bool", "default": default, "description": o.description,
                    }),
                    OptionKind::Int { default, min, max } => json!({
                        "name": o.name, "type": "int", "default": default, "min": min, "max": max,
                        "description": o.description,
                    }),
                })
                .collect();
            let specials: Vec<Value> = view
                .cells
                .iter()
                .filter_map(|c| c.special.map(|s| json!({ "label": c.label, "text": s })))
                .collect();
            let pieces = g.census().map(|c| c.total());
            Some(json!({
                "id": r.id(), "name": r.name(), "source": r.source(), "options": options,
                "sides": sides_json(r),
                "throws": dist_json(&g), "path": view.path, "specials": specials,
                "pieces": pieces,
            }))
        })
        .collect();
    json!({ "rules": rules, "levels": opponent::levels(), "hint_level": opponent::HINT_LEVEL })
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
        })
    }

    /// The seat a token belongs to.
    fn seat_of(&self, token: Option<&str>) -> Res<Player> {
        let Some(token) = token else {
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

    fn check_seq(&self, seq: Option<u32>) -> Res<()> {
        match seq {
            Some(s) if s as usize != self.events.len() => Err(Failure::Conflict(format!(
                "the request was made at event {s} but the game is at event {}; reload it",
                self.events.len()
            ))),
            _ => Ok(()),
        }
    }

    /// Checks that `seat` may act now; `want_throw` says which phase the request needs.
    fn check_turn(&self, seat: Player, want_throw: bool) -> Res<()> {
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

    /// The state as JSON, with the events from index `from` on.
    fn state(&self, from: usize) -> Value {
        let g = &self.game;
        let over = matches!(g.status(), Status::Over(_));
        let seats: Vec<Value> = self
            .meta
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| match s {
                Seat::Human => json!({ "player": i + 1, "kind": "human" }),
                Seat::Bot(l) => json!({ "player": i + 1, "kind": "bot", "bot": l }),
            })
            .collect();
        let rules = g.rules();
        json!({
            "id": self.meta.id,
            "rules": rules.id(),
            "rules_name": rules.name(),
            "sides": sides_json(rules),
            "options": self.meta.options,
            "mode": self.meta.mode,
            "seats": seats,
            "seq": self.events.len(),
            "moves": g.decisions(),
            "status": status_json(g),
            "position": g.position(),
            "view": g.view(),
            "legal": legal_json(g),
            "throws": if matches!(g.status(), Status::Throw(_)) { dist_json(g) } else { Value::Array(vec![]) },
            "seed_hash": self.meta.seed_hash,
            "seed": if over { Value::from(self.meta.seed.to_string()) } else { Value::Null },
            "watchers": { "seats": [self.watchers[0] > 0, self.watchers[1] > 0], "spectators": self.watchers[2] },
            "events_from": from.min(self.events.len()),
            "events": &self.events[from.min(self.events.len())..],
        })
    }

    fn publish(&self, msg: Value) {
        // No receivers is fine: nobody is watching.
        let _ = self.tx.send(Arc::from(msg.to_string()));
    }

    fn record(&self) -> Record {
        let over = matches!(self.game.status(), Status::Over(_));
        let mut r = Record::new(&self.start, over.then_some(self.meta.seed));
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
                let (m, _) = opponent::choose(level, g, bot_seed(meta.seed, g.decisions()))
                    .map_err(Failure::Internal)?;
                StoredEvent::Move(g.move_string(m))
            }
        };
        let shown = apply(g, &ev, n).map_err(Failure::Internal)?;
        out.push((ev, shown));
    }
}

/// Plays the bot seats (see [`run_bots`]) on the blocking thread pool, since a search may
/// take a while; returns the game, the throw count and the new events.
async fn bots_blocking(
    meta: &GameMeta,
    mut g: AnyGame,
    mut throws: u64,
    seq: u32,
) -> Res<(AnyGame, u64, Vec<(StoredEvent, EventOut)>)> {
    let bot_to_act = g
        .status()
        .player()
        .is_some_and(|p| matches!(meta.seats[p.index()], Seat::Bot(_)));
    if !bot_to_act {
        return Ok((g, throws, Vec::new()));
    }
    let meta = meta.clone();
    tokio::task::spawn_blocking(move || {
        let mut out = Vec::new();
        run_bots(&meta, &mut g, &mut throws, seq, &mut out)?;
        Ok((g, throws, out))
    })
    .await
    .map_err(|e| Failure::Internal(format!("bot task failed: {e}")))?
}

/// The game service: every operation of the API.
pub struct Service {
    store: Arc<dyn Store>,
    live: std::sync::Mutex<HashMap<String, Arc<AsyncMutex<Live>>>>,
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
    /// A service over a store.
    pub fn new(store: Arc<dyn Store>) -> Service {
        Service {
            store,
            live: std::sync::Mutex::new(HashMap::new()),
        }
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
        let live = Live::from_stored(stored)
            .map_err(|m| Failure::Internal(format!("game {id} cannot be replayed: {m}")))?;
        let mut cache = self.cache();
        if cache.len() >= MAX_LIVE {
            cache.retain(|_, l| {
                Arc::strong_count(l) > 1 || l.try_lock().map_or(true, |g| g.tx.receiver_count() > 0)
            });
        }
        Ok(cache
            .entry(id.to_string())
            .or_insert_with(|| Arc::new(AsyncMutex::new(live)))
            .clone())
    }

    fn forget(&self, id: &str) {
        self.cache().remove(id);
    }

    /// Creates a game; a bot in the first seat plays its first turn at once.
    pub async fn create(&self, req: NewGame) -> Res<Created> {
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
                if !opponent::levels().contains(&level.as_str()) {
                    return Err(Failure::Unprocessable(format!(
                        "unknown bot level {level:?}; the levels are: {}",
                        opponent::levels().join(", ")
                    )));
                }
                seats[own.other().index()] = Seat::Bot(level.clone());
            }
            ("bot", None) => {
                return Err(Failure::Unprocessable(format!(
                    "a bot game needs \"bot\": one of {}",
                    opponent::levels().join(", ")
                )))
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
        let mut tokens = [None, None];
        let mut hashes = [None, None];
        for p in Player::BOTH {
            if seats[p.index()] == Seat::Human {
                let t = random_token();
                hashes[p.index()] = Some(seeds::digest(&t));
                tokens[p.index()] = Some(t);
            }
        }
        let mut meta = GameMeta {
            id: random_id(),
            rules: rules.id().into(),
            options: senet_rules::record::options_of(&start),
            seed,
            seed_hash: seeds::commitment(seed),
            mode: req.mode.clone(),
            seats,
            token_hashes: hashes,
            created: now(),
        };
        let (g, throws, new) = bots_blocking(&meta, start, 0, 0).await?;
        let stored: Vec<StoredEvent> = new.iter().map(|(s, _)| s.clone()).collect();
        let snap = snapshot(&g);
        // A clash of random IDs is astronomically rare; retry a few times anyway.
        let mut tries = 0;
        loop {
            let store = self.store.clone();
            let (m, ev, sn) = (meta.clone(), stored.clone(), snap.clone());
            match blocking(move || store.create(&m, &ev, &sn)).await {
                Err(Failure::Internal(_)) if tries < 3 => {
                    tries += 1;
                    meta.id = random_id();
                }
                r => break r?,
            }
        }
        let live = Live {
            meta: meta.clone(),
            start,
            game: g,
            events: new.into_iter().map(|(_, e)| e).collect(),
            throws,
            tx: broadcast::channel(64).0,
            watchers: [0; 3],
        };
        let state = live.state(0);
        self.cache()
            .insert(meta.id.clone(), Arc::new(AsyncMutex::new(live)));
        let mut mine = BTreeMap::new();
        let mut invite = None;
        for p in Player::BOTH {
            if let Some(t) = &tokens[p.index()] {
                if req.mode == "online" && p != own {
                    invite = Some(format!("/g/{}#seat={}&token={t}", meta.id, p.index() + 1));
                } else {
                    mine.insert((p.index() + 1).to_string(), t.clone());
                }
            }
        }
        Ok(Created {
            id: meta.id,
            tokens: mine,
            invite,
            state,
        })
    }

    /// The full state of a game, with every event.
    pub async fn state(&self, id: &str) -> Res<Value> {
        let l = self.get(id).await?;
        let l = l.lock().await;
        Ok(l.state(0))
    }

    /// Throws for the seat of `token`; the state after it, with the new events.
    pub async fn throw(&self, id: &str, token: Option<&str>, seq: Option<u32>) -> Res<Value> {
        self.act(id, token, seq, None).await
    }

    /// Plays `mv` for the seat of `token`, then any bot turns; the state after them, with the
    /// new events.
    pub async fn play(
        &self,
        id: &str,
        token: Option<&str>,
        mv: &str,
        seq: Option<u32>,
    ) -> Res<Value> {
        if mv.len() > 64 {
            return Err(Failure::BadRequest(
                "a move string is at most 64 bytes".into(),
            ));
        }
        self.act(id, token, seq, Some(mv)).await
    }

    async fn act(
        &self,
        id: &str,
        token: Option<&str>,
        seq: Option<u32>,
        mv: Option<&str>,
    ) -> Res<Value> {
        let arc = self.get(id).await?;
        let mut l = arc.lock().await;
        let seat = l.seat_of(token)?;
        l.check_seq(seq)?;
        l.check_turn(seat, mv.is_none())?;
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
        let mut new = vec![(ev, shown)];
        let (g, throws, bots) = bots_blocking(&l.meta, g, throws, first + 1).await?;
        new.extend(bots);
        let stored: Vec<StoredEvent> = new.iter().map(|(s, _)| s.clone()).collect();
        let snap = snapshot(&g);
        let store = self.store.clone();
        let key = id.to_string();
        if let Err(e) = blocking(move || store.append(&key, first, &stored, &snap)).await {
            if matches!(e, Failure::Conflict(_)) {
                drop(l);
                self.forget(id);
            }
            return Err(e);
        }
        l.game = g;
        l.throws = throws;
        l.events.extend(new.into_iter().map(|(_, e)| e));
        let mut out = l.state(first as usize);
        if l.tx.receiver_count() > 0 {
            out["type"] = "update".into();
            l.publish(out.clone());
        }
        if let Value::Object(o) = &mut out {
            o.remove("type");
        }
        Ok(out)
    }

    /// The move the hint level would play now, for the seat to move.
    pub async fn hint(&self, id: &str, token: Option<&str>) -> Res<Value> {
        let arc = self.get(id).await?;
        let l = arc.lock().await;
        let seat = l.seat_of(token)?;
        l.check_turn(seat, false)?;
        let g = l.game;
        let seed = bot_seed(l.meta.seed, g.decisions()) ^ 0x5eed;
        drop(l);
        let (m, score) = tokio::task::spawn_blocking(move || {
            opponent::choose(opponent::HINT_LEVEL, &g, seed).map(|(m, s)| (g.move_string(m), s))
        })
        .await
        .map_err(|e| Failure::Internal(e.to_string()))?
        .map_err(Failure::Internal)?;
        Ok(json!({ "move": m, "score": score, "level": opponent::HINT_LEVEL }))
    }

    /// The game record (`senet-record/1`); the seed is in it once the game is over.
    pub async fn record(&self, id: &str) -> Res<String> {
        let l = self.get(id).await?;
        let l = l.lock().await;
        Ok(l.record().to_json())
    }

    /// The position after the first `at` events (all when `None`), for review.
    pub async fn review(&self, id: &str, at: Option<usize>) -> Res<Value> {
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
        Ok(json!({
            "at": at,
            "total": total,
            "event": if at == 0 { Value::Null } else { serde_json::to_value(&l.events[at - 1]).unwrap_or(Value::Null) },
            "position": g.position(),
            "status": status_json(&g),
            "view": g.view(),
        }))
    }

    /// For a finished game: the seed, its published hash, and every throw with the
    /// distribution it was drawn from, so that a browser can check them (see [`seeds`]).
    pub async fn throws(&self, id: &str) -> Res<Value> {
        let arc = self.get(id).await?;
        let l = arc.lock().await;
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
                    list.push(json!({ "throw": throw, "outcomes": dist_json(&g) }));
                    apply(&mut g, &StoredEvent::Throw(throw.clone()), 0)
                }
                senet_rules::Event::Move { mv } => apply(&mut g, &StoredEvent::Move(mv.clone()), 0),
            }
            .map_err(Failure::Internal)?;
        }
        Ok(json!({
            "seed": l.meta.seed.to_string(),
            "seed_hash": l.meta.seed_hash,
            "throws": list,
        }))
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
    pub async fn subscribe(&self, id: &str, token: Option<&str>) -> Res<Subscription> {
        let arc = self.get(id).await?;
        let mut l = arc.lock().await;
        let slot = match token {
            None => 2,
            Some(_) => l.seat_of(token)?.index(),
        };
        let rx = l.tx.subscribe();
        l.watchers[slot] += 1;
        let mut first = l.state(0);
        first["type"] = "state".into();
        l.publish(presence(&l));
        Ok(Subscription {
            first: first.to_string(),
            rx,
            slot,
            id: id.to_string(),
        })
    }

    /// Ends a live connection.
    pub async fn unsubscribe(&self, id: &str, slot: usize) {
        if let Ok(arc) = self.get(id).await {
            let mut l = arc.lock().await;
            l.watchers[slot] = l.watchers[slot].saturating_sub(1);
            l.publish(presence(&l));
        }
    }

    /// Drops every cached game (tests: the next request reloads from the store).
    pub fn clear_cache(&self) {
        self.cache().clear();
    }
}

fn presence(l: &Live) -> Value {
    json!({
        "type": "presence",
        "watchers": { "seats": [l.watchers[0] > 0, l.watchers[1] > 0], "spectators": l.watchers[2] },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(g, after);
        assert_eq!(out.mv.as_deref(), Some("pass"));
        assert!(!out.turn_continues);
        // The next player's throw follows as usual.
        apply(&mut g, &StoredEvent::Throw("2-4".into()), 3).unwrap();
        assert!(matches!(g.status(), Status::Move(Player::Second)));
    }
}
