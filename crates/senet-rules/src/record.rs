//! Game records: JSON holding the rule set, its options, the seed, and every throw and move,
//! so that a game replays exactly (ruling C6). The format is documented in
//! `docs/notation.md`.

use crate::game::Notation;
use crate::{AnyGame, Error, Game, Move, RuleSet, Status, Throw};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The value of the `format` field.
pub const FORMAT: &str = "senet-record/1";

/// One thing that happened: a throw, or a move (a decision).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Event {
    /// A throw, e.g. `"4"` or `"3-5"`.
    Throw {
        /// The throw.
        throw: String,
    },
    /// A move string, e.g. `"10-14"`, `"28-off"` or `"pass"`.
    Move {
        /// The move.
        #[serde(rename = "move")]
        mv: String,
    },
}

/// How the recorded game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordResult {
    /// 1 or 2, or null for a draw.
    pub winner: Option<u8>,
    /// Whether the turn cap ended the game.
    pub capped: bool,
    /// Points of both players, for rule sets that score.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<[u32; 2]>,
    /// The final position.
    pub position: String,
}

/// A game record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// Always [`FORMAT`].
    pub format: String,
    /// The rule set ID.
    pub rules: String,
    /// Options that differ from their defaults.
    #[serde(default)]
    pub options: BTreeMap<String, serde_json::Value>,
    /// The seed the throws were drawn from, if they were drawn by senet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The starting position, when it is not the rule set's start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// Every throw and move, in order.
    pub events: Vec<Event>,
    /// The result, once the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<RecordResult>,
}

/// What replaying a record gives.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The starting position.
    pub start: AnyGame,
    /// The position after every event: for a `pyramid` record written before ruling C7 that
    /// the turn cap ended after the first of two dice, the position it was written with
    /// ([`capped_before_c7`]).
    pub end: AnyGame,
    /// Moves (decisions) replayed.
    pub moves: usize,
}

impl Record {
    /// An empty record of a game starting at `start`.
    pub fn new(start: &AnyGame, seed: Option<u64>) -> Record {
        let rules = start.rules();
        let fresh = AnyGame::new(rules, &options_of(start)).ok();
        let mut options = BTreeMap::new();
        for pair in options_of(start) {
            if let Some((k, v)) = pair.split_once('=') {
                let v = match v.parse::<u64>() {
                    Ok(n) => serde_json::Value::from(n),
                    Err(_) => serde_json::Value::from(v == "true"),
                };
                options.insert(k.to_string(), v);
            }
        }
        Record {
            format: FORMAT.into(),
            rules: rules.id().into(),
            options,
            seed,
            start: if fresh.as_ref() == Some(start) {
                None
            } else {
                Some(start.position())
            },
            events: Vec::new(),
            result: None,
        }
    }

    /// Adds a throw.
    pub fn push_throw(&mut self, t: Throw) {
        self.events.push(Event::Throw {
            throw: t.to_string(),
        });
    }

    /// Adds a move string.
    pub fn push_move(&mut self, m: String) {
        self.events.push(Event::Move { mv: m });
    }

    /// Fills in the result from the final position, if the game is over.
    pub fn finish(&mut self, end: &AnyGame) {
        if let Status::Over(o) = end.status() {
            self.result = Some(RecordResult {
                winner: o.winner.map(|p| p.index() as u8 + 1),
                capped: o.capped,
                score: o.score,
                position: end.position(),
            });
        }
    }

    /// Reads a record from JSON.
    pub fn from_json(text: &str) -> Result<Record, Error> {
        let r: Record = serde_json::from_str(text)
            .map_err(|e| Error::Record(format!("not a valid record: {}", explain(text, &e))))?;
        if r.format != FORMAT {
            return Err(Error::Record(format!(
                "format is {:?}; this version reads {FORMAT:?}",
                r.format
            )));
        }
        Ok(r)
    }

    /// The record as JSON: one field per line, each turn's throw and moves on one line.
    pub fn to_json(&self) -> String {
        let v = serde_json::to_value(self).expect("records always serialize");
        let mut out = String::from("{\n");
        let obj = v.as_object().expect("a record is an object");
        let n = obj.len();
        for (i, (k, val)) in obj.iter().enumerate() {
            out.push_str(&format!("  {}: ", serde_json::Value::from(k.as_str())));
            if k == "events" {
                out.push('[');
                for (j, e) in self.events.iter().enumerate() {
                    if matches!(e, Event::Throw { .. }) || j == 0 {
                        out.push_str("\n    ");
                    } else {
                        out.push(' ');
                    }
                    out.push_str(&serde_json::to_string(e).expect("events serialize"));
                    if j + 1 < self.events.len() {
                        out.push(',');
                    }
                }
                out.push_str(if self.events.is_empty() { "]" } else { "\n  ]" });
            } else {
                out.push_str(&serde_json::to_string(val).expect("values serialize"));
            }
            out.push_str(if i + 1 < n { ",\n" } else { "\n" });
        }
        out.push('}');
        out
    }

    /// The options as `NAME=VALUE` strings.
    pub fn option_pairs(&self) -> Result<Vec<String>, Error> {
        self.options
            .iter()
            .map(|(k, v)| match v {
                serde_json::Value::Bool(b) => Ok(format!("{k}={b}")),
                serde_json::Value::Number(n) => Ok(format!("{k}={n}")),
                serde_json::Value::String(s) => Ok(format!("{k}={s}")),
                _ => Err(Error::Record(format!(
                    "option {k} must be a boolean or a number"
                ))),
            })
            .collect()
    }

    /// The position the game starts from.
    pub fn start_position(&self) -> Result<AnyGame, Error> {
        let rules: RuleSet = self
            .rules
            .parse()
            .map_err(|e: Error| Error::Record(e.to_string()))?;
        let fresh =
            AnyGame::new(rules, &self.option_pairs()?).map_err(|e| Error::Record(e.to_string()))?;
        match &self.start {
            None => Ok(fresh),
            Some(p) => {
                let g: AnyGame = p
                    .parse()
                    .map_err(|e: Error| Error::Record(format!("start: {e}")))?;
                if g.rules() != rules || options_of(&g) != options_of(&fresh) {
                    return Err(Error::Record(format!(
                        "the start position {p:?} is not a {} position with the record's options",
                        rules.id()
                    )));
                }
                Ok(g)
            }
        }
    }

    /// Whether event `i`, a move, is a `pass` written before ruling C7 for a lost die
    /// ([`is_legacy_pass`]), with `g` the position before it.
    pub fn legacy_pass_at(&self, g: &AnyGame, i: usize) -> bool {
        match &self.events[i] {
            Event::Move { mv } => {
                let after_move = i > 0 && matches!(self.events[i - 1], Event::Move { .. });
                is_legacy_pass(g, mv, after_move)
            }
            Event::Throw { .. } => false,
        }
    }

    /// Replays every event, checking each; the first bad event is reported with its move
    /// number and the reason. A recorded result must match the replay.
    pub fn replay(&self) -> Result<Replay, Error> {
        let start = self.start_position()?;
        let mut g = start;
        let mut moves = 0;
        // The position before the last event and the move it was, when it was a move.
        let mut last: Option<(AnyGame, Move)> = None;
        for (i, e) in self.events.iter().enumerate() {
            last = None;
            let at = |what: String| {
                Error::Record(format!("event {} (move {}): {what}", i + 1, moves + 1))
            };
            match e {
                Event::Throw { throw } => {
                    let t = Throw::parse(throw).map_err(|e| at(e.to_string()))?;
                    g.set_throw(t).map_err(|e| at(e.to_string()))?;
                }
                Event::Move { mv } => {
                    if self.legacy_pass_at(&g, i) {
                        play_legacy_pass(&mut g);
                        continue;
                    }
                    let m = g.parse_move(mv).map_err(|e| at(format!("{mv}: {e}")))?;
                    last = Some((g, m));
                    g.play_unchecked(m);
                    moves += 1;
                }
            }
        }
        if let Some(r) = &self.result {
            let Status::Over(o) = g.status() else {
                return Err(Error::Record(
                    "the record has a result but the game is not over after its last event".into(),
                ));
            };
            let winner = o.winner.map(|p| p.index() as u8 + 1);
            if r.winner != winner || r.capped != o.capped || r.score != o.score {
                return Err(Error::Record(format!(
                    "the record claims winner {:?} (capped {}, score {:?}) but the replay gives winner {:?} (capped {}, score {:?})",
                    r.winner, r.capped, r.score, winner, o.capped, o.score
                )));
            }
            // A legacy pass (C7) counted as the decision it was (`play_legacy_pass`), so the
            // final position is the one the record was written with.
            let mut end = g.position();
            if r.position != end {
                // C5, C7: a pyramid game that the cap ended after the first of two dice, the
                // other die having no move, is written by an engine from before C7 with that
                // die still in hand. The same capped draw: it replays to its written position.
                if let Some(old) = last.and_then(|(before, m)| capped_before_c7(&before, m)) {
                    if old.position() == r.position {
                        g = old;
                        end = g.position();
                    }
                }
            }
            if r.position != end {
                return Err(Error::Record(format!(
                    "the record's final position {:?} differs from the replay's {:?}",
                    r.position, end
                )));
            }
        }
        Ok(Replay {
            start,
            end: g,
            moves,
        })
    }
}

/// A JSON error of a record or series record in words: which event is malformed and what an
/// event looks like (instead of serde's "untagged enum"), and numbers named as such.
pub(crate) fn explain(text: &str, e: &serde_json::Error) -> String {
    if text.trim().is_empty() {
        return "the text is empty; a record is a JSON object like the ones a game's record download writes (docs/notation.md)".into();
    }
    if e.is_syntax() || e.is_eof() {
        return format!(
            "it is not JSON: {} (line {}, column {})",
            json_syntax_in_words(e),
            e.line(),
            e.column()
        );
    }
    let msg = e.to_string();
    if msg.contains("untagged enum Event") {
        // Find the first malformed event: records and the records of a series' games.
        let v: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
        let mut lists: Vec<(String, &serde_json::Value)> = vec![(String::new(), &v["events"])];
        if let Some(games) = v["games"].as_array() {
            for (g, game) in games.iter().enumerate() {
                lists.push((format!("game {}, ", g + 1), &game["record"]["events"]));
            }
        }
        for (prefix, list) in lists {
            for (i, ev) in list.as_array().into_iter().flatten().enumerate() {
                let ok = ev.as_object().is_some_and(|o| {
                    o.len() == 1
                        && (o.get("throw").is_some_and(|t| t.is_string())
                            || o.get("move").is_some_and(|m| m.is_string()))
                });
                if !ok {
                    return format!(
                        "{prefix}event {} is {ev}: an event is {{\"throw\": \"4\"}} or {{\"move\": \"10-14\"}} (the throw or move as text)",
                        i + 1
                    );
                }
            }
        }
        return "an event is {\"throw\": \"4\"} or {\"move\": \"10-14\"} (the throw or move as text)".into();
    }
    let mut m = msg;
    for (rust, words) in [
        ("expected u8", "expected a whole number from 0 to 255"),
        (
            "expected u32",
            "expected a whole number from 0 to 4294967295",
        ),
        (
            "expected u64",
            "expected a whole number from 0 to 18446744073709551615",
        ),
        ("expected usize", "expected a whole number"),
        ("expected i64", "expected a whole number"),
    ] {
        m = m.replace(rust, words);
    }
    m
}

/// A JSON syntax error (`serde_json::Error::is_syntax` or `is_eof`) in words, without its
/// place: what was wrong rather than the parser's terms (it says `expected ident` of a
/// misspelt `true`, `false` or `null`, or of a word without quotes).
pub fn json_syntax_in_words(e: &serde_json::Error) -> String {
    let m = e.to_string();
    let m = match m.rfind(" at line ") {
        Some(i) => &m[..i],
        None => &m,
    };
    let words = match m {
        "expected ident" => "a word that is not true, false or null (text must be in double quotes)",
        "expected value" => {
            "a value was expected (text in double quotes, a number, true, false, null, [...] or {...})"
        }
        "EOF while parsing a value" => "it ends where a value was expected",
        "EOF while parsing an object" => "it ends inside an object (a { is not closed)",
        "EOF while parsing a list" => "it ends inside a list (a [ is not closed)",
        "EOF while parsing a string" => "it ends inside text (a \" is not closed)",
        "key must be a string" => "a field name must be text in double quotes",
        "expected `:`" => "a colon (:) must follow a field name",
        "expected `,` or `}`" => "a comma (,) or the closing } was expected",
        "expected `,` or `]`" => "a comma (,) or the closing ] was expected",
        "trailing comma" => "a comma (,) before a closing } or ] is not allowed",
        "trailing characters" => "there is more after the JSON value",
        "invalid number" => "a number is written wrongly",
        "number out of range" => "a number is too large",
        "control character (\\u0000-\\u001F) found while parsing a string" => {
            "text holds a raw control character (write it as an escape like \\n)"
        }
        "invalid escape" => "text holds an invalid escape (after \\)",
        "invalid unicode code point" => "text holds an invalid \\u escape",
        "recursion limit exceeded" => "it nests lists or objects too deeply",
        other => other,
    };
    words.to_string()
}

/// Whether the recorded move `text` is a `pass` that a `pyramid` record written before ruling
/// C7 holds for a die lost after the other die was played. Under C7 the turn passes by itself
/// at that point, so a replay skips such a pass: it changes nothing. `after_move` says whether
/// the event before it was a move (a stored game whose events were checked when written may
/// pass `true`). Every other `pass` is an ordinary move.
pub fn is_legacy_pass(g: &AnyGame, text: &str, after_move: bool) -> bool {
    after_move
        && g.rules() == RuleSet::Pyramid
        && g.decisions() > 0
        && matches!(g.status(), Status::Throw(_))
        && text.trim().eq_ignore_ascii_case("pass")
}

/// Plays a `pass` that [`is_legacy_pass`] recognised, as the record that holds it was
/// played: it changes nothing on the board (under C7 the turn has passed already), but it was
/// a decision when the record was written, and the turn cap counted it (C5). So it counts
/// here too, and a game that this pass brought to the cap ends at it as a capped draw, as
/// the record says: records written before C7 still replay to their result (C7's last
/// sentence).
pub fn play_legacy_pass(g: &mut AnyGame) {
    if let AnyGame::Pyramid(p) = g {
        p.count_legacy_pass();
    }
}

/// The final position that a `pyramid` record written before ruling C7 holds when move `m`,
/// played from `before`, was the first of two dice, brought the game to the turn cap (C5) and
/// left the other die with no legal move: under C7 that die is lost and the turn passes at once
/// (`turn=1 dice=-`), but the engine of the time kept it in hand (`turn=2 dice=2`), and the cap
/// then ended the game before the `pass` it would have needed. It is the same capped draw, with
/// the same board, decisions and score; [`Record::replay`] accepts it where the record's final
/// position is this one, so that such records still replay to what they recorded (C7's last
/// sentence). `None` for every other move and rule set (`parker` has always passed the turn at
/// the cap).
pub fn capped_before_c7(before: &AnyGame, m: Move) -> Option<AnyGame> {
    match before {
        AnyGame::Pyramid(p) => p.capped_before_c7(m).map(AnyGame::Pyramid),
        _ => None,
    }
}

/// The non-default options of a game as `NAME=VALUE` strings, in the order of its position
/// string's head: `g.options().non_default()`.
pub fn options_of(g: &AnyGame) -> Vec<String> {
    g.options().non_default()
}
