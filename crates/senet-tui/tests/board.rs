//! Snapshot tests of the screen for every rule set, drawn with ratatui's test backend: the
//! exact text lines of an 80x24 terminal at the start, after the first throw (legal moves
//! highlighted), and later in a game. `tests/snapshots/<id>.txt` holds them; after an
//! intended change of the drawing (or for a new rule set) regenerate them with
//! `SENET_BLESS=1 cargo test -p senet-tui --test board` and review the diff.

use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Color;
use ratatui::Terminal;
use senet_rules::Metrics;
use senet_rules::{BoardView, CellView, PieceView, RuleSet, Status};
use senet_tui::app::{App, Key};
use senet_tui::render::{self, buffer_lines, draw_board, Marks};
use senet_tui::session::{Seat, Setup};
use std::path::PathBuf;

fn setup(rules: RuleSet, seats: [Seat; 2], seed: u64) -> Setup {
    Setup {
        rules,
        options: vec![],
        seats,
        seed,
    }
}

fn vs_bot(rules: RuleSet, seed: u64) -> App {
    App::new(setup(
        rules,
        [Seat::Human, Seat::Bot("random".into())],
        seed,
    ))
    .unwrap()
}

fn screen(app: &App, w: u16, h: u16) -> Buffer {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| render::draw(f, app)).unwrap();
    t.backend().buffer().clone()
}

fn text(app: &App) -> String {
    buffer_lines(&screen(app, 80, 24)).join("\n")
}

/// The three screens of a rule set's snapshot.
fn snapshot(rules: RuleSet) -> String {
    let mut app = vs_bot(rules, 7);
    let mut out = format!("== {}: start\n{}\n", rules.id(), text(&app));
    app.handle_key(Key::Char('t'));
    out.push_str(&format!("== after the first throw\n{}\n", text(&app)));
    // Play on: the human takes the first move listed, until 12 throws are recorded.
    while app.session.as_ref().unwrap().turns().len() < 12
        && !matches!(app.session.as_ref().unwrap().status(), Status::Over(_))
    {
        if app.human_to_throw() {
            app.handle_key(Key::Char('t'));
        } else if app.human_to_move() {
            app.handle_key(Key::Enter);
        } else {
            app.tick();
        }
    }
    out.push_str(&format!("== after 12 throws\n{}\n", text(&app)));
    let mut watch = App::new(setup(
        rules,
        [Seat::Bot("random".into()), Seat::Bot("random".into())],
        7,
    ))
    .unwrap();
    watch.run_bots();
    out.push_str(&format!("== two bots, game over\n{}\n", text(&watch)));
    out
}

#[test]
fn screens_match_the_snapshots_for_every_rule_set() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let bless = std::env::var_os("SENET_BLESS").is_some();
    for &rules in RuleSet::ALL {
        let path = dir.join(format!("{}.txt", rules.id()));
        let got = snapshot(rules);
        if bless {
            std::fs::write(&path, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (create it with SENET_BLESS=1 cargo test -p senet-tui --test board)",
                path.display()
            )
        });
        for (i, (g, w)) in got.lines().zip(want.lines()).enumerate() {
            assert_eq!(g, w, "{} line {}", path.display(), i + 1);
        }
        assert_eq!(
            got.lines().count(),
            want.lines().count(),
            "{}",
            path.display()
        );
    }
}

/// Whatever the rule set: every cell's label and every piece on the board are drawn, the
/// pieces in their player's colour, and the chosen move's squares highlighted.
#[test]
fn every_rule_set_draws_every_cell_and_piece_in_its_colour() {
    for &rules in RuleSet::ALL {
        let mut app = vs_bot(rules, 3);
        // On to the person's first decision (some rule sets pass a throw with no move at once).
        while !app.human_to_move() {
            if app.human_to_throw() {
                app.handle_key(Key::Char('t'));
            } else {
                assert!(app.tick(), "{rules}: the bot acts");
            }
        }
        let s = app.session.as_ref().unwrap();
        let v = s.view();
        let buf = screen(&app, 100, 30);
        let cell = render::cell_width(&v, 100, 18);
        let (bw, bh) = render::board_size(&v, cell);
        let board = Rect::new(0, 1, bw, bh);
        let lines: Vec<String> = buffer_lines(&buf)[1..1 + bh as usize].to_vec();
        for c in &v.cells {
            let x = (c.col as u16 * (cell + 1) + 1) as usize;
            let y = c.row as usize * 4 + 1;
            let row: String = lines[y].chars().skip(x).take(cell as usize).collect();
            assert!(
                row.starts_with(&c.label),
                "{rules}: cell {} shows {row:?}",
                c.label
            );
        }
        let mut coloured = [0usize; 2];
        for y in board.top()..board.bottom() {
            for x in board.left()..board.right() {
                let cell = &buf[(x, y)];
                let sym = cell.symbol().chars().next().unwrap_or(' ');
                for (i, colour) in [Color::Yellow, Color::Blue].into_iter().enumerate() {
                    if cell.bg == colour && sym != ' ' {
                        coloured[i] += 1;
                    }
                }
            }
        }
        let on_board = |p: u8| -> usize {
            v.cells
                .iter()
                .flat_map(|c| &c.pieces)
                .filter(|x| x.player == p)
                .count()
        };
        assert_eq!(coloured, [on_board(1), on_board(2)], "{rules}");
        let census = s.game().census();
        assert_eq!(on_board(1), census[0].board as usize, "{rules}");
        let sel = app.selection().unwrap();
        if !sel.is_pass() {
            let find = |sq: u8| v.cells.iter().find(|c| c.square == sq);
            let from = find(sel.from).expect("the move starts on a cell");
            let x = from.col as u16 * (cell + 1) + 1;
            let y = 1 + from.row as u16 * 4 + 2;
            assert_eq!(buf[(x, y)].bg, Color::Green, "{rules}: chosen square");
            if let Some(to) = find(sel.to) {
                let x = to.col as u16 * (cell + 1) + 1;
                let y = 1 + to.row as u16 * 4 + 2;
                assert_eq!(buf[(x, y)].bg, Color::Cyan, "{rules}: destination");
            }
        }
    }
}

fn piece(player: u8, kind: char) -> PieceView {
    PieceView {
        player,
        kind,
        name: "piece",
    }
}

/// A board no rule set has yet: holes in the grid, two pieces on one cell, sized pieces,
/// long labels and marks. The drawing stays generic.
#[test]
fn an_unusual_board_is_drawn_generically() {
    let cell = |square: u8, row: u8, col: u8, label: &str, pieces: Vec<PieceView>| CellView {
        square,
        row,
        col,
        label: label.into(),
        special: None,
        mark: None,
        pieces,
    };
    let mut cells = vec![
        cell(1, 0, 0, "1", vec![piece(1, 'L'), piece(2, 'm')]),
        cell(2, 0, 1, "2", vec![piece(2, 's')]),
        cell(3, 0, 2, "H3long", vec![]),
        cell(
            4,
            1,
            1,
            "4",
            vec![piece(1, 'X'), piece(1, 'X'), piece(2, 'O')],
        ),
    ];
    cells[2].special = Some("water: back to 1");
    cells[2].mark = Some("water");
    cells[1].special = Some("the house of happiness (P3)");
    let v = BoardView {
        rows: 2,
        cols: 3,
        cells,
        off: [1, 0],
        captured: [0, 2],
        path: "test",
        notes: vec![],
        paths: vec![],
    };
    let area = Rect::new(0, 0, 19, 9);
    let mut buf = Buffer::empty(area);
    draw_board(&mut buf, area, &v, 5, &Marks::default());
    assert_eq!(
        buffer_lines(&buf),
        vec![
            "┌─────┬─────┬─────┐",
            "│1    │2    │H3lon│",
            "│ L m │  s  │     │",
            "│     │◆    │◆    │",
            "└─────┼─────┼─────┘",
            "      │4    │",
            "      │X X O│",
            "      │     │",
            "      └─────┘",
        ]
    );
    // At width 7 the short mark fits: `water`; the cell with a description and no short mark
    // shows the diamond alone.
    let area = Rect::new(0, 0, 25, 9);
    let mut buf = Buffer::empty(area);
    draw_board(&mut buf, area, &v, 7, &Marks::default());
    assert_eq!(buffer_lines(&buf)[3], "│       │◆      │◆water │");
    assert_eq!(buffer_lines(&buf)[2], "│ L  m  │   s   │       │");
}

#[test]
fn a_small_terminal_gets_a_clear_message_not_a_broken_board() {
    let app = vs_bot(RuleSet::Kendall5, 1);
    let lines = buffer_lines(&screen(&app, 50, 12));
    assert!(lines.join(" ").contains("needs at least"), "{lines:?}");
}

#[test]
fn throws_are_drawn_as_sticks_or_dice_with_their_value() {
    use senet_rules::Throw;
    use senet_tui::render::throw_picture;
    assert_eq!(throw_picture(Throw::single(3), false), "┃┃┃  3");
    assert_eq!(throw_picture(Throw::single(4), true), "⚃  4");
    assert_eq!(throw_picture(Throw::dice(5, 3), true), "⚂ ⚄  3-5");
    // The track games throw sticks.
    for rules in [RuleSet::Kendall, RuleSet::Kendall5] {
        let s =
            senet_tui::session::Session::new(&setup(rules, [Seat::Human, Seat::Human], 1)).unwrap();
        assert!(!s.throws_dice(), "{rules}");
    }
}
