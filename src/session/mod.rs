//! The library pipeline: a class path and a [`Config`] in; explorations, reports and test
//! sources out, as plain values.
//!
//! A [`Session`] loads the class path once, resolves what a user names (`pkg.Class`,
//! `pkg.Class#method`, `pkg.Class#method(descriptor)`), lowers what a run may reach, and
//! runs the stages in order: [`Session::explore`] (machine + strategy + solver → traces and
//! counts) and [`Session::generate`] (exploration → inputs → JUnit sources). It writes no
//! file and prints nothing: the CLI (or a Rust caller, or a test) decides what to do with
//! what comes back. Progress of long runs goes to an optional hook ([`Session::on_progress`]).

mod covering;
mod frontend;
mod generate;
mod pace;
mod targets;

use crate::Result;
use crate::budget::{Budget, Stop, peak_mb};
use crate::classfile::ClassPath;
use crate::config::{Config, Inputs, ObjectInputs, Strategy};
use crate::heap::{HeapStrategy, lazier::Lazier, lazy::Lazy, pose::Pose, uber::Uber};
use crate::lower::Program;
use crate::machine::{RunResult, explore_into, replay};
use crate::report::{Summary, summarize};

pub use crate::classfile::{ClassTable, MethodId};
pub use crate::junit::Junit;
pub use crate::machine::Options as ExploreOptions;
pub use crate::machine::{RunInfo, Trace};
pub use crate::report::classes::{ClassListing, LowerStatus, MethodListing};
pub use generate::{
    EmittedFile, GenOptions, Generated, GeneratedTests, JAVA_OPTIONS_DIR, JAVA_OPTIONS_PATH, TestsPer,
    class_java_options_file, java_options_file,
};
pub use targets::Targets;

/// Where a long run is: the `index`-th (from 1) of `total` explorations is starting.
#[derive(Debug, Clone)]
pub struct Progress {
    pub index: usize,
    pub total: usize,
    /// `pkg.Class#name(desc)`.
    pub method: String,
    pub strategy: Strategy,
}

/// One method explored with one strategy: the traces (those the caller kept) and their counts.
#[derive(Debug, Clone)]
pub struct Exploration {
    pub result: RunResult,
    pub summary: Summary,
}

/// What a caller does with each trace as it ends (given the class table to name what it
/// prints); `Ok(true)` keeps it in the result.
pub type TraceSink<'a> = &'a mut dyn FnMut(&ClassTable, &RunInfo, &Trace) -> Result<bool>;

/// A loaded class path with the settings of every run made on it.
pub struct Session {
    program: Program,
    config: Config,
    /// Why a method has no call-sequence driver (`--inputs api`), by method.
    driver_errors: std::collections::BTreeMap<MethodId, crate::Error>,
    progress: Option<Box<dyn FnMut(&Progress)>>,
    stop: Stop,
    /// The budget of the whole session (`run` and `gen`: `--time-limit` from the start of the
    /// process): loading checks it, and no exploration's budget outlasts its deadline.
    process: Budget,
    /// The CRC-32 of each class file of the class path, by its origin (`x.jar!a/B.class`).
    class_crcs: std::collections::BTreeMap<String, u32>,
}

impl Session {
    /// Opens a `:`-separated class path (jars, class directories, `.class` files) and loads
    /// every class on it.
    pub fn open(cp: &str, config: Config) -> Result<Session> {
        Session::open_within(cp, config, Budget::unlimited(Stop::new()))
    }

    /// [`Session::open`] within `process`, the budget of the whole session: its stop switch
    /// is the session's, loading ends with [`crate::Error::Halted`] once it is spent, and
    /// every exploration ends by its deadline at the latest.
    pub fn open_within(cp: &str, config: Config, process: Budget) -> Result<Session> {
        let path = ClassPath::open_within(cp, Some(&process))?;
        let table = ClassTable::load_with_jdk_within(&path, config.jdk.as_deref(), Some(&process))?;
        let class_crcs = path.sources().iter().map(|s| (s.origin.clone(), crc32fast::hash(&s.bytes))).collect();
        Ok(Session {
            class_crcs,
            program: Program::new(table),
            config,
            driver_errors: Default::default(),
            progress: None,
            stop: process.stop.clone(),
            process,
        })
    }

    /// The CRC-32 of the bytes of the class file `class` (binary name, Java form) was loaded
    /// from, when it came from the class path: what a rerun compares to skip an unchanged class.
    pub fn class_file_crc(&self, class: &str) -> Option<u32> {
        let table = self.table();
        let origin = table.class(table.lookup(class)?).origin.as_ref()?;
        self.class_crcs.get(origin).copied()
    }

    /// The switch that stops every run of this session (a signal handler turns it on): the
    /// run in progress ends at once, its pending states reported as cut (`interrupted`),
    /// and no further run starts.
    pub fn set_stop(&mut self, stop: Stop) {
        self.process.stop = stop.clone();
        self.stop = stop;
    }

    /// The budget of the whole session (see [`Session::open_within`]).
    pub fn process_budget(&self) -> &Budget {
        &self.process
    }

    /// Whether a stop was requested.
    pub fn stopped(&self) -> bool {
        self.stop.requested()
    }

    /// Why the session's own budget is spent, if it is: a stop request, or the deadline of
    /// the whole session (no further exploration starts then).
    pub fn halted(&self) -> Option<crate::budget::Halt> {
        self.process.halt()
    }

    /// Calls `f` before each exploration of a long run (`explore`, `generate`).
    pub fn on_progress(&mut self, f: impl FnMut(&Progress) + 'static) {
        self.progress = Some(Box::new(f));
    }

    /// The settings runs use (each run sets its own strategy).
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The loaded classes (for reports that name classes, fields and methods).
    pub fn table(&self) -> &ClassTable {
        &self.program.table
    }

    /// How many methods the session has lowered so far: those its runs reached, not every
    /// method they might call.
    pub fn lowered_methods(&self) -> usize {
        self.program.lowered()
    }

    /// `pkg.Class#name(desc)` of a method.
    pub fn method_name(&self, m: MethodId) -> String {
        self.program.table.method_display(m)
    }

    /// Resolves method specs (`pkg.Class#method[(desc)]`) to methods, in order.
    /// A method a class inherits is named through the class too (`Sub#m`).
    pub fn methods(&mut self, specs: &[String]) -> Result<Vec<MethodId>> {
        specs.iter().map(|s| self.program.table.find_target(s)).collect()
    }

    /// Explores every method with every strategy (methods outer, strategies inner).
    pub fn explore(
        &mut self,
        methods: &[MethodId],
        strategies: &[Strategy],
        options: &ExploreOptions,
    ) -> Result<Vec<Exploration>> {
        let mut out = Vec::with_capacity(methods.len() * strategies.len());
        self.explore_each(methods, strategies, options, |e| {
            out.push(e);
            Ok(())
        })?;
        Ok(out)
    }

    /// As [`Session::explore`], handing each exploration to `sink` as soon as it is done, so
    /// that a caller keeping only counts does not hold every trace. The first error stops.
    pub fn explore_each(
        &mut self,
        methods: &[MethodId],
        strategies: &[Strategy],
        options: &ExploreOptions,
        mut sink: impl FnMut(Exploration) -> Result<()>,
    ) -> Result<()> {
        self.prepare(methods, false)?;
        let total = methods.len() * strategies.len();
        let mut index = 0;
        for m in methods {
            for s in strategies {
                if self.halted().is_some() {
                    return Ok(());
                }
                index += 1;
                self.report_progress(index, total, *m, *s);
                sink(self.explore_one(*m, *s, options, self.time_limit(), &mut |_, _, _| Ok(true))?)?;
            }
        }
        Ok(())
    }

    /// Explores one method with one strategy, handing each trace to `on_trace` as soon as
    /// it ends (and, with `check_models`, after its model replayed); the result keeps the
    /// traces `on_trace` returns `true` for. For runs of many traces that a caller prints
    /// or counts as they come.
    pub fn explore_streaming(
        &mut self,
        m: MethodId,
        strategy: Strategy,
        options: &ExploreOptions,
        on_trace: TraceSink<'_>,
    ) -> Result<Exploration> {
        self.prepare(&[m], false)?;
        self.report_progress(1, 1, m, strategy);
        self.explore_one(m, strategy, options, self.time_limit(), on_trace)
    }

    /// `--time-limit` of one method and strategy.
    fn time_limit(&self) -> std::time::Duration {
        std::time::Duration::from_secs(self.config.bounds.time_limit_s)
    }

    /// Explores one method with one strategy (the methods must be prepared) within a budget
    /// of its own: `limit` and `--max-memory` from now, and the session's stop.
    fn explore_one(
        &self,
        m: MethodId,
        strategy: Strategy,
        options: &ExploreOptions,
        limit: std::time::Duration,
        on_trace: TraceSink<'_>,
    ) -> Result<Exploration> {
        self.explore_inputs(m, strategy, options, limit, &self.config.inputs, None, on_trace)
    }

    /// As [`Session::explore_one`] with the inputs built as `inputs` says (`Auto` explores
    /// heap inputs; `gen` asks for its call-built ones as `Api`); with a `pace`, the run ends
    /// before `limit` once it stalls.
    #[allow(clippy::too_many_arguments)]
    fn explore_inputs(
        &self,
        m: MethodId,
        strategy: Strategy,
        options: &ExploreOptions,
        limit: std::time::Duration,
        inputs: &Inputs,
        mut pace: Option<&mut pace::Pace<'_>>,
        on_trace: TraceSink<'_>,
    ) -> Result<Exploration> {
        let mut config = Config { strategy, inputs: inputs.clone(), ..self.config.clone() };
        // Models of call-built inputs are checked by the calls themselves.
        config.check_models &= !matches!(inputs, Inputs::Api { .. });
        if config.object_inputs == ObjectInputs::Auto {
            let table = &self.program.table;
            let owner = table.method(m).owner;
            let strings = table.fixes_string_argument(owner);
            config.object_inputs = if strings { ObjectInputs::String } else { ObjectInputs::Integer };
        }
        let process = &self.process;
        let time_limit_s = limit.as_millis().div_ceil(1000) as u64;
        let budget = Budget::until(
            Some(process.deadline),
            limit,
            time_limit_s.min(process.time_limit_s),
            config.bounds.max_memory_mb,
            self.stop.clone(),
        );
        config.bounds.time_limit_s = budget.time_limit_s;
        let options = ExploreOptions { budget: Some(budget.clone()), ..options.clone() };
        let entry = match &config.inputs {
            Inputs::Heap | Inputs::Auto { .. } => m,
            Inputs::Api { .. } => match (self.program.driver_of(m), self.driver_errors.get(&m)) {
                (Some(d), _) => d.method,
                (None, Some(e)) => return Err(e.clone()),
                (None, None) => {
                    return Err(crate::Error::Usage(format!("internal: no driver for {}", self.method_name(m))));
                }
            },
        };
        let sink = &mut |table: &ClassTable, info: &RunInfo, t: &Trace| {
            if let Some(p) = pace.as_deref_mut()
                && p.stalled(table, t)
            {
                budget.end_share();
            }
            on_trace(table, info, t)
        };
        let result = analyze(&self.program, entry, &config, options, &budget, sink)?;
        let summary = summarize(&result, &config, peak_mb());
        // A precondition that could not run rejected nothing: that is not a result.
        if let Some(p) = &config.precondition
            && result.tally.traces == 0
            && result.halted.is_none()
            && !summary.precondition_cut.is_empty()
        {
            let reasons: Vec<String> = summary.precondition_cut.iter().map(|(why, n)| format!("{why}: {n}")).collect();
            return Err(crate::Error::PreconditionCut {
                precondition: p.clone(),
                method: summary.method.clone(),
                reasons: reasons.join("; "),
            });
        }
        Ok(Exploration { result, summary })
    }

    fn report_progress(&mut self, index: usize, total: usize, m: MethodId, strategy: Strategy) {
        let method = self.program.table.method_display(m);
        if let Some(p) = &mut self.progress {
            p(&Progress { index, total, method, strategy });
        }
    }

    /// Lowers the methods and their preconditions, and installs the call-sequence drivers of `--inputs api` (of `auto` too when `tests`: only
    /// `gen` builds inputs both ways).
    fn prepare(&mut self, entries: &[MethodId], tests: bool) -> Result<()> {
        self.check_flags(entries, None)?;
        let mut all = entries.to_vec();
        all.extend(self.preconditions(entries)?);
        // The entries' own code must lower; what they call is lowered when a path reaches it.
        for m in all {
            self.program.lower(m)?;
        }
        let sequences = match &self.config.inputs {
            Inputs::Auto { .. } if !tests || self.config.precondition.is_some() => None,
            inputs => inputs.sequences(),
        };
        if let Some((max_calls, methods)) = sequences {
            for m in entries {
                let owner = self.program.table.method(*m).owner;
                let strings = match self.config.object_inputs {
                    ObjectInputs::String => true,
                    ObjectInputs::Auto => self.program.table.fixes_string_argument(owner),
                    ObjectInputs::Integer | ObjectInputs::Object => false,
                };
                let settings = crate::lower::driver::Settings { max_calls, methods: methods.to_vec(), strings };
                if let Err(e) = self.program.install_driver(*m, &settings) {
                    self.driver_errors.insert(*m, e);
                }
            }
        }
        Ok(())
    }
}

/// Explores `method` with the configured strategy; with `check_models`, replays each trace
/// as it ends (while the budget lasts), before `on_trace` sees it.
fn analyze(
    program: &Program,
    method: MethodId,
    config: &Config,
    options: ExploreOptions,
    budget: &Budget,
    on_trace: TraceSink<'_>,
) -> Result<RunResult> {
    match config.strategy {
        Strategy::Lazy => analyze_with(Lazy, program, method, config, options, budget, on_trace),
        Strategy::Lazier => analyze_with(Lazier, program, method, config, options, budget, on_trace),
        Strategy::Uber => analyze_with(Uber, program, method, config, options, budget, on_trace),
        Strategy::Pose => analyze_with(Pose, program, method, config, options, budget, on_trace),
    }
}

/// [`analyze`] with `strategy`, whose solver hints set up every solver chain of the run (the
/// exploration's and each replay's).
///
/// Each call gets a Z3 context of its own, so that a method's traces, models and counts are
/// the same whether it runs alone or after other methods in one process; a watchdog
/// interrupts a query in flight when the budget runs out.
fn analyze_with<H: HeapStrategy>(
    strategy: H,
    program: &Program,
    method: MethodId,
    config: &Config,
    options: ExploreOptions,
    budget: &Budget,
    on_trace: TraceSink<'_>,
) -> Result<RunResult> {
    let hints = strategy.solver_hints(config.precondition.is_some());
    let solver = || crate::solver::z3::chain(config.solver_timeout_ms, hints, budget.interrupt.clone());
    crate::solver::z3::isolated(budget, || {
        let sink = &mut |info: &RunInfo, t: &Trace| {
            if config.check_models && budget.halt().is_none() {
                replay::check_trace(program, config, info, t, solver(), budget)?;
            }
            on_trace(&program.table, info, t)
        };
        explore_into(program, method, config, strategy, solver(), options, sink)
    })
}
