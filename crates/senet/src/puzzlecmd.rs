//! `senet puzzles`: puzzles drawn from self-play and the exact endgame tables (issue 57,
//! `docs/puzzles.md`), printed as lines for people or JSON lines, and `--check FILE`, which
//! re-checks a JSON-lines file of them. The puzzles themselves are `senet_bots::puzzle`.

use senet_bots::puzzle::{self, Puzzle};
use std::fmt::Write as _;
use std::io::Write as _;
use std::time::Instant;

/// The arguments of `senet puzzles`.
#[derive(clap::Args, Debug)]
pub struct PuzzlesArgs {
    /// `all` or a comma-separated list of rule set IDs.
    #[arg(long, default_value = "all")]
    rules: String,
    /// Puzzles per rule set.
    #[arg(long, default_value_t = 10)]
    count: usize,
    /// The seed: the same seed gives the same puzzles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print JSON lines: one puzzle per line.
    #[arg(long)]
    json: bool,
    /// Instead of generating: re-check a JSON-lines file of puzzles (or - for standard
    /// input); exit 1 naming the first bad puzzle.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["rules", "count", "seed", "json"])]
    check: Option<String>,
}

/// Runs `senet puzzles`; returns the exit code.
pub fn run(args: PuzzlesArgs) -> i32 {
    let result = match &args.check {
        Some(file) => check(file),
        None => generate(&args),
    };
    match result {
        Ok(out) => {
            let mut stdout = std::io::stdout().lock();
            let _ = write!(stdout, "{out}");
            let _ = stdout.flush();
            0
        }
        Err(e) => {
            eprintln!("error: senet puzzles: {e}");
            1
        }
    }
}

fn generate(args: &PuzzlesArgs) -> Result<String, String> {
    let rules = crate::bench::parse_rules(&args.rules).map_err(|e| e.to_string())?;
    let mut out = String::new();
    for r in rules {
        let t = Instant::now();
        let ps = puzzle::generate(r, args.seed, args.count);
        let secs = t.elapsed().as_secs_f64();
        let table = ps.iter().filter(|p| p.source == "table").count();
        eprintln!(
            "{r}: {} puzzles ({} self-play, {table} table) in {secs:.1} s",
            ps.len(),
            ps.len() - table
        );
        for p in &ps {
            if args.json {
                let _ = writeln!(
                    out,
                    "{}",
                    serde_json::to_string(p).expect("a puzzle serialises")
                );
            } else {
                let _ = writeln!(out, "{}", line(p));
            }
        }
    }
    Ok(out)
}

/// A puzzle in one readable line.
fn line(p: &Puzzle) -> String {
    format!(
        "{}  {}  throw {}  best {}  by {:.1}%  {}{}",
        p.rules,
        p.position,
        p.throw,
        p.best,
        100.0 * p.margin,
        if p.themes.is_empty() {
            "-".to_string()
        } else {
            p.themes.join(",")
        },
        if p.exact { "  (exact)" } else { "" }
    )
}

fn check(file: &str) -> Result<String, String> {
    let text = crate::cli::read_input(file).map_err(|e| e.to_string())?;
    let mut n = 0;
    for (i, l) in text.lines().enumerate() {
        if l.trim().is_empty() {
            continue;
        }
        let at = |what: String| format!("{file} line {}: {what}", i + 1);
        let p: Puzzle =
            serde_json::from_str(l).map_err(|e| at(format!("not a puzzle's JSON: {e}")))?;
        puzzle::check(&p).map_err(|e| at(format!("bad puzzle {}: {e}", p.position)))?;
        n += 1;
    }
    Ok(format!(
        "{n} puzzle{} checked: every one is right\n",
        if n == 1 { "" } else { "s" }
    ))
}
