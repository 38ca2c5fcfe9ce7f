//! The watchdog of an exploration's Z3 context: a fresh context per exploration, the budget
//! and the per-query deadline enforced by interrupts, and the count of those interrupts
//! that tells a solver its stack may have been cut short.

use std::cell::RefCell;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use crate::budget::Budget;

/// Runs `f` with a fresh Z3 context as the thread-local one, and drops that context after.
///
/// Z3 keeps hash-consed terms, their ids and internal caches per context; a context shared by
/// several explorations makes the later ones depend on what the earlier ones created (and on
/// the order in which their terms were freed), so a method's models and query counts would
/// vary with the methods run before it in the same process.
///
/// Until a call has made the z3 crate's thread-local context, a call uses that one: nothing
/// has used it yet, `with_z3_config` would create it too, and a context costs a process
/// several milliseconds to create and free (most of a small run's time). A solver makes it
/// only when a query first reaches Z3 (`Z3Solver::z3`), which most runs never do.
pub fn isolated<R>(budget: &Budget, f: impl FnOnce() -> R) -> R {
    thread_local! {
        static DEFAULT_CONTEXT_USED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }
    if !DEFAULT_CONTEXT_USED.with(std::cell::Cell::get) {
        let (r, made) = watched(budget, f);
        DEFAULT_CONTEXT_USED.with(|used| used.set(made));
        return r;
    }
    let f = SameThread(move || watched(budget, f).0);
    z3::with_z3_config(&z3::Config::new(), move || f.call()).0
}

/// How often the watchdog looks at the budget and at the deadline of the query in flight
/// (so a query's timeout is kept to within this).
const WATCH_EVERY: Duration = Duration::from_millis(20);

/// What a watchdog and the solvers of its exploration share.
#[derive(Default)]
pub(super) struct Watch {
    /// The deadline of the query in flight, in microseconds of [`now_us`] (0: no query).
    pub(super) deadline: AtomicU64,
    /// Twice the number of times the watchdog has interrupted the context, plus one while it
    /// delivers an interrupt (counted before and after). An interrupt stays pending in Z3's
    /// context after the query it was meant for (or arrives between queries), and a push
    /// under a pending one drops the constraints it should take in: later checks answer
    /// `sat` with models that break them (Debian's Z3 4.8.12: an interrupt, a push, an
    /// assertion and a check give `sat` on an unsatisfiable stack; a new solver in the
    /// context does the same; a check of an empty solver consumes the interrupt). A solver
    /// that sees this count move clears it and builds its stack again
    /// (`Z3Solver::recover`): without that, a trace that ends as the time limit falls could
    /// get an input that breaks its path condition.
    pub(super) interrupts: AtomicU64,
    /// The watched thread's Z3 context, once a solver there has made it (null before: a run
    /// the solver chain answers alone never makes one, see `Z3Solver::z3`). Nothing runs in
    /// a context before it is set, so there is nothing to interrupt.
    pub(super) context: AtomicPtr<z3_sys::_Z3_context>,
}

thread_local! {
    /// This thread's watch, when a watchdog enforces the per-query deadline ([`watched`]).
    pub(super) static THREAD_WATCH: RefCell<Option<Arc<Watch>>> = const { RefCell::new(None) };
}

/// Microseconds since the first call in the process (a clock both threads share).
pub(super) fn now_us() -> u64 {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    EPOCH.get_or_init(Instant::now).elapsed().as_micros() as u64
}

/// Runs `f` while a watchdog thread interrupts the current thread's Z3 context whenever the
/// budget has run out (an interrupted query answers `unknown`; the machine then stops at
/// its next step) or the query in flight has passed its deadline. The second value: whether
/// a solver made the thread's context meanwhile.
fn watched<R>(budget: &Budget, f: impl FnOnce() -> R) -> (R, bool) {
    let done = AtomicBool::new(false);
    let watch = Arc::new(Watch::default());
    let previous = THREAD_WATCH.with(|d| d.replace(Some(watch.clone())));
    let r = std::thread::scope(|scope| {
        let dog = scope.spawn(|| {
            while !done.load(Ordering::Acquire) {
                let due = watch.deadline.load(Ordering::Acquire);
                let late = due != 0 && now_us() >= due;
                // The same deadline still in flight (not the next query's).
                let context = NonNull::new(watch.context.load(Ordering::Acquire));
                // The budget is looked at even before a context exists: its interrupt stops
                // the work that needs no solver too (propagation, repair).
                let spent = budget.halt().is_some() || budget.memory().is_some();
                if let Some(context) = context
                    && (spent || (late && watch.deadline.load(Ordering::Acquire) == due))
                {
                    // Odd while the interrupt is delivered (see `Watch::interrupts`).
                    watch.interrupts.fetch_add(1, Ordering::AcqRel);
                    // SAFETY: `context` is the watched thread's Z3 context, set by the solver
                    // that made it on that thread, inside `f`: it lives in that thread's
                    // thread-local slot (or in `isolated`'s `with_z3_config` around this call)
                    // until after this scope has joined the watchdog. `Z3_interrupt` may be
                    // called from another thread (it is what `ContextHandle` does).
                    unsafe { z3_sys::Z3_interrupt(context) };
                    watch.interrupts.fetch_add(1, Ordering::AcqRel);
                }
                std::thread::park_timeout(WATCH_EVERY);
            }
        });
        // A panic in `f` must still stop the watchdog, or the scope would wait for it.
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
        done.store(true, Ordering::Release);
        dog.thread().unpark();
        r
    });
    THREAD_WATCH.with(|d| d.replace(previous));
    let made = !watch.context.load(Ordering::Acquire).is_null();
    (r.unwrap_or_else(|p| std::panic::resume_unwind(p)), made)
}

/// A value that is only ever used on the thread that made it.
struct SameThread<T>(T);

// SAFETY: `z3::with_z3_config` asks for `Send + Sync` so that Z3 objects of its context do not
// escape into other contexts; it runs the callback on the calling thread before it returns.
// The closure wrapped here and its result therefore never cross a thread, and no Z3 object
// leaves the callback: the solver lives and dies inside it, and models come out as our own
// `Assignment`s.
unsafe impl<T> Send for SameThread<T> {}
// SAFETY: as for `Send`: the value is never shared with another thread.
unsafe impl<T> Sync for SameThread<T> {}

impl<R, F: FnOnce() -> R> SameThread<F> {
    fn call(self) -> SameThread<R> {
        SameThread((self.0)())
    }
}
