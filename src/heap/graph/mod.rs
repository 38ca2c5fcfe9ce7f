//! The materialized object graph that lazy initialization and lazier# share, and its rule.
//!
//! Both strategies keep a concrete graph of input and allocated objects ([`LazyHeap`]); an
//! input reference is bound to null, to an object already in the graph, or to a fresh
//! object when it is first used ([`choices`], the lazy-initialization rule of Khurshid,
//! Păsăreanu and Visser). [`ops`] holds the heap operations over such a graph; the two
//! strategies differ only in *when* a reference is bound (`heap/lazy`: at the first read of
//! a field; `heap/lazier`: at the first use that needs the object). [`concrete`] turns a
//! graph into a trace's concrete heap, draws it, and rebuilds one from a concrete input for
//! `--check-models`.

pub mod concrete;
mod materialize;
pub mod ops;

pub use materialize::{AbsSlot, LRef, LazyHeap, choices, each, read_slot, resolve};

use crate::heap::{Concrete, Ctx, Value};

/// The heap that replays a concrete input: every input object built, every field set.
pub fn replay_heap(cx: &mut Ctx<'_>, input: &Concrete) -> (LazyHeap, Vec<Value<LRef>>) {
    concrete::build(cx, input)
}
