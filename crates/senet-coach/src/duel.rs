//! Duplicate matches: pairs of games that share one throw sequence with the seats swapped,
//! played in parallel (rayon), with A's win rate and its 95% confidence interval.
//!
//! In a pair, game 1 seats A first and B second, game 2 the other way round, and both draw
//! their throws from the same seeded stream (the k-th throw of either game comes from the same
//! random number), so a run of lucky throws helps each bot once. The confidence interval is
//! computed over pairs (each pair's mean score is one sample), which is what makes duplicate
//! pairs need fewer games than independent ones.
//!
//! A decision with a single legal move (forced, or a forfeit) is played without asking the
//! bot, and is not timed: the timings are of real choices only. Each choice is timed twice:
//! wall time, and the CPU time of the thread that ran it (what one core spends on it, which
//! other programs on a busy machine hardly disturb).

use rand::{RngCore, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;
use senet_bots::{Bot, BotSpec};
use senet_rules::Notation;
use senet_rules::{AnyGame, Game, Move, MoveList, Player, Record, Status, Throw};
use std::time::Instant;

/// What to play.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The start position (a rule set with its options).
    pub start: AnyGame,
    /// Bot A.
    pub a: BotSpec,
    /// Bot B.
    pub b: BotSpec,
    /// Number of duplicate pairs (two games each).
    pub pairs: u32,
    /// Seed of the throw sequences and of the bots' own randomness.
    pub seed: u64,
    /// Worker threads (0: one per core).
    pub threads: usize,
}

/// One game of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Whether A was the first player.
    pub a_first: bool,
    /// The winner's seat, `None` for a draw.
    pub winner: Option<Player>,
    /// Whether the turn cap ended the game.
    pub capped: bool,
    /// Points of the first and second player, for rule sets that score (P11, S12, Y9).
    pub score: Option<[u32; 2]>,
    /// Decisions played (forfeits included).
    pub decisions: u32,
    /// Every throw, in order.
    pub throws: Vec<Throw>,
    /// Every move, in order (forced ones and forfeits included), so that the game can be
    /// replayed and measured (`senet lab`).
    pub moves: Vec<Move>,
    /// Wall-clock microseconds of each timed choice of A and of B.
    pub micros: [Vec<f64>; 2],
    /// Thread CPU microseconds of each timed choice of A and of B.
    pub cpu_micros: [Vec<f64>; 2],
    /// The first player's luck over the game ([`first_player_luck`]), where the match takes
    /// the luck out ([`run_match_with_luck`]).
    pub first_luck: Option<f64>,
    /// The part of `first_luck` from the throws that decide who starts, before the first
    /// decision (parker's dice-off, P3; 0 in the other rule sets): `senet lab` measures the
    /// side that moves first from its first throw on ([`first_player_luck_parts`]).
    pub opening_luck: Option<f64>,
}

impl GameRecord {
    /// Series points of A and B in this game ([`senet_rules::series::game_points`]: the rule
    /// set's score, else 1 for a win; nothing at the turn cap).
    pub fn series_points(&self) -> [u32; 2] {
        let p = senet_rules::series::game_points(&senet_rules::Outcome {
            winner: self.winner,
            capped: self.capped,
            score: self.score,
        });
        if self.a_first {
            p
        } else {
            [p[1], p[0]]
        }
    }

    /// A's points less A's luck, where the game's luck was measured: an estimate of A's
    /// points with the same mean and less variance ([`run_match_with_luck`]).
    pub fn a_points_luck_adjusted(&self) -> Option<f64> {
        let luck = self.first_luck?;
        Some(self.a_points() - if self.a_first { luck } else { -luck })
    }

    /// A's points: 1 for a win, 1/2 for a draw.
    pub fn a_points(&self) -> f64 {
        match self.winner {
            None => 0.5,
            Some(w) => {
                if (w == Player::First) == self.a_first {
                    1.0
                } else {
                    0.0
                }
            }
        }
    }
}

/// The result of a match.
#[derive(Clone, Debug)]
pub struct MatchResult {
    /// Bot A's name.
    pub a: String,
    /// Bot B's name.
    pub b: String,
    /// The rule set.
    pub rules: String,
    /// The pairs, two games each (A first, then B first).
    pub pairs: Vec<[GameRecord; 2]>,
    /// A's wins.
    pub a_wins: u32,
    /// B's wins.
    pub b_wins: u32,
    /// Draws (turn cap).
    pub draws: u32,
    /// A's score rate: (wins + draws / 2) / games.
    pub a_rate: f64,
    /// 95% confidence interval of `a_rate`, over pair means (normal approximation).
    pub ci95: (f64, f64),
    /// Mean decisions per game.
    pub avg_length: f64,
    /// Median wall-clock microseconds per timed choice of A and of B.
    pub median_micros: [f64; 2],
    /// Median thread CPU microseconds per timed choice of A and of B.
    pub median_cpu_micros: [f64; 2],
    /// Number of timed choices of A and of B.
    pub timed_moves: [usize; 2],
    /// Wins of the first player (either bot), to show the seat advantage.
    pub first_player_wins: u32,
    /// A's score with the throws' luck taken out, where the match measured it.
    pub luck: Option<LuckAdjusted>,
}

/// A match's score with every throw's luck taken out (`senet match --luck JUDGE`).
///
/// Each game's result less the sum of its throws' luck, as `JUDGE` values them
/// ([`senet_bots::analysis::first_player_luck`]), has the result's mean whatever the judge:
/// each throw's luck averages zero over the throws that could have been made. What the luck
/// removes is variance, the more so the better the judge values positions, so the interval
/// narrows for the same games (gnubg's variance reduction of rollouts and bot matches).
#[derive(Clone, Debug)]
pub struct LuckAdjusted {
    /// The bot that valued the throws.
    pub judge: String,
    /// A's mean luck-adjusted points per game (not bounded to 0-1 in a single game).
    pub a_rate: f64,
    /// Its 95% interval over pair means (normal approximation).
    pub ci95: (f64, f64),
    /// A's mean luck per game (win chance); about 0 in duplicate pairs, whose throws are
    /// the same for both bots.
    pub a_luck: f64,
}

impl MatchResult {
    /// Whether A is better than B at 95% (the interval lies above 1/2).
    pub fn a_significantly_better(&self) -> bool {
        self.ci95.0 > 0.5
    }
}

/// The SplitMix64 finalizer of `a ^ b * GAMMA`, to derive independent seeds (without
/// [`senet_rules::seed::mix`]'s increment, so that match seeds stay as they were).
pub fn mix(a: u64, b: u64) -> u64 {
    use senet_rules::seed::{finalize, GAMMA};
    finalize(a ^ b.wrapping_mul(GAMMA))
}

/// Runs `f`, returning its result with the wall-clock and thread CPU microseconds taken.
pub fn timed<T>(f: impl FnOnce() -> T) -> (T, f64, f64) {
    let c0 = cpu_time::ThreadTime::try_now().ok();
    let t0 = Instant::now();
    let r = f();
    let wall = t0.elapsed().as_secs_f64() * 1e6;
    let cpu = c0.map_or(wall, |c| c.elapsed().as_secs_f64() * 1e6);
    (r, wall, cpu)
}

/// The CPU time of an empty [`timed`] interval, in microseconds: the median of 1,001, found
/// once. Reading a thread's CPU clock is a system call (about 0.65 µs on the development
/// machine), so an interval measures its own start and stop too; `senet botspeed`
/// subtracts this from each move it times, and says so.
pub fn timer_cost() -> f64 {
    static COST: std::sync::OnceLock<f64> = std::sync::OnceLock::new();
    *COST.get_or_init(|| {
        let mut v: Vec<f64> = (0..1001)
            .map(|_| timed(|| std::hint::black_box(0)).2)
            .collect();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    })
}

/// Plays one game: `bots[0]` is the first player, `bots[1]` the second. Throws come from a
/// stream seeded with `throw_seed`; the bots' seed for a decision is derived from
/// `bot_seed` and the decision number. `a_first` only labels the record.
pub fn play_game(
    start: &AnyGame,
    bots: [&mut dyn Bot; 2],
    throw_seed: u64,
    bot_seed: u64,
    a_first: bool,
) -> GameRecord {
    let mut rng = Pcg64Mcg::seed_from_u64(throw_seed);
    let mut g = *start;
    let mut throws = Vec::new();
    let mut moves = Vec::new();
    let mut micros = [Vec::new(), Vec::new()];
    let mut cpu_micros = [Vec::new(), Vec::new()];
    let mut ms = MoveList::new();
    loop {
        match g.status() {
            Status::Throw(_) => {
                let t = g.throw_dist().sample(rng.next_u32());
                g.set_throw_unchecked(t);
                throws.push(t);
            }
            Status::Move(p) => {
                ms.clear();
                g.legal_moves(&mut ms);
                let m = if ms.len() == 1 {
                    ms[0]
                } else {
                    let seed = mix(bot_seed, g.decisions() as u64);
                    let (c, wall, cpu) = timed(|| bots[p.index()].choose(&g, seed));
                    // Record times by bot (A = 0), not by seat.
                    let who = if (p == Player::First) == a_first {
                        0
                    } else {
                        1
                    };
                    micros[who].push(wall);
                    cpu_micros[who].push(cpu);
                    assert!(ms.contains(&c.best), "bot played an illegal move");
                    c.best
                };
                g.play_unchecked(m);
                moves.push(m);
            }
            Status::Over(o) => {
                return GameRecord {
                    a_first,
                    winner: o.winner,
                    capped: o.capped,
                    score: o.score,
                    decisions: g.decisions(),
                    throws,
                    moves,
                    micros,
                    cpu_micros,
                    first_luck: None,
                    opening_luck: None,
                }
            }
        }
    }
}

/// Plays duplicate pair `i` of a match with the given bots.
pub fn play_pair(cfg: &MatchConfig, i: u32, a: &mut dyn Bot, b: &mut dyn Bot) -> [GameRecord; 2] {
    let throw_seed = mix(cfg.seed, 2 * i as u64 + 1);
    let bot_seed = mix(cfg.seed, 2 * i as u64 + 2);
    let g1 = play_game(&cfg.start, [&mut *a, &mut *b], throw_seed, bot_seed, true);
    let g2 = play_game(&cfg.start, [&mut *b, &mut *a], throw_seed, bot_seed, false);
    [g1, g2]
}

/// The median of some numbers (0 for none).
pub fn median(xs: &mut [f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

/// Plays a match. `progress` is called once per finished pair (from worker threads).
/// The games and scores depend only on the configuration, never on the number of threads.
pub fn run_match(cfg: &MatchConfig, progress: &(dyn Fn() + Sync)) -> Result<MatchResult, String> {
    run_match_with_luck(cfg, None, progress)
}

/// [`run_match`], and with a `judge` also each game's luck as the judge values the throws
/// ([`first_player_luck`]) and A's score with it taken out ([`MatchResult::luck`]). The games
/// are the same with or without a judge; the judge must be a bot that values moves by win
/// chance (a search bot).
pub fn run_match_with_luck(
    cfg: &MatchConfig,
    judge: Option<&BotSpec>,
    progress: &(dyn Fn() + Sync),
) -> Result<MatchResult, String> {
    if let Some(j) = judge {
        check_judge(&cfg.start, j)?;
    }
    let pairs = in_parallel(cfg, judge, progress, |a, b, judge, i| {
        let mut games = play_pair(cfg, i, a, b);
        if let Some(j) = judge {
            for g in &mut games {
                let (opening, play) = first_player_luck_parts(&cfg.start, g, j);
                g.first_luck = Some(opening + play);
                g.opening_luck = Some(opening);
            }
        }
        games
    })?;
    Ok(summarize(cfg, judge, pairs))
}

/// Refuses a luck judge whose scores are not win chances.
fn check_judge(start: &AnyGame, judge: &BotSpec) -> Result<(), String> {
    let mut g = *start;
    if matches!(g.status(), Status::Throw(_)) {
        let t = g.throw_dist().outcomes[0].0;
        g.set_throw_unchecked(t);
    }
    if !matches!(g.status(), Status::Move(_)) {
        return Ok(());
    }
    let kind = judge.build().choose(&g, 0).score_kind;
    if kind == "win_chance" {
        Ok(())
    } else {
        Err(format!(
            "the luck judge {judge} scores moves as {kind}; it must value them by win chance \
             (a search bot, such as expectimax:1)"
        ))
    }
}

/// The first player's luck over a played game: the sum over its throws of
/// [`senet_bots::analysis::first_player_luck`] with `judge`.
pub fn first_player_luck(start: &AnyGame, game: &GameRecord, judge: &mut dyn Bot) -> f64 {
    let (opening, play) = first_player_luck_parts(start, game, judge);
    opening + play
}

/// [`first_player_luck`] in two parts: the luck of the throws that decide who starts (a
/// throw before the game's first decision after which the game awaits another throw:
/// parker's dice-off, P3), and that of every other throw. Each part averages zero over the
/// throws, so the result less the second part estimates the first mover's share once it is
/// known who moves first.
pub fn first_player_luck_parts(
    start: &AnyGame,
    game: &GameRecord,
    judge: &mut dyn Bot,
) -> (f64, f64) {
    let (mut opening, mut play) = (0.0, 0.0);
    walk(start, game, |g, step| {
        if let Step::Throw(t) = step {
            let luck = senet_bots::analysis::first_player_luck(judge, g, t);
            let mut after = *g;
            after.set_throw_unchecked(t);
            if g.decisions() == 0 && matches!(after.status(), Status::Throw(_)) {
                opening += luck;
            } else {
                play += luck;
            }
        }
    });
    (opening, play)
}

/// Plays `cfg.pairs` pairs on `cfg.threads` worker threads, each with its own two bots (and
/// luck judge, if given), after checking the configuration; `progress` is called after each
/// pair. The pairs come back in order, so results never depend on the number of threads.
fn in_parallel<T: Send>(
    cfg: &MatchConfig,
    judge: Option<&BotSpec>,
    progress: &(dyn Fn() + Sync),
    pair: impl Fn(&mut dyn Bot, &mut dyn Bot, Option<&mut dyn Bot>, u32) -> T + Sync,
) -> Result<Vec<T>, String> {
    if cfg.pairs == 0 {
        return Err("a match needs at least one pair".into());
    }
    if matches!(cfg.start.status(), Status::Over(_)) {
        return Err("a match cannot start from a finished game".into());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads)
        .build()
        .map_err(|e| format!("cannot start the worker threads: {e}"))?;
    Ok(pool.install(|| {
        (0..cfg.pairs)
            .into_par_iter()
            .map_init(
                || (cfg.a.build(), cfg.b.build(), judge.map(|j| j.build())),
                |(a, b, j), i| {
                    let j: Option<&mut dyn Bot> = match j {
                        Some(j) => Some(j.as_mut()),
                        None => None,
                    };
                    let r = pair(a.as_mut(), b.as_mut(), j, i);
                    progress();
                    r
                },
            )
            .collect()
    }))
}

/// The statistics of a match from its games (with the luck judge's name, if the games'
/// luck was measured).
pub fn summarize(
    cfg: &MatchConfig,
    judge: Option<&BotSpec>,
    pairs: Vec<[GameRecord; 2]>,
) -> MatchResult {
    let (mut a_wins, mut b_wins, mut draws, mut first) = (0, 0, 0, 0);
    let mut len = 0.0;
    let mut means = Vec::with_capacity(pairs.len());
    let mut times: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    let mut cpu: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    for pair in &pairs {
        let mut s = 0.0;
        for g in pair {
            let pts = g.a_points();
            s += pts;
            if g.winner.is_none() {
                draws += 1;
            } else if pts == 1.0 {
                a_wins += 1;
            } else {
                b_wins += 1;
            }
            if g.winner == Some(Player::First) {
                first += 1;
            }
            len += g.decisions as f64;
            times[0].extend_from_slice(&g.micros[0]);
            times[1].extend_from_slice(&g.micros[1]);
            cpu[0].extend_from_slice(&g.cpu_micros[0]);
            cpu[1].extend_from_slice(&g.cpu_micros[1]);
        }
        means.push(s / 2.0);
    }
    let n = means.len() as f64;
    let mean = means.iter().sum::<f64>() / n;
    let var = if means.len() > 1 {
        means.iter().map(|m| (m - mean) * (m - mean)).sum::<f64>() / (n - 1.0)
    } else {
        0.25
    };
    let half = 1.96 * (var / n).sqrt();
    let timed_moves = [times[0].len(), times[1].len()];
    let median_micros = [median(&mut times[0]), median(&mut times[1])];
    let median_cpu_micros = [median(&mut cpu[0]), median(&mut cpu[1])];
    MatchResult {
        a: cfg.a.to_string(),
        b: cfg.b.to_string(),
        rules: cfg.start.rules().id().to_string(),
        a_wins,
        b_wins,
        draws,
        a_rate: mean,
        ci95: ((mean - half).max(0.0), (mean + half).min(1.0)),
        avg_length: len / (2.0 * n),
        median_micros,
        median_cpu_micros,
        timed_moves,
        first_player_wins: first,
        luck: judge.and_then(|j| luck_adjusted(j, &pairs)),
        pairs,
    }
}

/// A's luck-adjusted score over the pairs, if every game's luck was measured.
fn luck_adjusted(judge: &BotSpec, pairs: &[[GameRecord; 2]]) -> Option<LuckAdjusted> {
    let mut means = Vec::with_capacity(pairs.len());
    let mut luck = 0.0;
    for pair in pairs {
        let mut s = 0.0;
        for g in pair {
            s += g.a_points_luck_adjusted()?;
            luck += g.a_points() - g.a_points_luck_adjusted()?;
        }
        means.push(s / 2.0);
    }
    let (mean, half) = mean_half(&means);
    Some(LuckAdjusted {
        judge: judge.to_string(),
        a_rate: mean,
        ci95: (mean - half, mean + half),
        a_luck: luck / (2 * pairs.len()).max(1) as f64,
    })
}

/// One series of a series match (issue 13).
#[derive(Clone, Debug, PartialEq)]
pub struct SeriesRecord {
    /// Whether A sat in series seat 1 (which plays first in game 1 with alternating starts).
    pub a_seat1: bool,
    /// The games, in order.
    pub games: Vec<GameRecord>,
    /// Series points of A and B.
    pub points: [u32; 2],
    /// Whether A won the series (`None`: a drawn series).
    pub a_won: Option<bool>,
}

impl SeriesRecord {
    /// A's series score: 1 for a series won, 1/2 for a drawn one.
    pub fn a_score(&self) -> f64 {
        match self.a_won {
            Some(true) => 1.0,
            Some(false) => 0.0,
            None => 0.5,
        }
    }
}

/// Plays one series to `target` with alternating starts: game k of the series seats the bot
/// of series seat 1 first when k is even. Game k draws its throws from a stream seeded by
/// `seed` and k, so the two series of a duplicate pair share the throws of each game.
pub fn play_series(
    start: &AnyGame,
    target: senet_rules::Target,
    a: &mut dyn Bot,
    b: &mut dyn Bot,
    seed: u64,
    a_seat1: bool,
) -> SeriesRecord {
    let mut games = Vec::new();
    let mut points = [0u32; 2];
    loop {
        let k = games.len();
        let st = senet_rules::series::standing(
            target,
            if a_seat1 {
                points
            } else {
                [points[1], points[0]]
            },
            k,
        );
        if st.over {
            let a_won = st.winner.map(|w| (w == 1) == a_seat1);
            return SeriesRecord {
                a_seat1,
                games,
                points,
                a_won,
            };
        }
        // Series seat 1 plays first in even games (counted from 0).
        let a_first = (k % 2 == 0) == a_seat1;
        let throw_seed = mix(seed, 2 * k as u64 + 1);
        let bot_seed = mix(seed, 2 * k as u64 + 2);
        let g = if a_first {
            play_game(start, [&mut *a, &mut *b], throw_seed, bot_seed, true)
        } else {
            play_game(start, [&mut *b, &mut *a], throw_seed, bot_seed, false)
        };
        let p = g.series_points();
        points = [points[0] + p[0], points[1] + p[1]];
        games.push(g);
    }
}

/// The result of a series match.
#[derive(Clone, Debug)]
pub struct SeriesMatchResult {
    /// Bot A's name.
    pub a: String,
    /// Bot B's name.
    pub b: String,
    /// The rule set.
    pub rules: String,
    /// The target of every series.
    pub target: senet_rules::Target,
    /// Whether the rule set scores (points are its points, else games won).
    pub scores: bool,
    /// The duplicate pairs of series (A in seat 1, then B in seat 1).
    pub pairs: Vec<[SeriesRecord; 2]>,
    /// Series won by A, by B, drawn.
    pub series_won: [u32; 3],
    /// A's series score rate, (won + drawn / 2) / series.
    pub a_rate: f64,
    /// Its 95% interval over pair means.
    pub ci95: (f64, f64),
    /// Games played.
    pub games: usize,
    /// Games won by A and by B.
    pub games_won: [u32; 2],
    /// Mean points per game of A and of B.
    pub points_per_game: [f64; 2],
    /// Mean points per series of A and of B.
    pub points_per_series: [f64; 2],
    /// A's points minus B's per game, mean over pairs (each pair's two series pooled) with
    /// its 95% interval.
    pub points_diff: (f64, f64, f64),
}

/// Plays `cfg.pairs` duplicate pairs of series to `target` (A in seat 1, then B in seat 1,
/// the same throws game by game), in parallel.
pub fn run_series_match(
    cfg: &MatchConfig,
    target: senet_rules::Target,
    progress: &(dyn Fn() + Sync),
) -> Result<SeriesMatchResult, String> {
    if cfg.pairs == 0 {
        return Err("a match needs at least one pair".into());
    }
    target.check().map_err(|e| e.message().to_string())?;
    let pairs: Vec<[SeriesRecord; 2]> = in_parallel(cfg, None, progress, |a, b, _, i| {
        let seed = mix(cfg.seed, i as u64 + 0x5e71e5);
        let s1 = play_series(&cfg.start, target, a, b, seed, true);
        let s2 = play_series(&cfg.start, target, a, b, seed, false);
        [s1, s2]
    })?;
    let mut won = [0u32; 3];
    let mut means = Vec::new();
    let mut games = 0;
    let mut games_won = [0u32; 2];
    let mut pts = [0u64; 2];
    let mut diffs = Vec::new();
    for pair in &pairs {
        for s in pair {
            match s.a_won {
                Some(true) => won[0] += 1,
                Some(false) => won[1] += 1,
                None => won[2] += 1,
            }
            games += s.games.len();
            for g in &s.games {
                if g.winner.is_some() {
                    games_won[(g.a_points() < 0.5) as usize] += 1;
                }
            }
            pts[0] += s.points[0] as u64;
            pts[1] += s.points[1] as u64;
        }
        means.push((pair[0].a_score() + pair[1].a_score()) / 2.0);
        let n = (pair[0].games.len() + pair[1].games.len()).max(1) as f64;
        let d: f64 = pair
            .iter()
            .map(|s| s.points[0] as f64 - s.points[1] as f64)
            .sum();
        diffs.push(d / n);
    }
    let (dm, dh) = mean_half(&diffs);
    let n = means.len() as f64;
    let mean = means.iter().sum::<f64>() / n;
    let var = if means.len() > 1 {
        means.iter().map(|m| (m - mean) * (m - mean)).sum::<f64>() / (n - 1.0)
    } else {
        0.25
    };
    let half = 1.96 * (var / n).sqrt();
    let series = 2.0 * n;
    Ok(SeriesMatchResult {
        a: cfg.a.to_string(),
        b: cfg.b.to_string(),
        rules: cfg.start.rules().id().to_string(),
        target,
        scores: senet_rules::series::scores(&cfg.start),
        series_won: won,
        a_rate: mean,
        ci95: ((mean - half).max(0.0), (mean + half).min(1.0)),
        games,
        games_won,
        points_per_game: [
            pts[0] as f64 / games.max(1) as f64,
            pts[1] as f64 / games.max(1) as f64,
        ],
        points_per_series: [pts[0] as f64 / series, pts[1] as f64 / series],
        points_diff: (dm, dm - dh, dm + dh),
        pairs,
    })
}

/// The mean of some samples and the half-width of its 95% interval (normal approximation).
fn mean_half(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return (0.0, 0.0);
    }
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (mean, 0.0);
    }
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
    (mean, 1.96 * (var / n).sqrt())
}

/// A throw or a move of a bot game, as [`walk`] hands them out.
pub(crate) enum Step {
    Throw(Throw),
    Move(Move),
}

/// Replays a bot game from `start`, calling `each` with every position and the throw or move
/// made in it, in order; returns the final position.
pub(crate) fn walk(
    start: &AnyGame,
    game: &GameRecord,
    mut each: impl FnMut(&AnyGame, Step),
) -> AnyGame {
    let mut g = *start;
    let (mut t, mut m) = (game.throws.iter(), game.moves.iter());
    loop {
        match g.status() {
            Status::Throw(_) => match t.next() {
                Some(&x) => {
                    each(&g, Step::Throw(x));
                    g.set_throw_unchecked(x);
                }
                None => break,
            },
            Status::Move(_) => match m.next() {
                Some(&x) => {
                    each(&g, Step::Move(x));
                    g.play_unchecked(x);
                }
                None => break,
            },
            Status::Over(_) => break,
        }
    }
    g
}

/// The record of a bot game played from `start` (throws and moves interleaved as played).
pub fn record_of(start: &AnyGame, game: &GameRecord) -> Record {
    let mut rec = Record::new(start, None);
    let end = walk(start, game, |g, step| match step {
        Step::Throw(t) => rec.push_throw(t),
        Step::Move(m) => rec.push_move(g.move_string(m)),
    });
    rec.finish(&end);
    rec
}
