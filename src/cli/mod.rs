//! The command line (temporary wiring until the frontend CLI lands).

pub mod compare;
pub mod options;
pub mod run;
