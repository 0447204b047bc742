//! The bot commands: `bot`, `match`, `ladder` (regenerates `docs/bots.md`) and `train`.
//! They call `senet-bots` and `senet-coach`; this module only parses arguments and prints.

use crate::cli::move_json;
use clap::Subcommand;
use indicatif::{ProgressBar, ProgressStyle};
use senet_bots::BotSpec;
use senet_coach::duel::{
    run_match_with_luck, run_series_match, MatchConfig, MatchResult, SeriesMatchResult,
};
use senet_coach::ladder::{self, LadderConfig};
use senet_rules::Notation;
use senet_rules::Target;
use senet_rules::{AnyGame, Error, Game, RuleSet, Status, Throw};
use serde_json::{json, Value};
use std::io::IsTerminal;
use std::time::Instant;

/// The bot subcommands (flattened into the main command list).
#[derive(Subcommand, Debug)]
pub enum BotCommand {
    /// Let a bot choose a move: JSON with the move, a score for every legal move, nodes
    /// searched and time taken.
    Bot {
        /// A position string (quote it).
        position: String,
        /// The bot: random, greedy, expectimax:N, mcts:N, beginner, casual, strong, expert.
        #[arg(long, default_value = "strong")]
        bot: String,
        /// The throw, when the position has none pending (e.g. 4, or 3-5 for two dice).
        #[arg(long = "throw", short = 't')]
        throw: Option<String>,
        /// Seed of the bot's own randomness (the random bot, mcts): the same seed gives the
        /// same choice. Without it each call draws a fresh seed (below 2^53); the JSON says
        /// which.
        #[arg(long)]
        seed: Option<u64>,
        /// Play mode: only the chosen move's score is exact, the others are upper bounds
        /// (faster; what `senet match` uses).
        #[arg(long)]
        fast: bool,
    },
    /// Play duplicate pairs of games between two bots (same throws, seats swapped) and
    /// report A's win rate with a 95% confidence interval.
    Match {
        /// Rule set ID.
        #[arg(long)]
        rules: String,
        /// An option of the rule set as NAME=VALUE (repeatable).
        #[arg(long = "option", short = 'o', value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// Bot A.
        #[arg(long)]
        a: String,
        /// Bot B.
        #[arg(long)]
        b: String,
        /// Number of pairs (two games each).
        #[arg(long, default_value_t = 100)]
        pairs: u32,
        /// Seed of the throws; the same seed gives the same games.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Worker threads (default: one per core).
        #[arg(long, default_value_t = 0)]
        threads: usize,
        /// Play duplicate pairs of series to N points (games won where the rule set does not
        /// score) instead of pairs of games; reports series won and points.
        #[arg(long, value_name = "N", conflicts_with = "series_games")]
        series: Option<u32>,
        /// Play duplicate pairs of series of exactly N games.
        #[arg(long, value_name = "N")]
        series_games: Option<u32>,
        /// Also report A's score with every throw's luck taken out, each throw valued by
        /// this search bot (e.g. expectimax:1): the same mean, a narrower interval.
        #[arg(long, value_name = "JUDGE", conflicts_with_all = ["series", "series_games"])]
        luck: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Run the bot ladder on every rule set and write docs/bots.md.
    Ladder {
        /// Pairs per match.
        #[arg(long, default_value_t = 1000)]
        pairs: u32,
        /// Where to write the document (- for standard output; default docs/bots.md, with
        /// --levels docs/levels.md).
        #[arg(long)]
        out: Option<String>,
        /// Rule sets (comma-separated IDs; default: all).
        #[arg(long)]
        rules: Option<String>,
        /// Seed of every match.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Worker threads for the matches (default: one per core).
        #[arg(long, default_value_t = 0)]
        threads: usize,
        /// Positions for the one-thread timings.
        #[arg(long, default_value_t = 400)]
        timing_positions: usize,
        /// Pairs of the extra matches (MCTS, evaluators compared; default: --pairs), at most
        /// the rule set's pairs.
        #[arg(long)]
        extra_pairs: Option<u32>,
        /// Pairs per match for one rule set, as RULES=N (repeatable), e.g. pyramid=150 where
        /// the deep searches are slow.
        #[arg(long = "pairs-for", value_name = "RULES=N")]
        pairs_for: Vec<String>,
        /// Also measure each level's win chance lost per decision against the exact tables
        /// (docs/solve.md) on N endgames per rule set (kendall, kendall5, senat, houses).
        #[arg(long, default_value_t = 0, value_name = "N")]
        errors: usize,
        /// Measure only the error rates (with --errors N) and print their table; no matches.
        #[arg(long)]
        errors_only: bool,
        /// The bots whose error rates --errors measures (comma-separated; default: random,
        /// the levels, expectimax:3 and expectimax:5:400000).
        #[arg(long)]
        error_bots: Option<String>,
        /// Run the ladder of the levels (random < beginner < casual < strong < expert)
        /// instead of the bots' (random < greedy < expectimax:1..3), with no extra matches;
        /// its document is docs/levels.md.
        #[arg(long)]
        levels: bool,
        /// Measure the bots and the analysis on held-out exact test sets (files of `senet
        /// exactset`, comma-separated) and print their tables: per bot and tag, decisions,
        /// mean loss, error rate and worst loss, the table-reading bots with the tables cut
        /// to one piece fewer than the set's (as they were; or as they are, where they hold
        /// fewer) and whole (when the tables hold the set's pieces); no matches.
        #[arg(long, value_name = "SETS", conflicts_with_all = ["errors_only", "levels"])]
        exact: Option<String>,
        /// With --exact: the bots (comma-separated; default the levels).
        #[arg(long, requires = "exact")]
        exact_bots: Option<String>,
        /// With --exact: leave the analysis out.
        #[arg(long, requires = "exact")]
        no_analysis: bool,
        /// With --exact: where the tables are (default as for `senet solve`).
        #[arg(long, requires = "exact")]
        dir: Option<std::path::PathBuf>,
        /// With --exact: print JSON instead of Markdown (with --out FILE, the Markdown goes
        /// to FILE and the JSON to standard output).
        #[arg(long, requires = "exact")]
        json: bool,
    },
    /// Make a held-out exact test set: decisions (two or more legal moves) with exactly
    /// --pieces pieces of each side on the board, from games of --player against itself and
    /// of it exploring (a random move a third of the time), each with every legal move's
    /// exact value from the tables (which must hold --pieces pieces per side) and its tags
    /// (water, water-best, backward, blockade, bear-off, near-tie, typical). Writes JSON
    /// Lines for `senet ladder --exact`.
    Exactset {
        /// Rule set: kendall, kendall5, senat or houses (default options).
        rules: String,
        /// Pieces of each side on the board (default: the table's).
        #[arg(long)]
        pieces: Option<usize>,
        /// Decisions in the set.
        #[arg(long, default_value_t = 1000)]
        decisions: usize,
        /// The player of the games.
        #[arg(long, default_value = "expert")]
        player: String,
        /// Seed of the games.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Where the tables are (default as for `senet solve`).
        #[arg(long)]
        dir: Option<std::path::PathBuf>,
        /// The file to write (- for standard output).
        #[arg(long, short = 'o')]
        out: String,
    },
    /// Fitted value iteration over the middle game (issue 55): sample a pool of the main
    /// network's positions, back them up one throw deep for training, or measure the
    /// networks' Bellman residual on a held-out pool (docs/bots.md; scripts/fvi_round.sh).
    Fvi {
        #[command(subcommand)]
        cmd: FviCommand,
    },
    /// Time bots per move on one thread over many positions (seeded greedy and random
    /// self-play, plus every opening): median, 99th percentile and slowest move.
    Botspeed {
        /// Rule sets (comma-separated IDs; default: all).
        #[arg(long)]
        rules: Option<String>,
        /// Bots (comma-separated).
        #[arg(long, default_value = "beginner,casual,strong,expert")]
        bots: String,
        /// Self-play positions per rule set (the openings are added).
        #[arg(long, default_value_t = 10_000)]
        positions: usize,
        /// Seed of the self-play games.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Train an evaluator: a track rule set's linear weights (printed as Rust source) or a network
    /// (--net, printed as its weights file) by TD(λ) self-play, an endgame network on the exact
    /// tables (--endgame), or export training data for scripts/train_endgame.py (--export).
    Train {
        /// Rule set ID: a track rule set (kendall, kendall5, senat, houses), or with --net also
        /// pyramid or parker.
        #[arg(long)]
        rules: String,
        /// Self-play games.
        #[arg(long, default_value_t = 100_000)]
        games: u32,
        /// Seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Start from the tuned weights instead of the hand-set ones (with --net: from the
        /// network in use instead of the linear evaluator, or on pyramid and parker the
        /// hand-set one).
        #[arg(long)]
        resume: bool,
        /// Train the network evaluator and print its weights file (for
        /// crates/senet-bots/src/nets/RULES.txt) instead of the linear weights.
        #[arg(long)]
        net: bool,
        /// Learning rate at the start (it decays linearly to a tenth).
        #[arg(long)]
        alpha: Option<f64>,
        /// Train the endgame network on the exact values of the 3-piece tables (build them
        /// first with `senet solve RULES --pieces 3`) and print its weights file (for
        /// crates/senet-bots/src/nets/RULES-end.txt).
        #[arg(long)]
        endgame: bool,
        /// Passes over the table's positions (with --endgame).
        #[arg(long, default_value_t = 20)]
        epochs: u32,
        /// With --net on a stick rule set: end each self-play game where the exact tables
        /// cover it, with the exact value as the last target (the tables from --dir or the
        /// default directory, else the 2-piece ones built in memory).
        #[arg(long, requires = "net")]
        exact: bool,
        /// With --net on a track rule set, without --resume: hidden units of the fresh
        /// network (16, 32, 64, 128, 256 or 512; a resumed network keeps its size).
        #[arg(long, requires = "net", conflicts_with = "resume")]
        hidden: Option<usize>,
        /// Where the tables are (with --endgame or --exact; default as for `senet solve`).
        #[arg(long)]
        dir: Option<std::path::PathBuf>,
        /// With --endgame: instead of training, write the training data (the network's
        /// inputs and the exact values of every position) to FILE, for
        /// scripts/train_endgame.py. With --net and --searched: the middle-game positions
        /// of --searched.
        #[arg(long, value_name = "FILE")]
        export: Option<std::path::PathBuf>,
        /// With --export: write instead the positions met in N endgames played as `senet
        /// ladder --errors` plays them (greedy until the tables cover the game, then --bot for
        /// both sides; use a --seed the measurement does not) and every position one throw
        /// and one move on from those: for scripts/train_endgame.py --extra.
        #[arg(long, value_name = "N", requires = "export")]
        played: Option<u64>,
        /// With --net and --export: write the positions met in N self-play games of --bot
        /// (the ones the main network values, each kept with chance --keep, and as often
        /// another move's result), each valued by the analysis's search at --depth (the
        /// expert's evaluator and tables: set SENET_NETS and SENET_TABLES), for
        /// scripts/train_endgame.py to train a main network on.
        #[arg(long, value_name = "N", requires = "export", requires = "net")]
        searched: Option<u64>,
        /// The search depth of --searched's values.
        #[arg(long, default_value_t = 1, requires = "searched")]
        depth: u32,
        /// A node budget for each move of --searched's search: iterative deepening up to
        /// --depth, keeping the deepest iteration that completed (as expectimax:D:NODES).
        #[arg(long, value_name = "NODES", requires = "searched")]
        budget: Option<u64>,
        /// The share of positions --searched keeps.
        #[arg(long, default_value_t = 0.25, requires = "searched")]
        keep: f64,
        /// With --export: never write a position of these held-out exact test sets (`senet
        /// exactset`): their decisions' positions and what their moves lead to.
        #[arg(long, value_name = "SET", requires = "export")]
        exclude: Vec<std::path::PathBuf>,
        /// With --endgame --export: the network the data is for: 3, the endgame network
        /// (every position of the 3-piece table), or 4, the four-piece endgame network
        /// (nets/RULES-end4.txt: positions of the 4-piece table with four pieces of a side on
        /// the board; give --sample or --played).
        #[arg(long, default_value_t = 3, requires = "export")]
        pieces: u32,
        /// With --endgame --export: a sample of about N of the table's positions (seeded by
        /// --seed) instead of every one; with --played, both.
        #[arg(long, value_name = "N", requires = "export")]
        sample: Option<u64>,
        /// The bot that plays the endgames of --played or the games of --searched.
        #[arg(long, default_value = "expectimax:2")]
        bot: String,
    },
}

/// `senet fvi` subcommands.
#[derive(Subcommand, Debug)]
pub enum FviCommand {
    /// Write a pool of the main network's positions (awaiting a throw) met in self-play
    /// games of --bot, a random move at a share --explore of the decisions, and at each
    /// decision a random other move's result; each position met is kept with chance --keep.
    Sample {
        /// Rule set: kendall, kendall5, senat or houses.
        #[arg(long)]
        rules: String,
        /// Self-play games.
        #[arg(long, default_value_t = 1000)]
        games: u64,
        /// Seed of the games (a held-out pool and a training pool need different seeds).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The share of positions kept.
        #[arg(long, default_value_t = 0.25)]
        keep: f64,
        /// The share of decisions made by a uniformly random move.
        #[arg(long, default_value_t = 0.2)]
        explore: f64,
        /// Keep each position once, the first time it is met (for a held-out pool).
        #[arg(long)]
        distinct: bool,
        /// Keep also the positions of the four-piece network's levels (at most four pieces a
        /// side, more than three), trained on that network's values: the main network values
        /// them in a search from five pieces, so this anchors it there.
        #[arg(long)]
        boundary: bool,
        /// The bot of the games.
        #[arg(long, default_value = "expectimax:1")]
        bot: String,
        /// Pools whose positions are never kept (a held-out pool: pass it when sampling a
        /// training pool).
        #[arg(long, value_name = "POOL")]
        exclude: Vec<std::path::PathBuf>,
        /// The file to write.
        #[arg(long, short = 'o')]
        out: std::path::PathBuf,
    },
    /// Write the λ-returns of self-play games of --bot (a random move at a share --explore of
    /// the decisions) at the main network's positions, each kept with chance --keep, for
    /// scripts/train_endgame.py --main: G = (1 - λ) B(next) + λ G(next), B the one-throw
    /// backup of the networks and tables in use, the result after the last position; a random
    /// move, or a position with at most three pieces a side on the board, stops it (G = B there).
    Returns {
        /// Rule set: kendall, kendall5, senat or houses.
        #[arg(long)]
        rules: String,
        /// Self-play games.
        #[arg(long, default_value_t = 1000)]
        games: u64,
        /// Seed of the games.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The share of positions kept.
        #[arg(long, default_value_t = 0.5)]
        keep: f64,
        /// The share of decisions made by a uniformly random move.
        #[arg(long, default_value_t = 0.2)]
        explore: f64,
        /// λ, in [0, 1]: 0 the next position's backup, 1 the game's result.
        #[arg(long, default_value_t = 0.8)]
        lambda: f64,
        /// The bot of the games.
        #[arg(long, default_value = "expectimax:1")]
        bot: String,
        /// Pools whose positions are never kept (a held-out pool).
        #[arg(long, value_name = "POOL")]
        exclude: Vec<std::path::PathBuf>,
        /// The data file to write.
        #[arg(long)]
        export: std::path::PathBuf,
    },
    /// Back up every position of a pool one throw deep with the networks and tables in use
    /// (SENET_NETS, SENET_TABLES) and write them with those targets for
    /// scripts/train_endgame.py --main.
    Backup {
        /// The pool (`senet fvi sample`).
        pool: std::path::PathBuf,
        /// The data file to write.
        #[arg(long)]
        export: std::path::PathBuf,
        /// Back up K throws deep instead (T^K(V): every move searched K - 1 throws deep).
        #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=5))]
        throws: u32,
        /// Over-relax the main network's targets: V + W (T^K(V) - V) instead of T^K(V), W
        /// above 0 and at most 4 (1: the backups themselves). The slowest error of the
        /// iteration, a value level the backups correct only as fast as the endgame's exact
        /// values travel back, shrinks about W times as fast (docs/bots.md).
        #[arg(long, value_name = "W", default_value_t = 1.0)]
        relax: f64,
    },
    /// The water decisions of a pool (a piece of the side to throw on 26, a throw of 1, two
    /// or more moves, one into the water): how often the network's values (0 throws deep),
    /// one throw deeper and --deep throws deeper take the water, what the shallow choices
    /// lose by the deepest's values, and the Bellman residual at the water's results.
    Water {
        /// The pool (`senet fvi sample`).
        pool: std::path::PathBuf,
        /// Throws of the reference search (at most the analysis's deepest).
        #[arg(long, default_value_t = 3)]
        deep: u32,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// The Bellman residual |V - T(V)| of the networks in use on a pool: mean, 99th
    /// percentile, largest, bias.
    Residual {
        /// The pool (`senet fvi sample`), one training never saw.
        pool: std::path::PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// The positions of the pools `paths` of the rule set `r`, never to be kept.
fn excluded(
    r: RuleSet,
    paths: &[std::path::PathBuf],
) -> Result<std::collections::HashSet<(u32, u32)>, Error> {
    let mut held = std::collections::HashSet::new();
    for p in paths {
        let pool = senet_coach::fvi::Pool::read(p).map_err(bad)?;
        if pool.rules != r {
            return Err(bad(format!(
                "{} is a pool of {}, not of {r}",
                p.display(),
                pool.rules
            )));
        }
        held.extend(pool.keys());
    }
    Ok(held)
}

/// Runs `senet fvi`.
fn fvi(cmd: FviCommand) -> Result<String, Error> {
    use senet_coach::fvi::{self, Pool, SampleOptions};
    match cmd {
        FviCommand::Sample {
            rules,
            games,
            seed,
            keep,
            explore,
            distinct,
            boundary,
            bot,
            exclude,
            out,
        } => {
            let r: RuleSet = rules.parse()?;
            let held = excluded(r, &exclude)?;
            let opt = SampleOptions {
                play: spec(&bot)?,
                games,
                seed,
                keep,
                explore,
                boundary,
                distinct,
                exclude: held,
            };
            let t = Instant::now();
            let games_kept = fvi::sample(r, &opt).map_err(bad)?;
            let pool = Pool {
                rules: r,
                about: format!(
                    "games={games} seed={seed} keep={keep} explore={explore} bot={bot}{}{}{}",
                    if distinct { " distinct" } else { "" },
                    if boundary { " boundary" } else { "" },
                    if exclude.is_empty() {
                        String::new()
                    } else {
                        format!(" excluding={}", exclude.len())
                    }
                ),
                games: games_kept,
            };
            std::fs::write(&out, pool.to_text())
                .map_err(|e| bad(format!("cannot write {}: {e}", out.display())))?;
            Ok(format!(
                "{} positions of {r} from {games} games written to {} ({:.0} s)\n",
                pool.games.len(),
                out.display(),
                t.elapsed().as_secs_f64()
            ))
        }
        FviCommand::Returns {
            rules,
            games,
            seed,
            keep,
            explore,
            lambda,
            bot,
            exclude,
            export,
        } => {
            let r: RuleSet = rules.parse()?;
            let opt = SampleOptions {
                play: spec(&bot)?,
                games,
                seed,
                keep,
                explore,
                boundary: false,
                distinct: false,
                exclude: excluded(r, &exclude)?,
            };
            fvi::export_returns(r, &opt, lambda, &export).map_err(bad)
        }
        FviCommand::Backup {
            pool,
            export,
            throws,
            relax,
        } => {
            let pool = Pool::read(&pool).map_err(bad)?;
            fvi::export_backups(&pool, &export, throws, relax).map_err(bad)
        }
        FviCommand::Water { pool, deep, json } => {
            if deep > senet_bots::analysis::MAX_DEPTH {
                return Err(bad(format!(
                    "--deep must be 0-{}, got {deep}",
                    senet_bots::analysis::MAX_DEPTH
                )));
            }
            let pool = Pool::read(&pool).map_err(bad)?;
            let w = fvi::water(&pool.games, deep);
            if json {
                return Ok(serde_json::to_string(&w).expect("a study serialises") + "\n");
            }
            let pct = |k: usize| 100.0 * k as f64 / w.decisions.max(1) as f64;
            Ok(format!(
                "{}: {} water decisions; the water is best at 0, 1 and {deep} throws deep in {:.1}%, {:.1}%, {:.1}%; the 0- and 1-throw choices agree with the {deep}-throw one in {:.1}% and {:.1}% and lose {:.5} and {:.5} by its values; the water's margin over the best other move {:+.5}; at the water's results V - T(V) {:+.5} (|V - T(V)| {:.5}), at the other moves' {:+.5} ({:.5})\n",
                pool.rules,
                w.decisions,
                pct(w.water_best[0]),
                pct(w.water_best[1]),
                pct(w.water_best[2]),
                pct(w.agree_deep[0]),
                pct(w.agree_deep[1]),
                w.loss[0],
                w.loss[1],
                w.margin,
                w.bias[0],
                w.residual[0],
                w.bias[1],
                w.residual[1],
            ))
        }
        FviCommand::Residual { pool, json } => {
            let pool = Pool::read(&pool).map_err(bad)?;
            let r = fvi::residual(pool.rules, &pool.games).map_err(bad)?;
            if json {
                return Ok(serde_json::to_string(&r).expect("a residual serialises") + "\n");
            }
            Ok(format!(
                "{}: {} positions, Bellman residual |V - T(V)|: mean {:.5}, 99th percentile {:.5}, largest {:.5}; bias V - T(V) {:+.5}; mean backed-up value {:.4}\n",
                pool.rules, r.n, r.mean, r.p99, r.max, r.bias, r.mean_backup
            ))
        }
    }
}

fn bad(msg: String) -> Error {
    Error::Options(msg)
}

fn spec(name: &str) -> Result<BotSpec, Error> {
    name.parse::<BotSpec>().map_err(bad)
}

/// Runs a bot subcommand; returns what to print.
pub fn dispatch(cmd: BotCommand) -> Result<String, Error> {
    match cmd {
        BotCommand::Bot {
            position,
            bot,
            throw,
            seed,
            fast,
        } => bot_cmd(&position, &bot, throw.as_deref(), seed, !fast),
        BotCommand::Match {
            rules,
            options,
            a,
            b,
            pairs,
            seed,
            threads,
            series,
            series_games,
            luck,
            json,
        } => {
            let r: RuleSet = rules.parse()?;
            let cfg = MatchConfig {
                start: AnyGame::new(r, &options)?,
                a: spec(&a)?,
                b: spec(&b)?,
                pairs,
                seed,
                threads,
            };
            let target = match (series, series_games) {
                (Some(n), _) => Some(Target::Points(n)),
                (_, Some(n)) => Some(Target::Games(n)),
                _ => None,
            };
            if let Some(t) = target {
                let bar = progress_bar(pairs as u64, &format!("{a} vs {b}, series {t}"));
                let res = run_series_match(&cfg, t, &|| bar.inc(1)).map_err(bad)?;
                bar.finish_and_clear();
                return Ok(if json {
                    serde_json::to_string_pretty(&series_json(&res)).expect("json")
                } else {
                    series_text(&res)
                });
            }
            let judge = luck.as_deref().map(spec).transpose()?;
            let bar = progress_bar(pairs as u64, &format!("{a} vs {b}"));
            let res = run_match_with_luck(&cfg, judge.as_ref(), &|| bar.inc(1)).map_err(bad)?;
            bar.finish_and_clear();
            Ok(if json {
                serde_json::to_string_pretty(&match_json(&res)).expect("json")
            } else {
                match_text(&res)
            })
        }
        BotCommand::Ladder {
            pairs,
            out,
            rules,
            seed,
            threads,
            timing_positions,
            extra_pairs,
            pairs_for,
            errors,
            errors_only,
            error_bots,
            levels,
            exact,
            exact_bots,
            no_analysis,
            dir,
            json,
        } => {
            if let Some(sets) = exact {
                let (md, js) = exact_sets(&sets, exact_bots.as_deref(), !no_analysis, dir)?;
                // --out takes the Markdown; --json prints the JSON (with --out as well).
                return match out {
                    Some(path) if path != "-" => {
                        std::fs::write(&path, &md)
                            .map_err(|e| bad(format!("cannot write {path}: {e}")))?;
                        Ok(if json { js } else { format!("wrote {path}") })
                    }
                    _ => Ok(if json { js } else { md }),
                };
            }
            let pairs_for = pairs_for
                .iter()
                .map(|p| {
                    let (r, n) = p.split_once('=').ok_or_else(|| {
                        bad(format!(
                            "--pairs-for takes RULES=N, like pyramid=150; got {p:?}"
                        ))
                    })?;
                    let n: u32 = n.parse().map_err(|_| {
                        bad(format!("--pairs-for {p:?}: {n:?} is not a number of pairs"))
                    })?;
                    Ok((r.parse::<RuleSet>()?, n))
                })
                .collect::<Result<Vec<_>, Error>>()?;
            let rules_arg = rules
                .as_deref()
                .map_or(String::new(), |r| format!(" --rules {r}"));
            let rules = match rules {
                None => RuleSet::ALL.to_vec(),
                Some(list) => list
                    .split(',')
                    .map(|r| r.trim().parse())
                    .collect::<Result<Vec<RuleSet>, Error>>()?,
            };
            let steps: &[&str] = if levels {
                &ladder::LEVELS
            } else {
                &ladder::LADDER
            };
            let cfg = LadderConfig {
                steps: steps.iter().map(|s| s.to_string()).collect(),
                rules,
                pairs,
                pairs_for: pairs_for.clone(),
                seed,
                threads,
                timing_positions,
                extra: ladder::EXTRA
                    .iter()
                    .filter(|_| !levels)
                    .map(|(a, b)| (a.to_string(), b.to_string()))
                    .collect(),
                extra_timed: ladder::EXTRA_TIMED
                    .iter()
                    .filter(|_| !levels)
                    .map(|s| s.to_string())
                    .collect(),
                extra_pairs: extra_pairs.unwrap_or(pairs),
            };
            let extra: String = pairs_for
                .iter()
                .map(|(r, n)| format!(" --pairs-for {r}={n}"))
                .collect();
            let extra_arg = extra_pairs.map_or(String::new(), |n| format!(" --extra-pairs {n}"));
            let out = out.unwrap_or_else(|| {
                if levels {
                    "docs/levels.md"
                } else {
                    "docs/bots.md"
                }
                .to_string()
            });
            let levels_arg = if levels { " --levels" } else { "" };
            let command = format!(
                "senet ladder{levels_arg}{rules_arg} --pairs {pairs}{extra_arg}{extra} --seed {seed} --timing-positions {timing_positions}"
            );
            let errors_md = if errors > 0 || errors_only {
                exact_errors(&cfg.rules, errors, seed, error_bots.as_deref())?
            } else {
                String::new()
            };
            if errors_only {
                return Ok(errors_md);
            }
            let bar = progress_bar(pairs as u64, "");
            // The document is rewritten after each rule set, so a long run keeps what it has
            // measured.
            let write = |res: &[ladder::RuleLadder]| -> Result<(), Error> {
                if out != "-" {
                    let doc = ladder::document(&cfg, res, &command) + &errors_md;
                    std::fs::write(&out, &doc)
                        .map_err(|e| bad(format!("cannot write {out}: {e}")))?;
                }
                Ok(())
            };
            let failed = std::cell::RefCell::new(None);
            let res = ladder::run_ladder(
                &cfg,
                &|r, a, b| {
                    bar.reset();
                    bar.set_message(format!("{r}: {a} vs {b}"));
                },
                &|| bar.inc(1),
                &|res| {
                    if let Err(e) = write(res) {
                        failed.borrow_mut().get_or_insert(e);
                    }
                },
            )
            .map_err(bad)?;
            bar.finish_and_clear();
            if let Some(e) = failed.into_inner() {
                return Err(e);
            }
            if out == "-" {
                Ok(ladder::document(&cfg, &res, &command) + &errors_md)
            } else {
                Ok(ladder::markdown(&cfg, &res) + &errors_md)
            }
        }
        BotCommand::Exactset {
            rules,
            pieces,
            decisions,
            player,
            seed,
            dir,
            out,
        } => exactset(&rules, pieces, decisions, &player, seed, dir, &out),
        BotCommand::Fvi { cmd } => fvi(cmd),
        BotCommand::Botspeed {
            rules,
            bots,
            positions,
            seed,
            json,
        } => botspeed(rules.as_deref(), &bots, positions, seed, json),
        BotCommand::Train {
            rules,
            games,
            seed,
            resume,
            net,
            alpha,
            endgame,
            epochs,
            exact,
            hidden,
            dir,
            export,
            played,
            searched,
            depth,
            budget,
            keep,
            exclude,
            pieces,
            sample,
            bot,
        } => {
            let r: RuleSet = rules.parse()?;
            if let Some(path) = export {
                let b = spec(&bot)?;
                let mut held = std::collections::HashSet::new();
                for p in &exclude {
                    let set = senet_coach::exactset::ExactSet::read(p).map_err(bad)?;
                    if set.rules != r {
                        return Err(bad(format!(
                            "{} is a set of {}, not of {r}",
                            p.display(),
                            set.rules
                        )));
                    }
                    held.extend(senet_coach::train::held_out_positions(&set));
                }
                if let Some(games) = searched {
                    let opt = senet_coach::train::SearchedOptions {
                        play: b,
                        depth,
                        budget,
                        games,
                        seed,
                        keep,
                        exclude: held,
                    };
                    return senet_coach::train::export_searched_rules(r, &opt, &path).map_err(bad);
                }
                if !endgame {
                    return Err(bad(
                        "--export needs --endgame (the exact tables' positions) or --net --searched N (middle-game positions valued by search)".into(),
                    ));
                }
                let opt = senet_coach::train::EndgameExport {
                    pieces,
                    played: played.map(|n| (n, b, seed)),
                    sample,
                    seed,
                    exclude: held,
                };
                return senet_coach::train::export_endgame_rules(r, dir, &path, &opt).map_err(bad);
            }
            if let Some(a) = alpha.filter(|a| !(*a > 0.0 && *a < 1.0)) {
                return Err(bad(format!("--alpha must lie between 0 and 1, got {a}")));
            }
            if endgame {
                let mut opt = senet_coach::train::EndgameOptions {
                    epochs,
                    seed,
                    ..Default::default()
                };
                opt.alpha = alpha.unwrap_or(opt.alpha);
                let bar = progress_bar(epochs as u64, "epochs");
                let out = senet_coach::train::train_endgame_rules(r, &opt, dir, &|e| {
                    bar.set_position(e as u64)
                })
                .map_err(bad);
                bar.finish_and_clear();
                return out;
            }
            let mut opt = senet_coach::train::TrainOptions {
                games,
                seed,
                ..Default::default()
            };
            opt.alpha = alpha.unwrap_or(opt.alpha);
            if let Some(h) = hidden {
                if matches!(r, RuleSet::Pyramid | RuleSet::Parker) {
                    return Err(bad(format!(
                        "--hidden: {r}'s network has one size (--hidden is for the track rule sets)"
                    )));
                }
                if !senet_bots::net::MAIN_SIZES.contains(&h) {
                    return Err(bad(format!(
                        "--hidden must be one of {:?}, got {h}",
                        senet_bots::net::MAIN_SIZES
                    )));
                }
                opt.hidden = h;
            }
            if exact {
                if !senet_bots::exact::RULE_SETS.contains(&r) {
                    return Err(bad(format!(
                        "--exact: {r} has no exact tables (kendall, kendall5, senat and houses have)"
                    )));
                }
                let dir = dir.or_else(senet_bots::exact::default_dir);
                let tables = senet_bots::exact::Tables::new(dir, senet_bots::exact::BUILTIN_PIECES);
                opt.tables = Some(std::sync::Arc::new(tables));
            }
            if net {
                senet_coach::train::train_net_rules(r, &opt, resume).map_err(bad)
            } else {
                senet_coach::train::train_rules(r, &opt, resume).map_err(bad)
            }
        }
    }
}

fn botspeed(
    rules: Option<&str>,
    bots: &str,
    n: usize,
    seed: u64,
    json: bool,
) -> Result<String, Error> {
    let rule_sets: Vec<RuleSet> = match rules {
        None => RuleSet::ALL.to_vec(),
        Some(list) => list
            .split(',')
            .map(|r| r.trim().parse())
            .collect::<Result<_, _>>()?,
    };
    let specs: Vec<BotSpec> = bots
        .split(',')
        .map(|b| spec(b.trim()))
        .collect::<Result<_, _>>()?;
    let mut rows = Vec::new();
    let clock = senet_coach::duel::timer_cost();
    let lanes = senet_bots::simd::lanes();
    let simd = if lanes == 8 { "AVX2" } else { "baseline" };
    let mut text = format!(
        "# Time per move of the bots\n\nWritten by `senet botspeed --positions {n} --seed {seed} \
         --bots {bots}`. Thread CPU time per move in play mode, on one thread, over {n} seeded \
         self-play positions per rule set (half `greedy` games, half random games) plus every \
         opening position with every throw, net of the clock's own cost ({clock:.3} µs, the \
         median of 1,001 empty intervals, subtracted from each move); the networks' passes \
         {lanes} hidden units to a vector register ({simd}).\n\n| rule set | bot | positions | median ms | p99 ms | max ms | \
         mean nodes | max nodes |\n|---|---|---|---|---|---|---|---|\n"
    );
    for r in rule_sets {
        let start = AnyGame::new(r, &[] as &[&str])?;
        let mut ps = senet_coach::speed::positions(&start, n, seed, 3);
        ps.extend(senet_coach::speed::openings(&start));
        for s in &specs {
            let bar = progress_bar(0, &format!("{r} {s}"));
            let mut b = s.build();
            let sp = senet_coach::speed::measure(b.as_mut(), &ps);
            bar.finish_and_clear();
            text.push_str(&format!(
                "| {r} | {} | {} | {:.3} | {:.2} | {:.1} | {:.0} | {} |\n",
                sp.bot,
                sp.positions,
                sp.median_ms,
                sp.p99_ms,
                sp.max_ms,
                sp.mean_nodes,
                sp.max_nodes
            ));
            rows.push(json!({
                "rules": r.id(), "bot": sp.bot, "positions": sp.positions,
                "median_ms": sp.median_ms, "p99_ms": sp.p99_ms, "max_ms": sp.max_ms,
                "slowest": sp.slowest, "mean_nodes": sp.mean_nodes, "max_nodes": sp.max_nodes,
            }));
        }
    }
    if json {
        return Ok(serde_json::to_string_pretty(&rows).expect("json"));
    }
    Ok(text)
}

/// A progress bar on standard error when it is a terminal, hidden otherwise.
fn progress_bar(len: u64, msg: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} pairs, {elapsed} (eta {eta})")
            .expect("template")
            .progress_chars("=> "),
    );
    bar.set_message(msg.to_string());
    bar
}

fn bot_cmd(
    position: &str,
    bot: &str,
    throw: Option<&str>,
    seed: Option<u64>,
    exact: bool,
) -> Result<String, Error> {
    // A fresh seed per call unless one is given (issue 36: the fixed seed 0 made the random
    // bot pick the same move index every time); the JSON says which, to repeat the choice.
    // Below 2^53, so that every JSON reader (JavaScript's numbers too) keeps it exact.
    let seed = seed.unwrap_or_else(|| rand::random::<u64>() >> 11);
    let mut g: AnyGame = position.parse()?;
    match (g.status(), throw) {
        (Status::Throw(_), Some(t)) => g.set_throw(Throw::parse(t)?)?,
        (Status::Throw(p), None) => {
            return Err(Error::Throw(format!(
                "player {p} must throw first: give --throw (possible throws: {})",
                g.throw_dist().describe()
            )))
        }
        (Status::Move(_), Some(t)) => {
            return Err(Error::Throw(format!(
                "the position already holds {}; --throw {t} is not needed",
                g.hand_text().unwrap_or_else(|| "a throw".into())
            )))
        }
        (Status::Move(_), None) => {}
        (Status::Over(_), _) => return Err(Error::GameOver),
    }
    let s = spec(bot)?;
    let mut b = s.build();
    let t0 = Instant::now();
    let c = b.choose_with(&g, seed, exact);
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    let scores: Vec<Value> = c
        .scores
        .iter()
        .map(|&(m, v)| {
            let mut h = g;
            let e = h.play_unchecked(m);
            let mut j = move_json(&g, m, e, &h);
            j["score"] = json!((v * 1e6).round() / 1e6);
            if !c.exact && m != c.best {
                j["score_is_upper_bound"] = json!(true);
            }
            j
        })
        .collect();
    let player = g.status().player().map(|p| p.index() + 1);
    let v = json!({
        "position": g.position(),
        "player": player,
        "throw": g.in_hand().map(|t| t.to_string()),
        "bot": s.to_string(),
        "seed": seed,
        "move": g.move_string(c.best),
        "score_kind": c.score_kind,
        "scores_exact": c.exact,
        "depth": c.depth,
        "scores": scores,
        "nodes": c.nodes,
        "time_ms": (ms * 1000.0).round() / 1000.0,
    });
    Ok(serde_json::to_string_pretty(&v).expect("json"))
}

fn round(x: f64, digits: i32) -> f64 {
    let k = 10f64.powi(digits);
    (x * k).round() / k
}

/// A match result as JSON.
pub fn match_json(r: &MatchResult) -> Value {
    let games = 2 * r.pairs.len();
    json!({
        "rules": r.rules,
        "a": r.a,
        "b": r.b,
        "pairs": r.pairs.len(),
        "games": games,
        "a_wins": r.a_wins,
        "b_wins": r.b_wins,
        "draws": r.draws,
        "a_rate": round(r.a_rate, 5),
        "ci95": [round(r.ci95.0, 5), round(r.ci95.1, 5)],
        "a_better_at_95": r.a_significantly_better(),
        "avg_length": round(r.avg_length, 2),
        "first_player_wins": r.first_player_wins,
        "median_ms_per_move": { "a": round(r.median_micros[0] / 1e3, 4), "b": round(r.median_micros[1] / 1e3, 4) },
        "median_cpu_ms_per_move": { "a": round(r.median_cpu_micros[0] / 1e3, 4), "b": round(r.median_cpu_micros[1] / 1e3, 4) },
        "timed_moves": { "a": r.timed_moves[0], "b": r.timed_moves[1] },
        "luck_adjusted": r.luck.as_ref().map(|l| json!({
            "judge": l.judge,
            "a_rate": round(l.a_rate, 5),
            "ci95": [round(l.ci95.0, 5), round(l.ci95.1, 5)],
            "a_better_at_95": l.ci95.0 > 0.5,
            "a_luck_per_game": round(l.a_luck, 5),
        })),
    })
}

fn match_text(r: &MatchResult) -> String {
    let games = 2 * r.pairs.len();
    let luck = r.luck.as_ref().map_or(String::new(), |l| {
        format!(
            "\nA's score with the luck taken out (throws valued by {j}): {rate:.2}% \
             (95% interval {lo:.2}% - {hi:.2}%){sig}; A's luck {al:+.2}% a game",
            j = l.judge,
            rate = 100.0 * l.a_rate,
            lo = 100.0 * l.ci95.0,
            hi = 100.0 * l.ci95.1,
            sig = significance(l.ci95),
            al = 100.0 * l.a_luck,
        )
    });
    format!(
        "{rules}: A = {a}, B = {b}, {p} duplicate pairs ({games} games)\n\
         A's score: {rate:.1}% (95% interval {lo:.1}% - {hi:.1}%){sig}\n\
         A won {aw}, B won {bw}, draws {d}; the first player won {fw} ({fwp:.1}%)\n\
         average game length: {len:.1} decisions\n\
         median time per move: A {ta:.3} ms ({na} moves), B {tb:.3} ms ({nb} moves)\n\
         median CPU time per move: A {ca:.3} ms, B {cb:.3} ms{luck}",
        rules = r.rules,
        a = r.a,
        b = r.b,
        p = r.pairs.len(),
        rate = 100.0 * r.a_rate,
        lo = 100.0 * r.ci95.0,
        hi = 100.0 * r.ci95.1,
        sig = significance(r.ci95),
        aw = r.a_wins,
        bw = r.b_wins,
        d = r.draws,
        fw = r.first_player_wins,
        fwp = 100.0 * r.first_player_wins as f64 / games as f64,
        len = r.avg_length,
        ta = r.median_micros[0] / 1e3,
        na = r.timed_moves[0],
        tb = r.median_micros[1] / 1e3,
        nb = r.timed_moves[1],
        ca = r.median_cpu_micros[0] / 1e3,
        cb = r.median_cpu_micros[1] / 1e3,
    )
}

/// What a 95% interval of A's score says.
fn significance(ci95: (f64, f64)) -> &'static str {
    if ci95.0 > 0.5 {
        ", A is better at 95%"
    } else if ci95.1 < 0.5 {
        ", B is better at 95%"
    } else {
        ", no significant difference"
    }
}

/// A series match result as JSON.
pub fn series_json(r: &SeriesMatchResult) -> Value {
    json!({
        "rules": r.rules,
        "a": r.a,
        "b": r.b,
        "target": r.target,
        "scores": r.scores,
        "pairs": r.pairs.len(),
        "series": 2 * r.pairs.len(),
        "a_series_won": r.series_won[0],
        "b_series_won": r.series_won[1],
        "series_drawn": r.series_won[2],
        "a_rate": round(r.a_rate, 5),
        "ci95": [round(r.ci95.0, 5), round(r.ci95.1, 5)],
        "games": r.games,
        "a_games_won": r.games_won[0],
        "b_games_won": r.games_won[1],
        "points_per_game": { "a": round(r.points_per_game[0], 4), "b": round(r.points_per_game[1], 4) },
        "points_per_series": { "a": round(r.points_per_series[0], 4), "b": round(r.points_per_series[1], 4) },
        "points_diff_per_game": { "mean": round(r.points_diff.0, 4), "ci95": [round(r.points_diff.1, 4), round(r.points_diff.2, 4)] },
    })
}

fn series_text(r: &SeriesMatchResult) -> String {
    let n = 2 * r.pairs.len();
    let unit = if r.scores {
        "points"
    } else {
        "points (games won)"
    };
    format!(
        "{rules}: A = {a}, B = {b}, {p} duplicate pairs of series {t} ({n} series, {g} games)\n\
         series won: A {aw}, B {bw}, drawn {d}; A's series score {rate:.1}% (95% interval {lo:.1}% - {hi:.1}%)\n\
         games won: A {ga}, B {gb}\n\
         {unit} per game: A {pa:.2}, B {pb:.2}; per series: A {sa:.2}, B {sb:.2}\n\
         A minus B per game: {dm:.2} (95% interval {dl:.2} - {dh:.2})",
        rules = r.rules,
        a = r.a,
        b = r.b,
        p = r.pairs.len(),
        t = r.target,
        g = r.games,
        aw = r.series_won[0],
        bw = r.series_won[1],
        d = r.series_won[2],
        rate = 100.0 * r.a_rate,
        lo = 100.0 * r.ci95.0,
        hi = 100.0 * r.ci95.1,
        ga = r.games_won[0],
        gb = r.games_won[1],
        pa = r.points_per_game[0],
        pb = r.points_per_game[1],
        sa = r.points_per_series[0],
        sb = r.points_per_series[1],
        dm = r.points_diff.0,
        dl = r.points_diff.1,
        dh = r.points_diff.2,
    )
}

/// The error rates of `senet ladder --errors N` on the rule sets with exact tables.
fn exact_errors(
    rules: &[RuleSet],
    starts: usize,
    seed: u64,
    bots: Option<&str>,
) -> Result<String, Error> {
    if starts == 0 {
        return Err(bad(
            "--errors-only needs --errors N, the endgames per rule set".into(),
        ));
    }
    let bots: Vec<String> = match bots {
        Some(list) => list
            .split(',')
            .map(|b| spec(b.trim()).map(|s| s.to_string()))
            .collect::<Result<_, _>>()?,
        None => ladder::ERROR_BOTS.iter().map(|b| b.to_string()).collect(),
    };
    let tables = senet_bots::exact::Tables::global();
    let mut rates = Vec::new();
    for &r in rules
        .iter()
        .filter(|r| senet_bots::exact::RULE_SETS.contains(r))
    {
        for bot in &bots {
            let t = Instant::now();
            let rate = ladder::exact_errors(r, bot, starts, seed, tables).map_err(bad)?;
            eprintln!(
                "{r} {bot}: {} decisions, {:.6} lost per decision ({:.1} s)",
                rate.decisions,
                rate.mean_loss,
                t.elapsed().as_secs_f64()
            );
            rates.push(rate);
        }
    }
    for e in tables.errors() {
        eprintln!("warning: {e}");
    }
    Ok(ladder::errors_markdown(&rates, starts, seed))
}

/// The tables of `senet exactset` and `senet ladder --exact`: from `dir`, else the default
/// directory, else the 2-piece ones built in memory; kept for the rest of the process (the
/// bots hold them).
fn exact_tables(
    dir: Option<std::path::PathBuf>,
    limit: usize,
) -> &'static senet_bots::exact::Tables {
    use senet_bots::exact::{default_dir, Tables, BUILTIN_PIECES};
    Box::leak(Box::new(
        Tables::new(dir.or_else(default_dir), BUILTIN_PIECES).with_limit(limit),
    ))
}

/// `senet exactset`.
fn exactset(
    rules: &str,
    pieces: Option<usize>,
    decisions: usize,
    player: &str,
    seed: u64,
    dir: Option<std::path::PathBuf>,
    out: &str,
) -> Result<String, Error> {
    use senet_coach::exactset::{make_set, SetConfig};
    let rules: RuleSet = rules.parse()?;
    if !senet_bots::exact::RULE_SETS.contains(&rules) {
        return Err(bad(format!(
            "exact sets exist for kendall, kendall5, senat and houses, not {rules}"
        )));
    }
    if decisions == 0 {
        return Err(bad("--decisions must be at least 1".into()));
    }
    spec(player)?;
    let tables = exact_tables(dir, senet_bots::exact::MAX_PIECES);
    let pieces = match pieces {
        Some(p) => p,
        None => tables.table(rules).map(|t| t.pieces()).ok_or_else(|| {
            bad(format!(
                "no exact table for {rules}: build one with senet solve {rules}"
            ))
        })?,
    };
    let cfg = SetConfig {
        rules,
        pieces,
        decisions,
        player: player.to_string(),
        seed,
    };
    let bar = progress_bar(
        decisions as u64,
        &format!("{rules}: decisions with {pieces} a side"),
    );
    let t = Instant::now();
    let set = make_set(&cfg, tables, &|n| bar.set_position(n as u64)).map_err(bad)?;
    bar.finish_and_clear();
    let text = set.to_jsonl();
    let summary = format!(
        "{} decisions of {rules} with {pieces} pieces a side from {} games ({:.1} s), table {}",
        set.decisions.len(),
        set.header.games,
        t.elapsed().as_secs_f64(),
        tables.source(rules)
    );
    if out == "-" {
        eprintln!("{summary}");
        return Ok(text.trim_end().to_string());
    }
    std::fs::write(out, text).map_err(|e| bad(format!("cannot write {out}: {e}")))?;
    Ok(format!("wrote {out}: {summary}"))
}

/// `senet ladder --exact SETS`.
fn exact_sets(
    sets: &str,
    bots: Option<&str>,
    with_analysis: bool,
    dir: Option<std::path::PathBuf>,
) -> Result<(String, String), Error> {
    use senet_coach::exactset::{measure, report_markdown, ExactSet};
    let bots: Vec<String> = match bots {
        Some(list) => list
            .split(',')
            .map(|b| spec(b.trim()).map(|s| s.to_string()))
            .collect::<Result<_, _>>()?,
        None => ["beginner", "casual", "strong", "expert"]
            .iter()
            .map(|b| b.to_string())
            .collect(),
    };
    let whole = exact_tables(dir.clone(), senet_bots::exact::MAX_PIECES);
    let mut reports = Vec::new();
    let mut md = String::new();
    for path in sets.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let set = ExactSet::read(std::path::Path::new(path)).map_err(bad)?;
        let rules = set.rules;
        let table = whole.table(rules).ok_or_else(|| {
            bad(format!(
                "no exact table for {rules}: build one with senet solve {rules} --pieces {}",
                set.header.pieces
            ))
        })?;
        let want = set.header.pieces;
        // The set holds every move's exact value, so the tables to one piece fewer (what the
        // bots played with before) are all a measurement needs; the whole tables add a run.
        // Tables of fewer pieces still measure the bots as they play with them (a set of
        // five a side, issue 55, where no five-piece tables exist): the report names them.
        if table.pieces() + 1 < want {
            eprintln!(
                "{path}: {want} pieces a side; the {rules} table holds {}, so the bots read the tables to {} pieces",
                table.pieces(),
                table.pieces()
            );
        }
        let before = exact_tables(dir.clone(), want.saturating_sub(1));
        let whole = (table.pieces() >= want).then_some(whole);
        let t = Instant::now();
        let r = measure(&set, &bots, with_analysis, before, whole, &|what| {
            eprintln!("{rules}: {what} ({:.0} s)", t.elapsed().as_secs_f64())
        })
        .map_err(bad)?;
        md.push_str(&report_markdown(&r));
        md.push('\n');
        reports.push(r);
    }
    Ok((
        md.trim_end().to_string(),
        serde_json::to_string_pretty(&reports).expect("json"),
    ))
}
