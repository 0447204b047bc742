//! Series of games (issue 13): games of one rule set and options between the same two seats,
//! played to a target, with a running score. Shared by `senet play --series`, `senet match
//! --series`, `senet replay`, the lab and the server. The record format is documented in
//! `docs/notation.md` ("Series record").
//!
//! Seats are the two people (or bots) of the series, numbered 1 and 2; they are not the
//! players of a game. Each game says which seat plays [`Player::First`] (its `first`); with
//! alternating starts the seats swap sides from game to game.
//!
//! Points of one game ([`game_points`]):
//! - rule sets that score fill [`Outcome::score`]: `parker` (P11: the winner's saved pegs, 25
//!   for the Pharaoh and 10 for each man, doubled when all five are saved), `senat` with the
//!   option `score` (S12: the winner scores one point for each opposing piece still on the
//!   board), `pyramid` (Y9: each side scores its borne-off pyramids, 4/3/2 by size, winner or
//!   not); a series adds those points up;
//! - the other rule sets count games won: 1 point for a win;
//! - a game ended by the turn cap (C5) scores nothing for either seat, in every rule set.

use crate::game::Metrics;
use crate::record::{options_of, Record};
use crate::{AnyGame, Error, Game, Outcome, Player, RuleSet, Status};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The value of a series record's `format` field.
pub const FORMAT: &str = "senet-series/1";

/// A series never has more games than this: a series to N points whose games all end at the
/// turn cap (no points) still ends.
pub const MAX_GAMES: usize = 999;

/// What a series is played to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Target {
    /// The first seat to reach this many points (games won, where the rule set does not
    /// score) wins; see [`Series::standing`] for ties.
    Points(u32),
    /// Exactly this many games; more points wins, equal points is a drawn series.
    Games(u32),
}

impl Target {
    /// Checks the number: 1 to [`MAX_GAMES`] games, 1 to 100000 points.
    pub fn check(self) -> Result<Target, Error> {
        match self {
            Target::Points(n) if (1..=100_000).contains(&n) => Ok(self),
            Target::Games(n) if n >= 1 && n as usize <= MAX_GAMES => Ok(self),
            Target::Points(n) => Err(Error::Options(format!(
                "a series to {n} points: the target is 1 to 100000 points"
            ))),
            Target::Games(n) => Err(Error::Options(format!(
                "a series of {n} games: the number of games is 1 to {MAX_GAMES}"
            ))),
        }
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Target::Points(n) => write!(f, "to {n} points"),
            Target::Games(n) => write!(f, "of {n} games"),
        }
    }
}

/// Who starts each game of a series.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Starts {
    /// Seat 1 plays the first player in odd games, seat 2 in even games.
    #[default]
    Alternate,
    /// The rule set's own start rule, drawn afresh for every game: a fair draw of the seat
    /// that plays the first player (senat's throw-off for a 1, S3; pyramid's roll-off, Y2;
    /// houses, kendall and kendall5 name no rule, so a coin decides). In `parker` the seats
    /// keep their colours and the dice-off inside each game decides (P3).
    Rules,
}

impl std::str::FromStr for Starts {
    type Err = Error;
    fn from_str(s: &str) -> Result<Starts, Error> {
        match s {
            "alternate" => Ok(Starts::Alternate),
            "rules" => Ok(Starts::Rules),
            _ => Err(Error::Options(format!(
                "who starts each game is alternate or rules, not {s:?}"
            ))),
        }
    }
}

/// Points of a finished game per player (first, second): the rule set's score where it has
/// one (P11, S12, Y9), else 1 for the winner; nothing for a game ended by the turn cap.
pub fn game_points(o: &Outcome) -> [u32; 2] {
    if o.capped {
        return [0, 0];
    }
    match (o.score, o.winner) {
        (Some(s), _) => s,
        (None, Some(w)) => {
            let mut p = [0, 0];
            p[w.index()] = 1;
            p
        }
        (None, None) => [0, 0],
    }
}

/// Whether games of this rule set with these options score points (else a series counts
/// games won).
pub fn scores(start: &AnyGame) -> bool {
    start.max_points().is_some()
}

/// The seat (1 or 2) that plays `p` in a game whose first player is seat `first`.
pub fn seat_of(first: u8, p: Player) -> u8 {
    match p {
        Player::First => first,
        Player::Second => 3 - first,
    }
}

/// Per-player values of a game turned into per-seat values.
pub fn by_seat(first: u8, v: [u32; 2]) -> [u32; 2] {
    if first == 1 {
        v
    } else {
        [v[1], v[0]]
    }
}

/// A fair, seeded draw of the seat (1 or 2) that plays the first player of game `index`
/// (counted from 0), for [`Starts::Rules`] when the caller has no randomness of its own.
pub fn draw_first(seed: u64, index: usize) -> u8 {
    1 + (crate::seed::mix(seed ^ 0x005e_71e5, index as u64) >> 63) as u8
}

/// One game of a series.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeriesGame {
    /// The seat (1 or 2) that plays the first player in this game.
    pub first: u8,
    /// Points of seat 1 and seat 2 in this game, once it is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<[u32; 2]>,
    /// The running score of seat 1 and seat 2 after this game, once it is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<[u32; 2]>,
    /// The game's record.
    pub record: Record,
}

/// How a series ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeriesResult {
    /// The seat that won the series (1 or 2), or null for a drawn series.
    pub winner: Option<u8>,
    /// The final score of seat 1 and seat 2.
    pub score: [u32; 2],
}

/// A series record: the series' settings and every game's record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Series {
    /// Always [`FORMAT`].
    pub format: String,
    /// The rule set ID.
    pub rules: String,
    /// Options that differ from their defaults (as in a game record).
    #[serde(default)]
    pub options: BTreeMap<String, serde_json::Value>,
    /// What the series is played to.
    pub target: Target,
    /// Who starts each game.
    #[serde(default)]
    pub starts: Starts,
    /// Who sat in seats 1 and 2 (informative).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seats: Option<[String; 2]>,
    /// The seed the series was played from (informative).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The games, in order; only the last may be unfinished.
    pub games: Vec<SeriesGame>,
    /// The result, once the series is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<SeriesResult>,
}

/// Where a series stands after its finished games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// Points of seat 1 and seat 2.
    pub score: [u32; 2],
    /// Finished games.
    pub finished: usize,
    /// Whether the series is over.
    pub over: bool,
    /// The winning seat once over (None: a drawn series, or not over).
    pub winner: Option<u8>,
}

/// Whether a series with this target and these per-seat points after `finished` games is
/// over, and who won. A series to N points ends after the game in which a seat reaches N
/// with more points than the other; when both reach N level (pyramid scores both sides), it
/// goes on. A series of N games ends after N games. Either ends after [`MAX_GAMES`].
pub fn standing(target: Target, score: [u32; 2], finished: usize) -> Standing {
    let leader = match score[0].cmp(&score[1]) {
        std::cmp::Ordering::Greater => Some(1),
        std::cmp::Ordering::Less => Some(2),
        std::cmp::Ordering::Equal => None,
    };
    let over = finished >= MAX_GAMES
        || match target {
            Target::Points(n) => score[0].max(score[1]) >= n && leader.is_some(),
            Target::Games(n) => finished >= n as usize,
        };
    Standing {
        score,
        finished,
        over,
        winner: if over { leader } else { None },
    }
}

/// What replaying a series record gives.
#[derive(Clone, Debug)]
pub struct SeriesReplay {
    /// The standing after the finished games.
    pub standing: Standing,
    /// Each game's first seat and, once over, its outcome.
    pub games: Vec<(u8, Option<Outcome>)>,
    /// The position at the end of the last game.
    pub last: AnyGame,
}

impl Series {
    /// A new series with no game yet. `options` are `NAME=VALUE`.
    pub fn new<S: AsRef<str>>(
        rules: RuleSet,
        options: &[S],
        target: Target,
        starts: Starts,
        seed: Option<u64>,
    ) -> Result<Series, Error> {
        let target = target.check()?;
        let start = AnyGame::new(rules, options)?;
        Ok(Series {
            format: FORMAT.into(),
            rules: rules.id().into(),
            options: Record::new(&start, None).options,
            target,
            starts,
            seats: None,
            seed,
            games: Vec::new(),
            result: None,
        })
    }

    /// The rule set.
    pub fn rule_set(&self) -> Result<RuleSet, Error> {
        self.rules
            .parse()
            .map_err(|e: Error| Error::Record(e.to_string()))
    }

    /// The options as `NAME=VALUE`.
    pub fn option_pairs(&self) -> Result<Vec<String>, Error> {
        self.empty_record().option_pairs()
    }

    fn empty_record(&self) -> Record {
        Record {
            format: crate::record::FORMAT.into(),
            rules: self.rules.clone(),
            options: self.options.clone(),
            seed: None,
            start: None,
            events: vec![],
            result: None,
        }
    }

    /// The start position of every game.
    pub fn start_position(&self) -> Result<AnyGame, Error> {
        self.empty_record().start_position()
    }

    /// The seat (1 or 2) that plays the first player in game `index` (from 0). `draw` is
    /// called for a fair draw under [`Starts::Rules`] (true: seat 1).
    pub fn first_seat(&self, index: usize, draw: impl FnOnce() -> bool) -> u8 {
        match self.starts {
            Starts::Alternate => 1 + (index % 2) as u8,
            // P3: parker's dice-off is part of every game; the seats keep their colours.
            Starts::Rules if self.rules == RuleSet::Parker.id() => 1,
            Starts::Rules => {
                if draw() {
                    1
                } else {
                    2
                }
            }
        }
    }

    /// The standing after the finished games (from each game's recorded result).
    pub fn standing(&self) -> Standing {
        let mut score = [0u32; 2];
        let mut finished = 0;
        for g in &self.games {
            let Some(p) = g.points else { break };
            score = [score[0] + p[0], score[1] + p[1]];
            finished += 1;
        }
        standing(self.target, score, finished)
    }

    /// The game being played: the last one, if it is not over.
    pub fn current(&self) -> Option<&SeriesGame> {
        self.games.last().filter(|g| g.points.is_none())
    }

    /// Starts the next game with `first` in seat order; its record is filled by
    /// [`Series::update_last`]. Fails when the series is over or a game is still going.
    pub fn push_game(&mut self, first: u8, seed: Option<u64>) -> Result<&SeriesGame, Error> {
        if self.current().is_some() {
            return Err(Error::Record(format!(
                "game {} of the series is not over yet",
                self.games.len()
            )));
        }
        if self.standing().over {
            return Err(Error::Record("the series is over".into()));
        }
        if first != 1 && first != 2 {
            return Err(Error::Record(format!(
                "first seat must be 1 or 2, not {first}"
            )));
        }
        let start = self.start_position()?;
        self.games.push(SeriesGame {
            first,
            points: None,
            score: None,
            record: Record::new(&start, seed),
        });
        Ok(self.games.last().expect("just pushed"))
    }

    /// Replaces the record of the last game (as it goes on), and once it is over fills in its
    /// points, the running score and, when the series ends, the result.
    pub fn update_last(&mut self, record: Record) -> Result<(), Error> {
        let before = self.standing().score;
        let Some(g) = self.games.last_mut() else {
            return Err(Error::Record("the series has no game yet".into()));
        };
        if g.points.is_some() {
            return Err(Error::Record("the last game of the series is over".into()));
        }
        let end = record.replay()?.end;
        g.record = record;
        if let Status::Over(o) = end.status() {
            g.record.finish(&end);
            let p = by_seat(g.first, game_points(&o));
            g.points = Some(p);
            g.score = Some([before[0] + p[0], before[1] + p[1]]);
        }
        let s = self.standing();
        self.result = s.over.then_some(SeriesResult {
            winner: s.winner,
            score: s.score,
        });
        Ok(())
    }

    /// Reads a series record from JSON (see [`Series::replay`] for the checks).
    pub fn from_json(text: &str) -> Result<Series, Error> {
        let s: Series = serde_json::from_str(text).map_err(|e| {
            Error::Record(format!(
                "not a valid series record: {}",
                crate::record::explain(text, &e)
            ))
        })?;
        if s.format != FORMAT {
            return Err(Error::Record(format!(
                "format is {:?}; this version reads {FORMAT:?}",
                s.format
            )));
        }
        Ok(s)
    }

    /// The series as JSON: the settings one per line, then each game with its record as
    /// [`Record::to_json`] writes it.
    pub fn to_json(&self) -> String {
        let v = serde_json::to_value(self).expect("series always serialize");
        let obj = v.as_object().expect("a series is an object");
        let mut parts = Vec::new();
        for (k, val) in obj {
            let key = serde_json::Value::from(k.as_str());
            if k == "games" {
                let games: Vec<String> = self
                    .games
                    .iter()
                    .map(|g| {
                        let mut head = format!("    {{\"first\": {}", g.first);
                        if let Some(p) = g.points {
                            head.push_str(&format!(", \"points\": [{}, {}]", p[0], p[1]));
                        }
                        if let Some(s) = g.score {
                            head.push_str(&format!(", \"score\": [{}, {}]", s[0], s[1]));
                        }
                        let rec = g.record.to_json().replace('\n', "\n    ");
                        format!("{head},\n     \"record\": {rec}}}")
                    })
                    .collect();
                parts.push(if games.is_empty() {
                    format!("  {key}: []")
                } else {
                    format!("  {key}: [\n{}\n  ]", games.join(",\n"))
                });
            } else {
                parts.push(format!(
                    "  {key}: {}",
                    serde_json::to_string(val).expect("values serialize")
                ));
            }
        }
        format!("{{\n{}\n}}", parts.join(",\n"))
    }

    /// Replays every game and checks the series: each game's record replays (its first bad
    /// event is reported with the game number), has the series' rule set and options, and
    /// every game but the last is over; the first seats follow [`Series::starts`]; recorded
    /// points, running scores and the result agree with the replay; no game follows the end
    /// of the series.
    pub fn replay(&self) -> Result<SeriesReplay, Error> {
        if self.format != FORMAT {
            return Err(Error::Record(format!(
                "format is {:?}; this version reads {FORMAT:?}",
                self.format
            )));
        }
        self.target
            .check()
            .map_err(|e| Error::Record(e.to_string()))?;
        let start = self.start_position()?;
        let opts = options_of(&start);
        let mut score = [0u32; 2];
        let mut finished = 0;
        let mut games = Vec::new();
        let mut last = start;
        if self.games.len() > MAX_GAMES {
            return Err(Error::Record(format!(
                "a series holds at most {MAX_GAMES} games"
            )));
        }
        for (i, g) in self.games.iter().enumerate() {
            let n = i + 1;
            let bad = |m: String| Error::Record(format!("game {n}: {m}"));
            if standing(self.target, score, finished).over {
                return Err(bad(format!(
                    "the series was already over after game {finished} ({} - {})",
                    score[0], score[1]
                )));
            }
            if g.first != 1 && g.first != 2 {
                return Err(bad(format!("first must be seat 1 or 2, not {}", g.first)));
            }
            let want = self.first_seat(i, || g.first == 1);
            if g.first != want {
                return Err(bad(format!(
                    "seat {} plays the first player, but with starts {:?} it is seat {want}",
                    g.first,
                    match self.starts {
                        Starts::Alternate => "alternate",
                        Starts::Rules => "rules",
                    }
                )));
            }
            let rs = g
                .record
                .start_position()
                .map_err(|e| bad(e.message().into()))?;
            if rs.rules().id() != self.rules || options_of(&rs) != opts || g.record.start.is_some()
            {
                return Err(bad(format!(
                    "the game is not a {} game with the series' options from the start",
                    self.rules
                )));
            }
            let r = g.record.replay().map_err(|e| bad(e.message().into()))?;
            last = r.end;
            match r.end.status() {
                Status::Over(o) => {
                    let p = by_seat(g.first, game_points(&o));
                    score = [score[0] + p[0], score[1] + p[1]];
                    finished += 1;
                    if g.points.is_some_and(|x| x != p) || g.score.is_some_and(|x| x != score) {
                        return Err(bad(format!(
                            "the record says points {:?} and score {:?}, the replay gives points {p:?} and score {score:?}",
                            g.points, g.score
                        )));
                    }
                    games.push((g.first, Some(o)));
                }
                _ => {
                    if n < self.games.len() {
                        return Err(bad("the game is not over, but another follows it".into()));
                    }
                    if g.points.is_some() || g.score.is_some() {
                        return Err(bad("points are recorded for a game that is not over".into()));
                    }
                    games.push((g.first, None));
                }
            }
        }
        let s = standing(self.target, score, finished);
        let want = s.over.then_some(SeriesResult {
            winner: s.winner,
            score: s.score,
        });
        if let Some(r) = &self.result {
            if Some(r) != want.as_ref() {
                return Err(Error::Record(format!(
                    "the record claims the series result {:?} - {:?} (winner {:?}), the replay gives {}",
                    r.score[0],
                    r.score[1],
                    r.winner,
                    match &want {
                        Some(w) => format!("{} - {} (winner {:?})", w.score[0], w.score[1], w.winner),
                        None => format!("a series still going at {} - {}", s.score[0], s.score[1]),
                    }
                )));
            }
        }
        Ok(SeriesReplay {
            standing: s,
            games,
            last,
        })
    }
}

/// Whether a JSON text is a series record (its `format` is [`FORMAT`]) rather than a game
/// record.
pub fn is_series(text: &str) -> bool {
    #[derive(Deserialize)]
    struct Head {
        format: Option<String>,
    }
    serde_json::from_str::<Head>(text).is_ok_and(|h| h.format.as_deref() == Some(FORMAT))
}
