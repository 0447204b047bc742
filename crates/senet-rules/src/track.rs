//! Helpers for the rule sets that race along the common 30-square track (ruling C1):
//! bitboards with bit `s` for square `s` (1-30), runs of consecutive pieces, the squares a
//! move passes, and the board text of the position notation.

use crate::game::{BoardView, CellView, Mark, Outcome, PieceView};
use crate::{Error, Player, Status, Throw};

/// Squares 1-30 as a bit mask (bit 0 and bits 31.. are never used).
pub const ALL: u32 = 0x7FFF_FFFE;

/// The sides of a sheet that names no colours: senet calls them light (the first player) and
/// dark.
pub const LIGHT_DARK: [crate::game::Side; 2] = [
    crate::game::Side {
        name: "light",
        colour: "light",
    },
    crate::game::Side {
        name: "dark",
        colour: "dark",
    },
];

/// The mask of one square.
#[inline]
pub const fn bit(s: u8) -> u32 {
    1u32 << s
}

/// The squares strictly between `a` and `b` (either order).
#[inline]
pub fn between(a: u8, b: u8) -> u32 {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    if hi <= lo + 1 {
        return 0;
    }
    let below_hi = (1u64 << hi) - 1;
    let upto_lo = (2u64 << lo) - 1;
    (below_hi & !upto_lo) as u32
}

/// The status of a race without scores: a side with no piece on the board has borne off
/// everything and won; otherwise the turn cap (C5) draws; otherwise the player throws or
/// moves.
#[inline]
pub fn race_status(men: [u32; 2], decisions: u32, cap: u32, in_hand: bool, turn: Player) -> Status {
    let over = |winner, capped| {
        Status::Over(Outcome {
            winner,
            capped,
            score: None,
        })
    };
    if men[0] == 0 {
        over(Some(Player::First), false)
    } else if men[1] == 0 {
        over(Some(Player::Second), false)
    } else if decisions >= cap {
        over(None, true)
    } else if in_hand {
        Status::Move(turn)
    } else {
        Status::Throw(turn)
    }
}

/// The pieces of `own` that can step `n` squares forward to a square no higher than `limit`
/// without passing a square of `block` and without landing on a square of `bad`: the
/// ordinary forward moves of every piece at once.
#[inline]
pub fn steps(own: u32, n: u8, limit: u8, block: u32, bad: u32) -> u32 {
    if n >= limit {
        return 0;
    }
    let mut passes = 0;
    for k in 1..n {
        passes |= block >> k;
    }
    let sources = (bit(limit - n + 1) - 1) & ALL;
    own & sources & !passes & !(bad >> n)
}

/// Squares whose piece has a piece of the same colour on an adjacent square number
/// (raw numbers, so 10-11 and 20-21 count: rulings C1, K5, R4).
#[inline]
pub fn protected(men: u32) -> u32 {
    men & ((men << 1) | (men >> 1))
}

/// Squares belonging to a run of `len` or more consecutive pieces, counting raw square
/// numbers across the corners.
#[inline]
pub fn runs(men: u32, len: u32) -> u32 {
    let mut starts = men;
    for i in 1..len {
        starts &= men >> i;
    }
    let mut r = 0;
    for i in 0..len {
        r |= starts << i;
    }
    r & men
}

/// Squares belonging to a run of three or more consecutive pieces within one row of the
/// board (a run is broken at the corners 10|11 and 20|21: ruling K6).
#[inline]
pub fn runs3_in_rows(men: u32) -> u32 {
    // Starts s with s, s+1, s+2 all in one row: s in 1..=8, 11..=18, 21..=28.
    const STARTS: u32 = (0x1FE) | (0x1FE << 10) | (0x1FE << 20);
    let starts = men & (men >> 1) & (men >> 2) & STARTS;
    starts | (starts << 1) | (starts << 2)
}

/// The lowest empty square, counting up from 1.
#[inline]
pub fn lowest_empty(occupied: u32) -> u8 {
    (!occupied & ALL).trailing_zeros() as u8
}

/// The highest empty square below `s`, if any.
#[inline]
pub fn highest_empty_below(occupied: u32, s: u8) -> Option<u8> {
    let free = !occupied & ALL & (bit(s) - 1);
    if free == 0 {
        None
    } else {
        Some(31 - free.leading_zeros() as u8)
    }
}

/// The squares of a mask, lowest first.
#[inline]
pub fn squares(mut m: u32) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let s = m.trailing_zeros() as u8;
            m &= m - 1;
            Some(s)
        }
    })
}

/// Writes a two-colour board as 30 characters: `X` first player, `O` second, `.` empty.
pub fn board_string(men: [u32; 2]) -> String {
    (1..=30u8)
        .map(|s| {
            if men[0] & bit(s) != 0 {
                'X'
            } else if men[1] & bit(s) != 0 {
                'O'
            } else {
                '.'
            }
        })
        .collect()
}

/// Reads a board written by [`board_string`].
pub fn parse_board(text: &str) -> Result<[u32; 2], Error> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != 30 {
        return Err(Error::Position(format!(
            "the board must have 30 squares (one character each), got {}: {text:?}",
            chars.len()
        )));
    }
    let mut men = [0u32; 2];
    for (i, c) in chars.iter().enumerate() {
        let s = i as u8 + 1;
        match c {
            'X' => men[0] |= bit(s),
            'O' => men[1] |= bit(s),
            '.' => {}
            _ => {
                return Err(Error::Position(format!(
                    "square {s} holds {c:?}; use X (first player), O (second player) or . (empty)"
                )))
            }
        }
    }
    Ok(men)
}

/// The tokens after the board in a position string: `key=value` fields, read in any order,
/// each at most once, and all of them consumed.
pub struct Fields<'a> {
    items: Vec<(&'a str, &'a str, bool)>,
}

impl<'a> Fields<'a> {
    /// Splits `key=value` tokens.
    pub fn new(tokens: &[&'a str]) -> Result<Fields<'a>, Error> {
        let mut items: Vec<(&'a str, &'a str, bool)> = Vec::new();
        for t in tokens {
            let Some((k, v)) = t.split_once('=') else {
                return Err(Error::Position(format!(
                    "expected a field like key=value, got {t:?}"
                )));
            };
            if items.iter().any(|(k2, _, _)| *k2 == k) {
                return Err(Error::Position(format!("field {k} is given twice")));
            }
            items.push((k, v, false));
        }
        Ok(Fields { items })
    }

    /// The value of a field, if present.
    pub fn get(&mut self, key: &str) -> Option<&'a str> {
        self.items.iter_mut().find(|(k, _, _)| *k == key).map(|it| {
            it.2 = true;
            it.1
        })
    }

    /// The value of a required field.
    pub fn need(&mut self, key: &str) -> Result<&'a str, Error> {
        self.get(key)
            .ok_or_else(|| Error::Position(format!("the position lacks the field {key}=")))
    }

    /// A required number field.
    pub fn need_u32(&mut self, key: &str) -> Result<u32, Error> {
        let v = self.need(key)?;
        v.parse()
            .map_err(|_| Error::Position(format!("field {key} must be a whole number, got {v:?}")))
    }

    /// A required player field (`1` or `2`).
    pub fn need_player(&mut self, key: &str) -> Result<Player, Error> {
        let v = self.need(key)?;
        Player::parse(v)
            .map_err(|_| Error::Position(format!("field {key} must be 1 or 2, got {v:?}")))
    }

    /// Fails if any field was not read.
    pub fn finish(self) -> Result<(), Error> {
        match self.items.iter().find(|(_, _, used)| !used) {
            Some((k, _, _)) => Err(Error::Position(format!(
                "unknown field {k}= in this rule set's position"
            ))),
            None => Ok(()),
        }
    }
}

/// Parses `off=A,B` and checks it against the pieces on the board: each side has `total`
/// pieces in all.
pub fn check_off(field: &str, men: [u32; 2], total: u32) -> Result<(), Error> {
    let parts: Vec<&str> = field.split(',').collect();
    let bad = || {
        Error::Position(format!(
            "field off must be two counts like 0,2, got {field:?}"
        ))
    };
    if parts.len() != 2 {
        return Err(bad());
    }
    for (i, p) in parts.iter().enumerate() {
        let n: u32 = p.parse().map_err(|_| bad())?;
        let on = men[i].count_ones();
        if on + n != total {
            return Err(Error::Position(format!(
                "player {} has {on} pieces on the board and {n} off; they must add up to {total}",
                i + 1
            )));
        }
    }
    Ok(())
}

/// Writes `off=A,B` for the pieces missing from the board.
pub fn off_string(men: [u32; 2], total: u32) -> String {
    format!(
        "{},{}",
        total - men[0].count_ones(),
        total - men[1].count_ones()
    )
}

/// Checks that the two colours never share a square, stay on squares 1-30 and number at most
/// `total` each.
pub fn check_two_colours(men: [u32; 2], total: u32) -> Result<(), String> {
    if men[0] & men[1] != 0 {
        return Err(format!(
            "two pieces share square {}",
            (men[0] & men[1]).trailing_zeros()
        ));
    }
    if (men[0] | men[1]) & !ALL != 0 {
        return Err("a piece stands outside squares 1-30".into());
    }
    if men[0].count_ones() > total || men[1].count_ones() > total {
        return Err(format!("a player has more than {total} pieces"));
    }
    Ok(())
}

/// Draws the S-shaped track (C1): row one 1-10 left to right, row two 11-20 right to left,
/// row three 21-30 left to right, each square's number above its piece.
pub fn diagram(men: [u32; 2], total: u32, status: &Status, in_hand: Option<Throw>) -> String {
    let mut out = String::new();
    let rows: [[u8; 10]; 3] = [
        std::array::from_fn(|i| i as u8 + 1),
        std::array::from_fn(|i| 20 - i as u8),
        std::array::from_fn(|i| i as u8 + 21),
    ];
    for (r, row) in rows.iter().enumerate() {
        let arrow = ["->", "<-", "->"][r];
        out.push_str(&format!("{arrow} "));
        for s in row {
            out.push_str(&format!("{s:>3}"));
        }
        out.push_str("\n   ");
        for &s in row {
            let c = if men[0] & bit(s) != 0 {
                'X'
            } else if men[1] & bit(s) != 0 {
                'O'
            } else {
                '.'
            };
            out.push_str(&format!("{c:>3}"));
        }
        out.push('\n');
    }
    let off = off_string(men, total);
    out.push_str(&format!("off (X,O): {off}\n"));
    out.push_str(&match status {
        Status::Throw(p) => format!(
            "player {p} ({}) to throw",
            if *p == Player::First { 'X' } else { 'O' }
        ),
        Status::Move(p) => format!(
            "player {p} ({}) to move with {}",
            if *p == Player::First { 'X' } else { 'O' },
            in_hand.map_or("-".into(), |t| t.to_string())
        ),
        Status::Over(o) => match o.winner {
            Some(p) => format!("over: player {p} wins"),
            None => "over: draw (turn cap)".into(),
        },
    });
    out
}

/// The travel direction of the track games, for legends.
pub const PATH: &str = "S-shaped track (C1): 1-10 left to right on the top row, 11-20 right to left, 21-30 left to right, then off";

/// The grid cell (row, column) of a track square (C1).
pub fn cell_of(s: u8) -> (u8, u8) {
    match s {
        1..=10 => (0, s - 1),
        11..=20 => (1, 20 - s),
        _ => (2, s - 21),
    }
}

/// The view of a two-colour track board with the special squares `marks`.
pub fn view(men: [u32; 2], total: u32, marks: &[Mark]) -> BoardView {
    let cells = (1..=30u8)
        .map(|s| {
            let (row, col) = cell_of(s);
            let mut pieces = Vec::new();
            for (i, kind) in [(0usize, 'X'), (1, 'O')] {
                if men[i] & bit(s) != 0 {
                    pieces.push(PieceView {
                        player: i as u8 + 1,
                        kind,
                        name: "piece",
                    });
                }
            }
            let mark = marks.iter().find(|m| m.square == s);
            CellView {
                square: s,
                row,
                col,
                label: s.to_string(),
                special: mark.map(|m| m.text),
                mark: mark.map(|m| m.short),
                pieces,
            }
        })
        .collect();
    BoardView {
        rows: 3,
        cols: 10,
        cells,
        off: [
            (total - men[0].count_ones()) as u8,
            (total - men[1].count_ones()) as u8,
        ],
        captured: [0, 0],
        path: PATH,
        notes: Vec::new(),
        paths: Vec::new(),
    }
}
