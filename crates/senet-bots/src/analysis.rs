//! Game analysis (issue 19): what every decision cost and how lucky every throw was.
//!
//! [`analyze`] walks a game record (`docs/notation.md`) and values it with expectimax and
//! the strongest evaluator of the rule set (the `expert` level's), at a chosen depth, with
//! exact values wherever the endgame tables cover a position ([`crate::exact`]):
//! - every decision: the win chance of the player to move with best play, the value of every
//!   legal move, the move played and the best one, and the win chance the move played lost
//!   (its [`Mark`] when the loss passes a threshold);
//! - every throw: its luck as gnubg measures it, the thrower's win chance after the throw
//!   minus the mean of that over the throw distribution (the win chance before it), every
//!   throw valued by the same search: the decision's before it (issue 55), whose value of
//!   the move played is that mean, or where that searched the throws less than `luck_depth`
//!   deep (or there is none: the first throw), a search of every throw of its own;
//! - per player ([`Summary`]): decisions with a real choice, win chance lost, inaccuracies,
//!   mistakes and blunders, the error rate in gnubg's units, luck, a luck-adjusted result and
//!   a rating band named after the bot level that plays like that ([`band`]).
//!
//! Values are win chances in `[0, 1]` (a draw counts 1/2). A throw or decision is valued
//! from the point of view of the player it belongs to; [`Note::first`] gives the first
//! player's win chance after each event, the curve of the review's graph.
//!
//! A decision with one legal move has nothing to judge: it is searched only `luck_depth + 1`
//! throws deep (where that is less than `depth`), enough to value the next throw.
//!
//! Every search depends only on its position and the options (each starts a new generation
//! of its cache: a cache carried from one decision to the next would let the node budget
//! reach other depths, and the analysis would no longer judge a move as `expert` chooses
//! one), so [`analyze`] makes a chunk's searches on the machine's cores ahead of the events
//! and gives the same analysis as [`Analyzer`]'s one event at a time on one thread.

use crate::{Bot, BotKind, BotSpec, Choice, Level};
use senet_rules::record::Event;
use senet_rules::Notation;
use senet_rules::{AnyGame, Error, Game, Move, Player, Record, RuleSet, Status, Throw};
use serde::Serialize;
use std::fmt::Write as _;

/// How deep the analysis searches.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Expectimax depth in throws of the decisions (see [`default_depth`]); of a decision
    /// with one legal move, at most `luck_depth + 1`.
    pub depth: u32,
    /// The least expectimax depth of the throws' luck. A throw after a decision is valued by
    /// that decision's search, each throw one throw less deep than it (within the budget),
    /// when that is at least this deep; otherwise every possible throw is searched this
    /// deep, so on the two-dice rule sets (up to 16 throws) one throw less than `depth`.
    pub luck_depth: u32,
    /// A node budget per search (`None`: none): a search that would exceed it answers from
    /// its deepest completed iteration, so the time per search is bounded (the server uses
    /// the `expert` level's budget).
    pub budget: Option<u64>,
}

impl Options {
    /// The default options of a rule set: the decisions searched [`default_depth`] throws
    /// deep, the luck [`default_luck_depth`], each search within the `expert` level's node
    /// budget.
    pub fn for_rules(rules: RuleSet) -> Options {
        Options {
            depth: default_depth(rules),
            luck_depth: default_luck_depth(rules),
            budget: crate::Level::Expert.budget(rules),
        }
    }

    /// The options of a rule set with the decisions searched `depth` throws deep, the luck
    /// as deep (one throw less on the two-dice rule sets), within the `expert` level's node
    /// budget.
    pub fn with_depth(rules: RuleSet, depth: u32) -> Options {
        let luck_depth = match rules {
            RuleSet::Pyramid | RuleSet::Parker => depth.saturating_sub(1),
            _ => depth,
        };
        Options {
            depth,
            luck_depth,
            budget: crate::Level::Expert.budget(rules),
        }
    }

    /// Refuses a depth past [`MAX_DEPTH`] or a luck depth past the depth.
    fn check(&self) -> Result<(), Error> {
        if self.depth > MAX_DEPTH {
            return Err(Error::Record(format!(
                "the analysis depth must be 0-{MAX_DEPTH}, not {}",
                self.depth
            )));
        }
        if self.luck_depth > self.depth {
            return Err(Error::Record(format!(
                "the luck depth must be at most the analysis depth {}, not {}",
                self.depth, self.luck_depth
            )));
        }
        Ok(())
    }
}

/// The default depth of the analysis's decisions: on the stick rule sets the `expert` level's
/// ([`crate::EXPERT_DEPTH`], within its budget), so that the analysis judges a move as the
/// strongest level chooses one (issue 34: at 3 throws its best move was an exact best in
/// 87-90% of the held-out `senat` and `houses` decisions, `expert`'s in 91-93%); 2 on pyramid
/// and parker, where a throw has up to 16 outcomes and a turn two decisions.
pub fn default_depth(rules: RuleSet) -> u32 {
    match rules {
        RuleSet::Pyramid | RuleSet::Parker => 2,
        _ => crate::EXPERT_DEPTH,
    }
}

/// The default least depth of the throws' luck ([`Options::luck_depth`]), where every
/// possible throw is searched: as deep as keeps a whole game's analysis within seconds on one
/// core (`examples/analysisbench.rs`, figures in `docs/analysis.md`). Most throws are valued
/// deeper, by the search of the decision before them: on the stick rule sets 3 or 4 throws
/// deep within the budget (only the first throw, and those after a decision whose search
/// reached 3 throws or stopped at a table's exact value, are searched 3 deep on their own);
/// on pyramid and parker 1, after a turn's last decision.
pub fn default_luck_depth(rules: RuleSet) -> u32 {
    match rules {
        RuleSet::Pyramid | RuleSet::Parker => 1,
        _ => 3,
    }
}

/// The deepest analysis accepted: the `expert` level's depth.
pub const MAX_DEPTH: u32 = crate::EXPERT_DEPTH;

/// How bad a decision was, by the win chance it lost (thresholds in [`THRESHOLDS`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = DecisionMark))]
pub enum Mark {
    /// `?!`: lost at least [`THRESHOLDS`]`[0]`.
    Inaccuracy,
    /// `?`: lost at least [`THRESHOLDS`]`[1]`.
    Mistake,
    /// `??`: lost at least [`THRESHOLDS`]`[2]`.
    Blunder,
}

impl Mark {
    /// The mark of a loss of win chance, if any.
    pub fn of(loss: f64) -> Option<Mark> {
        if loss >= THRESHOLDS[2] {
            Some(Mark::Blunder)
        } else if loss >= THRESHOLDS[1] {
            Some(Mark::Mistake)
        } else if loss >= THRESHOLDS[0] {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }

    /// The annotation symbol: `?!`, `?` or `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }
}

/// The win chance a decision must lose to be an inaccuracy, a mistake, a blunder. Chosen from
/// the measured losses of the bots (`docs/analysis.md`): `casual` makes an inaccuracy or
/// worse in 3-11% of its real choices, `expert` almost never (at most 1.2%), and a blunder
/// gives away more than the luck of an average throw.
pub const THRESHOLDS: [f64; 3] = [0.02, 0.05, 0.10];

/// A legal move and its value.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MoveValue {
    /// The move string.
    #[serde(rename = "move")]
    pub mv: String,
    /// The mover's win chance after it, with best play after.
    pub win: f64,
}

/// What the analysis says of one event of the record.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = AnalysisNote))]
pub enum Note {
    /// A throw.
    Throw {
        /// Index of the event in the record (from 0).
        event: usize,
        /// The thrower, 1 or 2.
        player: u8,
        /// The throw, e.g. `4` or `3-5`.
        throw: String,
        /// The thrower's win chance before the throw: the mean over the throw distribution.
        before: f64,
        /// The thrower's win chance after it, with best play.
        after: f64,
        /// `after - before`: positive for a good throw.
        luck: f64,
        /// The first player's win chance after the throw.
        first: f64,
    },
    /// A decision.
    Move {
        /// Index of the event in the record (from 0).
        event: usize,
        /// The decision's number in the game (from 1).
        decision: usize,
        /// The player to move, 1 or 2.
        player: u8,
        /// The position before the move.
        position: String,
        /// Every legal move with its value, best first.
        moves: Vec<MoveValue>,
        /// The move played.
        played: String,
        /// The best move (the first of equals in generator order).
        best: String,
        /// The mover's win chance with best play.
        before: f64,
        /// The mover's win chance after the move played.
        after: f64,
        /// `before - after`: the win chance the move lost (0 for the best move).
        loss: f64,
        /// Whether there was a real choice (two or more legal moves).
        choice: bool,
        /// The mark of the loss, if any.
        #[cfg_attr(feature = "openapi", schema(required = true))]
        mark: Option<Mark>,
        /// The first player's win chance after the move.
        first: f64,
    },
}

impl Note {
    /// The first player's win chance after the event.
    pub fn first(&self) -> f64 {
        match self {
            Note::Throw { first, .. } | Note::Move { first, .. } => *first,
        }
    }
}

/// One player's figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = AnalysisSummary))]
pub struct Summary {
    /// 1 or 2.
    pub player: u8,
    /// Decisions made.
    pub decisions: usize,
    /// Decisions with a real choice.
    pub choices: usize,
    /// Win chance lost over the game.
    pub lost: f64,
    /// Win chance lost per decision with a real choice.
    pub lost_per_choice: f64,
    /// gnubg's error rate: equity lost per decision with a real choice, in thousandths of a
    /// point (for a game that is only won or lost, equity is `2p - 1`: 2000 times
    /// `lost_per_choice`).
    pub error_rate: f64,
    /// Inaccuracies, mistakes, blunders.
    pub inaccuracies: usize,
    /// See `inaccuracies`.
    pub mistakes: usize,
    /// See `inaccuracies`.
    pub blunders: usize,
    /// Throws.
    pub throws: usize,
    /// The sum of the luck of the player's throws (win chance).
    pub luck: f64,
    /// The player's result (1 won, 0 lost, 1/2 drawn; unfinished: the win chance at the end).
    pub result: f64,
    /// The result with both players' luck taken out: `result - luck + opponent's luck`.
    pub luck_adjusted: f64,
    /// The rating band of the error rate ([`band`]); `None` without a real choice.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub band: Option<&'static str>,
}

/// The analysis of a game.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Analysis {
    /// The rule set ID.
    pub rules: &'static str,
    /// The search depth used.
    pub depth: u32,
    /// The first player's win chance at the start (before the first event).
    pub start: f64,
    /// A note per event of the record, in order (old `pass` moves of C7 skipped).
    pub notes: Vec<Note>,
    /// Both players' figures.
    pub players: [Summary; 2],
    /// Whether the game is over.
    pub over: bool,
}

fn pct(v: f64) -> String {
    format!("{:.1}%", 100.0 * v)
}

fn signed_pct(v: f64) -> String {
    format!("{:+.1}%", 100.0 * v)
}

impl Analysis {
    /// The readable report: a table of decisions (with the throw before each), then the summary
    /// per player.
    pub fn text(&self) -> String {
        let a = self;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{} analysed by expectimax at depth {} with the expert evaluator",
            a.rules, a.depth
        );
        let _ = writeln!(s, "player 1's win chance at the start: {}\n", pct(a.start));
        let _ = writeln!(
            s,
            "{:>4}  {:>2}  {:>5}  {:>7}  {:<10}  {:<10}  {:>6}  {:>6}  mark",
            "dec", "pl", "throw", "luck", "played", "best", "win", "lost"
        );
        let mut throw: Option<(String, f64)> = None;
        for n in &a.notes {
            match n {
                Note::Throw { throw: t, luck, .. } => throw = Some((t.clone(), *luck)),
                Note::Move {
                    decision,
                    player,
                    played,
                    best,
                    after,
                    loss,
                    mark,
                    choice,
                    ..
                } => {
                    let (t, l) = match throw.take() {
                        Some((t, l)) => (t, signed_pct(l)),
                        None => (String::new(), String::new()),
                    };
                    let best = if best == played || !choice || *loss < 0.0005 {
                        String::new()
                    } else {
                        best.clone()
                    };
                    let lost = if *loss >= 0.0005 {
                        pct(*loss)
                    } else {
                        String::new()
                    };
                    let _ = writeln!(
                    s,
                    "{decision:>4}  {player:>2}  {t:>5}  {l:>7}  {played:<10}  {best:<10}  {:>6}  {lost:>6}  {}",
                    pct(*after),
                    mark.map_or("", |m| m.symbol()),
                );
                }
            }
        }
        let _ = writeln!(s);
        s.push_str(&summary_table(&a.players));
        let _ = writeln!(
            s,
            "\nwin: the mover's win chance after the move played; lost: what it gave away against \
         the best move; marks ?! ?, ?? from {}, {}, {} lost",
            pct(THRESHOLDS[0]),
            pct(THRESHOLDS[1]),
            pct(THRESHOLDS[2]),
        );
        s
    }
}

/// The summary per player as a two-column table.
pub fn summary_table(p: &[Summary; 2]) -> String {
    let mut s = String::new();
    let row = |s: &mut String, name: &str, f: &dyn Fn(&Summary) -> String| {
        let _ = writeln!(s, "{name:<26}{:>12}{:>12}", f(&p[0]), f(&p[1]));
    };
    let _ = writeln!(s, "{:<26}{:>12}{:>12}", "", "player 1", "player 2");
    row(&mut s, "decisions", &|x| x.decisions.to_string());
    row(&mut s, "real choices", &|x| x.choices.to_string());
    row(&mut s, "win chance lost", &|x| pct(x.lost));
    row(&mut s, "lost per real choice", &|x| {
        format!("{:.2}%", 100.0 * x.lost_per_choice)
    });
    row(&mut s, "error rate (gnubg mEMG)", &|x| {
        format!("{:.1}", x.error_rate)
    });
    row(&mut s, "inaccuracies ?!", &|x| x.inaccuracies.to_string());
    row(&mut s, "mistakes ?", &|x| x.mistakes.to_string());
    row(&mut s, "blunders ??", &|x| x.blunders.to_string());
    row(&mut s, "luck", &|x| signed_pct(x.luck));
    row(&mut s, "result", &|x| pct(x.result));
    row(&mut s, "luck-adjusted result", &|x| pct(x.luck_adjusted));
    row(&mut s, "plays like", &|x| x.band.unwrap_or("-").to_string());
    s
}

/// The value of a search's best move for the player to move (`c` from a search with every
/// legal move scored, as the analyser's `choose_with(g, seed, true)` gives).
pub fn best_value(c: &Choice) -> f64 {
    c.scores
        .iter()
        .find(|s| s.0 == c.best)
        .map(|s| s.1)
        .expect("the best move is scored")
}

/// Every legal move of a search with its value for the mover, best first (equal values keep
/// generator order).
fn move_values(g: &AnyGame, c: &Choice) -> Vec<MoveValue> {
    let mut moves: Vec<MoveValue> = c
        .scores
        .iter()
        .map(|&(m, win)| MoveValue {
            mv: g.move_string(m),
            win,
        })
        .collect();
    moves.sort_by(|a, b| b.win.total_cmp(&a.win));
    moves
}

fn player_no(p: Player) -> u8 {
    p.index() as u8 + 1
}

/// A first-player value of a win chance of `p`.
fn as_first(p: Player, v: f64) -> f64 {
    if p == Player::First {
        v
    } else {
        1.0 - v
    }
}

/// The analyser's bot: expectimax at the depth with the `expert` level's evaluator and its
/// exact endgame tables ([`crate::exact::Tables::global`]: a position they cover is valued
/// exactly, and a search stops there), within `budget` nodes a search if given. The analysis
/// values with it; the calibration of the bands (`senet_coach::calibrate`) measures the bots'
/// losses against it.
pub fn analyser(depth: u32, budget: Option<u64>) -> Box<dyn Bot> {
    analyser_with(depth, budget, crate::exact::Tables::global())
}

/// [`analyser`] with `tables` instead of the process's ([`BotSpec::build_with_tables`]).
pub fn analyser_with(
    depth: u32,
    budget: Option<u64>,
    tables: &'static crate::exact::Tables,
) -> Box<dyn Bot> {
    searcher(depth, budget, tables, Level::Expert.spec().1)
}

/// [`analyser`], but valuing with the main network the trainers train and back up
/// ([`EvalKind::Tuned`](crate::EvalKind::Tuned), `nets/RULES.txt` or `$SENET_NETS`' file),
/// with the exact tables in use: `senet fvi` and `senet train --searched` label with it, so
/// that a network's targets are its own backups. On `kendall5` the analysis values with the
/// `expert` level's wide network instead (issue 55); elsewhere the two are the same.
pub fn trainer(depth: u32, budget: Option<u64>) -> Box<dyn Bot> {
    searcher(
        depth,
        budget,
        crate::exact::Tables::global(),
        crate::EvalKind::Tuned,
    )
}

fn searcher(
    depth: u32,
    budget: Option<u64>,
    tables: &'static crate::exact::Tables,
    eval: crate::EvalKind,
) -> Box<dyn Bot> {
    BotSpec {
        kind: BotKind::Expectimax(depth),
        eval,
        // The level brings the tables; the budget (unbounded unless given) replaces its own.
        level: Some(Level::Expert),
        budget: Some(budget.unwrap_or(crate::MAX_BUDGET)),
        points: false,
    }
    .build_with_tables(tables)
}

/// The value of the throw actually made and its search (exact scores).
type Actual = Option<(f64, Choice)>;

/// Every throw of `g` (awaiting one) with its chance and the thrower's win chance after it,
/// and, for throw `actual` if given, that value with its search (exact scores), which the
/// decision after the throw reuses.
fn throw_outcomes(
    bot: &mut dyn Bot,
    g: &AnyGame,
    actual: Option<Throw>,
) -> (Vec<(Throw, f64, f64)>, Actual) {
    let dist = g.throw_dist();
    let mut out = Vec::with_capacity(dist.outcomes.len());
    let mut found = None;
    for &(t, w) in dist.outcomes {
        let mut h = *g;
        h.set_throw_unchecked(t);
        let v = match h.status() {
            Status::Move(_) => {
                let c = bot.choose_with(&h, 0, Some(t) == actual);
                let v = best_value(&c);
                if Some(t) == actual {
                    found = Some((v, c));
                }
                v
            }
            // A throw that ends or passes the turn by itself (no rule set here does).
            _ => value_of(bot, &h, g.status().player().unwrap_or(Player::First)),
        };
        out.push((t, f64::from(w) / f64::from(dist.total), v));
    }
    (out, found)
}

/// The thrower's win chance of `g` (awaiting a throw): the mean over the throws; with
/// `actual`, as [`throw_outcomes`].
fn throw_values(bot: &mut dyn Bot, g: &AnyGame, actual: Option<Throw>) -> (f64, Actual) {
    let (outcomes, found) = throw_outcomes(bot, g, actual);
    (outcomes.iter().map(|&(_, p, v)| p * v).sum(), found)
}

/// The thrower's win chance of `g` (awaiting a throw), valued by `bot` (the [`analyser`]'s,
/// which scores every move): the mean over the throws of the best move's value.
pub fn thrower_value(bot: &mut dyn Bot, g: &AnyGame) -> f64 {
    throw_values(bot, g, None).0
}

/// The first player's luck of throw `t` made in `g` (awaiting a throw): the thrower's win
/// chance after it less the mean over every throw of `g`, each valued by `bot`'s best move as
/// [`thrower_value`] does, in the first player's terms. Whatever `bot` is, its mean over the
/// throws of `g` is zero, so a game's result less the sum of its throws' luck estimates the
/// same thing as the result, with less variance the better `bot` values positions
/// (`senet match --luck`).
pub fn first_player_luck(bot: &mut dyn Bot, g: &AnyGame, t: Throw) -> f64 {
    let (outcomes, _) = throw_outcomes(bot, g, None);
    let mean: f64 = outcomes.iter().map(|&(_, p, v)| p * v).sum();
    let made = outcomes.iter().find(|o| o.0 == t).map_or(mean, |o| o.2);
    let thrower = g.status().player().unwrap_or(Player::First);
    as_first(thrower, made) - as_first(thrower, mean)
}

/// The win chance of `who` in `g`, whatever `g` awaits.
fn value_of(bot: &mut dyn Bot, g: &AnyGame, who: Player) -> f64 {
    let first = match g.status() {
        Status::Over(o) => crate::eval::terminal_value(&o),
        Status::Move(p) => as_first(p, best_value(&bot.choose(g, 0))),
        Status::Throw(p) => as_first(p, throw_values(bot, g, None).0),
    };
    as_first(who, first)
}

/// Analyses a game record. `progress(done, total)` is called before each event.
///
/// The record is replayed and checked first: a bad record gives the replay's error.
///
/// The searches run on the machine's cores ([`analyze_on`] with [`threads`]): each search
/// depends only on its position and the options, so the analysis is the same on any number
/// of threads, and the same as [`Analyzer`]'s one event at a time.
pub fn analyze(
    rec: &Record,
    opt: &Options,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Analysis, Error> {
    analyze_on(rec, opt, threads(), progress)
}

/// [`analyze`] on `threads` threads (1: on the calling thread alone). The events are taken
/// in chunks: the searches of a chunk's decisions, then those of its throws that the
/// decisions before them did not value, run on the threads; then the chunk's events are
/// analysed in order with the searches made.
pub fn analyze_on(
    rec: &Record,
    opt: &Options,
    threads: usize,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Analysis, Error> {
    let mut a = Analyzer::new(rec, opt)?;
    let total = a.total();
    let threads = threads.max(1);
    let chunk = CHUNK_PER_THREAD * threads;
    while a.done() < total {
        let end = (a.done() + chunk).min(total);
        if threads > 1 {
            a.search_ahead(end, threads);
        }
        while a.done() < end {
            progress(a.done(), total);
            a.step()?;
        }
    }
    progress(total, total);
    a.finish()
}

/// Events per thread in one chunk of [`analyze_on`]: enough that the threads' last searches
/// of a chunk, which wait for each other, cost little; few enough that progress is reported
/// often (a kendall5 game has about 360 events).
const CHUNK_PER_THREAD: usize = 32;

/// The most threads [`analyze`] uses: each holds its own searchers' caches (about 10 MB a
/// thread on kendall5), and a server analyses several games at once.
pub const MAX_THREADS: usize = 4;

/// The threads [`analyze`] uses: the machine's cores, at most [`MAX_THREADS`]; 1 in
/// WebAssembly.
pub fn threads() -> usize {
    #[cfg(target_arch = "wasm32")]
    {
        1
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS))
    }
}

/// The values of every throw of a position awaiting one, from the search of the decision
/// that led to it ([`Choice::outcomes`]): the luck of the throw made there needs no search
/// of its own.
struct KnownThrows {
    /// The position (awaiting a throw).
    g: AnyGame,
    /// How deep each throw was searched: one throw less than the decision's search.
    depth: u32,
    /// Each throw's value for the first player, in the order of `g.throw_dist()`.
    first: Vec<f64>,
}

/// The values of the throws of `after`, the position after move `m` of the decision that
/// `c` searched, if the search valued them.
fn known_throws(c: &Choice, m: Move, after: &AnyGame) -> Option<KnownThrows> {
    if !matches!(after.status(), Status::Throw(_)) {
        return None;
    }
    let i = c.scores.iter().position(|s| s.0 == m)?;
    let first = c.outcomes.get(i)?.clone()?;
    let depth = c.depth?.checked_sub(1)?;
    (first.len() == after.throw_dist().outcomes.len()).then_some(KnownThrows {
        g: *after,
        depth,
        first,
    })
}

/// A search made ahead of [`Analyzer::step`] ([`analyze_on`]'s threads), by event.
enum Ahead {
    /// A decision's search (exact scores).
    Decision(Choice),
    /// A throw's luck, every throw searched ([`throw_outcomes`] with the throw made).
    Luck(Vec<(Throw, f64, f64)>, Actual),
}

/// One thread's searchers ([`analyser`]s): the decisions', and the luck's and the one-move
/// decisions' when they search less deep.
struct Searchers {
    /// The decisions' ([`Options::depth`]).
    bot: Box<dyn Bot>,
    /// The throws searched one by one, `luck_depth` deep (when less than `depth`).
    luck: Option<Box<dyn Bot>>,
    /// The decisions with one legal move, `luck_depth + 1` deep (when less than `depth`):
    /// they have nothing to judge, and their search values the next throw as deep as the luck
    /// needs.
    single: Option<Box<dyn Bot>>,
}

impl Searchers {
    fn new(opt: &Options) -> Searchers {
        let at = |depth: u32| (depth < opt.depth).then(|| analyser(depth, opt.budget));
        Searchers {
            bot: analyser(opt.depth, opt.budget),
            luck: at(opt.luck_depth),
            single: at(opt.luck_depth + 1),
        }
    }

    /// The luck's searcher.
    fn luck(&mut self) -> &mut dyn Bot {
        self.luck.as_deref_mut().unwrap_or(self.bot.as_mut())
    }

    /// The search of a decision, with exact scores.
    fn decide(&mut self, g: &AnyGame) -> Choice {
        let bot = match &mut self.single {
            Some(single) if one_move(g) => single,
            _ => &mut self.bot,
        };
        bot.choose_with(g, 0, true)
    }
}

/// Whether `g` (awaiting a move) has one legal move.
fn one_move(g: &AnyGame) -> bool {
    let mut ms = senet_rules::MoveList::new();
    g.legal_moves(&mut ms);
    ms.len() == 1
}

/// A job of [`Analyzer::search_ahead`]: an event, the position before it, the throw made.
enum Job {
    Decision(usize, AnyGame),
    Luck(usize, AnyGame, Throw),
}

/// Runs `jobs` on the workers' threads (the calling thread being the first), each worker
/// taking the next job left; the results by job. (Never called in WebAssembly, which has no
/// threads: [`threads`] is 1 there.)
fn run_jobs(mut workers: Vec<&mut Searchers>, jobs: &[Job]) -> Vec<(usize, Ahead)> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let work = |w: &mut Searchers| {
        let mut out = Vec::new();
        loop {
            let j = next.fetch_add(1, Ordering::Relaxed);
            let Some(job) = jobs.get(j) else {
                return out;
            };
            out.push(match *job {
                Job::Decision(i, g) => (i, Ahead::Decision(w.decide(&g))),
                Job::Luck(i, g, t) => {
                    let (o, found) = throw_outcomes(w.luck(), &g, Some(t));
                    (i, Ahead::Luck(o, found))
                }
            });
        }
    };
    let (first, rest) = workers.split_first_mut().expect("a worker");
    std::thread::scope(|s| {
        let handles: Vec<_> = rest
            .iter_mut()
            .take(jobs.len().saturating_sub(1))
            .map(|w| s.spawn(|| work(w)))
            .collect();
        let mut out = work(first);
        for h in handles {
            out.extend(h.join().expect("an analysis thread"));
        }
        out
    })
}

/// A game's analysis made one event at a time, for a caller that shows progress between
/// events without a callback (the WebAssembly engine answers the page in chunks): [`analyze`]
/// is `new`, then `step` until `done() == total()`, then `finish`, so both give the same
/// analysis (each search depends only on its position, whichever thread made it and when).
pub struct Analyzer {
    rec: Record,
    opt: Options,
    start: AnyGame,
    /// The searchers of [`Analyzer::step`], and of the first of [`analyze_on`]'s threads.
    searchers: Searchers,
    g: AnyGame,
    first_at_start: f64,
    notes: Vec<Note>,
    /// The exact search of the position right after the last throw, when the luck searched
    /// every throw at the decisions' depth: its decision reuses it.
    after_throw: Option<(AnyGame, Choice)>,
    /// The throws of the position after the last move, valued by its decision's search: the
    /// next throw's luck when they were searched at least `luck_depth` deep.
    known: Option<KnownThrows>,
    /// Searches made ahead by [`analyze_on`]'s threads, by event.
    ahead: Vec<Option<Ahead>>,
    /// The searchers of [`analyze_on`]'s other threads, made on first use.
    helpers: Vec<Searchers>,
    decision: usize,
    next: usize,
}

impl Analyzer {
    /// Checks the options, replays and checks the record (a bad record gives the replay's
    /// error) and values the start; no event is analysed yet.
    pub fn new(rec: &Record, opt: &Options) -> Result<Analyzer, Error> {
        opt.check()?;
        rec.replay()?;
        let start = rec.start_position()?;
        let mut searchers = Searchers::new(opt);
        let first_at_start = value_of(searchers.luck(), &start, Player::First);
        Ok(Analyzer {
            rec: rec.clone(),
            opt: *opt,
            start,
            searchers,
            g: start,
            first_at_start,
            notes: Vec::with_capacity(rec.events.len()),
            after_throw: None,
            known: None,
            ahead: Vec::new(),
            helpers: Vec::new(),
            decision: 0,
            next: 0,
        })
    }

    /// The events of the record.
    pub fn total(&self) -> usize {
        self.rec.events.len()
    }

    /// The events analysed so far.
    pub fn done(&self) -> usize {
        self.next
    }

    /// Makes on `threads` threads the searches that [`Analyzer::step`] will need for the
    /// events up to `end` (exclusive): first the decisions' (each needs only its position),
    /// then the luck of the throws that the decisions before them did not value. A search
    /// made ahead is the one `step` would make, so the analysis is the same.
    fn search_ahead(&mut self, end: usize, threads: usize) {
        let from = self.next;
        let end = end.min(self.rec.events.len());
        // The position before each event, and the throws and moves made.
        let mut g = self.g;
        let mut before = Vec::with_capacity(end - from);
        let mut made: Vec<Option<Result<Throw, Move>>> = Vec::with_capacity(end - from);
        for i in from..end {
            before.push(g);
            let m = match &self.rec.events[i] {
                Event::Throw { throw } => Throw::parse(throw)
                    .ok()
                    .filter(|&t| g.set_throw(t).is_ok())
                    .map(|t| Some(Ok(t))),
                Event::Move { .. } if self.rec.legacy_pass_at(&g, i) => {
                    senet_rules::play_legacy_pass(&mut g);
                    Some(None)
                }
                Event::Move { mv } => g.parse_move(mv).ok().map(|m| {
                    g.play_unchecked(m);
                    Some(Err(m))
                }),
            };
            // (The replay checked the record; were it bad, `step` would say so.)
            let Some(m) = m else { break };
            made.push(m);
        }
        if self.ahead.len() < self.rec.events.len() {
            self.ahead.resize_with(self.rec.events.len(), || None);
        }
        while self.helpers.len() + 1 < threads {
            self.helpers.push(Searchers::new(&self.opt));
        }
        let shallower = self.opt.luck_depth != self.opt.depth;
        // The decisions, but those that will reuse the search of their throw (the luck at the
        // decisions' depth).
        let reuses = |k: usize| {
            !shallower
                && match k.checked_sub(1) {
                    Some(k) => matches!(made[k], Some(Ok(_))),
                    None => matches!(&self.after_throw, Some((h, _)) if *h == before[0]),
                }
        };
        let decisions: Vec<Job> = (made.iter().enumerate())
            .filter(|&(k, m)| matches!(m, Some(Err(_))) && !reuses(k))
            .map(|(k, _)| Job::Decision(from + k, before[k]))
            .collect();
        for (i, a) in run_jobs(self.searchers_of(threads), &decisions) {
            self.ahead[i] = Some(a);
        }
        // The throws whose values the decision before them did not give.
        let mut luck = Vec::new();
        for (k, m) in made.iter().enumerate() {
            let Some(Ok(t)) = *m else { continue };
            let known = if k == 0 {
                self.known
                    .as_ref()
                    .filter(|n| n.g == before[0])
                    .map(|n| n.depth)
            } else {
                match (&made[k - 1], &self.ahead[from + k - 1]) {
                    (Some(Err(m)), Some(Ahead::Decision(c))) => {
                        known_throws(c, *m, &before[k]).map(|n| n.depth)
                    }
                    _ => None,
                }
            };
            if known.is_none_or(|d| d < self.opt.luck_depth) {
                luck.push(Job::Luck(from + k, before[k], t));
            }
        }
        for (i, a) in run_jobs(self.searchers_of(threads), &luck) {
            self.ahead[i] = Some(a);
        }
    }

    /// The searchers of `threads` threads: the analyser's own, then its helpers'.
    fn searchers_of(&mut self, threads: usize) -> Vec<&mut Searchers> {
        let helpers = self.helpers.iter_mut().take(threads - 1);
        std::iter::once(&mut self.searchers)
            .chain(helpers)
            .collect()
    }

    /// Analyses the next event, if any is left.
    pub fn step(&mut self) -> Result<(), Error> {
        let i = self.next;
        let Some(e) = self.rec.events.get(i) else {
            return Ok(());
        };
        self.next += 1;
        let ahead = self.ahead.get_mut(i).and_then(Option::take);
        let g = &mut self.g;
        match e {
            Event::Throw { throw } => {
                let t = Throw::parse(throw)?;
                let Status::Throw(p) = g.status() else {
                    unreachable!("the replay checked the record");
                };
                // Valued by the decision before it, or every throw searched.
                let known = self
                    .known
                    .take()
                    .filter(|k| k.g == *g && k.depth >= self.opt.luck_depth)
                    .and_then(|k| {
                        let dist = g.throw_dist();
                        let i = dist.outcomes.iter().position(|&(u, _)| u == t)?;
                        // (The mean as the search's chance node sums it: the value of the
                        // move before, so the thrower's win chance does not jump there.)
                        let total = f64::from(dist.total);
                        let mean: f64 = (dist.outcomes.iter().zip(&k.first))
                            .map(|(&(_, w), v)| f64::from(w) / total * v)
                            .sum();
                        Some((as_first(p, mean), as_first(p, k.first[i])))
                    });
                let (before, after) = match known {
                    Some(v) => {
                        g.set_throw(t)?;
                        v
                    }
                    None => {
                        let shallower = self.searchers.luck.is_some();
                        let luck = self.searchers.luck();
                        let (outcomes, found) = match ahead {
                            Some(Ahead::Luck(o, found)) => (o, found),
                            _ => throw_outcomes(luck, g, Some(t)),
                        };
                        let before = outcomes.iter().map(|&(_, p, v)| p * v).sum();
                        g.set_throw(t)?;
                        let after = match found {
                            Some((v, c)) => {
                                if !shallower {
                                    self.after_throw = Some((*g, c));
                                }
                                v
                            }
                            None => value_of(luck, g, p),
                        };
                        (before, after)
                    }
                };
                self.notes.push(Note::Throw {
                    event: i,
                    player: player_no(p),
                    throw: t.to_string(),
                    before,
                    after,
                    luck: after - before,
                    first: as_first(p, after),
                });
            }
            Event::Move { mv } => {
                if self.rec.legacy_pass_at(g, i) {
                    // C7: counted as the decision it was when the record was written.
                    senet_rules::play_legacy_pass(g);
                    return Ok(());
                }
                let Status::Move(p) = g.status() else {
                    unreachable!("the replay checked the record");
                };
                let m = g.parse_move(mv)?;
                let c = match (self.after_throw.take(), ahead) {
                    (Some((h, c)), _) if h == *g => c,
                    (_, Some(Ahead::Decision(c))) => c,
                    _ => self.searchers.decide(g),
                };
                let before = best_value(&c);
                let moves = move_values(g, &c);
                let after = c
                    .scores
                    .iter()
                    .find(|s| s.0 == m)
                    .map(|s| s.1)
                    .expect("the played move is legal");
                let loss = (before - after).max(0.0);
                let choice = c.scores.len() > 1;
                self.decision += 1;
                let position = g.position();
                let best = g.move_string(c.best);
                let played = g.move_string(m);
                g.play_unchecked(m);
                self.known = known_throws(&c, m, g);
                self.notes.push(Note::Move {
                    event: i,
                    decision: self.decision,
                    player: player_no(p),
                    position,
                    moves,
                    played,
                    best,
                    before,
                    after,
                    loss,
                    choice,
                    mark: if choice { Mark::of(loss) } else { None },
                    first: as_first(p, after),
                });
            }
        }
        Ok(())
    }

    /// The analysis, once every event is analysed (those left are analysed first).
    pub fn finish(mut self) -> Result<Analysis, Error> {
        while self.next < self.rec.events.len() {
            self.step()?;
        }
        let g = self.g;
        let notes = self.notes;
        let over = matches!(g.status(), Status::Over(_));
        let end = match g.status() {
            Status::Over(o) => crate::eval::terminal_value(&o),
            _ => notes.last().map_or(self.first_at_start, Note::first),
        };
        let rules = self.start.rules();
        let players = [
            summary(Player::First, &notes, end, rules),
            summary(Player::Second, &notes, end, rules),
        ];
        Ok(Analysis {
            rules: rules.id(),
            depth: self.opt.depth,
            start: self.first_at_start,
            notes,
            players,
            over,
        })
    }
}

fn summary(p: Player, notes: &[Note], end_first: f64, rules: RuleSet) -> Summary {
    let no = player_no(p);
    let mut s = Summary {
        player: no,
        decisions: 0,
        choices: 0,
        lost: 0.0,
        lost_per_choice: 0.0,
        error_rate: 0.0,
        inaccuracies: 0,
        mistakes: 0,
        blunders: 0,
        throws: 0,
        luck: 0.0,
        result: as_first(p, end_first),
        luck_adjusted: 0.0,
        band: None,
    };
    let mut their_luck = 0.0;
    for n in notes {
        match n {
            Note::Throw { player, luck, .. } => {
                if *player == no {
                    s.throws += 1;
                    s.luck += luck;
                } else {
                    their_luck += luck;
                }
            }
            Note::Move {
                player,
                loss,
                choice,
                mark,
                ..
            } if *player == no => {
                s.decisions += 1;
                s.lost += loss;
                if *choice {
                    s.choices += 1;
                }
                match mark {
                    Some(Mark::Inaccuracy) => s.inaccuracies += 1,
                    Some(Mark::Mistake) => s.mistakes += 1,
                    Some(Mark::Blunder) => s.blunders += 1,
                    None => {}
                }
            }
            Note::Move { .. } => {}
        }
    }
    if s.choices > 0 {
        s.lost_per_choice = s.lost / s.choices as f64;
        s.error_rate = 2000.0 * s.lost_per_choice;
        s.band = Some(band(rules, s.lost_per_choice));
    }
    s.luck_adjusted = s.result - s.luck + their_luck;
    s
}

/// The measured win chance lost per real choice of each rating band's bot, per rule set:
/// `random`, `beginner`, `casual`, `strong`, `expert`, on the same positions for every bot
/// (`senet analyze --calibrate`, `senet_coach::calibrate`; the table and its method in
/// `docs/analysis.md`).
pub fn band_rates(rules: RuleSet) -> [f64; 5] {
    // `senet analyze --calibrate --games 4 --positions 1000` (docs/analysis.md).
    match rules {
        RuleSet::Kendall => [0.00347, 0.00439, 0.00331, 0.00028, 0.00000],
        RuleSet::Kendall5 => [0.00544, 0.00496, 0.00286, 0.00046, 0.00000],
        RuleSet::Senat => [0.01302, 0.01387, 0.01078, 0.00014, 0.00000],
        RuleSet::Houses => [0.00920, 0.01075, 0.00694, 0.00046, 0.00000],
        RuleSet::Pyramid => [0.05012, 0.01891, 0.01563, 0.00207, 0.00034],
        RuleSet::Parker => [0.04594, 0.02152, 0.00632, 0.00316, 0.00023],
    }
}

/// The names of the bands, weakest first.
pub const BANDS: [&str; 5] = ["random", "beginner", "casual", "strong", "expert"];

/// The rating band of a win chance lost per real choice on a rule set: the strongest band
/// whose boundary it stays within, the boundaries being the geometric means of neighbouring
/// bands' measured rates ([`band_rates`]). Where a weaker bot measured a lower rate than a
/// stronger one (the weak levels of the stick rule sets lie within each other's intervals),
/// the weaker takes the stronger's rate, so that the bands stay in order; rates below
/// 0.00001, a loss the analysis cannot tell from none, count as 0.00001.
pub fn band(rules: RuleSet, lost_per_choice: f64) -> &'static str {
    let mut rates = band_rates(rules).map(|r| r.max(1e-5));
    for i in (0..rates.len() - 1).rev() {
        rates[i] = rates[i].max(rates[i + 1]);
    }
    let r = lost_per_choice.max(1e-5);
    let mut b = 0;
    for i in 1..rates.len() {
        if r <= (rates[i - 1] * rates[i]).sqrt() {
            b = i;
        }
    }
    BANDS[b]
}

/// A throw of a position awaiting one, valued ([`value_position`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ThrowValue {
    /// The throw, e.g. `4` or `3-5`.
    pub throw: String,
    /// Its chance.
    pub chance: f64,
    /// The thrower's win chance after it, with best play.
    pub win: f64,
    /// Its luck: `win` minus the thrower's win chance before the throw.
    pub luck: f64,
}

/// The value of one position ([`value_position`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PositionValue {
    /// The position string.
    pub position: String,
    /// What it awaits: `throw`, `move` or `over`.
    pub awaits: &'static str,
    /// The player to throw or move, 1 or 2.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub player: Option<u8>,
    /// The decisions' search depth.
    pub depth: u32,
    /// The win chance of the player to act with best play (before a throw: the mean over the
    /// throws); of the first player when the game is over.
    pub win: f64,
    /// The first player's win chance.
    pub first: f64,
    /// Awaiting a move: every legal move with the mover's win chance after it, best first.
    pub moves: Vec<MoveValue>,
    /// Awaiting a move: the best move.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub best: Option<String>,
    /// Awaiting a throw: every throw with its chance, value and luck.
    pub throws: Vec<ThrowValue>,
}

/// What `POST /api/value` of `senet serve` answers, and the page's engine the same: the
/// position (with `throw` set when given; refused when it already holds one), valued by
/// [`value_position`] with the rule set's default options, or the decisions searched
/// `depth` throws deep (at most the default depth), within the `expert` level's node budget,
/// shared by the throws when a throw is awaited. A refusal in words.
pub fn value_bounded(
    position: &str,
    throw: Option<&str>,
    depth: Option<u32>,
) -> Result<PositionValue, String> {
    let bad = |e: Error| e.to_string();
    let mut g: AnyGame = position.parse().map_err(bad)?;
    if let Some(t) = throw {
        if !matches!(g.status(), Status::Throw(_)) {
            return Err(format!(
                "the position already holds a throw ({}): leave out \"throw\"",
                g.in_hand().map_or("-".into(), |t| t.to_string())
            ));
        }
        g.set_throw(Throw::parse(t).map_err(bad)?).map_err(bad)?;
    }
    let rules = g.rules();
    let mut opt = Options::for_rules(rules);
    if let Some(d) = depth {
        if d > opt.depth {
            return Err(format!(
                "depth must be at most {} on {}",
                opt.depth,
                rules.id()
            ));
        }
        opt = Options {
            budget: opt.budget,
            ..Options::with_depth(rules, d)
        };
    }
    if let (Status::Throw(_), Some(b)) = (g.status(), opt.budget) {
        // Every throw is searched: share the budget.
        opt.budget = Some((b / g.throw_dist().outcomes.len() as u64).max(1000));
    }
    value_position(&g, &opt).map_err(bad)
}

/// Values a position: awaiting a move, every legal move (exact at the depth); awaiting a
/// throw, every throw and its luck (searched at `opt.luck_depth`).
pub fn value_position(g: &AnyGame, opt: &Options) -> Result<PositionValue, Error> {
    opt.check()?;
    let mut v = PositionValue {
        position: g.position(),
        awaits: "over",
        player: g.status().player().map(player_no),
        depth: opt.depth,
        win: 0.0,
        first: 0.0,
        moves: Vec::new(),
        best: None,
        throws: Vec::new(),
    };
    match g.status() {
        Status::Over(o) => {
            v.win = crate::eval::terminal_value(&o);
            v.first = v.win;
        }
        Status::Move(p) => {
            let c = analyser(opt.depth, opt.budget).choose_with(g, 0, true);
            v.awaits = "move";
            v.win = best_value(&c);
            v.first = as_first(p, v.win);
            v.best = Some(g.move_string(c.best));
            v.moves = move_values(g, &c);
        }
        Status::Throw(p) => {
            let mut bot = analyser(opt.luck_depth, opt.budget);
            let (outcomes, _) = throw_outcomes(bot.as_mut(), g, None);
            v.awaits = "throw";
            v.win = outcomes.iter().map(|&(_, p, w)| p * w).sum();
            v.throws = outcomes
                .into_iter()
                .map(|(t, chance, win)| ThrowValue {
                    throw: t.to_string(),
                    chance,
                    win,
                    luck: win - v.win,
                })
                .collect();
            v.first = as_first(p, v.win);
        }
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// A record from `start` of `events` (throws and moves as strings).
    fn record(start: &AnyGame, events: &[String]) -> Record {
        let mut rec = Record::new(start, None);
        let mut g = *start;
        for e in events {
            if matches!(g.status(), Status::Throw(_)) {
                let t = Throw::parse(e).expect("a throw");
                g.set_throw(t).expect("a legal throw");
                rec.push_throw(t);
            } else {
                g.play(g.parse_move(e).expect("a move"))
                    .expect("a legal move");
                rec.push_move(e.clone());
            }
        }
        rec.finish(&g);
        rec
    }

    /// The first `n` events of a game of random moves and throws.
    fn random_events(start: &AnyGame, n: usize, seed: u64) -> Vec<String> {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
        let mut g = *start;
        let mut out = Vec::new();
        while out.len() < n {
            match g.status() {
                Status::Throw(_) => {
                    let t = g.sample_throw(rng.random());
                    g.set_throw(t).expect("a sampled throw");
                    out.push(t.to_string());
                }
                Status::Move(_) => {
                    let mut ms = senet_rules::MoveList::new();
                    g.legal_moves(&mut ms);
                    let m = ms[rng.random_range(0..ms.len())];
                    out.push(g.move_string(m));
                    g.play_unchecked(m);
                }
                Status::Over(_) => break,
            }
        }
        out
    }

    /// The searches are made on several threads in chunks or one event at a time, and the
    /// analysis is the same.
    #[test]
    fn the_analysis_is_the_same_on_any_number_of_threads_and_step_by_step() {
        let start = AnyGame::new(RuleSet::Kendall5, &[] as &[&str]).expect("kendall5");
        let rec = record(&start, &random_events(&start, 140, 5));
        let opt = Options::for_rules(RuleSet::Kendall5);
        let one = analyze_on(&rec, &opt, 1, &mut |_, _| {}).expect("a record");
        let mut seen = Vec::new();
        let two = analyze_on(&rec, &opt, 2, &mut |d, t| seen.push((d, t))).expect("a record");
        assert_eq!(one, two);
        assert_eq!(
            seen.len(),
            rec.events.len() + 1,
            "progress before each event and at the end"
        );
        assert!(seen.windows(2).all(|w| w[1].0 == w[0].0 + 1));
        assert_eq!(
            analyze_on(&rec, &opt, 3, &mut |_, _| {}).expect("a record"),
            one
        );
        let mut a = Analyzer::new(&rec, &opt).expect("a record");
        while a.done() < a.total() {
            a.step().expect("a record");
        }
        assert_eq!(a.finish().expect("a record"), one);
        // With the luck as deep as the decisions (no throw is valued by the decision before).
        let opt = Options::with_depth(RuleSet::Kendall5, 2);
        let one = analyze_on(&rec, &opt, 1, &mut |_, _| {}).expect("a record");
        assert_eq!(
            analyze_on(&rec, &opt, 2, &mut |_, _| {}).expect("a record"),
            one
        );
    }

    /// A throw after a decision is valued by that decision's search, each throw one throw
    /// less deep than the search: the thrower's win chance before it is the value of the move
    /// played (no jump in the curve), and the luck of every throw, weighted by its chance,
    /// sums to zero.
    #[test]
    fn a_throw_is_valued_by_the_search_of_the_decision_before_it() {
        let start: AnyGame =
            "kendall5 ..O.O...XO.OX......X...X...... off=1,1 turn=2 throw=- dec=55"
                .parse()
                .expect("a position");
        let opt = Options::for_rules(RuleSet::Kendall5);
        let mut h = start;
        h.set_throw(Throw::single(4)).expect("a throw");
        let c = analyser(opt.depth, opt.budget).choose_with(&h, 0, true);
        let m = h.parse_move("5-9").expect("a move");
        h.play(m).expect("a legal move");
        let known = known_throws(&c, m, &h).expect("the throws valued");
        assert!(
            known.depth >= opt.luck_depth,
            "searched {} deep",
            known.depth
        );
        let dist = h.throw_dist();
        let mut sum = 0.0;
        for &(t, w) in dist.outcomes {
            let rec = record(&start, &["4".into(), "5-9".into(), t.to_string()]);
            let a = analyze_on(&rec, &opt, 1, &mut |_, _| {}).expect("a record");
            let Note::Move { first, .. } = a.notes[1] else {
                unreachable!()
            };
            let Note::Throw {
                player,
                before,
                after,
                luck,
                ..
            } = a.notes[2]
            else {
                unreachable!()
            };
            let p = if player == 1 {
                Player::First
            } else {
                Player::Second
            };
            assert!((as_first(p, before) - first).abs() < 1e-12, "{t}");
            assert!((luck - (after - before)).abs() < 1e-12);
            sum += f64::from(w) * luck;
        }
        assert!(
            (sum / f64::from(dist.total)).abs() < 1e-12,
            "mean luck {sum}"
        );
    }
}
