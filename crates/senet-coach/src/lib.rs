//! # senet-coach
//!
//! What measures and trains the bots of [`senet_bots`], apart from what a game runs: the
//! terminal (`senet play`) and the server (`senet serve`) do not depend on this crate; the
//! `senet` binary's bot commands and the Python package do.
//!
//! - [`duel`]: duplicate matches (and duplicate series) run in parallel, with confidence
//!   intervals; a bot game and its record.
//! - [`ladder`]: the ladder of `docs/bots.md` and the bots' error rates on the exact endgames.
//! - [`exactset`]: held-out exact test sets and the bots and the analysis measured on them
//!   (`senet exactset`, `senet ladder --exact`).
//! - [`train`]: TD(λ) training of the linear evaluators and of the networks, and supervised
//!   training of the endgame networks on the exact tables (`senet train`).
//! - [`speed`]: time per move over self-play positions and every opening (`senet botspeed`).
//! - [`calibrate`]: the measurement of the analysis's rating bands
//!   (`senet analyze --calibrate`).
//!
//! ```
//! use senet_coach::duel::{run_match, MatchConfig};
//! use senet_rules::{AnyGame, RuleSet};
//!
//! let cfg = MatchConfig {
//!     start: AnyGame::new(RuleSet::Kendall5, &[] as &[&str]).unwrap(),
//!     a: "greedy".parse().unwrap(),
//!     b: "random".parse().unwrap(),
//!     pairs: 2,
//!     seed: 1,
//!     threads: 1,
//! };
//! let r = run_match(&cfg, &|| {}).unwrap();
//! assert_eq!(r.a_wins + r.b_wins + r.draws, 4);
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod calibrate;
pub mod duel;
pub mod exactset;
pub mod fvi;
pub mod ladder;
pub mod speed;
pub mod train;
