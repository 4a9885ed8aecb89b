//! The I/O thread (`ros_io`): spins r2r, takes every input message the
//! moment rcl has it, stamps its arrival and hands it on.

use super::gate::{GateSinks, GateSubs};
use super::ros_time::RosTime;
use super::threads::{lock, trim_heap};
use crate::config::{InputReliability, VelocityType};
use crate::monitor::SourceKind;
use crate::ros::inputs::{
    self, ArrayInput, InstanceInput, LatestFootprint, LatestVelocity, PendingObstacles,
    VelocityInput,
};
use crate::ros::sources::{LatestSources, SourceReader, SOURCE_QOS};
use crate::ros::spin::{spin_until, StopFlag};
use crate::ros::tf::TfBuffer;
use futures::StreamExt;
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

/// The next item of `stream` if one is ready now.
fn ready_now<S: futures::Stream + Unpin>(stream: &mut S) -> Option<S::Item> {
    futures::FutureExt::now_or_never(stream.next()).flatten()
}

/// Spins the node on its own thread: subscriptions are created there (r2r's
/// native messages are not Send), every message is stamped and read the
/// moment it is taken, then handed on. Reports set-up errors through
/// `started`.
pub(super) fn io_thread(
    mut node: r2r::Node,
    mut sinks: Sinks,
    stop: StopFlag,
    started: std::sync::mpsc::Sender<Result<(), String>>,
) {
    let input = input_qos(sinks.reliability);
    let gate = match sinks
        .gate
        .take()
        .map(|g| GateSubs::subscribe(&mut node, g))
        .transpose()
    {
        Ok(gate) => gate,
        Err(e) => {
            let _ = started.send(Err(format!("cannot subscribe the gate's topics: {e}")));
            return;
        }
    };
    let mut gate = gate;
    let subscribed = (|| -> r2r::Result<_> {
        let footprint = match sinks.footprints {
            Some(_) => Some(node.subscribe_native::<PolygonStamped>("footprint", input.clone())?),
            None => None,
        };
        let velocity = match &sinks.velocity {
            None => None,
            Some((topic, kind, _)) => Some(match kind {
                VelocityType::Twist => {
                    VelocitySub::Twist(node.subscribe_native::<Twist>(topic, input.clone())?)
                }
                VelocityType::TwistStamped => VelocitySub::TwistStamped(
                    node.subscribe_native::<TwistStamped>(topic, input.clone())?,
                ),
                VelocityType::Odometry => {
                    VelocitySub::Odometry(node.subscribe_native::<Odometry>(topic, input.clone())?)
                }
            }),
        };
        let mut sources = Vec::with_capacity(sinks.sources.len());
        for reader in &sinks.sources {
            let topic = reader.config.topic.as_str();
            sources.push(match reader.kind() {
                SourceKind::Scan => {
                    SourceSub::Scan(node.subscribe_native::<LaserScan>(topic, SOURCE_QOS)?)
                }
                SourceKind::PointCloud => {
                    SourceSub::Cloud(node.subscribe_native::<PointCloud2>(topic, SOURCE_QOS)?)
                }
                SourceKind::Range => {
                    SourceSub::Range(node.subscribe_native::<Range>(topic, SOURCE_QOS)?)
                }
                SourceKind::Polygon => SourceSub::Polygon(
                    node.subscribe_native::<PolygonInstanceStamped>(topic, SOURCE_QOS)?,
                ),
            });
        }
        Ok((
            sources,
            velocity,
            footprint,
            node.subscribe_native::<ObstacleArray>("obstacles", input.clone())?,
            node.subscribe_native::<PolygonInstanceStamped>("obstacle_instances", input.clone())?,
            node.subscribe_native::<TFMessage>("/tf", TF_QOS)?,
            node.subscribe_native::<TFMessage>("/tf_static", TF_STATIC_QOS)?,
        ))
    })();
    let (
        mut source_subs,
        mut velocity_sub,
        mut footprint_sub,
        mut array_sub,
        mut instance_sub,
        mut tf_sub,
        mut tf_static_sub,
    ) = match subscribed {
        Ok(subs) => {
            let _ = started.send(Ok(()));
            subs
        }
        Err(e) => {
            let _ = started.send(Err(format!("cannot subscribe: {e}")));
            return;
        }
    };
    let Sinks {
        time,
        footprints,
        pending,
        tf,
        tf_moved,
        velocity,
        sources: mut readers,
        latest_sources,
        ..
    } = sinks;
    let velocities = velocity.map(|(_, _, slot)| slot);
    spin_until(&mut node, &stop, || {
        // Drained after every spin: r2r's channels (10 deep, dropping the
        // newest when full) never fill.
        let mut large = false;
        // TF first: a footprint or obstacles read in the same spin are
        // then placed with the transforms that came with them.
        let mut moved = false;
        while let Some(msg) = ready_now(&mut tf_static_sub) {
            let arrival = time.arrival();
            lock(&tf).take(&msg, true, arrival);
        }
        while let Some(msg) = ready_now(&mut tf_sub) {
            let arrival = time.arrival();
            lock(&tf).take(&msg, false, arrival);
            moved = true;
        }
        if moved {
            if let Some(notify) = &tf_moved {
                notify.notify_one();
            }
        }
        // The gate's command first after TF: it is what a robot waits for.
        if let Some(gate) = &mut gate {
            gate.take_commands(&time);
            gate.take_shapes();
        }
        if let (Some(sub), Some(slot)) = (velocity_sub.as_mut(), velocities.as_ref()) {
            let mut latest = None;
            match sub {
                VelocitySub::Odometry(sub) => {
                    while let Some(msg) = ready_now(sub) {
                        latest = Some(VelocityInput::odometry(&msg));
                    }
                }
                VelocitySub::Twist(sub) => {
                    while let Some(msg) = ready_now(sub) {
                        latest = Some(VelocityInput::twist(&msg));
                    }
                }
                VelocitySub::TwistStamped(sub) => {
                    while let Some(msg) = ready_now(sub) {
                        latest = Some(VelocityInput::twist_stamped(&msg));
                    }
                }
            }
            if let Some(input) = latest {
                slot.put(input, time.arrival());
            }
        }
        if let (Some(sub), Some(footprints)) = (footprint_sub.as_mut(), footprints.as_ref()) {
            while let Some(msg) = ready_now(sub) {
                large |= inputs::footprint_bytes(&msg) > LARGE_MESSAGE_BYTES;
                footprints.put(&msg, time.arrival());
            }
        }
        while let Some(msg) = ready_now(&mut array_sub) {
            let arrival = time.arrival();
            large |= inputs::array_bytes(&msg) > LARGE_MESSAGE_BYTES;
            pending.put_array(ArrayInput::read(&msg), arrival);
        }
        while let Some(msg) = ready_now(&mut instance_sub) {
            let arrival = time.arrival();
            large |= inputs::instance_bytes(&msg) > LARGE_MESSAGE_BYTES;
            pending.put_instance(InstanceInput::read(&msg), arrival);
        }
        for (reader, sub) in readers.iter_mut().zip(source_subs.iter_mut()) {
            match sub {
                SourceSub::Scan(sub) => {
                    while let Some(msg) = ready_now(sub) {
                        let arrival = time.arrival();
                        let input = reader.scan(&msg, latest_sources.buffer());
                        latest_sources.put(input, arrival);
                    }
                }
                SourceSub::Cloud(sub) => {
                    // Never `large`: a cloud comes every sensor period, the
                    // size of the one before, into the memory that one
                    // freed. Trimming after each would hand those pages back
                    // only for the next take to fault them in again, before
                    // decoding starts (a 3.2 MB cloud: 781 page faults, about
                    // 1 ms; BENCHMARKS.md, "Node latency, point clouds").
                    while let Some(msg) = ready_now(sub) {
                        let arrival = time.arrival();
                        let buffer = latest_sources.buffer();
                        let tree = || TreeGuard(lock(&tf));
                        let input = reader.cloud(&msg, tree, arrival.time, buffer);
                        latest_sources.put(input, arrival);
                    }
                }
                SourceSub::Range(sub) => {
                    while let Some(msg) = ready_now(sub) {
                        let arrival = time.arrival();
                        let input = reader.range(&msg, latest_sources.buffer());
                        latest_sources.put(input, arrival);
                    }
                }
                SourceSub::Polygon(sub) => {
                    while let Some(msg) = ready_now(sub) {
                        let arrival = time.arrival();
                        large |= inputs::instance_bytes(&msg) > LARGE_MESSAGE_BYTES;
                        let input = InstanceInput::read_from(&msg, Some(reader.index));
                        pending.put_instance(input, arrival);
                    }
                }
            }
        }
        if large {
            trim_heap();
        }
    });
}
