//! The lazy heap graph (`LazyHeap`, `LRef`) and the lazy-initialization rule that binds its input references.

use std::collections::BTreeMap;

use crate::classfile::{FieldId, JType};
use crate::cut::CutReason;
use crate::heap::objects::{Obj, ObjId, Slot, fresh_prim};
use crate::heap::{Alt, Ctx, Value, compatible, fresh_kinds};
use crate::term::Term;
use crate::{Error, Result};

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
    pub(super) fn obj_mut(&mut self, id: ObjId) -> Result<&mut Obj<LRef>> {
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

pub(super) fn internal(msg: String) -> Error {
    Error::Usage(format!("internal error in lazy heap: {msg}"))
}

/// One materialization choice: heap, constraints, chosen reference, and a bound cut.
type Choice = (LazyHeap, Vec<Term>, LRef, Option<CutReason>);

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
    for kind in fresh_kinds(cx, ty) {
        if heap.inputs.len() as u32 >= cx.config.bounds.max_objects {
            out.push((heap.clone(), Vec::new(), LRef::Null, Some(CutReason::MaxObjects(cx.config.bounds.max_objects))));
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
            for (mut h, assume, chosen, cut) in choices(cx, heap, &p.ty, !p.non_null) {
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
    for (h, assume, chosen, cut) in resolve(cx, heap, r)? {
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
            for (mut h, assume, chosen, cut) in choices(cx, &heap, ty, true) {
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
