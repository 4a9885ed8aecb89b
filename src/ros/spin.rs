//! Running an r2r node: spinning it on a thread of its own until told to
//! stop, and waiting for the signals that end a process (SIGINT, SIGTERM).
//!
//! r2r delivers messages only while somebody calls `spin_once`, and that
//! call blocks: it gets a thread of its own, and the async code waits on the
//! streams it feeds.
//!
//! ```no_run
//! # async fn example() -> Result<(), Box<dyn std::error::Error>> {
//! use sat_collision::ros::spin::{ShutdownSignals, Spinner};
//! let ctx = r2r::Context::create()?;
//! let node = r2r::Node::create(ctx, "example", "")?;
//! // ... publishers and subscriptions first: the node moves to the spinner ...
//! let mut signals = ShutdownSignals::register()?;
//! let spinner = Spinner::start(node);
//! signals.recv().await;
//! spinner.stop().await?;
//! # Ok(())
//! # }
//! ```

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::signal::unix::{signal, Signal, SignalKind};

/// How long one `spin_once` waits for work: a stop is seen within it.
pub const SPIN_TIMEOUT: Duration = Duration::from_millis(5);

/// Tells a spin loop to end; clones share the flag.
#[derive(Clone, Debug, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    /// A flag not yet set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks every loop that watches this flag to end (after its current
    /// spin).
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// True once [`stop`](Self::stop) was called on this flag or a clone.
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Spins `node` until `stop` is set, calling `after_spin` after every
/// `spin_once` ([`SPIN_TIMEOUT`]): the place to take messages from
/// subscriptions on this same thread (r2r's native messages are not
/// `Send`).
pub fn spin_until(node: &mut r2r::Node, stop: &StopFlag, mut after_spin: impl FnMut()) {
    while !stop.is_stopped() {
        node.spin_once(SPIN_TIMEOUT);
        after_spin();
    }
}

/// A node spinning on tokio's blocking pool until [`Spinner::stop`] (or
/// until the spinner is dropped: an early return never leaves the runtime
/// waiting for a spin loop nobody will stop).
#[derive(Debug)]
pub struct Spinner {
    stop: StopFlag,
    task: Option<tokio::task::JoinHandle<()>>,
}

impl Spinner {
    /// Starts spinning `node` (it must be called within a tokio runtime).
    pub fn start(mut node: r2r::Node) -> Self {
        let stop = StopFlag::new();
        let flag = stop.clone();
        let task = tokio::task::spawn_blocking(move || spin_until(&mut node, &flag, || {}));
        Spinner {
            stop,
            task: Some(task),
        }
    }

    /// Ends the spin loop and waits for it; the node is dropped with it.
    pub async fn stop(mut self) -> Result<(), tokio::task::JoinError> {
        self.stop.stop();
        match self.task.take() {
            Some(task) => task.await,
            None => Ok(()),
        }
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        self.stop.stop();
    }
}

/// SIGINT (Ctrl-C) and SIGTERM, the signals that end a node or a tool.
///
/// Registered once, up front: from [`ShutdownSignals::register`] on, a
/// signal is never lost, whatever the program is doing when it arrives (it
/// no longer ends the process either: the program decides when to stop).
#[derive(Debug)]
pub struct ShutdownSignals {
    interrupt: Signal,
    terminate: Signal,
}

impl ShutdownSignals {
    /// Installs the handlers (within a tokio runtime).
    pub fn register() -> std::io::Result<Self> {
        Ok(ShutdownSignals {
            interrupt: signal(SignalKind::interrupt())?,
            terminate: signal(SignalKind::terminate())?,
        })
    }

    /// Completes when SIGINT or SIGTERM has arrived since registration or
    /// the last completion. Cancel safe: usable as a `tokio::select!`
    /// branch.
    pub async fn recv(&mut self) {
        tokio::select! {
            _ = self.interrupt.recv() => {}
            _ = self.terminate.recv() => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_is_seen_by_every_clone() {
        let flag = StopFlag::new();
        let other = flag.clone();
        assert!(!other.is_stopped());
        flag.stop();
        assert!(other.is_stopped());
        assert!(flag.is_stopped());
    }

    #[tokio::test]
    async fn a_signal_completes_recv() {
        let mut signals = ShutdownSignals::register().expect("register the handlers");
        // SAFETY: raise sends a signal to this process; a handler is
        // registered above, so it does not end the test binary.
        assert_eq!(unsafe { libc::raise(libc::SIGTERM) }, 0);
        tokio::time::timeout(Duration::from_secs(5), signals.recv())
            .await
            .expect("SIGTERM seen");
    }
}
