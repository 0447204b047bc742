//! Feeds arbitrary input to the position and record parsers and arbitrary moves to `apply`.
//! The first byte picks the mode; nothing may panic, and every position that parses must
//! print back to a string that parses to the same position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use senet_rules::{AnyGame, Game, MoveList, Notation, OptionKind, Record, RuleSet, Status};

fn roundtrip(g: &AnyGame) {
    let p = g.position();
    let back: AnyGame = p.parse().expect("a printed position parses");
    assert_eq!(&back, g, "position round-trip");
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    match mode % 4 {
        // Arbitrary text as a position, then every legal move of it.
        0 => {
            let text = String::from_utf8_lossy(rest);
            if let Ok(g) = text.parse::<AnyGame>() {
                roundtrip(&g);
                let mut ms = MoveList::new();
                g.legal_moves(&mut ms);
                for m in ms {
                    let mut h = g;
                    h.play(m).expect("legal moves play");
                    roundtrip(&h);
                }
            }
        }
        // Arbitrary text as a game record.
        1 => {
            let text = String::from_utf8_lossy(rest);
            if let Ok(r) = Record::from_json(&text) {
                if let Ok(rep) = r.replay() {
                    roundtrip(&rep.end);
                }
            }
        }
        // A game driven by the bytes: the rule set and its flag options, then throws and
        // moves picked by them, and arbitrary move strings tried on the way (they must be
        // refused or be legal).
        2 => {
            let Some((&r, rest)) = rest.split_first() else { return };
            let Some((&flags, rest)) = rest.split_first() else { return };
            let rules = RuleSet::ALL[r as usize % RuleSet::ALL.len()];
            let opts: Vec<String> = rules
                .option_specs()
                .iter()
                .filter(|o| matches!(o.kind, OptionKind::Bool { .. }))
                .enumerate()
                .map(|(i, o)| format!("{}={}", o.name, flags >> i & 1 == 1))
                .collect();
            let Ok(mut g) = AnyGame::new(rules, &opts) else { return };
            let mut bytes = rest.iter().copied();
            let mut ms = MoveList::new();
            while let Some(b) = bytes.next() {
                match g.status() {
                    Status::Throw(_) => {
                        let d = g.throw_dist();
                        let t = d.outcomes[b as usize % d.outcomes.len()].0;
                        g.set_throw(t).expect("listed throws are possible");
                    }
                    Status::Move(_) => {
                        ms.clear();
                        g.legal_moves(&mut ms);
                        let m = ms[b as usize % ms.len()];
                        g.play(m).expect("legal moves play");
                    }
                    Status::Over(_) => break,
                }
                roundtrip(&g);
            }
        }
        // Arbitrary move strings applied to a random position of the game so far.
        _ => {
            let text = String::from_utf8_lossy(rest);
            let mut parts = text.splitn(2, '\n');
            let pos = parts.next().unwrap_or("");
            let mv = parts.next().unwrap_or("");
            if let Ok(mut g) = pos.parse::<AnyGame>() {
                if let Ok(m) = g.parse_move(mv) {
                    g.play(m).expect("a parsed move is legal");
                    roundtrip(&g);
                }
            }
        }
    }
});
