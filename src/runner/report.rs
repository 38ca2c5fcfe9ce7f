//! `uberlazy report`: per class under test, the methods, tests and test classes a `gen` tree
//! holds (read from the JSON sidecars), JUnit results and JaCoCo coverage when given, as
//! Markdown, JSON or one HTML page.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Serialize;

use crate::{Error, Result};

/// The JaCoCo and ASM jars `CoverageReport` runs with (Debian's `libjacoco-java` paths).
const JACOCO_CP: &str = "/usr/share/java/org.jacoco.core.jar:/usr/share/java/asm.jar:\
                         /usr/share/java/asm-commons.jar:/usr/share/java/asm-tree.jar";
/// The program that prints JaCoCo's coverage per class as a Markdown table.
const COVERAGE_REPORT: &str = include_str!("../../tools/java/CoverageReport.java");

/// What to report on.
#[derive(Debug, Clone, Default)]
pub struct ReportInput {
    /// The `--out` of `gen` (either layout).
    pub dir: PathBuf,
    /// A directory of JUnit XML reports (`REPORTS_DIR` of `tools/run-junit.sh`).
    pub junit_xml: Option<PathBuf>,
    /// A JaCoCo exec file of a run of the tests, with the class path of the classes under test.
    pub jacoco: Option<(PathBuf, String)>,
}

/// One class under test (or the total).
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct Row {
    pub class: String,
    /// Methods with a test class.
    pub methods: usize,
    pub tests: usize,
    pub test_classes: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub passed: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed: Option<usize>,
    /// Covered and total branches.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branches: Option<(u64, u64)>,
    /// Covered and total lines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<(u64, u64)>,
}

/// The report: a row per class under test, sorted by name, and the whole library's total.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub classes: Vec<Row>,
    pub total: Row,
}

/// Reads the tree, then the JUnit reports and the coverage when given.
pub fn build(input: &ReportInput) -> Result<Report> {
    if !input.dir.is_dir() {
        return Err(Error::Usage(format!("report: {} is not a directory", input.dir.display())));
    }
    let (mut rows, test_of) = scan(&input.dir)?;
    if rows.is_empty() {
        return Err(Error::Usage(format!("report: no test sidecars (*Test.json) under {}", input.dir.display())));
    }
    if let Some(xml) = &input.junit_xml {
        junit_results(&mut rows, &test_of, xml)?;
    }
    if let Some((exec, cp)) = &input.jacoco {
        coverage(&mut rows, exec, cp)?;
    }
    let classes: Vec<Row> = rows.into_values().collect();
    let mut total = Row { class: format!("total ({} classes)", classes.len()), ..Row::default() };
    for r in &classes {
        total.methods += r.methods;
        total.tests += r.tests;
        total.test_classes += r.test_classes;
        total.passed = sum(total.passed, r.passed);
        total.failed = sum(total.failed, r.failed);
        total.branches = sum2(total.branches, r.branches);
        total.lines = sum2(total.lines, r.lines);
    }
    Ok(Report { classes, total })
}

fn sum(a: Option<usize>, b: Option<usize>) -> Option<usize> {
    if a.is_none() && b.is_none() { None } else { Some(a.unwrap_or(0) + b.unwrap_or(0)) }
}

fn sum2(a: Option<(u64, u64)>, b: Option<(u64, u64)>) -> Option<(u64, u64)> {
    match (a, b) {
        (None, None) => None,
        (a, b) => {
            let (x, y) = (a.unwrap_or((0, 0)), b.unwrap_or((0, 0)));
            Some((x.0 + y.0, x.1 + y.1))
        }
    }
}

fn io(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::Io { path: path.to_path_buf(), msg: e.to_string() }
}

/// Every file below `dir` whose name ends with `suffix`, sorted.
fn files(dir: &Path, suffix: &str) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).map_err(|e| io(&d, e))? {
            let p = e.map_err(|e| io(&d, e))?.path();
            if p.is_dir() {
                todo.push(p);
            } else if p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(suffix)) {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The rows from the sidecars below `dir`, and each test class's class under test.
fn scan(dir: &Path) -> Result<(BTreeMap<String, Row>, BTreeMap<String, String>)> {
    let mut rows: BTreeMap<String, Row> = BTreeMap::new();
    let mut methods: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut test_of = BTreeMap::new();
    for f in files(dir, "Test.json")? {
        let text = std::fs::read_to_string(&f).map_err(|e| io(&f, e))?;
        // A JSON file that is not a sidecar of gen is not counted.
        let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) else { continue };
        let (Some(method), Some(test_class)) = (v["method"].as_str(), v["test_class"].as_str()) else { continue };
        let class = method.split_once('#').map_or(method, |(c, _)| c).to_string();
        let package = class.rsplit_once('.').map(|(p, _)| p);
        let fqn = package.map_or(test_class.to_string(), |p| format!("{p}.{test_class}"));
        let tests = v["traces"].as_array().map_or(0, |ts| ts.iter().filter(|t| t.get("test").is_some()).count());
        let row = rows.entry(class.clone()).or_insert_with(|| Row { class: class.clone(), ..Row::default() });
        row.tests += tests;
        row.test_classes += 1;
        let ms = methods.entry(class.clone()).or_default();
        if !ms.iter().any(|m| m == method) {
            ms.push(method.to_string());
            row.methods += 1;
        }
        test_of.insert(fqn, class);
    }
    Ok((rows, test_of))
}

/// Adds the passed and failed tests per class under test from the JUnit XML reports in `xml`.
fn junit_results(rows: &mut BTreeMap<String, Row>, test_of: &BTreeMap<String, String>, xml: &Path) -> Result<()> {
    if !xml.is_dir() {
        return Err(Error::Usage(format!("report: --junit-xml {} is not a directory", xml.display())));
    }
    for r in rows.values_mut() {
        (r.passed, r.failed) = (Some(0), Some(0));
    }
    for f in files(xml, ".xml")? {
        let text = std::fs::read_to_string(&f).map_err(|e| io(&f, e))?;
        for case in text.split("<testcase").skip(1) {
            let end = case.find("</testcase>").unwrap_or(case.len());
            let body = &case[..end];
            let Some(name) = attribute(body, "classname") else { continue };
            let Some(row) = test_of.get(name).and_then(|c| rows.get_mut(c)) else { continue };
            if body.contains("<failure") || body.contains("<error") {
                row.failed = Some(row.failed.unwrap_or(0) + 1);
            } else if !body.contains("<skipped") {
                row.passed = Some(row.passed.unwrap_or(0) + 1);
            }
        }
    }
    Ok(())
}

/// The value of attribute `name` in the start of an XML element.
fn attribute<'a>(element: &'a str, name: &str) -> Option<&'a str> {
    let head = &element[..element.find('>').unwrap_or(element.len())];
    let key = format!(" {name}=\"");
    let start = head.find(&key)? + key.len();
    let len = head[start..].find('"')?;
    Some(&head[start..start + len])
}

/// Adds JaCoCo's branch and line coverage per class under test, by compiling and running
/// `CoverageReport` on `exec` and the class path `cp`.
fn coverage(rows: &mut BTreeMap<String, Row>, exec: &Path, cp: &str) -> Result<()> {
    if !exec.is_file() {
        return Err(Error::Usage(format!("report: --jacoco-exec {} is not a file", exec.display())));
    }
    let tmp = tempfile::tempdir().map_err(|e| io(&std::env::temp_dir(), e))?;
    let src = tmp.path().join("CoverageReport.java");
    std::fs::write(&src, COVERAGE_REPORT).map_err(|e| io(&src, e))?;
    let classes = tmp.path().join("classes");
    let javac = Command::new("javac")
        .arg("-nowarn")
        .arg("-d")
        .arg(&classes)
        .args(["-cp", JACOCO_CP])
        .arg(&src)
        .output()
        .map_err(|e| Error::Usage(format!("report: cannot run javac: {e}")))?;
    if !javac.status.success() {
        let why = String::from_utf8_lossy(&javac.stderr);
        return Err(Error::Usage(format!("report: cannot compile CoverageReport ({JACOCO_CP}): {}", why.trim())));
    }
    let mut run = Command::new("java");
    run.arg("-cp").arg(format!("{}:{JACOCO_CP}", classes.display())).arg("CoverageReport").arg(exec);
    run.args(cp.split(':').filter(|e| !e.is_empty()));
    let out = run.output().map_err(|e| Error::Usage(format!("report: cannot run java: {e}")))?;
    if !out.status.success() {
        let why = String::from_utf8_lossy(&out.stderr);
        return Err(Error::Usage(format!("report: JaCoCo failed on {}: {}", exec.display(), why.trim())));
    }
    for r in rows.values_mut() {
        (r.branches, r.lines) = (Some((0, 0)), Some((0, 0)));
    }
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let cells: Vec<&str> = line.trim().trim_matches('|').split('|').map(str::trim).collect();
        if let [class, branches, _, lines, ..] = cells.as_slice()
            && let Some(row) = rows.get_mut(*class)
        {
            row.branches = fraction(branches);
            row.lines = fraction(lines);
        }
    }
    Ok(())
}

/// `covered/total`.
fn fraction(s: &str) -> Option<(u64, u64)> {
    let (a, b) = s.split_once('/')?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

/// `covered/total` and its percentage, or `-` for nothing to cover.
fn ratio(v: (u64, u64)) -> (String, String) {
    let pct = if v.1 == 0 { "-".to_string() } else { format!("{:.1}", 100.0 * v.0 as f64 / v.1 as f64) };
    (format!("{}/{}", v.0, v.1), pct)
}

impl Report {
    /// The column heads, and the cells of `r`, with the JUnit and coverage columns only when given.
    fn table(&self) -> (Vec<&'static str>, Vec<Vec<String>>) {
        let junit = self.total.passed.is_some();
        let cov = self.total.branches.is_some();
        let mut head = vec!["class", "methods", "tests", "test classes"];
        if junit {
            head.extend(["passed", "failed"]);
        }
        if cov {
            head.extend(["branches", "branch %", "lines", "line %"]);
        }
        let cells = |r: &Row| {
            let mut c = vec![r.class.clone(), r.methods.to_string(), r.tests.to_string(), r.test_classes.to_string()];
            if junit {
                c.extend([r.passed.unwrap_or(0).to_string(), r.failed.unwrap_or(0).to_string()]);
            }
            if cov {
                let (b, bp) = ratio(r.branches.unwrap_or((0, 0)));
                let (l, lp) = ratio(r.lines.unwrap_or((0, 0)));
                c.extend([b, bp, l, lp]);
            }
            c
        };
        let mut rows: Vec<Vec<String>> = self.classes.iter().map(cells).collect();
        rows.push(cells(&self.total));
        (head, rows)
    }

    /// A Markdown table, the total as its last row.
    pub fn markdown(&self) -> String {
        let (head, rows) = self.table();
        let mut s = format!("| {} |\n|---|{}\n", head.join(" | "), "---:|".repeat(head.len() - 1));
        for r in rows {
            s.push_str(&format!("| {} |\n", r.join(" | ")));
        }
        s
    }

    /// The report as pretty JSON.
    pub fn json(&self) -> Result<String> {
        serde_json::to_string_pretty(self).map(|s| s + "\n").map_err(|e| Error::Usage(e.to_string()))
    }

    /// One self-contained HTML page with the table.
    pub fn html(&self) -> String {
        let (head, rows) = self.table();
        let mut s = String::from(
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>uberlazy report</title>\n<style>\
             body{font-family:sans-serif}table{border-collapse:collapse}td,th{border:1px solid #ccc;\
             padding:2px 8px}td:not(:first-child){text-align:right}tr:last-child{font-weight:bold}</style>\n\
             </head><body>\n<h1>uberlazy report</h1>\n<table>\n<tr>",
        );
        for h in head {
            s.push_str(&format!("<th>{}</th>", escape(h)));
        }
        s.push_str("</tr>\n");
        for r in rows {
            s.push_str("<tr>");
            for c in r {
                s.push_str(&format!("<td>{}</td>", escape(&c)));
            }
            s.push_str("</tr>\n");
        }
        s.push_str("</table>\n</body></html>\n");
        s
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn attributes_and_fractions_parse() {
        assert_eq!(attribute(" name=\"t()\" classname=\"a.B_fTest\" time=\"0\">", "classname"), Some("a.B_fTest"));
        assert_eq!(attribute(" name=\"x\">", "classname"), None);
        assert_eq!(fraction("3/4"), Some((3, 4)));
        assert_eq!(ratio((1, 3)).1, "33.3");
        assert_eq!(ratio((0, 0)).1, "-");
    }
}
