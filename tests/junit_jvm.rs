//! The JVM judges the emitted tests: for every subject method and every strategy, `gen`
//! writes JUnit sources that javac compiles and JUnit runs, all passing; the oracles bite on
//! a mutant; re-running `gen` never clobbers what is there.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::Path;
use std::process::Command;

use common::{BIN, java_files, junit_command, junit_count, run_json, tempdir, tests_and_traces, text, uberlazy};

const STRATEGIES: [&str; 4] = ["lazy", "lazier", "uber", "pose"];

/// Every class of javasrc/ whose methods the machine explores.
/// (frontend.Shape is abstract with no subclass: exploring it is a clear error instead.)
const SUBJECTS: [(&str, &[&str]); 5] = [
    ("sir", &SIR),
    ("frontend", &["frontend.Overloads"]),
    ("samples", &["samples.Container", "samples.Triple", "samples.Chain"]),
    (
        "subjects",
        &[
            "subjects.Arith",
            "subjects.Arrays",
            "subjects.Circle",
            "subjects.Counter",
            "subjects.Growable",
            "subjects.Holder",
            "subjects.Money",
            "subjects.Node",
            "subjects.Pose",
            "subjects.Shadow",
            "subjects.Square",
            "subjects.Words",
        ],
    ),
    ("ops", &["ops.IntOps", "ops.Branches", "ops.Objects", "ops.ArrayOps", "ops.Exceptions", "ops.Floats"]),
];

/// Every SIR subject (explored at depth 8: their loops and recursion multiply lazy traces).
const SIR: [&str; 8] = [
    "sir.SinglyLinkedList",
    "sir.DoublyLinkedList",
    "sir.Stack",
    "sir.BinarySearchTree",
    "sir.AvlTree",
    "sir.RedBlackTree",
    "sir.AATree",
    "sir.BinomialHeap",
];

/// The `--max-depth` the JVM runs use for a jar.
fn depth(jar: &str) -> &'static str {
    if jar == "sir" { "8" } else { "12" }
}

/// Runs `gen` and returns (tests written, traces, traces without a test: cut, or repeating
/// the path of an earlier test) from its summary.
fn generate(jar: &str, classes: &[&str], strategy: &str, out: &Path, extra: &[&str]) -> (usize, usize, usize) {
    let cp = common::jar(jar);
    let mut args = vec!["gen", "--cp", &cp, "--strategy", strategy, "--out", out.to_str().unwrap()];
    args.extend_from_slice(classes);
    args.extend_from_slice(&["--max-depth", depth(jar)]);
    args.extend_from_slice(extra);
    let o = uberlazy(&args);
    let t = text(&o);
    assert!(o.status.success(), "gen {jar} {strategy} failed:\n{t}");
    let (tests, traces) = tests_and_traces(&t);
    let mut cut = 0;
    for l in t.lines() {
        // `  12 traces repeat a tested path (--tests per-trace tests them too)`
        if let Some((n, _)) = l.trim_start().split_once(" traces repeat a tested path") {
            cut += n.parse::<usize>().unwrap();
        }
        // `  40 traces cover no branch or outcome the tests do not (--tests per-path tests them too)`
        if let Some((n, _)) = l.trim_start().split_once(" traces cover no branch or outcome") {
            cut += n.parse::<usize>().unwrap();
        }
        // `  traces skipped, cut by max-depth (8): 3, 5-9`
        if let Some(rest) = l.trim_start().strip_prefix("traces skipped, ") {
            assert!(rest.starts_with("cut by"), "traces without a test that were not cut: {l}");
            let (_, ids) = rest.rsplit_once(": ").unwrap();
            for r in ids.split(", ") {
                cut += match r.split_once('-') {
                    Some((a, b)) => b.parse::<usize>().unwrap() - a.parse::<usize>().unwrap() + 1,
                    None => 1,
                };
            }
        }
    }
    (tests, traces, cut)
}

/// Compiles and runs the tests under `dir` against `cp`; returns (passed, output).
fn junit(dir: &Path, cp: &str, version: &str) -> (bool, String) {
    junit_with(dir, cp, version, "")
}

/// [`junit`] with these options for the JVM that runs the tests (`-ea`).
fn junit_with(dir: &Path, cp: &str, version: &str, jvm_options: &str) -> (bool, String) {
    let o = junit_command(dir, cp, version).env("JVM_OPTIONS", jvm_options).output().unwrap();
    (o.status.success(), text(&o))
}

/// No line of an emitted source is longer than 150 characters.
fn assert_short_lines(dir: &Path) {
    for p in java_files(dir) {
        let text = std::fs::read_to_string(&p).unwrap();
        let long = text.lines().find(|l| l.chars().count() > 150);
        assert!(long.is_none(), "{}: a line over 150 characters: {}", p.display(), long.unwrap_or_default());
    }
}

#[test]
fn every_subject_and_strategy_passes_on_the_jvm() {
    for (jar, classes) in SUBJECTS {
        for s in STRATEGIES {
            let dir = tempdir();
            let (tests, traces, cut) = generate(jar, classes, s, dir.path(), &[]);
            assert_eq!(tests + cut, traces, "{jar} {s}: every trace has a test, is cut or repeats a tested path");
            assert_short_lines(dir.path());
            let (ok, out) = junit(dir.path(), &common::jar(jar), "5");
            assert!(ok, "{jar} with {s}: emitted tests fail on the JVM:\n{out}");
            assert_eq!(junit_count(&out, "tests successful"), tests, "{jar} {s}:\n{out}");
            assert_eq!(junit_count(&out, "tests failed"), 0);
        }
    }
}

/// With `--precondition repOK` every emitted test first asserts `repOK()` on the rebuilt
/// input, so all tests passing means every emitted input is valid (Java StarFinder's 100%).
/// Scope 4, the scope of the mutation table (results/mutation.md).
#[test]
fn precondition_inputs_are_all_valid() {
    for s in STRATEGIES {
        let dir = tempdir();
        let (tests, _, _) = generate("sir", &SIR, s, dir.path(), &["--precondition", "repOK", "--max-objects", "4"]);
        assert!(tests > 0);
        let src = std::fs::read_to_string(dir.path().join("sir/Stack_popTest.java")).unwrap();
        assert!(src.contains("assertTrue(o0.repOK()"), "{src}");
        let (ok, out) = junit(dir.path(), "testdata/sir.jar", "5");
        assert!(ok, "{s}: an input violates repOK or a test fails:\n{out}");
        assert_eq!(junit_count(&out, "tests successful"), tests);
    }
}

#[test]
fn junit4_tests_pass_with_junitcore() {
    let dir = tempdir();
    let (tests, _, _) =
        generate("samples", &["samples.Container", "samples.Chain"], "uber", dir.path(), &["--junit", "4"]);
    let (ok, out) = junit(dir.path(), "testdata/samples.jar", "4");
    assert!(ok, "JUnit 4 run failed:\n{out}");
    assert!(out.contains(&format!("OK ({tests} tests)")), "{out}");
}

/// A copy of samples.Container with its null test flipped makes emitted tests fail.
#[test]
fn a_mutated_subject_fails_the_emitted_tests() {
    let src = std::fs::read_to_string("javasrc/samples/Container.java").unwrap();
    assert!(src.contains("c == null"), "the branch to flip is gone");
    let mutant = src.replace("c == null", "c != null");
    let work = tempdir();
    let srcdir = work.path().join("src/samples");
    std::fs::create_dir_all(&srcdir).unwrap();
    std::fs::write(srcdir.join("Container.java"), mutant).unwrap();
    let classes = work.path().join("classes");
    let st = Command::new("javac")
        .args(["--release", "8", "-nowarn", "-d", classes.to_str().unwrap()])
        .arg(srcdir.join("Container.java"))
        .status()
        .unwrap();
    assert!(st.success());
    for s in STRATEGIES {
        let tests = work.path().join(format!("tests-{s}"));
        generate("samples", &["samples.Container"], s, &tests, &[]);
        let (ok, _) = junit(&tests, "testdata/samples.jar", "5");
        assert!(ok, "{s}: the tests must pass on the original");
        let (ok, out) = junit(&tests, classes.to_str().unwrap(), "5");
        assert!(!ok && junit_count(&out, "tests failed") > 0, "{s}: no emitted test noticed the mutant:\n{out}");
    }
}

#[test]
fn regenerating_keeps_existing_files_unless_forced() {
    let dir = tempdir();
    let out = dir.path().to_str().unwrap();
    let args = ["gen", "--cp", "testdata/samples.jar", "samples.Chain#hasNull4", "--out", out];
    assert!(uberlazy(&args).status.success());
    let file = dir.path().join("samples/Chain_hasNull4Test.java");
    let first = std::fs::read_to_string(&file).unwrap();
    let again = uberlazy(&args);
    assert!(again.status.success());
    assert!(text(&again).contains("(unchanged)"), "{}", text(&again));
    std::fs::write(&file, "// edited by hand\n").unwrap();
    let kept = uberlazy(&args);
    assert!(text(&kept).contains("use --force"), "{}", text(&kept));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "// edited by hand\n");
    let mut forced = args.to_vec();
    forced.push("--force");
    let o = uberlazy(&forced);
    assert!(text(&o).contains("rewritten"), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), first);
    // No temporary files are left behind.
    let stray: Vec<_> = std::fs::read_dir(dir.path().join("samples"))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp"))
        .collect();
    assert!(stray.is_empty());
}

#[test]
fn an_unwritable_output_is_an_error_before_any_work() {
    let dir = tempdir();
    let blocker = dir.path().join("file");
    std::fs::write(&blocker, "x").unwrap();
    let out = blocker.join("sub");
    let o =
        uberlazy(&["gen", "--cp", "testdata/samples.jar", "samples.Chain#hasNull10", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("--out") && text(&o).contains("not a directory"), "{}", text(&o));
}

/// Java's `%` on floats and doubles (C's `fmod`) is the one floating-point operation not
/// modelled: its trace is cut with that reason, the run goes on and exits 0.
#[test]
fn a_floating_point_remainder_cuts_its_trace() {
    let o = uberlazy(&["run", "--cp", "testdata/ops.jar", "ops.Floats#remainder"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let t = text(&o);
    assert!(t.contains("cut by unsupported: floating-point remainder"), "{t}");
}

/// A method a class inherits is a target through the class: `Square#scaled` runs Shape's
/// code on a Square receiver, whose `area()` dispatches to Square's (k * side * side).
#[test]
fn an_inherited_method_is_targeted_through_the_subclass() {
    let dir = tempdir();
    let heap = ["--inputs", "heap"];
    let (tests, traces, cut) = generate("subjects", &["subjects.Square#scaled"], "uber", dir.path(), &heap);
    assert_eq!((tests, traces, cut), (2, 2, 0));
    let src = std::fs::read_to_string(dir.path().join("subjects/Square_scaledTest.java")).unwrap();
    assert!(src.contains("Square o0 = Heap.alloc(Square.class);"), "{src}");
    let (ok, out) = junit(dir.path(), "testdata/subjects.jar", "5");
    assert!(ok && junit_count(&out, "tests successful") == 2, "{out}");
}

/// A sample of JDK methods, read from the installed JDK and run as written: every emitted
/// test compiles and passes (the tests live in a package of their own and set JDK fields by
/// reflection, with the options `gen` writes).
#[test]
fn emitted_tests_of_jdk_classes_pass() {
    let dir = tempdir();
    let methods = [
        "java.util.BitSet#cardinality",
        "java.util.BitSet#get(I)Z",
        "java.util.ArrayDeque#peekFirst",
        "java.util.PriorityQueue#peek",
        "java.util.ArrayList#indexOf",
    ];
    let mut args =
        vec!["gen", "--cp", "testdata/samples.jar", "--max-depth", "12", "--out", dir.path().to_str().unwrap()];
    args.extend_from_slice(&methods);
    let o = uberlazy(&args);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    let (tests, _) = tests_and_traces(&t);
    assert!(tests >= methods.len(), "{t}");
    let (ok, out) = junit(dir.path(), "testdata/samples.jar", "5");
    assert!(ok, "{out}");
    assert_eq!(junit_count(&out, "tests successful"), tests, "{out}");
}

/// A class whose code is all inherited from a package-private base (javac gives it a bridge
/// per public method) has that code as its targets: `gen foreign.Tally` tests `add`, `count`
/// and the package's `twice` on a `Tally`, and the tests pass. The base's `snapshot()`, which
/// `Tally` overrides with a covariant result, is not a target: the JVM runs the override.
#[test]
fn a_class_tests_the_methods_it_inherits() {
    let dir = tempdir();
    let o = uberlazy(&["gen", "--cp", "testdata/foreign.jar", "foreign.Tally", "--out", dir.path().to_str().unwrap()]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    for m in ["add(I)V", "count()I", "twice()I", "snapshot()Ljava/lang/Integer;"] {
        assert!(t.contains(&format!("foreign.Tally#{m}: ")), "no tests of the inherited {m}:\n{t}");
    }
    assert!(!t.contains("foreign.Tally#snapshot()Ljava/lang/Object;"), "{t}");
    let add = std::fs::read_to_string(dir.path().join("foreign/Tally_addTest.java")).unwrap();
    assert!(add.contains("IllegalArgumentException"), "{add}");
    let (ok, out) = junit(dir.path(), "testdata/foreign.jar", "5");
    assert!(ok, "{out}");
    assert!(junit_count(&out, "tests successful") >= 4, "{out}");
}

/// The result of a call with no bytecode and no model (`System.nanoTime`) is undetermined: a
/// path that stores or returns it has a test that does not check it; a path that branches on
/// it is cut, naming the call; the same for a static its class initializer computed. Under
/// every strategy the tests pass.
#[test]
fn results_of_calls_without_a_model_are_carried_not_checked() {
    for strategy in ["uber", "lazy"] {
        let dir = tempdir();
        let out = dir.path().to_str().unwrap();
        let o =
            uberlazy(&["gen", "--cp", "testdata/foreign.jar", "foreign.Clock", "--strategy", strategy, "--out", out]);
        let t = text(&o);
        assert!(o.status.success(), "{t}");
        for m in ["stamp(I)J", "owner()Ljava/lang/Thread;", "spread([I)I", "since()J"] {
            assert!(t.contains(&format!("foreign.Clock#{m}: ")) && !t.contains(&format!("{m}: 0 tests")), "{m}:\n{t}");
        }
        let cut = "cut by undetermined: the path depends on the result of java.lang.System#nanoTime()J";
        assert!(t.contains("foreign.Clock#late(J)Z: 0 tests") && t.contains(cut), "{t}");
        let stamp = std::fs::read_to_string(dir.path().join("foreign/Clock_stampTest.java")).unwrap();
        assert!(stamp.contains("// result: not checked") && stamp.contains("assertEquals(-15L, result)"), "{stamp}");
        assert!(!stamp.contains("foreign.Clock.last\""), "the time stored in last is checked:\n{stamp}");
        let spread = std::fs::read_to_string(dir.path().join("foreign/Clock_spreadTest.java")).unwrap();
        assert!(spread.contains("// o1[0]: not checked"), "{spread}");
        let (ok, out) = junit(dir.path(), "testdata/foreign.jar", "5");
        assert!(ok && junit_count(&out, "tests successful") >= 7, "{strategy}: {out}");
    }
}

/// A path that an identity hash code picks gets no test (the JVM chooses the hash): the
/// output says why, and the tests of the other paths pass.
#[test]
fn a_path_picked_by_an_identity_hash_gets_no_test() {
    let dir = tempdir();
    let out = dir.path().to_str().unwrap();
    let args = ["gen", "--cp", "testdata/subjects.jar", "subjects.Identity#parity", "--strategy", "uber", "--out", out];
    let o = uberlazy(&args);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    // Three traces with the argument built by calls (`new Identity()` or null), three with it
    // built field by field.
    assert!(t.contains(": 1 tests from 6 traces"), "{t}");
    assert!(
        t.contains("traces skipped, its path depends on an identity hash code, which a test cannot choose: 1-2, 4-5"),
        "{t}"
    );
    let (ok, out) = junit(dir.path(), "testdata/subjects.jar", "5");
    assert!(ok && junit_count(&out, "tests successful") == 1, "{out}");
    // An array index computed from the hash: one cut trace, not one trace per index.
    let dir = tempdir();
    let out = dir.path().to_str().unwrap();
    let args = ["gen", "--cp", "testdata/subjects.jar", "subjects.Identity#lookup", "--strategy", "uber", "--out", out];
    let o = uberlazy(&args);
    let t = text(&o);
    assert!(o.status.success() && t.contains(": 2 tests from 4 traces"), "{t}");
    assert!(t.contains("cut by identity hash: an array index computed from an identity hash code"), "{t}");
    let (ok, out) = junit(dir.path(), "testdata/subjects.jar", "5");
    assert!(ok && junit_count(&out, "tests successful") == 2, "{out}");
    // A value computed from the hash, on a path that does not depend on it: tested, the value not checked.
    let dir = tempdir();
    let out = dir.path().to_str().unwrap();
    let o = uberlazy(&["gen", "--cp", "testdata/subjects.jar", "subjects.Identity#mixed", "--out", out]);
    let t = text(&o);
    assert!(o.status.success() && t.contains(": 2 tests from 4 traces"), "{t}");
    let src = std::fs::read_to_string(dir.path().join("subjects/Identity_mixedTest.java")).unwrap();
    assert!(src.contains("// result: not checked: the JVM decides it"), "{src}");
    assert!(
        src.contains("Identity identity1 = new Identity();") && src.contains("mixed_returnsZero_whenXIsNull"),
        "{src}"
    );
    let (ok, out) = junit(dir.path(), "testdata/subjects.jar", "5");
    assert!(ok && junit_count(&out, "tests successful") == 2, "{out}");
}

/// JaCoCo: the tests emitted for the samples (all strategies) cover every branch.
#[test]
fn emitted_tests_cover_every_branch_of_the_samples() {
    let agent = Command::new("bash").args(["tools/jacoco-agent.sh", "target/tools/jacocoagent.jar"]).status().unwrap();
    assert!(agent.success());
    let o = Command::new("bash")
        .args(["tools/coverage.sh", "lazy,lazier,uber,pose", "samples:samples.Container,samples.Triple,samples.Chain"])
        .env("UBERLAZY", BIN)
        .output()
        .unwrap();
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    for class in ["samples.Chain", "samples.Container"] {
        let row = out.lines().find(|l| l.starts_with(&format!("| {class} |"))).unwrap_or_else(|| panic!("{out}"));
        assert!(row.contains("| 100.0 |"), "{class} not fully covered: {row}");
    }
}

/// `gen --stats` writes the counts per method; `--validity` makes every test record whether
/// its input satisfies the invariant (what `make bench` reports as valid_pct, of heap inputs).
#[test]
fn stats_and_validity_records_for_the_bench() {
    let dir = tempdir();
    let stats = dir.path().join("stats.json");
    let tests = dir.path().join("tests");
    let o = uberlazy(&[
        "gen",
        "--cp",
        "testdata/sir.jar",
        "sir.Stack#pop",
        "--strategy",
        "lazy",
        "--out",
        tests.to_str().unwrap(),
        "--max-depth",
        "8",
        "--stats",
        stats.to_str().unwrap(),
        "--validity",
        "repOK",
        "--inputs",
        "heap",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    let row = &v[0];
    assert_eq!(row["method"], "sir.Stack#pop()I");
    let n = row["tests"].as_u64().unwrap();
    assert!(n > 0 && row["traces"].as_u64().unwrap() >= n);
    let records = dir.path().join("valid.txt");
    let o = junit_command(&tests, "testdata/sir.jar", "5").env("VALIDITY_FILE", &records).output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let lines = std::fs::read_to_string(&records).unwrap();
    assert_eq!(lines.lines().count() as u64, n);
    // Without a precondition some inputs break the invariant: lazy initialization makes a
    // stack whose node is its own `below` (a cycle), which no choice of values repairs.
    assert!(lines.lines().any(|l| l.starts_with("invalid ")), "{lines}");
    assert!(lines.lines().any(|l| l.starts_with("valid ")), "{lines}");
}

/// Code written as third-party code is (`javasrc/foreign/`: `assert` statements, static finals
/// its class initializer computes, an invariant that runs that initializer first, a store at an
/// index the input picks): with its invariant as precondition, every strategy's tests pass
/// with and without `-ea`; the failing `assert` is an `AssertionError` outcome whose test is
/// skipped without `-ea`, and no test sets a static final.
#[test]
fn foreign_code_passes_with_and_without_assertions() {
    for s in STRATEGIES {
        let dir = tempdir();
        let (tests, traces, cut) =
            generate("foreign", &["foreign.Checked"], s, dir.path(), &["--precondition", "repOK"]);
        assert_eq!(tests + cut, traces, "{s}: every trace has a test, is cut or repeats a tested path");
        let checked = std::fs::read_to_string(dir.path().join("foreign/Checked_checkedTest.java")).unwrap();
        assert!(checked.contains("(AssertionError.class"), "{s}: no AssertionError outcome:\n{checked}");
        for (ea, aborted) in [("", 1), ("-ea", 0)] {
            let (ok, out) = junit_with(dir.path(), "testdata/foreign.jar", "5", ea);
            assert!(ok, "{s} {ea}: emitted tests fail on the JVM:\n{out}");
            assert_eq!(junit_count(&out, "tests aborted"), aborted, "{s} {ea}:\n{out}");
            assert_eq!(junit_count(&out, "tests successful") + aborted, tests, "{s} {ea}:\n{out}");
        }
    }
    let dir = tempdir();
    generate("foreign", &["foreign.Checked"], "uber", dir.path(), &["--precondition", "repOK", "--junit", "4"]);
    let (ok, out) = junit_with(dir.path(), "testdata/foreign.jar", "4", "");
    assert!(ok, "JUnit 4 without -ea:\n{out}");
}

/// A parameter whose implementations include an anonymous class, a JDK object a class
/// initializer stores, a class initializer that stores the result of a call with no model
/// after computing one static, a system property and reflection's array length: the tests
/// name no class a source cannot spell, check the JDK object by its class only, and read the
/// computed static; only the traces that use the call's result or read the JVM's startup state
/// are cut, naming it. Every test passes.
#[test]
fn anonymous_classes_jdk_statics_and_abandoned_initializers_pass() {
    let dir = tempdir();
    let o = uberlazy(&[
        "gen",
        "--cp",
        "testdata/foreign.jar",
        "foreign.Shapes#twice",
        "foreign.Settings",
        "--out",
        dir.path().to_str().unwrap(),
    ]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("foreign.Settings#clamp(I)I: 2 tests from 2 traces"), "{t}");
    assert!(t.contains("foreign.Settings#nameLength()I: 0 tests from 1 traces, no test class written"), "{t}");
    assert!(!dir.path().join("foreign/Settings_nameLengthTest.java").exists(), "an empty test class was written");
    // The initializer stores the undetermined result of `String#trim`; only its use is cut.
    assert!(
        t.contains("cut by undetermined: the path depends on the result of java.lang.String#trim()Ljava/lang/String;"),
        "{t}"
    );
    // System's statics are the JVM's: a property read is cut, not run on a null table.
    assert!(t.contains("foreign.Settings#verbose()Z: 0 tests from 1 traces"), "{t}");
    assert!(t.contains("(unsupported: state the JVM sets up at startup)"), "{t}");
    assert!(t.contains("foreign.Settings#size(Ljava/lang/Object;)I: 2 tests from 2 traces"), "{t}");
    // System.out is the JVM's (System's initializer writes null there): a stream whose
    // output the tests do not check.
    assert!(t.contains("foreign.Settings#say(I)I: 2 tests from 2 traces"), "{t}");
    let src = std::fs::read_to_string(dir.path().join("foreign/Shapes_twiceTest.java")).unwrap();
    assert!(src.contains("\"foreign.Shapes$1\""), "no input of the anonymous class:\n{src}");
    let (ok, out) = junit(dir.path(), "testdata/foreign.jar", "5");
    assert!(ok, "emitted tests fail on the JVM:\n{out}\n{src}");
    assert_eq!(junit_count(&out, "tests successful"), 8, "{out}");
}

/// A precondition over parameters (`Merge.pre(Node, Node)` for the static `merge`, the
/// instance `pre(Node)` for `mergeIn`): every test checks it on its input through the same
/// call, and every test passes with `-ea`, so no merge of valid lists fails its `assert`.
#[test]
fn tests_under_a_precondition_over_parameters_pass() {
    let dir = tempdir();
    let (tests, traces, cut) = generate(
        "foreign",
        &["foreign.Merge#merge", "foreign.Merge#mergeIn"],
        "uber",
        dir.path(),
        &["--precondition", "pre", "--max-objects", "3"],
    );
    assert_eq!(tests + cut, traces, "every trace has a test or was cut by --max-depth");
    assert!(tests >= 5, "{tests} tests");
    let src = std::fs::read_to_string(dir.path().join("foreign/Merge_mergeTest.java")).unwrap();
    assert!(src.contains("assertTrue(Merge.pre("), "{src}");
    let (ok, out) = junit_with(dir.path(), "testdata/foreign.jar", "5", "-ea");
    assert!(ok, "emitted tests fail on the JVM:\n{out}");
    assert_eq!(junit_count(&out, "tests successful"), tests, "{out}");
}

/// An invariant that keeps the objects it visited in a `java.util.HashSet` (the JDK's own code
/// runs, and inside the precondition an object's identity hash is a function of the object):
/// lazy initialization finds the lists a circular list of one, two and three entries has, and
/// every strategy's tests pass with each input valid.
#[test]
fn an_invariant_with_a_visited_hash_set_runs() {
    let traces = |scope: &str| {
        let o = uberlazy(&[
            "run",
            "--cp",
            "testdata/foreign.jar",
            "foreign.Ring#remove",
            "--strategy",
            "lazy",
            "--precondition",
            "repOK",
            "--max-objects",
            scope,
            "--json",
        ]);
        assert!(o.status.success(), "{}", text(&o));
        let v = run_json(&o);
        v["traces"].as_u64().unwrap()
    };
    assert_eq!([traces("2"), traces("3"), traces("4")], [1, 3, 6]);
    for s in STRATEGIES {
        let dir = tempdir();
        let extra = ["--precondition", "repOK", "--max-objects", "4", "--tests", "per-path"];
        let (tests, _, _) = generate("foreign", &["foreign.Ring"], s, dir.path(), &extra);
        assert!(tests >= 3, "{s}: {tests} tests");
        let (ok, out) = junit(dir.path(), "testdata/foreign.jar", "5");
        assert!(ok, "{s}: an input violates repOK or a test fails:\n{out}");
    }
}

/// A precondition whose runs are all cut (a native method no model covers) rejects nothing:
/// the run says so and fails, naming the precondition and the call, instead of reporting no
/// trace as if no input were valid.
#[test]
fn a_precondition_that_cannot_run_is_an_error() {
    let o = uberlazy(&["run", "--cp", "testdata/foreign.jar", "foreign.Locked#next", "--precondition", "repOK"]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(t.contains("--precondition repOK accepted no input of foreign.Locked#next()I"), "{t}");
    assert!(t.contains("java.lang.Thread#holdsLock(Ljava/lang/Object;)Z is native"), "{t}");
}
