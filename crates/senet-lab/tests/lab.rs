//! Lab measurements on hand-made records, the statistics, and the report files.

use senet_lab::{measure, Rate, RuleSetReport, Summary};
use senet_rules::Notation;
use senet_rules::{AnyGame, Record, RuleSet, Throw};

#[test]
fn measuring_counts_swaps_bonus_and_forfeits() {
    // Build the game by playing it, so the record is legal by construction.
    let start: AnyGame = "kendall5 X...O.......................XO off=3,3 turn=1 throw=- dec=0"
        .parse()
        .unwrap();
    let mut g = start;
    let mut r = Record::new(&start, Some(9));
    let mut step = |g: &mut AnyGame, t: &str, m: &str| {
        g.set_throw(Throw::parse(t).unwrap()).unwrap();
        r.push_throw(Throw::parse(t).unwrap());
        let mv = g.parse_move(m).unwrap();
        senet_rules::Game::play(g, mv).unwrap();
        r.push_move(m.into());
    };
    use senet_rules::Game;
    step(&mut g, "4", "1-5"); // swap: the O goes to 1; 4 throws again
    step(&mut g, "2", "29-off"); // bear off; the turn passes
    step(&mut g, "1", "30-off"); // O bears off; 1 throws again
    step(&mut g, "2", "1-3"); // the turn passes
    step(&mut g, "3", "5-8"); // the turn passes
    let s = measure(&r).err();
    assert!(
        s.is_some(),
        "the game is not over yet, so measuring must refuse it"
    );
    // Finish: X on 13 needs to reach 26 then off; play random legal moves to the end.
    let mut rng = senet_rules::conformance::SplitMix(5);
    let mut ms = senet_rules::MoveList::new();
    loop {
        match g.status() {
            senet_rules::Status::Throw(_) => {
                let t = g.throw_dist().sample(rng.next_u32());
                g.set_throw(t).unwrap();
                r.push_throw(t);
            }
            senet_rules::Status::Move(_) => {
                ms.clear();
                g.legal_moves(&mut ms);
                let m = ms[rng.below(ms.len())];
                r.push_move(g.move_string(m));
                g.play(m).unwrap();
            }
            senet_rules::Status::Over(_) => break,
        }
    }
    let s = measure(&r).unwrap();
    assert!(s.swaps >= 1);
    assert!(s.bonus >= 2);
    assert_eq!(
        s.decisions as usize,
        r.events
            .iter()
            .filter(|e| matches!(e, senet_rules::Event::Move { .. }))
            .count()
    );
    assert!(s.turns >= 3 && s.turns <= s.decisions);
    assert!(s.winner.is_some());
}

#[test]
fn summary_and_wilson_interval() {
    let s = Summary::of(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    assert_eq!((s.mean, s.median, s.p90), (5.5, 5.0, 9.0));
    let r = Rate::wilson(50.0, 100.0);
    assert!((r.rate - 0.5).abs() < 1e-12);
    assert!(
        (r.low - 0.4038).abs() < 1e-3 && (r.high - 0.5962).abs() < 1e-3,
        "{r:?}"
    );
    let r = Rate::wilson(0.0, 10.0);
    assert_eq!(r.low, 0.0);
}

#[test]
fn report_files_are_complete_and_plots_are_valid_svg() {
    let games: Vec<_> = (1..=20u64)
        .map(|seed| {
            let start = AnyGame::new(RuleSet::Kendall, &[] as &[&str]).unwrap();
            let mut g = start;
            let mut r = Record::new(&start, Some(seed));
            let mut rng = senet_rules::conformance::SplitMix(seed);
            let mut ms = senet_rules::MoveList::new();
            use senet_rules::Game;
            loop {
                match g.status() {
                    senet_rules::Status::Throw(_) => {
                        let t = g.throw_dist().sample(rng.next_u32());
                        g.set_throw(t).unwrap();
                        r.push_throw(t);
                    }
                    senet_rules::Status::Move(_) => {
                        ms.clear();
                        g.legal_moves(&mut ms);
                        let m = ms[rng.below(ms.len())];
                        r.push_move(g.move_string(m));
                        g.play(m).unwrap();
                    }
                    senet_rules::Status::Over(_) => break,
                }
            }
            measure(&r).unwrap()
        })
        .collect();
    let rep = RuleSetReport::new(
        "kendall",
        vec![],
        ["random".into(), "random".into()],
        &games,
    );
    assert_eq!(rep.games, 20);
    let dir = std::env::temp_dir().join(format!("senet-lab-{}", std::process::id()));
    senet_lab::write(&dir, "Lab", "test", &[rep.clone(), rep]).unwrap();
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(md.contains("| kendall | random vs random | 20 |"), "{md}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(json["rule_sets"][0]["games"], 20);
    for svg in ["lengths.svg", "first_player.svg", "events.svg"] {
        let text = std::fs::read_to_string(dir.join(svg)).unwrap();
        let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{svg}: {e}"));
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        assert!(text.contains("kendall"), "{svg} names the rule set");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
