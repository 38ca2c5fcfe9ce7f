//! Bytecode → IR: one method at a time, and the [`Program`] of all bodies a run may need.
//!
//! [`lower_method`] turns a method's bytecode into a [`Body`]: the operand stack becomes
//! typed locals, jumps become basic blocks, the exception table becomes per-block handlers.
//! [`Program`] lowers a method the first time a run asks for its body, as a JVM links a
//! method when it is first called: a run pays only for the code its paths reach.

mod build;
mod cfg;
pub mod driver;
mod frame;
mod indy;
mod insn;
mod install;
mod lambda;
mod method;
mod recipes;
mod rewrite;

use std::cell::RefCell;
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
pub fn lower_guarded(table: &ClassTable, m: MethodId) -> std::result::Result<Body, Guarded> {
    match crate::classfile::parse::catch_panic(|| lower_method(table, m)) {
        Ok(Ok(b)) => Ok(b),
        Ok(Err(e)) => Err(Guarded::Error(e)),
        Err(msg) => Err(Guarded::Panic(format!("lowering {} panicked: {msg}", table.method_display(m)))),
    }
}

/// The class table plus the bodies of the methods lowered so far.
#[derive(Debug)]
pub struct Program {
    pub table: ClassTable,
    /// Each method's body or lowering error, made the first time it is asked for.
    bodies: RefCell<BTreeMap<MethodId, std::result::Result<Rc<Body>, Error>>>,
    /// Call-sequence drivers (`--inputs api`), by their synthetic method.
    drivers: BTreeMap<MethodId, Rc<driver::Driver>>,
}

impl Program {
    pub fn new(table: ClassTable) -> Self {
        Program { table, bodies: RefCell::new(BTreeMap::new()), drivers: BTreeMap::new() }
    }

    /// The body of `m`, lowered now if this is the first time it is asked for; `Ok(None)` if
    /// `m` has no code (abstract, native, or a phantom class's), the lowering error if its
    /// code does not lower (an unsupported instruction, malformed bytecode).
    pub fn body(&self, m: MethodId) -> Result<Option<Rc<Body>>> {
        if let Some(known) = self.bodies.borrow().get(&m) {
            return known.clone().map(Some);
        }
        let method = self.table.method(m);
        if !method.has_code || !self.table.class(method.owner).loaded {
            return Ok(None);
        }
        let lowered = match lower_guarded(&self.table, m) {
            Ok(b) => Ok(Rc::new(b)),
            Err(Guarded::Error(e)) => Err(e),
            Err(Guarded::Panic(msg)) => Err(Error::Lowering {
                at: crate::error::Location {
                    class: Some(self.table.class(method.owner).java_name()),
                    method: Some(method.signature()),
                    pc: None,
                    line: None,
                },
                opcode: "(method)".into(),
                why: msg,
            }),
        };
        self.bodies.borrow_mut().insert(m, lowered.clone());
        lowered.map(Some)
    }

    /// How many methods have been lowered (or failed to lower) so far.
    pub fn lowered(&self) -> usize {
        self.bodies.borrow().len()
    }

    /// Gives `m` a body built by uberlazy (a driver), not lowered from bytecode.
    fn install(&mut self, m: MethodId, body: Body) {
        self.bodies.get_mut().insert(m, Ok(Rc::new(body)));
    }

    /// The driver whose synthetic method is `m`, if it is one.
    pub fn driver(&self, m: MethodId) -> Option<&Rc<driver::Driver>> {
        self.drivers.get(&m)
    }

    /// The driver of method under test `target`, once installed.
    pub fn driver_of(&self, target: MethodId) -> Option<&Rc<driver::Driver>> {
        self.drivers.values().find(|d| d.target == target)
    }

    /// The body of `m` or why it has none: its lowering error, or [`Error::NoCode`].
    pub fn lower(&self, m: MethodId) -> Result<Rc<Body>> {
        self.body(m)?.ok_or_else(|| {
            let method = self.table.method(m);
            Error::NoCode {
                at: crate::error::Location {
                    class: Some(self.table.class(method.owner).java_name()),
                    method: Some(method.signature()),
                    pc: None,
                    line: None,
                },
                why: "abstract or native".into(),
            }
        })
    }

    /// Methods `body` may transfer control to (calls and class initializers).
    fn callees(&self, body: &Body) -> Vec<MethodId> {
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
