//! # senet-lab
//!
//! Compares rule sets: measures simulated games (balance, length, captures, swaps, sends back,
//! backward moves, forfeits, bonus throws, lead changes, scores) by replaying their records
//! with the rules library, and writes `report.md`, `report.json` and SVG plots.
#![forbid(unsafe_code)]

pub mod plots;
pub mod report;
pub mod stats;

pub use report::{markdown, LuckRate, Rate, RuleSetReport, Summary};
pub use stats::{measure, measure_play, GameStats};

use std::path::Path;

/// Writes `report.md`, `report.json`, `lengths.svg`, `first_player.svg` and `events.svg`.
pub fn write(
    dir: &Path,
    title: &str,
    command: &str,
    reports: &[RuleSetReport],
) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let w = |name: &str, text: String| {
        std::fs::write(dir.join(name), text).map_err(|e| format!("cannot write {name}: {e}"))
    };
    w("report.md", markdown(title, command, reports))?;
    let json = serde_json::json!({ "command": command, "rule_sets": reports });
    w(
        "report.json",
        serde_json::to_string_pretty(&json).expect("json") + "\n",
    )?;
    plots::lengths(&dir.join("lengths.svg"), reports)?;
    plots::first_player(&dir.join("first_player.svg"), reports)?;
    plots::events(&dir.join("events.svg"), reports)?;
    Ok(())
}
