//! The start-up reading: [`NodeConfig::start_up`] builds the sources and
//! the gate's zones from the values given (a params file, `-p`), with the
//! messages for a required parameter not given.

use super::exclusion::EXCLUSION_ZONE_PARAMS;
use super::names::{shape_suffixes, zone_suffixes, Given};
use super::node::PARAMS;
use super::runtime::set_zone_value;
use super::settings::ExclusionZoneConfig;
use super::settings::{NodeConfig, SourceConfig};
use super::sources::{source_param, SOURCE_PARAMS};
use super::spec::{ConfigError, Value};
use super::zones::{ZoneDefault, SHAPE_SUFFIXES, VELOCITY_SHAPE_PARAMS, ZONE_PARAMS};
use crate::gate::{Action, ZoneConfig, ZoneShape};
use crate::monitor::SourceKind;

fn given<'a>(values: Given<'a>, name: &str) -> Option<&'a Value> {
    values.iter().find(|(n, _)| n == name).map(|(_, v)| v)
}

impl NodeConfig {
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
                    || matches!(given(values, &format!("{name}.exclusion_zones")),
                        Some(Value::StringArray(zones)) if !zones.is_empty())
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
        self.read_exclusion_zones(values)?;
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
         pointcloud, range, polygon, costmap or fleet{hint}"
    )
}

/// The exclusion zone `name` read from `values`: `type` first (what
/// applies depends on it), then each parameter that applies, then the
/// zone as a whole.
fn exclusion_zone_of(name: &str, values: Given<'_>) -> Result<ExclusionZoneConfig, ConfigError> {
    let mut zone = ExclusionZoneConfig::new(name);
    let type_first = EXCLUSION_ZONE_PARAMS
        .iter()
        .filter(|p| p.spec.name == "type")
        .chain(
            EXCLUSION_ZONE_PARAMS
                .iter()
                .filter(|p| p.spec.name != "type"),
        );
    for param in type_first {
        if !(param.applies)(&zone) {
            continue;
        }
        let key = format!("{name}.{}", param.spec.name);
        if let Some(value) = given(values, &key) {
            param.spec.set_as(&key, &mut zone, value)?;
        }
    }
    zone.check()?;
    Ok(zone)
}

impl NodeConfig {
    /// Reads each source's `exclusion_zones` (the sources of a type it
    /// applies to) and every zone they name, once, from the values given
    /// at start-up (`<zone>.<suffix>`: [`EXCLUSION_ZONE_PARAMS`]). A zone
    /// with the name of a source or of a gate zone is refused: their
    /// `<name>.enabled` would be one parameter.
    pub(super) fn read_exclusion_zones(&mut self, values: Given<'_>) -> Result<(), ConfigError> {
        let mut zones: Vec<ExclusionZoneConfig> = Vec::new();
        for index in 0..self.sources.len() {
            let source = &self.sources[index];
            let key = format!("{}.exclusion_zones", source.name);
            let param = source_param("exclusion_zones").filter(|p| p.applies_to(source.kind));
            let (Some(param), Some(value)) = (param, given(values, &key)) else {
                continue;
            };
            param.spec.set_as(&key, &mut self.sources[index], value)?;
            for name in &self.sources[index].exclusion_zones {
                if zones.iter().any(|z| &z.name == name) {
                    continue;
                }
                if self.observation_sources.contains(name) || self.polygons.contains(name) {
                    return Err(ConfigError {
                        parameter: key,
                        message: format!(
                            "exclusion zone {name} has the name of a source or of a zone in \
                             polygons: {name}.enabled and the like would be both's"
                        ),
                    });
                }
                zones.push(exclusion_zone_of(name, values)?);
            }
        }
        // A zone is placed through the robot's frame.
        if !zones.is_empty() && self.monitor.base_frame.is_empty() {
            return Err(ConfigError {
                parameter: "base_frame".to_owned(),
                message: "exclusion zones need base_frame (nav2's base_frame_id): a zone is \
                          placed through the robot's frame and its heights compared there"
                    .to_owned(),
            });
        }
        self.exclusion_zones = zones;
        Ok(())
    }
}
