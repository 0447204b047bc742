//! The exact endgame tables (`senet_bots::exact`): the solver against an independent
//! explicit-graph value iteration and against deep expectimax, Bellman consistency, the file
//! format and its errors, and the search's use of the tables.

use senet_bots::eval::Evaluator;
use senet_bots::exact::{self, BuildOptions, Table, Tables, WithTables};
use senet_bots::search::{SearchOptions, Searcher};
use senet_bots::BotSpec;
use senet_rules::Notation;
use senet_rules::{AnyGame, Game, MoveList, Player, RuleSet};
use senet_rules::{Senat, Status};
use std::collections::HashMap;

fn build(rules: RuleSet, pieces: usize) -> Table {
    Table::build(rules, pieces, &mut |_| {}).unwrap().0
}

/// Every throw-pending position with up to `na` pieces of the first player and `nb` of the
/// second, either side to throw, that the constructor accepts.
fn positions<G: Game>(mk: &dyn Fn([u32; 2], Player) -> Option<G>, na: u32, nb: u32) -> Vec<G> {
    let mut out = Vec::new();
    let sets = |n: u32| -> Vec<u32> {
        let mut v = Vec::new();
        for a in 1..=30u32 {
            if n == 1 {
                v.push(1 << a);
                continue;
            }
            for b in a + 1..=30 {
                v.push(1 << a | 1 << b);
            }
        }
        v
    };
    for a in 1..=na {
        for b in 1..=nb {
            for &x in &sets(a) {
                for &y in &sets(b) {
                    for p in Player::BOTH {
                        if let Some(g) = mk([x, y], p) {
                            out.push(g);
                        }
                    }
                }
            }
        }
    }
    out
}

/// Value iteration on the explicit graph of throw-pending positions reached through the
/// game API from `starts`, keyed by (masks, side to throw), without the solver's index or
/// its symmetry assumption. Returns each position's first-player value.
fn explicit_values<G: Game>(
    starts: &[G],
    key: &dyn Fn(&G) -> ([u32; 2], Player),
    mk: &dyn Fn([u32; 2], Player) -> Option<G>,
) -> HashMap<([u32; 2], Player), f64> {
    // Nodes: every throw-pending position; edges per throw: the leaves of the turn.
    enum Leaf {
        Value(f64),
        Node(([u32; 2], Player)),
    }
    type Turn = (u32, Vec<Leaf>, Player);
    fn leaves<G: Game>(h: &G, key: &dyn Fn(&G) -> ([u32; 2], Player), out: &mut Vec<Leaf>) {
        let mut ms = MoveList::new();
        h.legal_moves(&mut ms);
        for &m in &ms {
            let mut c = *h;
            c.play_unchecked(m);
            match c.status() {
                Status::Over(o) => out.push(Leaf::Value(senet_bots::eval::terminal_value(&o))),
                Status::Throw(_) => out.push(Leaf::Node(key(&c))),
                Status::Move(_) => {
                    assert_eq!(c.status().player(), h.status().player());
                    leaves(&c, key, out)
                }
            }
        }
    }
    let mut graph: HashMap<([u32; 2], Player), Vec<Turn>> = HashMap::new();
    let mut todo: Vec<([u32; 2], Player)> = starts.iter().map(key).collect();
    while let Some(k) = todo.pop() {
        if graph.contains_key(&k) {
            continue;
        }
        let g = mk(k.0, k.1).expect("reached positions are valid");
        let d = g.throw_dist();
        let mut turns = Vec::new();
        for &(t, w) in d.outcomes {
            let mut h = g;
            h.set_throw_unchecked(t);
            let mut ls = Vec::new();
            leaves(&h, key, &mut ls);
            for l in &ls {
                if let Leaf::Node(n) = l {
                    todo.push(*n);
                }
            }
            turns.push((w, ls, k.1));
        }
        graph.insert(k, turns);
    }
    let mut v: HashMap<([u32; 2], Player), f64> = graph.keys().map(|&k| (k, 0.5)).collect();
    for _ in 0..100_000 {
        let mut change: f64 = 0.0;
        let mut next = v.clone();
        for (k, turns) in &graph {
            let total: u32 = turns.iter().map(|t| t.0).sum();
            let mut x = 0.0;
            for (w, ls, p) in turns {
                let vals = ls.iter().map(|l| match l {
                    Leaf::Value(x) => *x,
                    Leaf::Node(n) => v[n],
                });
                let best = if *p == Player::First {
                    vals.fold(f64::NEG_INFINITY, f64::max)
                } else {
                    vals.fold(f64::INFINITY, f64::min)
                };
                x += *w as f64 * best;
            }
            x /= total as f64;
            change = change.max((x - v[k]).abs());
            next.insert(*k, x);
        }
        v = next;
        if change < 1e-13 {
            return v;
        }
    }
    panic!("the explicit value iteration did not converge");
}

fn check_explicit<G: Game + exact::Solvable>(base: G, na: u32, nb: u32) {
    let mk = |men: [u32; 2], p: Player| base.endgame(men, p).ok();
    let key = |g: &G| (g.masks(), g.status().player().unwrap());
    let starts = positions(&mk, na, nb);
    assert!(starts.len() > 100);
    let explicit = explicit_values(&starts, &key, &mk);
    let table = build(base.rules(), na.max(nb) as usize);
    let tables = Tables::from_tables(vec![table]);
    let mut worst: f64 = 0.0;
    for g in &starts {
        let want = explicit[&key(g)];
        let got = tables.value(g).expect("covered");
        worst = worst.max((want - got).abs());
    }
    // f32 storage (relative error 6e-8) plus both iterations' tolerances.
    assert!(worst < 1e-6, "{}: worst difference {worst}", base.rules());
}

fn default<G: Game>(rules: RuleSet, f: impl Fn(AnyGame) -> Option<G>) -> G {
    f(AnyGame::new::<&str>(rules, &[]).unwrap()).unwrap()
}

#[test]
fn solver_matches_explicit_value_iteration_on_small_levels() {
    // 1v1 and 1v2 (either side to throw): positions keyed by masks and side, both sides
    // solved (no mirror assumption), reached only through the game API.
    check_explicit(
        default(RuleSet::Kendall5, |g| match g {
            AnyGame::Kendall5(k) => Some(k),
            _ => None,
        }),
        1,
        2,
    );
    check_explicit(
        default(RuleSet::Senat, |g| match g {
            AnyGame::Senat(k) => Some(k),
            _ => None,
        }),
        2,
        1,
    );
    check_explicit(
        default(RuleSet::Kendall, |g| match g {
            AnyGame::Kendall(k) => Some(k),
            _ => None,
        }),
        1,
        1,
    );
    check_explicit(
        default(RuleSet::Houses, |g| match g {
            AnyGame::Houses(k) => Some(k),
            _ => None,
        }),
        1,
        1,
    );
}

/// A constant leaf value: 0 gives a lower bound of the true value, 1 an upper bound.
struct Const(f64);

impl<G: Game> Evaluator<G> for Const {
    fn eval(&self, _: &G) -> f64 {
        self.0
    }
    fn name(&self) -> &'static str {
        "const"
    }
}

/// Expectimax `depth` throws deep from a throw-pending position, leaves valued by `e`.
fn expectimax<G: Game>(g: &G, e: &Const, depth: u32) -> f64 {
    let d = g.throw_dist();
    // Pruning and the cache leave values unchanged (the search tests check that against
    // plain expectimax); the cache makes deep searches of these small endgames cheap.
    let mut opt = SearchOptions::new(depth);
    opt.tt_bits = 20;
    let mut s = Searcher::<G>::new(opt.tt_bits);
    let mut v = 0.0;
    for &(t, w) in d.outcomes {
        let mut h = *g;
        h.set_throw_unchecked(t);
        let r = s.search(&h, e, &opt);
        v += w as f64 * r.values[r.best].1;
    }
    v / d.total as f64
}

#[test]
fn deep_expectimax_brackets_the_table_values() {
    // With leaves valued 0 (1) expectimax gives a lower (upper) bound of the exact value,
    // tightening with depth; the table value must lie between them. Positions near the end
    // so that DEPTH throws decide most games.
    const DEPTH: u32 = 24;
    let cases: [(RuleSet, [u32; 2], Player); 6] = [
        (RuleSet::Kendall5, [1 << 26, 1 << 30], Player::First),
        (RuleSet::Kendall5, [1 << 29, 1 << 26], Player::Second),
        (RuleSet::Kendall, [1 << 29, 1 << 30], Player::First),
        (RuleSet::Senat, [1 << 26, 1 << 25], Player::First),
        (RuleSet::Senat, [1 << 28 | 1 << 29, 1 << 24], Player::Second),
        (RuleSet::Houses, [1 << 26, 1 << 30], Player::First),
    ];
    let mut tables = Vec::new();
    for (rules, men, p) in cases {
        let t = build(rules, 2);
        let base = AnyGame::new::<&str>(rules, &[]).unwrap();
        let g: AnyGame = match base {
            AnyGame::Kendall(k) => k.endgame(men, p).unwrap().into(),
            AnyGame::Kendall5(k) => k.endgame(men, p).unwrap().into(),
            AnyGame::Senat(k) => k.endgame(men, p).unwrap().into(),
            AnyGame::Houses(k) => k.endgame(men, p).unwrap().into(),
            _ => unreachable!(),
        };
        let exact = t.lookup(&g).unwrap();
        let (lo, hi) = senet_rules::with_game!(&g, x => (expectimax(x, &Const(0.0), DEPTH), expectimax(x, &Const(1.0), DEPTH)));
        assert!(
            lo - 1e-6 <= exact && exact <= hi + 1e-6,
            "{rules} {men:?}: {lo} <= {exact} <= {hi} fails"
        );
        eprintln!("{rules} {men:?}: {lo:.6} <= {exact:.6} <= {hi:.6}");
        // Forced backward moves (K10, R9, S7) keep even these games going for a while:
        // 24 throws leave kendall's bracket about 0.1 wide, the others' under 0.02.
        assert!(
            hi - lo < 0.15,
            "{rules} {men:?}: bounds {lo}..{hi} too loose to test"
        );
        tables.push(t);
    }
}

/// A small deterministic generator for sampling positions.
fn lcg(x: &mut u64) -> u64 {
    *x = x
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *x >> 33
}

#[test]
fn tables_are_bellman_consistent_on_random_positions() {
    for rules in exact::RULE_SETS {
        let tables = Tables::from_tables(vec![build(rules, 2)]);
        let t = tables.table(rules).unwrap();
        let mut seed = 7;
        let mut checked = 0;
        for (a, b) in [(1, 1), (1, 2), (2, 1), (2, 2)] {
            let mut all = Vec::new();
            t.for_each_state(a, b, |own, opp, v| all.push((own, opp, v)));
            for _ in 0..150 {
                let (own, opp, v) = all[(lcg(&mut seed) % all.len() as u64) as usize];
                // Either side to throw: the second player's position is the mirror.
                let p = if lcg(&mut seed).is_multiple_of(2) {
                    Player::First
                } else {
                    Player::Second
                };
                let men = if p == Player::First {
                    [own, opp]
                } else {
                    [opp, own]
                };
                let g = t.position(men[0], men[1]).unwrap();
                let g = with_turn(&g, men, p);
                let want = if p == Player::First { v } else { 1.0 - v };
                assert!((tables.value(&g).unwrap() - want).abs() < 1e-12);
                // One backup through the game API from the table's own values.
                let d = g.throw_dist();
                let mut backup = 0.0;
                for &(th, w) in d.outcomes {
                    let mut h = g;
                    h.set_throw_unchecked(th);
                    backup += w as f64 * tables.value(&h).unwrap();
                }
                backup /= d.total as f64;
                assert!(
                    (backup - want).abs() < 1e-6,
                    "{rules} {}: table {want}, backup {backup}",
                    g.position()
                );
                checked += 1;
            }
        }
        assert_eq!(checked, 600);
    }
}

fn with_turn(g: &AnyGame, men: [u32; 2], p: Player) -> AnyGame {
    match g {
        AnyGame::Kendall(k) => k.endgame(men, p).unwrap().into(),
        AnyGame::Kendall5(k) => k.endgame(men, p).unwrap().into(),
        AnyGame::Senat(k) => k.endgame(men, p).unwrap().into(),
        AnyGame::Houses(k) => k.endgame(men, p).unwrap().into(),
        _ => unreachable!(),
    }
}

/// A board string with the first player's pieces (X) and the second's (O) on these squares.
fn board(x: &[usize], o: &[usize]) -> String {
    (1..=30)
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

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("senet-exact-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn table_files_round_trip_and_bad_files_explain() {
    let t = build(RuleSet::Kendall5, 1);
    let dir = temp_dir("files");
    let path = dir.join(exact::file_name(RuleSet::Kendall5, 1));
    t.write(&path).unwrap();
    let back = Table::read(&path, RuleSet::Kendall5).unwrap();
    assert_eq!(back.states(), 812);
    let mut n = 0;
    t.for_each_state(1, 1, |own, opp, v| {
        assert_eq!(back.side_to_throw(own, opp), Some(v));
        n += 1;
    });
    assert_eq!(n, 812);

    // The wrong rule set.
    let e = Table::read(&path, RuleSet::Kendall).unwrap_err();
    assert!(e.contains("of kendall5, not kendall"), "{e}");
    let bytes = std::fs::read(&path).unwrap();
    let bad = |b: &[u8]| Table::from_bytes(b, "the file").unwrap_err();
    // A flipped value byte.
    let mut b = bytes.clone();
    let last = b.len() - 2;
    b[last] ^= 0x40;
    assert!(bad(&b).contains("checksum"), "{}", bad(&b));
    // Truncated values, a truncated header.
    assert!(bad(&bytes[..bytes.len() - 4]).contains("truncated or padded"));
    assert!(bad(&bytes[..20]).contains("truncated"));
    // Not a table at all, another format version.
    assert!(bad(b"hello, world, this is no table").contains("not a senet exact table"));
    let mut b = bytes.clone();
    b[8] = 9;
    assert!(bad(&b).contains("format version 9"), "{}", bad(&b));
    // Another piece count in the header than the values.
    let mut b = bytes.clone();
    let at = 8 + 4 + 1 + "kendall5".len() + 2;
    b[at] = 2;
    assert!(bad(&b).contains("states"), "{}", bad(&b));
    // Options other than the defaults.
    let mut other = bytes.clone();
    let at = 8 + 4 + 1 + "kendall5".len();
    other.splice(at..at + 2, [3u8, 0, b'x', b'=', b'1']);
    let t2 = Table::from_bytes(&other, "x").unwrap();
    let e = t2.check_matches(RuleSet::Kendall5).unwrap_err();
    assert!(e.contains("options"), "{e}");

    // A directory with a corrupt file: the table is skipped with its error kept, and the
    // in-memory fallback is used.
    let mut b = bytes.clone();
    b[last] ^= 0x40;
    std::fs::write(dir.join(exact::file_name(RuleSet::Kendall5, 2)), &b).unwrap();
    let tables = Tables::new(Some(dir.clone()), 1);
    let t = tables.table(RuleSet::Kendall5).unwrap();
    assert_eq!(t.pieces(), 1);
    assert!(tables.source(RuleSet::Kendall5).contains("kendall5-1"));
    let errs = tables.errors();
    assert_eq!(errs.len(), 1);
    assert!(
        errs[0].contains("kendall5-2.senet-exact is corrupt"),
        "{errs:?}"
    );
    // No file and no fallback: no table, no error.
    let tables = Tables::new(Some(dir.join("none")), 0);
    assert!(tables.table(RuleSet::Senat).is_none());
    assert!(tables.errors().is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sixteen_bit_values_stay_within_their_bound() {
    let sixteen = BuildOptions {
        threads: 1,
        bits: 16,
        ..BuildOptions::default()
    };
    for rules in exact::RULE_SETS {
        let t32 = build(rules, 2);
        let (t16, _) = Table::build_with(rules, 2, sixteen, &mut |_| {}).unwrap();
        assert_eq!((t32.bits(), t16.bits()), (32, 16));
        assert_eq!(t16.states(), t32.states());
        let (mut n, mut worst) = (0, 0.0f64);
        for a in 1..=2 {
            for b in 1..=2 {
                t32.for_each_state(a, b, |own, opp, v| {
                    let w = t16.side_to_throw(own, opp).unwrap();
                    // The 16-bit rounding of the exact value, plus the f32 rounding of the
                    // 32-bit one (under 6e-8) and the 16-bit build's iteration error (its
                    // stop rule, TOLERANCE_16, is 2.5e-7 in f32: a few 1e-7, under 3e-6).
                    let d = (w - v).abs();
                    assert!(
                        d <= exact::U16_ERROR + 3e-6,
                        "{rules}: {own:x} {opp:x}: {v} {w}"
                    );
                    worst = worst.max(d);
                    n += 1;
                });
            }
        }
        assert_eq!(n, 165_242, "{rules}");
        // Really rounded to 16 bits: some value is off by nearly half a step.
        assert!(worst > 0.9 * exact::U16_ERROR, "{rules}: {worst}");
        // The residual of the values as kept: within their rounding (T does not expand).
        let r16 = t16.bellman_residual(2);
        assert!(
            r16 > 1e-7 && r16 <= 2.0 * exact::U16_ERROR + 6e-6,
            "{rules}: {r16}"
        );
        assert!(t32.bellman_residual(2) < 1e-6, "{rules}");
    }

    // A 16-bit file: encoding 2, two bytes a value, read back value for value.
    let t32 = build(RuleSet::Houses, 2);
    let (t16, _) = Table::build_with(RuleSet::Houses, 2, sixteen, &mut |_| {}).unwrap();
    let dir = temp_dir("bits");
    let (p32, p16) = (dir.join("h32"), dir.join("h16"));
    t32.write(&p32).unwrap();
    t16.write(&p16).unwrap();
    let (b32, b16) = (std::fs::read(&p32).unwrap(), std::fs::read(&p16).unwrap());
    assert_eq!(b32.len() - b16.len(), 2 * 165_242);
    // The header's encoding byte (after magic, version, rule set, options, pieces, squares):
    // 1 for f32, as files were before 16-bit values (so they still read), 2 for 16 bits.
    let at = 8 + 4 + 1 + "houses".len() + 2 + 1;
    let at = at + 1 + b32[at] as usize;
    assert_eq!((b32[at], b16[at]), (1, 2));
    assert_eq!(u32::from_le_bytes(b16[8..12].try_into().unwrap()), 1);
    let back = Table::read(&p16, RuleSet::Houses).unwrap();
    assert_eq!(back.bits(), 16);
    for a in 1..=2 {
        for b in 1..=2 {
            t16.for_each_state(a, b, |own, opp, v| {
                assert_eq!(back.side_to_throw(own, opp), Some(v));
            });
        }
    }
    // A truncated 16-bit file says so; an unknown encoding too.
    let e = Table::from_bytes(&b16[..b16.len() - 2], "x").unwrap_err();
    assert!(e.contains("truncated or padded"), "{e}");
    let mut b = b16.clone();
    b[at] = 7;
    let e = Table::from_bytes(&b, "x").unwrap_err();
    assert!(e.contains("unknown value encoding 7"), "{e}");
    // Only 16 and 32 bits.
    let e = Table::build_with(
        RuleSet::Houses,
        1,
        BuildOptions {
            threads: 1,
            bits: 8,
            ..BuildOptions::default()
        },
        &mut |_| {},
    )
    .unwrap_err();
    assert!(e.contains("32 or 16 bits"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn build_rejects_what_it_cannot_solve() {
    assert!(Table::build(RuleSet::Parker, 1, &mut |_| {})
        .unwrap_err()
        .contains("not parker"));
    assert!(Table::build(RuleSet::Kendall, 5, &mut |_| {})
        .unwrap_err()
        .contains("1 to 4"));
}

#[test]
fn the_api_covers_only_what_the_tables_hold() {
    let tables = Tables::from_tables(vec![build(RuleSet::Kendall5, 2)]);
    // The start position is not covered, nor another rule set, nor other options.
    let start = AnyGame::new::<&str>(RuleSet::Kendall5, &[]).unwrap();
    assert_eq!(tables.value(&start), None);
    let g: AnyGame = format!(
        "kendall5 {} off=4,4 turn=2 throw=- dec=40",
        board(&[24], &[26])
    )
    .parse()
    .unwrap();
    let v = tables.value(&g).unwrap();
    assert!((0.0..=1.0).contains(&v));
    // The turn cap is ignored; other options are not.
    let capped: AnyGame = format!(
        "kendall5:cap=500 {} off=4,4 turn=2 throw=- dec=40",
        board(&[24], &[26])
    )
    .parse()
    .unwrap();
    assert_eq!(tables.value(&capped), Some(v));
    let senat: AnyGame = format!(
        "senat {} off=4,4 turn=2 throw=- dec=40",
        board(&[24], &[26])
    )
    .parse()
    .unwrap();
    assert_eq!(tables.value(&senat), None);
    // A position awaiting a move: the best move's value, and every move's.
    let mut h = g;
    h.set_throw(senet_rules::Throw::single(2)).unwrap();
    let mv = tables.move_values(&h).unwrap();
    assert!(!mv.is_empty());
    let best = mv.iter().map(|m| m.1).fold(f64::INFINITY, f64::min); // player 2 minimises
    assert_eq!(tables.value(&h), Some(best));
    // The mean over throws of the decisions is the value.
    let d = g.throw_dist();
    let mean: f64 = d
        .outcomes
        .iter()
        .map(|&(t, w)| {
            let mut h = g;
            h.set_throw_unchecked(t);
            w as f64 * tables.value(&h).unwrap()
        })
        .sum::<f64>()
        / d.total as f64;
    assert!((mean - v).abs() < 1e-6);
}

#[test]
fn the_search_stops_at_covered_positions_with_their_exact_values() {
    let table = build(RuleSet::Senat, 2);
    let tables = Tables::from_tables(vec![table]);
    let t = tables.table(RuleSet::Senat).unwrap();
    let mut g: AnyGame = format!(
        "senat {} off=3,3 turn=1 throw=- dec=60",
        board(&[22, 24], &[25, 28])
    )
    .parse()
    .unwrap();
    for throw in [1, 2, 3, 4, 6] {
        let mut h = g;
        h.set_throw(senet_rules::Throw::single(throw)).unwrap();
        let exact = tables.move_values(&h).unwrap();
        let AnyGame::Senat(s) = h else { unreachable!() };
        let inner = senet_bots::eval::Census;
        let e = WithTables {
            inner: &inner,
            table: t,
            limit: t.pieces(),
        };
        let r = Searcher::<Senat>::new(10).search(&s, &e, &SearchOptions::new(3));
        for ((m, v), (m2, x)) in r.values.iter().zip(&exact) {
            assert_eq!(m, m2);
            assert!((v - x).abs() < 1e-12, "{m:?}: search {v}, table {x}");
        }
    }
    // Whatever the depth, one node per move: every child is a covered chance node.
    g.set_throw(senet_rules::Throw::single(2)).unwrap();
    let AnyGame::Senat(s) = g else { unreachable!() };
    let e = WithTables {
        inner: &senet_bots::eval::Census,
        table: t,
        limit: t.pieces(),
    };
    let r = Searcher::<Senat>::new(10).search(&s, &e, &SearchOptions::new(4));
    assert!(
        r.nodes <= 1 + 2 * r.values.len() as u64,
        "{} nodes",
        r.nodes
    );
}

#[test]
fn the_expert_level_plays_the_exact_best_move_in_covered_endgames() {
    // The process-wide tables: files in the default directory or the in-memory build.
    let mut bot = "expert".parse::<BotSpec>().unwrap().build();
    let mut seed = 3;
    let mut n = 0;
    for rules in exact::RULE_SETS {
        let t = exact::Tables::global().table(rules).unwrap();
        let mut all = Vec::new();
        t.for_each_state(2, 2, |own, opp, _| all.push((own, opp)));
        while n < 40 * (exact::RULE_SETS.iter().position(|&r| r == rules).unwrap() + 1) {
            let (own, opp) = all[(lcg(&mut seed) % all.len() as u64) as usize];
            let mut g = t.position(own, opp).unwrap();
            let d = g.throw_dist();
            g.set_throw(d.outcomes[(lcg(&mut seed) % d.outcomes.len() as u64) as usize].0)
                .unwrap();
            let exact = exact::Tables::global().move_values(&g).unwrap();
            if exact.len() < 2 {
                continue;
            }
            let c = bot.choose(&g, 1);
            let best = exact.iter().map(|m| m.1).fold(f64::NEG_INFINITY, f64::max);
            let chosen = exact.iter().find(|m| m.0 == c.best).unwrap().1;
            assert!(
                best - chosen < 1e-6,
                "{rules} {}: chose {chosen}, best {best}",
                g.position()
            );
            n += 1;
        }
    }
}

#[test]
fn tables_with_a_limit_answer_only_up_to_it() {
    // The measurement of the bots as they were before a bigger table (`senet ladder
    // --exact`) reads a table as if it held fewer pieces.
    let AnyGame::Kendall5(base) = AnyGame::new(RuleSet::Kendall5, &[] as &[&str]).unwrap() else {
        unreachable!()
    };
    let two: AnyGame = base
        .endgame([1 << 20 | 1 << 24, 1 << 21 | 1 << 25], Player::First)
        .unwrap()
        .into();
    let one: AnyGame = base
        .endgame([1 << 20, 1 << 25], Player::First)
        .unwrap()
        .into();
    let whole = Tables::new(None, 2);
    let cut = Tables::new(None, 2).with_limit(1);
    assert_eq!((whole.limit(), cut.limit()), (exact::MAX_PIECES, 1));
    assert!(whole.value(&two).is_some());
    assert_eq!(cut.value(&two), None);
    assert_eq!(cut.value(&one), whole.value(&one));
    let t = whole.table(RuleSet::Kendall5).unwrap();
    assert_eq!(t.lookup_within(&two, 1), None);
    assert_eq!(t.lookup_within(&two, 2), t.lookup(&two));
    // The expert level reads the tables it is built with: with the cut ones it searches
    // the 2-v-2 position instead of answering it.
    let mut g = two;
    g.set_throw(senet_rules::Throw::single(2)).unwrap();
    let whole: &'static Tables = Box::leak(Box::new(whole));
    let cut: &'static Tables = Box::leak(Box::new(cut));
    let spec: BotSpec = "expert".parse().unwrap();
    let exact_nodes = spec.build_with_tables(whole).choose(&g, 1).nodes;
    let searched_nodes = spec.build_with_tables(cut).choose(&g, 1).nodes;
    assert!(
        searched_nodes > 10 * exact_nodes.max(1),
        "{exact_nodes} nodes with the 2-piece table, {searched_nodes} without"
    );
}

/// A build stopped between sweeps (`Checkpoint::stop_after`) and taken up again from its
/// checkpoint, as many times as it takes, writes the table a straight build writes, bit for
/// bit (one thread: the same sweeps in the same order); a checkpoint of another build or a
/// corrupt one is refused, saying why, and never used.
#[test]
fn a_build_stopped_and_resumed_from_its_checkpoint_gives_the_same_table() {
    let dir = temp_dir("checkpoint");
    for bits in [32, 16] {
        // A resumed build starts the extrapolation's history afresh (its jumps are not
        // where a straight build's are): plain sweeps, to resume bit for bit.
        let opts = BuildOptions {
            threads: 1,
            bits,
            extrapolate: false,
            ..BuildOptions::default()
        };
        let (straight, reports) =
            Table::build_with(RuleSet::Kendall, 2, opts, &mut |_| {}).unwrap();
        let ck = exact::Checkpoint {
            path: dir.join(format!("kendall-2-{bits}.senet-partial")),
            every: std::time::Duration::from_secs(3600),
            stop_after: Some(std::time::Duration::ZERO),
        };
        // Stopped after every sweep: each run sweeps once (or finishes a pair) and saves.
        let mut runs = 0;
        let (resumed, again) = loop {
            runs += 1;
            assert!(runs < 1000, "no end in sight");
            match Table::build_resumable(RuleSet::Kendall, 2, opts, Some(&ck), &mut |_| {}).unwrap()
            {
                exact::Built::Table(t, r) => break (t, r),
                exact::Built::Stopped(done) => assert!(done.len() < reports.len()),
            }
        };
        let sweeps: usize = reports.iter().map(|r| r.sweeps).sum();
        assert!(
            runs > sweeps / 2,
            "{bits} bits: {runs} runs for {sweeps} sweeps"
        );
        assert_eq!(straight.to_bytes(), resumed.to_bytes(), "{bits} bits");
        // Every pair took several runs, each said so, with all the sweeps counted.
        for (a, b) in reports.iter().zip(&again) {
            assert_eq!(
                (a.pieces, a.sweeps, a.resumed, b.resumed),
                (b.pieces, b.sweeps, false, true)
            );
        }
        assert!(again.iter().all(|r| r.pieces == (1, 1) || r.sweeps > 1));
        exact::remove_checkpoint(&ck.path).unwrap();
    }

    // A checkpoint of another build (16-bit values kept as f32, not f64; other rules) is
    // refused; a corrupt one too; neither is touched.
    let opts = BuildOptions {
        threads: 1,
        bits: 16,
        ..BuildOptions::default()
    };
    let ck = exact::Checkpoint {
        path: dir.join("kendall-2.senet-partial"),
        every: std::time::Duration::from_secs(3600),
        stop_after: Some(std::time::Duration::ZERO),
    };
    let stopped = Table::build_resumable(RuleSet::Kendall, 2, opts, Some(&ck), &mut |_| {});
    assert!(matches!(stopped, Ok(exact::Built::Stopped(_))));
    let saved = std::fs::read(&ck.path).unwrap();
    let other = |rules, bits| {
        let opts = BuildOptions {
            threads: 1,
            bits,
            ..BuildOptions::default()
        };
        Table::build_resumable(rules, 2, opts, Some(&ck), &mut |_| {}).unwrap_err()
    };
    for e in [other(RuleSet::Kendall, 32), other(RuleSet::Senat, 16)] {
        assert!(
            e.contains("of another build") && e.contains("--restart"),
            "{e}"
        );
    }
    let mut bad = saved.clone();
    let at = bad.len() / 2;
    bad[at] ^= 1;
    std::fs::write(&ck.path, &bad).unwrap();
    let e = other(RuleSet::Kendall, 16);
    assert!(e.contains("corrupt"), "{e}");
    std::fs::write(&ck.path, &saved[..saved.len() - 3]).unwrap();
    let e = other(RuleSet::Kendall, 16);
    assert!(e.contains("truncated"), "{e}");
    std::fs::write(&ck.path, b"not a checkpoint at all").unwrap();
    let e = other(RuleSet::Kendall, 16);
    assert!(e.contains("not a senet checkpoint"), "{e}");
    assert_eq!(std::fs::read(&ck.path).unwrap(), b"not a checkpoint at all");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_build_reports_each_sweep_and_each_level_pair_to_its_caller() {
    // The library prints nothing: what it tells the caller is the events. Every sweep of a
    // pair comes before the pair's report, numbered from 1, the last one with the report's
    // last change; a jump comes only after a sweep of its pair.
    for extrapolate in [false, true] {
        let opts = BuildOptions {
            threads: 2,
            bits: 16,
            extrapolate,
            ..BuildOptions::default()
        };
        let mut sweeps: Vec<exact::SweepReport> = Vec::new();
        let mut levels = Vec::new();
        let mut jumps = 0;
        let (_, reports) = Table::build_with(RuleSet::Senat, 2, opts, &mut |p| match p {
            exact::Progress::Sweep(s) => {
                let expected = match sweeps.last() {
                    Some(l) if l.pieces == s.pieces => l.sweeps + 1,
                    _ => 1,
                };
                assert_eq!(s.sweeps, expected, "{s:?}");
                assert_eq!(s.trend.is_some(), extrapolate, "{s:?}");
                sweeps.push(s);
            }
            exact::Progress::Jump {
                pieces,
                sweeps: n,
                ratio,
            } => {
                let last = sweeps.last().expect("a sweep before a jump");
                assert_eq!((last.pieces, last.sweeps), (pieces, n));
                assert!((0.8..1.0).contains(&ratio), "{ratio}");
                jumps += 1;
            }
            exact::Progress::Level(r) => {
                let last = sweeps.last().expect("a sweep before a level's report");
                assert_eq!(
                    (last.pieces, last.sweeps, last.largest_change),
                    (r.pieces, r.sweeps, r.last_change)
                );
                levels.push(r.pieces);
            }
            _ => unreachable!("no other events"),
        })
        .unwrap();
        assert_eq!(levels, reports.iter().map(|r| r.pieces).collect::<Vec<_>>());
        assert_eq!(
            sweeps.len(),
            reports.iter().map(|r| r.sweeps).sum::<usize>()
        );
        if !extrapolate {
            assert_eq!(jumps, 0);
        }
    }
}
