//! Move-count regression files: for positions from seeded random games (every rule set, its
//! defaults and each flag option switched on), the number of legal moves for every possible
//! throw. `tests/regression/<id>.txt` holds one position a line, then `THROW:COUNT` pairs.
//! After an intended rules change, `SENET_BLESS=1 cargo test --test regression` rewrites the
//! counts of the same positions, so the diff shows exactly what the change did; review it.
//! `SENET_BLESS=new` draws a new set of positions instead.

use senet_rules::conformance::corpus;
use senet_rules::Notation;
use senet_rules::{with_game, AnyGame, Game, MoveList, OptionKind, RuleSet};
use std::fmt::Write;
use std::path::PathBuf;

fn counts(g: &AnyGame) -> String {
    let mut parts = Vec::new();
    for (t, _) in g.throw_dist().outcomes {
        let mut h = *g;
        h.set_throw(*t).unwrap();
        let mut ms = MoveList::new();
        h.legal_moves(&mut ms);
        parts.push(format!("{t}:{}", ms.len()));
    }
    parts.join(" ")
}

fn generate(rules: RuleSet) -> String {
    let mut variants: Vec<Vec<String>> = vec![vec![]];
    for o in rules.option_specs() {
        if let OptionKind::Bool { default } = o.kind {
            variants.push(vec![format!("{}={}", o.name, !default)]);
        }
    }
    let mut out = String::new();
    for opts in variants {
        let start = AnyGame::new(rules, &opts).unwrap();
        let positions: Vec<AnyGame> = with_game!(&start, g => corpus(g, 23, 150, true).into_iter().map(AnyGame::from).collect());
        for p in positions {
            writeln!(out, "{}\t{}", p.position(), counts(&p)).unwrap();
        }
    }
    out
}

#[test]
fn move_counts_match_the_regression_files() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/regression");
    let bless = std::env::var("SENET_BLESS").ok();
    for &rules in RuleSet::ALL {
        let path = dir.join(format!("{}.txt", rules.id()));
        match bless.as_deref() {
            Some("new") => {
                std::fs::write(&path, generate(rules)).unwrap();
                continue;
            }
            Some(_) => {
                let old = std::fs::read_to_string(&path).unwrap_or_default();
                let mut out = String::new();
                for line in old.lines() {
                    let pos = line.split_once('\t').map_or(line, |(p, _)| p);
                    let g: AnyGame = pos.parse().unwrap();
                    writeln!(out, "{pos}\t{}", counts(&g)).unwrap();
                }
                std::fs::write(&path, out).unwrap();
                continue;
            }
            None => {}
        }
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (generate it with SENET_BLESS=1)", path.display()));
        let mut lines = 0;
        for (i, line) in text.lines().enumerate() {
            let (pos, expected) = line.split_once('\t').expect("position TAB counts");
            let g: AnyGame = pos
                .parse()
                .unwrap_or_else(|e| panic!("{}:{}: {e}", path.display(), i + 1));
            assert_eq!(counts(&g), expected, "{}:{}: {pos}", path.display(), i + 1);
            lines += 1;
        }
        assert!(lines >= 100, "{}: only {lines} positions", path.display());
    }
}
