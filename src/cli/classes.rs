//! `uberlazy classes`: every class on the class path with its methods, and whether each
//! method lowers to the IR.
//!
//! ```text
//! public class samples.Container
//!   ok       public <init>()V
//!   ok       public swap(Lsamples/Container;)V
//! public abstract class frontend.Shape
//!   no code  public abstract area()I
//!   FAILED   public twice()I at offset 3: unsupported instruction ...
//! lowered 2 of 3 methods
//! ```
//!
//! Classes are sorted by name, methods keep class-file order. Methods without code
//! (abstract, native) are listed but not counted. A method whose lowering panics is a bug
//! in uberlazy: it is reported as `PANICKED` (a failure) and the listing goes on.

use std::io::Write;

use clap::Args;

use super::classpath::ClassPathArgs;
use super::{lower_guarded, stdout_error};
use crate::Result;
use crate::classfile::{ClassTable, MethodId, access};

/// Arguments of `uberlazy classes`.
#[derive(Debug, Args)]
pub struct ClassesArgs {
    #[command(flatten)]
    pub classpath: ClassPathArgs,
    /// List only the methods that do not lower (and the final count).
    #[arg(long)]
    pub failures: bool,
}

/// What a listing found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// Loaded classes listed.
    pub classes: usize,
    /// Methods with code.
    pub with_code: usize,
    /// Methods with code that lowered.
    pub lowered: usize,
    /// Methods whose lowering panicked (a bug; also counted as not lowered).
    pub panicked: usize,
}

/// Runs the command, printing to stdout.
pub fn run(args: &ClassesArgs) -> Result<()> {
    let mut table = args.classpath.load()?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let s = list(&mut table, &mut out, args.failures)?;
    if s.panicked > 0 {
        eprintln!("note: lowering panicked in {} methods; this is a bug in uberlazy", s.panicked);
    }
    Ok(())
}

/// Lists every loaded class of `table` to `out`. A closed pipe (`| head`) ends the listing
/// quietly; any other write error is an error.
pub fn list(table: &mut ClassTable, out: &mut dyn Write, failures_only: bool) -> Result<Summary> {
    let classes: Vec<(String, Vec<MethodId>)> = table
        .loaded_classes()
        .into_iter()
        .map(|c| (class_header(c.access, &c.java_name()), c.methods.clone()))
        .collect();
    let mut s = Summary { classes: classes.len(), ..Summary::default() };
    let mut text = String::new();
    for (header, methods) in classes {
        let mut lines = Vec::with_capacity(methods.len());
        for m in methods {
            let (status, detail) = status(table, m, &mut s);
            if failures_only && !matches!(status, "FAILED" | "PANICKED") {
                continue;
            }
            let meth = table.method(m);
            let mut line = format!("  {status:<8} {}{}", method_flags(meth.access), meth.signature());
            if let Some(d) = detail {
                // Lowering errors start with `pkg.Class#sig`, already on the line.
                match d.strip_prefix(&table.method_display(m)) {
                    Some(rest) if rest.starts_with(' ') || rest.starts_with(':') => line.push_str(rest),
                    _ => {
                        line.push_str(": ");
                        line.push_str(&d);
                    }
                }
            }
            lines.push(line);
        }
        if failures_only && lines.is_empty() {
            continue;
        }
        text.clear();
        text.push_str(&header);
        text.push('\n');
        for l in lines {
            text.push_str(&l);
            text.push('\n');
        }
        if !write_all(out, &text)? {
            return Ok(s);
        }
    }
    let last = format!("lowered {} of {} methods\n", s.lowered, s.with_code);
    if write_all(out, &last)? {
        match out.flush() {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => return Err(stdout_error(e)),
            _ => {}
        }
    }
    Ok(s)
}

/// The status word of one method and the error text, counting it in `s`.
fn status(table: &mut ClassTable, m: MethodId, s: &mut Summary) -> (&'static str, Option<String>) {
    let meth = table.method(m);
    if !meth.has_code {
        // Abstract and native show in the flags; anything else lacks its Code attribute.
        let odd = meth.access & (access::NATIVE | access::ABSTRACT) == 0;
        return ("no code", odd.then(|| "the class file has no Code attribute for it".to_string()));
    }
    s.with_code += 1;
    match lower_guarded(table, m) {
        Ok(_) => {
            s.lowered += 1;
            ("ok", None)
        }
        Err(super::Guarded::Error(e)) => ("FAILED", Some(e.to_string())),
        Err(super::Guarded::Panic(msg)) => {
            s.panicked += 1;
            ("PANICKED", Some(msg))
        }
    }
}

/// Writes `text`; `Ok(false)` if stdout is a closed pipe.
fn write_all(out: &mut dyn Write, text: &str) -> Result<bool> {
    match out.write_all(text.as_bytes()) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(stdout_error(e)),
    }
}

/// `public abstract class a.B`, `public interface a.I`.
fn class_header(flags: u16, name: &str) -> String {
    let mut s = String::new();
    if flags & access::PUBLIC != 0 {
        s.push_str("public ");
    }
    if flags & access::FINAL != 0 {
        s.push_str("final ");
    }
    if flags & access::INTERFACE != 0 {
        s.push_str("interface ");
    } else {
        if flags & access::ABSTRACT != 0 {
            s.push_str("abstract ");
        }
        s.push_str(if flags & 0x4000 != 0 { "enum " } else { "class " });
    }
    s.push_str(name);
    s
}

/// Method access flags as Java modifiers (plus `bridge`, `varargs`, `synthetic`), each
/// followed by a space.
fn method_flags(flags: u16) -> String {
    const NAMES: [(u16, &str); 12] = [
        (access::PUBLIC, "public"),
        (access::PRIVATE, "private"),
        (access::PROTECTED, "protected"),
        (access::STATIC, "static"),
        (access::FINAL, "final"),
        (0x0020, "synchronized"),
        (0x0040, "bridge"),
        (0x0080, "varargs"),
        (access::NATIVE, "native"),
        (access::ABSTRACT, "abstract"),
        (0x0800, "strictfp"),
        (0x1000, "synthetic"),
    ];
    let mut s = String::new();
    for (bit, name) in NAMES {
        if flags & bit != 0 {
            s.push_str(name);
            s.push(' ');
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags() {
        assert_eq!(method_flags(access::PUBLIC | access::STATIC | 0x1000), "public static synthetic ");
        assert_eq!(class_header(access::PUBLIC | access::INTERFACE | access::ABSTRACT, "a.I"), "public interface a.I");
        assert_eq!(class_header(access::ABSTRACT, "a.B"), "abstract class a.B");
    }
}
