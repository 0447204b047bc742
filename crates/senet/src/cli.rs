//! Command-line parsing and the rules commands (`rules`, `new`, `moves`, `apply`, `show`,
//! `random-game`, `replay`); `play` is in `play.rs`, `serve` in `serve.rs`.

use clap::{Parser, Subcommand};
use rand::{RngCore, SeedableRng};
use rand_pcg::Pcg64Mcg;
use senet_rules::{AnyGame, Error, Game, MoveList, OptionKind, Record, RuleSet, Status, Throw};
use senet_rules::{Notation, View};
use serde_json::{json, Value};
use std::io::Write;

/// Play, analyse and compare Senet rule sets.
#[derive(Parser, Debug)]
#[command(name = "senet", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List every rule set with its ID, name, source sheet and options.
    Rules {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Print the start position of a rule set.
    New {
        /// Rule set ID (see `senet rules`).
        rules: String,
        /// An option as NAME=VALUE (repeatable).
        #[arg(long = "option", short = 'o', value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// List every legal move of a position as JSON.
    Moves {
        /// A position string (quote it).
        position: String,
        /// The throw, when the position has none pending (e.g. 4, or 3-5 for two dice).
        #[arg(long = "throw", short = 't')]
        throw: Option<String>,
    },
    /// Play one move and print the resulting position.
    Apply {
        /// A position string (quote it).
        position: String,
        /// The move string, e.g. 10-13, 28-off, pass.
        #[arg(value_name = "MOVE")]
        mv: String,
        /// The throw, when the position has none pending.
        #[arg(long = "throw", short = 't')]
        throw: Option<String>,
        /// Print JSON with what the move did.
        #[arg(long)]
        json: bool,
    },
    /// Draw a position as a board.
    Show {
        /// A position string (quote it).
        position: String,
        /// Print the board as JSON cells (the view front-ends draw) with the status.
        #[arg(long)]
        json: bool,
    },
    /// Play a whole game of uniformly random legal moves and print its record (JSON).
    RandomGame {
        /// Rule set ID.
        rules: String,
        /// Seed of the throws and the moves; the same seed gives the same record.
        #[arg(long)]
        seed: u64,
        /// An option as NAME=VALUE (repeatable).
        #[arg(long = "option", short = 'o', value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
    /// Play a game in the terminal: against a bot, hot-seat, or watching two bots.
    Play(crate::play::PlayArgs),
    /// Compare rule sets: simulate games and write a report with tables and SVG plots.
    Lab {
        /// `all` or a comma-separated list of rule set IDs.
        #[arg(long, default_value = "all")]
        rules: String,
        /// An option as NAME=VALUE, applied to the rule sets that have it (repeatable).
        #[arg(long = "option", short = 'o', value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// The two bots as A,B (repeatable: each pair is a row per rule set).
        #[arg(long, default_value = "random,random")]
        bots: Vec<String>,
        /// Games per rule set and bot pair (played as duplicate pairs, seats swapped).
        #[arg(long, default_value_t = 1000)]
        games: u32,
        /// Seed of everything; the same seed gives the same report.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Worker threads (0: one per core). The results do not depend on it.
        #[arg(long, default_value_t = 0)]
        threads: usize,
        /// Directory for report.md, report.json and the SVG plots.
        #[arg(long, default_value = "lab")]
        out: String,
        /// Also report the first player's share with every throw's luck taken out, each
        /// throw valued by this search bot (as `senet match --luck`): the same mean, a
        /// narrower interval.
        #[arg(long, value_name = "JUDGE")]
        luck: Option<String>,
    },
    /// Measure random playouts and decisions per second on one core, per rule set.
    Bench {
        /// `all` or a comma-separated list of rule set IDs.
        #[arg(long, default_value = "all")]
        rules: String,
        /// Seconds of measurement per rule set.
        #[arg(long, default_value_t = 5.0)]
        seconds: f64,
        /// Runs per rule set; the median is reported.
        #[arg(long, default_value_t = 5)]
        runs: usize,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Check a game record move by move; print the final position and the result.
    Replay {
        /// The record file (JSON), or - for standard input.
        file: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Analyse a game record: every decision's win chance and what the move played lost,
    /// every throw's luck, and a summary per player (or --calibrate the rating bands).
    Analyze(crate::analyzecmd::AnalyzeArgs),
    /// Puzzles: positions with one clearly best move, from self-play and the exact endgame
    /// tables (docs/puzzles.md); or --check a JSON-lines file of them.
    Puzzles(crate::puzzlecmd::PuzzlesArgs),
    #[command(flatten)]
    Bots(crate::botcmd::BotCommand),
    /// Start the browser game: a web server on a SQLite file; prints its address.
    Serve(crate::serve::ServeArgs),
    /// Build the exact endgame tables of the stick rule sets (docs/solve.md).
    Solve(crate::solvecmd::SolveArgs),
    /// Copy a SQLite database consistently while `senet serve` serves it (SQLite's online
    /// backup), check the copy and put it in place; restore by serving the copy
    /// (`senet serve --db OUT`).
    Backup {
        /// The database: a SQLite file (a PostgreSQL database is backed up with pg_dump).
        #[arg(long, default_value = "senet.sqlite")]
        db: String,
        /// The file to write (refused if it exists, unless --force).
        out: std::path::PathBuf,
        /// Replace OUT if it exists.
        #[arg(long)]
        force: bool,
    },
    /// The operator's moderation commands against a server's database: reports, bans,
    /// renames, closed accounts, expiry (docs/deploy.md).
    Admin(crate::admincmd::AdminArgs),
}

/// Runs the command line; returns the process exit code.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match dispatch(cli.command) {
        Ok(out) => {
            let mut stdout = std::io::stdout().lock();
            let _ = writeln!(stdout, "{out}");
            let _ = stdout.flush();
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

fn dispatch(cmd: Command) -> Result<String, Error> {
    match cmd {
        Command::Rules { json } => Ok(rules(json)),
        Command::New {
            rules,
            options,
            json,
        } => {
            let r: RuleSet = rules.parse()?;
            let g = AnyGame::new(r, &options)?;
            Ok(if json {
                json!({ "rules": r.id(), "position": g.position() }).to_string()
            } else {
                g.position()
            })
        }
        Command::Moves { position, throw } => {
            let g = with_throw(&position, throw.as_deref())?;
            Ok(Value::Array(moves_json(&g)).to_string())
        }
        Command::Apply {
            position,
            mv,
            throw,
            json,
        } => {
            let mut g = with_throw(&position, throw.as_deref())?;
            let before = g;
            let m = g.parse_move(&mv)?;
            let e = g.play(m)?;
            Ok(if json {
                let mut v = move_json(&before, m, e, &g);
                v["status"] = status_json(&g);
                v.to_string()
            } else {
                g.position()
            })
        }
        Command::Show { position, json } => {
            let g: AnyGame = position.parse()?;
            Ok(if json {
                json!({ "position": g.position(), "status": status_json(&g), "board": g.view() })
                    .to_string()
            } else {
                g.diagram()
            })
        }
        Command::RandomGame {
            rules,
            seed,
            options,
        } => {
            let r: RuleSet = rules.parse()?;
            let g = AnyGame::new(r, &options)?;
            Ok(random_game(g, seed).to_json())
        }
        Command::Replay { file, json } => replay(&file, json),
        Command::Play(args) => crate::play::run(args),
        Command::Bench {
            rules,
            seconds,
            runs,
            json,
        } => crate::bench::run(&rules, seconds, runs, json),
        Command::Lab {
            rules,
            options,
            bots,
            games,
            seed,
            threads,
            out,
            luck,
        } => {
            let command = format!(
                "senet lab --rules {rules}{} {} --games {games} --seed {seed}{}",
                options
                    .iter()
                    .map(|o| format!(" --option {o}"))
                    .collect::<String>(),
                bots.iter()
                    .map(|b| format!("--bots {b}"))
                    .collect::<Vec<_>>()
                    .join(" "),
                luck.as_ref()
                    .map_or(String::new(), |j| format!(" --luck {j}")),
            );
            crate::labcmd::run(crate::labcmd::LabArgs {
                rules,
                options,
                bots,
                games,
                seed,
                threads,
                out,
                luck,
                command,
            })
        }
        Command::Analyze(args) => crate::analyzecmd::run(args),
        Command::Puzzles(args) => std::process::exit(crate::puzzlecmd::run(args)),
        Command::Bots(c) => crate::botcmd::dispatch(c),
        // Serves until stopped, then exits with the server's exit code.
        Command::Serve(args) => std::process::exit(crate::serve::run(args)),
        Command::Solve(args) => std::process::exit(crate::solvecmd::run(args)),
        Command::Backup { db, out, force } => std::process::exit(backup(&db, &out, force)),
        Command::Admin(args) => std::process::exit(crate::admincmd::run(args)),
    }
}

/// `senet backup`: copies the database and prints what was copied; an error in words on
/// standard error with exit code 1.
fn backup(db: &str, out: &std::path::Path, force: bool) -> i32 {
    let opts = senet_server::backup::Options {
        force,
        ..Default::default()
    };
    match senet_server::backup::backup(db, out, &opts) {
        Ok(c) => {
            let checks = if c.store_checked {
                "integrity check ok, opens as a senet database"
            } else {
                "integrity check ok (an older schema: senet serve upgrades it when it opens it)"
            };
            println!(
                "senet backup: copied {db} to {}: {}; {checks}\nrestore by serving the copy: senet serve --db {}",
                out.display(),
                c.summary(),
                out.display()
            );
            0
        }
        Err(e) => {
            eprintln!("error: senet backup: {e}");
            1
        }
    }
}

/// Parses a position and applies `--throw` when given.
pub(crate) fn with_throw(position: &str, throw: Option<&str>) -> Result<AnyGame, Error> {
    let mut g: AnyGame = position.parse()?;
    match (g.status(), throw) {
        (Status::Throw(_), Some(t)) => g.set_throw(Throw::parse(t)?)?,
        (Status::Throw(p), None) => {
            return Err(Error::Throw(format!(
                "player {p} must throw first: give --throw (possible throws: {})",
                g.throw_dist().describe()
            )))
        }
        (Status::Move(_), Some(t)) => {
            return Err(Error::Throw(format!(
                "the position already holds {}; --throw {t} is not needed",
                g.hand_text().unwrap_or_else(|| "a throw".into())
            )))
        }
        (Status::Move(_), None) => {}
        (Status::Over(_), _) => return Err(Error::GameOver),
    }
    Ok(g)
}

fn rules(json: bool) -> String {
    if json {
        let list: Vec<Value> = RuleSet::ALL
            .iter()
            .map(|&r| senet_rules::json::rule_set_json(r))
            .collect();
        return serde_json::to_string_pretty(&list).expect("json");
    }
    let mut s = String::new();
    for r in RuleSet::ALL {
        s.push_str(&format!(
            "{:<10} {}\n           source: {}\n",
            r.id(),
            r.name(),
            r.source()
        ));
        for o in r.option_specs() {
            let d = match o.kind {
                OptionKind::Bool { default } => format!("true|false, default {default}"),
                OptionKind::Int { default, min, max } => format!("{min}-{max}, default {default}"),
            };
            s.push_str(&format!(
                "           --option {}=<{d}>: {}\n",
                o.name, o.description
            ));
        }
    }
    s.trim_end().to_string()
}

pub use senet_rules::json::{move_json, moves_json, status_json};

/// Plays uniformly random legal moves with seeded throws until the game ends.
pub fn random_game(start: AnyGame, seed: u64) -> Record {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut rec = Record::new(&start, Some(seed));
    let mut g = start;
    let mut ms = MoveList::new();
    loop {
        match g.status() {
            Status::Throw(_) => {
                let t = g.throw_dist().sample(rng.next_u32());
                g.set_throw_unchecked(t);
                rec.push_throw(t);
            }
            Status::Move(_) => {
                ms.clear();
                g.legal_moves(&mut ms);
                let m = ms[((rng.next_u32() as u64 * ms.len() as u64) >> 32) as usize];
                rec.push_move(g.move_string(m));
                g.play_unchecked(m);
            }
            Status::Over(_) => break,
        }
    }
    rec.finish(&g);
    rec
}

/// The text of a record file, or of standard input for `-`.
pub(crate) fn read_input(file: &str) -> Result<String, Error> {
    if file == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
            .map_err(|e| Error::Record(format!("cannot read standard input: {e}")))?;
        Ok(s)
    } else {
        std::fs::read_to_string(file).map_err(|e| Error::Record(format!("cannot read {file}: {e}")))
    }
}

fn replay(file: &str, json: bool) -> Result<String, Error> {
    let text = read_input(file)?;
    if senet_rules::series::is_series(&text) {
        return replay_series(&text, json);
    }
    let rec = Record::from_json(&text)?;
    let r = rec.replay()?;
    let st = status_json(&r.end);
    if json {
        return Ok(
            json!({ "moves": r.moves, "position": r.end.position(), "status": st }).to_string(),
        );
    }
    let result = match r.end.status() {
        Status::Over(o) => {
            let who = match o.winner {
                Some(p) => format!("player {p} wins"),
                None => "draw".into(),
            };
            let cap = if o.capped { " (turn cap reached)" } else { "" };
            let score = o
                .score
                .map_or(String::new(), |s| format!(", score {}-{}", s[0], s[1]));
            format!("{who}{cap}{score}")
        }
        Status::Throw(p) => format!("not over: player {p} to throw"),
        Status::Move(p) => format!("not over: player {p} to move"),
    };
    Ok(format!(
        "{} moves replayed, all legal\nfinal position: {}\nresult: {result}",
        r.moves,
        r.end.position()
    ))
}

/// `senet replay` of a series record: every game checked, then the score after each game.
fn replay_series(text: &str, json: bool) -> Result<String, Error> {
    let s = senet_rules::Series::from_json(text)?;
    let r = s.replay()?;
    let st = &r.standing;
    let result = if st.over {
        match st.winner {
            Some(w) => format!("seat {w} wins the series {} - {}", st.score[0], st.score[1]),
            None => format!("drawn series {} - {}", st.score[0], st.score[1]),
        }
    } else {
        format!(
            "not over: {} - {} after {} games",
            st.score[0], st.score[1], st.finished
        )
    };
    if json {
        let games: Vec<Value> = s
            .games
            .iter()
            .zip(&r.games)
            .map(|(g, (first, o))| {
                json!({
                    "first": first,
                    "winner": o.and_then(|o| o.winner).map(|p| senet_rules::series::seat_of(*first, p)),
                    "capped": o.map(|o| o.capped),
                    "points": g.points,
                    "score": g.score,
                })
            })
            .collect();
        return Ok(json!({
            "rules": s.rules,
            "target": s.target,
            "starts": s.starts,
            "games": games,
            "score": st.score,
            "over": st.over,
            "winner": st.winner,
            "position": r.last.position(),
        })
        .to_string());
    }
    let mut out = format!(
        "series {} {}, {} games replayed, all legal",
        s.rules,
        s.target,
        s.games.len()
    );
    for (i, (g, (first, o))) in s.games.iter().zip(&r.games).enumerate() {
        let line = match (o, g.points, g.score) {
            (Some(o), Some(p), Some(sc)) => {
                let who = match o.winner {
                    Some(w) => format!("seat {} wins", senet_rules::series::seat_of(*first, w)),
                    None if o.capped => "draw (turn cap reached)".into(),
                    None => "draw".into(),
                };
                format!(
                    "game {}: seat {first} first; {who}; points {}-{}; score {}-{}",
                    i + 1,
                    p[0],
                    p[1],
                    sc[0],
                    sc[1]
                )
            }
            _ => format!("game {}: seat {first} first; not over", i + 1),
        };
        out.push('\n');
        out.push_str(&line);
    }
    out.push_str(&format!("\nresult: {result}"));
    Ok(out)
}
