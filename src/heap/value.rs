//! What the heaps hand the machine: values (ints, longs, references), object kinds, and
//! the names and lists of an object's fields.

use crate::classfile::{ClassId, ClassTable, FieldId, JType};
use crate::term::Term;

/// A runtime value: ints (boolean, byte, char, short, int) are 32-bit terms, longs 64-bit
/// terms, references are the strategy's own reference values.
#[derive(Debug, Clone, PartialEq)]
pub enum Value<R> {
    Int(Term),
    Long(Term),
    Ref(R),
}

impl<R> Value<R> {
    /// The term of an int or long value.
    pub fn term(&self) -> Option<&Term> {
        match self {
            Value::Int(t) | Value::Long(t) => Some(t),
            Value::Ref(_) => None,
        }
    }
    pub fn as_ref(&self) -> Option<&R> {
        match self {
            Value::Ref(r) => Some(r),
            _ => None,
        }
    }
}

/// The class of a heap object: a class, or an array with its element type.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ObjKind {
    Class(ClassId),
    Array(JType),
}

impl ObjKind {
    /// The Java type of an object of this kind.
    pub fn jtype(&self, table: &ClassTable) -> JType {
        match self {
            ObjKind::Class(c) => JType::Class(table.class(*c).name.clone()),
            ObjKind::Array(e) => JType::Array(Box::new(e.clone())),
        }
    }

    /// The class of an object of this kind (`None` for an array).
    pub fn class(&self) -> Option<ClassId> {
        match self {
            ObjKind::Class(c) => Some(*c),
            ObjKind::Array(_) => None,
        }
    }
}

/// The name of the symbol for field `f` of the input object named `obj` whose class is
/// `class`: `obj.name`, or `obj.Owner.name` (the declaring class's Java name) when the
/// name alone could stand for another field of the same object: the class has two fields
/// of that name (a superclass's, shadowed) or does not have `f` (an uber-lazy read goes to
/// every location a reference may be at, other classes' included, under guards the path
/// makes false; a POSE symbol of an open type may denote objects of several classes). One
/// name per symbol: two fields under one name would be one value to the solver.
pub fn field_symbol(table: &ClassTable, obj: &str, class: Option<ClassId>, f: FieldId) -> String {
    let field = table.field(f);
    let plain = class.is_some_and(|c| {
        let fields = table.instance_fields(c);
        fields.contains(&f) && fields.iter().filter(|g| table.field(**g).name == field.name).count() == 1
    });
    if plain {
        format!("{obj}.{}", field.name)
    } else {
        format!("{obj}.{}.{}", table.class(field.owner).java_name(), field.name)
    }
}

/// Instance fields of an object kind that the machine tracks (all of a class's instance
/// fields; arrays have none).
pub fn fields_of(table: &ClassTable, kind: &ObjKind) -> Vec<FieldId> {
    match kind {
        ObjKind::Class(c) => table.instance_fields(*c),
        ObjKind::Array(_) => Vec::new(),
    }
}

/// Whether an object of `kind` may be referenced from a location of declared type `ty`.
pub fn compatible(table: &ClassTable, kind: &ObjKind, ty: &JType) -> bool {
    table.is_assignable(&kind.jtype(table), ty)
}
