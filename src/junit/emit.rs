//! One JUnit test method per trace: rebuild the input heap, call, assert what the machine predicted.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::java::{binary_name, comment, ident, literal, type_name, value};
use super::{Junit, MethodTests};
use crate::classfile::{ClassTable, FieldId, JType, MethodId};
use crate::heap::{CObj, CVal, Concrete, ObjKind};
use crate::inputs::{Step, rebuild_heap};
use crate::machine::{RunResult, Trace, TraceKind};
use crate::report::path_text;

/// What the emitter needs to know about the method under test.
pub(super) struct Target<'a> {
    pub table: &'a ClassTable,
    pub method: MethodId,
    pub junit: Junit,
    pub precondition: Option<&'a str>,
    pub validity: Option<&'a str>,
}

/// The variable name of concrete object `i`.
fn var(i: usize) -> String {
    format!("o{i}")
}

/// `pkg.Owner.field` as the runtime helper names fields.
fn qualified(table: &ClassTable, f: FieldId) -> String {
    let fd = table.field(f);
    format!("{}.{}", binary_name(table, fd.owner), fd.name)
}

/// A value stored in a field or element of type `ty` as an expression.
fn expr(ty: &JType, v: &CVal) -> String {
    value(ty, v, &var)
}

/// A value for `Heap.set`: primitives boxed with their exact type, references as they are.
fn boxed(ty: &JType, v: &CVal) -> String {
    match v {
        CVal::Null => "null".to_string(),
        _ => expr(ty, v),
    }
}

impl Target<'_> {
    /// The body of the test of one trace, or why there is none.
    pub fn test(&self, r: &RunResult, t: &Trace) -> Result<String, String> {
        if t.kind == TraceKind::Cut {
            return Err(format!("cut by {}", t.cut.as_deref().unwrap_or("a bound")));
        }
        let Some(c) = &t.concrete else { return Err("no model (solver unknown)".to_string()) };
        let table = self.table;
        let m = table.method(self.method);
        let outcome = match (&t.kind, &t.exception) {
            (TraceKind::Exception, Some(x)) => format!("throws {x}"),
            _ => match &t.value {
                Some(v) => format!("returns {v}"),
                None => "returns".to_string(),
            },
        };
        let kind = if t.kind == TraceKind::Exception { "throws" } else { "returns" };
        let mut s = String::new();
        let _ = writeln!(s, "    /**");
        let _ = writeln!(s, "     * Trace {} ({}): {}.", t.id, r.strategy, comment(&outcome).replace("*/", "* /"));
        let _ = writeln!(s, "     * Path: {}.", comment(&path_text(&t.path)).replace("*/", "* /"));
        let _ = writeln!(s, "     * Path condition: {}.", comment(&t.pc_text.to_string()).replace("*/", "* /"));
        let _ = writeln!(s, "     */");
        let _ = writeln!(s, "    @Test");
        let _ = writeln!(s, "    public void trace{}_{kind}() throws Throwable {{", t.id);
        self.build_heap(&mut s, c);
        let statics: Vec<(&FieldId, &CVal)> =
            c.statics_before.iter().filter(|(f, _)| !is_constant(table, **f)).collect();
        let indent = if statics.is_empty() { "        " } else { "            " };
        for (k, (f, _)) in statics.iter().enumerate() {
            let _ = writeln!(s, "        Object saved{k} = Heap.getStatic(\"{}\");", qualified(table, **f));
        }
        if !statics.is_empty() {
            let _ = writeln!(s, "        try {{");
            for (f, v) in &statics {
                let ty = &table.field(**f).ty;
                let _ = writeln!(s, "{indent}Heap.setStatic(\"{}\", {});", qualified(table, **f), boxed(ty, v));
            }
        }
        let call = self.call(c)?;
        if let (Some(v), false) = (self.validity, m.is_static()) {
            let recv = c.args.first().map(|a| expr(&JType::object(), a)).unwrap_or_default();
            let _ = writeln!(s, "{indent}Heap.valid(\"{}#{}\", () -> {recv}.{v}());", comment(&r.method), t.id);
        }
        if let (Some(p), false) = (self.precondition, m.is_static()) {
            let recv = c.args.first().map(|a| expr(&JType::object(), a)).unwrap_or_default();
            let _ = writeln!(s, "{indent}assertTrue({recv}.{p}(), \"precondition {p}() holds on the input\");");
        }
        match (t.kind, &t.exception) {
            (TraceKind::Exception, Some(x)) => self.expect_throw(&mut s, indent, &call, x),
            _ => self.expect_return(&mut s, indent, &call, m.desc.ret.as_ref(), c),
        }
        self.after_state(&mut s, indent, c);
        if !statics.is_empty() {
            let _ = writeln!(s, "        }} finally {{");
            for (k, (f, _)) in statics.iter().enumerate() {
                let _ = writeln!(s, "            Heap.setStatic(\"{}\", saved{k});", qualified(table, **f));
            }
            let _ = writeln!(s, "        }}");
        }
        let _ = writeln!(s, "    }}");
        Ok(s)
    }

    /// Prints the steps that build the input (see [`crate::inputs`]).
    fn build_heap(&self, s: &mut String, c: &Concrete) {
        let table = self.table;
        for step in rebuild_heap(c).steps {
            match step {
                Step::Alloc { obj, class } => {
                    let ty = type_name(&JType::Class(table.class(class).name.clone()));
                    let _ = writeln!(s, "        {ty} {} = Heap.alloc({ty}.class);", var(obj));
                }
                Step::NewArray { obj, elem, len } => {
                    let base = type_name(&elem);
                    let (head, dims) = split_array(&base);
                    let _ = writeln!(s, "        {base}[] {} = new {head}[{len}]{dims};", var(obj));
                }
                Step::SetField { obj, field, value } => {
                    let ty = &table.field(field).ty;
                    let q = qualified(table, field);
                    let _ = writeln!(s, "        Heap.set({}, \"{q}\", {});", var(obj), boxed(ty, &value));
                }
                Step::SetElem { obj, index, elem, value } => {
                    let _ = writeln!(s, "        {}[{index}] = {};", var(obj), expr(&elem, &value));
                }
            }
        }
    }

    /// The call expression of the method under test.
    fn call(&self, c: &Concrete) -> Result<String, String> {
        let table = self.table;
        let m = table.method(self.method);
        let owner = type_name(&JType::Class(table.class(m.owner).name.clone()));
        let mut args = c.args.iter();
        let recv = if m.is_static() {
            owner.clone()
        } else {
            match args.next() {
                Some(CVal::Obj(i)) => var(*i),
                _ => return Err("the receiver is not an object".to_string()),
            }
        };
        let rendered: Vec<String> = m.desc.params.iter().zip(args).map(|(ty, v)| expr(ty, v)).collect();
        if m.is_private() {
            // Private methods are called by reflection; the result is cast back.
            let params: Vec<String> = m.desc.params.iter().map(|t| format!("{}.class", type_name(t))).collect();
            let target = if m.is_static() { "null".to_string() } else { recv };
            let mut call = format!(
                "Heap.invoke({target}, \"{}\", \"{}\", new Class<?>[] {{{}}}{})",
                binary_name(table, m.owner),
                m.name,
                params.join(", "),
                rendered.iter().map(|a| format!(", {a}")).collect::<String>()
            );
            if let Some(ty) = &m.desc.ret {
                // A cast marks the reflective result; `expect_throw` drops it again (a cast is
                // no statement), `expect_return` keeps it.
                call = format!("({}) {call}", boxed_type(ty));
            }
            return Ok(call);
        }
        Ok(format!("{recv}.{}({})", m.name, rendered.join(", ")))
    }

    fn expect_throw(&self, s: &mut String, indent: &str, call: &str, exception: &str) {
        let x = exception.replace('$', ".");
        let call = match call.find(") Heap.invoke(") {
            Some(p) if call.starts_with('(') => &call[p + 2..],
            _ => call,
        };
        match self.junit {
            Junit::Five => {
                let _ = writeln!(s, "{indent}Throwable thrown = assertThrows(Throwable.class, () -> {call});");
                let _ = writeln!(s, "{indent}assertEquals({x}.class, thrown.getClass());");
            }
            Junit::Four => {
                let _ = writeln!(s, "{indent}Throwable thrown = null;");
                let _ = writeln!(s, "{indent}try {{");
                let _ = writeln!(s, "{indent}    {call};");
                let _ = writeln!(s, "{indent}}} catch (Throwable t) {{");
                let _ = writeln!(s, "{indent}    thrown = t;");
                let _ = writeln!(s, "{indent}}}");
                let _ = writeln!(s, "{indent}assertNotNull(\"expected {x}\", thrown);");
                let _ = writeln!(s, "{indent}assertEquals({x}.class, thrown.getClass());");
            }
        }
    }

    fn expect_return(&self, s: &mut String, indent: &str, call: &str, ret: Option<&JType>, c: &Concrete) {
        let Some(ty) = ret else {
            let _ = writeln!(s, "{indent}{call};");
            return;
        };
        let _ = writeln!(s, "{indent}{} result = {call};", type_name(ty));
        match c.ret.as_ref() {
            None => {}
            Some(CVal::Null) => {
                let _ = writeln!(s, "{indent}assertNull(result);");
            }
            Some(CVal::Obj(i)) => match c.objects.get(*i) {
                Some(o) if o.input => {
                    let _ = writeln!(s, "{indent}assertSame({}, result);", var(*i));
                }
                Some(o) => {
                    let _ = writeln!(s, "{indent}assertNotNull(result);");
                    let mut seen = BTreeSet::new();
                    self.new_object(s, indent, "result", o, c, &mut seen, 0);
                }
                None => {}
            },
            Some(v @ (CVal::Int(_) | CVal::Long(_))) => {
                let _ = writeln!(s, "{indent}assertEquals({}, result);", expr(ty, v));
            }
        }
    }

    /// Checks the primitive fields of a new object reachable from `path`.
    #[allow(clippy::too_many_arguments)]
    fn new_object(
        &self,
        s: &mut String,
        indent: &str,
        path: &str,
        o: &CObj,
        c: &Concrete,
        seen: &mut BTreeSet<String>,
        depth: usize,
    ) {
        if depth > 3 || !seen.insert(path.to_string()) {
            return;
        }
        let table = self.table;
        match &o.kind {
            ObjKind::Class(cl) => {
                let _ =
                    writeln!(s, "{indent}assertEquals(\"{}\", {path}.getClass().getName());", binary_name(table, *cl));
                for (f, v) in &o.after {
                    let get = format!("Heap.get({path}, \"{}\")", qualified(table, *f));
                    self.check_value(s, indent, &table.field(*f).ty, v, &get, c);
                }
            }
            ObjKind::Array(e) => {
                let ty = format!("{}[]", type_name(e));
                let _ = writeln!(s, "{indent}assertEquals({}, (({ty}) {path}).length);", o.elems_after.len());
                for (k, v) in o.elems_after.iter().enumerate() {
                    let get = format!("(({ty}) {path})[{k}]");
                    self.check_value(s, indent, e, v, &get, c);
                }
            }
        }
    }

    /// Asserts that the expression `actual` (of type `ty`) holds `v` after the call.
    fn check_value(&self, s: &mut String, indent: &str, ty: &JType, v: &CVal, actual: &str, c: &Concrete) {
        match v {
            CVal::Null => {
                let _ = writeln!(s, "{indent}assertNull({actual});");
            }
            CVal::Obj(i) => match c.objects.get(*i) {
                Some(o) if o.input => {
                    let _ = writeln!(s, "{indent}assertSame({}, {actual});", var(*i));
                }
                _ => {
                    let _ = writeln!(s, "{indent}assertNotNull({actual});");
                }
            },
            CVal::Int(x) | CVal::Long(x) => {
                let _ = writeln!(s, "{indent}assertEquals({}, {actual});", literal(ty, *x));
            }
        }
    }

    /// Every field of every input object (and every touched static) after the call.
    fn after_state(&self, s: &mut String, indent: &str, c: &Concrete) {
        let table = self.table;
        for (i, o) in c.objects.iter().enumerate().filter(|(_, o)| o.input) {
            for (f, v) in &o.after {
                let get = format!("Heap.get({}, \"{}\")", var(i), qualified(table, *f));
                self.check_value(s, indent, &table.field(*f).ty, v, &get, c);
            }
            if let ObjKind::Array(e) = &o.kind {
                for (k, v) in o.elems_after.iter().enumerate() {
                    self.check_value(s, indent, e, v, &format!("{}[{k}]", var(i)), c);
                }
            }
        }
        for (f, v) in &c.statics_after {
            if is_constant(table, *f) {
                continue;
            }
            let get = format!("Heap.getStatic(\"{}\")", qualified(table, *f));
            self.check_value(s, indent, &table.field(*f).ty, v, &get, c);
        }
    }
}

/// The type a reflective result is cast to (`Integer` for int, the type itself for references).
fn boxed_type(ty: &JType) -> String {
    match ty {
        JType::Boolean => "Boolean".into(),
        JType::Byte => "Byte".into(),
        JType::Char => "Character".into(),
        JType::Short => "Short".into(),
        JType::Int => "Integer".into(),
        JType::Long => "Long".into(),
        JType::Float => "Float".into(),
        JType::Double => "Double".into(),
        other => type_name(other),
    }
}

/// `int[]` → (`int`, `[]`) so that `new int[n][]`-style allocations put the length first.
fn split_array(base: &str) -> (String, String) {
    match base.find("[]") {
        Some(p) => (base[..p].to_string(), base[p..].to_string()),
        None => (base.to_string(), String::new()),
    }
}

/// Static final fields with a compile-time constant are never set or restored.
fn is_constant(table: &ClassTable, f: FieldId) -> bool {
    let fd = table.field(f);
    fd.constant.is_some() && fd.access & crate::classfile::access::FINAL != 0
}

/// The source of one test class.
pub(super) fn class_source(target: &Target<'_>, r: &RunResult, class_name: &str) -> MethodTests {
    let table = target.table;
    let m = table.method(target.method);
    let owner = &table.class(m.owner).name;
    let package = owner.rsplit_once('/').map(|(p, _)| p.replace('/', ".")).unwrap_or_default();
    let mut tests = Vec::new();
    let mut skipped = Vec::new();
    for t in &r.traces {
        match target.test(r, t) {
            Ok(body) => tests.push(body),
            Err(why) => skipped.push((t.id, why)),
        }
    }
    let mut s = String::new();
    let _ = writeln!(s, "// Generated by uberlazy from {} with strategy {}. Do not edit.", r.method, r.strategy);
    if !package.is_empty() {
        let _ = writeln!(s, "package {package};");
        s.push('\n');
    }
    match target.junit {
        Junit::Five => {
            let _ = writeln!(s, "import static org.junit.jupiter.api.Assertions.*;");
            s.push('\n');
            let _ = writeln!(s, "import org.junit.jupiter.api.Test;");
        }
        Junit::Four => {
            let _ = writeln!(s, "import static org.junit.Assert.*;");
            s.push('\n');
            let _ = writeln!(s, "import org.junit.Test;");
        }
    }
    let _ = writeln!(s, "import uberlazy.runtime.Heap;");
    s.push('\n');
    let _ = writeln!(s, "/** Tests of {} ({} traces, {} tests). */", comment(&r.method), r.traces.len(), tests.len());
    let _ = writeln!(s, "public class {class_name} {{");
    for (k, t) in tests.iter().enumerate() {
        if k > 0 {
            s.push('\n');
        }
        s.push_str(t);
    }
    let _ = writeln!(s, "}}");
    let s = if target.junit == Junit::Four { fix_junit4_messages(&s) } else { s };
    MethodTests { class_name: class_name.to_string(), package, source: s, tests: tests.len(), skipped }
}

/// JUnit 4 puts the message first: `assertTrue(cond, "msg")` → `assertTrue("msg", cond)`.
fn fix_junit4_messages(s: &str) -> String {
    s.lines()
        .map(|l| {
            let t = l.trim_start();
            if let Some(rest) = t.strip_prefix("assertTrue(")
                && let Some((cond, msg)) = rest.trim_end_matches(");").rsplit_once(", \"")
            {
                let indent = &l[..l.len() - t.len()];
                return format!("{indent}assertTrue(\"{}, {cond});", msg);
            }
            l.to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// A name for the test class of `method` (overloads get their index among same-named methods).
pub(super) fn test_class_name(table: &ClassTable, method: MethodId) -> String {
    let m = table.method(method);
    let cls = table.class(m.owner);
    let simple = cls.name.rsplit('/').next().unwrap_or(&cls.name).replace('$', "_");
    let same: Vec<MethodId> = cls.methods.iter().copied().filter(|x| table.method(*x).name == m.name).collect();
    let suffix = if same.len() > 1 {
        format!("_{}", same.iter().position(|x| *x == method).unwrap_or(0) + 1)
    } else {
        String::new()
    };
    format!("{}_{}{}Test", simple, ident(&m.name), suffix)
}
