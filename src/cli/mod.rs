//! The command line: argument parsing (clap) and one module per subcommand.
//!
//! [`main_with`] is the whole program: `src/main.rs` only passes it `std::env::args_os()`
//! and exits with its result, and tests can call it directly. Every error is printed as
//! `error: <message>` on stderr and exits with [`crate::Error::exit_code`] (2); clap's own
//! usage errors also exit with 2, and `--help`/`--version` with 0.

pub mod classes;
mod common;
pub mod compare;
pub mod generate;
pub mod ir;
pub mod options;
pub mod report;
pub mod run;
pub mod signals;
mod whole;

use std::ffi::OsString;

use clap::{Parser, Subcommand};

use crate::budget::Stop;
use crate::{Error, Result};
pub use common::Done;

/// The exit status of a run that did its work but kept existing files that differ from what
/// it would have written (no `--force`): a Makefile can tell that nothing was regenerated.
pub const EXIT_KEPT: i32 = 3;

const EXAMPLES: &str = "\
Examples:
  uberlazy classes --cp testdata/samples.jar
  uberlazy classes --cp /usr/share/java/commons-lang3.jar --failures
  uberlazy ir --cp testdata/samples.jar samples.Container#swap
  uberlazy ir --cp testdata/samples.jar samples.Chain
  uberlazy ir --cp testdata/frontend.jar 'frontend.Overloads#add(I)I'
  uberlazy run --cp testdata/samples.jar samples.Chain#hasNull4 --strategy uber
  uberlazy compare --cp testdata/samples.jar samples.Container#swap samples.Triple#sum

The class path (--cp) takes jars, directories of class files and single .class files,
joined by ':'. A method is named pkg.Class#method, or pkg.Class#method(descriptor) to pick
one of several overloads. Errors exit with code 2.";

/// uberlazy: symbolic execution of Java bytecode with lazy, lazier#, uber-lazy and POSE heaps.
#[derive(Debug, Parser)]
#[command(name = "uberlazy", version, after_help = EXAMPLES)]
pub struct Cli {
    #[command(subcommand)]
    pub cmd: Cmd,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Cmd {
    /// List every class and method on the class path and whether each method lowers to the IR.
    #[command(after_help = "Example:\n  uberlazy classes --cp testdata/samples.jar")]
    Classes(classes::ClassesArgs),
    /// Print the IR of methods in the papers' s-expression style.
    #[command(after_help = "Examples:\n  uberlazy ir --cp testdata/samples.jar samples.Container#swap\n  \
                            uberlazy ir --cp testdata/frontend.jar 'frontend.Overloads#add(J)J'")]
    Ir(ir::IrArgs),
    /// Explore every trace of one method with one heap strategy.
    Run(run::RunArgs),
    /// Compare heap strategies on methods: traces, paths, solver queries, time.
    Compare(compare::CompareArgs),
    /// Emit JUnit tests that rebuild each trace's input heap and check the outcome.
    #[command(
        after_help = "Examples:\n  uberlazy gen --cp testdata/samples.jar samples.Chain#hasNull4 --out tests-out\n  \
                            uberlazy gen --cp testdata/samples.jar samples.Container --strategy lazy --junit 4 --out t4 --force\n  \
                            uberlazy gen --cp lib.jar --package org.example.util --jobs 4 --shard 1/2 --out tests-out"
    )]
    Gen(generate::GenArgs),
    /// Per class under test of a `gen` tree: methods, tests, test classes; with JUnit XML
    /// reports passed and failed tests, with a JaCoCo exec file branch and line coverage.
    #[command(after_help = "Examples:\n  uberlazy report tests-out\n  \
                            REPORTS_DIR=xml JACOCO_EXEC=t.exec tools/run-junit.sh tests-out lib.jar; \
                            uberlazy report tests-out --junit-xml xml --jacoco-exec t.exec --cp lib.jar --html r.html")]
    Report(report::ReportArgs),
}

/// Runs the command line `args` (including the program name) and returns the exit code.
pub fn main_with<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return e.exit_code();
        }
    };
    let signals = signals::Signals::install();
    let r = dispatch(&cli.cmd, &signals.stop);
    if let Some(code) = signals.exit_code() {
        if let Err(e @ Error::Halted { .. }) = &r {
            eprintln!("{e}");
        }
        eprintln!("interrupted: stopped early (the summary above says what was done)");
        return code;
    }
    match r {
        Ok(Done::Complete) => 0,
        Ok(Done::KeptFiles(_)) => EXIT_KEPT,
        Err(e @ Error::Halted { .. }) => {
            eprintln!("{e}");
            e.exit_code()
        }
        Err(e) => {
            eprintln!("error: {e}");
            e.exit_code()
        }
    }
}

/// Runs one parsed subcommand; `stop` turns on when a signal asks the run to stop.
pub fn dispatch(cmd: &Cmd, stop: &Stop) -> Result<Done> {
    match cmd {
        Cmd::Classes(a) => classes::run(a).map(|()| Done::Complete),
        Cmd::Ir(a) => ir::run(a).map(|()| Done::Complete),
        Cmd::Run(a) => run::run(a, stop),
        Cmd::Compare(a) => compare::run(a, stop).map(|()| Done::Complete),
        Cmd::Gen(a) if a.worker.is_none() && whole::wanted(a) => whole::run(a, stop),
        Cmd::Gen(a) => generate::run(a, stop),
        Cmd::Report(a) => report::run(a).map(|()| Done::Complete),
    }
}
