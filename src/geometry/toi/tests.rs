use super::*;
use crate::geometry::query;
use std::f64::consts::TAU;

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

// ---------------------------------------------------------------------------
// A point under a turning twist: the closed form (`twist`).

/// Distance from `q` to the simple polygon `outline` (0 inside), written
/// here: even-odd crossing, then the nearest edge.
fn outline_distance(outline: &[Point], q: &Point) -> f64 {
    let n = outline.len();
    let mut odd = false;
    let mut best = f64::INFINITY;
    for i in 0..n {
        let (a, b) = (outline[i], outline[(i + 1) % n]);
        if (a.y > q.y) != (b.y > q.y) && q.x < (b.x - a.x) * (q.y - a.y) / (b.y - a.y) + a.x {
            odd = !odd;
        }
        let (ab, aq) = (b - a, q - a);
        let s = (aq.dot(&ab) / ab.norm_squared()).clamp(0.0, 1.0);
        best = best.min((aq - ab * s).norm());
    }
    if odd {
        0.0
    } else {
        best
    }
}

#[test]
fn square_turning_in_place_reaches_a_point_in_closed_form() {
    let square = square(0.0, 0.0, 0.3);
    let p = Point::new(0.4, 0.0);
    let exact = (0.3f64 / 0.4).acos();
    for w in [1.0, -1.0, 0.5, -3.0, 1e3] {
        let motion = Motion::twist(&Isometry2::identity(), Vector::zeros(), w);
        let hit = point_time_of_impact(&square, &motion, p, 4.0, 0.0).expect("a contact");
        let want = exact / w.abs();
        assert!(hit.exact && hit.steps == 1, "w {w}: {hit:?}");
        assert!(
            hit.time <= want && hit.time > want - 1e-11,
            "w {w}: {hit:?} vs {want}"
        );
        // The same turn as a path segment that does not move its origin.
        let segment = Motion::Interpolated {
            start: Isometry2::identity(),
            velocity: Vector::zeros(),
            angular: w,
        };
        let same = point_time_of_impact(&square, &segment, p, 4.0, 0.0).expect("a contact");
        assert_eq!((same.time, same.exact, same.steps), (hit.time, true, 1));
    }
    // Padding 0.05, a point 0.45 m ahead: seen from the square it turns
    // clockwise on its circle and enters the right edge's band (x <= 0.35)
    // when 0.45·cos(θ) = 0.35 (before the corner's disc, at 39.4°).
    let motion = Motion::twist(&Isometry2::identity(), Vector::zeros(), 1.0);
    let hit = point_time_of_impact(&square, &motion, Point::new(0.45, 0.0), 4.0, 0.05)
        .expect("a contact");
    let want = (0.35f64 / 0.45).acos();
    assert!(
        hit.exact && hit.time <= want && hit.time > want - 1e-11,
        "{hit:?} vs {want}"
    );
    // Too far to be reached: never; beyond the span: none.
    assert!(point_time_of_impact(&square, &motion, Point::new(0.43, 0.0), 100.0, 0.0).is_none());
    assert!(point_time_of_impact(&square, &motion, p, 0.5 * exact, 0.0).is_none());
}

#[test]
fn twist_point_matches_the_advancement_and_dense_sampling() {
    use sat_collision_testkit::{shapes, SplitMix64};
    let mut rng = SplitMix64::new(0x7715);
    let (mut hits, mut checked) = (0, 0);
    for case in 0..60 {
        // Footprints: convex (points on a circle) or concave (a star).
        let outline: Vec<Point> = if case % 2 == 0 {
            let n = 3 + rng.below_usize(6);
            let mut angles: Vec<f64> = (0..n).map(|_| rng.range(0.0, TAU)).collect();
            angles.sort_by(f64::total_cmp);
            let r = rng.range(0.2, 1.0);
            angles
                .iter()
                .map(|a| Point::new(r * a.cos(), r * a.sin()))
                .collect()
        } else {
            let n = 5 + rng.below_usize(8);
            shapes::random_star(&mut rng, n)
                .iter()
                .map(|p| Point::new(0.8 * p.x, 0.8 * p.y))
                .collect()
        };
        let Ok(fp) = Shape::polygon(&outline) else {
            continue;
        };
        let start = Isometry2::new(
            Vector::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0)),
            rng.range(-3.0, 3.0),
        );
        // Pure rotation, arcs, tiny and huge turn rates.
        let (velocity, angular) = match case % 5 {
            0 => (Vector::zeros(), rng.range(-2.0, 2.0)),
            1 | 2 => (
                Vector::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)),
                rng.range(-2.0, 2.0),
            ),
            3 => (
                Vector::new(rng.range(-1.0, 1.0), 0.0),
                rng.range(-1e-3, 1e-3),
            ),
            _ => (
                Vector::new(rng.range(-1.0, 1.0), 0.0),
                rng.range(-60.0, 60.0),
            ),
        };
        let motion = Motion::twist(&start, velocity, angular);
        let duration = rng.range(0.5, 3.0);
        let padding = if rng.chance(0.5) {
            0.0
        } else {
            rng.range(0.0, 0.2)
        };
        for _ in 0..4 {
            let p = start * Point::new(rng.range(-1.3, 1.3), rng.range(-1.3, 1.3));
            let closed = point_time_of_impact(&fp, &motion, p, duration, padding);
            let adv = advance(&fp, &motion, duration, &PointTarget(p), padding, (0.0, 0.0));
            // The dense reference: 10^5 times over the span.
            let samples = 100_000;
            let clearance = |t: f64| {
                outline_distance(&outline, &motion.pose_at(t).inverse_transform_point(&p)) - padding
            };
            let first = (0..=samples)
                .map(|i| duration * i as f64 / samples as f64)
                .find(|&t| clearance(t) <= 0.0);
            let min = (0..=samples)
                .map(|i| clearance(duration * i as f64 / samples as f64))
                .fold(f64::INFINITY, f64::min);
            if min.abs() < 1e-6 {
                continue; // Grazing: the answers may differ within the tolerance.
            }
            checked += 1;
            match (closed, first) {
                (None, None) => {}
                (Some(hit), first) => {
                    hits += 1;
                    // A contact at the time reported, none sampled before.
                    assert!(clearance(hit.time) <= 1e-9, "case {case}: {hit:?}");
                    if let Some(f) = first {
                        assert!(hit.time <= f + 1e-12, "case {case}: {hit:?} after {f}");
                    }
                }
                (None, Some(f)) => panic!("case {case}: missed the contact at {f}"),
            }
            // Against the advancement: the same contact, within its
            // convergence (never earlier than its never-late answer
            // minus the tolerance).
            match (closed, adv) {
                (None, None) => {}
                (Some(c), Some(a)) => {
                    assert!(c.time >= a.time - 1e-9, "case {case}: {c:?} vs {a:?}");
                    if a.exact {
                        assert!(c.time <= a.time + 1e-6, "case {case}: {c:?} vs {a:?}");
                    }
                    if angular.abs() * duration > 1e-2 && c.time > 0.0 {
                        assert!(c.exact && c.steps == 1, "case {case}: {c:?}");
                    }
                }
                (c, a) => panic!("case {case}: {c:?} vs the advancement's {a:?}"),
            }
        }
    }
    assert!(
        checked > 150 && hits > 30,
        "{checked} checked, {hits} contacts"
    );
}

mod moving;
