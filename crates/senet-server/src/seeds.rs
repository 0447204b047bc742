//! Server-side throws from a per-game seed, with a hash commitment.
//!
//! At game start the server publishes `commitment(seed)`, the SHA-256 of `senet-seed:SEED`
//! (hex). The `i`-th throw of the game (0-based) is `dist.sample(word(seed, i))`, where
//! `word` is the first four bytes (big-endian) of the SHA-256 of `senet-throw:SEED:I` and
//! `dist.sample(r)` picks the outcome at `(r * total) >> 32` along the cumulative weights of
//! the throw's distribution. When the game ends the seed is revealed, and anyone can check
//! the commitment and every throw with nothing but SHA-256 ([`verify`] does exactly that; the
//! game page does it in JavaScript).

use senet_rules::{AnyGame, Event, Game, Record, Throw};
use sha2::{Digest, Sha256};

/// The published hash of a seed: lowercase hex SHA-256 of `senet-seed:SEED`.
pub fn commitment(seed: u64) -> String {
    hex(&Sha256::digest(format!("senet-seed:{seed}").as_bytes()))
}

/// The 32-bit random word of throw number `i` (0-based) of a game with this seed.
pub fn word(seed: u64, i: u64) -> u32 {
    let d = Sha256::digest(format!("senet-throw:{seed}:{i}").as_bytes());
    u32::from_be_bytes([d[0], d[1], d[2], d[3]])
}

/// Throw number `i` for a game awaiting a throw.
pub fn draw(g: &AnyGame, seed: u64, i: u64) -> Throw {
    g.throw_dist().sample(word(seed, i))
}

/// Lowercase hex SHA-256 of a secret (seat tokens are stored only as this).
pub fn digest(secret: &str) -> String {
    hex(&Sha256::digest(secret.as_bytes()))
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Checks a finished game's record against the hash published at its start: the record's
/// seed must hash to `published`, and every throw must be the one the seed gives.
pub fn verify(record: &Record, published: &str) -> Result<(), String> {
    let seed = record
        .seed
        .ok_or("the record holds no seed (it is revealed when the game ends)")?;
    if commitment(seed) != published.to_ascii_lowercase() {
        return Err(format!(
            "the seed {seed} hashes to {}, not to the published {published}",
            commitment(seed)
        ));
    }
    let mut g = record.start_position().map_err(|e| e.to_string())?;
    let mut i = 0u64;
    for (n, e) in record.events.iter().enumerate() {
        match e {
            Event::Throw { throw } => {
                let want = draw(&g, seed, i);
                let got = Throw::parse(throw).map_err(|e| e.to_string())?;
                if got != want {
                    return Err(format!(
                        "event {}: throw {i} is {got}, but the seed gives {want}",
                        n + 1
                    ));
                }
                g.set_throw(got).map_err(|e| e.to_string())?;
                i += 1;
            }
            Event::Move { mv } => {
                if record.legacy_pass_at(&g, n) {
                    // C7: a lost die's pass in a game stored before the ruling, counted as the
                    // decision it was.
                    senet_rules::play_legacy_pass(&mut g);
                    continue;
                }
                let m = g.parse_move(mv).map_err(|e| e.to_string())?;
                g.play_unchecked(m);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commitment_and_words_are_fixed_functions_of_the_seed() {
        // Fixed vectors: the JavaScript verifier in the page must agree with these.
        assert_eq!(
            commitment(42),
            hex(&Sha256::digest(b"senet-seed:42")),
            "commitment is the hash of the documented string"
        );
        assert_eq!(commitment(42).len(), 64);
        assert_ne!(commitment(42), commitment(43));
        assert_eq!(word(7, 0), word(7, 0));
        assert_ne!(word(7, 0), word(7, 1));
        assert_eq!(digest("abc").len(), 64);
        assert_eq!(
            digest("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
