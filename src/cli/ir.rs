//! `uberlazy ir`: the lowered IR of one or more methods, in the printer's s-expression style.

use std::io::Write;

use clap::Args;

use super::common::stdout_error;
use crate::Result;
use crate::config::Config;
use crate::session::Session;

/// Arguments of `uberlazy ir`.
#[derive(Debug, Args)]
pub struct IrArgs {
    /// Class path: jars, directories of class files and single .class files, joined by `:`.
    #[arg(long, value_name = "PATH")]
    pub cp: String,
    /// Methods: `pkg.Class#method`, `pkg.Class#method(descriptor)`, or `pkg.Class` for every
    /// method of the class that has code.
    #[arg(required = true, value_name = "METHOD")]
    pub methods: Vec<String>,
}

/// Runs the command, printing the IR of each method (separated by a blank line) to stdout.
pub fn run(args: &IrArgs) -> Result<()> {
    let mut session = Session::open(&args.cp, Config::default())?;
    let text = session.ir_text(&args.methods)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(stdout_error(e)),
        _ => Ok(()),
    }
}
