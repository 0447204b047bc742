//! `parker`: Senet as published by Parker Brothers in 1946 (seed 000; rulings P1-P11 in
//! `shared/rulings.md`; explained in `docs/rules/parker.md`).
//!
//! This is not a race along the common track: each player's pegs go round their own looping
//! path of 20 spaces (P1), and the object is to capture every opposing peg (P9, P11).
//!
//! Internally each player's pegs are a 20-bit mask over that player's own path: bit `i` is
//! path index `i`, 0-9 along the own safety row starting at the Pharaoh corner, 10-19 back
//! along the Senet row, 19 being the Senet space beside the corner (P1). One player's Senet
//! index `i` is the other's `29 - i`.
//!
//! Moves and the notation name board *cells* instead, which mean the same space for both
//! players: columns `a`-`j` left to right, rows `1` (player 1's safety row), `2` (the Senet
//! row) and `3` (player 2's safety row). Player 1's Pharaoh corner is `a1`, player 2's is
//! `j3` (diagonally opposite, P1). As a number (`Move::from`/`to`), a cell is
//! `10 * (row - 1) + column`, `a1` = 1 ... `j3` = 30.

use crate::game::{
    BoardView, CellView, Census, Dist, Effect, Effects, Game, Mark, Move, MoveKind, MoveList,
    Outcome, PieceView, Player, Status, Throw, ThrowKind,
};
use crate::game::{Metrics, Notation, View};
use crate::options::{cap_option, OptionKind, OptionSpec, OptionValue, Options};
use crate::track::{self, Fields};
use crate::{Error, RuleSet};

/// The sides: the sheet's red and yellow pegs (its path picture names red first); player 1
/// is red. Who starts is decided by the dice-off (P3), not by the colour.
pub const SIDES: [crate::game::Side; 2] = [
    crate::game::Side {
        name: "red",
        colour: "red",
    },
    crate::game::Side {
        name: "yellow",
        colour: "yellow",
    },
];

/// Path index meaning "no such peg" (a captured Pharaoh).
const NONE: u8 = 0xFF;
/// Every path index 0-19 (P1).
const FULL: u32 = (1 << 20) - 1;
/// The Senet-row part of a path, indexes 10-19 (P1).
pub const SENET: u32 = FULL & !0x3FF;
/// The last space of the path, on the Senet row beside the Pharaoh corner (P1, P8).
pub const LAST: u8 = 19;
/// The longest move: the total of two sixes (P4).
pub const REACH: u8 = 12;

/// P11: the winner's points for a Pharaoh left.
pub const PHARAOH_POINTS: u32 = 25;
/// P11: the winner's points for each man left.
pub const MAN_POINTS: u32 = 10;

/// P4: two six-sided dice; unordered pairs, doubles with weight 1, others 2, out of 36.
pub const DICE: [(Throw, u32); 21] = dice_outcomes();

const fn dice_outcomes() -> [(Throw, u32); 21] {
    let mut out = [(Throw::single(1), 0); 21];
    let mut k = 0;
    let mut a = 1;
    while a <= 6 {
        let mut b = a;
        while b <= 6 {
            out[k] = (Throw::dice(a, b), if a == b { 1 } else { 2 });
            k += 1;
            b += 1;
        }
        a += 1;
    }
    out
}

/// P3: the dice-off. Outcome `1`: player 1 starts; `2`: player 2 starts; 1/2 each.
const DICE_OFF: [(Throw, u32); 2] = [(Throw::single(1), 1), (Throw::single(2), 1)];

const OPTIONS: [OptionSpec; 2] = [
    OptionSpec {
        name: "wait_for_one",
        description: "a plain peg must stop on the last Senet space by exact count and leave it \
                      only with a die showing 1 (P8)",
        kind: OptionKind::Bool { default: true },
    },
    cap_option(2000),
];

/// The mask of one path index.
#[inline]
const fn bit(i: u8) -> u32 {
    1 << i
}

/// The cell (1-30) of path index `i` of player `p` (P1): player 1 runs a1-j1 then j2-a2,
/// player 2 runs j3-a3 then a2-j2.
const fn cell_of(p: usize, i: u8) -> u8 {
    match (p, i < 10) {
        (0, true) | (1, false) => i + 1,
        _ => 30 - i,
    }
}

/// [`cell_of`] as a table.
const CELL: [[u8; 20]; 2] = {
    let mut t = [[0; 20]; 2];
    let mut i = 0;
    while i < 20 {
        t[0][i] = cell_of(0, i as u8);
        t[1][i] = cell_of(1, i as u8);
        i += 1;
    }
    t
};

/// The path index of each cell for each player, [`NONE`] for the opponent's safety row (P2)
/// and for numbers that are no cell.
const INDEX: [[u8; 32]; 2] = {
    let mut t = [[NONE; 32]; 2];
    let mut i = 0;
    while i < 20 {
        t[0][CELL[0][i] as usize] = i as u8;
        t[1][CELL[1][i] as usize] = i as u8;
        i += 1;
    }
    t
};

/// The name of a cell, e.g. `c2`; numbers that are no cell are written as numbers.
fn cell_name(c: u8) -> String {
    if (1..=30).contains(&c) {
        let col = (c - 1) % 10;
        let row = (c - 1) / 10 + 1;
        format!("{}{row}", (b'a' + col) as char)
    } else {
        c.to_string()
    }
}

/// Reads a cell name like `c2` (either case).
fn parse_cell(s: &str) -> Option<u8> {
    let b = s.trim().as_bytes();
    if b.len() != 2 {
        return None;
    }
    let col = b[0].to_ascii_lowercase();
    if !(b'a'..=b'j').contains(&col) || !(b'1'..=b'3').contains(&b[1]) {
        return None;
    }
    Some(10 * (b[1] - b'1') + (col - b'a') + 1)
}

/// The same Senet-row space as the other player's path index `i` (10-19) (P1: the two
/// players go along the Senet row in opposite directions, so index `i` of one is `29 - i` of
/// the other).
#[inline]
pub const fn across(i: u8) -> u8 {
    29 - i
}

/// The opponent's Senet pegs in the mover's path indexes: the opponent's index `j` is the
/// mover's `29 - j` (P1). The opponent's safety row is never in the mover's path (P2).
#[inline]
fn mirror(opp: u32) -> u32 {
    (opp & SENET).reverse_bits() >> 2
}

/// Why a peg cannot make a move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Why {
    /// P6: a plain peg passes or lands on a peg of its own colour.
    OwnPegInTheWay,
    /// P7: the Pharaoh's landing hole holds a peg of its own colour.
    OwnPegOnTarget,
    /// P8: a plain peg moves past the last Senet space.
    PastTheLastSpace,
    /// P8: a plain peg leaves the last Senet space only with a 1.
    WaitForOne,
    /// P6: plain pegs move forward only.
    PlainBackward,
    /// P7: no backward move on the safety row.
    BackwardOnSafetyRow,
    /// P7: a backward move must end on the Senet row.
    BackwardOntoSafetyRow,
}

impl Why {
    fn text(self) -> String {
        match self {
            Why::OwnPegInTheWay => "a plain peg may not pass or land on a peg of its own colour (P6)".into(),
            Why::OwnPegOnTarget => "the Pharaoh lands only on an empty hole of its own colour (P7)".into(),
            Why::PastTheLastSpace => "waiting for a One: a plain peg must stop on the last Senet space by exact count and may not move past it (P8)".into(),
            Why::WaitForOne => "waiting for a One: a plain peg leaves the last Senet space only with a die showing 1 (P8)".into(),
            Why::PlainBackward => "plain pegs move forward only (P6)".into(),
            Why::BackwardOnSafetyRow => "on the safety row the Pharaoh moves forward only (P7)".into(),
            Why::BackwardOntoSafetyRow => "the Pharaoh's backward move must end on the Senet row (P7)".into(),
        }
    }
}

/// The mover's pegs as the move rules see them, computed once per position.
#[derive(Copy, Clone, Debug)]
struct Side {
    /// Own pegs by path index.
    own: u32,
    /// `own` twice over (bits 0-39), so the spaces ahead of a peg are one shift away across
    /// the wrap from 19 to 0.
    ahead: u64,
    /// `near[k]`: the path indexes with an own peg among the next `2^k` spaces ahead
    /// (k = 0..3), from which any window of 1-12 spaces is two shifts away.
    near: [u32; 4],
    /// The peg with the Pharaoh's powers (the Pharaoh, or a lone peg, P10), or [`NONE`].
    powered: u8,
    /// P8 is in force.
    wait: bool,
}

impl Side {
    #[inline]
    fn new(own: u32, powered: u8, wait: bool) -> Side {
        let ahead = own as u64 | (own as u64) << 20;
        let n1 = ahead >> 1;
        let n2 = n1 | n1 >> 1;
        let n4 = n2 | n2 >> 2;
        let n8 = n4 | n4 >> 4;
        Side {
            own,
            ahead,
            near: [n1 as u32, n2 as u32, n4 as u32, n8 as u32],
            powered,
            wait,
        }
    }

    /// The same side after its peg on `s` moved to `t` (captures take only opposing pegs, so
    /// nothing else changes within a turn).
    #[inline]
    fn after(&self, s: u8, t: u8) -> Side {
        Side::new(
            self.own ^ bit(s) ^ bit(t),
            if s == self.powered { t } else { self.powered },
            self.wait,
        )
    }

    /// Where a forward move of the peg on `s` by `n` lands.
    #[inline]
    fn forward(&self, s: u8, n: u8) -> Result<u8, Why> {
        let t = (s + n) % 20;
        if s == self.powered {
            // P7: the Pharaoh passes any peg and never waits (P8); it needs an empty hole of
            // its own colour to land in.
            return if self.own & bit(t) != 0 {
                Err(Why::OwnPegOnTarget)
            } else {
                Ok(t)
            };
        }
        if self.wait {
            // P8: stop on 19 by exact count; leave 19 only with a 1, onto index 0.
            if s == LAST {
                if n != 1 {
                    return Err(Why::WaitForOne);
                }
            } else if s + n > LAST {
                return Err(Why::PastTheLastSpace);
            }
        }
        // P6: no own peg on the spaces s+1 ..= s+n (opposing pegs sit in the other hole).
        if (self.ahead >> (s + 1)) & ((1u64 << n) - 1) != 0 {
            return Err(Why::OwnPegInTheWay);
        }
        Ok(t)
    }

    /// Where a backward move of the peg on `s` by `n` lands.
    #[inline]
    fn backward(&self, s: u8, n: u8) -> Result<u8, Why> {
        if s != self.powered {
            return Err(Why::PlainBackward); // P6
        }
        // P7: backward only on the Senet row, and never onto the safety row.
        if s < 10 {
            return Err(Why::BackwardOnSafetyRow);
        }
        if s < n + 10 {
            return Err(Why::BackwardOntoSafetyRow);
        }
        if self.own & bit(s - n) != 0 {
            return Err(Why::OwnPegOnTarget);
        }
        Ok(s - n)
    }

    /// The plain pegs (without the Pharaoh's powers) that can move forward by `n`, all at
    /// once: the same rules as [`Side::forward`] (P6, P8), checked on every peg in parallel.
    #[inline]
    fn plain_movers(&self, n: u8) -> u32 {
        let plain = if self.powered == NONE {
            self.own
        } else {
            self.own & !bit(self.powered)
        };
        // P6: none of the n spaces ahead holds an own peg. Two overlapping windows of 2^k
        // spaces (2^k <= n < 2^(k+1)) cover exactly the n spaces.
        let k = (7 - n.leading_zeros()) as usize;
        let blocked = self.near[k] | self.near[k] >> (n - (1 << k));
        let r = plain & !blocked;
        if self.wait {
            r & WAIT_OK[n as usize] // P8
        } else {
            r
        }
    }

    /// Where the peg with the Pharaoh's powers lands going forward by `n` (P7, P10).
    #[inline]
    fn powered_forward(&self, n: u8) -> Option<u8> {
        let s = self.powered;
        if s == NONE {
            return None;
        }
        let t = (s + n) % 20;
        (self.own & bit(t) == 0).then_some(t)
    }

    /// Where the peg with the Pharaoh's powers lands going backward by `n` (P7, P10).
    #[inline]
    fn powered_backward(&self, n: u8) -> Option<u8> {
        let s = self.powered;
        if s == NONE || s < n + 10 {
            return None;
        }
        (self.own & bit(s - n) == 0).then_some(s - n)
    }

    /// Every move by `n`, as masks and landing places.
    #[inline]
    fn movers(&self, n: u8) -> Movers {
        Movers {
            plain: self.plain_movers(n),
            powered: self.powered,
            forward: self.powered_forward(n),
            backward: self.powered_backward(n),
        }
    }

    /// Whether some peg can move `n` (either direction).
    #[inline]
    fn can_play(&self, n: u8) -> bool {
        self.plain_movers(n) != 0
            || self.powered_forward(n).is_some()
            || self.powered_backward(n).is_some()
    }
}

/// The moves of one die in a position, also used for a quick check that one of them survives
/// another move of the same player (P5).
#[derive(Copy, Clone, Debug)]
struct Movers {
    /// Plain pegs that can move the die.
    plain: u32,
    /// The peg with the Pharaoh's powers, and where its forward and backward moves land.
    powered: u8,
    forward: Option<u8>,
    backward: Option<u8>,
}

impl Movers {
    /// A quick sufficient test that some move of `n` is still possible after the own peg on
    /// `s` went to `t`: a peg other than `s` whose move by `n` neither passes nor lands on `t`
    /// (vacating `s` only frees spaces). When this says no, check the new position in full.
    #[inline]
    fn survive(&self, s: u8, t: u8, n: u8) -> bool {
        // The plain pegs whose n spaces ahead include t stand on t-n ..= t-1 (round the loop).
        let w = ((1u64 << n) - 1) << (t + 20 - n);
        let window = (w | w >> 20) as u32 & FULL;
        if self.plain & !bit(s) & !window != 0 {
            return true;
        }
        self.powered != s
            && (self.forward.is_some_and(|f| f != t) || self.backward.is_some_and(|b| b != t))
    }
}

/// P8: the path indexes from which a plain peg may move `n` while waiting for a One: it stops
/// on 19 at the latest, and leaves 19 only with a 1.
const WAIT_OK: [u32; 13] = {
    let mut t = [0; 13];
    let mut n = 1;
    while n <= 12 {
        t[n] = (1 << (20 - n)) - 1;
        n += 1;
    }
    t[1] |= 1 << LAST;
    t
};

/// A `parker` position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Parker {
    /// Each player's pegs by path index in that player's own path (P1).
    pegs: [u32; 2],
    /// The path index of each player's Pharaoh, or [`NONE`] once captured.
    pharaoh: [u8; 2],
    /// The player to throw or move (player 1 while the dice-off is pending).
    turn: Player,
    /// P3: the dice-off that decides who starts has not been thrown.
    dice_off: bool,
    /// The dice in hand: `[a, b]` (a <= b) before either is played, `[d, 0]` when one die
    /// is left, `[0, 0]` when a throw is pending.
    dice: [u8; 2],
    decisions: u32,
    cap: u32,
    /// P8 is in force.
    wait_for_one: bool,
}

impl Parker {
    /// The option specs.
    pub fn option_specs() -> &'static [OptionSpec] {
        &OPTIONS
    }

    /// The start position (P3): each Pharaoh on path index 0 (`a1`, `j3`), the men on 1-4
    /// (`b1`-`e1`, `i3`-`f3`), and the dice-off that decides who starts still to be thrown.
    /// Tell the engine who starts by setting the dice-off's outcome: `Throw::single(1)` or
    /// `Throw::single(2)`.
    ///
    /// # Panics
    /// If `options` were not made from [`Parker::option_specs`].
    pub fn start(options: &Options) -> Parker {
        Parker {
            pegs: [0b11111; 2],
            pharaoh: [0; 2],
            turn: Player::First,
            dice_off: true,
            dice: [0; 2],
            decisions: 0,
            cap: options.int("cap").expect("parker's options"),
            wait_for_one: options.flag("wait_for_one").expect("parker's options"),
        }
    }

    /// Each player's pegs as a 20-bit mask over that player's own path indexes (bit `i` for
    /// index `i`, P1), player 1 first.
    pub fn pegs(&self) -> [u32; 2] {
        self.pegs
    }

    /// The path index of each player's Pharaoh, `None` once captured.
    pub fn pharaoh(&self) -> [Option<u8>; 2] {
        self.pharaoh.map(|i| (i != NONE).then_some(i))
    }

    /// The path index of the peg of player `p` with the Pharaoh's powers: the Pharaoh, or a
    /// lone plain peg (P10).
    pub fn powered(&self, p: Player) -> Option<u8> {
        let i = self.powered_index(p.index());
        (i != NONE).then_some(i)
    }

    /// Whether waiting for a One (P8, option `wait_for_one`) is in force.
    pub fn wait_for_one(&self) -> bool {
        self.wait_for_one
    }

    /// The distances (bit `d - 1` for `d` = 1..=[`REACH`]) at which a player's pegs `att`
    /// (path indexes of its own path), its peg with the Pharaoh's powers on `powered`, can
    /// end one move on its index `t` of the Senet row (10-19), which none of its pegs holds:
    /// the nearest plain peg behind `t` (P6: a plain peg passes no peg of its colour; round
    /// the loop from 19 only when not waiting for a One, P8), and the powered peg going
    /// forward round the loop or backward along the Senet row (P7, P10). A move is one die
    /// or the total of both (P4).
    pub fn reach(att: u32, powered: Option<u8>, wait: bool, t: u8) -> u32 {
        let mut m = 0u32;
        // A plain peg: only the nearest peg behind t can get there (no passing own pegs, P6).
        let behind = att & ((1u32 << t) - 1);
        let nearest = if behind != 0 {
            Some((31 - behind.leading_zeros()) as u8)
        } else if !wait && att != 0 {
            // Round the loop from index 19 to 0 (P8 off).
            Some((31 - att.leading_zeros()) as u8)
        } else {
            None
        };
        if let Some(j) = nearest {
            let d = (t + 20 - j) % 20;
            if Some(j) != powered && (1..=REACH).contains(&d) {
                m |= 1 << (d - 1);
            }
        }
        // The Pharaoh (or lone peg, P10) passes anything: forward round the loop, or
        // backward along the Senet row (P7).
        if let Some(j) = powered {
            let d = (t + 20 - j) % 20;
            if (1..=REACH).contains(&d) {
                m |= 1 << (d - 1);
            }
            if j >= 10 && j > t {
                m |= 1 << (j - t - 1);
            }
        }
        m
    }

    /// The board cell (1-30) of path index `i` (0-19) of player `p` (P1).
    pub fn cell(p: Player, i: u8) -> u8 {
        CELL[p.index()][i as usize % 20]
    }

    #[inline]
    fn powered_index(&self, p: usize) -> u8 {
        if self.pharaoh[p] != NONE {
            self.pharaoh[p]
        } else if self.pegs[p].count_ones() == 1 {
            // P10: the lone peg takes the Pharaoh's powers.
            self.pegs[p].trailing_zeros() as u8
        } else {
            NONE
        }
    }

    #[inline]
    fn side(&self, p: usize) -> Side {
        Side::new(self.pegs[p], self.powered_index(p), self.wait_for_one)
    }

    /// P11: the winner's points for the pegs `p` has left: 25 for the Pharaoh, 10 for each
    /// man, doubled if all five are left.
    fn score(&self, p: usize) -> u32 {
        let points = self.progress()[p];
        if self.pegs[p].count_ones() == 5 {
            2 * points
        } else {
            points
        }
    }

    /// Pushes every move of player `me` by `n` (a die or the total) in `mv` that `keep`
    /// accepts.
    #[inline]
    fn push_moves(
        &self,
        me: usize,
        mv: &Movers,
        n: u8,
        kind: MoveKind,
        moves: &mut MoveList,
        mut keep: impl FnMut(u8, u8) -> bool,
    ) {
        let cells = &CELL[me];
        let mut push = |s: u8, t: u8, kind: MoveKind| {
            if keep(s, t) {
                moves.push(Move {
                    from: cells[s as usize],
                    to: cells[t as usize],
                    die: n,
                    kind,
                });
            }
        };
        for s in track::squares(mv.plain) {
            push(s, (s + n) % 20, kind);
        }
        if let Some(t) = mv.forward {
            push(mv.powered, t, kind);
        }
        if let Some(t) = mv.backward {
            push(mv.powered, t, kind.union(MoveKind::BACKWARD));
        }
    }

    /// Reads the board and fields after the rule set's ID into a setup, checking what the
    /// text alone can say; the rest is [`Parker::try_from`]'s.
    pub fn parse_setup(options: &Options, tokens: &[&str]) -> Result<Setup, Error> {
        let Some((board, rest)) = tokens.split_first() else {
            return Err(Error::Position("the position lacks the board".into()));
        };
        let (pegs, pharaoh) = parse_board(board)?;
        let mut f = Fields::new(rest)?;
        let turn = match f.need("turn")? {
            "-" => None,
            v => Some(Player::parse(v).map_err(|_| {
                Error::Position(format!(
                    "field turn must be 1, 2, or - while the dice-off is pending (P3), got {v:?}"
                ))
            })?),
        };
        let dice = match f.need("throw")? {
            "-" => [0, 0],
            v => {
                let t = Throw::parse(v).map_err(|e| Error::Position(e.message().into()))?;
                let ok = |d: u8| (1..=6).contains(&d);
                if !ok(t.a) || !(t.b == 0 || ok(t.b)) {
                    return Err(Error::Position(format!(
                        "throw={v} is not two six-sided dice like 3-5 or the one die left like 5 (P4)"
                    )));
                }
                [t.a, t.b]
            }
        };
        let decisions = f.need_u32("dec")?;
        f.finish()?;
        Ok(Setup {
            options: options.clone(),
            pegs,
            pharaoh: pharaoh.map(|i| (i != NONE).then_some(i)),
            turn,
            dice,
            decisions,
        })
    }

    /// This position as plain data.
    pub fn setup(&self) -> Setup {
        Setup {
            options: self.options(),
            pegs: self.pegs,
            pharaoh: self.pharaoh(),
            turn: (!self.dice_off).then_some(self.turn),
            dice: self.dice,
            decisions: self.decisions,
        }
    }

    fn board_string(&self) -> String {
        let mut out = String::with_capacity(32);
        for row in (0..3u8).rev() {
            if row != 2 {
                out.push('/');
            }
            for col in 1..=10u8 {
                out.push(self.cell_char(10 * row + col));
            }
        }
        out
    }

    /// `X`/`x` player 1's Pharaoh/man, `O`/`o` player 2's, `.` empty.
    fn cell_char(&self, c: u8) -> char {
        for (p, index) in INDEX.iter().enumerate() {
            let i = index[c as usize];
            if i != NONE && self.pegs[p] & bit(i) != 0 {
                return match (p, self.pharaoh[p] == i) {
                    (0, true) => 'X',
                    (0, false) => 'x',
                    (_, true) => 'O',
                    (_, false) => 'o',
                };
            }
        }
        '.'
    }

    fn throw_string(&self) -> String {
        match self.dice {
            [0, _] => "-".into(),
            [d, 0] => d.to_string(),
            [a, b] => format!("{a}-{b}"),
        }
    }
}

/// Reads the board text: rows 3, 2, 1 (top to bottom as drawn), ten cells `a`-`j` each,
/// separated by `/`.
fn parse_board(text: &str) -> Result<([u32; 2], [u8; 2]), Error> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != 3 || rows.iter().any(|r| r.chars().count() != 10) {
        return Err(Error::Position(format!(
            "the board must be three rows of ten cells separated by /, row 3 first, like \
             .....ooooO/........../Xxxxx....., got {text:?}"
        )));
    }
    let mut pegs = [0u32; 2];
    let mut pharaoh = [NONE; 2];
    let mut men = [0u32; 2];
    for (k, r) in rows.iter().enumerate() {
        let row = 3 - k as u8;
        for (j, ch) in r.chars().enumerate() {
            let c = 10 * (row - 1) + j as u8 + 1;
            let (p, is_pharaoh) = match ch {
                '.' => continue,
                'X' => (0, true),
                'x' => (0, false),
                'O' => (1, true),
                'o' => (1, false),
                _ => {
                    return Err(Error::Position(format!(
                        "cell {} holds {ch:?}; use X/x for player 1's Pharaoh/man, O/o for \
                         player 2's, . for empty",
                        cell_name(c)
                    )))
                }
            };
            let i = INDEX[p][c as usize];
            if i == NONE {
                return Err(Error::Position(format!(
                    "cell {} is in player {}'s safety row; player {}'s pegs never enter it (P2)",
                    cell_name(c),
                    2 - p,
                    p + 1
                )));
            }
            pegs[p] |= bit(i);
            if is_pharaoh {
                if pharaoh[p] != NONE {
                    return Err(Error::Position(format!(
                        "player {} has two Pharaohs; each player has one (P3)",
                        p + 1
                    )));
                }
                pharaoh[p] = i;
            } else {
                men[p] += 1;
                if men[p] > 4 {
                    return Err(Error::Position(format!(
                        "player {} has more than four men; each player has four (P3)",
                        p + 1
                    )));
                }
            }
        }
    }
    Ok((pegs, pharaoh))
}

impl Game for Parker {
    fn rules(&self) -> RuleSet {
        RuleSet::Parker
    }

    #[inline]
    fn status(&self) -> Status {
        // P11: a player with no pegs left loses; the winner scores the pegs it has left.
        if self.pegs[0] == 0 || self.pegs[1] == 0 {
            let w = if self.pegs[0] == 0 { 1 } else { 0 };
            let mut score = [0; 2];
            score[w] = self.score(w);
            return Status::Over(Outcome {
                winner: Some(Player::from_index(w)),
                capped: false,
                score: Some(score),
            });
        }
        if self.decisions >= self.cap {
            // C5: a draw; nobody has won, so nobody scores (P11).
            return Status::Over(Outcome {
                winner: None,
                capped: true,
                score: Some([0, 0]),
            });
        }
        if self.dice_off || self.dice[0] == 0 {
            Status::Throw(self.turn)
        } else {
            Status::Move(self.turn)
        }
    }

    fn throw_dist(&self) -> Dist {
        if self.dice_off {
            Dist {
                outcomes: &DICE_OFF,
                total: 2,
                kind: ThrowKind::DrawForStart, // P3
            }
        } else {
            Dist {
                outcomes: &DICE,
                total: 36,
                kind: ThrowKind::Dice, // P4
            }
        }
    }

    fn in_hand(&self) -> Option<Throw> {
        match self.dice {
            [0, _] => None,
            [d, 0] => Some(Throw::single(d)),
            [a, b] => Some(Throw::dice(a, b)),
        }
    }

    fn set_throw_unchecked(&mut self, t: Throw) {
        if self.dice_off {
            // P3: the dice-off's outcome names the player who starts.
            self.dice_off = false;
            self.turn = if t.a == 2 {
                Player::Second
            } else {
                Player::First
            };
        } else {
            self.dice = [t.a, t.b];
        }
    }

    fn set_throw(&mut self, t: Throw) -> Result<(), Error> {
        match self.status() {
            Status::Throw(_) => {}
            Status::Move(_) => {
                return Err(Error::Throw(format!(
                    "no throw is pending: the dice in hand are {}",
                    self.throw_string()
                )))
            }
            Status::Over(_) => return Err(Error::GameOver),
        }
        if self.throw_dist().weight(t) == 0 {
            return Err(Error::Throw(if self.dice_off {
                format!(
                    "{t} is not an outcome of the dice-off that decides who starts (P3): \
                     throw 1 if player 1 starts, 2 if player 2 starts"
                )
            } else {
                format!("{t} is not a throw of two six-sided dice (P4); write it like 3-5")
            }));
        }
        self.set_throw_unchecked(t);
        Ok(())
    }

    fn legal_moves(&self, moves: &mut MoveList) {
        if !matches!(self.status(), Status::Move(_)) {
            return;
        }
        let me = self.turn.index();
        let k = self.side(me);
        let [a, b] = self.dice;
        let all = |_, _| true;
        if b == 0 {
            // The die left after the first: any move with it.
            self.push_moves(me, &k.movers(a), a, MoveKind::PLAIN, moves, all);
        } else {
            // P5: if some play uses both dice, the turn must use both. The total uses both; a
            // single die may be played first only if the other die can still be played
            // after it. C8: a move that captures the last opposing peg ends the game, and so
            // counts as playing the whole throw: it is always legal, and where one exists a
            // one-die play that does not end the game is not.
            let opp = self.pegs[1 - me];
            let last_opp = if opp.count_ones() == 1 {
                mirror(opp)
            } else {
                0
            };
            let mut both = false;
            let mut first = |x: u8, mx: &Movers, y: u8, my: &Movers, moves: &mut MoveList| {
                self.push_moves(me, mx, x, MoveKind::PLAIN, moves, |s, t| {
                    let wins = last_opp & bit(t) != 0;
                    let keeps = wins || my.survive(s, t, y) || k.after(s, t).can_play(y);
                    both |= keeps;
                    keeps
                });
            };
            let ma = k.movers(a);
            if a == b {
                // P4: doubles are ordinary; either die gives the same moves.
                first(a, &ma, a, &ma, moves);
            } else {
                let mb = k.movers(b);
                first(a, &ma, b, &mb, moves);
                first(b, &mb, a, &ma, moves);
            }
            let before = moves.len();
            self.push_moves(me, &k.movers(a + b), a + b, MoveKind::TOTAL, moves, all);
            both |= moves.len() > before;
            if !both {
                // P5: no play uses both dice, so a playable single die is played, either one
                // (no larger-die preference).
                moves.clear();
                self.push_moves(me, &ma, a, MoveKind::PLAIN, moves, all);
                if b != a {
                    self.push_moves(me, &k.movers(b), b, MoveKind::PLAIN, moves, all);
                }
            }
        }
        if moves.is_empty() {
            moves.push(Move::PASS); // P5, C4: nothing playable forfeits the turn.
        }
    }

    fn play_unchecked(&mut self, m: Move) -> Effects {
        let me = self.turn.index();
        self.decisions += 1;
        if m.is_pass() {
            // C4, P5: the throw is forfeited and the turn passes.
            self.dice = [0, 0];
            self.turn = self.turn.other();
            return Effects {
                flags: Effect::FORFEIT,
                turn_continues: false,
            };
        }
        let s = INDEX[me][m.from as usize];
        let t = INDEX[me][m.to as usize];
        self.pegs[me] ^= bit(s) | bit(t);
        if self.pharaoh[me] == s {
            self.pharaoh[me] = t;
        }
        let mut bits = if m.kind.contains(MoveKind::BACKWARD) {
            Effect::BACKWARD
        } else {
            Effect::STEP
        };
        // P9: coming to rest beside an opposing peg on the Senet row captures it.
        if t >= 10 {
            let o = across(t);
            if self.pegs[1 - me] & bit(o) != 0 {
                self.pegs[1 - me] ^= bit(o);
                if self.pharaoh[1 - me] == o {
                    self.pharaoh[1 - me] = NONE;
                }
                bits |= Effect::CAPTURE;
            }
        }
        if self.pegs[1 - me] == 0 {
            self.dice = [0, 0]; // P11: the game is won at once.
            return Effects {
                flags: bits,
                turn_continues: false,
            };
        }
        // P9: a capture does not end the turn. The other die is played next if it can be
        // (P5 guarantees it whenever some play used both dice).
        let left = match self.dice {
            [_, 0] => 0,
            _ if m.kind.contains(MoveKind::TOTAL) => 0,
            [a, b] if m.die == a => b,
            [a, _] => a,
        };
        if left != 0 && self.decisions < self.cap && self.side(me).can_play(left) {
            self.dice = [left, 0];
            return Effects {
                flags: bits,
                turn_continues: true,
            };
        }
        self.dice = [0, 0];
        self.turn = self.turn.other();
        Effects {
            flags: bits,
            turn_continues: false,
        }
    }

    fn decisions(&self) -> u32 {
        self.decisions
    }

    fn options(&self) -> Options {
        let mut o = Options::defaults(&OPTIONS);
        o.set("wait_for_one", OptionValue::Bool(self.wait_for_one))
            .expect("parker's flag");
        o.set("cap", OptionValue::Int(self.cap))
            .expect("the cap is in range");
        o
    }
}

impl Notation for Parker {
    fn example_moves(&self) -> &'static str {
        "f3-c3, e1-f1, pass" // cells: columns a-j, rows 1-3
    }

    fn move_string(&self, m: Move) -> String {
        if m.is_pass() {
            "pass".into()
        } else {
            format!("{}-{}", cell_name(m.from), cell_name(m.to))
        }
    }

    fn square_name(&self, sq: u8) -> String {
        cell_name(sq)
    }

    fn die_used(&self, m: Move) -> Option<String> {
        if m.is_pass() {
            None
        } else if m.kind.contains(MoveKind::TOTAL) {
            Some("total".into())
        } else {
            Some(m.die.to_string())
        }
    }

    fn why_illegal(&self, text: &str) -> String {
        let mut legal = MoveList::new();
        self.legal_moves(&mut legal);
        let list = legal
            .iter()
            .map(|&m| self.move_string(m))
            .collect::<Vec<_>>()
            .join(", ");
        let me = self.turn.index();
        let hand = self.throw_string();
        let t = text.trim();
        let reason = if t.eq_ignore_ascii_case("pass") {
            "a turn is forfeited only when no die can be played (P5)".to_string()
        } else {
            let cells = t
                .split_once('-')
                .and_then(|(f, to)| Some((parse_cell(f)?, parse_cell(to)?)));
            let Some((from, to)) = cells else {
                return format!(
                    "{text:?} is not a move like b1-e1 (cells a-j, rows 1-3) or pass. Legal moves: {list}"
                );
            };
            let (s, d) = (INDEX[me][from as usize], INDEX[me][to as usize]);
            if s == NONE || self.pegs[me] & bit(s) == 0 {
                format!("player {} has no peg on {}", self.turn, cell_name(from))
            } else if d == NONE {
                format!(
                    "{} is in the opponent's safety row, which no peg ever enters (P2)",
                    cell_name(to)
                )
            } else {
                self.explain(s, d)
            }
        };
        format!("{text} is illegal with {hand} in hand: {reason}. Legal moves: {list}")
    }

    fn position(&self) -> String {
        let opts = self.options().non_default_string();
        format!(
            "parker{}{} {} turn={} throw={} dec={}",
            if opts.is_empty() { "" } else { ":" },
            opts,
            self.board_string(),
            if self.dice_off {
                "-".to_string()
            } else {
                self.turn.to_string()
            },
            self.throw_string(),
            self.decisions
        )
    }
}

impl View for Parker {
    fn diagram(&self) -> String {
        let mut out = String::from("     a  b  c  d  e  f  g  h  i  j\n");
        let notes = [
            "player 2's safety row: O runs j3 -> a3, then a2",
            "Senet row: X runs j2 -> a2, O runs a2 -> j2",
            "player 1's safety row: X runs a1 -> j1, then j2",
        ];
        for (k, row) in (0..3u8).rev().enumerate() {
            out.push_str(&format!(" {} ", row + 1));
            for col in 1..=10u8 {
                out.push_str(&format!("{:>3}", self.cell_char(10 * row + col)));
            }
            out.push_str(&format!("   {}\n", notes[k]));
        }
        out.push_str(&format!(
            "X x: player 1's Pharaoh and men ({} left); O o: player 2's ({} left)\n",
            self.pegs[0].count_ones(),
            self.pegs[1].count_ones()
        ));
        for p in Player::BOTH {
            if let (None, Some(i)) = (self.pharaoh()[p.index()], self.powered(p)) {
                out.push_str(&format!(
                    "player {p}'s lone peg on {} has the Pharaoh's powers (P10)\n",
                    cell_name(Parker::cell(p, i))
                ));
            }
        }
        if !self.wait_for_one {
            out.push_str("waiting for a One (P8) is off\n");
        }
        let who = |p: Player| format!("player {p} ({})", ["X", "O"][p.index()]);
        out.push_str(&match self.status() {
            Status::Throw(_) if self.dice_off => {
                "dice-off to decide who starts (P3): throw 1 or 2".into()
            }
            Status::Throw(p) => format!("{} to throw", who(p)),
            Status::Move(p) if self.dice[1] == 0 => {
                format!("{} to move with the {} left", who(p), self.dice[0])
            }
            Status::Move(p) => format!("{} to move with {}", who(p), self.throw_string()),
            Status::Over(o) => match (o.winner, o.score) {
                (Some(p), Some(s)) => {
                    format!("over: {} wins, score {} (P11)", who(p), s[p.index()])
                }
                _ => "over: draw (turn cap)".into(),
            },
        });
        out
    }

    fn view(&self) -> BoardView {
        let wait = self.wait_for_one;
        let special = |c: u8| -> Option<Mark> {
            match c {
                1 => Some(Mark::new(
                    1,
                    "Pharaoh",
                    "player 1's Pharaoh corner, path index 0 (P1, P3)",
                )),
                30 => Some(Mark::new(
                    30,
                    "Pharaoh",
                    "player 2's Pharaoh corner, path index 0 (P1, P3)",
                )),
                11 if wait => Some(Mark::new(
                    11,
                    "wait",
                    "player 1's last space (19): plain pegs wait here for a One (P8)",
                )),
                20 if wait => Some(Mark::new(
                    20,
                    "wait",
                    "player 2's last space (19): plain pegs wait here for a One (P8)",
                )),
                11 => Some(Mark::new(
                    11,
                    "last",
                    "player 1's last space, path index 19 (P1)",
                )),
                20 => Some(Mark::new(
                    20,
                    "last",
                    "player 2's last space, path index 19 (P1)",
                )),
                _ => None,
            }
        };
        let mut cells = Vec::with_capacity(30);
        for row in (1..=3u8).rev() {
            for col in 1..=10u8 {
                let c = 10 * (row - 1) + col;
                let mut pieces = Vec::new();
                for p in Player::BOTH {
                    let i = INDEX[p.index()][c as usize];
                    if i == NONE || self.pegs[p.index()] & bit(i) == 0 {
                        continue;
                    }
                    let pharaoh = self.pharaoh[p.index()] == i;
                    pieces.push(PieceView {
                        player: p.index() as u8 + 1,
                        kind: self.cell_char(c),
                        name: if pharaoh {
                            "Pharaoh"
                        } else if self.powered(p) == Some(i) {
                            "lone man with the Pharaoh's powers (P10)"
                        } else {
                            "man"
                        },
                    });
                }
                cells.push(CellView {
                    square: c,
                    row: 3 - row,
                    col: col - 1,
                    label: cell_name(c),
                    special: special(c).map(|m| m.text),
                    mark: special(c).map(|m| m.short),
                    pieces,
                });
            }
        }
        let census = self.census();
        BoardView {
            rows: 3,
            cols: 10,
            cells,
            off: [0, 0],
            captured: census.map(|c| c.captured),
            path: "two loops (P1): player 1 runs a1-j1 along row 1, then j2-a2 along the Senet \
                   row and back to a1; player 2 runs j3-a3 along row 3, then a2-j2 and back to j3",
            notes: vec![
                (
                    "pegs left".into(),
                    format!("{} - {}", census[0].board, census[1].board),
                ),
                (
                    "waiting for a One (P8)".into(),
                    if wait { "on" } else { "off" }.into(),
                ),
            ],
            // P1: each player's loop, path index 0 (the Pharaoh corner) first.
            paths: Player::BOTH
                .iter()
                .map(|&p| (0..20).map(|i| Self::cell(p, i)).collect())
                .collect(),
        }
    }
}

impl Metrics for Parker {
    fn max_points(&self) -> Option<u32> {
        // P11: the Pharaoh and four men left, doubled.
        Some(2 * (PHARAOH_POINTS + 4 * MAN_POINTS))
    }

    fn points_if_won(&self) -> Option<[u32; 2]> {
        Some([self.score(0), self.score(1)])
    }

    /// Not a race: who is ahead is told by material, weighed as P11 scores it (25 for the
    /// Pharaoh, 10 for each man, undoubled).
    fn progress(&self) -> [u32; 2] {
        [0, 1].map(|p| {
            let n = self.pegs[p].count_ones();
            if self.pharaoh[p] != NONE {
                PHARAOH_POINTS + MAN_POINTS * (n - 1)
            } else {
                MAN_POINTS * n
            }
        })
    }

    fn census(&self) -> [Census; 2] {
        self.pegs.map(|m| Census {
            board: m.count_ones() as u8,
            off: 0,
            captured: 5 - m.count_ones() as u8,
        })
    }

    fn check_invariants(&self) -> Result<(), String> {
        for p in 0..2 {
            let n = self.pegs[p].count_ones();
            if self.pegs[p] & !FULL != 0 || n > 5 {
                return Err(format!(
                    "player {} has pegs off the path or too many",
                    p + 1
                ));
            }
            let ph = self.pharaoh[p];
            if ph != NONE && (ph >= 20 || self.pegs[p] & bit(ph) == 0) {
                return Err(format!("player {}'s Pharaoh is not among its pegs", p + 1));
            }
            if n - (ph != NONE) as u32 > 4 {
                return Err(format!("player {} has more than four men", p + 1));
            }
        }
        if self.pegs[0] & mirror(self.pegs[1]) != 0 {
            return Err("a Senet space holds pegs of both colours (P9 would have captured)".into());
        }
        if self.dice_off && (self.dice != [0, 0] || self.turn != Player::First) {
            return Err("dice in hand during the dice-off".into());
        }
        if self.dice[0] > 6 || self.dice[1] > 6 || (self.dice[0] == 0 && self.dice[1] != 0) {
            return Err(format!("bad dice in hand {:?}", self.dice));
        }
        if self.dice[1] != 0 && self.dice[0] > self.dice[1] {
            return Err("dice in hand not stored smaller first".into());
        }
        Ok(())
    }
}

impl Parker {
    /// Why the mover's peg on path index `s` may not go to index `d` with the dice in hand.
    fn explain(&self, s: u8, d: u8) -> String {
        let me = self.turn.index();
        let k = self.side(me);
        let [a, b] = self.dice;
        let mut values: Vec<(u8, &str)> = vec![(a, "die")];
        if b != 0 {
            if b != a {
                values.push((b, "die"));
            }
            values.push((a + b, "total"));
        }
        let fwd = (d + 20 - s) % 20;
        let back = s.wrapping_sub(d);
        let names = values
            .iter()
            .map(|(v, w)| format!("{w} {v}"))
            .collect::<Vec<_>>()
            .join(", ");
        if let Some(&(n, w)) = values.iter().find(|(v, _)| *v == fwd) {
            return match k.forward(s, n) {
                Err(why) => why.text(),
                Ok(_) => self.stranded(n, w),
            };
        }
        if let Some(&(n, w)) = values.iter().find(|(v, _)| *v == back && d < s) {
            return match k.backward(s, n) {
                Err(why) => why.text(),
                Ok(_) => self.stranded(n, w),
            };
        }
        format!(
            "{} is {fwd} space{} ahead of {} on player {}'s path, and no die or total in hand \
             ({names}) moves it there; a die's count may not be split (P4, P7)",
            cell_name(CELL[me][d as usize]),
            if fwd == 1 { "" } else { "s" },
            cell_name(CELL[me][s as usize]),
            self.turn
        )
    }

    /// The reason a geometrically possible move by `n` is not offered: P5.
    fn stranded(&self, n: u8, what: &str) -> String {
        let [a, b] = self.dice;
        let other = if n == a { b } else { a };
        if what == "die" && b != 0 {
            let mut legal = MoveList::new();
            self.legal_moves(&mut legal);
            let wins = legal.iter().find(|&&m| {
                let mut g = *self;
                g.play_unchecked(m);
                matches!(g.status(), Status::Over(o) if o.winner == Some(self.turn))
            });
            if let Some(&w) = wins {
                return format!(
                    "playing the {n} alone does not end the game, but {} does, and a move that \
                     ends the game counts as playing the whole throw (C8)",
                    self.move_string(w)
                );
            }
            format!(
                "playing the {n} first would leave the {other} unplayable, but both dice can be \
                 used this turn, so they must be (P5)"
            )
        } else {
            "the rules of P5 do not allow it here".into()
        }
    }
}

pub(crate) fn parse(options: &Options, tokens: &[&str]) -> Result<Parker, Error> {
    Parker::try_from(Parker::parse_setup(options, tokens)?)
}

/// A parker position before it is checked, every field public: what the notation's parser
/// (and an editor) produces. [`Parker::try_from`] checks it and names the first thing wrong;
/// [`Parker::setup`] gives a game's own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The options, made from [`Parker::option_specs`].
    pub options: Options,
    /// Each player's pegs as a 20-bit mask over that player's own path indexes (bit `i` for
    /// index `i`, P1), first player first.
    pub pegs: [u32; 2],
    /// The path index of each player's Pharaoh, `None` once captured.
    pub pharaoh: [Option<u8>; 2],
    /// The player to move, `None` while the dice-off that decides who starts is pending (P3).
    pub turn: Option<Player>,
    /// The dice in hand, smaller first; `[d, 0]` for the one die left, `[0, 0]` to throw.
    pub dice: [u8; 2],
    /// Decisions played so far (C5).
    pub decisions: u32,
}

impl TryFrom<Setup> for Parker {
    type Error = Error;

    /// Checks a setup: parker's options, no dice during the dice-off, some pegs left, and the
    /// invariants (pegs on the path, at most one Pharaoh among them and four men, no Senet
    /// space with both colours, dice 1-6 smaller first).
    fn try_from(s: Setup) -> Result<Parker, Error> {
        if s.options.specs() != OPTIONS {
            return Err(Error::Options("the options are not parker's".into()));
        }
        if s.pharaoh.iter().flatten().any(|&i| i >= 20) {
            return Err(Error::Position(
                "a Pharaoh's path index is 0-19 (P1)".into(),
            ));
        }
        let dice_off = s.turn.is_none();
        if dice_off && s.dice[0] != 0 {
            return Err(Error::Position(
                "while the dice-off is pending (turn=-) no dice are in hand: throw=- (P3)".into(),
            ));
        }
        if s.pegs == [0, 0] {
            return Err(Error::Position(
                "both players cannot have lost every peg".into(),
            ));
        }
        let g = Parker {
            pegs: s.pegs,
            pharaoh: s.pharaoh.map(|i| i.unwrap_or(NONE)),
            turn: s.turn.unwrap_or(Player::First),
            dice_off,
            dice: s.dice,
            decisions: s.decisions,
            cap: s.options.int("cap")?,
            wait_for_one: s.options.flag("wait_for_one")?,
        };
        g.check_invariants().map_err(Error::Position)?;
        Ok(g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::SplitMix;

    /// The bit-parallel move rules agree with the per-peg ones used for explanations.
    #[test]
    fn parallel_and_per_peg_move_rules_agree() {
        let mut rng = SplitMix(11);
        for _ in 0..20_000 {
            let own = (rng.next_u32() & rng.next_u32() & FULL) | 1 << rng.below(20);
            let pegs: Vec<u8> = track::squares(own).collect();
            let powered = if rng.below(4) == 0 {
                NONE
            } else {
                pegs[rng.below(pegs.len())]
            };
            for wait in [false, true] {
                let k = Side::new(own, powered, wait);
                for n in 1..=12u8 {
                    let mut movers = 0;
                    for &s in &pegs {
                        if s != powered && k.forward(s, n).is_ok() {
                            movers |= bit(s);
                        }
                    }
                    assert_eq!(k.plain_movers(n), movers, "own {own:b} n {n} wait {wait}");
                    if powered != NONE {
                        assert_eq!(k.powered_forward(n), k.forward(powered, n).ok());
                        assert_eq!(k.powered_backward(n), k.backward(powered, n).ok());
                    }
                }
            }
        }
    }

    /// `Movers::survive` never claims a die playable that the full check finds unplayable.
    #[test]
    fn the_quick_p5_check_is_sound() {
        let mut rng = SplitMix(12);
        let mut quick = 0;
        for _ in 0..20_000 {
            let own = (rng.next_u32() & rng.next_u32() & FULL) | 1 << rng.below(20);
            let pegs: Vec<u8> = track::squares(own).collect();
            let powered = if rng.below(4) == 0 {
                NONE
            } else {
                pegs[rng.below(pegs.len())]
            };
            let k = Side::new(own, powered, rng.below(2) == 0);
            for x in 1..=6u8 {
                for y in 1..=6u8 {
                    let other = k.movers(y);
                    let mv = k.movers(x);
                    let mut moves: Vec<(u8, u8)> = track::squares(mv.plain)
                        .map(|s| (s, (s + x) % 20))
                        .collect();
                    moves.extend(mv.forward.map(|t| (powered, t)));
                    moves.extend(mv.backward.map(|t| (powered, t)));
                    for (s, t) in moves {
                        if other.survive(s, t, y) {
                            quick += 1;
                            assert!(k.after(s, t).can_play(y), "own {own:b} {s}->{t} y {y}");
                        }
                    }
                }
            }
        }
        assert!(quick > 100_000, "{quick}");
    }

    /// `Parker::reach` is what the move rules allow for one move by each distance.
    #[test]
    fn reach_agrees_with_the_move_rules() {
        let mut rng = SplitMix(13);
        for _ in 0..20_000 {
            let own = (rng.next_u32() & rng.next_u32() & FULL) | 1 << rng.below(20);
            let pegs: Vec<u8> = track::squares(own).collect();
            let powered = if rng.below(4) == 0 {
                NONE
            } else {
                pegs[rng.below(pegs.len())]
            };
            let wait = rng.below(2) == 0;
            let k = Side::new(own, powered, wait);
            for t in (10..20u8).filter(|&t| own & bit(t) == 0) {
                let got = Parker::reach(own, (powered != NONE).then_some(powered), wait, t);
                let mut want = 0u32;
                for d in 1..=REACH {
                    let hits = pegs.iter().any(|&s| {
                        k.forward(s, d) == Ok(t) || (s == powered && k.backward(s, d) == Ok(t))
                    });
                    if hits {
                        want |= 1 << (d - 1);
                    }
                }
                assert_eq!(got, want, "own {own:b} powered {powered} wait {wait} t {t}");
            }
        }
    }

    #[test]
    fn reach_follows_p6_to_p8() {
        let reach = Parker::reach;
        // A plain peg 3 behind the target.
        assert_eq!(reach(1 << 12, None, true, 15), 1 << 2);
        // The nearer of two plain pegs blocks the farther (P6).
        assert_eq!(reach(1 << 12 | 1 << 14, None, true, 15), 1);
        // A Pharaoh in between blocks the plain peg behind it but reaches itself.
        assert_eq!(reach(1 << 12 | 1 << 14, Some(14), true, 15), 1);
        // The Pharaoh ahead on the Senet row goes backward (P7).
        assert_eq!(reach(1 << 18, Some(18), true, 15), 1 << 2);
        // Without P8 a plain peg on 19 goes round; with it, it does not.
        assert_eq!(reach(1 << 19, None, true, 10), 0);
        assert_eq!(reach(1 << 19, None, false, 10), 1 << 10);
        // Too far.
        assert_eq!(reach(1 << 2, None, true, 15), 0);
    }

    #[test]
    fn cells_and_paths_match_p1() {
        for i in 0..20u8 {
            for p in 0..2 {
                assert_eq!(INDEX[p][CELL[p][i as usize] as usize], i);
            }
            // P1: one player's Senet index i is the other's 29 - i.
            if i >= 10 {
                assert_eq!(CELL[0][i as usize], CELL[1][29 - i as usize]);
                assert_eq!(mirror(bit(i)), bit(29 - i));
            }
        }
        assert_eq!(cell_name(CELL[0][0]), "a1");
        assert_eq!(cell_name(CELL[0][19]), "a2");
        assert_eq!(cell_name(CELL[1][0]), "j3");
        assert_eq!(cell_name(CELL[1][19]), "j2");
        for c in 1..=30 {
            assert_eq!(parse_cell(&cell_name(c)), Some(c));
        }
    }
}
