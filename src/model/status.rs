//! Statuses: why an answer is (not) valid, typed.
//!
//! One [`Status`] names every state the package reports, from a whole
//! report's (`ok`, `stale_footprint`, ...) to one obstacle's
//! (`self_intersecting`, ...) and the planner service's refusals. It
//! becomes text only at the edges (ROS messages, JSON, logs) through
//! [`Status::as_str`], whose spellings are part of the package's interface
//! and never change.

use crate::geometry::{PolygonError, ShapeError};
use std::fmt;

/// Every status the package reports. The snake_case spelling of each
/// variant is its [`as_str`](Status::as_str).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    /// Everything checked: the answer is valid.
    Ok,
    // Report and flag: the causes of `Cause`, in its order.
    /// See [`Cause::NoClock`].
    NoClock,
    /// See [`Cause::ClockStalled`].
    ClockStalled,
    /// No footprint received yet.
    NoFootprint,
    /// See [`Cause::ClockJumpedBack`].
    ClockJumpedBack,
    /// The footprint is older than `footprint_timeout` (by arrival or by
    /// stamp).
    StaleFootprint,
    /// The footprint is not a valid shape.
    InvalidFootprint,
    /// No obstacle information received yet.
    NoObstacles,
    /// The obstacle array is older than `obstacles_timeout` (by arrival or
    /// by stamp).
    StaleObstacles,
    /// See [`Cause::NoSourceData`].
    NoSourceData,
    /// See [`Cause::StaleSource`].
    StaleSource,
    /// See [`Cause::InvalidSource`].
    InvalidSource,
    /// See [`Cause::Overloaded`].
    Overloaded,
    /// See [`Cause::TransformConflict`].
    TransformConflict,
    /// See [`Cause::InvalidTransform`].
    InvalidTransform,
    /// A frame the answer needs was dropped at the TF frame limit.
    TooManyFrames,
    /// See [`Cause::TransformUnavailable`].
    TransformUnavailable,
    /// See [`Cause::StaleTransform`].
    StaleTransform,
    /// See [`Cause::FrameMismatch`].
    FrameMismatch,
    /// Some obstacle is not a valid shape.
    InvalidObstacle,
    // A whole message refused (`Rejection`).
    /// See [`Rejection::InvalidFrameId`].
    InvalidFrameId,
    /// See [`Rejection::InvalidId`].
    InvalidId,
    /// See [`Rejection::TooManyObstacles`].
    TooManyObstacles,
    /// A message, or one polygon, with more vertices than accepted.
    TooManyVertices,
    // One shape (`ShapeError`).
    /// See [`PolygonError::TooFewPoints`].
    TooFewPoints,
    /// A coordinate or radius NaN, infinite or out of range: see
    /// [`PolygonError::NonFinite`], [`ShapeError::NonFiniteCircle`].
    NonFinite,
    /// See [`PolygonError::ZeroArea`].
    ZeroArea,
    /// See [`PolygonError::SelfIntersecting`].
    SelfIntersecting,
    /// See [`PolygonError::NotConvex`].
    NotConvex,
    /// See [`ShapeError::InvalidRadius`].
    InvalidRadius,
    // One obstacle line of an offline scene report.
    /// The obstacle was not checked because the footprint is invalid.
    Unchecked,
    // The planner service (`check_footprint`) refusing a request.
    /// More work than `max_service_checks` allows.
    RequestTooLarge,
    /// No footprint in the request and none configured.
    NoRobotFootprint,
    /// Padding not finite or negative.
    InvalidPadding,
    /// A pose that is not one (a field not finite, a zero quaternion).
    InvalidPose,
    // The prediction (`velocity_topic`).
    /// No velocity received yet.
    NoVelocity,
    /// The last velocity is older than `velocity_timeout` (by arrival or
    /// by stamp).
    StaleVelocity,
    /// The last velocity was not finite (or refused).
    InvalidVelocity,
    /// The last velocity names no frame (a `Twist` command, or an empty
    /// frame id) and there is no `base_frame`: whose motion it is is
    /// unknown.
    UnknownVelocityFrame,
    // The node's lifecycle.
    /// The node is not active (lifecycle state unconfigured or inactive):
    /// nothing was checked.
    Inactive,
    /// The check itself failed (a bug): answered fail-safe.
    InternalError,
}

impl Status {
    /// Every status, in declaration order.
    pub const ALL: [Status; 41] = [
        Status::Ok,
        Status::NoClock,
        Status::ClockStalled,
        Status::NoFootprint,
        Status::ClockJumpedBack,
        Status::StaleFootprint,
        Status::InvalidFootprint,
        Status::NoObstacles,
        Status::StaleObstacles,
        Status::NoSourceData,
        Status::StaleSource,
        Status::InvalidSource,
        Status::Overloaded,
        Status::TransformConflict,
        Status::InvalidTransform,
        Status::TooManyFrames,
        Status::TransformUnavailable,
        Status::StaleTransform,
        Status::FrameMismatch,
        Status::InvalidObstacle,
        Status::InvalidFrameId,
        Status::InvalidId,
        Status::TooManyObstacles,
        Status::TooManyVertices,
        Status::TooFewPoints,
        Status::NonFinite,
        Status::ZeroArea,
        Status::SelfIntersecting,
        Status::NotConvex,
        Status::InvalidRadius,
        Status::Unchecked,
        Status::RequestTooLarge,
        Status::NoRobotFootprint,
        Status::InvalidPadding,
        Status::InvalidPose,
        Status::NoVelocity,
        Status::StaleVelocity,
        Status::InvalidVelocity,
        Status::UnknownVelocityFrame,
        Status::Inactive,
        Status::InternalError,
    ];

    /// The stable spelling used in messages, JSON and logs.
    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::NoClock => "no_clock",
            Status::ClockStalled => "clock_stalled",
            Status::NoFootprint => "no_footprint",
            Status::ClockJumpedBack => "clock_jumped_back",
            Status::StaleFootprint => "stale_footprint",
            Status::InvalidFootprint => "invalid_footprint",
            Status::NoObstacles => "no_obstacles",
            Status::StaleObstacles => "stale_obstacles",
            Status::NoSourceData => "no_source_data",
            Status::StaleSource => "stale_source",
            Status::InvalidSource => "invalid_source",
            Status::Overloaded => "overloaded",
            Status::TransformConflict => "transform_conflict",
            Status::InvalidTransform => "invalid_transform",
            Status::TooManyFrames => "too_many_frames",
            Status::TransformUnavailable => "transform_unavailable",
            Status::StaleTransform => "stale_transform",
            Status::FrameMismatch => "frame_mismatch",
            Status::InvalidObstacle => "invalid_obstacle",
            Status::InvalidFrameId => "invalid_frame_id",
            Status::InvalidId => "invalid_id",
            Status::TooManyObstacles => "too_many_obstacles",
            Status::TooManyVertices => "too_many_vertices",
            Status::TooFewPoints => "too_few_points",
            Status::NonFinite => "non_finite",
            Status::ZeroArea => "zero_area",
            Status::SelfIntersecting => "self_intersecting",
            Status::NotConvex => "not_convex",
            Status::InvalidRadius => "invalid_radius",
            Status::Unchecked => "unchecked",
            Status::RequestTooLarge => "request_too_large",
            Status::NoRobotFootprint => "no_robot_footprint",
            Status::InvalidPadding => "invalid_padding",
            Status::InvalidPose => "invalid_pose",
            Status::NoVelocity => "no_velocity",
            Status::StaleVelocity => "stale_velocity",
            Status::InvalidVelocity => "invalid_velocity",
            Status::UnknownVelocityFrame => "unknown_velocity_frame",
            Status::Inactive => "inactive",
            Status::InternalError => "internal_error",
        }
    }

    /// True for [`Status::Ok`].
    pub fn is_ok(self) -> bool {
        self == Status::Ok
    }

    /// `Ok` when there is no cause, else the cause's status.
    pub fn of(cause: Option<Cause>) -> Status {
        cause.map_or(Status::Ok, Status::from)
    }
}

impl fmt::Display for Status {
    /// The spelling, padded like a `str` (`{:<20}` aligns a column).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// Compares the spelling: what a user sees (used by tests).
impl PartialEq<&str> for Status {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<str> for Status {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl serde::Serialize for Status {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// Why an answer is not valid. The order of the variants is the order of
/// precedence: when several hold, the first decides the status
/// ([`Verdict`](super::Verdict)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Cause {
    /// `use_sim_time` and no `/clock` yet: ROS time reads 0.
    NoClock,
    /// ROS time has not advanced for longer than the timeouts (a `/clock`
    /// that stopped): freshness cannot be judged.
    ClockStalled,
    /// No footprint received yet.
    NoFootprint,
    /// ROS time went back; an input in use was received before the jump.
    ClockJumpedBack,
    /// The footprint is older than `footprint_timeout` (by arrival or by
    /// stamp).
    StaleFootprint,
    /// The footprint message itself was refused (its frame id, its size).
    RejectedFootprint(Rejection),
    /// The footprint is not a valid shape.
    InvalidFootprint,
    /// No obstacle information received yet.
    NoObstacles,
    /// The obstacle array is older than `obstacles_timeout` (by arrival or
    /// by stamp).
    StaleObstacles,
    /// An enabled sensor source (`observation_sources`) has sent nothing
    /// yet.
    NoSourceData,
    /// A sensor source's latest message is older than its `source_timeout`
    /// (by arrival or by stamp).
    StaleSource,
    /// A sensor source's latest message could not be read: malformed
    /// (fields missing, sizes inconsistent, an unsupported datatype),
    /// over the point limit, or a reading outside its limits (REP 117).
    InvalidSource,
    /// Newer obstacle information arrived but has not been taken in within
    /// the monitor's overload timeout: the node is behind.
    Overloaded,
    /// The latest obstacle array (or an obstacle instance) was refused as a
    /// whole (its frame id, an id, its size).
    RejectedObstacles(Rejection),
    /// A frame the answer needs has two parents (two publishers disagree),
    /// or the TF tree has a loop.
    TransformConflict,
    /// The newest transform of a frame the answer needs was refused:
    /// not finite, or its quaternion is not a rotation.
    InvalidTransform,
    /// A frame the answer needs is unknown because it was evicted or
    /// refused at the TF frame limit (`frames::MAX_TF_FRAMES`).
    TooManyFrames,
    /// No transform between two frames the answer needs: a frame TF does
    /// not know, two trees, or an input stamped before the TF history.
    TransformUnavailable,
    /// A transform the answer needs is older than `transform_tolerance`:
    /// than the input's stamp, or (for the latest one) than now.
    StaleTransform,
    /// The inputs are in different frames and no TF has been received.
    FrameMismatch,
    /// Some obstacle is not a valid shape.
    InvalidObstacle,
    /// A prediction without a velocity: none received yet.
    NoVelocity,
    /// The velocity is older than `velocity_timeout` (by arrival or by
    /// stamp).
    StaleVelocity,
    /// The latest velocity was refused or is not finite.
    InvalidVelocity,
    /// The velocity names no frame and no `base_frame` is set: whose
    /// motion it is cannot be known.
    UnknownVelocityFrame,
}

impl From<Cause> for Status {
    fn from(cause: Cause) -> Status {
        match cause {
            Cause::NoClock => Status::NoClock,
            Cause::ClockStalled => Status::ClockStalled,
            Cause::NoFootprint => Status::NoFootprint,
            Cause::ClockJumpedBack => Status::ClockJumpedBack,
            Cause::StaleFootprint => Status::StaleFootprint,
            Cause::RejectedFootprint(r) | Cause::RejectedObstacles(r) => r.into(),
            Cause::InvalidFootprint => Status::InvalidFootprint,
            Cause::NoObstacles => Status::NoObstacles,
            Cause::StaleObstacles => Status::StaleObstacles,
            Cause::NoSourceData => Status::NoSourceData,
            Cause::StaleSource => Status::StaleSource,
            Cause::InvalidSource => Status::InvalidSource,
            Cause::Overloaded => Status::Overloaded,
            Cause::TransformConflict => Status::TransformConflict,
            Cause::InvalidTransform => Status::InvalidTransform,
            Cause::TooManyFrames => Status::TooManyFrames,
            Cause::TransformUnavailable => Status::TransformUnavailable,
            Cause::StaleTransform => Status::StaleTransform,
            Cause::FrameMismatch => Status::FrameMismatch,
            Cause::InvalidObstacle => Status::InvalidObstacle,
            Cause::NoVelocity => Status::NoVelocity,
            Cause::StaleVelocity => Status::StaleVelocity,
            Cause::InvalidVelocity => Status::InvalidVelocity,
            Cause::UnknownVelocityFrame => Status::UnknownVelocityFrame,
        }
    }
}

/// Why a whole input message was refused before its shapes were looked at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rejection {
    /// `header.frame_id` too long, not UTF-8, or with a NUL.
    InvalidFrameId,
    /// An obstacle id too long, not UTF-8, or with a NUL.
    InvalidId,
    /// More obstacles in one message (or live instances) than the limit.
    TooManyObstacles,
    /// More vertices in one message than the limit.
    TooManyVertices,
}

impl From<Rejection> for Status {
    fn from(rejection: Rejection) -> Status {
        match rejection {
            Rejection::InvalidFrameId => Status::InvalidFrameId,
            Rejection::InvalidId => Status::InvalidId,
            Rejection::TooManyObstacles => Status::TooManyObstacles,
            Rejection::TooManyVertices => Status::TooManyVertices,
        }
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Status::from(*self).fmt(f)
    }
}

impl From<&PolygonError> for Status {
    fn from(error: &PolygonError) -> Status {
        match error {
            PolygonError::TooFewPoints { .. } => Status::TooFewPoints,
            PolygonError::NonFinite { .. } => Status::NonFinite,
            PolygonError::ZeroArea => Status::ZeroArea,
            PolygonError::SelfIntersecting { .. } => Status::SelfIntersecting,
            PolygonError::TooManyVertices { .. } => Status::TooManyVertices,
            PolygonError::NotConvex => Status::NotConvex,
        }
    }
}

impl From<&ShapeError> for Status {
    fn from(error: &ShapeError) -> Status {
        match error {
            ShapeError::Polygon(e) => e.into(),
            ShapeError::NonFiniteCircle => Status::NonFinite,
            ShapeError::InvalidRadius(_) => Status::InvalidRadius,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn spellings_are_unique_snake_case_and_all_listed() {
        let mut seen = HashSet::new();
        for status in Status::ALL {
            let s = status.as_str();
            assert!(seen.insert(s), "{s} twice");
            assert!(
                !s.is_empty() && s.bytes().all(|b| b == b'_' || b.is_ascii_lowercase()),
                "{s}"
            );
            assert_eq!(status.to_string(), s);
            assert_eq!(format!("{status:>30}"), format!("{s:>30}"));
            assert_eq!(
                serde_json::to_string(&status).ok(),
                Some(format!("\"{s}\""))
            );
        }
        // ALL is in declaration order, so a variant missing from it would
        // leave a gap in the discriminants.
        for (i, status) in Status::ALL.iter().enumerate() {
            assert_eq!(*status as usize, i, "{status:?}");
        }
    }

    #[test]
    fn causes_and_rejections_keep_their_spellings() {
        let causes = [
            (Cause::NoClock, "no_clock"),
            (Cause::ClockStalled, "clock_stalled"),
            (Cause::NoFootprint, "no_footprint"),
            (Cause::ClockJumpedBack, "clock_jumped_back"),
            (Cause::StaleFootprint, "stale_footprint"),
            (
                Cause::RejectedFootprint(Rejection::InvalidFrameId),
                "invalid_frame_id",
            ),
            (Cause::InvalidFootprint, "invalid_footprint"),
            (Cause::NoObstacles, "no_obstacles"),
            (Cause::StaleObstacles, "stale_obstacles"),
            (Cause::Overloaded, "overloaded"),
            (
                Cause::RejectedObstacles(Rejection::TooManyVertices),
                "too_many_vertices",
            ),
            (Cause::TransformConflict, "transform_conflict"),
            (Cause::InvalidTransform, "invalid_transform"),
            (Cause::TooManyFrames, "too_many_frames"),
            (Cause::TransformUnavailable, "transform_unavailable"),
            (Cause::StaleTransform, "stale_transform"),
            (Cause::FrameMismatch, "frame_mismatch"),
            (Cause::InvalidObstacle, "invalid_obstacle"),
            (Cause::NoVelocity, "no_velocity"),
            (Cause::StaleVelocity, "stale_velocity"),
            (Cause::InvalidVelocity, "invalid_velocity"),
            (Cause::UnknownVelocityFrame, "unknown_velocity_frame"),
        ];
        for (cause, spelling) in causes {
            assert_eq!(Status::from(cause), spelling);
        }
        assert_eq!(Status::of(None), "ok");
        assert_eq!(Rejection::InvalidId.to_string(), "invalid_id");
        assert_eq!(
            Rejection::TooManyObstacles.to_string(),
            "too_many_obstacles"
        );
    }
}
