//! `senat`: the piecepack adaptation of the Fundex *Senat* rules (seed 001; rulings S1-S12 in
//! `shared/rulings.md`; explained in `docs/rules/senat.md`).
//!
//! The sheet as data for the race core ([`crate::race`]): squares are numbered 1-30 along
//! the S-shaped track (C1); a piece on square `s` is bit `s` of its side's mask. Square 31
//! ([`crate::OFF`]) is "borne off".
//!
//! Two things make the decision structure of this sheet unusual:
//! - The game opens on a decision, not a throw (S3): the first player holds the 1 that won
//!   the start and must play 10-11 with it; that 1 then earns the first throw.
//! - A piece that bears off with steps to spare (S10) opens a decision of its own: move one
//!   other piece forward by the leftover steps, or `decline`. The bonus throw of S4 comes
//!   only after the whole move, leftovers included.

use crate::game::{binomial, BoardView, Mark, Throw, ThrowKind};
use crate::options::{cap_option, OptionKind, OptionSpec, Options};
use crate::race::{
    Gate, Hit, Opening, OpeningRule, Race, RaceRules, RaceSpec, Texts, WaterFallback,
};
use crate::track::bit;
use crate::{Error, Game, RuleSet, Status};

/// The sides (S1): the first player is Arms, the second Sun (piecepack suits).
pub const SIDES: [crate::game::Side; 2] = [
    crate::game::Side {
        name: "Arms",
        colour: "light",
    },
    crate::game::Side {
        name: "Sun",
        colour: "dark",
    },
];

/// A `senat` position.
pub type Senat = Race<Sheet>;

/// The `senat` sheet for the race core.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Sheet;

/// The default turn cap (C5): over twice the longest of 200,000 random games (478 decisions;
/// mean 184, see `docs/rules/senat.md`).
const DEFAULT_CAP: u32 = 1000;

/// The options; the flags are bits 0 and 1 of the spec's index in [`RULES`].
const OPTIONS: [OptionSpec; 3] = [
    OptionSpec {
        name: "die",
        description:
            "throw a die instead of four coins: 1, 2, 3, 4, 6 each with probability 1/5 (S2)",
        kind: OptionKind::Bool { default: false },
    },
    OptionSpec {
        name: "score",
        description: "score the win: one point for each opposing piece still on the board (S12)",
        kind: OptionKind::Bool { default: false },
    },
    cap_option(DEFAULT_CAP),
];
const DIE: u8 = 1;
const SCORE: u8 = 2;

/// S2: four coins; k suit sides up moves k (1-4), none up moves 6 (C3 weights 4:6:4:1:1).
const COINS: [(Throw, u32); 5] = [
    (Throw::single(1), binomial(4, 1)),
    (Throw::single(2), binomial(4, 2)),
    (Throw::single(3), binomial(4, 3)),
    (Throw::single(4), binomial(4, 4)),
    (Throw::single(6), binomial(4, 0)),
];

/// S2, option `die`: 1, 2, 3, 4, 6 each with probability 1/5 (a 5 is thrown again).
const DIE_THROWS: [(Throw, u32); 5] = [
    (Throw::single(1), 1),
    (Throw::single(2), 1),
    (Throw::single(3), 1),
    (Throw::single(4), 1),
    (Throw::single(6), 1),
];

/// The marked squares (S8, S9).
const MARKS: [Mark; 5] = [
    Mark::new(15, "return", "the trap returns pieces here (S8)"),
    Mark::new(26, "safe", "safe (S9)"),
    Mark::new(27, "trap", "trap: to 15, or the lowest empty square (S8)"),
    Mark::new(28, "safe", "safe (S9)"),
    Mark::new(29, "safe", "safe (S9)"),
];

/// The sheet's rules under the options of `variant` (bits `DIE`, `SCORE`).
pub const fn spec(variant: u8) -> RaceSpec {
    let die = variant & DIE != 0;
    RaceSpec {
        rules: RuleSet::Senat,
        throws: if die { &DIE_THROWS } else { &COINS }, // S2
        throw_total: if die { 5 } else { 16 }, // S2
        throw_kind: if die { ThrowKind::Die } else { ThrowKind::Sticks }, // S2: coins or a die
        bonus_throws: bit(1) | bit(4) | bit(6), // S4: after the whole move (S10).
        bonus_squares: 0, // S4: no square gives one.
        water_ends_turn: false, // S8 says nothing of the turn: S4's bonus stands.
        first_on_odd: false, // S1: Arms on 2-10 even, Sun on 1-9 odd.
        opening: OpeningRule::TenThenNine, // S3
        safe: bit(26) | bit(28) | bit(29), // S9: square 30 is not safe.
        blockade_turns_corners: true, // S6: consecutive square numbers (C1).
        hit: Hit::Swap, // S5, S7
        backward: true, // S7: a throw with no forward move must be used backward.
        gate: Gate::Open, // No rule for 26 but S9's safety.
        gate_bears_off: false,
        water_fallback: WaterFallback::Lowest, // S8: 15, else the lowest empty square.
        houses_bear_off: false, // S10: 28-30 bear off like any square:
        houses_frozen: false,
        bear_off_from_26: 0,
        bear_off_past_30: true, // S10: a throw that carries a piece past 30 bears it off,
        bear_off_needs_row_one_clear: true, // S10, S11: only with no own piece on 1-10.
        leftover: true, // S10: its steps past 31 may move another piece, or be declined.
        score: variant & SCORE != 0, // S12, option `score`.
        marks: &MARKS, // S8, S9
        texts: Texts {
            example: "10-13, 28-off, decline or pass",
            list_on_bad_syntax: true,
            pass: "a throw is forfeited only when no move is legal either way (S7, C4)",
            decline: "only leftover steps after a bear-off can be declined (S10)",
            goes_to: "the piece on {from} goes to {to}",
            forward_not_back: "backward moves are allowed only when the throw has no forward move (S7); the piece on {from} goes forward to {to}",
            back_only_if_stuck: "{why}; backward moves are allowed only when the throw has no forward move (S7)",
            both_ways: "forward, {why}; backward, {back}",
            only_back: "{why}; the piece may only move back to {to}",
            first_move: "the game opens with the forced move 10-11 (S3)",
            first_move_any_from: true,
            nine: "the second player's first move must move the piece on 9, which can move (S3)",
            with_leftover: "with the {n} leftover steps of a bear-off",
            leftover_goes: "leftover steps move one other piece forward by their count (S10): the piece on {from} goes forward to {to}",
            leftover_refused: "{why}; leftover steps only move forward (S10)",
            own_piece: "square {t} holds the mover's own piece (S5)",
            safe: "square {t} is safe and its piece cannot be landed on (S9)",
            protected: "the opposing piece on {t} stands beside another of its colour and cannot be landed on (S6)",
            blockade: "three or more consecutive opposing pieces cannot be passed, forward or backward (S6)",
            below_one: "nothing moves below square 1 (S7)",
            past_thirty: "",
            past_26: "",
            on_house: "",
            no_back_from_house: "",
            happiness: "",
            no_bear_off: "no piece moves past 30 while the player has a piece on squares 1-10 (S10, S11)",
            bad_throw: "throw={t} is not a senat throw (1, 2, 3, 4 or 6)",
            forced_field: "field forced is 10 (the opening move 10-11 is in hand) or 9 (the second player's first move is still to come), got {v} (S3)",
            forced_needs: "forced=10 is the opening: player 1 to move with throw=1, a piece of player 1 on 10 and square 11 empty (S3)",
            left_field: "field left (leftover steps of a bear-off, S10) must be from 1 to one less than the throw, got {v} with throw={throw}",
            left_needs: "left={left} follows a bear-off, so player {turn} must have a piece off and none on squares 1-10 (S10)",
            no_27: "square 27 is never occupied: a piece ending there goes to 15 at once (S8)",
            no_26_to_30: "",
            on_27: "a piece stands on 27 (S8)",
            on_26_to_30: "",
            bad_left: "leftover steps without a bear-off that could give them (S10)",
        },
    }
}

/// The rules for each choice of the two options.
///
/// A constant (not a `static`), so that code built in other crates sees its values.
const RULES: &[RaceRules; 4] = &[
    RaceRules::new(spec(0)),
    RaceRules::new(spec(1)),
    RaceRules::new(spec(2)),
    RaceRules::new(spec(3)),
];

impl crate::race::Sheet for Sheet {
    const NAME: &'static str = "senat";
    const OPTIONS: &'static [OptionSpec] = &OPTIONS;

    #[inline(always)]
    fn rules(variant: u8) -> &'static RaceRules {
        &RULES[variant as usize & 3]
    }

    /// S10's leftover steps and S3's opening, beside the board.
    fn notes(g: &Senat, v: &mut BoardView) {
        let throw = g.throw_in_hand();
        if g.leftover() != 0 && matches!(g.status(), Status::Move(_)) {
            v.notes.push((
                "leftover".into(),
                format!(
                    "{} steps of the throw {throw}: move another piece forward, or decline (S10)",
                    g.leftover()
                ),
            ));
        }
        match g.opening() {
            Opening::Ten => v.notes.push((
                "opening".into(),
                "the 1 that won the start moves 10-11, then player 1 throws (S3)".into(),
            )),
            Opening::Nine => v.notes.push((
                "first move of player 2".into(),
                "the piece on 9, if it can move (S3)".into(),
            )),
            Opening::Done => {}
        }
    }

    fn diagram_note(g: &Senat) -> Option<String> {
        if !matches!(g.status(), Status::Move(_)) {
            None
        } else if g.leftover() != 0 {
            Some(format!(
                "leftover {} steps of the throw {} (S10): move another piece forward, or decline",
                g.leftover(),
                g.throw_in_hand()
            ))
        } else if g.opening() == Opening::Ten {
            Some("opening (S3): the 1 that won the start moves 10-11".into())
        } else if g.nine_rule_applies() {
            Some("first move of player 2 (S3): the piece on 9 moves if it can".into())
        } else {
            None
        }
    }
}

pub(crate) fn parse(options: &Options, tokens: &[&str]) -> Result<Senat, Error> {
    Senat::parse(options, tokens)
}
