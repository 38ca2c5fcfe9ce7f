//! POSE's `--max-objects` bound: the cut guard of a new input symbol and the forks it makes.
//!
//! The bound counts the objects the symbols denote, not the symbols. The n-th symbol ranges
//! over `0..=min(n + 1, max + 1)` (null, the objects of the earlier symbols, or one more),
//! and a continuing trace assumes every symbol is at most `max`, so by pigeonhole its symbols
//! denote at most `max` objects. A symbol is *over* the bound when it is `max + 1`, which no
//! earlier symbol of a continuing trace is, so it denotes a fresh object. The bound *cuts*
//! the trace only when that fresh object is really one too many: the earlier symbols already
//! denote `max` objects. When they denote fewer, some number in `1..=max` is free and the
//! same heap is also denoted with the fresh object at that number, so the continuing trace
//! covers it and no cut is reported.

use super::state::PoseHeap;
use crate::heap::{Ctx, Cut};
use crate::term::Term;

/// Up to this `--max-objects` the cut is exact (the earlier symbols denote `max` objects).
/// Above it a symbol past the `max`-th that may be a new object ends a cut trace even when
/// fewer objects are possible (the continuing trace covers those heaps too, so nothing is
/// lost, but the cut count is an over-count): the counter's queries grow with `max` times the
/// symbols, which makes them far too slow at the default of 64.
pub(super) const EXACT_CUT_MAX: i32 = 8;

impl Cut {
    /// The cut of a new symbol `var` after the symbols of `heap`, if the bound can apply to it.
    pub(super) fn of_new(cx: &mut Ctx<'_>, heap: &mut PoseHeap, var: &Term, max: i32) -> Option<Cut> {
        if (heap.syms.len() as i64) < max as i64 {
            return None;
        }
        let over = cx.terms.int(max + 1);
        let over = cx.terms.eq(var, &over);
        let keep = cx.terms.not(&over);
        let taken = if max <= EXACT_CUT_MAX {
            let full = heap.at_bound(cx, max);
            cx.terms.and2(&over, &full)
        } else {
            over
        };
        Some(Cut { taken, keep })
    }

    /// The cut of a read that initializes several symbols (through a reference with several
    /// leaves): any of theirs, whichever leaf the reference is. A symbol initialized for a
    /// leaf the reference is not still holds a field of the input heap, so it counts too.
    pub(super) fn any(cx: &mut Ctx<'_>, cuts: &[Cut]) -> Option<Cut> {
        if cuts.is_empty() {
            return None;
        }
        let taken: Vec<Term> = cuts.iter().map(|c| c.taken.clone()).collect();
        let keep: Vec<Term> = cuts.iter().map(|c| c.keep.clone()).collect();
        Some(Cut { taken: cx.terms.or(&taken), keep: cx.terms.and(&keep) })
    }
}

impl PoseHeap {
    /// `the earlier symbols denote at least max objects`, as a sequential counter:
    /// `at_least[k - 1]` says that at least `k` of the symbols so far are a new object
    /// (non-null and unlike every symbol before), extended by the symbols created since the
    /// last call. Booleans only, which Z3 propagates well; a bit-vector sum of the symbols'
    /// freshness made the queries of long traces very slow, and "every number `1..=max` is
    /// some symbol" asks for a pigeonhole proof whenever fewer objects are possible.
    fn at_bound(&mut self, cx: &mut Ctx<'_>, max: i32) -> Term {
        let max = max.max(0) as usize;
        let f = cx.terms.fls();
        self.at_least.resize(max, f);
        for j in self.objects_upto..self.syms.len() {
            let fresh = self.syms[j].fresh.clone();
            // Descending k, so that at_least[k - 2] is still the count before symbol j.
            for k in (1..=max.min(j + 1)).rev() {
                let step = match k {
                    1 => fresh.clone(),
                    _ => cx.terms.and2(&self.at_least[k - 2], &fresh),
                };
                self.at_least[k - 1] = cx.terms.or2(&self.at_least[k - 1], &step);
            }
        }
        self.objects_upto = self.syms.len();
        match self.at_least.last() {
            Some(t) => t.clone(),
            None => cx.terms.tru(),
        }
    }
}
