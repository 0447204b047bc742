//! One or more tests per ruling of `senat` (S1-S12 in `shared/rulings.md`) and per option.
//! Positions are written with [`pos`]: the squares of the first player (X) and of the second
//! (O), then the fields after `off=`.

use senet_rules::Notation;
use senet_rules::{
    AnyGame, Effect, Effects, Error, Game, MoveList, Player, RuleSet, Status, Throw,
};

/// The 30-character board with X on `x` and O on `o`.
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

/// A position string: `head` is `senat` or `senat:OPTIONS`; `off=` is filled in.
fn text(head: &str, x: &[u8], o: &[u8], fields: &str) -> String {
    format!(
        "{head} {} off={},{} {fields}",
        board(x, o),
        5 - x.len(),
        5 - o.len()
    )
}

/// A default-options position.
fn pos(x: &[u8], o: &[u8], fields: &str) -> AnyGame {
    parse(&text("senat", x, o, fields))
}

fn parse(s: &str) -> AnyGame {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn moves(g: &AnyGame) -> Vec<String> {
    let mut ms = MoveList::new();
    g.legal_moves(&mut ms);
    ms.iter().map(|&m| g.move_string(m)).collect()
}

/// Plays a move string, returning the effects.
fn play(g: &mut AnyGame, mv: &str) -> Effects {
    let m = g.parse_move(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    g.play(m).unwrap()
}

fn flags(e: Effects) -> Vec<&'static str> {
    e.names()
}

fn illegal(g: &AnyGame, mv: &str) -> String {
    match g.parse_move(mv) {
        Err(Error::Move(why)) => why,
        other => panic!("{mv} should be illegal, got {other:?}"),
    }
}

// ---------------------------------------------------------------- S1

#[test]
fn s1_start_layout_arms_on_even_squares_sun_on_odd() {
    let g = AnyGame::new(RuleSet::Senat, &[] as &[&str]).unwrap();
    assert_eq!(
        g.position(),
        "senat OXOXOXOXOX.................... off=0,0 turn=1 throw=1 forced=10 dec=0"
    );
    let AnyGame::Senat(s) = g else { panic!() };
    let even = (1..=5).fold(0u32, |m, i| m | 1 << (2 * i));
    let odd = (0..5).fold(0u32, |m, i| m | 1 << (2 * i + 1));
    assert_eq!(s.men(), [even, odd]);
    assert_eq!(
        RuleSet::Senat.name(),
        "Senat, piecepack adaptation of the Fundex rules"
    );
}

// ---------------------------------------------------------------- S2

#[test]
fn s2_four_coins_give_1_2_3_4_6_with_weights_4_6_4_1_1() {
    let g = pos(&[20], &[1], "turn=1 throw=- dec=5");
    let d = g.throw_dist();
    let got: Vec<(String, u32)> = d
        .outcomes
        .iter()
        .map(|(t, w)| (t.to_string(), *w))
        .collect();
    let want: Vec<(String, u32)> = [(1, 4), (2, 6), (3, 4), (4, 1), (6, 1)]
        .iter()
        .map(|&(t, w)| (t.to_string(), w))
        .collect();
    assert_eq!(got, want);
    assert_eq!(d.total, 16);
    let mut h = g;
    assert!(matches!(
        h.set_throw(Throw::single(5)),
        Err(Error::Throw(_))
    ));
    assert!(matches!(
        text("senat", &[20], &[1], "turn=1 throw=5 dec=5").parse::<AnyGame>(),
        Err(Error::Position(_))
    ));
}

#[test]
fn s2_option_die_gives_1_2_3_4_6_one_fifth_each() {
    let g = AnyGame::new(RuleSet::Senat, &["die"]).unwrap();
    assert_eq!(
        g.position(),
        "senat:die=true OXOXOXOXOX.................... off=0,0 turn=1 throw=1 forced=10 dec=0"
    );
    let h = parse(&text("senat:die=true", &[20], &[1], "turn=1 throw=- dec=5"));
    let d = h.throw_dist();
    let got: Vec<(u8, u32)> = d.outcomes.iter().map(|(t, w)| (t.a, *w)).collect();
    assert_eq!(got, vec![(1, 1), (2, 1), (3, 1), (4, 1), (6, 1)]);
    assert_eq!(d.total, 5);
    for t in [1u8, 2, 3, 4, 6] {
        assert!((d.probability(Throw::single(t)) - 0.2).abs() < 1e-12);
    }
    assert_eq!(d.weight(Throw::single(5)), 0, "a 5 is thrown again");
    // The option is kept in every position of the game.
    let mut g = g;
    play(&mut g, "10-11");
    assert!(g.position().starts_with("senat:die=true "));
}

// ---------------------------------------------------------------- S3

#[test]
fn s3_the_game_opens_with_the_forced_move_10_11_then_a_throw() {
    let mut g = AnyGame::new(RuleSet::Senat, &[] as &[&str]).unwrap();
    assert_eq!(g.status(), Status::Move(Player::First));
    assert_eq!(g.in_hand(), Some(Throw::single(1)));
    assert_eq!(moves(&g), ["10-11"]);
    assert!(illegal(&g, "8-9").contains("(S3)"));
    let e = play(&mut g, "10-11");
    assert_eq!(flags(e), ["step", "bonus throw"]);
    assert!(e.turn_continues);
    assert_eq!(
        g.position(),
        "senat OXOXOXOXO.X................... off=0,0 turn=1 throw=- forced=9 dec=1"
    );
    assert_eq!(g.status(), Status::Throw(Player::First));
}

#[test]
fn s3_the_second_players_first_move_is_the_piece_on_9() {
    let start = pos(
        &[2, 4, 6, 8, 11],
        &[1, 3, 5, 7, 9],
        "turn=2 throw=3 forced=9 dec=3",
    );
    assert_eq!(moves(&start), ["9-12"]);
    assert!(illegal(&start, "7-10").contains("(S3)"));
    let mut g = start;
    play(&mut g, "9-12");
    assert_eq!(
        g.position(),
        text(
            "senat",
            &[2, 4, 6, 8, 11],
            &[1, 3, 5, 7, 12],
            "turn=1 throw=- dec=4"
        )
    );
    // The first player's moves while forced=9 is pending are free, and the rule binds only
    // the second player's first decision.
    let g = pos(
        &[2, 4, 6, 8, 11],
        &[1, 3, 5, 7, 9],
        "turn=1 throw=3 forced=9 dec=2",
    );
    assert_eq!(moves(&g), ["2-5", "4-7", "6-9", "11-14"]);
    let g = pos(&[2, 4, 6, 8, 11], &[1, 3, 5, 7, 12], "turn=2 throw=3 dec=5");
    assert_eq!(moves(&g), ["1-4", "3-6", "5-8", "7-10", "12-15"]);
}

#[test]
fn s3_when_the_piece_on_9_cannot_move_any_piece_may() {
    // 10, 11, 12 are a block of three: 9 can neither land on 10 nor pass it.
    let g = pos(
        &[4, 6, 10, 11, 12],
        &[1, 3, 5, 7, 9],
        "turn=2 throw=1 forced=9 dec=3",
    );
    assert_eq!(moves(&g), ["1-2", "3-4", "5-6", "7-8"]);
    let mut h = g;
    play(&mut h, "7-8");
    assert!(
        !h.position().contains("forced"),
        "the first move is used up"
    );
}

#[test]
fn s3_opening_positions_are_checked() {
    for bad in [
        text(
            "senat",
            &[2, 4, 6, 8, 10],
            &[1, 3, 5, 7, 9],
            "turn=2 throw=1 forced=10 dec=0",
        ),
        text(
            "senat",
            &[2, 4, 6, 8, 10],
            &[1, 3, 5, 7, 9],
            "turn=1 throw=4 forced=10 dec=0",
        ),
        text(
            "senat",
            &[2, 4, 6, 8, 12],
            &[1, 3, 5, 7, 9],
            "turn=1 throw=1 forced=10 dec=0",
        ),
        text(
            "senat",
            &[2, 4, 6, 8, 10],
            &[1, 3, 5, 7, 9],
            "turn=1 throw=1 forced=8 dec=0",
        ),
    ] {
        assert!(
            matches!(bad.parse::<AnyGame>(), Err(Error::Position(m)) if m.contains("S3")),
            "{bad}"
        );
    }
}

// ---------------------------------------------------------------- S4

#[test]
fn s4_one_four_and_six_throw_again_two_and_three_pass_the_turn() {
    for (t, again) in [(1u8, true), (2, false), (3, false), (4, true), (6, true)] {
        let mut g = pos(&[2, 12], &[1, 25], &format!("turn=1 throw={t} dec=9"));
        assert_eq!(
            moves(&g).len(),
            2,
            "one piece per throw: each move moves one piece"
        );
        let to = 12 + t;
        let e = play(&mut g, &format!("12-{to}"));
        assert_eq!(e.turn_continues, again, "throw {t}");
        assert_eq!(e.has(Effect::BONUS), again);
        let next = if again { Player::First } else { Player::Second };
        assert_eq!(g.status(), Status::Throw(next), "throw {t}");
    }
}

// ---------------------------------------------------------------- S5

#[test]
fn s5_landing_on_an_opponent_swaps_the_two_pieces() {
    // The sheet's example: Arms from 6 to 9 sends the Sun piece on 9 back to 6.
    let mut g = pos(&[6, 20], &[9, 25], "turn=1 throw=3 dec=9");
    let e = play(&mut g, "6-9");
    assert_eq!(flags(e), ["step", "swap"]);
    assert_eq!(
        g.position(),
        text("senat", &[9, 20], &[6, 25], "turn=2 throw=- dec=10")
    );
}

#[test]
fn s5_a_piece_may_not_land_on_its_own_colour() {
    let g = pos(&[6, 9], &[1, 25], "turn=1 throw=3 dec=9");
    assert_eq!(moves(&g), ["9-12"]);
    assert!(illegal(&g, "6-9").contains("own piece (S5)"));
}

// ---------------------------------------------------------------- S6

#[test]
fn s6_two_consecutive_pieces_cannot_be_landed_on_but_can_be_passed() {
    let g = pos(&[13, 24], &[16, 17], "turn=1 throw=3 dec=9");
    assert_eq!(moves(&g), ["24-15"]);
    assert!(illegal(&g, "13-16").contains("(S6)"));
    let g = pos(&[13, 24], &[16, 17], "turn=1 throw=6 dec=9");
    assert_eq!(moves(&g), ["13-19", "24-30"]);
    // Corners count (C1): 10 and 11 protect each other.
    let g = pos(&[8, 24], &[10, 11], "turn=1 throw=2 dec=9");
    assert_eq!(moves(&g), ["24-26"]);
}

#[test]
fn s6_three_in_a_row_cannot_be_passed_by_the_opponent() {
    // The sheet's example: O on 16 cannot pass X's block on 17-19.
    let g = pos(&[14, 17, 18, 19, 25], &[16, 22], "turn=2 throw=4 dec=9");
    assert_eq!(moves(&g), ["22-26"]);
    let g = pos(&[14, 17, 18, 19, 25], &[16, 22], "turn=2 throw=6 dec=9");
    assert_eq!(moves(&g), ["22-28"]);
    // Across the corner 20|21 too.
    let g = pos(&[2, 20, 21, 22], &[19, 25], "turn=2 throw=4 dec=9");
    assert_eq!(moves(&g), ["25-29"]);
}

#[test]
fn s6_own_pieces_pass_a_block_freely() {
    // The sheet's example: 14 with a 6 passes its own 17, 18, 19 to 20; a 4 would land on 18.
    let g = pos(&[14, 17, 18, 19, 25], &[1], "turn=1 throw=6 dec=9");
    assert_eq!(moves(&g), ["14-20", "17-23", "18-24", "25-off"]);
    let g = pos(&[14, 17, 18, 19, 25], &[1], "turn=1 throw=4 dec=9");
    assert!(illegal(&g, "14-18").contains("(S5)"));
}

#[test]
fn s6_a_block_of_three_cannot_be_passed_backward() {
    // X's only piece, 23, has no forward move with a 6 (29 is safe and taken), and going
    // back to 17 would pass the block 18-20.
    let g = pos(&[23], &[18, 19, 20, 29, 2], "turn=1 throw=6 dec=9");
    assert_eq!(moves(&g), ["pass"]);
    // With a pair instead of a block, the backward move is allowed.
    let g = pos(&[23], &[19, 20, 29, 2], "turn=1 throw=6 dec=9");
    assert_eq!(moves(&g), ["23-17"]);
}

// ---------------------------------------------------------------- S7

#[test]
fn s7_no_forward_move_forces_a_backward_move() {
    // X on 28 and 29 (and 3 off): a 3 carries 28 and 29 off only with the right to bear
    // off, which the piece on 5 denies; 5 with a 3 would land on 8, a protected pair.
    let g = pos(&[5, 28, 29], &[7, 8, 26, 1], "turn=1 throw=3 dec=9");
    assert_eq!(moves(&g), ["5-2", "28-25"]);
    assert!(illegal(&g, "29-26").contains("(S9)"));
    let mut h = g;
    let e = play(&mut h, "28-25");
    assert_eq!(flags(e), ["backward"]);
    assert_eq!(h.status(), Status::Throw(Player::Second));
}

#[test]
fn s7_landing_backward_on_an_opponent_swaps_it_forward() {
    let mut g = pos(&[5, 28, 29], &[7, 8, 2, 26], "turn=1 throw=3 dec=9");
    assert_eq!(moves(&g), ["5-2", "28-25"]);
    let e = play(&mut g, "5-2");
    assert_eq!(flags(e), ["backward", "swap"]);
    assert_eq!(
        g.position(),
        text(
            "senat",
            &[2, 28, 29],
            &[5, 7, 8, 26],
            "turn=2 throw=- dec=10"
        )
    );
}

#[test]
fn s7_backward_moves_keep_the_bonus_and_stop_at_square_1() {
    // With a 4: 3 cannot go below 1; 29 goes back to 25.
    let mut g = pos(&[3, 29], &[7, 8, 26, 30], "turn=1 throw=4 dec=9");
    assert_eq!(moves(&g), ["29-25"]);
    assert!(illegal(&g, "3-0").contains("below square 1 (S7)"));
    let e = play(&mut g, "29-25");
    assert_eq!(flags(e), ["backward", "bonus throw"]);
    assert!(e.turn_continues);
}

#[test]
fn s7_no_move_either_way_forfeits_the_throw() {
    let mut g = pos(&[1, 29], &[2, 3, 4, 26, 30], "turn=1 throw=3 dec=9");
    assert_eq!(moves(&g), ["pass"]);
    let e = play(&mut g, "pass");
    assert_eq!(flags(e), ["forfeit"]);
    assert!(!e.turn_continues);
    assert_eq!(g.status(), Status::Throw(Player::Second));
}

#[test]
fn s7_backward_moves_only_when_the_throw_has_no_forward_move() {
    let g = pos(&[5, 20], &[1, 26], "turn=1 throw=3 dec=9");
    assert_eq!(moves(&g), ["5-8", "20-23"]);
    assert!(illegal(&g, "5-2").contains("(S7)"));
}

// ---------------------------------------------------------------- S8

#[test]
fn s8_ending_on_27_goes_to_15() {
    let mut g = pos(&[23, 12], &[1, 2], "turn=1 throw=4 dec=9");
    assert_eq!(moves(&g), ["12-16", "23-15"]);
    let e = play(&mut g, "23-15");
    assert_eq!(flags(e), ["step", "trap", "bonus throw"]);
    assert_eq!(
        g.position(),
        text("senat", &[12, 15], &[1, 2], "turn=1 throw=- dec=10")
    );
}

#[test]
fn s8_if_15_is_taken_the_piece_goes_to_the_lowest_empty_square() {
    let mut g = pos(&[23, 2], &[1, 3, 15], "turn=1 throw=4 dec=9");
    assert_eq!(moves(&g), ["2-6", "23-4"]);
    play(&mut g, "23-4");
    assert_eq!(
        g.position(),
        text("senat", &[2, 4], &[1, 3, 15], "turn=1 throw=- dec=10")
    );
    // The square the trapped piece left counts as empty; here 1 is lowest.
    let g = pos(&[26, 15], &[2, 3], "turn=1 throw=1 dec=9");
    assert_eq!(moves(&g), ["15-16", "26-1"]);
}

#[test]
fn s8_a_backward_move_onto_27_is_trapped_too() {
    let g = pos(&[28, 29, 30, 9, 10], &[11, 12, 26], "turn=1 throw=1 dec=9");
    // Forward: 9->10 own, 10->11 protected pair, 28->29 own, 29->30 own, 30 cannot bear off
    // (first row occupied). Backward: 9->8, 10->9 own, 28->27 trapped to 15, 29->28 own,
    // 30->29 own.
    assert_eq!(moves(&g), ["9-8", "28-15"]);
    let mut h = g;
    let e = play(&mut h, "28-15");
    assert_eq!(flags(e), ["backward", "trap", "bonus throw"]);
}

// ---------------------------------------------------------------- S9

#[test]
fn s9_squares_26_28_29_are_safe_but_30_is_not() {
    for safe in [26u8, 28, 29] {
        let g = pos(&[safe - 3, 2], &[safe, 1], "turn=1 throw=3 dec=9");
        assert_eq!(moves(&g), ["2-5"], "{safe}");
        assert!(illegal(&g, &format!("{}-{safe}", safe - 3)).contains("safe"));
    }
    let mut g = pos(&[26, 2], &[30, 1], "turn=1 throw=4 dec=9");
    assert_eq!(moves(&g), ["2-6", "26-30"]);
    let e = play(&mut g, "26-30");
    assert_eq!(flags(e), ["step", "swap", "bonus throw"]);
    assert_eq!(
        g.position(),
        text("senat", &[2, 30], &[1, 26], "turn=1 throw=- dec=10")
    );
}

// ---------------------------------------------------------------- S10

#[test]
fn s10_bearing_off_needs_no_piece_on_squares_1_to_10() {
    let g = pos(&[10, 29], &[1], "turn=1 throw=2 dec=9");
    assert_eq!(moves(&g), ["10-12"]);
    assert!(illegal(&g, "29-off").contains("(S10, S11)"));
    let g = pos(&[11, 29], &[1], "turn=1 throw=2 dec=9");
    assert_eq!(moves(&g), ["11-13", "29-off"]);
}

#[test]
fn s10_an_overshoot_bears_off_and_the_leftover_is_a_decision_of_its_own() {
    // The sheet's example: 29 with a 4 goes off (30, off) and 2 steps are left over.
    let mut g = pos(&[20, 22, 29], &[1], "turn=1 throw=4 dec=9");
    assert_eq!(moves(&g), ["20-24", "22-26", "29-off"]);
    let e = play(&mut g, "29-off");
    assert_eq!(
        flags(e),
        ["step", "bear off"],
        "the bonus comes after the whole move"
    );
    assert!(e.turn_continues);
    assert_eq!(
        g.position(),
        text("senat", &[20, 22], &[1], "turn=1 throw=4 left=2 dec=10")
    );
    assert_eq!(g.status(), Status::Move(Player::First));
    assert_eq!(g.in_hand(), Some(Throw::single(2)));
    assert_eq!(moves(&g), ["22-24", "decline"]);
    assert!(illegal(&g, "20-22").contains("own piece (S5)"));
    let mut a = g;
    let e = play(&mut a, "22-24");
    assert_eq!(flags(e), ["step", "bonus throw"]);
    assert_eq!(
        a.position(),
        text("senat", &[20, 24], &[1], "turn=1 throw=- dec=11")
    );
    let mut b = g;
    let e = play(&mut b, "decline");
    assert_eq!(flags(e), ["bonus throw"]);
    assert!(e.turn_continues);
    assert_eq!(
        b.position(),
        text("senat", &[20, 22], &[1], "turn=1 throw=- dec=11")
    );
}

#[test]
fn s10_the_bonus_waits_for_the_leftover_and_a_2_or_3_still_passes_the_turn() {
    let mut g = pos(&[30, 21], &[1], "turn=1 throw=3 dec=9");
    let e = play(&mut g, "30-off");
    assert!(
        e.turn_continues,
        "the leftover decision is still the same player's"
    );
    assert_eq!(moves(&g), ["21-23", "decline"]);
    let e = play(&mut g, "21-23");
    assert!(!e.turn_continues);
    assert_eq!(g.status(), Status::Throw(Player::Second));
}

#[test]
fn s10_a_leftover_that_bears_off_gives_a_further_leftover() {
    // 30 with a 6 leaves 5; 29 with 5 goes off leaving 3; 21 takes the 3.
    let mut g = pos(&[21, 29, 30], &[1], "turn=1 throw=6 dec=9");
    play(&mut g, "30-off");
    assert_eq!(moves(&g), ["21-26", "29-off", "decline"]);
    let e = play(&mut g, "29-off");
    assert_eq!(flags(e), ["step", "bear off"]);
    assert_eq!(
        g.position(),
        text("senat", &[21], &[1], "turn=1 throw=6 left=3 dec=11")
    );
    assert_eq!(moves(&g), ["21-24", "decline"]);
    let e = play(&mut g, "21-24");
    assert_eq!(flags(e), ["step", "bonus throw"]);
}

#[test]
fn s10_leftover_moves_follow_the_landing_rules_and_the_trap() {
    // Leftover 2: 22 to 24 would land on a protected O pair; 25 lands on 27 and goes to 15.
    let mut g = pos(&[22, 25, 30], &[23, 24, 1], "turn=1 throw=3 dec=9");
    play(&mut g, "30-off");
    assert_eq!(moves(&g), ["25-15", "decline"]);
    assert!(illegal(&g, "22-24").contains("(S6)"));
    let e = play(&mut g, "25-15");
    assert_eq!(flags(e), ["step", "trap"]);
}

#[test]
fn s10_no_leftover_decision_when_no_piece_can_use_it() {
    // 30 with a 4 leaves 3; the only other piece, 23, would land on 26, safe and taken: the
    // move ends at once and the bonus of the 4 follows.
    let mut g = pos(&[23, 30], &[26, 1], "turn=1 throw=4 dec=9");
    let e = play(&mut g, "30-off");
    assert_eq!(flags(e), ["step", "bear off", "bonus throw"]);
    assert_eq!(
        g.position(),
        text("senat", &[23], &[1, 26], "turn=1 throw=- dec=10")
    );
}

// ---------------------------------------------------------------- S11

#[test]
fn s11_without_the_right_to_bear_off_no_piece_moves_past_30() {
    let g = pos(&[4, 28], &[1], "turn=1 throw=4 dec=9");
    assert_eq!(moves(&g), ["4-8"]);
    let g = pos(&[4, 30], &[1, 5, 6, 7, 8], "turn=1 throw=4 dec=9");
    // 4 forward: 8 is a protected O square; 30 cannot leave: backward moves follow.
    assert_eq!(moves(&g), ["30-26"]);
}

// ---------------------------------------------------------------- S12

#[test]
fn s12_first_to_bear_off_all_five_wins() {
    let mut g = pos(&[29], &[1, 2, 3], "turn=1 throw=2 dec=99");
    let e = play(&mut g, "29-off");
    assert!(!e.turn_continues);
    let Status::Over(o) = g.status() else {
        panic!()
    };
    assert_eq!(o.winner, Some(Player::First));
    assert!(!o.capped);
    assert_eq!(o.score, None, "no score without the option");
    assert!(moves(&g).is_empty());
    // A win on a bonus throw ends the game too, leftover steps and all.
    let mut g = pos(&[1, 2], &[30], "turn=2 throw=6 dec=99");
    let e = play(&mut g, "30-off");
    assert!(!e.turn_continues);
    assert_eq!(g.status().player(), None);
}

#[test]
fn s12_option_score_gives_a_point_for_each_opposing_piece_on_the_board() {
    let mut g = parse(&text(
        "senat:score=true",
        &[29],
        &[1, 2, 3],
        "turn=1 throw=2 dec=99",
    ));
    play(&mut g, "29-off");
    let Status::Over(o) = g.status() else {
        panic!()
    };
    assert_eq!(o.winner, Some(Player::First));
    assert_eq!(o.score, Some([3, 0]));
    let mut g = parse(&text(
        "senat:score=true",
        &[5, 6],
        &[30],
        "turn=2 throw=1 dec=99",
    ));
    play(&mut g, "30-off");
    let Status::Over(o) = g.status() else {
        panic!()
    };
    assert_eq!(o.score, Some([0, 2]));
    // A capped game scores nothing.
    let g = parse(&text(
        "senat:score=true,cap=50",
        &[5, 6],
        &[30],
        "turn=2 throw=- dec=50",
    ));
    let Status::Over(o) = g.status() else {
        panic!()
    };
    assert!(o.capped);
    assert_eq!((o.winner, o.score), (None, Some([0, 0])));
}

// ---------------------------------------------------------------- notation

#[test]
fn malformed_positions_are_refused_with_a_reason() {
    for bad in [
        "senat",
        "senat OXOX off=0,0 turn=1 throw=- dec=0",
        &text("senat", &[27], &[1], "turn=1 throw=- dec=0"),
        &text("senat", &[20], &[1], "turn=1 throw=4 left=4 dec=0"),
        &text("senat", &[20], &[1], "turn=1 throw=- left=1 dec=0"),
        &text("senat", &[5, 20], &[1], "turn=1 throw=4 left=1 dec=0"),
        &text("senat", &[20], &[1], "turn=1 throw=4 dec=0 extra=1"),
        &text("senat:bogus", &[20], &[1], "turn=1 throw=4 dec=0"),
    ] {
        match bad.parse::<AnyGame>() {
            Err(Error::Position(m)) | Err(Error::Options(m)) => assert!(!m.is_empty()),
            other => panic!("{bad}: {other:?}"),
        }
    }
}
