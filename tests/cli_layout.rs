//! `gen --layout maven`: the tests, their sidecars and the runtime helper go under
//! `src/test/java` with the paths a flat run gives them below `--out` (the rerun manifest
//! stays at `--out`, naming the files by their paths there), the summary names the
//! test dependencies, and `tools/run-junit.sh` compiles and passes the tree given either the
//! project root or its `src/test/java`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::Path;

use common::{files_below, jar, junit_count, run_junit, tempdir, text, uberlazy_checked};

/// `gen --package whole.sub` with a small depth bound, the `extra` flags and `--out out`.
fn gen_sub(extra: &[&str], out: &Path) -> String {
    let cp = jar("whole");
    let mut args = vec!["gen", "--cp", &cp, "--package", "whole.sub", "--max-depth", "6", "--time-limit", "120"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--out", out.to_str().unwrap()]);
    let r = uberlazy_checked(&args);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    r.stdout
}

/// The files below `dir`, by their paths relative to `dir`, sorted.
fn relative(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = files_below(dir)
        .into_iter()
        .filter(|f| Path::new(f).is_file())
        .map(|f| Path::new(&f).strip_prefix(dir).unwrap().display().to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn maven_layout_puts_the_flat_tree_under_src_test_java() {
    let dir = tempdir();
    let (flat, maven) = (dir.path().join("flat"), dir.path().join("maven"));
    let flat_out = gen_sub(&[], &flat);
    let maven_out = gen_sub(&["--layout", "maven"], &maven);
    let expected = [
        "uberlazy/runtime/Heap.java",
        "whole/sub/Pair_linkedTest.java",
        "whole/sub/Pair_linkedTest.json",
        "whole/sub/deeper/Flag_onTest.java",
        "whole/sub/deeper/Flag_onTest.json",
    ];
    let manifest = "uberlazy-manifest.json";
    let flat_files: Vec<String> = [manifest].iter().chain(&expected).map(|p| p.to_string()).collect();
    assert_eq!(relative(&flat), flat_files);
    let mut under: Vec<String> = expected.iter().map(|p| format!("src/test/java/{p}")).collect();
    under.push(manifest.into());
    assert_eq!(relative(&maven), under);
    let m = std::fs::read_to_string(maven.join(manifest)).unwrap();
    assert!(m.contains("\"src/test/java/whole/sub/Pair_linkedTest.java\""), "{m}");
    assert!(!flat_out.contains("junit-jupiter-api"), "{flat_out}");
    assert!(maven_out.contains("org.junit.jupiter:junit-jupiter-api:5.10.2"), "{maven_out}");
    for root in [maven.clone(), maven.join("src/test/java")] {
        let o = run_junit(&root, &jar("whole"), "5");
        let out = text(&o);
        assert!(o.status.success(), "{out}");
        assert_eq!((junit_count(&out, "tests successful"), junit_count(&out, "tests failed")), (5, 0), "{out}");
    }
}

#[test]
fn an_unknown_layout_is_a_usage_error() {
    let dir = tempdir();
    let cp = jar("whole");
    let out = dir.path().join("o");
    let r =
        uberlazy_checked(&["gen", "--cp", &cp, "whole.Counter", "--layout", "gradle", "--out", out.to_str().unwrap()]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("not a layout"), "{}", r.stderr);
    assert!(!out.exists());
}
