//! How long a plain fn's runs have taken, so that an agent's batch can run a fn that has
//! always returned at once on its own task rather than hand it to tokio's blocking pool.
//!
//! The hand-off costs two thread wake-ups (the pool thread's, then the waiting task's):
//! tens of microseconds on a virtual machine, against well under one for the typical tool
//! fn (arithmetic, formatting, a lookup). A fn may block, though, and a fn running on the
//! caller's task cannot be left behind by a timeout or a cancellation. So a fn runs in place
//! only after a streak of runs each within [`QUICK`] (the bound tokio asks of the code
//! between two `.await`s), and only where nothing could end the wait that soon (the
//! caller's part). A run in place that takes longer sends the fn back to the pool for a
//! streak twice as long as the last: a fn that is sometimes slow runs in place ever more
//! rarely, and one that the machine merely paused once (a virtual CPU descheduled) soon
//! runs in place again.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

/// What a run may take and still count as quick.
pub(crate) const QUICK: Duration = Duration::from_micros(100);

/// Quick runs in a row before a fn first runs in place.
const STREAK: u32 = 4;

/// How often the streak asked for can double: at most `STREAK << MAX_LEVEL` runs.
const MAX_LEVEL: u32 = 12;

/// A plain fn's record: in the high half, how many runs in place were slow (up to
/// [`MAX_LEVEL`]); in the low half, the quick runs in a row since (up to the streak asked
/// for, `STREAK << level`).
#[derive(Debug, Default)]
pub(crate) struct Pace(AtomicU32);

impl Pace {
    /// No run seen yet.
    pub(crate) const fn new() -> Self {
        Pace(AtomicU32::new(0))
    }

    /// Whether the fn has been quick often enough to run in place.
    pub(crate) fn is_quick(&self) -> bool {
        // Relaxed, and updates that race may lose one another: a stale answer only costs
        // one hand-off more, or one run in place a fresher one would have sent to the pool.
        let (level, streak) = split(self.0.load(Ordering::Relaxed));
        streak >= STREAK << level
    }

    /// Records a run that took `took`, `in_place` or on the pool.
    pub(crate) fn record(&self, took: Duration, in_place: bool) {
        let seen = self.0.load(Ordering::Relaxed);
        let (level, streak) = split(seen);
        let next = match (took <= QUICK, in_place) {
            (true, _) => join(level, (streak + 1).min(STREAK << level)),
            (false, false) => join(level, 0),
            (false, true) => join((level + 1).min(MAX_LEVEL), 0),
        };
        if next != seen {
            self.0.store(next, Ordering::Relaxed);
        }
    }
}

fn split(state: u32) -> (u32, u32) {
    (state >> 16, state & 0xFFFF)
}

fn join(level: u32, streak: u32) -> u32 {
    level << 16 | streak
}

#[cfg(test)]
mod tests {
    use super::*;

    const AT_ONCE: Duration = Duration::from_micros(1);
    const BLOCKED: Duration = Duration::from_millis(5);

    fn quick_runs(pace: &Pace, runs: u32) {
        for _ in 0..runs {
            pace.record(AT_ONCE, false);
        }
    }

    #[test]
    fn a_fn_runs_in_place_after_a_streak_of_quick_runs() {
        let pace = Pace::new();
        for _ in 0..STREAK {
            assert!(!pace.is_quick());
            pace.record(AT_ONCE, false);
        }
        assert!(pace.is_quick());
        quick_runs(&pace, 100);
        assert!(pace.is_quick());
    }

    #[test]
    fn a_slow_run_on_the_pool_starts_the_streak_again() {
        let pace = Pace::new();
        quick_runs(&pace, STREAK - 1);
        pace.record(BLOCKED, false);
        quick_runs(&pace, 1);
        assert!(!pace.is_quick());
        quick_runs(&pace, STREAK - 1);
        assert!(pace.is_quick());
        pace.record(BLOCKED, false);
        assert!(!pace.is_quick());
    }

    #[test]
    fn each_slow_run_in_place_doubles_the_streak_asked_for() {
        let pace = Pace::new();
        quick_runs(&pace, STREAK);
        for level in 1..=MAX_LEVEL + 2 {
            pace.record(BLOCKED, true);
            let asked = STREAK << level.min(MAX_LEVEL);
            quick_runs(&pace, asked - 1);
            assert!(!pace.is_quick(), "level {level}");
            quick_runs(&pace, 1);
            assert!(pace.is_quick(), "level {level}");
        }
    }
}
