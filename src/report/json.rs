//! Stable JSON for pipelines: one object per run, the same keys every time.
//!
//! `run --json` streams: the head (method, strategy, bounds), then `trace_list` one trace
//! per line as the traces end, then the counts, so that a run of many traces never holds
//! them all (or their text) in memory.

use serde_json::{Map, Value, json};

use super::{Summary, path_text};
use crate::classfile::ClassTable;
use crate::config::Bounds;
use crate::heap::{CVal, Concrete};
use crate::machine::{RunInfo, Trace, TraceKind};

/// The bounds as a JSON object.
fn bounds(b: &Bounds) -> Value {
    json!({
        "max_depth": b.max_depth,
        "max_objects": b.max_objects,
        "max_calls": b.max_calls,
        "time_limit_s": b.time_limit_s,
        "max_array_length": b.max_array_length,
        "precondition_fuse": b.precondition_fuse,
        "precondition_steps": b.precondition_steps,
        "max_memory_mb": b.max_memory_mb,
    })
}

/// The summary keys shared by `run --json` and `compare --format json`.
pub fn summary(s: &Summary) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("method".into(), json!(s.method));
    m.insert("strategy".into(), json!(s.strategy));
    m.insert("bounds".into(), bounds(&s.bounds));
    m.extend(counts(s));
    m
}

/// The keys of a summary known only at the end of a run.
fn counts(s: &Summary) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("traces".into(), json!(s.traces));
    m.insert("paths".into(), json!(s.paths));
    m.insert("exceptional".into(), json!(s.exceptional));
    m.insert("cut".into(), json!(s.cut));
    m.insert("solver_queries".into(), json!(s.solver_queries));
    m.insert("cache_hits".into(), json!(s.cache_hits));
    m.insert("repaired".into(), json!(s.repaired));
    m.insert("refuted".into(), json!(s.refuted));
    m.insert("time_ms".into(), json!(s.time_ms));
    m.insert("solver_ms".into(), json!(s.solver_ms));
    m.insert("check_ms".into(), json!(s.check_ms));
    m.insert("model_queries".into(), json!(s.model_queries));
    m.insert("model_ms".into(), json!(s.model_ms));
    m.insert("peak_mb".into(), json!(s.peak_mb));
    m.insert("rejected".into(), json!(s.rejected));
    m.insert("unknown".into(), json!(s.unknown));
    m.insert("halted".into(), json!(s.halted));
    m.insert("precondition_searches".into(), json!(s.pre_searches));
    m.insert("precondition_ms".into(), json!(s.pre_ms));
    m.insert("beyond_scope".into(), json!(s.beyond_scope));
    m.insert("precondition_max_decisions".into(), json!(s.pre_max_decisions));
    m.insert("precondition_max_steps".into(), json!(s.pre_max_steps));
    m.insert("sequences".into(), json!(s.sequences));
    if !s.precondition_cut.is_empty() {
        m.insert("precondition_cut".into(), json!(s.precondition_cut));
    }
    if !s.array_lengths.is_empty() {
        m.insert("array_lengths".into(), json!(s.array_lengths));
    }
    m
}

/// `run --json`, written as the run goes: [`RunJson::head`], then [`RunJson::trace`] per
/// trace, then [`RunJson::tail`].
#[derive(Debug, Default)]
pub struct RunJson {
    traces: usize,
}

impl RunJson {
    /// `{`, method, strategy, bounds, and the opening of `trace_list`.
    pub fn head(&self, info: &RunInfo, b: &Bounds) -> String {
        format!(
            "{{\n  \"method\": {},\n  \"strategy\": {},\n  \"bounds\": {},\n  \"trace_list\": [",
            json!(info.method),
            json!(info.strategy),
            bounds(b)
        )
    }

    /// One trace, on a line of its own.
    pub fn trace(&mut self, table: &ClassTable, info: &RunInfo, t: &Trace) -> String {
        let sep = if self.traces == 0 { "" } else { "," };
        self.traces += 1;
        format!("{sep}\n    {}", trace(table, info, t))
    }

    /// The end of `trace_list`, the counts, and `}`.
    pub fn tail(&self, s: &Summary) -> String {
        let mut out = String::from(if self.traces == 0 { "],\n" } else { "\n  ],\n" });
        let c = counts(s);
        let n = c.len();
        for (i, (k, v)) in c.into_iter().enumerate() {
            out.push_str(&format!("  {}: {}{}\n", json!(k), v, if i + 1 < n { "," } else { "" }));
        }
        out.push_str("}\n");
        out
    }
}

fn trace(table: &ClassTable, r: &RunInfo, t: &Trace) -> Value {
    let kind = match t.kind {
        TraceKind::Return => "return",
        TraceKind::Exception => "exception",
        TraceKind::Cut => "cut",
    };
    json!({
        "id": t.id,
        "outcome": kind,
        "value": t.value,
        "exception": t.exception,
        "cut": t.cut,
        "path": path_text(&t.path),
        "decisions": t.path,
        "path_condition": t.pc_shown(),
        "input": t.concrete.as_ref().map(|c| c.describe_input(table, &r.arg_names)),
        "concrete": t.concrete.as_ref().map(|c| concrete(table, c)),
        "solver_unknown": t.unknown,
        "notes": t.notes,
    })
}

fn cval(c: &Concrete, v: &CVal) -> Value {
    match v {
        CVal::Int(i) | CVal::Long(i) => json!(i),
        CVal::Null => Value::Null,
        CVal::Obj(_) => json!(c.show(v)),
    }
}

/// The concrete heap as JSON: objects by name with fields before and after.
fn concrete(table: &ClassTable, c: &Concrete) -> Value {
    let objects: Vec<Value> = c
        .objects
        .iter()
        .map(|o| {
            let fields = |m: &std::collections::BTreeMap<crate::classfile::FieldId, CVal>| -> Map<String, Value> {
                m.iter().map(|(f, v)| (table.field(*f).name.clone(), cval(c, v))).collect()
            };
            json!({
                "name": o.name,
                "class": o.kind.jtype(table).java_name(),
                "input": o.input,
                "before": fields(&o.before),
                "after": fields(&o.after),
                "elements_before": o.elems_before.iter().map(|v| cval(c, v)).collect::<Vec<_>>(),
                "elements_after": o.elems_after.iter().map(|v| cval(c, v)).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "args": c.args.iter().map(|v| cval(c, v)).collect::<Vec<_>>(),
        "objects": objects,
        "return": c.ret.as_ref().map(|v| cval(c, v)),
    })
}

/// One entry of `gen --stats`: the counts of the exploration (as `run --json`, without the
/// trace list), the tests written, how many of them build their input by calls, and the test class.
pub fn gen_stats(s: &Summary, tests: usize, by_calls: usize, test_class: &str) -> Value {
    let mut v = serde_json::to_value(s).unwrap_or(Value::Null);
    if let Some(o) = v.as_object_mut() {
        o.insert("tests".into(), json!(tests));
        o.insert("tests_by_calls".into(), json!(by_calls));
        o.insert("test_class".into(), json!(test_class));
    }
    v
}
