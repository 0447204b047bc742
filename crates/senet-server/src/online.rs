//! Online play's rules that need no database (issue 33, `docs/online.md`): player names,
//! passwords (Argon2id), the CSRF token of a session, clocks and Glicko-2 ratings.

use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::Argon2;
use serde::{Deserialize, Serialize};
use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

/// Names are 3 to 20 characters.
pub const NAME_LEN: std::ops::RangeInclusive<usize> = 3..=20;

/// Checks a player name: 3-20 ASCII letters, digits, `_` and `-`, starting with a letter.
/// Keeping to ASCII refuses control characters, zero-width characters and letters of other
/// scripts that look like Latin ones, so no name can pass for another.
pub fn check_name(name: &str) -> Result<(), String> {
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
    {
        let what = if c.is_control() {
            "a control character".to_string()
        } else if matches!(
            c,
            '\u{200B}'..='\u{200F}' | '\u{2060}' | '\u{FEFF}' | '\u{00AD}'
        ) {
            "an invisible character".to_string()
        } else if c == ' ' {
            "a space".to_string()
        } else {
            format!("{c:?} (U+{:04X})", c as u32)
        };
        return Err(format!(
            "a name may hold only the letters A-Z and a-z, the digits 0-9, '_' and '-': this one has {what}"
        ));
    }
    if !NAME_LEN.contains(&name.len()) {
        return Err(format!(
            "a name is 3 to 20 characters long; this one has {}",
            name.len()
        ));
    }
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return Err("a name starts with a letter".into());
    }
    Ok(())
}

/// The key names are unique by: the name without regard to case.
pub fn name_key(name: &str) -> String {
    name.to_ascii_lowercase()
}

/// A generated name for a new anonymous player, e.g. `SilentIbis42`.
pub fn generated_name(x: u64) -> String {
    const ADJ: &[&str] = &[
        "Silent", "Golden", "Swift", "Patient", "Bold", "Quiet", "Bright", "Clever", "Gentle",
        "Lucky", "Noble", "Sly", "Calm", "Brave", "Wise", "Merry",
    ];
    const NOUN: &[&str] = &[
        "Ibis", "Falcon", "Jackal", "Scarab", "Lotus", "Cobra", "Heron", "Lion", "Oryx", "Hippo",
        "Baboon", "Crane", "Vulture", "Papyrus", "Sphinx", "Cat",
    ];
    let a = ADJ[(x % ADJ.len() as u64) as usize];
    let n = NOUN[((x >> 8) % NOUN.len() as u64) as usize];
    format!("{a}{n}{}", (x >> 16) % 1000)
}

/// Checks a new password's length (8 to 128 characters); says nothing of its text.
pub fn check_password(pw: &str) -> Result<(), String> {
    let n = pw.chars().count();
    if !(8..=128).contains(&n) {
        return Err(format!(
            "a password is 8 to 128 characters long; this one has {n}"
        ));
    }
    Ok(())
}

/// Argon2id with OWASP's parameters (19 MiB, 2 passes, 1 lane: the crate's defaults).
fn argon() -> Argon2<'static> {
    Argon2::default()
}

/// The PHC string (`$argon2id$v=19$m=19456,t=2,p=1$...`) of a password, with a random salt.
pub fn hash_password(pw: &str) -> Result<String, String> {
    argon()
        .hash_password(pw.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| format!("cannot hash the password: {e}"))
}

/// A hash of no one's password, verified when a name is unknown so that an unknown name and a
/// wrong password take the same work.
pub fn dummy_hash() -> &'static str {
    static H: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    H.get_or_init(|| hash_password("no one's password, ever").unwrap_or_default())
}

/// Whether `pw` is the password of `phc`.
pub fn verify_password(pw: &str, phc: &str) -> bool {
    match PasswordHash::new(phc) {
        Ok(h) => argon().verify_password(pw.as_bytes(), &h).is_ok(),
        Err(_) => false,
    }
}

/// The CSRF token of a session: derived from its secret, so nothing more is stored, and
/// useless without the cookie it goes with.
pub fn csrf_of(session_secret: &str) -> String {
    crate::seeds::digest(&format!("senet-csrf:{session_secret}"))[..32].to_string()
}

/// A game's clock: minutes and an increment per move, or days per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockSpec {
    /// `minutes` each, `increment` seconds added after each move.
    Live {
        /// Minutes for the game.
        minutes: u32,
        /// Seconds added after each move.
        increment: u32,
    },
    /// Correspondence: each move within this many days.
    Days(u32),
}

/// The clock as the API takes and shows it: `{"minutes", "increment"}` or `{"days"}`, and
/// its `text` on the way out.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClockJson {
    /// Minutes each (1-60), with `increment`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minutes: Option<u32>,
    /// Seconds added after each move (0-60), with `minutes`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub increment: Option<u32>,
    /// Correspondence: days per move (1-14), instead of `minutes`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days: Option<u32>,
    /// `5+3` or `3 days` (answers only; ignored in requests).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

impl ClockSpec {
    /// Reads the API's clock, naming what is wrong.
    pub fn from_json(j: &ClockJson) -> Result<ClockSpec, String> {
        match (j.minutes, j.increment, j.days) {
            (Some(m), inc, None) => {
                if !(1..=60).contains(&m) {
                    return Err(format!("\"minutes\" is 1 to 60, not {m}"));
                }
                let inc = inc.unwrap_or(0);
                if inc > 60 {
                    return Err(format!("\"increment\" is 0 to 60 seconds, not {inc}"));
                }
                Ok(ClockSpec::Live {
                    minutes: m,
                    increment: inc,
                })
            }
            (None, None, Some(d)) => {
                if !(1..=14).contains(&d) {
                    return Err(format!("\"days\" is 1 to 14, not {d}"));
                }
                Ok(ClockSpec::Days(d))
            }
            (None, Some(_), _) => Err("\"increment\" needs \"minutes\"".into()),
            (Some(_), _, Some(_)) => {
                Err("a clock has \"minutes\" (and \"increment\") or \"days\", not both".into())
            }
            (None, None, None) => {
                Err("a clock is {\"minutes\": M, \"increment\": S} or {\"days\": D}".into())
            }
        }
    }

    /// The API's form, with its text.
    pub fn to_json(self) -> ClockJson {
        match self {
            ClockSpec::Live { minutes, increment } => ClockJson {
                minutes: Some(minutes),
                increment: Some(increment),
                days: None,
                text: Some(self.text()),
            },
            ClockSpec::Days(d) => ClockJson {
                minutes: None,
                increment: None,
                days: Some(d),
                text: Some(self.text()),
            },
        }
    }

    /// `5+3` or `3 days` (also the stored form, read back by [`ClockSpec::parse`]).
    pub fn text(self) -> String {
        match self {
            ClockSpec::Live { minutes, increment } => format!("{minutes}+{increment}"),
            ClockSpec::Days(1) => "1 day".into(),
            ClockSpec::Days(d) => format!("{d} days"),
        }
    }

    /// Reads [`ClockSpec::text`].
    pub fn parse(s: &str) -> Result<ClockSpec, String> {
        let bad = || format!("bad clock {s:?}");
        if let Some((m, i)) = s.split_once('+') {
            return Ok(ClockSpec::Live {
                minutes: m.parse().map_err(|_| bad())?,
                increment: i.parse().map_err(|_| bad())?,
            });
        }
        let d = s
            .strip_suffix(" days")
            .or_else(|| s.strip_suffix(" day"))
            .ok_or_else(bad)?;
        Ok(ClockSpec::Days(d.parse().map_err(|_| bad())?))
    }

    /// Whether this is a correspondence clock.
    pub fn correspondence(self) -> bool {
        matches!(self, ClockSpec::Days(_))
    }

    /// Each side's time at the start, in milliseconds.
    pub fn initial_ms(self) -> i64 {
        match self {
            ClockSpec::Live { minutes, .. } => minutes as i64 * 60_000,
            ClockSpec::Days(d) => d as i64 * 86_400_000,
        }
    }
}

/// A clock's state: each side's time left when its clock last stopped, and which clock runs
/// since when (ms since the Unix epoch). Stored as `REM1,REM2,RUNNING,SINCE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockState {
    /// Milliseconds left of seats 1 and 2 (the running side's as of `since`).
    pub remaining: [i64; 2],
    /// The running side (0 or 1), or `None` once the game is over.
    pub running: Option<usize>,
    /// When the running side's clock started.
    pub since: i64,
}

impl ClockState {
    /// A new game's clock, `running` to act first.
    pub fn start(spec: ClockSpec, running: usize, now: i64) -> ClockState {
        ClockState {
            remaining: [spec.initial_ms(); 2],
            running: Some(running),
            since: now,
        }
    }

    /// The stored form.
    pub fn text(&self) -> String {
        format!(
            "{},{},{},{}",
            self.remaining[0],
            self.remaining[1],
            self.running.map_or(0, |r| r + 1),
            self.since
        )
    }

    /// Reads [`ClockState::text`].
    pub fn parse(s: &str) -> Result<ClockState, String> {
        let v: Vec<i64> = s
            .split(',')
            .map(|x| x.parse::<i64>())
            .collect::<Result<_, _>>()
            .map_err(|_| format!("bad clock state {s:?}"))?;
        match v[..] {
            [a, b, r @ 0..=2, since] => Ok(ClockState {
                remaining: [a, b],
                running: (r > 0).then(|| r as usize - 1),
                since,
            }),
            _ => Err(format!("bad clock state {s:?}")),
        }
    }

    /// Each side's time left at `now`.
    pub fn at(&self, now: i64) -> [i64; 2] {
        let mut r = self.remaining;
        if let Some(s) = self.running {
            r[s] = (r[s] - (now - self.since).max(0)).max(0);
        }
        r
    }

    /// When the running side's time runs out.
    pub fn deadline(&self) -> Option<i64> {
        self.running.map(|s| self.since + self.remaining[s])
    }

    /// The side whose time has run out at `now`, if any.
    pub fn flagged(&self, now: i64) -> Option<usize> {
        self.running
            .filter(|_| self.deadline().is_some_and(|d| now >= d))
    }

    /// After a move by `mover` at `now`: its time is charged and it gets the increment (a
    /// correspondence clock resets to the days per move); then `next` runs (the mover again
    /// after a bonus throw), or nobody once the game is over. Fails with the flagged side when
    /// the mover's time had already run out.
    pub fn after_move(
        &mut self,
        spec: ClockSpec,
        mover: usize,
        next: Option<usize>,
        now: i64,
    ) -> Result<(), usize> {
        if let Some(f) = self.flagged(now) {
            return Err(f);
        }
        let left = self.at(now);
        self.remaining = left;
        self.remaining[mover] = match spec {
            ClockSpec::Live { increment, .. } => left[mover] + increment as i64 * 1000,
            ClockSpec::Days(_) => spec.initial_ms(),
        };
        self.running = next;
        self.since = now;
        Ok(())
    }

    /// Stops the clock at `now` (the game ended otherwise).
    pub fn stop(&mut self, now: i64) {
        self.remaining = self.at(now);
        self.running = None;
        self.since = now;
    }
}

/// A rating as stored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// Glicko-2 rating (Glicko scale).
    pub rating: f64,
    /// Rating deviation.
    pub rd: f64,
    /// Volatility.
    pub vol: f64,
    /// Rated games played.
    pub games: i64,
}

impl Default for Rating {
    fn default() -> Rating {
        Rating {
            rating: 1500.0,
            rd: 350.0,
            vol: 0.06,
            games: 0,
        }
    }
}

/// A rating is provisional while its deviation is above this (lichess's threshold).
pub const PROVISIONAL_RD: f64 = 110.0;

/// Glicko-2's system constant τ (Glickman suggests 0.3-1.2; 0.5 as in his example).
pub const TAU: f64 = 0.5;

impl Rating {
    /// Whether the rating is still provisional.
    pub fn provisional(&self) -> bool {
        self.rd > PROVISIONAL_RD
    }

    fn glicko(&self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.rd,
            volatility: self.vol,
        }
    }
}

/// Both players' ratings after one game, `score` being the first player's (1, 0.5 or 0);
/// the game is one rating period (as lichess and the crate's `glicko2` do).
pub fn rate(a: Rating, b: Rating, score: f64) -> (Rating, Rating) {
    let outcome = if score > 0.75 {
        Outcomes::WIN
    } else if score < 0.25 {
        Outcomes::LOSS
    } else {
        Outcomes::DRAW
    };
    let config = Glicko2Config {
        tau: TAU,
        ..Glicko2Config::new()
    };
    let (x, y) = glicko2(&a.glicko(), &b.glicko(), &outcome, &config);
    let back = |g: Glicko2Rating, was: Rating| Rating {
        rating: g.rating,
        rd: g.deviation,
        vol: g.volatility,
        games: was.games + 1,
    };
    (back(x, a), back(y, b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::glicko2_rating_period;

    /// Glickman's worked example ("Example of the Glicko-2 system", glicko2.pdf): a player
    /// rated 1500 (RD 200, σ 0.06) beats a 1400 (RD 30), loses to a 1550 (RD 100) and to a
    /// 1700 (RD 300), τ = 0.5; the paper's result is 1464.06, RD 151.52, σ' 0.05999.
    #[test]
    fn glicko2_matches_glickmans_worked_example() {
        let me = Glicko2Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opp = |r: f64, d: f64| Glicko2Rating {
            rating: r,
            deviation: d,
            volatility: 0.06,
        };
        let config = Glicko2Config {
            tau: TAU,
            ..Glicko2Config::new()
        };
        let out = glicko2_rating_period(
            &me,
            &[
                (opp(1400.0, 30.0), Outcomes::WIN),
                (opp(1550.0, 100.0), Outcomes::LOSS),
                (opp(1700.0, 300.0), Outcomes::LOSS),
            ],
            &config,
        );
        assert!((out.rating - 1464.06).abs() < 0.01, "{}", out.rating);
        assert!((out.deviation - 151.52).abs() < 0.01, "{}", out.deviation);
        assert!(
            (out.volatility - 0.05999).abs() < 0.00001,
            "{}",
            out.volatility
        );
        // One game of our own rating function is the paper's first game alone.
        let (a, b) = rate(
            Rating {
                rating: 1500.0,
                rd: 200.0,
                vol: 0.06,
                games: 3,
            },
            Rating {
                rating: 1400.0,
                rd: 30.0,
                vol: 0.06,
                games: 0,
            },
            1.0,
        );
        let alone = glicko2_rating_period(&me, &[(opp(1400.0, 30.0), Outcomes::WIN)], &config);
        assert!((a.rating - alone.rating).abs() < 1e-9 && a.games == 4 && b.games == 1);
        assert!(a.rating > 1500.0 && b.rating < 1400.0);
    }

    #[test]
    fn a_new_rating_is_provisional_until_its_deviation_falls_to_110() {
        let mut a = Rating::default();
        let mut b = Rating::default();
        assert!(a.provisional());
        let mut n = 0;
        while a.provisional() {
            (a, b) = rate(a, b, if n % 2 == 0 { 1.0 } else { 0.0 });
            n += 1;
            assert!(n < 100);
        }
        assert!(a.rd <= PROVISIONAL_RD && n > 3, "{n} games, rd {}", a.rd);
    }

    #[test]
    fn names_refuse_control_invisible_and_look_alike_characters() {
        assert!(check_name("SilentIbis42").is_ok());
        assert!(check_name("a_b-c").is_ok());
        for (bad, why) in [
            ("ab", "3 to 20"),
            ("abcdefghijklmnopqrstu", "3 to 20"),
            ("9lives", "starts with a letter"),
            ("_x_y", "starts with a letter"),
            ("tab\tname", "control character"),
            ("zero\u{200B}width", "invisible"),
            ("p\u{0430}ypal", "U+0430"), // Cyrillic a
            ("two words", "a space"),
        ] {
            let e = check_name(bad).unwrap_err();
            assert!(e.contains(why), "{bad:?}: {e}");
        }
        assert_eq!(name_key("SilentIbis"), name_key("silentibis"));
        let g = generated_name(0x1234_5678_9abc);
        assert!(check_name(&g).is_ok(), "{g}");
    }

    #[test]
    fn passwords_are_argon2id_with_owasps_parameters_and_verify() {
        let h = hash_password("correct horse").unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
        assert!(verify_password("correct horse", &h));
        assert!(!verify_password("correct horsf", &h));
        assert!(!verify_password("correct horse", "not a hash"));
        assert!(check_password("short").is_err());
        assert!(check_password("long enough").is_ok());
        assert_ne!(csrf_of("a"), csrf_of("b"));
    }

    #[test]
    fn a_clock_charges_the_mover_adds_the_increment_and_flags_at_zero() {
        let spec = ClockSpec::Live {
            minutes: 1,
            increment: 2,
        };
        let mut c = ClockState::start(spec, 0, 1_000);
        assert_eq!(c.at(11_000), [50_000, 60_000]);
        assert_eq!(c.deadline(), Some(61_000));
        // Seat 1 moves after 10 s and throws again (a bonus): still its clock.
        c.after_move(spec, 0, Some(0), 11_000).unwrap();
        assert_eq!(c.remaining, [52_000, 60_000]);
        c.after_move(spec, 0, Some(1), 21_000).unwrap();
        assert_eq!(c.remaining, [44_000, 60_000]);
        assert_eq!(c.flagged(21_000 + 59_999), None);
        assert_eq!(c.flagged(21_000 + 60_000), Some(1));
        assert_eq!(c.after_move(spec, 1, Some(0), 90_000), Err(1));
        assert_eq!(ClockState::parse(&c.text()), Ok(c));
        let d = ClockSpec::Days(3);
        let mut c = ClockState::start(d, 1, 0);
        c.after_move(d, 1, Some(0), 86_400_000).unwrap();
        assert_eq!(c.remaining, [3 * 86_400_000; 2]);
        for s in [spec, d, ClockSpec::Days(1)] {
            assert_eq!(ClockSpec::parse(&s.text()), Ok(s));
            assert_eq!(ClockSpec::from_json(&s.to_json()), Ok(s));
        }
        assert!(ClockSpec::from_json(&ClockJson {
            days: Some(15),
            ..ClockJson::default()
        })
        .unwrap_err()
        .contains("1 to 14"));
    }
}
