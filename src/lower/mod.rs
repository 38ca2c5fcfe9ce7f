//! Bytecode → IR: one method at a time, and the [`Program`] of all bodies a run may need.
//!
//! [`lower_method`] turns a method's bytecode into a [`Body`]: the operand stack becomes
//! typed locals, jumps become basic blocks, the exception table becomes per-block handlers.
//! [`Program`] lowers the entry method and everything it may call (including class
//! initializers) before the machine starts, so that the machine only reads finished IR.

mod build;
mod cfg;
pub mod driver;
mod frame;
mod insn;
mod lambda;
mod method;
mod rewrite;

use std::collections::BTreeMap;
use std::rc::Rc;

use crate::classfile::{ClassId, ClassTable, MethodId};
use crate::ir::{Body, Expr, InvokeKind, Stmt};
use crate::{Error, Result};

pub use method::lower_method;

/// Why [`lower_guarded`] produced no body.
#[derive(Debug)]
pub enum Guarded {
    /// The lowering reported an error (names class, method, offset, opcode).
    Error(Error),
    /// The lowering panicked: a bug. The message names the method and the panic.
    Panic(String),
}

/// Lowers `m`, turning a panic in the lowering into [`Guarded::Panic`] (the last line of
/// defence: the lowering is meant to return errors, never panic).
pub fn lower_guarded(table: &mut ClassTable, m: MethodId) -> std::result::Result<Body, Guarded> {
    match crate::classfile::parse::catch_panic(|| lower_method(table, m)) {
        Ok(Ok(b)) => Ok(b),
        Ok(Err(e)) => Err(Guarded::Error(e)),
        Err(msg) => Err(Guarded::Panic(format!("lowering {} panicked: {msg}", table.method_display(m)))),
    }
}

/// The class table plus the lowered bodies of the methods a run may execute.
#[derive(Debug)]
pub struct Program {
    pub table: ClassTable,
    bodies: BTreeMap<MethodId, std::result::Result<Rc<Body>, Error>>,
    /// Call-sequence drivers (`--inputs api`), by their synthetic method.
    drivers: BTreeMap<MethodId, Rc<driver::Driver>>,
}

impl Program {
    pub fn new(table: ClassTable) -> Self {
        Program { table, bodies: BTreeMap::new(), drivers: BTreeMap::new() }
    }

    /// The body of `m`, if it was lowered successfully. An error if lowering failed, and
    /// `Ok(None)` if `m` has no code or was never requested.
    pub fn body(&self, m: MethodId) -> Result<Option<Rc<Body>>> {
        match self.bodies.get(&m) {
            Some(Ok(b)) => Ok(Some(b.clone())),
            Some(Err(e)) => Err(e.clone()),
            None => Ok(None),
        }
    }

    /// Gives `m` a body built by uberlazy (a driver), not lowered from bytecode.
    fn install(&mut self, m: MethodId, body: Body) {
        self.bodies.insert(m, Ok(Rc::new(body)));
    }

    /// The driver whose synthetic method is `m`, if it is one.
    pub fn driver(&self, m: MethodId) -> Option<&Rc<driver::Driver>> {
        self.drivers.get(&m)
    }

    /// The driver of method under test `target`, once installed.
    pub fn driver_of(&self, target: MethodId) -> Option<&Rc<driver::Driver>> {
        self.drivers.values().find(|d| d.target == target)
    }

    /// Lowers `m` (once) and returns its body or the lowering error.
    pub fn lower(&mut self, m: MethodId) -> Result<Rc<Body>> {
        if !self.bodies.contains_key(&m) {
            let r = lower_method(&mut self.table, m).map(Rc::new);
            self.bodies.insert(m, r);
        }
        match self.bodies.get(&m) {
            Some(Ok(b)) => Ok(b.clone()),
            Some(Err(e)) => Err(e.clone()),
            None => Err(Error::Usage(format!("internal: body of {} vanished", self.table.method_display(m)))),
        }
    }

    /// Lowers `entries` and every method with code they may reach: resolved call targets,
    /// every override of a virtual target in a loaded class, and the `<clinit>` of every
    /// class they touch. The entries' own errors are returned; errors in other methods are
    /// kept and reported only if the machine actually calls them.
    pub fn lower_reachable(&mut self, entries: &[MethodId]) -> Result<()> {
        for e in entries {
            self.lower(*e)?;
        }
        let mut work: Vec<MethodId> = entries.to_vec();
        let mut seen: std::collections::BTreeSet<MethodId> = work.iter().copied().collect();
        while let Some(m) = work.pop() {
            let Ok(body) = self.lower(m) else { continue };
            for t in self.callees(&body) {
                if seen.insert(t) && self.table.method(t).has_code {
                    work.push(t);
                }
            }
        }
        Ok(())
    }

    /// Methods `body` may transfer control to (calls and class initializers).
    fn callees(&mut self, body: &Body) -> Vec<MethodId> {
        let mut out = Vec::new();
        let mut classes: Vec<ClassId> = vec![self.table.method(body.method).owner];
        for b in &body.blocks {
            for i in &b.instrs {
                let call = match &i.stmt {
                    Stmt::Invoke(c) | Stmt::Assign(_, Expr::Invoke(c)) => Some(c),
                    _ => None,
                };
                match &i.stmt {
                    Stmt::Assign(_, Expr::GetStatic(f)) | Stmt::PutStatic(f, _) => classes.push(f.owner),
                    Stmt::Assign(_, Expr::New(c)) => {
                        classes.push(*c);
                        // A lambda call site: its class's method runs when the interface is called.
                        if self.table.class(*c).is_lambda() {
                            out.extend(self.table.class(*c).methods.iter().copied());
                        }
                    }
                    _ => {}
                }
                let Some(call) = call else { continue };
                if call.kind == InvokeKind::Static
                    && let Some(jm) = self.table.java_model(call.method.owner, &call.method.name, &call.method.desc)
                {
                    out.push(jm);
                    continue;
                }
                let Some(r) = self.table.resolve_method(call.method.owner, &call.method.name, &call.method.desc) else {
                    continue;
                };
                out.push(r);
                classes.push(call.method.owner);
                if matches!(call.kind, InvokeKind::Virtual | InvokeKind::Interface) {
                    for sub in self.table.loaded_subclasses(call.method.owner) {
                        if let Some(s) = self.table.select_method(sub, r) {
                            out.push(s);
                        }
                    }
                }
            }
        }
        for c in classes {
            for s in self.table.superclasses(c) {
                if let Some(ci) =
                    self.table.class(s).methods.iter().copied().find(|m| self.table.method(*m).name == "<clinit>")
                {
                    out.push(ci);
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }
}
