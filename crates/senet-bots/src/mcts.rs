//! Monte-Carlo tree search with chance nodes, budgeted in iterations.
//!
//! The tree alternates decision nodes (UCT over the legal moves, from the point of view of
//! the player to move there, read from `status()`) and chance nodes (one child per throw
//! outcome). A chance node does not sample at random: it descends into the outcome whose
//! share of visits lags its probability most, which follows the exact probabilities with
//! far less noise and makes the search deterministic. A new node is valued by the static
//! evaluator (a mid-turn position by the best continuation of the turn), instead of a random
//! playout: Senet games are long and random playouts say little. Values are the first
//! player's win chance, as everywhere in this crate.

use crate::eval::Evaluator;
use senet_rules::{Game, Move, MoveList, Player, Status};

/// Options of a Monte-Carlo search.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct MctsOptions {
    /// Iterations (one new node each).
    pub iterations: u32,
    /// The UCT exploration constant (values lie in [0, 1]).
    pub exploration: f64,
}

impl MctsOptions {
    /// The defaults for a budget.
    pub fn new(iterations: u32) -> MctsOptions {
        MctsOptions {
            iterations: iterations.max(1),
            exploration: 0.5,
        }
    }
}

const NONE: u32 = u32::MAX;

struct Node<G> {
    g: G,
    visits: u32,
    /// Sum of backed-up values (first player's perspective).
    sum: f64,
    /// Legal moves of a decision node; empty for chance and terminal nodes.
    moves: MoveList,
    /// Child per move (decision) or per outcome (chance); `NONE` until expanded.
    kids: Vec<u32>,
    /// Outcome probabilities of a chance node.
    probs: Vec<f64>,
}

/// The result of a Monte-Carlo search at the root.
#[derive(Clone, Debug)]
pub struct MctsResult {
    /// Every legal move with its mean value (first player's win chance), in generator order.
    pub values: Vec<(Move, f64)>,
    /// Visits of each move.
    pub visits: Vec<u32>,
    /// Index of the chosen move (most visited; ties to the better mean, then the first).
    pub best: usize,
    /// Iterations run (nodes added).
    pub nodes: u64,
}

/// The best value the player to move can reach before the next throw: a whole turn's
/// remaining decisions, each result valued statically.
pub fn turn_value<G: Game, E: Evaluator<G>>(g: &G, e: &E) -> f64 {
    match g.status() {
        Status::Over(o) => e.terminal(&o),
        Status::Throw(_) => e.eval(g),
        Status::Move(p) => {
            let mut ms = MoveList::new();
            g.legal_moves(&mut ms);
            let vals = ms.iter().map(|&m| {
                let mut c = *g;
                c.play_unchecked(m);
                turn_value(&c, e)
            });
            if p == Player::First {
                vals.fold(f64::NEG_INFINITY, f64::max)
            } else {
                vals.fold(f64::INFINITY, f64::min)
            }
        }
    }
}

struct Tree<'a, G, E> {
    nodes: Vec<Node<G>>,
    e: &'a E,
    c: f64,
}

impl<G: Game, E: Evaluator<G>> Tree<'_, G, E> {
    fn add(&mut self, g: G) -> u32 {
        let mut moves = MoveList::new();
        let mut kids = Vec::new();
        let mut probs = Vec::new();
        match g.status() {
            Status::Move(_) => {
                g.legal_moves(&mut moves);
                kids = vec![NONE; moves.len()];
            }
            Status::Throw(_) => {
                let d = g.throw_dist();
                for &(_, w) in d.outcomes {
                    probs.push(w as f64 / d.total as f64);
                }
                kids = vec![NONE; probs.len()];
            }
            Status::Over(_) => {}
        }
        self.nodes.push(Node {
            g,
            visits: 0,
            sum: 0.0,
            moves,
            kids,
            probs,
        });
        (self.nodes.len() - 1) as u32
    }

    /// One iteration: select, expand one node, value it, back up.
    fn iterate(&mut self, root: u32) {
        let mut path = vec![root];
        let mut n = root as usize;
        let value = loop {
            let g = self.nodes[n].g;
            let next = match g.status() {
                Status::Over(o) => break self.e.terminal(&o),
                Status::Throw(_) => {
                    // The outcome furthest below its share of the visits.
                    let node = &self.nodes[n];
                    let total = node.visits as f64 + 1.0;
                    let mut best = 0;
                    let mut gap = f64::NEG_INFINITY;
                    for (i, &p) in node.probs.iter().enumerate() {
                        let seen = match node.kids[i] {
                            NONE => 0.0,
                            k => self.nodes[k as usize].visits as f64,
                        };
                        let d = p * total - seen;
                        if d > gap {
                            gap = d;
                            best = i;
                        }
                    }
                    best
                }
                Status::Move(p) => {
                    let node = &self.nodes[n];
                    if let Some(i) = node.kids.iter().position(|&k| k == NONE) {
                        i
                    } else {
                        let ln = (node.visits.max(1) as f64).ln();
                        let mut best = 0;
                        let mut score = f64::NEG_INFINITY;
                        for (i, &k) in node.kids.iter().enumerate() {
                            let kid = &self.nodes[k as usize];
                            let mean = kid.sum / kid.visits as f64;
                            let mine = if p == Player::First { mean } else { 1.0 - mean };
                            let s = mine + self.c * (ln / kid.visits as f64).sqrt();
                            if s > score {
                                score = s;
                                best = i;
                            }
                        }
                        best
                    }
                }
            };
            let k = self.nodes[n].kids[next];
            if k == NONE {
                let mut c = g;
                match g.status() {
                    Status::Throw(_) => {
                        let t = g.throw_dist().outcomes[next].0;
                        c.set_throw_unchecked(t);
                    }
                    _ => {
                        let m = self.nodes[n].moves[next];
                        c.play_unchecked(m);
                    }
                }
                let id = self.add(c);
                self.nodes[n].kids[next] = id;
                path.push(id);
                break turn_value(&c, self.e);
            }
            path.push(k);
            n = k as usize;
        };
        for &i in &path {
            let node = &mut self.nodes[i as usize];
            node.visits += 1;
            node.sum += value;
        }
    }
}

/// Runs a Monte-Carlo search from a position awaiting a move.
pub fn mcts<G: Game, E: Evaluator<G>>(g: &G, e: &E, opt: &MctsOptions) -> MctsResult {
    let mut tree = Tree {
        nodes: Vec::with_capacity(opt.iterations as usize + 1),
        e,
        c: opt.exploration,
    };
    let root = tree.add(*g);
    let maxer = g.status().player() == Some(Player::First);
    let moves = tree.nodes[0].moves.clone();
    assert!(!moves.is_empty(), "mcts needs a position awaiting a move");
    if moves.len() > 1 {
        for _ in 0..opt.iterations {
            tree.iterate(root);
        }
    }
    let mut values = Vec::with_capacity(moves.len());
    let mut visits = Vec::with_capacity(moves.len());
    for (i, &m) in moves.iter().enumerate() {
        match tree.nodes[0].kids.get(i).copied().unwrap_or(NONE) {
            NONE => {
                let mut c = *g;
                c.play_unchecked(m);
                values.push((m, turn_value(&c, e)));
                visits.push(0);
            }
            k => {
                let kid = &tree.nodes[k as usize];
                values.push((m, kid.sum / kid.visits as f64));
                visits.push(kid.visits);
            }
        }
    }
    let mine = |v: f64| if maxer { v } else { 1.0 - v };
    let mut best = 0;
    for i in 1..moves.len() {
        let (vi, vb) = (visits[i], visits[best]);
        if vi > vb || (vi == vb && mine(values[i].1) > mine(values[best].1)) {
            best = i;
        }
    }
    MctsResult {
        values,
        visits,
        best,
        nodes: tree.nodes.len() as u64,
    }
}
