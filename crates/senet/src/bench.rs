//! `senet bench`: random playouts per second and decisions per second on one core, per rule
//! set, median of several runs, after checking the known result of seeded playouts.

use cpu_time::ThreadTime;
use senet_rules::conformance::{playout_check, SplitMix, PLAYOUT_CHECK};
use senet_rules::{random_playout, with_game, AnyGame, Error, Game, RuleSet};
use serde_json::json;
use std::time::{Duration, Instant};

/// One rule set's figures.
pub struct Figures {
    pub rules: RuleSet,
    pub games_per_sec: f64,
    pub decisions_per_sec: f64,
    pub runs: Vec<Run>,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Plays games for `budget` of this thread's CPU time and returns games and decisions per
/// CPU second. CPU time, not wall time, so that other work on a shared machine does not count
/// against the figure; the wall-clock rate is returned too.
fn time_run<G: Game>(start: &G, seed: u64, budget: Duration) -> Run {
    let mut rng = SplitMix(seed);
    let (mut games, mut decisions) = (0u64, 0u64);
    let wall = Instant::now();
    let cpu = ThreadTime::now();
    loop {
        for _ in 0..64 {
            let mut g = *start;
            decisions += random_playout(&mut g, || rng.next_u32()) as u64;
            games += 1;
        }
        let el = cpu.elapsed();
        if el >= budget {
            let s = el.as_secs_f64();
            let w = wall.elapsed().as_secs_f64();
            return Run {
                games: games as f64 / s,
                decisions: decisions as f64 / s,
                wall_games: games as f64 / w,
            };
        }
    }
}

/// One timed run: games and decisions per CPU second, and games per wall-clock second.
#[derive(Copy, Clone, Debug)]
pub struct Run {
    pub games: f64,
    pub decisions: f64,
    pub wall_games: f64,
}

/// Checks then measures each rule set for `seconds` split over `runs` runs.
pub fn measure(rules: &[RuleSet], seconds: f64, runs: usize) -> Result<Vec<Figures>, Error> {
    let mut out = Vec::new();
    for &r in rules {
        let start = AnyGame::new(r, &[] as &[&str])?;
        let got = with_game!(&start, g => playout_check(g));
        let want = PLAYOUT_CHECK
            .iter()
            .find(|(id, _)| *id == r.id())
            .map(|(_, n)| *n);
        if Some(got) != want {
            return Err(Error::Options(format!(
                "{r}: seeded playouts gave {got} decisions, expected {want:?}; the rules changed"
            )));
        }
        let budget = Duration::from_secs_f64(seconds / runs as f64);
        let runs: Vec<Run> = (0..runs as u64)
            .map(|i| with_game!(&start, g => time_run(g, 1000 + i, budget)))
            .collect();
        out.push(Figures {
            rules: r,
            games_per_sec: median(runs.iter().map(|x| x.games).collect()),
            decisions_per_sec: median(runs.iter().map(|x| x.decisions).collect()),
            runs,
        });
    }
    Ok(out)
}

/// Parses `all` or a comma-separated list of rule set IDs.
pub fn parse_rules(list: &str) -> Result<Vec<RuleSet>, Error> {
    if list == "all" {
        return Ok(RuleSet::ALL.to_vec());
    }
    list.split(',').map(|s| s.trim().parse()).collect()
}

/// Runs the command and formats its output.
pub fn run(rules: &str, seconds: f64, runs: usize, as_json: bool) -> Result<String, Error> {
    if !(seconds > 0.0 && seconds <= 3600.0) || runs == 0 || runs > 100 {
        return Err(Error::Options(
            "--seconds must be in (0, 3600] and --runs in 1-100".into(),
        ));
    }
    let figs = measure(&parse_rules(rules)?, seconds, runs)?;
    if as_json {
        let v: Vec<_> = figs
            .iter()
            .map(|f| {
                json!({
                    "rules": f.rules.id(),
                    "games_per_sec": f.games_per_sec.round(),
                    "decisions_per_sec": f.decisions_per_sec.round(),
                    "runs": f.runs.iter().map(|r| json!({
                        "games_per_sec": r.games.round(),
                        "decisions_per_sec": r.decisions.round(),
                        "wall_games_per_sec": r.wall_games.round(),
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        return Ok(serde_json::to_string_pretty(&v).expect("json"));
    }
    let mut s = format!(
        "random playouts on one core, per second of CPU time, median of {runs} runs ({seconds} CPU s per rule set),\nafter checking the seeded result; wall: games per wall-clock second (lower when the machine is busy)\n{:<10} {:>14} {:>18} {:>12}\n",
        "rules", "games/s", "decisions/s", "wall games/s"
    );
    for f in figs {
        let wall = median(f.runs.iter().map(|r| r.wall_games).collect());
        s.push_str(&format!(
            "{:<10} {:>14.0} {:>18.0} {:>12.0}\n",
            f.rules.id(),
            f.games_per_sec,
            f.decisions_per_sec,
            wall
        ));
    }
    Ok(s.trim_end().to_string())
}
