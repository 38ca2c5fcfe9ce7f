//! Helpers the integration tests share: the built binary and its output, the test jars, files
//! below a directory, golden files, sessions of the library, and JUnit runs of emitted tests.
// Each test binary compiles this module whole and uses only some of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use uberlazy::classfile::MethodId;
use uberlazy::config::Config;
use uberlazy::machine::RunResult;
use uberlazy::session::{ExploreOptions, Session};

/// The binary under test, built by cargo for the integration tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_uberlazy");

/// The path of the jar `make testdata` builds from `javasrc/<name>/`.
pub fn jar(name: &str) -> String {
    format!("testdata/{name}.jar")
}

/// Runs the binary with `args` and waits for it to end.
pub fn uberlazy(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

/// What a process wrote, stdout then stderr, as text.
pub fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// A run of the binary that did not panic: its exit code (-1 when a signal ended it) and output.
pub struct Ran {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs the binary with `args`, failing the test if it panicked.
pub fn uberlazy_checked(args: &[&str]) -> Ran {
    let o = uberlazy(args);
    let ran = Ran {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    };
    assert!(!ran.stderr.contains("panicked"), "uberlazy {args:?} panicked:\n{}", ran.stderr);
    ran
}

/// The JSON document a `--json` run wrote to stdout.
pub fn run_json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}:\n{}", text(o)))
}

/// A fresh temporary directory, removed when dropped.
pub fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// Every file and directory below `dir` (none when it does not exist).
pub fn files_below(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir(dir) else { return out };
    for e in rd.filter_map(|e| e.ok()) {
        out.push(e.path().display().to_string());
        if e.path().is_dir() {
            out.extend(files_below(&e.path()));
        }
    }
    out
}

/// Every `.java` file below `dir`.
pub fn java_files(dir: &Path) -> Vec<PathBuf> {
    files_below(dir)
        .into_iter()
        .map(PathBuf::from)
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "java"))
        .collect()
}

/// The `(M, N)` of the final `lowered M of N methods` line of `classes`.
pub fn lowered_counts(stdout: &str) -> (usize, usize) {
    let last = stdout.lines().last().unwrap_or_default();
    let words: Vec<&str> = last.split(' ').collect();
    match words.as_slice() {
        ["lowered", m, "of", n, "methods"] => (m.parse().unwrap(), n.parse().unwrap()),
        _ => panic!("last line is not `lowered M of N methods`: {last:?}"),
    }
}

/// The tests and traces of all methods in a `gen` summary (`<method>: N tests from M traces`).
pub fn tests_and_traces(summary: &str) -> (usize, usize) {
    let (mut tests, mut traces) = (0, 0);
    for l in summary.lines() {
        if let Some((_, rest)) = l.split_once(": ")
            && let Some((n, rest)) = rest.split_once(" tests from ")
            && let Some((m, _)) = rest.split_once(" traces")
        {
            tests += n.parse::<usize>().unwrap();
            traces += m.parse::<usize>().unwrap();
        }
    }
    (tests, traces)
}

/// Fails unless `actual` equals the golden file `tests/golden/<path>` (`UPDATE_EXPECT=1` rewrites it).
pub fn assert_golden(path: &str, actual: &str) {
    expect_test::expect_file![format!("{}/tests/golden/{path}", env!("CARGO_MANIFEST_DIR"))].assert_eq(actual);
}

/// A session on the class path `cp` and the methods `specs` name in it.
pub fn session(cp: &str, specs: &[&str], config: &Config) -> (Session, Vec<MethodId>) {
    let mut s = Session::open(cp, config.clone()).unwrap();
    let specs: Vec<String> = specs.iter().map(|s| s.to_string()).collect();
    let ms = s.methods(&specs).unwrap();
    (s, ms)
}

/// Explores `m` with the session's configured strategy.
pub fn explore(s: &mut Session, m: MethodId) -> uberlazy::Result<RunResult> {
    let strategy = s.config().strategy;
    Ok(s.explore(&[m], &[strategy], &ExploreOptions::default())?.remove(0).result)
}

/// Explores the method `spec` of the class path `cp` with `config`, failing the test on an error.
pub fn run_with(cp: &str, spec: &str, config: Config) -> RunResult {
    let strategy = config.strategy;
    let (mut s, ms) = session(cp, &[spec], &config);
    explore(&mut s, ms[0]).unwrap_or_else(|e| panic!("{spec} {strategy}: {e}"))
}

/// `tools/run-junit.sh` on the JUnit `version` (5 or 4) tests under `dir` against the class
/// path `cp`, to run once its environment is set.
pub fn junit_command(dir: &Path, cp: &str, version: &str) -> Command {
    let mut c = Command::new("bash");
    c.args(["tools/run-junit.sh", dir.to_str().unwrap(), cp, version]);
    c
}

/// Compiles and runs the JUnit `version` tests under `dir` against `cp`.
pub fn run_junit(dir: &Path, cp: &str, version: &str) -> Output {
    junit_command(dir, cp, version).output().unwrap()
}

/// The number in a JUnit 5 summary line such as `[        65 tests successful      ]`.
pub fn junit_count(out: &str, what: &str) -> usize {
    out.lines()
        .find(|l| l.contains(what))
        .and_then(|l| l.trim_matches(|c: char| c == '[' || c == ']' || c.is_whitespace()).split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}
