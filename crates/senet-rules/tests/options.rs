//! Options: `Game::options`, errors for unknown names and wrong values, and the points a game
//! can give (`Metrics::max_points`, `Metrics::points_if_won`).

use senet_rules::{AnyGame, Error, Game, OptionValue, Options, RuleSet};
use senet_rules::{Metrics, Notation};

fn game(r: RuleSet, opts: &[&str]) -> AnyGame {
    AnyGame::new(r, opts).unwrap()
}

#[test]
fn a_game_knows_its_options() {
    let cases: &[(RuleSet, &[&str])] = &[
        (RuleSet::Kendall, &[]),
        (RuleSet::Kendall5, &["cap=77"]),
        (RuleSet::Senat, &["die=true", "score=true"]),
        (
            RuleSet::Houses,
            &["swap=true", "six_sticks=true", "cap=500"],
        ),
        (RuleSet::Pyramid, &["cap=12"]),
        (RuleSet::Parker, &["wait_for_one=false"]),
    ];
    for &(r, opts) in cases {
        let g = game(r, opts);
        let o = g.options();
        assert_eq!(o, Options::parse(r.option_specs(), opts, r.id()).unwrap());
        assert_eq!(o.non_default(), opts, "{r}");
        // The position string's head says the same.
        let head = g.position().split_whitespace().next().unwrap().to_string();
        let want = if opts.is_empty() {
            r.id().to_string()
        } else {
            format!("{}:{}", r.id(), opts.join(","))
        };
        assert_eq!(head, want);
        let back: AnyGame = g.position().parse().unwrap();
        assert_eq!(back.options(), o);
    }
}

#[test]
fn unknown_option_names_are_errors() {
    let o = game(RuleSet::Senat, &[]).options();
    let e = o.get("colour").unwrap_err();
    assert!(matches!(e, Error::Options(_)));
    assert_eq!(
        e.message(),
        "there is no option \"colour\"; the options are: die, score, cap"
    );
    assert!(o.flag("nope").is_err() && o.int("nope").is_err());
    assert_eq!(o.flag("score"), Ok(false));
    assert_eq!(o.int("cap").map(|c| c > 0), Ok(true));
    assert_eq!(
        o.flag("cap").unwrap_err().message(),
        "option cap is a number, not a flag"
    );
    assert_eq!(
        o.int("die").unwrap_err().message(),
        "option die is a flag, not a number"
    );
    let mut o = o;
    assert!(o.set("nope", OptionValue::Bool(true)).is_err());
    assert!(o.set("cap", OptionValue::Int(0)).is_err());
    assert!(o.set("cap", OptionValue::Bool(true)).is_err());
    assert!(o.set("die", OptionValue::Int(1)).is_err());
    o.set("score", OptionValue::Bool(true)).unwrap();
    assert_eq!(o.non_default(), ["score=true"]);
    // From text too.
    let e = AnyGame::new(RuleSet::Kendall, &["colour=red"]).unwrap_err();
    assert!(e.message().contains("no option \"colour\""), "{e}");
    let e = "kendall:colour=red ..........  off=0,0 turn=1 throw=- dec=0"
        .parse::<AnyGame>()
        .unwrap_err();
    assert!(e.message().contains("no option \"colour\""), "{e}");
}

#[test]
fn a_bare_number_option_asks_for_its_value_in_words() {
    // Issue 36: a bare `cap` meant `cap=true`, and the error said `got "true"`, which the
    // user never wrote.
    for r in [RuleSet::Kendall, RuleSet::Pyramid, RuleSet::Parker] {
        let e = AnyGame::new(r, &["cap"]).unwrap_err();
        assert!(matches!(e, Error::Options(_)));
        let m = e.message();
        assert!(
            m.starts_with("option cap needs a value: write cap=N with a whole number N from "),
            "{r}: {m}"
        );
        assert!(!m.contains("true"), "{r}: {m}");
    }
    // A bare flag still means true, and a number option with its value is fine.
    assert_eq!(
        game(RuleSet::Senat, &["die"]).options().flag("die"),
        Ok(true)
    );
    assert_eq!(
        game(RuleSet::Senat, &["cap=50"]).options().int("cap"),
        Ok(50)
    );
    // A value that is no number is still quoted back.
    let e = AnyGame::new(RuleSet::Senat, &["cap=many"]).unwrap_err();
    assert!(e.message().contains("got \"many\""), "{e}");
}

#[test]
fn the_points_a_game_can_give() {
    // P11: the Pharaoh 25 and four men 10 each, doubled when all five are left.
    let parker = game(RuleSet::Parker, &[]);
    assert_eq!(parker.max_points(), Some(130));
    assert_eq!(parker.points_if_won(), Some([130, 130]));
    // Y9: 2 large (4), 3 medium (3), 5 small (2); nothing borne off yet.
    let pyramid = game(RuleSet::Pyramid, &[]);
    assert_eq!(pyramid.max_points(), Some(27));
    assert_eq!(pyramid.points_if_won(), Some([0, 0]));
    // S12: with `score`, the opposing pieces on the board.
    let senat = game(RuleSet::Senat, &["score=true"]);
    assert_eq!(senat.max_points(), Some(5));
    assert_eq!(senat.points_if_won(), Some([5, 5]));
    for (r, opts) in [
        (RuleSet::Senat, &[][..]),
        (RuleSet::Kendall, &[]),
        (RuleSet::Kendall5, &[]),
        (RuleSet::Houses, &["swap=true"]),
    ] {
        let g = game(r, opts);
        assert_eq!((g.max_points(), g.points_if_won()), (None, None), "{r}");
    }
    let g: AnyGame =
        "senat:score=true ..........OXOXOXOXO........... off=1,0 turn=1 throw=- dec=40"
            .parse()
            .unwrap();
    assert_eq!(g.points_if_won(), Some([5, 4]));
}
