//! The POSE heap's state: the strategy's type, input symbols, allocated objects and the leaves of a reference term.

use std::collections::{BTreeMap, HashSet};
use std::rc::Rc;

use super::chain::KeyLog;
use crate::classfile::{FieldId, JType};
use crate::heap::objects::PrimElems;
use crate::heap::{Ctx, ObjKind, Value};
use crate::term::{Term, TermId};
use crate::{Error, Result};

/// The POSE strategy.
#[derive(Debug, Clone, Copy, Default)]
pub struct Pose;

/// References of allocated objects are `ALLOC_BASE + index`; input symbols stay below.
pub const ALLOC_BASE: i64 = 0x4000_0000;

/// What a symbol's object holds: fields, and the pseudo-fields of arrays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Key {
    Field(FieldId),
    Length,
    /// Contents of a primitive array (an array-sorted term).
    Elems,
    /// Element of a reference array at a concrete index.
    Elem(i64),
}

/// An input symbol `Y` and, once bound, its object `H(Y)`.
#[derive(Debug, Clone)]
pub struct Sym {
    pub name: String,
    pub var: Term,
    pub declared: JType,
    /// The index (in `PoseHeap::kinds`) of the class of the object `Y` denotes.
    pub class: Term,
    /// `Y` is a new object: non-null and unlike every earlier symbol.
    pub fresh: Term,
    /// `H(Y)`: current values of the initialized fields.
    pub fields: BTreeMap<Key, Value<Term>>,
    /// The fresh value `Z` each field got at initialization, with a sequence number.
    pub initial: BTreeMap<Key, (Value<Term>, u32)>,
}

/// An object allocated by the run.
#[derive(Debug, Clone)]
pub struct Alloc {
    pub kind: ObjKind,
    pub name: String,
    pub fields: BTreeMap<FieldId, Value<Term>>,
    pub len: Option<Term>,
    pub prims: Option<PrimElems>,
    pub refs: BTreeMap<i64, Term>,
}

/// The POSE heap of one trace.
#[derive(Debug, Clone, Default)]
pub struct PoseHeap {
    /// Shared between the heaps of a trace's forks until one of them changes a symbol.
    pub syms: Vec<Rc<Sym>>,
    pub allocs: Vec<Alloc>,
    /// Classes a symbol's class variable ranges over.
    pub kinds: Vec<ObjKind>,
    pub statics: BTreeMap<FieldId, Value<Term>>,
    pub seq: u32,
    /// Per key, the initializations and writes of symbols, from which reads build flat
    /// value chains.
    pub logs: BTreeMap<Key, KeyLog>,
    /// Per `k`, whether the first `objects_upto` symbols denote at least `k` objects, for
    /// `k` in `1..=max-objects` (see bound.rs).
    pub at_least: Vec<Term>,
    pub objects_upto: usize,
    /// A P-search's view: reads fork per target (pointwise.rs).
    pub pointwise: bool,
}

/// A leaf of a reference term.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Leaf {
    Null,
    Sym(usize),
    Alloc(usize),
}

pub(super) fn internal(msg: &str) -> Error {
    Error::Usage(format!("internal error in the POSE heap: {msg}"))
}

impl PoseHeap {
    pub(super) fn kind_index(&mut self, k: &ObjKind) -> i32 {
        match self.kinds.iter().position(|x| x == k) {
            Some(i) => i as i32,
            None => {
                self.kinds.push(k.clone());
                self.kinds.len() as i32 - 1
            }
        }
    }

    fn sym_of(&self, var: &Term) -> Option<usize> {
        self.syms.iter().position(|s| s.var == *var)
    }

    /// The distinct leaves of a reference term (depth first, then-branch first), each with
    /// the guard under which the reference denotes that leaf's object: `r == leaf`. Two
    /// symbols denote the same object exactly when they are equal, and equal symbols hold
    /// equal field values, so value equality is as good a guard as the (much larger)
    /// disjunction of the ite paths that select the leaf, and it stays linear in size.
    pub fn leaves(&self, cx: &mut Ctx<'_>, r: &Term) -> Result<Vec<(Term, Leaf)>> {
        let mut out: Vec<(Term, Leaf)> = Vec::new();
        let mut seen: HashSet<TermId> = HashSet::new();
        let mut stack: Vec<&Term> = vec![r];
        while let Some(t) = stack.pop() {
            if !seen.insert(t.id()) {
                continue;
            }
            let leaf = match t.node() {
                crate::term::Node::Ite(_, a, b) => {
                    stack.push(b);
                    stack.push(a);
                    continue;
                }
                crate::term::Node::Bv(..) => {
                    let v = t.as_i64().unwrap_or(0);
                    if v == 0 {
                        Leaf::Null
                    } else if v >= ALLOC_BASE {
                        Leaf::Alloc((v - ALLOC_BASE) as usize)
                    } else {
                        return Err(internal("a reference constant that is no object"));
                    }
                }
                crate::term::Node::Var(..) => match self.sym_of(t) {
                    Some(i) => Leaf::Sym(i),
                    None => return Err(internal("a reference variable that is no symbol")),
                },
                _ => return Err(internal("a reference term of unexpected shape")),
            };
            if !out.iter().any(|(_, l)| *l == leaf) {
                let g = cx.terms.eq(r, t);
                out.push((g, leaf));
            }
        }
        Ok(out)
    }
}
