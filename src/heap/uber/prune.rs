//! Pruning of the uber heap: targets and locations a reference test's outcome, the path
//! condition before a read, or the type of a field access rules out.
//!
//! A reference test that fixes a pointer (null; equal to a reference with one target) or
//! rules out one of its targets drops the targets the outcome excludes from every reference
//! with that pointer. A location offered by a lazy initialization's choice that the outcome
//! steers elsewhere can then never exist on this trace: it leaves the alias candidates of
//! later initializations, every reference's targets, and the `--max-objects` count. For a
//! value set the pruning follows the read back: a location of the reference read through
//! whose field cannot satisfy the outcome is dropped from that reference, and when one
//! location is left, the outcome holds for its field. So a structure walked by a
//! precondition keeps about one candidate per object that exists, instead of one per field
//! read (leaves read as null, parent fields read back as aliases).

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use super::state::{LocId, RefId, Target, UberHeap, guard};
use crate::classfile::{ClassId, FieldId};
use crate::heap::Ctx;
use crate::term::{Node, Term};

impl UberHeap {
    /// The target of `r` when it has exactly one.
    fn single(&self, r: RefId) -> Option<Target> {
        match self.refs.get(r.0 as usize)?.targets.as_slice() {
            [t] => Some(*t),
            _ => None,
        }
    }

    fn ptr(&self, r: RefId) -> Option<Term> {
        self.refs.get(r.0 as usize).map(|n| n.ptr.clone())
    }

    /// The outcome `r` is null (`null`) or not.
    pub(super) fn assume_null(&mut self, r: RefId, null: bool) {
        if let Some(p) = self.ptr(r) {
            self.narrow(&p, &|t| (t == Target::Null) == null);
            self.scope_full();
        }
    }

    /// The outcome `a == b` is `equal`: where one side has a single target, the other keeps
    /// that target (equal) or loses it (not equal).
    pub(super) fn assume_equal(&mut self, a: RefId, b: RefId, equal: bool) {
        for (x, y) in [(a, b), (b, a)] {
            if let (Some(t), Some(p)) = (self.single(y), self.ptr(x)) {
                self.narrow(&p, &|u| (u == t) == equal);
            }
        }
        self.scope_full();
    }

    /// When `r` may be at several locations, those of them that are inputs whose field `f`
    /// is not initialized yet.
    pub(super) fn uninitialized(&self, r: RefId, f: FieldId) -> Vec<LocId> {
        let locs = self.location_ids(r);
        if locs.len() < 2 {
            return Vec::new();
        }
        locs.into_iter()
            .filter(|l| self.locs.get(l.0 as usize).is_some_and(|loc| loc.input && !loc.fields.contains_key(&f)))
            .collect()
    }

    /// The locations of `r` where field `f` can be read or written: those of a class that
    /// has it. A `getfield`/`putfield` is well typed, so the path condition puts `r` at one
    /// of them (a reference of type `Object` may be at any location, and the checkcast or
    /// `instanceof` before the access says which); reading a field at the others only made
    /// if-then-else cases and symbols the path can never take. When some are left out, also
    /// the constraint that `r` is at one of those kept, which the path implies; when none
    /// has the field, all of `r`'s locations and no constraint.
    pub(super) fn typed_locations(&self, cx: &mut Ctx<'_>, r: RefId, f: FieldId) -> (Vec<LocId>, Option<Term>) {
        let locs = self.location_ids(r);
        let mut has: BTreeMap<ClassId, bool> = BTreeMap::new();
        let mut kept = Vec::with_capacity(locs.len());
        for l in &locs {
            let Some(c) = self.loc(*l).ok().and_then(|loc| loc.kind.class()) else { continue };
            if *has.entry(c).or_insert_with(|| cx.table.has_instance_field(c, f)) {
                kept.push(*l);
            }
        }
        if kept.is_empty() || kept.len() == locs.len() {
            return (locs, None);
        }
        let Ok(node) = self.node(r) else { return (locs, None) };
        let ptr = node.ptr.clone();
        let guards: Vec<Term> = kept.iter().map(|l| guard(cx, &ptr, Target::Loc(*l))).collect();
        (kept, Some(cx.terms.or(&guards)))
    }

    /// Drops from `r` the locations at positions `dead` of [`UberHeap::uninitialized`] (the
    /// path condition rules them out).
    pub(super) fn drop_locations(&mut self, r: RefId, f: FieldId, dead: &[usize]) {
        let locs = self.uninitialized(r, f);
        let gone: Vec<Target> =
            locs.iter().enumerate().filter(|(i, _)| dead.contains(i)).map(|(_, l)| Target::Loc(*l)).collect();
        if let Some(p) = self.ptr(r) {
            self.narrow(&p, &|t| !gone.contains(&t));
            self.scope_full();
        }
    }

    /// Keeps only the targets `keep` accepts on every reference with pointer `ptr`, removes
    /// the locations this rules out for good, and follows value sets back to their sources.
    pub(super) fn narrow(&mut self, ptr: &Term, keep: &dyn Fn(Target) -> bool) {
        let mut via = None;
        let mut offered = Vec::new();
        // A symbolic pointer belongs to one reference (its choice or definition), mostly a
        // recent one; a constant may be shared by several.
        let symbolic = matches!(ptr.node(), Node::Var(..));
        for i in (0..self.refs.len()).rev() {
            let Some(n) = self.refs.get(i).filter(|n| n.ptr == *ptr) else { continue };
            if n.targets.iter().any(|t| !keep(*t))
                && let Some(n) = Rc::make_mut(&mut self.refs).get_mut(i)
            {
                Rc::make_mut(n).targets.retain(|t| keep(*t));
            }
            let Some(n) = self.refs.get(i) else { continue };
            if via.is_none() {
                via = n.via.clone();
            }
            offered.extend_from_slice(&n.offered);
            if symbolic {
                break;
            }
        }
        self.kill_offered(&offered, None, keep);
        let Some((base, sources)) = via else { return };
        // The locations of the reference read through that can still give such a value.
        let mut possible = Vec::new();
        for (l, src) in sources {
            let can = self.refs.get(src.0 as usize).is_some_and(|n| n.targets.iter().any(|t| keep(*t)));
            if can {
                possible.push((l, src));
            } else {
                self.narrow(&base, &|t| t != Target::Loc(l));
            }
        }
        let base_targets: BTreeSet<Target> = self
            .refs
            .iter()
            .rev()
            .find(|n| n.ptr == base)
            .map(|n| n.targets.iter().copied().collect())
            .unwrap_or_default();
        possible.retain(|(l, _)| base_targets.contains(&Target::Loc(*l)));
        if let [(_, src)] = possible.as_slice()
            && let Some(p) = self.ptr(*src)
        {
            self.narrow(&p, keep);
            return;
        }
        // A location that the read-through pointer's own choice offered exists only where
        // that pointer is at it, so the value read from it is the outcome's; whatever its
        // field's choice offered that the outcome rules out never exists.
        for (l, src) in possible {
            let offered_by_base = self.locs.get(l.0 as usize).and_then(|loc| loc.choice.as_ref()) == Some(&base);
            if offered_by_base && let Some(n) = self.refs.get(src.0 as usize) {
                let offered = n.offered.clone();
                self.kill_offered(&offered, Some(l), keep);
            }
        }
    }

    /// The input locations that surely exist: those that exist unconditionally (the
    /// receiver), and those an input field of a location that surely exists points to
    /// (its initialization's choice has that one target left).
    fn surely_existing(&self) -> BTreeSet<LocId> {
        let mut sure: BTreeSet<LocId> = self
            .inputs
            .iter()
            .copied()
            .filter(|l| self.locs.get(l.0 as usize).is_some_and(|x| x.exists.is_true()))
            .collect();
        let mut work: Vec<LocId> = sure.iter().copied().collect();
        while let Some(l) = work.pop() {
            let Some(loc) = self.locs.get(l.0 as usize) else { continue };
            for v in loc.initial.values() {
                let crate::heap::Value::Ref(r) = v else { continue };
                if let Some(Target::Loc(t)) = self.single(*r)
                    && self.inputs.contains(&t)
                    && sure.insert(t)
                {
                    work.push(t);
                }
            }
        }
        sure
    }

    /// With a precondition's scope (`--max-objects`): whether the input locations that
    /// surely exist fill it, after dropping every other one, which then cannot exist (it
    /// leaves the alias candidates, every reference's targets and the count, as a
    /// location a reference test rules out does). Lazy initialization offers no new
    /// location on a full heap. Without this, a P-search walking a heap that fills the
    /// scope forks on each pointer's aliases of locations that cannot exist, and the
    /// solver refutes every one.
    pub(super) fn scope_full(&mut self) -> bool {
        let Some(max) = self.scope else { return false };
        if self.inputs.len() <= max as usize {
            return self.inputs.len() == max as usize && self.surely_existing().len() == max as usize;
        }
        let sure = self.surely_existing();
        if sure.len() < max as usize {
            return false;
        }
        // A location some reference has as its only target stays (that state has no
        // input; its check says so).
        let dead: Vec<LocId> = self
            .inputs
            .iter()
            .copied()
            .filter(|l| !sure.contains(l) && !self.refs.iter().any(|n| n.targets == [Target::Loc(*l)]))
            .collect();
        self.kill(&dead);
        true
    }

    /// A location is offered by one choice only; when that choice can no longer pick it,
    /// nothing can point to it. `offered` are the locations of that choice; with `from`,
    /// only those offered by initializing a field of `from` (the outcome is known to hold
    /// only where `from` exists).
    fn kill_offered(&mut self, offered: &[LocId], from: Option<LocId>, keep: &dyn Fn(Target) -> bool) {
        let dead: Vec<LocId> = offered
            .iter()
            .copied()
            .filter(|l| {
                let Some(loc) = self.locs.get(l.0 as usize) else { return false };
                (from.is_none() || loc.from == from) && !keep(Target::Loc(*l)) && self.inputs.contains(l)
            })
            .collect();
        self.kill(&dead);
    }

    /// Removes locations that can no longer exist from the inputs and every reference.
    fn kill(&mut self, dead: &[LocId]) {
        if dead.is_empty() {
            return;
        }
        self.inputs.retain(|l| !dead.contains(l));
        let is_dead = |t: &Target| matches!(t, Target::Loc(l) if dead.contains(l));
        for i in 0..self.refs.len() {
            if self.refs.get(i).is_some_and(|n| n.targets.iter().any(is_dead))
                && let Some(n) = Rc::make_mut(&mut self.refs).get_mut(i)
            {
                Rc::make_mut(n).targets.retain(|t| !is_dead(t));
            }
        }
    }
}
