//! The solver layer: a [`Solver`] trait the machine talks to, and its implementations.
//!
//! `z3/` is the only module of the crate that imports `z3`. [`chain::Chain`] puts layers in
//! front of any solver (KLEE-style): the plain refutation of a fork's side ([`plain`]),
//! recent models, model repair, known unsatisfiable sets, unit propagation and constraint
//! independence each answer the queries they can, and only the rest reach the solver; the
//! `chain` function of `z3/` builds the chain over Z3 with a strategy's [`Hints`].
//! `unknown` (including a timeout) is always reported as such and never read as
//! unsatisfiable.

pub mod chain;
pub mod constant;
pub mod plain;
mod repair;
pub mod z3;

use crate::term::{Assignment, Term, Val};

pub use crate::term::common_prefix;

/// The answer to a satisfiability query.
#[derive(Debug, Clone, PartialEq)]
pub enum SatResult {
    /// Satisfiable, with a model of the scalar symbols (arrays are read with `values`).
    Sat(Assignment),
    Unsat,
    /// The solver gave up (timeout, incompleteness); the reason is kept for the report.
    Unknown(String),
}

/// Counters every solver keeps; they end up in every report.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct SolverStats {
    /// Queries sent to the underlying solver.
    pub queries: u64,
    /// Queries answered by the chain's layers without calling the solver.
    pub cache_hits: u64,
    /// Of `cache_hits`: queries answered by a repaired model, and unsatisfiable queries
    /// refuted by a known unsatisfiable set or unit propagation (the rest: a recent model).
    pub repaired: u64,
    pub refuted: u64,
    pub unknown: u64,
    /// Time spent inside the underlying solver, in microseconds.
    pub solver_us: u64,
    /// Queries spent choosing the models of finished traces among those of their path
    /// conditions ([`Solver::model_preferring`]), and their time: not part of `queries`
    /// and `solver_us`, which count what exploring the paths cost.
    pub model_queries: u64,
    pub model_us: u64,
    /// Time spent answering `check` queries, the cache's work and the solver's together, in
    /// microseconds.
    pub check_us: u64,
}

impl std::ops::AddAssign for SolverStats {
    /// The counts of two solvers (or runs) together.
    fn add_assign(&mut self, o: SolverStats) {
        self.queries += o.queries;
        self.cache_hits += o.cache_hits;
        self.repaired += o.repaired;
        self.refuted += o.refuted;
        self.unknown += o.unknown;
        self.solver_us += o.solver_us;
        self.model_queries += o.model_queries;
        self.model_us += o.model_us;
        self.check_us += o.check_us;
    }
}

/// Where a query comes from, when one program point asks many (a P-search's forks at one
/// statement of the precondition, by call depth): a solver that guesses how to answer may
/// learn it by site.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Site(pub u64);

/// What a heap strategy tells the solver about its path conditions
/// ([`crate::heap::HeapStrategy::solver_hints`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hints {
    /// Whether a comparison of if-then-else operands is handed to the solver as the
    /// if-then-else of its leaves' comparisons: the atoms then compare fields, which the
    /// queries of a path share. Terms that nest if-then-else values deeply (POSE's
    /// P-searches) take longer to lift than to solve as they are.
    pub lift: bool,
    /// Whether a model values every symbol the solver has seen, not only those of its query:
    /// P-searches that name their symbols alike (POSE's) are led by such models down the
    /// paths an earlier search accepted.
    pub every_symbol: bool,
}

impl Default for Hints {
    /// Lifted comparisons, models of the query's symbols.
    fn default() -> Self {
        Hints { lift: true, every_symbol: false }
    }
}

/// A decision procedure for path conditions.
///
/// Calls pass the whole path condition; implementations keep what was asserted before and
/// only push/pop the difference (path conditions of a depth-first exploration share long
/// prefixes).
pub trait Solver {
    /// Is the conjunction of `pc` satisfiable?
    fn check(&mut self, pc: &[Term]) -> SatResult;
    /// Whether `pc ∧ extra` is plainly unsatisfiable, by the cheap refutation a fork's side
    /// gets before (or, inside a P-search, instead of) a check ([`plain::Plain`]); `extra`
    /// holds constraints not in `pc`. Not a query: nothing is counted. A solver without it
    /// refutes nothing.
    fn refutes(&mut self, pc: &[Term], extra: &[&Term]) -> bool {
        let _ = (pc, extra);
        false
    }
    /// [`Solver::check`] of a query asked from `site`.
    fn check_at(&mut self, pc: &[Term], site: Site) -> SatResult {
        let _ = site;
        self.check(pc)
    }
    /// Asks the underlying solver (never a cache) for a model of `pc` and pins it, so that
    /// [`Solver::eval`] can read further terms (array contents) from the same model.
    fn model(&mut self, pc: &[Term]) -> SatResult;
    /// As [`Solver::model`], but among the models of `pc` one that meets as many of the
    /// soft constraints `prefer` as it can, earlier ones first (greedily: the most wanted
    /// that can hold together with those before it). The model satisfies `pc` exactly; a
    /// solver without soft constraints gives any model.
    fn model_preferring(&mut self, pc: &[Term], prefer: &[Term]) -> SatResult {
        let _ = prefer;
        self.model(pc)
    }
    /// A model that may satisfy `pc` (a state's witness), known to satisfy `pc[..known]`: a
    /// solver that keeps models keeps it, with the prefix of `pc` it satisfies, for the
    /// queries that extend `pc` to meet or be repaired from.
    fn suggest(&mut self, m: &Assignment, pc: &[Term], known: usize) {
        let _ = (m, pc, known);
    }
    /// The values of `terms` in the model pinned by the last [`Solver::model`] call.
    fn eval(&mut self, terms: &[Term]) -> Option<Vec<Val>>;
    /// As [`Solver::eval`], with the bit-vector symbols of `with` valued as given instead
    /// (what a value would be had an undetermined symbol come out otherwise); `None` when the
    /// solver cannot say.
    fn eval_with(&mut self, terms: &[Term], with: &[(Term, u64)]) -> Option<Vec<Val>> {
        let _ = (terms, with);
        None
    }
    fn stats(&self) -> SolverStats;
}
