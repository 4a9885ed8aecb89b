//! nav2 main's own parameters files (`tests/data/nav2_main/`: navigation2
//! main, commit `a3a97043ee93d92fe8d70ec56d183933169beb1c`, the Lyrical
//! line) start the node's configuration unchanged, read as rcl reads a
//! parameters file ([`parameters_of`], then [`NodeConfig::start_up`]), with
//! the notes saying what is accepted and ignored; and the parameter sets of
//! nav2's `collision_monitor_node_test.cpp`, ported as a parameters file,
//! start as nav2's test expects (or are refused where nav2 refuses them).
//! nav2 Jazzy's files are `src/config/tests/zones.rs`'s.
//!
//! `scenarios`: those parameter sets driven through the node's core by
//! events, as nav2's test drives its node. `uncommented`: nav2's example
//! file with its commented blocks (exclusion zones, a costmap source)
//! uncommented.

mod scenarios;
mod uncommented;

use sat_collision::config::{parameters_of, NodeConfig, Value};
use sat_collision::gate::{Action, ZoneShape};

/// The folder of nav2 main's files.
pub(crate) const DATA: &str = "tests/data/nav2_main";
/// nav2's test's parameter sets, one section per scenario.
pub(crate) const TEST_PARAMS: &str = "collision_monitor_node_test.yaml";

/// The text of `tests/data/nav2_main/<file>`.
pub(crate) fn text_of(file: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(DATA)
        .join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The parameters `node` gets from `tests/data/nav2_main/<file>`.
pub(crate) fn values_of(file: &str, node: &str) -> Vec<(String, Value)> {
    let values = parameters_of(&text_of(file), node).expect("rcl reads the file");
    assert!(!values.is_empty(), "{file} has {node}");
    values
}

/// `values` with `name` set to `value` (replaced, or added at the end).
fn with(mut values: Vec<(String, Value)>, name: &str, value: Value) -> Vec<(String, Value)> {
    match values.iter_mut().find(|(n, _)| n == name) {
        Some(entry) => entry.1 = value,
        None => values.push((name.to_owned(), value)),
    }
    values
}

fn list(names: &[&str]) -> Value {
    Value::StringArray(names.iter().map(|n| (*n).to_owned()).collect())
}

/// The configuration `values` start, and its notes.
fn start(values: &[(String, Value)]) -> Result<(NodeConfig, Vec<String>), String> {
    let mut config = NodeConfig::default();
    let notes = config.start_up(values).map_err(|e| e.to_string())?;
    Ok((config, notes))
}

/// A section of [`TEST_PARAMS`], started.
pub(crate) fn test_config(section: &str) -> NodeConfig {
    start(&values_of(TEST_PARAMS, section))
        .unwrap_or_else(|e| panic!("{section}: {e}"))
        .0
}

/// The gate's node parameters both of nav2 main's files give.
fn assert_nav2_gate(c: &NodeConfig, transform_tolerance: f64, source_timeout: f64) {
    let g = &c.gate;
    assert!(g.enabled);
    assert_eq!(g.base_frame, "base_footprint");
    assert_eq!(g.odom_frame, "odom");
    assert!(g.base_shift_correction);
    assert_eq!(g.stop_pub_timeout, 2.0);
    assert_eq!(g.cmd_vel_in_topic, "cmd_vel_smoothed");
    assert_eq!(g.cmd_vel_out_topic, "cmd_vel");
    assert_eq!(g.state_topic, "collision_monitor_state");
    assert!(!g.stamped);
    assert_eq!(c.monitor.base_frame, "base_footprint", "from base_frame_id");
    assert_eq!(c.monitor.transform_tolerance, transform_tolerance);
    assert_eq!(c.source_timeout, source_timeout);
}

/// nav2 main's `nav2_bringup/params/nav2_params.yaml` (commit `a3a9704`):
/// its `collision_monitor` section starts unchanged, with the notes of
/// Jazzy's file (the scan's heights, the approach's step). What changed
/// since Jazzy: the footprint topic is relative.
#[test]
fn nav2_main_bringup_params_start_up_unchanged() {
    let (c, notes) = start(&values_of("nav2_params.yaml", "collision_monitor")).unwrap();
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
    assert_nav2_gate(&c, 0.2, 1.0);
    assert_eq!(c.gate.zones.len(), 1);
    let zone = &c.gate.zones[0];
    assert_eq!(zone.name, "FootprintApproach");
    assert_eq!(zone.shape, ZoneShape::Dynamic { circle: false });
    assert_eq!(zone.action, Action::Approach);
    assert_eq!(zone.footprint_topic, "local_costmap/published_footprint");
    assert_eq!(zone.time_before_collision, 1.2);
    assert_eq!(zone.min_points, 6);
    assert!(!zone.visualize);
    assert_eq!(c.observation_sources, ["scan"]);
    assert_eq!(c.sources[0].topic, "scan");
}

/// nav2 main's `nav2_collision_monitor/params/collision_monitor_params.yaml`
/// (commit `a3a9704`), as shipped: one stop zone and the scan listed; the
/// zones and the `pointcloud` source it defines but does not list are
/// ignored with a note each (its `transport_type` among them).
#[test]
fn nav2_main_collision_monitor_params_start_up_unchanged() {
    let values = values_of("collision_monitor_params.yaml", "collision_monitor");
    let (c, notes) = start(&values).unwrap();
    let mut expected: Vec<String> = [
        "PolygonSlow",
        "PolygonLimit",
        "FootprintApproach",
        "VelocityPolygonStop",
    ]
    .iter()
    .map(|zone| format!("{zone}.* ignored: {zone} is not in polygons"))
    .collect();
    for key in [
        "type",
        "topic",
        "transport_type",
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
    assert_nav2_gate(&c, 0.5, 5.0);
    assert_eq!(c.polygons, ["PolygonStop"]);
    let stop = &c.gate.zones[0];
    assert_eq!(stop.action, Action::Stop);
    assert_eq!(stop.min_points, 4);
    assert_eq!(stop.polygon_pub_topic, "polygon_stop");
    assert!(stop.visualize);
}

/// The same file with every zone it defines listed and both its sources:
/// only `simulation_time_step` is ignored; the point cloud's
/// `transport_type: "raw"` is read.
#[test]
fn nav2_main_collision_monitor_params_with_every_zone_and_source_listed() {
    let values = values_of("collision_monitor_params.yaml", "collision_monitor");
    let zones = [
        "PolygonStop",
        "PolygonSlow",
        "PolygonLimit",
        "FootprintApproach",
        "VelocityPolygonStop",
    ];
    let values = with(values, "polygons", list(&zones));
    let values = with(values, "observation_sources", list(&["scan", "pointcloud"]));
    let (c, notes) = start(&values).unwrap();
    assert_eq!(
        notes,
        [
            "FootprintApproach.simulation_time_step ignored: nav2 steps its approach simulation \
          by it; the approach here is exact"
        ]
    );
    let names: Vec<&str> = c.gate.zones.iter().map(|z| z.name.as_str()).collect();
    assert_eq!(names, zones);
    let actions: Vec<Action> = c.gate.zones.iter().map(|z| z.action).collect();
    assert_eq!(
        actions,
        [
            Action::Stop,
            Action::Slowdown,
            Action::Limit,
            Action::Approach,
            Action::Stop
        ]
    );
    assert_eq!(c.gate.zones[1].slowdown_ratio, 0.3);
    assert_eq!(
        (c.gate.zones[2].linear_limit, c.gate.zones[2].angular_limit),
        (0.4, 0.5)
    );
    assert_eq!(c.gate.zones[3].time_before_collision, 2.0);
    match &c.gate.zones[4].shape {
        ZoneShape::Velocity { shapes, holonomic } => {
            assert!(!holonomic);
            let names: Vec<&str> = shapes.iter().map(|s| s.name.as_str()).collect();
            assert_eq!(
                names,
                [
                    "rotation",
                    "translation_forward",
                    "translation_backward",
                    "stopped"
                ]
            );
        }
        other => panic!("a velocity polygon: {other:?}"),
    }
    assert_eq!(
        c.get("pointcloud.transport_type"),
        Some(Value::String("raw".into()))
    );
    assert_eq!(c.get("pointcloud.min_height"), Some(Value::Double(0.1)));
    assert_eq!(c.get("pointcloud.max_height"), Some(Value::Double(0.5)));
}

/// nav2 main's bag test's parameters
/// (`nav2_collision_monitor/test/collision_monitor_node_bag.yaml`, commit
/// `a3a9704`): a costmap source (`cost_threshold` 253,
/// `treat_unknown_as_obstacle` by default) and a stop circle of 1 m, with
/// simulated time. Nothing is ignored.
#[test]
fn nav2_main_bag_test_params_start_up_unchanged() {
    let (c, notes) = start(&values_of(
        "collision_monitor_node_bag.yaml",
        "collision_monitor",
    ))
    .unwrap();
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(c.observation_sources, ["costmap"]);
    assert_eq!(c.sources[0].topic, "/local_costmap/costmap");
    assert_eq!(c.sources[0].timeout, 1.0);
    assert_eq!(c.get("costmap.type"), Some(Value::String("costmap".into())));
    assert_eq!(c.get("costmap.cost_threshold"), Some(Value::Integer(253)));
    assert_eq!(
        c.get("costmap.treat_unknown_as_obstacle"),
        Some(Value::Bool(true))
    );
    assert_eq!(c.gate.zones.len(), 1);
    let zone = &c.gate.zones[0];
    assert_eq!(zone.name, "Detection");
    assert_eq!(zone.shape, ZoneShape::Circle(1.0));
    assert_eq!(zone.action, Action::Stop);
    assert_eq!(zone.min_points, 1);
    assert_eq!(c.gate.state_topic, "collision_state");
    assert_eq!(c.monitor.transform_tolerance, 0.05);
}

/// The rule that makes `collision_monitor_params_uncommented.yaml` from
/// nav2's file: from the line `# exclusion_zones: ...` to the end, every
/// line whose text (after its indentation) starts with `# ` loses those
/// two characters, its indentation kept. That uncomments the pointcloud's
/// `exclusion_zones`, the `dock` and `robot_body` exclusion zones and the
/// `costmap` source; a comment inside them (`#   # radius: 0.5`) stays a
/// comment, one level in. The prose comments above are untouched.
fn uncomment(text: &str) -> String {
    let mut on = false;
    let lines: Vec<String> = text
        .split('\n')
        .map(|line| {
            let body = line.trim_start_matches(' ');
            let indent = &line[..line.len() - body.len()];
            on |= body.starts_with("# exclusion_zones:");
            match body.strip_prefix("# ") {
                Some(rest) if on => format!("{indent}{rest}"),
                _ => line.to_owned(),
            }
        })
        .collect();
    lines.join("\n")
}

#[test]
fn the_uncommented_copy_is_nav2s_file_with_its_commented_blocks_uncommented() {
    let original = text_of("collision_monitor_params.yaml");
    let uncommented = text_of("collision_monitor_params_uncommented.yaml");
    assert_eq!(uncomment(&original), uncommented);
    // What the rule uncommented, and only that: 25 lines, the blocks named.
    let changed: Vec<&str> = original
        .lines()
        .zip(uncommented.lines())
        .filter(|(a, b)| a != b)
        .map(|(_, b)| b)
        .collect();
    assert_eq!(changed.len(), 25);
    for block in ["    dock:", "    robot_body:", "    costmap:"] {
        assert!(changed.contains(&block), "{block}");
    }
    assert!(changed[0].starts_with("      exclusion_zones: [\"dock\", \"robot_body\"]"));
    assert!(
        uncommented.contains("      # radius: 0.5"),
        "a comment in a block stays one"
    );
    assert!(uncommented.contains("    # Polygons represent zone around the robot"));
}

/// Every section of the ported parameter sets that nav2's test configures
/// successfully starts here too, each with the notes for what the test
/// declares and this node does not use: a zone's parameters for another
/// action (nav2's `addPolygon` declares all of them for every zone),
/// `simulation_time_step`, a polygon source's `sampling_distance`.
#[test]
fn nav2_tests_parameter_sets_start_with_the_notes_for_what_they_declare_and_is_ignored() {
    let other_action = |zone: &str, keys: &[&str], what: &str| -> Vec<String> {
        keys.iter()
            .map(|key| {
                let applies = match *key {
                    "slowdown_ratio" => "slowdown zones",
                    "linear_limit" | "angular_limit" => "limit zones",
                    _ => "approach and stop zones",
                };
                format!("{zone}.{key} ignored: {key} applies to {applies}; {zone} is a {what}")
            })
            .chain([format!(
                "{zone}.simulation_time_step ignored: nav2 steps its approach simulation by \
                 it; the approach here is exact"
            )])
            .collect()
    };
    let stop = |zone: &str, what: &str| {
        other_action(
            zone,
            &["slowdown_ratio", "linear_limit", "angular_limit"],
            what,
        )
    };
    let slowdown = |zone: &str| {
        other_action(
            zone,
            &["linear_limit", "angular_limit", "time_before_collision"],
            "polygon zone with points, action_type slowdown",
        )
    };
    let limit = |zone: &str| {
        other_action(
            zone,
            &["slowdown_ratio", "time_before_collision"],
            "polygon zone with points, action_type limit",
        )
    };
    let approach = |zone: &str, what: &str| {
        other_action(
            zone,
            &["slowdown_ratio", "linear_limit", "angular_limit"],
            what,
        )
    };
    let square_stop = "polygon zone with points, action_type stop";
    let circle_approach = "circle zone with a radius, action_type approach";
    let three = [
        limit("Limit"),
        slowdown("SlowDown"),
        stop("Stop", square_stop),
    ]
    .concat();
    let cross = [slowdown("SlowDown"), approach("Approach", circle_approach)].concat();
    let cases: Vec<(&str, Vec<String>)> = vec![
        ("stop_slowdown_limit", three.clone()),
        (
            "polygon_source",
            [
                three,
                vec!["Polygon.sampling_distance ignored: nav2 reads it, this node does not".into()],
            ]
            .concat(),
        ),
        ("approach", approach("Approach", circle_approach)),
        (
            "approach_rotation",
            approach(
                "Approach",
                "polygon zone without points, action_type approach",
            ),
        ),
        ("cross_over", cross.clone()),
        ("source_timeout_override", cross),
        (
            "cease_publish_zero_vel",
            [
                stop("Stop", square_stop),
                approach("Approach", circle_approach),
            ]
            .concat(),
        ),
        ("stop", stop("Stop", square_stop)),
        (
            "velocity_polygon_stop",
            stop("VelocityPolygon", "velocity_polygon zone, action_type stop"),
        ),
        (
            "source_associated_to_polygon",
            [
                stop("StopOnRangeSource", square_stop),
                slowdown("SlowdownOnAllSources"),
            ]
            .concat(),
        ),
    ];
    for (section, expected) in cases {
        let (c, notes) =
            start(&values_of(TEST_PARAMS, section)).unwrap_or_else(|e| panic!("{section}: {e}"));
        assert_eq!(notes, expected, "{section}");
        // nav2's setCommonParameters, read as given.
        assert_eq!(c.gate.cmd_vel_in_topic, "cmd_vel_in", "{section}");
        assert_eq!(c.gate.base_frame, "base_link", "{section}");
        assert_eq!(c.gate.stop_pub_timeout, 0.1, "{section}");
        assert_eq!(c.monitor.transform_tolerance, 0.5, "{section}");
    }
}

/// `testIncorrectPolygonType`, `testIncorrectSourceType`: nav2 refuses to
/// configure; so does this node, naming the parameter.
#[test]
fn nav2_tests_unknown_zone_and_source_types_are_refused() {
    let refused = |section: &str| {
        start(&values_of(TEST_PARAMS, section))
            .err()
            .unwrap_or_else(|| panic!("{section} starts"))
    };
    assert!(
        refused("incorrect_polygon_type").starts_with("parameter `UnknownShape.type`: must be"),
        "{}",
        refused("incorrect_polygon_type")
    );
    assert!(
        refused("incorrect_source_type").starts_with("parameter `UnknownSource.type`: must be"),
        "{}",
        refused("incorrect_source_type")
    );
}

/// `testPolygonsNotSet`, `testSourcesNotSet`: nav2 refuses to configure
/// without `polygons`, or without `observation_sources`. This node is a
/// collision flag as well as a gate, so neither list is required: without
/// `polygons` it has no gate (the zone and source defined are ignored with
/// a note each); with zones and no source it starts and says the zone never
/// triggers. A difference from nav2 (docs/nav2.md).
#[test]
fn nav2_tests_missing_polygons_or_sources_start_here_where_nav2_refuses() {
    let (c, notes) = start(&values_of(TEST_PARAMS, "polygons_not_set")).unwrap();
    assert!(c.gate.zones.is_empty());
    assert_eq!(
        notes,
        [
            "Stop.* ignored: Stop is not in polygons",
            "Scan.type ignored: Scan is not in observation_sources",
            "Scan.topic ignored: Scan is not in observation_sources",
        ]
    );
    let (c, notes) = start(&values_of(TEST_PARAMS, "sources_not_set")).unwrap();
    assert_eq!(c.gate.zones.len(), 1);
    assert!(c.sources.is_empty());
    assert_eq!(
        notes.last().map(String::as_str),
        Some(
            "zone Stop is checked against no source (observation_sources is empty): it never \
             triggers"
        )
    );
}
