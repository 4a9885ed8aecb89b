//! Points as obstacles: `geometry::point_contact`,
//! `geometry::point_time_of_impact` and the engine's `broadphase::PointSet`
//! against an independent reference written here.
//!
//! The reference never uses the library's pieces, cores or SAT: a
//! footprint is its outline (or a disc), a point is inside by the crossing
//! number (even–odd rule), its distance to the footprint is the smallest
//! distance to an outline segment (0 inside), and the padded footprint is
//! the set of points within `padding` of it. A translation's first contact
//! is the earliest entry of the point's ray (seen from the footprint) into
//! any segment's capsule of radius `padding` (two discs and the two sides
//! of the segment, the plain segment when `padding` is 0): the padded
//! polygon is the union of the polygon and of the capsules, and the polygon
//! cannot be entered without crossing a segment. A motion with rotation is
//! sampled finely.
//!
//! Tolerances (explicit): every coordinate is below 20 m, so the library's
//! tolerance is at most `length_tolerance(20) = 2e-11 m`; the reference
//! asserts a verdict only outside a band of `BAND = 1e-9 m` around the
//! padded boundary, except for points built on it (touching counts: those
//! must collide).

use crate::reference::motion_pose;
use nalgebra::Isometry2;
use sat_collision::broadphase::PointSet;
use sat_collision::geometry::{
    point_contact, point_escapes, point_time_of_impact, polygon_escapes, Aabb, Contact, Motion,
    Point, Shape, Vector,
};
use sat_collision_testkit::alloc::allocations_in;
use sat_collision_testkit::reference::inside_even_odd;
use sat_collision_testkit::shapes::{ellipse_ring, polar_ring, random_comb, random_star};
use sat_collision_testkit::SplitMix64 as Rng;
use std::f64::consts::{PI, TAU};

/// Width of the band around the padded boundary where the reference does
/// not judge a verdict (m).
const BAND: f64 = 1e-9;

/// A footprint as the reference sees it.
#[derive(Clone, Debug)]
enum Outline {
    Ring(Vec<Point>),
    Disc(Point, f64),
}

struct Footprint {
    shape: Shape,
    outline: Outline,
    convex: bool,
}

fn footprint_from_ring(ring: Vec<Point>) -> Option<Footprint> {
    let shape = Shape::polygon(&ring).ok()?;
    let convex = matches!(shape, Shape::Convex(_));
    // The reference keeps the input ring (validation may drop collinear or
    // merge near points, within the tolerance: far below BAND).
    Some(Footprint {
        shape,
        outline: Outline::Ring(ring),
        convex,
    })
}

/// A random footprint about `centre` of about `size` metres: convex
/// polygons (half), concave stars and combs, circles.
fn random_footprint(rng: &mut Rng, centre: Point, size: f64) -> Footprint {
    loop {
        let kind = rng.below(8);
        let candidate = match kind {
            0 | 1 => {
                let r = size * rng.range(0.2, 1.0);
                Some(Footprint {
                    shape: Shape::circle(centre, r).unwrap(),
                    outline: Outline::Disc(centre, r),
                    convex: true,
                })
            }
            2 => {
                let n = rng.int(4, 12) as usize;
                let ring: Vec<Point> = random_star(rng, n)
                    .iter()
                    .map(|p| centre + p.coords * size)
                    .collect();
                footprint_from_ring(ring)
            }
            3 => {
                let teeth = rng.int(1, 4) as usize;
                let scale = size / (teeth as f64 + 4.0);
                let ring: Vec<Point> = random_comb(rng, teeth)
                    .iter()
                    .map(|p| centre + p.coords * scale)
                    .collect();
                footprint_from_ring(ring)
            }
            4 => {
                // A star with sharp alternating radii: several pieces.
                let n = 2 * rng.int(3, 5) as usize;
                let phase = rng.range(0.0, TAU);
                let vertices = (0..n).map(|k| {
                    let a = phase + TAU * k as f64 / n as f64;
                    let r = match k % 2 {
                        0 => size * rng.range(0.7, 1.0),
                        _ => size * rng.range(0.25, 0.6),
                    };
                    (a, r)
                });
                footprint_from_ring(polar_ring(centre, vertices))
            }
            _ => {
                let n = rng.int(3, 10) as usize;
                let (rx, ry) = (size * rng.range(0.3, 1.0), size * rng.range(0.2, 1.0));
                let rotation = rng.range(0.0, TAU);
                let mut angles: Vec<f64> = (0..n).map(|_| rng.range(0.0, TAU)).collect();
                angles.sort_by(f64::total_cmp);
                footprint_from_ring(ellipse_ring(centre, rx, ry, rotation, angles))
            }
        };
        if let Some(footprint) = candidate {
            return footprint;
        }
    }
}

fn random_padding(rng: &mut Rng) -> f64 {
    match rng.below(3) {
        0 => 0.0,
        _ => rng.range(0.0, 0.5),
    }
}

// ---------------------------------------------------------------------------
// The reference.

/// Distance from `p` to the closed segment `ab`.
fn segment_distance(p: Point, a: Point, b: Point) -> f64 {
    let ab = b - a;
    let length_squared = ab.norm_squared();
    let t = if length_squared > 0.0 {
        ((p - a).dot(&ab) / length_squared).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p - (a + ab * t)).norm()
}

fn boundary_distance(outline: &Outline, p: Point) -> f64 {
    match outline {
        Outline::Ring(ring) => (0..ring.len())
            .map(|i| segment_distance(p, ring[i], ring[(i + 1) % ring.len()]))
            .fold(f64::INFINITY, f64::min),
        Outline::Disc(c, r) => ((p - c).norm() - r).abs(),
    }
}

fn inside(outline: &Outline, p: Point) -> bool {
    match outline {
        Outline::Ring(ring) => inside_even_odd(ring, p),
        Outline::Disc(c, r) => (p - c).norm() <= *r,
    }
}

/// Signed distance from the closed (unpadded) footprint: the distance
/// outside, minus the distance to the boundary inside.
fn signed_distance(outline: &Outline, p: Point) -> f64 {
    let d = boundary_distance(outline, p);
    if inside(outline, p) {
        -d
    } else {
        d
    }
}

fn placed(outline: &Outline, pose: &Isometry2<f64>) -> Outline {
    match outline {
        Outline::Ring(ring) => Outline::Ring(ring.iter().map(|p| pose * p).collect()),
        Outline::Disc(c, r) => Outline::Disc(pose * c, *r),
    }
}

// ---------------------------------------------------------------------------
// point_contact

/// Points to try against a footprint: spread around it, on the padded
/// boundary (touching), just outside it, deep inside.
fn probe_points(rng: &mut Rng, fp: &Footprint, padding: f64, count: usize) -> Vec<(Point, bool)> {
    let aabb = fp.shape.aabb().inflated(padding + 0.5);
    let mut points = Vec::with_capacity(count);
    while points.len() < count {
        let p = match rng.below(3) {
            0 => {
                // On the padded boundary: touching.
                if let Some(p) = on_padded_boundary(rng, &fp.outline, padding, 0.0) {
                    points.push((p, true));
                }
                continue;
            }
            1 => {
                let offset = rng.range(-0.3, 0.3);
                match on_padded_boundary(rng, &fp.outline, padding, offset) {
                    Some(p) => p,
                    None => continue,
                }
            }
            _ => Point::new(
                rng.range(aabb.min.x, aabb.max.x),
                rng.range(aabb.min.y, aabb.max.y),
            ),
        };
        points.push((p, false));
    }
    points
}

/// A point `offset` beyond the padded boundary, at a random place of it
/// (a negative offset: inside). Built from the outline: the outward normal
/// of a segment at a random place along it, or a direction at a vertex
/// inside its normal cone (convex vertices only; at a reflex vertex the
/// point lies inside, where the offset does not say where the boundary is).
fn on_padded_boundary(
    rng: &mut Rng,
    outline: &Outline,
    padding: f64,
    offset: f64,
) -> Option<Point> {
    match outline {
        Outline::Disc(c, r) => {
            let a = rng.range(0.0, TAU);
            Some(c + Vector::new(a.cos(), a.sin()) * (r + padding + offset).max(0.0))
        }
        Outline::Ring(ring) => {
            let n = ring.len();
            for _ in 0..64 {
                let i = rng.below_usize(n);
                let (a, b) = (ring[i], ring[(i + 1) % n]);
                let e = b - a;
                // Counter-clockwise ring: the outward normal is on the right.
                let normal = Vector::new(e.y, -e.x) / e.norm();
                let p = if rng.chance(0.7) || padding == 0.0 {
                    a + e * rng.range(0.0, 1.0) + normal * (padding + offset)
                } else {
                    let prev = ring[(i + n - 1) % n];
                    let ep = a - prev;
                    let np = Vector::new(ep.y, -ep.x) / ep.norm();
                    if np.perp(&normal) < 0.0 {
                        continue; // A reflex vertex.
                    }
                    let t = rng.unit();
                    let u = (np * (1.0 - t) + normal * t).normalize();
                    a + u * (padding + offset)
                };
                // Keep it only if its nearest feature is the one it was built
                // from (elsewhere the outline may be closer).
                let expected = padding + offset;
                let got = signed_distance(outline, p);
                if (got - expected).abs() <= 1e-12 * 8.0 {
                    return Some(p);
                }
            }
            None // Too thin for that offset here: the caller draws another.
        }
    }
}

fn check_contact(fp: &Footprint, padding: f64, p: Point, touching: bool, what: &str) {
    let contact = point_contact(&fp.shape, p, padding);
    let signed = signed_distance(&fp.outline, p);
    let clearance = signed - padding;
    if touching {
        assert!(
            contact.colliding(),
            "{what}: touching {p:?} not colliding: {contact:?}"
        );
        assert!(
            contact.depth() <= BAND,
            "{what}: touching depth {contact:?}"
        );
    }
    match contact {
        Contact::Colliding { depth, axis } => {
            assert!(
                clearance <= BAND,
                "{what}: {p:?} colliding but the reference clearance is {clearance}"
            );
            assert!(
                depth >= 0.0 && (axis.norm() - 1.0).abs() < 1e-9,
                "{what}: {contact:?}"
            );
            let true_depth = -clearance;
            if fp.convex {
                assert!(
                    (depth - true_depth.max(0.0)).abs() <= BAND,
                    "{what}: depth {depth} against {true_depth} at {p:?}"
                );
                if depth > 1e-6 {
                    // The MTV moves the footprint off the point: the point
                    // lands on the padded boundary.
                    let moved = p + axis * depth;
                    let landed = signed_distance(&fp.outline, moved) - padding;
                    assert!(landed.abs() <= 1e-8, "{what}: MTV leaves {landed} at {p:?}");
                }
            } else {
                // A union's depth is the deepest piece's: a lower bound.
                assert!(
                    depth <= true_depth.max(0.0) + BAND,
                    "{what}: depth {depth} > {true_depth}"
                );
            }
        }
        Contact::Apart {
            distance,
            axis,
            closest,
        } => {
            assert!(
                clearance >= -BAND,
                "{what}: {p:?} apart but the reference says inside by {clearance}"
            );
            assert!(
                (distance - clearance).abs() <= BAND,
                "{what}: clearance {distance} against {clearance} at {p:?}"
            );
            let (on_fp, on_point) = closest.expect("apart with closest points");
            assert_eq!(on_point, p, "{what}");
            assert!(
                ((on_point - on_fp).norm() - distance).abs() <= BAND,
                "{what}"
            );
            assert!(
                (signed_distance(&fp.outline, on_fp) - padding).abs() <= BAND,
                "{what}"
            );
            if distance > 1e-6 {
                assert!(
                    ((p - on_fp).normalize() - axis).norm() <= 1e-6,
                    "{what}: axis {axis:?}"
                );
            }
        }
    }
}

fn contact_cases(seed: u64, cases: usize) {
    let mut rng = Rng::new(seed);
    let mut touching_points = 0;
    for case in 0..cases {
        let centre = Point::new(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0));
        let size = rng.range(0.2, 2.0);
        let fp = random_footprint(&mut rng, centre, size);
        let padding = random_padding(&mut rng);
        for (k, (p, touching)) in probe_points(&mut rng, &fp, padding, 24)
            .into_iter()
            .enumerate()
        {
            let what = format!("seed {seed} case {case} point {k}");
            check_contact(&fp, padding, p, touching, &what);
            touching_points += usize::from(touching);
        }
    }
    // Touching points were built in every case (about a third of them).
    assert!(
        touching_points > 5 * cases,
        "{touching_points} touching points"
    );
}

#[test]
fn point_contact_matches_reference_seed_1() {
    contact_cases(1, 5_000);
}

#[test]
fn point_contact_matches_reference_seed_2() {
    contact_cases(2, 5_000);
}

#[test]
fn point_contact_far_from_the_origin() {
    // Same answers 1e4 m away (the tolerance scales with the coordinates).
    let mut rng = Rng::new(3);
    for case in 0..500 {
        let centre = Point::new(1e4 + rng.range(-5.0, 5.0), -1e4 + rng.range(-5.0, 5.0));
        let size = rng.range(0.2, 2.0);
        let fp = random_footprint(&mut rng, centre, size);
        let padding = random_padding(&mut rng);
        for (p, touching) in probe_points(&mut rng, &fp, padding, 8) {
            let contact = point_contact(&fp.shape, p, padding);
            let clearance = signed_distance(&fp.outline, p) - padding;
            if touching {
                assert!(contact.colliding(), "case {case}: {p:?}");
            } else if clearance > 1e-6 {
                assert!(!contact.colliding(), "case {case}");
                assert!(
                    (contact.distance() - clearance).abs() <= 1e-6,
                    "case {case}"
                );
            } else if clearance < -1e-6 {
                assert!(contact.colliding(), "case {case}");
            }
        }
    }
}

#[test]
fn non_finite_points_never_panic_and_fail_safe() {
    let fp = Shape::polygon(&[
        Point::new(-1.0, -1.0),
        Point::new(1.0, -1.0),
        Point::new(1.0, 1.0),
        Point::new(-1.0, 1.0),
    ])
    .unwrap();
    let motion = Motion::twist(&Isometry2::identity(), Vector::new(1.0, 0.0), 0.0);
    for p in [
        Point::new(f64::NAN, 0.0),
        Point::new(0.0, f64::INFINITY),
        Point::new(f64::NEG_INFINITY, f64::NAN),
    ] {
        assert!(point_contact(&fp, p, 0.1).colliding());
        let impact = point_time_of_impact(&fp, &motion, p, 2.0, 0.1).expect("fail safe");
        assert_eq!(impact.time, 0.0);
        assert!(!impact.exact);
        let mut set = PointSet::new();
        assert!(!set.push(p));
        assert!(set.is_empty() && set.aabb().is_none());
    }
    // Unusable motions and durations: stop now, not exact.
    let p = Point::new(5.0, 0.0);
    let bad = Motion::twist(&Isometry2::identity(), Vector::new(f64::NAN, 0.0), 0.0);
    let impact = point_time_of_impact(&fp, &bad, p, 2.0, 0.1).expect("fail safe");
    assert!(impact.time == 0.0 && !impact.exact);
    let impact = point_time_of_impact(&fp, &motion, p, f64::INFINITY, 0.1).expect("fail safe");
    assert!(impact.time == 0.0 && !impact.exact);
    // NaN padding is none.
    assert_eq!(
        point_contact(&fp, Point::new(1.0, 0.5), f64::NAN).depth(),
        0.0
    );
    let mut set = PointSet::new();
    assert!(set.push(p));
    assert!(!set.push(Point::new(2e150, 0.0)));
    let (i, impact) = set.first_impact(&fp, &bad, 2.0, 0.1).expect("fail safe");
    assert!(i == 0 && impact.time == 0.0 && !impact.exact);
}

// ---------------------------------------------------------------------------
// point_time_of_impact

/// The origin's velocity (fixed frame) of a translation.
fn world_velocity(motion: &Motion) -> Vector {
    match *motion {
        Motion::Interpolated { velocity, .. } => velocity,
        Motion::Twist {
            start, velocity, ..
        } => start.rotation * velocity,
    }
}

/// First `t >= 0` at which `origin + t·d` is within `r` of `c` (a ray
/// entering a disc), by the quadratic's smaller root.
fn ray_disc(origin: Point, d: Vector, c: Point, r: f64) -> Option<f64> {
    let f = origin - c;
    let (a, b, k) = (d.dot(&d), 2.0 * f.dot(&d), f.dot(&f) - r * r);
    if k <= 0.0 {
        return Some(0.0);
    }
    let disc = b * b - 4.0 * a * k;
    if a == 0.0 || disc < 0.0 {
        return None;
    }
    let t = (-b - disc.sqrt()) / (2.0 * a);
    (t >= 0.0).then_some(t)
}

/// First `t >= 0` at which `origin + t·d` crosses the segment `ab`
/// (Cramer's rule on `origin + t·d = a + s·(b − a)`, `s` in `[0, 1]`).
fn ray_segment(origin: Point, d: Vector, a: Point, b: Point) -> Option<f64> {
    let e = b - a;
    let det = d.x * (-e.y) - d.y * (-e.x);
    if det == 0.0 {
        return None;
    }
    let w = a - origin;
    let t = (w.x * (-e.y) - w.y * (-e.x)) / det;
    let s = (d.x * w.y - d.y * w.x) / det;
    (t >= 0.0 && (0.0..=1.0).contains(&s)).then_some(t)
}

/// The reference first contact of a translation: the point's ray, seen
/// from the footprint at its start, entering the footprint grown by `r`.
fn ray_reference(outline: &Outline, origin: Point, d: Vector, r: f64) -> Option<f64> {
    let r = r.max(0.0);
    if signed_distance(outline, origin) <= r {
        return Some(0.0);
    }
    let min = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) => x,
        (None, y) => y,
    };
    match outline {
        Outline::Disc(c, radius) => ray_disc(origin, d, *c, radius + r),
        Outline::Ring(ring) => {
            let mut best = None;
            for i in 0..ring.len() {
                let (a, b) = (ring[i], ring[(i + 1) % ring.len()]);
                let e = b - a;
                let normal = Vector::new(e.y, -e.x) / e.norm();
                if r > 0.0 {
                    best = min(best, ray_disc(origin, d, a, r));
                }
                for side in [normal * r, -normal * r] {
                    best = min(best, ray_segment(origin, d, a + side, b + side));
                }
            }
            best
        }
    }
}

fn random_motion(rng: &mut Rng, start: Isometry2<f64>, toward: Vector, rotation: bool) -> Motion {
    let speed = rng.range(0.1, 2.0);
    let direction = toward.y.atan2(toward.x) + rng.range(-0.5, 0.5);
    let world = Vector::new(direction.cos(), direction.sin()) * speed;
    let angular = match rotation {
        true => rng.range(-2.0, 2.0),
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

struct TimeCase {
    fp: Footprint,
    motion: Motion,
    point: Point,
    duration: f64,
    padding: f64,
}

fn time_case(rng: &mut Rng, rotation: bool) -> TimeCase {
    let offset = Point::new(rng.range(-0.3, 0.3), rng.range(-0.3, 0.3));
    let size = rng.range(0.2, 1.2);
    let fp = random_footprint(rng, offset, size);
    let padding = random_padding(rng);
    let origin = Point::new(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0));
    let start = Isometry2::new(origin.coords, rng.range(-PI, PI));
    let point = origin + Vector::new(rng.range(-4.0, 4.0), rng.range(-4.0, 4.0));
    let motion = random_motion(rng, start, point - origin, rotation);
    TimeCase {
        fp,
        motion,
        point,
        duration: rng.range(0.5, 4.0),
        padding,
    }
}

#[test]
fn translation_time_of_impact_matches_the_ray() {
    let mut rng = Rng::new(11);
    let (mut hits, mut tight) = (0, 0);
    for case in 0..20_000 {
        let c = time_case(&mut rng, false);
        let got = point_time_of_impact(&c.fp.shape, &c.motion, c.point, c.duration, c.padding);
        let start = c.motion.start();
        let world = placed(&c.fp.outline, start);
        let d = -world_velocity(&c.motion);
        // The contact lies between the entries into the footprint grown by
        // padding ± BAND; beyond the span: none.
        let within = |t: Option<f64>| t.filter(|&t| t <= c.duration);
        let early = within(ray_reference(&world, c.point, d, c.padding + BAND));
        let late = within(ray_reference(&world, c.point, d, c.padding - BAND));
        let what = format!("case {case}: {got:?}, reference {early:?}..{late:?}");
        match got {
            Some(impact) => {
                hits += 1;
                assert!(impact.exact, "{what}");
                let early = early.unwrap_or_else(|| panic!("{what}"));
                assert!(impact.time >= early - 1e-12, "{what}: early");
                if let Some(late) = late {
                    assert!(impact.time <= late + 1e-12, "{what}: late");
                    if late - early < 1e-6 {
                        tight += 1;
                    }
                }
                if impact.time > 0.0 {
                    assert_eq!(impact.contact.depth(), 0.0, "{what}");
                    // Touching at the reported time, from the reference.
                    let there = placed(&c.fp.outline, &motion_pose(&c.motion, impact.time));
                    let clearance = signed_distance(&there, c.point) - c.padding;
                    assert!(clearance.abs() <= 1e-8, "{what}: clearance {clearance}");
                } else {
                    // Already touching: `query`'s contact at the start (a
                    // gap within the motion's tolerance reads as touching).
                    let at_start =
                        point_contact(&c.fp.shape.transformed(start), c.point, c.padding);
                    match at_start.colliding() {
                        true => assert_eq!(impact.contact, at_start, "{what}"),
                        false => assert_eq!(impact.contact.depth(), 0.0, "{what}"),
                    }
                    assert!(impact.contact.colliding(), "{what}");
                }
            }
            None => assert!(late.is_none(), "{what}: missed"),
        }
    }
    assert!(
        hits > 3_000 && tight * 10 > hits * 9,
        "{hits} hits, {tight} tight"
    );
}

/// The first sample (of `samples` over the span) at which the point is
/// inside the padded footprint by more than the band.
fn first_sampled(c: &TimeCase, samples: usize) -> Option<f64> {
    (0..=samples)
        .map(|k| c.duration * k as f64 / samples as f64)
        .find(|&t| {
            let there = placed(&c.fp.outline, &motion_pose(&c.motion, t));
            signed_distance(&there, c.point) - c.padding <= -BAND
        })
}

#[test]
fn rotating_time_of_impact_is_never_late() {
    let mut rng = Rng::new(12);
    let (mut hits, mut exact) = (0, 0);
    for case in 0..3_000 {
        let c = time_case(&mut rng, true);
        let got = point_time_of_impact(&c.fp.shape, &c.motion, c.point, c.duration, c.padding);
        let sampled = first_sampled(&c, 4_000);
        let what = format!("case {case}: {got:?}, sampled {sampled:?}");
        match got {
            Some(impact) => {
                hits += 1;
                if let Some(t) = sampled {
                    assert!(impact.time <= t + 1e-12, "{what}: late");
                }
                if impact.exact {
                    exact += 1;
                    let there = placed(&c.fp.outline, &motion_pose(&c.motion, impact.time));
                    let clearance = signed_distance(&there, c.point) - c.padding;
                    match impact.time > 0.0 {
                        true => assert!(clearance.abs() <= 1e-8, "{what}: clearance {clearance}"),
                        false => assert!(clearance <= 1e-8, "{what}: clearance {clearance}"),
                    }
                }
            }
            None => assert!(sampled.is_none(), "{what}: missed"),
        }
    }
    assert!(
        hits > 300 && exact * 100 >= hits * 99,
        "{hits} hits, {exact} exact"
    );
}

// ---------------------------------------------------------------------------
// The engine: PointSet

/// A cloud around the footprint: uniform, some on the padded boundary,
/// some just outside, and repeats.
fn random_set(rng: &mut Rng, fp: &Footprint, padding: f64, n: usize) -> (PointSet, Vec<Point>) {
    let mut set = PointSet::with_capacity(n);
    let mut points = Vec::with_capacity(n);
    let spread = fp.shape.aabb().inflated(padding + 2.0);
    while points.len() < n {
        let p = match rng.below(6) {
            0 => match on_padded_boundary(rng, &fp.outline, padding, 0.0) {
                Some(p) => p,
                None => continue,
            },
            1 => {
                let offset = rng.range(-0.05, 0.3);
                match on_padded_boundary(rng, &fp.outline, padding, offset) {
                    Some(p) => p,
                    None => continue,
                }
            }
            2 if !points.is_empty() => points[rng.below_usize(points.len())],
            _ => Point::new(
                rng.range(spread.min.x, spread.max.x),
                rng.range(spread.min.y, spread.max.y),
            ),
        };
        assert!(set.push(p));
        points.push(p);
    }
    (set, points)
}

#[test]
fn point_set_queries_match_reference() {
    let mut rng = Rng::new(21);
    for case in 0..400 {
        let centre = Point::new(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0));
        let size = rng.range(0.2, 2.0);
        let fp = random_footprint(&mut rng, centre, size);
        let padding = random_padding(&mut rng);
        let n = rng.int(0, 400) as usize;
        let (set, points) = random_set(&mut rng, &fp, padding, n);
        let what = format!("case {case}");
        assert_eq!(set.len(), n);
        let clearances: Vec<f64> = points
            .iter()
            .map(|&p| signed_distance(&fp.outline, p) - padding)
            .collect();
        // The verdicts: sure inside, sure outside, the band in between.
        let sure_in = clearances.iter().filter(|&&c| c <= -BAND).count();
        let maybe_in = clearances.iter().filter(|&&c| c <= BAND).count();
        let count = set.count_inside(&fp.shape, padding, usize::MAX);
        assert!(
            sure_in <= count && count <= maybe_in,
            "{what}: {count} not in {sure_in}..={maybe_in}"
        );
        let mut inside = Vec::new();
        set.inside(&fp.shape, padding, &mut inside);
        assert_eq!(inside.len(), count, "{what}");
        assert!(inside.windows(2).all(|w| w[0] < w[1]), "{what}");
        for (i, &c) in clearances.iter().enumerate() {
            let listed = inside.binary_search(&i).is_ok();
            assert!(
                c > BAND || listed || c > -BAND,
                "{what}: point {i} inside by {c}, not listed"
            );
            assert!(c <= BAND || !listed, "{what}: point {i} {c} away, listed");
        }
        for enough in [0, 1, 2, 5] {
            assert_eq!(
                set.count_inside(&fp.shape, padding, enough),
                count.min(enough),
                "{what}"
            );
        }
        let report = set.report(&fp.shape, padding);
        assert_eq!(report.inside, count, "{what}");
        match n {
            0 => assert!(
                report.nearest.is_none() && report.deepest.is_none(),
                "{what}"
            ),
            _ => {
                let (i, nearest) = report.nearest.expect("nearest");
                let least = clearances.iter().copied().fold(f64::INFINITY, f64::min);
                if count == 0 {
                    assert!(!nearest.colliding(), "{what}");
                    assert!((nearest.distance() - least).abs() <= BAND, "{what}");
                    assert!((clearances[i] - least).abs() <= BAND, "{what}");
                    assert!(report.deepest.is_none(), "{what}");
                } else {
                    let (j, deepest) = report.deepest.expect("deepest");
                    assert_eq!((i, nearest), (j, deepest), "{what}");
                    assert!(deepest.colliding(), "{what}");
                    assert!(inside.binary_search(&j).is_ok(), "{what}");
                    if fp.convex {
                        assert!(
                            (deepest.depth() - (-least).max(0.0)).abs() <= BAND,
                            "{what}"
                        );
                    }
                    // No point inside is deeper (by the library's own depth).
                    for &k in &inside {
                        let depth = point_contact(&fp.shape, points[k], padding).depth();
                        assert!(depth <= deepest.depth(), "{what}");
                        assert!(
                            depth < deepest.depth() || k >= j,
                            "{what}: tie to the first"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn point_set_first_impact_is_the_earliest() {
    let mut rng = Rng::new(22);
    for case in 0..300 {
        let rotation = case % 2 == 1;
        let c = time_case(&mut rng, rotation);
        let mut set = PointSet::new();
        let mut points = Vec::new();
        for _ in 0..rng.int(1, 60) {
            let p = c.point + Vector::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0));
            set.push(p);
            points.push(p);
        }
        let what = format!("case {case}");
        let got = set.first_impact(&c.fp.shape, &c.motion, c.duration, c.padding);
        // Each point on its own: the earliest, the first on a tie.
        let each: Vec<Option<f64>> = points
            .iter()
            .map(|&p| {
                point_time_of_impact(&c.fp.shape, &c.motion, p, c.duration, c.padding)
                    .map(|i| i.time)
            })
            .collect();
        // (Each point's time may differ in its last digits from the set's,
        // whose searches end at the earliest time found so far: the
        // tolerance follows the span.)
        let best = each.iter().flatten().copied().fold(f64::INFINITY, f64::min);
        match got {
            None => assert_eq!(best, f64::INFINITY, "{what}"),
            Some((i, impact)) => {
                assert!(
                    (impact.time - best).abs() <= 1e-9,
                    "{what}: {impact:?}, {best}"
                );
                let own = each[i].unwrap_or_else(|| panic!("{what}"));
                assert!((own - best).abs() <= 1e-9, "{what}");
                // The first of the earliest, unless times tie within rounding.
                for (j, t) in each.iter().enumerate().take(i) {
                    assert!(t.is_none_or(|t| t > best - 1e-9), "{what}: {j} earlier");
                    assert!(t.is_none_or(|t| t >= best + 1e-9 || (t - best).abs() < 1e-9));
                }
            }
        }
        // Against the reference: never late for any point.
        for &p in &points {
            let one = TimeCase {
                fp: Footprint {
                    shape: c.fp.shape.clone(),
                    outline: c.fp.outline.clone(),
                    convex: c.fp.convex,
                },
                motion: c.motion,
                point: p,
                duration: c.duration,
                padding: c.padding,
            };
            if let Some(t) = first_sampled(&one, 1_000) {
                let (_, impact) = got.unwrap_or_else(|| panic!("{what}: missed {p:?}"));
                assert!(impact.time <= t + 1e-12, "{what}: late");
            }
        }
    }
}

#[test]
fn near_points_answer_every_pose_and_segment() {
    let mut rng = Rng::new(23);
    for case in 0..200 {
        let c = time_case(&mut rng, case % 2 == 1);
        let mut set = PointSet::new();
        for _ in 0..rng.int(0, 80) {
            set.push(c.point + Vector::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0)));
        }
        let swept = c.motion.swept_aabb(&c.fp.shape, c.padding, c.duration);
        let region = swept.inflated(rng.range(0.0, 1.0));
        let mut near = set.near(&region);
        let what = format!("case {case}");
        for k in 0..5 {
            let t = c.duration * k as f64 / 4.0;
            let placed = c.fp.shape.transformed(&c.motion.pose_at(t));
            let nearest = near.nearest(&placed, c.padding);
            let report = set.report(&placed, c.padding);
            match report.nearest {
                None => assert!(nearest.index.is_none() && nearest.distance == f64::INFINITY),
                Some((i, contact)) => {
                    assert_eq!(nearest.colliding, contact.colliding(), "{what}");
                    assert_eq!(nearest.distance, contact.distance(), "{what}");
                    if !contact.colliding() {
                        assert_eq!(nearest.index, Some(i), "{what}");
                    } else {
                        let j = nearest.index.expect("colliding point");
                        assert!(point_contact(&placed, set.point(j), c.padding).colliding());
                    }
                }
            }
        }
        for swept_given in [None, Some(&swept)] {
            let got = near.first_impact(&c.fp.shape, &c.motion, c.duration, c.padding, swept_given);
            let all = set.first_impact(&c.fp.shape, &c.motion, c.duration, c.padding);
            match (got, all) {
                (None, None) => {}
                (Some((i, a)), Some((j, b))) => {
                    assert!((a.time - b.time).abs() <= 1e-9, "{what}: {a:?} {b:?}");
                    let p = |k: usize| {
                        point_time_of_impact(
                            &c.fp.shape,
                            &c.motion,
                            set.point(k),
                            c.duration,
                            c.padding,
                        )
                        .map(|hit| hit.time)
                    };
                    if i != j {
                        let (ti, tj) = (p(i).expect("hit"), p(j).expect("hit"));
                        assert!((ti - tj).abs() <= 1e-9, "{what}: {i} {j}");
                    }
                }
                _ => panic!("{what}: {got:?} against {all:?}"),
            }
        }
    }
}

#[test]
fn point_set_keeps_its_box_and_refuses_unusable_points() {
    let mut set = PointSet::with_capacity(4);
    assert!(set.aabb().is_none());
    assert!(set.push(Point::new(1.0, -2.0)));
    assert!(set.push(Point::new(-3.0, 4.0)));
    assert!(!set.push(Point::new(f64::NAN, 0.0)));
    assert!(!set.push(Point::new(0.0, -1e151)));
    assert_eq!(set.len(), 2);
    assert_eq!(set.point(1), Point::new(-3.0, 4.0));
    assert_eq!(
        set.aabb(),
        Some(Aabb {
            min: Point::new(-3.0, -2.0),
            max: Point::new(1.0, 4.0),
        })
    );
    set.clear();
    assert!(set.is_empty() && set.aabb().is_none());
    let fp = Shape::circle(Point::origin(), 0.5).unwrap();
    assert_eq!(set.count_inside(&fp, 0.1, 1), 0);
    assert!(set.report(&fp, 0.1).nearest.is_none());
}

#[test]
fn point_set_queries_allocate_nothing() {
    let mut rng = Rng::new(24);
    let fp = random_footprint(&mut rng, Point::origin(), 0.6);
    let (set, _) = random_set(&mut rng, &fp, 0.1, 2_000);
    let motions = [
        Motion::twist(&Isometry2::identity(), Vector::new(0.8, 0.1), 0.0),
        Motion::twist(&Isometry2::identity(), Vector::new(0.5, 0.0), 0.7),
    ];
    let mut out = Vec::with_capacity(set.len());
    // Warm the per-thread buffers of the time of impact.
    for motion in &motions {
        set.first_impact(&fp.shape, motion, 2.0, 0.1);
        polygon_escapes(&fp.shape, motion, &fp.shape, 2.0);
    }
    let calls = allocations_in(|| {
        std::hint::black_box(set.count_inside(&fp.shape, 0.1, 1));
        std::hint::black_box(set.count_inside(&fp.shape, 0.1, usize::MAX));
        std::hint::black_box(set.report(&fp.shape, 0.1));
        set.inside(&fp.shape, 0.1, &mut out);
        for motion in &motions {
            std::hint::black_box(set.first_impact(&fp.shape, motion, 2.0, 0.1));
            std::hint::black_box(set.escapes(&fp.shape, motion, 2.0));
            std::hint::black_box(point_escapes(&fp.shape, motion, set.point(0), 2.0));
            std::hint::black_box(polygon_escapes(&fp.shape, motion, &fp.shape, 2.0));
        }
    });
    assert_eq!(calls, 0);
    // The k-th contact keeps one buffer of k times.
    for motion in &motions {
        let calls = allocations_in(|| {
            std::hint::black_box(set.kth_impact(&fp.shape, motion, 2.0, 0.1, 5));
        });
        assert!(calls <= 1, "{calls} allocations");
    }
}
