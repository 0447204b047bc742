//! Bots against people: the one adapter that `senet play` (the terminal) and `senet serve`
//! (the web game) call bots through. The levels offered, a bot's move with its estimate of
//! the mover's win chance, and the hint with every legal move's win chance.

use crate::{BotSpec, Level};
use senet_rules::{AnyGame, Game, Move, RuleSet, Status};
use std::sync::OnceLock;

/// The levels offered to people, weakest first (the ids of [`Level::ALL`]).
pub fn levels() -> &'static [&'static str] {
    static LEVELS: OnceLock<Vec<&'static str>> = OnceLock::new();
    LEVELS.get_or_init(|| Level::ALL.iter().map(|l| l.id()).collect())
}

/// The level whose values the hint shows.
pub const HINT_LEVEL: &str = "expert";

/// Checks a bot name (a level, or a bot like `greedy`, `expectimax:2`, `mcts:1000`),
/// explaining what would be right.
pub fn check(bot: &str) -> Result<(), String> {
    bot.parse::<BotSpec>().map(|_| ())
}

/// Checks that `level` is one of [`levels`], naming them when it is not.
pub fn check_level(level: &str) -> Result<(), String> {
    if levels().contains(&level) {
        Ok(())
    } else {
        Err(format!(
            "unknown bot level {level:?}; the levels are: {}",
            levels().join(", ")
        ))
    }
}

/// The move the bot `bot` (any bot name) plays in `g`, which must await a move, with the bot's
/// estimate of the mover's chance to win after it when it makes one (search bots do; `random`
/// does not). Deterministic for a bot, position, throw and seed.
pub fn choose(bot: &str, g: &AnyGame, seed: u64) -> Result<(Move, Option<f64>), String> {
    let spec: BotSpec = bot.parse()?;
    if !matches!(g.status(), Status::Move(_)) {
        return Err("no move is awaited".into());
    }
    let c = spec.build().choose(g, seed);
    let estimate = (c.score_kind == "win_chance")
        .then(|| c.scores.iter().find(|(m, _)| *m == c.best).map(|s| s.1))
        .flatten();
    Ok((c.best, estimate))
}

/// [`choose`] for a level only (one of [`levels`]): what a stored bot seat may name.
pub fn choose_level(level: &str, g: &AnyGame, seed: u64) -> Result<(Move, Option<f64>), String> {
    check_level(level)?;
    choose(level, g, seed)
}

/// A hint: the hint level's move and every legal move with the mover's win chance after it.
#[derive(Clone, Debug, PartialEq)]
pub struct Hint {
    /// The hint level's move.
    pub best: Move,
    /// Every legal move with its win chance, in generator order.
    pub moves: Vec<(Move, f64)>,
}

impl Hint {
    /// The win chance of a move, if it is legal.
    pub fn chance(&self, m: Move) -> Option<f64> {
        self.moves.iter().find(|x| x.0 == m).map(|x| x.1)
    }

    /// Every legal move with its win chance, best first (ties in generator order).
    pub fn best_first(&self) -> Vec<(Move, f64)> {
        let mut all = self.moves.clone();
        all.sort_by(|a, b| b.1.total_cmp(&a.1));
        all
    }
}

/// The hint of a position awaiting a move: [`HINT_LEVEL`]'s move and every legal move with the
/// mover's win chance after it, each exact at the depth the level's budget reaches.
/// Deterministic for a position, throw and seed.
pub fn hint(g: &AnyGame, seed: u64) -> Result<Hint, String> {
    let spec: BotSpec = HINT_LEVEL.parse()?;
    if !matches!(g.status(), Status::Move(_)) {
        return Err("no move is awaited".into());
    }
    let c = spec.build().choose_with(g, seed, true);
    Ok(Hint {
        best: c.best,
        moves: c.scores,
    })
}

/// What a bot name stands for on `rules`: a level names the bot it plays there (`strong` is
/// an `expectimax:2` bot within its node budget, on `kendall` `greedy@tuned`:
/// [`Level::spec_for`]).
pub fn describe(bot: &str, rules: RuleSet) -> String {
    match bot.parse::<BotSpec>() {
        Ok(spec) => match spec.level {
            Some(l) => {
                let (kind, eval) = l.spec_for(rules);
                let plain = BotSpec {
                    kind,
                    eval,
                    level: None,
                    budget: l.budget(rules),
                    points: spec.points,
                };
                format!("a bot level: {plain}")
            }
            None => format!("the bot {spec}"),
        },
        Err(e) => e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use senet_rules::{MoveList, Throw};

    #[test]
    fn chooses_a_legal_move_for_every_level_and_rejects_unknown_levels() {
        let mut g = AnyGame::new(RuleSet::Kendall5, &[] as &[&str]).unwrap();
        g.set_throw(Throw::single(2)).unwrap();
        let mut ms = MoveList::new();
        g.legal_moves(&mut ms);
        assert_eq!(levels(), ["beginner", "casual", "strong", "expert"]);
        for &l in levels() {
            for seed in 0..3 {
                let (m, score) = choose_level(l, &g, seed).unwrap();
                assert!(ms.contains(&m));
                assert!(score.is_none_or(|s| (0.0..=1.0).contains(&s)));
                assert_eq!(choose(l, &g, seed).unwrap().0, m, "deterministic");
            }
        }
        assert!(
            choose(HINT_LEVEL, &g, 1).unwrap().1.is_some(),
            "the hint bot scores"
        );
        assert!(choose("random", &g, 1).unwrap().1.is_none());
        assert!(choose_level("grandmaster", &g, 1)
            .unwrap_err()
            .contains("casual"));
        assert!(choose_level("greedy", &g, 1).is_err(), "levels only");
        assert!(choose("greedy", &g, 1).is_ok(), "any bot");
        let fresh = AnyGame::new(RuleSet::Kendall5, &[] as &[&str]).unwrap();
        assert!(choose("casual", &fresh, 1).is_err());
        assert!(hint(&fresh, 1).is_err());
    }

    #[test]
    fn the_hint_values_every_legal_move_and_sorts_them_best_first() {
        let mut g = AnyGame::new(RuleSet::Kendall5, &[] as &[&str]).unwrap();
        g.set_throw(Throw::single(2)).unwrap();
        let h = hint(&g, 3).unwrap();
        let mut ms = MoveList::new();
        g.legal_moves(&mut ms);
        assert!(h.moves.iter().map(|x| x.0).eq(ms.iter().copied()));
        let sorted = h.best_first();
        assert!(sorted.windows(2).all(|w| w[0].1 >= w[1].1));
        assert_eq!(h.chance(h.best), Some(sorted[0].1));
        assert_eq!(hint(&g, 3).unwrap(), h, "deterministic");
        for (bot, rules, what) in [
            ("strong", RuleSet::Senat, "a bot level: expectimax:2:20000"),
            ("strong", RuleSet::Kendall, "a bot level: greedy@tuned"),
            (
                "strong",
                RuleSet::Parker,
                "a bot level: expectimax:2:10000@hand",
            ),
            ("beginner", RuleSet::Pyramid, "a bot level: sloppy:5"),
            ("greedy", RuleSet::Kendall, "the bot greedy"),
        ] {
            assert_eq!(describe(bot, rules), what, "{bot} on {rules}");
        }
    }
}
