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

    /// The exact value of `g` (awaiting a throw) if this evaluator knows it, e.g. from an
    /// endgame table ([`crate::exact::WithTables`]); the search then stops there instead of
    /// expanding the chance node. By default none.
    #[inline]
    fn exact(&self, g: &G) -> Option<f64> {
        let _ = g;
        None
    }

    /// The value of a finished game from the first player's perspective, in `[0, 1]`: by
    /// default its win value ([`terminal_value`]); [`Points`] blends in the game's points.
    #[inline]
    fn terminal(&self, o: &Outcome) -> f64 {
        terminal_value(o)
    }
}

/// An evaluator for series play where the rule set scores (issue 13; the `+points` bots):
/// the value of a position is a blend of the first player's win chance and its expected
/// share of the game's points, `(1 - w) * win + w * share`, where `share` is
/// `1/2 + (points of the first - points of the second) / (2 * max)` and `max` the most one
/// game can give (parker 130, P11; senat with `score` 5, S12; pyramid 27, Y9). At a finished
/// game the points are the outcome's; elsewhere they are estimated cheaply: each side's
/// points if it won now (parker: its saved pegs, 25 for the Pharaoh, 10 a man, doubled when
/// all five are left; senat: the opposing pieces on the board; pyramid: the borne-off
/// points so far), weighted by the inner evaluator's win chance. Values stay in `[0, 1]`, so
/// the search's pruning bounds hold.
pub struct Points<'a, E: ?Sized> {
    /// The evaluator of the win chance.
    pub inner: &'a E,
    /// The weight of the points share, `w`.
    pub weight: f64,
    /// The most points one game can give.
    pub max: f64,
}

/// `e` as a trait object for games like `_g` (the wrappers [`Points`] and
/// [`crate::exact::WithTables`] take one, so that the search is compiled once per wrapper
/// and rule set rather than once per evaluator too).
pub fn dynamic<'a, G: Game, E: Evaluator<G>>(_g: &G, e: &'a E) -> &'a dyn Evaluator<G> {
    e
}

/// The weight of the points share in the `+points` bots.
pub const POINTS_WEIGHT: f64 = 0.5;

/// The most points one game of this rule set and options can give, if it scores
/// ([`Metrics::max_points`](senet_rules::Metrics::max_points)).
pub fn max_points<G: Game>(g: &G) -> Option<f64> {
    g.max_points().map(f64::from)
}

/// Each side's points if it won now ([`Metrics::points_if_won`](senet_rules::Metrics::points_if_won); see [`Points`]); where games do
/// not score, the opposing pieces on the board.
fn points_if_won<G: Game>(g: &G) -> [f64; 2] {
    match g.points_if_won() {
        Some(p) => p.map(f64::from),
        None => {
            let c = g.census();
            [c[1].board as f64, c[0].board as f64]
        }
    }
}

impl<G: Game, E: Evaluator<G> + ?Sized> Evaluator<G> for Points<'_, E> {
    fn eval(&self, g: &G) -> f64 {
        let v = self.inner.eval(g);
        let [a, b] = points_if_won(g);
        let share = if g.both_keep_points() {
            // Both sides keep what they scored, winner or not (pyramid, Y9).
            0.5 + (a - b) / (2.0 * self.max)
        } else {
            0.5 + (v * a - (1.0 - v) * b) / (2.0 * self.max)
        };
        ((1.0 - self.weight) * v + self.weight * share.clamp(0.0, 1.0)).clamp(1e-9, 1.0 - 1e-9)
    }

    fn name(&self) -> &'static str {
        "points"
    }

    fn terminal(&self, o: &Outcome) -> f64 {
        let p = senet_rules::series::game_points(o);
        let share = 0.5 + (p[0] as f64 - p[1] as f64) / (2.0 * self.max);
        (1.0 - self.weight) * terminal_value(o) + self.weight * share.clamp(0.0, 1.0)
    }
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
/// [`Metrics::census`](senet_rules::Metrics::census). It knows nothing of the board, so it is weak, but it makes progress and
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
