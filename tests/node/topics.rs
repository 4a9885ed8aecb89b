//! `sat_collision_node` over real ROS 2 topics: the binary runs as a child
//! process in a namespace of its own, an r2r peer publishes footprints and
//! obstacles and reads `collision_report` and `collision`.
//!
//! Every coordinate is exactly representable in float32 (the type of
//! `geometry_msgs/Point32`), so expected lengths are exact up to f64
//! rounding.
#![cfg(feature = "ros")]

use crate::node_common::*;
use r2r::sat_collision_msgs::msg::CollisionReport;
use std::time::{Duration, Instant};

/// The robot in every scene: a 1 m square centred on the origin.
fn robot() -> Vec<(f64, f64)> {
    square(0.0, 0.0, 0.5)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clear_scene_reports_exact_clearance_and_nearest_obstacle() {
    let mut h = Harness::start("clear", &[]).await;
    h.set_footprint(Some(footprint("map", &robot())));
    h.set_obstacles(Some(obstacles(
        "map",
        vec![
            obstacle("far", &rect(2.0, -0.5, 3.0, 0.5)),
            obstacle("near", &rect(-0.5, 1.25, 0.5, 2.0)),
            // Closest features are two vertices: (0.5, 0.5) and (2.5, 2.5).
            obstacle("diagonal", &square(3.0, 3.0, 0.5)),
        ],
    )));
    let r = h
        .report_where("valid, 3 results", SETTLE, |r| {
            r.valid && r.results.len() == 3
        })
        .await;
    assert_eq!(r.status, "ok");
    assert!(!r.colliding);
    assert_eq!(r.header.frame_id, "map");
    assert_eq!(
        result_ids(&r),
        ["far", "near", "diagonal"],
        "results in input order"
    );
    assert_close(r.min_distance, 0.75, "min_distance");
    assert_eq!(r.nearest_obstacle_id, "near");
    let expected = [
        ("far", 1.5, (1.0, 0.0)),
        ("near", 0.75, (0.0, 1.0)),
        ("diagonal", 8f64.sqrt(), (0.5f64.sqrt(), 0.5f64.sqrt())),
    ];
    for (id, distance, axis) in expected {
        let o = result(&r, id);
        assert_eq!(o.status, "ok", "{id}");
        assert!(!o.colliding, "{id}");
        assert_eq!(o.penetration_depth, 0.0, "{id}");
        assert_eq!(
            (o.mtv.x, o.mtv.y, o.mtv.z),
            (0.0, 0.0, 0.0),
            "{id}: no mtv when apart"
        );
        assert_close(o.distance, distance, &format!("{id} distance"));
        // Unit normal from the footprint toward the obstacle.
        assert_close(o.separating_axis.x, axis.0, &format!("{id} axis x"));
        assert_close(o.separating_axis.y, axis.1, &format!("{id} axis y"));
    }
    h.flag_settles(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn colliding_scene_reports_depth_mtv_and_per_obstacle_results_in_order() {
    let mut h = Harness::start("colliding", &[]).await;
    h.set_footprint(Some(footprint("map", &robot())));
    h.set_obstacles(Some(obstacles(
        "map",
        vec![
            obstacle("far", &rect(2.0, -0.5, 3.0, 0.5)),
            // Enters the footprint's right side by 0.25 m.
            obstacle("hit", &rect(0.25, -0.25, 1.25, 0.25)),
            // Touches the left side: touching counts, with depth 0.
            obstacle("graze", &rect(-2.0, -0.5, -0.5, 0.5)),
        ],
    )));
    let r = h
        .report_where("colliding, 3 results", SETTLE, |r| {
            r.colliding && r.results.len() == 3
        })
        .await;
    assert!(r.valid, "{r:#?}");
    assert_eq!(r.status, "ok");
    assert_eq!(result_ids(&r), ["far", "hit", "graze"]);
    assert_eq!(r.min_distance, 0.0);
    assert_eq!(r.nearest_obstacle_id, "hit", "nearest = deepest colliding");

    let far = result(&r, "far");
    assert!(!far.colliding);
    assert_close(far.distance, 1.5, "far distance");

    let hit = result(&r, "hit");
    assert!(hit.colliding);
    assert_eq!(hit.status, "ok");
    assert_close(hit.penetration_depth, 0.25, "hit depth");
    assert_close(
        hit.mtv.x,
        -0.25,
        "hit mtv x (moves the footprint out, to -x)",
    );
    assert_close(hit.mtv.y, 0.0, "hit mtv y");
    assert_close(
        hit.mtv.x.hypot(hit.mtv.y),
        hit.penetration_depth,
        "|mtv| == depth",
    );
    assert_eq!(hit.distance, 0.0);
    // mtv == -axis * depth
    assert_close(hit.separating_axis.x, 1.0, "hit axis x");
    assert_close(hit.separating_axis.y, 0.0, "hit axis y");

    let graze = result(&r, "graze");
    assert!(graze.colliding, "touching is colliding");
    assert_eq!(graze.penetration_depth, 0.0);
    assert_eq!(graze.distance, 0.0);
    h.flag_settles(true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn contained_footprint_collides_and_its_mtv_really_separates() {
    let mut h = Harness::start("contained", &[]).await;
    h.set_footprint(Some(footprint("map", &robot())));
    // The footprint is deep inside: leaving to -x costs 2.5 m, +-y 3.5 m,
    // +x 10.5 m.
    h.set_obstacles(Some(obstacles(
        "map",
        vec![obstacle("hall", &rect(-2.0, -3.0, 10.0, 3.0))],
    )));
    let r = h
        .report_where("colliding with hall", SETTLE, |r| {
            r.colliding && r.results.len() == 1
        })
        .await;
    assert!(r.valid && r.status == "ok", "{r:#?}");
    let hall = result(&r, "hall");
    assert!(hall.colliding);
    assert_close(hall.penetration_depth, 2.5, "depth");
    assert_close(hall.mtv.x, -2.5, "mtv x");
    assert_close(hall.mtv.y, 0.0, "mtv y");
    h.flag_settles(true).await;

    // Move the same footprint by the MTV through the service: exactly by
    // it, it touches (still colliding, distance 0); a hair further it is
    // clear; a hair short it still overlaps.
    let (mx, my) = (hall.mtv.x, hall.mtv.y);
    let response = h
        .check_footprint(CheckFootprint::Request {
            footprint: polygon(&robot()),
            poses: vec![
                pose(mx, my, 0.0),
                pose(mx * 1.001, my * 1.001, 0.0),
                pose(mx * 0.999, my * 0.999, 0.0),
            ],
            padding: 0.0,
        })
        .await;
    assert!(response.valid, "{response:?}");
    assert_eq!(response.colliding, [true, false, true], "{response:?}");
    assert_eq!(response.distance[0], 0.0);
    assert!(
        (response.distance[1] - 0.0025).abs() < 1e-6,
        "clearance after 1.001 x mtv: {response:?}"
    );
}

use r2r::sat_collision_msgs::srv::CheckFootprint;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn circle_obstacles_one_vertex_and_a_radius() {
    let mut h = Harness::start("circle", &[]).await;
    h.set_footprint(Some(footprint("map", &robot())));
    h.set_obstacles(Some(obstacles(
        "map",
        vec![
            circle("post", 2.0, 0.0, 0.5),
            // Closest to the footprint's corner (0.5, 0.5): sqrt(2) - 0.5.
            circle("corner_post", 1.5, 1.5, 0.5),
            // Reaches 0.25 m into the footprint's bottom side.
            circle("bump", 0.0, -1.25, 1.0),
        ],
    )));
    let r = h
        .report_where("3 results", SETTLE, |r| r.results.len() == 3 && r.colliding)
        .await;
    assert!(r.valid && r.status == "ok", "{r:#?}");
    assert!(r.results.iter().all(|o| o.status == "ok"), "{r:#?}");
    let post = result(&r, "post");
    assert!(!post.colliding);
    assert_close(post.distance, 1.0, "post distance");
    let corner = result(&r, "corner_post");
    assert!(!corner.colliding);
    assert_close(
        corner.distance,
        2f64.sqrt() - 0.5,
        "corner_post distance (vertex to circle)",
    );
    assert_close(corner.separating_axis.x, 0.5f64.sqrt(), "corner axis x");
    assert_close(corner.separating_axis.y, 0.5f64.sqrt(), "corner axis y");
    let bump = result(&r, "bump");
    assert!(bump.colliding);
    assert_close(bump.penetration_depth, 0.25, "bump depth");
    assert_close(bump.mtv.x, 0.0, "bump mtv x");
    assert_close(bump.mtv.y, 0.25, "bump mtv y (out of the circle, +y)");
    assert_eq!(r.nearest_obstacle_id, "bump");
    h.flag_settles(true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concave_obstacle_is_exact_not_its_convex_hull() {
    let mut h = Harness::start("concave", &[]).await;
    // A "C" open to -x; its notch is [-1, 1] x [-1, 1].
    let c_shape = [
        (-1.0, -2.0),
        (2.0, -2.0),
        (2.0, 2.0),
        (-1.0, 2.0),
        (-1.0, 1.0),
        (1.0, 1.0),
        (1.0, -1.0),
        (-1.0, -1.0),
    ];
    h.set_obstacles(Some(obstacles("map", vec![obstacle("c", &c_shape)])));
    // In the notch: inside the convex hull, yet 0.5 m from every wall.
    h.set_footprint(Some(footprint("map", &robot())));
    let r = h
        .report_where("valid, 1 result", SETTLE, |r| {
            r.valid && r.results.len() == 1
        })
        .await;
    let c = result(&r, "c");
    assert_eq!(c.status, "ok", "a simple concave polygon is valid");
    assert!(!c.colliding, "{r:#?}");
    assert!(!r.colliding);
    assert_close(c.distance, 0.5, "clearance in the notch");
    h.flag_settles(false).await;

    // Pushed 0.25 m into the notch's far wall (x = 1).
    h.set_footprint(Some(footprint("map", &square(0.75, 0.0, 0.5))));
    let r = h
        .report_where("colliding with c", SETTLE, |r| r.colliding && r.valid)
        .await;
    let c = result(&r, "c");
    assert!(c.colliding);
    // The depth of a concave obstacle is a lower bound (deepest piece).
    assert!(
        c.penetration_depth > 0.0 && c.penetration_depth <= 0.25 + EPS,
        "{r:#?}"
    );
    assert_close(
        c.mtv.x.hypot(c.mtv.y),
        c.penetration_depth,
        "|mtv| == depth",
    );
    h.flag_settles(true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stale_inputs_fail_safe_within_the_timeout_and_recover() {
    let mut h = Harness::start(
        "stale",
        // Long enough that a peer republishing at 10 Hz on a loaded 2-core
        // machine never blips stale while the scene is static.
        &[("footprint_timeout", "0.8"), ("obstacles_timeout", "0.8")],
    )
    .await;
    h.set_footprint(Some(footprint("map", &robot())));
    h.set_obstacles(Some(obstacles(
        "map",
        vec![obstacle("far", &rect(2.0, -0.5, 3.0, 0.5))],
    )));
    h.report_where("valid and clear", SETTLE, |r| r.valid && !r.colliding)
        .await;
    h.flag_settles(false).await;

    // The footprint source stops. The report must fail safe soon after the
    // 0.8 s timeout (the node re-publishes at 10 Hz even with no input);
    // 4 s is a generous bound on a busy machine.
    h.set_footprint(None);
    let stopped = Instant::now();
    let limit = Duration::from_secs(4);
    let r = h
        .report_where("stale_footprint", limit, |r| r.status == "stale_footprint")
        .await;
    assert!(!r.valid);
    assert!(r.colliding, "fail_safe: stale reads colliding");
    let left = limit.saturating_sub(stopped.elapsed());
    h.flag_within(true, left.max(Duration::from_millis(200)))
        .await;

    // Publishing resumes: back to valid and clear.
    h.set_footprint(Some(footprint("map", &robot())));
    let r = h.report_where("valid again", SETTLE, |r| r.valid).await;
    assert_eq!(r.status, "ok");
    assert!(!r.colliding);
    h.flag_settles(false).await;

    // Same for the obstacle source.
    h.set_obstacles(None);
    let r = h.report_with_status("stale_obstacles").await;
    assert!(!r.valid && r.colliding, "{r:#?}");
    h.flag_settles(true).await;
    h.set_obstacles(Some(obstacles(
        "map",
        vec![obstacle("far", &rect(2.0, -0.5, 3.0, 0.5))],
    )));
    h.report_where("valid again", SETTLE, |r| r.valid && !r.colliding)
        .await;
    h.flag_settles(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nan_footprint_is_invalid_and_the_node_keeps_serving() {
    let mut h = Harness::start("nan", &[]).await;
    h.set_obstacles(Some(obstacles(
        "map",
        vec![obstacle("far", &rect(2.0, -0.5, 3.0, 0.5))],
    )));
    h.set_footprint(Some(footprint("map", &robot())));
    h.report_where("valid", SETTLE, |r| r.valid).await;

    let mut nan = robot();
    nan[2].0 = f64::NAN;
    h.set_footprint(Some(footprint("map", &nan)));
    let r = h.report_with_status("invalid_footprint").await;
    assert!(!r.valid);
    assert!(r.colliding, "fail_safe");
    h.flag_settles(true).await;

    // Still alive and serving: reports keep coming, the service answers.
    assert!(h.node.is_running(), "node died on a NaN footprint");
    h.report_with_status("invalid_footprint").await;
    let response = h
        .check_footprint(CheckFootprint::Request {
            footprint: polygon(&robot()),
            poses: vec![pose(0.0, 0.0, 0.0)],
            padding: 0.0,
        })
        .await;
    assert!(response.valid, "{response:?}");
    assert_eq!(response.colliding, [false]);

    h.set_footprint(Some(footprint("map", &robot())));
    let r = h.report_where("valid again", SETTLE, |r| r.valid).await;
    assert!(!r.colliding);
    assert_close(r.min_distance, 1.5, "min_distance after recovery");
    h.flag_settles(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn frame_mismatch_fails_safe() {
    let mut h = Harness::start("frames", &[]).await;
    h.set_footprint(Some(footprint("map", &robot())));
    h.set_obstacles(Some(obstacles(
        "odom",
        vec![obstacle("far", &rect(2.0, -0.5, 3.0, 0.5))],
    )));
    let r = h.report_with_status("frame_mismatch").await;
    assert!(!r.valid);
    assert!(r.colliding, "fail_safe");
    h.flag_settles(true).await;

    h.set_obstacles(Some(obstacles(
        "map",
        vec![obstacle("far", &rect(2.0, -0.5, 3.0, 0.5))],
    )));
    let r = h.report_with_status("ok").await;
    assert!(r.valid && !r.colliding);
    h.flag_settles(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn obstacle_instances_expire_one_by_one() {
    let mut h = Harness::start("instances", &[("obstacles_timeout", "1.0")]).await;
    h.set_footprint(Some(footprint("map", &robot())));
    h.scene(|s| {
        s.instances
            .insert(7, instance("map", 7, &square(3.0, 0.0, 0.5)));
        s.instances
            .insert(42, instance("map", 42, &square(0.0, 2.0, 0.5)));
    });
    let both = |r: &CollisionReport| {
        let mut ids = result_ids(r);
        ids.sort_unstable();
        ids == ["instance_42", "instance_7"]
    };
    let r = h
        .report_where("both instances", SETTLE, |r| r.valid && both(r))
        .await;
    assert_eq!(r.nearest_obstacle_id, "instance_42");
    assert_close(r.min_distance, 1.0, "min_distance");
    assert_close(
        result(&r, "instance_7").distance,
        2.0,
        "instance_7 distance",
    );

    // 42 is no longer refreshed: it expires after obstacles_timeout, 7 stays.
    h.scene(|s| {
        s.instances.remove(&42);
    });
    let r = h
        .report_where("instance_42 expired", SETTLE, |r| {
            result_ids(r) == ["instance_7"]
        })
        .await;
    assert!(r.valid, "an expired instance is not an error: {r:#?}");
    assert_eq!(r.nearest_obstacle_id, "instance_7");
    assert_close(r.min_distance, 2.0, "min_distance");
    // And 7, still refreshed, stays for well over its timeout.
    for _ in 0..15 {
        let r = h.report_where("(next)", SETTLE, |_| true).await;
        assert_eq!(result_ids(&r), ["instance_7"], "{r:#?}");
        assert!(r.valid, "{r:#?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invalid_obstacle_gets_its_own_status_while_others_are_answered() {
    let mut h = Harness::start("bowtie", &[]).await;
    h.set_footprint(Some(footprint("map", &robot())));
    h.set_obstacles(Some(obstacles(
        "map",
        vec![
            obstacle("far", &rect(2.0, -0.5, 3.0, 0.5)),
            obstacle("bow_tie", &[(2.0, 2.0), (3.0, 3.0), (3.0, 2.0), (2.0, 3.0)]),
            obstacle("hit", &rect(0.25, -0.25, 1.25, 0.25)),
        ],
    )));
    let r = h.report_with_status("invalid_obstacle").await;
    assert!(!r.valid);
    assert!(r.colliding);
    assert_eq!(result_ids(&r), ["far", "bow_tie", "hit"]);
    let bow_tie = result(&r, "bow_tie");
    assert_eq!(bow_tie.status, "self_intersecting");
    assert!(!bow_tie.colliding, "no geometry for an invalid shape");
    let far = result(&r, "far");
    assert_eq!(far.status, "ok");
    assert_close(far.distance, 1.5, "far still answered");
    let hit = result(&r, "hit");
    assert_eq!(hit.status, "ok");
    assert!(hit.colliding);
    assert_close(hit.penetration_depth, 0.25, "hit still answered");
    assert_eq!(r.nearest_obstacle_id, "hit");
    h.flag_settles(true).await;
    assert!(h.node.is_running());

    // Without the bad one the report is valid again (still colliding).
    h.set_obstacles(Some(obstacles(
        "map",
        vec![obstacle("far", &rect(2.0, -0.5, 3.0, 0.5))],
    )));
    let r = h.report_with_status("ok").await;
    assert!(r.valid && !r.colliding, "{r:#?}");
    h.flag_settles(false).await;
}

#[test]
fn bad_parameters_stop_startup_naming_the_parameter() {
    let cases: &[(&str, &str, &str)] = &[
        ("padding", "-1.0", "[0, 5]"),
        ("publish_rate", "abc", "expected a number"),
        ("markers_rate", "500.0", "[0, 100]"),
        ("fail_safe", "maybe", "expected a bool"),
        (
            "robot_footprint",
            "\"[[0.0, 0.0], [1.0, 0.0]]\"",
            "footprint",
        ),
        ("zones_file", "/nonexistent/zones.yaml", "nonexistent"),
    ];
    for (name, value, detail) in cases {
        let (status, output) = NodeProcess::run_to_exit(
            &format!("/t_badparam_{name}"),
            &[(name, value)],
            Duration::from_secs(20),
        );
        assert!(
            !status.success(),
            "{name}:={value} must stop start-up; output:\n{output}"
        );
        assert!(status.code().is_some_and(|c| c != 0), "{name}: {status:?}");
        assert!(
            output.contains(name),
            "{name}:={value}: message names it:\n{output}"
        );
        assert!(
            output.contains(detail),
            "{name}:={value}: says `{detail}`:\n{output}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn padding_changes_at_run_time_and_startup_only_parameters_are_refused() {
    let mut h = Harness::start("params", &[]).await;
    h.set_footprint(Some(footprint("map", &robot())));
    h.set_obstacles(Some(obstacles(
        "map",
        vec![obstacle("far", &rect(2.0, -0.5, 3.0, 0.5))],
    )));
    let r = h.report_where("valid", SETTLE, |r| r.valid).await;
    assert_close(r.min_distance, 1.5, "before");

    let set = h.set_parameter("padding", double_value(0.25)).await;
    assert!(set.successful, "{set:?}");
    let r = h
        .report_where("min_distance 1.25", SETTLE, |r| {
            r.valid && (r.min_distance - 1.25).abs() <= EPS
        })
        .await;
    assert!(!r.colliding);

    // Enough padding to reach the obstacle: the answer becomes a collision.
    let set = h.set_parameter("padding", double_value(1.5)).await;
    assert!(set.successful, "{set:?}");
    let r = h
        .report_where("colliding", SETTLE, |r| r.valid && r.colliding)
        .await;
    assert_eq!(r.min_distance, 0.0);
    h.flag_settles(true).await;

    // Out of range: refused with the range; the value in force stays.
    let set = h.set_parameter("padding", double_value(-1.0)).await;
    assert!(!set.successful);
    assert!(
        set.reason.contains("padding") && set.reason.contains("[0, 5]"),
        "{set:?}"
    );

    // Start-up-only parameters are refused at run time.
    let set = h.set_parameter("publish_rate", double_value(20.0)).await;
    assert!(!set.successful);
    assert!(
        set.reason.contains("publish_rate") && set.reason.contains("start-up"),
        "{set:?}"
    );
    let set = h
        .set_parameter("zones_file", string_value("/tmp/zones.yaml"))
        .await;
    assert!(!set.successful, "{set:?}");

    let r = h.report_where("(after refusals)", SETTLE, |_| true).await;
    assert!(r.valid && r.colliding, "padding 1.5 still in force: {r:#?}");
}
