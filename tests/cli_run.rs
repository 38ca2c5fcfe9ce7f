//! `run` and `compare` from the command line: the JSON keys pipelines rely on, the paper's
//! table through `compare`, determinism, and clear errors.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_uberlazy");

fn json(args: &[&str]) -> serde_json::Value {
    let o = Command::new(BIN).args(args).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// Drops what legitimately changes run to run (times, memory).
fn stable(mut v: serde_json::Value) -> serde_json::Value {
    if let Some(o) = v.as_object_mut() {
        o.remove("time_ms");
        o.remove("solver_ms");
        o.remove("peak_mb");
    }
    v
}

#[test]
fn run_json_has_the_documented_keys_and_is_deterministic() {
    let args = ["run", "--cp", "testdata/samples.jar", "samples.Triple#sum", "--strategy", "lazy", "--json"];
    let v = json(&args);
    for k in [
        "method",
        "strategy",
        "bounds",
        "traces",
        "paths",
        "exceptional",
        "cut",
        "solver_queries",
        "time_ms",
        "solver_ms",
        "trace_list",
    ] {
        assert!(v.get(k).is_some(), "missing key {k}");
    }
    assert_eq!(v["traces"], 23);
    assert_eq!(v["exceptional"], 8);
    assert_eq!(v["bounds"]["max_depth"], 50);
    let t = &v["trace_list"][0];
    for k in ["id", "outcome", "path", "path_condition", "input"] {
        assert!(t.get(k).is_some(), "trace lacks {k}");
    }
    assert_eq!(stable(json(&args)), stable(v), "two runs differ");
}

#[test]
fn compare_reproduces_the_pose_paper_table() {
    let v = json(&[
        "compare",
        "--cp",
        "testdata/samples.jar",
        "samples.Container#swap",
        "samples.Triple#sum",
        "samples.Chain#hasNull4",
        "samples.Chain#hasNull10",
        "--format",
        "json",
    ]);
    let rows = v.as_array().unwrap();
    let want = [21, 3, 2, 2, 23, 23, 4, 4, 21, 16, 6, 6, 78, 67, 12, 12];
    let got: Vec<i64> = rows.iter().map(|r| r["traces"].as_i64().unwrap()).collect();
    assert_eq!(got, want);
    assert!(rows.iter().all(|r| r.get("trace_list").is_none()));
}

#[test]
fn bad_input_is_a_clear_error_with_exit_code_2() {
    let cases: [(&[&str], &str); 4] = [
        (&["run", "--cp", "testdata/samples.jar", "samples.Nope#m"], "samples.Nope"),
        (&["run", "--cp", "testdata/samples.jar", "samples.Chain#nope"], "nope"),
        (&["run", "--cp", "testdata/samples.jar", "samples.Chain#hasNull4", "--strategy", "eager"], "eager"),
        (&["run", "--cp", "no/such.jar", "samples.Chain#hasNull4"], "no/such.jar"),
    ];
    for (args, needle) in cases {
        let o = Command::new(BIN).args(args).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"));
    }
}

/// Forks inside `--precondition` count against `--precondition-depth`, not `--max-depth`:
/// with a budget of 4, repOK of Stack can only accept the empty stack (forks at size < 0,
/// the loop test and size == 0); a one-element stack needs five (size < 0, the loop test,
/// n > size, the loop test, n == size) and is cut inside repOK.
#[test]
fn precondition_decisions_have_their_own_budget() {
    let v = json(&[
        "run",
        "--cp",
        "testdata/sir.jar",
        "sir.Stack#pop",
        "--strategy",
        "uber",
        "--precondition",
        "repOK",
        "--precondition-depth",
        "4",
        "--json",
    ]);
    assert_eq!(v["bounds"]["precondition_depth"], 4);
    let traces = v["trace_list"].as_array().unwrap();
    let cut: Vec<&str> = traces.iter().filter_map(|t| t["cut"].as_str()).collect();
    assert!(!cut.is_empty() && cut.iter().all(|c| *c == "precondition-depth (4)"), "{cut:?}");
    let normal: Vec<&serde_json::Value> = traces.iter().filter(|t| t["cut"].is_null()).collect();
    assert_eq!(normal.len(), 1);
    assert!(normal[0]["input"].as_str().unwrap().contains("size=0"), "{}", normal[0]["input"]);
}
