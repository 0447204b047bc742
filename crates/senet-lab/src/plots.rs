//! SVG plots of a lab run (plotters, SVG backend only).

use crate::report::RuleSetReport;
use plotters::prelude::*;
use std::path::Path;

const COLOURS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

/// Reads one mean from a report.
type Metric = fn(&RuleSetReport) -> f64;

fn err(e: impl std::fmt::Display) -> String {
    format!("plot: {e}")
}

/// Game length distributions: the share of games per length bin, one line per rule set.
pub fn lengths(path: &Path, reports: &[RuleSetReport]) -> Result<(), String> {
    let max = reports
        .iter()
        .flat_map(|r| r.lengths.iter().copied())
        .max()
        .unwrap_or(1)
        .max(1);
    let bins = 40u32;
    let width = max.div_ceil(bins).max(1);
    let series: Vec<Vec<(f64, f64)>> = reports
        .iter()
        .map(|r| {
            let mut h = vec![0u32; bins as usize + 1];
            for &l in &r.lengths {
                h[(l / width).min(bins) as usize] += 1;
            }
            let n = r.lengths.len().max(1) as f64;
            h.iter()
                .enumerate()
                .map(|(i, &c)| ((i as u32 * width + width / 2) as f64, c as f64 / n))
                .collect()
        })
        .collect();
    let ymax = series
        .iter()
        .flatten()
        .map(|p| p.1)
        .fold(0.0, f64::max)
        .max(0.01)
        * 1.1;
    let root = SVGBackend::new(path, (900, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption("Game length (decisions per game)", ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(0f64..(max as f64 * 1.02), 0f64..ymax)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("decisions (forfeits included)")
        .y_desc("share of games")
        .draw()
        .map_err(err)?;
    for (i, (r, s)) in reports.iter().zip(series).enumerate() {
        let c = COLOURS[i % COLOURS.len()];
        chart
            .draw_series(LineSeries::new(s, c.stroke_width(2)))
            .map_err(err)?
            .label(format!("{} ({} vs {})", r.label(), r.bots[0], r.bots[1]))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(err)?;
    root.present().map_err(err)
}

/// The first player's share of points per configuration, with its 95% interval.
pub fn first_player(path: &Path, reports: &[RuleSetReport]) -> Result<(), String> {
    let n = reports.len().max(1);
    let root = SVGBackend::new(path, (900, 120 + 40 * n as u32)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let adjusted = || {
        reports
            .iter()
            .filter_map(|r| r.first_player_luck_adjusted.as_ref())
    };
    let lo = reports
        .iter()
        .map(|r| r.first_player.low)
        .chain(adjusted().map(|l| l.low))
        .fold(0.45, f64::min)
        - 0.02;
    let hi = reports
        .iter()
        .map(|r| r.first_player.high)
        .chain(adjusted().map(|l| l.high))
        .fold(0.55, f64::max)
        + 0.02;
    let caption = if adjusted().next().is_some() {
        "First player's share of points, 95% interval (black: the luck taken out)"
    } else {
        "First player's share of points, 95% interval"
    };
    let mut chart = ChartBuilder::on(&root)
        .caption(caption, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(300)
        .build_cartesian_2d(lo..hi, 0f64..n as f64)
        .map_err(err)?;
    let labels: Vec<String> = reports
        .iter()
        .map(|r| format!("{} ({} vs {})", r.label(), r.bots[0], r.bots[1]))
        .collect();
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(n * 2 + 1)
        .y_label_formatter(&|y| {
            let i = (*y - 0.5).round();
            if (y - 0.5 - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < labels.len() {
                labels[i as usize].clone()
            } else {
                String::new()
            }
        })
        .x_desc("share of points of the side that moves first")
        .draw()
        .map_err(err)?;
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![(0.5, 0.0), (0.5, n as f64)],
            BLACK.mix(0.5),
        )))
        .map_err(err)?;
    for (i, r) in reports.iter().enumerate() {
        let y = i as f64 + 0.5;
        let c = COLOURS[i % COLOURS.len()];
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(r.first_player.low, y), (r.first_player.high, y)],
                c.stroke_width(3),
            )))
            .map_err(err)?;
        chart
            .draw_series(std::iter::once(Circle::new(
                (r.first_player.rate, y),
                5,
                c.filled(),
            )))
            .map_err(err)?;
        // The same share with the luck taken out, just below, in black.
        if let Some(l) = &r.first_player_luck_adjusted {
            let y = y - 0.25;
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(l.low, y), (l.high, y)],
                    BLACK.stroke_width(2),
                )))
                .map_err(err)?;
            chart
                .draw_series(std::iter::once(Circle::new((l.rate, y), 3, BLACK.filled())))
                .map_err(err)?;
        }
    }
    root.present().map_err(err)
}

/// Mean events per game, grouped by kind, one bar per configuration.
pub fn events(path: &Path, reports: &[RuleSetReport]) -> Result<(), String> {
    let kinds: [(&str, Metric); 7] = [
        ("captures", |r| r.captures.mean),
        ("swaps", |r| r.swaps.mean),
        ("sent back", |r| r.sent_back.mean),
        ("backward", |r| r.backward.mean),
        ("forfeits", |r| r.forfeits.mean),
        ("water", |r| r.traps.mean),
        ("lead changes", |r| r.lead_changes.mean),
    ];
    let ymax = reports
        .iter()
        .flat_map(|r| kinds.iter().map(move |(_, f)| f(r)))
        .fold(1.0, f64::max)
        * 1.1;
    let n = reports.len().max(1) as f64;
    let root = SVGBackend::new(path, (900, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption("Events per game (mean)", ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(0f64..kinds.len() as f64, 0f64..ymax)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(kinds.len() * 2 + 1)
        .x_label_formatter(&|x| {
            let i = (*x - 0.5).round();
            if (x - 0.5 - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < kinds.len() {
                kinds[i as usize].0.to_string()
            } else {
                String::new()
            }
        })
        .y_desc("per game")
        .draw()
        .map_err(err)?;
    let w = 0.8 / n;
    for (j, r) in reports.iter().enumerate() {
        let c = COLOURS[j % COLOURS.len()];
        chart
            .draw_series(kinds.iter().enumerate().map(|(k, (_, f))| {
                let x0 = k as f64 + 0.1 + j as f64 * w;
                Rectangle::new([(x0, 0.0), (x0 + w, f(r))], c.filled())
            }))
            .map_err(err)?
            .label(format!("{} ({} vs {})", r.label(), r.bots[0], r.bots[1]))
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], c.filled()));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(err)?;
    root.present().map_err(err)
}
