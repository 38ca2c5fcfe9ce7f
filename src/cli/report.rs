//! `uberlazy report DIR`: flags and printing of the per-class report of a `gen` tree.

use std::path::PathBuf;

use clap::Args;

use crate::Result;
use crate::output::{check_file_flag, write_atomic};
use crate::runner::{ReportInput, build_report};

/// Arguments of `uberlazy report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The `--out` directory of `gen` (flat or maven layout).
    pub dir: PathBuf,
    /// A directory of JUnit XML reports of a run of the tests (`REPORTS_DIR=` of
    /// tools/run-junit.sh): adds passed and failed tests per class.
    #[arg(long, value_name = "DIR")]
    pub junit_xml: Option<PathBuf>,
    /// A JaCoCo exec file of a run of the tests (`JACOCO_EXEC=` of tools/run-junit.sh): adds
    /// branch and line coverage per class; needs --cp.
    #[arg(long, value_name = "FILE", requires = "cp")]
    pub jacoco_exec: Option<PathBuf>,
    /// The class path of the classes under test, for --jacoco-exec.
    #[arg(long, requires = "jacoco_exec")]
    pub cp: Option<String>,
    /// Print JSON instead of Markdown.
    #[arg(long)]
    pub json: bool,
    /// Also write the table as one self-contained HTML page to FILE.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

/// Builds the report and prints it (Markdown or JSON), writing the HTML page when asked.
pub fn run(args: &ReportArgs) -> Result<()> {
    if let Some(html) = &args.html {
        check_file_flag("--html", html)?;
    }
    let input = ReportInput {
        dir: args.dir.clone(),
        junit_xml: args.junit_xml.clone(),
        jacoco: args.jacoco_exec.clone().zip(args.cp.clone()),
    };
    let report = build_report(&input)?;
    if let Some(html) = &args.html {
        write_atomic(html, &report.html(), true)?;
    }
    if args.json {
        print!("{}", report.json()?);
    } else {
        print!("{}", report.markdown());
    }
    Ok(())
}
