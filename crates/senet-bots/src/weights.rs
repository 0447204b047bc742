//! The evaluators of each rule set, as statics the bots refer to.

use crate::track::{TrackEval, KENDALL5_SPEC, KENDALL_SPEC};

/// `kendall5`, hand-set weights.
pub static KENDALL5_HAND: TrackEval = TrackEval::hand(&KENDALL5_SPEC);
/// `kendall`, hand-set weights.
pub static KENDALL_HAND: TrackEval = TrackEval::hand(&KENDALL_SPEC);

/// `kendall5`, the tuned evaluator.
// kendall5: 100000 self-play games, seed 1, alpha 0.02, lambda 0.7, epsilon 0.02
// mean squared error on 2000 greedy games: before 0.26605, after 0.24352
pub static KENDALL5: TrackEval = TrackEval {
    spec: &KENDALL5_SPEC,
    w: [
        0.886472,  // sq1
        0.908325,  // sq2
        0.946388,  // sq3
        0.976428,  // sq4
        1.009517,  // sq5
        1.033483,  // sq6
        1.058921,  // sq7
        1.082036,  // sq8
        1.115698,  // sq9
        1.140692,  // sq10
        1.161871,  // sq11
        1.190934,  // sq12
        1.212970,  // sq13
        1.231449,  // sq14
        1.248116,  // sq15
        1.272240,  // sq16
        1.284172,  // sq17
        1.302098,  // sq18
        1.319189,  // sq19
        1.340249,  // sq20
        1.358422,  // sq21
        1.359813,  // sq22
        1.373610,  // sq23
        1.404740,  // sq24
        1.387991,  // sq25
        1.521429,  // sq26
        2.160000,  // sq27
        1.609389,  // sq28
        1.651310,  // sq29
        1.646737,  // sq30
        1.645311,  // off
        0.023392,  // protected
        -0.013562, // blockade
        -0.161326, // exposed_now
        0.021559,  // exposed_later
        0.033066,  // tempo
        0.039567,  // behind_blockade
    ],
    bias: -0.009751,
    label: "kendall5-td",
};
/// `kendall`, the tuned evaluator.
pub static KENDALL: TrackEval = TrackEval::hand(&KENDALL_SPEC);
