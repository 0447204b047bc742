//! Writes the cases of the WebAssembly engine's equivalence test (issue 54): requests with the
//! native engine's answers, one JSON object a line (`{"rules", "req", "answer"}`), which
//! `crates/senet-wasm/tests/equivalence.mjs` asks the .wasm and compares.
//!
//!     cargo run --release -p senet-wasm --example equivalence_cases -- target/wasm/equivalence.jsonl [POSITIONS]
//!
//! For every rule set, POSITIONS (default 2,000) positions of seeded games (random moves, or
//! the `greedy` bot's, every other game with random options), each asked: its state (status,
//! throws, legal moves with their results, view); at a move, one move played, and the moves of
//! `random`, `greedy` and `expectimax:1`; at every 4th move the levels `beginner`, `casual`
//! and `strong`; at every 25th `expert`, the hint and the value; at every 25th throw the
//! value. Then the positions of the rules crate's regression files
//! (`crates/senet-rules/tests/regression/*.txt`) with each throw, and the analysis of one game
//! per rule set, whole and in chunks.
//!
//! The native answers are those of `senet_engine::call`, with the exact tables built in
//! memory as in the page (`SENET_TABLES` is pointed at an empty place, so no table file of
//! this machine is read).

use senet_engine::call;
use senet_rules::conformance::SplitMix;
use senet_rules::{AnyGame, Game, MoveList, Notation, OptionKind, Record, RuleSet, Status};
use serde_json::{json, Value};
use std::io::Write;

fn main() {
    let mut args = std::env::args().skip(1);
    let out = args
        .next()
        .unwrap_or_else(|| "target/wasm/equivalence.jsonl".into());
    let per_rules: usize = args.next().map_or(2000, |n| n.parse().expect("POSITIONS"));
    // Single-threaded here: nothing else sets the environment.
    std::env::set_var("SENET_TABLES", "/nonexistent/senet-wasm-equivalence");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&out).expect("the output file"));
    let mut n = 0usize;
    let mut write = |rules: &str, req: Value| {
        // The answer's text as is: its numbers exactly as the native engine wrote them.
        let answer = call(&req.to_string());
        writeln!(f, r#"{{"rules":"{rules}","req":{req},"answer":{answer}}}"#).expect("write");
        n += 1;
    };
    let started = std::time::Instant::now();
    for &rules in RuleSet::ALL {
        let id = rules.id();
        let mut rng = SplitMix(0x5e7e_0054 ^ rules as u64);
        let (mut positions, mut moves_seen, mut throws_seen, mut game) = (0, 0usize, 0usize, 0u64);
        let mut analysed = false;
        while positions < per_rules {
            game += 1;
            let options = if game % 2 == 0 {
                random_options(rules, &mut rng)
            } else {
                Vec::new()
            };
            let mut g = AnyGame::new(rules, &options).expect("options");
            let mut rec = Record::new(&g, Some(game));
            let greedy = game % 3 == 0;
            let mut ms = MoveList::new();
            while positions < per_rules {
                let p = g.position();
                write(id, json!({ "op": "state", "position": p }));
                positions += 1;
                match g.status() {
                    Status::Over(_) => break,
                    Status::Throw(_) => {
                        if throws_seen % 25 == 0 {
                            write(id, json!({ "op": "value", "position": p, "depth": 1 }));
                        }
                        throws_seen += 1;
                        let t = g.throw_dist().sample(rng.next_u32());
                        write(
                            id,
                            json!({ "op": "throw", "position": p, "throw": t.to_string() }),
                        );
                        g.set_throw(t).expect("a drawn throw");
                        rec.push_throw(t);
                    }
                    Status::Move(_) => {
                        let seed = rng.next_u64() >> 12;
                        let mut bots = vec!["random", "greedy", "expectimax:1"];
                        if moves_seen % 4 == 0 {
                            bots.extend(["beginner", "casual", "strong"]);
                        }
                        if moves_seen % 25 == 0 {
                            bots.push("expert");
                            write(id, json!({ "op": "hint", "position": p, "seed": seed }));
                            write(id, json!({ "op": "value", "position": p }));
                        }
                        moves_seen += 1;
                        for bot in bots {
                            write(
                                id,
                                json!({ "op": "bot", "position": p, "bot": bot, "seed": seed }),
                            );
                        }
                        ms.clear();
                        g.legal_moves(&mut ms);
                        let m = if greedy {
                            senet_bots::play::choose("greedy", &g, seed)
                                .expect("a move")
                                .0
                        } else {
                            ms[rng.below(ms.len())]
                        };
                        let text = g.move_string(m);
                        write(id, json!({ "op": "play", "position": p, "move": text }));
                        g.play(m).expect("a legal move");
                        rec.push_move(text);
                    }
                }
            }
            if !analysed && matches!(g.status(), Status::Over(_)) && options.is_empty() {
                // One whole game per rule set analysed, as the review does (the analysis is
                // the same in chunks: checked by the crate's unit tests and below).
                rec.finish(&g);
                let r: Value = serde_json::from_str(&rec.to_json()).expect("a record");
                write(id, json!({ "op": "analyze", "record": r }));
                analysed = true;
            }
        }
        eprintln!(
            "{id}: {positions} positions, {moves_seen} decisions, {game} games, analysed: {analysed} ({:.0} s so far)",
            started.elapsed().as_secs_f64()
        );
    }
    // The regression positions of the rules crate, each with every throw it lists.
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../senet-rules/tests/regression"
    );
    for &rules in RuleSet::ALL {
        let text =
            std::fs::read_to_string(format!("{dir}/{}.txt", rules.id())).expect("regression file");
        for line in text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        {
            let (p, counts) = line.split_once('\t').expect("position TAB counts");
            for c in counts.split_whitespace() {
                let (t, _) = c.split_once(':').expect("throw:count");
                write(
                    rules.id(),
                    json!({ "op": "state", "position": p, "throw": t }),
                );
            }
        }
    }
    f.flush().expect("write");
    eprintln!(
        "{n} cases in {out} ({:.0} s)",
        started.elapsed().as_secs_f64()
    );
}

/// Options of `rules` drawn at random (every flag; an integer option left at its default).
fn random_options(rules: RuleSet, rng: &mut SplitMix) -> Vec<String> {
    rules
        .option_specs()
        .iter()
        .filter_map(|o| match o.kind {
            OptionKind::Bool { .. } => Some(format!("{}={}", o.name, rng.next_u32() & 1 == 1)),
            OptionKind::Int { .. } => None,
        })
        .collect()
}
