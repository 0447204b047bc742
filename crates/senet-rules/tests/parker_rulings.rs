//! One test (at least) per ruling P1-P11 of the `parker` rule set, named after it, plus its
//! options and notation. Positions are written in the notation of `docs/rules/parker.md`:
//! rows 3/2/1 top to bottom, columns a-j; `X`/`x` player 1's Pharaoh/man, `O`/`o` player 2's.
//!
//! Path indexes used in the comments: player 1 (X) runs a1..j1 = 0..9, then j2..a2 = 10..19;
//! player 2 (O) runs j3..a3 = 0..9, then a2..j2 = 10..19.

use senet_rules::{
    AnyGame, Effect, Effects, Error, Game, MoveList, Parker, Player, RuleSet, Status, Throw,
};
use senet_rules::{Metrics, Notation, View};

fn pos(s: &str) -> AnyGame {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// The legal move strings, sorted.
fn legal(g: &AnyGame) -> Vec<String> {
    let mut ms = MoveList::new();
    g.legal_moves(&mut ms);
    let mut v: Vec<String> = ms.iter().map(|&m| g.move_string(m)).collect();
    v.sort();
    v
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn play(g: &mut AnyGame, mv: &str) -> Effects {
    let m = g
        .parse_move(mv)
        .unwrap_or_else(|e| panic!("{mv} at {}: {e}", g.position()));
    g.play(m).unwrap()
}

/// The explanation of an illegal move.
fn why(g: &AnyGame, mv: &str) -> String {
    match g.parse_move(mv) {
        Err(Error::Move(w)) => w,
        other => panic!("{mv} should be illegal at {}, got {other:?}", g.position()),
    }
}

fn die_of(g: &AnyGame, mv: &str) -> String {
    g.die_used(g.parse_move(mv).unwrap()).unwrap()
}

fn parker(g: &AnyGame) -> Parker {
    match g {
        AnyGame::Parker(p) => *p,
        _ => panic!("not parker"),
    }
}

fn over(g: &AnyGame) -> senet_rules::Outcome {
    match g.status() {
        Status::Over(o) => o,
        s => panic!("not over: {s:?} at {}", g.position()),
    }
}

// ---------------------------------------------------------------- P1: board and paths

#[test]
fn p1_paths_map_to_cells_and_senet_indexes_mirror_as_29_minus_i() {
    use Player::{First, Second};
    // Player 1: a1..j1 are 0..9 (cells 1..10), j2..a2 are 10..19 (cells 20..11).
    for i in 0..10u8 {
        assert_eq!(Parker::cell(First, i), i + 1);
        assert_eq!(Parker::cell(First, 10 + i), 20 - i);
    }
    // Player 2: j3..a3 are 0..9 (cells 30..21), a2..j2 are 10..19 (cells 11..20).
    for i in 0..10u8 {
        assert_eq!(Parker::cell(Second, i), 30 - i);
        assert_eq!(Parker::cell(Second, 10 + i), 11 + i);
    }
    // The same Senet space is index i for one player and 29 - i for the other.
    for i in 10..20u8 {
        assert_eq!(Parker::cell(First, i), Parker::cell(Second, 29 - i));
    }
    // Index 19 is the Senet space directly beside the own corner; the corners are
    // diagonally opposite (a1 and j3).
    let g = pos("parker .....ooooO/........../Xxxxx..... turn=1 throw=- dec=0");
    assert_eq!(g.square_name(Parker::cell(First, 0)), "a1");
    assert_eq!(g.square_name(Parker::cell(First, 19)), "a2");
    assert_eq!(g.square_name(Parker::cell(Second, 0)), "j3");
    assert_eq!(g.square_name(Parker::cell(Second, 19)), "j2");
}

#[test]
fn p1_each_path_runs_from_the_safety_row_into_the_senet_row_and_loops() {
    // Player 1: a man on j1 (9) steps up to j2 (10); the Pharaoh on a2 (19) steps round to
    // a1 (0) or back to b2 (18).
    let g = pos("parker ........oO/X........./.........x turn=1 throw=1 dec=4");
    assert_eq!(legal(&g), sorted(&["j1-j2", "a2-a1", "a2-b2"]));
    // Player 2 the other way: a3 (9) to a2 (10); the Pharaoh on j2 (19) round to j3 (0).
    let g = pos("parker o........./.........O/X........x turn=2 throw=1 dec=4");
    assert_eq!(legal(&g), sorted(&["a3-a2", "j2-j3", "j2-i2"]));
    // The loop closes: from b2 (18) the Pharaoh goes on past a2 to e1 (4) with a 6.
    let mut g = pos("parker ........oO/.X......../.........x turn=1 throw=6 dec=4");
    assert_eq!(legal(&g), sorted(&["b2-e1", "b2-h2", "j1-e2"]));
    play(&mut g, "b2-e1");
    assert_eq!(
        g.position(),
        "parker ........oO/........../....X....x turn=2 throw=- dec=5"
    );
}

#[test]
fn p1_the_view_gives_each_players_loop_for_drawing_moves_along_it() {
    let v = pos("parker .....ooooO/........../Xxxxx..... turn=1 throw=3-5 dec=1").view();
    let name = |sq: u8| {
        v.cells
            .iter()
            .find(|c| c.square == sq)
            .unwrap()
            .label
            .clone()
    };
    let names = |p: usize| v.paths[p].iter().map(|&c| name(c)).collect::<Vec<_>>();
    // Player 1: a1..j1 (0-9), then j2..a2 (10-19); player 2: j3..a3, then a2..j2 (P1).
    assert_eq!(
        names(0).join(" "),
        "a1 b1 c1 d1 e1 f1 g1 h1 i1 j1 j2 i2 h2 g2 f2 e2 d2 c2 b2 a2"
    );
    assert_eq!(
        names(1).join(" "),
        "j3 i3 h3 g3 f3 e3 d3 c3 b3 a3 a2 b2 c2 d2 e2 f2 g2 h2 i2 j2"
    );
    for (i, path) in v.paths.iter().enumerate() {
        let p = Player::BOTH[i];
        for (k, &c) in path.iter().enumerate() {
            assert_eq!(c, Parker::cell(p, k as u8));
        }
        // Each step, the loop's closing one included, goes to a neighbouring cell.
        for k in 0..path.len() {
            let at = |c: u8| v.cells.iter().find(|x| x.square == c).unwrap();
            let (a, b) = (at(path[k]), at(path[(k + 1) % path.len()]));
            assert_eq!(a.row.abs_diff(b.row) + a.col.abs_diff(b.col), 1, "{k}");
        }
    }
    // The 30-square tracks need no paths: pieces move by square number (C1).
    let k: AnyGame =
        "kendall OXOXOXOXOX.................... off=0,0 turn=1 throw=- forced=10 dec=0"
            .parse()
            .unwrap();
    assert!(k.view().paths.is_empty());
}

// ---------------------------------------------------------------- P2: holes and safety rows

#[test]
fn p2_a_senet_space_has_a_hole_per_colour_and_safety_rows_are_private() {
    // The X man on j1 passes the O man on i2 (other hole) and lands on h2; the O man stays.
    let mut g = pos("parker .........O/......x.o./.........x turn=1 throw=3 dec=10");
    assert!(legal(&g).contains(&"j1-h2".to_string()));
    play(&mut g, "j1-h2");
    assert_eq!(
        g.position(),
        "parker .........O/......xxo./.......... turn=2 throw=- dec=11"
    );
    // No peg ever enters the opponent's safety row: not in a move, not in a position.
    let g = pos("parker .........O/x........./.......... turn=1 throw=1 dec=3");
    assert!(why(&g, "a2-a3").contains("(P2)"));
    for bad in [
        "parker x........O/........../X......... turn=1 throw=- dec=0",
        "parker .........O/........../X.......o. turn=1 throw=- dec=0",
    ] {
        match bad.parse::<AnyGame>() {
            Err(Error::Position(m)) => assert!(m.contains("(P2)"), "{m}"),
            other => panic!("{bad}: {other:?}"),
        }
    }
}

// ---------------------------------------------------------------- P3: start and dice-off

#[test]
fn p3_start_pharaoh_in_the_corner_men_on_the_next_four_spaces() {
    let g = AnyGame::new(RuleSet::Parker, &[] as &[&str]).unwrap();
    assert_eq!(
        g.position(),
        "parker .....ooooO/........../Xxxxx..... turn=- throw=- dec=0"
    );
    let p = parker(&g);
    assert_eq!(p.pharaoh(), [Some(0), Some(0)]);
    assert_eq!(p.pegs(), [0b11111, 0b11111]);
    assert_eq!(g.census().map(|c| c.board), [5, 5]);
}

#[test]
fn p3_a_dice_off_decides_who_starts_with_probability_one_half() {
    let g = AnyGame::new(RuleSet::Parker, &[] as &[&str]).unwrap();
    assert!(matches!(g.status(), Status::Throw(_)));
    let d = g.throw_dist();
    assert_eq!(d.outcomes.len(), 2);
    assert_eq!(d.probability(Throw::single(1)), 0.5);
    assert_eq!(d.probability(Throw::single(2)), 0.5);
    // The engine is told who starts by the dice-off's outcome; no decision is played.
    for (t, p) in [(1, Player::First), (2, Player::Second)] {
        let mut h = g;
        h.set_throw(Throw::single(t)).unwrap();
        assert_eq!(h.status(), Status::Throw(p));
        assert_eq!(h.decisions(), 0);
        assert_eq!(
            h.position(),
            format!("parker .....ooooO/........../Xxxxx..... turn={t} throw=- dec=0")
        );
        // The starting player then throws the two dice (P4).
        assert_eq!(h.throw_dist().total, 36);
    }
    // Dice are not a dice-off outcome; the error names P3.
    let mut h = g;
    match h.set_throw(Throw::dice(3, 5)) {
        Err(Error::Throw(m)) => assert!(m.contains("(P3)"), "{m}"),
        other => panic!("{other:?}"),
    }
    // The engine can also be told who starts by the position itself.
    let h = pos("parker .....ooooO/........../Xxxxx..... turn=2 throw=- dec=0");
    assert_eq!(h.status(), Status::Throw(Player::Second));
    // Random dice-offs start both players about equally often.
    let mut rng = senet_rules::conformance::SplitMix(3);
    let seconds = (0..10_000)
        .filter(|_| {
            let mut h = g;
            h.set_throw(g.throw_dist().sample(rng.next_u32())).unwrap();
            h.status() == Status::Throw(Player::Second)
        })
        .count();
    assert!((4_700..5_300).contains(&seconds), "{seconds}");
}

// ---------------------------------------------------------------- P4: two dice

#[test]
fn p4_two_six_sided_dice_thirty_six_equally_likely_rolls() {
    let g = pos("parker .....ooooO/........../Xxxxx..... turn=1 throw=- dec=0");
    let d = g.throw_dist();
    assert_eq!(d.total, 36);
    assert_eq!(d.outcomes.len(), 21);
    assert_eq!(d.weight(Throw::dice(3, 5)), 2);
    assert_eq!(d.weight(Throw::dice(5, 3)), 2);
    assert_eq!(d.weight(Throw::dice(4, 4)), 1);
    assert_eq!(d.weight(Throw::single(4)), 0);
}

#[test]
fn p4_the_total_as_one_move_or_each_die_as_its_own_move() {
    // From the start with 2-3: the front man e1 takes the 2, the 3 or the total; the Pharaoh
    // can only take the total (c1 and d1 hold its men).
    let g = pos("parker .....ooooO/........../Xxxxx..... turn=1 throw=2-3 dec=0");
    assert_eq!(legal(&g), sorted(&["e1-g1", "e1-h1", "e1-j1", "a1-f1"]));
    assert_eq!(die_of(&g, "e1-g1"), "2");
    assert_eq!(die_of(&g, "e1-h1"), "3");
    assert_eq!(die_of(&g, "e1-j1"), "total");
    assert_eq!(die_of(&g, "a1-f1"), "total");
    // The total ends the turn.
    let mut h = g;
    let e = play(&mut h, "a1-f1");
    assert!(!e.turn_continues);
    assert_eq!(
        h.position(),
        "parker .....ooooO/........../.xxxxX.... turn=2 throw=- dec=1"
    );
    // One die keeps the turn with the other die in hand; the same peg may take it.
    let mut h = g;
    let e = play(&mut h, "e1-g1");
    assert!(e.turn_continues && e.has(Effect::STEP));
    assert_eq!(h.in_hand(), Some(Throw::single(3)));
    assert_eq!(h.status(), Status::Move(Player::First));
    assert_eq!(legal(&h), sorted(&["g1-j1"]));
    let e = play(&mut h, "g1-j1");
    assert!(!e.turn_continues);
    assert_eq!(
        h.position(),
        "parker .....ooooO/........../Xxxx.....x turn=2 throw=- dec=2"
    );
}

#[test]
fn p4_doubles_are_ordinary_two_dice() {
    let mut g = pos("parker .....ooooO/........../Xxxxx..... turn=1 throw=2-2 dec=0");
    // One 2 (listed once), or the total 4; the Pharaoh's e1 is taken.
    assert_eq!(legal(&g), sorted(&["e1-g1", "e1-i1"]));
    assert_eq!(die_of(&g, "e1-i1"), "total");
    play(&mut g, "e1-g1");
    assert_eq!(legal(&g), sorted(&["d1-f1", "g1-i1"]));
    let e = play(&mut g, "g1-i1");
    // Two moves and no more: the turn passes.
    assert!(!e.turn_continues);
    assert_eq!(g.status(), Status::Throw(Player::Second));
}

// ---------------------------------------------------------------- P5: use both dice

#[test]
fn p5_a_first_die_that_would_strand_the_second_is_illegal() {
    // X men on a2 (19, waiting) and c2 (17); dice 1-2. c2-b2 with the 1 would leave the 2
    // unplayable, but a2-a1 with the 1 and then c2-a2 with the 2 plays both: so a2-a1 only.
    let g = pos("parker .........O/x.x......./.......... turn=1 throw=1-2 dec=10");
    assert_eq!(legal(&g), sorted(&["a2-a1"]));
    assert!(why(&g, "c2-b2").contains("(P5)"));
    // The whole turn: the 2 is then playable, and must be played.
    let mut h = g;
    assert!(play(&mut h, "a2-a1").turn_continues);
    assert_eq!(legal(&h), sorted(&["a1-c1", "c2-a2"]));
    assert!(!play(&mut h, "c2-a2").turn_continues);
    assert_eq!(
        h.position(),
        "parker .........O/x........./x......... turn=2 throw=- dec=12"
    );
}

#[test]
fn p5_the_total_counts_as_using_both_dice() {
    // X Pharaoh h2 (12), men e2 d2 c2 (15-17); dice 3-4. No die can be played (the
    // Pharaoh's landing holes are taken, its backward moves would reach the safety row, the
    // men cannot pass each other or go past a2), but the total 7 carries the Pharaoh to a2.
    let mut g = pos("parker .........O/..xxx..X../.......... turn=1 throw=3-4 dec=10");
    assert_eq!(legal(&g), sorted(&["h2-a2"]));
    assert_eq!(die_of(&g, "h2-a2"), "total");
    assert!(!play(&mut g, "h2-a2").turn_continues);
    assert_eq!(g.status(), Status::Throw(Player::Second));
}

#[test]
fn p5_when_no_play_uses_both_either_single_die_may_be_played() {
    // X men on a2 (19, waiting, no 1 thrown) and f2 (14); dice 2-3. f2 can take the 2 (to d2)
    // or the 3 (to c2) but not both (a2 is in the way), and not the total. Either die, no
    // larger-die preference; the other die is then lost and the turn passes.
    let g = pos("parker .........O/x....x..../.......... turn=1 throw=2-3 dec=10");
    assert_eq!(legal(&g), sorted(&["f2-d2", "f2-c2"]));
    for (mv, after) in [
        (
            "f2-d2",
            "parker .........O/x..x....../.......... turn=2 throw=- dec=11",
        ),
        (
            "f2-c2",
            "parker .........O/x.x......./.......... turn=2 throw=- dec=11",
        ),
    ] {
        let mut h = g;
        let e = play(&mut h, mv);
        assert!(!e.turn_continues, "{mv}");
        assert_eq!(h.position(), after);
    }
}

#[test]
fn p5_a_roll_with_no_playable_die_is_forfeited() {
    // X men on b2 and a2 (18, 19) waiting for a One; dice 2-6: nothing moves.
    let mut g = pos("parker .........O/xx......../.......... turn=1 throw=2-6 dec=10");
    assert_eq!(legal(&g), sorted(&["pass"]));
    let e = play(&mut g, "pass");
    assert!(e.has(Effect::FORFEIT) && !e.turn_continues);
    assert_eq!(
        g.position(),
        "parker .........O/xx......../.......... turn=2 throw=- dec=11"
    );
    // With a die left that cannot be played (a position written by hand) the same holds.
    let g = pos("parker .........O/xx......../.......... turn=1 throw=4 dec=10");
    assert_eq!(legal(&g), sorted(&["pass"]));
    // Pass is refused while some die can be played.
    let g = pos("parker .........O/xx......../.......... turn=1 throw=1-6 dec=10");
    assert!(why(&g, "pass").contains("(P5)"));
}

#[test]
fn c8_a_capture_that_wins_may_strand_the_other_die() {
    // As in the first P5 test, but O's last peg stands on b2: c2-b2 with the 1 strands the 2,
    // yet it captures O's last peg and wins at once, so it counts as the whole throw (C8).
    let mut g = pos("parker ........../xox......./.......... turn=1 throw=1-2 dec=10");
    assert_eq!(legal(&g), sorted(&["a2-a1", "c2-b2"]));
    let e = play(&mut g, "c2-b2");
    assert!(e.has(Effect::CAPTURE) && !e.turn_continues);
    let o = over(&g);
    assert_eq!(o.winner, Some(Player::First));
    assert_eq!(o.score, Some([20, 0]));
}

#[test]
fn c8_only_the_winning_move_when_no_play_uses_both_dice() {
    // O to play 1-4 with two men on h2 and d2 against X's last man on i2. No play uses both
    // dice; h2-i2 (the 1) captures X's last peg and wins. d2-e2 uses one die and does not
    // end the game, so it is not legal (C8).
    let mut g = pos("parker ........../...o...ox./.......... turn=2 throw=- dec=54");
    g.set_throw(Throw::dice(1, 4)).unwrap();
    assert_eq!(legal(&g), sorted(&["h2-i2"]));
    assert!(why(&g, "d2-e2").contains("C8"), "{}", why(&g, "d2-e2"));
}

#[test]
fn c8_a_one_die_play_that_does_not_end_the_game_is_refused_beside_a_winning_move() {
    // O to play 3-4: b2-e2 (the 3) lands beside X's last peg on e2 and wins. b2-f2 (the 4)
    // uses one die and ends nothing; before C8 it was offered too, because no play uses both
    // dice.
    let mut g = pos("parker ........../.o..X..oo./.......... turn=2 throw=- dec=53");
    g.set_throw(Throw::dice(3, 4)).unwrap();
    let l = legal(&g);
    assert!(l.contains(&"b2-e2".to_string()), "{l:?}");
    assert!(!l.contains(&"b2-f2".to_string()), "{l:?}");
    assert!(why(&g, "b2-f2").contains("C8"), "{}", why(&g, "b2-f2"));
    play(&mut g, "b2-e2");
    assert_eq!(over(&g).winner, Some(Player::Second));
}

// ---------------------------------------------------------------- P6: plain pegs

#[test]
fn p6_plain_pegs_go_forward_and_never_pass_their_own_colour() {
    // X men on j1 (9) and g2 (13); an O man on i2. With a 3 the j1 man passes the O man to h2.
    let g = pos("parker .........O/......x.o./.........x turn=1 throw=3 dec=10");
    assert_eq!(legal(&g), sorted(&["j1-h2", "g2-d2"]));
    // With a 4 it would land on its own man on g2; with a 5 it would pass it.
    let g = pos("parker .........O/......x.o./.........x turn=1 throw=4 dec=10");
    assert_eq!(legal(&g), sorted(&["g2-c2"]));
    assert!(why(&g, "j1-g2").contains("(P6)"));
    let g = pos("parker .........O/......x.o./.........x turn=1 throw=5 dec=10");
    assert_eq!(legal(&g), sorted(&["g2-b2"]));
    assert!(why(&g, "j1-f2").contains("(P6)"));
    // No backward move for a plain peg, even on the Senet row.
    let g = pos("parker .........O/......x.o./.........x turn=1 throw=1 dec=10");
    assert_eq!(legal(&g), sorted(&["j1-j2", "g2-f2"]));
    assert!(why(&g, "g2-h2").contains("forward only (P6)"));
}

// ---------------------------------------------------------------- P7: the Pharaoh

#[test]
fn p7_the_pharaoh_passes_any_peg_and_lands_only_on_an_empty_hole_of_its_colour() {
    // From a1 with a 5 the Pharaoh passes its four men to f1; with a 4 its own man on e1
    // fills the hole.
    let g = pos("parker .....ooooO/........../Xxxxx..... turn=1 throw=5 dec=1");
    assert_eq!(legal(&g), sorted(&["a1-f1", "e1-j1"]));
    let g = pos("parker .....ooooO/........../Xxxxx..... turn=1 throw=4 dec=1");
    assert_eq!(legal(&g), sorted(&["e1-i1"]));
    assert!(why(&g, "a1-e1").contains("(P7)"));
    // On the Senet row it passes opposing pegs too, and captures where it lands (P9).
    let mut g = pos("parker .........O/..o.oX..../x......... turn=1 throw=3 dec=1");
    assert!(legal(&g).contains(&"f2-c2".to_string()));
    let e = play(&mut g, "f2-c2");
    assert!(e.has(Effect::CAPTURE));
    assert_eq!(
        g.position(),
        "parker .........O/..X.o...../x......... turn=2 throw=- dec=2"
    );
}

#[test]
fn p7_the_pharaoh_moves_backward_only_on_the_senet_row_and_never_onto_the_safety_row() {
    // On i2 (11): forward to h2, backward to j2 (10).
    let g = pos("parker .........O/........X./x......... turn=1 throw=1 dec=1");
    assert_eq!(legal(&g), sorted(&["i2-h2", "i2-j2", "a1-b1"]));
    // A 2 backward would end on j1 (9), in the safety row.
    let g = pos("parker .........O/........X./x......... turn=1 throw=2 dec=1");
    assert_eq!(legal(&g), sorted(&["i2-g2", "a1-c1"]));
    assert!(why(&g, "i2-j1").contains("must end on the Senet row (P7)"));
    // On the safety row, forward only.
    let g = pos("parker .........O/........../x.X....... turn=1 throw=2 dec=1");
    assert_eq!(legal(&g), sorted(&["c1-e1"]));
    assert!(why(&g, "c1-a1").contains("forward only (P7)"));
    // The total may go backward too, as one move.
    let g = pos("parker .........O/X........./x......... turn=1 throw=3-4 dec=1");
    assert!(legal(&g).contains(&"a2-h2".to_string()));
    assert_eq!(die_of(&g, "a2-h2"), "total");
}

#[test]
fn p7_the_pharaoh_splits_forward_and_backward_between_the_dice_but_never_splits_a_die() {
    // The X Pharaoh alone on e2 (15); dice 2-5. Each die either way, the total forward (7
    // back would reach the safety row).
    let g = pos("parker ........oO/....X...../.......... turn=1 throw=2-5 dec=20");
    assert_eq!(
        legal(&g),
        sorted(&["e2-c2", "e2-g2", "e2-a1", "e2-j2", "e2-c1"])
    );
    // The whole turn: forward 2 to c2, then backward 5 to h2.
    let mut h = g;
    assert!(play(&mut h, "e2-c2").turn_continues);
    assert_eq!(legal(&h), sorted(&["c2-c1", "c2-h2"]));
    // A die's count is never split: 3 back and 2 forward are not the 5.
    assert!(why(&h, "c2-f2").contains("split"));
    let e = play(&mut h, "c2-h2");
    assert!(e.has(Effect::BACKWARD) && !e.turn_continues);
    assert_eq!(
        h.position(),
        "parker ........oO/.......X../.......... turn=2 throw=- dec=22"
    );
    // Or backward 5 to j2 (10) first; then the 2 can only go forward.
    let mut h = g;
    assert!(play(&mut h, "e2-j2").turn_continues);
    assert_eq!(legal(&h), sorted(&["j2-h2"]));
}

// ---------------------------------------------------------------- P8: waiting for a One

#[test]
fn p8_a_plain_peg_must_reach_the_last_senet_space_by_exact_count() {
    // The seed's example: the man on d2 needs 3 to reach a2. With 4-6 it cannot be played;
    // the j1 man takes one die (the other cannot follow).
    let g = pos("parker .........O/...x....../.........x turn=1 throw=4-6 dec=10");
    assert_eq!(legal(&g), sorted(&["j1-g2", "j1-e2"]));
    assert!(why(&g, "d2-a1").contains("(P8)"));
    // With 3-6 it reaches a2 with the three and the six is played elsewhere.
    let g = pos("parker .........O/...x....../.........x turn=1 throw=3-6 dec=10");
    assert_eq!(legal(&g), sorted(&["d2-a2", "j1-e2"]));
    let mut h = g;
    play(&mut h, "d2-a2");
    assert_eq!(legal(&h), sorted(&["j1-e2"]));
    // A man on the safety row may not run past a2 either: i1 (8) + 12 would end on a1.
    let g = pos("parker .........O/.x......../........x. turn=1 throw=6-6 dec=10");
    assert_eq!(legal(&g), sorted(&["i1-f2"]));
    assert!(why(&g, "i1-a1").contains("(P8)"));
}

#[test]
fn p8_a_plain_peg_leaves_the_last_space_only_with_a_one_onto_an_empty_first_space() {
    let g = pos("parker .........O/x........./......x... turn=1 throw=1 dec=10");
    assert_eq!(legal(&g), sorted(&["a2-a1", "g1-h1"]));
    let g = pos("parker .........O/x........./......x... turn=1 throw=2 dec=10");
    assert_eq!(legal(&g), sorted(&["g1-i1"]));
    assert!(why(&g, "a2-b1").contains("only with a die showing 1 (P8)"));
    // Index 0 (a1) must be empty.
    let g = pos("parker .........O/x........./x......... turn=1 throw=1 dec=10");
    assert_eq!(legal(&g), sorted(&["a1-b1"]));
    // The 1 takes it down, the other die moves on: a whole turn with 1-4. The total 5 may
    // not be used from a2.
    let mut g = pos("parker .........O/x........./......x... turn=1 throw=1-4 dec=10");
    assert!(why(&g, "a2-e1").contains("(P8)"));
    play(&mut g, "a2-a1");
    assert!(legal(&g).contains(&"a1-e1".to_string()));
    play(&mut g, "a1-e1");
    assert_eq!(
        g.position(),
        "parker .........O/........../....x.x... turn=2 throw=- dec=12"
    );
}

#[test]
fn p8_the_pharaoh_never_waits() {
    // From c2 (17) the Pharaoh goes round to b1 (1) with a 4, in one move.
    let g = pos("parker .........O/..X......./.....x.... turn=1 throw=4 dec=10");
    assert_eq!(legal(&g), sorted(&["c2-b1", "c2-g2", "f1-j1"]));
}

#[test]
fn p8_option_off_plain_pegs_move_round_freely() {
    // d2 (16) + 4 reaches a1 (0) round the corner.
    let g = pos("parker:wait_for_one=false .........O/...x....../.....x.... turn=1 throw=4 dec=10");
    assert_eq!(legal(&g), sorted(&["d2-a1", "f1-j1"]));
    // The same position with the option on (the default): d2 may not pass a2.
    let g = pos("parker .........O/...x....../.....x.... turn=1 throw=4 dec=10");
    assert_eq!(legal(&g), sorted(&["f1-j1"]));
    // Leaving a2 needs no 1, by a die or by the total; own pegs still block (P6): the d2
    // man may not pass the a2 man.
    let g = pos("parker:wait_for_one=false .........O/x..x....../.......... turn=1 throw=4 dec=10");
    assert_eq!(legal(&g), sorted(&["a2-d1"]));
    let g =
        pos("parker:wait_for_one=false .........O/x........./.........x turn=1 throw=2-5 dec=10");
    assert!(legal(&g).contains(&"a2-b1".to_string()));
    assert!(legal(&g).contains(&"a2-g1".to_string()));
    assert_eq!(die_of(&g, "a2-g1"), "total");
}

// ---------------------------------------------------------------- P9: captures

#[test]
fn p9_coming_to_rest_beside_an_opposing_peg_captures_it() {
    // X man on j2 (10) + 2 = h2 (12), where an O man stands.
    let mut g = pos("parker .........O/.......o.x/X......... turn=1 throw=2 dec=10");
    let e = play(&mut g, "j2-h2");
    assert!(e.has(Effect::CAPTURE) && e.has(Effect::STEP));
    assert_eq!(
        g.position(),
        "parker .........O/.......x../X......... turn=2 throw=- dec=11"
    );
    assert_eq!(g.census()[1].captured, 4);
    // The other way round: O's man on a2 (10) + 2 = c2, where an X man stands.
    let mut g = pos("parker .........O/o.x......./X......... turn=2 throw=2 dec=10");
    let e = play(&mut g, "a2-c2");
    assert!(e.has(Effect::CAPTURE));
    assert_eq!(
        g.position(),
        "parker .........O/..o......./X......... turn=1 throw=- dec=11"
    );
}

#[test]
fn p9_passing_does_not_capture_and_the_total_captures_only_where_it_ends() {
    // The total 7 takes the j2 man past the O man on h2 to c2, capturing only on c2.
    let mut g = pos("parker .........O/..o....o.x/X......... turn=1 throw=3-4 dec=10");
    play(&mut g, "j2-c2");
    assert_eq!(
        g.position(),
        "parker .........O/..x....o../X......... turn=2 throw=- dec=11"
    );
}

#[test]
fn p9_a_capture_does_not_end_the_turn() {
    // The 2 captures on h2; the 4 is still played.
    let mut g = pos("parker .........O/.......o.x/X......... turn=1 throw=2-4 dec=10");
    let e = play(&mut g, "j2-h2");
    assert!(e.has(Effect::CAPTURE) && e.turn_continues);
    assert_eq!(g.in_hand(), Some(Throw::single(4)));
    assert_eq!(legal(&g), sorted(&["a1-e1", "h2-d2"]));
}

#[test]
fn p9_a_pharaoh_is_captured_like_any_peg() {
    // The X Pharaoh on i1 (8) + 5 = g2 (13), where O's Pharaoh stands.
    let mut g = pos("parker ........oo/......O.../........X. turn=1 throw=5 dec=10");
    let e = play(&mut g, "i1-g2");
    assert!(e.has(Effect::CAPTURE));
    assert_eq!(parker(&g).pharaoh(), [Some(13), None]);
    assert_eq!(
        g.position(),
        "parker ........oo/......X.../.......... turn=2 throw=- dec=11"
    );
}

// ---------------------------------------------------------------- P10: the lone peg

#[test]
fn p10_a_lone_peg_without_a_pharaoh_has_the_pharaohs_powers() {
    // X has one man left on e2 (15): it moves backward like a Pharaoh.
    let g = pos("parker .........O/....x...../.......... turn=1 throw=2 dec=30");
    assert_eq!(legal(&g), sorted(&["e2-c2", "e2-g2"]));
    assert_eq!(parker(&g).powered(Player::First), Some(15));
    // It never waits (P8): from b2 (18) with 3 it goes round to b1.
    let g = pos("parker .........O/.x......../.......... turn=1 throw=3 dec=30");
    assert_eq!(legal(&g), sorted(&["b2-b1", "b2-e2"]));
    // Two men without a Pharaoh: plain pegs, forward only.
    let g = pos("parker .........O/.x..x...../.......... turn=1 throw=2 dec=30");
    assert_eq!(legal(&g), sorted(&["e2-c2"]));
    assert_eq!(parker(&g).powered(Player::First), None);
    // A Pharaoh with one man: the man stays plain and waits on b2.
    let g = pos("parker .........O/.x......../X......... turn=1 throw=3 dec=30");
    assert_eq!(legal(&g), sorted(&["a1-d1"]));
    assert_eq!(parker(&g).powered(Player::First), Some(0));
}

#[test]
fn p10_losing_the_pharaoh_with_one_man_left_passes_the_powers_on_at_once() {
    // O has its Pharaoh on h2 and one man on j3. X's man on j2 (10) captures the Pharaoh on
    // h2 with a 2; O's man on j3 then moves like a Pharaoh.
    let mut g = pos("parker .........o/.......O.x/X......... turn=1 throw=2 dec=30");
    assert_eq!(parker(&g).powered(Player::Second), Some(17));
    let e = play(&mut g, "j2-h2");
    assert!(e.has(Effect::CAPTURE));
    assert_eq!(parker(&g).powered(Player::Second), Some(0));
    // O's lone man on c2 (12) moves either way on the Senet row.
    let g = pos("parker ........../..o......./X......... turn=2 throw=1 dec=30");
    assert_eq!(legal(&g), sorted(&["c2-d2", "c2-b2"]));
}

// ---------------------------------------------------------------- P11: the end and the score

#[test]
fn p11_capturing_every_opposing_peg_wins_and_the_winner_scores_what_is_left() {
    // X: Pharaoh and two men; O's last peg on h2 is captured: 25 + 2 * 10 = 45.
    let mut g = pos("parker ........../.......o.x/X....x.... turn=1 throw=2 dec=40");
    let e = play(&mut g, "j2-h2");
    assert!(e.has(Effect::CAPTURE) && !e.turn_continues);
    let o = over(&g);
    assert_eq!(o.winner, Some(Player::First));
    assert!(!o.capped);
    assert_eq!(o.score, Some([45, 0]));
    assert!(legal(&g).is_empty());
    assert!(matches!(
        g.clone().set_throw(Throw::dice(1, 2)),
        Err(Error::GameOver)
    ));
    // The finished game round-trips.
    assert_eq!(pos(&g.position()), g);
}

#[test]
fn p11_all_five_pegs_saved_doubles_the_score() {
    // X still has all five: (25 + 4 * 10) * 2 = 130.
    let mut g = pos("parker ........../.......o.x/Xxxx...... turn=1 throw=2 dec=40");
    play(&mut g, "j2-h2");
    assert_eq!(over(&g).score, Some([130, 0]));
    // Without the Pharaoh: men only, 10 each.
    let mut g = pos("parker ........../.......o.x/.x.x...... turn=1 throw=2 dec=40");
    play(&mut g, "j2-h2");
    assert_eq!(over(&g).score, Some([30, 0]));
    // Player 2 wins: its score is the second.
    let mut g = pos("parker .....oooO./o.x......./.......... turn=2 throw=2 dec=40");
    play(&mut g, "a2-c2");
    let o = over(&g);
    assert_eq!(o.winner, Some(Player::Second));
    assert_eq!(o.score, Some([0, 130]));
}

#[test]
fn p11_a_lone_peg_with_powers_still_scores_as_a_plain_peg() {
    let mut g = pos("parker ........../.......o.x/.......... turn=1 throw=2 dec=40");
    play(&mut g, "j2-h2");
    assert_eq!(over(&g).score, Some([10, 0]));
}

// ---------------------------------------------------------------- options

#[test]
fn option_wait_for_one_is_on_by_default_and_named_in_the_position_when_off() {
    let g = AnyGame::new(RuleSet::Parker, &[] as &[&str]).unwrap();
    assert!(g.position().starts_with("parker "));
    let g = AnyGame::new(RuleSet::Parker, &["wait_for_one=false"]).unwrap();
    assert!(g.position().starts_with("parker:wait_for_one=false "));
    assert_eq!(pos(&g.position()), g);
}

#[test]
fn option_cap_ends_the_game_in_a_draw_with_no_score() {
    let mut g = pos("parker:cap=11 .........O/x..x....../.......... turn=1 throw=1-2 dec=10");
    let e = play(&mut g, "a2-a1");
    // The cap stops the game after the decision, though a die is still in hand.
    let o = over(&g);
    assert!(o.capped);
    assert_eq!(o.winner, None);
    assert_eq!(o.score, Some([0, 0]));
    assert!(!e.turn_continues);
    let g = AnyGame::new(RuleSet::Parker, &["cap=123"]).unwrap();
    assert!(g.position().starts_with("parker:cap=123 "));
}

// ---------------------------------------------------------------- notation

#[test]
fn notation_round_trips_and_malformed_positions_are_explained() {
    for s in [
        "parker .....ooooO/........../Xxxxx..... turn=- throw=- dec=0",
        "parker .....ooooO/........../Xxxxx..... turn=2 throw=3-5 dec=0",
        "parker .........O/x.x......./.......... turn=1 throw=2 dec=11",
        "parker:wait_for_one=false,cap=50 .........O/x.x......./.......... turn=1 throw=- dec=11",
        "parker ........../.......x../X......... turn=2 throw=- dec=11",
    ] {
        assert_eq!(pos(s).position(), s);
    }
    for (bad, says) in [
        ("parker", "lacks the board"),
        (
            "parker .....ooooO/........../Xxxxx.... turn=1 throw=- dec=0",
            "three rows of ten",
        ),
        (
            "parker .....ooooO/........../Xxxxx..... turn=1 throw=- dec=0 x=1",
            "unknown field",
        ),
        (
            "parker .....ooooO/........../Xxxxx..... turn=1 dec=0",
            "throw=",
        ),
        (
            "parker .....ooooO/........../Xxxxx..... turn=3 throw=- dec=0",
            "turn",
        ),
        (
            "parker .....ooooO/........../Xxxxx..... turn=- throw=3-5 dec=0",
            "(P3)",
        ),
        (
            "parker .....ooooO/........../Xxxxx..... turn=1 throw=3-7 dec=0",
            "(P4)",
        ),
        (
            "parker .....ooooO/........../Xxxxx..... turn=1 throw=0 dec=0",
            "throw",
        ),
        (
            "parker .....ooooO/..X......./Xxxxx..... turn=1 throw=- dec=0",
            "two Pharaohs",
        ),
        (
            "parker .....ooooO/..x......./Xxxxx..... turn=1 throw=- dec=0",
            "four men",
        ),
        (
            "parker .....ooooO/..?......./Xxxxx..... turn=1 throw=- dec=0",
            "holds '?'",
        ),
        (
            "parker ........../........../.......... turn=1 throw=- dec=0",
            "both players",
        ),
        (
            "parker .....ooooO/........../Xxxxx..... turn=1 throw=- dec=x",
            "whole number",
        ),
    ] {
        match bad.parse::<AnyGame>() {
            Err(Error::Position(m)) => assert!(m.contains(says), "{bad}: {m}"),
            other => panic!("{bad}: {other:?}"),
        }
    }
}

#[test]
fn move_strings_name_cells_case_insensitively_and_bad_ones_are_explained() {
    let g = pos("parker .....ooooO/........../Xxxxx..... turn=1 throw=2-3 dec=0");
    assert_eq!(
        g.parse_move("E1-G1").unwrap(),
        g.parse_move("e1-g1").unwrap()
    );
    assert!(why(&g, "garbage").contains("not a move like"));
    assert!(why(&g, "k1-a1").contains("not a move like"));
    assert!(why(&g, "f1-g1").contains("no peg on f1"));
    assert!(why(&g, "e1-f1").contains("no die or total"));
    assert!(why(&g, "a1-c1").contains("(P7)"));
    let m = g.parse_move("a1-f1").unwrap();
    assert_eq!(g.square_name(m.from), "a1");
    assert_eq!(g.square_name(m.to), "f1");
}

/// Random edits of real positions and random move strings: nothing panics, whatever parses
/// round-trips, and only listed moves are accepted.
#[test]
fn notation_survives_random_edits() {
    let start = AnyGame::new(RuleSet::Parker, &[] as &[&str]).unwrap();
    let positions = senet_rules::with_game!(&start, g => senet_rules::conformance::corpus(g, 7, 300, false)
        .into_iter().map(AnyGame::from).collect::<Vec<_>>());
    let alphabet: Vec<char> = "XxOo.-/=0123456789 abcdefghijturnthrowdec:,"
        .chars()
        .collect();
    let mut rng = senet_rules::conformance::SplitMix(99);
    let mut parsed = 0;
    for p in &positions {
        let text = p.position();
        for _ in 0..40 {
            let mut chars: Vec<char> = text.chars().collect();
            let board = text.find(' ').unwrap() + 1;
            for _ in 0..1 + rng.below(3) {
                let i = rng.below(chars.len());
                match rng.below(6) {
                    // Mostly pegs moved about the board, so that many edits still parse.
                    3..=5 => chars[board + rng.below(32)] = ['X', 'x', 'O', 'o', '.'][rng.below(5)],
                    0 => chars[i] = alphabet[rng.below(alphabet.len())],
                    1 => {
                        chars.remove(i);
                    }
                    _ => chars.insert(i, alphabet[rng.below(alphabet.len())]),
                }
            }
            let s: String = chars.into_iter().collect();
            if let Ok(g) = s.parse::<AnyGame>() {
                parsed += 1;
                assert_eq!(pos(&g.position()), g, "{s}");
                assert!(g.check_invariants().is_ok(), "{s}");
                let mut ms = MoveList::new();
                g.legal_moves(&mut ms);
                for m in ms {
                    let mut h = g;
                    h.play(m).unwrap();
                    assert!(h.check_invariants().is_ok(), "{s}");
                }
            }
        }
        for _ in 0..20 {
            let cell = |r: &mut senet_rules::conformance::SplitMix| {
                format!("{}{}", (b'a' + r.below(11) as u8) as char, r.below(5))
            };
            let mv = format!("{}-{}", cell(&mut rng), cell(&mut rng));
            if let Ok(m) = p.parse_move(&mv) {
                let mut ms = MoveList::new();
                p.legal_moves(&mut ms);
                assert!(ms.contains(&m));
            }
        }
    }
    assert!(parsed > 1000, "{parsed}");
}

// ---------------------------------------------------------------- an independent reading

/// A slow, separate reading of P1 and P5-P10, from the position string alone.
mod oracle {
    /// One player's pegs: (path index, is the Pharaoh).
    pub type Pegs = Vec<(u8, bool)>;

    /// Path index of a cell (column 1-10, row 1-3) for player `p` (0 or 1), if on its path.
    pub fn index(p: usize, col: u8, row: u8) -> Option<u8> {
        match (p, row) {
            (0, 1) => Some(col - 1),
            (0, 2) => Some(20 - col),
            (1, 3) => Some(10 - col),
            (1, 2) => Some(9 + col),
            _ => None,
        }
    }

    /// The cell name of path index `i` of player `p`.
    pub fn name(p: usize, i: u8) -> String {
        for row in 1..=3u8 {
            for col in 1..=10u8 {
                if index(p, col, row) == Some(i) {
                    return format!("{}{row}", (b'a' + col - 1) as char);
                }
            }
        }
        unreachable!()
    }

    pub fn parse(board: &str) -> [Pegs; 2] {
        let mut pegs = [vec![], vec![]];
        for (k, r) in board.split('/').enumerate() {
            let row = 3 - k as u8;
            for (j, ch) in r.chars().enumerate() {
                let col = j as u8 + 1;
                let (p, ph) = match ch {
                    'X' => (0, true),
                    'x' => (0, false),
                    'O' => (1, true),
                    'o' => (1, false),
                    _ => continue,
                };
                pegs[p].push((index(p, col, row).unwrap(), ph));
            }
        }
        pegs
    }

    fn powered(own: &Pegs, i: u8) -> bool {
        own.iter().any(|&(j, ph)| j == i && ph)
            || (own.len() == 1 && !own.iter().any(|&(_, ph)| ph))
    }

    /// Every move (from, to) of `own` by `n`.
    pub fn moves(own: &Pegs, n: u8, wait: bool) -> Vec<(u8, u8)> {
        let occupied = |i: u8| own.iter().any(|&(j, _)| j == i);
        let mut out = vec![];
        for &(s, _) in own {
            if powered(own, s) {
                let t = (s + n) % 20;
                if !occupied(t) {
                    out.push((s, t));
                }
                if s >= 10 && s >= n + 10 && !occupied(s - n) {
                    out.push((s, s - n));
                }
            } else {
                let ok_wait = !wait || (s == 19 && n == 1) || (s != 19 && s + n <= 19);
                let clear = (1..=n).all(|k| !occupied((s + k) % 20));
                if ok_wait && clear {
                    out.push((s, (s + n) % 20));
                }
            }
        }
        out
    }

    pub fn after(own: &Pegs, (s, t): (u8, u8)) -> Pegs {
        own.iter()
            .map(|&(j, ph)| if j == s { (t, ph) } else { (j, ph) })
            .collect()
    }

    /// The legal first moves with dice `a`, `b` (P5), as move strings.
    pub fn first_moves(pegs: &[Pegs; 2], me: usize, a: u8, b: u8, wait: bool) -> Vec<String> {
        let own = &pegs[me];
        let opp = &pegs[1 - me];
        let wins = |t: u8| opp.len() == 1 && t >= 10 && opp[0].0 == 29 - t;
        let total = moves(own, a + b, wait);
        let mut keeping = vec![];
        let mut singles = vec![];
        for (x, y) in [(a, b), (b, a)] {
            for m in moves(own, x, wait) {
                singles.push(m);
                if !moves(&after(own, m), y, wait).is_empty() || wins(m.1) {
                    keeping.push(m);
                }
            }
        }
        // C8: a move that wins counts as playing the whole throw.
        let both = !total.is_empty() || !keeping.is_empty();
        let chosen: Vec<(u8, u8)> = if both {
            total.into_iter().chain(keeping).collect()
        } else {
            singles
        };
        let mut v: Vec<String> = chosen
            .into_iter()
            .map(|(s, t)| format!("{}-{}", name(me, s), name(me, t)))
            .collect();
        v.sort();
        v.dedup();
        if v.is_empty() {
            v.push("pass".into());
        }
        v
    }
}

#[test]
fn p5_whole_turn_moves_match_an_independent_reading_of_the_rules() {
    let mut checked = 0;
    for wait in [true, false] {
        let start = AnyGame::new(RuleSet::Parker, &[format!("wait_for_one={wait}")]).unwrap();
        let positions = senet_rules::with_game!(&start, g => senet_rules::conformance::corpus(g, 3, 1500, true)
            .into_iter().map(AnyGame::from).collect::<Vec<_>>());
        for p in positions {
            if p.position().contains("turn=-") {
                continue;
            }
            let text = p.position();
            let board = text.split_whitespace().nth(1).unwrap();
            let pegs = oracle::parse(board);
            let me = match p.status() {
                Status::Throw(pl) => pl.index(),
                _ => continue,
            };
            for a in 1..=6u8 {
                for b in a..=6u8 {
                    let mut g = p;
                    g.set_throw(Throw::dice(a, b)).unwrap();
                    let first = legal(&g);
                    assert_eq!(
                        first,
                        oracle::first_moves(&pegs, me, a, b, wait),
                        "{}",
                        g.position()
                    );
                    checked += 1;
                    // The second decision: any move of the die left (P5 promised one).
                    for mv in &first {
                        let mut h = g;
                        let e = play(&mut h, mv);
                        if !e.turn_continues {
                            continue;
                        }
                        let Some(Throw { a: d, b: 0 }) = h.in_hand() else {
                            panic!("{}", h.position())
                        };
                        let text = h.position();
                        let pegs = oracle::parse(text.split_whitespace().nth(1).unwrap());
                        let mut want: Vec<String> = oracle::moves(&pegs[me], d, wait)
                            .into_iter()
                            .map(|(s, t)| {
                                format!("{}-{}", oracle::name(me, s), oracle::name(me, t))
                            })
                            .collect();
                        want.sort();
                        assert!(!want.is_empty(), "{text}");
                        assert_eq!(legal(&h), want, "{text}");
                    }
                }
            }
        }
    }
    assert!(checked > 50_000, "{checked}");
}

// ---------------------------------------------------------------- board view and progress

#[test]
fn the_board_view_names_cells_pegs_and_the_marked_spaces() {
    let g = pos("parker ........../..x.....O./X......... turn=1 throw=- dec=9");
    let v = g.view();
    assert_eq!((v.rows, v.cols, v.cells.len()), (3, 10, 30));
    let cell = |name: &str| v.cells.iter().find(|c| c.label == name).unwrap();
    // a1: bottom-left, player 1's corner, its Pharaoh.
    let a1 = cell("a1");
    assert_eq!((a1.row, a1.col, a1.square), (2, 0, 1));
    assert!(a1.special.unwrap().contains("(P1, P3)"));
    assert_eq!(a1.pieces[0].kind, 'X');
    assert_eq!(a1.pieces[0].name, "Pharaoh");
    // j3: top-right; a2 and j2 are the spaces where plain pegs wait (P8).
    assert_eq!(
        (cell("j3").row, cell("j3").col, cell("j3").square),
        (0, 9, 30)
    );
    assert!(cell("a2").special.unwrap().contains("(P8)"));
    // Player 2's lone Pharaoh is a Pharaoh; player 1's man is a man.
    assert_eq!(cell("i2").pieces[0].name, "Pharaoh");
    assert_eq!(cell("c2").pieces[0].name, "man");
    assert_eq!(v.captured, [3, 4]);
    // A lone man is named with its powers (P10).
    let g = pos("parker ........../..x.....o./.......... turn=1 throw=- dec=9");
    assert!(g
        .view()
        .cells
        .iter()
        .any(|c| c.pieces.iter().any(|p| p.name.contains("(P10)"))));
}

#[test]
fn progress_is_material_weighed_as_p11_scores_it() {
    let g = pos("parker .....ooooO/........../Xxxxx..... turn=1 throw=- dec=0");
    assert_eq!(g.progress(), [65, 65]);
    let g = pos("parker ........../..x.....O./X......... turn=1 throw=- dec=9");
    assert_eq!(g.progress(), [35, 25]);
}
