//! ROS parameters backed by [`NodeConfig`]: values from the command line or
//! a params file are checked at start-up (a bad one stops the node with a
//! message naming it), and `set_parameters` requests are checked the same
//! way and refused for parameters that only apply at start-up. Names,
//! checks, descriptions and which may change at run time all come from
//! [`PARAMS`] and, for each sensor source in `observation_sources`, from
//! [`SOURCE_PARAMS`] (`<name>.<suffix>`), and for each of the gate's zones
//! in `polygons` from [`ZONE_PARAMS`] (`<zone>.<suffix>`, those that apply
//! to it) and [`VELOCITY_SHAPE_PARAMS`] (`<zone>.<shape>.<suffix>`), and for
//! each exclusion zone a source names from [`EXCLUSION_ZONE_PARAMS`].

use crate::config::{
    ConfigError, NodeConfig, Value, EXCLUSION_ZONE_PARAMS, PARAMS, SOURCE_PARAMS,
    VELOCITY_SHAPE_PARAMS, ZONE_PARAMS,
};
use crate::gate::ZoneShape;
use indexmap::IndexMap;
use r2r::{Parameter, ParameterValue, RosParams};

/// The node's parameters, shared with r2r's parameter services, the
/// notes start-up left for the log ([`Params::notes`]), whether the node
/// is configured, and a revision that every change moves
/// ([`Params::revision`]).
#[derive(Clone, Debug, Default)]
pub struct Params(pub NodeConfig, Vec<String>, Configured, u64);

/// Whether the node is configured (lifecycle): while it is not, the
/// start-up parameters may be changed too, and apply at the next
/// configure ([`Params::set_configured`]).
#[derive(Clone, Copy, Debug, Default)]
struct Configured(bool);

/// Start-up parameters that stay fixed even while unconfigured: they shape
/// which parameters exist (`observation_sources`, `polygons`) or are read
/// once when the process starts.
const PROCESS_ONLY: [&str; 4] = [
    "observation_sources",
    "polygons",
    "autostart",
    "bond_heartbeat_period",
];

fn value(v: &ParameterValue) -> Value {
    match v {
        ParameterValue::Bool(b) => Value::Bool(*b),
        ParameterValue::Integer(i) => Value::Integer(*i),
        ParameterValue::Double(d) => Value::Double(*d),
        ParameterValue::String(s) => Value::String(s.clone()),
        ParameterValue::StringArray(list) => Value::StringArray(list.clone()),
        ParameterValue::NotSet => Value::NotSet,
        ParameterValue::BoolArray(_) => Value::Other("bool array"),
        ParameterValue::ByteArray(_) => Value::Other("byte array"),
        ParameterValue::IntegerArray(_) => Value::Other("integer array"),
        ParameterValue::DoubleArray(_) => Value::Other("double array"),
    }
}

fn to_ros(v: Value) -> ParameterValue {
    match v {
        Value::Bool(b) => ParameterValue::Bool(b),
        Value::Integer(i) => ParameterValue::Integer(i),
        Value::Double(d) => ParameterValue::Double(d),
        Value::String(s) => ParameterValue::String(s),
        Value::StringArray(list) => ParameterValue::StringArray(list),
        Value::NotSet | Value::Other(_) => ParameterValue::NotSet,
    }
}

fn to_r2r(e: ConfigError) -> r2r::Error {
    r2r::Error::ParameterValueConv {
        name: e.parameter,
        msg: e.message,
    }
}

impl Params {
    /// A parameter's current value, as ROS sees it; `None` for an unknown
    /// name.
    pub fn get(&self, name: &str) -> Option<ParameterValue> {
        self.0.get(name).map(to_ros)
    }

    /// What start-up accepted and ignored (a nav2 source parameter this
    /// node does not read, a parameter of another source type, a source
    /// not in `observation_sources`): one line each, for the node's log.
    pub fn notes(&self) -> &[String] {
        &self.1
    }

    /// The node is configured (`true`, from configure to cleanup): a
    /// start-up parameter is then refused; while unconfigured it may be
    /// set and is read at the next configure.
    pub fn set_configured(&mut self, configured: bool) {
        self.2 = Configured(configured);
    }

    /// Changes whenever a parameter is set: who holds a copy of the values
    /// compares it to know the copy is current, whether or not the change
    /// event reached it (r2r's channel of events drops beyond 10).
    pub fn revision(&self) -> u64 {
        self.3
    }

    /// Sets `enabled` (the gate's switch) as `~/toggle` does.
    pub fn set_gate_enabled(&mut self, enabled: bool) {
        self.0.gate.enabled = enabled;
        self.3 = self.3.wrapping_add(1);
    }
}

/// Declares `key` (first taking it out, so that the declarations keep the
/// tables' order) with its value and description.
fn declare(
    params: &mut IndexMap<String, Parameter>,
    key: String,
    value: Value,
    description: &'static str,
) {
    params.shift_remove(&key);
    let mut parameter = Parameter::new(to_ros(value));
    parameter.description = description;
    params.insert(key, parameter);
}

impl RosParams for Params {
    fn register_parameters(
        &mut self,
        prefix: &str,
        _param: Option<Parameter>,
        params: &mut IndexMap<String, Parameter>,
    ) -> r2r::Result<()> {
        // Everything given at start-up (a params file, `-p`): checked as a
        // whole, so that a source's parameters are read against its type
        // and a typo stops the node instead of being silently ignored.
        let given: Vec<(String, Value)> = params
            .iter()
            .filter_map(|(key, p)| Some((key.strip_prefix(prefix)?.to_owned(), value(&p.value))))
            .collect();
        self.1 = self.0.start_up(&given).map_err(to_r2r)?;
        for spec in PARAMS {
            let key = format!("{prefix}{}", spec.name);
            declare(params, key, spec.get(&self.0), spec.description);
        }
        for source in &self.0.sources {
            for param in SOURCE_PARAMS.iter().filter(|p| p.applies_to(source.kind)) {
                let key = format!("{prefix}{}.{}", source.name, param.spec.name);
                declare(params, key, param.spec.get(source), param.spec.description);
            }
        }
        // The sources' exclusion zones: the parameters that apply to each.
        for zone in &self.0.exclusion_zones {
            for param in EXCLUSION_ZONE_PARAMS.iter().filter(|p| (p.applies)(zone)) {
                let key = format!("{prefix}{}.{}", zone.name, param.spec.name);
                declare(params, key, param.spec.get(zone), param.spec.description);
            }
        }
        // The gate's zones: the parameters that apply to each (nav2's), and
        // each velocity shape's.
        for zone in &self.0.gate.zones {
            for param in ZONE_PARAMS.iter().filter(|p| (p.applies)(zone)) {
                let key = format!("{prefix}{}.{}", zone.name, param.spec.name);
                declare(params, key, param.spec.get(zone), param.spec.description);
            }
            if let ZoneShape::Velocity { holonomic, shapes } = &zone.shape {
                for shape in shapes {
                    for param in VELOCITY_SHAPE_PARAMS
                        .iter()
                        .filter(|p| *holonomic || !p.holonomic_only)
                    {
                        let key =
                            format!("{prefix}{}.{}.{}", zone.name, shape.name, param.spec.name);
                        declare(params, key, param.spec.get(shape), param.spec.description);
                    }
                }
            }
        }
        Ok(())
    }

    fn get_parameter(&mut self, name: &str) -> r2r::Result<ParameterValue> {
        self.get(name).ok_or(r2r::Error::InvalidParameterName {
            name: name.to_owned(),
        })
    }

    fn set_parameter(&mut self, name: &str, v: &ParameterValue) -> r2r::Result<()> {
        self.check_parameter(name, v)?;
        self.0.set(name, &value(v)).map_err(to_r2r)?;
        self.3 = self.3.wrapping_add(1);
        Ok(())
    }

    fn check_parameter(&self, name: &str, v: &ParameterValue) -> r2r::Result<()> {
        let runtime = self
            .0
            .runtime(name)
            .ok_or(r2r::Error::InvalidParameterName {
                name: name.to_owned(),
            })?;
        if !runtime && (self.2 .0 || PROCESS_ONLY.contains(&name)) {
            let msg = match PROCESS_ONLY.contains(&name) {
                true => "read at start-up only; restart the node to change it",
                false => "read at start-up only (at configure): change it while the node is unconfigured (after a lifecycle cleanup) or restart the node",
            };
            return Err(r2r::Error::ParameterValueConv {
                name: name.to_owned(),
                msg: msg.to_owned(),
            });
        }
        let mut scratch = self.0.clone();
        scratch.set(name, &value(v)).map_err(to_r2r)
    }
}
