//! The monitor over several frames against the same scene moved into one
//! frame by hand: moving the footprint into each obstacle frame and the
//! results back into the global frame must give what checking everything
//! in the global frame gives (the exact path), for the flag, every
//! per-obstacle outcome (depth, MTV, clearance, axis, closest points), the
//! fast path with an exact range, and the planner's poses.

use crate::common::pose;
use nalgebra::Isometry2;
use sat_collision::frames::{planar_transform, FrameTree};
use sat_collision::geometry::Point;
use sat_collision::model::{Obstacle, ObstacleGeometry, Report};
use sat_collision::monitor::{Monitor, MonitorConfig, NoTransforms};
use sat_collision_testkit::SplitMix64;

const EPS: f64 = 1e-9;

/// A static transform `child` in `parent` into `tree`, through the
/// quaternion a TF message would carry.
fn put(
    tree: &mut FrameTree,
    parent: &str,
    child: &str,
    p: &Isometry2<f64>,
    is_static: bool,
    stamp: f64,
) {
    let yaw = p.rotation.angle();
    let t = planar_transform(
        [p.translation.x, p.translation.y, 0.0],
        [0.0, 0.0, (yaw / 2.0).sin(), (yaw / 2.0).cos()],
    );
    tree.insert(parent, child, stamp, t, is_static, stamp)
        .expect("insert");
}

/// A random convex quadrilateral or a circle near the origin.
fn random_geometry(rng: &mut SplitMix64) -> ObstacleGeometry {
    let c = Point::new(rng.range(-4.0, 4.0), rng.range(-4.0, 4.0));
    if rng.below(4) == 0 {
        return ObstacleGeometry::Circle {
            center: c,
            radius: rng.range(0.1, 0.8),
        };
    }
    let (w, h, a) = (
        rng.range(0.1, 1.0),
        rng.range(0.1, 1.0),
        rng.range(0.0, 3.0),
    );
    let r = pose(c.x, c.y, a);
    ObstacleGeometry::Polygon(
        [(-w, -h), (w, -h), (w, h), (-w, h)]
            .iter()
            .map(|&(x, y)| r * Point::new(x, y))
            .collect(),
    )
}

fn moved(g: &ObstacleGeometry, p: &Isometry2<f64>) -> ObstacleGeometry {
    match g {
        ObstacleGeometry::Polygon(points) => {
            ObstacleGeometry::Polygon(points.iter().map(|q| p * q).collect())
        }
        ObstacleGeometry::Circle { center, radius } => ObstacleGeometry::Circle {
            center: p * center,
            radius: *radius,
        },
    }
}

fn footprint() -> Vec<Point> {
    [(0.5, 0.3), (-0.5, 0.3), (-0.5, -0.3), (0.5, -0.3)]
        .iter()
        .map(|&(x, y)| Point::new(x, y))
        .collect()
}

fn same_report(a: &Report, b: &Report, what: &str) {
    assert_eq!(a.colliding, b.colliding, "{what}");
    assert_eq!(a.valid, b.valid, "{what}");
    assert_eq!(a.status, b.status, "{what}");
    let close = |x: f64, y: f64| (x - y).abs() < EPS || x == y;
    assert!(close(a.min_distance, b.min_distance), "{what}");
    assert_eq!(a.nearest_obstacle_id, b.nearest_obstacle_id, "{what}");
    assert_eq!(a.outcomes.len(), b.outcomes.len(), "{what}");
    assert!(b.outcomes.iter().all(|o| o.exact), "the reference is exact");
    for (i, (x, y)) in a.outcomes.iter().zip(&b.outcomes).enumerate() {
        assert_eq!(x.status, y.status, "{what} #{i}");
        let (Some(cx), Some(cy)) = (x.contact, y.contact) else {
            assert_eq!(x.contact.is_none(), y.contact.is_none(), "{what} #{i}");
            continue;
        };
        if !x.exact {
            // A far obstacle's honest lower bound (from boxes, which depend
            // on the frame): never colliding, never above the truth.
            assert!(!cx.colliding() && !cy.colliding(), "{what} #{i}");
            assert!(cx.distance() <= cy.distance() + EPS, "{what} #{i}");
            continue;
        }
        assert_eq!(cx.colliding(), cy.colliding(), "{what} #{i}");
        assert!(close(cx.depth(), cy.depth()), "{what} #{i}");
        assert!(close(cx.distance(), cy.distance()), "{what} #{i}");
        let mtv = (cx.mtv() - cy.mtv()).norm();
        assert!(mtv < EPS, "{what} #{i}: {:?} {:?}", cx.mtv(), cy.mtv());
        assert!((cx.axis() - cy.axis()).norm() < 1e-7, "{what} #{i}");
        match (cx.closest(), cy.closest()) {
            (Some((a0, b0)), Some((a1, b1))) => {
                assert!(
                    (a0 - a1).norm() < 1e-7 && (b0 - b1).norm() < 1e-7,
                    "{what} #{i}"
                )
            }
            (p, q) => assert_eq!(p.is_none(), q.is_none(), "{what} #{i}"),
        }
    }
}

/// Footprint in `odom`, zones in `map`, the array in `laser` (under
/// `base_link` under `odom`), one instance in `laser` too; global frame
/// `map`. The reference: every input moved into `map` by hand, no TF.
#[test]
fn several_frames_agree_with_the_scene_moved_into_the_global_frame() {
    let mut rng = SplitMix64::new(12);
    for case in 0..60 {
        let map_odom = pose(
            rng.range(-3.0, 3.0),
            rng.range(-3.0, 3.0),
            rng.range(-3.1, 3.1),
        );
        let odom_base = pose(
            rng.range(-2.0, 2.0),
            rng.range(-2.0, 2.0),
            rng.range(-3.1, 3.1),
        );
        let base_laser = pose(
            rng.range(-0.5, 0.5),
            rng.range(-0.5, 0.5),
            rng.range(-3.1, 3.1),
        );
        let fp_in_odom = pose(
            rng.range(-2.0, 2.0),
            rng.range(-2.0, 2.0),
            rng.range(-3.1, 3.1),
        );
        let map_laser = map_odom * odom_base * base_laser;
        let mut tree = FrameTree::new();
        put(&mut tree, "map", "odom", &map_odom, true, 0.0);
        put(&mut tree, "odom", "base_link", &odom_base, true, 0.0);
        put(&mut tree, "base_link", "laser", &base_laser, true, 0.0);

        let zones: Vec<ObstacleGeometry> = (0..4).map(|_| random_geometry(&mut rng)).collect();
        let array: Vec<ObstacleGeometry> = (0..30).map(|_| random_geometry(&mut rng)).collect();
        let instance = random_geometry(&mut rng);
        let fp: Vec<Point> = footprint().iter().map(|p| fp_in_odom * p).collect();
        let padding = if case % 2 == 0 { 0.0 } else { 0.1 };
        for exact_range in [f64::INFINITY, 0.5] {
            let config = MonitorConfig {
                global_frame: "map".into(),
                padding,
                exact_range,
                ..Default::default()
            };
            let obstacles =
                |gs: &[ObstacleGeometry], prefix: &str, p: &Isometry2<f64>| -> Vec<Obstacle> {
                    gs.iter()
                        .enumerate()
                        .map(|(i, g)| Obstacle::new(format!("{prefix}{i}"), &moved(g, p)))
                        .collect()
                };
            let mut framed = Monitor::new(config.clone());
            framed.set_zones("map", obstacles(&zones, "z", &Isometry2::identity()));
            framed.set_obstacles("laser", obstacles(&array, "a", &Isometry2::identity()), 0.0);
            framed.upsert_instance("laser", Obstacle::new("i", &instance), 0.0);
            framed.set_footprint("odom", &fp, 0.0);
            framed.place(&tree, 0.1);

            let mut reference = Monitor::new(MonitorConfig {
                exact_range: f64::INFINITY,
                ..config
            });
            reference.set_zones("map", obstacles(&zones, "z", &Isometry2::identity()));
            reference.set_obstacles("map", obstacles(&array, "a", &map_laser), 0.0);
            reference.upsert_instance(
                "map",
                Obstacle::new("i", &moved(&instance, &map_laser)),
                0.0,
            );
            let fp_map: Vec<Point> = fp.iter().map(|p| map_odom * p).collect();
            reference.set_footprint("map", &fp_map, 0.0);
            reference.place(&NoTransforms, 0.1);

            let (a, b) = (framed.evaluate(0.1), reference.evaluate(0.1));
            assert_eq!(a.frame_id, "map");
            same_report(&a, &b, &format!("case {case}, range {exact_range}"));
            // A far outcome's axis (a box normal of the obstacle's frame,
            // turned into the global frame) separates the padded footprint
            // from the obstacle there.
            let fp_map = reference.footprint().expect("footprint");
            for (i, outcome) in a.outcomes.iter().enumerate().filter(|(_, o)| !o.exact) {
                let (Some(contact), Ok(shape)) = (outcome.contact, &reference.obstacles()[i].shape)
                else {
                    panic!("case {case} #{i}: a far outcome of a valid obstacle");
                };
                let axis = contact.axis();
                assert!((axis.norm() - 1.0).abs() < 1e-12, "case {case} #{i}");
                let (_, fp_hi) = fp_map.project(&axis);
                let (ob_lo, _) = shape.project(&axis);
                assert!(
                    fp_hi + padding <= ob_lo + 1e-9,
                    "case {case} #{i}: {fp_hi} + {padding} > {ob_lo}"
                );
            }
            assert_eq!(framed.flag(0.1), reference.flag(0.1), "case {case}");

            // The planner's poses are in the global frame too.
            let robot = sat_collision::geometry::Shape::polygon(&footprint()).expect("robot");
            let poses: Vec<Isometry2<f64>> = (0..8)
                .map(|_| {
                    pose(
                        rng.range(-4.0, 4.0),
                        rng.range(-4.0, 4.0),
                        rng.range(-3.1, 3.1),
                    )
                })
                .collect();
            let (p, q) = (
                framed.check_trajectory(&robot, &poses, 0.0, 0.1),
                reference.check_trajectory(&robot, &poses, 0.0, 0.1),
            );
            assert_eq!(p.valid, q.valid);
            assert_eq!(p.check.colliding, q.check.colliding, "case {case}");
            for (x, y) in p.check.distance.iter().zip(&q.check.distance) {
                assert!((x - y).abs() < EPS || x == y, "case {case}: {x} {y}");
            }
        }
    }
}

/// Inputs stamped at different times: the footprint where it was at its
/// stamp, seen from the obstacle frame as it was at the obstacles' stamp,
/// through the (fixed) global frame; between samples, interpolated.
#[test]
fn stamps_pick_the_transform_of_their_time() {
    let mut tree = FrameTree::new();
    put(
        &mut tree,
        "odom",
        "base_link",
        &pose(0.0, 0.0, 0.0),
        false,
        10.0,
    );
    put(
        &mut tree,
        "odom",
        "base_link",
        &pose(2.0, 0.0, 0.0),
        false,
        11.0,
    );
    // Timeouts longer than the stamps' ages: the transforms decide here.
    let config = MonitorConfig {
        global_frame: "odom".into(),
        transform_tolerance: 0.2,
        footprint_timeout: 5.0,
        obstacles_timeout: 5.0,
        ..Default::default()
    };
    // An obstacle in base_link stamped 10.0 (the robot at x = 0): a box
    // 1 m ahead of the robot then, at x = 1 in odom.
    let ahead = ObstacleGeometry::Polygon(sat_collision_testkit_square(1.0, 0.0, 0.1));
    let mut m = Monitor::new(config);
    m.set_obstacles_at(
        "base_link",
        10.0,
        vec![Obstacle::new("ahead", &ahead)],
        11.0,
    );
    // The footprint (a 0.2 m square) in base_link stamped 10.5: at x = 1 in odom.
    m.set_footprint_at(
        "base_link",
        10.5,
        &sat_collision_testkit_square(0.0, 0.0, 0.1),
        11.0,
    );
    m.place(&tree, 11.0);
    let r = m.evaluate(11.0);
    assert!(r.valid, "{r:?}");
    assert!(r.colliding, "interpolated to x = 1: onto the obstacle");
    // At its stamp 10.25 the footprint is at x = 0.5: 0.3 m of clearance.
    m.set_footprint_at(
        "base_link",
        10.25,
        &sat_collision_testkit_square(0.0, 0.0, 0.1),
        11.0,
    );
    m.place(&tree, 11.0);
    let r = m.evaluate(11.0);
    assert!(r.valid && !r.colliding);
    assert!((r.min_distance - 0.3).abs() < 1e-9, "{}", r.min_distance);
    // Past the newest sample by more than the tolerance: stale.
    m.set_footprint_at(
        "base_link",
        11.5,
        &sat_collision_testkit_square(0.0, 0.0, 0.1),
        11.0,
    );
    m.place(&tree, 11.0);
    let f = m.flag(11.0);
    assert_eq!(
        (f.valid, f.status.as_str(), f.colliding),
        (false, "stale_transform", true)
    );
    // Before the history: unavailable.
    m.set_footprint_at(
        "base_link",
        9.0,
        &sat_collision_testkit_square(0.0, 0.0, 0.1),
        11.0,
    );
    m.place(&tree, 11.0);
    assert_eq!(m.flag(11.0).status, "transform_unavailable");
}

fn sat_collision_testkit_square(cx: f64, cy: f64, half: f64) -> Vec<Point> {
    vec![
        Point::new(cx - half, cy - half),
        Point::new(cx + half, cy - half),
        Point::new(cx + half, cy + half),
        Point::new(cx - half, cy + half),
    ]
}

/// Without TF, inputs in different frames are `frame_mismatch` as before;
/// with a tree that lacks a frame, `transform_unavailable`; an unplaced
/// group never contributes geometry.
#[test]
fn frames_that_cannot_be_related_fail_safe() {
    let square = |x| ObstacleGeometry::Polygon(sat_collision_testkit_square(x, 0.0, 0.5));
    let mut m = Monitor::new(MonitorConfig {
        fail_safe: false,
        ..Default::default()
    });
    m.set_footprint("map", &sat_collision_testkit_square(0.0, 0.0, 0.5), 0.0);
    m.set_obstacles("odom", vec![Obstacle::new("o", &square(0.2))], 0.0);
    let r = m.evaluate(0.0);
    assert_eq!(r.status, "frame_mismatch");
    assert!(
        !r.colliding,
        "no geometry across frames that cannot be related"
    );
    assert_eq!(r.outcomes[0].status, "frame_mismatch");
    let mut tree = FrameTree::new();
    put(
        &mut tree,
        "world",
        "elsewhere",
        &pose(0.0, 0.0, 0.0),
        true,
        0.0,
    );
    m.place(&tree, 0.0);
    assert_eq!(m.evaluate(0.0).status, "transform_unavailable");
    put(&mut tree, "map", "odom", &pose(0.0, 0.0, 0.0), true, 0.0);
    m.place(&tree, 0.0);
    let r = m.evaluate(0.0);
    assert!(r.valid && r.colliding, "{r:?}");
}
