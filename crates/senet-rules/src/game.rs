//! The chance-aware game API shared by every rule set.
//!
//! A game alternates between two kinds of node, in the spirit of OpenSpiel:
//! a *chance* node where a throw is pending ([`Status::Throw`]) and a *decision* node
//! where the player to move picks one of the legal moves for the throw in hand
//! ([`Status::Move`]). Players do not simply alternate: bonus throws keep the turn, and
//! two-dice rule sets play several decisions on one throw. A throw with no legal move is
//! forfeited by playing [`Move::PASS`], the only legal move then (ruling C4).
//!
//! A rule set implements four traits, each to be read on its own: [`Game`] (the rules:
//! status, throws, legal moves, playing them; what a search needs), [`Notation`] (move
//! strings, positions, why a move is refused), [`View`] (the board as drawn) and [`Metrics`]
//! (progress, pieces, points, invariants). `Game` requires the other three, so a bound
//! `G: Game` gives every method; on a concrete game, `use senet_rules::prelude::*` brings
//! them into scope.

use crate::{Error, Options, RuleSet};
use arrayvec::ArrayVec;
use std::fmt;
use std::hash::Hash;

/// One of the two sides. `First` is the side that moves first (ruling C2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// The side that moves first.
    First = 0,
    /// The side that moves second.
    Second = 1,
}

impl Player {
    /// Both players, first then second.
    pub const BOTH: [Player; 2] = [Player::First, Player::Second];

    /// The opponent.
    #[inline]
    pub fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// 0 for the first player, 1 for the second.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The player with the given index (0 or 1).
    #[inline]
    pub fn from_index(i: usize) -> Player {
        if i == 0 {
            Player::First
        } else {
            Player::Second
        }
    }

    /// Parses `1` or `2`.
    pub fn parse(s: &str) -> Result<Player, Error> {
        match s {
            "1" => Ok(Player::First),
            "2" => Ok(Player::Second),
            _ => Err(Error::Position(format!("player must be 1 or 2, got {s:?}"))),
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::First => "1",
            Player::Second => "2",
        })
    }
}

/// A throw: one value (sticks, coins, or a single die) or two dice.
///
/// Two-dice throws are stored with `a <= b`; the order in which the dice are played is a
/// choice of the player, not part of the throw.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Throw {
    /// The value, or the smaller die.
    pub a: u8,
    /// The larger die, or 0 for a single value.
    pub b: u8,
}

impl Throw {
    /// A single value (sticks or one die).
    pub const fn single(v: u8) -> Throw {
        Throw { a: v, b: 0 }
    }

    /// Two dice, stored smaller first.
    pub const fn dice(x: u8, y: u8) -> Throw {
        if x <= y {
            Throw { a: x, b: y }
        } else {
            Throw { a: y, b: x }
        }
    }

    /// Whether this is a two-dice throw.
    pub fn is_dice(self) -> bool {
        self.b != 0
    }

    /// Parses `4` or `3-5` (either order). Whether the throw is possible is up to the rule set.
    pub fn parse(s: &str) -> Result<Throw, Error> {
        let bad = || {
            Error::Throw(format!(
                "throw {s:?} is not a number like 4 or two dice like 3-5"
            ))
        };
        let num = |t: &str| -> Result<u8, Error> {
            let t = t.trim();
            if t.is_empty() || t.len() > 2 || !t.bytes().all(|c| c.is_ascii_digit()) {
                return Err(bad());
            }
            t.parse::<u8>().map_err(|_| bad())
        };
        match s.split_once('-') {
            Some((x, y)) => {
                let (x, y) = (num(x)?, num(y)?);
                if x == 0 || y == 0 {
                    return Err(bad());
                }
                Ok(Throw::dice(x, y))
            }
            None => {
                let v = num(s)?;
                if v == 0 {
                    return Err(bad());
                }
                Ok(Throw::single(v))
            }
        }
    }
}

impl fmt::Display for Throw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.b == 0 {
            write!(f, "{}", self.a)
        } else {
            write!(f, "{}-{}", self.a, self.b)
        }
    }
}

/// What a throw is made with, for drawing it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum ThrowKind {
    /// Sticks or coins: the value counts the marked sides (or stands for none marked).
    Sticks,
    /// One die.
    Die,
    /// Two dice, played one at a time (a single value is the die left to play).
    Dice,
    /// A draw for who starts: the outcome names the player (parker's dice-off, P3).
    DrawForStart,
}

/// The exact distribution of a pending throw: outcomes with integer weights.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Dist {
    /// Every possible outcome with its weight; weights are positive.
    pub outcomes: &'static [(Throw, u32)],
    /// The sum of the weights.
    pub total: u32,
    /// What the throw is made with.
    pub kind: ThrowKind,
}

impl Dist {
    /// The probability of `t` (0 when impossible).
    pub fn probability(&self, t: Throw) -> f64 {
        self.weight(t) as f64 / self.total as f64
    }

    /// The weight of `t` (0 when impossible).
    pub fn weight(&self, t: Throw) -> u32 {
        self.outcomes
            .iter()
            .find(|(o, _)| *o == t)
            .map_or(0, |(_, w)| *w)
    }

    /// Picks the outcome for a uniformly random 32-bit number `r`, exactly proportional to the
    /// weights up to a bias below 2^-32 * total.
    #[inline]
    pub fn sample(&self, r: u32) -> Throw {
        let x = ((r as u64 * self.total as u64) >> 32) as u32;
        let mut acc = 0;
        for &(t, w) in self.outcomes {
            acc += w;
            if x < acc {
                return t;
            }
        }
        self.outcomes[self.outcomes.len() - 1].0
    }

    /// The possible outcomes written out, e.g. `1, 2, 3, 4, 6`.
    pub fn describe(&self) -> String {
        self.outcomes
            .iter()
            .map(|(t, _)| t.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Computes weights from a binomial stick count at compile time: `n` sticks, each marked side
/// up with probability 1/2, give k marked sides with weight C(n, k) out of 2^n (ruling C3).
pub const fn binomial(n: u32, k: u32) -> u32 {
    let mut r: u64 = 1;
    let mut i = 0;
    while i < k {
        r = r * (n - i) as u64 / (i + 1) as u64;
        i += 1;
    }
    r as u32
}

bitflags::bitflags! {
    /// What kind of move a [`Move`] is, beyond its squares: a small set of flags with one
    /// meaning in every rule set (a move with none, [`MoveKind::PLAIN`], is a plain forward
    /// move by one throw or die).
    #[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
    pub struct MoveKind: u8 {
        /// The piece moves backward (K10, R9, S7; parker's Pharaoh on the Senet row, P7).
        const BACKWARD = 1;
        /// The move uses the total of both dice as one move (parker, P4).
        const TOTAL = 1 << 1;
        /// Declines the leftover steps of a bear-off (senat, S10): no piece moves.
        const DECLINE = 1 << 2;
        /// The move ends in the water (27), which sends the piece on to `to` (K8, R7, H8, S8).
        const WATER = 1 << 3;
    }
}

impl MoveKind {
    /// A plain move: forward, by the throw or one die.
    pub const PLAIN: MoveKind = MoveKind::empty();
}

impl fmt::Debug for MoveKind {
    /// `plain`, or the flags' names in lower case joined by `|` (`backward|water`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("plain");
        }
        let names: Vec<_> = self.iter_names().map(|(n, _)| n.to_lowercase()).collect();
        f.write_str(&names.join("|"))
    }
}

/// A decision. `from` and `to` are in the rule set's coordinates (square numbers 1-30 on the
/// track games, with [`OFF`] for borne off); `to` is where the piece finally rests. `die` is
/// the throw value or die used (the dice total for [`MoveKind::TOTAL`]); `kind` says what kind
/// of move it is. Two decisions move no piece: [`Move::PASS`] and [`Move::decline`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Move {
    /// Where the piece starts (0 for a decision that moves no piece).
    pub from: u8,
    /// Where the piece comes to rest (0 for a decision that moves no piece).
    pub to: u8,
    /// The value used (throw, die, or dice total).
    pub die: u8,
    /// What kind of move it is.
    pub kind: MoveKind,
}

/// The square number used for "borne off" on the track games.
pub const OFF: u8 = 31;

impl Move {
    /// Forfeit the throw: legal exactly when nothing else is (ruling C4).
    pub const PASS: Move = Move {
        from: 0,
        to: 0,
        die: 0,
        kind: MoveKind::PLAIN,
    };

    /// Declines `left` leftover steps of a bear-off (senat, S10).
    #[inline]
    pub const fn decline(left: u8) -> Move {
        Move {
            from: 0,
            to: 0,
            die: left,
            kind: MoveKind::DECLINE,
        }
    }

    /// Whether this is the forfeit.
    #[inline]
    pub fn is_pass(self) -> bool {
        self == Move::PASS
    }

    /// Whether this declines leftover steps (S10).
    #[inline]
    pub fn is_decline(self) -> bool {
        self.kind.contains(MoveKind::DECLINE)
    }

    /// Whether the move moves a piece (it is neither the forfeit nor a decline).
    #[inline]
    pub fn moves_a_piece(self) -> bool {
        !self.is_pass() && !self.is_decline()
    }
}

/// Worst case over every rule set: `parker` has 5 pegs, each with at most 2 directions for
/// each of the two dice and their total (5 * 2 * 3 = 30); `pyramid` has 10 pyramids times 2
/// dice (20); the stick games at most 5 pieces plus a declining move. 32 covers them all.
pub const MAX_MOVES: usize = 32;

/// The legal moves of a position, without heap allocation.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

bitflags::bitflags! {
    /// What a move did (see [`Effects`]).
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
    pub struct Effect: u16 {
        /// The piece moved forward.
        const STEP = 1;
        /// The piece moved backward.
        const BACKWARD = 1 << 1;
        /// Two pieces exchanged squares.
        const SWAP = 1 << 2;
        /// An opposing piece was removed from the game.
        const CAPTURE = 1 << 3;
        /// An opposing piece was sent back toward the start.
        const SENT_BACK = 1 << 4;
        /// The piece fell into a trap (the water) and was moved back.
        const TRAP = 1 << 5;
        /// The piece left the board.
        const BEAR_OFF = 1 << 6;
        /// The throw was forfeited.
        const FORFEIT = 1 << 7;
        /// The move earned a bonus throw.
        const BONUS = 1 << 8;
    }
}

impl Effect {
    /// The words the notation, the CLI's JSON and the API use for each flag, in order.
    const WORDS: [(Effect, &'static str); 9] = [
        (Effect::STEP, "step"),
        (Effect::BACKWARD, "backward"),
        (Effect::SWAP, "swap"),
        (Effect::CAPTURE, "capture"),
        (Effect::SENT_BACK, "sent back"),
        (Effect::TRAP, "trap"),
        (Effect::BEAR_OFF, "bear off"),
        (Effect::FORFEIT, "forfeit"),
        (Effect::BONUS, "bonus throw"),
    ];
}

/// What a move did: its [`Effect`]s, and whether the same player decides again.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Effects {
    /// What happened.
    pub flags: Effect,
    /// Whether the same player decides again (bonus throw, or dice left to play).
    pub turn_continues: bool,
}

impl Effects {
    /// Whether every flag of `e` is set.
    pub fn has(self, e: Effect) -> bool {
        self.flags.contains(e)
    }

    /// The words for the flags set, in a fixed order ("step", "sent back", "bonus throw", ...).
    pub fn names(self) -> Vec<&'static str> {
        Effect::WORDS
            .iter()
            .filter(|(e, _)| self.flags.contains(*e))
            .map(|(_, n)| *n)
            .collect()
    }
}

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Player>,
    /// Whether the turn cap (ruling C5) ended the game.
    pub capped: bool,
    /// Points of the first and second player, for rule sets that score.
    pub score: Option<[u32; 2]>,
}

/// Where a game stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The player must throw.
    Throw(Player),
    /// The player must choose a move for the throw in hand.
    Move(Player),
    /// The game is over.
    Over(Outcome),
}

impl Status {
    /// The player to throw or move, if the game is not over.
    pub fn player(self) -> Option<Player> {
        match self {
            Status::Throw(p) | Status::Move(p) => Some(p),
            Status::Over(_) => None,
        }
    }
}

/// The rules of a rule set: where the game stands, the throws, the legal moves and playing
/// them. States are small `Copy` values. This trait is what a search needs; a rule set also
/// writes and reads its notation ([`Notation`]), draws its board ([`View`]) and measures
/// its positions ([`Metrics`]), so `G: Game` gives all four. Bring the four into scope
/// at once with `use senet_rules::prelude::*`.
pub trait Game:
    Copy + Eq + Hash + fmt::Debug + Send + Sync + 'static + Notation + View + Metrics
{
    /// The rule set.
    fn rules(&self) -> RuleSet;

    /// Where the game stands.
    fn status(&self) -> Status;

    /// The distribution of the pending throw. Meaningful only in [`Status::Throw`].
    fn throw_dist(&self) -> Dist;

    /// The throw (or dice) still to be played, in [`Status::Move`].
    fn in_hand(&self) -> Option<Throw>;

    /// Sets the pending throw without checking it. Call only in [`Status::Throw`] with an
    /// outcome of [`Game::throw_dist`].
    fn set_throw_unchecked(&mut self, t: Throw);

    /// Sets the pending throw, checking that one is pending and that `t` is possible.
    fn set_throw(&mut self, t: Throw) -> Result<(), Error> {
        match self.status() {
            Status::Throw(_) => {}
            Status::Move(_) => {
                return Err(Error::Throw(format!(
                    "no throw is pending: the throw in hand is {}",
                    self.in_hand().map_or("-".into(), |t| t.to_string())
                )))
            }
            Status::Over(_) => return Err(Error::GameOver),
        }
        let d = self.throw_dist();
        if d.weight(t) == 0 {
            return Err(Error::Throw(format!(
                "{t} is not a possible throw in {}; possible throws: {}",
                self.rules().id(),
                d.describe()
            )));
        }
        self.set_throw_unchecked(t);
        Ok(())
    }

    /// Draws the pending throw for a uniformly random 32-bit number `r`: always the throw
    /// `self.throw_dist().sample(r)`, which is the default; a rule set may answer faster.
    #[inline]
    fn sample_throw(&self, r: u32) -> Throw {
        self.throw_dist().sample(r)
    }

    /// Plays the legal move that a uniformly random 32-bit number `r` picks: always the move
    /// at index `(r * n) >> 32` of the `n` moves of [`Game::legal_moves`], which is the
    /// default; a rule set may pick it without listing the moves. Call only in
    /// [`Status::Move`].
    #[inline]
    fn play_random(&mut self, r: u32) -> Effects {
        let mut ms = MoveList::new();
        self.legal_moves(&mut ms);
        let i = ((r as u64 * ms.len() as u64) >> 32) as usize;
        self.play_unchecked(ms[i])
    }

    /// Plays uniformly random throws and moves from `next_u32` to the end of the game and
    /// returns the decisions played: always what [`random_playout`]'s loop over
    /// [`Game::status`], [`Game::sample_throw`] and [`Game::play_random`] plays, with the
    /// same numbers drawn in the same order, which is the default; a rule set may run the
    /// loop faster.
    #[inline]
    fn playout<R: FnMut() -> u32>(&mut self, mut next_u32: R) -> u32
    where
        Self: Sized,
    {
        let mut n = 0;
        loop {
            match self.status() {
                Status::Throw(_) => {
                    let t = self.sample_throw(next_u32());
                    self.set_throw_unchecked(t);
                }
                Status::Move(_) => {
                    // The move at index (r * moves) >> 32 of the legal moves.
                    self.play_random(next_u32());
                    n += 1;
                }
                Status::Over(_) => return n,
            }
        }
    }

    /// The legal moves for the throw in hand; never empty in [`Status::Move`] (a forfeit is
    /// [`Move::PASS`]); empty otherwise.
    fn legal_moves(&self, moves: &mut MoveList);

    /// Plays a move without checking it. Call only with a move from [`Game::legal_moves`].
    fn play_unchecked(&mut self, m: Move) -> Effects;

    /// Plays a legal move, or explains why it is illegal.
    fn play(&mut self, m: Move) -> Result<Effects, Error> {
        match self.status() {
            Status::Move(_) => {}
            Status::Throw(p) => {
                return Err(Error::Move(format!("player {p} must throw before moving")))
            }
            Status::Over(_) => return Err(Error::GameOver),
        }
        let mut ms = MoveList::new();
        self.legal_moves(&mut ms);
        if ms.contains(&m) {
            Ok(self.play_unchecked(m))
        } else {
            Err(Error::Move(self.why_illegal(&self.move_string(m))))
        }
    }

    /// Finds the legal move with this move string.
    fn parse_move(&self, text: &str) -> Result<Move, Error> {
        match self.status() {
            Status::Move(_) => {}
            Status::Throw(p) => {
                return Err(Error::Move(format!("player {p} must throw before moving")))
            }
            Status::Over(_) => return Err(Error::GameOver),
        }
        let t = text.trim();
        let mut ms = MoveList::new();
        self.legal_moves(&mut ms);
        ms.iter()
            .copied()
            .find(|&m| self.move_string(m).eq_ignore_ascii_case(t))
            .ok_or_else(|| Error::Move(self.why_illegal(t)))
    }

    /// Decisions played so far, forfeits included (counted for the turn cap, ruling C5).
    fn decisions(&self) -> u32;

    /// The options this game is played with (the turn cap included).
    fn options(&self) -> Options;

    /// What the player to move holds, in words for messages, e.g. `the throw 4`; `None` while
    /// no throw is in hand.
    fn hand_text(&self) -> Option<String> {
        self.in_hand().map(|t| format!("the throw {t}"))
    }
}

/// A rule set's text: move strings, square names, positions, and why a move is refused
/// (`docs/notation.md`).
pub trait Notation {
    /// The move string of a legal move, e.g. `10-13`, `28-off`, `pass`.
    fn move_string(&self, m: Move) -> String;

    /// A few move strings in this rule set's notation, for help texts: `9-13, 28-off, pass`
    /// on the 30-square tracks, `f3-c3, e1-f1, pass` on parker's cells.
    fn example_moves(&self) -> &'static str;

    /// The JSON value of a square in this rule set's coordinates (`from` and `to` of a move).
    fn square_name(&self, sq: u8) -> String {
        match sq {
            OFF => "off".into(),
            s => s.to_string(),
        }
    }

    /// For rule sets with two dice: the die or total a move uses, e.g. `"3"` or `"total"`.
    fn die_used(&self, m: Move) -> Option<String> {
        let _ = m;
        None
    }

    /// A sentence saying why a move string is not legal here.
    fn why_illegal(&self, text: &str) -> String;

    /// The full one-line position string (see `docs/notation.md`).
    fn position(&self) -> String;
}

/// The board as front-ends draw it.
pub trait View {
    /// The board as front-ends draw it: cells on a grid with their pieces and marks.
    fn view(&self) -> BoardView;

    /// The position drawn as a board, for people.
    fn diagram(&self) -> String;
}

/// Measures of a position (progress, pieces, points) and the rule set's invariants.
pub trait Metrics: View {
    /// A race-progress measure per player (higher is further ahead), used for lead changes
    /// and simple evaluations. By default: the square number (1-30) of every piece on the
    /// board plus 31 for every piece borne off; rule sets off the common track override it.
    fn progress(&self) -> [u32; 2] {
        let v = self.view();
        let mut p = [0u32; 2];
        for c in &v.cells {
            for piece in &c.pieces {
                p[(piece.player - 1) as usize] += c.square as u32;
            }
        }
        for (i, off) in v.off.iter().enumerate() {
            p[i] += 31 * *off as u32;
        }
        p
    }

    /// Where each player's pieces are: on the board, borne off, captured (removed).
    fn census(&self) -> [Census; 2];

    /// Checks the rule set's structural invariants (no two pieces on one square where the rule
    /// set forbids it, no piece where none may stand, ...), naming the first one broken.
    fn check_invariants(&self) -> Result<(), String>;

    /// The most points one game with these options can give, where games score (P11, S12
    /// with `score`, Y9); `None` where a game is only won or lost.
    fn max_points(&self) -> Option<u32> {
        None
    }

    /// Where games score: each player's points if the game ended now with that player's win
    /// (P11: the winner's pegs left; S12: the opposing pieces on the board), or, where both
    /// sides keep what they scored, the points so far (Y9: the borne-off pyramids); first
    /// player first. `None` where games do not score.
    fn points_if_won(&self) -> Option<[u32; 2]> {
        None
    }

    /// Whether both sides keep the points they have scored, whoever wins (Y9: pyramid's
    /// borne-off pyramids), so that [`Metrics::points_if_won`] is the points so far rather
    /// than what a win would give.
    fn both_keep_points(&self) -> bool {
        false
    }
}

/// How a rule set names one side, and the colour its pieces are drawn in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Side {
    /// The side's name as the sheet gives it, e.g. `black` (pyramid) or `Arms` (senat).
    pub name: &'static str,
    /// The colour of its pieces as a word: `light`, `dark`, `black`, `white`, `red` or
    /// `yellow`.
    pub colour: &'static str,
}

/// Where one player's pieces are.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Census {
    /// Pieces on the board.
    pub board: u8,
    /// Pieces borne off.
    pub off: u8,
    /// Pieces captured (removed from the game).
    pub captured: u8,
}

impl Census {
    /// All the player's pieces.
    pub fn total(self) -> u8 {
        self.board + self.off + self.captured
    }
}

/// Plays uniformly random moves with throws drawn from `next_u32`, until the game ends.
/// Returns the number of decisions played. Used by benchmarks and tests.
pub fn random_playout<G: Game>(g: &mut G, next_u32: impl FnMut() -> u32) -> u32 {
    g.playout(next_u32)
}

/// A piece as drawn.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PieceView {
    /// 1 or 2.
    pub player: u8,
    /// The piece's letter in the position string (`X`, `O`, or an identity like a size).
    pub kind: char,
    /// What the letter means, e.g. "piece", "large pyramid", "Pharaoh".
    pub name: &'static str,
}

/// A special square of a board: its short mark and what is special about it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    /// The square.
    pub square: u8,
    /// The short mark ([`CellView::mark`]).
    pub short: &'static str,
    /// The description with its ruling ([`CellView::special`]).
    pub text: &'static str,
}

impl Mark {
    /// A mark.
    pub const fn new(square: u8, short: &'static str, text: &'static str) -> Mark {
        assert!(short.len() <= 8, "a short mark has at most eight letters");
        Mark {
            square,
            short,
            text,
        }
    }
}

/// A cell of the board as drawn.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CellView {
    /// The cell's coordinate as used by move strings and `from`/`to`.
    pub square: u8,
    /// Grid row, 0 at the top.
    pub row: u8,
    /// Grid column, 0 at the left.
    pub col: u8,
    /// The label to print on the cell (usually its number).
    pub label: String,
    /// What is special about the cell, with its ruling (e.g. "safe (K4); must be landed on
    /// exactly (K7)").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub special: Option<&'static str>,
    /// A short mark for a special cell (a word of at most eight letters, e.g. "safe",
    /// "water", "III"), where it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mark: Option<&'static str>,
    /// The pieces on it (two on a shared parker Senet space, else at most one).
    pub pieces: Vec<PieceView>,
}

/// The board as front-ends draw it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BoardView {
    /// Grid size.
    pub rows: u8,
    /// Grid size.
    pub cols: u8,
    /// Every cell.
    pub cells: Vec<CellView>,
    /// Pieces borne off by each player.
    pub off: [u8; 2],
    /// Pieces each player has lost to capture.
    pub captured: [u8; 2],
    /// The direction of travel, for a legend: e.g. "S-shaped track: 1-10 left to right, ...".
    pub path: &'static str,
    /// Further facts to show beside the board (e.g. scores so far), as label and value.
    pub notes: Vec<(String, String)>,
    /// Each player's path, as the `square`s its pieces visit in order of travel (player 1's
    /// first), where the players do not both follow the square numbers: parker's two loops of
    /// 20 cells, path index 0 first (P1); a piece moving forward goes on from the last back to
    /// the first, and a backward move walks the path the other way. Empty, and left out of
    /// the JSON, on the 30-square tracks, where every piece moves by square number (C1).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "openapi", schema(required = false))]
    pub paths: Vec<Vec<u8>>,
}
