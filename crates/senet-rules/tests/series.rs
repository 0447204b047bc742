//! Series of games (issue 13): the points of a game by ruling (P11, S12, Y9, and 1 for a win
//! elsewhere), the running score, who starts, the series record and its replay checks.

use senet_rules::series::{
    by_seat, draw_first, game_points, is_series, scores, standing, Series, Starts, Target,
};
use senet_rules::Notation;
use senet_rules::{AnyGame, Error, Game, MoveList, Outcome, Player, Record, RuleSet, Status};

fn over(g: &AnyGame) -> Outcome {
    match g.status() {
        Status::Over(o) => o,
        s => panic!("not over: {s:?}"),
    }
}

fn play(g: &mut AnyGame, m: &str) {
    let mv = g.parse_move(m).unwrap();
    g.play(mv).unwrap();
}

fn pos(s: &str) -> AnyGame {
    s.parse().unwrap()
}

/// A whole game of uniformly random play from the rule set's start (a small xorshift: the
/// rules crate has no random number generator).
fn random_record(start: AnyGame, seed: u64) -> Record {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x >> 32) as u32
    };
    let mut rec = Record::new(&start, Some(seed));
    let mut g = start;
    let mut ms = MoveList::new();
    loop {
        match g.status() {
            Status::Throw(_) => {
                let t = g.throw_dist().sample(next());
                g.set_throw_unchecked(t);
                rec.push_throw(t);
            }
            Status::Move(_) => {
                ms.clear();
                g.legal_moves(&mut ms);
                let m = ms[((next() as u64 * ms.len() as u64) >> 32) as usize];
                rec.push_move(g.move_string(m));
                g.play_unchecked(m);
            }
            Status::Over(_) => break,
        }
    }
    rec.finish(&g);
    rec
}

/// Plays a whole series of random games.
fn random_series(rules: RuleSet, options: &[&str], target: Target, starts: Starts) -> Series {
    let mut s = Series::new(rules, options, target, starts, Some(7)).unwrap();
    let start = s.start_position().unwrap();
    let mut i = 0;
    while !s.standing().over {
        let first = s.first_seat(i, || draw_first(7, i) == 1);
        s.push_game(first, Some(i as u64)).unwrap();
        s.update_last(random_record(start, 1000 + i as u64))
            .unwrap();
        i += 1;
    }
    s
}

// ------------------------------------------------------------------ points of one game

#[test]
fn p11_series_points_are_the_winners_saved_pegs() {
    // Pharaoh and two men left: 25 + 2 * 10 = 45 for the winner, nothing for the loser.
    let mut g = pos("parker ........../.......o.x/X....x.... turn=1 throw=2 dec=40");
    play(&mut g, "j2-h2");
    let p = game_points(&over(&g));
    assert_eq!(p, [45, 0]);
    // Seat 2 played the first player (red) in this game: the points go to seat 2.
    assert_eq!(by_seat(2, p), [0, 45]);
    // All five saved: doubled, (25 + 40) * 2 = 130.
    let mut g = pos("parker ........../.......o.x/Xxxx...... turn=1 throw=2 dec=40");
    play(&mut g, "j2-h2");
    assert_eq!(game_points(&over(&g)), [130, 0]);
    // The Pharaoh matters for points, not only for winning: men only, 10 each.
    let mut g = pos("parker ........../.......o.x/.x.x...... turn=1 throw=2 dec=40");
    play(&mut g, "j2-h2");
    assert_eq!(game_points(&over(&g)), [30, 0]);
    assert!(scores(
        &AnyGame::new(RuleSet::Parker, &[] as &[&str]).unwrap()
    ));
}

#[test]
fn p11_and_c5_a_capped_game_scores_nothing() {
    let mut g = pos("parker:cap=11 .........O/x..x....../.......... turn=1 throw=1-2 dec=10");
    play(&mut g, "a2-a1");
    let o = over(&g);
    assert!(o.capped);
    assert_eq!(game_points(&o), [0, 0]);
}

#[test]
fn s12_series_with_option_score_counts_opposing_pieces_on_the_board() {
    let mut g =
        pos("senat:score=true .OOO........................X. off=4,2 turn=1 throw=2 dec=99");
    play(&mut g, "29-off");
    assert_eq!(game_points(&over(&g)), [3, 0]);
    assert!(scores(&g));
    // Without the option a senat series counts games won: 1 for the win.
    let mut g = pos("senat .OOO........................X. off=4,2 turn=1 throw=2 dec=99");
    play(&mut g, "29-off");
    assert_eq!(game_points(&over(&g)), [1, 0]);
    assert!(!scores(&g));
}

#[test]
fn y9_series_adds_both_sides_pyramid_points() {
    // Black's last pyramid bears off: black 11 (L, M off and the L from 30), white 10
    // (l, m, m off); both sides' points count in a series, the loser's too.
    let mut g = pos("pyramid ....s........................L turn=1 dice=1-2 off=LM,lmm dec=10");
    play(&mut g, "30-off");
    let o = over(&g);
    assert_eq!(o.winner, Some(Player::First));
    assert_eq!(game_points(&o), [11, 10]);
    assert_eq!(by_seat(2, game_points(&o)), [10, 11]);
    // Equal points (a Y9 draw): both still score.
    let mut g = pos("pyramid .......S..s................... turn=1 dice=3 off=L,ss dec=10");
    play(&mut g, "8-11");
    let o = over(&g);
    assert_eq!((o.winner, game_points(&o)), (None, [4, 4]));
}

#[test]
fn games_won_where_the_rule_set_does_not_score() {
    for r in [RuleSet::Kendall, RuleSet::Kendall5, RuleSet::Houses] {
        let start = AnyGame::new(r, &[] as &[&str]).unwrap();
        assert!(!scores(&start));
        let rec = random_record(start, 3);
        let end = rec.replay().unwrap().end;
        let o = over(&end);
        let p = game_points(&o);
        match o.winner {
            Some(Player::First) => assert_eq!(p, [1, 0]),
            Some(Player::Second) => assert_eq!(p, [0, 1]),
            None => assert_eq!(p, [0, 0]),
        }
    }
}

// ------------------------------------------------------------------ standing and starts

#[test]
fn a_series_to_n_points_ends_when_a_seat_reaches_n_ahead() {
    let t = Target::Points(3);
    assert!(!standing(t, [2, 1], 3).over);
    let s = standing(t, [3, 1], 4);
    assert!(s.over);
    assert_eq!(s.winner, Some(1));
    let s = standing(t, [0, 4], 4);
    assert_eq!((s.over, s.winner), (true, Some(2)));
    // Y9 scores both sides: level at or past the target, the series goes on.
    assert!(!standing(Target::Points(10), [12, 12], 2).over);
}

#[test]
fn a_series_of_n_games_ends_after_n_games_and_may_be_drawn() {
    let t = Target::Games(2);
    assert!(!standing(t, [1, 0], 1).over);
    let s = standing(t, [1, 1], 2);
    assert_eq!((s.over, s.winner), (true, None));
}

#[test]
fn alternate_starts_swap_the_seats_and_rules_starts_draw() {
    let s = Series::new(
        RuleSet::Kendall,
        &[] as &[&str],
        Target::Games(4),
        Starts::Alternate,
        None,
    )
    .unwrap();
    let firsts: Vec<u8> = (0..4).map(|i| s.first_seat(i, || unreachable!())).collect();
    assert_eq!(firsts, [1, 2, 1, 2]);
    let s = Series::new(
        RuleSet::Senat,
        &[] as &[&str],
        Target::Games(4),
        Starts::Rules,
        None,
    )
    .unwrap();
    assert_eq!(s.first_seat(0, || false), 2);
    assert_eq!(s.first_seat(0, || true), 1);
    // P3: in parker the dice-off inside each game decides who starts; the seats keep colours.
    let s = Series::new(
        RuleSet::Parker,
        &[] as &[&str],
        Target::Games(4),
        Starts::Rules,
        None,
    )
    .unwrap();
    assert_eq!(s.first_seat(1, || false), 1);
    // The seeded draw is fair-ish and reproducible.
    let ones = (0..1000).filter(|&i| draw_first(1, i) == 1).count();
    assert!((430..570).contains(&ones), "{ones}");
    assert_eq!(draw_first(5, 3), draw_first(5, 3));
}

// ------------------------------------------------------------------ records

#[test]
fn every_rule_set_plays_a_series_that_replays_and_round_trips() {
    for &r in RuleSet::ALL {
        for starts in [Starts::Alternate, Starts::Rules] {
            let s = random_series(r, &[], Target::Points(2), starts);
            let rep = s.replay().unwrap_or_else(|e| panic!("{r}: {e}"));
            assert!(rep.standing.over);
            let res = s.result.clone().expect("a result");
            assert_eq!(res.score, rep.standing.score);
            assert_eq!(Some(res.score), s.games.last().unwrap().score);
            let sum = s.games.iter().fold([0, 0], |a, g| {
                let p = g.points.unwrap();
                [a[0] + p[0], a[1] + p[1]]
            });
            assert_eq!(sum, res.score);
            let text = s.to_json();
            assert!(is_series(&text));
            let back = Series::from_json(&text).unwrap();
            assert_eq!(back, s);
            back.replay().unwrap();
        }
    }
}

#[test]
fn scoring_rule_sets_add_their_points_over_a_series() {
    // P11, S12 (option score) and Y9: the running score is the sum of the games' points.
    for (r, opts) in [
        (RuleSet::Parker, vec![]),
        (RuleSet::Senat, vec!["score=true"]),
        (RuleSet::Pyramid, vec![]),
    ] {
        let s = random_series(r, &opts, Target::Games(3), Starts::Alternate);
        let mut run = [0, 0];
        for g in &s.games {
            let end = g.record.replay().unwrap().end;
            let p = by_seat(g.first, game_points(&over(&end)));
            run = [run[0] + p[0], run[1] + p[1]];
            assert_eq!(g.score, Some(run));
        }
        assert_eq!(s.games.len(), 3);
        assert!(run[0] + run[1] > 3, "{r}: points, not games won: {run:?}");
    }
}

#[test]
fn an_unfinished_last_game_is_a_series_still_going() {
    let mut s = Series::new(
        RuleSet::Kendall5,
        &[] as &[&str],
        Target::Points(2),
        Starts::Alternate,
        None,
    )
    .unwrap();
    s.push_game(1, None).unwrap();
    let start = s.start_position().unwrap();
    let mut rec = random_record(start, 1);
    rec.result = None;
    rec.events.truncate(6);
    s.update_last(rec).unwrap();
    assert!(s.current().is_some());
    let r = s.replay().unwrap();
    assert!(!r.standing.over);
    assert_eq!(r.games[0].1, None);
    // No next game before this one is over.
    let e = s.push_game(2, None).unwrap_err();
    assert!(e.to_string().contains("not over yet"), "{e}");
    let back = Series::from_json(&s.to_json()).unwrap();
    assert_eq!(back, s);
}

#[test]
fn corrupt_series_records_are_errors_that_say_what_is_wrong() {
    let s = random_series(RuleSet::Kendall, &[], Target::Points(2), Starts::Alternate);
    let err = |s: &Series| s.replay().unwrap_err().to_string();

    let mut bad = s.clone();
    bad.games[0].first = 2;
    assert!(
        err(&bad).contains("game 1: seat 2 plays the first player"),
        "{}",
        err(&bad)
    );

    let mut bad = s.clone();
    bad.games[0].points = Some([5, 5]);
    assert!(
        err(&bad).contains("game 1: the record says points"),
        "{}",
        err(&bad)
    );

    let mut bad = s.clone();
    bad.result.as_mut().unwrap().winner = Some(3);
    assert!(err(&bad).contains("series result"), "{}", err(&bad));

    let mut bad = s.clone();
    bad.games[0].record.events.truncate(3);
    bad.games[0].record.result = None;
    assert!(err(&bad).contains("game 1:"), "{}", err(&bad));

    let mut bad = s.clone();
    bad.games.push(bad.games[0].clone());
    assert!(err(&bad).contains("already over"), "{}", err(&bad));

    let mut bad = s.clone();
    bad.games[0].record.rules = "kendall5".into();
    assert!(err(&bad).contains("game 1:"), "{}", err(&bad));

    let mut bad = s.clone();
    if let senet_rules::Event::Move { mv } = &mut bad.games[0].record.events[1] {
        *mv = "1-2".into();
    }
    assert!(
        err(&bad).starts_with("bad record: game 1: event 2 (move 1)"),
        "{}",
        err(&bad)
    );

    for text in [
        "",
        "{}",
        "[1]",
        r#"{"format":"senet-series/2","rules":"kendall","target":{"points":3},"games":[]}"#,
        r#"{"format":"senet-series/1","rules":"nope","target":{"points":3},"games":[]}"#,
        r#"{"format":"senet-series/1","rules":"kendall","target":{"goals":3},"games":[]}"#,
        r#"{"format":"senet-series/1","rules":"kendall","target":{"points":0},"games":[]}"#,
        r#"{"format":"senet-series/1","rules":"kendall","target":{"points":3},"starts":"loser","games":[]}"#,
    ] {
        let r = Series::from_json(text).and_then(|s| s.replay().map(|_| ()));
        assert!(matches!(r, Err(Error::Record(_))), "{text}: {r:?}");
    }
}

#[test]
fn bad_series_settings_are_errors() {
    assert!(Series::new(
        RuleSet::Kendall,
        &[] as &[&str],
        Target::Points(0),
        Starts::Alternate,
        None
    )
    .is_err());
    assert!(Series::new(
        RuleSet::Kendall,
        &["nope=1"],
        Target::Points(3),
        Starts::Alternate,
        None
    )
    .is_err());
    assert!("loser".parse::<Starts>().is_err());
    assert_eq!("rules".parse::<Starts>().unwrap(), Starts::Rules);
}
