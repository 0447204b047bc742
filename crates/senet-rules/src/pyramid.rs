//! `pyramid`: Pyramid Senet by Peter Aronson (seed 003; rulings Y1-Y9 in
//! `shared/rulings.md`; explained in `docs/rules/pyramid.md`).
//!
//! Squares are numbered 1-30 along the S-shaped track (C1); a pyramid on square `s` is bit
//! `s` of its side's mask. Sizes are kept as two masks over both colours (large, medium;
//! the rest are small). Black, the first player, writes `L M S`; white writes `l m s`.
//!
//! A turn is one decision per die (Y2). The dice still to be played are part of the state,
//! and so is whether the mover's pyramid on the Ankh (26) arrived during this turn (Y8).

use crate::game::{
    BoardView, Census, Dist, Effect, Effects, Game, Mark, Move, MoveKind, MoveList, Outcome,
    PieceView, Player, Status, Throw, ThrowKind, OFF,
};
use crate::game::{Metrics, Notation, View};
use crate::options::{cap_option, OptionSpec, OptionValue, Options};
use crate::track::{self, bit, Fields};
use crate::{Error, RuleSet};
use std::fmt::Write;

/// The sides (Y2): black moves first, white second.
pub const SIDES: [crate::game::Side; 2] = [
    crate::game::Side {
        name: "black",
        colour: "black",
    },
    crate::game::Side {
        name: "white",
        colour: "white",
    },
];

/// Y2: every turn after black's first rolls two four-sided dice (16 equally likely ordered
/// pairs; the order is the player's choice, so a pair and its reverse are one outcome).
pub const DICE: [(Throw, u32); 10] = [
    (Throw::dice(1, 1), 1),
    (Throw::dice(1, 2), 2),
    (Throw::dice(1, 3), 2),
    (Throw::dice(1, 4), 2),
    (Throw::dice(2, 2), 1),
    (Throw::dice(2, 3), 2),
    (Throw::dice(2, 4), 2),
    (Throw::dice(3, 3), 1),
    (Throw::dice(3, 4), 2),
    (Throw::dice(4, 4), 1),
];

/// Y2: black's first turn is a single four-sided die.
const OPENING: [(Throw, u32); 4] = [
    (Throw::single(1), 1),
    (Throw::single(2), 1),
    (Throw::single(3), 1),
    (Throw::single(4), 1),
];

/// The default turn cap (C5). Uniformly random games last 72.0 decisions on average (73.0
/// before ruling C7 dropped the `pass` for a lost die, 0.96 a game) and 137 at most (200,000
/// games); captures shorten every game, so 1000 is far above anything real play reaches.
pub const DEFAULT_CAP: u32 = 1000;

const OPTIONS: [OptionSpec; 1] = [cap_option(DEFAULT_CAP)];

/// Y4: squares 26-30 are safe.
pub const SAFE: u32 = 0b11111 << 26;

/// Y7: the numbered squares 27 (X), 28 (III), 29 (II), 30 (I).
const NUMBERED: u32 = 0b1111 << 27;

/// Y8: the Ankh.
const ANKH: u8 = 26;

/// Pyramids each side starts with, by size (large, medium, small): Y1.
const START_COUNT: [u8; 3] = [2, 3, 5];

/// A pyramid's size (Y1), which decides its points (Y9).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Size {
    /// Four points.
    Large = 0,
    /// Three points.
    Medium = 1,
    /// Two points.
    Small = 2,
}

impl Size {
    /// Large, medium, small.
    pub const ALL: [Size; 3] = [Size::Large, Size::Medium, Size::Small];

    /// Points scored by bearing off a pyramid of this size (Y9).
    pub const fn points(self) -> u32 {
        [4, 3, 2][self as usize]
    }

    /// The notation letter: `L M S` for black (the first player), `l m s` for white.
    pub fn letter(self, p: Player) -> char {
        let c = ['L', 'M', 'S'][self as usize];
        match p {
            Player::First => c,
            Player::Second => c.to_ascii_lowercase(),
        }
    }

    /// Reads a notation letter.
    pub fn from_letter(c: char) -> Option<(Player, Size)> {
        let p = if c.is_ascii_uppercase() {
            Player::First
        } else {
            Player::Second
        };
        let s = match c.to_ascii_uppercase() {
            'L' => Size::Large,
            'M' => Size::Medium,
            'S' => Size::Small,
            _ => return None,
        };
        Some((p, s))
    }
}

/// A `pyramid` position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pyramid {
    /// Squares of black's and white's pyramids.
    men: [u32; 2],
    /// Squares of the large pyramids, both colours.
    large: u32,
    /// Squares of the medium pyramids, both colours.
    medium: u32,
    /// Pyramids borne off, per player and size (Y9).
    off: [[u8; 3]; 2],
    turn: Player,
    /// The dice left to play: `[a, b]` with `a <= b` for two, `[d, 0]` for one, `[0, 0]`
    /// while a throw is pending.
    dice: [u8; 2],
    /// Y2: black's opening throw (a single die) is pending.
    opening: bool,
    /// Y8: the mover's pyramid on 26 arrived during this turn, so it is not yet bound.
    ankh_new: bool,
    decisions: u32,
    cap: u32,
}

/// Why a move is not legal.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Why {
    NoDie(u8),
    Backward,
    PastThirty,
    Numbered(u8),
    BearOffFirst(u8, u8),
    AnkhFirst,
    Blockade,
    OwnPiece(u8),
    SafeSquare(u8),
    Protected(u8),
    BothDice(u8),
}

impl Why {
    fn text(self) -> String {
        match self {
            Why::NoDie(d) => format!("no die in hand shows {d} (Y2)"),
            Why::Backward => "pyramids never move backward (Y6)".into(),
            Why::PastThirty => {
                "nothing moves past 30; only the numbered squares 27-30 bear off (Y6, Y7)".into()
            }
            Why::Numbered(s) => format!(
                "a pyramid on the numbered square {s} moves only by bearing off with a {} (Y7)",
                31 - s
            ),
            Why::BearOffFirst(s, d) => format!(
                "the {d} can bear off the pyramid on {s}, and such a bear-off comes before any other move (Y7)"
            ),
            Why::AnkhFirst => "the pyramid on the Ankh (26) arrived in an earlier turn and must be moved by the first die that can move it (Y8)".into(),
            Why::Blockade => {
                "three or more consecutive enemy pyramids cannot be passed (Y5)".into()
            }
            Why::OwnPiece(t) => format!("square {t} holds the mover's own pyramid (Y4)"),
            Why::SafeSquare(t) => {
                format!("the enemy pyramid on {t} is safe: squares 26-30 are safe (Y4)")
            }
            Why::Protected(t) => format!(
                "the enemy pyramid on {t} is safe: a pyramid of its colour stands next to it (Y4)"
            ),
            Why::BothDice(o) => format!(
                "the {o} could not be played afterwards, and both dice must be played when some order plays both (Y3)"
            ),
        }
    }
}

impl Pyramid {
    /// The option specs.
    pub fn option_specs() -> &'static [OptionSpec] {
        &OPTIONS
    }

    /// The start position (Y1, Y2): black on the odd squares 1-19, white on the even squares
    /// 2-20; large on 1-4, medium on 5-10, small on 11-20; black throws a single die.
    ///
    /// # Panics
    /// If `options` were not made from [`Pyramid::option_specs`].
    pub fn start(options: &Options) -> Pyramid {
        let black = (0..10).fold(0, |m, i| m | bit(2 * i + 1));
        Pyramid {
            men: [black, black << 1],
            large: 0b1111 << 1,
            medium: 0b11_1111 << 5,
            off: [[0; 3]; 2],
            turn: Player::First,
            dice: [0, 0],
            opening: true,
            ankh_new: false,
            decisions: 0,
            cap: options.int("cap").expect("pyramid's options"),
        }
    }

    /// The squares of each player's pyramids as bit masks (bit `s` for square `s`), black
    /// (the first player) first.
    pub fn men(&self) -> [u32; 2] {
        self.men
    }

    /// The squares of the large, medium and small pyramids of both colours.
    pub fn sizes(&self) -> [u32; 3] {
        [
            self.large,
            self.medium,
            (self.men[0] | self.men[1]) & !(self.large | self.medium),
        ]
    }

    /// The pyramid on square `s`, if any.
    pub fn at(&self, s: u8) -> Option<(Player, Size)> {
        if !(1..=30).contains(&s) {
            return None;
        }
        let p = if self.men[0] & bit(s) != 0 {
            Player::First
        } else if self.men[1] & bit(s) != 0 {
            Player::Second
        } else {
            return None;
        };
        Some((p, self.size_at(s)))
    }

    /// Pyramids each player has borne off, by size (large, medium, small).
    pub fn borne_off(&self) -> [[u8; 3]; 2] {
        self.off
    }

    /// Each player's points so far: borne-off pyramids, large 4, medium 3, small 2 (Y9).
    pub fn score(&self) -> [u32; 2] {
        self.off.map(|o| {
            Size::ALL
                .iter()
                .map(|&s| o[s as usize] as u32 * s.points())
                .sum()
        })
    }

    #[inline]
    fn size_at(&self, s: u8) -> Size {
        if self.large & bit(s) != 0 {
            Size::Large
        } else if self.medium & bit(s) != 0 {
            Size::Medium
        } else {
            Size::Small
        }
    }

    /// The squares from which the mover's pyramids can make an ordinary move with die `d`
    /// (Y4-Y7), ignoring the orders of Y7 and Y8.
    #[inline]
    fn sources(&self, d: u8) -> u32 {
        let me = self.turn.index();
        let (own, opp) = (self.men[me], self.men[1 - me]);
        // Y7: a pyramid on a numbered square moves only by bearing off.
        let movers = own & !NUMBERED;
        // Y5: runs of three or more (C1: consecutive numbers, 10-11 and 20-21 count) block
        // every pyramid that would pass a square of the run.
        let runs = track::runs(opp, 3);
        let mut passes = 0;
        for k in 1..d {
            passes |= runs >> k;
        }
        // Y4: no landing on one's own colour, nor on a safe enemy (26-30, or a neighbour of
        // its own colour).
        let barred = own | (opp & (SAFE | track::protected(opp)));
        // Y6: nothing moves past 30.
        movers & !passes & !(barred >> d) & (track::ALL >> d)
    }

    /// Y7: whether die `d` can bear off one of the mover's pyramids (27 with 4, 28 with 3,
    /// 29 with 2, 30 with 1).
    #[inline]
    fn bears_off(&self, d: u8) -> bool {
        self.men[self.turn.index()] & bit(31 - d) != 0
    }

    /// Whether die `d` has any legal move (Y3's test of the second die).
    #[inline]
    fn playable(&self, d: u8) -> bool {
        self.bears_off(d) || self.sources(d) != 0
    }

    /// Y8: the mover has a pyramid on the Ankh that arrived in an earlier turn.
    #[inline]
    fn ankh_due(&self) -> bool {
        !self.ankh_new && self.men[self.turn.index()] & bit(ANKH) != 0
    }

    /// The moves allowed for one decision with the distinct dice values `ds`, before Y3
    /// looks at the whole turn: Y7's bear-offs first, then Y8's Ankh, then anything.
    #[inline]
    fn candidates(&self, ds: &[u8], out: &mut MoveList) {
        // Y7: a die that can bear off a pyramid on a numbered square must do so first.
        for &d in ds {
            if self.bears_off(d) {
                out.push(Move {
                    from: 31 - d,
                    to: OFF,
                    die: d,
                    kind: MoveKind::PLAIN,
                });
            }
        }
        if !out.is_empty() {
            return;
        }
        let src: [u32; 2] = [
            self.sources(ds[0]),
            ds.get(1).map_or(0, |&d| self.sources(d)),
        ];
        // Y8: then the Ankh pyramid of an earlier turn, by any die that can move it.
        if self.ankh_due() {
            for (i, &d) in ds.iter().enumerate() {
                if src[i] & bit(ANKH) != 0 {
                    out.push(Move {
                        from: ANKH,
                        to: ANKH + d,
                        die: d,
                        kind: MoveKind::PLAIN,
                    });
                }
            }
            if !out.is_empty() {
                return;
            }
        }
        for (i, &d) in ds.iter().enumerate() {
            for s in track::squares(src[i]) {
                out.push(Move {
                    from: s,
                    to: s + d,
                    die: d,
                    kind: MoveKind::PLAIN,
                });
            }
        }
    }

    /// Whether, after the first move `m` of a two-dice turn, the other die `o` can still be
    /// played (or the game is over, which ends the turn as a whole: our reading of Y3 with
    /// Y9). `src_o` is `sources(o)` before `m`.
    #[inline]
    fn second_playable(&self, m: Move, o: u8, src_o: u32) -> bool {
        // Shortcut, exact: moving one pyramid from `from` to `to` only frees squares and
        // removes enemies, so every other source of `o` keeps its move, except the one
        // that would land on `to`. A bear-off of `o` stays available unless `m` took it.
        let own = self.men[self.turn.index()];
        if own & bit(31 - o) != 0 && m.from != 31 - o {
            return true;
        }
        let lost = if m.to != OFF && m.to > o {
            bit(m.to - o)
        } else {
            0
        };
        if src_o & !bit(m.from) & !lost != 0 {
            return true;
        }
        let mut g = *self;
        g.shift(m);
        g.men[0] == 0 || g.men[1] == 0 || g.playable(o)
    }

    /// Moves a pyramid (bearing it off or capturing), without touching dice or turn.
    #[inline]
    fn shift(&mut self, m: Move) -> Effect {
        let me = self.turn.index();
        let f = bit(m.from);
        let (was_large, was_medium) = (self.large & f != 0, self.medium & f != 0);
        self.men[me] &= !f;
        self.large &= !f;
        self.medium &= !f;
        if m.to == OFF {
            let size = if was_large {
                0
            } else if was_medium {
                1
            } else {
                2
            };
            self.off[me][size] += 1;
            return Effect::STEP | Effect::BEAR_OFF;
        }
        let t = bit(m.to);
        let mut bits = Effect::STEP;
        if self.men[1 - me] & t != 0 {
            // Y4: the enemy pyramid leaves the game.
            self.men[1 - me] &= !t;
            self.large &= !t;
            self.medium &= !t;
            bits |= Effect::CAPTURE;
        }
        self.men[me] |= t;
        if was_large {
            self.large |= t;
        }
        if was_medium {
            self.medium |= t;
        }
        bits
    }

    /// Counts a `pass` that a record written before ruling C7 holds for a lost die as the
    /// decision it was then (C5): the board and the turn are as they are, and the turn cap
    /// counts it, so a game that pass brought to the cap ends there as it did (C7's last
    /// sentence). See [`crate::play_legacy_pass`].
    pub(crate) fn count_legacy_pass(&mut self) {
        self.decisions += 1;
    }

    /// The game as a record written before ruling C7 ends it when move `m`, the first die of
    /// two played from `self`, brought it to the turn cap (C5) and left the other die with no
    /// legal move. C7 loses that die and passes the turn at once (`turn=1 dice=-` after
    /// white's move); the engine of the time kept it in hand for the same player, whose
    /// `pass` for it would have been the next decision, which the cap forbade, so such a
    /// record's final position is the player's turn with that die (`turn=2 dice=2`). Both are
    /// the same capped draw with the same board, decisions and score (C5); records written
    /// before C7 still replay to what they recorded (C7's last sentence). `None` where `m` is
    /// no such move: the new engine keeps a playable die in hand at the cap as the old one
    /// did. See [`crate::capped_before_c7`].
    pub(crate) fn capped_before_c7(&self, m: Move) -> Option<Pyramid> {
        let [a, b] = self.dice;
        if m.is_pass() || b == 0 {
            return None;
        }
        let mut after = *self;
        after.play_unchecked(m);
        let capped = matches!(after.status(), Status::Over(o) if o.capped);
        if !capped || after.turn == self.turn {
            // Not ended by the cap (Y9 ended it, or play goes on), or the die was kept.
            return None;
        }
        after.turn = self.turn;
        after.dice = [if m.die == a { b } else { a }, 0];
        after.ankh_new = self.ankh_new_after(m);
        Some(after)
    }

    /// Y8: a pyramid reaching the Ankh now is bound only from the next turn, so whether one
    /// is newly there after `m` (before the turn's end clears it).
    #[inline]
    fn ankh_new_after(&self, m: Move) -> bool {
        if m.to == ANKH {
            true
        } else if m.from == ANKH {
            false
        } else {
            self.ankh_new
        }
    }

    fn end_turn(&mut self) {
        self.dice = [0, 0];
        self.ankh_new = false;
        self.turn = self.turn.other();
    }

    /// The distinct dice values in hand.
    fn dice_values(&self) -> DiceValues {
        let [a, b] = self.dice;
        if b == 0 || a == b {
            DiceValues { v: [a, 0], n: 1 }
        } else {
            DiceValues { v: [a, b], n: 2 }
        }
    }

    /// Why the mover's pyramid on `s` cannot make the ordinary move with die `d`, if it
    /// cannot (Y4-Y7).
    fn check_step(&self, s: u8, d: u8) -> Result<(), Why> {
        let me = self.turn.index();
        let (own, opp) = (self.men[me], self.men[1 - me]);
        if NUMBERED & bit(s) != 0 {
            return Err(Why::Numbered(s));
        }
        let t = s + d;
        if t > 30 {
            return Err(Why::PastThirty);
        }
        if track::runs(opp, 3) & track::between(s, t) != 0 {
            return Err(Why::Blockade);
        }
        if own & bit(t) != 0 {
            return Err(Why::OwnPiece(t));
        }
        if opp & bit(t) != 0 {
            if SAFE & bit(t) != 0 {
                return Err(Why::SafeSquare(t));
            }
            if track::protected(opp) & bit(t) != 0 {
                return Err(Why::Protected(t));
            }
        }
        Ok(())
    }

    /// Reads the board and fields after the rule set's ID into a setup, checking what the
    /// text alone can say; the rest is [`Pyramid::try_from`]'s.
    pub fn parse_setup(options: &Options, tokens: &[&str]) -> Result<Setup, Error> {
        let Some((board, rest)) = tokens.split_first() else {
            return Err(Error::Position("the position lacks the board".into()));
        };
        let chars: Vec<char> = board.chars().collect();
        if chars.len() != 30 {
            return Err(Error::Position(format!(
                "the board must have 30 squares (one character each), got {}: {board:?}",
                chars.len()
            )));
        }
        let (mut men, mut large, mut medium) = ([0u32; 2], 0u32, 0u32);
        let mut on_board = [[0u8; 3]; 2];
        for (i, &c) in chars.iter().enumerate() {
            let s = i as u8 + 1;
            if c == '.' {
                continue;
            }
            let Some((p, size)) = Size::from_letter(c) else {
                return Err(Error::Position(format!(
                    "square {s} holds {c:?}; use L, M, S for black's (the first player's) large, medium, small pyramids, l, m, s for white's, or . for empty"
                )));
            };
            men[p.index()] |= bit(s);
            match size {
                Size::Large => large |= bit(s),
                Size::Medium => medium |= bit(s),
                Size::Small => {}
            }
            on_board[p.index()][size as usize] += 1;
        }
        let mut f = Fields::new(rest)?;
        let off = parse_off(f.need("off")?)?;
        for p in Player::BOTH {
            for size in Size::ALL {
                let (b, o) = (
                    on_board[p.index()][size as usize],
                    off[p.index()][size as usize],
                );
                if b + o > START_COUNT[size as usize] {
                    return Err(Error::Position(format!(
                        "{} has {b} {} pyramids on the board and {o} borne off, but only {} in all (Y1)",
                        side_name(p),
                        size_name(size),
                        START_COUNT[size as usize]
                    )));
                }
            }
        }
        let turn = f.need_player("turn")?;
        let dice = match f.need("dice")? {
            "-" => [0, 0],
            t => {
                let bad = || {
                    Error::Position(format!(
                        "dice={t} is not what a pyramid turn can hold: - (to throw), one die 1-4, or two like 3-4"
                    ))
                };
                let th = Throw::parse(t).map_err(|_| bad())?;
                if th.a > 4 || th.b > 4 {
                    return Err(bad());
                }
                [th.a, th.b]
            }
        };
        let opening = match f.get("opening") {
            None => false,
            Some("1") => true,
            Some(v) => {
                return Err(Error::Position(format!(
                    "field opening can only be 1 (black's single-die first throw is pending, Y2), got {v:?}"
                )))
            }
        };
        let ankh_new = match f.get("ankh") {
            None => false,
            Some("new") => true,
            Some(v) => {
                return Err(Error::Position(format!(
                    "field ankh can only be new (the mover's pyramid on 26 arrived this turn, Y8), got {v:?}"
                )))
            }
        };
        let decisions = f.need_u32("dec")?;
        f.finish()?;
        Ok(Setup {
            options: options.clone(),
            men,
            large,
            medium,
            off,
            turn,
            dice,
            opening,
            ankh_new,
            decisions,
        })
    }

    /// This position as plain data.
    pub fn setup(&self) -> Setup {
        Setup {
            options: self.options(),
            men: self.men,
            large: self.large,
            medium: self.medium,
            off: self.off,
            turn: self.turn,
            dice: self.dice,
            opening: self.opening,
            ankh_new: self.ankh_new,
            decisions: self.decisions,
        }
    }
}

/// A pyramid position before it is checked, every field public: what the notation's parser
/// (and an editor) produces. [`Pyramid::try_from`] checks it and names the first thing
/// wrong; [`Pyramid::setup`] gives a game's own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The options, made from [`Pyramid::option_specs`].
    pub options: Options,
    /// The squares of each side's pyramids, bit `s` for square `s` (1-30), black first.
    pub men: [u32; 2],
    /// The squares of the large pyramids (either side).
    pub large: u32,
    /// The squares of the medium pyramids; the other pyramids on the board are small.
    pub medium: u32,
    /// Pyramids borne off by each side, by size (large, medium, small).
    pub off: [[u8; 3]; 2],
    /// The player to throw or move.
    pub turn: Player,
    /// The dice in hand, smaller first; `[d, 0]` for one die, `[0, 0]` to throw.
    pub dice: [u8; 2],
    /// Whether black's single-die first throw is pending (Y2).
    pub opening: bool,
    /// Whether the mover's pyramid on 26 arrived this turn (Y8).
    pub ankh_new: bool,
    /// Decisions played so far (C5).
    pub decisions: u32,
}

impl TryFrom<Setup> for Pyramid {
    type Error = Error;

    /// Checks a setup: pyramid's options, some pyramid on the board, the opening and the
    /// ankh as the rules allow, and the invariants (one pyramid a square on 1-30, sizes only
    /// where pyramids stand, no more pyramids of a size than a side has, dice 1-4 smaller
    /// first).
    fn try_from(s: Setup) -> Result<Pyramid, Error> {
        if s.options.specs() != OPTIONS {
            return Err(Error::Options("the options are not pyramid's".into()));
        }
        let Setup {
            men,
            large,
            medium,
            off,
            turn,
            dice,
            opening,
            ankh_new,
            decisions,
            ..
        } = s;
        if men[0] == 0 && men[1] == 0 {
            return Err(Error::Position(
                "both sides cannot be without pyramids: the game ends when the first side has none (Y9)".into(),
            ));
        }
        if opening && (turn != Player::First || dice != [0, 0]) {
            return Err(Error::Position(
                "opening=1 (black's single-die first throw, Y2) needs turn=1 and dice=-".into(),
            ));
        }
        if ankh_new && (dice[0] == 0 || dice[1] != 0 || men[turn.index()] & bit(ANKH) == 0) {
            return Err(Error::Position(format!(
                "ankh=new needs a pyramid of player {turn} on 26 and one die left to play (Y8)"
            )));
        }
        let g = Pyramid {
            men,
            large,
            medium,
            off,
            turn,
            dice,
            opening,
            ankh_new,
            decisions,
            cap: s.options.int("cap")?,
        };
        g.check_invariants().map_err(Error::Position)?;
        Ok(g)
    }
}

/// One or two distinct dice values.
#[derive(Copy, Clone)]
struct DiceValues {
    v: [u8; 2],
    n: usize,
}

impl DiceValues {
    fn as_slice(&self) -> &[u8] {
        &self.v[..self.n]
    }
}

fn side_name(p: Player) -> &'static str {
    match p {
        Player::First => "black (player 1)",
        Player::Second => "white (player 2)",
    }
}

fn size_name(s: Size) -> &'static str {
    ["large", "medium", "small"][s as usize]
}

/// `off=LLM,s`: the borne-off pyramids of black (`L M S`) and white (`l m s`), `-` for none.
fn off_string(off: [[u8; 3]; 2]) -> String {
    let mut out = String::new();
    for p in Player::BOTH {
        if p == Player::Second {
            out.push(',');
        }
        let before = out.len();
        for size in Size::ALL {
            for _ in 0..off[p.index()][size as usize] {
                out.push(size.letter(p));
            }
        }
        if out.len() == before {
            out.push('-');
        }
    }
    out
}

fn parse_off(field: &str) -> Result<[[u8; 3]; 2], Error> {
    let bad = |why: String| {
        Error::Position(format!(
            "field off lists the borne-off pyramids like LLM,s (black's in L M S, white's in l m s, - for none): {why}"
        ))
    };
    let parts: Vec<&str> = field.split(',').collect();
    if parts.len() != 2 {
        return Err(bad(format!("got {field:?}")));
    }
    let mut off = [[0u8; 3]; 2];
    for (i, part) in parts.iter().enumerate() {
        if *part == "-" {
            continue;
        }
        if part.is_empty() || part.len() > 10 {
            return Err(bad(format!("got {part:?}")));
        }
        for c in part.chars() {
            match Size::from_letter(c) {
                Some((p, size)) if p.index() == i => off[i][size as usize] += 1,
                _ => {
                    return Err(bad(format!(
                        "{c:?} is not a letter of {}",
                        side_name(Player::from_index(i))
                    )))
                }
            }
        }
    }
    Ok(off)
}

impl Game for Pyramid {
    fn rules(&self) -> RuleSet {
        RuleSet::Pyramid
    }

    #[inline]
    fn status(&self) -> Status {
        // Y9: the game ends when one side has no pyramids on the board; more points wins,
        // equal points is a draw.
        if self.men[0] == 0 || self.men[1] == 0 {
            let s = self.score();
            let winner = match s[0].cmp(&s[1]) {
                std::cmp::Ordering::Greater => Some(Player::First),
                std::cmp::Ordering::Less => Some(Player::Second),
                std::cmp::Ordering::Equal => None,
            };
            return Status::Over(Outcome {
                winner,
                capped: false,
                score: Some(s),
            });
        }
        if self.decisions >= self.cap {
            // C5
            return Status::Over(Outcome {
                winner: None,
                capped: true,
                score: Some(self.score()),
            });
        }
        if self.dice[0] == 0 {
            Status::Throw(self.turn)
        } else {
            Status::Move(self.turn)
        }
    }

    fn throw_dist(&self) -> Dist {
        if self.opening {
            Dist {
                outcomes: &OPENING,
                total: 4,
                kind: ThrowKind::Die, // Y2
            }
        } else {
            Dist {
                outcomes: &DICE,
                total: 16,
                kind: ThrowKind::Dice, // Y2
            }
        }
    }

    fn in_hand(&self) -> Option<Throw> {
        match self.dice {
            [0, _] => None,
            [d, 0] => Some(Throw::single(d)),
            [a, b] => Some(Throw::dice(a, b)),
        }
    }

    fn set_throw_unchecked(&mut self, t: Throw) {
        self.dice = [t.a, t.b];
        self.opening = false;
    }

    fn legal_moves(&self, moves: &mut MoveList) {
        if !matches!(self.status(), Status::Move(_)) {
            return;
        }
        let start = moves.len();
        let ds = self.dice_values();
        self.candidates(ds.as_slice(), moves);
        if self.dice[1] != 0 && moves.len() > start {
            // Y3: both dice must be played if any order plays both; the first move must
            // leave the other die playable.
            let [a, b] = self.dice;
            let (src_a, src_b) = (self.sources(a), self.sources(b));
            let mut keep = 0u32;
            for (i, &m) in moves[start..].iter().enumerate() {
                let (o, src_o) = if m.die == a { (b, src_b) } else { (a, src_a) };
                if self.second_playable(m, o, src_o) {
                    keep |= 1 << i;
                }
            }
            if keep != 0 {
                let mut i = 0;
                moves.retain(|_| {
                    let k = i < start || keep & (1 << (i - start)) != 0;
                    i += 1;
                    k
                });
            }
            // Otherwise no order plays both: the player picks which die to play (Y3).
        }
        if moves.len() == start {
            moves.push(Move::PASS); // C4
        }
    }

    fn play_unchecked(&mut self, m: Move) -> Effects {
        self.decisions += 1;
        if m.is_pass() {
            // C4: no legal move for the dice in hand; they are forfeited and the turn passes.
            self.end_turn();
            return Effects {
                flags: Effect::FORFEIT,
                turn_continues: false,
            };
        }
        let [a, b] = self.dice;
        let rest = if b == 0 {
            0
        } else if m.die == a {
            b
        } else {
            a
        };
        let bits = self.shift(m);
        self.ankh_new = self.ankh_new_after(m);
        if self.men[0] == 0 || self.men[1] == 0 {
            // Y9: the game is over at once; a die still in hand is not played.
            self.dice = [0, 0];
            self.ankh_new = false;
            return Effects {
                flags: bits,
                turn_continues: false,
            };
        }
        if rest != 0 && self.playable(rest) {
            // Y2: the other die stays in hand for the same player. C7: a die left with no
            // legal move is lost without a decision of its own, and the turn passes at once.
            self.dice = [rest, 0];
            Effects {
                flags: bits,
                turn_continues: self.decisions < self.cap,
            }
        } else {
            self.end_turn();
            Effects {
                flags: bits,
                turn_continues: false,
            }
        }
    }

    fn decisions(&self) -> u32 {
        self.decisions
    }

    fn options(&self) -> Options {
        let mut o = Options::defaults(&OPTIONS);
        o.set("cap", OptionValue::Int(self.cap))
            .expect("the cap is in range");
        o
    }
}

impl Notation for Pyramid {
    fn example_moves(&self) -> &'static str {
        "5-8, 29-off, pass"
    }

    fn move_string(&self, m: Move) -> String {
        // The die is implied: `to - from`, or the square's number for a bear-off (Y7), so
        // from-to is unique among the legal moves.
        if m.is_pass() {
            "pass".into()
        } else {
            format!("{}-{}", m.from, self.square_name(m.to))
        }
    }

    fn die_used(&self, m: Move) -> Option<String> {
        (!m.is_pass()).then(|| m.die.to_string())
    }

    fn why_illegal(&self, text: &str) -> String {
        let mut legal = MoveList::new();
        self.legal_moves(&mut legal);
        let list = legal
            .iter()
            .map(|&m| self.move_string(m))
            .collect::<Vec<_>>()
            .join(", ");
        let dice = self.in_hand().map_or("-".into(), |t| t.to_string());
        let t = text.trim();
        let reason = if t.eq_ignore_ascii_case("pass") {
            "a pass is allowed only when no die in hand can be played (C4, Y3)".to_string()
        } else {
            match self.why_step(t, &legal) {
                Ok(r) => r,
                Err(()) => {
                    return format!(
                        "{text:?} is not a move like 12-15, 30-off or pass. Legal moves: {list}"
                    )
                }
            }
        };
        format!("{t} is illegal with dice {dice}: {reason}. Legal moves: {list}")
    }

    fn position(&self) -> String {
        let opts = self.options().non_default_string();
        let board: String = (1..=30u8)
            .map(|s| self.at(s).map_or('.', |(p, size)| size.letter(p)))
            .collect();
        format!(
            "pyramid{}{} {board} off={} turn={} dice={}{}{} dec={}",
            if opts.is_empty() { "" } else { ":" },
            opts,
            off_string(self.off),
            self.turn,
            self.in_hand().map_or("-".into(), |t| t.to_string()),
            if self.opening { " opening=1" } else { "" },
            if self.ankh_new { " ankh=new" } else { "" },
            self.decisions
        )
    }
}

impl View for Pyramid {
    fn diagram(&self) -> String {
        let mut out = String::new();
        let rows: [[u8; 10]; 3] = [
            std::array::from_fn(|i| i as u8 + 1),
            std::array::from_fn(|i| 20 - i as u8),
            std::array::from_fn(|i| i as u8 + 21),
        ];
        for (r, row) in rows.iter().enumerate() {
            out.push_str(["-> ", "<- ", "-> "][r]);
            for s in row {
                let _ = write!(out, "{s:>3}");
            }
            out.push_str("\n   ");
            for &s in row {
                let c = self.at(s).map_or('.', |(p, size)| size.letter(p));
                let _ = write!(out, "{c:>3}");
            }
            out.push('\n');
        }
        out.push_str("   26 Ankh, 27 X (4), 28 III (3), 29 II (2), 30 I (1)\n");
        let score = self.score();
        let census = self.census();
        for p in Player::BOTH {
            let i = p.index();
            let _ = writeln!(
                out,
                "{} {}: borne off {}, {} points; {} captured",
                side_name(p),
                ["L M S", "l m s"][i],
                off_string(self.off).split(',').nth(i).unwrap_or("-"),
                score[i],
                census[i].captured
            );
        }
        match self.status() {
            Status::Throw(p) => {
                let _ = write!(
                    out,
                    "player {p} to throw {}",
                    if self.opening {
                        "one die (opening, Y2)"
                    } else {
                        "two dice"
                    }
                );
            }
            Status::Move(p) => {
                let _ = write!(
                    out,
                    "player {p} to move with {}",
                    self.in_hand().map_or("-".into(), |t| t.to_string())
                );
                let ds = self.dice_values();
                let bear: Vec<String> = ds
                    .as_slice()
                    .iter()
                    .filter(|&&d| self.bears_off(d))
                    .map(|&d| format!("{}-off", 31 - d))
                    .collect();
                if !bear.is_empty() {
                    let _ = write!(out, "\nmust bear off first (Y7): {}", bear.join(", "));
                } else if self.ankh_due() {
                    let _ = write!(
                        out,
                        "\nthe pyramid on 26 must move if a die can move it (Y8)"
                    );
                } else if self.ankh_new {
                    let _ = write!(
                        out,
                        "\nthe pyramid on 26 arrived this turn: not yet bound (Y8)"
                    );
                }
            }
            Status::Over(o) => {
                let s = o.score.unwrap_or([0, 0]);
                let _ = match (o.winner, o.capped) {
                    (_, true) => write!(out, "over: draw (turn cap), points {}-{}", s[0], s[1]),
                    (Some(p), _) => write!(out, "over: player {p} wins {}-{}", s[0], s[1]),
                    (None, _) => write!(out, "over: draw on equal points {}-{}", s[0], s[1]),
                };
            }
        }
        out
    }

    fn view(&self) -> BoardView {
        let mut v = track::view(
            self.men,
            10,
            &[
                Mark::new(
                    26,
                    "Ankh",
                    "Ankh: a pyramid here must move on the first die that can move it (Y8)",
                ),
                Mark::new(
                    27,
                    "X",
                    "X: bears off only with a 4, before other moves (Y7)",
                ),
                Mark::new(
                    28,
                    "III",
                    "III: bears off only with a 3, before other moves (Y7)",
                ),
                Mark::new(
                    29,
                    "II",
                    "II: bears off only with a 2, before other moves (Y7)",
                ),
                Mark::new(
                    30,
                    "I",
                    "I: bears off only with a 1, before other moves (Y7)",
                ),
            ],
        );
        for c in &mut v.cells {
            if let Some((p, size)) = self.at(c.square) {
                c.pieces = vec![PieceView {
                    player: p.index() as u8 + 1,
                    kind: size.letter(p),
                    name: ["large pyramid", "medium pyramid", "small pyramid"][size as usize],
                }];
            }
            if c.square >= 26 {
                c.label =
                    ["26 ankh", "27 X", "28 III", "29 II", "30 I"][c.square as usize - 26].into();
            }
        }
        let census = self.census();
        v.off = census.map(|c| c.off);
        v.captured = census.map(|c| c.captured);
        let score = self.score();
        v.notes = vec![
            ("points (Y9)".into(), format!("{} - {}", score[0], score[1])),
            ("borne off".into(), off_string(self.off)),
        ];
        v
    }
}

impl Metrics for Pyramid {
    fn max_points(&self) -> Option<u32> {
        // Y9: every pyramid of a side borne off.
        Some(
            Size::ALL
                .iter()
                .map(|&s| START_COUNT[s as usize] as u32 * s.points())
                .sum(),
        )
    }

    fn points_if_won(&self) -> Option<[u32; 2]> {
        // Y9: both sides keep what they bore off, winner or not.
        Some(self.score())
    }

    fn both_keep_points(&self) -> bool {
        true // Y9
    }

    fn census(&self) -> [Census; 2] {
        [0, 1].map(|i| {
            let board = self.men[i].count_ones() as u8;
            let off = self.off[i].iter().sum::<u8>();
            Census {
                board,
                off,
                captured: 10 - board - off,
            }
        })
    }

    fn check_invariants(&self) -> Result<(), String> {
        track::check_two_colours(self.men, 10)?;
        let all = self.men[0] | self.men[1];
        if (self.large | self.medium) & !all != 0 {
            return Err("a size is recorded on an empty square".into());
        }
        if self.large & self.medium != 0 {
            return Err("a pyramid is both large and medium".into());
        }
        let sizes = self.sizes();
        for p in Player::BOTH {
            for size in Size::ALL {
                let i = size as usize;
                let n =
                    (self.men[p.index()] & sizes[i]).count_ones() as u8 + self.off[p.index()][i];
                if n > START_COUNT[i] {
                    return Err(format!(
                        "{} has {n} {} pyramids on the board and off",
                        side_name(p),
                        size_name(size)
                    ));
                }
            }
        }
        let [a, b] = self.dice;
        if a > 4 || b > 4 || (a == 0 && b != 0) || (b != 0 && a > b) {
            return Err(format!("impossible dice {a},{b}"));
        }
        if self.opening && (self.dice != [0, 0] || self.turn != Player::First) {
            return Err("the opening throw is pending with dice in hand or for white".into());
        }
        if self.ankh_new && (b != 0 || a == 0 || self.men[self.turn.index()] & bit(ANKH) == 0) {
            return Err("ankh=new without the mover's pyramid on 26 and one die left".into());
        }
        Ok(())
    }
}

impl Pyramid {
    /// The reason a move string `from-to` is illegal; `Err` when it is not a move string.
    fn why_step(&self, t: &str, legal: &MoveList) -> Result<String, ()> {
        let (f, to) = t.split_once('-').ok_or(())?;
        let from: u8 = f.trim().parse().map_err(|_| ())?;
        let to = to.trim();
        let to: u8 = if to.eq_ignore_ascii_case("off") {
            OFF
        } else {
            match to.parse::<u8>().map_err(|_| ())? {
                t if t > 30 => return Ok(Why::PastThirty.text()),
                t => t,
            }
        };
        let me = self.turn.index();
        if !(1..=30).contains(&from) || self.men[me] & bit(from) == 0 {
            return Ok(format!("player {} has no pyramid on {from}", self.turn));
        }
        let ds = self.dice_values();
        let ds = ds.as_slice();
        let d = if to == OFF {
            if NUMBERED & bit(from) == 0 {
                return Ok(Why::PastThirty.text());
            }
            31 - from
        } else if to <= from {
            return Ok(Why::Backward.text());
        } else {
            to - from
        };
        if !ds.contains(&d) {
            if NUMBERED & bit(from) != 0 {
                return Ok(Why::Numbered(from).text());
            }
            return Ok(Why::NoDie(d).text());
        }
        if to != OFF {
            if let Err(w) = self.check_step(from, d) {
                return Ok(w.text());
            }
        }
        // The move itself is possible: an order of play forbids it.
        if to != OFF {
            if let Some(&b) = ds.iter().find(|&&b| self.bears_off(b)) {
                return Ok(Why::BearOffFirst(31 - b, b).text());
            }
            if self.ankh_due() && from != ANKH && legal.iter().any(|m| m.from == ANKH) {
                return Ok(Why::AnkhFirst.text());
            }
        }
        if self.dice[1] != 0 {
            let o = if d == self.dice[0] {
                self.dice[1]
            } else {
                self.dice[0]
            };
            return Ok(Why::BothDice(o).text());
        }
        Ok("it breaks no single rule here; see the legal moves".into())
    }
}

pub(crate) fn parse(options: &Options, tokens: &[&str]) -> Result<Pyramid, Error> {
    Pyramid::try_from(Pyramid::parse_setup(options, tokens)?)
}
