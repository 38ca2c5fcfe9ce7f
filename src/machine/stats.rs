//! The counters of one exploration.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::solver::SolverStats;

/// Counters of one exploration.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Stats {
    pub solver: SolverStats,
    /// States dropped because no input within the scope satisfies the precondition there.
    pub rejected: u64,
    /// P-searches run to settle forks and trace ends (`--precondition`).
    pub pre_searches: u64,
    /// Time spent in P-searches (those that settle forks and those that give tests their
    /// inputs), in microseconds.
    pub pre_us: u64,
    /// States dropped because they need an input object beyond the scope (`--max-objects`
    /// under `--precondition`, where the scope is the input domain).
    pub beyond_scope: u64,
    /// The most decisions the precondition made on an input it accepted (compare with
    /// `--precondition-fuse`).
    pub pre_max_decisions: u32,
    /// The most steps a P-search took that settled its question (compare with
    /// `--precondition-steps`).
    pub pre_max_steps: u64,
    /// Runs of the precondition that a bound, a missing model or an unsupported instruction
    /// cut, by reason: such an input is not accepted, but the precondition did not reject
    /// it either (the scope and the fuse, which decide validity, are not counted).
    pub pre_cut: BTreeMap<crate::cut::CutReason, u64>,
    pub time_ms: u64,
    /// Instructions executed over all states.
    pub steps: u64,
    /// Call-sequence prefixes (`--inputs api`).
    pub sequence: SequenceStats,
}

/// Counters of a call-sequence run.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SequenceStats {
    /// The names of the methods a step may call (`--sequence-methods`, or chosen), each once.
    pub methods: Vec<String>,
    /// Prefixes whose state was kept (compared and new).
    pub prefixes: u64,
    /// Prefixes pruned: their state equals one an earlier prefix of at most as many calls reached.
    pub pruned: u64,
    /// Prefixes dropped because a call of theirs threw.
    pub threw: u64,
}
