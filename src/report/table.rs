//! `compare` tables: one row per method × strategy, as Markdown, CSV or JSON.

use serde_json::Value;

use super::Summary;
use super::text::bounds_line;

/// Column headers shared by Markdown and CSV.
const COLUMNS: [&str; 9] =
    ["method", "strategy", "traces", "paths", "exceptional", "cut", "solver_queries", "time_ms", "peak_mb"];

fn cells(s: &Summary) -> [String; 9] {
    [
        s.method.clone(),
        s.strategy.clone(),
        s.traces.to_string(),
        s.paths.to_string(),
        s.exceptional.to_string(),
        s.cut.to_string(),
        s.solver_queries.to_string(),
        s.time_ms.to_string(),
        format!("{:.1}", s.peak_mb),
    ]
}

/// A Markdown table, preceded by the bounds.
pub fn markdown(rows: &[Summary]) -> String {
    let mut out = String::new();
    if let Some(first) = rows.first() {
        out.push_str(&bounds_line(&first.bounds));
        out.push_str("\n\n");
    }
    out.push_str(&format!("| {} |\n", COLUMNS.join(" | ")));
    out.push_str(&format!("|{}|\n", COLUMNS.iter().map(|_| "---").collect::<Vec<_>>().join("|")));
    for r in rows {
        out.push_str(&format!("| {} |\n", cells(r).join(" | ")));
    }
    out
}

/// CSV with a header row (the bounds are in every row's columns).
pub fn csv(rows: &[Summary]) -> String {
    let mut out = format!("{},max_depth,max_objects,max_calls,time_limit_s\n", COLUMNS.join(","));
    for r in rows {
        let quoted: Vec<String> = cells(r).iter().map(|c| csv_cell(c)).collect();
        let b = &r.bounds;
        out.push_str(&format!(
            "{},{},{},{},{}\n",
            quoted.join(","),
            b.max_depth,
            b.max_objects,
            b.max_calls,
            b.time_limit_s
        ));
    }
    out
}

fn csv_cell(c: &str) -> String {
    if c.contains([',', '"', '\n']) { format!("\"{}\"", c.replace('"', "\"\"")) } else { c.to_string() }
}

/// A JSON array of summaries (the keys of `run --json` without `trace_list`).
pub fn json(rows: &[Summary]) -> Value {
    Value::Array(rows.iter().map(|r| Value::Object(super::json::summary(r))).collect())
}
