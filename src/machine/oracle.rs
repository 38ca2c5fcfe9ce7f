//! The valid-input search's own state (`--precondition`): the precondition, whether a
//! P-search is running, why the last one was inconclusive and a fault it met; and what a
//! search answers.

use super::pre_method::PreArgs;
use super::state::State;
use crate::classfile::MethodId;
use crate::heap::HeapStrategy;
use crate::term::Assignment;

/// The valid-input search of a run whose entry has a precondition (see `precondition.rs`).
pub(crate) struct ValidInputSearch {
    /// The precondition and what it is called with.
    pub(crate) pre: (MethodId, PreArgs),
    /// Inside a P-search. A fork keeps every side the path condition does not plainly rule
    /// out and marks it `unchecked`; the search runs sides in the order its last model
    /// favours and asks the solver about a side only when it forks again (a side that
    /// returns true is checked by the final check, one that returns false or throws never
    /// is), so the sides a witness never needs are never checked. The input view is
    /// pointwise ([`HeapStrategy::input_view`]): it reads through each location on a side
    /// of its own, so no locations are pruned before a read.
    pub(crate) running: bool,
    /// Why the last inconclusive P-search was (set by each inconclusive search before its
    /// side's cut reason reads it).
    pub(crate) stop: Inconclusive,
    /// An engine fault met while settling a fork, for the run loop to return.
    pub(crate) fault: Option<crate::Error>,
}

impl ValidInputSearch {
    /// The search for precondition `pre`, none running yet.
    pub(crate) fn new(pre: (MethodId, PreArgs)) -> ValidInputSearch {
        ValidInputSearch { pre, running: false, stop: Inconclusive::Steps, fault: None }
    }
}

/// What a P-search found.
pub(crate) enum Search<H: HeapStrategy> {
    /// A path of P returned true: the state it ended in (on the input view) and the model,
    /// which is pinned in the solver (arrays read from it).
    Found(Box<State<H>>, Assignment),
    /// No input within the scope satisfies P and the state's path condition.
    None,
    /// Inconclusive: a path of P reached `--precondition-fuse`, or the budget ran out.
    Fused,
}

/// Why a P-search was inconclusive (besides the budget running out).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Inconclusive {
    /// It took `--precondition-steps` steps.
    Steps,
    /// The solver answered `unknown` on the check of a path of P that returned true.
    Unknown,
}

/// The verdict on one side of a fork.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Valid {
    Yes,
    No,
    Fused,
}
