//! The plain line-by-line mode, used when standard input or output is not a terminal (or
//! with `--plain`): the board as text, one prompt line per decision starting with `> `, one
//! command per input line, so a game can be scripted.

use crate::render::{board_text, logical_lines, move_list, wrap};
use crate::rules_doc;
use crate::session::{Seat, SeriesPlay, Session, Setup};
use crate::Start;
use senet_rules::Notation;
use senet_rules::{Game, Player, Record, Status, Throw};
use std::io::{BufRead, Write};

/// The commands, as printed by `help`.
pub const HELP: &str = "\
commands (one per line):
  Enter, t, throw     throw (when it is your throw); on your move, Enter plays the first move listed
  throw N             use your own throw N (e.g. 4, or 3-5 for two dice)
  MOVE or SQUARE      play a move (e.g. {moves}), or the only move from a square
  hint                the expert bot's move and every move's win chance
  review, a           after the game: every decision's win chance lost, luck, summary
  undo                take back your last decision (against a bot)
  board               print the board          moves   print the move list
  rules               the rules of this game   help    this list
  save FILE           save the game record     load FILE   load a record and resume it
  quit                stop (the record is not saved unless you saved it)";

struct Plain<'a, R: BufRead, W: Write> {
    input: &'a mut R,
    out: &'a mut W,
    setup: Setup,
    s: Session,
    shown: Option<String>,
    file: Option<String>,
    dirty: bool,
    series: Option<SeriesPlay>,
}

/// Runs the line mode until the games end or input ends; returns the last line to print.
pub fn run<R: BufRead, W: Write>(
    start: Start,
    input: &mut R,
    out: &mut W,
) -> Result<String, String> {
    let mut series = None;
    let (setup, s) = match start {
        Start::Series(sp, setup, rec) => {
            let s = match rec {
                Some(r) => Session::resume(r, setup.seats.clone(), None),
                None => Session::new(&setup),
            }
            .map_err(|e| e.to_string())?;
            series = Some(*sp);
            (setup, s)
        }
        Start::Choose(setup) | Start::New(setup) => {
            let s = Session::new(&setup).map_err(|e| e.to_string())?;
            (setup, s)
        }
        Start::Resume(setup, rec, seed) => {
            let s = Session::resume(rec, setup.seats.clone(), seed).map_err(|e| e.to_string())?;
            (setup, s)
        }
    };
    let mut p = Plain {
        input,
        out,
        setup,
        s,
        shown: None,
        file: None,
        dirty: false,
        series,
    };
    p.main()
        .map_err(|e| format!("cannot write the output: {e}"))
}

impl<R: BufRead, W: Write> Plain<'_, R, W> {
    fn line(&mut self, text: &str) -> std::io::Result<()> {
        writeln!(self.out, "{text}")
    }

    fn read(&mut self) -> std::io::Result<Option<String>> {
        self.out.flush()?;
        let mut l = String::new();
        if self.input.read_line(&mut l)? == 0 {
            return Ok(None);
        }
        Ok(Some(l.trim().to_string()))
    }

    fn header(&mut self) -> std::io::Result<()> {
        let r = self.s.game().rules();
        let seat = |p: Player| match &self.s.seats()[p.index()] {
            Seat::Human => "human".to_string(),
            Seat::Bot(b) => format!("bot {b}"),
        };
        let text = format!(
            "senet play: {} ({}), seed {}\nplayer 1 ({}): {}; player 2 ({}): {}\nType help for the commands.",
            r.id(),
            r.name(),
            self.s.seed(),
            self.s.kinds(Player::First),
            seat(Player::First),
            self.s.kinds(Player::Second),
            seat(Player::Second),
        );
        self.line(&text)?;
        if let Some(sp) = &self.series {
            let t = format!(
                "{}; seat {} plays player 1",
                sp.score_line(),
                sp.seat_of(Player::First)
            );
            self.line(&t)?;
        }
        Ok(())
    }

    /// Prints the board when it changed since it was last printed (or when asked).
    fn board(&mut self, force: bool) -> std::io::Result<()> {
        let v = self.s.view();
        let mut lines = board_text(&v, 80);
        lines.push(format!(
            "off: player 1 {}, player 2 {}; captured: player 1 {}, player 2 {}",
            v.off[0], v.off[1], v.captured[0], v.captured[1]
        ));
        for (k, val) in &v.notes {
            lines.push(format!("{k}: {val}"));
        }
        let text = lines.join("\n");
        if force || self.shown.as_deref() != Some(text.as_str()) {
            self.line(&text)?;
            self.line(&format!("position: {}", self.s.game().position()))?;
            self.shown = Some(text);
        }
        Ok(())
    }

    fn main(&mut self) -> std::io::Result<String> {
        self.header()?;
        if !self.s.record().events.is_empty() {
            let t = format!("Resumed after {} moves.", self.s.game().decisions());
            self.line(&t)?;
        }
        loop {
            if let Status::Over(_) = self.s.status() {
                self.board(false)?;
                let r = self.s.result_text().unwrap_or_default();
                self.line(&format!("result: {r}"))?;
                if self.series.is_some() {
                    self.series_update();
                    let sp = self.series.as_ref().expect("a series");
                    let t = sp.score_line();
                    let res = sp.result_line();
                    self.line(&t)?;
                    if let Some(res) = res {
                        self.line(&format!("series result: {res}"))?;
                    }
                }
                match self.after_game()? {
                    Some(next) => {
                        self.setup = next;
                        self.s = Session::new(&self.setup)
                            .map_err(|e| std::io::Error::other(e.to_string()))?;
                        self.shown = None;
                        self.dirty = false;
                        self.file = None;
                        self.header()?;
                        continue;
                    }
                    None => return Ok(self.farewell()),
                }
            }
            if self.s.bot_to_act() {
                self.bot_step()?;
                continue;
            }
            self.board(false)?;
            let prompt = self.prompt();
            self.line(&prompt)?;
            let Some(cmd) = self.read()? else {
                self.line("Input ended before the game did.")?;
                return Ok(self.farewell());
            };
            if !self.command(&cmd)? {
                return Ok(self.farewell());
            }
        }
    }

    /// Brings the series' record of the current game up to date.
    fn series_update(&mut self) {
        if let Some(sp) = &mut self.series {
            // The session's record always replays: it was built by playing legal moves.
            let _ = sp.update(self.s.record());
        }
    }

    fn farewell(&self) -> String {
        let mut state = match self.s.result_text() {
            Some(r) => r,
            None => format!("Game left after {} moves.", self.s.game().decisions()),
        };
        if let Some(sp) = &self.series {
            let line = sp.result_line().unwrap_or_else(|| sp.score_line());
            state = format!("{state} {line}");
        }
        match (&self.file, self.dirty) {
            (Some(f), false) => format!("{state} Record: {f}."),
            _ => state,
        }
    }

    fn after_game(&mut self) -> std::io::Result<Option<Setup>> {
        if let Some(sp) = &self.series {
            let over = sp.series.standing().over;
            loop {
                let ask = if over {
                    "> the series is over (review, save FILE, or Enter to finish)"
                } else {
                    "> next game of the series? (y/n, review, or save FILE)"
                };
                self.line(ask)?;
                let Some(cmd) = self.read()? else {
                    return Ok(None);
                };
                match cmd.as_str() {
                    "y" | "yes" | "next" if !over => {
                        let sp = self.series.as_mut().expect("a series");
                        return match sp.next_game() {
                            Ok(setup) => Ok(Some(setup)),
                            Err(e) => {
                                self.line(&format!("error: {e}"))?;
                                Ok(None)
                            }
                        };
                    }
                    c if c.starts_with("save ") => self.save(c[5..].trim())?,
                    "moves" | "m" => self.moves()?,
                    "review" | "a" | "analyze" | "analyse" => self.review()?,
                    _ => return Ok(None),
                }
            }
        }
        loop {
            self.line("> play again? (y/n, review, or save FILE)")?;
            let Some(cmd) = self.read()? else {
                return Ok(None);
            };
            match cmd.as_str() {
                "y" | "yes" => return Ok(Some(self.setup.next())),
                c if c.starts_with("save ") => self.save(c[5..].trim())?,
                "moves" | "m" => self.moves()?,
                "review" | "a" | "analyze" | "analyse" => self.review()?,
                _ => return Ok(None),
            }
        }
    }

    /// Prints the review of the finished game: its analysis.
    fn review(&mut self) -> std::io::Result<()> {
        match self.s.analysis() {
            Ok(a) => {
                for l in a.text().lines() {
                    self.line(l)?;
                }
                Ok(())
            }
            Err(e) => self.line(&format!("error: cannot review the game: {e}")),
        }
    }

    fn prompt(&self) -> String {
        let (p, _) = self.s.to_act().expect("not over");
        let who = self.s.name(p);
        match self.s.status() {
            Status::Throw(_) => format!("> {who} to throw (Enter)"),
            _ => {
                let t = self
                    .s
                    .game()
                    .in_hand()
                    .map_or("-".into(), |t| t.to_string());
                let moves: Vec<String> = self
                    .s
                    .legal()
                    .iter()
                    .map(|&m| self.s.move_string(m))
                    .collect();
                format!("> {who} to move with {t}: {}", moves.join(" "))
            }
        }
    }

    fn bot_step(&mut self) -> std::io::Result<()> {
        let (p, _) = self.s.to_act().expect("a bot acts");
        let text = match self.s.status() {
            Status::Throw(_) => match self.s.throw() {
                Ok(t) => self.s.announce_throw(p, t),
                Err(e) => format!("error: {e}"),
            },
            _ => match self.s.bot_choice() {
                Ok(m) => {
                    let ms = self.s.move_string(m);
                    match self.s.play(m) {
                        Ok(e) => self.s.announce_move(p, &ms, e),
                        Err(e) => format!("error: {e}"),
                    }
                }
                Err(e) => {
                    self.line(&format!("error: the bot failed: {e}"))?;
                    return Err(std::io::Error::other(e));
                }
            },
        };
        self.dirty = true;
        self.line(&text)
    }

    /// Handles one line; false to stop.
    fn command(&mut self, cmd: &str) -> std::io::Result<bool> {
        let (p, _) = self.s.to_act().expect("not over");
        let (word, arg) = match cmd.split_once(char::is_whitespace) {
            Some((w, a)) => (w, a.trim()),
            None => (cmd, ""),
        };
        match (word.to_ascii_lowercase().as_str(), self.s.status()) {
            ("quit" | "q", _) => return Ok(false),
            ("help" | "?", _) => {
                let examples = self.s.game().example_moves();
                self.line(&HELP.replace("{moves}", examples))?
            }
            ("board" | "b", _) => self.board(true)?,
            ("moves" | "m", _) => self.moves()?,
            ("rules" | "r", _) => {
                let text = rules_doc::summary(self.s.game());
                for para in logical_lines(&text) {
                    for l in wrap(&para, 100) {
                        self.line(&l)?;
                    }
                }
            }
            ("save" | "s", _) if !arg.is_empty() => self.save(arg)?,
            ("load" | "l", _) if !arg.is_empty() => self.load(arg)?,
            ("save" | "load" | "s" | "l", _) => {
                self.line("error: give a file name, e.g. save game.json")?
            }
            ("undo" | "u", _) => match self.s.undo() {
                Ok(()) => {
                    self.dirty = true;
                    self.shown = None;
                    self.line("Took back your last decision.")?
                }
                Err(e) => self.line(&format!("error: cannot undo: {e}"))?,
            },
            ("hint" | "h", _) => match self.s.hint() {
                Ok(h) => {
                    let t = crate::app::hint_text(&self.s, &h);
                    self.line(&t)?;
                    let all = crate::app::hint_list(&self.s, &h).join(" · ");
                    self.line(&format!("every move's win chance: {all}"))?
                }
                Err(e) => self.line(&format!("error: {e}"))?,
            },
            ("analyze" | "analyse" | "review" | "a", _) => {
                self.line("error: the review opens once the game is over; hint shows every move's win chance now")?
            }
            ("" | "t" | "throw", Status::Throw(_)) => {
                let r = if arg.is_empty() {
                    self.s.throw()
                } else {
                    Throw::parse(arg).and_then(|t| self.s.set_throw(t))
                };
                match r {
                    Ok(t) => {
                        self.dirty = true;
                        let text = self.s.announce_throw(p, t);
                        self.line(&text)?
                    }
                    Err(e) => self.line(&format!("error: {e}"))?,
                }
            }
            (_, Status::Throw(_)) => self.line(&format!(
                "error: {} must throw first (Enter or t); {cmd:?} is not a command here",
                self.s.name(p)
            ))?,
            ("t" | "throw", _) => {
                let t = self
                    .s
                    .game()
                    .in_hand()
                    .map_or("-".into(), |t| t.to_string());
                self.line(&format!("error: the throw in hand is {t}: play a move"))?
            }
            _ => {
                let found = if cmd.is_empty() {
                    self.s
                        .legal()
                        .first()
                        .copied()
                        .ok_or_else(|| "no legal move".to_string())
                } else {
                    self.s.find(cmd)
                };
                match found {
                    Ok(m) => {
                        let ms = self.s.move_string(m);
                        match self.s.play(m) {
                            Ok(e) => {
                                self.dirty = true;
                                let text = self.s.announce_move(p, &ms, e);
                                self.line(&text)?
                            }
                            Err(e) => self.line(&format!("error: {e}"))?,
                        }
                    }
                    Err(e) => self.line(&format!("error: {e}"))?,
                }
            }
        }
        Ok(true)
    }

    fn moves(&mut self) -> std::io::Result<()> {
        let l = move_list(&self.s);
        if l.is_empty() {
            return self.line("no throw yet");
        }
        for x in l {
            self.line(&x)?;
        }
        Ok(())
    }

    fn save(&mut self, path: &str) -> std::io::Result<()> {
        self.series_update();
        let (r, what) = match &self.series {
            Some(sp) => (sp.save(path), "series record"),
            None => (self.s.save(path), "game record"),
        };
        match r {
            Ok(()) => {
                self.file = Some(path.to_string());
                self.dirty = false;
                self.line(&format!("Saved the {what} to {path}."))
            }
            Err(e) => self.line(&format!("error: {e}")),
        }
    }

    fn load(&mut self, path: &str) -> std::io::Result<()> {
        if self.series.is_some() {
            return self.line(
                "error: load is not available during a series (senet play --load FILE resumes a series record)",
            );
        }
        let loaded = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {path}: {e}"))
            .and_then(|t| Record::from_json(&t).map_err(|e| e.to_string()))
            .and_then(|r| {
                Session::resume(r, self.setup.seats.clone(), None).map_err(|e| e.to_string())
            });
        match loaded {
            Ok(s) => {
                self.setup.rules = s.game().rules();
                self.setup.options = senet_rules::record::options_of(s.game());
                self.setup.seed = s.seed();
                self.s = s;
                self.file = Some(path.to_string());
                self.dirty = false;
                self.shown = None;
                let t = format!(
                    "Loaded {path}: resumed after {} moves.",
                    self.s.game().decisions()
                );
                self.line(&t)
            }
            Err(e) => self.line(&format!("error: {path}: {e}")),
        }
    }
}
