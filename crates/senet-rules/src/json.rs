//! The JSON of a move and of a game's status, as `senet moves`, `senet apply --json` and the
//! page's engine (crates/senet-wasm) give them: one place, so that the command line and the
//! page answer alike.

use crate::game::Notation;
use crate::{AnyGame, Effects, Game, Move, MoveList, OptionKind, RuleSet, Status};
use serde_json::{json, Value};

/// One legal move of `before` (`e` what it did, `after` the position it led to): its string,
/// squares (numbers where the square's name is one), effects' words, whether the turn goes
/// on, the position after it, and with two dice the die it used.
pub fn move_json(before: &AnyGame, m: Move, e: Effects, after: &AnyGame) -> Value {
    let square = |sq: u8| -> Value {
        let name = before.square_name(sq);
        name.parse::<u64>()
            .map(Value::from)
            .unwrap_or(Value::from(name))
    };
    let mut v = json!({
        "move": before.move_string(m),
        // Decisions that move no piece (pass, declining leftover steps) have no squares.
        "from": if m.moves_a_piece() { square(m.from) } else { Value::Null },
        "to": if m.moves_a_piece() { square(m.to) } else { Value::Null },
        "kinds": e.names(),
        "turn_continues": e.turn_continues,
        "position": after.position(),
    });
    if let Some(d) = before.die_used(m) {
        v["die"] = Value::from(d);
    }
    v
}

/// Every legal move of a position awaiting a move, as [`move_json`] gives each, with `more`
/// adding fields to each (given the position, the move and its JSON).
pub fn moves_json_with(g: &AnyGame, more: impl Fn(&AnyGame, Move, &mut Value)) -> Vec<Value> {
    let mut ms = MoveList::new();
    g.legal_moves(&mut ms);
    ms.iter()
        .map(|&m| {
            let mut h = *g;
            let e = h.play_unchecked(m);
            let mut v = move_json(g, m, e, &h);
            more(g, m, &mut v);
            v
        })
        .collect()
}

/// Every legal move of a position awaiting a move, as [`move_json`] gives each.
pub fn moves_json(g: &AnyGame) -> Vec<Value> {
    moves_json_with(g, |_, _, _| {})
}

/// A rule set as `senet rules --json` and the page's engine list it: `id`, `name`, `source`
/// and its `options` (name, type, default, bounds, description).
pub fn rule_set_json(r: RuleSet) -> Value {
    let opts: Vec<Value> = r
        .option_specs()
        .iter()
        .map(|o| match o.kind {
            OptionKind::Bool { default } => json!({
                "name": o.name, "type": "bool", "default": default,
                "description": o.description,
            }),
            OptionKind::Int { default, min, max } => json!({
                "name": o.name, "type": "int", "default": default, "min": min,
                "max": max, "description": o.description,
            }),
        })
        .collect();
    json!({ "id": r.id(), "name": r.name(), "source": r.source(), "options": opts })
}

/// The status of a game: `{"state": "throw", "player"}`, `{"state": "move", "player",
/// "throw"}` or `{"state": "over", "winner", "capped", "score"}` (players from 1).
pub fn status_json(g: &AnyGame) -> Value {
    match g.status() {
        Status::Throw(p) => json!({ "state": "throw", "player": p.index() + 1 }),
        Status::Move(p) => json!({
            "state": "move", "player": p.index() + 1,
            "throw": g.in_hand().map(|t| t.to_string()),
        }),
        Status::Over(o) => json!({
            "state": "over",
            "winner": o.winner.map(|p| p.index() + 1),
            "capped": o.capped,
            "score": o.score,
        }),
    }
}
