//! The evaluators of each rule set, as statics the bots refer to.

use crate::track::{TrackEval, KENDALL5_SPEC, KENDALL_SPEC};

/// `kendall5`, hand-set weights.
pub static KENDALL5_HAND: TrackEval = TrackEval::hand(&KENDALL5_SPEC);
/// `kendall`, hand-set weights.
pub static KENDALL_HAND: TrackEval = TrackEval::hand(&KENDALL_SPEC);

/// `kendall5`, the tuned evaluator.
pub static KENDALL5: TrackEval = TrackEval::hand(&KENDALL5_SPEC);
/// `kendall`, the tuned evaluator.
pub static KENDALL: TrackEval = TrackEval::hand(&KENDALL_SPEC);
