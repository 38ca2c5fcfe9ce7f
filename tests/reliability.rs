//! Runs a user can trust, through the built binary: the time limit bounds the wall clock in
//! every phase, the memory limit halts a run with its summary, `peak_mb` is the real peak,
//! Ctrl-C and SIGTERM stop cleanly with usable output, every bad flag and output is refused
//! before any work (exit 2, a message naming the flag, nothing left behind), bad class paths
//! are clear errors, kept files show in the exit status, and emitted files get the usual mode.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{BIN, files_below, run_json, run_junit, tempdir, text, uberlazy};

/// One case of a bad command line: the arguments, and what the message must name.
struct Bad {
    args: &'static [&'static str],
    names: &'static [&'static str],
}

/// Flags accepted before and then broken output: now each exits 2 with a message naming the
/// flag (or the method), before any work, and writes nothing.
const BAD_FLAGS: &[Bad] = &[
    Bad {
        args: &["gen", "--cp", "testdata/sir.jar", "sir.Stack", "--validity", "nope"],
        names: &["--validity", "nope"],
    },
    // Not boolean, and takes an argument.
    Bad { args: &["gen", "--cp", "testdata/sir.jar", "sir.Stack", "--validity", "pop"], names: &["--validity", "pop"] },
    Bad {
        args: &["gen", "--cp", "testdata/sir.jar", "sir.Stack", "--validity", "push"],
        names: &["--validity", "push"],
    },
    Bad {
        args: &["gen", "--cp", "testdata/sir.jar", "sir.Stack", "--precondition", "push"],
        names: &["--precondition", "push"],
    },
    Bad {
        args: &["run", "--cp", "testdata/sir.jar", "sir.Stack#pop", "--precondition", "nope"],
        names: &["--precondition", "nope"],
    },
    // A static target that takes no object has no input heap for a precondition to constrain.
    Bad {
        args: &["gen", "--cp", "testdata/subjects.jar", "subjects.Arith#div", "--precondition", "repOK"],
        names: &["--precondition", "subjects.Arith#div", "static"],
    },
    Bad {
        args: &["run", "--cp", "testdata/subjects.jar", "subjects.Arith#div", "--precondition", "repOK"],
        names: &["--precondition", "static"],
    },
    // A method without code, as `run` reports it.
    Bad {
        args: &["gen", "--cp", "testdata/frontend.jar", "frontend.Overloads#nat"],
        names: &["frontend.Overloads", "nat", "no code"],
    },
    Bad {
        args: &["gen", "--cp", "testdata/frontend.jar", "frontend.Shape#area"],
        names: &["frontend.Shape", "area", "abstract"],
    },
    Bad {
        args: &["compare", "--cp", "testdata/sir.jar", "sir.Stack#pop", "--strategies", "uber,uber"],
        names: &["uber", "twice"],
    },
    Bad {
        args: &["run", "--cp", "testdata/sir.jar", "sir.Stack#pop", "--solver-timeout", "0"],
        names: &["--solver-timeout"],
    },
    Bad { args: &["gen", "--cp", "testdata/sir.jar", "sir.Nope"], names: &["sir.Nope", "not found"] },
    Bad { args: &["gen", "--cp", "testdata/sir.jar", "sir.Stack#nope"], names: &["sir.Stack#nope", "unknown method"] },
    Bad { args: &["gen", "--cp", "testdata/sir.jar", "sir.Stack", "--strategy", "fast"], names: &["fast", "strategy"] },
    Bad { args: &["gen", "--cp", "does/not/exist.jar", "sir.Stack"], names: &["does/not/exist.jar"] },
];

#[test]
fn bad_flags_exit_2_naming_the_flag_and_leave_nothing_behind() {
    for case in BAD_FLAGS {
        let dir = tempdir();
        let out = dir.path().join("out");
        let stats = dir.path().join("stats.json");
        let mut args: Vec<&str> = case.args.to_vec();
        if args[0] == "gen" {
            args.extend(["--out", out.to_str().unwrap(), "--stats", stats.to_str().unwrap()]);
        }
        let o = uberlazy(&args);
        let t = text(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}:\n{t}");
        assert!(!t.contains("panicked"), "{args:?}:\n{t}");
        for n in case.names {
            assert!(t.contains(n), "{args:?}: the message does not name {n}:\n{t}");
        }
        assert_eq!(files_below(dir.path()), Vec::<String>::new(), "{args:?} left files behind");
    }
}

/// Truncated, corrupt and missing inputs are clear errors (exit 2, the file named), never a
/// panic, with every command.
#[test]
fn bad_class_paths_are_clear_errors() {
    let dir = tempdir();
    let good = std::fs::read("testdata/samples.jar").unwrap();
    let truncated = dir.path().join("truncated.jar");
    std::fs::write(&truncated, &good[..good.len() / 2]).unwrap();
    let not_zip = dir.path().join("notzip.jar");
    std::fs::write(&not_zip, b"this is not a jar").unwrap();
    let bad_class = dir.path().join("Bad.class");
    std::fs::write(&bad_class, [0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52, 0xff]).unwrap();
    for cp in [&truncated, &not_zip, &bad_class] {
        let cp = cp.to_str().unwrap();
        for cmd in [
            vec!["classes", "--cp", cp],
            vec!["run", "--cp", cp, "samples.Container#swap"],
            vec!["gen", "--cp", cp, "samples.Container", "--out", dir.path().join("o").to_str().unwrap()],
        ] {
            let o = uberlazy(&cmd);
            let t = text(&o);
            assert_eq!(o.status.code(), Some(2), "{cmd:?}:\n{t}");
            assert!(t.contains(cp) && !t.contains("panicked"), "{cmd:?}:\n{t}");
        }
    }
    assert!(!dir.path().join("o").exists());
}

#[test]
fn an_unwritable_output_is_refused_before_any_work() {
    let dir = tempdir();
    let file = dir.path().join("file");
    std::fs::write(&file, "x").unwrap();
    let o = uberlazy(&[
        "gen",
        "--cp",
        "testdata/samples.jar",
        "samples.Chain",
        "--out",
        file.join("sub").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("not a directory"), "{}", text(&o));
}

/// `--time-limit` bounds the whole run's wall clock (solving included): the run ends within
/// two seconds of the limit, reports the states it left as cut by `time-limit`, and its
/// memory stays small because traces are streamed, not held. `peak_mb` is the real peak:
/// within 20% of what `/usr/bin/time` measures (plus a few MiB of rounding).
#[test]
fn the_time_limit_bounds_the_wall_clock_and_memory_stays_small() {
    for (strategy, limit) in [("lazy", 3u64), ("uber", 3)] {
        let start = Instant::now();
        let o = Command::new("/usr/bin/time")
            .args(["-f", "maxrss_kb=%M", BIN, "run", "--cp", "testdata/sir.jar", "sir.BinarySearchTree#remove"])
            .args(["--strategy", strategy, "--time-limit", &limit.to_string(), "--json"])
            .output()
            .unwrap();
        let wall = start.elapsed();
        assert!(o.status.success(), "{}", text(&o));
        assert!(wall < Duration::from_secs(limit + 2), "{strategy}: {wall:?} for --time-limit {limit}");
        let v = run_json(&o);
        assert_eq!(v["halted"], format!("time-limit ({limit}s)"), "{strategy}: the run did not stop on its limit");
        let cut = v["trace_list"].as_array().unwrap().iter().filter(|t| t["cut"] == format!("time-limit ({limit}s)"));
        assert!(cut.count() > 0, "{strategy}: no trace reports the time cut");
        let peak = v["peak_mb"].as_f64().unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        let rss_kb: f64 =
            stderr.lines().find_map(|l| l.strip_prefix("maxrss_kb=")).and_then(|n| n.trim().parse().ok()).unwrap();
        let rss = rss_kb / 1024.0;
        assert!(rss < 1024.0, "{strategy}: {rss} MiB resident");
        assert!((peak - rss).abs() <= rss * 0.2 + 4.0, "{strategy}: peak_mb {peak} but /usr/bin/time says {rss}");
    }
}

/// Sends `signal` to a running `gen` after `after`, and returns its exit status and the time
/// it took to end after the signal.
fn signal_gen(signal: &str, after: Duration, out: &Path) -> (Option<i32>, Duration, String) {
    let mut child: Child = Command::new(BIN)
        .args(["gen", "--cp", "testdata/sir.jar", "sir.AvlTree", "--precondition", "repOK", "--max-objects", "7"])
        .args(["--out", out.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    assert!(child.try_wait().unwrap().is_none(), "gen ended before the signal: make the run longer");
    let sent = Instant::now();
    assert!(Command::new("kill").args([signal, &child.id().to_string()]).status().unwrap().success());
    while child.try_wait().unwrap().is_none() && sent.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let took = sent.elapsed();
    let _ = child.kill();
    let o = child.wait_with_output().unwrap();
    (o.status.code(), took, text(&o))
}

/// Ctrl-C (and SIGTERM) stop `gen` within a moment: the test class in progress is written
/// whole with the tests of the traces that ended, the summary is printed, the exit status
/// is 130 (143), and every emitted file compiles and passes.
#[test]
fn a_signal_stops_gen_cleanly() {
    for (signal, status) in [("-INT", 130), ("-TERM", 143)] {
        let dir = tempdir();
        let (code, took, out) = signal_gen(signal, Duration::from_secs(3), dir.path());
        assert_eq!(code, Some(status), "{signal}:\n{out}");
        assert!(took < Duration::from_secs(3), "{signal}: took {took:?} to stop");
        assert!(out.contains("interrupted"), "{signal}: no summary of what was done:\n{out}");
        let java: Vec<String> = files_below(dir.path()).into_iter().filter(|f| f.ends_with("Test.java")).collect();
        assert!(!java.is_empty(), "{signal}: no test class written before the signal:\n{out}");
        let stray =
            files_below(dir.path()).into_iter().filter(|f| f.rsplit('/').next().is_some_and(|n| n.ends_with(".tmp")));
        assert_eq!(stray.count(), 0, "{signal}: temporary files left");
        let o = run_junit(dir.path(), "testdata/sir.jar", "5");
        assert!(o.status.success(), "{signal}: the emitted tests fail:\n{}", text(&o));
    }
}

/// Emitted files get the usual mode (0666 less the umask), not a temporary file's 0600.
#[cfg(unix)]
#[test]
fn emitted_files_are_readable_by_all() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempdir();
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "umask 022 && exec {BIN} gen --cp testdata/samples.jar samples.Chain --out {}",
            dir.path().display()
        ))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let files: Vec<String> = files_below(dir.path()).into_iter().filter(|f| f.ends_with(".java")).collect();
    assert!(files.len() >= 2);
    for f in files {
        let mode = std::fs::metadata(&f).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o644, "{f}");
    }
}

/// The limit holds while propagation refutes a branch (no step ends for seconds there): POSE's
/// `RedBlackTree#contains` spends its time in one feasibility check after another.
#[test]
fn the_time_limit_holds_while_propagating() {
    let start = Instant::now();
    let o = uberlazy(&[
        "run",
        "--cp",
        "testdata/sir.jar",
        "sir.RedBlackTree#contains",
        "--strategy",
        "pose",
        "--time-limit",
        "2",
        "--json",
    ]);
    let wall = start.elapsed();
    assert!(o.status.success(), "{}", text(&o));
    assert!(wall < Duration::from_secs(3), "{wall:?} for --time-limit 2");
    let v = run_json(&o);
    assert_eq!(v["halted"], "time-limit (2s)", "{}", text(&o));
}

/// A limit spent before the exploration starts (here while the class path loads) ends the
/// run with a summary that says so, not an error.
#[test]
fn the_time_limit_holds_while_loading() {
    let o = uberlazy(&["run", "--cp", "testdata/sir.jar", "sir.Stack#pop", "--time-limit", "0", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let v = run_json(&o);
    assert_eq!(v["traces"], 0);
    assert_eq!(v["halted"], "time-limit (0s)");
    assert_eq!(v["halted_while"], "loading the class path");
    let o = uberlazy(&["run", "--cp", "testdata/sir.jar", "sir.Stack#pop", "--time-limit", "0"]);
    assert!(text(&o).contains("stopped early while loading the class path: time-limit (0s)"), "{}", text(&o));
}

/// SIGTERM is honoured within a second whenever it comes: while the process starts and loads,
/// and while it explores (propagation and the solver included).
#[test]
fn a_signal_is_honoured_at_any_moment() {
    for after_ms in [5u64, 30, 150, 600, 1500] {
        let mut child: Child = Command::new(BIN)
            .args(["run", "--cp", "testdata/sir.jar", "sir.RedBlackTree#contains", "--strategy", "pose"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(after_ms));
        let sent = Instant::now();
        assert!(Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap().success());
        while child.try_wait().unwrap().is_none() && sent.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(5));
        }
        let took = sent.elapsed();
        let _ = child.kill();
        let o = child.wait_with_output().unwrap();
        // A signal that comes before the process installs its handler (while the loader maps
        // libz3) ends it by the signal itself, which a shell reports as 143 too.
        let by_signal = std::os::unix::process::ExitStatusExt::signal(&o.status) == Some(15);
        assert!(o.status.code() == Some(143) || by_signal, "SIGTERM after {after_ms} ms: {:?} {}", o.status, text(&o));
        assert!(took < Duration::from_secs(1), "SIGTERM after {after_ms} ms took {took:?} to end the run");
    }
}

/// `--max-memory` ends a run whose pending states grow past it as a halt: the summary, the
/// states cut by it, exit 0, and a peak near the limit.
#[test]
fn the_memory_limit_halts_with_a_summary() {
    let o = uberlazy(&[
        "run",
        "--cp",
        "testdata/ops.jar",
        "ops.Limits#signs",
        "--strategy",
        "lazy",
        "--search",
        "bfs",
        "--max-memory",
        "64",
        "--time-limit",
        "120",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let v = run_json(&o);
    assert_eq!(v["halted"], "max-memory (64 MB)", "{}", text(&o));
    let cut = v["trace_list"].as_array().unwrap().iter().filter(|t| t["cut"] == "max-memory (64 MB)").count();
    assert!(cut > 0, "no trace reports the memory cut");
    let peak = v["peak_mb"].as_f64().unwrap();
    assert!(peak <= 64.0 * 1.2, "peak {peak} MiB for --max-memory 64");
}

/// Outputs are checked before any work, and the message names the flag.
#[test]
fn output_flags_are_checked_before_any_work() {
    let dir = tempdir();
    let out = dir.path().join("out");
    let o = uberlazy(&[
        "gen",
        "--cp",
        "testdata/samples.jar",
        "samples.Chain",
        "--out",
        out.to_str().unwrap(),
        "--stats",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--stats") && text(&o).contains("is a directory"), "{}", text(&o));
    assert!(!out.exists(), "nothing is written");
    let file = dir.path().join("file");
    std::fs::write(&file, "x").unwrap();
    let o =
        uberlazy(&["run", "--cp", "testdata/samples.jar", "samples.Container#swap", "--dot", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--dot") && text(&o).contains("not a directory"), "{}", text(&o));
}

/// A run that kept existing files that differ (no `--force`) exits with 3 and says how many;
/// with `--force` it rewrites them and exits with 0.
#[test]
fn kept_files_show_in_the_exit_status() {
    let dir = tempdir();
    let out = dir.path().to_str().unwrap();
    let generate = |extra: &[&str]| {
        let mut args = vec!["gen", "--cp", "testdata/samples.jar", "samples.Container#swap", "--out", out];
        args.extend(extra);
        uberlazy(&args)
    };
    assert_eq!(generate(&[]).status.code(), Some(0));
    assert_eq!(generate(&[]).status.code(), Some(0), "an unchanged rerun keeps nothing");
    let test = files_below(dir.path()).into_iter().find(|f| f.ends_with("Test.java")).unwrap();
    std::fs::write(&test, "// edited\n").unwrap();
    let o = generate(&[]);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    assert!(text(&o).contains("1 existing files differ and were kept"), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(&test).unwrap(), "// edited\n");
    assert_eq!(generate(&["--force"]).status.code(), Some(0));
}

/// A loop over an input array explores every length up to `--max-array-length`, and the report
/// says when the longest arrays make most of the traces.
#[test]
fn array_lengths_are_bounded_and_reported() {
    let o = uberlazy(&["run", "--cp", "testdata/ops.jar", "ops.Limits#signs", "--max-array-length", "5", "--json"]);
    assert!(o.status.success(), "{}", text(&o));
    let v = run_json(&o);
    let lengths = v["array_lengths"].as_object().unwrap();
    let counts: Vec<(usize, u64)> = lengths.iter().map(|(k, n)| (k.parse().unwrap(), n.as_u64().unwrap())).collect();
    assert_eq!(counts, vec![(0, 1), (1, 2), (2, 4), (3, 8), (4, 16), (5, 32)], "{lengths:?}");
    let o = uberlazy(&["run", "--cp", "testdata/ops.jar", "ops.Limits#signs", "--max-array-length", "5"]);
    let t = text(&o);
    assert!(t.contains("array lengths: 32 of 63 finished traces take an input array of length 5"), "{t}");
}
