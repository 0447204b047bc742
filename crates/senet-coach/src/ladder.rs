//! The ladder of `docs/bots.md`: per rule set, duplicate matches between neighbours of
//! random < greedy < expectimax:1 < expectimax:2 < expectimax:3, each step tested at 95%,
//! and the time per move of every bot on one thread.

use crate::duel::{median, mix, run_match, timed, MatchConfig, MatchResult};
use rand::{RngCore, SeedableRng};
use rand_pcg::Pcg64Mcg;
use senet_bots::{Bot, BotSpec};
use senet_rules::{AnyGame, Game, MoveList, RuleSet, Status};

/// The bots of the ladder, weakest first.
pub const LADDER: [&str; 5] = [
    "random",
    "greedy",
    "expectimax:1",
    "expectimax:2",
    "expectimax:3",
];

/// The ladder of the levels offered to people (`senet ladder --levels`), weakest first.
pub const LEVELS: [&str; 5] = ["random", "beginner", "casual", "strong", "expert"];

/// Matches played with the ladder's pairs besides the steps: the bar for
/// `expectimax:2`.
pub const BAR: [(&str, &str); 1] = [("expectimax:2", "greedy")];

/// Extra matches of the ladder document (with `extra_pairs`): the beginner level against
/// `random`, MCTS against expectimax, the trained evaluator against the hand-set terms one
/// decision ahead, and on the track games the network against the linear evaluator it grew
/// from.
pub const EXTRA: [(&str, &str); 4] = [
    ("beginner", "random"),
    ("mcts:1000", "expectimax:2"),
    ("greedy@tuned", "greedy"),
    ("expectimax:2", "expectimax:2@linear"),
];

/// Bots timed besides the ladder's.
pub const EXTRA_TIMED: [&str; 3] = ["mcts:1000", "beginner", "greedy@tuned"];

/// What to run.
#[derive(Clone, Debug)]
pub struct LadderConfig {
    /// The bots of the ladder, weakest first ([`LADDER`] or [`LEVELS`]); each neighbour
    /// step is a match.
    pub steps: Vec<String>,
    /// The rule sets (default options).
    pub rules: Vec<RuleSet>,
    /// Duplicate pairs per match.
    pub pairs: u32,
    /// Pairs per match for some rule sets instead of `pairs` (for the rule sets whose deep
    /// searches are slow).
    pub pairs_for: Vec<(RuleSet, u32)>,
    /// Seed of every match.
    pub seed: u64,
    /// Worker threads for the matches (0: one per core).
    pub threads: usize,
    /// Positions for the timings (one thread).
    pub timing_positions: usize,
    /// Extra matches `(a, b)` played on every rule set (e.g. MCTS against expectimax).
    pub extra: Vec<(String, String)>,
    /// Pairs of the extra matches (at most the rule set's pairs).
    pub extra_pairs: u32,
    /// Bots timed besides the ladder's.
    pub extra_timed: Vec<String>,
}

/// The time per move of one bot.
#[derive(Clone, Debug)]
pub struct Timing {
    /// The bot.
    pub bot: String,
    /// Median thread CPU microseconds per move.
    pub median_micros: f64,
    /// 90th percentile of the same.
    pub p90_micros: f64,
    /// Median wall-clock microseconds per move.
    pub median_wall_micros: f64,
    /// Mean nodes (or iterations) per move.
    pub mean_nodes: f64,
}

/// The ladder of one rule set.
#[derive(Clone, Debug)]
pub struct RuleLadder {
    /// The rule set.
    pub rules: RuleSet,
    /// The matches of neighbours on the ladder, then the extra matches.
    pub matches: Vec<MatchResult>,
    /// Time per move of each bot.
    pub timings: Vec<Timing>,
}

/// Positions awaiting a real choice (two or more legal moves), from seeded `greedy`
/// self-play games of a rule set, for timings.
pub fn timing_positions(start: &AnyGame, n: usize, seed: u64) -> Vec<AnyGame> {
    let mut out = Vec::new();
    let mut bot = "greedy".parse::<BotSpec>().expect("bot").build();
    let mut ms = MoveList::new();
    let mut game = 0u64;
    while out.len() < n {
        game += 1;
        let mut rng = Pcg64Mcg::seed_from_u64(mix(seed, game));
        let mut g = *start;
        let mut k = 0u64;
        loop {
            match g.status() {
                Status::Throw(_) => {
                    let t = g.throw_dist().sample(rng.next_u32());
                    g.set_throw_unchecked(t);
                }
                Status::Move(_) => {
                    ms.clear();
                    g.legal_moves(&mut ms);
                    if ms.len() > 1 {
                        k += 1;
                        // Every third real choice, to spread the sample over the game.
                        if k.is_multiple_of(3) && out.len() < n {
                            out.push(g);
                        }
                        let c = bot.choose(&g, k);
                        g.play_unchecked(c.best);
                    } else {
                        g.play_unchecked(ms[0]);
                    }
                }
                Status::Over(_) => break,
            }
        }
    }
    out
}

/// Times a bot on positions, on the calling thread.
pub fn time_bot(bot: &mut dyn Bot, positions: &[AnyGame]) -> Timing {
    if let Some(g) = positions.first() {
        bot.choose(g, 0); // warm-up: allocate the cache
    }
    let mut us = Vec::with_capacity(positions.len());
    let mut wall = Vec::with_capacity(positions.len());
    let mut nodes = 0u64;
    for (i, g) in positions.iter().enumerate() {
        let (c, w, cpu) = timed(|| bot.choose(g, i as u64));
        us.push(cpu);
        wall.push(w);
        nodes += c.nodes;
    }
    let med = median(&mut us);
    let p90 = if us.is_empty() {
        0.0
    } else {
        us[(us.len() * 9 / 10).min(us.len() - 1)]
    };
    Timing {
        bot: bot.name(),
        median_micros: med,
        p90_micros: p90,
        median_wall_micros: median(&mut wall),
        mean_nodes: nodes as f64 / positions.len().max(1) as f64,
    }
}

/// Runs the ladder. `progress(rules, a, b)` is called before each match; `tick` after each
/// pair; `done(ladders)` after each rule set, with the rule sets finished so far (so that a
/// long run can write its document as it goes).
pub fn run_ladder(
    cfg: &LadderConfig,
    progress: &dyn Fn(RuleSet, &str, &str),
    tick: &(dyn Fn() + Sync),
    done: &dyn Fn(&[RuleLadder]),
) -> Result<Vec<RuleLadder>, String> {
    let mut out = Vec::new();
    for &rules in &cfg.rules {
        let start = AnyGame::new(rules, &[] as &[&str]).map_err(|e| e.to_string())?;
        let bar: &[(&str, &str)] = if cfg.steps.iter().map(String::as_str).eq(LADDER) {
            &BAR
        } else {
            &[]
        };
        let mut pairs: Vec<(String, String, bool)> = cfg
            .steps
            .windows(2)
            .map(|w| (w[1].clone(), w[0].clone(), false))
            .chain(
                bar.iter()
                    .map(|(a, b)| (a.to_string(), b.to_string(), false)),
            )
            .collect();
        pairs.extend(cfg.extra.iter().map(|(a, b)| (a.clone(), b.clone(), true)));
        let mut matches = Vec::new();
        for (a, b, extra) in pairs {
            progress(rules, &a, &b);
            let full = cfg
                .pairs_for
                .iter()
                .find(|(r, _)| *r == rules)
                .map_or(cfg.pairs, |p| p.1);
            let pairs = if extra {
                full.min(cfg.extra_pairs)
            } else {
                full
            };
            let mc = MatchConfig {
                start,
                a: a.parse()?,
                b: b.parse()?,
                pairs,
                seed: cfg.seed,
                threads: cfg.threads,
            };
            matches.push(run_match(&mc, tick)?);
        }
        let positions = timing_positions(&start, cfg.timing_positions, cfg.seed);
        let mut timings = Vec::new();
        let names = cfg
            .steps
            .iter()
            .cloned()
            .chain(cfg.extra_timed.iter().cloned());
        for name in names {
            progress(rules, &name, "timing");
            let mut bot = name.parse::<BotSpec>()?.build();
            timings.push(time_bot(bot.as_mut(), &positions));
        }
        out.push(RuleLadder {
            rules,
            matches,
            timings,
        });
        done(&out);
    }
    Ok(out)
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn micros(x: f64) -> String {
    if x >= 1000.0 {
        format!("{:.2} ms", x / 1000.0)
    } else {
        format!("{x:.1} µs")
    }
}

/// The markdown tables of a ladder run (the measured part of `docs/bots.md`).
pub fn markdown(cfg: &LadderConfig, ladders: &[RuleLadder]) -> String {
    let mut s = String::new();
    for l in ladders {
        s.push_str(&format!("### `{}`: {}\n\n", l.rules.id(), l.rules.name()));
        s.push_str(&format!("Seed {}.\n\n", cfg.seed));
        s.push_str("| A | B | pairs | A's score | 95% interval | A better at 95%? | draws | avg. length | A CPU/move | B CPU/move |\n");
        s.push_str("|---|---|---|---|---|---|---|---|---|---|\n");
        for m in &l.matches {
            s.push_str(&format!(
                "| {} | {} | {} | {} | {} – {} | {} | {} | {:.0} | {} | {} |\n",
                m.a,
                m.b,
                m.pairs.len(),
                pct(m.a_rate),
                pct(m.ci95.0),
                pct(m.ci95.1),
                if m.a_significantly_better() {
                    "yes"
                } else {
                    "**no**"
                },
                m.draws,
                m.avg_length,
                micros(m.median_cpu_micros[0]),
                micros(m.median_cpu_micros[1]),
            ));
        }
        s.push_str(&format!(
            "\nTime per move on one thread, over {} positions with a real choice from seeded \
             greedy self-play:\n\n",
            cfg.timing_positions
        ));
        s.push_str("| bot | median CPU | 90th percentile CPU | median wall | mean nodes |\n|---|---|---|---|---|\n");
        for t in &l.timings {
            s.push_str(&format!(
                "| {} | {} | {} | {} | {:.0} |\n",
                t.bot,
                micros(t.median_micros),
                micros(t.p90_micros),
                micros(t.median_wall_micros),
                t.mean_nodes
            ));
        }
        s.push('\n');
    }
    s
}

/// The whole of `docs/bots.md`: what the bots are, the levels, and the measured tables.
pub fn document(cfg: &LadderConfig, ladders: &[RuleLadder], command: &str) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "# Bots\n\n\
         <!-- Generated by `{command}`; do not edit by hand. -->\n\n\
         {intro}\n## Measurements\n\n\
         Regenerate this file with `{command} --out docs/bots.md` (add `--threads K`; the \
         games and win rates do not depend on it, the match timings do). Every match is \
         `senet match --rules RULES --a A --b B --pairs {pairs} --seed {seed}` (with the \
         pairs of the table). \
         A's score counts a draw as half a win; the 95% interval is over pair means \
         (normal approximation); a step of the ladder is significant when the interval \
         lies above 50%. The CPU/move columns of the match tables are medians of thread CPU time over the real \
         choices (two or more legal moves) made during the match, with every core busy; \
         the timing tables below them are on one thread.\n\n",
        pairs = cfg.pairs,
        seed = cfg.seed,
        intro = if cfg.steps.iter().map(String::as_str).eq(LEVELS) {
            LEVELS_INTRO
        } else {
            INTRO
        },
    ));
    if ladders.len() < cfg.rules.len() {
        let done: Vec<&str> = ladders.iter().map(|l| l.rules.id()).collect();
        s.push_str(&format!(
            "**Incomplete:** the run had finished {} of {} rule sets ({}) when this was written.\n\n",
            ladders.len(),
            cfg.rules.len(),
            done.join(", ")
        ));
    }
    s.push_str(&bars(&cfg.steps, ladders));
    s.push_str(&markdown(cfg, ladders));
    s
}

fn find<'a>(l: &'a RuleLadder, a: &str, b: &str) -> Option<&'a MatchResult> {
    l.matches.iter().find(|m| m.a == a && m.b == b)
}

/// The bars, checked against the measurements of a ladder of `steps`.
pub fn bars(steps: &[String], ladders: &[RuleLadder]) -> String {
    let mut s = String::from("### The bars\n\n| bar | measured | met? |\n|---|---|---|\n");
    let yes = |ok: bool| if ok { "yes" } else { "**no**" };
    for l in ladders {
        let id = l.rules.id();
        let step_text: Vec<String> = steps
            .windows(2)
            .map(|w| match find(l, &w[1], &w[0]) {
                Some(m) => format!(
                    "{} > {}: {}{}",
                    w[1],
                    w[0],
                    pct(m.a_rate),
                    if m.a_significantly_better() {
                        ""
                    } else {
                        " (not significant)"
                    }
                ),
                None => format!("{} > {}: not run", w[1], w[0]),
            })
            .collect();
        let all = steps
            .windows(2)
            .all(|w| find(l, &w[1], &w[0]).is_some_and(|m| m.a_significantly_better()));
        s.push_str(&format!(
            "| `{id}`: every step of the ladder significant at 95% | {} | {} |\n",
            step_text.join("; "),
            yes(all)
        ));
        if l.rules == RuleSet::Kendall5 {
            if let Some(m) = find(l, "greedy", "random") {
                s.push_str(&format!(
                    "| `kendall5`: greedy beats random in at least 68% | {} ({} – {}) | {} |\n",
                    pct(m.a_rate),
                    pct(m.ci95.0),
                    pct(m.ci95.1),
                    yes(m.a_rate >= 0.68)
                ));
            }
            if let Some(m) = find(l, "expectimax:2", "greedy") {
                s.push_str(&format!(
                    "| `kendall5`: expectimax:2 beats greedy in at least 60% | {} ({} – {}) | {} |\n",
                    pct(m.a_rate),
                    pct(m.ci95.0),
                    pct(m.ci95.1),
                    yes(m.a_rate >= 0.60)
                ));
            }
            if let Some(t) = l.timings.iter().find(|t| t.bot == "expectimax:3") {
                s.push_str(&format!(
                    "| `kendall5`: expectimax:3 at most 0.5 ms median per move, one core | {} CPU ({} wall) | {} |\n",
                    micros(t.median_micros),
                    micros(t.median_wall_micros),
                    yes(t.median_micros <= 500.0)
                ));
            }
        }
        if let Some(t) = l.timings.iter().find(|t| t.bot == "expectimax:2") {
            s.push_str(&format!(
                "| `{id}`: expectimax:2 under 10 ms median per move | {} CPU ({} wall) | {} |\n",
                micros(t.median_micros),
                micros(t.median_wall_micros),
                yes(t.median_micros < 10_000.0)
            ));
        }
    }
    s.push('\n');
    s
}

const INTRO: &str = include_str!("ladder_intro.md");

/// The introduction of the levels' document (`senet ladder --levels`, `docs/levels.md`).
const LEVELS_INTRO: &str = "The levels offered to people (`senet play`, `senet serve`, hints \
use only these), each against the one below it, in duplicate matches: `random` < `beginner` \
< `casual` < `strong` < `expert`. What each level is: `docs/bots.md`, section Levels.\n";

/// The bots whose error rate against the exact tables the ladder can measure: the levels,
/// `random`, today's `expectimax:3`, and the expert level's search without the tables
/// (`expectimax:5:400000`; the `expert` level itself plays these endgames from the tables).
pub const ERROR_BOTS: [&str; 7] = [
    "random",
    "beginner",
    "casual",
    "strong",
    "expert",
    "expectimax:3",
    "expectimax:5:400000",
];

/// One bot's error rate on the endgames of one rule set.
#[derive(Clone, Debug)]
pub struct ErrorRate {
    /// The rule set.
    pub rules: RuleSet,
    /// The bot.
    pub bot: String,
    /// Decisions measured: a real choice (two or more legal moves), every move's result
    /// covered by the tables.
    pub decisions: u64,
    /// Mean win chance lost per decision: the exact value of the best move minus that of
    /// the chosen move, for the player to move.
    pub mean_loss: f64,
    /// Share of decisions where the chosen move was not a best one (loss over 1e-6).
    pub error_share: f64,
    /// The pieces per side the tables cover.
    pub pieces: usize,
}

impl ErrorRate {
    /// gnubg's unit: millipoints of equity per decision, where a win-only game's equity is
    /// 2p - 1, so 2000 times the win chance lost.
    pub fn millipoints(&self) -> f64 {
        2000.0 * self.mean_loss
    }
}

/// Plays endgame `i` of `seed` the way [`exact_errors`] measures a bot: seeded `greedy`
/// self-play from `start` until `table` covers the position (both sides with at most its
/// pieces on the board, a throw pending); from there `bot` plays both sides to the end.
/// `visit` sees every position from that one on before its throw is drawn or its move made,
/// with the move `bot` chose where one is to be made.
pub fn play_endgame(
    start: &AnyGame,
    table: &senet_bots::exact::Table,
    bot: &BotSpec,
    seed: u64,
    i: u64,
    mut visit: impl FnMut(&AnyGame, Option<senet_rules::Move>),
) {
    let mut rng = Pcg64Mcg::seed_from_u64(mix(seed, i));
    let mut greedy = "greedy".parse::<BotSpec>().expect("bot").build();
    let mut b = bot.build();
    let mut g = *start;
    let mut inside = false;
    let mut k = 0u64;
    loop {
        match g.status() {
            Status::Over(_) => break,
            Status::Throw(_) => {
                inside = inside || table.lookup(&g).is_some();
                if inside {
                    visit(&g, None);
                }
                let t = g.throw_dist().sample(rng.next_u32());
                g.set_throw_unchecked(t);
            }
            Status::Move(_) => {
                k += 1;
                let m = if !inside {
                    greedy.choose(&g, mix(seed, k)).best
                } else {
                    let m = b.choose(&g, mix(mix(seed, i), k)).best;
                    visit(&g, Some(m));
                    m
                };
                g.play_unchecked(m);
            }
        }
    }
}

/// The win chance lost per decision by `bot` on the endgames of `rules`, measured against
/// the exact tables. `starts` endgames are reached by seeded `greedy` self-play from the
/// start until the position is covered (both sides with at most the tables' pieces on the
/// board, a throw pending); from there `bot` plays both sides to the end, and each of its
/// real choices is scored. The same seed gives the same endgames to every bot.
pub fn exact_errors(
    rules: RuleSet,
    bot: &str,
    starts: usize,
    seed: u64,
    tables: &senet_bots::exact::Tables,
) -> Result<ErrorRate, String> {
    use rayon::prelude::*;
    let spec: BotSpec = bot.parse()?;
    let start = AnyGame::new(rules, &[] as &[&str]).map_err(|e| e.to_string())?;
    let table = tables
        .table_for(&start)
        .ok_or_else(|| format!("no exact table for {rules}: build one with senet solve {rules}"))?;
    let pieces = table.pieces();
    let per_start: Vec<(u64, f64, u64)> = (0..starts as u64)
        .into_par_iter()
        .map(|i| {
            let (mut n, mut loss, mut wrong) = (0u64, 0.0f64, 0u64);
            play_endgame(&start, table, &spec, seed, i, |g, m| {
                let (Some(m), Status::Move(p)) = (m, g.status()) else {
                    return;
                };
                // One value per legal move: a real choice has two or more.
                if let Some(vals) = tables.move_values(g).filter(|v| v.len() > 1) {
                    let mine = |v: f64| {
                        if p == senet_rules::Player::First {
                            v
                        } else {
                            1.0 - v
                        }
                    };
                    let best = vals.iter().map(|x| mine(x.1)).fold(0.0f64, f64::max);
                    let got = vals.iter().find(|x| x.0 == m).map_or(best, |x| mine(x.1));
                    n += 1;
                    loss += best - got;
                    wrong += (best - got > 1e-6) as u64;
                }
            });
            (n, loss, wrong)
        })
        .collect();
    let n: u64 = per_start.iter().map(|x| x.0).sum();
    let loss: f64 = per_start.iter().map(|x| x.1).sum();
    let wrong: u64 = per_start.iter().map(|x| x.2).sum();
    Ok(ErrorRate {
        rules,
        bot: bot.to_string(),
        decisions: n,
        mean_loss: loss / n.max(1) as f64,
        error_share: wrong as f64 / n.max(1) as f64,
        pieces,
    })
}

/// The Markdown table of error rates (`senet ladder --errors N`).
pub fn errors_markdown(rates: &[ErrorRate], starts: usize, seed: u64) -> String {
    let mut s = String::from("### Win chance lost per decision in solved endgames\n\n");
    s.push_str(&format!(
        "Measured against the exact tables (`docs/solve.md`): {starts} endgames per rule set \
         (seed {seed}), reached by greedy self-play until both sides have at most the \
         tables' pieces on the board, then played to the end by the bot on both sides; \
         every real choice (two or more legal moves) counts. *Lost* is the exact win chance \
         of the best move minus that of the chosen one, for the player to move, averaged \
         over the decisions; *mppd* is gnubg's unit, millipoints of equity per decision \
         (equity 2p - 1 in a game without gammons, so 2000 times the win chance lost); \
         *errors* is the share of decisions where the bot's move was not a best one.\n\n"
    ));
    s.push_str("| rules | tables | bot | decisions | lost per decision | mppd | errors |\n|---|---|---|---|---|---|---|\n");
    for r in rates {
        s.push_str(&format!(
            "| {} | {}v{} | {} | {} | {:.6} | {:.3} | {:.2}% |\n",
            r.rules.id(),
            r.pieces,
            r.pieces,
            r.bot,
            r.decisions,
            r.mean_loss,
            r.millipoints(),
            100.0 * r.error_share
        ));
    }
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    /// `docs/bots.md` is what `senet ladder` writes: above its measurements stands [`INTRO`]
    /// (`ladder_intro.md`). An edit of the committed document that is not also made there
    /// would be lost the next time the document is regenerated.
    #[test]
    fn docs_bots_md_begins_with_the_intro_the_ladder_writes() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/bots.md");
        let doc = std::fs::read_to_string(path).unwrap();
        let start = doc.find("-->\n\n").expect("the generated header") + "-->\n\n".len();
        assert!(
            doc[start..].starts_with(&format!("{}\n## Measurements", super::INTRO)),
            "docs/bots.md above `## Measurements` differs from \
             crates/senet-coach/src/ladder_intro.md: make the same edit in both"
        );
    }
}
