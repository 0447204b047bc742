//! The event loop on a real terminal: crossterm key events in, ratatui frames out, and a
//! clock that lets bots act at a pace a person can follow.

use crate::app::{App, Key};
use crate::render;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use senet_rules::Game;
use std::time::{Duration, Instant};

/// The crossterm key as an [`App`] key, if it means anything here.
pub fn key(k: KeyEvent) -> Option<Key> {
    if k.modifiers.contains(KeyModifiers::CONTROL) {
        return match k.code {
            KeyCode::Char(c) => Some(Key::Ctrl(c.to_ascii_lowercase())),
            _ => None,
        };
    }
    Some(match k.code {
        KeyCode::Char(c) => Key::Char(c),
        KeyCode::Enter => Key::Enter,
        KeyCode::Esc => Key::Esc,
        KeyCode::Backspace => Key::Backspace,
        KeyCode::Tab => Key::Tab,
        KeyCode::BackTab => Key::BackTab,
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::PageUp => Key::PageUp,
        KeyCode::PageDown => Key::PageDown,
        KeyCode::Home => Key::Home,
        KeyCode::End => Key::End,
        _ => return None,
    })
}

/// Runs the UI until the person quits; restores the terminal whatever happens. Returns the
/// line to print afterwards.
pub fn run(mut app: App) -> Result<String, String> {
    let mut terminal = ratatui::init();
    let res = event_loop(&mut terminal, &mut app);
    ratatui::restore();
    res.map_err(|e| format!("terminal: {e}"))?;
    Ok(farewell(&app))
}

fn event_loop(terminal: &mut ratatui::DefaultTerminal, app: &mut App) -> std::io::Result<()> {
    let mut due: Option<Instant> = None;
    loop {
        terminal.draw(|f| render::draw(f, app))?;
        if app.quit {
            return Ok(());
        }
        let pause = Duration::from_millis(app.pause_ms());
        due = match (app.wants_tick(), due) {
            (true, None) => Some(Instant::now() + pause),
            (true, d) => d,
            (false, _) => None,
        };
        let timeout = due.map_or(Duration::from_secs(60), |d| {
            d.saturating_duration_since(Instant::now())
        });
        if event::poll(timeout)? {
            if let Event::Key(k) = event::read()? {
                if k.kind != KeyEventKind::Release {
                    if let Some(key) = key(k) {
                        app.handle_key(key);
                    }
                }
            }
        } else if due.is_some() {
            app.tick();
            due = None;
        }
    }
}

/// What to print after leaving the full screen.
pub fn farewell(app: &App) -> String {
    let Some(s) = &app.session else {
        return "No game played.".into();
    };
    let state = match s.result_text() {
        Some(r) => r,
        None => format!("Game left after {} moves.", s.game().decisions()),
    };
    let saved = match (&app.file, app.dirty) {
        (Some(f), false) => format!(" Record: {f} (resume with senet play --load {f})."),
        _ if s.record().events.is_empty() => String::new(),
        _ => " The record was not saved.".into(),
    };
    format!("{state}{saved}")
}
