//! The constraint-independence layer (KLEE): with a recent model that satisfies a prefix of a
//! query, only the constraints connected by shared symbols to those it does not satisfy go to
//! a solver of their own, and their model completes the recent one.

use std::collections::HashSet;
use std::rc::Rc;

use super::recent::Recent;
use super::repair::Repair;
use super::unsat::Unsat;
use crate::solver::{SatResult, Solver};
use crate::term::{Assignment, Evaluator, SymbolId, Term, Val};

/// The solver of the independent parts, when there is one: the parts then leave the
/// assertion stack of the chain's solver, which follows the exploration's path conditions, as
/// it is (re-asserting a long path condition after each part costs more than the part saves).
pub struct Independence<S> {
    side: Option<S>,
}

impl<S> Default for Independence<S> {
    fn default() -> Self {
        Independence { side: None }
    }
}

impl<S: Solver> Independence<S> {
    /// With `side` for the independent parts.
    pub fn with_side(side: S) -> Self {
        Independence { side: Some(side) }
    }

    /// The side solver's counts (none without one).
    pub fn stats(&self) -> crate::solver::SolverStats {
        self.side.as_ref().map(Solver::stats).unwrap_or_default()
    }

    /// The answer to `pc` from its dependent part ([`dependent_part`]) alone, asked of the
    /// side solver or else `inner`; `None` when there is no such part. The part's model over
    /// its own symbols completes the recent model; an unsatisfiable part is kept in `unsat`.
    /// `syms` holds the symbols of each constraint of `pc`.
    pub fn answer(
        &mut self,
        pc: &[Term],
        syms: &[Rc<[SymbolId]>],
        recent: &Recent,
        repair: &mut Repair,
        inner: &mut S,
        unsat: &mut Unsat,
    ) -> Option<SatResult> {
        let (part, symbols, mut m) = dependent_part(pc, syms, recent, repair)?;
        let r = match self.side.as_mut() {
            Some(side) => side.check(&part),
            None => inner.check(&part),
        };
        Some(match r {
            SatResult::Sat(own) => {
                // Only the part's symbols: a model may value others (POSE's every-symbol
                // models), which the recent model already values as the rest needs. A
                // symbol of the part the solver's model leaves out is 0/false there, as for
                // the part's solver: not the recent model's value.
                m.values.retain(|v, _| !symbols.contains(v));
                m.values.extend(own.values.into_iter().filter(|(v, _)| symbols.contains(v)));
                SatResult::Sat(m)
            }
            SatResult::Unsat => {
                unsat.remember(&part);
                SatResult::Unsat
            }
            other => other,
        })
    }
}

/// With a recent model that satisfies `pc[..c]`, the constraints of `pc` that share symbols,
/// directly or through others, with those of `pc[c..]` the model does not satisfy (in `pc`'s
/// order), their symbols, and the model. `None` when that is more than half of `pc`.
/// (Seeding with all of `pc[c..]` instead would send a constraint the model satisfies, such
/// as uber's `size + 1 <= size` overflow check, to the solver with the whole heap.) The model
/// values the symbols `pc[c..]` defines.
fn dependent_part(
    pc: &[Term],
    syms: &[Rc<[SymbolId]>],
    recent: &Recent,
    repair: &mut Repair,
) -> Option<(Vec<Term>, HashSet<SymbolId>, Assignment)> {
    let (c, m) = recent.longest_prefix(pc)?;
    if c == 0 || c >= pc.len() {
        return None;
    }
    // The symbols `pc[c..]` defines (`r9 == ite(...)`) valued as their definitions give: a
    // fresh value set is no reason to ask about the whole heap.
    let m = repair.define(m, pc, c);
    let mut ev = Evaluator::new(&m);
    let mut taken: Vec<bool> =
        pc.iter().enumerate().map(|(i, t)| i >= c && ev.eval(t) != Some(Val::Bool(true))).collect();
    let mut reach: HashSet<SymbolId> =
        syms.iter().zip(&taken).filter(|(_, t)| **t).flat_map(|(s, _)| s.iter().cloned()).collect();
    loop {
        let mut grew = false;
        for i in 0..pc.len() {
            if !taken[i] && syms[i].iter().any(|v| reach.contains(v)) {
                taken[i] = true;
                reach.extend(syms[i].iter().cloned());
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    // A part of more than half the query saves the solver little and costs the side solver
    // the assertion of terms the main one already holds (POSE's if-then-else references
    // connect most of a query).
    let n = taken.iter().filter(|t| **t).count();
    if 2 * n > pc.len() {
        return None;
    }
    let part = pc.iter().zip(&taken).filter(|(_, t)| **t).map(|(t, _)| t.clone()).collect();
    Some((part, reach, m))
}
