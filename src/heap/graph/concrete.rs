//! Object graphs of the lazy family: concretizing them, drawing them, rebuilding them for replay.

use std::collections::{BTreeMap, BTreeSet};

use super::materialize::{LRef, LazyHeap};
use crate::classfile::JType;
use crate::heap::concrete::{MAX_CONCRETE_ARRAY, Numbers, default_of, int_args, narrow, preferences};
use crate::heap::objects::{Obj, ObjId, PrimElems, Slot};
use crate::heap::{CObj, CVal, Concrete, Ctx, ObjKind, Roots, Value, fields_of, fresh_kinds};
use crate::term::{Assignment, Term, Val};
use crate::{Error, Result};

/// Maps references of a lazy-family heap to concrete object indices.
struct GraphMap<'h> {
    heap: &'h LazyHeap,
    /// Extra objects for abstract references known non-null but never materialized.
    extra: BTreeMap<u32, usize>,
    extra_objs: Vec<CObj>,
}

impl GraphMap<'_> {
    fn reference(&mut self, cx: &Ctx<'_>, r: &LRef) -> CVal {
        match self.heap.follow(r) {
            LRef::Null => CVal::Null,
            LRef::Obj(id) => CVal::Obj(id.0 as usize),
            LRef::Abs(k) => {
                let Some(slot) = self.heap.params.get(k as usize) else { return CVal::Null };
                if !slot.non_null {
                    return CVal::Null;
                }
                if let Some(i) = self.extra.get(&k) {
                    return CVal::Obj(*i);
                }
                // Never materialized: any object of the declared type will do.
                let Some(kind) = fresh_kinds(cx, &slot.ty).into_iter().next() else { return CVal::Null };
                let before: BTreeMap<_, _> =
                    fields_of(cx.table, &kind).into_iter().map(|f| (f, default_of(&cx.table.field(f).ty))).collect();
                let idx = self.heap.objs.len() + self.extra_objs.len();
                self.extra_objs.push(CObj {
                    kind,
                    input: true,
                    name: slot.name.clone(),
                    unread: before.keys().copied().collect(),
                    after: before.clone(),
                    before,
                    elems_before: Vec::new(),
                    elems_after: Vec::new(),
                });
                self.extra.insert(k, idx);
                CVal::Obj(idx)
            }
        }
    }

    fn value(&mut self, cx: &Ctx<'_>, n: &mut Numbers<'_, '_>, v: &Value<LRef>) -> Result<CVal> {
        match v {
            Value::Ref(r) => Ok(self.reference(cx, r)),
            other => Ok(n.prim(other)?.unwrap_or(CVal::Null)),
        }
    }
}

/// The concrete input and output of a lazy-family heap under a model.
pub fn concretize_graph(
    cx: &mut Ctx<'_>,
    heap: &LazyHeap,
    model: &Assignment,
    values: &mut dyn FnMut(&[Term]) -> Option<Vec<Val>>,
    roots: Roots<'_, LRef>,
) -> Result<Concrete> {
    let mut n = Numbers { model, values };
    let mut g = GraphMap { heap, extra: BTreeMap::new(), extra_objs: Vec::new() };
    let mut objects = Vec::with_capacity(heap.objs.len());
    for o in &heap.objs {
        let mut before = BTreeMap::new();
        let mut after = BTreeMap::new();
        let mut unread = BTreeSet::new();
        for f in fields_of(cx.table, &o.kind) {
            let ty = &cx.table.field(f).ty;
            let b = match o.initial.get(&f) {
                Some(v) if o.input => g.value(cx, &mut n, v)?,
                _ => {
                    if o.input {
                        unread.insert(f);
                    }
                    default_of(ty)
                }
            };
            let a = match o.fields.get(&f) {
                Some(Slot::Val(v)) => g.value(cx, &mut n, v)?,
                _ => b.clone(),
            };
            if o.input {
                before.insert(f, b);
            }
            after.insert(f, a);
        }
        let (elems_before, elems_after) = array_elems(cx, &mut n, &mut g, o)?;
        objects.push(CObj {
            kind: o.kind.clone(),
            input: o.input,
            name: o.name.clone(),
            before,
            after,
            elems_before,
            elems_after,
            unread,
        });
    }
    let mut statics_before = BTreeMap::new();
    let mut statics_after = BTreeMap::new();
    for (f, v) in roots.statics {
        let b = g.value(cx, &mut n, v)?;
        let a = match heap.statics.get(f) {
            Some(Slot::Val(now)) => g.value(cx, &mut n, now)?,
            _ => b.clone(),
        };
        statics_before.insert(*f, b);
        statics_after.insert(*f, a);
    }
    let args = roots.args.iter().map(|a| g.value(cx, &mut n, a)).collect::<Result<Vec<_>>>()?;
    let ret = roots.ret.map(|r| g.value(cx, &mut n, r)).transpose()?;
    objects.append(&mut g.extra_objs);
    Ok(Concrete { objects, args, statics_before, statics_after, ret, undetermined: Default::default() })
}

fn array_elems(
    cx: &mut Ctx<'_>,
    n: &mut Numbers<'_, '_>,
    g: &mut GraphMap<'_>,
    o: &Obj<LRef>,
) -> Result<(Vec<CVal>, Vec<CVal>)> {
    let (Some(arr), ObjKind::Array(elem)) = (&o.array, &o.kind) else { return Ok((Vec::new(), Vec::new())) };
    let len = n.num(&arr.len)?;
    if !(0..=MAX_CONCRETE_ARRAY).contains(&len) {
        return Err(Error::Solver(format!(
            "array {} has length {len} in the model, beyond {MAX_CONCRETE_ARRAY}",
            o.name
        )));
    }
    let mut before = Vec::new();
    let mut after = Vec::new();
    for k in 0..len {
        let idx = cx.terms.int(k as i32);
        if let Some(p) = &arr.prims {
            let b = match &p.base {
                Some(base) if o.input => {
                    let t = cx.terms.select(base, &idx);
                    narrow(elem, n.num(&t)?)
                }
                _ => narrow(elem, 0),
            };
            let t = p.load(cx.terms, &idx);
            before.push(b);
            after.push(narrow(elem, n.num(&t)?));
        } else {
            let b = match arr.initial_refs.get(&k) {
                Some(v) if o.input => g.value(cx, n, v)?,
                _ => CVal::Null,
            };
            let a = match arr.refs.get(&k) {
                Some(Slot::Val(v)) => g.value(cx, n, v)?,
                _ => b.clone(),
            };
            before.push(b);
            after.push(a);
        }
    }
    if !o.input {
        before.clear();
    }
    Ok((before, after))
}

/// Graphviz source of a lazy-family heap: objects as boxes, fields as labelled edges,
/// abstract references as circles.
pub fn dot_graph(cx: &mut Ctx<'_>, heap: &LazyHeap) -> String {
    let mut s = String::from("digraph heap {\n  node [fontname=\"monospace\"];\n");
    for (i, o) in heap.objs.iter().enumerate() {
        let kind = o.kind.jtype(cx.table).short_name();
        let mut label = format!("{}: {kind}", o.name);
        for (f, slot) in &o.fields {
            if let Slot::Val(v @ (Value::Int(_) | Value::Long(_))) = slot
                && let Some(t) = v.term()
            {
                label.push_str(&format!("\\n{} = {}", cx.table.field(*f).name, t.to_string().replace('"', "'")));
            }
        }
        s.push_str(&format!("  o{i} [shape=box, label=\"{label}\"];\n"));
        for (f, slot) in &o.fields {
            if let Slot::Val(Value::Ref(r)) = slot {
                let name = &cx.table.field(*f).name;
                s.push_str(&format!("  o{i} -> {} [label=\"{name}\"];\n", target(heap, r)));
            }
        }
    }
    for (k, a) in heap.params.iter().enumerate() {
        if a.bound.is_none() {
            let shape = if a.non_null { "doublecircle" } else { "circle" };
            s.push_str(&format!("  a{k} [shape={shape}, label=\"{}\"];\n", a.name));
        }
    }
    s.push_str("  null [shape=plaintext];\n}\n");
    s
}

fn target(heap: &LazyHeap, r: &LRef) -> String {
    match heap.follow(r) {
        LRef::Null => "null".into(),
        LRef::Obj(id) => format!("o{}", id.0),
        LRef::Abs(k) => format!("a{k}"),
    }
}

/// Rebuilds a concrete input as a fully materialized lazy heap (for `--check-models`):
/// every input object exists with every field set, so the run never forks on the heap.
pub fn build(cx: &mut Ctx<'_>, input: &Concrete) -> (LazyHeap, Vec<Value<LRef>>) {
    let mut heap = LazyHeap::default();
    let mut ids: BTreeMap<usize, ObjId> = BTreeMap::new();
    for (i, o) in input.objects.iter().enumerate().filter(|(_, o)| o.input) {
        let id = ObjId(heap.objs.len() as u32);
        ids.insert(i, id);
        heap.objs.push(Obj {
            kind: o.kind.clone(),
            input: true,
            name: o.name.clone(),
            fields: BTreeMap::new(),
            initial: BTreeMap::new(),
            array: None,
        });
        heap.inputs.push(id);
    }
    let to_value = |cx: &mut Ctx<'_>, v: &CVal| -> Value<LRef> {
        match v {
            CVal::Int(i) => Value::Int(cx.terms.int(*i as i32)),
            CVal::Long(l) => Value::Long(cx.terms.long(*l)),
            CVal::Null => Value::Ref(LRef::Null),
            CVal::Obj(i) => Value::Ref(ids.get(i).map(|id| LRef::Obj(*id)).unwrap_or(LRef::Null)),
        }
    };
    for (i, o) in input.objects.iter().enumerate().filter(|(_, o)| o.input) {
        let Some(id) = ids.get(&i) else { continue };
        let mut fields = BTreeMap::new();
        let mut initial = BTreeMap::new();
        for (f, v) in &o.before {
            let v = to_value(cx, v);
            fields.insert(*f, Slot::Val(v.clone()));
            initial.insert(*f, v);
        }
        let array = if let ObjKind::Array(elem) = &o.kind {
            let len = cx.terms.int(o.elems_before.len() as i32);
            let mut data = crate::heap::objects::ArrayData {
                len,
                prims: None,
                refs: BTreeMap::new(),
                initial_refs: BTreeMap::new(),
            };
            if elem.is_reference() {
                for (k, v) in o.elems_before.iter().enumerate() {
                    let v = to_value(cx, v);
                    data.refs.insert(k as i64, Slot::Val(v.clone()));
                    data.initial_refs.insert(k as i64, v);
                }
            } else {
                let w = crate::heap::objects::elem_width(elem);
                let mut p = PrimElems::new(None, w);
                for (k, v) in o.elems_before.iter().enumerate() {
                    let idx = cx.terms.int(k as i32);
                    if let Some(t) = to_value(cx, v).term() {
                        p.store(idx, t.clone());
                    }
                }
                data.prims = Some(p);
            }
            Some(data)
        } else {
            None
        };
        if let Some(obj) = heap.objs.get_mut(id.0 as usize) {
            obj.fields = fields;
            obj.initial = initial;
            obj.array = array;
        }
    }
    for (f, v) in &input.statics_before {
        let v = to_value(cx, v);
        heap.statics.insert(*f, Slot::Val(v));
    }
    let args = input.args.iter().map(|a| to_value(cx, a)).collect();
    (heap, args)
}

/// Soft constraints for a lazy-family model (see [`preferences`]): the heap shape is the
/// trace's own, so only the values of primitive input fields, array lengths and int
/// arguments are left to choose.
pub fn graph_preferences(cx: &mut Ctx<'_>, heap: &LazyHeap, roots: Roots<'_, LRef>) -> Vec<Term> {
    let mut ints = int_args(roots.args, roots.arg_types);
    for o in heap.objs.iter().filter(|o| o.input) {
        for (f, v) in &o.initial {
            if let Some(t) = v.term() {
                ints.push((t.clone(), cx.table.field(*f).ty.clone()));
            }
        }
        if let Some(a) = &o.array {
            ints.push((a.len.clone(), JType::Int));
        }
    }
    preferences(cx.terms, Vec::new(), &ints)
}
