//! One JUnit test method per trace: rebuild the input heap, call, assert what the machine predicted.

use std::fmt::Write as _;

use super::describe;
use super::java::{binary_name, comment, ident, nameable, package_of, string_literal, test_package, type_name};
use super::layout::{MAX_LINE, wrap_long_lines};
use super::oracle::{Oracle, UNDETERMINED_VALUE, expr, var};
use super::test_class::{Junit, MethodTests};
use crate::classfile::{ClassTable, FieldId, JType, MethodId};
use crate::heap::{CVal, Concrete};
use crate::inputs::{InputPlan, Step, rebuild_heap};
use crate::machine::{RunResult, Trace, TraceKind};
use crate::report::path_text;

/// Width of the text of a test's comment.
pub(super) const COMMENT_WIDTH: usize = 100;

/// What the emitter needs to know about the method under test.
pub(super) struct Target<'a> {
    pub table: &'a ClassTable,
    pub method: MethodId,
    pub junit: Junit,
    pub precondition: Option<&'a str>,
    pub validity: Option<&'a str>,
    /// The driver whose traces these are (`--inputs api`), or some of them (`auto`).
    pub driver: Option<&'a crate::lower::driver::Driver>,
    /// Once on, the traces left get no test (a stop request while emitting).
    pub stop: Option<&'a crate::budget::Stop>,
    /// Each test's method name, by trace id (`names.rs`).
    pub names: std::collections::BTreeMap<usize, String>,
}

/// `pkg.Owner.field` as the runtime helper names fields.
fn qualified(table: &ClassTable, f: FieldId) -> String {
    let fd = table.field(f);
    format!("{}.{}", binary_name(table, fd.owner), fd.name)
}

/// A value for `Heap.set`: primitives boxed with their exact type, references as they are.
fn boxed(ty: &JType, v: &CVal) -> String {
    match v {
        CVal::Null => "null".to_string(),
        _ => expr(ty, v),
    }
}

impl Target<'_> {
    /// The package the tests live in (see [`test_package`]).
    fn package(&self) -> String {
        test_package(&package_of(self.table, self.table.method(self.method).owner))
    }

    /// Input object `i` as a value of type `ty`: cast when its own class cannot be named in
    /// the test (it is declared `Object`).
    fn object_as(&self, c: &Concrete, i: usize, ty: &JType) -> String {
        let hidden = match c.objects.get(i).map(|o| &o.kind) {
            Some(crate::heap::ObjKind::Class(k)) => !nameable(self.table, *k, &self.package()),
            _ => false,
        };
        if hidden { format!("(({}) {})", type_name(ty), var(i)) } else { var(i) }
    }

    /// The body of the test of one trace, or why there is none.
    pub fn test(&self, r: &RunResult, t: &Trace) -> Result<String, String> {
        if t.kind == TraceKind::Cut {
            return Err(format!(
                "cut by {}",
                t.cut.as_ref().map_or_else(|| "a bound".to_string(), ToString::to_string)
            ));
        }
        let Some(c) = &t.concrete else { return Err("no model (solver unknown)".to_string()) };
        if t.constrains_identity_hash() {
            return Err("its path depends on an identity hash code, which a test cannot choose".to_string());
        }
        // A trace of a driver's run starts with the driver's decisions (`--inputs auto` mixes
        // them with traces of heap inputs, which have none).
        if let (Some(d), false) = (self.driver, t.prefix.is_empty()) {
            return self.sequence_test(d, r, t, c);
        }
        let table = self.table;
        let m = table.method(self.method);
        let mut s = String::new();
        let _ = writeln!(s, "    /**");
        let input = describe::input(table, c, &m.desc.params, &r.arg_names);
        // Beside tests whose inputs calls built, say why this one is built field by field.
        let why = match self.driver {
            Some(d) => format!(
                " Built field by field: no sequence of up to {} calls after a constructor or factory reached this path in its time.",
                d.steps.len().saturating_sub(1)
            ),
            None => String::new(),
        };
        let what = [
            format!("Input: {input}.{why}"),
            format!("Path: {}.", describe::path(table, self.method, t)),
            format!("Outcome: {}.", describe::outcome(table, t, c, m.desc.ret.as_ref())),
        ];
        for text in what {
            let text = comment(&text).replace("*/", "* /");
            for (k, l) in describe::wrap(&text, COMMENT_WIDTH).iter().enumerate() {
                let _ = writeln!(s, "     *{}{l}", if k == 0 { " " } else { "     " });
            }
        }
        let _ = writeln!(s, "     */");
        let plan = rebuild_heap(table, c);
        let _ = writeln!(s, "    @Test");
        if plan.steps.iter().any(|st| matches!(st, Step::Box { shared_value: true, .. })) {
            // `new Integer(v)`: deprecated for removal, and the only way to two equal boxes.
            let _ = writeln!(s, "    @SuppressWarnings(\"removal\")");
        }
        let _ = writeln!(s, "    public void {}() throws Throwable {{", self.test_name(t));
        self.build_heap(&mut s, plan);
        // A static whose value before the call is an object the input does not hold was made
        // by the class initializer, which the JVM runs for the test too: it is not set.
        let made_by_clinit = |v: &CVal| matches!(v, CVal::Obj(i) if c.objects.get(*i).is_some_and(|o| !o.input));
        let statics: Vec<(&FieldId, &CVal)> =
            c.statics_before.iter().filter(|(f, v)| !is_static_final(table, **f) && !made_by_clinit(v)).collect();
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
        if let Some((check, shown)) = self.precondition.and_then(|p| self.precondition_call(c, p)) {
            let _ = writeln!(s, "{indent}assertTrue({check}, \"precondition {shown} holds on the input\");");
        }
        let mut oracle = Oracle::new(table, c, indent);
        self.call_and_result(&mut s, indent, &call, t, c, &mut oracle);
        let after: Vec<(String, JType, CVal)> = c
            .statics_after
            .iter()
            .filter(|(f, _)| !is_constant(table, **f) && !c.undetermined.contains(&crate::heap::Place::Static(**f)))
            // The JDK's own statics (caches, tables its initializers fill) are its internals,
            // not the behaviour under test, and closed to reflection.
            .filter(|(f, _)| !is_jdk_static(table, **f))
            .filter(|(f, _)| !is_static_final(table, **f) || table.field(**f).ty.is_reference())
            .map(|(f, v)| (qualified(table, *f), table.field(*f).ty.clone(), v.clone()))
            .collect();
        oracle.heap(&after);
        s.push_str(&oracle.finish());
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
    fn build_heap(&self, s: &mut String, plan: InputPlan) {
        let table = self.table;
        for step in plan.steps {
            match step {
                Step::Box { obj, class, value, shared_value } => {
                    // Boxes are java.lang classes: their simple names need no import.
                    let name = &table.class(class).name;
                    let ty = name.rsplit('/').next().unwrap_or(name);
                    let prim = table.class(class).fields.first().map(|f| table.field(*f).ty.clone());
                    let v = expr(&prim.unwrap_or(JType::Int), &value);
                    // Equal boxes must stay distinct objects, as in the input the trace has.
                    let make = if shared_value { format!("new {ty}({v})") } else { format!("{ty}.valueOf({v})") };
                    let _ = writeln!(s, "        {ty} {} = {make};", var(obj));
                }
                Step::Str { obj, units, shared_value } => {
                    let text = string_literal(&units);
                    // Equal strings must stay distinct objects (literals are interned).
                    let make = if shared_value { format!("new String({text})") } else { text };
                    let _ = writeln!(s, "        String {} = {make};", var(obj));
                }
                Step::Alloc { obj, class } if nameable(table, class, &self.package()) => {
                    let ty = type_name(&JType::Class(table.class(class).name.clone()));
                    let _ = writeln!(s, "        {ty} {} = Heap.alloc({ty}.class);", var(obj));
                }
                Step::Alloc { obj, class } => {
                    // A class the test cannot name (private nested, or another module's).
                    let _ = writeln!(s, "        Object {} = Heap.alloc(\"{}\");", var(obj), binary_name(table, class));
                }
                Step::NewArray { obj, elem: JType::Class(e), len }
                    if table.lookup(&e).is_some_and(|k| !nameable(table, k, &self.package())) =>
                {
                    // An array of a class the test cannot name, typed Object[] in the test.
                    let name = e.replace('/', ".");
                    let _ = writeln!(s, "        Object[] {} = Heap.newArray(\"{name}\", {len});", var(obj));
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
    /// The call of precondition `p` on the input (as the machine called it) and how the
    /// message shows it (`repOK()`, `pre(...)`), unless a test cannot make it (a private method).
    fn precondition_call(&self, c: &Concrete, p: &str) -> Option<(String, String)> {
        let table = self.table;
        let (pm, how) = crate::machine::pre_method::resolve(table, p, self.method).ok()?;
        let pd = table.method(pm);
        if pd.is_private() {
            return None;
        }
        let m = table.method(self.method);
        let mut types: Vec<JType> = Vec::new();
        if !m.is_static() {
            types.push(JType::Class(table.class(m.owner).name.clone()));
        }
        types.extend(m.desc.params.iter().cloned());
        let args = crate::machine::pre_method::frame_args(how, &c.args);
        let rendered: Vec<String> = types
            .iter()
            .zip(&args)
            .map(|(ty, v)| match v {
                CVal::Obj(i) => self.object_as(c, *i, ty),
                _ => expr(ty, v),
            })
            .collect();
        let shown =
            if how == crate::machine::pre_method::PreArgs::Receiver { format!("{p}()") } else { format!("{p}(...)") };
        let call = if pd.is_static() {
            format!("{}.{p}({})", type_name(&JType::Class(table.class(pd.owner).name.clone())), rendered.join(", "))
        } else {
            let (recv, rest) = rendered.split_first()?;
            format!("{recv}.{p}({})", rest.join(", "))
        };
        Some((call, shown))
    }

    fn call(&self, c: &Concrete) -> Result<String, String> {
        let table = self.table;
        let m = table.method(self.method);
        let owner = type_name(&JType::Class(table.class(m.owner).name.clone()));
        let mut args = c.args.iter();
        let recv = if m.is_static() {
            owner.clone()
        } else {
            match args.next() {
                Some(CVal::Obj(i)) => self.object_as(c, *i, &JType::Class(table.class(m.owner).name.clone())),
                _ => return Err("the receiver is not an object".to_string()),
            }
        };
        let rendered: Vec<String> = m
            .desc
            .params
            .iter()
            .zip(args)
            .map(|(ty, v)| match v {
                CVal::Obj(i) => self.object_as(c, *i, ty),
                _ => expr(ty, v),
            })
            .collect();
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

    /// The call under test and what it returns or throws (the result through `oracle`).
    pub(super) fn call_and_result(
        &self,
        s: &mut String,
        indent: &str,
        call: &str,
        t: &Trace,
        c: &Concrete,
        oracle: &mut Oracle<'_>,
    ) {
        match (t.kind, &t.exception) {
            (TraceKind::Exception, Some(x)) => self.expect_throw(s, indent, call, x),
            _ => match &self.table.method(self.method).desc.ret {
                None => {
                    let _ = writeln!(s, "{indent}{call};");
                }
                Some(ty) => {
                    let _ = writeln!(s, "{indent}{} result = {call};", type_name(ty));
                    if c.undetermined.contains(&crate::heap::Place::Result) {
                        let _ = writeln!(s, "{indent}// result: {UNDETERMINED_VALUE}");
                    } else if let Some(v) = &c.ret {
                        oracle.result(ty, v);
                    }
                }
            },
        }
    }

    fn expect_throw(&self, s: &mut String, indent: &str, call: &str, exception: &str) {
        let x = exception.replace('$', ".");
        // An `assert` that fails throws only when assertions are on (`-ea`): the machine runs
        // with them on, and the test is skipped without them.
        if exception == "java.lang.AssertionError" {
            let owner = self.table.class(self.table.method(self.method).owner).java_name().replace('$', ".");
            let why = "\"the assert fails only with assertions enabled (-ea)\"";
            let _ = match self.junit {
                Junit::Five => writeln!(
                    s,
                    "{indent}org.junit.jupiter.api.Assumptions.assumeTrue({owner}.class.desiredAssertionStatus(), {why});"
                ),
                Junit::Four => {
                    writeln!(s, "{indent}org.junit.Assume.assumeTrue({why}, {owner}.class.desiredAssertionStatus());")
                }
            };
        }
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

/// Whether `f` is a static of a class of the JDK (read from the installed JDK, or in one of
/// its packages).
fn is_jdk_static(table: &ClassTable, f: FieldId) -> bool {
    let owner = table.class(table.field(f).owner);
    owner.jdk || super::java::is_jdk_package(&owner.name.replace('/', "."))
}

/// Whether `f` is a static final field: the class initializer, which the JVM runs, gives it
/// its value; a test never sets it (the JVM refuses), and a primitive one cannot change, so
/// a test does not check it either (`$assertionsDisabled` differs with and without `-ea`).
fn is_static_final(table: &ClassTable, f: FieldId) -> bool {
    let fd = table.field(f);
    fd.is_static() && fd.access & crate::classfile::access::FINAL != 0
}

/// How long the emission of a test class goes on after a stop request.
const STOP_GRACE: std::time::Duration = std::time::Duration::from_millis(300);

/// The source of one test class.
pub(super) fn class_source(target: &Target<'_>, r: &RunResult, class_name: &str) -> MethodTests {
    let package = target.package();
    let mut tests = Vec::new();
    let mut skipped = Vec::new();
    let mut records = Vec::new();
    // A stop request lets the traces that ended get their tests, for a moment: the class in
    // progress is written whole, and the process still ends promptly.
    let mut stopped: Option<std::time::Instant> = None;
    for t in &r.traces {
        if target.stop.is_some_and(|s| s.requested())
            && stopped.get_or_insert_with(std::time::Instant::now).elapsed() > STOP_GRACE
        {
            skipped.push((t.id, "interrupted before its test was written".to_string()));
            continue;
        }
        let name = target.test_name(t);
        let mut record = serde_json::json!({
            "trace": t.id,
            "outcome": outcome_text(t),
            "path": path_text(&t.path),
            "prefix": path_text(&t.prefix),
        });
        match target.test(r, t) {
            Ok(body) => {
                let pc: Vec<String> = t.pc_text.0.iter().map(|p| p.to_string()).collect();
                record["path_condition"] = serde_json::Value::from(pc);
                record["test"] = serde_json::Value::from(name);
                tests.push(body);
            }
            Err(why) => {
                // A trace without a test keeps its outcome and path, not its path condition:
                // the conditions of walks cut by a bound grow with the walk, and a library
                // method's thousands of cut traces would make a sidecar too large to write.
                record["skipped"] = serde_json::Value::from(why.clone());
                skipped.push((t.id, why));
            }
        }
        records.push(record);
    }
    let sidecar_name = format!("{class_name}.json");
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
    let _ = writeln!(s, "/**");
    let _ = writeln!(s, " * Tests of {} ({} traces, {} tests).", comment(&r.method), r.traces.len(), tests.len());
    let _ = writeln!(s, " * The path and path condition of each test are in {sidecar_name}.");
    let _ = writeln!(s, " */");
    let _ = writeln!(s, "public class {class_name} {{");
    for (k, t) in tests.iter().enumerate() {
        if k > 0 {
            s.push('\n');
        }
        s.push_str(t);
    }
    let _ = writeln!(s, "}}");
    let s = if target.junit == Junit::Four { fix_junit4_messages(&s) } else { s };
    let sidecar = serde_json::json!({
        "method": r.method,
        "strategy": r.strategy,
        "test_class": class_name,
        "traces": records,
    });
    let source = wrap_long_lines(&super::imports::import_qualified_names(&s, &package, class_name), MAX_LINE);
    MethodTests {
        class_name: class_name.to_string(),
        package,
        source,
        sidecar: serde_json::to_string_pretty(&sidecar).unwrap_or_default() + "\n",
        tests: tests.len(),
        skipped,
    }
}

/// The name of the test of trace `t`.
impl Target<'_> {
    /// The test method name of trace `t`.
    pub(super) fn test_name(&self, t: &Trace) -> String {
        match self.names.get(&t.id) {
            Some(n) => n.clone(),
            None => format!("trace{}", t.id),
        }
    }
}

/// What the machine predicts for a trace, as the sidecar records it.
fn outcome_text(t: &Trace) -> String {
    match (&t.kind, &t.exception, &t.cut) {
        (TraceKind::Exception, Some(x), _) => format!("throws {x}"),
        (TraceKind::Cut, _, Some(why)) => format!("cut by {why}"),
        _ => match &t.value {
            Some(v) => format!("returns {v}"),
            None => "returns".to_string(),
        },
    }
}

/// JUnit 4 puts the message first: `assertTrue(cond, "msg")` → `assertTrue("msg", cond)`, and so for
/// the `assertEquals` of a run of equal elements.
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
            if let Some(rest) = t.strip_prefix("assertEquals(")
                && rest.contains(", Heap.same(")
                && let Some((args, msg)) = rest.trim_end_matches(");").rsplit_once(", \"")
            {
                let indent = &l[..l.len() - t.len()];
                return format!("{indent}assertEquals(\"{}, {args});", msg);
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
    // Overloads a source declares: bridges (generic or visibility ones) are not numbered.
    let same: Vec<MethodId> = cls
        .methods
        .iter()
        .copied()
        .filter(|x| {
            table.method(*x).name == m.name
                && (table.method(*x).access & crate::classfile::access::COMPILER_MADE == 0 || *x == method)
        })
        .collect();
    let suffix = if same.len() > 1 {
        format!("_{}", same.iter().position(|x| *x == method).unwrap_or(0) + 1)
    } else {
        String::new()
    };
    format!("{}_{}{}Test", simple, ident(&m.name), suffix)
}
