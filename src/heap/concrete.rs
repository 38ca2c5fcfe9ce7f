//! The concrete heap of one trace: input objects, arguments, and what the run left behind.
//!
//! Every strategy produces a [`Concrete`] from a model of a trace's path condition. It is
//! what the text report shows as the trace's input, what `--check-models` replays, and what
//! the JUnit emitter rebuilds.

use std::collections::{BTreeMap, BTreeSet};

use super::value::{ObjKind, Value, field_symbol};
use crate::classfile::{ClassTable, FieldId, JType};
use crate::term::{Assignment, Node, Term, TermPool, Val, sign_extend};
use crate::{Error, Result};

/// A concrete value.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CVal {
    /// Any int-like value (boolean as 0/1, char as its code).
    Int(i64),
    Long(i64),
    Null,
    /// An object, by index into [`Concrete::objects`].
    Obj(usize),
}

/// One concrete object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CObj {
    pub kind: ObjKind,
    /// Part of the input heap (built by the test before the call), or allocated by the run.
    pub input: bool,
    /// Name used in reports (`this`, `c`, `o1`, `new1`).
    pub name: String,
    /// Field values before the call (input objects; every instance field, defaults included).
    pub before: BTreeMap<FieldId, CVal>,
    /// Field values after the call.
    pub after: BTreeMap<FieldId, CVal>,
    /// Array elements before/after the call (arrays only).
    pub elems_before: Vec<CVal>,
    pub elems_after: Vec<CVal>,
    /// Fields of an input object that the run never read: their `before` value is the
    /// default, and any other value would drive the same path.
    pub unread: BTreeSet<FieldId>,
}

/// The concrete input and output of a trace.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Concrete {
    pub objects: Vec<CObj>,
    /// The entry method's arguments, receiver first for instance methods.
    pub args: Vec<CVal>,
    /// Static fields read or written by the run: value before and after.
    pub statics_before: BTreeMap<FieldId, CVal>,
    pub statics_after: BTreeMap<FieldId, CVal>,
    /// The return value, for normal returns of non-void methods.
    pub ret: Option<CVal>,
    /// The places after the call that hold an undetermined value (the result of code with
    /// no bytecode and no model): no test asserts them.
    pub undetermined: BTreeSet<Place>,
}

/// A place a test could check after the call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Place {
    /// The returned value.
    Result,
    /// A field of object `i` (an index into [`Concrete::objects`]).
    Field(usize, FieldId),
    /// Element `k` of array object `i`.
    Elem(usize, usize),
    /// A static field.
    Static(FieldId),
}

/// The default of the kind of `v` (0 for numbers, null for references).
fn default_of_cval(v: &CVal) -> CVal {
    match v {
        CVal::Long(_) => CVal::Long(0),
        CVal::Int(_) => CVal::Int(0),
        CVal::Null | CVal::Obj(_) => CVal::Null,
    }
}

/// The Java default value of a field of this type.
pub fn default_of(ty: &JType) -> CVal {
    match ty {
        JType::Long | JType::Double => CVal::Long(0),
        JType::Class(_) | JType::Array(_) => CVal::Null,
        _ => CVal::Int(0),
    }
}

impl Concrete {
    /// Marks as undetermined each place that holds another value in `flipped` (the same heap
    /// with the undetermined symbols valued otherwise) or an object `bottom` says is an
    /// undetermined reference's.
    pub fn mark_undetermined(&mut self, flipped: Option<&Concrete>, bottom: impl Fn(&ObjKind) -> bool) {
        let is_bottom = |v: &CVal| matches!(v, CVal::Obj(i) if self.objects.get(*i).is_some_and(|o| bottom(&o.kind)));
        let mut marks = BTreeSet::new();
        let differs = |v: &CVal, w: Option<&CVal>| is_bottom(v) || flipped.is_some() && w != Some(v);
        if let Some(v) = &self.ret
            && differs(v, flipped.and_then(|f| f.ret.as_ref()))
        {
            marks.insert(Place::Result);
        }
        for (i, o) in self.objects.iter().enumerate() {
            let twin = flipped.and_then(|f| f.objects.get(i));
            for (f, v) in &o.after {
                if differs(v, twin.and_then(|t| t.after.get(f))) {
                    marks.insert(Place::Field(i, *f));
                }
            }
            for (k, v) in o.elems_after.iter().enumerate() {
                if differs(v, twin.and_then(|t| t.elems_after.get(k))) {
                    marks.insert(Place::Elem(i, k));
                }
            }
        }
        for (f, v) in &self.statics_after {
            if differs(v, flipped.and_then(|t| t.statics_after.get(f))) {
                marks.insert(Place::Static(*f));
            }
        }
        self.undetermined = marks;
    }

    /// This concretization of a run's end, with the input heap taken from `input`: the
    /// concretization, under the same model, of the same heap's input view after the
    /// precondition ran on it (so it holds every input field the precondition read, which
    /// the run may not have). Objects are matched by name (both heaps come from one run, so
    /// their names agree); input objects only `input` has are added, unchanged by the run.
    pub fn with_inputs_from(mut self, input: &Concrete) -> Concrete {
        let mut index: BTreeMap<String, usize> =
            self.objects.iter().enumerate().map(|(i, o)| (o.name.clone(), i)).collect();
        for o in input.objects.iter().filter(|o| o.input) {
            if !index.contains_key(&o.name) {
                index.insert(o.name.clone(), self.objects.len());
                self.objects.push(CObj {
                    kind: o.kind.clone(),
                    input: true,
                    name: o.name.clone(),
                    before: BTreeMap::new(),
                    after: BTreeMap::new(),
                    elems_before: Vec::new(),
                    elems_after: Vec::new(),
                    unread: o.unread.clone(),
                });
            }
        }
        let map = |v: &CVal| match v {
            CVal::Obj(i) => {
                input.objects.get(*i).and_then(|o| index.get(&o.name)).map_or(CVal::Null, |j| CVal::Obj(*j))
            }
            other => other.clone(),
        };
        for o in input.objects.iter().filter(|o| o.input) {
            let Some(&j) = index.get(&o.name) else { continue };
            let before: BTreeMap<FieldId, CVal> = o.before.iter().map(|(f, v)| (*f, map(v))).collect();
            let elems: Vec<CVal> = o.elems_before.iter().map(map).collect();
            let Some(t) = self.objects.get_mut(j) else { continue };
            let untouched = t.after.is_empty() && t.elems_after.is_empty();
            if untouched {
                // The run never reached this object: it ends as it began.
                t.after = before.clone();
                t.elems_after = elems.clone();
            } else {
                // Fields the run neither read nor wrote kept their input values.
                for (f, v) in &before {
                    if t.before.get(f).is_none_or(|b| *b == default_of_cval(b)) && !t.after.contains_key(f) {
                        t.after.insert(*f, v.clone());
                    }
                }
            }
            t.before = before;
            t.elems_before = elems;
            t.unread = o.unread.clone();
        }
        self
    }

    /// A one-line rendering of the input: `this=o0{next=o1} o1{next=null} c=null`.
    pub fn describe_input(&self, table: &ClassTable, arg_names: &[String]) -> String {
        let mut parts = Vec::new();
        for (i, a) in self.args.iter().enumerate() {
            let name = arg_names.get(i).cloned().unwrap_or_else(|| format!("arg{i}"));
            parts.push(format!("{name}={}", self.show(a)));
        }
        for (i, o) in self.objects.iter().enumerate().filter(|(_, o)| o.input) {
            parts.push(format!("{}:{}", self.show(&CVal::Obj(i)), self.describe_obj(table, o, true)));
        }
        for (f, v) in &self.statics_before {
            let fd = table.field(*f);
            parts.push(format!("{}.{}={}", table.class(fd.owner).java_name(), fd.name, self.show(v)));
        }
        parts.join(" ")
    }

    fn describe_obj(&self, table: &ClassTable, o: &CObj, before: bool) -> String {
        let kind = match &o.kind {
            ObjKind::Class(c) => table.class(*c).java_name(),
            ObjKind::Array(e) => format!("{}[]", e.java_name()),
        };
        let (fields, elems) = if before { (&o.before, &o.elems_before) } else { (&o.after, &o.elems_after) };
        let mut inner: Vec<String> = fields
            .iter()
            .map(|(f, v)| {
                let name = field_symbol(table, "", o.kind.class(), *f);
                format!("{}={}", name.trim_start_matches('.'), self.show(v))
            })
            .collect();
        if matches!(o.kind, ObjKind::Array(_)) {
            inner.push(format!("[{}]", elems.iter().map(|v| self.show(v)).collect::<Vec<_>>().join(",")));
        }
        format!("{kind}{{{}}}", inner.join(","))
    }

    /// A value as text: numbers, `null`, or the object's name.
    pub fn show(&self, v: &CVal) -> String {
        match v {
            CVal::Int(i) => i.to_string(),
            CVal::Long(l) => format!("{l}L"),
            CVal::Null => "null".into(),
            CVal::Obj(i) => self.objects.get(*i).map(|o| o.name.clone()).unwrap_or_else(|| format!("obj{i}")),
        }
    }
}

/// Longest array a concrete input may have (longer models are reported as an error).
pub const MAX_CONCRETE_ARRAY: i64 = 1 << 16;

/// Evaluates terms of one trace: the scalar model first, the pinned solver model for the rest.
pub struct Numbers<'m, 'v> {
    pub model: &'m Assignment,
    pub values: &'v mut dyn FnMut(&[Term]) -> Option<Vec<Val>>,
}

impl Numbers<'_, '_> {
    /// The signed value of a bit-vector term.
    pub fn num(&mut self, t: &Term) -> Result<i64> {
        if let Some(v) = self.model.eval_i64(t) {
            return Ok(v);
        }
        match (self.values)(std::slice::from_ref(t)).as_deref() {
            Some([Val::Bv(v)]) => Ok(sign_extend(*v, t.width())),
            _ => Err(Error::Solver(format!("no model value for {t}"))),
        }
    }

    /// A primitive value as a concrete value.
    pub fn prim<R>(&mut self, v: &Value<R>) -> Result<Option<CVal>> {
        Ok(match v {
            Value::Int(t) => Some(CVal::Int(self.num(t)?)),
            Value::Long(t) => Some(CVal::Long(self.num(t)?)),
            Value::Ref(_) => None,
        })
    }
}

/// A primitive array element as the JVM stores it.
pub fn narrow(elem: &JType, v: i64) -> CVal {
    match elem {
        JType::Long | JType::Double => CVal::Long(v),
        JType::Byte => CVal::Int(i64::from(v as i8)),
        JType::Short => CVal::Int(i64::from(v as i16)),
        JType::Char => CVal::Int(i64::from(v as u16)),
        JType::Boolean => CVal::Int(v & 1),
        _ => CVal::Int(i64::from(v as i32)),
    }
}

/// How many int-like symbols are asked to differ pairwise (the first ones; quadratic).
const MAX_DISTINCT: usize = 12;
/// Int-like symbols are asked to stay within `1..=SMALL`, or else `-SMALL..=SMALL`.
const SMALL: i32 = 16;

/// The soft constraints a trace's model should meet to tell behaviours apart, most wanted
/// first: `objects` (each the condition that one more distinct, non-null input object
/// exists, in creation order), then, for the int-like input symbols `ints` (booleans left
/// alone): each non-zero, the first few pairwise distinct, each in `1..=16`, each in
/// `-16..=16` (a `char` in `'a'..='z'` instead); floats and doubles as
/// `float_preferences` says. A model that meets them rebuilds an input with distinct
/// objects and distinct small values where the path allows, so that a test sees a field
/// left unset, a value written to the wrong object or two values swapped.
pub fn preferences(terms: &mut TermPool, objects: Vec<Term>, ints: &[(Term, JType)]) -> Vec<Term> {
    let mut out = objects;
    let floating = |ty: &JType| matches!(ty, JType::Float | JType::Double);
    let syms: Vec<(Term, bool)> = ints
        .iter()
        .filter(|(t, ty)| *ty != JType::Boolean && !floating(ty) && matches!(t.node(), Node::Var(..)))
        .map(|(t, ty)| (t.clone(), *ty == JType::Long))
        .collect();
    let floats: Vec<Term> = ints
        .iter()
        .filter(|(t, ty)| floating(ty) && matches!(t.node(), Node::Var(..)))
        .map(|(t, _)| t.clone())
        .collect();
    let (wanted, fallback) = float_preferences(terms, &floats);
    out.extend(wanted);
    let chars: Vec<&Term> = ints.iter().filter(|(_, ty)| *ty == JType::Char).map(|(t, _)| t).collect();
    let konst = |terms: &mut TermPool, long: bool, v: i32| if long { terms.long(i64::from(v)) } else { terms.int(v) };
    for (t, long) in &syms {
        let zero = konst(terms, *long, 0);
        out.push(terms.ne(t, &zero));
    }
    let firsts = &syms[..syms.len().min(MAX_DISTINCT)];
    for (i, (a, la)) in firsts.iter().enumerate() {
        for (b, lb) in &firsts[i + 1..] {
            if la == lb {
                out.push(terms.ne(a, b));
            }
        }
    }
    for lo in [1, -SMALL] {
        for (t, long) in &syms {
            // Characters (a string's) are lower-case letters where the path allows.
            let (lo, hi) = if chars.contains(&t) { (i32::from(b'a'), i32::from(b'z')) } else { (lo, SMALL) };
            let (l, h) = (konst(terms, *long, lo), konst(terms, *long, hi));
            let (above, below) = (terms.sle(&l, t), terms.sle(t, &h));
            out.push(terms.and2(&above, &below));
        }
    }
    out.extend(fallback);
    out
}

/// For float and double symbols (IEEE bits): what is wanted as much as the ints' wishes
/// (each one of the whole numbers `1..=16`, the first few pairwise distinct), and, least
/// wanted of all, what a path that rules those out should still get (a whole number in
/// `-16..=16`, finite, within `-1024..=1024`).
fn float_preferences(terms: &mut TermPool, floats: &[Term]) -> (Vec<Term>, Vec<Term>) {
    let konst = |terms: &mut TermPool, t: &Term, v: f64| {
        let bits = if t.width() == 64 { v.to_bits() as i64 } else { i64::from((v as f32).to_bits()) };
        terms.bv(t.width(), bits)
    };
    let one_of = |terms: &mut TermPool, t: &Term, lo: i32| {
        let eqs: Vec<Term> = (lo..=SMALL)
            .map(|k| {
                let k = konst(terms, t, f64::from(k));
                terms.eq(t, &k)
            })
            .collect();
        terms.or(&eqs)
    };
    let mut out: Vec<Term> = floats.iter().map(|t| one_of(terms, t, 1)).collect();
    let firsts = &floats[..floats.len().min(MAX_DISTINCT)];
    for (i, a) in firsts.iter().enumerate() {
        for b in &firsts[i + 1..] {
            if a.width() == b.width() {
                out.push(terms.ne(a, b));
            }
        }
    }
    let mut fallback: Vec<Term> = floats.iter().map(|t| one_of(terms, t, -SMALL)).collect();
    for t in floats {
        let exponent = if t.width() == 64 { 0x7ff0_0000_0000_0000_u64 as i64 } else { 0x7f80_0000 };
        let e = terms.bv(t.width(), exponent);
        let bits = terms.bin(crate::term::BvOp::And, t, &e);
        fallback.push(terms.ne(&bits, &e));
    }
    for t in floats {
        // |t| <= 1024 on the bits alone (magnitudes order as unsigned numbers), so that the
        // preference adds no floating-point reasoning of its own.
        let magnitude = terms.bv(t.width(), if t.width() == 64 { i64::MAX } else { i64::from(i32::MAX) });
        let abs = terms.bin(crate::term::BvOp::And, t, &magnitude);
        let limit = konst(terms, t, 1024.0);
        fallback.push(terms.cmp(crate::term::BvCmp::Ule, &abs, &limit));
    }
    (out, fallback)
}

/// The primitive arguments among `args`, with their declared types (`int` or `long` where
/// `types` does not say).
pub fn int_args<R>(args: &[Value<R>], types: &[JType]) -> Vec<(Term, JType)> {
    args.iter()
        .enumerate()
        .filter_map(|(i, a)| {
            let declared = types.get(i).filter(|t| !t.is_reference()).cloned();
            match a {
                Value::Int(t) => Some((t.clone(), declared.unwrap_or(JType::Int))),
                Value::Long(t) => Some((t.clone(), declared.unwrap_or(JType::Long))),
                Value::Ref(_) => None,
            }
        })
        .collect()
}
