//! Ctrl-C and SIGTERM: the first one asks the run to stop (it finishes the file in progress,
//! prints what it did and exits with 130 or 143); a second one exits at once.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use signal_hook::consts::signal::{SIGINT, SIGTERM};

use crate::budget::Stop;

/// The stop switch the signals turn on, and which signal it was.
pub struct Signals {
    pub stop: Stop,
    int: Arc<AtomicBool>,
    term: Arc<AtomicBool>,
}

impl Signals {
    /// Installs the handlers. A second signal of either kind ends the process at once with
    /// its conventional status (the first already turned the switch on).
    pub fn install() -> Signals {
        let stop = Stop::new();
        let int = Arc::new(AtomicBool::new(false));
        let term = Arc::new(AtomicBool::new(false));
        for (sig, status, which) in [(SIGINT, 130, &int), (SIGTERM, 143, &term)] {
            // The order matters: the shutdown action looks at the switch before the second
            // action turns it on, so only a second signal exits at once.
            let _ = signal_hook::flag::register_conditional_shutdown(sig, status, stop.flag());
            let _ = signal_hook::flag::register(sig, stop.flag());
            let _ = signal_hook::flag::register(sig, which.clone());
        }
        Signals { stop, int, term }
    }

    /// The exit status for a run a signal stopped: 130 for SIGINT, 143 for SIGTERM.
    pub fn exit_code(&self) -> Option<i32> {
        if self.int.load(Ordering::SeqCst) {
            Some(130)
        } else if self.term.load(Ordering::SeqCst) {
            Some(143)
        } else {
            None
        }
    }
}
