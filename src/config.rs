//! The node's parameters: one table ([`PARAMS`]) with each one's type,
//! default, range, run-time behaviour and description, the checks derived
//! from it, and nav2's footprint string. Pure, so every rule is testable
//! without ROS.

use crate::geometry::{Point, Shape, ShapeError};
use crate::monitor::MonitorConfig;

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
        };
        for spec in PARAMS {
            spec.reset(&mut config);
        }
        config
    }
}

/// The type of a parameter, with its default, its checks and where its
/// value lives in [`NodeConfig`].
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// A double in the closed range `[min, max]`; an integer is taken as a
    /// double (YAML `1` for `1.0`).
    Number {
        /// The value when none is given.
        default: f64,
        /// Smallest value accepted.
        min: f64,
        /// Largest value accepted.
        max: f64,
        /// Reads the value from a [`NodeConfig`].
        get: fn(&NodeConfig) -> f64,
        /// Writes the value into a [`NodeConfig`].
        set: fn(&mut NodeConfig, f64),
    },
    /// A boolean.
    Bool {
        /// The value when none is given.
        default: bool,
        /// Reads the value from a [`NodeConfig`].
        get: fn(&NodeConfig) -> bool,
        /// Writes the value into a [`NodeConfig`].
        set: fn(&mut NodeConfig, bool),
    },
    /// A string; `check` refuses unusable content with a message.
    Text {
        /// The value when none is given.
        default: &'static str,
        /// `Err` with the message a user sees when the text is unusable.
        check: fn(&str) -> Result<(), String>,
        /// Reads the value from a [`NodeConfig`].
        get: fn(&NodeConfig) -> &str,
        /// Writes the value into a [`NodeConfig`].
        set: fn(&mut NodeConfig, String),
    },
}

/// One parameter of the node: see [`PARAMS`].
#[derive(Clone, Copy, Debug)]
pub struct ParamSpec {
    /// The parameter's name.
    pub name: &'static str,
    /// Its type, default, checks and field.
    pub kind: Kind,
    /// Takes effect while the node runs (`set_parameters`); otherwise read
    /// at start-up only, and a run-time change is refused.
    pub runtime: bool,
    /// What `describe_parameters` shows, the range included.
    pub description: &'static str,
}

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
];

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
    /// Any other type (arrays, bytes, not set).
    Other(&'static str),
}

impl Value {
    fn type_name(&self) -> &'static str {
        match self {
            Value::Bool(_) => "bool",
            Value::Integer(_) => "integer",
            Value::Double(_) => "double",
            Value::String(_) => "string",
            Value::Other(name) => name,
        }
    }
}

impl ParamSpec {
    /// The allowed closed range of a number.
    pub fn range(&self) -> Option<(f64, f64)> {
        match self.kind {
            Kind::Number { min, max, .. } => Some((min, max)),
            Kind::Bool { .. } | Kind::Text { .. } => None,
        }
    }

    /// The default, as a [`Value`].
    pub fn default_value(&self) -> Value {
        match self.kind {
            Kind::Number { default, .. } => Value::Double(default),
            Kind::Bool { default, .. } => Value::Bool(default),
            Kind::Text { default, .. } => Value::String(default.to_owned()),
        }
    }

    /// The value in `config`.
    pub fn get(&self, config: &NodeConfig) -> Value {
        match self.kind {
            Kind::Number { get, .. } => Value::Double(get(config)),
            Kind::Bool { get, .. } => Value::Bool(get(config)),
            Kind::Text { get, .. } => Value::String(get(config).to_owned()),
        }
    }

    /// Writes `value` into `config` after checking its type and range (or
    /// content); a refused value leaves `config` as it was.
    pub fn set(&self, config: &mut NodeConfig, value: &Value) -> Result<(), ConfigError> {
        let error = |message: String| ConfigError {
            parameter: self.name.to_owned(),
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
        }
        Ok(())
    }

    /// Puts the default into `config`.
    fn reset(&self, config: &mut NodeConfig) {
        match self.kind {
            Kind::Number { default, set, .. } => set(config, default),
            Kind::Bool { default, set, .. } => set(config, default),
            Kind::Text { default, set, .. } => set(config, default.to_owned()),
        }
    }
}

impl NodeConfig {
    /// Sets one parameter, checking type and range. Integers are accepted
    /// for doubles (YAML `1` for `1.0`). An unknown name is an error.
    pub fn set(&mut self, name: &str, value: &Value) -> Result<(), ConfigError> {
        match param(name) {
            Some(spec) => spec.set(self, value),
            None => Err(ConfigError {
                parameter: name.to_owned(),
                message: "no such parameter".to_owned(),
            }),
        }
    }

    /// The value of one parameter; `None` for an unknown name.
    pub fn get(&self, name: &str) -> Option<Value> {
        param(name).map(|spec| spec.get(self))
    }

    /// Checks a parameter name that is not in [`PARAMS`]: the standard ROS
    /// names every node accepts pass, anything else (a typo such as
    /// `paddng`) is an error that suggests the closest name. `use_sim_time`
    /// must be a bool.
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

/// The parameter name closest to `name` (at most 3 edits away, Levenshtein),
/// if any; of equally close names, the first in [`PARAMS`].
fn closest_name(name: &str) -> Option<&'static str> {
    PARAMS
        .iter()
        .map(|spec| (strsim::levenshtein(name, spec.name), spec.name))
        .filter(|(d, _)| *d <= 3)
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n)
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
