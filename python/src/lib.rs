//! The `senet` Python package (built by maturin as `senet._senet`): senet's rules in the shape
//! of an OpenSpiel game, plus the bots of `senet-bots` and the duplicate matches of `senet-coach`.
//!
//! No rule is written here. Every question about a position goes to [`senet_rules::Game`]
//! through [`AnyGame`]; this crate only gives each legal move and each throw a stable integer
//! (an *action*), builds a fixed-size observation from [`View::view`], and translates errors
//! into Python's `ValueError`. The action encodings and the observation layout are
//! documented in `python/README.md`.

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString};
use senet_bots::BotSpec;
use senet_coach::duel::{mix, run_match_with_luck, MatchConfig};
use senet_rules::record::{options_of, Record};
use senet_rules::{
    AnyGame, Event, Game as _, Move, MoveKind, MoveList, OptionKind, OptionValue, Options, RuleSet,
    Status, Throw,
};
use senet_rules::{Metrics, Notation, View};
use std::sync::{Arc, Mutex};

/// OpenSpiel's id of the chance player (a throw is pending).
const CHANCE_PLAYER: i64 = -1;
/// OpenSpiel's id of the "player" of a finished game.
const TERMINAL_PLAYER: i64 = -4;
/// Squares (or, in `parker`, board cells) 1-30: every rule set's board has 30.
const SQUARES: usize = 30;

fn value_error(e: impl ToString) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A bug in this crate's tables (a rule set produced a move or throw they do not cover).
fn internal(what: String) -> PyErr {
    PyRuntimeError::new_err(format!(
        "senet internal error: {what}; the action tables in python/src/lib.rs need updating"
    ))
}

/// How the legal moves of a rule set become actions (documented in `python/README.md`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Code {
    /// Stick games: one value per throw and at most one legal move per piece, so a move is
    /// named by the square it leaves: action `s - 1` for square `s`, then `pass`, then
    /// (senat) `decline`.
    Square { decline: bool },
    /// `pyramid`: each die is its own move: action `(s - 1) * faces + (die - 1)`, then `pass`.
    SquareDie { faces: u8 },
    /// `parker`: cell, the die (1-6) or the total of both, and the direction:
    /// action `((cell - 1) * 7 + k) * 2 + backward`, `k` = die - 1 or 6 for the total; then
    /// `pass`.
    Parker,
}

impl Code {
    fn pass(self) -> usize {
        match self {
            Code::Square { .. } => SQUARES,
            Code::SquareDie { faces } => SQUARES * faces as usize,
            Code::Parker => SQUARES * 14,
        }
    }

    fn num_actions(self) -> usize {
        match self {
            Code::Square { decline } => SQUARES + 1 + decline as usize,
            _ => self.pass() + 1,
        }
    }
}

/// What the binding knows about a rule set beyond the `Game` trait: the action encoding,
/// the throws that chance actions name, and the observation's piece kinds and extra fields.
struct Table {
    code: Code,
    /// Every throw the rule set can ever make; chance action `i` is `throws[i]`.
    throws: Vec<Throw>,
    /// The largest value a die or throw shows (length of the throw part of the observation).
    max_value: u8,
    /// The piece names of `View::view` (one board plane per kind and side).
    kinds: &'static [&'static str],
    /// Position-string fields that are flags (`forced=10`): one observation entry each.
    flags: &'static [&'static str],
    /// Numeric position-string fields (`left=L`): one observation entry each, the value.
    numbers: &'static [&'static str],
    /// The winner's largest possible score lead, for rule sets that score (P11, Y9, S12).
    max_score: Option<f64>,
}

fn singles(values: &[u8]) -> Vec<Throw> {
    values.iter().map(|&v| Throw::single(v)).collect()
}

fn pairs(faces: u8) -> Vec<Throw> {
    let mut v = Vec::new();
    for a in 1..=faces {
        for b in a..=faces {
            v.push(Throw::dice(a, b));
        }
    }
    v
}

/// The action and observation tables of a game's rule set; `max_score` from the rules
/// ([`Metrics::max_points`](senet_rules::Metrics::max_points)).
fn table(start: &AnyGame) -> Table {
    let rules = start.rules();
    let max_score = start.max_points().map(f64::from);
    const PIECE: &[&str] = &["piece"];
    match rules {
        // K2: 1, 2, 3, 4, 6.
        RuleSet::Kendall => Table {
            code: Code::Square { decline: false },
            throws: singles(&[1, 2, 3, 4, 6]),
            max_value: 6,
            kinds: PIECE,
            flags: &["forced=10"],
            numbers: &[],
            max_score,
        },
        // R2: 1-5.
        RuleSet::Kendall5 => Table {
            code: Code::Square { decline: false },
            throws: singles(&[1, 2, 3, 4, 5]),
            max_value: 5,
            kinds: PIECE,
            flags: &[],
            numbers: &[],
            max_score,
        },
        // S2: 1, 2, 3, 4, 6 (coins or die); S10: decline the leftover; S12: optional score,
        // at most the five opposing pieces.
        RuleSet::Senat => Table {
            code: Code::Square { decline: true },
            throws: singles(&[1, 2, 3, 4, 6]),
            max_value: 6,
            kinds: PIECE,
            flags: &["forced=10", "forced=9"],
            numbers: &["left"],
            max_score,
        },
        // H2, H12: 1-5 with four sticks, 1-7 with six (the same table either way, so that the
        // shapes do not depend on the option).
        RuleSet::Houses => Table {
            code: Code::Square { decline: false },
            throws: singles(&[1, 2, 3, 4, 5, 6, 7]),
            max_value: 7,
            kinds: PIECE,
            flags: &["forced=10"],
            numbers: &[],
            max_score,
        },
        // Y2: one four-sided die for the opening, then two; Y9: 2 large (4), 3 medium (3),
        // 5 small (2) make 27 points.
        RuleSet::Pyramid => Table {
            code: Code::SquareDie { faces: 4 },
            throws: [singles(&[1, 2, 3, 4]), pairs(4)].concat(),
            max_value: 4,
            kinds: &["large pyramid", "medium pyramid", "small pyramid"],
            flags: &["opening=1", "ankh=new"],
            numbers: &[],
            max_score,
        },
        // P3: the dice-off names who starts (1 or 2); P4: two six-sided dice; P11: at most
        // (25 + 4 * 10) * 2 = 130 points.
        RuleSet::Parker => Table {
            code: Code::Parker,
            throws: [singles(&[1, 2]), pairs(6)].concat(),
            max_value: 6,
            kinds: &["Pharaoh", "man", "lone man with the Pharaoh's powers (P10)"],
            flags: &["turn=-"],
            numbers: &[],
            max_score,
        },
    }
}

/// Position-string fields every rule set has (their content is in the observation already).
const COMMON_FIELDS: &[&str] = &["off", "turn", "throw", "dice", "dec"];

/// A rule set with its options, as loaded by `load_game`.
struct Spec {
    rules: RuleSet,
    options: Options,
    /// `NAME=VALUE` for the options that differ from the defaults.
    pairs: Vec<String>,
    start: AnyGame,
    cap: u32,
    table: Table,
    /// `returns()` gives score differences (where the rule set scores) rather than ±1.
    utility_score: bool,
}

impl Spec {
    fn new(rules: RuleSet, pairs: &[String], utility_score: bool) -> PyResult<Spec> {
        let options =
            Options::parse(rules.option_specs(), pairs, rules.id()).map_err(value_error)?;
        let start = AnyGame::new(rules, pairs).map_err(value_error)?;
        let pairs = options_of(&start);
        let table = table(&start);
        Ok(Spec {
            rules,
            cap: options.int("cap").map_err(value_error)?,
            options,
            pairs,
            start,
            table,
            utility_score,
        })
    }

    fn scores(&self) -> bool {
        self.table.max_score.is_some()
    }

    fn max_utility(&self) -> f64 {
        match self.table.max_score {
            Some(s) if self.utility_score => s,
            _ => 1.0,
        }
    }

    fn num_actions(&self) -> usize {
        self.table.code.num_actions()
    }

    fn chance_id(&self, t: Throw) -> PyResult<usize> {
        self.table
            .throws
            .iter()
            .position(|&x| x == t)
            .ok_or_else(|| internal(format!("{} throw {t} has no chance action", self.rules)))
    }

    /// The action of a legal move of `g`.
    fn encode(&self, g: &AnyGame, m: Move) -> PyResult<usize> {
        let code = self.table.code;
        if m.is_pass() {
            return Ok(code.pass());
        }
        let sq = (1..=SQUARES as u8)
            .contains(&m.from)
            .then(|| m.from as usize - 1);
        let a = match code {
            Code::Square { decline } => {
                if decline && m.is_decline() {
                    Some(SQUARES + 1)
                } else {
                    sq
                }
            }
            Code::SquareDie { faces } => sq
                .filter(|_| (1..=faces).contains(&m.die))
                .map(|s| s * faces as usize + m.die as usize - 1),
            Code::Parker => {
                let k = if m.kind.contains(MoveKind::TOTAL) {
                    Some(6)
                } else {
                    (1..=6).contains(&m.die).then(|| m.die as usize - 1)
                };
                let back = m.kind.contains(MoveKind::BACKWARD) as usize;
                sq.zip(k).map(|(s, k)| (s * 7 + k) * 2 + back)
            }
        };
        a.ok_or_else(|| {
            internal(format!(
                "{} move {} ({m:?}) has no action",
                self.rules,
                g.move_string(m)
            ))
        })
    }

    /// What an action means, without a position (the move string needs one).
    fn describe(&self, action: i64) -> String {
        let Ok(a) = usize::try_from(action) else {
            return format!("invalid action {action}");
        };
        let code = self.table.code;
        let name = |s: usize| self.start.square_name(s as u8 + 1);
        if a == code.pass() {
            return "pass".into();
        }
        match code {
            Code::Square { decline } if decline && a == SQUARES + 1 => "decline".into(),
            Code::Square { .. } if a < SQUARES => format!("the piece on {}", name(a)),
            Code::SquareDie { faces } if a < code.pass() => {
                let f = faces as usize;
                format!("the piece on {} with a {}", name(a / f), a % f + 1)
            }
            Code::Parker if a < code.pass() => {
                let (cell, k, back) = (a / 14, (a / 2) % 7, a % 2 == 1);
                format!(
                    "the peg on {} {}{}",
                    name(cell),
                    if k == 6 {
                        "by the total".to_string()
                    } else {
                        format!("with the {}", k + 1)
                    },
                    if back { ", backward" } else { "" }
                )
            }
            _ => format!("invalid action {action}"),
        }
    }

    fn observation_layout(&self) -> Vec<(&'static str, usize)> {
        let t = &self.table;
        vec![
            ("board", 2 * t.kinds.len() * SQUARES),
            ("off", 2),
            ("captured", 2),
            ("throw", t.max_value as usize),
            ("to_play", 2),
            ("chance", 1),
            ("flags", t.flags.len()),
            ("numbers", t.numbers.len()),
            ("progress", 1),
        ]
    }

    fn observation_size(&self) -> usize {
        self.observation_layout().iter().map(|(_, n)| n).sum()
    }

    fn parameters<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (name, v) in self.options.iter() {
            match v {
                OptionValue::Bool(b) => d.set_item(name, b)?,
                OptionValue::Int(n) => d.set_item(name, n)?,
            }
        }
        d.set_item("utility", utility_name(self.utility_score))?;
        Ok(d)
    }

    fn short_name(&self) -> String {
        if self.pairs.is_empty() {
            self.rules.id().to_string()
        } else {
            format!("{}({})", self.rules.id(), self.pairs.join(","))
        }
    }
}

/// Turns Python option values into `NAME=VALUE` strings.
fn option_pairs(params: Option<&Bound<'_, PyDict>>) -> PyResult<(Vec<String>, Option<String>)> {
    let mut out = Vec::new();
    let mut utility = None;
    if let Some(d) = params {
        for (k, v) in d.iter() {
            let k: String = k
                .extract()
                .map_err(|_| value_error("option names must be strings"))?;
            let text = if v.is_instance_of::<PyBool>() {
                v.extract::<bool>()?.to_string()
            } else if v.is_instance_of::<PyInt>() {
                v.extract::<i64>()
                    .map_err(|_| value_error(format!("option {k}: the number is too large")))?
                    .to_string()
            } else if v.is_instance_of::<PyString>() {
                v.extract::<String>()?
            } else {
                return Err(value_error(format!(
                    "option {k} must be a bool, an int or a string, got {}",
                    v.get_type().name()?
                )));
            };
            if k == "utility" {
                utility = Some(text);
            } else {
                out.push(format!("{k}={text}"));
            }
        }
    }
    Ok((out, utility))
}

fn utility_name(score: bool) -> &'static str {
    if score {
        "score"
    } else {
        "win"
    }
}

fn parse_utility(u: Option<&str>) -> PyResult<bool> {
    match u {
        None | Some("score") => Ok(true),
        Some("win") => Ok(false),
        Some(other) => Err(value_error(format!(
            "utility must be \"score\" (score differences where the rule set scores) or \"win\" \
             (+1/-1/0), got {other:?}"
        ))),
    }
}

/// Splits `kendall5(cap=500,...)` or `kendall5:cap=500,...` into the ID and option pairs.
fn split_name(name: &str) -> PyResult<(RuleSet, Vec<String>)> {
    let name = name.trim();
    let (id, rest) = if let Some((id, rest)) = name.split_once('(') {
        let rest = rest.strip_suffix(')').ok_or_else(|| {
            value_error(format!(
                "{name:?}: a game name with options is like kendall5(cap=500)"
            ))
        })?;
        (id, rest)
    } else if let Some((id, rest)) = name.split_once(':') {
        (id, rest)
    } else {
        (name, "")
    };
    let rules: RuleSet = id.trim().parse().map_err(value_error)?;
    let pairs = rest
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(String::from)
        .collect();
    Ok((rules, pairs))
}

/// A rule set with its options: the factory of states and the holder of the game's
/// constants (OpenSpiel's `Game`).
#[pyclass(module = "senet", frozen)]
struct Game {
    spec: Arc<Spec>,
}

#[pymethods]
impl Game {
    /// The start of a game.
    fn new_initial_state(&self) -> State {
        State::new(self.spec.clone(), self.spec.start)
    }

    /// A state at a position string (`docs/notation.md`) of this rule set with these
    /// options; its history starts there.
    fn new_state_from_position(&self, position: &str) -> PyResult<State> {
        let g: AnyGame = position.parse().map_err(value_error)?;
        if g.rules() != self.spec.rules || g.options() != self.spec.options {
            return Err(value_error(format!(
                "{position:?} is not a position of {} (its rules and options are {})",
                self.spec.short_name(),
                position.split_whitespace().next().unwrap_or("")
            )));
        }
        Ok(State::new(self.spec.clone(), g))
    }

    /// A state from the text of `State.serialize()` (a senet game record) of this game.
    fn deserialize_state(&self, text: &str) -> PyResult<State> {
        let s = deserialize_record(text, self.spec.utility_score)?;
        if s.spec.rules != self.spec.rules || s.spec.options != self.spec.options {
            return Err(value_error(format!(
                "the record is a game of {}, not of {}",
                s.spec.short_name(),
                self.spec.short_name()
            )));
        }
        Ok(State {
            spec: self.spec.clone(),
            ..s
        })
    }

    /// Player actions: every action id is below this number.
    fn num_distinct_actions(&self) -> usize {
        self.spec.num_actions()
    }

    /// Chance actions (throws): every chance action id is below this number.
    fn max_chance_outcomes(&self) -> usize {
        self.spec.table.throws.len()
    }

    /// The most player decisions a game can have: the turn cap (ruling C5).
    fn max_game_length(&self) -> u32 {
        self.spec.cap
    }

    /// The most chance nodes (throws) a game can have: one per decision, plus `parker`'s
    /// dice-off.
    fn max_chance_nodes_in_history(&self) -> u32 {
        self.spec.cap + u32::from(self.spec.rules == RuleSet::Parker)
    }

    /// Always 2.
    fn num_players(&self) -> usize {
        2
    }

    /// The lowest return: -1, or minus the largest score lead where scores are returned.
    fn min_utility(&self) -> f64 {
        -self.spec.max_utility()
    }

    /// The highest return.
    fn max_utility(&self) -> f64 {
        self.spec.max_utility()
    }

    /// Returns always sum to 0.
    fn utility_sum(&self) -> f64 {
        0.0
    }

    /// Whether this rule set with these options scores a win (parker, pyramid, senat with
    /// `score`); then `returns()` are score differences unless `utility="win"`.
    fn scores(&self) -> bool {
        self.spec.scores()
    }

    /// The observation tensor's shape: one flat vector, `[size]`.
    fn observation_tensor_shape(&self) -> Vec<usize> {
        vec![self.spec.observation_size()]
    }

    /// The observation tensor's length.
    fn observation_tensor_size(&self) -> usize {
        self.spec.observation_size()
    }

    /// The parts of the observation tensor in order, as `(name, length)`.
    fn observation_tensor_layout(&self) -> Vec<(&'static str, usize)> {
        self.spec.observation_layout()
    }

    /// Every option with its value, and `utility`.
    fn get_parameters<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.spec.parameters(py)
    }

    /// The rule set's ID.
    #[getter]
    fn rules(&self) -> &'static str {
        self.spec.rules.id()
    }

    /// The rule set's name.
    #[getter]
    fn name(&self) -> &'static str {
        self.spec.rules.name()
    }

    /// What a player action means, without a position (`state.action_to_string` gives the
    /// move string). A chance action (`player` -1) is a throw.
    fn action_to_string(&self, player: i64, action: i64) -> String {
        if player == CHANCE_PLAYER {
            usize::try_from(action)
                .ok()
                .and_then(|a| self.spec.table.throws.get(a))
                .map_or(format!("invalid chance action {action}"), |t| t.to_string())
        } else {
            self.spec.describe(action)
        }
    }

    fn __str__(&self) -> String {
        self.spec.short_name()
    }

    fn __repr__(&self) -> String {
        format!("senet.load_game({:?})", self.spec.short_name())
    }

    fn __eq__(&self, other: &Game) -> bool {
        self.spec.rules == other.spec.rules
            && self.spec.options == other.spec.options
            && self.spec.utility_score == other.spec.utility_score
    }

    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (&'static str, Bound<'py, PyDict>))> {
        let f = py.import("senet")?.getattr("load_game")?;
        Ok((f, (self.spec.rules.id(), self.spec.parameters(py)?)))
    }
}

/// Loads a rule set with options: `load_game("kendall5", cap=500)`,
/// `load_game("kendall5", {"cap": 500})`, `load_game("kendall5(cap=500)")` or
/// `load_game("kendall5:cap=500")`. The extra parameter `utility` is `"score"` (default:
/// score differences for rule sets that score) or `"win"` (+1/-1/0 always).
#[pyfunction]
#[pyo3(signature = (name, params = None, **kwargs))]
fn load_game(
    name: &str,
    params: Option<&Bound<'_, PyDict>>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Game> {
    let (rules, mut pairs) = split_name(name)?;
    let mut utility = None;
    if let Some(i) = pairs.iter().position(|p| p.starts_with("utility=")) {
        utility = Some(pairs.remove(i)["utility=".len()..].to_string());
    }
    for d in [params, kwargs] {
        let (p, u) = option_pairs(d)?;
        pairs.extend(p);
        utility = u.or(utility);
    }
    let utility_score = parse_utility(utility.as_deref())?;
    Ok(Game {
        spec: Arc::new(Spec::new(rules, &pairs, utility_score)?),
    })
}

/// A position with the actions that led to it (OpenSpiel's `State`).
#[pyclass(module = "senet")]
#[derive(Clone)]
struct State {
    spec: Arc<Spec>,
    start: AnyGame,
    g: AnyGame,
    history: Vec<i64>,
}

impl State {
    fn new(spec: Arc<Spec>, g: AnyGame) -> State {
        State {
            spec,
            start: g,
            g,
            history: Vec::new(),
        }
    }

    /// The legal moves with their actions, sorted by action.
    fn legal(&self) -> PyResult<Vec<(usize, Move)>> {
        let mut ms = MoveList::new();
        self.g.legal_moves(&mut ms);
        let mut v = Vec::with_capacity(ms.len());
        for &m in &ms {
            v.push((self.spec.encode(&self.g, m)?, m));
        }
        v.sort_unstable_by_key(|x| x.0);
        for w in v.windows(2) {
            if w[0].0 == w[1].0 && w[0].1 != w[1].1 {
                return Err(internal(format!(
                    "{}: moves {} and {} share action {}",
                    self.g.position(),
                    self.g.move_string(w[0].1),
                    self.g.move_string(w[1].1),
                    w[0].0
                )));
            }
        }
        v.dedup_by_key(|x| x.0);
        Ok(v)
    }

    fn legal_ids(&self) -> PyResult<Vec<i64>> {
        match self.g.status() {
            Status::Throw(_) => Ok(self.chance()?.iter().map(|x| x.0).collect()),
            Status::Move(_) => Ok(self.legal()?.iter().map(|x| x.0 as i64).collect()),
            Status::Over(_) => Ok(Vec::new()),
        }
    }

    /// The pending throw's outcomes: `(action, weight)` sorted by action, and the total.
    fn chance(&self) -> PyResult<Vec<(i64, u32, u32)>> {
        if !matches!(self.g.status(), Status::Throw(_)) {
            return Ok(Vec::new());
        }
        let d = self.g.throw_dist();
        let mut v = Vec::with_capacity(d.outcomes.len());
        for &(t, w) in d.outcomes {
            v.push((self.spec.chance_id(t)? as i64, w, d.total));
        }
        v.sort_unstable_by_key(|x| x.0);
        Ok(v)
    }

    fn apply(&mut self, action: i64) -> PyResult<()> {
        match self.g.status() {
            Status::Throw(_) => {
                let t = usize::try_from(action)
                    .ok()
                    .and_then(|a| self.spec.table.throws.get(a).copied());
                let Some(t) = t.filter(|&t| self.g.throw_dist().weight(t) > 0) else {
                    let legal: Vec<String> = self
                        .chance()?
                        .iter()
                        .map(|(a, _, _)| {
                            format!("{a} (throw {})", self.spec.table.throws[*a as usize])
                        })
                        .collect();
                    return Err(value_error(format!(
                        "{action} is not a possible chance action here; the throw's outcomes are {}",
                        legal.join(", ")
                    )));
                };
                self.g.set_throw_unchecked(t);
            }
            Status::Move(_) => {
                let legal = self.legal()?;
                let Some(&(_, m)) = legal.iter().find(|(a, _)| *a as i64 == action) else {
                    let list: Vec<String> = legal
                        .iter()
                        .map(|(a, m)| format!("{a} ({})", self.g.move_string(*m)))
                        .collect();
                    return Err(value_error(format!(
                        "action {action} ({}) is not legal here; legal actions: {}",
                        self.spec.describe(action),
                        list.join(", ")
                    )));
                };
                self.g.play_unchecked(m);
            }
            Status::Over(_) => return Err(value_error("the game is over: no action applies")),
        }
        self.history.push(action);
        Ok(())
    }

    fn returns_vec(&self) -> [f64; 2] {
        let Status::Over(o) = self.g.status() else {
            return [0.0, 0.0];
        };
        let Some(w) = o.winner else {
            return [0.0, 0.0];
        };
        let lead = match o.score {
            Some([a, b]) if self.spec.utility_score => a as f64 - b as f64,
            _ => {
                if w.index() == 0 {
                    1.0
                } else {
                    -1.0
                }
            }
        };
        [lead, -lead]
    }

    fn observation(&self, player: usize) -> Vec<f32> {
        let spec = &self.spec;
        let t = &spec.table;
        let k = t.kinds.len();
        let mut out = vec![0f32; spec.observation_size()];
        let view = self.g.view();
        let side = |p: u8| if (p as usize - 1) == player { 0 } else { 1 };
        for c in &view.cells {
            if !(1..=SQUARES as u8).contains(&c.square) {
                continue;
            }
            for piece in &c.pieces {
                if let Some(kind) = t.kinds.iter().position(|n| *n == piece.name) {
                    let plane = side(piece.player) * k + kind;
                    out[plane * SQUARES + c.square as usize - 1] += 1.0;
                }
            }
        }
        let mut i = 2 * k * SQUARES;
        out[i] = view.off[player] as f32;
        out[i + 1] = view.off[1 - player] as f32;
        i += 2;
        out[i] = view.captured[player] as f32;
        out[i + 1] = view.captured[1 - player] as f32;
        i += 2;
        if let (Status::Move(_), Some(th)) = (self.g.status(), self.g.in_hand()) {
            for v in [th.a, th.b] {
                if (1..=t.max_value).contains(&v) {
                    out[i + v as usize - 1] += 1.0;
                }
            }
        }
        i += t.max_value as usize;
        let status = self.g.status();
        if let Some(p) = status.player() {
            out[i + usize::from(p.index() != player)] = 1.0;
        }
        i += 2;
        if matches!(status, Status::Throw(_)) {
            out[i] = 1.0;
        }
        i += 1;
        let pos = self.g.position();
        let fields: Vec<&str> = pos.split_whitespace().skip(2).collect();
        for (j, f) in t.flags.iter().enumerate() {
            if fields.contains(f) {
                out[i + j] = 1.0;
            }
        }
        i += t.flags.len();
        for (j, name) in t.numbers.iter().enumerate() {
            let v = fields
                .iter()
                .filter_map(|f| f.split_once('='))
                .find(|(n, _)| n == name)
                .and_then(|(_, v)| v.parse::<f32>().ok());
            out[i + j] = v.unwrap_or(0.0);
        }
        i += t.numbers.len();
        out[i] = self.g.decisions() as f32 / spec.cap as f32;
        out
    }

    fn to_record(&self) -> PyResult<Record> {
        let mut rec = Record::new(&self.start, None);
        let mut s = State::new(self.spec.clone(), self.start);
        for &a in &self.history {
            match s.g.status() {
                Status::Throw(_) => rec.push_throw(self.spec.table.throws[a as usize]),
                _ => {
                    let m = s
                        .legal()?
                        .into_iter()
                        .find(|x| x.0 as i64 == a)
                        .map(|x| x.1)
                        .ok_or_else(|| internal(format!("history action {a} is not legal")))?;
                    rec.push_move(s.g.move_string(m));
                }
            }
            s.apply(a)?;
        }
        rec.finish(&s.g);
        Ok(rec)
    }

    fn player_arg(&self, player: Option<i64>) -> PyResult<usize> {
        match player {
            Some(p @ (0 | 1)) => Ok(p as usize),
            Some(p) => Err(value_error(format!("player must be 0 or 1, got {p}"))),
            None => Ok(self.g.status().player().map_or(0, |p| p.index())),
        }
    }
}

fn deserialize_record(text: &str, utility_score: bool) -> PyResult<State> {
    let rec = Record::from_json(text).map_err(value_error)?;
    rec.replay().map_err(value_error)?;
    let rules: RuleSet = rec.rules.parse().map_err(value_error)?;
    let spec = Arc::new(Spec::new(
        rules,
        &rec.option_pairs().map_err(value_error)?,
        utility_score,
    )?);
    let start = rec.start_position().map_err(value_error)?;
    let mut s = State::new(spec.clone(), start);
    for (i, e) in rec.events.iter().enumerate() {
        let bad = |e: String| value_error(format!("bad record: event {}: {e}", i + 1));
        let a = match e {
            Event::Throw { throw } => {
                spec.chance_id(Throw::parse(throw).map_err(|e| bad(e.to_string()))?)? as i64
            }
            Event::Move { mv } => {
                let m = s.g.parse_move(mv).map_err(|e| bad(e.to_string()))?;
                spec.encode(&s.g, m)? as i64
            }
        };
        s.apply(a)?;
    }
    Ok(s)
}

#[pymethods]
impl State {
    /// The player to move (0 first, 1 second), -1 while a throw is pending (the chance
    /// player), -4 once the game is over.
    fn current_player(&self) -> i64 {
        match self.g.status() {
            Status::Move(p) => p.index() as i64,
            Status::Throw(_) => CHANCE_PLAYER,
            Status::Over(_) => TERMINAL_PLAYER,
        }
    }

    /// Whether a throw is pending.
    fn is_chance_node(&self) -> bool {
        matches!(self.g.status(), Status::Throw(_))
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        matches!(self.g.status(), Status::Over(_))
    }

    /// Whether a player is to move.
    fn is_player_node(&self) -> bool {
        matches!(self.g.status(), Status::Move(_))
    }

    /// The player who throws or moves next (0 or 1), even at a chance node; None at the end.
    fn player_to_throw_or_move(&self) -> Option<usize> {
        self.g.status().player().map(|p| p.index())
    }

    /// The pending throw's outcomes as `(action, probability)`, sorted by action; with
    /// `exact=True` the probabilities are `fractions.Fraction`s. Empty when no throw is
    /// pending.
    #[pyo3(signature = (exact = false))]
    fn chance_outcomes<'py>(
        &self,
        py: Python<'py>,
        exact: bool,
    ) -> PyResult<Vec<(i64, Bound<'py, PyAny>)>> {
        let fraction = if exact {
            Some(py.import("fractions")?.getattr("Fraction")?)
        } else {
            None
        };
        self.chance()?
            .into_iter()
            .map(|(a, w, total)| {
                let p = match &fraction {
                    Some(f) => f.call1((w, total))?,
                    None => (w as f64 / total as f64).into_pyobject(py)?.into_any(),
                };
                Ok((a, p))
            })
            .collect()
    }

    /// The legal actions, sorted: the player's moves at a decision, the throws at a chance
    /// node, none at the end. With `player`, empty unless that player is to move.
    #[pyo3(signature = (player = None))]
    fn legal_actions(&self, player: Option<i64>) -> PyResult<Vec<i64>> {
        if player.is_some_and(|p| p != self.current_player()) {
            return Ok(Vec::new());
        }
        self.legal_ids()
    }

    /// 0/1 for every action id: `num_distinct_actions()` long at a decision,
    /// `max_chance_outcomes()` long at a chance node.
    #[pyo3(signature = (player = None))]
    fn legal_actions_mask(&self, player: Option<i64>) -> PyResult<Vec<i32>> {
        let n = if self.is_chance_node() {
            self.spec.table.throws.len()
        } else {
            self.spec.num_actions()
        };
        let mut mask = vec![0; n];
        for a in self.legal_actions(player)? {
            mask[a as usize] = 1;
        }
        Ok(mask)
    }

    /// Applies a legal action (a move, or at a chance node a throw); ValueError otherwise.
    fn apply_action(&mut self, action: i64) -> PyResult<()> {
        self.apply(action)
    }

    /// A copy with the action applied.
    fn child(&self, action: i64) -> PyResult<State> {
        let mut s = self.clone();
        s.apply(action)?;
        Ok(s)
    }

    /// The move string of a legal action (`10-13`, `28-off`, `pass`), the throw of a chance
    /// action (`4`, `3-5`), or what an action not legal here would mean. Called as
    /// `action_to_string(action)` or, as in OpenSpiel, `action_to_string(player, action)`.
    #[pyo3(signature = (player_or_action, action = None))]
    fn action_to_string(&self, player_or_action: i64, action: Option<i64>) -> PyResult<String> {
        let (player, action) = match action {
            Some(a) => (player_or_action, a),
            None => (self.current_player(), player_or_action),
        };
        if player == CHANCE_PLAYER {
            return Ok(usize::try_from(action)
                .ok()
                .and_then(|a| self.spec.table.throws.get(a))
                .map_or(format!("invalid chance action {action}"), |t| t.to_string()));
        }
        if matches!(self.g.status(), Status::Move(_)) {
            if let Some((_, m)) = self.legal()?.into_iter().find(|x| x.0 as i64 == action) {
                return Ok(self.g.move_string(m));
            }
        }
        Ok(self.spec.describe(action))
    }

    /// The action of a move string (matched as `senet moves` writes it, any case) or, at a
    /// chance node, of a throw (`4`, `3-5`). ValueError when it is not legal here.
    #[pyo3(signature = (player_or_text, text = None))]
    fn string_to_action(
        &self,
        player_or_text: &Bound<'_, PyAny>,
        text: Option<&str>,
    ) -> PyResult<i64> {
        let text: String = match text {
            Some(t) => t.to_string(),
            None => player_or_text.extract()?,
        };
        match self.g.status() {
            Status::Throw(_) => {
                let t = Throw::parse(text.trim()).map_err(value_error)?;
                let a = self
                    .chance()?
                    .iter()
                    .find_map(|&(a, _, _)| (self.spec.table.throws[a as usize] == t).then_some(a));
                a.ok_or_else(|| {
                    value_error(format!(
                        "{t} is not a possible throw here; possible throws: {}",
                        self.g.throw_dist().describe()
                    ))
                })
            }
            Status::Move(_) => {
                let m = self.g.parse_move(&text).map_err(value_error)?;
                Ok(self.spec.encode(&self.g, m)? as i64)
            }
            Status::Over(_) => Err(value_error("the game is over: no action applies")),
        }
    }

    /// The results: +1/-1/0, or for rule sets that score (unless `utility="win"`) the
    /// winner's score lead, negated for the loser (a draw is 0). Zeros until the game is over.
    fn returns(&self) -> Vec<f64> {
        self.returns_vec().to_vec()
    }

    /// The returns at the end, zeros before (all reward comes at the end).
    fn rewards(&self) -> Vec<f64> {
        self.returns_vec().to_vec()
    }

    /// `returns()[player]`.
    fn player_return(&self, player: i64) -> PyResult<f64> {
        let p = self.player_arg(Some(player))?;
        Ok(self.returns_vec()[p])
    }

    /// How the game ended: `{"winner": 0, 1 or None, "capped": bool, "score": [a, b] or
    /// None}`; None while it goes on.
    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Status::Over(o) = self.g.status() else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        d.set_item("winner", o.winner.map(|p| p.index()))?;
        d.set_item("capped", o.capped)?;
        d.set_item("score", o.score.map(|s| s.to_vec()))?;
        Ok(Some(d))
    }

    /// An independent copy.
    fn clone(&self) -> State {
        Clone::clone(self)
    }

    fn __copy__(&self) -> State {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        Clone::clone(self)
    }

    /// Every action applied since the state was created (throws included).
    fn history(&self) -> Vec<i64> {
        self.history.clone()
    }

    /// The history as text, actions separated by commas.
    fn history_str(&self) -> String {
        self.history
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Actions applied so far (throws included).
    fn move_number(&self) -> usize {
        self.history.len()
    }

    /// Decisions played so far, forfeits included (what the turn cap counts).
    fn decisions(&self) -> u32 {
        self.g.decisions()
    }

    /// The throw in hand (`4`, `3-5`, or the die left), None while a throw is pending.
    fn throw(&self) -> Option<String> {
        self.g.in_hand().map(|t| t.to_string())
    }

    /// The position string (`docs/notation.md`).
    fn position(&self) -> String {
        self.g.position()
    }

    /// The board drawn as text.
    fn diagram(&self) -> String {
        self.g.diagram()
    }

    /// The game record (`senet-record/1` JSON) of the state's history; `senet replay`
    /// reads it and `senet.deserialize` restores the state (history included).
    fn serialize(&self) -> PyResult<String> {
        Ok(self.to_record()?.to_json())
    }

    /// The observation of `player` (0 or 1; default: the player to throw or move) as a flat
    /// list of floats; layout in `Game.observation_tensor_layout()` and `python/README.md`.
    #[pyo3(signature = (player = None))]
    fn observation_tensor(&self, player: Option<i64>) -> PyResult<Vec<f32>> {
        Ok(self.observation(self.player_arg(player)?))
    }

    /// The board diagram and the position string (the same for both players).
    #[pyo3(signature = (player = None))]
    fn observation_string(&self, player: Option<i64>) -> PyResult<String> {
        self.player_arg(player)?;
        Ok(format!("{}\n{}", self.g.diagram(), self.g.position()))
    }

    /// The game this state belongs to.
    fn get_game(&self) -> Game {
        Game {
            spec: self.spec.clone(),
        }
    }

    /// Always 2.
    fn num_players(&self) -> usize {
        2
    }

    /// Position-string fields that the observation does not encode (should be empty; the
    /// tests check it).
    fn unobserved_fields(&self) -> Vec<String> {
        let t = &self.spec.table;
        self.g
            .position()
            .split_whitespace()
            .skip(2)
            .filter(|f| {
                let name = f.split_once('=').map_or(*f, |x| x.0);
                !t.flags.contains(f) && !t.numbers.contains(&name) && !COMMON_FIELDS.contains(&name)
            })
            .map(String::from)
            .collect()
    }

    fn __str__(&self) -> String {
        self.g.position()
    }

    fn __repr__(&self) -> String {
        format!("<senet.State {}>", self.g.position())
    }

    fn __eq__(&self, other: &State) -> bool {
        self.g == other.g && self.history == other.history && self.start == other.start
    }

    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (String, &'static str))> {
        let f = py.import("senet")?.getattr("deserialize")?;
        Ok((
            f,
            (self.serialize()?, utility_name(self.spec.utility_score)),
        ))
    }
}

/// Restores a state from `State.serialize()` (any senet game record), history included;
/// `utility` as in `load_game`.
#[pyfunction]
#[pyo3(signature = (text, utility = "score"))]
fn deserialize(text: &str, utility: &str) -> PyResult<State> {
    deserialize_record(text, parse_utility(Some(utility))?)
}

/// A computer player of `senet-bots`.
#[pyclass(module = "senet", frozen)]
struct Bot {
    spec: BotSpec,
    seed: u64,
    engine: Mutex<Box<dyn senet_bots::Bot>>,
}

impl Bot {
    fn run(
        &self,
        py: Python<'_>,
        s: &State,
        exact: bool,
    ) -> PyResult<(senet_bots::Choice, Vec<(usize, Move)>)> {
        if !matches!(s.g.status(), Status::Move(_)) {
            return Err(value_error(format!(
                "a bot chooses a move when a player is to move; here {}",
                if s.is_terminal() {
                    "the game is over"
                } else {
                    "a throw is pending (apply a chance action first)"
                }
            )));
        }
        let g = s.g;
        let seed = mix(self.seed, g.decisions() as u64);
        let c = py.detach(|| {
            let mut e = self.engine.lock().unwrap_or_else(|p| p.into_inner());
            e.choose_with(&g, seed, exact)
        });
        Ok((c, s.legal()?))
    }
}

fn action_of(legal: &[(usize, Move)], m: Move) -> PyResult<i64> {
    legal
        .iter()
        .find(|x| x.1 == m)
        .map(|x| x.0 as i64)
        .ok_or_else(|| internal("the bot chose a move that is not legal".into()))
}

#[pymethods]
impl Bot {
    /// The bot's action for a state where a player is to move.
    fn choose(&self, py: Python<'_>, state: PyRef<'_, State>) -> PyResult<i64> {
        let (c, legal) = self.run(py, &state, false)?;
        action_of(&legal, c.best)
    }

    /// Every legal action's score: for the search bots the exact estimated chance that the
    /// player to move wins after it (a draw counts 1/2); for `random`, its pick chance.
    fn win_chances(&self, py: Python<'_>, state: PyRef<'_, State>) -> PyResult<Vec<(i64, f64)>> {
        let (c, legal) = self.run(py, &state, true)?;
        let mut v = c
            .scores
            .iter()
            .map(|&(m, s)| Ok((action_of(&legal, m)?, s)))
            .collect::<PyResult<Vec<_>>>()?;
        v.sort_by_key(|x| x.0);
        Ok(v)
    }

    /// The whole choice: `action`, `move`, `scores` ({action: score}), `moves`
    /// ({action: move string}), `score_kind` (`win_chance` or `pick_chance`), `exact`
    /// (False in play mode: other moves' scores are upper bounds) and `nodes`.
    #[pyo3(signature = (state, exact = true))]
    fn choice<'py>(
        &self,
        py: Python<'py>,
        state: PyRef<'_, State>,
        exact: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        let (c, legal) = self.run(py, &state, exact)?;
        let d = PyDict::new(py);
        d.set_item("action", action_of(&legal, c.best)?)?;
        d.set_item("move", state.g.move_string(c.best))?;
        let scores = PyDict::new(py);
        let moves = PyDict::new(py);
        for &(m, s) in &c.scores {
            let a = action_of(&legal, m)?;
            scores.set_item(a, s)?;
            moves.set_item(a, state.g.move_string(m))?;
        }
        d.set_item("scores", scores)?;
        d.set_item("moves", moves)?;
        d.set_item("score_kind", c.score_kind)?;
        d.set_item("exact", c.exact)?;
        d.set_item("nodes", c.nodes)?;
        Ok(d)
    }

    /// The bot's name.
    #[getter]
    fn name(&self) -> String {
        self.spec.to_string()
    }

    fn __repr__(&self) -> String {
        format!("senet.bot({:?}, seed={})", self.spec.to_string(), self.seed)
    }
}

/// A bot by name: `random`, `greedy`, `expectimax:N`, `mcts:N`, or a level `beginner`,
/// `casual`, `strong`, `expert` (see `docs/bots.md`). `seed` feeds the bot's own
/// randomness; choices are deterministic for a position and seed.
#[pyfunction]
#[pyo3(signature = (name = "strong", seed = 0))]
fn bot(name: &str, seed: u64) -> PyResult<Bot> {
    let spec: BotSpec = name.parse().map_err(value_error)?;
    Ok(Bot {
        spec,
        seed,
        engine: Mutex::new(spec.build()),
    })
}

fn game_arg(game: &Bound<'_, PyAny>) -> PyResult<Arc<Spec>> {
    if let Ok(g) = game.cast::<Game>() {
        return Ok(g.get().spec.clone());
    }
    let name: String = game
        .extract()
        .map_err(|_| value_error("game must be a senet.Game or a rule set name"))?;
    let (rules, pairs) = split_name(&name)?;
    Ok(Arc::new(Spec::new(rules, &pairs, true)?))
}

/// Plays duplicate pairs (the same throws, seats swapped) between bots `a` and `b` on all
/// cores and returns A's score rate with its 95% interval, wins, draws, lengths and timings;
/// with `luck` (a search bot), also A's score with every throw's luck, as `luck` values the
/// throws, taken out (`senet match --luck`).
#[pyfunction]
#[pyo3(signature = (game, a, b, pairs = 100, seed = 1, threads = 0, luck = None))]
#[allow(clippy::too_many_arguments)]
fn duplicate_match<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    a: &str,
    b: &str,
    pairs: u32,
    seed: u64,
    threads: usize,
    luck: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let spec = game_arg(game)?;
    let judge: Option<senet_bots::BotSpec> =
        luck.map(|j| j.parse().map_err(value_error)).transpose()?;
    let cfg = MatchConfig {
        start: spec.start,
        a: a.parse().map_err(value_error)?,
        b: b.parse().map_err(value_error)?,
        pairs,
        seed,
        threads,
    };
    let r = py
        .detach(|| run_match_with_luck(&cfg, judge.as_ref(), &|| {}))
        .map_err(value_error)?;
    let d = PyDict::new(py);
    d.set_item("rules", spec.short_name())?;
    d.set_item("a", &r.a)?;
    d.set_item("b", &r.b)?;
    d.set_item("pairs", r.pairs.len())?;
    d.set_item("a_wins", r.a_wins)?;
    d.set_item("b_wins", r.b_wins)?;
    d.set_item("draws", r.draws)?;
    d.set_item("a_rate", r.a_rate)?;
    d.set_item("ci95", r.ci95)?;
    d.set_item("avg_length", r.avg_length)?;
    d.set_item("first_player_wins", r.first_player_wins)?;
    d.set_item("median_micros", r.median_micros.to_vec())?;
    if let Some(l) = &r.luck {
        let x = PyDict::new(py);
        x.set_item("judge", &l.judge)?;
        x.set_item("a_rate", l.a_rate)?;
        x.set_item("ci95", l.ci95)?;
        x.set_item("a_luck", l.a_luck)?;
        d.set_item("luck_adjusted", x)?;
    }
    let games = r
        .pairs
        .iter()
        .flatten()
        .map(|g| {
            let x = PyDict::new(py);
            x.set_item("a_first", g.a_first)?;
            x.set_item("winner", g.winner.map(|p| p.index()))?;
            x.set_item("capped", g.capped)?;
            x.set_item("decisions", g.decisions)?;
            x.set_item("first_luck", g.first_luck)?;
            Ok(x)
        })
        .collect::<PyResult<Vec<_>>>()?;
    d.set_item("games", games)?;
    Ok(d)
}

/// Every rule set: `id`, `name`, `source`, `options` (name, type, default, min, max,
/// description), `scores` (`"always"`, `"never"` or `"with option score"`), and the action
/// and chance sizes.
#[pyfunction]
fn rule_sets<'py>(py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
    RuleSet::ALL
        .iter()
        .map(|&r| {
            let d = PyDict::new(py);
            d.set_item("id", r.id())?;
            d.set_item("name", r.name())?;
            d.set_item("source", r.source())?;
            let mut opts = Vec::new();
            for o in r.option_specs() {
                let x = PyDict::new(py);
                x.set_item("name", o.name)?;
                x.set_item("description", o.description)?;
                match o.kind {
                    OptionKind::Bool { default } => {
                        x.set_item("type", "bool")?;
                        x.set_item("default", default)?;
                    }
                    OptionKind::Int { default, min, max } => {
                        x.set_item("type", "int")?;
                        x.set_item("default", default)?;
                        x.set_item("min", min)?;
                        x.set_item("max", max)?;
                    }
                }
                opts.push(x);
            }
            d.set_item("options", opts)?;
            let t = table(&AnyGame::new(r, &[] as &[&str]).map_err(value_error)?);
            let scores = match (
                t.max_score.is_some(),
                r.option_specs().iter().any(|o| o.name == "score"),
            ) {
                (true, false) => "always",
                (_, true) => "with option score",
                (false, false) => "never",
            };
            d.set_item("scores", scores)?;
            d.set_item("num_distinct_actions", t.code.num_actions())?;
            d.set_item("max_chance_outcomes", t.throws.len())?;
            Ok(d)
        })
        .collect()
}

/// The compiled part of the `senet` package.
#[pymodule]
fn _senet(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_class::<State>()?;
    m.add_class::<Bot>()?;
    m.add_function(wrap_pyfunction!(load_game, m)?)?;
    m.add_function(wrap_pyfunction!(deserialize, m)?)?;
    m.add_function(wrap_pyfunction!(bot, m)?)?;
    m.add_function(wrap_pyfunction!(duplicate_match, m)?)?;
    m.add_function(wrap_pyfunction!(rule_sets, m)?)?;
    m.add("CHANCE_PLAYER_ID", CHANCE_PLAYER)?;
    m.add("TERMINAL_PLAYER_ID", TERMINAL_PLAYER)?;
    Ok(())
}
