//! ROS parameters backed by [`NodeConfig`]: values from the command line or
//! a params file are checked at start-up (a bad one stops the node with a
//! message naming it), and `set_parameters` requests are checked the same
//! way and refused for parameters that only apply at start-up.

use crate::config::{ConfigError, NodeConfig, Value};
use indexmap::IndexMap;
use r2r::{Parameter, ParameterValue, RosParams};

/// The node's parameters, shared with r2r's parameter services.
#[derive(Clone, Debug, Default)]
pub struct Params(pub NodeConfig);

fn value(v: &ParameterValue) -> Value {
    match v {
        ParameterValue::Bool(b) => Value::Bool(*b),
        ParameterValue::Integer(i) => Value::Integer(*i),
        ParameterValue::Double(d) => Value::Double(*d),
        ParameterValue::String(s) => Value::String(s.clone()),
        ParameterValue::NotSet => Value::Other("not set"),
        ParameterValue::BoolArray(_) => Value::Other("bool array"),
        ParameterValue::ByteArray(_) => Value::Other("byte array"),
        ParameterValue::IntegerArray(_) => Value::Other("integer array"),
        ParameterValue::DoubleArray(_) => Value::Other("double array"),
        ParameterValue::StringArray(_) => Value::Other("string array"),
    }
}

fn to_r2r(e: ConfigError) -> r2r::Error {
    r2r::Error::ParameterValueConv {
        name: e.parameter,
        msg: e.message,
    }
}

fn description(name: &str) -> &'static str {
    match name {
        "footprint_timeout" => "s without a footprint before it is stale (0 = never) [0, 3600]",
        "obstacles_timeout" => {
            "s without obstacles before they are stale; lifetime of each obstacle instance (0 = never) [0, 3600]"
        }
        "fail_safe" => "report a collision whenever the report is not valid",
        "padding" => "m added around the footprint [0, 5]",
        "publish_rate" => "Hz of periodic re-publication [0.1, 1000]",
        "markers_rate" => "Hz cap on RViz markers (0 = off) [0, 100]",
        "zones_file" => "YAML file of static keep-out zones (start-up only)",
        "robot_footprint" => "robot-frame footprint \"[[x, y], ...]\" for check_footprint (start-up only)",
        "robot_radius" => "m, round robot for check_footprint if no robot_footprint (start-up only) [0, 10]",
        "exact_range" => {
            "m from the footprint beyond which per-obstacle results may be a flagged lower bound [0, 1e6]"
        }
        "max_service_checks" => {
            "most pose x obstacle pairs per check_footprint request; more is refused [1, 1e12]"
        }
        _ => "",
    }
}

impl Params {
    pub fn get(&self, name: &str) -> Option<ParameterValue> {
        let c = &self.0;
        Some(match name {
            "footprint_timeout" => ParameterValue::Double(c.footprint_timeout),
            "obstacles_timeout" => ParameterValue::Double(c.obstacles_timeout),
            "fail_safe" => ParameterValue::Bool(c.fail_safe),
            "padding" => ParameterValue::Double(c.padding),
            "publish_rate" => ParameterValue::Double(c.publish_rate),
            "markers_rate" => ParameterValue::Double(c.markers_rate),
            "zones_file" => ParameterValue::String(c.zones_file.clone()),
            "robot_footprint" => ParameterValue::String(c.robot_footprint.clone()),
            "robot_radius" => ParameterValue::Double(c.robot_radius),
            "exact_range" => ParameterValue::Double(c.exact_range),
            "max_service_checks" => ParameterValue::Double(c.max_service_checks),
            _ => return None,
        })
    }
}

impl RosParams for Params {
    fn register_parameters(
        &mut self,
        prefix: &str,
        _param: Option<Parameter>,
        params: &mut IndexMap<String, Parameter>,
    ) -> r2r::Result<()> {
        for name in NodeConfig::NAMES {
            let key = format!("{prefix}{name}");
            if let Some(given) = params.shift_remove(&key) {
                self.0.set(name, &value(&given.value)).map_err(to_r2r)?;
            }
            let mut parameter = Parameter::new(self.get(name).unwrap_or(ParameterValue::NotSet));
            parameter.description = description(name);
            params.insert(key, parameter);
        }
        // Anything else given at start-up (a params file, `-p`): the standard ROS
        // names pass, a typo stops the node instead of being silently ignored.
        for (key, given) in params.iter() {
            if let Some(name) = key.strip_prefix(prefix) {
                if !NodeConfig::NAMES.contains(&name) {
                    NodeConfig::check_other(name, &value(&given.value)).map_err(to_r2r)?;
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
        self.0.set(name, &value(v)).map_err(to_r2r)
    }

    fn check_parameter(&self, name: &str, v: &ParameterValue) -> r2r::Result<()> {
        if !NodeConfig::NAMES.contains(&name) {
            return Err(r2r::Error::InvalidParameterName {
                name: name.to_owned(),
            });
        }
        if !NodeConfig::RUNTIME.contains(&name) {
            return Err(r2r::Error::ParameterValueConv {
                name: name.to_owned(),
                msg: "read at start-up only; restart the node to change it".to_owned(),
            });
        }
        let mut scratch = self.0.clone();
        scratch.set(name, &value(v)).map_err(to_r2r)
    }
}
