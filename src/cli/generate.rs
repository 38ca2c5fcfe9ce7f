//! `uberlazy gen`: JUnit test sources for methods, one test per non-cut trace.

use std::path::PathBuf;

use clap::Args;

use super::classpath::resolve_methods;
use super::options::{AnalysisArgs, progress_enabled, strategies};
use crate::junit::{self, Junit};
use crate::machine::Options;
use crate::output::{Written, ensure_dir, write_atomic};
use crate::{Error, Result};

/// Arguments of `uberlazy gen`.
#[derive(Debug, Args)]
pub struct GenArgs {
    /// Class path: jars, directories and .class files joined by `:`.
    #[arg(long)]
    pub cp: String,
    /// Methods (`pkg.Class#method`, `pkg.Class#method(descriptor)`) or whole classes (`pkg.Class`).
    #[arg(required = true)]
    pub methods: Vec<String>,
    /// Heap strategy: lazy, lazier, uber or pose.
    #[arg(long, default_value = "uber")]
    pub strategy: String,
    /// Output directory for the test sources (and the runtime helper).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// JUnit generation: 5 (Jupiter) or 4.
    #[arg(long, default_value = "5", value_parser = ["4", "5"])]
    pub junit: String,
    /// Overwrite existing test files whose contents differ.
    #[arg(long)]
    pub force: bool,
    /// Also write the counts of every explored method (as `run --json`, plus `tests`) to
    /// this JSON file, for pipelines such as `make bench`.
    #[arg(long, value_name = "FILE")]
    pub stats: Option<PathBuf>,
    /// Record, in each test, whether this boolean method of the receiver holds on the rebuilt
    /// input (without asserting it): the file named by the system property
    /// `uberlazy.validity` gets one line per test. Measures the share of valid inputs.
    #[arg(long, value_name = "METHOD")]
    pub validity: Option<String>,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
}

/// Explores each method, emits its test class and prints a summary.
pub fn run(args: &GenArgs) -> Result<()> {
    let strategy = match strategies(&args.strategy)?.as_slice() {
        [s] => *s,
        _ => return Err(Error::Usage("--strategy takes exactly one of lazy, lazier, uber, pose".into())),
    };
    // An unwritable output directory is reported before any work starts.
    ensure_dir(&args.out)?;
    let junit = if args.junit == "4" { Junit::Four } else { Junit::Five };
    let config = args.analysis.config(strategy, false);
    let mut program = crate::run::load(&args.cp)?;
    let mut ms = Vec::new();
    for spec in &args.methods {
        for m in resolve_methods(&program.table, spec)? {
            let md = program.table.method(m);
            if md.has_code && !md.name.starts_with('<') && !ms.contains(&m) {
                ms.push(m);
            }
        }
    }
    crate::run::prepare(&mut program, &ms, &config)?;
    let mut lines = Vec::new();
    let mut kept = 0;
    let helper = args.out.join(junit::runtime::PATH);
    let w = write_atomic(&helper, junit::runtime::SOURCE, args.force)?;
    if w == Written::Kept {
        kept += 1;
    }
    lines.push(format!("runtime helper: {} ({})", helper.display(), written(w)));
    let mut failed: Vec<Error> = Vec::new();
    let mut stats: Vec<serde_json::Value> = Vec::new();
    for (i, m) in ms.iter().enumerate() {
        if progress_enabled() {
            eprintln!("[{}/{}] {} {strategy}", i + 1, ms.len(), program.table.method_display(*m));
        }
        // A method the engine cannot explore is reported and the others still get tests.
        let r = match crate::run::analyze(&program, *m, &config, Options::default()) {
            Ok(r) => r,
            Err(e) => {
                lines.push(format!("{}: no tests: {e}", program.table.method_display(*m)));
                failed.push(e);
                continue;
            }
        };
        let options =
            junit::Options { junit, precondition: config.precondition.as_deref(), validity: args.validity.as_deref() };
        let tests = junit::emit(&program.table, &r, &options);
        if args.stats.is_some() {
            let s = crate::report::summarize(&r, &config, crate::run::peak_mb());
            let mut v = serde_json::to_value(&s).map_err(|e| Error::Usage(e.to_string()))?;
            v["tests"] = serde_json::json!(tests.tests);
            v["test_class"] = serde_json::json!(format!(
                "{}{}",
                if tests.package.is_empty() { String::new() } else { format!("{}.", tests.package) },
                tests.class_name
            ));
            stats.push(v);
        }
        let path = args.out.join(tests.path());
        let w = write_atomic(&path, &tests.source, args.force)?;
        if w == Written::Kept {
            kept += 1;
        }
        lines.push(format!(
            "{}: {} tests from {} traces, {} ({})",
            r.method,
            tests.tests,
            r.traces.len(),
            path.display(),
            written(w)
        ));
        for (id, why) in &tests.skipped {
            lines.push(format!("  trace {id} skipped: {why}"));
        }
    }
    if let Some(path) = &args.stats {
        let text = serde_json::to_string_pretty(&stats).map_err(|e| Error::Usage(e.to_string()))?;
        write_atomic(path, &text, true)?;
    }
    for l in &lines {
        println!("{l}");
    }
    if kept > 0 {
        println!("{kept} existing files differ and were kept; use --force to overwrite them");
    }
    match failed.len() {
        0 => Ok(()),
        1 => Err(failed.remove(0)),
        n => Err(Error::Usage(format!("{n} methods could not be explored (see above)"))),
    }
}

fn written(w: Written) -> &'static str {
    match w {
        Written::Created => "written",
        Written::Replaced => "rewritten (--force)",
        Written::Unchanged => "unchanged",
        Written::Kept => "exists and differs: kept, use --force",
    }
}
