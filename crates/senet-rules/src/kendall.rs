//! `kendall`: the Kendall-style sheet, sticks 1-2-3-4-6 (seed 004; rulings K1-K11 in
//! `shared/rulings.md`; explained in `docs/rules/kendall.md`).
//!
//! The sheet as data for the race core ([`crate::race`]): squares are numbered 1-30 along
//! the S-shaped track (C1); a piece on square `s` is bit `s` of its side's mask.

use crate::game::{binomial, Mark, Throw, ThrowKind};
use crate::options::{cap_option, OptionSpec, Options};
use crate::race::{Gate, Hit, OpeningRule, Race, RaceRules, RaceSpec, Texts, WaterFallback};
use crate::track::{self, bit};
use crate::{Error, RuleSet};

/// The sides (C2). The sheet names no colours, so senet calls them light and dark.
pub const SIDES: [crate::game::Side; 2] = track::LIGHT_DARK;

/// A `kendall` position.
pub type Kendall = Race<Sheet>;

/// The `kendall` sheet for the race core.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Sheet;

const OPTIONS: [OptionSpec; 1] = [cap_option(1000)];

/// K2: four sticks; 1-4 marked sides move 1-4, none marked moves 6 (C3 weights).
const THROWS: [(Throw, u32); 5] = [
    (Throw::single(1), binomial(4, 1)),
    (Throw::single(2), binomial(4, 2)),
    (Throw::single(3), binomial(4, 3)),
    (Throw::single(4), binomial(4, 4)),
    (Throw::single(6), binomial(4, 0)),
];

/// The sheet's rules.
pub const SPEC: RaceSpec = RaceSpec {
    rules: RuleSet::Kendall,
    throws: &THROWS, // K2
    throw_total: 16, // C3
    throw_kind: ThrowKind::Sticks, // K2
    bonus_throws: bit(1) | bit(4) | bit(6), // K2: 1, 4 and 6 give another throw.
    bonus_squares: bit(28) | bit(29) | bit(30), // K9: so does landing on 28, 29 or 30.
    water_ends_turn: false, // K8 says nothing of the turn: K2's bonus stands.
    first_on_odd: false, // C2: the first player on 2, 4, 6, 8, 10.
    opening: OpeningRule::PieceOnTen, // K1: the first throw moves the piece on 10.
    safe: bit(15) | bit(26) | bit(28) | bit(29), // K4: square 30 can be attacked.
    blockade_turns_corners: false, // K6: a run of three is broken at the corners (K5 counts them).
    hit: Hit::Swap, // K3
    backward: true, // K10: a throw with no forward move must be used backward.
    gate: Gate::Exact, // K7: 26 must be landed on exactly; backward moves may pass it.
    gate_bears_off: false, // K7
    water_fallback: WaterFallback::HighestBelow, // K8: 15, else 14, 13, ...
    houses_bear_off: true, // K9: 28 bears off with 3, 29 with 2, 30 with 1,
    houses_frozen: false, // K9: and they may also move forward within the track.
    bear_off_from_26: 0, // K9: no other move passes 30.
    bear_off_past_30: false, // K9
    bear_off_needs_row_one_clear: false, // K9
    leftover: false, // K9
    score: false, // K11: first to bear off all five wins; no score.
    marks: &[
        Mark::new(15, "safe", "safe (K4); the water returns pieces here (K8)"),
        Mark::new(26, "safe", "safe (K4); must be landed on exactly (K7)"),
        Mark::new(27, "water", "water: back to 15 (K8)"),
        Mark::new(28, "III", "safe (K4); bears off with 3, bonus throw (K9)"),
        Mark::new(29, "II", "safe (K4); bears off with 2, bonus throw (K9)"),
        Mark::new(30, "I", "bears off with 1, bonus throw (K9)"),
    ],
    texts: Texts {
        example: "10-13, 28-off or pass",
        list_on_bad_syntax: false,
        pass: "",
        decline: "",
        goes_to: "with a throw of {n} the piece on {from} goes to {to}",
        forward_not_back: "",
        back_only_if_stuck: "{why}; backward moves are allowed only when no piece can move forward (K10)",
        both_ways: "{why}",
        only_back: "{why}; the piece may only move back to {to}",
        first_move: "the first throw of the game must move the piece on 10 (K1)",
        first_move_any_from: false,
        nine: "",
        with_leftover: "",
        leftover_goes: "",
        leftover_refused: "",
        own_piece: "square {t} holds the mover's own piece (K3)",
        safe: "square {t} is safe and cannot be attacked (K4)",
        protected: "the opposing piece on {t} stands beside another of its colour and cannot be attacked (K5)",
        blockade: "three or more consecutive opposing pieces in one row cannot be passed (K6)",
        below_one: "nothing moves below square 1 (K10)",
        past_thirty: "no move passes 30 except bearing off 28 with 3, 29 with 2, 30 with 1 (K9)",
        past_26: "no piece passes 26 going forward; it must land on 26 exactly (K7)",
        on_house: "",
        no_back_from_house: "",
        happiness: "",
        no_bear_off: "",
        bad_throw: "throw={t} is not a kendall throw (1, 2, 3, 4 or 6)",
        forced_field: "field forced can only be 10 (K1), got {v}",
        forced_needs: "forced=10 needs a piece of player {turn} on 10 (K1)",
        left_field: "",
        left_needs: "",
        no_27: "square 27 is never occupied: a piece landing there goes to 15 at once (K8)",
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
    const NAME: &'static str = "kendall";
    const OPTIONS: &'static [OptionSpec] = &OPTIONS;

    #[inline(always)]
    fn rules(_variant: u8) -> &'static RaceRules {
        RULES
    }
}

pub(crate) fn parse(options: &Options, tokens: &[&str]) -> Result<Kendall, Error> {
    Kendall::parse(options, tokens)
}
