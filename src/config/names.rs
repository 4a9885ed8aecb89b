//! The name checks: a parameter name given at start-up is the node's, a
//! source's or a zone's ([`NodeConfig::check_name`]), a standard ROS name
//! ([`NodeConfig::check_other`]), one accepted and ignored with a note, or
//! an error with a "did you mean" hint (the closest name).

use super::exclusion::{exclusion_param, zone_type, EXCLUSION_ZONE_PARAMS};
use super::node::{param, NAV2_ONLY_PARAMS, PARAMS};
use super::settings::ExclusionZoneConfig;
use super::settings::NodeConfig;
use super::sources::{source_param, NAV2_ONLY_SOURCE_PARAMS, SOURCE_PARAMS};
use super::spec::{ConfigError, Value};
use super::zones::{
    velocity_shape_param, zone_param, NAV2_ONLY_ZONE_PARAMS, VELOCITY_SHAPE_PARAMS, ZONE_PARAMS,
};
use crate::gate::{ZoneConfig, ZoneShape};

/// The values given at start-up, looked up by name.
pub(super) type Given<'a> = &'a [(String, Value)];

impl NodeConfig {
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
        if param(name).is_some()
            || self.source_key(name).is_some()
            || self.zone_key(name).is_some()
            || self.exclusion_key(name).is_some()
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
        if let Some(zone) = self.exclusion_zone(prefix) {
            return check_exclusion_name(name, zone, suffix);
        }
        if self.source(prefix).is_none() && unlisted_exclusion_zone(prefix, given) {
            return Ok(Some(format!(
                "{prefix}.* ignored: {prefix} is in no source's exclusion_zones"
            )));
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
        // An exclusion zone no source names (`min_height`, `frame_id`, ...)
        // looks like an unlisted zone: its names are known too.
        None if zone_suffixes().any(|s| s == rest) || exclusion_param(rest).is_some() => None,
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

/// Whether `prefix` (in neither `observation_sources`, `polygons` nor a
/// source's `exclusion_zones`) names an exclusion zone in `given`: one of
/// its names can only be an exclusion zone's (`frame_id`,
/// `frame_hold_timeout`).
fn unlisted_exclusion_zone(prefix: &str, given: Given<'_>) -> bool {
    given.iter().any(|(key, _)| {
        key.strip_prefix(prefix)
            .and_then(|r| r.strip_prefix('.'))
            .is_some_and(|rest| {
                exclusion_param(rest).is_some()
                    && zone_param(rest).is_none()
                    && source_param(rest).is_none()
            })
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
pub(super) fn zone_suffixes() -> impl Iterator<Item = &'static str> {
    ZONE_PARAMS
        .iter()
        .map(|p| p.spec.name)
        .chain(NAV2_ONLY_ZONE_PARAMS.iter().map(|(name, _)| *name))
}

/// Every suffix a velocity shape parameter has.
pub(super) fn shape_suffixes() -> impl Iterator<Item = &'static str> {
    VELOCITY_SHAPE_PARAMS.iter().map(|p| p.spec.name)
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
pub(super) fn closest_name(name: &str) -> Option<&'static str> {
    closest(name, PARAMS.iter().map(|spec| spec.name))
}

/// [`NodeConfig::check_name`] for `<zone>.<rest>` of the exclusion zone
/// `zone`, where `<rest>` is no parameter of it: a parameter of the other
/// type is ignored with a note (nav2 does not read it), anything else is an
/// error with the closest name.
fn check_exclusion_name(
    name: &str,
    zone: &ExclusionZoneConfig,
    rest: &str,
) -> Result<Option<String>, ConfigError> {
    let z = &zone.name;
    if let Some(param) = exclusion_param(rest) {
        return Ok(Some(format!(
            "{name} ignored: {rest} applies to {}; {z} is a {} exclusion zone",
            param.zones,
            zone_type(zone)
        )));
    }
    let hint = EXCLUSION_ZONE_PARAMS
        .iter()
        .map(|p| (strsim::levenshtein(rest, p.spec.name), p.spec.name))
        .filter(|(d, _)| *d <= 3)
        .min_by_key(|(d, _)| *d)
        .map(|(_, s)| format!(" (did you mean `{z}.{s}`?)"))
        .unwrap_or_default();
    let own: Vec<&str> = EXCLUSION_ZONE_PARAMS
        .iter()
        .filter(|p| (p.applies)(zone))
        .map(|p| p.spec.name)
        .collect();
    Err(ConfigError {
        parameter: name.to_owned(),
        message: format!(
            "unknown parameter of exclusion zone {z}{hint}; its parameters are: {}",
            own.join(", ")
        ),
    })
}
