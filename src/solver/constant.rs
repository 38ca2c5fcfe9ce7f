//! A solver for path conditions of constants only: a concrete run (the replay of a model,
//! the final input of a trace under `--precondition`) decides every branch on constants,
//! so its path condition is empty or all true and it never needs Z3.

use super::plain::Plain;
use super::{SatResult, Solver, SolverStats};
use crate::term::{Assignment, Term, Val};

/// Answers from the constants of the path condition; anything symbolic is `unknown`.
#[derive(Default)]
pub struct Constant {
    stats: SolverStats,
    /// The plain refutation, as in front of every solver.
    plain: Plain,
}

impl Solver for Constant {
    fn check(&mut self, pc: &[Term]) -> SatResult {
        if pc.iter().any(|t| t.is_false()) {
            SatResult::Unsat
        } else if pc.iter().all(|t| t.is_true()) {
            SatResult::Sat(Assignment::default())
        } else {
            self.stats.unknown += 1;
            SatResult::Unknown("a symbolic constraint in a concrete run".into())
        }
    }

    fn refutes(&mut self, pc: &[Term], extra: &[&Term]) -> bool {
        self.plain.refutes(pc, extra)
    }

    fn model(&mut self, pc: &[Term]) -> SatResult {
        self.check(pc)
    }

    fn eval(&mut self, terms: &[Term]) -> Option<Vec<Val>> {
        let none = Assignment::default();
        terms.iter().map(|t| t.vars().is_empty().then(|| none.eval(t)).flatten()).collect()
    }

    fn eval_with(&mut self, terms: &[Term], with: &[(Term, u64)]) -> Option<Vec<Val>> {
        let mut m = Assignment::default();
        for (v, x) in with {
            if let Some(name) = v.var_names().into_iter().next() {
                m.values.insert(name, Val::Bv(*x));
            }
        }
        let known = |t: &Term| t.vars().iter().all(|v| with.iter().any(|(w, _)| w == v));
        terms.iter().map(|t| known(t).then(|| m.eval(t)).flatten()).collect()
    }

    fn stats(&self) -> SolverStats {
        self.stats
    }
}
