//! Puzzles (issue 57): the next puzzle near a player's puzzle rating, the puzzle of the day,
//! an answer judged with every move's win chance and both ratings moved (Glicko-2, the
//! player against the puzzle), and the puzzles made in the background when the database
//! holds too few (`senet_bots::puzzle::generate`: exact tables and self-play, every rule
//! set; `docs/puzzles.md`).

use super::{blocking, legal_moves, now, sides, Failure, Res, Service};
use crate::online::Rating;
use crate::puzzles::{self, NewPuzzle, PuzzleRow};
use crate::wire::{PuzzleMoveOut, PuzzleOut, PuzzleRatingOut, PuzzleResult};
use senet_bots::puzzle::Puzzle;
use senet_rules::{AnyGame, Game, Notation, RuleSet, Status, View};
use std::sync::Arc;

/// The rating a new puzzle starts at: harder the smaller its margin (the best move's lead
/// over the second best) and the more moves it offers; 1500 ± 300.
pub fn starting_rating(p: &Puzzle) -> f64 {
    let margin = p.margin.clamp(0.0, 0.6);
    let moves = p.moves.len().clamp(2, 7) as f64;
    (1500.0_f64 + 500.0 * (0.3 - margin) + 40.0 * (moves - 4.0)).clamp(1200.0, 1800.0)
}

/// A puzzle as the store keeps it: its ID, rule set, JSON, themes and starting rating.
pub fn new_puzzle(p: &Puzzle) -> NewPuzzle {
    NewPuzzle {
        id: puzzle_id(p),
        rules: p.rules.clone(),
        data: serde_json::to_string(p).expect("a puzzle serialises"),
        themes: p.themes.clone(),
        rating: starting_rating(p),
    }
}

/// A puzzle's ID: the first 12 hex digits of the SHA-256 of its rule set and position.
pub fn puzzle_id(p: &Puzzle) -> String {
    crate::seeds::digest(&format!("senet-puzzle:{}:{}", p.rules, p.position))[..12].to_string()
}

fn rating_out(r: &Rating, tried: (i64, i64)) -> PuzzleRatingOut {
    PuzzleRatingOut {
        rating: r.rating.round() as i64,
        provisional: r.provisional(),
        tried: tried.0,
        solved: tried.1,
    }
}

/// The stored puzzle's JSON read back, or why it cannot be.
fn parse(row: &PuzzleRow) -> Res<(Puzzle, AnyGame)> {
    let p: Puzzle = serde_json::from_str(&row.data)
        .map_err(|e| Failure::Internal(format!("puzzle {} is corrupt: {e}", row.id)))?;
    let g: AnyGame = p
        .position
        .parse()
        .map_err(|e| Failure::Internal(format!("puzzle {}'s position: {e}", row.id)))?;
    if !matches!(g.status(), Status::Move(_)) {
        return Err(Failure::Internal(format!(
            "puzzle {}'s position awaits no move",
            row.id
        )));
    }
    Ok((p, g))
}

impl Service {
    /// The puzzle as the page draws it, for `player` (if any).
    async fn puzzle_out(
        &self,
        row: PuzzleRow,
        player: Option<&str>,
        daily: bool,
    ) -> Res<PuzzleOut> {
        let (p, g) = parse(&row)?;
        let you = match player {
            Some(id) => Some(self.puzzle_rating_of(id).await?),
            None => None,
        };
        let rules = g.rules();
        Ok(PuzzleOut {
            id: row.id,
            rules: rules.id(),
            rules_name: rules.name(),
            sides: sides(rules),
            position: g.position(),
            player: match g.status() {
                Status::Move(pl) => pl.index() + 1,
                _ => 0,
            },
            throw: p.throw.clone(),
            view: g.view(),
            legal: legal_moves(&g),
            throw_kind: g.throw_dist().kind,
            themes: row.themes,
            rating: row.rating.rating.round() as i64,
            plays: row.plays,
            solved: row.solved,
            daily,
            you,
        })
    }

    /// A player's puzzle rating with their counts.
    async fn puzzle_rating_of(&self, player: &str) -> Res<PuzzleRatingOut> {
        let (store, id) = (self.store.clone(), player.to_string());
        let (r, tried) = blocking(move || {
            Ok((
                puzzles::player_rating(&*store, &id)?,
                puzzles::tried(&*store, &id)?,
            ))
        })
        .await?;
        Ok(rating_out(&r, tried))
    }

    /// The next puzzle for `player`: one not tried yet, of rule set `rules` and theme
    /// `theme` when given, among the five nearest to the player's puzzle rating (at random).
    pub async fn puzzle_next(
        &self,
        player: Option<&str>,
        rules: Option<String>,
        theme: Option<String>,
    ) -> Res<PuzzleOut> {
        if let Some(r) = &rules {
            r.parse::<RuleSet>()
                .map_err(|e| Failure::Unprocessable(e.to_string()))?;
        }
        if let Some(t) = &theme {
            if !senet_bots::puzzle::THEMES.contains(&t.as_str()) {
                return Err(Failure::Unprocessable(format!(
                    "unknown theme {t:?}; the themes are: {}",
                    senet_bots::puzzle::THEMES.join(", ")
                )));
            }
        }
        let store = self.store.clone();
        let who = player.unwrap_or("").to_string();
        let (r2, t2) = (rules.clone(), theme.clone());
        let rows = blocking(move || {
            let rating = if who.is_empty() {
                Rating::default()
            } else {
                puzzles::player_rating(&*store, &who)?
            };
            puzzles::nearest_untried(
                &*store,
                &who,
                r2.as_deref(),
                t2.as_deref(),
                rating.rating,
                5,
            )
        })
        .await?;
        if rows.is_empty() {
            let what = match (&rules, &theme) {
                (Some(r), Some(t)) => format!("of {r} with the theme {t}"),
                (Some(r), None) => format!("of {r}"),
                (None, Some(t)) => format!("with the theme {t}"),
                (None, None) => "at all".into(),
            };
            return Err(Failure::NotFound(format!(
                "no puzzle {what} is left to try (the server makes puzzles in the background when it starts; try another rule set or theme)"
            )));
        }
        let pick = rows[rand::random::<u32>() as usize % rows.len()].clone();
        self.puzzle_out(pick, player, false).await
    }

    /// A puzzle by ID.
    pub async fn puzzle(&self, id: &str, player: Option<&str>) -> Res<PuzzleOut> {
        let row = self.puzzle_row(id).await?;
        let daily = self.daily_row().await?.is_some_and(|d| d.id == row.id);
        self.puzzle_out(row, player, daily).await
    }

    async fn puzzle_row(&self, id: &str) -> Res<PuzzleRow> {
        let missing = || Failure::NotFound(format!("there is no puzzle {id:?}"));
        if id.is_empty() || id.len() > 32 || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(missing());
        }
        let (store, key) = (self.store.clone(), id.to_string());
        blocking(move || puzzles::get(&*store, &key))
            .await?
            .ok_or_else(missing)
    }

    async fn daily_row(&self) -> Res<Option<PuzzleRow>> {
        let store = self.store.clone();
        let day = now().div_euclid(86_400);
        blocking(move || puzzles::of_day(&*store, day)).await
    }

    /// The puzzle of the day (UTC), the same on every server.
    pub async fn puzzle_daily(&self, player: Option<&str>) -> Res<PuzzleOut> {
        let row = self.daily_row().await?.ok_or_else(|| {
            Failure::NotFound(
                "no puzzle yet: the server makes them in the background when it starts".into(),
            )
        })?;
        self.puzzle_out(row, player, true).await
    }

    /// `player`'s answer `mv` to puzzle `id`: judged, with every move's win chance; the first
    /// answer rates the player and the puzzle.
    pub async fn puzzle_solve(&self, player: &str, id: &str, mv: &str) -> Res<PuzzleResult> {
        let row = self.puzzle_row(id).await?;
        let (p, g) = parse(&row)?;
        let legal: Vec<String> = legal_moves(&g).into_iter().map(|m| m.mv).collect();
        if !legal.iter().any(|m| m == mv) {
            return Err(Failure::Unprocessable(format!(
                "{mv:?} is not a legal move here; the legal moves are: {}",
                legal.join(", ")
            )));
        }
        // Moves that land alike (two dice used in either order) are one answer: a move
        // is right when its chance is the best's.
        let best_chance = p
            .moves
            .iter()
            .find(|m| m.mv == p.best)
            .map_or(1.0, |m| m.chance);
        let solved = mv == p.best
            || p.moves
                .iter()
                .any(|m| m.mv == mv && (best_chance - m.chance).abs() < 1e-12);
        let (store, who, key) = (self.store.clone(), player.to_string(), id.to_string());
        let at = now();
        let a = blocking(move || puzzles::attempt(&*store, &who, &key, solved, at))
            .await?
            .ok_or_else(|| Failure::NotFound(format!("there is no puzzle {id:?}")))?;
        let you = self.puzzle_rating_of(player).await?;
        Ok(PuzzleResult {
            id: row.id,
            solved,
            played: mv.to_string(),
            best: p.best.clone(),
            moves: p
                .moves
                .iter()
                .map(|m| PuzzleMoveOut {
                    mv: m.mv.clone(),
                    chance: m.chance,
                    kinds: m.kinds.clone(),
                })
                .collect(),
            exact: p.exact,
            margin: p.margin,
            why: p.why.clone(),
            themes: p.themes.clone(),
            rated: a.first,
            rating_before: a.player.0.rating.round() as i64,
            rating_after: a.player.1.rating.round() as i64,
            puzzle_rating: a.puzzle.1.rating.round() as i64,
            you,
        })
    }

    /// Makes puzzles in the background until every rule set has `per_rules` (0: none), a
    /// rule set at a time, on a blocking thread of its own; what it made is logged.
    pub fn start_puzzles(self: &Arc<Self>, per_rules: usize) {
        if per_rules == 0 || tokio::runtime::Handle::try_current().is_err() {
            return;
        }
        let me = self.clone();
        tokio::spawn(async move {
            let store = me.store.clone();
            let have = match blocking(move || puzzles::counts(&*store)).await {
                Ok(c) => c,
                Err(e) => {
                    eprintln!("senet: puzzles: cannot count them: {}", e.message());
                    return;
                }
            };
            for &rules in RuleSet::ALL {
                if *me.stopping().borrow() {
                    return;
                }
                let n = have
                    .iter()
                    .find(|(r, _)| r == rules.id())
                    .map_or(0, |(_, n)| *n as usize);
                if n >= per_rules {
                    continue;
                }
                // In batches of a few, so that a stopping server is not held up long.
                let mut left = per_rules - n;
                let (mut made, mut dry) = (0, 0);
                let mut seed = rand::random::<u64>();
                let started = std::time::Instant::now();
                while left > 0 && !*me.stopping().borrow() {
                    let batch = left.min(5);
                    let store = me.store.clone();
                    let r = blocking(move || {
                        let ps = senet_bots::puzzle::generate(rules, seed, batch);
                        let rows: Vec<NewPuzzle> = ps.iter().map(new_puzzle).collect();
                        Ok((ps.len(), puzzles::insert(&*store, &rows, now())?))
                    })
                    .await;
                    match r {
                        // The generator found none: this rule set has run dry.
                        Ok((0, _)) => break,
                        // Every one found was stored already (by another server).
                        Ok((_, 0)) => {
                            dry += 1;
                            if dry >= 3 {
                                break;
                            }
                        }
                        Ok((_, k)) => {
                            made += k as usize;
                            left = left.saturating_sub(k as usize);
                        }
                        Err(e) => {
                            eprintln!("senet: puzzles: {}: {}", rules.id(), e.message());
                            break;
                        }
                    }
                    seed = seed.wrapping_add(1_000_003);
                }
                if made > 0 {
                    eprintln!(
                        "senet: puzzles: {made} new {} puzzles in {:.1} s",
                        rules.id(),
                        started.elapsed().as_secs_f64()
                    );
                }
            }
            // Then, now and every ten minutes, the blunders of games finished since.
            let mut stop = me.stopping();
            loop {
                let made = me.mine_games(MINE_BATCH).await;
                if made > 0 {
                    eprintln!("senet: puzzles: {made} new puzzles from finished games");
                }
                tokio::select! {
                    _ = tokio::time::sleep(MINE_EVERY) => {}
                    _ = stop.changed() => {}
                }
                if *stop.borrow() {
                    return;
                }
            }
        });
    }

    /// Makes puzzles of the blunders of up to `limit` finished games not looked at yet
    /// (`senet_bots::puzzle::from_record`); how many puzzles were new.
    pub async fn mine_games(&self, limit: i64) -> u64 {
        let store = self.store.clone();
        let ids = match blocking(move || puzzles::unmined(&*store, limit)).await {
            Ok(ids) => ids,
            Err(e) => {
                eprintln!(
                    "senet: puzzles: cannot list finished games: {}",
                    e.message()
                );
                return 0;
            }
        };
        let mut made = 0;
        for id in ids {
            if *self.stopping().borrow() {
                break;
            }
            let Ok(text) = self.record(&id).await else {
                continue;
            };
            let store = self.store.clone();
            let r = blocking(move || {
                let rows: Vec<NewPuzzle> = match senet_rules::Record::from_json(&text) {
                    Ok(rec) => senet_bots::puzzle::from_record(&rec, &format!("game:{id}"))
                        .iter()
                        .map(new_puzzle)
                        .collect(),
                    Err(_) => Vec::new(),
                };
                let k = puzzles::insert(&*store, &rows, now())?;
                puzzles::mined(&*store, &id, now())?;
                Ok(k)
            })
            .await;
            match r {
                Ok(k) => made += k,
                Err(e) => eprintln!("senet: puzzles: from a finished game: {}", e.message()),
            }
        }
        made
    }
}

/// Finished games whose blunders are looked at per round, and how often.
const MINE_BATCH: i64 = 10;
const MINE_EVERY: std::time::Duration = std::time::Duration::from_secs(600);
