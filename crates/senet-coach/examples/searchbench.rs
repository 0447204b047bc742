//! Times expectimax variants on positions from greedy self-play (one thread).
//! `cargo run --release -p senet-coach --example searchbench -- kendall5 3 400 [VARIANT] [linear]`
//! (the network evaluator in use, or the linear one it grew from; `parker` and `pyramid` use
//! their hand-set evaluators).
use senet_bots::search::{SearchOptions, Searcher};
use senet_coach::ladder::timing_positions;
use senet_rules::{AnyGame, RuleSet};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rules: RuleSet = args.get(1).map_or("kendall5", |s| s).parse().unwrap();
    let depth: u32 = args.get(2).map_or(3, |s| s.parse().unwrap());
    let n: usize = args.get(3).map_or(400, |s| s.parse().unwrap());
    let start = AnyGame::new(rules, &[] as &[&str]).unwrap();
    let pos = timing_positions(&start, n, 1);
    let base = senet_bots::BotSpec::search_options(depth);
    let variants: Vec<(&str, SearchOptions)> = vec![
        ("default", base),
        (
            "bounds-root",
            SearchOptions {
                exact_root: false,
                ..base
            },
        ),
        (
            "no-star2",
            SearchOptions {
                star2: false,
                ..base
            },
        ),
        (
            "no-star2 bounds-root",
            SearchOptions {
                star2: false,
                exact_root: false,
                ..base
            },
        ),
        (
            "no-order",
            SearchOptions {
                ordering: false,
                ..base
            },
        ),
        (
            "order2",
            SearchOptions {
                order_depth: 2,
                ..base
            },
        ),
        (
            "order2 bounds-root",
            SearchOptions {
                order_depth: 2,
                exact_root: false,
                ..base
            },
        ),
        (
            "no-star2 order2 bounds-root",
            SearchOptions {
                order_depth: 2,
                star2: false,
                exact_root: false,
                ..base
            },
        ),
        (
            "tt12",
            SearchOptions {
                tt_bits: 12,
                ..base
            },
        ),
        ("tt0", SearchOptions { tt_bits: 0, ..base }),
        (
            "no-dedup bounds-root",
            SearchOptions {
                dedup: false,
                exact_root: false,
                ..base
            },
        ),
        ("plain", SearchOptions::plain(depth)),
    ];
    let only = args.get(4).cloned().filter(|o| o != "all");
    let linear = args.get(5).is_some_and(|a| a == "linear");
    // SB_DUMP=FILE: write each position's best move and root values (exact bits), to check
    // that a change of the search leaves its results alone.
    let mut dump = std::env::var("SB_DUMP")
        .ok()
        .map(|f| std::io::BufWriter::new(std::fs::File::create(f).expect("SB_DUMP file")));
    for (name, opt) in variants {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let mut times = Vec::new();
        let mut nodes = 0u64;
        let mut s5 = Searcher::new(opt.tt_bits);
        let mut s4 = Searcher::new(opt.tt_bits);
        let mut sp = Searcher::new(opt.tt_bits);
        let mut sy = Searcher::new(opt.tt_bits);
        for g in &pos {
            let (r, _, cpu) = senet_coach::duel::timed(|| match g {
                AnyGame::Kendall5(k) if linear => {
                    s5.search(k, &senet_bots::weights::KENDALL5, &opt)
                }
                AnyGame::Kendall(k) if linear => s4.search(k, &senet_bots::weights::KENDALL, &opt),
                AnyGame::Kendall5(k) => s5.search(k, &*senet_bots::weights::KENDALL5_NET, &opt),
                AnyGame::Kendall(k) => s4.search(k, &*senet_bots::weights::KENDALL_NET, &opt),
                AnyGame::Parker(k) => sp.search(k, &senet_bots::parker::PARKER, &opt),
                AnyGame::Pyramid(k) => sy.search(k, &senet_bots::pyramid::PYRAMID, &opt),
                #[allow(unreachable_patterns)]
                _ => panic!("searchbench knows kendall, kendall5, parker and pyramid"),
            });
            times.push(cpu);
            if let Some(d) = dump.as_mut() {
                use std::io::Write;
                let bits: Vec<String> = r
                    .values
                    .iter()
                    .map(|(m, v)| format!("{m:?}={:016x}", v.to_bits()))
                    .collect();
                writeln!(d, "{name} best {} {}", r.best, bits.join(" ")).unwrap();
            }
            nodes += r.nodes;
        }
        let med = senet_coach::duel::median(&mut times);
        println!(
            "{name:<22} median CPU {med:>9.1} us  mean nodes {:>9.0}",
            nodes as f64 / pos.len() as f64
        );
    }
}
