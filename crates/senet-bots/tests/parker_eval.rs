//! The `parker` evaluator (`senet_bots::parker`): bounds, the board's half-turn symmetry,
//! material, exposure, and that greedy play with it takes a capture.

use senet_bots::eval::Evaluator;
use senet_bots::parker::PARKER;
use senet_bots::BotSpec;
use senet_rules::conformance::corpus;
use senet_rules::{AnyGame, Game, Options, Parker, Status};
use senet_rules::{Metrics, Notation};

fn parker(pos: &str) -> Parker {
    match pos.parse::<AnyGame>().unwrap() {
        AnyGame::Parker(g) => g,
        g => panic!("not a parker position: {}", g.position()),
    }
}

fn eval(pos: &str) -> f64 {
    PARKER.eval(&parker(pos))
}

/// The same position with the players' seats swapped (the board turned half round, P1):
/// every row reversed, rows 1 and 3 swapped, X/x and O/o swapped, and the other player's turn.
fn mirror(pos: &str) -> String {
    let mut out = Vec::new();
    for (k, tok) in pos.split_whitespace().enumerate() {
        out.push(match (k, tok) {
            (1, board) => board
                .chars()
                .rev()
                .map(|c| match c {
                    'X' => 'O',
                    'O' => 'X',
                    'x' => 'o',
                    'o' => 'x',
                    c => c,
                })
                .collect(),
            (_, "turn=1") => "turn=2".to_string(),
            (_, "turn=2") => "turn=1".to_string(),
            (_, t) => t.to_string(),
        });
    }
    out.join(" ")
}

/// Positions before a throw and awaiting a move, from seeded random games.
fn positions() -> Vec<Parker> {
    let start = Parker::start(&Options::defaults(Parker::option_specs()));
    let mut v = corpus(&start, 3, 400, true);
    v.extend(corpus(&start, 3, 400, false));
    v
}

#[test]
fn values_lie_strictly_between_0_and_1() {
    for g in positions() {
        let v = PARKER.eval(&g);
        assert!(v > 0.0 && v < 1.0, "{} -> {v}", g.position());
    }
}

#[test]
fn the_mirrored_position_with_the_other_player_to_throw_is_worth_1_minus_v() {
    let start = ".....ooooO/........../Xxxxx..... turn=1 throw=- dec=0";
    let v = eval(&format!("parker {start}"));
    let w = eval(&mirror(&format!("parker {start}")));
    assert!((v + w - 1.0).abs() < 1e-12, "{v} {w}");
    assert!(v > 0.5, "the side to throw has the tempo: {v}");
    let mut n = 0;
    for g in positions() {
        let pos = g.position();
        if pos.contains("turn=-") {
            continue; // the dice-off: nobody's turn yet
        }
        let m = mirror(&pos);
        assert_eq!(mirror(&m), pos);
        let w = eval(&m);
        let v = PARKER.eval(&g);
        assert!((v + w - 1.0).abs() < 1e-9, "{pos}: {v}, mirrored {m}: {w}");
        n += 1;
    }
    assert!(n > 700, "{n}");
}

#[test]
fn more_pegs_is_better_and_the_pharaoh_is_worth_more_than_a_man() {
    let full = "parker .....ooooO/........../Xxxxx..... turn=2 throw=- dec=10";
    let man_down = "parker ......oooO/........../Xxxxx..... turn=2 throw=- dec=10";
    let pharaoh_down = "parker .....oooo./........../Xxxxx..... turn=2 throw=- dec=10";
    let two_down = "parker .......ooO/........../Xxxxx..... turn=2 throw=- dec=10";
    assert!(eval(man_down) > eval(full));
    assert!(eval(two_down) > eval(man_down));
    assert!(eval(pharaoh_down) > eval(man_down));
    assert!(eval(pharaoh_down) > 0.6, "{}", eval(pharaoh_down));
    // The same for the second player.
    assert!(eval(&mirror(man_down)) < eval(&mirror(full)));
}

#[test]
fn an_exposed_peg_is_worse_than_a_safe_one() {
    // Player 1's man on e2 (its index 15, player 2's index 14) with player 2's man on c2
    // (player 2's index 12, two spaces behind) and player 2 to throw; then the same man on f1
    // (index 5, its own safety row, P2), out of reach.
    let exposed = "parker ......oooO/..o.x...../Xxxx...... turn=2 throw=- dec=20";
    let safe = "parker ......oooO/..o......./Xxxx.x.... turn=2 throw=- dec=20";
    assert!(
        eval(exposed) < eval(safe),
        "{} {}",
        eval(exposed),
        eval(safe)
    );
    // The Pharaoh exposed is worse than a man exposed.
    let pharaoh = "parker ......oooO/..o.X...../xxxx...... turn=2 throw=- dec=20";
    let pharaoh_safe = "parker ......oooO/..o......./xxxx.X.... turn=2 throw=- dec=20";
    assert!(
        eval(pharaoh_safe) - eval(pharaoh) > eval(safe) - eval(exposed),
        "{} {} {} {}",
        eval(pharaoh_safe),
        eval(pharaoh),
        eval(safe),
        eval(exposed)
    );
    // With player 1 to throw the facing pegs threaten each other, and player 1 shoots first.
    let shot = "parker ......oooO/..o.x...../Xxxx...... turn=1 throw=- dec=20";
    assert!(eval(shot) > eval(exposed));
    assert!(eval(shot) > 0.5);
}

#[test]
fn a_peg_waiting_for_a_one_is_a_burden() {
    // Player 1's man on a2 (index 19) waits for a One (P8); on a sheltered safety space it
    // would not.
    let waiting = "parker ..ooo....O/x........./X.xxx..... turn=1 throw=- dec=30";
    let moving = "parker ..ooo....O/........../Xxxxx..... turn=1 throw=- dec=30";
    assert!(
        eval(waiting) < eval(moving),
        "{} {}",
        eval(waiting),
        eval(moving)
    );
}

/// Plays a whole turn of `bot` and returns the position after it.
fn play_turn(bot: &str, pos: &str) -> AnyGame {
    let mut g: AnyGame = pos.parse().unwrap();
    let me = g.status().player().unwrap();
    let mut b = bot.parse::<BotSpec>().unwrap().build();
    while g.status() == Status::Move(me) {
        let c = b.choose(&g, 1);
        g.play(c.best).unwrap();
    }
    g
}

#[test]
fn greedy_takes_a_capture() {
    // Player 1's man on h2 (index 12) and player 2's man on e2 (player 1's index 15): a 3,
    // by one die or the total, captures (P9).
    for throw in ["1-2", "3-5", "3-6"] {
        let pos = format!("parker ......oooO/....o..x../Xxxx...... turn=1 throw={throw} dec=20");
        for bot in ["greedy", "expectimax:1"] {
            let g = play_turn(bot, &pos);
            assert_eq!(
                g.census()[1].captured,
                1,
                "{bot} with {throw}: {}",
                g.position()
            );
        }
    }
}
