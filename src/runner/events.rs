//! What a whole-library run tells its caller as it goes (one JSON object per line for
//! `--json-progress`), and the report a worker hands its parent on its last line of output.

use serde::{Deserialize, Serialize};

/// How one class of a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// At least one test class was written.
    Tests,
    /// The worker ran but wrote no test (why says: nothing explored, 0 tests, stopped early).
    NoTests,
    /// The worker failed: no method could be explored, it crashed, or it ran out of memory.
    Failed,
    /// The run's time or a stop request ended the worker.
    Interrupted,
    /// The run's time or a stop request ended before the worker started.
    NotStarted,
}

/// One event of a run, in the order it happened (classes finish in any order).
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Event {
    /// A worker started on `class`, the `index`-th (from 1) of `total` started.
    Started { class: String, index: usize, total: usize, time_limit_s: u64 },
    /// `class` ended: `done` of `total` classes have ended, and the run has written
    /// `tests_total` tests so far.
    Finished {
        class: String,
        status: Status,
        done: usize,
        total: usize,
        methods: usize,
        tests: usize,
        tests_total: usize,
        elapsed_ms: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        why: Option<String>,
    },
}

impl Event {
    /// The event as one line of JSON.
    pub fn json_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// What a worker (`gen` on one class) did, as its parent merges it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct WorkerReport {
    /// The class (binary name, Java form).
    pub class: String,
    /// Methods the worker targeted.
    pub methods: usize,
    /// Methods explored without error.
    pub explored: usize,
    /// `@Test` methods written.
    pub tests: usize,
    /// Test classes written.
    pub files: usize,
    /// The files the worker wrote (or found unchanged), relative to `--out`.
    #[serde(default)]
    pub written: Vec<String>,
    /// Why each method that could not be explored could not.
    pub failed: Vec<String>,
    /// Existing files that differ and were kept (no `--force`).
    pub kept: usize,
    /// JDK packages the tests need opened (`java.base/java.util`).
    pub opens: Vec<String>,
    /// Why the worker stopped before its last method, if it did.
    pub halted: Option<String>,
    /// The `--stats` record of every explored method.
    pub stats: Vec<serde_json::Value>,
}

/// The start of the line that carries a worker's report.
pub const REPORT_PREFIX: &str = "uberlazy-worker-report: ";

impl WorkerReport {
    /// The report as the last line a worker prints.
    pub fn line(&self) -> String {
        format!("{REPORT_PREFIX}{}", serde_json::to_string(self).unwrap_or_default())
    }

    /// A worker's standard output split into its summary (every other line) and its report,
    /// if it got to print one.
    pub fn split(stdout: &str) -> (String, Option<WorkerReport>) {
        let mut summary = String::new();
        let mut report = None;
        for l in stdout.lines() {
            match l.strip_prefix(REPORT_PREFIX) {
                Some(json) => report = serde_json::from_str(json).ok(),
                None => {
                    summary.push_str(l);
                    summary.push('\n');
                }
            }
        }
        (summary, report)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_report_survives_the_trip_through_a_workers_output() {
        let r = WorkerReport {
            class: "p.C".into(),
            tests: 3,
            opens: vec!["java.base/java.util".into()],
            ..Default::default()
        };
        let out = format!("p.C#m()V: 3 tests from 4 traces\n{}\n", r.line());
        let (summary, back) = WorkerReport::split(&out);
        assert_eq!(summary, "p.C#m()V: 3 tests from 4 traces\n");
        assert_eq!(back, Some(r));
        assert_eq!(WorkerReport::split("crashed\n").1, None);
    }

    #[test]
    fn events_are_one_json_object_per_line() {
        let e = Event::Started { class: "p.C".into(), index: 1, total: 2, time_limit_s: 30 };
        assert_eq!(e.json_line(), r#"{"event":"started","class":"p.C","index":1,"total":2,"time_limit_s":30}"#);
    }
}
