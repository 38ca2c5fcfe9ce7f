//! Which classes a whole-library `gen` tests: those of `--package` and `--all`, and those of
//! the specs a user names (each with the specs its worker gets), and the classes left out, with why.

use std::collections::BTreeMap;

use crate::session::Session;
use crate::{Error, Result};

/// What a user asked to test.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// Positional specs: `pkg.Class`, `pkg.Class#method` or `pkg.Class#method(desc)`.
    pub specs: Vec<String>,
    /// `--package`: each package with its subpackages.
    pub packages: Vec<String>,
    /// `--all`: every class of the class path (JDK classes only when named).
    pub all: bool,
}

/// One class under test and the specs its worker gets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassJob {
    /// The binary name in Java form (`pkg.Outer$Inner`): the sort key, the shard key and the
    /// name of the class's JVM options file.
    pub class: String,
    /// The class itself, or the methods a user named in it, in the order named.
    pub specs: Vec<String>,
}

/// A selected class that gets no worker, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftOut {
    pub class: String,
    pub why: String,
}

/// The classes of a run, each list sorted by class name.
#[derive(Debug, Clone, Default)]
pub struct Selected {
    pub jobs: Vec<ClassJob>,
    pub left_out: Vec<LeftOut>,
}

/// The class part of a spec (`pkg.Class` of `pkg.Class#m(I)V`).
pub fn class_of(spec: &str) -> &str {
    spec.split('#').next().unwrap_or(spec).trim()
}

/// Whether the class `name` (Java form) is in `package` or one of its subpackages.
pub fn in_package(name: &str, package: &str) -> bool {
    let own = name.rsplit_once('.').map_or("", |(p, _)| p);
    own == package || own.strip_prefix(package).is_some_and(|rest| rest.starts_with('.'))
}

/// Classes no one writes a test for by hand and which are never listed: anonymous and local
/// classes (`Outer$1`, `Outer$1Local`), `package-info` and `module-info`.
fn unlisted(name: &str) -> bool {
    let simple = name.rsplit('.').next().unwrap_or(name);
    let nested = simple.rsplit('$').next().unwrap_or(simple);
    simple == "package-info"
        || simple == "module-info"
        || (simple.contains('$') && nested.starts_with(|c: char| c.is_ascii_digit()))
}

/// Resolves a request against the session's class path. Named specs are checked as `gen`
/// checks them (an unknown class or method is an error) and grouped by class; a class of a
/// package (or of `--all`) is a target when it is public, concrete, and has a method `gen`
/// tests ([`Session::targets`]); otherwise it is left out with why. A package without a
/// class, or a request that selects nothing to test, is a usage error naming it.
pub fn select(session: &mut Session, req: &Request) -> Result<Selected> {
    let mut jobs: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut left: BTreeMap<String, String> = BTreeMap::new();
    if !req.specs.is_empty() {
        session.targets(&req.specs)?;
    }
    for spec in &req.specs {
        let c = session.table().find_class(class_of(spec), None)?;
        let class = session.table().class(c).java_name();
        let specs = jobs.entry(class.clone()).or_default();
        // A whole class subsumes the methods named in it.
        if specs.first() != Some(&class) {
            if spec.contains('#') {
                if !specs.contains(spec) {
                    specs.push(spec.clone());
                }
            } else {
                *specs = vec![class];
            }
        }
    }
    for (class, specs) in &jobs {
        if let Some(why) = no_tests(session, specs)? {
            left.insert(class.clone(), why);
        }
    }
    jobs.retain(|c, _| !left.contains_key(c));
    let mut found: BTreeMap<&str, usize> = req.packages.iter().map(|p| (p.as_str(), 0)).collect();
    let candidates: Vec<(String, bool, bool, bool)> = session
        .table()
        .loaded_classes()
        .iter()
        .map(|c| (c.java_name(), c.is_interface(), c.is_abstract(), c.is_public()))
        .collect();
    let mut any = false;
    for (name, interface, abstract_, public) in candidates {
        let mut wanted = req.all;
        for (p, n) in found.iter_mut() {
            if in_package(&name, p) {
                *n += 1;
                wanted = true;
            }
        }
        if !wanted || unlisted(&name) || jobs.contains_key(&name) || left.contains_key(&name) {
            continue;
        }
        any = true;
        let why = if interface {
            Some("interface".to_string())
        } else if abstract_ {
            Some("abstract".to_string())
        } else if !public {
            Some("not public".to_string())
        } else {
            no_tests(session, std::slice::from_ref(&name))?
        };
        match why {
            Some(w) => {
                left.insert(name, w);
            }
            None => {
                jobs.insert(name.clone(), vec![name]);
            }
        }
    }
    if let Some((p, _)) = found.iter().find(|(_, n)| **n == 0) {
        return Err(Error::Usage(format!(
            "--package {p}: no class of this package (or below it) is on the class path"
        )));
    }
    if req.all && !any && jobs.is_empty() {
        return Err(Error::Usage("--all: the class path holds no class".into()));
    }
    let selected = Selected {
        jobs: jobs.into_iter().map(|(class, specs)| ClassJob { class, specs }).collect(),
        left_out: left.into_iter().map(|(class, why)| LeftOut { class, why }).collect(),
    };
    if selected.jobs.is_empty() {
        return Err(Error::Usage(format!("nothing to test in {}: {}", what(req), left_out_text(&selected.left_out))));
    }
    Ok(selected)
}

/// Why the specs of one class give `gen` no method to test, if they do not.
fn no_tests(session: &mut Session, specs: &[String]) -> Result<Option<String>> {
    let t = match session.targets(specs) {
        Ok(t) => t,
        Err(e) => return Ok(Some(e.to_string())),
    };
    if !t.methods.is_empty() {
        return Ok(None);
    }
    let mut whys: Vec<&str> = t.left_out.iter().map(|(_, why)| *why).collect();
    whys.sort_unstable();
    whys.dedup();
    Ok(Some(if whys.is_empty() {
        "no method with code".to_string()
    } else {
        format!("no method to test ({})", whys.join("; "))
    }))
}

/// The request in words, for errors: `package p`, `the class path`, or the specs.
fn what(req: &Request) -> String {
    let mut parts: Vec<String> = req.packages.iter().map(|p| format!("package {p}")).collect();
    if req.all {
        parts.push("the class path".into());
    }
    parts.extend(req.specs.iter().cloned());
    parts.join(", ")
}

/// The classes left out, grouped by why: `abstract: a.B, a.C; interface: a.D`.
pub fn left_out_text(left: &[LeftOut]) -> String {
    let mut by: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for l in left {
        by.entry(&l.why).or_default().push(&l.class);
    }
    if by.is_empty() {
        return "no class".into();
    }
    by.iter().map(|(why, cs)| format!("{why}: {}", cs.join(", "))).collect::<Vec<_>>().join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packages_include_subpackages_but_not_siblings_that_share_a_prefix() {
        assert!(in_package("a.b.C", "a.b"));
        assert!(in_package("a.b.c.D", "a.b"));
        assert!(!in_package("a.bc.D", "a.b"));
        assert!(!in_package("a.C", "a.b"));
    }

    #[test]
    fn anonymous_and_local_classes_are_not_listed() {
        assert!(unlisted("a.Outer$1"));
        assert!(unlisted("a.Outer$1Local"));
        assert!(unlisted("a.package-info"));
        assert!(!unlisted("a.Outer$Inner"));
        assert!(!unlisted("a.Outer"));
    }
}
