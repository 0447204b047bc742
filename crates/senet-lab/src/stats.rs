//! Per-game measurements, taken by replaying a game record with the rules library.

use senet_rules::{AnyGame, Effects, Error, Event, Game, Player, Record, Status, Throw};
use serde::Serialize;

/// What happened in one game.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct GameStats {
    /// 1 or 2, or `None` for a draw.
    pub winner: Option<u8>,
    /// The turn cap ended the game (C5).
    pub capped: bool,
    /// Decisions, forfeits included.
    pub decisions: u32,
    /// Turns: maximal runs of decisions by one player.
    pub turns: u32,
    /// Pieces removed from the game.
    pub captures: u32,
    /// Exchanges of two pieces.
    pub swaps: u32,
    /// Pieces sent back toward the start (not by a swap).
    pub sent_back: u32,
    /// Backward moves.
    pub backward: u32,
    /// Throws forfeited for want of a legal move.
    pub forfeits: u32,
    /// Bonus throws earned.
    pub bonus: u32,
    /// Pieces that fell into the water.
    pub traps: u32,
    /// How often the leader by [`Game::progress`] changed.
    pub lead_changes: u32,
    /// Final scores, for rule sets that score.
    pub score: Option<[u32; 2]>,
}

/// Replays a record and measures it.
pub fn measure(record: &Record) -> Result<GameStats, Error> {
    let mut g: AnyGame = record.start_position()?;
    let mut s = GameStats::default();
    let mut last_mover: Option<Player> = None;
    let mut leader: i8 = 0;
    for (i, e) in record.events.iter().enumerate() {
        match e {
            Event::Throw { throw } => g.set_throw(Throw::parse(throw)?)?,
            Event::Move { mv } => {
                let mover = g.status().player();
                let m = g
                    .parse_move(mv)
                    .map_err(|err| Error::Record(format!("event {}: {err}", i + 1)))?;
                let fx = g.play_unchecked(m);
                s.decisions += 1;
                if mover != last_mover {
                    s.turns += 1;
                    last_mover = mover;
                }
                count(&mut s, fx);
                let p = g.progress();
                let now = (p[0] as i64 - p[1] as i64).signum() as i8;
                if now != 0 {
                    if leader != 0 && now != leader {
                        s.lead_changes += 1;
                    }
                    leader = now;
                }
            }
        }
    }
    if let Status::Over(o) = g.status() {
        s.winner = o.winner.map(|p| p.index() as u8 + 1);
        s.capped = o.capped;
        s.score = o.score;
    } else {
        return Err(Error::Record("the recorded game is not over".into()));
    }
    Ok(s)
}

fn count(s: &mut GameStats, fx: Effects) {
    let add = |flag: u16, n: &mut u32| {
        if fx.has(flag) {
            *n += 1
        }
    };
    add(Effects::CAPTURE, &mut s.captures);
    add(Effects::SWAP, &mut s.swaps);
    add(Effects::SENT_BACK, &mut s.sent_back);
    add(Effects::BACKWARD, &mut s.backward);
    add(Effects::FORFEIT, &mut s.forfeits);
    add(Effects::BONUS, &mut s.bonus);
    add(Effects::TRAP, &mut s.traps);
}
