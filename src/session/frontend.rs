//! The front end's views of a class path: which methods lower to the IR, and their IR text.

use super::Session;
use crate::classfile::access;
use crate::error::Location;
use crate::ir::print::print_body;
use crate::lower::{Guarded, lower_guarded};
use crate::report::classes::{ClassListing, LowerStatus, MethodListing};
use crate::{Error, Result};

impl Session {
    /// Lowers every method of every loaded class (sorted by name) and hands each class to
    /// `f` as soon as it is done; `f` returns `false` to stop.
    pub fn each_class_lowered(&mut self, mut f: impl FnMut(ClassListing) -> Result<bool>) -> Result<()> {
        let classes: Vec<_> = self
            .program
            .table
            .loaded_classes()
            .into_iter()
            .map(|c| (c.access, c.java_name(), c.methods.clone()))
            .collect();
        for (flags, name, methods) in classes {
            let mut listed = Vec::with_capacity(methods.len());
            for m in methods {
                let table = &mut self.program.table;
                let meth = table.method(m);
                let (access, signature, display) = (meth.access, meth.signature(), table.method_display(m));
                let status = if !meth.has_code {
                    LowerStatus::NoCode { odd: meth.access & (access::NATIVE | access::ABSTRACT) == 0 }
                } else {
                    match lower_guarded(table, m) {
                        Ok(_) => LowerStatus::Lowered,
                        Err(Guarded::Error(e)) => LowerStatus::Failed(e.to_string()),
                        Err(Guarded::Panic(msg)) => LowerStatus::Panicked(msg),
                    }
                };
                listed.push(MethodListing { access, signature, display, status });
            }
            if !f(ClassListing { access: flags, name, methods: listed })? {
                break;
            }
        }
        Ok(())
    }

    /// The IR of every named method, separated by blank lines. A method spec naming a method
    /// without code, or a method that does not lower, is an error; a class name skips its
    /// methods without code.
    pub fn ir_text(&mut self, specs: &[String]) -> Result<String> {
        let mut out = String::new();
        for spec in specs {
            let whole_class = !spec.contains('#');
            let table = &mut self.program.table;
            for m in table.find_methods(spec)? {
                let meth = table.method(m);
                let at = Location {
                    class: Some(table.class(meth.owner).java_name()),
                    method: Some(meth.signature()),
                    pc: None,
                    line: None,
                };
                if !meth.has_code {
                    if whole_class {
                        continue;
                    }
                    let why = if meth.is_abstract() { "abstract" } else { "native or no Code attribute" };
                    return Err(Error::NoCode { at, why: why.into() });
                }
                let body = match lower_guarded(table, m) {
                    Ok(b) => b,
                    Err(Guarded::Error(e)) => return Err(e),
                    Err(Guarded::Panic(msg)) => {
                        return Err(Error::Lowering {
                            at,
                            opcode: String::new(),
                            why: format!("internal error (a bug in uberlazy): {msg}"),
                        });
                    }
                };
                if !out.is_empty() {
                    out.push('\n');
                }
                out.push_str(&print_body(table, &body));
            }
        }
        Ok(out)
    }
}
