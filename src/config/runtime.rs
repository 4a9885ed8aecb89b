//! The run-time rules: one parameter set ([`NodeConfig::set`]), read
//! ([`NodeConfig::get`]) and whether it may change at run time
//! ([`NodeConfig::runtime`]), by name across the tables: the node's, a
//! source's `<source>.<suffix>`, a zone's `<zone>.<suffix>` and
//! `<zone>.<shape>.<suffix>`, and a zone checked as a whole.

use super::exclusion::{exclusion_param, ExclusionParam};
use super::node::param;
use super::settings::ExclusionZoneConfig;
use super::settings::{NodeConfig, SourceConfig};
use super::sources::{source_param, SourceParam};
use super::spec::{ConfigError, Value};
use super::zones::{
    footprint_zone, velocity_shape_param, zone_param, VelocityShapeParam, ZoneParam,
};
use crate::gate::{ZoneConfig, ZoneShape};

/// A zone's parameter, by index into `gate.zones`: `<zone>.<suffix>`, or
/// `<zone>.<shape>.<suffix>` of one of its velocity shapes (by index).
#[derive(Clone, Copy, Debug)]
pub(super) enum ZoneKey {
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
pub(super) fn set_zone_value(
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
        if let Some(key) = self.exclusion_key(name) {
            return self.set_exclusion(name, key, value);
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
        if let Some((index, param)) = self.exclusion_key(name) {
            return Some(param.spec.get(&self.exclusion_zones[index]));
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
        if let Some((_, param)) = self.exclusion_key(name) {
            return Some(param.spec.runtime);
        }
        self.zone_key(name).map(ZoneKey::runtime)
    }

    /// `<zone>.<suffix>` (a parameter that applies to the zone) or
    /// `<zone>.<shape>.<suffix>` (of a shape in a velocity zone's
    /// `velocity_polygons`; the direction angles only when `holonomic`).
    pub(super) fn zone_key(&self, name: &str) -> Option<ZoneKey> {
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
    pub(super) fn check_zone(&self, zone: &ZoneConfig) -> Result<Vec<usize>, ConfigError> {
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

    /// `<source>.<suffix>` as the index of a source in
    /// [`sources`](Self::sources) and a parameter that applies to its type.
    pub(super) fn source_key(&self, name: &str) -> Option<(usize, &'static SourceParam)> {
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
    pub(super) fn sync_sources(&mut self) {
        self.monitor.sources = self.sources.iter().map(SourceConfig::spec).collect();
    }
}

impl NodeConfig {
    /// The exclusion zone called `name` (named by a source), if there is
    /// one.
    pub fn exclusion_zone(&self, name: &str) -> Option<&ExclusionZoneConfig> {
        self.exclusion_zones.iter().find(|z| z.name == name)
    }

    /// `<zone>.<suffix>` of an exclusion zone, as its index in
    /// [`exclusion_zones`](Self::exclusion_zones) and a parameter that
    /// applies to it.
    pub(super) fn exclusion_key(&self, name: &str) -> Option<(usize, &'static ExclusionParam)> {
        let (zone, suffix) = name.split_once('.')?;
        let index = self.exclusion_zones.iter().position(|z| z.name == zone)?;
        let param = exclusion_param(suffix)?;
        (param.applies)(&self.exclusion_zones[index]).then_some((index, param))
    }

    /// Sets `<zone>.<suffix>` of an exclusion zone (`key` from
    /// [`exclusion_key`](Self::exclusion_key)) on a copy, checked with the
    /// zone as a whole: a refused value leaves the zone as it was.
    pub(super) fn set_exclusion(
        &mut self,
        name: &str,
        (index, param): (usize, &'static ExclusionParam),
        value: &Value,
    ) -> Result<(), ConfigError> {
        let mut zone = self.exclusion_zones[index].clone();
        param.spec.set_as(name, &mut zone, value)?;
        zone.check()?;
        self.exclusion_zones[index] = zone;
        Ok(())
    }
}
