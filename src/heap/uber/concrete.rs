//! The uber-lazy heap under a model: the concrete input heap it stands for, and its picture.

use std::collections::{BTreeMap, BTreeSet};

use super::state::{LocId, RefId, Target, UberHeap, guard};
use crate::classfile::JType;
use crate::heap::concrete::{MAX_CONCRETE_ARRAY, Numbers, default_of, int_args, narrow, preferences};
use crate::heap::{CObj, CVal, ChoiceNames, Concrete, Ctx, ObjKind, Roots, Value, fields_of};
use crate::term::{Assignment, Term, Val};
use crate::{Error, Result};

struct Resolver<'h, 'm, 'v> {
    heap: &'h UberHeap,
    n: Numbers<'m, 'v>,
    index: BTreeMap<LocId, usize>,
}

impl Resolver<'_, '_, '_> {
    /// The target of `r` in the model: the entry whose guard holds.
    fn target(&mut self, r: RefId) -> Result<Target> {
        let node = self.heap.node(r)?;
        // The pointer's value names the target directly (0 is null, `l + 1` location `l`).
        if let Some(v) = self.n.model.eval_i64(&node.ptr) {
            let t = match v {
                0 => Some(Target::Null),
                v => u32::try_from(v - 1).ok().map(|l| Target::Loc(LocId(l))),
            };
            if let Some(t) = t.filter(|t| node.targets.contains(t)) {
                return Ok(t);
            }
        }
        // A pointer the model does not fix (or fixes outside `L(r)`): no guard holds.
        Ok(Target::Null)
    }

    fn value(&mut self, v: &Value<RefId>) -> Result<CVal> {
        match v {
            Value::Ref(r) => Ok(match self.target(*r)? {
                Target::Null => CVal::Null,
                Target::Loc(l) => self.index.get(&l).map(|i| CVal::Obj(*i)).unwrap_or(CVal::Null),
            }),
            other => Ok(self.n.prim(other)?.unwrap_or(CVal::Null)),
        }
    }
}

/// The concrete input and output of an uber-lazy trace under a model.
pub fn concretize(
    cx: &mut Ctx<'_>,
    heap: &UberHeap,
    model: &Assignment,
    values: &mut dyn FnMut(&[Term]) -> Option<Vec<Val>>,
    roots: Roots<'_, RefId>,
) -> Result<Concrete> {
    // Existing input locations first (creation order), then allocated ones.
    let mut order: Vec<LocId> = Vec::new();
    for (i, l) in heap.locs.iter().enumerate() {
        if l.input && model.eval_bool(&l.exists) == Some(true) {
            order.push(LocId(i as u32));
        }
    }
    for (i, l) in heap.locs.iter().enumerate() {
        if !l.input {
            order.push(LocId(i as u32));
        }
    }
    let index: BTreeMap<LocId, usize> = order.iter().enumerate().map(|(i, l)| (*l, i)).collect();
    let mut rs = Resolver { heap, n: Numbers { model, values }, index };
    let mut objects = Vec::with_capacity(order.len());
    for l in &order {
        let loc = heap.loc(*l)?;
        let mut before = BTreeMap::new();
        let mut after = BTreeMap::new();
        let mut unread = BTreeSet::new();
        for f in fields_of(cx.table, &loc.kind) {
            let b = match loc.initial.get(&f) {
                Some(v) if loc.input => rs.value(v)?,
                _ => {
                    if loc.input {
                        unread.insert(f);
                    }
                    default_of(&cx.table.field(f).ty)
                }
            };
            let a = match loc.fields.get(&f) {
                Some(v) => rs.value(v)?,
                // Unread: the input value, then the writes whose guards the model makes true.
                None => {
                    let mut a = b.clone();
                    for (g, w) in loc.pending.get(&f).map(Vec::as_slice).unwrap_or_default() {
                        if model.eval_bool(g) == Some(true) {
                            a = rs.value(w)?;
                        }
                    }
                    a
                }
            };
            if loc.input {
                before.insert(f, b);
            }
            after.insert(f, a);
        }
        let (elems_before, elems_after) = elements(cx, &mut rs, *l)?;
        objects.push(CObj {
            kind: loc.kind.clone(),
            input: loc.input,
            name: loc.name.clone(),
            before,
            after,
            elems_before,
            elems_after,
            unread,
        });
    }
    let mut statics_before = BTreeMap::new();
    let mut statics_after = BTreeMap::new();
    for (f, v) in roots.statics {
        let b = rs.value(v)?;
        let a = match heap.statics.get(f) {
            Some(now) => rs.value(now)?,
            None => b.clone(),
        };
        statics_before.insert(*f, b);
        statics_after.insert(*f, a);
    }
    let args = roots.args.iter().map(|a| rs.value(a)).collect::<Result<Vec<_>>>()?;
    let ret = roots.ret.map(|r| rs.value(r)).transpose()?;
    Ok(Concrete { objects, args, statics_before, statics_after, ret, undetermined: Default::default() })
}

fn elements(cx: &mut Ctx<'_>, rs: &mut Resolver<'_, '_, '_>, l: LocId) -> Result<(Vec<CVal>, Vec<CVal>)> {
    let loc = rs.heap.loc(l)?;
    let (Some(arr), ObjKind::Array(elem)) = (&loc.array, &loc.kind) else { return Ok((Vec::new(), Vec::new())) };
    let len = rs.n.num(&arr.len)?;
    if !(0..=MAX_CONCRETE_ARRAY).contains(&len) {
        return Err(Error::Solver(format!(
            "array {} has length {len} in the model, beyond {MAX_CONCRETE_ARRAY}",
            loc.name
        )));
    }
    let mut before = Vec::new();
    let mut after = Vec::new();
    for k in 0..len {
        let idx = cx.terms.int(k as i32);
        if let Some(p) = &arr.prims {
            let b = match &p.base {
                Some(base) if loc.input => {
                    let t = cx.terms.select(base, &idx);
                    rs.n.num(&t)?
                }
                _ => 0,
            };
            let t = p.load(cx.terms, &idx);
            before.push(narrow(elem, b));
            after.push(narrow(elem, rs.n.num(&t)?));
        } else {
            let b = match arr.initial_refs.get(&k) {
                Some(r) if loc.input => rs.value(&Value::Ref(*r))?,
                _ => CVal::Null,
            };
            let a = match arr.refs.get(&k) {
                Some(r) => rs.value(&Value::Ref(*r))?,
                None => b.clone(),
            };
            before.push(b);
            after.push(a);
        }
    }
    if !loc.input {
        before.clear();
    }
    Ok((before, after))
}

/// Graphviz source of the symbolic heap as the paper draws it: references as circles,
/// locations as boxes, field edges from locations, guard-labelled edges from references.
pub fn dot(cx: &mut Ctx<'_>, heap: &UberHeap) -> String {
    let names = ChoiceNames { vars: (*heap.pointers).clone(), values: heap.number_names() };
    let namer = |var: &str, k: i64| -> Option<String> { Some(format!("{var}={}", names.name(var, k)?)) };
    let mut s = String::from("digraph heap {\n  node [fontname=\"monospace\"];\n  null [shape=plaintext];\n");
    let mut refs: Vec<RefId> = Vec::new();
    for (i, l) in heap.locs.iter().enumerate() {
        let mut label = format!("{}: {}", l.name, l.kind.jtype(cx.table).short_name());
        for (f, v) in &l.fields {
            if let Some(t) = v.term() {
                label.push_str(&format!(
                    "\\n{} = {}",
                    cx.table.field(*f).name,
                    t.render(Some(&namer)).replace('"', "'")
                ));
            }
        }
        s.push_str(&format!("  l{i} [shape=box, label=\"{label}\"];\n"));
        for (f, v) in &l.fields {
            if let Value::Ref(r) = v {
                s.push_str(&format!("  l{i} -> r{} [label=\"{}\"];\n", r.0, cx.table.field(*f).name));
                refs.push(*r);
            }
        }
    }
    refs.sort();
    refs.dedup();
    for r in refs {
        s.push_str(&format!("  r{} [shape=circle, label=\"r{}\"];\n", r.0, r.0));
        if let Ok(node) = heap.node(r) {
            for t in &node.targets {
                let g = guard(cx, &node.ptr, *t);
                let to = match t {
                    Target::Null => "null".to_string(),
                    Target::Loc(l) => format!("l{}", l.0),
                };
                let label = g.render(Some(&namer)).replace('"', "'");
                s.push_str(&format!("  r{} -> {to} [style=dashed, label=\"{label}\"];\n", r.0));
            }
        }
    }
    s.push_str("}\n");
    s
}

/// Soft constraints for an uber-lazy model (see [`preferences`]): every input location a
/// lazy initialization offered exists (so a reference the path leaves open is non-null and
/// unaliased), in creation order; then the values of primitive input fields, array lengths
/// and int arguments.
pub fn uber_preferences(cx: &mut Ctx<'_>, heap: &UberHeap, roots: Roots<'_, RefId>) -> Vec<Term> {
    let mut objects = Vec::new();
    let mut ints = int_args(roots.args, roots.arg_types);
    for l in heap.locs.iter().filter(|l| l.input) {
        if l.choice.is_some() {
            objects.push(l.exists.clone());
        }
        for (f, v) in &l.initial {
            if let Some(t) = v.term() {
                ints.push((t.clone(), cx.table.field(*f).ty.clone()));
            }
        }
        if let Some(a) = &l.array {
            ints.push((a.len.clone(), JType::Int));
        }
    }
    preferences(cx.terms, objects, &ints)
}
