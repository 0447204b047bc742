//! `kendall`: the Kendall-style sheet, sticks 1-2-3-4-6 (seed 004; rulings K1-K11 in
//! `shared/rulings.md`; explained in `docs/rules/kendall.md`).
//!
//! Squares are numbered 1-30 along the S-shaped track (C1); a piece on square `s` is bit `s`
//! of its side's mask.

use crate::game::{
    binomial, BoardView, Census, Dist, Effects, Game, Move, MoveList, Player, Status, Throw, OFF,
};
use crate::options::{cap_option, OptionSpec, OptionValue, Options};
use crate::track::{self, bit, Fields};
use crate::{Error, RuleSet};

/// The sides (C2). The sheet names no colours, so senet calls them light and dark.
pub const SIDES: [crate::game::Side; 2] = track::LIGHT_DARK;

/// K2: four sticks; 1-4 marked sides move 1-4, none marked moves 6 (C3 weights).
const THROWS: [(Throw, u32); 5] = [
    (Throw::single(1), binomial(4, 1)),
    (Throw::single(2), binomial(4, 2)),
    (Throw::single(3), binomial(4, 3)),
    (Throw::single(4), binomial(4, 4)),
    (Throw::single(6), binomial(4, 0)),
];

const OPTIONS: [OptionSpec; 1] = [cap_option(1000)];

/// K4: squares that cannot be attacked. Square 30 can.
const SAFE: u32 = bit(15) | bit(26) | bit(28) | bit(29);

/// Tag of a backward move (K10).
const BACK: u8 = 1;

/// A `kendall` position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Kendall {
    men: [u32; 2],
    turn: Player,
    /// The throw in hand, 0 while a throw is pending.
    throw: u8,
    /// K1: the first throw of the game must move the piece on 10.
    forced_ten: bool,
    decisions: u32,
    cap: u32,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Why {
    FirstMoveIsTen,
    PastThirty,
    PastTwentySix,
    BelowOne,
    Blockade,
    OwnPiece(u8),
    Safe(u8),
    Protected(u8),
}

/// The side to move's pieces, the opponent's, the opponent's blockade squares and its
/// protected pieces.
struct Sides {
    own: u32,
    opp: u32,
    block: u32,
    prot: u32,
}

impl Why {
    fn text(self) -> String {
        match self {
            Why::FirstMoveIsTen => "the first throw of the game must move the piece on 10 (K1)".into(),
            Why::PastThirty => "no move passes 30 except bearing off 28 with 3, 29 with 2, 30 with 1 (K9)".into(),
            Why::PastTwentySix => "no piece passes 26 going forward; it must land on 26 exactly (K7)".into(),
            Why::BelowOne => "nothing moves below square 1 (K10)".into(),
            Why::Blockade => "three or more consecutive opposing pieces in one row cannot be passed (K6)".into(),
            Why::OwnPiece(t) => format!("square {t} holds the mover's own piece (K3)"),
            Why::Safe(t) => format!("square {t} is safe and cannot be attacked (K4)"),
            Why::Protected(t) => format!(
                "the opposing piece on {t} stands beside another of its colour and cannot be attacked (K5)"
            ),
        }
    }
}

impl Kendall {
    /// The option specs.
    pub fn option_specs() -> &'static [OptionSpec] {
        &OPTIONS
    }

    /// The start position (K1, C2): the first player on 2, 4, 6, 8, 10, the second on the odd
    /// squares 1-9, and the first throw must move the piece on 10.
    pub fn start(options: &Options) -> Kendall {
        let odd = bit(1) | bit(3) | bit(5) | bit(7) | bit(9);
        Kendall {
            men: [odd << 1, odd],
            turn: Player::First,
            throw: 0,
            forced_ten: true,
            decisions: 0,
            cap: options.int("cap"),
        }
    }

    /// The squares of each player's pieces as bit masks (bit `s` for square `s`), first
    /// player first.
    pub fn men(&self) -> [u32; 2] {
        self.men
    }

    /// A position with this game's options awaiting `turn`'s throw, the pieces on the squares
    /// of `men` (bit `s` for square `s`, first player first; the others borne off), past the
    /// opening (no forced move of the piece on 10: K1) and with no decision played: what an
    /// endgame solver enumerates. Fails on masks that no position has (two pieces on a
    /// square, a piece on 27: K8, more than five pieces, both sides off).
    pub fn endgame(&self, men: [u32; 2], turn: Player) -> Result<Kendall, Error> {
        track::check_two_colours(men, 5).map_err(Error::Position)?;
        check_men(men)?;
        Ok(Kendall {
            men,
            turn,
            throw: 0,
            forced_ten: false,
            decisions: 0,
            cap: self.cap,
        })
    }

    /// Whether the opening is over: the first throw's forced move of the piece on 10 (K1)
    /// has been played.
    pub fn past_opening(&self) -> bool {
        !self.forced_ten
    }

    /// The masks every move of the side to move is checked against, computed once per
    /// position.
    #[inline]
    fn sides(&self) -> Sides {
        let me = self.turn.index();
        let (own, opp) = (self.men[me], self.men[1 - me]);
        Sides {
            own,
            opp,
            block: track::runs3_in_rows(opp),
            prot: track::protected(opp),
        }
    }

    fn options(&self) -> Options {
        let mut o = Options::defaults(&OPTIONS);
        o.set("cap", OptionValue::Int(self.cap));
        o
    }

    /// A forward move of the piece on `s` by `n`.
    #[inline]
    fn forward(&self, k: &Sides, s: u8, n: u8) -> Result<Move, Why> {
        // K9: a piece on 28 bears off with a 3, on 29 with a 2, on 30 with a 1.
        if s >= 28 && n == 31 - s {
            return Ok(Move {
                from: s,
                to: OFF,
                die: n,
                tag: 0,
            });
        }
        let t = s + n;
        if t > 30 {
            return Err(Why::PastThirty); // K9
        }
        if s < 26 && t > 26 {
            return Err(Why::PastTwentySix); // K7
        }
        self.land(k, s, t, n, 0)
    }

    /// A backward move of the piece on `s` by `n` (K10).
    #[inline]
    fn backward(&self, k: &Sides, s: u8, n: u8) -> Result<Move, Why> {
        if n >= s {
            return Err(Why::BelowOne);
        }
        self.land(k, s, s - n, n, BACK)
    }

    /// The rules of passing and landing, the same in both directions (K10).
    #[inline]
    fn land(&self, k: &Sides, s: u8, t: u8, n: u8, tag: u8) -> Result<Move, Why> {
        let (own, opp) = (k.own, k.opp);
        if k.block & track::between(s, t) != 0 {
            return Err(Why::Blockade); // K6: runs do not turn corners.
        }
        if own & bit(t) != 0 {
            return Err(Why::OwnPiece(t)); // K3
        }
        if opp & bit(t) != 0 {
            if SAFE & bit(t) != 0 {
                return Err(Why::Safe(t)); // K4
            }
            if k.prot & bit(t) != 0 {
                return Err(Why::Protected(t)); // K5: corners count.
            }
        }
        let to = if t == 27 {
            // K8: the water sends the piece to 15, or the first empty square below it.
            let occ = (own & !bit(s)) | opp;
            if occ & bit(15) == 0 {
                15
            } else {
                track::highest_empty_below(occ, 15).unwrap_or(15)
            }
        } else {
            t
        };
        Ok(Move {
            from: s,
            to,
            die: n,
            tag,
        })
    }

    fn movable(&self) -> u32 {
        let own = self.men[self.turn.index()];
        if self.forced_ten {
            own & bit(10) // K1
        } else {
            own
        }
    }

    fn parse_body(options: &Options, tokens: &[&str]) -> Result<Kendall, Error> {
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
                if !THROWS.iter().any(|(o, _)| *o == t) {
                    return Err(Error::Position(format!(
                        "throw={t} is not a kendall throw (1, 2, 3, 4 or 6)"
                    )));
                }
                t.a
            }
        };
        let forced_ten = match f.get("forced") {
            None => false,
            Some("10") => true,
            Some(v) => {
                return Err(Error::Position(format!(
                    "field forced can only be 10 (K1), got {v:?}"
                )))
            }
        };
        let decisions = f.need_u32("dec")?;
        f.finish()?;
        check_men(men)?;
        if forced_ten && men[turn.index()] & bit(10) == 0 {
            return Err(Error::Position(format!(
                "forced=10 needs a piece of player {turn} on 10 (K1)"
            )));
        }
        Ok(Kendall {
            men,
            turn,
            throw,
            forced_ten,
            decisions,
            cap: options.int("cap"),
        })
    }
}

impl Game for Kendall {
    fn rules(&self) -> RuleSet {
        RuleSet::Kendall
    }

    fn status(&self) -> Status {
        // K11: first to bear off all five wins; C5 for the cap.
        track::race_status(
            self.men,
            self.decisions,
            self.cap,
            self.throw != 0,
            self.turn,
        )
    }

    fn throw_dist(&self) -> Dist {
        Dist {
            outcomes: &THROWS,
            total: 16,
        }
    }

    fn in_hand(&self) -> Option<Throw> {
        (self.throw != 0).then(|| Throw::single(self.throw))
    }

    fn set_throw_unchecked(&mut self, t: Throw) {
        self.throw = t.a;
    }

    fn legal_moves(&self, moves: &mut MoveList) {
        if !matches!(self.status(), Status::Move(_)) {
            return;
        }
        let n = self.throw;
        let movable = self.movable();
        let k = self.sides();
        // Pieces below 26 move n forward to at most 26 (K7), all at once on the bitboards
        // (K3-K6); the same rules as `forward`, which handles 26 and beyond (K8, K9).
        let below = movable & (bit(26) - 1);
        let bad = k.own | (k.opp & (SAFE | k.prot));
        for s in track::squares(track::steps(below, n, 26, k.block, bad)) {
            moves.push(Move {
                from: s,
                to: s + n,
                die: n,
                tag: 0,
            });
        }
        for s in track::squares(movable & !below) {
            if let Ok(m) = self.forward(&k, s, n) {
                moves.push(m);
            }
        }
        // K10: a throw with no legal forward move must be used backward.
        if moves.is_empty() {
            for s in track::squares(movable) {
                if let Ok(m) = self.backward(&k, s, n) {
                    moves.push(m);
                }
            }
        }
        // K10, C4: no move either way forfeits the throw.
        if moves.is_empty() {
            moves.push(Move::PASS);
        }
    }

    fn play_unchecked(&mut self, m: Move) -> Effects {
        let me = self.turn.index();
        let n = self.throw;
        self.decisions += 1;
        self.throw = 0;
        self.forced_ten = false;
        if m.is_pass() {
            self.turn = self.turn.other(); // C4: a forfeit passes the turn.
            return Effects {
                bits: Effects::FORFEIT,
                turn_continues: false,
            };
        }
        let mut bits = if m.tag == BACK {
            Effects::BACKWARD
        } else {
            Effects::STEP
        };
        self.men[me] &= !bit(m.from);
        let mut landed_on_house = false;
        if m.to == OFF {
            bits |= Effects::BEAR_OFF;
        } else {
            let landed = if m.tag == BACK {
                m.from - n
            } else {
                m.from + n
            };
            if landed == 27 {
                bits |= Effects::TRAP; // K8
            } else if self.men[1 - me] & bit(landed) != 0 {
                // K3, K10: the two pieces exchange squares.
                self.men[1 - me] ^= bit(landed) | bit(m.from);
                bits |= Effects::SWAP;
            }
            landed_on_house = (28..=30).contains(&landed); // K9
            self.men[me] |= bit(m.to);
        }
        // K2: 1, 4 and 6 throw again; K9: so does landing on 28, 29 or 30.
        let bonus = matches!(n, 1 | 4 | 6) || landed_on_house;
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
        } else {
            format!("{}-{}", m.from, self.square_name(m.to))
        }
    }

    fn why_illegal(&self, text: &str) -> String {
        let n = self.throw;
        let Some(from) = text
            .split('-')
            .next()
            .and_then(|f| f.trim().parse::<u8>().ok())
        else {
            return format!("{text:?} is not a move like 10-13, 28-off or pass");
        };
        let mut legal = MoveList::new();
        self.legal_moves(&mut legal);
        let list = legal
            .iter()
            .map(|&m| self.move_string(m))
            .collect::<Vec<_>>()
            .join(", ");
        let reason = if !(1..=30).contains(&from) || self.men[self.turn.index()] & bit(from) == 0 {
            format!("player {} has no piece on {from}", self.turn)
        } else if self.forced_ten && from != 10 {
            Why::FirstMoveIsTen.text()
        } else {
            match (
                self.forward(&self.sides(), from, n),
                self.backward(&self.sides(), from, n),
            ) {
                (Ok(m), _) => format!(
                    "with a throw of {n} the piece on {from} goes to {}",
                    self.square_name(m.to)
                ),
                (Err(w), Ok(_)) if legal.iter().any(|m| m.tag != BACK && !m.is_pass()) => format!(
                    "{}; backward moves are allowed only when no piece can move forward (K10)",
                    w.text()
                ),
                (Err(w), Ok(m)) => {
                    format!("{}; the piece may only move back to {}", w.text(), m.to)
                }
                (Err(w), Err(_)) => w.text(),
            }
        };
        format!("{text} is illegal with a throw of {n}: {reason}. Legal moves: {list}")
    }

    fn progress(&self) -> [u32; 2] {
        self.men
            .map(|m| track::squares(m).map(u32::from).sum::<u32>() + 31 * (5 - m.count_ones()))
    }

    fn view(&self) -> BoardView {
        track::view(
            self.men,
            5,
            &[
                (15, "safe (K4); the water returns pieces here (K8)"),
                (26, "safe (K4); must be landed on exactly (K7)"),
                (27, "water: back to 15 (K8)"),
                (28, "safe (K4); bears off with 3, bonus throw (K9)"),
                (29, "safe (K4); bears off with 2, bonus throw (K9)"),
                (30, "bears off with 1, bonus throw (K9)"),
            ],
        )
    }

    fn diagram(&self) -> String {
        track::diagram(self.men, 5, &self.status(), self.in_hand())
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
            return Err("a piece stands on 27".into());
        }
        Ok(())
    }

    fn position(&self) -> String {
        let opts = self.options().non_default_string();
        format!(
            "kendall{}{} {} off={} turn={} throw={}{} dec={}",
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
            if self.forced_ten { " forced=10" } else { "" },
            self.decisions
        )
    }
}

/// The checks of piece masks beyond [`track::check_two_colours`]: nothing on 27 (K8), not
/// both sides borne off.
fn check_men(men: [u32; 2]) -> Result<(), Error> {
    if (men[0] | men[1]) & bit(27) != 0 {
        return Err(Error::Position(
            "square 27 is never occupied: a piece landing there goes to 15 at once (K8)".into(),
        ));
    }
    if men[0] == 0 && men[1] == 0 {
        return Err(Error::Position(
            "both players cannot have borne off every piece".into(),
        ));
    }
    Ok(())
}

pub(crate) fn parse(options: &Options, tokens: &[&str]) -> Result<Kendall, Error> {
    Kendall::parse_body(options, tokens)
}
