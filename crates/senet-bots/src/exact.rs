//! Exact win chances of endgames of the stick rule sets (`kendall`, `kendall5`, `senat`,
//! `houses`): every position awaiting a throw with 1 to N pieces of each side on the board
//! (the rest borne off), solved by value iteration over the chance nodes, bonus throws and
//! forced backward moves included (issue 18; `docs/solve.md`).
//!
//! - The solver knows no rule: it builds positions with the rule sets' `endgame`
//!   constructors and follows [`Game::throw_dist`], [`Game::legal_moves`],
//!   [`Game::play_unchecked`] and [`Game::status`] only. A move that bears off leads to a
//!   smaller level, solved before; within a level captures, swaps and backward moves make
//!   cycles, so each level (with its mirror, the same counts with the sides exchanged) is
//!   solved by Gauss-Seidel sweeps until no value changes by more than [`TOLERANCE`]
//!   ([`TOLERANCE_16`] for 16-bit values); on several threads ([`BuildOptions::threads`])
//!   the sweeps are asynchronous, over values in `AtomicU64` (f64; f32 in `AtomicU32` for
//!   16-bit tables), with the same stop rule.
//! - The sweeps read a level pair's successors from a compact graph written out once (a
//!   leaf where the other side throws next with its pieces unmoved is 16 bits, an offset in
//!   the row of the index that all such leaves of the position share; others 32); the
//!   graph of a level pair is kept up to a budget ([`BuildOptions::memory`], default
//!   [`DEFAULT_GRAPH_MEMORY`]) and the positions past it are backed up through the game
//!   API at every sweep, so 4 pieces a side ([`MAX_PIECES`]) fit in a few GiB.
//! - Values are kept in 32 bits (f32) or 16 (fixed point, [`BuildOptions::bits`]);
//!   [`Table::bellman_residual`] checks a finished table through the game API.
//! - The turn cap (ruling C5) is ignored: values are those of the game without a cap.
//! - A table is indexed by the side to throw: the value of (own pieces, opposing pieces) is
//!   the chance that the side to throw wins. The rules of these sheets past the opening do
//!   not depend on which side is which, so the first player's value of a position where the
//!   second is to throw is one minus the value of the mirrored position (a test checks this
//!   against a solve that does not assume it).
//! - One library API: [`Tables`] (a set of tables, loaded lazily per rule set; the process
//!   default is [`Tables::global`]) gives [`Tables::value`] (the first player's win chance
//!   of any position it covers, awaiting a throw or a move) and [`Tables::move_values`]; the
//!   bots use [`WithTables`], an evaluator whose [`Evaluator::exact`] answers from a table.
//! - Files: [`Table::write`] / [`Table::read`], named by [`file_name`], in [`default_dir`].

use crate::eval::{terminal_value, Evaluator};
use rayon::prelude::*;
use senet_rules::{AnyGame, Game, Houses, Kendall, Kendall5, Move, MoveList, Player, RuleSet};
use senet_rules::{Effect, Outcome, Senat, Status};
use std::any::Any;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI16, AtomicU32, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::OnceLock;
#[cfg(not(target_arch = "wasm32"))]
use std::time::Instant;

mod checkpoint;
pub use checkpoint::{partial_name, remove as remove_checkpoint, Checkpoint};
use checkpoint::{Current, Saver};

/// The rule sets with exact tables.
pub const RULE_SETS: [RuleSet; 4] = [
    RuleSet::Kendall,
    RuleSet::Kendall5,
    RuleSet::Senat,
    RuleSet::Houses,
];

/// The most pieces per side a table may hold (a 4-per-side table has 437 million
/// positions: 1.7 GB as f32, 0.9 GB in 16 bits).
pub const MAX_PIECES: usize = 4;

/// Value iteration stops when a sweep changes no value by more than this (32-bit values).
pub const TOLERANCE: f64 = 1e-12;

/// The stop rule for 16-bit values, whose rounding ([`U16_ERROR`], 7.6e-6) is thirty times
/// it; the values are iterated in f32 (a step of 6e-8 at most, so four steps).
pub const TOLERANCE_16: f64 = 2.5e-7;

/// The default budget of one level pair's successor graph ([`BuildOptions::memory`]).
pub const DEFAULT_GRAPH_MEMORY: u64 = 12 << 30;

/// The most sweeps over one level before the solver gives up (never reached in practice).
const MAX_SWEEPS: usize = 100_000;

/// The pieces per side built in memory on first use when no file is present.
pub const BUILTIN_PIECES: usize = 2;

const MAGIC: &[u8; 8] = b"SENETEXT";
/// The file format version.
pub const FORMAT_VERSION: u32 = 1;
/// Value encoding in a file: little-endian f32, NaN for an index that is no position.
const VALUES_F32: u8 = 1;
/// Value encoding in a file: little-endian u16 fixed point, `round(v * 65535)`; every index
/// must be a position.
const VALUES_U16: u8 = 2;

/// The largest error of a 16-bit value: half a step of 1/65535.
pub const U16_ERROR: f64 = 0.5 / 65535.0;

/// How [`Table::build_with`] solves and stores a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildOptions {
    /// Threads for the successor graphs, the sweeps and the Bellman residual: 1 (the
    /// default) is the sequential Gauss-Seidel solver; 0 is rayon's default
    /// (`RAYON_NUM_THREADS`, else one per core); more than 1 sweeps asynchronously, each
    /// thread taking the next block of positions in the sweep's order.
    pub threads: usize,
    /// Bits per value kept, in memory and in the file: 32 (f32, the default) or 16 (fixed
    /// point, error at most [`U16_ERROR`]).
    pub bits: u32,
    /// Bytes the successor graph of one level pair may take; 0 (the default) is
    /// [`DEFAULT_GRAPH_MEMORY`]. The positions whose successors do not fit are backed up
    /// through the game API at every sweep (slower, the same values).
    pub memory: u64,
    /// Where value iteration starts ([`Start`]): the same values either way (the fixed point
    /// is unique), in fewer sweeps from the network's.
    pub start: Start,
    /// Jump ahead when a level converges slowly (Aitken extrapolation; docs/solve.md): once
    /// the changes of a few sweeps in a row point the same way and shrink by a steady ratio r
    /// a sweep, every value moves r/(1-r) times its last change, the rest of the way that
    /// ratio would take it. The same fixed point, in fewer sweeps where some positions keep
    /// returning to themselves (`senat`'s 4v4). On by default; a build resumed from a
    /// checkpoint starts its history afresh, so only a build without it resumes bit for bit.
    pub extrapolate: bool,
}

/// The values value iteration starts from, for every position of a level pair before its
/// first sweep.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Start {
    /// One half everywhere.
    Half,
    /// The rule set's network in use ([`crate::net::NetEval`], its endgame networks where it
    /// has them): closer to the fixed point, so fewer sweeps reach the stop rule.
    #[default]
    Net,
}

impl std::str::FromStr for Start {
    type Err = String;
    fn from_str(s: &str) -> Result<Start, String> {
        match s {
            "half" => Ok(Start::Half),
            "net" => Ok(Start::Net),
            _ => Err(format!("the start is half or net, not {s:?}")),
        }
    }
}

impl std::fmt::Display for Start {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Start::Half => "half",
            Start::Net => "net",
        })
    }
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            threads: 1,
            bits: 32,
            memory: 0,
            start: Start::Net,
            extrapolate: true,
        }
    }
}

impl BuildOptions {
    /// The number of threads these options run on (0 resolved to rayon's default).
    pub fn resolved_threads(&self) -> usize {
        match self.threads {
            0 => rayon::current_num_threads(),
            n => n,
        }
    }

    /// The stop rule: [`TOLERANCE`] for 32-bit values, [`TOLERANCE_16`] for 16.
    pub fn tolerance(&self) -> f64 {
        if self.bits == 16 {
            TOLERANCE_16
        } else {
            TOLERANCE
        }
    }

    /// The graph's budget in bytes ([`BuildOptions::memory`], 0 resolved).
    pub fn graph_budget(&self) -> u64 {
        match self.memory {
            0 => DEFAULT_GRAPH_MEMORY,
            m => m,
        }
    }

    fn params(&self) -> SolveParams {
        SolveParams {
            tolerance: self.tolerance(),
            graph_budget: self.graph_budget(),
            start: self.start,
            extrapolate: self.extrapolate,
        }
    }
}

/// A table's values in the width it was built or read with.
#[derive(Clone, Debug)]
enum Values {
    /// f32, NaN where the index is no position.
    F32(Vec<f32>),
    /// Fixed point, `round(v * 65535)`; every index is a position.
    U16(Vec<u16>),
}

impl Values {
    fn encode(values: &[f64], bits: u32) -> Result<Values, String> {
        match bits {
            32 => Ok(Values::F32(values.iter().map(|&v| v as f32).collect())),
            16 => values
                .iter()
                .map(|&v| {
                    (!v.is_nan())
                        .then(|| (v.clamp(0.0, 1.0) * 65535.0).round() as u16)
                        .ok_or_else(|| {
                            "16-bit values need every index to be a position (these options leave gaps): use --bits 32".to_string()
                        })
                })
                .collect::<Result<_, _>>()
                .map(Values::U16),
            b => Err(format!("values are kept in 32 or 16 bits, not {b}")),
        }
    }

    fn len(&self) -> usize {
        match self {
            Values::F32(v) => v.len(),
            Values::U16(v) => v.len(),
        }
    }

    fn bits(&self) -> u32 {
        match self {
            Values::F32(_) => 32,
            Values::U16(_) => 16,
        }
    }

    /// The value at index `i`, `None` where the index is no position.
    #[inline]
    fn get(&self, i: usize) -> Option<f64> {
        match self {
            Values::F32(v) => {
                let x = v[i];
                (!x.is_nan()).then_some(x as f64)
            }
            Values::U16(v) => Some(v[i] as f64 / 65535.0),
        }
    }
}

/// A rule set whose endgames the solver can enumerate: the `endgame` constructor and the
/// accessors that `senet-rules` gives the four stick rule sets.
pub trait Solvable: Game + Sync {
    /// This game's options with these masks, awaiting `turn`'s throw, past the opening.
    fn endgame(&self, men: [u32; 2], turn: Player) -> Result<Self, senet_rules::Error>;
    /// The piece masks, first player first.
    fn masks(&self) -> [u32; 2];
    /// Whether the opening rules are over (a table covers only such positions).
    fn past_opening(&self) -> bool;
}

macro_rules! solvable {
    ($($t:ty),*) => {$(
        impl Solvable for $t {
            #[inline]
            fn endgame(&self, men: [u32; 2], turn: Player) -> Result<Self, senet_rules::Error> {
                <$t>::endgame(self, men, turn)
            }
            #[inline]
            fn masks(&self) -> [u32; 2] {
                self.men()
            }
            #[inline]
            fn past_opening(&self) -> bool {
                <$t>::past_opening(self)
            }
        }
    )*};
}
solvable!(Kendall, Kendall5, Senat, Houses);

/// The options of a game that a table must match: its non-default options as in its position
/// string, without the turn cap (which exact values ignore).
pub fn options_key<G: Game>(g: &G) -> String {
    g.options()
        .non_default()
        .into_iter()
        .filter(|x| !x.starts_with("cap="))
        .collect::<Vec<_>>()
        .join(",")
}

/// Binomial coefficients C(n, k) for n <= 32, k <= MAX_PIECES.
fn binom(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    let mut r = 1u64;
    for i in 0..k {
        r = r * (n - i) as u64 / (i + 1) as u64;
    }
    r
}

/// How the states of a table are numbered: levels (a, b) for a, b = 1..=pieces, a-major;
/// within a level the colex rank of the side to throw's squares, then the colex rank of the
/// opposing squares among the squares left.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Layout {
    /// The squares a piece may stand on, ascending (probed through the constructor).
    squares: Vec<u8>,
    /// Square -> dense index, `u8::MAX` for none.
    dense: [u8; 32],
    pieces: usize,
    /// `binom[n][k]`.
    binom: Vec<[u64; MAX_PIECES + 1]>,
    /// Start of level (a, b) at `offset[a][b]`.
    offset: [[u64; MAX_PIECES + 1]; MAX_PIECES + 1],
    total: u64,
}

impl Layout {
    fn new(squares: Vec<u8>, pieces: usize) -> Layout {
        let mut dense = [u8::MAX; 32];
        for (i, &s) in squares.iter().enumerate() {
            dense[s as usize] = i as u8;
        }
        let n = squares.len();
        let binom = (0..=32)
            .map(|m| std::array::from_fn(|k| binom(m, k)))
            .collect::<Vec<_>>();
        let mut offset = [[0; MAX_PIECES + 1]; MAX_PIECES + 1];
        let mut total = 0;
        for (a, row) in offset.iter_mut().enumerate().skip(1).take(pieces) {
            for (b, o) in row.iter_mut().enumerate().skip(1).take(pieces) {
                *o = total;
                total += binom[n][a] * binom[n - a][b];
            }
        }
        Layout {
            squares,
            dense,
            pieces,
            binom,
            offset,
            total,
        }
    }

    /// The index of (own, opp), or `None` if the counts are outside the table or a piece
    /// stands where the layout has no square.
    #[inline]
    fn index(&self, own: u32, opp: u32) -> Option<u64> {
        let (a, b) = (own.count_ones() as usize, opp.count_ones() as usize);
        if a == 0 || b == 0 || a > self.pieces || b > self.pieces || own & opp != 0 {
            return None;
        }
        let mut own_d = [0u8; MAX_PIECES];
        let mut ra = 0;
        let mut m = own;
        let mut i = 0;
        while m != 0 {
            let s = m.trailing_zeros() as usize;
            m &= m - 1;
            let d = *self.dense.get(s)?;
            if d == u8::MAX {
                return None;
            }
            own_d[i] = d;
            i += 1;
            ra += self.binom[d as usize][i];
        }
        let mut rb = 0;
        let mut m = opp;
        let mut j = 0;
        while m != 0 {
            let s = m.trailing_zeros() as usize;
            m &= m - 1;
            let d = *self.dense.get(s)?;
            if d == u8::MAX {
                return None;
            }
            let below = own_d[..a].iter().filter(|&&x| x < d).count() as u8;
            j += 1;
            rb += self.binom[(d - below) as usize][j];
        }
        let n = self.squares.len();
        Some(self.offset[a][b] + ra * self.binom[n - a][b] + rb)
    }

    /// The colex combination of rank `r` of `k` elements, ascending.
    fn unrank(&self, mut r: u64, k: usize, out: &mut [u8; MAX_PIECES]) {
        for i in (1..=k).rev() {
            let mut p = i - 1;
            while self.binom[p + 1][i] <= r {
                p += 1;
            }
            out[i - 1] = p as u8;
            r -= self.binom[p][i];
        }
    }

    /// The level of index `i`: (pieces of the side to throw, of the other).
    fn level_of(&self, i: u64) -> (usize, usize) {
        let mut at = (1, 1);
        for a in 1..=self.pieces {
            for b in 1..=self.pieces {
                if self.offset[a][b] <= i {
                    at = (a, b);
                }
            }
        }
        at
    }

    /// The squares (side to throw's, other side's) of index `i` of the table.
    fn masks(&self, i: u64) -> (u32, u32) {
        let (a, b) = self.level_of(i);
        let n = self.squares.len();
        let per = self.binom[n - a][b];
        let r = i - self.offset[a][b];
        let (mut own_d, mut rel) = ([0u8; MAX_PIECES], [0u8; MAX_PIECES]);
        self.unrank(r / per, a, &mut own_d);
        self.unrank(r % per, b, &mut rel);
        let own = own_d[..a]
            .iter()
            .fold(0u32, |m, &d| m | 1 << self.squares[d as usize]);
        let (mut opp, mut q, mut d) = (0u32, 0, 0u8);
        // The rel[j]-th free square (not in own), ascending.
        for &want in &rel[..b] {
            loop {
                if !own_d[..a].contains(&d) {
                    if q == want {
                        opp |= 1 << self.squares[d as usize];
                        q += 1;
                        d += 1;
                        break;
                    }
                    q += 1;
                }
                d += 1;
            }
        }
        (own, opp)
    }

    /// The row of (own to throw, opp) in the index: where the positions with the side to
    /// throw on `own` and as many opposing pieces as `opp` has start, and how many there are.
    fn row(&self, own: u32, opp: u32) -> Option<(u64, u64)> {
        let i = self.index(own, opp)?;
        let (a, b) = (own.count_ones() as usize, opp.count_ones() as usize);
        let per = self.binom[self.squares.len() - a][b];
        let start = i - (i - self.offset[a][b]) % per;
        Some((start, per))
    }

    /// Every (index, own, opp) of level (a, b).
    fn level_states(&self, a: usize, b: usize, mut f: impl FnMut(u64, u32, u32)) {
        let n = self.squares.len();
        let per = self.binom[n - a][b];
        let mut own_d = [0u8; MAX_PIECES];
        let mut rel = [0u8; MAX_PIECES];
        for ra in 0..self.binom[n][a] {
            self.unrank(ra, a, &mut own_d);
            let own = own_d[..a]
                .iter()
                .fold(0u32, |m, &d| m | 1 << self.squares[d as usize]);
            let free: Vec<u8> = (0..n as u8).filter(|d| !own_d[..a].contains(d)).collect();
            for rb in 0..per {
                self.unrank(rb, b, &mut rel);
                let opp = rel[..b].iter().fold(0u32, |m, &q| {
                    m | 1 << self.squares[free[q as usize] as usize]
                });
                f(self.offset[a][b] + ra * per + rb, own, opp);
            }
        }
    }
}

/// The squares a piece may stand on in an endgame of `base`'s rule set and options: those
/// the constructor accepts for a lone piece (with an opposing piece somewhere else).
fn probe_squares<G: Solvable>(base: &G) -> Vec<u8> {
    (1..=30u8)
        .filter(|&s| {
            (1..=30u8)
                .filter(|&t| t != s)
                .any(|t| base.endgame([1 << s, 1 << t], Player::First).is_ok())
        })
        .collect()
}

/// The value for the first player of a position reached after a move: finished, awaiting a
/// throw (looked up by `look`), or awaiting another decision of the same turn (best move).
#[inline]
fn after<G: Game>(c: &G, look: &mut impl FnMut(&G, Player) -> Option<f64>) -> Option<f64> {
    match c.status() {
        Status::Over(o) => Some(terminal_value(&o)),
        Status::Throw(p) => look(c, p),
        Status::Move(p) => decide(c, p, look),
    }
}

/// The best value for the player to move of a position awaiting a move, for the first
/// player.
fn decide<G: Game>(
    g: &G,
    p: Player,
    look: &mut impl FnMut(&G, Player) -> Option<f64>,
) -> Option<f64> {
    let mut ms = MoveList::new();
    g.legal_moves(&mut ms);
    let mut best: Option<f64> = None;
    for &m in &ms {
        let mut c = *g;
        c.play_unchecked(m);
        let v = after(&c, look)?;
        best = Some(match best {
            None => v,
            Some(b) if p == Player::First => b.max(v),
            Some(b) => b.min(v),
        });
    }
    best
}

/// The first player's value of a position awaiting a throw: the weighted mean over throws of
/// the best decision (one Bellman backup).
fn chance<G: Game>(g: &G, look: &mut impl FnMut(&G, Player) -> Option<f64>) -> Option<f64> {
    let d = g.throw_dist();
    let Status::Throw(p) = g.status() else {
        return None;
    };
    let mut v = 0.0;
    for &(t, w) in d.outcomes {
        let mut h = *g;
        h.set_throw_unchecked(t);
        v += w as f64 * decide(&h, p, look)?;
    }
    Some(v / d.total as f64)
}

/// What the solver did for one level pair.
#[derive(Clone, Debug)]
pub struct LevelReport {
    /// Pieces on the board of the side to throw and of the other side.
    pub pieces: (usize, usize),
    /// Positions of the level (and of its mirror, when different).
    pub states: u64,
    /// Gauss-Seidel sweeps until no value changed by more than the tolerance
    /// ([`BuildOptions::tolerance`]).
    pub sweeps: usize,
    /// The largest change in the last sweep.
    pub last_change: f64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Of those, the seconds spent listing the positions and writing out their successors
    /// (the rest is the sweeps).
    pub graph_seconds: f64,
    /// Bytes of the successor graph kept for the sweeps.
    pub graph_bytes: u64,
    /// Leaves (results of a turn) in the graph kept, and of those the near ones (stored in
    /// 16 bits: the other side throws next, its pieces where they were).
    pub graph_leaves: u64,
    /// See [`LevelReport::graph_leaves`].
    pub near_leaves: u64,
    /// Positions whose successors did not fit the budget (or the graph's form), backed up
    /// through the game API at every sweep.
    pub recomputed: u64,
    /// Whether some of its sweeps (all, for a finished pair) ran in an earlier build, read
    /// back from a [`Checkpoint`] (`seconds` and `sweeps` count them too).
    pub resumed: bool,
}

/// What a build tells its caller as it goes (the `progress` argument of [`Table::build`] and
/// the other builds); the library itself prints nothing.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Progress<'a> {
    /// A level pair is solved (or was, in the checkpoint the build goes on from).
    Level(&'a LevelReport),
    /// A sweep of a level pair is done.
    Sweep(SweepReport),
    /// After sweep `sweeps` of level pair `pieces`, every value moved `ratio / (1 - ratio)`
    /// times its last change ([`BuildOptions::extrapolate`]).
    Jump {
        /// Pieces on the board of the side to throw and of the other side.
        pieces: (usize, usize),
        /// The sweeps of the pair so far.
        sweeps: usize,
        /// The ratio of one sweep's changes to the last's that the jump extrapolates.
        ratio: f64,
    },
}

/// One sweep of a level pair ([`Progress::Sweep`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepReport {
    /// Pieces on the board of the side to throw and of the other side.
    pub pieces: (usize, usize),
    /// The sweeps of the pair so far, this one included (and those of an earlier build, for
    /// a pair resumed from a checkpoint).
    pub sweeps: usize,
    /// The largest change of a value in this sweep; the pair is solved when it is at most the
    /// stop rule ([`BuildOptions::tolerance`]).
    pub largest_change: f64,
    /// With [`BuildOptions::extrapolate`]: this sweep's changes as a multiple of the last
    /// sweep's (their projection on them) and the cosine between the two, the trend a jump
    /// waits for.
    pub trend: Option<(f64, f64)>,
    /// Wall-clock seconds of the pair so far (with an earlier build's, when resumed).
    pub seconds: f64,
    /// Of those, this build's seconds listing the positions and writing out their
    /// successors.
    pub graph_seconds: f64,
}

/// What [`Table::build_resumable`] got to.
#[derive(Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Built {
    /// The table, and a report per level pair.
    Table(Table, Vec<LevelReport>),
    /// Stopped by [`Checkpoint::stop_after`], the work saved in the checkpoint; the reports
    /// of the level pairs finished so far.
    Stopped(Vec<LevelReport>),
}

impl Built {
    /// The table of a build that could not stop (no [`Checkpoint`]).
    fn whole(self) -> Result<(Table, Vec<LevelReport>), String> {
        match self {
            Built::Table(t, r) => Ok((t, r)),
            Built::Stopped(_) => Err("the build stopped before its end".to_string()),
        }
    }
}

/// What [`solve_levels`] got to.
enum Solved {
    /// The values per index, and a report per level pair.
    Values(Vec<f64>, Vec<LevelReport>),
    /// Stopped, the work saved; the reports of the pairs finished.
    Stopped(Vec<LevelReport>),
}

/// An exact table of one rule set, options and piece count.
#[derive(Clone, Debug)]
pub struct Table {
    rules: RuleSet,
    options: String,
    layout: Layout,
    /// The side to throw's win chance per index.
    values: Values,
}

/// The default game (default options) of a solvable rule set.
fn base_game(rules: RuleSet) -> Result<AnyGame, String> {
    if !RULE_SETS.contains(&rules) {
        return Err(format!(
            "exact tables exist for kendall, kendall5, senat and houses, not {rules}"
        ));
    }
    AnyGame::new::<&str>(rules, &[]).map_err(|e| e.to_string())
}

impl Table {
    /// Solves every position of `rules` (default options) with 1 to `pieces` pieces of each
    /// side on the board; `progress` hears how the build goes ([`Progress`]: each sweep, jump and
    /// level pair done).
    /// Sequentially, in 32 bits ([`BuildOptions::default`]).
    pub fn build(
        rules: RuleSet,
        pieces: usize,
        progress: &mut dyn FnMut(Progress<'_>),
    ) -> Result<(Table, Vec<LevelReport>), String> {
        Self::build_with(rules, pieces, BuildOptions::default(), progress)
    }

    /// [`Table::build`] on `opts.threads` threads, keeping `opts.bits` bits per value.
    pub fn build_with(
        rules: RuleSet,
        pieces: usize,
        opts: BuildOptions,
        progress: &mut dyn FnMut(Progress<'_>),
    ) -> Result<(Table, Vec<LevelReport>), String> {
        Self::build_resumable(rules, pieces, opts, None, progress).and_then(Built::whole)
    }

    /// [`Table::build_with`], saving its work in `checkpoint` as it goes (and going on from
    /// the work saved there by an earlier build of the same table, if the file is there): see
    /// [`Checkpoint`]. The caller removes the file once the table is written
    /// ([`remove_checkpoint`]).
    pub fn build_resumable(
        rules: RuleSet,
        pieces: usize,
        opts: BuildOptions,
        checkpoint: Option<&Checkpoint>,
        progress: &mut dyn FnMut(Progress<'_>),
    ) -> Result<Built, String> {
        if !(1..=MAX_PIECES).contains(&pieces) {
            return Err(format!(
                "pieces per side must be from 1 to {MAX_PIECES}, got {pieces}"
            ));
        }
        let ck = checkpoint;
        match base_game(rules)? {
            AnyGame::Kendall(g) => Self::build_for_resumable(&g, pieces, opts, ck, progress),
            AnyGame::Kendall5(g) => Self::build_for_resumable(&g, pieces, opts, ck, progress),
            AnyGame::Senat(g) => Self::build_for_resumable(&g, pieces, opts, ck, progress),
            AnyGame::Houses(g) => Self::build_for_resumable(&g, pieces, opts, ck, progress),
            g => Err(format!("no exact tables for {}", g.rules())),
        }
    }

    /// The solver, for any options of a solvable rule set (`base` gives them); sequential,
    /// 32 bits.
    pub fn build_for<G: Solvable>(
        base: &G,
        pieces: usize,
        progress: &mut dyn FnMut(Progress<'_>),
    ) -> (Table, Vec<LevelReport>) {
        Self::build_for_with(base, pieces, BuildOptions::default(), progress)
            .expect("32-bit values encode every table")
    }

    /// [`Table::build_for`] with [`BuildOptions`]; an error only for 16 bits where some
    /// index is no position, or bits other than 16 and 32.
    pub fn build_for_with<G: Solvable>(
        base: &G,
        pieces: usize,
        opts: BuildOptions,
        progress: &mut dyn FnMut(Progress<'_>),
    ) -> Result<(Table, Vec<LevelReport>), String> {
        Self::build_for_resumable(base, pieces, opts, None, progress).and_then(Built::whole)
    }

    /// [`Table::build_for_with`] with a [`Checkpoint`] ([`Table::build_resumable`]).
    pub fn build_for_resumable<G: Solvable>(
        base: &G,
        pieces: usize,
        opts: BuildOptions,
        checkpoint: Option<&Checkpoint>,
        progress: &mut dyn FnMut(Progress<'_>),
    ) -> Result<Built, String> {
        if opts.bits != 16 && opts.bits != 32 {
            return Err(format!(
                "values are kept in 32 or 16 bits, not {}",
                opts.bits
            ));
        }
        let pieces = pieces.clamp(1, MAX_PIECES);
        let layout = Layout::new(probe_squares(base), pieces);
        // f32 cells for 16-bit values, f64 for 32 ([`Cell`]).
        let solve = if opts.bits == 16 {
            solve_levels::<G, AtomicU32>
        } else {
            solve_levels::<G, AtomicU64>
        };
        let solved = solve(
            base,
            &layout,
            2 * pieces,
            opts.threads,
            opts.params(),
            checkpoint,
            progress,
        )?;
        let (values, reports) = match solved {
            Solved::Values(v, r) => (v, r),
            Solved::Stopped(r) => return Ok(Built::Stopped(r)),
        };
        let table = Table {
            rules: base.rules(),
            options: options_key(base),
            layout,
            values: Values::encode(&values, opts.bits)?,
        };
        Ok(Built::Table(table, reports))
    }

    /// Bits per value kept: 32 (f32) or 16 (fixed point).
    pub fn bits(&self) -> u32 {
        self.values.bits()
    }

    /// The rule set.
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// The non-default options (turn cap excluded), as in a position string.
    pub fn options(&self) -> &str {
        &self.options
    }

    /// The most pieces per side on the board that the table covers.
    pub fn pieces(&self) -> usize {
        self.layout.pieces
    }

    /// The number of positions (indices that are positions).
    pub fn states(&self) -> usize {
        (0..self.values.len())
            .filter(|&i| self.values.get(i).is_some())
            .count()
    }

    /// The chance that the side to throw wins, with its pieces on `own` and the other side's
    /// on `opp` (bit `s` for square `s`), if the table covers it.
    pub fn side_to_throw(&self, own: u32, opp: u32) -> Option<f64> {
        let i = self.layout.index(own, opp)?;
        self.values.get(i as usize)
    }

    /// The first player's win chance of `g`, a position awaiting a throw of this table's
    /// rule set, past the opening, with 1 to [`Table::pieces`] pieces of each side on the
    /// board; `None` otherwise. The options are not checked here (see [`Tables::table_for`]).
    #[inline]
    pub fn lookup<G: Game>(&self, g: &G) -> Option<f64> {
        self.lookup_within(g, MAX_PIECES)
    }

    /// [`Table::lookup`], but only for positions with at most `limit` pieces of each side on
    /// the board (a table read as if it were a smaller one: the measurement of the bots with
    /// the tables they had before, `senet ladder --exact`).
    #[inline]
    pub fn lookup_within<G: Game>(&self, g: &G, limit: usize) -> Option<f64> {
        if g.rules() != self.rules {
            return None;
        }
        let any = g as &dyn Any;
        let (men, open) = if let Some(k) = any.downcast_ref::<Kendall5>() {
            (k.masks(), Solvable::past_opening(k))
        } else if let Some(k) = any.downcast_ref::<Kendall>() {
            (k.masks(), Solvable::past_opening(k))
        } else if let Some(k) = any.downcast_ref::<Senat>() {
            (k.masks(), Solvable::past_opening(k))
        } else if let Some(k) = any.downcast_ref::<Houses>() {
            (k.masks(), Solvable::past_opening(k))
        } else if let Some(a) = any.downcast_ref::<AnyGame>() {
            return senet_rules::with_game!(a, x => self.lookup_within(x, limit));
        } else {
            return None;
        };
        let Status::Throw(p) = g.status() else {
            return None;
        };
        if !open || men.iter().any(|m| m.count_ones() as usize > limit) {
            return None;
        }
        let w = self.side_to_throw(men[p.index()], men[1 - p.index()])?;
        Some(if p == Player::First { w } else { 1.0 - w })
    }

    /// The file's bytes: the header (magic, format version, rule set, options, pieces, the
    /// squares of the index, value encoding, state count, FNV-1a 64 checksum of the values)
    /// then the values as little-endian f32 (encoding 1) or u16 fixed point (encoding 2).
    pub fn to_bytes(&self) -> Vec<u8> {
        let (body, encoding) = match &self.values {
            Values::F32(v) => (
                v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>(),
                VALUES_F32,
            ),
            Values::U16(v) => (
                v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>(),
                VALUES_U16,
            ),
        };
        let mut out = Vec::with_capacity(body.len() + 128);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        let id = self.rules.id().as_bytes();
        out.push(id.len() as u8);
        out.extend_from_slice(id);
        out.extend_from_slice(&(self.options.len() as u16).to_le_bytes());
        out.extend_from_slice(self.options.as_bytes());
        out.push(self.layout.pieces as u8);
        out.push(self.layout.squares.len() as u8);
        out.extend_from_slice(&self.layout.squares);
        out.push(encoding);
        out.extend_from_slice(&(self.values.len() as u64).to_le_bytes());
        out.extend_from_slice(&fnv1a(&body).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// Reads a table from its bytes, checking everything: a wrong magic, version, rule set,
    /// layout, size or checksum is an error that says what is wrong. `what` names the source
    /// in messages.
    pub fn from_bytes(bytes: &[u8], what: &str) -> Result<Table, String> {
        let mut r = Reader { bytes, at: 0, what };
        if r.take(8)? != MAGIC {
            return Err(format!(
                "{what} is not a senet exact table (no SENETEXT header)"
            ));
        }
        let version = u32::from_le_bytes(r.take(4)?.try_into().expect("4 bytes"));
        if version != FORMAT_VERSION {
            return Err(format!(
                "{what} has table format version {version}; this senet reads version {FORMAT_VERSION} (rebuild it with senet solve)"
            ));
        }
        let n = r.take(1)?[0] as usize;
        let id = String::from_utf8_lossy(r.take(n)?).into_owned();
        let rules: RuleSet = id
            .parse()
            .map_err(|_| format!("{what} names an unknown rule set {id:?}"))?;
        let n = u16::from_le_bytes(r.take(2)?.try_into().expect("2 bytes")) as usize;
        let options = String::from_utf8_lossy(r.take(n)?).into_owned();
        let pieces = r.take(1)?[0] as usize;
        if !(1..=MAX_PIECES).contains(&pieces) {
            return Err(format!(
                "{what} claims {pieces} pieces per side; tables have 1 to {MAX_PIECES}"
            ));
        }
        let n = r.take(1)?[0] as usize;
        let squares = r.take(n)?.to_vec();
        if squares.iter().any(|&s| !(1..=30).contains(&s))
            || !squares.windows(2).all(|w| w[0] < w[1])
        {
            return Err(format!("{what} has a corrupt square list"));
        }
        let encoding = r.take(1)?[0];
        let width = match encoding {
            VALUES_F32 => 4,
            VALUES_U16 => 2,
            _ => return Err(format!("{what} has unknown value encoding {encoding}")),
        };
        let count = u64::from_le_bytes(r.take(8)?.try_into().expect("8 bytes"));
        let sum = u64::from_le_bytes(r.take(8)?.try_into().expect("8 bytes"));
        let layout = Layout::new(squares, pieces);
        if count != layout.total {
            return Err(format!(
                "{what} holds {count} states, but {pieces} pieces per side on its squares make {}",
                layout.total
            ));
        }
        let body = &bytes[r.at..];
        if body.len() as u64 != count * width {
            return Err(format!(
                "{what} is {} bytes long; its header promises {} (truncated or padded)",
                bytes.len(),
                r.at as u64 + count * width
            ));
        }
        if fnv1a(body) != sum {
            return Err(format!(
                "{what} is corrupt: the checksum of its values does not match its header"
            ));
        }
        let values = if encoding == VALUES_U16 {
            Values::U16(
                body.chunks_exact(2)
                    .map(|c| u16::from_le_bytes(c.try_into().expect("2 bytes")))
                    .collect(),
            )
        } else {
            let values: Vec<f32> = body
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
                .collect();
            if let Some(v) = values
                .iter()
                .find(|v| !v.is_nan() && !(0.0..=1.0).contains(*v))
            {
                return Err(format!("{what} holds a value {v} outside 0-1"));
            }
            Values::F32(values)
        };
        let t = Table {
            rules,
            options,
            layout,
            values,
        };
        Ok(t)
    }

    /// Writes the table to `path` (through a temporary file renamed into place).
    pub fn write(&self, path: &Path) -> Result<(), String> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, self.to_bytes())
            .map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, path).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// Reads the table at `path`, which must be of `rules` with default options (the only
    /// tables `senet solve` builds) and of the squares those rules allow.
    pub fn read(path: &Path, rules: RuleSet) -> Result<Table, String> {
        let what = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read {what}: {e}"))?;
        let t = Table::from_bytes(&bytes, &what)?;
        t.check_matches(rules)?;
        Ok(t)
    }

    /// Checks that the table is one of `rules` with default options and the squares those
    /// rules allow.
    pub fn check_matches(&self, rules: RuleSet) -> Result<(), String> {
        if self.rules != rules {
            return Err(format!("the table is of {}, not {rules}", self.rules));
        }
        let base = base_game(rules)?;
        if self.options != options_key(&base) {
            return Err(format!(
                "the table was built with options {:?}, not the defaults of {rules}",
                self.options
            ));
        }
        let squares = senet_rules::with_game!(&base, g => probe_any(g));
        if squares.as_deref() != Some(&self.layout.squares[..]) {
            return Err(format!(
                "the table's squares do not match the rules of {rules} in this senet (rebuild it with senet solve)"
            ));
        }
        Ok(())
    }
}

fn probe_any<G: Game>(g: &G) -> Option<Vec<u8>> {
    let any = g as &dyn Any;
    if let Some(k) = any.downcast_ref::<Kendall5>() {
        Some(probe_squares(k))
    } else if let Some(k) = any.downcast_ref::<Kendall>() {
        Some(probe_squares(k))
    } else if let Some(k) = any.downcast_ref::<Senat>() {
        Some(probe_squares(k))
    } else {
        any.downcast_ref::<Houses>().map(probe_squares)
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    what: &'a str,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        let end = self.at + n;
        if end > self.bytes.len() {
            return Err(format!(
                "{} is truncated: its header is incomplete",
                self.what
            ));
        }
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
}

/// FNV-1a, 64 bits.
fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_more(FNV_OFFSET, bytes)
}

/// FNV-1a's starting state.
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a of more bytes, from the state `h` of those before.
fn fnv1a_more(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// A value of a table being solved, shared by the sweeping threads (NaN where the index is
/// no position or not solved yet): f64 bits in an `AtomicU64` for 32-bit tables, whose stop
/// rule ([`TOLERANCE`]) is far below f32's resolution; f32 bits in an `AtomicU32` for 16-bit
/// ones ([`TOLERANCE_16`]), half the memory (1.7 GB less for a 4-piece table, room for more of
/// the successor graph) and half the bytes each sweep reads at random.
trait Cell: Send + Sync {
    /// Bytes of a cell in a checkpoint ([`Checkpoint`]).
    const BYTES: usize;
    fn nan() -> Self;
    fn get(&self) -> f64;
    /// Stores `v` as the cell keeps it and returns that.
    fn set(&self, v: f64) -> f64;
    /// Appends the cell's bits, little-endian.
    fn push_le(&self, out: &mut Vec<u8>);
    /// Sets the cell's bits from [`Cell::BYTES`] little-endian bytes.
    fn set_le(&self, bytes: &[u8]);
}

impl Cell for AtomicU64 {
    const BYTES: usize = 8;
    fn push_le(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.load(Relaxed).to_le_bytes());
    }
    fn set_le(&self, bytes: &[u8]) {
        self.store(
            u64::from_le_bytes(bytes.try_into().expect("8 bytes")),
            Relaxed,
        );
    }
    fn nan() -> Self {
        AtomicU64::new(f64::NAN.to_bits())
    }
    #[inline]
    fn get(&self) -> f64 {
        f64::from_bits(self.load(Relaxed))
    }
    #[inline]
    fn set(&self, v: f64) -> f64 {
        self.store(v.to_bits(), Relaxed);
        v
    }
}

impl Cell for AtomicU32 {
    const BYTES: usize = 4;
    fn push_le(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.load(Relaxed).to_le_bytes());
    }
    fn set_le(&self, bytes: &[u8]) {
        self.store(
            u32::from_le_bytes(bytes.try_into().expect("4 bytes")),
            Relaxed,
        );
    }
    fn nan() -> Self {
        AtomicU32::new(f32::NAN.to_bits())
    }
    #[inline]
    fn get(&self) -> f64 {
        f32::from_bits(self.load(Relaxed)) as f64
    }
    #[inline]
    fn set(&self, v: f64) -> f64 {
        let x = v as f32;
        self.store(x.to_bits(), Relaxed);
        x as f64
    }
}

#[inline]
fn load<C: Cell>(values: &[C], i: usize) -> f64 {
    values[i].get()
}

/// The time since a solve started, for its reports. WebAssembly in a page
/// (`wasm32-unknown-unknown`, the page's engine) has no clock: `Instant::now` panics there,
/// so its reports say 0 seconds; everywhere else this is `Instant`.
#[derive(Clone, Copy)]
struct Stopwatch {
    #[cfg(not(target_arch = "wasm32"))]
    start: Instant,
}

impl Stopwatch {
    fn start() -> Stopwatch {
        Stopwatch {
            #[cfg(not(target_arch = "wasm32"))]
            start: Instant::now(),
        }
    }

    /// Seconds since [`Stopwatch::start`] (0 without a clock).
    fn seconds(&self) -> f64 {
        #[cfg(not(target_arch = "wasm32"))]
        return self.start.elapsed().as_secs_f64();
        #[cfg(target_arch = "wasm32")]
        return 0.0;
    }
}

/// Gives `f` a pool of `threads` threads (0: rayon's default) for its parallel parts, or
/// none for 1 (all on this thread).
///
/// In WebAssembly (the page's engine, one thread) always on this thread, so that none of
/// rayon's machinery is compiled in.
fn with_pool<R>(threads: usize, f: impl FnOnce(Option<&rayon::ThreadPool>) -> R) -> R {
    if threads == 1 || cfg!(target_arch = "wasm32") {
        return f(None);
    }
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => f(Some(&pool)),
        // No threads to be had: solve on this one.
        Err(_) => f(None),
    }
}

/// How one level pair is solved: threads, stop rule, graph budget (from [`BuildOptions`]).
#[derive(Clone, Copy, Debug)]
struct SolveParams {
    tolerance: f64,
    /// Bytes the successor graph of one level pair may take.
    graph_budget: u64,
    start: Start,
    extrapolate: bool,
}

/// Solves every level pair with at most `max_total` pieces on the board, smaller totals
/// first (bearing off leads to a smaller total); the values per index. With a checkpoint,
/// goes on from the work saved there and saves its own as it goes ([`Checkpoint`]).
#[allow(clippy::too_many_arguments)]
fn solve_levels<G: Solvable, C: Cell>(
    base: &G,
    layout: &Layout,
    max_total: usize,
    threads: usize,
    params: SolveParams,
    checkpoint: Option<&Checkpoint>,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<Solved, String> {
    let values: Vec<C> = (0..layout.total).map(|_| C::nan()).collect();
    let pieces = layout.pieces;
    let options = options_key(base);
    let mut saver =
        checkpoint.map(|ck| Saver::new(ck, base.rules().id(), &options, layout, C::BYTES));
    let mut current = None;
    if let Some(s) = saver.as_mut() {
        current = s.resume(&values)?.flatten();
    }
    // The finished pairs' reports, in the saver where there is one (it saves them too).
    let mut unsaved = Vec::new();
    let done = with_pool(threads, |pool| -> Result<bool, String> {
        for t in 2..=max_total.min(2 * pieces) {
            for a in 1..t.min(pieces + 1) {
                let b = t - a;
                if b < a || b > pieces {
                    continue;
                }
                let from_checkpoint = saver
                    .as_ref()
                    .and_then(|s| s.finished.iter().find(|r| r.pieces == (a, b)));
                if let Some(r) = from_checkpoint {
                    progress(Progress::Level(r));
                    continue;
                }
                let resume = current.take().filter(|c: &Current| c.pieces == (a, b));
                if let Some(s) = saver.as_mut().filter(|s| resume.is_none() && s.must_stop()) {
                    s.save(&values, None)?;
                    return Ok(false);
                }
                let Some(r) = solve_pair(
                    base,
                    layout,
                    &values,
                    (a, b),
                    pool,
                    params,
                    saver.as_mut(),
                    resume,
                    &mut *progress,
                )?
                else {
                    return Ok(false);
                };
                progress(Progress::Level(&r));
                match saver.as_mut() {
                    Some(s) => {
                        s.finished.push(r);
                        // A stop is for the next pair (above): none after the last.
                        if s.due() {
                            s.save(&values, None)?;
                        }
                    }
                    None => unsaved.push(r),
                }
            }
        }
        Ok(true)
    })?;
    let reports = saver.map_or(unsaved, |s| s.finished);
    Ok(if done {
        Solved::Values(values.iter().map(C::get).collect(), reports)
    } else {
        Solved::Stopped(reports)
    })
}

/// Solves level (a, b) with its mirror (b, a): Gauss-Seidel sweeps over both, most advanced
/// positions first (the sum of both sides' squares, descending), so that a sweep sees the
/// new values of most successors. With a pool, the successors are written out in parallel
/// and the sweeps are asynchronous: each thread takes the next block of positions in that
/// order and reads whatever values are there (the previous sweep's or this one's); the stop
/// rule is the same (a sweep in which no value changed by more than the tolerance). Blocks
/// whose successors do not fit the graph's budget are backed up through the game API at
/// every sweep.
///
/// With a saver, the values are saved between sweeps when a save is due, and the solve stops
/// (`None`, the work saved) when the build must stop; `resume` is where a checkpoint left this
/// pair (its values are in `values`: the start values are not set again).
#[allow(clippy::too_many_arguments)]
fn solve_pair<G: Solvable, C: Cell>(
    base: &G,
    layout: &Layout,
    values: &[C],
    (a, b): (usize, usize),
    pool: Option<&rayon::ThreadPool>,
    params: SolveParams,
    mut saver: Option<&mut Saver<'_>>,
    resume: Option<Current>,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<Option<LevelReport>, String> {
    let start = Stopwatch::start();
    // The sweep's order: the pieces' squares summed, largest first (a move forward leads to
    // a larger sum, so most successors are swept before the positions that reach them); among
    // equal sums, by the index of the mirror position (the other side to throw), so that the
    // positions whose near leaves share a row of the index ([`Graph`]) come one after another
    // and find that row in the cache. Sorted as (Reverse(sum), mirror index), then each
    // mirror index turned back into the position's own.
    let mut keyed: Vec<u64> = Vec::new();
    let mut collect = |_: u64, own: u32, opp: u32| {
        if base.endgame([own, opp], Player::First).is_ok() {
            let key = 1024 - (squares_sum(own) + squares_sum(opp)) as u64;
            let mirror = layout
                .index(opp, own)
                .expect("the mirror of a listed position");
            keyed.push(key << 32 | mirror);
        }
    };
    layout.level_states(a, b, &mut collect);
    if a != b {
        layout.level_states(b, a, &mut collect);
    }
    let unmirror = |&k: &u64| {
        let (opp, own) = layout.masks(k as u32 as u64);
        layout.index(own, opp).expect("a listed position") as u32
    };
    let states: Vec<u32> = match pool {
        Some(pool) => pool.install(|| {
            keyed.par_sort_unstable();
            keyed.par_iter().map(unmirror).collect()
        }),
        None => {
            keyed.sort_unstable();
            keyed.iter().map(unmirror).collect()
        }
    };
    drop(keyed);
    let net = match params.start {
        Start::Net => crate::weights::track_net(base.rules()),
        Start::Half => None,
    };
    let first = |&i: &u32| {
        let v = net.map_or(0.5, |n| {
            let (own, opp) = layout.masks(i as u64);
            n.mover_value([own, opp], Player::First)
        });
        values[i as usize].set(v);
    };
    match (pool, resume) {
        (_, Some(_)) => {}
        (Some(pool), None) => pool.install(|| states.par_iter().for_each(first)),
        (None, None) => states.iter().for_each(first),
    }
    let graph = match pool {
        Some(pool) => pool.install(|| {
            Graph::build(
                base,
                layout,
                &states,
                pool.current_num_threads(),
                params.graph_budget,
            )
        }),
        None => Graph::build(base, layout, &states, 1, params.graph_budget),
    };
    let graph_seconds = start.seconds();
    let (sweeps_before, seconds_before, graph_before) =
        resume.map_or((0, 0.0, 0.0), |c| (c.sweeps, c.seconds, c.graph_seconds));
    let mut sweeps = sweeps_before;
    let mut change = f64::INFINITY;
    let mut jumps = params.extrapolate.then(|| Extrapolation::new(states.len()));
    while change > params.tolerance && sweeps < MAX_SWEEPS {
        let ctx = Sweep {
            base,
            layout,
            states: &states,
            values,
            deltas: jumps.as_mut().map(|x| x.next()),
        };
        let swept = graph.sweep(&ctx, pool);
        change = swept.largest;
        sweeps += 1;
        let jump = match jumps.as_mut() {
            Some(x) if change > params.tolerance => x.swept(swept),
            _ => None,
        };
        progress(Progress::Sweep(SweepReport {
            pieces: (a, b),
            sweeps,
            largest_change: change,
            trend: jumps.as_ref().map(|x| x.trend),
            seconds: seconds_before + start.seconds(),
            graph_seconds,
        }));
        if change <= params.tolerance {
            break;
        }
        if let (Some(x), Some(ratio)) = (jumps.as_ref(), jump) {
            x.jump(ratio, &states, values, pool);
            progress(Progress::Jump {
                pieces: (a, b),
                sweeps,
                ratio,
            });
        }
        if let Some(s) = saver.as_deref_mut() {
            s.swept();
            let stop = s.must_stop();
            if stop || s.due() {
                let here = Current {
                    pieces: (a, b),
                    sweeps,
                    seconds: seconds_before + start.seconds(),
                    graph_seconds: graph_before + graph_seconds,
                };
                s.save(values, Some(here))?;
            }
            if stop {
                return Ok(None);
            }
        }
    }
    Ok(Some(LevelReport {
        pieces: (a, b),
        states: states.len() as u64,
        sweeps,
        last_change: change,
        seconds: seconds_before + start.seconds(),
        graph_seconds: graph_before + graph_seconds,
        graph_bytes: graph.bytes,
        graph_leaves: graph.leaves,
        near_leaves: graph.near,
        recomputed: graph.recomputed(states.len()) as u64,
        resumed: resume.is_some(),
    }))
}

/// What a sweep reads and writes.
struct Sweep<'a, G, C> {
    base: &'a G,
    layout: &'a Layout,
    /// The level pair's positions (table indices) in the sweep's order.
    states: &'a [u32],
    values: &'a [C],
    /// Where each position's change is kept (in the sweep's order), with the unit of the
    /// ones there now and the unit to keep this sweep's in ([`Extrapolation`]).
    deltas: Option<(&'a [AtomicI16], [f64; 2])>,
}

impl<G, C: Cell> Sweep<'_, G, C> {
    /// Sets the value of the `k`-th position of the sweep (table index `i`) to `v`, its
    /// change counted in `change`.
    #[inline]
    fn set(&self, k: usize, i: usize, v: f64, change: &mut Change) {
        set_value(self.values, self.deltas, k, i, v, change);
    }
}

/// Sets `values[i]` (the `k`-th position of the sweep) to `v`, its change counted in `change`
/// and kept in `deltas` where there are ([`Sweep::deltas`]).
#[inline]
fn set_value<C: Cell>(
    values: &[C],
    deltas: Option<(&[AtomicI16], [f64; 2])>,
    k: usize,
    i: usize,
    v: f64,
    change: &mut Change,
) {
    let old = load(values, i);
    let d = values[i].set(v) - old;
    change.add(d);
    if let Some((deltas, units)) = deltas {
        Extrapolation::record(deltas, units, k, d, change);
    }
}

/// The changes of a sweep: the largest (the stop rule's); for [`Extrapolation`], the sum of
/// their squares and their dot product with the last sweep's.
#[derive(Clone, Copy, Debug, Default)]
struct Change {
    largest: f64,
    squares: f64,
    dot: f64,
}

impl Change {
    #[inline]
    fn add(&mut self, d: f64) {
        self.largest = self.largest.max(d.abs());
        self.squares += d * d;
    }

    fn merge(self, o: Change) -> Change {
        Change {
            largest: self.largest.max(o.largest),
            squares: self.squares + o.squares,
            dot: self.dot + o.dot,
        }
    }
}

/// Sweeps, before a jump, since the last one (or the pair's start).
const JUMP_HISTORY: usize = 6;
/// The last three ratios of the sweeps' changes must lie within this of each other.
const JUMP_SPREAD: f64 = 0.02;
/// The changes of each of the last three sweeps must point this close to the direction of
/// the one before (the cosine of the angle between them): one slow direction, not several
/// (nor a rotation, where the changes of successive sweeps go round a cycle of positions).
const JUMP_ALIGNED: f64 = 0.99;
/// Slower than this (the changes falling by less than a fifth a sweep) is worth a jump.
const JUMP_FROM: f64 = 0.8;
/// A ratio is capped here (a jump of at most 499 times the last change).
const JUMP_UP_TO: f64 = 0.998;

/// Extrapolation of slow value iteration (Aitken's method on the slowest direction): where
/// the error shrinks by a ratio r a sweep along one direction, each sweep's changes d are
/// that direction and the values are r/(1-r)·d short of the fixed point. Each position's
/// change is kept in 16 bits (two bytes a position; units of 2/32767 of the previous
/// sweep's largest change). From one sweep to the next, the ratio is the projection of the
/// new changes on the last ones (their dot product over the last ones' squares) and the
/// alignment their cosine. After [`JUMP_HISTORY`] sweeps whose last three ratios lie within
/// [`JUMP_SPREAD`] of each other, at least [`JUMP_FROM`] and below one, with alignments of at
/// least [`JUMP_ALIGNED`], every value of the pair moves r/(1-r) times its last change (the
/// middle ratio of the three, clamped to [0, 1]); then the history starts again. A faster
/// direction left in d is multiplied too, but decays faster; the sweeps go on to the same
/// stop rule, so the fixed point is the same.
struct Extrapolation {
    deltas: Vec<AtomicI16>,
    /// The unit of the changes kept in `deltas`.
    unit: f64,
    /// The largest change and the sum of squares of the last sweep.
    last: Change,
    /// (ratio, alignment) of each sweep since the last jump to the sweep before.
    history: Vec<(f64, f64)>,
    /// That of the last sweep.
    trend: (f64, f64),
}

impl Extrapolation {
    fn new(len: usize) -> Extrapolation {
        Extrapolation {
            deltas: (0..len).map(|_| AtomicI16::new(0)).collect(),
            unit: 1.0 / 32767.0,
            last: Change::default(),
            history: Vec::new(),
            trend: (0.0, 0.0),
        }
    }

    /// Keeps change `d` of the `k`-th position of the sweep in `units[1]`, reading the one
    /// it replaces (in `units[0]`) into `change`'s dot product.
    #[inline]
    fn record(deltas: &[AtomicI16], units: [f64; 2], k: usize, d: f64, change: &mut Change) {
        let q = (d / units[1]).round().clamp(-32767.0, 32767.0) as i16;
        let before = deltas[k].swap(q, Relaxed) as f64 * units[0];
        change.dot += d * before;
    }

    /// For the next sweep: the deltas, with their unit now and the one to keep the sweep's
    /// changes in (room for twice the last largest change).
    fn next(&mut self) -> (&[AtomicI16], [f64; 2]) {
        let was = self.unit;
        if self.last.largest > 0.0 {
            self.unit = 2.0 * self.last.largest / 32767.0;
        }
        (&self.deltas, [was, self.unit])
    }

    /// Records a sweep's changes; the ratio to jump by, when it is time.
    fn swept(&mut self, change: Change) -> Option<f64> {
        let before = std::mem::replace(&mut self.last, change);
        self.trend = if before.squares > 0.0 && change.squares > 0.0 {
            (
                change.dot / before.squares,
                change.dot / (change.squares * before.squares).sqrt(),
            )
        } else {
            (0.0, 0.0)
        };
        self.history.push(self.trend);
        let n = self.history.len();
        if n < JUMP_HISTORY {
            return None;
        }
        let last = &self.history[n - 3..];
        let mut r = [last[0].0, last[1].0, last[2].0];
        r.sort_by(f64::total_cmp);
        let aligned = last.iter().all(|h| h.1 >= JUMP_ALIGNED);
        if !aligned || r[0] < JUMP_FROM || r[2] >= 1.0 || r[2] - r[0] > JUMP_SPREAD {
            return None;
        }
        self.history.clear();
        Some(r[1].min(JUMP_UP_TO))
    }

    /// Moves every value of `states` by r/(1-r) times its last change.
    fn jump<C: Cell>(
        &self,
        ratio: f64,
        states: &[u32],
        values: &[C],
        pool: Option<&rayon::ThreadPool>,
    ) {
        let step = ratio / (1.0 - ratio) * self.unit;
        let go = |(k, &i): (usize, &u32)| {
            let d = self.deltas[k].load(Relaxed) as f64;
            let v = load(values, i as usize) + step * d;
            values[i as usize].set(v.clamp(0.0, 1.0));
        };
        match pool {
            Some(pool) => pool.install(|| states.par_iter().enumerate().for_each(go)),
            None => states.iter().enumerate().for_each(go),
        }
    }
}

/// A leaf of a position's turn (before encoding): a won game for the side to throw, with
/// [`FLIP`] a lost one.
const WIN: u32 = 0x3FFF_FFFF;
/// The leaf's value is one minus the value at its index (the other side throws next).
const FLIP: u32 = 1 << 30;
/// Encoded leaf: a won game.
const CODE_WIN: u16 = 0xFFFF;
/// Encoded leaf: a lost game.
const CODE_LOSS: u16 = 0xFFFE;
/// Encoded leaves below this are *near*: the other side throws next, at the position's
/// mirror row plus the code. From here up to [`CODE_LOSS`] (excluded), a *far* leaf: the
/// code's low 15 bits and the next word make the 31-bit leaf (index, [`FLIP`]).
const CODE_FAR: u16 = 0x8000;

/// The successors of every position of a level pair, written out once so that the sweeps
/// only read values: per position and throw, the results of every way to play the turn
/// (the side to throw picks the best of them). Kept in blocks of consecutive positions (in
/// the sweep's order), built and swept one block at a time by each thread. A block past the
/// memory budget (or every block, where some position does not fit this form) is not
/// written out: its positions are backed up through the game API at every sweep.
///
/// The encoding: a leaf where the other side throws next with its pieces where they were
/// (no capture, swap or bear-off: most leaves of a throw without a bonus) is a position of
/// the mirror level in the same row of the index as every other such leaf of this position
/// (the row of the other side's squares, [`Layout::index`]), so it is one `u16`, its offset
/// in that row (rows hold at most C(28, 4) = 20,475 < 2^15 positions); any other leaf is
/// two `u16`s (31 bits: the index and [`FLIP`]) or one for a finished game.
struct Graph {
    /// Throw weights, as `throw_dist` gives them for every position of the pair.
    weights: Vec<f64>,
    total: f64,
    /// Positions per block (the last may hold fewer).
    block: usize,
    blocks: Vec<Option<Block>>,
    /// Bytes the blocks take.
    bytes: u64,
    /// Leaves in the blocks kept, and of those the near ones (one word).
    leaves: u64,
    near: u64,
}

/// The successors of one block of positions.
struct Block {
    /// Per position, the index where its row of near leaves starts.
    rows: Vec<u32>,
    /// Per position and throw, how many leaves.
    counts: Vec<u8>,
    /// The encoded leaves ([`CODE_FAR`]).
    leaves: Vec<u16>,
    /// How many leaves, and of those near ones.
    count: (u64, u64),
}

impl Block {
    fn bytes(&self) -> u64 {
        (self.rows.capacity() * 4 + self.counts.capacity() + self.leaves.capacity() * 2) as u64
    }
}

impl Graph {
    /// The graph of `states` in blocks, as many as fit in `budget` bytes (the first ones);
    /// built on the current rayon pool when `threads` > 1. No block at all where some
    /// position does not fit this form (a throw distribution that differs between positions,
    /// a decision of the other side within a turn, a draw, or too many leaves).
    fn build<G: Solvable>(
        base: &G,
        layout: &Layout,
        states: &[u32],
        threads: usize,
        budget: u64,
    ) -> Graph {
        let d = base.throw_dist();
        // Small blocks for small levels, so that every thread has some; the sequential
        // sweep visits the blocks in order, so its order does not depend on the size.
        let block = (states.len() / 64).clamp(64, 4096);
        let n = states.len().div_ceil(block);
        let make = |k: usize| -> Option<Block> {
            let chunk = &states[k * block..((k + 1) * block).min(states.len())];
            let nt = d.outcomes.len();
            let mut g = Block {
                rows: Vec::with_capacity(chunk.len()),
                counts: Vec::with_capacity(chunk.len() * nt),
                leaves: Vec::with_capacity(chunk.len() * nt * 3),
                count: (0, 0),
            };
            let mut turn = Vec::new();
            for &i in chunk {
                let (own, opp) = layout.masks(i as u64);
                let p = base.endgame([own, opp], Player::First).ok()?;
                if p.throw_dist() != d {
                    return None;
                }
                // The mirror row: (opp to throw, own' among the squares opp leaves free).
                let (row, len) = layout.row(opp, own)?;
                let (row, len) = (u32::try_from(row).ok()?, len.min(CODE_FAR as u64) as u32);
                g.rows.push(row);
                for &(t, _) in d.outcomes {
                    let mut h = p;
                    h.set_throw_unchecked(t);
                    turn.clear();
                    Self::turn(&h, layout, &mut turn)?;
                    g.counts.push(u8::try_from(turn.len()).ok()?);
                    g.count.0 += turn.len() as u64;
                    for &leaf in &turn {
                        let j = leaf & !FLIP;
                        if leaf == WIN {
                            g.leaves.push(CODE_WIN);
                        } else if leaf == WIN | FLIP {
                            g.leaves.push(CODE_LOSS);
                        } else if leaf & FLIP != 0 && j >= row && j - row < len {
                            g.leaves.push((j - row) as u16);
                            g.count.1 += 1;
                        } else {
                            g.leaves.push(CODE_FAR | (leaf >> 16) as u16);
                            g.leaves.push(leaf as u16);
                        }
                    }
                }
            }
            g.leaves.shrink_to_fit();
            Some(g)
        };
        let d_weights = d.outcomes.iter().map(|&(_, w)| w as f64).collect();
        let mut graph = Graph {
            weights: d_weights,
            total: d.total as f64,
            block,
            blocks: Vec::with_capacity(n),
            bytes: 0,
            leaves: 0,
            near: 0,
        };
        // A few blocks per thread at a time, so that the budget is checked as they come.
        let wave = if threads > 1 { 4 * threads } else { 1 };
        let mut full = false;
        for w in (0..n).step_by(wave) {
            let end = (w + wave).min(n);
            if full {
                graph.blocks.extend((w..end).map(|_| None));
                continue;
            }
            let built: Vec<Option<Block>> = if threads > 1 {
                (w..end).into_par_iter().map(make).collect()
            } else {
                (w..end).map(make).collect()
            };
            if built.iter().any(Option::is_none) {
                // Some position does not fit: the whole level through the game API.
                graph.blocks = (0..n).map(|_| None).collect();
                graph.bytes = 0;
                return graph;
            }
            for b in built {
                let size = b.as_ref().map_or(0, Block::bytes);
                if full || graph.bytes + size > budget {
                    full = true;
                    graph.blocks.push(None);
                } else {
                    graph.bytes += size;
                    if let Some(b) = &b {
                        graph.leaves += b.count.0;
                        graph.near += b.count.1;
                    }
                    graph.blocks.push(b);
                }
            }
        }
        graph
    }

    /// How many of `len` positions are backed up through the game API at every sweep.
    fn recomputed(&self, len: usize) -> usize {
        (0..self.blocks.len())
            .filter(|&k| self.blocks[k].is_none())
            .map(|k| ((k + 1) * self.block).min(len) - k * self.block)
            .sum()
    }

    /// The leaves of the first player's decision `h`.
    fn turn<G: Solvable>(h: &G, layout: &Layout, out: &mut Vec<u32>) -> Option<()> {
        let mut ms = MoveList::new();
        h.legal_moves(&mut ms);
        for &m in &ms {
            let mut c = *h;
            c.play_unchecked(m);
            match c.status() {
                Status::Over(o) => match o.winner {
                    Some(Player::First) => out.push(WIN),
                    Some(Player::Second) => out.push(WIN | FLIP),
                    None => return None,
                },
                Status::Throw(p) => {
                    let men = c.masks();
                    let i = layout.index(men[p.index()], men[1 - p.index()])?;
                    let i = u32::try_from(i).ok().filter(|&i| i < 1 << 29)?;
                    out.push(if p == Player::First { i } else { i | FLIP });
                }
                // The same side's next decision in this turn: its leaves join this one's.
                Status::Move(Player::First) => Self::turn(&c, layout, out)?,
                Status::Move(Player::Second) => return None,
            }
        }
        Some(())
    }

    /// One Gauss-Seidel sweep of block `k`; its changes.
    fn sweep_block<G: Solvable, C: Cell>(&self, k: usize, s: &Sweep<'_, G, C>) -> Change {
        let first = k * self.block;
        let states = &s.states[first..(first + self.block).min(s.states.len())];
        let values = s.values;
        let Some(g) = &self.blocks[k] else {
            return Self::sweep_api(first, states, s);
        };
        let nt = self.weights.len();
        let mut change = Change::default();
        let mut at = 0;
        for (k, &i) in states.iter().enumerate() {
            let row = g.rows[k] as usize;
            let mut v = 0.0;
            for t in 0..nt {
                let n = g.counts[k * nt + t];
                let mut best = f64::NEG_INFINITY;
                for _ in 0..n {
                    let code = g.leaves[at];
                    at += 1;
                    let w = if code < CODE_FAR {
                        1.0 - load(values, row + code as usize)
                    } else if code == CODE_WIN {
                        1.0
                    } else if code == CODE_LOSS {
                        0.0
                    } else {
                        let leaf = ((code & !CODE_FAR) as u32) << 16 | g.leaves[at] as u32;
                        at += 1;
                        let w = load(values, (leaf & !FLIP) as usize);
                        if leaf & FLIP != 0 {
                            1.0 - w
                        } else {
                            w
                        }
                    };
                    best = best.max(w);
                }
                v += self.weights[t] * best;
            }
            v /= self.total;
            s.set(first + k, i as usize, v, &mut change);
        }
        change
    }

    /// One Gauss-Seidel sweep of `states` (from the `first`-th of the pair's) through the
    /// game API (no graph); its changes.
    fn sweep_api<G: Solvable, C: Cell>(
        first: usize,
        states: &[u32],
        s: &Sweep<'_, G, C>,
    ) -> Change {
        let mut change = Change::default();
        for (k, &i) in states.iter().enumerate() {
            let (own, opp) = s.layout.masks(i as u64);
            let g = s
                .base
                .endgame([own, opp], Player::First)
                .expect("checked when listed");
            let mut look = |c: &G, p: Player| -> Option<f64> {
                let m = c.masks();
                let w = load(
                    s.values,
                    s.layout.index(m[p.index()], m[1 - p.index()])? as usize,
                );
                Some(if p == Player::First { w } else { 1.0 - w })
            };
            let v = chance(&g, &mut look).expect("every successor is solved");
            s.set(first + k, i as usize, v, &mut change);
        }
        change
    }

    /// One Gauss-Seidel sweep of every block; its changes. With a pool, an asynchronous
    /// sweep on every thread: each takes the next block not yet taken, so the blocks are
    /// swept nearly in order.
    fn sweep<G: Solvable, C: Cell>(
        &self,
        s: &Sweep<'_, G, C>,
        pool: Option<&rayon::ThreadPool>,
    ) -> Change {
        let n = self.blocks.len();
        let Some(pool) = pool else {
            return (0..n)
                .map(|k| self.sweep_block(k, s))
                .fold(Change::default(), Change::merge);
        };
        let next = AtomicUsize::new(0);
        pool.broadcast(|_| {
            let mut change = Change::default();
            loop {
                let k = next.fetch_add(1, Relaxed);
                if k >= n {
                    return change;
                }
                change = change.merge(self.sweep_block(k, s));
            }
        })
        .into_iter()
        .fold(Change::default(), Change::merge)
    }
}

fn squares_sum(m: u32) -> u32 {
    let mut s = 0;
    let mut m = m;
    while m != 0 {
        s += m.trailing_zeros();
        m &= m - 1;
    }
    s
}

/// The file name of a table: `<rules>-<pieces>.senet-exact`.
pub fn file_name(rules: RuleSet, pieces: usize) -> String {
    format!("{}-{pieces}.senet-exact", rules.id())
}

/// Where tables are read from and written to by default: `$SENET_TABLES` if set, else
/// `$XDG_DATA_HOME/senet/tables`, else `$HOME/.local/share/senet/tables` (on Windows
/// `%APPDATA%\senet\tables`); `None` if none of these is set.
pub fn default_dir() -> Option<PathBuf> {
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    if let Some(d) = var("SENET_TABLES") {
        return Some(PathBuf::from(d));
    }
    if let Some(d) = var("XDG_DATA_HOME") {
        return Some(PathBuf::from(d).join("senet").join("tables"));
    }
    if let Some(d) = var("HOME") {
        return Some(PathBuf::from(d).join(".local/share/senet/tables"));
    }
    var("APPDATA").map(|d| PathBuf::from(d).join("senet").join("tables"))
}

/// What a [`Tables`] holds for one rule set once looked at.
#[derive(Debug)]
struct Slot {
    table: Option<Table>,
    /// Where the table came from: a file, or built in memory.
    source: String,
    error: Option<String>,
}

/// The exact tables of the four stick rule sets, loaded on first use per rule set: the file
/// with the most pieces per side found in the directory ([`file_name`]: 4, then 3, 2, 1),
/// else, if allowed, a table of [`BUILTIN_PIECES`] built in memory (about 0.3 s of CPU in a
/// release build). A missing table is no error (callers fall back to search); a corrupt or
/// mismatched file is skipped and its error kept ([`Tables::errors`]).
#[derive(Debug)]
pub struct Tables {
    dir: Option<PathBuf>,
    builtin: usize,
    /// The most pieces per side of a position answered ([`Tables::with_limit`]).
    limit: usize,
    slots: [OnceLock<Slot>; 4],
}

impl Tables {
    /// Tables read from `dir` (if any), falling back to ones of `builtin` pieces per side
    /// built in memory (0: none).
    pub fn new(dir: Option<PathBuf>, builtin: usize) -> Tables {
        Tables {
            dir,
            builtin: builtin.min(MAX_PIECES),
            limit: MAX_PIECES,
            slots: Default::default(),
        }
    }

    /// These tables answering only positions with at most `limit` pieces of each side on the
    /// board, as if their files were of `limit` pieces: the bots as they played before a
    /// bigger table was built (`senet ladder --exact` measures both).
    pub fn with_limit(mut self, limit: usize) -> Tables {
        self.limit = limit.min(MAX_PIECES);
        self
    }

    /// The most pieces per side of a position these tables answer ([`Tables::with_limit`];
    /// the tables' own pieces may be fewer).
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Tables holding exactly `tables` (at most one per rule set; later ones are ignored).
    pub fn from_tables(tables: Vec<Table>) -> Tables {
        let t = Tables::new(None, 0);
        for table in tables {
            if let Some(i) = RULE_SETS.iter().position(|&r| r == table.rules) {
                let _ = t.slots[i].set(Slot {
                    table: Some(table),
                    source: "given".into(),
                    error: None,
                });
            }
        }
        t
    }

    /// The process-wide tables of the bots, hints and analysis: files from [`default_dir`],
    /// else tables of [`BUILTIN_PIECES`] pieces per side built in memory on first use.
    pub fn global() -> &'static Tables {
        static G: OnceLock<Tables> = OnceLock::new();
        G.get_or_init(|| Tables::new(default_dir(), BUILTIN_PIECES))
    }

    fn slot(&self, rules: RuleSet) -> Option<&Slot> {
        let i = RULE_SETS.iter().position(|&r| r == rules)?;
        Some(self.slots[i].get_or_init(|| self.load(rules)))
    }

    fn load(&self, rules: RuleSet) -> Slot {
        let mut error = None;
        if let Some(dir) = &self.dir {
            for n in (1..=MAX_PIECES).rev() {
                let path = dir.join(file_name(rules, n));
                if !path.exists() {
                    continue;
                }
                match Table::read(&path, rules) {
                    Ok(t) => {
                        return Slot {
                            table: Some(t),
                            source: path.display().to_string(),
                            error,
                        }
                    }
                    Err(e) => {
                        error.get_or_insert(e);
                    }
                }
            }
        }
        if self.builtin > 0 {
            if let Ok((t, _)) = Table::build(rules, self.builtin, &mut |_| {}) {
                return Slot {
                    table: Some(t),
                    source: format!("built in memory ({} pieces per side)", self.builtin),
                    error,
                };
            }
        }
        Slot {
            table: None,
            source: "none".into(),
            error,
        }
    }

    /// The table of a rule set (default options), loading or building it on first use.
    pub fn table(&self, rules: RuleSet) -> Option<&Table> {
        self.slot(rules)?.table.as_ref()
    }

    /// Where the table of `rules` came from (a path, "built in memory ...", or "none").
    pub fn source(&self, rules: RuleSet) -> String {
        self.slot(rules)
            .map_or_else(|| "none".into(), |s| s.source.clone())
    }

    /// Errors met loading the tables looked at so far (corrupt or mismatched files).
    pub fn errors(&self) -> Vec<String> {
        self.slots
            .iter()
            .filter_map(|s| s.get().and_then(|s| s.error.clone()))
            .collect()
    }

    /// The table for `g`'s rule set if it matches `g`'s options (turn cap aside).
    pub fn table_for<G: Game>(&self, g: &G) -> Option<&Table> {
        let t = self.table(g.rules())?;
        (options_key(g) == t.options).then_some(t)
    }

    /// The first player's exact win chance of `g` (a draw counts 1/2), if the tables cover
    /// it: a finished game; a position awaiting a throw, past the opening, with 1 to
    /// [`Table::pieces`] pieces of each side on the board; or a position awaiting a move
    /// every one of whose moves leads to such positions (the best move's value).
    pub fn value<G: Game>(&self, g: &G) -> Option<f64> {
        if let Status::Over(o) = g.status() {
            return Some(terminal_value(&o));
        }
        let t = self.table_for(g)?;
        let mut look = |c: &G, _p: Player| t.lookup_within(c, self.limit);
        after(g, &mut look)
    }

    /// For a position awaiting a move: every legal move with the first player's exact win
    /// chance after it, if the tables cover every move's result.
    pub fn move_values<G: Game>(&self, g: &G) -> Option<Vec<(Move, f64)>> {
        if !matches!(g.status(), Status::Move(_)) {
            return None;
        }
        let t = self.table_for(g)?;
        let mut look = |c: &G, _p: Player| t.lookup_within(c, self.limit);
        let mut ms = MoveList::new();
        g.legal_moves(&mut ms);
        ms.iter()
            .map(|&m| {
                let mut c = *g;
                c.play_unchecked(m);
                after(&c, &mut look).map(|v| (m, v))
            })
            .collect()
    }
}

/// An evaluator that answers exactly where a table covers a position and asks `inner`
/// elsewhere; the search returns the exact value at a covered chance node instead of
/// expanding it ([`Evaluator::exact`]). Build it only for a game whose options match the
/// table ([`Tables::table_for`]).
pub struct WithTables<'a, E: ?Sized> {
    /// The evaluator of positions the table does not cover.
    pub inner: &'a E,
    /// The table.
    pub table: &'a Table,
    /// The most pieces per side of a position the table answers ([`Tables::limit`]).
    pub limit: usize,
}

impl<G: Game, E: Evaluator<G> + ?Sized> Evaluator<G> for WithTables<'_, E> {
    #[inline]
    fn eval(&self, g: &G) -> f64 {
        match self.table.lookup_within(g, self.limit) {
            // Strictly inside (0, 1), as evaluations are.
            Some(v) => v.clamp(1e-9, 1.0 - 1e-9),
            None => self.inner.eval(g),
        }
    }

    #[inline]
    fn exact(&self, g: &G) -> Option<f64> {
        self.table.lookup_within(g, self.limit)
    }

    fn name(&self) -> &'static str {
        "exact"
    }

    fn terminal(&self, o: &Outcome) -> f64 {
        self.inner.terminal(o)
    }
}

/// What a table says, over all its positions (each counted once).
#[derive(Clone, Debug, Default)]
pub struct TableStats {
    /// Per level (k, k), k = 1..=pieces: the mean chance that the side to throw wins, over
    /// every position of the level (each pair of squares sets counts both ways round, so
    /// this is the average value of throwing first).
    pub mean_first: Vec<f64>,
    /// Typical races, per k = 1..=pieces: the side to throw's win chance with its pieces on
    /// the first k of 20, 22, 24, 18 and the other side's on the first k of 21, 23, 25, 19
    /// (the side to throw a step behind), then with the sides' squares exchanged (a step
    /// ahead).
    pub races: Vec<(f64, f64)>,
    /// Throws with more than one legal move, over every position and throw.
    pub choices: u64,
    /// Of those, the best move goes backward.
    pub best_backward: u64,
    /// Of those, the best move captures, swaps or sends back an opposing piece.
    pub best_hit: u64,
    /// Of those, the best move bears a piece off.
    pub best_bear_off: u64,
    /// Of those, the best and the second-best move differ by more than 0.01 win chance.
    pub clear_choices: u64,
}

impl Table {
    /// The position of this table's rule set (default options) with the side to throw
    /// (the first player) on `own` and the other on `opp`.
    pub fn position(&self, own: u32, opp: u32) -> Option<AnyGame> {
        let base = base_game(self.rules).ok()?;
        match base {
            AnyGame::Kendall(g) => g.endgame([own, opp], Player::First).ok().map(Into::into),
            AnyGame::Kendall5(g) => g.endgame([own, opp], Player::First).ok().map(Into::into),
            AnyGame::Senat(g) => g.endgame([own, opp], Player::First).ok().map(Into::into),
            AnyGame::Houses(g) => g.endgame([own, opp], Player::First).ok().map(Into::into),
            _ => None,
        }
    }

    /// Every position of level (a, b): the side to throw's squares, the other side's, and
    /// the side to throw's win chance.
    pub fn for_each_state(&self, a: usize, b: usize, mut f: impl FnMut(u32, u32, f64)) {
        if a == 0 || b == 0 || a > self.pieces() || b > self.pieces() {
            return;
        }
        self.layout.level_states(a, b, |i, own, opp| {
            if let Some(v) = self.values.get(i as usize) {
                f(own, opp, v);
            }
        });
    }

    /// Counts what the table says (see [`TableStats`]); a full pass over the positions.
    pub fn stats(&self) -> TableStats {
        let mut s = TableStats::default();
        for k in 1..=self.pieces() {
            let (mut sum, mut n) = (0.0, 0u64);
            self.for_each_state(k, k, |_, _, v| {
                sum += v;
                n += 1;
            });
            s.mean_first.push(sum / n.max(1) as f64);
            let behind = [20, 22, 24, 18][..k].iter().fold(0u32, |m, &q| m | 1 << q);
            let ahead = behind << 1;
            s.races.push((
                self.side_to_throw(behind, ahead).unwrap_or(f64::NAN),
                self.side_to_throw(ahead, behind).unwrap_or(f64::NAN),
            ));
        }
        let Ok(base) = base_game(self.rules) else {
            return s;
        };
        match base {
            AnyGame::Kendall(g) => self.count_choices(&g, &mut s),
            AnyGame::Kendall5(g) => self.count_choices(&g, &mut s),
            AnyGame::Senat(g) => self.count_choices(&g, &mut s),
            AnyGame::Houses(g) => self.count_choices(&g, &mut s),
            _ => {}
        }
        s
    }

    /// The Bellman residual of the table's values: the largest |T(V) - V| over every
    /// position, where T is one backup through the game API (the throws' weighted mean of
    /// the best decision, [`Table::lookup`] giving the values after it) from the values as
    /// kept (f32 or 16-bit, so it includes their rounding). Infinite if some position's
    /// successor is not covered. For tables of default options (as `senet solve` builds);
    /// `threads` as in [`BuildOptions`].
    pub fn bellman_residual(&self, threads: usize) -> f64 {
        let Ok(base) = base_game(self.rules) else {
            return f64::INFINITY;
        };
        match base {
            AnyGame::Kendall(g) => self.residual_for(&g, threads),
            AnyGame::Kendall5(g) => self.residual_for(&g, threads),
            AnyGame::Senat(g) => self.residual_for(&g, threads),
            AnyGame::Houses(g) => self.residual_for(&g, threads),
            _ => f64::INFINITY,
        }
    }

    fn residual_for<G: Solvable>(&self, base: &G, threads: usize) -> f64 {
        let one = |&(own, opp, v): &(u32, u32, f64)| -> f64 {
            let Ok(g) = base.endgame([own, opp], Player::First) else {
                return f64::INFINITY;
            };
            let mut look = |c: &G, _p: Player| self.lookup(c);
            // The side to throw is the first player: `chance` is its value.
            chance(&g, &mut look).map_or(f64::INFINITY, |t| (t - v).abs())
        };
        with_pool(threads, |pool| {
            let mut worst: f64 = 0.0;
            for a in 1..=self.pieces() {
                for b in 1..=self.pieces() {
                    let mut level = Vec::new();
                    self.for_each_state(a, b, |own, opp, v| level.push((own, opp, v)));
                    let r = match pool {
                        Some(pool) => {
                            pool.install(|| level.par_iter().map(one).reduce(|| 0.0, f64::max))
                        }
                        None => level.iter().map(one).fold(0.0, f64::max),
                    };
                    worst = worst.max(r);
                }
            }
            worst
        })
    }

    fn count_choices<G: Solvable>(&self, base: &G, s: &mut TableStats) {
        for a in 1..=self.pieces() {
            for b in 1..=self.pieces() {
                self.for_each_state(a, b, |own, opp, _| {
                    let Ok(g) = base.endgame([own, opp], Player::First) else {
                        return;
                    };
                    let d = g.throw_dist();
                    for &(t, _) in d.outcomes {
                        let mut h = g;
                        h.set_throw_unchecked(t);
                        let mut ms = MoveList::new();
                        h.legal_moves(&mut ms);
                        if ms.len() < 2 {
                            continue;
                        }
                        let mut look = |c: &G, _p: Player| self.lookup(c);
                        let mut scored: Vec<(f64, Effect)> = ms
                            .iter()
                            .filter_map(|&m| {
                                let mut c = h;
                                let fx = c.play_unchecked(m);
                                after(&c, &mut look).map(|v| (v, fx.flags))
                            })
                            .collect();
                        if scored.len() != ms.len() {
                            continue;
                        }
                        // The side to throw is the first player: best is highest.
                        scored.sort_by(|x, y| y.0.total_cmp(&x.0));
                        let (v, bits) = scored[0];
                        s.choices += 1;
                        let has = |f: Effect| bits.intersects(f);
                        use senet_rules::Effect as F;
                        s.best_backward += has(F::BACKWARD) as u64;
                        s.best_hit += has(F::SWAP | F::CAPTURE | F::SENT_BACK) as u64;
                        s.best_bear_off += has(F::BEAR_OFF) as u64;
                        s.clear_choices += (v - scored[1].0 > 0.01) as u64;
                    }
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`solve_levels`] without a checkpoint: the values and reports.
    fn solve_levels<G: Solvable, C: Cell>(
        base: &G,
        layout: &Layout,
        max_total: usize,
        threads: usize,
        params: SolveParams,
        progress: &mut dyn FnMut(Progress<'_>),
    ) -> (Vec<f64>, Vec<LevelReport>) {
        match super::solve_levels::<G, C>(base, layout, max_total, threads, params, None, progress)
        {
            Ok(Solved::Values(v, r)) => (v, r),
            _ => unreachable!("a build without a checkpoint neither stops nor fails"),
        }
    }

    /// Solves the levels of up to `max_total` pieces of a `pieces` layout sequentially and
    /// on three threads (more than the development machine's cores, so that the sweeps
    /// interleave), and compares every value.
    fn compare<G: Solvable>(base: &G, pieces: usize, max_total: usize) -> usize {
        let layout = Layout::new(probe_squares(base), pieces);
        let p = BuildOptions::default().params();
        let (seq, r1) = solve_levels::<_, AtomicU64>(base, &layout, max_total, 1, p, &mut |_| {});
        let (par, r2) = solve_levels::<_, AtomicU64>(base, &layout, max_total, 3, p, &mut |_| {});
        assert_eq!(r1.len(), r2.len());
        for r in r1.iter().chain(&r2) {
            assert!(r.last_change <= TOLERANCE, "{r:?}");
            assert!(r.sweeps > 1, "{r:?}");
        }
        let mut n = 0;
        for (i, (x, y)) in seq.iter().zip(&par).enumerate() {
            assert_eq!(x.is_nan(), y.is_nan(), "index {i}");
            if !x.is_nan() {
                assert!(
                    (x - y).abs() < 1e-9,
                    "index {i}: {x} sequential, {y} parallel"
                );
                n += 1;
            }
        }
        n
    }

    fn each_rule_set(f: &mut dyn FnMut(RuleSet, usize)) {
        for rules in RULE_SETS {
            let n = match base_game(rules).unwrap() {
                AnyGame::Kendall(g) => compare(&g, 2, 4),
                AnyGame::Kendall5(g) => compare(&g, 2, 4),
                AnyGame::Senat(g) => compare(&g, 2, 4),
                AnyGame::Houses(g) => compare(&g, 2, 4),
                _ => unreachable!(),
            };
            f(rules, n);
        }
    }

    #[test]
    fn parallel_sweeps_match_the_sequential_solver_on_every_2_piece_level() {
        each_rule_set(&mut |rules, n| assert_eq!(n, 165_242, "{rules}"));
    }

    #[test]
    fn parallel_sweeps_match_the_sequential_solver_on_3_piece_levels() {
        // Levels 1v3 + 3v1 and 2v2 of the 3-piece layout (and the smaller ones).
        let AnyGame::Kendall5(g) = base_game(RuleSet::Kendall5).unwrap() else {
            unreachable!()
        };
        assert_eq!(compare(&g, 3, 4), 812 + 21_924 + 190_008 + 142_506);
        let AnyGame::Houses(g) = base_game(RuleSet::Houses).unwrap() else {
            unreachable!()
        };
        assert_eq!(compare(&g, 3, 4), 812 + 21_924 + 190_008 + 142_506);
    }

    /// Starting value iteration from the network's values gives the values of starting from
    /// one half (the fixed point is unique), in fewer sweeps.
    #[test]
    fn starting_from_the_network_gives_the_same_values_in_fewer_sweeps() {
        fn check<G: Solvable>(base: &G) -> (usize, usize) {
            let layout = Layout::new(probe_squares(base), 3);
            let net = BuildOptions::default().params();
            assert_eq!(net.start, Start::Net);
            let half = SolveParams {
                start: Start::Half,
                ..net
            };
            let (a, ra) = solve_levels::<_, AtomicU64>(base, &layout, 4, 3, half, &mut |_| {});
            let (b, rb) = solve_levels::<_, AtomicU64>(base, &layout, 4, 3, net, &mut |_| {});
            for (i, (x, y)) in a.iter().zip(&b).enumerate() {
                assert_eq!(x.is_nan(), y.is_nan(), "index {i}");
                if !x.is_nan() {
                    assert!(
                        (x - y).abs() < 1e-9,
                        "index {i}: {x} from 1/2, {y} from the net"
                    );
                }
            }
            let sweeps = |r: &[LevelReport]| r.iter().map(|r| r.sweeps).sum::<usize>();
            (sweeps(&ra), sweeps(&rb))
        }
        for rules in RULE_SETS {
            let (half, net) = match base_game(rules).unwrap() {
                AnyGame::Kendall(g) => check(&g),
                AnyGame::Kendall5(g) => check(&g),
                AnyGame::Senat(g) => check(&g),
                AnyGame::Houses(g) => check(&g),
                _ => unreachable!(),
            };
            assert!(
                net < half,
                "{rules}: {net} sweeps from the net, {half} from 1/2"
            );
        }
        assert_eq!("net".parse::<Start>(), Ok(Start::Net));
        assert_eq!("half".parse::<Start>(), Ok(Start::Half));
        assert!("zero".parse::<Start>().unwrap_err().contains("half or net"));
    }

    /// Issue 34: a 16-bit build iterates in f32 cells with its own stop rule; every value is
    /// within 3e-6 of the f64 solver's (its rounding is 6e-8 a step, its stop rule 2.5e-7),
    /// under the 16-bit rounding it is kept with (7.6e-6), sequential or on three threads,
    /// with the graph or through the game API.
    #[test]
    fn f32_cells_with_the_16_bit_stop_rule_stay_within_3e_6_of_the_f64_solver() {
        fn check<G: Solvable>(base: &G) {
            let layout = Layout::new(probe_squares(base), 3);
            let exact = BuildOptions::default().params();
            let (want, _) = solve_levels::<_, AtomicU64>(base, &layout, 4, 3, exact, &mut |_| {});
            let sixteen = BuildOptions {
                bits: 16,
                ..BuildOptions::default()
            }
            .params();
            assert_eq!(sixteen.tolerance, TOLERANCE_16);
            let api = SolveParams {
                graph_budget: 0,
                ..sixteen
            };
            for (threads, p) in [(1, sixteen), (3, sixteen), (3, api)] {
                let (got, reports) =
                    solve_levels::<_, AtomicU32>(base, &layout, 4, threads, p, &mut |_| {});
                assert!(reports.iter().all(|r| r.last_change <= TOLERANCE_16));
                let mut worst: f64 = 0.0;
                for (x, y) in want.iter().zip(&got) {
                    assert_eq!(x.is_nan(), y.is_nan());
                    if !x.is_nan() {
                        worst = worst.max((x - y).abs());
                    }
                }
                // The stop rule bounds the iteration's error by about 2.5e-7 * rho / (1 - rho)
                // (rho, a sweep's contraction, up to about 0.9 on these levels): a few 1e-7,
                // 1.3e-6 seen with three threads on two cores.
                assert!(worst < 3e-6, "{threads} threads: {worst:e}");
                // Really iterated in f32, not in f64.
                assert!(worst > 1e-9, "{threads} threads: {worst:e}");
            }
        }
        let AnyGame::Kendall5(g) = base_game(RuleSet::Kendall5).unwrap() else {
            unreachable!()
        };
        check(&g);
        let AnyGame::Houses(g) = base_game(RuleSet::Houses).unwrap() else {
            unreachable!()
        };
        check(&g);
    }

    /// Solves the levels of up to `max_total` pieces of a `pieces` layout on `threads`
    /// threads with the compact graph (default budget) and with a graph budget of `budget`
    /// bytes per level pair (0: every position backed up through the game API), compares
    /// every value and returns (positions, positions recomputed with the budget).
    fn compare_budget<G: Solvable>(
        base: &G,
        pieces: usize,
        max_total: usize,
        threads: usize,
        budget: u64,
    ) -> (usize, u64) {
        let layout = Layout::new(probe_squares(base), pieces);
        let p = BuildOptions::default().params();
        let q = SolveParams {
            graph_budget: budget,
            ..p
        };
        let (full, r1) =
            solve_levels::<_, AtomicU64>(base, &layout, max_total, threads, p, &mut |_| {});
        let (part, r2) =
            solve_levels::<_, AtomicU64>(base, &layout, max_total, threads, q, &mut |_| {});
        assert!(r1.iter().all(|r| r.recomputed == 0 && r.graph_bytes > 0));
        for r in r1.iter().chain(&r2) {
            assert!(r.last_change <= TOLERANCE, "{r:?}");
        }
        let mut n = 0;
        for (i, (x, y)) in full.iter().zip(&part).enumerate() {
            assert_eq!(x.is_nan(), y.is_nan(), "index {i}");
            if !x.is_nan() {
                assert!((x - y).abs() < 1e-9, "index {i}: {x} graph, {y} budget");
                n += 1;
            }
        }
        (n, r2.iter().map(|r| r.recomputed).sum())
    }

    #[test]
    fn the_compact_graph_matches_the_game_api_on_every_2_piece_level() {
        for rules in RULE_SETS {
            let r = match base_game(rules).unwrap() {
                AnyGame::Kendall(g) => compare_budget(&g, 2, 4, 1, 0),
                AnyGame::Kendall5(g) => compare_budget(&g, 2, 4, 1, 0),
                AnyGame::Senat(g) => compare_budget(&g, 2, 4, 1, 0),
                AnyGame::Houses(g) => compare_budget(&g, 2, 4, 1, 0),
                _ => unreachable!(),
            };
            // With no budget, every position goes through the game API.
            assert_eq!(r, (165_242, 165_242), "{rules}");
        }
    }

    #[test]
    fn a_partial_graph_gives_the_values_of_the_full_one() {
        // kendall5 and houses, the levels up to 1v3 + 3v1 and 2v2 of the 3-piece layout,
        // on three threads, with a budget that keeps some of the blocks of the larger
        // levels; and every 2-piece level through the API on three threads.
        let AnyGame::Kendall5(g) = base_game(RuleSet::Kendall5).unwrap() else {
            unreachable!()
        };
        let (n, rec) = compare_budget(&g, 3, 4, 3, 1 << 20);
        assert_eq!(n, 812 + 21_924 + 190_008 + 142_506);
        assert!(rec > 100_000 && rec < 330_000, "{rec}");
        let AnyGame::Houses(g) = base_game(RuleSet::Houses).unwrap() else {
            unreachable!()
        };
        let (n, rec) = compare_budget(&g, 3, 4, 3, 1 << 20);
        assert_eq!(n, 812 + 21_924 + 190_008 + 142_506);
        assert!(rec > 100_000 && rec < 330_000, "{rec}");
        let AnyGame::Senat(g) = base_game(RuleSet::Senat).unwrap() else {
            unreachable!()
        };
        assert_eq!(compare_budget(&g, 2, 4, 3, 0), (165_242, 165_242));
    }

    #[test]
    fn masks_invert_the_index() {
        let AnyGame::Kendall(g) = base_game(RuleSet::Kendall).unwrap() else {
            unreachable!()
        };
        for pieces in 1..=MAX_PIECES {
            let layout = Layout::new(probe_squares(&g), pieces);
            let step = (layout.total / 200_000).max(1);
            for i in (0..layout.total).step_by(step as usize) {
                let (own, opp) = layout.masks(i);
                assert_eq!(
                    layout.index(own, opp),
                    Some(i),
                    "{pieces} pieces, index {i}"
                );
                let (row, len) = layout.row(own, opp).unwrap();
                assert!(row <= i && i < row + len);
            }
        }
        // 29 squares (never 27): C(29,a)·C(29-a,b) over a, b = 1..=4.
        assert_eq!(Layout::new(probe_squares(&g), 4).total, 437_373_650);
    }

    #[test]
    fn the_bellman_residual_sees_a_wrong_value() {
        let (mut t, _) = Table::build(RuleSet::Senat, 2, &mut |_| {}).unwrap();
        let r = t.bellman_residual(2);
        assert!(r < 1e-6, "{r}");
        assert_eq!(r, t.bellman_residual(1));
        let Values::F32(v) = &mut t.values else {
            panic!("32 bits by default")
        };
        let i = v.iter().position(|x| (0.2..0.8).contains(x)).unwrap();
        v[i] += 0.01;
        let r = t.bellman_residual(2);
        assert!(r > 0.005, "{r}");
    }

    /// Gauss-Seidel sweeps over `n` values (`update(i, values)` is value i's new value) to
    /// a largest change of 1e-13, with [`Extrapolation`]'s jumps or without: the values, the
    /// sweeps and the jumps.
    fn iterate(
        n: usize,
        jumping: bool,
        update: &dyn Fn(usize, &[AtomicU64]) -> f64,
    ) -> (Vec<f64>, usize, usize) {
        let values: Vec<AtomicU64> = (0..n).map(|_| AtomicU64::new(0.5f64.to_bits())).collect();
        let states: Vec<u32> = (0..n as u32).collect();
        let mut x = Extrapolation::new(n);
        let (mut sweeps, mut jumps) = (0, 0);
        loop {
            let deltas = x.next();
            let mut change = Change::default();
            for i in 0..n {
                let v = update(i, &values);
                set_value(&values, Some(deltas), i, i, v, &mut change);
            }
            sweeps += 1;
            assert!(sweeps < 100_000, "no convergence");
            if change.largest <= 1e-13 {
                break;
            }
            if let Some(r) = x.swept(change).filter(|_| jumping) {
                assert!((JUMP_FROM..=JUMP_UP_TO).contains(&r), "{r}");
                x.jump(r, &states, &values, None);
                jumps += 1;
            }
        }
        (values.iter().map(Cell::get).collect(), sweeps, jumps)
    }

    fn uniform(seed: &mut u64) -> f64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*seed >> 11) as f64 / (1u64 << 53) as f64
    }

    fn farthest(a: &[f64], b: &[f64]) -> f64 {
        a.iter()
            .zip(b)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max)
    }

    /// A walk along a line of positions that steps either way with even chances and ends at
    /// either end (a loss below the first, a win past the last) or, at each step, with
    /// chance 0.005: Gauss-Seidel's error shrinks by about 0.987 a sweep along one direction,
    /// as in `senat`'s 4v4. With jumps the same fixed point comes in under a third of the
    /// sweeps (475 against 1,676 when written).
    #[test]
    fn extrapolation_reaches_the_same_fixed_point_in_fewer_sweeps() {
        let n = 60;
        let mut seed = 7;
        let t: Vec<f64> = (0..n).map(|_| uniform(&mut seed)).collect();
        let update = |i: usize, v: &[AtomicU64]| {
            let below = if i == 0 { 0.0 } else { v[i - 1].get() };
            let above = if i + 1 == n { 1.0 } else { v[i + 1].get() };
            0.995 * 0.5 * (below + above) + 0.005 * t[i]
        };
        let (plain, plain_sweeps, none) = iterate(n, false, &update);
        let (jumped, jumped_sweeps, jumps) = iterate(n, true, &update);
        assert_eq!(none, 0);
        assert!(jumps > 0);
        assert!(
            jumped_sweeps * 3 < plain_sweeps,
            "{jumped_sweeps} sweeps with {jumps} jumps against {plain_sweeps}"
        );
        let far = farthest(&plain, &jumped);
        assert!(far < 1e-10, "{far}");
    }

    /// Around a cycle of positions that each keep most of the next one's value, the error
    /// shrinks as slowly but turns round the cycle from sweep to sweep: no one direction to
    /// jump along. The changes are not aligned, so no jump is made (one would go astray).
    #[test]
    fn extrapolation_makes_no_jump_where_the_changes_turn() {
        let n = 300;
        let mut seed = 11;
        let p: Vec<f64> = (0..n).map(|_| 0.96 + 0.02 * uniform(&mut seed)).collect();
        let t: Vec<f64> = (0..n).map(|_| uniform(&mut seed)).collect();
        let update = |i: usize, v: &[AtomicU64]| p[i] * v[(i + 1) % n].get() + (1.0 - p[i]) * t[i];
        let (plain, plain_sweeps, _) = iterate(n, false, &update);
        let (jumped, jumped_sweeps, jumps) = iterate(n, true, &update);
        assert_eq!((jumps, jumped_sweeps), (0, plain_sweeps));
        assert_eq!(plain, jumped);
    }
}
