//! A ROS 2 parameters file's values as rcl reads them
//! (`rcl_yaml_param_parser`), for the node's parameter table: one node's
//! entry, its parameters' names dotted and their values typed as rcl types
//! them. Pure: the text in, the values out; what
//! [`NodeConfig::start_up`](super::NodeConfig::start_up) takes.
//!
//! rcl's rules, reproduced here:
//! * An entry is the keys above `ros__parameters` joined with `/`
//!   (`robot1: {planner: {ros__parameters: ...}}` is `robot1/planner`); a
//!   key is taken as `ros__parameters` when it starts with it (rcl compares
//!   the prefix). An entry given twice is merged: a later value replaces an
//!   earlier one in its place.
//! * Below `ros__parameters`, nested keys are joined with `.`
//!   (`zone: {type: polygon}` is `zone.type`).
//! * A plain scalar is a bool when it is one of `y Y yes Yes YES true True
//!   TRUE on On ON` (or the same words for false: `n`, `no`, `false`,
//!   `off`, ...); else an integer when C's `strtol` (base 0: `0x` hex, a
//!   leading `0` octal) reads all of it without overflow; else a double
//!   when `strtod` reads all of it without overflow or underflow (`.inf`,
//!   `-.inf`, `.nan` and their capitalised forms too); else a string. A
//!   quoted scalar is always a string. An empty plain value is refused.
//! * A list takes its first element's type; every element must have it
//!   (`[1, 2.5]` is refused, as is a list in a list or a mapping in a
//!   list). A list of strings is [`Value::StringArray`]; lists of bools,
//!   integers or doubles are [`Value::Other`] (`"bool array"`, `"integer
//!   array"`, `"double array"`: no parameter of this node has those
//!   types, as the ROS edge names them); an empty list is
//!   [`Value::NotSet`].
//! * Aliases are refused.
//!
//! Not reproduced: C `strtod`'s hexadecimal floats (`0x1p3` is a string
//! here, a double for rcl), and the checks of entries other than the one
//! read (rcl refuses a whole file for an error in any entry).

use super::spec::Value;
use crate::text::{escape_for_log, LOG_ID_CHARS};
use saphyr_parser::{Event, Parser, ScalarStyle};
use std::borrow::Cow;

/// Deepest nesting of mappings followed (node names and parameter
/// namespaces together); a deeper file is refused.
const MAX_DEPTH: usize = 64;

/// Why a parameters file's entry cannot be read as rcl reads it. Names are
/// escaped for the log.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RclYamlError {
    /// The text is not YAML (the parser's message).
    #[error("not YAML: {0}")]
    Yaml(String),
    /// Mappings nested deeper than rcl's files need.
    #[error("mappings nested deeper than {MAX_DEPTH}")]
    TooDeep,
    /// A key that is not a non-empty scalar.
    #[error("a key under {under} is not a name")]
    BadKey {
        /// The parameter or entry the key is under (empty at the top).
        under: String,
    },
    /// A parameter with an empty plain value (`name:`).
    #[error("{name}: no value")]
    NoValue {
        /// The parameter's name.
        name: String,
    },
    /// A list whose elements do not all have its first element's type.
    #[error("{name}: a list of {first} holds a {other}")]
    MixedList {
        /// The parameter's name.
        name: String,
        /// The first element's type.
        first: &'static str,
        /// The type of the first element that differs.
        other: &'static str,
    },
    /// A list in a list, a mapping in a list, or an alias.
    #[error("{name}: {what} is not a parameter value")]
    Unsupported {
        /// The parameter's name.
        name: String,
        /// What was found.
        what: &'static str,
    },
}

/// The parameters the entry `node` of the parameters file `yaml_text`
/// gives, as rcl reads them (see the module documentation for its rules),
/// in the file's order: `(name, value)` with nested names joined by `.`.
///
/// `node` is the entry's name as the file spells it: the keys above
/// `ros__parameters` joined with `/` (`collision_monitor`,
/// `robot1/collision_monitor`, `/**`). Only that entry is read: wildcard
/// entries are not merged in (ask for `/**` too where they matter). A file
/// without the entry gives no parameters (rcl's behaviour: whether a file
/// names the node is `params_file`'s check). Errors name the parameter;
/// they are rcl's errors for the same text.
///
/// ```
/// use sat_collision::config::{parameters_of, Value};
///
/// let text = "collision_monitor:\n  ros__parameters:\n    enabled: yes\n    \
///             stop_pub_timeout: 2\n    PolygonStop: {slowdown_ratio: 0.3, \
///             points: '[[0.3, 0.3]]'}\n    polygons: [PolygonStop]\n";
/// let values = parameters_of(text, "collision_monitor").unwrap();
/// assert_eq!(
///     values,
///     [
///         ("enabled".to_owned(), Value::Bool(true)),
///         ("stop_pub_timeout".to_owned(), Value::Integer(2)),
///         ("PolygonStop.slowdown_ratio".to_owned(), Value::Double(0.3)),
///         ("PolygonStop.points".to_owned(), Value::String("[[0.3, 0.3]]".into())),
///         ("polygons".to_owned(), Value::StringArray(vec!["PolygonStop".into()])),
///     ]
/// );
/// assert!(parameters_of("n:\n  ros__parameters: {a: [1, 2.5]}\n", "n").is_err());
/// ```
pub fn parameters_of(yaml_text: &str, node: &str) -> Result<Vec<(String, Value)>, RclYamlError> {
    let mut walk = Walk {
        events: Parser::new_from_str(yaml_text),
        node,
        out: Vec::new(),
    };
    loop {
        match walk.next()? {
            Event::StreamEnd => return Ok(walk.out),
            Event::MappingStart(..) => walk.entries(&mut Vec::new())?,
            event @ (Event::SequenceStart(..) | Event::Scalar(..) | Event::Alias(_)) => {
                walk.skip(&event)?
            }
            _ => {}
        }
    }
}

/// The walk over one file's events.
struct Walk<'a> {
    events: Parser<'a, saphyr_parser::StrInput<'a>>,
    node: &'a str,
    out: Vec<(String, Value)>,
}

impl<'a> Walk<'a> {
    fn next(&mut self) -> Result<Event<'a>, RclYamlError> {
        match self.events.next() {
            Some(Ok((event, _))) => Ok(event),
            Some(Err(e)) => Err(RclYamlError::Yaml(e.to_string())),
            None => Err(RclYamlError::Yaml("unexpected end".into())),
        }
    }

    /// Consumes the rest of a node whose first event was `first`.
    fn skip(&mut self, first: &Event<'_>) -> Result<(), RclYamlError> {
        let mut depth = match first {
            Event::MappingStart(..) | Event::SequenceStart(..) => 1usize,
            _ => return Ok(()),
        };
        while depth > 0 {
            match self.next()? {
                Event::MappingStart(..) | Event::SequenceStart(..) => depth += 1,
                Event::MappingEnd | Event::SequenceEnd => depth -= 1,
                _ => {}
            }
        }
        Ok(())
    }

    /// The key of a mapping's next entry, or `None` at its end.
    fn key(&mut self, under: &str) -> Result<Option<Cow<'a, str>>, RclYamlError> {
        match self.next()? {
            Event::MappingEnd => Ok(None),
            Event::Scalar(key, ..) if !key.is_empty() => Ok(Some(key)),
            _ => Err(RclYamlError::BadKey {
                under: escape_for_log(under, LOG_ID_CHARS).into_owned(),
            }),
        }
    }

    /// A mapping (its start consumed) at the entries' level: `path` holds
    /// the keys above it.
    fn entries(&mut self, path: &mut Vec<String>) -> Result<(), RclYamlError> {
        if path.len() >= MAX_DEPTH {
            return Err(RclYamlError::TooDeep);
        }
        while let Some(key) = self.key(&path.join("/"))? {
            let value = self.next()?;
            if key.starts_with("ros__parameters") && path.join("/") == self.node {
                match value {
                    Event::MappingStart(..) => self.parameters("", path.len())?,
                    other => self.skip(&other)?,
                }
            } else if matches!(value, Event::MappingStart(..)) {
                path.push(key.into_owned());
                let walked = self.entries(path);
                path.pop();
                walked?;
            } else {
                self.skip(&value)?;
            }
        }
        Ok(())
    }

    /// The mapping (its start consumed) of the parameters under `prefix`
    /// (empty: `ros__parameters` itself), `depth` mappings deep.
    fn parameters(&mut self, prefix: &str, depth: usize) -> Result<(), RclYamlError> {
        if depth >= MAX_DEPTH {
            return Err(RclYamlError::TooDeep);
        }
        while let Some(key) = self.key(prefix)? {
            let name = match prefix {
                "" => key.into_owned(),
                _ => format!("{prefix}.{key}"),
            };
            let value = match self.next()? {
                Event::MappingStart(..) => {
                    self.parameters(&name, depth + 1)?;
                    continue;
                }
                Event::SequenceStart(..) => self.list(&name)?,
                Event::Scalar(text, style, ..) => {
                    if text.is_empty() && style == ScalarStyle::Plain {
                        return Err(RclYamlError::NoValue {
                            name: escape_for_log(&name, LOG_ID_CHARS).into_owned(),
                        });
                    }
                    scalar(text, style)
                }
                _ => return Err(unsupported(&name, "an alias")),
            };
            match self.out.iter_mut().find(|(n, _)| *n == name) {
                Some(entry) => entry.1 = value,
                None => self.out.push((name, value)),
            }
        }
        Ok(())
    }

    /// A list (its start consumed) of the parameter `name`.
    fn list(&mut self, name: &str) -> Result<Value, RclYamlError> {
        let mut items: Vec<Value> = Vec::new();
        loop {
            let item = match self.next()? {
                Event::SequenceEnd => break,
                Event::Scalar(text, style, ..) => scalar(text, style),
                Event::SequenceStart(..) => return Err(unsupported(name, "a list in a list")),
                Event::MappingStart(..) => return Err(unsupported(name, "a mapping in a list")),
                _ => return Err(unsupported(name, "an alias")),
            };
            if let Some(first) = items.first() {
                if std::mem::discriminant(first) != std::mem::discriminant(&item) {
                    return Err(RclYamlError::MixedList {
                        name: escape_for_log(name, LOG_ID_CHARS).into_owned(),
                        first: first.type_name(),
                        other: item.type_name(),
                    });
                }
            }
            items.push(item);
        }
        Ok(match items.first() {
            None => Value::NotSet,
            Some(Value::String(_)) => Value::StringArray(
                items
                    .into_iter()
                    .filter_map(|item| match item {
                        Value::String(s) => Some(s),
                        _ => None,
                    })
                    .collect(),
            ),
            Some(Value::Bool(_)) => Value::Other("bool array"),
            Some(Value::Integer(_)) => Value::Other("integer array"),
            Some(_) => Value::Other("double array"),
        })
    }
}

fn unsupported(name: &str, what: &'static str) -> RclYamlError {
    RclYamlError::Unsupported {
        name: escape_for_log(name, LOG_ID_CHARS).into_owned(),
        what,
    }
}

/// A scalar as rcl types it (`get_value`): see the module documentation.
fn scalar(text: Cow<'_, str>, style: ScalarStyle) -> Value {
    if matches!(style, ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted) {
        return Value::String(text.into_owned());
    }
    match &*text {
        "Y" | "y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            return Value::Bool(true)
        }
        "N" | "n" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            return Value::Bool(false)
        }
        _ => {}
    }
    if let Some(i) = c_strtol(&text) {
        return Value::Integer(i);
    }
    if let Some(x) = c_strtod(&text) {
        return Value::Double(x);
    }
    Value::String(text.into_owned())
}

/// C's `isspace` in the "C" locale.
fn c_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r')
}

/// `strtol(text, &end, 0)` when it reads all of `text` (at least one
/// digit) without overflow: leading white space, a sign, then `0x`/`0X`
/// and hexadecimal digits, `0` and octal digits, or decimal digits.
fn c_strtol(text: &str) -> Option<i64> {
    let body = text.trim_start_matches(c_space);
    let (negative, body) = match body.as_bytes().first() {
        Some(b'-') => (true, &body[1..]),
        Some(b'+') => (false, &body[1..]),
        _ => (false, body),
    };
    let (radix, digits) =
        if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
            (16, hex)
        } else if body.len() > 1 && body.starts_with('0') {
            (8, &body[1..])
        } else {
            (10, body)
        };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    // Parsed with the sign so that i64::MIN reads; any overflow is ERANGE.
    let signed = if negative {
        format!("-{digits}")
    } else {
        digits.to_owned()
    };
    i64::from_str_radix(&signed, radix).ok()
}

/// `strtod(text, &end)` when it reads all of `text` with no range error
/// (`errno` 0), or rcl's own `.inf`/`.nan` spellings; hexadecimal floats
/// are left out (see the module documentation).
fn c_strtod(text: &str) -> Option<f64> {
    match text {
        ".nan" | ".NaN" | ".NAN" => return Some(f64::NAN),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => return Some(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => return Some(f64::NEG_INFINITY),
        _ => {}
    }
    let body = text.trim_start_matches(c_space);
    let unsigned = body.trim_start_matches(['+', '-']);
    if unsigned.len() + 1 < body.len() {
        return None; // two signs
    }
    let word = unsigned.to_ascii_lowercase();
    if word == "inf" || word == "infinity" || word == "nan" {
        return body.parse().ok();
    }
    // The decimal form: digits with at most one point (at least one
    // digit), then an optional exponent with at least one digit.
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (&unsigned[..at], Some(&unsigned[at + 1..])),
        None => (unsigned, None),
    };
    let digits = mantissa.chars().filter(char::is_ascii_digit).count();
    let points = mantissa.chars().filter(|&c| c == '.').count();
    if digits == 0 || digits + points != mantissa.len() || points > 1 {
        return None;
    }
    if let Some(exponent) = exponent {
        let exp_digits = exponent.trim_start_matches(['+', '-']);
        if exp_digits.is_empty()
            || exponent.len() > exp_digits.len() + 1
            || !exp_digits.chars().all(|c| c.is_ascii_digit())
        {
            return None;
        }
    }
    let x: f64 = body.parse().ok()?;
    // ERANGE: overflow to infinity, or underflow (a result below the
    // normal range from non-zero digits).
    let nonzero = mantissa.chars().any(|c| c.is_ascii_digit() && c != '0');
    (x.is_finite() && !(nonzero && x.abs() < f64::MIN_POSITIVE)).then_some(x)
}

#[cfg(test)]
mod tests;
