//! Lazy initialization as Symbolic PathFinder does it (Khurshid, Păsăreanu, Visser 2003).
//!
//! Reading a reference field of an input object that was never read before materializes it
//! at once, forking one alternative per choice: `null`, an alias of every type-compatible
//! input object already materialized on this trace (the receiver included), and a fresh
//! object of the declared type. A reference parameter is materialized the same way at its
//! first use (a comparison or a dereference; a copy is not a use). Primitive fields become
//! fresh symbols. The resulting heap is concrete, so every later operation is exact.
//!
//! The object graph, the rule and the operations are [`crate::heap::graph`]'s, which
//! lazier# shares; this strategy applies them at every read.

use crate::Result;
use crate::classfile::{FieldId, JType};
use crate::heap::graph::{LRef, LazyHeap, ops};
use crate::heap::{Alt, Concrete, Ctx, HeapStrategy, Nullness, ObjKind, Roots, Test, Value};
use crate::term::{Assignment, Term, Val};

/// The lazy-initialization strategy.
#[derive(Debug, Clone, Copy, Default)]
pub struct Lazy;

impl HeapStrategy for Lazy {
    type Ref = LRef;
    type Heap = LazyHeap;

    fn name(&self) -> &'static str {
        "lazy"
    }

    fn new_heap(&self, cx: &mut Ctx<'_>) -> LazyHeap {
        ops::new_heap(cx)
    }

    fn null(&self, cx: &mut Ctx<'_>) -> LRef {
        ops::null(cx)
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

    fn null_split(&self, cx: &mut Ctx<'_>, heap: &LazyHeap, r: &LRef) -> Result<Vec<Alt<LazyHeap, Nullness>>> {
        ops::null_split(cx, heap, r)
    }

    fn ref_eq(&self, cx: &mut Ctx<'_>, heap: &LazyHeap, a: &LRef, b: &LRef) -> Result<Vec<Alt<LazyHeap, Test>>> {
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
        ops::get_field(cx, heap, r, f)
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
        ops::get_static(cx, heap, f)
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
        ops::array_load(cx, heap, r, idx)
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
