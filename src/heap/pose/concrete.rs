//! The POSE heap under a model: symbols with equal values are one object.

use std::collections::{BTreeMap, BTreeSet};

use super::state::{ALLOC_BASE, Key, PoseHeap};
use crate::classfile::JType;
use crate::heap::concrete::{MAX_CONCRETE_ARRAY, Numbers, default_of, int_args, narrow, preferences};
use crate::heap::{CObj, CVal, Concrete, Ctx, ObjKind, Roots, Value, fields_of, fresh_kinds};
use crate::term::{Assignment, Term, Val};
use crate::{Error, Result};

struct Objects<'m, 'v> {
    n: Numbers<'m, 'v>,
    /// Symbol value → concrete object index (input objects first).
    by_value: BTreeMap<i64, usize>,
    inputs: usize,
}

impl Objects<'_, '_> {
    fn reference(&mut self, t: &Term) -> Result<CVal> {
        let v = self.n.num(t)?;
        Ok(if v == 0 {
            CVal::Null
        } else if v >= ALLOC_BASE {
            CVal::Obj(self.inputs + (v - ALLOC_BASE) as usize)
        } else {
            self.by_value.get(&v).map(|i| CVal::Obj(*i)).unwrap_or(CVal::Null)
        })
    }

    fn value(&mut self, v: &Value<Term>) -> Result<CVal> {
        match v {
            Value::Ref(t) => self.reference(t),
            other => Ok(self.n.prim(other)?.unwrap_or(CVal::Null)),
        }
    }
}

/// The concrete input and output of a POSE trace under a model.
pub fn concretize(
    cx: &mut Ctx<'_>,
    heap: &PoseHeap,
    model: &Assignment,
    values: &mut dyn FnMut(&[Term]) -> Option<Vec<Val>>,
    roots: Roots<'_, Term>,
) -> Result<Concrete> {
    let mut n = Numbers { model, values };
    // Group symbols by value: each non-null value is one input object.
    let mut groups: Vec<(i64, Vec<usize>)> = Vec::new();
    for (i, s) in heap.syms.iter().enumerate() {
        let v = n.num(&s.var)?;
        if v == 0 {
            continue;
        }
        match groups.iter_mut().find(|(x, _)| *x == v) {
            Some((_, members)) => members.push(i),
            None => groups.push((v, vec![i])),
        }
    }
    let by_value: BTreeMap<i64, usize> = groups.iter().enumerate().map(|(i, (v, _))| (*v, i)).collect();
    let mut os = Objects { n, by_value, inputs: groups.len() };
    let mut objects = Vec::new();
    for (_, members) in &groups {
        let first = &heap.syms[members[0]];
        let k = os.n.num(&first.class)?;
        let kind = usize::try_from(k)
            .ok()
            .and_then(|k| heap.kinds.get(k).cloned())
            .or_else(|| fresh_kinds(cx, &first.declared).into_iter().next())
            .ok_or_else(|| Error::Solver(format!("no class for input object {}", first.name)))?;
        // The initial value of a key: the fresh value of the member that read it first.
        let initial = |key: Key| -> Option<Value<Term>> {
            members
                .iter()
                .filter_map(|m| heap.syms[*m].initial.get(&key))
                .min_by_key(|(_, seq)| *seq)
                .map(|(v, _)| v.clone())
        };
        let current =
            |key: Key| -> Option<Value<Term>> { members.iter().find_map(|m| heap.syms[*m].fields.get(&key).cloned()) };
        let mut before = BTreeMap::new();
        let mut after = BTreeMap::new();
        let mut unread = BTreeSet::new();
        for f in fields_of(cx.table, &kind) {
            let b = match initial(Key::Field(f)) {
                Some(v) => os.value(&v)?,
                None => {
                    unread.insert(f);
                    default_of(&cx.table.field(f).ty)
                }
            };
            let a = match current(Key::Field(f)) {
                Some(v) => os.value(&v)?,
                None => b.clone(),
            };
            before.insert(f, b);
            after.insert(f, a);
        }
        let (eb, ea) = match &kind {
            ObjKind::Array(e) => sym_elements(cx, &mut os, e, &initial, &current)?,
            ObjKind::Class(_) => (Vec::new(), Vec::new()),
        };
        objects.push(CObj {
            kind,
            input: true,
            name: first.name.clone(),
            before,
            after,
            elems_before: eb,
            elems_after: ea,
            unread,
        });
    }
    for a in &heap.allocs {
        let mut after = BTreeMap::new();
        for (f, v) in &a.fields {
            after.insert(*f, os.value(v)?);
        }
        let mut elems = Vec::new();
        if let (Some(len), ObjKind::Array(e)) = (&a.len, &a.kind) {
            let len = os.n.num(len)?;
            check_len(&a.name, len)?;
            for k in 0..len {
                let idx = cx.terms.int(k as i32);
                elems.push(match &a.prims {
                    Some(p) => {
                        let t = p.load(cx.terms, &idx);
                        narrow(e, os.n.num(&t)?)
                    }
                    None => match a.refs.get(&k) {
                        Some(t) => os.reference(t)?,
                        None => CVal::Null,
                    },
                });
            }
        }
        objects.push(CObj {
            kind: a.kind.clone(),
            input: false,
            name: a.name.clone(),
            before: BTreeMap::new(),
            after,
            elems_before: Vec::new(),
            elems_after: elems,
            unread: BTreeSet::new(),
        });
    }
    let mut statics_before = BTreeMap::new();
    let mut statics_after = BTreeMap::new();
    for (f, v) in roots.statics {
        let b = os.value(v)?;
        let a = match heap.statics.get(f) {
            Some(now) => os.value(now)?,
            None => b.clone(),
        };
        statics_before.insert(*f, b);
        statics_after.insert(*f, a);
    }
    let args = roots.args.iter().map(|a| os.value(a)).collect::<Result<Vec<_>>>()?;
    let ret = roots.ret.map(|r| os.value(r)).transpose()?;
    Ok(Concrete { objects, args, statics_before, statics_after, ret, undetermined: Default::default() })
}

type KeyFn<'a> = dyn Fn(Key) -> Option<Value<Term>> + 'a;

fn sym_elements(
    cx: &mut Ctx<'_>,
    os: &mut Objects<'_, '_>,
    elem: &JType,
    initial: &KeyFn<'_>,
    current: &KeyFn<'_>,
) -> Result<(Vec<CVal>, Vec<CVal>)> {
    let len = match initial(Key::Length) {
        Some(v) => os.n.num(v.term().ok_or_else(|| Error::Solver("array length of the wrong kind".into()))?)?,
        None => 0,
    };
    check_len("input array", len)?;
    let mut before = Vec::new();
    let mut after = Vec::new();
    for k in 0..len {
        let idx = cx.terms.int(k as i32);
        if elem.is_reference() {
            let b = match initial(Key::Elem(k)) {
                Some(v) => os.value(&v)?,
                None => CVal::Null,
            };
            let a = match current(Key::Elem(k)) {
                Some(v) => os.value(&v)?,
                None => b.clone(),
            };
            before.push(b);
            after.push(a);
        } else {
            let read = |cx: &mut Ctx<'_>, os: &mut Objects<'_, '_>, v: Option<Value<Term>>| -> Result<CVal> {
                Ok(match v.as_ref().and_then(|v| v.term()) {
                    Some(arr) => {
                        let t = cx.terms.select(arr, &idx);
                        narrow(elem, os.n.num(&t)?)
                    }
                    None => narrow(elem, 0),
                })
            };
            let b = read(cx, os, initial(Key::Elems))?;
            let a = match current(Key::Elems) {
                Some(v) => read(cx, os, Some(v))?,
                None => b.clone(),
            };
            before.push(b);
            after.push(a);
        }
    }
    Ok((before, after))
}

fn check_len(name: &str, len: i64) -> Result<()> {
    if (0..=MAX_CONCRETE_ARRAY).contains(&len) {
        Ok(())
    } else {
        Err(Error::Solver(format!("array {name} has length {len} in the model, beyond {MAX_CONCRETE_ARRAY}")))
    }
}

/// Graphviz source of the POSE heap: one box per symbol with its (ite) field values.
pub fn dot(cx: &mut Ctx<'_>, heap: &PoseHeap) -> String {
    let mut s = String::from("digraph heap {\n  node [fontname=\"monospace\", shape=box];\n");
    for (i, sym) in heap.syms.iter().enumerate() {
        let mut label = format!("{}: {}", sym.name, sym.declared.short_name());
        for (k, v) in &sym.fields {
            let name = match k {
                Key::Field(f) => cx.table.field(*f).name.clone(),
                Key::Length => "length".into(),
                Key::Elems => "[]".into(),
                Key::Elem(j) => format!("[{j}]"),
            };
            let text = match v {
                Value::Int(t) | Value::Long(t) | Value::Ref(t) => t.to_string(),
            };
            label.push_str(&format!("\\n{name} = {}", text.replace('"', "'")));
        }
        s.push_str(&format!("  y{i} [label=\"{label}\"];\n"));
    }
    for (i, a) in heap.allocs.iter().enumerate() {
        s.push_str(&format!("  a{i} [label=\"{}: {}\"];\n", a.name, a.kind.jtype(cx.table).short_name()));
    }
    s.push_str("}\n");
    s
}

/// Soft constraints for a POSE model (see [`preferences`]): every input symbol denotes a new
/// object (non-null and unlike every earlier symbol), in creation order; then the values of
/// primitive input fields, array lengths and int arguments.
pub fn pose_preferences(cx: &mut Ctx<'_>, heap: &PoseHeap, roots: Roots<'_, Term>) -> Vec<Term> {
    let objects = heap.syms.iter().map(|s| s.fresh.clone()).collect();
    let mut ints = int_args(roots.args, roots.arg_types);
    for s in &heap.syms {
        for (key, (v, _)) in &s.initial {
            let ty = match key {
                Key::Field(f) => cx.table.field(*f).ty.clone(),
                Key::Length => JType::Int,
                Key::Elems | Key::Elem(_) => continue,
            };
            if let Some(t) = v.term() {
                ints.push((t.clone(), ty));
            }
        }
    }
    preferences(cx.terms, objects, &ints)
}
