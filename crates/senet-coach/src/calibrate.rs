//! The calibration of the analysis's rating bands (issue 19, `docs/analysis.md`): games of
//! each band's bot against itself give positions with a real choice, and every band's bot
//! chooses in each; its win chance lost against the analyser's best move
//! ([`senet_bots::analysis::analyser`]) is what [`senet_bots::analysis::band_rates`] records.
//! `senet analyze --calibrate` runs it.

use crate::duel::{walk, Step};
use senet_bots::analysis::{analyser, best_value, Mark, Options};
use senet_bots::{BotKind, BotSpec, EvalKind, Level};
use senet_rules::{AnyGame, Error, Game};
use serde::Serialize;

/// What the analysis measured of one bot's play ([`calibrate`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Calibration {
    /// The bot (a level, or `random`).
    pub bot: String,
    /// Positions with a real choice the bot was asked about (the same for every bot).
    pub choices: usize,
    /// Win chance lost per real choice.
    pub lost_per_choice: f64,
    /// Half the width of its 95% confidence interval (normal approximation).
    pub margin: f64,
    /// The share of real choices with each mark (inaccuracy, mistake, blunder).
    pub marked: [f64; 3],
    /// The share of real choices that lost anything (more than 0.0005).
    pub wrong: f64,
}

/// The positions of a calibration: decisions with a real choice from `games` games of each
/// band's bot against itself (so that weak and strong play are both represented), at most
/// `per_rule_set` of them, spread evenly over the games.
pub fn calibration_positions(
    start: &AnyGame,
    games: u32,
    seed: u64,
    per_rule_set: usize,
) -> Vec<AnyGame> {
    use rayon::prelude::*;
    let bots = band_bots();
    let jobs: Vec<(usize, u32)> = (0..bots.len())
        .flat_map(|b| (0..games).map(move |i| (b, i)))
        .collect();
    let per_game: Vec<Vec<AnyGame>> = jobs
        .par_iter()
        .map(|&(b, i)| {
            let (mut x, mut y) = (bots[b].build(), bots[b].build());
            let s = crate::duel::mix(seed, (b as u64) << 32 | u64::from(i));
            let game = crate::duel::play_game(start, [x.as_mut(), y.as_mut()], s, s ^ 1, true);
            let mut out = Vec::new();
            let mut ms = senet_rules::MoveList::new();
            walk(start, &game, |g, step| {
                if let Step::Move(_) = step {
                    ms.clear();
                    g.legal_moves(&mut ms);
                    if ms.len() > 1 {
                        out.push(*g);
                    }
                }
            });
            out
        })
        .collect();
    let all: Vec<AnyGame> = per_game.into_iter().flatten().collect();
    let step = (all.len() as f64 / per_rule_set.max(1) as f64).max(1.0);
    (0..per_rule_set.min(all.len()))
        .map(|k| all[(k as f64 * step) as usize])
        .collect()
}

/// The bots of the rating bands, weakest first (named in [`BANDS`](senet_bots::analysis::BANDS)).
pub fn band_bots() -> [BotSpec; 5] {
    let random = BotSpec {
        kind: BotKind::Random,
        eval: EvalKind::Tuned,
        level: None,
        budget: None,
        points: false,
    };
    let level = |l: Level| BotSpec {
        kind: l.spec().0,
        eval: l.spec().1,
        level: Some(l),
        budget: None,
        points: false,
    };
    [
        random,
        level(Level::Beginner),
        level(Level::Casual),
        level(Level::Strong),
        level(Level::Expert),
    ]
}

/// Measures the win chance lost per real choice of every band's bot on the same positions
/// ([`calibration_positions`]): each position is valued once with `opt` (every legal move
/// exact at the depth), then every bot chooses in it and loses the difference to the best
/// move. Positions run in parallel; `progress` is called after each.
pub fn calibrate(
    positions: &[AnyGame],
    opt: &Options,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<Calibration>, Error> {
    use rayon::prelude::*;
    let bots = band_bots();
    // Per position, the loss of each bot.
    let losses: Vec<Result<[f64; 5], Error>> = positions
        .par_iter()
        .enumerate()
        .map_init(
            || (analyser(opt.depth, opt.budget), bots.map(|b| b.build())),
            |(an, players), (i, g)| {
                let c = an.choose_with(g, 0, true);
                let best = best_value(&c);
                let mut out = [0.0; 5];
                for (k, p) in players.iter_mut().enumerate() {
                    let m = p.choose(g, crate::duel::mix(i as u64, k as u64)).best;
                    let v = c
                        .scores
                        .iter()
                        .find(|s| s.0 == m)
                        .map(|s| s.1)
                        .ok_or_else(|| {
                            Error::Record(format!("bot {} played an illegal move", bots[k]))
                        })?;
                    out[k] = (best - v).max(0.0);
                }
                progress();
                Ok(out)
            },
        )
        .collect();
    let losses = losses.into_iter().collect::<Result<Vec<_>, _>>()?;
    let n = losses.len().max(1) as f64;
    Ok(bots
        .iter()
        .enumerate()
        .map(|(k, b)| {
            let xs: Vec<f64> = losses.iter().map(|l| l[k]).collect();
            let mean = xs.iter().sum::<f64>() / n;
            let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
            let share = |f: &dyn Fn(f64) -> bool| xs.iter().filter(|&&x| f(x)).count() as f64 / n;
            Calibration {
                bot: b.to_string(),
                choices: xs.len(),
                lost_per_choice: mean,
                margin: 1.96 * (var / n).sqrt(),
                marked: [
                    share(&|x| Mark::of(x) == Some(Mark::Inaccuracy)),
                    share(&|x| Mark::of(x) == Some(Mark::Mistake)),
                    share(&|x| Mark::of(x) == Some(Mark::Blunder)),
                ],
                wrong: share(&|x| x > 0.0005),
            }
        })
        .collect())
}
