//! The post-state oracle: after the call, the whole heap the test can reach (from the
//! receiver, the arguments, the return value and the touched statics, objects the method
//! allocated included) against the trace's final heap under the model.
//!
//! Every input object is a variable of the test (`o0`, `o1`, ...). A field that holds an
//! object the method allocated binds it to a new variable (`n1`, `n2`, ... or `result`) the
//! first time it is met; the test asserts that it is a new object of the predicted class,
//! distinct from every object named before, and then checks its fields in turn. A later
//! reference to a named object is an `assertSame`, so sharing and cycles are checked as
//! identities and every object is visited once. Primitives are compared exactly, arrays by
//! length and elements. Objects of JDK classes (not on the class path) are checked by class
//! (boxes also by value): the JDK's fields are not open to reflection and its boxes may be
//! shared caches. The object of a lambda call site is only asserted not null (and, met
//! again, the same): its class is uberlazy's own.

use std::collections::{BTreeMap, VecDeque};
use std::fmt::Write as _;

use super::java::{binary_name, boxed_literal, literal, type_name, value};
use crate::classfile::{ClassTable, JType};
use crate::heap::{CVal, Concrete, ObjKind, Place};

/// What a test says in place of a check of a value computed from an identity hash code or by
/// code with no bytecode and no model (an undetermined value).
pub(super) const UNDETERMINED_VALUE: &str = "not checked: the JVM decides it (an identity hash, or code with no model)";

/// The variable name of input object `i`.
pub(super) fn var(i: usize) -> String {
    format!("o{i}")
}

/// Walks the heap after the call and prints one assertion per field, element and binding.
pub(super) struct Oracle<'a> {
    table: &'a ClassTable,
    c: &'a Concrete,
    indent: &'a str,
    /// Objects with a name in the test: input objects, then new objects as they are bound.
    names: BTreeMap<usize, String>,
    /// Named objects in naming order (the candidates a new object must differ from).
    order: Vec<usize>,
    /// New objects bound but not yet checked.
    queue: VecDeque<usize>,
    /// New objects bound so far (for `n1`, `n2`, ...).
    fresh: usize,
    /// Objects of the JDK's packages are checked by class only, even on the class path (their
    /// fields are not open to reflection without `--add-opens`).
    opaque_jdk: bool,
    out: String,
}

impl<'a> Oracle<'a> {
    /// An oracle over `c` whose input objects are the test's variables `o<i>`.
    pub fn new(table: &'a ClassTable, c: &'a Concrete, indent: &'a str) -> Self {
        let mut names = BTreeMap::new();
        let mut order = Vec::new();
        for (i, _) in c.objects.iter().enumerate().filter(|(_, o)| o.input) {
            names.insert(i, var(i));
            order.push(i);
        }
        Oracle {
            table,
            c,
            indent,
            names,
            order,
            queue: VecDeque::new(),
            fresh: 0,
            opaque_jdk: false,
            out: String::new(),
        }
    }

    /// This oracle, for a test that declares no variable per input object (a call sequence
    /// passes its input strings as literals): only the roots it is given are named.
    pub fn unnamed_inputs(mut self) -> Self {
        self.names.clear();
        self.order.clear();
        self
    }

    /// This oracle, reading no field of a class of the JDK's packages (see `opaque_jdk`).
    pub fn opaque_jdk(mut self) -> Self {
        self.opaque_jdk = true;
        self
    }

    /// Object `i` is the test's variable `name`, whose state observers check (its fields are
    /// not read).
    pub fn observed_root(&mut self, i: usize, name: &str) {
        self.names.insert(i, name.to_string());
        self.order.push(i);
    }

    /// Object `i` is the test's variable `name` (built by the test, not by the call): its
    /// fields are checked like an input object's.
    pub fn root(&mut self, i: usize, name: &str) {
        self.names.insert(i, name.to_string());
        self.order.push(i);
        if !self.is_jdk(i) {
            self.queue.push_back(i);
        }
    }

    /// Asserts that the expression `actual` of type `ty` holds `v` after the call.
    pub fn check(&mut self, ty: &JType, v: &CVal, actual: &str) {
        self.expect(ty, v, actual);
        self.drain();
    }

    /// Whether object `i` is checked by class only: not on the class path, or in a JDK
    /// package when the oracle is opaque to them.
    fn is_jdk(&self, i: usize) -> bool {
        let Some(o) = self.c.objects.get(i) else { return false };
        let ObjKind::Class(c) = &o.kind else { return false };
        !self.table.class(*c).on_class_path() || (self.opaque_jdk && self.jdk_class(*c))
    }

    /// Whether class `c` is in one of the JDK's packages or not on the class path.
    fn jdk_class(&self, c: crate::classfile::ClassId) -> bool {
        let class = self.table.class(c);
        !class.on_class_path() || super::java::is_jdk_package(&class.name.replace('/', "."))
    }

    /// The assertions printed so far.
    pub fn finish(self) -> String {
        self.out
    }

    fn line(&mut self, text: &str) {
        let _ = writeln!(self.out, "{}{text}", self.indent);
    }

    /// The returned value, held by the variable `result` of declared type `ty`.
    pub fn result(&mut self, ty: &JType, v: &CVal) {
        match v {
            CVal::Obj(i) if !self.names.contains_key(i) => {
                self.bind(*i, "result", None);
                self.drain();
            }
            _ => self.expect(ty, v, "result"),
        }
    }

    /// Every field and element of every input object, what they reach, and the touched
    /// statics (`statics`: qualified name, type and value after the call).
    pub fn heap(&mut self, statics: &[(String, JType, CVal)]) {
        self.drain();
        let inputs: Vec<usize> = self.c.objects.iter().enumerate().filter(|(_, o)| o.input).map(|(i, _)| i).collect();
        for i in inputs {
            self.fields(i);
            self.drain();
        }
        for (q, ty, v) in statics {
            self.expect(ty, v, &format!("Heap.getStatic(\"{q}\")"));
            self.drain();
        }
    }

    /// Checks the objects bound but not yet checked (and those they reach).
    fn drain(&mut self) {
        while let Some(i) = self.queue.pop_front() {
            self.fields(i);
        }
    }

    /// Asserts that `actual`, an expression of declared type `ty`, holds `v` after the call.
    fn expect(&mut self, ty: &JType, v: &CVal, actual: &str) {
        match v {
            CVal::Null => self.line(&format!("assertNull({actual});")),
            // A float or double read as a primitive is compared with delta 0: JUnit 4 has no
            // exact `assertEquals(double, double)` (boxed ones compare by `equals`).
            CVal::Int(x) | CVal::Long(x)
                if matches!(ty, JType::Float | JType::Double) && !actual.starts_with("Heap.") =>
            {
                let delta = if *ty == JType::Float { "0.0f" } else { "0.0" };
                self.line(&format!("assertEquals({}, {actual}, {delta});", literal(ty, *x)))
            }
            CVal::Int(x) | CVal::Long(x) => self.line(&format!("assertEquals({}, {actual});", literal(ty, *x))),
            CVal::Obj(i) => match self.names.get(i) {
                Some(name) => {
                    let name = name.clone();
                    self.line(&format!("assertSame({name}, {actual});"));
                }
                None => {
                    self.fresh += 1;
                    let name = format!("n{}", self.fresh);
                    self.bind(*i, &name, Some(actual));
                }
            },
        }
    }

    /// Names new object `i` `name` (declaring it as `actual` unless it is declared already)
    /// and asserts that it is a new object of its class.
    fn bind(&mut self, i: usize, name: &str, actual: Option<&str>) {
        let Some(o) = self.c.objects.get(i) else { return };
        let table = self.table;
        let (decl, class) = match &o.kind {
            ObjKind::Class(c) => ("Object".to_string(), binary_name(table, *c)),
            ObjKind::Array(e) => {
                let decl = if e.is_reference() { "Object[]".to_string() } else { format!("{}[]", type_name(e)) };
                (decl, JType::Array(Box::new(e.clone())).java_name())
            }
        };
        if let Some(actual) = actual {
            let cast = if decl == "Object" { String::new() } else { format!("({decl}) ") };
            self.line(&format!("{decl} {name} = {cast}{actual};"));
        }
        if super::java::is_lambda(table, &o.kind) {
            // A lambda's object: its class has no name a test can spell, nor fields it can read.
            self.line(&format!("assertNotNull({name});"));
        } else if self.is_jdk(i) {
            // A JDK object: its class, and a box's value or a string's characters.
            self.line(&format!("assertEquals(\"{class}\", Heap.className({name}));"));
            // An input string holds what the test built it with (strings do not change).
            let units = if o.input {
                crate::inputs::input_string(table, self.c, i)
            } else {
                crate::inputs::string_units(table, o, true)
            };
            if let Some(units) = units {
                self.line(&format!("assertEquals({}, {name});", super::java::string_literal(&units)));
            } else if let ObjKind::Class(k) = &o.kind
                && crate::models::is_box(&table.class(*k).name)
                && let Some((f, v)) = o.after.iter().next().filter(|_| o.after.len() == 1)
                && let CVal::Int(x) | CVal::Long(x) = v
            {
                self.line(&format!("assertEquals({}, {name});", boxed_literal(&literal(&table.field(*f).ty, *x))));
            }
        } else {
            let others: String =
                self.order.iter().filter_map(|k| self.names.get(k)).map(|n| format!(", {n}")).collect();
            self.line(&format!("assertTrue(Heap.isNew({name}, \"{class}\"{others}), \"{name} is a new {class}\");"));
            self.queue.push_back(i);
        }
        self.names.insert(i, name.to_string());
        self.order.push(i);
    }

    /// Every field (or length and element) of object `i` after the call.
    fn fields(&mut self, i: usize) {
        let Some(o) = self.c.objects.get(i) else { return };
        let Some(name) = self.names.get(&i).cloned() else { return };
        let table = self.table;
        match &o.kind {
            // An input box or string is immutable: the value it was made from.
            ObjKind::Class(k) if o.input && crate::models::is_value(&table.class(*k).name) => {}
            ObjKind::Class(_) => {
                for (f, v) in &o.after {
                    let fd = table.field(*f);
                    if self.opaque_jdk && self.jdk_class(fd.owner) {
                        continue; // a field a JDK superclass declares: not open to reflection
                    }
                    let q = format!("{}.{}", binary_name(table, fd.owner), fd.name);
                    if self.c.undetermined.contains(&Place::Field(i, *f)) {
                        self.line(&format!("// {name}.{}: {UNDETERMINED_VALUE}", fd.name));
                        continue;
                    }
                    self.expect(&fd.ty, v, &format!("Heap.get({name}, \"{q}\")"));
                }
            }
            ObjKind::Array(e) => {
                if !o.input {
                    self.line(&format!("assertEquals({}, {name}.length);", o.elems_after.len()));
                }
                let elems = &o.elems_after;
                let mut k = 0;
                let undetermined = |k: usize| self.c.undetermined.contains(&Place::Elem(i, k));
                while k < elems.len() {
                    if undetermined(k) {
                        self.line(&format!("// {name}[{k}]: {UNDETERMINED_VALUE}"));
                        k += 1;
                        continue;
                    }
                    // A run of equal numbers or nulls is one check, so a long array stays a few lines.
                    let run = (k..elems.len()).take_while(|j| elems[*j] == elems[k] && !undetermined(*j)).count();
                    match &elems[k] {
                        v @ (CVal::Int(_) | CVal::Long(_) | CVal::Null) if run >= MIN_RUN => {
                            let (from, to) = (k, k + run);
                            let value = expr(e, v);
                            self.line(&format!(
                                "assertEquals({run}, Heap.same({name}, {from}, {to}, {value}), \"{name}[{from}..{to}) are {value}\");"
                            ));
                            k += run;
                        }
                        v => {
                            self.expect(e, v, &format!("{name}[{k}]"));
                            k += 1;
                        }
                    }
                }
            }
        }
    }
}

/// The shortest run of equal array elements checked as one (`Heap.same`).
const MIN_RUN: usize = 4;

/// A value stored in a field or element of type `ty` as an expression of the test.
pub(super) fn expr(ty: &JType, v: &CVal) -> String {
    value(ty, v, &var)
}
