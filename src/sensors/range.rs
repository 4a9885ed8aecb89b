//! `sensor_msgs/Range` as an arc of points in the sensor's frame (REP 117).
//!
//! A reading is validated as nav2's collision monitor validates it (navigation2
//! #6231, `nav2::validateMsg(sensor_msgs::msg::Range)` in
//! `nav2_ros_common/validate_messages.hpp`, after #6216: an unbounded
//! `field_of_view` was a CPU and memory denial of service): a header with a
//! `frame_id` and a stamp's `nanosec` below 10⁹ ([`check_range_header`]), a
//! field of view in `(0, π]`, limits finite with `0 <= min_range <
//! max_range` ([`range_points`]). nav2 also refuses
//! an infinite `range`; here REP 117 gives `±inf` their meaning (nothing
//! detected; an object closer than `min_range`), which this module keeps.

use crate::geometry::Point;
use crate::limits::MAX_RANGE_ARC_POINTS;

/// The widest field of view a reading may have: π, as nav2's
/// `MAX_RANGE_FIELD_OF_VIEW`. Compared in `f64`, as nav2 compares it: the
/// `f32` nearest π (3.1415927) is above it, and refused.
pub const MAX_FIELD_OF_VIEW: f64 = std::f64::consts::PI;

/// nav2's default spacing of a range reading's arc points
/// (`obstacles_angle`, `pi / 180`: one degree).
pub const DEFAULT_OBSTACLES_ANGLE: f64 = std::f64::consts::PI / 180.0;

/// A range reading (`sensor_msgs/Range`; the fields the points need).
/// Metres and radians; the sensor looks along its frame's x axis.
#[derive(Clone, Copy, Debug)]
pub struct RangeReading {
    /// The arc the distance reading is valid for, centred on x.
    pub field_of_view: f32,
    /// Shortest distance the sensor measures.
    pub min_range: f32,
    /// Longest distance the sensor measures.
    pub max_range: f32,
    /// The distance measured; REP 117: `+inf` nothing detected, `-inf` an
    /// object closer than `min_range`.
    pub range: f32,
}

/// Why a range reading is not valid (the source becomes invalid: it says
/// nothing, not "no obstacle").
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RangeError {
    /// The range is NaN.
    #[error("the range is NaN")]
    NanRange,
    /// A finite range outside `[min_range, max_range]` (REP 117 gives such
    /// values no meaning; only `±inf` are out of range on purpose).
    #[error("the range is outside the sensor's limits")]
    OutOfLimits,
    /// The field of view is NaN, infinite, zero or negative (nav2 refuses
    /// the same).
    #[error("the field of view is not finite and positive")]
    InvalidFieldOfView,
    /// The field of view is above [`MAX_FIELD_OF_VIEW`] (π; nav2 refuses
    /// the same: an unbounded one was a denial of service).
    #[error("the field of view is wider than pi")]
    WideFieldOfView,
    /// `min_range` or `max_range` is NaN, infinite or negative, or
    /// `min_range >= max_range` (nav2 refuses the same).
    #[error("the range limits are not finite, negative, equal or crossed")]
    InvalidLimits,
    /// `obstacles_angle` is NaN, zero or negative.
    #[error("obstacles_angle is not positive")]
    InvalidObstaclesAngle,
    /// The header's `frame_id` is empty (nav2 refuses it).
    #[error("the header's frame_id is empty")]
    EmptyFrameId,
    /// The header stamp's `nanosec` is 10⁹ or more (nav2 refuses it).
    #[error("the header stamp's nanosec is not below 1e9")]
    InvalidStamp,
    /// The arc would have more than [`MAX_RANGE_ARC_POINTS`] points.
    #[error("the arc would have more than {MAX_RANGE_ARC_POINTS} points")]
    TooManyPoints,
}

impl RangeError {
    /// The stable snake_case spelling (logs, statuses).
    pub const fn as_str(self) -> &'static str {
        match self {
            RangeError::NanRange => "nan_range",
            RangeError::OutOfLimits => "range_out_of_limits",
            RangeError::InvalidFieldOfView => "invalid_field_of_view",
            RangeError::WideFieldOfView => "field_of_view_above_pi",
            RangeError::InvalidLimits => "invalid_limits",
            RangeError::InvalidObstaclesAngle => "invalid_obstacles_angle",
            RangeError::EmptyFrameId => "empty_frame_id",
            RangeError::InvalidStamp => "invalid_stamp",
            RangeError::TooManyPoints => "too_many_points",
        }
    }
}

/// nav2's check of a range message's header (`validateMsg(Header)`): a
/// `frame_id` that is not empty, a stamp whose `nanosec` is below 10⁹. The
/// core's range reader (`node::SourceReader::range`) asks it before
/// [`range_points`], with the header as sent.
///
/// # Errors
///
/// [`RangeError::EmptyFrameId`], [`RangeError::InvalidStamp`].
pub fn check_range_header(frame_id: &str, nanosec: u32) -> Result<(), RangeError> {
    if frame_id.is_empty() {
        return Err(RangeError::EmptyFrameId);
    }
    if nanosec >= 1_000_000_000 {
        return Err(RangeError::InvalidStamp);
    }
    Ok(())
}

/// Appends the points of a range reading to `out`, in the sensor's frame,
/// and returns how many it appended.
///
/// REP 117, as nav2's collision monitor (`range.cpp`) draws it: a reading
/// within `[min_range, max_range]` (both included) becomes an arc at that
/// distance across the field of view, centred on the x axis: points at
/// `-fov/2 + k * obstacles_angle` for every `k >= 0` below `fov/2`, then
/// one at `fov/2` (both ends included). `+inf` is nothing detected: no
/// points, and valid. `-inf` is an object closer than `min_range`: the arc
/// at `min_range`.
/// [`DEFAULT_OBSTACLES_ANGLE`] is nav2's default spacing.
///
/// At most [`MAX_RANGE_ARC_POINTS`] points (one degree over a full turn is
/// 361).
///
/// # Errors
///
/// [`RangeError`]: a NaN range, a finite one outside the limits, a field of
/// view not finite and positive or above π, limits not finite or negative
/// (or `min_range >= max_range`), an `obstacles_angle` not positive, an arc
/// over the cap. On error `out` is unchanged. The field of view and the
/// limits are nav2's checks (module documentation); a reading nav2 refuses
/// is refused here, but for REP 117's `±inf`.
pub fn range_points(
    reading: &RangeReading,
    obstacles_angle: f64,
    out: &mut Vec<Point>,
) -> Result<usize, RangeError> {
    let fov = reading.field_of_view;
    if !(fov.is_finite() && fov > 0.0) {
        return Err(RangeError::InvalidFieldOfView);
    }
    if f64::from(fov) > MAX_FIELD_OF_VIEW {
        return Err(RangeError::WideFieldOfView);
    }
    let (lo, hi) = (reading.min_range, reading.max_range);
    // `!(lo < hi)` also refuses NaN.
    if !(lo.is_finite() && hi.is_finite() && lo >= 0.0 && lo < hi) {
        return Err(RangeError::InvalidLimits);
    }
    if obstacles_angle.is_nan() || obstacles_angle <= 0.0 {
        return Err(RangeError::InvalidObstaclesAngle);
    }
    let r = reading.range;
    let distance = if r.is_nan() {
        return Err(RangeError::NanRange);
    } else if r == f32::INFINITY {
        return Ok(0);
    } else if r == f32::NEG_INFINITY {
        lo
    } else if r >= lo && r <= hi {
        r
    } else {
        return Err(RangeError::OutOfLimits);
    };
    let half = f64::from(fov) / 2.0;
    let step = obstacles_angle;
    // The arc points below `fov/2` are the `k` with `k * step < fov`
    // (up to rounding, `ceil(fov / step)` of them), then the end point: the
    // bound, checked with one to spare for rounding, keeps the loop below
    // from pushing more than `MAX_RANGE_ARC_POINTS` ...
    let below = (2.0 * half / step).ceil();
    if below.is_nan() || below + 2.0 > MAX_RANGE_ARC_POINTS as f64 {
        return Err(RangeError::TooManyPoints);
    }
    let distance = f64::from(distance);
    let at = |a: f64| {
        let (s, c) = a.sin_cos();
        Point::new(distance * c, distance * s)
    };
    let before = out.len();
    // ... and `below + 1` iterations bound it (`below` is a small
    // non-negative integer here), whatever the rounding of `k * step`.
    for k in 0..=(below as usize) {
        // `k = 0` on its own: `0 * inf` would be NaN.
        let a = if k == 0 {
            -half
        } else {
            -half + k as f64 * step
        };
        if a.is_nan() || a >= half {
            break;
        }
        out.push(at(a));
    }
    out.push(at(half));
    Ok(out.len() - before)
}
