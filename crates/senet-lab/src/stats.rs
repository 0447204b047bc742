//! Per-game measurements, taken by replaying a game record with the rules library.

use senet_rules::Metrics;
use senet_rules::{
    AnyGame, Effect, Effects, Error, Event, Game, Move, Player, Record, Status, Throw,
};
use serde::Serialize;

/// What happened in one game.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct GameStats {
    /// 1 or 2, or `None` for a draw.
    pub winner: Option<u8>,
    /// The player (1 or 2) who made the game's first decision: the first player. Usually 1;
    /// in `parker` a dice-off decides it (P3).
    pub first_mover: u8,
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
    /// How often the leader by [`Metrics::progress`] changed.
    pub lead_changes: u32,
    /// Final scores, for rule sets that score.
    pub score: Option<[u32; 2]>,
}

/// Replays a record and measures it.
pub fn measure(record: &Record) -> Result<GameStats, Error> {
    let start = record.start_position()?;
    let mut throws = Vec::new();
    let mut moves = Vec::new();
    // Move strings only parse in their position, so walk the game once to read them.
    let mut g = start;
    for (i, e) in record.events.iter().enumerate() {
        match e {
            Event::Throw { throw } => {
                let t = Throw::parse(throw)?;
                g.set_throw(t)?;
                throws.push(t);
            }
            Event::Move { mv } => {
                if record.legacy_pass_at(&g, i) {
                    // C7: a lost die's pass in a record written before the ruling, counted as
                    // the decision it was.
                    senet_rules::play_legacy_pass(&mut g);
                    continue;
                }
                let m = g
                    .parse_move(mv)
                    .map_err(|err| Error::Record(format!("event {}: {err}", i + 1)))?;
                g.play_unchecked(m);
                moves.push(m);
            }
        }
    }
    measure_play(&start, &throws, &moves)
}

/// Measures a game given as its start, its throws and its moves in order (how the match
/// machinery keeps games). Throws are taken whenever the game awaits one, moves whenever it
/// awaits a move.
pub fn measure_play(start: &AnyGame, throws: &[Throw], moves: &[Move]) -> Result<GameStats, Error> {
    let mut g = *start;
    let mut s = GameStats::default();
    let mut last_mover: Option<Player> = None;
    let mut leader: i8 = 0;
    let (mut ti, mut mi) = (0, 0);
    loop {
        match g.status() {
            Status::Throw(_) => {
                let t = *throws.get(ti).ok_or_else(|| {
                    Error::Record(format!("the game needs a throw after {ti} throws"))
                })?;
                g.set_throw(t)?;
                ti += 1;
            }
            Status::Move(p) => {
                let m = *moves.get(mi).ok_or_else(|| {
                    Error::Record(format!("the game needs a move after {mi} moves"))
                })?;
                let fx = g.play(m)?;
                mi += 1;
                if s.decisions == 0 {
                    s.first_mover = p.index() as u8 + 1;
                }
                s.decisions += 1;
                if Some(p) != last_mover {
                    s.turns += 1;
                    last_mover = Some(p);
                }
                count(&mut s, fx);
                let pr = g.progress();
                let now = (pr[0] as i64 - pr[1] as i64).signum() as i8;
                if now != 0 {
                    if leader != 0 && now != leader {
                        s.lead_changes += 1;
                    }
                    leader = now;
                }
            }
            Status::Over(o) => {
                if ti != throws.len() || mi != moves.len() {
                    return Err(Error::Record(
                        "the game ended before its last throw or move".into(),
                    ));
                }
                s.winner = o.winner.map(|p| p.index() as u8 + 1);
                s.capped = o.capped;
                s.score = o.score;
                return Ok(s);
            }
        }
    }
}

fn count(s: &mut GameStats, fx: Effects) {
    let add = |flag: Effect, n: &mut u32| {
        if fx.has(flag) {
            *n += 1
        }
    };
    add(Effect::CAPTURE, &mut s.captures);
    add(Effect::SWAP, &mut s.swaps);
    add(Effect::SENT_BACK, &mut s.sent_back);
    add(Effect::BACKWARD, &mut s.backward);
    add(Effect::FORFEIT, &mut s.forfeits);
    add(Effect::BONUS, &mut s.bonus);
    add(Effect::TRAP, &mut s.traps);
}
