//! `kendall5`: the modern five-piece Kendall rules, solved exactly elsewhere
//! (rulings R1-R10 in `shared/rulings.md`; explained in `docs/rules/kendall5.md`).
//!
//! Squares are numbered 1-30 along the S-shaped track (C1); a piece on square `s` is bit `s`
//! of its side's mask.

use crate::game::{
    binomial, BoardView, Census, Dist, Effects, Game, Move, MoveList, Player, Status, Throw, OFF,
};
use crate::options::{cap_option, OptionSpec, Options};
use crate::track::{self, bit, Fields};
use crate::{Error, RuleSet};

/// The sides (R1). The rules name no colours, so senet calls them light and dark.
pub const SIDES: [crate::game::Side; 2] = track::LIGHT_DARK;

/// R2: four sticks, marked sides counted, none marked counts 5; weights 4:6:4:1:1.
const THROWS: [(Throw, u32); 5] = [
    (Throw::single(1), binomial(4, 1)),
    (Throw::single(2), binomial(4, 2)),
    (Throw::single(3), binomial(4, 3)),
    (Throw::single(4), binomial(4, 4)),
    (Throw::single(5), binomial(4, 0)),
];

const OPTIONS: [OptionSpec; 1] = [cap_option(1000)];

/// Tag of a backward move (R9).
const BACK: u8 = 1;

/// A `kendall5` position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Kendall5 {
    men: [u32; 2],
    turn: Player,
    /// The throw in hand, 0 while a throw is pending.
    throw: u8,
    decisions: u32,
    cap: u32,
}

/// Why a piece cannot move with a throw.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Why {
    OnHouse(u8),
    PastTwentySix,
    BelowOne,
    NoBackwardFromHouse,
    Blockade,
    OwnPiece(u8),
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
            Why::OnHouse(s) => format!(
                "a piece on {s} moves only by bearing off with exactly {} (R8)",
                31 - s
            ),
            Why::PastTwentySix => "no piece passes 26 going forward; 26 must be landed on exactly (R6)".into(),
            Why::BelowOne => "nothing moves below square 1 (R9)".into(),
            Why::NoBackwardFromHouse => "pieces on 28, 29, 30 never move backward (R8)".into(),
            Why::Blockade => "three or more consecutive opposing pieces cannot be passed (R5)".into(),
            Why::OwnPiece(t) => format!("square {t} holds the mover's own piece (R3)"),
            Why::Protected(t) => format!(
                "the opposing piece on {t} has a piece of its colour beside it and cannot be swapped (R4)"
            ),
        }
    }
}

impl Kendall5 {
    /// The option specs.
    pub fn option_specs() -> &'static [OptionSpec] {
        &OPTIONS
    }

    /// The start position (R1): the first player on 1, 3, 5, 7, 9, the second on the even
    /// squares 2-10; the first player simply moves first.
    pub fn start(options: &Options) -> Kendall5 {
        let odd = bit(1) | bit(3) | bit(5) | bit(7) | bit(9);
        Kendall5 {
            men: [odd, odd << 1],
            turn: Player::First,
            throw: 0,
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
    /// of `men` (bit `s` for square `s`, first player first; the others borne off) and no
    /// decision played: what an endgame solver enumerates. Fails on masks that no position
    /// has (two pieces on a square, a piece on 27: R7, more than five pieces, both sides off).
    pub fn endgame(&self, men: [u32; 2], turn: Player) -> Result<Kendall5, Error> {
        track::check_two_colours(men, 5).map_err(Error::Position)?;
        check_men(men)?;
        Ok(Kendall5 {
            men,
            turn,
            throw: 0,
            decisions: 0,
            cap: self.cap,
        })
    }

    /// Whether the opening is over: kendall5 has no opening rule (R1), so always.
    pub fn past_opening(&self) -> bool {
        true
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
            block: track::runs(opp, 3),
            prot: track::protected(opp),
        }
    }

    fn options(&self) -> Options {
        let mut o = Options::defaults(&OPTIONS);
        o.set("cap", crate::options::OptionValue::Int(self.cap));
        o
    }

    /// Where a forward move of the piece on `s` by `n` ends (R6-R8).
    #[inline]
    fn forward(&self, k: &Sides, s: u8, n: u8) -> Result<Move, Why> {
        if s >= 28 {
            // R8: 28, 29, 30 bear off with exactly 3, 2, 1 and move in no other way.
            return if n == 31 - s {
                Ok(Move {
                    from: s,
                    to: OFF,
                    die: n,
                    tag: 0,
                })
            } else {
                Err(Why::OnHouse(s))
            };
        }
        if s == 26 {
            match n {
                // R7: 27 is reached only from 26 with a 1; the piece goes on to 15, or the
                // highest empty square below it.
                1 => {
                    let occ = (k.own & !bit(26)) | k.opp;
                    let to = if occ & bit(15) == 0 {
                        15
                    } else {
                        track::highest_empty_below(occ, 15).unwrap_or(15)
                    };
                    return Ok(Move {
                        from: 26,
                        to,
                        die: 1,
                        tag: 0,
                    });
                }
                // R8: from 26 a throw of 5 bears off, passing 27-30: a blockade on 28-30
                // stops it (R5).
                5 => {
                    if k.block & track::between(26, OFF) != 0 {
                        return Err(Why::Blockade);
                    }
                    return Ok(Move {
                        from: 26,
                        to: OFF,
                        die: 5,
                        tag: 0,
                    });
                }
                // R8: 2, 3, 4 reach 28, 29, 30.
                _ => return self.land(k, s, s + n, n, 0),
            }
        }
        // R6: nothing passes 26.
        if s + n > 26 {
            return Err(Why::PastTwentySix);
        }
        self.land(k, s, s + n, n, 0)
    }

    /// A backward move of the piece on `s` by `n` (R9).
    #[inline]
    fn backward(&self, k: &Sides, s: u8, n: u8) -> Result<Move, Why> {
        if s >= 28 {
            return Err(Why::NoBackwardFromHouse); // R8
        }
        if n >= s {
            return Err(Why::BelowOne); // R9
        }
        self.land(k, s, s - n, n, BACK)
    }

    /// The landing rules shared by both directions: blockades (R5), own pieces and
    /// protection (R3, R4).
    #[inline]
    fn land(&self, k: &Sides, s: u8, t: u8, n: u8, tag: u8) -> Result<Move, Why> {
        let own = k.own;
        if k.block & track::between(s, t) != 0 {
            return Err(Why::Blockade); // R5
        }
        if own & bit(t) != 0 {
            return Err(Why::OwnPiece(t)); // R3
        }
        if k.prot & bit(t) != 0 {
            return Err(Why::Protected(t)); // R4
        }
        Ok(Move {
            from: s,
            to: t,
            die: n,
            tag,
        })
    }

    fn parse_body(options: &Options, tokens: &[&str]) -> Result<Kendall5, Error> {
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
                        "throw={t} is not a kendall5 throw (1-5)"
                    )));
                }
                t.a
            }
        };
        let decisions = f.need_u32("dec")?;
        f.finish()?;
        check_men(men)?;
        Ok(Kendall5 {
            men,
            turn,
            throw,
            decisions,
            cap: options.int("cap"),
        })
    }
}

impl Game for Kendall5 {
    fn rules(&self) -> RuleSet {
        RuleSet::Kendall5
    }

    fn status(&self) -> Status {
        // R10: bearing off the last piece wins at once; C5 for the cap.
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
        let own = self.men[self.turn.index()];
        let n = self.throw;
        let k = self.sides();
        // Pieces below 26 move n forward to at most 26 (R6), all at once on the bitboards
        // (R3-R5); the same rules as `forward`, which handles 26 and 28-30 (R7, R8).
        let below = own & (bit(26) - 1);
        for s in track::squares(track::steps(below, n, 26, k.block, k.own | k.prot)) {
            moves.push(Move {
                from: s,
                to: s + n,
                die: n,
                tag: 0,
            });
        }
        for s in track::squares(own & !below) {
            if let Ok(m) = self.forward(&k, s, n) {
                moves.push(m);
            }
        }
        // R9: backward moves only when no piece has a forward move.
        if moves.is_empty() {
            for s in track::squares(own) {
                if let Ok(m) = self.backward(&k, s, n) {
                    moves.push(m);
                }
            }
        }
        // C4, R2: no legal move forfeits the throw and ends the turn.
        if moves.is_empty() {
            moves.push(Move::PASS);
        }
    }

    fn play_unchecked(&mut self, m: Move) -> Effects {
        let me = self.turn.index();
        let n = self.throw;
        self.decisions += 1;
        self.throw = 0;
        if m.is_pass() {
            self.turn = self.turn.other(); // R2: no legal move ends the turn.
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
        if m.to == OFF {
            bits |= Effects::BEAR_OFF;
        } else {
            let landed = if m.tag == BACK {
                m.from - n
            } else {
                m.from + n
            };
            if landed == 27 {
                bits |= Effects::TRAP; // R7
            } else if self.men[1 - me] & bit(landed) != 0 {
                // R3: the opponent goes to the mover's square.
                self.men[1 - me] ^= bit(landed) | bit(m.from);
                bits |= Effects::SWAP;
            }
            self.men[me] |= bit(m.to);
        }
        // R2: 1, 4 and 5 throw again.
        let bonus = matches!(n, 1 | 4 | 5);
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
            return format!("{text:?} is not a move like 9-12, 28-off or pass");
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
        } else {
            let fwd = self.forward(&self.sides(), from, n);
            let back = self.backward(&self.sides(), from, n);
            match (fwd, back) {
                (Ok(m), _) => format!(
                    "with a throw of {n} the piece on {from} goes to {}",
                    self.square_name(m.to)
                ),
                (Err(w), Ok(_)) if legal.iter().any(|m| m.tag != BACK && !m.is_pass()) => format!(
                    "{}; backward moves are allowed only when no piece can move forward (R9)",
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
                (15, "the water returns pieces here (R7)"),
                (
                    26,
                    "must be landed on exactly; 5 bears off from here (R6, R8)",
                ),
                (27, "water: back to 15 (R7)"),
                (28, "bears off with exactly 3 (R8)"),
                (29, "bears off with exactly 2 (R8)"),
                (30, "bears off with exactly 1 (R8)"),
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
            "kendall5{}{} {} off={} turn={} throw={} dec={}",
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
            self.decisions
        )
    }
}

/// The checks of piece masks beyond [`track::check_two_colours`]: nothing on 27 (R7), not
/// both sides borne off.
fn check_men(men: [u32; 2]) -> Result<(), Error> {
    if (men[0] | men[1]) & bit(27) != 0 {
        return Err(Error::Position("square 27 is never occupied (R7)".into()));
    }
    if men[0] == 0 && men[1] == 0 {
        return Err(Error::Position(
            "both players cannot have borne off every piece".into(),
        ));
    }
    Ok(())
}

pub(crate) fn parse(options: &Options, tokens: &[&str]) -> Result<Kendall5, Error> {
    Kendall5::parse_body(options, tokens)
}
