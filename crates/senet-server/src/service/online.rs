//! Online play with people one does not know (issue 33, `docs/online.md`): players and
//! sessions, seeks and quick pairing, the lobby, clocks and flag falls, resign, abort,
//! claims after leaving, rematches, ratings, player pages. What is stored is in
//! [`crate::players`]; the rules of names, passwords, clocks and ratings in [`crate::online`].

use super::{blocking, now, random_id, random_token, snapshot, Failure, Live, Res, Service};
use crate::moderation::{self, Standing};
use crate::online::{self as rules_of, ClockSpec, ClockState, Rating};
use crate::players::{self, GameResult, PlayerRow, Rematch, SeekRow};
use crate::seeds;
use crate::store::{GameMeta, Seat, StoredEvent};
use crate::wire::{
    self, AwayOut, ClockView, GameStatus, LeaderRow, Leaderboard, LiveGame, LobbyMessage, Me,
    Paired, PlayerGameOut, PlayerPage, PlayerRef, RatingOut, RematchOut, RematchReply, ResultOut,
    SeekOut, SeekRequest, Waiting,
};
use senet_rules::{AnyGame, Game, Metrics, RuleSet, Status};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::broadcast;

/// Who makes a request: a seat's token, the session's player, both or neither.
#[derive(Clone, Copy, Debug, Default)]
pub struct Who<'a> {
    /// `Authorization: Bearer` (a seat token).
    pub token: Option<&'a str>,
    /// The player of the session cookie (checked, CSRF included, by the HTTP layer).
    pub player: Option<&'a str>,
}

impl<'a> Who<'a> {
    /// A request with (or without) a seat token.
    pub fn token(token: Option<&'a str>) -> Who<'a> {
        Who {
            token,
            player: None,
        }
    }

    /// A request of a session's player.
    pub fn player(player: &'a str) -> Who<'a> {
        Who {
            token: None,
            player: Some(player),
        }
    }
}

/// Counts one against `key` in `map`; false when that makes more than `max` in `window`.
fn counted(
    map: &Mutex<HashMap<String, (u32, Instant)>>,
    key: String,
    max: u32,
    window: Duration,
) -> bool {
    let mut m = lock(map);
    if m.len() > 100_000 {
        m.retain(|_, (_, t)| t.elapsed() < window);
    }
    let e = m.entry(key).or_insert((0, Instant::now()));
    if e.1.elapsed() >= window {
        *e = (0, Instant::now());
    }
    e.0 = e.0.saturating_add(1);
    e.0 <= max
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// A result's reason in words.
pub(super) fn reason_words(r: &str) -> &'static str {
    match r {
        "resign" => "resigned",
        "flag" => "time ran out",
        "flag-draw" => "time ran out, but the other side could no longer win",
        "abort" => "aborted",
        "claim" => "won by claim: the other player left",
        _ => "by the rules",
    }
}

/// How long a seat may be without a connection before the other may claim the win.
pub const CLAIM_AFTER_MS: i64 = 60_000;
/// A seek on a live clock is withdrawn after this long unanswered (its seeker has most likely
/// gone); correspondence seeks stay.
pub const SEEK_TTL_MS: i64 = 30 * 60_000;
/// Open seeks one player may have.
const MAX_SEEKS: i64 = 3;
/// Sessions read from the store are trusted this long before being read again (a sign-out
/// on another server takes effect within it).
const SESSION_TTL: Duration = Duration::from_secs(10);
/// Login attempts per name and per address in [`LOGIN_WINDOW`].
const LOGINS_PER_NAME: u32 = 10;
const LOGINS_PER_ADDRESS: u32 = 30;
const LOGIN_WINDOW: Duration = Duration::from_secs(300);

/// Limits per client address on what costs the server storage or work (issue 56): making
/// players, accounts (an Argon2 hash each) and seeks. Each is a count per address in a
/// window of [`AddressLimits::window`] (counted by each server: behind a proxy that spreads
/// one address over N servers, N times as many), except `open_seeks`, counted in the
/// database across servers. 0 turns a limit off.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AddressLimits {
    /// New players (`POST /api/me` without a session) per address per window.
    pub players: u32,
    /// Accounts made (`POST /api/account`) per address per window.
    pub accounts: u32,
    /// Seeks and quick-pairing requests per address per window.
    pub seeks: u32,
    /// Open seeks from one address at once (a player has at most 3 of their own).
    pub open_seeks: u32,
    /// The window.
    pub window: Duration,
}

impl Default for AddressLimits {
    /// 20 new players, 5 accounts and 60 seeks per address an hour; 6 open seeks.
    fn default() -> AddressLimits {
        AddressLimits {
            players: 20,
            accounts: 5,
            seeks: 60,
            open_seeks: 6,
            window: Duration::from_secs(3600),
        }
    }
}

impl AddressLimits {
    /// No limit per address (tests and load runs from one address).
    pub fn off() -> AddressLimits {
        AddressLimits {
            players: 0,
            accounts: 0,
            seeks: 0,
            open_seeks: 0,
            window: Duration::from_secs(3600),
        }
    }
}

/// The lobby's live state and what the sweeper needs.
pub(super) struct Lobby {
    tx: broadcast::Sender<Arc<str>>,
    seeks: Mutex<Arc<str>>,
    games: Mutex<Arc<str>>,
    sweeping: AtomicBool,
    sessions: Mutex<HashMap<String, (PlayerRow, Instant)>>,
    logins: Mutex<HashMap<String, (u32, Instant)>>,
    /// Counts per address (new players, accounts, seeks) in their windows.
    made: Mutex<HashMap<String, (u32, Instant)>>,
    per_address: Mutex<AddressLimits>,
    /// What each tournament's last message to the lobby said (a hash), to send changes only.
    tournaments: Mutex<HashMap<String, u64>>,
}

impl Default for Lobby {
    fn default() -> Lobby {
        Lobby {
            tx: broadcast::channel(256).0,
            seeks: Mutex::new(Arc::from(r#"{"type":"seeks","seeks":[]}"#)),
            games: Mutex::new(Arc::from(r#"{"type":"games","games":[]}"#)),
            sweeping: AtomicBool::new(false),
            sessions: Mutex::new(HashMap::new()),
            logins: Mutex::new(HashMap::new()),
            made: Mutex::new(HashMap::new()),
            per_address: Mutex::new(AddressLimits::default()),
            tournaments: Mutex::new(HashMap::new()),
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

pub(super) fn rules_name(id: &str) -> String {
    id.parse::<RuleSet>()
        .map(|r| r.name().to_string())
        .unwrap_or_else(|_| id.to_string())
}

fn rating_out(rules: &str, r: &Rating) -> RatingOut {
    RatingOut {
        rules: rules.into(),
        rules_name: rules_name(rules),
        rating: r.rating.round() as i64,
        rd: r.rd.round() as i64,
        provisional: r.provisional(),
        games: r.games,
        history: None,
    }
}

pub(super) fn player_ref(id: &str, name: &str, r: &Rating) -> PlayerRef {
    PlayerRef {
        id: id.into(),
        name: name.into(),
        rating: Some(r.rating.round() as i64),
        provisional: r.provisional(),
    }
}

impl Live {
    /// Whether the game still runs (no result, not over by the rules).
    pub(super) fn running(&self) -> bool {
        self.online.result.is_none() && !matches!(self.game.status(), Status::Over(_))
    }

    /// The status, with a result other than the rules' (resign, flag, ...) as the end.
    pub(super) fn status(&self) -> GameStatus {
        match &self.online.result {
            Some(r) => GameStatus::Over {
                winner: r.winner.map(usize::from),
                capped: false,
                score: None,
            },
            None => super::status_of(&self.game),
        }
    }

    /// Moves made by seats 1 and 2.
    pub(super) fn moves_by(&self) -> [u32; 2] {
        let mut n = [0; 2];
        for e in &self.events {
            if e.mv.is_some() {
                n[(e.player as usize).clamp(1, 2) - 1] += 1;
            }
        }
        n
    }

    pub(super) fn clock_view(&self) -> Option<ClockView> {
        let spec = self.online.clock?;
        let c = self.online.clock_state?;
        let running = if self.running() { c.running } else { None };
        Some(ClockView {
            spec: spec.to_json(),
            remaining: if running.is_some() {
                c.at(now_ms())
            } else {
                c.remaining
            },
            running: running.map(|r| r as u8 + 1),
        })
    }

    pub(super) fn result_out(&self) -> Option<ResultOut> {
        if let Some(r) = &self.online.result {
            return Some(ResultOut {
                winner: r.winner,
                reason: r.reason.clone(),
            });
        }
        match self.game.status() {
            Status::Over(o) if self.online.players.iter().any(Option::is_some) => Some(ResultOut {
                winner: o.winner.map(|p| p.index() as u8 + 1),
                reason: "rules".into(),
            }),
            _ => None,
        }
    }

    pub(super) fn away_out(&self) -> Option<AwayOut> {
        if !self.running() || self.online.clock.is_none_or(ClockSpec::correspondence) {
            return None;
        }
        let now = now_ms();
        (0..2).find_map(|s| {
            let since = self.online.away[s]?;
            (self.watchers[s] == 0).then(|| AwayOut {
                seat: s as u8 + 1,
                claim_in: (since + CLAIM_AFTER_MS - now).max(0),
            })
        })
    }

    pub(super) fn rematch_out(&self) -> Option<RematchOut> {
        if self.online.rematch_offer.is_none() && self.online.rematch_game.is_none() {
            return None;
        }
        Some(RematchOut {
            offered_by: self
                .online
                .rematch_offer
                .filter(|_| self.online.rematch_game.is_none()),
            game: self.online.rematch_game.clone(),
        })
    }

    /// The stopped clock at `now`.
    fn stopped_clock(&self, now: i64) -> Option<ClockState> {
        self.online.clock_state.map(|mut c| {
            c.stop(now);
            c
        })
    }

    /// Whether `side` (0 or 1) can no longer win before the turn cap (C5): it needs at
    /// least one decision per piece still on the board.
    fn cannot_win(&self, side: usize) -> bool {
        let Ok(cap) = self.game.options().int("cap") else {
            return false;
        };
        let left = cap.saturating_sub(self.game.decisions());
        (left as u64) < self.game.census()[side].board as u64
    }
}

impl Service {
    /// Reads a game's online columns and its players' names and ratings into `live`.
    pub(super) async fn load_online(&self, live: &mut Live) -> Res<()> {
        let store = self.store.clone();
        let id = live.meta.id.clone();
        let rules = live.meta.rules.clone();
        let (online, names) = blocking(move || {
            let online = players::online_of(&*store, &id)?;
            let ids: Vec<String> = online.players.iter().flatten().cloned().collect();
            let mut names = if ids.is_empty() {
                Vec::new()
            } else {
                players::names_ratings(&*store, &ids, &rules)?
            };
            // A game whose ratings were applied shows the ratings it made.
            if online.rating_change.is_some() {
                for (p, rating, rd) in players::ratings_after(&*store, &id)? {
                    if let Some(n) = names.iter_mut().find(|(x, _, _)| *x == p) {
                        n.2.rating = rating;
                        n.2.rd = rd;
                    }
                }
            }
            Ok((online, names))
        })
        .await?;
        live.names = [0, 1].map(|s| {
            let p = online.players[s].as_ref()?;
            names
                .iter()
                .find(|(id, _, _)| id == p)
                .map(|(id, n, r)| player_ref(id, n, r))
        });
        live.online = online;
        Ok(())
    }

    /// The state of game `id` as the session's `player` sees it (`you`: their seat).
    pub async fn state_as(&self, id: &str, player: Option<&str>) -> Res<wire::GameState> {
        let arc = self.get(id).await?;
        let l = arc.lock().await;
        let mut st = l.state(0);
        st.you = player.and_then(|p| {
            (0..2)
                .find(|&s| l.online.players[s].as_deref() == Some(p))
                .map(|s| s as u8 + 1)
        });
        Ok(st)
    }

    // ---- players and sessions ----

    /// The player of a session secret (cached for 10 s).
    pub async fn session(&self, secret: &str) -> Res<Option<PlayerRow>> {
        if secret.is_empty() || secret.len() > 128 {
            return Ok(None);
        }
        let h = seeds::digest(secret);
        if let Some((p, at)) = lock(&self.lobby.sessions).get(&h) {
            if at.elapsed() < SESSION_TTL {
                return Ok(Some(p.clone()));
            }
        }
        let store = self.store.clone();
        let key = h.clone();
        let p = blocking(move || {
            let t = now();
            let found = players::session_player(&*store, &key, t)?;
            if let Some((p, seen)) = &found {
                // Its last use, for the expiry of idle sessions and players (written at most
                // hourly).
                moderation::touch(&*store, &key, &p.id, Some(*seen), t)?;
            }
            Ok(found.map(|(p, _)| p))
        })
        .await?;
        let mut cache = lock(&self.lobby.sessions);
        if cache.len() > 100_000 {
            cache.clear();
        }
        match &p {
            Some(p) => {
                cache.insert(h, (p.clone(), Instant::now()));
            }
            None => {
                cache.remove(&h);
            }
        }
        Ok(p)
    }

    fn forget_sessions_of(&self, player: &str) {
        lock(&self.lobby.sessions).retain(|_, (p, _)| p.id != player);
    }

    /// Makes an anonymous player with a generated name; returns it and its session secret.
    pub async fn new_player(&self, client: super::Client) -> Res<(PlayerRow, String)> {
        let l = self.address_limits();
        self.made_from(client, "new players", l.players, l.window)?;
        let secret = random_token() + &random_token();
        let h = seeds::digest(&secret);
        let store = self.store.clone();
        let id = random_id();
        let seed: u64 = rand::random();
        let p = blocking(move || {
            players::create_player(
                &*store,
                &id,
                |n| {
                    rules_of::generated_name(
                        seeds::word(seed, n as u64) as u64 | ((n as u64) << 40),
                    )
                },
                &h,
                now(),
            )
        })
        .await?;
        Ok((p, secret))
    }

    /// What `GET /api/me` answers.
    pub async fn me(&self, p: &PlayerRow, secret: &str) -> Res<Me> {
        let store = self.store.clone();
        let id = p.id.clone();
        let (ratings, playing) = blocking(move || {
            Ok((
                players::ratings_of(&*store, &id)?,
                players::playing(&*store, &id)?,
            ))
        })
        .await?;
        Ok(Me {
            playing,
            id: p.id.clone(),
            name: p.name.clone(),
            account: p.account,
            csrf: rules_of::csrf_of(secret),
            ratings: ratings.iter().map(|(r, x)| rating_out(r, x)).collect(),
        })
    }

    async fn set_name(&self, p: &PlayerRow, name: &str, password: Option<String>) -> Res<()> {
        rules_of::check_name(name).map_err(Failure::Unprocessable)?;
        let store = self.store.clone();
        let (id, n) = (p.id.clone(), name.to_string());
        let r = blocking(move || players::set_name_password(&*store, &id, &n, password.as_deref()))
            .await?;
        self.forget_sessions_of(&p.id);
        r.map_err(|_| Failure::Conflict(format!("the name {name:?} is taken")))
    }

    /// Renames the player.
    pub async fn rename(&self, p: &PlayerRow, name: &str) -> Res<()> {
        self.set_name(p, name, None).await
    }

    /// Makes the player an account with this name and password.
    pub async fn make_account(
        &self,
        client: super::Client,
        p: &PlayerRow,
        name: &str,
        password: &str,
    ) -> Res<()> {
        if p.account {
            return Err(Failure::Conflict(
                "this player already has an account: change the password instead".into(),
            ));
        }
        rules_of::check_password(password).map_err(Failure::Unprocessable)?;
        rules_of::check_name(name).map_err(Failure::Unprocessable)?;
        // Counted before the Argon2 hash, the costly part.
        let l = self.address_limits();
        self.made_from(client, "accounts", l.accounts, l.window)?;
        let pw = password.to_string();
        let phc = tokio::task::spawn_blocking(move || rules_of::hash_password(&pw))
            .await
            .map_err(|e| Failure::Internal(e.to_string()))?
            .map_err(Failure::Internal)?;
        self.set_name(p, name, Some(phc)).await
    }

    /// Counts a login attempt against `key`; false when over `max` in the window.
    fn login_allowed(&self, key: String, max: u32) -> bool {
        counted(&self.lobby.logins, key, max, LOGIN_WINDOW)
    }

    /// Sets the limits per client address (`Limits::per_address`).
    pub fn set_address_limits(&self, l: AddressLimits) {
        *lock(&self.lobby.per_address) = l;
    }

    fn address_limits(&self) -> AddressLimits {
        lock(&self.lobby.per_address).clone()
    }

    /// Counts one `what` made from `client` against `max` per window; a refusal in words
    /// (429) when over it. `max` 0: no limit.
    fn made_from(
        &self,
        client: super::Client,
        what: &'static str,
        max: u32,
        window: Duration,
    ) -> Res<()> {
        if max == 0 || counted(&self.lobby.made, format!("{what}:{client}"), max, window) {
            return Ok(());
        }
        self.metrics.refused.with_label_values(&[what]).inc();
        Err(Failure::Busy(format!(
            "too many {what} from your address: at most {max} in {} minutes; wait and try again{}",
            window.as_secs().div_ceil(60),
            match what {
                "new players" => " (this browser keeps its player: you need no new one)",
                _ => "",
            }
        )))
    }

    /// Refuses a player whose standing forbids seeking and pairing (read fresh).
    pub(super) async fn may_seek(&self, p: &PlayerRow) -> Res<()> {
        let (store, id) = (self.store.clone(), p.id.clone());
        match blocking(move || moderation::standing(&*store, &id)).await? {
            Standing::Good => Ok(()),
            s => Err(self.refuse_standing(s)),
        }
    }

    fn refuse_standing(&self, s: Standing) -> Failure {
        self.metrics.refused.with_label_values(&["banned"]).inc();
        Failure::Forbidden(
            match s {
                Standing::Banned => {
                    "this player is banned from seeking and pairing by the site's operator"
                }
                Standing::Closed => "this player's account was closed",
                _ => "this player no longer exists",
            }
            .into(),
        )
    }

    /// Signs in: a new session for the account `name` if `password` is its password. An
    /// unknown name and a wrong password get the same answer after the same work.
    pub async fn login(
        &self,
        client: super::Client,
        name: &str,
        password: &str,
    ) -> Res<(PlayerRow, String)> {
        let by_name =
            self.login_allowed(format!("n:{}", rules_of::name_key(name)), LOGINS_PER_NAME);
        let by_addr = self.login_allowed(format!("a:{client}"), LOGINS_PER_ADDRESS);
        if !by_name || !by_addr {
            return Err(Failure::Busy(
                "too many sign-in attempts: wait a few minutes and try again".into(),
            ));
        }
        if name.len() > 64 || password.len() > 1024 {
            return Err(Failure::Unauthorized("wrong name or password".into()));
        }
        let store = self.store.clone();
        let n = name.to_string();
        let found = blocking(move || players::login_lookup(&*store, &n)).await?;
        let (player, phc) = match found {
            Some((p, Some(h))) => (Some(p), h),
            _ => (None, rules_of::dummy_hash().to_string()),
        };
        let pw = password.to_string();
        let ok = tokio::task::spawn_blocking(move || rules_of::verify_password(&pw, &phc))
            .await
            .map_err(|e| Failure::Internal(e.to_string()))?;
        let Some(player) = player.filter(|_| ok) else {
            return Err(Failure::Unauthorized("wrong name or password".into()));
        };
        let secret = random_token() + &random_token();
        let (store, h, id) = (
            self.store.clone(),
            seeds::digest(&secret),
            player.id.clone(),
        );
        blocking(move || players::new_session(&*store, &id, &h, now())).await?;
        Ok((player, secret))
    }

    /// Ends this session, or every session of the player.
    pub async fn logout(&self, p: &PlayerRow, secret: &str, everywhere: bool) -> Res<()> {
        let (store, id, h) = (self.store.clone(), p.id.clone(), seeds::digest(secret));
        blocking(move || {
            if everywhere {
                players::end_sessions(&*store, &id, None).map(|_| ())
            } else {
                players::end_session(&*store, &h)
            }
        })
        .await?;
        self.forget_sessions_of(&p.id);
        Ok(())
    }

    /// Changes the password (the old one must be given) and ends every other session.
    pub async fn change_password(
        &self,
        p: &PlayerRow,
        secret: &str,
        old: &str,
        new: &str,
    ) -> Res<()> {
        if !p.account {
            return Err(Failure::Conflict(
                "this player has no account yet: make one first".into(),
            ));
        }
        rules_of::check_password(new).map_err(Failure::Unprocessable)?;
        let store = self.store.clone();
        let name = p.name.clone();
        let found = blocking(move || players::login_lookup(&*store, &name)).await?;
        let phc = found.and_then(|(_, h)| h).unwrap_or_default();
        let (o, n) = (old.to_string(), new.to_string());
        let hashed = tokio::task::spawn_blocking(move || {
            if rules_of::verify_password(&o, &phc) {
                rules_of::hash_password(&n).map(Some)
            } else {
                Ok(None)
            }
        })
        .await
        .map_err(|e| Failure::Internal(e.to_string()))?
        .map_err(Failure::Internal)?;
        let Some(phc) = hashed else {
            return Err(Failure::Forbidden("the old password is wrong".into()));
        };
        let (store, id, keep) = (self.store.clone(), p.id.clone(), seeds::digest(secret));
        let name = p.name.clone();
        blocking(move || {
            players::set_name_password(&*store, &id, &name, Some(&phc))?
                .map_err(|_| crate::store::StoreError::Conflict)?;
            players::end_sessions(&*store, &id, Some(&keep)).map(|_| ())
        })
        .await?;
        self.forget_sessions_of(&p.id);
        Ok(())
    }

    // ---- seeks, pairing, the lobby ----

    pub(super) fn check_seek(req: &SeekRequest) -> Res<(RuleSet, Vec<String>, ClockSpec)> {
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
        let clock = ClockSpec::from_json(&req.clock).map_err(Failure::Unprocessable)?;
        Ok((rules, senet_rules::record::options_of(&start), clock))
    }

    async fn rating_of(&self, player: &str, rules: &str) -> Res<Rating> {
        let (store, p, r) = (self.store.clone(), player.to_string(), rules.to_string());
        blocking(move || players::run(&*store, |tx| players::rating(tx, &p, &r, false))).await
    }

    /// Opens a seek (or, with `pool`, waits in quick pairing).
    pub async fn create_seek(
        &self,
        client: super::Client,
        p: &PlayerRow,
        req: &SeekRequest,
        pool: bool,
    ) -> Res<SeekRow> {
        self.seek_for(client, p, req, pool, None).await
    }

    /// Opens a seek that only `target` may accept: a challenge (`service/challenges.rs`).
    pub(super) async fn create_targeted_seek(
        &self,
        client: super::Client,
        p: &PlayerRow,
        req: &SeekRequest,
        target: Option<String>,
    ) -> Res<SeekRow> {
        self.seek_for(client, p, req, false, target).await
    }

    async fn seek_for(
        &self,
        client: super::Client,
        p: &PlayerRow,
        req: &SeekRequest,
        pool: bool,
        target: Option<String>,
    ) -> Res<SeekRow> {
        let (rules, options, clock) = Self::check_seek(req)?;
        let l = self.address_limits();
        self.made_from(client, "seeks", l.seeks, l.window)?;
        let rating = self.rating_of(&p.id, rules.id()).await?;
        let seek = SeekRow {
            id: random_id(),
            player: p.id.clone(),
            rules: rules.id().into(),
            options,
            rated: req.rated,
            clock,
            pool,
            rating: rating.rating,
            created: now_ms(),
            target,
        };
        let (store, s) = (self.store.clone(), seek.clone());
        let from = (client.to_string(), i64::from(l.open_seeks));
        match blocking(move || players::create_seek(&*store, &s, MAX_SEEKS, &from)).await? {
            players::SeekMade::Made => {}
            players::SeekMade::PlayerFull => {
                return Err(Failure::Conflict(format!(
                    "you already have {MAX_SEEKS} open seeks, the most allowed: cancel one first"
                )))
            }
            players::SeekMade::AddressFull => {
                self.metrics
                    .refused
                    .with_label_values(&["open seeks"])
                    .inc();
                return Err(Failure::Busy(format!(
                    "your address has {} open seeks already, the most allowed from one address: wait until one is taken or withdrawn",
                    l.open_seeks
                )));
            }
            players::SeekMade::Refused(st) => return Err(self.refuse_standing(st)),
        }
        self.lobby_refresh().await;
        Ok(seek)
    }

    /// A seek as shown.
    pub async fn seek_out(&self, s: &SeekRow) -> Res<SeekOut> {
        let (store, ids, rules) = (self.store.clone(), vec![s.player.clone()], s.rules.clone());
        let names = blocking(move || players::names_ratings(&*store, &ids, &rules)).await?;
        let (_, name, r) = names
            .first()
            .cloned()
            .ok_or_else(|| Failure::Internal("a seek of an unknown player".into()))?;
        Ok(SeekOut {
            id: s.id.clone(),
            player: player_ref(&s.player, &name, &r),
            rules: s.rules.clone(),
            rules_name: rules_name(&s.rules),
            options: s.options.clone(),
            rated: s.rated,
            clock: s.clock.to_json(),
            pool: s.pool,
            created: s.created,
        })
    }

    /// The open seeks (quick pairing's waiting players are not listed).
    pub async fn seeks(&self) -> Res<Vec<SeekOut>> {
        let store = self.store.clone();
        let rows = blocking(move || players::open_seeks(&*store)).await?;
        let mut out = Vec::new();
        for s in rows.iter().filter(|s| !s.pool && s.target.is_none()) {
            out.push(self.seek_out(s).await?);
        }
        Ok(out)
    }

    /// Withdraws a seek of the player.
    pub async fn cancel_seek(&self, p: &PlayerRow, id: &str) -> Res<()> {
        let (store, sid, pid) = (self.store.clone(), id.to_string(), p.id.clone());
        if !blocking(move || players::cancel_seek(&*store, &sid, &pid)).await? {
            return Err(Failure::NotFound(format!(
                "you have no open seek {id:?} (taken, withdrawn, or not yours)"
            )));
        }
        self.lobby_refresh().await;
        Ok(())
    }

    /// Stores a new online game of `rules` with `options` and no players yet (they are
    /// seated by the transaction that takes the seeks, or claims a tournament's wave):
    /// returns the player who starts (0 or 1).
    pub(super) async fn new_online_game(
        &self,
        id: &str,
        rules: &str,
        options: &[String],
    ) -> Res<usize> {
        let r: RuleSet = rules
            .parse()
            .map_err(|e: senet_rules::Error| Failure::Internal(e.to_string()))?;
        let start = AnyGame::new(r, options).map_err(|e| Failure::Internal(e.to_string()))?;
        let seed: u64 = rand::random();
        let meta = GameMeta {
            id: id.to_string(),
            rules: rules.into(),
            options: senet_rules::record::options_of(&start),
            seed,
            seed_hash: seeds::commitment(seed),
            mode: "online".into(),
            seats: [Seat::Human, Seat::Human],
            // The seats are the players' (by session); these tokens are never shown.
            token_hashes: [
                Some(seeds::digest(&random_token())),
                Some(seeds::digest(&random_token())),
            ],
            invite: None,
            created: now(),
            series: None,
            page_throws: false,
        };
        let first = start.status().player().map_or(0, |p| p.index());
        let snap = snapshot(&start);
        let store = self.store.clone();
        blocking(move || store.create(&meta, &[] as &[StoredEvent], &snap)).await?;
        Ok(first)
    }

    /// Makes a game between two players for seeks `take` (all taken, or no game): returns
    /// its ID, or `None` when someone took a seek first.
    #[allow(clippy::too_many_arguments)]
    async fn create_between(
        &self,
        id: String,
        rules: &str,
        options: &[String],
        seats: [String; 2],
        clock: ClockSpec,
        rated: bool,
        take: Vec<String>,
    ) -> Res<Option<String>> {
        let first = self.new_online_game(&id, rules, options).await?;
        let state = ClockState::start(clock, first, now_ms());
        let (store, gid) = (self.store.clone(), id.clone());
        let made = blocking(move || {
            let ids: Vec<&str> = take.iter().map(String::as_str).collect();
            let ok = players::take_seeks(&*store, &ids, &gid, &seats, Some((clock, state)), rated)?;
            if !ok {
                players::delete_game(&*store, &gid)?;
            }
            Ok(ok)
        })
        .await?;
        Ok(made.then_some(id))
    }

    /// Accepts an open seek: the game starts for both (seats drawn at random).
    pub async fn accept_seek(&self, p: &PlayerRow, id: &str) -> Res<Paired> {
        self.may_seek(p).await?;
        let store = self.store.clone();
        let rows = blocking(move || players::open_seeks(&*store)).await?;
        let Some(s) = rows.into_iter().find(|s| s.id == id) else {
            return Err(Failure::Conflict(format!(
                "the seek {id:?} is no longer open: someone accepted it first, or it was withdrawn"
            )));
        };
        if s.player == p.id {
            return Err(Failure::Conflict(
                "this is your own seek: wait for someone to accept it".into(),
            ));
        }
        if s.target.as_ref().is_some_and(|t| *t != p.id) {
            return Err(Failure::Conflict(format!(
                "the seek {id:?} is a challenge to another player: only they may accept it"
            )));
        }
        self.pair(&s, &p.id, vec![s.id.clone()], &p.id)
            .await?
            .ok_or_else(|| {
                Failure::Conflict(format!(
                    "the seek {id:?} was taken by someone else a moment before you"
                ))
            })
    }

    /// Pairs `seek`'s player with `other` for the seeks `take`; `me` learns their seat.
    async fn pair(
        &self,
        seek: &SeekRow,
        other: &str,
        take: Vec<String>,
        me: &str,
    ) -> Res<Option<Paired>> {
        let seats = if rand::random::<bool>() {
            [seek.player.clone(), other.to_string()]
        } else {
            [other.to_string(), seek.player.clone()]
        };
        let gid = random_id();
        let made = self
            .create_between(
                gid,
                &seek.rules,
                &seek.options,
                seats.clone(),
                seek.clock,
                seek.rated,
                take,
            )
            .await?;
        let Some(game) = made else {
            self.lobby_refresh().await;
            return Ok(None);
        };
        self.lobby_send(&LobbyMessage::Paired {
            game: game.clone(),
            players: seats.clone(),
        });
        self.lobby_refresh().await;
        let seat = if seats[0] == me { 1 } else { 2 };
        Ok(Some(Paired { game, seat }))
    }

    /// Whether two waiting players may be paired now: same settings, ratings within a range
    /// that starts at ±100 and widens by 50 every 5 s of the shorter wait.
    fn compatible(a: &SeekRow, b: &SeekRow, now: i64) -> bool {
        let waited = (now - a.created.max(b.created)).max(0) / 5_000;
        a.player != b.player
            && a.rules == b.rules
            && a.options == b.options
            && a.clock == b.clock
            && a.rated == b.rated
            && (a.rating - b.rating).abs() <= 100.0 + 50.0 * waited as f64
    }

    /// Quick pairing: pairs with a waiting player at once, or waits.
    pub async fn pairing(
        &self,
        client: super::Client,
        p: &PlayerRow,
        req: &SeekRequest,
    ) -> Res<Result<Paired, Waiting>> {
        let (rules, options, clock) = Self::check_seek(req)?;
        self.may_seek(p).await?;
        let rating = self.rating_of(&p.id, rules.id()).await?;
        let me = SeekRow {
            id: String::new(),
            player: p.id.clone(),
            rules: rules.id().into(),
            options,
            rated: req.rated,
            clock,
            pool: true,
            rating: rating.rating,
            created: now_ms(),
            target: None,
        };
        let store = self.store.clone();
        let open = blocking(move || players::open_seeks(&*store)).await?;
        let now = now_ms();
        for s in open
            .iter()
            .filter(|s| s.pool && Self::compatible(s, &me, now))
        {
            if let Some(paired) = self.pair(s, &p.id, vec![s.id.clone()], &p.id).await? {
                return Ok(Ok(paired));
            }
        }
        let seek = self.create_seek(client, p, req, true).await?;
        Ok(Err(Waiting { seek: seek.id }))
    }

    /// Pairs the waiting players the sweeper finds compatible.
    async fn pair_pool(&self) -> Res<()> {
        let store = self.store.clone();
        let open: Vec<SeekRow> = blocking(move || players::open_seeks(&*store))
            .await?
            .into_iter()
            .filter(|s| s.pool)
            .collect();
        let now = now_ms();
        let mut used = vec![false; open.len()];
        for i in 0..open.len() {
            for j in i + 1..open.len() {
                if used[i] || used[j] || !Self::compatible(&open[i], &open[j], now) {
                    continue;
                }
                let (a, b) = (&open[i], &open[j]);
                if self
                    .pair(a, &b.player, vec![a.id.clone(), b.id.clone()], &a.player)
                    .await?
                    .is_some()
                {
                    used[i] = true;
                    used[j] = true;
                }
            }
        }
        Ok(())
    }

    /// Games being played between players now, to watch.
    pub async fn live_games(&self) -> Res<Vec<LiveGame>> {
        let store = self.store.clone();
        blocking(move || {
            let rows = players::live_games(&*store, 30)?;
            let mut out = Vec::new();
            for g in rows {
                let names = players::names_ratings(&*store, &g.players, &g.rules)?;
                let refs: Vec<PlayerRef> = g
                    .players
                    .iter()
                    .filter_map(|p| {
                        names
                            .iter()
                            .find(|(id, _, _)| id == p)
                            .map(|(id, n, r)| player_ref(id, n, r))
                    })
                    .collect();
                let Ok(players) = <[PlayerRef; 2]>::try_from(refs) else {
                    continue;
                };
                out.push(LiveGame {
                    rules_name: rules_name(&g.rules),
                    id: g.id,
                    rules: g.rules,
                    players,
                    clock: g.clock.map(ClockSpec::to_json),
                    rated: g.rated,
                    moves: g.moves,
                });
            }
            Ok(out)
        })
        .await
    }

    /// Notes that the lobby was sent tournament `id`'s state with hash `print`: whether it
    /// differs from what was sent last.
    pub(super) fn lobby_tournament_sent(&self, id: &str, print: u64) -> bool {
        lock(&self.lobby.tournaments).insert(id.to_string(), print) != Some(print)
    }

    /// Sends a message already made to the lobby's connections.
    pub(super) fn lobby_send_text(&self, text: String) {
        let _ = self.lobby.tx.send(Arc::from(text));
    }

    pub(super) fn lobby_send(&self, msg: &LobbyMessage) {
        if let Ok(t) = serde_json::to_string(msg) {
            let _ = self.lobby.tx.send(Arc::from(t));
        }
    }

    /// Reads the open seeks again and tells the lobby if they changed.
    pub(super) async fn lobby_refresh(&self) {
        let Ok(seeks) = self.seeks().await else {
            return;
        };
        self.lobby_keep(&self.lobby.seeks, &LobbyMessage::Seeks { seeks });
    }

    async fn games_refresh(&self) {
        let Ok(games) = self.live_games().await else {
            return;
        };
        self.lobby_keep(&self.lobby.games, &LobbyMessage::Games { games });
    }

    /// Keeps `msg` as the lobby's current list in `slot` (what a new connection is sent
    /// first) and tells the lobby, when it changed.
    fn lobby_keep(&self, slot: &Mutex<Arc<str>>, msg: &LobbyMessage) {
        let Ok(text) = serde_json::to_string(msg) else {
            return;
        };
        let text: Arc<str> = Arc::from(text);
        {
            let mut cur = lock(slot);
            if *cur == text {
                return;
            }
            *cur = text.clone();
        }
        let _ = self.lobby.tx.send(text);
    }

    /// Another server's lobby change (`!lobby`, `!paired:GAME:P1:P2`, `!challenge:P1:P2`,
    /// `!tournament:ID`).
    pub(super) async fn lobby_note(&self, what: &str) {
        if let Some(id) = what.strip_prefix("!tournament:") {
            self.tournament_note(id).await;
            return;
        }
        if let Some(rest) = what.strip_prefix("!challenge:") {
            if let Some((a, b)) = rest.split_once(':') {
                self.challenges_changed(a, b);
            }
            return;
        }
        if let Some(rest) = what.strip_prefix("!paired:") {
            let v: Vec<&str> = rest.split(':').collect();
            if let [game, p1, p2] = v[..] {
                self.lobby_send(&LobbyMessage::Paired {
                    game: game.into(),
                    players: [p1.into(), p2.into()],
                });
            }
        }
        self.lobby_refresh().await;
    }

    /// The lobby's live messages: the current seeks and games first, then changes.
    pub async fn lobby_subscribe(&self) -> (Vec<Arc<str>>, broadcast::Receiver<Arc<str>>) {
        let rx = self.lobby.tx.subscribe();
        if !self.lobby.sweeping.load(Ordering::Relaxed) {
            self.lobby_refresh().await;
            self.games_refresh().await;
        }
        let first = vec![
            lock(&self.lobby.seeks).clone(),
            lock(&self.lobby.games).clone(),
        ];
        (first, rx)
    }

    // ---- clocks, results, ratings ----

    /// Ends game `id` by its clock if the running side's time has run out: a loss for that
    /// side, a draw when the other can no longer win, an abort when it never moved.
    pub(super) async fn settle_clock(&self, id: &str) {
        let Ok(arc) = self.get(id).await else {
            return;
        };
        let mut l = arc.lock().await;
        if !l.running() {
            return;
        }
        let now = now_ms();
        let Some(side) = l.online.clock_state.and_then(|c| c.flagged(now)) else {
            return;
        };
        let other = 1 - side;
        let result = if l.moves_by()[side] == 0 {
            GameResult {
                winner: None,
                reason: "abort".into(),
            }
        } else if l.cannot_win(other) {
            GameResult {
                winner: None,
                reason: "flag-draw".into(),
            }
        } else {
            GameResult {
                winner: Some(other as u8 + 1),
                reason: "flag".into(),
            }
        };
        let abort = result.reason == "abort";
        let ended = self.end_with(id, &mut l, result).await.is_ok();
        // A tournament's player who never came (issue 57): paused or withdrawn, and their
        // opponent in a round-robin or Swiss event takes the round as a bye.
        if let (true, true, Some(t), [Some(a), Some(b)]) = (
            ended,
            abort,
            l.online.tournament.clone(),
            l.online.players.clone(),
        ) {
            let (absent, present) = if side == 0 { (a, b) } else { (b, a) };
            let (store, game) = (self.store.clone(), id.to_string());
            let _ = blocking(move || {
                crate::tournaments::no_show(&*store, &t, &game, &absent, &present)
            })
            .await;
        }
    }

    /// Stores `result` for the running game `l` (once) and tells its watchers.
    async fn end_with(&self, id: &str, l: &mut Live, result: GameResult) -> Res<()> {
        let now = now_ms();
        let stopped = l.stopped_clock(now);
        let (store, key, n, r) = (
            self.store.clone(),
            id.to_string(),
            l.events.len() as u32,
            result.clone(),
        );
        let done =
            blocking(move || players::finish(&*store, &key, n, &r, stopped.as_ref(), now / 1000))
                .await?;
        if !done {
            // Another request or server ended or extended it first: read it again.
            let _ = self.load_online(l).await;
            return Err(Failure::Conflict(
                "the game changed meanwhile (a move, or another ending); reload it".into(),
            ));
        }
        l.online.result = Some(result);
        l.online.clock_state = stopped;
        l.publish_update(l.events.len());
        if l.online.rated {
            self.rate_later(id);
        }
        Ok(())
    }

    /// Applies a finished rated game to the ratings in the background (once; the sweeper
    /// retries what a failure left).
    pub(super) fn rate_later(&self, id: &str) {
        let Some(me) = self.me.upgrade() else {
            return;
        };
        let id = id.to_string();
        tokio::spawn(async move { me.rate_now(&id).await });
    }

    async fn rate_now(&self, id: &str) {
        let (store, key) = (self.store.clone(), id.to_string());
        let Ok(Some(change)) = blocking(move || players::apply_ratings(&*store, &key, now())).await
        else {
            return;
        };
        let cached = self.cache().get(id).cloned();
        if let Some(arc) = cached {
            let mut l = arc.lock().await;
            l.online.rating_change = Some(change);
            let _ = self.load_online(&mut l).await;
            l.publish_update(l.events.len());
        }
    }

    /// A seated player of a running game `id` ends it: resign, abort or claim.
    async fn end_by(&self, id: &str, who: super::Who<'_>, how: &str) -> Res<wire::GameState> {
        let arc = self.get(id).await?;
        let mut l = arc.lock().await;
        let seat = l.seat_of(who)?;
        if !l.running() {
            return Err(Failure::Conflict("the game is over".into()));
        }
        let s = seat.index();
        let result = match how {
            "resign" => GameResult {
                winner: Some(seat.other().index() as u8 + 1),
                reason: "resign".into(),
            },
            "abort" => {
                if l.moves_by().iter().all(|&n| n > 0) {
                    return Err(Failure::Conflict(
                        "both players have moved: a game can be aborted only before that; resign instead"
                            .into(),
                    ));
                }
                GameResult {
                    winner: None,
                    reason: "abort".into(),
                }
            }
            _ => {
                let away = l.away_out();
                match away {
                    Some(a) if a.seat as usize == 2 - s && a.claim_in == 0 => GameResult {
                        winner: Some(s as u8 + 1),
                        reason: "claim".into(),
                    },
                    Some(a) if a.seat as usize == 2 - s => {
                        return Err(Failure::Conflict(format!(
                            "the other player left {} s ago: the win can be claimed after 60 s without a connection",
                            (CLAIM_AFTER_MS - a.claim_in) / 1000
                        )))
                    }
                    _ => {
                        return Err(Failure::Conflict(
                            "the other player is connected (or this game has no live clock): there is no win to claim"
                                .into(),
                        ))
                    }
                }
            }
        };
        self.end_with(id, &mut l, result).await?;
        Ok(l.state(0))
    }

    /// Resigns: the other seat wins.
    pub async fn resign(&self, id: &str, who: super::Who<'_>) -> Res<wire::GameState> {
        self.end_by(id, who, "resign").await
    }

    /// Aborts a game before both players have moved (no result, unrated).
    pub async fn abort(&self, id: &str, who: super::Who<'_>) -> Res<wire::GameState> {
        self.end_by(id, who, "abort").await
    }

    /// Claims the win when the other seat has been without a connection for 60 s.
    pub async fn claim_win(&self, id: &str, who: super::Who<'_>) -> Res<wire::GameState> {
        self.end_by(id, who, "claim").await
    }

    /// Offers a rematch, or accepts the other's offer: a new game with the seats swapped.
    pub async fn rematch(&self, id: &str, who: super::Who<'_>) -> Res<RematchReply> {
        let arc = self.get(id).await?;
        let mut l = arc.lock().await;
        let seat = l.seat_of(who)?;
        if l.running() {
            return Err(Failure::Conflict(
                "the game is still being played: a rematch is offered once it is over".into(),
            ));
        }
        if l.online.tournament.is_some() {
            return Err(Failure::Conflict(
                "a tournament's game has no rematch: the tournament pairs its players".into(),
            ));
        }
        let (Some(p1), Some(p2), Some(clock)) = (
            l.online.players[0].clone(),
            l.online.players[1].clone(),
            l.online.clock,
        ) else {
            return Err(Failure::Conflict(
                "a rematch is for games between two players from the lobby".into(),
            ));
        };
        let new = random_id();
        let (store, key, n) = (self.store.clone(), id.to_string(), new.clone());
        let s = seat.index() as u8 + 1;
        let r = blocking(move || players::offer_rematch(&*store, &key, s, &n)).await?;
        let game = match r {
            Rematch::Offered => {
                l.online.rematch_offer = Some(s);
                None
            }
            Rematch::Made(g) => Some(g),
            Rematch::Agreed => {
                let (rules, options, rated) =
                    (l.meta.rules.clone(), l.meta.options.clone(), l.online.rated);
                self.create_between(
                    new.clone(),
                    &rules,
                    &options,
                    [p2, p1],
                    clock,
                    rated,
                    vec![],
                )
                .await?;
                Some(new)
            }
        };
        if let Some(g) = &game {
            l.online.rematch_game = Some(g.clone());
        }
        l.publish_update(l.events.len());
        Ok(RematchReply { game })
    }

    /// A seat's connection came or went: a seat gone from a running live game is marked
    /// away (the other may claim after 60 s); one back is marked present.
    pub(super) fn seat_presence(&self, l: &mut Live, slot: usize, connected: bool) {
        if !l.running() || l.online.players[slot].is_none() {
            return;
        }
        let since = (!connected).then(now_ms);
        if l.online.away[slot] == since || (connected && l.online.away[slot].is_none()) {
            return;
        }
        l.online.away[slot] = since;
        let (store, id) = (self.store.clone(), l.meta.id.clone());
        tokio::spawn(async move {
            let _ = blocking(move || players::set_away(&*store, &id, slot as u8 + 1, since)).await;
        });
        l.publish_update(l.events.len());
    }

    /// Starts the sweeper (once; needs a tokio runtime): every half second it ends games
    /// whose clock ran out, pairs waiting players, applies ratings not yet applied, and
    /// refreshes the lobby's list of games. Every server runs one; what it decides is
    /// written once (conditional updates), so two servers never both decide.
    pub fn start_sweeper(self: &Arc<Self>) {
        if self.lobby.sweeping.swap(true, Ordering::SeqCst) {
            return;
        }
        let weak = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_millis(500));
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let mut n: u64 = 0;
            loop {
                tick.tick().await;
                let Some(me) = weak.upgrade() else {
                    return;
                };
                if *me.stopping.borrow() {
                    // The server is stopping: what is left is decided by the servers that
                    // stay, or by this one when it is back.
                    return;
                }
                me.sweep(n).await;
                n += 1;
            }
        });
    }

    async fn sweep(&self, n: u64) {
        let store = self.store.clone();
        if let Ok(due) = blocking(move || players::due(&*store, now_ms())).await {
            for id in due {
                self.settle_clock(&id).await;
            }
        }
        if n.is_multiple_of(2) {
            let _ = self.pair_pool().await;
            // Tournaments (issue 57): started, paired and ended within a second.
            self.tournaments_tick().await;
        }
        if n % 4 == 1 {
            self.games_refresh().await;
            self.lobby_refresh().await;
        }
        if n % 20 == 7 {
            let store = self.store.clone();
            let before = now_ms() - SEEK_TTL_MS;
            if let Ok(k) = blocking(move || players::expire_seeks(&*store, before)).await {
                if k > 0 {
                    self.lobby_refresh().await;
                }
            }
        }
        if n % 1200 == 11 {
            // Every 10 minutes: idle sessions and anonymous players expire (issue 56).
            let store = self.store.clone();
            let _ = blocking(move || {
                moderation::expire(
                    &*store,
                    now(),
                    moderation::SESSION_IDLE_S,
                    moderation::ANONYMOUS_IDLE_S,
                )
            })
            .await;
        }
        if n % 10 == 3 {
            let store = self.store.clone();
            if let Ok(ids) = blocking(move || players::unrated_finished(&*store)).await {
                for id in ids {
                    self.rate_now(&id).await;
                }
            }
        }
    }

    // ---- moderation (issue 56) ----

    /// Files `p`'s report about the player named `req.player`.
    pub async fn report(&self, p: &PlayerRow, req: &wire::ReportRequest) -> Res<wire::ReportMade> {
        let reason = req.reason.trim().to_string();
        if reason.chars().count() < 3 || reason.chars().count() > moderation::REASON_MAX {
            return Err(Failure::Unprocessable(format!(
                "say what happened in 3 to {} characters",
                moderation::REASON_MAX
            )));
        }
        if reason.chars().any(|c| c.is_control() && c != '\n') {
            return Err(Failure::Unprocessable(
                "the reason may hold line breaks but no other control characters".into(),
            ));
        }
        let (store, id, me) = (self.store.clone(), random_id(), p.id.clone());
        let (name, game) = (req.player.clone(), req.game.clone());
        let r = blocking(move || {
            moderation::report(&*store, &id, &me, &name, game.as_deref(), &reason, now())
        })
        .await?;
        use moderation::ReportRefused as R;
        match r {
            Ok(id) => Ok(wire::ReportMade { id }),
            Err(R::NoSuchPlayer) => Err(Failure::NotFound(format!(
                "there is no player {:?}",
                req.player
            ))),
            Err(R::Themselves) => Err(Failure::Unprocessable(
                "you cannot report yourself".into(),
            )),
            Err(R::NotTheirGame) => Err(Failure::Unprocessable(format!(
                "{:?} did not play in game {:?}",
                req.player,
                req.game.as_deref().unwrap_or("")
            ))),
            Err(R::TooMany) => Err(Failure::Busy(format!(
                "you have filed {} reports in the last day, the most allowed: the operator will read them",
                moderation::REPORTS_PER_DAY
            ))),
        }
    }

    /// Deletes `p`'s account at their request: the name is replaced, the password,
    /// sessions and open seeks go, the games stay. An account's password must be given.
    pub async fn delete_me(&self, p: &PlayerRow, password: Option<&str>) -> Res<String> {
        if p.account {
            let Some(pw) = password else {
                return Err(Failure::Unauthorized(
                    "deleting an account needs its password: {\"password\": TEXT}".into(),
                ));
            };
            let (store, n) = (self.store.clone(), p.name.clone());
            let found = blocking(move || players::login_lookup(&*store, &n)).await?;
            let phc = found
                .and_then(|(_, h)| h)
                .unwrap_or_else(|| rules_of::dummy_hash().to_string());
            let pw = pw.to_string();
            let ok = tokio::task::spawn_blocking(move || rules_of::verify_password(&pw, &phc))
                .await
                .map_err(|e| Failure::Internal(e.to_string()))?;
            if !ok {
                return Err(Failure::Unauthorized("wrong password".into()));
            }
        }
        let (store, id) = (self.store.clone(), p.id.clone());
        let name = blocking(move || moderation::close(&*store, &id, now())).await?;
        self.forget_sessions_of(&p.id);
        self.lobby_refresh().await;
        name.ok_or_else(|| Failure::Conflict("this account was closed already".into()))
    }

    /// Everything stored about `p`, for them to download.
    pub async fn my_data(&self, p: &PlayerRow) -> Res<wire::MyData> {
        let page = self.page_of(&p.id, i64::MAX).await?;
        let (store, id) = (self.store.clone(), p.id.clone());
        let (sessions, reports, attempts, rating, tried) = blocking(move || {
            Ok((
                moderation::sessions_of(&*store, &id)?,
                moderation::reports_by(&*store, &id)?,
                crate::puzzles::attempts_of(&*store, &id)?,
                crate::puzzles::player_rating(&*store, &id)?,
                crate::puzzles::tried(&*store, &id)?,
            ))
        })
        .await?;
        let challenges = self.challenges(p).await?;
        let tournaments = self.tournaments_of(p).await?;
        Ok(wire::MyData {
            exported: now(),
            player: page,
            sessions: sessions
                .into_iter()
                .map(|s| wire::SessionOut {
                    created: s.created,
                    seen: s.seen,
                })
                .collect(),
            reports: reports
                .into_iter()
                .map(|r| wire::ReportOut {
                    id: r.id,
                    player: r.reported,
                    game: r.game,
                    reason: r.reason,
                    created: r.created,
                    resolved: r.resolved,
                })
                .collect(),
            puzzle_rating: wire::PuzzleRatingOut {
                rating: rating.rating.round() as i64,
                provisional: rating.provisional(),
                tried: tried.0,
                solved: tried.1,
            },
            puzzles: attempts
                .into_iter()
                .map(|(puzzle, solved, at)| wire::PuzzleAttemptOut { puzzle, solved, at })
                .collect(),
            challenges,
            tournaments,
            not_included: "session secrets and the password are stored only as hashes and are not exported; reports other players made about you are kept for the operator; game records are at /api/games/{id}/record".into(),
        })
    }

    // ---- player pages ----

    /// A player's page: ratings with history, recent games.
    pub async fn player_page(&self, name: &str) -> Res<PlayerPage> {
        self.page_of(name, 50).await
    }

    /// A player's page with at most `limit` games, by name or ID.
    async fn page_of(&self, name: &str, limit: i64) -> Res<PlayerPage> {
        let store = self.store.clone();
        let n = name.to_string();
        let page = blocking(move || {
            let p = match players::player_by_name(&*store, &n)? {
                Some(p) => p,
                None => match moderation::find(&*store, &n)? {
                    Some(f) if f.player.id == n => f.player,
                    _ => return Ok(None),
                },
            };
            let ratings = players::ratings_of(&*store, &p.id)?;
            let hist = players::history(&*store, &p.id)?;
            let games = players::player_games(&*store, &p.id, limit)?;
            let mut opp = Vec::new();
            for g in &games {
                let o = match &g.opponent {
                    Some(o) => players::names_ratings(&*store, std::slice::from_ref(o), &g.rules)?
                        .first()
                        .map(|(id, n, r)| player_ref(id, n, r)),
                    None => None,
                };
                opp.push(o);
            }
            Ok(Some((p, ratings, hist, games, opp)))
        })
        .await?;
        let Some((p, ratings, hist, games, opp)) = page else {
            return Err(Failure::NotFound(format!("there is no player {name:?}")));
        };
        Ok(PlayerPage {
            id: p.id,
            name: p.name,
            account: p.account,
            created: p.created,
            ratings: ratings
                .iter()
                .map(|(rules, r)| {
                    let mut o = rating_out(rules, r);
                    o.history = Some(
                        hist.iter()
                            .filter(|h| &h.rules == rules)
                            .map(|h| wire::HistoryOut {
                                at: h.at,
                                rating: h.rating.round() as i64,
                                rd: h.rd.round() as i64,
                                game: h.game.clone(),
                            })
                            .collect(),
                    );
                    o
                })
                .collect(),
            games: games
                .into_iter()
                .zip(opp)
                .map(|(g, opponent)| PlayerGameOut {
                    rules_name: rules_name(&g.rules),
                    result: match (&g.result, g.state.as_str(), g.winner) {
                        (Some(r), _, _) if r.reason == "abort" => "aborted",
                        (None, s, _) if s != "over" => "playing",
                        (_, _, Some(w)) if w == g.seat => "win",
                        (_, _, Some(_)) => "loss",
                        _ => "draw",
                    }
                    .into(),
                    reason: match (&g.result, g.state.as_str()) {
                        (Some(r), _) => Some(r.reason.clone()),
                        (None, "over") => Some("rules".into()),
                        _ => None,
                    },
                    delta: g.change.map(|c| c[g.seat as usize - 1]),
                    id: g.id,
                    rules: g.rules,
                    opponent,
                    seat: g.seat,
                    rated: g.rated,
                    ended: g.updated,
                })
                .collect(),
        })
    }

    /// The players with a settled rating in `rules`, best first.
    pub async fn leaderboard(&self, rules: &str) -> Res<Leaderboard> {
        let r: RuleSet = rules
            .parse()
            .map_err(|e: senet_rules::Error| Failure::NotFound(e.message().to_string()))?;
        let (store, id) = (self.store.clone(), r.id().to_string());
        let rows = blocking(move || players::leaderboard(&*store, &id, 100)).await?;
        Ok(Leaderboard {
            rules: r.id().into(),
            rules_name: r.name().into(),
            players: rows
                .iter()
                .enumerate()
                .map(|(i, (name, x))| LeaderRow {
                    rank: i + 1,
                    name: name.clone(),
                    rating: x.rating.round() as i64,
                    rd: x.rd.round() as i64,
                    games: x.games,
                })
                .collect(),
        })
    }
}
