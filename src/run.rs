//! The library's front door: load a class path, lower what a run needs, explore with Z3.

use crate::classfile::{ClassPath, ClassTable, JType, MethodDesc, MethodId};
use crate::config::{Config, Strategy};
use crate::heap::{lazier::Lazier, lazy::Lazy, pose::Pose, uber::Uber};
use crate::lower::Program;
use crate::machine::{Options, RunResult, explore, replay};
use crate::solver::cache::ModelCache;
use crate::solver::z3::Z3Solver;
use crate::{Error, Result};

/// Opens a `:`-separated class path and loads every class on it.
pub fn load(cp: &str) -> Result<Program> {
    let path = ClassPath::open(cp)?;
    Ok(Program::new(ClassTable::load(&path)?))
}

/// Resolves `pkg.Class#method[(desc)]` specs to method ids, in order.
pub fn methods(program: &Program, specs: &[String]) -> Result<Vec<MethodId>> {
    specs.iter().map(|s| program.table.find_method(s)).collect()
}

/// The precondition method of `entry`'s class named by the config, if any.
pub fn precondition(program: &Program, entry: MethodId, config: &Config) -> Result<Option<MethodId>> {
    let Some(name) = &config.precondition else { return Ok(None) };
    let t = &program.table;
    let owner = t.method(entry).owner;
    let desc = MethodDesc { params: Vec::new(), ret: Some(JType::Boolean) };
    t.resolve_method(owner, name, &desc).map(Some).ok_or_else(|| Error::UnknownMethod {
        spec: format!("{}#{name}()Z (the precondition)", t.class(owner).java_name()),
        candidates: t.class(owner).methods.iter().map(|m| t.method_display(*m)).collect(),
    })
}

/// Lowers the methods and everything they (and their preconditions) may reach.
pub fn prepare(program: &mut Program, entries: &[MethodId], config: &Config) -> Result<()> {
    let mut all = entries.to_vec();
    for e in entries {
        if let Some(p) = precondition(program, *e, config)? {
            all.push(p);
        }
    }
    program.lower_reachable(&all)
}

fn solver(config: &Config) -> ModelCache<Z3Solver> {
    ModelCache::new(Z3Solver::new(config.solver_timeout_ms))
}

/// Explores `method` with the configured strategy; with `check_models`, replays every trace.
///
/// Each call gets a Z3 context of its own, so that a method's traces, models and counts are
/// the same whether it runs alone or after other methods in one process.
pub fn analyze(program: &Program, method: MethodId, config: &Config, options: Options) -> Result<RunResult> {
    crate::solver::z3::isolated(|| analyze_in_context(program, method, config, options))
}

fn analyze_in_context(program: &Program, method: MethodId, config: &Config, options: Options) -> Result<RunResult> {
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
