//! Expectimax over chance nodes with exact throw probabilities, Star1 and Star2 pruning
//! (Ballard, "The *-minimax search procedure for trees containing chance nodes", 1983; the
//! formulation of Hauk, Buro and Schaeffer, 2004), move ordering and a transposition cache.
//!
//! Values are the first player's win chance (see [`crate::eval`]): a decision node of the
//! first player maximizes, one of the second player minimizes, whoever's turn it is by
//! `status()` (bonus throws keep the turn). Depth counts *throws*: a chance node below the
//! root uses one unit, a decision does not, so the several decisions of one two-dice turn (or
//! of a move and its leftover steps) are searched as one whole turn. A chance node reached
//! with depth 0 is a leaf and is evaluated statically; `depth = 0` is the greedy bot.
//!
//! Pruning is exact: the value and the best move at the root are those of plain expectimax of
//! the same depth (the tests check this against an unpruned search), only cheaper.

use crate::eval::Evaluator;
use arrayvec::ArrayVec;
use senet_rules::{Game, Move, MoveList, Player, Status};
use std::hash::Hasher;

/// The most throw outcomes of any rule set: two six-sided dice give 21 unordered outcomes.
const MAX_OUTCOMES: usize = 36;

/// The bounds of every value (a loss and a win for the first player).
const LO: f64 = 0.0;
const HI: f64 = 1.0;

/// Options of a search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Throws (chance nodes) searched below the root decision.
    pub depth: u32,
    /// Star1 pruning at chance nodes (with alpha-beta at decision nodes).
    pub star1: bool,
    /// Star2 probing at chance nodes (needs `star1`).
    pub star2: bool,
    /// Order moves by a static look at their results.
    pub ordering: bool,
    /// Look at results for ordering only at nodes with at least this many throws left
    /// (shallower subtrees are too cheap to pay for it).
    pub order_depth: u32,
    /// The transposition cache has 2^`tt_bits` slots (0: no cache).
    pub tt_bits: u32,
    /// Search every root move with a full window, so that every move's score is exact; if
    /// false, moves that cannot be best get only a bound.
    pub exact_root: bool,
    /// Search a position reached twice within one turn at depth 0 (die a then die b, and b
    /// then a) only once. Values are unchanged.
    pub dedup: bool,
    /// A budget in nodes. `None`: search `depth` throws deep whatever it costs. `Some(n)`:
    /// iterative deepening, depth 0, 1, ... up to `depth`, stopping when the next iteration
    /// would pass `n` nodes in all; the answer is that of the deepest completed iteration
    /// (depth 0 always completes: it is one turn's moves). Deterministic: nodes, not time.
    pub budget: Option<u64>,
}

impl SearchOptions {
    /// The defaults for a depth: every pruning on, a cache, exact root scores.
    pub fn new(depth: u32) -> SearchOptions {
        SearchOptions {
            depth,
            star1: true,
            star2: true,
            ordering: true,
            order_depth: 1,
            tt_bits: 16,
            exact_root: true,
            dedup: true,
            budget: None,
        }
    }

    /// Plain expectimax with no pruning, ordering or cache (for tests and comparisons).
    pub fn plain(depth: u32) -> SearchOptions {
        SearchOptions {
            depth,
            star1: false,
            star2: false,
            ordering: false,
            order_depth: 1,
            tt_bits: 0,
            exact_root: true,
            dedup: false,
            budget: None,
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Copy, Clone, Debug)]
struct Slot<G> {
    key: G,
    generation: u32,
    depth: u32,
    bound: Bound,
    value: f64,
    best: Move,
}

/// The caches' hash of a position: the same 64 bits on every machine. (`rustc_hash`'s
/// `FxHasher` works in `usize`s, so the page's 32-bit WebAssembly engine put positions in
/// other slots than the native one, and a search under a node budget could stop at another
/// place and answer another value; its leaf cache's index, the hash's top bits, was always 0
/// there.) Each word is mixed in as FxHash does; `finish` spreads every bit over the rest
/// (MurmurHash3's 64-bit finaliser), so the low bits (the transposition cache) and the high
/// bits (the leaf cache) are both usable.
#[derive(Default)]
struct KeyHasher(u64);

impl KeyHasher {
    #[inline(always)]
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for KeyHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let (words, rest) = bytes.as_chunks::<8>();
        for w in words {
            self.add(u64::from_le_bytes(*w));
        }
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i.into());
    }
    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.add(i.into());
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(i.into());
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn write_isize(&mut self, i: isize) {
        self.add(i as i64 as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

/// The transposition cache. Each search starts a new generation, so old entries are ignored
/// without clearing the memory and a search never depends on an earlier one (determinism).
pub struct Table<G> {
    slots: Vec<Option<Slot<G>>>,
    mask: usize,
    generation: u32,
}

impl<G: Game> Table<G> {
    /// A cache of 2^`bits` slots (no memory is used for `bits = 0`).
    pub fn new(bits: u32) -> Table<G> {
        let n = if bits == 0 { 0 } else { 1usize << bits };
        Table {
            slots: vec![None; n],
            mask: n.wrapping_sub(1),
            generation: 0,
        }
    }

    fn bits(&self) -> u32 {
        self.slots.len().trailing_zeros()
    }

    fn new_generation(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // After 2^32 searches, really forget everything once.
            self.slots.iter_mut().for_each(|s| *s = None);
            self.generation = 1;
        }
    }

    #[inline]
    fn index(&self, g: &G) -> usize {
        let mut h = KeyHasher::default();
        g.hash(&mut h);
        h.finish() as usize & self.mask
    }

    #[inline]
    fn get(&self, g: &G) -> Option<&Slot<G>> {
        if self.slots.is_empty() {
            return None;
        }
        match &self.slots[self.index(g)] {
            Some(s) if s.generation == self.generation && s.key == *g => Some(s),
            _ => None,
        }
    }

    #[inline]
    fn put(&mut self, g: &G, depth: u32, bound: Bound, value: f64, best: Move) {
        if self.slots.is_empty() {
            return;
        }
        let i = self.index(g);
        self.slots[i] = Some(Slot {
            key: *g,
            generation: self.generation,
            depth,
            bound,
            value,
            best,
        });
    }
}

/// The positions searched so far within the current turn at depth 0, keyed by the two moves
/// that reached them (see [`Search::decide_in`]): a small direct-mapped table; an entry lost
/// to a collision only costs a search. Each turn gets a new stamp, so nothing is cleared.
struct TurnSeen<G> {
    slots: Vec<Option<(u32, u64, G)>>,
    stamp: u32,
}

/// The turn table has 2^`SEEN_BITS` slots.
const SEEN_BITS: u32 = 8;

impl<G: Game> TurnSeen<G> {
    fn new() -> TurnSeen<G> {
        TurnSeen {
            slots: vec![None; 1 << SEEN_BITS],
            stamp: 0,
        }
    }

    /// A new turn: its stamp.
    fn begin(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.slots.iter_mut().for_each(|s| *s = None);
            self.stamp = 1;
        }
        self.stamp
    }

    /// A key that both orders of the same two moves share: the unordered pair, or for one
    /// piece moved twice, where it started and ended (the other order goes by another square).
    #[inline]
    fn key(first: Move, second: Move) -> u64 {
        if first.to == second.from && !first.is_pass() {
            1 << 63 | (first.from as u64) << 8 | second.to as u64
        } else {
            let m = |m: Move| u32::from_le_bytes([m.from, m.to, m.die, m.kind.bits()]) as u64;
            let (x, y) = (m(first), m(second));
            x.min(y) << 32 | x.max(y)
        }
    }

    #[inline]
    fn index(key: u64) -> usize {
        (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - SEEN_BITS)) as usize
    }

    /// Whether `g`, reached by `first` then `second` in turn `stamp`, was searched.
    #[inline]
    fn contains(&self, stamp: u32, first: Move, second: Move, g: &G) -> bool {
        let key = Self::key(first, second);
        matches!(&self.slots[Self::index(key)], Some((s, k, h)) if *s == stamp && *k == key && h == g)
    }

    #[inline]
    fn insert(&mut self, stamp: u32, first: Move, second: Move, g: &G) {
        let key = Self::key(first, second);
        self.slots[Self::index(key)] = Some((stamp, key, *g));
    }
}

/// The static values of the leaves met so far in the current search, keyed by position: a
/// small direct-mapped table (a slot lost to a collision only costs an evaluation). Leaves
/// repeat within a search: Star2 probes a chance outcome's first move and Star1 then
/// searches the same outcome in full, and different throws and moves often reach the same
/// position. A cached value is the evaluator's own, so values never change.
struct LeafCache<G> {
    slots: Vec<Option<(u32, G, f64)>>,
    stamp: u32,
}

/// The leaf cache has 2^`LEAF_BITS` slots.
const LEAF_BITS: u32 = 13;

impl<G: Game> LeafCache<G> {
    fn new() -> LeafCache<G> {
        LeafCache {
            slots: vec![None; 1 << LEAF_BITS],
            stamp: 0,
        }
    }

    /// A new search (whose evaluator may differ from the last one's).
    fn begin(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.slots.iter_mut().for_each(|s| *s = None);
            self.stamp = 1;
        }
    }

    #[inline]
    fn index(g: &G) -> usize {
        let mut h = KeyHasher::default();
        g.hash(&mut h);
        (h.finish() >> (64 - LEAF_BITS)) as usize
    }

    /// The value of leaf `g`: cached, or `eval(g)`, cached.
    #[inline]
    fn value(&mut self, g: &G, eval: impl FnOnce(&G) -> f64) -> f64 {
        let i = Self::index(g);
        if let Some((s, k, v)) = &self.slots[i] {
            if *s == self.stamp && k == g {
                return *v;
            }
        }
        let v = eval(g);
        self.slots[i] = Some((self.stamp, *g, v));
        v
    }
}

/// The result of a search at the root.
#[derive(Clone, Debug)]
pub struct RootResult {
    /// Every legal move with its value (first player's win chance), in generator order.
    /// With `exact_root` off, the value of a move that cannot be best is a bound in the
    /// mover's disfavour (at most that good for the mover): see `exact`.
    pub values: Vec<(Move, f64)>,
    /// Whether every value is exact (else only the best move's is).
    pub exact: bool,
    /// Index of the best move in `values` (the first searched of equals).
    pub best: usize,
    /// Nodes visited (over every iteration, with a budget).
    pub nodes: u64,
    /// The depth of the answer: `depth`, or with a budget the deepest completed iteration.
    pub depth: u32,
    /// With `exact_root`, per move (as `values`): if its result awaits a throw and was
    /// searched throw by throw (not cut short by a table's exact value, the depth-0 leaf or a
    /// cache entry), the first player's win chance after each throw of it, in the order of
    /// its `throw_dist()`, each searched `depth - 1` throws deep: the values whose weighted
    /// mean is the move's value. The game's analysis takes the luck of the next throw from
    /// them instead of searching the throws again. Otherwise `None`; empty without
    /// `exact_root`.
    pub outcomes: Vec<Option<Vec<f64>>>,
}

/// An expectimax searcher over one rule-set type, owning its transposition cache.
pub struct Searcher<G: Game> {
    table: Table<G>,
    seen: TurnSeen<G>,
    leaves: LeafCache<G>,
}

impl<G: Game> Searcher<G> {
    /// A searcher whose cache has 2^`tt_bits` slots.
    pub fn new(tt_bits: u32) -> Searcher<G> {
        Searcher {
            table: Table::new(tt_bits),
            seen: TurnSeen::new(),
            leaves: LeafCache::new(),
        }
    }

    /// Searches a position awaiting a move. Deterministic: the result depends only on
    /// `g`, the evaluator and the options.
    pub fn search<E: Evaluator<G>>(&mut self, g: &G, e: &E, opt: &SearchOptions) -> RootResult {
        let bits = if opt.tt_bits == 0 { 0 } else { opt.tt_bits };
        if self.table.bits() != bits || (bits == 0 && !self.table.slots.is_empty()) {
            self.table = Table::new(bits);
        }
        self.table.new_generation();
        self.leaves.begin();
        let Some(budget) = opt.budget else {
            let mut s = Search {
                e,
                table: &mut self.table,
                seen: &mut self.seen,
                leaves: &mut self.leaves,
                opt: *opt,
                nodes: 1,
                limit: u64::MAX,
                aborted: false,
                captured: None,
            };
            return s.root(g);
        };
        // Iterative deepening in one cache generation: an entry stored at some remaining
        // depth holds the same value whichever iteration stored it, and its best move orders
        // the next iteration. The aborted iteration's entries are never read again (the next
        // search starts a new generation).
        let mut best: Option<RootResult> = None;
        let mut spent = 0;
        let mut last: [u64; 2] = [0, 0]; // nodes of the two latest iterations
        for depth in 0..=opt.depth {
            // Skip an iteration that would not fit: each costs at least its predecessor times
            // the latest growth (and at least twice), so starting it would only waste nodes.
            if depth >= 2 && last[1] > 0 {
                let growth = (last[1] as f64 / last[0].max(1) as f64).max(2.0);
                if spent as f64 + last[1] as f64 * growth > budget as f64 {
                    break;
                }
            }
            let mut s = Search {
                e,
                table: &mut self.table,
                seen: &mut self.seen,
                leaves: &mut self.leaves,
                opt: SearchOptions { depth, ..*opt },
                nodes: 1,
                limit: if depth == 0 {
                    u64::MAX
                } else {
                    budget.saturating_sub(spent)
                },
                aborted: false,
                captured: None,
            };
            let r = s.root(g);
            spent += s.nodes;
            last = [last[1], s.nodes];
            if s.aborted {
                break;
            }
            best = Some(r);
            if spent >= budget {
                break;
            }
        }
        let mut r = best.expect("depth 0 always completes");
        r.nodes = spent;
        r
    }
}

/// Indexes into a move list, in search order; `None` for the generator's order (most nodes:
/// no list to build).
type Order = Option<ArrayVec<u8, { senet_rules::game::MAX_MOVES }>>;

/// The index of the `j`th move to search.
#[inline(always)]
fn nth(order: &Order, j: usize) -> usize {
    match order {
        Some(o) => o[j] as usize,
        None => j,
    }
}

struct Search<'a, G: Game, E> {
    e: &'a E,
    table: &'a mut Table<G>,
    seen: &'a mut TurnSeen<G>,
    leaves: &'a mut LeafCache<G>,
    opt: SearchOptions,
    nodes: u64,
    /// Nodes this iteration may visit; past it the search unwinds at once, and its result
    /// is thrown away.
    limit: u64,
    aborted: bool,
    /// With exact root scores, the throws' values of the root move just searched, recorded
    /// by [`Search::value_capturing`] (see [`RootResult::outcomes`]).
    captured: Option<Vec<f64>>,
}

impl<G: Game, E: Evaluator<G>> Search<'_, G, E> {
    /// Counts a node; whether the budget is spent (then the caller returns at once).
    #[inline]
    fn spend(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.limit {
            self.aborted = true;
        }
        self.aborted
    }

    fn root(&mut self, g: &G) -> RootResult {
        let mut ms = MoveList::new();
        g.legal_moves(&mut ms);
        assert!(!ms.is_empty(), "search needs a position awaiting a move");
        let maxer = g.status().player() == Some(Player::First);
        let better = |a: f64, b: f64| if maxer { a > b } else { a < b };
        let mut values = Vec::with_capacity(ms.len());
        let mut best: Option<(usize, f64)> = None;
        // Search the most promising move first so that, without exact root scores, the
        // others are refuted cheaply.
        let order = self.order(g, &ms, maxer, self.opt.depth, None);
        let mut vals = vec![0.0; ms.len()];
        let mut outcomes = if self.opt.exact_root {
            vec![None; ms.len()]
        } else {
            Vec::new()
        };
        for i in (0..ms.len()).map(|j| nth(&order, j)) {
            let mut c = *g;
            c.play_unchecked(ms[i]);
            let (alpha, beta) = match (self.opt.exact_root, best) {
                (false, Some((_, b))) if maxer => (b, 2.0),
                (false, Some((_, b))) => (-1.0, b),
                _ => (-1.0, 2.0),
            };
            // (Searched with a full window: every outcome's value is exact.)
            let v = if self.opt.exact_root {
                let v = self.value_capturing(&c, self.opt.depth, alpha, beta);
                outcomes[i] = self.captured.take();
                v
            } else {
                self.value(&c, self.opt.depth, alpha, beta)
            };
            vals[i] = v;
            // Of equal values the first searched wins, so that both root modes choose the
            // same move (a later equal move fails low against the best without exact scores).
            let replace = match best {
                None => true,
                Some((_, b)) => better(v, b),
            };
            if replace {
                best = Some((i, v));
            }
        }
        for (i, m) in ms.iter().enumerate() {
            values.push((*m, vals[i]));
        }
        RootResult {
            values,
            exact: self.opt.exact_root || ms.len() == 1,
            best: best.map_or(0, |b| b.0),
            nodes: self.nodes,
            depth: self.opt.depth,
            outcomes,
        }
    }

    /// The value of any node, fail-soft: a result `<= alpha` is an upper bound, `>= beta` a
    /// lower bound, anything between is exact.
    fn value(&mut self, g: &G, depth: u32, alpha: f64, beta: f64) -> f64 {
        if self.spend() {
            return 0.5;
        }
        match g.status() {
            Status::Over(o) => self.e.terminal(&o),
            Status::Throw(p) => match self.e.exact(g) {
                // A position whose value is known (an endgame table) is a leaf at any depth.
                Some(v) => v,
                None if depth == 0 => {
                    let e = self.e;
                    self.leaves.value(g, |g| e.eval(g))
                }
                None => self.chance::<false>(g, p, depth, alpha, beta),
            },
            Status::Move(p) => self.decide(g, p, depth, alpha, beta).0,
        }
    }

    /// [`Search::value`] of a root move's result, which records its throws' values in
    /// `captured` (see [`RootResult::outcomes`]) when it is a chance node that is searched.
    /// Only exact root scores come here, so that play, which has no use for the outcomes,
    /// pays nothing for them.
    #[cold]
    fn value_capturing(&mut self, g: &G, depth: u32, alpha: f64, beta: f64) -> f64 {
        match g.status() {
            // (As `value` would go: a node spent, no exact value, not a leaf.)
            Status::Throw(p) if depth > 0 && self.e.exact(g).is_none() => {
                if self.spend() {
                    return 0.5;
                }
                self.chance::<true>(g, p, depth, alpha, beta)
            }
            _ => self.value(g, depth, alpha, beta),
        }
    }

    /// Looks `g` up in the cache. Nodes just above the leaves (depth 0) are not cached: they
    /// are the most numerous and the cheapest to recompute, and keeping them out keeps the
    /// cache small enough to stay in the processor's cache.
    #[inline]
    fn probe_table(&self, g: &G, depth: u32, alpha: f64, beta: f64) -> (Option<f64>, Option<Move>) {
        if depth == 0 {
            return (None, None);
        }
        match self.table.get(g) {
            Some(s) if s.depth == depth => {
                let hit = match s.bound {
                    Bound::Exact => true,
                    Bound::Lower => s.value >= beta,
                    Bound::Upper => s.value <= alpha,
                };
                (hit.then_some(s.value), Some(s.best))
            }
            Some(s) => (None, Some(s.best)),
            None => (None, None),
        }
    }

    #[inline]
    fn store(&mut self, g: &G, depth: u32, alpha: f64, beta: f64, v: f64, best: Move) {
        if depth == 0 || self.aborted {
            return;
        }
        let bound = if v <= alpha {
            Bound::Upper
        } else if v >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.put(g, depth, bound, v, best);
    }

    /// A static guess of a move's result, for ordering.
    #[inline]
    fn guess(&self, c: &G) -> f64 {
        match c.status() {
            Status::Over(o) => self.e.terminal(&o),
            Status::Throw(_) => self.e.eval(c),
            Status::Move(_) => 0.5,
        }
    }

    /// The order in which to search the moves: the cached best move first, then by a static
    /// look at the results (when the subtrees are deep enough to pay for it).
    fn order(&self, g: &G, ms: &MoveList, maxer: bool, depth: u32, hint: Option<Move>) -> Order {
        if !self.opt.ordering || ms.len() < 2 {
            return None;
        }
        if depth < self.opt.order_depth.max(1) {
            // No static look: the cached best move (if any) first, the rest in generator
            // order (what sorting by the keys below would give, without computing them).
            return match hint.and_then(|h| ms.iter().position(|&m| m == h)) {
                Some(h) if h > 0 => {
                    let mut idx: ArrayVec<u8, { senet_rules::game::MAX_MOVES }> =
                        (0..ms.len() as u8).collect();
                    idx[..=h].rotate_right(1);
                    Some(idx)
                }
                _ => None,
            };
        }
        // (Indexes as bytes: the list is returned by value.)
        let mut idx: ArrayVec<u8, { senet_rules::game::MAX_MOVES }> = (0..ms.len() as u8).collect();
        let mut key: ArrayVec<f64, { senet_rules::game::MAX_MOVES }> = ArrayVec::new();
        for &m in ms {
            if Some(m) == hint {
                key.push(if maxer { 3.0 } else { -3.0 });
            } else if depth >= self.opt.order_depth.max(1) {
                let mut c = *g;
                c.play_unchecked(m);
                key.push(self.guess(&c));
            } else {
                key.push(0.0);
            }
        }
        if maxer {
            sort_indexes(&mut idx, |&a, &b| {
                key[b as usize].total_cmp(&key[a as usize]).then(a.cmp(&b))
            });
        } else {
            sort_indexes(&mut idx, |&a, &b| {
                key[a as usize].total_cmp(&key[b as usize]).then(a.cmp(&b))
            });
        }
        Some(idx)
    }

    /// A decision node: alpha-beta over the legal moves. Returns the value and the best move.
    fn decide(&mut self, g: &G, p: Player, depth: u32, alpha: f64, beta: f64) -> (f64, Move) {
        self.decide_in(g, p, depth, alpha, beta, None)
    }

    /// [`Search::decide`], for a node that is (with `turn` set) the same player's next
    /// decision after move `turn.0` of a depth-0 decision node whose children are being
    /// searched under turn stamp `turn.1`.
    ///
    /// Within one turn the same position is often reached twice, by die a then die b and by
    /// die b then die a. Such a position is searched once: a child that equals one already
    /// searched under an earlier child of the same turn node (or of this node) is skipped.
    /// That leaves every value alone: the turn node's player is to move throughout, and the
    /// earlier copy's result already counts in the turn node's best (had it cut off, the turn
    /// node would have too), so the skipped copy could not change the turn node's result,
    /// its best move (the first of equals is kept) or, when it fails, the bound. This node's
    /// own result may then be a worse bound than its value (no better than what the turn
    /// node already has), so it is never cached, and depth-0 nodes are not.
    fn decide_in(
        &mut self,
        g: &G,
        p: Player,
        depth: u32,
        alpha: f64,
        beta: f64,
        turn: Option<(Move, u32)>,
    ) -> (f64, Move) {
        let (hit, hint) = self.probe_table(g, depth, alpha, beta);
        if let (Some(v), Some(m)) = (hit, hint) {
            return (v, m);
        }
        let mut ms = MoveList::new();
        g.legal_moves(&mut ms);
        let maxer = p == Player::First;
        let order = self.order(g, &ms, maxer, depth, hint);
        let prune = self.opt.star1;
        // A depth-0 node with a choice starts a turn for its children that are decisions of
        // the same player (depth-0 nodes are not cached, so nothing else reaches them).
        let stamp = if turn.is_none() && depth == 0 && self.opt.dedup && ms.len() > 1 {
            Some(self.seen.begin())
        } else {
            None
        };
        let (mut a, mut b) = (alpha, beta);
        let mut best = if maxer {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        let mut best_move = ms[nth(&order, 0)];
        for j in 0..ms.len() {
            let m = ms[nth(&order, j)];
            let mut c = *g;
            c.play_unchecked(m);
            if let Some((first, t)) = turn {
                // Searched already in the other order?
                if self.seen.contains(t, first, m, &c) {
                    continue;
                }
            }
            let (wa, wb) = if prune { (a, b) } else { (-1.0, 2.0) };
            let v = match stamp {
                Some(t) if c.status() == Status::Move(p) => {
                    if self.spend() {
                        return (0.5, best_move);
                    }
                    self.decide_in(&c, p, depth, wa, wb, Some((m, t))).0
                }
                _ => self.value(&c, depth, wa, wb),
            };
            if let Some((first, t)) = turn {
                self.seen.insert(t, first, m, &c);
            }
            if maxer {
                if v > best {
                    best = v;
                    best_move = m;
                }
                if prune {
                    if best >= b {
                        break;
                    }
                    a = a.max(best);
                }
            } else {
                if v < best {
                    best = v;
                    best_move = m;
                }
                if prune {
                    if best <= a {
                        break;
                    }
                    b = b.min(best);
                }
            }
        }
        if turn.is_none() {
            self.store(g, depth, alpha, beta, best, best_move);
        }
        (best, best_move)
    }

    /// Star2's probe of one chance outcome: the value of its first move only (in search
    /// order), a bound on the outcome's value in the mover's favour. Returns the probe value
    /// and whether it is the outcome's exact value (a single legal move).
    fn probe(&mut self, c: &G, depth: u32, alpha: f64, beta: f64) -> (f64, bool) {
        if self.spend() {
            return (0.5, false);
        }
        let maxer = match c.status() {
            Status::Move(p) => p == Player::First,
            Status::Over(o) => return (self.e.terminal(&o), true),
            Status::Throw(_) => return (self.value(c, depth, alpha, beta), true),
        };
        let (hit, hint) = self.probe_table(c, depth, alpha, beta);
        if let Some(v) = hit {
            return (v, true); // the outcome's own (bounded) value
        }
        let mut ms = MoveList::new();
        c.legal_moves(&mut ms);
        if ms.len() == 1 {
            let v = self
                .decide(
                    c,
                    if maxer { Player::First } else { Player::Second },
                    depth,
                    alpha,
                    beta,
                )
                .0;
            return (v, true);
        }
        let order = self.order(c, &ms, maxer, depth, hint);
        let mut d = *c;
        d.play_unchecked(ms[nth(&order, 0)]);
        (self.value(&d, depth, alpha, beta), false)
    }

    /// A chance node: the probability-weighted mean of the outcomes, with Star1 cut-offs and
    /// (optionally) Star2 probing. (Out of line: its bound arrays would otherwise make every
    /// call of [`Search::value`], most of them leaves, set up a large frame.)
    #[inline(never)]
    fn chance<const CAPTURE: bool>(
        &mut self,
        g: &G,
        p: Player,
        depth: u32,
        alpha: f64,
        beta: f64,
    ) -> f64 {
        // A root move's result: record the outcomes' values (`RootResult::outcomes`).
        let mut capture = CAPTURE.then(Vec::new);
        if let (Some(v), _) = self.probe_table(g, depth, alpha, beta) {
            return v;
        }
        let dist = g.throw_dist();
        let total = dist.total as f64;
        let n = dist.outcomes.len();
        let kid = |i: usize| -> (G, f64) {
            let (t, w) = dist.outcomes[i];
            let mut c = *g;
            c.set_throw_unchecked(t);
            (c, w as f64 / total)
        };
        if !self.opt.star1 {
            let mut s = 0.0;
            for i in 0..n {
                let (c, pr) = kid(i);
                let v = self.value(&c, depth - 1, -1.0, 2.0);
                if let Some(vs) = &mut capture {
                    vs.push(v);
                }
                s += pr * v;
            }
            self.captured = capture.filter(|_| !self.aborted);
            return s;
        }
        let mut lo = [LO; MAX_OUTCOMES];
        let mut hi = [HI; MAX_OUTCOMES];
        let mut exact = [false; MAX_OUTCOMES];
        // Star2: probe each outcome with one move of the player to move there. For the
        // first player that bounds the outcome from below (a beta cut-off may follow), for
        // the second from above (an alpha cut-off). Useless with a full window.
        if self.opt.star2 && n > 1 && (alpha > LO || beta < HI) {
            let maxer = p == Player::First;
            let (mut sum_lo, mut sum_hi) = (LO, HI);
            for i in 0..n {
                let (c, pr) = kid(i);
                let (a_i, b_i) = (
                    (alpha - (sum_hi - pr * hi[i])) / pr,
                    (beta - (sum_lo - pr * lo[i])) / pr,
                );
                let (v, is_exact) = self.probe(&c, depth - 1, a_i, b_i);
                if is_exact && v > a_i && v < b_i {
                    exact[i] = true;
                    sum_lo += pr * (v - lo[i]);
                    sum_hi += pr * (v - hi[i]);
                    lo[i] = v;
                    hi[i] = v;
                } else if maxer || is_exact {
                    // A move's value (or a fail-high) bounds a maximizing outcome from below.
                    if v > a_i && v > lo[i] {
                        sum_lo += pr * (v - lo[i]);
                        lo[i] = v;
                    }
                }
                if !maxer || is_exact {
                    // ... and a minimizing outcome from above.
                    if v < b_i && v < hi[i] {
                        sum_hi += pr * (v - hi[i]);
                        hi[i] = v;
                    }
                }
                if sum_lo >= beta {
                    self.store(g, depth, alpha, beta, sum_lo, Move::PASS);
                    return sum_lo;
                }
                if sum_hi <= alpha {
                    self.store(g, depth, alpha, beta, sum_hi, Move::PASS);
                    return sum_hi;
                }
            }
        }
        // Star1: search the outcomes in turn with windows narrowed by what is known of the
        // others.
        let mut rest_lo: f64 = (0..n).map(|i| kid(i).1 * lo[i]).sum();
        let mut rest_hi: f64 = (0..n).map(|i| kid(i).1 * hi[i]).sum();
        let mut s = 0.0;
        for i in 0..n {
            let (c, pr) = kid(i);
            rest_lo -= pr * lo[i];
            rest_hi -= pr * hi[i];
            let a_i = (alpha - s - rest_hi) / pr;
            let b_i = (beta - s - rest_lo) / pr;
            let v = if exact[i] {
                lo[i]
            } else {
                self.value(&c, depth - 1, a_i, b_i)
            };
            if let Some(vs) = &mut capture {
                vs.push(v);
            }
            s += pr * v;
            // (Clamped, so that rounding never turns a bound into an exact value.)
            if v <= a_i {
                let r = (s + rest_hi).min(alpha);
                self.store(g, depth, alpha, beta, r, Move::PASS);
                return r;
            }
            if v >= b_i {
                let r = (s + rest_lo).max(beta);
                self.store(g, depth, alpha, beta, r, Move::PASS);
                return r;
            }
        }
        self.store(g, depth, alpha, beta, s, Move::PASS);
        // (Every outcome searched within its window: exact, with the root's full window.)
        self.captured = capture.filter(|_| !self.aborted);
        s
    }
}

/// Sorts a node's move indexes by `cmp`, a total order (ties are broken by index), so that
/// every correct sort gives the same order. In WebAssembly an insertion sort: the standard
/// library's sort, instantiated per rule set and evaluator, made half a megabyte of the
/// page's engine (issue 54); a node has at most `MAX_MOVES` moves.
#[inline]
fn sort_indexes(idx: &mut [u8], cmp: impl Fn(&u8, &u8) -> std::cmp::Ordering) {
    #[cfg(not(target_arch = "wasm32"))]
    idx.sort_by(cmp);
    #[cfg(target_arch = "wasm32")]
    for i in 1..idx.len() {
        let mut j = i;
        while j > 0 && cmp(&idx[j - 1], &idx[j]) == std::cmp::Ordering::Greater {
            idx.swap(j - 1, j);
            j -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::Hash;

    /// The caches' slots must not depend on the machine's word size, or the page's 32-bit
    /// engine searches other trees than the native one under a node budget: a length or a
    /// discriminant (a `usize` or `isize`) hashes as the same 64-bit number would.
    #[test]
    fn the_caches_hash_is_the_same_on_32_and_64_bit_machines() {
        let words = |f: &dyn Fn(&mut KeyHasher)| {
            let mut h = KeyHasher::default();
            f(&mut h);
            h.finish()
        };
        assert_eq!(words(&|h| h.write_usize(7)), words(&|h| h.write_u64(7)));
        assert_eq!(
            words(&|h| h.write_isize(-3)),
            words(&|h| h.write_u64(-3i64 as u64))
        );
        // Bytes go in as little-endian words, so a slice of integers hashes alike everywhere.
        assert_eq!(
            words(&|h| h.write(&[1, 0, 0, 0, 2, 0, 0, 0, 3])),
            words(&|h| {
                h.write_u64(0x0000_0002_0000_0001);
                h.write_u64(3)
            })
        );
        // The positions of a game spread over both ends of the hash: the transposition
        // cache takes its low bits, the leaf cache its high ones.
        let new =
            || senet_rules::AnyGame::new(senet_rules::RuleSet::Kendall5, &[] as &[&str]).unwrap();
        let mut g = new();
        let (mut low, mut high) = (
            std::collections::HashSet::new(),
            std::collections::HashSet::new(),
        );
        let mut rng = senet_rules::conformance::SplitMix(5);
        for _ in 0..2000 {
            match g.status() {
                Status::Over(_) => g = new(),
                Status::Throw(_) => g.set_throw_unchecked(g.sample_throw(rng.next_u32())),
                Status::Move(_) => {
                    g.play_random(rng.next_u32());
                }
            }
            let k = words(&|h| g.hash(h));
            low.insert(k & 0xff);
            high.insert(k >> 56);
        }
        assert!(
            low.len() > 240 && high.len() > 240,
            "{} {}",
            low.len(),
            high.len()
        );
    }
}
