//! The other inputs: stamped commands, a point cloud, a polygon source,
//! an obstacle array, each through the replay as the node takes it.

use super::common::*;
use sat_collision::bag::{msgs, BagWriter};
use sat_collision::replay::{self, Summary};
use serde_json::Value;
use std::io::Cursor;
use std::path::Path;

/// The example's parameters with `from` replaced by `to` (each must be
/// there), written into `dir`.
fn params_with(dir: &Path, edits: &[(&str, &str)]) -> std::path::PathBuf {
    let mut text = std::fs::read_to_string(params()).expect("params");
    for (from, to) in edits {
        assert!(text.contains(from), "{from}");
        text = text.replace(from, to);
    }
    write(&dir.join("params.yaml"), text.as_bytes())
}

/// Replays a bag written by `steps` (after the static laser) with the
/// parameters `params`.
fn replay_with(
    dir: &Path,
    params: std::path::PathBuf,
    mut steps: impl FnMut(&mut BagWriter<Cursor<Vec<u8>>>, u64, f64),
) -> Summary {
    let mut w = BagWriter::new(Cursor::new(Vec::new())).expect("writer");
    let statics = msgs::TFMessage {
        transforms: vec![transform("base_link", "laser", T0, 0.0, 0.1)],
    };
    w.write("/tf_static", ns(T0), &statics).expect("tf_static");
    for i in 0..STEPS {
        let t = T0 + i as f64 * 0.05;
        let tf = msgs::TFMessage {
            transforms: vec![transform("odom", "base_link", t, 0.0, 0.0)],
        };
        w.write("/tf", ns(t), &tf).expect("tf");
        steps(&mut w, i, t);
    }
    let bag = write(
        &dir.join("in.mcap"),
        &w.finish().expect("finish").into_inner(),
    );
    let mut options = options(&bag, dir);
    options.params = params;
    replay::replay(&options).expect("replays")
}

fn on<'a>(lines: &'a [Value], topic: &str) -> Vec<&'a Value> {
    lines.iter().filter(|l| l["topic"] == topic).collect()
}

#[test]
fn stamped_commands_keep_their_header_and_a_recheck_is_stamped_now() {
    let dir = scratch("stamped");
    let params = params_with(
        &dir,
        &[(
            "    stop_pub_timeout: 5.0\n",
            "    stop_pub_timeout: 5.0\n    enable_stamped_cmd_vel: true\n",
        )],
    );
    let summary = replay_with(&dir, params, |w, i, t| {
        if i % 2 == 0 {
            let range = if t >= T0 + ENTERS - 1e-9 { 0.3 } else { 5.0 };
            w.write("/scan", ns(t), &scan(t, range)).expect("scan");
        }
        let command = msgs::TwistStamped {
            header: header("base_link", t - 0.01),
            twist: twist(SPEED),
        };
        w.write("/cmd_vel_smoothed", ns(t), &command)
            .expect("command");
    });
    assert_eq!(summary.commands_in, STEPS);
    let lines = lines(&dir);
    let out = on(&lines, "/cmd_vel");
    assert!(!out.is_empty());
    let mut kept = 0;
    for line in &out {
        assert_eq!(line["type"], "geometry_msgs/msg/TwistStamped");
        let m = &line["message"];
        assert_eq!(m["header"]["frame_id"], "base_link");
        let stamp = m["header"]["stamp"]["sec"].as_f64().expect("sec")
            + m["header"]["stamp"]["nanosec"].as_f64().expect("nanosec") * 1e-9;
        let logged = line["log_time_ns"].as_u64().expect("ns") as f64 * 1e-9;
        // The command's own stamp (10 ms before it was logged), or a
        // re-check's: the time of the tick.
        if (logged - stamp - 0.01).abs() < 1e-6 {
            kept += 1;
        } else {
            assert!((logged - stamp).abs() < 1e-6, "{line}");
        }
    }
    assert!(kept >= STEPS as usize, "{kept}");
    assert_eq!(summary.zone_stops, 1);
}

/// A cloud of `points` (x, y, z float32) in `frame`.
fn cloud(frame: &str, t: f64, points: &[[f32; 3]]) -> msgs::PointCloud2 {
    let field = |name: &str, offset| msgs::PointField {
        name: name.into(),
        offset,
        datatype: 7,
        count: 1,
    };
    msgs::PointCloud2 {
        header: header(frame, t),
        height: 1,
        width: points.len() as u32,
        fields: vec![field("x", 0), field("y", 4), field("z", 8)],
        is_bigendian: false,
        point_step: 12,
        row_step: 12 * points.len() as u32,
        data: points
            .iter()
            .flat_map(|p| p.iter().flat_map(|c| c.to_le_bytes()))
            .collect(),
        is_dense: true,
    }
}

#[test]
fn a_point_cloud_is_moved_into_the_base_frame_and_stops_the_gate() {
    let dir = scratch("cloud");
    let params = params_with(
        &dir,
        &[(
            "      type: \"scan\"\n      topic: \"scan\"",
            "      type: \"pointcloud\"\n      topic: \"points\"",
        )],
    );
    let summary = replay_with(&dir, params, |w, i, t| {
        if i % 2 == 0 {
            // Four points ahead, 0.1 m above the base frame (the laser
            // frame's origin): inside the zone from 2 s.
            let x = if t >= T0 + ENTERS - 1e-9 { 0.3 } else { 3.0 };
            let points = [
                [x, -0.1, 0.0],
                [x, 0.0, 0.0],
                [x, 0.1, 0.0],
                [x + 0.05, 0.0, 0.0],
            ];
            w.write("/points", ns(t), &cloud("laser", t, &points))
                .expect("cloud");
        }
        w.write("/cmd_vel_smoothed", ns(t), &twist(SPEED))
            .expect("command");
    });
    assert!(summary.skipped.is_empty(), "{:?}", summary.skipped);
    assert_eq!(summary.zone_stops, 1, "{summary}");
    assert_eq!(summary.stops[0].appeared, Some(T0 + ENTERS));
    assert_eq!(summary.collisions, 0);
    let least = summary.least_clearance.as_ref().expect("a clearance");
    assert!((least.metres - 0.1).abs() < 1e-6, "{least:?}");
}

#[test]
fn a_polygon_source_stops_the_gate_with_its_instances() {
    let dir = scratch("polygon");
    let params = params_with(
        &dir,
        &[(
            "      type: \"scan\"\n      topic: \"scan\"",
            "      type: \"polygon\"\n      topic: \"polygons\"",
        )],
    );
    let summary = replay_with(&dir, params, |w, i, t| {
        if i % 2 == 0 {
            let x = if t >= T0 + ENTERS - 1e-9 { 0.3 } else { 3.0 };
            let corner = |dx: f32, dy: f32| msgs::Point32 {
                x: x + dx,
                y: dy,
                z: 0.0,
            };
            let instance = msgs::PolygonInstanceStamped {
                header: header("base_link", t),
                polygon: msgs::PolygonInstance {
                    polygon: msgs::Polygon {
                        points: vec![
                            corner(0.0, -0.1),
                            corner(0.1, -0.1),
                            corner(0.1, 0.1),
                            corner(0.0, 0.1),
                        ],
                    },
                    id: 7,
                },
            };
            w.write("/polygons", ns(t), &instance).expect("instance");
        }
        w.write("/cmd_vel_smoothed", ns(t), &twist(SPEED))
            .expect("command");
    });
    assert!(summary.skipped.is_empty(), "{:?}", summary.skipped);
    assert_eq!(summary.zone_stops, 1, "{summary}");
    let stop = &summary.stops[0];
    assert_eq!(stop.zone, "PolygonStop");
    // The polygon in the zone is what lies in it: the stop's latency is
    // measured from it, as from a point source's points.
    let appeared = stop.appeared.expect("the polygon lay in the zone");
    assert!((T0 + ENTERS - 1e-9..T0 + ENTERS + 0.1).contains(&appeared));
    assert!(stop.stopped >= appeared && stop.stopped < T0 + ENTERS + 0.1);
    assert!(stop.latency().is_some_and(|l| l < 0.1), "{summary}");
}

#[test]
fn an_obstacle_array_over_the_footprint_raises_the_flag() {
    let dir = scratch("array");
    let summary = replay_with(&dir, params(), |w, i, t| {
        if i % 2 == 0 {
            w.write("/scan", ns(t), &scan(t, 5.0)).expect("scan");
        }
        let x = if t >= T0 + TOUCHES - 1e-9 { 0.1 } else { 2.0 };
        let square = |x: f32| msgs::Polygon {
            points: [(0.0, -0.1), (0.2, -0.1), (0.2, 0.1), (0.0, 0.1)]
                .iter()
                .map(|&(dx, dy)| msgs::Point32 {
                    x: x + dx,
                    y: dy,
                    z: 0.0,
                })
                .collect(),
        };
        let array = msgs::ObstacleArray {
            header: header("odom", t),
            obstacles: vec![msgs::Obstacle {
                id: "box".into(),
                polygon: square(x),
                radius: 0.0,
            }],
        };
        w.write("/obstacles", ns(t), &array).expect("obstacles");
        w.write("/cmd_vel_smoothed", ns(t), &twist(SPEED))
            .expect("command");
    });
    assert!(summary.skipped.is_empty(), "{:?}", summary.skipped);
    assert_eq!(summary.first_collision, Some(T0 + TOUCHES));
    assert_eq!(summary.zone_stops, 0, "the gate acts on sources only");
    assert_eq!(summary.exit_code(), 1, "a collision was flagged");
    assert!(summary
        .least_clearance
        .is_some_and(|c| c.metres == 0.0 && c.nearest == "box"));
}

/// A recorded fleet (issue 32 on issue 30's core): another robot's
/// `FleetRobot` messages replayed into the fleet source stop the gate
/// when its footprint enters the stop zone, and this robot's own state is
/// among the outputs on the fleet topic, as the node publishes it.
#[test]
fn a_recorded_peer_stops_the_gate_and_this_robot_is_published() {
    let dir = scratch("fleet");
    let params = params_with(
        &dir,
        &[
            (
                "    observation_sources: [\"scan\"]\n    scan:\n      type: \"scan\"\n      topic: \"scan\"\n",
                "    observation_sources: [\"fleet\"]\n    fleet:\n      type: \"fleet\"\n",
            ),
            (
                "    publish_rate: 10.0\n",
                "    publish_rate: 10.0\n    robot_id: \"r1\"\n    fleet_frame: \"odom\"\n    fleet_rate: 5.0\n",
            ),
        ],
    );
    let summary = replay_with(&dir, params, |w, i, t| {
        if i % 2 == 0 {
            // 3 m ahead, then (from ENTERS) 0.6 m: its 0.4 m square
            // reaches x = 0.4, inside the stop zone (x in [0, 0.5]).
            let x = if t >= T0 + ENTERS - 1e-9 { 0.6 } else { 3.0 };
            let half = 0.2_f32;
            let peer = msgs::FleetRobot {
                header: header("odom", t),
                robot_id: "r2".to_owned(),
                session: 9,
                sequence: i + 1,
                footprint: msgs::Polygon {
                    points: [(-half, -half), (half, -half), (half, half), (-half, half)]
                        .iter()
                        .map(|&(x, y)| msgs::Point32 { x, y, z: 0.0 })
                        .collect(),
                },
                pose: msgs::Pose {
                    position: msgs::Point { x, y: 0.0, z: 0.0 },
                    orientation: msgs::Quaternion {
                        x: 0.0,
                        y: 0.0,
                        z: 0.0,
                        w: 1.0,
                    },
                },
                max_linear_speed: 1.0,
                max_angular_speed: 1.0,
                ..msgs::FleetRobot::default()
            };
            w.write("/fleet/robots", ns(t), &peer).expect("fleet");
        }
        w.write("/cmd_vel_smoothed", ns(t), &twist(SPEED))
            .expect("command");
    });
    assert_eq!(summary.zone_stops, 1, "{summary:?}");
    let lines = lines(&dir);
    let out = on(&lines, "/cmd_vel");
    let first_zero = out
        .iter()
        .find(|l| l["message"]["linear"]["x"] == 0.0)
        .and_then(|l| l["log_time_ns"].as_u64())
        .expect("a stop");
    let stopped = first_zero as f64 * 1e-9 - T0;
    assert!(
        (ENTERS - 1e-6..ENTERS + 0.06).contains(&stopped),
        "stopped at {stopped}"
    );
    // This robot, at fleet_rate, from TF.
    let mine = on(&lines, "/fleet/robots");
    assert!(mine.len() >= 15, "{}", mine.len());
    assert!(mine.iter().all(|l| l["message"]["robot_id"] == "r1"));
}
