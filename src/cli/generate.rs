//! `uberlazy gen`: JUnit test sources for methods, one test per non-cut trace.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use clap::Args;

use super::common::Done;
use super::options::{AnalysisArgs, progress_enabled, strategies};
use crate::budget::Stop;
use crate::config::Strategy;
use crate::output::{Written, check_dir_flag, check_file_flag, write_atomic};
use crate::report::json;
use crate::report::text::id_ranges;
use crate::runner::{Layout, Shard, WorkerReport};
use crate::session::{
    EmittedFile, GenOptions, JAVA_OPTIONS_PATH, Junit, Session, Targets, TestsPer, class_java_options_file,
    java_options_file,
};
use crate::{Error, Result};

/// Arguments of `uberlazy gen`.
#[derive(Debug, Args)]
pub struct GenArgs {
    /// Class path: jars, directories and .class files joined by `:`.
    #[arg(long)]
    pub cp: String,
    /// Methods (`pkg.Class#method`, `pkg.Class#method(descriptor)`) or whole classes
    /// (`pkg.Class`); optional with --package or --all. Specs of several classes make a
    /// whole-library run (one worker process per class, see --jobs).
    #[arg(required_unless_present_any = ["package", "all"])]
    pub methods: Vec<String>,
    /// Test every public concrete class (top-level or public nested) of this package and its
    /// subpackages; repeatable. Classes left out are listed with why.
    #[arg(long, value_name = "PKG")]
    pub package: Vec<String>,
    /// Test every public concrete class of the jars and directories on --cp (JDK classes
    /// only when named).
    #[arg(long)]
    pub all: bool,
    /// Worker processes at a time when more than one class is tested, each class in a
    /// process of its own [default: the machine's cores].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub jobs: Option<u32>,
    /// Test only shard I of N (1-based): the classes whose name hashes to I (CRC-32 mod N),
    /// so shards on separate machines write disjoint files into trees that merge.
    #[arg(long, value_name = "I/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// With several classes: one JSON object per line on stdout for each class started and
    /// finished (the summary goes to stderr).
    #[arg(long)]
    pub json_progress: bool,
    /// Internal: the worker of a whole-library run, testing this one class (binary name); it
    /// ends its output with a report line for its parent.
    #[arg(long, hide = true, value_name = "CLASS")]
    pub worker: Option<String>,
    /// Heap strategy: lazy, lazier, uber or pose.
    #[arg(long, default_value = "uber")]
    pub strategy: String,
    /// Output directory for the test sources (and the runtime helper).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Where the tests go below --out: `flat` (the directory itself) or `maven`
    /// (`src/test/java`, helper and JVM option files included; the summary ends with the
    /// lines a pom.xml or build.gradle needs).
    #[arg(long, default_value = "flat", value_name = "LAYOUT", value_parser = Layout::parse)]
    pub layout: Layout,
    /// JUnit generation: 5 (Jupiter) or 4.
    #[arg(long, default_value = "5", value_parser = ["4", "5"])]
    pub junit: String,
    /// Overwrite existing test files whose contents differ.
    #[arg(long)]
    pub force: bool,
    /// Also write the counts of every explored method (as `run --json`, plus `tests`) to
    /// this JSON file, for pipelines such as `make bench`.
    #[arg(long, value_name = "FILE")]
    pub stats: Option<PathBuf>,
    /// Record, in each test, whether this boolean method of the receiver holds on the rebuilt
    /// input (without asserting it): the file named by the system property
    /// `uberlazy.validity` gets one line per test. Measures the share of valid inputs.
    #[arg(long, value_name = "METHOD")]
    pub validity: Option<String>,
    /// Which traces become tests: those that cover a branch outcome or an outcome of the
    /// method the tests before them do not (`covering`), one per program path (`per-path`),
    /// or one per trace (`per-trace`).
    #[arg(long, default_value = "covering", value_parser = ["covering", "per-path", "per-trace"])]
    pub tests: String,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
}

/// Explores each method in this process (`uberlazy gen` sends runs of several classes to
/// `cli/whole.rs`, one worker per class), writes its test class and prints a summary. Every flag is checked
/// before any work, and nothing is written (not even the output directory) before the
/// first test class is ready.
pub fn run(args: &GenArgs, stop: &Stop) -> Result<Done> {
    let (mut session, _, strategy) = open(args, stop)?;
    let targets = session.targets(&args.methods)?;
    session.check_flags(&targets.methods, args.validity.as_deref())?;
    if targets.methods.is_empty() {
        return Err(Error::Usage(format!("nothing to test in {}: {}", args.methods.join(" "), left_out(&targets))));
    }
    if progress_enabled() {
        session.on_progress(|p| eprintln!("[{}/{}] {} {}", p.index, p.total, p.method, p.strategy));
    }
    let options = GenOptions {
        junit: if args.junit == "4" { Junit::Four } else { Junit::Five },
        validity: args.validity.clone(),
        tests: match args.tests.as_str() {
            "per-trace" => TestsPer::Trace,
            "per-path" => TestsPer::Path,
            _ => TestsPer::Covering,
        },
    };
    let runtime = session.runtime_file();
    let sources = args.layout.sources(&args.out);
    let rel = args.layout.sources(Path::new(""));
    let mut out = Out { dir: &sources, rel, force: args.force, kept: 0, lines: Vec::new(), written: Vec::new() };
    if targets.methods.len() > 1 {
        out.lines.push(format!(
            "time limit: {} s for all {} methods, shared by need (more to a method still covering new branches)",
            args.analysis.time_limit,
            targets.methods.len()
        ));
    }
    let mut failed: Vec<Error> = Vec::new();
    let mut stats: Vec<serde_json::Value> = Vec::new();
    let mut done = 0;
    let (mut explored, mut test_count, mut files) = (0, 0, 0);
    let mut runtime_written = false;
    let mut opens = std::collections::BTreeSet::new();
    session.generate_each(&targets.methods, strategy, &options, |method, tests| {
        done += 1;
        // A method the engine cannot explore is reported and the others still get tests.
        let t = match tests {
            Ok(t) => t,
            Err(e) => {
                out.lines.push(format!("{method}: no tests: {e}"));
                failed.push(e);
                return Ok(());
            }
        };
        if !runtime_written {
            // A worker's parent names the helper once for all classes.
            if args.worker.is_some() {
                out.put(&runtime)?;
            } else {
                out.write("runtime helper", &runtime)?;
            }
            runtime_written = true;
        }
        explored += 1;
        if args.stats.is_some() || args.worker.is_some() {
            stats.push(json::gen_stats(&t.summary, t.tests, t.by_calls, &t.test_class));
        }
        if t.tests == 0 {
            // A class without a test method is noise in a suite (and JUnit 4 rejects it).
            out.lines.push(format!("{method}: 0 tests from {} traces, no test class written", t.summary.traces));
        } else {
            test_count += t.tests;
            files += 1;
            let w = out.put(&t.file)?;
            out.put(&t.sidecar)?;
            opens.extend(t.opens.iter().cloned());
            out.lines.push(format!(
                "{method}: {} tests from {} traces, {} ({})",
                t.tests,
                t.summary.traces,
                sources.join(&t.file.path).display(),
                written(w)
            ));
        }
        let mut skipped: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (id, why) in &t.skipped {
            skipped.entry(why.as_str()).or_default().push(*id);
        }
        for (why, ids) in skipped {
            out.lines.push(format!("  traces skipped, {why}: {}", id_ranges(&ids)));
        }
        if t.repeats > 0 {
            out.lines.push(format!("  {} traces repeat a tested path (--tests per-trace tests them too)", t.repeats));
        }
        if t.redundant > 0 {
            out.lines.push(format!(
                "  {} traces cover no branch or outcome the tests do not (--tests per-path tests them too)",
                t.redundant
            ));
        }
        if let Some(q) = &t.summary.sequences {
            out.lines.push(format!("  {}", crate::report::text::sequences_line(q)));
            if t.by_calls < t.tests {
                let heap = t.tests - t.by_calls;
                out.lines.push(format!("  {} tests build their input by calls, {heap} field by field", t.by_calls));
            }
        }
        if let Some(n) = &t.note {
            out.lines.push(format!("  {n}"));
        }
        if let Some(h) = &t.summary.halted {
            out.lines.push(format!("  stopped early: {h}"));
        }
        if let Some(line) = crate::report::text::precondition_cut_line(&t.summary) {
            out.lines.push(format!("  {line}"));
        }
        if let Some(line) = crate::report::text::array_lengths_line(&t.summary) {
            out.lines.push(format!("  {line}"));
        }
        Ok(())
    })?;
    let mut report = None;
    if let Some(class) = &args.worker {
        let halted = session.halted().filter(|_| done < targets.methods.len() || session.stopped());
        if !opens.is_empty() {
            out.put(&class_java_options_file(class, &opens))?;
        }
        report = Some(WorkerReport {
            class: class.clone(),
            methods: targets.methods.len(),
            explored,
            tests: test_count,
            files,
            written: {
                out.written.sort();
                std::mem::take(&mut out.written)
            },
            failed: failed.iter().map(|e| e.to_string()).collect(),
            kept: out.kept,
            opens: opens.iter().cloned().collect(),
            halted: halted.map(|h| h.reason().to_string()),
            stats: std::mem::take(&mut stats),
        });
        // The report carries the JVM options and the stats: the parent writes them once.
        opens.clear();
    }
    if !opens.is_empty() {
        // Tests that set fields a class inherits from the JDK need deep reflection into it.
        let file = java_options_file(&opens);
        out.write("JVM options", &file)?;
        let flags: Vec<&str> = file.contents.lines().collect();
        out.lines.push(format!(
            "these tests set JDK fields by reflection: run them with `java {}` (or `java @{}`; tools/run-junit.sh does)",
            flags.join(" "),
            sources.join(JAVA_OPTIONS_PATH).display()
        ));
    }
    if args.worker.is_none() && done > 0 {
        let opens: Vec<String> = opens.iter().cloned().collect();
        out.lines.extend(args.layout.build_lines(args.junit == "4", &opens));
    }
    if let Some(path) = args.stats.as_ref().filter(|_| args.worker.is_none()) {
        let text = serde_json::to_string_pretty(&stats).map_err(|e| Error::Usage(e.to_string()))?;
        write_atomic(path, &text, true)?;
    }
    for l in &out.lines {
        println!("{l}");
    }
    if !targets.left_out.is_empty() {
        println!("left out: {}", left_out(&targets));
    }
    if session.stopped() {
        println!("interrupted after {done} of {} methods", targets.methods.len());
    } else if let Some(h) = session.halted().filter(|_| done < targets.methods.len()) {
        println!("stopped early: {} after {done} of {} methods", h.reason(), targets.methods.len());
    }
    if let Some(r) = &report {
        // The parent counts the kept files of all classes.
        println!("{}", r.line());
    } else if out.kept > 0 {
        println!("{} existing files differ and were kept; use --force to overwrite them", out.kept);
    }
    match failed.len() {
        0 if out.kept > 0 => Ok(Done::KeptFiles(out.kept)),
        0 => Ok(Done::Complete),
        1 => Err(failed.remove(0)),
        n => Err(Error::Usage(format!("{n} methods could not be explored (see above)"))),
    }
}

/// The one strategy of `--strategy`.
/// Checks `gen`'s flags before any work (the strategy; an unwritable `--out` or `--stats`; the
/// JDK) and opens the class path within the process's budget: `--time-limit` bounds the whole
/// process, loading included.
pub(super) fn open(args: &GenArgs, stop: &Stop) -> Result<(Session, crate::budget::Budget, Strategy)> {
    let process = args.analysis.process_budget(stop);
    let strategy = strategy(args)?;
    check_dir_flag("--out", &args.out)?;
    if let Some(stats) = &args.stats {
        check_file_flag("--stats", stats)?;
    }
    args.analysis.check_jdk()?;
    let session = Session::open_within(&args.cp, args.analysis.config(strategy, false), process.clone())?;
    Ok((session, process, strategy))
}

pub(super) fn strategy(args: &GenArgs) -> Result<Strategy> {
    match strategies(&args.strategy)?.as_slice() {
        [s] => Ok(*s),
        _ => Err(Error::Usage("--strategy takes exactly one of lazy, lazier, uber, pose".into())),
    }
}

/// The methods of named classes `gen` left out, grouped by reason.
fn left_out(t: &Targets) -> String {
    let mut by: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (m, why) in &t.left_out {
        by.entry(why).or_default().push(m);
    }
    if by.is_empty() {
        return "no method with code".into();
    }
    by.iter().map(|(why, ms)| format!("{why}: {}", ms.join(", "))).collect::<Vec<_>>().join("; ")
}

/// The output directory and what was written to it.
struct Out<'a> {
    dir: &'a Path,
    /// `dir` relative to `--out`.
    rel: PathBuf,
    /// The files put, relative to `--out`.
    written: Vec<String>,
    force: bool,
    /// Existing files that differ and were kept (no `--force`).
    kept: usize,
    /// The summary printed at the end.
    lines: Vec<String>,
}

impl Out<'_> {
    /// Writes a file atomically (replacing a different one only with `--force`).
    fn put(&mut self, f: &EmittedFile) -> Result<Written> {
        let w = write_atomic(&self.dir.join(&f.path), &f.contents, self.force)?;
        if w == Written::Kept {
            self.kept += 1;
        }
        self.written.push(self.rel.join(&f.path).to_string_lossy().into_owned());
        Ok(w)
    }

    /// Writes a file and notes it in the summary as `what`.
    fn write(&mut self, what: &str, f: &EmittedFile) -> Result<()> {
        let w = self.put(f)?;
        self.lines.push(format!("{what}: {} ({})", self.dir.join(&f.path).display(), written(w)));
        Ok(())
    }
}

fn written(w: Written) -> &'static str {
    match w {
        Written::Created => "written",
        Written::Replaced => "rewritten (--force)",
        Written::Unchanged => "unchanged",
        Written::Kept => "exists and differs: kept, use --force",
    }
}
