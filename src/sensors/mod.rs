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
//! | `nav2_msgs/Costmap` | [`costmap_cells`] with a [`CostRule`] | the costmap's frame: not points but each obstacle cell's square |
//!
//! ```
//! use nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};
//! use sat_collision::sensors::{cloud_points, CloudFilter, PointCloud, PointField};
//!
//! // Two points (x, y, z float32, little endian) seen by a camera 1 m up,
//! // pitched 20° down: one on the floor, one on a box 0.2 m high, both
//! // 2 m ahead of the robot.
//! let camera = Isometry3::from_parts(
//!     Translation3::new(0.0, 0.0, 1.0),
//!     UnitQuaternion::from_axis_angle(&Vector3::y_axis(), 20f64.to_radians()),
//! );
//! let mut data = Vec::new();
//! for p in [[2.0, 0.0, 0.0], [2.0, 0.0, 0.2]] {
//!     let c = camera.inverse() * nalgebra::Point3::new(p[0], p[1], p[2]);
//!     for v in [c.x, c.y, c.z] {
//!         data.extend_from_slice(&(v as f32).to_le_bytes());
//!     }
//! }
//! let field = |name: &'static str, offset| PointField { name: name.as_bytes(), offset, datatype: 7, count: 1 };
//! let fields = [field("x", 0), field("y", 4), field("z", 8)];
//! let cloud = PointCloud {
//!     height: 1, width: 2, fields: &fields, is_bigendian: false,
//!     point_step: 12, row_step: 24, data: &data,
//! };
//! let filter = CloudFilter { to_base: camera, ..CloudFilter::default() }; // heights [0.05, 0.5]
//! let mut out = Vec::new();
//! let stats = cloud_points(&cloud, &filter, &mut out)?;
//! assert_eq!((stats.read, stats.kept), (2, 1)); // the floor point is not an obstacle
//! assert!((out[0].x - 2.0).abs() < 1e-6 && out[0].y.abs() < 1e-6);
//! # Ok::<(), sat_collision::sensors::CloudError>(())
//! ```
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
//! | `costmap` | [`Costmap`], [`CostRule`], [`costmap_cells`], [`CostmapError`] |
//! | `range` | [`RangeReading`], [`range_points`], [`check_range_header`], [`RangeError`], [`DEFAULT_OBSTACLES_ANGLE`], [`MAX_FIELD_OF_VIEW`] |

mod cloud;
mod costmap;
mod range;
mod scan;
#[cfg(test)]
mod tests;

pub use crate::limits::{
    MAX_COSTMAP_CELLS, MAX_COSTMAP_OBSTACLE_CELLS, MAX_RANGE_ARC_POINTS, MAX_SENSOR_POINTS,
};
pub use cloud::{
    cloud_points, cloud_points_with_heights, CloudError, CloudField, CloudFilter, CloudStats,
    PointCloud, PointField, DATATYPE_FLOAT32, DATATYPE_FLOAT64,
};
pub use costmap::{
    costmap_cells, CostRule, Costmap, CostmapError, DEFAULT_COST_THRESHOLD, NO_INFORMATION,
};
pub use range::{
    check_range_header, range_points, RangeError, RangeReading, DEFAULT_OBSTACLES_ANGLE,
    MAX_FIELD_OF_VIEW,
};
pub use scan::{scan_points, LaserScan, ScanError};
