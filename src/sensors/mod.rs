//! Sensor messages as planar points: a laser scan, a point cloud, a range
//! reading, read as nav2's collision monitor reads them.
//!
//! Pure: nothing here knows ROS. The ROS edge borrows the native message's
//! numbers and slices into the views of this module ([`LaserScan`],
//! [`PointCloud`], [`RangeReading`]) and gets points back, appended to a
//! `Vec` it reuses (no allocation once it has grown). Bad input never
//! panics: a malformed message is a typed error ([`ScanError`],
//! [`CloudError`], [`RangeError`], each with a stable snake_case
//! `as_str()`), and `out` is left as it was.
//!
//! | source | call | points, in |
//! | --- | --- | --- |
//! | `sensor_msgs/LaserScan` | [`scan_points`] | the scan's frame: every range within `[range_min, range_max]` |
//! | `sensor_msgs/PointCloud2` | [`cloud_points`] with a [`CloudFilter`] | the robot's base frame (the cloud moved by the full 3-D `to_base`), within a height band and beyond a minimum range |
//! | `sensor_msgs/Range` | [`range_points`] | the sensor's frame: an arc at the range across the field of view (REP 117) |
//!
//! Sizes are checked before anything is read: at most
//! [`MAX_SENSOR_POINTS`] points in a scan or a cloud, at most
//! [`MAX_RANGE_ARC_POINTS`] on a range reading's arc.
//!
//! # Layout
//!
//! | module | reads |
//! | --- | --- |
//! | `scan` | [`LaserScan`], [`scan_points`], [`ScanError`] |
//! | `cloud` | [`PointCloud`], [`PointField`], [`CloudFilter`], [`cloud_points`], [`CloudStats`], [`CloudError`], [`CloudField`] |
//! | `range` | [`RangeReading`], [`range_points`], [`RangeError`], [`DEFAULT_OBSTACLES_ANGLE`] |

mod cloud;
mod range;
mod scan;
#[cfg(test)]
mod tests;

pub use crate::limits::{MAX_RANGE_ARC_POINTS, MAX_SENSOR_POINTS};
pub use cloud::{
    cloud_points, CloudError, CloudField, CloudFilter, CloudStats, PointCloud, PointField,
    DATATYPE_FLOAT32, DATATYPE_FLOAT64,
};
pub use range::{range_points, RangeError, RangeReading, DEFAULT_OBSTACLES_ANGLE};
pub use scan::{scan_points, LaserScan, ScanError};
