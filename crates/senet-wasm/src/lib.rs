//! The engine of senet's page in WebAssembly (issue 54): the rules of every rule set, every
//! bot and level, the hint, the value of a position (the win-chance bar) and a game's
//! analysis, behind one JSON-in, JSON-out call, so that the page can play, hint and analyse
//! with no server. Built for `wasm32-unknown-unknown` by `scripts/build-wasm.sh` into
//! `target/wasm/senet_engine.wasm`.
//!
//! The answers are the native engine's: the same functions of `senet-rules` and `senet-bots`
//! that `senet serve` and the `senet` commands call, with the same JSON shapes. A bot's move
//! depends only on the position, the bot and the seed, so the page's bot plays the move the
//! server's would; `crates/senet-wasm/tests/equivalence.mjs` checks that in node.
//!
//! # The C ABI (the `ffi` module, on wasm32 only)
//!
//! - `senet_alloc(len: u32) -> *mut u8` and `senet_free(ptr: *mut u8, len: u32)`: buffers in
//!   the module's memory.
//! - `senet_call(ptr: *const u8, len: u32) -> u64`: the request, UTF-8 JSON in a buffer the
//!   caller allocated (and frees); the answer is UTF-8 JSON in a new buffer, returned as
//!   `ptr << 32 | len`, which the caller frees with `senet_free(ptr, len)`.
//!
//! The module imports nothing (`WebAssembly.instantiate(bytes, {})`).
//!
//! # Requests and answers
//!
//! Every request is an object with `op`; every answer an object, `{"error": "words"}` when
//! the request is refused (an unknown op or field, a malformed position, an illegal move, a
//! throw that cannot be thrown, ...). A request's unknown fields are refused, so that a
//! misspelt field is not silently ignored. Positions are position strings
//! (`docs/notation.md`); where a request takes `throw` beside a position awaiting a throw, the
//! throw is set first (as `senet moves --throw`). Seeds are integers (or strings of digits,
//! for seeds past 2^53). See [`call`] for each op.
#![deny(unsafe_op_in_unsafe_fn)]

use senet_bots::analysis::{self, Analyzer, Options};
use senet_bots::play;
use senet_rules::{AnyGame, Effects, Game, Move, Notation, Record, RuleSet, Status, Throw, View};
use serde_json::{json, Map, Value};
use std::cell::RefCell;
use std::collections::BTreeMap;

#[cfg(target_arch = "wasm32")]
pub mod ffi;

/// Answers one request (JSON text) with JSON text: the answer, or `{"error": "words"}`.
///
/// The ops (fields marked `?` are optional):
///
/// - `{"op": "rules"}` → `{"rules": [...], "levels": [...], "hint_level": "expert"}`: every
///   rule set as `senet rules --json` lists it (`id`, `name`, `source`, `options`), the bot
///   levels weakest first.
/// - `{"op": "new", "rules": R, "options"?: {"name": value, ...} or ["name=value", ...]}` →
///   `{"rules": R, "position": P}`: the start of a game.
/// - `{"op": "state", "position": P, "throw"?: T}` → `{"position", "status", "decisions",
///   "throw_kind", "view", "throws"?, "legal"?}`: `status` as `senet apply --json` gives it
///   (`{"state": "throw", "player"}`, `{"state": "move", "player", "throw"}`, `{"state":
///   "over", "winner", "capped", "score"}`); `view` the board as the server's `GameState.view`;
///   awaiting a throw, `throws`: `[{"throw", "weight"}, ...]`; awaiting a move, `legal`: the
///   objects `senet moves` prints (`move`, `from`, `to`, `kinds`, `turn_continues`,
///   `position`, `die` with two dice), each also with the server's `from_square`,
///   `to_square` (the squares' indexes, the server's `LegalMove.from`/`to`), `from_name`,
///   `to_name`.
/// - `{"op": "throw", "position": P, "throw": T}` → `{"position", "status"}`.
/// - `{"op": "play", "position": P, "move": M, "throw"?: T}` → what `senet apply --json`
///   prints: `{"move", "from", "to", "kinds", "turn_continues", "position", "die"?,
///   "status"}` (`kinds` and `turn_continues` are what the server's events report).
/// - `{"op": "bot", "position": P, "bot": NAME, "seed": S, "throw"?: T}` → `{"move": M,
///   "estimate": f64 or null}`: `senet_bots::play::choose`, any bot name or level.
/// - `{"op": "hint", "position": P, "seed"?: S, "throw"?: T}` → `{"best": M, "moves":
///   [{"move", "chance"}, ...] (generator order), "score": best's chance, "level":
///   "expert"}`: `senet_bots::play::hint` (seed 0 unless given; the server's hint seeds it
///   from the game).
/// - `{"op": "value", "position": P, "throw"?: T, "depth"?: D}` → what `POST /api/value`
///   answers (`senet_bots::analysis::value_bounded`).
/// - `{"op": "analyze", "record": REC}` → `{"status": "done", "analysis": A}`: the review's
///   analysis (the body of `GET /api/games/{id}/analysis` once done), with the server's
///   options (`Options::for_rules`). `REC` is a record object (`docs/notation.md`) or its
///   JSON text.
/// - In chunks, for progress: `{"op": "analyze_start", "record": REC}` → `{"status":
///   "running", "session": N, "done": 0, "total": EVENTS}`; then `{"op": "analyze_step",
///   "session": N, "events"?: K}` analyses K more events (default 1) → the same running
///   object, or once all are done `{"status": "done", "session": N, "done", "total",
///   "analysis": A}` (the session is then closed); `{"op": "analyze_stop", "session": N}` →
///   `{"stopped": bool}` drops a session. The chunks give exactly the one-shot analysis.
pub fn call(request: &str) -> String {
    let answer = match serde_json::from_str::<Value>(request) {
        Ok(req) => answer(&req).unwrap_or_else(|e| json!({ "error": e })),
        Err(e) => json!({
            "error": format!(
                "the request is not JSON: {}",
                senet_rules::record::json_syntax_in_words(&e)
            )
        }),
    };
    answer.to_string()
}

/// The ops and the fields each takes (besides `op`).
const OPS: &[(&str, &[&str])] = &[
    ("rules", &[]),
    ("new", &["rules", "options"]),
    ("state", &["position", "throw"]),
    ("throw", &["position", "throw"]),
    ("play", &["position", "move", "throw"]),
    ("bot", &["position", "bot", "seed", "throw"]),
    ("hint", &["position", "seed", "throw"]),
    ("value", &["position", "throw", "depth"]),
    ("analyze", &["record"]),
    ("analyze_start", &["record"]),
    ("analyze_step", &["session", "events"]),
    ("analyze_stop", &["session"]),
];

/// Answers a parsed request, or refuses it in words.
pub fn answer(req: &Value) -> Result<Value, String> {
    let Some(obj) = req.as_object() else {
        return Err("a request is a JSON object with \"op\"".into());
    };
    let names = || OPS.iter().map(|o| o.0).collect::<Vec<_>>().join(", ");
    let op = match obj.get("op") {
        Some(Value::String(s)) => s.as_str(),
        Some(_) => return Err("\"op\" must be text".into()),
        None => {
            return Err(format!(
                "the request has no \"op\"; the ops are: {}",
                names()
            ))
        }
    };
    let Some(&(_, fields)) = OPS.iter().find(|o| o.0 == op) else {
        return Err(format!("unknown op {op:?}; the ops are: {}", names()));
    };
    for k in obj.keys() {
        if k != "op" && !fields.contains(&k.as_str()) {
            return Err(if fields.is_empty() {
                format!("unknown field {k:?}: a {op:?} request takes no field but \"op\"")
            } else {
                format!(
                    "unknown field {k:?} in a {op:?} request; its fields are: {}",
                    fields.join(", ")
                )
            });
        }
    }
    let r = Req(obj);
    match op {
        "rules" => Ok(rules()),
        "new" => new_game(&r),
        "state" => state(&r.game()?),
        "throw" => {
            let mut g = r.position()?;
            let t = Throw::parse(r.string("throw")?).map_err(words)?;
            g.set_throw(t).map_err(words)?;
            Ok(json!({ "position": g.position(), "status": status_json(&g) }))
        }
        "play" => {
            let mut g = r.game()?;
            let before = g;
            if let Status::Over(_) = g.status() {
                return Err(words(senet_rules::Error::GameOver));
            }
            let m = g.parse_move(r.string("move")?).map_err(words)?;
            let e = g.play(m).map_err(words)?;
            let mut v = move_json(&before, m, e, &g);
            v["status"] = status_json(&g);
            Ok(v)
        }
        "bot" => {
            let g = r.game()?;
            let bot = r.string("bot")?;
            let seed = r
                .seed("seed")?
                .ok_or("the request has no \"seed\" (an integer)")?;
            let (m, estimate) = play::choose(bot, &g, seed)?;
            Ok(json!({ "move": g.move_string(m), "estimate": estimate }))
        }
        "hint" => {
            let g = r.game()?;
            let h = play::hint(&g, r.seed("seed")?.unwrap_or(0))?;
            let moves: Vec<Value> = h
                .moves
                .iter()
                .map(|&(m, chance)| json!({ "move": g.move_string(m), "chance": chance }))
                .collect();
            Ok(json!({
                "best": g.move_string(h.best),
                "moves": moves,
                "score": h.chance(h.best),
                "level": play::HINT_LEVEL,
            }))
        }
        "value" => {
            let depth = match obj.get("depth") {
                None | Some(Value::Null) => None,
                Some(d) => Some(
                    d.as_u64()
                        .and_then(|d| u32::try_from(d).ok())
                        .ok_or("\"depth\" must be a whole number of throws, 0 or more")?,
                ),
            };
            let throw = r.opt_string("throw")?;
            let v = analysis::value_bounded(r.string("position")?, throw, depth)?;
            serde_json::to_value(&v).map_err(|e| e.to_string())
        }
        "analyze" => {
            let rec = r.record()?;
            let opt = Options::for_rules(rules_of(&rec)?);
            let a = analysis::analyze(&rec, &opt, &mut |_, _| {}).map_err(words)?;
            Ok(json!({ "status": "done", "analysis": a }))
        }
        "analyze_start" => {
            let rec = r.record()?;
            let opt = Options::for_rules(rules_of(&rec)?);
            let a = Analyzer::new(&rec, &opt).map_err(words)?;
            let total = a.total();
            let id = SESSIONS.with(|s| {
                let mut s = s.borrow_mut();
                s.next += 1;
                let id = s.next;
                s.open.insert(id, a);
                id
            });
            Ok(json!({ "status": "running", "session": id, "done": 0, "total": total }))
        }
        "analyze_step" => {
            let id = r.session()?;
            let events = match obj.get("events") {
                None | Some(Value::Null) => 1,
                Some(n) => n
                    .as_u64()
                    .filter(|&n| n >= 1)
                    .ok_or("\"events\" must be a whole number, 1 or more")?,
            };
            let Some(mut a) = SESSIONS.with(|s| s.borrow_mut().open.remove(&id)) else {
                return Err(format!(
                    "there is no analysis session {id} (finished, stopped, or never started)"
                ));
            };
            for _ in 0..events {
                if a.done() == a.total() {
                    break;
                }
                a.step().map_err(words)?;
            }
            let (done, total) = (a.done(), a.total());
            if done < total {
                SESSIONS.with(|s| s.borrow_mut().open.insert(id, a));
                return Ok(
                    json!({ "status": "running", "session": id, "done": done, "total": total }),
                );
            }
            let analysis = a.finish().map_err(words)?;
            Ok(json!({
                "status": "done", "session": id, "done": done, "total": total,
                "analysis": analysis,
            }))
        }
        "analyze_stop" => {
            let id = r.session()?;
            let stopped = SESSIONS.with(|s| s.borrow_mut().open.remove(&id).is_some());
            Ok(json!({ "stopped": stopped }))
        }
        _ => unreachable!("every op of OPS is answered"),
    }
}

/// The analyses under way in chunks (`analyze_start`); the module runs on one thread.
struct Sessions {
    next: u64,
    open: BTreeMap<u64, Analyzer>,
}

thread_local! {
    static SESSIONS: RefCell<Sessions> = const {
        RefCell::new(Sessions { next: 0, open: BTreeMap::new() })
    };
}

fn words(e: senet_rules::Error) -> String {
    e.to_string()
}

/// A request's fields.
struct Req<'a>(&'a Map<String, Value>);

impl Req<'_> {
    fn opt_string(&self, k: &str) -> Result<Option<&str>, String> {
        match self.0.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(format!("{k:?} must be text")),
        }
    }

    fn string(&self, k: &str) -> Result<&str, String> {
        self.opt_string(k)?
            .ok_or_else(|| format!("the request has no {k:?}"))
    }

    /// A seed: an integer 0 to 2^64-1, or the same as a string of digits.
    fn seed(&self, k: &str) -> Result<Option<u64>, String> {
        let bad = || format!("{k:?} must be a whole number from 0 to 18446744073709551615");
        match self.0.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) => n.as_u64().map(Some).ok_or_else(bad),
            Some(Value::String(s)) => s.trim().parse::<u64>().map(Some).map_err(|_| bad()),
            Some(_) => Err(bad()),
        }
    }

    fn session(&self) -> Result<u64, String> {
        self.seed("session")?
            .ok_or_else(|| "the request has no \"session\" (from analyze_start)".into())
    }

    /// The position, as given.
    fn position(&self) -> Result<AnyGame, String> {
        self.string("position")?.parse().map_err(words)
    }

    /// The position with `throw` set when given (refused when the position holds one).
    fn game(&self) -> Result<AnyGame, String> {
        let mut g = self.position()?;
        if let Some(t) = self.opt_string("throw")? {
            if !matches!(g.status(), Status::Throw(_)) {
                return Err(match g.hand_text() {
                    Some(h) => format!("the position already holds {h}: leave out \"throw\""),
                    None => "the game is over: there is nothing to throw".into(),
                });
            }
            g.set_throw(Throw::parse(t).map_err(words)?)
                .map_err(words)?;
        }
        Ok(g)
    }

    /// A game record: an object, or its JSON text.
    fn record(&self) -> Result<Record, String> {
        let rec = match self.0.get("record") {
            None | Some(Value::Null) => return Err("the request has no \"record\"".into()),
            Some(Value::String(s)) => Record::from_json(s).map_err(words)?,
            Some(v) => Record::from_json(&v.to_string()).map_err(words)?,
        };
        Ok(rec)
    }
}

fn rules_of(rec: &Record) -> Result<RuleSet, String> {
    rec.rules.parse().map_err(words)
}

/// `{"op": "rules"}`.
fn rules() -> Value {
    let list: Vec<Value> = RuleSet::ALL
        .iter()
        .map(|&r| senet_rules::json::rule_set_json(r))
        .collect();
    json!({ "rules": list, "levels": play::levels(), "hint_level": play::HINT_LEVEL })
}

/// `{"op": "new"}`.
fn new_game(r: &Req) -> Result<Value, String> {
    let rules: RuleSet = r.string("rules")?.parse().map_err(words)?;
    let options: Vec<String> = match r.0.get("options") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Object(o)) => o
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => Ok(format!("{k}={s}")),
                Value::Bool(_) | Value::Number(_) => Ok(format!("{k}={v}")),
                _ => Err(format!(
                    "the option {k:?} must be true, false or a number, not {v}"
                )),
            })
            .collect::<Result<_, _>>()?,
        Some(Value::Array(a)) => a
            .iter()
            .map(|v| {
                v.as_str().map(str::to_string).ok_or_else(|| {
                    format!("an option in a list is text like \"name=value\", not {v}")
                })
            })
            .collect::<Result<_, _>>()?,
        Some(_) => {
            return Err(
                "\"options\" is an object of option values or a list of \"name=value\"".into(),
            )
        }
    };
    let g = AnyGame::new(rules, &options).map_err(words)?;
    Ok(json!({ "rules": rules.id(), "position": g.position() }))
}

/// `{"op": "state"}`.
fn state(g: &AnyGame) -> Result<Value, String> {
    let mut v = json!({
        "position": g.position(),
        "status": status_json(g),
        "decisions": g.decisions(),
        "throw_kind": g.throw_dist().kind,
        "view": g.view(),
    });
    match g.status() {
        Status::Throw(_) => {
            let throws: Vec<Value> = g
                .throw_dist()
                .outcomes
                .iter()
                .map(|(t, w)| json!({ "throw": t.to_string(), "weight": w }))
                .collect();
            v["throws"] = Value::Array(throws);
        }
        Status::Move(_) => v["legal"] = Value::Array(moves_json(g)),
        Status::Over(_) => {}
    }
    Ok(v)
}

/// The JSON of one legal move, as `senet moves` and `senet apply --json` print it
/// (`senet_rules::json`), with the server's squares (`LegalMove`) beside.
fn move_json(before: &AnyGame, m: Move, e: Effects, after: &AnyGame) -> Value {
    let mut v = senet_rules::json::move_json(before, m, e, after);
    server_squares(before, m, &mut v);
    v
}

/// The server's `LegalMove` squares of move `m` of `g`: indexes and names.
fn server_squares(g: &AnyGame, m: Move, v: &mut Value) {
    let squares = (!m.is_pass()).then_some((m.from, m.to));
    v["from_square"] = json!(squares.map(|s| s.0));
    v["to_square"] = json!(squares.map(|s| s.1));
    v["from_name"] = json!(squares.map(|s| g.square_name(s.0)));
    v["to_name"] = json!(squares.map(|s| g.square_name(s.1)));
}

/// Every legal move of a position awaiting a move.
fn moves_json(g: &AnyGame) -> Vec<Value> {
    senet_rules::json::moves_json_with(g, server_squares)
}

use senet_rules::json::status_json;

#[cfg(test)]
mod tests;
