//! Perft: the number of paths through the game tree from each rule set's start, every throw
//! outcome and every legal move counted once (unweighted), to a depth in decisions. The counts
//! are committed numbers, not the code compared with itself: any change to throws, legal moves
//! or turn order changes them (issue 17). Depth 3 covers the opening moves, bonus throws and
//! the first exchanges; the numbers were recorded from this implementation after the rulings'
//! tests passed, and a rules change must update them deliberately.

use senet_rules::{with_game, AnyGame, Game, MoveList, RuleSet, Status};

/// Paths of `depth` decisions from `g` (a throw is a chance node expanded over its outcomes;
/// a finished game ends a path early).
fn perft<G: Game>(g: &G, depth: u32) -> u64 {
    match g.status() {
        Status::Over(_) => 1,
        _ if depth == 0 => 1,
        Status::Throw(_) => g
            .throw_dist()
            .outcomes
            .iter()
            .map(|&(t, _)| {
                let mut h = *g;
                h.set_throw_unchecked(t);
                perft(&h, depth)
            })
            .sum(),
        Status::Move(_) => {
            let mut ms = MoveList::new();
            g.legal_moves(&mut ms);
            ms.iter()
                .map(|&m| {
                    let mut h = *g;
                    h.play_unchecked(m);
                    perft(&h, depth - 1)
                })
                .sum()
        }
    }
}

fn counts(rules: RuleSet, depth: u32) -> u64 {
    let start = AnyGame::new(rules, &[] as &[&str]).unwrap();
    with_game!(&start, g => perft(g, depth))
}

/// (rule set, paths at depth 1, 2, 3).
const PERFT: [(RuleSet, [u64; 3]); 6] = [
    (RuleSet::Kendall, [5, 87, 1362]),
    (RuleSet::Kendall5, [18, 268, 3919]),
    (RuleSet::Senat, [1, 18, 252]),
    (RuleSet::Houses, [5, 94, 1531]),
    (RuleSet::Pyramid, [23, 1817, 9478]),
    (RuleSet::Parker, [172, 6708, 323092]),
];

#[test]
fn perft_counts_from_every_start_match_the_committed_numbers() {
    let have: Vec<[u64; 3]> = PERFT
        .iter()
        .map(|&(rules, _)| [1, 2, 3].map(|d| counts(rules, d)))
        .collect();
    let table: Vec<String> = PERFT
        .iter()
        .zip(&have)
        .map(|((rules, _), h)| format!("    (RuleSet::{rules:?}, {h:?}),"))
        .collect();
    for ((rules, want), have) in PERFT.iter().zip(&have) {
        assert_eq!(
            have,
            want,
            "{rules}: perft at depths 1-3; every count now:\n{}",
            table.join("\n")
        );
    }
}
