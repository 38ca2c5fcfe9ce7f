//! Choosing tests by what they cover (`gen --tests covering`): of the traces a test can be
//! made of, those that take a branch outcome of the tested class's code (its own, its
//! superclasses' on the class path, and their nested classes') or reach an outcome of the
//! method no trace kept before them does, as EvoSuite minimizes a suite by the goals of the
//! class under test.

use std::collections::HashSet;

use crate::classfile::{ClassId, ClassTable, MethodId};
use crate::heap::{CVal, Place};
use crate::machine::{Choice, Trace, TraceKind};

/// One thing a test can cover.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) enum Goal {
    /// A branch, case, exception edge or dispatch target at a bytecode offset of a method.
    Decision(MethodId, u32, Choice),
    /// How the method under test ended: an exception of this class, or a return of a value
    /// of this kind (see [`returned`]).
    Outcome(String),
}

/// Keeps, of `traces`, the cut ones, the ones no test can be made of, and those that cover a
/// goal no trace kept before them covers (a branch or case, for a heap input beside
/// call-built ones); traces whose input is built by calls come first, then those that cover most.
/// Returns how many were dropped.
pub(super) fn keep_covering(table: &ClassTable, class: ClassId, traces: &mut Vec<Trace>) -> usize {
    let testable = |t: &Trace| t.kind != TraceKind::Cut && t.concrete.is_some() && !t.constrains_identity_hash();
    let family = tested_family(table, class);
    let tested = |c: ClassId| in_family(&family, &table.class(c).name);
    let goals: Vec<HashSet<Goal>> = traces.iter().map(|t| goals_of(table, t, &tested)).collect();
    let mut order: Vec<usize> = (0..traces.len()).filter(|k| testable(&traces[*k])).collect();
    order.sort_by_key(|k| (traces[*k].prefix.is_empty(), std::cmp::Reverse(goals[*k].len()), *k));
    // Beside inputs built by calls, a field-by-field input whose only news is how the method
    // ends, an exception edge (a NullPointerException from a field no constructor leaves
    // null) or which class a field holds (a decorated list of another library class) is a
    // state no caller makes: it must cover a branch or a case.
    let by_calls = order.iter().any(|k| !traces[*k].prefix.is_empty());
    let mut covered: HashSet<&Goal> = HashSet::new();
    let mut keep = vec![false; traces.len()];
    for k in order {
        let heap_only = by_calls && traces[k].prefix.is_empty();
        let new: Vec<&Goal> = goals[k].iter().filter(|g| !covered.contains(g)).collect();
        let branch = |g: &&Goal| matches!(g, Goal::Decision(_, _, Choice::Branch(_) | Choice::Case(_)));
        keep[k] = new.iter().any(|g| !heap_only || branch(g));
        if keep[k] {
            covered.extend(new);
        }
    }
    let before = traces.len();
    let mut k = 0;
    traces.retain(|t| {
        k += 1;
        keep[k - 1] || !testable(t)
    });
    before - traces.len()
}

/// The classes whose code is the tested class's: it and its superclasses on the class path
/// (their nested classes too, by [`in_family`]).
pub(super) fn tested_family(table: &ClassTable, class: ClassId) -> Vec<String> {
    table
        .superclasses(class)
        .into_iter()
        .filter(|c| table.class(*c).on_class_path())
        .map(|c| table.class(c).name.clone())
        .collect()
}

/// Whether the class named `name` is one of `family` or nested in one.
pub(super) fn in_family(family: &[String], name: &str) -> bool {
    family.iter().any(|f| name == f || name.strip_prefix(f.as_str()).is_some_and(|rest| rest.starts_with('$')))
}

/// The goals one trace covers: the decisions of its tested path in the `tested` classes (not
/// a concretized array index), and its outcome.
pub(super) fn goals_of(table: &ClassTable, t: &Trace, tested: &dyn Fn(ClassId) -> bool) -> HashSet<Goal> {
    let mut out: HashSet<Goal> = t
        .path
        .iter()
        .filter(|d| !matches!(d.choice, Choice::Index(_)))
        .filter(|d| tested(table.method(d.method).owner))
        .map(|d| Goal::Decision(d.method, d.pc, d.choice.clone()))
        .collect();
    let outcome = match (&t.kind, &t.exception) {
        (TraceKind::Exception, Some(x)) => format!("throws {x}"),
        _ => format!("returns {}", returned(t)),
    };
    out.insert(Goal::Outcome(outcome));
    out
}

/// The kind of value a trace returns: null, an object, a negative number, zero or a
/// positive one (false and true for a boolean), or one the JVM decides.
fn returned(t: &Trace) -> &'static str {
    let Some(c) = &t.concrete else { return "" };
    if c.undetermined.contains(&Place::Result) {
        return "undetermined";
    }
    match &c.ret {
        None => "",
        Some(CVal::Null) => "null",
        Some(CVal::Obj(_)) => "an object",
        Some(CVal::Int(x) | CVal::Long(x)) => match x.signum() {
            -1 => "negative",
            0 => "zero",
            _ => "positive",
        },
    }
}
