//! The velocity gate's queries along a motion against references written
//! here: `PointSet::kth_impact` (the time by which `k` points are touched),
//! `geometry::point_escapes`, `geometry::polygon_escapes` and
//! `PointSet::escapes` (a motion that takes nothing deeper into a zone).
//!
//! The reference never uses the library's cores, axes or times of impact
//! (except where it is the definition: `kth_impact` is the `k`-th of the
//! points' `point_time_of_impact`): poses are computed here (a twist with
//! `ω != 0` is a rotation about its fixed centre), a zone is its outline
//! placed at that pose, a point is inside by the crossing number, its depth
//! is its distance to the outline (0 outside), and the depth of two convex
//! polygons is the least overlap of their projections on the edge normals
//! of both (discs: distances between centres and to the outline). Motions
//! are sampled densely.
//!
//! Tolerances (explicit): coordinates stay below 10 m, so every tolerance
//! of the library is at most `length_tolerance(20) = 2e-11 m`; a sampled
//! depth may exceed its start value by `SLACK = 1e-9 m`, and a point counts
//! as inside for the "k points at once" reference only when `BAND = 1e-9`
//! deep.

use crate::reference::{boundary_distance, motion_pose, point_segment_distance};
use nalgebra::Isometry2;
use proptest::prelude::*;
use sat_collision::broadphase::PointSet;
use sat_collision::geometry::{
    point_escapes, point_time_of_impact, polygon_escapes, Motion, Point, Shape, Vector,
};
use sat_collision_testkit::reference::inside_even_odd;
use sat_collision_testkit::shapes::{ellipse_ring, polar_ring};
use std::f64::consts::{PI, TAU};

/// How much deeper a sampled depth may be than at `t = 0` (m).
const SLACK: f64 = 1e-9;
/// How deep a point must be to count as inside for the sampled reference.
const BAND: f64 = 1e-9;
/// Samples of a motion.
const SAMPLES: usize = 2_000;

// ---------------------------------------------------------------------------
// The reference.

/// A shape as the reference sees it.
#[derive(Clone, Debug)]
enum Outline {
    Ring(Vec<Point>),
    Disc(Point, f64),
}

#[derive(Clone, Debug)]
struct Zone {
    shape: Shape,
    outline: Outline,
}

fn times(duration: f64, samples: usize) -> impl Iterator<Item = f64> {
    (0..=samples).map(move |k| duration * k as f64 / samples as f64)
}

/// Signed distance from the outline (body frame) to `q`: minus the depth
/// inside.
fn signed_distance(outline: &Outline, q: Point) -> f64 {
    match outline {
        Outline::Ring(ring) => match inside_even_odd(ring, q) {
            true => -boundary_distance(q, ring),
            false => boundary_distance(q, ring),
        },
        Outline::Disc(c, r) => (q - c).norm() - r,
    }
}

/// Depth of the fixed point `p` in the zone at `pose`.
fn point_depth(outline: &Outline, pose: &Isometry2<f64>, p: Point) -> f64 {
    (-signed_distance(outline, pose.inverse_transform_point(&p))).max(0.0)
}

fn outward_normal(a: Point, b: Point) -> Vector {
    let e = b - a;
    Vector::new(e.y, -e.x) / e.norm()
}

fn projection(ring: &[Point], n: &Vector) -> (f64, f64) {
    ring.iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            (lo.min(p.coords.dot(n)), hi.max(p.coords.dot(n)))
        })
}

/// Penetration depth of two convex shapes (fixed frame): the least overlap
/// of the projections over the edge normals of both polygons; discs by
/// their distances.
fn sat_depth(a: &Outline, b: &Outline) -> f64 {
    let depth = match (a, b) {
        (Outline::Ring(a), Outline::Ring(b)) => {
            let mut least = f64::INFINITY;
            for ring in [a, b] {
                for i in 0..ring.len() {
                    let n = outward_normal(ring[i], ring[(i + 1) % ring.len()]);
                    let ((a0, a1), (b0, b1)) = (projection(a, &n), projection(b, &n));
                    least = least.min((a1 - b0).min(b1 - a0));
                }
            }
            least
        }
        (Outline::Ring(ring), Outline::Disc(c, r)) | (Outline::Disc(c, r), Outline::Ring(ring)) => {
            r - signed_distance(&Outline::Ring(ring.clone()), *c)
        }
        (Outline::Disc(c, r), Outline::Disc(d, s)) => r + s - (c - d).norm(),
    };
    depth.max(0.0)
}

fn placed(outline: &Outline, pose: &Isometry2<f64>) -> Outline {
    match outline {
        Outline::Ring(ring) => Outline::Ring(ring.iter().map(|p| pose * p).collect()),
        Outline::Disc(c, r) => Outline::Disc(pose * c, *r),
    }
}

/// The deepest a fixed point gets beyond its start depth over the motion.
fn point_excess(zone: &Zone, motion: &Motion, p: Point, duration: f64) -> f64 {
    let start = point_depth(&zone.outline, &motion_pose(motion, 0.0), p);
    times(duration, SAMPLES)
        .map(|t| point_depth(&zone.outline, &motion_pose(motion, t), p) - start)
        .fold(f64::NEG_INFINITY, f64::max)
}

// ---------------------------------------------------------------------------
// The draws.

/// A convex zone about the body origin (from `testkit::shapes`), or a
/// disc.
fn convex_zone() -> impl Strategy<Value = Zone> {
    (
        prop::collection::vec(0.0..TAU, 3..9),
        (0.3..1.5f64, 0.2..1.2f64, 0.0..TAU),
        (-0.4..0.4f64, -0.4..0.4f64),
        0u8..5,
    )
        .prop_filter_map(
            "a valid convex zone",
            |(mut angles, (rx, ry, rotation), (cx, cy), kind)| {
                let centre = Point::new(cx, cy);
                if kind == 0 {
                    return Some(Zone {
                        shape: Shape::circle(centre, rx).ok()?,
                        outline: Outline::Disc(centre, rx),
                    });
                }
                angles.sort_by(f64::total_cmp);
                let ring = ellipse_ring(centre, rx, ry, rotation, angles);
                let shape = Shape::polygon(&ring).ok()?;
                matches!(shape, Shape::Convex(_)).then_some(Zone {
                    shape,
                    outline: Outline::Ring(ring),
                })
            },
        )
}

/// A convex zone, a disc, or a concave star (for the contacts).
fn any_zone() -> impl Strategy<Value = Zone> {
    prop_oneof![
        3 => convex_zone(),
        1 => (prop::collection::vec(0.3..1.4f64, 6..12), 0.0..TAU).prop_filter_map(
            "a valid star",
            |(radii, phase)| {
                let n = radii.len();
                let vertices = radii
                    .iter()
                    .enumerate()
                    .map(|(k, &r)| (phase + TAU * k as f64 / n as f64, r));
                let ring = polar_ring(Point::origin(), vertices);
                let shape = Shape::polygon(&ring).ok()?;
                Some(Zone {
                    shape,
                    outline: Outline::Ring(ring),
                })
            }
        ),
    ]
}

/// A body twist from a pose near the origin: pure translations, pure
/// rotations and both.
fn twist() -> impl Strategy<Value = Motion> {
    (
        (-2.0..2.0f64, -2.0..2.0f64, -PI..PI),
        (-1.5..1.5f64, -1.0..1.0f64, -2.0..2.0f64),
        0u8..4,
    )
        .prop_map(|((x, y, heading), (vx, vy, w), kind)| {
            let start = Isometry2::new(Vector::new(x, y), heading);
            let (velocity, angular) = match kind {
                0 => (Vector::new(vx, vy), 0.0),
                1 => (Vector::zeros(), w),
                _ => (Vector::new(vx, vy), w),
            };
            Motion::twist(&start, velocity, angular)
        })
}

/// Points given in the start body frame, in the box `[-spread, spread]²`
/// (in or near the zone), returned in the fixed frame by [`in_world`].
fn body_points(n: std::ops::Range<usize>, spread: f64) -> impl Strategy<Value = Vec<(f64, f64)>> {
    prop::collection::vec((-spread..spread, -spread..spread), n)
}

fn in_world(motion: &Motion, points: &[(f64, f64)]) -> Vec<Point> {
    points
        .iter()
        .map(|&(x, y)| motion.start() * Point::new(x, y))
        .collect()
}

// ---------------------------------------------------------------------------
// kth_impact

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    /// The k-th of the points' own first contacts; k = 1 is first_impact;
    /// never later than the first sampled time at which k points are
    /// inside the padded zone at once.
    #[test]
    fn kth_impact_is_the_kth_contact_and_never_late(
        zone in any_zone(),
        motion in twist(),
        body in body_points(0..25, 1.8),
        padding in prop_oneof![Just(0.0), 0.0..0.3f64],
        duration in 0.05..3.0f64,
        k in 1usize..7,
    ) {
        let points = in_world(&motion, &body);
        let mut set = PointSet::new();
        for &p in &points {
            prop_assert!(set.push(p));
        }
        let got = set.kth_impact(&zone.shape, &motion, duration, padding, k);
        prop_assert_eq!(
            set.kth_impact(&zone.shape, &motion, duration, padding, 1),
            set.first_impact(&zone.shape, &motion, duration, padding).map(|(_, i)| i.time)
        );
        let impacts: Vec<_> = points
            .iter()
            .filter_map(|&p| point_time_of_impact(&zone.shape, &motion, p, duration, padding))
            .collect();
        let mut each: Vec<f64> = impacts.iter().map(|impact| impact.time).collect();
        each.sort_by(f64::total_cmp);
        // A time that is not exact (the advancement's step cap, a grazing
        // turn) is only a lower bound: the set may have proved that point
        // never touched (rule 6 of `broadphase::points`) and answer later.
        let exact = impacts.iter().all(|impact| impact.exact);
        match (got, each.get(k - 1)) {
            (Some(a), Some(&b)) if exact => {
                prop_assert!((a - b).abs() <= 1e-9, "{} against {}", a, b)
            }
            (Some(a), Some(&b)) => prop_assert!(a >= b - 1e-9, "{} against {}", a, b),
            (None, None) => {}
            (None, Some(_)) if !exact => {}
            other => prop_assert!(false, "{:?}", other),
        }
        // k points deep inside together at a sampled time: touched by then.
        let together = times(duration, SAMPLES).find(|&t| {
            let at = motion_pose(&motion, t);
            let inside = points
                .iter()
                .filter(|&&p| {
                    signed_distance(&zone.outline, at.inverse_transform_point(&p)) - padding
                        <= -BAND
                })
                .count();
            inside >= k
        });
        if let Some(t) = together {
            let kth = got.unwrap_or(f64::INFINITY);
            prop_assert!(kth <= t + 1e-12, "k-th contact {} after {} points at {}", kth, k, t);
        }
    }
}

// ---------------------------------------------------------------------------
// point_escapes, PointSet::escapes

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// Whenever a point is said to escape, no sampled time finds it deeper
    /// than at the start; the set's answer is every point's (outside:
    /// never touched; inside or touching: `point_escapes`).
    #[test]
    fn escaping_points_never_go_deeper(
        zone in convex_zone(),
        motion in twist(),
        body in body_points(1..10, 1.2),
        duration in 0.05..3.0f64,
    ) {
        let points = in_world(&motion, &body);
        let mut set = PointSet::new();
        let (mut each, mut settled) = (true, true);
        for &p in &points {
            prop_assert!(set.push(p));
            let escapes = point_escapes(&zone.shape, &motion, p, duration);
            if escapes {
                let excess = point_excess(&zone, &motion, p, duration);
                prop_assert!(excess <= SLACK, "{:?} goes {} deeper", p, excess);
            }
            let expected = match point_time_of_impact(&zone.shape, &motion, p, duration, 0.0) {
                None => true,
                Some(impact) if impact.time > 0.0 => {
                    // A contact that is not exact (the advancement's step
                    // cap, a grazing turn) may be one the set proves never
                    // happens (rule 6 of `broadphase::points`).
                    settled &= impact.exact;
                    false
                }
                Some(_) => escapes,
            };
            prop_assert_eq!(escapes, expected);
            each &= expected;
        }
        let got = set.escapes(&zone.shape, &motion, duration);
        match settled {
            true => prop_assert_eq!(got, each),
            false => prop_assert!(got || !each),
        }
        if got {
            for &p in &points {
                prop_assert!(point_excess(&zone, &motion, p, duration) <= SLACK);
            }
        }
    }

    /// Not trivially false: for a point inside a convex zone, moving the
    /// zone away from it along the normal of its nearest edge (the point
    /// leaves straight out) escapes; toward it does not. In a disc, along
    /// the line from the centre.
    #[test]
    fn straight_out_escapes_straight_in_does_not(
        zone in convex_zone(),
        start in (-2.0..2.0f64, -2.0..2.0f64, -PI..PI),
        weights in prop::collection::vec(0.01..1.0f64, 8),
        speed in 0.1..2.0f64,
        duration in 0.05..3.0f64,
    ) {
        // A point inside (a convex combination of the vertices), and the
        // direction out of the zone nearest to it.
        let (q, n, gap) = match &zone.outline {
            Outline::Ring(ring) => {
                let total: f64 = weights[..ring.len()].iter().sum();
                let q = ring
                    .iter()
                    .zip(&weights)
                    .fold(Point::origin(), |q, (v, w)| q + v.coords * (w / total));
                // The nearest edge, clearly nearer than the others.
                let mut distances: Vec<(f64, usize)> = (0..ring.len())
                    .map(|i| (point_segment_distance(q, ring[i], ring[(i + 1) % ring.len()]), i))
                    .collect();
                distances.sort_by(|a, b| a.0.total_cmp(&b.0));
                let gap = distances[1].0 - distances[0].0;
                prop_assume!(distances[0].0 > 1e-6 && gap > 1e-6);
                let j = distances[0].1;
                (q, outward_normal(ring[j], ring[(j + 1) % ring.len()]), gap)
            }
            Outline::Disc(c, r) => {
                let offset = Vector::new(weights[0] - 0.5, weights[1] - 0.5) * *r;
                prop_assume!(offset.norm() > 1e-6);
                // (Deeper until it reaches the centre.)
                (c + offset, offset.normalize(), offset.norm())
            }
        };
        let start = Isometry2::new(Vector::new(start.0, start.1), start.2);
        let p = start * q;
        let away = Motion::twist(&start, -n * speed, 0.0);
        let toward = Motion::twist(&start, n * speed, 0.0);
        prop_assert!(point_escapes(&zone.shape, &away, p, duration));
        prop_assert!(!point_escapes(&zone.shape, &toward, p, duration));
        prop_assert!(point_excess(&zone, &away, p, duration) <= SLACK);
        // Toward: deeper at once (before another edge can come nearer
        // than the gap allows).
        let soon = duration.min(0.5 * gap / speed);
        let depth = |t: f64| point_depth(&zone.outline, &motion_pose(&toward, t), p);
        prop_assert!(depth(soon) > depth(0.0), "{} then {}", depth(0.0), depth(soon));
    }
}

// ---------------------------------------------------------------------------
// polygon_escapes

/// A convex obstacle or a disc near the zone (fixed frame), or a concave
/// star (its pieces).
fn obstacle() -> impl Strategy<Value = (Outline, Shape)> {
    (
        prop::collection::vec(0.0..TAU, 3..8),
        (0.2..1.0f64, 0.1..0.8f64, 0.0..TAU),
        (-1.5..1.5f64, -1.5..1.5f64),
        0u8..6,
    )
        .prop_filter_map(
            "a valid obstacle",
            |(mut angles, (rx, ry, rotation), (cx, cy), kind)| {
                let centre = Point::new(cx, cy);
                match kind {
                    0 => Some((Outline::Disc(centre, rx), Shape::circle(centre, rx).ok()?)),
                    1 => {
                        // A star: several convex pieces.
                        let n = 2 * angles.len().max(3);
                        let vertices = (0..n).map(|k| {
                            let r = if k % 2 == 0 { rx } else { 0.45 * rx };
                            (rotation + TAU * k as f64 / n as f64, r)
                        });
                        let ring = polar_ring(centre, vertices);
                        let shape = Shape::polygon(&ring).ok()?;
                        Some((Outline::Ring(ring), shape))
                    }
                    _ => {
                        angles.sort_by(f64::total_cmp);
                        let ring = ellipse_ring(centre, rx, ry, rotation, angles);
                        let shape = Shape::polygon(&ring).ok()?;
                        matches!(shape, Shape::Convex(_)).then_some((Outline::Ring(ring), shape))
                    }
                }
            },
        )
}

/// The obstacle's convex parts as the reference sees them: its pieces for
/// a concave one, else itself.
fn parts(outline: &Outline, shape: &Shape) -> Vec<Outline> {
    match shape {
        Shape::Compound(c) => c
            .pieces()
            .iter()
            .map(|p| Outline::Ring(p.vertices().to_vec()))
            .collect(),
        _ => vec![outline.clone()],
    }
}

/// The deepest the obstacle's parts get beyond their start depths over
/// the motion (the obstacle given in the start body frame).
fn polygon_excess(zone: &Zone, motion: &Motion, parts: &[Outline], duration: f64) -> f64 {
    let at = |t: f64| {
        let zone_there = placed(&zone.outline, &motion_pose(motion, t));
        parts
            .iter()
            .map(|part| sat_depth(&zone_there, part))
            .collect::<Vec<f64>>()
    };
    let start = at(0.0);
    times(duration, SAMPLES)
        .flat_map(|t| {
            at(t)
                .into_iter()
                .zip(&start)
                .map(|(d, s)| d - s)
                .collect::<Vec<f64>>()
        })
        .fold(f64::NEG_INFINITY, f64::max)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// Whenever an obstacle is said to escape, no sampled time finds it (or
    /// any of its pieces) deeper than at the start.
    #[test]
    fn escaping_obstacles_never_go_deeper(
        zone in convex_zone(),
        motion in twist(),
        (outline, shape) in obstacle(),
        duration in 0.05..3.0f64,
    ) {
        // The obstacle was drawn in the start body frame: into the fixed frame.
        let start = *motion.start();
        let outline = placed(&outline, &start);
        let shape = shape.transformed(&start);
        if polygon_escapes(&zone.shape, &motion, &shape, duration) {
            let excess = polygon_excess(&zone, &motion, &parts(&outline, &shape), duration);
            prop_assert!(excess <= SLACK, "goes {} deeper", excess);
        }
    }
}

/// How often the rules accept what overlaps at the start (the properties
/// above are weaker than they look if they almost never do).
#[test]
fn escape_is_often_proved() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut points, mut points_proved) = (0, 0);
    let (mut obstacles, mut obstacles_proved) = (0, 0);
    for _ in 0..2_000 {
        let zone = convex_zone().new_tree(&mut runner).unwrap().current();
        let motion = twist().new_tree(&mut runner).unwrap().current();
        let body = body_points(1..2, 1.2)
            .new_tree(&mut runner)
            .unwrap()
            .current();
        let p = in_world(&motion, &body)[0];
        if point_depth(&zone.outline, motion.start(), p) > 1e-6 {
            points += 1;
            points_proved += usize::from(point_escapes(&zone.shape, &motion, p, 1.0));
        }
        let (outline, shape) = obstacle().new_tree(&mut runner).unwrap().current();
        let start = *motion.start();
        let (outline, shape) = (placed(&outline, &start), shape.transformed(&start));
        let overlapping = parts(&outline, &shape)
            .iter()
            .any(|part| sat_depth(&placed(&zone.outline, &start), part) > 1e-6);
        if overlapping {
            obstacles += 1;
            obstacles_proved += usize::from(polygon_escapes(&zone.shape, &motion, &shape, 1.0));
        }
    }
    assert!(
        points_proved * 5 > points && obstacles_proved * 8 > obstacles,
        "points inside: {points_proved} of {points} proved; obstacles overlapping: \
         {obstacles_proved} of {obstacles}"
    );
}

// ---------------------------------------------------------------------------
// Cases worked by hand, each checked against sampling too.

fn square(half: f64) -> Zone {
    let ring = vec![
        Point::new(-half, -half),
        Point::new(half, -half),
        Point::new(half, half),
        Point::new(-half, half),
    ];
    Zone {
        shape: Shape::polygon(&ring).unwrap(),
        outline: Outline::Ring(ring),
    }
}

fn from_origin(v: (f64, f64), w: f64) -> Motion {
    Motion::twist(&Isometry2::identity(), Vector::new(v.0, v.1), w)
}

/// `point_escapes`, asserted to be `expected`, and the sampled excess
/// agreeing: never deeper when true; really deeper when `deeper`.
fn check_point(
    zone: &Zone,
    motion: &Motion,
    p: Point,
    duration: f64,
    expected: bool,
    deeper: bool,
) {
    let got = point_escapes(&zone.shape, motion, p, duration);
    let excess = point_excess(zone, motion, p, duration);
    assert_eq!(got, expected, "{p:?} {motion:?}: excess {excess}");
    if got {
        assert!(excess <= SLACK, "{p:?}: {excess}");
    }
    if deeper {
        assert!(excess > 1e-3, "{p:?}: refused, but only {excess} deeper");
    }
}

#[test]
fn backing_away_from_a_wall_ahead_escapes_driving_on_does_not() {
    let zone = square(1.0);
    let p = Point::new(0.9, 0.0);
    check_point(&zone, &from_origin((-0.5, 0.0), 0.0), p, 2.0, true, false);
    check_point(&zone, &from_origin((0.5, 0.0), 0.0), p, 2.0, false, true);
    // Backing away while turning a little: the front edge still recedes.
    check_point(&zone, &from_origin((-0.5, 0.0), 0.2), p, 2.0, true, false);
    // Sliding along the wall keeps the depth to the front edge exactly: a
    // constant term, accepted (the point leaves by the far edge).
    check_point(&zone, &from_origin((0.0, 0.5), 0.0), p, 2.0, true, false);
    // Sliding while turning does not keep it: refused.
    check_point(&zone, &from_origin((0.0, 0.5), 0.3), p, 2.0, false, true);
}

/// A stop zone `[-0.6, 0.6] × [-0.4, 0.4]` and a straight wall 5 cm inside
/// its front edge (`x = 0.55`), as a scan sees it (a point every 1 cm):
/// backing straight away escapes whether the wall stays within the zone's
/// width or runs past its sides (a real wall: its points beside the side
/// edges are deepest across those edges, which the motion runs parallel
/// to); driving on does not, nor does sliding toward a side.
#[test]
fn backing_away_from_a_wall_wider_than_the_zone_escapes() {
    let ring = [(0.6, 0.4), (0.6, -0.4), (-0.6, -0.4), (-0.6, 0.4)];
    let ring: Vec<Point> = ring.iter().map(|&(x, y)| Point::new(x, y)).collect();
    let zone = Zone {
        shape: Shape::polygon(&ring).unwrap(),
        outline: Outline::Ring(ring),
    };
    for half_width in [0.3f64, 0.45, 2.0] {
        let n = (2.0 * half_width / 0.01).round() as usize;
        let wall: Vec<Point> = (0..=n)
            .map(|i| Point::new(0.55, -half_width + 0.01 * i as f64))
            .collect();
        let mut set = PointSet::new();
        for &p in &wall {
            assert!(set.push(p));
        }
        for horizon in [0.5, 1.0, 2.0] {
            let back = from_origin((-0.3, 0.0), 0.0);
            assert!(
                set.escapes(&zone.shape, &back, horizon),
                "{half_width} {horizon}"
            );
            for &p in &wall {
                let excess = point_excess(&zone, &back, p, horizon);
                assert!(excess <= SLACK, "{p:?}: {excess}");
            }
            let on = from_origin((0.3, 0.0), 0.0);
            assert!(!set.escapes(&zone.shape, &on, horizon), "{half_width}");
            // Back and toward a side: a wall past that side has points
            // that come in; one within the width only gets shallower.
            let aside = from_origin((-0.3, 0.2), 0.0);
            let expected = half_width < 0.4;
            assert_eq!(
                set.escapes(&zone.shape, &aside, horizon),
                expected,
                "{half_width}"
            );
        }
    }
}

#[test]
fn turning_in_place_near_an_edge_middle_goes_deeper() {
    // The front edge turns away from a point in front of the centre: its
    // distance to the edge's line, 1 − 0.9·cos φ, grows.
    let zone = square(1.0);
    for w in [0.5, -0.5] {
        check_point(
            &zone,
            &from_origin((0.0, 0.0), w),
            Point::new(0.9, 0.0),
            2.0,
            false,
            true,
        );
    }
}

#[test]
fn turning_in_place_near_the_front_left_corner() {
    let zone = square(1.0);
    let p = Point::new(0.9, 0.8);
    // Counter-clockwise, the front edge sweeps toward the point (its
    // distance 1 − (0.9·cos φ + 0.8·sin φ) falls while φ < 1.45): escapes.
    check_point(&zone, &from_origin((0.0, 0.0), 0.5), p, 2.0, true, false);
    // Clockwise, the point goes deeper until the left edge comes closer
    // (depth 0.149 at φ = −0.059, from 0.1).
    check_point(&zone, &from_origin((0.0, 0.0), -0.5), p, 2.0, false, true);
    // Counter-clockwise for too long: the front edge comes back past it.
    check_point(&zone, &from_origin((0.0, 0.0), 0.5), p, 5.0, false, true);
}

#[test]
fn a_point_in_a_disc_zone_is_judged_by_its_distance_from_the_centre() {
    let zone = Zone {
        shape: Shape::circle(Point::origin(), 1.0).unwrap(),
        outline: Outline::Disc(Point::origin(), 1.0),
    };
    let p = Point::new(0.5, 0.0);
    check_point(&zone, &from_origin((-0.4, 0.0), 0.0), p, 2.0, true, false);
    check_point(&zone, &from_origin((0.4, 0.0), 0.0), p, 2.0, false, true);
    // Sideways: the distance from the centre grows (exact rule, no tie).
    check_point(&zone, &from_origin((0.0, 0.4), 0.0), p, 2.0, true, false);
    // Turning about the centre keeps the depth: a tie, refused.
    check_point(&zone, &from_origin((0.0, 0.0), 1.0), p, 2.0, false, false);
    // Arcing away: the centre of the disc moves off the point.
    check_point(&zone, &from_origin((-0.4, 0.0), 0.6), p, 2.0, true, false);
}

#[test]
fn obstacles_overlapping_the_front_edge() {
    let zone = square(1.0);
    let ring = vec![
        Point::new(0.8, -0.3),
        Point::new(1.5, -0.3),
        Point::new(1.5, 0.3),
        Point::new(0.8, 0.3),
    ];
    let boxed = Shape::polygon(&ring).unwrap();
    let disc = Shape::circle(Point::new(1.2, 0.0), 0.3).unwrap();
    let cases = [
        (boxed.clone(), Outline::Ring(ring)),
        (disc, Outline::Disc(Point::new(1.2, 0.0), 0.3)),
    ];
    for (shape, outline) in cases {
        let parts = parts(&outline, &shape);
        for (motion, expected, deeper) in [
            (from_origin((-0.5, 0.0), 0.0), true, false),
            (from_origin((-0.5, 0.0), 0.3), true, false),
            (from_origin((0.5, 0.0), 0.0), false, true),
        ] {
            let got = polygon_escapes(&zone.shape, &motion, &shape, 2.0);
            let excess = polygon_excess(&zone, &motion, &parts, 2.0);
            assert_eq!(got, expected, "{shape:?} {motion:?}: excess {excess}");
            assert!(!got || excess <= SLACK);
            assert!(!deeper || excess > 1e-3);
        }
    }
}

#[test]
fn concave_zones_unusable_input_and_still_motions() {
    let star = Shape::polygon(&polar_ring(
        Point::origin(),
        (0..10).map(|k| (TAU * k as f64 / 10.0, if k % 2 == 0 { 1.0 } else { 0.4 })),
    ))
    .unwrap();
    assert!(matches!(star, Shape::Compound(_)));
    let back = from_origin((-0.5, 0.0), 0.0);
    // Inside a concave zone: refused; far away and never touched: escapes.
    assert!(!point_escapes(&star, &back, Point::new(0.1, 0.0), 1.0));
    assert!(point_escapes(&star, &back, Point::new(5.0, 0.0), 1.0));
    let disc = Shape::circle(Point::new(0.1, 0.0), 0.2).unwrap();
    assert!(!polygon_escapes(&star, &back, &disc, 1.0));
    // Outside, touched later: does not escape.
    let zone = square(1.0);
    assert!(!point_escapes(
        &zone.shape,
        &from_origin((1.0, 0.0), 0.0),
        Point::new(1.5, 0.0),
        1.0
    ));
    assert!(!polygon_escapes(
        &zone.shape,
        &from_origin((1.0, 0.0), 0.0),
        &disc.transformed(&Isometry2::translation(1.6, 0.0)),
        1.0
    ));
    // Not finite: refused.
    let p = Point::new(0.5, 0.0);
    let nan = from_origin((f64::NAN, 0.0), 0.0);
    assert!(!point_escapes(&zone.shape, &nan, p, 1.0));
    assert!(!point_escapes(&zone.shape, &back, p, f64::INFINITY));
    assert!(!point_escapes(
        &zone.shape,
        &back,
        Point::new(f64::NAN, 0.0),
        1.0
    ));
    assert!(!polygon_escapes(&zone.shape, &nan, &disc, 1.0));
    // Still, or no time: nothing changes.
    let still = from_origin((0.0, 0.0), 0.0);
    assert!(point_escapes(&zone.shape, &still, p, 1.0));
    assert!(polygon_escapes(&zone.shape, &still, &disc, 1.0));
    assert!(point_escapes(
        &zone.shape,
        &from_origin((1.0, 0.0), 0.0),
        p,
        0.0
    ));
    // A path segment that turns is not a twist: refused when inside.
    let turning = Motion::segment(
        &Isometry2::identity(),
        &Isometry2::new(Vector::new(-0.5, 0.0), 0.3),
        1.0,
    );
    assert!(!point_escapes(&zone.shape, &turning, p, 1.0));
    // One without rotation is a translation.
    let straight = Motion::segment(
        &Isometry2::new(Vector::zeros(), 0.5),
        &Isometry2::new(Vector::new(-0.5, 0.0), 0.5),
        1.0,
    );
    let q = Isometry2::new(Vector::zeros(), 0.5) * p;
    let backing = straight.pose_at(1.0).translation.vector;
    let ahead = Isometry2::new(Vector::zeros(), 0.5).rotation * Vector::x();
    assert!(backing.dot(&ahead) < 0.0);
    assert!(point_escapes(&zone.shape, &straight, q, 1.0));
}
