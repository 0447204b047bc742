//! # senet-tui
//!
//! `senet play`: play any rule set of [`senet_rules`] in a terminal, against a bot level, a
//! named bot, a second person (hot-seat), or watch two bots.
//!
//! - [`session`]: the game being played: seats, seeded throws, record, undo, hints.
//! - [`app`]: the full-screen UI's state machine (keys and ticks in, state out).
//! - [`render`]: draws an [`app::App`] with ratatui; the board comes from the rules crate's
//!   `BoardView`, so every rule set is drawn without code of its own.
//! - [`terminal`]: the event loop on a real terminal (crossterm).
//! - [`plain`]: the line-by-line mode used when standard input or output is not a terminal.
//! - Bots are called through `senet_bots::play`, the adapter shared with `senet serve`.
//! - [`rules_doc`]: the rules summary screen's text.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod app;
pub mod plain;
pub mod render;
pub mod rules_doc;
pub mod session;
pub mod terminal;

use senet_rules::Record;
use session::{SeriesPlay, Setup};
use std::io::IsTerminal;

/// What `senet play` starts with.
#[derive(Clone, Debug)]
pub enum Start {
    /// The new-game screen (no rule set named), preset to these settings.
    Choose(Setup),
    /// A new game.
    New(Setup),
    /// A recorded game, resumed with these seats (and this seed for further throws, if given).
    Resume(Setup, Record, Option<u64>),
    /// A series of games (`--series N`): the series, the setup of its current game, and that
    /// game's record when it is resumed.
    Series(Box<SeriesPlay>, Setup, Option<Record>),
}

/// Whether both standard input and standard output are terminals.
pub fn on_terminal() -> bool {
    std::io::stdin().is_terminal() && std::io::stdout().is_terminal()
}

/// Runs `senet play`: the full-screen UI on a terminal, else (or with `plain`) the line mode
/// on standard input and output. Returns a last line to print (the result, where the record
/// went).
pub fn run(start: Start, plain: bool) -> Result<String, String> {
    if plain || !on_terminal() {
        let stdin = std::io::stdin();
        let stdout = std::io::stdout();
        plain::run(start, &mut stdin.lock(), &mut stdout.lock())
    } else {
        let app = match start {
            Start::Choose(s) => app::App::with_form(s),
            Start::New(s) => app::App::new(s)?,
            Start::Resume(s, r, seed) => app::App::resume(s, r, seed)?,
            Start::Series(sp, s, rec) => app::App::series(*sp, s, rec)?,
        };
        terminal::run(app)
    }
}
