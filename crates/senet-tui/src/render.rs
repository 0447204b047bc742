//! Drawing: the board from the rules crate's `BoardView` (generic over every rule set), the
//! side panel, the message and help lines, and the screens over the game. Reads the
//! [`App`] and never changes the game.

use crate::app::{App, Overlay, SetupForm, Tone, SEATS};
use crate::rules_doc;
use crate::session::{Seat, Session};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use ratatui::Frame;
use senet_rules::Notation;
use senet_rules::{BoardView, Game, Move, Player, RuleSet, Status, Throw};

/// The two players' piece styles: black on yellow, white on blue (clear apart in colour and
/// in brightness, and for the common colour blindnesses).
pub const PIECE: [Style; 2] = [
    Style::new()
        .fg(Color::Black)
        .bg(Color::Yellow)
        .add_modifier(Modifier::BOLD),
    Style::new()
        .fg(Color::White)
        .bg(Color::Blue)
        .add_modifier(Modifier::BOLD),
];

/// The colour names shown beside the players.
pub const COLOUR_NAMES: [&str; 2] = ["yellow", "blue"];

const FROM_BG: Color = Color::Green;
const TO_BG: Color = Color::Cyan;
const LAST_BG: Color = Color::DarkGray;

/// What to highlight on the board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// Squares some legal move starts from.
    pub sources: Vec<u8>,
    /// The highlighted move's squares.
    pub from: Option<u8>,
    /// The highlighted move's destination.
    pub to: Option<u8>,
    /// The last move's squares (shown when no move is highlighted).
    pub last: Option<(u8, u8)>,
}

/// The narrowest side panel.
const SIDE_MIN: u16 = 18;

/// Lines per cell inside its border: label, pieces, special mark.
const CELL_LINES: u16 = 3;

/// The widest cell drawn, and the narrowest.
const MAX_CELL: u16 = 7;
const MIN_CELL: u16 = 3;

/// The board's size in columns and lines for an inner cell width.
pub fn board_size(v: &BoardView, cell: u16) -> (u16, u16) {
    (
        v.cols as u16 * (cell + 1) + 1,
        v.rows as u16 * (CELL_LINES + 1) + 1,
    )
}

/// The widest cell that leaves `reserve` columns of `width` beside the board.
pub fn cell_width(v: &BoardView, width: u16, reserve: u16) -> u16 {
    let cols = v.cols.max(1) as u16;
    let avail = width.saturating_sub(reserve + 1);
    (avail / cols).saturating_sub(1).clamp(MIN_CELL, MAX_CELL)
}

/// A special cell's mark: `◆` and its short mark from senet-rules ([`senet_rules::CellView::mark`],
/// e.g. `safe`, `III`) when that fits the cell.
pub fn cell_mark(mark: Option<&str>, width: u16) -> String {
    match mark {
        Some(m) if !m.is_empty() && m.chars().count() < width as usize => format!("◆{m}"),
        _ => "◆".into(),
    }
}

fn box_char(up: bool, down: bool, left: bool, right: bool) -> &'static str {
    match (up, down, left, right) {
        (false, true, false, true) => "┌",
        (false, true, true, false) => "┐",
        (true, false, false, true) => "└",
        (true, false, true, false) => "┘",
        (true, true, false, true) => "├",
        (true, true, true, false) => "┤",
        (false, true, true, true) => "┬",
        (true, false, true, true) => "┴",
        (true, true, true, true) => "┼",
        (true, true, false, false) | (true, false, false, false) | (false, true, false, false) => {
            "│"
        }
        (false, false, true, true) | (false, false, true, false) | (false, false, false, true) => {
            "─"
        }
        (false, false, false, false) => " ",
    }
}

fn put(buf: &mut Buffer, area: Rect, x: u16, y: u16, s: &str, style: Style) {
    if x < area.width && y < area.height {
        buf.set_stringn(area.x + x, area.y + y, s, (area.width - x) as usize, style);
    }
}

fn set_bg(buf: &mut Buffer, area: Rect, x: u16, y: u16, w: u16, bg: Color) {
    for dx in 0..w {
        if x + dx < area.width && y < area.height {
            if let Some(c) = buf.cell_mut((area.x + x + dx, area.y + y)) {
                c.set_bg(bg);
            }
        }
    }
}

/// Draws the board into `area` (which should be [`board_size`]), cells `cell` wide.
pub fn draw_board(buf: &mut Buffer, area: Rect, v: &BoardView, cell: u16, marks: &Marks) {
    let (rows, cols) = (v.rows as usize, v.cols as usize);
    let mut present = vec![vec![false; cols]; rows];
    for c in &v.cells {
        if (c.row as usize) < rows && (c.col as usize) < cols {
            present[c.row as usize][c.col as usize] = true;
        }
    }
    let at = |r: isize, c: isize| -> bool {
        r >= 0
            && c >= 0
            && (r as usize) < rows
            && (c as usize) < cols
            && present[r as usize][c as usize]
    };
    let border = Style::new().fg(Color::Gray);
    // Junctions and the lines between them: a line runs wherever a cell is on either side.
    for jr in 0..=rows as isize {
        for jc in 0..=cols as isize {
            let up = at(jr - 1, jc - 1) || at(jr - 1, jc);
            let down = at(jr, jc - 1) || at(jr, jc);
            let left = at(jr - 1, jc - 1) || at(jr, jc - 1);
            let right = at(jr - 1, jc) || at(jr, jc);
            let x = jc as u16 * (cell + 1);
            let y = jr as u16 * (CELL_LINES + 1);
            put(buf, area, x, y, box_char(up, down, left, right), border);
            if jc < cols as isize && (at(jr - 1, jc) || at(jr, jc)) {
                put(buf, area, x + 1, y, &"─".repeat(cell as usize), border);
            }
            if jr < rows as isize && (at(jr, jc - 1) || at(jr, jc)) {
                for dy in 1..=CELL_LINES {
                    put(buf, area, x, y + dy, "│", border);
                }
            }
        }
    }
    for c in &v.cells {
        if c.row as usize >= rows || c.col as usize >= cols {
            continue;
        }
        let x = c.col as u16 * (cell + 1) + 1;
        let y = c.row as u16 * (CELL_LINES + 1) + 1;
        let bg = if marks.from == Some(c.square) {
            Some(FROM_BG)
        } else if marks.to == Some(c.square) {
            Some(TO_BG)
        } else if marks.from.is_none()
            && marks
                .last
                .is_some_and(|(a, b)| a == c.square || b == c.square)
        {
            Some(LAST_BG)
        } else {
            None
        };
        if let Some(bg) = bg {
            for dy in 0..CELL_LINES {
                set_bg(buf, area, x, y + dy, cell, bg);
            }
        }
        let mut label_style = Style::new();
        if marks.sources.contains(&c.square) {
            label_style = label_style
                .fg(if bg.is_some() {
                    Color::Black
                } else {
                    Color::Green
                })
                .add_modifier(Modifier::BOLD | Modifier::UNDERLINED);
        } else if bg.is_some() {
            label_style = label_style.fg(Color::Black);
        }
        put(buf, area, x, y, &clip(&c.label, cell), label_style);
        // Pieces, centred: " X " each when they fit, else one letter each.
        let n = c.pieces.len() as u16;
        if n > 0 {
            let pad = if 3 * n <= cell { 1 } else { 0 };
            let gap = if pad == 0 && 2 * n - 1 <= cell { 1 } else { 0 };
            let width = n * (1 + 2 * pad) + gap * (n - 1);
            let mut px = x + cell.saturating_sub(width) / 2;
            for (i, p) in c.pieces.iter().enumerate() {
                let style = PIECE[(p.player as usize).clamp(1, 2) - 1];
                let token = format!("{:pad$}{}{:pad$}", "", p.kind, "", pad = pad as usize);
                if px + token.chars().count() as u16 <= x + cell {
                    put(buf, area, px, y + 1, &token, style);
                }
                px += token.chars().count() as u16 + if i + 1 < c.pieces.len() { gap } else { 0 };
            }
        }
        if c.special.is_some() || c.mark.is_some() {
            let style = Style::new().fg(if bg.is_some() {
                Color::Black
            } else {
                Color::Magenta
            });
            put(buf, area, x, y + 2, &cell_mark(c.mark, cell), style);
        }
    }
}

fn clip(s: &str, w: u16) -> String {
    s.chars().take(w as usize).collect()
}

/// The board as text lines (no colours), `width` columns at most: for the plain mode.
pub fn board_text(v: &BoardView, width: u16) -> Vec<String> {
    let cell = cell_width(v, width, 0);
    let (w, h) = board_size(v, cell);
    let area = Rect::new(0, 0, w, h);
    let mut buf = Buffer::empty(area);
    draw_board(&mut buf, area, v, cell, &Marks::default());
    buffer_lines(&buf)
}

/// A buffer's text, one string per line, trailing spaces removed.
pub fn buffer_lines(buf: &Buffer) -> Vec<String> {
    let a = buf.area;
    (0..a.height)
        .map(|y| {
            let mut s = String::new();
            for x in 0..a.width {
                s.push_str(buf[(a.x + x, a.y + y)].symbol());
            }
            s.trim_end().to_string()
        })
        .collect()
}

/// A throw drawn as dice faces or as sticks (one stroke per point), with its value.
pub fn throw_picture(t: Throw, die: bool) -> String {
    let face = |v: u8| -> String {
        if (1..=6).contains(&v) {
            char::from_u32(0x2680 + v as u32 - 1)
                .map(String::from)
                .unwrap_or_default()
        } else {
            format!("[{v}]")
        }
    };
    if t.is_dice() {
        format!("{} {}  {t}", face(t.a), face(t.b))
    } else if die {
        format!("{}  {t}", face(t.a))
    } else {
        format!("{}  {t}", "┃".repeat(t.a.min(12) as usize))
    }
}

/// The marks for the current state: legal sources and the highlighted move, or the last move.
pub fn marks(app: &App) -> Marks {
    let mut m = Marks {
        last: app.last.map(|(_, mv)| (mv.from, mv.to)),
        ..Marks::default()
    };
    if app.human_to_move() {
        for mv in app.legal() {
            if !mv.is_pass() && !m.sources.contains(&mv.from) {
                m.sources.push(mv.from);
            }
        }
        if let Some(sel) = app.selection() {
            if !sel.is_pass() {
                m.from = Some(sel.from);
                m.to = Some(sel.to);
            }
        }
    }
    m
}

/// The whole screen.
pub fn draw(f: &mut Frame, app: &App) {
    let area = f.area();
    if let Some(form) = &app.form {
        draw_form(f, area, app, form);
        return;
    }
    let Some(s) = &app.session else {
        return;
    };
    let v = s.view();
    let cell = cell_width(&v, area.width, SIDE_MIN);
    let (bw, bh) = board_size(&v, cell);
    if area.width < bw + SIDE_MIN + 1 || area.height < bh + 7 {
        let need = format!(
            "The terminal is {}x{}; senet play needs at least {}x{}. Enlarge it, or press q.",
            area.width,
            area.height,
            bw + SIDE_MIN + 1,
            bh + 7
        );
        f.render_widget(
            Paragraph::new(need).wrap(ratatui::widgets::Wrap { trim: true }),
            area,
        );
        return;
    }
    let buf = f.buffer_mut();
    draw_title(buf, Rect::new(area.x, area.y, area.width, 1), app, s);
    let board = Rect::new(area.x, area.y + 1, bw, bh);
    let mk = marks(app);
    draw_board(buf, board, &v, cell, &mk);
    let side = Rect::new(
        area.x + bw + 1,
        area.y + 1,
        area.width - bw - 1,
        area.height - 2,
    );
    draw_side(buf, side, app, s, &v, &mk);
    let below = Rect::new(
        area.x,
        area.y + 1 + bh,
        bw,
        area.height.saturating_sub(bh + 2),
    );
    draw_below(buf, below, app, s, &v);
    let help = Rect::new(area.x, area.y + area.height - 1, area.width, 1);
    put(
        buf,
        help,
        0,
        0,
        &help_line(app),
        Style::new().fg(Color::Black).bg(Color::Gray),
    );
    set_bg(buf, help, 0, 0, help.width, Color::Gray);
    draw_overlay(f, area, app, s);
}

fn draw_title(buf: &mut Buffer, area: Rect, app: &App, s: &Session) {
    let r = s.game().rules();
    let who = |p: Player| match &s.seats()[p.index()] {
        Seat::Human if s.against_bot() => format!("you ({})", s.kinds(p)),
        _ => s.name(p),
    };
    let players = format!("{} vs {}", who(Player::First), who(Player::Second));
    let mut text = format!(" senet · {} · {players} · seed {}", r.name(), s.seed());
    if text.chars().count() > area.width as usize {
        text = format!(" senet · {} · {players} · seed {}", r.id(), s.seed());
    }
    if let Some(sp) = &app.series {
        text = format!(" senet · {} · {}", r.id(), sp.score_line());
    }
    put(
        buf,
        area,
        0,
        0,
        &text,
        Style::new().add_modifier(Modifier::BOLD),
    );
}

fn draw_side(buf: &mut Buffer, area: Rect, app: &App, s: &Session, v: &BoardView, mk: &Marks) {
    let mut y = 0u16;
    let acting = s.status().player();
    let off_target = mk.to.is_some() && !v.cells.iter().any(|c| Some(c.square) == mk.to);
    for p in Player::BOTH {
        let i = p.index();
        let arrow = if acting == Some(p) { "▶" } else { " " };
        put(
            buf,
            area,
            0,
            y,
            arrow,
            Style::new().add_modifier(Modifier::BOLD),
        );
        let token = format!(" {} ", s.kinds(p));
        put(buf, area, 2, y, &token, PIECE[i]);
        let seat = match &s.seats()[i] {
            Seat::Human if s.against_bot() => "you".to_string(),
            Seat::Human => format!("player {p}"),
            Seat::Bot(b) => b.clone(),
        };
        put(
            buf,
            area,
            3 + token.chars().count() as u16,
            y,
            &seat,
            Style::new().add_modifier(if acting == Some(p) {
                Modifier::BOLD
            } else {
                Modifier::empty()
            }),
        );
        y += 1;
        let off = format!("off {}", v.off[i]);
        let off_style = if off_target && acting == Some(p) {
            Style::new().bg(TO_BG).fg(Color::Black)
        } else {
            Style::new()
        };
        let captured = format!("captured {}", v.captured[i]);
        put(buf, area, 2, y, &off, off_style);
        if 2 + off.len() + 2 + captured.len() <= area.width as usize {
            put(buf, area, 4 + off.len() as u16, y, &captured, Style::new());
        } else {
            y += 1;
            put(buf, area, 2, y, &captured, Style::new());
        }
        y += 2;
    }
    for (k, val) in &v.notes {
        for l in wrap(&format!("{k}: {val}"), area.width as usize)
            .into_iter()
            .take(3)
        {
            put(buf, area, 0, y, &l, Style::new());
            y += 1;
        }
    }
    // The throw.
    let die = s.throws_dice();
    let (label, text) = match s.status() {
        Status::Move(_) => (
            "Throw",
            s.game()
                .in_hand()
                .map_or("-".into(), |t| throw_picture(t, die)),
        ),
        Status::Throw(_) => ("Throw", "(to throw)".into()),
        Status::Over(_) => ("Game over", String::new()),
    };
    put(
        buf,
        area,
        0,
        y,
        label,
        Style::new().add_modifier(Modifier::BOLD),
    );
    put(
        buf,
        area,
        label.len() as u16 + 1,
        y,
        &text,
        Style::new()
            .fg(Color::LightYellow)
            .add_modifier(Modifier::BOLD),
    );
    y += 2;
    // The latest turns.
    if y < area.height {
        put(
            buf,
            area,
            0,
            y,
            "Moves (m: all)",
            Style::new().add_modifier(Modifier::BOLD),
        );
        y += 1;
        let turns = s.turns();
        let room = area.height.saturating_sub(y) as usize;
        let first = turns.len().saturating_sub(room);
        for (n, t) in turns.iter().enumerate().skip(first) {
            let i = t.player.index();
            put(
                buf,
                area,
                0,
                y,
                &format!("{:>3}", n + 1),
                Style::new().fg(Color::Gray),
            );
            put(buf, area, 4, y, &t.player.to_string(), PIECE[i]);
            put(
                buf,
                area,
                6,
                y,
                &format!("{}: {}", t.throw, t.moves.join(" ")),
                Style::new(),
            );
            y += 1;
        }
    }
    let _ = app;
}

/// The line saying what happens now.
fn state_line(app: &App, s: &Session) -> (String, Style) {
    let bold = Style::new().add_modifier(Modifier::BOLD);
    if let Some(r) = s.result_text() {
        if let Some(sp) = &app.series {
            let (res, keys) = match sp.result_line() {
                Some(res) => (res, "c: settings · s: save the series · q: quit"),
                None => (
                    sp.score_line(),
                    "n: next game · s: save the series · q: quit",
                ),
            };
            return (
                format!("{r} {res}  {keys}"),
                bold.fg(Color::Black).bg(Color::LightGreen),
            );
        }
        return (
            format!("{r}  n: play again · c: settings · s: save · q: quit"),
            bold.fg(Color::Black).bg(Color::LightGreen),
        );
    }
    let (p, seat) = s.to_act().expect("not over");
    let who = crate::session::capital(&s.name(p));
    match (s.status(), seat) {
        (_, Seat::Bot(_)) if app.paused => (format!("Paused before {who}: p resumes."), bold),
        (Status::Throw(_), Seat::Bot(_)) => (format!("{who} is throwing…"), Style::new()),
        (_, Seat::Bot(_)) => (format!("{who} is playing…"), Style::new()),
        (Status::Throw(_), _) => {
            let whose = if s.against_bot() {
                "Your throw".to_string()
            } else {
                format!("{who}: your throw")
            };
            (format!("{whose}: press t (or Enter)."), bold)
        }
        _ => {
            let t = s.game().in_hand().map_or("-".into(), |t| t.to_string());
            let whose = if s.against_bot() {
                "Your move".to_string()
            } else {
                format!("{who}: your move")
            };
            if !app.typed.is_empty() {
                (format!("{whose} with {t}: square {}▏", app.typed), bold)
            } else if app.legal().iter().all(|m| m.is_pass()) {
                (
                    format!("{whose} with {t}: no legal move, Enter passes."),
                    bold,
                )
            } else {
                (
                    format!("{whose} with {t}: ←→ choose, Enter plays, or type a square."),
                    bold,
                )
            }
        }
    }
}

fn draw_below(buf: &mut Buffer, area: Rect, app: &App, s: &Session, v: &BoardView) {
    let dim = Style::new().fg(Color::Gray);
    let mut y = 0u16;
    let mut path = wrap(&format!("Path: {}", v.path), area.width as usize);
    if path.len() > 2 {
        // The whole path is on the rules screen.
        path.truncate(2);
        let last: String = path[1].chars().take(area.width as usize - 10).collect();
        path[1] = format!("{last}… (r: all)");
    }
    for l in path {
        put(buf, area, 0, y, &l, dim);
        y += 1;
    }
    let (text, style) = state_line(app, s);
    for l in wrap(&text, area.width as usize).into_iter().take(2) {
        put(buf, area, 0, y, &l, style);
        y += 1;
    }
    if app.human_to_move() {
        let legal = app.legal();
        let mut x = 0u16;
        put(
            buf,
            area,
            x,
            y,
            "Moves:",
            Style::new().add_modifier(Modifier::BOLD),
        );
        x += 7;
        for (i, &m) in legal.iter().enumerate() {
            let mut text = s.move_string(m);
            if let Some(h) = &app.hint {
                if h.best == m {
                    text.push('*');
                }
                if let Some(p) = h.chance(m) {
                    text.push_str(&format!(" {:.0}%", 100.0 * p));
                }
            }
            let w = text.chars().count() as u16;
            if x + w + 1 > area.width {
                y += 1;
                x = 7;
            }
            let st = if i == app.selected {
                Style::new()
                    .fg(Color::Black)
                    .bg(FROM_BG)
                    .add_modifier(Modifier::BOLD)
            } else {
                Style::new()
            };
            put(buf, area, x, y, &text, st);
            x += w + 2;
        }
        y += 1;
        if let Some(sel) = app.selection() {
            let detail = move_detail(s, v, sel);
            if !detail.is_empty() {
                put(buf, area, 0, y, &detail, Style::new().fg(Color::Magenta));
                y += 1;
            }
        }
    }
    // The special squares, when there is room for them and three message lines.
    let legend = legend(v);
    if !legend.is_empty() {
        let lines = wrap(&legend, area.width as usize);
        if (y as usize) + lines.len() + 3 <= area.height as usize {
            for l in lines {
                put(buf, area, 0, y, &l, Style::new().fg(Color::Magenta));
                y += 1;
            }
        }
    }
    // Messages, newest at the bottom of the free space; only whole messages.
    let room = area.height.saturating_sub(y) as usize;
    let mut shown: Vec<(Tone, Vec<String>)> = Vec::new();
    let mut used = 0;
    for (tone, m) in app.messages.iter().rev() {
        let w = wrap(m, area.width as usize);
        if used + w.len() > room {
            break;
        }
        used += w.len();
        shown.push((*tone, w));
    }
    let count = shown.len();
    for (k, (tone, lines)) in shown.into_iter().rev().enumerate() {
        let mut st = match tone {
            Tone::Event => Style::new(),
            Tone::Info => Style::new().fg(Color::LightCyan),
            Tone::Error => Style::new().fg(Color::LightRed),
        };
        if k + 1 == count {
            st = st.add_modifier(Modifier::BOLD);
        }
        for l in lines {
            put(buf, area, 0, y, &l, st);
            y += 1;
        }
    }
}

/// The special squares in one line: `◆ 15 safe (K4) · 26 ...`.
pub fn legend(v: &BoardView) -> String {
    let mut specials: Vec<_> = v.cells.iter().filter(|c| c.special.is_some()).collect();
    specials.sort_by_key(|c| c.square);
    let parts: Vec<String> = specials
        .iter()
        .map(|c| format!("{} {}", c.label, c.special.unwrap_or_default()))
        .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!("◆ {}", parts.join(" · "))
    }
}

/// What the highlighted move does to the cells it touches, from their special marks.
fn move_detail(s: &Session, v: &BoardView, m: Move) -> String {
    if m.is_pass() {
        return String::new();
    }
    let mut parts = Vec::new();
    if let Some(d) = s.game().die_used(m) {
        parts.push(format!("uses {d}"));
    }
    if let Some(c) = v.cells.iter().find(|c| c.square == m.to) {
        if let Some(sp) = c.special {
            parts.push(format!("{}: {sp}", c.label));
        }
    }
    parts.join(" · ")
}

/// The keys that work now.
pub fn help_line(app: &App) -> String {
    let s = app.session.as_ref();
    let over = s.is_some_and(|s| matches!(s.status(), Status::Over(_)));
    let keys = if over {
        "n play again · c settings · a review · u undo · m moves · s save · q quit"
    } else if app.human_to_throw() {
        "t throw · u undo · m move list · r rules · s save · l load · ? help · q quit"
    } else if app.human_to_move() {
        "←→/Enter move · 0-9 square · h hint · u undo · r rules · ? help · q quit"
    } else if s.is_some_and(|s| s.watching()) {
        "p pause · + - speed · m move list · r rules · s save · ? help · q quit"
    } else {
        "m move list · r rules · s save · ? help · q quit"
    };
    format!(" {keys}")
}

/// Greedy word wrap to `width` columns (words longer than a line are cut).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut out = Vec::new();
    for para in text.split('\n') {
        let indent: String = para.chars().take_while(|c| *c == ' ').collect();
        let mut line = String::new();
        for word in para.split_whitespace() {
            let mut word = word.to_string();
            loop {
                let len = line.chars().count();
                let wl = word.chars().count();
                if len == 0 {
                    let room = width.saturating_sub(indent.len()).max(1);
                    if wl <= room {
                        line = format!("{indent}{word}");
                        break;
                    }
                    let head: String = word.chars().take(room).collect();
                    out.push(format!("{indent}{head}"));
                    word = word.chars().skip(room).collect();
                } else if len + 1 + wl <= width {
                    line.push(' ');
                    line.push_str(&word);
                    break;
                } else {
                    out.push(std::mem::take(&mut line));
                }
            }
        }
        out.push(line);
    }
    out
}

fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

/// The move list, one line per throw.
pub fn move_list(s: &Session) -> Vec<String> {
    s.turns()
        .iter()
        .enumerate()
        .map(|(n, t)| {
            format!(
                "{:>4}. player {} ({}) threw {}: {}",
                n + 1,
                t.player,
                s.kinds(t.player),
                t.throw,
                if t.moves.is_empty() {
                    "-".to_string()
                } else {
                    t.moves.join(", ")
                }
            )
        })
        .collect()
}

/// The help screen's lines.
pub const HELP: &[&str] = &[
    "t, Space, Enter   throw (when it is your throw)",
    "← → ↑ ↓, Tab      choose among the legal moves (highlighted on the board)",
    "Enter             play the chosen move",
    "0-9 …             type a square (or a whole move like {move}) to choose its move",
    "h                 hint: the expert bot's move, every move's win chance beside it",
    "a                 after the game: the review (win chance lost per decision, luck)",
    "u                 undo your last decision (against a bot)",
    "m                 the move list          r   the rules of this game",
    "s                 save the game record   l   load a record and resume it",
    "p                 pause / resume (watching two bots)",
    "+ -               bots play faster / slower",
    "n, c              after the game: play again, change settings",
    "q                 quit (asks to save unsaved moves)   Ctrl-C quits at once",
    "",
    "Board: the player to act has ▶; legal starting squares are green and",
    "underlined; the chosen move's square is green and its destination cyan;",
    "the last move is grey. Any key closes this screen.",
];

fn draw_overlay(f: &mut Frame, area: Rect, app: &App, s: &Session) {
    let title_style = Style::new().add_modifier(Modifier::BOLD);
    match &app.overlay {
        Overlay::None => {}
        Overlay::Help => {
            // The example move in the rule set's own notation.
            let example = s
                .game()
                .example_moves()
                .split(", ")
                .nth(1)
                .unwrap_or("pass");
            let help: Vec<String> = HELP.iter().map(|l| l.replace("{move}", example)).collect();
            let w = help.iter().map(|l| l.chars().count()).max().unwrap_or(20) as u16 + 4;
            let r = centered(area, w, help.len() as u16 + 2);
            let lines: Vec<Line> = help.into_iter().map(Line::from).collect();
            f.render_widget(Clear, r);
            f.render_widget(
                Paragraph::new(lines).block(
                    Block::default()
                        .borders(Borders::ALL)
                        .title(Span::styled(" Keys ", title_style)),
                ),
                r,
            );
        }
        Overlay::Rules(scroll) | Overlay::Moves(scroll) | Overlay::Review(scroll) => {
            let r = Rect::new(area.x, area.y, area.width, area.height.saturating_sub(1));
            let inner_w = r.width.saturating_sub(4) as usize;
            let (title, lines): (String, Vec<Line>) = match &app.overlay {
                Overlay::Rules(_) => (
                    format!(" Rules: {} ", s.game().rules().name()),
                    markdown_lines(&rules_doc::summary(s.game()), inner_w),
                ),
                Overlay::Review(_) => (
                    " Review: win chance lost per decision, luck, summary ".into(),
                    app.review
                        .as_ref()
                        .map(|r| r.1.iter().map(|l| Line::from(l.clone())).collect())
                        .unwrap_or_default(),
                ),
                _ => {
                    let mut l: Vec<Line> = move_list(s).into_iter().map(Line::from).collect();
                    if l.is_empty() {
                        l.push(Line::from("No throw yet."));
                    }
                    (" Move list ".into(), l)
                }
            };
            let height = r.height.saturating_sub(2) as usize;
            let max = lines.len().saturating_sub(height) as u16;
            let top = (*scroll).min(max);
            app.scroll_max.set(max);
            f.render_widget(Clear, r);
            f.render_widget(
                Paragraph::new(lines).scroll((top, 0)).block(
                    Block::default()
                        .borders(Borders::ALL)
                        .title(Span::styled(title, title_style))
                        .title_bottom(" ↑↓ PgUp PgDn scroll · any other key closes "),
                ),
                r,
            );
        }
        Overlay::Save(input) | Overlay::Load(input) => {
            let title = if matches!(app.overlay, Overlay::Save(_)) {
                " Save the game record to "
            } else {
                " Load a game record from "
            };
            let r = centered(area, area.width.min(70), 3);
            f.render_widget(Clear, r);
            f.render_widget(
                Paragraph::new(format!("{input}▏")).block(
                    Block::default()
                        .borders(Borders::ALL)
                        .title(Span::styled(title, title_style))
                        .title_bottom(" Enter: ok · Esc: cancel "),
                ),
                r,
            );
        }
        Overlay::Quit => {
            let r = centered(area, 52, 5);
            f.render_widget(Clear, r);
            f.render_widget(
                Paragraph::new(vec![
                    Line::from("This game has moves that are not saved."),
                    Line::from(format!("s: save to {} and quit", app.default_path())),
                    Line::from("q: quit without saving · any other key: stay"),
                ])
                .block(
                    Block::default()
                        .borders(Borders::ALL)
                        .title(Span::styled(" Quit? ", title_style)),
                ),
                r,
            );
        }
    }
}

/// Markdown's hard-wrapped paragraphs joined into one line each; headings, list items, table
/// rows, indented and blank lines stay as they are.
pub fn logical_lines(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut joinable = false;
    for raw in text.lines() {
        let t = raw.trim_start();
        let starts_block = t.is_empty()
            || raw.starts_with(' ')
            || t.starts_with('#')
            || t.starts_with("- ")
            || t.starts_with("* ")
            || t.starts_with('|')
            || t.starts_with("```")
            || t.split_once(". ")
                .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        match out.last_mut() {
            Some(last) if joinable && !starts_block => {
                last.push(' ');
                last.push_str(t);
            }
            _ => out.push(raw.to_string()),
        }
        joinable = !t.is_empty() && !t.starts_with('#') && !t.starts_with('|');
    }
    out
}

/// Markdown shown as wrapped text: headings in colour, `**bold**` in bold.
pub fn markdown_lines(text: &str, width: usize) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    for raw in logical_lines(text) {
        let t = raw.trim_start();
        if t.starts_with('#') {
            let h = t.trim_start_matches('#').trim().to_string();
            out.push(Line::from(Span::styled(
                h,
                Style::new()
                    .add_modifier(Modifier::BOLD)
                    .fg(Color::LightYellow),
            )));
            continue;
        }
        let mut bold = false;
        for l in wrap(&raw, width) {
            let mut spans = Vec::new();
            for (i, part) in l.split("**").enumerate() {
                if i > 0 {
                    bold = !bold;
                }
                if !part.is_empty() {
                    let st = if bold {
                        Style::new().add_modifier(Modifier::BOLD)
                    } else {
                        Style::new()
                    };
                    spans.push(Span::styled(part.to_string(), st));
                }
            }
            out.push(Line::from(spans));
        }
    }
    out
}

fn draw_form(f: &mut Frame, area: Rect, app: &App, form: &SetupForm) {
    let rules = RuleSet::ALL[form.rules];
    let opp = &form.opponents[form.opponent];
    let fields = [
        ("Rules", rules.id().to_string(), rules.name().to_string()),
        (
            "Opponent",
            opp.clone(),
            if opp == "human" {
                "hot-seat: two people at this terminal".into()
            } else {
                senet_bots::play::describe(opp, rules)
            },
        ),
        (
            "You play",
            SEATS[form.seat].to_string(),
            match SEATS[form.seat] {
                "first" => "you throw first".into(),
                "second" => "the opponent throws first".into(),
                _ => "two bots play; you watch".into(),
            },
        ),
    ];
    let mut lines = vec![Line::from("")];
    for (i, (name, val, note)) in fields.iter().enumerate() {
        let focus = i == form.field;
        let vs = if focus {
            Style::new().fg(Color::Black).bg(Color::LightGreen)
        } else {
            Style::new().add_modifier(Modifier::BOLD)
        };
        lines.push(Line::from(vec![
            Span::raw(format!(" {} {name:<9}", if focus { "▶" } else { " " })),
            Span::styled(format!("‹ {val} ›"), vs),
            Span::styled(format!("  {note}"), Style::new().fg(Color::Gray)),
        ]));
    }
    lines.push(Line::from(""));
    let width = area.width.min(78).saturating_sub(6) as usize;
    for l in wrap(&format!("source: {}", rules.source()), width) {
        lines.push(Line::from(Span::styled(
            format!("   {l}"),
            Style::new().fg(Color::Gray),
        )));
    }
    if let Some(e) = &form.error {
        lines.push(Line::from(Span::styled(
            format!("   {e}"),
            Style::new().fg(Color::LightRed),
        )));
    }
    let _ = app;
    let r = centered(area, area.width.min(78), lines.len() as u16 + 2);
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines).block(
            Block::default()
                .borders(Borders::ALL)
                .title(Span::styled(
                    " senet play: new game ",
                    Style::new().add_modifier(Modifier::BOLD),
                ))
                .title_bottom(" ↑↓ field · ←→ change · Enter start · q quit "),
        ),
        r,
    );
}
