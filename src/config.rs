//! Every setting of an analysis run in one place, with documented defaults.
//!
//! The CLI builds a [`Config`] from its flags; library code receives it by reference.
//! Nothing below `main` reads the environment or global state.

use serde::Serialize;

/// The heap algorithm that materializes reference-typed inputs (../shared/DESIGN.md §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Strategy {
    /// Generalized symbolic execution with lazy initialization, as Symbolic PathFinder does it.
    Lazy,
    /// Lazier# initialization (Deng et al.).
    Lazier,
    /// The fully symbolic heap of uber-lazy symbolic execution.
    Uber,
    /// Path-optimal symbolic execution (Braione & Denaro).
    Pose,
}

impl Strategy {
    /// All strategies, in the order reports list them.
    pub const ALL: [Strategy; 4] = [Strategy::Lazy, Strategy::Lazier, Strategy::Uber, Strategy::Pose];

    pub fn name(self) -> &'static str {
        match self {
            Strategy::Lazy => "lazy",
            Strategy::Lazier => "lazier",
            Strategy::Uber => "uber",
            Strategy::Pose => "pose",
        }
    }

    pub fn parse(s: &str) -> Option<Strategy> {
        Strategy::ALL.into_iter().find(|x| x.name() == s)
    }
}

impl std::fmt::Display for Strategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The order in which pending states are explored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SearchOrder {
    /// Depth-first (default): keeps solver push/pop incremental and memory small.
    Dfs,
    /// Breadth-first.
    Bfs,
}

/// The exploration bounds. Every strategy uses the same bounds, and every report prints them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Bounds {
    /// Maximum program decisions (branch outcomes and exception edges) per trace.
    pub max_depth: u32,
    /// Maximum input objects materialized per trace.
    pub max_objects: u32,
    /// Maximum call depth (frames above the entry method).
    pub max_calls: u32,
    /// Wall-clock budget for the whole exploration, in seconds.
    pub time_limit_s: u64,
    /// Largest length of an input array (a restriction of the input domain, not a cut:
    /// models never pick longer arrays).
    pub max_array_length: u32,
    /// Maximum forks (decisions where more than one outcome was feasible) made inside the
    /// precondition (`--precondition`), counted apart from `max_depth` so that checking the
    /// input does not eat the method's budget. Forced decisions there are free up to
    /// [`PRE_FORCED_PER_FORK`] per allowed fork.
    pub precondition_depth: u32,
    /// Resident memory of the process, in MiB, above which an exploration stops (its
    /// pending states end as traces cut by `max-memory`).
    pub max_memory_mb: u64,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            max_depth: DEFAULT_MAX_DEPTH,
            max_objects: DEFAULT_MAX_OBJECTS,
            max_calls: DEFAULT_MAX_CALLS,
            time_limit_s: DEFAULT_TIME_LIMIT_S,
            max_array_length: DEFAULT_MAX_ARRAY_LENGTH,
            precondition_depth: DEFAULT_PRECONDITION_DEPTH,
            max_memory_mb: DEFAULT_MAX_MEMORY_MB,
        }
    }
}

/// Default of `--precondition-depth`.
pub const DEFAULT_PRECONDITION_DEPTH: u32 = 12;

/// Forced decisions (one feasible outcome) the precondition may make per fork it is
/// allowed: a guard against a precondition that loops on concrete values.
pub const PRE_FORCED_PER_FORK: u64 = 16;

/// Default of `--max-array-length`.
pub const DEFAULT_MAX_ARRAY_LENGTH: u32 = 16;

/// Default of `--max-depth`.
pub const DEFAULT_MAX_DEPTH: u32 = 50;
/// Default of `--max-objects`.
pub const DEFAULT_MAX_OBJECTS: u32 = 64;
/// Default of `--max-calls`.
pub const DEFAULT_MAX_CALLS: u32 = 32;
/// Default of `--time-limit` (seconds).
pub const DEFAULT_TIME_LIMIT_S: u64 = 300;
/// Default of `--max-memory` (MiB) where the machine's memory is not known; the CLI's
/// default is half of the machine's memory, at most this ([`crate::budget::default_max_memory_mb`]).
pub const DEFAULT_MAX_MEMORY_MB: u64 = 4096;
/// Default per-query solver timeout in milliseconds (`--solver-timeout`).
pub const DEFAULT_SOLVER_TIMEOUT_MS: u32 = 10_000;

/// One analysis run's settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Config {
    pub strategy: Strategy,
    pub bounds: Bounds,
    pub search: SearchOrder,
    /// Static fields are symbolic inputs instead of starting from the class initializer.
    pub symbolic_statics: bool,
    /// Calls to code that is neither on the class path nor modelled return a fresh symbolic
    /// value (reported in the trace) instead of failing.
    pub havoc_unknown: bool,
    /// Replay every trace's concrete input through the machine and fail on disagreement.
    pub check_models: bool,
    /// Per-query solver timeout in milliseconds; a timeout is `unknown`, never `unsat`.
    pub solver_timeout_ms: u32,
    /// A boolean no-argument method of the receiver's class that must return true on the
    /// input (e.g. `repOK`); traces where it does not are dropped.
    pub precondition: Option<String>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            strategy: Strategy::Lazy,
            bounds: Bounds::default(),
            search: SearchOrder::Dfs,
            symbolic_statics: false,
            havoc_unknown: false,
            check_models: false,
            solver_timeout_ms: DEFAULT_SOLVER_TIMEOUT_MS,
            precondition: None,
        }
    }
}
