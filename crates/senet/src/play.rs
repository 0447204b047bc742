//! `senet play`: argument checks, then the terminal UI or the plain line mode of the
//! `senet-tui` crate.

use senet_bots::play as opponent;
use senet_rules::series::{Starts, Target};
use senet_rules::{Error, Game, Record, RuleSet};
use senet_tui::session::{clock_seed, Seat, SeriesPlay, Setup};
use senet_tui::Start;

/// Play a game in the terminal (a line mode when input or output is not a terminal).
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// Rule set ID (see `senet rules`); without it, a new-game screen asks.
    rules: Option<String>,
    /// An option as NAME=VALUE (repeatable).
    #[arg(long = "option", short = 'o', value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// The opponent: a level (beginner, casual, strong, expert), a bot name, or human
    /// (hot-seat). With --seat watch, the bot playing both sides, or two bots as A,B.
    #[arg(long, value_name = "LEVEL|BOT|human", default_value = "casual")]
    vs: String,
    /// Where you sit: first, second, or watch (two bots play).
    #[arg(long, value_name = "first|second|watch", default_value = "first")]
    seat: String,
    /// Seed of the throws and the bots (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Resume a saved game record.
    #[arg(long, value_name = "FILE")]
    load: Option<String>,
    /// Use the line mode even on a terminal.
    #[arg(long)]
    plain: bool,
    /// Play a series to N points (games won where the rule set does not score; parker P11,
    /// senat with score=true S12 and pyramid Y9 add up their points).
    #[arg(long, value_name = "N", conflicts_with = "series_games")]
    series: Option<u32>,
    /// Play a series of exactly N games.
    #[arg(long, value_name = "N")]
    series_games: Option<u32>,
    /// Who starts each game of a series: alternate, or rules (the rule set's own start rule).
    #[arg(long, value_name = "alternate|rules", default_value = "alternate")]
    starts: String,
}

fn seats(vs: &str, seat: &str) -> Result<[Seat; 2], Error> {
    let bad = |m: String| Error::Options(m);
    let one = |s: &str| Seat::parse(s).map_err(bad);
    match seat {
        "first" | "second" if vs == "human" => Ok([Seat::Human, Seat::Human]),
        "first" => Ok([Seat::Human, one(vs)?]),
        "second" => Ok([one(vs)?, Seat::Human]),
        "watch" => {
            let (a, b) = vs.split_once(',').unwrap_or((vs, vs));
            let (a, b) = (one(a.trim())?, one(b.trim())?);
            if a == Seat::Human || b == Seat::Human {
                return Err(bad(format!(
                    "--seat watch needs bots in --vs (e.g. --vs {} or --vs beginner,expert), not human",
                    opponent::levels()[1]
                )));
            }
            Ok([a, b])
        }
        _ => Err(bad(format!(
            "--seat is first, second or watch, not {seat:?}"
        ))),
    }
}

/// Checks the arguments, plays, and returns the line to print at the end.
pub fn run(a: PlayArgs) -> Result<String, Error> {
    let seats = seats(&a.vs, &a.seat)?;
    let start = match (&a.load, &a.rules) {
        (Some(_), Some(r)) => {
            return Err(Error::Options(format!(
                "give either a rule set ({r}) or --load FILE, not both: a record names its rule set"
            )))
        }
        (Some(_), None) if !a.options.is_empty() => {
            return Err(Error::Options(
                "--option cannot be used with --load: the record holds the options".into(),
            ))
        }
        (Some(file), None) => {
            let text = std::fs::read_to_string(file)
                .map_err(|e| Error::Record(format!("cannot read {file}: {e}")))?;
            if senet_rules::series::is_series(&text) {
                if a.series.is_some() || a.series_games.is_some() {
                    return Err(Error::Options(
                        "--series cannot be used with --load of a series record: the record holds the target".into(),
                    ));
                }
                let series = senet_rules::Series::from_json(&text)?;
                let (sp, setup, rec) = SeriesPlay::resume(series, seats, a.seed)?;
                return play(Start::Series(Box::new(sp), setup, rec), a.plain);
            }
            if a.series.is_some() || a.series_games.is_some() {
                return Err(Error::Options(
                    "--series starts a new series; --load takes a series record to resume one"
                        .into(),
                ));
            }
            let rec = Record::from_json(&text)?;
            let replay = rec.replay()?;
            let setup = Setup {
                rules: replay.start.rules(),
                options: senet_rules::record::options_of(&replay.start),
                seats,
                seed: a.seed.or(rec.seed).unwrap_or_else(clock_seed),
            };
            Start::Resume(setup, rec, a.seed)
        }
        (None, rules) => {
            let id = rules.as_deref().unwrap_or(RuleSet::ALL[0].id());
            let r: RuleSet = id.parse()?;
            senet_rules::AnyGame::new(r, &a.options)?;
            let setup = Setup {
                rules: r,
                options: a.options.clone(),
                seats,
                seed: a.seed.unwrap_or_else(clock_seed),
            };
            let target = match (a.series, a.series_games) {
                (Some(n), _) => Some(Target::Points(n)),
                (None, Some(n)) => Some(Target::Games(n)),
                (None, None) => None,
            };
            if let Some(target) = target {
                if rules.is_none() {
                    return Err(Error::Options(
                        "--series needs a rule set, e.g. senet play kendall --series 3".into(),
                    ));
                }
                let starts: Starts = a.starts.parse()?;
                let (sp, first) = SeriesPlay::new(&setup, target, starts)?;
                return play(Start::Series(Box::new(sp), first, None), a.plain);
            }
            if rules.is_none() {
                Start::Choose(setup)
            } else {
                Start::New(setup)
            }
        }
    };
    play(start, a.plain)
}

fn play(start: Start, plain: bool) -> Result<String, Error> {
    // Failures past this point are of the terminal or the output, not of the arguments.
    senet_tui::run(start, plain).or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(1)
    })
}
