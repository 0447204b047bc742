//! Puzzles (issue 57): positions where the player to move, the throw already made, has one
//! clearly best move, judged from the exact endgame tables where they answer and from the
//! hint's search at `expert` depth elsewhere (`docs/puzzles.md`).
//!
//! A position awaiting a move with two or more legal moves is a puzzle when the best move's
//! win chance for the mover beats every other move's by at least [`MARGIN`]. [`judge`] values
//! one position, [`from_record`] finds the puzzles of a real game that its player got wrong,
//! and [`generate`] draws puzzles from self-play and, on the four stick rule sets, from small
//! endgames that the exact tables answer. [`check`] re-checks a puzzle against the rules and
//! the tables.

use crate::exact::Tables;
use crate::play;
use rand::{Rng, RngCore, SeedableRng};
use rand_pcg::Pcg64Mcg;
use senet_rules::prelude::*;
use senet_rules::race::{Opening, Race, Sheet};
use senet_rules::{
    AnyGame, Effect, Effects, Event, Move, MoveKind, MoveList, Player, Record, RuleSet, Status,
    Throw,
};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// The least lead in win chance (0.10, ten points of percentage) of the best move over the
/// second best that makes a position a puzzle: "clearly best", and as much as the analysis's
/// blunder mark (`??`, `docs/analysis.md`).
pub const MARGIN: f64 = 0.10;

/// The weak side of the self-play games of [`generate`] (a level of [`play::levels`]).
pub const WEAK: &str = "beginner";

/// The strong side of the self-play games of [`generate`]; its searches are the hints.
pub const STRONG: &str = play::HINT_LEVEL;

/// The themes a puzzle can have, in the order [`Puzzle::themes`] lists them.
pub const THEMES: [&str; 5] = ["water", "blockade", "bear-off", "swap", "capture"];

/// A position whose player to move (the throw made) has one clearly best move. Its JSON is
/// this struct's fields, in this order (one object per line in `senet puzzles --json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Puzzle {
    /// The rule set's ID (`kendall5`, ...).
    pub rules: String,
    /// The position awaiting the move, the throw in hand (`docs/notation.md`).
    pub position: String,
    /// The player to move: 1 (first) or 2.
    pub player: u8,
    /// The throw (or dice) to play, as the notation writes it (`3`, `2-4`).
    pub throw: String,
    /// Every legal move with the mover's win chance after it, best first (equal chances in
    /// the generator's order).
    pub moves: Vec<PuzzleMove>,
    /// The best move's text (`moves[0]`).
    pub best: String,
    /// The best move's chance minus the second best's: at least [`MARGIN`].
    pub margin: f64,
    /// Whether every move's chance is exact, from the endgame tables; else the hint's values
    /// at `expert` depth ([`play::hint`]).
    pub exact: bool,
    /// What the best move does, from [`THEMES`]: `water` (it falls into the water), `blockade`
    /// (after it the mover has a row of three or more that an opposing piece behind it may
    /// not pass), `bear-off`, `swap`, `capture` (an opposing piece removed or sent back).
    pub themes: Vec<String>,
    /// The ruling (`shared/rulings.md`) that decides it, with its words, when a special rule
    /// does: the best or a rejected move falls into the water, the best move bears off, or
    /// it makes a blockade. `None` otherwise.
    pub why: Option<String>,
    /// Where it comes from: `table` (an endgame answered by the exact tables),
    /// `self-play:<seed>` (the game of [`generate`] with that seed) or `game:<id>` (a real
    /// game, [`from_record`]).
    pub source: String,
}

/// One legal move of a puzzle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzleMove {
    /// The move's text (`docs/notation.md`).
    #[serde(rename = "move")]
    pub mv: String,
    /// The mover's win chance after it (a draw counts 1/2).
    pub chance: f64,
    /// What it does: the words of its effects (`step`, `swap`, `trap`, `bear off`, ...;
    /// [`Effects::names`]).
    pub kinds: Vec<String>,
}

fn player_no(p: Player) -> u8 {
    p.index() as u8 + 1
}

/// A first-player value as `p`'s win chance.
fn for_player(p: Player, first: f64) -> f64 {
    if p == Player::First {
        first
    } else {
        1.0 - first
    }
}

/// Every legal move of `g` (awaiting a move) with the mover's exact win chance after it, if
/// the exact tables answer every move's result ([`Tables::move_values`], which follows the
/// turn when it stays with the mover and values the opponent's throw otherwise).
pub fn exact_values(g: &AnyGame) -> Option<Vec<(Move, f64)>> {
    let Status::Move(p) = g.status() else {
        return None;
    };
    let v = Tables::global().move_values(g)?;
    Some(v.into_iter().map(|(m, x)| (m, for_player(p, x))).collect())
}

/// Every legal move of `g` with the mover's win chance after it, and whether they are exact:
/// the tables' values where they answer every move, else the hint's.
fn values(g: &AnyGame, seed: u64) -> Option<(Vec<(Move, f64)>, bool)> {
    if let Some(v) = exact_values(g) {
        return Some((v, true));
    }
    play::hint(g, seed).ok().map(|h| (h.moves, false))
}

/// Judges a position awaiting a move: a [`Puzzle`] (with `source`) when it has two or more
/// legal moves and the best one's win chance for the mover beats every other's by at least
/// [`MARGIN`]; `None` otherwise. Every move is valued exactly when the exact tables answer
/// every move's result ([`exact_values`]), else by the hint at `expert` depth
/// ([`play::hint`], seed 0). Deterministic.
pub fn judge(g: &AnyGame, source: &str) -> Option<Puzzle> {
    let Status::Move(_) = g.status() else {
        return None;
    };
    if legal(g).len() < 2 {
        return None;
    }
    let (v, exact) = values(g, 0)?;
    from_values(g, &v, exact, source)
}

fn legal(g: &AnyGame) -> MoveList {
    let mut ms = MoveList::new();
    g.legal_moves(&mut ms);
    ms
}

/// The puzzle of `g` given every legal move's value for the mover, if it is one.
fn from_values(g: &AnyGame, v: &[(Move, f64)], exact: bool, source: &str) -> Option<Puzzle> {
    let Status::Move(p) = g.status() else {
        return None;
    };
    if v.len() < 2 {
        return None;
    }
    let mut sorted: Vec<(Move, f64)> = v.to_vec();
    sorted.sort_by(|a, b| b.1.total_cmp(&a.1));
    let margin = sorted[0].1 - sorted[1].1;
    if margin < MARGIN {
        return None;
    }
    let effects = |m: Move| {
        let mut c = *g;
        let e = c.play_unchecked(m);
        (c, e)
    };
    let (after, best_fx) = effects(sorted[0].0);
    let moves: Vec<PuzzleMove> = sorted
        .iter()
        .map(|&(m, chance)| PuzzleMove {
            mv: g.move_string(m),
            chance,
            kinds: effects(m).1.names().iter().map(|s| s.to_string()).collect(),
        })
        .collect();
    let water = |m: Move, e: Effects| e.has(Effect::TRAP) || m.kind.contains(MoveKind::WATER);
    let block = blockade(&after, p);
    let mut themes = Vec::new();
    for t in THEMES {
        let has = match t {
            "water" => water(sorted[0].0, best_fx),
            "blockade" => block,
            "bear-off" => best_fx.has(Effect::BEAR_OFF),
            "swap" => best_fx.has(Effect::SWAP),
            _ => best_fx.has(Effect::CAPTURE) || best_fx.has(Effect::SENT_BACK),
        };
        if has {
            themes.push(t.to_string());
        }
    }
    let rules = g.rules();
    let rejected_water = sorted[1..].iter().find(|&&(m, _)| water(m, effects(m).1));
    let why = if water(sorted[0].0, best_fx) {
        ruling(rules, Rule::Water).map(|r| format!("{r} (the best move falls into the water)"))
    } else if let Some(&(m, _)) = rejected_water {
        ruling(rules, Rule::Water)
            .map(|r| format!("{r} ({} falls into the water)", g.move_string(m)))
    } else if best_fx.has(Effect::BEAR_OFF) {
        ruling(rules, Rule::BearOff).map(str::to_string)
    } else if block {
        ruling(rules, Rule::Blockade).map(str::to_string)
    } else {
        None
    };
    Some(Puzzle {
        rules: rules.id().to_string(),
        position: g.position(),
        player: player_no(p),
        throw: g.in_hand().map_or_else(String::new, |t| t.to_string()),
        best: moves[0].mv.clone(),
        moves,
        margin,
        exact,
        themes,
        why,
        source: source.to_string(),
    })
}

/// The special rules a puzzle's `why` names.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Rule {
    Water,
    BearOff,
    Blockade,
}

/// The ruling of `shared/rulings.md` (ID and words) for a special rule in a rule set, where
/// the rule set has it.
fn ruling(rules: RuleSet, rule: Rule) -> Option<&'static str> {
    use RuleSet as R;
    Some(match (rules, rule) {
        (R::Kendall, Rule::Water) => "K8: a piece that ends a move on 27 goes to 15, or if 15 is occupied to the first empty square below 15",
        (R::Kendall5, Rule::Water) => "R7: 27 is reached only from 26 with a 1; the piece goes to 15, or if 15 is occupied to the highest empty square below 15",
        (R::Houses, Rule::Water) => "H8: the House of Water, 27, sends the piece to 15 (or the nearest empty square below) and ends the turn",
        (R::Senat, Rule::Water) => "S8: a piece that ends a move on 27 goes to 15; if 15 is occupied, to the lowest-numbered empty square",
        (R::Kendall, Rule::BearOff) => "K9: a piece on 28 bears off with a 3, on 29 with a 2, on 30 with a 1",
        (R::Kendall5, Rule::BearOff) => "R8: pieces on 28, 29, 30 bear off with exactly 3, 2, 1; from 26 a throw of 5 bears off",
        (R::Houses, Rule::BearOff) => "H10: a piece on 28 moves only with a 3, on 29 only with a 2, on 30 only with a 1, and that move bears it off",
        (R::Senat, Rule::BearOff) => "S10: a piece bears off when its throw carries it past 30, only while none of the player's pieces is on squares 1-10",
        (R::Pyramid, Rule::BearOff) => "Y7: a pyramid on 27, 28, 29, 30 bears off only with a die of 4, 3, 2, 1",
        (R::Kendall, Rule::Blockade) => "K6: three or more consecutive opposing pieces in one row cannot be passed",
        (R::Kendall5, Rule::Blockade) => "R5: three or more consecutive opposing pieces cannot be passed, forward or backward",
        (R::Houses, Rule::Blockade) => "H5: three or more pieces of one colour on consecutive squares cannot be jumped by the opponent",
        (R::Senat, Rule::Blockade) => "S6: three or more pieces of one colour on consecutive squares cannot be passed by the opponent",
        (R::Pyramid, Rule::Blockade) => "Y5: three or more consecutive pyramids of one colour cannot be passed by the other colour",
        _ => return None,
    })
}

/// Whether `p` has, in `g`, a blockade that holds an opposing piece back: three or more of
/// `p`'s pieces on consecutive squares (broken at the corners 10|11 and 20|21 where the
/// rule set's blockades do not turn them, K6) with an opposing piece on a lower square,
/// which therefore may not pass them. Only the rule sets with blockades (the four stick
/// rule sets, pyramid's Y5) have them; parker has none.
pub fn blockade(g: &AnyGame, p: Player) -> bool {
    let (men, corners) = match g {
        AnyGame::Kendall(k) => (k.men(), k.spec().blockade_turns_corners),
        AnyGame::Kendall5(k) => (k.men(), k.spec().blockade_turns_corners),
        AnyGame::Houses(k) => (k.men(), k.spec().blockade_turns_corners),
        AnyGame::Senat(k) => (k.men(), k.spec().blockade_turns_corners),
        AnyGame::Pyramid(y) => (y.setup().men, true),
        AnyGame::Parker(_) => return false,
    };
    let (own, opp) = (men[p.index()], men[1 - p.index()]);
    let mut run = 0;
    for s in 1..=30u32 {
        if !corners && (s == 11 || s == 21) {
            run = 0;
        }
        if own & (1 << s) != 0 {
            run += 1;
            if run >= 3 {
                let start = s + 1 - run;
                // An opposing piece below the run's first square must pass it.
                if opp & ((1u32 << start) - 1) != 0 {
                    return true;
                }
            }
        } else {
            run = 0;
        }
    }
    false
}

/// The puzzles of a real game that its players got wrong: every decision is judged
/// ([`judge`], with `source`) and kept when the move played was not the best one (so it
/// lost at least [`MARGIN`]). A record that does not replay gives none.
pub fn from_record(rec: &Record, source: &str) -> Vec<Puzzle> {
    let Ok(mut g) = rec.start_position() else {
        return Vec::new();
    };
    if rec.replay().is_err() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (i, e) in rec.events.iter().enumerate() {
        match e {
            Event::Throw { throw } => {
                let Ok(t) = Throw::parse(throw) else {
                    return out;
                };
                if g.set_throw(t).is_err() {
                    return out;
                }
            }
            Event::Move { mv } => {
                if rec.legacy_pass_at(&g, i) {
                    senet_rules::play_legacy_pass(&mut g);
                    continue;
                }
                let Ok(m) = g.parse_move(mv) else {
                    return out;
                };
                if let Some(pz) = judge(&g, source) {
                    if g.move_string(m) != pz.best {
                        out.push(pz);
                    }
                }
                g.play_unchecked(m);
            }
        }
    }
    out
}

/// Self-play games of [`generate`] tried per puzzle wanted before it gives up.
const GAMES_PER_PUZZLE: usize = 4;

/// Endgames drawn per puzzle wanted before [`generate`] gives up on the tables.
const SAMPLES_PER_PUZZLE: usize = 400;

/// `count` puzzles of `rules` (fewer only if none more are found), deterministic for a seed,
/// with no two of the same position.
///
/// On the four stick rule sets, where the exact tables are (`Tables::global`), about half
/// (`count / 2` rounded up) come from self-play and the rest from endgames that the tables
/// answer; on pyramid and parker all come from self-play.
///
/// - Self-play: games of [`WEAK`] against [`STRONG`] (game seed `seed + k` for the k-th
///   game; the weak side moves first in even-seeded games), source `self-play:<game seed>`.
///   Every decision of the strong side is judged (its search is the hint); a decision of
///   the weak side is judged when a quick search (1 throw deep, the analysis's evaluator)
///   finds its best move ahead by at least half of [`MARGIN`], so that its blunders and
///   the clear decisions it met are found without a full search of every move.
/// - Endgames (source `table`): random positions after the opening with 1 to the tables'
///   pieces per side on the board (each piece on a square from 1-30, or from 16-30 with
///   even odds; none on 27), the side to move and its throw drawn; kept when every move's
///   result is answered exactly and it is a puzzle.
pub fn generate(rules: RuleSet, seed: u64, count: usize) -> Vec<Puzzle> {
    let tables = Tables::global();
    let has_table = tables.table(rules).is_some();
    let want_play = if has_table { count.div_ceil(2) } else { count };
    let mut seen = HashSet::new();
    let mut out = self_play(rules, seed, want_play, &mut seen);
    if has_table {
        let want = count - out.len();
        out.extend(endgames(rules, seed, want, &mut seen));
    }
    out.truncate(count);
    out
}

/// Puzzles from self-play games of [`WEAK`] against [`STRONG`] ([`generate`]).
fn self_play(rules: RuleSet, seed: u64, want: usize, seen: &mut HashSet<String>) -> Vec<Puzzle> {
    let mut out = Vec::new();
    if want == 0 {
        return out;
    }
    let mut quick = crate::analysis::analyser(1, Some(20_000));
    for k in 0..(want * GAMES_PER_PUZZLE).max(2) as u64 {
        let game_seed = seed.wrapping_add(k);
        let source = format!("self-play:{game_seed}");
        let weak = if game_seed % 2 == 0 {
            Player::First
        } else {
            Player::Second
        };
        let Ok(mut g) = AnyGame::new(rules, &[] as &[&str]) else {
            return out;
        };
        let mut rng = Pcg64Mcg::seed_from_u64(game_seed);
        let mut decision = 0u64;
        loop {
            match g.status() {
                Status::Over(_) => break,
                Status::Throw(_) => {
                    let t = g.sample_throw(rng.next_u32());
                    g.set_throw_unchecked(t);
                }
                Status::Move(p) => {
                    decision += 1;
                    let ms = legal(&g);
                    let s = game_seed.wrapping_mul(0x9E37_79B9).wrapping_add(decision);
                    let mut found = None;
                    let m = if ms.len() < 2 {
                        ms[0]
                    } else if p == weak {
                        let (m, _) = play::choose(WEAK, &g, s).expect("the weak level plays");
                        if !seen.contains(&g.position()) {
                            let c = quick.choose_with(&g, 0, true);
                            let mut v: Vec<f64> = c.scores.iter().map(|x| x.1).collect();
                            v.sort_by(|a, b| b.total_cmp(a));
                            if v.len() >= 2 && v[0] - v[1] >= MARGIN / 2.0 {
                                found = judge(&g, &source);
                            }
                        }
                        m
                    } else {
                        // Seed 0, as `judge`: the puzzle holds the values `judge` gives.
                        let h = play::hint(&g, 0).expect("the hint answers a move");
                        if !seen.contains(&g.position()) {
                            found = match exact_values(&g) {
                                Some(v) => from_values(&g, &v, true, &source),
                                None => from_values(&g, &h.moves, false, &source),
                            };
                        }
                        h.best
                    };
                    if let Some(pz) = found {
                        if seen.insert(pz.position.clone()) {
                            out.push(pz);
                            if out.len() >= want {
                                return out;
                            }
                        }
                    }
                    g.play_unchecked(m);
                }
            }
        }
    }
    out
}

/// Puzzles from random endgames that the exact tables answer ([`generate`]).
fn endgames(rules: RuleSet, seed: u64, want: usize, seen: &mut HashSet<String>) -> Vec<Puzzle> {
    let mut out = Vec::new();
    let tables = Tables::global();
    let Some(t) = tables.table(rules) else {
        return out;
    };
    let pieces = t.pieces().min(tables.limit()).max(1) as u32;
    let Ok(start) = AnyGame::new(rules, &[] as &[&str]) else {
        return out;
    };
    let mut rng = Pcg64Mcg::seed_from_u64(seed ^ 0x5EED_7AB1_E000_0000);
    for _ in 0..want * SAMPLES_PER_PUZZLE {
        if out.len() >= want {
            break;
        }
        let mut men = [0u32; 2];
        for side in &mut men {
            let n = rng.random_range(1..=pieces);
            while side.count_ones() < n {
                let low = if rng.random_bool(0.5) { 16 } else { 1 };
                let s = rng.random_range(low..=30u32);
                if s != 27 && *side & (1 << s) == 0 {
                    *side |= 1 << s;
                }
            }
        }
        if men[0] & men[1] != 0 {
            continue;
        }
        let turn = if rng.random_bool(0.5) {
            Player::First
        } else {
            Player::Second
        };
        let Some(mut g) = endgame(&start, men, turn) else {
            continue;
        };
        if !matches!(g.status(), Status::Throw(_)) {
            continue;
        }
        let th = g.sample_throw(rng.next_u32());
        g.set_throw_unchecked(th);
        if !matches!(g.status(), Status::Move(_)) || legal(&g).len() < 2 {
            continue;
        }
        if seen.contains(&g.position()) {
            continue;
        }
        let Some(v) = exact_values(&g) else {
            continue;
        };
        if let Some(pz) = from_values(&g, &v, true, "table") {
            seen.insert(pz.position.clone());
            out.push(pz);
        }
    }
    out
}

/// `start`'s rule set with these pieces on the board, past the opening, `turn` to throw.
fn endgame(start: &AnyGame, men: [u32; 2], turn: Player) -> Option<AnyGame> {
    fn race<S: Sheet>(k: &Race<S>, men: [u32; 2], turn: Player) -> Option<Race<S>> {
        let mut s = k.setup();
        s.men = men;
        s.turn = turn;
        s.throw = 0;
        s.left = 0;
        s.opening = Opening::Done;
        Race::<S>::try_from(s).ok()
    }
    Some(match start {
        AnyGame::Kendall(k) => AnyGame::Kendall(race(k, men, turn)?),
        AnyGame::Kendall5(k) => AnyGame::Kendall5(race(k, men, turn)?),
        AnyGame::Houses(k) => AnyGame::Houses(race(k, men, turn)?),
        AnyGame::Senat(k) => AnyGame::Senat(race(k, men, turn)?),
        AnyGame::Pyramid(_) | AnyGame::Parker(_) => return None,
    })
}

/// Re-checks a puzzle: its rule set and position parse, the position awaits a move of
/// `player` with `throw` in hand, its moves are exactly the legal moves, best first, `best`
/// is the first and `margin` the first's chance minus the second's, at least [`MARGIN`];
/// and for an exact puzzle every chance equals the exact tables' value (within 1e-9). The
/// error names what is wrong.
pub fn check(p: &Puzzle) -> Result<(), String> {
    let g: AnyGame = p
        .position
        .parse()
        .map_err(|e| format!("its position does not parse: {e}"))?;
    if g.rules().id() != p.rules {
        return Err(format!(
            "rules {:?}, but the position is of {}",
            p.rules,
            g.rules().id()
        ));
    }
    let Status::Move(who) = g.status() else {
        return Err("the position does not await a move".into());
    };
    if player_no(who) != p.player {
        return Err(format!(
            "player {}, but player {} is to move",
            p.player,
            player_no(who)
        ));
    }
    let hand = g.in_hand().map_or_else(String::new, |t| t.to_string());
    if hand != p.throw {
        return Err(format!(
            "throw {:?}, but the position holds {hand:?}",
            p.throw
        ));
    }
    let ms = legal(&g);
    let mut legal_texts: Vec<String> = ms.iter().map(|&m| g.move_string(m)).collect();
    let mut given: Vec<String> = p.moves.iter().map(|m| m.mv.clone()).collect();
    legal_texts.sort();
    given.sort();
    if legal_texts != given {
        return Err(format!(
            "its moves [{}] are not the legal moves [{}]",
            given.join(", "),
            legal_texts.join(", ")
        ));
    }
    if p.moves.len() < 2 {
        return Err("fewer than two legal moves".into());
    }
    if p.moves.windows(2).any(|w| w[0].chance < w[1].chance) {
        return Err("its moves are not best first".into());
    }
    if p.best != p.moves[0].mv {
        return Err(format!(
            "best {:?}, but the first move is {:?}",
            p.best, p.moves[0].mv
        ));
    }
    let margin = p.moves[0].chance - p.moves[1].chance;
    if (margin - p.margin).abs() > 1e-9 {
        return Err(format!(
            "margin {}, but the first two moves differ by {margin}",
            p.margin
        ));
    }
    if p.margin < MARGIN {
        return Err(format!("margin {} is below {MARGIN}", p.margin));
    }
    if p.exact {
        let v = exact_values(&g)
            .ok_or("marked exact, but the exact tables do not answer every move")?;
        for pm in &p.moves {
            let m = g.parse_move(&pm.mv).map_err(|e| e.to_string())?;
            let x = v.iter().find(|x| x.0 == m).map(|x| x.1).expect("legal");
            if (x - pm.chance).abs() > 1e-9 {
                return Err(format!(
                    "move {} has chance {}, but the exact tables say {x}",
                    pm.mv, pm.chance
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position of `rules` with the first player's pieces on `x`, the second's on `o`,
    /// `turn` to move with `throw` in hand.
    fn at(rules: &str, x: &[u32], o: &[u32], turn: u8, throw: u8) -> AnyGame {
        let board: String = (1..=30)
            .map(|s| {
                if x.contains(&s) {
                    'X'
                } else if o.contains(&s) {
                    'O'
                } else {
                    '.'
                }
            })
            .collect();
        let text = format!(
            "{rules} {board} off={},{} turn={turn} throw=- dec=40",
            5 - x.len(),
            5 - o.len()
        );
        let mut g: AnyGame = text.parse().unwrap();
        g.set_throw(Throw::single(throw)).unwrap();
        g
    }

    /// The mover's exact win chance after `mv`, from the table directly.
    fn exact_after(g: &AnyGame, mv: &str) -> f64 {
        let Status::Move(p) = g.status() else {
            panic!("a move is awaited")
        };
        let mut c = *g;
        c.play(g.parse_move(mv).unwrap()).unwrap();
        let first = match c.status() {
            Status::Throw(_) => Tables::global()
                .table(c.rules())
                .unwrap()
                .lookup(&c)
                .unwrap(),
            _ => Tables::global().value(&c).unwrap(),
        };
        for_player(p, first)
    }

    fn assert_invariants(p: &Puzzle) {
        check(p).unwrap_or_else(|e| panic!("{e}: {p:?}"));
        assert!(p.margin >= MARGIN);
        assert!(p.moves.len() >= 2);
        assert_eq!(p.best, p.moves[0].mv);
        assert!(p.moves[1..]
            .iter()
            .all(|m| m.chance <= p.moves[0].chance - MARGIN));
        assert!(p.themes.iter().all(|t| THEMES.contains(&t.as_str())));
        let json = serde_json::to_string(p).unwrap();
        // serde_json may read the last bit of a chance differently: within 1e-15.
        let back: Puzzle = serde_json::from_str(&json).unwrap();
        check(&back).unwrap();
        assert_eq!(
            (&back.position, &back.best, &back.themes),
            (&p.position, &p.best, &p.themes)
        );
        assert!(back
            .moves
            .iter()
            .zip(&p.moves)
            .all(|(a, b)| (a.chance - b.chance).abs() < 1e-15));
    }

    #[test]
    fn the_water_decides_a_kendall5_endgame_exactly() {
        // X on 20 and 26 with a 1: 26-27 drowns (back to 15), 20-21 does not.
        let g = at("kendall5", &[20, 26], &[5, 8], 1, 1);
        let p = judge(&g, "test").expect("a puzzle");
        assert_invariants(&p);
        assert!(p.exact);
        assert_eq!(p.best, "20-21");
        assert_eq!(p.player, 1);
        assert_eq!(p.throw, "1");
        assert_eq!(p.source, "test");
        for m in &p.moves {
            assert!((m.chance - exact_after(&g, &m.mv)).abs() < 1e-12, "{m:?}");
        }
        let drown = p.moves.iter().find(|m| m.mv == "26-15").unwrap();
        assert!(drown.kinds.contains(&"trap".to_string()), "{drown:?}");
        assert!(p.why.as_deref().unwrap().starts_with("R7:"), "{:?}", p.why);
        assert!(!p.themes.contains(&"water".to_string()));
    }

    #[test]
    fn a_bear_off_decision_of_the_second_player_is_valued_for_the_mover() {
        // O (to move) on 26 and 30 with a 1: 30-off against 26-27, into the water.
        let g = at("kendall5", &[11, 29], &[26, 30], 2, 1);
        let p = judge(&g, "test").expect("a puzzle");
        assert_invariants(&p);
        assert!(p.exact);
        assert_eq!(p.player, 2);
        for m in &p.moves {
            assert!((m.chance - exact_after(&g, &m.mv)).abs() < 1e-12, "{m:?}");
        }
        assert_eq!(p.best, "30-off", "{p:?}");
        assert_eq!(p.themes, ["bear-off"]);
        assert!(p.why.as_deref().unwrap().starts_with("R7:"), "{:?}", p.why);
        assert!(p
            .why
            .as_deref()
            .unwrap()
            .ends_with("(26-15 falls into the water)"));
    }

    #[test]
    fn no_puzzle_without_a_choice_or_a_clear_best() {
        // One legal move: no puzzle.
        let g = at("kendall5", &[29], &[5], 1, 2);
        assert_eq!(legal(&g).len(), 1);
        assert!(judge(&g, "t").is_none());
        // A throw pending: no puzzle.
        let fresh = AnyGame::new(RuleSet::Kendall5, &[] as &[&str]).unwrap();
        assert!(judge(&fresh, "t").is_none());
        // Values within the margin of each other: no puzzle.
        let ms = legal(&at("kendall5", &[20, 26], &[5, 8], 1, 1));
        let g = at("kendall5", &[20, 26], &[5, 8], 1, 1);
        let close = [(ms[0], 0.5), (ms[1], 0.5 - MARGIN / 2.0)];
        assert!(from_values(&g, &close, false, "t").is_none());
        let clear = [(ms[0], 0.3), (ms[1], 0.3 + MARGIN)];
        let p = from_values(&g, &clear, false, "t").unwrap();
        assert_eq!(p.best, g.move_string(ms[1]));
    }

    #[test]
    fn a_blockade_holds_back_a_piece_behind_it() {
        let g = at("kendall5", &[12, 13, 14], &[5], 1, 2);
        assert!(blockade(&g, Player::First));
        assert!(!blockade(&g, Player::Second));
        // Nobody behind it: no blockade.
        assert!(!blockade(
            &at("kendall5", &[12, 13, 14], &[20], 1, 2),
            Player::First
        ));
        // kendall's runs break at the corners (K6); kendall5's do not (R5).
        assert!(!blockade(
            &at("kendall", &[9, 10, 11], &[3], 1, 2),
            Player::First
        ));
        assert!(blockade(
            &at("kendall5", &[9, 10, 11], &[3], 1, 2),
            Player::First
        ));
    }

    #[test]
    fn a_blunder_of_a_record_is_a_puzzle_and_the_best_move_is_not() {
        let g = at("kendall5", &[20, 26], &[5, 8], 1, 1);
        let start = g.position().replace("throw=1", "throw=-");
        let start: AnyGame = start.parse().unwrap();
        for (mv, kept) in [("26-15", 1), ("20-21", 0)] {
            let mut rec = Record::new(&start, None);
            rec.push_throw(Throw::single(1));
            rec.push_move(mv.to_string());
            let got = from_record(&rec, "game:7");
            assert_eq!(got.len(), kept, "{mv}");
            if let Some(p) = got.first() {
                assert_eq!(p.best, "20-21");
                assert_eq!(p.source, "game:7");
            }
        }
    }

    #[test]
    fn generation_is_deterministic_and_gives_checked_distinct_puzzles() {
        let a = generate(RuleSet::Kendall5, 3, 4);
        assert_eq!(a.len(), 4);
        let positions: HashSet<_> = a.iter().map(|p| p.position.clone()).collect();
        assert_eq!(positions.len(), a.len());
        assert!(a.iter().any(|p| p.source == "table"));
        assert!(a.iter().any(|p| p.source.starts_with("self-play:")));
        for p in &a {
            assert_invariants(p);
        }
        assert_eq!(generate(RuleSet::Kendall5, 3, 4), a);
    }
}

/// The generation times of `docs/puzzles.md`:
/// `cargo test --release -p senet-bots --lib puzzle::timing -- --ignored --nocapture`.
#[cfg(test)]
mod timing {
    use super::*;

    #[test]
    #[ignore = "a measurement, run by hand in release"]
    fn fifty_puzzles_per_rule_set() {
        for &r in RuleSet::ALL {
            let t = std::time::Instant::now();
            let _ = Tables::global().table(r);
            let tables = t.elapsed().as_secs_f64();
            let t = std::time::Instant::now();
            let ps = generate(r, 1, 50);
            let n = ps.iter().filter(|p| p.source == "table").count();
            println!(
                "{r}: {} puzzles ({} self-play, {n} table) in {:.1} s (+ {tables:.1} s for the tables)",
                ps.len(),
                ps.len() - n,
                t.elapsed().as_secs_f64()
            );
        }
    }
}
