//! The held-out exact test sets (issue 34): made from games, every move's value exact, tagged,
//! written and read back with every line checked, and the bots measured on them.

use senet_bots::exact::Tables;
use senet_coach::exactset::{make_set, measure, ExactSet, SetConfig, ERROR_LOSS, NEAR_TIE};
use senet_rules::{Game, Metrics, MoveList, Notation, RuleSet, Status};
use std::sync::OnceLock;

/// The 2-piece tables built in memory, whole and cut to one piece.
fn tables() -> (&'static Tables, &'static Tables) {
    static T: OnceLock<(Tables, Tables)> = OnceLock::new();
    let (w, b) = T.get_or_init(|| (Tables::new(None, 2), Tables::new(None, 2).with_limit(1)));
    (w, b)
}

/// 40 decisions of `kendall5` with 2 pieces a side from `greedy`'s games, seed 7.
fn small_config() -> SetConfig {
    SetConfig {
        rules: RuleSet::Kendall5,
        pieces: 2,
        decisions: 40,
        player: "greedy".into(),
        seed: 7,
    }
}

fn small_set() -> &'static ExactSet {
    static S: OnceLock<ExactSet> = OnceLock::new();
    S.get_or_init(|| make_set(&small_config(), tables().0, &|_| {}).unwrap())
}

#[test]
fn every_decision_has_the_pieces_and_every_moves_exact_value() {
    let set = small_set();
    let (whole, _) = tables();
    assert_eq!(set.decisions.len(), 40);
    assert_eq!(set.header.decisions, 40);
    let mut sources = std::collections::BTreeSet::new();
    for (d, g) in set.decisions.iter().zip(&set.games) {
        sources.insert(d.source.clone());
        let c = g.census();
        assert_eq!((c[0].board, c[1].board), (2, 2), "{}", d.position);
        let Status::Move(p) = g.status() else {
            panic!("{} awaits no move", d.position)
        };
        let mut ms = MoveList::new();
        g.legal_moves(&mut ms);
        assert!(ms.len() >= 2);
        let exact = whole.move_values(g).unwrap();
        assert_eq!(exact.len(), d.moves.len());
        for ((m, v), mv) in exact.iter().zip(&d.moves) {
            assert_eq!(g.move_string(*m), mv.mv);
            let mine = if p == senet_rules::Player::First {
                *v
            } else {
                1.0 - v
            };
            assert!((mine - mv.value).abs() <= 5e-10, "{}", d.position);
        }
        let mut vals: Vec<f64> = d.moves.iter().map(|m| m.value).collect();
        vals.sort_by(|a, b| b.total_cmp(a));
        let tie = vals[0] - vals[1] <= NEAR_TIE;
        assert_eq!(tie, d.tags.iter().any(|t| t == "near-tie"), "{d:?}");
        // `typical` is the tag of a decision with no other.
        assert!(!d.tags.is_empty());
        assert_eq!(
            d.tags.iter().any(|t| t == "typical"),
            d.tags == ["typical"],
            "{d:?}"
        );
        let water = d.moves.iter().any(|m| {
            let mv = g.parse_move(&m.mv).unwrap();
            mv.kind.contains(senet_rules::MoveKind::WATER)
        });
        assert_eq!(water, d.tags.iter().any(|t| t == "water"), "{d:?}");
    }
    assert_eq!(
        sources.into_iter().collect::<Vec<_>>(),
        ["explore", "self-play"],
        "both kinds of games"
    );
}

#[test]
fn a_set_is_the_same_for_the_same_seed_whatever_the_threads() {
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let cfg = small_config();
    let again = one.install(|| make_set(&cfg, tables().0, &|_| {}).unwrap());
    assert_eq!(again.decisions, small_set().decisions);
    let other = make_set(&SetConfig { seed: 8, ..cfg }, tables().0, &|_| {}).unwrap();
    assert_ne!(other.decisions, small_set().decisions);
}

#[test]
fn a_set_needs_tables_of_its_pieces() {
    let cfg = SetConfig {
        rules: RuleSet::Kendall5,
        pieces: 2,
        decisions: 5,
        player: "greedy".into(),
        seed: 1,
    };
    let e = make_set(&cfg, tables().1, &|_| {}).unwrap_err();
    assert!(e.contains("senet solve kendall5 --pieces 2"), "{e}");
    let e = make_set(
        &SetConfig {
            player: "nobody".into(),
            ..cfg
        },
        tables().0,
        &|_| {},
    )
    .unwrap_err();
    assert!(e.contains("nobody"), "{e}");
}

#[test]
fn a_set_file_round_trips_and_a_wrong_line_is_named() {
    let set = small_set();
    let text = set.to_jsonl();
    let back = ExactSet::from_jsonl(&text, "set.jsonl").unwrap();
    assert_eq!(back.decisions.len(), set.decisions.len());
    for (a, b) in back.decisions.iter().zip(&set.decisions) {
        assert_eq!(
            (&a.position, &a.tags, a.game),
            (&b.position, &b.tags, b.game)
        );
        for (x, y) in a.moves.iter().zip(&b.moves) {
            assert_eq!(x.mv, y.mv);
            assert!((x.value - y.value).abs() < 1e-15);
        }
    }
    assert_eq!(back.header, set.header);
    let lines: Vec<&str> = text.lines().collect();
    let with = |i: usize, line: String| {
        let mut l: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        l[i] = line;
        ExactSet::from_jsonl(&l.join("\n"), "set.jsonl").unwrap_err()
    };
    // A move that is not legal there.
    let e = with(3, lines[3].replacen("\"move\":\"", "\"move\":\"1", 1));
    assert!(e.contains("line 4") && e.contains("legal moves"), "{e}");
    // A value that is no win chance.
    let e = with(2, lines[2].replacen("\"value\":0.", "\"value\":1.", 1));
    assert!(
        e.contains("line 3") && e.contains("not a win chance"),
        "{e}"
    );
    // A position that does not parse.
    let e = with(2, lines[2].replacen("kendall5 ", "kendall5 ..", 1));
    assert!(e.contains("line 3"), "{e}");
    // Not JSON.
    let e = with(5, "{".into());
    assert!(e.contains("line 6") && e.contains("not a decision"), "{e}");
    // A header of another format, and a count that does not match.
    let e = with(0, lines[0].replace("senet-exact-set", "other"));
    assert!(e.contains("line 1") && e.contains("other"), "{e}");
    let e = ExactSet::from_jsonl(&lines[..10].join("\n"), "set.jsonl").unwrap_err();
    assert!(e.contains("says 40 decisions, the file holds 9"), "{e}");
    let e = ExactSet::from_jsonl("", "set.jsonl").unwrap_err();
    assert!(e.contains("empty"), "{e}");
}

#[test]
fn the_measurement_sees_perfect_play_and_mistakes() {
    let set = small_set();
    let (whole, before) = tables();
    let bots = ["random".to_string(), "expert".to_string()];
    let r = measure(set, &bots, true, before, Some(whole), &|_| {}).unwrap();
    let find = |bot: &str, tables: usize| {
        r.subjects
            .iter()
            .find(|s| s.bot == bot && s.tables == tables)
            .unwrap_or_else(|| panic!("{bot} with tables to {tables}"))
    };
    // random reads no table: measured once.
    assert_eq!(r.subjects.iter().filter(|s| s.bot == "random").count(), 1);
    let random = &find("random", 0).tags[0];
    assert_eq!(random.tag, "all");
    assert_eq!(random.decisions, 40);
    assert!(
        random.mean_loss > 1e-3 && random.error_rate > 0.1,
        "{random:?}"
    );
    // The expert with the whole tables plays every decision exactly.
    let exact = &find("expert", 2).tags[0];
    assert!(
        exact.worst_loss <= ERROR_LOSS && exact.error_rate == 0.0,
        "{exact:?}"
    );
    // The analysis with the whole tables values every move exactly.
    let a = &find("analysis", 2).tags[0];
    assert_eq!(a.best_exact, Some(1.0));
    assert!(a.value_error.unwrap() < 1e-6, "{a:?}");
    let a1 = &find("analysis", 1).tags[0];
    assert!(a1.value_error.unwrap() > 0.0, "{a1:?}");
    // Every tag row counts the decisions with the tag.
    for s in &r.subjects {
        for t in &s.tags[1..] {
            let n = set
                .decisions
                .iter()
                .filter(|d| d.tags.contains(&t.tag))
                .count();
            assert_eq!(t.decisions, n, "{}", t.tag);
        }
        // The per-decision losses are the rows' decisions: their mean is the `all` row's.
        assert_eq!(s.losses.len(), 40);
        let mean = s.losses.iter().sum::<f64>() / 40.0;
        assert!((mean - s.tags[0].mean_loss).abs() < 1e-12, "{}", s.bot);
        assert_eq!(
            s.losses.iter().copied().fold(0.0, f64::max),
            s.tags[0].worst_loss
        );
    }
    let md = senet_coach::exactset::report_markdown(&r);
    assert!(md.contains("| expert | to 2v2 | all | 40 |"), "{md}");
}

#[test]
fn held_out_positions_are_the_decisions_and_what_their_moves_lead_to() {
    let set = small_set();
    let held = senet_coach::train::held_out_positions(set);
    let mut children = 0;
    for g in &set.games {
        let Status::Move(p) = g.status() else {
            unreachable!()
        };
        let men = match g {
            senet_rules::AnyGame::Kendall5(k) => k.men(),
            _ => unreachable!(),
        };
        assert!(held.contains(&(men[p.index()], men[1 - p.index()])));
        let mut ms = MoveList::new();
        g.legal_moves(&mut ms);
        for &m in ms.iter() {
            let mut c = *g;
            c.play_unchecked(m);
            if let (Status::Throw(q), senet_rules::AnyGame::Kendall5(k)) = (c.status(), &c) {
                let men = k.men();
                assert!(held.contains(&(men[q.index()], men[1 - q.index()])));
                children += 1;
            }
        }
    }
    assert!(children > set.games.len());
    assert!(held.len() <= set.games.len() + children);
}
