//! # senet-rules
//!
//! Exact rules of several modern reconstructions of the ancient Egyptian game Senet, behind
//! one chance-aware game API ([`Game`]). Each rule set lives in its own module that reads
//! like its rule sheet and cites the rulings of `shared/rulings.md` (K1, R7, ...).
//!
//! ```
//! use senet_rules::prelude::*;
//! use senet_rules::{AnyGame, RuleSet, Status, Throw};
//!
//! let mut g = AnyGame::new(RuleSet::Kendall5, &[] as &[&str]).unwrap();
//! assert!(matches!(g.status(), Status::Throw(_)));
//! g.set_throw(Throw::single(5)).unwrap();
//! let m = g.parse_move("1-6").unwrap(); // the solved best opening
//! g.play(m).unwrap();
//! assert_eq!(g.position(), "kendall5 OOXOXXXOXO.................... off=0,0 turn=1 throw=- dec=1");
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod conformance;
pub mod game;
pub mod json;

/// The game traits at once: `use senet_rules::prelude::*` to call any game method on a
/// concrete game ([`AnyGame`], [`Kendall`], ...).
pub mod prelude {
    pub use crate::game::{Game, Metrics, Notation, View};
}
pub mod houses;
pub mod kendall;
pub mod kendall5;
pub mod options;
pub mod parker;
pub mod pyramid;
pub mod race;
pub mod record;
pub mod seed;
pub mod senat;
pub mod series;
pub mod track;

pub use game::{
    random_playout, BoardView, CellView, Census, Dist, Effect, Effects, Game, Mark, Metrics, Move,
    MoveKind, MoveList, Notation, Outcome, PieceView, Player, Side, Status, Throw, ThrowKind, View,
    OFF,
};
pub use houses::Houses;
pub use kendall::Kendall;
pub use kendall5::Kendall5;
pub use options::{OptionKind, OptionSpec, OptionValue, Options};
pub use parker::Parker;
pub use pyramid::Pyramid;
pub use record::{
    capped_before_c7, is_legacy_pass, json_syntax_in_words, play_legacy_pass, Event, Record, Replay,
};
pub use senat::Senat;
pub use series::{Series, Starts, Target};

use std::fmt;
use std::str::FromStr;

/// What was wrong with an input or a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// A malformed or impossible position string.
    Position(String),
    /// An unknown rule set or a bad option.
    Options(String),
    /// A malformed or impossible throw, or a throw when none is pending.
    Throw(String),
    /// A malformed or illegal move.
    Move(String),
    /// A malformed or inconsistent game record.
    Record(String),
    /// The game is over and accepts nothing more.
    GameOver,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Position(m) => write!(f, "bad position: {m}"),
            Error::Options(m) => write!(f, "bad rules or options: {m}"),
            Error::Throw(m) => write!(f, "bad throw: {m}"),
            Error::Move(m) => write!(f, "illegal move: {m}"),
            Error::Record(m) => write!(f, "bad record: {m}"),
            Error::GameOver => write!(f, "the game is over"),
        }
    }
}

impl std::error::Error for Error {}

impl Error {
    /// The explanation without the kind of error.
    pub fn message(&self) -> &str {
        match self {
            Error::Position(m)
            | Error::Options(m)
            | Error::Throw(m)
            | Error::Move(m)
            | Error::Record(m) => m,
            Error::GameOver => "the game is over",
        }
    }
}

macro_rules! rule_sets {
    ($( $variant:ident => $module:ident :: $ty:ident, $id:literal, $name:literal, $source:literal; )*) => {
        /// The rule sets, by their stable IDs.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum RuleSet {
            $(
                #[doc = $name]
                $variant,
            )*
        }

        impl RuleSet {
            /// Every rule set.
            pub const ALL: &'static [RuleSet] = &[$(RuleSet::$variant),*];

            /// The stable ID used by the CLI, records and the server.
            pub const fn id(self) -> &'static str {
                match self { $(RuleSet::$variant => $id,)* }
            }

            /// The name to show.
            pub fn name(self) -> &'static str {
                match self { $(RuleSet::$variant => $name,)* }
            }

            /// Where the rules come from.
            pub fn source(self) -> &'static str {
                match self { $(RuleSet::$variant => $source,)* }
            }

            /// The two sides as the sheet names them, first player then second.
            pub fn sides(self) -> [Side; 2] {
                match self { $(RuleSet::$variant => $module::SIDES,)* }
            }

            /// The options of this rule set.
            pub fn option_specs(self) -> &'static [OptionSpec] {
                match self { $(RuleSet::$variant => $module::$ty::option_specs(),)* }
            }
        }

        /// A position of any rule set, chosen at run time. Generic code can also work on the
        /// concrete types through [`with_game!`] for speed.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        #[allow(missing_docs)]
        pub enum AnyGame {
            $( $variant($module::$ty), )*
        }

        impl AnyGame {
            /// The start position of a rule set with `NAME=VALUE` options.
            pub fn new<S: AsRef<str>>(rules: RuleSet, options: &[S]) -> Result<AnyGame, Error> {
                let o = Options::parse(rules.option_specs(), options, rules.id())?;
                Ok(match rules { $(RuleSet::$variant => AnyGame::$variant($module::$ty::start(&o)),)* })
            }

            fn parse_body(rules: RuleSet, o: &Options, tokens: &[&str]) -> Result<AnyGame, Error> {
                Ok(match rules { $(RuleSet::$variant => AnyGame::$variant($module::parse(o, tokens)?),)* })
            }
        }

        $(
            impl From<$module::$ty> for AnyGame {
                fn from(g: $module::$ty) -> AnyGame {
                    AnyGame::$variant(g)
                }
            }
        )*

        macro_rules! forward {
            ($self:ident, $g:ident => $e:expr) => {
                match $self { $(AnyGame::$variant($g) => $e,)* }
            };
        }
    };
}

rule_sets! {
    Kendall => kendall::Kendall, "kendall", "Kendall-style Senet (sticks 1-2-3-4-6)",
        "Kendall-style sheet, seed 004 (a 2019 web page of Kendall's rules)";
    Kendall5 => kendall5::Kendall5, "kendall5", "Kendall, five pieces (modern)",
        "modern five-piece Kendall rules, solved exactly elsewhere (reference rule set)";
    Pyramid => pyramid::Pyramid, "pyramid", "Pyramid Senet (Aronson)",
        "Pyramid Senet by Peter Aronson, seed 003 (Icehouse pyramids, two four-sided dice)";
    Senat => senat::Senat, "senat", "Senat, piecepack adaptation of the Fundex rules",
        "piecepack Senat sheet by Craig Blumer after Fundex Games, seed 001";
    Houses => houses::Houses, "houses", "Senet of the Houses (Rebirth, Happiness, Water)",
        "Houses sheet (Rebirth, Happiness, Water), seed 002";
    Parker => parker::Parker, "parker", "Senet, Parker Brothers (1946)",
        "Parker Brothers rule sheet of 1946, seed 000";
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl FromStr for RuleSet {
    type Err = Error;
    fn from_str(s: &str) -> Result<RuleSet, Error> {
        RuleSet::ALL
            .iter()
            .copied()
            .find(|r| r.id() == s)
            .ok_or_else(|| {
                let ids: Vec<_> = RuleSet::ALL.iter().map(|r| r.id()).collect();
                Error::Options(format!(
                    "unknown rule set {s:?}; the rule sets are: {}",
                    ids.join(", ")
                ))
            })
    }
}

impl FromStr for AnyGame {
    type Err = Error;

    /// Parses a position string: `ID[:NAME=VALUE,...] BOARD FIELD=VALUE ...`
    /// (see `docs/notation.md`).
    fn from_str(s: &str) -> Result<AnyGame, Error> {
        if s.len() > 4096 {
            return Err(Error::Position(
                "a position string is at most 4096 bytes".into(),
            ));
        }
        let tokens: Vec<&str> = s.split_whitespace().collect();
        let Some((head, rest)) = tokens.split_first() else {
            return Err(Error::Position("the position string is empty".into()));
        };
        let (id, opts) = match head.split_once(':') {
            Some((id, o)) => (
                id,
                o.split(',').filter(|p| !p.is_empty()).collect::<Vec<_>>(),
            ),
            None => (*head, vec![]),
        };
        let rules: RuleSet = id
            .parse()
            .map_err(|e: Error| Error::Position(e.message().into()))?;
        let o = Options::parse(rules.option_specs(), &opts, rules.id())?;
        AnyGame::parse_body(rules, &o, rest)
    }
}

impl fmt::Display for AnyGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.position())
    }
}

impl Game for AnyGame {
    fn rules(&self) -> RuleSet {
        forward!(self, g => g.rules())
    }

    fn status(&self) -> Status {
        forward!(self, g => g.status())
    }

    fn throw_dist(&self) -> Dist {
        forward!(self, g => g.throw_dist())
    }

    fn in_hand(&self) -> Option<Throw> {
        forward!(self, g => g.in_hand())
    }

    fn hand_text(&self) -> Option<String> {
        forward!(self, g => g.hand_text())
    }

    fn set_throw_unchecked(&mut self, t: Throw) {
        forward!(self, g => g.set_throw_unchecked(t))
    }

    fn set_throw(&mut self, t: Throw) -> Result<(), Error> {
        forward!(self, g => g.set_throw(t))
    }

    fn legal_moves(&self, moves: &mut MoveList) {
        forward!(self, g => g.legal_moves(moves))
    }

    fn sample_throw(&self, r: u32) -> Throw {
        forward!(self, g => g.sample_throw(r))
    }

    fn play_random(&mut self, r: u32) -> Effects {
        forward!(self, g => g.play_random(r))
    }

    fn play_unchecked(&mut self, m: Move) -> Effects {
        forward!(self, g => g.play_unchecked(m))
    }

    fn play(&mut self, m: Move) -> Result<Effects, Error> {
        forward!(self, g => g.play(m))
    }

    fn decisions(&self) -> u32 {
        forward!(self, g => g.decisions())
    }

    fn options(&self) -> Options {
        forward!(self, g => g.options())
    }

    fn parse_move(&self, text: &str) -> Result<Move, Error> {
        forward!(self, g => g.parse_move(text))
    }
}

impl Notation for AnyGame {
    fn example_moves(&self) -> &'static str {
        forward!(self, g => g.example_moves())
    }

    fn move_string(&self, m: Move) -> String {
        forward!(self, g => g.move_string(m))
    }

    fn square_name(&self, sq: u8) -> String {
        forward!(self, g => g.square_name(sq))
    }

    fn die_used(&self, m: Move) -> Option<String> {
        forward!(self, g => g.die_used(m))
    }

    fn why_illegal(&self, text: &str) -> String {
        forward!(self, g => g.why_illegal(text))
    }

    fn position(&self) -> String {
        forward!(self, g => g.position())
    }
}

impl View for AnyGame {
    fn view(&self) -> BoardView {
        forward!(self, g => g.view())
    }

    fn diagram(&self) -> String {
        forward!(self, g => g.diagram())
    }
}

impl Metrics for AnyGame {
    fn max_points(&self) -> Option<u32> {
        forward!(self, g => g.max_points())
    }

    fn points_if_won(&self) -> Option<[u32; 2]> {
        forward!(self, g => g.points_if_won())
    }

    fn both_keep_points(&self) -> bool {
        forward!(self, g => g.both_keep_points())
    }

    fn progress(&self) -> [u32; 2] {
        forward!(self, g => g.progress())
    }

    fn census(&self) -> [Census; 2] {
        forward!(self, g => g.census())
    }

    fn check_invariants(&self) -> Result<(), String> {
        forward!(self, g => g.check_invariants())
    }
}

/// Calls a generic function with the concrete game inside an [`AnyGame`], so that hot loops
/// (search, playouts) are compiled per rule set.
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::AnyGame::Kendall($g) => $body,
            $crate::AnyGame::Kendall5($g) => $body,
            $crate::AnyGame::Pyramid($g) => $body,
            $crate::AnyGame::Senat($g) => $body,
            $crate::AnyGame::Houses($g) => $body,
            $crate::AnyGame::Parker($g) => $body,
        }
    };
}
