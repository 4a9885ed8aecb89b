//! The node's parameter table, [`PARAMS`] (and [`NodeConfig`]'s default
//! from it), and the names nav2 reads that the node does not use.

use super::footprint::parse_footprint;
use super::settings::{InputReliability, NodeConfig, VelocityType};
use super::spec::{
    check_frame, check_names, check_needed_frame, check_needed_topic, check_topic, Kind, ParamSpec,
    MAX_SOURCES, MAX_ZONES,
};
use crate::gate::GateConfig;
use crate::monitor::MonitorConfig;
use std::borrow::Cow;

impl Default for NodeConfig {
    /// Every parameter at its default in [`PARAMS`].
    fn default() -> Self {
        // Each of these is overwritten by the table's default just below.
        let mut config = NodeConfig {
            monitor: MonitorConfig::default(),
            publish_rate: 0.0,
            markers_rate: 0.0,
            zones_file: String::new(),
            robot_footprint: String::new(),
            robot_radius: 0.0,
            max_service_checks: 0.0,
            velocity_topic: String::new(),
            velocity_type: VelocityType::default(),
            input_reliability: InputReliability::default(),
            observation_sources: Vec::new(),
            source_timeout: 0.0,
            sources: Vec::new(),
            exclusion_zones: Vec::new(),
            polygons: Vec::new(),
            gate: GateConfig::default(),
            fleet: crate::fleet::FleetConfig::default(),
            fleet_topic: String::new(),
            fleet_rate: 0.0,
            max_linear_speed: 0.0,
            max_angular_speed: 0.0,
            autostart: false,
            bond_heartbeat_period: 0.0,
            hardware_id: String::new(),
        };
        for spec in PARAMS {
            spec.reset(&mut config);
        }
        config
    }
}

/// The node's parameters, in the order they are listed and documented.
///
/// The one place a parameter is defined. Derived from it: [`NodeConfig`]'s
/// default, [`NodeConfig::set`] (type and range checks, with the messages a
/// user sees) and [`NodeConfig::get`], an unknown name's error and its "did
/// you mean" hint ([`NodeConfig::check_other`]), and in `ros::params` the
/// r2r parameter descriptors and which names may change at run time.
/// `tests/monitor/params_table.rs` holds `config/sat_collision.yaml` and the
/// parameter table of `docs/node.md` to it.
///
/// Shape: a slice of specs whose [`Kind`] carries the default, the range
/// and typed accessors together, rather than an id enum with one match per
/// property: a default of the wrong type, a range on a bool or a setter
/// writing into a field of another type cannot be written, each parameter
/// reads as one entry, and walking the table is a plain loop. What the
/// compiler cannot see (two entries writing the same field, a description
/// whose range disagrees with `min`/`max`) the unit tests check. A new
/// field of [`NodeConfig`] becomes a parameter only by its entry here; until
/// then it keeps the value `NodeConfig::default` starts from, and the
/// documents' test fails as soon as it is documented.
pub static PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "footprint_timeout",
        kind: Kind::Number {
            default: 1.0,
            min: 0.0,
            max: 3600.0,
            get: |c| c.monitor.footprint_timeout,
            set: |c, x| c.monitor.footprint_timeout = x,
        },
        runtime: true,
        description: "s after a footprint arrived, or after its non-zero stamp, before it is stale (0 = never) [0, 3600]",
    },
    ParamSpec {
        name: "obstacles_timeout",
        kind: Kind::Number {
            default: 1.0,
            min: 0.0,
            max: 3600.0,
            get: |c| c.monitor.obstacles_timeout,
            set: |c, x| c.monitor.obstacles_timeout = x,
        },
        runtime: true,
        description: "s after obstacles arrived, or after their non-zero stamp, before they are stale; lifetime of each obstacle instance (0 = never) [0, 3600]",
    },
    ParamSpec {
        name: "fail_safe",
        kind: Kind::Bool {
            default: true,
            get: |c| c.monitor.fail_safe,
            set: |c, b| c.monitor.fail_safe = b,
        },
        runtime: true,
        description: "report a collision whenever the report is not valid",
    },
    ParamSpec {
        name: "padding",
        kind: Kind::Number {
            default: 0.0,
            min: 0.0,
            max: 5.0,
            get: |c| c.monitor.padding,
            set: |c, x| c.monitor.padding = x,
        },
        runtime: true,
        description: "m added around the footprint [0, 5]",
    },
    ParamSpec {
        name: "publish_rate",
        kind: Kind::Number {
            default: 10.0,
            min: 0.1,
            max: 1000.0,
            get: |c| c.publish_rate,
            set: |c, x| c.publish_rate = x,
        },
        runtime: false,
        description: "Hz of periodic re-publication [0.1, 1000]",
    },
    ParamSpec {
        name: "markers_rate",
        kind: Kind::Number {
            default: 10.0,
            min: 0.0,
            max: 100.0,
            get: |c| c.markers_rate,
            set: |c, x| c.markers_rate = x,
        },
        runtime: false,
        description: "Hz cap on RViz markers (0 = off) [0, 100]",
    },
    ParamSpec {
        name: "zones_file",
        kind: Kind::Text {
            default: "",
            check: |_| Ok(()),
            get: |c| Cow::Borrowed(&c.zones_file),
            set: |c, s| c.zones_file = s,
        },
        runtime: false,
        description: "YAML file of static keep-out zones (start-up only)",
    },
    ParamSpec {
        name: "robot_footprint",
        kind: Kind::Text {
            default: "",
            check: check_footprint,
            get: |c| Cow::Borrowed(&c.robot_footprint),
            set: |c, s| c.robot_footprint = s,
        },
        runtime: false,
        description: "robot-frame footprint \"[[x, y], ...]\" for check_footprint (start-up only)",
    },
    ParamSpec {
        name: "robot_radius",
        kind: Kind::Number {
            default: 0.0,
            min: 0.0,
            max: 10.0,
            get: |c| c.robot_radius,
            set: |c, x| c.robot_radius = x,
        },
        runtime: false,
        description: "m, round robot for check_footprint if no robot_footprint (start-up only) [0, 10]",
    },
    ParamSpec {
        name: "exact_range",
        kind: Kind::Number {
            default: 5.0,
            min: 0.0,
            max: 1e6,
            get: |c| c.monitor.exact_range,
            set: |c, x| c.monitor.exact_range = x,
        },
        runtime: true,
        description: "m from the footprint beyond which per-obstacle results may be a flagged lower bound [0, 1e6]",
    },
    ParamSpec {
        name: "max_service_checks",
        kind: Kind::Number {
            default: 100_000_000.0,
            min: 1.0,
            max: 1e12,
            get: |c| c.max_service_checks,
            set: |c, x| c.max_service_checks = x,
        },
        runtime: true,
        description: "most vertex steps per check_footprint or check_path request (poses x (Vf + sum over obstacles of Vf x Po + Vo x Pf)); more is refused [1, 1e12]",
    },
    ParamSpec {
        name: "global_frame",
        kind: Kind::Text {
            default: "",
            check: check_frame,
            get: |c| Cow::Borrowed(&c.monitor.global_frame),
            set: |c, s| c.monitor.global_frame = s,
        },
        runtime: false,
        description: "frame of the report, markers and check_footprint poses; fixed in the world (map, odom); empty = the footprint's frame (start-up only)",
    },
    ParamSpec {
        name: "base_frame",
        kind: Kind::Text {
            default: "",
            check: check_frame,
            get: |c| Cow::Borrowed(&c.monitor.base_frame),
            set: |c, s| c.monitor.base_frame = s,
        },
        runtime: false,
        description: "robot frame; with robot_footprint or robot_radius the footprint is placed there from TF each cycle and the footprint topic is not used (start-up only)",
    },
    ParamSpec {
        name: "transform_tolerance",
        kind: Kind::Number {
            default: crate::monitor::DEFAULT_TRANSFORM_TOLERANCE,
            min: 0.001,
            max: 60.0,
            get: |c| c.monitor.transform_tolerance,
            set: |c, x| c.monitor.transform_tolerance = x,
        },
        runtime: true,
        description: "s a transform may be from the time asked (an input's stamp; now, for the latest) before it is stale (nav2's default is 0.1) [0.001, 60]",
    },
    ParamSpec {
        name: "input_reliability",
        kind: Kind::Text {
            default: "best_effort",
            check: |text| InputReliability::parse(text).map(drop),
            get: |c| Cow::Borrowed(c.input_reliability.as_str()),
            // Checked first: `parse` cannot fail here.
            set: |c, s| {
                if let Ok(reliability) = InputReliability::parse(&s) {
                    c.input_reliability = reliability;
                }
            },
        },
        runtime: false,
        description: "footprint and obstacle subscriptions: best_effort (reliable and best-effort publishers connect) or reliable (only reliable ones; multi-MB messages survive a lossy transport) (start-up only)",
    },
    ParamSpec {
        name: "robot_id",
        kind: Kind::Text {
            default: "",
            check: check_robot_id,
            get: |c| Cow::Borrowed(&c.fleet.robot_id),
            set: |c, s| c.fleet.robot_id = s,
        },
        runtime: false,
        description: "this robot's id on the fleet topic, at most 64 bytes; empty = this node does not publish its robot (a fleet source still sees the others) (start-up only)",
    },
    ParamSpec {
        name: "fleet_topic",
        kind: Kind::Text {
            default: "/fleet/robots",
            check: |t| non_empty(t).and_then(|()| check_topic(t)),
            get: |c| Cow::Borrowed(&c.fleet_topic),
            set: |c, s| c.fleet_topic = s,
        },
        runtime: false,
        description: "topic (sat_collision_msgs/FleetRobot) where this robot is published and a fleet source reads the others; absolute, so robots in namespaces meet (start-up only)",
    },
    ParamSpec {
        name: "fleet_frame",
        kind: Kind::Text {
            default: "map",
            check: |t| non_empty(t).and_then(|()| check_frame(t)),
            get: |c| Cow::Borrowed(&c.fleet.frame),
            set: |c, s| c.fleet.frame = s,
        },
        runtime: false,
        description: "the frame every robot's pose is published in, shared by the fleet (start-up only)",
    },
    ParamSpec {
        name: "fleet_rate",
        kind: Kind::Number {
            default: 10.0,
            min: 0.1,
            max: 100.0,
            get: |c| c.fleet_rate,
            set: |c, x| c.fleet_rate = x,
        },
        runtime: false,
        description: "Hz at which this robot is published on the fleet topic (start-up only) [0.1, 100]",
    },
    ParamSpec {
        name: "fleet_timeout",
        kind: Kind::Number {
            default: 0.5,
            min: 0.01,
            max: 60.0,
            get: |c| c.fleet.timeout,
            set: |c, x| c.fleet.timeout = x,
        },
        runtime: false,
        description: "s after which a peer (by arrival or by stamp) reads stale_peer; it is kept, grown by its speed bounds times its age (start-up only) [0.01, 60]",
    },
    ParamSpec {
        name: "fleet_clock_tolerance",
        kind: Kind::Number {
            default: 0.25,
            min: 0.0,
            max: 60.0,
            get: |c| c.fleet.clock_tolerance,
            set: |c, x| c.fleet.clock_tolerance = x,
        },
        runtime: false,
        description: "s a peer's stamp may differ from its arrival before it reads clock_skew (start-up only) [0, 60]",
    },
    ParamSpec {
        name: "max_linear_speed",
        kind: Kind::Number {
            default: 1.0,
            min: 0.0,
            max: 20.0,
            get: |c| c.max_linear_speed,
            set: |c, x| c.max_linear_speed = x,
        },
        runtime: false,
        description: "m/s, the most this robot's base frame moves at: published to the fleet, which grows this robot by it (a faster measured speed is published as its own bound; start-up only) [0, 20]",
    },
    ParamSpec {
        name: "max_angular_speed",
        kind: Kind::Number {
            default: 2.0,
            min: 0.0,
            max: 20.0,
            get: |c| c.max_angular_speed,
            set: |c, x| c.max_angular_speed = x,
        },
        runtime: false,
        description: "rad/s, the most this robot turns at: published to the fleet as max_linear_speed is (start-up only) [0, 20]",
    },
    ParamSpec {
        name: "velocity_topic",
        kind: Kind::Text {
            default: "",
            check: check_topic,
            get: |c| Cow::Borrowed(&c.velocity_topic),
            set: |c, s| c.velocity_topic = s,
        },
        runtime: false,
        description: "topic of the robot's velocity: the footprint is projected along it and collision_ahead published; empty = no prediction (start-up only)",
    },
    ParamSpec {
        name: "velocity_type",
        kind: Kind::Text {
            default: "odometry",
            check: |text| VelocityType::parse(text).map(drop),
            get: |c| Cow::Borrowed(c.velocity_type.as_str()),
            // Checked first: `parse` cannot fail here.
            set: |c, s| {
                if let Ok(kind) = VelocityType::parse(&s) {
                    c.velocity_type = kind;
                }
            },
        },
        runtime: false,
        description: "message type on velocity_topic: odometry (nav_msgs/Odometry, its twist), twist (geometry_msgs/Twist, of base_frame: needs base_frame) or twist_stamped (geometry_msgs/TwistStamped) (start-up only)",
    },
    ParamSpec {
        name: "time_horizon",
        kind: Kind::Number {
            default: crate::monitor::DEFAULT_TIME_HORIZON,
            min: 0.01,
            max: 60.0,
            get: |c| c.monitor.time_horizon,
            set: |c, x| c.monitor.time_horizon = x,
        },
        runtime: true,
        description: "s ahead the footprint is projected along the velocity [0.01, 60]",
    },
    ParamSpec {
        name: "velocity_timeout",
        kind: Kind::Number {
            default: crate::monitor::DEFAULT_VELOCITY_TIMEOUT,
            min: 0.0,
            max: 3600.0,
            get: |c| c.monitor.velocity_timeout,
            set: |c, x| c.monitor.velocity_timeout = x,
        },
        runtime: true,
        description: "s after a velocity arrived, or after its non-zero stamp, before it is stale (collision_ahead then reads true with fail_safe; 0 = never) [0, 3600]",
    },
    ParamSpec {
        name: "observation_sources",
        kind: Kind::TextList {
            default: &[],
            check: |names| check_names(names, "source", MAX_SOURCES),
            get: |c| Cow::Borrowed(&c.observation_sources),
            set: |c, names| c.observation_sources = names,
        },
        runtime: false,
        description: "names of the sensor sources, each configured as nav2's collision monitor does: <name>.type, <name>.topic, ... (at most 32; letters, digits and _) (start-up only)",
    },
    ParamSpec {
        name: "source_timeout",
        kind: Kind::Number {
            default: 2.0,
            min: 0.0,
            max: 3600.0,
            get: |c| c.source_timeout,
            set: |c, x| c.source_timeout = x,
        },
        runtime: false,
        description: "s after a source's data arrived, or after their non-zero stamp, before they are stale: the default of each <name>.source_timeout (0 = never; start-up only) [0, 3600]",
    },
    ParamSpec {
        name: "min_points",
        kind: Kind::Integer {
            default: 1,
            min: 1,
            max: 1_000_000,
            get: |c| i64::try_from(c.monitor.min_points).unwrap_or(i64::MAX),
            // Only values in [1, 1e6] reach here: the cast is exact.
            set: |c, n| c.monitor.min_points = n as usize,
        },
        runtime: true,
        description: "points of all point sources (scan, pointcloud, range) together inside the padded footprint that make the flag true (an integer) [1, 1000000]",
    },
    ParamSpec {
        name: "base_frame_id",
        kind: Kind::Text {
            default: "base_footprint",
            check: check_needed_frame,
            get: |c| Cow::Borrowed(&c.gate.base_frame),
            set: |c, s| c.gate.base_frame = s,
        },
        runtime: false,
        description: "nav2's robot frame: the gate's zones and commands are in it; with zones or a pointcloud source and base_frame empty, it is base_frame too (start-up only)",
    },
    ParamSpec {
        name: "odom_frame_id",
        kind: Kind::Text {
            default: "odom",
            check: check_needed_frame,
            get: |c| Cow::Borrowed(&c.gate.odom_frame),
            set: |c, s| c.gate.odom_frame = s,
        },
        runtime: false,
        description: "frame fixed in the world through which the gate moves a source's data to now (base_shift_correction) (start-up only)",
    },
    ParamSpec {
        name: "cmd_vel_in_topic",
        kind: Kind::Text {
            default: "cmd_vel_smoothed",
            check: check_needed_topic,
            get: |c| Cow::Borrowed(&c.gate.cmd_vel_in_topic),
            set: |c, s| c.gate.cmd_vel_in_topic = s,
        },
        runtime: false,
        description: "velocity commands the gate reads (start-up only)",
    },
    ParamSpec {
        name: "cmd_vel_out_topic",
        kind: Kind::Text {
            default: "cmd_vel",
            check: check_needed_topic,
            get: |c| Cow::Borrowed(&c.gate.cmd_vel_out_topic),
            set: |c, s| c.gate.cmd_vel_out_topic = s,
        },
        runtime: false,
        description: "velocity commands the gate publishes: stopped, slowed down or limited by its zones (start-up only)",
    },
    ParamSpec {
        name: "state_topic",
        kind: Kind::Text {
            default: "",
            check: check_topic,
            get: |c| Cow::Borrowed(&c.gate.state_topic),
            set: |c, s| c.gate.state_topic = s,
        },
        runtime: false,
        description: "the gate's nav2_msgs/CollisionMonitorState (the zone acting and its action); empty = none (start-up only)",
    },
    ParamSpec {
        name: "enable_stamped_cmd_vel",
        kind: Kind::Bool {
            default: false,
            get: |c| c.gate.stamped,
            set: |c, b| c.gate.stamped = b,
        },
        runtime: false,
        description: "the gate's commands are geometry_msgs/TwistStamped in and out, else Twist (start-up only)",
    },
    ParamSpec {
        name: "base_shift_correction",
        kind: Kind::Bool {
            default: true,
            get: |c| c.gate.base_shift_correction,
            set: |c, b| c.gate.base_shift_correction = b,
        },
        runtime: false,
        description: "the gate moves a source's data by the robot's motion since their stamp (through odom_frame_id) (start-up only)",
    },
    ParamSpec {
        name: "stop_pub_timeout",
        kind: Kind::Number {
            default: crate::gate::DEFAULT_STOP_PUB_TIMEOUT,
            min: 0.0,
            max: 3600.0,
            get: |c| c.gate.stop_pub_timeout,
            set: |c, x| c.gate.stop_pub_timeout = x,
        },
        runtime: false,
        description: "s the gate keeps publishing zeros after a stop before its output falls silent (start-up only) [0, 3600]",
    },
    ParamSpec {
        name: "enabled",
        kind: Kind::Bool {
            default: true,
            get: |c| c.gate.enabled,
            set: |c, b| c.gate.enabled = b,
        },
        runtime: true,
        description: "false: the gate passes every command through unchanged",
    },
    ParamSpec {
        name: "polygons",
        kind: Kind::TextList {
            default: &[],
            check: |names| check_names(names, "zone", MAX_ZONES),
            get: |c| Cow::Borrowed(&c.polygons),
            set: |c, names| c.polygons = names,
        },
        runtime: false,
        description: "names of the gate's zones, each configured as nav2's collision monitor does: <name>.type, <name>.points, <name>.action_type, ... (at most 32; letters, digits and _; no source's name); empty = no gate (start-up only)",
    },
    ParamSpec {
        name: "autostart",
        kind: Kind::Bool {
            default: true,
            get: |c| c.autostart,
            set: |c, b| c.autostart = b,
        },
        runtime: false,
        description: "configure and activate at start-up; false: wait unconfigured for a lifecycle manager (nav2's lifecycle_manager, ros2 lifecycle) (start-up only)",
    },
    ParamSpec {
        name: "bond_heartbeat_period",
        kind: Kind::Number {
            default: 0.1,
            min: 0.0,
            max: 60.0,
            get: |c| c.bond_heartbeat_period,
            set: |c, x| c.bond_heartbeat_period = x,
        },
        runtime: false,
        description: "s between the bond's heartbeats on bond while active, as nav2's servers send them to lifecycle_manager (0 = no bond; start-up only) [0, 60]",
    },
    ParamSpec {
        name: "hardware_id",
        kind: Kind::Text {
            default: "",
            check: |_| Ok(()),
            get: |c| Cow::Borrowed(&c.hardware_id),
            set: |c, s| c.hardware_id = s,
        },
        runtime: false,
        description: "hardware_id of the node's /diagnostics statuses (start-up only)",
    },
];

/// Names nav2's collision monitor node reads that this node does not use,
/// with why: accepted with a note saying so, so that a nav2 configuration
/// starts unchanged.
pub const NAV2_ONLY_PARAMS: [(&str, &str); 4] = [
    (
        "use_realtime_priority",
        "nav2 reads it, this node does not raise its threads' priority",
    ),
    (
        "autostart_node",
        "nav2's name; this node's is `autostart` (default true)",
    ),
    (
        "bond_disable_heartbeat_timeout",
        "bondcpp's switch for the manager's side; this node's side only sends heartbeats",
    ),
    (
        "collision_points_marker_3d",
        "nav2 main keeps its collision point markers' heights with it; this node's points \
         and markers are planar",
    ),
];

/// The parameter called `name`, if there is one.
pub fn param(name: &str) -> Option<&'static ParamSpec> {
    PARAMS.iter().find(|spec| spec.name == name)
}

/// Not empty.
fn non_empty(text: &str) -> Result<(), String> {
    if text.is_empty() {
        return Err("cannot be empty".to_owned());
    }
    Ok(())
}

/// A robot id: at most [`crate::fleet::MAX_ROBOT_ID_BYTES`] bytes, no NUL.
fn check_robot_id(text: &str) -> Result<(), String> {
    if text.len() > crate::fleet::MAX_ROBOT_ID_BYTES || text.contains('\0') {
        return Err(format!(
            "must be at most {} bytes without NUL",
            crate::fleet::MAX_ROBOT_ID_BYTES
        ));
    }
    Ok(())
}

/// An empty `robot_footprint` means none; anything else must be a usable
/// footprint in nav2's form.
fn check_footprint(text: &str) -> Result<(), String> {
    if !text.trim().is_empty() {
        parse_footprint(text).map_err(|e| e.to_string())?;
    }
    Ok(())
}
