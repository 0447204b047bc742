//! Held-out exact test sets and the bots measured on them as the field measures (issue 34,
//! `senet exactset`, `senet ladder --exact`).
//!
//! - **A set** ([`make_set`]) is decisions (two or more legal moves) met in games from the
//!   start: half of the games are the player (`expert` by default) against itself, half are
//!   the same player *exploring*, a uniformly random legal move a third of the time. Only
//!   positions with exactly `pieces` pieces of each side on the board are kept, and the
//!   exact tables must hold `pieces` pieces per side, so every move of every decision has its
//!   exact value (the mover's win chance after it). The tables of fewer pieces are what the
//!   bots played with before, so these decisions lie just past what they knew exactly.
//! - **Tags** ([`TAGS`]), from the game API and the exact values: `water` (a legal move ends
//!   in the water), `water-best` (one such move is an exact best), `backward` (a legal move
//!   goes backward), `blockade` (either side has three or more pieces on consecutive squares),
//!   `bear-off` (a legal move bears a piece off), `near-tie` (the best two moves within
//!   0.001), and `typical` for a decision with none of these.
//! - **The file** is JSON Lines: a [`SetHeader`], then one [`Decision`] per line. Reading it
//!   ([`ExactSet::read`]) checks every line against the rules (the position parses, awaits a
//!   move, and its moves are exactly the legal ones) and says which line is wrong.
//! - **The measurement** ([`measure`]): per bot and tag, decisions, mean loss (best exact
//!   value minus the chosen move's), error rate (loss over [`ERROR_LOSS`]) and worst loss;
//!   for the analysis (the server's: [`senet_bots::analysis::analyser`] at the rule set's
//!   depth within the `expert` budget, every move's value exact at that depth), the mean
//!   absolute error of its move values and how often its best move is an exact best. Each
//!   bot that reads tables is measured twice: with the tables cut to `pieces - 1` pieces
//!   per side (as it played before the bigger table existed) and with them whole (once,
//!   when only the tables to `pieces - 1` are at hand: the set holds the exact values).

use crate::duel::mix;
use rand::{RngCore, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;
use senet_bots::exact::Tables;
use senet_bots::{analysis, BotSpec, Level};
use senet_rules::{
    AnyGame, Game, Metrics, MoveKind, MoveList, Notation, RuleSet, Status, View, OFF,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

/// The format name in a set's header line.
pub const FORMAT: &str = "senet-exact-set";
/// The set file's version.
pub const VERSION: u32 = 1;

/// A decision's loss counts as an error above this (the bar: two millionths, above
/// the tables' rounding).
pub const ERROR_LOSS: f64 = 2e-6;

/// Two best moves within this are a near tie.
pub const NEAR_TIE: f64 = 0.001;

/// The tags, in the order of the reports; every decision has one or more.
pub const TAGS: [&str; 7] = [
    "water",
    "water-best",
    "backward",
    "blockade",
    "bear-off",
    "near-tie",
    "typical",
];

/// The first line of a set file.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SetHeader {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`VERSION`].
    pub version: u32,
    /// The rule set (default options).
    pub rules: String,
    /// Pieces of each side on the board in every decision.
    pub pieces: usize,
    /// The player of the games.
    pub player: String,
    /// The seed of the games.
    pub seed: u64,
    /// Games played.
    pub games: usize,
    /// Decisions in the file.
    pub decisions: usize,
}

/// One legal move with its exact value.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct MoveValue {
    /// The move in the rule set's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The mover's exact win chance after it, to nine decimals.
    pub value: f64,
}

/// One decision of a set.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Decision {
    /// The position (notation, `docs/notation.md`), awaiting a move.
    pub position: String,
    /// `self-play` or `explore`.
    pub source: String,
    /// The game it came from (0-based).
    pub game: usize,
    /// Its tags ([`TAGS`]).
    pub tags: Vec<String>,
    /// Every legal move, in generator order, with its exact value.
    pub moves: Vec<MoveValue>,
}

impl Decision {
    /// The best exact value.
    pub fn best(&self) -> f64 {
        self.moves.iter().map(|m| m.value).fold(0.0, f64::max)
    }
}

/// A set: its header and decisions, the positions parsed.
#[derive(Clone, Debug)]
pub struct ExactSet {
    /// The header.
    pub header: SetHeader,
    /// The decisions.
    pub decisions: Vec<Decision>,
    /// The positions of the decisions, parsed.
    pub games: Vec<AnyGame>,
    /// The rule set (the header's, parsed).
    pub rules: RuleSet,
}

/// What [`make_set`] makes.
#[derive(Clone, Debug)]
pub struct SetConfig {
    /// The rule set (one with exact tables).
    pub rules: RuleSet,
    /// Pieces of each side on the board (the tables must hold this many).
    pub pieces: usize,
    /// Decisions wanted (the games are played until there are this many).
    pub decisions: usize,
    /// The player of the games.
    pub player: String,
    /// The seed.
    pub seed: u64,
}

/// The positions a game may reach before its decisions stop counting: no game is longer.
const MAX_DECISIONS_PER_GAME: u32 = 4000;

/// Pieces on the board per side.
fn on_board(g: &AnyGame) -> [u8; 2] {
    let c = g.census();
    [c[0].board, c[1].board]
}

/// Whether either side has three or more pieces on consecutive squares.
fn has_blockade(g: &AnyGame) -> bool {
    let mut men = [0u64; 2];
    for c in &g.view().cells {
        for p in &c.pieces {
            if (1..=2).contains(&p.player) && c.square < 64 {
                men[(p.player - 1) as usize] |= 1 << c.square;
            }
        }
    }
    men.iter().any(|&m| m & (m >> 1) & (m >> 2) != 0)
}

/// The tags of decision `g` whose legal moves `ms` have the exact values `vals` (mover's).
fn tags(g: &AnyGame, ms: &[senet_rules::Move], vals: &[f64]) -> Vec<String> {
    let best = vals.iter().copied().fold(0.0, f64::max);
    let mut sorted = vals.to_vec();
    sorted.sort_by(|a, b| b.total_cmp(a));
    let water = |m: &senet_rules::Move| m.kind.contains(MoveKind::WATER);
    let mut t = Vec::new();
    if ms.iter().any(water) {
        t.push("water");
    }
    if ms
        .iter()
        .zip(vals)
        .any(|(m, &v)| water(m) && v >= best - ERROR_LOSS)
    {
        t.push("water-best");
    }
    if ms.iter().any(|m| m.kind.contains(MoveKind::BACKWARD)) {
        t.push("backward");
    }
    if has_blockade(g) {
        t.push("blockade");
    }
    if ms.iter().any(|m| m.to == OFF) {
        t.push("bear-off");
    }
    if sorted.len() > 1 && sorted[0] - sorted[1] <= NEAR_TIE {
        t.push("near-tie");
    }
    if t.is_empty() {
        t.push("typical");
    }
    t.into_iter().map(String::from).collect()
}

/// The mover's exact values of every legal move of `g` (awaiting a move), if the tables
/// cover them all.
fn exact_moves(g: &AnyGame, tables: &Tables) -> Option<(MoveList, Vec<f64>)> {
    let Status::Move(p) = g.status() else {
        return None;
    };
    let vals = tables.move_values(g)?;
    let ms: MoveList = vals.iter().map(|x| x.0).collect();
    let mine = vals
        .iter()
        .map(|x| {
            if p == senet_rules::Player::First {
                x.1
            } else {
                1.0 - x.1
            }
        })
        .collect();
    Some((ms, mine))
}

/// Plays game `i` of a set and returns its decisions.
/// Each decision with its position.
fn play_game(
    cfg: &SetConfig,
    tables: &'static Tables,
    bot: &BotSpec,
    i: usize,
) -> Vec<(Decision, AnyGame)> {
    let explore = i % 2 == 1;
    let mut rng = Pcg64Mcg::seed_from_u64(mix(cfg.seed, i as u64));
    let mut player = bot.build_with_tables(tables);
    let Ok(mut g) = AnyGame::new(cfg.rules, &[] as &[&str]) else {
        return Vec::new();
    };
    let want = cfg.pieces as u8;
    let mut out = Vec::new();
    for _ in 0..MAX_DECISIONS_PER_GAME {
        match g.status() {
            Status::Over(_) => break,
            Status::Throw(_) => {
                let t = g.sample_throw(rng.next_u32());
                g.set_throw_unchecked(t);
            }
            Status::Move(_) => {
                let men = on_board(&g);
                if men[0] < want || men[1] < want {
                    // Pieces on the board never come back: no decision of this game counts
                    // any more.
                    break;
                }
                let mut ms = MoveList::new();
                g.legal_moves(&mut ms);
                if men == [want, want] && ms.len() > 1 {
                    if let Some((ms, vals)) = exact_moves(&g, tables) {
                        out.push((
                            Decision {
                                position: g.position(),
                                source: if explore { "explore" } else { "self-play" }.into(),
                                game: i,
                                tags: tags(&g, &ms, &vals),
                                moves: ms
                                    .iter()
                                    .zip(&vals)
                                    .map(|(&m, &value)| MoveValue {
                                        mv: g.move_string(m),
                                        // Nine decimals, far below the tables' precision.
                                        value: (value * 1e9).round() / 1e9,
                                    })
                                    .collect(),
                            },
                            g,
                        ));
                    }
                }
                let r = rng.next_u64();
                let m = if ms.len() == 1 {
                    ms[0]
                } else if explore && r % 3 == 0 {
                    ms[((r >> 8) % ms.len() as u64) as usize]
                } else {
                    player.choose(&g, r).best
                };
                g.play_unchecked(m);
            }
        }
    }
    out
}

/// Makes a set: games in parallel (rayon), `cfg.decisions` decisions in game order. The
/// same configuration and tables give the same set whatever the number of threads.
pub fn make_set(
    cfg: &SetConfig,
    tables: &'static Tables,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<ExactSet, String> {
    let start = AnyGame::new(cfg.rules, &[] as &[&str]).map_err(|e| e.to_string())?;
    let table = tables.table_for(&start).ok_or_else(|| {
        format!(
            "no exact table for {}: build one with senet solve {} --pieces {}",
            cfg.rules, cfg.rules, cfg.pieces
        )
    })?;
    if table.pieces() < cfg.pieces || tables.limit() < cfg.pieces {
        return Err(format!(
            "the {} table holds {} pieces per side, and a set of {} a side needs all of them exact: build it with senet solve {} --pieces {}",
            cfg.rules,
            table.pieces().min(tables.limit()),
            cfg.pieces,
            cfg.rules,
            cfg.pieces
        ));
    }
    if cfg.pieces == 0 {
        return Err("a set needs at least 1 piece a side".into());
    }
    let bot: BotSpec = cfg.player.parse()?;
    let batch = rayon::current_num_threads().max(1) * 2;
    let mut decisions = Vec::new();
    let mut games = 0;
    while decisions.len() < cfg.decisions {
        if games >= 1000 + 100 * cfg.decisions {
            return Err(format!(
                "{games} games gave only {} decisions with exactly {} pieces a side",
                decisions.len(),
                cfg.pieces
            ));
        }
        let got: Vec<Vec<(Decision, AnyGame)>> = (games..games + batch)
            .into_par_iter()
            .map(|i| play_game(cfg, tables, &bot, i))
            .collect();
        for d in got {
            // Whole games, in order, until there are enough.
            if decisions.len() < cfg.decisions {
                decisions.extend(d);
                games += 1;
            }
        }
        progress(decisions.len().min(cfg.decisions));
    }
    decisions.truncate(cfg.decisions);
    let (decisions, positions): (Vec<Decision>, Vec<AnyGame>) = decisions.into_iter().unzip();
    Ok(ExactSet {
        header: SetHeader {
            format: FORMAT.into(),
            version: VERSION,
            rules: cfg.rules.id().into(),
            pieces: cfg.pieces,
            player: cfg.player.clone(),
            seed: cfg.seed,
            games,
            decisions: decisions.len(),
        },
        decisions,
        games: positions,
        rules: cfg.rules,
    })
}

impl ExactSet {
    /// The file's text: the header line, then one decision per line.
    pub fn to_jsonl(&self) -> String {
        let mut s = serde_json::to_string(&self.header).expect("a header serializes");
        s.push('\n');
        for d in &self.decisions {
            s.push_str(&serde_json::to_string(d).expect("a decision serializes"));
            s.push('\n');
        }
        s
    }

    /// Parses and checks a set file's text; `what` names it in errors.
    pub fn from_jsonl(text: &str, what: &str) -> Result<ExactSet, String> {
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty());
        let (_, first) = lines
            .next()
            .ok_or_else(|| format!("{what} is empty: a set file starts with its header line"))?;
        let header: SetHeader = serde_json::from_str(first)
            .map_err(|e| format!("{what}, line 1: not a set header ({e})"))?;
        if header.format != FORMAT {
            return Err(format!(
                "{what}, line 1: the format is {:?}, not {FORMAT:?}",
                header.format
            ));
        }
        if header.version != VERSION {
            return Err(format!(
                "{what}, line 1: set version {} (this senet reads version {VERSION})",
                header.version
            ));
        }
        let rules: RuleSet = header
            .rules
            .parse()
            .map_err(|e| format!("{what}, line 1: {e}"))?;
        let mut decisions = Vec::new();
        let mut games = Vec::new();
        for (i, line) in lines {
            let at = format!("{what}, line {}", i + 1);
            let d: Decision =
                serde_json::from_str(line).map_err(|e| format!("{at}: not a decision ({e})"))?;
            let g: AnyGame = d.position.parse().map_err(|e| format!("{at}: {e}"))?;
            if g.rules() != rules {
                return Err(format!(
                    "{at}: the position is of {}, the set of {rules}",
                    g.rules()
                ));
            }
            if !matches!(g.status(), Status::Move(_)) {
                return Err(format!("{at}: the position does not await a move"));
            }
            let mut ms = MoveList::new();
            g.legal_moves(&mut ms);
            let legal: BTreeSet<String> = ms.iter().map(|&m| g.move_string(m)).collect();
            let given: BTreeSet<String> = d.moves.iter().map(|m| m.mv.clone()).collect();
            if legal != given || given.len() != d.moves.len() {
                return Err(format!(
                    "{at}: the moves listed are not the position's legal moves ({})",
                    legal.into_iter().collect::<Vec<_>>().join(", ")
                ));
            }
            if d.moves.len() < 2 {
                return Err(format!("{at}: a decision needs two or more legal moves"));
            }
            if let Some(m) = d
                .moves
                .iter()
                .find(|m| !(0.0..=1.0).contains(&m.value) || m.value.is_nan())
            {
                return Err(format!(
                    "{at}: move {} has value {}, not a win chance in [0, 1]",
                    m.mv, m.value
                ));
            }
            if let Some(t) = d.tags.iter().find(|t| !TAGS.contains(&t.as_str())) {
                return Err(format!(
                    "{at}: unknown tag {t:?} (tags: {})",
                    TAGS.join(", ")
                ));
            }
            decisions.push(d);
            games.push(g);
        }
        if decisions.len() != header.decisions {
            return Err(format!(
                "{what}: the header says {} decisions, the file holds {}",
                header.decisions,
                decisions.len()
            ));
        }
        Ok(ExactSet {
            header,
            decisions,
            games,
            rules,
        })
    }

    /// Reads and checks a set file.
    pub fn read(path: &Path) -> Result<ExactSet, String> {
        let what = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {what}: {e}"))?;
        ExactSet::from_jsonl(&text, &what)
    }
}

/// One bot's (or the analysis's) results on one tag.
#[derive(Clone, Debug, Default, Serialize)]
pub struct TagScore {
    /// The tag ([`TAGS`]) or `all`.
    pub tag: String,
    /// Decisions with the tag.
    pub decisions: usize,
    /// Mean win chance lost per decision.
    pub mean_loss: f64,
    /// Share of decisions losing more than [`ERROR_LOSS`].
    pub error_rate: f64,
    /// The largest loss.
    pub worst_loss: f64,
    /// The analysis only: mean absolute error of its move values against the exact ones
    /// (per decision, the mean over its moves).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value_error: Option<f64>,
    /// The analysis only: share of decisions where its best move is an exact best.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_exact: Option<f64>,
}

/// One measured subject: a bot, or the analysis, with the tables it read.
#[derive(Clone, Debug, Serialize)]
pub struct SubjectScore {
    /// The bot (`analysis` for the analysis).
    pub bot: String,
    /// The most pieces per side its tables answered (0: it reads none).
    pub tables: usize,
    /// `all` first, then each tag that some decision has.
    pub tags: Vec<TagScore>,
    /// The win chance lost on each decision, in the set's order: two subjects measured on one
    /// set compare decision by decision (a paired difference has far less noise than the
    /// difference of two means).
    pub losses: Vec<f64>,
}

/// The measurement of a set.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The set's header.
    pub set: SetHeader,
    /// Per subject.
    pub subjects: Vec<SubjectScore>,
}

/// Per decision: (loss, value error, best is exact).
type Scored = (f64, Option<f64>, bool);

fn summarize(set: &ExactSet, bot: &str, tables: usize, scored: &[Scored]) -> SubjectScore {
    let mut rows = Vec::new();
    for tag in std::iter::once("all").chain(TAGS) {
        let picked: Vec<&Scored> = set
            .decisions
            .iter()
            .zip(scored)
            .filter(|(d, _)| tag == "all" || d.tags.iter().any(|t| t == tag))
            .map(|(_, s)| s)
            .collect();
        if picked.is_empty() {
            continue;
        }
        let n = picked.len() as f64;
        let analysis = picked[0].1.is_some();
        rows.push(TagScore {
            tag: tag.into(),
            decisions: picked.len(),
            mean_loss: picked.iter().map(|s| s.0).sum::<f64>() / n,
            error_rate: picked.iter().filter(|s| s.0 > ERROR_LOSS).count() as f64 / n,
            worst_loss: picked.iter().map(|s| s.0).fold(0.0, f64::max),
            value_error: analysis.then(|| picked.iter().filter_map(|s| s.1).sum::<f64>() / n),
            best_exact: analysis.then(|| picked.iter().filter(|s| s.2).count() as f64 / n),
        });
    }
    SubjectScore {
        bot: bot.into(),
        tables,
        tags: rows,
        losses: scored.iter().map(|s| s.0).collect(),
    }
}

/// The loss of playing `m` in decision `d` (and whether it is an exact best).
fn loss_of(d: &Decision, g: &AnyGame, m: senet_rules::Move) -> (f64, bool) {
    let name = g.move_string(m);
    let best = d.best();
    let got = d
        .moves
        .iter()
        .find(|x| x.mv == name)
        .map_or(0.0, |x| x.value);
    let loss = (best - got).max(0.0);
    (loss, loss <= ERROR_LOSS)
}

/// Measures `bots` (and the analysis, if `with_analysis`) on `set`, in parallel over the
/// decisions. `before` is the tables cut to `pieces - 1` pieces per side, `whole` the tables
/// whole (`None` where only the smaller tables exist: the set holds the exact values, so
/// they are all a measurement needs); the bots that read tables (the `expert` level and the
/// analysis) are measured with both, the others once.
pub fn measure(
    set: &ExactSet,
    bots: &[String],
    with_analysis: bool,
    before: &'static Tables,
    whole: Option<&'static Tables>,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Report, String> {
    let rules = set.rules;
    // The most pieces per side the tables really answer: their limit, or the table's own.
    let pieces = |t: &Tables| t.table(rules).map_or(0, |x| x.pieces().min(t.limit()));
    let mut subjects = Vec::new();
    for bot in bots {
        let spec: BotSpec = bot.parse()?;
        let reads_tables = spec.level == Some(Level::Expert) && !spec.points;
        let runs: Vec<&'static Tables> = if reads_tables {
            std::iter::once(before).chain(whole).collect()
        } else {
            vec![before]
        };
        for tables in runs {
            progress(&if reads_tables {
                format!("{bot} (tables to {} pieces)", pieces(tables))
            } else {
                format!("{bot} (no tables)")
            });
            let scored: Vec<Scored> = (0..set.decisions.len())
                .into_par_iter()
                .map_init(
                    || spec.build_with_tables(tables),
                    |b, i| {
                        let g = &set.games[i];
                        let m = b.choose(g, mix(set.header.seed, i as u64)).best;
                        let (loss, _) = loss_of(&set.decisions[i], g, m);
                        (loss, None, false)
                    },
                )
                .collect();
            let read = if reads_tables { pieces(tables) } else { 0 };
            subjects.push(summarize(set, bot, read, &scored));
        }
    }
    if with_analysis {
        let opt = analysis::Options::for_rules(rules);
        for tables in std::iter::once(before).chain(whole) {
            progress(&format!("analysis (tables to {} pieces)", pieces(tables)));
            let scored: Vec<Scored> = (0..set.decisions.len())
                .into_par_iter()
                .map_init(
                    || analysis::analyser_with(opt.depth, opt.budget, tables),
                    |b, i| {
                        let (d, g) = (&set.decisions[i], &set.games[i]);
                        let c = b.choose_with(g, 0, true);
                        let (loss, best_exact) = loss_of(d, g, c.best);
                        let err = c
                            .scores
                            .iter()
                            .map(|&(m, v)| {
                                let name = g.move_string(m);
                                let x =
                                    d.moves.iter().find(|x| x.mv == name).map_or(v, |x| x.value);
                                (v - x).abs()
                            })
                            .sum::<f64>()
                            / c.scores.len().max(1) as f64;
                        (loss, Some(err), best_exact)
                    },
                )
                .collect();
            subjects.push(summarize(set, "analysis", pieces(tables), &scored));
        }
    }
    Ok(Report {
        set: set.header.clone(),
        subjects,
    })
}

/// The report as Markdown tables: the bots, then the analysis.
pub fn report_markdown(r: &Report) -> String {
    let mut s = String::new();
    let h = &r.set;
    let _ = writeln!(
        s,
        "#### `{}`, {} decisions with {} pieces a side ({} games of `{}` and of it exploring, seed {})\n",
        h.rules, h.decisions, h.pieces, h.games, h.player, h.seed
    );
    s.push_str("| bot | tables | tag | decisions | mean loss | error rate | worst loss |\n");
    s.push_str("|---|---|---|---|---|---|---|\n");
    for sub in r.subjects.iter().filter(|x| x.bot != "analysis") {
        for t in &sub.tags {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {:.6} | {:.2}% | {:.4} |",
                sub.bot,
                tables_label(sub.tables),
                t.tag,
                t.decisions,
                t.mean_loss,
                100.0 * t.error_rate,
                t.worst_loss
            );
        }
    }
    let analysis: Vec<&SubjectScore> = r.subjects.iter().filter(|x| x.bot == "analysis").collect();
    if !analysis.is_empty() {
        s.push_str("\n| analysis | tag | decisions | mean abs value error | best move exact | mean loss | worst loss |\n");
        s.push_str("|---|---|---|---|---|---|---|\n");
        for sub in analysis {
            for t in &sub.tags {
                let _ = writeln!(
                    s,
                    "| {} | {} | {} | {:.6} | {:.2}% | {:.6} | {:.4} |",
                    tables_label(sub.tables),
                    t.tag,
                    t.decisions,
                    t.value_error.unwrap_or(f64::NAN),
                    100.0 * t.best_exact.unwrap_or(f64::NAN),
                    t.mean_loss,
                    t.worst_loss
                );
            }
        }
    }
    s
}

fn tables_label(k: usize) -> String {
    match k {
        0 => "none".into(),
        k => format!("to {k}v{k}"),
    }
}
