//! What the parameter tables write: the node's [`NodeConfig`], one sensor
//! source's [`SourceConfig`], one exclusion zone's [`ExclusionZoneConfig`],
//! and the two string parameters with a fixed set of values
//! ([`VelocityType`], [`InputReliability`]).

use crate::gate::GateConfig;
use crate::geometry::Point;
use crate::monitor::{MonitorConfig, SourceKind};

/// Every parameter of `sat_collision_node`. What each one means, its
/// default, range and whether it can change at run time are in [`PARAMS`](super::PARAMS).
#[derive(Clone, Debug, PartialEq)]
pub struct NodeConfig {
    /// `footprint_timeout`, `obstacles_timeout`, `fail_safe`, `padding` and
    /// `exact_range`; its `overload_timeout` is not a parameter and keeps
    /// [`MonitorConfig`]'s default.
    pub monitor: MonitorConfig,
    /// `publish_rate` (Hz): how often the answer is published again.
    pub publish_rate: f64,
    /// `markers_rate` (Hz): the cap on marker publication; 0: no markers.
    pub markers_rate: f64,
    /// `zones_file`: a YAML file of keep-out zones; empty: none.
    pub zones_file: String,
    /// `robot_footprint`: nav2's `"[[x, y], ...]"` in the robot frame;
    /// empty: none.
    pub robot_footprint: String,
    /// `robot_radius` (m): a round robot, when there is no
    /// `robot_footprint`; 0: none.
    pub robot_radius: f64,
    /// `max_service_checks`: the most vertex steps one planner request may
    /// ask for ([`crate::planner::request_cost`]).
    pub max_service_checks: f64,
    /// The robot's velocity topic; empty: no prediction.
    pub velocity_topic: String,
    /// `odometry`, `twist` or `twist_stamped`: the type on `velocity_topic`.
    pub velocity_type: VelocityType,
    /// `best_effort` (every publisher connects) or `reliable` (only
    /// reliable publishers; lost fragments of very large messages are sent
    /// again): the reliability of the footprint and obstacle
    /// subscriptions.
    pub input_reliability: InputReliability,
    /// `observation_sources`: the names of the sensor sources, as given
    /// (checked: letters, digits and `_`, no duplicates, at most
    /// [`MAX_SOURCES`](super::MAX_SOURCES)). [`NodeConfig::start_up`] builds
    /// [`sources`](Self::sources) from them.
    pub observation_sources: Vec<String>,
    /// `source_timeout` (s): the default of each source's own
    /// `<name>.source_timeout`; 0: never stale.
    pub source_timeout: f64,
    /// The sensor sources, in the order of `observation_sources`, each
    /// with its `<name>.<suffix>` parameters ([`SOURCE_PARAMS`](super::SOURCE_PARAMS)).
    /// [`NodeConfig::start_up`] and [`NodeConfig::set`] keep
    /// `monitor.sources` in step with them.
    pub sources: Vec<SourceConfig>,
    /// The exclusion zones the sources name (`<source>.exclusion_zones`),
    /// each once, in the order first named, with its `<zone>.<suffix>`
    /// parameters ([`EXCLUSION_ZONE_PARAMS`](super::EXCLUSION_ZONE_PARAMS)).
    pub exclusion_zones: Vec<ExclusionZoneConfig>,
    /// `polygons`: the names of the gate's zones, as given (checked as
    /// `observation_sources` is, at most [`MAX_ZONES`](super::MAX_ZONES), none a source's
    /// name). [`NodeConfig::start_up`] builds `gate.zones` from them.
    pub polygons: Vec<String>,
    /// The velocity gate (nav2's collision monitor): its node parameters
    /// (`base_frame_id`, `cmd_vel_in_topic`, `enabled`, ...) and its zones,
    /// in the order of `polygons`, each with its `<zone>.<suffix>`
    /// parameters ([`ZONE_PARAMS`](super::ZONE_PARAMS), [`VELOCITY_SHAPE_PARAMS`](super::VELOCITY_SHAPE_PARAMS)). No zone: no
    /// gate.
    pub gate: GateConfig,
    /// The fleet: `robot_id`, `fleet_frame`, `fleet_timeout`,
    /// `fleet_clock_tolerance` (its `session` is drawn by the node at
    /// start).
    pub fleet: crate::fleet::FleetConfig,
    /// `fleet_topic`: where every robot's node publishes its robot and
    /// reads the others (absolute by default, so namespaced robots meet).
    pub fleet_topic: String,
    /// `fleet_rate` (Hz): how often this robot is published (with a
    /// `robot_id`).
    pub fleet_rate: f64,
    /// `max_linear_speed` (m/s), `max_angular_speed` (rad/s): this robot's
    /// speed bounds as it publishes them (the others grow it by them).
    pub max_linear_speed: f64,
    /// See [`max_linear_speed`](Self::max_linear_speed).
    pub max_angular_speed: f64,
    /// `autostart`: configure and activate at start-up (standalone use);
    /// false: wait unconfigured for a lifecycle manager.
    pub autostart: bool,
    /// `bond_heartbeat_period` (s): the bond's heartbeat while active; 0:
    /// no bond.
    pub bond_heartbeat_period: f64,
    /// `hardware_id`: the `/diagnostics` statuses' `hardware_id`.
    pub hardware_id: String,
}

/// One sensor source, configured as nav2's collision monitor configures
/// it: the `<name>.<suffix>` parameters of [`SOURCE_PARAMS`](super::SOURCE_PARAMS). The fields a
/// source's type does not use keep their defaults.
#[derive(Clone, Debug, PartialEq)]
pub struct SourceConfig {
    /// Its name in `observation_sources`.
    pub name: String,
    /// `<name>.type`: what it reads.
    pub kind: SourceKind,
    /// `<name>.topic`: where it reads it.
    pub topic: String,
    /// `<name>.enabled`: a disabled source counts for nothing (run time).
    pub enabled: bool,
    /// `<name>.source_timeout` (s): its data are stale after it, by arrival
    /// or by stamp; 0 = never. By default the node's `source_timeout`.
    pub timeout: f64,
    /// `<name>.exclusion_zones` (scan, pointcloud, range): the names of the
    /// zones whose points of this source are masked (nav2 main); each is
    /// one of [`NodeConfig::exclusion_zones`].
    pub exclusion_zones: Vec<String>,
    /// `<name>.min_height` (m, pointcloud): lower points are dropped.
    pub min_height: f64,
    /// `<name>.max_height` (m, pointcloud): higher points are dropped.
    pub max_height: f64,
    /// `<name>.min_range` (m, pointcloud): points nearer the sensor's
    /// origin are dropped.
    pub min_range: f64,
    /// `<name>.use_global_height` (pointcloud): heights from the cloud's
    /// `height` field rather than `z` in the robot's frame.
    pub use_global_height: bool,
    /// `<name>.obstacles_angle` (rad, range): the spacing of the points
    /// put along the arc of a range reading.
    pub obstacles_angle: f64,
    /// `<name>.cost_threshold` (costmap): a known cost at or above it is an
    /// obstacle cell.
    pub cost_threshold: u8,
    /// `<name>.treat_unknown_as_obstacle` (costmap): an unknown cell (255)
    /// is an obstacle.
    pub treat_unknown_as_obstacle: bool,
}

/// One exclusion zone: nav2 main's `<zone>.<suffix>` parameters
/// ([`EXCLUSION_ZONE_PARAMS`](super::EXCLUSION_ZONE_PARAMS)), or a service's `ExclusionZoneDescription`.
/// The source's points inside it (its boundary included) and within its
/// height band are masked, while it is enabled and can be placed.
#[derive(Clone, Debug, PartialEq)]
pub struct ExclusionZoneConfig {
    /// Its name (in a source's `exclusion_zones`, or the service's
    /// `zone_name`).
    pub name: String,
    /// `<zone>.type`: `circle` (true) or `polygon` (false).
    pub circle: bool,
    /// `<zone>.points` (polygon): the polygon in `frame_id`; a usable
    /// simple polygon of at most 256 (`MAX_EXCLUSION_ZONE_VERTICES`) points
    /// once the zone is checked.
    pub points: Vec<Point>,
    /// `<zone>.radius` (m, circle): the circle centred on `frame_id`'s
    /// origin; more than 0 once the zone is checked.
    pub radius: f64,
    /// `<zone>.frame_id`: the frame the zone is anchored to; empty: the
    /// robot's base frame.
    pub frame_id: String,
    /// `<zone>.frame_hold_timeout` (s): how old `frame_id`'s latest
    /// transform may be beyond `transform_tolerance` (the larger of the two
    /// is the limit) before the zone masks nothing.
    pub frame_hold_timeout: f64,
    /// `<zone>.min_height` (m, in the base frame): lower points are not
    /// masked.
    pub min_height: f64,
    /// `<zone>.max_height` (m, in the base frame): higher points are not
    /// masked.
    pub max_height: f64,
    /// `<zone>.enabled`: a disabled zone masks nothing.
    pub enabled: bool,
    /// `<zone>.visualize`: its polygon is published on `~/<zone>`.
    pub visualize: bool,
}

/// `velocity_type`: the message type on `velocity_topic`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum VelocityType {
    /// `odometry`: `nav_msgs/Odometry`, its twist, of `child_frame_id`.
    #[default]
    Odometry,
    /// `twist`: `geometry_msgs/Twist`, a command, of `base_frame`.
    Twist,
    /// `twist_stamped`: `geometry_msgs/TwistStamped`, of `header.frame_id`.
    TwistStamped,
}

impl VelocityType {
    /// The parameter's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            VelocityType::Odometry => "odometry",
            VelocityType::Twist => "twist",
            VelocityType::TwistStamped => "twist_stamped",
        }
    }

    /// Reads the parameter's spelling; the error is the message a user sees.
    pub fn parse(text: &str) -> Result<Self, String> {
        match text {
            "odometry" => Ok(VelocityType::Odometry),
            "twist" => Ok(VelocityType::Twist),
            "twist_stamped" => Ok(VelocityType::TwistStamped),
            _ => Err("must be odometry, twist or twist_stamped".to_owned()),
        }
    }
}

impl std::fmt::Display for VelocityType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `input_reliability`: the QoS reliability of the input subscriptions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum InputReliability {
    /// `best_effort`: reliable and best-effort publishers both connect.
    #[default]
    BestEffort,
    /// `reliable`: only reliable publishers connect.
    Reliable,
}

impl InputReliability {
    /// The parameter's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            InputReliability::BestEffort => "best_effort",
            InputReliability::Reliable => "reliable",
        }
    }

    /// Reads the parameter's spelling; the error is the message a user sees.
    pub fn parse(text: &str) -> Result<Self, String> {
        match text {
            "best_effort" => Ok(InputReliability::BestEffort),
            "reliable" => Ok(InputReliability::Reliable),
            _ => Err("expected best_effort or reliable".to_owned()),
        }
    }
}

impl std::fmt::Display for InputReliability {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
