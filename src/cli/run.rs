//! `uberlazy run`: every trace of one method with one strategy, as text or JSON.

use std::path::PathBuf;

use clap::Args;

use super::options::{AnalysisArgs, progress_enabled, strategies};
use crate::output::{Written, ensure_dir, write_atomic};
use crate::report::{json, text};
use crate::session::{ExploreOptions, Session};
use crate::{Error, Result};

/// Arguments of `uberlazy run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Class path: jars, directories and .class files joined by `:`.
    #[arg(long)]
    pub cp: String,
    /// The method: `pkg.Class#method` or `pkg.Class#method(descriptor)`.
    pub method: String,
    /// Heap strategy: lazy, lazier, uber or pose.
    #[arg(long, default_value = "lazy")]
    pub strategy: String,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Replay every trace's concrete input and fail if it takes another path or outcome.
    #[arg(long)]
    pub check_models: bool,
    /// Write one Graphviz file per trace (the final heap) into this directory.
    #[arg(long, value_name = "DIR")]
    pub dot: Option<PathBuf>,
    /// Overwrite existing files in the --dot directory.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
}

/// Runs the command and prints the report on stdout.
pub fn run(args: &RunArgs) -> Result<()> {
    let strategy = match strategies(&args.strategy)?.as_slice() {
        [s] => *s,
        _ => return Err(Error::Usage("--strategy takes exactly one of lazy, lazier, uber, pose".into())),
    };
    if let Some(d) = &args.dot {
        ensure_dir(d)?;
    }
    let config = args.analysis.config(strategy, args.check_models);
    let mut session = Session::open(&args.cp, config)?;
    let ms = session.methods(std::slice::from_ref(&args.method))?;
    if progress_enabled() {
        eprintln!("exploring {} with {strategy} ...", args.method);
    }
    let options = ExploreOptions { dot: args.dot.is_some(), ..ExploreOptions::default() };
    let e = session.explore(&ms, &[strategy], &options)?.remove(0);
    let (r, s) = (&e.result, &e.summary);
    if args.json {
        let v = json::run(session.table(), r, s);
        println!("{}", serde_json::to_string_pretty(&v).map_err(|e| Error::Usage(e.to_string()))?);
    } else {
        print!("{}", text::render(session.table(), r, s));
    }
    if let Some(dir) = &args.dot {
        let stem = args.method.replace(['#', '(', ')', ';', '/', '[', '<', '>'], "_");
        let mut kept = 0;
        for t in &r.traces {
            let Some(dot) = &t.dot else { continue };
            let path = dir.join(format!("{stem}.{strategy}.trace{}.dot", t.id));
            if write_atomic(&path, dot, args.force)? == Written::Kept {
                kept += 1;
            }
        }
        if kept > 0 {
            eprintln!(
                "{kept} existing .dot files in {} differ and were kept (use --force to overwrite)",
                dir.display()
            );
        }
    }
    Ok(())
}
