//! The human-readable listing of a run: every trace, then the counts.

use std::fmt::Write;

use super::{Summary, path_text};
use crate::classfile::ClassTable;
use crate::machine::{RunResult, Trace, TraceKind};

/// The bounds as one line.
pub fn bounds_line(s: &Summary) -> String {
    let b = &s.bounds;
    format!(
        "bounds: max-depth {}, max-objects {}, max-calls {}, time-limit {}s, max-array-length {}, precondition-depth {}",
        b.max_depth, b.max_objects, b.max_calls, b.time_limit_s, b.max_array_length, b.precondition_depth
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
        TraceKind::Cut => format!("cut by {}", t.cut.as_deref().unwrap_or("a bound")),
    }
}

/// The full listing.
pub fn render(table: &ClassTable, r: &RunResult, s: &Summary) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}  strategy {}", r.method, r.strategy);
    let _ = writeln!(out, "{}", bounds_line(s));
    for t in &r.traces {
        let _ = writeln!(out, "trace {}: {}", t.id, outcome(t));
        let _ = writeln!(out, "  path: {}", path_text(&t.path));
        let _ = writeln!(out, "  pc: {}", t.pc_text);
        match &t.concrete {
            Some(c) => {
                let _ = writeln!(out, "  input: {}", c.describe_input(table, &r.arg_names));
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
    }
    let _ = writeln!(
        out,
        "traces {}  paths {}  exceptional {}  cut {}  solver queries {} (+{} cached)  time {} ms",
        s.traces, s.paths, s.exceptional, s.cut, s.solver_queries, s.cache_hits, s.time_ms
    );
    if s.rejected > 0 {
        let _ = writeln!(out, "precondition rejected {} states", s.rejected);
    }
    if s.cut > 0 {
        let cuts: Vec<String> = r
            .traces
            .iter()
            .filter(|t| t.kind == TraceKind::Cut)
            .map(|t| format!("{} ({})", t.id, t.cut.as_deref().unwrap_or("?")))
            .collect();
        let _ = writeln!(out, "cut traces: {}", cuts.join(", "));
    }
    out
}
