//! Rulings Y1-Y9 of `pyramid` (Pyramid Senet, seed 003), one or more tests each, plus the
//! cap option, the notation, and a brute-force cross-check of the whole-turn rule (Y3).
//!
//! Positions are written in the notation of `docs/rules/pyramid.md`: `L M S` are black's
//! (player 1's) large, medium and small pyramids, `l m s` white's.

use senet_rules::conformance::{corpus, SplitMix};
use senet_rules::{
    AnyGame, Effect, Effects, Error, Game, MoveList, Player, RuleSet, Status, Throw,
};
use senet_rules::{Metrics, Notation, View};

/// A position from `(square, letter)` pairs and the fields after the board; `off=-,-` and
/// `dec=10` are added when the fields do not give them.
fn at(pieces: &[(u8, char)], fields: &str) -> AnyGame {
    let mut board = ['.'; 30];
    for &(s, c) in pieces {
        board[s as usize - 1] = c;
    }
    let board: String = board.iter().collect();
    let mut f = fields.to_string();
    if !f.contains("off=") {
        f.push_str(" off=-,-");
    }
    if !f.contains("dec=") {
        f.push_str(" dec=10");
    }
    let text = format!("pyramid {board} {f}");
    text.parse()
        .unwrap_or_else(|e| panic!("test position {text:?} does not parse: {e}"))
}

/// The legal move strings, sorted.
fn moves(g: &AnyGame) -> Vec<String> {
    let mut ms = MoveList::new();
    g.legal_moves(&mut ms);
    let mut v: Vec<String> = ms.iter().map(|&m| g.move_string(m)).collect();
    v.sort();
    v
}

fn play(g: &mut AnyGame, text: &str) -> Effects {
    let m = g
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text} refused at {}: {e}", g.position()));
    g.play(m).unwrap()
}

fn why(g: &AnyGame, text: &str) -> String {
    match g.parse_move(text) {
        Err(Error::Move(w)) => w,
        other => panic!(
            "{text} should be illegal at {}, got {other:?}",
            g.position()
        ),
    }
}

fn over(g: &AnyGame) -> senet_rules::Outcome {
    match g.status() {
        Status::Over(o) => o,
        s => panic!("not over: {s:?} at {}", g.position()),
    }
}

fn start() -> AnyGame {
    AnyGame::new(RuleSet::Pyramid, &[] as &[&str]).unwrap()
}

// ---------------------------------------------------------------------------------------
// Y1: layout and sizes.

#[test]
fn y1_black_on_odd_white_on_even_with_sizes_large_medium_small() {
    let g = start();
    assert_eq!(
        g.position(),
        "pyramid LlLlMmMmMmSsSsSsSsSs.......... off=-,- turn=1 dice=- opening=1 dec=0"
    );
    let AnyGame::Pyramid(p) = g else {
        panic!("not a pyramid game")
    };
    use senet_rules::pyramid::Size;
    for s in 1..=20u8 {
        let side = if s % 2 == 1 {
            Player::First
        } else {
            Player::Second
        };
        let size = match s {
            1..=4 => Size::Large,
            5..=10 => Size::Medium,
            _ => Size::Small,
        };
        assert_eq!(p.at(s), Some((side, size)), "square {s}");
    }
    for s in 21..=30u8 {
        assert_eq!(p.at(s), None);
    }
    for c in g.census() {
        assert_eq!((c.board, c.off, c.captured), (10, 0, 0));
    }
}

#[test]
fn y1_a_side_has_only_two_large_three_medium_five_small() {
    let e = format!("pyramid LLL{}l off=-,- turn=1 dice=- dec=0", ".".repeat(26))
        .parse::<AnyGame>()
        .unwrap_err();
    assert!(
        matches!(&e, Error::Position(m) if m.contains("3 large") && m.contains("Y1")),
        "{e}"
    );
    let e = format!("pyramid L{}l off=LL,- turn=1 dice=- dec=0", ".".repeat(28))
        .parse::<AnyGame>()
        .unwrap_err();
    assert!(
        matches!(&e, Error::Position(m) if m.contains("only 2 in all")),
        "{e}"
    );
    // The rest of the ten are captured.
    let g = at(&[(3, 'M'), (20, 's')], "turn=1 dice=- off=LS,mm");
    let c = g.census();
    assert_eq!((c[0].board, c[0].off, c[0].captured), (1, 2, 7));
    assert_eq!((c[1].board, c[1].off, c[1].captured), (1, 2, 7));
}

// ---------------------------------------------------------------------------------------
// Y2: black's single-die opening, then two dice each played as its own decision.

#[test]
fn y2_black_opens_with_a_single_four_sided_die() {
    let mut g = start();
    let d = g.throw_dist();
    assert_eq!(d.total, 4);
    for v in 1..=4 {
        assert_eq!(d.probability(Throw::single(v)), 0.25);
    }
    assert!(g.clone().set_throw(Throw::dice(1, 2)).is_err());
    g.set_throw(Throw::single(2)).unwrap();
    assert_eq!(
        g.position(),
        "pyramid LlLlMmMmMmSsSsSsSsSs.......... off=-,- turn=1 dice=2 dec=0"
    );
    // Every 2 lands on black's own colour except from 19.
    assert_eq!(moves(&g), ["19-21"]);
    let e = play(&mut g, "19-21");
    assert!(!e.turn_continues);
    assert_eq!(g.status(), Status::Throw(Player::Second));
    // From now on, two dice.
    let d = g.throw_dist();
    assert_eq!(d.total, 16);
    assert_eq!(d.outcomes.len(), 10);
    assert_eq!(d.probability(Throw::dice(3, 3)), 1.0 / 16.0);
    assert_eq!(d.probability(Throw::dice(4, 1)), 2.0 / 16.0);
    assert!(g.clone().set_throw(Throw::single(3)).is_err());
}

#[test]
fn y2_the_opening_die_captures_the_unprotected_white_pyramids() {
    // At the start no white pyramid has a white neighbour, so a 1 or a 3 may take any.
    let mut g = start();
    g.set_throw(Throw::single(3)).unwrap();
    let mut want: Vec<String> = (0..10u8)
        .map(|i| format!("{}-{}", 2 * i + 1, 2 * i + 4))
        .collect();
    want.sort();
    assert_eq!(moves(&g), want);
    let e = play(&mut g, "3-6");
    assert!(e.has(Effect::CAPTURE));
    assert!(g.position().starts_with("pyramid Ll.lMLMmMm"));
    assert_eq!(g.census()[1].captured, 1);
}

#[test]
fn y2_each_die_is_its_own_decision_in_the_order_the_player_chooses() {
    let g = at(&[(5, 'S'), (12, 'M'), (20, 's')], "turn=1 dice=1-3");
    assert_eq!(moves(&g), ["12-13", "12-15", "5-6", "5-8"]);
    for (first, second, rest) in [("5-6", "12-15", 3), ("12-15", "5-6", 1)] {
        let mut h = g;
        let e = play(&mut h, first);
        assert!(e.turn_continues);
        assert_eq!(h.status(), Status::Move(Player::First));
        assert_eq!(h.in_hand(), Some(Throw::single(rest)));
        assert!(h.position().contains(&format!(" dice={rest} ")));
        let e = play(&mut h, second);
        assert!(!e.turn_continues);
        assert_eq!(h.status(), Status::Throw(Player::Second));
        assert_eq!(
            h,
            at(&[(6, 'S'), (15, 'M'), (20, 's')], "turn=2 dice=- dec=12")
        );
    }
}

#[test]
fn y2_one_pyramid_may_take_both_dice() {
    let mut g = at(&[(5, 'S'), (20, 's')], "turn=1 dice=1-3");
    assert_eq!(moves(&g), ["5-6", "5-8"]);
    play(&mut g, "5-8");
    assert_eq!(moves(&g), ["8-9"]);
    assert_eq!(
        g.die_used(g.parse_move("8-9").unwrap()).as_deref(),
        Some("1")
    );
    play(&mut g, "8-9");
    assert_eq!(g, at(&[(9, 'S'), (20, 's')], "turn=2 dice=- dec=12"));
}

#[test]
fn y2_doubles_are_two_decisions_of_the_same_value() {
    let mut g = at(&[(5, 'S'), (7, 'S'), (20, 's')], "turn=1 dice=2-2");
    // 5-7 lands on black's own pyramid (Y4).
    assert_eq!(moves(&g), ["7-9"]);
    assert!(play(&mut g, "7-9").turn_continues);
    assert_eq!(moves(&g), ["5-7", "9-11"]);
    assert!(!play(&mut g, "9-11").turn_continues);
}

// ---------------------------------------------------------------------------------------
// Y3: both dice if at all possible, over the whole turn; else the player's choice.

#[test]
fn y3_only_one_order_plays_both_with_one_pyramid() {
    // 25-27 with the 2 would leave the 1 unplayable (27 moves only by bearing off with a
    // 4); 25-26 with the 1 lets the 2 go on to 28.
    let mut g = at(&[(25, 'S'), (2, 's')], "turn=1 dice=1-2");
    assert_eq!(moves(&g), ["25-26"]);
    assert!(why(&g, "25-27").contains("(Y3)"));
    assert!(play(&mut g, "25-26").turn_continues);
    assert_eq!(
        g.position(),
        "pyramid .s.......................S.... off=-,- turn=1 dice=2 ankh=new dec=11"
    );
    assert_eq!(moves(&g), ["26-28"]);
}

#[test]
fn y3_only_one_order_plays_both_with_two_pyramids() {
    // 10-13 with the 3 first leaves no 1 (13-14 and 7-8 hit protected pairs); 10-11 with
    // the 1 first frees 10 for 7-10.
    let mut g = at(
        &[
            (7, 'S'),
            (10, 'S'),
            (8, 's'),
            (9, 's'),
            (14, 's'),
            (15, 's'),
        ],
        "turn=1 dice=1-3",
    );
    assert_eq!(moves(&g), ["10-11"]);
    let w = why(&g, "10-13");
    assert!(
        w.contains("the 1 could not be played") && w.contains("(Y3)"),
        "{w}"
    );
    play(&mut g, "10-11");
    assert_eq!(moves(&g), ["7-10"]);
}

#[test]
fn y3_when_only_one_die_can_be_played_the_player_chooses_which() {
    // 25-27 (2) or 25-28 (3): either leaves a pyramid that waits on a numbered square, so
    // the other die is lost and the turn passes at once (C7).
    let g = at(&[(25, 'S'), (2, 's')], "turn=1 dice=2-3");
    assert_eq!(moves(&g), ["25-27", "25-28"]);
    for m in ["25-27", "25-28"] {
        let mut h = g;
        assert!(!play(&mut h, m).turn_continues);
        assert_eq!(h.status(), Status::Throw(Player::Second));
        assert!(
            h.position().ends_with("turn=2 dice=- dec=11"),
            "{}",
            h.position()
        );
    }
}

#[test]
fn c7_a_die_left_with_no_move_is_lost_without_a_decision() {
    // Black on 9, 12 and 30, white on 15 and 16; black throws 1-3. The 1 must bear off the
    // pyramid on 30 first (Y7). Then the 3 has no move: 9-12 lands on black's own pyramid,
    // and 12-15 on a white pyramid made safe by its neighbour on 16 (Y4). The 3 is lost and
    // the turn passes at once; before C7 the player had to play an explicit `pass` for it.
    let mut g: AnyGame = "pyramid ........S..S..ss.............S off=-,- turn=1 dice=- dec=20"
        .parse()
        .unwrap();
    g.set_throw(Throw::dice(1, 3)).unwrap();
    assert_eq!(moves(&g), ["30-off"]);
    let e = play(&mut g, "30-off");
    assert!(!e.turn_continues && !e.has(Effect::FORFEIT));
    assert_eq!(g.status(), Status::Throw(Player::Second));
    assert!(
        g.position().ends_with("turn=2 dice=- dec=21"),
        "{}",
        g.position()
    );
    // A throw with no playable die at all is still a forfeit decision (C4).
    let mut f = at(&[(29, 'S'), (2, 's')], "turn=1 dice=3-4");
    assert!(play(&mut f, "pass").has(Effect::FORFEIT));
}

#[test]
fn c7_records_with_the_old_pass_for_a_lost_die_still_replay() {
    // A game whose first turn loses a die, finished with fixed throws; then the same record
    // as it was written before C7: an explicit `pass` after 25-27, counted as a decision.
    let start = at(&[(25, 'S'), (30, 'S'), (2, 's')], "turn=1 dice=2-3");
    let mut g = start;
    let mut rec = senet_rules::Record::new(&start, None);
    play(&mut g, "25-27");
    rec.push_move("25-27".into());
    assert_eq!(
        g.status(),
        Status::Throw(Player::Second),
        "C7: the 3 is lost"
    );
    let mut steps = 0;
    while !matches!(g.status(), Status::Over(_)) {
        steps += 1;
        assert!(steps < 100, "the game should end: {}", g.position());
        if let Status::Throw(_) = g.status() {
            g.set_throw(Throw::dice(1, 4)).unwrap();
            rec.push_throw(Throw::dice(1, 4));
        } else {
            let m = moves(&g)[0].clone();
            play(&mut g, &m);
            rec.push_move(m);
        }
    }
    rec.finish(&g);
    assert_eq!(rec.replay().unwrap().end, g, "today's record replays");

    let mut old = rec.clone();
    old.events
        .insert(1, senet_rules::Event::Move { mv: "pass".into() });
    let r = old.result.as_mut().unwrap();
    let dec = g.decisions();
    r.position = r
        .position
        .replace(&format!("dec={dec}"), &format!("dec={}", dec + 1));
    assert_ne!(r.position, rec.result.as_ref().unwrap().position);
    let replay = old.replay().expect("a record with the old pass replays");
    // The same board, with the old pass counted as the decision it was (C5).
    assert_eq!(replay.end.position(), old.result.as_ref().unwrap().position);
    assert_eq!(replay.end.decisions(), g.decisions() + 1);
    assert_eq!(replay.end.status(), g.status());
    assert_eq!(replay.moves, rec.replay().unwrap().moves);

    // A `pass` anywhere else is still checked: after a throw with a playable die it is
    // illegal.
    let mut bad = rec.clone();
    bad.result = None;
    bad.events
        .insert(2, senet_rules::Event::Move { mv: "pass".into() });
    assert!(bad.replay().is_err());
}

/// A record of `moves` played from `start` to the end of the game, with its result.
fn finished_record(start: &str, events: &[&str]) -> (senet_rules::Record, AnyGame) {
    let start: AnyGame = start.parse().unwrap();
    let mut g = start;
    let mut rec = senet_rules::Record::new(&start, None);
    for &e in events {
        if matches!(g.status(), Status::Throw(_)) {
            let t = Throw::parse(e).unwrap();
            g.set_throw(t).unwrap();
            rec.push_throw(t);
        } else {
            play(&mut g, e);
            rec.push_move(e.into());
        }
    }
    assert!(
        matches!(g.status(), Status::Over(o) if o.capped),
        "{}",
        g.position()
    );
    rec.finish(&g);
    (rec, g)
}

/// `rec` with its final position's tail `from` replaced by `to`.
fn with_end(rec: &senet_rules::Record, from: &str, to: &str) -> senet_rules::Record {
    let mut r = rec.clone();
    let res = r.result.as_mut().unwrap();
    assert!(res.position.ends_with(from), "{}", res.position);
    res.position = res.position.replace(from, to);
    r
}

#[test]
fn c5_c7_a_pyramid_game_capped_mid_turn_replays_to_its_written_position() {
    // White's first die of 1-4 is decision 12 of 12 (C5), and the other die has no move
    // (27 holds black's pyramid). C7: the die is lost and the turn passes, `turn=1 dice=-`.
    // An engine from before C7 kept it in hand for white (and 22-26 newly on the Ankh, Y8),
    // and the cap ended the game before its `pass`. Both records replay to what they hold.
    let start = "pyramid:cap=12 .....................l....S..S off=-,- turn=2 dice=1-4 dec=11";
    for (mv, old, wrong) in [
        (
            "22-26",
            "turn=2 dice=1 ankh=new dec=12",
            // The die played; the Ankh not newly reached; black's turn.
            [
                "turn=2 dice=4 dec=12",
                "turn=2 dice=1 dec=12",
                "turn=1 dice=1 dec=12",
            ],
        ),
        (
            "22-23",
            "turn=2 dice=4 dec=12",
            [
                "turn=2 dice=1 dec=12",
                "turn=2 dice=4 ankh=new dec=12",
                "turn=1 dice=4 dec=12",
            ],
        ),
    ] {
        let (rec, g) = finished_record(start, &[mv]);
        let new = "turn=1 dice=- dec=12";
        assert!(
            g.position().ends_with(new),
            "C7 at the cap: {}",
            g.position()
        );
        assert_eq!(rec.replay().unwrap().end, g, "today's record replays");

        let before = with_end(&rec, new, old);
        let r = before.replay().expect("the record from before C7 replays");
        assert_eq!(r.end.position(), before.result.as_ref().unwrap().position);
        assert_eq!(r.end.status(), g.status(), "the same capped draw");
        assert_eq!(r.end.decisions(), 12);
        assert_eq!(r.moves, 1);

        // Nothing else is accepted: not the die played, not the Ankh's state changed, not the
        // other player's turn, not both dice, and not a game that is not over.
        for bad in wrong.into_iter().chain(["turn=2 dice=1-4 dec=12"]) {
            let b = with_end(&rec, new, bad);
            let e = b.replay().expect_err(bad).to_string();
            assert!(e.contains("differs from the replay's"), "{bad}: {e}");
        }
        let mut open = before.clone();
        open.options.insert("cap".into(), serde_json::json!(13));
        open.start = Some(start.replace("cap=12", "cap=13"));
        assert!(open.replay().is_err(), "not capped: the result is refused");
    }

    // A die that can still be played stays in hand at the cap, as it always did: that record
    // holds `turn=2 dice=2`, and a claim that the turn passed is refused.
    let (rec, g) = finished_record(
        "pyramid:cap=12 ......L.L.........l...S.S..... off=S,ss turn=2 dice=2-4 dec=11",
        &["19-23"],
    );
    assert!(
        g.position().ends_with("turn=2 dice=2 dec=12"),
        "{}",
        g.position()
    );
    assert_eq!(rec.replay().unwrap().end, g);
    let passed = with_end(&rec, "turn=2 dice=2 dec=12", "turn=1 dice=- dec=12");
    assert!(passed.replay().is_err());

    // An old record with both: a `pass` for black's lost 3 (counted, C5), then white's first
    // die at the cap with the other die kept in hand.
    let old = senet_rules::Record::from_json(
        r#"{"format": "senet-record/1", "rules": "pyramid", "options": {"cap": 12},
        "start": "pyramid:cap=12 .....................l..S....S off=-,- turn=1 dice=2-3 dec=9",
        "events": [{"move": "25-27"}, {"move": "pass"}, {"throw": "1-4"}, {"move": "22-26"}],
        "result": {"winner": null, "capped": true, "score": [0, 0], "position":
        "pyramid:cap=12 .........................lS..S off=-,- turn=2 dice=1 ankh=new dec=12"}}"#,
    )
    .unwrap();
    let r = old.replay().expect("the old record with both replays");
    assert_eq!(r.end.position(), old.result.as_ref().unwrap().position);
    assert_eq!(r.moves, 2);
    assert!(matches!(r.end.status(), Status::Over(o) if o.capped));
}

#[test]
fn y3_a_throw_with_no_playable_die_is_forfeited_at_once() {
    let mut g = at(&[(29, 'S'), (2, 's')], "turn=1 dice=3-4");
    assert_eq!(moves(&g), ["pass"]);
    assert!(why(&g, "29-off").contains("(Y7)"));
    let e = play(&mut g, "pass");
    assert!(e.has(Effect::FORFEIT) && !e.turn_continues);
    assert!(g.position().ends_with("turn=2 dice=- dec=11"));
}

#[test]
fn y3_pass_is_refused_while_a_die_can_be_played() {
    let g = at(&[(5, 'S'), (20, 's')], "turn=1 dice=1-3");
    let w = why(&g, "pass");
    assert!(w.contains("C4") && w.contains("Y3"), "{w}");
}

// ---------------------------------------------------------------------------------------
// Y4: landing, safety, capture.

#[test]
fn y4_no_landing_on_ones_own_colour() {
    let g = at(&[(5, 'S'), (7, 'M'), (20, 's')], "turn=1 dice=2");
    assert_eq!(moves(&g), ["7-9"]);
    assert!(why(&g, "5-7").contains("own pyramid (Y4)"));
}

#[test]
fn y4_an_enemy_on_26_to_30_is_safe() {
    for t in 26..=30u8 {
        let from = t - 4;
        let fields = if from == 26 {
            "turn=1 dice=4 ankh=new"
        } else {
            "turn=1 dice=4"
        };
        let g = at(&[(from, 'S'), (1, 'S'), (t, 's')], fields);
        assert_eq!(moves(&g), ["1-5"], "enemy on {t}");
        let w = why(&g, &format!("{from}-{t}"));
        assert!(w.contains("26-30") && w.contains("(Y4)"), "{w}");
    }
}

#[test]
fn y4_an_enemy_with_a_neighbour_of_its_colour_is_safe_across_corners() {
    // White on 10 and 11 (consecutive across the corner, C1): both safe.
    let g = at(&[(8, 'S'), (1, 'S'), (10, 's'), (11, 's')], "turn=1 dice=3");
    assert_eq!(moves(&g), ["1-4"]);
    assert!(why(&g, "8-11").contains("next to it (Y4)"));
    let g = at(&[(7, 'S'), (1, 'S'), (10, 's'), (11, 's')], "turn=1 dice=3");
    assert!(why(&g, "7-10").contains("next to it (Y4)"));
    // A lone white pyramid is not safe.
    let g = at(&[(8, 'S'), (1, 'S'), (11, 's'), (20, 'l')], "turn=1 dice=3");
    assert_eq!(moves(&g), ["1-4", "8-11"]);
}

#[test]
fn y4_a_captured_pyramid_leaves_the_game_without_points() {
    let mut g = at(&[(8, 'S'), (11, 'm'), (20, 'l')], "turn=1 dice=3 off=M,s");
    let e = play(&mut g, "8-11");
    assert!(e.has(Effect::CAPTURE) && e.has(Effect::STEP));
    assert_eq!(
        g.position(),
        "pyramid ..........S........l.......... off=M,s turn=2 dice=- dec=11"
    );
    let c = g.census();
    assert_eq!((c[1].board, c[1].off, c[1].captured), (1, 1, 8));
    let AnyGame::Pyramid(p) = g else { panic!() };
    assert_eq!(p.score(), [3, 2]);
}

// ---------------------------------------------------------------------------------------
// Y5: blockades of three.

#[test]
fn y5_three_consecutive_enemies_cannot_be_passed_even_across_a_corner() {
    // White on 19, 20, 21 (20-21 count as consecutive, C1).
    let g = at(
        &[(18, 'S'), (1, 'S'), (19, 's'), (20, 's'), (21, 's')],
        "turn=1 dice=4",
    );
    assert_eq!(moves(&g), ["1-5"]);
    assert!(why(&g, "18-22").contains("(Y5)"));
    // Two in a row can be passed.
    let g = at(
        &[(18, 'S'), (1, 'S'), (19, 's'), (20, 's')],
        "turn=1 dice=4",
    );
    assert_eq!(moves(&g), ["1-5", "18-22"]);
    // A run of four blocks too, and so does a run only partly passed.
    let g = at(
        &[
            (16, 'S'),
            (1, 'S'),
            (17, 's'),
            (18, 's'),
            (19, 's'),
            (20, 's'),
        ],
        "turn=1 dice=2",
    );
    assert_eq!(moves(&g), ["1-3"]);
}

#[test]
fn y5_a_sides_own_run_does_not_block_it() {
    let g = at(
        &[(9, 'S'), (10, 'S'), (11, 'S'), (12, 'S'), (30, 'l')],
        "turn=1 dice=4",
    );
    assert_eq!(moves(&g), ["10-14", "11-15", "12-16", "9-13"]);
}

// ---------------------------------------------------------------------------------------
// Y6: forward only, nothing past 30.

#[test]
fn y6_no_backward_moves_and_nothing_past_30() {
    let g = at(
        &[(28, 'S'), (26, 'M'), (1, 'S'), (20, 's')],
        "turn=1 dice=4 ankh=new",
    );
    // 28 needs a 3; 26 with 4 reaches 30, the farthest square.
    assert_eq!(moves(&g), ["1-5", "26-30"]);
    assert!(why(&g, "28-off").contains("(Y7)"));
    assert!(why(&g, "28-31").contains("(Y6, Y7)"));
    assert!(why(&g, "26-25").contains("(Y6)"));
    let g = at(&[(25, 'S'), (20, 's')], "turn=1 dice=4");
    assert_eq!(moves(&g), ["25-29"]);
    assert!(why(&g, "25-off").contains("(Y6, Y7)"));
    assert!(why(&g, "25-31").contains("(Y6, Y7)"));
}

// ---------------------------------------------------------------------------------------
// Y7: numbered squares.

#[test]
fn y7_a_numbered_square_bears_off_only_with_its_number() {
    for (sq, die) in [(27u8, 4u8), (28, 3), (29, 2), (30, 1)] {
        for d in 1..=4u8 {
            let mut g = at(
                &[(sq, 'L'), (1, 'S'), (20, 's')],
                &format!("turn=1 dice={d}"),
            );
            if d == die {
                assert_eq!(moves(&g), [format!("{sq}-off")], "{sq} with {d}");
                let e = play(&mut g, &format!("{sq}-OFF"));
                assert!(e.has(Effect::BEAR_OFF));
                assert!(g.position().contains(" off=L,- "));
                let AnyGame::Pyramid(p) = g else { panic!() };
                assert_eq!(p.score(), [4, 0]);
            } else {
                assert_eq!(moves(&g), [format!("1-{}", 1 + d)], "{sq} with {d}");
                assert!(why(&g, &format!("{sq}-off")).contains("(Y7)"));
            }
        }
    }
}

#[test]
fn y7_a_bear_off_comes_before_any_other_move() {
    let mut g = at(&[(30, 'L'), (5, 'S'), (20, 's')], "turn=1 dice=1-3");
    assert_eq!(moves(&g), ["30-off"]);
    let w = why(&g, "5-8");
    assert!(
        w.contains("bear off the pyramid on 30") && w.contains("(Y7)"),
        "{w}"
    );
    assert!(why(&g, "5-6").contains("(Y7)"));
    assert!(play(&mut g, "30-off").turn_continues);
    assert_eq!(moves(&g), ["5-8"]);
}

#[test]
fn y7_two_bear_offs_may_come_in_either_order() {
    let mut g = at(
        &[(29, 'M'), (30, 'S'), (5, 'S'), (20, 's')],
        "turn=1 dice=1-2",
    );
    assert_eq!(moves(&g), ["29-off", "30-off"]);
    play(&mut g, "30-off");
    assert_eq!(moves(&g), ["29-off"]);
    play(&mut g, "29-off");
    assert!(g.position().contains(" off=MS,- "));
}

#[test]
fn y7_a_pyramid_reaching_a_numbered_square_must_bear_off_with_the_other_die() {
    let g = at(&[(25, 'S'), (5, 'S'), (20, 's')], "turn=1 dice=2-4");
    assert_eq!(moves(&g), ["25-27", "25-29", "5-7", "5-9"]);
    let mut h = g;
    play(&mut h, "25-29");
    assert_eq!(moves(&h), ["29-off"]);
    let mut h = g;
    play(&mut h, "25-27");
    assert_eq!(moves(&h), ["27-off"]);
    // A bear-off obligation is visible as the only move offered, with its die.
    let m = h.parse_move("27-off").unwrap();
    assert_eq!(h.die_used(m).as_deref(), Some("4"));
}

// ---------------------------------------------------------------------------------------
// Y8: the Ankh.

#[test]
fn y8_an_ankh_pyramid_from_an_earlier_turn_moves_before_anything_else() {
    let mut g = at(&[(26, 'S'), (5, 'S'), (20, 's')], "turn=1 dice=1-2");
    assert_eq!(moves(&g), ["26-27", "26-28"]);
    let w = why(&g, "5-6");
    assert!(w.contains("Ankh") && w.contains("(Y8)"), "{w}");
    play(&mut g, "26-27");
    assert!(!g.position().contains("ankh="));
    assert_eq!(moves(&g), ["5-7"]);
}

#[test]
fn y8_the_ankh_pyramid_takes_the_first_die_that_can_move_it() {
    // 27 holds a safe white pyramid, so only the 3 moves the Ankh pyramid.
    let mut g = at(
        &[(26, 'S'), (5, 'S'), (27, 's'), (20, 's')],
        "turn=1 dice=1-3",
    );
    assert_eq!(moves(&g), ["26-29"]);
    play(&mut g, "26-29");
    assert_eq!(moves(&g), ["5-6"]);
}

#[test]
fn y8_comes_after_y7_bear_offs_and_may_use_the_square_they_free() {
    let mut g = at(
        &[(29, 'M'), (26, 'S'), (5, 'S'), (20, 's')],
        "turn=1 dice=2-3",
    );
    assert_eq!(moves(&g), ["29-off"]);
    play(&mut g, "29-off");
    assert_eq!(moves(&g), ["26-29"]);
}

#[test]
fn y8_an_ankh_pyramid_that_cannot_move_does_not_hold_up_the_others() {
    let g = at(
        &[(26, 'S'), (5, 'S'), (27, 's'), (29, 's'), (20, 's')],
        "turn=1 dice=1-3",
    );
    assert_eq!(moves(&g), ["5-6", "5-8"]);
}

#[test]
fn y8_a_pyramid_reaching_the_ankh_is_bound_only_from_the_next_turn() {
    let mut g = at(&[(24, 'S'), (5, 'S'), (20, 's')], "turn=1 dice=1-2");
    assert_eq!(moves(&g), ["24-25", "24-26", "5-6", "5-7"]);
    play(&mut g, "24-26");
    assert!(g.position().contains(" dice=1 ankh=new "));
    // Not yet bound: the 1 may move another pyramid.
    assert_eq!(moves(&g), ["26-27", "5-6"]);
    play(&mut g, "5-6");
    assert!(!g.position().contains("ankh="));
    // White's turn, then black's: now the Ankh pyramid must move first.
    g.set_throw(Throw::dice(1, 2)).unwrap();
    play(&mut g, "20-21");
    play(&mut g, "21-23");
    g.set_throw(Throw::dice(1, 2)).unwrap();
    assert_eq!(moves(&g), ["26-27", "26-28"]);
}

#[test]
fn y8_from_26_each_die_reaches_27_to_30() {
    for d in 1..=4u8 {
        let g = at(
            &[(26, 'S'), (5, 'S'), (20, 's')],
            &format!("turn=1 dice={d}"),
        );
        assert_eq!(moves(&g), [format!("26-{}", 26 + d)]);
    }
}

// ---------------------------------------------------------------------------------------
// Y9: the end and the score.

#[test]
fn y9_bearing_off_the_last_pyramid_ends_the_game_and_sizes_score() {
    // Black: L and M off (7) plus the large on 30; white: l, m, m off (10).
    let mut g = at(&[(30, 'L'), (5, 's')], "turn=1 dice=1-2 off=LM,lmm");
    let e = play(&mut g, "30-off");
    assert!(e.has(Effect::BEAR_OFF) && !e.turn_continues);
    let o = over(&g);
    assert_eq!(o.score, Some([11, 10]));
    assert_eq!(o.winner, Some(Player::First));
    assert!(!o.capped);
    // The die left is not played; the game accepts nothing more.
    assert_eq!(g.in_hand(), None);
    assert_eq!(g.play(senet_rules::Move::PASS), Err(Error::GameOver));
    let c = g.census();
    assert_eq!((c[0].board, c[0].off, c[0].captured), (0, 3, 7));
}

#[test]
fn y9_capturing_the_last_enemy_ends_the_game_and_more_points_win() {
    let mut g = at(&[(8, 'S'), (11, 's')], "turn=1 dice=3 off=S,ll");
    play(&mut g, "8-11");
    let o = over(&g);
    assert_eq!(o.score, Some([2, 8]));
    assert_eq!(o.winner, Some(Player::Second));
}

#[test]
fn y9_equal_points_is_a_draw() {
    let mut g = at(&[(8, 'S'), (11, 's')], "turn=1 dice=3 off=L,ss");
    play(&mut g, "8-11");
    let o = over(&g);
    assert_eq!(o.score, Some([4, 4]));
    assert_eq!(o.winner, None);
    assert!(!o.capped);
    assert!(g.diagram().contains("draw on equal points 4-4"));
}

#[test]
fn y9_a_first_move_that_ends_the_game_completes_the_turn() {
    // Our reading of Y3 with Y9: 8-11 takes white's last pyramid with the 3 and ends the
    // game, so it counts as a whole turn although other orders would play both dice.
    let g = at(&[(8, 'S'), (1, 'S'), (11, 's')], "turn=1 dice=1-3");
    assert_eq!(moves(&g), ["1-2", "1-4", "8-11", "8-9"]);
    let mut h = g;
    play(&mut h, "8-11");
    assert_eq!(over(&h).winner, None);
}

#[test]
fn y9_a_game_ending_move_is_kept_even_when_nothing_could_follow_it() {
    // 22-25 takes white's last pyramid; afterwards no 4 could be played (25-29 and 21-25
    // land on black), yet it stays legal beside the orders that play both dice.
    let g = at(
        &[(21, 'S'), (22, 'S'), (29, 'S'), (25, 's')],
        "turn=1 dice=3-4",
    );
    assert_eq!(moves(&g), ["21-24", "21-25", "22-25", "22-26"]);
    let mut h = g;
    play(&mut h, "22-25");
    assert_eq!(over(&h).score, Some([0, 0]));
}

#[test]
fn y9_a_finished_position_with_no_pyramids_for_one_side_is_over() {
    let g = at(&[(8, 'S')], "turn=2 dice=- off=-,l");
    let o = over(&g);
    assert_eq!((o.winner, o.score), (Some(Player::Second), Some([0, 4])));
    let e = "pyramid .............................. off=-,- turn=1 dice=- dec=0"
        .parse::<AnyGame>()
        .unwrap_err();
    assert!(e.to_string().contains("Y9"));
}

// ---------------------------------------------------------------------------------------
// Options: the turn cap (C5).

#[test]
fn cap_option_ends_the_game_as_a_draw_that_keeps_the_scores() {
    let spec = &RuleSet::Pyramid.option_specs()[0];
    assert_eq!(spec.name, "cap");
    assert!(matches!(
        spec.kind,
        senet_rules::OptionKind::Int { default: 1000, .. }
    ));
    let mut g = AnyGame::new(RuleSet::Pyramid, &["cap=3"]).unwrap();
    assert!(g.position().starts_with("pyramid:cap=3 "));
    g.set_throw(Throw::single(2)).unwrap();
    play(&mut g, "19-21");
    g.set_throw(Throw::dice(1, 3)).unwrap();
    assert!(play(&mut g, "20-23").turn_continues);
    // The third decision reaches the cap in the middle of the turn.
    let e = play(&mut g, "18-19");
    assert!(!e.turn_continues);
    let o = over(&g);
    assert!(o.capped);
    assert_eq!((o.winner, o.score), (None, Some([0, 0])));
    let back: AnyGame = g.position().parse().unwrap();
    assert_eq!(back, g);
    assert!(AnyGame::new(RuleSet::Pyramid, &["cap=0"]).is_err());
}

// ---------------------------------------------------------------------------------------
// Notation and move strings.

#[test]
fn notation_round_trips_and_rejects_malformed_positions_with_a_reason() {
    for text in [
        "pyramid LlLlMmMmMmSsSsSsSsSs.......... off=-,- turn=1 dice=- opening=1 dec=0",
        "pyramid .s.......................S.... off=-,- turn=1 dice=2 ankh=new dec=11",
        "pyramid:cap=50 ..M..l.....s..............S..s off=LS,mm turn=2 dice=1-4 dec=40",
    ] {
        let g: AnyGame = text.parse().unwrap();
        assert_eq!(g.position(), text);
    }
    // Input in any order, printed in one order.
    let g: AnyGame = "pyramid ..M..l..........s............. dec=3 dice=4-1 turn=2 off=SL,-"
        .parse()
        .unwrap();
    assert_eq!(
        g.position(),
        "pyramid ..M..l..........s............. off=LS,- turn=2 dice=1-4 dec=3"
    );
    let ok = "..M..l..........s...........";
    for (text, expect) in [
        ("pyramid", "lacks the board"),
        ("pyramid LlLl off=-,- turn=1 dice=- dec=0", "30 squares"),
        (
            &format!("pyramid X.{ok} off=-,- turn=1 dice=- dec=0"),
            "holds 'X'",
        ),
        (
            &format!("pyramid {} off=-,- turn=1 dice=- dec=0", ".".repeat(30)),
            "Y9",
        ),
        (
            &format!("pyramid L.{ok} off=l,- turn=1 dice=- dec=0"),
            "not a letter of black",
        ),
        (
            &format!("pyramid L.{ok} off=- turn=1 dice=- dec=0"),
            "field off",
        ),
        (
            &format!("pyramid L.{ok} off=-,- turn=3 dice=- dec=0"),
            "turn must be 1 or 2",
        ),
        (
            &format!("pyramid L.{ok} off=-,- turn=1 dice=5 dec=0"),
            "dice=5",
        ),
        (
            &format!("pyramid L.{ok} off=-,- turn=1 dice=2-7 dec=0"),
            "dice=2-7",
        ),
        (
            &format!("pyramid L.{ok} off=-,- turn=1 dice=x dec=0"),
            "dice=x",
        ),
        (
            &format!("pyramid L.{ok} off=-,- turn=1 dec=0"),
            "field dice=",
        ),
        (
            &format!("pyramid L.{ok} off=-,- turn=2 dice=- opening=1 dec=0"),
            "opening=1",
        ),
        (
            &format!("pyramid L.{ok} off=-,- turn=1 dice=3 opening=1 dec=0"),
            "opening=1",
        ),
        (
            &format!("pyramid L.{ok} off=-,- turn=1 dice=- opening=2 dec=0"),
            "opening",
        ),
        (
            &format!("pyramid L.{ok} off=-,- turn=1 dice=3 ankh=new dec=0"),
            "ankh=new",
        ),
        (
            &format!("pyramid L.{ok} off=-,- turn=1 dice=- dec=0 x=1"),
            "unknown field",
        ),
        (
            &format!("pyramid L.{ok} off=-,- turn=1 dice=- dec=-1"),
            "dec",
        ),
        (
            &format!("pyramid:cap=0 L.{ok} off=-,- turn=1 dice=- dec=0"),
            "cap",
        ),
    ] {
        match text.parse::<AnyGame>() {
            Err(e @ (Error::Position(_) | Error::Options(_))) => {
                assert!(e.to_string().contains(expect), "{text}: {e}")
            }
            other => panic!("{text}: expected an error, got {other:?}"),
        }
    }
}

#[test]
fn move_strings_are_case_insensitive_and_name_their_die() {
    let g = at(&[(30, 'S'), (20, 's')], "turn=1 dice=1-2");
    let m = g.parse_move("30-OFF").unwrap();
    assert_eq!(g.move_string(m), "30-off");
    assert_eq!(g.die_used(m).as_deref(), Some("1"));
    assert_eq!(g.square_name(m.to), "off");
    for bad in [
        "", "x", "30", "30-", "-off", "99999-1", "0-1", "31-off", "12-15-18",
    ] {
        assert!(
            matches!(g.parse_move(bad), Err(Error::Move(w)) if !w.is_empty()),
            "{bad}"
        );
    }
    // Moves on a position awaiting a throw are refused.
    let h = at(&[(30, 'S'), (20, 's')], "turn=1 dice=-");
    assert!(h.parse_move("30-off").is_err());
}

// ---------------------------------------------------------------------------------------
// A brute-force reference of one decision (Y2-Y9), written square by square from the
// rulings, compared with the engine on many positions from random games.

#[derive(Clone)]
struct Ref {
    sq: [u8; 31], // 0 empty, 1 black, 2 white
    me: u8,
    dice: Vec<u8>,
    ankh_new: bool,
}

impl Ref {
    fn from_position(p: &str) -> Ref {
        let toks: Vec<&str> = p.split_whitespace().collect();
        let mut sq = [0u8; 31];
        for (i, c) in toks[1].chars().enumerate() {
            sq[i + 1] = match c {
                '.' => 0,
                c if c.is_ascii_uppercase() => 1,
                _ => 2,
            };
        }
        let field = |k: &str| {
            toks.iter()
                .find_map(|t| t.strip_prefix(&format!("{k}=")))
                .map(String::from)
        };
        let me = field("turn").unwrap().parse().unwrap();
        let dice = field("dice")
            .unwrap()
            .split('-')
            .map(|d| d.parse().unwrap())
            .collect();
        Ref {
            sq,
            me,
            dice,
            ankh_new: field("ankh").is_some(),
        }
    }

    fn opp(&self) -> u8 {
        3 - self.me
    }

    fn in_run_of_three(&self, x: usize, who: u8) -> bool {
        (x.saturating_sub(2)..=x)
            .any(|a| a >= 1 && a + 2 <= 30 && (a..a + 3).all(|y| self.sq[y] == who))
    }

    /// The one move of the pyramid on `s` with die `d`, before the orders of Y7 and Y8.
    fn step(&self, s: usize, d: usize) -> Option<(usize, usize, usize)> {
        if (27..=30).contains(&s) {
            return (d == 31 - s).then_some((s, 31, d));
        }
        let t = s + d;
        if t > 30 {
            return None;
        }
        if (s + 1..t).any(|x| self.in_run_of_three(x, self.opp())) {
            return None;
        }
        if self.sq[t] == self.me {
            return None;
        }
        if self.sq[t] == self.opp()
            && (t >= 26 || self.sq[t - 1] == self.opp() || (t < 30 && self.sq[t + 1] == self.opp()))
        {
            return None;
        }
        Some((s, t, d))
    }

    fn decision(&self, dice: &[u8]) -> Vec<(usize, usize, usize)> {
        let mut all = Vec::new();
        for s in 1..=30 {
            if self.sq[s] != self.me {
                continue;
            }
            let mut ds = dice.to_vec();
            ds.dedup();
            for &d in &ds {
                all.extend(self.step(s, d as usize));
            }
        }
        let bear: Vec<_> = all.iter().copied().filter(|m| m.1 == 31).collect();
        if !bear.is_empty() {
            return bear;
        }
        if !self.ankh_new && self.sq[26] == self.me {
            let ankh: Vec<_> = all.iter().copied().filter(|m| m.0 == 26).collect();
            if !ankh.is_empty() {
                return ankh;
            }
        }
        all
    }

    fn after(&self, m: (usize, usize, usize)) -> Ref {
        let mut r = self.clone();
        r.sq[m.0] = 0;
        if m.1 <= 30 {
            r.sq[m.1] = r.me;
        }
        if m.1 == 26 {
            r.ankh_new = true;
        }
        let i = r.dice.iter().position(|&d| d as usize == m.2).unwrap();
        r.dice.remove(i);
        r
    }

    fn over(&self) -> bool {
        !(1..=30).any(|s| self.sq[s] == 1) || !(1..=30).any(|s| self.sq[s] == 2)
    }

    fn legal(&self) -> Vec<String> {
        let mut c = self.decision(&self.dice);
        if self.dice.len() == 2 {
            let both: Vec<_> = c
                .iter()
                .copied()
                .filter(|&m| {
                    let r = self.after(m);
                    r.over() || !r.decision(&r.dice).is_empty()
                })
                .collect();
            if !both.is_empty() {
                c = both;
            }
        }
        let mut v: Vec<String> = c
            .iter()
            .map(|&(f, t, _)| {
                if t == 31 {
                    format!("{f}-off")
                } else {
                    format!("{f}-{t}")
                }
            })
            .collect();
        if v.is_empty() {
            v.push("pass".into());
        }
        v.sort();
        v
    }
}

#[test]
fn y3_whole_turn_moves_match_a_brute_force_reference() {
    let AnyGame::Pyramid(start) = start() else {
        panic!()
    };
    let n = if cfg!(debug_assertions) { 4000 } else { 40000 };
    let mut checked = 0;
    let mut filtered = 0;
    // Every position awaiting a throw, with every throw; and every one awaiting a move.
    let mut positions: Vec<AnyGame> = corpus(&start, 1, n, true)
        .into_iter()
        .flat_map(|p| {
            let g = AnyGame::from(p);
            g.throw_dist()
                .outcomes
                .iter()
                .map(move |(t, _)| {
                    let mut h = g;
                    h.set_throw(*t).unwrap();
                    h
                })
                .collect::<Vec<_>>()
        })
        .collect();
    positions.extend(corpus(&start, 1, n, false).into_iter().map(AnyGame::from));
    for g in positions {
        if !matches!(g.status(), Status::Move(_)) {
            continue;
        }
        let r = Ref::from_position(&g.position());
        let want = r.legal();
        assert_eq!(moves(&g), want, "at {}", g.position());
        if r.dice.len() == 2 && r.decision(&r.dice).len() != want.len() {
            filtered += 1;
        }
        checked += 1;
    }
    assert!(checked > 2 * n, "{checked}");
    // The corpus must exercise the whole-turn filter.
    assert!(filtered > 20, "Y3 filtered only {filtered} positions");
}

// ---------------------------------------------------------------------------------------
// Fuzzing: mangled positions and move strings never panic; what parses round-trips.

#[test]
fn fuzz_mangled_positions_and_moves_never_panic() {
    let AnyGame::Pyramid(start) = start() else {
        panic!()
    };
    let bases: Vec<String> = corpus(&start, 7, 300, false)
        .into_iter()
        .map(|p| AnyGame::from(p).position())
        .collect();
    let alphabet: Vec<char> = "LMSlms.-,=0123456789 abcdefghijklmnopqrstuvwxyz:"
        .chars()
        .collect();
    let mut rng = SplitMix(42);
    let mut parsed = 0;
    for i in 0..20_000 {
        let mut chars: Vec<char> = bases[i % bases.len()].chars().collect();
        for _ in 0..1 + rng.below(3) {
            let k = rng.below(chars.len());
            match rng.below(3) {
                0 => chars[k] = alphabet[rng.below(alphabet.len())],
                1 => {
                    chars.remove(k);
                }
                _ => chars.insert(k, alphabet[rng.below(alphabet.len())]),
            }
        }
        let text: String = chars.into_iter().collect();
        if let Ok(g) = text.parse::<AnyGame>() {
            parsed += 1;
            g.check_invariants()
                .unwrap_or_else(|e| panic!("{text}: parsed into a broken state: {e}"));
            let back: AnyGame = g.position().parse().unwrap();
            assert_eq!(back, g, "{text}");
            let mut ms = MoveList::new();
            g.legal_moves(&mut ms);
            let _ = g.diagram();
            for t in ["1-2", "26-30", "30-off", "pass", "27-31", "255-1", "1-255"] {
                let _ = g.parse_move(t);
            }
        }
    }
    assert!(parsed > 200, "only {parsed} mangled positions parsed");
}
