//! The summary of a whole-library run: every class's lines in class-name order (never in the
//! order workers finished), the classes without a test with why, and the totals.

use std::collections::BTreeSet;

use super::events::Status;
use super::select::LeftOut;
use super::workers::ClassResult;

/// What a run did, merged over its classes.
#[derive(Debug, Clone, Default)]
pub struct Merged {
    /// The summary, class by class, then the totals.
    pub lines: Vec<String>,
    /// Classes with at least one test.
    pub with_tests: usize,
    pub tests: usize,
    /// Test classes written.
    pub files: usize,
    /// Classes whose worker failed.
    pub failed: usize,
    /// Classes a stop or the time limit ended or left unstarted.
    pub interrupted: usize,
    /// Existing files that differ and were kept.
    pub kept: usize,
    /// Whether any method was explored (so the tests' runtime helper is needed).
    pub explored: bool,
    /// JDK packages some test needs opened.
    pub opens: BTreeSet<String>,
    /// The `--stats` records of every class, in class order.
    pub stats: Vec<serde_json::Value>,
}

/// Merges the results (sorted by class) and the classes left out before any worker ran.
pub fn merge(results: &[ClassResult], left_out: &[LeftOut]) -> Merged {
    let mut m = Merged::default();
    let mut without: Vec<LeftOut> = left_out.to_vec();
    for r in results {
        m.lines.extend(r.summary.lines().map(str::to_string));
        if let Some(p) = &r.report {
            m.tests += p.tests;
            m.files += p.files;
            m.kept += p.kept;
            m.explored |= p.explored > 0;
            m.opens.extend(p.opens.iter().cloned());
            m.stats.extend(p.stats.iter().cloned());
        }
        match r.status {
            Status::Tests => m.with_tests += 1,
            Status::Failed => m.failed += 1,
            Status::Interrupted | Status::NotStarted => m.interrupted += 1,
            Status::NoTests => {}
        }
        if r.status != Status::Tests {
            let why = r.why.clone().unwrap_or_else(|| "no test".into());
            without.push(LeftOut { class: r.class.clone(), why });
        }
    }
    without.sort_by(|a, b| a.class.cmp(&b.class));
    if !without.is_empty() {
        m.lines.push("classes without tests:".into());
        m.lines.extend(without.iter().map(|l| format!("  {}: {}", l.class, l.why)));
    }
    m.lines.push(format!(
        "{} classes: {} with tests ({} tests in {} test classes), {} without",
        results.len() + left_out.len(),
        m.with_tests,
        m.tests,
        m.files,
        without.len()
    ));
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::WorkerReport;

    fn result(class: &str, status: Status, tests: usize) -> ClassResult {
        let report = WorkerReport { class: class.into(), tests, files: usize::from(tests > 0), ..Default::default() };
        ClassResult {
            class: class.into(),
            status,
            why: (tests == 0).then(|| "explore failed: x".into()),
            report: Some(report),
            summary: format!("{class}#m()V: {tests} tests\n"),
            elapsed: std::time::Duration::ZERO,
        }
    }

    #[test]
    fn the_summary_lists_classes_by_name_with_the_left_out_ones() {
        let results = [result("a.A", Status::Tests, 2), result("a.B", Status::Failed, 0)];
        let left = [LeftOut { class: "a.C".into(), why: "abstract".into() }];
        let m = merge(&results, &left);
        assert_eq!(
            m.lines,
            [
                "a.A#m()V: 2 tests",
                "a.B#m()V: 0 tests",
                "classes without tests:",
                "  a.B: explore failed: x",
                "  a.C: abstract",
                "3 classes: 1 with tests (2 tests in 1 test classes), 2 without",
            ]
        );
        assert_eq!((m.tests, m.failed), (2, 1));
    }
}
