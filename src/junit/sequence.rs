//! The test of a trace whose input a call sequence built (`--inputs api`): the constructor and
//! calls the trace's driver decisions chose, with the model's arguments, then the call of the
//! method under test and the oracle over the heap reachable from the receiver afterwards.
//!
//! No input is built by reflection. The oracle reads fields of class path classes through
//! `Heap.get`; objects of the JDK's packages are checked by class (and a box by value) only,
//! so that a test of `java.util.LinkedList` runs without `--add-opens`, and their state
//! after the call is checked through the observers the driver ran (`size()`).

use std::fmt::Write as _;

use super::describe;
use super::emit::Target;
use super::java::{comment, literal, type_name};
use super::oracle::Oracle;
use crate::classfile::{ClassTable, JType};
use crate::heap::{CVal, Concrete};
use crate::lower::driver::{Driver, Site};
use crate::machine::{RunResult, Trace, TraceKind, driver_decisions};

/// The variable of the receiver in a test.
const RECEIVER: &str = "r";

/// An argument of a call in a test.
fn argument(c: &Concrete, a: &crate::lower::driver::Arg) -> String {
    let v = c.args.get(a.param).cloned().unwrap_or(CVal::Int(0));
    let x = match v {
        CVal::Int(x) | CVal::Long(x) => x,
        _ => 0,
    };
    if a.boxed { format!("Integer.valueOf({})", literal(&JType::Int, x)) } else { literal(&a.ty, x) }
}

/// An argument as a comment shows it: a boxed key as its number.
fn shown(c: &Concrete, a: &crate::lower::driver::Arg) -> String {
    match c.args.get(a.param) {
        Some(CVal::Int(x) | CVal::Long(x)) if a.boxed => x.to_string(),
        Some(CVal::Int(x) | CVal::Long(x)) => literal(&a.ty, *x),
        _ => "0".to_string(),
    }
}

/// `name(arg, ...)` of a site with the model's arguments (as code, or as a comment shows them).
fn call_text(table: &ClassTable, c: &Concrete, site: &Site, code: bool) -> String {
    let args: Vec<String> = site.args.iter().map(|a| if code { argument(c, a) } else { shown(c, a) }).collect();
    format!("{}({})", table.method(site.method).name, args.join(", "))
}

/// The calls that built a trace's input: the constructor first.
pub(super) fn calls<'d>(d: &'d Driver, t: &Trace) -> Vec<&'d Site> {
    d.calls(driver_decisions(d, &t.prefix))
}

/// `new SinglyLinkedList(), then addFirst(1), addFirst(2)`.
fn input_text(table: &ClassTable, d: &Driver, c: &Concrete, t: &Trace) -> String {
    let sites = calls(d, t);
    let class = JType::Class(table.class(d.class).name.clone()).short_name();
    let mut parts = sites.iter().map(|s| {
        if table.method(s.method).name == "<init>" {
            let args: Vec<String> = s.args.iter().map(|a| shown(c, a)).collect();
            format!("new {class}({})", args.join(", "))
        } else {
            call_text(table, c, s, false)
        }
    });
    let first = parts.next().unwrap_or_else(|| "no receiver".to_string());
    let rest: Vec<String> = parts.collect();
    let built = if rest.is_empty() { first } else { format!("{first}, then {}", rest.join(", ")) };
    let args: Vec<String> = d.call.args.iter().map(|a| shown(c, a)).collect();
    if args.is_empty() { built } else { format!("{built}; called with {}", args.join(", ")) }
}

impl Target<'_> {
    /// The body of the test of one trace of a driver (see the module comment).
    pub(super) fn sequence_test(&self, d: &Driver, r: &RunResult, t: &Trace, c: &Concrete) -> Result<String, String> {
        let table = self.table;
        let m = table.method(self.method);
        let mut s = String::new();
        let _ = writeln!(s, "    /**");
        let what = [
            format!("Input: {}.", input_text(table, d, c, t)),
            format!("Path: {}.", describe::path(table, self.method, t)),
            format!("Outcome: {}.", describe::outcome(table, t, c, m.desc.ret.as_ref())),
        ];
        for text in what {
            let text = comment(&text).replace("*/", "* /");
            for (k, l) in describe::wrap(&text, super::emit::COMMENT_WIDTH).iter().enumerate() {
                let _ = writeln!(s, "     *{}{l}", if k == 0 { " " } else { "     " });
            }
        }
        let _ = writeln!(s, "     */");
        let _ = writeln!(s, "    @Test");
        let _ = writeln!(s, "    public void {}() throws Throwable {{", self.test_name(t));
        let indent = "        ";
        let class_ty = type_name(&JType::Class(table.class(d.class).name.clone()));
        for site in calls(d, t) {
            let md = table.method(site.method);
            if md.name == "<init>" {
                let args: Vec<String> = site.args.iter().map(|a| argument(c, a)).collect();
                let _ = writeln!(s, "{indent}{class_ty} {RECEIVER} = new {class_ty}({});", args.join(", "));
            } else {
                let _ = writeln!(s, "{indent}{RECEIVER}.{};", call_text(table, c, site, true));
            }
        }
        let statics = |f: Option<crate::classfile::FieldId>| f.and_then(|f| c.statics_after.get(&f));
        let receiver = if m.is_static() { None } else { statics(d.receiver) };
        if !m.is_static() && !matches!(receiver, Some(CVal::Obj(_))) {
            return Err("the sequence built no receiver".to_string());
        }
        if let (Some(v), false) = (self.validity, m.is_static()) {
            let _ = writeln!(s, "{indent}Heap.valid(\"{}#{}\", () -> {RECEIVER}.{v}());", comment(&r.method), t.id);
        }
        let target = if m.is_static() { class_ty.clone() } else { RECEIVER.to_string() };
        let call = format!("{target}.{}", call_text(table, c, &d.call, true));
        let mut oracle = Oracle::new(table, c, indent).opaque_jdk();
        if let Some(CVal::Obj(i)) = receiver {
            oracle.root(*i, RECEIVER);
        }
        self.call_and_result(&mut s, indent, &call, t, c, &mut oracle);
        oracle.heap(&[]);
        if t.kind != TraceKind::Exception {
            for (om, f) in &d.observers {
                if let Some(v) = c.statics_after.get(f) {
                    let ty = table.field(*f).ty.clone();
                    oracle.check(&ty, v, &format!("{RECEIVER}.{}()", table.method(*om).name));
                }
            }
        }
        s.push_str(&oracle.finish());
        let _ = writeln!(s, "    }}");
        Ok(s)
    }
}

/// The calls after the constructor that built the input of a trace of driver `d`.
pub fn sequence_calls(d: &crate::lower::driver::Driver, t: &crate::machine::Trace) -> usize {
    d.calls_after_constructor(crate::machine::driver_decisions(d, &t.prefix))
}
