//! Aggregates per rule set, and the report files: `report.md`, `report.json`, SVG plots.

use crate::stats::GameStats;
use serde::Serialize;

/// Mean, median and 90th percentile of a count per game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Arithmetic mean.
    pub mean: f64,
    /// Median (lower middle for even counts).
    pub median: f64,
    /// 90th percentile (nearest rank).
    pub p90: f64,
}

impl Summary {
    /// Summarises values (at least one).
    pub fn of(values: &[u32]) -> Summary {
        let mut v = values.to_vec();
        v.sort_unstable();
        let n = v.len().max(1);
        let mean = v.iter().map(|&x| x as f64).sum::<f64>() / n as f64;
        let rank = |q: f64| {
            v.get(((q * n as f64).ceil() as usize).clamp(1, n) - 1)
                .copied()
                .unwrap_or(0) as f64
        };
        Summary {
            mean,
            median: rank(0.5),
            p90: rank(0.9),
        }
    }
}

/// A proportion with its 95% Wilson score interval.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rate {
    /// Successes / trials.
    pub rate: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

impl Rate {
    /// `wins` out of `n` (draws count half, as `half`).
    pub fn wilson(wins: f64, n: f64) -> Rate {
        if n == 0.0 {
            return Rate {
                rate: 0.0,
                low: 0.0,
                high: 1.0,
            };
        }
        let z = 1.959_963_984_540_054;
        let p = wins / n;
        let d = 1.0 + z * z / n;
        let c = (p + z * z / (2.0 * n)) / d;
        let h = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / d;
        Rate {
            rate: p,
            low: (c - h).max(0.0),
            high: (c + h).min(1.0),
        }
    }
}

/// The first player's share of points with every throw's luck taken out (`senet lab --luck
/// JUDGE`): each game's points of the side that moves first, less its luck from its first
/// throw on as the judge values the throws, averaged; the interval is over the duplicate
/// pairs' means (normal approximation). The luck of a throw averages zero over the throws
/// that could have been made, so this has the plain share's mean with a narrower interval.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LuckRate {
    /// The bot that valued the throws.
    pub judge: String,
    /// The mean (not bounded to 0-1 in a single game).
    pub rate: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

impl LuckRate {
    /// The mean of `pair_means` (each a duplicate pair's two games' luck-adjusted points of
    /// the first mover) and its 95% interval.
    pub fn of(judge: &str, pair_means: &[f64]) -> LuckRate {
        let n = pair_means.len().max(1) as f64;
        let mean = pair_means.iter().sum::<f64>() / n;
        let var = if pair_means.len() > 1 {
            pair_means.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)
        } else {
            0.0
        };
        let h = 1.959_963_984_540_054 * (var / n).sqrt();
        LuckRate {
            judge: judge.into(),
            rate: mean,
            low: mean - h,
            high: mean + h,
        }
    }
}

/// Everything measured for one rule set (with its options and bots).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RuleSetReport {
    /// Rule set ID.
    pub rules: String,
    /// Non-default options, `NAME=VALUE`.
    pub options: Vec<String>,
    /// The bots of the first and second seat (games alternate seats in duplicate pairs).
    pub bots: [String; 2],
    /// Games played.
    pub games: u32,
    /// The first player's share of points (win 1, draw 1/2) with its 95% interval.
    pub first_player: Rate,
    /// Draws (including cap hits).
    pub draws: u32,
    /// Games ended by the turn cap.
    pub cap_hits: u32,
    /// Decisions per game.
    pub decisions: Summary,
    /// Turns per game.
    pub turns: Summary,
    /// Captures per game.
    pub captures: Summary,
    /// Swaps per game.
    pub swaps: Summary,
    /// Pieces sent back per game.
    pub sent_back: Summary,
    /// Backward moves per game.
    pub backward: Summary,
    /// Forfeited throws per game.
    pub forfeits: Summary,
    /// Bonus throws per game.
    pub bonus: Summary,
    /// Falls into the water per game.
    pub traps: Summary,
    /// Lead changes per game.
    pub lead_changes: Summary,
    /// For scored rule sets: the winner's score and the margin.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scores: Option<ScoreSummary>,
    /// For scored rule sets: the games grouped into series to a target (issue 13), set by
    /// the caller with [`RuleSetReport::with_series`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub series: Option<SeriesSummary>,
    /// The first player's share with the luck taken out, where the lab was given a judge
    /// ([`RuleSetReport::with_luck`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_player_luck_adjusted: Option<LuckRate>,
    /// Decisions of every game, for the length plot.
    #[serde(skip)]
    pub lengths: Vec<u32>,
}

/// The score distribution of a scored rule set.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScoreSummary {
    /// The first player's points per game.
    pub first: Summary,
    /// The second player's points per game.
    pub second: Summary,
    /// |first - second| per game.
    pub margin: Summary,
    /// Counts of each margin, smallest first: (margin, games).
    pub margins: Vec<(u32, u32)>,
    /// Series points a game gives, both sides together (the winner's score in parker P11
    /// and senat S12, both sides' in pyramid Y9; nothing at the turn cap).
    pub points_per_game: Summary,
}

/// The games of one configuration played as consecutive series to a target of points
/// between the two bots (each bot keeps its seat; the games alternate who moves first).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeriesSummary {
    /// Points a series is played to.
    pub target: u32,
    /// Complete series (games left over at the end are not counted).
    pub series: u32,
    /// Games per series.
    pub games: Summary,
    /// Points per series, both bots together.
    pub points: Summary,
    /// Series won by the first bot named.
    pub first_bot_won: u32,
}

impl RuleSetReport {
    /// Aggregates the games of one configuration.
    pub fn new(
        rules: &str,
        options: Vec<String>,
        bots: [String; 2],
        games: &[GameStats],
    ) -> RuleSetReport {
        let col = |f: fn(&GameStats) -> u32| Summary::of(&games.iter().map(f).collect::<Vec<_>>());
        let n = games.len() as u32;
        let first_wins = games
            .iter()
            .filter(|g| g.winner.is_some() && g.winner == Some(g.first_mover))
            .count() as f64;
        let draws = games.iter().filter(|g| g.winner.is_none()).count() as u32;
        let scored: Vec<[u32; 2]> = games.iter().filter_map(|g| g.score).collect();
        let awarded: Vec<u32> = games
            .iter()
            .filter(|g| g.score.is_some())
            .map(|g| {
                let p = senet_rules::series::game_points(&senet_rules::Outcome {
                    winner: g
                        .winner
                        .map(|w| senet_rules::Player::from_index(w as usize - 1)),
                    capped: g.capped,
                    score: g.score,
                });
                p[0] + p[1]
            })
            .collect();
        let scores = (!scored.is_empty()).then(|| {
            let margins: Vec<u32> = scored.iter().map(|s| s[0].abs_diff(s[1])).collect();
            let mut counts: Vec<(u32, u32)> = Vec::new();
            let mut sorted = margins.clone();
            sorted.sort_unstable();
            for m in sorted {
                match counts.last_mut() {
                    Some((k, c)) if *k == m => *c += 1,
                    _ => counts.push((m, 1)),
                }
            }
            ScoreSummary {
                first: Summary::of(&scored.iter().map(|s| s[0]).collect::<Vec<_>>()),
                second: Summary::of(&scored.iter().map(|s| s[1]).collect::<Vec<_>>()),
                margin: Summary::of(&margins),
                margins: counts,
                points_per_game: Summary::of(&awarded),
            }
        });
        RuleSetReport {
            rules: rules.into(),
            options,
            bots,
            games: n,
            first_player: Rate::wilson(first_wins + draws as f64 / 2.0, n as f64),
            draws,
            cap_hits: games.iter().filter(|g| g.capped).count() as u32,
            decisions: col(|g| g.decisions),
            turns: col(|g| g.turns),
            captures: col(|g| g.captures),
            swaps: col(|g| g.swaps),
            sent_back: col(|g| g.sent_back),
            backward: col(|g| g.backward),
            forfeits: col(|g| g.forfeits),
            bonus: col(|g| g.bonus),
            traps: col(|g| g.traps),
            lead_changes: col(|g| g.lead_changes),
            scores,
            series: None,
            first_player_luck_adjusted: None,
            lengths: games.iter().map(|g| g.decisions).collect(),
        }
    }

    /// Groups games into consecutive series to `target` points: `points` holds each game's
    /// series points of the first and the second bot named, in the order played.
    pub fn with_series(mut self, target: u32, points: &[[u32; 2]]) -> RuleSetReport {
        let (mut games, mut pts) = (Vec::new(), Vec::new());
        let (mut acc, mut n, mut won) = ([0u32; 2], 0u32, 0u32);
        for p in points {
            acc = [acc[0] + p[0], acc[1] + p[1]];
            n += 1;
            let st =
                senet_rules::series::standing(senet_rules::Target::Points(target), acc, n as usize);
            if st.over {
                games.push(n);
                pts.push(acc[0] + acc[1]);
                won += (st.winner == Some(1)) as u32;
                acc = [0, 0];
                n = 0;
            }
        }
        self.series = Some(SeriesSummary {
            target,
            series: games.len() as u32,
            games: Summary::of(&games),
            points: Summary::of(&pts),
            first_bot_won: won,
        });
        self
    }

    /// Sets the first player's share with the luck taken out ([`LuckRate::of`]).
    pub fn with_luck(mut self, judge: &str, pair_means: &[f64]) -> RuleSetReport {
        self.first_player_luck_adjusted = Some(LuckRate::of(judge, pair_means));
        self
    }

    /// A label such as `houses (swap=true)`.
    pub fn label(&self) -> String {
        if self.options.is_empty() {
            self.rules.clone()
        } else {
            format!("{} ({})", self.rules, self.options.join(","))
        }
    }
}

fn pct(r: &Rate) -> String {
    format!(
        "{:.1}% [{:.1}, {:.1}]",
        100.0 * r.rate,
        100.0 * r.low,
        100.0 * r.high
    )
}

fn s3(s: &Summary) -> String {
    format!("{:.1} / {} / {}", s.mean, s.median, s.p90)
}

/// The Markdown report: one table comparing the rule sets, then score distributions.
pub fn markdown(title: &str, command: &str, reports: &[RuleSetReport]) -> String {
    let mut md = format!("# {title}\n\nMade by `{command}`. Same seed, same report.\n\n");
    md.push_str("First player: share of points of the side that moves first (win 1, draw 1/2), with its 95% Wilson interval. Counts per game are mean / median / 90th percentile.\n\n");
    md.push_str("| rule set | bots | games | first player | draws (cap) | decisions | turns | captures | swaps | sent back | backward | forfeits | bonus throws | water | lead changes |\n");
    md.push_str("|---|---|---:|---|---:|---|---|---|---|---|---|---|---|---|---|\n");
    for r in reports {
        md.push_str(&format!(
            "| {} | {} vs {} | {} | {} | {} ({}) | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            r.label(),
            r.bots[0],
            r.bots[1],
            r.games,
            pct(&r.first_player),
            r.draws,
            r.cap_hits,
            s3(&r.decisions),
            s3(&r.turns),
            s3(&r.captures),
            s3(&r.swaps),
            s3(&r.sent_back),
            s3(&r.backward),
            s3(&r.forfeits),
            s3(&r.bonus),
            s3(&r.traps),
            s3(&r.lead_changes),
        ));
    }
    let lucky: Vec<&RuleSetReport> = reports
        .iter()
        .filter(|r| r.first_player_luck_adjusted.is_some())
        .collect();
    if !lucky.is_empty() {
        md.push_str("\n## The first player with the luck taken out\n\nEach game's points of the side that moves first, less its luck from its first throw on: for every throw, its win chance after that throw less the mean over the throws that could have been made, as the judge values them (parker's dice-off, which decides who moves first, is not counted). The luck averages zero over the throws, so the figure has the same mean as the plain share whatever the judge; the better the judge values positions as the bots play them, the narrower its interval (95%, over the duplicate pairs' means); a judge that plays far better than the bots (a search judging random play) can widen it, as the last column shows.\n\n| rule set | bots | first player | luck taken out | judge | interval narrower by |\n|---|---|---|---|---|---:|\n");
        for r in lucky {
            let l = r.first_player_luck_adjusted.as_ref().expect("filtered");
            let width = |lo: f64, hi: f64| (hi - lo).max(1e-12);
            md.push_str(&format!(
                "| {} | {} vs {} | {} | {:.2}% [{:.2}, {:.2}] | {} | {:.1}x |\n",
                r.label(),
                r.bots[0],
                r.bots[1],
                pct(&r.first_player),
                100.0 * l.rate,
                100.0 * l.low,
                100.0 * l.high,
                l.judge,
                width(r.first_player.low, r.first_player.high) / width(l.low, l.high),
            ));
        }
    }
    let scored: Vec<&RuleSetReport> = reports.iter().filter(|r| r.scores.is_some()).collect();
    if !scored.is_empty() {
        md.push_str("\n## Scores\n\n| rule set | bots | first player's points | second player's points | margin | margins (margin: games) |\n|---|---|---|---|---|---|\n");
        for r in scored {
            let s = r.scores.as_ref().expect("filtered");
            let dist: Vec<String> = s.margins.iter().map(|(m, c)| format!("{m}: {c}")).collect();
            md.push_str(&format!(
                "| {} | {} vs {} | {} | {} | {} | {} |\n",
                r.label(),
                r.bots[0],
                r.bots[1],
                s3(&s.first),
                s3(&s.second),
                s3(&s.margin),
                dist.join(", ")
            ));
        }
        md.push_str("\n## Series\n\nThe points a series adds up (parker P11 and senat S12: the winner's score; pyramid Y9: both sides' pyramids; nothing at the turn cap), per game and per series when the games are played in turn as series to the target (mean / median / 90th percentile).\n\n| rule set | bots | points per game | series to | series | games per series | points per series | series won by the first bot |\n|---|---|---|---:|---:|---|---|---:|\n");
        for r in reports.iter().filter(|r| r.scores.is_some()) {
            let s = r.scores.as_ref().expect("filtered");
            let (to, n, g, p, w) = match &r.series {
                Some(x) => (
                    x.target.to_string(),
                    x.series.to_string(),
                    s3(&x.games),
                    s3(&x.points),
                    x.first_bot_won.to_string(),
                ),
                None => ("-".into(), "-".into(), "-".into(), "-".into(), "-".into()),
            };
            md.push_str(&format!(
                "| {} | {} vs {} | {} | {to} | {n} | {g} | {p} | {w} |\n",
                r.label(),
                r.bots[0],
                r.bots[1],
                s3(&s.points_per_game),
            ));
        }
    }
    md.push_str("\n## Plots\n\n![game length](lengths.svg)\n\n![first-player advantage](first_player.svg)\n\n![events per game](events.svg)\n");
    md
}
