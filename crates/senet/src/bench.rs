//! `senet bench`: random playouts per second and decisions per second on one core, per rule
//! set, median of several runs, after checking the known result of seeded playouts.

use senet_rules::conformance::{playout_check, SplitMix, PLAYOUT_CHECK};
use senet_rules::{random_playout, with_game, AnyGame, Error, Game, RuleSet};
use serde_json::json;
use std::time::{Duration, Instant};

/// One rule set's figures.
pub struct Figures {
    pub rules: RuleSet,
    pub games_per_sec: f64,
    pub decisions_per_sec: f64,
    pub runs: Vec<(f64, f64)>,
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

fn time_run<G: Game>(start: &G, seed: u64, budget: Duration) -> (f64, f64) {
    let mut rng = SplitMix(seed);
    let (mut games, mut decisions) = (0u64, 0u64);
    let t = Instant::now();
    loop {
        for _ in 0..64 {
            let mut g = *start;
            decisions += random_playout(&mut g, || rng.next_u32()) as u64;
            games += 1;
        }
        let el = t.elapsed();
        if el >= budget {
            let s = el.as_secs_f64();
            return (games as f64 / s, decisions as f64 / s);
        }
    }
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
        let runs: Vec<(f64, f64)> = (0..runs as u64)
            .map(|i| with_game!(&start, g => time_run(g, 1000 + i, budget)))
            .collect();
        out.push(Figures {
            rules: r,
            games_per_sec: median(runs.iter().map(|x| x.0).collect()),
            decisions_per_sec: median(runs.iter().map(|x| x.1).collect()),
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
                    "runs": f.runs.iter().map(|r| json!({"games_per_sec": r.0.round(), "decisions_per_sec": r.1.round()})).collect::<Vec<_>>(),
                })
            })
            .collect();
        return Ok(serde_json::to_string_pretty(&v).expect("json"));
    }
    let mut s = format!(
        "random playouts on one core, median of {runs} runs ({seconds} s per rule set), after checking the seeded result\n{:<10} {:>14} {:>18}\n",
        "rules", "games/s", "decisions/s"
    );
    for f in figs {
        s.push_str(&format!(
            "{:<10} {:>14.0} {:>18.0}\n",
            f.rules.id(),
            f.games_per_sec,
            f.decisions_per_sec
        ));
    }
    Ok(s.trim_end().to_string())
}
