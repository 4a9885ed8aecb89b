//! The node's parameters: one table ([`PARAMS`]) with each one's type,
//! default, range, run-time behaviour and description, the checks derived
//! from it, and nav2's footprint string; the sensor sources' parameters
//! (`<name>.<suffix>`, [`SOURCE_PARAMS`]) and the velocity gate's zones'
//! (`<zone>.<suffix>`, [`ZONE_PARAMS`]; `<zone>.<shape>.<suffix>`,
//! [`VELOCITY_SHAPE_PARAMS`]) with the same machinery, so that nav2's
//! collision monitor parameters start the node unchanged. Pure, so every
//! rule is testable without ROS.
//!
//! Laid out by table (private children, their public items re-exported
//! here): the shared machinery (`spec`: [`ParamSpec`], [`Kind`], [`Value`]),
//! what the tables write (`settings`: [`NodeConfig`], [`SourceConfig`]),
//! the node's table (`node`: [`PARAMS`]), the sources' (`sources`), the
//! zones' (`zones`), nav2's footprint string (`footprint`) and a parameters
//! file read as rcl reads it (`rcl_yaml`: [`parameters_of`]). The rules
//! over all of them, [`NodeConfig::start_up`] and [`NodeConfig::set`]
//! among them, are here.

use crate::gate::{Action, ZoneConfig, ZoneShape};
use crate::geometry::{Point, Shape};
use crate::monitor::SourceKind;
use footprint::footprint_points;
use zones::{footprint_zone, SHAPE_SUFFIXES};

mod footprint;
mod node;
mod rcl_yaml;
mod settings;
mod sources;
mod spec;
mod zones;

pub use footprint::{parse_footprint, FootprintTextError};
pub use node::{param, NAV2_ONLY_PARAMS, PARAMS};
pub use rcl_yaml::{parameters_of, RclYamlError};
pub use settings::{InputReliability, NodeConfig, SourceConfig, VelocityType};
pub use sources::{source_param, SourceParam, NAV2_ONLY_SOURCE_PARAMS, SOURCE_PARAMS};
pub use spec::{
    ConfigError, Kind, ParamSpec, Value, MAX_SOURCES, MAX_SOURCE_NAME_BYTES, MAX_VELOCITY_SHAPES,
    MAX_ZONES,
};
pub use zones::{
    parse_zone_points, velocity_shape_param, zone_param, VelocityShapeParam, ZoneDefault,
    ZoneParam, NAV2_ONLY_ZONE_PARAMS, VELOCITY_SHAPE_PARAMS, ZONE_PARAMS,
};

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

#[cfg(test)]
mod tests;
