//! The node's own messages (`sat_collision_msgs`), nav2's state and the
//! outputs: markers, diagnostics, lifecycle events, the bond.

use super::common::{
    ColorRGBA, Duration, Header, Path, Point, Polygon, Pose, Time, Twist, Vector3,
};
use super::sensor::CompressedImage;
use crate::limits::{MAX_COSTMAP_CELLS, MAX_OBSTACLES_PER_MESSAGE};

ros_message! {
    /// `sat_collision_msgs/msg/Obstacle`: a polygon, or a circle (one
    /// vertex and a radius).
    Obstacle = "sat_collision_msgs/msg/Obstacle" {
        /// Its id.
        id: String,
        /// Its vertices.
        polygon: Polygon,
        /// The circle's radius, m (0 for a polygon).
        radius: f64,
    }
    "string id\ngeometry_msgs/Polygon polygon\nfloat64 radius\n";

    /// `sat_collision_msgs/msg/ObstacleArray` (`obstacles`): at most
    /// `MAX_OBSTACLES_PER_MESSAGE` (10,000) obstacles are read, the
    /// node's limit (`too_many_obstacles`).
    ObstacleArray = "sat_collision_msgs/msg/ObstacleArray" {
        /// Stamp and frame of every obstacle.
        header: Header,
        /// The obstacles.
        obstacles: Vec<Obstacle> [MAX_OBSTACLES_PER_MESSAGE],
    }
    "std_msgs/Header header\nObstacle[] obstacles\n";

    /// `sat_collision_msgs/msg/ObstacleResult`: the footprint against one
    /// obstacle or source.
    ObstacleResult = "sat_collision_msgs/msg/ObstacleResult" {
        /// The obstacle's id or the source's name.
        id: String,
        /// `ok` or why it was not tested.
        status: String,
        /// Whether they touch or overlap.
        colliding: bool,
        /// Overlap depth, m.
        penetration_depth: f64,
        /// Minimum translation vector, m.
        mtv: Vector3,
        /// Clearance, m.
        distance: f64,
        /// The separating (or least-penetration) axis.
        separating_axis: Vector3,
        /// Whether every field is exact.
        exact: bool,
        /// A source's points inside the footprint.
        points_inside: u32,
    }
    "string id\nstring status\nbool colliding\nfloat64 penetration_depth\n\
     geometry_msgs/Vector3 mtv\nfloat64 distance\ngeometry_msgs/Vector3 separating_axis\n\
     bool exact\nuint32 points_inside\n";

    /// `sat_collision_msgs/msg/CollisionReport` (`collision_report`).
    CollisionReport = "sat_collision_msgs/msg/CollisionReport" {
        /// Stamp and frame.
        header: Header,
        /// Whether the footprint collides (or, with `fail_safe`, the check
        /// is not valid).
        colliding: bool,
        /// Whether the check can be trusted.
        valid: bool,
        /// `ok` or the first reason it is not valid.
        status: String,
        /// Least clearance, m.
        min_distance: f64,
        /// The obstacle at `min_distance`.
        nearest_obstacle_id: String,
        /// One per obstacle, then one per point source.
        results: Vec<ObstacleResult>,
        /// Seconds to the first contact, -1 for none.
        time_to_collision: f64,
        /// The obstacle the prediction touches first.
        predicted_obstacle_id: String,
        /// The prediction's status.
        prediction_status: String,
    }
    "std_msgs/Header header\nbool colliding\nbool valid\nstring status\nfloat64 min_distance\n\
     string nearest_obstacle_id\nObstacleResult[] results\nfloat64 time_to_collision\n\
     string predicted_obstacle_id\nstring prediction_status\n";

    /// `sat_collision_msgs/msg/FleetRobot`: one robot on the fleet topic
    /// (footprint limited to the polygon's limit here; the fleet refuses
    /// more than 64 vertices).
    FleetRobot = "sat_collision_msgs/msg/FleetRobot" {
        /// Stamp and the shared frame.
        header: Header,
        /// The robot's id.
        robot_id: String,
        /// Its publisher's session.
        session: u64,
        /// Its sequence number.
        sequence: u64,
        /// Its footprint, body frame.
        footprint: Polygon,
        /// Its pose at the stamp.
        pose: Pose,
        /// Its body twist.
        twist: Twist,
        /// Its speed bound, m/s.
        max_linear_speed: f64,
        /// Its turning bound, rad/s.
        max_angular_speed: f64,
        /// Its plan, each pose at its stamp.
        plan: Path,
    }
    "std_msgs/Header header\nstring robot_id\nuint64 session\nuint64 sequence\n\
     geometry_msgs/Polygon footprint\ngeometry_msgs/Pose pose\ngeometry_msgs/Twist twist\n\
     float64 max_linear_speed\nfloat64 max_angular_speed\nnav_msgs/Path plan\n";

    /// `nav2_msgs/msg/CollisionMonitorState`: the gate's action.
    CollisionMonitorState = "nav2_msgs/msg/CollisionMonitorState" {
        /// `DO_NOTHING = 0`, `STOP = 1`, `SLOWDOWN = 2`, `APPROACH = 3`,
        /// `LIMIT = 4`.
        action_type: u8,
        /// The zone that acts.
        polygon_name: String,
    }
    "uint8 DO_NOTHING=0\nuint8 STOP=1\nuint8 SLOWDOWN=2\nuint8 APPROACH=3\nuint8 LIMIT=4\n\
     uint8 action_type\nstring polygon_name\n";

    /// `nav2_msgs/msg/CostmapMetaData`: a costmap's grid.
    CostmapMetaData = "nav2_msgs/msg/CostmapMetaData" {
        /// When the static map was loaded.
        map_load_time: Time,
        /// When the costmap was last updated.
        update_time: Time,
        /// The layer's name.
        layer: String,
        /// Metres per cell.
        resolution: f32,
        /// Cells along x.
        size_x: u32,
        /// Cells along y.
        size_y: u32,
        /// The pose of cell (0, 0)'s corner.
        origin: Pose,
    }
    "builtin_interfaces/Time map_load_time\nbuiltin_interfaces/Time update_time\nstring layer\n\
     float32 resolution\nuint32 size_x\nuint32 size_y\ngeometry_msgs/Pose origin\n";

    /// `nav2_msgs/msg/Costmap` (`data`): at most `MAX_COSTMAP_CELLS` costs
    /// are read, the node's limit (`too_many_cells`).
    Costmap = "nav2_msgs/msg/Costmap" {
        /// Stamp and frame.
        header: Header,
        /// The grid.
        metadata: CostmapMetaData,
        /// The costs, row-major from (0, 0).
        data: Vec<u8> [MAX_COSTMAP_CELLS],
    }
    "std_msgs/Header header\nCostmapMetaData metadata\nuint8[] data\n";

    /// `visualization_msgs/msg/UVCoordinate`.
    UVCoordinate = "visualization_msgs/msg/UVCoordinate" {
        /// u.
        u: f32,
        /// v.
        v: f32,
    }
    "float32 u\nfloat32 v\n";

    /// `visualization_msgs/msg/MeshFile`.
    MeshFile = "visualization_msgs/msg/MeshFile" {
        /// The file's name.
        filename: String,
        /// Its bytes.
        data: Vec<u8>,
    }
    "string filename\nuint8[] data\n";

    /// `visualization_msgs/msg/Marker` (Jazzy's).
    Marker = "visualization_msgs/msg/Marker" {
        /// Stamp and frame.
        header: Header,
        /// Namespace.
        ns: String,
        /// Id within the namespace.
        id: i32,
        /// `ARROW = 0` ... `ARROW_STRIP = 12` (`type` in ROS and in the
        /// JSON).
        r#type: i32,
        /// `ADD = 0`, `DELETE = 2`, `DELETEALL = 3`.
        action: i32,
        /// Pose.
        pose: Pose,
        /// Scale.
        scale: Vector3,
        /// Colour.
        color: ColorRGBA,
        /// How long it stays (0: for ever).
        lifetime: Duration,
        /// Whether it follows its frame.
        frame_locked: bool,
        /// Points (lists, strips).
        points: Vec<Point>,
        /// Per-point colours.
        colors: Vec<ColorRGBA>,
        /// Texture resource.
        texture_resource: String,
        /// Texture.
        texture: CompressedImage,
        /// Texture coordinates.
        uv_coordinates: Vec<UVCoordinate>,
        /// Text (`TEXT_VIEW_FACING`).
        text: String,
        /// Mesh resource.
        mesh_resource: String,
        /// Mesh file.
        mesh_file: MeshFile,
        /// Whether the mesh's own materials are used.
        mesh_use_embedded_materials: bool,
    }
    "int32 ARROW=0\nint32 CUBE=1\nint32 SPHERE=2\nint32 CYLINDER=3\nint32 LINE_STRIP=4\n\
     int32 LINE_LIST=5\nint32 CUBE_LIST=6\nint32 SPHERE_LIST=7\nint32 POINTS=8\n\
     int32 TEXT_VIEW_FACING=9\nint32 MESH_RESOURCE=10\nint32 TRIANGLE_LIST=11\n\
     int32 ARROW_STRIP=12\nint32 ADD=0\nint32 MODIFY=0\nint32 DELETE=2\nint32 DELETEALL=3\n\
     std_msgs/Header header\nstring ns\nint32 id\nint32 type\nint32 action\n\
     geometry_msgs/Pose pose\ngeometry_msgs/Vector3 scale\nstd_msgs/ColorRGBA color\n\
     builtin_interfaces/Duration lifetime\nbool frame_locked\ngeometry_msgs/Point[] points\n\
     std_msgs/ColorRGBA[] colors\nstring texture_resource\nsensor_msgs/CompressedImage texture\n\
     UVCoordinate[] uv_coordinates\nstring text\nstring mesh_resource\nMeshFile mesh_file\n\
     bool mesh_use_embedded_materials\n";

    /// `visualization_msgs/msg/MarkerArray`.
    MarkerArray = "visualization_msgs/msg/MarkerArray" {
        /// The markers.
        markers: Vec<Marker>,
    }
    "Marker[] markers\n";

    /// `diagnostic_msgs/msg/KeyValue`.
    KeyValue = "diagnostic_msgs/msg/KeyValue" {
        /// The key.
        key: String,
        /// The value.
        value: String,
    }
    "string key\nstring value\n";

    /// `diagnostic_msgs/msg/DiagnosticStatus`.
    DiagnosticStatus = "diagnostic_msgs/msg/DiagnosticStatus" {
        /// `OK = 0`, `WARN = 1`, `ERROR = 2`, `STALE = 3` (a `byte`).
        level: u8,
        /// The component.
        name: String,
        /// What is wrong, or why it is fine.
        message: String,
        /// The hardware.
        hardware_id: String,
        /// The values.
        values: Vec<KeyValue>,
    }
    "byte OK=0\nbyte WARN=1\nbyte ERROR=2\nbyte STALE=3\nbyte level\nstring name\n\
     string message\nstring hardware_id\nKeyValue[] values\n";

    /// `diagnostic_msgs/msg/DiagnosticArray` (`/diagnostics`).
    DiagnosticArray = "diagnostic_msgs/msg/DiagnosticArray" {
        /// Stamp.
        header: Header,
        /// The statuses.
        status: Vec<DiagnosticStatus>,
    }
    "std_msgs/Header header\nDiagnosticStatus[] status\n";

    /// `lifecycle_msgs/msg/State`.
    State = "lifecycle_msgs/msg/State" {
        /// The state's id.
        id: u8,
        /// Its label.
        label: String,
    }
    "uint8 id\nstring label\n";

    /// `lifecycle_msgs/msg/Transition`.
    Transition = "lifecycle_msgs/msg/Transition" {
        /// The transition's id.
        id: u8,
        /// Its label.
        label: String,
    }
    "uint8 id\nstring label\n";

    /// `lifecycle_msgs/msg/TransitionEvent` (`~/transition_event`).
    TransitionEvent = "lifecycle_msgs/msg/TransitionEvent" {
        /// When, ns.
        timestamp: u64,
        /// The transition.
        transition: Transition,
        /// From.
        start_state: State,
        /// To.
        goal_state: State,
    }
    "uint64 timestamp\nTransition transition\nState start_state\nState goal_state\n";

    /// `bond/msg/Status`: the heartbeat to nav2's lifecycle manager.
    BondStatus = "bond/msg/Status" {
        /// Stamp.
        header: Header,
        /// The bond's id.
        id: String,
        /// This side's instance.
        instance_id: String,
        /// Whether the bond holds.
        active: bool,
        /// Heartbeat timeout, s.
        heartbeat_timeout: f32,
        /// Heartbeat period, s.
        heartbeat_period: f32,
    }
    "std_msgs/Header header\nstring id\nstring instance_id\nbool active\n\
     float32 heartbeat_timeout\nfloat32 heartbeat_period\n";
}
