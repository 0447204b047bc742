//! The evaluator of the race games on the 30-square track (`kendall`, `kendall5`, `senat`,
//! `houses`): a logistic function of the difference of
//! per-side features, with weights trained by TD(λ) self-play (`senet_coach::train`).
//!
//! Features of one side (see [`FEATURES`]):
//! - progress: one input per square 1-30 (a learned value for each square, so the water
//!   at 27, the houses 28-30 and the waiting square 26 get their true worth) and one for
//!   pieces borne off;
//! - safety: pieces protected by a neighbour of their colour;
//! - blockades: pieces in runs that the opponent cannot pass;
//! - threats: the expected swing (in squares) of the opponent's best attack with its next
//!   throw, for the side not to throw ("now") and the side to throw ("later");
//! - tempo: being the side to throw.
//!
//! What the terms need of the rules (throws, safe squares, how blockades and the squares
//! 26-30 work, what a hit does) is a [`TrackSpec`], read from the game's
//! [`senet_rules::race::RaceSpec`] (one per sheet and choice of options), so a game is valued
//! under its own options ([`TrackGame::track_spec`]).

use crate::eval::{sigmoid, Evaluator};
use senet_rules::race::{Gate, Hit, RaceRules, RaceSpec, PIECES};
use senet_rules::track::{between, bit, lowest_empty, protected, runs, runs3_in_rows};
use senet_rules::{houses, kendall, kendall5, senat};
use senet_rules::{Game, Houses, Kendall, Kendall5, Player, Senat, Status};

/// Number of features of one side.
pub const NF: usize = 37;

/// Names of the features, for reports and the trainer.
pub const FEATURES: [&str; NF] = [
    "sq1",
    "sq2",
    "sq3",
    "sq4",
    "sq5",
    "sq6",
    "sq7",
    "sq8",
    "sq9",
    "sq10",
    "sq11",
    "sq12",
    "sq13",
    "sq14",
    "sq15",
    "sq16",
    "sq17",
    "sq18",
    "sq19",
    "sq20",
    "sq21",
    "sq22",
    "sq23",
    "sq24",
    "sq25",
    "sq26",
    "sq27",
    "sq28",
    "sq29",
    "sq30",
    "off",
    "protected",
    "blockade",
    "exposed_now",
    "exposed_later",
    "tempo",
    "behind_blockade",
];

pub(crate) const F_OFF: usize = 30;
pub(crate) const F_PROTECTED: usize = 31;
pub(crate) const F_BLOCKADE: usize = 32;
pub(crate) const F_EXPOSED_NOW: usize = 33;
pub(crate) const F_EXPOSED_LATER: usize = 34;
pub(crate) const F_TEMPO: usize = 35;
pub(crate) const F_BEHIND: usize = 36;

/// The bits set in `m`, which has few (a side's five pieces at most): faster than
/// `count_ones` where the processor has no population count (the baseline x86-64 target).
#[inline(always)]
fn few(mut m: u32) -> u32 {
    let mut n = 0;
    while m != 0 {
        m &= m - 1;
        n += 1;
    }
    n
}

/// Throw values are below this (six sticks, none marked, move 7: H12).
const MAX_THROW: usize = 8;

/// `PASSES[d + 40]`: the bits below `d` for `0 < d < 7`, else none ([`TrackSpec::exposure`];
/// `d` runs from -38 to 37).
const PASSES: [u32; 128] = {
    let mut t = [0u32; 128];
    let mut d = 1;
    while d < 7 {
        t[d + 40] = (1 << d) - 1;
        d += 1;
    }
    t
};

/// The squares 28-30, whose pieces the evaluator does not count as protected (they leave
/// the board soon, and on most sheets they are safe or frozen anyway).
const LAST_THREE: u32 = bit(28) | bit(29) | bit(30);

/// What the evaluator knows of a track rule set's movement: facts of the game's
/// [`RaceSpec`] (one per sheet and choice of options), read from it by [`TrackSpec::new`].
#[derive(Debug)]
pub struct TrackSpec {
    /// Rule-set ID, for reports and weights files.
    pub id: &'static str,
    /// The throw values with their probabilities, the first [`TrackSpec::n_throws`] entries.
    pub throws: [(u8, f64); MAX_THROW],
    /// The number of throw values.
    pub n_throws: usize,
    /// Squares where a piece cannot be attacked.
    pub safe: u32,
    /// Whether blockades are broken at the corners (K6) or run across them (R5).
    pub blockade_in_rows: bool,
    /// What landing on an unprotected opponent does. The exposure term values both kinds as
    /// the swing of a swap (the attacker gains `k`, the defender loses `k`): the trained
    /// weights of `houses`, whose default sends the piece back, were fitted to that term.
    pub hit: Hit,
    /// Pieces per side.
    pub pieces: u32,
    /// For each throw value `k`, the squares `t` that a forward move by `k` from a square
    /// `t - k` below 28 lands on ([`RaceRules::landing`]; attacks from the houses 28-30 are
    /// not counted). A move that the 26 gate stops short lands on 26, which is then always
    /// safe (checked by [`TrackSpec::new`]).
    pub landing: [u32; MAX_THROW],
    /// For each square `t`, the throw values `k` (as bit `7 - k`) whose forward moves land
    /// on `t`: [`TrackSpec::landing`] by square.
    lands_on: [u32; 32],
    /// For each set of throw values (bit `7 - k` for `k`), the sum of their swings `2 k p`
    /// over the throws in throw order: what a loop over the throws adding the swings of
    /// those with an attack gives, the same numbers ([`TrackSpec::exposure`]).
    swing: [f64; 1 << (MAX_THROW - 1)],
}

impl TrackSpec {
    /// The evaluator's facts of a sheet under one choice of its options.
    pub const fn new(spec: RaceSpec) -> TrackSpec {
        assert!(spec.throws.len() <= MAX_THROW);
        // Moves stopped short by the gate (which land on 26, not on `s + k`) can attack
        // nothing only while 26 is safe.
        assert!(!matches!(spec.gate, Gate::Stop) || spec.safe & bit(26) != 0);
        let rules = RaceRules::new(spec);
        let mut throws = [(0u8, 0.0f64); MAX_THROW];
        let mut i = 0;
        while i < spec.throws.len() {
            let (t, w) = spec.throws[i];
            throws[i] = (t.a, w as f64 / spec.throw_total as f64);
            i += 1;
        }
        let mut landing = [0u32; MAX_THROW];
        let mut k = 1;
        while k < MAX_THROW {
            let mut s = 1u8;
            while s < 28 {
                if let Some(t) = rules.landing(s, k as u8) {
                    if t == s + k as u8 {
                        landing[k] |= bit(t);
                    }
                }
                s += 1;
            }
            k += 1;
        }
        let mut lands_on = [0u32; 32];
        let mut t = 0;
        while t < 32 {
            let mut k = 1;
            while k < MAX_THROW {
                if landing[k] >> t & 1 != 0 {
                    lands_on[t] |= 1 << (7 - k);
                }
                k += 1;
            }
            t += 1;
        }
        let mut swing = [0.0f64; 1 << (MAX_THROW - 1)];
        let mut set = 0;
        while set < swing.len() {
            let (mut e, mut i) = (0.0f64, 0);
            while i < spec.throws.len() {
                let k = throws[i].0;
                if set >> (7 - k) & 1 != 0 {
                    e += throws[i].1 * 2.0 * k as f64;
                }
                i += 1;
            }
            swing[set] = e;
            set += 1;
        }
        TrackSpec {
            id: spec.rules.id(),
            throws,
            n_throws: spec.throws.len(),
            safe: spec.safe,
            blockade_in_rows: !spec.blockade_turns_corners,
            hit: spec.hit,
            pieces: PIECES,
            landing,
            lands_on,
            swing,
        }
    }

    /// The throw values with their probabilities.
    #[inline]
    pub fn throws(&self) -> &[(u8, f64)] {
        &self.throws[..self.n_throws]
    }
}

/// `kendall5` (R1-R10).
pub static KENDALL5_SPEC: TrackSpec = TrackSpec::new(kendall5::SPEC);

/// `kendall` (K1-K11).
pub static KENDALL_SPEC: TrackSpec = TrackSpec::new(kendall::SPEC);

/// `senat` with its default options.
pub static SENAT_SPEC: TrackSpec = TrackSpec::new(senat::spec(0));

/// `senat` under each choice of its options (index: [`senet_rules::race::Race::variant`]; `die` changes the
/// throws, S2).
pub static SENAT_SPECS: [TrackSpec; 4] = [
    TrackSpec::new(senat::spec(0)),
    TrackSpec::new(senat::spec(1)),
    TrackSpec::new(senat::spec(2)),
    TrackSpec::new(senat::spec(3)),
];

/// `houses` with its default options.
pub static HOUSES_SPEC: TrackSpec = TrackSpec::new(houses::spec(0));

/// `houses` under each choice of its options (index: [`senet_rules::race::Race::variant`]; `swap` changes what
/// a hit does, H3, `six_sticks` the throws, H12).
pub static HOUSES_SPECS: [TrackSpec; 8] = [
    TrackSpec::new(houses::spec(0)),
    TrackSpec::new(houses::spec(1)),
    TrackSpec::new(houses::spec(2)),
    TrackSpec::new(houses::spec(3)),
    TrackSpec::new(houses::spec(4)),
    TrackSpec::new(houses::spec(5)),
    TrackSpec::new(houses::spec(6)),
    TrackSpec::new(houses::spec(7)),
];

impl TrackSpec {
    /// The squares of `men` the opponent cannot pass.
    #[inline]
    fn blockade(&self, men: u32) -> u32 {
        if self.blockade_in_rows {
            runs3_in_rows(men)
        } else {
            runs(men, 3)
        }
    }

    /// The expected swing, in squares, of the best forward attack the side `att` can make on
    /// `def` with one throw (an exchange moves the attacker up by k and the defender back
    /// by k).
    ///
    /// Piece by piece of the defender's: the throws that attack a piece on `t` are the
    /// distances to the attacker's pieces below it (at most 7), less those that do not land
    /// on `t` and those that pass the defender's blockade; the swings of all the throws that
    /// attack something come from a table, summed in throw order as a loop over the throws
    /// would sum them.
    #[inline]
    fn exposure(&self, att: u32, def: u32) -> f64 {
        let mut vulnerable = def & !protected(def) & !self.safe;
        if vulnerable == 0 {
            return 0.0;
        }
        let wall = self.blockade(def);
        // The defender's blockade is one run a..=z (five pieces make at most one run of
        // three); another shape (more pieces) takes the general test.
        let run = wall.checked_shr(wall.trailing_zeros()).unwrap_or(0);
        if run & run.wrapping_add(1) != 0 {
            return self.exposure_by_square(att, vulnerable, wall);
        }
        // An attack by k on t passes the run when t - k < z < t, i.e. for t > z when bit
        // 7 - k <= 6 + z - t: the bits below d = 7 + z - t, for 0 < d < 7 (none below t, none
        // without a blockade; t is never in the run: its pieces are protected).
        let z7 = if wall == 0 {
            -8
        } else {
            38 - wall.leading_zeros() as i32
        };
        let below = (att as u64) << 7;
        let mut ks = 0u32;
        while vulnerable != 0 {
            let t = vulnerable.trailing_zeros();
            vulnerable &= vulnerable - 1;
            let d = z7 - t as i32;
            ks |= (below >> t) as u32
                & self.lands_on[t as usize & 31]
                & !PASSES[(d + 40) as usize & 127];
        }
        self.swing[(ks & 0x7F) as usize]
    }

    /// [`TrackSpec::exposure`] square by square, for a blockade of any shape.
    #[cold]
    fn exposure_by_square(&self, att: u32, vulnerable: u32, wall: u32) -> f64 {
        let mut ks = 0u32;
        for &(k, _) in self.throws() {
            ks |= ((self.attacked(att, vulnerable, wall, k) != 0) as u32) << (7 - k);
        }
        self.swing[(ks & 0x7F) as usize]
    }

    /// The squares of `vulnerable` that a forward move by `k` from a square of `att` lands on
    /// without passing `wall` (the defender's blockade).
    #[inline]
    fn attacked(&self, att: u32, vulnerable: u32, wall: u32, k: u8) -> u32 {
        let mut cand = (att << k) & vulnerable & self.landing[k as usize & 7];
        let mut c = cand;
        while c != 0 {
            let t = c.trailing_zeros() as u8;
            c &= c - 1;
            if wall & between(t - k, t) != 0 {
                cand &= !bit(t);
            }
        }
        cand
    }

    /// The expected swing, in squares, of the best forward attack the side `att` can make on
    /// `def` with one throw where a hit sends the piece back (H3): the attacker's `k` plus the
    /// squares the defender's piece on `t` loses by going back to the lowest empty square
    /// after the move; for each throw the attack with the largest swing counts. The endgame
    /// networks' exposure on such rule sets ([`TrackSpec::end_terms`]).
    fn sent_back_exposure(&self, att: u32, def: u32) -> f64 {
        let vulnerable = def & !protected(def) & !self.safe;
        if vulnerable == 0 {
            return 0.0;
        }
        let wall = self.blockade(def);
        let occupied = att | def;
        let mut e = 0.0;
        for &(k, p) in self.throws() {
            let mut cand = self.attacked(att, vulnerable, wall, k);
            let mut best = 0i32;
            while cand != 0 {
                let t = cand.trailing_zeros() as u8;
                cand &= cand - 1;
                // After the move the mover's square is empty and `t` is the mover's.
                let to = lowest_empty(occupied & !bit(t - k));
                best = best.max(k as i32 + t as i32 - to as i32);
            }
            e += p * best as f64;
        }
        e
    }

    /// [`TrackSpec::terms`] with the exposure valued as the rule set's hit does
    /// ([`TrackSpec::hit`]): the same numbers where a hit is a swap; where it sends the piece
    /// back (`houses`, H3) the exposure counts the squares the piece loses
    /// (`TrackSpec::sent_back_exposure`). The endgame networks' inputs (the main networks
    /// were trained on [`TrackSpec::terms`]).
    #[inline]
    pub fn end_terms(&self, own: u32, opp: u32) -> [f64; 4] {
        match self.hit {
            Hit::Swap => self.terms(own, opp),
            Hit::SendBack => self.terms_with(own, opp, |a, d| self.sent_back_exposure(a, d)),
        }
    }

    /// The board terms of the side owning `own` against `opp`: pieces protected by a
    /// neighbour, pieces in a blockade, opposing pieces stuck behind it (within six squares
    /// of its first piece), and the expected swing of the opponent's best attack, in tens of
    /// squares.
    #[inline(always)]
    pub fn terms(&self, own: u32, opp: u32) -> [f64; 4] {
        self.terms_with(own, opp, |a, d| self.exposure(a, d))
    }

    /// [`TrackSpec::terms`] with the expected swing of an attack given by `exposure(att,
    /// def)`, in squares.
    #[inline(always)]
    fn terms_with(&self, own: u32, opp: u32, exposure: impl FnOnce(u32, u32) -> f64) -> [f64; 4] {
        let protected = few(protected(own) & !LAST_THREE) as f64;
        let wall = self.blockade(own);
        let (mut behind, mut walled) = (0.0, 0.0);
        if wall != 0 {
            let first = wall.trailing_zeros();
            behind =
                few(opp & ((1u32 << first) - 1) & !((1u32 << first.saturating_sub(6)) - 1)) as f64;
            walled = few(wall) as f64;
        }
        let exposure = exposure(opp, own) / 10.0;
        [protected, walled, behind, exposure]
    }

    /// The features of the side owning `own` against `opp`; `to_throw` says whether this side
    /// throws next.
    #[inline]
    pub fn side_features(&self, own: u32, opp: u32, to_throw: bool, f: &mut [f64; NF]) {
        let mut m = own;
        while m != 0 {
            let s = m.trailing_zeros() as usize;
            m &= m - 1;
            f[s - 1] += 1.0;
        }
        f[F_OFF] += (self.pieces - own.count_ones()) as f64;
        let [protected, wall, behind, x] = self.terms(own, opp);
        f[F_PROTECTED] += protected;
        f[F_BLOCKADE] += wall;
        f[F_BEHIND] += behind;
        if to_throw {
            f[F_EXPOSED_LATER] += x;
            f[F_TEMPO] += 1.0;
        } else {
            f[F_EXPOSED_NOW] += x;
        }
    }

    /// The feature difference first player minus second player.
    #[inline]
    pub fn features(&self, men: [u32; 2], thrower: Player) -> [f64; NF] {
        let mut a = [0.0; NF];
        let mut b = [0.0; NF];
        self.side_features(men[0], men[1], thrower == Player::First, &mut a);
        self.side_features(men[1], men[0], thrower == Player::Second, &mut b);
        for (x, y) in a.iter_mut().zip(&b) {
            *x -= y;
        }
        a
    }
}

/// A logistic evaluator over [`TrackSpec`] features: `sigmoid(bias + w · (F(first) - F(second)))`.
#[derive(Clone, Debug)]
pub struct TrackEval {
    /// The movement rules of the default options, for [`TrackEval::value`]; a game is valued
    /// under its own options' rules ([`TrackGame::track_spec`]).
    pub spec: &'static TrackSpec,
    /// Feature weights.
    pub w: [f64; NF],
    /// The first player's advantage.
    pub bias: f64,
    /// Name for reports.
    pub label: &'static str,
}

impl TrackEval {
    /// The value of a feature difference.
    #[inline]
    pub fn value_of(&self, f: &[f64; NF]) -> f64 {
        let z: f64 = self.w.iter().zip(f).map(|(w, x)| w * x).sum();
        sigmoid(self.bias + z)
    }

    /// The estimated chance that the first player wins, with `thrower` to throw, under the
    /// rules of [`TrackEval::spec`]. The same as `value_of(&spec.features(..))`, without
    /// building the feature vectors.
    #[inline]
    pub fn value(&self, men: [u32; 2], thrower: Player) -> f64 {
        self.value_in(self.spec, men, thrower)
    }

    /// [`TrackEval::value`] under the rules `sp` (a game's options: [`TrackGame::track_spec`]).
    #[inline]
    pub fn value_in(&self, sp: &TrackSpec, men: [u32; 2], thrower: Player) -> f64 {
        let w = &self.w;
        let side = |own: u32, opp: u32, to_throw: bool| -> f64 {
            let mut z = 0.0;
            let mut m = own;
            while m != 0 {
                z += w[m.trailing_zeros() as usize - 1];
                m &= m - 1;
            }
            z += w[F_OFF] * (sp.pieces - own.count_ones()) as f64;
            let [protected, wall, behind, x] = sp.terms(own, opp);
            z += w[F_PROTECTED] * protected + w[F_BLOCKADE] * wall + w[F_BEHIND] * behind;
            if to_throw {
                z += w[F_EXPOSED_LATER] * x + w[F_TEMPO];
            } else {
                z += w[F_EXPOSED_NOW] * x;
            }
            z
        };
        let first = thrower == Player::First;
        sigmoid(self.bias + side(men[0], men[1], first) - side(men[1], men[0], !first))
    }

    /// Hand-set starting weights: a pip count with a bonus for safety and a penalty for
    /// exposure (the trainer starts here).
    pub const fn hand(spec: &'static TrackSpec) -> TrackEval {
        let mut w = [0.0; NF];
        let mut s = 0;
        while s < 30 {
            w[s] = 0.08 * (s + 1) as f64;
            s += 1;
        }
        w[F_OFF] = 0.08 * 33.0;
        w[F_PROTECTED] = 0.1;
        w[F_BLOCKADE] = 0.05;
        w[F_BEHIND] = 0.1;
        w[F_EXPOSED_NOW] = -0.25;
        w[F_EXPOSED_LATER] = -0.1;
        w[F_TEMPO] = 0.15;
        TrackEval {
            spec,
            w,
            bias: 0.0,
            label: "track-hand",
        }
    }

    /// The player to throw (or move) in `g`.
    pub fn thrower<G: Game>(g: &G) -> Player {
        match g.status() {
            Status::Throw(p) | Status::Move(p) => p,
            Status::Over(_) => Player::First,
        }
    }
}

impl<G: TrackGame> Evaluator<G> for TrackEval {
    #[inline]
    fn eval(&self, g: &G) -> f64 {
        self.value_in(g.track_spec(), g.masks(), Self::thrower(g))
    }
    fn name(&self) -> &'static str {
        self.label
    }
}

/// A rule set played on the 30-square track with two piece masks, which [`TrackEval`] and
/// the trainer can read.
pub trait TrackGame: Game {
    /// The squares of each player's pieces (bit `s` for square `s`), first player first.
    fn masks(&self) -> [u32; 2];
    /// The movement rules under the default options (what the trained weights were fitted
    /// under).
    fn spec() -> &'static TrackSpec;
    /// The movement rules under this game's options.
    fn track_spec(&self) -> &'static TrackSpec;
}

impl TrackGame for Kendall5 {
    fn masks(&self) -> [u32; 2] {
        self.men()
    }
    fn spec() -> &'static TrackSpec {
        &KENDALL5_SPEC
    }
    fn track_spec(&self) -> &'static TrackSpec {
        &KENDALL5_SPEC
    }
}

impl TrackGame for Kendall {
    fn masks(&self) -> [u32; 2] {
        self.men()
    }
    fn spec() -> &'static TrackSpec {
        &KENDALL_SPEC
    }
    fn track_spec(&self) -> &'static TrackSpec {
        &KENDALL_SPEC
    }
}

impl TrackGame for Senat {
    fn masks(&self) -> [u32; 2] {
        self.men()
    }
    fn spec() -> &'static TrackSpec {
        &SENAT_SPEC
    }
    #[inline]
    fn track_spec(&self) -> &'static TrackSpec {
        &SENAT_SPECS[self.variant() as usize & 3]
    }
}

impl TrackGame for Houses {
    fn masks(&self) -> [u32; 2] {
        self.men()
    }
    fn spec() -> &'static TrackSpec {
        &HOUSES_SPEC
    }
    #[inline]
    fn track_spec(&self) -> &'static TrackSpec {
        &HOUSES_SPECS[self.variant() as usize & 7]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluator;
    use crate::{dispatch, weights, EvalKind};
    use senet_rules::AnyGame;

    /// [`TrackSpec::exposure`] as it was written before the table: a loop over the throws,
    /// square by square over the attacks.
    fn loop_exposure(sp: &TrackSpec, att: u32, def: u32) -> f64 {
        let vulnerable = def & !protected(def) & !sp.safe;
        if vulnerable == 0 {
            return 0.0;
        }
        let wall = sp.blockade(def);
        let mut e = 0.0;
        for &(k, p) in sp.throws() {
            let mut cand = (att << k) & vulnerable & sp.landing[k as usize & 7];
            if wall != 0 && cand != 0 {
                let mut c = cand;
                while c != 0 {
                    let t = c.trailing_zeros() as u8;
                    c &= c - 1;
                    if wall & between(t - k, t) != 0 {
                        cand &= !bit(t);
                    }
                }
            }
            e += (p * 2.0 * k as f64) * (cand != 0) as u32 as f64;
        }
        e
    }

    #[test]
    fn exposure_is_the_loop_over_the_throws_to_the_bit() {
        let mut specs: Vec<&TrackSpec> = vec![&KENDALL5_SPEC, &KENDALL_SPEC];
        specs.extend(SENAT_SPECS.iter());
        specs.extend(HOUSES_SPECS.iter());
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for sp in specs {
            for round in 0..40_000 {
                // Up to five pieces a side (seven now and then: blockades of any shape), on
                // distinct squares 1-30; runs of neighbours are common.
                let most = if round % 10 == 0 { 7 } else { 5 };
                let (mut a, mut d) = (0u32, 0u32);
                for side in 0..2 {
                    let n = 1 + next() % most;
                    let mut s = (1 + next() % 30) as u8;
                    for _ in 0..n {
                        if next() % 3 != 0 {
                            s = (1 + next() % 30) as u8;
                        } else {
                            s = s % 30 + 1;
                        }
                        if (a | d) & bit(s) == 0 {
                            if side == 0 {
                                a |= bit(s);
                            } else {
                                d |= bit(s);
                            }
                        }
                    }
                }
                assert_eq!(
                    sp.exposure(a, d).to_bits(),
                    loop_exposure(sp, a, d).to_bits(),
                    "{} {a:#x} {d:#x}",
                    sp.id
                );
            }
        }
    }

    /// The landing table the evaluator wrote out before it read the rules (issue 17): 27 is
    /// never a landing square, the houses 28-30 only bear off, and with `stop_at_26` nothing
    /// passes 26.
    fn old_landing(stop_at_26: bool) -> [u32; MAX_THROW] {
        let mut a = [0u32; MAX_THROW];
        for (k, a) in a.iter_mut().enumerate().skip(1) {
            for t in k + 1..=30 {
                let s = t - k;
                if s < 28 && t != 27 && (!stop_at_26 || s >= 26 || t <= 26) {
                    *a |= 1 << t;
                }
            }
        }
        a
    }

    /// What the four default specs were when written out here.
    #[test]
    fn the_default_specs_read_from_the_rules_are_the_ones_written_here_before() {
        let sticks = |last: u8| {
            vec![
                (1, 4.0 / 16.0),
                (2, 6.0 / 16.0),
                (3, 4.0 / 16.0),
                (4, 1.0 / 16.0),
                (last, 1.0 / 16.0),
            ]
        };
        // The spec, its ID, throws, safe squares, blockades in rows, the gate stops at 26.
        type Case = (
            &'static TrackSpec,
            &'static str,
            Vec<(u8, f64)>,
            u32,
            bool,
            bool,
        );
        let cases: [Case; 4] = [
            (&KENDALL5_SPEC, "kendall5", sticks(5), 0, false, true),
            (
                &KENDALL_SPEC,
                "kendall",
                sticks(6),
                bit(15) | bit(26) | bit(28) | bit(29),
                true,
                true,
            ),
            (
                &SENAT_SPEC,
                "senat",
                sticks(6),
                bit(26) | bit(28) | bit(29),
                false,
                false,
            ),
            (
                &HOUSES_SPEC,
                "houses",
                sticks(5),
                bit(15) | bit(26) | bit(28) | bit(29) | bit(30),
                false,
                true,
            ),
        ];
        for (spec, id, throws, safe, in_rows, stop) in cases {
            assert_eq!(spec.id, id);
            assert_eq!(spec.throws(), &throws[..], "{id}");
            assert_eq!(spec.safe, safe, "{id}");
            assert_eq!(spec.blockade_in_rows, in_rows, "{id}");
            assert_eq!(spec.pieces, 5, "{id}");
            assert_eq!(spec.landing, old_landing(stop), "{id}");
        }
        // The specs of the default options among the per-option ones are the same.
        for (a, b) in [
            (&SENAT_SPECS[0], &SENAT_SPEC),
            (&HOUSES_SPECS[0], &HOUSES_SPEC),
        ] {
            assert_eq!(format!("{a:?}"), format!("{b:?}"));
        }
    }

    /// Every choice of options has its spec, and a game with those options is valued with it.
    #[test]
    fn every_choice_of_options_has_its_spec() {
        for v in 0..8u8 {
            let g = AnyGame::new(
                senet_rules::RuleSet::Houses,
                &[
                    format!("swap={}", v & 1 != 0),
                    format!("happiness_exits={}", v & 2 != 0),
                    format!("six_sticks={}", v & 4 != 0),
                ],
            )
            .unwrap();
            let AnyGame::Houses(g) = g else { panic!() };
            assert_eq!(*g.spec(), houses::spec(v));
            assert!(std::ptr::eq(g.track_spec(), &HOUSES_SPECS[v as usize]));
        }
        for v in 0..4u8 {
            let g = AnyGame::new(
                senet_rules::RuleSet::Senat,
                &[
                    format!("die={}", v & 1 != 0),
                    format!("score={}", v & 2 != 0),
                ],
            )
            .unwrap();
            let AnyGame::Senat(g) = g else { panic!() };
            assert_eq!(*g.spec(), senat::spec(v));
            assert!(std::ptr::eq(g.track_spec(), &SENAT_SPECS[v as usize]));
        }
    }

    #[test]
    fn there_are_as_many_specs_as_choices_of_options() {
        let flags = |specs: &[senet_rules::OptionSpec]| {
            specs
                .iter()
                .filter(|o| matches!(o.kind, senet_rules::OptionKind::Bool { .. }))
                .count()
        };
        assert_eq!(SENAT_SPECS.len(), 1 << flags(Senat::option_specs()));
        assert_eq!(HOUSES_SPECS.len(), 1 << flags(Houses::option_specs()));
    }

    /// A position of `rules` with `options`, past the opening, the pieces on `men`.
    fn game(rules: senet_rules::RuleSet, options: &[&str], men: [u32; 2]) -> AnyGame {
        let mut g = AnyGame::new(rules, options).unwrap();
        match &mut g {
            AnyGame::Senat(s) => *s = s.endgame(men, Player::First).unwrap(),
            AnyGame::Houses(h) => *h = h.endgame(men, Player::First).unwrap(),
            _ => unreachable!(),
        }
        g
    }

    /// The value of every evaluator kind of the track games for `g`.
    fn values(g: &AnyGame) -> Vec<f64> {
        [EvalKind::Tuned, EvalKind::Linear, EvalKind::Hand]
            .into_iter()
            .map(|k| dispatch!(g, k, gg, e => e.eval(gg)))
            .collect()
    }

    /// senat's `die` (S2): 1, 2, 3, 4, 6 each with chance 1/5. The second player's piece on
    /// 16 is exposed to the first player's on 10 only by a 6 (29 is safe): 1/16 with coins,
    /// 1/5 with the die.
    #[test]
    fn senat_die_throws_are_the_evaluators_throws() {
        let die = &SENAT_SPECS[1];
        assert_eq!(
            die.throws(),
            &[(1, 0.2), (2, 0.2), (3, 0.2), (4, 0.2), (6, 0.2)][..]
        );
        let men = [bit(10) | bit(1), bit(16) | bit(29)];
        assert_eq!(SENAT_SPEC.terms(men[1], men[0])[3], 2.0 * 6.0 / 16.0 / 10.0);
        assert_eq!(die.terms(men[1], men[0])[3], 2.0 * 6.0 * 0.2 / 10.0);
        let coins = game(senet_rules::RuleSet::Senat, &[], men);
        let with_die = game(senet_rules::RuleSet::Senat, &["die=true"], men);
        let AnyGame::Senat(d) = with_die else {
            panic!()
        };
        assert!(std::ptr::eq(d.track_spec(), die));
        assert!(std::ptr::eq(weights::SENAT_ROOTED.for_root(&d).spec, die));
        // The second player, more exposed with the die, is worth less to itself.
        for (a, b) in values(&coins).into_iter().zip(values(&with_die)) {
            assert!(b > a, "coins {a}, die {b}");
        }
    }

    /// houses' `six_sticks` (H12): seven throws out of 64, up to 7. The second player's piece
    /// on 17 can be hit from 10 only by a 7.
    #[test]
    fn houses_six_sticks_throws_are_the_evaluators_throws() {
        let six = &HOUSES_SPECS[4];
        let want: Vec<(u8, f64)> = [
            (1, 6.0),
            (2, 15.0),
            (3, 20.0),
            (4, 15.0),
            (5, 6.0),
            (6, 1.0),
            (7, 1.0),
        ]
        .iter()
        .map(|&(t, w)| (t, w / 64.0))
        .collect();
        assert_eq!(six.throws(), &want[..]);
        // From 1-19 to 8-26: the gate stops longer moves on 26 (H7).
        assert_eq!(six.landing[7], (bit(27) - 1) & !(bit(8) - 1));
        let men = [bit(10) | bit(1), bit(17) | bit(29)];
        assert_eq!(HOUSES_SPEC.terms(men[1], men[0])[3], 0.0);
        assert_eq!(six.terms(men[1], men[0])[3], 2.0 * 7.0 / 64.0 / 10.0);
        let four = game(senet_rules::RuleSet::Houses, &[], men);
        let sixg = game(senet_rules::RuleSet::Houses, &["six_sticks=true"], men);
        let AnyGame::Houses(h) = sixg else { panic!() };
        assert!(std::ptr::eq(weights::HOUSES_ROOTED.for_root(&h).spec, six));
        for (a, b) in values(&four).into_iter().zip(values(&sixg)) {
            assert_ne!(a, b);
        }
    }

    /// houses' hit (H3): sending back by default, a swap with `swap`.
    #[test]
    fn houses_hit_follows_the_swap_option() {
        assert_eq!(HOUSES_SPEC.hit, Hit::SendBack);
        assert_eq!(HOUSES_SPECS[1].hit, Hit::Swap);
        assert_eq!(KENDALL_SPEC.hit, Hit::Swap);
    }

    /// H3 in the endgame networks' terms: on `houses` a hit sends the piece back to the
    /// lowest empty square, and the exposure counts the squares it loses there; where a hit
    /// is a swap (K3, R3, houses' `swap`) the endgame terms are the main terms.
    #[test]
    fn h3_endgame_exposure_counts_the_squares_a_piece_sent_back_loses() {
        // The second player's lone piece on 20 under attack from 17 by a 3 (4 in 16): the
        // attacker gains 3, the piece goes back to 1 (the lowest empty square once 17 is
        // left) and loses 19.
        let (att, def) = (bit(17) | bit(29), bit(20) | bit(30));
        let p3 = 4.0 / 16.0;
        assert_eq!(HOUSES_SPEC.terms(def, att)[3], 2.0 * 3.0 * p3 / 10.0);
        assert_eq!(HOUSES_SPEC.end_terms(def, att)[3], (3.0 + 19.0) * p3 / 10.0);
        // With square 1 taken it goes to 2; with 17 the lowest empty after the move, to 17.
        let on1 = att | bit(1);
        assert_eq!(HOUSES_SPEC.end_terms(def, on1)[3], (3.0 + 18.0) * p3 / 10.0);
        // (the defender's own pieces on 1-16 protect each other)
        let low = def | (bit(17) - 2);
        assert_eq!(HOUSES_SPEC.end_terms(low, att)[3], (3.0 + 3.0) * p3 / 10.0);
        // Of two pieces in reach of one throw the farther from the start is the one to hit.
        let two = bit(20) | bit(12);
        let both = bit(17) | bit(9);
        let x = HOUSES_SPEC.end_terms(two, both)[3];
        assert_eq!(x, (3.0 + 19.0) * p3 / 10.0);
        // Swaps: the endgame terms are the terms, on random positions.
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for sp in [&KENDALL_SPEC, &KENDALL5_SPEC, &SENAT_SPEC, &HOUSES_SPECS[1]] {
            for _ in 0..2000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // Two disjoint sets of squares 1-30.
                let (a, b) = ((x as u32) & 0x7FFF_FFFE, ((x >> 32) as u32) & 0x7FFF_FFFE);
                let b = b & !a;
                assert_eq!(sp.end_terms(a, b), sp.terms(a, b));
            }
        }
    }
}
