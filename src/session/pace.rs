//! Time shared by need (`gen`): a method explores past its fair share of the time left while
//! its traces still cover new goals of the tested class, and gives the rest of its share to the
//! methods after it once it has found nothing new for half the time it has run.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use super::covering::{Goal, goals_of, tested_family};
use crate::classfile::{ClassId, ClassTable};
use crate::machine::{Choice, Trace, TraceKind};

/// How many fair shares a method that keeps finding new goals may take at most.
pub const NEED_CAP: u32 = 3;

/// The time a method (or one of its runs) is given: a fair share of the time left, and the
/// most it may take while it still finds new goals.
#[derive(Debug, Clone, Copy)]
pub struct Share {
    pub fair: Duration,
    pub cap: Duration,
    /// Whether a method after it can use what it leaves: only then does a stalled run end
    /// before its cap.
    pub others: bool,
}

impl Share {
    /// The share of one of `left` methods when `time` is left: `time / left`, up to
    /// [`NEED_CAP`] times that while each method after it keeps half its fair share.
    pub fn of(time: Duration, left: u32, least: Duration) -> Share {
        let fair = (time / left.max(1)).max(least);
        let keep_for_others = (fair / 2) * (left.max(1) - 1);
        let cap = (fair * NEED_CAP).min(time.saturating_sub(keep_for_others)).max(fair);
        Share { fair, cap, others: left > 1 }
    }

    /// This share scaled by `f` (both parts), at least `least`.
    pub fn scaled(self, f: f64, least: Duration) -> Share {
        Share { fair: self.fair.mul_f64(f).max(least), cap: self.cap.mul_f64(f).max(least), ..self }
    }

    /// What is left of this share `spent` after it started, at least `least`.
    pub fn after(self, spent: Duration, least: Duration) -> Share {
        let fair = self.fair.saturating_sub(spent).max(least);
        Share { fair, cap: self.cap.saturating_sub(spent).max(least), ..self }
    }
}

/// The goals the tests of a `gen` run have covered so far, across its methods: a method whose
/// traces only cover what an earlier method's did is not finding anything new.
#[derive(Debug, Default)]
pub struct Covered(HashSet<Goal>);

/// One exploration's pace: when it started, its share, when it last covered a new goal.
pub struct Pace<'a> {
    covered: &'a mut Covered,
    family: Vec<String>,
    start: Instant,
    share: Share,
    last_new: Instant,
}

impl<'a> Pace<'a> {
    pub fn new(covered: &'a mut Covered, table: &ClassTable, class: ClassId, share: Share) -> Self {
        let now = Instant::now();
        Pace { covered, family: tested_family(table, class), start: now, share, last_new: now }
    }

    /// Takes a trace's goals (the branches and cases of the tested class it takes, and how
    /// the method ended); whether the run should end now: other methods can use its time, it
    /// ran half its fair share, and found nothing new for half the time it has run (at least
    /// half its fair share).
    pub fn stalled(&mut self, table: &ClassTable, t: &Trace) -> bool {
        let now = Instant::now();
        if t.kind != TraceKind::Cut && t.concrete.is_some() {
            let tested = |c: ClassId| super::covering::in_family(&self.family, &table.class(c).name);
            let news = goals_of(table, t, &tested)
                .into_iter()
                .filter(|g| matches!(g, Goal::Outcome(_) | Goal::Decision(_, _, Choice::Branch(_) | Choice::Case(_))))
                .fold(false, |news, g| self.covered.0.insert(g) | news);
            if news {
                self.last_new = now;
            }
        }
        self.share.others && stalled(now.duration_since(self.start), now.duration_since(self.last_new), self.share.fair)
    }
}

/// Whether a run that `ran` so long, the last `quiet` of it without a new goal, has stalled:
/// it ran half its `fair` share and found nothing new for half the time it ran (at least half
/// its fair share).
fn stalled(ran: Duration, quiet: Duration, fair: Duration) -> bool {
    ran >= fair / 2 && quiet >= (ran / 2).max(fair / 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: u64) -> Duration {
        Duration::from_secs(x)
    }

    #[test]
    fn shares_leave_half_a_fair_share_to_each_method_after() {
        let least = Duration::from_millis(200);
        // (time left, methods left) -> (fair, cap, others)
        let cases = [
            (s(90), 1, (s(90), s(90), false)),
            (s(90), 2, (s(45), s(67) + Duration::from_millis(500), true)),
            (s(90), 9, (s(10), s(30), true)),
            (s(1), 10, (Duration::from_millis(200), Duration::from_millis(200), true)),
        ];
        for (time, left, (fair, cap, others)) in cases {
            let got = Share::of(time, left, least);
            assert_eq!((got.fair, got.cap, got.others), (fair, cap, others), "{time:?} over {left}");
        }
    }

    #[test]
    fn a_run_stalls_once_half_its_time_brought_nothing_new() {
        // (ran, quiet, fair) -> stalled
        let cases = [
            ((s(4), s(4), s(10)), false),
            ((s(5), s(5), s(10)), true),
            ((s(9), s(4), s(10)), false),
            ((s(16), s(8), s(10)), true),
            ((s(20), s(9), s(10)), false),
            ((s(29), s(15), s(10)), true),
        ];
        for ((ran, quiet, fair), want) in cases {
            assert_eq!(stalled(ran, quiet, fair), want, "ran {ran:?}, quiet {quiet:?}, fair {fair:?}");
        }
    }
}
