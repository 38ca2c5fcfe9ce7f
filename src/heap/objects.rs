//! Materialized objects and arrays, shared by the strategies that keep a concrete object graph
//! (lazy, lazier) and by the array contents of every strategy.

use std::collections::BTreeMap;

use crate::classfile::{ClassTable, FieldId, JType};
use crate::heap::{ObjKind, Value, fields_of};
use crate::term::{Sort, Term, TermPool};

/// Index of a materialized or allocated object in a strategy's object list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjId(pub u32);

/// A field of an object: a value, or (input objects only) not yet read.
#[derive(Debug, Clone, PartialEq)]
pub enum Slot<R> {
    Val(Value<R>),
    Uninit,
}

/// The contents of an array of primitives: an optional input array symbol and a log of
/// writes (index, value), newest last. Reads fold the log into if-then-else terms.
#[derive(Debug, Clone, PartialEq)]
pub struct PrimElems {
    /// The input contents (`a.elems`), or `None` for a new array (all zeros).
    pub base: Option<Term>,
    pub writes: Vec<(Term, Term)>,
    /// Element width: 32 (int-like) or 64 (long).
    pub width: u32,
}

impl PrimElems {
    pub fn new(base: Option<Term>, width: u32) -> Self {
        PrimElems { base, writes: Vec::new(), width }
    }

    /// The element at `idx`.
    pub fn load(&self, terms: &mut TermPool, idx: &Term) -> Term {
        let mut v = match &self.base {
            Some(b) => terms.select(b, idx),
            None => terms.bv(self.width, 0),
        };
        for (i, w) in &self.writes {
            let c = terms.eq(i, idx);
            v = terms.ite(&c, w, &v);
        }
        v
    }

    pub fn store(&mut self, idx: Term, v: Term) {
        self.writes.push((idx, v));
    }
}

/// Array state: length and elements.
#[derive(Debug, Clone, PartialEq)]
pub struct ArrayData<R> {
    pub len: Term,
    /// Elements of primitive arrays.
    pub prims: Option<PrimElems>,
    /// Elements of reference arrays, by concrete index; missing indices hold the default
    /// (`null` for new arrays, not-yet-read for input arrays).
    pub refs: BTreeMap<i64, Slot<R>>,
    /// The value each input array element had when first read (reference arrays).
    pub initial_refs: BTreeMap<i64, Value<R>>,
}

/// A materialized or allocated object.
#[derive(Debug, Clone, PartialEq)]
pub struct Obj<R> {
    pub kind: ObjKind,
    /// True for input objects (fields start not-yet-read); false for `new` objects.
    pub input: bool,
    pub name: String,
    pub fields: BTreeMap<FieldId, Slot<R>>,
    /// The value each field had when first read (input objects).
    pub initial: BTreeMap<FieldId, Value<R>>,
    pub array: Option<ArrayData<R>>,
}

impl<R: Clone> Obj<R> {
    /// A new object (`new C` / `new T[len]`) with default values.
    pub fn allocated(
        table: &ClassTable,
        terms: &mut TermPool,
        kind: ObjKind,
        len: Option<Term>,
        name: String,
        null: R,
    ) -> Self {
        let fields = fields_of(table, &kind)
            .into_iter()
            .map(|f| (f, Slot::Val(default_value(terms, &table.field(f).ty, null.clone()))))
            .collect();
        let array = match (&kind, len) {
            (ObjKind::Array(e), Some(len)) => Some(ArrayData {
                len,
                prims: (!e.is_reference()).then(|| PrimElems::new(None, elem_width(e))),
                refs: BTreeMap::new(),
                initial_refs: BTreeMap::new(),
            }),
            _ => None,
        };
        Obj { kind, input: false, name, fields, initial: BTreeMap::new(), array }
    }

    /// A new input object: every field not yet read; arrays get a symbolic length and contents.
    /// Returns the object and the constraints its symbols must satisfy (`length >= 0`).
    pub fn input(
        table: &ClassTable,
        terms: &mut TermPool,
        kind: ObjKind,
        name: String,
        max_len: u32,
    ) -> (Self, Vec<Term>) {
        let fields = fields_of(table, &kind).into_iter().map(|f| (f, Slot::Uninit)).collect();
        let mut assume = Vec::new();
        let array = match &kind {
            ObjKind::Array(e) => {
                let len = terms.var(&format!("{name}.length"), Sort::Bv(32));
                let zero = terms.int(0);
                assume.push(terms.sle(&zero, &len));
                let max = terms.int(max_len.min(i32::MAX as u32) as i32);
                assume.push(terms.sle(&len, &max));
                let prims = (!e.is_reference()).then(|| {
                    let w = elem_width(e);
                    let base = terms.var(&format!("{name}[]"), Sort::Array(32, w));
                    PrimElems::new(Some(base), w)
                });
                Some(ArrayData { len, prims, refs: BTreeMap::new(), initial_refs: BTreeMap::new() })
            }
            ObjKind::Class(_) => None,
        };
        (Obj { kind, input: true, name, fields, initial: BTreeMap::new(), array }, assume)
    }
}

impl<R: Clone> Obj<R> {
    /// The object as the input heap had it: an input object's fields hold the values they
    /// had when first read and are not yet read otherwise (a field the run wrote before
    /// reading it goes back to unread); an array loses the run's writes. Allocated objects
    /// are unchanged (the input heap cannot reach them).
    pub fn as_input(&self) -> Self {
        if !self.input {
            return self.clone();
        }
        let mut o = self.clone();
        for (f, slot) in o.fields.iter_mut() {
            *slot = match self.initial.get(f) {
                Some(v) => Slot::Val(v.clone()),
                None => Slot::Uninit,
            };
        }
        if let Some(a) = &mut o.array {
            a.refs = a.initial_refs.iter().map(|(k, v)| (*k, Slot::Val(v.clone()))).collect();
            if let Some(p) = &mut a.prims {
                p.writes.clear();
            }
        }
        o
    }
}

/// The Java default of a field of type `ty`.
pub fn default_value<R>(terms: &mut TermPool, ty: &JType, null: R) -> Value<R> {
    match ty {
        JType::Long | JType::Double => Value::Long(terms.long(0)),
        JType::Class(_) | JType::Array(_) => Value::Ref(null),
        _ => Value::Int(terms.int(0)),
    }
}

/// A fresh symbolic value for a primitive input named `name`.
pub fn fresh_prim<R>(terms: &mut TermPool, ty: &JType, name: &str) -> (Value<R>, Vec<Term>) {
    if ty.is_wide() {
        return (Value::Long(terms.var(name, Sort::Bv(64))), Vec::new());
    }
    let v = terms.var(name, Sort::Bv(32));
    (Value::Int(v.clone()), range_constraint(terms, ty, &v))
}

/// The range a 32-bit symbol of a narrow Java type must stay in (`boolean` in {0,1}, ...).
pub fn range_constraint(terms: &mut TermPool, ty: &JType, v: &Term) -> Vec<Term> {
    let (lo, hi) = match ty {
        JType::Boolean => (0, 1),
        JType::Byte => (-128, 127),
        JType::Short => (-32768, 32767),
        JType::Char => (0, 65535),
        _ => return Vec::new(),
    };
    let lo = terms.int(lo);
    let hi = terms.int(hi);
    vec![terms.sle(&lo, v), terms.sle(v, &hi)]
}

/// The bit width array elements of this type are kept in.
pub fn elem_width(e: &JType) -> u32 {
    if e.is_wide() { 64 } else { 32 }
}
