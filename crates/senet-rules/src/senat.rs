//! `senat`: the piecepack adaptation of the Fundex *Senat* rules (seed 001; rulings S1-S12 in
//! `shared/rulings.md`; explained in `docs/rules/senat.md`).
//!
//! Squares are numbered 1-30 along the S-shaped track (C1); a piece on square `s` is bit `s`
//! of its side's mask. Square 31 ([`OFF`]) is "borne off".
//!
//! Two things make the decision structure of this sheet unusual:
//! - The game opens on a decision, not a throw (S3): the first player holds the 1 that won
//!   the start and must play 10-11 with it; that 1 then earns the first throw.
//! - A piece that bears off with steps to spare (S10) opens a decision of its own: move one
//!   other piece forward by the leftover steps, or `decline`. The bonus throw of S4 comes
//!   only after the whole move, leftovers included.

use crate::game::{
    binomial, BoardView, Census, Dist, Effects, Game, Move, MoveList, Outcome, Player, Status,
    Throw, OFF,
};
use crate::options::{cap_option, OptionKind, OptionSpec, OptionValue, Options};
use crate::track::{self, bit, Fields};
use crate::{Error, RuleSet};

/// The sides (S1): the first player is Arms, the second Sun (piecepack suits).
pub const SIDES: [crate::game::Side; 2] = [
    crate::game::Side {
        name: "Arms",
        colour: "light",
    },
    crate::game::Side {
        name: "Sun",
        colour: "dark",
    },
];

/// S2: four coins; k suit sides up moves k (1-4), none up moves 6 (C3 weights 4:6:4:1:1).
const COINS: [(Throw, u32); 5] = [
    (Throw::single(1), binomial(4, 1)),
    (Throw::single(2), binomial(4, 2)),
    (Throw::single(3), binomial(4, 3)),
    (Throw::single(4), binomial(4, 4)),
    (Throw::single(6), binomial(4, 0)),
];

/// S2, option `die`: 1, 2, 3, 4, 6 each with probability 1/5 (a 5 is thrown again).
const DIE: [(Throw, u32); 5] = [
    (Throw::single(1), 1),
    (Throw::single(2), 1),
    (Throw::single(3), 1),
    (Throw::single(4), 1),
    (Throw::single(6), 1),
];

/// The default turn cap (C5): over twice the longest of 200,000 random games (478 decisions;
/// mean 184, see `docs/rules/senat.md`).
const DEFAULT_CAP: u32 = 1000;

const OPTIONS: [OptionSpec; 3] = [
    OptionSpec {
        name: "die",
        description:
            "throw a die instead of four coins: 1, 2, 3, 4, 6 each with probability 1/5 (S2)",
        kind: OptionKind::Bool { default: false },
    },
    OptionSpec {
        name: "score",
        description: "score the win: one point for each opposing piece still on the board (S12)",
        kind: OptionKind::Bool { default: false },
    },
    cap_option(DEFAULT_CAP),
];

/// S9: squares where a piece cannot be landed on. Square 30 is not safe.
const SAFE: u32 = bit(26) | bit(28) | bit(29);

/// S10: the first row, squares 1-10.
const ROW_ONE: u32 = 0x7FE;

/// Destinations past square 30, as bits of a shifted 64-bit mask (S10).
const PAST_30: u64 = !0u64 << 31;

/// Tag of a backward move (S7).
const BACK: u8 = 1;
/// Tag of declining the leftover steps (S10).
const DECLINE: u8 = 2;

/// Where the opening of S3 stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Opening {
    /// The first player holds the opening 1 and must play 10-11 (notation `forced=10`).
    Ten,
    /// The second player's first decision is still to come; it must move the piece on 9 when
    /// that piece has a legal move (notation `forced=9`).
    Nine,
    /// The opening is over.
    Done,
}

/// A `senat` position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Senat {
    men: [u32; 2],
    turn: Player,
    /// The throw of the move in hand, 0 while a throw is pending.
    throw: u8,
    /// Leftover steps of a bear-off still to be used or declined (S10), 0 if none.
    left: u8,
    opening: Opening,
    die: bool,
    score: bool,
    decisions: u32,
    cap: u32,
}

/// The masks every move of the side to move is checked against, computed once per position.
struct Sides {
    own: u32,
    opp: u32,
    /// Squares of the opponent's blocks of three or more (S6; corners count, C1).
    block: u32,
    /// Opposing pieces with a neighbour of their colour (S6).
    prot: u32,
    /// S10: no own piece on squares 1-10.
    may_bear_off: bool,
}

/// Why a piece cannot make a move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Why {
    BelowOne,
    Blockade,
    OwnPiece(u8),
    Safe(u8),
    Protected(u8),
    NoBearOff,
}

impl Why {
    fn text(self) -> String {
        match self {
            Why::BelowOne => "nothing moves below square 1 (S7)".into(),
            Why::Blockade => {
                "three or more consecutive opposing pieces cannot be passed, forward or backward (S6)"
                    .into()
            }
            Why::OwnPiece(t) => format!("square {t} holds the mover's own piece (S5)"),
            Why::Safe(t) => format!("square {t} is safe and its piece cannot be landed on (S9)"),
            Why::Protected(t) => format!(
                "the opposing piece on {t} stands beside another of its colour and cannot be landed on (S6)"
            ),
            Why::NoBearOff => {
                "no piece moves past 30 while the player has a piece on squares 1-10 (S10, S11)"
                    .into()
            }
        }
    }
}

impl Senat {
    /// The option specs.
    pub fn option_specs() -> &'static [OptionSpec] {
        &OPTIONS
    }

    /// The start position (S1, S3): the first player (Arms) on 2, 4, 6, 8, 10, the second
    /// (Sun) on the odd squares 1-9, and the first player holding the opening 1 whose only
    /// move is 10-11.
    pub fn start(options: &Options) -> Senat {
        let odd = bit(1) | bit(3) | bit(5) | bit(7) | bit(9);
        Senat {
            men: [odd << 1, odd],
            turn: Player::First,
            throw: 1,
            left: 0,
            opening: Opening::Ten,
            die: options.flag("die"),
            score: options.flag("score"),
            decisions: 0,
            cap: options.int("cap"),
        }
    }

    /// The squares of each player's pieces as bit masks (bit `s` for square `s`), first
    /// player first.
    pub fn men(&self) -> [u32; 2] {
        self.men
    }

    /// Leftover steps of a bear-off waiting to be used or declined (S10), 0 if none.
    pub fn leftover(&self) -> u8 {
        self.left
    }

    /// A position with this game's options awaiting `turn`'s throw, the pieces on the squares
    /// of `men` (bit `s` for square `s`, first player first; the others borne off), past the
    /// opening (S3) with no leftover steps (S10) and no decision played: what an endgame
    /// solver enumerates. Fails on masks that no position has (two pieces on a square, a
    /// piece on 27: S8, more than five pieces, both sides off).
    pub fn endgame(&self, men: [u32; 2], turn: Player) -> Result<Senat, Error> {
        track::check_two_colours(men, 5).map_err(Error::Position)?;
        check_men(men)?;
        Ok(Senat {
            men,
            turn,
            throw: 0,
            left: 0,
            opening: Opening::Done,
            decisions: 0,
            ..*self
        })
    }

    /// Whether the opening (S3: the forced 10-11, then the second player's bound first move)
    /// is over.
    pub fn past_opening(&self) -> bool {
        self.opening == Opening::Done
    }

    fn options(&self) -> Options {
        let mut o = Options::defaults(&OPTIONS);
        o.set("die", OptionValue::Bool(self.die));
        o.set("score", OptionValue::Bool(self.score));
        o.set("cap", OptionValue::Int(self.cap));
        o
    }

    #[inline]
    fn sides(&self) -> Sides {
        let me = self.turn.index();
        let (own, opp) = (self.men[me], self.men[1 - me]);
        Sides {
            own,
            opp,
            block: track::runs(opp, 3),
            prot: track::protected(opp),
            may_bear_off: own & ROW_ONE == 0,
        }
    }

    /// A forward move of the piece on `s` by `n` steps.
    #[inline]
    fn forward(k: &Sides, s: u8, n: u8) -> Result<Move, Why> {
        let t = s + n;
        if t > 30 {
            // S10, S11: past 30 only with the right to bear off (no own piece on 1-10);
            // off counts as square 31, and S6's blocks of three still cannot be passed.
            if !k.may_bear_off {
                return Err(Why::NoBearOff);
            }
            if k.block & track::between(s, OFF) != 0 {
                return Err(Why::Blockade);
            }
            return Ok(Move {
                from: s,
                to: OFF,
                die: n,
                tag: 0,
            });
        }
        Self::land(k, s, t, n, 0)
    }

    /// A backward move of the piece on `s` by `n` steps (S7).
    #[inline]
    fn backward(k: &Sides, s: u8, n: u8) -> Result<Move, Why> {
        if n >= s {
            return Err(Why::BelowOne); // S7
        }
        Self::land(k, s, s - n, n, BACK)
    }

    /// The rules of passing and landing, the same in both directions (S7).
    #[inline]
    fn land(k: &Sides, s: u8, t: u8, n: u8, tag: u8) -> Result<Move, Why> {
        let (own, opp) = (k.own, k.opp);
        if k.block & track::between(s, t) != 0 {
            return Err(Why::Blockade); // S6: blocks of three, corners included (C1).
        }
        if own & bit(t) != 0 {
            return Err(Why::OwnPiece(t)); // S5
        }
        if opp & bit(t) != 0 {
            if SAFE & bit(t) != 0 {
                return Err(Why::Safe(t)); // S9
            }
            if k.prot & bit(t) != 0 {
                return Err(Why::Protected(t)); // S6
            }
        }
        let to = if t == 27 { Self::trap(k, s) } else { t };
        Ok(Move {
            from: s,
            to,
            die: n,
            tag,
        })
    }

    /// S8: a piece from `s` ending on 27 goes to 15, or if 15 is taken to the lowest empty
    /// square (the square it left counts as empty).
    #[inline]
    fn trap(k: &Sides, s: u8) -> u8 {
        let occ = (k.own & !bit(s)) | k.opp;
        if occ & bit(15) == 0 {
            15
        } else {
            track::lowest_empty(occ)
        }
    }

    /// The squares of the side to move whose piece can move `n` steps forward (`fwd`) or
    /// backward: [`Senat::forward`] and [`Senat::backward`] decided for every piece at once
    /// with bit masks (a test checks that they agree; those two explain refusals).
    #[inline]
    fn movers(k: &Sides, n: u8, fwd: bool) -> u32 {
        let block = k.block as u64;
        // S5, S6, S9: no landing on an own piece, a safe or a protected opponent.
        let open = (track::ALL & !(k.own | (k.opp & (SAFE | k.prot)))) as u64;
        let own = k.own as u64;
        // S6: no passing a block of three; `crossed` holds the squares whose path meets one.
        let mut crossed = 0u64;
        if fwd {
            for i in 1..n {
                crossed |= block >> i;
            }
            // S10, S11: past 30 only with the right to bear off.
            let open = if k.may_bear_off { open | PAST_30 } else { open };
            (own & !crossed & (open >> n)) as u32
        } else {
            for i in 1..n {
                crossed |= block << i;
            }
            // S7: `open` has no square below 1.
            (own & !crossed & (open << n)) as u32
        }
    }

    /// The move of the piece on `s`, one of [`Senat::movers`].
    #[inline]
    fn make(k: &Sides, s: u8, n: u8, fwd: bool) -> Move {
        let t = if fwd { s + n } else { s - n };
        Move {
            from: s,
            to: match t {
                31.. => OFF,            // S10
                27 => Self::trap(k, s), // S8
                _ => t,
            },
            die: n,
            tag: if fwd { 0 } else { BACK },
        }
    }

    /// Whether some piece of the player to move can go forward by `left` (S10).
    fn leftover_playable(&self, left: u8) -> bool {
        let k = self.sides();
        track::squares(k.own).any(|s| Self::forward(&k, s, left).is_ok())
    }

    /// Whether the S3 rule of the second player's first move is in force for this decision.
    fn nine_rule_applies(&self) -> bool {
        self.opening == Opening::Nine && self.turn == Player::Second && self.left == 0
    }

    fn parse_body(options: &Options, tokens: &[&str]) -> Result<Senat, Error> {
        let Some((board, rest)) = tokens.split_first() else {
            return Err(Error::Position("the position lacks the board".into()));
        };
        let men = track::parse_board(board)?;
        let mut f = Fields::new(rest)?;
        track::check_off(f.need("off")?, men, 5)?;
        let turn = f.need_player("turn")?;
        let throw = match f.need("throw")? {
            "-" => 0,
            t => {
                let t = Throw::parse(t).map_err(|e| Error::Position(e.message().into()))?;
                if !COINS.iter().any(|(o, _)| *o == t) {
                    return Err(Error::Position(format!(
                        "throw={t} is not a senat throw (1, 2, 3, 4 or 6)"
                    )));
                }
                t.a
            }
        };
        let left = match f.get("left") {
            None => 0,
            Some(v) => match v.parse::<u8>() {
                Ok(n) if n >= 1 && n < throw => n,
                _ => {
                    return Err(Error::Position(format!(
                        "field left (leftover steps of a bear-off, S10) must be from 1 to one less than the throw, got {v:?} with throw={}",
                        if throw == 0 { "-".to_string() } else { throw.to_string() }
                    )))
                }
            },
        };
        let opening = match f.get("forced") {
            None => Opening::Done,
            Some("10") => Opening::Ten,
            Some("9") => Opening::Nine,
            Some(v) => {
                return Err(Error::Position(format!(
                    "field forced is 10 (the opening move 10-11 is in hand) or 9 (the second player's first move is still to come), got {v:?} (S3)"
                )))
            }
        };
        let decisions = f.need_u32("dec")?;
        f.finish()?;
        check_men(men)?;
        let own = men[turn.index()];
        if left != 0 && (own & ROW_ONE != 0 || own.count_ones() == 5) {
            return Err(Error::Position(format!(
                "left={left} follows a bear-off, so player {turn} must have a piece off and none on squares 1-10 (S10)"
            )));
        }
        if opening == Opening::Ten
            && (turn != Player::First
                || throw != 1
                || left != 0
                || own & bit(10) == 0
                || (men[0] | men[1]) & bit(11) != 0)
        {
            return Err(Error::Position(
                "forced=10 is the opening: player 1 to move with throw=1, a piece of player 1 on 10 and square 11 empty (S3)"
                    .into(),
            ));
        }
        Ok(Senat {
            men,
            turn,
            throw,
            left,
            opening,
            die: options.flag("die"),
            score: options.flag("score"),
            decisions,
            cap: options.int("cap"),
        })
    }
}

/// The checks of piece masks beyond [`track::check_two_colours`]: nothing on 27 (S8), not
/// both sides borne off.
fn check_men(men: [u32; 2]) -> Result<(), Error> {
    if (men[0] | men[1]) & bit(27) != 0 {
        return Err(Error::Position(
            "square 27 is never occupied: a piece ending there goes to 15 at once (S8)".into(),
        ));
    }
    if men[0] == 0 && men[1] == 0 {
        return Err(Error::Position(
            "both players cannot have borne off every piece".into(),
        ));
    }
    Ok(())
}

impl Game for Senat {
    fn rules(&self) -> RuleSet {
        RuleSet::Senat
    }

    fn status(&self) -> Status {
        // S12: first to bear off all five wins; the optional score gives the winner one point
        // for each opposing piece still on the board.
        for p in Player::BOTH {
            if self.men[p.index()] == 0 {
                let mut pts = [0; 2];
                pts[p.index()] = self.men[1 - p.index()].count_ones();
                return Status::Over(Outcome {
                    winner: Some(p),
                    capped: false,
                    score: self.score.then_some(pts),
                });
            }
        }
        if self.decisions >= self.cap {
            return Status::Over(Outcome {
                winner: None,
                capped: true,
                score: self.score.then_some([0, 0]),
            }); // C5
        }
        if self.throw == 0 {
            Status::Throw(self.turn)
        } else {
            Status::Move(self.turn)
        }
    }

    fn throw_dist(&self) -> Dist {
        if self.die {
            Dist {
                outcomes: &DIE,
                total: 5,
            }
        } else {
            Dist {
                outcomes: &COINS,
                total: 16,
            }
        }
    }

    fn in_hand(&self) -> Option<Throw> {
        match (self.throw, self.left) {
            (0, _) => None,
            (t, 0) => Some(Throw::single(t)),
            (_, l) => Some(Throw::single(l)), // S10: the leftover steps are what is left to play.
        }
    }

    fn hand_text(&self) -> Option<String> {
        match (self.throw, self.left) {
            (0, _) => None,
            (t, 0) => Some(format!("the throw {t}")),
            // S10: after a bear-off, the throw's leftover steps are still to be played.
            (t, l) => Some(format!("the throw {t}, with {l} leftover steps to play")),
        }
    }

    fn set_throw_unchecked(&mut self, t: Throw) {
        self.throw = t.a;
    }

    fn legal_moves(&self, moves: &mut MoveList) {
        if !matches!(self.status(), Status::Move(_)) {
            return;
        }
        let k = self.sides();
        if self.left != 0 {
            // S10: the leftover moves one other piece forward, or the player declines.
            for s in track::squares(k.own) {
                if let Ok(m) = Self::forward(&k, s, self.left) {
                    moves.push(m);
                }
            }
            moves.push(Move {
                from: 0,
                to: 0,
                die: self.left,
                tag: DECLINE,
            });
            return;
        }
        if self.opening == Opening::Ten {
            // S3: the opening 1 must move the piece on 10 to 11.
            moves.push(Move {
                from: 10,
                to: 11,
                die: 1,
                tag: 0,
            });
            return;
        }
        let n = self.throw;
        let mut fwd = true;
        let mut movers = Self::movers(&k, n, true);
        if movers == 0 {
            // S7: a throw with no legal forward move must be used backward.
            fwd = false;
            movers = Self::movers(&k, n, false);
        }
        for s in track::squares(movers) {
            moves.push(Self::make(&k, s, n, fwd));
        }
        // S3: the second player's first move is the piece on 9, when it has a legal move.
        if self.nine_rule_applies() && moves.iter().any(|m| m.from == 9) {
            moves.retain(|m| m.from == 9);
        }
        // S7, C4: no move either way forfeits the throw.
        if moves.is_empty() {
            moves.push(Move::PASS);
        }
    }

    fn play_unchecked(&mut self, m: Move) -> Effects {
        let me = self.turn.index();
        self.decisions += 1;
        // S3: the opening move leads to the second player's bound first move, which any
        // decision of the second player uses up.
        match self.opening {
            Opening::Ten => self.opening = Opening::Nine,
            Opening::Nine if self.turn == Player::Second => self.opening = Opening::Done,
            _ => {}
        }
        if m.is_pass() {
            // S7, C4: a forfeit passes the turn.
            self.throw = 0;
            self.left = 0;
            self.turn = self.turn.other();
            return Effects {
                bits: Effects::FORFEIT,
                turn_continues: false,
            };
        }
        let mut bits = 0;
        if m.tag != DECLINE {
            let n = m.die;
            bits = if m.tag == BACK {
                Effects::BACKWARD
            } else {
                Effects::STEP
            };
            self.men[me] &= !bit(m.from);
            if m.to == OFF {
                bits |= Effects::BEAR_OFF;
                // S10: steps past square 31 may move another piece, a decision of its own.
                let left = m.from + n - OFF;
                if left > 0
                    && self.men[me] != 0
                    && self.decisions < self.cap
                    && self.leftover_playable(left)
                {
                    self.left = left;
                    return Effects {
                        bits,
                        turn_continues: true,
                    };
                }
            } else {
                let landed = if m.tag == BACK {
                    m.from - n
                } else {
                    m.from + n
                };
                if landed == 27 {
                    bits |= Effects::TRAP; // S8
                } else if self.men[1 - me] & bit(landed) != 0 {
                    // S5, S7: the two pieces exchange squares.
                    self.men[1 - me] ^= bit(landed) | bit(m.from);
                    bits |= Effects::SWAP;
                }
                self.men[me] |= bit(m.to);
            }
        }
        // S4, S10: after the whole move, a 1, 4 or 6 throws again; a 2 or 3 passes the turn.
        self.left = 0;
        let bonus = matches!(self.throw, 1 | 4 | 6);
        self.throw = 0;
        if bonus {
            bits |= Effects::BONUS;
        } else {
            self.turn = self.turn.other();
        }
        // A game that ended (a win, or the cap: C5) has no next decision.
        let over = matches!(self.status(), Status::Over(_));
        Effects {
            bits,
            turn_continues: bonus && !over,
        }
    }

    fn decisions(&self) -> u32 {
        self.decisions
    }

    fn move_string(&self, m: Move) -> String {
        if m.is_pass() {
            "pass".into()
        } else if m.tag == DECLINE {
            "decline".into()
        } else {
            format!("{}-{}", m.from, self.square_name(m.to))
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
        let t = text.trim();
        let n = if self.left != 0 {
            self.left
        } else {
            self.throw
        };
        let what = if self.left != 0 {
            format!("with the {n} leftover steps of a bear-off")
        } else {
            format!("with a throw of {n}")
        };
        let reason = if t.eq_ignore_ascii_case("pass") {
            "a throw is forfeited only when no move is legal either way (S7, C4)".to_string()
        } else if t.eq_ignore_ascii_case("decline") {
            "only leftover steps after a bear-off can be declined (S10)".to_string()
        } else {
            let mut parts = t.splitn(2, '-');
            let Some(from) = parts.next().and_then(|f| f.trim().parse::<u8>().ok()) else {
                return format!(
                    "{text:?} is not a move like 10-13, 28-off, decline or pass. Legal moves: {list}"
                );
            };
            let to = parts.next().map(str::trim).and_then(|x| {
                if x.eq_ignore_ascii_case("off") {
                    Some(OFF)
                } else {
                    x.parse::<u8>().ok()
                }
            });
            let k = self.sides();
            if !(1..=30).contains(&from) || k.own & bit(from) == 0 {
                format!("player {} has no piece on {from}", self.turn)
            } else if self.left != 0 {
                match Self::forward(&k, from, n) {
                    Ok(m) => format!(
                        "the piece on {from} goes forward to {}",
                        self.square_name(m.to)
                    ),
                    Err(w) => format!("{}; leftover steps only move forward (S10)", w.text()),
                }
            } else if self.opening == Opening::Ten {
                "the game opens with the forced move 10-11 (S3)".into()
            } else if self.nine_rule_applies() && from != 9 && legal.iter().any(|m| m.from == 9) {
                "the second player's first move must move the piece on 9, which can move (S3)"
                    .into()
            } else {
                let forward_exists = legal.iter().any(|m| m.tag != BACK && !m.is_pass());
                match (Self::forward(&k, from, n), Self::backward(&k, from, n)) {
                    (Ok(m), _) if to.is_some_and(|to| to < from) => format!(
                        "backward moves are allowed only when the throw has no forward move (S7); the piece on {from} goes forward to {}",
                        self.square_name(m.to)
                    ),
                    (Ok(m), _) => format!(
                        "the piece on {from} goes to {}",
                        self.square_name(m.to)
                    ),
                    (Err(w), Ok(_)) if forward_exists => format!(
                        "{}; backward moves are allowed only when the throw has no forward move (S7)",
                        w.text()
                    ),
                    (Err(w), Ok(m)) => {
                        format!("{}; the piece may only move back to {}", w.text(), m.to)
                    }
                    (Err(w), Err(b)) => format!("forward, {}; backward, {}", w.text(), b.text()),
                }
            }
        };
        format!("{text} is illegal {what}: {reason}. Legal moves: {list}")
    }

    fn progress(&self) -> [u32; 2] {
        self.men
            .map(|m| track::squares(m).map(u32::from).sum::<u32>() + 31 * (5 - m.count_ones()))
    }

    fn view(&self) -> BoardView {
        let mut v = track::view(
            self.men,
            5,
            &[
                (15, "the trap returns pieces here (S8)"),
                (26, "safe (S9)"),
                (27, "trap: to 15, or the lowest empty square (S8)"),
                (28, "safe (S9)"),
                (29, "safe (S9)"),
            ],
        );
        if self.left != 0 && matches!(self.status(), Status::Move(_)) {
            v.notes.push((
                "leftover".into(),
                format!(
                    "{} steps of the throw {}: move another piece forward, or decline (S10)",
                    self.left, self.throw
                ),
            ));
        }
        match self.opening {
            Opening::Ten => v.notes.push((
                "opening".into(),
                "the 1 that won the start moves 10-11, then player 1 throws (S3)".into(),
            )),
            Opening::Nine => v.notes.push((
                "first move of player 2".into(),
                "the piece on 9, if it can move (S3)".into(),
            )),
            Opening::Done => {}
        }
        v
    }

    fn diagram(&self) -> String {
        let mut d = track::diagram(self.men, 5, &self.status(), self.in_hand());
        if matches!(self.status(), Status::Move(_)) {
            if self.left != 0 {
                d.push_str(&format!(
                    "\nleftover {} steps of the throw {} (S10): move another piece forward, or decline",
                    self.left, self.throw
                ));
            } else if self.opening == Opening::Ten {
                d.push_str("\nopening (S3): the 1 that won the start moves 10-11");
            } else if self.nine_rule_applies() {
                d.push_str("\nfirst move of player 2 (S3): the piece on 9 moves if it can");
            }
        }
        d
    }

    fn census(&self) -> [Census; 2] {
        self.men.map(|m| Census {
            board: m.count_ones() as u8,
            off: 5 - m.count_ones() as u8,
            captured: 0,
        })
    }

    fn check_invariants(&self) -> Result<(), String> {
        track::check_two_colours(self.men, 5)?;
        if (self.men[0] | self.men[1]) & bit(27) != 0 {
            return Err("a piece stands on 27 (S8)".into());
        }
        if self.left != 0 {
            let own = self.men[self.turn.index()];
            if self.left >= self.throw || own & ROW_ONE != 0 || own.count_ones() == 5 {
                return Err("leftover steps without a bear-off that could give them (S10)".into());
            }
        }
        Ok(())
    }

    fn position(&self) -> String {
        let opts = self.options().non_default_string();
        format!(
            "senat{}{} {} off={} turn={} throw={}{}{} dec={}",
            if opts.is_empty() { "" } else { ":" },
            opts,
            track::board_string(self.men),
            track::off_string(self.men, 5),
            self.turn,
            if self.throw == 0 {
                "-".to_string()
            } else {
                self.throw.to_string()
            },
            if self.left == 0 {
                String::new()
            } else {
                format!(" left={}", self.left)
            },
            match self.opening {
                Opening::Ten => " forced=10",
                Opening::Nine => " forced=9",
                Opening::Done => "",
            },
            self.decisions
        )
    }
}

pub(crate) fn parse(options: &Options, tokens: &[&str]) -> Result<Senat, Error> {
    Senat::parse_body(options, tokens)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::corpus;

    /// The rules move by move, piece by piece: the reference for the bit-mask generator.
    fn by_piece(g: &Senat, moves: &mut MoveList) {
        let k = g.sides();
        for s in track::squares(k.own) {
            if let Ok(m) = Senat::forward(&k, s, g.throw) {
                moves.push(m);
            }
        }
        if moves.is_empty() {
            for s in track::squares(k.own) {
                if let Ok(m) = Senat::backward(&k, s, g.throw) {
                    moves.push(m);
                }
            }
        }
        if g.nine_rule_applies() && moves.iter().any(|m| m.from == 9) {
            moves.retain(|m| m.from == 9);
        }
        if moves.is_empty() {
            moves.push(Move::PASS);
        }
    }

    #[test]
    fn bit_mask_moves_agree_with_the_piece_by_piece_rules() {
        let mut checked = 0;
        for opts in [&[][..], &["die"][..]] {
            let start = Senat::start(&Options::parse(&OPTIONS, opts, "senat").unwrap());
            for p in corpus(&start, 3, 3000, true) {
                for &(t, _) in p.throw_dist().outcomes {
                    let mut g = p;
                    g.set_throw_unchecked(t);
                    if g.left != 0 || g.opening == Opening::Ten {
                        continue;
                    }
                    let (mut fast, mut slow) = (MoveList::new(), MoveList::new());
                    g.legal_moves(&mut fast);
                    by_piece(&g, &mut slow);
                    assert_eq!(fast, slow, "{}", g.position());
                    checked += 1;
                }
            }
        }
        assert!(checked > 20_000);
    }
}
