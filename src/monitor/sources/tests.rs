//! The sources as the monitor holds them: freshness, faults, `min_points`,
//! the report's entries, placement, paths and the prediction with points.

use super::super::tests::square;
use super::super::{Monitor, MonitorConfig, NoTransforms, SourceKind, SourceSpec, Transforms};
use crate::broadphase::PointSet;
use crate::geometry::{Point, Shape, Vector};
use crate::model::{Cause, Status};
use nalgebra::{Isometry2, Vector2};

fn spec(name: &str, kind: SourceKind, timeout: f64) -> SourceSpec {
    SourceSpec {
        name: name.to_owned(),
        kind,
        timeout,
        enabled: true,
    }
}

fn config(sources: Vec<SourceSpec>) -> MonitorConfig {
    MonitorConfig {
        sources,
        footprint_timeout: 0.0,
        ..Default::default()
    }
}

fn points(list: &[(f64, f64)]) -> PointSet {
    let mut set = PointSet::new();
    for &(x, y) in list {
        assert!(set.push(Point::new(x, y)));
    }
    set
}

/// A unit square footprint at the origin (half side 0.5) and one scan
/// source, `laser`, in the footprint's frame.
fn scan_monitor() -> Monitor {
    let mut m = Monitor::new(config(vec![spec("laser", SourceKind::Scan, 1.0)]));
    m.set_footprint("base", &square(0.0, 0.0, 0.5), 0.0);
    m
}

#[test]
fn a_node_fed_by_sensors_alone_is_valid_while_they_are_fresh() {
    let mut m = scan_monitor();
    // Nothing delivered: no obstacle information at all.
    assert_eq!(m.evaluate(0.0).status, Status::NoObstacles);
    assert!(m.set_source_points("laser", "base", 0.0, points(&[(2.0, 0.0)]), 0.0));
    let r = m.evaluate(0.5);
    assert!(r.valid, "{:?}", r.status);
    assert!(!r.colliding);
    assert!((r.min_distance - 1.5).abs() < 1e-12);
    assert_eq!(r.nearest_obstacle_id, "laser");
    assert_eq!(r.sources.len(), 1);
    assert_eq!(r.sources[0].points_inside, 0);
    assert_eq!(r.sources[0].points, 1);
    // Older than its timeout: stale, and the flag fails safe.
    let r = m.evaluate(1.5);
    assert_eq!(r.status, Status::StaleSource);
    assert!(r.colliding);
    assert_eq!(r.sources[0].status, Status::StaleSource);
    assert_eq!(m.flag(1.5).status, Status::StaleSource);
    assert!(m.flag(1.5).colliding);
}

#[test]
fn a_source_that_never_sent_is_not_valid_when_other_obstacles_are() {
    let mut m = Monitor::new(config(vec![
        spec("laser", SourceKind::Scan, 1.0),
        spec("camera", SourceKind::PointCloud, 1.0),
    ]));
    m.set_footprint("base", &square(0.0, 0.0, 0.5), 0.0);
    m.set_source_points("laser", "base", 0.0, points(&[(3.0, 0.0)]), 0.0);
    let r = m.evaluate(0.1);
    assert_eq!(r.status, Status::NoSourceData);
    assert!(r.colliding);
    assert_eq!(r.sources[1].status, Status::NoSourceData);
    assert_eq!(r.sources[0].status, Status::Ok);
    // Disabled, the silent camera counts for nothing: no cause, no entry.
    assert!(m.set_source_enabled("camera", false));
    let r = m.evaluate(0.1);
    assert!(r.valid);
    assert_eq!(r.sources.len(), 1);
    assert_eq!(r.sources[0].name, "laser");
}

#[test]
fn points_inside_the_padded_footprint_collide_and_touching_counts() {
    let mut m = scan_monitor();
    // On the edge of the footprint: touching.
    m.set_source_points("laser", "base", 0.0, points(&[(0.5, 0.0), (4.0, 4.0)]), 0.0);
    let f = m.flag(0.1);
    assert!(f.valid && f.colliding);
    let r = m.evaluate(0.1);
    assert!(r.colliding);
    assert_eq!(r.min_distance, 0.0);
    assert_eq!(r.sources[0].points_inside, 1);
    assert!(r.sources[0].colliding);
    assert_eq!(r.sources[0].distance(), 0.0);
    // Deeper: the deepest point's depth and MTV.
    m.set_source_points(
        "laser",
        "base",
        0.0,
        points(&[(0.3, 0.0), (0.45, 0.1), (4.0, 4.0)]),
        0.0,
    );
    let r = m.evaluate(0.1);
    let source = &r.sources[0];
    assert_eq!(source.points_inside, 2);
    let contact = source.contact.expect("a contact");
    assert!((contact.depth() - 0.2).abs() < 1e-12, "{contact:?}");
    // The footprint moves away from the point: -x.
    let mtv = contact.mtv();
    assert!(
        (mtv.x + 0.2).abs() < 1e-12 && mtv.y.abs() < 1e-12,
        "{mtv:?}"
    );
    // Padding grows the footprint: a point 0.1 m out collides with 0.1 m.
    let mut padded = scan_monitor();
    padded.set_config(MonitorConfig {
        padding: 0.1,
        ..padded.config().clone()
    });
    padded.set_source_points("laser", "base", 0.0, points(&[(0.6, 0.0)]), 0.0);
    assert!(padded.flag(0.1).colliding);
    padded.set_source_points("laser", "base", 0.0, points(&[(0.61, 0.0)]), 0.0);
    assert!(!padded.flag(0.1).colliding);
    let r = padded.evaluate(0.1);
    assert!((r.min_distance - 0.01).abs() < 1e-9, "{}", r.min_distance);
}

#[test]
fn min_points_counts_the_points_of_all_sources_together() {
    let mut m = Monitor::new(MonitorConfig {
        min_points: 3,
        ..config(vec![
            spec("a", SourceKind::Scan, 0.0),
            spec("b", SourceKind::Range, 0.0),
        ])
    });
    m.set_footprint("base", &square(0.0, 0.0, 0.5), 0.0);
    m.set_source_points("a", "base", 0.0, points(&[(0.0, 0.0), (0.1, 0.1)]), 0.0);
    m.set_source_points("b", "base", 0.0, points(&[(2.0, 0.0)]), 0.0);
    assert!(!m.flag(0.0).colliding, "two points of three");
    let r = m.evaluate(0.0);
    assert!(!r.colliding);
    assert!(!r.sources[0].colliding);
    assert_eq!(r.sources[0].points_inside, 2);
    m.set_source_points("b", "base", 0.0, points(&[(-0.2, 0.0)]), 0.0);
    assert!(m.flag(0.0).colliding, "three points, two sources");
    let r = m.evaluate(0.0);
    assert!(r.colliding);
    assert!(r.sources[0].colliding && r.sources[1].colliding);
}

#[test]
fn a_refused_message_makes_the_source_invalid_until_a_good_one() {
    let mut m = scan_monitor();
    m.set_source_points("laser", "base", 0.0, points(&[(3.0, 0.0)]), 0.0);
    assert!(m.reject_source("laser", Cause::InvalidSource, 0.1));
    let r = m.evaluate(0.2);
    assert_eq!(r.status, Status::InvalidSource);
    assert!(r.colliding);
    assert_eq!(r.sources[0].points, 0);
    m.set_source_points("laser", "base", 0.0, points(&[(3.0, 0.0)]), 0.3);
    assert!(m.evaluate(0.4).valid);
    // A transform's cause names the transform.
    assert!(m.reject_source("laser", Cause::TransformUnavailable, 0.5));
    assert_eq!(m.evaluate(0.5).status, Status::TransformUnavailable);
    // Unknown names and polygon sources take no points.
    assert!(!m.set_source_points("nope", "base", 0.0, points(&[]), 0.0));
    assert!(!m.reject_source("nope", Cause::InvalidSource, 0.0));
}

/// A planar TF: `laser` is 1 m ahead of `base`, turned by 90 degrees.
struct LaserMount;

impl Transforms for LaserMount {
    fn lookup(
        &self,
        target: &str,
        source: &str,
        time: f64,
        now: f64,
        tolerance: f64,
    ) -> Result<Isometry2<f64>, Cause> {
        let mount = Isometry2::new(Vector2::new(1.0, 0.0), std::f64::consts::FRAC_PI_2);
        match (target, source) {
            ("base", "laser") => Ok(mount),
            ("laser", "base") => Ok(mount.inverse()),
            _ => NoTransforms.lookup(target, source, time, now, tolerance),
        }
    }
}

#[test]
fn points_in_the_sensors_frame_are_placed_by_tf() {
    let mut m = scan_monitor();
    // In the laser frame, (0, 1.2) is 1.2 m to its left: in base,
    // (1 - 1.2, 0) = (-0.2, 0), inside the footprint.
    m.set_source_points("laser", "laser", 0.0, points(&[(0.0, 1.2)]), 0.0);
    assert_eq!(m.evaluate(0.0).status, Status::FrameMismatch);
    m.place(&LaserMount, 0.0);
    let f = m.flag(0.0);
    assert!(f.valid && f.colliding, "{f:?}");
    let r = m.evaluate(0.0);
    let point = r.sources[0].point.expect("the point");
    assert!((point - Point::new(-0.2, 0.0)).norm() < 1e-12, "{point:?}");
    // (0, -0.6): in base (1.6, 0), 1.1 m ahead of the footprint.
    m.set_source_points("laser", "laser", 0.0, points(&[(0.0, -0.6)]), 0.0);
    m.place(&LaserMount, 0.0);
    let r = m.evaluate(0.0);
    assert!(r.valid && !r.colliding);
    assert!((r.min_distance - 1.1).abs() < 1e-12, "{}", r.min_distance);
    let mut inside = Vec::new();
    m.source_points_inside(10, &mut inside);
    assert!(inside.is_empty());
}

#[test]
fn the_prediction_and_paths_meet_points_exactly() {
    let mut m = Monitor::new(MonitorConfig {
        base_frame: "base".to_owned(),
        ..config(vec![spec("laser", SourceKind::Scan, 0.0)])
    });
    m.set_footprint("base", &square(0.0, 0.0, 0.5), 0.0);
    m.set_source_points("laser", "base", 0.0, points(&[(2.0, 0.1), (5.0, 3.0)]), 0.0);
    // 1.5 m ahead at 1 m/s: contact after 1.5 s, within the 2 s horizon.
    m.set_velocity("", Vector::new(1.0, 0.0), 0.0, 0.0);
    let p = m.predict(&NoTransforms, 0.0);
    assert!(p.valid(), "{:?}", p.status);
    let impact = p.impact.expect("a contact ahead");
    assert!((impact.time - 1.5).abs() < 1e-9, "{impact:?}");
    assert!(impact.exact);
    assert_eq!(impact.source, Some(0));
    assert_eq!(m.impact_id(&impact), Some("laser"));
    // Turning on the spot: the corner sweeps a circle of radius 0.707 m;
    // the point at 2 m is never met.
    m.set_velocity("", Vector::new(0.0, 0.0), 1.0, 0.0);
    assert!(m.predict(&NoTransforms, 0.0).impact.is_none());
    // A path through the point: the first collision on its first segment,
    // at 1.5 m travelled.
    let footprint = Shape::polygon(&square(0.0, 0.0, 0.5)).expect("square");
    let poses = [
        Isometry2::new(Vector2::new(0.0, 0.0), 0.0),
        Isometry2::new(Vector2::new(3.0, 0.0), 0.0),
    ];
    let check = m.check_path(&footprint, &poses, &[0.0, 3.0], 0.0, 0.0);
    assert!(check.valid);
    assert_eq!(check.first_collision, Some(0));
    let distance = check.distance_to_collision.expect("a distance");
    assert!((distance - 1.5).abs() < 1e-9, "{distance}");
    assert!((check.clearance[0] - 1.5).abs() < 1e-9);
    assert!((check.clearance[1] - 0.5).abs() < 1e-9);
    let poses = [
        Isometry2::new(Vector2::new(0.0, 0.0), 0.0),
        Isometry2::new(Vector2::new(2.0, 0.0), 0.0),
    ];
    let trajectory = m.check_trajectory(&footprint, &poses, 0.0, 0.0);
    assert_eq!(trajectory.check.colliding, vec![false, true]);
}

#[test]
fn a_polygon_sources_polygons_live_their_own_timeout_and_go_when_disabled() {
    use super::super::InstanceUpdate;
    use crate::model::{Obstacle, ObstacleGeometry};
    let mut m = Monitor::new(MonitorConfig {
        obstacles_timeout: 5.0,
        ..config(vec![spec("people", SourceKind::Polygon, 0.5)])
    });
    m.set_footprint("base", &square(0.0, 0.0, 0.5), 0.0);
    let polygon = |id: &str, x: f64, lifetime: Option<f64>| InstanceUpdate {
        frame_id: "base".to_owned(),
        stamp: 0.0,
        obstacle: Obstacle::new(id, &ObstacleGeometry::Polygon(square(x, 0.0, 0.2))),
        received: 0.0,
        lifetime,
    };
    let polygon_at = |id: &str, x: f64, received: f64| InstanceUpdate {
        received,
        ..polygon(id, x, Some(0.5))
    };
    m.upsert_instances([
        polygon("people/1", 0.6, Some(0.5)),
        polygon("instance_7", 3.0, None),
    ]);
    // A polygon source is obstacle information; its polygon is kept
    // exactly: 0.6 - 0.2 = 0.4 from the footprint's edge at 0.5, inside.
    let r = m.evaluate(0.1);
    assert!(r.valid && r.colliding, "{:?}", r.status);
    assert_eq!(r.nearest_obstacle_id, "people/1");
    // No point source: no source entry.
    assert!(r.sources.is_empty());
    // The source's polygon expires after its 0.5 s, the instance after 5 s.
    assert_eq!(m.obstacle_set().next_expiry(5.0), Some(0.5));
    assert_eq!(m.expire_instances(0.4), 0);
    assert_eq!(m.expire_instances(0.6), 1);
    let ids: Vec<&str> = m.obstacles().iter().map(|o| o.id.as_str()).collect();
    assert_eq!(ids, ["instance_7"]);
    // A polygon source holding no polygon cannot be used (nav2's rule):
    // not valid, colliding under fail_safe.
    let r = m.evaluate(0.6);
    assert!(!r.valid && r.colliding, "{:?}", r.status);
    assert_eq!(r.status, "no_source_data");
    // A fresh polygon clear of the footprint: valid and clear.
    m.upsert_instances([polygon_at("people/3", 3.0, 0.7)]);
    let r = m.evaluate(0.8);
    assert!(r.valid && !r.colliding, "{:?}", r.status);
    // Past its timeout and not yet expired: stale.
    assert_eq!(m.evaluate(1.3).status, "stale_source");
    // A polygon that crosses itself: invalid, whatever else it holds.
    let bow_tie = [(2.0, 0.0), (3.0, 1.0), (3.0, 0.0), (2.0, 1.0)]
        .map(|(x, y)| Point::new(x, y))
        .to_vec();
    m.upsert_instances([InstanceUpdate {
        obstacle: Obstacle::new("people/4", &ObstacleGeometry::Polygon(bow_tie)),
        ..polygon_at("people/4", 0.0, 0.8)
    }]);
    let r = m.evaluate(0.9);
    assert!(!r.valid && r.colliding);
    assert_eq!(r.status, "invalid_source");
    // Disabled: its polygons go at once.
    m.upsert_instances([polygon("people/2", 0.6, Some(0.5))]);
    assert_eq!(m.drop_instances_of("people/"), 3);
    assert_eq!(m.drop_instances_of("people/"), 0);
    assert_eq!(m.obstacles().len(), 1);
}
