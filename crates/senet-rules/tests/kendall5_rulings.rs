//! One test (or more) per ruling of the `kendall5` rule set: R1-R10 in `shared/rulings.md`,
//! plus the common rulings C3, C4 and C5 as they apply to it. Each test names its ruling and
//! asserts exact legal move lists, resulting positions and who throws next, so that a wrong
//! reading of the ruling makes it fail. The rules in prose: `docs/rules/kendall5.md`.

use senet_rules::Notation;
use senet_rules::{
    AnyGame, Effect, Effects, Error, Game, MoveList, Outcome, Player, RuleSet, Status, Throw,
};

/// The start position (R1).
const START: &str = "kendall5 XOXOXOXOXO.................... off=0,0 turn=1 throw=- dec=0";

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
        "kendall5 {} off={},{} turn={turn} throw={t} dec={dec}",
        board(x, o),
        5 - x.len(),
        5 - o.len()
    )
}

/// A position with the first player to move `throw`.
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

fn start() -> AnyGame {
    AnyGame::new(RuleSet::Kendall5, &[] as &[&str]).unwrap()
}

// ----------------------------------------------------------------------------------------
// R1: the first player on 1, 3, 5, 7, 9, the second on 2-10 even; no forced first move.

#[test]
fn r1_first_player_on_the_odd_squares_moves_first() {
    let g = start();
    assert_eq!(g.position(), START);
    assert_eq!(g.status(), Status::Throw(Player::First));
    assert_eq!(parse(START), g);
}

#[test]
fn r1_no_forced_first_move() {
    let mut g = start();
    throw(&mut g, 1);
    assert_moves(&g, &["1-2", "3-4", "5-6", "7-8", "9-10"]);
    let mut g = start();
    throw(&mut g, 2);
    assert_moves(&g, &["9-11"]);
    let mut g = start();
    throw(&mut g, 5);
    assert_moves(&g, &["1-6", "3-8", "5-10", "7-12", "9-14"]);
    // The solved best opening: 5, moving 1 to 6 (a swap), then the first player throws again.
    let e = play(&mut g, "1-6");
    assert_eq!(flags(e), ["step", "swap", "bonus throw"]);
    assert!(e.turn_continues);
    assert_eq!(
        g.position(),
        "kendall5 OOXOXXXOXO.................... off=0,0 turn=1 throw=- dec=1"
    );
}

// ----------------------------------------------------------------------------------------
// R2 (C3): four sticks, none marked counts 5; weights 4:6:4:1:1 for 1-5; 1, 4, 5 throw
// again; no legal move ends the turn whatever the throw.

#[test]
fn r2_c3_sticks_weigh_4_6_4_1_1_for_1_to_5() {
    let g = start();
    let d = g.throw_dist();
    assert_eq!(d.total, 16);
    let mut w: Vec<(Throw, u32)> = d.outcomes.to_vec();
    w.sort();
    assert_eq!(
        w,
        [
            (Throw::single(1), 4),
            (Throw::single(2), 6),
            (Throw::single(3), 4),
            (Throw::single(4), 1),
            (Throw::single(5), 1),
        ]
    );
    assert_eq!(d.outcomes.iter().map(|(_, w)| w).sum::<u32>(), d.total);
    assert_eq!(d.probability(Throw::single(1)), 4.0 / 16.0);
    assert_eq!(d.probability(Throw::single(5)), 1.0 / 16.0);
    assert_eq!(d.weight(Throw::single(6)), 0);
    let mut count = std::collections::BTreeMap::new();
    for i in 0..16u32 {
        *count.entry(d.sample(i << 28)).or_insert(0u32) += 1;
    }
    let count: Vec<(Throw, u32)> = count.into_iter().collect();
    assert_eq!(count, w);
    let mut g = g;
    assert!(matches!(
        g.set_throw(Throw::single(6)),
        Err(Error::Throw(_))
    ));
}

#[test]
fn r2_throws_of_1_4_5_throw_again() {
    for n in 1u8..=5 {
        let mut g = pos(&[12], &[1], n);
        let to = 12 + n;
        assert_moves(&g, &[&format!("12-{to}")]);
        let e = play(&mut g, &format!("12-{to}"));
        let bonus = matches!(n, 1 | 4 | 5);
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

#[test]
fn r2_c4_no_legal_move_ends_the_turn_whatever_the_throw() {
    // A lone piece on 28 moves only with a 3 and never backward (R8).
    for n in [1u8, 2, 4, 5] {
        let mut g = pos(&[28], &[1], n);
        assert_moves(&g, &["pass"]);
        let e = play(&mut g, "pass");
        assert_eq!(flags(e), ["forfeit"], "throw {n}");
        assert!(!e.turn_continues, "throw {n}");
        assert_eq!(g.status(), Status::Throw(Player::Second));
        assert_eq!(g.position(), text(&[28], &[1], 2, 0, 1));
    }
    // pass is illegal while a move exists.
    let g = pos(&[28], &[1], 3);
    assert!(g.parse_move("pass").is_err());
}

// ----------------------------------------------------------------------------------------
// R3: landing on an opponent swaps the two; never on one's own colour.

#[test]
fn r3_landing_on_an_opponent_swaps_the_two() {
    let mut g = pos(&[10], &[1, 13], 3);
    assert_moves(&g, &["10-13"]);
    let e = play(&mut g, "10-13");
    assert_eq!(flags(e), ["step", "swap"]);
    assert!(!e.turn_continues);
    assert_eq!(g.position(), text(&[13], &[1, 10], 2, 0, 1));

    let mut g = parse(&text(&[5, 20], &[2], 2, 3, 0));
    assert_moves(&g, &["2-5"]);
    play(&mut g, "2-5");
    assert_eq!(g.position(), text(&[2, 20], &[5], 1, 0, 1));
}

#[test]
fn r3_a_backward_swap_pushes_the_opponent_forward() {
    // 13, 14, 15 block every forward move of the piece on 12; 4 takes it back to 8.
    let mut g = pos(&[12], &[8, 13, 14, 15], 4);
    assert_moves(&g, &["12-8"]);
    let e = play(&mut g, "12-8");
    assert_eq!(flags(e), ["backward", "swap", "bonus throw"]);
    assert!(e.turn_continues);
    assert_eq!(g.position(), text(&[8], &[12, 13, 14, 15], 1, 0, 1));
}

#[test]
fn r3_a_piece_may_not_land_on_its_own_colour() {
    let g = pos(&[10, 13], &[1], 3);
    assert_moves(&g, &["13-16"]);
    assert!(g.parse_move("10-13").is_err());
}

// ----------------------------------------------------------------------------------------
// R4: a piece with a piece of its colour on an adjacent square cannot be swapped, on any
// square, across corners; no other square is safe.

#[test]
fn r4_no_square_is_safe_by_itself() {
    for (from, n, target) in [
        (13u8, 2u8, 15u8),
        (24, 2, 26),
        (26, 2, 28),
        (26, 3, 29),
        (26, 4, 30),
    ] {
        let mut g = pos(&[from], &[1, target], n);
        let m = format!("{from}-{target}");
        assert_moves(&g, &[&m]);
        let e = play(&mut g, &m);
        assert!(e.has(Effect::SWAP), "{m}");
        let next = if matches!(n, 1 | 4 | 5) { 1 } else { 2 };
        assert_eq!(g.position(), text(&[target], &[1, from], next, 0, 1));
    }
}

#[test]
fn r4_protection_across_corners_even_on_28_to_30() {
    // 29-30 and 28-29 protect each other.
    let g = pos(&[1, 26], &[29, 30], 3);
    assert_moves(&g, &["1-4"]);
    let g = pos(&[1, 26], &[29, 30], 4);
    assert_moves(&g, &["1-5"]);
    let g = pos(&[1, 26], &[28, 29], 2);
    assert_moves(&g, &["1-3"]);
    let g = pos(&[1, 26], &[28, 29], 3);
    assert_moves(&g, &["1-4"]);
    // 28 and 30 are not adjacent.
    let g = pos(&[1, 26], &[28, 30], 2);
    assert_moves(&g, &["1-3", "26-28"]);
    let g = pos(&[1, 26], &[28, 30], 4);
    assert_moves(&g, &["1-5", "26-30"]);
    // Across the corners 10|11 and 20|21.
    for (o, from) in [([10u8, 11u8], 8u8), ([20, 21], 18)] {
        let g = pos(&[1, from], &o, 2);
        assert_moves(&g, &["1-3"]);
        let g = pos(&[1, from], &o, 3);
        assert_moves(&g, &["1-4"]);
    }
    // Two consecutive pieces in mid-row.
    let g = pos(&[1, 10], &[12, 13], 2);
    assert_moves(&g, &["1-3"]);
    let g = pos(&[1, 10], &[12, 14], 2);
    assert_moves(&g, &["1-3", "10-12"]);
}

// ----------------------------------------------------------------------------------------
// R5: three or more consecutive opposing pieces, across corners, cannot be passed, forward
// or backward.

#[test]
fn r5_three_consecutive_opponents_cannot_be_passed() {
    let g = pos(&[1, 11], &[12, 13, 14], 4);
    assert_moves(&g, &["1-5"]);
    let g = pos(&[1, 11], &[12, 13, 14], 5);
    assert_moves(&g, &["1-6"]);
    // A gap breaks the run.
    let g = pos(&[1, 11], &[12, 13, 16], 4);
    assert_moves(&g, &["1-5", "11-15"]);
}

#[test]
fn r5_blockade_counts_across_corners() {
    for (o, from) in [
        ([9u8, 10u8, 11u8], 8u8),
        ([10, 11, 12], 9),
        ([19, 20, 21], 18),
        ([20, 21, 22], 19),
    ] {
        let g = pos(&[1, from], &o, 4);
        assert_moves(&g, &["1-5"]);
        let g = pos(&[1, from], &o, 5);
        assert_moves(&g, &["1-6"]);
    }
}

#[test]
fn r5_blockade_also_stops_backward_moves() {
    // 16 and 17 block the piece on 12 going forward; back to 8 it would pass the
    // blockade 9, 10, 11 across the corner.
    let g = pos(&[12], &[9, 10, 11, 16, 17], 4);
    assert_moves(&g, &["pass"]);
    // Without the blockade the piece goes back.
    let g = pos(&[12], &[1, 10, 11, 16, 17], 4);
    assert_moves(&g, &["12-8"]);
}

#[test]
fn r5_blockade_on_28_to_30_cannot_be_passed_bearing_off_from_26() {
    // Bearing off from 26 with a 5 would pass 28, 29, 30: blocked. With no forward move
    // left, the 5 goes backward (R9).
    let g = pos(&[26], &[28, 29, 30], 5);
    assert_moves(&g, &["26-21"]);
    let g = pos(&[10, 26], &[28, 29, 30], 5);
    assert_moves(&g, &["10-15"]);
}

// ----------------------------------------------------------------------------------------
// R6: 26 must be landed on exactly going forward; nothing passes it.

#[test]
fn r6_nothing_passes_26_going_forward() {
    let g = pos(&[10, 24], &[5], 2);
    assert_moves(&g, &["10-12", "24-26"]);
    for (n, only) in [(3u8, "10-13"), (4, "10-14"), (5, "10-15")] {
        let g = pos(&[10, 24], &[5], n);
        assert_moves(&g, &[only]);
    }
    let g = pos(&[10, 22], &[5], 4);
    assert_moves(&g, &["10-14", "22-26"]);
    let g = pos(&[10, 22], &[5], 5);
    assert_moves(&g, &["10-15"]);
    let g = pos(&[10, 25], &[5], 1);
    assert_moves(&g, &["10-11", "25-26"]);
    let g = pos(&[10, 25], &[5], 2);
    assert_moves(&g, &["10-12"]);
    // A lone piece short of 26 moves backward instead (R9).
    let g = pos(&[23], &[5], 4);
    assert_moves(&g, &["23-19"]);
}

// ----------------------------------------------------------------------------------------
// R7: 27 is reached only from 26 with a 1; the piece goes to 15, or the highest empty square
// below it; 27 is never occupied.

#[test]
fn r7_water_sends_the_piece_from_26_to_15() {
    let mut g = pos(&[26], &[5], 1);
    assert_moves(&g, &["26-15"]);
    let e = play(&mut g, "26-15");
    assert_eq!(flags(e), ["step", "trap", "bonus throw"]);
    // R2: the throw of 1 still gives another throw.
    assert!(e.turn_continues);
    assert_eq!(g.status(), Status::Throw(Player::First));
    assert_eq!(g.position(), text(&[15], &[5], 1, 0, 1));
}

#[test]
fn r7_water_sends_to_highest_empty_below_15() {
    // 15 (O), 14 (X), 13 (O) are taken: the piece goes to 12. 15 is not safe here (R4).
    let mut g = pos(&[14, 26], &[13, 15], 1);
    assert_moves(&g, &["14-15", "26-12"]);
    play(&mut g, "26-12");
    assert_eq!(g.position(), text(&[12, 14], &[13, 15], 1, 0, 1));
    // The mover's own piece on 15 counts as taking it.
    let mut g = pos(&[15, 26], &[1], 1);
    assert_moves(&g, &["15-16", "26-14"]);
    play(&mut g, "26-14");
    assert_eq!(g.position(), text(&[14, 15], &[1], 1, 0, 1));
}

#[test]
fn r7_27_is_reached_only_from_26_and_never_occupied() {
    let g = pos(&[10, 25], &[5], 2);
    assert_moves(&g, &["10-12"]);
    let g = pos(&[10, 23], &[5], 4);
    assert_moves(&g, &["10-14"]);
    let s = format!(
        "kendall5 {} off=4,4 turn=1 throw=- dec=0",
        board(&[27], &[1])
    );
    assert!(s.parse::<AnyGame>().is_err());
}

// ----------------------------------------------------------------------------------------
// R8: 28, 29, 30 move only by bearing off with exactly 3, 2, 1; no backward moves from them.
// From 26: 5 bears off, 2, 3, 4 reach 28, 29, 30.

#[test]
fn r8_pieces_on_28_29_30_only_bear_off_with_3_2_1() {
    for (from, exact) in [(28u8, 3u8), (29, 2), (30, 1)] {
        for n in 1u8..=5 {
            let g = pos(&[from], &[5], n);
            if n == exact {
                assert_moves(&g, &[&format!("{from}-off")]);
            } else {
                // Neither forward within the track nor backward.
                assert_moves(&g, &["pass"]);
            }
        }
    }
    // With a piece elsewhere the other throws move that one only.
    let g = pos(&[10, 28], &[5], 1);
    assert_moves(&g, &["10-11"]);
    let g = pos(&[10, 28], &[5], 3);
    assert_moves(&g, &["10-13", "28-off"]);
}

#[test]
fn r8_bearing_off_from_28_29_30() {
    let mut g = pos(&[28, 29, 30], &[5], 3);
    let e = play(&mut g, "28-off");
    assert_eq!(flags(e), ["step", "bear off"]);
    assert!(!e.turn_continues);
    assert_eq!(g.position(), text(&[29, 30], &[5], 2, 0, 1));
    let mut g = pos(&[28, 29, 30], &[5], 2);
    assert_moves(&g, &["29-off"]);
    play(&mut g, "29-off");
    assert_eq!(g.position(), text(&[28, 30], &[5], 2, 0, 1));
    let mut g = pos(&[28, 29, 30], &[5], 1);
    assert_moves(&g, &["30-off"]);
    let e = play(&mut g, "30-off");
    assert!(e.turn_continues); // R2: a 1 throws again
    assert_eq!(g.position(), text(&[28, 29], &[5], 1, 0, 1));
}

#[test]
fn r8_from_26_five_bears_off_and_2_3_4_reach_28_29_30() {
    for (n, only) in [
        (1u8, "26-15"),
        (2, "26-28"),
        (3, "26-29"),
        (4, "26-30"),
        (5, "26-off"),
    ] {
        let g = pos(&[26], &[5], n);
        assert_moves(&g, &[only]);
    }
    // Unlike `kendall` (K9), landing on 28-30 gives no bonus throw by itself.
    let mut g = pos(&[26], &[5], 2);
    let e = play(&mut g, "26-28");
    assert!(!e.turn_continues);
    assert_eq!(g.position(), text(&[28], &[5], 2, 0, 1));
    let mut g = pos(&[26], &[5], 3);
    assert!(!play(&mut g, "26-29").turn_continues);
    let mut g = pos(&[10, 26], &[5], 5);
    assert_moves(&g, &["10-15", "26-off"]);
    let e = play(&mut g, "26-off");
    assert_eq!(flags(e), ["step", "bear off", "bonus throw"]);
    assert!(e.turn_continues);
    assert_eq!(g.position(), text(&[10], &[5], 1, 0, 1));
}

#[test]
fn r8_swapping_an_unprotected_opponent_on_28_sends_it_to_26() {
    let mut g = pos(&[26], &[28], 2);
    assert_moves(&g, &["26-28"]);
    play(&mut g, "26-28");
    assert_eq!(g.position(), text(&[28], &[26], 2, 0, 1));
}

// ----------------------------------------------------------------------------------------
// R9: backward moves only when no piece has a forward move; nothing below square 1.

#[test]
fn r9_backward_moves_only_when_no_piece_has_a_forward_move() {
    let g = pos(&[5, 20], &[21, 22, 23, 24, 25], 2);
    assert_moves(&g, &["5-7"]);
    assert!(g.parse_move("20-18").is_err());
    let g = pos(&[20], &[21, 22, 23, 24, 25], 2);
    assert_moves(&g, &["20-18"]);
    // Pieces on 28-30 never go back, but others may.
    let g = pos(&[20, 28], &[21, 22, 23, 24, 25], 2);
    assert_moves(&g, &["20-18"]);
}

#[test]
fn r9_bonus_throws_follow_1_4_5_after_backward_moves() {
    // 21-25 block every forward move of the piece on 20.
    for n in 1u8..=5 {
        let mut g = pos(&[20], &[21, 22, 23, 24, 25], n);
        let to = 20 - n;
        assert_moves(&g, &[&format!("20-{to}")]);
        let e = play(&mut g, &format!("20-{to}"));
        let bonus = matches!(n, 1 | 4 | 5);
        assert!(e.has(Effect::BACKWARD));
        assert_eq!(e.turn_continues, bonus, "throw {n}");
        let next = if bonus { 1 } else { 2 };
        assert_eq!(g.position(), text(&[to], &[21, 22, 23, 24, 25], next, 0, 1));
    }
}

#[test]
fn r9_nothing_moves_below_square_1() {
    let g = pos(&[2], &[3, 4, 5], 1);
    assert_moves(&g, &["2-1"]);
    for n in 2u8..=5 {
        let g = pos(&[2], &[3, 4, 5], n);
        assert_moves(&g, &["pass"]);
    }
}

// ----------------------------------------------------------------------------------------
// R10: bearing off the last piece wins at once.

#[test]
fn r10_bearing_off_the_last_piece_wins_at_once() {
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
    assert!(moves(&g).is_empty());
    assert_eq!(g.set_throw(Throw::single(2)), Err(Error::GameOver));

    let mut g = parse(&text(&[5], &[26], 2, 5, 9));
    play(&mut g, "26-off");
    assert_eq!(
        g.status(),
        Status::Over(Outcome {
            winner: Some(Player::Second),
            capped: false,
            score: None
        })
    );
    // Another piece borne off does not end the game.
    let mut g = pos(&[26, 30], &[5], 1);
    play(&mut g, "30-off");
    assert_eq!(g.status(), Status::Throw(Player::First));
}

// ----------------------------------------------------------------------------------------
// C5: the game is a draw after a configurable number of decisions, forfeits included.

#[test]
fn c5_turn_cap_ends_the_game_as_a_draw() {
    let mut g = AnyGame::new(RuleSet::Kendall5, &["cap=5"]).unwrap();
    assert_eq!(
        g.position(),
        "kendall5:cap=5 XOXOXOXOXO.................... off=0,0 turn=1 throw=- dec=0"
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
    let mut g = parse(&format!(
        "kendall5:cap=5 {} off=4,4 turn=1 throw=4 dec=4",
        board(&[28], &[1])
    ));
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
    let g = parse(&format!(
        "kendall5:cap=5 {} off=4,4 turn=1 throw=- dec=4",
        board(&[28], &[1])
    ));
    assert_eq!(g.status(), Status::Throw(Player::First));
}
