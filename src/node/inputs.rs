//! The inputs the core takes, already read from their messages: checked
//! (frame ids, sizes) and copied into the library's own types by an edge
//! (`ros::inputs` from rcl's native messages, `replay` from a bag's CDR).
//! Each is stamped with its [`Arrival`].

use crate::broadphase::{ObstacleIndex, PointSet};
use crate::gate::Command;
use crate::geometry::Point;
use crate::model::{Cause, ObstacleGeometry, Rejection};

/// When an input arrived: taken from rcl, or a recorded message's log
/// time in a replay.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Arrival {
    /// ROS time (s).
    pub time: f64,
    /// The clock generation it was read under (see
    /// [`crate::monitor::clock::ClockWatch`]).
    pub generation: u32,
}

/// A footprint message, its buffers reused from message to message.
#[derive(Debug, Default)]
pub struct FootprintInput {
    /// The header's frame id.
    pub frame_id: String,
    /// Header stamp (s).
    pub stamp: f64,
    /// The polygon's points.
    pub points: Vec<Point>,
    /// Set when the message was refused; `frame_id` and `points` are then
    /// meaningless.
    pub rejected: Option<Rejection>,
}

/// An obstacle array, or why it was refused.
#[derive(Debug)]
pub enum ArrayInput {
    /// The obstacles as received.
    Obstacles {
        /// The header's frame id.
        frame_id: String,
        /// Header stamp (s).
        stamp: f64,
        /// `(id, geometry)` in message order.
        obstacles: Vec<(String, ObstacleGeometry)>,
    },
    /// The message was refused as a whole.
    Rejected(Rejection),
}

/// One obstacle instance, or why it was refused.
#[derive(Debug)]
pub enum InstanceInput {
    /// The instance as received.
    Instance {
        /// The header's frame id.
        frame_id: String,
        /// Header stamp (s).
        stamp: f64,
        /// The instance's id (reported as `instance_<id>`, or
        /// `<source>/<id>` for a polygon source's).
        id: i64,
        /// The polygon source it came from (its position in
        /// `observation_sources`); `None`: `obstacle_instances`.
        source: Option<usize>,
        /// The polygon's points.
        points: Vec<Point>,
    },
    /// The message was refused as a whole.
    Rejected(Rejection),
}

/// A velocity message: the frame whose motion it is and its planar twist
/// (`vx`, `vy` in that frame's axes, m/s; `wz`, rad/s). Roll, pitch, `vz`
/// are ignored: the robot moves in the plane.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VelocityInput {
    /// Empty: the robot's frame (`base_frame`; without one the velocity
    /// is not used).
    pub frame_id: String,
    /// Header stamp (s); 0 for a `Twist` (no header).
    pub stamp: f64,
    /// `(vx, vy)` (m/s), in `frame_id`'s axes.
    pub linear: (f64, f64),
    /// `wz` (rad/s).
    pub angular: f64,
    /// The frame id was refused; the rest is meaningless.
    pub rejected: bool,
}

/// Gives a reused buffer's memory back after a large message.
pub fn shrink<T>(buffer: &mut Vec<T>) {
    if buffer.capacity() > 4 * buffer.len().max(1024) {
        buffer.shrink_to_fit();
    }
}

/// One source's latest message, read: its points (in `frame_id`), or why it
/// cannot be used.
#[derive(Debug)]
pub struct SourceInput {
    /// The source's position in `observation_sources`.
    pub index: usize,
    /// The frame of the points (a cloud's: `base_frame`).
    pub frame_id: String,
    /// The points were moved into `frame_id` from the message's own frame
    /// (a cloud in another frame than `base_frame`, by its 3-D transform at
    /// `stamp`); false: `frame_id` is the message's. The velocity gate
    /// places a message in the base frame without any transform
    /// (`monitor::regions`).
    pub moved: bool,
    /// Header stamp (s).
    pub stamp: f64,
    /// The points, or the cause the message holds against the answer.
    pub points: Result<PointSet, Cause>,
    /// A costmap's obstacle cells, indexed (its `points` then `Ok` and
    /// empty); `None` for the other sources.
    pub cells: Option<ObstacleIndex>,
    /// Why it was refused, for the log (empty when it was not).
    pub reason: &'static str,
    /// What the source's exclusion zones masked, and those that could not
    /// be placed (and masked nothing).
    pub exclusion: super::Exclusion,
}

/// A command for the velocity gate as read: its twist and, for a
/// `TwistStamped`, its header (copied to the output).
#[derive(Clone, Debug, Default)]
pub struct CommandIn {
    /// The commanded twist.
    pub command: Command,
    /// Header stamp's seconds (`TwistStamped`).
    pub sec: i32,
    /// Header stamp's nanoseconds (`TwistStamped`).
    pub nanosec: u32,
    /// Header frame id (`TwistStamped`; empty when it could not be read).
    pub frame_id: String,
}

impl CommandIn {
    /// Copies `other` into `self`, reusing the frame id's buffer.
    pub fn copy_from(&mut self, other: &CommandIn) {
        self.command = other.command;
        self.sec = other.sec;
        self.nanosec = other.nanosec;
        self.frame_id.clone_from(&other.frame_id);
    }
}

/// A dynamic zone's shape as received.
#[derive(Debug)]
pub enum ShapeInput {
    /// A `PolygonStamped` (`polygon_sub_topic` or `footprint_topic`).
    Polygon(FootprintInput),
    /// A circle zone's radius (`std_msgs/Float32`), centred on the base frame.
    Radius(f64),
}
