//! What one exploration is asked for beyond the config: limits, output and preferred models.

use crate::budget::Budget;

/// Options of one exploration beyond [`crate::config::Config`].
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The limits of the run (a deadline, a stop request, memory); by default the config's
    /// time and memory limits from the start of the run.
    pub budget: Option<Budget>,
    /// Record the final heap of every trace as Graphviz source.
    pub dot: bool,
    /// The caller shows counts only (`compare` without `--check-models`): traces get no
    /// path-condition text and no concrete input.
    pub counts_only: bool,
    /// Which finished traces get an input chosen to tell behaviours apart
    /// ([`crate::solver::Solver::model_preferring`]); the others get the solver's first model.
    pub prefer: Prefer,
}

/// Which finished traces get a preferred model: the preference costs several solver queries
/// per trace, so it is spent on the traces that become tests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Prefer {
    /// None (`run`, `compare`): inputs are only shown.
    #[default]
    Never,
    /// The first finished trace of each program path (`gen`, one test per path).
    FirstOfPath,
    /// Every finished trace (`gen --tests per-trace`).
    Every,
}
