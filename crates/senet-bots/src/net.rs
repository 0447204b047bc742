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
//! It has one hidden layer of rectified units (16 to 512: [`MAIN_SIZES`], named in the
//! weights file's header), a sigmoid output (the mover's chance of winning), and a linear
//! skip connection from the inputs to the output. A main network may have a second hidden
//! layer of 16 or 32 rectified units ([`Second`], a `senet-net/2` weights file: issue 55)
//! between the first and the output. The skip connection starts as the trained
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
pub const MAIN_SIZES: [usize; 6] = [16, 32, 64, 128, 256, 512];
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
/// The first line of a weights file of a main network with a second hidden layer
/// ([`Second`]): `senet-net/2 RULES H=N H2=M NI=79`.
const HEADER2: &str = "senet-net/2";

/// The sizes a main network's second hidden layer may have ([`Second`]).
pub const H2_SIZES: [usize; 2] = [16, 32];

/// A main network's second hidden layer (issue 55): `M` rectified units (one of
/// [`H2_SIZES`]) between the first hidden layer's `N` and the output. The first layer's
/// rectified units feed it instead of the output, so the output is `v . relu(c + W^T
/// relu(h)) + skip . x + b`, `h` the first layer's sums; the output weights of the first layer
/// in [`NetEval::p`] are zero and unused. Its weights file (`senet-net/2 RULES H=N H2=M
/// NI=79`) lists the first layer's weights, the skip weights and the first layer's biases as
/// `senet-net/1` does, then `W` (row `j` for the first layer's unit `j`), `c`, `v` and the
/// output bias.
#[derive(Clone, Debug, PartialEq)]
pub struct Second {
    /// The `N x M` weights, the first layer's unit `j`'s row of `M` at `j * M`.
    pub w: Vec<f32>,
    /// The `M` biases.
    pub c: Vec<f32>,
    /// The `M` output weights.
    pub v: Vec<f32>,
}

/// The inputs of a position that are not zero, as (index, value) ([`NetEval::inputs`]).
pub type Inputs = ArrayVec<(u8, f32), 40>;

/// Pieces per side on the board up to which the endgame network, if any, values a position:
/// the positions the exact endgame tables cover ([`crate::exact`]).
pub const END_PIECES: u32 = 3;

/// Pieces per side on the board up to which the four-piece endgame network, if any, values a
/// position the endgame network does not ([`NetEval::end4`]): the positions of the 4-piece
/// exact tables (issue 34).
pub const END4_PIECES: u32 = 4;

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
    /// The four-piece endgame network (the same layout and inputs as `end`): where both sides
    /// have at most [`END4_PIECES`] pieces on the board and `end` does not value the position
    /// (one side has four, or there is no `end`), it values it instead, trained on the exact
    /// values of the 4-piece tables (`senet train --endgame --pieces 4 --export`,
    /// `scripts/train_endgame.py`). `None`: the main network values those positions.
    pub end4: Option<Vec<f32>>,
    /// The main network's second hidden layer, if it has one ([`Second`]; `p`'s output
    /// weights are then zero and unused). The endgame networks have none.
    pub second: Option<Second>,
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
            end4: None,
            second: None,
        }
    }

    /// Reads a weights file (as written by [`NetEval::to_text`]), with no endgame network:
    /// a network of one hidden layer (`senet-net/1`) or of two (`senet-net/2`, [`Second`]).
    pub fn parse(
        spec: &'static TrackSpec,
        text: &str,
        label: &'static str,
    ) -> Result<NetEval, String> {
        let (p, second) = if first_line(text).starts_with(HEADER2) {
            let (p, s) = Self::parse_two(spec, text)?;
            (p, Some(s))
        } else {
            (Self::parse_params(spec, text)?, None)
        };
        Ok(NetEval {
            spec,
            p,
            label,
            end: None,
            end4: None,
            second,
        })
    }

    /// The parameters of a `senet-net/2` weights file ([`Second`]): the first layer's in the
    /// layout of [`NetEval::p`] (its output weights zero), and the second layer.
    fn parse_two(spec: &'static TrackSpec, text: &str) -> Result<(Vec<f32>, Second), String> {
        let head = first_line(text);
        let size = |key: &str| {
            head.split_whitespace()
                .find_map(|t| t.strip_prefix(key))
                .and_then(|h| h.parse::<usize>().ok())
        };
        let (n, m) = match (size("H="), size("H2=")) {
            (Some(n), Some(m)) if MAIN_SIZES.contains(&n) && H2_SIZES.contains(&m) => (n, m),
            _ => {
                return Err(format!(
                    "weights file starts with {head:?}: expected \"{HEADER2} {} H=N H2=M NI={NI}\" \
                     with N one of {MAIN_SIZES:?} and M one of {H2_SIZES:?}",
                    spec.id
                ))
            }
        };
        let want = format!("{HEADER2} {} H={n} H2={m} NI={NI}", spec.id);
        if head.trim() != want {
            return Err(format!(
                "weights file starts with {head:?}, expected {want:?}"
            ));
        }
        let x = numbers(text)?;
        let l = Layout { n };
        let first = l.v();
        let np = first + n * m + 2 * m + 1;
        if x.len() != np {
            return Err(format!("{} weights, expected {np}", x.len()));
        }
        let mut p = vec![0.0f32; params_of(n)];
        p[..first].copy_from_slice(&x[..first]);
        p[l.b()] = x[np - 1];
        let (w, rest) = x[first..np - 1].split_at(n * m);
        let (c, v) = rest.split_at(m);
        Ok((
            p,
            Second {
                w: w.to_vec(),
                c: c.to_vec(),
                v: v.to_vec(),
            },
        ))
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
        let head = first_line(text);
        let want = format!("{HEADER} {} H={hidden} NI={NI}", spec.id);
        if head.trim() != want {
            return Err(format!(
                "weights file starts with {head:?}, expected {want:?}"
            ));
        }
        let p = numbers(text)?;
        if p.len() != np {
            return Err(format!("{} weights, expected {np}", p.len()));
        }
        Ok(p)
    }

    /// The weights as text (comment lines start with `#`), eight to a line: a `senet-net/2`
    /// file where the network has a second hidden layer.
    pub fn to_text(&self, comment: &str) -> String {
        let Some(s) = &self.second else {
            return Self::params_text(self.spec, &self.p, comment);
        };
        let l = Layout::of_len(self.p.len());
        let mut text = String::new();
        for c in comment.lines() {
            text.push_str(&format!("# {c}\n"));
        }
        let (n, m) = (l.n, s.c.len());
        text.push_str(&format!(
            "{HEADER2} {} H={n} H2={m} NI={NI}\n",
            self.spec.id
        ));
        let all: Vec<f32> = [&self.p[..l.v()], &s.w, &s.c, &s.v, &self.p[l.b()..]].concat();
        for row in all.chunks(8) {
            let items: Vec<String> = row.iter().map(|x| format!("{x:.6}")).collect();
            text.push_str(&items.join(" "));
            text.push('\n');
        }
        text
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

/// The first line of a weights file that is neither blank nor a comment.
fn first_line(text: &str) -> &str {
    text.lines()
        .find(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .unwrap_or("")
}

/// The numbers of a weights file after its header (every one finite).
fn numbers(text: &str) -> Result<Vec<f32>, String> {
    let lines = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .skip(1);
    let mut p = Vec::new();
    for (i, tok) in lines.flat_map(str::split_whitespace).enumerate() {
        let x: f32 = tok
            .parse()
            .map_err(|_| format!("weight {i} is {tok:?}, not a number"))?;
        if !x.is_finite() {
            return Err(format!("weight {i} is not finite"));
        }
        p.push(x);
    }
    Ok(p)
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

/// [`forward`]'s output for a main network with a second hidden layer ([`Second`]; `p` in
/// the layout of [`NetEval::p`]): the plain pass, one unit after another, that the
/// committed vectors pin (`tests/net_vectors.rs`).
pub fn forward_two(p: &[f32], s: &Second, x: &[(u8, f32)]) -> f32 {
    let l = Layout::of_len(p.len());
    let (n, m) = (l.n, s.c.len());
    let mut h = p[l.c()..l.v()].to_vec();
    let mut z = p[l.b()];
    for &(i, xi) in x {
        let i = i as usize;
        for (k, hk) in h.iter_mut().enumerate() {
            *hk += xi * p[i * n + k];
        }
        z += p[l.skip() + i] * xi;
    }
    let mut g = s.c.clone();
    for (j, hj) in h.iter().enumerate() {
        for (k, gk) in g.iter_mut().enumerate() {
            *gk += hj.max(0.0) * s.w[j * m + k];
        }
    }
    for (gk, vk) in g.iter().zip(&s.v) {
        z += vk * gk.max(0.0);
    }
    z
}

impl NetEval {
    /// The output before the sigmoid for the mover: the same as `forward(&inputs(..)).0`
    /// (up to the order of the output layer's sum), without building the trainers' input
    /// list: this is the search's hot path. [`NetEval::visit`] gives the position's non-zero
    /// inputs to the layer ([`dense`]), which knows nothing of what they mean. On a processor with AVX2 (detected once, at the first call) the pass runs
    /// in 256-bit registers, eight hidden units at a time ([`simd`]); elsewhere in SSE2's four.
    /// Each unit's sum takes the same steps in the same order either way, so the numbers
    /// are the same to the bit.
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
        let four = at_most_four_a_side(men);
        match (&self.end, &self.end4) {
            (Some(e), _) if four && at_most_three(men[0]) && at_most_three(men[1]) => {
                self.end_z(e, men, mover)
            }
            (_, Some(e)) if four => self.end_z(e, men, mover),
            _ => match &self.second {
                Some(s) => self.z_two(s, men, mover),
                // `parse_params` admits no other size; a hand-built `p` of another size values
                // every position at one half rather than read out of bounds.
                None => self.z_of::<W, false>(&self.p, men, mover).unwrap_or(0.0),
            },
        }
    }

    /// The output before the sigmoid of a main network with a second hidden layer ([`two`]),
    /// 0 (one half) for sizes `parse` admits not.
    #[inline(always)]
    fn z_two(&self, s: &Second, men: [u32; 2], mover: Player) -> f32 {
        let mut a = Active::default();
        self.visit::<false>(men, mover, &mut a);
        let n = Layout::of_len(self.p.len()).n;
        if self.p.len() != params_of(n) || s.w.len() != n * s.c.len() || s.v.len() != s.c.len() {
            return 0.0;
        }
        match (n, s.c.len()) {
            (16, 16) => two::<16, 16>(&self.p, s, &a),
            (16, 32) => two::<16, 32>(&self.p, s, &a),
            (32, 16) => two::<32, 16>(&self.p, s, &a),
            (32, 32) => two::<32, 32>(&self.p, s, &a),
            (64, 16) => two::<64, 16>(&self.p, s, &a),
            (64, 32) => two::<64, 32>(&self.p, s, &a),
            (128, 16) => two::<128, 16>(&self.p, s, &a),
            (128, 32) => two::<128, 32>(&self.p, s, &a),
            (256, 16) => two::<256, 16>(&self.p, s, &a),
            (256, 32) => two::<256, 32>(&self.p, s, &a),
            (512, 16) => two::<512, 16>(&self.p, s, &a),
            (512, 32) => two::<512, 32>(&self.p, s, &a),
            _ => 0.0,
        }
    }

    /// The endgame network's output before the sigmoid (its board terms are those of
    /// [`TrackSpec::end_terms`]), out of line so that the main network's path stays small.
    #[inline(never)]
    fn end_z(&self, p: &[f32], men: [u32; 2], mover: Player) -> f32 {
        simd::run(EndPass {
            net: self,
            p,
            men,
            mover,
        })
    }

    /// [`NetEval::end_z`] `W` units at a time.
    #[inline(always)]
    fn end_z_in<const W: usize>(&self, p: &[f32], men: [u32; 2], mover: Player) -> f32 {
        match self.z_of::<W, true>(p, men, mover) {
            Some(z) => z,
            // `parse_end_params` admits no other size; a hand-built `end` of another size is
            // ignored rather than read out of bounds.
            None => self.z_of::<W, false>(&self.p, men, mover).unwrap_or(0.0),
        }
    }

    /// The number of hidden units of the endgame network, if there is one.
    pub fn end_hidden(&self) -> Option<usize> {
        self.end.as_ref().map(|p| Layout::of_len(p.len()).n)
    }

    /// The number of hidden units of the four-piece endgame network, if there is one.
    pub fn end4_hidden(&self) -> Option<usize> {
        self.end4.as_ref().map(|p| Layout::of_len(p.len()).n)
    }

    /// Which network values a position with `men` on the board: the parameters and whether
    /// they take the endgame inputs ([`NetEval::end_inputs`]). The search's passes choose the
    /// same way.
    pub fn params_for(&self, men: [u32; 2]) -> (&[f32], bool) {
        let most = men[0].count_ones().max(men[1].count_ones());
        match (&self.end, &self.end4) {
            (Some(e), _) if most <= END_PIECES => (e, true),
            (_, Some(e)) if most <= END4_PIECES => (e, true),
            _ => (&self.p, false),
        }
    }

    /// Gives `sink` the non-zero inputs of a position with `mover` to throw, with the board
    /// terms of [`TrackSpec::end_terms`] where `END`, else [`TrackSpec::terms`], in the order
    /// the passes add them: the inputs of 1 (each side's pieces, then its pieces off; the
    /// mover's side first), then the others with their values (each side's board terms, then
    /// the seat). What the inputs mean is here and nowhere else in the fast passes.
    #[inline(always)]
    fn visit<const END: bool>(&self, men: [u32; 2], mover: Player, sink: &mut impl Sink) {
        let (own, opp) = match mover {
            Player::First => (men[0], men[1]),
            Player::Second => (men[1], men[0]),
        };
        let mut t = [[0.0f64; 4]; 2];
        for (side, (base, a, b)) in [(0, own, opp), (SIDE, opp, own)].into_iter().enumerate() {
            let (mut m, mut on) = (a >> 1, 0u32);
            while m != 0 {
                sink.one(base + m.trailing_zeros() as usize);
                m &= m - 1;
                on += 1;
            }
            let off = self.spec.pieces.saturating_sub(on).min(5) as usize;
            if off > 0 {
                sink.one(base + 29 + off);
            }
            t[side] = if END {
                self.spec.end_terms(a, b)
            } else {
                self.spec.terms(a, b)
            };
        }
        for (side, t) in t.iter().enumerate() {
            for (k, &v) in t.iter().enumerate() {
                if v != 0.0 {
                    sink.scaled(side * SIDE + 35 + k, v as f32);
                }
            }
        }
        let seat = if mover == Player::First { 1.0 } else { -1.0 };
        sink.scaled(NI - 1, seat);
    }

    /// The output before the sigmoid of the network `p` for the inputs [`NetEval::visit`]
    /// gives ([`dense`]).
    #[inline(always)]
    fn z_of<const W: usize, const END: bool>(
        &self,
        p: &[f32],
        men: [u32; 2],
        mover: Player,
    ) -> Option<f32> {
        dense::<W>(
            p,
            &TrackInputs::<END> {
                net: self,
                men,
                mover,
            },
        )
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

/// Where [`NetEval::visit`] puts a position's non-zero inputs.
trait Sink {
    /// Input `i` is 1.
    fn one(&mut self, i: usize);
    /// Input `i` is `v` (not 0).
    fn scaled(&mut self, i: usize, v: f32);
}

/// The non-zero inputs of a position as a list (for networks of more than one block): the
/// indexes of the inputs of 1, then the others with their values. (Room for every square of
/// both sides: any input layout fits.)
#[derive(Default)]
struct Active {
    ones: ArrayVec<u8, 64>,
    scaled: ArrayVec<(u8, f32), 32>,
}

impl Sink for Active {
    #[inline(always)]
    fn one(&mut self, i: usize) {
        self.ones.push(i as u8);
    }
    #[inline(always)]
    fn scaled(&mut self, i: usize, v: f32) {
        self.scaled.push((i as u8, v));
    }
}

/// `W * G` hidden units' sums, in `G` groups of `W` lanes (a vector register each), and the
/// output's skip sum: a network of one block takes its inputs straight from
/// [`NetEval::visit`].
struct Block<'a, const W: usize, const G: usize> {
    rows: &'a [[[f32; W]; G]; NI],
    skip: &'a [f32; NI],
    h: [[f32; W]; G],
    z: f32,
}

impl<const W: usize, const G: usize> Sink for Block<'_, W, G> {
    #[inline(always)]
    fn one(&mut self, i: usize) {
        for (hg, &rg) in self.h.iter_mut().zip(&self.rows[i]) {
            *hg = std::array::from_fn(|l| hg[l] + rg[l]);
        }
        self.z += self.skip[i];
    }
    #[inline(always)]
    fn scaled(&mut self, i: usize, v: f32) {
        for (hg, &rg) in self.h.iter_mut().zip(&self.rows[i]) {
            *hg = std::array::from_fn(|l| hg[l] + v * rg[l]);
        }
        self.z += self.skip[i] * v;
    }
}

/// The output before the sigmoid of the network with parameters `p` (laid out as [`Layout`]
/// says, with any of the [`MAIN_SIZES`] or [`END_SIZES`] hidden units; `None` for another
/// number of parameters) for the inputs that `visit` gives, `W` hidden units to a vector
/// register. Nothing here knows what an input means.
///
/// The hidden units go in blocks of up to 64 (as many as the vector registers hold), each
/// block's sums kept in registers while every input's row is added: first the bias, then
/// each input's row in the order `visit` gives them (an input of 1 as it is, another times
/// its value); then the output as [`Out8`] sums it. The output starts from its bias and
/// adds the skip weights in the same order. A network of more than one block lists the
/// inputs first ([`Active`]) and reads the list once a block.
#[inline(always)]
fn dense<const W: usize>(p: &[f32], x: &impl Visit) -> Option<f32> {
    if p.len() < params_of(0) {
        return None;
    }
    let n = Layout::of_len(p.len()).n;
    if p.len() != params_of(n) {
        return None;
    }
    let list = || {
        let mut a = Active::default();
        x.visit(&mut a);
        a
    };
    match (n, W) {
        (16, 4) => Some(dense1::<4, 4>(p, x)),
        (32, 4) => Some(dense1::<4, 8>(p, x)),
        (64, 4) => Some(dense1::<4, 16>(p, x)),
        (128, 4) => Some(dense_in::<4, 16, 2>(p, &list())),
        (256, 4) => Some(dense_in::<4, 16, 4>(p, &list())),
        (512, 4) => Some(dense_in::<4, 16, 8>(p, &list())),
        (16, 8) => Some(dense1::<8, 2>(p, x)),
        (32, 8) => Some(dense1::<8, 4>(p, x)),
        (64, 8) => Some(dense1::<8, 8>(p, x)),
        (128, 8) => Some(dense_in::<8, 8, 2>(p, &list())),
        (256, 8) => Some(dense_in::<8, 8, 4>(p, &list())),
        (512, 8) => Some(dense_in::<8, 8, 8>(p, &list())),
        _ => None,
    }
}

/// A position's non-zero inputs, given to a [`Sink`] one by one.
trait Visit {
    /// Gives `sink` every non-zero input, in the order the sums take them.
    fn visit(&self, sink: &mut impl Sink);
}

/// The track networks' inputs of a position ([`NetEval::visit`]).
struct TrackInputs<'a, const END: bool> {
    net: &'a NetEval,
    men: [u32; 2],
    mover: Player,
}

impl<const END: bool> Visit for TrackInputs<'_, END> {
    #[inline(always)]
    fn visit(&self, sink: &mut impl Sink) {
        self.net.visit::<END>(self.men, self.mover, sink);
    }
}

/// [`dense`] for a network of one block, `W * G` hidden units.
#[inline(always)]
fn dense1<const W: usize, const G: usize>(p: &[f32], x: &impl Visit) -> f32 {
    let n = W * G;
    let (w, tail) = p.split_at(NI * n);
    let (skip, tail) = tail.split_at(NI);
    let (bias, tail) = tail.split_at(n);
    let (out, b) = tail.split_at(n);
    let groups = |a: &[f32]| -> [[f32; W]; G] {
        let g: &[[f32; W]; G] = a.as_chunks::<W>().0.try_into().expect("G groups");
        *g
    };
    let mut blk = Block {
        rows: w
            .as_chunks::<W>()
            .0
            .as_chunks::<G>()
            .0
            .try_into()
            .expect("NI rows"),
        skip: skip.try_into().expect("NI skip weights"),
        h: groups(bias),
        z: b[0],
    };
    x.visit(&mut blk);
    let out = groups(out);
    let mut q = [[0.0f32; W]; G];
    for ((qg, hg), og) in q.iter_mut().zip(&blk.h).zip(&out) {
        *qg = std::array::from_fn(|l| og[l] * hg[l].max(0.0));
    }
    let mut acc = Out8::default();
    for c in q.as_flattened().as_chunks::<8>().0 {
        acc.add(c);
    }
    blk.z + acc.sum()
}

/// [`dense`] for `W * G * B` hidden units, `B` blocks of `G` groups of `W`, the inputs
/// listed.
#[inline(always)]
fn dense_in<const W: usize, const G: usize, const B: usize>(p: &[f32], x: &Active) -> f32 {
    type Blk<const W: usize, const G: usize> = [[f32; W]; G];
    fn blocks<const W: usize, const G: usize, const B: usize>(a: &[f32]) -> &[[Blk<W, G>; B]] {
        a.as_chunks::<W>().0.as_chunks::<G>().0.as_chunks::<B>().0
    }
    let n = W * G * B;
    let (w, tail) = p.split_at(NI * n);
    let (skip, tail) = tail.split_at(NI);
    let (bias, tail) = tail.split_at(n);
    let (out, b) = tail.split_at(n);
    let mut z = b[0];
    for &i in &x.ones {
        z += skip[i as usize];
    }
    for &(i, v) in &x.scaled {
        z += skip[i as usize] * v;
    }
    let rows: &[[Blk<W, G>; B]; NI] = blocks::<W, G, B>(w).try_into().expect("NI rows");
    let bias: &[Blk<W, G>; B] = &blocks::<W, G, B>(bias)[0];
    let out: &[Blk<W, G>; B] = &blocks::<W, G, B>(out)[0];
    let mut acc = Out8::default();
    for blk in 0..B {
        let mut h = bias[blk];
        for &i in &x.ones {
            for (hg, &rg) in h.iter_mut().zip(&rows[i as usize][blk]) {
                *hg = std::array::from_fn(|l| hg[l] + rg[l]);
            }
        }
        for &(i, v) in &x.scaled {
            for (hg, &rg) in h.iter_mut().zip(&rows[i as usize][blk]) {
                *hg = std::array::from_fn(|l| hg[l] + v * rg[l]);
            }
        }
        let mut q = [[0.0f32; W]; G];
        for ((qg, hg), og) in q.iter_mut().zip(&h).zip(&out[blk]) {
            *qg = std::array::from_fn(|l| og[l] * hg[l].max(0.0));
        }
        for c in q.as_flattened().as_chunks::<8>().0 {
            acc.add(c);
        }
    }
    z + acc.sum()
}

/// The output before the sigmoid of a main network of `N` first and `M` second hidden units
/// ([`Second`]) for the inputs listed in `x`. The first layer's sums start from its biases
/// and add each input's row in the list's order (an input of 1 as it is, another times its
/// value); each second-layer unit's sum starts from its bias and adds the first layer's
/// rectified units times their weights in unit order; the output adds the skip weights to its
/// bias in the list's order, and the second layer's products as [`Out8`] sums them. Each sum
/// takes the same steps whatever the lane width, so every pass gives the same numbers to the
/// bit (no fused multiply-add: Rust never fuses on its own).
#[inline(always)]
fn two<const N: usize, const M: usize>(p: &[f32], s: &Second, x: &Active) -> f32 {
    let l = Layout { n: N };
    let rows: &[[f32; N]; NI] = p[..l.skip()]
        .as_chunks::<N>()
        .0
        .try_into()
        .expect("NI rows");
    let skip = &p[l.skip()..l.c()];
    let mut h: [f32; N] = p[l.c()..l.v()].try_into().expect("N biases");
    let mut z = p[l.b()];
    for &i in &x.ones {
        for (hk, rk) in h.iter_mut().zip(&rows[i as usize]) {
            *hk += rk;
        }
        z += skip[i as usize];
    }
    for &(i, v) in &x.scaled {
        for (hk, rk) in h.iter_mut().zip(&rows[i as usize]) {
            *hk += v * rk;
        }
        z += skip[i as usize] * v;
    }
    let w: &[[f32; M]; N] = s.w.as_chunks::<M>().0.try_into().expect("N rows of M");
    let mut g: [f32; M] = s.c[..].try_into().expect("M biases");
    for (hj, r) in h.iter().zip(w) {
        let a = hj.max(0.0);
        for (gk, wk) in g.iter_mut().zip(r) {
            *gk += a * wk;
        }
    }
    let v: &[f32; M] = s.v[..].try_into().expect("M output weights");
    let mut acc = Out8::default();
    for (gc, vc) in g.as_chunks::<8>().0.iter().zip(v.as_chunks::<8>().0) {
        let q: [f32; 8] = std::array::from_fn(|k| vc[k] * gc[k].max(0.0));
        acc.add(&q);
    }
    z + acc.sum()
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
        let a = self.0;
        self.0 = std::array::from_fn(|l| a[l] + q[l]);
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

/// Whether both sides have at most [`END4_PIECES`] pieces on the board: the positions a
/// four-piece endgame network ([`NetEval::end4`]) may value.
#[inline(always)]
pub fn at_most_four_a_side(men: [u32; 2]) -> bool {
    at_most_four(men[0]) && at_most_four(men[1])
}

/// Whether `m` has at most [`END4_PIECES`] (four) bits set (as [`at_most_three`]).
#[inline(always)]
fn at_most_four(m: u32) -> bool {
    const _: () = assert!(END4_PIECES == 4);
    let m = m & m.wrapping_sub(1);
    at_most_three(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::weights;
    use senet_rules::{Game, Kendall5, MoveList, Status};

    /// The fast passes (one block and listed blocks, four and eight lanes) give the
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
        same_as_one_unit_at_a_time::<128, false>();
        same_as_one_unit_at_a_time::<128, true>();
        same_as_one_unit_at_a_time::<256, false>();
        same_as_one_unit_at_a_time::<256, true>();
        same_as_one_unit_at_a_time::<512, false>();
        same_as_one_unit_at_a_time::<512, true>();
    }

    /// Positions awaiting a throw of seeded random `kendall5` games, with each player to throw.
    fn random_positions(seed: u64, games: usize) -> Vec<([u32; 2], Player)> {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let start = Kendall5::start(&senet_rules::Options::defaults(Kendall5::option_specs()));
        let mut ms = MoveList::new();
        let mut out = Vec::new();
        for _ in 0..games {
            let mut g = start;
            loop {
                match g.status() {
                    Status::Over(_) => break,
                    Status::Throw(_) => {
                        out.extend(Player::BOTH.map(|p| (g.men(), p)));
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
        out
    }

    /// A main network of `n` first and `m` second hidden units with random weights (issue 55).
    fn two_layer(n: usize, m: usize, seed: u64) -> NetEval {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut r =
            |k: usize| -> Vec<f32> { (0..k).map(|_| (rng.random::<f32>() - 0.5) * 2.0).collect() };
        let mut net = NetEval::from_linear_sized(&weights::KENDALL5, n, seed, "test");
        let l = Layout { n };
        net.p = r(params_of(n));
        net.p[l.v()..l.b()].fill(0.0);
        net.second = Some(Second {
            w: r(n * m),
            c: r(m),
            v: r(m),
        });
        net
    }

    #[test]
    fn a_second_hidden_layer_is_valued_alike_in_every_pass() {
        // Issue 55: the search's pass at this machine's lane width and at the baseline's give
        // the same numbers to the bit, and the plain pass the same up to float rounding (it
        // takes the inputs in another order).
        for (n, m) in [(16, 16), (64, 32), (128, 32), (256, 16), (512, 32)] {
            let net = two_layer(n, m, n as u64 + m as u64);
            let s = net.second.as_ref().unwrap();
            let mut seen = 0;
            for (men, mover) in random_positions(n as u64, 20) {
                if at_most_four_a_side(men) {
                    continue;
                }
                let pass = || MainPass {
                    net: &net,
                    men,
                    mover,
                };
                let (fast, base) = (simd::run(pass()), simd::run_baseline(pass()));
                assert_eq!(fast.to_bits(), base.to_bits(), "{n}x{m} {men:?} {mover:?}");
                let plain = forward_two(&net.p, s, &net.inputs(men, mover));
                assert!(
                    (fast - plain).abs() <= 1e-4 * (1.0 + plain.abs()),
                    "{n}x{m} {men:?} {mover:?}: {fast} against {plain}"
                );
                seen += 1;
            }
            assert!(seen > 500, "{seen} positions");
        }
    }

    #[test]
    fn a_second_layer_that_passes_the_first_through_values_as_the_one_layer_network() {
        // With the identity for weights and no biases, the second layer's units are the
        // first layer's rectified units, so the network is the one-layer network whose output
        // weights are the second layer's: to the bit, since each sum takes the same steps.
        let one = {
            let mut net = NetEval::from_linear_sized(&weights::KENDALL5, 16, 3, "test");
            let mut rng = Pcg64Mcg::seed_from_u64(8);
            for x in &mut net.p {
                *x = (rng.random::<f32>() - 0.5) * 2.0;
            }
            net
        };
        let l = Layout { n: 16 };
        let mut two = one.clone();
        let v = two.p[l.v()..l.b()].to_vec();
        two.p[l.v()..l.b()].fill(0.0);
        two.second = Some(Second {
            w: (0..256)
                .map(|i| if i / 16 == i % 16 { 1.0 } else { 0.0 })
                .collect(),
            c: vec![0.0; 16],
            v,
        });
        for (men, mover) in random_positions(4, 10) {
            if at_most_four_a_side(men) {
                continue;
            }
            assert_eq!(
                two.mover_z(men, mover).to_bits(),
                one.mover_z(men, mover).to_bits(),
                "{men:?} {mover:?}"
            );
        }
        // And a second layer makes a difference where it is not the identity.
        let mut other = two.clone();
        other.second.as_mut().unwrap().c[0] = -5.0;
        let differ = random_positions(4, 10)
            .iter()
            .filter(|(men, _)| !at_most_four_a_side(*men))
            .any(|&(men, mover)| other.mover_z(men, mover) != two.mover_z(men, mover));
        assert!(differ);
    }

    #[test]
    fn a_two_layer_weights_file_round_trips_and_a_bad_one_says_what_is_wrong() {
        let net = two_layer(64, 32, 9);
        let text = net.to_text("two layers\nsecond line");
        assert!(text
            .starts_with("# two layers\n# second line\nsenet-net/2 kendall5 H=64 H2=32 NI=79\n"));
        let back = NetEval::parse(net.spec, &text, "test").unwrap();
        let round = |x: &[f32]| -> Vec<f32> {
            x.iter()
                .map(|v| format!("{v:.6}").parse().unwrap())
                .collect()
        };
        assert_eq!(back.p, round(&net.p));
        let (s, t) = (net.second.as_ref().unwrap(), back.second.as_ref().unwrap());
        assert_eq!(
            (t.w.clone(), t.c.clone(), t.v.clone()),
            (round(&s.w), round(&s.c), round(&s.v))
        );
        assert_eq!(back.to_text("two layers\nsecond line"), text);
        // A size the engine has no pass for, another rule set, a weight short, one too many,
        // a word: each refused, saying what.
        let head = "senet-net/2 kendall5 H=64 H2=32 NI=79";
        let e = NetEval::parse(
            net.spec,
            &text.replace(head, "senet-net/2 kendall5 H=64 H2=24 NI=79"),
            "t",
        )
        .unwrap_err();
        assert!(e.contains("M one of [16, 32]"), "{e}");
        let e = NetEval::parse(
            net.spec,
            &text.replace(head, "senet-net/2 senat H=64 H2=32 NI=79"),
            "t",
        )
        .unwrap_err();
        assert!(
            e.contains("expected \"senet-net/2 kendall5 H=64 H2=32 NI=79\""),
            "{e}"
        );
        let cut = text.trim_end().rsplit_once(' ').unwrap().0;
        let e = NetEval::parse(net.spec, cut, "t").unwrap_err();
        assert!(e.contains("7311 weights, expected 7312"), "{e}");
        let e = NetEval::parse(net.spec, &format!("{text}0.5\n"), "t").unwrap_err();
        assert!(e.contains("7313 weights, expected 7312"), "{e}");
        let e = NetEval::parse(net.spec, &text.replacen("\n0", "\nzero", 1), "t").unwrap_err();
        assert!(e.contains("not a number"), "{e}");
        // A one-layer file still reads as one.
        let one = NetEval::parse(net.spec, &weights::KENDALL5_NET.to_text(""), "t").unwrap();
        assert!(one.second.is_none());
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

    /// Issue 34: the four-piece endgame network values the positions where both sides have
    /// at most four pieces on the board and the endgame network does not (a side has four, or
    /// there is no endgame network); the main network values the rest.
    #[test]
    fn the_four_piece_endgame_network_values_four_a_side_and_no_more() {
        let mut rng = Pcg64Mcg::seed_from_u64(34);
        let mut random = |n: usize| -> Vec<f32> {
            (0..params_of(n))
                .map(|_| (rng.random::<f32>() - 0.5) * 2.0)
                .collect()
        };
        let mut net = NetEval::from_linear(&weights::KENDALL5, 5, "test");
        net.p = random(64);
        net.end = Some(random(32));
        net.end4 = Some(random(128));
        let main = |men, p: Player| forward::<64>(&net.p, &net.inputs(men, p)).0;
        let end =
            |men, p: Player| forward::<32>(net.end.as_ref().unwrap(), &net.end_inputs(men, p)).0;
        let end4 =
            |men, p: Player| forward::<128>(net.end4.as_ref().unwrap(), &net.end_inputs(men, p)).0;
        let bits = |squares: &[u32]| squares.iter().fold(0u32, |m, &s| m | 1 << s);
        let close = |a: f32, b: f32| (a - b).abs() < 1e-4 * (1.0 + a.abs());
        let three = [bits(&[20, 24, 29]), bits(&[3, 12, 28])];
        let four = [bits(&[20, 24, 26, 29]), bits(&[3, 12])];
        let four_four = [bits(&[5, 20, 24, 29]), bits(&[3, 12, 16, 28])];
        let five = [bits(&[1, 5, 20, 24, 29]), bits(&[3, 12])];
        for p in Player::BOTH {
            assert!(close(net.mover_z(three, p), end(three, p)));
            assert!(close(net.mover_z(four, p), end4(four, p)));
            assert!(close(net.mover_z(four_four, p), end4(four_four, p)));
            assert!(close(net.mover_z(five, p), main(five, p)));
            assert!(!close(end4(four, p), main(four, p)), "the networks differ");
        }
        assert_eq!(net.params_for(four).0.len(), params_of(128));
        assert_eq!(net.params_for(three).0.len(), params_of(32));
        assert_eq!(net.params_for(five).0.len(), params_of(64));
        // Without the endgame network the four-piece one values the smaller endgames too.
        net.end = None;
        let end4 =
            |men, p: Player| forward::<128>(net.end4.as_ref().unwrap(), &net.end_inputs(men, p)).0;
        for p in Player::BOTH {
            assert!(close(net.mover_z(three, p), end4(three, p)));
        }
        // Without either, the main network values them all.
        net.end4 = None;
        let main = |men, p: Player| forward::<64>(&net.p, &net.inputs(men, p)).0;
        for p in Player::BOTH {
            assert!(close(net.mover_z(four, p), main(four, p)));
        }
    }
}
