//! The speed of the game analysis (issue 19's bar: a kendall5 game in under 2 s at the
//! default depth, pyramid and parker in under 10 s; issue 55: under 2 s of wall clock on the
//! 2-core development machine): `expert` plays itself from seeded throws, and each game's
//! record is analysed at the default depths (within the `expert` budget) twice: on one
//! thread, timed in thread CPU time, and on every core ([`analysis::threads`]), as
//! `senet analyze` does, timed in wall-clock time. The two analyses must be equal.
//!
//! `cargo run --release -p senet-coach --example analysisbench [GAMES] [RULES,...]`

use senet_bots::analysis::{self, analyze_on, Options};
use senet_bots::BotSpec;
use senet_coach::duel::{median, mix, play_game, record_of, timed};
use senet_rules::{AnyGame, RuleSet};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(10);
    let rules: Vec<RuleSet> = match args.get(2) {
        Some(list) => list
            .split(',')
            .map(|r| r.parse().expect("a rule set ID"))
            .collect(),
        None => RuleSet::ALL.to_vec(),
    };
    let threads = analysis::threads();
    println!(
        "| rule set | depth | luck depth | games | decisions (median) | one thread: CPU s per game, median | max | {threads} threads: wall s per game, median | max |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for r in rules {
        let start = AnyGame::new(r, &[] as &[&str]).expect("default options");
        let spec: BotSpec = "expert".parse().expect("a level");
        let (mut a, mut b) = (spec.build(), spec.build());
        let opt = Options::for_rules(r);
        let (mut cpu, mut wall) = (Vec::new(), Vec::new());
        let mut decisions = Vec::new();
        for i in 0..games {
            let s = mix(7, i);
            let game = play_game(&start, [a.as_mut(), b.as_mut()], s, s, true);
            let rec = record_of(&start, &game);
            let (one, _, c) =
                timed(|| analyze_on(&rec, &opt, 1, &mut |_, _| {}).expect("a bot game"));
            let (all, w, _) =
                timed(|| analyze_on(&rec, &opt, threads, &mut |_, _| {}).expect("a bot game"));
            assert_eq!(one, all, "the analysis depends on the threads");
            assert_eq!(
                one.players[0].decisions + one.players[1].decisions,
                game.moves.len()
            );
            cpu.push(c / 1e6);
            wall.push(w / 1e6);
            decisions.push(game.moves.len() as f64);
        }
        let max = |v: &[f64]| v.iter().cloned().fold(0.0, f64::max);
        let (cpu_max, wall_max) = (max(&cpu), max(&wall));
        println!(
            "| {} | {} | {} | {games} | {:.0} | {:.2} | {:.2} | {:.2} | {:.2} |",
            r.id(),
            opt.depth,
            opt.luck_depth,
            median(&mut decisions),
            median(&mut cpu),
            cpu_max,
            median(&mut wall),
            wall_max
        );
    }
}
