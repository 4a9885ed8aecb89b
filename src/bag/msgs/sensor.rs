//! `sensor_msgs` and `nav_msgs`: the sensor sources and the odometry
//! velocity.

use super::common::{Header, PoseWithCovariance, TwistWithCovariance};
use crate::limits::MAX_SENSOR_POINTS;

ros_message! {
    /// `sensor_msgs/msg/LaserScan`: at most `MAX_SENSOR_POINTS` ranges
    /// (and intensities) are read, the node's limit.
    LaserScan = "sensor_msgs/msg/LaserScan" {
        /// Stamp (of the first ray) and frame.
        header: Header,
        /// Angle of the first ray, rad.
        angle_min: f32,
        /// Angle of the last ray, rad.
        angle_max: f32,
        /// Angle between rays, rad.
        angle_increment: f32,
        /// Time between rays, s.
        time_increment: f32,
        /// Time between scans, s.
        scan_time: f32,
        /// Shortest valid range, m.
        range_min: f32,
        /// Longest valid range, m.
        range_max: f32,
        /// The ranges, m.
        ranges: Vec<f32> [MAX_SENSOR_POINTS],
        /// The intensities (device units), empty or one per range.
        intensities: Vec<f32> [MAX_SENSOR_POINTS],
    }
    "std_msgs/Header header\nfloat32 angle_min\nfloat32 angle_max\nfloat32 angle_increment\n\
     float32 time_increment\nfloat32 scan_time\nfloat32 range_min\nfloat32 range_max\n\
     float32[] ranges\nfloat32[] intensities\n";

    /// `sensor_msgs/msg/PointField`: one field of a cloud's points.
    PointField = "sensor_msgs/msg/PointField" {
        /// The field's name (`x`, `y`, `z`, ...).
        name: String,
        /// Its offset in a point, bytes.
        offset: u32,
        /// Its type (`INT8 = 1` ... `FLOAT64 = 8`).
        datatype: u8,
        /// How many values.
        count: u32,
    }
    "uint8 INT8    = 1\nuint8 UINT8   = 2\nuint8 INT16   = 3\nuint8 UINT16  = 4\n\
     uint8 INT32   = 5\nuint8 UINT32  = 6\nuint8 FLOAT32 = 7\nuint8 FLOAT64 = 8\n\
     string name\nuint32 offset\nuint8  datatype\nuint32 count\n";

    /// `sensor_msgs/msg/PointCloud2`: the points' raw bytes with their
    /// layout (read by `sensors::cloud_points`).
    PointCloud2 = "sensor_msgs/msg/PointCloud2" {
        /// Stamp and frame.
        header: Header,
        /// Rows.
        height: u32,
        /// Points per row.
        width: u32,
        /// The layout of one point.
        fields: Vec<PointField>,
        /// Whether the values are big endian.
        is_bigendian: bool,
        /// Bytes per point.
        point_step: u32,
        /// Bytes per row.
        row_step: u32,
        /// The points, `row_step * height` bytes.
        data: Vec<u8>,
        /// Whether every point is finite.
        is_dense: bool,
    }
    "std_msgs/Header header\nuint32 height\nuint32 width\nPointField[] fields\n\
     bool    is_bigendian\nuint32  point_step\nuint32  row_step\nuint8[] data\nbool is_dense\n";

    /// `sensor_msgs/msg/Range` (Jazzy's, with `variance`).
    Range = "sensor_msgs/msg/Range" {
        /// Stamp and frame.
        header: Header,
        /// `ULTRASOUND = 0`, `INFRARED = 1`.
        radiation_type: u8,
        /// The arc's width, rad.
        field_of_view: f32,
        /// Shortest valid range, m.
        min_range: f32,
        /// Longest valid range, m.
        max_range: f32,
        /// The range, m (`-inf` / `+inf`: nearer / farther than valid).
        range: f32,
        /// The range's variance, m².
        variance: f32,
    }
    "std_msgs/Header header\nuint8 ULTRASOUND=0\nuint8 INFRARED=1\nuint8 radiation_type\n\
     float32 field_of_view\nfloat32 min_range\nfloat32 max_range\nfloat32 range\nfloat32 variance\n";

    /// `sensor_msgs/msg/CompressedImage` (a marker's texture).
    CompressedImage = "sensor_msgs/msg/CompressedImage" {
        /// Stamp and frame.
        header: Header,
        /// The format (`jpeg`, `png`).
        format: String,
        /// The compressed bytes.
        data: Vec<u8>,
    }
    "std_msgs/Header header\nstring format\nuint8[] data\n";

    /// `nav_msgs/msg/Odometry`: the velocity input (`velocity_topic`).
    Odometry = "nav_msgs/msg/Odometry" {
        /// Stamp and the pose's frame.
        header: Header,
        /// The twist's frame.
        child_frame_id: String,
        /// The pose.
        pose: PoseWithCovariance,
        /// The velocity, in `child_frame_id`.
        twist: TwistWithCovariance,
    }
    "std_msgs/Header header\nstring child_frame_id\ngeometry_msgs/PoseWithCovariance pose\n\
     geometry_msgs/TwistWithCovariance twist\n";
}
