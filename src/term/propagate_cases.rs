//! Case splits for unit propagation: the values left to a symbol of a small domain, tried
//! one by one. A split refutes a query when every case does; a probe of a state a fork's
//! sides share learns the values whose case alone is refuted.

use std::rc::Rc;

use super::{Dirty, Facts, Learned};
use crate::term::domain::Domain;
use crate::term::{SymbolId, Term, Val};

/// How many symbols [`super::refuted_by_propagation`] splits on at most, at each level.
const SPLITS: usize = 4;

/// How many symbols [`Facts::probed`] probes at most: a few symbols find most of what probes
/// refute, and each one more costs a case split of the shared state.
const PROBES: usize = 4;

/// The most values a symbol it splits on may have left (with more, symbols with many values
/// left take the place of those whose cases refute).
const SPLIT_VALUES: usize = 4;

/// How many levels deep it splits: an order cycle through if-then-else values may close only
/// once a reference is known to be one of its candidates and, in each case, another one of
/// two.
pub(super) const SPLIT_DEPTH: u32 = 2;

/// Whether, for one of the first [`SPLITS`] symbols with two to [`SPLIT_VALUES`] values
/// left, every value refutes `pc` (propagated from `facts`, at a fixpoint), each case split
/// again `depth - 1` levels deeper. `left_open` gets the facts of the case left open that
/// decide the most symbols.
pub(super) fn split_refuted(
    facts: &Facts,
    pc: &[Term],
    syms: &[Rc<[SymbolId]>],
    bounds: &[(SymbolId, Domain)],
    depth: u32,
    left_open: &mut Option<Facts>,
) -> bool {
    facts.open(bounds, SPLITS).into_iter().any(|(name, vs)| {
        vs.iter().all(|v| {
            if facts.interrupt.is_set() {
                return false;
            }
            let mut f = facts.clone();
            let refuted = f.refuted_in_case(pc, syms, bounds, &name, *v)
                || (depth > 1 && split_refuted(&f, pc, syms, bounds, depth - 1, left_open));
            if !refuted && left_open.as_ref().is_none_or(|o| o.values.values.len() < f.values.values.len()) {
                *left_open = Some(f);
            }
            refuted
        })
    })
}

impl Facts {
    /// The first `most` symbols of a small domain with two to [`SPLIT_VALUES`] values left,
    /// with those values.
    fn open(&self, bounds: &[(SymbolId, Domain)], most: usize) -> Vec<(SymbolId, Vec<u64>)> {
        bounds
            .iter()
            .filter_map(|(name, dom)| {
                let vs: Vec<u64> = self.left(name, dom).take(SPLIT_VALUES + 1).collect();
                (2..=SPLIT_VALUES).contains(&vs.len()).then(|| (name.clone(), vs))
            })
            .take(most)
            .collect()
    }

    /// Whether the case `name == v` refutes `pc`, from these facts at a fixpoint: only the
    /// constraints of `name` can learn more. The facts end as that case's.
    fn refuted_in_case(
        &mut self,
        pc: &[Term],
        syms: &[Rc<[SymbolId]>],
        bounds: &[(SymbolId, Domain)],
        name: &SymbolId,
        v: u64,
    ) -> bool {
        self.values.values.insert(name.clone(), Val::Bv(v));
        let names = std::iter::once(name.clone()).collect();
        self.refuted(pc, syms, bounds, Dirty { all: false, from: pc.len(), names })
    }

    /// Failed-literal probing, at a fixpoint of propagation: each value left to the first
    /// [`PROBES`] symbols of a small domain with two to [`SPLIT_VALUES`] values left that
    /// propagation refutes (with the order cycles) becomes a value the symbol differs from,
    /// and what that decides is propagated; `true` when the facts then contradict (a symbol
    /// with no value left). What a probe refutes `pc` implies, so the facts stay sound.
    pub(super) fn probed(&mut self, pc: &[Term], syms: &[Rc<[SymbolId]>], bounds: &[(SymbolId, Domain)]) -> bool {
        let mut learned = Learned::default();
        for (name, vs) in self.open(bounds, PROBES) {
            for v in vs {
                if self.interrupt.is_set() {
                    return false;
                }
                if self.clone().refuted_in_case(pc, syms, bounds, &name, v) {
                    learned.unequal.push((name.clone(), v));
                }
            }
        }
        if learned.unequal.is_empty() {
            return false;
        }
        match self.learn(learned) {
            None => true,
            Some(dirty) => self.propagate(pc, syms, bounds, dirty),
        }
    }
}
