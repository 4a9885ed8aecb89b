//! Time of impact (`geometry::toi`) against independent references.
//!
//! * A **dense-sampling reference** on 50,000 random cases (convex polygons,
//!   circles, concave polygons, padding; path segments and body twists,
//!   a third of them pure translations): the static check [`query`] at
//!   10,000 sub-steps of the span (the poses computed here, by another
//!   formula than `Motion::pose_at`), stopping at the first colliding
//!   sub-step, then bisection between it and the sub-step before. Sub-steps
//!   that a clearance `d` proves clear with the global speed bound
//!   `v_max = |v| + |ω|·(radius of A about its origin + padding)` (no point of
//!   A moves faster) are skipped: the answer is the one of evaluating every
//!   sub-step, for a fraction of the cost.
//! * **parry2d-f64** `cast_shapes` on translations of convex polygons and
//!   balls.
//! * The swept box against sampled poses; no allocation in steady state.
//!
//! Tolerances (explicit): every coordinate of these scenes is below
//! `SCENE = 20 m`, so every tolerance of the library is at most
//! `TOL = length_tolerance(20) = 2e-11 m`. A position error `TOL` is a time
//! error `TOL / v_max`.

use crate::reference::motion_pose;
use nalgebra::Isometry2;
use parry2d_f64::math::{Pose, Vector as PVector};
use parry2d_f64::query as pq;
use parry2d_f64::shape::{Ball as ParryBall, ConvexPolygon as ParryPolygon, Shape as ParryShape};
use sat_collision::geometry::{
    length_tolerance, moving_time_of_impact, query, time_of_impact, Motion, Point, Shape, Vector,
};
use sat_collision_testkit::alloc::allocations_in;
use sat_collision_testkit::SplitMix64 as Rng;
use std::f64::consts::{FRAC_PI_2, PI, TAU};

const SCENE: f64 = 20.0;
const SUBSTEPS: usize = 10_000;
const CASES: usize = 50_000;
/// Cases also checked against the reference without its skipping.
const FULLY_SAMPLED: usize = 300;

fn tol() -> f64 {
    length_tolerance(SCENE)
}

fn parts(motion: &Motion) -> (Vector, f64) {
    match *motion {
        Motion::Interpolated {
            velocity, angular, ..
        }
        | Motion::Twist {
            velocity, angular, ..
        } => (velocity, angular),
    }
}

/// Farthest point of A (inflated by `padding`) from its origin.
fn radius_about_origin(a: &Shape, padding: f64) -> f64 {
    let r = match a {
        Shape::Circle(c) => c.center().coords.norm() + c.radius(),
        _ => a
            .outline(0)
            .iter()
            .map(|p| p.coords.norm())
            .fold(0.0, f64::max),
    };
    r + padding
}

fn speed_bound(a: &Shape, motion: &Motion, padding: f64) -> f64 {
    let (v, w) = parts(motion);
    v.norm() + w.abs() * radius_about_origin(a, padding)
}

/// Signed clearance at time `t` (minus the depth when colliding).
fn clearance(a: &Shape, motion: &Motion, t: f64, b: &Shape, padding: f64) -> f64 {
    let contact = query(&a.transformed(&motion_pose(motion, t)), b, padding);
    if contact.colliding() {
        -contact.depth()
    } else {
        contact.distance()
    }
}

struct Reference {
    /// First contact (s).
    first: Option<f64>,
    /// Static checks made.
    checks: usize,
}

/// Dense sampling: [`SUBSTEPS`] sub-steps, skipping those a clearance proves
/// clear, first colliding one refined by bisection.
fn reference(a: &Shape, motion: &Motion, duration: f64, b: &Shape, padding: f64) -> Reference {
    let h = duration / SUBSTEPS as f64;
    let v_max = speed_bound(a, motion, padding);
    let colliding = |t: f64| query(&a.transformed(&motion_pose(motion, t)), b, padding).colliding();
    let at = |k: usize| {
        if k == SUBSTEPS {
            duration
        } else {
            k as f64 * h
        }
    };
    let mut checks = 0;
    let mut k = 0;
    while k <= SUBSTEPS {
        let t = at(k);
        checks += 1;
        let contact = query(&a.transformed(&motion_pose(motion, t)), b, padding);
        if contact.colliding() {
            break;
        }
        // No contact while the clearance cannot have shrunk to a tolerance.
        let proven = (contact.distance() - 4.0 * tol()) / v_max;
        let skip_to = if proven.is_finite() && proven > 0.0 {
            ((t + proven) / h).floor() as usize
        } else if proven > 0.0 {
            SUBSTEPS + 1
        } else {
            0
        };
        k = skip_to.max(k + 1);
    }
    if k > SUBSTEPS {
        return Reference {
            first: None,
            checks,
        };
    }
    if k == 0 {
        return Reference {
            first: Some(0.0),
            checks,
        };
    }
    let (mut lo, mut hi) = (at(k - 1), at(k));
    for _ in 0..64 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        checks += 1;
        if colliding(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Reference {
        first: Some(hi),
        checks,
    }
}

/// [`reference`] without the skipping: every sub-step up to the first
/// colliding one, then the same bisection.
fn every_substep(
    a: &Shape,
    motion: &Motion,
    duration: f64,
    b: &Shape,
    padding: f64,
) -> Option<f64> {
    let h = duration / SUBSTEPS as f64;
    let colliding = |t: f64| query(&a.transformed(&motion_pose(motion, t)), b, padding).colliding();
    let at = |k: usize| {
        if k == SUBSTEPS {
            duration
        } else {
            k as f64 * h
        }
    };
    let k = (0..=SUBSTEPS).find(|&k| colliding(at(k)))?;
    if k == 0 {
        return Some(0.0);
    }
    let (mut lo, mut hi) = (at(k - 1), at(k));
    for _ in 0..64 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if colliding(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

fn convex(rng: &mut Rng, center: Point, size: f64) -> Shape {
    let n = rng.int(3, 8) as usize;
    let (rx, ry) = (size * rng.range(0.5, 1.0), size * rng.range(0.3, 1.0));
    let phase = rng.range(0.0, TAU);
    // Sorted angles on an ellipse: convex.
    let mut angles: Vec<f64> = (0..n).map(|_| rng.range(0.0, TAU)).collect();
    angles.sort_by(f64::total_cmp);
    let points: Vec<Point> =
        sat_collision_testkit::shapes::ellipse_ring(center, rx, ry, phase, angles);
    Shape::polygon(&points).unwrap_or_else(|_| Shape::circle(center, 0.5 * size).unwrap())
}

fn concave(rng: &mut Rng, center: Point, size: f64) -> Shape {
    let n = 2 * rng.int(3, 5) as usize;
    let phase = rng.range(0.0, TAU);
    let vertices = (0..n).map(|k| {
        let a = phase + TAU * k as f64 / n as f64;
        let r = if k % 2 == 0 {
            size * rng.range(0.7, 1.0)
        } else {
            size * rng.range(0.25, 0.6)
        };
        (a, r)
    });
    let points: Vec<Point> = sat_collision_testkit::shapes::polar_ring(center, vertices);
    Shape::polygon(&points).unwrap()
}

fn shape(rng: &mut Rng, center: Point, size: f64) -> Shape {
    match rng.below(5) {
        0 => Shape::circle(center, size * rng.range(0.2, 1.0)).unwrap(),
        1 => concave(rng, center, size),
        _ => convex(rng, center, size),
    }
}

struct Case {
    a: Shape,
    b: Shape,
    motion: Motion,
    duration: f64,
    padding: f64,
}

fn random_case(rng: &mut Rng, translation_only: bool) -> Case {
    let offset = Point::new(rng.range(-0.3, 0.3), rng.range(-0.3, 0.3));
    let size = rng.range(0.2, 1.2);
    let a = shape(rng, offset, size);
    let target = Point::new(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0));
    let size = rng.range(0.05, 1.5);
    let b = shape(rng, target, size);
    let distance = rng.range(0.5, 5.0);
    let bearing = rng.range(0.0, TAU);
    let origin = target + Vector::new(bearing.cos(), bearing.sin()) * distance;
    let heading = rng.range(-PI, PI);
    let start = Isometry2::new(origin.coords, heading);
    let duration = rng.range(0.5, 4.0);
    // Toward the obstacle, give or take.
    let direction = bearing + PI + rng.range(-0.6, 0.6);
    let speed = rng.range(0.2, 3.0);
    let world = Vector::new(direction.cos(), direction.sin()) * speed;
    let angular = if translation_only || rng.below(3) == 0 {
        0.0
    } else if rng.chance(0.8) {
        rng.range(-2.0, 2.0)
    } else {
        rng.range(-6.0, 6.0)
    };
    let motion = if rng.chance(0.5) {
        Motion::Interpolated {
            start,
            velocity: world,
            angular,
        }
    } else {
        Motion::twist(&start, start.rotation.inverse() * world, angular)
    };
    let padding = if rng.chance(0.5) {
        0.0
    } else {
        rng.range(0.0, 0.2)
    };
    Case {
        a,
        b,
        motion,
        duration,
        padding,
    }
}

#[derive(Default)]
struct Stats {
    hits: usize,
    at_zero: usize,
    misses: usize,
    ours_only: usize,
    not_exact: usize,
    translation_max_diff: f64,
    translation_max_travel: f64,
    rotation_exact_max_gap: f64,
    rotation_max_gap: f64,
    rotation_gap_sum: f64,
    rotation_hits: usize,
    checks: usize,
    steps_max: u32,
    steps_sum: u64,
}

#[test]
fn time_of_impact_against_dense_sampling() {
    let mut rng = Rng::new(0x7013_2026);
    let mut stats = Stats::default();
    let tol = tol();
    for case_index in 0..CASES {
        let Case {
            a,
            b,
            motion,
            duration,
            padding,
        } = random_case(&mut rng, false);
        let ours = time_of_impact(&a, &motion, duration, &b, padding);
        let reference = reference(&a, &motion, duration, &b, padding);
        stats.checks += reference.checks;
        if case_index < FULLY_SAMPLED {
            // The skipping is only a shortcut: every sub-step evaluated
            // gives the same first contact.
            assert_eq!(
                every_substep(&a, &motion, duration, &b, padding),
                reference.first,
                "case {case_index}"
            );
        }
        let v_max = speed_bound(&a, &motion, padding);
        let time_tol = tol / v_max;
        let translation = parts(&motion).1 == 0.0;
        let context = || {
            format!(
                "case {case_index}: {motion:?} duration {duration} padding {padding}\n\
                 A {a:?}\nB {b:?}\nours {ours:?}\nreference {:?}",
                reference.first
            )
        };
        if let Some(hit) = ours {
            stats.steps_max = stats.steps_max.max(hit.steps);
            stats.steps_sum += hit.steps as u64;
            assert!(hit.time >= 0.0 && hit.time <= duration, "{}", context());
            if hit.exact {
                // Touching at the reported time (by the test's own pose),
                // with the motion's tolerance and its 1/8 of convergence.
                let gap = clearance(&a, &motion, hit.time, &b, padding);
                assert!(gap <= 1.25 * tol, "gap {gap}: {}", context());
                assert!(hit.contact.colliding(), "{}", context());
            } else {
                stats.not_exact += 1;
                let gap = clearance(&a, &motion, hit.time, &b, padding);
                println!("not exact (gap {gap:.3e}): {}", context());
                assert!(!translation, "translations converge: {}", context());
            }
        }
        match (reference.first, ours) {
            (Some(first), None) => panic!("missed contact at {first}: {}", context()),
            (Some(first), Some(hit)) => {
                stats.hits += 1;
                // Never later than the first contact.
                assert!(
                    hit.time <= first + 4.0 * time_tol,
                    "late by {}: {}",
                    hit.time - first,
                    context()
                );
                if first == 0.0 {
                    stats.at_zero += 1;
                    let start = query(&a.transformed(&motion_pose(&motion, 0.0)), &b, padding);
                    assert_eq!(hit.time, 0.0, "{}", context());
                    assert!((hit.contact.depth() - start.depth()).abs() <= tol);
                    assert!((hit.contact.mtv() - start.mtv()).norm() <= 1e-9 + tol);
                }
                let gap = first - hit.time;
                // Exact answers are the same contact within the tolerance:
                // touching at our time (asserted above, in clearance: a
                // time gap is a clearance gap divided by the approach rate,
                // which a grazing contact makes small), and never later.
                // As a time, the gap stays far below a micrometre of travel.
                if translation {
                    stats.translation_max_diff = stats.translation_max_diff.max(gap.abs());
                    stats.translation_max_travel =
                        stats.translation_max_travel.max(gap.abs() * v_max);
                    assert!(gap * v_max <= 1e-6, "early by {gap}: {}", context());
                } else {
                    stats.rotation_hits += 1;
                    stats.rotation_max_gap = stats.rotation_max_gap.max(gap);
                    stats.rotation_gap_sum += gap.max(0.0);
                    if hit.exact {
                        stats.rotation_exact_max_gap = stats.rotation_exact_max_gap.max(gap);
                        assert!(gap * v_max <= 1e-6, "early by {gap}: {}", context());
                    }
                }
            }
            (None, Some(hit)) => {
                // A contact between two sub-steps, or a conservative stop.
                stats.ours_only += 1;
                assert!(hit.exact || !translation, "{}", context());
            }
            (None, None) => stats.misses += 1,
        }
    }
    let ours_steps = stats.steps_sum as f64 / (stats.hits + stats.ours_only).max(1) as f64;
    println!(
        "{CASES} cases: {} contacts ({} at t = 0), {} none, {} found by ours only, {} not exact; \
         reference: {:.1} static checks per case",
        stats.hits,
        stats.at_zero,
        stats.misses,
        stats.ours_only,
        stats.not_exact,
        stats.checks as f64 / CASES as f64
    );
    println!(
        "translation: max |reference - ours| = {:.3e} s, {:.3e} m of travel (tol {:.1e} m)",
        stats.translation_max_diff, stats.translation_max_travel, tol
    );
    println!(
        "rotation: {} contacts, reference - ours: max {:.3e} s (exact ones: {:.3e} s), mean {:.3e} s; steps: mean {:.2}, max {}",
        stats.rotation_hits,
        stats.rotation_max_gap,
        stats.rotation_exact_max_gap,
        stats.rotation_gap_sum / stats.rotation_hits.max(1) as f64,
        ours_steps,
        stats.steps_max
    );
    assert!(stats.hits > CASES / 5 && stats.misses > CASES / 10);
    assert!(stats.rotation_hits > CASES / 10);
}

fn parry_shape(shape: &Shape) -> Option<Box<dyn ParryShape>> {
    match shape {
        Shape::Convex(p) => {
            let points = p
                .vertices()
                .iter()
                .map(|q| PVector::new(q.x, q.y))
                .collect();
            Some(Box::new(ParryPolygon::from_convex_polyline_unmodified(
                points,
            )?))
        }
        Shape::Circle(c) if c.center() == Point::origin() => {
            Some(Box::new(ParryBall::new(c.radius())))
        }
        _ => None,
    }
}

/// parry's `cast_shapes` on translations of convex polygons and balls
/// (centred on their frame, parry's balls being so), no padding. parry
/// stops its GJK-based ray cast on its own criterion: the agreement bound
/// is a position of 1e-6 m along the motion.
#[test]
fn translations_agree_with_parry() {
    const PARRY_BOUND: f64 = 1e-6;
    let mut rng = Rng::new(0x9a77);
    let (mut compared, mut hits, mut max_diff) = (0, 0, 0.0_f64);
    while compared < 20_000 {
        let Case {
            a,
            b,
            motion,
            duration,
            ..
        } = random_case(&mut rng, true);
        // Balls at the frame origin only (parry's), B at the origin of its
        // own frame too.
        let a = match a {
            Shape::Circle(c) => Shape::circle(Point::origin(), c.radius()).unwrap(),
            other => other,
        };
        let b_center = Point::from(b.aabb().min.coords * 0.5 + b.aabb().max.coords * 0.5);
        let b_local = b.transformed(&Isometry2::translation(-b_center.x, -b_center.y));
        let b_local = match b_local {
            Shape::Circle(c) => Shape::circle(Point::origin(), c.radius()).unwrap(),
            other => other,
        };
        let b = b_local.transformed(&Isometry2::translation(b_center.x, b_center.y));
        let (Some(pa), Some(pb)) = (parry_shape(&a), parry_shape(&b_local)) else {
            continue;
        };
        compared += 1;
        let start = *motion.start();
        let (v, _) = parts(&motion);
        let velocity = match motion {
            Motion::Interpolated { .. } => v,
            Motion::Twist { .. } => start.rotation * v,
        };
        let pos1 = Pose::new(
            PVector::new(start.translation.x, start.translation.y),
            start.rotation.angle(),
        );
        let pos2 = Pose::new(PVector::new(b_center.x, b_center.y), 0.0);
        let options = pq::ShapeCastOptions::with_max_time_of_impact(duration);
        let theirs = pq::cast_shapes(
            &pos1,
            PVector::new(velocity.x, velocity.y),
            pa.as_ref(),
            &pos2,
            PVector::ZERO,
            pb.as_ref(),
            options,
        )
        .unwrap();
        let ours = time_of_impact(&a, &motion, duration, &b, 0.0);
        let speed = velocity.norm();
        match (ours, theirs) {
            (Some(o), Some(t)) => {
                hits += 1;
                let diff = (o.time - t.time_of_impact).abs() * speed;
                max_diff = max_diff.max(diff);
                assert!(
                    diff <= PARRY_BOUND,
                    "{diff}: {motion:?} {a:?} {b:?} {o:?} {t:?}"
                );
            }
            (None, None) => {}
            (ours, theirs) => {
                // Only a contact within parry's own accuracy may differ:
                // the clearance at the end of the span, or a graze.
                let reference = reference(&a, &motion, duration, &b, 0.0);
                assert_eq!(
                    ours.is_some(),
                    reference.first.is_some(),
                    "ours {ours:?} parry {theirs:?}: {motion:?} {a:?} {b:?}"
                );
            }
        }
    }
    println!(
        "parry cast_shapes: {compared} translations, {hits} contacts, max |ours - parry| = {max_diff:.3e} m along the motion"
    );
}

#[test]
fn swept_box_holds_every_sampled_pose() {
    let mut rng = Rng::new(0x5eb7);
    // Worst overshoot per kind: translation, turning path segment, twist.
    let (mut worst, mut checked) = ([0.0_f64; 3], 0);
    for _ in 0..20_000 {
        let Case {
            a,
            motion,
            duration,
            padding,
            ..
        } = random_case(&mut rng, false);
        let bound = motion.swept_aabb(&a, padding, duration);
        let (mut lo, mut hi) = (
            Point::new(f64::MAX, f64::MAX),
            Point::new(f64::MIN, f64::MIN),
        );
        for k in 0..=200 {
            let placed = a.transformed(&motion_pose(&motion, duration * k as f64 / 200.0));
            let b = placed.aabb().inflated(padding);
            lo = lo.inf(&b.min);
            hi = hi.sup(&b.max);
            // A true bound (up to the test's own rounding of the pose).
            let eps = 1e-12;
            assert!(
                b.min.x >= bound.min.x - eps
                    && b.min.y >= bound.min.y - eps
                    && b.max.x <= bound.max.x + eps
                    && b.max.y <= bound.max.y + eps,
                "{motion:?} {duration} {a:?}: {b:?} outside {bound:?}"
            );
            checked += 1;
        }
        // Tightness: the box of the samples against the bound.
        let slack = (lo.x - bound.min.x)
            .max(lo.y - bound.min.y)
            .max(bound.max.x - hi.x)
            .max(bound.max.y - hi.y);
        let size = (hi - lo).amax().max(1e-9);
        let kind = match motion {
            _ if parts(&motion).1 == 0.0 => 0,
            Motion::Interpolated { .. } => 1,
            Motion::Twist { .. } => 2,
        };
        worst[kind] = worst[kind].max(slack / size);
    }
    println!(
        "swept box: {checked} sampled poses inside; worst side overshoot (of the box size): \
         translation {:.2e}, turning segment {:.3}, twist {:.3}",
        worst[0], worst[1], worst[2]
    );
    // Tight where exact (translation: the end boxes; twist: arcs, up to what
    // 200 samples miss of the extremes), reasonable
    // for a turning segment (box of the origin's segment plus the arcs').
    assert!(
        worst[0] < 1e-9 && worst[2] < 0.01 && worst[1] < 0.25,
        "{worst:?}"
    );
}

#[test]
fn no_allocation_in_steady_state() {
    let mut rng = Rng::new(0xa110c);
    for _ in 0..200 {
        let Case {
            a,
            b,
            motion,
            duration,
            padding,
        } = random_case(&mut rng, false);
        // Warm the per-thread buffers (a first call may grow them).
        let first = time_of_impact(&a, &motion, duration, &b, padding);
        let mut again = None;
        let calls = allocations_in(|| again = time_of_impact(&a, &motion, duration, &b, padding));
        assert_eq!(calls, 0, "{motion:?} {a:?} {b:?}");
        assert_eq!(first, again);
    }
}

#[test]
fn moving_no_allocation_in_steady_state() {
    // Two moving shapes (`moving_time_of_impact`): B's pieces are placed
    // into the same per-thread buffers.
    let mut rng = Rng::new(0xf1ee7a);
    let mut hits = 0;
    for _ in 0..200 {
        let case = random_case(&mut rng, false);
        let (a, b, ma) = (&case.a, &case.b, &case.motion);
        // B drifts and turns slowly about the origin, or only drifts.
        let mb = &Motion::Interpolated {
            start: Isometry2::identity(),
            velocity: Vector::new(rng.range(-0.3, 0.3), rng.range(-0.3, 0.3)),
            angular: if rng.chance(0.5) {
                rng.range(-0.05, 0.05)
            } else {
                0.0
            },
        };
        let (duration, padding) = (case.duration, case.padding);
        let warm = moving_time_of_impact(a, ma, b, mb, duration, padding);
        let mut again = None;
        let calls =
            allocations_in(|| again = moving_time_of_impact(a, ma, b, mb, duration, padding));
        assert_eq!(calls, 0, "{ma:?} {mb:?} {a:?} {b:?}");
        assert_eq!(warm, again);
        hits += warm.is_some() as usize;
    }
    assert!(hits > 10, "{hits} contacts");
}

/// Axis-aligned boxes moving along the axes or diagonals: parallel edges
/// everywhere (ties in the face walk, face-to-face contacts), against the
/// dense reference.
#[test]
fn axis_aligned_translations() {
    let mut rng = Rng::new(0xa11);
    let boxed = |c: Point, hx: f64, hy: f64| {
        Shape::polygon(&[
            Point::new(c.x - hx, c.y - hy),
            Point::new(c.x + hx, c.y - hy),
            Point::new(c.x + hx, c.y + hy),
            Point::new(c.x - hx, c.y + hy),
        ])
        .unwrap()
    };
    let (mut hits, mut closed_form) = (0, 0);
    for case in 0..5_000 {
        let quarter = |rng: &mut Rng| (rng.int(1, 8) as f64) * 0.125;
        let a = boxed(Point::origin(), quarter(&mut rng), quarter(&mut rng));
        let b = boxed(
            Point::new(rng.int(-8, 8) as f64 * 0.25, rng.int(-8, 8) as f64 * 0.25),
            quarter(&mut rng),
            quarter(&mut rng),
        );
        let start = Isometry2::new(
            Vector::new(rng.int(-8, 8) as f64 * 0.25, rng.int(-8, 8) as f64 * 0.25),
            if rng.chance(0.5) { 0.0 } else { FRAC_PI_2 },
        );
        let direction = [
            (1.0, 0.0),
            (0.0, 1.0),
            (-1.0, 0.0),
            (0.0, -1.0),
            (1.0, 1.0),
            (-1.0, 1.0),
        ][rng.below_usize(6)];
        let velocity = Vector::new(direction.0, direction.1) * rng.range(0.5, 2.0);
        let motion = Motion::Interpolated {
            start,
            velocity,
            angular: 0.0,
        };
        let padding = if rng.chance(0.3) { 0.05 } else { 0.0 };
        let ours = time_of_impact(&a, &motion, 2.0, &b, padding);
        let reference = reference(&a, &motion, 2.0, &b, padding).first;
        let v_max = speed_bound(&a, &motion, padding);
        match (ours, reference) {
            (Some(hit), Some(first)) => {
                hits += 1;
                closed_form += (hit.steps == 1) as usize;
                assert!(hit.exact);
                assert!(
                    hit.time <= first + 4.0 * tol() / v_max,
                    "case {case}: {hit:?} {first}"
                );
                assert!(
                    (first - hit.time) * v_max <= 1e-9,
                    "case {case}: {hit:?} {first}"
                );
                assert!(clearance(&a, &motion, hit.time, &b, padding) <= 1.25 * tol());
            }
            (None, None) => {}
            (Some(hit), None) => {
                // Touching between two sub-steps only.
                assert!(
                    clearance(&a, &motion, hit.time, &b, padding) <= 1.25 * tol(),
                    "case {case}"
                );
            }
            (None, Some(first)) => panic!("case {case}: missed the contact at {first}"),
        }
    }
    println!("axis-aligned: {hits} contacts, {closed_form} in closed form");
    assert!(hits > 1_000);
}
