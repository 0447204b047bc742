//! `senet solve`: builds the exact endgame tables of the stick rule sets
//! (`senet_bots::exact`, `docs/solve.md`).

use senet_bots::exact::{self, BuildOptions, Progress, SweepReport, Table};
use senet_rules::RuleSet;
use serde_json::json;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `senet solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// `kendall`, `kendall5`, `senat`, `houses`, or `all` (default options only).
    rules: String,
    /// Pieces per side on the board, at most: every position with 1 to N pieces of each side
    /// (the rest borne off) is solved. 1 to 4 (4: 421 million positions, see docs/solve.md).
    #[arg(long, default_value_t = 3)]
    pieces: usize,
    /// Directory of the table files (default: $SENET_TABLES, else the per-user data
    /// directory, e.g. ~/.local/share/senet/tables).
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Also count what the table says (mean value of throwing first, kinds of best moves):
    /// one more pass over the positions.
    #[arg(long)]
    stats: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// Threads for the solve and the residual check: 1 is the sequential Gauss-Seidel
    /// solver; 0 (the default) means $RAYON_NUM_THREADS, else one per core.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Bits per value in the file: 32 (f32) or 16 (fixed point, error at most 1/131070).
    #[arg(long, default_value_t = 32)]
    bits: u32,
    /// GiB the successor graph of one level pair may take (default 12); the positions past
    /// it are backed up through the rules at every sweep (slower, the same values).
    #[arg(long)]
    memory: Option<f64>,
    /// Where value iteration starts: `net` (the default), the rule set's network's values,
    /// or `half`, one half everywhere. The same values either way; `net` takes fewer sweeps.
    #[arg(long, default_value = "net")]
    start: senet_bots::exact::Start,
    /// Save the work every M minutes (0: only when --for stops the build) to
    /// RULES-N.senet-partial in the tables' directory, and go on from such a file when one is
    /// there: a build stopped or killed loses at most M minutes. The file is removed once the
    /// table is written.
    #[arg(long, default_value_t = 10.0, value_name = "M")]
    checkpoint_minutes: f64,
    /// Stop after about this many minutes (between sweeps), the work saved to the
    /// checkpoint, with exit status 3; the same command again goes on from it (to build a
    /// big table across sessions or nights).
    #[arg(long = "for", value_name = "MINUTES")]
    for_minutes: Option<f64>,
    /// Remove a checkpoint that is there and build from scratch.
    #[arg(long)]
    restart: bool,
    /// Print a line to stderr after a sweep (level pair, sweep, largest change, time), at most
    /// one every 10 seconds.
    #[arg(long)]
    progress: bool,
    /// Plain value iteration: no jumps ahead where a level converges slowly (by default, once
    /// the largest change falls by a steady ratio r a sweep, every value moves r/(1-r) times
    /// its last change; the same fixed point in fewer sweeps).
    #[arg(long)]
    no_extrapolate: bool,
}

/// The exit status of a build stopped by `--for`, its work saved.
pub const STOPPED: i32 = 3;

/// Builds and writes the tables; returns the process exit code.
pub fn run(args: SolveArgs) -> i32 {
    match solve(&args) {
        Ok((out, stopped)) => {
            let mut stdout = std::io::stdout().lock();
            let _ = writeln!(stdout, "{out}");
            if stopped {
                STOPPED
            } else {
                0
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

/// The output, and whether a build stopped (`--for`) before its table was done.
fn solve(args: &SolveArgs) -> Result<(String, bool), String> {
    let rules: Vec<RuleSet> = if args.rules == "all" {
        exact::RULE_SETS.to_vec()
    } else {
        args.rules
            .split(',')
            .map(|r| {
                r.trim()
                    .parse::<RuleSet>()
                    .ok()
                    .filter(|r| exact::RULE_SETS.contains(r))
                    .ok_or_else(|| {
                        format!(
                            "senet solve takes kendall, kendall5, senat, houses or all, not {r:?}"
                        )
                    })
            })
            .collect::<Result<_, _>>()?
    };
    if !(1..=exact::MAX_PIECES).contains(&args.pieces) {
        return Err(format!(
            "--pieces must be from 1 to {}, got {}",
            exact::MAX_PIECES,
            args.pieces
        ));
    }
    let dir = args
        .dir
        .clone()
        .or_else(exact::default_dir)
        .ok_or("no directory for the tables: give --dir or set SENET_TABLES".to_string())?;
    if args.bits != 16 && args.bits != 32 {
        return Err(format!("--bits must be 16 or 32, got {}", args.bits));
    }
    let memory = match args.memory {
        None => 0,
        Some(g) if g.is_finite() && g >= 0.0 => ((g * (1u64 << 30) as f64) as u64).max(1),
        Some(g) => return Err(format!("--memory must be a size in GiB, got {g}")),
    };
    let opts = BuildOptions {
        threads: args.threads,
        bits: args.bits,
        memory,
        start: args.start,
        extrapolate: !args.no_extrapolate,
    };
    let threads = opts.resolved_threads();
    let began = Instant::now();
    let minutes = |m: f64, what: &str| {
        if m.is_finite() && m >= 0.0 {
            Ok(std::time::Duration::from_secs_f64(m * 60.0))
        } else {
            Err(format!(
                "{what} must be a number of minutes, at least 0, got {m}"
            ))
        }
    };
    let every = minutes(args.checkpoint_minutes, "--checkpoint-minutes")?;
    let stop_after = args.for_minutes.map(|m| minutes(m, "--for")).transpose()?;
    // 0: never saved on the way (a stop still saves, and a checkpoint there is still read).
    let every = if every.is_zero() {
        std::time::Duration::MAX
    } else {
        every
    };
    let mut text = Vec::new();
    let mut out = Vec::new();
    for r in rules {
        let start = Instant::now();
        let cpu = cpu_time::ProcessTime::now();
        let mut levels = Vec::new();
        let path = dir.join(exact::file_name(r, args.pieces));
        let partial = exact::partial_name(&path);
        if args.restart {
            exact::remove_checkpoint(&partial)?;
        } else if partial.exists() {
            eprintln!(
                "senet solve {r}: going on from the checkpoint {} (--restart to build from scratch)",
                partial.display()
            );
        }
        let checkpoint = exact::Checkpoint {
            path: partial.clone(),
            every,
            stop_after: stop_after.map(|d| d.saturating_sub(began.elapsed())),
        };
        // The pair of the last sweep line and its seconds then (0 for a pair not printed yet).
        let mut printed = ((0, 0), 0.0);
        let built = Table::build_resumable(r, args.pieces, opts, Some(&checkpoint), &mut |p| {
            let l = match p {
                Progress::Level(l) => l,
                Progress::Sweep(s) if args.progress => {
                    if printed.0 != s.pieces {
                        printed = (s.pieces, 0.0);
                    }
                    if s.seconds - printed.1 >= PROGRESS_SECONDS {
                        printed.1 = s.seconds;
                        eprintln!("{}", sweep_line(&s));
                    }
                    return;
                }
                Progress::Jump {
                    pieces: (a, b),
                    sweeps,
                    ratio,
                } if args.progress => {
                    eprintln!(
                        "level {a}v{b}: after sweep {sweeps}, every value moved {:.1} times its last change (ratio {ratio:.4})",
                        ratio / (1.0 - ratio)
                    );
                    return;
                }
                _ => return,
            };
            eprintln!(
                "senet solve {r}: level {}v{}: {} positions, {} sweeps, last change {:.1e}, {:.1} s ({:.1} s listing and successors; graph {}{}){}",
                l.pieces.0, l.pieces.1, l.states, l.sweeps, l.last_change, l.seconds, l.graph_seconds,
                size(l.graph_bytes),
                if l.recomputed > 0 { format!(", {} positions over budget backed up through the rules", l.recomputed) } else { String::new() },
                if l.resumed { " (partly or wholly in an earlier run, from the checkpoint)" } else { "" }
            );
            levels.push(json!({
                "pieces": [l.pieces.0, l.pieces.1],
                "states": l.states,
                "sweeps": l.sweeps,
                "last_change": l.last_change,
                "seconds": l.seconds,
                "graph_seconds": l.graph_seconds,
                "graph_bytes": l.graph_bytes,
                "graph_leaves": l.graph_leaves,
                "near_leaves": l.near_leaves,
                "recomputed": l.recomputed,
                "resumed": l.resumed,
            }));
        })?;
        let table = match built {
            exact::Built::Table(table, _) => table,
            exact::Built::Stopped(done) => {
                text.push(format!(
                    "{r}: stopped after {:.1} min with {} level pairs done, the work saved in {}; the same command goes on from it",
                    start.elapsed().as_secs_f64() / 60.0,
                    done.len(),
                    partial.display()
                ));
                out.push(json!({
                    "rules": r.id(),
                    "pieces": args.pieces,
                    "stopped": true,
                    "checkpoint": partial.display().to_string(),
                    "seconds": start.elapsed().as_secs_f64(),
                    "levels": levels,
                }));
                return Ok((finish(args, text, out), true));
            }
        };
        let seconds = start.elapsed().as_secs_f64();
        let cpu_seconds = cpu.elapsed().as_secs_f64();
        // Written first, so that a stop during the check (minutes at 4 pieces) keeps the table.
        table.write(&path)?;
        exact::remove_checkpoint(&partial)?;
        // One more pass: how far the values as kept are from their own Bellman update.
        let check = Instant::now();
        let residual = table.bellman_residual(args.threads);
        let residual_seconds = check.elapsed().as_secs_f64();
        let bytes = std::fs::metadata(&path)
            .map_err(|e| format!("cannot read back {}: {e}", path.display()))?
            .len();
        // Read it back as a user would, so that a bad file is caught here.
        Table::read(&path, r)?;
        text.push(format!(
            "{r}: {} positions with 1-{} pieces per side, built in {seconds:.1} s ({cpu_seconds:.1} s CPU) on {threads} thread{}, {} ({}-bit values) written to {}; Bellman residual {residual:.2e} ({residual_seconds:.1} s)",
            table.states(),
            args.pieces,
            if threads == 1 { "" } else { "s" },
            size(bytes),
            args.bits,
            path.display()
        ));
        let mut o = json!({
            "rules": r.id(),
            "pieces": args.pieces,
            "states": table.states(),
            "seconds": seconds,
            "cpu_seconds": cpu_seconds,
            "threads": threads,
            "bits": args.bits,
            "bellman_residual": residual,
            "residual_seconds": residual_seconds,
            "bytes": bytes,
            "path": path.display().to_string(),
            "levels": levels,
            "tolerance": opts.tolerance(),
            "graph_budget": opts.graph_budget(),
            "start": opts.start.to_string(),
            "extrapolate": opts.extrapolate,
            "peak_rss_bytes": peak_rss(),
        });
        if args.stats {
            let s = table.stats();
            let pct = |x: u64| 100.0 * x as f64 / s.choices.max(1) as f64;
            for (k, m) in s.mean_first.iter().enumerate() {
                let (behind, ahead) = s.races[k];
                text.push(format!(
                    "  {k}v{k}: the side to throw wins {:.2}% on average over every position; {:.2}% a step behind (on {}), {:.2}% a step ahead",
                    100.0 * m,
                    100.0 * behind,
                    ["20", "20, 22", "20, 22, 24", "18, 20, 22, 24"][k],
                    100.0 * ahead,
                    k = k + 1
                ));
            }
            text.push(format!(
                "  throws with a choice: {}; the best move goes backward in {:.2}%, hits (capture, swap, send back) in {:.2}%, bears off in {:.2}%; best beats second best by over 0.01 in {:.2}%",
                s.choices,
                pct(s.best_backward),
                pct(s.best_hit),
                pct(s.best_bear_off),
                pct(s.clear_choices)
            ));
            o["stats"] = json!({
                "mean_side_to_throw": s.mean_first,
                "race_behind": s.races.iter().map(|r| r.0).collect::<Vec<_>>(),
                "race_ahead": s.races.iter().map(|r| r.1).collect::<Vec<_>>(),
                "choices": s.choices,
                "best_backward": s.best_backward,
                "best_hit": s.best_hit,
                "best_bear_off": s.best_bear_off,
                "clear_choices": s.clear_choices,
            });
        }
        out.push(o);
    }
    Ok((finish(args, text, out), false))
}

/// Seconds between two `--progress` lines of a level pair's sweeps.
const PROGRESS_SECONDS: f64 = 10.0;

/// A `--progress` line: the sweep, its largest change, the trend a jump waits for, the time.
fn sweep_line(s: &SweepReport) -> String {
    let (a, b) = s.pieces;
    let trend = s.trend.map_or(String::new(), |(ratio, aligned)| {
        format!("; changes {ratio:.4} times the last sweep's, aligned {aligned:.4}")
    });
    format!(
        "level {a}v{b}: sweep {}, largest change {:.2e}{trend}, {:.1} s ({:.1} s listing and successors)",
        s.sweeps, s.largest_change, s.seconds, s.graph_seconds
    )
}

/// The command's output: the text lines, or with --json the tables' JSON.
fn finish(args: &SolveArgs, text: Vec<String>, out: Vec<serde_json::Value>) -> String {
    if args.json {
        serde_json::to_string_pretty(&json!({ "tables": out })).expect("JSON")
    } else {
        text.join("\n")
    }
}

/// The process's peak resident memory so far (Linux: VmHWM), if known.
fn peak_rss() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn size(bytes: u64) -> String {
    if bytes >= 1 << 30 {
        return format!("{:.2} GiB", bytes as f64 / (1u64 << 30) as f64);
    }
    if bytes >= 1 << 20 {
        format!("{:.1} MiB", bytes as f64 / (1 << 20) as f64)
    } else {
        format!("{:.1} KiB", bytes as f64 / 1024.0)
    }
}
