//! What a run is about: the methods a user names, or the methods of a named class that a
//! test generator covers; and the flags that name methods (`--precondition`,
//! `--validity`), checked before any work.

use super::Session;
use crate::classfile::{ClassId, ClassTable, MethodId, access};
use crate::error::Location;
use crate::{Error, Result};

/// The methods `gen` tests, and the methods of named classes it leaves out, with why.
#[derive(Debug, Clone, Default)]
pub struct Targets {
    pub methods: Vec<MethodId>,
    /// (`pkg.Class#name(desc)`, reason), in class-file order.
    pub left_out: Vec<(String, &'static str)>,
}

impl Session {
    /// What `gen` tests for each spec. A named method (declared or inherited) is tested whatever its access (a
    /// method without code, or one `--precondition` names no method for, is an error). A named
    /// class gives the public, protected and package-private methods with code it declares or
    /// inherits from a superclass on the class path ([`ClassTable::inherited_targets`]),
    /// but not its constructors and initializers, compiler-made methods, the precondition
    /// methods, private helpers (name them to test them), and under `--precondition` the
    /// static methods it names no precondition for. Each method once, in order.
    pub fn targets(&mut self, specs: &[String]) -> Result<Targets> {
        let mut named: Vec<Vec<MethodId>> = Vec::new();
        for spec in specs.iter().filter(|s| s.contains('#')) {
            named.push(self.program.table.find_overloads(spec)?);
        }
        // A class's inherited methods are its targets too, through aliases in the class.
        let mut inherited: Vec<Vec<MethodId>> = Vec::new();
        for spec in specs.iter().filter(|s| !s.contains('#')) {
            let class = self.program.table.find_class(spec, None).ok();
            inherited.push(class.map(|c| self.program.table.inherited_targets(c)).unwrap_or_default());
        }
        let mut inherited = inherited.into_iter();
        let t = &self.program.table;
        let pre = self.config.precondition.as_deref();
        let mut out = Targets::default();
        let mut named = named.into_iter();
        for spec in specs {
            if spec.contains('#') {
                for m in named.next().unwrap_or_default() {
                    let md = t.method(m);
                    if !md.has_code {
                        let why = if md.is_abstract() { "abstract" } else { "native or no Code attribute" };
                        return Err(Error::NoCode { at: at(t, m), why: why.into() });
                    }
                    if !out.methods.contains(&m) {
                        out.methods.push(m);
                    }
                }
                continue;
            }
            let mut methods = t.find_methods(spec)?;
            methods.extend(inherited.next().unwrap_or_default());
            for m in methods {
                let md = t.method(m);
                if !md.has_code || md.name.starts_with('<') || md.access & access::COMPILER_MADE != 0 {
                    continue;
                }
                // A test of a JDK class lives in a package of its own: it calls public methods.
                let jdk = t.class(md.owner).jdk;
                let why = if jdk && (md.access & access::PUBLIC == 0 || t.class(md.owner).access & access::PUBLIC == 0)
                {
                    Some("not public (the tests of a JDK class are outside its package)")
                } else if md.is_private() {
                    Some("private (name it to test it)")
                } else if pre == Some(md.name.as_str()) && md.desc.ret == Some(crate::classfile::JType::Boolean) {
                    Some("the precondition itself")
                } else if let Some(p) = pre
                    && md.is_static()
                    && crate::machine::pre_method::resolve(t, p, m).is_err()
                {
                    Some("static, and the precondition takes none of its arguments")
                } else {
                    None
                };
                match why {
                    Some(w) => out.left_out.push((t.method_display(m), w)),
                    None if !out.methods.contains(&m) => out.methods.push(m),
                    None => {}
                }
            }
        }
        Ok(out)
    }

    /// Checks, before any work, that every flag naming a method names one the input can be
    /// checked with: `--precondition` (from the config) one of the forms of
    /// [`crate::machine::pre_method`] for each target, and `validity` a boolean method without
    /// arguments of each instance target's class (or a superclass).
    pub fn check_flags(&self, methods: &[MethodId], validity: Option<&str>) -> Result<()> {
        let t = &self.program.table;
        if let crate::config::Inputs::Api { .. } = self.config.inputs {
            if let Some(p) = &self.config.precondition {
                return Err(Error::Usage(format!(
                    "--precondition {p} filters input heaps; with --inputs api every input is built by calls \
                     (use --validity {p} to record whether each satisfies it)"
                )));
            }
            if self.config.check_models {
                return Err(Error::Usage(
                    "--check-models replays heap inputs; it does not apply to --inputs api".into(),
                ));
            }
        }
        for m in methods {
            let md = t.method(*m);
            if let Some(p) = &self.config.precondition {
                precondition(t, p, *m)?;
            }
            if let Some(v) = validity
                && !md.is_static()
            {
                check_method_flag(t, "--validity", v, md.owner)?;
            }
        }
        Ok(())
    }
}

impl Session {
    /// The `--precondition` methods of the entries' classes (checked by [`Session::check_flags`]).
    pub(super) fn preconditions(&self, entries: &[MethodId]) -> Result<Vec<MethodId>> {
        let Some(p) = &self.config.precondition else { return Ok(Vec::new()) };
        let t = &self.program.table;
        entries.iter().map(|m| precondition(t, p, *m)).collect()
    }
}

/// The `--precondition` method `name` of `entry` ([`crate::machine::pre_method::resolve`]); an
/// error naming the flag and the entry otherwise.
fn precondition(t: &ClassTable, name: &str, entry: MethodId) -> Result<MethodId> {
    crate::machine::pre_method::resolve(t, name, entry)
        .map(|(m, _)| m)
        .map_err(|why| Error::Usage(format!("--precondition {name} for {}: {why}", t.method_display(entry))))
}

/// Where a method is, for errors.
fn at(t: &ClassTable, m: MethodId) -> Location {
    let md = t.method(m);
    Location { class: Some(t.class(md.owner).java_name()), method: Some(md.signature()), pc: None, line: None }
}

/// The instance method `name()Z` of `class` or a superclass, that `flag` names; an error
/// naming the flag otherwise (saying what there is by that name).
fn check_method_flag(t: &ClassTable, flag: &str, name: &str, class: ClassId) -> Result<MethodId> {
    let same_name: Vec<MethodId> = t
        .superclasses(class)
        .into_iter()
        .flat_map(|c| t.class(c).methods.clone())
        .filter(|m| t.method(*m).name == name)
        .collect();
    let fits = |m: &MethodId| {
        let md = t.method(*m);
        md.desc.params.is_empty()
            && md.desc.ret == Some(crate::classfile::JType::Boolean)
            && md.access & access::STATIC == 0
            && md.has_code
    };
    if let Some(m) = same_name.iter().copied().find(fits) {
        return Ok(m);
    }
    let class_name = t.class(class).java_name();
    let found = if same_name.is_empty() {
        format!("{class_name} has no method named {name}")
    } else {
        let shown: Vec<String> = same_name.iter().map(|m| t.method_display(*m)).collect();
        format!("found only {}", shown.join(", "))
    };
    Err(Error::Usage(format!(
        "{flag} {name}: needs a boolean method {name}() with code and without arguments of {class_name} \
         to check the receiver with; {found}"
    )))
}
