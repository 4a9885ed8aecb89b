//! The test side of a ROS 2 conversation: an r2r node spun on a thread of
//! its own, its streams drained into unbounded queues (r2r's own queues hold
//! 10 messages and drop the rest: a busy test would lose the one array that
//! carries the DELETE markers), and waits that end at a deadline.

use futures::{Stream, StreamExt};
use std::fmt::Debug;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver};

/// Drains an r2r stream into an unbounded queue (r2r's holds 10 and drops).
/// Call inside a tokio runtime.
pub fn record<T: Send + 'static>(
    mut stream: impl Stream<Item = T> + Unpin + Send + 'static,
) -> UnboundedReceiver<T> {
    let (tx, rx) = unbounded_channel();
    tokio::spawn(async move {
        while let Some(msg) = stream.next().await {
            if tx.send(msg).is_err() {
                break;
            }
        }
    });
    rx
}

/// Like [`record`], each message with the time it was taken from r2r.
pub fn record_stamped<T: Send + 'static>(
    mut stream: impl Stream<Item = T> + Unpin + Send + 'static,
) -> UnboundedReceiver<(Instant, T)> {
    let (tx, rx) = unbounded_channel();
    tokio::spawn(async move {
        while let Some(msg) = stream.next().await {
            if tx.send((Instant::now(), msg)).is_err() {
                break;
            }
        }
    });
    rx
}

/// An r2r node spun on a thread of its own until dropped.
pub struct Spinner {
    pub node: Arc<Mutex<r2r::Node>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Spinner {
    pub fn start(node: r2r::Node) -> Spinner {
        let node = Arc::new(Mutex::new(node));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (node, stop) = (node.clone(), stop.clone());
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    node.lock().unwrap().spin_once(Duration::from_millis(10));
                }
            })
        };
        Spinner {
            node,
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Receives from `rx` until `pred` holds; panics after `timeout` with the
/// last message seen and `context()` (`kind`, `what`: how the panic names
/// the stream and the condition).
pub async fn wait_for<T: Debug>(
    rx: &mut UnboundedReceiver<T>,
    kind: &str,
    what: &str,
    timeout: Duration,
    mut pred: impl FnMut(&T) -> bool,
    context: impl Fn() -> String,
) -> T {
    let deadline = tokio::time::Instant::now() + timeout;
    let mut last: Option<T> = None;
    let mut seen = 0usize;
    loop {
        match tokio::time::timeout_at(deadline, rx.recv()).await {
            Ok(Some(msg)) => {
                seen += 1;
                if pred(&msg) {
                    return msg;
                }
                last = Some(msg);
            }
            Ok(None) => panic!(
                "{kind} stream closed while waiting for {what}; {}",
                context()
            ),
            Err(_) => panic!(
                "no {kind} {what} within {timeout:?} ({seen} received); last one: {last:#?}\n{}",
                context()
            ),
        }
    }
}
