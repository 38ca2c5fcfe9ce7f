//! What the subcommands share: how a command that did not fail ended, and the error of a write to standard output.

use crate::Error;

/// How a command that did not fail ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Done {
    /// Everything was written (or a limit halted the run, which its summary says).
    Complete,
    /// This many existing files differ from what the run made and were kept.
    KeptFiles(usize),
}

/// An error writing to standard output.
pub(super) fn stdout_error(e: std::io::Error) -> Error {
    Error::Output { path: "<stdout>".into(), msg: e.to_string() }
}
