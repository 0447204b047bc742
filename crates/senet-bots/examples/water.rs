//! When is stepping into the water the best move? (issue 34)
//!
//! Scans every position of an exact table where the side to throw has a piece on 26 and the
//! throw is 1, so that one legal move is 26 -> 27, the water, which puts the piece back on 15
//! (or below) and, on the sheets where a 1 throws again, keeps the turn. For each level it
//! counts the decisions, how often the water move is an exact best (and by how much it beats
//! the best other move), and how often the bots' one-ply choice (`greedy@tuned`, the trained
//! evaluator of `strong` and `expert`) and `expert` without tables (with them it answers exactly) take it where it is best.
//!
//! ```text
//! cargo run --release -p senet-bots --example water -- kendall5 [DIR] [--bots N]
//! ```
//! DIR holds the tables (default as `senet solve`); `--bots N` asks the bots on every Nth
//! water-best decision (default 50; `expert` takes tens of milliseconds each).

use senet_bots::exact::{default_dir, Tables};
use senet_bots::{Bot, BotSpec};
use senet_rules::{AnyGame, Game, MoveKind, MoveList, Notation, RuleSet, Throw};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rules: RuleSet = args
        .first()
        .map_or("kendall5", |s| s.as_str())
        .parse()
        .map_err(|e| format!("{e}"))?;
    let dir = args
        .get(1)
        .filter(|a| !a.starts_with("--"))
        .map(std::path::PathBuf::from)
        .or_else(default_dir);
    let every: usize = args
        .iter()
        .position(|a| a == "--bots")
        .and_then(|i| args.get(i + 1))
        .map_or(Ok(50), |s| s.parse())
        .map_err(|e| format!("--bots: {e}"))?;
    let tables: &'static Tables = Box::leak(Box::new(Tables::new(dir, 2)));
    let table = tables
        .table(rules)
        .ok_or_else(|| format!("no table for {rules}"))?;
    println!(
        "table: {} ({} pieces)",
        tables.source(rules),
        table.pieces()
    );
    let mut greedy = "greedy@tuned".parse::<BotSpec>()?.build_with_tables(tables);
    // `expert` without tables: with them it answers these positions exactly.
    let none: &'static Tables = Box::leak(Box::new(Tables::new(None, 0)));
    let mut expert = "expert".parse::<BotSpec>()?.build_with_tables(none);
    let one = Throw::single(1);
    println!("| level | decisions with a water move | water best | mean margin when best | greedy@tuned takes it when best | expert takes it when best |");
    println!("|---|---|---|---|---|---|");
    for a in 1..=table.pieces() {
        for b in 1..=table.pieces() {
            let (mut n, mut best_n, mut margin) = (0u64, 0u64, 0.0f64);
            let (mut asked, mut g_ok, mut e_ok) = (0u64, 0u64, 0u64);
            let mut states = Vec::new();
            table.for_each_state(a, b, |own, opp, _| {
                if own & (1 << 26) != 0 {
                    states.push((own, opp));
                }
            });
            for (own, opp) in states {
                let Some(mut g) = table.position(own, opp) else {
                    continue;
                };
                if g.set_throw(one).is_err() {
                    continue;
                }
                let mut ms = MoveList::new();
                g.legal_moves(&mut ms);
                if ms.len() < 2 || !ms.iter().any(|m| m.kind.contains(MoveKind::WATER)) {
                    continue;
                }
                let Some(vals) = tables.move_values(&g) else {
                    continue;
                };
                n += 1;
                // The side to throw is the first player.
                let water = vals
                    .iter()
                    .filter(|x| x.0.kind.contains(MoveKind::WATER))
                    .map(|x| x.1)
                    .fold(0.0, f64::max);
                let other = vals
                    .iter()
                    .filter(|x| !x.0.kind.contains(MoveKind::WATER))
                    .map(|x| x.1)
                    .fold(0.0, f64::max);
                if water + 2e-6 < other {
                    continue;
                }
                best_n += 1;
                margin += water - other;
                if (best_n as usize).is_multiple_of(every.max(1)) {
                    asked += 1;
                    let takes = |b: &mut Box<dyn Bot>, g: &AnyGame| {
                        b.choose(g, 1).best.kind.contains(MoveKind::WATER)
                    };
                    g_ok += takes(&mut greedy, &g) as u64;
                    e_ok += takes(&mut expert, &g) as u64;
                    if asked <= 2 {
                        eprintln!(
                            "{a}v{b}: {} water {:.4}, best other {:.4}",
                            g.position(),
                            water,
                            other
                        );
                    }
                }
            }
            let share = |k: u64, of: u64| {
                if of == 0 {
                    "-".to_string()
                } else {
                    format!("{:.1}% of {of}", 100.0 * k as f64 / of as f64)
                }
            };
            println!(
                "| {a}v{b} | {n} | {} | {:.4} | {} | {} |",
                share(best_n, n),
                if best_n > 0 {
                    margin / best_n as f64
                } else {
                    0.0
                },
                share(g_ok, asked),
                share(e_ok, asked)
            );
        }
    }
    Ok(())
}
