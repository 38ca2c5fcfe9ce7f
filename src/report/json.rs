//! Stable JSON for pipelines: sorted keys, one object per run.

use serde_json::{Map, Value, json};

use super::{Summary, path_text};
use crate::classfile::ClassTable;
use crate::heap::{CVal, Concrete};
use crate::machine::{RunResult, Trace, TraceKind};

/// The summary keys shared by `run --json` and `compare --format json`.
pub fn summary(s: &Summary) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("method".into(), json!(s.method));
    m.insert("strategy".into(), json!(s.strategy));
    m.insert(
        "bounds".into(),
        json!({
            "max_depth": s.bounds.max_depth,
            "max_objects": s.bounds.max_objects,
            "max_calls": s.bounds.max_calls,
            "time_limit_s": s.bounds.time_limit_s,
            "max_array_length": s.bounds.max_array_length,
            "precondition_depth": s.bounds.precondition_depth,
        }),
    );
    m.insert("traces".into(), json!(s.traces));
    m.insert("paths".into(), json!(s.paths));
    m.insert("exceptional".into(), json!(s.exceptional));
    m.insert("cut".into(), json!(s.cut));
    m.insert("solver_queries".into(), json!(s.solver_queries));
    m.insert("cache_hits".into(), json!(s.cache_hits));
    m.insert("time_ms".into(), json!(s.time_ms));
    m.insert("solver_ms".into(), json!(s.solver_ms));
    m.insert("model_queries".into(), json!(s.model_queries));
    m.insert("model_ms".into(), json!(s.model_ms));
    m.insert("peak_mb".into(), json!(s.peak_mb));
    m.insert("rejected".into(), json!(s.rejected));
    m.insert("unknown".into(), json!(s.unknown));
    m
}

/// `run --json`: the summary plus `trace_list`.
pub fn run(table: &ClassTable, r: &RunResult, s: &Summary) -> Value {
    let mut m = summary(s);
    m.insert("trace_list".into(), Value::Array(r.traces.iter().map(|t| trace(table, r, t)).collect()));
    Value::Object(m)
}

fn trace(table: &ClassTable, r: &RunResult, t: &Trace) -> Value {
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
        "path_condition": t.pc_text.to_string(),
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
/// trace list), the tests written and the test class.
pub fn gen_stats(s: &Summary, tests: usize, test_class: &str) -> Value {
    let mut v = serde_json::to_value(s).unwrap_or(Value::Null);
    if let Some(o) = v.as_object_mut() {
        o.insert("tests".into(), json!(tests));
        o.insert("test_class".into(), json!(test_class));
    }
    v
}
