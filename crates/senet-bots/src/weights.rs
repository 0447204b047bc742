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
// kendall: 100000 self-play games, seed 1, alpha 0.02, lambda 0.7, epsilon 0.02
// mean squared error on 2000 greedy games: before 0.27301, after 0.25235
pub static KENDALL: TrackEval = TrackEval {
    spec: &KENDALL_SPEC,
    w: [
        1.105178,  // sq1
        1.099953,  // sq2
        1.117138,  // sq3
        1.127852,  // sq4
        1.134626,  // sq5
        1.150718,  // sq6
        1.154451,  // sq7
        1.170518,  // sq8
        1.175388,  // sq9
        1.186942,  // sq10
        1.199550,  // sq11
        1.209190,  // sq12
        1.220686,  // sq13
        1.230787,  // sq14
        1.247076,  // sq15
        1.252901,  // sq16
        1.266042,  // sq17
        1.279404,  // sq18
        1.288266,  // sq19
        1.289226,  // sq20
        1.280826,  // sq21
        1.281743,  // sq22
        1.323733,  // sq23
        1.338541,  // sq24
        1.271448,  // sq25
        1.489590,  // sq26
        2.160000,  // sq27
        1.474478,  // sq28
        1.473905,  // sq29
        1.441087,  // sq30
        1.398758,  // off
        0.025463,  // protected
        -0.005242, // blockade
        0.046116,  // exposed_now
        0.021395,  // exposed_later
        0.031907,  // tempo
        0.013058,  // behind_blockade
    ],
    bias: -0.091570,
    label: "kendall-td",
};
