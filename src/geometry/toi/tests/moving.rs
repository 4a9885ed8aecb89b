//! Two moving shapes ([`moving_time_of_impact`]): known contact times,
//! the reductions (B still, both translating) against the single-body
//! answer, and random cases against a dense-sampling reference.

use super::super::*;
use crate::geometry::query;
use nalgebra::Rotation2;
use sat_collision_testkit::{shapes, SplitMix64};
use std::f64::consts::{FRAC_PI_2, TAU};

fn rect(hx: f64, hy: f64) -> Shape {
    Shape::polygon(&[
        Point::new(-hx, -hy),
        Point::new(hx, -hy),
        Point::new(hx, hy),
        Point::new(-hx, hy),
    ])
    .unwrap()
}

fn at(x: f64, y: f64, yaw: f64) -> Isometry2<f64> {
    Isometry2::new(Vector::new(x, y), yaw)
}

/// The pose of `motion` at `t`, written here by another formula than
/// `Motion::pose_at`: a twist as a rotation about its fixed centre.
fn pose(motion: &Motion, t: f64) -> Isometry2<f64> {
    match *motion {
        Motion::Interpolated {
            start,
            velocity,
            angular,
        } => Isometry2::new(
            start.translation.vector + velocity * t,
            start.rotation.angle() + angular * t,
        ),
        Motion::Twist {
            start,
            velocity,
            angular,
        } => {
            let yaw = start.rotation.angle() + angular * t;
            if angular == 0.0 {
                return Isometry2::new(
                    start.translation.vector + start.rotation * velocity * t,
                    yaw,
                );
            }
            let centre = start * Point::new(-velocity.y / angular, velocity.x / angular);
            let origin =
                centre + Rotation2::new(angular * t) * (start.translation.vector - centre.coords);
            Isometry2::new(origin.coords, yaw)
        }
    }
}

/// Signed clearance of the two shapes at `t` (minus the depth when
/// colliding), by `query` on both shapes placed.
fn gap(a: &Shape, ma: &Motion, b: &Shape, mb: &Motion, padding: f64, t: f64) -> f64 {
    let contact = query(
        &a.transformed(&pose(ma, t)),
        &b.transformed(&pose(mb, t)),
        padding,
    );
    match contact.colliding() {
        true => -contact.depth(),
        false => contact.distance(),
    }
}

/// Farthest point of `shape` from its origin.
fn reach_of(shape: &Shape) -> f64 {
    match shape {
        Shape::Circle(c) => c.center().coords.norm() + c.radius(),
        _ => shape
            .outline(0)
            .iter()
            .map(|p| p.coords.norm())
            .fold(0.0, f64::max),
    }
}

fn rates(motion: &Motion) -> (f64, f64) {
    match *motion {
        Motion::Interpolated {
            velocity, angular, ..
        }
        | Motion::Twist {
            velocity, angular, ..
        } => (velocity.norm(), angular.abs()),
    }
}

/// No point of A or of B moves faster: the clearance falls at most at
/// this rate.
fn speed_bound(a: &Shape, ma: &Motion, b: &Shape, mb: &Motion, padding: f64) -> f64 {
    let ((va, wa), (vb, wb)) = (rates(ma), rates(mb));
    va + wa * (reach_of(a) + padding) + vb + wb * reach_of(b)
}

/// The dense-sampling reference: `query` at `SUBSTEPS` times over the
/// span (skipping the sub-steps a clearance proves clear with the speed
/// bound), then bisection between the first colliding one and the one
/// before. `None` when no sub-step collides.
fn reference(
    a: &Shape,
    ma: &Motion,
    b: &Shape,
    mb: &Motion,
    duration: f64,
    padding: f64,
) -> Option<f64> {
    const SUBSTEPS: usize = 20_000;
    let h = duration / SUBSTEPS as f64;
    let v = speed_bound(a, ma, b, mb, padding);
    let time = |k: usize| {
        if k == SUBSTEPS {
            duration
        } else {
            k as f64 * h
        }
    };
    let mut k = 0;
    while k <= SUBSTEPS {
        let g = gap(a, ma, b, mb, padding, time(k));
        if g <= 0.0 {
            break;
        }
        let proven = (g - 1e-10) / v;
        k = (((time(k) + proven) / h).floor() as usize).max(k + 1);
    }
    if k > SUBSTEPS {
        return None;
    }
    if k == 0 {
        return Some(0.0);
    }
    let (mut lo, mut hi) = (time(k - 1), time(k));
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if !(mid > lo && mid < hi) {
            break;
        }
        if gap(a, ma, b, mb, padding, mid) <= 0.0 {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

#[test]
fn head_on_robots_meet_half_way() {
    // Two 1 m squares 4 m apart (faces), closing at 1 + 1.5 m/s; padding
    // 0.1: contact when the gap 4 − 0.1 is closed.
    let robot = rect(0.5, 0.5);
    for (ma, mb) in [
        (
            Motion::twist(&at(0.0, 0.0, 0.0), Vector::new(1.0, 0.0), 0.0),
            Motion::twist(
                &at(5.0, 0.0, std::f64::consts::PI),
                Vector::new(1.5, 0.0),
                0.0,
            ),
        ),
        (
            Motion::Interpolated {
                start: at(0.0, 0.0, 0.0),
                velocity: Vector::new(1.0, 0.0),
                angular: 0.0,
            },
            Motion::Interpolated {
                start: at(5.0, 0.0, 0.0),
                velocity: Vector::new(-1.5, 0.0),
                angular: 0.0,
            },
        ),
    ] {
        let hit = moving_time_of_impact(&robot, &ma, &robot, &mb, 3.0, 0.1).expect("a contact");
        let want = 3.9 / 2.5;
        assert!(hit.exact && hit.steps == 1, "{hit:?}");
        assert!(
            hit.time <= want && want - hit.time < 1e-10,
            "{hit:?} vs {want}"
        );
        assert!(hit.contact.colliding() && (hit.contact.axis() - Vector::x()).norm() < 1e-9);
        // Swapped: the same time, the axis the other way.
        let back = moving_time_of_impact(&robot, &mb, &robot, &ma, 3.0, 0.1).expect("a contact");
        assert!(
            (back.time - hit.time).abs() < 1e-10 && back.exact,
            "{back:?}"
        );
        assert!((back.contact.axis() + Vector::x()).norm() < 1e-9);
        // Not within the span: none.
        assert_eq!(
            moving_time_of_impact(&robot, &ma, &robot, &mb, 1.5, 0.1),
            None
        );
    }
}

#[test]
fn crossing_robots_meet_corner_to_corner() {
    // A drives +x from (−5, 0), B drives +y from (0, −5), both at 1 m/s:
    // their boxes overlap on both axes from t = 4 (corner to corner).
    let robot = rect(0.5, 0.5);
    let ma = Motion::twist(&at(-5.0, 0.0, 0.0), Vector::new(1.0, 0.0), 0.0);
    let mb = Motion::twist(&at(0.0, -5.0, FRAC_PI_2), Vector::new(1.0, 0.0), 0.0);
    let hit = moving_time_of_impact(&robot, &ma, &robot, &mb, 10.0, 0.0).expect("a contact");
    assert!(
        hit.exact && hit.time <= 4.0 && 4.0 - hit.time < 1e-10,
        "{hit:?}"
    );
    // B two seconds later: its front reaches A's path (y = −0.5) at t = 6,
    // when A's back leaves B's lane (x = 0.5): corner to corner for an
    // instant, and touching counts; a millimetre later, a miss.
    let late = Motion::twist(&at(0.0, -7.0, FRAC_PI_2), Vector::new(1.0, 0.0), 0.0);
    let touch = moving_time_of_impact(&robot, &ma, &robot, &late, 10.0, 0.0).expect("touching");
    assert!(
        touch.exact && touch.time <= 6.0 && 6.0 - touch.time < 1e-9,
        "{touch:?}"
    );
    let later = Motion::twist(&at(0.0, -7.001, FRAC_PI_2), Vector::new(1.0, 0.0), 0.0);
    assert_eq!(
        moving_time_of_impact(&robot, &ma, &robot, &later, 10.0, 0.0),
        None
    );
    // Both turning while they cross (past 180°): never later than the
    // reference, and converged.
    let ma = Motion::Interpolated {
        start: at(-5.0, 0.0, 0.0),
        velocity: Vector::new(1.0, 0.0),
        angular: 1.3,
    };
    let mb = Motion::Interpolated {
        start: at(0.0, -5.0, FRAC_PI_2),
        velocity: Vector::new(0.0, 1.1),
        angular: -2.0,
    };
    let hit = moving_time_of_impact(&robot, &ma, &robot, &mb, 10.0, 0.05).expect("a contact");
    let want = reference(&robot, &ma, &robot, &mb, 10.0, 0.05).expect("a contact");
    assert!(
        hit.exact && hit.time <= want + 1e-12 && want - hit.time < 1e-9,
        "{hit:?} vs {want}"
    );
}

#[test]
fn bars_turning_towards_each_other_meet_on_the_mirror_line() {
    // Two 2 m × 2 cm bars upright at x = 0 and x = 1.5, turning in place
    // in opposite senses: mirror images about x = 0.75, they first touch
    // when A's rightmost corner reaches it, sin t + 0.01·cos t = 0.75.
    let bar = rect(1.0, 0.01);
    let want = (0.75 / 1.0001f64.sqrt()).asin() - 0.01f64.atan();
    for (ma, mb) in [
        (
            Motion::twist(&at(0.0, 0.0, FRAC_PI_2), Vector::zeros(), 1.0),
            Motion::twist(&at(1.5, 0.0, FRAC_PI_2), Vector::zeros(), -1.0),
        ),
        (
            Motion::Interpolated {
                start: at(0.0, 0.0, FRAC_PI_2),
                velocity: Vector::zeros(),
                angular: 1.0,
            },
            Motion::Interpolated {
                start: at(1.5, 0.0, FRAC_PI_2),
                velocity: Vector::zeros(),
                angular: -1.0,
            },
        ),
    ] {
        let hit = moving_time_of_impact(&bar, &ma, &bar, &mb, 2.0, 0.0).expect("a contact");
        assert!(hit.exact, "{hit:?}");
        assert!(
            hit.time <= want && want - hit.time < 1e-10,
            "{hit:?} vs {want}"
        );
        let back = moving_time_of_impact(&bar, &mb, &bar, &ma, 2.0, 0.0).expect("a contact");
        assert!(
            back.exact && (back.time - hit.time).abs() < 1e-10,
            "{back:?}"
        );
        assert!(back.time <= want);
    }
}

/// A random shape about its origin: convex, concave (a star) or a circle.
fn random_shape(rng: &mut SplitMix64, size: f64) -> Shape {
    loop {
        let shape = match rng.below_usize(3) {
            0 => {
                let n = 3 + rng.below_usize(8);
                let mut angles: Vec<f64> = (0..n).map(|_| rng.range(0.0, TAU)).collect();
                angles.sort_by(f64::total_cmp);
                let r = rng.range(0.3, 1.0) * size;
                let points: Vec<Point> = angles
                    .iter()
                    .map(|a| Point::new(r * a.cos(), r * a.sin()))
                    .collect();
                Shape::polygon(&points)
            }
            1 => {
                let n = 5 + rng.below_usize(8);
                let points: Vec<Point> = shapes::random_star(rng, n)
                    .iter()
                    .map(|p| Point::new(size * p.x, size * p.y))
                    .collect();
                Shape::polygon(&points)
            }
            _ => Shape::circle(
                Point::new(rng.range(-0.3, 0.3) * size, rng.range(-0.3, 0.3) * size),
                rng.range(0.1, 0.7) * size,
            ),
        };
        if let Ok(shape) = shape {
            return shape;
        }
    }
}

/// A random motion starting within `spread` of the origin, headed
/// roughly towards it: a path segment or a twist, turning at up to
/// 4 rad/s (past 180° over the span) or not at all.
fn random_motion(rng: &mut SplitMix64, spread: f64, turning: bool) -> Motion {
    let bearing = rng.range(0.0, TAU);
    let distance = rng.range(0.5, 1.0) * spread;
    let start = at(
        distance * bearing.cos(),
        distance * bearing.sin(),
        rng.range(-3.0, 3.0),
    );
    let heading = bearing + std::f64::consts::PI + rng.range(-0.6, 0.6);
    let speed = if rng.chance(0.1) {
        0.0
    } else {
        rng.range(0.3, 2.5)
    };
    let world = Vector::new(heading.cos(), heading.sin()) * speed;
    let angular = match turning {
        true => rng.range(0.5, 4.0) * if rng.chance(0.5) { 1.0 } else { -1.0 },
        false => 0.0,
    };
    match rng.chance(0.5) {
        true => Motion::Interpolated {
            start,
            velocity: world,
            angular,
        },
        false => Motion::twist(&start, start.rotation.inverse() * world, angular),
    }
}

#[test]
fn random_pairs_against_the_dense_reference() {
    let mut rng = SplitMix64::new(0xf1ee7);
    let scene = 8.0;
    let tol = length_tolerance(scene);
    let (mut hits, mut exact, mut both_turning, mut missed_between) = (0, 0, 0, 0);
    let (mut early, mut steps, mut most_steps) = (0.0_f64, 0, 0);
    let mut swap_gap = 0.0_f64;
    let cases = 3000;
    for case in 0..cases {
        let a = random_shape(&mut rng, 0.8);
        let b = random_shape(&mut rng, 0.8);
        // Both turning in half of the cases, one of them in a quarter.
        let kind = rng.below_usize(4);
        let ma = random_motion(&mut rng, 2.5, kind != 3);
        let mb = random_motion(&mut rng, 2.5, kind <= 1);
        let duration = rng.range(0.5, 2.5);
        let padding = if rng.chance(0.5) {
            0.0
        } else {
            rng.range(0.0, 0.2)
        };
        let ours = moving_time_of_impact(&a, &ma, &b, &mb, duration, padding);
        let want = reference(&a, &ma, &b, &mb, duration, padding);
        let v = speed_bound(&a, &ma, &b, &mb, padding);
        let late = 2.0 * tol / v; // A position error `2·tol` as a time.
        match (ours, want) {
            (None, None) => {}
            (None, Some(r)) => panic!("case {case}: missed the contact at {r}"),
            (Some(hit), r) => {
                hits += 1;
                exact += hit.exact as usize;
                both_turning += (ma.angular() != 0.0 && mb.angular() != 0.0) as usize;
                assert!(
                    hit.time >= 0.0 && hit.time <= duration,
                    "case {case}: {hit:?}"
                );
                if let Some(r) = r {
                    assert!(
                        hit.time <= r + late,
                        "case {case}: {hit:?} later than {r}: {ma:?} {mb:?} {a:?} {b:?} {padding} {}",
                        gap(&a, &ma, &b, &mb, padding, hit.time)
                    );
                    early = early.max(r - hit.time);
                }
                steps += hit.steps;
                if !hit.exact && std::env::var("MOVING_DEBUG").is_ok() {
                    eprintln!(
                        "case {case}: {hit:?} reference {r:?} {ma:?} {mb:?} {a:?} {b:?} {padding}"
                    );
                }
                most_steps = most_steps.max(hit.steps);
                if hit.exact {
                    // A contact at the time reported (within the tolerance).
                    let g = gap(&a, &ma, &b, &mb, padding, hit.time);
                    assert!(g <= 1e-9, "case {case}: {hit:?} at clearance {g}");
                    assert!(hit.contact.colliding(), "case {case}: {hit:?}");
                    match r {
                        // A contact between two sub-steps: the reference
                        // skipped it; ours is a real one (above).
                        None => missed_between += 1,
                        Some(r) if r - hit.time > 1e-7 => missed_between += 1,
                        Some(_) => {}
                    }
                }
                // Swapped: the same contact, within the convergence.
                let back = moving_time_of_impact(&b, &mb, &a, &ma, duration, padding)
                    .unwrap_or_else(|| panic!("case {case}: swapped misses {hit:?}"));
                if hit.exact && back.exact {
                    swap_gap = swap_gap.max((back.time - hit.time).abs());
                    assert!(
                        (back.time - hit.time).abs() <= 1e-6,
                        "case {case}: {hit:?} swapped {back:?}"
                    );
                }
                if let Some(r) = r {
                    assert!(
                        back.time <= r + late,
                        "case {case}: swapped {back:?} later than {r}"
                    );
                }
            }
        }
    }
    eprintln!(
        "{cases} cases: {hits} contacts ({both_turning} with both turning), {exact} converged, \
         {missed_between} between the reference's sub-steps; at most {early:.1e} s before \
         the reference; {:.1} steps on average, {most_steps} at most; swapped within \
         {swap_gap:.1e} s",
        steps as f64 / hits.max(1) as f64
    );
    assert!(
        hits > cases / 3 && both_turning > cases / 8,
        "{hits} contacts, {both_turning} with both turning"
    );
    assert!(exact * 100 >= hits * 99, "{exact} of {hits} converged");
    // Every converged answer is the reference's contact (this seed: none
    // falls between two sub-steps, where only `gap` above could check it).
    assert!(
        missed_between == 0 && early < 1e-9,
        "{missed_between} between sub-steps, {early} s early"
    );
    assert!(swap_gap < 1e-9, "swapped within {swap_gap} s");
}

#[test]
fn b_still_is_the_single_body_answer() {
    let mut rng = SplitMix64::new(0x5711);
    let mut hits = 0;
    for case in 0..200 {
        let a = random_shape(&mut rng, 0.8);
        let b = random_shape(&mut rng, 0.8);
        let turning = rng.chance(0.7);
        let ma = random_motion(&mut rng, 3.0, turning);
        let duration = rng.range(0.5, 2.5);
        let padding = if rng.chance(0.5) {
            0.0
        } else {
            rng.range(0.0, 0.2)
        };
        // At the origin: the same call, bit for bit.
        let still = Motion::twist(&Isometry2::identity(), Vector::zeros(), 0.0);
        let ours = moving_time_of_impact(&a, &ma, &b, &still, duration, padding);
        let single = time_of_impact(&a, &ma, duration, &b, padding);
        assert_eq!(ours, single, "case {case}");
        hits += ours.is_some() as usize;
        // Elsewhere: B placed there, within the tolerance.
        let frame = at(
            rng.range(-2.0, 2.0),
            rng.range(-2.0, 2.0),
            rng.range(-3.0, 3.0),
        );
        let still = Motion::Interpolated {
            start: frame,
            velocity: Vector::zeros(),
            angular: 0.0,
        };
        let moved = ma.transformed(&frame);
        let ours = moving_time_of_impact(&a, &moved, &b, &still, duration, padding);
        let single = time_of_impact(&a, &moved, duration, &b.transformed(&frame), padding);
        match (ours, single) {
            (None, None) => {}
            (Some(o), Some(s)) => {
                assert!(
                    (o.time - s.time).abs() < 1e-9 && o.exact == s.exact,
                    "case {case}: {o:?} vs {s:?}"
                );
                assert!(
                    (o.contact.axis() - s.contact.axis()).norm() < 1e-6,
                    "case {case}: {o:?} vs {s:?}"
                );
            }
            (o, s) => panic!("case {case}: {o:?} vs {s:?}"),
        }
        // A still instead: the roles swapped, the axis turned back.
        let ours = moving_time_of_impact(&b, &still, &a, &moved, duration, padding);
        match (ours, single) {
            (None, None) => {}
            (Some(o), Some(s)) => {
                assert!(
                    (o.time - s.time).abs() < 1e-9 && o.exact == s.exact,
                    "case {case}: {o:?} vs {s:?}"
                );
                if s.contact.depth() > 1e-6 || s.time > 0.0 {
                    assert!(
                        (o.contact.axis() + s.contact.axis()).norm() < 1e-6,
                        "case {case}: {o:?} vs {s:?}"
                    );
                }
            }
            (o, s) => panic!("case {case}: A still {o:?} vs {s:?}"),
        }
    }
    assert!(hits > 40, "{hits} contacts");
}

#[test]
fn both_translating_is_the_relative_translation() {
    let mut rng = SplitMix64::new(0x7e1a);
    let mut hits = 0;
    for case in 0..200 {
        let a = random_shape(&mut rng, 0.8);
        let b = random_shape(&mut rng, 0.8);
        let ma = random_motion(&mut rng, 3.0, false);
        let mb = random_motion(&mut rng, 3.0, false);
        let duration = rng.range(0.5, 2.5);
        let padding = if rng.chance(0.5) {
            0.0
        } else {
            rng.range(0.0, 0.2)
        };
        let ours = moving_time_of_impact(&a, &ma, &b, &mb, duration, padding);
        // B fixed at its start, A at the relative velocity (fixed frame).
        let velocity =
            |m: &Motion| pose(m, 1.0).translation.vector - pose(m, 0.0).translation.vector;
        let relative = Motion::Interpolated {
            start: *ma.start(),
            velocity: velocity(&ma) - velocity(&mb),
            angular: 0.0,
        };
        let single = time_of_impact(&a, &relative, duration, &b.transformed(mb.start()), padding);
        match (ours, single) {
            (None, None) => {}
            (Some(o), Some(s)) => {
                hits += 1;
                assert!(
                    (o.time - s.time).abs() < 1e-9 && o.exact == s.exact,
                    "case {case}: {o:?} vs {s:?}"
                );
                let g = gap(&a, &ma, &b, &mb, padding, o.time);
                assert!(
                    g <= 1e-9 && (o.time == 0.0 || g > -1e-9),
                    "case {case}: {o:?} at {g}"
                );
            }
            (o, s) => panic!("case {case}: {o:?} vs {s:?}"),
        }
    }
    assert!(hits > 40, "{hits} contacts");
}

#[test]
fn unusable_motions_stop_at_once() {
    let robot = rect(0.3, 0.3);
    let ok = Motion::twist(&at(-5.0, 0.0, 0.0), Vector::new(1.0, 0.0), 0.5);
    let other = Motion::twist(&at(5.0, 0.0, 0.0), Vector::new(-1.0, 0.0), -0.5);
    let bad = [
        Motion::twist(&at(5.0, 0.0, 0.0), Vector::new(f64::NAN, 0.0), 0.0),
        Motion::twist(&at(5.0, 0.0, 0.0), Vector::zeros(), f64::INFINITY),
        Motion::twist(&at(f64::INFINITY, 0.0, 0.0), Vector::zeros(), 1.0),
    ];
    for bad in bad {
        for (ma, mb) in [(ok, bad), (bad, ok)] {
            let hit = moving_time_of_impact(&robot, &ma, &robot, &mb, 2.0, 0.0).expect("stop");
            assert_eq!((hit.time, hit.exact, hit.steps), (0.0, false, 0), "{hit:?}");
        }
    }
    for duration in [f64::NAN, f64::INFINITY] {
        let hit = moving_time_of_impact(&robot, &ok, &robot, &other, duration, 0.0).expect("stop");
        assert_eq!((hit.time, hit.exact), (0.0, false));
        // Both start poses finite: the contact there (apart, 9.4 m).
        assert!((hit.contact.distance() - 9.4).abs() < 1e-9, "{hit:?}");
    }
    // Huge but finite rates on both sides end within the step cap, never
    // after the span.
    let wild = Motion::twist(&at(5.0, 0.0, 0.0), Vector::new(1e300, 0.0), 1e300);
    let wilder = Motion::Interpolated {
        start: at(-5.0, 0.0, 0.0),
        velocity: Vector::new(-1e300, 1e300),
        angular: -1e300,
    };
    for (ma, mb) in [(ok, wild), (wild, ok), (wilder, wild)] {
        let hit = moving_time_of_impact(&robot, &ma, &robot, &mb, 1.0, 0.0);
        assert!(
            hit.is_none_or(|h| h.time >= 0.0 && h.time <= 1.0),
            "{hit:?}"
        );
    }
    // A negative duration is 0: only the start poses.
    assert_eq!(
        moving_time_of_impact(&robot, &ok, &robot, &other, -1.0, 0.0),
        None
    );
    let near = Motion::twist(&at(0.0, 0.0, 0.0), Vector::zeros(), 1.0);
    let hit = moving_time_of_impact(
        &robot,
        &near,
        &robot,
        &other.transformed(&at(-4.8, 0.0, 0.0)),
        -1.0,
        0.0,
    )
    .expect("overlapping at the start");
    assert_eq!((hit.time, hit.exact), (0.0, true));
    assert!((hit.contact.depth() - 0.4).abs() < 1e-9, "{hit:?}");
}
