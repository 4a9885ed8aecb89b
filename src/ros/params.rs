//! ROS parameters backed by [`NodeConfig`]: values from the command line or
//! a params file are checked at start-up (a bad one stops the node with a
//! message naming it), and `set_parameters` requests are checked the same
//! way and refused for parameters that only apply at start-up. Names,
//! checks, descriptions and which may change at run time all come from
//! [`PARAMS`].

use crate::config::{param, ConfigError, NodeConfig, Value, PARAMS};
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

fn to_ros(v: Value) -> ParameterValue {
    match v {
        Value::Bool(b) => ParameterValue::Bool(b),
        Value::Integer(i) => ParameterValue::Integer(i),
        Value::Double(d) => ParameterValue::Double(d),
        Value::String(s) => ParameterValue::String(s),
        Value::Other(_) => ParameterValue::NotSet,
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
}

impl RosParams for Params {
    fn register_parameters(
        &mut self,
        prefix: &str,
        _param: Option<Parameter>,
        params: &mut IndexMap<String, Parameter>,
    ) -> r2r::Result<()> {
        for spec in PARAMS {
            let key = format!("{prefix}{}", spec.name);
            if let Some(given) = params.shift_remove(&key) {
                spec.set(&mut self.0, &value(&given.value))
                    .map_err(to_r2r)?;
            }
            let mut parameter = Parameter::new(to_ros(spec.get(&self.0)));
            parameter.description = spec.description;
            params.insert(key, parameter);
        }
        // Anything else given at start-up (a params file, `-p`): the standard ROS
        // names pass, a typo stops the node instead of being silently ignored.
        for (key, given) in params.iter() {
            if let Some(name) = key.strip_prefix(prefix) {
                if param(name).is_none() {
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
        let spec = param(name).ok_or(r2r::Error::InvalidParameterName {
            name: name.to_owned(),
        })?;
        if !spec.runtime {
            return Err(r2r::Error::ParameterValueConv {
                name: name.to_owned(),
                msg: "read at start-up only; restart the node to change it".to_owned(),
            });
        }
        let mut scratch = self.0.clone();
        spec.set(&mut scratch, &value(v)).map_err(to_r2r)
    }
}
