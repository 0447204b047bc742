//! `houses`: Senet of the Houses: Rebirth (15), Happiness (26), Water (27) (seed 002;
//! rulings H1-H13 in `shared/rulings.md`; explained in `docs/rules/houses.md`).
//!
//! The sheet as data for the race core ([`crate::race`]): squares are numbered 1-30 along
//! the S-shaped track (C1); a piece on square `s` is bit `s` of its side's mask. Its three
//! options (`swap`, `happiness_exits`, `six_sticks`) give eight specs, one per choice.

use crate::game::{binomial, BoardView, Mark, Throw, ThrowKind};
use crate::options::{cap_option, OptionKind, OptionSpec, Options};
use crate::race::{
    Gate, Hit, Opening, OpeningRule, Race, RaceRules, RaceSpec, Texts, WaterFallback,
};
use crate::track::{self, bit};
use crate::{Error, RuleSet, Status};

/// The sides (C2). The sheet names no colours, so senet calls them light and dark.
pub const SIDES: [crate::game::Side; 2] = track::LIGHT_DARK;

/// A `houses` position.
pub type Houses = Race<Sheet>;

/// The `houses` sheet for the race core.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Sheet;

/// The default turn cap (C5): over twice the longest of 200,000 random games under any options
/// (453 decisions; mean 200, see `docs/rules/houses.md`).
const DEFAULT_CAP: u32 = 1000;

/// The options; the flags are bits 0, 1, 2 of the spec's index in [`RULES`].
const OPTIONS: [OptionSpec; 4] = [
    OptionSpec {
        name: "swap",
        description: "landing on an unprotected opponent exchanges the two pieces instead of sending it back to the start (H3)",
        kind: OptionKind::Bool { default: false },
    },
    OptionSpec {
        name: "happiness_exits",
        description: "a piece landing on the House of Happiness (26) is borne off at once (H7)",
        kind: OptionKind::Bool { default: false },
    },
    OptionSpec {
        name: "six_sticks",
        description: "throw six sticks: 1-6 marked sides move 1-6, none marked moves 7; 1, 6 and 7 throw again (H12)",
        kind: OptionKind::Bool { default: false },
    },
    cap_option(DEFAULT_CAP),
];
const SWAP: u8 = 1;
const HAPPINESS_EXITS: u8 = 2;
const SIX_STICKS: u8 = 4;

/// H2, H12: the throws of `sticks` sticks (C3). k marked sides (1 to `sticks`) move k with
/// weight C(sticks, k); no marked side moves `sticks + 1` with weight C(sticks, 0). The
/// weights add up to 2^sticks. `N` must be `sticks + 1` (checked at compile time).
const fn stick_throws<const N: usize>(sticks: u32) -> [(Throw, u32); N] {
    assert!(
        N == sticks as usize + 1,
        "one outcome per count of marked sides"
    );
    let mut table = [(Throw::single(0), 0); N];
    let mut k = 1;
    while k <= sticks {
        table[k as usize - 1] = (Throw::single(k as u8), binomial(sticks, k));
        k += 1;
    }
    table[N - 1] = (Throw::single(sticks as u8 + 1), binomial(sticks, 0));
    table
}

/// H2: four sticks.
const FOUR: [(Throw, u32); 5] = stick_throws(4);
/// H12: six sticks.
const SIX: [(Throw, u32); 7] = stick_throws(6);

/// The marked squares, with `happiness_exits` and without (H6-H10).
const MARKS: [Mark; 6] =
    marks("House of Happiness: safe; every move stops here; blocks all when occupied (H6, H7)");
const MARKS_EXITS: [Mark; 6] =
    marks("House of Happiness: every move stops here, and the piece is borne off (H7)");
const fn marks(happiness: &'static str) -> [Mark; 6] {
    [
        Mark::new(
            15,
            "rebirth",
            "House of Rebirth: safe, bonus throw (H6, H9)",
        ),
        Mark::new(26, "happy", happiness),
        Mark::new(27, "water", "House of Water: back to 15, turn ends (H8)"),
        Mark::new(
            28,
            "III",
            "House of Three Truths: safe, bonus throw; leaves only with 3 (H6, H9, H10)",
        ),
        Mark::new(
            29,
            "II",
            "House of Ra Atum: safe, bonus throw; leaves only with 2 (H6, H9, H10)",
        ),
        Mark::new(
            30,
            "I",
            "House of Ra Horakhty: safe, bonus throw; leaves only with 1 (H6, H9, H10)",
        ),
    ]
}

/// The sheet's rules under the options of `variant` (bits `SWAP`, `HAPPINESS_EXITS`,
/// `SIX_STICKS`).
pub const fn spec(variant: u8) -> RaceSpec {
    let swap = variant & SWAP != 0;
    let exits = variant & HAPPINESS_EXITS != 0;
    let six = variant & SIX_STICKS != 0;
    RaceSpec {
        rules: RuleSet::Houses,
        throws: if six { &SIX } else { &FOUR }, // H2, H12
        throw_total: if six { 64 } else { 16 }, // C3
        throw_kind: ThrowKind::Sticks, // H2, H12
        // H2, H12: one marked side, all marked, or none marked throws again.
        bonus_throws: if six {
            bit(1) | bit(6) | bit(7)
        } else {
            bit(1) | bit(4) | bit(5)
        },
        bonus_squares: bit(15) | bit(28) | bit(29) | bit(30), // H9
        water_ends_turn: true, // H8: drowning cancels every bonus throw, 15's included.
        first_on_odd: false, // C2: the first player on 2, 4, 6, 8, 10.
        opening: OpeningRule::PieceOnTen, // H1: the first move is the piece on 10.
        safe: bit(15) | bit(26) | bit(28) | bit(29) | bit(30), // H6
        blockade_turns_corners: true, // H5: consecutive square numbers (C1).
        // H3: back to the lowest empty square; variant `swap`: exchange places.
        hit: if swap { Hit::Swap } else { Hit::SendBack },
        backward: false, // H11: no backward moves.
        gate: Gate::Stop, // H7: a move that would pass 26 stops there; occupied, it blocks.
        gate_bears_off: exits, // H7, variant `happiness_exits`: landing on 26 bears off.
        water_fallback: WaterFallback::HighestBelow, // H8: 15, else 14, 13, ...
        houses_bear_off: true, // H10: 28 leaves only with 3, 29 with 2, 30 with 1,
        houses_frozen: true, // H10: bearing it off.
        bear_off_from_26: 0, // H10: from 26, 1-4 reach 27-30; nothing else passes 30.
        bear_off_past_30: false, // H10
        bear_off_needs_row_one_clear: false, // H10
        leftover: false, // H10
        score: false, // H13: first to bear off all five wins; no score.
        marks: if exits { &MARKS_EXITS } else { &MARKS }, // H6-H10
        texts: Texts {
            example: "10-13, 28-off or pass",
            list_on_bad_syntax: true,
            pass: "a throw is forfeited only when no move is legal (H11, C4)",
            decline: "",
            goes_to: "the piece on {from} goes to {to}",
            forward_not_back: "pieces never move backward (H11)",
            back_only_if_stuck: "",
            both_ways: "{why}",
            only_back: "",
            first_move: "the first move of the game must be the piece on 10 (H1)",
            first_move_any_from: false,
            nine: "",
            with_leftover: "",
            leftover_goes: "",
            leftover_refused: "",
            own_piece: "square {t} holds the mover's own piece (H4)",
            safe: "square {t} is safe and its piece cannot be taken (H6)",
            protected: "the opposing piece on {t} stands beside another of its colour and cannot be taken (H5)",
            blockade: "three or more consecutive opposing pieces cannot be jumped (H5)",
            below_one: "",
            past_thirty: "from 26 only 1-4 move (to 27-30); nothing else passes 30 (H10)",
            past_26: "",
            on_house: "a piece on {s} moves only with a throw of {k}, which bears it off (H10)",
            no_back_from_house: "",
            happiness: "the House of Happiness (26) is occupied, so no piece can reach or pass it (H7)",
            no_bear_off: "",
            bad_throw: if six {
                "throw={t} is not a houses throw (1-7 with six_sticks) (H2, H12)"
            } else {
                "throw={t} is not a houses throw (1-5) (H2, H12)"
            },
            forced_field: "field forced can only be 10 (H1), got {v}",
            forced_needs: "forced=10 needs a piece of player {turn} on 10 (H1)",
            left_field: "",
            left_needs: "",
            no_27: "square 27 is never occupied: a piece landing there goes to 15 at once (H8)",
            no_26_to_30: "with happiness_exits no piece can stand on 26-30: landing on 26 bears it off (H7)",
            on_27: "a piece stands on 27 (H8)",
            on_26_to_30: "a piece stands on 26-30 with happiness_exits (H7)",
            bad_left: "",
        },
    }
}

/// The rules for each choice of the three options.
///
/// A constant (not a `static`), so that code built in other crates sees its values.
const RULES: &[RaceRules; 8] = &[
    RaceRules::new(spec(0)),
    RaceRules::new(spec(1)),
    RaceRules::new(spec(2)),
    RaceRules::new(spec(3)),
    RaceRules::new(spec(4)),
    RaceRules::new(spec(5)),
    RaceRules::new(spec(6)),
    RaceRules::new(spec(7)),
];

impl crate::race::Sheet for Sheet {
    const NAME: &'static str = "houses";
    const OPTIONS: &'static [OptionSpec] = &OPTIONS;

    #[inline(always)]
    fn rules(variant: u8) -> &'static RaceRules {
        &RULES[variant as usize & 7]
    }

    /// H1: the bound first move, beside the board.
    fn notes(g: &Houses, v: &mut BoardView) {
        if g.opening() == Opening::Ten {
            v.notes.push((
                "first move of the game".into(),
                "the piece on 10 (H1)".into(),
            ));
        }
    }

    fn diagram_note(g: &Houses) -> Option<String> {
        use crate::Game;
        (g.opening() == Opening::Ten && matches!(g.status(), Status::Move(_) | Status::Throw(_)))
            .then(|| "first move of the game (H1): the piece on 10".into())
    }
}

pub(crate) fn parse(options: &Options, tokens: &[&str]) -> Result<Houses, Error> {
    Houses::parse(options, tokens)
}
