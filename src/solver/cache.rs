//! A counterexample cache in front of any solver: recent models answer queries they satisfy.

use super::{SatResult, Solver, SolverStats};
use crate::term::{Assignment, Evaluator, Term, Val};

/// How many recent models are kept.
const KEEP: usize = 8;

/// Wraps a solver; a query whose every constraint evaluates to true under a cached model is
/// answered `Sat` with that model and counted as a cache hit, not as a solver query.
pub struct ModelCache<S> {
    inner: S,
    models: Vec<Assignment>,
    hits: u64,
}

impl<S: Solver> ModelCache<S> {
    pub fn new(inner: S) -> Self {
        ModelCache { inner, models: Vec::new(), hits: 0 }
    }

    fn lookup(&self, pc: &[Term]) -> Option<usize> {
        self.models.iter().position(|m| {
            let mut ev = Evaluator::new(m);
            pc.iter().all(|t| matches!(ev.eval(t), Some(Val::Bool(true))))
        })
    }
}

impl<S: Solver> Solver for ModelCache<S> {
    fn check(&mut self, pc: &[Term]) -> SatResult {
        if let Some(i) = self.lookup(pc) {
            self.hits += 1;
            let m = self.models.remove(i);
            self.models.insert(0, m.clone());
            return SatResult::Sat(m);
        }
        let r = self.inner.check(pc);
        if let SatResult::Sat(m) = &r {
            self.models.insert(0, m.clone());
            self.models.truncate(KEEP);
        }
        r
    }

    fn model(&mut self, pc: &[Term]) -> SatResult {
        self.inner.model(pc)
    }

    fn eval(&mut self, terms: &[Term]) -> Option<Vec<Val>> {
        self.inner.eval(terms)
    }

    fn stats(&self) -> SolverStats {
        SolverStats { cache_hits: self.hits, ..self.inner.stats() }
    }
}
