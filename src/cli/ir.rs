//! `uberlazy ir`: the lowered IR of one or more methods, in the printer's s-expression style
//! (see [`crate::ir::print`]).

use std::io::Write;

use clap::Args;

use super::classpath::{ClassPathArgs, resolve_methods};
use super::{Guarded, lower_guarded, stdout_error};
use crate::error::Location;
use crate::ir::print::print_body;
use crate::{Error, Result};

/// Arguments of `uberlazy ir`.
#[derive(Debug, Args)]
pub struct IrArgs {
    #[command(flatten)]
    pub classpath: ClassPathArgs,
    /// Methods: `pkg.Class#method`, `pkg.Class#method(descriptor)`, or `pkg.Class` for every
    /// method of the class that has code.
    #[arg(required = true, value_name = "METHOD")]
    pub methods: Vec<String>,
}

/// Runs the command, printing the IR of each method (separated by a blank line) to stdout.
pub fn run(args: &IrArgs) -> Result<()> {
    let mut table = args.classpath.load()?;
    let text = render(&mut table, &args.methods)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(stdout_error(e)),
        _ => Ok(()),
    }
}

/// The IR of every named method. A method spec naming a method without code, or a method
/// that does not lower, is an error; a class name skips its methods without code.
pub fn render(table: &mut crate::classfile::ClassTable, specs: &[String]) -> Result<String> {
    let mut out = String::new();
    for spec in specs {
        let whole_class = !spec.contains('#');
        for m in resolve_methods(table, spec)? {
            let meth = table.method(m);
            if !meth.has_code {
                if whole_class {
                    continue;
                }
                let why = if meth.is_abstract() { "abstract" } else { "native or no Code attribute" };
                return Err(Error::NoCode {
                    at: Location {
                        class: Some(table.class(meth.owner).java_name()),
                        method: Some(meth.signature()),
                        pc: None,
                    },
                    why: why.into(),
                });
            }
            let body = match lower_guarded(table, m) {
                Ok(b) => b,
                Err(Guarded::Error(e)) => return Err(e),
                Err(Guarded::Panic(msg)) => {
                    return Err(Error::Lowering {
                        at: Location {
                            class: Some(table.class(table.method(m).owner).java_name()),
                            method: Some(table.method(m).signature()),
                            pc: None,
                        },
                        opcode: String::new(),
                        why: format!("internal error (a bug in uberlazy): {msg}"),
                    });
                }
            };
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(&print_body(table, &body));
        }
    }
    Ok(out)
}
