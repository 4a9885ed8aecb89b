use super::*;

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
                     base_frame, transform_tolerance, input_reliability, \
                     velocity_topic, velocity_type, time_horizon, velocity_timeout";
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
            Kind::Bool { default, .. } => Value::Bool(!default),
            Kind::Text {
                default: "best_effort",
                ..
            } => Value::String("reliable".into()),
            Kind::Text {
                default: "odometry",
                ..
            } => Value::String("twist".into()),
            Kind::Text { .. } if spec.name == "velocity_topic" => Value::String("odom".into()),
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
