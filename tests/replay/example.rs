//! The worked example (tests/data/replay/): a scan source, commands at
//! 20 Hz, /tf, a stop zone, an obstacle entering it at 2 s and touching
//! the robot at 3 s.

use super::common::*;
use sat_collision::bag;
use serde_json::Value;
use std::collections::BTreeMap;

/// `(log time s, message)` of the lines on `topic`.
fn on<'a>(lines: &'a [Value], topic: &str) -> Vec<(f64, &'a Value)> {
    lines
        .iter()
        .filter(|l| l["topic"] == topic)
        .map(|l| {
            (
                l["log_time_ns"].as_u64().expect("ns") as f64 * 1e-9,
                &l["message"],
            )
        })
        .collect()
}

/// The example's bag, kept in tests/data/replay/ for the README (written
/// only when its bytes change).
/// Once per run, and by a rename: the tests running beside each other
/// never read it half written.
pub fn example_file() -> std::path::PathBuf {
    static WRITTEN: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    WRITTEN
        .get_or_init(|| {
            let bytes = example_bag();
            let path = example_path();
            if std::fs::read(&path).ok().as_deref() != Some(&bytes[..]) {
                let part = path.with_extension("mcap.part");
                std::fs::write(&part, &bytes).expect("tests/data/replay/");
                std::fs::rename(&part, &path).expect("tests/data/replay/stop_zone.mcap");
            }
            path
        })
        .clone()
}

#[test]
fn the_gate_stops_the_commands_once_the_obstacle_is_in_the_zone() {
    let dir = scratch("example");
    let summary = run(&example_file(), &dir);
    let lines = lines(&dir);
    let enters = T0 + ENTERS;
    let commands = on(&lines, "/cmd_vel");
    assert!(commands.len() >= STEPS as usize, "{}", commands.len());
    for (t, m) in &commands {
        let x = m["linear"]["x"].as_f64().expect("x");
        if *t < enters - 1e-6 {
            assert_eq!(x, SPEED, "passed before the obstacle, at {t}");
        } else {
            assert_eq!(x, 0.0, "zeros once it is in the zone, at {t}");
            assert_eq!(m["angular"]["z"], 0.0);
        }
    }
    assert!(
        commands.iter().any(|(t, _)| *t > T0 + 3.9),
        "zeros until the end"
    );
    let states: Vec<(u64, &str)> = on(&lines, "/collision_monitor_state")
        .iter()
        .map(|(_, m)| {
            let name = m["polygon_name"].as_str().expect("name");
            (m["action_type"].as_u64().expect("action"), name)
        })
        .collect();
    // No scan yet at activation: nav2's invalid source; clear at the first
    // scan; the stop for the zone when the obstacle enters.
    assert_eq!(states, [(1, "invalid source"), (0, ""), (1, "PolygonStop")]);
    let stop_at = on(&lines, "/collision_monitor_state")[2].0;
    assert_eq!(stop_at, enters);
    let flags = on(&lines, "/collision");
    let touches = T0 + TOUCHES;
    for (t, m) in &flags {
        match *t {
            t if t > T0 && t < touches => assert_eq!(m["data"], false, "at {t}"),
            t if t > touches => assert_eq!(m["data"], true, "at {t}"),
            _ => {}
        }
    }
    let at_touch: Vec<_> = flags.iter().filter(|(t, _)| *t == touches).collect();
    assert_eq!(
        at_touch.last().map(|(_, m)| &m["data"]),
        Some(&Value::Bool(true))
    );
    // The zone's polygon, in the base frame.
    let polygon = on(&lines, "/polygon_stop");
    assert_eq!(polygon[0].1["header"]["frame_id"], "base_link");
    assert_eq!(
        polygon[0].1["polygon"]["points"].as_array().map(Vec::len),
        Some(4)
    );
    assert!(!on(&lines, "/diagnostics").is_empty());

    // The summary's numbers.
    assert_eq!(summary.messages, 1 + STEPS + STEPS / 2 + STEPS);
    assert_eq!(summary.used, summary.messages);
    assert!(summary.skipped.is_empty(), "{:?}", summary.skipped);
    assert_eq!(summary.span, Some((T0, T0 + 3.95)));
    assert_eq!(summary.ticks, 39, "10 Hz from 100.1 s to 103.9 s");
    assert_eq!(summary.commands_in, STEPS);
    assert_eq!(summary.commands_out, commands.len() as u64);
    assert!(summary.zeros_out > 0);
    assert_eq!(summary.first_collision, Some(touches));
    assert_eq!(summary.stops.len(), 1);
    let stop = &summary.stops[0];
    assert_eq!(
        (stop.zone.as_str(), stop.appeared, stop.stopped),
        ("PolygonStop", Some(enters), enters)
    );
    let zone = summary
        .zone_times
        .iter()
        .find(|z| z.zone == "PolygonStop")
        .expect("time stopped for the zone");
    assert_eq!(zone.action, "stop");
    assert!((zone.seconds - 1.95).abs() < 1e-9, "{}", zone.seconds);
    assert_eq!(summary.invalid.len(), 1, "{:?}", summary.invalid);
    assert_eq!(summary.invalid[0].status, "no_obstacles");
    assert_eq!(summary.notices.get("state"), Some(&3));
    assert_eq!(
        summary.outputs.get("/cmd_vel"),
        Some(&(commands.len() as u64))
    );
    assert_eq!(summary.zone_stops, 1);
    assert_eq!(summary.exit_code(), 1, "stopped");
    let text = summary.to_string();
    for expected in [
        "replayed: 3.950 s of ROS time",
        "messages: 201 read, 201 used, 0 skipped",
        "stop PolygonStop: 1.950 s",
        "stop for PolygonStop: points in it at 102.000 s, stopped at 102.000 s",
        "flag not valid 100.000 s to 100.000 s (0.000 s): no_obstacles",
        "log: 3 state",
        "least clearance: 0.000 m at 103.100 s (scan)",
    ] {
        assert!(text.contains(expected), "{expected:?} in\n{text}");
    }
}

#[test]
fn each_json_line_is_one_output_message_in_order() {
    let dir = scratch("jsonl");
    run(&example_file(), &dir);
    let text = std::fs::read_to_string(dir.join("out.jsonl")).expect("jsonl");
    let types: BTreeMap<&str, &str> = [
        ("/cmd_vel", "geometry_msgs/msg/Twist"),
        ("/collision", "std_msgs/msg/Bool"),
        (
            "/collision_monitor_state",
            "nav2_msgs/msg/CollisionMonitorState",
        ),
        ("/polygon_stop", "geometry_msgs/msg/PolygonStamped"),
        ("/diagnostics", "diagnostic_msgs/msg/DiagnosticArray"),
    ]
    .into();
    let mut last = 0;
    for line in text.lines() {
        // Fields in this order, the message's fields named as ROS names them.
        assert!(line.starts_with(r#"{"log_time_ns":"#), "{line}");
        let (at_topic, at_type, at_message) = (
            line.find(r#","topic":""#).expect("topic"),
            line.find(r#","type":""#).expect("type"),
            line.find(r#","message":{"#).expect("message"),
        );
        assert!(at_topic < at_type && at_type < at_message, "{line}");
        let value: Value = serde_json::from_str(line).expect("JSON");
        let t = value["log_time_ns"].as_u64().expect("ns");
        assert!(t >= last, "in order");
        last = t;
        let topic = value["topic"].as_str().expect("topic");
        assert_eq!(
            Some(&value["type"].as_str().expect("type")),
            types.get(topic),
            "{line}"
        );
    }
    let twist = text
        .lines()
        .find(|l| l.contains(r#""topic":"/cmd_vel""#))
        .expect("a command");
    assert!(
        twist.contains(r#""message":{"linear":{"x":0.3,"y":0.0,"z":0.0},"angular":"#),
        "{twist}"
    );
}

#[test]
fn two_replays_give_the_same_bytes() {
    let bag = example_file();
    let (a, b) = (scratch("same_a"), scratch("same_b"));
    run(&bag, &a);
    run(&bag, &b);
    for file in ["out.jsonl", "out.mcap", "timeline.svg"] {
        let (x, y) = (std::fs::read(a.join(file)), std::fs::read(b.join(file)));
        assert!(x.as_ref().is_ok_and(|x| !x.is_empty()), "{file}");
        assert!(x.ok() == y.ok(), "{file} differs between two replays");
    }
}

#[test]
fn the_output_mcap_holds_the_inputs_and_the_outputs() {
    let dir = scratch("mcap");
    let summary = run(&example_file(), &dir);
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    let mut messages = bag::open(dir.join("out.mcap")).expect("opens");
    for record in messages.by_ref() {
        let record = record.expect("reads to its end");
        assert!(
            matches!(record.decode(), Ok(Some(_))),
            "{} decodes",
            record.topic
        );
        *counts.entry(record.topic.to_string()).or_default() += 1;
    }
    assert_eq!(counts.get("/tf_static"), Some(&1));
    assert_eq!(counts.get("/tf"), Some(&STEPS));
    assert_eq!(counts.get("/scan"), Some(&(STEPS / 2)));
    assert_eq!(counts.get("/cmd_vel_smoothed"), Some(&STEPS));
    for (topic, n) in &summary.outputs {
        assert_eq!(counts.get(topic), Some(n), "{topic}");
    }
}

#[test]
fn the_timeline_draws_the_flag_the_action_and_the_speeds() {
    let dir = scratch("svg");
    run(&example_file(), &dir);
    let svg = std::fs::read_to_string(dir.join("timeline.svg")).expect("svg");
    let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
    let class = |c: &str| {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some(c))
            .count()
    };
    assert!(class("flag") >= 3, "no_obstacles, clear, colliding");
    assert!(class("gate_action") >= 3, "stop, none, stop");
    assert_eq!(class("speed_in"), 1);
    assert_eq!(class("speed_out"), 1);
    assert_eq!(class("clearance"), 1);
}

#[test]
fn a_long_bag_keeps_its_lists_bounded() {
    // The obstacle comes and goes at every scan for 220 s: 1,100 stops.
    let mut w =
        sat_collision::bag::BagWriter::new(std::io::Cursor::new(Vec::new())).expect("writer");
    let statics = sat_collision::bag::msgs::TFMessage {
        transforms: vec![transform("base_link", "laser", T0, 0.0, 0.1)],
    };
    w.write("/tf_static", ns(T0), &statics).expect("tf_static");
    for i in 0..4_400u64 {
        let t = T0 + i as f64 * 0.05;
        if i % 2 == 0 {
            let range = if i % 4 == 0 { 0.3 } else { 5.0 };
            w.write("/scan", ns(t), &scan(t, range)).expect("scan");
        }
        w.write("/cmd_vel_smoothed", ns(t), &twist(SPEED))
            .expect("command");
    }
    let dir = scratch("long");
    let bag = write(
        &dir.join("long.mcap"),
        &w.finish().expect("finish").into_inner(),
    );
    let summary = run(&bag, &dir);
    assert_eq!(summary.zone_stops, 1_100);
    assert_eq!(summary.stops.len(), sat_collision::replay::MAX_LISTED);
    assert_eq!(summary.not_listed, 100);
    assert!(summary
        .to_string()
        .contains("(100 more intervals and stops not listed)"));
    let svg = std::fs::read_to_string(dir.join("timeline.svg")).expect("svg");
    let bands = svg.matches(r#"class="gate_action""#).count();
    assert!(bands <= sat_collision::replay::MAX_SAMPLES, "{bands}");
}

#[test]
fn a_rosbag2_directory_of_two_files_replays_as_the_one_file() {
    let part = |steps: std::ops::Range<u64>| {
        let mut w =
            sat_collision::bag::BagWriter::new(std::io::Cursor::new(Vec::new())).expect("writer");
        if steps.start == 0 {
            let statics = sat_collision::bag::msgs::TFMessage {
                transforms: vec![transform("base_link", "laser", T0, 0.0, 0.1)],
            };
            w.write("/tf_static", ns(T0), &statics).expect("tf_static");
        }
        for i in steps {
            write_step(&mut w, i);
        }
        w.finish().expect("finish").into_inner()
    };
    let dir = scratch("directory");
    let bag = dir.join("bag");
    std::fs::create_dir_all(&bag).expect("bag dir");
    write(&bag.join("bag_0.mcap"), &part(0..STEPS / 2));
    write(&bag.join("bag_1.mcap"), &part(STEPS / 2..STEPS));
    write(
        &bag.join("metadata.yaml"),
        b"rosbag2_bagfile_information:\n  version: 9\n  storage_identifier: mcap\n  \
          relative_file_paths: [bag_0.mcap, bag_1.mcap]\n",
    );
    let (one, two) = (scratch("directory_one"), scratch("directory_two"));
    let from_file = run(&example_file(), &one);
    let from_directory = run(&bag, &two);
    assert_eq!(from_directory, from_file);
    let read = |d: &std::path::Path| std::fs::read(d.join("out.jsonl")).expect("jsonl");
    assert!(read(&one) == read(&two), "the same outputs");
}
