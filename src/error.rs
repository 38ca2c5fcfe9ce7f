//! The engine's error type: every fault a user can cause, named by file, class, method and offset.
//!
//! Java exceptions thrown by the analysed program are *not* errors: they are trace outcomes
//! (see `machine::Outcome`). An `Error` means uberlazy itself could not do what was asked:
//! unreadable input, an instruction it does not support, an unknown method name, a solver
//! failure or an output it cannot write. The CLI prints the message and exits with code 2.

use std::path::PathBuf;

/// Result alias used across the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Where in the analysed code something went wrong (as precise as is known).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Location {
    /// Class name in Java form (`samples.Container`).
    pub class: Option<String>,
    /// Method name with descriptor (`swap(Lsamples/Container;)V`).
    pub method: Option<String>,
    /// Bytecode offset inside the method.
    pub pc: Option<u32>,
    /// The source line of that offset, where the class file has line numbers.
    pub line: Option<u32>,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (&self.class, &self.method) {
            (Some(c), Some(m)) => write!(f, "{c}#{m}")?,
            (Some(c), None) => write!(f, "{c}")?,
            (None, Some(m)) => write!(f, "{m}")?,
            (None, None) => write!(f, "<unknown>")?,
        }
        match (self.line, self.pc) {
            (Some(line), Some(pc)) => write!(f, " line {line} (offset {pc})")?,
            (None, Some(pc)) => write!(f, " at offset {pc}")?,
            (Some(line), None) => write!(f, " line {line}")?,
            (None, None) => {}
        }
        Ok(())
    }
}

/// Every way uberlazy can fail. Messages name the file, class, method and offset where known.
#[derive(Debug, Clone, thiserror::Error)]
pub enum Error {
    /// A file or directory could not be read or written.
    #[error("{path}: {msg}")]
    Io { path: PathBuf, msg: String },
    /// A class path entry that is neither a jar, a directory nor a `.class` file, or missing.
    #[error("class path entry {path}: {msg}")]
    ClassPath { path: PathBuf, msg: String },
    /// A jar that cannot be opened or read (truncated, not a zip, corrupt entry).
    #[error("corrupt jar {path}: {msg}")]
    CorruptJar { path: PathBuf, msg: String },
    /// A class file that cannot be parsed (truncated, bad magic, bad constant pool, ...).
    #[error("malformed class file {file}: {msg}")]
    ClassFormat { file: String, msg: String },
    /// A class that is needed but not on the class path.
    #[error("class {name} not found on the class path{}", context_suffix(.context))]
    MissingClass { name: String, context: Option<String> },
    /// A `Class#method` the user named that does not exist.
    #[error("unknown method {spec}; candidates: {}", list_or_none(.candidates))]
    UnknownMethod { spec: String, candidates: Vec<String> },
    /// A `Class#method` that matches several overloads.
    #[error("ambiguous method {spec}; pick one with Class#method(descriptor): {}", list_or_none(.candidates))]
    AmbiguousMethod { spec: String, candidates: Vec<String> },
    /// A method reference that does not resolve (JVMS 5.4.3.3/4).
    #[error("{at}: cannot resolve method {method}")]
    UnresolvedMethod { at: Location, method: String },
    /// Bytecode that the lowering does not support (e.g. `invokedynamic`, `jsr`).
    #[error("{at}: unsupported instruction {opcode}: {why}")]
    Unsupported { at: Location, opcode: String, why: String },
    /// Bytecode that is malformed (stack underflow, inconsistent stack at a join, ...).
    #[error("{at}: cannot lower {opcode}: {why}")]
    Lowering { at: Location, opcode: String, why: String },
    /// A method without code (abstract or native) where code is needed.
    #[error("{at}: method has no code ({why})")]
    NoCode { at: Location, why: String },
    /// A call into code that is neither on the class path nor modelled.
    #[error(
        "{at}: call to {method}, which is not on the class path and has no model (use --havoc-unknown to treat its result as a fresh symbolic value)"
    )]
    NoModel { at: Location, method: String },
    /// A value the machine does not support (floating point, ...).
    #[error("{at}: the symbolic machine does not support {what}")]
    MachineUnsupported { at: Location, what: String },
    /// The solver failed in a way that is not a plain `unknown` (which is reported per trace).
    #[error("solver failure: {0}")]
    Solver(String),
    /// `--check-models` found a model whose concrete replay disagrees with its trace.
    #[error("model check failed for {method}, trace {trace}: {msg}")]
    ModelCheck { method: String, trace: usize, msg: String },
    /// An output directory or file that cannot be written.
    #[error("cannot write {path}: {msg}")]
    Output { path: PathBuf, msg: String },
    /// An output a flag names that cannot be written (checked before any work).
    #[error("{flag} {path}: {msg}")]
    OutputFlag { flag: &'static str, path: PathBuf, msg: String },
    /// Every input was left without a verdict because the precondition's runs were cut (a
    /// missing model, a bound): the precondition cannot run on this code as configured.
    #[error(
        "--precondition {precondition} accepted no input of {method}: its runs were cut ({reasons}), so it could not decide any input"
    )]
    PreconditionCut { precondition: String, method: String, reasons: String },
    /// A command-line value that is malformed (method spec, strategy list, ...).
    #[error("{0}")]
    Usage(String),
    /// A limit (time, memory) or a stop request ended the run outside an exploration, whose
    /// own halts are reported with its traces; not a fault, and the CLI exits as for a halt.
    #[error("stopped early while {phase}: {}", .halt.reason())]
    Halted { halt: crate::budget::Halt, phase: &'static str },
}

fn context_suffix(c: &Option<String>) -> String {
    c.as_ref().map(|c| format!(" (needed by {c})")).unwrap_or_default()
}

fn list_or_none(v: &[String]) -> String {
    if v.is_empty() { "none".to_string() } else { v.join(", ") }
}

impl Error {
    /// Wraps an I/O error with the path it concerns.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io { path: path.into(), msg: source.to_string() }
    }

    /// The process exit code for this error: 2 for everything a user can cause; a halt is
    /// not a failure (0, or the signal's status, which the CLI sets).
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Halted { .. } => 0,
            _ => 2,
        }
    }
}
