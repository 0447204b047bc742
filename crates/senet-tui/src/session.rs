//! A game being played: the position, its record, who sits where, the seeded throws, undo and
//! hints. Shared by the full-screen UI and the plain line mode; it knows no rule, only the
//! `Game` API.

use rand::{RngCore, SeedableRng};
use rand_pcg::Pcg64Mcg;
use senet_bots::play as opponent;
use senet_rules::series::{self, Series, Starts, Target};
use senet_rules::{
    AnyGame, BoardView, Effect, Effects, Error, Event, Game, Move, MoveList, Player, Record,
    RuleSet, Status, Throw, ThrowKind,
};
use senet_rules::{Notation, View};
use std::fmt;

/// Who plays a side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person at this terminal.
    Human,
    /// A bot, by level or name.
    Bot(String),
}

impl Seat {
    /// `human`, a level or a bot name.
    pub fn parse(s: &str) -> Result<Seat, String> {
        if s == "human" {
            Ok(Seat::Human)
        } else {
            opponent::check(s)?;
            Ok(Seat::Bot(s.to_string()))
        }
    }

    /// Whether a bot plays this side.
    pub fn is_bot(&self) -> bool {
        matches!(self, Seat::Bot(_))
    }
}

pub use senet_bots::play::Hint;

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seat::Human => f.write_str("human"),
            Seat::Bot(b) => f.write_str(b),
        }
    }
}

/// What a game is started from: rule set, options, seats and seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The rule set.
    pub rules: RuleSet,
    /// Options as `NAME=VALUE`.
    pub options: Vec<String>,
    /// Who plays the first and the second side.
    pub seats: [Seat; 2],
    /// The seed of the throws and the bots.
    pub seed: u64,
}

impl Setup {
    /// The same settings with the next seed, for another game.
    pub fn next(&self) -> Setup {
        Setup {
            seed: self.seed.wrapping_add(1),
            ..self.clone()
        }
    }
}

/// A seed from the clock, for games started without `--seed`: below a million, so that it
/// is easy to note and quote.
pub fn clock_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    mix(t, std::process::id() as u64) % 1_000_000
}

/// SplitMix64 of `a` and `b`: independent seeds for independent uses of one game seed.
pub use senet_rules::seed::mix;

/// One line of the move list: a throw and the decisions played on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    /// Who threw.
    pub player: Player,
    /// The throw as written in records.
    pub throw: String,
    /// The move strings played on it, in order.
    pub moves: Vec<String>,
}

/// A game in progress (or finished).
#[derive(Clone, Debug)]
pub struct Session {
    seats: [Seat; 2],
    game: AnyGame,
    record: Record,
    /// Who acted at each event of the record.
    actors: Vec<Player>,
    rng: Pcg64Mcg,
    seed: u64,
    /// Positions before each human decision (with its event count), for undo against bots.
    undo: Vec<(AnyGame, usize)>,
    kinds: [String; 2],
}

impl Session {
    /// A new game.
    pub fn new(setup: &Setup) -> Result<Session, Error> {
        let start = AnyGame::new(setup.rules, &setup.options)?;
        Ok(Session::from_parts(
            start,
            Record::new(&start, Some(setup.seed)),
            vec![],
            setup.seats.clone(),
            setup.seed,
            0,
        ))
    }

    /// Resumes a recorded game where it stopped. Throws go on from `seed` (or the record's),
    /// mixed with the number of events so that a resumed game does not repeat its opening
    /// throws.
    pub fn resume(record: Record, seats: [Seat; 2], seed: Option<u64>) -> Result<Session, Error> {
        let replay = record.replay()?;
        let actors = actors_of(&record, &replay.start);
        let seed = seed.or(record.seed).unwrap_or_else(clock_seed);
        let n = record.events.len() as u64;
        Ok(Session::from_parts(
            replay.end, record, actors, seats, seed, n,
        ))
    }

    fn from_parts(
        game: AnyGame,
        record: Record,
        actors: Vec<Player>,
        seats: [Seat; 2],
        seed: u64,
        stream: u64,
    ) -> Session {
        let start = record.start_position().unwrap_or(game);
        Session {
            seats,
            game,
            record,
            actors,
            rng: Pcg64Mcg::seed_from_u64(if stream == 0 { seed } else { mix(seed, stream) }),
            seed,
            undo: Vec::new(),
            kinds: kinds_of(&start.view()),
        }
    }

    /// The current position.
    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    /// The record so far (with its result once the game is over).
    pub fn record(&self) -> &Record {
        &self.record
    }

    /// The seed of this game's throws.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Who plays each side.
    pub fn seats(&self) -> &[Seat; 2] {
        &self.seats
    }

    /// Where the game stands.
    pub fn status(&self) -> Status {
        self.game.status()
    }

    /// The board as drawn.
    pub fn view(&self) -> BoardView {
        self.game.view()
    }

    /// The piece letters of a player, e.g. `X`, or `L M S` for sized pieces.
    pub fn kinds(&self, p: Player) -> &str {
        &self.kinds[p.index()]
    }

    /// The player to throw or move, and their seat.
    pub fn to_act(&self) -> Option<(Player, &Seat)> {
        self.status().player().map(|p| (p, &self.seats[p.index()]))
    }

    /// Whether the game's throws are made with dice rather than sticks (what senet-rules
    /// says of its throws: [`ThrowKind`]).
    pub fn throws_dice(&self) -> bool {
        matches!(
            self.game.throw_dist().kind,
            ThrowKind::Die | ThrowKind::Dice
        )
    }

    /// Whether a bot is to throw or move.
    pub fn bot_to_act(&self) -> bool {
        self.to_act().is_some_and(|(_, s)| s.is_bot())
    }

    /// Whether exactly one side is a bot and the other a person.
    pub fn against_bot(&self) -> bool {
        self.seats[0].is_bot() != self.seats[1].is_bot()
    }

    /// Whether nobody at the terminal plays (two bots).
    pub fn watching(&self) -> bool {
        self.seats[0].is_bot() && self.seats[1].is_bot()
    }

    /// How to call a player in messages: `you`, `player 1 (X)` or `casual (O)`.
    pub fn name(&self, p: Player) -> String {
        let k = self.kinds(p);
        match &self.seats[p.index()] {
            Seat::Human if self.against_bot() => "you".into(),
            Seat::Human => format!("player {p} ({k})"),
            Seat::Bot(b) => format!("{b} ({k})"),
        }
    }

    /// Draws the pending throw from the seeded stream and sets it.
    pub fn throw(&mut self) -> Result<Throw, Error> {
        match self.status() {
            Status::Throw(_) => {
                let t = self.game.throw_dist().sample(self.rng.next_u32());
                self.set_throw(t)
            }
            Status::Move(_) => Err(Error::Throw(format!(
                "the throw in hand is {}: play a move first",
                self.game.in_hand().map_or("-".into(), |t| t.to_string())
            ))),
            Status::Over(_) => Err(Error::GameOver),
        }
    }

    /// Sets the pending throw to `t` (thrown with real sticks or dice), checking it.
    pub fn set_throw(&mut self, t: Throw) -> Result<Throw, Error> {
        let p = self.status().player();
        self.game.set_throw(t)?;
        self.record.push_throw(t);
        self.actors.push(p.unwrap_or(Player::First));
        Ok(t)
    }

    /// The legal moves in board order (by starting square, then destination).
    pub fn legal(&self) -> Vec<Move> {
        let mut ms = MoveList::new();
        self.game.legal_moves(&mut ms);
        let mut v: Vec<Move> = ms.to_vec();
        v.sort();
        v
    }

    /// The move string of a legal move.
    pub fn move_string(&self, m: Move) -> String {
        self.game.move_string(m)
    }

    /// The legal move a person means by `text`: a move string, or the square a single legal
    /// move starts from. Explains what would be right otherwise.
    pub fn find(&self, text: &str) -> Result<Move, String> {
        let t = text.trim();
        if let Ok(m) = self.game.parse_move(t) {
            return Ok(m);
        }
        let legal = self.legal();
        let from: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| !m.is_pass() && self.game.square_name(m.from).eq_ignore_ascii_case(t))
            .collect();
        match from.len() {
            1 => Ok(from[0]),
            0 => Err(self.game.why_illegal(t)),
            _ => {
                let list: Vec<String> = from.iter().map(|&m| self.move_string(m)).collect();
                Err(format!(
                    "several moves start on {t}: {}; type the whole move",
                    list.join(", ")
                ))
            }
        }
    }

    /// Plays a legal move; returns what it did. A person's decision against a bot can be
    /// taken back with [`Session::undo`].
    pub fn play(&mut self, m: Move) -> Result<Effects, Error> {
        let Some((p, seat)) = self.to_act() else {
            return Err(Error::GameOver);
        };
        let human = *seat == Seat::Human;
        let before = self.game;
        let text = self.game.move_string(m);
        let e = self.game.play(m)?;
        if human && self.against_bot() {
            self.undo.push((before, self.record.events.len()));
        }
        self.record.push_move(text);
        self.actors.push(p);
        self.record.finish(&self.game);
        Ok(e)
    }

    /// Parses and plays a move string.
    pub fn play_str(&mut self, text: &str) -> Result<(Move, Effects), Error> {
        let m = self.game.parse_move(text)?;
        Ok((m, self.play(m)?))
    }

    /// The seed a bot uses for the current decision.
    fn decision_seed(&self, salt: u64) -> u64 {
        mix(mix(self.seed, self.record.events.len() as u64), salt)
    }

    /// The move of the bot to act.
    pub fn bot_choice(&self) -> Result<Move, String> {
        match self.to_act() {
            Some((_, Seat::Bot(b))) if matches!(self.status(), Status::Move(_)) => {
                opponent::choose(b, &self.game, self.decision_seed(1)).map(|(m, _)| m)
            }
            _ => Err("no bot is to move".into()),
        }
    }

    /// The hint bot's move and every legal move's win chance for the mover.
    pub fn hint(&self) -> Result<Hint, String> {
        if !matches!(self.status(), Status::Move(_)) {
            return Err("a hint is given once you have thrown".into());
        }
        opponent::hint(&self.game, self.decision_seed(2))
    }

    /// The analysis of the game so far (issue 19), at the rule set's default depth: every
    /// decision's win chance and loss, every throw's luck, and a summary per player.
    pub fn analysis(&self) -> Result<senet_bots::analysis::Analysis, Error> {
        let opt = senet_bots::analysis::Options::for_rules(self.game.rules());
        senet_bots::analysis::analyze(&self.record, &opt, &mut |_, _| {})
    }

    /// Whether [`Session::undo`] would do something, or why not.
    pub fn can_undo(&self) -> Result<(), String> {
        if !self.against_bot() {
            return Err("undo is for games against a bot".into());
        }
        if self.undo.is_empty() {
            return Err("there is no decision of yours to take back".into());
        }
        Ok(())
    }

    /// Takes back the person's last decision (and everything after it): the position returns
    /// to that decision with the same throw in hand. Throws drawn later do not come back.
    pub fn undo(&mut self) -> Result<(), String> {
        self.can_undo()?;
        let (g, n) = self.undo.pop().expect("checked");
        self.game = g;
        self.record.events.truncate(n);
        self.actors.truncate(n);
        self.record.result = None;
        Ok(())
    }

    /// Writes the record (the project's record format) to `path`.
    pub fn save(&self, path: &str) -> Result<(), String> {
        let mut text = self.record.to_json();
        text.push('\n');
        std::fs::write(path, text).map_err(|e| format!("cannot write {path}: {e}"))
    }

    /// The throws and moves so far, one entry per throw.
    pub fn turns(&self) -> Vec<Turn> {
        let mut out: Vec<Turn> = Vec::new();
        for (e, &p) in self.record.events.iter().zip(&self.actors) {
            match e {
                Event::Throw { throw } => out.push(Turn {
                    player: p,
                    throw: throw.clone(),
                    moves: vec![],
                }),
                Event::Move { mv } => match out.last_mut() {
                    Some(t) => t.moves.push(mv.clone()),
                    None => out.push(Turn {
                        player: p,
                        throw: "-".into(),
                        moves: vec![mv.clone()],
                    }),
                },
            }
        }
        out
    }

    /// The sentence announcing a throw (and a forfeit when it leaves no legal move).
    pub fn announce_throw(&self, p: Player, t: Throw) -> String {
        let mut s = format!("{} threw {t}", capital(&self.name(p)));
        match self.status() {
            Status::Move(_) => {
                let ms = self.legal();
                if ms.len() == 1 && ms[0].is_pass() {
                    s.push_str(": no legal move, the throw is forfeited");
                }
            }
            // The rule set settled the throw itself (nothing to decide, e.g. a throw for
            // who starts): say who throws next.
            Status::Throw(q) if q == p => s.push_str(", and throws again"),
            Status::Throw(q) => s.push_str(&format!("; {} throws next", self.name(q))),
            Status::Over(_) => {}
        }
        s
    }

    /// The sentence announcing a move: who, what, and what it did.
    pub fn announce_move(&self, p: Player, text: &str, e: Effects) -> String {
        let who = capital(&self.name(p));
        let mut s = if text == "pass" {
            format!("{who} passed (forfeit)")
        } else {
            let kinds: Vec<&str> = e
                .names()
                .into_iter()
                .filter(|k| *k != "step" && *k != "bonus throw")
                .collect();
            let mut s = format!("{who} played {text}");
            if !kinds.is_empty() {
                s.push_str(&format!(": {}", kinds.join(", ")));
            }
            s
        };
        if e.has(Effect::BONUS) {
            s.push_str(" — bonus throw");
        } else if e.turn_continues {
            s.push_str(" — moves again");
        }
        s
    }

    /// The result in words, once the game is over.
    pub fn result_text(&self) -> Option<String> {
        let Status::Over(o) = self.status() else {
            return None;
        };
        let mut s = match o.winner {
            Some(p) if self.against_bot() && self.seats[p.index()] == Seat::Human => {
                "You win!".to_string()
            }
            Some(p) if self.against_bot() => format!("{} wins.", capital(&self.name(p))),
            Some(p) => format!("{} wins!", capital(&self.name(p))),
            None => "Draw.".into(),
        };
        if o.capped {
            s.push_str(" The turn cap ended the game.");
        }
        if let Some([a, b]) = o.score {
            s.push_str(&format!(" Score {a}-{b}."));
        }
        let decisions = self.game.decisions();
        s.push_str(&format!(" {decisions} moves."));
        Some(s)
    }
}

/// Who acted at each event of a record (which must replay).
fn actors_of(record: &Record, start: &AnyGame) -> Vec<Player> {
    let mut g = *start;
    let mut out = Vec::with_capacity(record.events.len());
    for e in &record.events {
        let p = g.status().player().unwrap_or(Player::First);
        out.push(p);
        match e {
            Event::Throw { throw } => {
                if let Ok(t) = Throw::parse(throw) {
                    let _ = g.set_throw(t);
                }
            }
            Event::Move { mv } => {
                if let Ok(m) = g.parse_move(mv) {
                    g.play_unchecked(m);
                }
            }
        }
    }
    out
}

/// The distinct piece letters of each player on a board, in order of appearance.
pub fn kinds_of(v: &BoardView) -> [String; 2] {
    let mut ks: [Vec<char>; 2] = [vec![], vec![]];
    for c in &v.cells {
        for p in &c.pieces {
            let i = (p.player as usize).clamp(1, 2) - 1;
            if !ks[i].contains(&p.kind) {
                ks[i].push(p.kind);
            }
        }
    }
    ks.map(|k| {
        if k.is_empty() {
            "?".into()
        } else {
            k.iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        }
    })
}

/// `s` with its first letter in capitals.
pub fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// A series of games (`senet play --series N`): the series record, who sits in its two seats,
/// and the settings each game is started from. Seats are people (or bots), numbered 1 and 2;
/// with alternating starts they swap sides from game to game.
#[derive(Clone, Debug)]
pub struct SeriesPlay {
    /// The series so far; the last game's record is brought up to date by
    /// [`SeriesPlay::update`].
    pub series: Series,
    /// Who sits in seat 1 and seat 2.
    pub seats: [Seat; 2],
    base: Setup,
}

impl SeriesPlay {
    /// A new series: `setup.seats` are seats 1 and 2. Returns the series and the setup of its
    /// first game.
    pub fn new(
        setup: &Setup,
        target: Target,
        starts: Starts,
    ) -> Result<(SeriesPlay, Setup), Error> {
        let mut series = Series::new(
            setup.rules,
            &setup.options,
            target,
            starts,
            Some(setup.seed),
        )?;
        series.seats = Some([setup.seats[0].to_string(), setup.seats[1].to_string()]);
        let mut sp = SeriesPlay {
            series,
            seats: setup.seats.clone(),
            base: setup.clone(),
        };
        let first = sp.next_game()?;
        Ok((sp, first))
    }

    /// Resumes a series record with these seats (1 and 2): the setup of the game to play
    /// and, when the last game is unfinished, its record to resume. A finished series gives
    /// its last game, to look at.
    pub fn resume(
        series: Series,
        seats: [Seat; 2],
        seed: Option<u64>,
    ) -> Result<(SeriesPlay, Setup, Option<Record>), Error> {
        series.replay()?;
        let rules = series.rule_set()?;
        let base = Setup {
            rules,
            options: series.option_pairs()?,
            seats,
            seed: seed.or(series.seed).unwrap_or_else(clock_seed),
        };
        let mut sp = SeriesPlay {
            seats: base.seats.clone(),
            series,
            base,
        };
        let resume = match sp.series.games.last() {
            Some(g) if g.points.is_none() || sp.series.standing().over => {
                let seed = g.record.seed.unwrap_or(sp.base.seed);
                Some((sp.setup_of(g.first, seed), g.record.clone()))
            }
            _ => None,
        };
        match resume {
            Some((setup, rec)) => Ok((sp, setup, Some(rec))),
            None => {
                let setup = sp.next_game()?;
                Ok((sp, setup, None))
            }
        }
    }

    /// Starts the next game; its setup (seats in the order of the sides, the next seed).
    pub fn next_game(&mut self) -> Result<Setup, Error> {
        let i = self.series.games.len();
        let seed = self.base.seed.wrapping_add(i as u64);
        let base_seed = self.base.seed;
        let first = self
            .series
            .first_seat(i, || series::draw_first(base_seed, i) == 1);
        self.series.push_game(first, Some(seed))?;
        Ok(self.setup_of(first, seed))
    }

    fn setup_of(&self, first: u8, seed: u64) -> Setup {
        let [a, b] = self.seats.clone();
        Setup {
            seats: if first == 1 { [a, b] } else { [b, a] },
            seed,
            ..self.base.clone()
        }
    }

    /// Brings the last game's record up to date (its points once it is over).
    pub fn update(&mut self, rec: &Record) -> Result<(), Error> {
        self.series.update_last(rec.clone())
    }

    /// The game number being played (from 1).
    pub fn game_number(&self) -> usize {
        self.series.games.len()
    }

    /// The seat (1 or 2) playing `p` in the current game.
    pub fn seat_of(&self, p: Player) -> u8 {
        let first = self.series.games.last().map_or(1, |g| g.first);
        series::seat_of(first, p)
    }

    fn seat_name(&self, seat: u8) -> String {
        let s = &self.seats[seat as usize - 1];
        let against_bot = self.seats[0].is_bot() != self.seats[1].is_bot();
        match s {
            Seat::Human if against_bot => "you".into(),
            Seat::Human => format!("seat {seat}"),
            Seat::Bot(b) if against_bot => b.clone(),
            Seat::Bot(b) => format!("seat {seat} ({b})"),
        }
    }

    /// `series to 3 points, game 2: you 1 - 0 casual`.
    pub fn score_line(&self) -> String {
        let st = self.series.standing();
        format!(
            "series {}, game {}: {} {} - {} {}",
            self.series.target,
            self.game_number(),
            self.seat_name(1),
            st.score[0],
            st.score[1],
            self.seat_name(2)
        )
    }

    /// The series' result, once it is over.
    pub fn result_line(&self) -> Option<String> {
        let st = self.series.standing();
        st.over.then(|| match st.winner {
            Some(w) => format!(
                "{} won the series {} - {} in {} games.",
                capital(&self.seat_name(w)),
                st.score[0],
                st.score[1],
                st.finished
            ),
            None => format!(
                "The series is drawn {} - {} after {} games.",
                st.score[0], st.score[1], st.finished
            ),
        })
    }

    /// Writes the series record (with the current game as it stands) to `path`.
    pub fn save(&self, path: &str) -> Result<(), String> {
        let mut text = self.series.to_json();
        text.push('\n');
        std::fs::write(path, text).map_err(|e| format!("cannot write {path}: {e}"))
    }
}
