//! What the I/O thread reads into: the slots and settings configure
//! hands it ([`Sinks`]), and the QoS of the inputs it subscribes.

use crate::config::{InputReliability, VelocityType};
use crate::ros::inputs::{LatestFootprint, LatestVelocity, PendingObstacles};
use crate::ros::node::gate::GateSinks;
use crate::ros::node::ros_time::RosTime;
use crate::ros::sources::{LatestSources, SourceReader};
use crate::ros::tf::TfBuffer;
use r2r::QosProfile;
use std::sync::{Arc, Mutex};

/// Inputs (footprint, obstacles, instances) by default: best effort, so
/// that both reliable publishers and best-effort ones (sensor-data QoS,
/// common for perception) connect; keep-latest slots take what arrives.
/// `input_reliability: reliable` makes them reliable (only reliable
/// publishers connect; a lost fragment of a multi-MB message is sent again).
pub(crate) fn input_qos(reliability: InputReliability) -> QosProfile {
    match reliability {
        InputReliability::Reliable => QosProfile::default(),
        InputReliability::BestEffort => QosProfile::default().best_effort(),
    }
}

/// `/tf`: as tf2's listener takes it (depth 100), but best effort so that
/// any publisher connects.
pub(crate) const TF_QOS: QosProfile = QosProfile::default().best_effort().keep_last(100);

/// `/tf_static`: tf2's static QoS (reliable, transient local, depth 100),
/// so a node that starts late still receives the static tree.
pub(crate) const TF_STATIC_QOS: QosProfile = QosProfile::default()
    .reliable()
    .transient_local()
    .keep_last(100);

/// Where the I/O thread puts what it reads.
pub(crate) struct Sinks {
    pub(crate) time: Arc<RosTime>,
    /// `None`: the footprint comes from TF (`base_frame`); the topic is
    /// not subscribed.
    pub(crate) footprints: Option<Arc<LatestFootprint>>,
    pub(crate) pending: Arc<PendingObstacles>,
    pub(crate) tf: Arc<Mutex<TfBuffer>>,
    /// Woken after each `/tf` message, when the footprint comes from TF:
    /// the robot moved.
    pub(crate) tf_moved: Option<Arc<tokio::sync::Notify>>,
    /// `input_reliability`.
    pub(crate) reliability: InputReliability,
    /// `velocity_topic` (not empty) and `velocity_type`, and where the
    /// newest velocity goes.
    pub(crate) velocity: Option<(String, VelocityType, Arc<LatestVelocity>)>,
    /// The point sources' readers (`observation_sources`), and where their
    /// newest inputs go.
    pub(crate) sources: Vec<SourceReader>,
    pub(crate) latest_sources: Arc<LatestSources>,
    /// The velocity gate's topics, when it has zones.
    pub(crate) gate: Option<GateSinks>,
    /// `fleet_topic`, when a fleet source is configured, and where its
    /// messages go.
    pub(crate) fleet: Option<(String, Arc<crate::ros::fleet::LatestFleet>)>,
}
