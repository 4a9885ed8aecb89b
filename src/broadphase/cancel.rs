//! Stopping a long check from another thread: the node cancels the
//! planners' questions at shutdown.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Asks a running check to stop; clones share the flag. A check looks at
/// it before every pose (and every segment of a path), so a cancelled
/// check ends within one pose's work.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A flag not yet set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks every check that watches this flag (or a clone) to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// True once [`cancel`](Self::cancel) was called on this flag or a
    /// clone.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// `Err(Cancelled)` once cancelled: `cancel.check()?` in a loop.
    pub fn check(&self) -> Result<(), Cancelled> {
        if self.is_cancelled() {
            Err(Cancelled)
        } else {
            Ok(())
        }
    }
}

/// A check stopped by its [`Cancel`] before it was done: it has no answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cancelled;

/// Runs a cancellable check with a flag nobody can set: the answer of the
/// check's plain form.
pub(crate) fn uncancelled<T>(check: impl FnOnce(&Cancel) -> Result<T, Cancelled>) -> T {
    match check(&Cancel::new()) {
        Ok(answer) => answer,
        Err(Cancelled) => unreachable!("a new Cancel is never cancelled"),
    }
}
