//! The I/O thread (`ros_io`): spins r2r, takes every input message the
//! moment rcl has it, stamps its arrival and hands it on. The inputs'
//! subscriptions are kept in its [`pool`] from one configuration to the
//! next: r2r cannot destroy one.

mod pool;

use super::gate::{GateSinks, GateSubs};
use super::ros_time::RosTime;
use super::threads::{lock, trim_heap};
use crate::config::{InputReliability, VelocityType};
use crate::monitor::SourceKind;
use crate::ros::inputs::{
    self, ArrayInput, InstanceInput, LatestFootprint, LatestVelocity, PendingObstacles,
    VelocityInput,
};
use crate::ros::sources::{LatestSources, NativeSource, SourceReader, SOURCE_QOS};
use crate::ros::spin::{StopFlag, SPIN_TIMEOUT};
use crate::ros::tf::TfBuffer;
pub(super) use pool::Subscriber;
use pool::{Lease, Pool};
use r2r::geometry_msgs::msg::{PolygonInstanceStamped, PolygonStamped, Twist, TwistStamped};
use r2r::nav_msgs::msg::Odometry;
use r2r::sat_collision_msgs::msg::ObstacleArray;
use r2r::sensor_msgs::msg::{LaserScan, PointCloud2, Range};
use r2r::tf2_msgs::msg::TFMessage;
use r2r::QosProfile;
use std::sync::{Arc, Mutex};

/// Inputs (footprint, obstacles, instances) by default: best effort, so
/// that both reliable publishers and best-effort ones (sensor-data QoS,
/// common for perception) connect; keep-latest slots take what arrives.
/// `input_reliability: reliable` makes them reliable (only reliable
/// publishers connect; a lost fragment of a multi-MB message is sent again).
fn input_qos(reliability: InputReliability) -> QosProfile {
    match reliability {
        InputReliability::Reliable => QosProfile::default(),
        InputReliability::BestEffort => QosProfile::default().best_effort(),
    }
}

/// `/tf`: as tf2's listener takes it (depth 100), but best effort so that
/// any publisher connects.
pub(super) const TF_QOS: QosProfile = QosProfile::default().best_effort().keep_last(100);

/// `/tf_static`: tf2's static QoS (reliable, transient local, depth 100),
/// so a node that starts late still receives the static tree.
pub(super) const TF_STATIC_QOS: QosProfile = QosProfile::default()
    .reliable()
    .transient_local()
    .keep_last(100);

/// Where the I/O thread puts what it reads.
pub(super) struct Sinks {
    pub(super) time: Arc<RosTime>,
    /// `None`: the footprint comes from TF (`base_frame`); the topic is
    /// not subscribed.
    pub(super) footprints: Option<Arc<LatestFootprint>>,
    pub(super) pending: Arc<PendingObstacles>,
    pub(super) tf: Arc<Mutex<TfBuffer>>,
    /// Woken after each `/tf` message, when the footprint comes from TF:
    /// the robot moved.
    pub(super) tf_moved: Option<Arc<tokio::sync::Notify>>,
    /// `input_reliability`.
    pub(super) reliability: InputReliability,
    /// `velocity_topic` (not empty) and `velocity_type`, and where the
    /// newest velocity goes.
    pub(super) velocity: Option<(String, VelocityType, Arc<LatestVelocity>)>,
    /// The point sources' readers (`observation_sources`), and where their
    /// newest inputs go.
    pub(super) sources: Vec<SourceReader>,
    pub(super) latest_sources: Arc<LatestSources>,
    /// The velocity gate's topics, when it has zones.
    pub(super) gate: Option<GateSinks>,
}

/// The TF buffer locked for one lookup: its tree.
struct TreeGuard<'a>(std::sync::MutexGuard<'a, TfBuffer>);

impl std::ops::Deref for TreeGuard<'_> {
    type Target = crate::frames::FrameTree;

    fn deref(&self) -> &Self::Target {
        &self.0.tree
    }
}

/// A point source's subscription, of its type.
enum SourceSub<S, C, R, P> {
    Scan(S),
    Cloud(C),
    Range(R),
    /// A polygon source: its polygons are obstacle instances.
    Polygon(P),
}

/// The velocity subscription, of the type `velocity_type` names.
enum VelocitySub<O, T, S> {
    Odometry(O),
    Twist(T),
    TwistStamped(S),
}

/// Messages above this many bytes (native form: strings and points) are
/// large: memory is trimmed once they are freed.
const LARGE_MESSAGE_BYTES: usize = 1 << 20;

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

/// The inputs' subscriptions (leased from the pool) and where their
/// messages go: made at configure (r2r's native messages are not `Send`, so
/// on this thread), dropped at cleanup.
struct Inputs {
    gate: Option<GateSubs>,
    sources: Vec<SourceSub<ScanSub, CloudSub, RangeSub, InstanceSub>>,
    velocity: Option<VelocitySub<OdometrySub, TwistSub, TwistStampedSub>>,
    footprint: Option<FootprintSub>,
    array: ArraySub,
    instances: InstanceSub,
    tf: TfSub,
    tf_static: TfSub,
    time: Arc<RosTime>,
    footprints: Option<Arc<LatestFootprint>>,
    pending: Arc<PendingObstacles>,
    tf_buffer: Arc<Mutex<TfBuffer>>,
    tf_moved: Option<Arc<tokio::sync::Notify>>,
    velocities: Option<Arc<LatestVelocity>>,
    readers: Vec<SourceReader>,
    latest_sources: Arc<LatestSources>,
}

type ScanSub = Lease<LaserScan>;
type CloudSub = Lease<PointCloud2>;
type RangeSub = Lease<Range>;
type InstanceSub = Lease<PolygonInstanceStamped>;
type OdometrySub = Lease<Odometry>;
type TwistSub = Lease<Twist>;
type TwistStampedSub = Lease<TwistStamped>;
type FootprintSub = Lease<PolygonStamped>;
type ArraySub = Lease<ObstacleArray>;
type TfSub = Lease<TFMessage>;

impl Inputs {
    /// Subscribes every input `sinks` names.
    fn subscribe(subscriber: &mut Subscriber<'_>, mut sinks: Sinks) -> Result<Self, String> {
        let input = input_qos(sinks.reliability);
        let gate = sinks
            .gate
            .take()
            .map(|g| GateSubs::subscribe(subscriber, g))
            .transpose()
            .map_err(|e| format!("cannot subscribe the gate's topics: {e}"))?;
        let subscribed = (|| -> r2r::Result<_> {
            let footprint = match sinks.footprints {
                Some(_) => {
                    Some(subscriber.subscribe::<PolygonStamped>("footprint", input.clone())?)
                }
                None => None,
            };
            let velocity = match &sinks.velocity {
                None => None,
                Some((topic, kind, _)) => Some(match kind {
                    VelocityType::Twist => {
                        VelocitySub::Twist(subscriber.subscribe(topic, input.clone())?)
                    }
                    VelocityType::TwistStamped => {
                        VelocitySub::TwistStamped(subscriber.subscribe(topic, input.clone())?)
                    }
                    VelocityType::Odometry => {
                        VelocitySub::Odometry(subscriber.subscribe(topic, input.clone())?)
                    }
                }),
            };
            let mut sources = Vec::with_capacity(sinks.sources.len());
            for reader in &sinks.sources {
                let topic = reader.config.topic.as_str();
                sources.push(match reader.kind() {
                    SourceKind::Scan => SourceSub::Scan(subscriber.subscribe(topic, SOURCE_QOS)?),
                    SourceKind::PointCloud => {
                        SourceSub::Cloud(subscriber.subscribe(topic, SOURCE_QOS)?)
                    }
                    SourceKind::Range => SourceSub::Range(subscriber.subscribe(topic, SOURCE_QOS)?),
                    SourceKind::Polygon => {
                        SourceSub::Polygon(subscriber.subscribe(topic, SOURCE_QOS)?)
                    }
                });
            }
            Ok((
                sources,
                velocity,
                footprint,
                subscriber.subscribe::<ObstacleArray>("obstacles", input.clone())?,
                subscriber
                    .subscribe::<PolygonInstanceStamped>("obstacle_instances", input.clone())?,
                subscriber.subscribe::<TFMessage>("/tf", TF_QOS)?,
                subscriber.subscribe::<TFMessage>("/tf_static", TF_STATIC_QOS)?,
            ))
        })();
        let (sources, velocity, footprint, array, instances, tf, tf_static) =
            subscribed.map_err(|e| format!("cannot subscribe: {e}"))?;
        let Sinks {
            time,
            footprints,
            pending,
            tf: tf_buffer,
            tf_moved,
            velocity: velocity_sink,
            sources: readers,
            latest_sources,
            ..
        } = sinks;
        Ok(Inputs {
            gate,
            sources,
            velocity,
            footprint,
            array,
            instances,
            tf,
            tf_static,
            time,
            footprints,
            pending,
            tf_buffer,
            tf_moved,
            velocities: velocity_sink.map(|(_, _, slot)| slot),
            readers,
            latest_sources,
        })
    }

    /// Takes every message that is ready, stamps and reads it, and hands it
    /// on. Drained after every spin: r2r's channels (10 deep, dropping the
    /// newest when full) never fill.
    fn take(&mut self) {
        let time = &self.time;
        let tf_buffer = &self.tf_buffer;
        let mut large = false;
        // TF first: a footprint or obstacles read in the same spin are
        // then placed with the transforms that came with them.
        let mut moved = false;
        self.tf_static.each(|msg| {
            let arrival = time.arrival();
            crate::ros::tf::take(&mut lock(tf_buffer), msg, true, arrival);
        });
        self.tf.each(|msg| {
            let arrival = time.arrival();
            crate::ros::tf::take(&mut lock(tf_buffer), msg, false, arrival);
            moved = true;
        });
        if moved {
            if let Some(notify) = &self.tf_moved {
                notify.notify_one();
            }
        }
        // The gate's command first after TF: it is what a robot waits for.
        if let Some(gate) = &mut self.gate {
            gate.take_commands(time);
            gate.take_shapes();
        }
        if let (Some(sub), Some(slot)) = (self.velocity.as_mut(), self.velocities.as_ref()) {
            let mut latest = None;
            match sub {
                VelocitySub::Odometry(sub) => {
                    sub.each(|msg| latest = Some(VelocityInput::odometry(msg)));
                }
                VelocitySub::Twist(sub) => sub.each(|msg| latest = Some(VelocityInput::twist(msg))),
                VelocitySub::TwistStamped(sub) => {
                    sub.each(|msg| latest = Some(VelocityInput::twist_stamped(msg)));
                }
            }
            if let Some(input) = latest {
                slot.put(input, time.arrival());
            }
        }
        if let (Some(sub), Some(footprints)) = (self.footprint.as_mut(), self.footprints.as_ref()) {
            sub.each(|msg| {
                large |= inputs::footprint_bytes(msg) > LARGE_MESSAGE_BYTES;
                footprints.put(msg, time.arrival());
            });
        }
        let pending = &self.pending;
        self.array.each(|msg| {
            let arrival = time.arrival();
            large |= inputs::array_bytes(msg) > LARGE_MESSAGE_BYTES;
            pending.put_array(ArrayInput::read(msg), arrival);
        });
        self.instances.each(|msg| {
            let arrival = time.arrival();
            large |= inputs::instance_bytes(msg) > LARGE_MESSAGE_BYTES;
            pending.put_instance(InstanceInput::read(msg), arrival);
        });
        let latest_sources = &self.latest_sources;
        for (reader, sub) in self.readers.iter_mut().zip(self.sources.iter_mut()) {
            match sub {
                SourceSub::Scan(sub) => sub.each(|msg| {
                    let arrival = time.arrival();
                    let input = reader.native_scan(msg, latest_sources.buffer());
                    latest_sources.put(input, arrival);
                }),
                // Never `large`: a cloud comes every sensor period, the size
                // of the one before, into the memory that one freed.
                // Trimming after each would hand those pages back only for
                // the next take to fault them in again, before decoding
                // starts (a 3.2 MB cloud: 781 page faults, about 1 ms;
                // BENCHMARKS.md, "Node latency, point clouds").
                SourceSub::Cloud(sub) => sub.each(|msg| {
                    let arrival = time.arrival();
                    let buffer = latest_sources.buffer();
                    let tree = || TreeGuard(lock(tf_buffer));
                    let input = reader.native_cloud(msg, tree, arrival.time, buffer);
                    latest_sources.put(input, arrival);
                }),
                SourceSub::Range(sub) => sub.each(|msg| {
                    let arrival = time.arrival();
                    let input = reader.native_range(msg, latest_sources.buffer());
                    latest_sources.put(input, arrival);
                }),
                SourceSub::Polygon(sub) => sub.each(|msg| {
                    let arrival = time.arrival();
                    large |= inputs::instance_bytes(msg) > LARGE_MESSAGE_BYTES;
                    let input = InstanceInput::read_from(msg, Some(reader.index));
                    pending.put_instance(input, arrival);
                }),
            }
        }
        if large {
            trim_heap();
        }
    }
}
