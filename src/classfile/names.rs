//! What a user types to name code: `pkg.Class`, `pkg.Class#method` and
//! `pkg.Class#method(descriptor)`, resolved against the class table with errors that list
//! the candidates.

use super::access;
use super::descriptor::MethodDesc;
use super::ids::{ClassId, MethodId};
use super::table::ClassTable;
use crate::{Error, Result};

impl ClassTable {
    /// The loaded class named `name` (`pkg.Class`, `pkg/Class` or `pkg.Outer$Inner`).
    /// A class that is not on the class path is an error naming it; `context` says why it
    /// was needed (e.g. the method spec).
    pub fn find_class(&self, name: &str, context: Option<&str>) -> Result<ClassId> {
        self.lookup_or_load(name)
            .filter(|c| self.class(*c).loaded)
            .ok_or_else(|| Error::MissingClass { name: name.to_string(), context: context.map(str::to_string) })
    }

    /// Resolves `pkg.Class#name` or `pkg.Class#name(descriptor)` to one method declared by
    /// the class. The descriptor may use `.` or `/` in class names. An unknown class is an
    /// error naming it; an unknown method lists every method of the class (with
    /// descriptors); a name with several overloads and no descriptor lists the overloads.
    pub fn find_method(&self, spec: &str) -> Result<MethodId> {
        let (class, name, desc) = self.parse_spec(spec)?;
        self.declared_match(spec, class, name, desc.as_ref())
    }

    /// As [`ClassTable::find_method`], and a method the class inherits and does not declare
    /// (`CursorableLinkedList#add`, declared by `AbstractLinkedList`) is a target too: the
    /// class gets an alias of it ([`super::Method::inherited`]) whose receiver is of the
    /// named class. Constructors, static and private methods are not inherited.
    pub fn find_target(&mut self, spec: &str) -> Result<MethodId> {
        let (class, name, desc) = self.parse_spec(spec)?;
        let declared = self.declared_match(spec, class, name, desc.as_ref());
        let Err(Error::UnknownMethod { .. }) = &declared else { return declared };
        let inherited: Vec<MethodId> = self
            .superclasses(class)
            .into_iter()
            .skip(1)
            .flat_map(|c| self.class(c).methods.clone())
            .filter(|m| {
                let md = self.method(*m);
                md.name == name && !md.is_static() && !md.is_private() && !name.starts_with('<') && md.has_code
            })
            .filter(|m| desc.as_ref().is_none_or(|d| &self.method(*m).desc == d))
            .collect();
        // The nearest superclass's method is the one a `Sub` runs (overloads must be told apart).
        let Some(first) = inherited.first().copied() else { return declared };
        let same_desc = |m: &MethodId| self.method(*m).desc == self.method(first).desc;
        if inherited.iter().any(|m| !same_desc(m)) {
            let show = inherited.iter().map(|m| self.method_display(*m)).collect();
            return Err(Error::AmbiguousMethod { spec: spec.to_string(), candidates: show });
        }
        Ok(self.alias(class, first))
    }

    /// The alias in `class` of method `m` it inherits (made once): a method of `class` whose
    /// code is `m`'s and whose receiver is of `class`.
    fn alias(&mut self, class: ClassId, m: MethodId) -> MethodId {
        if let Some(existing) = self.class(class).methods.iter().copied().find(|a| self.method(*a).inherited == Some(m))
        {
            return existing;
        }
        let md = self.method(m).clone();
        let alias = self.add_method(class, md.name, md.desc, md.access, true);
        let a = self.method_mut(alias);
        a.source = md.source;
        a.inherited = Some(m);
        alias
    }

    /// The aliases of the instance methods with code that `class` inherits from superclasses
    /// on the class path and does not declare: the public ones, and the protected and
    /// package-private ones of its own package (which a test there can call); the nearest superclass's method of a signature
    /// is the one a `class` runs. (`PatriciaTrie#put` runs `AbstractPatriciaTrie#put`.)
    pub fn inherited_targets(&mut self, class: ClassId) -> Vec<MethodId> {
        let package = |t: &ClassTable, c: ClassId| t.class(c).name.rsplit_once('/').map(|(p, _)| p.to_string());
        let own_package = package(self, class);
        // An access bridge the class declares does not hide the method it forwards to: javac
        // gives a public class one for each public method of a package-private superclass. A
        // bridge to a method of the same name the class declares (a covariant result, a
        // generic parameter) forwards to that override, so it hides the superclass's method.
        let declared: Vec<&super::table::Method> = self.class(class).methods.iter().map(|m| self.method(*m)).collect();
        let own = |name: &str| declared.iter().any(|md| md.access & access::COMPILER_MADE == 0 && md.name == name);
        let mut seen: std::collections::BTreeSet<(String, String)> = declared
            .iter()
            .filter(|md| md.access & access::COMPILER_MADE == 0 || own(&md.name))
            .map(|md| (md.name.clone(), md.desc.to_string()))
            .collect();
        let mut found = Vec::new();
        for up in self.superclasses(class).into_iter().skip(1) {
            if !self.class(up).on_class_path() {
                break;
            }
            for m in self.class(up).methods.clone() {
                let md = self.method(m);
                if md.is_static() || md.is_private() || md.name.starts_with('<') {
                    continue;
                }
                // A test in the class's package calls a protected or package-private method
                // only when the class declaring it is in that package too.
                let visible = md.access & access::PUBLIC != 0 || package(self, up) == own_package;
                let made = md.access & access::COMPILER_MADE != 0;
                let wanted = visible && md.has_code && !made;
                if seen.insert((md.name.clone(), md.desc.to_string())) && wanted {
                    found.push(m);
                }
            }
        }
        found.into_iter().map(|m| self.alias(class, m)).collect()
    }

    /// Every method `pkg.Class#name` names: the one it names, or each overload of the name the
    /// class declares (with code, in class-file order) when it names several.
    pub fn find_overloads(&mut self, spec: &str) -> Result<Vec<MethodId>> {
        match self.find_target(spec) {
            Ok(m) => Ok(vec![m]),
            Err(Error::AmbiguousMethod { .. }) => {
                let (class, name, _) = self.parse_spec(spec)?;
                Ok(self
                    .class(class)
                    .methods
                    .iter()
                    .copied()
                    .filter(|m| self.method(*m).name == name && self.method(*m).has_code)
                    .collect())
            }
            Err(e) => Err(e),
        }
    }

    /// `(class, name, descriptor)` of a method spec.
    fn parse_spec<'s>(&self, spec: &'s str) -> Result<(ClassId, &'s str, Option<MethodDesc>)> {
        let malformed =
            || Error::Usage(format!("method `{spec}` must look like pkg.Class#method or pkg.Class#method(descriptor)"));
        let (class_name, rest) = spec.split_once('#').ok_or_else(malformed)?;
        if class_name.is_empty() || rest.is_empty() {
            return Err(malformed());
        }
        let class = self.find_class(class_name, Some(&format!("method {spec}")))?;
        let (name, desc) = match rest.find('(') {
            Some(i) => {
                let d = rest[i..].replace('.', "/");
                let parsed = MethodDesc::parse(&d)
                    .ok_or_else(|| Error::Usage(format!("method `{spec}`: malformed descriptor {}", &rest[i..])))?;
                (&rest[..i], Some(parsed))
            }
            None => (rest, None),
        };
        Ok((class, name, desc))
    }

    /// The one method of `class` named `name` (with descriptor `desc` if given).
    fn declared_match(&self, spec: &str, class: ClassId, name: &str, desc: Option<&MethodDesc>) -> Result<MethodId> {
        let all: &[MethodId] = &self.class(class).methods;
        let named: Vec<MethodId> = all.iter().copied().filter(|m| self.method(*m).name == name).collect();
        let matching: Vec<MethodId> =
            named.iter().copied().filter(|m| desc.is_none_or(|d| &self.method(*m).desc == d)).collect();
        let show = |v: &[MethodId]| v.iter().map(|m| self.method_display(*m)).collect::<Vec<_>>();
        match matching.as_slice() {
            [m] => Ok(*m),
            [] => Err(Error::UnknownMethod {
                spec: spec.to_string(),
                candidates: if named.is_empty() { show(all) } else { show(&named) },
            }),
            many => Err(Error::AmbiguousMethod { spec: spec.to_string(), candidates: show(many) }),
        }
    }

    /// Resolves either a method spec (with `#`) to that method, or a class name to every
    /// method of the class, in class-file order.
    pub fn find_methods(&self, spec: &str) -> Result<Vec<MethodId>> {
        if spec.contains('#') {
            return self.find_method(spec).map(|m| vec![m]);
        }
        let class = self.find_class(spec, None)?;
        Ok(self.class(class).methods.clone())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;
    use crate::classfile::{JType, access};

    fn table() -> ClassTable {
        let mut t = ClassTable::new();
        let c = t.intern("p/Over");
        t.class_mut(c).loaded = true;
        let d = |s: &str| MethodDesc::parse(s).unwrap();
        t.add_method(c, "add".into(), d("(I)I"), access::PUBLIC, true);
        t.add_method(c, "add".into(), d("(J)J"), access::PUBLIC, true);
        t.add_method(c, "one".into(), d("(Ljava/lang/Object;)V"), access::PUBLIC, true);
        t.intern("p/Phantom");
        t
    }

    #[test]
    fn resolves_and_reports() {
        let t = table();
        let m = t.find_method("p.Over#one").unwrap();
        assert_eq!(t.method(m).name, "one");
        let m = t.find_method("p.Over#add(J)J").unwrap();
        assert_eq!(t.method(m).desc.ret, Some(JType::Long));
        assert_eq!(t.find_method("p/Over#one(Ljava.lang.Object;)V").unwrap(), t.find_method("p.Over#one").unwrap());

        let e = t.find_method("p.Over#add").unwrap_err().to_string();
        assert!(e.contains("ambiguous") && e.contains("p.Over#add(I)I") && e.contains("p.Over#add(J)J"), "{e}");
        let e = t.find_method("p.Over#add(Z)Z").unwrap_err().to_string();
        assert!(e.contains("unknown method p.Over#add(Z)Z") && e.contains("add(I)I") && !e.contains("one"), "{e}");
        let e = t.find_method("p.Over#nope").unwrap_err().to_string();
        assert!(e.contains("unknown method") && e.contains("p.Over#one(Ljava/lang/Object;)V"), "{e}");
        let e = t.find_method("p.Phantom#x").unwrap_err().to_string();
        assert!(e.contains("class p.Phantom not found"), "{e}");
        let e = t.find_method("p.Over").unwrap_err().to_string();
        assert!(e.contains("pkg.Class#method"), "{e}");
        let e = t.find_method("p.Over#add(Q)").unwrap_err().to_string();
        assert!(e.contains("malformed descriptor"), "{e}");
        assert_eq!(t.find_methods("p.Over").unwrap().len(), 3);
    }
}
