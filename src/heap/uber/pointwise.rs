//! Pointwise sides: when a reference may be at several locations, one heap per location
//! with the reference narrowed to it, and the guard that says so.

use std::rc::Rc;

use super::state::{RefId, Target, UberHeap, guard};
use crate::Result;
use crate::classfile::FieldId;
use crate::heap::{Alt, Ctx};
use crate::term::Term;

impl UberHeap {
    /// On a pointwise heap, when `r` may be at several locations: per location, this heap
    /// with `r` narrowed to it and the guard that says so. With `field`, only the locations
    /// of a class that has that field (see [`UberHeap::typed_locations`]).
    pub(super) fn pointwise_sides(
        &self,
        cx: &mut Ctx<'_>,
        r: RefId,
        field: Option<FieldId>,
    ) -> Result<Option<Vec<(UberHeap, Term)>>> {
        let locs = match field {
            Some(f) => self.typed_locations(cx, r, f).0,
            None => self.location_ids(r),
        };
        let locs: Vec<Target> = locs.into_iter().map(Target::Loc).collect();
        self.narrowed(cx, r, &locs)
    }

    /// On a pointwise heap, when `r` has several targets (null included): per target, this
    /// heap with `r` narrowed to it and the guard that says so.
    pub(super) fn pointwise_targets(&self, cx: &mut Ctx<'_>, r: RefId) -> Result<Option<Vec<(UberHeap, Term)>>> {
        let targets = self.node(r)?.targets.clone();
        self.narrowed(cx, r, &targets)
    }

    pub(super) fn narrowed(
        &self,
        cx: &mut Ctx<'_>,
        r: RefId,
        targets: &[Target],
    ) -> Result<Option<Vec<(UberHeap, Term)>>> {
        if !self.pointwise || targets.len() < 2 {
            return Ok(None);
        }
        let ptr = self.node(r)?.ptr.clone();
        let mut sides = Vec::with_capacity(targets.len());
        for t in targets {
            let mut h = self.clone();
            // As a reference test would: what the choice offered elsewhere never exists here
            // (it leaves the alias candidates and the count of `--max-objects`).
            h.narrow(&ptr, &|u| u == *t);
            if h.refs.get(r.0 as usize).is_some_and(|n| n.targets.as_slice() != [*t])
                && let Some(n) = Rc::make_mut(&mut h.refs).get_mut(r.0 as usize)
            {
                Rc::make_mut(n).targets = vec![*t];
            }
            h.scope_full();
            sides.push((h, guard(cx, &ptr, *t)));
        }
        Ok(Some(sides))
    }
}

/// The alternatives of `op` on each pointwise side, each assuming its side's guard first.
pub(super) fn each_side<T>(
    sides: Vec<(UberHeap, Term)>,
    mut op: impl FnMut(&UberHeap) -> Result<Vec<Alt<UberHeap, T>>>,
) -> Result<Vec<Alt<UberHeap, T>>> {
    let mut out = Vec::new();
    for (h, g) in sides {
        for mut alt in op(&h)? {
            alt.assume.insert(0, g.clone());
            out.push(alt);
        }
    }
    Ok(out)
}
