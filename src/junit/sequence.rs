//! The test of a trace whose input a call sequence built (`--inputs api`): the constructor and
//! calls the trace's driver decisions chose, with the model's arguments, then the call of the
//! method under test and the oracle over the heap reachable from the receiver afterwards.
//!
//! No input is built by reflection. The oracle reads fields of class path classes through
//! `Heap.get`; objects of the JDK's packages are checked by class (and a box by value) only,
//! so that a test of `java.util.LinkedList` runs without `--add-opens`, and their state
//! after the call is checked through the observers the driver ran (`size()`).

use std::collections::HashMap;
use std::fmt::Write as _;

use super::describe;
use super::emit::Target;
use super::java::{comment, ident, literal, string_literal, type_name};
use super::oracle::Oracle;
use crate::classfile::{ClassTable, JType};
use crate::heap::{CVal, Concrete};
use crate::lower::driver::{Arg, Driver, How, Recipe, Site};
use crate::machine::{RunResult, Trace, TraceKind, driver_decisions};

/// The variable of the receiver in a test.
const RECEIVER: &str = "r";

/// Writes the arguments of a test's calls: values as literals, objects built by a recipe as
/// statements before the call that needs them (`ArrayList list1 = new ArrayList();`).
struct Args<'a> {
    table: &'a ClassTable,
    c: &'a Concrete,
    indent: &'a str,
    /// Statements to write before the call being written.
    before: String,
    /// Variables made so far, by base name.
    taken: HashMap<String, usize>,
}

impl<'a> Args<'a> {
    fn new(table: &'a ClassTable, c: &'a Concrete, indent: &'a str) -> Self {
        Args { table, c, indent, before: String::new(), taken: HashMap::new() }
    }

    /// The int a driver parameter holds in the model.
    fn int(&self, a: &Arg) -> i64 {
        match self.c.args.get(a.param) {
            Some(CVal::Int(x) | CVal::Long(x)) => *x,
            _ => 0,
        }
    }

    /// An argument as code.
    fn code(&mut self, a: &Arg) -> String {
        match &a.how {
            How::Boxed => format!("Integer.valueOf({})", literal(&JType::Int, self.int(a))),
            How::Param => self.param(a),
            How::Built(_) => match a.recipe(self.int(a)) {
                Some(r) => self.built(r),
                None => format!("({}) null", type_name(&a.ty)),
            },
        }
    }

    /// A parameter's value: a literal, a string, or null.
    fn param(&self, a: &Arg) -> String {
        match self.c.args.get(a.param) {
            Some(CVal::Obj(i)) => match crate::inputs::input_string(self.table, self.c, *i) {
                Some(units) => string_literal(&units),
                None => "null".to_string(),
            },
            Some(CVal::Null) => format!("({}) null", type_name(&a.ty)),
            _ => literal(&a.ty, self.int(a)),
        }
    }

    /// Writes the statements of recipe `r` and returns the variable that holds its object.
    fn built(&mut self, r: &Recipe) -> String {
        let ty = type_name(&JType::Class(self.table.class(r.class).name.clone()));
        let simple = JType::Class(self.table.class(r.class).name.clone()).short_name();
        let simple = simple.rsplit('$').next().unwrap_or(&simple).to_string();
        let mut base: String =
            simple.chars().take(1).flat_map(char::to_lowercase).chain(simple.chars().skip(1)).collect();
        base = ident(&base);
        let n = self.taken.entry(base.clone()).or_insert(0);
        *n += 1;
        let var = format!("{base}{n}");
        for (i, site) in r.calls.iter().enumerate() {
            let args: Vec<String> = site.args.iter().map(|a| self.code(a)).collect();
            let md = self.table.method(site.method);
            let line = match (i, md.name.as_str()) {
                (0, "<init>") => format!("{ty} {var} = new {ty}({});", args.join(", ")),
                (0, name) => format!(
                    "{ty} {var} = {}.{name}({});",
                    type_name(&JType::Class(self.table.class(md.owner).name.clone())),
                    args.join(", ")
                ),
                (_, name) => format!("{var}.{name}({});", args.join(", ")),
            };
            let _ = writeln!(self.before, "{}{line}", self.indent);
        }
        var
    }

    /// `name(arg, ...)` of a site, as code (its built arguments' statements kept in `before`).
    fn call(&mut self, site: &Site) -> String {
        let args: Vec<String> = site.args.iter().map(|a| self.code(a)).collect();
        format!("{}({})", self.table.method(site.method).name, args.join(", "))
    }

    /// Takes the statements written so far.
    fn take(&mut self) -> String {
        std::mem::take(&mut self.before)
    }
}

/// An argument as a comment shows it: a boxed key as its number, a built object by its calls.
fn shown(table: &ClassTable, c: &Concrete, a: &Arg) -> String {
    let int = match c.args.get(a.param) {
        Some(CVal::Int(x) | CVal::Long(x)) => *x,
        _ => 0,
    };
    match &a.how {
        How::Boxed => int.to_string(),
        How::Param => match c.args.get(a.param) {
            Some(CVal::Obj(i)) => {
                crate::inputs::input_string(table, c, *i).map(|u| string_literal(&u)).unwrap_or_else(|| "null".into())
            }
            Some(CVal::Null) => "null".to_string(),
            _ => literal(&a.ty, int),
        },
        How::Built(_) => match a.recipe(int) {
            None => "null".to_string(),
            Some(r) => {
                let parts: Vec<String> = r
                    .calls
                    .iter()
                    .enumerate()
                    .map(|(i, s)| {
                        let args: Vec<String> = s.args.iter().map(|x| shown(table, c, x)).collect();
                        let md = table.method(s.method);
                        match (i, md.name.as_str()) {
                            (0, "<init>") => format!(
                                "new {}({})",
                                JType::Class(table.class(r.class).name.clone()).short_name(),
                                args.join(", ")
                            ),
                            (_, name) => format!("{name}({})", args.join(", ")),
                        }
                    })
                    .collect();
                parts.join(".")
            }
        },
    }
}

/// `name(arg, ...)` of a site with the model's arguments as a comment shows them.
fn call_text(table: &ClassTable, c: &Concrete, site: &Site) -> String {
    let args: Vec<String> = site.args.iter().map(|a| shown(table, c, a)).collect();
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
    let mut parts = sites.iter().enumerate().map(|(i, s)| {
        if table.method(s.method).name == "<init>" {
            let args: Vec<String> = s.args.iter().map(|a| shown(table, c, a)).collect();
            format!("new {class}({})", args.join(", "))
        } else if i == 0 {
            format!("{class}.{}", call_text(table, c, s))
        } else {
            call_text(table, c, s)
        }
    });
    let first = parts.next().unwrap_or_else(|| "no receiver".to_string());
    let rest: Vec<String> = parts.collect();
    let built = if rest.is_empty() { first } else { format!("{first}, then {}", rest.join(", ")) };
    let args: Vec<String> = d.call.args.iter().map(|a| shown(table, c, a)).collect();
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
        let mut args = Args::new(table, c, indent);
        for (i, site) in calls(d, t).into_iter().enumerate() {
            let md = table.method(site.method);
            let line = if md.name == "<init>" {
                let xs: Vec<String> = site.args.iter().map(|a| args.code(a)).collect();
                format!("{class_ty} {RECEIVER} = new {class_ty}({});", xs.join(", "))
            } else if i == 0 {
                format!("{class_ty} {RECEIVER} = {class_ty}.{};", args.call(site))
            } else {
                format!("{RECEIVER}.{};", args.call(site))
            };
            s.push_str(&args.take());
            let _ = writeln!(s, "{indent}{line}");
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
        let call = format!("{target}.{}", args.call(&d.call));
        s.push_str(&args.take());
        let mut oracle = Oracle::new(table, c, indent).opaque_jdk().unnamed_inputs();
        // A collection whose elements `toArray()` shows is checked through it, not its fields.
        let shown_whole = t.kind != TraceKind::Exception
            && d.observers.iter().any(|(om, f)| table.method(*om).name == "toArray" && c.statics_after.contains_key(f));
        match receiver {
            Some(CVal::Obj(i)) if shown_whole => oracle.observed_root(*i, RECEIVER),
            Some(CVal::Obj(i)) => oracle.root(*i, RECEIVER),
            _ => {}
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
