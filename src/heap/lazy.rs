//! Lazy initialization as Symbolic PathFinder does it (Khurshid, Păsăreanu, Visser 2003).
//!
//! Reading a reference field of an input object that was never read before materializes it
//! at once, forking one alternative per choice: `null`, an alias of every type-compatible
//! input object already materialized on this trace (the receiver included), and a fresh
//! object of the declared type. A reference parameter is materialized the same way at its
//! first use (a comparison or a dereference; a copy is not a use). Primitive fields become
//! fresh symbols. The resulting heap is concrete, so every later operation is exact.

use super::Roots;
use std::collections::BTreeMap;

use super::objects::{Obj, ObjId, Slot, default_value, fresh_prim};
use super::{Alt, Concrete, Ctx, HeapStrategy, Nullness, ObjKind, Test, Value, compatible, fresh_kinds};
use crate::classfile::{FieldId, JType};
use crate::term::{Assignment, Term, Val};
use crate::{Error, Result};

/// The lazy-initialization strategy.
#[derive(Debug, Clone, Copy, Default)]
pub struct Lazy;

/// A reference under lazy initialization.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LRef {
    Null,
    Obj(ObjId),
    /// An abstract input reference, materialized at its first use (see [`LazyHeap::params`]):
    /// a reference parameter under lazy initialization; any input reference under lazier#.
    Abs(u32),
}

/// An abstract input reference: declared type and, once used, what it was materialized to.
#[derive(Debug, Clone, PartialEq)]
pub struct AbsSlot {
    pub name: String,
    pub ty: JType,
    pub bound: Option<LRef>,
    /// Known not to be null (lazier# after a null test), though not yet materialized.
    pub non_null: bool,
}

/// The materialized heap of one trace.
#[derive(Debug, Clone, Default)]
pub struct LazyHeap {
    pub objs: Vec<Obj<LRef>>,
    pub params: Vec<AbsSlot>,
    /// Input objects in materialization order (the alias candidates).
    pub inputs: Vec<ObjId>,
    pub statics: BTreeMap<FieldId, Slot<LRef>>,
    /// Counters for stable names: `o1, o2, ...` for fresh inputs, `new1, ...` for allocations.
    pub fresh: u32,
    pub allocs: u32,
}

impl LazyHeap {
    pub fn obj(&self, id: ObjId) -> Result<&Obj<LRef>> {
        self.objs.get(id.0 as usize).ok_or_else(|| internal(format!("no object {id:?}")))
    }
    fn obj_mut(&mut self, id: ObjId) -> Result<&mut Obj<LRef>> {
        self.objs.get_mut(id.0 as usize).ok_or_else(|| internal(format!("no object {id:?}")))
    }

    /// Follows a materialized parameter to what it is bound to.
    pub fn follow(&self, r: &LRef) -> LRef {
        let mut r = r.clone();
        while let LRef::Abs(k) = r {
            match self.params.get(k as usize).and_then(|p| p.bound.clone()) {
                Some(b) => r = b,
                None => break,
            }
        }
        r
    }

    /// Adds an input object and returns its id.
    pub fn add_input(&mut self, obj: Obj<LRef>) -> ObjId {
        let id = ObjId(self.objs.len() as u32);
        self.objs.push(obj);
        self.inputs.push(id);
        id
    }
}

fn internal(msg: String) -> Error {
    Error::Usage(format!("internal error in lazy heap: {msg}"))
}

/// One materialization choice: heap, constraints, chosen reference, and a bound cut.
type Choice = (LazyHeap, Vec<Term>, LRef, Option<String>);

impl Lazy {
    /// The choices for an input reference of declared type `ty`: null, every compatible
    /// materialized input object, and a fresh object (or a cut when `--max-objects` is reached).
    pub fn choices(cx: &mut Ctx<'_>, heap: &LazyHeap, ty: &JType, allow_null: bool) -> Vec<Choice> {
        let mut out: Vec<Choice> = Vec::new();
        if allow_null {
            out.push((heap.clone(), Vec::new(), LRef::Null, None));
        }
        for id in &heap.inputs {
            if let Some(o) = heap.objs.get(id.0 as usize)
                && compatible(cx.table, &o.kind, ty)
            {
                out.push((heap.clone(), Vec::new(), LRef::Obj(*id), None));
            }
        }
        for kind in fresh_kinds(cx.table, ty) {
            if heap.inputs.len() as u32 >= cx.config.bounds.max_objects {
                out.push((
                    heap.clone(),
                    Vec::new(),
                    LRef::Null,
                    Some(format!("max-objects ({})", cx.config.bounds.max_objects)),
                ));
                continue;
            }
            let mut h = heap.clone();
            h.fresh += 1;
            let (obj, assume) =
                Obj::input(cx.table, cx.terms, kind, format!("o{}", h.fresh), cx.config.bounds.max_array_length);
            let id = h.add_input(obj);
            out.push((h, assume, LRef::Obj(id), None));
        }
        out
    }

    /// Resolves `r` to null or an object, materializing an unused parameter (forking).
    pub fn resolve(cx: &mut Ctx<'_>, heap: &LazyHeap, r: &LRef) -> Result<Vec<Choice>> {
        match heap.follow(r) {
            LRef::Abs(k) => {
                let p = heap.params.get(k as usize).cloned().ok_or_else(|| internal(format!("no parameter {k}")))?;
                let mut out = Vec::new();
                for (mut h, assume, chosen, cut) in Lazy::choices(cx, heap, &p.ty, !p.non_null) {
                    if let Some(slot) = h.params.get_mut(k as usize) {
                        slot.bound = Some(chosen.clone());
                    }
                    out.push((h, assume, chosen, cut));
                }
                Ok(out)
            }
            other => Ok(vec![(heap.clone(), Vec::new(), other, None)]),
        }
    }

    /// Resolves `r`, then runs `f` on each non-cut alternative.
    pub fn each<T>(
        cx: &mut Ctx<'_>,
        heap: &LazyHeap,
        r: &LRef,
        mut f: impl FnMut(&mut Ctx<'_>, LazyHeap, LRef) -> Result<Vec<Alt<LazyHeap, T>>>,
        cut_value: impl Fn() -> T,
    ) -> Result<Vec<Alt<LazyHeap, T>>> {
        let mut out = Vec::new();
        for (h, assume, chosen, cut) in Lazy::resolve(cx, heap, r)? {
            if cut.is_some() {
                out.push(Alt { heap: h, assume, value: cut_value(), cut });
                continue;
            }
            for mut alt in f(cx, h, chosen)? {
                let mut a = assume.clone();
                a.append(&mut alt.assume);
                alt.assume = a;
                out.push(alt);
            }
        }
        Ok(out)
    }

    /// Reads a slot, materializing it if it was never read: the shared rule of fields,
    /// statics and reference array elements of input objects.
    pub fn read_slot(
        cx: &mut Ctx<'_>,
        heap: LazyHeap,
        slot: Slot<LRef>,
        ty: &JType,
        name: &str,
        write: impl Fn(&mut LazyHeap, Value<LRef>) -> Result<()>,
    ) -> Result<Vec<Alt<LazyHeap, Value<LRef>>>> {
        match slot {
            Slot::Val(v) => Ok(vec![Alt::plain(heap, v)]),
            Slot::Uninit if !ty.is_reference() => {
                let (v, assume) = fresh_prim(cx.terms, ty, name);
                let mut h = heap;
                write(&mut h, v.clone())?;
                Ok(vec![Alt { heap: h, assume, value: v, cut: None }])
            }
            Slot::Uninit => {
                let mut out = Vec::new();
                for (mut h, assume, chosen, cut) in Lazy::choices(cx, &heap, ty, true) {
                    let v = Value::Ref(chosen);
                    if cut.is_none() {
                        write(&mut h, v.clone())?;
                    }
                    out.push(Alt { heap: h, assume, value: v, cut });
                }
                Ok(out)
            }
        }
    }

    /// The heap that replays a concrete input: every input object built, every field set.
    pub fn replay_heap(cx: &mut Ctx<'_>, input: &Concrete) -> (LazyHeap, Vec<Value<LRef>>) {
        super::replay::build(cx, input)
    }
}

impl HeapStrategy for Lazy {
    type Ref = LRef;
    type Heap = LazyHeap;

    fn name(&self) -> &'static str {
        "lazy"
    }

    fn new_heap(&self, _cx: &mut Ctx<'_>) -> LazyHeap {
        LazyHeap::default()
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
        if receiver {
            let kind = fresh_kinds(cx.table, ty)
                .into_iter()
                .next()
                .ok_or_else(|| Error::Usage(format!("the receiver type {ty} has no concrete class to instantiate")))?;
            let (obj, _) = Obj::input(cx.table, cx.terms, kind, name.to_string(), cx.config.bounds.max_array_length);
            return Ok((LRef::Obj(heap.add_input(obj)), Vec::new()));
        }
        heap.params.push(AbsSlot { name: name.to_string(), ty: ty.clone(), bound: None, non_null: false });
        Ok((LRef::Abs(heap.params.len() as u32 - 1), Vec::new()))
    }

    fn alloc(&self, cx: &mut Ctx<'_>, heap: &mut LazyHeap, kind: ObjKind, len: Option<Term>) -> LRef {
        heap.allocs += 1;
        let obj = Obj::allocated(cx.table, cx.terms, kind, len, format!("new{}", heap.allocs), LRef::Null);
        heap.objs.push(obj);
        LRef::Obj(ObjId(heap.objs.len() as u32 - 1))
    }

    fn null_split(&self, cx: &mut Ctx<'_>, heap: &LazyHeap, r: &LRef) -> Result<Vec<Alt<LazyHeap, Nullness>>> {
        Lazy::each(
            cx,
            heap,
            r,
            |_, h, chosen| {
                Ok(vec![Alt::plain(h, if chosen == LRef::Null { Nullness::Null } else { Nullness::NonNull })])
            },
            || Nullness::NonNull,
        )
    }

    fn ref_eq(&self, cx: &mut Ctx<'_>, heap: &LazyHeap, a: &LRef, b: &LRef) -> Result<Vec<Alt<LazyHeap, Test>>> {
        let b = b.clone();
        Lazy::each(
            cx,
            heap,
            a,
            |cx, h, ra| {
                Lazy::each(
                    cx,
                    &h,
                    &b,
                    |_, h2, rb| Ok(vec![Alt::plain(h2, Test::Known(ra == rb))]),
                    || Test::Known(false),
                )
            },
            || Test::Known(false),
        )
    }

    fn classes(&self, cx: &mut Ctx<'_>, heap: &LazyHeap, r: &LRef) -> Result<Vec<Alt<LazyHeap, Vec<(ObjKind, Term)>>>> {
        Lazy::each(
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

    fn get_field(
        &self,
        cx: &mut Ctx<'_>,
        heap: &LazyHeap,
        r: &LRef,
        f: FieldId,
    ) -> Result<Vec<Alt<LazyHeap, Value<LRef>>>> {
        let null = LRef::Null;
        Lazy::each(
            cx,
            heap,
            r,
            |cx, h, chosen| {
                let LRef::Obj(id) = chosen else { return Err(internal("field read of null".into())) };
                let field = cx.table.field(f).clone();
                let obj = h.obj(id)?;
                let slot =
                    obj.fields.get(&f).cloned().unwrap_or(Slot::Val(default_value(cx.terms, &field.ty, LRef::Null)));
                let name = format!("{}.{}", obj.name, field.name);
                Lazy::read_slot(cx, h, slot, &field.ty, &name, |h, v| {
                    let o = h.obj_mut(id)?;
                    o.fields.insert(f, Slot::Val(v.clone()));
                    o.initial.insert(f, v);
                    Ok(())
                })
            },
            || Value::Ref(null.clone()),
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
        Lazy::each(
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

    fn get_static(&self, cx: &mut Ctx<'_>, heap: &LazyHeap, f: FieldId) -> Result<Vec<Alt<LazyHeap, Value<LRef>>>> {
        let field = cx.table.field(f).clone();
        let slot = match heap.statics.get(&f) {
            Some(s) => s.clone(),
            None if cx.config.symbolic_statics => Slot::Uninit,
            None => Slot::Val(default_value(cx.terms, &field.ty, LRef::Null)),
        };
        let name = format!("{}.{}", cx.table.class(field.owner).java_name(), field.name);
        let mut alts = Lazy::read_slot(cx, heap.clone(), slot, &field.ty, &name, |h, v| {
            h.statics.insert(f, Slot::Val(v.clone()));
            Ok(())
        })?;
        for a in &mut alts {
            a.heap.statics.entry(f).or_insert_with(|| Slot::Val(a.value.clone()));
        }
        Ok(alts)
    }

    fn put_static(&self, _cx: &mut Ctx<'_>, heap: &LazyHeap, f: FieldId, v: Value<LRef>) -> Result<LazyHeap> {
        let mut h = heap.clone();
        h.statics.insert(f, Slot::Val(v));
        Ok(h)
    }

    fn array_length(&self, cx: &mut Ctx<'_>, heap: &LazyHeap, r: &LRef) -> Result<Vec<Alt<LazyHeap, Term>>> {
        let zero = cx.terms.int(0);
        Lazy::each(
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

    fn array_load(
        &self,
        cx: &mut Ctx<'_>,
        heap: &LazyHeap,
        r: &LRef,
        idx: &Term,
    ) -> Result<Vec<Alt<LazyHeap, Value<LRef>>>> {
        Lazy::each(
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
                    let v = if elem == JType::Long { Value::Long(v) } else { Value::Int(v) };
                    return Ok(vec![Alt::plain(h, v)]);
                }
                let k = idx.as_i64().ok_or_else(|| internal("symbolic index into a reference array".into()))?;
                let slot = match arr.refs.get(&k) {
                    Some(s) => s.clone(),
                    None if obj.input => Slot::Uninit,
                    None => Slot::Val(Value::Ref(LRef::Null)),
                };
                let name = format!("{}[{k}]", obj.name);
                Lazy::read_slot(cx, h, slot, &elem, &name, |h, v| {
                    let a = h.obj_mut(id)?.array.as_mut().ok_or_else(|| internal("array vanished".into()))?;
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
        Lazy::each(
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

    fn concretize(
        &self,
        cx: &mut Ctx<'_>,
        heap: &LazyHeap,
        model: &Assignment,
        values: &mut dyn FnMut(&[Term]) -> Option<Vec<Val>>,
        roots: Roots<'_, LRef>,
    ) -> Result<Concrete> {
        super::replay::concretize_graph(cx, heap, model, values, roots)
    }

    fn dot(&self, cx: &mut Ctx<'_>, heap: &LazyHeap) -> String {
        super::replay::dot_graph(cx, heap)
    }
}
