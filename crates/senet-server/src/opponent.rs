//! The one place the server asks a bot for a move: the bot seats of a game and the hint button
//! go through [`choose`], which plays the levels of the `senet-bots` crate.

use senet_bots::{BotSpec, Level};
use senet_rules::{AnyGame, Game, Move, Status};
use std::sync::OnceLock;

/// The bot levels a game can be created with, weakest first.
pub fn levels() -> &'static [&'static str] {
    static LEVELS: OnceLock<Vec<&'static str>> = OnceLock::new();
    LEVELS.get_or_init(|| Level::ALL.iter().map(|l| l.id()).collect())
}

/// The level the hint button asks.
pub const HINT_LEVEL: &str = "expert";

/// The move the bot of level `bot` plays in `g` (which must await a move), with the bot's
/// estimate of the mover's chance to win after it, when the bot estimates one.
/// Deterministic for a position, throw and seed.
pub fn choose(bot: &str, g: &AnyGame, seed: u64) -> Result<(Move, Option<f64>), String> {
    if !levels().contains(&bot) {
        return Err(format!(
            "unknown bot level {bot:?}; the levels are: {}",
            levels().join(", ")
        ));
    }
    if !matches!(g.status(), Status::Move(_)) {
        return Err("the bot can only choose when a move is awaited".into());
    }
    let spec: BotSpec = bot.parse()?;
    let c = spec.build().choose(g, seed);
    let score = (c.score_kind == "win_chance")
        .then(|| c.scores.iter().find(|(m, _)| *m == c.best).map(|s| s.1))
        .flatten();
    Ok((c.best, score))
}

/// A hint: the move, its win chance, and every legal move with its win chance, best first.
pub type Hint = (Move, f64, Vec<(Move, f64)>);

/// The hint: the hint level's move, its win chance for the mover, and every legal move with
/// the mover's win chance after it (best first), each exact at the depth the level's budget
/// reaches. Deterministic for a position, throw and seed.
pub fn hint(g: &AnyGame, seed: u64) -> Result<Hint, String> {
    if !matches!(g.status(), Status::Move(_)) {
        return Err("a hint needs a position awaiting a move".into());
    }
    let spec: BotSpec = HINT_LEVEL.parse()?;
    let c = spec.build().choose_with(g, seed, true);
    let mut all = c.scores.clone();
    all.sort_by(|a, b| b.1.total_cmp(&a.1));
    let best = all.iter().find(|x| x.0 == c.best).map_or(0.0, |x| x.1);
    Ok((c.best, best, all))
}

#[cfg(test)]
mod tests {
    use super::*;
    use senet_rules::{MoveList, RuleSet, Throw};

    #[test]
    fn chooses_a_legal_move_for_every_level_and_rejects_unknown_levels() {
        let mut g = AnyGame::new(RuleSet::Kendall5, &[] as &[&str]).unwrap();
        g.set_throw(Throw::single(2)).unwrap();
        let mut ms = MoveList::new();
        g.legal_moves(&mut ms);
        assert_eq!(levels(), ["beginner", "casual", "strong", "expert"]);
        for &l in levels() {
            for seed in 0..3 {
                let (m, score) = choose(l, &g, seed).unwrap();
                assert!(ms.contains(&m));
                assert!(score.is_none_or(|s| (0.0..=1.0).contains(&s)));
                assert_eq!(choose(l, &g, seed).unwrap().0, m, "deterministic");
            }
        }
        assert!(
            choose(HINT_LEVEL, &g, 1).unwrap().1.is_some(),
            "the hint bot scores"
        );
        assert!(choose("grandmaster", &g, 1).unwrap_err().contains("casual"));
        let fresh = AnyGame::new(RuleSet::Kendall5, &[] as &[&str]).unwrap();
        assert!(choose("casual", &fresh, 1).is_err());
    }
}
