//! Why a trace was cut: one table of every reason, with the text reports and JSON show.
//!
//! The machine, the heaps and the budget name a reason by its variant; its text
//! ([`std::fmt::Display`], also what JSON holds) is the only place the words live.
//! docs/usage.md ("Cut traces") lists every reason and when it happens.

use std::fmt;

use serde::{Serialize, Serializer};

/// Why a trace ended before its method returned or threw: a bound, the run's budget, or
/// code the machine does not model.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum CutReason {
    /// `max-depth (N)`: the trace would make more than `--max-depth` program decisions.
    MaxDepth(u32),
    /// `max-objects (N)`: the trace needs more than `--max-objects` input objects.
    MaxObjects(u32),
    /// `max-calls (N)`: a call would nest deeper than `--max-calls` frames.
    MaxCalls(u32),
    /// `precondition-fuse (N)`: the precondition made more than `--precondition-fuse`
    /// decisions on the input.
    PreconditionFuse(u32),
    /// `precondition-steps (N)`: the search for a valid input of this side ran out of
    /// `--precondition-steps` steps.
    PreconditionSteps(u64),
    /// `solver-unknown (precondition)`: the solver answered `unknown` on the path of the
    /// precondition that would have accepted the input.
    PreconditionUnknown,
    /// `time-limit (Ns)`: the run's `--time-limit` ran out with the trace still pending.
    TimeLimit(u64),
    /// `interrupted`: a stop was requested (Ctrl-C, SIGTERM) with the trace still pending.
    Interrupted,
    /// `max-memory (N MB)`: the process went over `--max-memory` with the trace still pending.
    MaxMemory(u64),
    /// `identity hash: ...`: an array index computed from an identity hash code, which the
    /// JVM picks and a test cannot.
    IdentityHashIndex,
    /// `no model: M is not on the class path ...`: a call to a method (shown as
    /// `pkg.Class#name(desc)`) with neither code nor a model, without `--havoc-unknown`.
    NoModel(String),
    /// `no model: M is native ...`: a call to a native method of the JDK (no bytecode) that no
    /// model covers, without `--havoc-unknown`.
    NativeWithoutModel(String),
    /// `no model: field F is not on the class path`: a field (shown as
    /// `pkg.Class.name:desc`) of a class neither on the class path nor modelled.
    NoModelField(String),
    /// `unsupported: ...`: code the machine does not run.
    Unsupported(Unsupported),
    /// `static F is unknown: ...`: a read of a static (shown as `pkg.Class.name`) that its
    /// class initializer had not computed when it reached code cut for the reason inside.
    UnknownStatic { field: String, why: Box<CutReason> },
    /// `undetermined: ...`: a branch, dereference or dispatch on the result of a call (shown
    /// as `pkg.Class#name(desc)`) that has neither code nor a model, whose value is unknown
    /// (a ⊥ value, carried while it is only stored or returned).
    Undetermined(String),
}

impl CutReason {
    /// Whether the reason is code the machine does not run (rather than a bound or the
    /// budget): a class initializer that meets it is abandoned instead of its trace.
    pub fn is_code_gap(&self) -> bool {
        matches!(
            self,
            CutReason::NoModel(_)
                | CutReason::NativeWithoutModel(_)
                | CutReason::NoModelField(_)
                | CutReason::Unsupported(_)
                | CutReason::IdentityHashIndex
                | CutReason::UnknownStatic { .. }
                | CutReason::Undetermined(_)
        )
    }
}

/// What of the code a trace reached the machine does not run.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Unsupported {
    /// Java's `%` on floats and doubles (C's `fmod`, not IEEE's remainder).
    FloatRemainder,
    /// An `invokedynamic` call site the lowering did not turn into code: its name and why.
    Invokedynamic { name: String, why: String },
    /// A field (shown as `pkg.Class.name:desc`) of a loaded class that lacks it: the JVM
    /// would throw `NoSuchFieldError`.
    UnresolvedField(String),
    /// A call to a method (shown as `pkg.Class#name(desc)`) the reachability pass did not lower.
    NotLowered(String),
    /// A call to an abstract or native method (shown as `pkg.Class#name(desc)`) of a loaded class.
    AbstractOrNative(String),
    /// The characters of a `String` the code computed (concatenation, `valueOf`, `toString`).
    ComputedString,
    /// A symbolic index into a reference array with more feasible values than this many.
    ManyIndexValues(usize),
    /// A callee whose lowering failed: the engine's error message (it names the method and
    /// the instruction).
    Lowering(String),
    /// State the JVM sets up at startup rather than a class initializer (`System.props`,
    /// `System.out`).
    JvmStartup,
}

impl fmt::Display for CutReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CutReason::MaxDepth(n) => write!(f, "max-depth ({n})"),
            CutReason::MaxObjects(n) => write!(f, "max-objects ({n})"),
            CutReason::MaxCalls(n) => write!(f, "max-calls ({n})"),
            CutReason::PreconditionFuse(n) => write!(f, "precondition-fuse ({n})"),
            CutReason::PreconditionSteps(n) => write!(f, "precondition-steps ({n})"),
            CutReason::PreconditionUnknown => f.write_str("solver-unknown (precondition)"),
            CutReason::TimeLimit(s) => write!(f, "time-limit ({s}s)"),
            CutReason::Interrupted => f.write_str("interrupted"),
            CutReason::MaxMemory(mb) => write!(f, "max-memory ({mb} MB)"),
            CutReason::IdentityHashIndex => f.write_str(
                "identity hash: an array index computed from an identity hash code, which a test cannot choose",
            ),
            CutReason::NoModel(m) => {
                write!(f, "no model: {m} is not on the class path (--havoc-unknown: a fresh result)")
            }
            CutReason::NativeWithoutModel(m) => {
                write!(f, "no model: {m} is native, without a model (--havoc-unknown: a fresh result)")
            }
            CutReason::NoModelField(field) => write!(f, "no model: field {field} is not on the class path"),
            CutReason::Unsupported(what) => write!(f, "unsupported: {what}"),
            CutReason::UnknownStatic { field, why } => {
                write!(f, "static {field} is unknown: its class initializer was cut ({why})")
            }
            CutReason::Undetermined(m) => write!(
                f,
                "undetermined: the path depends on the result of {m}, which has no bytecode and no model \
                 (--havoc-unknown: a fresh result)"
            ),
        }
    }
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unsupported::FloatRemainder => f.write_str("floating-point remainder"),
            Unsupported::Invokedynamic { name, why } => write!(f, "invokedynamic {name} ({why})"),
            Unsupported::UnresolvedField(field) => write!(f, "field {field} does not resolve (NoSuchFieldError)"),
            Unsupported::NotLowered(m) => write!(f, "call to {m}, which was not lowered"),
            Unsupported::AbstractOrNative(m) => write!(f, "call to {m}, which is abstract or native"),
            Unsupported::ComputedString => {
                f.write_str("the characters of a String the code computed (concatenation, valueOf, toString)")
            }
            Unsupported::ManyIndexValues(n) => {
                write!(f, "a symbolic index into a reference array with more than {n} values")
            }
            Unsupported::Lowering(message) => f.write_str(message),
            Unsupported::JvmStartup => f.write_str("state the JVM sets up at startup"),
        }
    }
}

/// JSON holds a reason as its text.
impl Serialize for CutReason {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl From<Unsupported> for CutReason {
    fn from(what: Unsupported) -> CutReason {
        CutReason::Unsupported(what)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// Every reason's text, as reports and JSON have always shown it.
    #[test]
    fn every_reason_reads_as_before() {
        let m = "p.C#m()V".to_string();
        let cases: Vec<(CutReason, &str)> = vec![
            (CutReason::MaxDepth(10), "max-depth (10)"),
            (CutReason::MaxObjects(4), "max-objects (4)"),
            (CutReason::MaxCalls(2), "max-calls (2)"),
            (CutReason::PreconditionFuse(160), "precondition-fuse (160)"),
            (CutReason::PreconditionSteps(30), "precondition-steps (30)"),
            (CutReason::PreconditionUnknown, "solver-unknown (precondition)"),
            (CutReason::TimeLimit(1), "time-limit (1s)"),
            (CutReason::Interrupted, "interrupted"),
            (CutReason::MaxMemory(4096), "max-memory (4096 MB)"),
            (
                CutReason::IdentityHashIndex,
                "identity hash: an array index computed from an identity hash code, which a test cannot choose",
            ),
            (
                CutReason::NoModel(m.clone()),
                "no model: p.C#m()V is not on the class path (--havoc-unknown: a fresh result)",
            ),
            (
                CutReason::NativeWithoutModel(m.clone()),
                "no model: p.C#m()V is native, without a model (--havoc-unknown: a fresh result)",
            ),
            (CutReason::NoModelField("p.C.f:I".into()), "no model: field p.C.f:I is not on the class path"),
            (Unsupported::FloatRemainder.into(), "unsupported: floating-point remainder"),
            (
                Unsupported::Invokedynamic { name: "hashCode".into(), why: "bootstrap method b".into() }.into(),
                "unsupported: invokedynamic hashCode (bootstrap method b)",
            ),
            (
                Unsupported::UnresolvedField("p.C.f:I".into()).into(),
                "unsupported: field p.C.f:I does not resolve (NoSuchFieldError)",
            ),
            (Unsupported::NotLowered(m.clone()).into(), "unsupported: call to p.C#m()V, which was not lowered"),
            (Unsupported::AbstractOrNative(m).into(), "unsupported: call to p.C#m()V, which is abstract or native"),
            (
                Unsupported::ComputedString.into(),
                "unsupported: the characters of a String the code computed (concatenation, valueOf, toString)",
            ),
            (
                Unsupported::ManyIndexValues(64).into(),
                "unsupported: a symbolic index into a reference array with more than 64 values",
            ),
            (Unsupported::Lowering("bad code".into()).into(), "unsupported: bad code"),
            (Unsupported::JvmStartup.into(), "unsupported: state the JVM sets up at startup"),
            (
                CutReason::UnknownStatic { field: "p.C.f".into(), why: Box::new(Unsupported::ComputedString.into()) },
                "static p.C.f is unknown: its class initializer was cut (unsupported: the characters of a String \
                 the code computed (concatenation, valueOf, toString))",
            ),
            (
                CutReason::Undetermined("p.C#m()I".into()),
                "undetermined: the path depends on the result of p.C#m()I, which has no bytecode and no model \
                 (--havoc-unknown: a fresh result)",
            ),
        ];
        for (reason, text) in cases {
            assert_eq!(reason.to_string(), text);
            assert_eq!(serde_json::to_string(&reason).unwrap(), format!("{text:?}"));
        }
    }
}
