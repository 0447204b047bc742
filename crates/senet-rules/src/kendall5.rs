//! `kendall5`: the modern five-piece Kendall rules, solved exactly elsewhere
//! (rulings R1-R10 in `shared/rulings.md`; explained in `docs/rules/kendall5.md`).
//!
//! The rules as data for the race core ([`crate::race`]): squares are numbered 1-30 along
//! the S-shaped track (C1); a piece on square `s` is bit `s` of its side's mask.

use crate::game::{binomial, Mark, Throw, ThrowKind};
use crate::options::{cap_option, OptionSpec, Options};
use crate::race::{Gate, Hit, OpeningRule, Race, RaceRules, RaceSpec, Texts, WaterFallback};
use crate::track::{self, bit};
use crate::{Error, RuleSet};

/// The sides (R1). The rules name no colours, so senet calls them light and dark.
pub const SIDES: [crate::game::Side; 2] = track::LIGHT_DARK;

/// A `kendall5` position.
pub type Kendall5 = Race<Sheet>;

/// The `kendall5` rules for the race core.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Sheet;

const OPTIONS: [OptionSpec; 1] = [cap_option(1000)];

/// R2: four sticks, marked sides counted, none marked counts 5; weights 4:6:4:1:1.
const THROWS: [(Throw, u32); 5] = [
    (Throw::single(1), binomial(4, 1)),
    (Throw::single(2), binomial(4, 2)),
    (Throw::single(3), binomial(4, 3)),
    (Throw::single(4), binomial(4, 4)),
    (Throw::single(5), binomial(4, 0)),
];

/// The rules.
pub const SPEC: RaceSpec = RaceSpec {
    rules: RuleSet::Kendall5,
    throws: &THROWS, // R2
    throw_total: 16, // R2
    throw_kind: ThrowKind::Sticks, // R2
    bonus_throws: bit(1) | bit(4) | bit(5), // R2: 1, 4 and 5 give another throw.
    bonus_squares: 0, // R2: no square gives one.
    water_ends_turn: false, // R7 says nothing of the turn: R2's bonus for the 1 stands.
    first_on_odd: true, // R1: the first player on 1, 3, 5, 7, 9.
    opening: OpeningRule::None, // R1: no opening-throw rule, no forced first move.
    safe: 0, // R4: no square is safe.
    blockade_turns_corners: true, // R5: raw square numbers, across corners (R4 likewise).
    hit: Hit::Swap, // R3
    backward: true, // R9: backward only when no piece has a forward move.
    gate: Gate::Exact, // R6: 26 must be landed on exactly.
    gate_bears_off: false, // R6
    water_fallback: WaterFallback::HighestBelow, // R7: 15, else the highest empty below it.
    houses_bear_off: true, // R8: 28, 29, 30 bear off with exactly 3, 2, 1
    houses_frozen: true, // R8: and cannot move in any other way, nor backward.
    bear_off_from_26: 5, // R8: from 26 a 5 bears off (passing 27-30: R5 applies).
    bear_off_past_30: false, // R8
    bear_off_needs_row_one_clear: false, // R8
    leftover: false, // R8
    score: false, // R10: bearing off the last piece wins; no score.
    marks: &[
        Mark::new(15, "return", "the water returns pieces here (R7)"),
        Mark::new(26, "exact", "must be landed on exactly; 5 bears off from here (R6, R8)"),
        Mark::new(27, "water", "water: back to 15 (R7)"),
        Mark::new(28, "III", "bears off with exactly 3 (R8)"),
        Mark::new(29, "II", "bears off with exactly 2 (R8)"),
        Mark::new(30, "I", "bears off with exactly 1 (R8)"),
    ],
    texts: Texts {
        example: "9-12, 28-off or pass",
        list_on_bad_syntax: false,
        pass: "",
        decline: "",
        goes_to: "with a throw of {n} the piece on {from} goes to {to}",
        forward_not_back: "",
        back_only_if_stuck: "{why}; backward moves are allowed only when no piece can move forward (R9)",
        both_ways: "{why}",
        only_back: "{why}; the piece may only move back to {to}",
        first_move: "",
        first_move_any_from: false,
        nine: "",
        with_leftover: "",
        leftover_goes: "",
        leftover_refused: "",
        own_piece: "square {t} holds the mover's own piece (R3)",
        safe: "",
        protected: "the opposing piece on {t} has a piece of its colour beside it and cannot be swapped (R4)",
        blockade: "three or more consecutive opposing pieces cannot be passed (R5)",
        below_one: "nothing moves below square 1 (R9)",
        past_thirty: "",
        past_26: "no piece passes 26 going forward; 26 must be landed on exactly (R6)",
        on_house: "a piece on {s} moves only by bearing off with exactly {k} (R8)",
        no_back_from_house: "pieces on 28, 29, 30 never move backward (R8)",
        happiness: "",
        no_bear_off: "",
        bad_throw: "throw={t} is not a kendall5 throw (1-5)",
        forced_field: "",
        forced_needs: "",
        left_field: "",
        left_needs: "",
        no_27: "square 27 is never occupied (R7)",
        no_26_to_30: "",
        on_27: "a piece stands on 27",
        on_26_to_30: "",
        bad_left: "",
    },
};

/// The rules with their move tables: a constant (not a `static`), so that code built in
/// other crates sees its value and folds the spec's fields into the generator.
const RULES: &RaceRules = &RaceRules::new(SPEC);

impl crate::race::Sheet for Sheet {
    const NAME: &'static str = "kendall5";
    const OPTIONS: &'static [OptionSpec] = &OPTIONS;

    #[inline(always)]
    fn rules(_variant: u8) -> &'static RaceRules {
        RULES
    }
}

pub(crate) fn parse(options: &Options, tokens: &[&str]) -> Result<Kendall5, Error> {
    Kendall5::parse(options, tokens)
}
