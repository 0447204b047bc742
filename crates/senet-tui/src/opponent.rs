//! The one place where `senet play` calls a bot: the `senet-bots` crate by name.

use senet_bots::{BotSpec, Level};
use senet_rules::{AnyGame, Game, Move, Status};

/// The levels offered to people, weakest first.
pub fn levels() -> &'static [&'static str] {
    const LEVELS: [&str; 4] = ["beginner", "casual", "strong", "expert"];
    debug_assert!(Level::ALL.iter().map(|l| l.id()).eq(LEVELS));
    &LEVELS
}

/// The level whose values the hint key shows.
pub const HINT_BOT: &str = "expert";

/// Checks a bot name (a level, or a bot like `greedy`, `expectimax:2`, `mcts:1000`),
/// explaining what would be right.
pub fn check(bot: &str) -> Result<(), String> {
    bot.parse::<BotSpec>().map(|_| ())
}

/// The bot's move for a position awaiting one, and its estimate of the mover's win chance
/// when it makes one (search bots do; `random` does not). Deterministic for a given bot,
/// position and seed.
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

/// The hint bot's values of every legal move of a position awaiting one: its move, and every
/// legal move (in generator order) with the mover's win chance after it. Searched within the
/// level's budget, every value exact at the depth reached. Deterministic.
pub fn hint(g: &AnyGame, seed: u64) -> Result<crate::session::Hint, String> {
    let spec: BotSpec = HINT_BOT.parse()?;
    if !matches!(g.status(), Status::Move(_)) {
        return Err("no move is awaited".into());
    }
    let c = spec.build().choose_with(g, seed, true);
    Ok(crate::session::Hint {
        best: c.best,
        moves: c.scores,
    })
}

/// What a bot name stands for: a level names its bot (`strong` is `expectimax:1`).
pub fn describe(bot: &str) -> String {
    match bot.parse::<BotSpec>() {
        Ok(spec) => match spec.level {
            Some(_) => {
                let plain = BotSpec {
                    level: None,
                    ..spec
                };
                format!("a bot level: {plain}")
            }
            None => format!("the bot {spec}"),
        },
        Err(e) => e,
    }
}
