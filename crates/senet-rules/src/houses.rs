//! `houses`: Senet of the Houses: Rebirth (15), Happiness (26), Water (27) (seed 002;
//! rulings H1-H13 in `shared/rulings.md`; explained in `docs/rules/houses.md`).
//!
//! Squares are numbered 1-30 along the S-shaped track (C1); a piece on square `s` is bit `s`
//! of its side's mask. Square 31 ([`OFF`]) is "borne off".

use crate::game::{
    binomial, BoardView, Census, Dist, Effects, Game, Move, MoveList, Player, Status, Throw, OFF,
};
use crate::options::{cap_option, OptionKind, OptionSpec, OptionValue, Options};
use crate::track::{self, bit, Fields};
use crate::{Error, RuleSet};

/// The sides (C2). The sheet names no colours, so senet calls them light and dark.
pub const SIDES: [crate::game::Side; 2] = track::LIGHT_DARK;

/// H2, H12: the throws of `sticks` sticks (C3). k marked sides (1 to `sticks`) move k with
/// weight C(sticks, k); no marked side moves `sticks + 1` with weight C(sticks, 0). The
/// weights add up to 2^sticks. `N` must be `sticks + 1` (checked at compile time).
const fn stick_throws<const N: usize>(sticks: u32) -> [(Throw, u32); N] {
    assert!(
        N == sticks as usize + 1,
        "one outcome per count of marked sides"
    );
    let mut table = [(Throw::single(0), 0); N];
    let mut k = 1;
    while k <= sticks {
        table[k as usize - 1] = (Throw::single(k as u8), binomial(sticks, k));
        k += 1;
    }
    table[N - 1] = (Throw::single(sticks as u8 + 1), binomial(sticks, 0));
    table
}

/// H2: four sticks.
const FOUR_STICKS: u32 = 4;
const FOUR: [(Throw, u32); FOUR_STICKS as usize + 1] = stick_throws(FOUR_STICKS);
/// H12: six sticks.
const SIX_STICKS: u32 = 6;
const SIX: [(Throw, u32); SIX_STICKS as usize + 1] = stick_throws(SIX_STICKS);

/// The default turn cap (C5): over twice the longest of 200,000 random games under any options
/// (453 decisions; mean 200, see `docs/rules/houses.md`).
const DEFAULT_CAP: u32 = 1000;

const OPTIONS: [OptionSpec; 4] = [
    OptionSpec {
        name: "swap",
        description: "landing on an unprotected opponent exchanges the two pieces instead of sending it back to the start (H3)",
        kind: OptionKind::Bool { default: false },
    },
    OptionSpec {
        name: "happiness_exits",
        description: "a piece landing on the House of Happiness (26) is borne off at once (H7)",
        kind: OptionKind::Bool { default: false },
    },
    OptionSpec {
        name: "six_sticks",
        description: "throw six sticks: 1-6 marked sides move 1-6, none marked moves 7; 1, 6 and 7 throw again (H12)",
        kind: OptionKind::Bool { default: false },
    },
    cap_option(DEFAULT_CAP),
];

/// H6: squares where an opposing piece cannot be landed on.
const SAFE: u32 = bit(15) | bit(26) | bit(28) | bit(29) | bit(30);

/// H9: landing on these squares by a move gives a bonus throw.
const BONUS_SQUARES: u32 = bit(15) | bit(28) | bit(29) | bit(30);

/// H7: the House of Happiness.
const HAPPINESS: u8 = 26;

/// Tag of a move that ends in the House of Water and goes on to 15 or below (H8).
const WATER: u8 = 1;

/// A `houses` position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Houses {
    men: [u32; 2],
    turn: Player,
    /// The throw in hand, 0 while a throw is pending.
    throw: u8,
    /// H1: the first move of the game must be the piece on 10.
    forced_ten: bool,
    swap: bool,
    happiness_exits: bool,
    six_sticks: bool,
    decisions: u32,
    cap: u32,
}

/// The masks every move of the side to move is checked against, computed once per position.
struct Sides {
    own: u32,
    opp: u32,
    /// Squares of the opponent's runs of three or more (H5; corners count, C1).
    block: u32,
    /// Opposing pieces with a neighbour of their colour (H5).
    prot: u32,
}

/// Why a piece cannot make a move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Why {
    FirstMoveIsTen,
    OnHouse(u8),
    PastThirty,
    Happiness,
    Blockade,
    OwnPiece(u8),
    Safe(u8),
    Protected(u8),
}

impl Why {
    fn text(self) -> String {
        match self {
            Why::FirstMoveIsTen => "the first move of the game must be the piece on 10 (H1)".into(),
            Why::OnHouse(s) => format!(
                "a piece on {s} moves only with a throw of {}, which bears it off (H10)",
                31 - s
            ),
            Why::PastThirty => {
                "from 26 only 1-4 move (to 27-30); nothing else passes 30 (H10)".into()
            }
            Why::Happiness => {
                "the House of Happiness (26) is occupied, so no piece can reach or pass it (H7)"
                    .into()
            }
            Why::Blockade => {
                "three or more consecutive opposing pieces cannot be jumped (H5)".into()
            }
            Why::OwnPiece(t) => format!("square {t} holds the mover's own piece (H4)"),
            Why::Safe(t) => format!("square {t} is safe and its piece cannot be taken (H6)"),
            Why::Protected(t) => format!(
                "the opposing piece on {t} stands beside another of its colour and cannot be taken (H5)"
            ),
        }
    }
}

impl Houses {
    /// The option specs.
    pub fn option_specs() -> &'static [OptionSpec] {
        &OPTIONS
    }

    /// The start position (H1, C2): the first player on 2, 4, 6, 8, 10, the second on the odd
    /// squares 1-9; the first move of the game must be the piece on 10.
    pub fn start(options: &Options) -> Houses {
        let odd = bit(1) | bit(3) | bit(5) | bit(7) | bit(9);
        Houses {
            men: [odd << 1, odd],
            turn: Player::First,
            throw: 0,
            forced_ten: true,
            swap: options.flag("swap"),
            happiness_exits: options.flag("happiness_exits"),
            six_sticks: options.flag("six_sticks"),
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
    /// opening (no forced move of the piece on 10: H1) and with no decision played: what an
    /// endgame solver enumerates. Fails on masks that no position has (two pieces on a
    /// square, a piece on 27: H8, on 26-30 with `happiness_exits`: H7, more than five
    /// pieces, both sides off).
    pub fn endgame(&self, men: [u32; 2], turn: Player) -> Result<Houses, Error> {
        track::check_two_colours(men, 5).map_err(Error::Position)?;
        check_men(men, self.happiness_exits)?;
        Ok(Houses {
            men,
            turn,
            throw: 0,
            forced_ten: false,
            decisions: 0,
            ..*self
        })
    }

    /// Whether the opening is over: the first move of the piece on 10 (H1) has been played.
    pub fn past_opening(&self) -> bool {
        !self.forced_ten
    }

    fn options(&self) -> Options {
        let mut o = Options::defaults(&OPTIONS);
        o.set("swap", OptionValue::Bool(self.swap));
        o.set("happiness_exits", OptionValue::Bool(self.happiness_exits));
        o.set("six_sticks", OptionValue::Bool(self.six_sticks));
        o.set("cap", OptionValue::Int(self.cap));
        o
    }

    fn sticks(&self) -> u32 {
        if self.six_sticks {
            SIX_STICKS
        } else {
            FOUR_STICKS
        }
    }

    /// H2, H12: one marked side, all marked, or none marked throws again.
    #[inline]
    fn bonus_throw(&self, n: u8) -> bool {
        let sticks = self.sticks() as u8;
        n == 1 || n == sticks || n == sticks + 1
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
        }
    }

    /// The move of the piece on `s` with a throw of `n` (always forward: H11).
    #[inline]
    fn forward(&self, k: &Sides, s: u8, n: u8) -> Result<Move, Why> {
        if s >= 28 {
            // H10: 28 moves only with 3, 29 with 2, 30 with 1, and that bears it off.
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
        if s == HAPPINESS {
            // H10: from 26, 1-4 reach 27-30; nothing else passes 30.
            return match n {
                // H8: the House of Water sends the piece to 15, or the nearest empty square
                // below it.
                1 => {
                    let occ = (k.own & !bit(HAPPINESS)) | k.opp;
                    let to = if occ & bit(15) == 0 {
                        15
                    } else {
                        track::highest_empty_below(occ, 15).unwrap_or(15)
                    };
                    Ok(Move {
                        from: s,
                        to,
                        die: n,
                        tag: WATER,
                    })
                }
                2..=4 => Self::land(k, s, s + n, n),
                _ => Err(Why::PastThirty),
            };
        }
        // H7: a move that would pass 26 stops on 26; an occupied 26 cannot be reached or
        // passed.
        let t = (s + n).min(HAPPINESS);
        if t == HAPPINESS && (k.own | k.opp) & bit(HAPPINESS) != 0 {
            return Err(Why::Happiness);
        }
        let m = Self::land(k, s, t, n)?;
        if t == HAPPINESS && self.happiness_exits {
            // H7, variant `happiness_exits`: landing on 26 bears the piece off.
            return Ok(Move { to: OFF, ..m });
        }
        Ok(m)
    }

    /// The rules of jumping and landing (H4-H6).
    #[inline]
    fn land(k: &Sides, s: u8, t: u8, n: u8) -> Result<Move, Why> {
        let (own, opp) = (k.own, k.opp);
        if k.block & track::between(s, t) != 0 {
            return Err(Why::Blockade); // H5: corners count (C1).
        }
        if own & bit(t) != 0 {
            return Err(Why::OwnPiece(t)); // H4
        }
        if opp & bit(t) != 0 {
            if SAFE & bit(t) != 0 {
                return Err(Why::Safe(t)); // H6
            }
            if k.prot & bit(t) != 0 {
                return Err(Why::Protected(t)); // H5
            }
        }
        Ok(Move {
            from: s,
            to: t,
            die: n,
            tag: 0,
        })
    }

    fn movable(&self) -> u32 {
        let own = self.men[self.turn.index()];
        if self.forced_ten {
            own & bit(10) // H1
        } else {
            own
        }
    }

    fn parse_body(options: &Options, tokens: &[&str]) -> Result<Houses, Error> {
        let Some((board, rest)) = tokens.split_first() else {
            return Err(Error::Position("the position lacks the board".into()));
        };
        let men = track::parse_board(board)?;
        let mut f = Fields::new(rest)?;
        track::check_off(f.need("off")?, men, 5)?;
        let turn = f.need_player("turn")?;
        let six = options.flag("six_sticks");
        let table: &[(Throw, u32)] = if six { &SIX } else { &FOUR };
        let throw = match f.need("throw")? {
            "-" => 0,
            t => {
                let t = Throw::parse(t).map_err(|e| Error::Position(e.message().into()))?;
                if !table.iter().any(|(o, _)| *o == t) {
                    return Err(Error::Position(format!(
                        "throw={t} is not a houses throw ({}) (H2, H12)",
                        if six { "1-7 with six_sticks" } else { "1-5" }
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
                    "field forced can only be 10 (H1), got {v:?}"
                )))
            }
        };
        let decisions = f.need_u32("dec")?;
        f.finish()?;
        check_men(men, options.flag("happiness_exits"))?;
        if forced_ten && men[turn.index()] & bit(10) == 0 {
            return Err(Error::Position(format!(
                "forced=10 needs a piece of player {turn} on 10 (H1)"
            )));
        }
        Ok(Houses {
            men,
            turn,
            throw,
            forced_ten,
            swap: options.flag("swap"),
            happiness_exits: options.flag("happiness_exits"),
            six_sticks: six,
            decisions,
            cap: options.int("cap"),
        })
    }
}

/// The checks of piece masks beyond [`track::check_two_colours`]: nothing on 27 (H8), nothing
/// on 26-30 with `happiness_exits` (H7), not both sides borne off.
fn check_men(men: [u32; 2], happiness_exits: bool) -> Result<(), Error> {
    if (men[0] | men[1]) & bit(27) != 0 {
        return Err(Error::Position(
            "square 27 is never occupied: a piece landing there goes to 15 at once (H8)".into(),
        ));
    }
    if happiness_exits && (men[0] | men[1]) & !(bit(HAPPINESS) - 1) != 0 {
        return Err(Error::Position(
            "with happiness_exits no piece can stand on 26-30: landing on 26 bears it off (H7)"
                .into(),
        ));
    }
    if men[0] == 0 && men[1] == 0 {
        return Err(Error::Position(
            "both players cannot have borne off every piece".into(),
        ));
    }
    Ok(())
}

impl Game for Houses {
    fn rules(&self) -> RuleSet {
        RuleSet::Houses
    }

    fn status(&self) -> Status {
        // H13: first to bear off all five wins; C5 for the cap.
        track::race_status(
            self.men,
            self.decisions,
            self.cap,
            self.throw != 0,
            self.turn,
        )
    }

    fn throw_dist(&self) -> Dist {
        if self.six_sticks {
            Dist {
                outcomes: &SIX,
                total: 1 << SIX_STICKS,
            }
        } else {
            Dist {
                outcomes: &FOUR,
                total: 1 << FOUR_STICKS,
            }
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
        let k = self.sides();
        let movable = self.movable();
        // Pieces whose throw ends below 26, decided at once with bit masks (the same rules as
        // `forward`; a test checks that they agree): no landing on an own piece (H4), a safe
        // (H6) or a protected opponent (H5), no jumping a run of three (H5).
        let bad = k.own | (k.opp & (SAFE | k.prot));
        for s in track::squares(track::steps(movable, n, HAPPINESS - 1, k.block, bad)) {
            moves.push(Move {
                from: s,
                to: s + n,
                die: n,
                tag: 0,
            });
        }
        // The rest piece by piece: moves stopped by 26 (H7), and pieces on 26, 28-30 (H10).
        let reach = movable & !(bit(HAPPINESS - n) - 1);
        for s in track::squares(reach) {
            if let Ok(m) = self.forward(&k, s, n) {
                moves.push(m);
            }
        }
        // H11, C4: no backward moves; no legal move forfeits the throw.
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
            self.turn = self.turn.other(); // H11: a forfeit passes the turn.
            return Effects {
                bits: Effects::FORFEIT,
                turn_continues: false,
            };
        }
        let mut bits = Effects::STEP;
        // H2, H12: 1, all marked and none marked throw again.
        let mut bonus = self.bonus_throw(n);
        self.men[me] &= !bit(m.from);
        if m.tag == WATER {
            // H8: drowning ends the turn; arriving on 15 this way gives no bonus either.
            bits |= Effects::TRAP;
            bonus = false;
            self.men[me] |= bit(m.to);
        } else if m.to == OFF {
            bits |= Effects::BEAR_OFF; // H10, or H7 with `happiness_exits`.
        } else {
            let hit = self.men[1 - me] & bit(m.to) != 0;
            if hit && self.swap {
                // H3, variant `swap`: the two pieces exchange squares.
                self.men[1 - me] ^= bit(m.to) | bit(m.from);
                bits |= Effects::SWAP;
            } else if hit {
                // H3: the opponent goes back to the start, the lowest-numbered empty square.
                self.men[1 - me] &= !bit(m.to);
                bits |= Effects::SENT_BACK;
            }
            self.men[me] |= bit(m.to);
            if hit && !self.swap {
                let occ = self.men[0] | self.men[1];
                self.men[1 - me] |= bit(track::lowest_empty(occ));
            }
            // H9: landing on 15, 28, 29 or 30 gives a bonus throw.
            bonus |= BONUS_SQUARES & bit(m.to) != 0;
        }
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
        let mut legal = MoveList::new();
        self.legal_moves(&mut legal);
        let list = legal
            .iter()
            .map(|&m| self.move_string(m))
            .collect::<Vec<_>>()
            .join(", ");
        let t = text.trim();
        let reason = if t.eq_ignore_ascii_case("pass") {
            "a throw is forfeited only when no move is legal (H11, C4)".to_string()
        } else {
            let mut parts = t.splitn(2, '-');
            let Some(from) = parts.next().and_then(|f| f.trim().parse::<u8>().ok()) else {
                return format!(
                    "{text:?} is not a move like 10-13, 28-off or pass. Legal moves: {list}"
                );
            };
            let to = parts.next().map(str::trim).and_then(|x| {
                if x.eq_ignore_ascii_case("off") {
                    Some(OFF)
                } else {
                    x.parse::<u8>().ok()
                }
            });
            if !(1..=30).contains(&from) || self.men[self.turn.index()] & bit(from) == 0 {
                format!("player {} has no piece on {from}", self.turn)
            } else if self.forced_ten && from != 10 {
                Why::FirstMoveIsTen.text()
            } else {
                match self.forward(&self.sides(), from, n) {
                    Ok(_) if to.is_some_and(|to| to < from) => {
                        "pieces never move backward (H11)".into()
                    }
                    Ok(m) => format!("the piece on {from} goes to {}", self.square_name(m.to)),
                    Err(w) => w.text(),
                }
            }
        };
        format!("{text} is illegal with a throw of {n}: {reason}. Legal moves: {list}")
    }

    fn progress(&self) -> [u32; 2] {
        self.men
            .map(|m| track::squares(m).map(u32::from).sum::<u32>() + 31 * (5 - m.count_ones()))
    }

    fn view(&self) -> BoardView {
        let happiness = if self.happiness_exits {
            "House of Happiness: every move stops here, and the piece is borne off (H7)"
        } else {
            "House of Happiness: safe; every move stops here; blocks all when occupied (H6, H7)"
        };
        let mut v = track::view(
            self.men,
            5,
            &[
                (15, "House of Rebirth: safe, bonus throw (H6, H9)"),
                (26, happiness),
                (27, "House of Water: back to 15, turn ends (H8)"),
                (
                    28,
                    "House of Three Truths: safe, bonus throw; leaves only with 3 (H6, H9, H10)",
                ),
                (
                    29,
                    "House of Ra Atum: safe, bonus throw; leaves only with 2 (H6, H9, H10)",
                ),
                (
                    30,
                    "House of Ra Horakhty: safe, bonus throw; leaves only with 1 (H6, H9, H10)",
                ),
            ],
        );
        if self.forced_ten {
            v.notes.push((
                "first move of the game".into(),
                "the piece on 10 (H1)".into(),
            ));
        }
        v
    }

    fn diagram(&self) -> String {
        let mut d = track::diagram(self.men, 5, &self.status(), self.in_hand());
        if self.forced_ten && matches!(self.status(), Status::Move(_) | Status::Throw(_)) {
            d.push_str("\nfirst move of the game (H1): the piece on 10");
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
            return Err("a piece stands on 27 (H8)".into());
        }
        if self.happiness_exits && (self.men[0] | self.men[1]) & !(bit(HAPPINESS) - 1) != 0 {
            return Err("a piece stands on 26-30 with happiness_exits (H7)".into());
        }
        Ok(())
    }

    fn position(&self) -> String {
        let opts = self.options().non_default_string();
        format!(
            "houses{}{} {} off={} turn={} throw={}{} dec={}",
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

pub(crate) fn parse(options: &Options, tokens: &[&str]) -> Result<Houses, Error> {
    Houses::parse_body(options, tokens)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::corpus;

    #[test]
    fn bit_mask_moves_agree_with_the_piece_by_piece_rules() {
        let mut checked = 0;
        for opts in [
            &[][..],
            &["swap"][..],
            &["happiness_exits"][..],
            &["six_sticks"][..],
        ] {
            let start = Houses::start(&Options::parse(&OPTIONS, opts, "houses").unwrap());
            for p in corpus(&start, 3, 3000, true) {
                for &(t, _) in p.throw_dist().outcomes {
                    let mut g = p;
                    g.set_throw_unchecked(t);
                    let (mut fast, mut slow) = (MoveList::new(), MoveList::new());
                    g.legal_moves(&mut fast);
                    let k = g.sides();
                    for s in track::squares(g.movable()) {
                        if let Ok(m) = g.forward(&k, s, g.throw) {
                            slow.push(m);
                        }
                    }
                    if slow.is_empty() {
                        slow.push(Move::PASS);
                    }
                    assert_eq!(fast, slow, "{}", g.position());
                    checked += 1;
                }
            }
        }
        assert!(checked > 50_000);
    }
}
