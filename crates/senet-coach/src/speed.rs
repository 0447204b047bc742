//! How long the levels take per move: the measurement behind [`senet_bots::Level::budget`]
//! (`senet botspeed`). Positions come from seeded self-play of two kinds, so that both the
//! positions of real play and odd ones are covered: `greedy` games and uniformly random
//! games, every real choice (two or more legal moves) sampled. Times are the thread's CPU
//! time, on the calling thread.

use crate::duel::{mix, timed, timer_cost};
use rand::{RngCore, SeedableRng};
use rand_pcg::Pcg64Mcg;
use senet_bots::{Bot, BotSpec};
use senet_rules::Notation;
use senet_rules::{AnyGame, Game, MoveList, Status};

/// Positions awaiting a real choice from seeded self-play: half from `greedy` games, half
/// from uniformly random games, every `every`-th real choice of each game.
pub fn positions(start: &AnyGame, n: usize, seed: u64, every: u64) -> Vec<AnyGame> {
    let mut out = Vec::with_capacity(n);
    let mut greedy = "greedy".parse::<BotSpec>().expect("bot").build();
    let mut ms = MoveList::new();
    let mut game = 0u64;
    let every = every.max(1);
    while out.len() < n {
        game += 1;
        let random = game.is_multiple_of(2);
        let mut rng = Pcg64Mcg::seed_from_u64(mix(seed, game));
        let mut g = *start;
        let mut k = 0u64;
        while let Status::Throw(_) | Status::Move(_) = g.status() {
            if let Status::Throw(_) = g.status() {
                let t = g.throw_dist().sample(rng.next_u32());
                g.set_throw_unchecked(t);
                continue;
            }
            ms.clear();
            g.legal_moves(&mut ms);
            if ms.len() > 1 {
                k += 1;
                if k.is_multiple_of(every) && out.len() < n {
                    out.push(g);
                }
            }
            let m = if ms.len() == 1 {
                ms[0]
            } else if random {
                ms[(rng.next_u32() as usize) % ms.len()]
            } else {
                greedy.choose(&g, k).best
            };
            g.play_unchecked(m);
        }
    }
    out
}

/// The time per move of one bot over a set of positions.
#[derive(Clone, Debug)]
pub struct Speed {
    /// The bot.
    pub bot: String,
    /// Positions timed.
    pub positions: usize,
    /// Median thread CPU milliseconds per move (net of [`timer_cost`], as every time here).
    pub median_ms: f64,
    /// The median as measured, in microseconds: the clock's own cost included (`median_ms`
    /// is this less [`timer_cost`], at least 0).
    pub raw_median_us: f64,
    /// 99th percentile.
    pub p99_ms: f64,
    /// The slowest move.
    pub max_ms: f64,
    /// The position of the slowest move.
    pub slowest: String,
    /// Mean nodes per move.
    pub mean_nodes: f64,
    /// Most nodes of one move.
    pub max_nodes: u64,
}

/// A move's CPU time net of the clock's cost, both in microseconds, in milliseconds (never
/// negative: the cheapest moves cost less than the clock).
pub fn net_ms(cpu_us: f64, clock_us: f64) -> f64 {
    (cpu_us - clock_us).max(0.0) / 1e3
}

/// Times `bot` (play mode, as in games) on every position.
pub fn measure(bot: &mut dyn Bot, positions: &[AnyGame]) -> Speed {
    if let Some(g) = positions.first() {
        bot.choose(g, 0); // warm-up: allocate the cache
    }
    let mut ms: Vec<(f64, usize)> = Vec::with_capacity(positions.len());
    let mut raw: Vec<f64> = Vec::with_capacity(positions.len());
    let (mut nodes, mut max_nodes) = (0u64, 0u64);
    let clock = timer_cost();
    for (i, g) in positions.iter().enumerate() {
        let (c, _, cpu) = timed(|| bot.choose(g, i as u64));
        ms.push((net_ms(cpu, clock), i));
        raw.push(cpu);
        nodes += c.nodes;
        max_nodes = max_nodes.max(c.nodes);
    }
    ms.sort_by(|a, b| a.0.total_cmp(&b.0));
    raw.sort_by(f64::total_cmp);
    let at = |q: f64| {
        if ms.is_empty() {
            0.0
        } else {
            ms[((ms.len() as f64 * q) as usize).min(ms.len() - 1)].0
        }
    };
    let last = ms.last().copied().unwrap_or((0.0, 0));
    Speed {
        bot: bot.name(),
        positions: positions.len(),
        median_ms: at(0.5),
        raw_median_us: raw.get(raw.len() / 2).copied().unwrap_or(0.0),
        p99_ms: at(0.99),
        max_ms: last.0,
        slowest: positions
            .get(last.1)
            .map(|g| g.position())
            .unwrap_or_default(),
        mean_nodes: nodes as f64 / positions.len().max(1) as f64,
        max_nodes,
    }
}

/// The openings, where the boards are full and the searches widest: the start and every
/// position one decision after it, each with every throw (for `pyramid` this includes
/// white's first turn after black's opening die, the slowest position reported).
pub fn openings(start: &AnyGame) -> Vec<AnyGame> {
    let mut out = Vec::new();
    let mut ms = MoveList::new();
    let with_throws = |g: &AnyGame, out: &mut Vec<AnyGame>| {
        for &(t, _) in g.throw_dist().outcomes {
            let mut h = *g;
            h.set_throw_unchecked(t);
            let mut ms = MoveList::new();
            h.legal_moves(&mut ms);
            if ms.len() > 1 {
                out.push(h);
            }
        }
    };
    let mut firsts = vec![*start];
    for &(t, _) in start.throw_dist().outcomes {
        let mut h = *start;
        h.set_throw_unchecked(t);
        ms.clear();
        h.legal_moves(&mut ms);
        for &m in &ms {
            let mut k = h;
            k.play_unchecked(m);
            // Past a dice-off or a single forced move, to the first real position.
            while let Status::Move(_) = k.status() {
                let mut l = MoveList::new();
                k.legal_moves(&mut l);
                k.play_unchecked(l[0]);
            }
            if let Status::Throw(_) = k.status() {
                firsts.push(k);
            }
        }
    }
    firsts.sort_by_key(|g| g.position());
    firsts.dedup();
    for g in &firsts {
        if let Status::Throw(_) = g.status() {
            with_throws(g, &mut out);
        }
    }
    out
}
