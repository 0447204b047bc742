//! The one place the server asks a bot for a move: the bot seats of a game and the hint button
//! go through [`choose`]. Until the `senet-bots` crate lands, every level plays a uniformly
//! random legal move drawn from `seed`, so the rest of the server is real and tested.

use senet_rules::{AnyGame, Game, Move, MoveList, Status};

/// The bot levels a game can be created with, weakest first.
pub fn levels() -> &'static [&'static str] {
    &["beginner", "casual", "strong", "expert"]
}

/// The level the hint button asks.
pub const HINT_LEVEL: &str = "strong";

/// The move `bot` plays in `g` (which must await a move), with its score for that move when
/// the bot scores moves.
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
    let mut ms = MoveList::new();
    g.legal_moves(&mut ms);
    if ms.is_empty() {
        return Err("no legal move".into());
    }
    // SplitMix64 of the seed: a uniform index without a generator object.
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    let i = ((z >> 32) * ms.len() as u64) >> 32;
    Ok((ms[i as usize], None))
}

#[cfg(test)]
mod tests {
    use super::*;
    use senet_rules::{RuleSet, Throw};

    #[test]
    fn chooses_a_legal_move_for_every_level_and_rejects_unknown_levels() {
        let mut g = AnyGame::new(RuleSet::Kendall5, &[] as &[&str]).unwrap();
        g.set_throw(Throw::single(2)).unwrap();
        let mut ms = MoveList::new();
        g.legal_moves(&mut ms);
        for &l in levels() {
            for seed in 0..20 {
                let (m, _) = choose(l, &g, seed).unwrap();
                assert!(ms.contains(&m));
            }
        }
        assert!(choose("grandmaster", &g, 1).unwrap_err().contains("casual"));
        let fresh = AnyGame::new(RuleSet::Kendall5, &[] as &[&str]).unwrap();
        assert!(choose("casual", &fresh, 1).is_err());
    }
}
