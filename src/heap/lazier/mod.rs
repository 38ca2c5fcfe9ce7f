//! Lazier# initialization (Deng, Lee, Robby): input references stay abstract until needed.
//!
//! Reading a reference field of an input object yields a new *abstract* reference without
//! forking, and copying it around costs nothing. A comparison with `null` splits an abstract
//! reference into null / non-null only. A use that needs the object itself (a field access,
//! a comparison with another object, a type test) falls back to the lazy choices: an alias
//! of each compatible materialized input object or a fresh one (and `null` unless the
//! reference is already known to be non-null). The object graph is the lazy one.

use crate::classfile::{FieldId, JType};
use crate::heap::graph::{AbsSlot, LRef, LazyHeap, each, ops};
use crate::heap::objects::{Slot, default_value, fresh_prim};
use crate::heap::{Alt, Concrete, Ctx, HeapStrategy, Nullness, ObjKind, Roots, Test, Value};
use crate::term::{Assignment, Term, Val};
use crate::{Error, Result};

/// The lazier# strategy.
#[derive(Debug, Clone, Copy, Default)]
pub struct Lazier;

fn internal(msg: &str) -> Error {
    Error::Usage(format!("internal error in the lazier# heap: {msg}"))
}

impl Lazier {
    /// A new abstract input reference of declared type `ty`.
    fn abstract_ref(heap: &mut LazyHeap, name: String, ty: &JType) -> LRef {
        heap.params.push(AbsSlot { name, ty: ty.clone(), bound: None, non_null: false });
        LRef::Abs(heap.params.len() as u32 - 1)
    }

    /// Splits an abstract reference of unknown nullness into null / non-null (no object yet).
    fn null_or_not(heap: &LazyHeap, k: u32) -> Vec<(LazyHeap, bool)> {
        let mut null = heap.clone();
        let mut non = heap.clone();
        if let Some(s) = null.params.get_mut(k as usize) {
            s.bound = Some(LRef::Null);
        }
        if let Some(s) = non.params.get_mut(k as usize) {
            s.non_null = true;
        }
        vec![(null, true), (non, false)]
    }

    /// Whether `r` is an abstract reference that is neither bound nor known non-null.
    fn unknown_nullness(heap: &LazyHeap, r: &LRef) -> Option<u32> {
        match heap.follow(r) {
            LRef::Abs(k) => heap.params.get(k as usize).filter(|s| s.bound.is_none() && !s.non_null).map(|_| k),
            _ => None,
        }
    }

    /// Reads a slot of an input object: references become abstract, numbers fresh symbols.
    fn read_abstract(
        cx: &mut Ctx<'_>,
        mut heap: LazyHeap,
        slot: Slot<LRef>,
        ty: &JType,
        name: &str,
        write: impl Fn(&mut LazyHeap, Value<LRef>) -> Result<()>,
    ) -> Result<Vec<Alt<LazyHeap, Value<LRef>>>> {
        match slot {
            Slot::Val(v) => Ok(vec![Alt::plain(heap, v)]),
            Slot::Uninit if ty.is_reference() => {
                let r = Lazier::abstract_ref(&mut heap, name.to_string(), ty);
                write(&mut heap, Value::Ref(r.clone()))?;
                Ok(vec![Alt::plain(heap, Value::Ref(r))])
            }
            Slot::Uninit => {
                let (v, assume) = fresh_prim(cx.terms, ty, name);
                write(&mut heap, v.clone())?;
                Ok(vec![Alt { heap, assume, value: v, cut: None }])
            }
        }
    }
}

impl HeapStrategy for Lazier {
    type Ref = LRef;
    type Heap = LazyHeap;

    fn name(&self) -> &'static str {
        "lazier"
    }

    fn new_heap(&self, cx: &mut Ctx<'_>) -> LazyHeap {
        ops::new_heap(cx)
    }

    fn null(&self, _cx: &mut Ctx<'_>) -> LRef {
        LRef::Null
    }

    fn input(
        &self,
        cx: &mut Ctx<'_>,
        heap: &mut LazyHeap,
        name: &str,
        ty: &JType,
        receiver: bool,
    ) -> Result<(LRef, Vec<Term>)> {
        ops::input(cx, heap, name, ty, receiver)
    }

    fn alloc(&self, cx: &mut Ctx<'_>, heap: &mut LazyHeap, kind: ObjKind, len: Option<Term>) -> Result<LRef> {
        Ok(ops::alloc(cx, heap, kind, len))
    }

    fn null_split(&self, _cx: &mut Ctx<'_>, heap: &LazyHeap, r: &LRef) -> Result<Vec<Alt<LazyHeap, Nullness>>> {
        if let Some(k) = Lazier::unknown_nullness(heap, r) {
            return Ok(Lazier::null_or_not(heap, k)
                .into_iter()
                .map(|(h, null)| Alt::plain(h, if null { Nullness::Null } else { Nullness::NonNull }))
                .collect());
        }
        match heap.follow(r) {
            LRef::Null => Ok(vec![Alt::plain(heap.clone(), Nullness::Null)]),
            LRef::Obj(_) | LRef::Abs(_) => Ok(vec![Alt::plain(heap.clone(), Nullness::NonNull)]),
        }
    }

    fn ref_eq(&self, cx: &mut Ctx<'_>, heap: &LazyHeap, a: &LRef, b: &LRef) -> Result<Vec<Alt<LazyHeap, Test>>> {
        let (fa, fb) = (heap.follow(a), heap.follow(b));
        if fa == fb {
            return Ok(vec![Alt::plain(heap.clone(), Test::Known(true))]);
        }
        // A comparison with null only needs nullness.
        let null_side = match (&fa, &fb) {
            (LRef::Null, other) | (other, LRef::Null) => Some(other.clone()),
            _ => None,
        };
        if let Some(other) = null_side {
            if let Some(k) = Lazier::unknown_nullness(heap, &other) {
                return Ok(Lazier::null_or_not(heap, k)
                    .into_iter()
                    .map(|(h, null)| Alt::plain(h, Test::Known(null)))
                    .collect());
            }
            return Ok(vec![Alt::plain(heap.clone(), Test::Known(false))]);
        }
        // Two non-null references: the objects are needed (the lazy fallback).
        ops::ref_eq(cx, heap, a, b)
    }

    fn classes(&self, cx: &mut Ctx<'_>, heap: &LazyHeap, r: &LRef) -> Result<Vec<Alt<LazyHeap, Vec<(ObjKind, Term)>>>> {
        ops::classes(cx, heap, r)
    }

    fn get_field(
        &self,
        cx: &mut Ctx<'_>,
        heap: &LazyHeap,
        r: &LRef,
        f: FieldId,
    ) -> Result<Vec<Alt<LazyHeap, Value<LRef>>>> {
        each(
            cx,
            heap,
            r,
            |cx, h, chosen| {
                let LRef::Obj(id) = chosen else { return Err(internal("field read of null")) };
                let field = cx.table.field(f).clone();
                let obj = h.obj(id)?;
                let slot =
                    obj.fields.get(&f).cloned().unwrap_or(Slot::Val(default_value(cx.terms, &field.ty, LRef::Null)));
                let name = crate::heap::field_symbol(cx.table, &obj.name, obj.kind.class(), f);
                Lazier::read_abstract(cx, h, slot, &field.ty, &name, |h, v| {
                    let o = h.objs.get_mut(id.0 as usize).ok_or_else(|| internal("object vanished"))?;
                    o.fields.insert(f, Slot::Val(v.clone()));
                    o.initial.insert(f, v);
                    Ok(())
                })
            },
            || Value::Ref(LRef::Null),
        )
    }

    fn put_field(
        &self,
        cx: &mut Ctx<'_>,
        heap: &LazyHeap,
        r: &LRef,
        f: FieldId,
        v: Value<LRef>,
    ) -> Result<Vec<Alt<LazyHeap, ()>>> {
        ops::put_field(cx, heap, r, f, v)
    }

    fn get_static(&self, cx: &mut Ctx<'_>, heap: &LazyHeap, f: FieldId) -> Result<Vec<Alt<LazyHeap, Value<LRef>>>> {
        let field = cx.table.field(f).clone();
        if heap.statics.contains_key(&f) || !cx.config.symbolic_statics {
            return ops::get_static(cx, heap, f);
        }
        let name = format!("{}.{}", cx.table.class(field.owner).java_name(), field.name);
        Lazier::read_abstract(cx, heap.clone(), Slot::Uninit, &field.ty, &name, |h, v| {
            h.statics.insert(f, Slot::Val(v));
            Ok(())
        })
    }

    fn put_static(&self, cx: &mut Ctx<'_>, heap: &LazyHeap, f: FieldId, v: Value<LRef>) -> Result<LazyHeap> {
        ops::put_static(cx, heap, f, v)
    }

    fn array_length(&self, cx: &mut Ctx<'_>, heap: &LazyHeap, r: &LRef) -> Result<Vec<Alt<LazyHeap, Term>>> {
        ops::array_length(cx, heap, r)
    }

    fn array_load(
        &self,
        cx: &mut Ctx<'_>,
        heap: &LazyHeap,
        r: &LRef,
        idx: &Term,
    ) -> Result<Vec<Alt<LazyHeap, Value<LRef>>>> {
        each(
            cx,
            heap,
            r,
            |cx, h, chosen| {
                let LRef::Obj(id) = chosen else { return Err(internal("load from null")) };
                let obj = h.obj(id)?;
                let ObjKind::Array(elem) = obj.kind.clone() else { return Err(internal("load from a non-array")) };
                let arr = obj.array.as_ref().ok_or_else(|| internal("array without contents"))?;
                if arr.prims.is_some() || !obj.input {
                    return ops::array_load(cx, &h, &LRef::Obj(id), idx);
                }
                let k = idx.as_i64().ok_or_else(|| internal("symbolic index into a reference array"))?;
                let slot = arr.refs.get(&k).cloned().unwrap_or(Slot::Uninit);
                let name = format!("{}[{k}]", obj.name);
                Lazier::read_abstract(cx, h, slot, &elem, &name, |h, v| {
                    let a = h
                        .objs
                        .get_mut(id.0 as usize)
                        .and_then(|o| o.array.as_mut())
                        .ok_or_else(|| internal("array vanished"))?;
                    a.refs.insert(k, Slot::Val(v.clone()));
                    a.initial_refs.insert(k, v);
                    Ok(())
                })
            },
            || Value::Ref(LRef::Null),
        )
    }

    fn array_store(
        &self,
        cx: &mut Ctx<'_>,
        heap: &LazyHeap,
        r: &LRef,
        idx: &Term,
        v: Value<LRef>,
    ) -> Result<Vec<Alt<LazyHeap, ()>>> {
        ops::array_store(cx, heap, r, idx, v)
    }

    fn concretize(
        &self,
        cx: &mut Ctx<'_>,
        heap: &LazyHeap,
        model: &Assignment,
        values: &mut dyn FnMut(&[Term]) -> Option<Vec<Val>>,
        roots: Roots<'_, LRef>,
    ) -> Result<Concrete> {
        ops::concretize(cx, heap, model, values, roots)
    }

    fn shape_choices(&self) -> bool {
        true
    }

    fn identity(&self, cx: &mut Ctx<'_>, heap: &LazyHeap, r: &LRef) -> Option<Term> {
        match heap.follow(r) {
            LRef::Obj(o) => Some(cx.terms.bv(32, i64::from(o.0) + 1)),
            LRef::Null | LRef::Abs(_) => None,
        }
    }

    fn input_view(&self, _cx: &mut Ctx<'_>, heap: &LazyHeap) -> Result<LazyHeap> {
        Ok(ops::input_view(heap))
    }

    fn preferences(&self, cx: &mut Ctx<'_>, heap: &LazyHeap, roots: Roots<'_, LRef>) -> Vec<Term> {
        crate::heap::graph::concrete::graph_preferences(cx, heap, roots)
    }

    fn dot(&self, cx: &mut Ctx<'_>, heap: &LazyHeap) -> String {
        ops::dot(cx, heap)
    }
}
