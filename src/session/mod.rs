//! The library pipeline: a class path and a [`Config`] in; explorations, reports and test
//! sources out, as plain values.
//!
//! A [`Session`] loads the class path once, resolves what a user names (`pkg.Class`,
//! `pkg.Class#method`, `pkg.Class#method(descriptor)`), lowers what a run may reach, and
//! runs the stages in order: [`Session::explore`] (machine + strategy + solver → traces and
//! counts) and [`Session::generate`] (exploration → inputs → JUnit sources). It writes no
//! file and prints nothing: the CLI (or a Rust caller, or a test) decides what to do with
//! what comes back. Progress of long runs goes to an optional hook ([`Session::on_progress`]).

mod frontend;
mod generate;

use crate::classfile::{ClassPath, ClassTable, JType, MethodDesc, MethodId};
use crate::config::{Config, Strategy};
use crate::heap::{lazier::Lazier, lazy::Lazy, pose::Pose, uber::Uber};
use crate::lower::Program;
use crate::machine::{RunResult, explore, replay};
use crate::report::{Summary, summarize};
use crate::solver::cache::ModelCache;
use crate::solver::z3::Z3Solver;
use crate::{Error, Result};

pub use crate::junit::Junit;
pub use crate::machine::Options as ExploreOptions;
pub use crate::report::classes::{ClassListing, LowerStatus, MethodListing};
pub use generate::{EmittedFile, GenOptions, Generated, GeneratedTests};

/// Where a long run is: the `index`-th (from 1) of `total` explorations is starting.
#[derive(Debug, Clone)]
pub struct Progress {
    pub index: usize,
    pub total: usize,
    /// `pkg.Class#name(desc)`.
    pub method: String,
    pub strategy: Strategy,
}

/// One method explored with one strategy: the traces and their counts.
#[derive(Debug, Clone)]
pub struct Exploration {
    pub result: RunResult,
    pub summary: Summary,
}

/// A loaded class path with the settings of every run made on it.
pub struct Session {
    program: Program,
    config: Config,
    progress: Option<Box<dyn FnMut(&Progress)>>,
}

impl Session {
    /// Opens a `:`-separated class path (jars, class directories, `.class` files) and loads
    /// every class on it.
    pub fn open(cp: &str, config: Config) -> Result<Session> {
        let path = ClassPath::open(cp)?;
        Ok(Session { program: Program::new(ClassTable::load(&path)?), config, progress: None })
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

    /// `pkg.Class#name(desc)` of a method.
    pub fn method_name(&self, m: MethodId) -> String {
        self.program.table.method_display(m)
    }

    /// Resolves method specs (`pkg.Class#method[(desc)]`) to methods, in order.
    pub fn methods(&self, specs: &[String]) -> Result<Vec<MethodId>> {
        specs.iter().map(|s| self.program.table.find_method(s)).collect()
    }

    /// What `gen` tests for each spec: a named method, or every method with code of a named
    /// class but its constructors and initializers; each method once, in order.
    pub fn targets(&self, specs: &[String]) -> Result<Vec<MethodId>> {
        let t = &self.program.table;
        let mut ms = Vec::new();
        for spec in specs {
            for m in t.find_methods(spec)? {
                let md = t.method(m);
                if md.has_code && !md.name.starts_with('<') && !ms.contains(&m) {
                    ms.push(m);
                }
            }
        }
        Ok(ms)
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
        self.prepare(methods)?;
        let total = methods.len() * strategies.len();
        let mut index = 0;
        for m in methods {
            for s in strategies {
                index += 1;
                self.report_progress(index, total, *m, *s);
                sink(self.explore_one(*m, *s, options)?)?;
            }
        }
        Ok(())
    }

    /// Explores one method with one strategy (the methods must be prepared).
    fn explore_one(&self, m: MethodId, strategy: Strategy, options: &ExploreOptions) -> Result<Exploration> {
        let config = Config { strategy, ..self.config.clone() };
        let result = analyze(&self.program, m, &config, options.clone())?;
        let summary = summarize(&result, &config, peak_mb());
        Ok(Exploration { result, summary })
    }

    fn report_progress(&mut self, index: usize, total: usize, m: MethodId, strategy: Strategy) {
        let method = self.program.table.method_display(m);
        if let Some(p) = &mut self.progress {
            p(&Progress { index, total, method, strategy });
        }
    }

    /// Lowers the methods and everything they (and their preconditions) may reach.
    fn prepare(&mut self, entries: &[MethodId]) -> Result<()> {
        let mut all = entries.to_vec();
        for e in entries {
            if let Some(p) = precondition(&self.program, *e, &self.config)? {
                all.push(p);
            }
        }
        self.program.lower_reachable(&all)
    }
}

/// The precondition method of `entry`'s class named by the config, if any.
fn precondition(program: &Program, entry: MethodId, config: &Config) -> Result<Option<MethodId>> {
    let Some(name) = &config.precondition else { return Ok(None) };
    let t = &program.table;
    let owner = t.method(entry).owner;
    let desc = MethodDesc { params: Vec::new(), ret: Some(JType::Boolean) };
    t.resolve_method(owner, name, &desc).map(Some).ok_or_else(|| Error::UnknownMethod {
        spec: format!("{}#{name}()Z (the precondition)", t.class(owner).java_name()),
        candidates: t.class(owner).methods.iter().map(|m| t.method_display(*m)).collect(),
    })
}

fn solver(config: &Config) -> ModelCache<Z3Solver> {
    ModelCache::new(Z3Solver::new(config.solver_timeout_ms))
}

/// Explores `method` with the configured strategy; with `check_models`, replays every trace.
///
/// Each call gets a Z3 context of its own, so that a method's traces, models and counts are
/// the same whether it runs alone or after other methods in one process.
fn analyze(program: &Program, method: MethodId, config: &Config, options: ExploreOptions) -> Result<RunResult> {
    crate::solver::z3::isolated(|| analyze_in_context(program, method, config, options))
}

fn analyze_in_context(
    program: &Program,
    method: MethodId,
    config: &Config,
    options: ExploreOptions,
) -> Result<RunResult> {
    let s = solver(config);
    let r = match config.strategy {
        Strategy::Lazy => explore(program, method, config, Lazy, s, options)?,
        Strategy::Lazier => explore(program, method, config, Lazier, s, options)?,
        Strategy::Uber => explore(program, method, config, Uber, s, options)?,
        Strategy::Pose => explore(program, method, config, Pose, s, options)?,
    };
    if config.check_models {
        replay::check_models(program, config, &r, || solver(config))?;
    }
    Ok(r)
}

/// Peak resident memory of this process in MiB (Linux `VmHWM`), 0 where unknown.
pub fn peak_mb() -> f64 {
    let Ok(s) = std::fs::read_to_string("/proc/self/status") else { return 0.0 };
    s.lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map(|kb| (kb / 1024.0 * 10.0).round() / 10.0)
        .unwrap_or(0.0)
}
