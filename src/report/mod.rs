//! Reports of runs: counts, the text listing, stable JSON, comparison tables, heap pictures.

pub mod classes;
pub mod json;
pub mod table;
pub mod text;

use serde::Serialize;

use crate::config::{Bounds, Config};
use crate::machine::{Decision, RunResult};

/// The counts of one run, as every report shows them.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    pub method: String,
    pub strategy: String,
    pub bounds: Bounds,
    pub traces: usize,
    /// Distinct program paths.
    pub paths: usize,
    /// Traces ending in an uncaught exception.
    pub exceptional: usize,
    /// Traces cut by a bound.
    pub cut: usize,
    pub solver_queries: u64,
    /// Queries answered by the solver chain.
    pub cache_hits: u64,
    /// Of `cache_hits`: answered by a repaired model, and refuted without the solver.
    pub repaired: u64,
    pub refuted: u64,
    /// Milliseconds the run took, from its start to its last trace (`run` leaves out the time
    /// its writes to stdout took: a reader slow to read a pipe is not the run's time).
    pub time_ms: u64,
    /// Milliseconds spent inside the underlying solver (Z3), a part of `time_ms`.
    pub solver_ms: u64,
    /// Milliseconds spent answering the exploration's satisfiability checks, the cache's
    /// work and the solver's together, a part of `time_ms`.
    pub check_ms: u64,
    /// Queries (and their milliseconds, a part of `time_ms`) that chose the models of
    /// finished traces among those of their path conditions: not in `solver_queries`.
    pub model_queries: u64,
    pub model_ms: u64,
    pub peak_mb: f64,
    /// States dropped because the precondition did not hold.
    pub rejected: u64,
    /// Traces on which the solver answered `unknown` at least once.
    pub unknown: usize,
    /// Why the run stopped before exploring everything (`time-limit (10s)`, `interrupted`,
    /// `max-memory (4096 MB)`); its pending states are the traces cut for that reason.
    pub halted: Option<crate::cut::CutReason>,
    /// With `--precondition`: P-searches run, states dropped as beyond the scope, and the
    /// most decisions the precondition made on an input it accepted.
    pub pre_searches: u64,
    /// Milliseconds spent in P-searches, a part of `time_ms`.
    pub pre_ms: u64,
    pub beyond_scope: u64,
    pub pre_max_decisions: u32,
    /// The most steps one P-search took to settle (`--precondition-steps` cuts a search
    /// that needs more).
    pub pre_max_steps: u64,
    /// With `--inputs api`: the call-sequence prefixes kept, pruned and dropped.
    pub sequences: Option<crate::machine::SequenceStats>,
    /// Runs of the precondition cut by something other than the scope or the fuse, by reason
    /// (`precondition_cut`; empty without a precondition or when none was cut).
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub precondition_cut: std::collections::BTreeMap<String, u64>,
    /// Finished traces whose input has an array argument, by the length of the longest
    /// (empty when no input has one, or no model was read).
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub array_lengths: std::collections::BTreeMap<usize, usize>,
}

impl Summary {
    /// How many finished traces take an input array of the largest length
    /// `--max-array-length` allows, when that is half or more of those with an array: the bound, not
    /// the method's logic, makes most of the run (a loop over the array forks at each element).
    pub fn longest_arrays_dominate(&self) -> Option<usize> {
        let total: usize = self.array_lengths.values().sum();
        let at_bound = self.array_lengths.get(&(self.bounds.max_array_length as usize)).copied().unwrap_or(0);
        (total >= 8 && 2 * at_bound >= total).then_some(at_bound)
    }
}

/// Counts a run.
pub fn summarize(r: &RunResult, config: &Config, peak_mb: f64) -> Summary {
    Summary {
        method: r.method.clone(),
        strategy: r.strategy.clone(),
        bounds: config.bounds,
        traces: r.tally.traces,
        paths: r.tally.paths(),
        exceptional: r.tally.exceptional,
        cut: r.tally.cut,
        solver_queries: r.stats.solver.queries,
        cache_hits: r.stats.solver.cache_hits,
        repaired: r.stats.solver.repaired,
        refuted: r.stats.solver.refuted,
        time_ms: r.stats.time_ms,
        solver_ms: r.stats.solver.solver_us / 1000,
        check_ms: r.stats.solver.check_us / 1000,
        model_queries: r.stats.solver.model_queries,
        model_ms: r.stats.solver.model_us / 1000,
        peak_mb,
        rejected: r.stats.rejected,
        unknown: r.tally.unknown,
        halted: r.halted.map(|h| h.reason()),
        pre_searches: r.stats.pre_searches,
        pre_ms: r.stats.pre_us / 1000,
        beyond_scope: r.stats.beyond_scope,
        pre_max_decisions: r.stats.pre_max_decisions,
        pre_max_steps: r.stats.pre_max_steps,
        sequences: match config.inputs {
            crate::config::Inputs::Api { .. } => Some(r.stats.sequence.clone()),
            crate::config::Inputs::Heap | crate::config::Inputs::Auto { .. } => None,
        },
        array_lengths: r.tally.array_lengths.clone(),
        precondition_cut: r.stats.pre_cut.iter().map(|(why, n)| (why.to_string(), *n)).collect(),
    }
}

/// A program path as text: `@4:true @9:NullPointerException`.
pub fn path_text(path: &[Decision]) -> String {
    use crate::machine::Choice;
    if path.is_empty() {
        return "(no decisions)".into();
    }
    path.iter()
        .map(|d| {
            let c = match &d.choice {
                Choice::Branch(b) => b.to_string(),
                Choice::Case(Some(k)) => format!("case {k}"),
                Choice::Case(None) => "default".into(),
                Choice::Throw(e) => e.rsplit('.').next().unwrap_or(e).to_string(),
                Choice::Dispatch(m) => format!("-> {m}"),
                Choice::Index(i) => format!("index {i}"),
            };
            format!("@{}:{c}", d.pc)
        })
        .collect::<Vec<_>>()
        .join(" ")
}
