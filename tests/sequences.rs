//! Call-sequence inputs (`--inputs api`) through the binary, judged by the JVM: the tests of
//! the SIR lists and trees build every input by the class's own constructor and methods, so
//! every input satisfies `repOK` (no precondition needed), every test passes, and none uses
//! reflection to build its input; subsumption keeps one prefix per reachable state.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{junit_command, run_json, tempdir, tests_and_traces, text, uberlazy};

/// The `sequences` object of `run --json` for one method.
fn sequences(spec: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["run", "--cp", "testdata/sir.jar", spec, "--strategy", "uber", "--inputs", "api", "--json"];
    args.extend_from_slice(extra);
    let o = uberlazy(&args);
    assert!(o.status.success(), "{}", text(&o));
    let v = run_json(&o);
    assert!(v["halted"].is_null(), "{spec}: {}", v["halted"]);
    assert_eq!(v["cut"], 0, "{spec}");
    v["sequences"].clone()
}

/// `gen` of a SIR class or method with uber, `--inputs`, `--tests` and `--validity repOK`:
/// the tests written (all methods) and the summary.
fn gen_with_validity(spec: &str, inputs: &str, tests: &str, out: &std::path::Path) -> (usize, String) {
    let o = uberlazy(&[
        "gen",
        "--cp",
        "testdata/sir.jar",
        spec,
        "--strategy",
        "uber",
        "--inputs",
        inputs,
        "--tests",
        tests,
        "--validity",
        "repOK",
        "--out",
        out.to_str().unwrap(),
    ]);
    let summary = text(&o);
    assert!(o.status.success(), "{summary}");
    let (tests, _) = tests_and_traces(&summary);
    (tests, summary)
}

/// Runs the SIR tests under `out` on the JVM (they must all pass) and returns the validity
/// records (`valid ...`/`invalid ...`, one per test) they wrote to `records`.
fn run_recording_validity(out: &std::path::Path, records: &std::path::Path) -> String {
    let o = junit_command(out, "testdata/sir.jar", "5").env("VALIDITY_FILE", records).output().unwrap();
    assert!(o.status.success(), "{}: emitted tests fail on the JVM:\n{}", out.display(), text(&o));
    std::fs::read_to_string(records).unwrap()
}

#[test]
fn api_inputs_of_the_lists_and_trees_are_valid_and_pass() {
    for class in ["sir.SinglyLinkedList", "sir.DoublyLinkedList", "sir.BinarySearchTree", "sir.RedBlackTree"] {
        let dir = tempdir();
        let out = dir.path().join("tests");
        let (tests, summary) = gen_with_validity(class, "api", "covering", &out);
        assert!(tests > 0, "{summary}");
        let simple = class.trim_start_matches("sir.");
        for e in std::fs::read_dir(out.join("sir")).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "java") {
                let src = std::fs::read_to_string(&p).unwrap();
                assert!(!src.contains("Heap.alloc") && !src.contains("Heap.set("), "{}", p.display());
                assert!(src.contains(&format!("r = new {simple}();")), "{}", p.display());
                assert!(src.lines().all(|l| l.chars().count() <= 150), "{}", p.display());
            }
        }
        let lines = run_recording_validity(&out, &dir.path().join("valid.txt"));
        assert_eq!(lines.lines().count(), tests, "{class}: one validity record per test");
        assert!(lines.lines().all(|l| l.starts_with("valid ")), "{class}: an input breaks repOK:\n{lines}");
    }
}

/// The states a sequence of at most three calls reaches, one prefix each: lists of 0..3
/// nodes (4), and binary search trees of 0..3 nodes, one per tree shape (Catalan numbers
/// 1 + 1 + 2 + 5 = 9); a red-black tree of 3 nodes is always balanced (1 + 1 + 2 + 1 = 5).
/// Every other prefix reaches one of these and is pruned.
#[test]
fn subsumption_keeps_one_prefix_per_reachable_state() {
    for (spec, states) in [
        ("sir.SinglyLinkedList#contains", 4),
        ("sir.DoublyLinkedList#contains", 4),
        ("sir.BinarySearchTree#contains", 9),
        ("sir.RedBlackTree#contains", 5),
    ] {
        let s = sequences(spec, &[]);
        assert_eq!(s["prefixes"], states, "{spec}: {s}");
        assert!(s["pruned"].as_u64().unwrap() > 0, "{spec}: {s}");
    }
}

/// `--max-sequence 4` on `BinarySearchTree#remove` finishes within the default time limit and
/// reports what subsumption pruned; `--sequence-methods` chooses the calls.
#[test]
fn longer_sequences_and_chosen_methods() {
    let s = sequences("sir.BinarySearchTree#remove", &["--max-sequence", "4"]);
    assert!(s["pruned"].as_u64().unwrap() > s["prefixes"].as_u64().unwrap(), "{s}");
    let s = sequences("sir.BinarySearchTree#contains", &["--sequence-methods", "add"]);
    assert_eq!(s["methods"], serde_json::json!(["add"]));
    assert_eq!(s["prefixes"], 9, "{s}");
    let o = uberlazy(&[
        "run",
        "--cp",
        "testdata/sir.jar",
        "sir.BinarySearchTree#contains",
        "--inputs",
        "api",
        "--sequence-methods",
        "nope",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--sequence-methods") && text(&o).contains("nope"), "{}", text(&o));
    let o =
        uberlazy(&["run", "--cp", "testdata/sir.jar", "sir.Stack#pop", "--inputs", "api", "--precondition", "repOK"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--validity repOK"), "{}", text(&o));
}

/// `gen`'s default, `--inputs auto`, one test per path: each path of the method gets its test
/// from an input built by calls when a sequence reaches the path, else from one built field by
/// field; the paths are those of `--inputs heap` (one test each), the call-built inputs are all
/// valid, and every test passes on the JVM.
#[test]
fn auto_inputs_build_by_calls_the_paths_a_sequence_reaches() {
    let dir = tempdir();
    let gen_tests = |inputs: &str| {
        let out = dir.path().join(inputs);
        let (tests, summary) = gen_with_validity("sir.SinglyLinkedList#get", inputs, "per-path", &out);
        (out, tests, summary)
    };
    let (_, heap_tests, _) = gen_tests("heap");
    let (out, tests, summary) = gen_tests("auto");
    assert_eq!(tests, heap_tests, "one test per path either way:\n{summary}");
    let line = summary.lines().find(|l| l.contains(" tests build their input by calls, ")).expect(&summary);
    let by_calls: usize = line.trim().split_once(' ').unwrap().0.parse().unwrap();
    assert!(by_calls > 0 && by_calls < tests, "{summary}");
    let src = std::fs::read_to_string(out.join("sir/SinglyLinkedList_getTest.java")).unwrap();
    assert_eq!(src.matches("r = new SinglyLinkedList();").count(), by_calls, "{src}");
    assert!(src.contains("Heap.alloc(SinglyLinkedList.class)"), "{src}");
    let lines = run_recording_validity(&out, &dir.path().join("valid.txt"));
    assert_eq!(lines.lines().count(), tests);
    assert!(lines.lines().filter(|l| l.starts_with("valid ")).count() >= by_calls, "{lines}");
}
