//! The full-screen UI's state machine: keys and clock ticks in, state out. It draws nothing
//! (see `render.rs`) and touches no terminal, so tests drive it key by key.

use crate::session::{Hint, Seat, SeriesPlay, Session, Setup};
use senet_bots::play as opponent;
use senet_rules::Notation;
use senet_rules::{Game, Move, Player, Record, RuleSet, Status, Throw};

/// A key press, independent of the terminal library.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Key {
    /// A printable character.
    Char(char),
    /// A character with Control held.
    Ctrl(char),
    /// Enter.
    Enter,
    /// Escape.
    Esc,
    /// Backspace.
    Backspace,
    /// Tab.
    Tab,
    /// Shift-Tab.
    BackTab,
    /// Arrow left.
    Left,
    /// Arrow right.
    Right,
    /// Arrow up.
    Up,
    /// Arrow down.
    Down,
    /// Page up.
    PageUp,
    /// Page down.
    PageDown,
    /// Home.
    Home,
    /// End.
    End,
}

/// A screen drawn over the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Overlay {
    /// Nothing: the game.
    None,
    /// The keys.
    Help,
    /// The rules summary, scrolled by this many lines.
    Rules(u16),
    /// The whole move list, scrolled by this many lines.
    Moves(u16),
    /// The review of the finished game (its analysis), scrolled by this many lines.
    Review(u16),
    /// Asking for a file name to save the record to.
    Save(String),
    /// Asking for a record file to load.
    Load(String),
    /// Asking whether to save before quitting.
    Quit,
}

/// The pauses before each bot action, in milliseconds, slowest first (`-` and `+` move
/// along; the third is the default).
pub const PACES: [u64; 6] = [1500, 900, 550, 300, 120, 0];

/// The seat choices of the setup screen.
pub const SEATS: [&str; 3] = ["first", "second", "watch"];

/// The new-game screen: rule set, opponent, and where you sit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupForm {
    /// Index into [`RuleSet::ALL`].
    pub rules: usize,
    /// The opponents offered: the levels, any bot named on the command line, and `human`.
    pub opponents: Vec<String>,
    /// Index into `opponents`.
    pub opponent: usize,
    /// Index into [`SEATS`].
    pub seat: usize,
    /// The field with the focus (0 rules, 1 opponent, 2 seat).
    pub field: usize,
    /// Why the last start failed, if it did.
    pub error: Option<String>,
}

impl SetupForm {
    /// The form showing `s`'s settings.
    pub fn from_setup(s: &Setup) -> SetupForm {
        let mut opponents: Vec<String> = opponent::levels().iter().map(|l| l.to_string()).collect();
        let (seat, opp) = match (&s.seats[0], &s.seats[1]) {
            (Seat::Human, Seat::Human) => (0, "human".to_string()),
            (Seat::Human, Seat::Bot(b)) => (0, b.clone()),
            (Seat::Bot(b), Seat::Human) => (1, b.clone()),
            (Seat::Bot(b), Seat::Bot(_)) => (2, b.clone()),
        };
        if !opponents.contains(&opp) && opp != "human" {
            opponents.push(opp.clone());
        }
        opponents.push("human".into());
        SetupForm {
            rules: RuleSet::ALL.iter().position(|r| *r == s.rules).unwrap_or(0),
            opponent: opponents.iter().position(|o| *o == opp).unwrap_or(0),
            opponents,
            seat,
            field: 0,
            error: None,
        }
    }

    /// The settings chosen, keeping the options and the seed of `base` (options apply only
    /// to the rule set they were given for).
    pub fn to_setup(&self, base: &Setup) -> Result<Setup, String> {
        let rules = RuleSet::ALL[self.rules];
        let opp = &self.opponents[self.opponent];
        let bot = || Seat::Bot(opp.clone());
        let seats = match (SEATS[self.seat], opp.as_str()) {
            ("watch", "human") => {
                return Err("to watch, choose a bot as the opponent: it plays both sides".into())
            }
            ("first", "human") | ("second", "human") => [Seat::Human, Seat::Human],
            ("first", _) => [Seat::Human, bot()],
            ("second", _) => [bot(), Seat::Human],
            _ => [bot(), bot()],
        };
        Ok(Setup {
            rules,
            options: if rules == base.rules {
                base.options.clone()
            } else {
                vec![]
            },
            seats,
            seed: base.seed,
        })
    }

    fn change(&mut self, delta: isize) {
        let (v, n) = match self.field {
            0 => (&mut self.rules, RuleSet::ALL.len()),
            1 => (&mut self.opponent, self.opponents.len()),
            _ => (&mut self.seat, SEATS.len()),
        };
        *v = (*v as isize + delta).rem_euclid(n as isize) as usize;
        self.error = None;
    }
}

/// How a message line reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Tone {
    /// What happened in the game.
    Event,
    /// Something the UI did (saved, loaded, hint).
    Info,
    /// A refused key or a failed command.
    Error,
}

/// The whole UI state.
#[derive(Debug)]
pub struct App {
    /// The settings of the current (or next) game.
    pub setup: Setup,
    /// The new-game screen, when shown.
    pub form: Option<SetupForm>,
    /// The game, once started.
    pub session: Option<Session>,
    /// The screen over the game.
    pub overlay: Overlay,
    /// Index of the highlighted move in [`Session::legal`].
    pub selected: usize,
    /// A square or move being typed.
    pub typed: String,
    /// Announcements and replies, oldest first.
    pub messages: Vec<(Tone, String)>,
    /// The hint for the current decision: the hint bot's move and every move's win chance.
    pub hint: Option<Hint>,
    /// The review of the game (the analysis as text lines) and the number of record events
    /// it covers, once asked for with `a` after the game.
    pub review: Option<(usize, Vec<String>)>,
    /// The last move played, and by whom (drawn on the board).
    pub last: Option<(Player, Move)>,
    /// Bots are paused (watching).
    pub paused: bool,
    /// There are moves not saved to a file.
    pub dirty: bool,
    /// The UI should close.
    pub quit: bool,
    /// Where the record was last saved or loaded.
    pub file: Option<String>,
    /// Index into [`PACES`]: how long bots wait before each action.
    pub pace: usize,
    /// The furthest a scrolled screen can scroll, as last drawn (set by the renderer).
    pub scroll_max: std::cell::Cell<u16>,
    /// The series being played (`--series N`), if any.
    pub series: Option<SeriesPlay>,
}

impl App {
    /// Starts with the setup screen showing `setup` (when no rule set was named).
    pub fn with_form(setup: Setup) -> App {
        let form = SetupForm::from_setup(&setup);
        let mut a = App::empty(setup);
        a.form = Some(form);
        a
    }

    /// Starts a game at once.
    pub fn new(setup: Setup) -> Result<App, String> {
        let mut a = App::empty(setup);
        a.start()?;
        Ok(a)
    }

    /// Resumes a recorded game; `seats` say who plays on.
    pub fn resume(setup: Setup, record: Record, seed: Option<u64>) -> Result<App, String> {
        let s = Session::resume(record, setup.seats.clone(), seed).map_err(|e| e.to_string())?;
        let mut a = App::empty(Setup {
            rules: s.game().rules(),
            options: senet_rules::record::options_of(s.game()),
            seed: s.seed(),
            ..setup
        });
        a.session = Some(s);
        a.after_load();
        Ok(a)
    }

    fn empty(setup: Setup) -> App {
        App {
            setup,
            form: None,
            session: None,
            overlay: Overlay::None,
            selected: 0,
            typed: String::new(),
            messages: Vec::new(),
            hint: None,
            review: None,
            last: None,
            paused: false,
            dirty: false,
            quit: false,
            file: None,
            scroll_max: std::cell::Cell::new(u16::MAX),
            pace: 2,
            series: None,
        }
    }

    /// Starts (or resumes) a series: `setup` is its current game's, `record` that game's
    /// record when it is resumed.
    pub fn series(sp: SeriesPlay, setup: Setup, record: Option<Record>) -> Result<App, String> {
        let mut a = match record {
            Some(r) => App::resume(setup, r, None)?,
            None => App::new(setup)?,
        };
        let line = sp.score_line();
        a.series = Some(sp);
        a.say(Tone::Info, line);
        Ok(a)
    }

    /// Brings the series' record of the current game up to date; at the end of a game says
    /// the series score (and result).
    fn sync_series(&mut self) {
        let (Some(sp), Some(s)) = (&mut self.series, &self.session) else {
            return;
        };
        let was_over = sp.series.current().is_none();
        // The session's record always replays: it was built by playing legal moves.
        let _ = sp.update(s.record());
        if !was_over && sp.series.current().is_none() {
            let line = sp.score_line();
            let res = sp.result_line();
            self.say(Tone::Info, line);
            if let Some(r) = res {
                self.say(Tone::Info, format!("{r} s saves the series record."));
            }
        }
    }

    /// The next game of the series, or a refusal when the series is over.
    fn next_series_game(&mut self) {
        let Some(sp) = &mut self.series else {
            return;
        };
        match sp.next_game() {
            Ok(setup) => {
                self.setup = setup;
                if let Err(e) = self.start() {
                    self.say(Tone::Error, e);
                    return;
                }
                let line = self.series.as_ref().map(|sp| sp.score_line());
                if let Some(l) = line {
                    self.say(Tone::Info, l);
                }
            }
            Err(e) => self.say(Tone::Error, format!("{e}: c starts new settings, q quits")),
        }
    }

    fn start(&mut self) -> Result<(), String> {
        let s = Session::new(&self.setup).map_err(|e| e.to_string())?;
        self.session = Some(s);
        self.form = None;
        self.overlay = Overlay::None;
        self.messages.clear();
        self.reset_choice();
        self.last = None;
        self.dirty = false;
        self.file = None;
        self.paused = false;
        let s = self.session.as_ref().expect("started");
        let r = s.game().rules();
        let mut text = format!("New game of {} ({}), seed {}.", r.id(), r.name(), s.seed());
        if s.watching() {
            text.push_str(" You watch; p pauses.");
        } else if s.against_bot() {
            let me = if s.seats()[0] == Seat::Human {
                Player::First
            } else {
                Player::Second
            };
            let order = if me == Player::First {
                "first"
            } else {
                "second"
            };
            text.push_str(&format!(
                " You play {order}, with {} ({}).",
                s.kinds(me),
                crate::render::COLOUR_NAMES[me.index()]
            ));
        } else {
            text.push_str(" Hot-seat: take turns at the keyboard.");
        }
        self.say(Tone::Info, text);
        Ok(())
    }

    fn after_load(&mut self) {
        self.reset_choice();
        self.last = None;
        self.dirty = false;
        let s = self.session.as_ref().expect("loaded");
        let n = s.game().decisions();
        let text = match s.result_text() {
            Some(r) => format!("Loaded a finished game ({n} moves). {r}"),
            None => format!("Resumed after {n} moves."),
        };
        self.say(Tone::Info, text);
    }

    fn reset_choice(&mut self) {
        self.selected = 0;
        self.typed.clear();
        self.hint = None;
    }

    fn say(&mut self, tone: Tone, text: impl Into<String>) {
        self.messages.push((tone, text.into()));
        if self.messages.len() > 200 {
            self.messages.drain(..100);
        }
    }

    /// The legal moves of the current decision, in the order they are offered.
    pub fn legal(&self) -> Vec<Move> {
        self.session.as_ref().map_or(vec![], |s| s.legal())
    }

    /// The highlighted move, when a person is to move.
    pub fn selection(&self) -> Option<Move> {
        if !self.human_to_move() {
            return None;
        }
        self.legal().get(self.selected).copied()
    }

    /// Whether a person at the terminal is to throw.
    pub fn human_to_throw(&self) -> bool {
        self.session.as_ref().is_some_and(|s| {
            matches!(s.status(), Status::Throw(_)) && !s.bot_to_act() && self.form.is_none()
        })
    }

    /// Whether a person at the terminal is to move.
    pub fn human_to_move(&self) -> bool {
        self.session.as_ref().is_some_and(|s| {
            matches!(s.status(), Status::Move(_)) && !s.bot_to_act() && self.form.is_none()
        })
    }

    /// Whether a bot should act at the next tick.
    pub fn wants_tick(&self) -> bool {
        self.form.is_none()
            && self.overlay == Overlay::None
            && !self.paused
            && self.session.as_ref().is_some_and(|s| s.bot_to_act())
    }

    /// How long bots wait before each action.
    pub fn pause_ms(&self) -> u64 {
        PACES[self.pace.min(PACES.len() - 1)]
    }

    /// Lets the bot to act throw or move (one step). Returns whether anything happened.
    pub fn tick(&mut self) -> bool {
        if !self.wants_tick() {
            return false;
        }
        let s = self.session.as_mut().expect("wants_tick");
        let (p, _) = s.to_act().expect("a bot is to act");
        match s.status() {
            Status::Throw(_) => match s.throw() {
                Ok(t) => {
                    let text = s.announce_throw(p, t);
                    self.dirty = true;
                    self.say(Tone::Event, text);
                }
                Err(e) => self.say(Tone::Error, e.to_string()),
            },
            Status::Move(_) => {
                let chosen = s.bot_choice();
                match chosen {
                    Ok(m) => self.play_move(m),
                    Err(e) => {
                        self.paused = true;
                        self.say(Tone::Error, format!("the bot failed: {e}; p resumes"));
                    }
                }
            }
            Status::Over(_) => return false,
        }
        true
    }

    /// Plays until a person must act or the game ends (for tests and the plain mode).
    pub fn run_bots(&mut self) {
        let mut guard = 0;
        while self.tick() {
            guard += 1;
            if guard > 1_000_000 {
                break;
            }
        }
    }

    fn play_move(&mut self, m: Move) {
        let s = self.session.as_mut().expect("a game");
        let Some(p) = s.status().player() else {
            return;
        };
        let text = s.move_string(m);
        match s.play(m) {
            Ok(e) => {
                let line = s.announce_move(p, &text, e);
                let result = s.result_text();
                self.last = Some((p, m));
                self.dirty = true;
                self.reset_choice();
                self.say(Tone::Event, line);
                if let Some(r) = result {
                    self.say(Tone::Info, r);
                    self.sync_series();
                }
            }
            Err(e) => self.say(Tone::Error, e.to_string()),
        }
    }

    /// Handles a key.
    pub fn handle_key(&mut self, key: Key) {
        if key == Key::Ctrl('c') {
            self.quit = true;
            return;
        }
        if self.form.is_some() {
            self.form_key(key);
            return;
        }
        if self.overlay != Overlay::None {
            self.overlay_key(key);
            return;
        }
        self.game_key(key);
    }

    fn form_key(&mut self, key: Key) {
        let Some(f) = self.form.as_mut() else { return };
        match key {
            Key::Up | Key::BackTab => f.field = (f.field + 2) % 3,
            Key::Down | Key::Tab => f.field = (f.field + 1) % 3,
            Key::Left => f.change(-1),
            Key::Right | Key::Char(' ') => f.change(1),
            Key::Enter => match f.to_setup(&self.setup) {
                Ok(s) => {
                    self.setup = s;
                    if let Err(e) = self.start() {
                        if let Some(f) = self.form.as_mut() {
                            f.error = Some(e);
                        }
                    }
                }
                Err(e) => f.error = Some(e),
            },
            Key::Esc if self.session.is_some() => self.form = None,
            Key::Char('q') | Key::Esc => self.quit = true,
            _ => {}
        }
    }

    fn overlay_key(&mut self, key: Key) {
        match &mut self.overlay {
            Overlay::Help => self.overlay = Overlay::None,
            Overlay::Rules(n) | Overlay::Moves(n) | Overlay::Review(n) => match key {
                Key::Up
                | Key::Char('k')
                | Key::PageUp
                | Key::Down
                | Key::Char('j')
                | Key::PageDown
                | Key::Char(' ')
                    if *n > self.scroll_max.get() =>
                {
                    *n = self.scroll_max.get();
                    self.overlay_key(key);
                }
                Key::Up | Key::Char('k') => *n = n.saturating_sub(1),
                Key::Down | Key::Char('j') => *n = n.saturating_add(1),
                Key::PageUp => *n = n.saturating_sub(10),
                Key::PageDown | Key::Char(' ') => *n = n.saturating_add(10),
                Key::Home => *n = 0,
                Key::End => *n = u16::MAX,
                _ => self.overlay = Overlay::None,
            },
            Overlay::Save(input) | Overlay::Load(input) => match key {
                Key::Char(c) => input.push(c),
                Key::Backspace => {
                    input.pop();
                }
                Key::Esc => self.overlay = Overlay::None,
                Key::Enter => {
                    let path = input.trim().to_string();
                    let saving = matches!(self.overlay, Overlay::Save(_));
                    self.overlay = Overlay::None;
                    if path.is_empty() {
                        self.say(Tone::Error, "no file name given");
                    } else if saving {
                        self.save(&path);
                    } else {
                        self.load(&path);
                    }
                }
                _ => {}
            },
            Overlay::Quit => match key {
                Key::Char('s') => {
                    let path = self.default_path();
                    self.overlay = Overlay::None;
                    if self.save(&path) {
                        self.quit = true;
                    }
                }
                Key::Char('q') | Key::Char('y') => self.quit = true,
                _ => self.overlay = Overlay::None,
            },
            Overlay::None => {}
        }
    }

    /// The file name offered when saving.
    pub fn default_path(&self) -> String {
        if let Some(f) = &self.file {
            return f.clone();
        }
        match (&self.session, &self.series) {
            (Some(_), Some(sp)) => format!(
                "senet-series-{}-{}.json",
                sp.series.rules,
                sp.series.seed.unwrap_or(0)
            ),
            (Some(s), None) => format!("senet-{}-{}.json", s.game().rules().id(), s.seed()),
            (None, _) => "senet-game.json".into(),
        }
    }

    /// Saves the record; says how it went.
    pub fn save(&mut self, path: &str) -> bool {
        self.sync_series();
        let Some(s) = &self.session else {
            return false;
        };
        let (r, what) = match &self.series {
            Some(sp) => (sp.save(path), "series record"),
            None => (s.save(path), "game record"),
        };
        match r {
            Ok(()) => {
                self.dirty = false;
                self.file = Some(path.to_string());
                self.say(Tone::Info, format!("Saved the {what} to {path}."));
                true
            }
            Err(e) => {
                self.say(Tone::Error, e);
                false
            }
        }
    }

    /// Loads a record and resumes it with the current seats.
    pub fn load(&mut self, path: &str) -> bool {
        if self.series.is_some() {
            self.say(
                Tone::Error,
                "load is not available during a series (senet play --load FILE resumes a series record)",
            );
            return false;
        }
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                self.say(Tone::Error, format!("cannot read {path}: {e}"));
                return false;
            }
        };
        let loaded = Record::from_json(&text)
            .and_then(|r| Session::resume(r, self.setup.seats.clone(), None));
        match loaded {
            Ok(s) => {
                self.setup.rules = s.game().rules();
                self.setup.options = senet_rules::record::options_of(s.game());
                self.setup.seed = s.seed();
                self.session = Some(s);
                self.file = Some(path.to_string());
                self.after_load();
                true
            }
            Err(e) => {
                self.say(Tone::Error, format!("{path}: {e}"));
                false
            }
        }
    }

    fn game_key(&mut self, key: Key) {
        let Some(s) = &self.session else {
            return;
        };
        let over = matches!(s.status(), Status::Over(_));
        if !self.typed.is_empty() && self.human_to_move() {
            match key {
                Key::Char(c) if c.is_ascii_alphanumeric() || c == '-' => {
                    self.type_char(c);
                    return;
                }
                Key::Backspace => {
                    self.typed.pop();
                    self.follow_typed();
                    return;
                }
                Key::Esc => {
                    self.typed.clear();
                    return;
                }
                _ => {}
            }
        }
        match key {
            Key::Char('q') => {
                if self.dirty {
                    self.overlay = Overlay::Quit;
                } else {
                    self.quit = true;
                }
            }
            Key::Esc => {
                self.hint = None;
                self.typed.clear();
            }
            Key::Char('?') => self.overlay = Overlay::Help,
            Key::Char('r') => self.overlay = Overlay::Rules(0),
            Key::Char('m') => self.overlay = Overlay::Moves(u16::MAX),
            Key::Char('s') => self.overlay = Overlay::Save(self.default_path()),
            Key::Char('l') => self.overlay = Overlay::Load(String::new()),
            Key::Char('u') => self.undo(),
            Key::Char('h') => self.ask_hint(),
            Key::Char('a') if over => self.open_review(),
            Key::Char('a') => self.say(
                Tone::Error,
                "The review (a) opens once the game is over; h shows every move's win chance now.",
            ),
            Key::Char('p') if s.watching() => {
                self.paused = !self.paused;
                let t = if self.paused {
                    "Paused: p resumes."
                } else {
                    "Resumed."
                };
                self.say(Tone::Info, t);
            }
            Key::Char('+') | Key::Char('=') | Key::Char('-') => {
                self.pace = if key == Key::Char('-') {
                    self.pace.saturating_sub(1)
                } else {
                    (self.pace + 1).min(PACES.len() - 1)
                };
                let ms = self.pause_ms();
                self.say(
                    Tone::Info,
                    format!("Bots now wait {ms} ms before each action."),
                );
            }
            Key::Char('n') | Key::Char('y') if over && self.series.is_some() => {
                self.next_series_game()
            }
            Key::Char('c') if over && self.series.is_some() => {
                self.series = None;
                self.form = Some(SetupForm::from_setup(&self.setup))
            }
            Key::Char('n') | Key::Char('y') if over => {
                self.setup = self.setup.next();
                if let Err(e) = self.start() {
                    self.say(Tone::Error, e);
                }
            }
            Key::Char('c') if over => self.form = Some(SetupForm::from_setup(&self.setup)),
            Key::Char('t') | Key::Char(' ') | Key::Enter if self.human_to_throw() => self.throw(),
            Key::Char('t') if self.human_to_move() => {
                let t = s.game().in_hand().map_or("-".into(), |t| t.to_string());
                self.say(
                    Tone::Error,
                    format!("The throw in hand is {t}: choose a move."),
                );
            }
            Key::Left | Key::Up | Key::BackTab if self.human_to_move() => self.step(-1),
            Key::Right | Key::Down | Key::Tab if self.human_to_move() => self.step(1),
            Key::Enter if self.human_to_move() => self.play_selected(),
            Key::Char(c) if self.human_to_move() && (c.is_ascii_digit() || c == 'p') => {
                self.type_char(c)
            }
            Key::Char(c) if c.is_ascii_digit() && self.human_to_throw() => {
                self.say(Tone::Error, "Throw first (t), then type a square.")
            }
            Key::Char(_) | Key::Enter if s.bot_to_act() && !self.paused => {
                self.say(Tone::Info, "The bot is playing…")
            }
            _ => {}
        }
    }

    fn throw(&mut self) {
        let s = self.session.as_mut().expect("a game");
        let Some(p) = s.status().player() else { return };
        match s.throw() {
            Ok(t) => {
                let text = s.announce_throw(p, t);
                self.dirty = true;
                self.reset_choice();
                self.say(Tone::Event, text);
            }
            Err(e) => self.say(Tone::Error, e.to_string()),
        }
    }

    fn step(&mut self, d: isize) {
        let n = self.legal().len();
        if n > 0 {
            self.selected = (self.selected as isize + d).rem_euclid(n as isize) as usize;
        }
        self.typed.clear();
    }

    /// The moves matching the typed text: those from the typed square, else those whose move
    /// string starts with it.
    fn typed_matches(&self, typed: &str) -> Vec<usize> {
        let Some(s) = &self.session else {
            return vec![];
        };
        let legal = self.legal();
        let t = typed.to_ascii_lowercase();
        let from: Vec<usize> = (0..legal.len())
            .filter(|&i| {
                !legal[i].is_pass() && s.game().square_name(legal[i].from).to_ascii_lowercase() == t
            })
            .collect();
        if !from.is_empty() {
            return from;
        }
        (0..legal.len())
            .filter(|&i| s.move_string(legal[i]).to_ascii_lowercase().starts_with(&t))
            .collect()
    }

    fn type_char(&mut self, c: char) {
        let next = format!("{}{c}", self.typed);
        match self.typed_matches(&next).first() {
            Some(&i) => {
                self.typed = next;
                self.selected = i;
            }
            None => self.say(
                Tone::Error,
                format!("No legal move from or starting with {next:?}."),
            ),
        }
    }

    fn follow_typed(&mut self) {
        if let Some(&i) = self.typed_matches(&self.typed.clone()).first() {
            self.selected = i;
        }
    }

    fn play_selected(&mut self) {
        let legal = self.legal();
        let s = self.session.as_ref().expect("a game");
        let exact = legal
            .iter()
            .copied()
            .find(|&m| s.move_string(m).eq_ignore_ascii_case(&self.typed));
        if let Some(m) = exact.or_else(|| legal.get(self.selected).copied()) {
            self.play_move(m);
        }
    }

    fn undo(&mut self) {
        let s = self.session.as_mut().expect("a game");
        match s.undo() {
            Ok(()) => {
                let what = match s.status() {
                    Status::Move(_) => format!(
                        "Took back your move: the throw in hand is {} again.",
                        s.game()
                            .in_hand()
                            .map_or("-".into(), |t: Throw| t.to_string())
                    ),
                    _ => "Took back your move.".into(),
                };
                self.reset_choice();
                self.last = None;
                self.dirty = true;
                self.say(Tone::Info, what);
            }
            Err(e) => self.say(Tone::Error, format!("Cannot undo: {e}.")),
        }
    }

    fn ask_hint(&mut self) {
        if !self.human_to_move() {
            self.say(Tone::Error, "A hint is for your move: throw first.");
            return;
        }
        let s = self.session.as_ref().expect("a game");
        match s.hint() {
            Ok(h) => {
                let text = hint_text(s, &h);
                if let Some(i) = self.legal().iter().position(|&x| x == h.best) {
                    self.selected = i;
                }
                self.typed.clear();
                self.hint = Some(h);
                self.say(
                    Tone::Info,
                    format!("{text}; every move's win chance is beside it."),
                );
            }
            Err(e) => self.say(Tone::Error, e),
        }
    }

    /// Analyses the finished game (once per game) and shows the review.
    fn open_review(&mut self) {
        let s = self.session.as_ref().expect("a game");
        let n = s.record().events.len();
        if self.review.as_ref().is_none_or(|r| r.0 != n) {
            match s.analysis() {
                Ok(a) => {
                    let lines = a.text().lines().map(str::to_string).collect();
                    self.review = Some((n, lines));
                }
                Err(e) => {
                    self.say(Tone::Error, format!("Cannot review the game: {e}"));
                    return;
                }
            }
        }
        self.overlay = Overlay::Review(0);
    }
}

/// The hint in words: `Hint (expert): 9-13, win chance 62%`.
pub fn hint_text(s: &Session, h: &Hint) -> String {
    format!(
        "Hint ({}): {}, win chance {:.0}%",
        opponent::HINT_LEVEL,
        s.move_string(h.best),
        100.0 * h.chance(h.best).unwrap_or(0.0)
    )
}

/// Every legal move with its win chance, best first: `9-13 62% · 5-9 58%`.
pub fn hint_list(s: &Session, h: &Hint) -> Vec<String> {
    let mut ms = h.moves.clone();
    ms.sort_by(|a, b| b.1.total_cmp(&a.1));
    ms.iter()
        .map(|&(m, p)| format!("{} {:.1}%", s.move_string(m), 100.0 * p))
        .collect()
}
