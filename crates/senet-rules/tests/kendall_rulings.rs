//! One test (or more) per ruling of the `kendall` rule set: K1-K11 in `shared/rulings.md`,
//! plus the common rulings C3, C4 and C5 as they apply to it. Each test names its ruling and
//! asserts exact legal move lists, resulting positions and who throws next, so that a wrong
//! reading of the ruling makes it fail. The rules in prose: `docs/rules/kendall.md`.

use senet_rules::Notation;
use senet_rules::{
    AnyGame, Effect, Effects, Error, Game, MoveList, Outcome, Player, RuleSet, Status, Throw,
};

/// The start position (K1, C2).
const START: &str = "kendall OXOXOXOXOX.................... off=0,0 turn=1 throw=- forced=10 dec=0";

/// The 30-character board with the first player (X) on `x` and the second (O) on `o`.
fn board(x: &[u8], o: &[u8]) -> String {
    (1..=30u8)
        .map(|s| {
            if x.contains(&s) {
                'X'
            } else if o.contains(&s) {
                'O'
            } else {
                '.'
            }
        })
        .collect()
}

/// The position text: `turn` 1 or 2, `throw` 0 for a pending throw.
fn text(x: &[u8], o: &[u8], turn: u8, throw: u8, dec: u32) -> String {
    let t = if throw == 0 {
        "-".to_string()
    } else {
        throw.to_string()
    };
    format!(
        "kendall {} off={},{} turn={turn} throw={t} dec={dec}",
        board(x, o),
        5 - x.len(),
        5 - o.len()
    )
}

/// A position with the first player to move `throw` (no K1 restriction).
fn pos(x: &[u8], o: &[u8], throw: u8) -> AnyGame {
    parse(&text(x, o, 1, throw, 0))
}

fn parse(s: &str) -> AnyGame {
    s.parse()
        .unwrap_or_else(|e| panic!("position {s:?} does not parse: {e}"))
}

/// The legal moves as sorted move strings.
fn moves(g: &AnyGame) -> Vec<String> {
    let mut ms = MoveList::new();
    g.legal_moves(&mut ms);
    let mut v: Vec<String> = ms.iter().map(|&m| g.move_string(m)).collect();
    v.sort();
    v
}

#[track_caller]
fn assert_moves(g: &AnyGame, expected: &[&str]) {
    let mut e: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
    e.sort();
    assert_eq!(moves(g), e, "legal moves in {}", g.position());
}

/// Plays a move by its string, which must be legal.
#[track_caller]
fn play(g: &mut AnyGame, m: &str) -> Effects {
    let mv = g
        .parse_move(m)
        .unwrap_or_else(|e| panic!("{m} in {}: {e}", g.position()));
    g.play(mv).unwrap()
}

/// Sets the throw, which must be possible.
#[track_caller]
fn throw(g: &mut AnyGame, n: u8) {
    g.set_throw(Throw::single(n))
        .unwrap_or_else(|e| panic!("throw {n} in {}: {e}", g.position()));
}

fn flags(e: Effects) -> Vec<&'static str> {
    e.names()
}

// ----------------------------------------------------------------------------------------
// K1: layout C2; the first throw of the game must move the piece on 10.

#[test]
fn k1_start_layout_first_player_on_the_even_squares() {
    let g = AnyGame::new(RuleSet::Kendall, &[] as &[&str]).unwrap();
    assert_eq!(g.position(), START);
    assert_eq!(g.status(), Status::Throw(Player::First));
    assert_eq!(parse(START), g);
}

#[test]
fn k1_first_throw_moves_the_piece_on_ten() {
    let start = AnyGame::new(RuleSet::Kendall, &[] as &[&str]).unwrap();
    for (n, only) in [
        (1, "10-11"),
        (2, "10-12"),
        (3, "10-13"),
        (4, "10-14"),
        (6, "10-16"),
    ] {
        let mut g = start;
        throw(&mut g, n);
        assert_moves(&g, &[only]);
    }
    // Without K1 the throw of 1 could swap any of the first player's pieces forward.
    let mut g = start;
    throw(&mut g, 1);
    assert!(g.parse_move("8-9").is_err());
    assert!(g.parse_move("2-3").is_err());
    let free = parse("kendall OXOXOXOXOX.................... off=0,0 turn=1 throw=1 dec=0");
    assert_moves(&free, &["10-11", "2-3", "4-5", "6-7", "8-9"]);
}

#[test]
fn k1_only_the_first_throw_of_the_game_is_forced() {
    // After a bonus throw the first player moves freely.
    let mut g = AnyGame::new(RuleSet::Kendall, &[] as &[&str]).unwrap();
    throw(&mut g, 1);
    let e = play(&mut g, "10-11");
    assert!(e.turn_continues);
    assert_eq!(
        g.position(),
        "kendall OXOXOXOXO.X................... off=0,0 turn=1 throw=- dec=1"
    );
    throw(&mut g, 1);
    assert_moves(&g, &["11-12", "2-3", "4-5", "6-7", "8-9"]);

    // The second player's first throw is not restricted either.
    let mut g = AnyGame::new(RuleSet::Kendall, &[] as &[&str]).unwrap();
    throw(&mut g, 2);
    let e = play(&mut g, "10-12");
    assert!(!e.turn_continues);
    assert_eq!(
        g.position(),
        "kendall OXOXOXOXO..X.................. off=0,0 turn=2 throw=- dec=1"
    );
    throw(&mut g, 1);
    assert_moves(&g, &["1-2", "3-4", "5-6", "7-8", "9-10"]);
}

// ----------------------------------------------------------------------------------------
// C3, K2: four sticks; 1-4 marked sides move 1-4, none marked moves 6; 1, 4, 6 throw again.

#[test]
fn c3_four_sticks_weigh_1_4_6_4_1() {
    let g = AnyGame::new(RuleSet::Kendall, &[] as &[&str]).unwrap();
    let d = g.throw_dist();
    assert_eq!(d.total, 16);
    let mut w: Vec<(Throw, u32)> = d.outcomes.to_vec();
    w.sort();
    // 1, 2, 3, 4 marked sides: 4, 6, 4, 1 ways; none marked (moves 6): 1 way.
    assert_eq!(
        w,
        [
            (Throw::single(1), 4),
            (Throw::single(2), 6),
            (Throw::single(3), 4),
            (Throw::single(4), 1),
            (Throw::single(6), 1),
        ]
    );
    assert_eq!(d.outcomes.iter().map(|(_, w)| w).sum::<u32>(), d.total);
    assert_eq!(d.probability(Throw::single(2)), 6.0 / 16.0);
    assert_eq!(d.probability(Throw::single(6)), 1.0 / 16.0);
    assert_eq!(d.weight(Throw::single(5)), 0);
    // The sampler hits each outcome exactly in proportion to its weight.
    let mut count = std::collections::BTreeMap::new();
    for i in 0..16u32 {
        *count.entry(d.sample(i << 28)).or_insert(0u32) += 1;
    }
    let count: Vec<(Throw, u32)> = count.into_iter().collect();
    assert_eq!(count, w);
}

#[test]
fn k2_five_is_not_a_throw() {
    let mut g = AnyGame::new(RuleSet::Kendall, &[] as &[&str]).unwrap();
    assert!(matches!(
        g.set_throw(Throw::single(5)),
        Err(Error::Throw(_))
    ));
    assert!(g
        .to_string()
        .replace("throw=-", "throw=5")
        .parse::<AnyGame>()
        .is_err());
}

#[test]
fn k2_sticks_move_1_2_3_4_6_and_1_4_6_throw_again() {
    for n in [1u8, 2, 3, 4, 6] {
        let mut g = pos(&[12], &[1], n);
        let to = 12 + n;
        assert_moves(&g, &[&format!("12-{to}")]);
        let e = play(&mut g, &format!("12-{to}"));
        let bonus = matches!(n, 1 | 4 | 6);
        assert_eq!(e.turn_continues, bonus, "throw {n}");
        assert_eq!(e.has(Effect::BONUS), bonus, "throw {n}");
        let next = if bonus { Player::First } else { Player::Second };
        assert_eq!(g.status(), Status::Throw(next), "throw {n}");
        assert_eq!(
            g.position(),
            text(&[to], &[1], if bonus { 1 } else { 2 }, 0, 1)
        );
    }
}

// ----------------------------------------------------------------------------------------
// K3: landing on an opponent exchanges the two pieces; never on one's own colour.

#[test]
fn k3_landing_on_an_opponent_exchanges_the_two_pieces() {
    let mut g = pos(&[10], &[1, 13], 3);
    assert_moves(&g, &["10-13"]);
    let e = play(&mut g, "10-13");
    assert_eq!(flags(e), ["step", "swap"]);
    assert!(!e.turn_continues);
    assert_eq!(g.position(), text(&[13], &[1, 10], 2, 0, 1));

    // The second player swaps the same way.
    let mut g = parse(&text(&[5, 20], &[2], 2, 3, 0));
    assert_moves(&g, &["2-5"]);
    play(&mut g, "2-5");
    assert_eq!(g.position(), text(&[2, 20], &[5], 1, 0, 1));
}

#[test]
fn k3_a_piece_may_not_land_on_its_own_colour() {
    let g = pos(&[10, 13], &[1], 3);
    assert_moves(&g, &["13-16"]);
    assert!(g.parse_move("10-13").is_err());
}

// ----------------------------------------------------------------------------------------
// K4: squares 15, 26, 28, 29 cannot be attacked; 30 can.

#[test]
fn k4_squares_15_26_28_29_cannot_be_attacked() {
    for (from, n, safe) in [(13u8, 2u8, 15u8), (24, 2, 26), (26, 2, 28), (26, 3, 29)] {
        // A lone opponent on the safe square: the attack is illegal.
        let g = pos(&[1, from], &[safe], n);
        assert_moves(&g, &[&format!("1-{}", 1 + n)]);
        // The same square empty can be landed on.
        let g = pos(&[1, from], &[20], n);
        assert_moves(&g, &[&format!("1-{}", 1 + n), &format!("{from}-{safe}")]);
    }
    // A lone opponent on an ordinary square can be attacked.
    let g = pos(&[1, 14], &[16], 2);
    assert_moves(&g, &["1-3", "14-16"]);
}

#[test]
fn k4_square_30_can_be_attacked() {
    let mut g = pos(&[1, 28], &[30], 2);
    assert_moves(&g, &["1-3", "28-30"]);
    let e = play(&mut g, "28-30");
    assert_eq!(flags(e), ["step", "swap", "bonus throw"]);
    assert!(e.turn_continues); // K9: landing on 30
    assert_eq!(g.position(), text(&[1, 30], &[28], 1, 0, 1));
}

// ----------------------------------------------------------------------------------------
// K5: two or more consecutive opponent pieces cannot be attacked (corners count).

#[test]
fn k5_two_consecutive_opponents_cannot_be_attacked() {
    let g = pos(&[1, 10], &[12, 13], 2);
    assert_moves(&g, &["1-3"]);
    let g = pos(&[1, 10], &[12, 13], 3);
    assert_moves(&g, &["1-4"]);
    // Not consecutive: both can be attacked.
    let g = pos(&[1, 10], &[12, 14], 2);
    assert_moves(&g, &["1-3", "10-12"]);
    let g = pos(&[1, 10], &[12, 14], 4);
    assert_moves(&g, &["1-5", "10-14"]);
}

#[test]
fn k5_protection_counts_across_corners() {
    // 10 and 11 protect each other, and so do 20 and 21.
    for (o, from) in [([10u8, 11u8], 8u8), ([20, 21], 18)] {
        let g = pos(&[1, from], &o, 2);
        assert_moves(&g, &["1-3"]);
        let g = pos(&[1, from], &o, 3);
        assert_moves(&g, &["1-4"]);
    }
    // A pair of a run of three across the corner is protected too (K6 aside).
    let g = pos(&[1, 8], &[9, 10, 11], 1);
    assert_moves(&g, &["1-2"]);
    let g = pos(&[1, 8], &[9, 10, 11], 3);
    assert_moves(&g, &["1-4"]);
    // Control: 10 and 12 are not consecutive.
    let g = pos(&[1, 8], &[10, 12], 2);
    assert_moves(&g, &["1-3", "8-10"]);
}

// ----------------------------------------------------------------------------------------
// K6: three or more consecutive opponent pieces in one row cannot be passed; runs are
// broken at the corners.

#[test]
fn k6_three_consecutive_opponents_in_a_row_cannot_be_passed() {
    let g = pos(&[1, 11], &[12, 13, 14], 4);
    assert_moves(&g, &["1-5"]);
    let g = pos(&[1, 11], &[12, 13, 14], 6);
    assert_moves(&g, &["1-7"]);
    // Row one and row three too.
    let g = pos(&[1, 7], &[8, 9, 10], 4);
    assert_moves(&g, &["1-5"]);
    let g = pos(&[1, 21], &[22, 23, 24], 4);
    assert_moves(&g, &["1-5"]);
    // Two in a row (plus a gap) can be passed.
    let g = pos(&[1, 11], &[12, 13, 16], 4);
    assert_moves(&g, &["1-5", "11-15"]);
}

#[test]
fn k6_blockade_does_not_turn_corners() {
    // 9, 10, 11 and 19, 20, 21 are no blockade: they can be passed.
    let g = pos(&[1, 8], &[9, 10, 11], 4);
    assert_moves(&g, &["1-5", "8-12"]);
    let g = pos(&[1, 8], &[9, 10, 11], 6);
    assert_moves(&g, &["1-7", "8-14"]);
    let g = pos(&[1, 18], &[19, 20, 21], 4);
    assert_moves(&g, &["1-5", "18-22"]);
    // 10, 11, 12: only two of them in row two.
    let g = pos(&[1, 9], &[10, 11, 12], 4);
    assert_moves(&g, &["1-5", "9-13"]);
    // Passing a corner run lands the piece as usual.
    let mut g = pos(&[1, 8], &[9, 10, 11], 4);
    play(&mut g, "8-12");
    assert_eq!(g.position(), text(&[1, 12], &[9, 10, 11], 1, 0, 1));
}

#[test]
fn k6_blockade_also_stops_backward_moves() {
    // 16 cannot go forward (20 and 21 protect each other); back to 12 it would pass the
    // blockade 13, 14, 15.
    let mut g = pos(&[16], &[13, 14, 15, 20, 21], 4);
    assert_moves(&g, &["pass"]);
    let e = play(&mut g, "pass");
    assert_eq!(flags(e), ["forfeit"]);
    // Without the blockade the piece goes back.
    let g = pos(&[16], &[1, 13, 14, 20, 21], 4);
    assert_moves(&g, &["16-12"]);
}

// ----------------------------------------------------------------------------------------
// K7: no piece passes 26 going forward; backward moves may.

#[test]
fn k7_no_piece_passes_26_going_forward() {
    let g = pos(&[10, 24], &[5], 2);
    assert_moves(&g, &["10-12", "24-26"]);
    for (n, only) in [(3u8, "10-13"), (4, "10-14"), (6, "10-16")] {
        let g = pos(&[10, 24], &[5], n);
        assert_moves(&g, &[only]);
    }
    let g = pos(&[10, 25], &[5], 1);
    assert_moves(&g, &["10-11", "25-26"]);
    let g = pos(&[10, 25], &[5], 2);
    assert_moves(&g, &["10-12"]);
    let g = pos(&[10, 22], &[5], 6);
    assert_moves(&g, &["10-16"]);
}

#[test]
fn k7_a_piece_short_of_26_waits_or_moves_back() {
    // The only piece cannot land on 26 exactly: it must move backward (K10).
    let g = pos(&[23], &[5], 4);
    assert_moves(&g, &["23-19"]);
}

#[test]
fn k7_backward_moves_may_pass_26() {
    let mut g = pos(&[29], &[5], 4);
    assert_moves(&g, &["29-25"]);
    let e = play(&mut g, "29-25");
    assert_eq!(flags(e), ["backward", "bonus throw"]);
    assert!(e.turn_continues);
    assert_eq!(g.position(), text(&[25], &[5], 1, 0, 1));
    let g = pos(&[30], &[5], 6);
    assert_moves(&g, &["30-24"]);
}

// ----------------------------------------------------------------------------------------
// K8: a piece ending a move on 27 goes to 15, or the first empty square below it.

#[test]
fn k8_water_sends_the_piece_to_15() {
    let mut g = pos(&[26], &[5], 1);
    assert_moves(&g, &["26-15"]);
    let e = play(&mut g, "26-15");
    assert_eq!(flags(e), ["step", "trap", "bonus throw"]);
    assert_eq!(g.position(), text(&[15], &[5], 1, 0, 1));
}

#[test]
fn k8_water_sends_to_the_first_empty_square_below_15() {
    // 15 (O), 14 (X), 13 (O) are taken: the piece goes to 12. 14-15 is illegal (K4).
    let mut g = pos(&[14, 26], &[13, 15], 1);
    assert_moves(&g, &["26-12"]);
    play(&mut g, "26-12");
    assert_eq!(g.position(), text(&[12, 14], &[13, 15], 1, 0, 1));
    // The mover's own piece on 15 counts as taking it.
    let mut g = pos(&[15, 26], &[14], 1);
    assert_moves(&g, &["15-16", "26-13"]);
    play(&mut g, "26-13");
    assert_eq!(g.position(), text(&[13, 15], &[14], 1, 0, 1));
}

#[test]
fn k8_the_trap_keeps_the_bonus_of_a_throw_of_one() {
    let mut g = pos(&[26], &[5], 1);
    let e = play(&mut g, "26-15");
    assert!(e.has(Effect::TRAP));
    assert!(e.turn_continues);
    assert_eq!(g.status(), Status::Throw(Player::First));
}

#[test]
fn k8_a_backward_move_onto_27_falls_into_the_water_too() {
    // From 30 a 3 has no forward move; back to 27, then to 15; no bonus with a 3.
    let mut g = pos(&[30], &[5], 3);
    assert_moves(&g, &["30-15"]);
    let e = play(&mut g, "30-15");
    assert_eq!(flags(e), ["backward", "trap"]);
    assert!(!e.turn_continues);
    assert_eq!(g.status(), Status::Throw(Player::Second));
    assert_eq!(g.position(), text(&[15], &[5], 2, 0, 1));
    // From 28 with a 1 when 29 is safe and taken: back into the water, bonus kept.
    let mut g = pos(&[28], &[29], 1);
    assert_moves(&g, &["28-15"]);
    let e = play(&mut g, "28-15");
    assert_eq!(flags(e), ["backward", "trap", "bonus throw"]);
    assert!(e.turn_continues);
    assert_eq!(g.position(), text(&[15], &[29], 1, 0, 1));
}

#[test]
fn k8_square_27_is_never_occupied() {
    let s = format!(
        "kendall {} off=4,4 turn=1 throw=- dec=0",
        board(&[27], &[1])
    );
    assert!(s.parse::<AnyGame>().is_err());
    let s = format!(
        "kendall {} off=4,4 turn=1 throw=- dec=0",
        board(&[26], &[1])
    );
    assert!(s.parse::<AnyGame>().is_ok());
}

// ----------------------------------------------------------------------------------------
// K9: 28, 29, 30 bear off with 3, 2, 1, may move forward within the track, and landing on
// them gives a bonus throw. No other move passes 30.

#[test]
fn k9_pieces_on_28_29_30_bear_off_with_3_2_1() {
    let g = pos(&[28, 29, 30], &[5], 3);
    assert_moves(&g, &["28-off"]);
    let g = pos(&[28, 29, 30], &[5], 2);
    assert_moves(&g, &["29-off"]);
    let g = pos(&[28, 29, 30], &[5], 1);
    assert_moves(&g, &["30-off"]);

    let mut g = pos(&[28, 29, 30], &[5], 3);
    let e = play(&mut g, "28-off");
    assert_eq!(flags(e), ["step", "bear off"]);
    assert!(!e.turn_continues);
    assert_eq!(g.position(), text(&[29, 30], &[5], 2, 0, 1));

    let mut g = pos(&[28, 29, 30], &[5], 2);
    let e = play(&mut g, "29-off");
    assert!(!e.turn_continues);
    assert_eq!(g.position(), text(&[28, 30], &[5], 2, 0, 1));

    let mut g = pos(&[28, 29, 30], &[5], 1);
    let e = play(&mut g, "30-off");
    assert_eq!(flags(e), ["step", "bear off", "bonus throw"]);
    assert!(e.turn_continues);
    assert_eq!(g.position(), text(&[28, 29], &[5], 1, 0, 1));
}

#[test]
fn k9_pieces_on_28_and_29_may_move_forward_within_the_track() {
    for (from, n, only) in [
        (28u8, 1u8, "28-29"),
        (28, 2, "28-30"),
        (28, 3, "28-off"),
        (29, 1, "29-30"),
        (29, 2, "29-off"),
        (30, 1, "30-off"),
    ] {
        let g = pos(&[from], &[5], n);
        assert_moves(&g, &[only]);
    }
}

#[test]
fn k9_no_other_move_passes_30() {
    // With every piece at 26 or beyond, 4 and 6 move only the piece on 10.
    let g = pos(&[10, 26, 28, 29, 30], &[5], 4);
    assert_moves(&g, &["10-14"]);
    let g = pos(&[10, 26, 28, 29, 30], &[5], 6);
    assert_moves(&g, &["10-16"]);
    let g = pos(&[10, 29], &[5], 3);
    assert_moves(&g, &["10-13"]);
    let g = pos(&[10, 30], &[5], 2);
    assert_moves(&g, &["10-12"]);
}

#[test]
fn k9_landing_on_28_29_30_gives_a_bonus_throw() {
    for (from, n, to) in [
        (26u8, 2u8, 28u8),
        (26, 3, 29),
        (26, 4, 30),
        (28, 2, 30),
        (29, 1, 30),
    ] {
        let mut g = pos(&[from], &[5], n);
        let e = play(&mut g, &format!("{from}-{to}"));
        assert!(e.has(Effect::BONUS), "{from}-{to}");
        assert!(e.turn_continues, "{from}-{to}");
        assert_eq!(g.position(), text(&[to], &[5], 1, 0, 1));
    }
    // Control: landing on 26 with a 2 gives none (nor does bearing off 28 with a 3, above).
    let mut g = pos(&[24], &[5], 2);
    assert!(!play(&mut g, "24-26").turn_continues);
    assert_eq!(g.status(), Status::Throw(Player::Second));
}

#[test]
fn k9_landing_on_28_to_30_by_a_backward_move_also_gives_a_bonus() {
    // From 30 a 2 has no forward move; back to 28, which gives the bonus (K9 read
    // literally) although 2 does not.
    let mut g = pos(&[30], &[5], 2);
    assert_moves(&g, &["30-28"]);
    let e = play(&mut g, "30-28");
    assert_eq!(flags(e), ["backward", "bonus throw"]);
    assert!(e.turn_continues);
    assert_eq!(g.position(), text(&[28], &[5], 1, 0, 1));
}

// ----------------------------------------------------------------------------------------
// K10: a throw with no legal forward move must be used backward, under the same rules.

#[test]
fn k10_backward_moves_only_when_no_piece_can_move_forward() {
    let g = pos(&[5, 30], &[1], 2);
    assert_moves(&g, &["5-7"]);
    assert!(g.parse_move("30-28").is_err());
    let g = pos(&[30], &[1], 2);
    assert_moves(&g, &["30-28"]);
    // Every backward move is offered when no piece moves forward.
    let g = pos(&[28, 29, 30], &[5], 4);
    assert_moves(&g, &["28-24", "29-25", "30-26"]);
    let g = pos(&[28, 29, 30], &[5], 6);
    assert_moves(&g, &["28-22", "29-23", "30-24"]);
}

#[test]
fn k10_a_backward_swap_puts_the_opponent_on_the_square_the_mover_left() {
    let mut g = pos(&[30], &[5, 24], 6);
    assert_moves(&g, &["30-24"]);
    let e = play(&mut g, "30-24");
    assert_eq!(flags(e), ["backward", "swap", "bonus throw"]);
    assert_eq!(g.position(), text(&[24], &[5, 30], 1, 0, 1));
    // The same protection applies backward (K5): 24 and 25 protect each other.
    let g = pos(&[30], &[24, 25], 6);
    assert_moves(&g, &["pass"]);
    // ... and the same safe squares (K4).
    let g = pos(&[30], &[26], 4);
    assert_moves(&g, &["pass"]);
}

#[test]
fn k10_nothing_moves_below_square_1() {
    // 3, 4, 5 protect each other and block the piece on 2.
    let g = pos(&[2], &[3, 4, 5], 1);
    assert_moves(&g, &["2-1"]);
    for n in [2u8, 3] {
        let g = pos(&[2], &[3, 4, 5], n);
        assert_moves(&g, &["pass"]);
    }
}

#[test]
fn k10_bonus_throws_follow_1_4_6_after_backward_moves() {
    // 21-25 block every forward move of the piece on 20.
    for n in [1u8, 2, 3, 4, 6] {
        let mut g = pos(&[20], &[21, 22, 23, 24, 25], n);
        let to = 20 - n;
        assert_moves(&g, &[&format!("20-{to}")]);
        let e = play(&mut g, &format!("20-{to}"));
        let bonus = matches!(n, 1 | 4 | 6);
        assert!(e.has(Effect::BACKWARD));
        assert_eq!(e.turn_continues, bonus, "throw {n}");
        let next = if bonus { 1 } else { 2 };
        assert_eq!(g.position(), text(&[to], &[21, 22, 23, 24, 25], next, 0, 1));
    }
}

// ----------------------------------------------------------------------------------------
// K11: first to bear off all five wins.

#[test]
fn k11_bearing_off_the_last_piece_wins() {
    let mut g = pos(&[30], &[5, 6], 1);
    let e = play(&mut g, "30-off");
    assert!(e.has(Effect::BEAR_OFF));
    assert!(!e.turn_continues, "no bonus throw after the game is won");
    assert_eq!(
        g.status(),
        Status::Over(Outcome {
            winner: Some(Player::First),
            capped: false,
            score: None
        })
    );
    assert_eq!(g.position(), text(&[], &[5, 6], 1, 0, 1));
    assert!(moves(&g).is_empty());
    assert_eq!(g.set_throw(Throw::single(2)), Err(Error::GameOver));

    let mut g = parse(&text(&[5], &[29], 2, 2, 7));
    play(&mut g, "29-off");
    assert_eq!(
        g.status(),
        Status::Over(Outcome {
            winner: Some(Player::Second),
            capped: false,
            score: None
        })
    );
}

#[test]
fn k11_bearing_off_another_piece_does_not_end_the_game() {
    let mut g = pos(&[29, 30], &[5], 1);
    play(&mut g, "30-off");
    assert_eq!(g.status(), Status::Throw(Player::First));
    assert_eq!(g.position(), text(&[29], &[5], 1, 0, 1));
}

// ----------------------------------------------------------------------------------------
// C4: a throw with no legal move is forfeited and the turn passes, whatever the throw.

#[test]
fn c4_no_legal_move_forfeits_and_passes_the_turn() {
    // 3, 4, 5 protect each other and block the piece on 2; nothing moves below 1.
    for n in [2u8, 4, 6] {
        let mut g = pos(&[2], &[3, 4, 5], n);
        assert_moves(&g, &["pass"]);
        let e = play(&mut g, "pass");
        assert_eq!(flags(e), ["forfeit"], "throw {n}");
        assert!(!e.turn_continues, "throw {n}");
        assert_eq!(g.status(), Status::Throw(Player::Second));
        assert_eq!(g.decisions(), 1);
        assert_eq!(g.position(), text(&[2], &[3, 4, 5], 2, 0, 1));
    }
    // pass is illegal while a move exists.
    let g = pos(&[2], &[3, 4, 5], 1);
    assert!(g.parse_move("pass").is_err());
}

// ----------------------------------------------------------------------------------------
// C5: the game is a draw after a configurable number of decisions, forfeits included.

#[test]
fn c5_turn_cap_ends_the_game_as_a_draw() {
    let mut g = AnyGame::new(RuleSet::Kendall, &["cap=5"]).unwrap();
    assert_eq!(
        g.position(),
        "kendall:cap=5 OXOXOXOXOX.................... off=0,0 turn=1 throw=- forced=10 dec=0"
    );
    for i in 0..5 {
        assert!(matches!(g.status(), Status::Throw(_)), "decision {i}");
        throw(&mut g, 2);
        let m = moves(&g)[0].clone();
        play(&mut g, &m);
    }
    assert_eq!(g.decisions(), 5);
    assert_eq!(
        g.status(),
        Status::Over(Outcome {
            winner: None,
            capped: true,
            score: None
        })
    );
    assert_eq!(g.set_throw(Throw::single(2)), Err(Error::GameOver));
}

#[test]
fn c5_forfeits_count_toward_the_cap() {
    let mut g = parse("kendall:cap=5 .XOOO......................... off=4,2 turn=1 throw=4 dec=4");
    assert_moves(&g, &["pass"]);
    play(&mut g, "pass");
    assert_eq!(
        g.status(),
        Status::Over(Outcome {
            winner: None,
            capped: true,
            score: None
        })
    );
    assert_eq!(
        g.position(),
        "kendall:cap=5 .XOOO......................... off=4,2 turn=2 throw=- dec=5"
    );
    // A position already at the cap is over; one below it is not.
    let g = parse("kendall:cap=5 .XOOO......................... off=4,2 turn=1 throw=- dec=5");
    assert!(matches!(g.status(), Status::Over(o) if o.capped && o.winner.is_none()));
    let g = parse("kendall:cap=5 .XOOO......................... off=4,2 turn=1 throw=- dec=4");
    assert_eq!(g.status(), Status::Throw(Player::First));
}
