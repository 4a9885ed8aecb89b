//! The `check_footprint` service (sat_collision_msgs/srv/CheckFootprint)
//! called over ROS 2 against the running node.
#![cfg(feature = "ros")]

mod node_common;

use node_common::*;
use r2r::geometry_msgs::msg::Polygon;
use r2r::rcl_interfaces::msg::ParameterValue;
use r2r::sat_collision_msgs::srv::CheckFootprint;
use std::f64::consts::FRAC_PI_2;

/// A wall across the x axis, 3 m ahead: x in [3, 3.25], y in [-1, 1].
fn wall() -> Vec<(f64, f64)> {
    rect(3.0, -1.0, 3.25, 1.0)
}

/// Robot-frame footprint: 1 m long, 0.5 m wide.
fn robot() -> Polygon {
    polygon(&rect(-0.5, -0.25, 0.5, 0.25))
}

fn request(footprint: Polygon, poses: &[(f64, f64, f64)], padding: f64) -> CheckFootprint::Request {
    CheckFootprint::Request {
        footprint,
        poses: poses.iter().map(|&(x, y, yaw)| pose(x, y, yaw)).collect(),
        padding,
    }
}

fn close_all(actual: &[f64], expected: &[f64], what: &str) {
    assert_eq!(actual.len(), expected.len(), "{what}: {actual:?}");
    for (a, e) in actual.iter().zip(expected) {
        assert!((a - e).abs() <= EPS, "{what}: {actual:?} != {expected:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clear_trajectory() {
    let mut h = Harness::start("s_clear", &[]).await;
    h.set_obstacles(Some(obstacles("map", vec![obstacle("wall", &wall())])));
    h.set_footprint(Some(footprint("map", &square(-5.0, 0.0, 0.5))));
    h.report_where("valid", SETTLE, |r| r.valid).await;

    let poses = [
        (0.0, 0.0, 0.0),
        (0.5, 0.0, 0.0),
        (1.0, 0.5, 0.0),
        (2.0, 0.0, FRAC_PI_2),
    ];
    let r = h.check_footprint(request(robot(), &poses, 0.0)).await;
    assert!(r.valid, "{r:?}");
    assert_eq!(r.status, "ok");
    assert_eq!(r.colliding, [false; 4]);
    assert_eq!(r.first_collision, -1);
    // Front at x + 0.5, or x + 0.25 when turned 90 degrees.
    close_all(&r.distance, &[2.5, 2.0, 1.5, 0.75], "distances");

    // An empty footprint and no robot_footprint/robot_radius parameter:
    // not checkable, fail-safe.
    let r = h
        .check_footprint(request(Polygon::default(), &poses, 0.0))
        .await;
    assert!(!r.valid);
    assert_eq!(r.status, "no_robot_footprint");
    assert_eq!(r.colliding, [true; 4]);
    assert_eq!(r.first_collision, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn first_collision_is_the_index_of_the_first_colliding_pose() {
    let mut h = Harness::start("s_hit", &[]).await;
    h.set_obstacles(Some(obstacles("map", vec![obstacle("wall", &wall())])));
    h.set_footprint(Some(footprint("map", &square(-5.0, 0.0, 0.5))));
    h.report_where("valid", SETTLE, |r| r.valid).await;

    // 0.5 m steps: at x = 2.5 the front touches the wall (touching counts).
    let poses: Vec<(f64, f64, f64)> = (0..8).map(|k| (0.5 * f64::from(k), 0.0, 0.0)).collect();
    let r = h.check_footprint(request(robot(), &poses, 0.0)).await;
    assert!(r.valid, "{r:?}");
    assert_eq!(
        r.colliding,
        [false, false, false, false, false, true, true, true]
    );
    assert_eq!(r.first_collision, 5);
    close_all(
        &r.distance,
        &[2.5, 2.0, 1.5, 1.0, 0.5, 0.0, 0.0, 0.0],
        "distances",
    );

    // The request's padding adds to the node's: 0.6 m reaches the wall from
    // x = 2.0 (gap 0.5).
    let r = h.check_footprint(request(robot(), &poses, 0.6)).await;
    assert_eq!(r.first_collision, 4, "{r:?}");

    // Yaw is honoured: turned 90 degrees, the robot is 0.25 m shorter ahead.
    let r = h
        .check_footprint(request(
            robot(),
            &[(2.6, 0.0, 0.0), (2.6, 0.0, FRAC_PI_2)],
            0.0,
        ))
        .await;
    assert_eq!(r.colliding, [true, false], "{r:?}");
    assert_eq!(r.first_collision, 0);
    assert!((r.distance[1] - 0.15).abs() <= EPS, "{r:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stale_obstacles_answer_invalid_and_all_colliding() {
    let mut h = Harness::start("s_stale", &[("obstacles_timeout", "0.8")]).await;
    h.set_obstacles(Some(obstacles("map", vec![obstacle("wall", &wall())])));
    h.set_footprint(Some(footprint("map", &square(-5.0, 0.0, 0.5))));
    h.report_where("valid", SETTLE, |r| r.valid).await;
    let poses = [(0.0, 0.0, 0.0), (0.5, 0.0, 0.0), (1.0, 0.0, 0.0)];
    let r = h.check_footprint(request(robot(), &poses, 0.0)).await;
    assert!(r.valid, "fresh: {r:?}");
    assert_eq!(r.first_collision, -1);

    // The obstacle source goes silent.
    h.set_obstacles(None);
    h.report_with_status("stale_obstacles").await;
    let r = h.check_footprint(request(robot(), &poses, 0.0)).await;
    assert!(!r.valid, "{r:?}");
    assert_eq!(r.status, "stale_obstacles");
    assert_eq!(r.colliding, [true; 3], "fail_safe: every pose colliding");
    assert_eq!(r.first_collision, 0);

    // Without fail_safe the answer is still invalid, but follows geometry.
    let set = h
        .set_parameter(
            "fail_safe",
            ParameterValue {
                type_: 1,
                bool_value: false,
                ..Default::default()
            },
        )
        .await;
    assert!(set.successful, "{set:?}");
    h.report_where("not colliding without fail_safe", SETTLE, |r| {
        r.status == "stale_obstacles" && !r.colliding
    })
    .await;
    let r = h.check_footprint(request(robot(), &poses, 0.0)).await;
    assert!(!r.valid);
    assert_eq!(r.status, "stale_obstacles");
    assert_eq!(r.colliding, [false; 3], "{r:?}");
    assert_eq!(r.first_collision, -1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn empty_footprint_uses_robot_radius() {
    let mut h = Harness::start("s_radius", &[("robot_radius", "0.3")]).await;
    // A wall 1 m ahead.
    h.set_obstacles(Some(obstacles(
        "map",
        vec![obstacle("wall", &rect(1.0, -1.0, 1.25, 1.0))],
    )));
    h.set_footprint(Some(footprint("map", &square(-5.0, 0.0, 0.5))));
    h.report_where("valid", SETTLE, |r| r.valid).await;
    let r = h
        .check_footprint(request(
            Polygon::default(),
            &[(0.0, 0.0, 0.0), (0.0, 0.0, 1.0), (0.75, 0.0, 0.0)],
            0.0,
        ))
        .await;
    assert!(r.valid, "{r:?}");
    assert_eq!(r.status, "ok");
    // A circle of 0.3 m: 0.7 m clear whatever the yaw, colliding at 0.75.
    assert_eq!(r.colliding, [false, false, true]);
    close_all(&r.distance, &[0.7, 0.7, 0.0], "distances");
    assert_eq!(r.first_collision, 2);
}
