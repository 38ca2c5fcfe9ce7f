//! Golden IR: every method of every subject class in javasrc/ against tests/golden/ir/,
//! plus one check per instruction family that its IR really contains that family.
//! Regenerate the golden files with `UPDATE_EXPECT=1 cargo test --test ir_golden`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{assert_golden, jar as jar_path};
use uberlazy::classfile::{ClassPath, ClassTable};
use uberlazy::ir::print::print_body;

/// The jars built from javasrc/ whose every method must lower.
const JARS: [&str; 7] = ["samples", "subjects", "ops", "frontend", "sir", "modern", "foreign"];

fn table(jar: &str) -> ClassTable {
    let cp = ClassPath::open(&jar_path(jar)).unwrap();
    ClassTable::load(&cp).unwrap()
}

/// The IR of every method with code of `class`, in class-file order.
fn class_ir(t: &mut ClassTable, class: &str) -> String {
    let c = t.lookup(class).unwrap_or_else(|| panic!("{class} not loaded"));
    let methods = t.class(c).methods.clone();
    let mut out = String::new();
    for m in methods {
        if !t.method(m).has_code {
            continue;
        }
        let body = uberlazy::lower::lower_method(t, m).unwrap_or_else(|e| panic!("{e}"));
        out.push_str(&print_body(t, &body));
        out.push('\n');
    }
    out
}

/// One check per stage: the IR of each class equals its golden file.
fn check(jar: &str) {
    let mut t = table(jar);
    let classes: Vec<String> = t.loaded_classes().iter().map(|c| c.java_name()).collect();
    assert!(!classes.is_empty(), "{jar}.jar holds no classes");
    for class in classes {
        let ir = class_ir(&mut t, &class);
        assert_golden(&format!("ir/{class}.ir"), &ir);
    }
}

#[test]
fn golden_ir_of_every_subject() {
    for jar in JARS {
        check(jar);
    }
}

/// The printed IR of one method.
fn ir_of(jar: &str, class: &str, method: &str) -> String {
    let t = table(jar);
    let c = t.lookup(class).unwrap();
    let m = t.class(c).methods.iter().copied().find(|m| t.method(*m).name == method).unwrap();
    let body = uberlazy::lower::lower_method(&t, m).unwrap();
    print_body(&t, &body)
}

/// Each instruction family of the issue appears, lowered, in the subject written for it.
#[test]
fn every_instruction_family_has_a_subject() {
    let cases: &[(&str, &str, &[&str])] = &[
        ("ops.IntOps", "arith", &["(+ a b)", "(- a b)", "(* a b)"]),
        ("ops.IntOps", "divRem", &["(/ a b)", "(% a b)"]),
        ("ops.IntOps", "longArith", &["(* a b)", "3L", "7L"]),
        ("ops.IntOps", "shifts", &["(<< a n)", "(>> a 2)", "(>>> a n)", "(& ", "(| ", "(^ "]),
        ("ops.IntOps", "longShifts", &["(<< a n)", "255L"]),
        ("ops.IntOps", "negate", &["(neg a)", "(neg b)", "(l2i "]),
        ("ops.IntOps", "counter", &["(i := (+ i 1))", "(c := (+ c 3))"]),
        ("ops.IntOps", "conversions", &["(i2b a)", "(i2c a)", "(i2s a)", "(i2l a)", "(l2i b)"]),
        ("ops.IntOps", "constants", &["100000", "123456789013L"]),
        ("ops.Branches", "signs", &["(!= a 0)", "(== a 1)", "(>= a 0)", "(< a 10)", "(<= a 5)", "(> a 2)"]),
        ("ops.Branches", "compareInts", &["(!= a b)", "(>= a b)", "(== a s1)"]),
        ("ops.Branches", "compareLongs", &["(lcmp a b)"]),
        ("ops.Branches", "refs", &["(!= b null)", "(== b s1)", "(!= s0 this)", "(== s0 null)"]),
        ("ops.Branches", "table", &["(switch k (1 B", "(4 B", "(default B"]),
        ("ops.Branches", "lookup", &["(switch k (-100 B", "(1000 B"]),
        ("ops.Branches", "ternary", &["(goto B"]),
        ("ops.Objects", "make", &["(new ops.Objects)", "@special ops.Objects.<init>()V", "(o $ size := n)"]),
        ("ops.Objects", "make", &["(ops.Objects $ created)", "(ops.Objects $ created := "]),
        ("ops.Objects", "calls", &["@interface ops.Sized.size()I", "(this @ ops.Objects.size()I)"]),
        ("ops.Objects", "calls", &["@special ops.Objects.helper(I)I", "(@static java.lang.Math.max(II)I"]),
        ("ops.Objects", "casts", &["(instanceof o ops.Objects)", "(checkcast o ops.Objects)"]),
        ("ops.Objects", "postIncrement", &["(this $ size)", "(this $ size := "]),
        ("ops.Objects", "chainAssign", &["(this $ size := 7)", "(a $ size := 7)"]),
        ("ops.Objects", "discard", &["(o @ ops.Objects.size()I)", "(o @ ops.Objects.longPostIncrement()J)"]),
        ("ops.ArrayOps", "ints", &["(newarray int n)", "(length ", "[ i ] := 5)"]),
        ("ops.ArrayOps", "longs", &["[ i ] : long)", "1L"]),
        ("ops.ArrayOps", "small", &[": byte", ": char", ": short"]),
        ("ops.ArrayOps", "refs", &["(newarray java.lang.Object "]),
        ("ops.Exceptions", "caught", &["handler java.lang.ArithmeticException -> B"]),
        ("ops.Exceptions", "thrown", &["(throw ", "(new java.lang.IllegalArgumentException)", "\"negative\""]),
        ("ops.Exceptions", "finallyBlock", &["handler any -> B"]),
        ("ops.Floats", "mix", &["2.5f", "(i2f i)", "(l2d l)", "(d2f ", "(f2i f)"]),
        ("ops.Floats", "arrays", &["(newarray float n)", "(newarray double n)"]),
        ("samples.Container", "swap", &["(this $ data := ", "(c $ data := e)"]),
        ("modern.Modern", "lockedCount", &["(monitorenter m)", "(monitorexit "]),
        ("modern.Modern", "bump", &["(monitorenter this)", "handler any -> B"]),
        ("modern.Modern", "describe", &["(concat "]),
        ("modern.Modern", "counter", &["(new modern.Modern$$Lambda$", " $ cap0 := this)"]),
        (
            "samples.Lambdas",
            "fresh",
            &["(new samples.Lambdas$$Lambda$", "@interface java.util.function.Supplier.get()"],
        ),
    ];
    for (class, method, needles) in cases {
        let jar = class.split(".").next().unwrap();
        let ir = ir_of(jar, class, method);
        for n in *needles {
            assert!(ir.contains(n), "IR of {class}#{method} lacks {n:?}:\n{ir}");
        }
    }
}

/// `multianewarray` is a clear error naming method, source line, offset and opcode.
#[test]
fn unsupported_instructions_are_named() {
    let t = table("unsupported");
    let c = t.lookup("unsupported.Unsupported").unwrap();
    let methods = t.class(c).methods.clone();
    let mut seen = Vec::new();
    for m in methods {
        let name = t.method(m).name.clone();
        match uberlazy::lower::lower_method(&t, m) {
            Ok(_) => assert!(["<init>", "plain"].contains(&name.as_str()), "{name} lowered"),
            Err(e) => {
                let msg = e.to_string();
                assert!(
                    msg.contains("unsupported.Unsupported#") && msg.contains(" line ") && msg.contains("(offset "),
                    "{msg}"
                );
                seen.push(msg);
            }
        }
    }
    let all = seen.join("\n");
    assert!(all.contains("unsupported instruction multianewarray"), "multianewarray missing in:\n{all}");
}
