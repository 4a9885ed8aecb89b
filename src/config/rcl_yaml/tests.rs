//! [`parameters_of`] against rcl's rules, written out here case by case
//! (from `rcl_yaml_param_parser`'s `get_value` and `parse_value`), against
//! random integers and doubles in every spelling rcl reads, and on nav2's
//! own files against a reading of them through `serde_yaml`.

use super::*;
use sat_collision_testkit::SplitMix64;

/// The one parameter `p` of node `n` whose value is written `value`.
fn one(value: &str) -> Result<Value, RclYamlError> {
    let text = format!("n:\n  ros__parameters:\n    p: {value}\n");
    let mut values = parameters_of(&text, "n")?;
    assert_eq!(values.len(), 1, "{value}");
    Ok(values.remove(0).1)
}

fn string(s: &str) -> Value {
    Value::String(s.to_owned())
}

#[test]
fn scalars_are_typed_as_rcl_types_them() {
    use Value::{Bool, Double, Integer};
    let cases: &[(&str, Value)] = &[
        // rcl's bool words, and only those.
        ("true", Bool(true)),
        ("True", Bool(true)),
        ("TRUE", Bool(true)),
        ("yes", Bool(true)),
        ("Y", Bool(true)),
        ("y", Bool(true)),
        ("On", Bool(true)),
        ("ON", Bool(true)),
        ("false", Bool(false)),
        ("no", Bool(false)),
        ("N", Bool(false)),
        ("off", Bool(false)),
        ("OFF", Bool(false)),
        ("tRUE", string("tRUE")),
        ("yEs", string("yEs")),
        ("'true'", string("true")),
        ("\"yes\"", string("yes")),
        // An integer stays an integer (strtol, base 0).
        ("0", Integer(0)),
        ("42", Integer(42)),
        ("-7", Integer(-7)),
        ("+7", Integer(7)),
        ("0x1F", Integer(31)),
        ("0X1f", Integer(31)),
        ("-0x10", Integer(-16)),
        ("010", Integer(8)),
        ("9223372036854775807", Integer(i64::MAX)),
        ("-9223372036854775808", Integer(i64::MIN)),
        ("'42'", string("42")),
        // Overflow: not an integer, so strtod reads it.
        ("9223372036854775808", Double(9223372036854775808.0)),
        // Not octal: strtol stops at 8, strtod reads it all.
        ("08", Double(8.0)),
        ("0x", string("0x")),
        ("0o10", string("0o10")),
        ("1_000", string("1_000")),
        // A double (strtod), with rcl's YAML spellings of infinity.
        ("1.0", Double(1.0)),
        ("1.", Double(1.0)),
        (".5", Double(0.5)),
        ("-0.25", Double(-0.25)),
        ("1e3", Double(1000.0)),
        ("1E-3", Double(0.001)),
        ("+2.5e+2", Double(250.0)),
        (".inf", Double(f64::INFINITY)),
        ("-.Inf", Double(f64::NEG_INFINITY)),
        ("+.INF", Double(f64::INFINITY)),
        ("inf", Double(f64::INFINITY)),
        ("-Infinity", Double(f64::NEG_INFINITY)),
        ("1e308", Double(1e308)),
        ("1e-300", Double(1e-300)),
        // strtod's range errors: a string.
        ("1e999", string("1e999")),
        ("1e-999", string("1e-999")),
        ("1e", string("1e")),
        ("1.2.3", string("1.2.3")),
        ("--1", string("--1")),
        ("'1.0'", string("1.0")),
        // Everything else is a string, `~` and `null` included.
        ("polygon", string("polygon")),
        ("~", string("~")),
        ("null", string("null")),
        (
            "'[[0.3, 0.3], [0.3, -0.3]]'",
            string("[[0.3, 0.3], [0.3, -0.3]]"),
        ),
        ("''", string("")),
    ];
    for (text, expected) in cases {
        let got = one(text).unwrap();
        assert_eq!(&got, expected, "{text}");
    }
    // NaN is not equal to itself.
    for text in [".nan", ".NaN", ".NAN", "nan", "NAN"] {
        assert!(matches!(one(text), Ok(Double(x)) if x.is_nan()), "{text}");
    }
}

#[test]
fn lists_take_their_first_elements_type() {
    let strings = |s: &[&str]| Value::StringArray(s.iter().map(|s| s.to_string()).collect());
    assert_eq!(one("[scan, cloud]").unwrap(), strings(&["scan", "cloud"]));
    assert_eq!(one("['1', \"2\"]").unwrap(), strings(&["1", "2"]));
    assert_eq!(one("[]").unwrap(), Value::NotSet);
    assert_eq!(one("[1, 2]").unwrap(), Value::Other("integer array"));
    assert_eq!(one("[1.0, 2e1]").unwrap(), Value::Other("double array"));
    assert_eq!(one("[true, off]").unwrap(), Value::Other("bool array"));
    // Mixed lists are refused, an integer and a double included.
    for (text, first, other) in [
        ("[1, 2.5]", "integer", "double"),
        ("[2.5, 1]", "double", "integer"),
        ("[scan, 1]", "string", "integer"),
        ("[1, '1']", "integer", "string"),
        ("[yes, scan]", "bool", "string"),
    ] {
        assert_eq!(
            one(text),
            Err(RclYamlError::MixedList {
                name: "p".into(),
                first,
                other
            }),
            "{text}"
        );
    }
    assert!(matches!(
        one("[[1]]"),
        Err(RclYamlError::Unsupported { .. })
    ));
    assert!(matches!(
        one("[{a: 1}]"),
        Err(RclYamlError::Unsupported { .. })
    ));
    // A block list reads like a flow list.
    let text = "n:\n  ros__parameters:\n    p:\n      - a\n      - b\n";
    assert_eq!(parameters_of(text, "n").unwrap()[0].1, strings(&["a", "b"]));
}

#[test]
fn refusals_are_rcls() {
    assert_eq!(one(""), Err(RclYamlError::NoValue { name: "p".into() }));
    let text = "n:\n  ros__parameters:\n    a: &x 1\n    b: *x\n";
    assert!(matches!(
        parameters_of(text, "n"),
        Err(RclYamlError::Unsupported {
            what: "an alias",
            ..
        })
    ));
    let text = "n:\n  ros__parameters:\n    [a]: 1\n";
    assert!(matches!(
        parameters_of(text, "n"),
        Err(RclYamlError::BadKey { .. })
    ));
    assert!(matches!(
        parameters_of("n: [", "n"),
        Err(RclYamlError::Yaml(_))
    ));
    // Nesting is bounded, not recursed without limit.
    let deep = format!(
        "n:\n  ros__parameters: {}1{}\n",
        "{a: ".repeat(200),
        "}".repeat(200)
    );
    assert_eq!(parameters_of(&deep, "n"), Err(RclYamlError::TooDeep));
}

#[test]
fn names_are_dotted_and_entries_chosen_and_merged() {
    let text = "\
other:\n  ros__parameters: {a: 1}\n\
n:\n  ros__parameters:\n    z: {type: polygon, v: {points: '[]', w: 2}}\n    a: 1\n\
robot1:\n  n:\n    ros__parameters: {a: 3}\n\
n:\n  ros__parameters: {z: {type: circle}, b: 4}\n";
    // serde_yaml would refuse the duplicate key `n`; rcl merges the two.
    let values = parameters_of(text, "n").unwrap();
    let expected = [
        ("z.type", string("circle")),
        ("z.v.points", string("[]")),
        ("z.v.w", Value::Integer(2)),
        ("a", Value::Integer(1)),
        ("b", Value::Integer(4)),
    ];
    let expected: Vec<_> = expected
        .into_iter()
        .map(|(n, v)| (n.to_owned(), v))
        .collect();
    assert_eq!(values, expected);
    assert_eq!(
        parameters_of(text, "robot1/n").unwrap(),
        [("a".to_owned(), Value::Integer(3))]
    );
    assert_eq!(parameters_of(text, "missing").unwrap(), []);
    // rcl takes any key starting with `ros__parameters` for it.
    let text = "n:\n  ros__parameters_x: {a: 1}\n";
    assert_eq!(parameters_of(text, "n").unwrap().len(), 1);
}

/// Random integers and doubles, each written in the forms rcl reads,
/// read back to the same value.
#[test]
fn random_numbers_read_back() {
    let mut rng = SplitMix64::new(0x5ca1a);
    for _ in 0..2_000 {
        let i = rng.next_u64() as i64 >> rng.below(64);
        let forms = [
            format!("{i}"),
            format!("{}0x{:x}", if i < 0 { "-" } else { "" }, i.unsigned_abs()),
            format!("{}0{:o}", if i < 0 { "-" } else { "" }, i.unsigned_abs()),
        ];
        for text in forms {
            assert_eq!(one(&text), Ok(Value::Integer(i)), "{text}");
        }
        let x = f64::from_bits(rng.next_u64());
        if !x.is_finite() || x.abs() < f64::MIN_POSITIVE {
            continue;
        }
        // `{:?}` keeps a point or an exponent: never an integer's text.
        for text in [format!("{x:?}"), format!("{x:e}"), format!("{x:E}")] {
            let expected = if text.contains(['.', 'e', 'E']) {
                Value::Double(x)
            } else {
                continue;
            };
            assert_eq!(one(&text), Ok(expected), "{text}");
        }
    }
}

/// An independent reading of a parameters file's entries through
/// `serde_yaml` (its typing agrees with rcl's on the spellings nav2's
/// files use: `true`/`false`, plain numbers, quoted points, lists of one
/// type), entry by entry: `(entry name, its parameters)`.
fn serde_reading(text: &str) -> Vec<(String, Vec<(String, Value)>)> {
    fn value(v: &serde_yaml::Value) -> Value {
        use serde_yaml::Value as Yaml;
        match v {
            Yaml::Bool(b) => Value::Bool(*b),
            Yaml::Number(n) => match n.as_i64() {
                Some(i) => Value::Integer(i),
                None => Value::Double(n.as_f64().expect("a number")),
            },
            Yaml::String(s) => Value::String(s.clone()),
            Yaml::Sequence(items) if items.is_empty() => Value::NotSet,
            Yaml::Sequence(items) => {
                let types: Vec<Value> = items.iter().map(value).collect();
                match &types[0] {
                    Value::String(_) => Value::StringArray(
                        items
                            .iter()
                            .map(|i| i.as_str().expect("strings only").to_owned())
                            .collect(),
                    ),
                    first => {
                        let same =
                            |v: &Value| std::mem::discriminant(v) == std::mem::discriminant(first);
                        assert!(types.iter().all(same), "one type: {v:?}");
                        Value::Other(match first {
                            Value::Bool(_) => "bool array",
                            Value::Integer(_) => "integer array",
                            _ => "double array",
                        })
                    }
                }
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    fn flatten(prefix: &str, v: &serde_yaml::Value, out: &mut Vec<(String, Value)>) {
        match v {
            serde_yaml::Value::Mapping(map) => {
                for (key, v) in map {
                    let key = key.as_str().expect("string keys");
                    let name = match prefix {
                        "" => key.to_owned(),
                        _ => format!("{prefix}.{key}"),
                    };
                    flatten(&name, v, out);
                }
            }
            other => out.push((prefix.to_owned(), value(other))),
        }
    }
    fn entries(path: &str, v: &serde_yaml::Value, out: &mut Vec<(String, Vec<(String, Value)>)>) {
        let Some(map) = v.as_mapping() else { return };
        for (key, v) in map {
            let key = key.as_str().expect("string keys");
            if key == "ros__parameters" {
                let mut values = Vec::new();
                flatten("", v, &mut values);
                out.push((path.to_owned(), values));
            } else if path.is_empty() {
                entries(key, v, out);
            } else {
                entries(&format!("{path}/{key}"), v, out);
            }
        }
    }
    let doc: serde_yaml::Value = serde_yaml::from_str(text).expect("YAML");
    let mut out = Vec::new();
    entries("", &doc, &mut out);
    out
}

#[test]
fn nav2_files_read_as_serde_yaml_reads_them() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for file in [
        "tests/data/nav2/nav2_params.yaml",
        "tests/data/nav2/collision_monitor_params.yaml",
        "config/collision_monitor.yaml",
        "config/sat_collision.yaml",
    ] {
        let text = std::fs::read_to_string(dir.join(file)).expect(file);
        let reference = serde_reading(&text);
        assert!(
            reference.len() > 1 || !file.contains("nav2_params"),
            "{file}: {} entries",
            reference.len()
        );
        for (node, values) in reference {
            assert!(!values.is_empty(), "{file} {node}");
            assert_eq!(
                parameters_of(&text, &node).expect(file),
                values,
                "{file} {node}"
            );
        }
    }
}
