//! Summaries of the uber heap: per-field arrays of the values at every location, the
//! existence array, and ranges of location numbers, so that constraints over many
//! locations stay constant-size (see [`COMPACT`]).

use std::rc::Rc;

use super::state::{LocId, PW, RefId, Target, UberHeap, number};
use crate::Result;
use crate::classfile::FieldId;
use crate::heap::{Ctx, Value};
use crate::term::{BvCmp, Sort, Term};

/// From how many locations on a constraint over them takes its compact form (a range, a
/// summary read) instead of one case per location. Below it the case splits stay, which Z3
/// solves faster on small heaps; above it each step costs the same however many locations
/// there are, so a loop over a list of length N does O(1) work per iteration.
pub(super) const COMPACT: usize = 16;

impl UberHeap {
    /// Sets `R(l, f)` and, for a reference, its element of the field's summary.
    pub(super) fn set_field(&mut self, cx: &mut Ctx<'_>, l: LocId, f: FieldId, v: Value<RefId>) -> Result<()> {
        if let Value::Ref(r) = &v {
            let p = self.node(*r)?.ptr.clone();
            let k = number(cx, Target::Loc(l));
            let base = match self.summaries.get(&f) {
                Some(s) => s.clone(),
                None => {
                    let field = cx.table.field(f);
                    let name = format!("{}::{}", cx.table.class(field.owner).java_name(), field.name);
                    cx.terms.var(&name, Sort::Array(PW, PW))
                }
            };
            let s = cx.terms.store(&base, &k, &p);
            Rc::make_mut(&mut self.summaries).insert(f, s);
        }
        let loc = self.loc_mut(l)?;
        loc.pending.remove(&f);
        loc.fields.insert(f, v);
        Ok(())
    }

    /// The input heap (see [`crate::heap::HeapStrategy::input_view`]): input locations
    /// hold their initial field values and elements, and the field summaries are rebuilt
    /// from them.
    pub(super) fn input_view(&self, cx: &mut Ctx<'_>) -> Result<UberHeap> {
        let mut h = self.clone();
        h.summaries = Rc::default();
        for i in 0..h.locs.len() {
            let l = LocId(i as u32);
            let loc = h.loc(l)?;
            if !loc.input {
                continue;
            }
            let initial: Vec<(FieldId, Value<RefId>)> = loc.initial.iter().map(|(f, v)| (*f, v.clone())).collect();
            {
                let m = h.loc_mut(l)?;
                m.fields.clear();
                m.pending.clear();
                if let Some(a) = &mut m.array {
                    a.refs = a.initial_refs.clone();
                    if let Some(p) = &mut a.prims {
                        p.writes.clear();
                    }
                }
            }
            for (f, v) in initial {
                h.set_field(cx, l, f, v)?;
            }
        }
        // Allocated locations keep their state; their field summaries follow.
        for i in 0..h.locs.len() {
            let l = LocId(i as u32);
            let loc = h.loc(l)?;
            if loc.input {
                continue;
            }
            let fields: Vec<(FieldId, Value<RefId>)> = loc.fields.iter().map(|(f, v)| (*f, v.clone())).collect();
            for (f, v) in fields {
                h.set_field(cx, l, f, v)?;
            }
        }
        Ok(h)
    }

    /// Records in the existence summary whether input location `l` exists.
    pub(super) fn record_existence(&mut self, cx: &mut Ctx<'_>, l: LocId, exists: &Term) {
        let base = match &self.existence {
            Some(e) => e.clone(),
            None => cx.terms.var("::exists", Sort::Array(PW, 8)),
        };
        let (one, zero) = (cx.terms.bv(8, 1), cx.terms.bv(8, 0));
        let bit = cx.terms.ite(exists, &one, &zero);
        let k = number(cx, Target::Loc(l));
        self.existence = Some(cx.terms.store(&base, &k, &bit));
    }

    /// `select(S_f, p(r))` when every location of `r` has its field `f` set to the value
    /// `vals` holds for it (so the summary agrees with `R(l, f)` on all of them), with the
    /// constraint that `r` is at one of those locations: the summary is read only there.
    pub(super) fn summary_read(
        &self,
        cx: &mut Ctx<'_>,
        r: RefId,
        f: FieldId,
        locs: &[LocId],
        vals: &[Value<RefId>],
    ) -> Option<(Term, Term)> {
        let s = self.summaries.get(&f)?;
        let agree = locs.iter().zip(vals).all(|(l, v)| self.loc(*l).ok().and_then(|loc| loc.fields.get(&f)) == Some(v));
        if !agree {
            return None;
        }
        let p = self.node(r).ok()?.ptr.clone();
        let numbers: Vec<u64> = locs.iter().map(|l| u64::from(l.0) + 1).collect();
        let at = one_of(cx, &p, &numbers);
        Some((cx.terms.select(s, &p), at))
    }
}

/// `c` is one of `numbers`: long contiguous runs become ranges, so a choice over all the
/// locations so far is one comparison instead of a disjunction over them.
pub(super) fn one_of(cx: &mut Ctx<'_>, c: &Term, numbers: &[u64]) -> Term {
    let mut ns = numbers.to_vec();
    ns.sort_unstable();
    ns.dedup();
    let mut parts = Vec::new();
    let mut i = 0;
    while i < ns.len() {
        let mut j = i;
        while j + 1 < ns.len() && ns[j + 1] == ns[j] + 1 {
            j += 1;
        }
        let (lo, hi) = (ns[i], ns[j]);
        if j + 1 - i >= COMPACT {
            let hi_t = cx.terms.bv(PW, hi as i64);
            let below = cx.terms.cmp(BvCmp::Ule, c, &hi_t);
            if lo == 0 {
                parts.push(below);
            } else {
                let lo_t = cx.terms.bv(PW, lo as i64);
                let above = cx.terms.cmp(BvCmp::Ule, &lo_t, c);
                parts.push(cx.terms.and2(&above, &below));
            }
        } else {
            for n in &ns[i..=j] {
                let k = cx.terms.bv(PW, *n as i64);
                parts.push(cx.terms.eq(c, &k));
            }
        }
        i = j + 1;
    }
    cx.terms.or(&parts)
}
