//! The unsatisfiable-set layer: a query that contains a set of constraints the solver found
//! unsatisfiable is refuted.

use std::collections::HashSet;

use crate::term::{IdBuild, Term, TermId};

/// How many unsatisfiable constraint sets are kept.
const KEEP_UNSAT: usize = 256;

/// Unsatisfiable constraint sets (sorted term ids), newest first.
#[derive(Default)]
pub struct Unsat {
    sets: Vec<Vec<TermId>>,
}

impl Unsat {
    /// Whether `pc` contains a set of constraints known to be unsatisfiable.
    pub fn refutes(&self, pc: &[Term]) -> bool {
        if self.sets.is_empty() {
            return false;
        }
        let ids: HashSet<TermId, IdBuild> = pc.iter().map(Term::id).collect();
        // Newest terms (largest ids) first: where a set is not contained, those are missing.
        self.sets.iter().any(|set| set.iter().rev().all(|i| ids.contains(i)))
    }

    /// Keeps `part`, which the solver found unsatisfiable.
    pub fn remember(&mut self, part: &[Term]) {
        let mut set: Vec<TermId> = part.iter().map(Term::id).collect();
        set.sort_unstable();
        set.dedup();
        self.sets.insert(0, set);
        self.sets.truncate(KEEP_UNSAT);
    }
}
