//! The gate's parameters: its node parameters, `polygons` and each zone's
//! `<zone>.<suffix>` ([`ZONE_PARAMS`], [`VELOCITY_SHAPE_PARAMS`]), on nav2's
//! own parameters files (`tests/data/nav2/`) and on every error path.

use super::{list, started, text, values};
use crate::config::zones::{velocity_shape, SHAPE_SUFFIXES};
use crate::config::*;
use crate::gate::{Action, GateConfig, VelocityShape, ZoneConfig, ZoneShape};
use crate::geometry::Point;
use std::f64::consts::PI;

// ---------------------------------------------------------------------------
// nav2's files, read as rcl reads a parameters file ([`parameters_of`]).

/// The parameters `node` gets from the file `tests/data/nav2/<file>`.
fn nav2_file(file: &str, node: &str) -> Vec<(String, Value)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/nav2")
        .join(file);
    let yaml = std::fs::read_to_string(&path).expect("nav2's file");
    let out = parameters_of(&yaml, node).expect("rcl reads it");
    assert!(!out.is_empty(), "{file} has {node}");
    out
}

/// `values` with `name` set to `value` (replaced, or added at the end).
fn with(mut values: Vec<(String, Value)>, name: &str, value: Value) -> Vec<(String, Value)> {
    match values.iter_mut().find(|(n, _)| n == name) {
        Some(entry) => entry.1 = value,
        None => values.push((name.to_owned(), value)),
    }
    values
}

fn start(values: &[(String, Value)]) -> Result<(NodeConfig, Vec<String>), ConfigError> {
    let mut config = NodeConfig::default();
    let notes = config.start_up(values)?;
    Ok((config, notes))
}

fn points(xy: &[(f64, f64)]) -> Vec<Point> {
    xy.iter().map(|&(x, y)| Point::new(x, y)).collect()
}

fn square(half: f64) -> Vec<Point> {
    points(&[(half, half), (half, -half), (-half, -half), (-half, half)])
}

/// The gate's node parameters in both nav2 files (the same but for
/// `stop_pub_timeout`, equal too) with `zones`.
fn nav2_gate(zones: Vec<ZoneConfig>) -> GateConfig {
    GateConfig {
        enabled: true,
        base_frame: "base_footprint".into(),
        odom_frame: "odom".into(),
        base_shift_correction: true,
        stop_pub_timeout: 2.0,
        cmd_vel_in_topic: "cmd_vel_smoothed".into(),
        cmd_vel_out_topic: "cmd_vel".into(),
        state_topic: "collision_monitor_state".into(),
        stamped: false,
        zones,
    }
}

#[test]
fn nav2_bringup_params_start_up_unchanged() {
    let values = nav2_file("nav2_params.yaml", "collision_monitor");
    let (c, notes) = start(&values).unwrap();
    let approach = ZoneConfig {
        footprint_topic: "/local_costmap/published_footprint".into(),
        time_before_collision: 1.2,
        min_points: 6,
        ..ZoneConfig::new(
            "FootprintApproach",
            ZoneShape::Dynamic { circle: false },
            Action::Approach,
            1,
        )
    };
    assert_eq!(c.gate, nav2_gate(vec![approach]));
    assert_eq!(
        notes,
        [
            "FootprintApproach.simulation_time_step ignored: nav2 steps its approach simulation \
             by it; the approach here is exact",
            "scan.min_height ignored: min_height applies to pointcloud sources, scan is a scan \
             source",
            "scan.max_height ignored: max_height applies to pointcloud sources, scan is a scan \
             source",
        ]
    );
    // The node's own meanings of the shared names.
    assert_eq!(c.monitor.base_frame, "base_footprint", "from base_frame_id");
    assert_eq!(c.monitor.transform_tolerance, 0.2);
    assert_eq!(c.source_timeout, 1.0);
    assert_eq!(c.sources.len(), 1);
    assert_eq!(c.sources[0].timeout, 1.0);
    assert_eq!(c.polygons, ["FootprintApproach"]);
    // Read back as given.
    assert_eq!(
        c.get("FootprintApproach.footprint_topic"),
        Some(text("/local_costmap/published_footprint"))
    );
    assert_eq!(c.get("FootprintApproach.points"), Some(text("")));
    assert_eq!(c.get("FootprintApproach.simulation_time_step"), None);
}

#[test]
fn collision_monitor_params_start_up_unchanged() {
    let values = nav2_file("collision_monitor_params.yaml", "collision_monitor");
    let (c, notes) = start(&values).unwrap();
    let stop = ZoneConfig {
        visualize: true,
        polygon_pub_topic: "polygon_stop".into(),
        ..ZoneConfig::new(
            "PolygonStop",
            ZoneShape::Polygon(points(&[(0.3, 0.3), (0.3, -0.3), (0.0, -0.3), (0.0, 0.3)])),
            Action::Stop,
            1,
        )
    };
    assert_eq!(c.gate, nav2_gate(vec![stop]));
    let mut expected: Vec<String> = ["PolygonSlow", "PolygonLimit", "FootprintApproach"]
        .iter()
        .chain(&["VelocityPolygonStop"])
        .map(|zone| format!("{zone}.* ignored: {zone} is not in polygons"))
        .collect();
    for key in [
        "type",
        "topic",
        "min_height",
        "max_height",
        "use_global_height",
        "enabled",
    ] {
        expected.push(format!(
            "pointcloud.{key} ignored: pointcloud is not in observation_sources"
        ));
    }
    assert_eq!(notes, expected);
    assert_eq!(c.monitor.transform_tolerance, 0.5);
    assert_eq!(c.source_timeout, 5.0);
    assert_eq!(c.monitor.base_frame, "base_footprint");
    assert_eq!(
        c.get("PolygonStop.points"),
        Some(text("[[0.3, 0.3], [0.3, -0.3], [0, -0.3], [0, 0.3]]"))
    );
}

/// nav2's example file with every zone it defines listed, and both sources.
#[test]
fn collision_monitor_params_with_every_zone_listed() {
    let values = nav2_file("collision_monitor_params.yaml", "collision_monitor");
    let values = with(
        values,
        "polygons",
        list(&[
            "PolygonStop",
            "PolygonSlow",
            "PolygonLimit",
            "FootprintApproach",
            "VelocityPolygonStop",
        ]),
    );
    let values = with(values, "observation_sources", list(&["scan", "pointcloud"]));
    let (c, notes) = start(&values).unwrap();
    assert_eq!(
        notes,
        [
            "FootprintApproach.simulation_time_step ignored: nav2 steps its approach simulation \
          by it; the approach here is exact"
        ]
    );
    let zone =
        |name: &str, shape: ZoneShape, action: Action| ZoneConfig::new(name, shape, action, 2);
    let shape = |name: &str, xy: &[(f64, f64)], linear: (f64, f64)| VelocityShape {
        name: name.into(),
        points: points(xy),
        linear_min: linear.0,
        linear_max: linear.1,
        theta_min: -1.0,
        theta_max: 1.0,
        direction_start: -PI,
        direction_end: PI,
    };
    let expected = vec![
        ZoneConfig {
            visualize: true,
            polygon_pub_topic: "polygon_stop".into(),
            ..zone(
                "PolygonStop",
                ZoneShape::Polygon(points(&[(0.3, 0.3), (0.3, -0.3), (0.0, -0.3), (0.0, 0.3)])),
                Action::Stop,
            )
        },
        ZoneConfig {
            slowdown_ratio: 0.3,
            visualize: true,
            polygon_pub_topic: "polygon_slowdown".into(),
            ..zone(
                "PolygonSlow",
                ZoneShape::Polygon(square(0.4)),
                Action::Slowdown,
            )
        },
        ZoneConfig {
            linear_limit: 0.4,
            angular_limit: 0.5,
            visualize: true,
            polygon_pub_topic: "polygon_limit".into(),
            ..zone(
                "PolygonLimit",
                ZoneShape::Polygon(square(0.5)),
                Action::Limit,
            )
        },
        ZoneConfig {
            footprint_topic: "/local_costmap/published_footprint".into(),
            min_points: 6,
            ..zone(
                "FootprintApproach",
                ZoneShape::Dynamic { circle: false },
                Action::Approach,
            )
        },
        ZoneConfig {
            min_points: 6,
            visualize: true,
            polygon_pub_topic: "velocity_polygon_stop".into(),
            ..zone(
                "VelocityPolygonStop",
                ZoneShape::Velocity {
                    holonomic: false,
                    shapes: vec![
                        shape(
                            "rotation",
                            &[(0.3, 0.3), (0.3, -0.3), (-0.3, -0.3), (-0.3, 0.3)],
                            (0.0, 0.05),
                        ),
                        shape(
                            "translation_forward",
                            &[(0.35, 0.3), (0.35, -0.3), (-0.2, -0.3), (-0.2, 0.3)],
                            (0.0, 1.0),
                        ),
                        shape(
                            "translation_backward",
                            &[(0.2, 0.3), (0.2, -0.3), (-0.35, -0.3), (-0.35, 0.3)],
                            (-1.0, 0.0),
                        ),
                        shape(
                            "stopped",
                            &[(0.25, 0.25), (0.25, -0.25), (-0.25, -0.25), (-0.25, 0.25)],
                            (-1.0, 1.0),
                        ),
                    ],
                },
                Action::Stop,
            )
        },
    ];
    assert_eq!(c.gate, nav2_gate(expected));
    assert_eq!(c.gate.zones[4].sources, [0, 1]);
    assert_eq!(
        c.get("VelocityPolygonStop.velocity_polygons"),
        Some(list(&[
            "rotation",
            "translation_forward",
            "translation_backward",
            "stopped"
        ]))
    );
    assert_eq!(
        c.get("VelocityPolygonStop.rotation.linear_max"),
        Some(Value::Double(0.05))
    );
    assert_eq!(
        c.get("VelocityPolygonStop.stopped.points"),
        Some(text(
            "[[0.25, 0.25], [0.25, -0.25], [-0.25, -0.25], [-0.25, 0.25]]"
        ))
    );
    // Not holonomic: no direction angles.
    assert_eq!(
        c.get("VelocityPolygonStop.rotation.direction_start_angle"),
        None
    );
    // The cloud's heights are compared in nav2's base_frame_id.
    assert_eq!(c.monitor.base_frame, "base_footprint");
}

// ---------------------------------------------------------------------------
// The node parameters.

#[test]
fn gate_node_parameters_have_nav2s_defaults() {
    let c = NodeConfig::default();
    assert_eq!(c.gate, GateConfig::default());
    assert!(c.polygons.is_empty());
    for (name, value) in [
        ("base_frame_id", text("base_footprint")),
        ("odom_frame_id", text("odom")),
        ("cmd_vel_in_topic", text("cmd_vel_smoothed")),
        ("cmd_vel_out_topic", text("cmd_vel")),
        ("state_topic", text("")),
        ("base_shift_correction", Value::Bool(true)),
        ("stop_pub_timeout", Value::Double(1.0)),
        ("enable_stamped_cmd_vel", Value::Bool(false)),
        ("enabled", Value::Bool(true)),
        ("polygons", Value::StringArray(vec![])),
    ] {
        assert_eq!(c.get(name), Some(value), "{name}");
        assert_eq!(c.runtime(name), Some(name == "enabled"), "{name}");
    }
    // nav2's is 0.1; this node's stays, and says so.
    let tolerance = param("transform_tolerance").unwrap();
    assert_eq!(
        c.monitor.transform_tolerance,
        crate::monitor::DEFAULT_TRANSFORM_TOLERANCE
    );
    assert!(tolerance.description.contains("nav2's default is 0.1"));
    // Without base_frame_id given, base_frame keeps its own default.
    let (c, _) = started(&[]).unwrap();
    assert_eq!(c.monitor.base_frame, "");
}

#[test]
fn gate_node_values_are_checked() {
    let mut c = NodeConfig::default();
    let message =
        |c: &mut NodeConfig, name: &str, value: Value| c.set(name, &value).unwrap_err().message;
    assert_eq!(
        message(&mut c, "stop_pub_timeout", Value::Double(-1.0)),
        "-1 is outside the allowed range [0, 3600]"
    );
    assert_eq!(
        message(&mut c, "cmd_vel_in_topic", text("")),
        "the gate needs this topic: it cannot be empty"
    );
    assert_eq!(
        message(&mut c, "cmd_vel_out_topic", text("cmd vel")),
        "' ' is not allowed in a topic name"
    );
    assert_eq!(
        message(&mut c, "base_frame_id", text("")),
        "the gate needs this frame: it cannot be empty"
    );
    assert!(message(&mut c, "odom_frame_id", text("/odom")).contains("no leading slash"));
    assert_eq!(
        message(&mut c, "enabled", Value::Integer(1)),
        "expected a bool, got integer"
    );
    assert_eq!(c, NodeConfig::default(), "a refused value changes nothing");
    c.set("state_topic", &text("collision_monitor_state"))
        .unwrap();
    c.set("enable_stamped_cmd_vel", &Value::Bool(true)).unwrap();
    c.set("enabled", &Value::Bool(false)).unwrap();
    assert_eq!(c.gate.state_topic, "collision_monitor_state");
    assert!(c.gate.stamped && !c.gate.enabled);
}

#[test]
fn base_frame_id_is_base_frame_unless_that_is_given() {
    let zone = [
        ("polygons", list(&["Stop"])),
        ("Stop.type", text("polygon")),
        (
            "Stop.points",
            text("[[0.3, 0.3], [0.3, -0.3], [0.0, -0.3]]"),
        ),
        ("Stop.action_type", text("stop")),
    ];
    let with_zone = |more: &[(&str, Value)]| {
        let mut all: Vec<(&str, Value)> = zone.to_vec();
        all.extend(more.iter().cloned());
        started(&all)
    };
    let (c, _) = with_zone(&[("base_frame_id", text("base_link"))]).unwrap();
    assert_eq!(
        (c.gate.base_frame.as_str(), c.monitor.base_frame.as_str()),
        ("base_link", "base_link")
    );
    // An empty base_frame is no frame: base_frame_id fills it.
    let (c, _) = with_zone(&[
        ("base_frame", text("")),
        ("base_frame_id", text("base_link")),
    ])
    .unwrap();
    assert_eq!(c.monitor.base_frame, "base_link");
    // Without zones or a pointcloud source, base_frame_id is the gate's
    // alone: a file listing every default changes nothing.
    let (c, _) = started(&[
        ("base_frame", text("")),
        ("base_frame_id", text("base_footprint")),
    ])
    .unwrap();
    assert_eq!(c.monitor.base_frame, "");
    let (c, _) = started(&[("base_frame", text("base_link"))]).unwrap();
    assert_eq!(c.monitor.base_frame, "base_link");
    assert_eq!(c.gate.base_frame, "base_footprint", "nav2's default");
    let (c, _) = with_zone(&[
        ("base_frame", text("base_link")),
        ("base_frame_id", text("base_link")),
    ])
    .unwrap();
    assert_eq!(c.monitor.base_frame, "base_link");
    let e = with_zone(&[
        ("base_frame", text("base_link")),
        ("base_frame_id", text("base_footprint")),
    ])
    .unwrap_err();
    assert_eq!(e.parameter, "base_frame");
    assert!(
        e.message.contains("\"base_link\"")
            && e.message.contains("base_frame_id (\"base_footprint\")"),
        "{e}"
    );
    // nav2's pointcloud source needs no base_frame with base_frame_id.
    assert!(started(&[
        ("base_frame_id", text("base_footprint")),
        ("observation_sources", list(&["cloud"])),
        ("cloud.type", text("pointcloud")),
    ])
    .is_ok());
}

#[test]
fn nav2_node_names_this_node_does_not_read_are_noted() {
    let (_, notes) = started(&[
        ("use_realtime_priority", Value::Bool(true)),
        ("bond_heartbeat_period", Value::Double(0.1)),
        ("autostart_node", Value::Bool(true)),
        ("collision_points_marker_3d", Value::Bool(true)),
    ])
    .unwrap();
    assert_eq!(
        notes,
        [
            "use_realtime_priority ignored: nav2 reads it, this node does not raise its threads' \
             priority",
            "autostart_node ignored: nav2's name; this node's is `autostart` (default true)",
            "collision_points_marker_3d ignored: nav2 main keeps its collision point markers' \
             heights with it; this node's points and markers are planar",
        ]
    );
    // Other unknown node names still stop start-up, with a hint.
    let e = started(&[("base_frame_ic", text("base_link"))]).unwrap_err();
    assert!(e.message.contains("did you mean `base_frame_id`"), "{e}");
    let e = started(&[("polygon", list(&["a"]))]).unwrap_err();
    assert!(e.message.contains("did you mean `polygons`"), "{e}");
    assert!(started(&[("colour", text("red"))]).is_err());
}

#[test]
fn zone_names_are_checked() {
    let mut c = NodeConfig::default();
    let mut message = |names: Vec<String>| {
        c.set("polygons", &Value::StringArray(names))
            .unwrap_err()
            .message
    };
    assert_eq!(
        message(vec!["Stop".into(), "Stop".into()]),
        "zone \"Stop\" is listed twice"
    );
    assert_eq!(message(vec!["".into()]), "a zone name is empty");
    assert_eq!(
        message(vec!["stop-zone".into()]),
        "zone name \"stop-zone\": '-' is not allowed (letters, digits and _)"
    );
    assert!(message(vec!["x".repeat(65)]).contains("longer than 64 bytes"));
    let many: Vec<String> = (0..=MAX_ZONES).map(|i| format!("z{i}")).collect();
    assert_eq!(message(many), "33 zones; at most 32 are allowed");
    // rcl's empty list: no gate.
    let (c, _) = started(&[("polygons", Value::NotSet)]).unwrap();
    assert!(c.gate.zones.is_empty());

    let e = started(&[
        ("observation_sources", list(&["scan"])),
        ("scan.type", text("scan")),
        ("polygons", list(&["scan"])),
        ("scan.action_type", text("stop")),
    ])
    .unwrap_err();
    assert_eq!(e.parameter, "polygons");
    assert!(
        e.message.contains("zone scan has the name of a source"),
        "{e}"
    );
}

// ---------------------------------------------------------------------------
// Zones: type, action, shape.

/// One source, `scan`, `polygons: [<zone>]` and the zone's
/// `<zone>.<suffix>` pairs.
fn zone_values(zone: &str, pairs: &[(&str, Value)]) -> Vec<(String, Value)> {
    let mut out = values(&[
        ("observation_sources", list(&["scan"])),
        ("scan.type", text("scan")),
        ("polygons", list(&[zone])),
    ]);
    out.extend(
        pairs
            .iter()
            .map(|(suffix, value)| (format!("{zone}.{suffix}"), value.clone())),
    );
    out
}

/// A stop zone `Z` with a triangle, `pairs` replacing or adding to it.
fn stop_zone(pairs: &[(&str, Value)]) -> Vec<(String, Value)> {
    let mut out = zone_values(
        "Z",
        &[
            ("type", text("polygon")),
            ("action_type", text("stop")),
            ("points", text("[[0, 0], [1, 0], [0, 1]]")),
        ],
    );
    for (suffix, value) in pairs {
        out = with(out, &format!("Z.{suffix}"), value.clone());
    }
    out
}

fn only_zone(values: &[(String, Value)]) -> (ZoneConfig, Vec<String>) {
    let (c, notes) = start(values).unwrap();
    assert_eq!(c.gate.zones.len(), 1);
    (c.gate.zones[0].clone(), notes)
}

#[test]
fn a_zone_needs_a_type_and_an_action() {
    let e = start(&zone_values("Z", &[("action_type", text("stop"))])).unwrap_err();
    assert_eq!(e.parameter, "Z.type");
    assert_eq!(
        e.message,
        "zone Z (in polygons) has no type: set Z.type to polygon, circle or velocity_polygon"
    );
    let e = start(&zone_values(
        "PolygonStop",
        &[("type", text("polygon")), ("action_typ", text("stop"))],
    ))
    .unwrap_err();
    assert_eq!(e.parameter, "PolygonStop.action_type");
    assert_eq!(
        e.message,
        "zone PolygonStop (in polygons) has no action_type: set PolygonStop.action_type to \
         stop, slowdown, limit, approach or none (`PolygonStop.action_typ` is given: did you \
         mean `PolygonStop.action_type`?)"
    );
    let e = start(&zone_values(
        "Z",
        &[("type", text("square")), ("action_type", text("stop"))],
    ))
    .unwrap_err();
    assert_eq!(
        (e.parameter.as_str(), e.message.as_str()),
        ("Z.type", "must be polygon, circle or velocity_polygon")
    );
    let e = start(&zone_values(
        "Z",
        &[("type", text("polygon")), ("action_type", text("halt"))],
    ))
    .unwrap_err();
    assert_eq!(e.parameter, "Z.action_type");
    assert!(e.message.contains("unknown action_type \"halt\""), "{e}");
    for action in ["stop", "slowdown", "limit", "approach", "none"] {
        let values = stop_zone(&[("action_type", text(action))]);
        assert_eq!(only_zone(&values).0.action.as_str(), action);
    }
}

#[test]
fn zone_points_are_a_usable_polygon() {
    // A triangle: nav2 itself wrongly asks for 4 points; it is a zone here.
    let (zone, notes) = only_zone(&stop_zone(&[]));
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(
        zone.shape,
        ZoneShape::Polygon(points(&[(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)]))
    );
    // A concave one too.
    let concave = "[[0, 0], [2, 0], [2, 2], [1, 0.5], [0, 2]]";
    let (zone, _) = only_zone(&stop_zone(&[("points", text(concave))]));
    assert!(matches!(zone.shape, ZoneShape::Polygon(ref p) if p.len() == 5));
    let refused = |points: Value| {
        let e = start(&stop_zone(&[("points", points)])).unwrap_err();
        assert_eq!(e.parameter, "Z.points", "{e}");
        e.message
    };
    assert!(refused(text("[[0, 0], [1, 0]]")).contains("at least 3 distinct points"));
    assert!(refused(text("[[0, 0], [1, 1], [1, 0], [0, 1]]")).contains("self-intersecting"));
    assert!(refused(text("[[0, 0], [1, 0], [2, 0]]")).contains("zero area"));
    assert!(refused(text("[[0, 0, 1], [1, 0], [0, 1]]")).starts_with("expected \"[[x, y]"));
    assert!(refused(text("0.3, 0.3")).starts_with("expected \"[[x, y]"));
    assert!(refused(Value::Other("double array")).contains("expected a string"));
}

#[test]
fn a_circle_zone_has_a_radius_above_zero() {
    let circle = |pairs: &[(&str, Value)]| {
        let mut all = vec![("type", text("circle")), ("action_type", text("slowdown"))];
        all.extend_from_slice(pairs);
        zone_values("C", &all)
    };
    let (zone, _) = only_zone(&circle(&[("radius", Value::Double(0.5))]));
    assert_eq!(zone.shape, ZoneShape::Circle(0.5));
    let (zone, _) = only_zone(&circle(&[("radius", Value::Integer(1))]));
    assert_eq!(zone.shape, ZoneShape::Circle(1.0));
    for zero in [Value::Double(0.0), Value::Integer(0)] {
        let e = start(&circle(&[("radius", zero)])).unwrap_err();
        assert_eq!(e.parameter, "C.radius");
        assert!(e.message.contains("must be more than 0"), "{e}");
    }
    let e = start(&circle(&[("radius", Value::Double(-1.0))])).unwrap_err();
    assert_eq!(e.message, "-1 is outside the allowed range [0, 1000]");
    // Without radius: from polygon_sub_topic, which is then required.
    let e = start(&circle(&[])).unwrap_err();
    assert_eq!(e.parameter, "C.polygon_sub_topic");
    assert_eq!(
        e.message,
        "zone C has neither radius nor polygon_sub_topic: set C.radius or C.polygon_sub_topic"
    );
    let (zone, _) = only_zone(&circle(&[
        ("polygon_sub_topic", text("radius")),
        ("polygon_subscribe_transient_local", Value::Bool(true)),
    ]));
    assert_eq!(zone.shape, ZoneShape::Dynamic { circle: true });
    assert_eq!(zone.polygon_sub_topic, "radius");
    assert!(zone.subscribe_transient_local);
}

#[test]
fn a_zone_without_points_takes_its_shape_from_a_topic() {
    let polygon = |action: &str, pairs: &[(&str, Value)]| {
        let mut all = vec![("type", text("polygon")), ("action_type", text(action))];
        all.extend_from_slice(pairs);
        zone_values("D", &all)
    };
    let e = start(&polygon("stop", &[])).unwrap_err();
    assert_eq!(e.parameter, "D.polygon_sub_topic");
    assert_eq!(
        e.message,
        "zone D has neither points nor polygon_sub_topic: set D.points or D.polygon_sub_topic"
    );
    // An empty points string is no points.
    let e = start(&polygon("stop", &[("points", text(""))])).unwrap_err();
    assert_eq!(e.parameter, "D.polygon_sub_topic");
    let (zone, notes) = only_zone(&polygon("stop", &[("polygon_sub_topic", text("zone"))]));
    assert!(notes.is_empty());
    assert_eq!(zone.shape, ZoneShape::Dynamic { circle: false });
    assert_eq!(
        (
            zone.polygon_sub_topic.as_str(),
            zone.footprint_topic.as_str()
        ),
        ("zone", "")
    );
    // An approach polygon without points: the footprint, nav2's topic by
    // default.
    let (zone, _) = only_zone(&polygon("approach", &[]));
    assert_eq!(zone.shape, ZoneShape::Dynamic { circle: false });
    assert_eq!(zone.footprint_topic, "local_costmap/published_footprint");
    let e = start(&polygon("approach", &[("footprint_topic", text(""))])).unwrap_err();
    assert_eq!(e.parameter, "D.footprint_topic");
    assert!(
        e.message
            .starts_with("zone D has neither points nor footprint_topic"),
        "{e}"
    );
    // With points, an approach zone has no footprint topic.
    let (zone, notes) = only_zone(&polygon(
        "approach",
        &[
            ("points", text("[[0, 0], [1, 0], [0, 1]]")),
            ("footprint_topic", text("footprint")),
        ],
    ));
    assert_eq!(zone.footprint_topic, "");
    assert_eq!(
        notes,
        [
            "D.footprint_topic ignored: footprint_topic applies to approach polygon zones without \
          points; D is a polygon zone with points, action_type approach"
        ]
    );
}

// ---------------------------------------------------------------------------
// Velocity zones.

fn velocity_zone(holonomic: bool, more: &[(&str, Value)]) -> Vec<(String, Value)> {
    let mut all = vec![
        ("type", text("velocity_polygon")),
        ("action_type", text("stop")),
        ("holonomic", Value::Bool(holonomic)),
        ("velocity_polygons", list(&["slow", "fast"])),
        (
            "slow.points",
            text("[[0.3, 0.3], [0.3, -0.3], [-0.3, -0.3], [-0.3, 0.3]]"),
        ),
        ("slow.linear_min", Value::Double(0.0)),
        ("slow.linear_max", Value::Double(0.5)),
        ("slow.theta_min", Value::Double(-1.0)),
        ("slow.theta_max", Value::Integer(1)),
        (
            "fast.points",
            text("[[1, 0.3], [1, -0.3], [-0.3, -0.3], [-0.3, 0.3]]"),
        ),
        ("fast.linear_min", Value::Double(0.5)),
        ("fast.linear_max", Value::Double(2.0)),
        ("fast.theta_min", Value::Double(-1.0)),
        ("fast.theta_max", Value::Double(1.0)),
    ];
    all.extend_from_slice(more);
    zone_values("V", &all)
}

#[test]
fn velocity_zones_read_their_shapes() {
    let (zone, notes) = only_zone(&velocity_zone(
        true,
        &[("fast.direction_start_angle", Value::Double(-1.5))],
    ));
    assert!(notes.is_empty(), "{notes:?}");
    let ZoneShape::Velocity { holonomic, shapes } = &zone.shape else {
        panic!("{:?}", zone.shape)
    };
    assert!(holonomic);
    let names: Vec<&str> = shapes.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["slow", "fast"]);
    assert_eq!(
        shapes[0],
        VelocityShape {
            name: "slow".into(),
            points: square(0.3),
            linear_min: 0.0,
            linear_max: 0.5,
            theta_min: -1.0,
            theta_max: 1.0,
            direction_start: -PI,
            direction_end: PI,
        }
    );
    assert_eq!(
        (shapes[1].direction_start, shapes[1].direction_end),
        (-1.5, PI)
    );

    // Not holonomic: the direction angles are nav2's to ignore.
    let (_, notes) = only_zone(&velocity_zone(
        false,
        &[("fast.direction_end_angle", Value::Double(1.0))],
    ));
    assert_eq!(
        notes,
        [
            "V.fast.direction_end_angle ignored: direction_end_angle applies to holonomic \
          velocity_polygon zones; V is not holonomic"
        ]
    );
    // A shape defined but not listed: one note for it.
    let (_, notes) = only_zone(&velocity_zone(
        false,
        &[
            ("spare.points", text("[[0, 0], [1, 0], [0, 1]]")),
            ("spare.linear_min", Value::Double(0.0)),
        ],
    ));
    assert_eq!(
        notes,
        ["V.spare.* ignored: spare is not in V.velocity_polygons"]
    );
    // Points and radius are not a velocity zone's.
    let (_, notes) = only_zone(&velocity_zone(false, &[("radius", Value::Double(1.0))]));
    assert_eq!(
        notes,
        [
            "V.radius ignored: radius applies to circle zones; V is a velocity_polygon zone, \
          action_type stop"
        ]
    );
}

#[test]
fn velocity_zone_errors_name_the_parameter() {
    let without = |key: &str| {
        let values: Vec<(String, Value)> = velocity_zone(false, &[])
            .into_iter()
            .filter(|(name, _)| name != key)
            .collect();
        start(&values).unwrap_err()
    };
    let e = without("V.velocity_polygons");
    assert_eq!(e.parameter, "V.velocity_polygons");
    assert_eq!(
        e.message,
        "zone V (in polygons) has no velocity_polygons: set V.velocity_polygons"
    );
    for suffix in [
        "points",
        "linear_min",
        "linear_max",
        "theta_min",
        "theta_max",
    ] {
        let e = without(&format!("V.fast.{suffix}"));
        assert_eq!(e.parameter, format!("V.fast.{suffix}"));
        assert_eq!(
            e.message,
            format!("velocity shape fast of zone V has no {suffix}: set V.fast.{suffix}")
        );
    }
    let refused = |key: &str, value: Value| {
        let values = with(velocity_zone(false, &[]), key, value);
        start(&values).unwrap_err()
    };
    let e = refused("V.velocity_polygons", Value::NotSet);
    assert_eq!(
        (e.parameter.as_str(), e.message.as_str()),
        (
            "V.velocity_polygons",
            "a velocity_polygon zone needs at least one velocity shape"
        )
    );
    let e = refused("V.velocity_polygons", list(&["slow", "slow"]));
    assert_eq!(e.message, "velocity shape \"slow\" is listed twice");
    let e = refused("V.slow.points", text("[[0, 0], [1, 1]]"));
    assert_eq!(e.parameter, "V.slow.points");
    assert!(e.message.contains("at least 3 distinct points"), "{e}");
    let e = refused("V.fast.linear_min", Value::Double(2.5));
    assert_eq!(e.parameter, "V.fast.linear_min");
    assert_eq!(
        e.message,
        "2.5 is above V.fast.linear_max (2): no command would be in range"
    );
    let e = refused("V.slow.theta_min", Value::Double(1.5));
    assert_eq!(e.parameter, "V.slow.theta_min");
    assert!(
        e.message.starts_with("1.5 is above V.slow.theta_max (1)"),
        "{e}"
    );
    let e = refused("V.slow.linear_max", Value::Double(101.0));
    assert_eq!(e.message, "101 is outside the allowed range [-100, 100]");
    let values = with(
        velocity_zone(true, &[]),
        "V.slow.direction_start_angle",
        Value::Double(4.0),
    );
    let e = start(&values).unwrap_err();
    assert_eq!(e.parameter, "V.slow.direction_start_angle");
    // Equal bounds are a range of one value.
    let values = with(
        velocity_zone(false, &[]),
        "V.fast.linear_min",
        Value::Double(2.0),
    );
    assert!(start(&values).is_ok());
}

// ---------------------------------------------------------------------------
// The other zone parameters.

#[test]
fn zone_defaults_are_nav2s() {
    let (zone, _) = only_zone(&stop_zone(&[]));
    assert_eq!(
        zone,
        ZoneConfig::new(
            "Z",
            ZoneShape::Polygon(points(&[(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)])),
            Action::Stop,
            1
        )
    );
    assert_eq!(zone.min_points, 4);
    assert_eq!(zone.polygon_pub_topic, "Z", "the zone's name");
    assert!(zone.enabled && !zone.visualize && !zone.allow_escape);
    assert_eq!((zone.trigger_consecutive, zone.release_consecutive), (1, 1));
}

#[test]
fn zone_values_are_read_and_checked() {
    let (zone, notes) = only_zone(&stop_zone(&[
        ("min_points", Value::Integer(2)),
        ("enabled", Value::Bool(false)),
        ("visualize", Value::Bool(true)),
        ("polygon_pub_topic", text("stop_zone")),
        ("time_before_collision", Value::Double(1.5)),
        ("allow_escape", Value::Bool(true)),
        ("trigger_consecutive_points", Value::Integer(3)),
        ("release_consecutive_points", Value::Double(2.0)),
    ]));
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(zone.min_points, 2);
    assert!(!zone.enabled && zone.visualize && zone.allow_escape);
    assert_eq!(zone.polygon_pub_topic, "stop_zone");
    assert_eq!(zone.time_before_collision, 1.5);
    assert_eq!((zone.trigger_consecutive, zone.release_consecutive), (3, 2));

    let refused = |suffix: &str, value: Value| {
        let e = start(&stop_zone(&[(suffix, value)])).unwrap_err();
        assert_eq!(e.parameter, format!("Z.{suffix}"));
        e.message
    };
    assert_eq!(
        refused("min_points", Value::Integer(0)),
        "0 is outside the allowed range [1, 1000000]"
    );
    assert_eq!(
        refused("trigger_consecutive_points", Value::Integer(0)),
        "0 is outside the allowed range [1, 1000]"
    );
    assert_eq!(
        refused("release_consecutive_points", Value::Double(1.5)),
        "1.5 is not a whole number: expected an integer in [1, 1000]"
    );
    assert_eq!(
        refused("time_before_collision", Value::Double(0.0)),
        "0 is outside the allowed range [0.001, 60]"
    );
    assert_eq!(
        refused("polygon_pub_topic", text("a zone")),
        "' ' is not allowed in a topic name"
    );
    assert_eq!(
        refused("visualize", text("yes")),
        "expected a bool, got string"
    );

    let slowdown = |ratio: Value| {
        let values = with(
            stop_zone(&[("slowdown_ratio", ratio)]),
            "Z.action_type",
            text("slowdown"),
        );
        start(&values)
    };
    assert_eq!(
        slowdown(Value::Double(0.2)).unwrap().0.gate.zones[0].slowdown_ratio,
        0.2
    );
    let e = slowdown(Value::Double(1.5)).unwrap_err();
    assert_eq!(
        (e.parameter.as_str(), e.message.as_str()),
        (
            "Z.slowdown_ratio",
            "1.5 is outside the allowed range [0, 1]"
        )
    );
    let limit = |pairs: &[(&str, Value)]| {
        let values = with(stop_zone(pairs), "Z.action_type", text("limit"));
        start(&values)
    };
    let (c, _) = limit(&[
        ("linear_limit", Value::Double(0.2)),
        ("angular_limit", Value::Integer(1)),
    ])
    .unwrap();
    assert_eq!(
        (c.gate.zones[0].linear_limit, c.gate.zones[0].angular_limit),
        (0.2, 1.0)
    );
    let e = limit(&[("angular_limit", Value::Double(-0.1))]).unwrap_err();
    assert_eq!(e.parameter, "Z.angular_limit");
}

#[test]
fn max_points_is_min_points_plus_one_with_a_note() {
    let (zone, notes) = only_zone(&stop_zone(&[("max_points", Value::Integer(3))]));
    assert_eq!(zone.min_points, 4);
    assert_eq!(
        notes,
        ["Z.max_points is deprecated (nav2): Z.min_points = max_points + 1 = 4; use min_points"]
    );
    // Both given: max_points wins, as in nav2 (it is read last).
    let (zone, _) = only_zone(&stop_zone(&[
        ("max_points", Value::Integer(7)),
        ("min_points", Value::Integer(2)),
    ]));
    assert_eq!(zone.min_points, 8);
    let e = start(&stop_zone(&[("max_points", Value::Integer(-1))])).unwrap_err();
    assert_eq!(e.parameter, "Z.max_points");
}

#[test]
fn zone_sources_are_names_of_observation_sources() {
    let sources = [
        ("observation_sources", list(&["front", "rear"])),
        ("front.type", text("scan")),
        ("rear.type", text("scan")),
    ];
    let with_sources = |pairs: &[(&str, Value)]| {
        let mut values = values(&sources);
        values.extend(stop_zone(pairs).into_iter().skip(2));
        start(&values)
    };
    let (c, notes) = with_sources(&[]).unwrap();
    assert!(notes.is_empty());
    assert_eq!(c.gate.zones[0].sources, [0, 1], "every source by default");
    assert!(c.gate.zones[0].sources_names.is_empty());
    let (c, _) = with_sources(&[("sources_names", list(&["rear"]))]).unwrap();
    assert_eq!(c.gate.zones[0].sources, [1]);
    assert_eq!(c.get("Z.sources_names"), Some(list(&["rear"])));
    let (c, _) = with_sources(&[("sources_names", Value::NotSet)]).unwrap();
    assert_eq!(c.gate.zones[0].sources, [0, 1], "[]: every source");
    let e = with_sources(&[("sources_names", list(&["rear", "lidar"]))]).unwrap_err();
    assert_eq!(e.parameter, "Z.sources_names");
    assert_eq!(
        e.message,
        "lidar is not in observation_sources ([front, rear])"
    );
    let e = with_sources(&[("sources_names", list(&["rear", "rear"]))]).unwrap_err();
    assert_eq!(e.message, "source \"rear\" is listed twice");
    // No source at all: said.
    let (c, notes) = start(&stop_zone(&[]).split_off(2)).unwrap();
    assert!(c.gate.zones[0].sources.is_empty());
    assert_eq!(
        notes,
        ["zone Z is checked against no source (observation_sources is empty): it never triggers"]
    );
}

#[test]
fn parameters_that_do_not_apply_are_noted() {
    let (zone, notes) = only_zone(&stop_zone(&[
        ("slowdown_ratio", Value::Double(0.1)),
        ("linear_limit", Value::Double(0.1)),
        ("radius", Value::Double(1.0)),
        ("polygon_sub_topic", text("zone")),
        ("simulation_time_step", Value::Double(0.1)),
        ("holonomic", Value::Bool(true)),
        ("rotation.points", text("[[0, 0], [1, 0], [0, 1]]")),
    ]));
    assert_eq!(
        notes,
        [
            "Z.slowdown_ratio ignored: slowdown_ratio applies to slowdown zones; Z is a polygon \
             zone with points, action_type stop",
            "Z.linear_limit ignored: linear_limit applies to limit zones; Z is a polygon zone \
             with points, action_type stop",
            "Z.radius ignored: radius applies to circle zones; Z is a polygon zone with points, \
             action_type stop",
            "Z.polygon_sub_topic ignored: polygon_sub_topic applies to zones without points or \
             radius (but approach polygons); Z is a polygon zone with points, action_type stop",
            "Z.simulation_time_step ignored: nav2 steps its approach simulation by it; the \
             approach here is exact",
            "Z.holonomic ignored: holonomic applies to velocity_polygon zones; Z is a polygon \
             zone with points, action_type stop",
            "Z.rotation.points ignored: velocity shapes apply to velocity_polygon zones; Z is a \
             polygon zone with points, action_type stop",
        ]
    );
    // Ignored: nothing read.
    assert_eq!(zone.slowdown_ratio, 0.5);
    assert_eq!(zone.polygon_sub_topic, "");
}

// ---------------------------------------------------------------------------
// Names: zones not listed, typos.

#[test]
fn zones_not_in_polygons_get_one_note_each() {
    let mut values = stop_zone(&[]);
    values.extend(values_of(&[
        ("Slow.type", text("polygon")),
        ("Slow.points", text("[[0, 0], [1, 0], [0, 1]]")),
        ("Slow.action_type", text("slowdown")),
        ("Slow.enabled", Value::Bool(true)),
        ("Round.type", text("circle")),
        ("Round.enabled", Value::Bool(true)),
        ("Fast.type", text("velocity_polygon")),
        ("Fast.a.linear_min", Value::Double(0.0)),
        // The zone-only name makes `Z2` a zone.
        ("Z2.enabled", Value::Bool(false)),
        ("Z2.simulation_time_step", Value::Double(0.1)),
        // So does a velocity shape's name (three parts).
        ("Lone.enabled", Value::Bool(true)),
        ("Lone.spin.linear_min", Value::Double(0.0)),
    ]));
    let (c, notes) = start(&values).unwrap();
    assert_eq!(c.gate.zones.len(), 1);
    assert_eq!(
        notes,
        [
            "Slow.* ignored: Slow is not in polygons",
            "Round.* ignored: Round is not in polygons",
            "Fast.* ignored: Fast is not in polygons",
            "Z2.* ignored: Z2 is not in polygons",
            "Lone.* ignored: Lone is not in polygons",
        ]
    );
    // An unlisted zone's unknown name is still an error.
    let mut typo = values.clone();
    typo.push(("Slow.slowdown_rato".into(), Value::Double(0.3)));
    let e = start(&typo).unwrap_err();
    assert_eq!(e.parameter, "Slow.slowdown_rato");
    assert_eq!(
        e.message,
        "unknown parameter of zone Slow (not in polygons) (did you mean `Slow.slowdown_ratio`?)"
    );
    let mut typo = values;
    typo.push(("Fast.a.linear_mn".into(), Value::Double(0.3)));
    let e = start(&typo).unwrap_err();
    assert!(
        e.message.ends_with("(did you mean `Fast.a.linear_min`?)"),
        "{e}"
    );
    // Without a zone-only name, an unlisted block is a source's (as before).
    let (_, notes) = started(&[
        ("other.type", text("polygon")),
        ("other.enabled", Value::Bool(true)),
    ])
    .unwrap();
    assert_eq!(
        notes,
        [
            "other.type ignored: other is not in observation_sources",
            "other.enabled ignored: other is not in observation_sources",
        ]
    );
}

fn values_of(pairs: &[(&str, Value)]) -> Vec<(String, Value)> {
    values(pairs)
}

#[test]
fn zone_typos_are_refused_with_a_hint() {
    let refused = |key: &str| {
        let mut values = stop_zone(&[]);
        values.push((key.to_owned(), Value::Double(0.2)));
        let e = start(&values).unwrap_err();
        assert_eq!(e.parameter, key);
        e.message
    };
    assert_eq!(
        refused("Z.min_point"),
        "unknown parameter of zone Z (did you mean `Z.min_points`?); Z's parameters are: type, \
         action_type, points, min_points, max_points, enabled, time_before_collision, \
         allow_escape, sources_names, trigger_consecutive_points, release_consecutive_points, \
         visualize, polygon_pub_topic"
    );
    assert!(refused("Z.slowdown_rato").contains("(did you mean `Z.slowdown_ratio`?)"));
    assert!(refused("Z.simulation_time_stp").contains("(did you mean `Z.simulation_time_step`?)"));
    assert!(refused("Z.zzzzzzzzzz").starts_with("unknown parameter of zone Z; Z's parameters"));
    // A velocity shape's.
    let mut values = velocity_zone(false, &[]);
    values.push(("V.fast.linear_mx".into(), Value::Double(1.0)));
    let e = start(&values).unwrap_err();
    assert_eq!(e.parameter, "V.fast.linear_mx");
    assert_eq!(
        e.message,
        "unknown parameter of zone V (did you mean `V.fast.linear_max`?); a velocity shape's \
         parameters are: points, linear_min, linear_max, theta_min, theta_max, \
         direction_start_angle, direction_end_angle"
    );
    // The sources' names keep their hints.
    let mut values = stop_zone(&[]);
    values.push(("scan.topik".into(), text("scan")));
    let e = start(&values).unwrap_err();
    assert!(e.message.contains("(did you mean `scan.topic`?)"), "{e}");
}

// ---------------------------------------------------------------------------
// Run time.

#[test]
fn only_enabled_changes_at_run_time() {
    let values = nav2_file("collision_monitor_params.yaml", "collision_monitor");
    let values = with(
        values,
        "polygons",
        list(&["PolygonStop", "VelocityPolygonStop"]),
    );
    let (mut c, _) = start(&values).unwrap();
    assert_eq!(c.runtime("enabled"), Some(true));
    assert_eq!(c.runtime("PolygonStop.enabled"), Some(true));
    assert_eq!(c.runtime("VelocityPolygonStop.enabled"), Some(true));
    for name in [
        "PolygonStop.type",
        "PolygonStop.points",
        "PolygonStop.action_type",
        "PolygonStop.min_points",
        "PolygonStop.visualize",
        "PolygonStop.sources_names",
        "VelocityPolygonStop.velocity_polygons",
        "VelocityPolygonStop.rotation.points",
        "VelocityPolygonStop.rotation.linear_max",
        "polygons",
        "base_frame_id",
        "stop_pub_timeout",
    ] {
        assert_eq!(c.runtime(name), Some(false), "{name}");
    }
    // Names that are not the zones' (not applying, not listed).
    for name in [
        "PolygonStop.radius",
        "PolygonStop.slowdown_ratio",
        "PolygonSlow.enabled",
        "VelocityPolygonStop.rotation.direction_start_angle",
        "VelocityPolygonStop.nothing.points",
    ] {
        assert_eq!(c.runtime(name), None, "{name}");
        assert_eq!(c.get(name), None, "{name}");
    }

    c.set("PolygonStop.enabled", &Value::Bool(false)).unwrap();
    assert!(!c.gate.zones[0].enabled && c.gate.zones[1].enabled);
    assert_eq!(c.get("PolygonStop.enabled"), Some(Value::Bool(false)));
    c.set("enabled", &Value::Bool(false)).unwrap();
    assert!(!c.gate.enabled);
    let before = c.clone();
    let e = c.set("PolygonStop.enabled", &text("no")).unwrap_err();
    assert_eq!(e.parameter, "PolygonStop.enabled");
    // A value the zone as a whole refuses leaves it as it was.
    let e = c
        .set(
            "VelocityPolygonStop.rotation.linear_min",
            &Value::Double(0.5),
        )
        .unwrap_err();
    assert_eq!(e.parameter, "VelocityPolygonStop.rotation.linear_min");
    let e = c
        .set("PolygonStop.sources_names", &list(&["lidar"]))
        .unwrap_err();
    assert_eq!(e.parameter, "PolygonStop.sources_names");
    assert_eq!(c, before, "a refused value changes nothing");
    assert_eq!(
        c.set("PolygonStop.radius", &Value::Double(1.0))
            .unwrap_err()
            .message,
        "no such parameter"
    );
}

// ---------------------------------------------------------------------------
// The tables.

/// A value other than `spec`'s default, of its type and in its range.
fn other_value<C>(spec: &ParamSpec<C>) -> Value {
    match spec.kind {
        Kind::Number {
            default, min, max, ..
        } => Value::Double(if default == max { min } else { max }),
        Kind::Integer {
            default, min, max, ..
        } => Value::Integer(if default == max { min } else { max }),
        Kind::Bool { default, .. } => Value::Bool(!default),
        Kind::Text { .. } if spec.name == "type" => text("circle"),
        Kind::Text { .. } if spec.name == "action_type" => text("slowdown"),
        Kind::Text { .. } if spec.name == "points" => text("[[0, 0], [2, 0], [0, 2]]"),
        Kind::Text { .. } => text("elsewhere"),
        Kind::TextList { .. } => list(&["a", "b"]),
    }
}

/// A zone every parameter of the table applies to, as far as one can:
/// `param`'s own kind of zone.
fn zone_for(param: &ZoneParam) -> ZoneConfig {
    let shapes = [
        ZoneShape::Polygon(points(&[(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)])),
        ZoneShape::Circle(1.0),
        ZoneShape::Dynamic { circle: false },
        ZoneShape::Dynamic { circle: true },
        ZoneShape::Velocity {
            holonomic: false,
            shapes: vec![],
        },
    ];
    let actions = [
        Action::Stop,
        Action::Slowdown,
        Action::Limit,
        Action::Approach,
        Action::DoNothing,
    ];
    for shape in &shapes {
        for action in actions {
            let zone = ZoneConfig::new("z", shape.clone(), action, 0);
            if (param.applies)(&zone) {
                return zone;
            }
        }
    }
    panic!("{} applies to no zone", param.spec.name)
}

/// Every zone parameter's accessors reach its own field (`max_points`
/// shares `min_points`'): set each to a value other than its default on a
/// zone it applies to, and check that only it reads differently.
#[test]
fn each_zone_entry_writes_its_own_field() {
    for param in ZONE_PARAMS {
        let fresh = zone_for(param);
        let other = other_value(&param.spec);
        let mut zone = fresh.clone();
        param.spec.set(&mut zone, &other).unwrap();
        assert_ne!(zone, fresh, "{}", param.spec.name);
        assert_eq!(param.spec.get(&zone), other, "{}", param.spec.name);
        let pair = ["min_points", "max_points"];
        for read in ZONE_PARAMS {
            let both = pair.contains(&read.spec.name) && pair.contains(&param.spec.name);
            // A new type is a new shape: what reads the shape changes too.
            let shape = param.spec.name == "type" && SHAPE_SUFFIXES.contains(&read.spec.name);
            if read.spec.name != param.spec.name && !both && !shape {
                assert_eq!(
                    read.spec.get(&zone),
                    read.spec.get(&fresh),
                    "set {} read {}",
                    param.spec.name,
                    read.spec.name
                );
            }
        }
    }
    for param in VELOCITY_SHAPE_PARAMS {
        let fresh = velocity_shape("s");
        let other = other_value(&param.spec);
        let mut shape = fresh.clone();
        param.spec.set(&mut shape, &other).unwrap();
        for read in VELOCITY_SHAPE_PARAMS {
            let expected = if read.spec.name == param.spec.name {
                other.clone()
            } else {
                read.spec.get(&fresh)
            };
            assert_eq!(read.spec.get(&shape), expected, "set {}", param.spec.name);
        }
    }
}

/// The range shown at the end of a description, `[lo, hi]`.
fn shown_range(description: &str) -> Option<(f64, f64)> {
    let (_, range) = description.rsplit_once('[')?;
    let (lo, hi) = range.strip_suffix(']')?.split_once(", ")?;
    Some((lo.parse().ok()?, hi.parse().ok()?))
}

/// Checks shared by both zone tables: names once, the default within the
/// range and accepted (but the fillers of required parameters), the
/// description's range and run-time words.
fn check_table<C>(specs: &[(&ParamSpec<C>, ZoneDefault)], fresh: impl Fn(&ParamSpec<C>) -> C) {
    for (i, (spec, default)) in specs.iter().enumerate() {
        let name = spec.name;
        assert!(
            specs[..i].iter().all(|(s, _)| s.name != name),
            "{name} twice"
        );
        assert!(
            spec.description.contains("start-up only") != spec.runtime,
            "{name}: {}",
            spec.description
        );
        assert_eq!(
            spec.description.starts_with("required"),
            *default == ZoneDefault::Required,
            "{name}: {}",
            spec.description
        );
        assert_eq!(shown_range(spec.description), spec.range(), "{name}");
        if let Some((lo, hi)) = spec.range() {
            assert!(lo <= hi, "{name}");
            let value = match spec.default_value() {
                Value::Double(x) => x,
                Value::Integer(n) => n as f64,
                other => panic!("{name}: {other:?}"),
            };
            assert!(
                (lo..=hi).contains(&value),
                "{name}: default {value} outside [{lo}, {hi}]"
            );
        }
        if *default != ZoneDefault::Required {
            let mut config = fresh(spec);
            spec.set(&mut config, &spec.default_value())
                .unwrap_or_else(|e| panic!("{name}: its default is refused: {e}"));
        }
    }
}

#[test]
fn zone_tables_are_consistent() {
    let zone_specs: Vec<(&ParamSpec<ZoneConfig>, ZoneDefault)> =
        ZONE_PARAMS.iter().map(|p| (&p.spec, p.default)).collect();
    check_table(&zone_specs, |spec| zone_for(zone_param(spec.name).unwrap()));
    let shape_specs: Vec<(&ParamSpec<VelocityShape>, ZoneDefault)> = VELOCITY_SHAPE_PARAMS
        .iter()
        .map(|p| (&p.spec, p.default))
        .collect();
    check_table(&shape_specs, |_| velocity_shape("s"));

    for param in ZONE_PARAMS {
        let name = param.spec.name;
        assert!(
            NAV2_ONLY_ZONE_PARAMS.iter().all(|(n, _)| *n != name),
            "{name} both read and ignored"
        );
        // `ZoneConfig::new` starts from the table's defaults: where a
        // parameter applies, resetting it changes nothing (but the zone's
        // shape, which its type's filler stands for).
        let zone = zone_for(param);
        if param.default == ZoneDefault::Table
            && !SHAPE_SUFFIXES.contains(&name)
            && name != "footprint_topic"
        {
            let mut reset = zone.clone();
            param
                .spec
                .set(&mut reset, &param.spec.default_value())
                .unwrap();
            assert_eq!(
                reset, zone,
                "{name}: ZoneConfig::new's default is not the table's"
            );
        }
    }
    assert!(SHAPE_SUFFIXES.iter().all(|s| zone_param(s).is_some()));
    // Only `enabled` changes at run time (nav2's dynamic parameter).
    let runtime: Vec<&str> = ZONE_PARAMS
        .iter()
        .filter(|p| p.spec.runtime)
        .map(|p| p.spec.name)
        .collect();
    assert_eq!(runtime, ["enabled"]);
    assert!(VELOCITY_SHAPE_PARAMS.iter().all(|p| !p.spec.runtime));
    // The nav2-only node names are no parameters of the node.
    for (name, _) in NAV2_ONLY_PARAMS {
        assert!(param(name).is_none(), "{name}");
    }
}

/// Points read back in nav2's form are the points: the text `get` gives
/// is read again into the same polygon.
#[test]
fn zone_points_read_back_as_they_were_given() {
    for text_points in [
        "[[0.3, 0.3], [0.3, -0.3], [0.0, -0.3], [0.0, 0.3]]",
        "[[0.1, 0.2], [-1e-7, 3.25], [-0.30000000000000004, 1]]",
    ] {
        let (c, _) = start(&stop_zone(&[("points", text(text_points))])).unwrap();
        let Some(Value::String(back)) = c.get("Z.points") else {
            panic!("no points")
        };
        assert_eq!(parse_zone_points(&back), parse_zone_points(text_points));
    }
}
