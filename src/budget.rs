//! What may end a run before it is done: the wall-clock deadline (`--time-limit`), a stop
//! request (Ctrl-C, SIGTERM) and the memory limit (`--max-memory`).
//!
//! One [`Budget`] covers one exploration (a method with a strategy) and every stage of it:
//! the machine checks it between steps, the solver's watchdog interrupts a query in flight
//! when it runs out, and the pipeline checks it while it replays models and emits tests.
//! Once a budget has run out it stays out: the first check that sees it trips an
//! [`Interrupt`] that loops too busy for a clock read (propagation, model repair) poll.
//! A [`Stop`] is the one shared switch a signal handler (or a caller on another thread)
//! turns on; everything else is per run.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::time::{Duration, Instant};

use crate::cut::CutReason;

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
    pub fn reason(self) -> CutReason {
        match self {
            Halt::Time(s) => CutReason::TimeLimit(s),
            Halt::Interrupted => CutReason::Interrupted,
            Halt::Memory(mb) => CutReason::MaxMemory(mb),
        }
    }
}

/// Whether a budget has run out, and why: tripped once, by whichever check saw it first, and
/// never reset. Reading it is one atomic load, so a busy loop may ask at every turn.
#[derive(Debug, Clone, Default)]
pub struct Interrupt(Arc<AtomicU8>);

impl Interrupt {
    const TIME: u8 = 1;
    const STOP: u8 = 2;
    const MEMORY: u8 = 3;

    /// Whether the budget behind it has run out.
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed) != 0
    }

    /// Records `h` unless an earlier halt was recorded; returns the one that stands.
    fn trip(&self, h: Halt, budget: &Budget) -> Halt {
        let code = match h {
            Halt::Time(_) => Self::TIME,
            Halt::Interrupted => Self::STOP,
            Halt::Memory(_) => Self::MEMORY,
        };
        match self.0.compare_exchange(0, code, Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) => h,
            Err(earlier) => Self::halt_of(earlier, budget).unwrap_or(h),
        }
    }

    fn halt_of(code: u8, budget: &Budget) -> Option<Halt> {
        match code {
            Self::TIME => Some(Halt::Time(budget.time_limit_s)),
            Self::STOP => Some(Halt::Interrupted),
            Self::MEMORY => Some(Halt::Memory(budget.max_memory_mb)),
            _ => None,
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
    /// Tripped by the first check that finds the budget spent.
    pub interrupt: Interrupt,
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
        Budget { start, deadline, time_limit_s, max_memory_mb, stop, interrupt: Interrupt::default() }
    }

    /// A budget from now that ends at `deadline` or after `limit`, whichever comes first (a
    /// run's share of a process-wide deadline), reported as `time_limit_s` seconds.
    pub fn until(
        deadline: Option<Instant>,
        limit: Duration,
        time_limit_s: u64,
        max_memory_mb: u64,
        stop: Stop,
    ) -> Self {
        let mut b = Budget::lasting(limit, max_memory_mb, stop);
        if let Some(d) = deadline {
            b.deadline = b.deadline.min(d);
        }
        b.time_limit_s = time_limit_s;
        b
    }

    /// Why to stop now, if at all: a halt already recorded, the stop request, then the
    /// deadline. (Memory is checked apart, less often: [`Budget::memory`].)
    pub fn halt(&self) -> Option<Halt> {
        if let Some(h) = Interrupt::halt_of(self.interrupt.0.load(Ordering::Acquire), self) {
            Some(h)
        } else if self.stop.requested() {
            Some(self.interrupt.trip(Halt::Interrupted, self))
        } else if Instant::now() >= self.deadline {
            Some(self.interrupt.trip(Halt::Time(self.time_limit_s), self))
        } else {
            None
        }
    }

    /// [`Halt::Memory`] when the process's resident memory is above the limit (then the
    /// budget stays spent).
    pub fn memory(&self) -> Option<Halt> {
        let mb = rss_mb();
        (mb > self.max_memory_mb as f64).then(|| self.interrupt.trip(Halt::Memory(self.max_memory_mb), self))
    }

    /// Ends the run now as its deadline would: `gen` gives a method's time to the others
    /// when it has found nothing new for a while ([`crate::session`]'s time shared by need).
    pub fn end_share(&self) -> Halt {
        self.interrupt.trip(Halt::Time(self.time_limit_s), self)
    }

    /// A budget that never runs out by itself (a stop request still ends it).
    pub fn unlimited(stop: Stop) -> Self {
        Budget::lasting(Duration::from_secs(1 << 30), u64::MAX, stop)
    }

    /// Milliseconds left before the deadline.
    pub fn remaining_ms(&self) -> u64 {
        self.deadline.saturating_duration_since(Instant::now()).as_millis() as u64
    }
}

/// How a loop outside an exploration (loading the class path, emitting tests) checks a
/// budget: the stop request and the deadline at every turn, memory at every
/// [`Pacer::MEMORY_EVERY`]th, starting with the first.
#[derive(Debug)]
pub struct Pacer<'a> {
    budget: &'a Budget,
    turns: u32,
}

impl<'a> Pacer<'a> {
    /// Turns between two reads of the process's memory (a read costs a file read).
    pub const MEMORY_EVERY: u32 = 32;

    pub fn new(budget: &'a Budget) -> Self {
        Pacer { budget, turns: 0 }
    }

    /// The halt the budget calls for now, if any.
    pub fn check(&mut self) -> Option<Halt> {
        let due = self.turns.is_multiple_of(Self::MEMORY_EVERY);
        self.turns = self.turns.wrapping_add(1);
        self.budget.halt().or_else(|| if due { self.budget.memory() } else { None })
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
