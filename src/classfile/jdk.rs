//! Installs the JDK classes of [`crate::models::classes`] into a class table as phantoms.

use super::access;
use super::descriptor::{JType, MethodDesc};
use super::table::ClassTable;
use crate::models::classes::{FIELDS, FINAL, HIERARCHY, IMPLEMENTS, INTERFACES, METHODS};

impl ClassTable {
    /// An empty table that knows only the modelled JDK classes (as phantoms with supers).
    pub fn new() -> Self {
        let mut t = ClassTable::default();
        install(&mut t);
        t
    }
}

/// Whether the models describe class `name` (it stays a phantom even when a JDK is at hand).
pub(super) fn modelled(name: &str) -> bool {
    name == "java/lang/Object"
        || HIERARCHY.iter().any(|(c, _)| *c == name)
        || INTERFACES.contains(&name)
        || FIELDS.iter().any(|(c, _, _)| *c == name)
}

/// Registers the known JDK classes as phantoms with their real superclasses.
pub(super) fn install(t: &mut ClassTable) {
    t.intern("java/lang/Object");
    for (c, s) in HIERARCHY {
        let sup = t.intern(s);
        let id = t.intern(c);
        t.class_mut(id).super_class = Some(sup);
    }
    for c in FINAL {
        let id = t.intern(c);
        t.class_mut(id).access |= access::FINAL;
    }
    for (c, name, desc) in FIELDS {
        let owner = t.intern(c);
        if let Some(ty) = JType::parse(desc) {
            t.add_field(owner, name.to_string(), ty, access::PRIVATE, None);
        }
    }
    for i in INTERFACES {
        let id = t.intern(i);
        t.class_mut(id).access |= access::INTERFACE | access::ABSTRACT;
    }
    for (c, i) in IMPLEMENTS {
        let iface = t.intern(i);
        let id = t.intern(c);
        t.class_mut(id).interfaces.push(iface);
    }
    for (c, name, desc, abstract_) in METHODS {
        let owner = t.intern(c);
        if let Some(d) = MethodDesc::parse(desc) {
            let acc = access::PUBLIC | if *abstract_ { access::ABSTRACT } else { 0 };
            t.add_method(owner, name.to_string(), d, acc, false);
        }
    }
}
