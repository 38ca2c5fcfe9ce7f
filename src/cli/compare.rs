//! `uberlazy compare`: one row per method × strategy (traces, paths, solver queries, time).

use clap::Args;

use super::options::{AnalysisArgs, progress_enabled, strategies};
use crate::budget::{Budget, Stop};
use crate::report::table;
use crate::session::{ExploreOptions, Session};
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
pub fn run(args: &CompareArgs, stop: &Stop) -> Result<()> {
    let strategies = strategies(&args.strategies)?;
    if strategies.is_empty() {
        return Err(Error::Usage("--strategies is empty".into()));
    }
    args.analysis.check_jdk()?;
    let base = args.analysis.config(strategies[0], args.check_models);
    // Each method and strategy has its own --time-limit; the stop switch holds while loading.
    let mut session = Session::open_within(&args.cp, base, Budget::unlimited(stop.clone()))?;
    let ms = session.methods(&args.methods)?;
    if progress_enabled() {
        session.on_progress(|p| eprintln!("[{}/{}] {} {}", p.index, p.total, p.method, p.strategy));
    }
    let options = ExploreOptions { counts_only: !args.check_models, ..ExploreOptions::default() };
    let mut rows = Vec::with_capacity(ms.len() * strategies.len());
    session.explore_each(&ms, &strategies, &options, |e| {
        rows.push(e.summary);
        Ok(())
    })?;
    let out = match args.format.as_str() {
        "csv" => table::csv(&rows),
        "json" => serde_json::to_string_pretty(&table::json(&rows)).map_err(|e| Error::Usage(e.to_string()))? + "\n",
        _ => table::markdown(&rows),
    };
    print!("{out}");
    Ok(())
}
