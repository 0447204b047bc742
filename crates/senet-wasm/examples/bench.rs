//! The work of `crates/senet-wasm/tests/bench.mjs`, natively, through the same JSON API
//! (`senet_engine::call`): the first `expert` move, `expert` time per move over self-play
//! kendall5 games (the same games: throws from the same 31-bit LCG), and a whole game
//! analysed, at once and in chunks of 8 events. For docs/performance.md, side by side with
//! the WebAssembly figures.
//!
//!     cargo run --release -p senet-wasm --example bench -- [MOVES]

use senet_engine::call;
use serde_json::{json, Value};
use std::time::Instant;

fn ask(req: Value) -> Value {
    let a: Value = serde_json::from_str(&call(&req.to_string())).expect("JSON");
    assert!(a.get("error").is_none(), "{req}: {a}");
    a
}

fn main() {
    let moves: usize = std::env::args()
        .nth(1)
        .map_or(200, |n| n.parse().expect("MOVES"));
    // The exact tables built in memory, as in the page (no table file of this machine).
    std::env::set_var("SENET_TABLES", "/nonexistent/senet-wasm-bench");
    let mut lcg: u64 = 54;
    let mut draw = |throws: &[Value]| -> String {
        lcg = (lcg * 1103515245 + 12345) % 2147483648;
        let total: u64 = throws.iter().map(|t| t["weight"].as_u64().unwrap()).sum();
        let mut r = (lcg / 65536) % total;
        for t in throws {
            let w = t["weight"].as_u64().unwrap();
            if r < w {
                return t["throw"].as_str().unwrap().to_string();
            }
            r -= w;
        }
        unreachable!("the weights sum to the total")
    };
    let start = ask(json!({"op": "new", "rules": "kendall5"}))["position"].clone();
    let t = Instant::now();
    ask(json!({"op": "bot", "position": start, "throw": "2", "bot": "expert", "seed": 0}));
    let first = t.elapsed().as_secs_f64() * 1000.0;
    let mut times = Vec::new();
    let mut games = Vec::new();
    let mut game = 0u64;
    while times.len() < moves {
        let mut p = start.clone();
        let mut events = Vec::new();
        loop {
            let s = ask(json!({"op": "state", "position": p}));
            match s["status"]["state"].as_str().unwrap() {
                "over" => break,
                "throw" => {
                    let th = draw(s["throws"].as_array().unwrap());
                    events.push(json!({ "throw": th }));
                    p = ask(json!({"op": "throw", "position": p, "throw": th}))["position"].clone();
                }
                _ => {
                    let t = Instant::now();
                    let b = ask(json!({"op": "bot", "position": p, "bot": "expert", "seed": game}));
                    times.push(t.elapsed().as_secs_f64() * 1000.0);
                    events.push(json!({ "move": b["move"] }));
                    p = ask(json!({"op": "play", "position": p, "move": b["move"]}))["position"]
                        .clone();
                }
            }
        }
        games.push(json!({"format": "senet-record/1", "rules": "kendall5", "events": events}));
        game += 1;
    }
    times.sort_by(f64::total_cmp);
    let q = |f: f64| times[((f * times.len() as f64) as usize).min(times.len() - 1)];
    let record = &games[0];
    let t = Instant::now();
    let whole = ask(json!({"op": "analyze", "record": record}));
    let analysed = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let mut a = ask(json!({"op": "analyze_start", "record": record}));
    while a["status"] != "done" {
        a = ask(json!({"op": "analyze_step", "session": a["session"], "events": 8}));
    }
    let chunked = t.elapsed().as_secs_f64();
    let r = |x: f64| (x * 10.0).round() / 10.0;
    println!(
        "{:#}",
        json!({
            "where": "native (this machine, release build)",
            "first_move_ms": r(first),
            "expert": {
                "moves": times.len(), "games": games.len(), "median_ms": r(q(0.5)),
                "p90_ms": r(q(0.9)), "p99_ms": r(q(0.99)), "max_ms": r(q(1.0)),
                "mean_ms": r(times.iter().sum::<f64>() / times.len() as f64),
            },
            "analysis": {
                "events": record["events"].as_array().unwrap().len(),
                "whole_s": (analysed * 100.0).round() / 100.0,
                "chunks_of_8_s": (chunked * 100.0).round() / 100.0,
                "same": a["analysis"] == whole["analysis"],
            },
        })
    );
}
