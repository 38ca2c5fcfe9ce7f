//! `gen` over many classes (`--package`, `--all`, `--shard`, or specs of several classes):
//! the flags of a whole-library run, each worker's command line, the progress line and the
//! summary; selection, sharding, scheduling and merging are [`crate::runner`]'s.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use super::common::Done;
use super::generate::GenArgs;
use super::options::AnalysisArgs;
use crate::budget::Stop;
use crate::output::write_atomic;
use crate::runner::{
    self, ClassJob, Entry, Event, Manifest, Plan, Request, Status, class_of, left_out_text, options_crc,
};
use crate::session::JAVA_OPTIONS_DIR;
use crate::{Error, Result};

/// Time a worker gets to end by itself after a stop, and again between SIGTERM and SIGKILL.
const GRACE: Duration = Duration::from_secs(3);

/// Whether `gen` runs one worker per class: with `--package`, `--all` or `--shard`, or
/// when the specs name methods of more than one class.
pub fn wanted(args: &GenArgs) -> bool {
    let mut classes: Vec<&str> = args.methods.iter().map(|s| class_of(s)).collect();
    classes.sort_unstable();
    classes.dedup();
    !args.package.is_empty() || args.all || args.shard.is_some() || classes.len() > 1
}

/// Selects the classes, runs a worker per class and prints the merged summary. Every flag is
/// checked before the first worker starts; the workers write the test files.
pub fn run(args: &GenArgs, stop: &Stop) -> Result<Done> {
    let start = Instant::now();
    let (mut session, process, _) = super::generate::open(args, stop)?;
    let request = Request { specs: args.methods.clone(), packages: args.package.clone(), all: args.all };
    let selected = runner::select(&mut session, &request)?;
    for job in &selected.jobs {
        let targets = session.targets(&job.specs)?;
        session.check_flags(&targets.methods, args.validity.as_deref())?;
    }
    let of_all = selected.jobs.len();
    let mut selected = match args.shard {
        Some(s) => s.apply(selected),
        None => selected,
    };
    // Each class's class file and worker options, to skip a class whose last run had the same.
    let hashes: BTreeMap<String, (u32, u32)> = selected
        .jobs
        .iter()
        .filter_map(|j| {
            Some((j.class.clone(), (session.class_file_crc(&j.class)?, options_crc(&hashed_args(args, j)))))
        })
        .collect();
    let mut manifest = Manifest::read(&args.out, args.shard);
    let mut skipped = Vec::new();
    if !args.force {
        selected.jobs.retain(|j| {
            let same = hashes.get(&j.class).is_some_and(|(c, o)| manifest.unchanged(&args.out, &j.class, *c, *o));
            if same {
                skipped.push(j.class.clone());
            }
            !same
        });
    }
    let runtime = session.runtime_file();
    // The workers load the class path again; the parent's copy is not needed any more.
    drop(session);
    let say = |l: &str| if args.json_progress { eprintln!("{l}") } else { println!("{l}") };
    if let Some(s) = args.shard {
        say(&format!("shard {s}: {} of {of_all} classes", selected.jobs.len()));
    }
    for c in &skipped {
        say(&format!("{c}: unchanged, skipped"));
    }
    if selected.jobs.is_empty() && !skipped.is_empty() {
        say(&format!("{} classes unchanged, skipped: nothing written (--force reruns them)", skipped.len()));
        return Ok(Done::Complete);
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let jobs = args.jobs.map_or(cores, |j| j as usize).min(selected.jobs.len()).max(1);
    let memory =
        args.analysis.max_memory.unwrap_or_else(|| (crate::budget::default_max_memory_mb() / jobs as u64).max(256));
    let plan = Plan { jobs, deadline: process.deadline, limit_s: args.analysis.time_limit, grace: GRACE };
    let exe = std::env::current_exe().map_err(|e| Error::Usage(format!("cannot find the uberlazy executable: {e}")))?;
    let mut line = Line::new(args.json_progress, start);
    let results =
        runner::run(&selected.jobs, &plan, stop, &mut |job, limit| worker(&exe, args, job, limit, memory), &mut |e| {
            line.show(e)
        })?;
    line.end();
    let merged = runner::merge(&results, &selected.left_out);
    for r in &results {
        match (&r.report, hashes.get(&r.class)) {
            (Some(w), Some((c, o))) if w.halted.is_none() && w.kept == 0 => {
                let e = Entry { class_crc: *c, options_crc: *o, files: w.written.clone() };
                manifest.classes.insert(r.class.clone(), e);
            }
            _ => {
                manifest.classes.remove(&r.class);
            }
        }
    }
    // No worker wrote a file: no manifest either, so a failed run leaves nothing behind.
    if !results.is_empty() && args.out.is_dir() {
        manifest.write(&args.out, args.shard)?;
    }
    let mut lines = merged.lines.clone();
    if merged.explored {
        // Each worker wrote the same helper; naming it once keeps the summary the same for any --jobs.
        lines.push(format!("runtime helper: {}", args.layout.sources(&args.out).join(&runtime.path).display()));
    }
    if !merged.opens.is_empty() {
        let flags: Vec<String> = merged.opens.iter().map(|p| format!("--add-opens {p}=ALL-UNNAMED")).collect();
        lines.push(format!(
            "these tests set JDK fields by reflection: run them with `java {}` (each class's options are in {}/; \
             tools/run-junit.sh applies them)",
            flags.join(" "),
            args.layout.sources(&args.out).join(JAVA_OPTIONS_DIR).display()
        ));
    }
    if merged.explored {
        let opens: Vec<String> = merged.opens.iter().cloned().collect();
        lines.extend(args.layout.build_lines(args.junit == "4", &opens));
    }
    if let Some(path) = &args.stats {
        let text = serde_json::to_string_pretty(&merged.stats).map_err(|e| Error::Usage(e.to_string()))?;
        write_atomic(path, &text, true)?;
    }
    if merged.kept > 0 {
        lines.push(format!("{} existing files differ and were kept; use --force to overwrite them", merged.kept));
    }
    for l in &lines {
        say(l);
    }
    if stop.requested() {
        return Ok(Done::Complete);
    }
    if merged.with_tests == 0 && merged.failed > 0 {
        return Err(Error::Usage(format!(
            "no class got a test and {} failed: {}",
            merged.failed,
            left_out_text(&results.iter().filter(|r| r.status == Status::Failed).map(failed_class).collect::<Vec<_>>())
        )));
    }
    Ok(if merged.kept > 0 { Done::KeptFiles(merged.kept) } else { Done::Complete })
}

fn failed_class(r: &runner::ClassResult) -> runner::LeftOut {
    runner::LeftOut { class: r.class.clone(), why: r.why.clone().unwrap_or_default() }
}

/// The arguments of `job`'s worker that shape its tests: all but its time, memory, `--out`
/// (a tree copied elsewhere stays current) and `--force`.
fn hashed_args(args: &GenArgs, job: &ClassJob) -> Vec<OsString> {
    let mut v = worker_args(args, job, 0, 0);
    if let Some(i) = v.iter().position(|a| a == "--out") {
        v.drain(i..(i + 2).min(v.len()));
    }
    v.into_iter().filter(|a| a != "--force").collect()
}

/// The command line of the worker of `job`: `gen` on its specs with the run's flags, the time
/// limit `limit_s` and the memory limit `memory_mb`.
fn worker(exe: &Path, args: &GenArgs, job: &ClassJob, limit_s: u64, memory_mb: u64) -> Command {
    let mut c = Command::new(exe);
    c.args(worker_args(args, job, limit_s, memory_mb));
    c
}

/// The arguments of [`worker`]. Every field is named (no `..`): a new flag of `gen` does not
/// compile until it says how a worker gets it.
fn worker_args(args: &GenArgs, job: &ClassJob, limit_s: u64, memory_mb: u64) -> Vec<OsString> {
    let GenArgs {
        cp,
        methods: _,
        package: _,
        all: _,
        jobs: _,
        shard: _,
        json_progress: _,
        worker: _,
        strategy,
        out,
        layout,
        junit,
        force,
        stats: _,
        validity,
        tests,
        analysis,
    } = args;
    let mut v: Vec<OsString> = vec!["gen".into(), "--cp".into(), cp.into()];
    v.extend(job.specs.iter().map(OsString::from));
    v.extend(["--worker".into(), job.class.clone().into(), "--strategy".into(), strategy.into()]);
    v.extend(["--out".into(), out.into(), "--junit".into(), junit.into(), "--tests".into(), tests.into()]);
    v.extend(["--layout".into(), layout.name().into()]);
    if *force {
        v.push("--force".into());
    }
    if let Some(m) = validity {
        v.extend(["--validity".into(), m.into()]);
    }
    let AnalysisArgs {
        max_depth,
        max_objects,
        max_calls,
        time_limit: _,
        precondition_fuse,
        precondition_steps,
        max_array_length,
        solver_timeout,
        max_memory: _,
        symbolic_statics,
        havoc_unknown,
        precondition,
        jdk,
        search,
        object_inputs,
        inputs,
        max_sequence,
        sequence_methods,
    } = analysis;
    let mut flag = |name: &str, value: String| v.extend([OsString::from(name), OsString::from(value)]);
    flag("--time-limit", limit_s.to_string());
    flag("--max-memory", memory_mb.to_string());
    flag("--max-depth", max_depth.to_string());
    flag("--max-calls", max_calls.to_string());
    flag("--precondition-steps", precondition_steps.to_string());
    flag("--max-array-length", max_array_length.to_string());
    flag("--solver-timeout", solver_timeout.to_string());
    flag("--search", search.clone());
    flag("--object-inputs", object_inputs.clone());
    flag("--inputs", inputs.clone());
    flag("--max-sequence", max_sequence.to_string());
    if let Some(n) = max_objects {
        flag("--max-objects", n.to_string());
    }
    if let Some(n) = precondition_fuse {
        flag("--precondition-fuse", n.to_string());
    }
    if let Some(p) = precondition {
        flag("--precondition", p.clone());
    }
    if !sequence_methods.is_empty() {
        flag("--sequence-methods", sequence_methods.join(","));
    }
    if let Some(home) = jdk {
        v.extend(["--jdk".into(), home.into()]);
    }
    if *symbolic_statics {
        v.push("--symbolic-statics".into());
    }
    if *havoc_unknown {
        v.push("--havoc-unknown".into());
    }
    v
}

/// The progress of a run on stderr: on a terminal one line rewritten in place (classes done,
/// tests written, elapsed time, time to go), else a line per class; with `--json-progress`
/// also each event as a line of JSON on stdout.
struct Line {
    json: bool,
    tty: bool,
    start: Instant,
    drawn: bool,
    /// Classes ended, of `total`, and the tests written so far.
    done: usize,
    total: usize,
    tests: usize,
}

impl Line {
    fn new(json: bool, start: Instant) -> Line {
        Line { json, tty: std::io::stderr().is_terminal(), start, drawn: false, done: 0, total: 0, tests: 0 }
    }

    fn show(&mut self, e: &Event) {
        if self.json {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{}", e.json_line());
            let _ = out.flush();
        }
        match e {
            Event::Started { total, .. } => self.total = *total,
            Event::Finished { class, status, done, tests, tests_total, elapsed_ms, why, .. } => {
                (self.done, self.tests) = (*done, *tests_total);
                if !self.tty {
                    let what = match (status, why) {
                        (Status::Tests, _) | (_, None) => format!("{:.1} s", *elapsed_ms as f64 / 1000.0),
                        (_, Some(w)) => w.clone(),
                    };
                    eprintln!("[{done}/{}] {class}: {tests} tests ({what})", self.total);
                }
            }
        }
        if self.tty {
            let elapsed = self.start.elapsed();
            let eta = match self.done {
                0 => "?".to_string(),
                d => clock(elapsed.mul_f64((self.total - d) as f64 / d as f64)),
            };
            let (done, total, tests) = (self.done, self.total, self.tests);
            eprint!("\r\x1b[K[{done}/{total} classes] {tests} tests, {} elapsed, ETA {eta}", clock(elapsed));
            self.drawn = true;
        }
    }

    /// Ends the rewritten line, so that what follows starts on a line of its own.
    fn end(&mut self) {
        if self.drawn {
            eprintln!();
        }
    }
}

/// `m:ss` (or `h:mm:ss`).
fn clock(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::panic)]
    use clap::Parser;

    use super::*;
    use crate::cli::{Cli, Cmd};

    fn gen_args(line: &[&str]) -> GenArgs {
        match Cli::try_parse_from([&["uberlazy", "gen"], line].concat()).unwrap().cmd {
            Cmd::Gen(a) => a,
            _ => panic!("not gen"),
        }
    }

    /// A worker's flags are the parent's, but for its class, time and memory.
    #[test]
    fn a_worker_gets_the_runs_flags() {
        let parent = gen_args(&[
            "--cp",
            "a.jar",
            "--package",
            "p",
            "--out",
            "o",
            "--strategy",
            "lazy",
            "--junit",
            "4",
            "--force",
            "--layout",
            "maven",
            "--validity",
            "ok",
            "--tests",
            "per-path",
            "--max-depth",
            "7",
            "--max-objects",
            "3",
            "--max-calls",
            "4",
            "--precondition-fuse",
            "9",
            "--precondition-steps",
            "11",
            "--max-array-length",
            "2",
            "--solver-timeout",
            "50",
            "--symbolic-statics",
            "--havoc-unknown",
            "--precondition",
            "repOK",
            "--search",
            "bfs",
            "--object-inputs",
            "string",
            "--inputs",
            "heap",
            "--max-sequence",
            "2",
            "--sequence-methods",
            "add,remove",
            "--jobs",
            "3",
            "--time-limit",
            "100",
        ]);
        let job = ClassJob { class: "p.C".into(), specs: vec!["p.C".into()] };
        let args: Vec<String> =
            worker_args(&parent, &job, 30, 512).iter().map(|a| a.to_string_lossy().into_owned()).collect();
        let refs: Vec<&str> = args.iter().skip(1).map(String::as_str).collect();
        let w = gen_args(&refs);
        assert_eq!((w.worker.as_deref(), w.methods.clone()), (Some("p.C"), vec!["p.C".to_string()]));
        assert_eq!((w.analysis.time_limit, w.analysis.max_memory), (30, Some(512)));
        let same = |a: &GenArgs| {
            let mut x = a.analysis.clone();
            x.time_limit = 0;
            x.max_memory = None;
            format!("{x:?} {} {:?} {:?} {} {} {:?} {}", a.cp, a.out, a.layout, a.strategy, a.junit, a.validity, a.tests)
        };
        assert_eq!(same(&w), same(&parent));
        assert!(w.force && w.package.is_empty() && w.jobs.is_none() && w.stats.is_none());
    }

    #[test]
    fn clock_reads_minutes_and_hours() {
        assert_eq!(clock(Duration::from_secs(62)), "1:02");
        assert_eq!(clock(Duration::from_secs(3723)), "1:02:03");
    }
}
