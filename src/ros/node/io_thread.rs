//! The I/O thread (`ros_io`): spins r2r, takes every input message the
//! moment rcl has it, stamps its arrival and hands it on. The inputs'
//! subscriptions are kept in its [`pool`] from one configuration to the
//! next: r2r cannot destroy one.

mod kinds;
mod pool;
mod sinks;

use super::ros_time::RosTime;
use super::threads::trim_heap;
use crate::ros::spin::{StopFlag, SPIN_TIMEOUT};
use crate::ros::tf::TfBuffer;
use pool::Pool;
pub(super) use pool::Subscriber;
pub(super) use sinks::Sinks;
use std::sync::{Arc, Mutex};

/// What the I/O thread is asked to do between two spins.
enum IoCommand {
    /// Runs with the node: publishers and services are made (configure)
    /// and destroyed (cleanup) on the thread that owns it.
    Node(Box<dyn FnOnce(&mut r2r::Node) + Send>),
    /// Subscribes the inputs (configure), with the pool's subscriptions
    /// where it has them; the outcome is sent back.
    Subscribe(Box<Sinks>, tokio::sync::oneshot::Sender<Result<(), String>>),
    /// Ends the inputs' leases (cleanup): their subscriptions go back to the
    /// pool, where nothing they take is read.
    Unsubscribe(tokio::sync::oneshot::Sender<()>),
}

/// The I/O thread (`ros_io`): it owns the node for the process's whole
/// life and spins it, so the lifecycle services answer in every state; the
/// inputs are read between configure and cleanup.
pub(super) struct IoThread {
    commands: std::sync::mpsc::Sender<IoCommand>,
    stop: StopFlag,
    handle: std::thread::JoinHandle<()>,
}

impl IoThread {
    /// Starts spinning `node` on its own thread.
    pub(super) fn start(node: r2r::Node) -> std::io::Result<Self> {
        let (commands, receiver) = std::sync::mpsc::channel();
        let stop = StopFlag::new();
        let flag = stop.clone();
        let handle = std::thread::Builder::new()
            .name("ros_io".into())
            .spawn(move || io_thread(node, &receiver, &flag))?;
        Ok(IoThread {
            commands,
            stop,
            handle,
        })
    }

    /// Runs `work` with the node on the I/O thread (after its current spin,
    /// within [`crate::ros::spin::SPIN_TIMEOUT`]); its result.
    pub(super) async fn with_node<R: Send + 'static>(
        &self,
        work: impl FnOnce(&mut r2r::Node) -> R + Send + 'static,
    ) -> Result<R, String> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let command = IoCommand::Node(Box::new(move |node| {
            let _ = tx.send(work(node));
        }));
        self.commands.send(command).map_err(|_| ENDED.to_owned())?;
        rx.await.map_err(|_| ENDED.to_owned())
    }

    /// Subscribes the inputs `sinks` names (configure).
    pub(super) async fn subscribe(&self, sinks: Sinks) -> Result<(), String> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.commands
            .send(IoCommand::Subscribe(Box::new(sinks), tx))
            .map_err(|_| ENDED.to_owned())?;
        rx.await.map_err(|_| ENDED.to_owned())?
    }

    /// Hands the inputs' subscriptions back to the pool (cleanup): nothing
    /// they take is read any more once this returns.
    pub(super) async fn unsubscribe(&self) {
        let (tx, rx) = tokio::sync::oneshot::channel();
        if self.commands.send(IoCommand::Unsubscribe(tx)).is_ok() {
            let _ = rx.await;
        }
    }

    /// Stops the thread (within one spin) and joins it.
    pub(super) fn stop(self) {
        self.stop.stop();
        let _ = self.handle.join();
    }
}

/// Why a request to the I/O thread was not carried out.
const ENDED: &str = "the ROS thread has ended";

/// Spins the node until `stop`, taking the inputs' messages after every
/// spin (and releasing the pool's unused subscriptions that took one) and
/// carrying out the commands.
fn io_thread(
    mut node: r2r::Node,
    commands: &std::sync::mpsc::Receiver<IoCommand>,
    stop: &StopFlag,
) {
    let mut inputs: Option<Inputs> = None;
    let mut pool = Pool::default();
    while !stop.is_stopped() {
        node.spin_once(SPIN_TIMEOUT);
        if let Some(inputs) = &mut inputs {
            inputs.take();
        }
        pool.release_busy();
        while let Ok(command) = commands.try_recv() {
            match command {
                IoCommand::Node(work) => work(&mut node),
                IoCommand::Subscribe(sinks, done) => {
                    pool.settle(&mut node);
                    let mut subscriber = Subscriber::new(&mut node, &mut pool);
                    let outcome = Inputs::subscribe(&mut subscriber, *sinks).map(|new| {
                        inputs = Some(new);
                    });
                    let _ = done.send(outcome);
                }
                IoCommand::Unsubscribe(done) => {
                    inputs = None;
                    let _ = done.send(());
                }
            }
        }
    }
}

/// The inputs' kinds (their subscriptions leased from the pool, and
/// where their messages go): made at configure (r2r's native messages are
/// not `Send`, so on this thread), dropped at cleanup.
struct Inputs {
    kinds: Vec<Box<dyn kinds::InputKind>>,
    time: Arc<RosTime>,
    tf: Arc<Mutex<TfBuffer>>,
}

impl Inputs {
    /// Subscribes every input `sinks` names ([`kinds::register`]).
    fn subscribe(subscriber: &mut Subscriber<'_>, mut sinks: Sinks) -> Result<Self, String> {
        let kinds = kinds::register(subscriber, &mut sinks)?;
        Ok(Inputs {
            kinds,
            time: sinks.time,
            tf: sinks.tf,
        })
    }

    /// Takes every message that is ready, kind by kind in the order of
    /// their registration; memory is trimmed after a large one.
    fn take(&mut self) {
        let mut intake = kinds::Intake {
            time: &self.time,
            tf: &self.tf,
            large: false,
        };
        for kind in &mut self.kinds {
            kind.take(&mut intake);
        }
        if intake.large {
            trim_heap();
        }
    }
}
