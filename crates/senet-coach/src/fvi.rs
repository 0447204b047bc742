//! Fitted value iteration over the middle game (issue 55): the main network's positions (a
//! side with more pieces on the board than the endgame networks value, five a side on
//! `kendall5`) are valued by one-throw Bellman backups, `T(V)(x)` = the mean over the throws
//! of the best move's value, whose leaves are exact where a piece has borne off into the
//! tables' levels, the endgame networks' where those value them, and the current main
//! network `V` elsewhere; the network is fitted to `T(V)` and the positions backed up again.
//!
//! The positions are a fixed pool ([`sample`]): those met in self-play of a bot, with a
//! uniformly random move instead of the bot's at a share of the decisions (exploration: the
//! water and the last squares are reached in ways the bot's own play avoids), and at each
//! decision the result of a random other move. A held-out pool of the same kind, never
//! trained on ([`SampleOptions::exclude`]), measures each round by the network's Bellman
//! residual `|V - T(V)|` ([`residual`]): at a fixed point of value iteration it is zero.
//!
//! `senet fvi sample` writes a pool, `senet fvi backup` its targets in the format
//! `scripts/train_endgame.py --main` trains on, `senet fvi residual` the residual of the
//! networks in use (`SENET_NETS`, `SENET_TABLES`); `scripts/fvi_round.sh` runs a round.

use crate::train::{
    board_men, other_result, searched_net, self_play, throw_masks, write_rows, DataFile,
};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use senet_rules::{AnyGame, Game, Move, MoveList, Notation, Player, RuleSet, Status};
use std::collections::HashSet;
use std::path::Path;

/// Where a position of a pool lies: the main network's levels (what fitted value iteration
/// backs up), or the boundary below them, the levels of the four-piece network (at most four
/// pieces a side on the board, more than the endgame network's three), which a search from a
/// main-network root values with the main network ([`senet_bots::weights`]'s `Rooted`): there
/// the target is the four-piece network's value (exact where the tables in use cover it), so
/// that the main network agrees with it where the five-piece game meets the four-piece one.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Level {
    /// The main network values it.
    Main,
    /// The four-piece network values it.
    Boundary,
}

/// The [`Level`] of a position with `men` on the board, `None` below the boundary.
fn level(net: &senet_bots::net::NetEval, men: [u32; 2]) -> Option<Level> {
    if !net.params_for(men).1 {
        return Some(Level::Main);
    }
    let most = men[0].count_ones().max(men[1].count_ones());
    (net.end4_hidden().is_some() && most > senet_bots::net::END_PIECES).then_some(Level::Boundary)
}

/// The first word of a pool file.
pub const HEADER: &str = "senet-middle-pool/1";

/// A pool of middle-game positions awaiting a throw, each one the main network values.
#[derive(Clone, Debug)]
pub struct Pool {
    /// The rule set.
    pub rules: RuleSet,
    /// How the pool was made (the header's rest).
    pub about: String,
    /// The positions.
    pub games: Vec<AnyGame>,
}

/// What [`sample`] plays and keeps.
#[derive(Clone, Debug)]
pub struct SampleOptions {
    /// The bot whose self-play games give the positions.
    pub play: senet_bots::BotSpec,
    /// Self-play games.
    pub games: u64,
    /// Seed of the games' throws, the exploration and the positions kept.
    pub seed: u64,
    /// The chance that a position met is kept.
    pub keep: f64,
    /// The chance that a decision is made by a uniformly random legal move.
    pub explore: f64,
    /// Keep the boundary's positions too ([`Level::Boundary`]), to anchor the main network on
    /// the four-piece network there.
    pub boundary: bool,
    /// Keep each position once (the first time it is met) instead of as often as it is met.
    pub distinct: bool,
    /// Positions never kept, as (side to throw's squares, the other side's): a held-out
    /// pool's or exact set's, so that training never sees them.
    pub exclude: HashSet<(u32, u32)>,
}

impl SampleOptions {
    /// Refuses a share kept or explored outside [0, 1], saying which.
    fn check_shares(&self) -> Result<(), String> {
        for (name, x) in [("kept", self.keep), ("explored", self.explore)] {
            if !(0.0..=1.0).contains(&x) {
                return Err(format!(
                    "the share of positions {name} must lie in [0, 1], got {x}"
                ));
            }
        }
        Ok(())
    }
}

/// The main network's positions met in `opt.games` self-play games (see the module's
/// documentation), in the order met.
pub fn sample(rules: RuleSet, opt: &SampleOptions) -> Result<Vec<AnyGame>, String> {
    use rayon::prelude::*;
    let net = searched_net(rules)?;
    opt.check_shares()?;
    let start = AnyGame::new(rules, &[] as &[&str]).map_err(|e| e.to_string())?;
    let main = |g: &AnyGame| {
        // The draw is made whether or not the position is excluded, so that excluding
        // positions never changes the games (nor which other positions are kept).
        throw_masks(g).filter(|&(a, b)| match level(net, [a, b]) {
            Some(Level::Main) => true,
            Some(Level::Boundary) => opt.boundary,
            None => false,
        })
    };
    let per_game: Vec<Vec<(AnyGame, (u32, u32))>> = (0..opt.games)
        .into_par_iter()
        .map(|i| {
            let seed = crate::duel::mix(opt.seed, i);
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            let mut bot = opt.play.build();
            let mut kept = Vec::new();
            let keep = |g: &AnyGame, rng: &mut Pcg64Mcg, kept: &mut Vec<_>| {
                if let Some(k) = main(g) {
                    if rng.random_bool(opt.keep) && !opt.exclude.contains(&k) {
                        kept.push((*g, k));
                    }
                }
            };
            self_play(&start, &mut rng, |g, turn, rng| {
                let Some((ms, k)) = turn else {
                    keep(g, rng, &mut kept);
                    return None;
                };
                let m = if ms.len() > 1 && rng.random_bool(opt.explore) {
                    ms[rng.random_range(0..ms.len())]
                } else {
                    bot.choose(g, crate::duel::mix(seed, k)).best
                };
                if ms.len() > 1 {
                    keep(&other_result(g, ms, m, rng), rng, &mut kept);
                }
                Some(m)
            });
            kept
        })
        .collect();
    let mut seen = HashSet::new();
    Ok(per_game
        .into_iter()
        .flatten()
        .filter(|&(_, k)| !opt.distinct || seen.insert(k))
        .map(|(g, _)| g)
        .collect())
}

/// λ-returns of self-play games (issue 55): targets that carry the game's end further back
/// than a few throws' backups do. `opt.games` games of `opt.play` are played as [`sample`]
/// plays them (a uniformly random move at a share `opt.explore` of the decisions); every
/// position awaiting a throw, `x_t`, gets the return `G_t = (1 - λ) B(x_{t+1}) + λ G_{t+1}`
/// (each in the first player's terms), where `B` is the one-throw backup of the networks and
/// tables in use ([`backups`]) and the return after the last position is the result. The
/// return stops where it cannot follow the games, after a random move, and where it need not,
/// below the four-piece network's levels (both sides at most three on the board: the
/// endgame network's and the tables' positions): `G_t = B(x_t)` there. The main network's
/// positions, each kept with chance `opt.keep` unless excluded, with their returns (the
/// thrower's), in the order met.
pub fn returns(
    rules: RuleSet,
    opt: &SampleOptions,
    lambda: f64,
) -> Result<Vec<(AnyGame, f64)>, String> {
    use rayon::prelude::*;
    let net = searched_net(rules)?;
    if !(0.0..=1.0).contains(&lambda) {
        return Err(format!("λ must lie in [0, 1], got {lambda}"));
    }
    opt.check_shares()?;
    let start = AnyGame::new(rules, &[] as &[&str]).map_err(|e| e.to_string())?;
    let first = |p: Player, v: f64| if p == Player::First { v } else { 1.0 - v };
    let per_game: Vec<Vec<(AnyGame, f64)>> = (0..opt.games)
        .into_par_iter()
        .map(|i| {
            let seed = crate::duel::mix(opt.seed, i);
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            let mut bot = opt.play.build();
            let mut backup = senet_bots::analysis::trainer(0, None);
            // Each position awaiting a throw, and whether the move made from it was random.
            let mut path: Vec<(AnyGame, bool)> = Vec::new();
            let mut last = start;
            self_play(&start, &mut rng, |g, turn, rng| {
                let Some((ms, k)) = turn else {
                    path.push((*g, false));
                    return None;
                };
                let random = ms.len() > 1 && rng.random_bool(opt.explore);
                let m = if random {
                    ms[rng.random_range(0..ms.len())]
                } else {
                    bot.choose(g, crate::duel::mix(seed, k)).best
                };
                if random {
                    if let Some(p) = path.last_mut() {
                        p.1 = true;
                    }
                }
                last = *g;
                last.play_unchecked(m);
                Some(m)
            });
            let mut ret = match last.status() {
                Status::Over(o) => senet_bots::eval::terminal_value(&o),
                _ => unreachable!("self-play ends with the game"),
            };
            let levels: Vec<Option<Level>> = path
                .iter()
                .map(|(g, _)| level(net, board_men(g).expect("a rule set with tables")))
                .collect();
            let mut next_backup = ret;
            let mut kept = Vec::new();
            for (t, &(g, random)) in path.iter().enumerate().rev() {
                let lv = levels[t];
                // A position below the boundary whose predecessor is too (or that has none)
                // feeds no return: its backup is not needed.
                let b = if lv.is_some() || t > 0 && levels[t - 1].is_some() {
                    first(
                        thrower(&g),
                        senet_bots::analysis::thrower_value(backup.as_mut(), &g),
                    )
                } else {
                    f64::NAN
                };
                ret = if random || lv.is_none() {
                    b
                } else {
                    (1.0 - lambda) * next_backup + lambda * ret
                };
                next_backup = b;
                let excluded = throw_masks(&g).is_some_and(|k| opt.exclude.contains(&k));
                if lv == Some(Level::Main) && rng.random_bool(opt.keep) && !excluded {
                    kept.push((g, first(thrower(&g), ret)));
                }
            }
            kept.reverse();
            kept
        })
        .collect();
    Ok(per_game.into_iter().flatten().collect())
}

/// Writes [`returns`] to `path` in the format `scripts/train_endgame.py --main` trains on.
pub fn export_returns(
    rules: RuleSet,
    opt: &SampleOptions,
    lambda: f64,
    path: &Path,
) -> Result<String, String> {
    let kept = returns(rules, opt, lambda)?;
    let net = searched_net(rules)?;
    let file = DataFile::create(path)?;
    let rows = kept.iter().map(|(g, y)| {
        let men = board_men(g).expect("a rule set with tables");
        (net.inputs(men, thrower(g)), *y as f32)
    });
    let n = file.write(|out| write_rows(net, kept.len(), rows, out))?;
    Ok(format!(
        "{n} positions of {rules} from {} games with their λ-returns (λ {lambda}) written to {} (scripts/train_endgame.py --main trains on it)\n",
        opt.games,
        path.display()
    ))
}

impl Pool {
    /// The pool file: a header line, then one position (notation, `docs/notation.md`) a line.
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "{HEADER} {} N={} {}\n",
            self.rules,
            self.games.len(),
            self.about
        );
        for g in &self.games {
            s.push_str(&g.position());
            s.push('\n');
        }
        s
    }

    /// Reads a pool file, checking every line: the position parses, is of the header's rule
    /// set, awaits a throw and is one the main network values.
    pub fn read(path: &Path) -> Result<Pool, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Pool::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// [`Pool::read`] on a file's text.
    pub fn parse(text: &str) -> Result<Pool, String> {
        let mut lines = text.lines();
        let head = lines.next().unwrap_or("");
        let mut words = head.split_whitespace();
        if words.next() != Some(HEADER) {
            return Err(format!(
                "line 1: not a middle-game pool (it starts with \"{HEADER}\")"
            ));
        }
        let rules: RuleSet = words
            .next()
            .ok_or("line 1: the rule set is missing")?
            .parse()
            .map_err(|e| format!("line 1: {e}"))?;
        let n: usize = words
            .next()
            .and_then(|w| w.strip_prefix("N="))
            .and_then(|w| w.parse().ok())
            .ok_or("line 1: the count N=... is missing")?;
        let about = words.collect::<Vec<_>>().join(" ");
        let net = searched_net(rules)?;
        let mut games = Vec::with_capacity(n);
        for (i, line) in lines.enumerate() {
            let at = format!("line {}", i + 2);
            let g: AnyGame = line.trim().parse().map_err(|e| format!("{at}: {e}"))?;
            if g.rules() != rules {
                return Err(format!(
                    "{at}: the position is of {}, the pool of {rules}",
                    g.rules()
                ));
            }
            let Some((a, b)) = throw_masks(&g) else {
                return Err(format!("{at}: the position does not await a throw"));
            };
            if level(net, [a, b]).is_none() {
                return Err(format!(
                    "{at}: the endgame network values the position, not the main or the four-piece one"
                ));
            }
            games.push(g);
        }
        if games.len() != n {
            return Err(format!(
                "the header says {n} positions, the file has {}",
                games.len()
            ));
        }
        Ok(Pool {
            rules,
            about,
            games,
        })
    }

    /// Every position as (side to throw's squares, the other side's), to exclude from
    /// training data.
    pub fn keys(&self) -> HashSet<(u32, u32)> {
        self.games.iter().filter_map(throw_masks).collect()
    }
}

/// The side to throw of `g` (awaiting a throw).
fn thrower(g: &AnyGame) -> Player {
    g.status().player().unwrap_or(Player::First)
}

/// The main network's value of each position (awaiting a throw): the thrower's win chance,
/// `V(x)`, with the networks in use (`SENET_NETS`).
pub fn values(rules: RuleSet, games: &[AnyGame]) -> Result<Vec<f64>, String> {
    let net = searched_net(rules)?;
    games
        .iter()
        .map(|g| {
            let men = board_men(g).ok_or_else(|| format!("{rules} has no exact tables"))?;
            Ok(net.mover_value(men, thrower(g)))
        })
        .collect()
}

/// The one-throw backup of each position (awaiting a throw), `T(V)(x)`: the thrower's win
/// chance, the mean over the throws of the best move's value, each move valued by the main
/// network trained ([`senet_bots::analysis::trainer`]: the networks in use, exact where the
/// tables in use cover the position; not `kendall5`'s wide network of the `expert` level).
pub fn backups(games: &[AnyGame]) -> Vec<f64> {
    backups_deep(games, 1)
}

/// The `throws`-throw backup of each position, `T^throws(V)(x)` (`throws` at least 1): as
/// [`backups`], each move valued by an expectimax search `throws - 1` throws deep with the
/// network trained and no node budget.
pub fn backups_deep(games: &[AnyGame], throws: u32) -> Vec<f64> {
    use rayon::prelude::*;
    let depth = throws.max(1) - 1;
    games
        .par_chunks(256)
        .flat_map_iter(|chunk| {
            let mut bot = senet_bots::analysis::trainer(depth, None);
            chunk
                .iter()
                .map(|g| senet_bots::analysis::thrower_value(bot.as_mut(), g))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The Bellman residual `|V - T(V)|` of the networks in use on a pool.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Residual {
    /// Positions.
    pub n: usize,
    /// Mean of `|V - T(V)|`.
    pub mean: f64,
    /// Its 99th percentile.
    pub p99: f64,
    /// Its largest.
    pub max: f64,
    /// Mean of `V - T(V)` (positive: the network is more hopeful than its backup).
    pub bias: f64,
    /// Mean backed-up value `T(V)`, the thrower's.
    pub mean_backup: f64,
}

/// The Bellman residual of the networks in use on the main network's positions of `games`
/// (see [`Residual`]).
pub fn residual(rules: RuleSet, games: &[AnyGame]) -> Result<Residual, String> {
    let net = searched_net(rules)?;
    let games: Vec<AnyGame> = games
        .iter()
        .filter(|g| board_men(g).and_then(|m| level(net, m)) == Some(Level::Main))
        .copied()
        .collect();
    if games.is_empty() {
        return Err("the pool has no positions of the main network".into());
    }
    let v = values(rules, &games)?;
    let t = backups(&games);
    let mut d: Vec<f64> = v.iter().zip(&t).map(|(a, b)| (a - b).abs()).collect();
    let n = d.len();
    let mean = d.iter().sum::<f64>() / n as f64;
    let bias = v.iter().zip(&t).map(|(a, b)| a - b).sum::<f64>() / n as f64;
    d.sort_by(f64::total_cmp);
    Ok(Residual {
        n,
        mean,
        p99: d[((n as f64 * 0.99).ceil() as usize).clamp(1, n) - 1],
        max: d[n - 1],
        bias,
        mean_backup: t.iter().sum::<f64>() / n as f64,
    })
}

/// The training targets of a pool's positions ([`export_backups`]): the main network's
/// positions' `throws`-throw backups (`T(V)` with 1), over-relaxed by `relax` (`V + relax (T(V) -
/// V)`, kept within [`RELAXED_MIN`] of 0 and 1; 1: the backups themselves), the boundary's four-piece network's values (those
/// are not backed up at all); and how many were the boundary's.
fn targets(
    net: &senet_bots::net::NetEval,
    games: &[AnyGame],
    throws: u32,
    relax: f64,
) -> (Vec<f64>, u64) {
    // Only the main network's positions are backed up; the boundary's take the four-piece
    // network's values.
    let is_main = |g: &AnyGame| {
        let men = board_men(g).expect("a pool's positions are of a rule set with tables");
        level(net, men) == Some(Level::Main)
    };
    let main: Vec<AnyGame> = games.iter().filter(|g| is_main(g)).copied().collect();
    let mut backed = backups_deep(&main, throws).into_iter();
    let mut boundary = 0u64;
    let t: Vec<f64> = games
        .iter()
        .map(|g| {
            if is_main(g) {
                let t = backed.next().expect("one backup per main position");
                if relax == 1.0 {
                    t
                } else {
                    let v = net.mover_value(board_men(g).expect("checked above"), thrower(g));
                    (v + relax * (t - v)).clamp(RELAXED_MIN, 1.0 - RELAXED_MIN)
                }
            } else {
                boundary += 1;
                let men = board_men(g).expect("a pool's positions are of a rule set with tables");
                net.mover_value(men, thrower(g))
            }
        })
        .collect();
    (t, boundary)
}

/// An over-relaxed target is kept this far from a certain loss or win.
pub const RELAXED_MIN: f64 = 0.0005;

/// Writes the pool's positions with their targets, in the format `scripts/train_endgame.py
/// --main` trains on: the main network's positions with their backups `T(V)`, the boundary's
/// with the four-piece network's values ([`Level`]); returns a line saying what was written.
/// With `throws` above 1 the main network's targets are `T^throws(V)`, searched that many
/// throws deep ([`backups_deep`]). With `relax` other than 1 they are over-relaxed, `V +
/// relax (T^throws(V) - V)`: the iteration's slowest error, a value level that the backups
/// correct only as fast as the exact endgame's values travel back through a long game, shrinks
/// faster (`docs/bots.md`, Against the solved game).
pub fn export_backups(pool: &Pool, path: &Path, throws: u32, relax: f64) -> Result<String, String> {
    if !(relax > 0.0 && relax <= 4.0) {
        return Err(format!(
            "--relax {relax}: give a factor above 0 and at most 4 (1: the backups themselves)"
        ));
    }
    let net = searched_net(pool.rules)?;
    let file = DataFile::create(path)?;
    let (t, boundary) = targets(net, &pool.games, throws, relax);
    let rows = pool.games.iter().zip(&t).map(|(g, &y)| {
        let men = board_men(g).expect("a pool's positions are of a rule set with tables");
        (net.inputs(men, thrower(g)), y as f32)
    });
    let n = file.write(|out| write_rows(net, t.len(), rows, out))?;
    Ok(format!(
        "{n} positions of {} ({} backed up {} deep{}, {boundary} of the four-piece network's levels valued by it) written to {} (scripts/train_endgame.py --main trains on it)\n",
        pool.rules,
        n - boundary,
        if throws > 1 {
            format!("{throws} throws")
        } else {
            "one throw".into()
        },
        if relax == 1.0 {
            String::new()
        } else {
            format!(", over-relaxed by {relax}")
        },
        path.display()
    ))
}

/// The water decisions of a pool (issue 55): each position where the side to throw has a
/// piece on 26 and a throw of 1 gives two or more legal moves, one of them into the water
/// (27: back to 15, and on `kendall5` the 1 throws again), with the choice of three searches
/// with the main network trained (the networks and tables in use): the network's value of
/// each move's result (0 throws deep), one throw deeper (the backup `T(V)` of each result)
/// and `deep` throws deeper; and the Bellman residual at the water's results and at the
/// others'.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct WaterStudy {
    /// Decisions with a water move.
    pub decisions: usize,
    /// The depth of the deepest search (the reference).
    pub deep: u32,
    /// Decisions where the water is the best move at 0, 1 and `deep` throws.
    pub water_best: [usize; 3],
    /// Decisions where the 0- and 1-throw searches choose what the deepest does.
    pub agree_deep: [usize; 2],
    /// Mean over the decisions of what the 0- and 1-throw choices lose by the deepest search's
    /// values (the mover's win chance).
    pub loss: [f64; 2],
    /// Mean margin of the water over the best other move by the deepest search (negative:
    /// the water is worse).
    pub margin: f64,
    /// Mean `V - T(V)` at the water's results (awaiting the mover's throw again) and at the
    /// other moves' results.
    pub bias: [f64; 2],
    /// Mean `|V - T(V)|` at the water's results and the other moves' results.
    pub residual: [f64; 2],
}

/// [`WaterStudy`] of `games` (positions awaiting a throw), the deepest search `deep` throws.
pub fn water(games: &[AnyGame], deep: u32) -> WaterStudy {
    use rayon::prelude::*;
    use senet_rules::{MoveKind, Throw};
    if deep > senet_bots::analysis::MAX_DEPTH {
        return WaterStudy::default();
    }
    struct One {
        water_best: [bool; 3],
        agree: [bool; 2],
        loss: [f64; 2],
        margin: f64,
        d: [(f64, f64, u32); 2],
    }
    let per: Vec<One> = games
        .par_chunks(64)
        .flat_map_iter(|chunk| {
            let mut bots: Vec<Box<dyn senet_bots::Bot>> = [0, 1, deep]
                .iter()
                .map(|&d| senet_bots::analysis::trainer(d, None))
                .collect();
            let mut backup = senet_bots::analysis::trainer(0, None);
            let mut out = Vec::new();
            for g in chunk {
                let mut h = *g;
                if h.set_throw(Throw::single(1)).is_err() {
                    continue;
                }
                let mut ms = MoveList::new();
                h.legal_moves(&mut ms);
                if ms.len() < 2 || !ms.iter().any(|m| m.kind.contains(MoveKind::WATER)) {
                    continue;
                }
                let choices: Vec<senet_bots::Choice> = bots
                    .iter_mut()
                    .map(|b| b.choose_with(&h, 0, true))
                    .collect();
                let score = |c: &senet_bots::Choice, m: Move| {
                    c.scores.iter().find(|s| s.0 == m).map_or(0.0, |s| s.1)
                };
                let is_water = |m: Move| m.kind.contains(MoveKind::WATER);
                let ref_best = choices[2].best;
                let ref_v = score(&choices[2], ref_best);
                let water_v = ms
                    .iter()
                    .filter(|m| is_water(**m))
                    .map(|&m| score(&choices[2], m))
                    .fold(f64::MIN, f64::max);
                let other_v = ms
                    .iter()
                    .filter(|m| !is_water(**m))
                    .map(|&m| score(&choices[2], m))
                    .fold(f64::MIN, f64::max);
                // The residual at each move's result that awaits a throw.
                let mut d = [(0.0, 0.0, 0u32); 2];
                let mover = thrower(g);
                for &m in ms.iter() {
                    let mut c = h;
                    c.play_unchecked(m);
                    if !matches!(c.status(), Status::Throw(_)) {
                        continue;
                    }
                    let Some(men) = board_men(&c) else { continue };
                    let net = searched_net(c.rules()).expect("a rule set with tables");
                    if net.params_for(men).1 {
                        continue;
                    }
                    let p = thrower(&c);
                    let v = net.mover_value(men, p);
                    let t = senet_bots::analysis::thrower_value(backup.as_mut(), &c);
                    // The mover's perspective, whoever throws next.
                    let diff = if p == mover { v - t } else { t - v };
                    let k = usize::from(!is_water(m));
                    d[k].0 += diff;
                    d[k].1 += diff.abs();
                    d[k].2 += 1;
                }
                out.push(One {
                    water_best: std::array::from_fn(|i| is_water(choices[i].best)),
                    agree: std::array::from_fn(|i| choices[i].best == ref_best),
                    loss: std::array::from_fn(|i| ref_v - score(&choices[2], choices[i].best)),
                    margin: water_v - other_v,
                    d,
                });
            }
            out
        })
        .collect();
    let n = per.len();
    let mut s = WaterStudy {
        decisions: n,
        deep,
        ..Default::default()
    };
    if n == 0 {
        return s;
    }
    let mut counts = [0u32; 2];
    for o in &per {
        for i in 0..3 {
            s.water_best[i] += usize::from(o.water_best[i]);
        }
        for (i, count) in counts.iter_mut().enumerate() {
            s.agree_deep[i] += usize::from(o.agree[i]);
            s.loss[i] += o.loss[i] / n as f64;
            s.bias[i] += o.d[i].0;
            s.residual[i] += o.d[i].1;
            *count += o.d[i].2;
        }
        s.margin += o.margin / n as f64;
    }
    for (i, count) in counts.into_iter().enumerate() {
        let c = f64::from(count.max(1));
        s.bias[i] /= c;
        s.residual[i] /= c;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(games: u64, seed: u64, distinct: bool) -> Vec<AnyGame> {
        let opt = SampleOptions {
            play: "greedy".parse().unwrap(),
            games,
            seed,
            keep: 0.5,
            explore: 0.2,
            boundary: false,
            distinct,
            exclude: HashSet::new(),
        };
        sample(RuleSet::Kendall5, &opt).unwrap()
    }

    #[test]
    fn a_pool_holds_only_main_network_positions_and_round_trips() {
        let games = pool(4, 1, true);
        assert!(games.len() > 20, "{}", games.len());
        let p = Pool {
            rules: RuleSet::Kendall5,
            about: "test".into(),
            games,
        };
        let back = Pool::parse(&p.to_text()).unwrap();
        assert_eq!(back.games, p.games);
        assert_eq!(back.about, "test");
        let net = searched_net(RuleSet::Kendall5).unwrap();
        for g in &back.games {
            let (a, b) = throw_masks(g).unwrap();
            assert!(!net.params_for([a, b]).1);
            assert!(a.count_ones() == 5 || b.count_ones() == 5);
        }
        assert_eq!(back.keys().len(), back.games.len(), "distinct positions");
    }

    #[test]
    fn sampling_is_seeded_and_excludes_what_it_is_told() {
        assert_eq!(pool(3, 7, false), pool(3, 7, false));
        assert_ne!(pool(3, 7, false), pool(3, 8, false));
        let first = pool(3, 7, false);
        let opt = SampleOptions {
            play: "greedy".parse().unwrap(),
            games: 3,
            seed: 7,
            keep: 0.5,
            explore: 0.2,
            boundary: false,
            distinct: false,
            exclude: first.iter().filter_map(throw_masks).collect(),
        };
        assert!(sample(RuleSet::Kendall5, &opt).unwrap().is_empty());
    }

    #[test]
    fn a_bad_pool_file_says_what_is_wrong() {
        let g = AnyGame::new(RuleSet::Kendall5, &[] as &[&str]).unwrap();
        let good = format!("{HEADER} kendall5 N=1\n{}\n", g.position());
        assert!(Pool::parse(&good).is_ok());
        let e = Pool::parse("hello\n").unwrap_err();
        assert!(e.contains("not a middle-game pool"), "{e}");
        let e = Pool::parse(&format!("{HEADER} kendall5 N=2\n{}\n", g.position())).unwrap_err();
        assert!(e.contains("says 2"), "{e}");
        let e = Pool::parse(&format!("{HEADER} kendall5 N=1\nnonsense\n")).unwrap_err();
        assert!(e.starts_with("line 2"), "{e}");
        let k = AnyGame::new(RuleSet::Kendall, &[] as &[&str]).unwrap();
        let e = Pool::parse(&format!("{HEADER} kendall5 N=1\n{}\n", k.position())).unwrap_err();
        assert!(e.contains("the pool of kendall5"), "{e}");
    }

    /// A position with a piece on 26 and another move for a 1 is one water decision; one
    /// with no other move, or whose 1 cannot reach the water, is none.
    #[test]
    fn the_water_study_counts_the_water_decisions() {
        let two: AnyGame = "kendall5 XXXX..OOOOO..............X.... off=0,0 turn=1 throw=- dec=0"
            .parse()
            .unwrap();
        let only: AnyGame = "kendall5 XXXXOOOOO................X.... off=0,0 turn=1 throw=- dec=0"
            .parse()
            .unwrap();
        let none: AnyGame = "kendall5 XXXX..OOOOO.............X..... off=0,0 turn=1 throw=- dec=0"
            .parse()
            .unwrap();
        let w = water(&[two, only, none], 1);
        assert_eq!(w.decisions, 1, "{w:?}");
        assert_eq!(w.deep, 1);
        // The 1-throw choice is the reference's: it loses nothing by its values.
        assert_eq!(w.agree_deep[1], 1);
        assert_eq!(w.loss[1], 0.0);
        assert!(w.loss[0] >= 0.0);
        assert!(w.residual[0] > 0.0 && w.residual[1] > 0.0, "{w:?}");
        assert_eq!(water(&[only, none], 1).decisions, 0);
    }

    /// A kendall5 pool of two greedy games with `--boundary`: positions of the main network
    /// and of the four-piece network's levels.
    fn boundary_pool(seed: u64) -> Vec<AnyGame> {
        let opt = SampleOptions {
            play: "greedy".parse().unwrap(),
            games: 2,
            seed,
            keep: 0.5,
            explore: 0.2,
            boundary: true,
            distinct: true,
            exclude: HashSet::new(),
        };
        sample(RuleSet::Kendall5, &opt).unwrap()
    }

    /// With `--boundary`, the four-piece network's positions are trained on its values and
    /// only the main network's are backed up.
    #[test]
    fn only_the_main_networks_positions_are_backed_up() {
        let games = boundary_pool(5);
        let net = searched_net(RuleSet::Kendall5).unwrap();
        let main = |g: &AnyGame| level(net, board_men(g).unwrap()) == Some(Level::Main);
        let n_main = games.iter().filter(|g| main(g)).count();
        assert!(
            n_main > 0 && n_main < games.len(),
            "{n_main} of {}",
            games.len()
        );
        let (t, boundary) = targets(net, &games, 1, 1.0);
        assert_eq!(boundary as usize, games.len() - n_main);
        for (g, &y) in games.iter().zip(&t) {
            let want = if main(g) {
                backups(&[*g])[0]
            } else {
                net.mover_value(board_men(g).unwrap(), thrower(g))
            };
            assert_eq!(y, want);
        }
    }

    /// Over-relaxed targets are `V + relax (T(V) - V)` at the main network's positions, the
    /// four-piece network's values at the boundary's; a factor out of range is refused.
    #[test]
    fn over_relaxed_targets_step_past_the_backups() {
        let games = boundary_pool(6);
        let net = searched_net(RuleSet::Kendall5).unwrap();
        let (plain, _) = targets(net, &games, 1, 1.0);
        let (relaxed, _) = targets(net, &games, 1, 2.0);
        let mut moved = 0;
        for ((g, &t), &y) in games.iter().zip(&plain).zip(&relaxed) {
            let v = net.mover_value(board_men(g).unwrap(), thrower(g));
            if level(net, board_men(g).unwrap()) == Some(Level::Main) {
                assert!((y - (2.0 * t - v)).abs() < 1e-12, "{y} {t} {v}");
                moved += usize::from(y != t);
            } else {
                assert_eq!((y, t), (v, v));
            }
        }
        assert!(moved > 0);
        let pool = Pool {
            rules: RuleSet::Kendall5,
            about: "test".into(),
            games: games.clone(),
        };
        let path = std::env::temp_dir().join(format!("senet-relax-{}.data", std::process::id()));
        for bad in [0.0, -1.0, 4.5, f64::NAN] {
            let e = export_backups(&pool, &path, 1, bad).unwrap_err();
            assert!(e.contains("--relax"), "{e}");
        }
        assert!(!path.exists(), "a refused factor writes nothing");
    }

    /// The backup of `g` computed by hand: the mean over the throws of the best move's
    /// value for the thrower, a move's result valued by `first` (the first player's win
    /// chance) unless the game is over.
    fn by_hand(g: &AnyGame, first: impl Fn(&AnyGame) -> f64) -> f64 {
        let p = thrower(g);
        let dist = g.throw_dist();
        let mut mean = 0.0;
        for &(th, w) in dist.outcomes {
            let mut h = *g;
            h.set_throw_unchecked(th);
            let mut ms = MoveList::new();
            h.legal_moves(&mut ms);
            let best = ms
                .iter()
                .map(|&m| {
                    let mut c = h;
                    c.play_unchecked(m);
                    let f = match c.status() {
                        Status::Over(o) => senet_bots::eval::terminal_value(&o),
                        _ => first(&c),
                    };
                    if p == Player::First {
                        f
                    } else {
                        1.0 - f
                    }
                })
                .fold(f64::MIN, f64::max);
            mean += f64::from(w) / f64::from(dist.total) * best;
        }
        mean
    }

    /// `T^2(V)(x)` is the one-throw backup of the best move's one-throw backup: the mean
    /// over the throws of the best move's `T(V)`, checked here by hand.
    #[test]
    fn a_two_throw_backup_backs_up_the_one_throw_backups() {
        let games = pool(2, 4, true);
        let games = &games[..6];
        assert_eq!(backups_deep(games, 1), backups(games));
        let t2 = backups_deep(games, 2);
        for (g, &want) in games.iter().zip(&t2) {
            let mean = by_hand(g, |c| {
                let v = backups(&[*c])[0];
                if thrower(c) == Player::First {
                    v
                } else {
                    1.0 - v
                }
            });
            assert!((mean - want).abs() < 1e-9, "{mean} vs {want}");
        }
        assert_ne!(t2, backups(games), "two throws see further than one");
    }

    /// λ-returns: with no random move, every position of the main network's levels (a prefix
    /// of a `kendall5` game: pieces borne off never come back) gets `(1 - λ) B(next) + λ G(next)`
    /// in the first player's terms, so at λ 0 the next position's backup, and at λ 1 one value
    /// for the whole game.
    #[test]
    fn a_return_is_the_next_backup_mixed_with_the_next_return_by_lambda() {
        let opt = |seed| SampleOptions {
            play: "greedy".parse().unwrap(),
            games: 1,
            seed,
            keep: 1.0,
            explore: 0.0,
            boundary: false,
            distinct: false,
            exclude: HashSet::new(),
        };
        let first = |g: &AnyGame, v: f64| {
            if thrower(g) == Player::First {
                v
            } else {
                1.0 - v
            }
        };
        for seed in [1, 2] {
            let (g0, g5, g1) = (
                returns(RuleSet::Kendall5, &opt(seed), 0.0).unwrap(),
                returns(RuleSet::Kendall5, &opt(seed), 0.5).unwrap(),
                returns(RuleSet::Kendall5, &opt(seed), 1.0).unwrap(),
            );
            assert!(g0.len() > 20, "{}", g0.len());
            let games: Vec<AnyGame> = g0.iter().map(|(g, _)| *g).collect();
            assert_eq!(games, g5.iter().map(|(g, _)| *g).collect::<Vec<_>>());
            let b: Vec<f64> = backups(&games)
                .iter()
                .zip(&games)
                .map(|(&v, g)| first(g, v))
                .collect();
            let n = games.len();
            for i in 0..n - 1 {
                let (r0, r5) = (first(&games[i], g0[i].1), first(&games[i], g5[i].1));
                assert!(
                    (r0 - b[i + 1]).abs() < 1e-9,
                    "{i}: {r0} against {}",
                    b[i + 1]
                );
                let want = 0.5 * b[i + 1] + 0.5 * first(&games[i + 1], g5[i + 1].1);
                assert!((r5 - want).abs() < 1e-9, "{i}: {r5} against {want}");
            }
            let whole = first(&games[0], g1[0].1);
            assert!((0.0..=1.0).contains(&whole));
            for (g, r) in &g1 {
                assert!((first(g, *r) - whole).abs() < 1e-9);
            }
        }
        // Seeded, and λ outside [0, 1] refused.
        assert_eq!(
            returns(RuleSet::Kendall5, &opt(3), 0.7).unwrap(),
            returns(RuleSet::Kendall5, &opt(3), 0.7).unwrap()
        );
        let e = returns(RuleSet::Kendall5, &opt(3), 1.5).unwrap_err();
        assert!(e.contains("λ must lie in [0, 1], got 1.5"), "{e}");
    }

    /// A random move stops the return: the position it was made from gets its own backup.
    #[test]
    fn a_random_move_stops_the_return() {
        let opt = SampleOptions {
            play: "greedy".parse().unwrap(),
            games: 2,
            seed: 4,
            keep: 1.0,
            explore: 1.0,
            boundary: false,
            distinct: false,
            exclude: HashSet::new(),
        };
        let kept = returns(RuleSet::Kendall5, &opt, 1.0).unwrap();
        let games: Vec<AnyGame> = kept.iter().map(|(g, _)| *g).collect();
        let b = backups(&games);
        // Every decision of two or more moves is random, so most positions are valued by
        // their own backup; the others (a forced move, or none) carry the next return.
        let own = kept
            .iter()
            .zip(&b)
            .filter(|((_, r), &v)| (r - v).abs() < 1e-9)
            .count();
        assert!(own * 2 > kept.len(), "{own} of {}", kept.len());
        assert!(own < kept.len());
    }

    /// The residual is |V - T(V)| with T the one-throw backup: a position's backup is the
    /// mean over the throws of the best move's network value, checked here by hand.
    #[test]
    fn the_backup_is_the_mean_over_throws_of_the_best_move() {
        let games = pool(2, 3, true);
        let t = backups(&games[..10]);
        let net = searched_net(RuleSet::Kendall5).unwrap();
        for (g, &tv) in games.iter().zip(&t) {
            let mean = by_hand(g, |c| net.value(board_men(c).unwrap(), thrower(c)));
            assert!((mean - tv).abs() < 1e-9, "{mean} vs {tv}");
        }
        let r = residual(RuleSet::Kendall5, &games).unwrap();
        assert!(r.mean > 0.0 && r.p99 >= r.mean && r.max >= r.p99, "{r:?}");
    }
}
