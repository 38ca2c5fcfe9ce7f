//! Java spelling: type names, typed literals and identifiers for emitted sources.

use crate::classfile::{ClassTable, JType};
use crate::heap::CVal;

/// Whether an object of the concrete heap is a lambda's (its class has no name a test can
/// spell, nor fields it can read).
pub fn is_lambda(table: &ClassTable, kind: &crate::heap::ObjKind) -> bool {
    matches!(kind, crate::heap::ObjKind::Class(c) if table.class(*c).is_lambda())
}

/// The source name of a class given its internal or Java name (`a/b/C$D` → `a.b.C.D`).
pub fn class_name(name: &str) -> String {
    name.replace(['/', '$'], ".")
}

/// The source spelling of a type (`int`, `samples.Chain`, `int[]`).
pub fn type_name(ty: &JType) -> String {
    match ty {
        JType::Class(c) => class_name(c),
        JType::Array(e) => format!("{}[]", type_name(e)),
        other => other.java_name(),
    }
}

/// Packages of the JDK's modules: a test of their classes cannot live in them (the module
/// system forbids it), so it goes to `uberlazy.gen.<package>`.
const JDK_PACKAGES: &[&str] = &["java.", "javax.", "jdk.", "sun.", "com.sun."];

/// Whether a dotted package belongs to a JDK module.
pub fn is_jdk_package(package: &str) -> bool {
    JDK_PACKAGES.iter().any(|p| package.starts_with(p))
}

/// The JDK packages (as `java.base/java.util`) whose fields the test source `source` reads
/// or writes through the runtime helper (`Heap.get(o, "java.util.ArrayList.size")`,
/// `Heap.setStatic(...)`): the JVM must open each to the tests.
pub fn reflected_jdk_packages(source: &str) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    for call in ["Heap.get(", "Heap.set(", "Heap.getStatic(", "Heap.setStatic("] {
        for (at, _) in source.match_indices(call) {
            let rest = &source[at + call.len()..];
            let line = rest.split('\n').next().unwrap_or("");
            let Some(name) = line.split('"').nth(1) else { continue };
            // `pkg.Class.field`: the package is what precedes the class.
            let Some((class, _field)) = name.rsplit_once('.') else { continue };
            let Some((package, _)) = class.rsplit_once('.') else { continue };
            if is_jdk_package(package) {
                out.insert(format!("java.base/{package}"));
            }
        }
    }
    out
}

/// The package of the tests of a class in `package`: the same one, except for the JDK's.
pub fn test_package(package: &str) -> String {
    if is_jdk_package(package) { format!("uberlazy.gen.{package}") } else { package.to_string() }
}

/// The dotted package of a class.
pub fn package_of(table: &ClassTable, c: crate::classfile::ClassId) -> String {
    table.class(c).name.rsplit_once('/').map(|(p, _)| p.replace('/', ".")).unwrap_or_default()
}

/// Whether source in package `from` can name class `c` (a public class, or a class of the
/// same package that is not a private nested class, nor an anonymous or local one). Phantom
/// JDK classes are public.
pub fn nameable(table: &ClassTable, c: crate::classfile::ClassId, from: &str) -> bool {
    use crate::classfile::access::{PRIVATE, PUBLIC};
    let class = table.class(c);
    if !class.loaded {
        return true;
    }
    // An anonymous or local class (`Outer$1`, `Outer$1Local`): no source can spell its name.
    if class.name.rsplit_once('$').is_some_and(|(_, s)| s.starts_with(|ch: char| ch.is_ascii_digit())) {
        return false;
    }
    let public = class.access & PUBLIC != 0 && class.inner_access.is_none_or(|a| a & PUBLIC != 0);
    public || (package_of(table, c) == from && class.inner_access.is_none_or(|a| a & PRIVATE == 0))
}

/// The binary name used by reflection (`a.b.C$D`).
pub fn binary_name(table: &ClassTable, c: crate::classfile::ClassId) -> String {
    table.class(c).name.replace('/', ".")
}

/// A primitive value as a literal of exactly type `ty`, so that boxing picks the right
/// wrapper (`(byte) 3`, `'a'`-like `(char) 97`, `5L`, `true`).
pub fn literal(ty: &JType, v: i64) -> String {
    match ty {
        JType::Boolean => (if v != 0 { "true" } else { "false" }).to_string(),
        JType::Byte => format!("(byte) {}", v as i8),
        JType::Short => format!("(short) {}", v as i16),
        JType::Char => format!("(char) {}", v as u16),
        JType::Long => long_literal(v),
        // Floats and doubles are kept as their IEEE bits.
        JType::Float => crate::term::java_literal(32, v as u64),
        JType::Double => crate::term::java_literal(64, v as u64),
        _ => int_literal(v as i32),
    }
}

/// A primitive literal as an `Object` (boxed): `(Object) 5`, and `(Object) (-5)`, since Java
/// reads `(Object) -5` as the subtraction `Object - 5`.
pub fn boxed_literal(lit: &str) -> String {
    if lit.starts_with('-') { format!("(Object) ({lit})") } else { format!("(Object) {lit}") }
}

/// An int literal (`Integer.MIN_VALUE` has no plain literal form).
pub fn int_literal(v: i32) -> String {
    if v == i32::MIN { "Integer.MIN_VALUE".to_string() } else { v.to_string() }
}

/// A long literal.
pub fn long_literal(v: i64) -> String {
    if v == i64::MIN { "Long.MIN_VALUE".to_string() } else { format!("{v}L") }
}

/// A Java string literal of these UTF-16 units: printable ASCII as it is, the rest escaped
/// (three-digit octal below space: a `\u000a` escape would end the line before javac lexes
/// the literal).
pub fn string_literal(units: &[u16]) -> String {
    let mut out = String::from("\"");
    for &u in units {
        match u {
            0x22 => out.push_str("\\\""),
            0x5c => out.push_str("\\\\"),
            0x20..=0x7e => out.push(char::from(u as u8)),
            0..=0x1f => out.push_str(&format!("\\{u:03o}")),
            _ => out.push_str(&format!("\\u{u:04x}")),
        }
    }
    out.push('"');
    out
}

/// A value of declared type `ty`: a literal, `null`, or the variable of object `i`.
pub fn value(ty: &JType, v: &CVal, var: &dyn Fn(usize) -> String) -> String {
    match v {
        CVal::Int(i) | CVal::Long(i) => literal(ty, *i),
        CVal::Null => {
            if ty.is_reference() {
                format!("({}) null", type_name(ty))
            } else {
                "null".to_string()
            }
        }
        CVal::Obj(i) => var(*i),
    }
}

/// A Java identifier made from arbitrary text (method names like `<init>` become `init`).
pub fn ident(s: &str) -> String {
    let mut out: String = s.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    out = out.trim_matches('_').to_string();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'm');
    }
    out
}

/// Text safe inside a `//` comment (no line breaks, no unicode escapes).
pub fn comment(s: &str) -> String {
    s.replace(['\n', '\r'], " ").replace("\\u", "\\ u")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_jdk_packages_a_test_reflects_on_are_those_it_names() {
        let source = "Heap.set(o0, \"java.util.ArrayList.size\", 2);\n\
                      assertEquals(1, Heap.get(o1, \"p.Node.next\"));\n\
                      Object n1 = Heap.getStatic(\"java.util.regex.Pattern.accept\");\n\
                      assertEquals(\"java.lang.String\", Heap.className(n1));\n";
        let got: Vec<String> = reflected_jdk_packages(source).into_iter().collect();
        assert_eq!(got, ["java.base/java.util", "java.base/java.util.regex"]);
    }

    #[test]
    fn literals_have_the_exact_type() {
        assert_eq!(literal(&JType::Byte, -1), "(byte) -1");
        assert_eq!(literal(&JType::Char, 97), "(char) 97");
        assert_eq!(literal(&JType::Boolean, 1), "true");
        assert_eq!(literal(&JType::Long, i64::MIN), "Long.MIN_VALUE");
        assert_eq!(literal(&JType::Int, i64::from(i32::MIN)), "Integer.MIN_VALUE");
        assert_eq!(literal(&JType::Float, i64::from(0.75f32.to_bits())), "0.75f");
        assert_eq!(literal(&JType::Double, 2.5f64.to_bits() as i64), "2.5");
        assert_eq!(boxed_literal(&literal(&JType::Int, -5)), "(Object) (-5)");
        assert_eq!(boxed_literal(&literal(&JType::Long, 7)), "(Object) 7L");
        assert_eq!(boxed_literal(&literal(&JType::Byte, -1)), "(Object) (byte) -1");
        assert_eq!(type_name(&JType::Array(Box::new(JType::Class("a/B$C".into())))), "a.B.C[]");
        assert_eq!(ident("<init>"), "init");
        let units: Vec<u16> = "a\"b\\".encode_utf16().chain([10, 0, 0xe9]).collect();
        assert_eq!(string_literal(&units), "\"a\\\"b\\\\\\012\\000\\u00e9\"");
    }
}
