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
    /// The message's "end angle of the scan": the last range's angle, or
    /// one increment past it (drivers differ; see [`scan_points`]). Only
    /// checked against the others, never used to place a range.
    pub angle_max: f32,
    /// Angle between consecutive ranges (negative for a clockwise scan).
    pub angle_increment: f32,
    /// Shortest range the sensor measures; a shorter finite one is no
    /// point, `-inf` (REP 117: closer than this) a point at it.
    pub range_min: f32,
    /// Longest range the sensor measures; a longer one is no point.
    pub range_max: f32,
    /// The measured ranges, one per angle.
    pub ranges: &'a [f32],
}

/// Why a laser scan gives no points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScanError {
    /// `angle_min`, `angle_max` or `angle_increment` is NaN or infinite.
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
    /// Two ranges or more, and `angle_min`, `angle_max`, `angle_increment`
    /// and the number of ranges disagree beyond rounding (the rule is
    /// [`scan_points`]'): an increment of zero, against the direction from
    /// `angle_min` to `angle_max`, or a last range's angle more than one
    /// increment from `angle_max`. Its ranges' bearings cannot be trusted.
    #[error("the scan's angles, increment and number of ranges disagree")]
    InconsistentAngles,
}

impl ScanError {
    /// The stable snake_case spelling (logs, statuses).
    pub const fn as_str(self) -> &'static str {
        match self {
            ScanError::InvalidAngle => "invalid_angle",
            ScanError::InvalidLimits => "invalid_limits",
            ScanError::TooManyPoints => "too_many_points",
            ScanError::InconsistentAngles => "inconsistent_angles",
        }
    }
}

/// Ranges per block of the angle table: the angle of range `i` is the sum
/// of a block's start (one `sin_cos` per block) and an offset within the
/// block (a table of `BLOCK` offsets, computed once per scan).
const BLOCK: usize = 16;

/// The rounding allowed between a scan's angles, relative to the sum of
/// the magnitudes rounded (see [`angles_agree`]): `4 * f32::EPSILON`, room
/// for eight roundings to `f32` of half an ulp each.
const ANGLE_ROUNDING: f64 = 4.0 * f32::EPSILON as f64;

/// Appends the points of `scan` to `out`, in the scan's frame, and returns
/// how many it appended.
///
/// Range `i` is at angle `a = angle_min + i * angle_increment` (in `f64`);
/// when it lies within `[range_min, range_max]` it becomes the point
/// `(r cos a, r sin a)`. Finite ranges outside the limits, `+inf` (REP 117:
/// nothing detected) and NaN are no points, as in nav2's collision monitor
/// (`scan.cpp`). The sines and cosines come from one `sin_cos` per 16
/// ranges and a table of 16 angle offsets: within a few ulps of
/// `a.sin_cos()` for every range.
///
/// # `-inf`: an object closer than `range_min`
///
/// REP 117's `-inf` becomes the point at `range_min` on its range's ray,
/// as [`range_points`](super::range_points) puts a `sensor_msgs/Range`'s
/// `-inf` at `min_range`; nav2's `scan.cpp` drops it like NaN, and the
/// robot would drive on with an object against its sensor. The object
/// lies on that ray between the sensor and the point: the point is the
/// farthest it can be, not where it is, and the object is closer to the
/// sensor still. So the point is not conservative on its own: a zone
/// catches the reading when it holds the point, and a convex zone that
/// holds the point and the sensor holds the whole segment between them,
/// the object wherever it is on it. In practice the sensor sits inside the
/// robot and `range_min` is a few centimetres, so the point lies within or
/// just beyond the footprint: a zone that holds the sensor and reaches
/// `range_min` past it along that ray holds the point; one that ends
/// closer misses the reading, and the clearance to the point can overstate
/// the object's.
///
/// # Angles, increment and length must agree
///
/// With `n >= 2` ranges the scan must agree with itself, or it is refused
/// ([`ScanError::InconsistentAngles`]) rather than read at wrong bearings:
/// `angle_increment` not zero, with the sign of `angle_max - angle_min`
/// (a clockwise scan has both negative), and the last range's angle
/// within one increment of `angle_max`:
///
/// `|angle_min + (n - 1) * angle_increment - angle_max| <= |angle_increment| + tol`,
///
/// computed in `f64` from the three `f32`s. The one increment, on either
/// side, is there because the message says only "end angle of the scan"
/// and drivers differ: Gazebo's ray sensor gives the last range's angle
/// (its increment is `(max - min) / (count - 1)`), TurtleBot3's LDS-01
/// driver one past it (0 to 2π in 360 ranges of 2π/360), and a scan built
/// from a cloud (`pointcloud_to_laserscan`: `ceil((max - min) /
/// increment)` ranges) ends anywhere within one increment short of
/// `angle_max`. All are read the same: only `angle_min` and the increment
/// place a range. The rounding allowed is
///
/// `tol = 4 * f32::EPSILON * (|angle_min| + |angle_max| + (n - 1) * |angle_increment|)`:
///
/// each value rounded to `f32` once (the increment's error `n - 1` times
/// over), and a few more roundings of a driver computing the increment or
/// `angle_max` in `f32`, bound each by half an ulp of that sum; the
/// check's own `f64` rounding is far smaller. `tol` is far below one increment for any real scan (720 ranges over
/// 2π: about 6 µrad against 8.7 mrad), so the allowance is one increment
/// and no more: two ranges more or fewer than the angles give (with
/// `angle_max` the last range's angle) are refused.
///
/// One range: its angles need only be finite. No range: no points.
///
/// # Errors
///
/// [`ScanError`]: more than [`MAX_SENSOR_POINTS`] ranges (checked before
/// any is read), angles or limits not finite (or crossed limits), angles,
/// increment and length in disagreement. On error `out` is unchanged.
pub fn scan_points(scan: &LaserScan<'_>, out: &mut Vec<Point>) -> Result<usize, ScanError> {
    if scan.ranges.len() > MAX_SENSOR_POINTS {
        return Err(ScanError::TooManyPoints);
    }
    if !(scan.angle_min.is_finite()
        && scan.angle_max.is_finite()
        && scan.angle_increment.is_finite())
    {
        return Err(ScanError::InvalidAngle);
    }
    let (lo, hi) = (scan.range_min, scan.range_max);
    // `!(lo <= hi)` also refuses NaN; a finite `lo >= 0` then bounds `hi`.
    if !(lo.is_finite() && hi.is_finite() && lo >= 0.0 && lo <= hi) {
        return Err(ScanError::InvalidLimits);
    }
    if !angles_agree(scan) {
        return Err(ScanError::InconsistentAngles);
    }
    // The distance a range is drawn at, if any: within the limits, or
    // `range_min` for `-inf`. NaN fails both comparisons; `+inf` one
    // (finite limits).
    let distance = |r: f32| {
        if r >= lo && r <= hi {
            Some(r)
        } else if r == f32::NEG_INFINITY {
            Some(lo)
        } else {
            None
        }
    };
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
        if !block.iter().any(|&r| distance(r).is_some()) {
            continue;
        }
        let (sb, cb) = (angle_min + (b * BLOCK) as f64 * increment).sin_cos();
        // `block.len() <= BLOCK`: the zip stops at the block's end.
        for (&r, &(cj, sj)) in block.iter().zip(offsets.iter()) {
            if let Some(r) = distance(r) {
                let r = f64::from(r);
                let (c, s) = (cb * cj - sb * sj, sb * cj + cb * sj);
                out.push(Point::new(r * c, r * s));
            }
        }
    }
    Ok(out.len() - before)
}

/// Whether the finite angles of `scan` agree with its number of ranges:
/// the rule of [`scan_points`]. Exact in `f64`: `(n - 1) * increment` is a
/// 24-bit mantissa times at most 21 bits, and the sum's rounding is far
/// below [`ANGLE_ROUNDING`].
fn angles_agree(scan: &LaserScan<'_>) -> bool {
    let n = scan.ranges.len();
    if n < 2 {
        return true;
    }
    let min = f64::from(scan.angle_min);
    let max = f64::from(scan.angle_max);
    let increment = f64::from(scan.angle_increment);
    let steps = (n - 1) as f64;
    let span = max - min;
    // `== 0.0` also catches `-0.0`; the span of two distinct `f32`s is
    // never zero in `f64`, and its sign is exact.
    if increment == 0.0 || span == 0.0 || (span < 0.0) != (increment < 0.0) {
        return false;
    }
    let tol = ANGLE_ROUNDING * (min.abs() + max.abs() + steps * increment.abs());
    (min + steps * increment - max).abs() <= increment.abs() + tol
}
