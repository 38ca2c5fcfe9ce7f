//! POSE, path-optimal symbolic execution (Braione & Denaro).
//!
//! References are terms: `null` (0), allocated objects (constants from `ALLOC_BASE`), input
//! symbols `Y` (free 32-bit values below `ALLOC_BASE`) and if-then-else terms over them.
//! Two input symbols denote the same object exactly when they are equal. Reading an
//! uninitialized field of a symbol (rule Getfield r2) yields
//! `assume(H, Y, f, Z) = ite(Y = Y1, H(Y1)(f), ... ite(Y = Ym, H(Ym)(f), Z))` over the symbols
//! whose `f` is already initialized, with `Z` fresh: no fork. Reads through an ite reference
//! read both branches (Getfield c2). A write to `Y.f` also updates `Y'.f` of every other
//! symbol to `ite(Y' = Y, v, Y'.f)` (update). Each symbol has a class variable so that
//! aliasing respects types: a fresh object has its declared class, an alias shares the
//! class of what it aliases, which must fit the alias's declared type.

mod access;
mod bound;
mod chain;
mod concrete;
mod pointwise;
mod state;

use std::collections::BTreeMap;
use std::rc::Rc;

use crate::Result;
use crate::classfile::{FieldId, JType};
use crate::heap::objects::{PrimElems, elem_width};
use crate::heap::{
    Alt, Concrete, Ctx, Cut, HeapStrategy, Nullness, ObjKind, Roots, Test, Value, compatible, fields_of, fresh_kinds,
    with_cut,
};
use crate::solver::Hints;
use crate::term::{Assignment, BvCmp, Sort, Term, Val};
use chain::{KeyLog, chain, ite_value, sole_kind};
use state::internal;
pub use state::{ALLOC_BASE, Alloc, Key, Leaf, Pose, PoseHeap, Sym};

/// A read's result: heap, value, constraints, and the guard of a `--max-objects` cut.
type Read = (PoseHeap, Value<Term>, Vec<Term>, Option<Cut>);

impl Pose {
    /// A new input symbol of declared type `ty`, with the constraints that tie its class to
    /// freshness and aliasing. Returns its index, constraints and a cut guard.
    fn new_sym(cx: &mut Ctx<'_>, heap: &mut PoseHeap, name: &str, ty: &JType) -> (usize, Vec<Term>, Option<Cut>) {
        let var = cx.terms.var(name, Sort::Bv(32));
        // A symbol whose type admits one class only gets that class as a constant, so that its
        // aliasing constraints fold away.
        let class = match sole_kind(cx, ty) {
            Some(k) => {
                let i = heap.kind_index(&k);
                cx.terms.int(i)
            }
            None => cx.terms.var(&format!("{name}.class"), Sort::Bv(32)),
        };
        let zero = cx.terms.int(0);
        // Object identities only matter up to equality, so the n-th symbol ranges over
        // 0..=n: null, the objects of the earlier symbols, or one more. This keeps symbols
        // below `ALLOC_BASE` and gives the solver tiny domains instead of 32-bit ones.
        // `--max-objects` caps that range at `max + 1` (see bound.rs).
        let max = cx.config.bounds.max_objects.min(i32::MAX as u32 - 1) as i32;
        let top = cx.terms.int((heap.syms.len() as i32 + 1).min(max + 1));
        let mut assume = vec![cx.terms.cmp(BvCmp::Ule, &var, &top)];
        let non_null = cx.terms.ne(&var, &zero);
        let mut distinct = vec![non_null.clone()];
        // The classes that fit our type, by index: an alias's class must be one of them.
        let fitting: Vec<bool> = heap.kinds.iter().map(|k| compatible(cx.table, k, ty)).collect();
        let fits_class = |b: i64| usize::try_from(b).ok().and_then(|i| fitting.get(i)) == Some(&true);
        for s in &heap.syms {
            let eq = cx.terms.eq(&var, &s.var);
            distinct.push(cx.terms.not(&eq));
            // An alias denotes the same object: same class, which must fit our type. Where
            // both classes are constants (a type of one class) that is known here, and an
            // alias that may be is no constraint (POSE's P-searches make many symbols, and
            // building the terms of the general case for each would be a cost of its own).
            let both = match (class.as_i64(), s.class.as_i64()) {
                (Some(a), Some(b)) if a == b && fits_class(b) => continue,
                (Some(_), Some(_)) => cx.terms.fls(),
                _ => {
                    let same = cx.terms.eq(&class, &s.class);
                    let fits: Vec<Term> = fitting
                        .iter()
                        .enumerate()
                        .filter(|(_, f)| **f)
                        .map(|(i, _)| {
                            let k = cx.terms.int(i as i32);
                            cx.terms.eq(&s.class, &k)
                        })
                        .collect();
                    let fits = cx.terms.or(&fits);
                    cx.terms.and2(&same, &fits)
                }
            };
            let alias = cx.terms.and2(&non_null, &eq);
            assume.push(cx.terms.implies(&alias, &both));
        }
        let kinds = fresh_kinds(cx, ty);
        let options: Vec<Term> = kinds
            .iter()
            .map(|k| {
                let i = heap.kind_index(k);
                let ki = cx.terms.int(i);
                cx.terms.eq(&class, &ki)
            })
            .collect();
        let class_ok = cx.terms.or(&options);
        if !class_ok.is_true() {
            let fresh = cx.terms.and(&distinct);
            assume.push(cx.terms.implies(&fresh, &class_ok));
        }
        let cut = Cut::of_new(cx, heap, &var, max);
        heap.syms.push(Rc::new(Sym {
            name: name.to_string(),
            var,
            declared: ty.clone(),
            class,
            // One node (not a conjunction that flattens into every term using it), for the
            // object counter of bound.rs.
            fresh: {
                let same: Vec<Term> = distinct.iter().map(|d| cx.terms.not(d)).collect();
                let same = cx.terms.or(&same);
                cx.terms.not(&same)
            },
            fields: BTreeMap::new(),
            initial: BTreeMap::new(),
        }));
        (heap.syms.len() - 1, assume, cut)
    }

    /// The static type of the pseudo-field `key` of symbol `i`, for fresh values.
    fn key_type(cx: &Ctx<'_>, heap: &PoseHeap, i: usize, key: Key) -> Result<JType> {
        let s = heap.syms.get(i).ok_or_else(|| internal("unknown symbol"))?;
        Ok(match key {
            Key::Field(f) => cx.table.field(f).ty.clone(),
            Key::Length => JType::Int,
            Key::Elems | Key::Elem(_) => match &s.declared {
                JType::Array(e) => (**e).clone(),
                _ => JType::object(),
            },
        })
    }

    /// Whether symbol `j` may denote an object that has `key` (for the alias set).
    fn may_have(cx: &Ctx<'_>, s: &Sym, key: Key) -> bool {
        match key {
            Key::Field(f) => {
                let owner = JType::Class(cx.table.class(cx.table.field(f).owner).name.clone());
                cx.table.is_assignable(&s.declared, &owner) || cx.table.is_assignable(&owner, &s.declared)
            }
            _ => matches!(s.declared, JType::Array(_)) || s.declared == JType::object(),
        }
    }

    /// `H(Y)(key)`, initializing it (rule Getfield r2) when it was never read.
    fn read(cx: &mut Ctx<'_>, heap: PoseHeap, i: usize, key: Key) -> Result<Read> {
        let s = heap.syms.get(i).ok_or_else(|| internal("unknown symbol"))?;
        if let Some(v) = s.fields.get(&key).cloned() {
            return Ok((heap, v, Vec::new(), None));
        }
        let mut h = heap;
        let ty = Pose::key_type(cx, &h, i, key)?;
        let name = h.syms[i].name.clone();
        let label = match key {
            Key::Field(f) => {
                let class = match h.syms.get(i).map(|s| &s.declared) {
                    Some(JType::Class(c)) => cx.table.lookup(c),
                    _ => None,
                };
                crate::heap::field_symbol(cx.table, &name, class, f)
            }
            Key::Length => format!("{name}.length"),
            Key::Elems => format!("{name}[]"),
            Key::Elem(k) => format!("{name}[{k}]"),
        };
        let mut assume = Vec::new();
        let mut cut = None;
        let z: Value<Term> = match key {
            Key::Elems => Value::Int(cx.terms.var(&label, Sort::Array(32, elem_width(&ty)))),
            _ if ty.is_reference() => {
                let (j, a, c) = Pose::new_sym(cx, &mut h, &label, &ty);
                assume = a;
                cut = c;
                Value::Ref(h.syms[j].var.clone())
            }
            _ => {
                let (v, a) = crate::heap::objects::fresh_prim::<Term>(cx.terms, &ty, &label);
                assume = a;
                if key == Key::Length
                    && let Some(t) = v.term()
                {
                    let zero = cx.terms.int(0);
                    assume.push(cx.terms.sle(&zero, t));
                    let max = cx.terms.int(cx.config.bounds.max_array_length.min(i32::MAX as u32) as i32);
                    assume.push(cx.terms.sle(t, &max));
                }
                v
            }
        };
        // assume(H, Y, f, Z): the value of an initialized alias, or Z.
        let y = h.syms[i].var.clone();
        let log = h.logs.entry(key).or_default();
        let v = chain(cx, log, &y, Some(&z))?.ok_or_else(|| internal("an empty value chain"))?;
        log.inits.push((y, z.clone()));
        h.seq += 1;
        let seq = h.seq;
        let s = Rc::make_mut(&mut h.syms[i]);
        s.fields.insert(key, v.clone());
        s.initial.insert(key, (z, seq));
        Ok((h, v, assume, cut))
    }

    /// Writes `v` to `Y.key` under guard `g` (`None`: unconditionally) and updates every
    /// other symbol's `key` to the new value when it aliases `Y`.
    fn write(cx: &mut Ctx<'_>, heap: PoseHeap, i: usize, key: Key, g: Option<&Term>, v: &Value<Term>) -> Result<Read> {
        let (mut h, new, assume, cut) = match g {
            None => (heap, v.clone(), Vec::new(), None),
            Some(g) => {
                let (h, old, a, c) = Pose::read(cx, heap, i, key)?;
                let new = ite_value(cx, g, v, &old)?;
                (h, new, a, c)
            }
        };
        let y = h.syms[i].var.clone();
        h.logs.entry(key).or_default().writes.push((g.cloned(), y.clone(), v.clone()));
        for j in 0..h.syms.len() {
            if j == i || !Pose::may_have(cx, &h.syms[j], key) {
                continue;
            }
            let Some(old) = h.syms[j].fields.get(&key).cloned() else { continue };
            let eq = cx.terms.eq(&y, &h.syms[j].var);
            let c = match g {
                Some(g) => cx.terms.and2(g, &eq),
                None => eq,
            };
            let upd = ite_value(cx, &c, v, &old)?;
            Rc::make_mut(&mut h.syms[j]).fields.insert(key, upd);
        }
        Rc::make_mut(&mut h.syms[i]).fields.insert(key, new.clone());
        Ok((h, new, assume, cut))
    }
}

impl HeapStrategy for Pose {
    type Ref = Term;
    type Heap = PoseHeap;

    fn name(&self) -> &'static str {
        "pose"
    }

    /// Under a precondition, comparisons are not lifted and models value every symbol: the
    /// P-searches read through if-then-else references into terms that lifting would
    /// multiply, and on the same input view they name their symbols alike, so a model that
    /// still values the symbols of an earlier search's accepted path leads the next search
    /// down it.
    fn solver_hints(&self, precondition: bool) -> Hints {
        if precondition { Hints { lift: false, every_symbol: true } } else { Hints::default() }
    }

    fn identity(&self, _cx: &mut Ctx<'_>, _heap: &PoseHeap, r: &Term) -> Option<Term> {
        Some(r.clone())
    }

    fn new_heap(&self, _cx: &mut Ctx<'_>) -> PoseHeap {
        PoseHeap::default()
    }

    fn null(&self, cx: &mut Ctx<'_>) -> Term {
        cx.terms.int(0)
    }

    fn input(
        &self,
        cx: &mut Ctx<'_>,
        heap: &mut PoseHeap,
        name: &str,
        ty: &JType,
        receiver: bool,
    ) -> Result<(Term, Vec<Term>)> {
        let (i, mut assume, cut) = Pose::new_sym(cx, heap, name, ty);
        let s = heap.syms[i].clone();
        if receiver {
            let zero = cx.terms.int(0);
            assume.push(cx.terms.ne(&s.var, &zero));
            // As in every strategy, the receiver is of the first concrete class its type allows.
            if let Some(k) = fresh_kinds(cx, ty).first() {
                let i = cx.terms.int(heap.kind_index(k));
                assume.push(cx.terms.eq(&s.class, &i));
            }
        }
        if let Some(c) = cut {
            assume.push(c.keep);
        }
        Ok((s.var.clone(), assume))
    }

    fn alloc(&self, cx: &mut Ctx<'_>, heap: &mut PoseHeap, kind: ObjKind, len: Option<Term>) -> Result<Term> {
        let fields = fields_of(cx.table, &kind)
            .into_iter()
            .map(|f| {
                let zero = cx.terms.int(0);
                (f, crate::heap::objects::default_value(cx.terms, &cx.table.field(f).ty, zero))
            })
            .collect();
        let prims = match &kind {
            ObjKind::Array(e) if !e.is_reference() => Some(PrimElems::new(None, elem_width(e))),
            _ => None,
        };
        let name = format!("new{}", heap.allocs.len() + 1);
        heap.allocs.push(Alloc { kind, name, fields, len, prims, refs: BTreeMap::new() });
        Ok(cx.terms.int((ALLOC_BASE + heap.allocs.len() as i64 - 1) as i32))
    }

    fn null_split(&self, cx: &mut Ctx<'_>, heap: &PoseHeap, r: &Term) -> Result<Vec<Alt<PoseHeap, Nullness>>> {
        let zero = cx.terms.int(0);
        let is_null = cx.terms.eq(r, &zero);
        Ok(match is_null.as_bool() {
            Some(true) => vec![Alt::plain(heap.clone(), Nullness::Null)],
            Some(false) => vec![Alt::plain(heap.clone(), Nullness::NonNull)],
            None => {
                let not = cx.terms.not(&is_null);
                vec![
                    Alt { heap: heap.clone(), assume: vec![is_null], value: Nullness::Null, cut: None },
                    Alt { heap: heap.clone(), assume: vec![not], value: Nullness::NonNull, cut: None },
                ]
            }
        })
    }

    fn ref_eq(&self, cx: &mut Ctx<'_>, heap: &PoseHeap, a: &Term, b: &Term) -> Result<Vec<Alt<PoseHeap, Test>>> {
        let c = cx.terms.eq(a, b);
        let t = match c.as_bool() {
            Some(x) => Test::Known(x),
            None => Test::Cond(c),
        };
        Ok(vec![Alt::plain(heap.clone(), t)])
    }

    fn classes(&self, cx: &mut Ctx<'_>, heap: &PoseHeap, r: &Term) -> Result<Vec<Alt<PoseHeap, Vec<(ObjKind, Term)>>>> {
        let mut groups: Vec<(ObjKind, Vec<Term>)> = Vec::new();
        let mut add = |k: ObjKind, g: Term| match groups.iter_mut().find(|(x, _)| *x == k) {
            Some((_, gs)) => gs.push(g),
            None => groups.push((k, vec![g])),
        };
        for (g, leaf) in heap.leaves(cx, r)? {
            match leaf {
                Leaf::Null => {}
                Leaf::Alloc(a) => {
                    add(heap.allocs.get(a).ok_or_else(|| internal("unknown allocation"))?.kind.clone(), g)
                }
                Leaf::Sym(i) => {
                    let s = &heap.syms[i];
                    for (k, kind) in heap.kinds.iter().enumerate() {
                        if !compatible(cx.table, kind, &s.declared) {
                            continue;
                        }
                        let ki = cx.terms.int(k as i32);
                        let is = cx.terms.eq(&s.class, &ki);
                        add(kind.clone(), cx.terms.and2(&g, &is));
                    }
                }
            }
        }
        let out = groups.into_iter().map(|(k, gs)| (k, cx.terms.or(&gs))).collect();
        Ok(vec![Alt::plain(heap.clone(), out)])
    }

    fn get_field(
        &self,
        cx: &mut Ctx<'_>,
        heap: &PoseHeap,
        r: &Term,
        f: FieldId,
    ) -> Result<Vec<Alt<PoseHeap, Value<Term>>>> {
        Pose::read_ref(cx, heap, r, Key::Field(f), |cx, a| {
            a.fields.get(&f).cloned().map_or_else(
                || {
                    let zero = cx.terms.int(0);
                    Ok(crate::heap::objects::default_value(cx.terms, &cx.table.field(f).ty, zero))
                },
                Ok,
            )
        })
    }

    fn put_field(
        &self,
        cx: &mut Ctx<'_>,
        heap: &PoseHeap,
        r: &Term,
        f: FieldId,
        v: Value<Term>,
    ) -> Result<Vec<Alt<PoseHeap, ()>>> {
        Pose::write_ref(cx, heap, r, Key::Field(f), &v, |cx, a, g, v| {
            let new = match (g, a.fields.get(&f)) {
                (Some(g), Some(old)) => ite_value(cx, g, v, old)?,
                _ => v.clone(),
            };
            a.fields.insert(f, new);
            Ok(())
        })
    }

    fn get_static(&self, cx: &mut Ctx<'_>, heap: &PoseHeap, f: FieldId) -> Result<Vec<Alt<PoseHeap, Value<Term>>>> {
        if let Some(v) = heap.statics.get(&f) {
            return Ok(vec![Alt::plain(heap.clone(), v.clone())]);
        }
        let field = cx.table.field(f).clone();
        let zero = cx.terms.int(0);
        if !cx.config.symbolic_statics {
            return Ok(vec![Alt::plain(heap.clone(), crate::heap::objects::default_value(cx.terms, &field.ty, zero))]);
        }
        let label = format!("{}.{}", cx.table.class(field.owner).java_name(), field.name);
        let mut h = heap.clone();
        let (v, assume, cut) = if field.ty.is_reference() {
            let (i, a, c) = Pose::new_sym(cx, &mut h, &label, &field.ty);
            (Value::Ref(h.syms[i].var.clone()), a, c)
        } else {
            let (v, a) = crate::heap::objects::fresh_prim::<Term>(cx.terms, &field.ty, &label);
            (v, a, None)
        };
        h.statics.insert(f, v.clone());
        Ok(with_cut(cx, h, assume, cut, v))
    }

    fn put_static(&self, _cx: &mut Ctx<'_>, heap: &PoseHeap, f: FieldId, v: Value<Term>) -> Result<PoseHeap> {
        let mut h = heap.clone();
        h.statics.insert(f, v);
        Ok(h)
    }

    fn array_length(&self, cx: &mut Ctx<'_>, heap: &PoseHeap, r: &Term) -> Result<Vec<Alt<PoseHeap, Term>>> {
        let alts = Pose::read_ref(cx, heap, r, Key::Length, |cx, a| {
            Ok(Value::Int(a.len.clone().unwrap_or_else(|| cx.terms.int(0))))
        })?;
        Ok(alts
            .into_iter()
            .map(|a| {
                let len = a.value.term().cloned().unwrap_or_else(|| cx.terms.int(0));
                Alt { heap: a.heap, assume: a.assume, value: len, cut: a.cut }
            })
            .collect())
    }

    fn array_load(
        &self,
        cx: &mut Ctx<'_>,
        heap: &PoseHeap,
        r: &Term,
        idx: &Term,
    ) -> Result<Vec<Alt<PoseHeap, Value<Term>>>> {
        let elem = array_elem(cx, heap, r)?;
        if !elem.is_reference() {
            let long = elem.is_wide();
            let alts = Pose::read_ref(cx, heap, r, Key::Elems, |cx, a| {
                let p = a.prims.as_ref().ok_or_else(|| internal("elements of a non-array"))?;
                Ok(Value::Int(p.load(cx.terms, idx)))
            })?;
            // Symbols hold whole contents (array terms); allocations already gave elements.
            return Ok(alts
                .into_iter()
                .map(|a| {
                    let t = a.value.term().cloned().unwrap_or_else(|| cx.terms.int(0));
                    let v = if matches!(t.sort(), Sort::Array(..)) { cx.terms.select(&t, idx) } else { t };
                    let v = if long { Value::Long(v) } else { Value::Int(v) };
                    Alt { heap: a.heap, assume: a.assume, value: v, cut: a.cut }
                })
                .collect());
        }
        let k = idx.as_i64().ok_or_else(|| internal("symbolic index into a reference array"))?;
        Pose::read_ref(cx, heap, r, Key::Elem(k), |cx, a| {
            Ok(Value::Ref(a.refs.get(&k).cloned().unwrap_or_else(|| cx.terms.int(0))))
        })
    }

    fn array_store(
        &self,
        cx: &mut Ctx<'_>,
        heap: &PoseHeap,
        r: &Term,
        idx: &Term,
        v: Value<Term>,
    ) -> Result<Vec<Alt<PoseHeap, ()>>> {
        let elem = array_elem(cx, heap, r)?;
        if elem.is_reference() {
            let k = idx.as_i64().ok_or_else(|| internal("symbolic index into a reference array"))?;
            return Pose::write_ref(cx, heap, r, Key::Elem(k), &v, |cx, a, g, v| {
                let Value::Ref(nv) = v else { return Err(internal("array store of the wrong kind")) };
                let new = match (g, a.refs.get(&k)) {
                    (Some(g), Some(old)) => cx.terms.ite(g, nv, old),
                    (Some(g), None) => {
                        let zero = cx.terms.int(0);
                        cx.terms.ite(g, nv, &zero)
                    }
                    _ => nv.clone(),
                };
                a.refs.insert(k, new);
                Ok(())
            });
        }
        // Primitive contents: symbols get `store(contents, idx, v)` as a (guarded) write of
        // the whole contents; allocations log the (guarded) element write.
        let Some(val) = v.term().cloned() else { return Err(internal("array store of the wrong kind")) };
        let mut h = heap.clone();
        let mut assume = Vec::new();
        let leaves: Vec<(Term, Leaf)> = h.leaves(cx, r)?.into_iter().filter(|(_, l)| *l != Leaf::Null).collect();
        let single = leaves.len() == 1;
        let mut cuts = Vec::new();
        for (g, leaf) in leaves {
            match leaf {
                Leaf::Null => {}
                Leaf::Alloc(a) => {
                    let obj = h.allocs.get_mut(a).ok_or_else(|| internal("unknown allocation"))?;
                    let p = obj.prims.as_mut().ok_or_else(|| internal("store into a non-array"))?;
                    let nv = if single {
                        val.clone()
                    } else {
                        let old = p.load(cx.terms, idx);
                        cx.terms.ite(&g, &val, &old)
                    };
                    p.store(idx.clone(), nv);
                }
                Leaf::Sym(i) => {
                    let (h2, contents, mut a, c) = Pose::read(cx, h, i, Key::Elems)?;
                    h = h2;
                    assume.append(&mut a);
                    if let Some(c) = c {
                        cuts.push(c);
                    }
                    let Value::Int(arr) = contents else { return Err(internal("array contents of the wrong kind")) };
                    let stored = Value::Int(cx.terms.store(&arr, idx, &val));
                    let guard = if single { None } else { Some(&g) };
                    let (h2, _, mut a, _) = Pose::write(cx, h, i, Key::Elems, guard, &stored)?;
                    h = h2;
                    assume.append(&mut a);
                }
            }
        }
        let cut = Cut::any(cx, &cuts);
        Ok(with_cut(cx, h, assume, cut, ()))
    }

    fn concretize(
        &self,
        cx: &mut Ctx<'_>,
        heap: &PoseHeap,
        model: &Assignment,
        values: &mut dyn FnMut(&[Term]) -> Option<Vec<Val>>,
        roots: Roots<'_, Term>,
    ) -> Result<Concrete> {
        concrete::concretize(cx, heap, model, values, roots)
    }

    fn input_view(&self, cx: &mut Ctx<'_>, heap: &PoseHeap) -> Result<PoseHeap> {
        let mut h = heap.clone();
        h.pointwise = true;
        for log in h.logs.values_mut() {
            log.writes.clear();
        }
        // A key's input value is assume(H, Y, f, Z) without the run's writes: the fresh value
        // of the first symbol initialized before `Y` that `Y` equals, else `Y`'s own.
        for i in 0..h.syms.len() {
            let y = h.syms[i].var.clone();
            let keys: Vec<(Key, Value<Term>)> = h.syms[i].initial.iter().map(|(k, (z, _))| (*k, z.clone())).collect();
            let mut fields = BTreeMap::new();
            for (key, z) in keys {
                let Some(log) = h.logs.get(&key) else { continue };
                let own = log.inits.iter().position(|(x, _)| *x == y).unwrap_or(log.inits.len());
                let before = KeyLog { inits: log.inits[..own].to_vec(), writes: Vec::new() };
                let v = chain(cx, &before, &y, Some(&z))?.unwrap_or(z);
                fields.insert(key, v);
            }
            Rc::make_mut(&mut h.syms[i]).fields = fields;
        }
        Ok(h)
    }

    fn preferences(&self, cx: &mut Ctx<'_>, heap: &PoseHeap, roots: Roots<'_, Term>) -> Vec<Term> {
        concrete::pose_preferences(cx, heap, roots)
    }

    fn dot(&self, cx: &mut Ctx<'_>, heap: &PoseHeap) -> String {
        concrete::dot(cx, heap)
    }
}

/// The element type of the arrays a reference may denote.
fn array_elem(cx: &mut Ctx<'_>, heap: &PoseHeap, r: &Term) -> Result<JType> {
    for (_, leaf) in heap.leaves(cx, r)? {
        match leaf {
            Leaf::Alloc(a) => {
                if let Some(ObjKind::Array(e)) = heap.allocs.get(a).map(|x| &x.kind) {
                    return Ok(e.clone());
                }
            }
            Leaf::Sym(i) => {
                if let JType::Array(e) = &heap.syms[i].declared {
                    return Ok((**e).clone());
                }
            }
            Leaf::Null => {}
        }
    }
    Err(internal("an array access through a reference that is no array"))
}
