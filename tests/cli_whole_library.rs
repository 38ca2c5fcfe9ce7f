//! Whole-library runs of `gen` through the binary: `--package` (subpackages included, the
//! classes left out listed with why), `--shard I/N` (a partition whose outputs merge),
//! `--jobs` (the same files for any number of workers), `--json-progress`, and the usage
//! errors. The subject is `javasrc/whole/`, explored to a small depth so each run takes a second.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use common::{Ran, files_below, jar, tempdir, uberlazy_checked};

/// The classes of `javasrc/whole/` that get a worker under `--package whole`.
const TARGETS: [&str; 7] = [
    "whole.Counter",
    "whole.Grid",
    "whole.Outer",
    "whole.Outer$Inner",
    "whole.sub.Pair",
    "whole.sub.deeper.Flag",
    "whole.subtle.Near",
];

/// `gen --cp whole.jar` with a small depth bound, the `extra` flags and `--out out`.
fn whole_gen(extra: &[&str], out: &Path) -> Ran {
    let cp = jar("whole");
    let mut args = vec!["gen", "--cp", &cp, "--max-depth", "6", "--time-limit", "120"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--out", out.to_str().unwrap()]);
    uberlazy_checked(&args)
}

/// The classes a run's plain progress lines (`[i/N] class: K tests (...)`) say ended.
fn classes_run(stderr: &str) -> BTreeSet<String> {
    stderr
        .lines()
        .filter_map(|l| l.strip_prefix('[')?.split_once("] ")?.1.split_once(": ").map(|(c, _)| c.to_string()))
        .collect()
}

/// Every file below `dir` by its path relative to `dir`, with its contents, but the manifests
/// of reruns (one per shard).
fn tree(dir: &Path) -> BTreeMap<String, String> {
    files_below(dir)
        .into_iter()
        .filter(|f| Path::new(f).is_file() && !f.contains("uberlazy-manifest"))
        .map(|f| {
            let rel = Path::new(&f).strip_prefix(dir).unwrap().display().to_string();
            (rel, std::fs::read_to_string(&f).unwrap())
        })
        .collect()
}

/// `--package whole` runs a worker for each public concrete class of the package and its
/// subpackages (nested public classes too), lists every other class with why, and leaves out
/// anonymous classes unlisted; `--package whole.sub` takes `whole.sub.deeper` but not
/// `whole.subtle`, whose name only starts the same.
#[test]
fn a_package_selects_its_classes_and_subpackages_and_lists_the_others() {
    let dir = tempdir();
    let r = whole_gen(&["--package", "whole", "--jobs", "2"], &dir.path().join("all"));
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let run: Vec<String> = classes_run(&r.stderr).into_iter().collect();
    assert_eq!(run, TARGETS, "{}", r.stderr);
    for (class, why) in [
        ("whole.Shape", "abstract"),
        ("whole.Named", "interface"),
        ("whole.Hidden", "not public"),
        ("whole.Outer$Secret", "not public"),
        ("whole.Constants", "no method with code"),
        (
            "whole.Grid",
            "explore failed: whole.Grid#square(I)[[I line 6 (offset 2): unsupported instruction multianewarray",
        ),
    ] {
        let line = format!("  {class}: {why}");
        assert!(r.stdout.lines().any(|l| l.starts_with(&line)), "no `{line}` in:\n{}", r.stdout);
    }
    assert!(!r.stdout.contains("Outer$1"), "an anonymous class is listed:\n{}", r.stdout);
    assert!(r.stdout.contains("12 classes: 6 with tests"), "{}", r.stdout);
    let r = whole_gen(&["--package", "whole.sub"], &dir.path().join("sub"));
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let run: Vec<String> = classes_run(&r.stderr).into_iter().collect();
    assert_eq!(run, ["whole.sub.Pair", "whole.sub.deeper.Flag"], "{}", r.stderr);
}

/// `--jobs 2` writes the same files and prints the same summary as `--jobs 1` (the summary
/// sorted by class, not by which worker finished first), and each test class's file is the
/// one a run on that class alone writes.
#[test]
fn two_jobs_write_what_one_job_writes() {
    let dir = tempdir();
    let (one, two, alone) = (dir.path().join("one"), dir.path().join("two"), dir.path().join("alone"));
    let r1 = whole_gen(&["--package", "whole", "--jobs", "1"], &one);
    let r2 = whole_gen(&["--package", "whole", "--jobs", "2"], &two);
    assert_eq!((r1.code, r2.code), (0, 0), "{}{}", r1.stderr, r2.stderr);
    let (t1, t2) = (tree(&one), tree(&two));
    assert_eq!(t1.len(), 13, "6 test classes, their 6 sidecars and the runtime helper: {:?}", t1.keys());
    assert_eq!(t1, t2);
    let summary = |r: &Ran, out: &Path| r.stdout.replace(out.to_str().unwrap(), "OUT");
    assert_eq!(summary(&r1, &one), summary(&r2, &two));
    let r = whole_gen(&["whole.sub.Pair"], &alone);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let file = "whole/sub/Pair_linkedTest.java";
    assert_eq!(tree(&alone)[file], t1[file]);
}

/// Shards 1/2 and 2/2 run disjoint sets of classes whose union is the whole selection, each
/// says how many it has, and both written into one tree give exactly the unsharded run's files.
#[test]
fn shards_partition_the_classes_and_their_outputs_merge() {
    let dir = tempdir();
    let (merged, whole) = (dir.path().join("merged"), dir.path().join("whole"));
    let mut seen: Vec<BTreeSet<String>> = Vec::new();
    for i in 1..=2 {
        let shard = format!("{i}/2");
        let r = whole_gen(&["--package", "whole", "--shard", &shard], &merged);
        assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
        let run = classes_run(&r.stderr);
        assert!(r.stdout.contains(&format!("shard {shard}: {} of 7 classes", run.len())), "{}", r.stdout);
        seen.push(run);
    }
    assert!(seen[0].is_disjoint(&seen[1]), "{seen:?}");
    assert!(!seen[0].is_empty() && !seen[1].is_empty(), "{seen:?}");
    let union: Vec<String> = seen[0].union(&seen[1]).cloned().collect();
    assert_eq!(union, TARGETS);
    let r = whole_gen(&["--package", "whole"], &whole);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(tree(&merged), tree(&whole));
}

/// A rerun skips the classes whose class file and options are those of the manifest's run and
/// whose files exist, writing nothing; a deleted test file, other options or `--force` run a
/// class again.
#[test]
fn a_rerun_skips_unchanged_classes() {
    let dir = tempdir();
    let out = dir.path().join("o");
    let r = whole_gen(&["--package", "whole.sub"], &out);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(out.join("uberlazy-manifest.json").is_file());
    let before: Vec<_> = files_below(&out).iter().map(|f| std::fs::metadata(f).unwrap().modified().unwrap()).collect();
    let r = whole_gen(&["--package", "whole.sub"], &out);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for c in ["whole.sub.Pair", "whole.sub.deeper.Flag"] {
        assert!(r.stdout.contains(&format!("{c}: unchanged, skipped")), "{}", r.stdout);
    }
    assert!(r.stdout.contains("2 classes unchanged, skipped: nothing written"), "{}", r.stdout);
    assert!(classes_run(&r.stderr).is_empty(), "{}", r.stderr);
    let after: Vec<_> = files_below(&out).iter().map(|f| std::fs::metadata(f).unwrap().modified().unwrap()).collect();
    assert_eq!(before, after);
    std::fs::remove_file(out.join("whole/sub/Pair_linkedTest.java")).unwrap();
    let r = whole_gen(&["--package", "whole.sub"], &out);
    assert_eq!(classes_run(&r.stderr).into_iter().collect::<Vec<_>>(), ["whole.sub.Pair"], "{}", r.stderr);
    assert!(out.join("whole/sub/Pair_linkedTest.java").is_file());
    let r = whole_gen(&["--package", "whole.sub", "--tests", "per-trace"], &out);
    assert_eq!(classes_run(&r.stderr).len(), 2, "other options: {}", r.stderr);
    let r = whole_gen(&["--package", "whole.sub", "--force"], &out);
    assert_eq!(classes_run(&r.stderr).len(), 2, "{}", r.stderr);
}

/// `--json-progress` writes one JSON object per line on stdout: a start and an end for each
/// class, the ends counting up to the total; the summary goes to stderr.
#[test]
fn json_progress_is_one_event_per_line() {
    let dir = tempdir();
    let r = whole_gen(&["--package", "whole", "--json-progress"], dir.path());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let events: Vec<serde_json::Value> = r.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let of = |kind: &str| events.iter().filter(|e| e["event"] == kind).collect::<Vec<_>>();
    assert_eq!((of("started").len(), of("finished").len()), (7, 7), "{}", r.stdout);
    let done: Vec<u64> = of("finished").iter().map(|e| e["done"].as_u64().unwrap()).collect();
    assert_eq!(done, (1..=7).collect::<Vec<u64>>());
    let grid = of("finished").into_iter().find(|e| e["class"] == "whole.Grid").unwrap();
    assert_eq!(grid["status"], "failed", "{grid}");
    assert!(r.stderr.contains("12 classes: 6 with tests"), "{}", r.stderr);
}

/// Specs of two classes, with or without `--package`, make a run of one worker per class.
#[test]
fn named_classes_combine_with_a_package() {
    let dir = tempdir();
    let r = whole_gen(&["whole.Counter", "whole.subtle.Near#max", "--package", "whole.sub"], dir.path());
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let run: Vec<String> = classes_run(&r.stderr).into_iter().collect();
    assert_eq!(run, ["whole.Counter", "whole.sub.Pair", "whole.sub.deeper.Flag", "whole.subtle.Near"]);
}

/// A package with no class on the class path (or a name that only starts a package's name)
/// is a usage error naming it, and nothing is written; so is a bad `--shard`.
#[test]
fn an_empty_selection_is_a_usage_error() {
    let dir = tempdir();
    let out = dir.path().join("out");
    for (flags, names) in [
        (vec!["--package", "whole.nope"], "whole.nope"),
        (vec!["--package", "who"], "--package who"),
        (vec!["--package", "whole", "--shard", "3/2"], "3/2"),
        (vec!["--package", "whole", "--shard", "0/2"], "0/2"),
    ] {
        let r = whole_gen(&flags, &out);
        assert_eq!(r.code, 2, "{flags:?}: {}{}", r.stdout, r.stderr);
        assert!(r.stderr.contains(names), "{flags:?}: {}", r.stderr);
        assert!(!out.exists(), "{flags:?} wrote {:?}", files_below(&out));
    }
}
