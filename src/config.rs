//! The node's parameters: one table ([`PARAMS`]) with each one's type,
//! default, range, run-time behaviour and description, the checks derived
//! from it, and nav2's footprint string; the sensor sources' parameters
//! (`<name>.<suffix>`, [`SOURCE_PARAMS`]) with the same machinery. Pure, so
//! every rule is testable without ROS.

use crate::geometry::{Point, Shape, ShapeError};
use crate::monitor::{MonitorConfig, SourceKind, SourceSpec};

/// Most sensor sources in `observation_sources`: each brings a subscription
/// and a group of obstacles, and nav2 configurations have a handful.
pub const MAX_SOURCES: usize = 32;

/// Longest source name in `observation_sources`, in bytes.
pub const MAX_SOURCE_NAME_BYTES: usize = 64;

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
        /// Reads the value from a `C`.
        get: fn(&C) -> &str,
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
        /// Reads the value from a `C`.
        get: fn(&C) -> &[String],
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
            get: |c| &c.zones_file,
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
            get: |c| &c.robot_footprint,
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
            get: |c| &c.monitor.global_frame,
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
            get: |c| &c.monitor.base_frame,
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
        description: "s a transform may be from the time asked (an input's stamp; now, for the latest) before it is stale [0.001, 60]",
    },
    ParamSpec {
        name: "input_reliability",
        kind: Kind::Text {
            default: "best_effort",
            check: |text| InputReliability::parse(text).map(drop),
            get: |c| c.input_reliability.as_str(),
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
            get: |c| &c.velocity_topic,
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
            get: |c| c.velocity_type.as_str(),
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
            check: check_source_names,
            get: |c| &c.observation_sources,
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
                get: |s| s.kind.as_str(),
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
                get: |s| &s.topic,
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

/// `observation_sources`: at most [`MAX_SOURCES`] names, each non-empty,
/// at most [`MAX_SOURCE_NAME_BYTES`] of ASCII letters, digits and `_` (a
/// ROS parameter name's token), none twice.
fn check_source_names(names: &[String]) -> Result<(), String> {
    if names.len() > MAX_SOURCES {
        return Err(format!(
            "{} sources; at most {MAX_SOURCES} are allowed",
            names.len()
        ));
    }
    for (i, name) in names.iter().enumerate() {
        let shown = crate::text::escape_for_log(name, crate::text::LOG_ID_CHARS);
        if name.is_empty() {
            return Err("a source name is empty".to_owned());
        }
        if name.len() > MAX_SOURCE_NAME_BYTES {
            return Err(format!(
                "source name \"{shown}\" is longer than {MAX_SOURCE_NAME_BYTES} bytes"
            ));
        }
        if let Some(c) = name
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || *c == '_'))
        {
            return Err(format!(
                "source name \"{shown}\": {c:?} is not allowed (letters, digits and _)"
            ));
        }
        if names[..i].contains(name) {
            return Err(format!("source \"{shown}\" is listed twice"));
        }
    }
    Ok(())
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
            Kind::Text { get, .. } => Value::String(get(config).to_owned()),
            Kind::TextList { get, .. } => Value::StringArray(get(config).to_vec()),
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

impl NodeConfig {
    /// Sets one parameter, checking type and range: a node parameter, or
    /// `<source>.<suffix>` of one of [`sources`](Self::sources) whose type
    /// it applies to (which keeps `monitor.sources` in step). Integers are
    /// accepted for doubles (YAML `1` for `1.0`). An unknown name is an
    /// error. Whether the change may happen at run time is
    /// [`runtime`](Self::runtime)'s question, not this one's.
    pub fn set(&mut self, name: &str, value: &Value) -> Result<(), ConfigError> {
        if let Some(spec) = param(name) {
            return spec.set(self, value);
        }
        match self.source_key(name) {
            Some((index, param)) => {
                param.spec.set_as(name, &mut self.sources[index], value)?;
                self.sync_sources();
                Ok(())
            }
            None => Err(ConfigError {
                parameter: name.to_owned(),
                message: "no such parameter".to_owned(),
            }),
        }
    }

    /// The value of one parameter (of the node, or `<source>.<suffix>`);
    /// `None` for an unknown name.
    pub fn get(&self, name: &str) -> Option<Value> {
        if let Some(spec) = param(name) {
            return Some(spec.get(self));
        }
        self.source_key(name)
            .map(|(index, param)| param.spec.get(&self.sources[index]))
    }

    /// Whether the parameter `name` may change at run time; `None` for an
    /// unknown name.
    pub fn runtime(&self, name: &str) -> Option<bool> {
        match param(name) {
            Some(spec) => Some(spec.runtime),
            None => self.source_key(name).map(|(_, param)| param.spec.runtime),
        }
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
    /// parameter name, and builds the sources; `Ok` holds the notes to log
    /// (names accepted and ignored, see [`check_name`](Self::check_name)).
    ///
    /// In this order, the first problem stopping it: the node's parameters
    /// (in [`PARAMS`]' order, so `observation_sources` and `source_timeout`
    /// are known before the sources); each source's `<name>.type`
    /// (required); every name given ([`check_name`](Self::check_name):
    /// typos); each source's other parameters (those of its type); a
    /// pointcloud's `min_height` above its `max_height`. A refused start
    /// leaves `self` partly written: it is not to be used.
    pub fn start_up(&mut self, values: Given<'_>) -> Result<Vec<String>, ConfigError> {
        for spec in PARAMS {
            if let Some(value) = given(values, spec.name) {
                spec.set(self, value)?;
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
        let mut notes = Vec::new();
        for (name, value) in values {
            if let Some(note) = self.check_name(name, value)? {
                notes.push(note);
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
        self.sync_sources();
        Ok(notes)
    }

    /// Checks a parameter name given at start-up (its value only where
    /// [`check_other`](Self::check_other) does): `Ok(None)` for a parameter
    /// of the node or of one of [`sources`](Self::sources), or a standard
    /// ROS name; `Ok(Some(note))` for a name accepted and ignored, the note
    /// saying so: a source parameter that does not apply to the source's
    /// type (`<scan>.min_height`), one of [`NAV2_ONLY_SOURCE_PARAMS`], or a
    /// source parameter of a name not in `observation_sources` and not a
    /// few edits from one (nav2's example file configures a `pointcloud`
    /// source it does not list). Anything else is an error suggesting the
    /// closest name: `scan.min_heigth`, `scna.topic`, `paddng`.
    pub fn check_name(&self, name: &str, value: &Value) -> Result<Option<String>, ConfigError> {
        if param(name).is_some() || self.source_key(name).is_some() {
            return Ok(None);
        }
        let Some((prefix, suffix)) = name
            .split_once('.')
            .filter(|_| !name.starts_with("qos_overrides."))
        else {
            return Self::check_other(name, value).map(|()| None);
        };
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
