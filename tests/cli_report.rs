//! `uberlazy report`: the per-class Markdown and JSON of a small generated tree (methods,
//! tests, test classes from the sidecars), passed and failed tests from JUnit's XML report
//! (a test made to fail counts as failed), branch and line coverage from a JaCoCo exec file,
//! the HTML page, and the usage errors.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::Path;
use std::process::Command;

use common::{jar, junit_command, tempdir, text, uberlazy_checked};

/// `gen --package whole.sub` into `out`: two classes, one test class each.
fn gen_sub(out: &Path, layout: &str) {
    let cp = jar("whole");
    let r = uberlazy_checked(&[
        "gen",
        "--cp",
        &cp,
        "--package",
        "whole.sub",
        "--max-depth",
        "6",
        "--time-limit",
        "120",
        "--layout",
        layout,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
}

fn report(args: &[&str]) -> String {
    let r = uberlazy_checked(&[&["report"], args].concat());
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    r.stdout
}

#[test]
fn markdown_and_json_count_the_sidecars_of_either_layout() {
    let dir = tempdir();
    for layout in ["flat", "maven"] {
        let out = dir.path().join(layout);
        gen_sub(&out, layout);
        let md = report(&[out.to_str().unwrap()]);
        assert_eq!(
            md,
            "| class | methods | tests | test classes |\n|---|---:|---:|---:|\n\
             | whole.sub.Pair | 1 | 3 | 1 |\n| whole.sub.deeper.Flag | 1 | 2 | 1 |\n| total (2 classes) | 2 | 5 | 2 |\n"
        );
        let json: serde_json::Value = serde_json::from_str(&report(&[out.to_str().unwrap(), "--json"])).unwrap();
        assert_eq!(json["total"]["tests"], 5, "{json}");
        assert_eq!(json["classes"][0]["class"], "whole.sub.Pair", "{json}");
        assert!(json["total"].get("passed").is_none(), "{json}");
    }
}

#[test]
fn junit_results_and_coverage_per_class() {
    let dir = tempdir();
    let out = dir.path().join("t");
    gen_sub(&out, "flat");
    // One more test in Pair's test class, made to fail.
    let src = out.join("whole/sub/Pair_linkedTest.java");
    let java = std::fs::read_to_string(&src).unwrap();
    let broken = java.replacen("    @Test", "    @Test\n    void broken() { fail(); }\n\n    @Test", 1);
    assert_ne!(java, broken);
    std::fs::write(&src, broken).unwrap();
    let agent = Command::new("bash").args(["tools/jacoco-agent.sh", "target/tools/jacocoagent.jar"]).status().unwrap();
    assert!(agent.success());
    let (xml, exec) = (dir.path().join("xml"), dir.path().join("t.exec"));
    let o = junit_command(&out, &jar("whole"), "5")
        .env("REPORTS_DIR", &xml)
        .env("JACOCO_EXEC", &exec)
        .env("JACOCO_INCLUDES", "whole.*")
        .output()
        .unwrap();
    assert!(!o.status.success(), "the broken test passed: {}", text(&o));
    let html = dir.path().join("r.html");
    let args = [
        out.to_str().unwrap(),
        "--junit-xml",
        xml.to_str().unwrap(),
        "--jacoco-exec",
        exec.to_str().unwrap(),
        "--cp",
        "testdata/whole.jar",
        "--html",
        html.to_str().unwrap(),
    ];
    let md = report(&args);
    let rows: Vec<&str> = md.lines().skip(2).collect();
    assert_eq!(
        rows,
        [
            "| whole.sub.Pair | 1 | 3 | 1 | 3 | 1 | 4/4 | 100.0 | 2/2 | 100.0 |",
            "| whole.sub.deeper.Flag | 1 | 2 | 1 | 2 | 0 | 2/2 | 100.0 | 2/2 | 100.0 |",
            "| total (2 classes) | 2 | 5 | 2 | 5 | 1 | 6/6 | 100.0 | 4/4 | 100.0 |",
        ],
        "{md}"
    );
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<td>whole.sub.Pair</td>") && page.contains("</html>"), "{page}");
}

#[test]
fn a_missing_directory_or_an_empty_one_exits_2_with_one_line() {
    let dir = tempdir();
    for (path, why) in [(dir.path().join("none"), "is not a directory"), (dir.path().to_path_buf(), "no test sidecars")]
    {
        let r = uberlazy_checked(&["report", path.to_str().unwrap()]);
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
        assert!(r.stderr.contains(why), "{}", r.stderr);
    }
    let r = uberlazy_checked(&["report", dir.path().to_str().unwrap(), "--jacoco-exec", "x.exec"]);
    assert_eq!(r.code, 2, "--jacoco-exec without --cp: {}", r.stderr);
}
