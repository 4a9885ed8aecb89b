//! The inputs the monitor holds, as objects: each is a [`Stamped`] payload
//! (where and when it was stamped, when it arrived and under which clock
//! generation), judged by one rule ([`Stamped::cause`], built on
//! [`is_stale`]: see [Freshness](super#freshness)).
//!
//! An input kind is its payload type and an [`Input`] impl: the cause it
//! is when stale, and what its payload itself holds against its use. The
//! monitor registers each kind once, in `Monitor::causes` (see
//! ARCHITECTURE.md, "Adding an input kind").

use super::clock::JUMP_TOLERANCE;
use super::motion::MovingObstacle;
use crate::broadphase::{ObstacleIndex, PointSet};
use crate::geometry::{Shape, ShapeError, Vector};
use crate::model::{Cause, PeerStatus, Rejection};
use std::sync::Arc;

/// The node's clock as inputs are judged against it: the time (s) and the
/// number of backward jumps so far (see
/// [`ClockWatch`](super::clock::ClockWatch)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Now {
    pub(super) time: f64,
    pub(super) generation: u32,
}

/// An input kind: what its payload holds against the input's use.
pub(super) trait Input {
    /// The cause when the input is older than its timeout.
    const STALE: Cause;

    /// What the payload itself holds against its use (a refused message,
    /// an invalid shape), if anything.
    fn fault(&self) -> Option<Cause> {
        None
    }
}

/// One input as the monitor holds it.
#[derive(Clone, Debug)]
pub(super) struct Stamped<T> {
    /// The frame of its coordinates (empty when it was refused).
    pub(super) frame_id: String,
    /// Header stamp (s): the time its transform is looked up at; 0: not
    /// stamped (judged by arrival alone, placed with the latest transform).
    pub(super) stamp: f64,
    /// When it arrived (node time, s).
    pub(super) received: f64,
    /// The clock generation it arrived under.
    pub(super) generation: u32,
    /// What it says.
    pub(super) payload: T,
}

impl<T> Stamped<T> {
    /// An input stamped `stamp` in `frame_id`, arriving `now`.
    pub(super) fn new(frame_id: &str, stamp: f64, payload: T, now: Now) -> Self {
        Stamped {
            frame_id: frame_id.to_owned(),
            stamp,
            received: now.time,
            generation: now.generation,
            payload,
        }
    }

    /// It arrived under an older clock generation, or "in the future"
    /// (only a jump back makes that): from before a jump, not to be
    /// trusted.
    pub(super) fn before_jump(&self, now: Now) -> bool {
        self.generation != now.generation || self.received > now.time + JUMP_TOLERANCE
    }

    /// Older than `timeout` at `now` (s; 0: never), by the one freshness
    /// rule ([`is_stale`]).
    pub(super) fn is_stale(&self, now: f64, timeout: f64) -> bool {
        is_stale(timeout, now, self.received, self.stamp)
    }

    /// When it goes stale with `timeout` (> 0).
    pub(super) fn expiry(&self, timeout: f64) -> f64 {
        age_origin(self.received, self.stamp) + timeout
    }
}

impl<T: Input> Stamped<T> {
    /// Why the input cannot be used at `now` with `timeout` (s; 0: never
    /// stale), if it cannot: from before a clock jump, stale, or its
    /// payload's own fault, in that order.
    pub(super) fn cause(&self, now: Now, timeout: f64) -> Option<Cause> {
        if self.before_jump(now) {
            Some(Cause::ClockJumpedBack)
        } else if self.is_stale(now.time, timeout) {
            Some(T::STALE)
        } else {
            self.payload.fault()
        }
    }
}

/// The footprint: a shape, or why there is none.
#[derive(Clone, Debug)]
pub(super) struct FootprintShape(pub(super) Result<Shape, FootprintFault>);

/// Why the latest footprint cannot be used.
#[derive(Clone, Debug)]
pub(super) enum FootprintFault {
    /// Its points are not a valid polygon.
    Shape(ShapeError),
    /// The message was refused before its points were read.
    Rejected(Rejection),
}

impl Input for FootprintShape {
    const STALE: Cause = Cause::StaleFootprint;

    fn fault(&self) -> Option<Cause> {
        match &self.0 {
            Ok(_) => None,
            Err(FootprintFault::Rejected(rejection)) => Some(Cause::RejectedFootprint(*rejection)),
            Err(FootprintFault::Shape(_)) => Some(Cause::InvalidFootprint),
        }
    }
}

/// The footprint input.
pub(super) type Footprint = Stamped<FootprintShape>;

/// The obstacle array's bookkeeping (its obstacles are in the obstacle
/// set).
#[derive(Clone, Copy, Debug)]
pub(super) struct ArrayState {
    /// Set when the array was refused as a whole (it then holds no
    /// obstacle).
    pub(super) rejected: Option<Rejection>,
}

impl Input for ArrayState {
    const STALE: Cause = Cause::StaleObstacles;

    fn fault(&self) -> Option<Cause> {
        self.rejected.map(Cause::RejectedObstacles)
    }
}

/// The obstacle array input.
pub(super) type ObstacleArray = Stamped<ArrayState>;

/// An obstacle instance's bookkeeping; its obstacle itself is held once,
/// in the obstacle set (never copied when another is upserted). An
/// instance past its lifetime is dropped (`Monitor::expire_instances`),
/// not stale: until then it only adds an obstacle, never a wrong "clear".
#[derive(Clone, Copy, Debug)]
pub(super) struct InstanceState {
    /// Vertices its obstacle holds (`held_vertices`).
    pub(super) vertices: usize,
    /// Its own lifetime (s), when it has one (a polygon source's
    /// `source_timeout`).
    pub(super) lifetime: Option<f64>,
    /// Its obstacle's shape is valid (a polygon source's polygon that
    /// crosses itself, or has too few vertices, is not: the source cannot
    /// be used while it holds one).
    pub(super) valid: bool,
}

impl InstanceState {
    /// How long it lives (s; 0 = for ever): its own lifetime, or
    /// `obstacles_timeout`.
    pub(super) fn lifetime(&self, obstacles_timeout: f64) -> f64 {
        self.lifetime.unwrap_or(obstacles_timeout)
    }
}

impl Input for InstanceState {
    const STALE: Cause = Cause::StaleObstacles;
}

/// An obstacle instance input.
pub(super) type Instance = Stamped<InstanceState>;

/// The robot's velocity: a body twist of the input's frame (empty:
/// `base_frame`, see [`Monitor::predict`](super::Monitor::predict)).
#[derive(Clone, Copy, Debug)]
pub(super) struct Twist {
    /// m/s in the frame's axes, and rad/s; `None`: not finite, or refused.
    pub(super) twist: Option<(Vector, f64)>,
}

impl Input for Twist {
    const STALE: Cause = Cause::StaleVelocity;

    fn fault(&self) -> Option<Cause> {
        self.twist.is_none().then_some(Cause::InvalidVelocity)
    }
}

/// The velocity input.
pub(super) type Velocity = Stamped<Twist>;

/// A point source's latest message: its points in the message's frame (a
/// point cloud's already in the base frame: see `sensors::cloud_points`),
/// or what made the message unusable.
#[derive(Clone, Debug, Default)]
pub(super) struct SourcePoints {
    /// Shared with the copies a report takes (no copy of the points).
    pub(super) points: Arc<PointSet>,
    /// A costmap's obstacle cells, each the square it covers, in the
    /// data's frame (empty for the other sources): obstacles counted like
    /// points, each cell one ([`MonitorConfig::min_points`](super::MonitorConfig::min_points)).
    pub(super) cells: Arc<ObstacleIndex>,
    /// A fleet's peers moving, one per cell of `cells` in its order (empty
    /// for the other sources): each cell is a peer, which counts as
    /// `min_points` alone (one robot is enough), and moves for the
    /// prediction.
    pub(super) moving: Arc<[MovingObstacle]>,
    /// A fleet's peers' statuses, one per cell (empty for the other
    /// sources).
    pub(super) peer_statuses: Arc<[PeerStatus]>,
    /// The message was malformed, or its transform could not be found.
    pub(super) fault: Option<Cause>,
    /// The points were moved into the data's frame from the message's own
    /// frame (a point cloud's, into the base frame by its 3-D transform
    /// at its stamp); false: that frame is the message's.
    pub(super) moved: bool,
}

impl Input for SourcePoints {
    const STALE: Cause = Cause::StaleSource;

    fn fault(&self) -> Option<Cause> {
        self.fault
    }
}

/// A point source's input.
pub(super) type SourceData = Stamped<SourcePoints>;

/// The freshness rule (see [Freshness](super#freshness)): whether an input
/// that arrived at `received`, stamped `stamp` (0: not stamped), is stale
/// at `now` with `timeout` (s; 0: never).
pub fn is_stale(timeout: f64, now: f64, received: f64, stamp: f64) -> bool {
    timeout > 0.0
        && (now - age_origin(received, stamp) > timeout || (stamp != 0.0 && stamp - now > timeout))
}

/// What an input's age counts from: its arrival, or its stamp when that is
/// earlier and not 0. With a timeout, it is stale past this plus the
/// timeout ([`is_stale`]).
fn age_origin(received: f64, stamp: f64) -> f64 {
    match stamp == 0.0 {
        true => received,
        false => received.min(stamp),
    }
}
