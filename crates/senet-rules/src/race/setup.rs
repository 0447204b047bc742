//! A race position as plain data: what the notation's parser (and an editor) produces, and
//! the check that turns it into a game or says what is wrong.

use super::*;

/// A position of a race sheet before it is checked, every field public. [`Race::try_from`]
/// checks it against the sheet's rules and names the first thing wrong; [`Race::setup`]
/// gives a game's own. The position string is this data written out (`docs/notation.md`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The options, made from the sheet's specs ([`Race::option_specs`]).
    pub options: Options,
    /// The squares of each player's pieces, bit `s` for square `s` (1-30), first player
    /// first; the pieces missing from the board are borne off.
    pub men: [u32; 2],
    /// The player to throw or move.
    pub turn: Player,
    /// The throw in hand, 0 while a throw is pending.
    pub throw: u8,
    /// Leftover steps of a bear-off still to be used or declined (S10), 0 if none.
    pub left: u8,
    /// Where the opening stands.
    pub opening: Opening,
    /// Decisions played so far (the turn cap counts them, C5).
    pub decisions: u32,
}

impl<S: Sheet> Race<S> {
    /// This position as plain data.
    pub fn setup(&self) -> Setup {
        Setup {
            options: self.options(),
            men: self.men,
            turn: self.turn,
            throw: self.throw,
            left: self.left,
            opening: self.opening,
            decisions: self.decisions,
        }
    }

    /// Reads the board and fields after the rule set's ID into a setup, checking what the
    /// text alone can say (the fields' syntax, the board against `off=`); the rest is
    /// [`Race::try_from`]'s.
    pub fn parse_setup(options: &Options, tokens: &[&str]) -> Result<Setup, Error> {
        let variant = variant_of::<S>(options)?;
        let sp = &S::rules(variant).spec;
        let tx = &sp.texts;
        let Some((board, rest)) = tokens.split_first() else {
            return Err(Error::Position("the position lacks the board".into()));
        };
        let men = track::parse_board(board)?;
        let mut f = Fields::new(rest)?;
        track::check_off(f.need("off")?, men, PIECES)?;
        let turn = f.need_player("turn")?;
        let throw = match f.need("throw")? {
            "-" => 0,
            t => {
                let t = Throw::parse(t).map_err(|e| Error::Position(e.message().into()))?;
                if !sp.throws.iter().any(|(o, _)| *o == t) {
                    return Err(Error::Position(fill(tx.bad_throw, &[("t", &t)])));
                }
                t.a
            }
        };
        let left = match (sp.leftover, f.get("left")) {
            (false, _) | (true, None) => 0,
            (true, Some(v)) => match v.parse::<u8>() {
                Ok(n) if n >= 1 && n < throw => n,
                _ => return Err(left_error(tx, &format!("{v:?}"), throw)),
            },
        };
        let opening = match (sp.opening, f.get("forced")) {
            (OpeningRule::None, _) | (_, None) => Opening::Done,
            (_, Some("10")) => Opening::Ten,
            (OpeningRule::TenThenNine, Some("9")) => Opening::Nine,
            (_, Some(v)) => {
                return Err(Error::Position(fill(
                    tx.forced_field,
                    &[("v", &format!("{v:?}"))],
                )))
            }
        };
        let decisions = f.need_u32("dec")?;
        f.finish()?;
        Ok(Setup {
            options: options.clone(),
            men,
            turn,
            throw,
            left,
            opening,
            decisions,
        })
    }

    /// Reads the board and fields after the rule set's ID.
    pub(crate) fn parse(options: &Options, tokens: &[&str]) -> Result<Race<S>, Error> {
        Race::try_from(Race::<S>::parse_setup(options, tokens)?)
    }
}

fn left_error(tx: &Texts, v: &str, throw: u8) -> Error {
    let shown = if throw == 0 {
        "-".to_string()
    } else {
        throw.to_string()
    };
    Error::Position(fill(tx.left_field, &[("v", &v), ("throw", &shown)]))
}

impl<S: Sheet> TryFrom<Setup> for Race<S> {
    type Error = Error;

    /// Checks a setup against the sheet's rules: options of this sheet, a possible throw,
    /// leftover steps and an opening the sheet has and the board allows, pieces on distinct
    /// squares 1-30 (none on 27, K8 R7 H8 S8), at most five a side, not both sides off.
    fn try_from(s: Setup) -> Result<Race<S>, Error> {
        if s.options.specs() != S::OPTIONS {
            let names: Vec<_> = s.options.specs().iter().map(|o| o.name).collect();
            return Err(Error::Options(format!(
                "the options ({}) are not those of {}",
                names.join(", "),
                S::NAME
            )));
        }
        let variant = variant_of::<S>(&s.options)?;
        let cap = s.options.int("cap")?;
        let sp = &S::rules(variant).spec;
        let tx = &sp.texts;
        let (men, turn, throw, left, opening) = (s.men, s.turn, s.throw, s.left, s.opening);
        if throw != 0 && !sp.throws.iter().any(|(o, _)| o.a == throw && o.b == 0) {
            return Err(Error::Position(fill(tx.bad_throw, &[("t", &throw)])));
        }
        if left != 0 && !(sp.leftover && left < throw) {
            if !sp.leftover {
                return Err(Error::Position(format!(
                    "{} has no leftover steps: left must be 0, got {left}",
                    S::NAME
                )));
            }
            return Err(left_error(tx, &format!("\"{left}\""), throw));
        }
        let opening_ok = match opening {
            Opening::Done => true,
            Opening::Ten => sp.opening != OpeningRule::None,
            Opening::Nine => sp.opening == OpeningRule::TenThenNine,
        };
        if !opening_ok {
            return Err(Error::Position(format!(
                "{} has no such opening: {opening:?}",
                S::NAME
            )));
        }
        track::check_two_colours(men, PIECES).map_err(Error::Position)?;
        check_men(sp, men)?;
        let own = men[turn.index()];
        if left != 0 && (own & ROW_ONE != 0 || own.count_ones() == PIECES) {
            return Err(Error::Position(fill(
                tx.left_needs,
                &[("left", &left), ("turn", &turn)],
            )));
        }
        if opening == Opening::Ten {
            let bad = match sp.opening {
                OpeningRule::TenThenNine => {
                    turn != Player::First
                        || throw != 1
                        || left != 0
                        || own & bit(10) == 0
                        || (men[0] | men[1]) & bit(11) != 0
                }
                _ => own & bit(10) == 0,
            };
            if bad {
                return Err(Error::Position(fill(tx.forced_needs, &[("turn", &turn)])));
            }
        }
        Ok(Race {
            men,
            turn,
            throw,
            left,
            opening,
            variant,
            decisions: s.decisions,
            cap,
            sheet: PhantomData,
        })
    }
}
