//! The heap operations over a materialized object graph: lazy initialization's, and the
//! fallbacks lazier# takes when a use needs the object itself.

use super::materialize::{AbsSlot, LRef, LazyHeap, each, internal, read_slot};
use crate::classfile::{FieldId, JType};
use crate::heap::objects::{Obj, ObjId, Slot, default_value};
use crate::heap::{Alt, Concrete, Ctx, Nullness, ObjKind, Roots, Test, Value, fresh_kinds};
use crate::term::{Assignment, Term, Val};
use crate::{Error, Result};
pub fn new_heap(_cx: &mut Ctx<'_>) -> LazyHeap {
    LazyHeap::default()
}

pub fn null(_cx: &mut Ctx<'_>) -> LRef {
    LRef::Null
}

pub fn input(
    cx: &mut Ctx<'_>,
    heap: &mut LazyHeap,
    name: &str,
    ty: &JType,
    receiver: bool,
) -> Result<(LRef, Vec<Term>)> {
    if receiver {
        let kind = fresh_kinds(cx, ty)
            .into_iter()
            .next()
            .ok_or_else(|| Error::Usage(format!("the receiver type {ty} has no concrete class to instantiate")))?;
        let (obj, _) = Obj::input(cx.table, cx.terms, kind, name.to_string(), cx.config.bounds.max_array_length);
        return Ok((LRef::Obj(heap.add_input(obj)), Vec::new()));
    }
    heap.params.push(AbsSlot { name: name.to_string(), ty: ty.clone(), bound: None, non_null: false });
    Ok((LRef::Abs(heap.params.len() as u32 - 1), Vec::new()))
}

pub fn alloc(cx: &mut Ctx<'_>, heap: &mut LazyHeap, kind: ObjKind, len: Option<Term>) -> LRef {
    heap.allocs += 1;
    let obj = Obj::allocated(cx.table, cx.terms, kind, len, format!("new{}", heap.allocs), LRef::Null);
    heap.objs.push(obj);
    LRef::Obj(ObjId(heap.objs.len() as u32 - 1))
}

pub fn null_split(cx: &mut Ctx<'_>, heap: &LazyHeap, r: &LRef) -> Result<Vec<Alt<LazyHeap, Nullness>>> {
    each(
        cx,
        heap,
        r,
        |_, h, chosen| Ok(vec![Alt::plain(h, if chosen == LRef::Null { Nullness::Null } else { Nullness::NonNull })]),
        || Nullness::NonNull,
    )
}

pub fn ref_eq(cx: &mut Ctx<'_>, heap: &LazyHeap, a: &LRef, b: &LRef) -> Result<Vec<Alt<LazyHeap, Test>>> {
    let b = b.clone();
    each(
        cx,
        heap,
        a,
        |cx, h, ra| {
            each(cx, &h, &b, |_, h2, rb| Ok(vec![Alt::plain(h2, Test::Known(ra == rb))]), || Test::Known(false))
        },
        || Test::Known(false),
    )
}

pub fn classes(cx: &mut Ctx<'_>, heap: &LazyHeap, r: &LRef) -> Result<Vec<Alt<LazyHeap, Vec<(ObjKind, Term)>>>> {
    each(
        cx,
        heap,
        r,
        |cx, h, chosen| {
            let LRef::Obj(id) = chosen else { return Err(internal("class of null".into())) };
            let kind = h.obj(id)?.kind.clone();
            let t = cx.terms.tru();
            Ok(vec![Alt::plain(h, vec![(kind, t)])])
        },
        Vec::new,
    )
}

pub fn get_field(cx: &mut Ctx<'_>, heap: &LazyHeap, r: &LRef, f: FieldId) -> Result<Vec<Alt<LazyHeap, Value<LRef>>>> {
    let null = LRef::Null;
    each(
        cx,
        heap,
        r,
        |cx, h, chosen| {
            let LRef::Obj(id) = chosen else { return Err(internal("field read of null".into())) };
            let field = cx.table.field(f).clone();
            let obj = h.obj(id)?;
            let slot = obj.fields.get(&f).cloned().unwrap_or(Slot::Val(default_value(cx.terms, &field.ty, LRef::Null)));
            let name = crate::heap::field_symbol(cx.table, &obj.name, obj.kind.class(), f);
            read_slot(cx, h, slot, &field.ty, &name, |h, v| {
                let o = h.obj_mut(id)?;
                o.fields.insert(f, Slot::Val(v.clone()));
                o.initial.insert(f, v);
                Ok(())
            })
        },
        || Value::Ref(null.clone()),
    )
}

pub fn put_field(
    cx: &mut Ctx<'_>,
    heap: &LazyHeap,
    r: &LRef,
    f: FieldId,
    v: Value<LRef>,
) -> Result<Vec<Alt<LazyHeap, ()>>> {
    each(
        cx,
        heap,
        r,
        |_, mut h, chosen| {
            let LRef::Obj(id) = chosen else { return Err(internal("field write of null".into())) };
            h.obj_mut(id)?.fields.insert(f, Slot::Val(v.clone()));
            Ok(vec![Alt::plain(h, ())])
        },
        || (),
    )
}

pub fn get_static(cx: &mut Ctx<'_>, heap: &LazyHeap, f: FieldId) -> Result<Vec<Alt<LazyHeap, Value<LRef>>>> {
    let field = cx.table.field(f).clone();
    let slot = match heap.statics.get(&f) {
        Some(s) => s.clone(),
        None if cx.config.symbolic_statics => Slot::Uninit,
        None => Slot::Val(default_value(cx.terms, &field.ty, LRef::Null)),
    };
    let name = format!("{}.{}", cx.table.class(field.owner).java_name(), field.name);
    let mut alts = read_slot(cx, heap.clone(), slot, &field.ty, &name, |h, v| {
        h.statics.insert(f, Slot::Val(v.clone()));
        Ok(())
    })?;
    for a in &mut alts {
        a.heap.statics.entry(f).or_insert_with(|| Slot::Val(a.value.clone()));
    }
    Ok(alts)
}

pub fn put_static(_cx: &mut Ctx<'_>, heap: &LazyHeap, f: FieldId, v: Value<LRef>) -> Result<LazyHeap> {
    let mut h = heap.clone();
    h.statics.insert(f, Slot::Val(v));
    Ok(h)
}

pub fn array_length(cx: &mut Ctx<'_>, heap: &LazyHeap, r: &LRef) -> Result<Vec<Alt<LazyHeap, Term>>> {
    let zero = cx.terms.int(0);
    each(
        cx,
        heap,
        r,
        |_, h, chosen| {
            let LRef::Obj(id) = chosen else { return Err(internal("length of null".into())) };
            let len = h
                .obj(id)?
                .array
                .as_ref()
                .map(|a| a.len.clone())
                .ok_or_else(|| internal("length of a non-array".into()))?;
            Ok(vec![Alt::plain(h, len)])
        },
        || zero.clone(),
    )
}

pub fn array_load(cx: &mut Ctx<'_>, heap: &LazyHeap, r: &LRef, idx: &Term) -> Result<Vec<Alt<LazyHeap, Value<LRef>>>> {
    each(
        cx,
        heap,
        r,
        |cx, h, chosen| {
            let LRef::Obj(id) = chosen else { return Err(internal("load from null".into())) };
            let obj = h.obj(id)?;
            let ObjKind::Array(elem) = obj.kind.clone() else {
                return Err(internal("load from a non-array".into()));
            };
            let arr = obj.array.as_ref().ok_or_else(|| internal("array without contents".into()))?;
            if let Some(p) = &arr.prims {
                let v = p.load(cx.terms, idx);
                let v = if elem.is_wide() { Value::Long(v) } else { Value::Int(v) };
                return Ok(vec![Alt::plain(h, v)]);
            }
            let k = idx.as_i64().ok_or_else(|| internal("symbolic index into a reference array".into()))?;
            let slot = match arr.refs.get(&k) {
                Some(s) => s.clone(),
                None if obj.input => Slot::Uninit,
                None => Slot::Val(Value::Ref(LRef::Null)),
            };
            let name = format!("{}[{k}]", obj.name);
            read_slot(cx, h, slot, &elem, &name, |h, v| {
                let a = h.obj_mut(id)?.array.as_mut().ok_or_else(|| internal("array vanished".into()))?;
                a.refs.insert(k, Slot::Val(v.clone()));
                a.initial_refs.insert(k, v);
                Ok(())
            })
        },
        || Value::Ref(LRef::Null),
    )
}

pub fn array_store(
    cx: &mut Ctx<'_>,
    heap: &LazyHeap,
    r: &LRef,
    idx: &Term,
    v: Value<LRef>,
) -> Result<Vec<Alt<LazyHeap, ()>>> {
    each(
        cx,
        heap,
        r,
        |_, mut h, chosen| {
            let LRef::Obj(id) = chosen else { return Err(internal("store into null".into())) };
            let arr = h.obj_mut(id)?.array.as_mut().ok_or_else(|| internal("store into a non-array".into()))?;
            match (&mut arr.prims, &v) {
                (Some(p), Value::Int(t) | Value::Long(t)) => p.store(idx.clone(), t.clone()),
                (None, Value::Ref(_)) => {
                    let k = idx.as_i64().ok_or_else(|| internal("symbolic index into a reference array".into()))?;
                    arr.refs.insert(k, Slot::Val(v.clone()));
                }
                _ => return Err(internal("array store of the wrong kind".into())),
            }
            Ok(vec![Alt::plain(h, ())])
        },
        || (),
    )
}

pub fn concretize(
    cx: &mut Ctx<'_>,
    heap: &LazyHeap,
    model: &Assignment,
    values: &mut dyn FnMut(&[Term]) -> Option<Vec<Val>>,
    roots: Roots<'_, LRef>,
) -> Result<Concrete> {
    super::concrete::concretize_graph(cx, heap, model, values, roots)
}

pub fn dot(cx: &mut Ctx<'_>, heap: &LazyHeap) -> String {
    super::concrete::dot_graph(cx, heap)
}

/// The input heap of a graph: every input object as it was before the run (see
/// [`crate::heap::objects::Obj::as_input`]); parameters keep what they were bound to.
pub fn input_view(heap: &LazyHeap) -> LazyHeap {
    let mut h = heap.clone();
    h.objs = heap.objs.iter().map(|o| o.as_input()).collect();
    h
}
