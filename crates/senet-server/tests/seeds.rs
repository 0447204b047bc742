//! The seed commitment and the throws (`seeds.rs`) against fixed, committed vectors
//! (`tests/vectors/seeds.json`), and the page's JavaScript verifier against the same vectors,
//! run by Node without a browser.
//!
//! The vectors are one game per rule set: the seed, its commitment, the first words of the
//! throw hash, and the first throws with the distribution each was drawn from (exactly what
//! `GET /api/games/{id}/throws` answers), the moves between them picked by a fixed rule. A
//! change to them is a change of every stored game's throws: regenerate them only on purpose,
//! with `SENET_BLESS=1 cargo test -p senet-server --test seeds`.

use senet_rules::Notation;
use senet_rules::{AnyGame, Game, MoveList, Record, RuleSet, Status, Throw};
use senet_server::seeds;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Throws per game in the vectors.
const THROWS: usize = 40;

fn vectors_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/seeds.json")
}

/// The seed of each rule set's game: small, large and the largest seed.
fn seed_of(i: usize) -> u64 {
    [
        0,
        42,
        1_000_003,
        9_007_199_254_740_993,
        u64::MAX - 1,
        u64::MAX,
    ][i % 6]
}

/// One game of `rules` thrown from `seed`: its vector and its record.
fn game(rules: RuleSet, seed: u64) -> (Value, Record) {
    let mut g = AnyGame::new(rules, &[] as &[&str]).unwrap();
    let mut record = Record::new(&g, Some(seed));
    let (mut throws, mut moves) = (Vec::new(), Vec::new());
    let mut i = 0u64;
    while throws.len() < THROWS {
        match g.status() {
            Status::Throw(_) => {
                let outcomes: Vec<Value> = g
                    .throw_dist()
                    .outcomes
                    .iter()
                    .map(|(t, w)| json!([t.to_string(), w]))
                    .collect();
                let t = seeds::draw(&g, seed, i);
                throws.push(json!({ "throw": t.to_string(), "outcomes": outcomes }));
                g.set_throw(t).unwrap();
                record.push_throw(t);
                i += 1;
            }
            Status::Move(_) => {
                let mut ms = MoveList::new();
                g.legal_moves(&mut ms);
                let m = ms[(g.decisions() as usize * 5 + 3) % ms.len()];
                moves.push(g.move_string(m));
                record.push_move(g.move_string(m));
                g.play_unchecked(m);
            }
            Status::Over(_) => break,
        }
    }
    let vector = json!({
        "rules": rules.id(),
        "seed": seed.to_string(),
        "seed_hash": seeds::commitment(seed),
        "words": (0..4).map(|i| seeds::word(seed, i)).collect::<Vec<_>>(),
        "moves": moves,
        "throws": throws,
    });
    (vector, record)
}

fn expected() -> Value {
    let games: Vec<Value> = RuleSet::ALL
        .iter()
        .enumerate()
        .map(|(i, &r)| game(r, seed_of(i)).0)
        .collect();
    json!({
        "about": "Fixed vectors of the seed commitment and throws (crates/senet-server/src/seeds.rs); \
                  checked by crates/senet-server/tests/seeds.rs in Rust and, through Node, by the page's verifier.",
        "sha256": [
            { "text": "", "hex": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
            { "text": "abc", "hex": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
            { "text": "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
              "hex": "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
            { "text": "senet-seed:42", "hex": seeds::commitment(42) },
            { "text": "Senet — 𓋹 ankh", "hex": seeds::digest("Senet — 𓋹 ankh") },
        ],
        "games": games,
    })
}

/// JSON with a container per line down to the throws, each throw on one line.
fn layout(v: &Value, level: usize) -> String {
    fn nested<'a>(mut items: impl Iterator<Item = &'a Value>) -> bool {
        items.any(|x| x.is_array() || x.is_object())
    }
    let pad = "  ".repeat(level + 1);
    match v {
        Value::Array(a) if level <= 3 && nested(a.iter()) => {
            let items: Vec<String> = a
                .iter()
                .map(|x| format!("{pad}{}", layout(x, level + 1)))
                .collect();
            format!("[\n{}\n{}]", items.join(",\n"), "  ".repeat(level))
        }
        Value::Object(o) if level <= 3 && nested(o.values()) => {
            let items: Vec<String> = o
                .iter()
                .map(|(k, x)| format!("{pad}{}: {}", Value::from(k.as_str()), layout(x, level + 1)))
                .collect();
            format!("{{\n{}\n{}}}", items.join(",\n"), "  ".repeat(level))
        }
        _ => v.to_string(),
    }
}

fn committed() -> Value {
    let text = std::fs::read_to_string(vectors_path()).expect("tests/vectors/seeds.json");
    serde_json::from_str(&text).expect("seeds.json is JSON")
}

#[test]
fn seeds_and_throws_match_the_committed_vectors() {
    let want = expected();
    if std::env::var_os("SENET_BLESS").is_some() {
        let text = layout(&want, 0) + "\n";
        std::fs::write(vectors_path(), text).unwrap();
        return;
    }
    let got = committed();
    for (w, g) in want["games"]
        .as_array()
        .unwrap()
        .iter()
        .zip(got["games"].as_array().unwrap())
    {
        assert_eq!(w, g, "the vector of {} changed", w["rules"]);
    }
    assert_eq!(want, got, "tests/vectors/seeds.json");
    assert_eq!(got["games"].as_array().unwrap().len(), RuleSet::ALL.len());
}

#[test]
fn the_vectors_records_verify_and_a_changed_throw_does_not() {
    for (i, &r) in RuleSet::ALL.iter().enumerate() {
        let seed = seed_of(i);
        let (_, record) = game(r, seed);
        seeds::verify(&record, &seeds::commitment(seed)).unwrap();
        seeds::verify(&record, &seeds::commitment(seed).to_uppercase()).unwrap();
        assert!(seeds::verify(&record, &seeds::commitment(seed ^ 1)).is_err());
        // Every throw is checked: change the last one to another outcome of its distribution.
        let mut bad = record.clone();
        let last = bad
            .events
            .iter()
            .rposition(|e| matches!(e, senet_rules::Event::Throw { .. }))
            .unwrap();
        bad.events.truncate(last);
        let g = bad.replay().unwrap().end;
        let was = seeds::draw(&g, seed, THROWS as u64 - 1);
        let other = g
            .throw_dist()
            .outcomes
            .iter()
            .map(|x| x.0)
            .find(|t| *t != was);
        let other: Throw = other.expect("a throw with more than one outcome");
        bad.push_throw(other);
        let e = seeds::verify(&bad, &seeds::commitment(seed)).unwrap_err();
        assert!(e.contains(&format!("throw {}", THROWS - 1)), "{r:?}: {e}");
    }
}

/// Node, if it is installed: `SENET_NODE`, else `node` on the PATH.
fn node() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("SENET_NODE") {
        return Some(p.into());
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("node"))
            .find(|p| p.is_file())
    })
}

#[test]
fn the_pages_verifier_agrees_with_the_committed_vectors() {
    let Some(node) = node() else {
        eprintln!(
            "SKIPPED: the page's JavaScript verifier is not checked: no `node` on the PATH \
             (install Node.js, or point SENET_NODE at it)"
        );
        return;
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/verify.mjs");
    // The page's files are ES modules named `.js` with no package.json: Node 20 loads them as
    // such with `--experimental-default-type=module`; later versions, which dropped the flag,
    // detect module syntax themselves.
    let run = |flags: &[&str]| {
        Command::new(&node)
            .args(flags)
            .arg("--no-warnings")
            .arg(&script)
            .arg(vectors_path())
            .output()
            .expect("run node")
    };
    let mut out = run(&["--experimental-default-type=module"]);
    if !out.status.success() && String::from_utf8_lossy(&out.stderr).contains("bad option") {
        out = run(&[]);
    }
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "node {}:\n{text}", script.display());
    let games = committed()["games"].as_array().unwrap().len();
    assert!(
        text.contains(&format!("verified {games} games")),
        "the script checked every game:\n{text}"
    );
}
