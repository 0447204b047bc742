//! The one place where `senet play` calls a bot.
//!
//! Until the `senet-bots` crate lands, every bot name resolves to a uniformly random legal
//! move drawn from the seed, so that the rest of the UI (seats, hints, undo, watching) is real
//! and tested; swapping this module's body for `senet-bots` changes nothing else.

use rand::{RngCore, SeedableRng};
use rand_pcg::Pcg64Mcg;
use senet_rules::{AnyGame, Game, Move, MoveList, Status};

/// The levels offered to people, weakest first.
pub fn levels() -> &'static [&'static str] {
    &["beginner", "casual", "strong", "expert"]
}

/// The level whose choice the hint key shows.
pub const HINT_BOT: &str = "strong";

/// Checks a bot name (a level or a named bot), explaining what would be right.
pub fn check(bot: &str) -> Result<(), String> {
    if levels().contains(&bot) || bot == "random" {
        Ok(())
    } else {
        Err(format!(
            "unknown bot {bot:?}; the bots are the levels {} and the named bot random",
            levels().join(", ")
        ))
    }
}

/// The bot's move for a position awaiting one, and its estimate of the mover's win chance
/// when it has one. Deterministic for a given bot, position and seed.
pub fn choose(bot: &str, g: &AnyGame, seed: u64) -> Result<(Move, Option<f64>), String> {
    check(bot)?;
    if !matches!(g.status(), Status::Move(_)) {
        return Err("no move is awaited".into());
    }
    let mut ms = MoveList::new();
    g.legal_moves(&mut ms);
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let i = ((rng.next_u32() as u64 * ms.len() as u64) >> 32) as usize;
    Ok((ms[i], None))
}
