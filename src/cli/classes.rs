//! `uberlazy classes`: every class on the class path with its methods, and whether each
//! method lowers to the IR (the listing's format: [`crate::report::classes`]).
//!
//! Classes are sorted by name, methods keep class-file order. Methods without code
//! (abstract, native) are listed but not counted. A method whose lowering panics is a bug
//! in uberlazy: it is reported as `PANICKED` (a failure) and the listing goes on.

use std::io::Write;

use clap::Args;

use super::common::stdout_error;
use crate::Result;
use crate::config::Config;
use crate::report::classes::{Counts, class_text};
use crate::session::Session;

/// Arguments of `uberlazy classes`.
#[derive(Debug, Args)]
pub struct ClassesArgs {
    /// Class path: jars, directories of class files and single .class files, joined by `:`.
    #[arg(long, value_name = "PATH")]
    pub cp: String,
    /// List only the methods that do not lower (and the final count).
    #[arg(long)]
    pub failures: bool,
}

/// Runs the command, printing to stdout. A closed pipe (`| head`) ends the listing quietly;
/// any other write error is an error.
pub fn run(args: &ClassesArgs) -> Result<()> {
    let mut session = Session::open(&args.cp, Config::default())?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut counts = Counts::default();
    let mut open = true;
    session.each_class_lowered(|c| {
        if let Some(text) = class_text(&c, args.failures, &mut counts) {
            open = write_all(&mut out, &text)?;
        }
        Ok(open)
    })?;
    if open && write_all(&mut out, &counts.footer())? {
        match out.flush() {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => return Err(stdout_error(e)),
            _ => {}
        }
    }
    if counts.panicked > 0 {
        eprintln!("note: lowering panicked in {} methods; this is a bug in uberlazy", counts.panicked);
    }
    Ok(())
}

/// Writes `text`; `Ok(false)` if stdout is a closed pipe.
fn write_all(out: &mut dyn Write, text: &str) -> Result<bool> {
    match out.write_all(text.as_bytes()) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(stdout_error(e)),
    }
}
