//! `generate`: explore each method with one strategy and turn its traces into a JUnit test
//! class, as file contents (the caller writes them).

use std::collections::{BTreeSet, HashSet};
use std::path::PathBuf;

use super::pace::{Covered, Pace, Share};
use super::{ExploreOptions, Session};
use crate::Result;
use crate::classfile::MethodId;
use crate::config::Strategy;
use crate::junit::{self, Junit};
use crate::lower::driver::TEST_CALLS;
use crate::machine::{Prefer, TraceKind, path_digest};
use crate::report::Summary;

/// How to emit tests.
#[derive(Debug, Clone)]
pub struct GenOptions {
    pub junit: Junit,
    /// A boolean method of the receiver whose value on each rebuilt input the test records
    /// (`Heap.valid`), without asserting it.
    pub validity: Option<String>,
    /// Which traces become tests: those that cover something new, one per path, or all.
    pub tests: TestsPer,
}

/// Which traces become tests (`gen --tests`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum TestsPer {
    /// Of one trace per path, those that cover a branch outcome or an outcome of the method
    /// no test before them covers (`session/covering.rs`): a suite a reviewer keeps.
    #[default]
    Covering,
    /// The first finished trace of each program path: lazy initialization finds a path
    /// once per input shape.
    Path,
    /// Every finished trace.
    Trace,
}

impl Default for GenOptions {
    fn default() -> Self {
        GenOptions { junit: Junit::Five, validity: None, tests: TestsPer::Covering }
    }
}

/// A generated file: its path below the output directory and its contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmittedFile {
    pub path: PathBuf,
    pub contents: String,
}

/// The test class of one method.
#[derive(Debug, Clone)]
pub struct GeneratedTests {
    pub file: EmittedFile,
    /// The JSON sidecar next to the source: per trace its test, outcome, program path and
    /// path condition (which the tests' comments leave out).
    pub sidecar: EmittedFile,
    /// The test class's qualified name (`samples.Chain_hasNull4Test`).
    pub test_class: String,
    /// `@Test` methods written.
    pub tests: usize,
    /// Traces without a test: (trace id, reason).
    pub skipped: Vec<(usize, String)>,
    /// Finished traces without a test because an earlier trace of their path has one.
    pub repeats: usize,
    /// Finished traces without a test because the kept tests cover all they cover
    /// (`TestsPer::Covering`).
    pub redundant: usize,
    /// The counts of the exploration the tests come from.
    pub summary: Summary,
    /// The JDK packages (`java.base/java.util`) whose fields the tests set or read through
    /// reflection (fields a class path class inherits from a JDK class): the JVM must run
    /// them with `--add-opens` for each.
    pub opens: BTreeSet<String>,
    /// Tests whose input is built by calls (all with `--inputs api`; some with `auto`).
    pub by_calls: usize,
    /// What the user should know about how the inputs were built (`--inputs auto`).
    pub note: Option<String>,
}

/// Where a `gen` output directory lists the JVM options its tests need (a `java @file`
/// argument file; `tools/run-junit.sh` passes it on).
pub const JAVA_OPTIONS_PATH: &str = "uberlazy/runtime/java-options.txt";

/// The argument file of [`JAVA_OPTIONS_PATH`] for these packages.
pub fn java_options_file(opens: &BTreeSet<String>) -> EmittedFile {
    let mut contents = String::new();
    for p in opens {
        contents.push_str(&format!("--add-opens {p}=ALL-UNNAMED\n"));
    }
    EmittedFile { path: PathBuf::from(JAVA_OPTIONS_PATH), contents }
}

/// Where a whole-library run's worker lists the JVM options the tests of one class need
/// (`uberlazy/runtime/java-options/pkg.Class.txt`): one file per class, so that shards and
/// workers writing into one tree never write one file with different contents.
pub fn class_java_options_file(class: &str, opens: &BTreeSet<String>) -> EmittedFile {
    let mut f = java_options_file(opens);
    f.path = PathBuf::from(JAVA_OPTIONS_DIR).join(format!("{class}.txt"));
    f
}

/// The directory of [`class_java_options_file`]s below a `gen` output directory.
pub const JAVA_OPTIONS_DIR: &str = "uberlazy/runtime/java-options";

/// Everything one `generate` produced: the runtime helper the tests use, and per method
/// (`pkg.Class#name(desc)`) its tests or why the engine could not explore it.
#[derive(Debug, Clone)]
pub struct Generated {
    pub runtime: EmittedFile,
    pub methods: Vec<(String, Result<GeneratedTests>)>,
}

/// The least time `gen` gives one method when its `--time-limit` is nearly spent.
pub const MIN_SHARE: std::time::Duration = std::time::Duration::from_millis(200);

/// The part of a method's time share `gen` explores in; the rest is for emitting the tests of
/// what it found: choosing, emitting, writing and freeing the tests of many traces takes time
/// of its own.
pub const EXPLORE_SHARE: f64 = 0.9;

/// With `--inputs auto`, the part of a method's exploration time its call-built run gets
/// (the heap run gets the rest, and what the call-built run leaves): a path a sequence
/// reaches gets a test a caller could have written.
pub const CALL_BUILT_SHARE: f64 = 0.5;

impl Session {
    /// The runtime helper every emitted test class uses.
    pub fn runtime_file(&self) -> EmittedFile {
        EmittedFile { path: PathBuf::from(junit::runtime::PATH), contents: junit::runtime::SOURCE.to_string() }
    }

    /// Tests for each method, explored with `strategy`. A method the engine cannot explore
    /// does not stop the others: its entry holds the error.
    pub fn generate(&mut self, methods: &[MethodId], strategy: Strategy, options: &GenOptions) -> Result<Generated> {
        let mut out = Vec::new();
        self.generate_each(methods, strategy, options, |m, r| {
            out.push((m.to_string(), r));
            Ok(())
        })?;
        Ok(Generated { runtime: self.runtime_file(), methods: out })
    }

    /// As [`Session::generate`], handing each method's tests to `sink` as soon as they are
    /// made (so that a caller can write them while the next method runs). An error `sink`
    /// returns stops the run. `--time-limit` is the budget of the whole run, lowering
    /// included, shared by need ([`Share`]): each method gets the time left divided by the
    /// methods left (at least [`MIN_SHARE`]), runs up to a few times that while its traces
    /// cover new goals of the class and ends early once they stop, so that a method that
    /// finishes or stalls leaves its time to the next ones and no method takes all of it; it
    /// explores for [`EXPLORE_SHARE`] of that, leaving the rest to turning its traces into
    /// tests and writing them.
    pub fn generate_each(
        &mut self,
        methods: &[MethodId],
        strategy: Strategy,
        options: &GenOptions,
        mut sink: impl FnMut(&str, Result<GeneratedTests>) -> Result<()>,
    ) -> Result<()> {
        let start = std::time::Instant::now();
        let total = std::time::Duration::from_secs(self.config.bounds.time_limit_s);
        let deadline = start.checked_add(total).map_or(self.process.deadline, |d| d.min(self.process.deadline));
        self.prepare(methods, true)?;
        let mut covered = Covered::default();
        for (i, m) in methods.iter().enumerate() {
            if self.halted().is_some() {
                break;
            }
            self.report_progress(i + 1, methods.len(), *m, strategy);
            let name = self.method_name(*m);
            let left = (methods.len() - i) as u32;
            let share = Share::of(deadline.saturating_duration_since(std::time::Instant::now()), left, MIN_SHARE);
            let tests = self.tests_of(*m, strategy, options, share.scaled(EXPLORE_SHARE, MIN_SHARE), &mut covered);
            sink(&name, tests)?;
        }
        Ok(())
    }

    fn tests_of(
        &self,
        m: MethodId,
        strategy: Strategy,
        options: &GenOptions,
        share: Share,
        covered: &mut Covered,
    ) -> Result<GeneratedTests> {
        let prefer = match options.tests {
            TestsPer::Path | TestsPer::Covering => Prefer::FirstOfPath,
            TestsPer::Trace => Prefer::Every,
        };
        let explore = ExploreOptions { prefer, ..ExploreOptions::default() };
        let start = std::time::Instant::now();
        let (both, note) =
            match self.call_built(m, strategy, &explore, share.scaled(CALL_BUILT_SHARE, MIN_SHARE), covered) {
                Ok(b) => (b, None),
                Err(e) if self.stopped() => return Err(e),
                Err(e) => {
                    (None, Some(format!("no inputs built by calls ({e}): every test builds its input field by field")))
                }
            };
        let heap = share.after(start.elapsed(), MIN_SHARE);
        let mut pace = Pace::new(covered, &self.program.table, self.program.table.method(m).owner, heap);
        let inputs = &self.config.inputs;
        let mut e =
            self.explore_inputs(m, strategy, &explore, heap.cap, inputs, Some(&mut pace), &mut |_, _, _| Ok(true))?;
        let mut before = e.result.traces.len();
        let driver = match self.config.inputs {
            crate::config::Inputs::Api { .. } => self.program.driver_of(m).map(|d| &**d),
            _ => both.as_ref().and_then(|_| self.program.driver_of(m)).map(|d| &**d),
        };
        if options.tests != TestsPer::Trace {
            match (&self.config.inputs, driver) {
                (crate::config::Inputs::Api { .. }, Some(d)) => keep_sequence_tests(d, &mut e.result.traces),
                _ => {
                    let mut tested = HashSet::new();
                    e.result.traces.retain(|t| t.kind == TraceKind::Cut || tested.insert(path_digest(&t.path)));
                }
            }
        }
        if let (Some(api), Some(d)) = (both, driver) {
            before += api.result.traces.len();
            self.merge_call_built(&mut e, api.result, d, options.tests, strategy);
        }
        let repeats = before - e.result.traces.len();
        let redundant = match options.tests {
            TestsPer::Covering => {
                let class = self.program.table.method(m).owner;
                super::covering::keep_covering(&self.program.table, class, &mut e.result.traces)
            }
            _ => 0,
        };
        let jopts = junit::Options {
            junit: options.junit,
            precondition: self.config.precondition.as_deref(),
            validity: options.validity.as_deref(),
            driver,
            stop: Some(&self.stop),
        };
        let t = junit::emit(&self.program.table, &e.result, &jopts);
        let sequences_only = matches!(self.config.inputs, crate::config::Inputs::Api { .. });
        let opens = if sequences_only { BTreeSet::new() } else { junit::java::reflected_jdk_packages(&t.source) };
        let skipped: HashSet<usize> = t.skipped.iter().map(|(id, _)| *id).collect();
        let by_calls = e
            .result
            .traces
            .iter()
            .filter(|t| t.kind != TraceKind::Cut && !t.prefix.is_empty() && !skipped.contains(&t.id))
            .count();
        let test_class =
            if t.package.is_empty() { t.class_name.clone() } else { format!("{}.{}", t.package, t.class_name) };
        let (path, sidecar_path) = (t.path(), t.sidecar_path());
        Ok(GeneratedTests {
            sidecar: EmittedFile { path: sidecar_path, contents: t.sidecar },
            file: EmittedFile { path, contents: t.source },
            test_class,
            tests: t.tests,
            skipped: t.skipped,
            repeats,
            redundant,
            summary: e.summary,
            opens,
            by_calls,
            note,
        })
    }

    /// With `--inputs auto`: takes the call-built run `api` of the method into its heap run
    /// `e`. With one test per path, a path a sequence reached with an input a test can build
    /// (a model, no identity hash to choose) keeps that test and loses its heap one.
    fn merge_call_built(
        &self,
        e: &mut super::Exploration,
        mut api: crate::machine::RunResult,
        d: &crate::lower::driver::Driver,
        tests: TestsPer,
        strategy: Strategy,
    ) {
        if tests != TestsPer::Trace {
            let testable = |t: &&crate::machine::Trace| {
                t.kind != TraceKind::Cut && t.concrete.is_some() && !t.constrains_identity_hash()
            };
            let reached: HashSet<u128> = api.traces.iter().filter(testable).map(|t| path_digest(&t.path)).collect();
            keep_sequence_tests(d, &mut api.traces);
            e.result.traces.retain(|t| t.kind == TraceKind::Cut || !reached.contains(&path_digest(&t.path)));
        }
        let heap = std::mem::replace(&mut e.result, api);
        e.result.arg_names = heap.arg_names.clone();
        e.result.absorb(heap);
        let config = crate::config::Config { strategy, bounds: e.summary.bounds, ..self.config.clone() };
        let sequences = Some(e.result.stats.sequence.clone());
        e.summary = Summary { sequences, ..crate::report::summarize(&e.result, &config, e.summary.peak_mb) };
    }

    /// With `--inputs auto` (no precondition, a driver that can build the receiver): the
    /// exploration of `m` with inputs built by calls, in its `share` of the method's time (an engine error
    /// there leaves the method to its heap inputs, with a note).
    fn call_built(
        &self,
        m: MethodId,
        strategy: Strategy,
        explore: &ExploreOptions,
        share: Share,
        covered: &mut Covered,
    ) -> Result<Option<super::Exploration>> {
        let crate::config::Inputs::Auto { max_calls, methods } = &self.config.inputs else { return Ok(None) };
        if self.config.precondition.is_some() {
            return Ok(None);
        }
        // A static method's driver builds only its object arguments: without one, its run
        // would be the heap run's.
        let builds = |d: &crate::lower::driver::Driver| {
            !self.program.table.method(m).is_static()
                || d.call.args.iter().any(|a| matches!(a.how, crate::lower::driver::How::Built(_)))
        };
        if !self.program.driver_of(m).is_some_and(|d| builds(d)) {
            return Ok(None);
        }
        let inputs = crate::config::Inputs::Api { max_calls: *max_calls, methods: methods.clone() };
        let mut pace = Pace::new(covered, &self.program.table, self.program.table.method(m).owner, share);
        self.explore_inputs(m, strategy, explore, share.cap, &inputs, Some(&mut pace), &mut |_, _, _| Ok(true))
            .map(Some)
    }
}

/// One trace per path of the method under test, with `--inputs api`: the first whose input
/// a test can build (a model, no identity hash to choose) and takes [`TEST_CALLS`] calls or
/// more, else the first a test can build, else the first (the cut traces stay, for the report).
fn keep_sequence_tests(d: &crate::lower::driver::Driver, traces: &mut Vec<crate::machine::Trace>) {
    use std::collections::HashMap;
    let mut chosen: HashMap<u128, (usize, (bool, bool))> = HashMap::new();
    for (k, t) in traces.iter().enumerate().filter(|(_, t)| t.kind != TraceKind::Cut) {
        let rank = (t.concrete.is_some() && !t.constrains_identity_hash(), junit::sequence_calls(d, t) >= TEST_CALLS);
        let entry = chosen.entry(path_digest(&t.path)).or_insert((k, rank));
        if rank > entry.1 {
            *entry = (k, rank);
        }
    }
    let keep: HashSet<usize> = chosen.values().map(|(k, _)| *k).collect();
    let mut k = 0;
    traces.retain(|t| {
        k += 1;
        t.kind == TraceKind::Cut || keep.contains(&(k - 1))
    });
}
