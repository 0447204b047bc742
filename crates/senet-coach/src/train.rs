//! Training of the track games' evaluators: TD(λ) self-play training of the linear
//! evaluator's weights (in the manner of Tesauro's TD-Gammon, with a linear-logistic model
//! instead of a network), of the network evaluator ([`train_net`], [`senet_bots::net`]), and
//! supervised training of the endgame network on the exact tables ([`train_endgame`]).
//!
//! Self-play games pick each move greedily with the current weights (a whole turn on
//! two-dice rule sets), with a small chance of a random move to explore. After each throw
//! position the weights move toward the value of the next throw position (or the result),
//! along an eligibility trace. Everything is seeded: the same options give the same weights.
//! The `senet train` command prints the linear weights as Rust source for
//! `crates/senet-bots/src/weights.rs` and the networks as files for
//! `crates/senet-bots/src/nets/`.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use senet_bots::eval::{sigmoid, terminal_value, Evaluator};
use senet_bots::exact::Table;
use senet_bots::fnet::{FeatNet, Features};
use senet_bots::mcts::turn_value;
use senet_bots::net::{forward, params_of, Layout, NetEval, EH, END4_PIECES, END_PIECES, H, NI};
use senet_bots::track::{TrackEval, TrackGame, FEATURES, NF};
use senet_bots::weights::track_net;
use senet_rules::{Game, Move, MoveList, Player, Status};

/// Options of a training run.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    /// Self-play games.
    pub games: u32,
    /// Learning rate at the start (it decays linearly to a tenth).
    pub alpha: f64,
    /// Trace decay.
    pub lambda: f64,
    /// Chance of a uniformly random move.
    pub epsilon: f64,
    /// Seed of the throws and the exploration.
    pub seed: u64,
    /// Exact tables: with them a self-play game of the network trainers (`td_train`) ends
    /// at the first position they cover, whose exact value is the last target (issue 18's
    /// "targets at the edge of the tables"; the endgame network values what lies inside).
    pub tables: Option<std::sync::Arc<senet_bots::exact::Tables>>,
    /// Hidden units of a fresh track network (one of `senet_bots::net::MAIN_SIZES`; a
    /// resumed network keeps its own).
    pub hidden: usize,
}

impl Default for TrainOptions {
    fn default() -> TrainOptions {
        TrainOptions {
            games: 100_000,
            alpha: 0.02,
            lambda: 0.7,
            epsilon: 0.02,
            seed: 1,
            tables: None,
            hidden: H,
        }
    }
}

/// The move of `ms` (not empty) whose result `e` likes best for `p`, the first of equals.
fn greedy_move<G: Game, E: Evaluator<G>>(g: &G, ms: &MoveList, e: &E, p: Player) -> Move {
    let mut best = ms[0];
    let mut bv = f64::NEG_INFINITY;
    for &m in ms {
        let mut c = *g;
        c.play_unchecked(m);
        let v = turn_value(&c, e);
        let v = if p == Player::First { v } else { 1.0 - v };
        if v > bv {
            bv = v;
            best = m;
        }
    }
    best
}

/// Plays the decisions of a self-play game (whole turns, and openings that start with a
/// decision) until the next throw or the end: greedily by `e`, with chance `epsilon` of a
/// uniformly random move. The trainers of the linear weights and of the network share it.
fn play_decisions<G: Game, E: Evaluator<G>>(
    g: &mut G,
    e: &E,
    epsilon: f64,
    rng: &mut Pcg64Mcg,
    ms: &mut MoveList,
) {
    while let Status::Move(p) = g.status() {
        ms.clear();
        g.legal_moves(ms);
        let m = if ms.len() == 1 {
            ms[0]
        } else if rng.random::<f64>() < epsilon {
            ms[rng.random_range(0..ms.len())]
        } else {
            greedy_move(g, ms, e, p)
        };
        g.play_unchecked(m);
    }
}

/// Trains weights for the track game `start` belongs to, starting from `init`.
pub fn train_track<G: TrackGame>(start: &G, init: &TrackEval, opt: &TrainOptions) -> TrackEval {
    let mut ev = init.clone();
    let mut rng = Pcg64Mcg::seed_from_u64(opt.seed);
    let mut ms = MoveList::new();
    for game in 0..opt.games {
        let alpha = opt.alpha * (1.0 - 0.9 * game as f64 / opt.games.max(1) as f64);
        let mut g = *start;
        let mut trace = [0.0; NF + 1];
        let mut prev: Option<f64> = None;
        loop {
            // Play the decisions (whole turns, and openings that start with a decision),
            // greedily with a little exploration, until the next throw or the end.
            play_decisions(&mut g, &ev, opt.epsilon, &mut rng, &mut ms);
            // A throw position or the end: a TD step.
            let (v, x) = match g.status() {
                Status::Over(o) => (terminal_value(&o), None),
                Status::Throw(p) => {
                    let x = G::spec().features(g.masks(), p);
                    (ev.value_of(&x), Some(x))
                }
                Status::Move(_) => unreachable!("decisions were played above"),
            };
            if let Some(pv) = prev {
                let delta = v - pv;
                for (w, t) in ev.w.iter_mut().zip(&trace) {
                    *w += alpha * delta * t;
                }
                ev.bias += alpha * delta * trace[NF];
            }
            let Some(x) = x else { break };
            let v = ev.value_of(&x);
            let grad = v * (1.0 - v);
            for (t, xi) in trace.iter_mut().zip(&x) {
                *t = opt.lambda * *t + grad * xi;
            }
            trace[NF] = opt.lambda * trace[NF] + grad;
            prev = Some(v);
            let t = g.throw_dist().sample(rng.random());
            g.set_throw_unchecked(t);
        }
    }
    ev
}

/// The weights as Rust source (a `TrackEval` literal), for `weights.rs`.
pub fn to_rust(ev: &TrackEval, spec_name: &str, label: &str) -> String {
    let mut s = format!("TrackEval {{\n    spec: &{spec_name},\n    w: [\n");
    for (i, w) in ev.w.iter().enumerate() {
        s.push_str(&format!("        {w:.6}, // {}\n", FEATURES[i]));
    }
    s.push_str(&format!(
        "    ],\n    bias: {:.6},\n    label: \"{label}\",\n}}",
        ev.bias
    ));
    s
}

/// The mean squared error of the evaluator against the results of random-ish games (a
/// sanity check of a training run).
pub fn check<G: Game, E: Evaluator<G>>(start: &G, e: &E, games: u32, seed: u64) -> f64 {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut ms = MoveList::new();
    let (mut err, mut n) = (0.0, 0u64);
    for _ in 0..games {
        let mut g = *start;
        let mut vals = Vec::new();
        let result = loop {
            match g.status() {
                Status::Over(o) => break terminal_value(&o),
                Status::Throw(_) => {
                    vals.push(e.eval(&g));
                    let t = g.throw_dist().sample(rng.random());
                    g.set_throw_unchecked(t);
                }
                Status::Move(p) => {
                    ms.clear();
                    g.legal_moves(&mut ms);
                    g.play_unchecked(greedy_move(&g, &ms, e, p));
                }
            }
        };
        for v in vals {
            err += (v - result) * (v - result);
            n += 1;
        }
    }
    err / n.max(1) as f64
}

/// Trains the evaluator of a track rule set and returns its weights as Rust source, with the
/// mean squared error before and after.
pub fn train_rules(
    rules: senet_rules::RuleSet,
    opt: &TrainOptions,
    resume: bool,
) -> Result<String, String> {
    use senet_bots::weights;
    use senet_rules::AnyGame;
    let start = AnyGame::new(rules, &[] as &[&str]).map_err(|e| e.to_string())?;
    let (ev, before, after, spec) = match start {
        AnyGame::Kendall5(g) => {
            let init = if resume {
                &weights::KENDALL5
            } else {
                &weights::KENDALL5_HAND
            };
            let ev = train_track(&g, init, opt);
            let b = check(&g, init, 2000, 99);
            let a = check(&g, &ev, 2000, 99);
            (ev, b, a, "KENDALL5_SPEC")
        }
        AnyGame::Kendall(g) => {
            let init = if resume {
                &weights::KENDALL
            } else {
                &weights::KENDALL_HAND
            };
            let ev = train_track(&g, init, opt);
            let b = check(&g, init, 2000, 99);
            let a = check(&g, &ev, 2000, 99);
            (ev, b, a, "KENDALL_SPEC")
        }
        AnyGame::Senat(g) => {
            let init = if resume {
                &weights::SENAT
            } else {
                &weights::SENAT_HAND
            };
            let ev = train_track(&g, init, opt);
            let b = check(&g, init, 2000, 99);
            let a = check(&g, &ev, 2000, 99);
            (ev, b, a, "SENAT_SPEC")
        }
        AnyGame::Houses(g) => {
            let init = if resume {
                &weights::HOUSES
            } else {
                &weights::HOUSES_HAND
            };
            let ev = train_track(&g, init, opt);
            let b = check(&g, init, 2000, 99);
            let a = check(&g, &ev, 2000, 99);
            (ev, b, a, "HOUSES_SPEC")
        }
        #[allow(unreachable_patterns)]
        _ => {
            return Err(format!(
                "{rules} has no linear evaluator to train (the track rule sets have one); use --net"
            ))
        }
    };
    Ok(format!(
        "// {rules}: {} self-play games, seed {}, alpha {}, lambda {}, epsilon {}\n\
         // mean squared error on 2000 greedy games: before {before:.5}, after {after:.5}\n{}",
        opt.games,
        opt.seed,
        opt.alpha,
        opt.lambda,
        opt.epsilon,
        to_rust(&ev, spec, &format!("{rules}-td"))
    ))
}

/// Trains the network evaluator ([`senet_bots::net`]) of a track rule set and returns its weights
/// file, with the mean squared error of the starting and trained evaluators. Without
/// `resume`, training starts from the trained linear evaluator (the skip connection) and
/// random hidden units; with it, from the network in use.
pub fn train_net_rules(
    rules: senet_rules::RuleSet,
    opt: &TrainOptions,
    resume: bool,
) -> Result<String, String> {
    use senet_bots::weights;
    use senet_rules::{AnyGame, RuleSet};
    fn run<G: TrackGame>(
        g: &G,
        lin: &TrackEval,
        cur: &NetEval,
        resume: bool,
        opt: &TrainOptions,
    ) -> Result<(NetEval, f64, f64), String> {
        if resume && cur.second.is_some() {
            // The TD trainer's gradients are those of one hidden layer.
            return Err(format!(
                "the {} network in use has a second hidden layer: TD(λ) self-play trains \
                 networks of one (scripts/train_endgame.py --hidden2 trains those)",
                cur.label
            ));
        }
        let init = if resume {
            cur.clone()
        } else {
            NetEval::from_linear_sized(lin, opt.hidden, opt.seed, cur.label)
        };
        let net = train_net(g, &init, opt);
        let before = if resume {
            check(g, cur, 2000, 99)
        } else {
            check(g, lin, 2000, 99)
        };
        let after = check(g, &net, 2000, 99);
        Ok((net, before, after))
    }
    /// `pyramid` and `parker`: the feature network, from the hand-set evaluator (or, with
    /// `resume`, from the network in use); its weights file with `comment(before, after)`.
    fn run_feat<G: Features, E: Evaluator<G>>(
        g: &G,
        hand: &E,
        cur: Option<&FeatNet<G>>,
        resume: bool,
        opt: &TrainOptions,
        comment: &dyn Fn(f64, f64) -> String,
    ) -> Result<String, String> {
        let (init, start) = match (resume, cur) {
            (true, Some(c)) => (c.clone(), check(g, c, 2000, 99)),
            (true, None) => return Err("there is no network in use to resume from".into()),
            (false, _) => (
                FeatNet::from_hand(opt.seed, "net"),
                check(g, hand, 2000, 99),
            ),
        };
        let net = train_feature_net(g, &init, opt);
        Ok(net.to_text(&comment(start, check(g, &net, 2000, 99))))
    }
    // The first line of the weights file's comment: what it was trained from and how well.
    let comment = |before: f64, after: f64| {
        let from = match (resume, rules) {
            (true, _) => "the network in use",
            (false, RuleSet::Pyramid | RuleSet::Parker) => "the hand-set evaluator",
            (false, _) => "the linear evaluator",
        };
        let exact = match &opt.tables {
            Some(t) => format!(
                ", each ending where the exact tables cover it ({})",
                t.source(rules)
            ),
            None => String::new(),
        };
        format!(
            "{rules}: senet train --rules {rules} --net{}{} --games {} --seed {} --alpha {}\n\
             {} self-play games from {from}{exact}, lambda {}, epsilon {}\n\
             mean squared error on 2000 greedy games: before {before:.5}, after {after:.5}",
            if resume { " --resume" } else { "" },
            if opt.tables.is_some() { " --exact" } else { "" },
            opt.games,
            opt.seed,
            opt.alpha,
            opt.games,
            opt.lambda,
            opt.epsilon,
        )
    };
    let start = AnyGame::new(rules, &[] as &[&str]).map_err(|e| e.to_string())?;
    match start {
        AnyGame::Pyramid(g) => {
            let cur = weights::PYRAMID_NET.as_ref();
            let hand = &senet_bots::pyramid::PYRAMID;
            return run_feat(&g, hand, cur, resume, opt, &comment);
        }
        AnyGame::Parker(g) => {
            let cur = weights::PARKER_NET.as_ref();
            let hand = &senet_bots::parker::PARKER;
            return run_feat(&g, hand, cur, resume, opt, &comment);
        }
        _ => {}
    }
    let (net, before, after) = match start {
        AnyGame::Kendall5(g) => run(&g, &weights::KENDALL5, &weights::KENDALL5_NET, resume, opt),
        AnyGame::Kendall(g) => run(&g, &weights::KENDALL, &weights::KENDALL_NET, resume, opt),
        AnyGame::Senat(g) => run(&g, &weights::SENAT, &weights::SENAT_NET, resume, opt),
        AnyGame::Houses(g) => run(&g, &weights::HOUSES, &weights::HOUSES_NET, resume, opt),
        #[allow(unreachable_patterns)]
        _ => {
            return Err(format!(
                "{rules} has no network to train (the track rule sets, pyramid and parker have one)"
            ))
        }
    }?;
    Ok(net.to_text(&comment(before, after)))
}

/// The network in use for `rules` and its exact table of `pieces` pieces a side from `dir`
/// (default as for `senet solve`), or an error saying what is missing.
fn endgame_table(
    rules: senet_rules::RuleSet,
    dir: Option<std::path::PathBuf>,
    pieces: u32,
) -> Result<(&'static NetEval, Table), String> {
    use senet_bots::exact::{default_dir, file_name};
    let net = track_net(rules).ok_or_else(|| {
        format!(
            "{rules} has no exact tables to train on (kendall, kendall5, senat and houses have)"
        )
    })?;
    let dir = dir
        .or_else(default_dir)
        .ok_or("no directory for the tables: give --dir")?;
    let path = dir.join(file_name(rules, pieces as usize));
    if !path.exists() {
        return Err(format!(
            "{} does not exist: build it first with `senet solve {rules} --pieces {pieces}`",
            path.display()
        ));
    }
    Ok((net, Table::read(&path, rules)?))
}

/// What [`export_endgame_rules`] writes.
#[derive(Clone, Debug)]
pub struct EndgameExport {
    /// The network the data is for: [`END_PIECES`] (3), the endgame network, trained on every
    /// position of the 3-piece table; or [`END4_PIECES`] (4), the four-piece endgame network,
    /// trained on the positions of the 4-piece table with four pieces of a side on the board
    /// (the smaller endgames are the endgame network's).
    pub pieces: u32,
    /// The positions met in N endgames `bot` played (seed), and one move on, instead of the
    /// table's ([`played_endgames`]); with `sample` as well, both.
    pub played: Option<(u64, senet_bots::BotSpec, u64)>,
    /// Each of the table's positions kept with chance N / positions (seeded by `seed`), rather
    /// than every one: the 4-piece levels hold hundreds of millions.
    pub sample: Option<u64>,
    /// The sample's seed.
    pub seed: u64,
    /// Positions never written, as (side to throw's squares, the other side's): a held-out
    /// test set's ([`held_out_positions`]).
    pub exclude: std::collections::HashSet<(u32, u32)>,
}

/// Writes the training data of an endgame network for `rules` ([`export_endgame`]'s format)
/// to `path`, from the table of `opt.pieces` pieces a side in `dir`; returns a line saying what
/// was written.
pub fn export_endgame_rules(
    rules: senet_rules::RuleSet,
    dir: Option<std::path::PathBuf>,
    path: &std::path::Path,
    opt: &EndgameExport,
) -> Result<String, String> {
    if opt.pieces != END_PIECES && opt.pieces != END4_PIECES {
        return Err(format!(
            "the endgame networks are of {END_PIECES} or {END4_PIECES} pieces a side, not {}",
            opt.pieces
        ));
    }
    if opt.sample.is_none() && opt.played.is_none() && opt.pieces != END_PIECES {
        return Err(format!(
            "the {}-piece table is too large to export whole: give --sample N or --played N",
            opt.pieces
        ));
    }
    let (net, table) = endgame_table(rules, dir, opt.pieces)?;
    let levels = table_levels(&table, opt.pieces);
    let (data, how) = endgame_rows(&table, &levels, opt)?;
    let file = DataFile::create(path)?;
    let n = file.write(|out| export_states(net, &data, out))?;
    Ok(format!(
        "{n} positions of {rules} ({how}) written to {} (scripts/train_endgame.py trains on it)\n",
        path.display()
    ))
}

/// A position with its exact value: the side to throw's squares, the other side's, the side
/// to throw's win chance.
pub type Exact = (u32, u32, f32);

/// The rows [`export_endgame_rules`] writes: positions of `levels` of `table`, every one, a
/// sample or those met in play as `opt` says, never one of `opt.exclude`, each with its exact
/// value; and a phrase saying which.
fn endgame_rows(
    table: &Table,
    levels: &[(usize, usize)],
    opt: &EndgameExport,
) -> Result<(Vec<Exact>, String), String> {
    let keep = |own: u32, opp: u32| {
        let level = (own.count_ones() as usize, opp.count_ones() as usize);
        levels.contains(&level) && !opt.exclude.contains(&(own, opp))
    };
    let mut data = Vec::new();
    let mut how = Vec::new();
    if let Some(n) = opt.sample {
        let mut total = 0u64;
        for &(a, b) in levels {
            table.for_each_state(a, b, |_, _, _| total += 1);
        }
        let chance = (n as f64 / total.max(1) as f64).min(1.0);
        let mut rng = Pcg64Mcg::seed_from_u64(opt.seed);
        for &(a, b) in levels {
            table.for_each_state(a, b, |own, opp, v| {
                if rng.random::<f64>() < chance && keep(own, opp) {
                    data.push((own, opp, v as f32));
                }
            });
        }
        how.push(format!(
            "a sample of the {total} positions, each kept with chance {chance:.6}, seed {}",
            opt.seed
        ));
    }
    if let Some((games, ref bot, seed)) = opt.played {
        let met = played_endgames(table, bot, games, seed)?;
        let before = data.len();
        data.extend(met.into_iter().filter(|&(own, opp, _)| keep(own, opp)));
        how.push(format!(
            "{} met in {games} endgames {bot} played (seed {seed}) and one move on",
            data.len() - before
        ));
    }
    if opt.sample.is_none() && opt.played.is_none() {
        for &(a, b) in levels {
            table.for_each_state(a, b, |own, opp, v| {
                if keep(own, opp) {
                    data.push((own, opp, v as f32));
                }
            });
        }
        how.push("every position of the table".into());
    }
    if !opt.exclude.is_empty() {
        how.push(format!("none of {} held-out positions", opt.exclude.len()));
    }
    Ok((data, how.join("; ")))
}

/// The levels (pieces of the side to throw, of the other) the network of `pieces` values:
/// every one up to [`END_PIECES`], or those with a side of [`END4_PIECES`].
fn table_levels(table: &Table, pieces: u32) -> Vec<(usize, usize)> {
    let top = (pieces as usize).min(table.pieces());
    let mut out = Vec::new();
    for a in 1..=top {
        for b in 1..=top {
            if pieces == END_PIECES || a.max(b) == END4_PIECES as usize {
                out.push((a, b));
            }
        }
    }
    out
}

/// Trains the endgame network of a stick rule set on its exact tables (the file of 3 pieces
/// per side from `senet solve RULES --pieces 3`, read from `dir` or the default directory) and
/// returns its weights file (for `crates/senet-bots/src/nets/RULES-end.txt`), with the fit
/// before and after in its comment.
pub fn train_endgame_rules(
    rules: senet_rules::RuleSet,
    opt: &EndgameOptions,
    dir: Option<std::path::PathBuf>,
    progress: &dyn Fn(u32),
) -> Result<String, String> {
    use senet_bots::exact::file_name;
    let (net, table) = endgame_table(rules, dir, END_PIECES)?;
    let (p, before, after) = train_endgame(net, &table, opt, progress);
    let fit = |f: &EndgameFit| {
        format!(
            "rms {:.5}, mean abs {:.5}, max {:.4} on {} held-out positions",
            f.rms, f.mean_abs, f.max, f.positions
        )
    };
    Ok(NetEval::params_text(
        net.spec,
        &p,
        &format!(
            "{rules} endgame network (at most {END_PIECES} pieces of each side on the board): \
             senet train --rules {rules} --endgame --epochs {} --alpha {} --seed {}\n\
             supervised on the exact values of {}, starting from {}\n\
             win chance error before: {}\n\
             win chance error after: {}",
            opt.epochs,
            opt.alpha,
            opt.seed,
            file_name(rules, END_PIECES as usize),
            if net.end_hidden() == Some(EH) {
                "the endgame network in use"
            } else {
                "the main network's linear part"
            },
            fit(&before),
            fit(&after),
        ),
    ))
}

/// Input slots per position in an endgame data file ([`export_endgame`]): at most 3 pieces, a
/// count of pieces off and 4 board terms per side, and the seat, fit with room to spare.
pub const EXPORT_SLOTS: usize = 20;

/// Writes the training data of the endgame network for `table` to `out`, for trainers outside
/// this crate (`scripts/train_endgame.py`): every position [`train_endgame`] uses, in the same
/// order, with the network's inputs as it sees them, so that a trainer needs no knowledge of
/// the input layout. The format:
/// - one text line, `senet-endgame-data/1 RULES NI=79 SLOTS=20 N=<positions>`, then `\n`;
/// - per position, [`EXPORT_SLOTS`] input indices (u8, 255 for an unused slot), then as many
///   input values (f32, little-endian), then the side to throw's exact win chance (f32) and
///   one byte, 1 if the position is held out of training (every 64th, as [`train_endgame`]).
///
/// Positions are seen from the first player's seat (the seat input +1); a trainer may flip
/// the seat input, as no rule depends on the seat past the opening. Returns the positions
/// written.
pub fn export_endgame(
    net: &NetEval,
    table: &senet_bots::exact::Table,
    out: &mut dyn std::io::Write,
) -> std::io::Result<u64> {
    export_states(net, &table_states(table), out)
}

/// Every position of `table` with up to [`END_PIECES`] pieces a side: (side to throw's
/// squares, the other side's, the side to throw's exact win chance), in the table's order.
fn table_states(table: &senet_bots::exact::Table) -> Vec<(u32, u32, f32)> {
    let mut data = Vec::new();
    let top = (END_PIECES as usize).min(table.pieces());
    for a in 1..=top {
        for b in 1..=top {
            table.for_each_state(a, b, |own, opp, v| data.push((own, opp, v as f32)));
        }
    }
    data
}

/// Writes `data` (side to throw's squares, the other side's, the side to throw's exact win
/// chance) in [`export_endgame`]'s format; returns the positions written.
pub fn export_states(
    net: &NetEval,
    data: &[(u32, u32, f32)],
    out: &mut dyn std::io::Write,
) -> std::io::Result<u64> {
    let rows = data
        .iter()
        .map(|&(own, opp, y)| (net.end_inputs([own, opp], Player::First), y));
    write_rows(net, data.len(), rows, out)
}

/// A data file created at once (a bad path fails before any work), written through a buffer.
pub(crate) struct DataFile<'a> {
    path: &'a std::path::Path,
    out: std::io::BufWriter<std::fs::File>,
}

impl<'a> DataFile<'a> {
    pub(crate) fn create(path: &'a std::path::Path) -> Result<DataFile<'a>, String> {
        let file = std::fs::File::create(path)
            .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        Ok(DataFile {
            path,
            out: std::io::BufWriter::new(file),
        })
    }

    /// Writes with `write` and flushes; the errors say which file.
    pub(crate) fn write(
        mut self,
        write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<u64>,
    ) -> Result<u64, String> {
        write(&mut self.out)
            .and_then(|n| std::io::Write::flush(&mut self.out).map(|()| n))
            .map_err(|e| format!("cannot write {}: {e}", self.path.display()))
    }
}

/// Writes `n` rows (a network's inputs, the target) in [`export_endgame`]'s format.
pub(crate) fn write_rows(
    net: &NetEval,
    n: usize,
    rows: impl Iterator<Item = (senet_bots::net::Inputs, f32)>,
    out: &mut dyn std::io::Write,
) -> std::io::Result<u64> {
    writeln!(
        out,
        "senet-endgame-data/1 {} NI={NI} SLOTS={EXPORT_SLOTS} N={n}",
        net.spec.id,
    )?;
    let mut rec = Vec::with_capacity(EXPORT_SLOTS * 5 + 5);
    for (i, (x, y)) in rows.enumerate() {
        if x.len() > EXPORT_SLOTS {
            return Err(std::io::Error::other(format!(
                "a position has {} inputs, more than the {EXPORT_SLOTS} slots",
                x.len()
            )));
        }
        rec.clear();
        for k in 0..EXPORT_SLOTS {
            rec.push(x.get(k).map_or(255, |&(i, _)| i));
        }
        for k in 0..EXPORT_SLOTS {
            rec.extend_from_slice(&x.get(k).map_or(0.0, |&(_, v)| v).to_le_bytes());
        }
        rec.extend_from_slice(&y.to_le_bytes());
        rec.push(held_out(i) as u8);
        out.write_all(&rec)?;
    }
    Ok(n as u64)
}

/// The side to throw's squares and the other side's in `g`, if `g` awaits a throw of a rule
/// set with exact tables.
pub(crate) fn throw_masks(g: &senet_rules::AnyGame) -> Option<(u32, u32)> {
    let Status::Throw(p) = g.status() else {
        return None;
    };
    let m = board_men(g)?;
    Some((m[p.index()], m[1 - p.index()]))
}

/// The squares of each side (first player's first) in a game of a rule set with exact tables.
pub(crate) fn board_men(g: &senet_rules::AnyGame) -> Option<[u32; 2]> {
    use senet_rules::AnyGame as A;
    Some(match g {
        A::Kendall(x) => x.men(),
        A::Kendall5(x) => x.men(),
        A::Senat(x) => x.men(),
        A::Houses(x) => x.men(),
        _ => return None,
    })
}

/// The endgame positions met in play, for a trainer that weights them (issue 18: the
/// endgame network's errors cost most where games go): every position awaiting a throw
/// that `bot` meets in `games` endgames played as [`crate::ladder::exact_errors`] plays
/// them (the endgames of `seed`, which a measurement should not use), and every position
/// one throw and one move on from one of them, the first a search from there values. Each
/// once, in the order met, as (side to throw's squares, the other side's, its exact win
/// chance); only positions `table` covers.
pub fn played_endgames(
    table: &Table,
    bot: &senet_bots::BotSpec,
    games: u64,
    seed: u64,
) -> Result<Vec<(u32, u32, f32)>, String> {
    use rayon::prelude::*;
    let start =
        senet_rules::AnyGame::new(table.rules(), &[] as &[&str]).map_err(|e| e.to_string())?;
    let per_game: Vec<Vec<(u32, u32)>> = (0..games)
        .into_par_iter()
        .map(|i| {
            let mut met = Vec::new();
            crate::ladder::play_endgame(&start, table, bot, seed, i, |g, m| {
                if m.is_some() {
                    return;
                }
                met.extend(throw_masks(g));
                for &(t, _) in g.throw_dist().outcomes {
                    let mut g2 = *g;
                    g2.set_throw_unchecked(t);
                    let mut ms = MoveList::new();
                    g2.legal_moves(&mut ms);
                    for &mv in ms.iter() {
                        let mut g3 = g2;
                        g3.play_unchecked(mv);
                        met.extend(throw_masks(&g3));
                    }
                }
            });
            met
        })
        .collect();
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for (own, opp) in per_game.into_iter().flatten() {
        if seen.insert((own, opp)) {
            if let Some(v) = table.side_to_throw(own, opp) {
                out.push((own, opp, v as f32));
            }
        }
    }
    Ok(out)
}

/// The main network [`searched_positions`] is for, or an error saying which rule sets have one.
pub(crate) fn searched_net(rules: senet_rules::RuleSet) -> Result<&'static NetEval, String> {
    track_net(rules).ok_or_else(|| {
        format!("{rules} has no track network (kendall, kendall5, senat and houses have)")
    })
}

/// A middle-game position labelled by search: the side to throw's squares, the other
/// side's, the side to throw's seat and its win chance.
pub type Searched = (u32, u32, Player, f32);

/// What [`searched_positions`] plays and how it values the positions.
#[derive(Clone, Debug)]
pub struct SearchedOptions {
    /// The bot whose self-play games give the positions.
    pub play: senet_bots::BotSpec,
    /// The depth of the analyser's search that values them: 0 to
    /// [`senet_bots::analysis::MAX_DEPTH`] throws (deeper is refused).
    pub depth: u32,
    /// A node budget for each of that search's moves (iterative deepening up to `depth`,
    /// keeping the deepest iteration that completed, as `expectimax:D:NODES`); `None`:
    /// always `depth` deep, whatever it costs.
    pub budget: Option<u64>,
    /// Self-play games.
    pub games: u64,
    /// Seed of the games' throws and of the positions kept.
    pub seed: u64,
    /// The chance that a position is kept.
    pub keep: f64,
    /// Positions never kept, as (side to throw's squares, the other side's), whoever throws:
    /// a held-out test set's ([`held_out_positions`]), so that training never sees them.
    pub exclude: std::collections::HashSet<(u32, u32)>,
}

/// The positions of an exact test set ([`crate::exactset::ExactSet`]) that training data must
/// leave out: each decision's position with its mover to throw instead, and every position
/// one of its legal moves leads to that awaits a throw (what a bot values to choose), as
/// (side to throw's squares, the other side's).
pub fn held_out_positions(
    set: &crate::exactset::ExactSet,
) -> std::collections::HashSet<(u32, u32)> {
    let mut out = std::collections::HashSet::new();
    for g in &set.games {
        let Some(men) = board_men(g) else { continue };
        if let Status::Move(p) = g.status() {
            out.insert((men[p.index()], men[1 - p.index()]));
        }
        let mut ms = MoveList::new();
        g.legal_moves(&mut ms);
        for &m in ms.iter() {
            let mut c = *g;
            c.play_unchecked(m);
            out.extend(throw_masks(&c));
        }
    }
    out
}

/// Middle-game positions labelled by search, to train a track rule set's main network on
/// (issue 18: TD(λ) self-play levels off; a search's value of a position, the mean over the
/// throws with every reply searched, is a target with no throw's luck in it). `games` games
/// of `play` against itself from the start (seed `seed`); each position awaiting a throw
/// that the main network values (a side with more than [`END_PIECES`] pieces on the board, or
/// more than [`END4_PIECES`] where the rule set has a four-piece endgame network)
/// is kept with chance `keep`, and with the same chance at each decision of two or more
/// moves the position after a uniformly drawn other move (what a search from there also
/// values); never one of `exclude`. Each is valued by [`senet_bots::analysis::trainer`] at
/// `depth` within `budget` nodes a move if given (the analyser's search with the main network
/// trained and the exact tables, as `SENET_NETS` and `SENET_TABLES` give them): the
/// thrower's win chance, the mean over its throws of the best move's value. In the order
/// met; a position met twice is kept twice (it weighs as often as play meets it).
pub fn searched_positions(
    rules: senet_rules::RuleSet,
    opt: &SearchedOptions,
) -> Result<Vec<Searched>, String> {
    use rayon::prelude::*;
    let SearchedOptions {
        ref play,
        depth,
        budget,
        games,
        seed,
        keep,
        ref exclude,
    } = *opt;
    let net = searched_net(rules)?;
    if depth > senet_bots::analysis::MAX_DEPTH {
        return Err(format!(
            "the search depth must be 0-{}, got {depth}",
            senet_bots::analysis::MAX_DEPTH
        ));
    }
    if let Some(b) = budget.filter(|b| !(1..=senet_bots::MAX_BUDGET).contains(b)) {
        return Err(format!(
            "the node budget must be 1-{}, got {b}",
            senet_bots::MAX_BUDGET
        ));
    }
    if !(keep > 0.0 && keep <= 1.0) {
        return Err(format!(
            "the share of positions kept must lie in (0, 1], got {keep}"
        ));
    }
    let start = senet_rules::AnyGame::new(rules, &[] as &[&str]).map_err(|e| e.to_string())?;
    let main = |g: &senet_rules::AnyGame| {
        throw_masks(g).filter(|&(a, b)| {
            // What the main network values: no endgame network does ([`NetEval::params_for`]).
            !net.params_for([a, b]).1 && !exclude.contains(&(a, b))
        })
    };
    let per_game: Vec<Vec<Searched>> = (0..games)
        .into_par_iter()
        .map(|i| {
            let mut rng = Pcg64Mcg::seed_from_u64(crate::duel::mix(seed, i));
            let mut bot = play.build();
            let mut label = senet_bots::analysis::trainer(depth, budget);
            let mut rows = Vec::new();
            let mut value = |g: &senet_rules::AnyGame, rows: &mut Vec<Searched>| {
                if let (Some((own, opp)), Status::Throw(p)) = (main(g), g.status()) {
                    let v = senet_bots::analysis::thrower_value(label.as_mut(), g);
                    rows.push((own, opp, p, v as f32));
                }
            };
            self_play(&start, &mut rng, |g, turn, rng| {
                let Some((ms, k)) = turn else {
                    if rng.random_bool(keep) {
                        value(g, &mut rows);
                    }
                    return None;
                };
                let m = bot
                    .choose(g, crate::duel::mix(crate::duel::mix(seed, i), k))
                    .best;
                if ms.len() > 1 && rng.random_bool(keep) {
                    value(&other_result(g, ms, m, rng), &mut rows);
                }
                Some(m)
            });
            rows
        })
        .collect();
    Ok(per_game.into_iter().flatten().collect())
}

/// Plays one game from `start` to its end, each throw drawn from `rng`. `step` sees every
/// position: awaiting a throw (`None`; before the throw is drawn, and what it returns is not
/// used), or awaiting a move (`Some` of its legal moves and the decision's number from 1),
/// where it returns the move to play.
pub(crate) fn self_play(
    start: &senet_rules::AnyGame,
    rng: &mut Pcg64Mcg,
    mut step: impl FnMut(&senet_rules::AnyGame, Option<(&MoveList, u64)>, &mut Pcg64Mcg) -> Option<Move>,
) {
    let mut g = *start;
    let mut k = 0u64;
    loop {
        match g.status() {
            Status::Over(_) => break,
            Status::Throw(_) => {
                step(&g, None, rng);
                let t = g.throw_dist().sample(rand::RngCore::next_u32(rng));
                g.set_throw_unchecked(t);
            }
            Status::Move(_) => {
                k += 1;
                let mut ms = MoveList::new();
                g.legal_moves(&mut ms);
                let m = step(&g, Some((&ms, k)), rng).expect("a decision's step gives a move");
                g.play_unchecked(m);
            }
        }
    }
}

/// The result of a uniformly drawn legal move of `g` other than `m` (`ms`, `g`'s legal
/// moves, holds two or more).
pub(crate) fn other_result(
    g: &senet_rules::AnyGame,
    ms: &MoveList,
    m: Move,
    rng: &mut Pcg64Mcg,
) -> senet_rules::AnyGame {
    let others: Vec<Move> = ms.iter().copied().filter(|&x| x != m).collect();
    let mut h = *g;
    h.play_unchecked(others[rng.random_range(0..others.len())]);
    h
}

/// Writes [`searched_positions`] to `path` in [`export_endgame`]'s format, with the main
/// network's inputs (for scripts/train_endgame.py); returns a line saying what was written.
pub fn export_searched_rules(
    rules: senet_rules::RuleSet,
    opt: &SearchedOptions,
    path: &std::path::Path,
) -> Result<String, String> {
    let net = searched_net(rules)?;
    let file = DataFile::create(path)?;
    let data = searched_positions(rules, opt)?;
    let rows = data.iter().map(|&(own, opp, p, y)| {
        let men = if p == Player::First {
            [own, opp]
        } else {
            [opp, own]
        };
        (net.inputs(men, p), y)
    });
    let n = file.write(|out| write_rows(net, data.len(), rows, out))?;
    let within = match opt.budget {
        Some(b) => format!(" within {b} node{} a move", if b == 1 { "" } else { "s" }),
        None => String::new(),
    };
    Ok(format!(
        "{n} positions of {rules} (met in {} games {} played, seed {}, valued at depth {}{within}{}) written to {} (scripts/train_endgame.py trains on it)\n",
        opt.games,
        opt.play,
        opt.seed,
        opt.depth,
        if opt.exclude.is_empty() {
            String::new()
        } else {
            format!(", never one of {} held-out positions", opt.exclude.len())
        },
        path.display()
    ))
}

/// What the TD(λ) self-play trainer (`td_train`) needs of a network.
trait TdNet<G: Game>: Evaluator<G> + Clone {
    /// The parameters, in the layout of the gradients.
    fn params_mut(&mut self) -> &mut [f32];
    /// The chance that `p`, about to throw in `g`, wins; with `grad`, also adds `sign` times
    /// the gradient of that chance to it.
    fn mover_v(&self, g: &G, p: Player, grad: Option<(&mut [f32], f32)>) -> f32;
}

impl<G: TrackGame> TdNet<G> for NetEval {
    fn params_mut(&mut self) -> &mut [f32] {
        &mut self.p
    }

    fn mover_v(&self, g: &G, p: Player, grad: Option<(&mut [f32], f32)>) -> f32 {
        let x = self.inputs(g.masks(), p);
        match self.hidden() {
            32 => net_value::<32>(&self.p, &x, grad),
            64 => net_value::<64>(&self.p, &x, grad),
            128 => net_value::<128>(&self.p, &x, grad),
            256 => net_value::<256>(&self.p, &x, grad),
            512 => net_value::<512>(&self.p, &x, grad),
            _ => net_value::<H>(&self.p, &x, grad),
        }
    }
}

/// The mover's chance of a track network of `N` hidden units with parameters `p` on inputs
/// `x`; with `grad`, also adds `sign` times its gradient to it.
fn net_value<const N: usize>(p: &[f32], x: &[(u8, f32)], grad: Option<(&mut [f32], f32)>) -> f32 {
    let l = Layout { n: N };
    let (z, h) = forward::<N>(p, x);
    let v = sigmoid(z as f64) as f32;
    if let Some((grad, sign)) = grad {
        let d = v * (1.0 - v) * sign;
        grad[l.b()] += d;
        for k in 0..N {
            grad[l.v() + k] += d * h[k].max(0.0);
            if h[k] > 0.0 {
                let dh = d * p[l.v() + k];
                grad[l.c() + k] += dh;
                for &(i, xi) in x {
                    grad[i as usize * N + k] += dh * xi;
                }
            }
        }
        for &(i, xi) in x {
            grad[l.skip() + i as usize] += d * xi;
        }
    }
    v
}

impl<G: Features> TdNet<G> for FeatNet<G> {
    fn params_mut(&mut self) -> &mut [f32] {
        &mut self.p
    }

    fn mover_v(&self, g: &G, p: Player, grad: Option<(&mut [f32], f32)>) -> f32 {
        let x = FeatNet::inputs(g, p);
        let (z, h) = self.forward(&x);
        let v = sigmoid(z as f64) as f32;
        if let Some((grad, sign)) = grad {
            self.add_gradient(grad, &x, &h, v * (1.0 - v) * sign);
        }
        v
    }
}

/// TD(λ) self-play from `init`, as TD-Gammon was trained: each decision is greedy with the
/// current network (a whole turn, with chance `epsilon` of a random move), and after each
/// throw position every parameter moves toward the value of the next throw position (or the
/// result) along its eligibility trace. Seeded: the same options give the same network.
fn td_train<G: Game, N: TdNet<G>>(start: &G, init: &N, opt: &TrainOptions) -> N {
    let mut net = init.clone();
    let mut rng = Pcg64Mcg::seed_from_u64(opt.seed);
    let mut ms = MoveList::new();
    let mut trace = vec![0.0f32; net.params_mut().len()];
    let lambda = opt.lambda as f32;
    for game in 0..opt.games {
        let alpha = (opt.alpha * (1.0 - 0.9 * game as f64 / opt.games.max(1) as f64)) as f32;
        let mut g = *start;
        trace.iter_mut().for_each(|t| *t = 0.0);
        let mut prev: Option<f32> = None;
        loop {
            play_decisions(&mut g, &net, opt.epsilon, &mut rng, &mut ms);
            // A throw position or the end: a TD step, values from the first player's side.
            let first = |p: Player, v: f32| if p == Player::First { v } else { 1.0 - v };
            let (y, mover) = match g.status() {
                Status::Over(o) => (terminal_value(&o) as f32, None),
                Status::Throw(p) => match opt.tables.as_ref().and_then(|t| t.value(&g)) {
                    // The first player's exact chance: the game ends here for the trainer.
                    Some(v) => (v as f32, None),
                    None => (first(p, net.mover_v(&g, p, None)), Some(p)),
                },
                Status::Move(_) => unreachable!("decisions were played above"),
            };
            if let Some(py) = prev {
                let step = alpha * (y - py);
                for (w, t) in net.params_mut().iter_mut().zip(&trace) {
                    *w += step * t;
                }
            }
            let Some(p) = mover else { break };
            // The gradient of the first player's value, added to the decayed trace.
            trace.iter_mut().for_each(|t| *t *= lambda);
            let sign = if p == Player::First { 1.0 } else { -1.0 };
            let v = net.mover_v(&g, p, Some((&mut trace, sign)));
            prev = Some(first(p, v));
            let t = g.throw_dist().sample(rng.random());
            g.set_throw_unchecked(t);
        }
    }
    net
}

/// Trains the network for the track game `start` belongs to, starting from `init`, by
/// TD(λ) self-play (`td_train`).
pub fn train_net<G: TrackGame>(start: &G, init: &NetEval, opt: &TrainOptions) -> NetEval {
    td_train(start, init, opt)
}

/// Trains the network of `pyramid` or `parker` ([`senet_bots::fnet`]) from `init` by TD(λ)
/// self-play (`td_train`, as for the track games).
pub fn train_feature_net<G: Features>(
    start: &G,
    init: &FeatNet<G>,
    opt: &TrainOptions,
) -> FeatNet<G> {
    td_train(start, init, opt)
}

/// Options of [`train_endgame`].
#[derive(Clone, Debug)]
pub struct EndgameOptions {
    /// Passes over the positions.
    pub epochs: u32,
    /// Learning rate at the start (it decays linearly to a tenth).
    pub alpha: f64,
    /// Seed of the order of the positions and of the seats.
    pub seed: u64,
}

impl Default for EndgameOptions {
    fn default() -> EndgameOptions {
        EndgameOptions {
            epochs: 20,
            alpha: 0.02,
            seed: 1,
        }
    }
}

/// How well an endgame network fits the exact values.
#[derive(Clone, Debug, Default)]
pub struct EndgameFit {
    /// Positions it was checked on (every 64th position, never trained on).
    pub positions: u64,
    /// Root mean square error of the win chance.
    pub rms: f64,
    /// Mean absolute error.
    pub mean_abs: f64,
    /// The largest error.
    pub max: f64,
}

/// Whether position `i` of a table's enumeration is held out of training (to check the fit).
fn held_out(i: usize) -> bool {
    i % 64 == 63
}

/// The fit of parameters `p` to the exact values `data` (own, opp, side to throw's value), on
/// the held-out positions.
fn endgame_fit(net: &NetEval, p: &[f32], data: &[(u32, u32, f32)]) -> EndgameFit {
    let (mut n, mut sq, mut abs, mut max) = (0u64, 0.0, 0.0, 0.0f64);
    for (i, &(own, opp, y)) in data.iter().enumerate() {
        if !held_out(i) {
            continue;
        }
        let x = net.end_inputs([own, opp], Player::First);
        let v = sigmoid(forward::<EH>(p, &x).0 as f64);
        let e = (v - y as f64).abs();
        n += 1;
        sq += e * e;
        abs += e;
        max = max.max(e);
    }
    let d = n.max(1) as f64;
    EndgameFit {
        positions: n,
        rms: (sq / d).sqrt(),
        mean_abs: abs / d,
        max,
    }
}

/// A fresh endgame network: the main network's skip connection (its linear part) and bias,
/// small random hidden weights.
fn endgame_init(net: &NetEval, rng: &mut Pcg64Mcg) -> Vec<f32> {
    let mut p = vec![0.0f32; params_of(EH)];
    let l = Layout { n: EH };
    for x in &mut p[..l.skip()] {
        *x = (rng.random::<f32>() - 0.5) * 0.2;
    }
    let main = Layout::of_len(net.p.len());
    p[l.skip()..l.c()].copy_from_slice(&net.p[main.skip()..main.c()]);
    for x in &mut p[l.c()..l.v()] {
        *x = 0.1;
    }
    for x in &mut p[l.v()..l.b()] {
        *x = (rng.random::<f32>() - 0.5) * 0.02;
    }
    p[l.b()] = net.p[main.b()];
    p
}

/// Trains the endgame network of `net` ([`NetEval::end`]) on the exact values of `table`:
/// every position with 1 to [`END_PIECES`] pieces of each side on the board, but for every
/// 64th, which is held out to measure the fit. Supervised stochastic gradient descent on the
/// cross-entropy of the mover's win chance, each position seen from a seat drawn at random
/// (past the opening no rule depends on the seat), starting from the endgame network in use,
/// else from the main network's linear part ([`EH`] hidden units). Returns the parameters and the fit before and after.
/// Seeded: the same options give the same network.
pub fn train_endgame(
    net: &NetEval,
    table: &senet_bots::exact::Table,
    opt: &EndgameOptions,
    progress: &dyn Fn(u32),
) -> (Vec<f32>, EndgameFit, EndgameFit) {
    let data = table_states(table);
    let mut rng = Pcg64Mcg::seed_from_u64(opt.seed);
    // The endgame network in use, if it has this trainer's size (a larger one, trained by
    // scripts/train_endgame.py, is not resumed here).
    let mut p = net
        .end
        .clone()
        .filter(|_| net.end_hidden() == Some(EH))
        .unwrap_or_else(|| endgame_init(net, &mut rng));
    let before = endgame_fit(net, &p, &data);
    let mut order: Vec<u32> = (0..data.len() as u32)
        .filter(|&i| !held_out(i as usize))
        .collect();
    let total = (opt.epochs as usize * order.len()).max(1) as f64;
    let mut step = 0usize;
    for epoch in 0..opt.epochs {
        // Fisher-Yates with the seeded generator.
        for i in (1..order.len()).rev() {
            order.swap(i, rng.random_range(0..=i));
        }
        for &i in &order {
            let alpha = (opt.alpha * (1.0 - 0.9 * step as f64 / total)) as f32;
            step += 1;
            let (own, opp, y) = data[i as usize];
            let (men, mover) = if rng.random::<bool>() {
                ([own, opp], Player::First)
            } else {
                ([opp, own], Player::Second)
            };
            let x = net.end_inputs(men, mover);
            let (z, h) = forward::<EH>(&p, &x);
            let v = sigmoid(z as f64) as f32;
            // The gradient of the log-likelihood with respect to the output before the sigmoid.
            let g = alpha * (y - v);
            let l = Layout { n: EH };
            p[l.b()] += g;
            for k in 0..EH {
                if h[k] > 0.0 {
                    let dh = g * p[l.v() + k];
                    p[l.v() + k] += g * h[k];
                    p[l.c() + k] += dh;
                    for &(i, xi) in &x {
                        p[i as usize * EH + k] += dh * xi;
                    }
                }
            }
            for &(i, xi) in &x {
                p[l.skip() + i as usize] += g * xi;
            }
        }
        progress(epoch + 1);
    }
    let after = endgame_fit(net, &p, &data);
    (p, before, after)
}

#[cfg(test)]
mod tests {
    use super::*;
    use senet_bots::weights;
    use senet_rules::track::bit;

    /// The TD trainer's gradient of the mover's chance, at every main network size: each
    /// part of the parameter vector (hidden weights, skip weights, hidden biases, output
    /// weights, output bias) against a central difference.
    #[test]
    fn the_td_gradient_is_the_derivative_at_every_main_network_size() {
        let g = senet_rules::Kendall5::start(&senet_rules::Options::defaults(
            senet_rules::Kendall5::option_specs(),
        ));
        let g = g
            .endgame(
                [
                    bit(3) | bit(9) | bit(17) | bit(22),
                    bit(5) | bit(12) | bit(25),
                ],
                Player::First,
            )
            .unwrap();
        for n in senet_bots::net::MAIN_SIZES {
            let mut net = NetEval::from_linear_sized(&weights::KENDALL5, n, 7, "test");
            // Larger output weights than a fresh network's, so that every part counts.
            let l = Layout { n };
            let mut rng = Pcg64Mcg::seed_from_u64(n as u64);
            for x in &mut net.p[l.v()..l.b()] {
                *x = rng.random::<f32>() - 0.5;
            }
            let mut grad = vec![0.0f32; net.p.len()];
            let v = TdNet::<senet_rules::Kendall5>::mover_v(
                &net,
                &g,
                Player::First,
                Some((&mut grad, 1.0)),
            );
            // The trainer's value is the search's.
            let searched = net.mover_value(g.masks(), Player::First);
            assert!(
                (v as f64 - searched).abs() < 1e-5,
                "{n} units: {v} vs {searched}"
            );
            let x = net.inputs(g.masks(), Player::First);
            let live = (0..n)
                .find(|&k| forward_hidden(&net, &x, k) > 0.1)
                .expect("a live unit");
            let some_input = x[0].0 as usize;
            for i in [
                some_input * n + live,
                l.skip() + some_input,
                l.c() + live,
                l.v() + live,
                l.b(),
            ] {
                let eps = 1e-2f32;
                let at = |d: f32| {
                    let mut q = net.clone();
                    q.p[i] += d;
                    TdNet::<senet_rules::Kendall5>::mover_v(&q, &g, Player::First, None) as f64
                };
                let numeric = (at(eps) - at(-eps)) / (2.0 * eps as f64);
                assert!(
                    (numeric - grad[i] as f64).abs() < 1e-3 * (1.0 + numeric.abs()),
                    "{n} units, parameter {i}: {numeric} vs {}",
                    grad[i]
                );
            }
        }
    }

    /// The input of hidden unit `k` of `net` (before the rectifier) for inputs `x`.
    fn forward_hidden(net: &NetEval, x: &[(u8, f32)], k: usize) -> f32 {
        let l = Layout { n: net.hidden() };
        net.p[l.c() + k]
            + x.iter()
                .map(|&(i, v)| v * net.p[i as usize * l.n + k])
                .sum::<f32>()
    }

    /// `--played`: the positions met in the measured endgames, each once with its exact value,
    /// and those one throw and one move on; the same seed gives the same positions.
    #[test]
    fn played_endgames_are_the_positions_met_in_play_and_one_move_on() {
        let (table, _) = Table::build(senet_rules::RuleSet::Kendall5, 2, &mut |_| {}).unwrap();
        let bot: senet_bots::BotSpec = "expectimax:1".parse().unwrap();
        let data = played_endgames(&table, &bot, 30, 7).unwrap();
        assert_eq!(data, played_endgames(&table, &bot, 30, 7).unwrap());
        let mut seen = std::collections::HashSet::new();
        for &(own, opp, y) in &data {
            assert!(seen.insert((own, opp)), "a position written twice");
            assert_eq!(table.side_to_throw(own, opp), Some(y as f64));
        }
        // Every position awaiting a throw in those endgames is there.
        let start = senet_rules::AnyGame::new(table.rules(), &[] as &[&str]).unwrap();
        let mut met = std::collections::HashSet::new();
        for i in 0..30 {
            crate::ladder::play_endgame(&start, &table, &bot, 7, i, |g, m| {
                if m.is_none() {
                    met.insert(throw_masks(g).unwrap());
                }
            });
        }
        assert!(met.len() > 30);
        assert!(met.iter().all(|k| seen.contains(k)));
        // And more: the positions one move on, which play did not reach.
        assert!(
            data.len() > 2 * met.len(),
            "{} of {}",
            data.len(),
            met.len()
        );
        // Another seed, other endgames.
        assert_ne!(data, played_endgames(&table, &bot, 30, 8).unwrap());
    }

    #[test]
    fn searched_positions_are_middle_game_positions_valued_by_the_analysers_search() {
        use senet_bots::analysis::{thrower_value, trainer};
        let rules = senet_rules::RuleSet::Kendall5;
        let bot: senet_bots::BotSpec = "greedy".parse().unwrap();
        let opt = SearchedOptions {
            play: bot,
            depth: 0,
            budget: None,
            games: 6,
            seed: 7,
            keep: 0.2,
            exclude: Default::default(),
        };
        let with = |f: &dyn Fn(&mut SearchedOptions)| {
            let mut o = opt.clone();
            f(&mut o);
            searched_positions(rules, &o)
        };
        let rows = searched_positions(rules, &opt).unwrap();
        assert_eq!(rows, searched_positions(rules, &opt).unwrap());
        // Excluded positions are never kept, whoever throws; the others are.
        let ex: std::collections::HashSet<(u32, u32)> =
            rows.iter().take(10).map(|r| (r.0, r.1)).collect();
        let kept = with(&|o| o.exclude = ex.clone()).unwrap();
        assert!(kept.len() < rows.len());
        assert!(kept.iter().all(|r| !ex.contains(&(r.0, r.1))));
        let left: Vec<_> = rows
            .iter()
            .filter(|r| !ex.contains(&(r.0, r.1)))
            .copied()
            .collect();
        assert_eq!(kept, left);
        assert_ne!(rows, with(&|o| o.seed = 8).unwrap());
        // About a fifth of six games' throws, and as many other moves' results.
        assert!(rows.len() > 60, "{} positions", rows.len());
        let start = senet_rules::AnyGame::new(rules, &[] as &[&str]).unwrap();
        let senet_rules::AnyGame::Kendall5(k) = start else {
            unreachable!()
        };
        let mut label = trainer(0, None);
        let mut seats = [0; 2];
        // Only what the main network values: a side with more than three on the board, or
        // more than four once the rule set has a four-piece endgame network.
        let end = if searched_net(rules).unwrap().end4.is_some() {
            END4_PIECES
        } else {
            END_PIECES
        };
        for &(own, opp, p, y) in &rows {
            assert!(own.count_ones().max(opp.count_ones()) > end);
            seats[p.index()] += 1;
            let men = if p == Player::First {
                [own, opp]
            } else {
                [opp, own]
            };
            let g = senet_rules::AnyGame::Kendall5(k.endgame(men, p).unwrap());
            let v = thrower_value(label.as_mut(), &g);
            assert!((v - y as f64).abs() < 1e-6, "{v} against {y}");
        }
        assert!(seats[0] > 10 && seats[1] > 10, "{seats:?}");
        // Deeper labels differ; a bad share is refused.
        let deeper = with(&|o| o.depth = 1).unwrap();
        assert_eq!(deeper.len(), rows.len());
        assert!(deeper.iter().zip(&rows).any(|(a, b)| a.3 != b.3));
        // A budget bounds the depth: one node a move completes no iteration past the first,
        // so a two-throw search within it values as the depth-0 one does.
        let bounded = with(&|o| {
            o.depth = 2;
            o.budget = Some(1);
        })
        .unwrap();
        assert_eq!(bounded, rows);
        assert!(with(&|o| o.budget = Some(0)).is_err());
        assert!(with(&|o| o.keep = 0.0).is_err());
        // The depth is bounded as the analysis bounds it (a library caller gets the error,
        // not a search of hours).
        let deep = senet_bots::analysis::MAX_DEPTH + 1;
        let err = with(&|o| o.depth = deep).unwrap_err();
        assert!(
            err.contains(&format!("depth must be 0-{}", deep - 1)),
            "{err}"
        );
        assert!(searched_positions(senet_rules::RuleSet::Pyramid, &opt).is_err());
    }

    /// Issue 34: the four-piece endgame network's data are the positions of the levels with a
    /// side of four (here, on a 2-piece table, of two), sampled with a seed, each with its exact
    /// value, never a held-out one; the export refuses what it cannot do, saying why.
    #[test]
    fn endgame_rows_sample_the_levels_with_a_side_of_the_most_pieces_and_leave_out_the_held_out() {
        let (table, _) = Table::build(senet_rules::RuleSet::Kendall5, 2, &mut |_| {}).unwrap();
        let levels = [(1, 2), (2, 1), (2, 2)];
        let mut all = Vec::new();
        for &(a, b) in &levels {
            table.for_each_state(a, b, |own, opp, _| all.push((own, opp)));
        }
        let exclude: std::collections::HashSet<(u32, u32)> =
            all.iter().copied().step_by(5).collect();
        let opt = EndgameExport {
            pieces: END4_PIECES,
            played: None,
            sample: Some(20_000),
            seed: 3,
            exclude: exclude.clone(),
        };
        let (rows, how) = endgame_rows(&table, &levels, &opt).unwrap();
        assert!(how.contains("a sample of the 164430 positions"), "{how}");
        // About 20,000 kept, less the fifth held out.
        assert!((15_000..17_000).contains(&rows.len()), "{}", rows.len());
        for &(own, opp, y) in &rows {
            assert!(own.count_ones().max(opp.count_ones()) == 2);
            assert!(!exclude.contains(&(own, opp)), "a held-out position");
            assert_eq!(table.side_to_throw(own, opp), Some(y as f64));
        }
        assert_eq!(rows, endgame_rows(&table, &levels, &opt).unwrap().0);
        let other = EndgameExport {
            seed: 4,
            ..opt.clone()
        };
        assert_ne!(rows, endgame_rows(&table, &levels, &other).unwrap().0);
        // Without a sample, every position of the levels but the held-out ones.
        let whole = EndgameExport {
            sample: None,
            ..opt.clone()
        };
        let (every, _) = endgame_rows(&table, &levels, &whole).unwrap();
        assert_eq!(every.len(), all.len() - exclude.len());
        // The export refuses a size with no network, and a 4-piece table whole.
        let dir = std::env::temp_dir().join(format!("senet-end4-{}", std::process::id()));
        let out = dir.join("x.data");
        let five = EndgameExport {
            pieces: 5,
            ..opt.clone()
        };
        let err = export_endgame_rules(table.rules(), Some(dir.clone()), &out, &five).unwrap_err();
        assert!(err.contains("3 or 4 pieces a side, not 5"), "{err}");
        let err = export_endgame_rules(table.rules(), Some(dir.clone()), &out, &whole).unwrap_err();
        assert!(err.contains("give --sample N or --played N"), "{err}");
        // And says how to build a table that is not there.
        let err = export_endgame_rules(table.rules(), Some(dir), &out, &opt).unwrap_err();
        assert!(err.contains("senet solve kendall5 --pieces 4"), "{err}");
        assert!(!out.exists());
    }

    #[test]
    fn exported_endgame_data_holds_the_networks_inputs_and_the_exact_values() {
        let (table, _) = Table::build(senet_rules::RuleSet::Kendall5, 2, &mut |_| {}).unwrap();
        let net = weights::KENDALL5_NET.clone();
        let mut buf = Vec::new();
        let n = export_endgame(&net, &table, &mut buf).unwrap() as usize;
        let head_end = buf.iter().position(|&b| b == b'\n').unwrap();
        let head = std::str::from_utf8(&buf[..head_end]).unwrap();
        assert_eq!(
            head,
            format!("senet-endgame-data/1 kendall5 NI={NI} SLOTS={EXPORT_SLOTS} N={n}")
        );
        let rec = EXPORT_SLOTS * 5 + 5;
        let body = &buf[head_end + 1..];
        assert_eq!(body.len(), n * rec);
        // The records in the order of the table's states, with the network's own inputs.
        let mut states = Vec::new();
        for a in 1..=2 {
            for b in 1..=2 {
                table.for_each_state(a, b, |own, opp, v| states.push((own, opp, v as f32)));
            }
        }
        assert_eq!(states.len(), n);
        let mut held = 0;
        for (i, r) in body.chunks(rec).enumerate().step_by(97) {
            let (own, opp, y) = states[i];
            let mut x = Vec::new();
            for k in 0..EXPORT_SLOTS {
                if r[k] != 255 {
                    let at = EXPORT_SLOTS + 4 * k;
                    x.push((r[k], f32::from_le_bytes(r[at..at + 4].try_into().unwrap())));
                }
            }
            assert_eq!(
                x.as_slice(),
                net.end_inputs([own, opp], Player::First).as_slice()
            );
            let at = EXPORT_SLOTS * 5;
            assert_eq!(f32::from_le_bytes(r[at..at + 4].try_into().unwrap()), y);
            assert_eq!(r[at + 4] == 1, held_out(i));
            held += r[at + 4] as usize;
        }
        assert!(held > 0);
    }

    /// A network that counts the positions the trainer values and fails on any the tables
    /// cover.
    #[derive(Clone)]
    struct Spy {
        net: NetEval,
        tables: Option<std::sync::Arc<senet_bots::exact::Tables>>,
        valued: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    }

    impl<G: TrackGame> Evaluator<G> for Spy {
        fn eval(&self, g: &G) -> f64 {
            self.net.eval(g)
        }
        fn name(&self) -> &'static str {
            "spy"
        }
    }

    impl<G: TrackGame> TdNet<G> for Spy {
        fn params_mut(&mut self) -> &mut [f32] {
            &mut self.net.p
        }
        fn mover_v(&self, g: &G, p: Player, grad: Option<(&mut [f32], f32)>) -> f32 {
            if let Some(t) = &self.tables {
                assert_eq!(
                    t.value(g),
                    None,
                    "a covered position was valued by the network"
                );
            }
            self.valued
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            TdNet::<G>::mover_v(&self.net, g, p, grad)
        }
    }

    /// Issue 18's targets at the edge of the tables: with tables, self-play games end at the
    /// first covered position (the network never values one) and its exact value is the last
    /// target, so training differs from training without them.
    #[test]
    fn exact_targets_end_self_play_games_at_the_tables() {
        let (table, _) = Table::build(senet_rules::RuleSet::Kendall5, 2, &mut |_| {}).unwrap();
        let tables = std::sync::Arc::new(senet_bots::exact::Tables::from_tables(vec![table]));
        use senet_rules::Kendall5;
        let start = Kendall5::start(&senet_rules::Options::defaults(Kendall5::option_specs()));
        let run = |tables: Option<std::sync::Arc<senet_bots::exact::Tables>>| {
            let spy = Spy {
                net: weights::KENDALL5_NET.clone(),
                tables: tables.clone(),
                valued: Default::default(),
            };
            let opt = TrainOptions {
                games: 60,
                tables,
                ..Default::default()
            };
            let out = td_train(&start, &spy, &opt);
            (
                out.net.p,
                spy.valued.load(std::sync::atomic::Ordering::Relaxed),
            )
        };
        let (with, n_with) = run(Some(tables));
        let (without, n_without) = run(None);
        assert!(
            n_with < n_without,
            "{n_with} vs {n_without} positions valued"
        );
        assert_ne!(with, without);
    }

    #[test]
    fn a_larger_endgame_network_is_read_from_its_header_and_evaluated_at_its_size() {
        let net = weights::KENDALL5_NET.clone();
        let mut rng = Pcg64Mcg::seed_from_u64(5);
        let p: Vec<f32> = (0..params_of(64))
            .map(|_| (rng.random::<f32>() - 0.5) * 0.2)
            .collect();
        let text = NetEval::params_text(net.spec, &p, "a test network");
        assert!(text.contains(" H=64 "));
        let back = NetEval::parse_end_params(net.spec, &text).unwrap();
        let mut with = net.clone();
        with.end = Some(back);
        assert_eq!(with.end_hidden(), Some(64));
        let end = [bit(20) | bit(25), bit(3) | bit(28)];
        let z = forward::<64>(&p, &net.inputs(end, Player::Second)).0;
        let v = with.mover_value(end, Player::Second);
        assert!((v - sigmoid(z as f64)).abs() < 1e-4, "{v} vs {z}");
        // A size that is not one of END_SIZES is refused with a message saying which are.
        let odd = NetEval::params_text(net.spec, &p[..params_of(48)], "odd");
        let e = NetEval::parse_end_params(net.spec, &odd).unwrap_err();
        assert!(e.contains("H=32, H=64, H=128, H=256, H=512"), "{e}");
        // The main network's file admits the main sizes only (128 and 512 are two, 48 is
        // not).
        for n in [128, 512] {
            let main = NetEval::params_text(net.spec, &vec![0.0; params_of(n)], "main");
            assert_eq!(
                NetEval::parse_params(net.spec, &main).unwrap().len(),
                params_of(n)
            );
        }
        let e = NetEval::parse_params(net.spec, &odd).unwrap_err();
        assert!(
            e.contains("H=16, H=32, H=64, H=128, H=256, H=512 hidden"),
            "{e}"
        );
    }

    #[test]
    fn endgame_training_fits_the_exact_values_and_the_endgame_network_values_endgames_only() {
        let (table, _) = Table::build(senet_rules::RuleSet::Kendall5, 2, &mut |_| {}).unwrap();
        let net = weights::KENDALL5_NET.clone();
        let opt = EndgameOptions {
            epochs: 2,
            ..Default::default()
        };
        let (p, before, after) = train_endgame(&net, &table, &opt, &|_| {});
        assert!(after.positions > 1000, "{after:?}");
        assert!(
            after.rms < before.rms * 0.8,
            "before {before:?}, after {after:?}"
        );
        // Seeded: the same options give the same network.
        assert_eq!(train_endgame(&net, &table, &opt, &|_| {}).0, p);
        let mut with = net.clone();
        with.end = Some(p);
        // An endgame is valued by the endgame network, anything else by the main one.
        let end = [bit(20) | bit(25), bit(3) | bit(28)];
        assert_ne!(
            with.mover_value(end, Player::First),
            net.mover_value(end, Player::First)
        );
        let mid = [bit(20) | bit(25) | bit(26) | bit(29), bit(3) | bit(28)];
        assert_eq!(
            with.mover_value(mid, Player::First),
            net.mover_value(mid, Player::First)
        );
    }
}
