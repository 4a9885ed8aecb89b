//! What the node knows, how fresh it is, and what it decides.
//!
//! Pure logic: no ROS, no clock of its own. Callers pass the current time
//! (seconds, any monotonic epoch) with every update and every evaluation.
//!
//! # Fail-safe rule
//! A report is `valid` only when a footprint and obstacle information are
//! present, fresh, in the same frame, and every shape is valid. Otherwise
//! `status` names the first cause found (in the order of [`Cause`](crate::model::Cause)) and,
//! with `fail_safe`, the collision flag reads `true`: when the monitor
//! cannot tell, the robot must not be told "clear".
//!
//! # Freshness
//! One rule for every input whose stamp is used ([`is_stale`]): the
//! footprint, the obstacle array, each obstacle instance (its expiry) and
//! the velocity. An input is fresh while
//! 1. it arrived (the node's clock) within its timeout, and
//! 2. when its header stamp is not 0, the stamp is within the same timeout
//!    of now, either way.
//!
//! (1) bounds how long the node answers about a message, whatever it is
//! stamped, so an input stamped 0 (a publisher that does not stamp) is
//! judged by arrival alone; it is placed with the latest transforms, whose
//! own age TF judges. (2) is needed because placement uses the stamp: a
//! footprint stamped 5 s ago is placed where the robot was 5 s ago, which
//! arriving now does not make current. A publisher whose clock lags behind
//! by more than the timeout is therefore refused (stale): right, since its
//! inputs would be placed where the robot was. A stamp ahead of now by
//! more than the timeout is refused too: no clock the node can trust
//! made it, and without TF nothing else would notice (with TF, a stamp
//! past the newest transform is already `stale_transform`).

mod config;
mod inputs;
mod obstacle_set;
mod paths;
mod predict;
mod regions;
mod sources;
mod state;

pub mod clock;
mod motion;
mod placement;

pub use crate::limits::{MAX_INSTANCES, MAX_INSTANCE_VERTICES};
pub use config::{
    MonitorConfig, SourceKind, SourceSpec, DEFAULT_OVERLOAD_TIMEOUT, DEFAULT_TRANSFORM_TOLERANCE,
};
pub use inputs::is_stale;
pub use motion::{
    path_times, MotionImpact, MovingObstacle, PathCheck, Prediction, Sweep, DEFAULT_TIME_HORIZON,
    DEFAULT_VELOCITY_TIMEOUT,
};
pub use obstacle_set::{InstanceUpdate, InstancesApplied, ObstacleSet};
pub use paths::TrajectoryCheck;
pub use placement::{NoTransforms, Transforms};
pub use regions::{BaseFrames, BasePlacement, SourceFault};
pub use sources::{source_polygon_id, source_polygon_prefix};
pub use state::Monitor;

#[cfg(test)]
pub(crate) mod tests;
