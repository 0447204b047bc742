//! `senet lab`: simulate games of several rule sets with the match machinery of `senet match`
//! (duplicate pairs, rayon), measure every game by replay, and write the lab report.

use crate::bench::parse_rules;
use indicatif::{ProgressBar, ProgressStyle};
use senet_bots::BotSpec;
use senet_coach::duel::{run_match_with_luck, GameRecord, MatchConfig};
use senet_lab::GameStats;
use senet_lab::{measure_play, RuleSetReport};
use senet_rules::{AnyGame, Error, RuleSet};
use std::io::IsTerminal;
use std::path::Path;

/// What to simulate.
pub struct LabArgs {
    pub rules: String,
    pub options: Vec<String>,
    pub bots: Vec<String>,
    pub games: u32,
    pub seed: u64,
    pub threads: usize,
    pub out: String,
    /// A search bot that values the throws, to report the first player's share with the
    /// luck taken out (`--luck`).
    pub luck: Option<String>,
    pub command: String,
}

/// The `--option`s that apply to one rule set (those it has).
fn options_for(r: RuleSet, options: &[String]) -> Vec<String> {
    options
        .iter()
        .filter(|o| {
            let name = o.split_once('=').map_or(o.as_str(), |(n, _)| n);
            r.option_specs().iter().any(|s| s.name == name)
        })
        .cloned()
        .collect()
}

fn bar(len: u64, msg: String) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let b = ProgressBar::new(len);
    b.set_style(
        ProgressStyle::with_template("{msg:40} [{bar:30}] {pos}/{len} pairs, {elapsed}")
            .expect("template")
            .progress_chars("=> "),
    );
    b.set_message(msg);
    b
}

/// Runs the lab and writes its report; returns a summary for the terminal.
pub fn run(a: LabArgs) -> Result<String, Error> {
    let rules = parse_rules(&a.rules)?;
    for o in &a.options {
        if !rules
            .iter()
            .any(|&r| !options_for(r, std::slice::from_ref(o)).is_empty())
        {
            return Err(Error::Options(format!(
                "no selected rule set has the option {o:?}"
            )));
        }
    }
    if a.games < 2 || a.games > 1_000_000 {
        return Err(Error::Options(
            "--games must be from 2 to 1000000 (played as duplicate pairs)".into(),
        ));
    }
    let pairs: Vec<(BotSpec, BotSpec, String, String)> = a
        .bots
        .iter()
        .map(|p| {
            let (x, y) = p.split_once(',').unwrap_or((p, p));
            let sx: BotSpec = x.parse().map_err(Error::Options)?;
            let sy: BotSpec = y.parse().map_err(Error::Options)?;
            Ok((sx, sy, x.trim().to_string(), y.trim().to_string()))
        })
        .collect::<Result<_, Error>>()?;
    let judge: Option<BotSpec> = a
        .luck
        .as_deref()
        .map(|j| j.parse().map_err(Error::Options))
        .transpose()?;
    let mut reports = Vec::new();
    for (bi, (sa, sb, na, nb)) in pairs.iter().enumerate() {
        for (ri, &r) in rules.iter().enumerate() {
            let options = options_for(r, &a.options);
            let start = AnyGame::new(r, &options)?;
            let cfg = MatchConfig {
                start,
                a: *sa,
                b: *sb,
                pairs: a.games.div_ceil(2),
                // Each configuration gets its own throws, all derived from the one seed.
                seed: senet_coach::duel::mix(a.seed, (bi * 1000 + ri) as u64),
                threads: a.threads,
            };
            let pb = bar(cfg.pairs as u64, format!("{} {na} vs {nb}", r.id()));
            let res =
                run_match_with_luck(&cfg, judge.as_ref(), &|| pb.inc(1)).map_err(Error::Options)?;
            pb.finish_and_clear();
            let stats = res
                .pairs
                .iter()
                .flatten()
                .map(|g| measure_play(&start, &g.throws, &g.moves))
                .collect::<Result<Vec<_>, Error>>()?;
            let mut report = RuleSetReport::new(r.id(), options, [na.clone(), nb.clone()], &stats);
            if let Some(target) = series_target(&start) {
                let points: Vec<[u32; 2]> = res
                    .pairs
                    .iter()
                    .flatten()
                    .map(|g| g.series_points())
                    .collect();
                report = report.with_series(target, &points);
            }
            if let Some(j) = &judge {
                let means: Vec<f64> = res
                    .pairs
                    .iter()
                    .zip(stats.chunks(2))
                    .map(|(p, s)| {
                        (first_mover_adjusted(&p[0], &s[0]) + first_mover_adjusted(&p[1], &s[1]))
                            / 2.0
                    })
                    .collect();
                report = report.with_luck(&j.to_string(), &means);
            }
            reports.push(report);
        }
    }
    let dir = Path::new(&a.out);
    senet_lab::write(dir, "Senet rule sets compared", &a.command, &reports)
        .map_err(Error::Options)?;
    let mut s = format!(
        "wrote {}/report.md, report.json, lengths.svg, first_player.svg, events.svg\n",
        dir.display()
    );
    for r in &reports {
        let luck = r
            .first_player_luck_adjusted
            .as_ref()
            .map_or(String::new(), |l| {
                format!(
                    " ({:.2}% [{:.2}, {:.2}] with the luck taken out)",
                    100.0 * l.rate,
                    100.0 * l.low,
                    100.0 * l.high
                )
            });
        s.push_str(&format!(
            "{:<28} {:>8} vs {:<8} first player {:.1}% [{:.1}, {:.1}]{luck}, {:.0} decisions per game\n",
            r.label(),
            r.bots[0],
            r.bots[1],
            100.0 * r.first_player.rate,
            100.0 * r.first_player.low,
            100.0 * r.first_player.high,
            r.decisions.mean
        ));
    }
    Ok(s.trim_end().to_string())
}

/// The points of a game's first mover (win 1, draw 1/2) less its luck from its first throw
/// on: the first player's luck less the dice-off's, in the first mover's terms.
fn first_mover_adjusted(game: &GameRecord, stats: &GameStats) -> f64 {
    let points = match stats.winner {
        None => 0.5,
        Some(w) if w == stats.first_mover => 1.0,
        Some(_) => 0.0,
    };
    let luck = game.first_luck.unwrap_or(0.0) - game.opening_luck.unwrap_or(0.0);
    points - if stats.first_mover == 1 { luck } else { -luck }
}

/// The series target of the lab's series figures where a rule set scores (issue 13): parker
/// to 100 points (a win is worth 10 to 130, P11), pyramid to 50 (up to 27 a game for each
/// side, Y9), senat with `score` to 10 (1 to 5 a win, S12).
fn series_target(start: &AnyGame) -> Option<u32> {
    if !senet_rules::series::scores(start) {
        return None;
    }
    Some(match senet_rules::Game::rules(start) {
        RuleSet::Parker => 100,
        RuleSet::Pyramid => 50,
        _ => 10,
    })
}
