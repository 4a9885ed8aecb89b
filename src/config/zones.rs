//! The velocity gate's zones' parameters: `<zone>.<suffix>`
//! ([`ZONE_PARAMS`]) and a `velocity_polygon` zone's `<zone>.<shape>.<suffix>`
//! ([`VELOCITY_SHAPE_PARAMS`]), with nav2's points strings.

use super::footprint::footprint_points;
use super::spec::{check_names, check_topic, Kind, ParamSpec, MAX_SOURCES, MAX_VELOCITY_SHAPES};
use crate::gate::{Action, VelocityShape, ZoneConfig, ZoneShape};
use crate::geometry::{Point, Shape};
use std::borrow::Cow;

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
    /// Those zones in words, for the note and `docs/node.md` ("slowdown
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
pub(super) fn footprint_zone(zone: &ZoneConfig) -> bool {
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
pub(super) fn points_text(points: &[Point]) -> String {
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
pub(super) fn velocity_shape(name: &str) -> VelocityShape {
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
/// messages and the run-time rule are [`PARAMS`](super::PARAMS)'s. `type` and
/// `action_type` are required (nav2 stops on them too); the shape is
/// `points` (polygon), `radius` (circle) or `velocity_polygons` with
/// [`VELOCITY_SHAPE_PARAMS`] (velocity_polygon), else it arrives at run
/// time ([`ZoneShape::Dynamic`]). Only `enabled` changes at run time.
/// [`NAV2_ONLY_ZONE_PARAMS`] and a parameter that does not apply to the
/// zone are accepted and ignored with a note ([`NodeConfig::check_name`](super::NodeConfig::check_name)).
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
pub(super) const SHAPE_SUFFIXES: [&str; 6] = [
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
