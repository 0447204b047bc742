//! Compares two exact tables of one rule set, typically the same table kept in 32 and in 16
//! bits (`senet solve RULES --bits 16`; `docs/solve.md`): the largest difference between
//! their values, and over every position and throw with at least two legal moves, how often
//! the best move by one table's values differs from the best by the other's, and what the
//! other's choice loses by the first table's values.
//!
//! ```text
//! cargo run --release -p senet-bots --example compare_bits -- kendall5 A/kendall5-3.senet-exact B/kendall5-3.senet-exact
//! ```

use rayon::prelude::*;
use senet_bots::exact::{Table, Tables};
use senet_rules::{Game, MoveList, RuleSet};
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [rules, a, b] = &args[..] else {
        eprintln!("usage: compare_bits RULES TABLE_A TABLE_B");
        std::process::exit(2);
    };
    let rules: RuleSet = rules.parse().expect("a rule set");
    let read = |p: &str| Table::read(Path::new(p), rules).unwrap_or_else(|e| panic!("{e}"));
    let (ta, tb) = (read(a), read(b));
    assert_eq!(ta.pieces(), tb.pieces(), "tables of other sizes");
    let (bits_a, bits_b) = (ta.bits(), tb.bits());
    let pieces = ta.pieces();
    let mut states = Vec::new();
    let mut max_diff: f64 = 0.0;
    for x in 1..=pieces {
        for y in 1..=pieces {
            ta.for_each_state(x, y, |own, opp, v| {
                let w = tb.side_to_throw(own, opp).expect("the same positions");
                max_diff = max_diff.max((v - w).abs());
                states.push((own, opp));
            });
        }
    }
    let (ta, tb) = (Tables::from_tables(vec![ta]), Tables::from_tables(vec![tb]));
    let ta_ref = ta.table(rules).expect("given");
    // Per (position, throw) with two or more moves: (choices, differing best moves, of
    // which ties in B, value lost by B's choice by A's values (sum, max)).
    let zero = || (0u64, 0u64, 0u64, 0.0f64, 0.0f64);
    let add = |x: (u64, u64, u64, f64, f64), y: (u64, u64, u64, f64, f64)| {
        (x.0 + y.0, x.1 + y.1, x.2 + y.2, x.3 + y.3, x.4.max(y.4))
    };
    let r = states
        .par_iter()
        .map(|&(own, opp)| {
            let mut acc = zero();
            let g = ta_ref.position(own, opp).expect("a position");
            let d = g.throw_dist();
            for &(t, _) in d.outcomes {
                let mut h = g;
                h.set_throw_unchecked(t);
                let mut ms = MoveList::new();
                h.legal_moves(&mut ms);
                if ms.len() < 2 {
                    continue;
                }
                let (Some(va), Some(vb)) = (ta.move_values(&h), tb.move_values(&h)) else {
                    panic!("a move not covered");
                };
                // The side to throw is the first player: best is highest, first of equals.
                let best = |v: &[(senet_rules::Move, f64)]| {
                    (0..v.len()).fold(0, |b, i| if v[i].1 > v[b].1 { i } else { b })
                };
                let (ia, ib) = (best(&va), best(&vb));
                acc.0 += 1;
                if va[ia].0 != vb[ib].0 {
                    acc.1 += 1;
                    acc.2 += (vb.iter().filter(|m| m.1 == vb[ib].1).count() >= 2) as u64;
                    let lost = va[ia].1 - va[ib].1;
                    acc.3 += lost;
                    acc.4 = acc.4.max(lost);
                }
            }
            acc
        })
        .reduce(zero, add);
    println!(
        "{rules}: {} positions; values {bits_a}-bit vs {bits_b}-bit: largest difference {max_diff:.3e}",
        states.len()
    );
    println!(
        "throws with two or more moves: {}; best move differs in {} ({:.4}%), {} of them ties in the second table; the second's choice loses by the first's values {:.3e} on average where they differ, {:.3e} at most ({:.3e} per choice)",
        r.0,
        r.1,
        100.0 * r.1 as f64 / r.0.max(1) as f64,
        r.2,
        r.3 / r.1.max(1) as f64,
        r.4,
        r.3 / r.0.max(1) as f64
    );
}
