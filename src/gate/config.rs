//! What the gate is configured with: nav2's collision monitor parameters,
//! read by [`crate::config`] into these types (the names in the field
//! documentation are nav2's).

use crate::geometry::Point;

/// Slowdown ratio nav2 uses when a `slowdown` zone gives none.
pub const DEFAULT_SLOWDOWN_RATIO: f64 = 0.5;
/// `linear_limit` and `angular_limit` nav2 uses when a `limit` zone gives none.
pub const DEFAULT_LIMIT: f64 = 0.5;
/// `time_before_collision` (s) nav2 uses when an `approach` zone gives none.
pub const DEFAULT_TIME_BEFORE_COLLISION: f64 = 2.0;
/// `min_points` nav2 uses when a zone gives none.
pub const DEFAULT_ZONE_MIN_POINTS: usize = 4;
/// `stop_pub_timeout` (s), nav2's default.
pub const DEFAULT_STOP_PUB_TIMEOUT: f64 = 1.0;

/// What a zone does when it is triggered, numbered as
/// `nav2_msgs/msg/CollisionMonitorState`'s `action_type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// `none`: the zone is checked and shown, the command passes.
    DoNothing = 0,
    /// `stop`: zero velocity.
    Stop = 1,
    /// `slowdown`: the command scaled by `slowdown_ratio`.
    Slowdown = 2,
    /// `approach`: the command scaled so that contact stays
    /// `time_before_collision` away.
    Approach = 3,
    /// `limit`: the command scaled by one ratio (curvature kept) to
    /// `linear_limit` and `angular_limit`.
    Limit = 4,
}

impl Action {
    /// nav2's spelling of the action (`action_type`).
    pub fn as_str(self) -> &'static str {
        match self {
            Action::DoNothing => "none",
            Action::Stop => "stop",
            Action::Slowdown => "slowdown",
            Action::Approach => "approach",
            Action::Limit => "limit",
        }
    }

    /// The action of nav2's `action_type` string.
    pub fn parse(text: &str) -> Result<Self, String> {
        match text {
            "none" => Ok(Action::DoNothing),
            "stop" => Ok(Action::Stop),
            "slowdown" => Ok(Action::Slowdown),
            "approach" => Ok(Action::Approach),
            "limit" => Ok(Action::Limit),
            other => Err(format!(
                "unknown action_type {other:?}; expected stop, slowdown, limit, approach or none"
            )),
        }
    }

    /// The number `nav2_msgs/msg/CollisionMonitorState` gives it.
    pub fn code(self) -> u8 {
        self as u8
    }
}

/// One of a `velocity_polygon` zone's shapes (`velocity_polygons`): used
/// while the command lies in its ranges.
#[derive(Clone, Debug, PartialEq)]
pub struct VelocityShape {
    /// Its name in `velocity_polygons`.
    pub name: String,
    /// `<zone>.<name>.points`, in `base_frame_id`.
    pub points: Vec<Point>,
    /// `linear_min` (m/s): `linear.x`, or the speed when `holonomic`.
    pub linear_min: f64,
    /// `linear_max` (m/s).
    pub linear_max: f64,
    /// `theta_min` (rad/s): `angular.z`.
    pub theta_min: f64,
    /// `theta_max` (rad/s).
    pub theta_max: f64,
    /// `direction_start_angle` (rad, `holonomic` only; default -π).
    pub direction_start: f64,
    /// `direction_end_angle` (rad, `holonomic` only; default π).
    pub direction_end: f64,
}

/// Where a zone's shape comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum ZoneShape {
    /// `type: polygon` with `points`: a fixed polygon in `base_frame_id`.
    Polygon(Vec<Point>),
    /// `type: circle` with `radius` (m), centred on `base_frame_id`.
    Circle(f64),
    /// `type: polygon` (or `circle`) without `points` (or `radius`): set at
    /// run time from `polygon_sub_topic` (a `PolygonStamped`, or a
    /// `Float32` radius for a circle) or, for an `approach` zone,
    /// `footprint_topic`; none until the first message.
    Dynamic {
        /// A circle whose radius arrives on `polygon_sub_topic`.
        circle: bool,
    },
    /// `type: velocity_polygon`: the first of its shapes whose ranges hold
    /// the command.
    Velocity {
        /// `holonomic`: the ranges are on the speed and its direction.
        holonomic: bool,
        /// `velocity_polygons`, in order.
        shapes: Vec<VelocityShape>,
    },
}

/// One zone of `polygons`, with nav2's per-zone parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct ZoneConfig {
    /// Its name in `polygons` (the state's `polygon_name`).
    pub name: String,
    /// `type` and `points` / `radius` / `velocity_polygons`.
    pub shape: ZoneShape,
    /// `action_type`.
    pub action: Action,
    /// `min_points` (default 4): points inside (or touching) that trigger
    /// it. A polygon source's polygon touching the zone triggers it
    /// whatever this is.
    pub min_points: usize,
    /// `slowdown_ratio` (`slowdown`; default 0.5).
    pub slowdown_ratio: f64,
    /// `linear_limit` (m/s, `limit`; default 0.5).
    pub linear_limit: f64,
    /// `angular_limit` (rad/s, `limit`; default 0.5).
    pub angular_limit: f64,
    /// `time_before_collision` (s; `approach`, and the look-ahead of
    /// `allow_escape`; default 2.0).
    pub time_before_collision: f64,
    /// `enabled` (run time).
    pub enabled: bool,
    /// `allow_escape` (`stop` zones; default false): a command that only
    /// takes the zone away from what is inside it passes.
    pub allow_escape: bool,
    /// `sources_names`: the sources it is checked against (default: every
    /// one of `observation_sources`), as indices into the node's sources.
    pub sources: Vec<usize>,
    /// `sources_names` as given, in its order; empty when not given (every
    /// source). [`sources`](Self::sources) holds what the gate uses.
    pub sources_names: Vec<String>,
    /// `trigger_consecutive_points` (default 1): checks in a row that must
    /// find it triggered before it acts.
    pub trigger_consecutive: u32,
    /// `release_consecutive_points` (default 1): checks in a row that must
    /// find it clear before it stops acting.
    pub release_consecutive: u32,
    /// `visualize`: publish the zone as a `PolygonStamped`.
    pub visualize: bool,
    /// `polygon_pub_topic` (default: the zone's name).
    pub polygon_pub_topic: String,
    /// `polygon_sub_topic`: the zone's shape at run time; empty: none.
    pub polygon_sub_topic: String,
    /// `polygon_subscribe_transient_local`: `polygon_sub_topic` is
    /// subscribed with transient-local durability (a shape published once,
    /// before the node started, still arrives); default false.
    pub subscribe_transient_local: bool,
    /// `footprint_topic` (`approach` zones without `points`; default
    /// `local_costmap/published_footprint`): the robot's footprint as the
    /// zone; empty: none.
    pub footprint_topic: String,
}

impl ZoneConfig {
    /// A zone called `name` of `shape` and `action`, every other parameter
    /// at nav2's default, checked against every source of `sources`
    /// (their count).
    pub fn new(name: &str, shape: ZoneShape, action: Action, sources: usize) -> Self {
        ZoneConfig {
            name: name.to_owned(),
            shape,
            action,
            min_points: DEFAULT_ZONE_MIN_POINTS,
            slowdown_ratio: DEFAULT_SLOWDOWN_RATIO,
            linear_limit: DEFAULT_LIMIT,
            angular_limit: DEFAULT_LIMIT,
            time_before_collision: DEFAULT_TIME_BEFORE_COLLISION,
            enabled: true,
            allow_escape: false,
            sources: (0..sources).collect(),
            sources_names: Vec::new(),
            trigger_consecutive: 1,
            release_consecutive: 1,
            visualize: false,
            polygon_pub_topic: name.to_owned(),
            polygon_sub_topic: String::new(),
            subscribe_transient_local: false,
            footprint_topic: String::new(),
        }
    }
}

/// The gate as a whole: nav2's node parameters that concern it, and the
/// zones in the order of `polygons`.
#[derive(Clone, Debug, PartialEq)]
pub struct GateConfig {
    /// `enabled` (run time; the `~/toggle` service too): false passes every
    /// command through unchanged.
    pub enabled: bool,
    /// `base_frame_id`: the zones' frame, and the commands'.
    pub base_frame: String,
    /// `odom_frame_id`: the frame fixed in the world through which a
    /// source's data are moved to now (`base_shift_correction`).
    pub odom_frame: String,
    /// `base_shift_correction`: account for the robot's motion since a
    /// source's stamp (through `odom_frame_id`).
    pub base_shift_correction: bool,
    /// `stop_pub_timeout` (s): how long zeros are published after a stop
    /// before the output falls silent.
    pub stop_pub_timeout: f64,
    /// `cmd_vel_in_topic`.
    pub cmd_vel_in_topic: String,
    /// `cmd_vel_out_topic`.
    pub cmd_vel_out_topic: String,
    /// `state_topic`; empty: no state messages.
    pub state_topic: String,
    /// `enable_stamped_cmd_vel`: `TwistStamped` in and out, else `Twist`.
    pub stamped: bool,
    /// `polygons`, in order.
    pub zones: Vec<ZoneConfig>,
}

impl Default for GateConfig {
    /// nav2 Jazzy's defaults, with no zone (no gate).
    fn default() -> Self {
        GateConfig {
            enabled: true,
            base_frame: "base_footprint".to_owned(),
            odom_frame: "odom".to_owned(),
            base_shift_correction: true,
            stop_pub_timeout: DEFAULT_STOP_PUB_TIMEOUT,
            cmd_vel_in_topic: "cmd_vel_smoothed".to_owned(),
            cmd_vel_out_topic: "cmd_vel".to_owned(),
            state_topic: String::new(),
            stamped: false,
            zones: Vec::new(),
        }
    }
}
