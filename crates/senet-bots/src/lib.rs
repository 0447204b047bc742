//! # senet-bots
//!
//! Computer opponents for every rule set of [`senet_rules`]: what a game needs at run time.
//! Measuring and training them (duplicate matches, the ladder, the trainers, timing) is the
//! crate `senet-coach`, which the terminal and the server do not build.
//!
//! - [`Bot`]: picks a move and scores every legal move. Bots are deterministic for a given
//!   position, throw, seed and budget (budgets are in nodes or iterations, never wall time).
//! - Bots by name ([`BotSpec`]): `random`, `greedy`, `expectimax:N` (N throws deep,
//!   [`search`]), `mcts:N` (N iterations, [`mcts`]), and the levels `beginner`, `casual`,
//!   `strong`, `expert` (see [`Level`]). A suffix `@census` or `@hand` swaps the tuned
//!   evaluator for the generic one or the hand-set one (for comparisons); on `kendall5`,
//!   `@tuned` and `@wide` choose between its two networks ([`EvalKind`]).
//! - Evaluators ([`eval`]): the first player's win chance of a position; per rule set
//!   ([`track`]) with a generic fallback ([`eval::Census`]) that any new rule set gets at once.
//! - [`exact`]: the exact endgame tables; [`analysis`]: the game analysis; [`play`]: the
//!   adapter the terminal and the server call bots through.
//!
//! ```
//! use senet_bots::{BotSpec, Bot};
//! use senet_rules::{AnyGame, Game, Throw};
//!
//! let mut g: AnyGame = "kendall5 XOXOXOXOXO.................... off=0,0 turn=1 throw=- dec=0"
//!     .parse().unwrap();
//! g.set_throw(Throw::single(5)).unwrap();
//! let mut bot = "expectimax:1".parse::<BotSpec>().unwrap().build();
//! let c = bot.choose(&g, 7);
//! assert_eq!(c.scores.len(), 5);
//! assert!(c.scores.iter().all(|s| (0.0..=1.0).contains(&s.1)));
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod analysis;
pub mod eval;
pub mod exact;
pub mod fnet;
pub mod mcts;
pub mod net;
pub mod parker;
pub mod play;
pub mod puzzle;
pub mod pyramid;
pub mod search;
pub mod simd;
pub mod track;
pub mod weights;

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use search::{SearchOptions, Searcher};
use senet_rules::{AnyGame, Game, Move, MoveList, Player, Status};
use std::any::Any;
use std::fmt;
use std::str::FromStr;

/// Which evaluator a bot uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EvalKind {
    /// The best evaluator of the rule set (trained weights where there are some).
    Tuned,
    /// The hand-set weights of the rule set's evaluator (falls back like `Tuned`).
    Hand,
    /// On the track rule sets, the trained linear evaluator that the network grew from
    /// (elsewhere the same as `Tuned`).
    Linear,
    /// The generic census evaluator, whatever the rule set.
    Census,
    /// On `kendall5`, the reference network that issue 18's strength bar is measured
    /// against: the main network of 2026-11-22 alone (no endgame network), frozen in
    /// `nets/kendall5-ref.txt` and never replaced by `$SENET_NETS`, so that a retrained
    /// network can play it in one match. On `kendall`, `senat` and `houses`, their 16-unit
    /// main networks of before issue 55 (`nets/RULES-ref.txt`, also never replaced) with the
    /// endgame networks in use (elsewhere the same as `Tuned`).
    Reference,
    /// On `kendall5`, the wide network that the `expert` level and the analysis search with
    /// (issue 55: 256 hidden units, `nets/kendall5-wide.txt`), with the same endgame
    /// networks as `Tuned`; the other bots keep the 64-unit network, whose search is as fast
    /// as the published kendall5 engine's (elsewhere the same as `Tuned`).
    Wide,
}

/// Runs `$body` with `$g` bound to the concrete game inside an [`AnyGame`] and `$e` to the
/// evaluator chosen by an [`EvalKind`], so that the body is compiled per rule set. `$g` is
/// the root of what `$body` searches: the trained networks choose by it whether their
/// four-piece endgame network takes part ([`weights::Rooted`]).
///
/// Adding a rule set's evaluator is one line here (and its `impl Evaluator`); a rule set
/// without a line gets [`eval::Census`], so a newly merged rule set works with every bot
/// without any change in this crate.
#[macro_export]
macro_rules! dispatch {
    ($any:expr, $kind:expr, $g:ident, $e:ident => $body:expr) => {{
        #[allow(unused_imports)]
        use $crate::EvalKind as K;
        match ($any, $kind) {
            (_, K::Census) => {
                senet_rules::with_game!($any, $g => { let $e = &$crate::eval::Census; $body })
            }
            (senet_rules::AnyGame::Kendall5($g), K::Tuned) => {
                let $e = $crate::weights::KENDALL5_ROOTED.for_root($g);
                $body
            }
            (senet_rules::AnyGame::Kendall5($g), K::Wide) => {
                let $e = $crate::weights::KENDALL5_WIDE_ROOTED.for_root($g);
                $body
            }
            (senet_rules::AnyGame::Kendall5($g), K::Reference) => {
                let $e = &*$crate::weights::KENDALL5_REF;
                $body
            }
            (senet_rules::AnyGame::Kendall5($g), K::Linear) => {
                let $e = &$crate::weights::KENDALL5;
                $body
            }
            (senet_rules::AnyGame::Kendall5($g), K::Hand) => {
                let $e = &$crate::weights::KENDALL5_HAND;
                $body
            }
            (senet_rules::AnyGame::Kendall($g), K::Tuned | K::Wide) => {
                let $e = $crate::weights::KENDALL_ROOTED.for_root($g);
                $body
            }
            (senet_rules::AnyGame::Kendall($g), K::Reference) => {
                let $e = $crate::weights::KENDALL_REF_ROOTED.for_root($g);
                $body
            }
            (senet_rules::AnyGame::Kendall($g), K::Linear) => {
                let $e = &$crate::weights::KENDALL;
                $body
            }
            (senet_rules::AnyGame::Kendall($g), K::Hand) => {
                let $e = &$crate::weights::KENDALL_HAND;
                $body
            }
            (senet_rules::AnyGame::Senat($g), K::Tuned | K::Wide) => {
                let $e = $crate::weights::SENAT_ROOTED.for_root($g);
                $body
            }
            (senet_rules::AnyGame::Senat($g), K::Reference) => {
                let $e = $crate::weights::SENAT_REF_ROOTED.for_root($g);
                $body
            }
            (senet_rules::AnyGame::Senat($g), K::Linear) => {
                let $e = &$crate::weights::SENAT;
                $body
            }
            (senet_rules::AnyGame::Senat($g), K::Hand) => {
                let $e = &$crate::weights::SENAT_HAND;
                $body
            }
            (senet_rules::AnyGame::Houses($g), K::Tuned | K::Wide) => {
                let $e = $crate::weights::HOUSES_ROOTED.for_root($g);
                $body
            }
            (senet_rules::AnyGame::Houses($g), K::Reference) => {
                let $e = $crate::weights::HOUSES_REF_ROOTED.for_root($g);
                $body
            }
            (senet_rules::AnyGame::Houses($g), K::Linear) => {
                let $e = &$crate::weights::HOUSES;
                $body
            }
            (senet_rules::AnyGame::Houses($g), K::Hand) => {
                let $e = &$crate::weights::HOUSES_HAND;
                $body
            }
            (senet_rules::AnyGame::Pyramid($g), K::Tuned | K::Reference | K::Wide) => match &*$crate::weights::PYRAMID_NET {
                Some($e) => $body,
                None => {
                    let $e = &$crate::pyramid::PYRAMID;
                    $body
                }
            },
            (senet_rules::AnyGame::Pyramid($g), _) => {
                let $e = &$crate::pyramid::PYRAMID;
                $body
            }
            (senet_rules::AnyGame::Parker($g), K::Tuned | K::Reference | K::Wide) => match &*$crate::weights::PARKER_NET {
                Some($e) => $body,
                None => {
                    let $e = &$crate::parker::PARKER;
                    $body
                }
            },
            (senet_rules::AnyGame::Parker($g), _) => {
                let $e = &$crate::parker::PARKER;
                $body
            }
            #[allow(unreachable_patterns)]
            (_, _) => {
                senet_rules::with_game!($any, $g => { let $e = &$crate::eval::Census; $body })
            }
        }
    }};
}

/// A bot's choice for a position awaiting a move.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The chosen move (one of the legal moves).
    pub best: Move,
    /// Every legal move, in generator order, with its score: for search bots the estimated
    /// chance that **the player to move** wins after it (a draw counts 1/2); for `random`,
    /// the chance of picking it. See [`Choice::score_kind`].
    pub scores: Vec<(Move, f64)>,
    /// Nodes searched (expectimax), or iterations (MCTS).
    pub nodes: u64,
    /// What the scores are: `"win_chance"`, `"pick_chance"`, or `"series_value"` for the
    /// `+points` bots where the rule set scores ([`eval::Points`]).
    pub score_kind: &'static str,
    /// Whether every score is exact. When false (play mode of the search bots), the
    /// chosen move's score is exact and each other score is an upper bound on that move's
    /// win chance for the player to move: enough to know it is not better.
    pub exact: bool,
    /// How deep the search that chose went, in throws (expectimax, greedy: 0); `None` for
    /// the bots that do not search so (random, MCTS). With a node budget it is the deepest
    /// iteration that fitted, which can differ by one between play and analysis mode: see
    /// [`Bot::choose_with`].
    pub depth: Option<u32>,
    /// With exact scores, from the search bots: per move (as `scores`), the first player's
    /// win chance after each throw of the move's result when that awaits a throw, one throw
    /// less deep than `depth` ([`search::RootResult::outcomes`]); empty otherwise. The game's
    /// analysis values the next throw's luck with them.
    pub outcomes: Vec<Option<Vec<f64>>>,
}

/// A computer player.
pub trait Bot: Send {
    /// The bot's name, parseable by [`BotSpec`].
    fn name(&self) -> String;

    /// Chooses a move for a position awaiting one ([`Status::Move`]), in play mode: the
    /// chosen move's score is exact, the others may be bounds ([`Choice::exact`]).
    /// Deterministic: the same position, throw, seed and budget give the same choice and
    /// scores.
    ///
    /// # Panics
    /// If `g` does not await a move.
    fn choose(&mut self, g: &AnyGame, seed: u64) -> Choice {
        self.choose_with(g, seed, false)
    }

    /// Like [`Bot::choose`]; with `exact_scores` every legal move's score is exact (slower:
    /// for analysis). The chosen move is the same either way when both searches go equally
    /// deep ([`Choice::depth`]): always without a node budget. Within a budget (the levels,
    /// `expectimax:N:NODES`) each deepens while it predicts that its next iteration fits,
    /// and the modes' iterations cost different numbers of nodes, so either may stop one
    /// iteration before the other and choose what its shallower search chooses
    /// (docs/bots.md).
    fn choose_with(&mut self, g: &AnyGame, seed: u64, exact_scores: bool) -> Choice;
}

/// The levels offered to people, each one of the bots (chosen by measurement; see
/// `docs/bots.md`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// New players.
    Beginner,
    /// Relaxed play.
    Casual,
    /// A real opponent.
    Strong,
    /// The strongest bot that still answers at once.
    Expert,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 4] = [Level::Beginner, Level::Casual, Level::Strong, Level::Expert];

    /// The level's name.
    pub fn id(self) -> &'static str {
        match self {
            Level::Beginner => "beginner",
            Level::Casual => "casual",
            Level::Strong => "strong",
            Level::Expert => "expert",
        }
    }

    /// The bot the level stands for, chosen by measurement (see `docs/bots.md`):
    /// - `beginner`: `greedy@census`, greedy with the generic evaluator: it bears off and
    ///   captures when it can but has no sense of the board (beats `random` only narrowly);
    /// - `casual`: `greedy`, one decision ahead with the hand-set terms of the rule set's
    ///   evaluator (beats `random` by far);
    /// - `strong`: `expectimax:2` with the trained evaluator within the level's node budget
    ///   ([`Level::budget`]), a clear step above `greedy` (on some rule sets another bot:
    ///   [`Level::spec_for`]);
    /// - `expert`: up to [`EXPERT_DEPTH`] throws deep within its budget (`mcts:1000` is no
    ///   stronger and slower), answering exactly at the endgame positions that the exact
    ///   tables cover ([`exact::Tables::global`]); on `kendall5` with the wide network
    ///   ([`EvalKind::Wide`]), which loses 0.0065 points of win chance a decision on the solved
    ///   game's corpus where the 64-unit one loses 0.0097 (`docs/bots.md`).
    pub fn spec(self) -> (BotKind, EvalKind) {
        match self {
            Level::Beginner => (BotKind::Greedy, EvalKind::Census),
            Level::Casual => (BotKind::Greedy, EvalKind::Hand),
            Level::Strong => (BotKind::Expectimax(2), EvalKind::Tuned),
            Level::Expert => (BotKind::Expectimax(EXPERT_DEPTH), EvalKind::Wide),
        }
    }

    /// The bot the level stands for on a rule set: [`Level::spec`], but for `beginner` on
    /// `pyramid`, where greedy with the generic evaluator loses to `random` (29.9% over 1000
    /// pairs: rushing pyramids off and taking every capture ends games it is behind in), so
    /// the beginner there is `sloppy:5`, the casual level's greedy with one move in twenty at
    /// random: 53.2% against random, 47.9% against casual (4000 pairs each, `docs/bots.md`,
    /// Levels).
    /// And for `strong` on `parker`, which searches with the hand-set evaluator: with the
    /// trained network, depth hardly counts there (`expert` scored 50.3% [49.4, 51.2] against
    /// that `strong` over 4000 pairs, 50.7% against `expectimax:1`), so the step from `strong`
    /// to `expert` is the network: `expert` scores 60.8% [58.7, 62.9] against this `strong`
    /// (1000 pairs, `docs/bots.md`).
    /// And for `strong` on `kendall` and `kendall5`, which is the trained network one decision
    /// ahead (`greedy@tuned`): there each throw of depth adds under a point (`expectimax:2`
    /// against `expectimax:1` 50.8% and 51.0%, `docs/bots.md`), so `expert` against a `strong`
    /// of `expectimax:2` was no step a player could feel, nor one a match could show (kendall:
    /// 50.55% [48.37, 52.73] over 1000 pairs); the network is the step from `casual`
    /// (58.7% [58.0, 59.4] and 61.4% [60.8, 62.1] against `greedy`, 10,000 pairs; `kendall5`
    /// with its 64-unit network of 2026-11-27) and the search the step to `expert`.
    /// And for `strong` on `houses`, which searches one throw deep (`expectimax:1`): with the
    /// four-piece network of 2026-11-30, which lifts a shallow search more than a deep one,
    /// `expert` scored 51.4% [49.4, 53.4] against a `strong` of `expectimax:2` (1200 pairs,
    /// `docs/bots.md`), no step a match could show.
    pub fn spec_for(self, rules: senet_rules::RuleSet) -> (BotKind, EvalKind) {
        use senet_rules::RuleSet as R;
        match (self, rules) {
            (Level::Beginner, R::Pyramid) => (BotKind::Sloppy(5), EvalKind::Hand),
            (Level::Strong, R::Parker) => (BotKind::Expectimax(2), EvalKind::Hand),
            (Level::Strong, R::Kendall | R::Kendall5) => (BotKind::Greedy, EvalKind::Tuned),
            (Level::Strong, R::Houses) => (BotKind::Expectimax(1), EvalKind::Tuned),
            _ => self.spec(),
        }
    }

    /// The level's search budget in nodes on a rule set (`None`: a greedy level, whose one
    /// turn is bounded by the rules, as `strong` on `kendall` and `kendall5`). The search levels deepen iteratively up to their depth
    /// within it, so every move is answered in bounded time; the budgets were set from the
    /// measured cost of a node on each rule set so that on one core of the 2-core
    /// development machine `strong` stays under 20 ms and `expert` under 250 ms at the 99th
    /// percentile (`senet botspeed`, figures in `docs/bots.md`).
    pub fn budget(self, rules: senet_rules::RuleSet) -> Option<u64> {
        use senet_rules::RuleSet as R;
        let (strong, expert) = match rules {
            R::Kendall | R::Kendall5 | R::Houses => (20_000, 400_000),
            R::Senat => (20_000, 300_000),
            R::Pyramid => (20_000, 300_000),
            R::Parker => (10_000, 150_000),
        };
        match (self, self.spec_for(rules).0) {
            (_, BotKind::Greedy | BotKind::Sloppy(_)) => None,
            (Level::Expert, _) => Some(expert),
            _ => Some(strong),
        }
    }
}

/// The deepest iteration of the `expert` level (its budget stops it sooner on most moves).
pub const EXPERT_DEPTH: u32 = 5;

/// The algorithm of a bot.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BotKind {
    /// Uniform over the legal moves.
    Random,
    /// The best result of one decision (a whole turn on two-dice rule sets) by the evaluator.
    Greedy,
    /// Expectimax that many throws deep.
    Expectimax(u32),
    /// Monte-Carlo tree search with that many iterations.
    Mcts(u32),
    /// `greedy` that plays a uniformly random move instead on that percentage of its
    /// decisions (drawn from the move's seed, so still deterministic): the `beginner` level.
    Sloppy(u32),
}

/// A bot by name: a [`BotKind`] (or a [`Level`]) and an [`EvalKind`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct BotSpec {
    /// The algorithm.
    pub kind: BotKind,
    /// The evaluator.
    pub eval: EvalKind,
    /// The level the spec was named by, if any.
    pub level: Option<Level>,
    /// A budget in nodes for the search bots (`expectimax:D:NODES`): iterative deepening up
    /// to depth D within NODES nodes ([`SearchOptions::budget`]). `None` for a level means
    /// the level's own budget for the rule set ([`Level::budget`]); for `expectimax:D`, a
    /// fixed depth whatever it costs.
    pub budget: Option<u64>,
    /// Series play (suffix `+points`): where the rule set scores, value positions by a blend
    /// of the win chance and the share of the game's points ([`eval::Points`]).
    pub points: bool,
}

/// The deepest expectimax accepted by name (deeper searches take minutes per move).
pub const MAX_DEPTH: u32 = 6;
/// The largest MCTS budget accepted by name.
pub const MAX_ITERATIONS: u32 = 10_000_000;
/// The largest search budget accepted by name, in nodes.
pub const MAX_BUDGET: u64 = 10_000_000_000;

impl FromStr for BotSpec {
    type Err = String;

    /// Parses `random`, `greedy`, `expectimax:N`, `mcts:N`, `beginner`, `casual`, `strong`,
    /// `expert`, optionally followed by `@census`, `@hand`, `@linear`, `@ref`, `@tuned` or
    /// `@wide`.
    fn from_str(s: &str) -> Result<BotSpec, String> {
        let help = "bots are random, greedy, expectimax:N (N = 0-6 throws deep), \
                    expectimax:N:NODES (at most N throws deep within NODES nodes), mcts:N \
                    (N iterations), sloppy:N (greedy, with N% of its moves random), or the \
                    levels beginner, casual, strong, expert; add \
                    @census, @hand, @linear, @ref, @tuned or @wide to use another evaluator, and +points to play for the \
                    points of series play where the rule set scores";
        let (s, points) = match s.trim().strip_suffix("+points") {
            Some(rest) => (rest, true),
            None => (s.trim(), false),
        };
        let (name, eval) = match s.trim().split_once('@') {
            None => (s.trim(), None),
            Some((n, "census")) => (n, Some(EvalKind::Census)),
            Some((n, "hand")) => (n, Some(EvalKind::Hand)),
            Some((n, "tuned")) => (n, Some(EvalKind::Tuned)),
            Some((n, "linear")) => (n, Some(EvalKind::Linear)),
            Some((n, "ref")) => (n, Some(EvalKind::Reference)),
            Some((n, "wide")) => (n, Some(EvalKind::Wide)),
            Some((_, e)) => {
                return Err(format!(
                "unknown evaluator {e:?} in bot {s:?}: use @census, @hand, @linear, @ref, @tuned or @wide"
            ))
            }
        };
        let number = |arg: &str, max: u32, what: &str| -> Result<u32, String> {
            arg.parse::<u32>()
                .ok()
                .filter(|n| *n <= max)
                .ok_or_else(|| format!("bot {s:?}: {what} must be a number 0-{max}; {help}"))
        };
        let level = Level::ALL.iter().copied().find(|l| l.id() == name);
        let mut budget = None;
        let kind = match (name.split_once(':'), level) {
            (_, Some(l)) => l.spec().0,
            (None, _) if name == "random" => BotKind::Random,
            (None, _) if name == "greedy" => BotKind::Greedy,
            (None, _) if name == "expectimax" => BotKind::Expectimax(2),
            (None, _) if name == "mcts" => BotKind::Mcts(1000),
            (Some(("expectimax", n)), _) => match n.split_once(':') {
                None => BotKind::Expectimax(number(n, MAX_DEPTH, "the depth")?),
                Some((d, nodes)) => {
                    budget = Some(
                        nodes
                            .parse::<u64>()
                            .ok()
                            .filter(|&n| (1..=MAX_BUDGET).contains(&n))
                            .ok_or_else(|| {
                                format!(
                                    "bot {s:?}: the budget must be a number of nodes 1-{MAX_BUDGET}; {help}"
                                )
                            })?,
                    );
                    BotKind::Expectimax(number(d, MAX_DEPTH, "the depth")?)
                }
            },
            (Some(("mcts", n)), _) => {
                BotKind::Mcts(number(n, MAX_ITERATIONS, "the iterations")?.max(1))
            }
            (Some(("sloppy", n)), _) => BotKind::Sloppy(number(n, 100, "the percentage")?),
            _ => return Err(format!("unknown bot {s:?}; {help}")),
        };
        // A level brings its evaluator; a suffix overrides it.
        let eval = eval.unwrap_or(BotSpec::default_eval(kind, level));
        Ok(BotSpec {
            kind,
            eval,
            level,
            budget,
            points,
        })
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.level {
            Some(l) => f.write_str(l.id())?,
            None => match self.kind {
                BotKind::Random => f.write_str("random")?,
                BotKind::Greedy => f.write_str("greedy")?,
                BotKind::Expectimax(n) => match self.budget {
                    None => write!(f, "expectimax:{n}")?,
                    Some(b) => write!(f, "expectimax:{n}:{b}")?,
                },
                BotKind::Mcts(n) => write!(f, "mcts:{n}")?,
                BotKind::Sloppy(n) => write!(f, "sloppy:{n}")?,
            },
        }
        let default = BotSpec::default_eval(self.kind, self.level);
        if self.eval != default {
            f.write_str(match self.eval {
                EvalKind::Tuned => "@tuned",
                EvalKind::Hand => "@hand",
                EvalKind::Census => "@census",
                EvalKind::Linear => "@linear",
                EvalKind::Reference => "@ref",
                EvalKind::Wide => "@wide",
            })?;
        }
        if self.points {
            f.write_str("+points")?;
        }
        Ok(())
    }
}

impl BotSpec {
    /// The evaluator a bot uses unless a suffix says otherwise: a level's own; for `greedy`
    /// the hand-set weights (the one-decision player with the rule set's sensible terms;
    /// `greedy@tuned` looks one decision ahead with the trained evaluator); for the search
    /// bots the trained evaluator.
    pub fn default_eval(kind: BotKind, level: Option<Level>) -> EvalKind {
        match (level, kind) {
            (Some(l), _) => l.spec().1,
            (None, BotKind::Greedy | BotKind::Sloppy(_)) => EvalKind::Hand,
            (None, _) => EvalKind::Tuned,
        }
    }

    /// Builds the bot; the `expert` level reads [`exact::Tables::global`].
    pub fn build(self) -> Box<dyn Bot> {
        self.build_with_tables(exact::Tables::global())
    }

    /// Builds the bot with `tables` as the `expert` level's exact tables (the measurement of
    /// the bots with the tables they had before a bigger one was built, `senet ladder
    /// --exact`).
    pub fn build_with_tables(self, tables: &'static exact::Tables) -> Box<dyn Bot> {
        Box::new(Engine {
            spec: self,
            cache: None,
            tables,
        })
    }

    /// The search options of an expectimax bot of this depth (greedy is depth 0).
    pub fn search_options(depth: u32) -> SearchOptions {
        let mut o = SearchOptions::new(depth);
        // Sized to the nodes a search stores (depth-0 nodes are not stored), small enough
        // to stay in the processor's cache.
        // Ordering by a static look pays only above the two lowest levels of deep searches.
        o.order_depth = if depth >= 3 { 2 } else { 1 };
        o.tt_bits = match depth {
            0 => 0,
            1 | 2 => 10,
            3 => 13,
            _ => 16,
        };
        o
    }
}

/// The one implementation of [`Bot`]: an algorithm, an evaluator and the search's
/// reusable memory (its transposition cache), kept per rule-set type.
struct Engine {
    spec: BotSpec,
    cache: Option<Box<dyn Any + Send>>,
    /// The exact tables of the `expert` level.
    tables: &'static exact::Tables,
}

impl Engine {
    fn searcher<G: Game>(&mut self, bits: u32) -> &mut Searcher<G> {
        if !self.cache.as_ref().is_some_and(|c| c.is::<Searcher<G>>()) {
            self.cache = Some(Box::new(Searcher::<G>::new(bits)));
        }
        self.cache
            .as_mut()
            .and_then(|c| c.downcast_mut::<Searcher<G>>())
            .expect("searcher of this type")
    }

    fn run<G: Game, E: eval::Evaluator<G>>(
        &mut self,
        kind: BotKind,
        g: &G,
        e: &E,
        seed: u64,
        exact: bool,
    ) -> Choice {
        let p = match g.status() {
            Status::Move(p) => p,
            s => panic!("a bot needs a position awaiting a move, got {s:?}"),
        };
        let mine = |v: f64| if p == Player::First { v } else { 1.0 - v };
        match kind {
            BotKind::Random => {
                let mut ms = MoveList::new();
                g.legal_moves(&mut ms);
                let mut rng = Pcg64Mcg::seed_from_u64(seed);
                let i = rng.random_range(0..ms.len());
                let q = 1.0 / ms.len() as f64;
                Choice {
                    best: ms[i],
                    scores: ms.iter().map(|&m| (m, q)).collect(),
                    nodes: 0,
                    score_kind: "pick_chance",
                    exact: true,
                    depth: None,
                    outcomes: Vec::new(),
                }
            }
            BotKind::Greedy | BotKind::Expectimax(_) | BotKind::Sloppy(_) => {
                let depth = match kind {
                    BotKind::Expectimax(d) => d,
                    _ => 0,
                };
                let mut opt = BotSpec::search_options(depth);
                // A sloppy bot may play any move, whose score must then be exact
                // ([`Choice::exact`]).
                opt.exact_root = exact || matches!(kind, BotKind::Sloppy(_));
                opt.budget = self
                    .spec
                    .budget
                    .or_else(|| self.spec.level.and_then(|l| l.budget(g.rules())));
                let r = self.searcher::<G>(opt.tt_bits).search(g, e, &opt);
                let best = match kind {
                    BotKind::Sloppy(pct) => {
                        let mut rng = Pcg64Mcg::seed_from_u64(seed);
                        if rng.random_range(0..100u32) < pct {
                            rng.random_range(0..r.values.len())
                        } else {
                            r.best
                        }
                    }
                    _ => r.best,
                };
                Choice {
                    best: r.values[best].0,
                    scores: r.values.iter().map(|&(m, v)| (m, mine(v))).collect(),
                    nodes: r.nodes,
                    score_kind: "win_chance",
                    exact: r.exact,
                    depth: Some(r.depth),
                    outcomes: r.outcomes,
                }
            }
            BotKind::Mcts(n) => {
                let r = mcts::mcts(g, e, &mcts::MctsOptions::new(n));
                Choice {
                    best: r.values[r.best].0,
                    scores: r.values.iter().map(|&(m, v)| (m, mine(v))).collect(),
                    nodes: r.nodes,
                    score_kind: "win_chance",
                    exact: true,
                    depth: None,
                    outcomes: Vec::new(),
                }
            }
        }
    }
}

impl Bot for Engine {
    fn name(&self) -> String {
        self.spec.to_string()
    }

    fn choose_with(&mut self, g: &AnyGame, seed: u64, exact_scores: bool) -> Choice {
        let points = self.spec.points;
        // The expert level stops at positions the exact tables cover (`exact`).
        let table = if self.spec.level == Some(Level::Expert) && !points {
            self.tables.table_for(g)
        } else {
            None
        };
        // A level may stand for another bot on some rule sets ([`Level::spec_for`]); a spec
        // that only borrows a level's evaluator and tables (the analysis's searcher) keeps
        // its own algorithm.
        let (kind, eval) = match self.spec.level {
            Some(l) if (self.spec.kind, self.spec.eval) == l.spec() => l.spec_for(g.rules()),
            _ => (self.spec.kind, self.spec.eval),
        };
        // The tables and the points wrap the evaluator as a trait object: one search per
        // rule set for each wrapper instead of one per rule set and evaluator, which kept the
        // page's engine under issue 54's 3 MB (a virtual call per leaf costs nothing beside a
        // network's pass).
        dispatch!(g, eval, gg, e => match eval::max_points(gg).filter(|_| points) {
            None if table.is_some() => {
                let t = table.expect("checked");
                let limit = self.tables.limit();
                let inner = eval::dynamic(gg, e);
                self.run(kind, gg, &exact::WithTables { inner, table: t, limit }, seed, exact_scores)
            }
            Some(max) => {
                let inner = eval::dynamic(gg, e);
                let p = eval::Points { inner, weight: eval::POINTS_WEIGHT, max };
                let mut c = self.run(kind, gg, &p, seed, exact_scores);
                if c.score_kind == "win_chance" {
                    c.score_kind = "series_value";
                }
                c
            }
            None => self.run(kind, gg, e, seed, exact_scores),
        })
    }
}
