//! The human-readable listing of a run: a head, every trace as it ends, then the counts.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::{Summary, path_text};
use crate::classfile::ClassTable;
use crate::config::Bounds;
use crate::cut::CutReason;
use crate::machine::{RunInfo, RunResult, Trace, TraceKind};

/// The ids of a run's cut traces, by cut reason (`machine::Tally::cuts`).
pub type Cuts = BTreeMap<CutReason, Vec<usize>>;

/// The bounds as one line.
pub fn bounds_line(b: &Bounds) -> String {
    format!(
        "bounds: max-depth {}, max-objects {}, max-calls {}, time-limit {}s, max-array-length {}, precondition-fuse {}, \
         precondition-steps {}, max-memory {} MB",
        b.max_depth,
        b.max_objects,
        b.max_calls,
        b.time_limit_s,
        b.max_array_length,
        b.precondition_fuse,
        b.precondition_steps,
        b.max_memory_mb
    )
}

/// One trace's outcome as text.
pub fn outcome(t: &Trace) -> String {
    match t.kind {
        TraceKind::Return => match &t.value {
            Some(v) => format!("return {v}"),
            None => "return".into(),
        },
        TraceKind::Exception => format!("throws {}", t.exception.as_deref().unwrap_or("?")),
        TraceKind::Cut => match &t.cut {
            Some(why) => format!("cut by {why}"),
            None => "cut by a bound".into(),
        },
    }
}

/// The full listing of a run that kept its traces.
pub fn render(table: &ClassTable, r: &RunResult, s: &Summary) -> String {
    let mut out = head(&r.info(), &s.bounds);
    for t in &r.traces {
        out.push_str(&trace(table, &r.info(), t));
    }
    out.push_str(&tail(s, &r.tally.cuts));
    out
}

/// The first lines: method, strategy, bounds.
pub fn head(info: &RunInfo, bounds: &Bounds) -> String {
    format!("{}  strategy {}\n{}\n", info.method, info.strategy, bounds_line(bounds))
}

/// One trace: outcome, program path, path condition, concrete input, notes.
pub fn trace(table: &ClassTable, info: &RunInfo, t: &Trace) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "trace {}: {}", t.id, outcome(t));
    let _ = writeln!(out, "  path: {}", path_text(&t.path));
    let _ = writeln!(out, "  pc: {}", t.pc_shown().as_deref().unwrap_or("(not computed)"));
    match &t.concrete {
        Some(c) => {
            let _ = writeln!(out, "  input: {}", c.describe_input(table, &info.arg_names));
            if let Some(v) = &c.ret {
                let _ = writeln!(out, "  returns: {}", c.show(v));
            }
        }
        None => {
            let _ = writeln!(out, "  input: (no model)");
        }
    }
    if t.unknown {
        let _ = writeln!(out, "  solver: unknown on this trace (explored as feasible)");
    }
    for n in &t.notes {
        let _ = writeln!(out, "  note: {n}");
    }
    out
}

/// The last lines: the counts, why the run stopped early, and which traces each bound cut.
pub fn tail(s: &Summary, cuts: &Cuts) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "traces {}  paths {}  exceptional {}  cut {}  solver queries {} (+{} cached)  time {} ms",
        s.traces, s.paths, s.exceptional, s.cut, s.solver_queries, s.cache_hits, s.time_ms
    );
    if s.pre_searches > 0 || s.rejected > 0 {
        let _ = writeln!(
            out,
            "precondition: {} states without a valid input dropped, {} beyond the scope (max-objects {}); {} searches, \
             at most {} decisions on an accepted input (fuse {}), at most {} steps in a search (precondition-steps {})",
            s.rejected,
            s.beyond_scope,
            s.bounds.max_objects,
            s.pre_searches,
            s.pre_max_decisions,
            s.bounds.precondition_fuse,
            s.pre_max_steps,
            s.bounds.precondition_steps
        );
    }
    if let Some(line) = precondition_cut_line(s) {
        let _ = writeln!(out, "{line}");
    }
    if let Some(q) = &s.sequences {
        let _ = writeln!(out, "{}", sequences_line(q));
    }
    if let Some(h) = &s.halted {
        let _ = writeln!(out, "stopped early: {h}; the states still pending are the traces cut by it");
    }
    if let Some(line) = array_lengths_line(s) {
        let _ = writeln!(out, "{line}");
    }
    if !cuts.is_empty() {
        // Grouped by reason, in the order of the reasons' text.
        let mut parts: Vec<(String, String)> =
            cuts.iter().map(|(why, ids)| (why.to_string(), id_ranges(ids))).collect();
        parts.sort();
        let parts: Vec<String> = parts.into_iter().map(|(why, ids)| format!("{why}: {ids}")).collect();
        let _ = writeln!(out, "cut traces: {}", parts.join("; "));
    }
    out
}

/// The runs of the precondition that were cut, by reason, when there were any.
pub fn precondition_cut_line(s: &Summary) -> Option<String> {
    if s.precondition_cut.is_empty() {
        return None;
    }
    let parts: Vec<String> = s.precondition_cut.iter().map(|(why, n)| format!("{why}: {n}")).collect();
    Some(format!("precondition runs cut (their inputs neither accepted nor rejected): {}", parts.join("; ")))
}

/// Why a run has so many traces, when most take an input array of the longest length
/// `--max-array-length` allows (see [`Summary::longest_arrays_dominate`]).
pub fn array_lengths_line(s: &Summary) -> Option<String> {
    let n = s.longest_arrays_dominate()?;
    let total: usize = s.array_lengths.values().sum();
    let by_length: Vec<String> = s.array_lengths.iter().map(|(l, k)| format!("{l}: {k}")).collect();
    Some(format!(
        "array lengths: {n} of {total} finished traces take an input array of length {}, the longest \
         --max-array-length allows (traces by length: {}); a smaller --max-array-length explores far fewer",
        s.bounds.max_array_length,
        by_length.join(", ")
    ))
}

/// Trace ids as ranges: `1, 3-7, 9`.
pub fn id_ranges(ids: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < ids.len() {
        let mut j = i;
        while j + 1 < ids.len() && ids[j + 1] == ids[j] + 1 {
            j += 1;
        }
        parts.push(if j > i { format!("{}-{}", ids[i], ids[j]) } else { ids[i].to_string() });
        i = j + 1;
    }
    parts.join(", ")
}

/// `sequences of add, remove: 40 prefixes explored, 12 pruned (...), 3 dropped (a call threw)`.
pub fn sequences_line(q: &crate::machine::SequenceStats) -> String {
    format!(
        "sequences of {}: {} prefixes explored, {} pruned (an earlier prefix of no more calls reached the same state), \
         {} dropped (a call threw)",
        if q.methods.is_empty() { "no calls".to_string() } else { q.methods.join(", ") },
        q.prefixes,
        q.pruned,
        q.threw
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        assert_eq!(id_ranges(&[1, 3, 4, 5, 6, 7, 9]), "1, 3-7, 9");
        assert_eq!(id_ranges(&[]), "");
        assert_eq!(id_ranges(&[0, 1]), "0-1");
    }
}
