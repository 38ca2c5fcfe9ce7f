//! How a test builds a trace's input: a list of [`Step`]s that does not depend on the test
//! framework that prints it (`junit/` renders them as Java).
//!
//! Today there is one way, [`rebuild_heap`]: allocate every input object without running a
//! constructor, then set every field that does not hold its default, so that any heap
//! shape (aliasing and cycles included) is rebuilt exactly. Call-sequence inputs (building
//! the receiver through the class's own constructors and methods) add their steps here.

use crate::classfile::ClassTable;
use crate::classfile::{ClassId, FieldId, JType};
use crate::heap::{CObj, CVal, Concrete, ObjKind};

/// One step of building an input. Objects are named by their index in
/// [`Concrete::objects`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Object `obj` is a new instance of `class` whose constructor does not run.
    Alloc { obj: usize, class: ClassId },
    /// Object `obj` is a box of `class` (`Integer`, ...) holding `value`: made from its
    /// value, as boxes are immutable; `shared_value` when another box of the input holds
    /// the same value (then it must not come from the JDK's cache of small boxes).
    Box { obj: usize, class: ClassId, value: CVal, shared_value: bool },
    /// Object `obj` is a `String` of these UTF-16 units; `shared_value` when another string
    /// of the input has the same characters (then it must not be a shared literal).
    Str { obj: usize, units: Vec<u16>, shared_value: bool },
    /// Object `obj` is a new array of `len` elements of type `elem`.
    NewArray { obj: usize, elem: JType, len: usize },
    /// Field `field` of object `obj` holds `value`.
    SetField { obj: usize, field: FieldId, value: CVal },
    /// Element `index` of array `obj` (of element type `elem`) holds `value`.
    SetElem { obj: usize, index: usize, elem: JType, value: CVal },
}

/// The steps that build an input, in order: every object exists before any field refers
/// to it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InputPlan {
    pub steps: Vec<Step>,
}

/// Whether `v` is the Java default of its field or element (which a new object already has).
pub fn is_default(v: &CVal) -> bool {
    matches!(v, CVal::Null | CVal::Int(0) | CVal::Long(0))
}

/// The characters of a modelled `String` object (`after`: after the call, else before;
/// `None` when it is not a String or its characters are not modelled).
pub fn string_units(table: &ClassTable, o: &CObj, after: bool) -> Option<Vec<u16>> {
    let ObjKind::Class(k) = &o.kind else { return None };
    if table.class(*k).name != crate::models::STRING {
        return None;
    }
    let fields = if after { &o.after } else { &o.before };
    let get = |name: &str| {
        fields.iter().find(|(f, _)| table.field(**f).name == name).and_then(|(_, v)| match v {
            CVal::Int(x) => Some(*x),
            _ => None,
        })
    };
    let count = get("count").unwrap_or(0);
    if count < 0 && !o.input {
        return None; // computed by the code: characters unknown
    }
    // An input string's length is in range wherever a path reads it; a location the path
    // never took (uber reads through a pointer that may be at several) may hold any count.
    let len = count.clamp(0, crate::models::MAX_STRING_CHARS as i64) as usize;
    (0..len).map(|k| get(&format!("c{k}")).map(|c| c as u16)).collect()
}

/// What a value object of the input (a box or a string) is made from.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Contents {
    Box(ClassId, CVal),
    Str(Vec<u16>),
}

/// The contents of input object `o` when it is a box or a string: as the model has them, or,
/// when the run never read them (any contents drive the same path), contents no other value
/// object of the input has (`Integer.valueOf(1)`, `"a"`), so that the test's values differ.
fn contents(table: &ClassTable, c: &Concrete) -> Vec<Option<Contents>> {
    let read = |o: &CObj| -> (Option<Contents>, bool) {
        let ObjKind::Class(k) = &o.kind else { return (None, false) };
        let first = table.class(*k).fields.first().copied();
        let unread = first.is_some_and(|f| o.unread.contains(&f));
        if let Some(units) = string_units(table, o, false) {
            return (Some(Contents::Str(units)), unread);
        }
        if crate::models::is_box(&table.class(*k).name) {
            let v = o.before.values().next().cloned().unwrap_or(CVal::Int(0));
            // A Boolean has two values: it keeps the model's.
            let unread = unread && table.class(*k).name != "java/lang/Boolean";
            return (Some(Contents::Box(*k, v)), unread);
        }
        (None, false)
    };
    let all: Vec<(Option<Contents>, bool)> =
        c.objects.iter().map(|o| if o.input { read(o) } else { (None, false) }).collect();
    let mut taken: Vec<Contents> =
        all.iter().filter(|(v, unread)| !unread && v.is_some()).filter_map(|(v, _)| v.clone()).collect();
    let mut out = Vec::with_capacity(all.len());
    for (v, unread) in all {
        let v = match v {
            Some(Contents::Box(k, old)) if unread => {
                let first = if table.class(k).name == "java/lang/Character" { i64::from(b'a') } else { 1 };
                let make = |n: i64| if matches!(old, CVal::Long(_)) { CVal::Long(n) } else { CVal::Int(n) };
                let fresh = (first..).map(|n| Contents::Box(k, make(n))).find(|b| !taken.contains(b));
                Some(fresh.unwrap_or(Contents::Box(k, old)))
            }
            Some(Contents::Str(old)) if unread => {
                let fresh = (0u32..).map(|n| Contents::Str(word(n))).find(|s| !taken.contains(s));
                Some(fresh.unwrap_or(Contents::Str(old)))
            }
            other => other,
        };
        if let Some(v) = &v {
            taken.push(v.clone());
        }
        out.push(v);
    }
    out
}

/// The characters input object `i` of `c` is built with when it is a string (see
/// [`rebuild_heap`]).
pub fn input_string(table: &ClassTable, c: &Concrete, i: usize) -> Option<Vec<u16>> {
    match contents(table, c).into_iter().nth(i).flatten() {
        Some(Contents::Str(units)) => Some(units),
        _ => None,
    }
}

/// The `n`-th short lower-case word: "a" .. "z", "aa", "ab", ...
fn word(n: u32) -> Vec<u16> {
    let mut n = n;
    let mut out = Vec::new();
    loop {
        out.push(u16::from(b'a') + (n % 26) as u16);
        if n < 26 {
            break;
        }
        n = n / 26 - 1;
    }
    out.reverse();
    out
}

/// Rebuilds the input heap of `c`: every input object allocated, then every non-default
/// field and element set; boxes and strings are made from their contents.
pub fn rebuild_heap(table: &ClassTable, c: &Concrete) -> InputPlan {
    let mut steps = Vec::new();
    let values = contents(table, c);
    let shared = |v: &Contents| values.iter().flatten().filter(|w| *w == v).count() > 1;
    for (i, o) in c.objects.iter().enumerate().filter(|(_, o)| o.input) {
        match values.get(i).cloned().flatten() {
            Some(Contents::Str(units)) => {
                let shared_value = shared(&Contents::Str(units.clone()));
                steps.push(Step::Str { obj: i, units, shared_value });
            }
            Some(Contents::Box(class, value)) => {
                let shared_value = shared(&Contents::Box(class, value.clone()));
                steps.push(Step::Box { obj: i, class, value, shared_value });
            }
            None => steps.push(match &o.kind {
                ObjKind::Class(class) => Step::Alloc { obj: i, class: *class },
                ObjKind::Array(e) => Step::NewArray { obj: i, elem: e.clone(), len: o.elems_before.len() },
            }),
        }
    }
    for (i, o) in c.objects.iter().enumerate().filter(|(i, o)| o.input && values.get(*i).is_none_or(Option::is_none)) {
        for (f, v) in o.before.iter().filter(|(_, v)| !is_default(v)) {
            steps.push(Step::SetField { obj: i, field: *f, value: v.clone() });
        }
        if let ObjKind::Array(e) = &o.kind {
            for (k, v) in o.elems_before.iter().enumerate().filter(|(_, v)| !is_default(v)) {
                steps.push(Step::SetElem { obj: i, index: k, elem: e.clone(), value: v.clone() });
            }
        }
    }
    InputPlan { steps }
}

#[cfg(test)]
mod tests {
    #[test]
    fn words_count_in_letters() {
        let w = |n| String::from_utf16_lossy(&super::word(n));
        assert_eq!(
            (w(0), w(25), w(26), w(27), w(701), w(702)),
            ("a".into(), "z".into(), "aa".into(), "ab".into(), "zz".into(), "aaa".into())
        );
    }
}
