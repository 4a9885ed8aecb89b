use super::names::closest_name;
use super::*;
use crate::geometry::Shape;
use crate::monitor::{SourceKind, SourceSpec};

#[test]
fn defaults_match_documentation() {
    let c = NodeConfig::default();
    assert_eq!(c.monitor.footprint_timeout, 1.0);
    assert_eq!(c.monitor.obstacles_timeout, 1.0);
    assert!(c.monitor.fail_safe);
    assert_eq!(c.monitor.padding, 0.0);
    assert_eq!(c.publish_rate, 10.0);
    assert_eq!(c.monitor.exact_range, 5.0);
    assert_eq!(c.max_service_checks, 1e8);
    assert_eq!(
        c.monitor.overload_timeout,
        crate::monitor::DEFAULT_OVERLOAD_TIMEOUT
    );
    assert!(c.robot_shape().is_none());
}

#[test]
fn ranges_and_types_are_enforced() {
    let mut c = NodeConfig::default();
    let e = c.set("padding", &Value::Double(-0.1)).unwrap_err();
    assert_eq!(e.parameter, "padding");
    assert!(e.message.contains("[0, 5]"), "{e}");
    assert!(c.set("publish_rate", &Value::Double(0.0)).is_err());
    assert!(c.set("publish_rate", &Value::Double(f64::NAN)).is_err());
    assert!(c.set("fail_safe", &Value::String("yes".into())).is_err());
    assert!(c.set("padding", &Value::String("0.1".into())).is_err());
    assert!(c.set("bogus", &Value::Bool(true)).is_err());
    let e = c.set("bogus", &Value::Bool(true)).unwrap_err();
    assert_eq!(e.message, "no such parameter");
    assert_eq!(c, NodeConfig::default(), "a refused value changes nothing");
    c.set("padding", &Value::Integer(1)).unwrap();
    assert_eq!(c.monitor.padding, 1.0);
    c.set("fail_safe", &Value::Bool(false)).unwrap();
    assert!(!c.monitor.fail_safe);
}

#[test]
fn wrong_type_names_the_range() {
    let mut c = NodeConfig::default();
    let e = c.set("padding", &Value::String("0.1".into())).unwrap_err();
    assert_eq!(e.parameter, "padding");
    assert!(
        e.message.contains("[0, 5]") && e.message.contains("string"),
        "{e}"
    );
}

#[test]
fn unknown_names_are_refused_with_a_suggestion() {
    let e = NodeConfig::check_other("paddng", &Value::Double(0.1)).unwrap_err();
    assert_eq!(e.parameter, "paddng");
    assert!(e.message.contains("did you mean `padding`"), "{e}");
    let e = NodeConfig::check_other("zzzzzzzzzz", &Value::Bool(true)).unwrap_err();
    assert!(!e.message.contains("did you mean"), "{e}");
    assert!(e.message.contains("footprint_timeout"), "{e}");
    assert!(NodeConfig::check_other("use_sim_time", &Value::Bool(true)).is_ok());
    assert!(NodeConfig::check_other("use_sim_time", &Value::String("yes".into())).is_err());
    assert!(NodeConfig::check_other("start_type_description_service", &Value::Bool(true)).is_ok());
    assert!(NodeConfig::check_other(
        "qos_overrides./parameter_events.publisher.depth",
        &Value::Integer(5)
    )
    .is_ok());
}

#[test]
fn hint_is_the_closest_name_at_most_three_edits_away() {
    assert_eq!(closest_name("paddng"), Some("padding"));
    assert_eq!(closest_name("publish_rat"), Some("publish_rate"));
    assert_eq!(closest_name("FAIL_SAFE"), None);
    assert_eq!(closest_name("xxxding"), Some("padding"));
    assert_eq!(closest_name("xxxxing"), None);
    assert_eq!(closest_name(""), None);
}

#[test]
fn messages_are_the_documented_ones() {
    let mut c = NodeConfig::default();
    let message = |r: Result<(), ConfigError>| r.unwrap_err().message;
    assert_eq!(
        message(c.set("padding", &Value::Double(7.5))),
        "7.5 is outside the allowed range [0, 5]"
    );
    assert_eq!(
        message(c.set("obstacles_timeout", &Value::Integer(-1))),
        "-1 is outside the allowed range [0, 3600]"
    );
    assert_eq!(
        message(c.set("footprint_timeout", &Value::String("soon".into()))),
        "expected a number in [0, 3600], got string"
    );
    assert_eq!(
        message(c.set("markers_rate", &Value::Other("double array"))),
        "expected a number in [0, 100], got double array"
    );
    assert_eq!(
        message(c.set("max_service_checks", &Value::Double(0.5))),
        "0.5 is outside the allowed range [1, 1000000000000]"
    );
    assert_eq!(
        message(c.set("fail_safe", &Value::Integer(1))),
        "expected a bool, got integer"
    );
    assert_eq!(
        message(c.set("zones_file", &Value::Integer(5))),
        "expected a string, got integer"
    );
    // Frames as tf2 has them: no leading slash, no NUL.
    assert!(c
        .set("global_frame", &Value::String("/map".into()))
        .is_err());
    assert!(c
        .set("base_frame", &Value::String("base\0link".into()))
        .is_err());
    assert!(c.set("global_frame", &Value::String("map".into())).is_ok());
    assert!(c
        .set("input_reliability", &Value::String("sometimes".into()))
        .is_err());
    assert!(c
        .set("input_reliability", &Value::String("reliable".into()))
        .is_ok());
    assert_eq!(
        message(c.set("velocity_type", &Value::String("twist_msg".into()))),
        "must be odometry, twist or twist_stamped"
    );
    assert!(c
        .set("velocity_topic", &Value::String("a b".into()))
        .is_err());
    assert!(c
        .set("velocity_topic", &Value::String("/robot/odom".into()))
        .is_ok());
    let names = "footprint_timeout, obstacles_timeout, fail_safe, padding, \
                     publish_rate, markers_rate, zones_file, robot_footprint, \
                     robot_radius, exact_range, max_service_checks, global_frame, \
                     base_frame, transform_tolerance, input_reliability, robot_id, \
                     fleet_topic, fleet_frame, fleet_rate, fleet_timeout, \
                     fleet_clock_tolerance, max_linear_speed, max_angular_speed, \
                     velocity_topic, velocity_type, time_horizon, velocity_timeout, \
                     observation_sources, source_timeout, min_points, base_frame_id, \
                     odom_frame_id, cmd_vel_in_topic, cmd_vel_out_topic, state_topic, \
                     enable_stamped_cmd_vel, base_shift_correction, stop_pub_timeout, \
                     enabled, polygons, autostart, bond_heartbeat_period, hardware_id";
    assert_eq!(
        message(NodeConfig::check_other("paddng", &Value::Double(0.1))),
        format!("unknown parameter (did you mean `padding`?); the parameters are: {names}")
    );
    assert_eq!(
        message(NodeConfig::check_other(
            "colour",
            &Value::String("red".into())
        )),
        format!("unknown parameter; the parameters are: {names}")
    );
}

/// Each entry's accessors reach its own field and no other one's: set
/// every parameter in turn to a value other than its default and check
/// that only that parameter reads differently.
#[test]
fn each_entry_writes_its_own_field() {
    for spec in PARAMS {
        let other = match spec.kind {
            Kind::Number {
                default, min, max, ..
            } => Value::Double(if default == max { min } else { max }),
            Kind::Integer {
                default, min, max, ..
            } => Value::Integer(if default == max { min } else { max }),
            Kind::Bool { default, .. } => Value::Bool(!default),
            Kind::TextList { .. } => Value::StringArray(vec!["front".into()]),
            Kind::Text {
                default: "best_effort",
                ..
            } => Value::String("reliable".into()),
            Kind::Text {
                default: "odometry",
                ..
            } => Value::String("twist".into()),
            Kind::Text { .. } if spec.name.ends_with("_topic") => Value::String("odom".into()),
            Kind::Text { .. } => Value::String("[[0, 0], [1, 0], [0, 1]]".into()),
        };
        let mut c = NodeConfig::default();
        c.set(spec.name, &other).unwrap();
        assert_ne!(c, NodeConfig::default(), "{}", spec.name);
        for read in PARAMS {
            let expected = if read.name == spec.name {
                other.clone()
            } else {
                read.default_value()
            };
            assert_eq!(c.get(read.name), Some(expected), "set {}", spec.name);
        }
    }
}

#[test]
fn table_is_consistent() {
    let c = NodeConfig::default();
    for (i, spec) in PARAMS.iter().enumerate() {
        assert!(
            PARAMS[..i].iter().all(|s| s.name != spec.name),
            "{} twice",
            spec.name
        );
        assert_eq!(spec.get(&c), spec.default_value(), "{}", spec.name);
        // The default must itself be accepted.
        let mut d = NodeConfig::default();
        spec.set(&mut d, &spec.default_value()).unwrap();
        if let Some((lo, hi)) = spec.range() {
            assert!(lo <= hi, "{}", spec.name);
            // The description shows the range, however it spells the numbers.
            let shown = spec
                .description
                .rsplit_once('[')
                .and_then(|(_, r)| r.strip_suffix(']'))
                .and_then(|r| r.split_once(", "))
                .map(|(a, b)| (a.parse::<f64>(), b.parse::<f64>()));
            assert_eq!(
                shown,
                Some((Ok(lo), Ok(hi))),
                "{}: {}",
                spec.name,
                spec.description
            );
        }
    }
    assert_eq!(NodeConfig::default().get("bogus"), None);
}

#[test]
fn nav2_footprint_string() {
    let p = parse_footprint("[[0.5, 0.3], [-0.5, 0.3], [-0.5, -0.3], [0.5, -0.3]]").unwrap();
    assert_eq!(p.len(), 4);
    assert!(parse_footprint("[[0, 0], [1, 1]]").is_err());
    assert!(parse_footprint("[0.5, 0.3]").is_err());
    let mut c = NodeConfig::default();
    assert!(c
        .set("robot_footprint", &Value::String("[[0,0],[1,0]]".into()))
        .is_err());
    c.set("robot_radius", &Value::Double(0.3)).unwrap();
    assert!(matches!(c.robot_shape(), Some(Ok(Shape::Circle(_)))));
    c.set(
        "robot_footprint",
        &Value::String("[[0.5, 0.3], [-0.5, 0.3], [-0.5, -0.3], [0.5, -0.3]]".into()),
    )
    .unwrap();
    assert!(matches!(c.robot_shape(), Some(Ok(Shape::Convex(_)))));
}

// ---------------------------------------------------------------------------
// Sensor sources: observation_sources, source_timeout, min_points and the
// `<name>.<suffix>` table.

/// Start-up values from `(name, value)` pairs.
fn values(pairs: &[(&str, Value)]) -> Vec<(String, Value)> {
    pairs
        .iter()
        .map(|(name, value)| ((*name).to_owned(), value.clone()))
        .collect()
}

fn text(s: &str) -> Value {
    Value::String(s.to_owned())
}

fn list(names: &[&str]) -> Value {
    Value::StringArray(names.iter().map(|s| (*s).to_owned()).collect())
}

/// A configuration started with `pairs`, and its notes.
fn started(pairs: &[(&str, Value)]) -> Result<(NodeConfig, Vec<String>), ConfigError> {
    let mut c = NodeConfig::default();
    let notes = c.start_up(&values(pairs))?;
    Ok((c, notes))
}

#[test]
fn source_node_parameters_have_their_defaults_and_ranges() {
    let c = NodeConfig::default();
    assert!(c.observation_sources.is_empty());
    assert!(c.sources.is_empty() && c.monitor.sources.is_empty());
    assert_eq!(c.source_timeout, 2.0, "nav2's default");
    assert_eq!(c.monitor.min_points, 1);
    assert_eq!(c.get("min_points"), Some(Value::Integer(1)));
    assert_eq!(
        c.get("observation_sources"),
        Some(Value::StringArray(vec![]))
    );

    let mut c = NodeConfig::default();
    let message = |r: Result<(), ConfigError>| r.unwrap_err().message;
    assert_eq!(
        message(c.set("min_points", &Value::Double(2.5))),
        "2.5 is not a whole number: expected an integer in [1, 1000000]"
    );
    assert_eq!(
        message(c.set("min_points", &Value::Integer(0))),
        "0 is outside the allowed range [1, 1000000]"
    );
    assert_eq!(
        message(c.set("min_points", &Value::Double(1e7))),
        "10000000 is outside the allowed range [1, 1000000]"
    );
    assert_eq!(
        message(c.set("min_points", &Value::Double(f64::NAN))),
        "NaN is outside the allowed range [1, 1000000]"
    );
    assert_eq!(
        message(c.set("min_points", &text("3"))),
        "expected an integer in [1, 1000000], got string"
    );
    assert_eq!(
        message(c.set("source_timeout", &Value::Double(-1.0))),
        "-1 is outside the allowed range [0, 3600]"
    );
    assert_eq!(
        message(c.set("observation_sources", &text("scan"))),
        "expected a list of strings, got string"
    );
    assert_eq!(c, NodeConfig::default(), "a refused value changes nothing");
    c.set("min_points", &Value::Double(3.0)).unwrap();
    assert_eq!(c.monitor.min_points, 3);
    assert_eq!(c.get("min_points"), Some(Value::Integer(3)));
    c.set("min_points", &Value::Integer(1_000_000)).unwrap();
    assert_eq!(c.monitor.min_points, 1_000_000);
    // rcl's reading of an empty YAML list.
    c.set("observation_sources", &Value::NotSet).unwrap();
    assert!(c.observation_sources.is_empty());
}

#[test]
fn source_names_are_checked() {
    let mut c = NodeConfig::default();
    let mut message = |names: Vec<String>| {
        c.set("observation_sources", &Value::StringArray(names))
            .unwrap_err()
            .message
    };
    assert_eq!(
        message(vec!["scan".into(), "scan".into()]),
        "source \"scan\" is listed twice"
    );
    assert_eq!(message(vec!["".into()]), "a source name is empty");
    assert_eq!(
        message(vec!["front-laser".into()]),
        "source name \"front-laser\": '-' is not allowed (letters, digits and _)"
    );
    assert!(message(vec!["a.b".into()]).contains("'.' is not allowed"));
    assert!(message(vec!["x".repeat(65)]).contains("longer than 64 bytes"));
    let many: Vec<String> = (0..=MAX_SOURCES).map(|i| format!("s{i}")).collect();
    assert_eq!(message(many), "33 sources; at most 32 are allowed");
    let most: Vec<String> = (0..MAX_SOURCES).map(|i| format!("s_{i}")).collect();
    let mut c = NodeConfig::default();
    c.set("observation_sources", &Value::StringArray(most.clone()))
        .unwrap();
    c.set("observation_sources", &list(&[&"x".repeat(64), "Front_2"]))
        .unwrap();
}

/// The source part of nav2 Jazzy's `collision_monitor_params.yaml`, as
/// rcl reads it (keys flattened with `.`), with both sources listed.
fn nav2_example() -> Vec<(&'static str, Value)> {
    vec![
        ("source_timeout", Value::Double(5.0)),
        ("observation_sources", list(&["scan", "pointcloud"])),
        ("scan.type", text("scan")),
        ("scan.topic", text("scan")),
        ("scan.enabled", Value::Bool(true)),
        ("pointcloud.type", text("pointcloud")),
        (
            "pointcloud.topic",
            text("/intel_realsense_r200_depth/points"),
        ),
        ("pointcloud.min_height", Value::Double(0.1)),
        ("pointcloud.max_height", Value::Double(0.5)),
        ("pointcloud.use_global_height", Value::Bool(false)),
        ("pointcloud.enabled", Value::Bool(true)),
        // nav2's base_frame_id: where cloud heights are compared.
        ("base_frame", text("base_footprint")),
    ]
}

#[test]
fn nav2_example_sources_are_read_unchanged() {
    let (c, notes) = started(&nav2_example()).unwrap();
    assert!(notes.is_empty(), "{notes:?}");
    let defaults = NodeConfig::default();
    let scan = SourceConfig {
        name: "scan".into(),
        kind: SourceKind::Scan,
        topic: "scan".into(),
        enabled: true,
        // The node's source_timeout, not the table's 2.0.
        timeout: 5.0,
        exclusion_zones: Vec::new(),
        min_height: 0.05,
        max_height: 0.5,
        min_range: 0.0,
        use_global_height: false,
        obstacles_angle: std::f64::consts::PI / 180.0,
        cost_threshold: 253,
        treat_unknown_as_obstacle: true,
    };
    let pointcloud = SourceConfig {
        name: "pointcloud".into(),
        kind: SourceKind::PointCloud,
        topic: "/intel_realsense_r200_depth/points".into(),
        min_height: 0.1,
        ..scan.clone()
    };
    assert_eq!(c.sources, [scan, pointcloud]);
    assert_eq!(
        c.monitor.sources,
        [
            SourceSpec {
                name: "scan".into(),
                kind: SourceKind::Scan,
                timeout: 5.0,
                enabled: true
            },
            SourceSpec {
                name: "pointcloud".into(),
                kind: SourceKind::PointCloud,
                timeout: 5.0,
                enabled: true
            },
        ]
    );
    // Nothing else moved.
    let mut expected = defaults;
    expected.source_timeout = 5.0;
    expected.monitor.base_frame = "base_footprint".into();
    expected.observation_sources = vec!["scan".into(), "pointcloud".into()];
    expected.sources = c.sources.clone();
    expected.monitor.sources = c.monitor.sources.clone();
    assert_eq!(c, expected);

    // nav2's file as it is: only `scan` listed, the `pointcloud` block
    // configured but not listed: ignored, with a note per key.
    let mut as_is = nav2_example();
    as_is[1].1 = list(&["scan"]);
    let (c, notes) = started(&as_is).unwrap();
    assert_eq!(c.sources.len(), 1);
    assert_eq!(notes.len(), 6, "{notes:?}");
    assert_eq!(
        notes[0],
        "pointcloud.type ignored: pointcloud is not in observation_sources"
    );
}

#[test]
fn source_defaults_are_nav2s() {
    let (c, notes) = started(&[
        (
            "observation_sources",
            list(&["front", "cloud", "sonar", "zone", "map", "peers"]),
        ),
        ("base_frame", text("base_link")),
        ("front.type", text("scan")),
        ("cloud.type", text("pointcloud")),
        ("sonar.type", text("range")),
        ("zone.type", text("polygon")),
        ("map.type", text("costmap")),
        ("peers.type", text("fleet")),
    ])
    .unwrap();
    assert!(notes.is_empty());
    let kinds: Vec<SourceKind> = c.sources.iter().map(|s| s.kind).collect();
    assert_eq!(kinds, SourceKind::ALL);
    for source in &c.sources {
        assert_eq!(source.topic, "scan", "nav2's default topic");
        assert!(source.enabled);
        assert_eq!(source.timeout, 2.0);
        assert_eq!(source.min_height, 0.05);
        assert_eq!(source.max_height, 0.5);
        assert_eq!(source.min_range, 0.0);
        assert!(!source.use_global_height);
        assert_eq!(source.obstacles_angle, std::f64::consts::PI / 180.0);
    }
    assert_eq!(c.get("sonar.obstacles_angle"), Some(Value::Double(PI_180)));
    assert_eq!(c.get("cloud.min_height"), Some(Value::Double(0.05)));
    assert_eq!(c.get("zone.type"), Some(text("polygon")));
    assert_eq!(c.get("map.cost_threshold"), Some(Value::Integer(253)));
    assert_eq!(
        c.get("map.treat_unknown_as_obstacle"),
        Some(Value::Bool(true))
    );
    // A parameter of another type is not the source's.
    assert_eq!(c.get("front.min_height"), None);
    assert_eq!(c.get("front.obstacles_angle"), None);
    assert_eq!(c.get("nowhere.topic"), None);
}

const PI_180: f64 = std::f64::consts::PI / 180.0;

#[test]
fn a_source_without_a_type_stops_start_up() {
    let e = started(&[("observation_sources", list(&["scan"]))]).unwrap_err();
    assert_eq!(e.parameter, "scan.type");
    assert_eq!(
        e.message,
        "source scan (in observation_sources) has no type: set scan.type to scan, \
         pointcloud, range, polygon, costmap or fleet"
    );
    let e = started(&[
        ("observation_sources", list(&["scan"])),
        ("scan.tpye", text("scan")),
    ])
    .unwrap_err();
    assert!(
        e.message.ends_with("(`scan.tpye` is given: a typo?)"),
        "{e}"
    );
    let e = started(&[
        ("observation_sources", list(&["scan"])),
        ("scan.type", text("laser")),
    ])
    .unwrap_err();
    assert_eq!(e.parameter, "scan.type");
    assert_eq!(
        e.message,
        "must be scan, pointcloud, range, polygon, costmap or fleet"
    );
}

#[test]
fn duplicate_source_names_stop_start_up() {
    let e = started(&[
        ("observation_sources", list(&["scan", "scan"])),
        ("scan.type", text("scan")),
    ])
    .unwrap_err();
    assert_eq!(e.parameter, "observation_sources");
    assert_eq!(e.message, "source \"scan\" is listed twice");
}

#[test]
fn source_values_are_checked_with_the_node_rules() {
    let base = [
        ("base_frame", text("base_link")),
        ("observation_sources", list(&["cloud"])),
        ("cloud.type", text("pointcloud")),
    ];
    let refused = |key: &str, value: Value| {
        let mut pairs = base.to_vec();
        pairs.push((key, value));
        started(&pairs).unwrap_err()
    };
    let e = refused("cloud.source_timeout", Value::Double(-1.0));
    assert_eq!(e.parameter, "cloud.source_timeout");
    assert_eq!(e.message, "-1 is outside the allowed range [0, 3600]");
    let e = refused("cloud.enabled", Value::Integer(1));
    assert_eq!(
        (e.parameter.as_str(), e.message.as_str()),
        ("cloud.enabled", "expected a bool, got integer")
    );
    let e = refused("cloud.min_height", text("low"));
    assert_eq!(e.message, "expected a number in [-100, 100], got string");
    let e = refused("cloud.topic", text(""));
    assert_eq!(e.message, "a source needs a topic");
    let e = refused("cloud.topic", text("a b"));
    assert_eq!(e.message, "' ' is not allowed in a topic name");
    let e = refused("cloud.min_range", Value::Double(-0.5));
    assert_eq!(e.message, "-0.5 is outside the allowed range [0, 1000]");
    let e = refused("cloud.min_height", Value::Double(0.6));
    assert_eq!(e.parameter, "cloud.min_height");
    assert_eq!(
        e.message,
        "0.6 is above cloud.max_height (0.5): no point would be kept"
    );
    // Integers for doubles, as for the node's parameters; equal heights
    // keep one slice.
    let mut pairs = base.to_vec();
    pairs.push(("cloud.min_height", Value::Integer(0)));
    pairs.push(("cloud.max_height", Value::Integer(0)));
    let (c, _) = started(&pairs).unwrap();
    assert_eq!(
        (c.sources[0].min_height, c.sources[0].max_height),
        (0.0, 0.0)
    );

    let e = started(&[
        ("observation_sources", list(&["sonar"])),
        ("sonar.type", text("range")),
        ("sonar.obstacles_angle", Value::Double(0.0)),
    ])
    .unwrap_err();
    assert_eq!(
        e.message,
        "0 is outside the allowed range [0.001, 3.141592653589793]"
    );
}

#[test]
fn source_typos_are_refused_with_a_hint() {
    let base = [
        ("base_frame", text("base_link")),
        ("observation_sources", list(&["scan", "cloud"])),
        ("scan.type", text("scan")),
        ("cloud.type", text("pointcloud")),
    ];
    let refused = |key: &str| {
        let mut pairs = base.to_vec();
        pairs.push((key, Value::Double(0.2)));
        let e = started(&pairs).unwrap_err();
        assert_eq!(e.parameter, key);
        e.message
    };
    assert_eq!(
        refused("cloud.min_heigth"),
        "unknown parameter of source cloud (did you mean `cloud.min_height`?); a \
         pointcloud source's parameters are: type, topic, enabled, source_timeout, \
         exclusion_zones, min_height, max_height, min_range, use_global_height, transport_type"
    );
    assert_eq!(
        refused("scan.topik"),
        "unknown parameter of source scan (did you mean `scan.topic`?); a scan source's \
         parameters are: type, topic, enabled, source_timeout, exclusion_zones"
    );
    assert_eq!(
        refused("scna.topic"),
        "unknown parameter: scna is not in observation_sources (did you mean `scan.topic`?)"
    );
    assert_eq!(
        refused("clod.min_heigth"),
        "unknown parameter: clod is not in observation_sources (did you mean \
         `cloud.min_height`?)"
    );
    assert_eq!(
        refused("clod.xyzzy_plugh"),
        "unknown parameter: clod is not in observation_sources (did you mean source `cloud`?)"
    );
    let far = refused("scan.zzzzzzzz");
    assert!(
        far.starts_with("unknown parameter of source scan; a scan"),
        "{far}"
    );
    // Not a source parameter at all, on a name that is no source (nor a
    // zone: `PolygonStop.points` would be an unlisted zone's).
    let other = refused("Elsewhere.colour");
    assert!(
        other.starts_with("unknown parameter; the parameters are: footprint_timeout"),
        "{other}"
    );
    // The node's own names keep their hints.
    assert!(refused("min_point").contains("did you mean `min_points`"));
    assert!(refused("observation_source").contains("did you mean `observation_sources`"));
}

#[test]
fn a_pointcloud_source_needs_base_frame() {
    let sources = [
        ("observation_sources", list(&["cloud"])),
        ("cloud.type", text("pointcloud")),
    ];
    let error = started(&sources).unwrap_err();
    assert_eq!(error.parameter, "cloud.type");
    assert!(error.message.contains("needs base_frame"), "{error}");
    let mut with_base = sources.to_vec();
    with_base.push(("base_frame", text("base_link")));
    assert!(started(&with_base).is_ok());
}

#[test]
fn names_nav2_accepts_are_ignored_with_a_note() {
    let (c, notes) = started(&[
        ("base_frame", text("base_link")),
        ("observation_sources", list(&["scan", "cloud", "zone"])),
        ("scan.type", text("scan")),
        ("scan.min_height", Value::Double(0.2)),
        ("cloud.type", text("pointcloud")),
        ("cloud.transport_type", text("raw")),
        ("cloud.obstacles_angle", Value::Double(0.1)),
        ("zone.type", text("polygon")),
        ("zone.sampling_distance", Value::Double(0.1)),
        ("other.topic", text("x")),
    ])
    .unwrap();
    assert_eq!(
        notes,
        [
            "scan.min_height ignored: min_height applies to pointcloud sources, scan is a \
             scan source",
            "cloud.obstacles_angle ignored: obstacles_angle applies to range sources, cloud \
             is a pointcloud source",
            "zone.sampling_distance ignored: nav2 reads it, this node does not",
            "other.topic ignored: other is not in observation_sources",
        ]
    );
    // Ignored: the scan source's heights keep their defaults.
    assert_eq!(c.sources[0].min_height, 0.05);
    assert_eq!(c.sources[1].obstacles_angle, PI_180);
    // Standard names still pass, and use_sim_time is still checked.
    assert!(started(&[("use_sim_time", Value::Bool(true))]).is_ok());
    assert!(started(&[("qos_overrides./tf.subscription.depth", Value::Integer(5))]).is_ok());
    assert!(started(&[("use_sim_time", text("yes"))]).is_err());
}

#[test]
fn a_pointcloud_transport_other_than_raw_is_refused() {
    let cloud = |transport: Option<&str>| {
        let mut pairs = vec![
            ("base_frame", text("base_link")),
            ("observation_sources", list(&["cloud", "scan"])),
            ("cloud.type", text("pointcloud")),
            ("scan.type", text("scan")),
        ];
        if let Some(t) = transport {
            pairs.push(("cloud.transport_type", text(t)));
        }
        started(&pairs)
    };
    // nav2's default, given or not: read, no note.
    for given in [None, Some("raw")] {
        let (c, notes) = cloud(given).unwrap();
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(c.get("cloud.transport_type"), Some(text("raw")));
    }
    // nav2's compressed transports (its params file: "raw, zlib, draco,
    // zstd"), and any other name: refused, naming why.
    for other in ["zlib", "draco", "zstd", "", "RAW", "compressed"] {
        let e = cloud(Some(other)).unwrap_err();
        assert_eq!(e.parameter, "cloud.transport_type");
        assert!(
            e.message.contains("no point_cloud_transport")
                && e.message.contains(&format!("\"{other}\""))
                && e.message.contains("transport_type: raw"),
            "{e}"
        );
    }
    // A wrong type: refused too.
    let e = started(&[
        ("base_frame", text("base_link")),
        ("observation_sources", list(&["cloud"])),
        ("cloud.type", text("pointcloud")),
        ("cloud.transport_type", Value::Bool(true)),
    ])
    .unwrap_err();
    assert_eq!(e.parameter, "cloud.transport_type");
    // Another source type's: ignored with a note, as nav2 reads it only for
    // a pointcloud.
    let (_, notes) = started(&[
        ("observation_sources", list(&["scan"])),
        ("scan.type", text("scan")),
        ("scan.transport_type", text("zlib")),
    ])
    .unwrap();
    assert_eq!(
        notes,
        [
            "scan.transport_type ignored: transport_type applies to pointcloud sources, scan is \
          a scan source"
        ]
    );
    // Start-up only.
    let (c, _) = cloud(None).unwrap();
    assert_eq!(c.runtime("cloud.transport_type"), Some(false));
    assert_eq!(c.runtime("scan.transport_type"), None);
}

#[test]
fn only_enabled_and_min_points_change_at_run_time() {
    let (mut c, _) = started(&nav2_example()).unwrap();
    assert_eq!(c.runtime("scan.enabled"), Some(true));
    assert_eq!(c.runtime("min_points"), Some(true));
    for name in [
        "scan.type",
        "scan.topic",
        "scan.source_timeout",
        "pointcloud.min_height",
        "pointcloud.max_height",
        "pointcloud.min_range",
        "pointcloud.use_global_height",
        "observation_sources",
        "source_timeout",
    ] {
        assert_eq!(c.runtime(name), Some(false), "{name}");
    }
    assert_eq!(c.runtime("scan.min_height"), None, "not a scan source's");
    assert_eq!(c.runtime("lidar.enabled"), None);

    // `enabled` reaches the monitor's copy, and only that source's.
    c.set("pointcloud.enabled", &Value::Bool(false)).unwrap();
    assert!(!c.sources[1].enabled && c.sources[0].enabled);
    assert_eq!(
        c.monitor
            .sources
            .iter()
            .map(|s| s.enabled)
            .collect::<Vec<_>>(),
        [true, false]
    );
    assert_eq!(c.get("pointcloud.enabled"), Some(Value::Bool(false)));
    let before = c.clone();
    let e = c.set("scan.enabled", &text("no")).unwrap_err();
    assert_eq!(e.parameter, "scan.enabled");
    assert_eq!(c, before, "a refused value changes nothing");
    c.set("min_points", &Value::Integer(4)).unwrap();
    assert_eq!(c.monitor.min_points, 4);
    assert_eq!(
        c.set("scan.min_height", &Value::Double(0.1))
            .unwrap_err()
            .message,
        "no such parameter"
    );
}

/// Every source parameter's accessors reach its own field: set each to a
/// value other than its default on a source of a type it applies to, and
/// check that only it reads differently.
#[test]
fn each_source_entry_writes_its_own_field() {
    let node = NodeConfig::default();
    for param in SOURCE_PARAMS {
        // Its one accepted value is its default: it writes nothing
        // (`a_pointcloud_transport_other_than_raw_is_refused`).
        if param.spec.name == "transport_type" {
            continue;
        }
        let kind = param.kinds[0];
        let other = match param.spec.kind {
            Kind::Number {
                default, min, max, ..
            } => Value::Double(if default == max { min } else { max }),
            Kind::Integer {
                default, min, max, ..
            } => Value::Integer(if default == max { min } else { max }),
            Kind::Bool { default, .. } => Value::Bool(!default),
            Kind::Text { .. } if param.spec.name == "type" => text("range"),
            Kind::Text { .. } => text("/front/points"),
            Kind::TextList { .. } => Value::StringArray(vec!["dock".to_owned()]),
        };
        let fresh = SourceConfig::new("s", kind, &node);
        let mut source = fresh.clone();
        param.spec.set(&mut source, &other).unwrap();
        assert_ne!(source, fresh, "{}", param.spec.name);
        for read in SOURCE_PARAMS {
            let expected = if read.spec.name == param.spec.name {
                other.clone()
            } else {
                read.spec.get(&fresh)
            };
            assert_eq!(read.spec.get(&source), expected, "set {}", param.spec.name);
        }
    }
}

#[test]
fn source_table_is_consistent() {
    let node = NodeConfig::default();
    for (i, param) in SOURCE_PARAMS.iter().enumerate() {
        let spec = &param.spec;
        assert!(
            SOURCE_PARAMS[..i].iter().all(|p| p.spec.name != spec.name),
            "{} twice",
            spec.name
        );
        assert!(!param.kinds.is_empty(), "{}", spec.name);
        assert!(
            !NAV2_ONLY_SOURCE_PARAMS.contains(&spec.name),
            "{} both read and ignored",
            spec.name
        );
        let source = SourceConfig::new("s", param.kinds[0], &node);
        // `type` has no default; every other default is accepted.
        if spec.name != "type" {
            assert_eq!(spec.get(&source), spec.default_value(), "{}", spec.name);
            let mut copy = source.clone();
            spec.set(&mut copy, &spec.default_value()).unwrap();
        }
        assert!(spec.description.contains("start-up only") != spec.runtime);
        if let Some((lo, hi)) = spec.range() {
            let shown = spec
                .description
                .rsplit_once('[')
                .and_then(|(_, r)| r.strip_suffix(']'))
                .and_then(|r| r.split_once(", "))
                .map(|(a, b)| (a.parse::<f64>(), b.parse::<f64>()));
            assert_eq!(shown, Some((Ok(lo), Ok(hi))), "{}", spec.description);
        }
        // A default taken from the node: the same type and range.
        if let Some(name) = param.default_from {
            let from = super::param(name).expect("a node parameter");
            assert_eq!(from.range(), spec.range(), "{}", spec.name);
            assert_eq!(
                std::mem::discriminant(&from.default_value()),
                std::mem::discriminant(&spec.default_value())
            );
            assert_eq!(from.default_value(), spec.default_value(), "nav2's default");
        }
    }
    // Only `enabled` changes at run time (nav2's dynamic parameter).
    let runtime: Vec<&str> = SOURCE_PARAMS
        .iter()
        .filter(|p| p.spec.runtime)
        .map(|p| p.spec.name)
        .collect();
    assert_eq!(runtime, ["enabled"]);
}

// The gate: its node parameters and the zones (`polygons`, `<zone>.<suffix>`).
mod zones;

// The sources' exclusion zones (`<source>.exclusion_zones`, `<zone>.<suffix>`).
mod exclusion;
