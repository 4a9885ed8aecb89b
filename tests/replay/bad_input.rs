//! Bad bags and bad parameters: a clear error or a counted skip, never a
//! panic.

use super::common::*;
use sat_collision::bag::{msgs, BagWriter};
use sat_collision::replay::{self, ReplayError};
use std::io::Cursor;

#[test]
fn a_truncated_bag_is_replayed_up_to_the_cut_then_reported() {
    let dir = scratch("truncated");
    let bytes = example_bag();
    // Cut in its one chunk (no message is delivered before the chunk's
    // CRC is checked), and in its summary section (every message is).
    let mut read = Vec::new();
    for (name, cut) in [("chunk", bytes.len() / 10), ("summary", bytes.len() - 40)] {
        let bag = write(&dir.join(format!("{name}.mcap")), &bytes[..cut]);
        let summary = run(&bag, &dir);
        let error = summary.bag_error.as_deref().expect("the cut is reported");
        assert!(error.contains("truncated"), "{error}");
        assert_eq!(summary.exit_code(), 2);
        assert!(summary.to_string().contains("error: the bag ended early"));
        read.push(summary.messages);
    }
    assert_eq!(read, [0, 201]);
    // What was replayed is written, and the MCAP is whole.
    let mut out = sat_collision::bag::open(dir.join("out.mcap")).expect("opens");
    assert!(out.by_ref().all(|r| r.is_ok()));
}

#[test]
fn messages_the_node_cannot_take_are_skipped_and_counted_by_reason() {
    let dir = scratch("skips");
    let mut w = BagWriter::new(Cursor::new(Vec::new())).expect("writer");
    let statics = msgs::TFMessage {
        transforms: vec![transform("base_link", "laser", T0, 0.0, 0.1)],
    };
    w.write("/tf_static", ns(T0), &statics).expect("tf_static");
    for i in 0..10 {
        write_step(&mut w, i);
    }
    let t = T0 + 0.6;
    raw(
        &mut w,
        "/scan",
        "foo_msgs/msg/Bar",
        t,
        &[0, 1, 0, 0, 1, 2, 3, 4],
    );
    w.write("/scan", ns(t), &twist(1.0))
        .expect("a twist on the scan's topic");
    raw(
        &mut w,
        "/scan",
        "sensor_msgs/msg/LaserScan",
        t,
        &[0, 1, 0, 0, 9],
    );
    w.write("/camera", ns(t), &msgs::Bool { data: true })
        .expect("camera");
    let mut bad_frame = scan(t, 5.0);
    bad_frame.header.frame_id = "la\0ser".into();
    w.write("/scan", ns(t), &bad_frame)
        .expect("a frame id with a NUL");
    w.write("/cmd_vel_smoothed", ns(T0 + 0.1), &twist(0.1))
        .expect("back in time");
    let bag = write(
        &dir.join("skips.mcap"),
        &w.finish().expect("finish").into_inner(),
    );
    let summary = run(&bag, &dir);
    let skipped = |key: &str| {
        summary
            .skipped
            .iter()
            .filter(|(k, _)| k.starts_with(key))
            .map(|(_, n)| *n)
            .sum::<u64>()
    };
    assert_eq!(
        skipped("type foo_msgs/msg/Bar unknown to the replay: /scan"),
        1
    );
    assert_eq!(
        skipped(
            "type geometry_msgs/msg/Twist where the node takes sensor_msgs/msg/LaserScan: /scan"
        ),
        1
    );
    assert_eq!(
        skipped("does not decode: /scan"),
        1,
        "{:?}",
        summary.skipped
    );
    assert!(summary.decode_errors.contains_key("/scan"));
    assert_eq!(skipped("not an input of the node: /camera"), 1);
    assert_eq!(
        skipped("log time before the previous message's: /cmd_vel_smoothed"),
        1
    );
    assert_eq!(summary.bag_error, None);
    assert_eq!(summary.messages, 1 + 10 + 5 + 10 + 6);
    assert_eq!(summary.used, summary.messages - 5);
    // The scan with the bad frame id was read and refused, as the node does.
    assert!(
        summary.notices.get("source").is_some_and(|n| *n > 0),
        "{:?}",
        summary.notices
    );
    let text = summary.to_string();
    assert!(text.contains("5 skipped"), "{text}");
    // The output MCAP copies the node's input topics only; of the foreign
    // type and the undecodable scan, what its schemas can say.
    let mut copied = std::collections::BTreeMap::<String, u64>::new();
    for record in sat_collision::bag::open(dir.join("out.mcap")).expect("opens") {
        *copied
            .entry(record.expect("reads").topic.to_string())
            .or_default() += 1;
    }
    assert_eq!(copied.get("/camera"), None);
    assert_eq!(copied.get("/scan"), Some(&(5 + 1 + 1 + 1)), "{copied:?}");
    assert!(
        summary
            .notes
            .iter()
            .any(|n| n.starts_with("1 input records of types")),
        "{:?}",
        summary.notes
    );
    assert!(
        text.contains("skipped 1: not an input of the node: /camera"),
        "{text}"
    );
}

#[test]
fn not_a_bag_and_bad_parameters_are_errors() {
    let dir = scratch("errors");
    let garbage = write(
        &dir.join("garbage.mcap"),
        b"this is not an MCAP file at all",
    );
    let summary = run(&garbage, &dir);
    assert!(summary
        .bag_error
        .as_deref()
        .is_some_and(|e| e.contains("not an MCAP")));
    assert_eq!(summary.exit_code(), 2);
    let missing = options(&dir.join("missing.mcap"), &dir);
    assert!(matches!(replay::replay(&missing), Err(ReplayError::Bag(_))));
    let bag = write(&dir.join("in.mcap"), &example_bag());
    let mut other = options(&bag, &dir);
    other.node_name = "collision_monitor".into();
    let error = replay::replay(&other).expect_err("no such entry");
    assert!(matches!(error, ReplayError::Params(_)));
    assert!(
        error
            .to_string()
            .contains("no parameters for node `collision_monitor`"),
        "{error}"
    );
    let mut bad = options(&bag, &dir);
    bad.params = write(
        &dir.join("bad.yaml"),
        b"sat_collision_node:\n  ros__parameters:\n    publish_rate: -1.0\n",
    );
    assert!(matches!(replay::replay(&bad), Err(ReplayError::Params(_))));
}

/// The example's parameters with `use_sim_time: true`.
fn sim_params(dir: &std::path::Path) -> std::path::PathBuf {
    let text = std::fs::read_to_string(params()).expect("params");
    write(
        &dir.join("sim.yaml"),
        format!("{text}    use_sim_time: true\n").as_bytes(),
    )
}

#[test]
fn sim_time_follows_clock_and_without_clock_is_an_error() {
    let dir = scratch("sim");
    let mut options = options(&write(&dir.join("in.mcap"), &example_bag()), &dir);
    options.params = sim_params(&dir);
    let summary = replay::replay(&options).expect("replays");
    assert!(summary.no_clock);
    assert_eq!(summary.ticks, 0, "ROS time never set: no tick");
    assert_eq!(summary.exit_code(), 2);
    assert!(summary.to_string().contains("the bag has no /clock"));

    // With /clock at 500 s + the bag's time: ROS time is the clock's.
    let mut w = BagWriter::new(Cursor::new(Vec::new())).expect("writer");
    let statics = msgs::TFMessage {
        transforms: vec![transform("base_link", "laser", 500.0, 0.0, 0.1)],
    };
    for i in 0..STEPS {
        let s = i as f64 * 0.05;
        let clock = msgs::Clock {
            clock: time(500.0 + s),
        };
        w.write("/clock", ns(T0 + s), &clock).expect("clock");
        if i == 0 {
            w.write("/tf_static", ns(T0), &statics).expect("tf_static");
        }
        let tf = msgs::TFMessage {
            transforms: vec![transform("odom", "base_link", 500.0 + s, 0.0, 0.0)],
        };
        w.write("/tf", ns(T0 + s), &tf).expect("tf");
        if i % 2 == 0 {
            w.write("/scan", ns(T0 + s), &scan(500.0 + s, 5.0))
                .expect("scan");
        }
        w.write("/cmd_vel_smoothed", ns(T0 + s), &twist(SPEED))
            .expect("command");
    }
    options.bag = write(
        &dir.join("clock.mcap"),
        &w.finish().expect("finish").into_inner(),
    );
    let summary = replay::replay(&options).expect("replays");
    assert!(!summary.no_clock);
    assert_eq!(summary.span, Some((500.0, 503.95)));
    assert_eq!(summary.ticks, 39);
    assert_eq!(summary.zone_stops, 0, "nothing comes near");
    assert_eq!(
        summary.exit_code(),
        0,
        "a stop before the first scan is not one for a zone"
    );
    assert!(summary
        .zone_times
        .iter()
        .any(|z| z.zone == "invalid source"));
    assert_eq!(summary.collisions, 0);
    assert!(summary.commands_out > 0);
}
