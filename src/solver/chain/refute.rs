//! The propagation layer: unit propagation refutes queries without the solver
//! (`term/propagate.rs`), and the values it decides start the models the repair layer makes.

use std::collections::HashMap;
use std::rc::Rc;

use crate::term::{Assignment, IdBuild, Propagator, SymbolId, Term, TermId};

/// The symbols of each constraint of a query.
pub type Symbols = Vec<Rc<[SymbolId]>>;

/// Unit propagation, with the facts of recent queries kept for the ones that extend them,
/// and the symbols of each constraint seen.
#[derive(Default)]
pub struct Refute {
    propagator: Propagator,
    /// The symbols of each constraint seen, by term id.
    symbols: HashMap<TermId, Rc<[SymbolId]>, IdBuild>,
}

impl Refute {
    /// Makes propagation stop where it is, refuting nothing, once `interrupt` is set.
    pub fn interrupted_by(&mut self, interrupt: crate::budget::Interrupt) {
        self.propagator.interrupted_by(interrupt);
    }

    /// The symbols of each constraint of `pc`.
    pub fn symbols(&mut self, pc: &[Term]) -> Symbols {
        pc.iter().map(|t| self.symbols.entry(t.id()).or_insert_with(|| t.var_names().into()).clone()).collect()
    }

    /// Propagation without case splits, probing the state a fork's sides share
    /// ([`Propagator::refuted_probing`]): for queries likely to be unsatisfiable.
    pub fn probing(&mut self, pc: &[Term], syms: &[Rc<[SymbolId]>]) -> bool {
        self.propagator.refuted_probing(pc, syms)
    }

    /// Propagation with its case splits ([`Propagator::refuted`]).
    pub fn splitting(&mut self, pc: &[Term], syms: &[Rc<[SymbolId]>]) -> bool {
        self.propagator.refuted(pc, syms)
    }

    /// Propagation that reads arithmetic through if-then-else branches
    /// ([`Propagator::refuted_deeply`]): too costly for every query, worth it before the
    /// solver.
    pub fn deeply(&self, pc: &[Term], syms: &[Rc<[SymbolId]>]) -> bool {
        self.propagator.refuted_deeply(pc, syms)
    }

    /// `base` with the values propagation decided for `pc`, the query it last failed to
    /// refute ([`Propagator::starts`]).
    pub fn starts(&self, pc: &[Term], base: &Assignment) -> Vec<Assignment> {
        self.propagator.starts(pc, base)
    }
}
