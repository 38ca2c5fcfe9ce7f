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

/// Rebuilds the input heap of `c`: every input object allocated, then every non-default
/// field and element set.
pub fn rebuild_heap(table: &ClassTable, c: &Concrete) -> InputPlan {
    let mut steps = Vec::new();
    let texts: Vec<Vec<u16>> =
        c.objects.iter().filter(|o| o.input).filter_map(|o| string_units(table, o, false)).collect();
    let box_value = |o: &CObj| match &o.kind {
        ObjKind::Class(k) if crate::models::is_box(&table.class(*k).name) => {
            Some((*k, o.before.values().next().cloned().unwrap_or(CVal::Int(0))))
        }
        _ => None,
    };
    let boxes: Vec<(ClassId, CVal)> = c.objects.iter().filter(|o| o.input).filter_map(box_value).collect();
    for (i, o) in c.objects.iter().enumerate().filter(|(_, o)| o.input) {
        if let Some(units) = string_units(table, o, false) {
            let shared_value = texts.iter().filter(|t| **t == units).count() > 1;
            steps.push(Step::Str { obj: i, units, shared_value });
            continue;
        }
        if let Some((class, value)) = box_value(o) {
            let shared_value = boxes.iter().filter(|b| **b == (class, value.clone())).count() > 1;
            steps.push(Step::Box { obj: i, class, value, shared_value });
            continue;
        }
        steps.push(match &o.kind {
            ObjKind::Class(class) => Step::Alloc { obj: i, class: *class },
            ObjKind::Array(e) => Step::NewArray { obj: i, elem: e.clone(), len: o.elems_before.len() },
        });
    }
    let built_from_value = |o: &CObj| box_value(o).is_some() || string_units(table, o, false).is_some();
    for (i, o) in c.objects.iter().enumerate().filter(|(_, o)| o.input && !built_from_value(o)) {
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
