//! `senet analyze`: the analysis of a game record (issue 19), as a readable report or JSON,
//! and `--calibrate`, which measures the rating bands (`docs/analysis.md`). The analysis
//! itself is `senet_bots::analysis`; this module reads files and prints.

use indicatif::{ProgressBar, ProgressStyle};
use senet_bots::analysis::{self, Options};
use senet_rules::{AnyGame, Error, Game, Record, RuleSet};
use std::fmt::Write as _;
use std::io::IsTerminal;

/// The arguments of `senet analyze`.
#[derive(clap::Args, Debug)]
pub struct AnalyzeArgs {
    /// The record file (JSON; a game or a series), or - for standard input.
    #[arg(required_unless_present_any = ["calibrate", "position"])]
    file: Option<String>,
    /// Instead of a record: value one position (every legal move's win chance, or awaiting
    /// a throw every throw's value and luck).
    #[arg(long, conflicts_with_all = ["file", "game", "calibrate"])]
    position: Option<String>,
    /// With --position: the throw, when the position has none pending.
    #[arg(long = "throw", short = 't', requires = "position")]
    throw: Option<String>,
    /// Search depth in throws (default: the `expert` level's, 5, on the stick rule sets; 2
    /// on pyramid and parker; at most 5).
    #[arg(long)]
    depth: Option<u32>,
    /// Of a series record, analyse only game N (from 1); default: every game.
    #[arg(long, value_name = "N")]
    game: Option<usize>,
    /// Print JSON: the analysis of the game (an array of them for a series).
    #[arg(long)]
    json: bool,
    /// Instead of a record: measure each rating band's bot (its win chance lost per real
    /// choice, on the same positions for every bot) and print the table of
    /// `docs/analysis.md`.
    #[arg(long, conflicts_with_all = ["file", "game"])]
    calibrate: bool,
    /// With --calibrate: `all` or a comma-separated list of rule set IDs.
    #[arg(long, default_value = "all", requires = "calibrate")]
    rules: String,
    /// With --calibrate: games of each band's bot against itself that the positions are
    /// drawn from.
    #[arg(long, default_value_t = 4, requires = "calibrate")]
    games: u32,
    /// With --calibrate: positions with a real choice per rule set.
    #[arg(long, default_value_t = 1000, requires = "calibrate")]
    positions: usize,
    /// With --calibrate: the seed of the games.
    #[arg(long, default_value_t = 1, requires = "calibrate")]
    seed: u64,
}

/// Runs `senet analyze`.
pub fn run(args: AnalyzeArgs) -> Result<String, Error> {
    if args.calibrate {
        return calibrate(&args);
    }
    if let Some(p) = &args.position {
        let g: AnyGame = match &args.throw {
            Some(t) => crate::cli::with_throw(p, Some(t))?,
            None => p.parse()?,
        };
        let opt = args.depth.map_or(Options::for_rules(g.rules()), |d| {
            Options::with_depth(g.rules(), d)
        });
        let v = analysis::value_position(&g, &opt)?;
        if args.json {
            return Ok(serde_json::to_value(&v)
                .expect("a value serialises")
                .to_string());
        }
        return Ok(value_text(&v));
    }
    let file = args.file.as_deref().unwrap_or("-");
    let text = crate::cli::read_input(file)?;
    let games: Vec<(String, Record)> = if senet_rules::series::is_series(&text) {
        let s = senet_rules::Series::from_json(&text)?;
        s.replay()?;
        let n = s.games.len();
        let pick = |i: usize| {
            (
                format!("game {} of the series", i + 1),
                s.games[i].record.clone(),
            )
        };
        match args.game {
            Some(k) if (1..=n).contains(&k) => vec![pick(k - 1)],
            Some(k) => {
                return Err(Error::Record(format!(
                    "--game {k}: the series has {n} game{}",
                    if n == 1 { "" } else { "s" }
                )))
            }
            None => (0..n).map(pick).collect(),
        }
    } else {
        if args.game.is_some() {
            return Err(Error::Record(
                "--game picks a game of a series record; this is a single game's record".into(),
            ));
        }
        vec![(String::new(), Record::from_json(&text)?)]
    };
    let mut json = Vec::new();
    let mut out = String::new();
    for (title, rec) in &games {
        let rules: RuleSet = rec.rules.parse()?;
        let opt = args
            .depth
            .map_or(Options::for_rules(rules), |d| Options::with_depth(rules, d));
        let bar = progress_bar(rec.events.len() as u64);
        let a = analysis::analyze(rec, &opt, &mut |done, _| {
            if let Some(b) = &bar {
                b.set_position(done as u64)
            }
        });
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        let a = a?;
        if args.json {
            json.push(serde_json::to_value(&a).expect("an analysis serialises"));
        } else {
            if !title.is_empty() {
                let _ = writeln!(out, "== {title}");
            }
            out.push_str(&a.text());
        }
    }
    Ok(if args.json {
        if games.len() == 1 && args.game.is_none() && !senet_rules::series::is_series(&text) {
            json.pop().expect("one analysis").to_string()
        } else {
            serde_json::Value::Array(json).to_string()
        }
    } else {
        out.trim_end().to_string()
    })
}

/// A position's value in words.
fn value_text(v: &analysis::PositionValue) -> String {
    let pct = |x: f64| format!("{:.1}%", 100.0 * x);
    let mut s = String::new();
    match (v.awaits, v.player) {
        ("move", Some(p)) => {
            let _ = writeln!(
                s,
                "player {p} to move: win chance {} with the best move",
                pct(v.win)
            );
            for m in &v.moves {
                let best = if Some(&m.mv) == v.best.as_ref() {
                    "  best"
                } else {
                    ""
                };
                let _ = writeln!(s, "  {:<12}{:>7}{best}", m.mv, pct(m.win));
            }
        }
        ("throw", Some(p)) => {
            let _ = writeln!(s, "player {p} to throw: win chance {}", pct(v.win));
            let _ = writeln!(
                s,
                "  {:<6}{:>8}{:>8}{:>8}",
                "throw", "chance", "win", "luck"
            );
            for t in &v.throws {
                let _ = writeln!(
                    s,
                    "  {:<6}{:>8}{:>8}{:>8}",
                    t.throw,
                    pct(t.chance),
                    pct(t.win),
                    format!("{:+.1}%", 100.0 * t.luck)
                );
            }
        }
        _ => {
            let _ = writeln!(s, "the game is over: player 1's result {}", pct(v.first));
        }
    }
    let _ = write!(
        s,
        "(expectimax at depth {} with the expert evaluator)",
        v.depth
    );
    s
}

fn progress_bar(len: u64) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let b = ProgressBar::new(len);
    b.set_style(
        ProgressStyle::with_template("analysing {bar:30} {pos}/{len} events, {eta} left")
            .expect("a valid template"),
    );
    Some(b)
}

fn calibrate(args: &AnalyzeArgs) -> Result<String, Error> {
    let rules = crate::bench::parse_rules(&args.rules)?;
    if args.games == 0 || args.positions == 0 {
        return Err(Error::Record(
            "--games and --positions must be at least 1".into(),
        ));
    }
    let mut s = String::new();
    let _ = writeln!(
        s,
        "| rule set | bot | depth | positions | lost per real choice | 95% ± | error rate (mEMG) | any loss | ?! | ? | ?? |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|---|");
    for r in rules {
        let start = AnyGame::new(r, &[] as &[&str])?;
        let opt = args
            .depth
            .map_or(Options::for_rules(r), |d| Options::with_depth(r, d));
        let positions = senet_coach::calibrate::calibration_positions(
            &start,
            args.games,
            args.seed,
            args.positions,
        );
        let bar = progress_bar(positions.len() as u64);
        let cal = senet_coach::calibrate::calibrate(&positions, &opt, &|| {
            if let Some(b) = &bar {
                b.inc(1)
            }
        });
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        for c in cal? {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {:.5} | {:.5} | {:.1} | {:.1}% | {:.1}% | {:.1}% | {:.1}% |",
                r.id(),
                c.bot,
                opt.depth,
                c.choices,
                c.lost_per_choice,
                c.margin,
                2000.0 * c.lost_per_choice,
                100.0 * c.wrong,
                100.0 * c.marked[0],
                100.0 * c.marked[1],
                100.0 * c.marked[2],
            );
        }
    }
    Ok(s.trim_end().to_string())
}
