//! The symbolic machine: runs IR over symbolic values with a pluggable heap strategy.
//!
//! The machine owns frames, calls, control flow, exceptions and primitive arithmetic; a
//! [`HeapStrategy`] owns how input references become objects; a [`Solver`] decides
//! feasibility. The machine never imports z3, clap or the JUnit emitter. Java exceptions are
//! trace outcomes ([`Outcome::Exception`]); `Err` is reserved for engine faults.

mod arith;
mod control;
mod exec;
mod explore;
mod invoke;
mod library;
mod objects;
pub mod replay;
pub mod search;
pub mod state;

use std::time::Instant;

use serde::Serialize;

use crate::classfile::{ClassId, MethodId};
use crate::config::Config;
use crate::heap::{Concrete, HeapStrategy, Value};
use crate::lower::Program;
use crate::solver::{Solver, SolverStats};
use crate::term::{Term, TermPool};

pub use explore::explore;

/// What a program decision chose.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Choice {
    /// A two-way branch: taken (`true`) or not.
    Branch(bool),
    /// A switch: the matching case key, or `None` for the default.
    Case(Option<i32>),
    /// An exception edge: the exception class raised at this instruction.
    Throw(String),
    /// Virtual dispatch at a polymorphic call site: the selected method.
    Dispatch(String),
    /// A symbolic index into a reference array, concretized to this value.
    Index(i64),
}

/// One program decision: where (method and bytecode offset) and what.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Decision {
    #[serde(skip)]
    pub method: MethodId,
    pub pc: u32,
    pub choice: Choice,
}

/// How a trace ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome<R> {
    /// Normal return, with the value for non-void methods.
    Return(Option<Value<R>>),
    /// An uncaught exception of this class.
    Exception(ClassId),
    /// A bound cut the trace (`max-depth`, `max-objects`, `max-calls`, `time-limit`).
    Cut(String),
}

/// A finished trace, independent of the strategy that produced it.
#[derive(Debug, Clone)]
pub struct Trace {
    pub id: usize,
    pub kind: TraceKind,
    /// The return value (symbolic, as text) of a normal return of a non-void method.
    pub value: Option<String>,
    /// The exception class (Java name) of an exceptional trace.
    pub exception: Option<String>,
    /// The bound that cut the trace.
    pub cut: Option<String>,
    pub path: Vec<Decision>,
    /// How many decisions at the start of `path` the `--precondition` method made.
    pub pre_decisions: usize,
    pub pc: Vec<Term>,
    /// The path condition as text (heap choices named).
    pub pc_text: PcText,
    /// The concrete input/output from a model of the path condition (`None` if the solver
    /// gave up on it).
    pub concrete: Option<Concrete>,
    /// Some feasibility check on this trace answered `unknown`.
    pub unknown: bool,
    pub notes: Vec<String>,
    /// Graphviz source of the final heap (when asked for).
    pub dot: Option<String>,
}

/// A path condition as text: one printed part per entry, joined with ` && ` only when
/// shown, so traces share the parts of their common prefix and a run that shows no path
/// condition (`compare`) never joins them.
#[derive(Debug, Clone, Default)]
pub struct PcText(pub Vec<std::rc::Rc<str>>);

impl std::fmt::Display for PcText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.is_empty() {
            return f.write_str("true");
        }
        for (i, part) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" && ")?;
            }
            f.write_str(part)?;
        }
        Ok(())
    }
}

/// The three kinds of trace ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TraceKind {
    Return,
    Exception,
    Cut,
}

/// Counters of one exploration.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Stats {
    pub solver: SolverStats,
    /// States dropped because the precondition did not hold.
    pub rejected: u64,
    pub time_ms: u64,
    /// Instructions executed over all states.
    pub steps: u64,
}

/// The result of exploring one method with one strategy.
#[derive(Debug, Clone)]
pub struct RunResult {
    /// `pkg.Class#name(desc)`.
    pub method: String,
    pub method_id: MethodId,
    pub strategy: String,
    pub traces: Vec<Trace>,
    pub stats: Stats,
    /// The entry method's argument names (receiver first).
    pub arg_names: Vec<String>,
}

/// Options of one exploration beyond [`Config`].
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Record the final heap of every trace as Graphviz source.
    pub dot: bool,
    /// The caller shows counts only (`compare` without `--check-models`): traces get no
    /// path-condition text and no concrete input.
    pub counts_only: bool,
}

/// The machine: program, strategy, solver and the term pool of one exploration.
pub struct Machine<'p, H: HeapStrategy, S: Solver> {
    pub program: &'p Program,
    pub strategy: H,
    pub solver: S,
    pub terms: TermPool,
    pub config: &'p Config,
    pub options: Options,
    pub stats: Stats,
    pub start: Instant,
    /// Path-condition entries already printed, by term id, with the value names they were
    /// printed with: traces share prefixes, so each entry is printed once.
    pub(crate) printed: (Vec<String>, std::collections::HashMap<u32, std::rc::Rc<str>>),
}
