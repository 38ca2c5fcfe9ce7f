//! `uberlazy run`: every trace of one method with one strategy, as text or JSON.

use std::path::PathBuf;

use clap::Args;

use std::io::Write;

use super::common::Done;
use super::common::stdout_error;
use super::options::{AnalysisArgs, progress_enabled, strategies};
use crate::budget::{Halt, Stop};
use crate::config::Strategy;
use crate::output::{Written, check_dir_flag, write_atomic};
use crate::report::json::RunJson;
use crate::report::text;
use crate::session::{ClassTable, ExploreOptions, RunInfo, Session, Trace};
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

/// Runs the command: the report goes to stdout as the traces end (a run of many traces is
/// never held in memory), the counts last.
pub fn run(args: &RunArgs, stop: &Stop) -> Result<Done> {
    // --time-limit bounds the whole process, loading included.
    let process = args.analysis.process_budget(stop);
    let strategy = match strategies(&args.strategy)?.as_slice() {
        [s] => *s,
        _ => return Err(Error::Usage("--strategy takes exactly one of lazy, lazier, uber, pose".into())),
    };
    args.analysis.check_jdk()?;
    if let Some(d) = &args.dot {
        check_dir_flag("--dot", d)?;
    }
    let config = args.analysis.config(strategy, args.check_models);
    let mut session = match Session::open_within(&args.cp, config, process) {
        Err(Error::Halted { halt, phase }) => return halted_before_exploring(args, strategy, halt, phase),
        other => other?,
    };
    let ms = session.methods(std::slice::from_ref(&args.method))?;
    if progress_enabled() {
        eprintln!("exploring {} with {strategy} ...", args.method);
    }
    let stdout = std::io::stdout();
    let mut listing = Listing {
        out: std::io::BufWriter::new(stdout.lock()),
        json: args.json.then(RunJson::default),
        started: false,
        open: true,
        dot: args.dot.as_deref().map(|d| (d, args.method.replace(['#', '(', ')', ';', '/', '[', '<', '>'], "_"))),
        force: args.force,
        kept: 0,
        writing: std::time::Duration::ZERO,
    };
    let bounds = session.config().bounds;
    let options = ExploreOptions { dot: args.dot.is_some(), ..ExploreOptions::default() };
    let e = session.explore_streaming(ms[0], strategy, &options, &mut |table, info, t| {
        listing.trace(table, info, t, &bounds)?;
        Ok(false)
    })?;
    // The run's time is the exploration's: the time stdout took the listing is the reader's
    // (a pipe holds 64 KiB, and a reader slow to start, as `| python3`, stalls the run's
    // writes until it reads).
    let mut summary = e.summary.clone();
    summary.time_ms = summary.time_ms.saturating_sub(listing.writing.as_millis() as u64);
    listing.finish(&e.result.info(), &bounds, &summary, &e.result.tally.cuts)?;
    if listing.kept > 0
        && let Some((dir, _)) = &listing.dot
    {
        eprintln!(
            "{} existing .dot files in {} differ and were kept (use --force to overwrite)",
            listing.kept,
            dir.display()
        );
        return Ok(Done::KeptFiles(listing.kept));
    }
    Ok(Done::Complete)
}

/// The report of a run whose budget was spent before its exploration started (while the
/// class path loaded): no trace, and why.
fn halted_before_exploring(args: &RunArgs, strategy: Strategy, halt: Halt, phase: &str) -> Result<Done> {
    let text = if args.json {
        let doc = serde_json::json!({
            "method": args.method,
            "strategy": strategy.to_string(),
            "traces": 0,
            "halted": halt.reason(),
            "halted_while": phase,
        });
        serde_json::to_string_pretty(&doc).map_err(|e| Error::Usage(e.to_string()))? + "\n"
    } else {
        format!("traces 0\nstopped early while {phase}: {}\n", halt.reason())
    };
    print!("{text}");
    Ok(Done::Complete)
}

/// Where `run` writes as the traces come: stdout (text or JSON) and the `--dot` directory.
struct Listing<'a, W: Write> {
    out: W,
    /// `Some` for `--json`.
    json: Option<RunJson>,
    /// Whether the head is written.
    started: bool,
    /// `false` once stdout is a closed pipe (`| head`): the run goes on, quietly.
    open: bool,
    /// The `--dot` directory and the file-name stem of the method.
    dot: Option<(&'a std::path::Path, String)>,
    force: bool,
    /// Existing `.dot` files that differ and were kept.
    kept: usize,
    /// The time writes to stdout took (blocked on a full pipe, mostly).
    writing: std::time::Duration,
}

impl<W: Write> Listing<'_, W> {
    fn write(&mut self, text: &str) -> Result<()> {
        if !self.open {
            return Ok(());
        }
        let start = std::time::Instant::now();
        let written = self.out.write_all(text.as_bytes());
        self.writing += start.elapsed();
        match written {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                self.open = false;
                Ok(())
            }
            Err(e) => Err(stdout_error(e)),
        }
    }

    fn start(&mut self, info: &RunInfo, bounds: &crate::config::Bounds) -> Result<()> {
        if self.started {
            return Ok(());
        }
        self.started = true;
        let head = match &self.json {
            Some(j) => j.head(info, bounds),
            None => text::head(info, bounds),
        };
        self.write(&head)
    }

    fn trace(&mut self, table: &ClassTable, info: &RunInfo, t: &Trace, bounds: &crate::config::Bounds) -> Result<()> {
        self.start(info, bounds)?;
        let item = match &mut self.json {
            Some(j) => j.trace(table, info, t),
            None => text::trace(table, info, t),
        };
        self.write(&item)?;
        if let (Some((dir, stem)), Some(dot)) = (&self.dot, &t.dot) {
            let path = dir.join(format!("{stem}.{}.trace{}.dot", info.strategy, t.id));
            if write_atomic(&path, dot, self.force)? == Written::Kept {
                self.kept += 1;
            }
        }
        Ok(())
    }

    fn finish(
        &mut self,
        info: &RunInfo,
        bounds: &crate::config::Bounds,
        s: &crate::report::Summary,
        cuts: &text::Cuts,
    ) -> Result<()> {
        self.start(info, bounds)?;
        let tail = match &self.json {
            Some(j) => j.tail(s),
            None => text::tail(s, cuts),
        };
        self.write(&tail)?;
        match self.out.flush() {
            Err(e) if self.open && e.kind() != std::io::ErrorKind::BrokenPipe => Err(stdout_error(e)),
            _ => Ok(()),
        }
    }
}
