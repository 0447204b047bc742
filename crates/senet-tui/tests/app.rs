//! The UI state machine driven key by key: throwing, choosing and typing moves, hints, undo,
//! save and load, watching, the end of a game and the setup screen.

use ratatui::backend::TestBackend;
use ratatui::Terminal;
use senet_rules::{Game, Record, RuleSet, Status};
use senet_rules::{Notation, View};
use senet_tui::app::{App, Key, Overlay, Tone};
use senet_tui::render::{self, buffer_lines};
use senet_tui::session::{Seat, Setup};

fn setup(rules: RuleSet, seats: [Seat; 2], seed: u64) -> Setup {
    Setup {
        rules,
        options: vec![],
        seats,
        seed,
    }
}

fn bot(name: &str) -> Seat {
    Seat::Bot(name.into())
}

fn vs_bot(rules: RuleSet, seed: u64) -> App {
    App::new(setup(rules, [Seat::Human, bot("casual")], seed)).unwrap()
}

fn screen(app: &App) -> String {
    sized(app, 100, 30)
}

fn sized(app: &App, w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| render::draw(f, app)).unwrap();
    buffer_lines(t.backend().buffer()).join("\n")
}

fn last_message(app: &App) -> (Tone, String) {
    app.messages.last().cloned().expect("a message")
}

fn status(app: &App) -> Status {
    app.session.as_ref().unwrap().status()
}

fn record(app: &App) -> Record {
    app.session.as_ref().unwrap().record().clone()
}

/// Lets bots act and throws for the person until the person has a move to choose.
fn to_human_move(app: &mut App) {
    for _ in 0..10_000 {
        if app.human_to_move() || matches!(status(app), Status::Over(_)) {
            return;
        }
        if app.human_to_throw() {
            app.handle_key(Key::Char('t'));
        } else {
            assert!(app.tick(), "a bot acts");
        }
    }
    panic!("never the person's move");
}

/// Until a position where the person has at least `n` legal moves.
fn to_choice(app: &mut App, n: usize) {
    for _ in 0..500 {
        to_human_move(app);
        if app.legal().len() >= n {
            return;
        }
        app.handle_key(Key::Enter);
    }
    panic!("never {n} legal moves");
}

fn tmp(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("senet-tui-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).display().to_string()
}

#[test]
fn throw_choose_with_arrows_and_play_with_enter() {
    for &rules in RuleSet::ALL {
        let mut app = vs_bot(rules, 11);
        // Some rule sets start with the opening throw already made (senat).
        if app.human_to_throw() {
            app.handle_key(Key::Char('t'));
            let rec = record(&app);
            assert_eq!(rec.events.len(), 1, "{rules}: the throw is recorded");
        }
        to_choice(&mut app, 2);
        let legal = app.legal();
        assert_eq!(app.selection(), Some(legal[0]));
        app.handle_key(Key::Right);
        assert_eq!(app.selection(), Some(legal[1]));
        app.handle_key(Key::Left);
        app.handle_key(Key::Left);
        assert_eq!(
            app.selection(),
            Some(legal[legal.len() - 1]),
            "wraps around"
        );
        app.handle_key(Key::Right);
        app.handle_key(Key::Right);
        let s = app.session.as_ref().unwrap();
        let expected = s.move_string(legal[1]);
        let before = s.record().events.len();
        app.handle_key(Key::Enter);
        let rec = record(&app);
        assert_eq!(
            rec.events[before],
            senet_rules::Event::Move {
                mv: expected.clone()
            },
            "{rules}"
        );
        assert!(
            last_message(&app).1.contains(&expected),
            "{rules}: announced"
        );
        assert_eq!(app.last.map(|(_, m)| m), Some(legal[1]));
    }
}

#[test]
fn typing_a_square_chooses_its_move_and_bad_squares_are_refused() {
    let mut app = vs_bot(RuleSet::Kendall5, 5);
    to_choice(&mut app, 2);
    let legal = app.legal();
    let s = app.session.as_ref().unwrap();
    let target = *legal.iter().rev().find(|m| !m.is_pass()).unwrap();
    let square = s.game().square_name(target.from);
    let text = s.move_string(target);
    let before = s.record().events.len();
    for c in square.chars() {
        app.handle_key(Key::Char(c));
    }
    assert_eq!(app.typed, square);
    assert_eq!(app.selection(), Some(target));
    assert!(screen(&app).contains(&format!("square {square}")));
    app.handle_key(Key::Enter);
    assert_eq!(
        record(&app).events[before],
        senet_rules::Event::Move { mv: text }
    );
    assert!(app.typed.is_empty());

    // A square no legal move starts from (or starts with) is refused with a message.
    to_choice(&mut app, 1);
    let sel = app.selected;
    app.handle_key(Key::Char('0'));
    assert!(app.typed.is_empty());
    assert_eq!(app.selected, sel);
    let (tone, text) = last_message(&app);
    assert_eq!(tone, Tone::Error);
    assert!(text.contains("No legal move"), "{text}");
    // Throwing again while a move is awaited is refused too.
    app.handle_key(Key::Char('t'));
    assert!(last_message(&app).1.contains("choose a move"));
    assert!(app.human_to_move());
}

#[test]
fn a_whole_move_string_can_be_typed() {
    let mut app = vs_bot(RuleSet::Kendall, 2);
    to_human_move(&mut app);
    let m = app.legal()[app.legal().len() - 1];
    let text = app.session.as_ref().unwrap().move_string(m);
    for c in text.chars() {
        app.handle_key(Key::Char(c));
    }
    let n = record(&app).events.len();
    app.handle_key(Key::Enter);
    assert_eq!(
        record(&app).events[n],
        senet_rules::Event::Move { mv: text }
    );
}

#[test]
fn hint_highlights_the_hint_bots_move_and_shows_every_moves_win_chance() {
    let mut app = vs_bot(RuleSet::Kendall5, 8);
    app.handle_key(Key::Char('h'));
    assert_eq!(last_message(&app).0, Tone::Error, "no hint before throwing");
    to_choice(&mut app, 2);
    app.handle_key(Key::Char('h'));
    let h = app.hint.clone().expect("a hint");
    assert_eq!(app.selection(), Some(h.best));
    let s = app.session.as_ref().unwrap();
    let text = s.move_string(h.best);
    assert_eq!(
        h.moves.len(),
        app.legal().len(),
        "every legal move is valued"
    );
    let best = h.chance(h.best).unwrap();
    assert!(
        h.moves.iter().all(|&(_, p)| p <= best),
        "the hint's move is best"
    );
    assert!(last_message(&app).1.starts_with(&format!(
        "Hint (expert): {text}, win chance {:.0}%",
        100.0 * best
    )));
    let sc = screen(&app);
    assert!(
        sc.contains(&format!("{text}* {:.0}%", 100.0 * best)),
        "{sc}"
    );
    for &(m, p) in &h.moves {
        let t = format!("{} {:.0}%", s.move_string(m), 100.0 * p);
        assert!(sc.contains(&t) || m == h.best, "{t} missing:\n{sc}");
    }
}

#[test]
fn a_opens_the_review_after_the_game() {
    let mut app = App::new(setup(RuleSet::Kendall5, [Seat::Human, bot("beginner")], 6)).unwrap();
    to_human_move(&mut app);
    app.handle_key(Key::Char('a'));
    assert_eq!(
        last_message(&app).0,
        Tone::Error,
        "no review before the end"
    );
    assert_eq!(app.overlay, Overlay::None);
    for _ in 0..2000 {
        to_human_move(&mut app);
        if matches!(status(&app), Status::Over(_)) {
            break;
        }
        app.handle_key(Key::Enter);
    }
    assert!(matches!(status(&app), Status::Over(_)));
    app.handle_key(Key::Char('a'));
    assert_eq!(app.overlay, Overlay::Review(0));
    let (n, lines) = app.review.clone().expect("the review");
    assert_eq!(n, record(&app).events.len());
    let sc = sized(&app, 110, 60);
    assert!(sc.contains("Review"), "{sc}");
    assert!(sc.contains("analysed by expectimax"), "{sc}");
    assert!(lines.iter().any(|l| l.starts_with("blunders ??")));
    assert!(lines.iter().any(|l| l.starts_with("plays like")));
    // Scrolls to the summary, then any other key closes it.
    app.handle_key(Key::End);
    assert!(sized(&app, 110, 60).contains("luck-adjusted result"));
    app.handle_key(Key::Char('x'));
    assert_eq!(app.overlay, Overlay::None);
}

#[test]
fn undo_against_a_bot_restores_the_decision_with_the_same_throw() {
    let mut app = vs_bot(RuleSet::Kendall5, 21);
    app.handle_key(Key::Char('u'));
    assert!(last_message(&app).1.contains("Cannot undo"));
    to_choice(&mut app, 2);
    let before = *app.session.as_ref().unwrap().game();
    let events = record(&app).events.len();
    app.handle_key(Key::Right);
    app.handle_key(Key::Enter);
    // The bot plays on until it is the person's turn again.
    while !app.human_to_throw() && !app.human_to_move() {
        if !app.tick() {
            break;
        }
    }
    assert!(record(&app).events.len() > events + 1);
    app.handle_key(Key::Char('u'));
    let s = app.session.as_ref().unwrap();
    assert_eq!(
        *s.game(),
        before,
        "back to the decision, same throw in hand"
    );
    assert_eq!(s.record().events.len(), events);
    assert!(app.human_to_move());
    assert!(last_message(&app).1.contains("Took back"));
}

#[test]
fn undo_is_refused_in_hot_seat() {
    let mut app = App::new(setup(RuleSet::Kendall5, [Seat::Human, Seat::Human], 4)).unwrap();
    app.handle_key(Key::Char('t'));
    app.handle_key(Key::Enter);
    let n = record(&app).events.len();
    app.handle_key(Key::Char('u'));
    assert_eq!(record(&app).events.len(), n);
    assert!(last_message(&app)
        .1
        .contains("undo is for games against a bot"));
}

#[test]
fn hot_seat_games_of_every_rule_set_are_played_from_the_keyboard_to_the_end() {
    for &rules in RuleSet::ALL {
        let mut app = App::new(setup(rules, [Seat::Human, Seat::Human], 4)).unwrap();
        for i in 0..100_000 {
            if matches!(status(&app), Status::Over(_)) {
                break;
            }
            assert!(!app.wants_tick(), "no bot acts");
            // Throw with t or Enter; move with an arrow now and then, then Enter.
            if app.human_to_move() && i % 3 == 0 {
                app.handle_key(Key::Right);
            }
            app.handle_key(if i % 2 == 0 {
                Key::Enter
            } else {
                Key::Char('t')
            });
        }
        let Status::Over(o) = status(&app) else {
            panic!("{rules}: not over")
        };
        let text = screen(&app);
        if o.winner.is_some() {
            assert!(text.contains("wins!"), "{rules}: {text}");
        }
        record(&app).replay().expect("replays");
    }
}
#[test]
fn save_then_load_resumes_the_same_game() {
    let mut app = vs_bot(RuleSet::Kendall, 31);
    for _ in 0..6 {
        to_human_move(&mut app);
        app.handle_key(Key::Enter);
    }
    let path = tmp("save-load.json");
    app.handle_key(Key::Char('s'));
    assert!(matches!(app.overlay, Overlay::Save(_)));
    // Replace the offered name with ours.
    for _ in 0..200 {
        app.handle_key(Key::Backspace);
    }
    for c in path.chars() {
        app.handle_key(Key::Char(c));
    }
    app.handle_key(Key::Enter);
    assert_eq!(app.overlay, Overlay::None);
    assert!(!app.dirty);
    let saved = Record::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(saved, record(&app));
    let game = *app.session.as_ref().unwrap().game();
    assert_eq!(saved.replay().unwrap().end, game);

    let mut other = vs_bot(RuleSet::Kendall5, 1);
    other.handle_key(Key::Char('l'));
    for c in path.chars() {
        other.handle_key(Key::Char(c));
    }
    other.handle_key(Key::Enter);
    let s = other.session.as_ref().unwrap();
    assert_eq!(*s.game(), game);
    assert_eq!(s.record().events, saved.events);
    assert!(last_message(&other).1.starts_with("Resumed after"));
    // And play goes on from there.
    to_human_move(&mut other);
    other.handle_key(Key::Enter);
    assert!(record(&other).events.len() > saved.events.len());
}

#[test]
fn loading_a_bad_file_says_why_and_keeps_the_game() {
    let mut app = vs_bot(RuleSet::Kendall5, 3);
    app.handle_key(Key::Char('t'));
    let game = *app.session.as_ref().unwrap().game();
    let bad = tmp("bad.json");
    std::fs::write(&bad, "{\"format\": \"senet-record/1\", \"rules\": \"kendall5\", \"events\": [{\"throw\": \"9\"}]}").unwrap();
    for path in [tmp("missing.json"), bad] {
        app.handle_key(Key::Char('l'));
        for c in path.chars() {
            app.handle_key(Key::Char(c));
        }
        app.handle_key(Key::Enter);
        let (tone, text) = last_message(&app);
        assert_eq!(tone, Tone::Error);
        assert!(text.contains(&path), "{text}");
        assert_eq!(*app.session.as_ref().unwrap().game(), game);
    }
    assert!(last_message(&app).1.contains("event 1"));
}

/// Plays by keys alone (space throws, Enter takes the highlighted move) while the bot acts
/// on ticks, until the game ends or `bot_moves` bot decisions were made.
fn play_by_keys(app: &mut App, bot_moves: usize) {
    let mut seen = 0;
    for _ in 0..100_000 {
        if matches!(status(app), Status::Over(_)) || seen >= bot_moves {
            return;
        }
        if app.human_to_throw() {
            app.handle_key(Key::Char(' '));
        } else if app.human_to_move() {
            app.handle_key(Key::Enter);
        } else {
            let moving = matches!(status(app), Status::Move(_));
            assert!(app.tick(), "the bot acts");
            seen += moving as usize;
        }
    }
}

/// A person plays, by keys alone, a complete game of every rule set against each level (the
/// bot throws first); the result is shown with the offer to play again, and the record replays.
#[test]
fn whole_games_against_every_level_on_every_rule_set() {
    for (i, level) in senet_bots::play::levels().iter().enumerate() {
        for &rules in RuleSet::ALL {
            let mut app =
                App::new(setup(rules, [bot(level), Seat::Human], 100 + i as u64)).unwrap();
            assert!(app.wants_tick(), "{rules}: the bot throws first");
            play_by_keys(&mut app, usize::MAX);
            let Status::Over(_) = status(&app) else {
                panic!("{rules} vs {level}: not over");
            };
            let bot_lines = app
                .messages
                .iter()
                .filter(|(_, m)| {
                    m.starts_with(&format!("{} (", senet_tui::session::capital(level)))
                })
                .count();
            assert!(
                bot_lines > 0,
                "{rules} vs {level}: the bot's moves are announced"
            );
            let rec = record(&app);
            assert!(rec.result.is_some());
            rec.replay().expect("the record replays");
            let text = screen(&app);
            assert!(text.contains("play again"), "{text}");
            assert!(!app.wants_tick());
        }
    }
}

#[test]
fn watching_two_bots_pause_and_play_again() {
    let mut app = App::new(setup(
        RuleSet::Kendall5,
        [bot("beginner"), bot("expert")],
        9,
    ))
    .unwrap();
    assert!(app.wants_tick());
    app.handle_key(Key::Char('p'));
    assert!(app.paused && !app.wants_tick() && !app.tick());
    app.handle_key(Key::Char('p'));
    app.run_bots();
    assert!(matches!(status(&app), Status::Over(_)));
    let first = record(&app);
    app.handle_key(Key::Enter);
    assert!(
        app.session.as_ref().unwrap().record().events == first.events,
        "Enter does not restart"
    );
    app.handle_key(Key::Char('n'));
    let s = app.session.as_ref().unwrap();
    assert!(s.record().events.is_empty(), "a new game");
    assert_ne!(s.seed(), first.seed.unwrap(), "with the next seed");
    assert!(app.wants_tick());
}

#[test]
fn the_setup_screen_starts_the_chosen_game() {
    let mut app = App::with_form(setup(RuleSet::Kendall5, [Seat::Human, bot("casual")], 1));
    assert!(screen(&app).contains("new game"));
    // Rules: the next rule set; opponent: human; seat stays first.
    app.handle_key(Key::Right);
    app.handle_key(Key::Down);
    app.handle_key(Key::Left); // casual -> beginner
    app.handle_key(Key::Left); // -> human (wraps)
    app.handle_key(Key::Enter);
    let s = app.session.as_ref().expect("started");
    let k5 = RuleSet::ALL
        .iter()
        .position(|r| *r == RuleSet::Kendall5)
        .unwrap();
    assert_eq!(
        s.game().rules(),
        RuleSet::ALL[(k5 + 1) % RuleSet::ALL.len()]
    );
    assert_eq!(s.seats(), &[Seat::Human, Seat::Human]);

    // Watching with a human opponent is refused with a reason.
    let mut app = App::with_form(setup(RuleSet::Kendall5, [Seat::Human, Seat::Human], 1));
    app.handle_key(Key::Up);
    app.handle_key(Key::Left);
    app.handle_key(Key::Enter);
    assert!(app.session.is_none());
    assert!(app.form.as_ref().unwrap().error.is_some());
    assert!(screen(&app).contains("to watch, choose a bot"));
    app.handle_key(Key::Up);
    app.handle_key(Key::Left);
    app.handle_key(Key::Enter);
    let s = app.session.as_ref().expect("started");
    assert!(s.watching());
}

#[test]
fn after_a_game_c_opens_the_setup_screen() {
    let mut app = App::new(setup(RuleSet::Kendall, [bot("random"), bot("random")], 5)).unwrap();
    app.run_bots();
    app.handle_key(Key::Char('c'));
    assert!(app.form.is_some());
    app.handle_key(Key::Esc);
    assert!(app.form.is_none(), "Esc returns to the finished game");
    assert!(matches!(status(&app), Status::Over(_)));
}

#[test]
fn quitting_with_unsaved_moves_asks_first() {
    let mut app = vs_bot(RuleSet::Kendall5, 2);
    app.handle_key(Key::Char('q'));
    assert!(app.quit, "nothing to lose: quits at once");

    let mut app = vs_bot(RuleSet::Kendall5, 2);
    app.handle_key(Key::Char('t'));
    app.handle_key(Key::Char('q'));
    assert!(!app.quit);
    assert_eq!(app.overlay, Overlay::Quit);
    assert!(screen(&app).contains("not saved"));
    app.handle_key(Key::Char('x'));
    assert_eq!(app.overlay, Overlay::None, "any other key stays");
    app.handle_key(Key::Char('q'));
    app.handle_key(Key::Char('q'));
    assert!(app.quit);

    let mut app = vs_bot(RuleSet::Kendall5, 2);
    app.handle_key(Key::Char('t'));
    app.handle_key(Key::Ctrl('c'));
    assert!(app.quit, "Ctrl-C quits at once");
}

#[test]
fn the_quit_screen_can_save_first() {
    let path = tmp("quit-save.json");
    let mut app = vs_bot(RuleSet::Kendall5, 2);
    app.file = Some(path.clone());
    app.handle_key(Key::Char('t'));
    app.handle_key(Key::Char('q'));
    app.handle_key(Key::Char('s'));
    assert!(app.quit);
    let rec = Record::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(rec.events.len(), 1);
    assert!(senet_tui::terminal::farewell(&app).contains(&path));
}

#[test]
fn rules_moves_and_help_screens_open_scroll_and_close() {
    let mut app = vs_bot(RuleSet::Kendall5, 6);
    app.handle_key(Key::Char('r'));
    let text = sized(&app, 80, 24);
    assert!(text.contains("Rules: Kendall, five pieces"), "{text}");
    assert!(!text.contains("Options of this game"), "below the fold");
    for _ in 0..100 {
        app.handle_key(Key::Down);
    }
    let scrolled = sized(&app, 80, 24);
    assert!(scrolled.contains("Options of this game"), "{scrolled}");
    app.handle_key(Key::Up);
    assert_ne!(
        sized(&app, 80, 24),
        scrolled,
        "scrolls back at once from the end"
    );
    app.handle_key(Key::Home);
    assert_eq!(sized(&app, 80, 24), text);
    app.handle_key(Key::Esc);
    assert_eq!(app.overlay, Overlay::None);

    app.handle_key(Key::Char('t'));
    app.handle_key(Key::Enter);
    app.handle_key(Key::Char('m'));
    let text = screen(&app);
    assert!(text.contains("Move list"));
    assert!(text.contains("   1. player 1 (X) threw"), "{text}");
    app.handle_key(Key::Char('x'));
    app.handle_key(Key::Char('?'));
    assert!(screen(&app).contains("undo your last decision"));
    app.handle_key(Key::Char('x'));
    assert_eq!(app.overlay, Overlay::None);
}

#[test]
fn bots_wait_while_a_screen_is_open() {
    let mut app = App::new(setup(RuleSet::Kendall5, [bot("casual"), Seat::Human], 6)).unwrap();
    app.handle_key(Key::Char('r'));
    assert!(!app.tick());
    app.handle_key(Key::Esc);
    assert!(app.tick());
}

#[test]
fn the_rules_screen_uses_the_rule_sets_document_when_there_is_one() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/rules");
    for &rules in RuleSet::ALL {
        let path = dir.join(format!("{}.md", rules.id()));
        let g = senet_rules::AnyGame::new(rules, &[] as &[&str]).unwrap();
        let summary = senet_tui::rules_doc::summary(&g);
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                assert_eq!(
                    senet_tui::rules_doc::doc(rules),
                    Some(text.as_str()),
                    "{rules}"
                );
                assert!(summary.starts_with(text.trim_end()));
            }
            Err(_) => {
                assert_eq!(senet_tui::rules_doc::doc(rules), None, "{rules}");
                assert!(summary.contains(&format!("There is no docs/rules/{}.md", rules.id())));
                assert!(summary.contains(rules.source()));
                assert!(summary.contains("Throws and their chances"));
            }
        }
        assert!(summary.contains(g.view().path));
        for c in g.view().cells.iter().filter(|c| c.special.is_some()) {
            assert!(summary.contains(c.special.unwrap()), "{rules}: {}", c.label);
        }
    }
}

/// Issue 13: a series in the full-screen UI, two bots watched: the title shows the game
/// number and score, `n` starts the next game with the seats swapped, `s` saves the series
/// record, and after the last game `n` is refused.
#[test]
fn a_series_of_two_games_with_next_game_and_the_score_on_screen() {
    use senet_rules::series::{Starts, Target};
    use senet_tui::session::SeriesPlay;
    let s = setup(RuleSet::Kendall5, [bot("greedy"), bot("random")], 4);
    let (sp, first) = SeriesPlay::new(&s, Target::Games(2), Starts::Alternate).unwrap();
    let mut app = App::series(sp, first, None).unwrap();
    assert!(
        screen(&app).contains("series of 2 games, game 1: seat 1 (greedy) 0 - 0 seat 2 (random)")
    );
    app.run_bots();
    assert!(matches!(status(&app), Status::Over(_)));
    let text = sized(&app, 160, 30);
    assert!(text.contains("n: next game"), "{text}");
    app.handle_key(Key::Char('n'));
    assert!(!matches!(status(&app), Status::Over(_)));
    // Game 2: seat 2 (random) plays the first player.
    assert_eq!(app.session.as_ref().unwrap().seats()[0], bot("random"));
    assert!(screen(&app).contains("game 2"));
    app.run_bots();
    let sp = app.series.as_ref().unwrap();
    assert!(sp.series.standing().over);
    assert!(sp.result_line().is_some());
    let path = std::env::temp_dir().join(format!("senet-tui-series-{}.json", std::process::id()));
    let path = path.display().to_string();
    assert!(app.save(&path));
    let back = senet_rules::Series::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(back.games.len(), 2);
    assert!(back.replay().unwrap().standing.over);
    app.handle_key(Key::Char('n'));
    assert_eq!(last_message(&app).0, Tone::Error);
    assert!(
        last_message(&app).1.contains("the series is over"),
        "{:?}",
        last_message(&app)
    );
}
