//! The node's parameters: one table ([`PARAMS`]) with each one's type,
//! default, range, run-time behaviour and description, the checks derived
//! from it, and nav2's footprint string; the sensor sources' parameters
//! (`<name>.<suffix>`, [`SOURCE_PARAMS`]) and the velocity gate's zones'
//! (`<zone>.<suffix>`, [`ZONE_PARAMS`]; `<zone>.<shape>.<suffix>`,
//! [`VELOCITY_SHAPE_PARAMS`]) with the same machinery, so that nav2's
//! collision monitor parameters start the node unchanged. Pure, so every
//! rule is testable without ROS.

use crate::gate::{Action, GateConfig, VelocityShape, ZoneConfig, ZoneShape};
use crate::geometry::{Point, Shape, ShapeError};
use crate::monitor::{MonitorConfig, SourceKind, SourceSpec};
use std::borrow::Cow;

/// Most sensor sources in `observation_sources`: each brings a subscription
/// and a group of obstacles, and nav2 configurations have a handful.
pub const MAX_SOURCES: usize = 32;

/// Longest source name in `observation_sources`, in bytes; also the
/// longest zone name in `polygons` and velocity shape name in a zone's
/// `velocity_polygons`.
pub const MAX_SOURCE_NAME_BYTES: usize = 64;

/// Most zones in `polygons`: each is checked against its sources at every
/// command, and nav2 configurations have a handful.
pub const MAX_ZONES: usize = 32;

/// Most shapes in a `velocity_polygon` zone's `velocity_polygons`.
pub const MAX_VELOCITY_SHAPES: usize = 32;

/// Every parameter of `sat_collision_node`. What each one means, its
/// default, range and whether it can change at run time are in [`PARAMS`].
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
    /// [`MAX_SOURCES`]). [`NodeConfig::start_up`] builds
    /// [`sources`](Self::sources) from them.
    pub observation_sources: Vec<String>,
    /// `source_timeout` (s): the default of each source's own
    /// `<name>.source_timeout`; 0: never stale.
    pub source_timeout: f64,
    /// The sensor sources, in the order of `observation_sources`, each
    /// with its `<name>.<suffix>` parameters ([`SOURCE_PARAMS`]).
    /// [`NodeConfig::start_up`] and [`NodeConfig::set`] keep
    /// `monitor.sources` in step with them.
    pub sources: Vec<SourceConfig>,
    /// `polygons`: the names of the gate's zones, as given (checked as
    /// `observation_sources` is, at most [`MAX_ZONES`], none a source's
    /// name). [`NodeConfig::start_up`] builds `gate.zones` from them.
    pub polygons: Vec<String>,
    /// The velocity gate (nav2's collision monitor): its node parameters
    /// (`base_frame_id`, `cmd_vel_in_topic`, `enabled`, ...) and its zones,
    /// in the order of `polygons`, each with its `<zone>.<suffix>`
    /// parameters ([`ZONE_PARAMS`], [`VELOCITY_SHAPE_PARAMS`]). No zone: no
    /// gate.
    pub gate: GateConfig,
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
/// it: the `<name>.<suffix>` parameters of [`SOURCE_PARAMS`]. The fields a
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
}

impl SourceConfig {
    /// A source called `name` of type `kind` with every parameter at its
    /// default in [`SOURCE_PARAMS`] (`source_timeout` the node's).
    pub fn new(name: &str, kind: SourceKind, node: &NodeConfig) -> Self {
        // Each of these but the name and kind is overwritten by the table's
        // default just below.
        let mut source = SourceConfig {
            name: name.to_owned(),
            kind,
            topic: String::new(),
            enabled: true,
            timeout: 0.0,
            min_height: 0.0,
            max_height: 0.0,
            min_range: 0.0,
            use_global_height: false,
            obstacles_angle: 0.0,
        };
        for param in SOURCE_PARAMS {
            // `type` has no default: its reset leaves `kind` as given.
            param.spec.reset(&mut source);
            if let Some(value) = param
                .default_from
                .and_then(|node_param| node.get(node_param))
            {
                // The node parameter has this one's type and range (a unit
                // test holds them to it): this cannot be refused.
                let set = param.spec.set(&mut source, &value);
                debug_assert!(set.is_ok(), "{set:?}");
            }
        }
        source
    }

    /// What the monitor needs of it.
    pub fn spec(&self) -> SourceSpec {
        SourceSpec {
            name: self.name.clone(),
            kind: self.kind,
            timeout: self.timeout,
            enabled: self.enabled,
        }
    }
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
            polygons: Vec::new(),
            gate: GateConfig::default(),
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

/// The type of a parameter, with its default, its checks and where its
/// value lives in the configuration `C` it reads and writes: the node's
/// [`NodeConfig`] ([`PARAMS`]) or one source's [`SourceConfig`]
/// ([`SOURCE_PARAMS`]). The rules (types, ranges, messages) are the same
/// for both: [`ParamSpec::set`].
#[derive(Debug)]
pub enum Kind<C = NodeConfig> {
    /// A double in the closed range `[min, max]`; an integer is taken as a
    /// double (YAML `1` for `1.0`).
    Number {
        /// The value when none is given.
        default: f64,
        /// Smallest value accepted.
        min: f64,
        /// Largest value accepted.
        max: f64,
        /// Reads the value from a `C`.
        get: fn(&C) -> f64,
        /// Writes the value into a `C`.
        set: fn(&mut C, f64),
    },
    /// An integer in the closed range `[min, max]`; a double with no
    /// fraction is taken as an integer (`2.0` for `2`), one with a fraction
    /// (`2.5`) is refused.
    Integer {
        /// The value when none is given.
        default: i64,
        /// Smallest value accepted.
        min: i64,
        /// Largest value accepted.
        max: i64,
        /// Reads the value from a `C`.
        get: fn(&C) -> i64,
        /// Writes the value into a `C` (only values in `[min, max]`).
        set: fn(&mut C, i64),
    },
    /// A boolean.
    Bool {
        /// The value when none is given.
        default: bool,
        /// Reads the value from a `C`.
        get: fn(&C) -> bool,
        /// Writes the value into a `C`.
        set: fn(&mut C, bool),
    },
    /// A string; `check` refuses unusable content with a message.
    Text {
        /// The value when none is given.
        default: &'static str,
        /// `Err` with the message a user sees when the text is unusable.
        check: fn(&str) -> Result<(), String>,
        /// Reads the value from a `C` (borrowed, or made from what `C`
        /// holds: a zone's points).
        get: fn(&C) -> Cow<'_, str>,
        /// Writes the value into a `C` (only text `check` accepted).
        set: fn(&mut C, String),
    },
    /// A list of strings; `check` refuses an unusable list with a message.
    /// rcl reads an empty YAML list (`[]`) as a value without a type
    /// ([`Value::NotSet`]): it is taken as the empty list.
    TextList {
        /// The value when none is given.
        default: &'static [&'static str],
        /// `Err` with the message a user sees when the list is unusable.
        check: fn(&[String]) -> Result<(), String>,
        /// Reads the value from a `C` (borrowed, or made from what `C`
        /// holds: a zone's velocity shapes).
        get: fn(&C) -> Cow<'_, [String]>,
        /// Writes the value into a `C` (only lists `check` accepted).
        set: fn(&mut C, Vec<String>),
    },
}

// By hand: derived, they would require `C: Copy`; every field is a copy
// whatever `C` is.
impl<C> Clone for Kind<C> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<C> Copy for Kind<C> {}

/// One parameter: of the node ([`PARAMS`]) or of every sensor source
/// ([`SOURCE_PARAMS`], where `name` is the suffix after `<source>.`).
#[derive(Debug)]
pub struct ParamSpec<C = NodeConfig> {
    /// The parameter's name.
    pub name: &'static str,
    /// Its type, default, checks and field.
    pub kind: Kind<C>,
    /// Takes effect while the node runs (`set_parameters`); otherwise read
    /// at start-up only, and a run-time change is refused.
    pub runtime: bool,
    /// What `describe_parameters` shows, the range included.
    pub description: &'static str,
}

impl<C> Clone for ParamSpec<C> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<C> Copy for ParamSpec<C> {}

/// The node's parameters, in the order they are listed and documented.
///
/// The one place a parameter is defined. Derived from it: [`NodeConfig`]'s
/// default, [`NodeConfig::set`] (type and range checks, with the messages a
/// user sees) and [`NodeConfig::get`], an unknown name's error and its "did
/// you mean" hint ([`NodeConfig::check_other`]), and in `ros::params` the
/// r2r parameter descriptors and which names may change at run time.
/// `tests/monitor/params_table.rs` holds `config/sat_collision.yaml` and the
/// README's parameter table to it.
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
pub const NAV2_ONLY_PARAMS: [(&str, &str); 3] = [
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
];

/// The source types every source has.
const ALL_TYPES: &[SourceKind] = &SourceKind::ALL;

/// One parameter of every sensor source of some types: `<name>.<suffix>`
/// for each `name` in `observation_sources`. See [`SOURCE_PARAMS`].
#[derive(Clone, Copy, Debug)]
pub struct SourceParam {
    /// The parameter, with the same rules as the node's; its `name` is the
    /// suffix after `<source>.`.
    pub spec: ParamSpec<SourceConfig>,
    /// The source types it applies to. On a source of another type it is
    /// accepted and ignored, with a note (nav2 ignores it too).
    pub kinds: &'static [SourceKind],
    /// The node parameter whose value is its default, if any (the node's
    /// `source_timeout` for `<name>.source_timeout`); else the table's.
    pub default_from: Option<&'static str>,
}

impl SourceParam {
    /// It applies to a source of type `kind`.
    pub fn applies_to(&self, kind: SourceKind) -> bool {
        self.kinds.contains(&kind)
    }
}

/// The parameters of a sensor source, `<name>.<suffix>`, with nav2 Jazzy
/// collision monitor's names, types and defaults (`source.cpp`,
/// `pointcloud.cpp`, `range.cpp`), in the order they are documented.
///
/// Built with the node's [`ParamSpec`] and [`Kind`], so the checks, the
/// messages, the defaults and the run-time rule are [`PARAMS`]'s. `type`
/// has no default: a source without one stops start-up (nav2 takes
/// `scan`). Only `enabled` changes at run time. Other names nav2 reads for
/// a source ([`NAV2_ONLY_SOURCE_PARAMS`]) and a suffix of another source
/// type are accepted and ignored with a note
/// ([`NodeConfig::check_name`]); anything else is an unknown parameter.
pub static SOURCE_PARAMS: &[SourceParam] = &[
    SourceParam {
        spec: ParamSpec {
            name: "type",
            kind: Kind::Text {
                default: "",
                check: |text| SourceKind::parse(text).map(drop),
                get: |s| Cow::Borrowed(s.kind.as_str()),
                // Checked first: `parse` fails only on the empty default,
                // which keeps the type the source was made with.
                set: |s, text| {
                    if let Ok(kind) = SourceKind::parse(&text) {
                        s.kind = kind;
                    }
                },
            },
            runtime: false,
            description: "required: scan (sensor_msgs/LaserScan), pointcloud (sensor_msgs/PointCloud2), range (sensor_msgs/Range) or polygon (geometry_msgs/PolygonInstanceStamped) (start-up only)",
        },
        kinds: ALL_TYPES,
        default_from: None,
    },
    SourceParam {
        spec: ParamSpec {
            name: "topic",
            kind: Kind::Text {
                default: "scan",
                check: check_source_topic,
                get: |s| Cow::Borrowed(&s.topic),
                set: |s, text| s.topic = text,
            },
            runtime: false,
            description: "topic the source reads (start-up only)",
        },
        kinds: ALL_TYPES,
        default_from: None,
    },
    SourceParam {
        spec: ParamSpec {
            name: "enabled",
            kind: Kind::Bool {
                default: true,
                get: |s| s.enabled,
                set: |s, b| s.enabled = b,
            },
            runtime: true,
            description: "false: the source counts for nothing (no points, no stale or missing data, no report entry)",
        },
        kinds: ALL_TYPES,
        default_from: None,
    },
    SourceParam {
        spec: ParamSpec {
            name: "source_timeout",
            kind: Kind::Number {
                default: 2.0,
                min: 0.0,
                max: 3600.0,
                get: |s| s.timeout,
                set: |s, x| s.timeout = x,
            },
            runtime: false,
            description: "s after the source's data arrived, or after their non-zero stamp, before they are stale; default: the node's source_timeout (0 = never; start-up only) [0, 3600]",
        },
        kinds: ALL_TYPES,
        default_from: Some("source_timeout"),
    },
    SourceParam {
        spec: ParamSpec {
            name: "min_height",
            kind: Kind::Number {
                default: 0.05,
                min: -100.0,
                max: 100.0,
                get: |s| s.min_height,
                set: |s, x| s.min_height = x,
            },
            runtime: false,
            description: "m, points lower than this (z in the robot's frame, or the cloud's height field with use_global_height) are dropped (start-up only) [-100, 100]",
        },
        kinds: &[SourceKind::PointCloud],
        default_from: None,
    },
    SourceParam {
        spec: ParamSpec {
            name: "max_height",
            kind: Kind::Number {
                default: 0.5,
                min: -100.0,
                max: 100.0,
                get: |s| s.max_height,
                set: |s, x| s.max_height = x,
            },
            runtime: false,
            description: "m, points higher than this are dropped; at least min_height (start-up only) [-100, 100]",
        },
        kinds: &[SourceKind::PointCloud],
        default_from: None,
    },
    SourceParam {
        spec: ParamSpec {
            name: "min_range",
            kind: Kind::Number {
                default: 0.0,
                min: 0.0,
                max: 1000.0,
                get: |s| s.min_range,
                set: |s, x| s.min_range = x,
            },
            runtime: false,
            description: "m, points nearer than this to the sensor's origin are dropped (start-up only) [0, 1000]",
        },
        kinds: &[SourceKind::PointCloud],
        default_from: None,
    },
    SourceParam {
        spec: ParamSpec {
            name: "use_global_height",
            kind: Kind::Bool {
                default: false,
                get: |s| s.use_global_height,
                set: |s, b| s.use_global_height = b,
            },
            runtime: false,
            description: "heights from the cloud's height field (a ground-segmented cloud) instead of z in the robot's frame (start-up only)",
        },
        kinds: &[SourceKind::PointCloud],
        default_from: None,
    },
    SourceParam {
        spec: ParamSpec {
            name: "obstacles_angle",
            kind: Kind::Number {
                default: std::f64::consts::PI / 180.0,
                min: 0.001,
                max: std::f64::consts::PI,
                get: |s| s.obstacles_angle,
                set: |s, x| s.obstacles_angle = x,
            },
            runtime: false,
            description: "rad between the points put along the arc of a range reading (start-up only) [0.001, 3.141592653589793]",
        },
        kinds: &[SourceKind::Range],
        default_from: None,
    },
];

/// Names nav2's collision monitor reads for a source (Jazzy and later:
/// `pointcloud.transport_type`, `polygon.sampling_distance`, every type's
/// `exclusion_zones`) that this node does not use: accepted with a note
/// saying they are ignored, so that a nav2 configuration starts unchanged.
pub const NAV2_ONLY_SOURCE_PARAMS: [&str; 3] =
    ["transport_type", "sampling_distance", "exclusion_zones"];

/// The source parameter with suffix `suffix`, if there is one.
pub fn source_param(suffix: &str) -> Option<&'static SourceParam> {
    SOURCE_PARAMS.iter().find(|param| param.spec.name == suffix)
}

/// Where a zone parameter's value comes from when it is not given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZoneDefault {
    /// The default of the spec's [`Kind`].
    Table,
    /// None: the parameter is required, and a zone (or velocity shape)
    /// without it stops start-up; the spec's [`Kind`] default is only a
    /// filler, never used.
    Required,
    /// Made from the zone or the node (said in words here); the spec's
    /// [`Kind`] default is how "not given" is written.
    Computed(&'static str),
}

/// One parameter of every zone of `polygons` that it applies to:
/// `<zone>.<suffix>`. See [`ZONE_PARAMS`].
#[derive(Clone, Copy, Debug)]
pub struct ZoneParam {
    /// The parameter, with the same rules as the node's; its `name` is the
    /// suffix after `<zone>.`.
    pub spec: ParamSpec<ZoneConfig>,
    /// The zones it applies to (by type, action and shape, as nav2 reads
    /// it). On another zone it is accepted and ignored, with a note.
    pub applies: fn(&ZoneConfig) -> bool,
    /// Those zones in words, for the note and the README ("slowdown
    /// zones").
    pub zones: &'static str,
    /// Where its value comes from when it is not given.
    pub default: ZoneDefault,
}

/// One parameter of every shape of a `velocity_polygon` zone:
/// `<zone>.<shape>.<suffix>` for each `<shape>` in its `velocity_polygons`.
/// See [`VELOCITY_SHAPE_PARAMS`].
#[derive(Clone, Copy, Debug)]
pub struct VelocityShapeParam {
    /// The parameter; its `name` is the suffix after `<zone>.<shape>.`.
    pub spec: ParamSpec<VelocityShape>,
    /// Read only for a `holonomic` zone (nav2 ignores it otherwise: a note).
    pub holonomic_only: bool,
    /// Where its value comes from when it is not given.
    pub default: ZoneDefault,
}

/// A zone of type `polygon`.
fn polygon_zone(zone: &ZoneConfig) -> bool {
    matches!(
        zone.shape,
        ZoneShape::Polygon(_) | ZoneShape::Dynamic { circle: false }
    )
}

/// A zone of type `circle`.
fn circle_zone(zone: &ZoneConfig) -> bool {
    matches!(
        zone.shape,
        ZoneShape::Circle(_) | ZoneShape::Dynamic { circle: true }
    )
}

/// A zone of type `velocity_polygon`.
fn velocity_zone(zone: &ZoneConfig) -> bool {
    matches!(zone.shape, ZoneShape::Velocity { .. })
}

/// An `approach` polygon without `points`: the robot's footprint
/// (`footprint_topic`) is its shape.
fn footprint_zone(zone: &ZoneConfig) -> bool {
    zone.shape == (ZoneShape::Dynamic { circle: false }) && zone.action == Action::Approach
}

/// A zone whose shape arrives on `polygon_sub_topic`: no `points` (or
/// `radius`), and not a footprint zone.
fn subscribed_zone(zone: &ZoneConfig) -> bool {
    matches!(zone.shape, ZoneShape::Dynamic { .. }) && !footprint_zone(zone)
}

/// The zone types, as `<zone>.type` spells them.
const ZONE_TYPES: [&str; 3] = ["polygon", "circle", "velocity_polygon"];

/// nav2's `type` of a zone.
fn zone_type(zone: &ZoneConfig) -> &'static str {
    match zone.shape {
        ZoneShape::Polygon(_) | ZoneShape::Dynamic { circle: false } => ZONE_TYPES[0],
        ZoneShape::Circle(_) | ZoneShape::Dynamic { circle: true } => ZONE_TYPES[1],
        ZoneShape::Velocity { .. } => ZONE_TYPES[2],
    }
}

/// The shape a zone of type `text` has before its `points`, `radius` or
/// `velocity_polygons` are read; `None` for an unknown type.
fn zone_type_shape(text: &str) -> Option<ZoneShape> {
    match text {
        "polygon" => Some(ZoneShape::Dynamic { circle: false }),
        "circle" => Some(ZoneShape::Dynamic { circle: true }),
        "velocity_polygon" => Some(ZoneShape::Velocity {
            holonomic: false,
            shapes: Vec::new(),
        }),
        _ => None,
    }
}

fn check_zone_type(text: &str) -> Result<(), String> {
    match zone_type_shape(text) {
        Some(_) => Ok(()),
        None => Err("must be polygon, circle or velocity_polygon".to_owned()),
    }
}

/// nav2's points string (`"[[x, y], ...]"`, nav2_util's `parseVVF` form as
/// YAML reads it) as a usable polygon: at least 3 points, simple.
pub fn parse_zone_points(text: &str) -> Result<Vec<Point>, String> {
    let points = footprint_points(text).map_err(|e| e.to_string())?;
    Shape::polygon(&points).map_err(|e| format!("not a usable zone polygon: {e}"))?;
    Ok(points)
}

/// A zone's `points`: empty (none: the shape arrives at run time), or a
/// usable polygon.
fn check_zone_points(text: &str) -> Result<(), String> {
    if text.trim().is_empty() {
        return Ok(());
    }
    parse_zone_points(text).map(drop)
}

/// A velocity shape's `points`: a usable polygon (required).
fn check_shape_points(text: &str) -> Result<(), String> {
    if text.trim().is_empty() {
        return Err("a velocity shape needs points: \"[[x, y], [x, y], ...]\"".to_owned());
    }
    parse_zone_points(text).map(drop)
}

/// Points written back in nav2's form (`[[0.3, 0.3], [0.3, -0.3], ...]`;
/// each number the shortest text that reads back as the same double).
fn points_text(points: &[Point]) -> String {
    let pairs: Vec<String> = points
        .iter()
        .map(|p| format!("[{}, {}]", p.x, p.y))
        .collect();
    format!("[{}]", pairs.join(", "))
}

/// A zone's `velocity_polygons`: at least one name, checked as source
/// names are.
fn check_shape_names(names: &[String]) -> Result<(), String> {
    if names.is_empty() {
        return Err("a velocity_polygon zone needs at least one velocity shape".to_owned());
    }
    check_names(names, "velocity shape", MAX_VELOCITY_SHAPES)
}

/// A velocity shape called `name` with every parameter at its table
/// default (the required ones at their table fillers, overwritten or refused).
fn velocity_shape(name: &str) -> VelocityShape {
    // Each of these but the name is overwritten by the table just below.
    let mut shape = VelocityShape {
        name: name.to_owned(),
        points: Vec::new(),
        linear_min: 0.0,
        linear_max: 0.0,
        theta_min: 0.0,
        theta_max: 0.0,
        direction_start: 0.0,
        direction_end: 0.0,
    };
    for param in VELOCITY_SHAPE_PARAMS {
        param.spec.reset(&mut shape);
    }
    shape
}

/// The parameters of a zone, `<zone>.<suffix>`, with nav2's collision
/// monitor's names, types and defaults (Jazzy's `polygon.cpp`,
/// `circle.cpp`, `velocity_polygon.cpp`; `trigger_consecutive_points` and
/// `release_consecutive_points` from its later releases), in the order
/// they are documented.
///
/// Built with the node's [`ParamSpec`] and [`Kind`], so the checks, the
/// messages and the run-time rule are [`PARAMS`]'s. `type` and
/// `action_type` are required (nav2 stops on them too); the shape is
/// `points` (polygon), `radius` (circle) or `velocity_polygons` with
/// [`VELOCITY_SHAPE_PARAMS`] (velocity_polygon), else it arrives at run
/// time ([`ZoneShape::Dynamic`]). Only `enabled` changes at run time.
/// [`NAV2_ONLY_ZONE_PARAMS`] and a parameter that does not apply to the
/// zone are accepted and ignored with a note ([`NodeConfig::check_name`]).
pub static ZONE_PARAMS: &[ZoneParam] = &[
    ZoneParam {
        spec: ParamSpec {
            name: "type",
            kind: Kind::Text {
                default: "",
                check: check_zone_type,
                get: |z| Cow::Borrowed(zone_type(z)),
                // Checked first; a zone keeps its shape when its type is
                // given again.
                set: |z, text| {
                    if zone_type(z) != text {
                        if let Some(shape) = zone_type_shape(&text) {
                            z.shape = shape;
                        }
                    }
                },
            },
            runtime: false,
            description: "required: polygon (points, or a shape from polygon_sub_topic or footprint_topic), circle (radius, or from polygon_sub_topic) or velocity_polygon (velocity_polygons) (start-up only)",
        },
        applies: |_| true,
        zones: "all",
        default: ZoneDefault::Required,
    },
    ZoneParam {
        spec: ParamSpec {
            name: "action_type",
            kind: Kind::Text {
                default: "",
                check: |text| Action::parse(text).map(drop),
                get: |z| Cow::Borrowed(z.action.as_str()),
                // Checked first: `parse` cannot fail here.
                set: |z, text| {
                    if let Ok(action) = Action::parse(&text) {
                        z.action = action;
                    }
                },
            },
            runtime: false,
            description: "required: stop, slowdown, limit, approach or none (start-up only)",
        },
        applies: |_| true,
        zones: "all",
        default: ZoneDefault::Required,
    },
    ZoneParam {
        spec: ParamSpec {
            name: "points",
            kind: Kind::Text {
                default: "",
                check: check_zone_points,
                get: |z| match &z.shape {
                    ZoneShape::Polygon(points) => Cow::Owned(points_text(points)),
                    _ => Cow::Borrowed(""),
                },
                // Checked first: `parse_zone_points` cannot fail here.
                set: |z, text| {
                    z.shape = match parse_zone_points(&text) {
                        Ok(points) => ZoneShape::Polygon(points),
                        // Empty: no points.
                        Err(_) => ZoneShape::Dynamic { circle: false },
                    };
                },
            },
            runtime: false,
            description: "the zone in base_frame_id, \"[[x, y], [x, y], ...]\": at least 3 points, a simple polygon; empty = from polygon_sub_topic (or footprint_topic, approach) (start-up only)",
        },
        applies: polygon_zone,
        zones: "polygon zones",
        default: ZoneDefault::Table,
    },
    ZoneParam {
        spec: ParamSpec {
            name: "radius",
            kind: Kind::Number {
                default: 0.0,
                min: 0.0,
                max: 1000.0,
                get: |z| match z.shape {
                    ZoneShape::Circle(radius) => radius,
                    _ => 0.0,
                },
                set: |z, x| {
                    z.shape = if x > 0.0 {
                        ZoneShape::Circle(x)
                    } else {
                        ZoneShape::Dynamic { circle: true }
                    };
                },
            },
            runtime: false,
            description: "m, the circle centred on base_frame_id; given, more than 0; not given (0) = from polygon_sub_topic (start-up only) [0, 1000]",
        },
        applies: circle_zone,
        zones: "circle zones",
        default: ZoneDefault::Table,
    },
    ZoneParam {
        spec: ParamSpec {
            name: "velocity_polygons",
            kind: Kind::TextList {
                default: &[],
                check: check_shape_names,
                get: |z| match &z.shape {
                    ZoneShape::Velocity { shapes, .. } => {
                        Cow::Owned(shapes.iter().map(|s| s.name.clone()).collect())
                    }
                    _ => Cow::Borrowed(&[]),
                },
                // The shapes of these names, those already there kept.
                set: |z, names| {
                    if let ZoneShape::Velocity { shapes, .. } = &mut z.shape {
                        let mut old = std::mem::take(shapes);
                        *shapes = names
                            .iter()
                            .map(|name| match old.iter().position(|s| &s.name == name) {
                                Some(i) => old.swap_remove(i),
                                None => velocity_shape(name),
                            })
                            .collect();
                    }
                },
            },
            runtime: false,
            description: "required: the names of the zone's shapes, each with <zone>.<name>.points, linear_min, linear_max, theta_min, theta_max; the first whose ranges hold the command is the zone (at most 32) (start-up only)",
        },
        applies: velocity_zone,
        zones: "velocity_polygon zones",
        default: ZoneDefault::Required,
    },
    ZoneParam {
        spec: ParamSpec {
            name: "holonomic",
            kind: Kind::Bool {
                default: false,
                get: |z| matches!(z.shape, ZoneShape::Velocity { holonomic: true, .. }),
                set: |z, b| {
                    if let ZoneShape::Velocity { holonomic, .. } = &mut z.shape {
                        *holonomic = b;
                    }
                },
            },
            runtime: false,
            description: "the velocity shapes' ranges are on the speed and its direction (direction_start_angle, direction_end_angle) rather than linear.x (start-up only)",
        },
        applies: velocity_zone,
        zones: "velocity_polygon zones",
        default: ZoneDefault::Table,
    },
    ZoneParam {
        spec: ParamSpec {
            name: "min_points",
            kind: Kind::Integer {
                default: crate::gate::DEFAULT_ZONE_MIN_POINTS as i64,
                min: 1,
                max: 1_000_000,
                get: |z| i64::try_from(z.min_points).unwrap_or(i64::MAX),
                // Only values in [1, 1e6] reach here: the cast is exact.
                set: |z, n| z.min_points = n as usize,
            },
            runtime: false,
            description: "points of the zone's sources inside (or on) the zone that trigger it; a polygon source's polygon touching it triggers it alone (start-up only) [1, 1000000]",
        },
        applies: |_| true,
        zones: "all",
        default: ZoneDefault::Table,
    },
    ZoneParam {
        spec: ParamSpec {
            name: "max_points",
            kind: Kind::Integer {
                default: crate::gate::DEFAULT_ZONE_MIN_POINTS as i64 - 1,
                min: 0,
                max: 999_999,
                get: |z| i64::try_from(z.min_points).map_or(i64::MAX, |n| n - 1),
                // Only values in [0, 999999] reach here: the cast is exact.
                set: |z, n| z.min_points = n as usize + 1,
            },
            runtime: false,
            description: "deprecated in nav2: sets min_points to max_points + 1 (start-up only) [0, 999999]",
        },
        applies: |_| true,
        zones: "all",
        default: ZoneDefault::Table,
    },
    ZoneParam {
        spec: ParamSpec {
            name: "enabled",
            kind: Kind::Bool {
                default: true,
                get: |z| z.enabled,
                set: |z, b| z.enabled = b,
            },
            runtime: true,
            description: "false: the zone is not checked",
        },
        applies: |_| true,
        zones: "all",
        default: ZoneDefault::Table,
    },
    ZoneParam {
        spec: ParamSpec {
            name: "slowdown_ratio",
            kind: Kind::Number {
                default: crate::gate::DEFAULT_SLOWDOWN_RATIO,
                min: 0.0,
                max: 1.0,
                get: |z| z.slowdown_ratio,
                set: |z, x| z.slowdown_ratio = x,
            },
            runtime: false,
            description: "the command is scaled by this while the zone is triggered (start-up only) [0, 1]",
        },
        applies: |z| z.action == Action::Slowdown,
        zones: "slowdown zones",
        default: ZoneDefault::Table,
    },
    ZoneParam {
        spec: ParamSpec {
            name: "linear_limit",
            kind: Kind::Number {
                default: crate::gate::DEFAULT_LIMIT,
                min: 0.0,
                max: 100.0,
                get: |z| z.linear_limit,
                set: |z, x| z.linear_limit = x,
            },
            runtime: false,
            description: "m/s, the most linear speed while the zone is triggered (start-up only) [0, 100]",
        },
        applies: |z| z.action == Action::Limit,
        zones: "limit zones",
        default: ZoneDefault::Table,
    },
    ZoneParam {
        spec: ParamSpec {
            name: "angular_limit",
            kind: Kind::Number {
                default: crate::gate::DEFAULT_LIMIT,
                min: 0.0,
                max: 100.0,
                get: |z| z.angular_limit,
                set: |z, x| z.angular_limit = x,
            },
            runtime: false,
            description: "rad/s, the most angular speed while the zone is triggered (start-up only) [0, 100]",
        },
        applies: |z| z.action == Action::Limit,
        zones: "limit zones",
        default: ZoneDefault::Table,
    },
    ZoneParam {
        spec: ParamSpec {
            name: "time_before_collision",
            kind: Kind::Number {
                default: crate::gate::DEFAULT_TIME_BEFORE_COLLISION,
                min: 0.001,
                max: 60.0,
                get: |z| z.time_before_collision,
                set: |z, x| z.time_before_collision = x,
            },
            runtime: false,
            description: "s, approach: the command is scaled so that contact stays this far ahead; stop: the look-ahead of allow_escape (start-up only) [0.001, 60]",
        },
        applies: |z| matches!(z.action, Action::Approach | Action::Stop),
        zones: "approach and stop zones",
        default: ZoneDefault::Table,
    },
    ZoneParam {
        spec: ParamSpec {
            name: "allow_escape",
            kind: Kind::Bool {
                default: false,
                get: |z| z.allow_escape,
                set: |z, b| z.allow_escape = b,
            },
            runtime: false,
            description: "a command that only takes the zone away from what is inside it passes (start-up only)",
        },
        applies: |z| z.action == Action::Stop,
        zones: "stop zones",
        default: ZoneDefault::Table,
    },
    ZoneParam {
        spec: ParamSpec {
            name: "sources_names",
            kind: Kind::TextList {
                default: &[],
                check: |names| check_names(names, "source", MAX_SOURCES),
                get: |z| Cow::Borrowed(&z.sources_names),
                set: |z, names| z.sources_names = names,
            },
            runtime: false,
            description: "the sources of observation_sources the zone is checked against; empty = every one (start-up only)",
        },
        applies: |_| true,
        zones: "all",
        default: ZoneDefault::Computed("every source"),
    },
    ZoneParam {
        spec: ParamSpec {
            name: "trigger_consecutive_points",
            kind: Kind::Integer {
                default: 1,
                min: 1,
                max: 1000,
                get: |z| i64::from(z.trigger_consecutive),
                // Only values in [1, 1000] reach here: the cast is exact.
                set: |z, n| z.trigger_consecutive = n as u32,
            },
            runtime: false,
            description: "checks in a row that must find the zone triggered before it acts (start-up only) [1, 1000]",
        },
        applies: |_| true,
        zones: "all",
        default: ZoneDefault::Table,
    },
    ZoneParam {
        spec: ParamSpec {
            name: "release_consecutive_points",
            kind: Kind::Integer {
                default: 1,
                min: 1,
                max: 1000,
                get: |z| i64::from(z.release_consecutive),
                // Only values in [1, 1000] reach here: the cast is exact.
                set: |z, n| z.release_consecutive = n as u32,
            },
            runtime: false,
            description: "checks in a row that must find the zone clear before it stops acting (start-up only) [1, 1000]",
        },
        applies: |_| true,
        zones: "all",
        default: ZoneDefault::Table,
    },
    ZoneParam {
        spec: ParamSpec {
            name: "visualize",
            kind: Kind::Bool {
                default: false,
                get: |z| z.visualize,
                set: |z, b| z.visualize = b,
            },
            runtime: false,
            description: "publish the zone as a geometry_msgs/PolygonStamped on polygon_pub_topic (start-up only)",
        },
        applies: |_| true,
        zones: "all",
        default: ZoneDefault::Table,
    },
    ZoneParam {
        spec: ParamSpec {
            name: "polygon_pub_topic",
            kind: Kind::Text {
                default: "",
                check: check_topic,
                get: |z| Cow::Borrowed(&z.polygon_pub_topic),
                // Empty: the zone's name.
                set: |z, text| {
                    z.polygon_pub_topic = if text.is_empty() {
                        z.name.clone()
                    } else {
                        text
                    };
                },
            },
            runtime: false,
            description: "where visualize publishes the zone; empty = the zone's name (start-up only)",
        },
        applies: |_| true,
        zones: "all",
        default: ZoneDefault::Computed("the zone's name"),
    },
    ZoneParam {
        spec: ParamSpec {
            name: "polygon_sub_topic",
            kind: Kind::Text {
                default: "",
                check: check_topic,
                get: |z| Cow::Borrowed(&z.polygon_sub_topic),
                set: |z, text| z.polygon_sub_topic = text,
            },
            runtime: false,
            description: "the zone's shape at run time (geometry_msgs/PolygonStamped; a circle's radius as std_msgs/Float32); required without points or radius, but for an approach polygon (start-up only)",
        },
        applies: subscribed_zone,
        zones: "zones without points or radius (but approach polygons)",
        default: ZoneDefault::Table,
    },
    ZoneParam {
        spec: ParamSpec {
            name: "polygon_subscribe_transient_local",
            kind: Kind::Bool {
                default: false,
                get: |z| z.subscribe_transient_local,
                set: |z, b| z.subscribe_transient_local = b,
            },
            runtime: false,
            description: "polygon_sub_topic is subscribed transient-local: a shape published once before the node started still arrives (start-up only)",
        },
        applies: subscribed_zone,
        zones: "zones without points or radius (but approach polygons)",
        default: ZoneDefault::Table,
    },
    ZoneParam {
        spec: ParamSpec {
            name: "footprint_topic",
            kind: Kind::Text {
                default: "local_costmap/published_footprint",
                check: check_topic,
                get: |z| Cow::Borrowed(&z.footprint_topic),
                set: |z, text| z.footprint_topic = text,
            },
            runtime: false,
            description: "the robot's footprint (geometry_msgs/PolygonStamped) as the zone of an approach polygon without points; must not be empty there (start-up only)",
        },
        applies: footprint_zone,
        zones: "approach polygon zones without points",
        default: ZoneDefault::Table,
    },
];

/// The zone parameters whose values make the zone's shape: read before the
/// others (what applies to a zone depends on its shape), and not reset to
/// a default (the type's shape is their "not given").
const SHAPE_SUFFIXES: [&str; 6] = [
    "type",
    "action_type",
    "points",
    "radius",
    "velocity_polygons",
    "holonomic",
];

/// The parameters of each shape of a `velocity_polygon` zone,
/// `<zone>.<shape>.<suffix>`, with nav2 Jazzy's names and defaults
/// (`velocity_polygon.cpp`). All are start-up only.
pub static VELOCITY_SHAPE_PARAMS: &[VelocityShapeParam] = &[
    VelocityShapeParam {
        spec: ParamSpec {
            name: "points",
            kind: Kind::Text {
                default: "",
                check: check_shape_points,
                get: |s| Cow::Owned(points_text(&s.points)),
                // Checked first: `parse_zone_points` cannot fail here.
                set: |s, text| {
                    if let Ok(points) = parse_zone_points(&text) {
                        s.points = points;
                    }
                },
            },
            runtime: false,
            description: "required: the shape in base_frame_id, \"[[x, y], [x, y], ...]\": at least 3 points, a simple polygon (start-up only)",
        },
        holonomic_only: false,
        default: ZoneDefault::Required,
    },
    VelocityShapeParam {
        spec: ParamSpec {
            name: "linear_min",
            kind: Kind::Number {
                default: 0.0,
                min: -100.0,
                max: 100.0,
                get: |s| s.linear_min,
                set: |s, x| s.linear_min = x,
            },
            runtime: false,
            description: "required: m/s, the least linear.x (holonomic: speed) the shape is for (start-up only) [-100, 100]",
        },
        holonomic_only: false,
        default: ZoneDefault::Required,
    },
    VelocityShapeParam {
        spec: ParamSpec {
            name: "linear_max",
            kind: Kind::Number {
                default: 0.0,
                min: -100.0,
                max: 100.0,
                get: |s| s.linear_max,
                set: |s, x| s.linear_max = x,
            },
            runtime: false,
            description: "required: m/s, the most linear.x (holonomic: speed); at least linear_min (start-up only) [-100, 100]",
        },
        holonomic_only: false,
        default: ZoneDefault::Required,
    },
    VelocityShapeParam {
        spec: ParamSpec {
            name: "theta_min",
            kind: Kind::Number {
                default: 0.0,
                min: -100.0,
                max: 100.0,
                get: |s| s.theta_min,
                set: |s, x| s.theta_min = x,
            },
            runtime: false,
            description: "required: rad/s, the least angular.z the shape is for (start-up only) [-100, 100]",
        },
        holonomic_only: false,
        default: ZoneDefault::Required,
    },
    VelocityShapeParam {
        spec: ParamSpec {
            name: "theta_max",
            kind: Kind::Number {
                default: 0.0,
                min: -100.0,
                max: 100.0,
                get: |s| s.theta_max,
                set: |s, x| s.theta_max = x,
            },
            runtime: false,
            description: "required: rad/s, the most angular.z; at least theta_min (start-up only) [-100, 100]",
        },
        holonomic_only: false,
        default: ZoneDefault::Required,
    },
    VelocityShapeParam {
        spec: ParamSpec {
            name: "direction_start_angle",
            kind: Kind::Number {
                default: -std::f64::consts::PI,
                min: -std::f64::consts::PI,
                max: std::f64::consts::PI,
                get: |s| s.direction_start,
                set: |s, x| s.direction_start = x,
            },
            runtime: false,
            description: "rad, where the directions of motion the shape is for start, counter-clockwise to direction_end_angle (start-up only) [-3.141592653589793, 3.141592653589793]",
        },
        holonomic_only: true,
        default: ZoneDefault::Table,
    },
    VelocityShapeParam {
        spec: ParamSpec {
            name: "direction_end_angle",
            kind: Kind::Number {
                default: std::f64::consts::PI,
                min: -std::f64::consts::PI,
                max: std::f64::consts::PI,
                get: |s| s.direction_end,
                set: |s, x| s.direction_end = x,
            },
            runtime: false,
            description: "rad, where they end (start-up only) [-3.141592653589793, 3.141592653589793]",
        },
        holonomic_only: true,
        default: ZoneDefault::Table,
    },
];

/// Names nav2's collision monitor reads for a zone that this node does not
/// use, with why: accepted with a note saying so.
pub const NAV2_ONLY_ZONE_PARAMS: [(&str, &str); 1] = [(
    "simulation_time_step",
    "nav2 steps its approach simulation by it; the approach here is exact",
)];

/// The zone parameter with suffix `suffix`, if there is one.
pub fn zone_param(suffix: &str) -> Option<&'static ZoneParam> {
    ZONE_PARAMS.iter().find(|param| param.spec.name == suffix)
}

/// The velocity shape parameter with suffix `suffix`, if there is one.
pub fn velocity_shape_param(suffix: &str) -> Option<&'static VelocityShapeParam> {
    VELOCITY_SHAPE_PARAMS
        .iter()
        .find(|param| param.spec.name == suffix)
}

/// A list of names (`observation_sources`, `polygons`, a zone's
/// `velocity_polygons` or `sources_names`) of `what` (`"source"`): at most
/// `max` names, each non-empty, at most [`MAX_SOURCE_NAME_BYTES`] of ASCII
/// letters, digits and `_` (a ROS parameter name's token), none twice.
fn check_names(names: &[String], what: &str, max: usize) -> Result<(), String> {
    if names.len() > max {
        return Err(format!(
            "{} {what}s; at most {max} are allowed",
            names.len()
        ));
    }
    for (i, name) in names.iter().enumerate() {
        let shown = crate::text::escape_for_log(name, crate::text::LOG_ID_CHARS);
        if name.is_empty() {
            return Err(format!("a {what} name is empty"));
        }
        if name.len() > MAX_SOURCE_NAME_BYTES {
            return Err(format!(
                "{what} name \"{shown}\" is longer than {MAX_SOURCE_NAME_BYTES} bytes"
            ));
        }
        if let Some(c) = name
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || *c == '_'))
        {
            return Err(format!(
                "{what} name \"{shown}\": {c:?} is not allowed (letters, digits and _)"
            ));
        }
        if names[..i].contains(name) {
            return Err(format!("{what} \"{shown}\" is listed twice"));
        }
    }
    Ok(())
}

/// A topic the gate cannot do without: as [`check_topic`], and not empty.
fn check_needed_topic(text: &str) -> Result<(), String> {
    if text.is_empty() {
        return Err("the gate needs this topic: it cannot be empty".to_owned());
    }
    check_topic(text)
}

/// A frame the gate cannot do without: as [`check_frame`], and not empty.
fn check_needed_frame(text: &str) -> Result<(), String> {
    if text.is_empty() {
        return Err("the gate needs this frame: it cannot be empty".to_owned());
    }
    check_frame(text)
}

/// A source's topic: as [`check_topic`], and not empty.
fn check_source_topic(text: &str) -> Result<(), String> {
    if text.is_empty() {
        return Err("a source needs a topic".to_owned());
    }
    check_topic(text)
}

/// The parameter called `name`, if there is one.
pub fn param(name: &str) -> Option<&'static ParamSpec> {
    PARAMS.iter().find(|spec| spec.name == name)
}

/// A topic name: empty (not set), or at most 256 bytes of letters,
/// digits, `_`, `/` and `~` (rcl checks the rest when subscribing).
fn check_topic(text: &str) -> Result<(), String> {
    if text.len() > 256 {
        return Err("longer than 256 bytes".to_owned());
    }
    match text
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '/' | '~')))
    {
        Some(c) => Err(format!("{c:?} is not allowed in a topic name")),
        None => Ok(()),
    }
}

/// A frame name as TF has them: at most 256 bytes, no NUL, no leading
/// slash (tf2 refuses "/map"); empty means "not set".
fn check_frame(text: &str) -> Result<(), String> {
    crate::text::check_name(text.as_bytes(), crate::text::MAX_FRAME_ID_BYTES)
        .map_err(|e| e.to_string())?;
    if text.starts_with('/') {
        return Err(format!(
            "frame ids have no leading slash (tf2): use \"{}\"",
            text.trim_start_matches('/')
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

/// A parameter that cannot be used, and why.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("parameter `{parameter}`: {message}")]
pub struct ConfigError {
    /// The parameter's name.
    pub parameter: String,
    /// What is wrong with its value.
    pub message: String,
}

/// Why a footprint written as text (nav2's `"[[x, y], ...]"`) is not usable.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FootprintTextError {
    /// Not a list of `[x, y]` pairs.
    #[error("expected \"[[x, y], [x, y], ...]\": {0}")]
    Syntax(String),
    /// The points are not a valid polygon.
    #[error("not a usable footprint: {0}")]
    Shape(#[from] ShapeError),
}

/// A value that arrived for a parameter, from a file or a `set_parameters`.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A boolean.
    Bool(bool),
    /// An integer.
    Integer(i64),
    /// A double.
    Double(f64),
    /// A string.
    String(String),
    /// A list of strings.
    StringArray(Vec<String>),
    /// No value: what rcl makes of an empty YAML list (`[]`), whose type
    /// it cannot tell.
    NotSet,
    /// Any other type (other arrays, bytes).
    Other(&'static str),
}

impl Value {
    fn type_name(&self) -> &'static str {
        match self {
            Value::Bool(_) => "bool",
            Value::Integer(_) => "integer",
            Value::Double(_) => "double",
            Value::String(_) => "string",
            Value::StringArray(_) => "string array",
            Value::NotSet => "not set",
            Value::Other(name) => name,
        }
    }
}

impl<C> ParamSpec<C> {
    /// The allowed closed range of a number.
    pub fn range(&self) -> Option<(f64, f64)> {
        match self.kind {
            Kind::Number { min, max, .. } => Some((min, max)),
            Kind::Integer { min, max, .. } => Some((min as f64, max as f64)),
            Kind::Bool { .. } | Kind::Text { .. } | Kind::TextList { .. } => None,
        }
    }

    /// The default, as a [`Value`].
    pub fn default_value(&self) -> Value {
        match self.kind {
            Kind::Number { default, .. } => Value::Double(default),
            Kind::Integer { default, .. } => Value::Integer(default),
            Kind::Bool { default, .. } => Value::Bool(default),
            Kind::Text { default, .. } => Value::String(default.to_owned()),
            Kind::TextList { default, .. } => {
                Value::StringArray(default.iter().map(|s| (*s).to_owned()).collect())
            }
        }
    }

    /// The value in `config`.
    pub fn get(&self, config: &C) -> Value {
        match self.kind {
            Kind::Number { get, .. } => Value::Double(get(config)),
            Kind::Integer { get, .. } => Value::Integer(get(config)),
            Kind::Bool { get, .. } => Value::Bool(get(config)),
            Kind::Text { get, .. } => Value::String(get(config).into_owned()),
            Kind::TextList { get, .. } => Value::StringArray(get(config).into_owned()),
        }
    }

    /// Writes `value` into `config` after checking its type and range (or
    /// content); a refused value leaves `config` as it was.
    pub fn set(&self, config: &mut C, value: &Value) -> Result<(), ConfigError> {
        self.set_as(self.name, config, value)
    }

    /// [`set`](Self::set), the error naming the parameter `name` (a
    /// source's `<source>.<suffix>`).
    fn set_as(&self, name: &str, config: &mut C, value: &Value) -> Result<(), ConfigError> {
        let error = |message: String| ConfigError {
            parameter: name.to_owned(),
            message,
        };
        let wrong_type =
            |expected: &str| error(format!("expected {expected}, got {}", value.type_name()));
        match self.kind {
            Kind::Number { min, max, set, .. } => {
                let x = match value {
                    Value::Double(x) => *x,
                    Value::Integer(i) => *i as f64,
                    _ => return Err(wrong_type(&format!("a number in [{min}, {max}]"))),
                };
                if !(x.is_finite() && (min..=max).contains(&x)) {
                    return Err(error(format!(
                        "{x} is outside the allowed range [{min}, {max}]"
                    )));
                }
                set(config, x);
            }
            Kind::Integer { min, max, set, .. } => {
                let outside = |x: &dyn std::fmt::Display| {
                    error(format!("{x} is outside the allowed range [{min}, {max}]"))
                };
                let n = match value {
                    Value::Integer(n) => *n,
                    Value::Double(x) => {
                        // Compared as doubles first: the cast below is
                        // then exact (|x| <= max <= 2^53 in practice, and
                        // whole).
                        if !(x.is_finite() && (min as f64..=max as f64).contains(x)) {
                            return Err(outside(x));
                        }
                        if x.fract() != 0.0 {
                            return Err(error(format!(
                                "{x} is not a whole number: expected an integer in [{min}, {max}]"
                            )));
                        }
                        *x as i64
                    }
                    _ => return Err(wrong_type(&format!("an integer in [{min}, {max}]"))),
                };
                if !(min..=max).contains(&n) {
                    return Err(outside(&n));
                }
                set(config, n);
            }
            Kind::Bool { set, .. } => match value {
                Value::Bool(b) => set(config, *b),
                _ => return Err(wrong_type("a bool")),
            },
            Kind::Text { check, set, .. } => match value {
                Value::String(s) => {
                    check(s).map_err(error)?;
                    set(config, s.clone());
                }
                _ => return Err(wrong_type("a string")),
            },
            Kind::TextList { check, set, .. } => {
                let list = match value {
                    Value::StringArray(list) => list.clone(),
                    Value::NotSet => Vec::new(),
                    _ => return Err(wrong_type("a list of strings")),
                };
                check(&list).map_err(error)?;
                set(config, list);
            }
        }
        Ok(())
    }

    /// Puts the default into `config`.
    fn reset(&self, config: &mut C) {
        match self.kind {
            Kind::Number { default, set, .. } => set(config, default),
            Kind::Integer { default, set, .. } => set(config, default),
            Kind::Bool { default, set, .. } => set(config, default),
            Kind::Text { default, set, .. } => set(config, default.to_owned()),
            Kind::TextList { default, set, .. } => {
                set(config, default.iter().map(|s| (*s).to_owned()).collect())
            }
        }
    }
}

/// The values given at start-up, looked up by name.
type Given<'a> = &'a [(String, Value)];

fn given<'a>(values: Given<'a>, name: &str) -> Option<&'a Value> {
    values.iter().find(|(n, _)| n == name).map(|(_, v)| v)
}

/// A zone's parameter, by index into `gate.zones`: `<zone>.<suffix>`, or
/// `<zone>.<shape>.<suffix>` of one of its velocity shapes (by index).
#[derive(Clone, Copy, Debug)]
enum ZoneKey {
    Zone(usize, &'static ZoneParam),
    Shape(usize, usize, &'static VelocityShapeParam),
}

impl ZoneKey {
    fn zone(self) -> usize {
        match self {
            ZoneKey::Zone(zone, _) | ZoneKey::Shape(zone, _, _) => zone,
        }
    }

    fn runtime(self) -> bool {
        match self {
            ZoneKey::Zone(_, param) => param.spec.runtime,
            ZoneKey::Shape(_, _, param) => param.spec.runtime,
        }
    }
}

/// Writes `value` into `zone` as the parameter `key` (`param`'s full
/// name): the table's checks, and a `radius` of exactly 0 refused (the
/// table's 0 means "not given").
fn set_zone_value(
    zone: &mut ZoneConfig,
    key: &str,
    param: &ZoneParam,
    value: &Value,
) -> Result<(), ConfigError> {
    if param.spec.name == "radius" && matches!(value, Value::Integer(0) | Value::Double(0.0)) {
        return Err(ConfigError {
            parameter: key.to_owned(),
            message: format!(
                "a circle zone's radius must be more than 0 (without radius, {} takes its \
                 circle from polygon_sub_topic)",
                zone.name
            ),
        });
    }
    param.spec.set_as(key, zone, value)
}

impl NodeConfig {
    /// Sets one parameter, checking type and range: a node parameter,
    /// `<source>.<suffix>` of one of [`sources`](Self::sources) whose type
    /// it applies to (which keeps `monitor.sources` in step), or a zone's
    /// `<zone>.<suffix>` or `<zone>.<shape>.<suffix>` that applies to it
    /// (checked with the zone as a whole: its shape's source, its
    /// velocity shapes' ranges, its `sources_names`). Integers are
    /// accepted for doubles (YAML `1` for `1.0`). An unknown name is an
    /// error. Whether the change may happen at run time is
    /// [`runtime`](Self::runtime)'s question, not this one's.
    pub fn set(&mut self, name: &str, value: &Value) -> Result<(), ConfigError> {
        if let Some(spec) = param(name) {
            return spec.set(self, value);
        }
        if let Some((index, param)) = self.source_key(name) {
            param.spec.set_as(name, &mut self.sources[index], value)?;
            self.sync_sources();
            return Ok(());
        }
        let Some(key) = self.zone_key(name) else {
            return Err(ConfigError {
                parameter: name.to_owned(),
                message: "no such parameter".to_owned(),
            });
        };
        // On a copy: a refused value leaves the zone as it was.
        let mut zone = self.gate.zones[key.zone()].clone();
        match (key, &mut zone.shape) {
            (ZoneKey::Zone(_, param), _) => set_zone_value(&mut zone, name, param, value)?,
            (ZoneKey::Shape(_, shape, param), ZoneShape::Velocity { shapes, .. }) => {
                if let Some(shape) = shapes.get_mut(shape) {
                    param.spec.set_as(name, shape, value)?;
                }
            }
            // `zone_key` makes shape keys of velocity zones only.
            (ZoneKey::Shape(..), _) => {}
        }
        zone.sources = self.check_zone(&zone)?;
        self.gate.zones[key.zone()] = zone;
        Ok(())
    }

    /// The value of one parameter (of the node, `<source>.<suffix>`,
    /// `<zone>.<suffix>` or `<zone>.<shape>.<suffix>`); `None` for an
    /// unknown name.
    pub fn get(&self, name: &str) -> Option<Value> {
        if let Some(spec) = param(name) {
            return Some(spec.get(self));
        }
        if let Some((index, param)) = self.source_key(name) {
            return Some(param.spec.get(&self.sources[index]));
        }
        match self.zone_key(name)? {
            ZoneKey::Zone(zone, param) => Some(param.spec.get(&self.gate.zones[zone])),
            ZoneKey::Shape(zone, shape, param) => match &self.gate.zones[zone].shape {
                ZoneShape::Velocity { shapes, .. } => Some(param.spec.get(shapes.get(shape)?)),
                _ => None,
            },
        }
    }

    /// Whether the parameter `name` may change at run time; `None` for an
    /// unknown name.
    pub fn runtime(&self, name: &str) -> Option<bool> {
        if let Some(spec) = param(name) {
            return Some(spec.runtime);
        }
        if let Some((_, param)) = self.source_key(name) {
            return Some(param.spec.runtime);
        }
        self.zone_key(name).map(ZoneKey::runtime)
    }

    /// `<zone>.<suffix>` (a parameter that applies to the zone) or
    /// `<zone>.<shape>.<suffix>` (of a shape in a velocity zone's
    /// `velocity_polygons`; the direction angles only when `holonomic`).
    fn zone_key(&self, name: &str) -> Option<ZoneKey> {
        let (zone_name, rest) = name.split_once('.')?;
        let index = self.gate.zones.iter().position(|z| z.name == zone_name)?;
        let zone = &self.gate.zones[index];
        match rest.split_once('.') {
            None => {
                let param = zone_param(rest)?;
                (param.applies)(zone).then_some(ZoneKey::Zone(index, param))
            }
            Some((shape_name, suffix)) => {
                let ZoneShape::Velocity { holonomic, shapes } = &zone.shape else {
                    return None;
                };
                let shape = shapes.iter().position(|s| s.name == shape_name)?;
                let param = velocity_shape_param(suffix)?;
                (*holonomic || !param.holonomic_only).then_some(ZoneKey::Shape(index, shape, param))
            }
        }
    }

    /// The zone called `name`, if there is one.
    pub fn zone(&self, name: &str) -> Option<&ZoneConfig> {
        self.gate.zones.iter().find(|z| z.name == name)
    }

    /// What a zone needs beyond each parameter's own checks, and its
    /// sources' indices: a shape or where it comes from (`polygon_sub_topic`,
    /// or `footprint_topic` for an approach polygon), velocity shapes whose
    /// minimums are not above their maximums, `sources_names` in
    /// `observation_sources`.
    fn check_zone(&self, zone: &ZoneConfig) -> Result<Vec<usize>, ConfigError> {
        let name = &zone.name;
        let error = |suffix: &str, message: String| ConfigError {
            parameter: format!("{name}.{suffix}"),
            message,
        };
        match &zone.shape {
            ZoneShape::Dynamic { .. } if footprint_zone(zone) => {
                if zone.footprint_topic.is_empty() {
                    return Err(error(
                        "footprint_topic",
                        format!(
                            "zone {name} has neither points nor footprint_topic: an approach \
                             polygon needs one (set {name}.points or {name}.footprint_topic)"
                        ),
                    ));
                }
            }
            ZoneShape::Dynamic { circle } => {
                let what = if *circle { "radius" } else { "points" };
                if zone.polygon_sub_topic.is_empty() {
                    return Err(error(
                        "polygon_sub_topic",
                        format!(
                            "zone {name} has neither {what} nor polygon_sub_topic: set \
                             {name}.{what} or {name}.polygon_sub_topic"
                        ),
                    ));
                }
            }
            ZoneShape::Velocity { shapes, .. } => {
                for shape in shapes {
                    let ranges = [
                        ("linear", shape.linear_min, shape.linear_max),
                        ("theta", shape.theta_min, shape.theta_max),
                    ];
                    for (what, min, max) in ranges {
                        if min > max {
                            return Err(error(
                                &format!("{}.{what}_min", shape.name),
                                format!(
                                    "{min} is above {name}.{}.{what}_max ({max}): no command \
                                     would be in range",
                                    shape.name
                                ),
                            ));
                        }
                    }
                }
            }
            ZoneShape::Polygon(_) | ZoneShape::Circle(_) => {}
        }
        if zone.sources_names.is_empty() {
            return Ok((0..self.sources.len()).collect());
        }
        zone.sources_names
            .iter()
            .map(|source| {
                self.sources
                    .iter()
                    .position(|s| &s.name == source)
                    .ok_or_else(|| {
                        error(
                            "sources_names",
                            format!(
                                "{} is not in observation_sources ([{}])",
                                crate::text::escape_for_log(source, crate::text::LOG_ID_CHARS),
                                self.observation_sources.join(", ")
                            ),
                        )
                    })
            })
            .collect()
    }

    /// The zone `name` of `polygons` with its shape read from `values`:
    /// `type` and `action_type` (required), then `points` (polygon),
    /// `radius` (circle) or `holonomic`, `velocity_polygons` (required)
    /// and each velocity shape's parameters (velocity_polygon); its other
    /// parameters at their defaults.
    fn zone_with_shape(&self, name: &str, values: Given<'_>) -> Result<ZoneConfig, ConfigError> {
        if self.observation_sources.iter().any(|source| source == name) {
            return Err(ConfigError {
                parameter: "polygons".to_owned(),
                message: format!(
                    "zone {name} has the name of a source in observation_sources: \
                     {name}.enabled and the like would be both's"
                ),
            });
        }
        let subject = format!("zone {name} (in polygons)");
        let mut zone = ZoneConfig::new(
            name,
            ZoneShape::Dynamic { circle: false },
            Action::DoNothing,
            self.sources.len(),
        );
        for param in ZONE_PARAMS {
            let suffix = param.spec.name;
            if !SHAPE_SUFFIXES.contains(&suffix) || !(param.applies)(&zone) {
                continue;
            }
            let key = format!("{name}.{suffix}");
            match given(values, &key) {
                Some(value) => set_zone_value(&mut zone, &key, param, value)?,
                None if param.default == ZoneDefault::Required => {
                    return Err(ConfigError {
                        message: missing_param(&subject, name, suffix, values),
                        parameter: key,
                    })
                }
                None => {}
            }
        }
        if let ZoneShape::Velocity { holonomic, shapes } = &mut zone.shape {
            for shape in shapes.iter_mut() {
                let prefix = format!("{name}.{}", shape.name);
                let subject = format!("velocity shape {} of zone {name}", shape.name);
                for param in VELOCITY_SHAPE_PARAMS {
                    if param.holonomic_only && !*holonomic {
                        continue;
                    }
                    let key = format!("{prefix}.{}", param.spec.name);
                    match given(values, &key) {
                        Some(value) => param.spec.set_as(&key, shape, value)?,
                        None if param.default == ZoneDefault::Required => {
                            return Err(ConfigError {
                                message: missing_param(&subject, &prefix, param.spec.name, values),
                                parameter: key,
                            })
                        }
                        None => {}
                    }
                }
            }
        }
        for param in ZONE_PARAMS {
            if param.default == ZoneDefault::Table
                && !SHAPE_SUFFIXES.contains(&param.spec.name)
                && (param.applies)(&zone)
            {
                param.spec.reset(&mut zone);
            }
        }
        Ok(zone)
    }

    /// `<source>.<suffix>` as the index of a source in
    /// [`sources`](Self::sources) and a parameter that applies to its type.
    fn source_key(&self, name: &str) -> Option<(usize, &'static SourceParam)> {
        let (source, suffix) = name.split_once('.')?;
        let index = self.sources.iter().position(|s| s.name == source)?;
        let param = source_param(suffix)?;
        param
            .applies_to(self.sources[index].kind)
            .then_some((index, param))
    }

    /// The source called `name`, if there is one.
    pub fn source(&self, name: &str) -> Option<&SourceConfig> {
        self.sources.iter().find(|s| s.name == name)
    }

    /// `monitor.sources` from [`sources`](Self::sources).
    fn sync_sources(&mut self) {
        self.monitor.sources = self.sources.iter().map(SourceConfig::spec).collect();
    }

    /// Reads the values given at start-up (a params file, `-p`), keyed by
    /// parameter name, and builds the sources and the gate's zones; `Ok`
    /// holds the notes to log (names accepted and ignored, see
    /// [`check_name`](Self::check_name); a zone's deprecated `max_points`;
    /// a zone with no source to check), each once.
    ///
    /// In this order, the first problem stopping it: the node's parameters
    /// (in [`PARAMS`]' order, so `observation_sources` and `source_timeout`
    /// are known before the sources); `base_frame_id` and `base_frame`
    /// given different; each source's `<name>.type` (required); each
    /// zone's name (not a source's), `type` and `action_type` (required)
    /// and shape (`points`, `radius`, `velocity_polygons` and its shapes);
    /// every name given ([`check_name`](Self::check_name): typos); each
    /// source's other parameters (those of its type); a pointcloud's
    /// `min_height` above its `max_height`; each zone's other parameters
    /// (those that apply to it) and the zone as a whole (where a shape
    /// without points comes from, velocity ranges, `sources_names`). A
    /// refused start leaves `self` partly written: it is not to be used.
    pub fn start_up(&mut self, values: Given<'_>) -> Result<Vec<String>, ConfigError> {
        for spec in PARAMS {
            if let Some(value) = given(values, spec.name) {
                spec.set(self, value)?;
            }
        }
        // Where nav2's features are used (zones, or a pointcloud source,
        // whose heights are compared in the robot's frame), nav2's
        // base_frame_id is the monitor's base_frame too, unless that is
        // given, not empty. Elsewhere it changes nothing: a parameters file
        // listing every default (base_frame "" and base_frame_id
        // "base_footprint") keeps the node as it was.
        let nav2 = !self.polygons.is_empty()
            || self.observation_sources.iter().any(|name| {
                matches!(given(values, &format!("{name}.type")),
                    Some(Value::String(kind)) if kind == "pointcloud")
            });
        if let Some(Value::String(base)) = given(values, "base_frame_id") {
            match given(values, "base_frame") {
                _ if !nav2 => {}
                _ if self.monitor.base_frame.is_empty() => self.monitor.base_frame = base.clone(),
                _ if self.monitor.base_frame == *base => {}
                Some(_) | None => {
                    return Err(ConfigError {
                        parameter: "base_frame".to_owned(),
                        message: format!(
                            "\"{}\" is not base_frame_id (\"{}\"): both name the robot's \
                             frame; give one of them, or the same frame",
                            self.monitor.base_frame, base
                        ),
                    })
                }
            }
        }
        let mut sources = Vec::with_capacity(self.observation_sources.len());
        for name in &self.observation_sources {
            let key = format!("{name}.type");
            let Some(value) = given(values, &key) else {
                return Err(ConfigError {
                    message: missing_type(name, values),
                    parameter: key,
                });
            };
            // Its kind is the one given, or the error below.
            let mut source = SourceConfig::new(name, SourceKind::Scan, self);
            if let Some(kind) = source_param("type") {
                kind.spec.set_as(&key, &mut source, value)?;
            }
            sources.push(source);
        }
        self.sources = sources;
        self.gate.zones = self
            .polygons
            .iter()
            .map(|name| self.zone_with_shape(name, values))
            .collect::<Result<_, _>>()?;
        let mut notes = Vec::new();
        for (name, value) in values {
            if let Some(note) = self.check_name(name, value, values)? {
                // One note for all of an unlisted zone's parameters.
                if !notes.contains(&note) {
                    notes.push(note);
                }
            }
        }
        for index in 0..self.sources.len() {
            let kind = self.sources[index].kind;
            for param in SOURCE_PARAMS.iter().filter(|p| p.applies_to(kind)) {
                let key = format!("{}.{}", self.sources[index].name, param.spec.name);
                if let Some(value) = given(values, &key) {
                    param.spec.set_as(&key, &mut self.sources[index], value)?;
                }
            }
            let source = &self.sources[index];
            if source.kind == SourceKind::PointCloud && source.min_height > source.max_height {
                return Err(ConfigError {
                    parameter: format!("{}.min_height", source.name),
                    message: format!(
                        "{} is above {}.max_height ({}): no point would be kept",
                        source.min_height, source.name, source.max_height
                    ),
                });
            }
            // A cloud's heights are compared in the robot's frame.
            if source.kind == SourceKind::PointCloud && self.monitor.base_frame.is_empty() {
                return Err(ConfigError {
                    parameter: format!("{}.type", source.name),
                    message: "a pointcloud source needs base_frame: its points' heights are \
                              compared in the robot's frame (nav2's base_frame_id)"
                        .to_owned(),
                });
            }
        }
        for index in 0..self.gate.zones.len() {
            let mut zone = self.gate.zones[index].clone();
            for param in ZONE_PARAMS {
                let suffix = param.spec.name;
                if SHAPE_SUFFIXES.contains(&suffix) || !(param.applies)(&zone) {
                    continue;
                }
                let key = format!("{}.{suffix}", zone.name);
                if let Some(value) = given(values, &key) {
                    set_zone_value(&mut zone, &key, param, value)?;
                }
            }
            if given(values, &format!("{}.max_points", zone.name)).is_some() {
                notes.push(format!(
                    "{0}.max_points is deprecated (nav2): {0}.min_points = max_points + 1 = {1}; \
                     use min_points",
                    zone.name, zone.min_points
                ));
            }
            zone.sources = self.check_zone(&zone)?;
            if zone.sources.is_empty() {
                notes.push(format!(
                    "zone {} is checked against no source (observation_sources is empty): it \
                     never triggers",
                    zone.name
                ));
            }
            self.gate.zones[index] = zone;
        }
        self.sync_sources();
        Ok(notes)
    }

    /// Checks a parameter name given at start-up among all those `given`
    /// (its value only where [`check_other`](Self::check_other) does):
    /// `Ok(None)` for a parameter of the node, of one of
    /// [`sources`](Self::sources) or of one of the gate's zones, or a
    /// standard ROS name; `Ok(Some(note))` for a name accepted and ignored,
    /// the note saying so: one of [`NAV2_ONLY_PARAMS`]; a source parameter
    /// that does not apply to the source's type (`<scan>.min_height`), one
    /// of [`NAV2_ONLY_SOURCE_PARAMS`], or a source parameter of a name not
    /// in `observation_sources` and not a few edits from one (nav2's
    /// example file configures a `pointcloud` source it does not list); a
    /// zone parameter that does not apply to the zone (`slowdown_ratio` of
    /// a stop zone), one of [`NAV2_ONLY_ZONE_PARAMS`], a velocity shape not
    /// in its zone's `velocity_polygons`, or any zone parameter of a name
    /// not in `polygons` (one note per zone: nav2's example file defines
    /// zones it does not list). A name is an unlisted zone's when one of
    /// its names in `given` can only be a zone's (`<name>.action_type`,
    /// `<name>.<shape>.points`, a `circle` or `velocity_polygon` type).
    /// Anything else is an error suggesting the closest name:
    /// `scan.min_heigth`, `scna.topic`, `PolygonStop.slowdown_rato`,
    /// `paddng`.
    pub fn check_name(
        &self,
        name: &str,
        value: &Value,
        given: Given<'_>,
    ) -> Result<Option<String>, ConfigError> {
        if param(name).is_some() || self.source_key(name).is_some() || self.zone_key(name).is_some()
        {
            return Ok(None);
        }
        if let Some((_, why)) = NAV2_ONLY_PARAMS.iter().find(|(n, _)| *n == name) {
            return Ok(Some(format!("{name} ignored: {why}")));
        }
        let Some((prefix, suffix)) = name
            .split_once('.')
            .filter(|_| !name.starts_with("qos_overrides."))
        else {
            return Self::check_other(name, value).map(|()| None);
        };
        if let Some(zone) = self.zone(prefix) {
            return check_zone_name(name, zone, suffix);
        }
        if self.source(prefix).is_none() && unlisted_zone(prefix, given) {
            return check_unlisted_zone_name(name, prefix, suffix);
        }
        let error = |message: String| ConfigError {
            parameter: name.to_owned(),
            message,
        };
        let known_suffix =
            source_param(suffix).is_some() || NAV2_ONLY_SOURCE_PARAMS.contains(&suffix);
        if let Some(source) = self.source(prefix) {
            if let Some(param) = source_param(suffix) {
                let kinds: Vec<&str> = param.kinds.iter().map(|k| k.as_str()).collect();
                return Ok(Some(format!(
                    "{name} ignored: {suffix} applies to {} sources, {prefix} is a {} source",
                    kinds.join(" and "),
                    source.kind
                )));
            }
            if known_suffix {
                return Ok(Some(format!(
                    "{name} ignored: nav2 reads it, this node does not"
                )));
            }
            let hint = closest(suffix, source_suffixes())
                .map(|s| format!(" (did you mean `{prefix}.{s}`?)"))
                .unwrap_or_default();
            let own: Vec<&str> = SOURCE_PARAMS
                .iter()
                .filter(|p| p.applies_to(source.kind))
                .map(|p| p.spec.name)
                .collect();
            return Err(error(format!(
                "unknown parameter of source {prefix}{hint}; a {} source's parameters are: {}",
                source.kind,
                own.join(", ")
            )));
        }
        let near = closest(prefix, self.sources.iter().map(|s| s.name.as_str()));
        if let Some(near) = near {
            let suffix_hint = if known_suffix {
                Some(suffix)
            } else {
                closest(suffix, source_suffixes())
            };
            let hint = match suffix_hint {
                Some(s) => format!("did you mean `{near}.{s}`?"),
                None => format!("did you mean source `{near}`?"),
            };
            return Err(error(format!(
                "unknown parameter: {prefix} is not in observation_sources ({hint})"
            )));
        }
        if known_suffix {
            return Ok(Some(format!(
                "{name} ignored: {prefix} is not in observation_sources"
            )));
        }
        Self::check_other(name, value).map(|()| None)
    }

    /// Checks a parameter name that is not in [`PARAMS`]: the standard ROS
    /// names every node accepts pass, anything else (a typo such as
    /// `paddng`) is an error that suggests the closest name. `use_sim_time`
    /// must be a bool. Source parameters: [`check_name`](Self::check_name).
    pub fn check_other(name: &str, value: &Value) -> Result<(), ConfigError> {
        let error = |message: String| ConfigError {
            parameter: name.to_owned(),
            message,
        };
        if name == "use_sim_time" {
            return match value {
                Value::Bool(_) => Ok(()),
                other => Err(error(format!("expected a bool, got {}", other.type_name()))),
            };
        }
        if Self::STANDARD.contains(&name) || name.starts_with("qos_overrides.") {
            return Ok(());
        }
        let hint = closest_name(name)
            .map(|n| format!(" (did you mean `{n}`?)"))
            .unwrap_or_default();
        let names: Vec<&str> = PARAMS.iter().map(|spec| spec.name).collect();
        Err(error(format!(
            "unknown parameter{hint}; the parameters are: {}",
            names.join(", ")
        )))
    }

    /// Parameter names that any ROS 2 node accepts besides its own.
    pub const STANDARD: [&'static str; 2] = ["use_sim_time", "start_type_description_service"];

    /// The robot-frame footprint for planner queries: `robot_footprint`,
    /// else a circle of `robot_radius`, else none.
    pub fn robot_shape(&self) -> Option<Result<Shape, FootprintTextError>> {
        if !self.robot_footprint.trim().is_empty() {
            return Some(
                footprint_points(&self.robot_footprint)
                    .and_then(|points| Ok(Shape::polygon(&points)?)),
            );
        }
        (self.robot_radius > 0.0).then(|| {
            Shape::circle(Point::origin(), self.robot_radius).map_err(FootprintTextError::Shape)
        })
    }

    /// The robot's shape when the node places the footprint itself from
    /// TF: `base_frame` and a robot shape are both set.
    pub fn footprint_from_tf(&self) -> Option<Shape> {
        if self.monitor.base_frame.is_empty() {
            return None;
        }
        self.robot_shape().and_then(Result::ok)
    }
}

/// [`NodeConfig::check_name`] for `<zone>.<rest>` of the zone `zone` (in
/// `polygons`), where `<rest>` is no parameter of it.
fn check_zone_name(
    name: &str,
    zone: &ZoneConfig,
    rest: &str,
) -> Result<Option<String>, ConfigError> {
    let z = &zone.name;
    let error = |message: String| ConfigError {
        parameter: name.to_owned(),
        message,
    };
    let Some((shape_name, suffix)) = rest.split_once('.') else {
        if let Some(param) = zone_param(rest) {
            return Ok(Some(format!(
                "{name} ignored: {rest} applies to {}; {z} is {}",
                param.zones,
                describe_zone(zone)
            )));
        }
        if let Some((_, why)) = NAV2_ONLY_ZONE_PARAMS.iter().find(|(n, _)| *n == rest) {
            return Ok(Some(format!("{name} ignored: {why}")));
        }
        let hint = closest(rest, zone_suffixes())
            .map(|s| format!(" (did you mean `{z}.{s}`?)"))
            .unwrap_or_default();
        let own: Vec<&str> = ZONE_PARAMS
            .iter()
            .filter(|p| (p.applies)(zone))
            .map(|p| p.spec.name)
            .collect();
        return Err(error(format!(
            "unknown parameter of zone {z}{hint}; {z}'s parameters are: {}",
            own.join(", ")
        )));
    };
    let known = velocity_shape_param(suffix).is_some();
    let shapes = match &zone.shape {
        ZoneShape::Velocity { shapes, .. } => shapes.as_slice(),
        _ if known => {
            return Ok(Some(format!(
                "{name} ignored: velocity shapes apply to velocity_polygon zones; {z} is {}",
                describe_zone(zone)
            )))
        }
        _ => &[],
    };
    let listed = shapes.iter().any(|s| s.name == shape_name);
    if listed && known {
        // Not a key of the zone: a direction angle of a zone that is not
        // holonomic.
        return Ok(Some(format!(
            "{name} ignored: {suffix} applies to holonomic velocity_polygon zones; {z} is not \
             holonomic"
        )));
    }
    if known {
        return Ok(Some(format!(
            "{z}.{shape_name}.* ignored: {shape_name} is not in {z}.velocity_polygons"
        )));
    }
    let hint = closest(suffix, shape_suffixes())
        .map(|s| format!(" (did you mean `{z}.{shape_name}.{s}`?)"))
        .unwrap_or_default();
    let own: Vec<&str> = shape_suffixes().collect();
    Err(error(format!(
        "unknown parameter of zone {z}{hint}; a velocity shape's parameters are: {}",
        own.join(", ")
    )))
}

/// [`NodeConfig::check_name`] for `<prefix>.<rest>` of a zone not in
/// `polygons`: a note for every zone parameter, an error for anything else.
fn check_unlisted_zone_name(
    name: &str,
    prefix: &str,
    rest: &str,
) -> Result<Option<String>, ConfigError> {
    let hint = match rest.split_once('.') {
        None if zone_suffixes().any(|s| s == rest) => None,
        None => Some(
            closest(rest, zone_suffixes())
                .map(|s| format!(" (did you mean `{prefix}.{s}`?)"))
                .unwrap_or_default(),
        ),
        Some((_, suffix)) if velocity_shape_param(suffix).is_some() => None,
        Some((shape, suffix)) => Some(
            closest(suffix, shape_suffixes())
                .map(|s| format!(" (did you mean `{prefix}.{shape}.{s}`?)"))
                .unwrap_or_default(),
        ),
    };
    match hint {
        None => Ok(Some(format!(
            "{prefix}.* ignored: {prefix} is not in polygons"
        ))),
        Some(hint) => Err(ConfigError {
            parameter: name.to_owned(),
            message: format!("unknown parameter of zone {prefix} (not in polygons){hint}"),
        }),
    }
}

/// Whether `prefix` (in neither `observation_sources` nor `polygons`)
/// names a zone in `given`: one of its names can only be a zone's.
fn unlisted_zone(prefix: &str, given: Given<'_>) -> bool {
    let source_suffix = |s: &str| source_suffixes().any(|known| known == s);
    given.iter().any(|(key, value)| {
        let Some(rest) = key.strip_prefix(prefix).and_then(|r| r.strip_prefix('.')) else {
            return false;
        };
        match rest.split_once('.') {
            // `<zone>.<shape>.<suffix>`: sources have no such names.
            Some(_) => true,
            None if rest == "type" => {
                matches!(value, Value::String(t) if t == "circle" || t == "velocity_polygon")
            }
            None => zone_suffixes().any(|s| s == rest) && !source_suffix(rest),
        }
    })
}

/// A zone in words, for a note: `a polygon zone with points, action_type
/// stop`.
fn describe_zone(zone: &ZoneConfig) -> String {
    let shape = match &zone.shape {
        ZoneShape::Polygon(_) => "a polygon zone with points",
        ZoneShape::Dynamic { circle: false } => "a polygon zone without points",
        ZoneShape::Circle(_) => "a circle zone with a radius",
        ZoneShape::Dynamic { circle: true } => "a circle zone without a radius",
        ZoneShape::Velocity {
            holonomic: true, ..
        } => "a holonomic velocity_polygon zone",
        ZoneShape::Velocity { .. } => "a velocity_polygon zone",
    };
    format!("{shape}, action_type {}", zone.action.as_str())
}

/// Every suffix a zone parameter may have: [`ZONE_PARAMS`], then
/// [`NAV2_ONLY_ZONE_PARAMS`].
fn zone_suffixes() -> impl Iterator<Item = &'static str> {
    ZONE_PARAMS
        .iter()
        .map(|p| p.spec.name)
        .chain(NAV2_ONLY_ZONE_PARAMS.iter().map(|(name, _)| *name))
}

/// Every suffix a velocity shape parameter has.
fn shape_suffixes() -> impl Iterator<Item = &'static str> {
    VELOCITY_SHAPE_PARAMS.iter().map(|p| p.spec.name)
}

/// The message for `<prefix>.<suffix>` (required) not given, `subject`
/// (`zone PolygonStop (in polygons)`) saying whose it is, pointing at a
/// given `<prefix>.<x>` a few edits from `suffix` (`PolygonStop.action_typ`).
fn missing_param(subject: &str, prefix: &str, suffix: &str, values: Given<'_>) -> String {
    // A name of the table itself (`linear_max` for `linear_min`) is no typo.
    let typo = values
        .iter()
        .filter_map(|(key, _)| key.strip_prefix(prefix)?.strip_prefix('.'))
        .filter(|given| !zone_suffixes().chain(shape_suffixes()).any(|s| s == *given))
        .find(|given| strsim::levenshtein(given, suffix) <= 2);
    let hint = typo
        .map(|given| format!(" (`{prefix}.{given}` is given: did you mean `{prefix}.{suffix}`?)"))
        .unwrap_or_default();
    let values = match suffix {
        "type" => " to polygon, circle or velocity_polygon",
        "action_type" => " to stop, slowdown, limit, approach or none",
        _ => "",
    };
    format!("{subject} has no {suffix}: set {prefix}.{suffix}{values}{hint}")
}

/// The message for source `name` given without `<name>.type`, pointing at
/// a given `<name>.<x>` a few edits from `type` (`scan.tpye`).
fn missing_type(name: &str, values: Given<'_>) -> String {
    let typo = values
        .iter()
        .filter_map(|(key, _)| key.strip_prefix(name)?.strip_prefix('.'))
        .find(|suffix| strsim::levenshtein(suffix, "type") <= 2);
    let hint = typo
        .map(|suffix| format!(" (`{name}.{suffix}` is given: a typo?)"))
        .unwrap_or_default();
    format!(
        "source {name} (in observation_sources) has no type: set {name}.type to scan, \
         pointcloud, range or polygon{hint}"
    )
}

/// Every suffix a source parameter may have: [`SOURCE_PARAMS`], then
/// [`NAV2_ONLY_SOURCE_PARAMS`].
fn source_suffixes() -> impl Iterator<Item = &'static str> {
    SOURCE_PARAMS
        .iter()
        .map(|p| p.spec.name)
        .chain(NAV2_ONLY_SOURCE_PARAMS)
}

/// Of `candidates`, the one closest to `name` (at most 3 edits away,
/// Levenshtein), if any; of equally close ones, the first.
fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|candidate| (strsim::levenshtein(name, candidate), candidate))
        .filter(|(d, _)| *d <= 3)
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n)
}

/// The parameter name closest to `name` (at most 3 edits away, Levenshtein),
/// if any; of equally close names, the first in [`PARAMS`].
fn closest_name(name: &str) -> Option<&'static str> {
    closest(name, PARAMS.iter().map(|spec| spec.name))
}

/// Parses nav2's footprint string `"[[x, y], [x, y], ...]"` and checks that
/// it is a usable polygon.
pub fn parse_footprint(text: &str) -> Result<Vec<Point>, FootprintTextError> {
    let points = footprint_points(text)?;
    Shape::polygon(&points)?;
    Ok(points)
}

/// The points of nav2's footprint string, not yet validated as a polygon.
fn footprint_points(text: &str) -> Result<Vec<Point>, FootprintTextError> {
    let pairs: Vec<[f64; 2]> =
        serde_yaml::from_str(text).map_err(|e| FootprintTextError::Syntax(e.to_string()))?;
    Ok(pairs.iter().map(|p| Point::new(p[0], p[1])).collect())
}

#[cfg(test)]
mod tests;
