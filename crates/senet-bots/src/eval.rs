//! Static evaluation: the estimated chance that the **first** player wins a position that
//! awaits a throw.
//!
//! Every value in this crate is from that one fixed perspective (a draw counts 1/2), so a
//! chance node is an exact weighted mean of its children and a bonus throw (the same player
//! again) needs no sign flip. Evaluations lie strictly between 0 and 1; finished games are 0,
//! 1/2 or 1 (see [`terminal_value`]), which gives the search the bounds `[0, 1]` that Star1
//! and Star2 pruning need.
//!
//! An evaluator is a value implementing [`Evaluator<G>`] for a concrete rule-set type `G`.
//! [`Census`] works for any [`Game`] (pieces off and captured), so a newly merged rule set is
//! playable by every bot at once; a rule set with a tuned evaluator is listed in
//! [`dispatch!`](crate::dispatch), one line each.

use senet_rules::{Game, Outcome, Player, Status};

/// A static evaluation of positions of the rule-set type `G`.
pub trait Evaluator<G: Game>: Send + Sync {
    /// The estimated chance that the first player wins `g`, strictly between 0 and 1.
    ///
    /// `g` awaits a throw ([`Status::Throw`]); the player about to throw is
    /// `g.status().player()` (never assume players alternate: bonus throws keep the turn).
    fn eval(&self, g: &G) -> f64;

    /// A short name for reports.
    fn name(&self) -> &'static str;
}

/// The value of a finished game from the first player's perspective: 1 if the first player
/// won, 0 if the second did, 1/2 for a draw.
#[inline]
pub fn terminal_value(o: &Outcome) -> f64 {
    match o.winner {
        Some(Player::First) => 1.0,
        Some(Player::Second) => 0.0,
        None => 0.5,
    }
}

/// The logistic function, mapping a score difference to a chance.
#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The generic fallback for any rule set: pieces borne off and pieces captured, from
/// [`Game::census`]. It knows nothing of the board, so it is weak, but it makes progress and
/// values captures, and it needs no code per rule set.
#[derive(Copy, Clone, Debug, Default)]
pub struct Census;

impl<G: Game> Evaluator<G> for Census {
    fn eval(&self, g: &G) -> f64 {
        let [a, b] = g.census();
        let total = a.total().max(b.total()).max(1) as f64;
        // Progress: pieces off; material: pieces still in the game (not captured).
        let off = (a.off as f64 - b.off as f64) / total;
        let alive = (b.captured as f64 - a.captured as f64) / total;
        let tempo = match g.status() {
            Status::Throw(Player::First) | Status::Move(Player::First) => 0.05,
            Status::Throw(Player::Second) | Status::Move(Player::Second) => -0.05,
            Status::Over(_) => 0.0,
        };
        sigmoid(2.5 * off + 2.5 * alive + tempo)
    }

    fn name(&self) -> &'static str {
        "census"
    }
}
