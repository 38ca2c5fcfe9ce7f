//! The states call-sequence prefixes reached (`--inputs api`), kept to prune later prefixes
//! whose states they subsume (`sequence.rs`).

use std::collections::HashMap;
use std::rc::Rc;

use crate::term::Term;

/// The states prefixes reached so far in one run.
#[derive(Default)]
pub(crate) struct Reached {
    /// Keys of the states prefixes reached, with the fewest calls that reached each.
    pub(crate) exact: HashMap<String, usize>,
    /// States prefixes reached, by shape, to subsume later states of the same shape.
    pub(crate) shapes: HashMap<String, Vec<Rc<Seen>>>,
}

/// A state a prefix reached, kept to subsume later ones of the same shape.
pub(crate) struct Seen {
    /// The calls of the prefix that reached it.
    pub(crate) step: usize,
    /// The heap's symbols in the order the shape names them.
    pub(crate) vars: Vec<Term>,
    /// The path condition's conjuncts over them.
    pub(crate) constraints: Vec<Term>,
}
