//! The node's settings: defaults, allowed ranges, and nav2's footprint
//! string. Pure, so every rule is testable without ROS.

use crate::geometry::{Point, Shape, ShapeError};
use crate::monitor::MonitorConfig;
use std::fmt;

/// Every parameter of `sat_collision_node`, with its default.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeConfig {
    /// Seconds without a footprint before it is stale; 0 = never stale.
    pub footprint_timeout: f64,
    /// Seconds without an obstacle array before it is stale, and lifetime of
    /// each obstacle instance; 0 = never.
    pub obstacles_timeout: f64,
    /// Report a collision whenever the report is not valid.
    pub fail_safe: bool,
    /// Metres by which the footprint is inflated.
    pub padding: f64,
    /// Hz at which the report is re-published when nothing changes.
    pub publish_rate: f64,
    /// Upper bound (Hz) on marker publication; 0 disables markers.
    pub markers_rate: f64,
    /// YAML file of static keep-out zones; empty = none.
    pub zones_file: String,
    /// Robot-frame footprint for the `check_footprint` service, nav2 form
    /// `"[[x, y], ...]"`; empty = use `robot_radius`.
    pub robot_footprint: String,
    /// Radius (m) of a round robot for the service, when no
    /// `robot_footprint` is given; 0 = none.
    pub robot_radius: f64,
    /// Metres from the footprint beyond which per-obstacle results may be a
    /// flagged lower bound instead of exact (the flag, `min_distance` and
    /// the nearest obstacle are always exact); what keeps a report over
    /// thousands of obstacles cheap.
    pub exact_range: f64,
    /// Most pose × obstacle pairs one `check_footprint` request may ask
    /// for; a larger request is refused (`request_too_large`).
    pub max_service_checks: f64,
}

impl Default for NodeConfig {
    fn default() -> Self {
        NodeConfig {
            footprint_timeout: 1.0,
            obstacles_timeout: 1.0,
            fail_safe: true,
            padding: 0.0,
            publish_rate: 10.0,
            markers_rate: 10.0,
            zones_file: String::new(),
            robot_footprint: String::new(),
            robot_radius: 0.0,
            exact_range: 5.0,
            max_service_checks: 10_000_000.0,
        }
    }
}

/// Allowed closed range of each numeric parameter.
pub const RANGES: &[(&str, f64, f64)] = &[
    ("footprint_timeout", 0.0, 3600.0),
    ("obstacles_timeout", 0.0, 3600.0),
    ("padding", 0.0, 5.0),
    ("publish_rate", 0.1, 1000.0),
    ("markers_rate", 0.0, 100.0),
    ("robot_radius", 0.0, 10.0),
    ("exact_range", 0.0, 1e6),
    ("max_service_checks", 1.0, 1e12),
];

/// A parameter that cannot be used, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigError {
    pub parameter: String,
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "parameter `{}`: {}", self.parameter, self.message)
    }
}

impl std::error::Error for ConfigError {}

/// A value that arrived for a parameter, from a file or a `set_parameters`.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Bool(bool),
    Integer(i64),
    Double(f64),
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

fn range_of(name: &str) -> Option<(f64, f64)> {
    RANGES
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|&(_, lo, hi)| (lo, hi))
}

impl NodeConfig {
    /// Names of every parameter.
    pub const NAMES: [&'static str; 11] = [
        "footprint_timeout",
        "obstacles_timeout",
        "fail_safe",
        "padding",
        "publish_rate",
        "markers_rate",
        "zones_file",
        "robot_footprint",
        "robot_radius",
        "exact_range",
        "max_service_checks",
    ];

    /// Parameters that take effect while the node runs; the rest are read
    /// at start-up only.
    pub const RUNTIME: [&'static str; 6] = [
        "footprint_timeout",
        "obstacles_timeout",
        "fail_safe",
        "padding",
        "exact_range",
        "max_service_checks",
    ];

    /// Sets one parameter, checking type and range. Integers are accepted
    /// for doubles (YAML `1` for `1.0`).
    pub fn set(&mut self, name: &str, value: &Value) -> Result<(), ConfigError> {
        let error = |message: String| ConfigError {
            parameter: name.to_owned(),
            message,
        };
        let wrong_type =
            |expected: &str| error(format!("expected {expected}, got {}", value.type_name()));
        if let Some((lo, hi)) = range_of(name) {
            let x = match value {
                Value::Double(x) => *x,
                Value::Integer(i) => *i as f64,
                _ => return Err(wrong_type(&format!("a number in [{lo}, {hi}]"))),
            };
            if !(x.is_finite() && (lo..=hi).contains(&x)) {
                return Err(error(format!(
                    "{x} is outside the allowed range [{lo}, {hi}]"
                )));
            }
            let slot = match name {
                "footprint_timeout" => &mut self.footprint_timeout,
                "obstacles_timeout" => &mut self.obstacles_timeout,
                "padding" => &mut self.padding,
                "publish_rate" => &mut self.publish_rate,
                "markers_rate" => &mut self.markers_rate,
                "exact_range" => &mut self.exact_range,
                "max_service_checks" => &mut self.max_service_checks,
                "robot_radius" => &mut self.robot_radius,
                _ => return Err(error("no such parameter".to_owned())),
            };
            *slot = x;
            return Ok(());
        }
        match (name, value) {
            ("fail_safe", Value::Bool(b)) => self.fail_safe = *b,
            ("fail_safe", _) => return Err(wrong_type("a bool")),
            ("zones_file", Value::String(s)) => self.zones_file = s.clone(),
            ("robot_footprint", Value::String(s)) => {
                if !s.trim().is_empty() {
                    parse_footprint(s).map_err(error)?;
                }
                self.robot_footprint = s.clone();
            }
            ("zones_file" | "robot_footprint", _) => return Err(wrong_type("a string")),
            _ => return Err(error("no such parameter".to_owned())),
        }
        Ok(())
    }

    /// Checks a parameter name that is not one of [`NodeConfig::NAMES`]:
    /// the standard ROS names every node accepts pass, anything else (a
    /// typo such as `paddng`) is an error that suggests the closest name.
    /// `use_sim_time` must be a bool.
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
        Err(error(format!(
            "unknown parameter{hint}; the parameters are: {}",
            Self::NAMES.join(", ")
        )))
    }

    /// Parameter names that any ROS 2 node accepts besides its own.
    pub const STANDARD: [&'static str; 2] = ["use_sim_time", "start_type_description_service"];

    pub fn monitor(&self) -> MonitorConfig {
        MonitorConfig {
            footprint_timeout: self.footprint_timeout,
            obstacles_timeout: self.obstacles_timeout,
            fail_safe: self.fail_safe,
            padding: self.padding,
            exact_range: self.exact_range,
            ..MonitorConfig::default()
        }
    }

    /// The robot-frame footprint for planner queries: `robot_footprint`,
    /// else a circle of `robot_radius`, else none.
    pub fn robot_shape(&self) -> Option<Result<Shape, ShapeError>> {
        if !self.robot_footprint.trim().is_empty() {
            return Some(match parse_footprint(&self.robot_footprint) {
                Ok(points) => Shape::polygon(&points),
                Err(_) => Err(ShapeError::Polygon(
                    crate::geometry::PolygonError::TooFewPoints { distinct: 0 },
                )),
            });
        }
        (self.robot_radius > 0.0).then(|| Shape::circle(Point::origin(), self.robot_radius))
    }
}

/// The parameter name closest to `name` (at most 3 edits away), if any.
fn closest_name(name: &str) -> Option<&'static str> {
    NodeConfig::NAMES
        .iter()
        .map(|n| (edit_distance(name, n), *n))
        .filter(|(d, _)| *d <= 3)
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n)
}

/// Levenshtein distance between two short strings.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

/// Parses nav2's footprint string `"[[x, y], [x, y], ...]"` and checks that
/// it is a usable polygon.
pub fn parse_footprint(text: &str) -> Result<Vec<Point>, String> {
    let pairs: Vec<[f64; 2]> = serde_yaml::from_str(text)
        .map_err(|e| format!("expected \"[[x, y], [x, y], ...]\": {e}"))?;
    let points: Vec<Point> = pairs.iter().map(|p| Point::new(p[0], p[1])).collect();
    Shape::polygon(&points).map_err(|e| format!("not a usable footprint: {e}"))?;
    Ok(points)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_documentation() {
        let c = NodeConfig::default();
        assert_eq!(c.footprint_timeout, 1.0);
        assert_eq!(c.obstacles_timeout, 1.0);
        assert!(c.fail_safe);
        assert_eq!(c.padding, 0.0);
        assert_eq!(c.publish_rate, 10.0);
        assert!(c.robot_shape().is_none());
    }

    #[test]
    fn ranges_and_types_are_enforced() {
        let mut c = NodeConfig::default();
        let e = c.set("padding", &Value::Double(-0.1)).unwrap_err();
        assert_eq!(e.parameter, "padding");
        assert!(e.message.contains("[0, 5]"), "{e}");
        assert!(c.set("publish_rate", &Value::Double(0.0)).is_err());
        assert!(c.set("publish_rate", &Value::Double(f64::NAN)).is_err());
        assert!(c.set("fail_safe", &Value::String("yes".into())).is_err());
        assert!(c.set("padding", &Value::String("0.1".into())).is_err());
        assert!(c.set("bogus", &Value::Bool(true)).is_err());
        c.set("padding", &Value::Integer(1)).unwrap();
        assert_eq!(c.padding, 1.0);
        c.set("fail_safe", &Value::Bool(false)).unwrap();
        assert!(!c.fail_safe);
    }

    #[test]
    fn wrong_type_names_the_range() {
        let mut c = NodeConfig::default();
        let e = c.set("padding", &Value::String("0.1".into())).unwrap_err();
        assert_eq!(e.parameter, "padding");
        assert!(
            e.message.contains("[0, 5]") && e.message.contains("string"),
            "{e}"
        );
    }

    #[test]
    fn unknown_names_are_refused_with_a_suggestion() {
        let e = NodeConfig::check_other("paddng", &Value::Double(0.1)).unwrap_err();
        assert_eq!(e.parameter, "paddng");
        assert!(e.message.contains("did you mean `padding`"), "{e}");
        let e = NodeConfig::check_other("zzzzzzzzzz", &Value::Bool(true)).unwrap_err();
        assert!(!e.message.contains("did you mean"), "{e}");
        assert!(e.message.contains("footprint_timeout"), "{e}");
        assert!(NodeConfig::check_other("use_sim_time", &Value::Bool(true)).is_ok());
        assert!(NodeConfig::check_other("use_sim_time", &Value::String("yes".into())).is_err());
        assert!(
            NodeConfig::check_other("start_type_description_service", &Value::Bool(true)).is_ok()
        );
        assert!(NodeConfig::check_other(
            "qos_overrides./parameter_events.publisher.depth",
            &Value::Integer(5)
        )
        .is_ok());
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
    }

    #[test]
    fn nav2_footprint_string() {
        let p = parse_footprint("[[0.5, 0.3], [-0.5, 0.3], [-0.5, -0.3], [0.5, -0.3]]").unwrap();
        assert_eq!(p.len(), 4);
        assert!(parse_footprint("[[0, 0], [1, 1]]").is_err());
        assert!(parse_footprint("[0.5, 0.3]").is_err());
        let mut c = NodeConfig::default();
        assert!(c
            .set("robot_footprint", &Value::String("[[0,0],[1,0]]".into()))
            .is_err());
        c.set("robot_radius", &Value::Double(0.3)).unwrap();
        assert!(matches!(c.robot_shape(), Some(Ok(Shape::Circle(_)))));
        c.set(
            "robot_footprint",
            &Value::String("[[0.5, 0.3], [-0.5, 0.3], [-0.5, -0.3], [0.5, -0.3]]".into()),
        )
        .unwrap();
        assert!(matches!(c.robot_shape(), Some(Ok(Shape::Convex(_)))));
    }
}
