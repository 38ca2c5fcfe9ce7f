//! Runs one worker process per class, at most `jobs` at a time, within the whole run's
//! deadline and stop switch, and collects what each did.
//!
//! A class runs in a process of its own, not a thread: its memory (the lowered program, Z3's
//! contexts and their caches, which Z3 does not always give back) returns to the system when
//! it ends, an out-of-memory kill or a crash costs that class alone, `--max-memory` measures
//! one class, and a class's tests never depend on what ran before it in the same process.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use super::events::{Event, Status, WorkerReport};
use super::select::ClassJob;
use crate::budget::Stop;
use crate::{Error, Result};

/// The least time limit a worker gets (loading the class path takes time of its own).
pub const MIN_WORKER_S: u64 = 3;

/// How often the parent looks at its workers, the clock and the stop switch.
const POLL: Duration = Duration::from_millis(25);

/// How a run schedules its workers.
#[derive(Debug, Clone)]
pub struct Plan {
    /// At most this many workers at a time (`--jobs`).
    pub jobs: usize,
    /// The end of the whole run (`--time-limit` from its start).
    pub deadline: Instant,
    /// `--time-limit`: no worker gets more.
    pub limit_s: u64,
    /// Time a worker is given to end by itself after a stop, and again after SIGTERM before SIGKILL.
    pub grace: Duration,
}

/// What one class's worker did.
#[derive(Debug, Clone)]
pub struct ClassResult {
    pub class: String,
    pub status: Status,
    /// Why the class has no test (or what went wrong), for the summary.
    pub why: Option<String>,
    /// The worker's report, if it printed one.
    pub report: Option<WorkerReport>,
    /// The worker's summary lines (its standard output without the report).
    pub summary: String,
    pub elapsed: Duration,
}

/// The time limit (whole seconds) of a worker started with `left` of the run's time to go and
/// `classes_left` classes not yet started: its share of what `jobs` workers can do in the
/// time left, no more than the time left and `limit_s`, and at least [`MIN_WORKER_S`].
pub fn share_s(left: Duration, jobs: usize, classes_left: usize, limit_s: u64) -> u64 {
    let left_s = left.as_secs_f64();
    let share = (left_s * jobs.max(1) as f64 / classes_left.max(1) as f64).min(left_s);
    (share.floor() as u64).min(limit_s).max(MIN_WORKER_S)
}

/// A worker in flight.
struct Running {
    job: usize,
    child: Child,
    start: Instant,
    stdout: PathBuf,
    stderr: PathBuf,
    /// When the parent sent SIGTERM.
    terminated: Option<Instant>,
}

/// Runs a worker for each job (in order, at most `plan.jobs` at a time) and returns what each
/// did, sorted by class name. `command` makes the command line of a job's worker given its
/// time limit in seconds; the runner sets its standard streams. Once the deadline passes or
/// `stop` is requested no worker starts; running workers get SIGTERM (at once at the
/// deadline, after `plan.grace` on a stop, which a terminal's Ctrl-C also brought them), then
/// SIGKILL after `plan.grace`. A worker that fails costs its class alone.
pub fn run(
    jobs: &[ClassJob],
    plan: &Plan,
    stop: &Stop,
    command: &mut dyn FnMut(&ClassJob, u64) -> Command,
    on_event: &mut dyn FnMut(&Event),
) -> Result<Vec<ClassResult>> {
    let scratch = tempfile::Builder::new()
        .prefix("uberlazy-workers-")
        .tempdir()
        .map_err(|e| Error::io(std::env::temp_dir(), e))?;
    let mut results: Vec<ClassResult> = Vec::with_capacity(jobs.len());
    let mut running: Vec<Running> = Vec::new();
    let (mut next, mut tests_total) = (0, 0);
    let mut stopped_at: Option<Instant> = None;
    loop {
        let now = Instant::now();
        if stop.requested() && stopped_at.is_none() {
            stopped_at = Some(now);
        }
        let over = now >= plan.deadline;
        let halted = over || stopped_at.is_some();
        while !halted && running.len() < plan.jobs.max(1) && next < jobs.len() {
            let job = &jobs[next];
            let limit =
                share_s(plan.deadline.saturating_duration_since(now), plan.jobs, jobs.len() - next, plan.limit_s);
            next += 1;
            on_event(&Event::Started { class: job.class.clone(), index: next, total: jobs.len(), time_limit_s: limit });
            match spawn(command(job, limit), scratch.path(), next) {
                Ok((child, stdout, stderr)) => {
                    running.push(Running { job: next - 1, child, start: now, stdout, stderr, terminated: None })
                }
                Err(e) => {
                    let r = failed(job, Status::Failed, Some(format!("cannot start a worker: {e}")), now);
                    finish(r, &mut results, &mut tests_total, jobs.len(), on_event);
                }
            }
        }
        let mut i = 0;
        while i < running.len() {
            let w = &mut running[i];
            match w.child.try_wait() {
                Ok(Some(status)) => {
                    let w = running.swap_remove(i);
                    let r = collect(&jobs[w.job], &w, status);
                    finish(r, &mut results, &mut tests_total, jobs.len(), on_event);
                    continue;
                }
                Ok(None) => {}
                Err(e) => {
                    let mut w = running.swap_remove(i);
                    let _ = w.child.kill();
                    let _ = w.child.wait();
                    let r = failed(&jobs[w.job], Status::Failed, Some(format!("lost the worker: {e}")), w.start);
                    finish(r, &mut results, &mut tests_total, jobs.len(), on_event);
                    continue;
                }
            }
            // A stop gives workers time to end by themselves (a terminal's Ctrl-C reached them too).
            let term_due = over || stopped_at.is_some_and(|t| now >= t + plan.grace);
            match w.terminated {
                None if term_due => {
                    terminate(&w.child);
                    w.terminated = Some(now);
                }
                Some(t) if now >= t + plan.grace => {
                    let _ = w.child.kill();
                }
                _ => {}
            }
            i += 1;
        }
        if running.is_empty() && (next == jobs.len() || halted) {
            break;
        }
        std::thread::sleep(POLL);
    }
    let why = if stop.requested() { "interrupted" } else { "the run's time limit was spent" };
    for job in &jobs[next..] {
        let r = failed(job, Status::NotStarted, Some(format!("not started: {why}")), Instant::now());
        finish(r, &mut results, &mut tests_total, jobs.len(), on_event);
    }
    results.sort_by(|a, b| a.class.cmp(&b.class));
    Ok(results)
}

/// Starts a worker with its standard output and error in files of `dir` (files, not pipes:
/// a worker never blocks on a parent busy with others).
fn spawn(mut cmd: Command, dir: &Path, n: usize) -> std::io::Result<(Child, PathBuf, PathBuf)> {
    let stdout = dir.join(format!("{n}.out"));
    let stderr = dir.join(format!("{n}.err"));
    cmd.stdin(Stdio::null()).stdout(File::create(&stdout)?).stderr(File::create(&stderr)?);
    Ok((cmd.spawn()?, stdout, stderr))
}

/// Asks a worker to stop as Ctrl-C would: it writes the tests of what it explored and ends.
fn terminate(child: &Child) {
    if let Ok(pid) = libc::pid_t::try_from(child.id()) {
        // SAFETY: kill(2) with a child's pid (not yet reaped, so not reused) and a valid signal.
        unsafe {
            libc::kill(pid, libc::SIGTERM);
        }
    }
}

fn failed(job: &ClassJob, status: Status, why: Option<String>, start: Instant) -> ClassResult {
    ClassResult {
        class: job.class.clone(),
        status,
        why,
        report: None,
        summary: String::new(),
        elapsed: start.elapsed(),
    }
}

/// Reports one ended class and keeps its result.
fn finish(
    r: ClassResult,
    results: &mut Vec<ClassResult>,
    tests_total: &mut usize,
    total: usize,
    on_event: &mut dyn FnMut(&Event),
) {
    let (methods, tests) = r.report.as_ref().map_or((0, 0), |p| (p.methods, p.tests));
    *tests_total += tests;
    on_event(&Event::Finished {
        class: r.class.clone(),
        status: r.status,
        done: results.len() + 1,
        total,
        methods,
        tests,
        tests_total: *tests_total,
        elapsed_ms: r.elapsed.as_millis() as u64,
        why: r.why.clone(),
    });
    results.push(r);
}

/// What an ended worker did, from its exit status, its report and its error output.
fn collect(job: &ClassJob, w: &Running, status: ExitStatus) -> ClassResult {
    let out = std::fs::read_to_string(&w.stdout).unwrap_or_default();
    let err = std::fs::read_to_string(&w.stderr).unwrap_or_default();
    let (summary, report) = WorkerReport::split(&out);
    // The worker's own one-line error (`error: ...`), else its last line.
    let error = err
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("error: "))
        .or_else(|| err.lines().rev().find(|l| !l.trim().is_empty()))
        .map(str::to_string);
    let (status, why) = match &report {
        Some(r) if r.tests > 0 => (Status::Tests, None),
        Some(r) if w.terminated.is_some() || (r.halted.is_some() && r.explored == 0) => {
            (Status::Interrupted, Some(format!("stopped early: {}", r.halted.as_deref().unwrap_or("terminated"))))
        }
        Some(r) if r.explored == 0 && !r.failed.is_empty() => {
            (Status::Failed, Some(format!("explore failed: {}", r.failed[0])))
        }
        Some(r) if r.explored == 0 => (Status::NoTests, Some("no method explored".into())),
        Some(_) => (Status::NoTests, Some("0 tests (see the lines above)".into())),
        None if w.terminated.is_some() => {
            (Status::Interrupted, Some("stopped by the run's time limit or a stop".into()))
        }
        None => (Status::Failed, Some(crash(status, error))),
    };
    ClassResult { class: job.class.clone(), status, why, report, summary, elapsed: w.start.elapsed() }
}

/// Why a worker that printed no report failed.
fn crash(status: ExitStatus, error: Option<String>) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal(), error) {
        (Some(2), _, Some(e)) => format!("explore failed: {e}"),
        (_, Some(9), _) => "worker killed (signal 9: out of memory?)".into(),
        (_, Some(s), _) => format!("worker crashed (signal {s})"),
        (Some(c), _, Some(e)) => format!("worker failed (exit {c}): {e}"),
        (c, _, e) => {
            format!("worker failed (exit {}){}", c.unwrap_or(-1), e.map(|e| format!(": {e}")).unwrap_or_default())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_worker_gets_its_share_of_the_time_left() {
        let s = Duration::from_secs;
        // 100 s left, 2 at a time, 10 classes to go: 20 s each.
        assert_eq!(share_s(s(100), 2, 10, 300), 20);
        // Fewer classes than workers: no more than the time left, nor the whole limit.
        assert_eq!(share_s(s(100), 4, 1, 300), 100);
        assert_eq!(share_s(s(100), 4, 1, 60), 60);
        // Never below the floor, even when the time is nearly spent.
        assert_eq!(share_s(s(1), 2, 10, 300), MIN_WORKER_S);
    }
}
