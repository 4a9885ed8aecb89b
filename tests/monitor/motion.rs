//! The monitor's motion answers: `check_path` (the footprint swept along a
//! path, with the first contact, its time, distance and pose, and the
//! clearance per pose) and `predict` (the footprint moved along the
//! velocity), both fail-safe, both across frames.

use crate::common::{pose, rect};
use sat_collision::frames::{planar_transform, FrameTree};
use sat_collision::geometry::{Point, Shape, Vector};
use sat_collision::model::{Obstacle, ObstacleGeometry, Status};
use sat_collision::monitor::{path_times, Monitor, MonitorConfig, NoTransforms};
use sat_collision::planner::{Cancel, Cancelled};

fn obstacle(id: &str, points: Vec<Point>) -> Obstacle {
    Obstacle::new(id, &ObstacleGeometry::Polygon(points))
}

/// A 1 m × 0.6 m robot, origin at its centre.
fn robot() -> Shape {
    Shape::polygon(&rect(-0.5, -0.3, 0.5, 0.3)).expect("a rectangle")
}

fn monitor(obstacles: Vec<Obstacle>) -> Monitor {
    let mut m = Monitor::new(MonitorConfig {
        footprint_timeout: 0.0,
        obstacles_timeout: 0.0,
        ..MonitorConfig::default()
    });
    m.set_obstacles("map", obstacles, 0.0);
    m
}

/// A 1 m robot at poses 1.5 m apart leaves 0.5 m gaps between its
/// footprints; a 1 cm wall in one of them is missed by per-pose checks
/// (tunneling) and found by the swept check in that segment, at the exact
/// time.
#[test]
fn a_thin_wall_between_two_poses_is_found_at_the_right_time() {
    let poses: Vec<_> = (0..5).map(|k| pose(1.5 * k as f64, 0.0, 0.0)).collect();
    let times: Vec<f64> = (0..5).map(|k| k as f64).collect();
    // Between the footprints at k = 2 (front 3.5) and k = 3 (back 4.0).
    let m2 = monitor(vec![obstacle("wall", rect(3.7, -2.0, 3.71, 2.0))]);
    let per_pose = m2.check_trajectory(&robot(), &poses, 0.0, 0.0);
    assert_eq!(per_pose.check.first_collision, None, "the tunneling case");
    let path = m2.check_path(&robot(), &poses, &times, 0.0, 0.0);
    assert!(path.valid, "{:?}", path.status);
    assert_eq!(path.first_collision, Some(2));
    let impact = path.impact.expect("contact");
    // Front at 3.5 + 1.5 s⁻¹·t reaches 3.7 at t = 0.2/1.5 s into segment 2.
    let expected = 2.0 + 0.2 / 1.5;
    assert!((impact.time - expected).abs() < 1e-9, "{impact:?}");
    assert!(impact.exact);
    assert_eq!(impact.obstacle, Some(0));
    let distance = path.distance_to_collision.expect("distance");
    assert!((distance - (3.0 + 0.2)).abs() < 1e-9, "{distance}");
    assert!((impact.pose.translation.x - 3.2).abs() < 1e-9);
    // Clearance per pose: the wall is 3.7 - 0.5 - 1.5k from each front
    // (behind the robot after k = 3).
    assert_eq!(path.clearance.len(), 5);
    assert!(
        (path.clearance[0] - 3.2).abs() < 1e-9,
        "{:?}",
        path.clearance
    );
    assert!(
        (path.clearance[2] - 0.2).abs() < 1e-9,
        "{:?}",
        path.clearance
    );
    assert!(
        (path.clearance[3] - 0.29).abs() < 1e-9,
        "{:?}",
        path.clearance
    );
}

/// Pure rotation of a long footprint into a post (navigation2 #3171): the
/// poses before and after the turn are clear, the turn is not.
#[test]
fn turning_on_the_spot_into_a_post_is_found() {
    let long = Shape::polygon(&rect(-0.1, -0.1, 2.0, 0.1)).expect("a bar");
    // A post at 45°, 1.5 m out.
    let c = std::f64::consts::FRAC_1_SQRT_2 * 1.5;
    let m = monitor(vec![obstacle(
        "post",
        rect(c - 0.05, c - 0.05, c + 0.05, c + 0.05),
    )]);
    let poses = [
        pose(0.0, 0.0, 0.0),
        pose(0.0, 0.0, std::f64::consts::FRAC_PI_2),
    ];
    let per_pose = m.check_trajectory(&long, &poses, 0.0, 0.0);
    assert_eq!(per_pose.check.first_collision, None);
    let path = m.check_path(&long, &poses, &[0.0, 1.0], 0.0, 0.0);
    assert_eq!(path.first_collision, Some(0));
    let impact = path.impact.expect("contact");
    // The bar's edge y = 0.1 touches the post's near corner before 45°.
    assert!(impact.time > 0.2 && impact.time < 0.5, "{impact:?}");
    // Never late: at the reported time the bar does not yet overlap the
    // post by more than the tolerance, and just after it does touch soon.
    let at = m.check_trajectory(&long, &[impact.pose], 0.0, 0.0);
    assert!(at.check.distance[0] < 1e-6, "{:?}", at.check.distance);
}

/// An obstacle inside the footprint at the first pose (navigation2 #4355):
/// contact at time 0, segment 0.
#[test]
fn an_obstacle_inside_the_footprint_at_the_start_is_time_zero() {
    let m = monitor(vec![obstacle("inside", rect(-0.1, -0.1, 0.1, 0.1))]);
    let poses = [pose(0.0, 0.0, 0.0), pose(5.0, 0.0, 0.0)];
    let path = m.check_path(&robot(), &poses, &[0.0, 1.0], 0.0, 0.0);
    assert_eq!(path.first_collision, Some(0));
    assert_eq!(path.impact.map(|i| i.time), Some(0.0));
    assert_eq!(path.distance_to_collision, Some(0.0));
    assert_eq!(path.clearance[0], 0.0);
}

#[test]
fn path_times_use_increasing_stamps_else_one_second_apart() {
    assert_eq!(path_times(&[10.0, 10.5, 12.0]), vec![10.0, 10.5, 12.0]);
    assert_eq!(path_times(&[0.0, 0.0, 0.0]), vec![0.0, 1.0, 2.0]);
    assert_eq!(path_times(&[1.0, 3.0, 2.0]), vec![0.0, 1.0, 2.0]);
    assert_eq!(path_times(&[1.0, f64::NAN]), vec![0.0, 1.0]);
}

#[test]
fn a_path_without_obstacle_information_fails_safe() {
    let m = Monitor::new(MonitorConfig::default());
    let poses = [pose(0.0, 0.0, 0.0), pose(1.0, 0.0, 0.0)];
    let path = m.check_path(&robot(), &poses, &[0.0, 1.0], 0.0, 0.0);
    assert!(!path.valid);
    assert_eq!(path.status, Status::NoObstacles);
    assert_eq!(path.first_collision, Some(0));
    assert_eq!(path.impact.map(|i| i.time), Some(0.0));
    assert_eq!(path.clearance, vec![0.0, 0.0]);
}

/// Obstacles in `odom`, the path in `map`, `map → odom` a turn and a shift:
/// the same answer as the scene written in `map`.
#[test]
fn a_path_across_frames_matches_the_scene_in_one_frame() {
    let map_odom = pose(2.0, -1.0, 0.7);
    let wall_map = rect(3.7, -2.0, 3.71, 2.0);
    let wall_odom: Vec<Point> = wall_map.iter().map(|p| map_odom.inverse() * p).collect();
    let mut m = Monitor::new(MonitorConfig {
        footprint_timeout: 0.0,
        obstacles_timeout: 0.0,
        global_frame: "map".into(),
        ..MonitorConfig::default()
    });
    m.set_obstacles("odom", vec![obstacle("wall", wall_odom)], 0.0);
    let mut tree = FrameTree::new();
    let yaw = map_odom.rotation.angle();
    let t = planar_transform(
        [map_odom.translation.x, map_odom.translation.y, 0.0],
        [0.0, 0.0, (yaw / 2.0).sin(), (yaw / 2.0).cos()],
    );
    tree.insert("map", "odom", 0.0, t, true, 0.0)
        .expect("insert");
    m.place(&tree, 0.0);
    let poses: Vec<_> = (0..5).map(|k| pose(1.5 * k as f64, 0.0, 0.0)).collect();
    let times: Vec<f64> = (0..5).map(|k| k as f64).collect();
    let path = m.check_path(&robot(), &poses, &times, 0.0, 0.0);
    let same =
        monitor(vec![obstacle("wall", wall_map)]).check_path(&robot(), &poses, &times, 0.0, 0.0);
    assert!(path.valid, "{:?}", path.status);
    assert_eq!(path.first_collision, same.first_collision);
    let (a, b) = (path.impact.expect("contact"), same.impact.expect("contact"));
    assert!((a.time - b.time).abs() < 1e-9);
    assert!((a.pose.translation.vector - b.pose.translation.vector).norm() < 1e-9);
    for (x, y) in path.clearance.iter().zip(&same.clearance) {
        assert!((x - y).abs() < 1e-9, "{x} {y}");
    }
}

fn driving_monitor() -> Monitor {
    let mut m = Monitor::new(MonitorConfig {
        footprint_timeout: 0.0,
        obstacles_timeout: 0.0,
        velocity_timeout: 0.5,
        time_horizon: 2.0,
        base_frame: "base_link".into(),
        ..MonitorConfig::default()
    });
    m.set_footprint("base_link", &rect(-0.5, -0.3, 0.5, 0.3), 0.0);
    m.set_obstacles(
        "base_link",
        vec![obstacle("wall", rect(2.0, -2.0, 2.1, 2.0))],
        0.0,
    );
    m
}

#[test]
fn predict_finds_the_wall_ahead_and_fails_safe_without_velocity() {
    let mut m = driving_monitor();
    let none = m.predict(&NoTransforms, 0.1);
    assert_eq!(none.status, Status::NoVelocity);
    assert!(none.ahead, "fail-safe");
    // 1 m/s forward: the front (0.5) meets the wall (2.0) at 1.5 s.
    m.set_velocity("", Vector::new(1.0, 0.0), 0.0, 0.1);
    let p = m.predict(&NoTransforms, 0.2);
    assert!(p.valid());
    let impact = p.impact.expect("contact within 2 s");
    assert!((impact.time - 1.5).abs() < 1e-9, "{impact:?}");
    assert_eq!(impact.obstacle, Some(0));
    assert!(p.ahead);
    // 0.5 m/s: 3 s, beyond the horizon.
    m.set_velocity("", Vector::new(0.5, 0.0), 0.0, 0.2);
    let p = m.predict(&NoTransforms, 0.3);
    assert!(p.valid() && p.impact.is_none() && !p.ahead);
    // Stale: fail-safe.
    let p = m.predict(&NoTransforms, 0.8);
    assert_eq!(p.status, Status::StaleVelocity);
    assert!(p.ahead);
    // Not finite.
    m.set_velocity("", Vector::new(f64::NAN, 0.0), 0.0, 1.0);
    assert_eq!(
        m.predict(&NoTransforms, 1.0).status,
        Status::InvalidVelocity
    );
    // Backing away from the wall: nothing ahead.
    m.set_velocity("", Vector::new(-1.0, 0.0), 0.0, 1.0);
    let p = m.predict(&NoTransforms, 1.0);
    assert!(p.valid() && !p.ahead);
}

/// Turning on the spot: a long robot sweeps into a post beside it.
#[test]
fn predict_along_an_arc_finds_a_post_the_robot_turns_into() {
    let mut m = Monitor::new(MonitorConfig {
        footprint_timeout: 0.0,
        obstacles_timeout: 0.0,
        ..MonitorConfig::default()
    });
    m.set_footprint("base_link", &rect(-0.1, -0.1, 2.0, 0.1), 0.0);
    let c = std::f64::consts::FRAC_1_SQRT_2 * 1.5;
    m.set_obstacles(
        "base_link",
        vec![obstacle(
            "post",
            rect(c - 0.05, c - 0.05, c + 0.05, c + 0.05),
        )],
        0.0,
    );
    m.set_velocity("base_link", Vector::new(0.0, 0.0), 1.0, 0.0);
    let p = m.predict(&NoTransforms, 0.0);
    let impact = p.impact.expect("contact");
    assert!(impact.time > 0.2 && impact.time < std::f64::consts::FRAC_PI_4);
    // The velocity in a frame TF cannot relate to the footprint's.
    m.set_velocity("wheel", Vector::new(1.0, 0.0), 0.0, 0.0);
    assert_eq!(m.predict(&NoTransforms, 0.0).status, Status::FrameMismatch);
}

/// The node's service jobs watch a [`Cancel`]: unset, the answers are
/// those of `check_path` and `check_trajectory`; set, both stop without
/// one.
#[test]
fn cancelled_checks_stop_without_an_answer() {
    let poses: Vec<_> = (0..50).map(|k| pose(0.2 * k as f64, 0.0, 0.0)).collect();
    let times: Vec<f64> = (0..50).map(|k| k as f64).collect();
    let m = monitor(vec![obstacle("wall", rect(3.7, -2.0, 3.71, 2.0))]);
    let cancel = Cancel::new();
    let path = m
        .check_path_until(&robot(), &poses, &times, 0.0, 0.0, &cancel)
        .expect("not cancelled");
    assert_eq!(path, m.check_path(&robot(), &poses, &times, 0.0, 0.0));
    let per_pose = m
        .check_trajectory_until(&robot(), &poses, 0.0, 0.0, &cancel)
        .expect("not cancelled");
    assert_eq!(per_pose, m.check_trajectory(&robot(), &poses, 0.0, 0.0));
    cancel.clone().cancel();
    assert_eq!(
        m.check_path_until(&robot(), &poses, &times, 0.0, 0.0, &cancel),
        Err(Cancelled)
    );
    assert_eq!(
        m.check_trajectory_until(&robot(), &poses, 0.0, 0.0, &cancel),
        Err(Cancelled)
    );
}
