//! Subtyping, field and method resolution (JVMS §5.4.3) and virtual selection (§5.4.6).

use std::collections::BTreeSet;

use super::descriptor::{JType, MethodDesc};
use super::ids::{ClassId, FieldId, MethodId};
use super::table::ClassTable;

impl ClassTable {
    /// The superclass chain of `c`, starting with `c` itself.
    pub fn superclasses(&self, c: ClassId) -> Vec<ClassId> {
        let mut out = vec![c];
        let mut cur = self.class(c).super_class;
        while let Some(s) = cur {
            if out.contains(&s) {
                break; // a cyclic hierarchy from a corrupt class path; stop rather than loop
            }
            out.push(s);
            cur = self.class(s).super_class;
        }
        out
    }

    /// Every superinterface of `c` (direct and inherited), in breadth-first order.
    pub fn all_interfaces(&self, c: ClassId) -> Vec<ClassId> {
        let mut out: Vec<ClassId> = Vec::new();
        let mut queue: Vec<ClassId> = Vec::new();
        for s in self.superclasses(c) {
            queue.extend(self.class(s).interfaces.iter().copied());
        }
        let mut i = 0;
        while i < queue.len() {
            let x = queue[i];
            i += 1;
            if !out.contains(&x) {
                out.push(x);
                queue.extend(self.class(x).interfaces.iter().copied());
            }
        }
        out
    }

    /// Whether class `c` or a superclass fixes a type argument of its supertypes to `String`
    /// in its generic signature (`PatriciaTrie<E> extends AbstractPatriciaTrie<String, E>`):
    /// then the class's `Object`-typed keys and elements are strings.
    pub fn fixes_string_argument(&self, c: ClassId) -> bool {
        let mut next = Some(c);
        let mut seen = 0;
        while let Some(k) = next.filter(|_| seen < 64) {
            let class = self.class(k);
            if class.signature.as_deref().is_some_and(|s| supertypes(s).contains("Ljava/lang/String;")) {
                return true;
            }
            next = class.super_class;
            seen += 1;
        }
        false
    }

    /// Whether class `sub` is `sup` or a subclass/implementor of it.
    pub fn is_subclass(&self, sub: ClassId, sup: ClassId) -> bool {
        if sub == sup || self.class(sup).name == "java/lang/Object" {
            return true;
        }
        if self.superclasses(sub).contains(&sup) {
            return true;
        }
        // A lambda class's functional interface may be a phantom (not known as an interface).
        (self.class(sup).is_interface() || self.class(sub).is_lambda()) && self.all_interfaces(sub).contains(&sup)
    }

    /// Whether a value of type `sub` may be assigned to type `sup` (JVMS §6.5 checkcast rules).
    pub fn is_assignable(&self, sub: &JType, sup: &JType) -> bool {
        match (sub, sup) {
            (_, JType::Class(s)) if s == "java/lang/Object" => sub.is_reference(),
            (JType::Class(a), JType::Class(b)) => match (self.lookup(a), self.lookup_or_load(b)) {
                (Some(a), Some(b)) => self.is_subclass(a, b),
                _ => a == b,
            },
            (JType::Array(_), JType::Class(s)) => s == "java/lang/Cloneable" || s == "java/io/Serializable",
            (JType::Array(a), JType::Array(b)) => match (a.is_reference(), b.is_reference()) {
                (true, true) => self.is_assignable(a, b),
                (false, false) => a == b,
                _ => false,
            },
            _ => sub == sup && !sub.is_reference(),
        }
    }

    /// Field resolution (JVMS §5.4.3.2): the class, then its superinterfaces, then superclasses.
    pub fn resolve_field(&self, owner: ClassId, name: &str, ty: &JType) -> Option<FieldId> {
        let mut seen = BTreeSet::new();
        self.resolve_field_in(owner, name, ty, &mut seen)
    }

    fn resolve_field_in(&self, c: ClassId, name: &str, ty: &JType, seen: &mut BTreeSet<ClassId>) -> Option<FieldId> {
        if !seen.insert(c) {
            return None;
        }
        let class = self.class(c);
        if let Some(f) = class.fields.iter().find(|f| {
            let f = self.field(**f);
            f.name == name && &f.ty == ty
        }) {
            return Some(*f);
        }
        for i in &class.interfaces {
            if let Some(f) = self.resolve_field_in(*i, name, ty, seen) {
                return Some(f);
            }
        }
        class.super_class.and_then(|s| self.resolve_field_in(s, name, ty, seen))
    }

    /// Method resolution (JVMS §5.4.3.3 and §5.4.3.4): the class and its superclasses,
    /// then the maximally-specific non-abstract superinterface method, then any.
    pub fn resolve_method(&self, owner: ClassId, name: &str, desc: &MethodDesc) -> Option<MethodId> {
        for c in self.superclasses(owner) {
            if let Some(m) = self.declared_method(c, name, desc) {
                return Some(m);
            }
        }
        let ifaces = self.all_interfaces(owner);
        let found: Vec<MethodId> = ifaces.iter().filter_map(|i| self.declared_method(*i, name, desc)).collect();
        found.iter().copied().find(|m| !self.method(*m).is_abstract()).or_else(|| found.first().copied())
    }

    /// The method with this exact name and descriptor declared by `c` itself.
    pub fn declared_method(&self, c: ClassId, name: &str, desc: &MethodDesc) -> Option<MethodId> {
        let is = |m: &MethodId| {
            let m = self.method(*m);
            m.name == name && &m.desc == desc
        };
        let class = self.class(c);
        let declared = class.methods.iter().copied().find(is);
        if declared.is_some() || class.loaded {
            return declared;
        }
        self.learned_methods(c).into_iter().find(is)
    }

    /// Virtual selection (JVMS §5.4.6): the method that `invokevirtual`/`invokeinterface` of
    /// the resolved method runs on an object of class `runtime`.
    pub fn select_method(&self, runtime: ClassId, resolved: MethodId) -> Option<MethodId> {
        let r = self.method(resolved);
        if r.is_private() || r.is_static() {
            return Some(resolved);
        }
        for c in self.superclasses(runtime) {
            if let Some(m) = self.declared_method(c, &r.name, &r.desc) {
                let mm = self.method(m);
                if !mm.is_static() && !mm.is_abstract() {
                    return Some(m);
                }
                if mm.is_abstract() && !self.class(c).is_interface() {
                    return None; // AbstractMethodError
                }
            }
        }
        // Default methods: a maximally-specific non-abstract superinterface method.
        let ifaces = self.all_interfaces(runtime);
        let candidates: Vec<MethodId> = ifaces
            .iter()
            .filter_map(|i| self.declared_method(*i, &r.name, &r.desc))
            .filter(|m| !self.method(*m).is_abstract() && !self.method(*m).is_static())
            .collect();
        candidates
            .iter()
            .copied()
            .find(|m| {
                let owner = self.method(*m).owner;
                !candidates.iter().any(|o| *o != *m && self.is_subclass(self.method(*o).owner, owner))
            })
            .or_else(|| if r.is_abstract() { None } else { Some(resolved) })
    }

    /// Whether `f` is among [`ClassTable::instance_fields`] of `c`, without listing them (a
    /// heap asks it at every read through a reference with several locations).
    pub fn has_instance_field(&self, c: ClassId, f: FieldId) -> bool {
        !self.field(f).is_static() && self.superclasses(c).iter().any(|k| self.class(*k).fields.contains(&f))
    }

    /// Instance fields of `c`, inherited ones first (superclass order), in declaration order.
    pub fn instance_fields(&self, c: ClassId) -> Vec<FieldId> {
        let mut chain = self.superclasses(c);
        chain.reverse();
        chain.into_iter().flat_map(|k| self.class(k).fields.to_vec()).filter(|f| !self.field(*f).is_static()).collect()
    }

    /// The loaded classes that are `c` or a subclass/implementor of it (sorted by name).
    pub fn loaded_subclasses(&self, c: ClassId) -> Vec<ClassId> {
        if let Some(known) = self.subclasses.borrow().get(&c) {
            return known.to_vec();
        }
        let subs: Vec<ClassId> =
            self.loaded_classes().into_iter().map(|k| k.id).filter(|k| self.is_subclass(*k, c)).collect();
        self.subclasses.borrow_mut().insert(c, subs.as_slice().into());
        subs
    }
}

/// The supertypes part of a class signature: what follows its type parameters `<...>`
/// (String is final, so it shows there only as a type argument).
fn supertypes(signature: &str) -> &str {
    if !signature.starts_with('<') {
        return signature;
    }
    let mut depth = 0usize;
    for (i, ch) in signature.char_indices() {
        match ch {
            '<' => depth += 1,
            '>' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return signature.get(i + 1..).unwrap_or_default();
                }
            }
            _ => {}
        }
    }
    ""
}
