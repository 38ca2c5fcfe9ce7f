//! What may end a run before it is done: the wall-clock deadline (`--time-limit`), a stop
//! request (Ctrl-C, SIGTERM) and the memory limit (`--max-memory`).
//!
//! One [`Budget`] covers one exploration (a method with a strategy) and every stage of it:
//! the machine checks it between steps, the solver's watchdog interrupts a query in flight
//! when it runs out, and the pipeline checks it while it replays models and emits tests.
//! A [`Stop`] is the one shared switch a signal handler (or a caller on another thread)
//! turns on; everything else is per run.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A request to stop, set from a signal handler or another thread, read by every run.
#[derive(Debug, Clone, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    pub fn new() -> Self {
        Stop::default()
    }

    /// The flag itself, for a signal handler to set.
    pub fn flag(&self) -> Arc<AtomicBool> {
        self.0.clone()
    }

    /// Asks every run that holds this switch to stop.
    pub fn request(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    pub fn requested(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Why a run stopped before exploring everything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Halt {
    /// The wall-clock budget of `--time-limit` seconds ran out.
    Time(u64),
    /// A stop was requested (Ctrl-C, SIGTERM).
    Interrupted,
    /// The process used more than `--max-memory` MiB.
    Memory(u64),
}

impl Halt {
    /// The cut reason traces ended by this halt report.
    pub fn reason(self) -> String {
        match self {
            Halt::Time(s) => format!("time-limit ({s}s)"),
            Halt::Interrupted => "interrupted".to_string(),
            Halt::Memory(mb) => format!("max-memory ({mb} MB)"),
        }
    }
}

/// The limits of one exploration.
#[derive(Debug, Clone)]
pub struct Budget {
    pub start: Instant,
    pub deadline: Instant,
    pub time_limit_s: u64,
    pub max_memory_mb: u64,
    pub stop: Stop,
}

impl Budget {
    /// A budget starting now.
    pub fn new(time_limit_s: u64, max_memory_mb: u64, stop: Stop) -> Self {
        Budget::lasting(Duration::from_secs(time_limit_s), max_memory_mb, stop)
    }

    /// A budget of `limit` from now (reported in whole seconds, rounded up: `gen` gives each
    /// method a share of its `--time-limit` that need not be a whole number of seconds).
    pub fn lasting(limit: Duration, max_memory_mb: u64, stop: Stop) -> Self {
        let start = Instant::now();
        let deadline = start.checked_add(limit).unwrap_or(start + Duration::from_secs(1 << 30));
        let time_limit_s = limit.as_millis().div_ceil(1000) as u64;
        Budget { start, deadline, time_limit_s, max_memory_mb, stop }
    }

    /// Why to stop now, if at all: the stop request first, then the deadline. (Memory is
    /// checked apart, less often: [`Budget::memory`].)
    pub fn halt(&self) -> Option<Halt> {
        if self.stop.requested() {
            Some(Halt::Interrupted)
        } else if Instant::now() >= self.deadline {
            Some(Halt::Time(self.time_limit_s))
        } else {
            None
        }
    }

    /// [`Halt::Memory`] when the process's resident memory is above the limit.
    pub fn memory(&self) -> Option<Halt> {
        let mb = rss_mb();
        (mb > self.max_memory_mb as f64).then_some(Halt::Memory(self.max_memory_mb))
    }

    /// Milliseconds left before the deadline.
    pub fn remaining_ms(&self) -> u64 {
        self.deadline.saturating_duration_since(Instant::now()).as_millis() as u64
    }
}

/// A line of `/proc/self/status` in MiB (`VmRSS`, `VmHWM`), 0 where unknown.
fn status_mb(key: &str) -> f64 {
    let Ok(s) = std::fs::read_to_string("/proc/self/status") else { return 0.0 };
    s.lines()
        .find_map(|l| l.strip_prefix(key))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map(|kb| (kb / 1024.0 * 10.0).round() / 10.0)
        .unwrap_or(0.0)
}

/// Resident memory of this process now, in MiB.
pub fn rss_mb() -> f64 {
    status_mb("VmRSS:")
}

/// Peak resident memory of this process so far, in MiB (what `/usr/bin/time` reports as
/// its maximum resident set size).
pub fn peak_mb() -> f64 {
    status_mb("VmHWM:")
}

/// The default of `--max-memory`: half of the machine's memory, at most 4 GiB (4096 MiB
/// where the machine's memory cannot be read).
pub fn default_max_memory_mb() -> u64 {
    let total_kb = std::fs::read_to_string("/proc/meminfo").ok().and_then(|s| {
        s.lines()
            .find_map(|l| l.strip_prefix("MemTotal:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
    });
    match total_kb {
        Some(kb) => (kb / 1024 / 2).clamp(256, 4096),
        None => 4096,
    }
}
