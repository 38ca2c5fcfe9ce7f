//! A counterexample cache in front of any solver: recent models answer queries they satisfy.

use super::{SatResult, Solver, SolverStats};
use crate::term::{Assignment, Evaluator, Term, Val};

/// How many recent models are kept.
const KEEP: usize = 8;

/// Wraps a solver; a query whose every constraint evaluates to true under a cached model is
/// answered `Sat` with that model and counted as a cache hit, not as a solver query.
pub struct ModelCache<S> {
    inner: S,
    /// Recent models, newest first, each with the path condition it is known to satisfy:
    /// a query only evaluates the constraints beyond their common prefix.
    models: Vec<(Assignment, Vec<Term>)>,
    hits: u64,
    repairer: super::repair::Repairer,
    /// The model pinned by the last `model` call when it came from the cache, with its
    /// path condition (for the solver, should a term need more than the assignment fixes).
    pinned: Option<(Assignment, Vec<Term>)>,
}

impl<S: Solver> ModelCache<S> {
    pub fn new(inner: S) -> Self {
        ModelCache { inner, models: Vec::new(), hits: 0, repairer: Default::default(), pinned: None }
    }

    /// A cached model of `pc`, or one repaired from the newest (see `repair.rs`).
    fn cached(&mut self, pc: &[Term]) -> Option<Assignment> {
        if let Some(i) = self.lookup(pc) {
            let (m, _) = self.models.remove(i);
            self.remember(m.clone(), pc);
            return Some(m);
        }
        let (base, known) = self.models.first()?;
        let m = self.repairer.repair(base, known, pc)?;
        self.remember(m.clone(), pc);
        Some(m)
    }

    fn remember(&mut self, m: Assignment, pc: &[Term]) {
        self.models.insert(0, (m, pc.to_vec()));
        self.models.truncate(KEEP);
    }

    fn lookup(&self, pc: &[Term]) -> Option<usize> {
        self.models.iter().position(|(m, known)| {
            let common = super::common_prefix(known, pc);
            let mut ev = Evaluator::new(m);
            pc[common..].iter().all(|t| matches!(ev.eval(t), Some(Val::Bool(true))))
        })
    }
}

impl<S: Solver> Solver for ModelCache<S> {
    fn check(&mut self, pc: &[Term]) -> SatResult {
        if let Some(m) = self.cached(pc) {
            self.hits += 1;
            return SatResult::Sat(m);
        }
        let r = self.inner.check(pc);
        if let SatResult::Sat(m) = &r {
            self.remember(m.clone(), pc);
        }
        r
    }

    fn model(&mut self, pc: &[Term]) -> SatResult {
        self.pinned = None;
        if let Some(m) = self.cached(pc) {
            self.hits += 1;
            self.pinned = Some((m.clone(), pc.to_vec()));
            return SatResult::Sat(m);
        }
        let r = self.inner.model(pc);
        if let SatResult::Sat(m) = &r {
            self.remember(m.clone(), pc);
        }
        r
    }

    /// Always the underlying solver: a cached model is any model, not a preferred one.
    fn model_preferring(&mut self, pc: &[Term], prefer: &[Term]) -> SatResult {
        self.pinned = None;
        self.inner.model_preferring(pc, prefer)
    }

    fn eval(&mut self, terms: &[Term]) -> Option<Vec<Val>> {
        if let Some((m, pc)) = &self.pinned {
            let mut ev = Evaluator::new(m);
            if let Some(vals) = terms.iter().map(|t| ev.eval(t)).collect::<Option<Vec<_>>>() {
                return Some(vals);
            }
            // The assignment does not fix these terms (array contents): ask the solver.
            let pc = pc.clone();
            self.pinned = None;
            if !matches!(self.inner.model(&pc), SatResult::Sat(_)) {
                return None;
            }
        }
        self.inner.eval(terms)
    }

    fn stats(&self) -> SolverStats {
        SolverStats { cache_hits: self.hits, ..self.inner.stats() }
    }
}
