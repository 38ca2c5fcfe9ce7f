//! Whole-library runs of `gen`: which classes to test (`--package`, `--all`, named specs),
//! which of them a shard runs (`--shard I/N`), one worker process per class at most `--jobs`
//! at a time within the run's time limit, the events a caller shows as progress, and the
//! merged summary; `--layout`; the manifest of a rerun; the per-class report of a written tree (`uberlazy report`).
//! The CLI parses the flags, makes a worker's command line and draws the progress;
//! everything else is here.

mod events;
mod layout;
mod manifest;
mod merge;
mod report;
mod select;
mod shard;
mod workers;

pub use events::{Event, REPORT_PREFIX, Status, WorkerReport};
pub use layout::{JUNIT4_VERSION, JUNIT5_VERSION, Layout, MAVEN_TEST_SOURCES};
pub use manifest::{Entry, MANIFEST, Manifest, options_crc};
pub use merge::{Merged, merge};
pub use report::{Report, ReportInput, Row, build as build_report};
pub use select::{ClassJob, LeftOut, Request, Selected, class_of, in_package, left_out_text, select};
pub use shard::Shard;
pub use workers::{ClassResult, MIN_WORKER_S, Plan, run, share_s};
