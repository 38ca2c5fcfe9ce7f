//! How a test builds a trace's input: a list of [`Step`]s that does not depend on the test
//! framework that prints it (`junit/` renders them as Java).
//!
//! Today there is one way, [`rebuild_heap`]: allocate every input object without running a
//! constructor, then set every field that does not hold its default, so that any heap
//! shape (aliasing and cycles included) is rebuilt exactly. Call-sequence inputs (building
//! the receiver through the class's own constructors and methods) add their steps here.

use crate::classfile::{ClassId, FieldId, JType};
use crate::heap::{CVal, Concrete, ObjKind};

/// One step of building an input. Objects are named by their index in
/// [`Concrete::objects`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Object `obj` is a new instance of `class` whose constructor does not run.
    Alloc { obj: usize, class: ClassId },
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

/// Rebuilds the input heap of `c`: every input object allocated, then every non-default
/// field and element set.
pub fn rebuild_heap(c: &Concrete) -> InputPlan {
    let mut steps = Vec::new();
    for (i, o) in c.objects.iter().enumerate().filter(|(_, o)| o.input) {
        steps.push(match &o.kind {
            ObjKind::Class(class) => Step::Alloc { obj: i, class: *class },
            ObjKind::Array(e) => Step::NewArray { obj: i, elem: e.clone(), len: o.elems_before.len() },
        });
    }
    for (i, o) in c.objects.iter().enumerate().filter(|(_, o)| o.input) {
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
