//! The comment of a test in source terms: what the input is, which way the method goes
//! (source lines and conditions, from the class file's line numbers), and the outcome.

use std::collections::{BTreeMap, BTreeSet};

use crate::classfile::{ClassTable, JType, MethodId};
use crate::heap::{CVal, Concrete, ObjKind};
use crate::machine::{Choice, Decision, Trace, TraceKind};

/// The short class name of an object kind (`DllNode`, `int[]`).
fn kind_name(table: &ClassTable, k: &ObjKind) -> String {
    k.jtype(table).short_name()
}

/// `this = o0 (DoublyLinkedList, reaches 3 DllNode), key = 1`: each argument, and for an
/// object the input objects it reaches (before the call), counted per class.
pub fn input(table: &ClassTable, c: &Concrete, params: &[JType], arg_names: &[String]) -> String {
    let mut parts = Vec::new();
    let types = params.iter();
    let receiver = c.args.len() > params.len();
    let tys: Vec<Option<&JType>> =
        if receiver { std::iter::once(None).chain(types.map(Some)).collect() } else { types.map(Some).collect() };
    let mut shown: BTreeSet<usize> = BTreeSet::new();
    for (k, a) in c.args.iter().enumerate() {
        let name = arg_names.get(k).cloned().unwrap_or_else(|| format!("arg{k}"));
        let text = match (a, tys.get(k).copied().flatten()) {
            (CVal::Obj(i), _) => {
                let Some(o) = c.objects.get(*i) else { continue };
                let kind = kind_name(table, &o.kind);
                if !shown.insert(*i) {
                    format!("{name} = o{i} (again)")
                } else if let Some(units) = crate::inputs::input_string(table, c, *i) {
                    format!("{name} = o{i} ({})", super::java::string_literal(&units))
                } else {
                    let reach = reached(table, c, *i);
                    if reach.is_empty() {
                        format!("{name} = o{i} ({kind})")
                    } else {
                        format!("{name} = o{i} ({kind}, reaches {reach})")
                    }
                }
            }
            (CVal::Null, _) => format!("{name} = null"),
            (CVal::Int(x) | CVal::Long(x), Some(ty)) => format!("{name} = {}", plain(ty, *x)),
            (CVal::Int(x) | CVal::Long(x), None) => format!("{name} = {x}"),
        };
        parts.push(text);
    }
    for (f, v) in &c.statics_before {
        let fd = table.field(*f);
        let owner = JType::Class(table.class(fd.owner).name.clone()).short_name();
        let text = match v {
            CVal::Int(x) | CVal::Long(x) => plain(&fd.ty, *x),
            other => c.show(other),
        };
        parts.push(format!("{owner}.{} = {text}", fd.name));
    }
    if parts.is_empty() { "no arguments".to_string() } else { parts.join(", ") }
}

/// A primitive as the source would write it (`true`, `'a'` as 97, `5`).
fn plain(ty: &JType, x: i64) -> String {
    match ty {
        JType::Boolean => (if x != 0 { "true" } else { "false" }).to_string(),
        JType::Float | JType::Double => super::java::literal(ty, x),
        _ => x.to_string(),
    }
}

/// The input objects reachable from object `from` before the call (itself excluded),
/// counted per class: `3 DllNode`, `1 Object and 2 Node`.
fn reached(table: &ClassTable, c: &Concrete, from: usize) -> String {
    let mut seen = BTreeSet::from([from]);
    let mut stack = vec![from];
    while let Some(i) = stack.pop() {
        let Some(o) = c.objects.get(i) else { continue };
        for v in o.before.values().chain(&o.elems_before) {
            if let CVal::Obj(j) = v
                && seen.insert(*j)
            {
                stack.push(*j);
            }
        }
    }
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for i in seen.into_iter().filter(|i| *i != from) {
        if let Some(o) = c.objects.get(i) {
            *counts.entry(kind_name(table, &o.kind)).or_default() += 1;
        }
    }
    let parts: Vec<String> = counts.into_iter().map(|(k, n)| format!("{n} {k}")).collect();
    match parts.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// One step of a path in source terms: where (method and line) and what happened.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Step {
    place: String,
    what: String,
}

/// The decisions the method made (those of the precondition left out) in source terms:
/// `line 60 true twice, then false; line 63 true`; a repeated sequence of lines (a loop) is
/// written once with its count.
pub fn path(table: &ClassTable, entry: MethodId, t: &Trace) -> String {
    let steps: Vec<Step> = t.path.iter().map(|d| step(table, entry, d)).collect();
    if steps.is_empty() {
        return "no decision".to_string();
    }
    // Consecutive decisions at one place form a group: `line 60 true twice, then false`.
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for s in steps {
        match groups.last_mut() {
            Some((place, whats)) if *place == s.place => whats.push(s.what),
            _ => groups.push((s.place, vec![s.what])),
        }
    }
    let texts: Vec<String> = groups.iter().map(|(place, whats)| format!("{place} {}", runs(whats))).collect();
    repeats(&texts).join("; ")
}

fn step(table: &ClassTable, entry: MethodId, d: &Decision) -> Step {
    let m = table.method(d.method);
    let at = match m.source.line(d.pc) {
        Some(l) => format!("line {l}"),
        None => format!("offset {}", d.pc),
    };
    let place = if d.method == entry { at } else { format!("{} {at}", m.name) };
    let what = match &d.choice {
        Choice::Branch(taken) => (if m.source.holds(d.pc, *taken) { "true" } else { "false" }).to_string(),
        Choice::Case(Some(k)) => format!("case {k}"),
        Choice::Case(None) => "default".to_string(),
        Choice::Throw(e) => format!("throws {}", e.rsplit('.').next().unwrap_or(e)),
        Choice::Dispatch(callee) => format!("calls {callee}"),
        Choice::Index(i) => format!("index {i}"),
    };
    Step { place, what }
}

/// `true twice, then false`, `false 3 times`.
fn runs(whats: &[String]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while let Some(w) = whats.get(i) {
        let n = whats[i..].iter().take_while(|x| *x == w).count();
        out.push(match n {
            1 => w.clone(),
            2 => format!("{w} twice"),
            n => format!("{w} {n} times"),
        });
        i += n;
    }
    match out.as_slice() {
        [one] => one.clone(),
        [init @ .., last] => format!("{}, then {last}", init.join(", ")),
        [] => String::new(),
    }
}

/// Writes a sequence repeated back to back once, with its count: `(line 60 true; line 61
/// false) 3 times`.
fn repeats(texts: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < texts.len() {
        // The period (up to 4 groups) that covers the most groups from `i` on.
        let mut best = (1, 1);
        for p in 2..=4.min(texts.len() - i) {
            let reps = texts[i..].chunks_exact(p).take_while(|c| *c == &texts[i..i + p]).count();
            if reps >= 2 && reps * p > best.0 * best.1 {
                best = (p, reps);
            }
        }
        let (p, reps) = best;
        if reps >= 2 {
            out.push(format!("({}) {reps} times", texts[i..i + p].join("; ")));
        } else {
            out.push(texts[i].clone());
        }
        i += p * reps;
    }
    out
}

/// `returns 5`, `returns a new DllNode`, `throws java.lang.NullPointerException`.
pub fn outcome(table: &ClassTable, t: &Trace, c: &Concrete, ret: Option<&JType>) -> String {
    if t.kind == TraceKind::Exception {
        return format!("throws {}", t.exception.as_deref().unwrap_or("an exception"));
    }
    if c.undetermined.contains(&crate::heap::Place::Result) {
        return "returns a value the JVM decides (not checked)".to_string();
    }
    match (c.ret.as_ref(), ret) {
        (None, _) | (_, None) => "returns normally".to_string(),
        (Some(CVal::Obj(i)), _) => match c.objects.get(*i) {
            Some(o) if o.input => format!("returns o{i}"),
            Some(o) if super::java::is_lambda(table, &o.kind) => "returns a new lambda".to_string(),
            Some(o) => format!("returns a new {}", kind_name(table, &o.kind)),
            None => "returns an object".to_string(),
        },
        (Some(CVal::Null), _) => "returns null".to_string(),
        (Some(CVal::Int(x) | CVal::Long(x)), Some(ty)) => format!("returns {}", plain(ty, *x)),
    }
}

/// Breaks `text` into lines of at most `width` characters at spaces.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = String::new();
    for w in text.split(' ').filter(|w| !w.is_empty()) {
        if !cur.is_empty() && cur.len() + 1 + w.len() > width {
            lines.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(w);
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(xs: &[&str]) -> Vec<String> {
        xs.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn runs_and_repeats_read_like_prose() {
        assert_eq!(runs(&s(&["true", "true", "false"])), "true twice, then false");
        assert_eq!(runs(&s(&["false", "false", "false"])), "false 3 times");
        assert_eq!(runs(&s(&["true", "false", "true"])), "true, false, then true");
        let loop_ = s(&["line 60 true", "line 61 false", "line 60 true", "line 61 false", "line 60 false"]);
        assert_eq!(repeats(&loop_), s(&["(line 60 true; line 61 false) 2 times", "line 60 false"]));
        assert_eq!(wrap("a bb ccc", 4), s(&["a bb", "ccc"]));
    }
}
