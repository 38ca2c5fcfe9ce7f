//! The symbolic machine: runs IR over symbolic values with a pluggable heap strategy.
//!
//! The machine owns frames, calls, control flow, exceptions and primitive arithmetic; a
//! [`HeapStrategy`] owns how input references become objects; a [`Solver`] decides
//! feasibility. The machine never imports z3, clap or the JUnit emitter. Java exceptions are
//! trace outcomes ([`Outcome::Exception`]); `Err` is reserved for engine faults.

mod arith;
mod boxes;
mod control;
mod exec;
mod explore;
mod invoke;
mod library;
mod objects;
mod options;
mod oracle;
pub mod pre_method;
mod precondition;
mod reached;
pub mod replay;
pub mod search;
mod sequence;
pub mod state;
mod stats;
mod strings;
mod trace;
mod undetermined;
mod witness;

use crate::budget::Budget;
use crate::classfile::MethodId;
use crate::config::Config;
use crate::heap::HeapStrategy;
use crate::lower::Program;
use crate::solver::Solver;
use crate::term::{TermId, TermPool};

pub use explore::{explore, explore_into};
pub use options::{Options, Prefer};
pub use sequence::driver_decisions;
pub use stats::{SequenceStats, Stats};
pub use trace::{
    Choice, Decision, IDENTITY_HASH, IDENTITY_HASH_NOTE, Outcome, PcText, RunInfo, RunResult, Tally, Trace, TraceKind,
    path_digest, path_in_source,
};

/// The machine: program, strategy, solver and the term pool of one exploration.
pub struct Machine<'p, H: HeapStrategy, S: Solver> {
    pub program: &'p Program,
    pub strategy: H,
    pub solver: S,
    pub terms: TermPool,
    pub config: &'p Config,
    pub options: Options,
    pub stats: Stats,
    pub budget: Budget,
    /// The valid-input search, when `--precondition` turns the validity oracle on
    /// (`precondition.rs`).
    pub(crate) valid: Option<oracle::ValidInputSearch>,
    /// The entry method of the run.
    pub(crate) entry: Option<MethodId>,
    /// The declared types of the entry's arguments (receiver first).
    pub(crate) arg_types: Vec<crate::classfile::JType>,
    /// States a step ended on the side (a fork side no P-search could settle, an index
    /// over identity hash codes), for the run loop to report.
    pub(crate) aside: Vec<state::Next<H>>,
    /// The budget's halt, once a trace has been cut by it: a run whose last pending states
    /// ended cut by the time limit (in a P-search, say) halted, though its loop ran dry.
    pub(crate) budget_cut: std::cell::Cell<Option<crate::budget::Halt>>,
    /// Path-condition entries already printed, by term id, with the value names they were
    /// printed with: traces share prefixes, so each entry is printed once.
    pub(crate) printed: (Vec<String>, std::collections::HashMap<TermId, std::rc::Rc<str>>),
    /// The paths whose first trace got a preferred model (`Prefer::FirstOfPath`).
    pub(crate) preferred: std::collections::HashSet<u128>,
    /// The JDK method whose model is running: an exception the model raises is raised inside
    /// it, so the path records the call first (else a null argument's NullPointerException
    /// and a null receiver's would be one path with two traces).
    pub(crate) in_model: Option<String>,
    /// The call-sequence driver the run explores (`--inputs api`), when the entry is one.
    pub(crate) driver: Option<std::rc::Rc<crate::lower::driver::Driver>>,
    /// The states call-sequence prefixes reached, to prune those they subsume.
    pub(crate) reached: reached::Reached,
}
