//! `builtin_interfaces`, `std_msgs`, `rosgraph_msgs`, `geometry_msgs` and
//! `tf2_msgs`: the messages the others are made of, the commands, the
//! footprint and zones, TF and the clock.

use crate::limits::MAX_VERTICES_PER_MESSAGE;

ros_message! {
    /// `builtin_interfaces/msg/Time`: a time since the epoch (or since the
    /// start of simulated time).
    Time = "builtin_interfaces/msg/Time" {
        /// Seconds.
        sec: i32,
        /// Nanoseconds within the second, `0..1e9`.
        nanosec: u32,
    }
    "int32 sec\nuint32 nanosec\n";

    /// `builtin_interfaces/msg/Duration`: a span of time.
    Duration = "builtin_interfaces/msg/Duration" {
        /// Seconds.
        sec: i32,
        /// Nanoseconds within the second, `0..1e9`.
        nanosec: u32,
    }
    "int32 sec\nuint32 nanosec\n";

    /// `std_msgs/msg/Header`: a stamp and a frame.
    Header = "std_msgs/msg/Header" {
        /// When the data was taken.
        stamp: Time,
        /// The frame the data is in.
        frame_id: String,
    }
    "builtin_interfaces/Time stamp\nstring frame_id\n";

    /// `std_msgs/msg/Bool`.
    Bool = "std_msgs/msg/Bool" {
        /// The value.
        data: bool,
    }
    "bool data\n";

    /// `std_msgs/msg/Float32`.
    Float32 = "std_msgs/msg/Float32" {
        /// The value.
        data: f32,
    }
    "float32 data\n";

    /// `std_msgs/msg/ColorRGBA`: components in `[0, 1]`.
    ColorRGBA = "std_msgs/msg/ColorRGBA" {
        /// Red.
        r: f32,
        /// Green.
        g: f32,
        /// Blue.
        b: f32,
        /// Opacity.
        a: f32,
    }
    "float32 r\nfloat32 g\nfloat32 b\nfloat32 a\n";

    /// `rosgraph_msgs/msg/Clock`: the simulated time (`/clock`).
    Clock = "rosgraph_msgs/msg/Clock" {
        /// The time now.
        clock: Time,
    }
    "builtin_interfaces/Time clock\n";

    /// `geometry_msgs/msg/Vector3`.
    Vector3 = "geometry_msgs/msg/Vector3" {
        /// x.
        x: f64,
        /// y.
        y: f64,
        /// z.
        z: f64,
    }
    "float64 x\nfloat64 y\nfloat64 z\n";

    /// `geometry_msgs/msg/Point`.
    Point = "geometry_msgs/msg/Point" {
        /// x.
        x: f64,
        /// y.
        y: f64,
        /// z.
        z: f64,
    }
    "float64 x\nfloat64 y\nfloat64 z\n";

    /// `geometry_msgs/msg/Point32`.
    Point32 = "geometry_msgs/msg/Point32" {
        /// x.
        x: f32,
        /// y.
        y: f32,
        /// z.
        z: f32,
    }
    "float32 x\nfloat32 y\nfloat32 z\n";

    /// `geometry_msgs/msg/Quaternion` (the default here is all zeros, not
    /// the identity: set `w`).
    Quaternion = "geometry_msgs/msg/Quaternion" {
        /// x.
        x: f64,
        /// y.
        y: f64,
        /// z.
        z: f64,
        /// w.
        w: f64,
    }
    "float64 x 0\nfloat64 y 0\nfloat64 z 0\nfloat64 w 1\n";

    /// `geometry_msgs/msg/Pose`.
    Pose = "geometry_msgs/msg/Pose" {
        /// The position.
        position: Point,
        /// The orientation.
        orientation: Quaternion,
    }
    "Point position\nQuaternion orientation\n";

    /// `geometry_msgs/msg/PoseWithCovariance`.
    PoseWithCovariance = "geometry_msgs/msg/PoseWithCovariance" {
        /// The pose.
        pose: Pose,
        /// Row-major 6x6 covariance (x, y, z, rotations about x, y, z).
        covariance: [f64; 36],
    }
    "Pose pose\nfloat64[36] covariance\n";

    /// `geometry_msgs/msg/Twist`: a velocity (the gate's command).
    Twist = "geometry_msgs/msg/Twist" {
        /// Linear velocity, m/s.
        linear: Vector3,
        /// Angular velocity, rad/s.
        angular: Vector3,
    }
    "Vector3  linear\nVector3  angular\n";

    /// `geometry_msgs/msg/TwistWithCovariance`.
    TwistWithCovariance = "geometry_msgs/msg/TwistWithCovariance" {
        /// The twist.
        twist: Twist,
        /// Row-major 6x6 covariance.
        covariance: [f64; 36],
    }
    "Twist twist\nfloat64[36] covariance\n";

    /// `geometry_msgs/msg/TwistStamped`.
    TwistStamped = "geometry_msgs/msg/TwistStamped" {
        /// Stamp and frame.
        header: Header,
        /// The twist.
        twist: Twist,
    }
    "std_msgs/Header header\nTwist twist\n";

    /// `geometry_msgs/msg/Transform`.
    Transform = "geometry_msgs/msg/Transform" {
        /// The translation.
        translation: Vector3,
        /// The rotation.
        rotation: Quaternion,
    }
    "Vector3 translation\nQuaternion rotation\n";

    /// `geometry_msgs/msg/TransformStamped`: the pose of `child_frame_id`
    /// in `header.frame_id`.
    TransformStamped = "geometry_msgs/msg/TransformStamped" {
        /// Stamp and parent frame.
        header: Header,
        /// The child frame.
        child_frame_id: String,
        /// The child's pose in the parent.
        transform: Transform,
    }
    "std_msgs/Header header\nstring child_frame_id\nTransform transform\n";

    /// `geometry_msgs/msg/Polygon`: at most
    /// `MAX_VERTICES_PER_MESSAGE` (262,144) points are read.
    Polygon = "geometry_msgs/msg/Polygon" {
        /// The vertices.
        points: Vec<Point32> [MAX_VERTICES_PER_MESSAGE],
    }
    "Point32[] points\n";

    /// `geometry_msgs/msg/PoseStamped`: a pose at a time.
    PoseStamped = "geometry_msgs/msg/PoseStamped" {
        /// Its time and frame.
        header: Header,
        /// The pose.
        pose: Pose,
    }
    "std_msgs/Header header\nPose pose\n";

    /// `nav_msgs/msg/Path` (`poses`): at most `MAX_PLAN_POSES` (256) are
    /// read, a fleet message's plan's limit.
    Path = "nav_msgs/msg/Path" {
        /// Its frame.
        header: Header,
        /// The poses, each at its stamp.
        poses: Vec<PoseStamped> [crate::limits::MAX_PLAN_POSES],
    }
    "std_msgs/Header header\ngeometry_msgs/PoseStamped[] poses\n";

    /// `geometry_msgs/msg/PolygonStamped`: the footprint, a zone's shape.
    PolygonStamped = "geometry_msgs/msg/PolygonStamped" {
        /// Stamp and frame.
        header: Header,
        /// The polygon.
        polygon: Polygon,
    }
    "std_msgs/Header header\nPolygon polygon\n";

    /// `geometry_msgs/msg/PolygonInstance`: a polygon with an id.
    PolygonInstance = "geometry_msgs/msg/PolygonInstance" {
        /// The polygon.
        polygon: Polygon,
        /// Its id.
        id: i64,
    }
    "geometry_msgs/Polygon polygon\nint64 id\n";

    /// `geometry_msgs/msg/PolygonInstanceStamped`: an obstacle instance.
    PolygonInstanceStamped = "geometry_msgs/msg/PolygonInstanceStamped" {
        /// Stamp and frame.
        header: Header,
        /// The polygon and its id.
        polygon: PolygonInstance,
    }
    "std_msgs/Header header\ngeometry_msgs/PolygonInstance polygon\n";

    /// `tf2_msgs/msg/TFMessage` (`/tf`, `/tf_static`).
    TFMessage = "tf2_msgs/msg/TFMessage" {
        /// The transforms.
        transforms: Vec<TransformStamped>,
    }
    "geometry_msgs/TransformStamped[] transforms\n";
}
