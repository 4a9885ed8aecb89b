//! The sensor sources' exclusion zones (nav2 main's `exclusion_zone.cpp`):
//! the parameters `<zone>.<suffix>` of each name in a source's
//! `exclusion_zones` ([`EXCLUSION_ZONE_PARAMS`], written into an
//! [`ExclusionZoneConfig`]), and a zone added over a source's
//! `~/<source>/add_exclusion_zone` service
//! ([`ExclusionZoneConfig::from_description`]), checked by the same rules:
//! one table, one whole-zone check ([`ExclusionZoneConfig::check`]).
//!
//! What a zone does with a source's points is the core's
//! (`node::exclusion`); here is only what a zone is.

use super::footprint::footprint_points;
use super::settings::ExclusionZoneConfig;
use super::spec::{check_frame, check_names, ConfigError, Kind, ParamSpec, Value};
use super::zones::points_text;
use crate::geometry::{Point, Shape};
use crate::limits::MAX_EXCLUSION_ZONE_VERTICES;
use std::borrow::Cow;

/// One parameter of every exclusion zone it applies to: `<zone>.<suffix>`.
/// See [`EXCLUSION_ZONE_PARAMS`].
#[derive(Clone, Copy, Debug)]
pub struct ExclusionParam {
    /// The parameter, with the node's rules; its `name` is the suffix after
    /// `<zone>.`.
    pub spec: ParamSpec<ExclusionZoneConfig>,
    /// The zones it applies to (by type); on another zone it is accepted
    /// and ignored with a note, as nav2 does not read it.
    pub applies: fn(&ExclusionZoneConfig) -> bool,
    /// Those zones in words, for the note and `docs/node.md`.
    pub zones: &'static str,
}

/// nav2's `type` of an exclusion zone.
pub(super) fn zone_type(zone: &ExclusionZoneConfig) -> &'static str {
    if zone.circle {
        "circle"
    } else {
        "polygon"
    }
}

fn check_type(text: &str) -> Result<(), String> {
    match text {
        "polygon" | "circle" => Ok(()),
        _ => Err("must be polygon or circle".to_owned()),
    }
}

/// An exclusion zone's polygon: at most [`MAX_EXCLUSION_ZONE_VERTICES`]
/// points, then a usable simple polygon (at least 3 distinct points,
/// finite, not crossing itself: [`Shape::polygon`]'s rules, the gate's
/// zones').
pub fn check_exclusion_polygon(points: &[Point]) -> Result<(), String> {
    if points.len() > MAX_EXCLUSION_ZONE_VERTICES {
        return Err(format!(
            "{} points; an exclusion zone has at most {MAX_EXCLUSION_ZONE_VERTICES}",
            points.len()
        ));
    }
    Shape::polygon(points)
        .map(drop)
        .map_err(|e| format!("not a usable exclusion zone polygon: {e}"))
}

/// `<zone>.points` read: nav2's `"[[x, y], ...]"`, checked by
/// [`check_exclusion_polygon`]; empty: no points (refused by the zone's
/// whole check for a polygon zone). A text with more `[` than the vertex
/// limit allows is refused before it is parsed.
fn parse_points(text: &str) -> Result<Vec<Point>, String> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    // One `[` per point and one around them all.
    let brackets = text.bytes().filter(|b| *b == b'[').count();
    if brackets > MAX_EXCLUSION_ZONE_VERTICES + 1 {
        return Err(format!(
            "{} points or more; an exclusion zone has at most {MAX_EXCLUSION_ZONE_VERTICES}",
            brackets - 1
        ));
    }
    let points = footprint_points(text).map_err(|e| e.to_string())?;
    check_exclusion_polygon(&points)?;
    Ok(points)
}

/// The parameters of an exclusion zone, `<zone>.<suffix>`, with nav2 main's
/// names, types and defaults (`exclusion_zone.cpp`, `getParameters`), in
/// the order they are documented. Run-time changes as nav2 takes them
/// (`enabled`, `radius`, `min_height`, `max_height`,
/// `frame_hold_timeout`, `points`), each checked as at start-up and with
/// the zone as a whole ([`ExclusionZoneConfig::check`]).
pub static EXCLUSION_ZONE_PARAMS: &[ExclusionParam] = &[
    ExclusionParam {
        spec: ParamSpec {
            name: "type",
            kind: Kind::Text {
                default: "polygon",
                check: check_type,
                get: |z| Cow::Borrowed(zone_type(z)),
                set: |z, text| z.circle = text == "circle",
            },
            runtime: false,
            description: "polygon (points) or circle (radius) (start-up only)",
        },
        applies: |_| true,
        zones: "all",
    },
    ExclusionParam {
        spec: ParamSpec {
            name: "points",
            kind: Kind::Text {
                default: "",
                check: |text| parse_points(text).map(drop),
                // None: "", the default (not "[]").
                get: |z| match z.points.is_empty() {
                    true => Cow::Borrowed(""),
                    false => Cow::Owned(points_text(&z.points)),
                },
                // Checked first: `parse_points` cannot fail here.
                set: |z, text| z.points = parse_points(&text).unwrap_or_default(),
            },
            runtime: true,
            description: "required: the zone in frame_id, \"[[x, y], [x, y], ...]\": at least 3 points, at most 256, a simple polygon",
        },
        applies: |z| !z.circle,
        zones: "polygon exclusion zones",
    },
    ExclusionParam {
        spec: ParamSpec {
            name: "radius",
            kind: Kind::Number {
                default: 0.0,
                min: 0.0,
                max: 1000.0,
                get: |z| z.radius,
                set: |z, x| z.radius = x,
            },
            runtime: true,
            description: "required: m, the circle centred on frame_id's origin; more than 0 [0, 1000]",
        },
        applies: |z| z.circle,
        zones: "circle exclusion zones",
    },
    ExclusionParam {
        spec: ParamSpec {
            name: "frame_id",
            kind: Kind::Text {
                default: "",
                check: check_frame,
                get: |z| Cow::Borrowed(&z.frame_id),
                set: |z, text| z.frame_id = text,
            },
            runtime: false,
            description: "the frame the zone is anchored to (its latest transform); empty = base_frame_id (start-up only)",
        },
        applies: |_| true,
        zones: "all",
    },
    ExclusionParam {
        spec: ParamSpec {
            name: "frame_hold_timeout",
            kind: Kind::Number {
                default: 0.0,
                min: 0.0,
                max: 3600.0,
                get: |z| z.frame_hold_timeout,
                set: |z, x| z.frame_hold_timeout = x,
            },
            runtime: true,
            description: "s, how old frame_id's latest transform may be (at least transform_tolerance) before the zone masks nothing [0, 3600]",
        },
        applies: |_| true,
        zones: "all",
    },
    ExclusionParam {
        spec: ParamSpec {
            name: "min_height",
            kind: Kind::Number {
                default: -f64::MAX,
                min: -f64::MAX,
                max: f64::MAX,
                get: |z| z.min_height,
                set: |z, x| z.min_height = x,
            },
            runtime: true,
            description: "m, points lower than this (z in base_frame_id) are not masked [-1.7976931348623157e308, 1.7976931348623157e308]",
        },
        applies: |_| true,
        zones: "all",
    },
    ExclusionParam {
        spec: ParamSpec {
            name: "max_height",
            kind: Kind::Number {
                default: f64::MAX,
                min: -f64::MAX,
                max: f64::MAX,
                get: |z| z.max_height,
                set: |z, x| z.max_height = x,
            },
            runtime: true,
            description: "m, points higher than this (z in base_frame_id) are not masked [-1.7976931348623157e308, 1.7976931348623157e308]",
        },
        applies: |_| true,
        zones: "all",
    },
    ExclusionParam {
        spec: ParamSpec {
            name: "enabled",
            kind: Kind::Bool {
                default: false,
                get: |z| z.enabled,
                set: |z, b| z.enabled = b,
            },
            runtime: true,
            description: "true: the zone masks the source's points inside it (nav2's default: false)",
        },
        applies: |_| true,
        zones: "all",
    },
    ExclusionParam {
        spec: ParamSpec {
            name: "visualize",
            kind: Kind::Bool {
                default: false,
                get: |z| z.visualize,
                set: |z, b| z.visualize = b,
            },
            runtime: false,
            description: "publish the zone as a geometry_msgs/PolygonStamped in base_frame_id on ~/<zone> (start-up only)",
        },
        applies: |_| true,
        zones: "all",
    },
];

/// The exclusion zone parameter with suffix `suffix`, if there is one.
pub fn exclusion_param(suffix: &str) -> Option<&'static ExclusionParam> {
    EXCLUSION_ZONE_PARAMS
        .iter()
        .find(|param| param.spec.name == suffix)
}

/// What a service's `nav2_msgs/ExclusionZoneDescription` says of a zone,
/// but its points (given beside it to
/// [`ExclusionZoneConfig::from_description`]).
#[derive(Clone, Copy, Debug)]
pub struct ExclusionDescription<'a> {
    /// `zone_name`.
    pub name: &'a str,
    /// `type`: `polygon` or `circle`.
    pub kind: &'a str,
    /// `frame_id` (empty: the base frame).
    pub frame_id: &'a str,
    /// `radius` (m, circle).
    pub radius: f64,
    /// `min_height` (m).
    pub min_height: f64,
    /// `max_height` (m).
    pub max_height: f64,
    /// `enabled`.
    pub enabled: bool,
    /// `visualize`.
    pub visualize: bool,
    /// `frame_hold_timeout` (s).
    pub frame_hold_timeout: f64,
}

impl ExclusionZoneConfig {
    /// A zone called `name` with every parameter at its default in
    /// [`EXCLUSION_ZONE_PARAMS`] (a polygon without points, disabled: not
    /// usable until its points are set).
    pub fn new(name: &str) -> Self {
        // Each of these but the name is overwritten by the table just below.
        let mut zone = ExclusionZoneConfig {
            name: name.to_owned(),
            circle: false,
            points: Vec::new(),
            radius: 0.0,
            frame_id: String::new(),
            frame_hold_timeout: 0.0,
            min_height: 0.0,
            max_height: 0.0,
            enabled: false,
            visualize: false,
        };
        for param in EXCLUSION_ZONE_PARAMS {
            param.spec.reset(&mut zone);
        }
        zone
    }

    /// What a zone needs beyond each parameter's own checks: a polygon
    /// zone its points, a circle zone a radius more than 0 (nav2 refuses
    /// both at configure, and a radius of 0 or less at run time).
    pub fn check(&self) -> Result<(), ConfigError> {
        let name = &self.name;
        if self.circle && self.radius <= 0.0 {
            return Err(ConfigError {
                parameter: format!("{name}.radius"),
                message: format!(
                    "circle exclusion zone {name} needs a radius more than 0 (got {})",
                    self.radius
                ),
            });
        }
        if !self.circle && self.points.is_empty() {
            return Err(ConfigError {
                parameter: format!("{name}.points"),
                message: format!(
                    "polygon exclusion zone {name} needs points: \"[[x, y], [x, y], ...]\" \
                     (at least 3)"
                ),
            });
        }
        Ok(())
    }

    /// The zone a service's description gives (`points` its polygon's
    /// vertices, counted before any is read), checked by the parameters'
    /// own rules: the name as a source's (letters, digits and `_`, at most
    /// 64 bytes), each value through its parameter's checks and range
    /// ([`EXCLUSION_ZONE_PARAMS`]), the polygon by
    /// [`check_exclusion_polygon`] (ignored for a circle, as nav2 does),
    /// then [`check`](Self::check). The error names the field.
    pub fn from_description(
        description: &ExclusionDescription<'_>,
        points: impl ExactSizeIterator<Item = Point>,
    ) -> Result<Self, ConfigError> {
        let d = description;
        let name_error = |message: String| ConfigError {
            parameter: "zone_name".to_owned(),
            message,
        };
        if d.name.is_empty() {
            return Err(name_error("the zone needs a name".to_owned()));
        }
        check_names(&[d.name.to_owned()], "exclusion zone", 1).map_err(name_error)?;
        let mut zone = ExclusionZoneConfig::new(d.name);
        let values = [
            ("type", Value::String(d.kind.to_owned())),
            ("frame_id", Value::String(d.frame_id.to_owned())),
            ("frame_hold_timeout", Value::Double(d.frame_hold_timeout)),
            ("min_height", Value::Double(d.min_height)),
            ("max_height", Value::Double(d.max_height)),
            ("enabled", Value::Bool(d.enabled)),
            ("visualize", Value::Bool(d.visualize)),
        ];
        for (suffix, value) in &values {
            if let Some(param) = exclusion_param(suffix) {
                param.spec.set(&mut zone, value)?;
            }
        }
        if zone.circle {
            if let Some(param) = exclusion_param("radius") {
                param.spec.set(&mut zone, &Value::Double(d.radius))?;
            }
        } else {
            let error = |message: String| ConfigError {
                parameter: "points".to_owned(),
                message,
            };
            if points.len() > MAX_EXCLUSION_ZONE_VERTICES {
                return Err(error(format!(
                    "{} points; an exclusion zone has at most {MAX_EXCLUSION_ZONE_VERTICES}",
                    points.len()
                )));
            }
            zone.points = points.collect();
            check_exclusion_polygon(&zone.points).map_err(error)?;
        }
        zone.check()?;
        Ok(zone)
    }
}
