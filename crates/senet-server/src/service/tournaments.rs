//! Tournaments (issue 57, `docs/tournaments.md`): made by a signed-in player, joined from
//! their page, run by every server's sweeper (started, paired, ended: each step written
//! once, see [`crate::tournaments::claim_wave`]), and shown live: every server sends a
//! tournament's whole state to its lobby's connections within a second of a change
//! (`LobbyMessage::Tournament`).

use super::{blocking, random_id, Failure, Res, Service};
use crate::online::{ClockSpec, ClockState};
use crate::players::{self, PlayerRow};
use crate::tournaments::{
    self as store_t, Entrant, Free, Joined, Kind, TGame, TournamentRow, WaveGame,
};
use crate::wire::{
    ByeOut, LobbyMessage, Paired, PlayerRef, SeekRequest, SheetOut, StandingOut, TournamentGameOut,
    TournamentList, TournamentOut, TournamentRequest, TournamentSummary,
};
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};

use super::online::now_ms;

/// Tournaments not yet over that one player may have made.
pub const MAX_OPEN_MADE: i64 = 3;

impl Service {
    /// `p` (signed in) makes a tournament.
    pub async fn create_tournament(
        &self,
        p: &PlayerRow,
        req: &TournamentRequest,
    ) -> Res<TournamentOut> {
        if !p.account {
            return Err(Failure::Forbidden(
                "sign in (make an account) to make a tournament".into(),
            ));
        }
        self.may_seek(p).await?;
        let kind = Kind::parse(&req.kind).ok_or_else(|| {
            Failure::Unprocessable(format!(
                "\"kind\" is arena, round-robin or swiss, not {:?}",
                req.kind
            ))
        })?;
        let (rules, options, clock) = Self::check_seek(&SeekRequest {
            rules: req.rules.clone(),
            options: req.options.clone(),
            rated: req.rated,
            clock: req.clock.clone(),
        })?;
        let (mut minutes, mut rounds) = (0, 0);
        match kind {
            Kind::Arena => {
                if matches!(clock, ClockSpec::Days(_)) {
                    return Err(Failure::Unprocessable(
                        "an arena's clock is minutes (and an increment), not days".into(),
                    ));
                }
                minutes = i64::from(req.minutes.ok_or_else(|| {
                    Failure::Unprocessable("an arena needs \"minutes\": its length".into())
                })?);
                if !(2..=720).contains(&minutes) {
                    return Err(Failure::Unprocessable(format!(
                        "an arena lasts 2 to 720 minutes, not {minutes}"
                    )));
                }
                if !req.invite.is_empty() || req.rounds.is_some() {
                    return Err(Failure::Unprocessable(
                        "an arena has no \"invite\" (anyone may join) and no \"rounds\"".into(),
                    ));
                }
            }
            Kind::RoundRobin | Kind::Swiss => {
                if req.minutes.is_some() {
                    return Err(Failure::Unprocessable(
                        "\"minutes\" is an arena's length: a round-robin or Swiss event has rounds"
                            .into(),
                    ));
                }
                let most = if kind == Kind::Swiss { 63 } else { 15 };
                if req.invite.is_empty() || req.invite.len() > most {
                    return Err(Failure::Unprocessable(format!(
                        "a {} invites 1 to {most} players by name",
                        kind.text()
                    )));
                }
                if kind == Kind::Swiss {
                    rounds = i64::from(req.rounds.ok_or_else(|| {
                        Failure::Unprocessable("a Swiss event needs \"rounds\"".into())
                    })?);
                    if !(1..=15).contains(&rounds) {
                        return Err(Failure::Unprocessable(format!(
                            "a Swiss event has 1 to 15 rounds, not {rounds}"
                        )));
                    }
                } else if req.rounds.is_some() {
                    return Err(Failure::Unprocessable(
                        "a round-robin's rounds follow from its players: no \"rounds\"".into(),
                    ));
                }
            }
        }
        let starts_in = i64::from(req.starts_in.unwrap_or(60));
        if starts_in > 604_800 {
            return Err(Failure::Unprocessable(
                "\"starts_in\" is 0 to 604800 seconds (a week)".into(),
            ));
        }
        let name = match req.name.as_deref().map(str::trim) {
            Some(n) if !n.is_empty() => {
                if n.chars().count() > 60 || n.chars().any(char::is_control) {
                    return Err(Failure::Unprocessable(
                        "a tournament's name is 1 to 60 characters, with no control characters"
                            .into(),
                    ));
                }
                n.to_string()
            }
            _ => format!(
                "{}'s {} ({})",
                p.name,
                match kind {
                    Kind::Arena => "arena",
                    Kind::RoundRobin => "round-robin",
                    Kind::Swiss => "Swiss",
                },
                super::online::rules_name(rules.id())
            ),
        };
        let mut invited = Vec::new();
        for n in &req.invite {
            let (store, name) = (self.store.clone(), n.clone());
            let Some(to) = blocking(move || players::player_by_name(&*store, &name)).await? else {
                return Err(Failure::NotFound(format!("there is no player named {n:?}")));
            };
            if to.id == p.id {
                return Err(Failure::Unprocessable(
                    "you play your own tournament: do not invite yourself".into(),
                ));
            }
            if invited.contains(&to.id) {
                return Err(Failure::Unprocessable(format!("{n:?} is invited twice")));
            }
            invited.push(to.id);
        }
        let (store, me) = (self.store.clone(), p.id.clone());
        if blocking(move || store_t::open_made_by(&*store, &me)).await? >= MAX_OPEN_MADE {
            return Err(Failure::Conflict(format!(
                "you have {MAX_OPEN_MADE} tournaments not yet over, the most allowed"
            )));
        }
        let now = now_ms();
        let t = TournamentRow {
            id: random_id(),
            name,
            kind,
            creator: p.id.clone(),
            rules: rules.id().into(),
            options,
            clock,
            rated: req.rated,
            minutes,
            rounds,
            starts: now + starts_in * 1000,
            state: "created".into(),
            round: 0,
            created: now / 1000,
        };
        let (store, row) = (self.store.clone(), t.clone());
        blocking(move || store_t::create(&*store, &row, &invited, now)).await?;
        let out = self.tournament(&t.id).await?;
        self.tournament_changed(&out);
        Ok(out)
    }

    /// Tournaments to see and join, with `p`'s invitations.
    pub async fn tournaments(&self, p: Option<&PlayerRow>) -> Res<TournamentList> {
        let store = self.store.clone();
        let rows = blocking(move || store_t::list(&*store, 20)).await?;
        let mut tournaments = Vec::new();
        for t in &rows {
            tournaments.push(self.summary_of(t).await?);
        }
        let mut invitations = Vec::new();
        if let Some(p) = p {
            let (store, me) = (self.store.clone(), p.id.clone());
            for t in blocking(move || store_t::invitations(&*store, &me)).await? {
                invitations.push(self.summary_of(&t).await?);
            }
        }
        Ok(TournamentList {
            tournaments,
            invitations,
        })
    }

    /// The tournaments `p` made or plays in, latest first (their data export).
    pub(super) async fn tournaments_of(&self, p: &PlayerRow) -> Res<Vec<TournamentSummary>> {
        let (store, me) = (self.store.clone(), p.id.clone());
        let mut out = Vec::new();
        for t in blocking(move || store_t::of_player(&*store, &me)).await? {
            out.push(self.summary_of(&t).await?);
        }
        Ok(out)
    }

    /// Tournament `id`'s players, games and byes.
    async fn contents(&self, id: &str) -> Res<(Vec<Entrant>, Vec<TGame>, Vec<(i64, String)>)> {
        let (store, key) = (self.store.clone(), id.to_string());
        blocking(move || {
            Ok((
                store_t::entrants(&*store, &key)?,
                store_t::games(&*store, &key)?,
                store_t::byes(&*store, &key)?,
            ))
        })
        .await
    }

    async fn row_of(&self, id: &str) -> Res<TournamentRow> {
        let (store, key) = (self.store.clone(), id.to_string());
        blocking(move || store_t::get(&*store, &key))
            .await?
            .ok_or_else(|| Failure::NotFound(format!("there is no tournament {id:?}")))
    }

    async fn summary_of(&self, t: &TournamentRow) -> Res<TournamentSummary> {
        let (store, key) = (self.store.clone(), t.id.clone());
        let entrants = blocking(move || store_t::entrants(&*store, &key)).await?;
        let (store, key) = (self.store.clone(), t.id.clone());
        let running = t.kind == Kind::Arena && t.state == "running" && {
            let games = blocking(move || store_t::games(&*store, &key)).await?;
            games.iter().any(|g| !g.over)
        };
        let (store, ids, rules) = (self.store.clone(), vec![t.creator.clone()], t.rules.clone());
        let creator = blocking(move || players::names_ratings(&*store, &ids, &rules))
            .await?
            .pop()
            .map_or_else(|| "(deleted player)".to_string(), |(_, n, _)| n);
        Ok(summary(
            t,
            &creator,
            store_t::joined(&entrants).len() as u32,
            running,
            now_ms(),
        ))
    }

    /// Tournament `id`: settings, standings, games.
    pub async fn tournament(&self, id: &str) -> Res<TournamentOut> {
        let t = self.row_of(id).await?;
        let (entrants, games, byes) = self.contents(&t.id).await?;
        let mut ids: Vec<String> = entrants.iter().map(|e| e.player.clone()).collect();
        for g in &games {
            for p in &g.players {
                if !ids.contains(p) {
                    ids.push(p.clone());
                }
            }
        }
        if !ids.contains(&t.creator) {
            ids.push(t.creator.clone());
        }
        let (store, rules) = (self.store.clone(), t.rules.clone());
        let refs: HashMap<String, PlayerRef> =
            blocking(move || players::names_ratings(&*store, &ids, &rules))
                .await?
                .into_iter()
                .map(|(i, n, r)| (i.clone(), super::online::player_ref(&i, &n, &r)))
                .collect();
        let gone = |id: &str| PlayerRef {
            id: id.to_string(),
            name: "(deleted player)".into(),
            rating: None,
            provisional: false,
        };
        let r = |id: &str| refs.get(id).cloned().unwrap_or_else(|| gone(id));
        let joined = store_t::joined(&entrants);
        let active: HashSet<&str> = entrants
            .iter()
            .filter(|e| e.active)
            .map(|e| e.player.as_str())
            .collect();
        let per = t.kind.per_point();
        let standings = store_t::standings(t.kind, &joined, &games, &byes)
            .into_iter()
            .enumerate()
            .map(|(i, s)| {
                let (wins, draws, losses) = s.record();
                StandingOut {
                    rank: i as u32 + 1,
                    player: r(&s.player),
                    score: s.units as f64 / per,
                    tiebreak: s.tiebreak as f64 / per,
                    games: (wins + draws + losses) as u32,
                    wins: wins as u32,
                    draws: draws as u32,
                    losses: losses as u32,
                    sheet: s
                        .sheet
                        .iter()
                        .map(|l| SheetOut {
                            game: l.game.clone(),
                            result: l.result.into(),
                            points: l.units as f64 / per,
                            doubled: l.doubled,
                        })
                        .collect(),
                    fire: s.fire,
                    active: active.contains(s.player.as_str()),
                    playing: s.playing,
                }
            })
            .collect();
        let mut games_out: Vec<TournamentGameOut> = games
            .iter()
            .map(|g| TournamentGameOut {
                id: g.id.clone(),
                round: g.round as u32,
                players: [r(&g.players[0]), r(&g.players[1])],
                over: g.over,
                winner: g.winner,
                aborted: g.aborted,
            })
            .collect();
        games_out.reverse();
        let under_way = games.iter().any(|g| !g.over);
        Ok(TournamentOut {
            info: summary(
                &t,
                &r(&t.creator).name,
                joined.len() as u32,
                under_way,
                now_ms(),
            ),
            now: now_ms(),
            standings,
            invited: entrants
                .iter()
                .filter(|e| e.joined.is_none())
                .map(|e| r(&e.player))
                .collect(),
            games: games_out,
            byes: byes
                .iter()
                .map(|(round, p)| ByeOut {
                    round: *round as u32,
                    player: r(p),
                })
                .collect(),
        })
    }

    /// `p` joins tournament `id` (or accepts its invitation, or comes back to an arena).
    pub async fn join_tournament(&self, p: &PlayerRow, id: &str) -> Res<TournamentOut> {
        self.may_seek(p).await?;
        let (store, key, me) = (self.store.clone(), id.to_string(), p.id.clone());
        match blocking(move || store_t::join(&*store, &key, &me, now_ms())).await? {
            Joined::Yes => {}
            Joined::Missing => {
                return Err(Failure::NotFound(format!("there is no tournament {id:?}")))
            }
            Joined::Refused(why) => return Err(Failure::Conflict(why)),
        }
        let out = self.tournament(id).await?;
        self.tournament_changed(&out);
        Ok(out)
    }

    /// `p` leaves tournament `id`: pauses in an arena, declines an invitation, withdraws
    /// from a round-robin or Swiss event under way.
    pub async fn leave_tournament(&self, p: &PlayerRow, id: &str) -> Res<TournamentOut> {
        let t = self.row_of(id).await?;
        if t.creator == p.id && t.kind != Kind::Arena && t.state == "created" {
            return Err(Failure::Conflict(
                "you made this tournament: you play in it (it is cancelled at the start if nobody accepts)"
                    .into(),
            ));
        }
        let (store, key, me) = (self.store.clone(), id.to_string(), p.id.clone());
        if !blocking(move || store_t::leave(&*store, &key, &me)).await? {
            return Err(Failure::NotFound(format!(
                "you are not a player of the tournament {id:?}"
            )));
        }
        let out = self.tournament(id).await?;
        self.tournament_changed(&out);
        Ok(out)
    }

    /// The creator starts tournament `id` now rather than at its time.
    pub async fn start_tournament(&self, p: &PlayerRow, id: &str) -> Res<TournamentOut> {
        let t = self.row_of(id).await?;
        if t.creator != p.id {
            return Err(Failure::Forbidden(
                "only the tournament's creator may start it early".into(),
            ));
        }
        if t.state != "created" {
            return Err(Failure::Conflict(
                "the tournament has started already".into(),
            ));
        }
        let (store, key) = (self.store.clone(), id.to_string());
        // Starting is the sweeper's: bring the time forward, and step it now.
        blocking(move || store_t::start_at(&*store, &key, now_ms())).await?;
        let t = self.row_of(id).await?;
        self.tournament_step(&t).await?;
        let out = self.tournament(id).await?;
        self.tournament_changed(&out);
        Ok(out)
    }

    /// The sweeper's work on every tournament not over: start, pair, end; then each one's
    /// state to this server's lobby when it changed.
    pub(super) async fn tournaments_tick(&self) {
        let store = self.store.clone();
        let Ok(rows) = blocking(move || store_t::list(&*store, 0)).await else {
            return;
        };
        let now = now_ms();
        for t in rows {
            let _ = self.tournament_step(&t).await;
            // A running tournament's games end without a notice of it; one not started
            // changes only by a request (told at once) or by starting now.
            if t.state == "running" || now >= t.starts {
                if let Ok(out) = self.tournament(&t.id).await {
                    self.tournament_changed(&out);
                }
            }
        }
    }

    /// Another server changed tournament `id`: its state to this server's lobby.
    pub(super) async fn tournament_note(&self, id: &str) {
        if let Ok(out) = self.tournament(id).await {
            self.tournament_changed(&out);
        }
    }

    /// Sends `out` to the lobby's connections, unless it is what was sent last.
    fn tournament_changed(&self, out: &TournamentOut) {
        let msg = LobbyMessage::Tournament {
            tournament: Box::new(out.clone()),
        };
        let Ok(text) = serde_json::to_string(&msg) else {
            return;
        };
        // The server's time changes every message: leave it out of the comparison.
        let mut h = std::collections::hash_map::DefaultHasher::new();
        let key = serde_json::to_string(&(&out.info, &out.standings, &out.games, &out.invited))
            .unwrap_or_default();
        key.hash(&mut h);
        let print = h.finish();
        if self.lobby_tournament_sent(&out.info.id, print) {
            self.lobby_send_text(text);
        }
    }

    /// One step of tournament `t`: start it, pair it, or end it, as its time and games say.
    async fn tournament_step(&self, t: &TournamentRow) -> Res<()> {
        let now = now_ms();
        let (entrants, games, byes) = self.contents(&t.id).await?;
        let joined = store_t::joined(&entrants);
        let active: HashSet<&str> = entrants
            .iter()
            .filter(|e| e.active && e.joined.is_some())
            .map(|e| e.player.as_str())
            .collect();
        let under_way = games.iter().any(|g| !g.over);
        match (t.state.as_str(), t.kind) {
            ("created", _) if now >= t.starts => {
                let (to, rounds) = match t.kind {
                    Kind::Arena => ("running", None),
                    _ if joined.len() < 2 => ("cancelled", None),
                    Kind::RoundRobin => ("running", Some(store_t::rounds_of(joined.len()))),
                    Kind::Swiss => ("running", None),
                };
                let (store, key) = (self.store.clone(), t.id.clone());
                blocking(move || store_t::set_state(&*store, &key, "created", to, rounds)).await?;
            }
            ("running", Kind::Arena) => {
                let ends = t.ends().unwrap_or(i64::MAX);
                if now >= ends {
                    if !under_way {
                        let (store, key) = (self.store.clone(), t.id.clone());
                        blocking(move || {
                            store_t::set_state(&*store, &key, "running", "over", None)
                        })
                        .await?;
                    }
                    return Ok(());
                }
                let standings = store_t::standings(t.kind, &joined, &games, &byes);
                let units: HashMap<&str, i64> = standings
                    .iter()
                    .map(|s| (s.player.as_str(), s.units))
                    .collect();
                let busy: HashSet<&str> = games
                    .iter()
                    .filter(|g| !g.over)
                    .flat_map(|g| g.players.iter().map(String::as_str))
                    .collect();
                let free: Vec<Free> = entrants
                    .iter()
                    .filter(|e| e.active && !busy.contains(e.player.as_str()))
                    .map(|e| {
                        let last = last_game(&games, &e.player);
                        Free {
                            player: e.player.clone(),
                            units: units.get(e.player.as_str()).copied().unwrap_or(0),
                            last: last.map(|(g, seat)| g.players[1 - seat].clone()),
                            since: last
                                .map(|(g, _)| g.updated * 1000)
                                .unwrap_or(e.joined.unwrap_or(0)),
                        }
                    })
                    .collect();
                let pairs = store_t::arena_pairs(&free, now)
                    .into_iter()
                    .map(|[a, b]| {
                        if rand::random::<bool>() {
                            [a, b]
                        } else {
                            [b, a]
                        }
                    })
                    .collect::<Vec<_>>();
                if !pairs.is_empty() {
                    self.make_wave(t, pairs, Vec::new()).await?;
                }
            }
            ("running", Kind::RoundRobin | Kind::Swiss) => {
                if games.iter().any(|g| g.round == t.round && !g.over) {
                    return Ok(());
                }
                if t.round >= t.rounds {
                    let (store, key) = (self.store.clone(), t.id.clone());
                    blocking(move || store_t::set_state(&*store, &key, "running", "over", None))
                        .await?;
                    return Ok(());
                }
                let (pairs, byes_now) = if t.kind == Kind::RoundRobin {
                    let (pairs, bye) = store_t::round_robin(&joined, t.round as usize);
                    // A withdrawn player's opponent takes a bye instead of a game.
                    let mut byes_now: Vec<String> = bye
                        .into_iter()
                        .filter(|p| active.contains(p.as_str()))
                        .collect();
                    let mut kept = Vec::new();
                    for [a, b] in pairs {
                        match (active.contains(a.as_str()), active.contains(b.as_str())) {
                            (true, true) => kept.push([a, b]),
                            (true, false) => byes_now.push(a),
                            (false, true) => byes_now.push(b),
                            (false, false) => {}
                        }
                    }
                    (kept, byes_now)
                } else {
                    let ranked: Vec<String> = store_t::standings(t.kind, &joined, &games, &byes)
                        .into_iter()
                        .map(|s| s.player)
                        .filter(|p| active.contains(p.as_str()))
                        .collect();
                    let met: HashSet<(String, String)> = games
                        .iter()
                        .map(|g| (g.players[0].clone(), g.players[1].clone()))
                        .collect();
                    let had: HashSet<String> = byes.iter().map(|(_, p)| p.clone()).collect();
                    let (pairs, bye) = store_t::swiss_round(&ranked, &met, &had);
                    let pairs = pairs
                        .into_iter()
                        .map(|[a, b]| {
                            // Seats: whoever had the first seat less often takes it.
                            let firsts =
                                |p: &str| games.iter().filter(|g| g.players[0] == p).count();
                            if firsts(&b) < firsts(&a) {
                                [b, a]
                            } else {
                                [a, b]
                            }
                        })
                        .collect();
                    (pairs, bye.into_iter().collect())
                };
                self.make_wave(t, pairs, byes_now).await?;
            }
            _ => {}
        }
        Ok(())
    }

    /// Makes the games of `t`'s next wave and claims it (see
    /// [`crate::tournaments::claim_wave`]); sends the players to their games when this
    /// server's claim won.
    async fn make_wave(
        &self,
        t: &TournamentRow,
        pairs: Vec<[String; 2]>,
        byes: Vec<String>,
    ) -> Res<()> {
        let mut made = Vec::new();
        for players in pairs {
            let id = random_id();
            let first = self.new_online_game(&id, &t.rules, &t.options).await?;
            made.push(WaveGame {
                id,
                players,
                clock: (t.clock, ClockState::start(t.clock, first, now_ms())),
            });
        }
        let (store, key, seen, games, rated) = (
            self.store.clone(),
            t.id.clone(),
            t.round,
            made.clone(),
            t.rated,
        );
        let won = blocking(move || store_t::claim_wave(&*store, &key, seen, &games, &byes, rated))
            .await?;
        if !won {
            for g in made {
                let (store, id) = (self.store.clone(), g.id);
                blocking(move || players::delete_game(&*store, &id)).await?;
            }
            return Ok(());
        }
        for g in &made {
            self.lobby_send(&LobbyMessage::Paired {
                game: g.id.clone(),
                players: g.players.clone(),
            });
        }
        Ok(())
    }

    /// `p`'s game under way in tournament `id`, if any, as a pairing.
    pub async fn tournament_game(&self, p: &PlayerRow, id: &str) -> Res<Option<Paired>> {
        let (store, key) = (self.store.clone(), id.to_string());
        let games = blocking(move || store_t::games(&*store, &key)).await?;
        Ok(games
            .iter()
            .find(|g| !g.over && g.players.contains(&p.id))
            .map(|g| Paired {
                game: g.id.clone(),
                seat: if g.players[0] == p.id { 1 } else { 2 },
            }))
    }
}

/// `player`'s last finished game in `games` (wave order) and their seat in it (0 or 1).
fn last_game<'a>(games: &'a [TGame], player: &str) -> Option<(&'a TGame, usize)> {
    games
        .iter()
        .rev()
        .filter(|g| g.over)
        .find_map(|g| g.players.iter().position(|p| p == player).map(|s| (g, s)))
}

/// A tournament as listed; `under_way`: it has games not finished.
fn summary(
    t: &TournamentRow,
    creator: &str,
    players: u32,
    under_way: bool,
    now: i64,
) -> TournamentSummary {
    let state = match t.state.as_str() {
        "running" if t.ends().is_some_and(|e| now >= e) && under_way => "finishing",
        s => s,
    };
    TournamentSummary {
        id: t.id.clone(),
        name: t.name.clone(),
        kind: t.kind.text().into(),
        creator: creator.into(),
        rules: t.rules.clone(),
        rules_name: super::online::rules_name(&t.rules),
        options: t.options.clone(),
        rated: t.rated,
        clock: t.clock.to_json(),
        minutes: (t.kind == Kind::Arena).then_some(t.minutes as u32),
        rounds: t.rounds as u32,
        round: t.round as u32,
        starts: t.starts,
        ends: t.ends(),
        state: state.into(),
        players,
    }
}
