//! What a run produces: program decisions, trace ends, traces, their tally and the run's result.

use std::collections::{BTreeMap, HashSet};

use serde::Serialize;

use super::stats::Stats;
use crate::classfile::{ClassId, MethodId};
use crate::cut::CutReason;
use crate::heap::{Concrete, Value};
use crate::term::Term;

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

/// A program path in source terms, for messages: `AATree#contains line 34: true, ...`
/// (the bytecode offset where the class file has no line numbers).
pub fn path_in_source(table: &crate::classfile::ClassTable, path: &[Decision]) -> String {
    if path.is_empty() {
        return "(no decisions)".into();
    }
    let step = |d: &Decision| {
        let m = table.method(d.method);
        let class = table.class(m.owner).java_name();
        let simple = class.rsplit('.').next().unwrap_or(&class).to_string();
        let at = match m.source.line(d.pc) {
            Some(l) => format!("line {l}"),
            None => format!("offset {}", d.pc),
        };
        let what = match &d.choice {
            Choice::Branch(b) => format!("branch {b}"),
            Choice::Case(Some(k)) => format!("case {k}"),
            Choice::Case(None) => "default case".into(),
            Choice::Throw(e) => format!("throws {e}"),
            Choice::Dispatch(t) => format!("calls {t}"),
            Choice::Index(i) => format!("index {i}"),
        };
        format!("{simple}#{} {at}: {what}", m.name)
    };
    path.iter().map(step).collect::<Vec<_>>().join(", ")
}

/// How a trace ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome<R> {
    /// Normal return, with the value for non-void methods.
    Return(Option<Value<R>>),
    /// An uncaught exception of this class.
    Exception(ClassId),
    /// A bound, the budget or code the machine does not model cut the trace.
    Cut(CutReason),
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
    /// Why the trace was cut (set exactly for [`TraceKind::Cut`]).
    pub cut: Option<CutReason>,
    /// The program path of the method under test.
    pub path: Vec<Decision>,
    /// With `--inputs api`, the decisions of the call sequence that built the input (the
    /// driver's choices and the decisions of the calls before the method under test; the
    /// driver's last decision starts the method under test).
    pub prefix: Vec<Decision>,
    pub pc: Vec<Term>,
    /// The path condition as text (heap choices named).
    pub pc_text: PcText,
    /// The concrete input/output from a model of the path condition (`None` if the solver
    /// gave up on it).
    pub concrete: Option<Concrete>,
    /// Some feasibility check on this trace answered `unknown`.
    pub unknown: bool,
    pub notes: Vec<String>,
    /// The path holds for the model only at some identity hash codes, which the JVM picks:
    /// no test can make it happen on purpose (see [`Trace::constrains_identity_hash`]).
    pub hash_bound: bool,
    /// Graphviz source of the final heap (when asked for).
    pub dot: Option<String>,
}

impl Trace {
    /// The path condition as text, or `None` where it was not printed (runs that show only
    /// counts, and the states a halted run left pending).
    pub fn pc_shown(&self) -> Option<String> {
        (self.pc_text.0.len() == self.pc.len()).then(|| self.pc_text.to_string())
    }

    /// Whether the path condition constrains an identity hash code (`Object.hashCode` of a
    /// class that does not override it) in a way that matters for the trace's model: the JVM
    /// picks those, so no test can make the trace's path happen on purpose.
    pub fn constrains_identity_hash(&self) -> bool {
        self.hash_bound
    }
}

/// The name prefix of the symbol an identity hash code is (`identityHash0`, ...).
pub const IDENTITY_HASH: &str = "identityHash";

/// The note of a trace that asked for an identity hash code.
pub const IDENTITY_HASH_NOTE: &str = "identity hash code modelled as a fresh symbolic int";

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

/// What is known about a run from its start: the method, the strategy, the argument names.
#[derive(Debug, Clone)]
pub struct RunInfo {
    /// `pkg.Class#name(desc)`.
    pub method: String,
    pub method_id: MethodId,
    pub strategy: String,
    /// The entry method's argument names (receiver first).
    pub arg_names: Vec<String>,
}

/// The counts of a run's traces, kept as they stream by (so that a run need not hold them).
#[derive(Debug, Clone, Default)]
pub struct Tally {
    pub traces: usize,
    pub exceptional: usize,
    pub cut: usize,
    /// Traces on which the solver answered `unknown` at least once.
    pub unknown: usize,
    /// Distinct program paths, by a 128-bit digest of the path.
    paths: HashSet<u128>,
    /// The ids of the cut traces, by cut reason.
    pub cuts: BTreeMap<CutReason, Vec<usize>>,
    /// Finished traces whose input has an array argument, by the length of the longest.
    pub array_lengths: BTreeMap<usize, usize>,
}

impl Tally {
    /// Counts one trace.
    pub fn add(&mut self, t: &Trace) {
        self.traces += 1;
        match t.kind {
            TraceKind::Exception => self.exceptional += 1,
            TraceKind::Cut => {
                self.cut += 1;
                if let Some(why) = &t.cut {
                    self.cuts.entry(why.clone()).or_default().push(t.id);
                }
            }
            TraceKind::Return => {}
        }
        self.unknown += usize::from(t.unknown);
        self.paths.insert(path_digest(&t.path));
        if t.kind != TraceKind::Cut
            && let Some(n) = t.concrete.as_ref().and_then(longest_array_argument)
        {
            *self.array_lengths.entry(n).or_default() += 1;
        }
    }

    /// Distinct program paths.
    pub fn paths(&self) -> usize {
        self.paths.len()
    }

    /// Whether a trace with this path was counted.
    pub fn has_path(&self, path: &[Decision]) -> bool {
        self.paths.contains(&path_digest(path))
    }
}

/// The length of the longest array among the arguments of a trace's input.
fn longest_array_argument(c: &crate::heap::concrete::Concrete) -> Option<usize> {
    c.args
        .iter()
        .filter_map(|a| match a {
            crate::heap::concrete::CVal::Obj(i) => c.objects.get(*i),
            _ => None,
        })
        .filter(|o| matches!(o.kind, crate::heap::ObjKind::Array(_)))
        .map(|o| o.elems_before.len())
        .max()
}

/// A 128-bit digest of a program path (two independent 64-bit hashes).
pub fn path_digest(path: &[Decision]) -> u128 {
    use std::hash::{Hash, Hasher};
    let mut a = std::collections::hash_map::DefaultHasher::new();
    path.hash(&mut a);
    let mut b = std::collections::hash_map::DefaultHasher::new();
    (path.len(), 0x9e37_79b9_7f4a_7c15_u64).hash(&mut b);
    path.hash(&mut b);
    (u128::from(a.finish()) << 64) | u128::from(b.finish())
}

/// The result of exploring one method with one strategy.
#[derive(Debug, Clone)]
pub struct RunResult {
    /// `pkg.Class#name(desc)`.
    pub method: String,
    pub method_id: MethodId,
    pub strategy: String,
    /// The traces, in the order they ended (empty when they were streamed to a sink).
    pub traces: Vec<Trace>,
    pub tally: Tally,
    pub stats: Stats,
    /// The entry method's argument names (receiver first).
    pub arg_names: Vec<String>,
    /// Why the run stopped before exploring everything (time, interrupt, memory).
    pub halted: Option<crate::budget::Halt>,
}

impl RunResult {
    /// Takes in the traces and counts of `other`, another run of the same method (`gen`'s
    /// heap-input run after its call-built one): its traces follow, their ids shifted past
    /// this run's; counts and times add up; it halted if either did.
    pub fn absorb(&mut self, other: RunResult) {
        let offset = self.tally.traces.max(self.traces.iter().map(|t| t.id + 1).max().unwrap_or(0));
        let t = &mut self.tally;
        t.traces += other.tally.traces;
        t.exceptional += other.tally.exceptional;
        t.cut += other.tally.cut;
        t.unknown += other.tally.unknown;
        t.paths.extend(other.tally.paths);
        for (n, k) in other.tally.array_lengths {
            *t.array_lengths.entry(n).or_default() += k;
        }
        for (why, ids) in other.tally.cuts {
            t.cuts.entry(why).or_default().extend(ids.into_iter().map(|k| k + offset));
        }
        self.traces.extend(other.traces.into_iter().map(|t| Trace { id: t.id + offset, ..t }));
        let (s, o) = (&mut self.stats, other.stats);
        s.solver += o.solver;
        s.rejected += o.rejected;
        s.pre_searches += o.pre_searches;
        s.pre_us += o.pre_us;
        s.beyond_scope += o.beyond_scope;
        s.pre_max_decisions = s.pre_max_decisions.max(o.pre_max_decisions);
        s.pre_max_steps = s.pre_max_steps.max(o.pre_max_steps);
        for (why, n) in o.pre_cut {
            *s.pre_cut.entry(why).or_default() += n;
        }
        s.time_ms += o.time_ms;
        s.steps += o.steps;
        self.halted = self.halted.or(other.halted);
    }

    /// What is known about the run from its start.
    pub fn info(&self) -> RunInfo {
        RunInfo {
            method: self.method.clone(),
            method_id: self.method_id,
            strategy: self.strategy.clone(),
            arg_names: self.arg_names.clone(),
        }
    }
}
