//! The machinery every parameter table shares: a parameter's [`Kind`] and
//! [`ParamSpec`] (type, default, range, checks, field), the [`Value`] that
//! arrives for it, [`ConfigError`], the limits on lists of names and the
//! checks of names, topics and frames.

use super::settings::NodeConfig;
use std::borrow::Cow;

/// Most sensor sources in `observation_sources`: each brings a subscription
/// and a group of obstacles, and nav2 configurations have a handful.
pub const MAX_SOURCES: usize = 32;

/// Longest source name in `observation_sources`, in bytes; also the
/// longest zone name in `polygons` and velocity shape name in a zone's
/// `velocity_polygons`.
pub const MAX_SOURCE_NAME_BYTES: usize = 64;

/// Most zones in `polygons`: each is checked against its sources at every
/// command, and nav2 configurations have a handful.
pub const MAX_ZONES: usize = 32;

/// Most shapes in a `velocity_polygon` zone's `velocity_polygons`.
pub const MAX_VELOCITY_SHAPES: usize = 32;

/// The type of a parameter, with its default, its checks and where its
/// value lives in the configuration `C` it reads and writes: the node's
/// [`NodeConfig`] ([`PARAMS`](super::PARAMS)) or one source's [`SourceConfig`](super::SourceConfig)
/// ([`SOURCE_PARAMS`](super::SOURCE_PARAMS)). The rules (types, ranges, messages) are the same
/// for both: [`ParamSpec::set`].
#[derive(Debug)]
pub enum Kind<C = NodeConfig> {
    /// A double in the closed range `[min, max]`; an integer is taken as a
    /// double (YAML `1` for `1.0`).
    Number {
        /// The value when none is given.
        default: f64,
        /// Smallest value accepted.
        min: f64,
        /// Largest value accepted.
        max: f64,
        /// Reads the value from a `C`.
        get: fn(&C) -> f64,
        /// Writes the value into a `C`.
        set: fn(&mut C, f64),
    },
    /// An integer in the closed range `[min, max]`; a double with no
    /// fraction is taken as an integer (`2.0` for `2`), one with a fraction
    /// (`2.5`) is refused.
    Integer {
        /// The value when none is given.
        default: i64,
        /// Smallest value accepted.
        min: i64,
        /// Largest value accepted.
        max: i64,
        /// Reads the value from a `C`.
        get: fn(&C) -> i64,
        /// Writes the value into a `C` (only values in `[min, max]`).
        set: fn(&mut C, i64),
    },
    /// A boolean.
    Bool {
        /// The value when none is given.
        default: bool,
        /// Reads the value from a `C`.
        get: fn(&C) -> bool,
        /// Writes the value into a `C`.
        set: fn(&mut C, bool),
    },
    /// A string; `check` refuses unusable content with a message.
    Text {
        /// The value when none is given.
        default: &'static str,
        /// `Err` with the message a user sees when the text is unusable.
        check: fn(&str) -> Result<(), String>,
        /// Reads the value from a `C` (borrowed, or made from what `C`
        /// holds: a zone's points).
        get: fn(&C) -> Cow<'_, str>,
        /// Writes the value into a `C` (only text `check` accepted).
        set: fn(&mut C, String),
    },
    /// A list of strings; `check` refuses an unusable list with a message.
    /// rcl reads an empty YAML list (`[]`) as a value without a type
    /// ([`Value::NotSet`]): it is taken as the empty list.
    TextList {
        /// The value when none is given.
        default: &'static [&'static str],
        /// `Err` with the message a user sees when the list is unusable.
        check: fn(&[String]) -> Result<(), String>,
        /// Reads the value from a `C` (borrowed, or made from what `C`
        /// holds: a zone's velocity shapes).
        get: fn(&C) -> Cow<'_, [String]>,
        /// Writes the value into a `C` (only lists `check` accepted).
        set: fn(&mut C, Vec<String>),
    },
}

// By hand: derived, they would require `C: Copy`; every field is a copy
// whatever `C` is.
impl<C> Clone for Kind<C> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<C> Copy for Kind<C> {}

/// One parameter: of the node ([`PARAMS`](super::PARAMS)) or of every sensor source
/// ([`SOURCE_PARAMS`](super::SOURCE_PARAMS), where `name` is the suffix after `<source>.`).
#[derive(Debug)]
pub struct ParamSpec<C = NodeConfig> {
    /// The parameter's name.
    pub name: &'static str,
    /// Its type, default, checks and field.
    pub kind: Kind<C>,
    /// Takes effect while the node runs (`set_parameters`); otherwise read
    /// at start-up only, and a run-time change is refused.
    pub runtime: bool,
    /// What `describe_parameters` shows, the range included.
    pub description: &'static str,
}

impl<C> Clone for ParamSpec<C> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<C> Copy for ParamSpec<C> {}

/// A list of names (`observation_sources`, `polygons`, a zone's
/// `velocity_polygons` or `sources_names`) of `what` (`"source"`): at most
/// `max` names, each non-empty, at most [`MAX_SOURCE_NAME_BYTES`] of ASCII
/// letters, digits and `_` (a ROS parameter name's token), none twice.
pub(super) fn check_names(names: &[String], what: &str, max: usize) -> Result<(), String> {
    if names.len() > max {
        return Err(format!(
            "{} {what}s; at most {max} are allowed",
            names.len()
        ));
    }
    for (i, name) in names.iter().enumerate() {
        let shown = crate::text::escape_for_log(name, crate::text::LOG_ID_CHARS);
        if name.is_empty() {
            return Err(format!("a {what} name is empty"));
        }
        if name.len() > MAX_SOURCE_NAME_BYTES {
            return Err(format!(
                "{what} name \"{shown}\" is longer than {MAX_SOURCE_NAME_BYTES} bytes"
            ));
        }
        if let Some(c) = name
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || *c == '_'))
        {
            return Err(format!(
                "{what} name \"{shown}\": {c:?} is not allowed (letters, digits and _)"
            ));
        }
        if names[..i].contains(name) {
            return Err(format!("{what} \"{shown}\" is listed twice"));
        }
    }
    Ok(())
}

/// A topic the gate cannot do without: as [`check_topic`], and not empty.
pub(super) fn check_needed_topic(text: &str) -> Result<(), String> {
    if text.is_empty() {
        return Err("the gate needs this topic: it cannot be empty".to_owned());
    }
    check_topic(text)
}

/// A frame the gate cannot do without: as [`check_frame`], and not empty.
pub(super) fn check_needed_frame(text: &str) -> Result<(), String> {
    if text.is_empty() {
        return Err("the gate needs this frame: it cannot be empty".to_owned());
    }
    check_frame(text)
}

/// A topic name: empty (not set), or at most 256 bytes of letters,
/// digits, `_`, `/` and `~` (rcl checks the rest when subscribing).
pub(super) fn check_topic(text: &str) -> Result<(), String> {
    if text.len() > 256 {
        return Err("longer than 256 bytes".to_owned());
    }
    match text
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '/' | '~')))
    {
        Some(c) => Err(format!("{c:?} is not allowed in a topic name")),
        None => Ok(()),
    }
}

/// A frame name as TF has them: at most 256 bytes, no NUL, no leading
/// slash (tf2 refuses "/map"); empty means "not set".
pub(super) fn check_frame(text: &str) -> Result<(), String> {
    crate::text::check_name(text.as_bytes(), crate::text::MAX_FRAME_ID_BYTES)
        .map_err(|e| e.to_string())?;
    if text.starts_with('/') {
        return Err(format!(
            "frame ids have no leading slash (tf2): use \"{}\"",
            text.trim_start_matches('/')
        ));
    }
    Ok(())
}

/// A parameter that cannot be used, and why.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("parameter `{parameter}`: {message}")]
pub struct ConfigError {
    /// The parameter's name.
    pub parameter: String,
    /// What is wrong with its value.
    pub message: String,
}

/// A value that arrived for a parameter, from a file or a `set_parameters`.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A boolean.
    Bool(bool),
    /// An integer.
    Integer(i64),
    /// A double.
    Double(f64),
    /// A string.
    String(String),
    /// A list of strings.
    StringArray(Vec<String>),
    /// No value: what rcl makes of an empty YAML list (`[]`), whose type
    /// it cannot tell.
    NotSet,
    /// Any other type (other arrays, bytes).
    Other(&'static str),
}

impl Value {
    pub(super) fn type_name(&self) -> &'static str {
        match self {
            Value::Bool(_) => "bool",
            Value::Integer(_) => "integer",
            Value::Double(_) => "double",
            Value::String(_) => "string",
            Value::StringArray(_) => "string array",
            Value::NotSet => "not set",
            Value::Other(name) => name,
        }
    }
}

impl<C> ParamSpec<C> {
    /// The allowed closed range of a number.
    pub fn range(&self) -> Option<(f64, f64)> {
        match self.kind {
            Kind::Number { min, max, .. } => Some((min, max)),
            Kind::Integer { min, max, .. } => Some((min as f64, max as f64)),
            Kind::Bool { .. } | Kind::Text { .. } | Kind::TextList { .. } => None,
        }
    }

    /// The default, as a [`Value`].
    pub fn default_value(&self) -> Value {
        match self.kind {
            Kind::Number { default, .. } => Value::Double(default),
            Kind::Integer { default, .. } => Value::Integer(default),
            Kind::Bool { default, .. } => Value::Bool(default),
            Kind::Text { default, .. } => Value::String(default.to_owned()),
            Kind::TextList { default, .. } => {
                Value::StringArray(default.iter().map(|s| (*s).to_owned()).collect())
            }
        }
    }

    /// The value in `config`.
    pub fn get(&self, config: &C) -> Value {
        match self.kind {
            Kind::Number { get, .. } => Value::Double(get(config)),
            Kind::Integer { get, .. } => Value::Integer(get(config)),
            Kind::Bool { get, .. } => Value::Bool(get(config)),
            Kind::Text { get, .. } => Value::String(get(config).into_owned()),
            Kind::TextList { get, .. } => Value::StringArray(get(config).into_owned()),
        }
    }

    /// Writes `value` into `config` after checking its type and range (or
    /// content); a refused value leaves `config` as it was.
    pub fn set(&self, config: &mut C, value: &Value) -> Result<(), ConfigError> {
        self.set_as(self.name, config, value)
    }

    /// [`set`](Self::set), the error naming the parameter `name` (a
    /// source's `<source>.<suffix>`).
    pub(super) fn set_as(
        &self,
        name: &str,
        config: &mut C,
        value: &Value,
    ) -> Result<(), ConfigError> {
        let error = |message: String| ConfigError {
            parameter: name.to_owned(),
            message,
        };
        let wrong_type =
            |expected: &str| error(format!("expected {expected}, got {}", value.type_name()));
        match self.kind {
            Kind::Number { min, max, set, .. } => {
                let x = match value {
                    Value::Double(x) => *x,
                    Value::Integer(i) => *i as f64,
                    _ => return Err(wrong_type(&format!("a number in [{min}, {max}]"))),
                };
                if !(x.is_finite() && (min..=max).contains(&x)) {
                    return Err(error(format!(
                        "{x} is outside the allowed range [{min}, {max}]"
                    )));
                }
                set(config, x);
            }
            Kind::Integer { min, max, set, .. } => {
                let outside = |x: &dyn std::fmt::Display| {
                    error(format!("{x} is outside the allowed range [{min}, {max}]"))
                };
                let n = match value {
                    Value::Integer(n) => *n,
                    Value::Double(x) => {
                        // Compared as doubles first: the cast below is
                        // then exact (|x| <= max <= 2^53 in practice, and
                        // whole).
                        if !(x.is_finite() && (min as f64..=max as f64).contains(x)) {
                            return Err(outside(x));
                        }
                        if x.fract() != 0.0 {
                            return Err(error(format!(
                                "{x} is not a whole number: expected an integer in [{min}, {max}]"
                            )));
                        }
                        *x as i64
                    }
                    _ => return Err(wrong_type(&format!("an integer in [{min}, {max}]"))),
                };
                if !(min..=max).contains(&n) {
                    return Err(outside(&n));
                }
                set(config, n);
            }
            Kind::Bool { set, .. } => match value {
                Value::Bool(b) => set(config, *b),
                _ => return Err(wrong_type("a bool")),
            },
            Kind::Text { check, set, .. } => match value {
                Value::String(s) => {
                    check(s).map_err(error)?;
                    set(config, s.clone());
                }
                _ => return Err(wrong_type("a string")),
            },
            Kind::TextList { check, set, .. } => {
                let list = match value {
                    Value::StringArray(list) => list.clone(),
                    Value::NotSet => Vec::new(),
                    _ => return Err(wrong_type("a list of strings")),
                };
                check(&list).map_err(error)?;
                set(config, list);
            }
        }
        Ok(())
    }

    /// Puts the default into `config`.
    pub(super) fn reset(&self, config: &mut C) {
        match self.kind {
            Kind::Number { default, set, .. } => set(config, default),
            Kind::Integer { default, set, .. } => set(config, default),
            Kind::Bool { default, set, .. } => set(config, default),
            Kind::Text { default, set, .. } => set(config, default.to_owned()),
            Kind::TextList { default, set, .. } => {
                set(config, default.iter().map(|s| (*s).to_owned()).collect())
            }
        }
    }
}
