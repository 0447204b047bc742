//! Setups: plain data that parsers and editors produce, checked into games.

use senet_rules::conformance::corpus;
use senet_rules::race::{Opening, Race, Sheet};
use senet_rules::Notation;
use senet_rules::{parker, pyramid, race, AnyGame, Error, Options, Player, RuleSet};
use senet_rules::{Houses, Kendall, Kendall5, Parker, Pyramid, Senat};

fn race_round_trip<S: Sheet>(opts: &[&str]) {
    let o = Options::parse(Race::<S>::option_specs(), opts, S::NAME).unwrap();
    let start = Race::<S>::start(&o);
    for g in corpus(&start, 3, 400, false) {
        assert_eq!(Race::<S>::try_from(g.setup()), Ok(g), "{}", g.position());
    }
}

#[test]
fn every_game_is_its_setup() {
    race_round_trip::<senet_rules::kendall::Sheet>(&[]);
    race_round_trip::<senet_rules::kendall5::Sheet>(&[]);
    race_round_trip::<senet_rules::houses::Sheet>(&["swap", "six_sticks"]);
    race_round_trip::<senet_rules::senat::Sheet>(&["score"]);
    let AnyGame::Parker(p) = AnyGame::new(RuleSet::Parker, &["wait_for_one=false"]).unwrap() else {
        unreachable!()
    };
    for g in corpus(&p, 3, 400, false) {
        assert_eq!(Parker::try_from(g.setup()), Ok(g), "{}", g.position());
    }
    let AnyGame::Pyramid(p) = AnyGame::new(RuleSet::Pyramid, &[] as &[&str]).unwrap() else {
        unreachable!()
    };
    for g in corpus(&p, 3, 400, false) {
        assert_eq!(Pyramid::try_from(g.setup()), Ok(g), "{}", g.position());
    }
}

fn kendall() -> Kendall {
    let AnyGame::Kendall(g) = AnyGame::new(RuleSet::Kendall, &[] as &[&str]).unwrap() else {
        unreachable!()
    };
    g
}

fn bad<T: std::fmt::Debug>(r: Result<T, Error>) -> String {
    r.unwrap_err().to_string()
}

#[test]
fn an_edited_setup_says_what_is_wrong() {
    // A parsed position is the setup the parser read.
    let text = "..........XOXOXOXOXO.......... off=0,0 turn=2 throw=3 dec=9";
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let o = Options::defaults(Kendall::option_specs());
    let s = Kendall::parse_setup(&o, &tokens).unwrap();
    assert_eq!((s.turn, s.throw, s.decisions), (Player::Second, 3, 9));
    let g = Kendall::try_from(s.clone()).unwrap();
    assert_eq!(g.position(), format!("kendall {text}"));

    let mut e = s.clone();
    e.men[0] = e.men[0] & !(1 << 11) | 1 << 27;
    assert!(bad(Kendall::try_from(e)).contains("27 is never occupied"));
    let mut e = s.clone();
    e.men[0] |= 1 << 12;
    assert_eq!(
        bad(Kendall::try_from(e)),
        "bad position: two pieces share square 12"
    );
    let mut e = s.clone();
    e.throw = 5;
    assert!(bad(Kendall::try_from(e)).contains("throw=5"));
    let mut e = s.clone();
    e.left = 1;
    assert!(bad(Kendall::try_from(e)).contains("no leftover steps"));
    let mut e = s.clone();
    e.opening = Opening::Nine;
    assert!(bad(Kendall::try_from(e)).contains("no such opening"));
    let mut e = s.clone();
    e.men = [0, 0];
    assert!(bad(Kendall::try_from(e)).contains("both players"));
    // Options of another rule set.
    let mut e = s.clone();
    e.options = Options::defaults(Senat::option_specs());
    assert!(matches!(Kendall::try_from(e), Err(Error::Options(_))));
    // The start, edited: the piece on 10 moved to 12 breaks kendall's forced first move.
    let mut e = kendall().setup();
    e.men[0] = e.men[0] & !(1 << 10) | 1 << 12;
    e.throw = 2;
    assert!(
        bad(Kendall::try_from(e)).contains("forced"),
        "the K1 opening"
    );
    // Senat's leftover steps need a bear-off that could leave them.
    let AnyGame::Senat(senat) = AnyGame::new(RuleSet::Senat, &[] as &[&str]).unwrap() else {
        unreachable!()
    };
    let mut e = senat.setup();
    e.opening = Opening::Done;
    e.throw = 4;
    e.left = 4;
    assert!(bad(Senat::try_from(e.clone())).contains("left"));
    e.left = 2;
    assert!(
        Senat::try_from(e).is_err(),
        "pieces on 1-10 cannot bear off"
    );
    let _ = (Kendall5::option_specs(), Houses::option_specs());
    let _: Option<race::Setup> = None;
}

#[test]
fn parker_and_pyramid_setups_are_checked() {
    let AnyGame::Parker(p) = AnyGame::new(RuleSet::Parker, &[] as &[&str]).unwrap() else {
        unreachable!()
    };
    let s: parker::Setup = p.setup();
    assert_eq!(s.turn, None, "the dice-off is pending (P3)");
    let mut e = s.clone();
    e.dice = [3, 5];
    assert!(bad(Parker::try_from(e)).contains("dice-off"));
    let mut e = s.clone();
    e.pharaoh[0] = Some(7);
    e.pegs[0] &= !(1 << 7);
    assert!(bad(Parker::try_from(e)).contains("Pharaoh"));
    let mut e = s.clone();
    e.pegs = [0, 0];
    assert!(bad(Parker::try_from(e)).contains("lost every peg"));

    let AnyGame::Pyramid(p) = AnyGame::new(RuleSet::Pyramid, &[] as &[&str]).unwrap() else {
        unreachable!()
    };
    let s: pyramid::Setup = p.setup();
    assert!(s.opening);
    let mut e = s.clone();
    e.turn = Player::Second;
    assert!(bad(Pyramid::try_from(e)).contains("opening=1"));
    let mut e = s.clone();
    e.off[0][0] = 1;
    assert!(bad(Pyramid::try_from(e)).contains("large"));
    let mut e = s;
    e.men = [0, 0];
    e.large = 0;
    e.medium = 0;
    assert!(bad(Pyramid::try_from(e)).contains("(Y9)"));
}
