//! End-to-end tests of the frontend commands (`classes`, `ir`) through the built binary:
//! listings, the IR printer, and every user error exiting with code 2 and a message that
//! names the file, class or method (issue 2, acceptance).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};

use common::{BIN, lowered_counts, tempdir, uberlazy_checked};

const SAMPLES: &str = "testdata/samples.jar";
const FRONTEND: &str = "testdata/frontend.jar";
const COMMONS_LANG3: &str = "/usr/share/java/commons-lang3.jar";
const GUAVA: &str = "/usr/share/java/guava.jar";

/// Runs a command that must fail as a user error: exit code 2 and `error: ...` naming
/// every one of `names`.
fn user_error(args: &[&str], names: &[&str]) -> String {
    let o = uberlazy_checked(args);
    assert_eq!(o.code, 2, "uberlazy {args:?}: stdout {} stderr {}", o.stdout, o.stderr);
    assert!(o.stderr.starts_with("error: "), "uberlazy {args:?}: {}", o.stderr);
    for n in names {
        assert!(o.stderr.contains(n), "uberlazy {args:?}: message does not name {n}: {}", o.stderr);
    }
    o.stderr
}

#[test]
fn help_exits_zero_with_examples() {
    let o = uberlazy_checked(&["--help"]);
    assert_eq!(o.code, 0);
    for s in ["classes", "ir", "run", "compare", "Examples:", "uberlazy ir --cp testdata/samples.jar"] {
        assert!(o.stdout.contains(s), "--help lacks {s}:\n{}", o.stdout);
    }
    for sub in ["classes", "ir"] {
        let o = uberlazy_checked(&[sub, "--help"]);
        assert_eq!(o.code, 0);
        assert!(o.stdout.contains("--cp"), "{sub} --help:\n{}", o.stdout);
    }
    // A usage error is exit code 2 as well.
    assert_eq!(uberlazy_checked(&["classes"]).code, 2);
    assert_eq!(uberlazy_checked(&["no-such-command"]).code, 2);
}

#[test]
fn main_with_is_callable_in_process() {
    assert_eq!(uberlazy::cli::main_with(["uberlazy", "classes", "--cp", "does/not/exist.jar"]), 2);
    assert_eq!(uberlazy::cli::main_with(["uberlazy", "--bogus"]), 2);
}

#[test]
fn classes_lists_the_samples() {
    let o = uberlazy_checked(&["classes", "--cp", SAMPLES]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let classes: Vec<&str> = o.stdout.lines().filter(|l| !l.starts_with(' ') && !l.starts_with("lowered")).collect();
    assert_eq!(
        classes,
        [
            "public class samples.Chain",
            "public class samples.Container",
            "public class samples.Lambdas",
            "class samples.Lambdas$Cell",
            "public class samples.Triple"
        ]
    );
    for m in ["hasNull4()Z", "hasNull10()Z", "swap(Lsamples/Container;)V", "sum()I", "public <init>()V"] {
        assert!(o.stdout.contains(m), "missing {m}:\n{}", o.stdout);
    }
    // Every method line has a status; failures name an offset or the reason.
    for l in o.stdout.lines().filter(|l| l.starts_with("  ")) {
        let status = l.split_whitespace().next().unwrap();
        assert!(["ok", "FAILED", "PANICKED", "no"].contains(&status), "{l}");
    }
    let (_, n) = lowered_counts(&o.stdout);
    // The synthetic classes of Lambdas' call sites are not listed.
    assert!(!o.stdout.contains("$$Lambda"), "{}", o.stdout);
    assert_eq!(n, 22, "three constructors, hasNull4, hasNull10, swap, sum; Lambdas' 15");
}

#[test]
fn methods_without_code_are_listed_but_not_counted() {
    let o = uberlazy_checked(&["classes", "--cp", FRONTEND]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("public abstract class frontend.Shape"), "{}", o.stdout);
    assert!(o.stdout.contains("  no code  public abstract area()I"), "{}", o.stdout);
    assert!(o.stdout.contains("  no code  public native nat()I"), "{}", o.stdout);
    assert!(o.stdout.contains("public static dense(I)I"), "{}", o.stdout);
    let (m, n) = lowered_counts(&o.stdout);
    assert_eq!(n, 8, "Overloads: <init>, add x3, unique, dense; Shape: <init>, twice");
    // --failures shows only failing methods, with the same count.
    let f = uberlazy_checked(&["classes", "--cp", FRONTEND, "--failures"]);
    assert_eq!(f.code, 0);
    assert!(!f.stdout.contains("no code"), "{}", f.stdout);
    assert_eq!(lowered_counts(&f.stdout), (m, n));
    assert_eq!(f.stdout.lines().filter(|l| l.starts_with("  ")).count(), n - m);
}

#[test]
fn class_path_errors_exit_2_naming_the_file() {
    let dir = tempdir();
    let jar = dir.path().join("x.jar");
    std::fs::write(&jar, b"this is not a zip file at all").unwrap();
    let jar = jar.to_str().unwrap();
    let e = user_error(&["classes", "--cp", jar], &[jar]);
    assert!(e.contains("corrupt jar"), "{e}");
    user_error(&["ir", "--cp", jar, "a.B#c"], &[jar]);

    // A jar (a valid zip) holding a class file that is not one.
    let zjar = dir.path().join("y.jar");
    {
        let mut z = zip::ZipWriter::new(std::fs::File::create(&zjar).unwrap());
        let opts = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
        z.start_file("p/Broken.class", opts).unwrap();
        std::io::Write::write_all(&mut z, b"\xca\xfe\xba\xbe garbage").unwrap();
        z.finish().unwrap();
    }
    let e = user_error(&["classes", "--cp", zjar.to_str().unwrap()], &["y.jar!p/Broken.class"]);
    assert!(e.contains("malformed class file"), "{e}");

    // A single .class file that is not one.
    let bad = dir.path().join("Bad.class");
    std::fs::write(&bad, b"\xca\xfe\xba\xbe\x00").unwrap();
    let bad = bad.to_str().unwrap();
    let e = user_error(&["classes", "--cp", bad], &[bad]);
    assert!(e.contains("malformed class file"), "{e}");

    let missing = dir.path().join("missing.jar");
    let missing = missing.to_str().unwrap();
    user_error(&["classes", "--cp", missing], &[missing]);
    user_error(&["classes", "--cp", &format!("{SAMPLES}:{missing}")], &[missing]);
    let txt = dir.path().join("notes.txt");
    std::fs::write(&txt, "x").unwrap();
    user_error(&["classes", "--cp", txt.to_str().unwrap()], &["notes.txt", "not a directory, a .jar or a .class"]);
    user_error(&["classes", "--cp", ""], &["empty class path"]);
}

#[test]
fn method_name_errors_exit_2_listing_candidates() {
    user_error(&["ir", "--cp", SAMPLES, "samples.Nope#swap"], &["class samples.Nope not found"]);
    user_error(&["ir", "--cp", SAMPLES, "samples.Nope"], &["class samples.Nope not found"]);
    user_error(&["ir", "--cp", SAMPLES, "java.lang.Object#hashCode"], &["class java.lang.Object not found"]);
    user_error(
        &["ir", "--cp", SAMPLES, "samples.Container#swop"],
        &["unknown method samples.Container#swop", "samples.Container#swap(Lsamples/Container;)V"],
    );
    user_error(
        &["ir", "--cp", FRONTEND, "frontend.Overloads#add"],
        &["ambiguous method frontend.Overloads#add", "add(I)I", "add(J)J", "add(II)I"],
    );
    user_error(
        &["ir", "--cp", FRONTEND, "frontend.Overloads#add(Z)Z"],
        &["unknown method frontend.Overloads#add(Z)Z", "add(I)I", "add(J)J", "add(II)I"],
    );
    user_error(&["ir", "--cp", FRONTEND, "frontend.Overloads#add(Q"], &["malformed descriptor"]);
    user_error(&["ir", "--cp", FRONTEND, "frontend.Overloads#nat"], &["frontend.Overloads#nat()I", "no code"]);
    user_error(&["ir", "--cp", FRONTEND, "frontend.Shape#area"], &["frontend.Shape#area()I", "no code", "abstract"]);
    user_error(&["run", "--cp", SAMPLES, "samples.Nope#swap"], &["samples.Nope"]);
}

/// The IR of each sample method prints with a header, blocks and s-expressions.
#[test]
fn ir_of_the_samples_needs_lowering() {
    let o = uberlazy_checked(&["ir", "--cp", SAMPLES, "samples.Container#swap"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.starts_with("method samples.Container#swap(Lsamples/Container;)V\n"), "{}", o.stdout);
    assert!(o.stdout.contains("B0 (pc 0):"), "{}", o.stdout);
    assert!(o.stdout.contains("$ data"), "{}", o.stdout);
    let o = uberlazy_checked(&["ir", "--cp", FRONTEND, "frontend.Overloads#add(J)J", "frontend.Overloads#unique"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("method frontend.Overloads#add(J)J\n"), "{}", o.stdout);
    assert!(o.stdout.contains("(switch "), "{}", o.stdout);
    // A class name prints every method with code.
    let o = uberlazy_checked(&["ir", "--cp", SAMPLES, "samples.Chain"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(o.stdout.matches("\nmethod samples.Chain#").count() + 1, 3, "{}", o.stdout);
}

fn require(jar: &str, package: &str) {
    assert!(Path::new(jar).exists(), "{jar} is missing: install it with `apt-get install {package}` (make test does)");
}

/// Acceptance: commons-lang3 lists with no panic and at least 95% of its methods lower.
#[test]
fn commons_lang3_lowers_95_percent() {
    require(COMMONS_LANG3, "libcommons-lang3-java");
    let o = uberlazy_checked(&["classes", "--cp", COMMONS_LANG3]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let (m, n) = lowered_counts(&o.stdout);
    assert!(n > 1000, "{n} methods with code");
    assert!(m as f64 >= 0.95 * n as f64, "lowered only {m} of {n} methods of commons-lang3");
    // Every failure is named: a status word and the method on its line.
    for l in o.stdout.lines().filter(|l| l.starts_with("  FAILED") || l.starts_with("  PANICKED")) {
        assert!(l.contains('(') && l.contains(')'), "{l}");
    }
    assert!(!o.stdout.contains("  PANICKED"), "lowering panicked:\n{}", o.stdout);
}

/// Acceptance: guava lists with exit 0 and no panic.
#[test]
fn guava_lists_without_panic() {
    require(GUAVA, "libguava-java");
    let start = std::time::Instant::now();
    let o = uberlazy_checked(&["classes", "--cp", GUAVA]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let (m, n) = lowered_counts(&o.stdout);
    assert!(n > 10_000 && m <= n, "{m} of {n}");
    assert!(o.stdout.lines().filter(|l| !l.starts_with(' ')).count() > 1500, "guava has ~2000 classes");
    assert!(!o.stdout.contains("  PANICKED"), "lowering panicked on guava");
    eprintln!("guava: lowered {m} of {n} in {:?}", start.elapsed());
}

/// A reader that closes the pipe early (`uberlazy classes ... | head`) is not an error.
#[test]
fn closed_stdout_is_not_a_panic() {
    require(COMMONS_LANG3, "libcommons-lang3-java");
    let mut child = Command::new(BIN)
        .args(["classes", "--cp", COMMONS_LANG3])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 64];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The read end is dropped here; the child gets EPIPE on its next write.
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
}
