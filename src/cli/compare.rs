//! `uberlazy compare`: one row per method × strategy (traces, paths, solver queries, time).

use clap::Args;

use super::options::{AnalysisArgs, progress_enabled, strategies};
use crate::machine::Options;
use crate::report::{summarize, table};
use crate::{Error, Result};

/// Arguments of `uberlazy compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// Class path: jars, directories and .class files joined by `:`.
    #[arg(long)]
    pub cp: String,
    /// Methods: `pkg.Class#method` or `pkg.Class#method(descriptor)`.
    #[arg(required = true)]
    pub methods: Vec<String>,
    /// Comma-separated strategies.
    #[arg(long, default_value = "lazy,lazier,uber,pose")]
    pub strategies: String,
    /// Output format: md, csv or json.
    #[arg(long, default_value = "md", value_parser = ["md", "csv", "json"])]
    pub format: String,
    /// Replay every trace's concrete input (slower).
    #[arg(long)]
    pub check_models: bool,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
}

/// Runs the command and prints the table on stdout.
pub fn run(args: &CompareArgs) -> Result<()> {
    let strategies = strategies(&args.strategies)?;
    if strategies.is_empty() {
        return Err(Error::Usage("--strategies is empty".into()));
    }
    let base = args.analysis.config(strategies[0], args.check_models);
    let mut program = crate::run::load(&args.cp)?;
    let ms = crate::run::methods(&program, &args.methods)?;
    crate::run::prepare(&mut program, &ms, &base)?;
    let total = ms.len() * strategies.len();
    let progress = progress_enabled();
    let mut rows = Vec::with_capacity(total);
    for (i, m) in ms.iter().enumerate() {
        for (j, s) in strategies.iter().enumerate() {
            if progress {
                eprintln!("[{}/{total}] {} {s}", i * strategies.len() + j + 1, program.table.method_display(*m));
            }
            let config = args.analysis.config(*s, args.check_models);
            let r = crate::run::analyze(
                &program,
                *m,
                &config,
                Options { counts_only: !args.check_models, ..Options::default() },
            )?;
            rows.push(summarize(&r, &config, crate::run::peak_mb()));
        }
    }
    let out = match args.format.as_str() {
        "csv" => table::csv(&rows),
        "json" => serde_json::to_string_pretty(&table::json(&rows)).map_err(|e| Error::Usage(e.to_string()))? + "\n",
        _ => table::markdown(&rows),
    };
    print!("{out}");
    Ok(())
}
