//! A small neural network evaluator for the track games (`kendall`, `kendall5`, `senat`,
//! `houses`), trained by TD(λ) self-play as TD-Gammon was (`senet_coach::train::train_net`), written by hand
//! (a few hundred multiply-adds per position; no framework).
//!
//! The network sees the position from the side about to throw (the *mover*), so what it
//! learns for one seat serves the other:
//! - per side ([`SIDE`] inputs, the mover's first): a piece on each square 1-30 (one input
//!   per square), pieces borne off (five inputs: one, two, ... five pieces off), and
//!   the board terms of the linear evaluator (pieces protected, pieces in a blockade, enemies
//!   stuck behind it, exposure to the opponent's best attack; [`TrackSpec::terms`]);
//! - one input: +1 when the mover is the first player, -1 otherwise (the seat advantage).
//!
//! It has one hidden layer of rectified units (16, 32 or 64: [`MAIN_SIZES`], named in the
//! weights file's header), a sigmoid output (the mover's chance of winning), and a linear
//! skip connection from the inputs to the output. The skip connection starts as the trained
//! linear evaluator ([`crate::track::TrackEval`]), so training starts from that evaluator's
//! play and the hidden units learn what it misses.
//!
//! The weights are text files in `src/nets/` (`senet train --net` writes one), read once on
//! first use.

use crate::eval::{sigmoid, Evaluator};
use crate::simd;
use crate::track::{
    TrackEval, TrackGame, TrackSpec, F_BEHIND, F_BLOCKADE, F_EXPOSED_LATER, F_EXPOSED_NOW, F_OFF,
    F_PROTECTED, F_TEMPO,
};
use arrayvec::ArrayVec;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use senet_rules::Player;

/// Hidden units of a fresh main network (`senet train --net --hidden N` starts one of another
/// of the [`MAIN_SIZES`]).
pub const H: usize = 16;
/// The sizes (hidden units) a main network may have: a weights file names its size in its
/// header.
pub const MAIN_SIZES: [usize; 3] = [16, 32, 64];
/// Inputs per side: 30 squares, 5 for the number of pieces off, 4 board terms.
pub const SIDE: usize = 39;
/// All inputs: both sides and the seat.
pub const NI: usize = 2 * SIDE + 1;
/// Where the parts of a network of `n` hidden units are in its parameter vector: the `NI x n`
/// hidden weights row by row (input `i`'s row starts at `i * n`), then the skip weights (one
/// per input, straight to the output), the `n` hidden biases, the `n` output weights (hidden
/// unit to output) and the output bias, the last parameter.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Hidden units.
    pub n: usize,
}

impl Layout {
    /// Offset of the skip weights.
    pub const fn skip(self) -> usize {
        NI * self.n
    }
    /// Offset of the hidden biases.
    pub const fn c(self) -> usize {
        self.skip() + NI
    }
    /// Offset of the output weights.
    pub const fn v(self) -> usize {
        self.c() + self.n
    }
    /// Offset of the output bias.
    pub const fn b(self) -> usize {
        self.v() + self.n
    }
    /// The layout of a parameter vector of `len` numbers.
    pub const fn of_len(len: usize) -> Layout {
        Layout {
            n: (len - NI - 1) / (NI + 2),
        }
    }
}

/// Hidden units of an endgame network ([`NetEval::end`]) trained by
/// `senet_coach::train::train_endgame`: more than the main network's, as it must fit exact
/// values closely, and it is evaluated only in endgames.
pub const EH: usize = 32;

/// The sizes (hidden units) an endgame network may have: a weights file names its size in its
/// header (`scripts/train_endgame.py` trains the larger ones).
pub const END_SIZES: [usize; 5] = [32, 64, 128, 256, 512];

/// Number of parameters of a network with `n` hidden units (the same layout as the main
/// network's: `NI x n` hidden weights, `NI` skip weights, `n` hidden biases, `n` output
/// weights, the output bias).
pub const fn params_of(n: usize) -> usize {
    NI * n + NI + 2 * n + 1
}

/// The first line of a weights file.
const HEADER: &str = "senet-net/1";

/// The inputs of a position that are not zero, as (index, value) ([`NetEval::inputs`]).
pub type Inputs = ArrayVec<(u8, f32), 40>;

/// Pieces per side on the board up to which the endgame network, if any, values a position:
/// the positions the exact endgame tables cover ([`crate::exact`]).
pub const END_PIECES: u32 = 3;

/// The network: its parameters in one vector (laid out as [`Layout`] says).
#[derive(Clone, Debug)]
pub struct NetEval {
    /// The movement rules.
    pub spec: &'static TrackSpec,
    /// The parameters.
    pub p: Vec<f32>,
    /// Name for reports.
    pub label: &'static str,
    /// The endgame network (the layout of `p`, with one of [`END_SIZES`] hidden units): where both sides have at most
    /// [`END_PIECES`] pieces on the board it values the position instead, trained on the exact
    /// values of those positions (`senet_coach::train::train_endgame`). `None`: the main network everywhere.
    pub end: Option<Vec<f32>>,
}

impl NetEval {
    /// A network of [`H`] hidden units that computes exactly `lin` (the skip connection holds
    /// its weights, the output weights are small random numbers, so the first value differs a
    /// little).
    pub fn from_linear(lin: &TrackEval, seed: u64, label: &'static str) -> NetEval {
        Self::from_linear_sized(lin, H, seed, label)
    }

    /// [`NetEval::from_linear`] with `hidden` hidden units.
    ///
    /// # Panics
    /// If `hidden` is not one of [`MAIN_SIZES`] (the command line checks it first).
    pub fn from_linear_sized(
        lin: &TrackEval,
        hidden: usize,
        seed: u64,
        label: &'static str,
    ) -> NetEval {
        assert!(
            MAIN_SIZES.contains(&hidden),
            "a main network has {MAIN_SIZES:?} hidden units, not {hidden}"
        );
        let l = Layout { n: hidden };
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut p = vec![0.0f32; params_of(hidden)];
        for x in &mut p[..l.skip()] {
            *x = (rng.random::<f32>() - 0.5) * 0.4;
        }
        for x in &mut p[l.c()..l.v()] {
            *x = 0.1;
        }
        for x in &mut p[l.v()..l.b()] {
            *x = (rng.random::<f32>() - 0.5) * 0.02;
        }
        let w = &lin.w;
        let skip = &mut p[l.skip()..l.c()];
        for (side, sign) in [(0, 1.0), (SIDE, -1.0)] {
            for s in 0..30 {
                skip[side + s] = sign * w[s] as f32;
            }
            for k in 0..5 {
                skip[side + 30 + k] = sign * (k + 1) as f32 * w[F_OFF] as f32;
            }
            skip[side + 35] = sign * w[F_PROTECTED] as f32;
            skip[side + 36] = sign * w[F_BLOCKADE] as f32;
            skip[side + 37] = sign * w[F_BEHIND] as f32;
        }
        // The mover's exposure counts "later" (it throws first), the other side's "now".
        skip[35 + 3] = w[F_EXPOSED_LATER] as f32;
        skip[SIDE + 35 + 3] = -w[F_EXPOSED_NOW] as f32;
        skip[NI - 1] = lin.bias as f32;
        p[l.b()] = w[F_TEMPO] as f32;
        NetEval {
            spec: lin.spec,
            p,
            label,
            end: None,
        }
    }

    /// Reads a weights file (as written by [`NetEval::to_text`]), with no endgame network.
    pub fn parse(
        spec: &'static TrackSpec,
        text: &str,
        label: &'static str,
    ) -> Result<NetEval, String> {
        Ok(NetEval {
            spec,
            p: Self::parse_params(spec, text)?,
            label,
            end: None,
        })
    }

    /// The parameters of a main network's weights file: a network of any of the
    /// [`MAIN_SIZES`], as its header says.
    pub fn parse_params(spec: &'static TrackSpec, text: &str) -> Result<Vec<f32>, String> {
        Self::parse_sized(spec, text, &MAIN_SIZES, "weights file")
    }

    /// The parameters of an endgame network's weights file: a network of any of the
    /// [`END_SIZES`], as its header says.
    pub fn parse_end_params(spec: &'static TrackSpec, text: &str) -> Result<Vec<f32>, String> {
        Self::parse_sized(spec, text, &END_SIZES, "endgame weights file")
    }

    /// The parameters of a weights file whose header names one of `sizes`.
    fn parse_sized(
        spec: &'static TrackSpec,
        text: &str,
        sizes: &[usize],
        what: &str,
    ) -> Result<Vec<f32>, String> {
        let head = text
            .lines()
            .find(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .unwrap_or("");
        let hidden = head
            .split_whitespace()
            .find_map(|t| t.strip_prefix("H="))
            .and_then(|h| h.parse::<usize>().ok())
            .filter(|h| sizes.contains(h))
            .ok_or_else(|| {
                let names: Vec<String> = sizes.iter().map(|n| format!("H={n}")).collect();
                format!(
                    "{what} starts with {head:?}: expected a header naming {} hidden units",
                    names.join(", ")
                )
            })?;
        Self::parse_params_of(spec, text, hidden)
    }

    /// The parameters of a weights file of a network with `hidden` hidden units.
    pub fn parse_params_of(
        spec: &'static TrackSpec,
        text: &str,
        hidden: usize,
    ) -> Result<Vec<f32>, String> {
        let np = params_of(hidden);
        let mut lines = text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'));
        let head = lines.next().unwrap_or("");
        let want = format!("{HEADER} {} H={hidden} NI={NI}", spec.id);
        if head.trim() != want {
            return Err(format!(
                "weights file starts with {head:?}, expected {want:?}"
            ));
        }
        let mut p = Vec::with_capacity(np);
        for (i, tok) in lines.flat_map(str::split_whitespace).enumerate() {
            let x: f32 = tok
                .parse()
                .map_err(|_| format!("weight {i} is {tok:?}, not a number"))?;
            if !x.is_finite() {
                return Err(format!("weight {i} is not finite"));
            }
            p.push(x);
        }
        if p.len() != np {
            return Err(format!("{} weights, expected {np}", p.len()));
        }
        Ok(p)
    }

    /// The weights as text (comment lines start with `#`), eight to a line.
    pub fn to_text(&self, comment: &str) -> String {
        Self::params_text(self.spec, &self.p, comment)
    }

    /// Parameters as a weights file's text (the hidden units follow from their number).
    pub fn params_text(spec: &TrackSpec, p: &[f32], comment: &str) -> String {
        let hidden = Layout::of_len(p.len()).n;
        let mut s = String::new();
        for l in comment.lines() {
            s.push_str(&format!("# {l}\n"));
        }
        s.push_str(&format!("{HEADER} {} H={hidden} NI={NI}\n", spec.id));
        for row in p.chunks(8) {
            let items: Vec<String> = row.iter().map(|x| format!("{x:.6}")).collect();
            s.push_str(&items.join(" "));
            s.push('\n');
        }
        s
    }

    /// The non-zero inputs of a position with `mover` about to throw (the pieces as bitboards,
    /// bit `s` for square `s`, first player's first), in the layout of the module docs: what
    /// [`forward`] reads, and what the trainers compute gradients for.
    #[inline]
    pub fn inputs(&self, men: [u32; 2], mover: Player) -> Inputs {
        self.inputs_with(men, mover, TrackSpec::terms)
    }

    /// The endgame network's inputs: [`NetEval::inputs`] with the board terms of
    /// [`TrackSpec::end_terms`] (on `houses` the exposure counts the squares a piece sent
    /// back loses, H3; elsewhere the same inputs).
    #[inline]
    pub fn end_inputs(&self, men: [u32; 2], mover: Player) -> Inputs {
        self.inputs_with(men, mover, TrackSpec::end_terms)
    }

    #[inline(always)]
    fn inputs_with(
        &self,
        men: [u32; 2],
        mover: Player,
        terms: impl Fn(&TrackSpec, u32, u32) -> [f64; 4],
    ) -> Inputs {
        let mut x = Inputs::new();
        let (own, opp) = match mover {
            Player::First => (men[0], men[1]),
            Player::Second => (men[1], men[0]),
        };
        for (base, a, b) in [(0u8, own, opp), (SIDE as u8, opp, own)] {
            let mut m = a;
            while m != 0 {
                x.push((base + m.trailing_zeros() as u8 - 1, 1.0));
                m &= m - 1;
            }
            let off = self.spec.pieces.saturating_sub(a.count_ones()).min(5) as u8;
            if off > 0 {
                x.push((base + 29 + off, 1.0));
            }
            for (k, t) in terms(self.spec, a, b).into_iter().enumerate() {
                if t != 0.0 {
                    x.push((base + 35 + k as u8, t as f32));
                }
            }
        }
        let seat = if mover == Player::First { 1.0 } else { -1.0 };
        x.push((NI as u8 - 1, seat));
        x
    }

    /// The hidden units of the main network, one of [`MAIN_SIZES`].
    pub fn hidden(&self) -> usize {
        Layout::of_len(self.p.len()).n
    }
}

/// The output of a network of `N` hidden units with parameters `p` (laid out as [`Layout`]
/// says) before the sigmoid for inputs `x` (from [`NetEval::inputs`] or
/// [`NetEval::end_inputs`]), and the hidden units' inputs: the trainers' forward pass (the
/// search uses fused ones).
#[inline]
pub fn forward<const N: usize>(p: &[f32], x: &[(u8, f32)]) -> (f32, [f32; N]) {
    let (skip0, c0) = (NI * N, NI * N + NI);
    let mut h: [f32; N] = p[c0..c0 + N].try_into().expect("N hidden biases");
    let mut z = p[c0 + 2 * N];
    for &(i, xi) in x {
        let i = i as usize;
        let row: &[f32; N] = p[i * N..(i + 1) * N].try_into().expect("a row of N");
        for (hk, wk) in h.iter_mut().zip(row) {
            *hk += xi * wk;
        }
        z += p[skip0 + i] * xi;
    }
    let v: &[f32; N] = p[c0 + N..c0 + 2 * N].try_into().expect("N output weights");
    for (hk, vk) in h.iter().zip(v) {
        z += vk * hk.max(0.0);
    }
    (z, h)
}

impl NetEval {
    /// The output before the sigmoid for the mover: the same as `forward(&inputs(..)).0`,
    /// without building the input list (this is the search's hot path). On a processor with
    /// AVX2 (detected once, at the first call) the pass runs in 256-bit registers, eight
    /// hidden units at a time ([`simd`]); elsewhere in SSE2's four. Each unit's sum takes the
    /// same steps in the same order either way, so the numbers are the same to the bit.
    #[inline]
    fn mover_z(&self, men: [u32; 2], mover: Player) -> f32 {
        simd::run(MainPass {
            net: self,
            men,
            mover,
        })
    }

    /// [`NetEval::mover_z`] with hidden units `W` at a time (4 or 8).
    #[inline(always)]
    fn mover_z_in<const W: usize>(&self, men: [u32; 2], mover: Player) -> f32 {
        // The endgame network values the endgames, where there is one.
        match &self.end {
            Some(e) if at_most_three(men[0]) && at_most_three(men[1]) => {
                self.end_z(e, men, mover)
            }
            _ => self.main_z::<W>(men, mover),
        }
    }

    /// The main network's output before the sigmoid, by its size (one of [`MAIN_SIZES`]),
    /// `W` units at a time.
    #[inline(always)]
    fn main_z<const W: usize>(&self, men: [u32; 2], mover: Player) -> f32 {
        const _: () = assert!(MAIN_SIZES.len() == 3 && MAIN_SIZES[2] == 64);
        const P16: usize = params_of(16);
        const P32: usize = params_of(32);
        const P64: usize = params_of(64);
        match (self.p.len(), W) {
            (P16, 4) => self.z_in::<4, 4>(&self.p, men, mover),
            (P32, 4) => self.z_in::<4, 8>(&self.p, men, mover),
            (P64, 4) => self.z_in::<4, 16>(&self.p, men, mover),
            (P16, 8) => self.z_in::<8, 2>(&self.p, men, mover),
            (P32, 8) => self.z_in::<8, 4>(&self.p, men, mover),
            (P64, 8) => self.z_in::<8, 8>(&self.p, men, mover),
            // `parse_params` admits no other size; a hand-built `p` of another size values
            // every position at one half rather than read out of bounds.
            _ => 0.0,
        }
    }

    /// The endgame network's [`NetEval::z_of`] (its size read from the number of its
    /// parameters, one of [`END_SIZES`]), out of line so that the main network's path stays
    /// small.
    #[inline(never)]
    fn end_z(&self, p: &[f32], men: [u32; 2], mover: Player) -> f32 {
        simd::run(EndPass {
            net: self,
            p,
            men,
            mover,
        })
    }

    /// [`NetEval::end_z`] with the main network's pass (if it is called for) `W` units at a
    /// time; the endgame networks' blocks are sixteen units wide either way.
    #[inline(always)]
    fn end_z_in<const W: usize>(&self, p: &[f32], men: [u32; 2], mover: Player) -> f32 {
        const P32: usize = params_of(32);
        const P64: usize = params_of(64);
        const P128: usize = params_of(128);
        const P256: usize = params_of(256);
        const P512: usize = params_of(512);
        match p.len() {
            P32 => self.z_blocks::<32>(p, men, mover),
            P64 => self.z_blocks::<64>(p, men, mover),
            P128 => self.z_blocks::<128>(p, men, mover),
            P256 => self.z_blocks::<256>(p, men, mover),
            P512 => self.z_blocks::<512>(p, men, mover),
            // `parse_end_params` admits no other size; a hand-built `end` of another size is
            // ignored rather than read out of bounds.
            _ => self.main_z::<W>(men, mover),
        }
    }

    /// The number of hidden units of the endgame network, if there is one.
    pub fn end_hidden(&self) -> Option<usize> {
        self.end.as_ref().map(|p| Layout::of_len(p.len()).n)
    }

    /// The endgame networks' output before the sigmoid (more units than vector registers, and the
    /// board terms of [`TrackSpec::end_terms`]): the inputs listed first, then the hidden
    /// units sixteen at a time, each block summing every input before the next block starts.
    /// Each unit's sum takes the same steps in the same order as one unit at a time, so the
    /// numbers are the same.
    #[inline(always)]
    fn z_blocks<const N: usize>(&self, p: &[f32], men: [u32; 2], mover: Player) -> f32 {
        type Q = [f32; 4];
        const { assert!(N.is_multiple_of(16)) };
        let blocks = N / 16;
        let (w, tail) = p.split_at(NI * N);
        let rows: &[[Q; 4]] = w.as_chunks::<4>().0.as_chunks::<4>().0;
        assert_eq!(rows.len(), NI * blocks);
        let skip: &[f32; NI] = tail[..NI].try_into().expect("NI skip weights");
        let bias: &[[Q; 4]] = tail[NI..NI + N].as_chunks::<4>().0.as_chunks::<4>().0;
        let out: &[[Q; 4]] = tail[NI + N..NI + 2 * N]
            .as_chunks::<4>()
            .0
            .as_chunks::<4>()
            .0;
        assert!(bias.len() == blocks && out.len() == blocks);
        let mut z = tail[NI + 2 * N];
        let (own, opp) = match mover {
            Player::First => (men[0], men[1]),
            Player::Second => (men[1], men[0]),
        };
        // The inputs of 1 (pieces on squares, pieces off), then the others with their
        // values, in the order of `z_any`; the output's sum takes the skip weights in that
        // order too.
        let mut ones: ArrayVec<u8, 12> = ArrayVec::new();
        let mut scaled: ArrayVec<(u8, f32), 9> = ArrayVec::new();
        let mut terms = [[0.0f64; 4]; 2];
        for (side, (base, a, b)) in [(0, own, opp), (SIDE, opp, own)].into_iter().enumerate() {
            let (mut m, mut on) = (a >> 1, 0u32);
            while m != 0 {
                let i = base + m.trailing_zeros() as usize;
                ones.push(i as u8);
                z += skip[i];
                m &= m - 1;
                on += 1;
            }
            let off = self.spec.pieces.saturating_sub(on).min(5) as usize;
            if off > 0 {
                let i = base + 29 + off;
                ones.push(i as u8);
                z += skip[i];
            }
            terms[side] = self.spec.end_terms(a, b);
        }
        for (side, t) in terms.iter().enumerate() {
            for (k, &x) in t.iter().enumerate() {
                if x != 0.0 {
                    let i = side * SIDE + 35 + k;
                    let x = x as f32;
                    scaled.push((i as u8, x));
                    z += skip[i] * x;
                }
            }
        }
        let seat = if mover == Player::First { 1.0 } else { -1.0 };
        scaled.push((NI as u8 - 1, seat));
        z += seat * skip[NI - 1];
        let mut acc = Out8::default();
        for blk in 0..blocks {
            let mut h = bias[blk];
            for &i in &ones {
                let row = &rows[i as usize * blocks + blk];
                for (hc, rc) in h.iter_mut().zip(row) {
                    for l in 0..4 {
                        hc[l] += rc[l];
                    }
                }
            }
            for &(i, x) in &scaled {
                let row = &rows[i as usize * blocks + blk];
                for (hc, rc) in h.iter_mut().zip(row) {
                    for l in 0..4 {
                        hc[l] += x * rc[l];
                    }
                }
            }
            let mut q = [0.0f32; 16];
            for ((qc, hc), oc) in q.as_chunks_mut::<4>().0.iter_mut().zip(&h).zip(&out[blk]) {
                for l in 0..4 {
                    qc[l] = oc[l] * hc[l].max(0.0);
                }
            }
            for c in q.as_chunks::<8>().0 {
                acc.add(c);
            }
        }
        z + acc.sum()
    }

    /// [`NetEval::mover_z`] with the parameters `p` of a network of `N` hidden units, one
    /// unit at a time (with the board terms of the endgame networks where `END`): the pass
    /// as first written, the reference the tests hold the faster forms to, to the bit.
    #[cfg(test)]
    fn z_any<const N: usize, const END: bool>(
        &self,
        p: &[f32],
        men: [u32; 2],
        mover: Player,
    ) -> f32 {
        // The parameters by part (one bounds check each, none in the loops below).
        let (w, tail) = p.split_at(NI * N);
        let rows: &[[f32; N]] = w.as_chunks::<N>().0;
        let skip = &tail[..NI];
        let mut h: [f32; N] = tail[NI..NI + N].try_into().expect("N hidden biases");
        let out: &[f32; N] = tail[NI + N..NI + 2 * N]
            .try_into()
            .expect("N output weights");
        let mut z = tail[NI + 2 * N];
        // An input of 1 (a piece on a square, pieces off): its row is added as is.
        let one = |h: &mut [f32; N], z: &mut f32, i: usize| {
            let (row, s) = (&rows[i], skip[i]);
            for k in 0..N {
                h[k] += row[k];
            }
            *z += s;
        };
        let (own, opp) = match mover {
            Player::First => (men[0], men[1]),
            Player::Second => (men[1], men[0]),
        };
        let mut terms = [[0.0f64; 4]; 2];
        for (side, (base, a, b)) in [(0, own, opp), (SIDE, opp, own)].into_iter().enumerate() {
            let (mut m, mut on) = (a, 0u32);
            while m != 0 {
                one(&mut h, &mut z, base + m.trailing_zeros() as usize - 1);
                m &= m - 1;
                on += 1;
            }
            let off = self.spec.pieces.saturating_sub(on).min(5) as usize;
            if off > 0 {
                one(&mut h, &mut z, base + 29 + off);
            }
            terms[side] = if END {
                self.spec.end_terms(a, b)
            } else {
                self.spec.terms(a, b)
            };
        }
        for (side, t) in terms.iter().enumerate() {
            for (k, &x) in t.iter().enumerate() {
                if x != 0.0 {
                    let i = side * SIDE + 35 + k;
                    let (row, x) = (&rows[i], x as f32);
                    for j in 0..N {
                        h[j] += x * row[j];
                    }
                    z += skip[i] * x;
                }
            }
        }
        let seat = if mover == Player::First { 1.0 } else { -1.0 };
        for j in 0..N {
            h[j] += seat * rows[NI - 1][j];
        }
        z += seat * skip[NI - 1];
        let mut acc = Out8::default();
        for j in (0..N).step_by(8) {
            let q: [f32; 8] = std::array::from_fn(|l| out[j + l] * h[j + l].max(0.0));
            acc.add(&q);
        }
        z + acc.sum()
    }

    /// The main network's output before the sigmoid for `W * C` hidden units, the units in
    /// groups of `W` (4 or 8; written so that the compiler keeps each group in one vector
    /// register): every unit's sum takes the same steps in the same order as one unit at a
    /// time, so the numbers are the same.
    #[inline(always)]
    fn z_in<const W: usize, const C: usize>(&self, p: &[f32], men: [u32; 2], mover: Player) -> f32 {
        type Q<const W: usize> = [f32; W];
        #[inline(always)]
        fn add<const W: usize>(a: Q<W>, b: Q<W>) -> Q<W> {
            std::array::from_fn(|l| a[l] + b[l])
        }
        #[inline(always)]
        fn mul<const W: usize>(x: f32, b: Q<W>) -> Q<W> {
            std::array::from_fn(|l| x * b[l])
        }
        let n = W * C;
        // The parameters by part (one bounds check each, none in the loops below).
        let (w, tail) = p.split_at(NI * n);
        let rows: &[[Q<W>; C]] = w.as_chunks::<W>().0.as_chunks::<C>().0;
        let rows: &[[Q<W>; C]; NI] = rows.try_into().expect("NI rows");
        let skip: &[f32; NI] = tail[..NI].try_into().expect("NI skip weights");
        let groups = |a: &[f32]| -> [Q<W>; C] {
            let g: &[Q<W>; C] = a.as_chunks::<W>().0.try_into().expect("C groups");
            *g
        };
        let mut h: [Q<W>; C] = groups(&tail[NI..NI + n]);
        let out: [Q<W>; C] = groups(&tail[NI + n..NI + 2 * n]);
        let mut z = tail[NI + 2 * n];
        let (own, opp) = match mover {
            Player::First => (men[0], men[1]),
            Player::Second => (men[1], men[0]),
        };
        let mut terms = [[0.0f64; 4]; 2];
        for (side, (base, a, b)) in [(0, own, opp), (SIDE, opp, own)].into_iter().enumerate() {
            // This side's rows and skip weights (square s as bit s - 1: every index below is
            // plainly in bounds, so the loop checks none).
            let rows: &[[Q<W>; C]; SIDE] = rows[base..base + SIDE].try_into().expect("a side");
            let skip: &[f32; SIDE] = skip[base..base + SIDE].try_into().expect("a side");
            // An input of 1 (a piece on a square, pieces off): its row is added as is.
            let (mut m, mut on) = (a >> 1, 0u32);
            while m != 0 {
                let i = m.trailing_zeros() as usize;
                for (hc, &rc) in h.iter_mut().zip(&rows[i]) {
                    *hc = add(*hc, rc);
                }
                z += skip[i];
                m &= m - 1;
                on += 1;
            }
            let off = self.spec.pieces.saturating_sub(on).min(5) as usize;
            if off > 0 {
                let i = 29 + off;
                for (hc, &rc) in h.iter_mut().zip(&rows[i]) {
                    *hc = add(*hc, rc);
                }
                z += skip[i];
            }
            terms[side] = self.spec.terms(a, b);
        }
        for (side, t) in terms.iter().enumerate() {
            for (k, &x) in t.iter().enumerate() {
                if x != 0.0 {
                    let i = side * SIDE + 35 + k;
                    let x = x as f32;
                    for (hc, &rc) in h.iter_mut().zip(&rows[i]) {
                        *hc = add(*hc, mul(x, rc));
                    }
                    z += skip[i] * x;
                }
            }
        }
        let seat = if mover == Player::First { 1.0 } else { -1.0 };
        for (hc, &rc) in h.iter_mut().zip(&rows[NI - 1]) {
            *hc = add(*hc, mul(seat, rc));
        }
        z += seat * skip[NI - 1];
        // The output: the products a group at a time, summed as [`Out8`] says.
        let mut q = [[0.0f32; W]; C];
        for ((qc, hc), oc) in q.iter_mut().zip(&h).zip(&out) {
            for l in 0..W {
                qc[l] = oc[l] * hc[l].max(0.0);
            }
        }
        let mut acc = Out8::default();
        for c in q.as_flattened().as_chunks::<8>().0 {
            acc.add(c);
        }
        z + acc.sum()
    }

    /// The mover's chance of winning.
    #[inline]
    pub fn mover_value(&self, men: [u32; 2], mover: Player) -> f64 {
        sigmoid(self.mover_z(men, mover) as f64)
    }

    /// The first player's chance of winning, with `thrower` to throw.
    #[inline]
    pub fn value(&self, men: [u32; 2], thrower: Player) -> f64 {
        let v = self.mover_value(men, thrower);
        match thrower {
            Player::First => v,
            Player::Second => 1.0 - v,
        }
    }
}

impl<G: TrackGame> Evaluator<G> for NetEval {
    #[inline]
    fn eval(&self, g: &G) -> f64 {
        self.value(g.masks(), TrackEval::thrower(g))
    }
    fn name(&self) -> &'static str {
        self.label
    }
}

/// The sum of a network's output products (hidden unit `k`'s output weight times its
/// rectified value), in one order for every pass and lane width: unit `k` is added to
/// partial sum `k mod 8` in unit order, then the eight partial sums are added as a tree.
/// (A sum one unit after another is a chain of dependent additions, as long as the layer is
/// wide; this one is eight times shorter, and the same to the bit in every pass.)
#[derive(Default)]
struct Out8([f32; 8]);

impl Out8 {
    /// Adds the products of eight consecutive units, the first at a multiple of eight.
    #[inline(always)]
    fn add(&mut self, q: &[f32; 8]) {
        for l in 0..8 {
            self.0[l] += q[l];
        }
    }

    /// The total.
    #[inline(always)]
    fn sum(&self) -> f32 {
        let a = &self.0;
        ((a[0] + a[4]) + (a[2] + a[6])) + ((a[1] + a[5]) + (a[3] + a[7]))
    }
}

/// The main path of [`NetEval::mover_z`], for [`simd::run`].
struct MainPass<'a> {
    net: &'a NetEval,
    men: [u32; 2],
    mover: Player,
}

impl simd::Pass for MainPass<'_> {
    type Out = f32;
    #[inline(always)]
    fn run<const W: usize>(self) -> f32 {
        self.net.mover_z_in::<W>(self.men, self.mover)
    }
}

/// [`NetEval::end_z`], for [`simd::run`].
struct EndPass<'a> {
    net: &'a NetEval,
    p: &'a [f32],
    men: [u32; 2],
    mover: Player,
}

impl simd::Pass for EndPass<'_> {
    type Out = f32;
    #[inline(always)]
    fn run<const W: usize>(self) -> f32 {
        self.net.end_z_in::<W>(self.p, self.men, self.mover)
    }
}

/// Whether `m` has at most [`END_PIECES`] (three) bits set: cheaper than a population count
/// where the processor has no instruction for it (the baseline x86-64 target).
#[inline(always)]
fn at_most_three(m: u32) -> bool {
    const _: () = assert!(END_PIECES == 3);
    let m = m & m.wrapping_sub(1);
    let m = m & m.wrapping_sub(1);
    let m = m & m.wrapping_sub(1);
    m == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::weights;
    use senet_rules::{Game, Kendall5, MoveList, Status};

    /// The vector forms of the pass ([`NetEval::z_in`], [`NetEval::z_blocks`]) give the
    /// numbers of the one-unit-at-a-time pass exactly, for every network size.
    fn same_as_one_unit_at_a_time<const N: usize, const END: bool>() {
        let mut rng = Pcg64Mcg::seed_from_u64(N as u64);
        let mut net = NetEval::from_linear(&weights::KENDALL5, 5, "test");
        let p: Vec<f32> = (0..params_of(N))
            .map(|_| (rng.random::<f32>() - 0.5) * 2.0)
            .collect();
        if END {
            net.end = Some(p.clone());
        } else {
            net.p = p.clone();
        }
        let start = Kendall5::start(&senet_rules::Options::defaults(Kendall5::option_specs()));
        let mut ms = MoveList::new();
        let mut seen = 0;
        for _ in 0..40 {
            let mut g = start;
            loop {
                match g.status() {
                    Status::Over(_) => break,
                    Status::Throw(_) => {
                        for mover in Player::BOTH {
                            let men = g.men();
                            let slow = net.z_any::<N, END>(&p, men, mover);
                            // The pass this machine runs (eight lanes with AVX2), and the
                            // baseline's four lanes.
                            let (fast, base) = if END {
                                let pass = || EndPass {
                                    net: &net,
                                    p: &p,
                                    men,
                                    mover,
                                };
                                (simd::run(pass()), simd::run_baseline(pass()))
                            } else {
                                let pass = || MainPass {
                                    net: &net,
                                    men,
                                    mover,
                                };
                                (simd::run(pass()), simd::run_baseline(pass()))
                            };
                            assert_eq!(fast.to_bits(), slow.to_bits(), "{men:?} {mover:?}");
                            assert_eq!(base.to_bits(), slow.to_bits(), "{men:?} {mover:?}");
                            seen += 1;
                        }
                        g.set_throw_unchecked(g.throw_dist().sample(rng.random()));
                    }
                    Status::Move(_) => {
                        ms.clear();
                        g.legal_moves(&mut ms);
                        g.play_unchecked(ms[rng.random_range(0..ms.len())]);
                    }
                }
            }
        }
        assert!(seen > 1000);
    }

    #[test]
    fn the_vector_passes_are_the_one_unit_pass_to_the_bit() {
        same_as_one_unit_at_a_time::<16, false>();
        same_as_one_unit_at_a_time::<32, false>();
        same_as_one_unit_at_a_time::<32, true>();
        same_as_one_unit_at_a_time::<64, false>();
        same_as_one_unit_at_a_time::<64, true>();
        same_as_one_unit_at_a_time::<128, true>();
        same_as_one_unit_at_a_time::<256, true>();
        same_as_one_unit_at_a_time::<512, true>();
    }

    #[test]
    fn a_fresh_network_is_close_to_the_linear_evaluator_it_starts_from() {
        let lin = &weights::KENDALL5;
        let net = NetEval::from_linear(lin, 1, "test");
        let mut g = Kendall5::start(&senet_rules::Options::defaults(Kendall5::option_specs()));
        let mut rng = Pcg64Mcg::seed_from_u64(3);
        let mut ms = MoveList::new();
        for _ in 0..300 {
            match g.status() {
                Status::Over(_) => break,
                Status::Throw(_) => {
                    let a = lin.eval(&g);
                    let b = net.eval(&g);
                    // The search's fused forward pass agrees with the trainer's.
                    let (men, p) = (g.men(), TrackEval::thrower(&g));
                    let z = forward::<H>(&net.p, &net.inputs(men, p)).0;
                    assert!((net.mover_z(men, p) - z).abs() < 1e-4);
                    assert!((a - b).abs() < 0.1, "linear {a} vs net {b}");
                    g.set_throw_unchecked(g.throw_dist().sample(rng.random()));
                }
                Status::Move(_) => {
                    ms.clear();
                    g.legal_moves(&mut ms);
                    g.play_unchecked(ms[rng.random_range(0..ms.len())]);
                }
            }
        }
    }

    #[test]
    fn weights_round_trip_through_text_and_bad_files_are_refused() {
        let net = NetEval::from_linear(&weights::KENDALL5, 2, "test");
        let text = net.to_text("a comment");
        let back = NetEval::parse(net.spec, &text, "test").unwrap();
        for (a, b) in net.p.iter().zip(&back.p) {
            assert!((a - b).abs() < 1e-5);
        }
        let short = text
            .rsplit_once('\n')
            .unwrap()
            .0
            .rsplit_once('\n')
            .unwrap()
            .0;
        assert!(NetEval::parse(net.spec, short, "t")
            .unwrap_err()
            .contains("expected"));
        let bad = text.replacen("senet-net/1 kendall5", "senet-net/1 senat", 1);
        assert!(NetEval::parse(net.spec, &bad, "t")
            .unwrap_err()
            .contains("starts with"));
        let nan = text.replacen(" 0.", " x.", 1);
        assert!(NetEval::parse(net.spec, &nan, "t")
            .unwrap_err()
            .contains("not a number"));
    }
}
