//! The conformance suite every rule set runs through (see `tests/conformance.rs`), and a
//! seeded position corpus for tests and benchmarks. Generic over [`Game`], so a new rule set
//! gets every check for free.
//!
//! Checks, on random games from many seeds:
//! - throw distributions: positive weights, no repeated outcome, weights sum to the total
//!   (probabilities sum to 1);
//! - a position awaiting a move has at least one legal move, with no duplicates; every legal
//!   move is accepted by `play` and by its own move string; move strings that name no legal
//!   move are rejected with an explanation;
//! - a position awaiting a throw (or a finished one) has no legal move and refuses moves;
//!   finished games refuse throws and moves;
//! - pieces are conserved (board + off + captured is constant, off and captured never drop);
//!   the rule set's own invariants hold (e.g. no two pieces on one square);
//! - `turn_continues` tells the truth about who decides next;
//! - every position round-trips through the notation;
//! - every game ends, by a win or by the turn cap, within the cap.

use crate::game::Notation;
use crate::game::{Census, Game, Move, MoveList, Status};
use crate::{AnyGame, Error};

/// A small, fast, seedable generator (SplitMix64) so the rules crate needs no `rand`.
#[derive(Clone, Debug)]
pub struct SplitMix(pub u64);

impl SplitMix {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// A uniform index below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u32() as u64 * n as u64) >> 32) as usize
    }
}

/// The known result every speed measurement checks before timing: the total number of
/// decisions of 100 uniformly random games, game `i` drawn from `SplitMix(i)` for i in 1..=100.
/// A change here is a change of the rules; `tests/conformance.rs` checks it.
pub const PLAYOUT_CHECK: &[(&str, u64)] = &[
    ("kendall", 19845),
    ("kendall5", 17711),
    ("pyramid", 6989), // 7060 before ruling C7 dropped the lost die's `pass`
    ("senat", 19031),
    ("houses", 19761),
    ("parker", 8797), // 8847 before ruling C8 refused one-die plays beside a winning move
];

/// Plays the 100 games of [`PLAYOUT_CHECK`] and returns their total decisions.
pub fn playout_check<G: Game>(start: &G) -> u64 {
    (1..=100u64)
        .map(|i| {
            let mut g = *start;
            let mut rng = SplitMix(i);
            crate::random_playout(&mut g, || rng.next_u32()) as u64
        })
        .sum()
}

/// Up to `limit` positions from seeded random games (every `stride`-th decision), for
/// regression files and benchmarks: awaiting a throw if `before_throw`, else awaiting a move.
pub fn corpus<G: Game>(start: &G, stride: usize, limit: usize, before_throw: bool) -> Vec<G> {
    let mut out = Vec::new();
    let mut rng = SplitMix(0x5E7E7);
    let mut ms = MoveList::new();
    let mut k = 0usize;
    while out.len() < limit {
        let mut g = *start;
        loop {
            match g.status() {
                Status::Throw(_) => {
                    if before_throw && (k + 1).is_multiple_of(stride) && out.len() < limit {
                        out.push(g);
                    }
                    let t = g.throw_dist().sample(rng.next_u32());
                    g.set_throw_unchecked(t);
                }
                Status::Move(_) => {
                    k += 1;
                    if !before_throw && k.is_multiple_of(stride) && out.len() < limit {
                        out.push(g);
                    }
                    ms.clear();
                    g.legal_moves(&mut ms);
                    g.play_unchecked(ms[rng.below(ms.len())]);
                }
                Status::Over(_) => break,
            }
        }
    }
    out
}

/// Runs every check on `games` random games from `start`, seeds `seed..seed+games`.
/// Returns the number of decisions checked, or the first failure with the position.
pub fn check_games<G: Game + Into<AnyGame>>(
    start: &G,
    seed: u64,
    games: u64,
) -> Result<u64, String> {
    let mut decisions = 0;
    for s in seed..seed + games {
        decisions += check_one_game(start, s)?;
    }
    Ok(decisions)
}

fn fail<G: Game>(g: &G, what: &str) -> String {
    format!("{what}\n  at position: {}", g.position())
}

/// Every legal/illegal-move string a rule set might be asked about: the legal move strings
/// and plausible near-misses.
fn probe_strings<G: Game>(g: &G, legal: &MoveList) -> Vec<String> {
    let mut v: Vec<String> = legal.iter().map(|&m| g.move_string(m)).collect();
    for m in legal.iter() {
        for d in [1u8, 2] {
            let mut n = *m;
            n.to = n.to.wrapping_add(d);
            v.push(g.move_string(n));
            let mut n = *m;
            n.from = n.from.wrapping_add(d);
            v.push(g.move_string(n));
        }
    }
    v.push("pass".into());
    v.push("1-2".into());
    v.push("garbage".into());
    v
}

fn check_one_game<G: Game + Into<AnyGame>>(start: &G, seed: u64) -> Result<u64, String> {
    let mut rng = SplitMix(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xC0FFEE);
    let mut g = *start;
    let mut ms = MoveList::new();
    let totals = g.census().map(Census::total);
    let mut last = g.census();
    let cap_guard = 10_000_000u32;
    loop {
        // Notation round-trips.
        let p = g.position();
        let back: AnyGame = p
            .parse()
            .map_err(|e: Error| fail(&g, &format!("position does not parse: {e}")))?;
        if back != g.into() {
            return Err(fail(
                &g,
                &format!(
                    "position does not round-trip: reparsed as {}",
                    back.position()
                ),
            ));
        }
        g.check_invariants()
            .map_err(|e| fail(&g, &format!("invariant broken: {e}")))?;
        // The options stay those of the start.
        if g.options() != start.options() {
            return Err(fail(&g, "the options changed during the game"));
        }
        let c = g.census();
        for i in 0..2 {
            if c[i].total() != totals[i] {
                return Err(fail(
                    &g,
                    &format!(
                        "player {} has {} pieces, expected {}",
                        i + 1,
                        c[i].total(),
                        totals[i]
                    ),
                ));
            }
            if c[i].off < last[i].off || c[i].captured < last[i].captured {
                return Err(fail(
                    &g,
                    "a piece came back from off the board or from capture",
                ));
            }
        }
        last = c;
        ms.clear();
        g.legal_moves(&mut ms);
        match g.status() {
            Status::Throw(_) => {
                if !ms.is_empty() {
                    return Err(fail(&g, "legal moves while a throw is pending"));
                }
                if g.clone().play(Move::PASS).is_ok() {
                    return Err(fail(&g, "a move was accepted while a throw is pending"));
                }
                let d = g.throw_dist();
                let sum: u64 = d.outcomes.iter().map(|(_, w)| *w as u64).sum();
                if sum != d.total as u64 || d.outcomes.iter().any(|(_, w)| *w == 0) {
                    return Err(fail(&g, "throw weights do not sum to the total"));
                }
                for (i, (t, _)) in d.outcomes.iter().enumerate() {
                    if d.outcomes[..i].iter().any(|(u, _)| u == t) {
                        return Err(fail(&g, &format!("throw {t} listed twice")));
                    }
                }
                let t = d.sample(rng.next_u32());
                g.set_throw(t)
                    .map_err(|e| fail(&g, &format!("sampled throw {t} refused: {e}")))?;
            }
            Status::Move(p) => {
                if ms.is_empty() {
                    return Err(fail(
                        &g,
                        "no legal move (a forfeit must be offered as pass)",
                    ));
                }
                for (i, m) in ms.iter().enumerate() {
                    if ms[..i].contains(m) {
                        return Err(fail(
                            &g,
                            &format!("move {} listed twice", g.move_string(*m)),
                        ));
                    }
                    if m.is_pass() && ms.len() > 1 {
                        return Err(fail(&g, "pass offered beside other moves"));
                    }
                    let text = g.move_string(*m);
                    match g.parse_move(&text) {
                        Ok(x) if x == *m => {}
                        other => {
                            return Err(fail(
                                &g,
                                &format!("move string {text} parses as {other:?}"),
                            ))
                        }
                    }
                    let mut h = g;
                    h.play(*m)
                        .map_err(|e| fail(&g, &format!("legal move {text} refused: {e}")))?;
                }
                for text in probe_strings(&g, &ms) {
                    let listed = ms
                        .iter()
                        .any(|&m| g.move_string(m).eq_ignore_ascii_case(&text));
                    match g.parse_move(&text) {
                        Ok(_) if !listed => {
                            return Err(fail(&g, &format!("unlisted move {text} accepted")))
                        }
                        Err(Error::Move(why)) if !listed && why.trim().is_empty() => {
                            return Err(fail(
                                &g,
                                &format!("illegal move {text} refused without a reason"),
                            ))
                        }
                        Err(e) if listed => {
                            return Err(fail(&g, &format!("listed move {text} refused: {e}")))
                        }
                        _ => {}
                    }
                }
                let m = ms[rng.below(ms.len())];
                let e = g.play(m).map_err(|e| fail(&g, &e.to_string()))?;
                match g.status().player() {
                    Some(q) if (q == p) != e.turn_continues => {
                        return Err(fail(
                            &g,
                            &format!(
                                "turn_continues is {} but player {q} decides next",
                                e.turn_continues
                            ),
                        ));
                    }
                    None if e.turn_continues => {
                        return Err(fail(&g, "turn_continues after the game ended"))
                    }
                    _ => {}
                }
            }
            Status::Over(o) => {
                if !ms.is_empty() {
                    return Err(fail(&g, "legal moves in a finished game"));
                }
                if g.clone().play(Move::PASS) != Err(Error::GameOver) {
                    return Err(fail(
                        &g,
                        "a finished game did not refuse a move with GameOver",
                    ));
                }
                let t = g.throw_dist().outcomes.first().map(|(t, _)| *t);
                if let Some(t) = t {
                    if g.clone().set_throw(t) != Err(Error::GameOver) {
                        return Err(fail(
                            &g,
                            "a finished game did not refuse a throw with GameOver",
                        ));
                    }
                }
                if o.winner.is_none() && !o.capped {
                    // Draws by equal score are allowed only where the rule set scores.
                    if o.score.is_none() {
                        return Err(fail(
                            &g,
                            "a draw without the cap in a rule set that does not score",
                        ));
                    }
                }
                return Ok(g.decisions() as u64);
            }
        }
        if g.decisions() > cap_guard {
            return Err(fail(&g, "the game did not end"));
        }
    }
}
