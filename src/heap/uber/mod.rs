//! The uber-lazy fully symbolic heap (Person, Rungta, Mercer, Hillery).
//!
//! References are nodes `r` with a location set `L(r)` of (guard, location) pairs; locations
//! carry fields `R(l, f)`. Every location has a number (null is 0) and every reference a
//! *pointer symbol* `p(r)` whose value is the number of its location, so the guard of `r` at
//! `l` is always the constant-size atom `p(r) = #l`: the constraint the paper attaches to the
//! edge, with the conjunctions and disjunctions of the rules folded into the definition of
//! `p(r)` instead of being copied into every guard.
//!
//! Lazy initialization of a field adds ONE new input reference whose pointer symbol is a
//! fresh choice ranging over {null, each compatible input location, a new input location} —
//! no fork. A field read through a reference with several locations is a value set (VS): a
//! new reference whose pointer symbol is defined as `ite(p(r) = #l1, p(R(l1, f)), ...)`, its
//! locations the union of the field's locations; primitive reads are if-then-else terms
//! over the same guards (as POSE does). Field writes through several locations are guarded
//! updates (ST of the new and of the old value: `ite(p(r) = #l, p(v), p(old))`). Only program
//! decisions fork: the machine splits reference equality (`p(a) = p(b)`, which under the
//! domain constraints is the disjunction over shared locations of both guards) and the
//! null/non-null of a dereference.
//!
//! With many locations (`summary::COMPACT` or more) the constraints take constant-size
//! forms: a value set is `select(S_f, p(r))` over the field's summary array, a choice's
//! domain is a range of location numbers, and "an alias must exist" reads the existence
//! array. A guard `p(r) = #l` is built only when asked for. So each step of a loop over a
//! list of length N adds O(1) terms, and the path condition grows linearly in N.

mod concrete;
mod init;
mod pointwise;
mod prune;
mod state;
mod summary;
mod values;

use pointwise::each_side;
pub use state::{Loc, LocId, NULL, RefId, RefNode, Target, UArray, Uber, UberHeap};
use state::{PW, guard, internal, number};

use std::collections::BTreeMap;
use std::rc::Rc;

use crate::classfile::{FieldId, JType};
use crate::heap::objects::{PrimElems, elem_width, fresh_prim};
use crate::heap::{
    Alt, ChoiceNames, Concrete, Ctx, Cut, HeapStrategy, Nullness, ObjKind, Roots, Test, Value, fields_of, fresh_kinds,
    with_cut,
};
use crate::term::{Assignment, Term, Val};
use crate::{Error, Result};
use summary::COMPACT;

impl Uber {
    /// Reads through every location of `r` with `read`, combining the values (VS / ite).
    /// `field` names the field read, whose summary then defines a reference value set.
    fn read_through(
        cx: &mut Ctx<'_>,
        heap: &UberHeap,
        r: RefId,
        field: Option<FieldId>,
        mut read: impl FnMut(&mut Ctx<'_>, UberHeap, LocId) -> Result<(UberHeap, Value<RefId>, Vec<Term>, Option<Term>)>,
    ) -> Result<Vec<Alt<UberHeap, Value<RefId>>>> {
        match heap.pointwise_sides(cx, r, field)? {
            Some(sides) => each_side(sides, |h| Uber::read_locations(cx, h, r, field, &mut read)),
            None => Uber::read_locations(cx, heap, r, field, &mut read),
        }
    }

    /// [`Uber::read_through`] on the locations `r` has (one read, however many).
    fn read_locations(
        cx: &mut Ctx<'_>,
        heap: &UberHeap,
        r: RefId,
        field: Option<FieldId>,
        read: &mut impl FnMut(&mut Ctx<'_>, UberHeap, LocId) -> Result<(UberHeap, Value<RefId>, Vec<Term>, Option<Term>)>,
    ) -> Result<Vec<Alt<UberHeap, Value<RefId>>>> {
        let (locs, typed) = match field {
            Some(f) => heap.typed_locations(cx, r, f),
            None => (heap.location_ids(r), None),
        };
        let ptr = heap.node(r)?.ptr.clone();
        let mut h = heap.clone();
        let mut assume: Vec<Term> = typed.into_iter().collect();
        let mut cuts = Vec::new();
        let mut vals = Vec::with_capacity(locs.len());
        for l in &locs {
            let (h2, v, mut a, cut) = read(cx, h, *l)?;
            h = h2;
            assume.append(&mut a);
            if let Some(c) = cut {
                let g = guard(cx, &ptr, Target::Loc(*l));
                cuts.push(cx.terms.and2(&g, &c));
            }
            vals.push(v);
        }
        let cut = if cuts.is_empty() { None } else { Some(cx.terms.or(&cuts)) };
        let sources: Vec<(LocId, RefId)> =
            locs.iter().zip(&vals).filter_map(|(l, v)| v.as_ref().map(|r| (*l, *r))).collect();
        let summary = match field {
            Some(f) if vals.len() >= COMPACT && sources.len() == vals.len() => h.summary_read(cx, r, f, &locs, &vals),
            _ => None,
        };
        let v = match (vals.len(), summary) {
            // The path condition leaves this reference no location: no state reads here.
            (0, _) => return Ok(Vec::new()),
            (1, _) => vals.swap_remove(0),
            (_, Some((def, at))) => {
                assume.push(at);
                Uber::value_set(cx, &mut h, &mut assume, &def, &sources)?
            }
            (_, None) => {
                let guarded = locs.iter().zip(vals).map(|(l, v)| (guard(cx, &ptr, Target::Loc(*l)), v)).collect();
                Uber::combine(cx, &mut h, &mut assume, guarded)?
            }
        };
        if let Value::Ref(vs) = &v
            && sources.len() == locs.len()
            && sources.iter().all(|(_, src)| src != vs)
            && let Some(n) = Rc::make_mut(&mut h.refs).get_mut(vs.0 as usize)
        {
            Rc::make_mut(n).via = Some((ptr, sources));
        }
        let cut = Cut::when(cx, cut);
        Ok(with_cut(cx, h, assume, cut, v))
    }
}

impl HeapStrategy for Uber {
    type Ref = RefId;
    type Heap = UberHeap;

    fn name(&self) -> &'static str {
        "uber"
    }

    fn new_heap(&self, cx: &mut Ctx<'_>) -> UberHeap {
        let zero = cx.terms.bv(PW, 0);
        UberHeap {
            refs: Rc::new(vec![RefNode::new(zero, &[Target::Null])]),
            locs: Rc::default(),
            inputs: Vec::new(),
            statics: Rc::default(),
            pointers: Rc::default(),
            allocs: 0,
            beyond: Vec::new(),
            summaries: Rc::default(),
            existence: None,
            pointwise: false,
            defined: Rc::default(),
            scope: cx.config.precondition.as_ref().map(|_| cx.config.bounds.max_objects),
        }
    }

    fn null(&self, _cx: &mut Ctx<'_>) -> RefId {
        NULL
    }

    fn input(
        &self,
        cx: &mut Ctx<'_>,
        heap: &mut UberHeap,
        name: &str,
        ty: &JType,
        receiver: bool,
    ) -> Result<(RefId, Vec<Term>)> {
        let t = cx.terms.tru();
        if receiver {
            let kind = fresh_kinds(cx, ty)
                .into_iter()
                .next()
                .ok_or_else(|| Error::Usage(format!("the receiver type {ty} has no concrete class to instantiate")))?;
            let (loc, _) = Uber::input_loc(cx, kind, name.to_string(), t.clone());
            let l = heap.add_loc(loc)?;
            heap.inputs.push(l);
            heap.record_existence(cx, l, &t);
            let k = number(cx, Target::Loc(l));
            return Ok((heap.add_ref(k, &[Target::Loc(l)]), Vec::new()));
        }
        // Parameters are initialized at entry, in order, with the same choices as a field.
        // A parameter beyond --max-objects may only be null or an alias.
        let init = Uber::init_ref(cx, heap, ty, None, name)?;
        *heap = init.heap;
        let mut assume = init.assume;
        if let Some(c) = init.cut {
            assume.push(cx.terms.not(&c));
        }
        Ok((init.r, assume))
    }

    fn alloc(&self, cx: &mut Ctx<'_>, heap: &mut UberHeap, kind: ObjKind, len: Option<Term>) -> Result<RefId> {
        heap.allocs += 1;
        let fields: Vec<(FieldId, Value<RefId>)> = fields_of(cx.table, &kind)
            .into_iter()
            .map(|f| (f, crate::heap::objects::default_value(cx.terms, &cx.table.field(f).ty, NULL)))
            .collect();
        let array = match (&kind, len) {
            (ObjKind::Array(e), Some(len)) => Some(UArray {
                len,
                prims: (!e.is_reference()).then(|| PrimElems::new(None, elem_width(e))),
                refs: BTreeMap::new(),
                initial_refs: BTreeMap::new(),
            }),
            _ => None,
        };
        let t = cx.terms.tru();
        let l = heap.add_loc(Loc::new(kind, false, format!("new{}", heap.allocs), t, array))?;
        for (f, v) in fields {
            // The location was just added, so setting its fields cannot fail.
            let _ = heap.set_field(cx, l, f, v);
        }
        let k = number(cx, Target::Loc(l));
        Ok(heap.add_ref(k, &[Target::Loc(l)]))
    }

    fn null_split(&self, cx: &mut Ctx<'_>, heap: &UberHeap, r: &RefId) -> Result<Vec<Alt<UberHeap, Nullness>>> {
        let mut pending = Vec::new();
        let h = heap.clone();
        let node = h.node(*r)?.clone();
        if !node.targets.contains(&Target::Null) {
            return Ok(vec![Alt { heap: h, assume: pending, value: Nullness::NonNull, cut: None }]);
        }
        let g = guard(cx, &node.ptr, Target::Null);
        if node.targets.len() == 1 {
            return Ok(vec![Alt { heap: h, assume: pending, value: Nullness::Null, cut: None }]);
        }
        let ng = cx.terms.not(&g);
        let mut nonnull = h.clone();
        nonnull.assume_null(*r, false);
        let mut null = h;
        null.assume_null(*r, true);
        let mut a1 = pending.clone();
        a1.push(g);
        pending.push(ng);
        Ok(vec![
            Alt { heap: null, assume: a1, value: Nullness::Null, cut: None },
            Alt { heap: nonnull, assume: pending, value: Nullness::NonNull, cut: None },
        ])
    }

    fn ref_eq(&self, cx: &mut Ctx<'_>, heap: &UberHeap, a: &RefId, b: &RefId) -> Result<Vec<Alt<UberHeap, Test>>> {
        for r in [a, b] {
            if let Some(sides) = heap.pointwise_targets(cx, *r)? {
                return each_side(sides, |h| self.ref_eq(cx, h, a, b));
            }
        }
        let h = heap.clone();
        let assume = Vec::new();
        if a == b {
            return Ok(vec![Alt { heap: h, assume, value: Test::Known(true), cut: None }]);
        }
        // The disjunction over shared locations of both guards is `p(a) = p(b)`: each
        // pointer equals the number of one of its own targets.
        let (na, nb) = (h.node(*a)?, h.node(*b)?);
        let shared = na.targets.iter().any(|ta| nb.targets.contains(ta));
        let c = match (na.targets.as_slice(), nb.targets.as_slice()) {
            // Each at one target (e.g. narrowed by a pointwise read): known either way.
            ([ta], [tb]) => cx.terms.bool(ta == tb),
            _ if shared => cx.terms.eq(&na.ptr, &nb.ptr),
            _ => cx.terms.fls(),
        };
        let value = match c.as_bool() {
            Some(b) => Test::Known(b),
            None => Test::Cond(c),
        };
        Ok(vec![Alt { heap: h, assume, value, cut: None }])
    }

    fn ref_test_outcome(&self, heap: &mut UberHeap, a: &RefId, b: &RefId, equal: bool) {
        heap.assume_equal(*a, *b, equal);
    }

    fn location_guards(&self, cx: &mut Ctx<'_>, heap: &UberHeap, r: &RefId, f: FieldId) -> Vec<Term> {
        // Only a reference field's initialization makes a location (which would count
        // against `--max-objects` and become an alias candidate); a primitive field's is a
        // fresh symbol, cheaper than proving the location impossible (an unsatisfiable
        // query over every value set on the way, hundreds of conflicts in a loop).
        let Ok(node) = heap.node(*r) else { return Vec::new() };
        if !cx.table.field(f).ty.is_reference() {
            return Vec::new();
        }
        heap.uninitialized(*r, f).into_iter().map(|l| guard(cx, &node.ptr, Target::Loc(l))).collect()
    }

    fn drop_locations(&self, heap: &mut UberHeap, r: &RefId, f: FieldId, dead: &[usize]) {
        heap.drop_locations(*r, f, dead);
    }

    fn classes(
        &self,
        cx: &mut Ctx<'_>,
        heap: &UberHeap,
        r: &RefId,
    ) -> Result<Vec<Alt<UberHeap, Vec<(ObjKind, Term)>>>> {
        let h = heap.clone();
        let assume = Vec::new();
        let mut groups: Vec<(ObjKind, Vec<Term>)> = Vec::new();
        for (g, l) in h.locations(cx, *r)? {
            let kind = h.loc(l)?.kind.clone();
            match groups.iter_mut().find(|(k, _)| *k == kind) {
                Some((_, gs)) => gs.push(g),
                None => groups.push((kind, vec![g])),
            }
        }
        let out = groups.into_iter().map(|(k, gs)| (k, cx.terms.or(&gs))).collect();
        Ok(vec![Alt { heap: h, assume, value: out, cut: None }])
    }

    fn get_field(
        &self,
        cx: &mut Ctx<'_>,
        heap: &UberHeap,
        r: &RefId,
        f: FieldId,
    ) -> Result<Vec<Alt<UberHeap, Value<RefId>>>> {
        Uber::read_through(cx, heap, *r, Some(f), |cx, h, l| Uber::field(cx, h, l, f))
    }

    fn put_field(
        &self,
        cx: &mut Ctx<'_>,
        heap: &UberHeap,
        r: &RefId,
        f: FieldId,
        v: Value<RefId>,
    ) -> Result<Vec<Alt<UberHeap, ()>>> {
        if let Some(sides) = heap.pointwise_sides(cx, *r, Some(f))? {
            return each_side(sides, |h| self.put_field(cx, h, r, f, v.clone()));
        }
        let mut h = heap.clone();
        let (typed, only) = h.typed_locations(cx, *r, f);
        let mut assume: Vec<Term> = only.into_iter().collect();
        let ptr = h.node(*r)?.ptr.clone();
        let locs: Vec<(Term, LocId)> = typed.into_iter().map(|l| (guard(cx, &ptr, Target::Loc(l)), l)).collect();
        if let [(_, l)] = locs.as_slice() {
            h.set_field(cx, *l, f, v)?;
            return Ok(vec![Alt { heap: h, assume, value: (), cut: None }]);
        }
        let mut cuts = Vec::new();
        for (g, l) in locs {
            let loc = h.loc(l)?;
            if loc.input && !loc.fields.contains_key(&f) {
                h.loc_mut(l)?.pending.entry(f).or_default().push((g, v.clone()));
                continue;
            }
            let (h2, old, mut a, cut) = Uber::field(cx, h, l, f)?;
            h = h2;
            assume.append(&mut a);
            if let Some(c) = cut {
                cuts.push(cx.terms.and2(&g, &c));
            }
            let new = Uber::blend(cx, &mut h, &mut assume, &g, &v, &old)?;
            h.set_field(cx, l, f, new)?;
        }
        let cut = if cuts.is_empty() { None } else { Some(cx.terms.or(&cuts)) };
        let cut = Cut::when(cx, cut);
        Ok(with_cut(cx, h, assume, cut, ()))
    }

    fn get_static(&self, cx: &mut Ctx<'_>, heap: &UberHeap, f: FieldId) -> Result<Vec<Alt<UberHeap, Value<RefId>>>> {
        let h = heap.clone();
        let mut assume = Vec::new();
        if let Some(v) = h.statics.get(&f) {
            let v = v.clone();
            return Ok(vec![Alt { heap: h, assume, value: v, cut: None }]);
        }
        let field = cx.table.field(f).clone();
        if !cx.config.symbolic_statics {
            let v = crate::heap::objects::default_value(cx.terms, &field.ty, NULL);
            return Ok(vec![Alt { heap: h, assume, value: v, cut: None }]);
        }
        let label = format!("{}.{}", cx.table.class(field.owner).java_name(), field.name);
        let (mut h, v, cut) = if field.ty.is_reference() {
            let mut init = Uber::init_ref(cx, &h, &field.ty, None, &label)?;
            assume.append(&mut init.assume);
            (init.heap, Value::Ref(init.r), init.cut)
        } else {
            let (v, mut a) = fresh_prim(cx.terms, &field.ty, &label);
            assume.append(&mut a);
            (h, v, None)
        };
        Rc::make_mut(&mut h.statics).insert(f, v.clone());
        let cut = Cut::when(cx, cut);
        Ok(with_cut(cx, h, assume, cut, v))
    }

    fn put_static(&self, _cx: &mut Ctx<'_>, heap: &UberHeap, f: FieldId, v: Value<RefId>) -> Result<UberHeap> {
        let mut h = heap.clone();
        Rc::make_mut(&mut h.statics).insert(f, v);
        Ok(h)
    }

    fn array_length(&self, cx: &mut Ctx<'_>, heap: &UberHeap, r: &RefId) -> Result<Vec<Alt<UberHeap, Term>>> {
        let alts = Uber::read_through(cx, heap, *r, None, |_, h, l| {
            let len =
                h.loc(l)?.array.as_ref().map(|a| a.len.clone()).ok_or_else(|| internal("length of a non-array"))?;
            Ok((h, Value::Int(len), Vec::new(), None))
        })?;
        Ok(alts
            .into_iter()
            .map(|a| {
                let len = match a.value {
                    Value::Int(t) => t,
                    _ => cx.terms.int(0),
                };
                Alt { heap: a.heap, assume: a.assume, value: len, cut: a.cut }
            })
            .collect())
    }

    fn array_load(
        &self,
        cx: &mut Ctx<'_>,
        heap: &UberHeap,
        r: &RefId,
        idx: &Term,
    ) -> Result<Vec<Alt<UberHeap, Value<RefId>>>> {
        Uber::read_through(cx, heap, *r, None, |cx, h, l| Uber::element(cx, h, l, idx))
    }

    fn array_store(
        &self,
        cx: &mut Ctx<'_>,
        heap: &UberHeap,
        r: &RefId,
        idx: &Term,
        v: Value<RefId>,
    ) -> Result<Vec<Alt<UberHeap, ()>>> {
        let mut h = heap.clone();
        let mut assume = Vec::new();
        let locs = h.locations(cx, *r)?;
        let single = locs.len() == 1;
        let mut cuts = Vec::new();
        for (g, l) in locs {
            let (h2, old, mut a, cut) = Uber::element(cx, h, l, idx)?;
            h = h2;
            assume.append(&mut a);
            if let Some(c) = cut {
                cuts.push(cx.terms.and2(&g, &c));
            }
            let new = if single { v.clone() } else { Uber::blend(cx, &mut h, &mut assume, &g, &v, &old)? };
            let arr = h.loc_mut(l)?.array.as_mut().ok_or_else(|| internal("store into a non-array"))?;
            match (&mut arr.prims, new) {
                (Some(p), Value::Int(t) | Value::Long(t)) => p.store(idx.clone(), t),
                (None, Value::Ref(nr)) => {
                    let k = idx.as_i64().ok_or_else(|| internal("symbolic index into a reference array"))?;
                    arr.refs.insert(k, nr);
                }
                _ => return Err(internal("array store of the wrong kind")),
            }
        }
        let cut = if cuts.is_empty() { None } else { Some(cx.terms.or(&cuts)) };
        let cut = Cut::when(cx, cut);
        Ok(with_cut(cx, h, assume, cut, ()))
    }

    fn concretize(
        &self,
        cx: &mut Ctx<'_>,
        heap: &UberHeap,
        model: &Assignment,
        values: &mut dyn FnMut(&[Term]) -> Option<Vec<Val>>,
        roots: Roots<'_, RefId>,
    ) -> Result<Concrete> {
        concrete::concretize(cx, heap, model, values, roots)
    }

    fn global_names(&self) -> bool {
        true
    }

    fn identity(&self, _cx: &mut Ctx<'_>, heap: &UberHeap, r: &RefId) -> Option<Term> {
        heap.node(*r).ok().map(|n| n.ptr.clone())
    }

    fn input_view(&self, cx: &mut Ctx<'_>, heap: &UberHeap) -> Result<UberHeap> {
        let mut h = heap.input_view(cx)?;
        h.pointwise = true;
        Ok(h)
    }

    fn preferences(&self, cx: &mut Ctx<'_>, heap: &UberHeap, roots: Roots<'_, RefId>) -> Vec<Term> {
        concrete::uber_preferences(cx, heap, roots)
    }

    fn dot(&self, cx: &mut Ctx<'_>, heap: &UberHeap) -> String {
        concrete::dot(cx, heap)
    }

    fn choice_names(&self, heap: &UberHeap) -> ChoiceNames {
        ChoiceNames { vars: (*heap.pointers).clone(), values: heap.number_names() }
    }

    fn model_constraints(&self, cx: &mut Ctx<'_>, heap: &UberHeap) -> Vec<Term> {
        let mut out: Vec<Term> = heap.beyond.iter().map(|g| cx.terms.not(g)).collect();
        out.extend(heap.within_scope(cx));
        out
    }
}

impl Uber {
    /// Element `idx` of an array location (reference elements need a concrete index).
    fn element(
        cx: &mut Ctx<'_>,
        heap: UberHeap,
        l: LocId,
        idx: &Term,
    ) -> Result<(UberHeap, Value<RefId>, Vec<Term>, Option<Term>)> {
        let loc = heap.loc(l)?;
        let ObjKind::Array(elem) = loc.kind.clone() else { return Err(internal("element of a non-array")) };
        let arr = loc.array.as_ref().ok_or_else(|| internal("array without contents"))?;
        if let Some(p) = &arr.prims {
            let v = p.load(cx.terms, idx);
            let v = if elem.is_wide() { Value::Long(v) } else { Value::Int(v) };
            return Ok((heap, v, Vec::new(), None));
        }
        let k = idx.as_i64().ok_or_else(|| internal("symbolic index into a reference array"))?;
        if let Some(r) = arr.refs.get(&k).copied() {
            return Ok((heap, Value::Ref(r), Vec::new(), None));
        }
        if !loc.input {
            return Ok((heap, Value::Ref(NULL), Vec::new(), None));
        }
        let label = format!("{}[{k}]", loc.name);
        let init = Uber::init_ref(cx, &heap, &elem, Some(l), &label)?;
        let mut h = init.heap;
        let arr = h.loc_mut(l)?.array.as_mut().ok_or_else(|| internal("array vanished"))?;
        arr.refs.insert(k, init.r);
        arr.initial_refs.insert(k, init.r);
        Ok((h, Value::Ref(init.r), init.assume, init.cut))
    }
}
