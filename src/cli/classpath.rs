//! `--cp` and method names shared by every subcommand: loading the class table and
//! resolving `pkg.Class#method` / `pkg.Class#method(descriptor)` to a method.

use clap::Args;

use crate::classfile::{ClassId, ClassPath, ClassTable, MethodDesc, MethodId};
use crate::{Error, Result};

/// The `--cp` option (flatten it into a subcommand's arguments).
#[derive(Debug, Clone, Args)]
pub struct ClassPathArgs {
    /// Class path: jars, directories of class files and single .class files, joined by `:`.
    #[arg(long, value_name = "PATH")]
    pub cp: String,
}

impl ClassPathArgs {
    /// Opens every class path entry (reads the jars and class files, parses nothing yet).
    pub fn open(&self) -> Result<ClassPath> {
        ClassPath::open(&self.cp)
    }

    /// Opens the class path and loads every class on it into a table.
    pub fn load(&self) -> Result<ClassTable> {
        ClassTable::load(&self.open()?)
    }
}

/// The loaded class named `name` (`pkg.Class`, `pkg/Class` or `pkg.Outer$Inner`).
/// A class that is not on the class path is an error naming it; `context` says why it was
/// needed (e.g. the method spec).
pub fn resolve_class(table: &ClassTable, name: &str, context: Option<&str>) -> Result<ClassId> {
    table
        .lookup(name)
        .filter(|c| table.class(*c).loaded)
        .ok_or_else(|| Error::MissingClass { name: name.to_string(), context: context.map(str::to_string) })
}

/// Resolves `pkg.Class#name` or `pkg.Class#name(descriptor)` to one method declared by the
/// class. The descriptor may use `.` or `/` in class names. An unknown class is an error
/// naming it; an unknown method lists every method of the class (with descriptors); a name
/// with several overloads and no descriptor lists the overloads.
pub fn resolve_method(table: &ClassTable, spec: &str) -> Result<MethodId> {
    let (class_name, rest) = spec.split_once('#').ok_or_else(|| {
        Error::Usage(format!("method `{spec}` must look like pkg.Class#method or pkg.Class#method(descriptor)"))
    })?;
    if class_name.is_empty() || rest.is_empty() {
        return Err(Error::Usage(format!(
            "method `{spec}` must look like pkg.Class#method or pkg.Class#method(descriptor)"
        )));
    }
    let class = resolve_class(table, class_name, Some(&format!("method {spec}")))?;
    let (name, desc) = match rest.find('(') {
        Some(i) => {
            let d = rest[i..].replace('.', "/");
            let parsed = MethodDesc::parse(&d)
                .ok_or_else(|| Error::Usage(format!("method `{spec}`: malformed descriptor {}", &rest[i..])))?;
            (&rest[..i], Some(parsed))
        }
        None => (rest, None),
    };
    let all: &[MethodId] = &table.class(class).methods;
    let named: Vec<MethodId> = all.iter().copied().filter(|m| table.method(*m).name == name).collect();
    let matching: Vec<MethodId> =
        named.iter().copied().filter(|m| desc.as_ref().is_none_or(|d| &table.method(*m).desc == d)).collect();
    let show = |v: &[MethodId]| v.iter().map(|m| table.method_display(*m)).collect::<Vec<_>>();
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
pub fn resolve_methods(table: &ClassTable, spec: &str) -> Result<Vec<MethodId>> {
    if spec.contains('#') {
        return resolve_method(table, spec).map(|m| vec![m]);
    }
    let class = resolve_class(table, spec, None)?;
    Ok(table.class(class).methods.clone())
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
        let m = resolve_method(&t, "p.Over#one").unwrap();
        assert_eq!(t.method(m).name, "one");
        let m = resolve_method(&t, "p.Over#add(J)J").unwrap();
        assert_eq!(t.method(m).desc.ret, Some(JType::Long));
        assert_eq!(
            resolve_method(&t, "p/Over#one(Ljava.lang.Object;)V").unwrap(),
            resolve_method(&t, "p.Over#one").unwrap()
        );

        let e = resolve_method(&t, "p.Over#add").unwrap_err().to_string();
        assert!(e.contains("ambiguous") && e.contains("p.Over#add(I)I") && e.contains("p.Over#add(J)J"), "{e}");
        let e = resolve_method(&t, "p.Over#add(Z)Z").unwrap_err().to_string();
        assert!(e.contains("unknown method p.Over#add(Z)Z") && e.contains("add(I)I") && !e.contains("one"), "{e}");
        let e = resolve_method(&t, "p.Over#nope").unwrap_err().to_string();
        assert!(e.contains("unknown method") && e.contains("p.Over#one(Ljava/lang/Object;)V"), "{e}");
        let e = resolve_method(&t, "p.Phantom#x").unwrap_err().to_string();
        assert!(e.contains("class p.Phantom not found"), "{e}");
        let e = resolve_method(&t, "p.Over").unwrap_err().to_string();
        assert!(e.contains("pkg.Class#method"), "{e}");
        let e = resolve_method(&t, "p.Over#add(Q)").unwrap_err().to_string();
        assert!(e.contains("malformed descriptor"), "{e}");
        assert_eq!(resolve_methods(&t, "p.Over").unwrap().len(), 3);
    }
}
