//! Uploaded offline games (`POST /api/games/import`): a bot or hot-seat game that the page
//! played to its end with its own engine while the server was out of reach, its throws drawn
//! by the browser. The record is checked (it must replay from the rule set's start to the end
//! of the game, with no seed) and stored as an ordinary casual game marked
//! [`GameMeta::page_throws`], so that it is listed, reviewed and analysed like any other; the
//! server cannot vouch for its throws, so it shows no seed and no throws to check.

use super::{
    apply, now, random_id, random_token, snapshot, Created, Failure, Res, Service, StoredEvent,
};
use crate::seeds;
use crate::store::{GameMeta, Seat, StoreError};
use crate::wire::ImportGame;
use senet_bots::play as opponent;
use senet_rules::{AnyGame, Game, Player, Record, RuleSet, Status};
use std::collections::BTreeMap;

/// The migration that marks uploaded offline games, the same text on SQLite and PostgreSQL.
pub(crate) const MIGRATION: &str = "
-- Uploaded offline games: the throws were drawn by a player's browser, not from the seed.
ALTER TABLE games ADD COLUMN page_throws BIGINT NOT NULL DEFAULT 0;
";

/// The modes an uploaded game may have (`mode` of `POST /api/games/import`).
pub const IMPORT_MODES: [&str; 2] = ["bot", "hotseat"];

/// The seats of an uploaded game from its mode, bot level and the person's seat.
fn seats_of(req: &ImportGame) -> Res<[Seat; 2]> {
    let unprocessable = |m: String| Err(Failure::Unprocessable(m));
    match (req.mode.as_str(), &req.bot, req.seat) {
        ("bot", None, _) => unprocessable(format!(
            "a bot game needs \"bot\": the level of the bot the page played, one of {}",
            opponent::levels().join(", ")
        )),
        ("bot", Some(level), seat) => {
            opponent::check_level(level).map_err(Failure::Unprocessable)?;
            let own = match seat.unwrap_or(1) {
                1 => Player::First,
                2 => Player::Second,
                s => return unprocessable(format!("seat must be 1 or 2, got {s}")),
            };
            let mut seats = [Seat::Human, Seat::Human];
            seats[own.other().index()] = Seat::PageBot(level.clone());
            Ok(seats)
        }
        ("hotseat", Some(_), _) => {
            unprocessable("\"bot\" is only for mode \"bot\", not \"hotseat\"".into())
        }
        ("hotseat", None, Some(_)) => unprocessable(
            "\"seat\" is only for mode \"bot\" (the person's seat); in a hot-seat game both seats are people's"
                .into(),
        ),
        ("hotseat", None, None) => Ok([Seat::Human, Seat::Human]),
        ("online", _, _) => unprocessable(
            "mode must be bot or hotseat, got \"online\": an online game is played through the server, so there is none to upload"
                .into(),
        ),
        (m, _, _) => unprocessable(format!("mode must be bot or hotseat, got {m:?}")),
    }
}

/// serde's message without its " at line L column C" (the record was read from the body's
/// JSON, where that place means nothing to the client).
fn without_place(m: &str) -> &str {
    match m.rfind(" at line ") {
        Some(i) => &m[..i],
        None => m,
    }
}

/// Checks an uploaded record: it reads as a record, has no seed, starts from the rule set's
/// start with valid options, replays event by event, and ends the game. Returns the start,
/// the events as the server stores them (each throw and move in its own spelling) and the
/// final position.
fn checked(record: &serde_json::Value) -> Res<(AnyGame, Vec<StoredEvent>, AnyGame)> {
    let kind = match record {
        serde_json::Value::Object(_) => None,
        serde_json::Value::Array(_) => Some("a list"),
        serde_json::Value::String(_) => Some("text"),
        serde_json::Value::Null => Some("null"),
        _ => Some("a number or a boolean"),
    };
    if let Some(k) = kind {
        return Err(Failure::BadRequest(format!(
            "\"record\" must be a game record: a senet-record/1 object (docs/notation.md), not {k}"
        )));
    }
    let bad = |m: &str| Failure::Unprocessable(format!("\"record\": {}", without_place(m)));
    let mut rec = Record::from_json(&record.to_string()).map_err(|e| bad(e.message()))?;
    if rec.seed.is_some() {
        return Err(Failure::Unprocessable(
            "the record has a \"seed\", but the throws of a game played in the page with no server were drawn by the browser and have none; a game with a seed was thrown by a server and is stored there already"
                .into(),
        ));
    }
    let rules: RuleSet = rec
        .rules
        .parse()
        .map_err(|e: senet_rules::Error| bad(e.message()))?;
    let options = rec.option_pairs().map_err(|e| bad(e.message()))?;
    let fresh = AnyGame::new(rules, &options).map_err(|e| bad(e.message()))?;
    let does_not_replay = |e: senet_rules::Error| {
        Failure::Unprocessable(format!("the record does not replay: {}", e.message()))
    };
    // Replayed first without the result it claims, so that an unfinished game is told as
    // such; the claim is checked once the game is known to end.
    let claimed = rec.result.take();
    let replay = rec.replay().map_err(does_not_replay)?;
    if replay.start != fresh {
        return Err(Failure::Unprocessable(
            "the record starts from a position of its own (\"start\"); only a game played from the rule set's start can be uploaded"
                .into(),
        ));
    }
    let not_over = |g: &AnyGame| {
        let (p, what) = match g.status() {
            Status::Throw(p) => (p, "throw"),
            Status::Move(p) => (p, "move"),
            Status::Over(_) => return None,
        };
        Some(Failure::Unprocessable(format!(
            "only a finished game can be uploaded; this record's game is not over after its {} events: player {} is to {what}",
            rec.events.len(),
            p.index() + 1
        )))
    };
    if let Some(f) = not_over(&replay.end) {
        return Err(f);
    }
    if claimed.is_some() {
        rec.result = claimed;
        rec.replay().map_err(does_not_replay)?;
    }
    // The events as a stored game replays them (`Live::from_stored`), in the server's
    // spelling; the record has replayed, so none fails.
    let mut g = fresh;
    let mut events = Vec::with_capacity(rec.events.len());
    for (i, e) in rec.events.iter().enumerate() {
        let ev = match e {
            senet_rules::Event::Throw { throw } => StoredEvent::Throw(throw.clone()),
            senet_rules::Event::Move { mv } => StoredEvent::Move(mv.clone()),
        };
        let shown = apply(&mut g, &ev, i as u32).map_err(|m| {
            Failure::Unprocessable(format!("the record does not replay: event {}: {m}", i + 1))
        })?;
        events.push(match (shown.throw, shown.mv) {
            (Some(t), _) => StoredEvent::Throw(t),
            (_, Some(m)) => StoredEvent::Move(m),
            _ => ev,
        });
    }
    if let Some(f) = not_over(&g) {
        return Err(f);
    }
    Ok((fresh, events, g))
}

impl Service {
    /// Stores a finished game that the page played with no server (`POST /api/games/import`):
    /// a casual single game with a fresh ID, a token for each person's seat, the bot's seat
    /// (mode `bot`) a [`Seat::PageBot`] without one, marked [`GameMeta::page_throws`]. It is
    /// then read back as any stored game is, so its state, record, review and analysis are
    /// the usual ones.
    pub async fn import(&self, req: ImportGame) -> Res<Created> {
        let seats = seats_of(&req)?;
        let (start, events, end) = checked(&req.record)?;
        let mut tokens = BTreeMap::new();
        let mut hashes = [None, None];
        for p in Player::BOTH {
            if seats[p.index()] == Seat::Human {
                let t = random_token();
                hashes[p.index()] = Some(seeds::digest(&t));
                tokens.insert((p.index() + 1).to_string(), t);
            }
        }
        let mut meta = GameMeta {
            id: random_id(),
            rules: start.rules().id().into(),
            options: senet_rules::record::options_of(&start),
            // Unused: the throws are the browser's. Stored only because every game has one.
            seed: rand::random(),
            seed_hash: String::new(),
            mode: req.mode.clone(),
            seats,
            token_hashes: hashes,
            invite: None,
            created: now(),
            series: None,
            page_throws: true,
        };
        let snap = snapshot(&end);
        // A clash of random IDs is astronomically rare; take another ID a few times anyway.
        for tries in 0.. {
            let store = self.store.clone();
            let (m, ev, sn) = (meta.clone(), events.clone(), snap.clone());
            let r = tokio::task::spawn_blocking(move || store.create(&m, &ev, &sn))
                .await
                .map_err(|e| Failure::Internal(format!("store task failed: {e}")))?;
            match r {
                Ok(()) => break,
                Err(StoreError::Exists) if tries < 3 => meta.id = random_id(),
                Err(e) => return Err(e.into()),
            }
        }
        let arc = self.get(&meta.id).await?;
        let state = arc.lock().await.state(0);
        Ok(Created {
            id: meta.id,
            tokens,
            invite: None,
            state,
            series: None,
        })
    }
}
