//! The race core: one engine for the rule sheets that race five pieces a side along the
//! common 30-square track (ruling C1): `kendall`, `kendall5`, `houses` and `senat`.
//!
//! A sheet is data, a [`RaceSpec`]: its throws and bonus throws, safe squares, blockades,
//! what landing on an opponent does, when pieces move backward, the 26 gate, the water of
//! 27, how 28-30 and the end of the track bear off, its opening and its texts. The sheet's
//! file (`kendall.rs`, ...) holds that spec, every field citing its ruling, and the little
//! code that is truly its own (notes beside the board). This module holds everything else,
//! once: the state ([`Race`]), the move generator (bitboards, every piece at once, with
//! per-throw source masks computed from the spec at compile time), `play`, the notation
//! (position string, move strings), the explanation of illegal moves, the census, the
//! invariants and the view.
//!
//! The generator and the piece-by-piece rules (`Race::forward`, `Race::backward`, used
//! to explain refusals) must agree; a test checks them against each other on every sheet
//! and option.

use crate::game::{
    BoardView, Census, Dist, Effect, Effects, Game, Mark, Move, MoveKind, MoveList, Outcome,
    Player, Status, Throw, ThrowKind, OFF,
};
use crate::game::{Metrics, Notation, View};
use crate::options::{OptionKind, OptionSpec, OptionValue, Options};
use crate::track::{self, bit, Fields};
use crate::{Error, RuleSet};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::hint::select_unpredictable;
use std::marker::PhantomData;

mod setup;
pub use setup::Setup;

/// What landing on an opposing piece that may be attacked does.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Hit {
    /// The two pieces exchange squares (on a backward move the opponent goes forward).
    Swap,
    /// The opponent goes back to the lowest-numbered empty square; the mover takes its square.
    SendBack,
}

/// The rule of square 26 for forward moves from below it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Gate {
    /// No gate: pieces pass 26 freely.
    Open,
    /// 26 must be landed on exactly: a forward move that would pass it is illegal.
    Exact,
    /// A move that would pass 26 stops on it; while 26 is occupied nothing reaches or passes
    /// it.
    Stop,
}

/// Where the water (27) sends a piece when 15 is occupied.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum WaterFallback {
    /// The highest empty square below 15 (14, 13, ...).
    HighestBelow,
    /// The lowest empty square (1, 2, ...).
    Lowest,
}

/// A sheet's opening.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OpeningRule {
    /// None: the first player simply throws and moves.
    None,
    /// The first decision of the game must move the piece on 10 (notation `forced=10`).
    PieceOnTen,
    /// The game opens on a decision: the first player holds a 1 and must play the piece on
    /// 10 (`forced=10`); then the second player's first decision must move the piece on 9
    /// when that piece can move (`forced=9`).
    TenThenNine,
}

/// The sentences of a sheet, as templates: `{n}` the throw, `{from}` and `{to}` squares,
/// `{t}` a target square, `{s}` a source square, `{k}` a throw value, `{why}` and `{back}`
/// reasons, `{turn}` a player, `{v}` a field value as written, `{throw}` the throw field.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Texts {
    /// What a move looks like, for a string that is not one.
    pub example: &'static str,
    /// Whether that message lists the legal moves too.
    pub list_on_bad_syntax: bool,
    /// Why `pass` is illegal ("" : `pass` is treated as a malformed move).
    pub pass: &'static str,
    /// Why `decline` is illegal when there are no leftover steps ("" : no leftover rule).
    pub decline: &'static str,
    /// A legal move of the piece named, when the text named another destination.
    pub goes_to: &'static str,
    /// A piece that can go forward was asked to go back ("" : not said).
    pub forward_not_back: &'static str,
    /// A piece could go back, but some piece can go forward.
    pub back_only_if_stuck: &'static str,
    /// Neither direction works.
    pub both_ways: &'static str,
    /// The piece may only move back.
    pub only_back: &'static str,
    /// The opening's first move is bound.
    pub first_move: &'static str,
    /// Whether `first_move` is said for every piece, the piece on 10 included.
    pub first_move_any_from: bool,
    /// The second player's first move is bound to the piece on 9.
    pub nine: &'static str,
    /// How the leftover steps are named in the sentence's head.
    pub with_leftover: &'static str,
    /// A legal leftover move of the piece named.
    pub leftover_goes: &'static str,
    /// A piece that cannot take the leftover steps.
    pub leftover_refused: &'static str,
    /// Reasons a piece cannot move.
    pub own_piece: &'static str,
    /// The target is a safe square.
    pub safe: &'static str,
    /// The target's piece is protected by a neighbour.
    pub protected: &'static str,
    /// A blockade is in the way.
    pub blockade: &'static str,
    /// A backward move would go below 1.
    pub below_one: &'static str,
    /// A forward move would go past 30.
    pub past_thirty: &'static str,
    /// A forward move would pass 26.
    pub past_26: &'static str,
    /// A piece on 28-30 that moves only by bearing off.
    pub on_house: &'static str,
    /// Pieces on 28-30 never move backward.
    pub no_back_from_house: &'static str,
    /// 26 is occupied and blocks.
    pub happiness: &'static str,
    /// Bearing off is not allowed yet.
    pub no_bear_off: &'static str,
    /// The end of `throw={t} is not a ...` in a position string.
    pub bad_throw: &'static str,
    /// A `forced=` field with a wrong value.
    pub forced_field: &'static str,
    /// A `forced=10` that the board contradicts.
    pub forced_needs: &'static str,
    /// A `left=` field out of range.
    pub left_field: &'static str,
    /// A `left=` that the board contradicts.
    pub left_needs: &'static str,
    /// A position with a piece on 27.
    pub no_27: &'static str,
    /// A position with a piece on 26-30 where landing on 26 bears off.
    pub no_26_to_30: &'static str,
    /// The invariant of 27, broken.
    pub on_27: &'static str,
    /// The invariant of 26-30 where landing on 26 bears off, broken.
    pub on_26_to_30: &'static str,
    /// The invariant of leftover steps, broken.
    pub bad_left: &'static str,
}

/// The rules of one sheet (with one choice of its options) as data.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RaceSpec {
    /// The rule set.
    pub rules: RuleSet,
    /// The throws and their weights.
    pub throws: &'static [(Throw, u32)],
    /// The sum of the weights.
    pub throw_total: u32,
    /// What the throws are made with.
    pub throw_kind: ThrowKind,
    /// Bit `n` set: a throw of `n` gives another throw.
    pub bonus_throws: u32,
    /// Landing on one of these squares gives another throw.
    pub bonus_squares: u32,
    /// Whether falling into the water cancels every bonus throw of the move.
    pub water_ends_turn: bool,
    /// Whether the first player starts on the odd squares 1-9 (else on the even 2-10).
    pub first_on_odd: bool,
    /// The opening.
    pub opening: OpeningRule,
    /// Squares where an opposing piece cannot be landed on.
    pub safe: u32,
    /// Whether a blockade (three or more consecutive pieces) runs on across the corners
    /// 10|11 and 20|21. Two or more consecutive pieces are always protected, corners
    /// included.
    pub blockade_turns_corners: bool,
    /// What landing on an opposing piece does.
    pub hit: Hit,
    /// Whether a throw with no forward move must be used backward.
    pub backward: bool,
    /// The rule of 26.
    pub gate: Gate,
    /// Whether a piece that lands on 26 is borne off at once.
    pub gate_bears_off: bool,
    /// Where the water sends a piece when 15 is occupied.
    pub water_fallback: WaterFallback,
    /// Whether a piece on 28, 29, 30 bears off with exactly 3, 2, 1.
    pub houses_bear_off: bool,
    /// Whether pieces on 28-30 move in no other way (forward or backward).
    pub houses_frozen: bool,
    /// The throw that bears a piece off from 26 (passing 27-30), 0 for none.
    pub bear_off_from_26: u8,
    /// Whether any throw that carries a piece past 30 bears it off.
    pub bear_off_past_30: bool,
    /// Whether bearing off past 30 needs the player's pieces all off squares 1-10.
    pub bear_off_needs_row_one_clear: bool,
    /// Whether the steps of a bear-off past 31 may move another piece (or be declined).
    pub leftover: bool,
    /// Whether the winner scores one point per opposing piece on the board.
    pub score: bool,
    /// The special squares for the board view: a short mark and a description each.
    pub marks: &'static [Mark],
    /// The sentences.
    pub texts: Texts,
}

/// The source masks of one throw value, derived from a spec: which pieces could make which
/// kind of move on an empty board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
struct Steps {
    /// Ordinary forward moves to `s + n` (27 included: the water is applied after).
    plain: u32,
    /// Bear-offs with no condition (28, 29, 30 with exactly 3, 2, 1).
    off: u32,
    /// Bear-offs that must not pass a blockade (and may need row one clear).
    off_checked: u32,
    /// Moves that stop on 26 (a `Gate::Stop`).
    stop: u32,
    /// Backward moves to `s - n`.
    back: u32,
}

/// Throw values go up to 7 (six sticks, none marked: H12).
const MAX_THROW: usize = 8;

/// A [`RaceSpec`] with the move tables derived from it at compile time.
#[derive(Debug)]
pub struct RaceRules {
    /// The spec.
    pub spec: RaceSpec,
    steps: [Steps; MAX_THROW],
    /// The throw for each `x` below the total weight: `Dist::sample` as a table.
    throw_at: [u8; MAX_TOTAL],
}

/// The largest total weight of a throw distribution (six sticks: H12).
const MAX_TOTAL: usize = 64;

impl RaceRules {
    /// Derives the move tables of a spec; each entry mirrors `Race::forward` and
    /// `Race::backward` on an empty board.
    pub const fn new(spec: RaceSpec) -> RaceRules {
        let mut steps = [Steps {
            plain: 0,
            off: 0,
            off_checked: 0,
            stop: 0,
            back: 0,
        }; MAX_THROW];
        let mut n = 1u8;
        while (n as usize) < MAX_THROW {
            let mut st = steps[n as usize];
            let mut s = 1u8;
            while s <= 30 {
                let b = 1u32 << s;
                // Forward, in the order of `Race::forward`.
                let t = s + n;
                let gated = !matches!(spec.gate, Gate::Open) && s < 26 && t > 26;
                let stop = matches!(spec.gate, Gate::Stop);
                if s >= 28 && spec.houses_bear_off && n == 31 - s {
                    st.off |= b;
                } else if s >= 28 && spec.houses_frozen {
                } else if s == 26 && n == spec.bear_off_from_26 {
                    st.off_checked |= b;
                } else if t > 30 && !(gated && stop) {
                    if spec.bear_off_past_30 {
                        st.off_checked |= b;
                    }
                } else if gated && !stop {
                } else if stop && s < 26 && t >= 26 {
                    st.stop |= b;
                } else {
                    st.plain |= b;
                }
                // Backward.
                if spec.backward && !(s >= 28 && spec.houses_frozen) && n < s {
                    st.back |= b;
                }
                s += 1;
            }
            steps[n as usize] = st;
            n += 1;
        }
        assert!(spec.throw_total as usize <= MAX_TOTAL);
        let mut throw_at = [0u8; MAX_TOTAL];
        let (mut x, mut i, mut acc) = (0u32, 0usize, 0u32);
        while x < spec.throw_total {
            while x >= acc + spec.throws[i].1 {
                acc += spec.throws[i].1;
                i += 1;
            }
            throw_at[x as usize] = spec.throws[i].0.a;
            x += 1;
        }
        RaceRules {
            spec,
            steps,
            throw_at,
        }
    }

    /// Where a forward move by `n` of a piece on `s` ends on an otherwise empty board, when
    /// it ends on the track: `s + n` for an ordinary move, 26 for a move that stops there
    /// (`Gate::Stop`). `None` for a bear-off, a move the rules forbid, and a move into the
    /// water (27: the piece goes on to 15 or below). Mirrors `Race::forward`.
    pub const fn landing(&self, s: u8, n: u8) -> Option<u8> {
        if s == 0 || s > 30 || n as usize >= MAX_THROW {
            return None;
        }
        let (b, st) = (1u32 << s, &self.steps[n as usize]);
        if st.plain & b != 0 && s + n != 27 {
            Some(s + n)
        } else if st.stop & b != 0 && !self.spec.gate_bears_off {
            Some(26)
        } else {
            None
        }
    }
}

/// A rule sheet played by the race core: its options and its specs.
pub trait Sheet: Copy + fmt::Debug + Eq + Hash + Send + Sync + 'static {
    /// The name of the game type, for `Debug`.
    const NAME: &'static str;
    /// The options: the flags, whose values are the bits of the variant in this order, and
    /// `cap`.
    const OPTIONS: &'static [OptionSpec];
    /// The rules for the options whose flags are the bits of `variant`.
    fn rules(variant: u8) -> &'static RaceRules;
    /// Notes beside the board (the sheet's own).
    fn notes(_g: &Race<Self>, _v: &mut BoardView) {}
    /// A line under the diagram (the sheet's own).
    fn diagram_note(_g: &Race<Self>) -> Option<String> {
        None
    }
}

/// Where the opening stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Opening {
    /// The first decision must move the piece on 10 (`forced=10`).
    Ten,
    /// `OpeningRule::TenThenNine`: the second player's first decision is still to come
    /// (`forced=9`).
    Nine,
    /// The opening is over.
    Done,
}

/// Pieces a side (C2, R1).
pub const PIECES: u32 = 5;

/// Squares 1-10, the first row.
const ROW_ONE: u32 = 0x7FE;

/// A position of a race sheet `S`.
#[derive(Copy, Clone, PartialEq, Eq)]
pub struct Race<S: Sheet> {
    men: [u32; 2],
    turn: Player,
    /// The throw in hand, 0 while a throw is pending.
    throw: u8,
    /// Leftover steps of a bear-off still to be used or declined, 0 if none.
    left: u8,
    opening: Opening,
    /// The flag options, bit `i` for the `i`th flag of `S::OPTIONS`.
    variant: u8,
    decisions: u32,
    cap: u32,
    sheet: PhantomData<S>,
}

/// The masks every move of the side to move is checked against, computed once per position.
struct Sides {
    own: u32,
    opp: u32,
    /// Squares of the opponent's blockades.
    block: u32,
    /// Opposing pieces with a neighbour of their colour.
    prot: u32,
    /// Squares that cannot be landed on: own pieces, safe or protected opponents.
    bad: u32,
    /// All ones when the player may bear off past 30, else 0.
    bear_ok: u32,
}

/// Why a piece cannot make a move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Why {
    OnHouse(u8),
    PastThirty,
    PastTwentySix,
    BelowOne,
    NoBackwardFromHouse,
    Blockade,
    OwnPiece(u8),
    Safe(u8),
    Protected(u8),
    Happiness,
    NoBearOff,
}

/// Fills a template's `{key}` slots.
fn fill(template: &str, args: &[(&str, &dyn fmt::Display)]) -> String {
    let mut out = template.to_string();
    for (k, v) in args {
        out = out.replace(&format!("{{{k}}}"), &v.to_string());
    }
    out
}

impl Why {
    fn text(self, tx: &Texts) -> String {
        match self {
            Why::OnHouse(s) => fill(tx.on_house, &[("s", &s), ("k", &(31 - s))]),
            Why::PastThirty => tx.past_thirty.into(),
            Why::PastTwentySix => tx.past_26.into(),
            Why::BelowOne => tx.below_one.into(),
            Why::NoBackwardFromHouse => tx.no_back_from_house.into(),
            Why::Blockade => tx.blockade.into(),
            Why::OwnPiece(t) => fill(tx.own_piece, &[("t", &t)]),
            Why::Safe(t) => fill(tx.safe, &[("t", &t)]),
            Why::Protected(t) => fill(tx.protected, &[("t", &t)]),
            Why::Happiness => tx.happiness.into(),
            Why::NoBearOff => tx.no_bear_off.into(),
        }
    }
}

/// The squares at or above `h` (all squares for `h == 0`).
#[inline]
fn at_or_above(h: u32) -> u32 {
    !((1u32 << h) - 1)
}

/// The union of `shift(block, i)` for `i` in `1..n` (empty for `n` = 1), for a `block` made
/// of runs of three or more squares and `n` at most 7: then the shifts by 1, `n / 2` and
/// `n - 1` cover the others (two of them are at most three apart, and a run of three shifted
/// by `i` and by `i + 3` leaves no square between).
#[inline]
fn smear(block: u32, n: u8, shift: impl Fn(u32, u32) -> u32) -> u32 {
    debug_assert!(n as usize <= 7);
    let n = n as u32;
    let all = shift(block, 1) | shift(block, n >> 1) | shift(block, n.saturating_sub(1));
    all & 0u32.wrapping_sub((n > 1) as u32)
}

/// The highest square of a mask, 0 if empty.
#[inline]
fn highest(m: u32) -> u32 {
    if m == 0 {
        0
    } else {
        31 - m.leading_zeros()
    }
}

impl<S: Sheet> Race<S> {
    /// The option specs.
    pub fn option_specs() -> &'static [OptionSpec] {
        S::OPTIONS
    }

    /// The start position: five pieces a side on 1-10 (C2, R1) and the sheet's opening.
    ///
    /// # Panics
    /// If `options` were not made from this sheet's [`Race::option_specs`].
    pub fn start(options: &Options) -> Race<S> {
        let variant = variant_of::<S>(options).expect("options of this sheet");
        let sp = &S::rules(variant).spec;
        let odd = bit(1) | bit(3) | bit(5) | bit(7) | bit(9);
        let men = if sp.first_on_odd {
            [odd, odd << 1]
        } else {
            [odd << 1, odd]
        };
        let (opening, throw) = match sp.opening {
            OpeningRule::None => (Opening::Done, 0),
            OpeningRule::PieceOnTen => (Opening::Ten, 0),
            // The opening 1 is in hand.
            OpeningRule::TenThenNine => (Opening::Ten, 1),
        };
        Race {
            men,
            turn: Player::First,
            throw,
            left: 0,
            opening,
            variant,
            decisions: 0,
            cap: options.int("cap").expect("options of this sheet"),
            sheet: PhantomData,
        }
    }

    /// The rules of this game (the sheet with its options) as data.
    #[inline]
    pub fn spec(&self) -> &'static RaceSpec {
        &S::rules(self.variant).spec
    }

    /// The squares of each player's pieces as bit masks (bit `s` for square `s`), first
    /// player first.
    pub fn men(&self) -> [u32; 2] {
        self.men
    }

    /// The sheet's flag options as bits, bit `i` for the `i`th flag of its options: the
    /// index of this game's spec among the sheet's (`houses::spec(variant)`, ...).
    pub fn variant(&self) -> u8 {
        self.variant
    }

    /// Leftover steps of a bear-off waiting to be used or declined (S10), 0 if none.
    pub fn leftover(&self) -> u8 {
        self.left
    }

    /// The whole throw of the move in hand (also while its leftover steps are played), 0
    /// while a throw is pending.
    pub fn throw_in_hand(&self) -> u8 {
        self.throw
    }

    /// Where the opening stands.
    pub fn opening(&self) -> Opening {
        self.opening
    }

    /// A position with this game's options awaiting `turn`'s throw, the pieces on the squares
    /// of `men` (bit `s` for square `s`, first player first; the others borne off), past the
    /// opening, with no leftover steps and no decision played: what an endgame solver
    /// enumerates. Fails on masks that no position has (two pieces on a square, a piece on
    /// 27, on 26-30 where landing on 26 bears off, more than five pieces, both sides off).
    pub fn endgame(&self, men: [u32; 2], turn: Player) -> Result<Race<S>, Error> {
        track::check_two_colours(men, PIECES).map_err(Error::Position)?;
        check_men(self.spec(), men)?;
        Ok(Race {
            men,
            turn,
            throw: 0,
            left: 0,
            opening: Opening::Done,
            decisions: 0,
            ..*self
        })
    }

    /// Whether the opening is over.
    pub fn past_opening(&self) -> bool {
        self.opening == Opening::Done
    }

    /// Whether the rule binding the second player's first move to the piece on 9 is in force
    /// for this decision.
    pub fn nine_rule_applies(&self) -> bool {
        self.opening == Opening::Nine && self.turn == Player::Second && self.left == 0
    }

    /// The pieces of the side to move and of the other side, selected without a branch
    /// or an indexed load (whose turn it is is as random as the throws).
    #[inline]
    fn own_opp(&self) -> (u32, u32) {
        let swap = (self.men[0] ^ self.men[1]) & 0u32.wrapping_sub(self.turn.index() as u32);
        (self.men[0] ^ swap, self.men[1] ^ swap)
    }

    /// Stores the pieces of the side `me` and of the other side ([`Race::own_opp`] undone).
    #[inline]
    fn set_own_opp(&mut self, me: usize, own: u32, opp: u32) {
        let swap = (own ^ opp) & 0u32.wrapping_sub(me as u32);
        self.men = [own ^ swap, opp ^ swap];
    }

    #[inline]
    fn sides(&self, sp: &RaceSpec) -> Sides {
        let (own, opp) = self.own_opp();
        let block = if sp.blockade_turns_corners {
            track::runs(opp, 3)
        } else {
            track::runs3_in_rows(opp)
        };
        let prot = track::protected(opp);
        Sides {
            own,
            opp,
            block,
            prot,
            bad: own | (opp & (sp.safe | prot)),
            bear_ok: if sp.bear_off_needs_row_one_clear && own & ROW_ONE != 0 {
                0
            } else {
                !0
            },
        }
    }

    /// The pieces that may move for this decision (the opening may bind one).
    #[inline]
    fn movable(&self, own: u32) -> u32 {
        if self.spec().opening != OpeningRule::None && self.opening == Opening::Ten {
            own & bit(10)
        } else {
            own
        }
    }

    /// The pieces of `from` that can move `n` forward: [`Race::forward`] for every piece at
    /// once.
    #[inline]
    fn forward_mask(r: &RaceRules, k: &Sides, from: u32, n: u8) -> u32 {
        let st = &r.steps[n as usize];
        // Sources whose path s+1 .. s+n-1 meets a blockade: the blockade's squares shifted
        // down by 1 ..= n-1. Every blockade is a run of three or more squares, so the shifts
        // 1, n/2 and n-1 alone cover the same squares (between two of them at most three
        // apart, for any throw up to 7), computed without a loop or a branch on the throw.
        let crossed = smear(k.block, n, |b, i| b >> i);
        let mut m = from & st.plain & !crossed & !(k.bad >> n);
        m |= from & st.off;
        if from & st.off_checked != 0 {
            m |= from & st.off_checked & k.bear_ok & at_or_above(highest(k.block));
        }
        // (Only a `Gate::Stop` has such moves: a constant for most sheets.)
        if r.spec.gate == Gate::Stop && from & st.stop != 0 && (k.own | k.opp) & bit(26) == 0 {
            m |= from & st.stop & at_or_above(highest(k.block & (bit(26) - 1)));
        }
        m
    }

    /// The pieces of `from` that can move `n` backward: [`Race::backward`] for every piece
    /// at once.
    #[inline]
    fn backward_mask(r: &RaceRules, k: &Sides, from: u32, n: u8) -> u32 {
        let st = &r.steps[n as usize];
        // Sources whose path s-1 .. s-n+1 meets a blockade (see `forward_mask`).
        let crossed = smear(k.block, n, |b, i| b << i);
        from & st.back & !crossed & !(k.bad << n)
    }

    /// Where the water sends a piece leaving `s` (the square it left counts as empty).
    #[inline]
    fn water(sp: &RaceSpec, k: &Sides, s: u8) -> u8 {
        let occ = (k.own & !bit(s)) | k.opp;
        if occ & bit(15) == 0 {
            15
        } else {
            match sp.water_fallback {
                WaterFallback::HighestBelow => track::highest_empty_below(occ, 15).unwrap_or(15),
                WaterFallback::Lowest => track::lowest_empty(occ),
            }
        }
    }

    /// The move of a piece the generator found movable.
    #[inline]
    fn make(sp: &RaceSpec, k: &Sides, s: u8, n: u8, fwd: bool) -> Move {
        if !fwd {
            let t = s - n;
            return Move {
                from: s,
                to: if t == 27 { Self::water(sp, k, s) } else { t },
                die: n,
                kind: if t == 27 {
                    MoveKind::BACKWARD.union(MoveKind::WATER)
                } else {
                    MoveKind::BACKWARD
                },
            };
        }
        let t = s + n;
        let (to, kind) = if sp.gate == Gate::Stop && s < 26 && t >= 26 {
            (if sp.gate_bears_off { OFF } else { 26 }, MoveKind::PLAIN)
        } else if t == 27 {
            (Self::water(sp, k, s), MoveKind::WATER)
        } else {
            // Past 30 bears off (as random as the throw: no branch).
            (select_unpredictable(t > 30, OFF, t), MoveKind::PLAIN)
        };
        Move {
            from: s,
            to,
            die: n,
            kind,
        }
    }

    /// A forward move of the piece on `s` by `n`, piece by piece (the reference for the
    /// generator, and the reasons for refusals).
    fn forward(sp: &RaceSpec, k: &Sides, s: u8, n: u8) -> Result<Move, Why> {
        let off = Move {
            from: s,
            to: OFF,
            die: n,
            kind: MoveKind::PLAIN,
        };
        if s >= 28 && sp.houses_bear_off {
            if n == 31 - s {
                return Ok(off);
            }
            if sp.houses_frozen {
                return Err(Why::OnHouse(s));
            }
        }
        if s == 26 && n == sp.bear_off_from_26 {
            if k.block & track::between(26, OFF) != 0 {
                return Err(Why::Blockade);
            }
            return Ok(off);
        }
        let mut t = s + n;
        let gated = sp.gate != Gate::Open && s < 26 && t > 26;
        if t > 30 && !(gated && sp.gate == Gate::Stop) {
            if !sp.bear_off_past_30 {
                return Err(Why::PastThirty);
            }
            if k.bear_ok == 0 {
                return Err(Why::NoBearOff);
            }
            if k.block & track::between(s, OFF) != 0 {
                return Err(Why::Blockade);
            }
            return Ok(off);
        }
        if gated {
            if sp.gate == Gate::Exact {
                return Err(Why::PastTwentySix);
            }
            t = 26;
        }
        if sp.gate == Gate::Stop && t == 26 && (k.own | k.opp) & bit(26) != 0 {
            return Err(Why::Happiness);
        }
        let m = Self::land(sp, k, s, t, n, MoveKind::PLAIN)?;
        if sp.gate == Gate::Stop && t == 26 && sp.gate_bears_off {
            return Ok(Move { to: OFF, ..m });
        }
        Ok(m)
    }

    /// A backward move of the piece on `s` by `n`, piece by piece.
    fn backward(sp: &RaceSpec, k: &Sides, s: u8, n: u8) -> Result<Move, Why> {
        if !sp.backward {
            return Err(Why::BelowOne);
        }
        if s >= 28 && sp.houses_frozen {
            return Err(Why::NoBackwardFromHouse);
        }
        if n >= s {
            return Err(Why::BelowOne);
        }
        Self::land(sp, k, s, s - n, n, MoveKind::BACKWARD)
    }

    /// The rules of passing and landing, the same in both directions.
    fn land(sp: &RaceSpec, k: &Sides, s: u8, t: u8, n: u8, kind: MoveKind) -> Result<Move, Why> {
        if k.block & track::between(s, t) != 0 {
            return Err(Why::Blockade);
        }
        if k.own & bit(t) != 0 {
            return Err(Why::OwnPiece(t));
        }
        if k.opp & bit(t) != 0 {
            if sp.safe & bit(t) != 0 {
                return Err(Why::Safe(t));
            }
            if k.prot & bit(t) != 0 {
                return Err(Why::Protected(t));
            }
        }
        let (to, kind) = if t == 27 {
            (Self::water(sp, k, s), kind.union(MoveKind::WATER))
        } else {
            (t, kind)
        };
        Ok(Move {
            from: s,
            to,
            die: n,
            kind,
        })
    }
}

/// The flag options of a sheet, in variant-bit order.
fn flags<S: Sheet>() -> impl Iterator<Item = &'static OptionSpec> {
    S::OPTIONS
        .iter()
        .filter(|o| matches!(o.kind, OptionKind::Bool { .. }))
}

fn variant_of<S: Sheet>(options: &Options) -> Result<u8, Error> {
    let mut v = 0;
    for (i, o) in flags::<S>().enumerate() {
        v |= (options.flag(o.name)? as u8) << i;
    }
    Ok(v)
}

/// The checks of piece masks beyond [`track::check_two_colours`]: nothing on 27, nothing on
/// 26-30 where landing on 26 bears off, not both sides borne off.
fn check_men(sp: &RaceSpec, men: [u32; 2]) -> Result<(), Error> {
    let all = men[0] | men[1];
    if all & bit(27) != 0 {
        return Err(Error::Position(sp.texts.no_27.into()));
    }
    if sp.gate_bears_off && all & !(bit(26) - 1) != 0 {
        return Err(Error::Position(sp.texts.no_26_to_30.into()));
    }
    if men[0] == 0 && men[1] == 0 {
        return Err(Error::Position(
            "both players cannot have borne off every piece".into(),
        ));
    }
    Ok(())
}

impl<S: Sheet> Hash for Race<S> {
    /// Hashes the fields the sheet's own type had before the race core, in that order, so
    /// that hash-indexed caches behave as they did.
    fn hash<H: Hasher>(&self, h: &mut H) {
        let sp = self.spec();
        self.men.hash(h);
        self.turn.hash(h);
        self.throw.hash(h);
        if sp.leftover {
            self.left.hash(h);
        }
        match sp.opening {
            OpeningRule::None => {}
            OpeningRule::PieceOnTen => (self.opening == Opening::Ten).hash(h),
            OpeningRule::TenThenNine => self.opening.hash(h),
        }
        for i in 0..flags::<S>().count() {
            (self.variant >> i & 1 != 0).hash(h);
        }
        self.decisions.hash(h);
        self.cap.hash(h);
    }
}

impl<S: Sheet> fmt::Debug for Race<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct(S::NAME)
            .field("men", &self.men)
            .field("turn", &self.turn)
            .field("throw", &self.throw)
            .field("left", &self.left)
            .field("opening", &self.opening)
            .field("options", &self.options().non_default_string())
            .field("decisions", &self.decisions)
            .field("cap", &self.cap)
            .finish()
    }
}

impl<S: Sheet> Game for Race<S> {
    fn rules(&self) -> RuleSet {
        self.spec().rules
    }

    #[inline]
    fn status(&self) -> Status {
        // K11, R10, H13, S12: first to bear off all five wins (S12: the winner may score one
        // point for each opposing piece still on the board); C5 for the cap.
        let sp = self.spec();
        let over = |winner: Option<Player>, capped, pts| {
            Status::Over(Outcome {
                winner,
                capped,
                score: sp.score.then_some(pts),
            })
        };
        if self.men[0] == 0 {
            over(Some(Player::First), false, [self.men[1].count_ones(), 0])
        } else if self.men[1] == 0 {
            over(Some(Player::Second), false, [0, self.men[0].count_ones()])
        } else if self.decisions >= self.cap {
            over(None, true, [0, 0])
        } else if self.throw != 0 {
            Status::Move(self.turn)
        } else {
            Status::Throw(self.turn)
        }
    }

    fn throw_dist(&self) -> Dist {
        let sp = self.spec();
        Dist {
            outcomes: sp.throws,
            total: sp.throw_total,
            kind: sp.throw_kind,
        }
    }

    fn in_hand(&self) -> Option<Throw> {
        match (self.throw, self.left) {
            (0, _) => None,
            (t, 0) => Some(Throw::single(t)),
            (_, l) => Some(Throw::single(l)), // S10: the leftover steps are what is left to play.
        }
    }

    fn hand_text(&self) -> Option<String> {
        match (self.throw, self.left) {
            (0, _) => None,
            (t, 0) => Some(format!("the throw {t}")),
            // S10: after a bear-off, the throw's leftover steps are still to be played.
            (t, l) => Some(format!("the throw {t}, with {l} leftover steps to play")),
        }
    }

    #[inline]
    fn set_throw_unchecked(&mut self, t: Throw) {
        self.throw = t.a;
    }

    /// [`Game::playout`] without asking [`Game::status`] for what it already knows: a game
    /// not over awaits a move while a throw is in hand (a leftover's decision keeps it),
    /// else a throw.
    #[inline]
    fn playout<R: FnMut() -> u32>(&mut self, mut next_u32: R) -> u32 {
        let mut n = 0;
        while (self.men[0] != 0) & (self.men[1] != 0) & (self.decisions < self.cap) {
            if self.throw == 0 {
                self.throw = self.sample_throw(next_u32()).a;
            }
            self.play_random(next_u32());
            n += 1;
        }
        n
    }

    #[inline]
    fn sample_throw(&self, r: u32) -> Throw {
        let r8 = S::rules(self.variant);
        let x = (r as u64 * r8.spec.throw_total as u64) >> 32;
        Throw::single(r8.throw_at[x as usize])
    }

    #[inline]
    fn legal_moves(&self, moves: &mut MoveList) {
        if self.throw == 0 || self.men[0] == 0 || self.men[1] == 0 || self.decisions >= self.cap {
            return;
        }
        let r = S::rules(self.variant);
        let sp = &r.spec;
        let k = self.sides(sp);
        let (mask, n, fwd) = self.movers(r, &k);
        for s in track::squares(mask) {
            moves.push(Self::make(sp, &k, s, n, fwd));
        }
        if self.left != 0 {
            // S10: or the player declines the leftover steps.
            moves.push(Move::decline(n));
        } else if mask == 0 {
            // C4: no legal move forfeits the throw.
            moves.push(Move::PASS);
        }
    }

    #[inline]
    fn play_random(&mut self, r: u32) -> Effects {
        let rules = S::rules(self.variant);
        let sp = &rules.spec;
        let k = self.sides(sp);
        let (mask, n, fwd) = self.movers(rules, &k);
        // The legal moves are the pieces of `mask`, lowest first, then declining leftover
        // steps, or else the forfeit alone. `m1`..`m4`: the pieces from the second, third ..
        // on (at most five pieces), and their count, without a loop, a popcount instruction
        // (which builds for any x86-64 lack) or an indexed load.
        let m1 = mask & mask.wrapping_sub(1);
        let m2 = m1 & m1.wrapping_sub(1);
        let m3 = m2 & m2.wrapping_sub(1);
        let m4 = m3 & m3.wrapping_sub(1);
        let pieces = (mask != 0) as u32
            + (m1 != 0) as u32
            + (m2 != 0) as u32
            + (m3 != 0) as u32
            + (m4 != 0) as u32;
        let count = pieces + ((sp.leftover && self.left != 0) || mask == 0) as u32;
        let i = ((r as u64 * count as u64) >> 32) as u32;
        let pick = |k: u32, later: u32, sooner: u32| select_unpredictable(i >= k, later, sooner);
        let from = pick(4, m4, pick(3, m3, pick(2, m2, pick(1, m1, mask))));
        let m = if i < pieces {
            Self::make(sp, &k, from.trailing_zeros() as u8, n, fwd)
        } else if sp.leftover && self.left != 0 {
            Move::decline(n)
        } else {
            Move::PASS
        };
        self.play_unchecked(m)
    }

    #[inline]
    fn play_unchecked(&mut self, m: Move) -> Effects {
        let r = S::rules(self.variant);
        let sp = &r.spec;
        let me = self.turn.index();
        self.decisions += 1;
        // The opening: any decision plays the bound first move; under S3 the second
        // player's first decision (any) ends it.
        match (sp.opening != OpeningRule::None).then_some(self.opening) {
            Some(Opening::Ten) if sp.opening == OpeningRule::TenThenNine => {
                self.opening = Opening::Nine
            }
            Some(Opening::Ten) => self.opening = Opening::Done,
            Some(Opening::Nine) if self.turn == Player::Second => self.opening = Opening::Done,
            _ => {}
        }
        // Only the forfeit and declining leftover steps move no piece (`from` 0).
        let declined = sp.leftover && m.is_decline();
        if m.from == 0 && !declined {
            // C4: a forfeit passes the turn.
            self.throw = 0;
            self.left = 0;
            self.turn = self.turn.other();
            return Effects {
                flags: Effect::FORFEIT,
                turn_continues: false,
            };
        }
        let mut fx = Effect::empty();
        let mut bonus = false;
        let mut drowned = false;
        if !declined {
            let n = m.die;
            let back = m.kind.contains(MoveKind::BACKWARD);
            fx = if back { Effect::BACKWARD } else { Effect::STEP };
            let (mut own, mut opp) = self.own_opp();
            own &= !bit(m.from);
            if m.to == OFF {
                self.set_own_opp(me, own, opp);
                fx |= Effect::BEAR_OFF;
                if sp.leftover {
                    // S10: steps past square 31 may move another piece, a decision of its own.
                    let left = m.from + n - OFF;
                    if left > 0
                        && own != 0
                        && self.decisions < self.cap
                        && self.leftover_playable(r, left)
                    {
                        self.left = left;
                        return Effects {
                            flags: fx,
                            turn_continues: true,
                        };
                    }
                }
            } else {
                // The square landed on: where the piece stands, unless the water (27, never
                // occupied) sent it on.
                drowned = m.kind.contains(MoveKind::WATER);
                let landed = if drowned { 27 } else { m.to };
                fx.set(Effect::TRAP, drowned);
                // All ones when an opposing piece stands where the mover landed (without
                // branches: whether a move hits is as random as the moves).
                let hit = 0u32.wrapping_sub(opp >> landed & 1);
                match sp.hit {
                    Hit::Swap => {
                        opp ^= (bit(landed) | bit(m.from)) & hit;
                        fx |= Effect::SWAP & Effect::from_bits_retain(hit as u16);
                        own |= bit(m.to);
                    }
                    Hit::SendBack => {
                        opp &= !(bit(landed) & hit);
                        fx |= Effect::SENT_BACK & Effect::from_bits_retain(hit as u16);
                        own |= bit(m.to);
                        if hit != 0 {
                            opp |= bit(track::lowest_empty(own | opp));
                        }
                    }
                }
                self.set_own_opp(me, own, opp);
                bonus = sp.bonus_squares & bit(landed) != 0;
            }
        }
        // After the whole move (leftovers included), the throw may give another.
        self.left = 0;
        bonus |= sp.bonus_throws & (1 << self.throw) != 0;
        if drowned && sp.water_ends_turn {
            bonus = false;
        }
        self.throw = 0;
        fx.set(Effect::BONUS, bonus);
        self.turn = Player::from_index(me ^ !bonus as usize);
        // A game that ended (a win, or the cap: C5) has no next decision.
        let over = (self.men[0] == 0) | (self.men[1] == 0) | (self.decisions >= self.cap);
        Effects {
            flags: fx,
            turn_continues: bonus & !over,
        }
    }

    fn decisions(&self) -> u32 {
        self.decisions
    }

    fn options(&self) -> Options {
        let mut o = Options::defaults(S::OPTIONS);
        for (i, spec) in flags::<S>().enumerate() {
            o.set(spec.name, OptionValue::Bool(self.variant >> i & 1 != 0))
                .expect("a flag of this sheet");
        }
        o.set("cap", OptionValue::Int(self.cap))
            .expect("the cap is in range");
        o
    }
}

impl<S: Sheet> Notation for Race<S> {
    fn example_moves(&self) -> &'static str {
        if self.spec().leftover {
            "9-13, 28-off, decline, pass" // S10: leftover steps may be declined
        } else {
            "9-13, 28-off, pass"
        }
    }

    fn move_string(&self, m: Move) -> String {
        if m.is_pass() {
            "pass".into()
        } else if m.is_decline() {
            "decline".into()
        } else {
            format!("{}-{}", m.from, self.square_name(m.to))
        }
    }

    fn why_illegal(&self, text: &str) -> String {
        let sp = self.spec();
        let tx = &sp.texts;
        let mut legal = MoveList::new();
        self.legal_moves(&mut legal);
        let list = legal
            .iter()
            .map(|&m| self.move_string(m))
            .collect::<Vec<_>>()
            .join(", ");
        let t = text.trim();
        let n = if self.left != 0 {
            self.left
        } else {
            self.throw
        };
        let what = if self.left != 0 {
            fill(tx.with_leftover, &[("n", &n)])
        } else {
            format!("with a throw of {n}")
        };
        let reason = if !tx.pass.is_empty() && t.eq_ignore_ascii_case("pass") {
            tx.pass.to_string()
        } else if !tx.decline.is_empty() && t.eq_ignore_ascii_case("decline") {
            tx.decline.to_string()
        } else {
            let mut parts = t.splitn(2, '-');
            let Some(from) = parts.next().and_then(|f| f.trim().parse::<u8>().ok()) else {
                let bad = format!("{text:?} is not a move like {}", tx.example);
                return if tx.list_on_bad_syntax {
                    format!("{bad}. Legal moves: {list}")
                } else {
                    bad
                };
            };
            let to = parts.next().map(str::trim).and_then(|x| {
                if x.eq_ignore_ascii_case("off") {
                    Some(OFF)
                } else {
                    x.parse::<u8>().ok()
                }
            });
            let k = self.sides(sp);
            let name = |m: Move| self.square_name(m.to);
            if !(1..=30).contains(&from) || k.own & bit(from) == 0 {
                format!("player {} has no piece on {from}", self.turn)
            } else if self.left != 0 {
                match Self::forward(sp, &k, from, n) {
                    Ok(m) => fill(tx.leftover_goes, &[("from", &from), ("to", &name(m))]),
                    Err(w) => fill(tx.leftover_refused, &[("why", &w.text(tx))]),
                }
            } else if self.opening == Opening::Ten && (tx.first_move_any_from || from != 10) {
                tx.first_move.into()
            } else if self.nine_rule_applies() && from != 9 && legal.iter().any(|m| m.from == 9) {
                tx.nine.into()
            } else {
                let forward_exists = legal
                    .iter()
                    .any(|m| !m.kind.contains(MoveKind::BACKWARD) && !m.is_pass());
                match (
                    Self::forward(sp, &k, from, n),
                    Self::backward(sp, &k, from, n),
                ) {
                    (Ok(m), _)
                        if !tx.forward_not_back.is_empty() && to.is_some_and(|to| to < from) =>
                    {
                        fill(tx.forward_not_back, &[("from", &from), ("to", &name(m))])
                    }
                    (Ok(m), _) => fill(tx.goes_to, &[("n", &n), ("from", &from), ("to", &name(m))]),
                    (Err(w), Ok(_)) if forward_exists => {
                        fill(tx.back_only_if_stuck, &[("why", &w.text(tx))])
                    }
                    (Err(w), Ok(m)) => fill(tx.only_back, &[("why", &w.text(tx)), ("to", &m.to)]),
                    (Err(w), Err(b)) => {
                        fill(tx.both_ways, &[("why", &w.text(tx)), ("back", &b.text(tx))])
                    }
                }
            }
        };
        format!("{text} is illegal {what}: {reason}. Legal moves: {list}")
    }

    fn position(&self) -> String {
        let opts = self.options().non_default_string();
        format!(
            "{}{}{} {} off={} turn={} throw={}{}{} dec={}",
            self.spec().rules.id(),
            if opts.is_empty() { "" } else { ":" },
            opts,
            track::board_string(self.men),
            track::off_string(self.men, PIECES),
            self.turn,
            if self.throw == 0 {
                "-".to_string()
            } else {
                self.throw.to_string()
            },
            if self.left == 0 {
                String::new()
            } else {
                format!(" left={}", self.left)
            },
            match self.opening {
                Opening::Ten => " forced=10",
                Opening::Nine => " forced=9",
                Opening::Done => "",
            },
            self.decisions
        )
    }
}

impl<S: Sheet> View for Race<S> {
    fn view(&self) -> BoardView {
        let mut v = track::view(self.men, PIECES, self.spec().marks);
        S::notes(self, &mut v);
        v
    }

    fn diagram(&self) -> String {
        let mut d = track::diagram(self.men, PIECES, &self.status(), self.in_hand());
        if let Some(note) = S::diagram_note(self) {
            d.push('\n');
            d.push_str(&note);
        }
        d
    }
}

impl<S: Sheet> Metrics for Race<S> {
    fn max_points(&self) -> Option<u32> {
        // S12: one point for each opposing piece still on the board.
        self.spec().score.then_some(PIECES)
    }

    fn points_if_won(&self) -> Option<[u32; 2]> {
        // S12: the winner scores the opposing pieces on the board.
        let sp = self.spec();
        sp.score
            .then(|| [self.men[1].count_ones(), self.men[0].count_ones()])
    }

    fn progress(&self) -> [u32; 2] {
        self.men
            .map(|m| track::squares(m).map(u32::from).sum::<u32>() + 31 * (PIECES - m.count_ones()))
    }

    fn census(&self) -> [Census; 2] {
        self.men.map(|m| Census {
            board: m.count_ones() as u8,
            off: (PIECES - m.count_ones()) as u8,
            captured: 0,
        })
    }

    fn check_invariants(&self) -> Result<(), String> {
        let sp = self.spec();
        track::check_two_colours(self.men, PIECES)?;
        let all = self.men[0] | self.men[1];
        if all & bit(27) != 0 {
            return Err(sp.texts.on_27.into());
        }
        if sp.gate_bears_off && all & !(bit(26) - 1) != 0 {
            return Err(sp.texts.on_26_to_30.into());
        }
        if self.left != 0 {
            let own = self.men[self.turn.index()];
            if self.left >= self.throw || own & ROW_ONE != 0 || own.count_ones() == PIECES {
                return Err(sp.texts.bad_left.into());
            }
        }
        Ok(())
    }
}

impl<S: Sheet> Race<S> {
    /// The pieces that can move for the decision in hand, the steps and the direction:
    /// the legal moves but for declining (S10) and the forfeit (C4).
    #[inline]
    fn movers(&self, r: &RaceRules, k: &Sides) -> (u32, u8, bool) {
        if r.spec.leftover && self.left != 0 {
            // S10: the leftover moves one other piece forward.
            return (Self::forward_mask(r, k, k.own, self.left), self.left, true);
        }
        let n = self.throw;
        let from = self.movable(k.own);
        let mut mask = Self::forward_mask(r, k, from, n);
        let mut fwd = true;
        if mask == 0 && r.spec.backward {
            // K10, R9, S7: a throw with no forward move must be used backward.
            fwd = false;
            mask = Self::backward_mask(r, k, from, n);
        }
        // S3: the second player's first move is the piece on 9, when it has a legal move.
        if r.spec.opening == OpeningRule::TenThenNine
            && self.nine_rule_applies()
            && mask & bit(9) != 0
        {
            mask = bit(9);
        }
        (mask, n, fwd)
    }

    /// Whether some piece of the player to move can go forward by `left` (S10).
    fn leftover_playable(&self, r: &RaceRules, left: u8) -> bool {
        let k = self.sides(&r.spec);
        Self::forward_mask(r, &k, k.own, left) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::corpus;
    use crate::{Houses, Kendall, Kendall5, Senat};

    /// The rules move by move, piece by piece: the reference for the bit-mask generator.
    fn by_piece<S: Sheet>(g: &Race<S>, moves: &mut MoveList) {
        let sp = g.spec();
        let k = g.sides(sp);
        let n = g.throw;
        let from = g.movable(k.own);
        for s in track::squares(from) {
            if let Ok(m) = Race::<S>::forward(sp, &k, s, n) {
                moves.push(m);
            }
        }
        if moves.is_empty() && sp.backward {
            for s in track::squares(from) {
                if let Ok(m) = Race::<S>::backward(sp, &k, s, n) {
                    moves.push(m);
                }
            }
        }
        if g.nine_rule_applies() && moves.iter().any(|m| m.from == 9) {
            moves.retain(|m| m.from == 9);
        }
        if moves.is_empty() {
            moves.push(Move::PASS);
        }
    }

    /// `play_random` and `sample_throw` pick what the move list and the distribution give.
    fn random_agrees<S: Sheet>(g: &Race<S>) {
        let mut rng = crate::conformance::SplitMix(g.decisions as u64);
        for _ in 0..8 {
            let r = rng.next_u32();
            let (mut a, mut b) = (*g, *g);
            let mut ms = MoveList::new();
            g.legal_moves(&mut ms);
            let m = ms[((r as u64 * ms.len() as u64) >> 32) as usize];
            assert_eq!(a.play_random(r), b.play_unchecked(m), "{}", g.position());
            assert_eq!(a, b, "{}", g.position());
            let d = g.throw_dist();
            assert_eq!(g.sample_throw(r), d.sample(r));
        }
    }

    /// `smear` (three shifts) covers what the loop over every shift covers, for blockades
    /// of runs of three or more (every way the sheets count them) and every throw to 7.
    #[test]
    fn smear_of_blockades_equals_every_shift() {
        let mut rng = crate::conformance::SplitMix(7);
        for _ in 0..20_000 {
            let men = rng.next_u32() & track::ALL;
            for block in [track::runs(men, 3), track::runs3_in_rows(men)] {
                for n in 1..=7u8 {
                    let (mut down, mut up) = (0, 0);
                    for i in 1..n {
                        down |= block >> i;
                        up |= block << i;
                    }
                    assert_eq!(smear(block, n, |b, i| b >> i), down, "{block:#x} {n}");
                    assert_eq!(smear(block, n, |b, i| b << i), up, "{block:#x} {n}");
                }
            }
        }
    }

    /// The race core's [`Game::playout`] plays what the loop over `status` plays (the
    /// trait's default, written out here): the same end, decisions and numbers drawn.
    fn playout_agrees<S: Sheet>(g: &Race<S>) {
        let (mut a, mut b) = (*g, *g);
        let (mut ra, mut rb) = (
            crate::conformance::SplitMix(g.decisions as u64),
            crate::conformance::SplitMix(g.decisions as u64),
        );
        let (mut na, mut nb) = (0u32, 0u32);
        let n = a.playout(|| {
            na += 1;
            ra.next_u32()
        });
        let mut m = 0;
        loop {
            match b.status() {
                Status::Throw(_) => {
                    nb += 1;
                    let t = b.sample_throw(rb.next_u32());
                    b.set_throw_unchecked(t);
                }
                Status::Move(_) => {
                    nb += 1;
                    b.play_random(rb.next_u32());
                    m += 1;
                }
                Status::Over(_) => break,
            }
        }
        assert_eq!((a, n, na), (b, m, nb), "{}", g.position());
    }

    fn agree<S: Sheet>(options: &[&[&str]]) -> usize {
        let mut checked = 0;
        for opts in options {
            let start = Race::<S>::start(&Options::parse(S::OPTIONS, opts, S::NAME).unwrap());
            for p in corpus(&start, 2, 2000, false) {
                random_agrees(&p);
                playout_agrees(&p);
            }
            for p in corpus(&start, 3, 3000, true) {
                for &(t, _) in p.throw_dist().outcomes {
                    let mut g = p;
                    g.set_throw_unchecked(t);
                    random_agrees(&g);
                    playout_agrees(&g);
                    if g.left != 0 {
                        continue;
                    }
                    let (mut fast, mut slow) = (MoveList::new(), MoveList::new());
                    g.legal_moves(&mut fast);
                    by_piece(&g, &mut slow);
                    assert_eq!(fast, slow, "{}", g.position());
                    checked += 1;
                }
            }
        }
        checked
    }

    #[test]
    fn bit_mask_moves_agree_with_the_piece_by_piece_rules() {
        assert!(agree::<crate::kendall::Sheet>(&[&[]]) > 10_000);
        assert!(agree::<crate::kendall5::Sheet>(&[&[]]) > 10_000);
        let houses: &[&[&str]] = &[
            &[],
            &["swap"],
            &["happiness_exits"],
            &["six_sticks"],
            &["swap", "happiness_exits", "six_sticks"],
        ];
        assert!(agree::<crate::houses::Sheet>(houses) > 50_000);
        assert!(agree::<crate::senat::Sheet>(&[&[], &["die"]]) > 20_000);
        let _ = (
            Kendall::option_specs(),
            Kendall5::option_specs(),
            Houses::option_specs(),
            Senat::option_specs(),
        );
    }
}
