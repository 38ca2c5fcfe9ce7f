//! uberlazy: symbolic execution of Java bytecode with lazy, lazier#, uber-lazy and POSE heaps.
//!
//! The pipeline flows one way (see ARCHITECTURE.md):
//! [`classfile`] → [`lower`] → [`ir`] → `machine` (+ `heap`, `solver`) → traces → `report` / `junit`.

pub mod budget;
pub mod classfile;
pub mod cli;
pub mod config;
pub mod cut;
pub mod error;
pub mod heap;
pub mod inputs;
pub mod ir;
pub mod junit;
pub mod lower;
pub mod machine;
pub mod models;
pub mod output;
pub mod report;
pub mod runner;
pub mod session;
pub mod solver;
pub mod term;

pub use config::Config;
pub use error::{Error, Result};
