use super::*;
use crate::geometry::query;

fn square(cx: f64, cy: f64, half: f64) -> Shape {
    Shape::polygon(&[
        Point::new(cx - half, cy - half),
        Point::new(cx + half, cy - half),
        Point::new(cx + half, cy + half),
        Point::new(cx - half, cy + half),
    ])
    .unwrap()
}

#[test]
fn translation_meets_a_wall() {
    let robot = square(0.0, 0.0, 0.5);
    let wall = Shape::polygon(&[
        Point::new(3.0, -2.0),
        Point::new(3.01, -2.0),
        Point::new(3.01, 2.0),
        Point::new(3.0, 2.0),
    ])
    .unwrap();
    let motion = Motion::segment(
        &Isometry2::identity(),
        &Isometry2::new(Vector::new(5.0, 0.0), 0.0),
        5.0,
    );
    let hit = time_of_impact(&robot, &motion, 5.0, &wall, 0.0).unwrap();
    assert!((hit.time - 2.5).abs() < 1e-9, "{hit:?}");
}

fn wall(x0: f64, x1: f64) -> Shape {
    Shape::polygon(&[
        Point::new(x0, -2.0),
        Point::new(x1, -2.0),
        Point::new(x1, 2.0),
        Point::new(x0, 2.0),
    ])
    .unwrap()
}

/// First `t` (grid `duration / steps`, then bisection) at which `query`
/// reports a collision: an independent sampling of the motion.
fn sampled(a: &Shape, motion: &Motion, duration: f64, b: &Shape, padding: f64) -> Option<f64> {
    let hit = |t: f64| query(&a.transformed(&motion.pose_at(t)), b, padding).colliding();
    let steps = 20_000;
    let mut prev = 0.0;
    for k in 0..=steps {
        let t = duration * k as f64 / steps as f64;
        if hit(t) {
            if k == 0 {
                return Some(0.0);
            }
            let (mut lo, mut hi) = (prev, t);
            for _ in 0..80 {
                let mid = 0.5 * (lo + hi);
                if hit(mid) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            return Some(hi);
        }
        prev = t;
    }
    None
}

#[test]
fn thin_wall_between_far_poses_is_not_tunnelled() {
    // A 1 cm wall between two poses 0.5 m apart, 0.1 s.
    let robot = square(0.0, 0.0, 0.1);
    let wall = wall(0.2, 0.21);
    let motion = Motion::segment(
        &Isometry2::identity(),
        &Isometry2::new(Vector::new(0.5, 0.0), 0.0),
        0.1,
    );
    assert!(!query(&robot, &wall, 0.0).colliding());
    assert!(!query(&robot.transformed(&motion.pose_at(0.1)), &wall, 0.0).colliding());
    let hit = time_of_impact(&robot, &motion, 0.1, &wall, 0.0).unwrap();
    assert!(
        hit.exact && hit.time <= 0.02 && hit.time > 0.02 - 1e-12,
        "{hit:?}"
    );
    assert!(hit.contact.colliding() && hit.contact.depth() == 0.0);
    // Parallel edges: the swept SAT alone (closed form).
    assert_eq!(hit.steps, 1, "{hit:?}");
}

#[test]
fn padding_brings_the_contact_forward() {
    let robot = square(0.0, 0.0, 0.2);
    let motion = Motion::segment(
        &Isometry2::identity(),
        &Isometry2::new(Vector::new(0.5, 0.0), 0.0),
        0.1,
    );
    let hit = time_of_impact(&robot, &motion, 0.1, &wall(0.45, 0.46), 0.1).unwrap();
    // Front at 0.2 + 0.1 reaches 0.45 after 0.15 m at 5 m/s.
    assert!((hit.time - 0.03).abs() < 1e-12 && hit.exact, "{hit:?}");
    // Moving diagonally: a rounded corner of the padded square meets
    // the wall's corner.
    let post = square(1.0, 1.0, 0.1);
    let motion = Motion::segment(
        &Isometry2::identity(),
        &Isometry2::new(Vector::new(2.0, 2.0), 0.0),
        1.0,
    );
    let hit = time_of_impact(&robot, &motion, 1.0, &post, 0.1).unwrap();
    let reference = sampled(&robot, &motion, 1.0, &post, 0.1).unwrap();
    assert!(
        hit.time <= reference && reference - hit.time < 1e-9,
        "{hit:?} {reference}"
    );
    // Corner (0.2, 0.2) to corner (0.9, 0.9) along the diagonal, down
    // to the padding: (0.7 - 2t)·√2 = 0.1.
    let expected = (0.7 - 0.1 / 2f64.sqrt()) / 2.0;
    assert!((hit.time - expected).abs() < 1e-9, "{hit:?} {expected}");
}

#[test]
fn long_footprint_turning_in_place_meets_a_post() {
    // navigation2 #3171: a 2 m × 0.2 m footprint turning in place hits a
    // post that neither the start nor the end pose touches.
    let robot = Shape::polygon(&[
        Point::new(-1.0, -0.1),
        Point::new(1.0, -0.1),
        Point::new(1.0, 0.1),
        Point::new(-1.0, 0.1),
    ])
    .unwrap();
    let start = Isometry2::new(Vector::new(3.0, 1.0), 0.2);
    let post = Shape::circle(Point::new(3.5, 1.6), 0.05).unwrap();
    let square_post = square(3.5, 1.6, 0.05);
    for post in [post, square_post] {
        for motion in [
            Motion::segment(&start, &Isometry2::new(Vector::new(3.0, 1.0), 1.7), 1.0),
            Motion::twist(&start, Vector::zeros(), 1.5),
        ] {
            assert!(!query(&robot.transformed(&motion.pose_at(0.0)), &post, 0.0).colliding());
            assert!(!query(&robot.transformed(&motion.pose_at(1.0)), &post, 0.0).colliding());
            let hit = time_of_impact(&robot, &motion, 1.0, &post, 0.0).unwrap();
            let reference = sampled(&robot, &motion, 1.0, &post, 0.0).unwrap();
            assert!(hit.exact, "{hit:?}");
            assert!(hit.time <= reference + 1e-12, "{hit:?} {reference}");
            assert!(reference - hit.time < 1e-9, "{hit:?} {reference}");
            assert!(hit.contact.colliding());
        }
    }
}

#[test]
fn obstacle_inside_the_footprint_is_time_zero_with_the_mtv() {
    // navigation2 #4355: an obstacle entirely inside the footprint.
    let robot = square(0.0, 0.0, 0.5);
    let inside = square(1.1, 2.05, 0.05);
    let start = Isometry2::new(Vector::new(1.0, 2.0), 0.3);
    let motion = Motion::twist(&start, Vector::new(0.5, 0.0), 0.4);
    let hit = time_of_impact(&robot, &motion, 2.0, &inside, 0.0).unwrap();
    let expected = query(&robot.transformed(&start), &inside, 0.0);
    assert_eq!(hit.time, 0.0);
    assert!(hit.exact);
    assert_eq!(hit.contact, expected);
    assert!(hit.contact.depth() > 0.4 && hit.contact.mtv().norm() > 0.4);
}

#[test]
fn circles() {
    let robot = Shape::circle(Point::new(0.1, 0.0), 0.3).unwrap();
    let obstacle = Shape::circle(Point::new(3.0, 0.4), 0.2).unwrap();
    let motion = Motion::segment(
        &Isometry2::identity(),
        &Isometry2::new(Vector::new(4.0, 0.0), 0.0),
        2.0,
    );
    let hit = time_of_impact(&robot, &motion, 2.0, &obstacle, 0.05).unwrap();
    // Centre (0.1 + 2t, 0) reaches distance 0.55 of (3, 0.4).
    let x = 3.0 - (0.55f64 * 0.55 - 0.4 * 0.4).sqrt();
    let expected = (x - 0.1) / 2.0;
    assert!(
        hit.exact && hit.time <= expected && expected - hit.time < 1e-11,
        "{hit:?}"
    );
    // A circle passing by at 0.6 > 0.55: no contact.
    let far = Shape::circle(Point::new(3.0, 0.6), 0.2).unwrap();
    assert_eq!(time_of_impact(&robot, &motion, 2.0, &far, 0.05), None);
    // A square footprint turning onto a circle.
    let robot = square(0.0, 0.0, 0.5);
    let motion = Motion::twist(&Isometry2::identity(), Vector::new(0.3, 0.0), 1.0);
    let post = Shape::circle(Point::new(0.3, 0.75), 0.1).unwrap();
    let hit = time_of_impact(&robot, &motion, 1.0, &post, 0.0).unwrap();
    let reference = sampled(&robot, &motion, 1.0, &post, 0.0).unwrap();
    assert!(hit.exact && hit.time <= reference && reference - hit.time < 1e-9);
}

#[test]
fn concave_obstacle() {
    // A U open toward -x: the footprint enters between the arms and
    // meets the back.
    let u = Shape::polygon(&[
        Point::new(2.0, -1.0),
        Point::new(3.0, -1.0),
        Point::new(3.0, 1.0),
        Point::new(2.0, 1.0),
        Point::new(2.0, 0.8),
        Point::new(2.8, 0.8),
        Point::new(2.8, -0.8),
        Point::new(2.0, -0.8),
    ])
    .unwrap();
    assert!(matches!(u, Shape::Compound(_)));
    let robot = square(0.0, 0.0, 0.3);
    let motion = Motion::segment(
        &Isometry2::identity(),
        &Isometry2::new(Vector::new(4.0, 0.0), 0.0),
        4.0,
    );
    let hit = time_of_impact(&robot, &motion, 4.0, &u, 0.0).unwrap();
    assert!(
        hit.exact && hit.time <= 2.5 && hit.time > 2.5 - 1e-11,
        "{hit:?}"
    );
    // Turning while entering: the rotated corners meet an arm first.
    let motion = Motion::segment(
        &Isometry2::identity(),
        &Isometry2::new(Vector::new(4.0, 0.0), 1.0),
        4.0,
    );
    let hit = time_of_impact(&robot, &motion, 4.0, &u, 0.0).unwrap();
    let reference = sampled(&robot, &motion, 4.0, &u, 0.0).unwrap();
    assert!(
        hit.exact && hit.time <= reference && reference - hit.time < 1e-9,
        "{hit:?} {reference}"
    );
    // A concave footprint too.
    let hit = time_of_impact(
        &u,
        &Motion::segment(
            &Isometry2::identity(),
            &Isometry2::new(Vector::new(-4.0, 0.0), 0.0),
            1.0,
        ),
        1.0,
        &square(0.0, 0.0, 0.3),
        0.0,
    )
    .unwrap();
    // The back (x = 2.8) meets x = 0.3 after 2.5 m at 4 m/s.
    assert!(hit.exact && (hit.time - 2.5 / 4.0).abs() < 1e-11, "{hit:?}");
}

#[test]
fn unusable_input_stops_at_once() {
    let robot = square(0.0, 0.0, 0.3);
    let far = square(10.0, 0.0, 0.3);
    let ok = Motion::twist(&Isometry2::identity(), Vector::new(1.0, 0.0), 0.0);
    for (motion, duration) in [
        (ok, f64::NAN),
        (ok, f64::INFINITY),
        (
            Motion::twist(&Isometry2::identity(), Vector::new(f64::NAN, 0.0), 0.0),
            1.0,
        ),
        (
            Motion::twist(&Isometry2::identity(), Vector::zeros(), f64::INFINITY),
            1.0,
        ),
        (
            Motion::twist(
                &Isometry2::new(Vector::new(f64::INFINITY, 0.0), 0.0),
                Vector::zeros(),
                0.0,
            ),
            1.0,
        ),
    ] {
        let hit = time_of_impact(&robot, &motion, duration, &far, 0.0).unwrap();
        assert_eq!((hit.time, hit.exact), (0.0, false));
        assert!(
            motion.swept_aabb(&robot, 0.0, duration).min.x == f64::NEG_INFINITY
                || !motion.is_finite()
                || !duration.is_finite()
        );
    }
    // Negative duration: only the start pose.
    assert_eq!(time_of_impact(&robot, &ok, -1.0, &far, 0.0), None);
    // Huge but finite rates end within the step cap.
    let wild = Motion::twist(&Isometry2::identity(), Vector::new(1e300, 0.0), 1e300);
    let hit = time_of_impact(&robot, &wild, 1.0, &far, 0.0);
    assert!(hit.is_none_or(|h| h.time >= 0.0));
}

#[test]
fn twist_pose_matches_integration() {
    let motion = Motion::twist(
        &Isometry2::new(Vector::new(1.0, 2.0), 0.3),
        Vector::new(0.7, 0.1),
        0.9,
    );
    // Euler integration of the body twist.
    let (mut x, mut y, mut th) = (1.0_f64, 2.0_f64, 0.3_f64);
    let dt = 1e-5;
    for _ in 0..200_000 {
        x += (0.7 * th.cos() - 0.1 * th.sin()) * dt;
        y += (0.7 * th.sin() + 0.1 * th.cos()) * dt;
        th += 0.9 * dt;
    }
    let pose = motion.pose_at(2.0);
    assert!((pose.translation.x - x).abs() < 1e-4);
    assert!((pose.translation.y - y).abs() < 1e-4);
    assert!((pose.rotation.angle() - th).abs() < 1e-9);
}
