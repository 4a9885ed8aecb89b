//! `sensor_msgs/LaserScan` as points in the scan's frame.

use crate::geometry::Point;
use crate::limits::MAX_SENSOR_POINTS;

/// A laser scan, borrowed from its message (`sensor_msgs/LaserScan`; the
/// fields the points need). Angles in radians, ranges in metres.
#[derive(Clone, Copy, Debug)]
pub struct LaserScan<'a> {
    /// Angle of the first range, about the frame's z axis (REP-103:
    /// counter-clockwise from x).
    pub angle_min: f32,
    /// Angle between consecutive ranges (negative for a clockwise scan).
    pub angle_increment: f32,
    /// Shortest range the sensor measures; a shorter one is no point.
    pub range_min: f32,
    /// Longest range the sensor measures; a longer one is no point.
    pub range_max: f32,
    /// The measured ranges, one per angle.
    pub ranges: &'a [f32],
}

/// Why a laser scan gives no points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScanError {
    /// `angle_min` or `angle_increment` is NaN or infinite.
    #[error("the scan's angles are not finite")]
    InvalidAngle,
    /// `range_min` or `range_max` is NaN or infinite, `range_min` is
    /// negative, or `range_min > range_max` (no range could ever be a
    /// point: a sensor that would silently see nothing).
    #[error("the scan's range limits are not finite, negative or crossed")]
    InvalidLimits,
    /// More than [`MAX_SENSOR_POINTS`] ranges.
    #[error("more than {MAX_SENSOR_POINTS} ranges")]
    TooManyPoints,
}

impl ScanError {
    /// The stable snake_case spelling (logs, statuses).
    pub const fn as_str(self) -> &'static str {
        match self {
            ScanError::InvalidAngle => "invalid_angle",
            ScanError::InvalidLimits => "invalid_limits",
            ScanError::TooManyPoints => "too_many_points",
        }
    }
}

/// Ranges per block of the angle table: the angle of range `i` is the sum
/// of a block's start (one `sin_cos` per block) and an offset within the
/// block (a table of `BLOCK` offsets, computed once per scan).
const BLOCK: usize = 16;

/// Appends the points of `scan` to `out`, in the scan's frame, and returns
/// how many it appended.
///
/// Range `i` is at angle `a = angle_min + i * angle_increment` (in `f64`);
/// when it lies within `[range_min, range_max]` it becomes the point
/// `(r cos a, r sin a)`. NaN, `±inf` and ranges outside the limits are no
/// points, as in nav2's collision monitor (`scan.cpp`). The sines and
/// cosines come from one `sin_cos` per 16 ranges and a table of 16 angle
/// offsets: within a few ulps of `a.sin_cos()` for every range.
///
/// # Errors
///
/// [`ScanError`]: angles or limits not finite (or crossed), more than
/// [`MAX_SENSOR_POINTS`] ranges (checked before any is read). On error
/// `out` is unchanged.
pub fn scan_points(scan: &LaserScan<'_>, out: &mut Vec<Point>) -> Result<usize, ScanError> {
    if scan.ranges.len() > MAX_SENSOR_POINTS {
        return Err(ScanError::TooManyPoints);
    }
    if !(scan.angle_min.is_finite() && scan.angle_increment.is_finite()) {
        return Err(ScanError::InvalidAngle);
    }
    let (lo, hi) = (scan.range_min, scan.range_max);
    // `!(lo <= hi)` also refuses NaN; a finite `lo >= 0` then bounds `hi`.
    if !(lo.is_finite() && hi.is_finite() && lo >= 0.0 && lo <= hi) {
        return Err(ScanError::InvalidLimits);
    }
    let angle_min = f64::from(scan.angle_min);
    let increment = f64::from(scan.angle_increment);
    // (cos, sin) of `j * increment`, j < BLOCK.
    let mut offsets = [(1.0, 0.0); BLOCK];
    for (j, offset) in offsets.iter_mut().enumerate() {
        let (s, c) = (j as f64 * increment).sin_cos();
        *offset = (c, s);
    }
    let before = out.len();
    for (b, block) in scan.ranges.chunks(BLOCK).enumerate() {
        // Only blocks with a point pay for their `sin_cos`.
        if !block.iter().any(|&r| r >= lo && r <= hi) {
            continue;
        }
        let (sb, cb) = (angle_min + (b * BLOCK) as f64 * increment).sin_cos();
        // `block.len() <= BLOCK`: the zip stops at the block's end.
        for (&r, &(cj, sj)) in block.iter().zip(offsets.iter()) {
            // NaN fails both comparisons; ±inf fails one (finite limits).
            if r >= lo && r <= hi {
                let r = f64::from(r);
                let (c, s) = (cb * cj - sb * sj, sb * cj + cb * sj);
                out.push(Point::new(r * c, r * s));
            }
        }
    }
    Ok(out.len() - before)
}
