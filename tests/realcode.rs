//! Real library code, as a user holding a jar runs it: commons-collections4 (Debian's
//! libcommons-collections4-java, installed by `make deps`) and the JDK's own java.util,
//! with only the library's jar on `--cp` (the JDK comes from the installed one).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{Ran, java_files, junit_command, junit_count, lowered_counts, tempdir, uberlazy_checked};

const COLLECTIONS4: &str = "/usr/share/java/commons-collections4.jar";

/// `gen` of `spec` with uber and heap inputs (the shapes these tests check are built field by
/// field), `bounds` and a time limit of 120 s, into `out`; succeeds, and returns stdout.
fn gen_heap(cp: &str, spec: &str, bounds: &[&str], out: &std::path::Path) -> String {
    let mut args = vec!["gen", "--cp", cp, spec, "--strategy", "uber", "--inputs", "heap", "--time-limit", "120"];
    args.extend_from_slice(bounds);
    args.extend_from_slice(&["--out", out.to_str().unwrap()]);
    let Ran { code, stdout, stderr: err } = uberlazy_checked(&args);
    assert_eq!(code, 0, "{stdout}\n{err}");
    stdout
}

/// `lowered N of M methods` of `classes --failures`: every method lowers.
fn lowers_everything(cp: &str) {
    let Ran { code, stdout: out, stderr: err } = uberlazy_checked(&["classes", "--failures", "--cp", cp]);
    assert_eq!(code, 0, "{err}");
    let (lowered, methods) = lowered_counts(&out);
    assert!(lowered == methods, "{cp}: {out}");
}

/// monitorenter/monitorexit and invokedynamic: 52 methods of commons-collections4 4.2 and
/// 204 of java.util used to fail on them; and tests of a java.util class compile and pass.
#[test]
fn every_method_of_commons_collections_and_java_util_lowers() {
    lowers_everything(COLLECTIONS4);
    let dir = tempdir();
    extract_java_base(dir.path());
    // java.util and its subpackages: nothing fails on monitors or invokedynamic (what still
    // fails is multianewarray, in java.util.regex and java.util.zip).
    let util = dir.path().join("classes/java/util");
    let Ran { code, stdout: out, stderr: err } =
        uberlazy_checked(&["classes", "--failures", "--cp", util.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    for op in ["monitorenter", "monitorexit", "invokedynamic"] {
        assert!(!out.contains(&format!("instruction {op}")), "java.util: {op} fails:\n{out}");
    }
    assert!(out.contains("lowered "), "{out}");

    // Tests of a JDK class live in a package of their own, build LinkedList's private Node
    // by reflection, and pass with the --add-opens the output names.
    let tests = dir.path().join("tests");
    let spec = "java.util.LinkedList#indexOf(Ljava/lang/Object;)I";
    let cp = util.to_str().unwrap();
    let stdout = gen_heap(cp, spec, &["--max-objects", "4"], &tests);
    assert!(!stdout.contains("time-limit"), "{stdout}");
    let source = std::fs::read_to_string(tests.join("uberlazy/gen/java/util/LinkedList_indexOfTest.java")).unwrap();
    assert!(source.starts_with("// Generated") && source.contains("package uberlazy.gen.java.util;"), "{source}");
    assert!(source.contains("Heap.alloc(\"java.util.LinkedList$Node\")"), "{source}");
    assert!(!source.contains("LinkedList.Node"), "{source}");
    junit_passes(&tests, cp);

    // Keys of declared type Object are boxed Integers: TreeMap#get on a tree built field by
    // field orders them with Integer.compareTo and finds a present key (the call returns the
    // entry's value, an object of the input), and the tests pass as emitted.
    let maps = dir.path().join("maps");
    let spec = "java.util.TreeMap#get(Ljava/lang/Object;)Ljava/lang/Object;";
    let stdout = gen_heap(cp, spec, &["--max-objects", "8"], &maps);
    assert!(!stdout.contains("time-limit"), "{stdout}");
    let source = std::fs::read_to_string(maps.join("uberlazy/gen/java/util/TreeMap_getTest.java")).unwrap();
    assert!(source.contains("Integer o1 = "), "{source}");
    let returns_input = |l: &str| l.trim_start().starts_with("assertSame(o") && l.ends_with(", result);");
    let found = source.split("@Test").any(|t| t.contains("result = o0.get(o1);") && t.lines().any(returns_input));
    assert!(found, "no test finds a present key:\n{source}");
    junit_passes(&maps, cp);
}

/// Runs the emitted tests with tools/run-junit.sh: they compile and all pass (at least 2).
fn junit_passes(tests: &std::path::Path, cp: &str) {
    let run = junit_command(tests, cp, "5").output().unwrap();
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{text}\n{}", String::from_utf8_lossy(&run.stderr));
    let n = junit_count(&text, "tests successful");
    assert!(n >= 2, "{text}");
}

/// The installed JDK's java.base classes, extracted under `dir/classes` by `jmod`.
fn extract_java_base(dir: &std::path::Path) {
    let home = std::fs::canonicalize(which("java")).unwrap();
    let jmod = home.parent().unwrap().parent().unwrap().join("jmods/java.base.jmod");
    let st = std::process::Command::new("jmod").arg("extract").arg("--dir").arg(dir).arg(&jmod).status().unwrap();
    assert!(st.success(), "jmod extract {}", jmod.display());
}

fn which(cmd: &str) -> std::path::PathBuf {
    let paths = std::env::var_os("PATH").unwrap();
    std::env::split_paths(&paths).map(|d| d.join(cmd)).find(|p| p.is_file()).unwrap()
}

/// PatriciaTrie<E> extends AbstractPatriciaTrie<String, E>: its keys are Strings (the class
/// fixes the type argument), whose characters the StringKeyAnalyzer reads bit by bit; a test
/// with a trie built field by field finds a present key, and the tests pass as emitted.
#[test]
fn patricia_trie_get_finds_a_string_key() {
    let dir = tempdir();
    let out = dir.path().join("tests");
    let spec = "org.apache.commons.collections4.trie.PatriciaTrie#get(Ljava/lang/Object;)Ljava/lang/Object;";
    let stdout = gen_heap(COLLECTIONS4, spec, &["--max-depth", "20"], &out);
    assert!(!stdout.contains("time-limit"), "{stdout}");
    let file = out.join("org/apache/commons/collections4/trie/PatriciaTrie_getTest.java");
    let source = std::fs::read_to_string(file).unwrap();
    assert!(source.contains("String o1 = \""), "{source}");
    let returns_input = |l: &str| l.trim_start().starts_with("assertSame(o") && l.ends_with(", result);");
    let found = source.split("@Test").any(|t| t.contains("result = o0.get(o1);") && t.lines().any(returns_input));
    assert!(found, "no test finds a present key:\n{source}");
    junit_passes(&out, COLLECTIONS4);
}

/// TreeList extends java.util.AbstractList, whose `modCount` it uses: with only the library
/// on `--cp` the field comes from the installed JDK, the tests set it by reflection, the
/// output says which `--add-opens` they need, and they pass as emitted.
#[test]
fn tree_list_add_with_only_the_library_on_the_class_path() {
    let dir = tempdir();
    let out = dir.path().join("tests");
    let spec = "org.apache.commons.collections4.list.TreeList#add(ILjava/lang/Object;)V";
    let args = ["gen", "--cp", COLLECTIONS4, spec, "--strategy", "uber", "--time-limit", "10", "--out"];
    let Ran { code, stdout, stderr: err } = uberlazy_checked(&[&args[..], &[out.to_str().unwrap()]].concat());
    assert_eq!(code, 0, "{stdout}\n{err}");
    assert!(stdout.contains("--add-opens java.base/java.util=ALL-UNNAMED"), "{stdout}");
    let options = std::fs::read_to_string(out.join("uberlazy/runtime/java-options.txt")).unwrap();
    assert_eq!(options, "--add-opens java.base/java.util=ALL-UNNAMED\n");
    junit_passes(&out, COLLECTIONS4);
}

/// `--inputs api` on the real classes: JDK 17's `LinkedList` and `TreeMap` and
/// commons-collections4's `TreeList` are built by their own constructors and methods, so
/// the tests need no reflection to build an input and no `--add-opens` (gen writes no JVM
/// options), compile and pass as emitted, and every method has a test whose input took two
/// calls or more (a list or map of at least two elements).
#[test]
fn api_inputs_of_java_util_and_tree_list_need_no_add_opens() {
    let dir = tempdir();
    extract_java_base(dir.path());
    let util = dir.path().join("classes/java/util");
    let util = util.to_str().unwrap();
    let jdk = [
        "java.util.LinkedList#add(Ljava/lang/Object;)Z",
        "java.util.LinkedList#remove(Ljava/lang/Object;)Z",
        "java.util.LinkedList#indexOf(Ljava/lang/Object;)I",
        "java.util.TreeMap#get(Ljava/lang/Object;)Ljava/lang/Object;",
        "java.util.TreeMap#put(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
        "java.util.TreeMap#remove(Ljava/lang/Object;)Ljava/lang/Object;",
    ];
    let list = [
        "org.apache.commons.collections4.list.TreeList#add(ILjava/lang/Object;)V",
        "org.apache.commons.collections4.list.TreeList#get(I)Ljava/lang/Object;",
    ];
    for (cp, specs) in [(util, &jdk[..]), (COLLECTIONS4, &list[..])] {
        let out = dir.path().join(format!("tests{}", specs.len()));
        let mut args = vec!["gen", "--cp", cp, "--strategy", "uber", "--inputs", "api", "--time-limit", "240"];
        args.extend_from_slice(specs);
        args.extend_from_slice(&["--out", out.to_str().unwrap()]);
        let Ran { code, stdout, stderr: err } = uberlazy_checked(&args);
        assert_eq!(code, 0, "{stdout}\n{err}");
        assert!(!stdout.contains("stopped early"), "{stdout}");
        assert!(!out.join("uberlazy/runtime/java-options.txt").exists(), "{stdout}");
        let mut files = 0;
        for p in java_files(&out).into_iter().filter(|p| !p.ends_with("Heap.java")) {
            files += 1;
            let src = std::fs::read_to_string(&p).unwrap();
            assert!(!src.contains("Heap.alloc") && !src.contains("Heap.set("), "{}", p.display());
            // The calls before the one under test, per test (a void call under test
            // is one of the `r.` lines, so it counts one more).
            let most = src
                .split("@Test")
                .skip(1)
                .map(|t| t.split(" result = ").next().unwrap_or(t))
                .map(|t| t.lines().filter(|l| l.trim_start().starts_with("r.")).count())
                .max()
                .unwrap_or(0);
            let void = !src.contains(" result = r.");
            assert!(most >= 2 + usize::from(void), "{}: no input of two elements:\n{src}", p.display());
        }
        assert_eq!(files, specs.len(), "{stdout}");
        if cp == util {
            // A list's contents after the call, through its public API.
            let src = std::fs::read_to_string(out.join("uberlazy/gen/java/util/LinkedList_add_1Test.java")).unwrap();
            assert!(src.contains("= (Object[]) r.toArray();") && src.contains("r.size());"), "{src}");
        }
        junit_passes(&out, cp);
    }
}
