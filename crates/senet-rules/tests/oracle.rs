//! Independent oracles: `kendall` and `kendall5` move generation written again, as plainly as
//! possible from the rulings (square arrays, no bitboards), and compared with the engine on
//! thousands of positions and every throw. A disagreement names the position.

use senet_rules::conformance::corpus;
use senet_rules::Notation;
use senet_rules::{with_game, AnyGame, Game, MoveList, RuleSet};

/// A board: `sq[s]` is 0 (empty), 1 (side to move) or 2 (opponent), s in 1..=30.
struct Board {
    sq: [u8; 32],
}

impl Board {
    /// Reads the board and whose turn it is from a position string.
    fn from_position(pos: &str) -> (Board, bool, u8) {
        let mut it = pos.split_whitespace();
        it.next();
        let board = it.next().unwrap();
        let fields: Vec<&str> = it.collect();
        let turn = fields.iter().find_map(|f| f.strip_prefix("turn=")).unwrap();
        let throw: u8 = fields
            .iter()
            .find_map(|f| f.strip_prefix("throw="))
            .unwrap()
            .parse()
            .unwrap();
        let forced = fields.contains(&"forced=10");
        let me = if turn == "1" { 'X' } else { 'O' };
        let mut sq = [0u8; 32];
        for (i, c) in board.chars().enumerate() {
            sq[i + 1] = match c {
                '.' => 0,
                c if c == me => 1,
                _ => 2,
            };
        }
        (Board { sq }, forced, throw)
    }

    fn opp(&self, s: i32) -> bool {
        (1..=30).contains(&s) && self.sq[s as usize] == 2
    }

    /// Is the opponent on `s` part of a run of `len`+ consecutive opponents; `rows` limits runs
    /// to one row of the board.
    fn in_run(&self, s: i32, len: i32, rows: bool) -> bool {
        let row = |x: i32| (x - 1) / 10;
        let same = |x: i32| !rows || row(x) == row(s);
        let mut lo = s;
        while self.opp(lo - 1) && same(lo - 1) {
            lo -= 1;
        }
        let mut hi = s;
        while self.opp(hi + 1) && same(hi + 1) {
            hi += 1;
        }
        self.opp(s) && hi - lo + 1 >= len
    }

    fn passes_blockade(&self, from: i32, to: i32, rows: bool) -> bool {
        let (lo, hi) = if from < to { (from, to) } else { (to, from) };
        ((lo + 1)..hi).any(|s| s <= 30 && self.in_run(s, 3, rows))
    }

    fn protected(&self, s: i32) -> bool {
        self.opp(s) && (self.opp(s - 1) || self.opp(s + 1))
    }

    fn water(&self, from: i32) -> i32 {
        let empty = |s: i32| self.sq[s as usize] == 0 || s == from;
        if empty(15) {
            return 15;
        }
        (1..15).rev().find(|&s| empty(s)).unwrap()
    }
}

fn name(s: i32) -> String {
    if s == 31 {
        "off".into()
    } else {
        s.to_string()
    }
}

/// kendall5 by R3-R9.
fn kendall5_moves(b: &Board, n: i32) -> Vec<String> {
    let mine: Vec<i32> = (1..=30).filter(|&s| b.sq[s as usize] == 1).collect();
    let land_ok = |from: i32, to: i32| {
        !b.passes_blockade(from, to, false) && b.sq[to as usize] != 1 && !b.protected(to)
    };
    let mut fwd = Vec::new();
    for &s in &mine {
        let t = if s >= 28 {
            if n == 31 - s {
                Some(31)
            } else {
                None
            }
        } else if s == 26 {
            match n {
                1 => Some(b.water(26)),
                5 => (!b.passes_blockade(26, 31, false)).then_some(31),
                _ => land_ok(26, 26 + n).then_some(26 + n),
            }
        } else if s + n > 26 {
            None
        } else {
            land_ok(s, s + n).then_some(s + n)
        };
        if let Some(t) = t {
            fwd.push(format!("{s}-{}", name(t)));
        }
    }
    if !fwd.is_empty() {
        return fwd;
    }
    let mut back = Vec::new();
    for &s in &mine {
        if s < 28 && s - n >= 1 && land_ok(s, s - n) {
            back.push(format!("{s}-{}", s - n));
        }
    }
    if back.is_empty() {
        back.push("pass".into());
    }
    back
}

/// kendall by K1, K3-K10.
fn kendall_moves(b: &Board, n: i32, forced: bool) -> Vec<String> {
    let mine: Vec<i32> = (1..=30)
        .filter(|&s| b.sq[s as usize] == 1 && (!forced || s == 10))
        .collect();
    let safe = |s: i32| [15, 26, 28, 29].contains(&s);
    let land = |from: i32, to: i32| -> Option<i32> {
        if b.passes_blockade(from, to, true) || b.sq[to as usize] == 1 {
            return None;
        }
        if b.opp(to) && (safe(to) || b.protected(to)) {
            return None;
        }
        Some(if to == 27 { b.water(from) } else { to })
    };
    let mut fwd = Vec::new();
    for &s in &mine {
        let t = if s >= 28 && n == 31 - s {
            Some(31)
        } else if s + n > 30 || (s < 26 && s + n > 26) {
            None
        } else {
            land(s, s + n)
        };
        if let Some(t) = t {
            fwd.push(format!("{s}-{}", name(t)));
        }
    }
    if !fwd.is_empty() {
        return fwd;
    }
    let mut back = Vec::new();
    for &s in &mine {
        if s - n >= 1 {
            if let Some(t) = land(s, s - n) {
                back.push(format!("{s}-{t}"));
            }
        }
    }
    if back.is_empty() {
        back.push("pass".into());
    }
    back
}

fn engine_moves(g: &AnyGame) -> Vec<String> {
    let mut ms = MoveList::new();
    g.legal_moves(&mut ms);
    let mut v: Vec<String> = ms.iter().map(|&m| g.move_string(m)).collect();
    v.sort();
    v
}

fn compare(rules: RuleSet, oracle: impl Fn(&Board, i32, bool) -> Vec<String>) {
    let start = AnyGame::new(rules, &[] as &[&str]).unwrap();
    let positions: Vec<AnyGame> =
        with_game!(&start, g => corpus(g, 3, 4000, true).into_iter().map(AnyGame::from).collect());
    let mut checked = 0;
    for p in positions {
        for (t, _) in p.throw_dist().outcomes {
            let mut g = p;
            g.set_throw(*t).unwrap();
            let (b, forced, n) = Board::from_position(&g.position());
            assert_eq!(n, t.a);
            let mut want = oracle(&b, n as i32, forced);
            want.sort();
            assert_eq!(engine_moves(&g), want, "{rules}: {}", g.position());
            checked += 1;
        }
    }
    assert!(checked >= 15_000);
}

#[test]
fn kendall5_moves_agree_with_a_plain_oracle() {
    compare(RuleSet::Kendall5, |b, n, _| kendall5_moves(b, n));
}

#[test]
fn kendall_moves_agree_with_a_plain_oracle() {
    compare(RuleSet::Kendall, kendall_moves);
}
