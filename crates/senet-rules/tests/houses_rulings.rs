//! One or more tests per ruling of `houses` (H1-H13 in `shared/rulings.md`) and per option.
//! Positions are written with [`pos`]: the squares of the first player (X) and of the second
//! (O), then the fields after `off=`.

use senet_rules::game::binomial;
use senet_rules::{
    AnyGame, Effect, Effects, Error, Game, MoveList, Player, RuleSet, Status, Throw,
};
use senet_rules::{Metrics, Notation};

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

/// A position string: `head` is `houses` or `houses:OPTIONS`; `off=` is filled in.
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
    parse(&text("houses", x, o, fields))
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

fn illegal(g: &AnyGame, mv: &str) -> String {
    match g.parse_move(mv) {
        Err(Error::Move(why)) => why,
        other => panic!("{mv} should be illegal, got {other:?}"),
    }
}

fn table(g: &AnyGame) -> Vec<(u8, u32)> {
    g.throw_dist()
        .outcomes
        .iter()
        .map(|(t, w)| (t.a, *w))
        .collect()
}

// ---------------------------------------------------------------- H1

#[test]
fn h1_start_layout_and_the_first_move_is_the_piece_on_10() {
    let mut g = AnyGame::new(RuleSet::Houses, &[] as &[&str]).unwrap();
    assert_eq!(
        g.position(),
        "houses OXOXOXOXOX.................... off=0,0 turn=1 throw=- forced=10 dec=0"
    );
    assert_eq!(g.status(), Status::Throw(Player::First));
    g.set_throw(Throw::single(3)).unwrap();
    assert_eq!(moves(&g), ["10-13"]);
    assert!(illegal(&g, "8-11").contains("(H1)"));
    play(&mut g, "10-13");
    assert_eq!(
        g.position(),
        text(
            "houses",
            &[2, 4, 6, 8, 13],
            &[1, 3, 5, 7, 9],
            "turn=2 throw=- dec=1"
        )
    );
    // The rule binds the first move of the game only.
    g.set_throw(Throw::single(1)).unwrap();
    assert_eq!(moves(&g), ["1-2", "3-4", "5-6", "7-8", "9-10"]);
}

// ---------------------------------------------------------------- H2

#[test]
fn h2_four_sticks_move_1_to_5_and_1_4_5_throw_again() {
    let g = pos(&[2, 16], &[1, 25], "turn=1 throw=- dec=9");
    assert_eq!(table(&g), vec![(1, 4), (2, 6), (3, 4), (4, 1), (5, 1)]);
    assert_eq!(g.throw_dist().total, 16);
    for (t, again) in [(1u8, true), (2, false), (3, false), (4, true), (5, true)] {
        let mut h = g;
        h.set_throw(Throw::single(t)).unwrap();
        assert_eq!(
            moves(&h),
            [format!("2-{}", 2 + t), format!("16-{}", 16 + t)]
        );
        let e = play(&mut h, &format!("16-{}", 16 + t));
        assert_eq!(
            (e.turn_continues, e.has(Effect::BONUS)),
            (again, again),
            "throw {t}"
        );
        let next = if again { Player::First } else { Player::Second };
        assert_eq!(h.status(), Status::Throw(next));
    }
    let mut h = g;
    assert!(h.set_throw(Throw::single(6)).is_err());
}

// ---------------------------------------------------------------- H3

#[test]
fn h3_landing_on_an_opponent_sends_it_back_to_the_lowest_empty_square() {
    let mut g = pos(&[6, 20], &[9, 25], "turn=1 throw=3 dec=9");
    let e = play(&mut g, "6-9");
    assert_eq!(e.names(), ["step", "sent back"]);
    assert_eq!(
        g.position(),
        text("houses", &[9, 20], &[1, 25], "turn=2 throw=- dec=10")
    );
    let mut g = pos(&[6, 20], &[1, 2, 9, 25], "turn=1 throw=3 dec=9");
    play(&mut g, "6-9");
    assert_eq!(
        g.position(),
        text("houses", &[9, 20], &[1, 2, 3, 25], "turn=2 throw=- dec=10")
    );
    // The square the mover left is empty by then, so it may be the lowest empty square.
    let mut g = pos(&[3, 20], &[1, 2, 5, 25], "turn=1 throw=2 dec=9");
    play(&mut g, "3-5");
    assert_eq!(
        g.position(),
        text("houses", &[5, 20], &[1, 2, 3, 25], "turn=2 throw=- dec=10")
    );
}

#[test]
fn h3_option_swap_exchanges_the_two_pieces_instead() {
    let mut g = parse(&text(
        "houses:swap=true",
        &[6, 20],
        &[1, 2, 9, 25],
        "turn=1 throw=3 dec=9",
    ));
    let e = play(&mut g, "6-9");
    assert_eq!(e.names(), ["step", "swap"]);
    assert_eq!(
        g.position(),
        text(
            "houses:swap=true",
            &[9, 20],
            &[1, 2, 6, 25],
            "turn=2 throw=- dec=10"
        )
    );
    assert_eq!(
        AnyGame::new(RuleSet::Houses, &["swap"]).unwrap().position(),
        "houses:swap=true OXOXOXOXOX.................... off=0,0 turn=1 throw=- forced=10 dec=0"
    );
}

// ---------------------------------------------------------------- H4

#[test]
fn h4_a_piece_may_not_land_on_its_own_colour() {
    let g = pos(&[6, 9], &[1, 25], "turn=1 throw=3 dec=9");
    assert_eq!(moves(&g), ["9-12"]);
    assert!(illegal(&g, "6-9").contains("own piece (H4)"));
}

// ---------------------------------------------------------------- H5

#[test]
fn h5_two_in_a_row_cannot_be_landed_on_but_either_player_jumps_them() {
    let g = pos(&[2, 13], &[16, 17], "turn=1 throw=3 dec=9");
    assert_eq!(moves(&g), ["2-5"]);
    assert!(illegal(&g, "13-16").contains("(H5)"));
    let g = pos(&[2, 13], &[16, 17], "turn=1 throw=5 dec=9");
    assert_eq!(moves(&g), ["2-7", "13-18"]);
    // Corners count (C1): 10 and 11 protect each other.
    let g = pos(&[2, 8], &[10, 11], "turn=1 throw=3 dec=9");
    assert_eq!(moves(&g), ["2-5"]);
}

#[test]
fn h5_three_in_a_row_cannot_be_jumped_by_the_opponent() {
    let g = pos(&[2, 17, 18, 19], &[16, 22], "turn=2 throw=4 dec=9");
    assert_eq!(moves(&g), ["22-26"]);
    assert!(illegal(&g, "16-20").contains("(H5)"));
    // Across the corner 20|21 too.
    let g = pos(&[2, 20, 21, 22], &[5, 19], "turn=2 throw=4 dec=9");
    assert_eq!(moves(&g), ["5-9"]);
    // Own pieces jump freely.
    let g = pos(&[2, 16, 17, 18, 19], &[1], "turn=1 throw=5 dec=9");
    assert_eq!(moves(&g), ["2-7", "16-21", "17-22", "18-23", "19-24"]);
}

// ---------------------------------------------------------------- H6

#[test]
fn h6_squares_15_26_28_29_30_are_safe() {
    let g = pos(&[2, 12], &[1, 15], "turn=1 throw=3 dec=9");
    assert_eq!(moves(&g), ["2-5"]);
    assert!(illegal(&g, "12-15").contains("safe"));
    for sq in [28u8, 29, 30] {
        let g = pos(
            &[2, 26],
            &[1, sq],
            &format!("turn=1 throw={} dec=9", sq - 26),
        );
        assert_eq!(moves(&g), [format!("2-{}", sq - 24)], "{sq}");
        assert!(illegal(&g, &format!("26-{sq}")).contains("(H6)"));
    }
    // An unprotected opponent elsewhere can be taken.
    let g = pos(&[2, 12], &[1, 14], "turn=1 throw=2 dec=9");
    assert_eq!(moves(&g), ["2-4", "12-14"]);
}

// ---------------------------------------------------------------- H7

#[test]
fn h7_a_move_that_would_pass_26_stops_on_it() {
    let mut g = pos(&[2, 24], &[1], "turn=1 throw=3 dec=9");
    assert_eq!(moves(&g), ["2-5", "24-26"]);
    let e = play(&mut g, "24-26");
    assert_eq!(e.names(), ["step"]);
    assert_eq!(g.status(), Status::Throw(Player::Second));
    let g = pos(&[2, 21], &[1], "turn=1 throw=5 dec=9");
    assert_eq!(moves(&g), ["2-7", "21-26"]);
    let mut g = pos(&[2, 23], &[1], "turn=1 throw=5 dec=9");
    assert_eq!(moves(&g), ["2-7", "23-26"]);
    let e = play(&mut g, "23-26");
    assert_eq!(
        e.names(),
        ["step", "bonus throw"],
        "a 5 cut short keeps its bonus"
    );
}

#[test]
fn h7_an_occupied_26_cannot_be_reached_or_passed() {
    let g = pos(&[2, 24], &[1, 26], "turn=1 throw=2 dec=9");
    assert_eq!(moves(&g), ["2-4"]);
    assert!(illegal(&g, "24-26").contains("(H7)"));
    let g = pos(&[2, 24], &[1, 26], "turn=1 throw=4 dec=9");
    assert_eq!(moves(&g), ["2-6"]);
    // Either colour blocks: the mover's own piece on 26 too (which may itself move on).
    let g = pos(&[2, 24, 26], &[1], "turn=1 throw=3 dec=9");
    assert_eq!(moves(&g), ["2-5", "26-29"]);
}

#[test]
fn h7_option_happiness_exits_bears_off_a_piece_landing_on_26() {
    let head = "houses:happiness_exits=true";
    let mut g = parse(&text(head, &[2, 23], &[1], "turn=1 throw=5 dec=9"));
    assert_eq!(moves(&g), ["2-7", "23-off"]);
    let e = play(&mut g, "23-off");
    assert_eq!(e.names(), ["step", "bear off", "bonus throw"]);
    assert_eq!(
        g.position(),
        text(head, &[2], &[1], "turn=1 throw=- dec=10")
    );
    let mut g = parse(&text(head, &[2, 23], &[1], "turn=1 throw=3 dec=9"));
    let e = play(&mut g, "23-off");
    assert_eq!(e.names(), ["step", "bear off"]);
    assert_eq!(g.status(), Status::Throw(Player::Second));
    // With this option nothing ever stands on 26-30.
    assert!(matches!(
        text(head, &[2, 28], &[1], "turn=1 throw=- dec=9").parse::<AnyGame>(),
        Err(Error::Position(m)) if m.contains("(H7)")
    ));
}

// ---------------------------------------------------------------- H8

#[test]
fn h8_the_water_sends_the_piece_to_15_and_ends_the_turn() {
    let mut g = pos(&[2, 26], &[1], "turn=1 throw=1 dec=9");
    assert_eq!(moves(&g), ["2-3", "26-15"]);
    let e = play(&mut g, "26-15");
    assert_eq!(
        e.names(),
        ["step", "trap"],
        "no bonus for the 1 nor for arriving on 15"
    );
    assert!(!e.turn_continues);
    assert_eq!(
        g.position(),
        text("houses", &[2, 15], &[1], "turn=2 throw=- dec=10")
    );
}

#[test]
fn h8_if_15_is_taken_the_piece_goes_to_the_nearest_empty_square_below() {
    let g = pos(&[2, 15, 26], &[1, 14], "turn=1 throw=1 dec=9");
    assert_eq!(moves(&g), ["2-3", "15-16", "26-13"]);
    let g = pos(&[2, 26], &[1, 15], "turn=1 throw=1 dec=9");
    assert_eq!(moves(&g), ["2-3", "26-14"]);
}

// ---------------------------------------------------------------- H9

#[test]
fn h9_landing_on_15_28_29_30_gives_a_bonus_throw_whatever_the_throw() {
    let mut g = pos(&[2, 12], &[1], "turn=1 throw=3 dec=9");
    let e = play(&mut g, "12-15");
    assert_eq!(e.names(), ["step", "bonus throw"]);
    assert_eq!(g.status(), Status::Throw(Player::First));
    for t in [2u8, 3] {
        let mut g = pos(&[2, 26], &[1], &format!("turn=1 throw={t} dec=9"));
        let e = play(&mut g, &format!("26-{}", 26 + t));
        assert!(e.turn_continues && e.has(Effect::BONUS), "26 to {}", 26 + t);
    }
    // Bearing off from 28 with a 3 lands on no square: the 3 passes the turn.
    let mut g = pos(&[2, 28], &[1], "turn=1 throw=3 dec=9");
    let e = play(&mut g, "28-off");
    assert_eq!(e.names(), ["step", "bear off"]);
    assert_eq!(g.status(), Status::Throw(Player::Second));
}

// ---------------------------------------------------------------- H10

#[test]
fn h10_pieces_on_28_29_30_leave_only_with_exactly_3_2_1() {
    for (sq, need) in [(28u8, 3u8), (29, 2), (30, 1)] {
        for t in 1..=5u8 {
            let g = pos(&[2, sq], &[1], &format!("turn=1 throw={t} dec=9"));
            let ms = moves(&g);
            assert_eq!(
                ms.contains(&format!("{sq}-off")),
                t == need,
                "{sq} with {t}: {ms:?}"
            );
            assert_eq!(
                ms.len(),
                if t == need { 2 } else { 1 },
                "{sq} with {t}: {ms:?}"
            );
            if t != need {
                assert!(illegal(&g, &format!("{sq}-off")).contains("(H10)"));
            }
        }
    }
}

#[test]
fn h10_from_26_only_1_to_4_move_and_nothing_passes_30() {
    let g = pos(&[2, 26], &[1], "turn=1 throw=5 dec=9");
    assert_eq!(moves(&g), ["2-7"]);
    assert!(illegal(&g, "26-off").contains("(H10)"));
    for (t, to) in [(1u8, "15"), (2, "28"), (3, "29"), (4, "30")] {
        let g = pos(&[2, 26], &[1], &format!("turn=1 throw={t} dec=9"));
        assert_eq!(moves(&g)[1], format!("26-{to}"));
    }
}

// ---------------------------------------------------------------- H11

#[test]
fn h11_no_backward_moves_and_no_legal_move_forfeits_the_throw() {
    let mut g = pos(&[28], &[1], "turn=1 throw=1 dec=9");
    assert_eq!(moves(&g), ["pass"]);
    let e = play(&mut g, "pass");
    assert_eq!(e.names(), ["forfeit"]);
    assert!(!e.turn_continues, "a forfeited 1 gives no bonus");
    assert_eq!(g.status(), Status::Throw(Player::Second));
    let g = pos(&[2, 12], &[1], "turn=1 throw=2 dec=9");
    assert!(illegal(&g, "12-10").contains("(H11)"));
}

// ---------------------------------------------------------------- H12

#[test]
fn h12_option_six_sticks_throws_1_to_7_from_the_binomial_of_six() {
    let g = parse(&text(
        "houses:six_sticks=true",
        &[2, 12],
        &[1],
        "turn=1 throw=- dec=9",
    ));
    // k marked sides move k with weight C(6, k); none marked moves 7 with weight C(6, 0).
    let want: Vec<(u8, u32)> = (1..=6)
        .map(|k| (k as u8, binomial(6, k)))
        .chain([(7, binomial(6, 0))])
        .collect();
    assert_eq!(table(&g), want);
    assert_eq!(
        want,
        vec![(1, 6), (2, 15), (3, 20), (4, 15), (5, 6), (6, 1), (7, 1)]
    );
    assert_eq!(g.throw_dist().total, 64);
    let sum: f64 = (1..=7)
        .map(|t| g.throw_dist().probability(Throw::single(t)))
        .sum();
    assert!((sum - 1.0).abs() < 1e-12);
    // Bonus throws on 1, 6 and 7; not on 4 or 5 any more.
    for (t, again) in [
        (1u8, true),
        (2, false),
        (3, false),
        (4, false),
        (5, false),
        (6, true),
        (7, true),
    ] {
        let mut h = g;
        h.set_throw(Throw::single(t)).unwrap();
        let e = play(&mut h, &format!("2-{}", 2 + t));
        assert_eq!(e.turn_continues, again, "throw {t}");
    }
    // Without the option, 6 and 7 are not throws.
    assert!(matches!(
        text("houses", &[2], &[1], "turn=1 throw=7 dec=9").parse::<AnyGame>(),
        Err(Error::Position(m)) if m.contains("H12")
    ));
}

// ---------------------------------------------------------------- H13

#[test]
fn h13_first_to_bear_off_all_five_wins() {
    let mut g = pos(&[30], &[1, 2], "turn=1 throw=1 dec=99");
    let e = play(&mut g, "30-off");
    assert!(!e.turn_continues, "the game is over, bonus or not");
    let Status::Over(o) = g.status() else {
        panic!()
    };
    assert_eq!(
        (o.winner, o.capped, o.score),
        (Some(Player::First), false, None)
    );
    assert!(moves(&g).is_empty());
    assert_eq!(g.census()[0].off, 5);
}

// ---------------------------------------------------------------- notation

#[test]
fn malformed_positions_are_refused_with_a_reason() {
    for bad in [
        "houses",
        "houses XO off=0,0 turn=1 throw=- dec=0",
        &text("houses", &[27], &[1], "turn=1 throw=- dec=0"),
        &text("houses", &[20], &[1], "turn=1 throw=6 dec=0"),
        &text("houses", &[20], &[1], "turn=1 throw=- forced=10 dec=0"),
        &text("houses", &[20], &[1], "turn=3 throw=- dec=0"),
        &text("houses", &[20], &[1], "turn=1 throw=- dec=x"),
        &text(
            "houses:six_sticks=maybe",
            &[20],
            &[1],
            "turn=1 throw=- dec=0",
        ),
    ] {
        match bad.parse::<AnyGame>() {
            Err(Error::Position(m)) | Err(Error::Options(m)) => assert!(!m.is_empty()),
            other => panic!("{bad}: {other:?}"),
        }
    }
}
