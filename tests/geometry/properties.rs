//! Random comparisons of `query` / `intersects` against the independent
//! brute-force reference in `reference.rs`, plus invariants.
//!
//! Comparison tolerance: the library's own policy tolerance
//! `tol = length_tolerance(max(|A|, |B|, padding)) = 1e-12 * max(1, scale)`.
//! Both sides work in f64 on grid coordinates; their rounding errors are a
//! few ulps of the coordinates (~1e-16 * scale, printed at the end of each
//! run as a fraction of `tol`), three to four orders of magnitude below
//! `tol`. So any difference above `tol` is a bug, and `tol` is also what the
//! library promises. Booleans are compared exactly, except that a reference
//! gap within 1% of `tol` of the touching threshold may go either way (both
//! answers are right to within rounding there). A reference that finds the
//! closed shapes intersecting (exact predicates) always requires
//! `colliding`: a wrong "clear" is never tolerated.
//!
//! Every failure prints its seed and case number; the generator is
//! deterministic.

use crate::reference::*;
use nalgebra::Isometry2;
use sat_collision::geometry::{intersects, length_tolerance, query, Contact, Point, Shape, Vector};
use std::f64::consts::TAU;
use std::time::Instant;

/// Polygon pairs per seed; 4 seeds give 120,000 convex pairs.
const CONVEX_CASES_PER_SEED: usize = 30_000;
const CIRCLE_CASES: usize = 20_000;
const COMPOUND_CASES: usize = 4_000;

// ---------------------------------------------------------------- generation

/// A validated convex polygon and its vertices (what both sides use).
fn convex(points: &[Point]) -> Option<(Shape, Vec<Point>)> {
    match Shape::polygon(points) {
        Ok(Shape::Convex(p)) => {
            let vertices = p.vertices().to_vec();
            Some((Shape::Convex(p), vertices))
        }
        _ => None,
    }
}

/// Random convex polygon: points on a rotated ellipse (sometimes a sliver),
/// 3–32 vertices, snapped to the grid, hulled exactly.
fn ellipse_points(rng: &mut Rng, centre: Point, size: f64) -> Vec<Point> {
    let k = rng.int(3, 32) as usize;
    let rx = size * rng.range(0.1, 1.0);
    let aspect = if rng.chance(0.1) {
        rng.range(1e-4, 1e-2)
    } else {
        rng.range(0.2, 1.0)
    };
    let ry = rx * aspect;
    let rotation = rng.range(0.0, TAU);
    let mut angles: Vec<f64> = (0..k).map(|_| rng.range(0.0, TAU)).collect();
    angles.sort_by(f64::total_cmp);
    let points: Vec<Point> =
        sat_collision_testkit::shapes::ellipse_ring(centre, rx, ry, rotation, angles)
            .into_iter()
            .map(snap_point)
            .collect();
    convex_hull(&points)
}

/// Random lattice polygon: hull of a few integer points. Makes exact
/// touching, parallel edges and vertex-on-edge contacts common.
fn lattice_points(rng: &mut Rng, centre: Point) -> Vec<Point> {
    let count = rng.int(3, 8);
    let scale = if rng.chance(0.5) { 1.0 } else { 0.5 };
    let points: Vec<Point> = (0..count)
        .map(|_| {
            let v = Vector::new(rng.int(-3, 3) as f64, rng.int(-3, 3) as f64) * scale;
            centre + v
        })
        .collect();
    convex_hull(&points)
}

/// Axis-aligned box with half-integer corners.
fn box_points(rng: &mut Rng, centre: Point) -> Vec<Point> {
    let w = rng.int(1, 6) as f64 * 0.5;
    let h = rng.int(1, 6) as f64 * 0.5;
    vec![
        centre,
        centre + Vector::new(w, 0.0),
        centre + Vector::new(w, h),
        centre + Vector::new(0.0, h),
    ]
}

/// Offset far from the origin for about one case in five.
fn random_origin(rng: &mut Rng) -> Point {
    if rng.chance(0.2) {
        let sx = if rng.chance(0.5) { 1.0 } else { -1.0 };
        let sy = if rng.chance(0.5) { 1.0 } else { -1.0 };
        snap_point(Point::new(
            sx * 1e5 + rng.range(-50.0, 50.0),
            sy * 1e5 + rng.range(-50.0, 50.0),
        ))
    } else {
        snap_point(Point::new(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0)))
    }
}

fn random_padding(rng: &mut Rng) -> f64 {
    if rng.chance(0.3) {
        snap(rng.range(0.0, 1.0))
    } else {
        0.0
    }
}

/// A pair of convex polygons placed so that apart, touching, shallow, deep
/// and contained cases all occur.
fn convex_pair(rng: &mut Rng) -> (Vec<Point>, Vec<Point>) {
    loop {
        let origin = random_origin(rng);
        let kind = rng.int(0, 9);
        let (a, b) = if kind < 5 {
            let (ra, rb) = (rng.range(0.05, 3.0), rng.range(0.05, 3.0));
            let reach = (ra + rb) * rng.range(0.0, 1.3);
            let angle = rng.range(0.0, TAU);
            let cb = origin + Vector::new(angle.cos(), angle.sin()) * reach;
            (
                ellipse_points(rng, origin, ra),
                ellipse_points(rng, snap_point(cb), rb),
            )
        } else if kind < 8 {
            let offset = Vector::new(rng.int(-5, 5) as f64, rng.int(-5, 5) as f64);
            let first = lattice_points(rng, origin);
            let second = if kind == 7 {
                box_points(rng, origin + offset)
            } else {
                lattice_points(rng, origin + offset)
            };
            (first, second)
        } else {
            let offset = Vector::new(rng.int(-3, 3) as f64, rng.int(-3, 3) as f64) * 0.5;
            let first = box_points(rng, origin);
            let second = if kind == 8 {
                box_points(rng, origin + offset)
            } else {
                let size = rng.range(0.05, 3.0);
                ellipse_points(rng, origin + offset, size)
            };
            (first, second)
        };
        if a.len() >= 3 && b.len() >= 3 && convex(&a).is_some() && convex(&b).is_some() {
            return if rng.chance(0.5) { (a, b) } else { (b, a) };
        }
    }
}

// ---------------------------------------------------------------- checks

#[derive(Default, Debug)]
struct Stats {
    cases: usize,
    apart: usize,
    colliding: usize,
    /// Reference says the closed shapes share a point but do not overlap.
    touching: usize,
    /// Colliding only because of the padding.
    padded: usize,
    /// Apart cases where the SAT gap underestimates the clearance by > tol.
    sat_gap_too_small: usize,
    /// Cases involving a concave (compound) shape.
    concave: usize,
    /// Largest |ours − reference| / tol over distances and depths.
    worst_error: f64,
    /// Largest change of depth or clearance / tol under a rigid motion.
    worst_motion_error: f64,
}

impl Stats {
    fn error(&mut self, ours: f64, reference: f64, tol: f64, what: &str) -> Result<(), String> {
        let e = (ours - reference).abs() / tol;
        self.worst_error = self.worst_error.max(e);
        if e <= 1.0 {
            Ok(())
        } else {
            Err(format!(
                "{what}: ours {ours:e}, reference {reference:e}, tol {tol:e}"
            ))
        }
    }
}

fn ensure(ok: bool, message: impl FnOnce() -> String) -> Result<(), String> {
    if ok {
        Ok(())
    } else {
        Err(message())
    }
}

fn tolerance(a: &Shape, b: &Shape, padding: f64) -> f64 {
    length_tolerance(a.aabb().magnitude().max(b.aabb().magnitude()).max(padding))
}

/// The boolean must match the reference gap, except within 1% of tol of the
/// touching threshold; an exact intersection always requires a collision.
fn check_boolean(c: &Contact, hit: bool, gap: f64, tol: f64) -> Result<(), String> {
    ensure(!hit || c.colliding(), || {
        format!("reference intersects but reported clear: {c:?}")
    })?;
    if (gap - tol).abs() > 0.01 * tol {
        ensure(c.colliding() == (gap <= tol), || {
            format!(
                "colliding {} but reference gap {gap:e} (tol {tol:e})",
                c.colliding()
            )
        })?;
    }
    Ok(())
}

/// Shape-independent consistency of a contact.
fn check_contact_shape(c: &Contact, tol: f64) -> Result<(), String> {
    let finite = [
        c.depth(),
        c.distance(),
        c.mtv().x,
        c.mtv().y,
        c.axis().x,
        c.axis().y,
    ]
    .iter()
    .all(|v| v.is_finite());
    ensure(finite, || format!("non-finite contact {c:?}"))?;
    ensure((c.axis().norm() - 1.0).abs() < 1e-12, || {
        format!("axis not unit: {c:?}")
    })?;
    ensure(c.depth() >= 0.0 && c.distance() >= 0.0, || {
        format!("negative: {c:?}")
    })?;
    if c.colliding() {
        ensure(c.distance() == 0.0 && c.closest().is_none(), || {
            format!("colliding with clearance: {c:?}")
        })?;
        ensure(
            (c.mtv() + c.axis() * c.depth()).norm() <= 1e-15 * c.depth().max(1.0),
            || format!("mtv != -axis * depth: {c:?}"),
        )?;
    } else {
        ensure(c.depth() == 0.0 && c.mtv() == Vector::zeros(), || {
            format!("apart with depth: {c:?}")
        })?;
        ensure(c.distance() > tol, || {
            format!("apart within tolerance: {c:?}")
        })?;
        let (p, q) = c.closest().ok_or("apart without closest points")?;
        ensure(((q - p).norm() - c.distance()).abs() <= tol, || {
            format!(
                "closest points {} apart, distance {}",
                (q - p).norm(),
                c.distance()
            )
        })?;
    }
    Ok(())
}

fn translated(shape: &Shape, v: Vector) -> Shape {
    shape.transformed(&Isometry2::translation(v.x, v.y))
}

/// Moving A by the MTV leaves it touching B; by 0.99 × MTV still overlapping
/// by 1% of the depth (checked with the library itself).
fn check_mtv_by_requery(a: &Shape, b: &Shape, padding: f64, c: &Contact) -> Result<(), String> {
    if !c.colliding() || c.depth() == 0.0 {
        return Ok(());
    }
    let moved = translated(a, c.mtv());
    let tol = tolerance(&moved, b, padding);
    let after = query(&moved, b, padding);
    ensure(after.colliding() && after.depth() <= tol, || {
        format!("after the MTV: {after:?} (before {c:?})")
    })?;
    if c.depth() > 1e3 * tol {
        let almost = query(&translated(a, c.mtv() * 0.99), b, padding);
        ensure(
            almost.colliding() && (almost.depth() - 0.01 * c.depth()).abs() <= tol,
            || format!("after 0.99 MTV: {almost:?} (before {c:?})"),
        )?;
    }
    Ok(())
}

/// Full check of one convex pair against the reference, plus invariants.
fn check_convex_pair(
    a_points: &[Point],
    b_points: &[Point],
    padding: f64,
    stats: &mut Stats,
) -> Result<(), String> {
    let (a, av) = convex(a_points).ok_or("invalid A")?;
    let (b, bv) = convex(b_points).ok_or("invalid B")?;
    let tol = tolerance(&a, &b, padding);
    let c = query(&a, &b, padding);
    ensure(intersects(&a, &b, padding) == c.colliding(), || {
        "intersects != query".into()
    })?;
    check_contact_shape(&c, tol)?;

    let hit = polygons_intersect(&av, &bv);
    let distance = if hit { 0.0 } else { polygon_distance(&av, &bv) };
    // Only needed (and only paid for) when something collides.
    let difference = match hit || c.colliding() {
        true => minkowski_difference(&av, &bv),
        false => Vec::new(),
    };
    let faces = match hit {
        true => face_depths(Point::origin(), &difference),
        false => Vec::new(),
    };
    let gap = distance - padding;
    check_boolean(&c, hit, gap, tol)?;
    stats.cases += 1;

    if !c.colliding() {
        stats.apart += 1;
        stats.error(c.distance(), gap, tol, "clearance")?;
        if distance - sat_gap(&av, &bv) > tol {
            stats.sat_gap_too_small += 1;
        }
        // The axis is the closest-point direction: A's projection lies
        // below B's by exactly the core clearance.
        let (_, a_hi) = project(&av, &c.axis());
        let (b_lo, _) = project(&bv, &c.axis());
        stats.error(b_lo - a_hi, distance, tol, "projection gap on the axis")?;
        let (p, q) = c.closest().unwrap();
        stats.error(
            signed_distance_convex(p, &av),
            padding,
            tol,
            "closest point on A",
        )?;
        stats.error(boundary_distance(q, &bv), 0.0, tol, "closest point on B")?;
    } else {
        stats.colliding += 1;
        if hit {
            let (depth, normal) = faces[0];
            if depth == 0.0 {
                stats.touching += 1;
            }
            stats.error(c.depth(), depth + padding, tol, "depth")?;
            // Least-overlap axis, when it is unique.
            if faces[1].0 - depth > 1e-9 {
                ensure((c.axis() - normal).norm() < 1e-9, || {
                    format!(
                        "axis {:?}, reference least-overlap normal {normal:?}",
                        c.axis()
                    )
                })?;
            }
        } else {
            stats.padded += 1;
            stats.error(
                c.depth(),
                (padding - distance).max(0.0),
                tol,
                "padded depth",
            )?;
        }
        // Translating A by t moves A − B by t: afterwards −t must lie on the
        // boundary of the rounded difference, i.e. `padding` from it.
        if c.depth() > 0.0 {
            let after = signed_distance_convex(Point::from(-c.mtv()), &difference);
            stats.error(after, padding, tol, "reference after MTV")?;
        }
        if c.depth() > 1e3 * tol {
            let almost = signed_distance_convex(Point::from(-c.mtv() * 0.99), &difference);
            stats.error(
                almost - padding,
                -0.01 * c.depth(),
                tol,
                "reference after 0.99 MTV",
            )?;
        }
    }
    check_mtv_by_requery(&a, &b, padding, &c)?;
    check_invariants(&a, &b, &av, &bv, padding, &c, hit, &faces, gap, tol, stats)
}

/// Swapping, reversing the winding and translating change nothing but the
/// sign of the MTV (when swapping). A least-overlap axis that is not unique
/// may legitimately change: then only its validity is checked.
#[allow(clippy::too_many_arguments)]
fn check_invariants(
    a: &Shape,
    b: &Shape,
    av: &[Point],
    bv: &[Point],
    padding: f64,
    c: &Contact,
    hit: bool,
    faces: &[(f64, Vector)],
    gap: f64,
    tol: f64,
    stats: &mut Stats,
) -> Result<(), String> {
    let near_threshold = (gap - tol).abs() <= 0.01 * tol;
    // Apart: the closest direction is unique unless the cores (nearly) touch.
    // Overlapping: unique when one face of A − B is clearly the nearest.
    let unique_axis = if hit {
        faces[0].0 > 0.0 && faces[1].0 - faces[0].0 > 1e-9
    } else {
        gap + padding > 1e-9
    };
    let compare = |other: &Contact, mtv_sign: f64, what: &str, tol: f64| -> Result<(), String> {
        if !near_threshold {
            ensure(other.colliding() == c.colliding(), || {
                format!("{what}: colliding {other:?} vs {c:?}")
            })?;
        }
        if other.colliding() == c.colliding() {
            ensure(
                (other.depth() - c.depth()).abs() <= tol
                    && (other.distance() - c.distance()).abs() <= tol,
                || format!("{what}: {other:?} vs {c:?}"),
            )?;
            if unique_axis {
                ensure((other.mtv() - c.mtv() * mtv_sign).norm() <= tol, || {
                    format!("{what} mtv: {other:?} vs {c:?}")
                })?;
                ensure((other.axis() - c.axis() * mtv_sign).norm() <= 1e-9, || {
                    format!("{what} axis: {other:?} vs {c:?}")
                })?;
            }
        }
        Ok(())
    };
    let swapped = query(b, a, padding);
    check_contact_shape(&swapped, tol)?;
    compare(&swapped, -1.0, "swap", tol)?;

    let reversed =
        |v: &[Point]| Shape::polygon(&v.iter().rev().copied().collect::<Vec<_>>()).unwrap();
    let (ra, rb) = (reversed(av), reversed(bv));
    compare(&query(&ra, &rb, padding), 1.0, "reversed winding", tol)?;
    ensure(
        intersects(&ra, &rb, padding) == query(&ra, &rb, padding).colliding(),
        || "reversed: intersects != query".into(),
    )?;

    // A grid translation (exact), far away: the tolerance grows with it.
    let v = Vector::new(snap(-7.3e4), snap(3.1e4));
    let (ta, tb) = (translated(a, v), translated(b, v));
    let t_tol = tolerance(&ta, &tb, padding);
    let moved = query(&ta, &tb, padding);
    if (gap - t_tol).abs() > 0.01 * t_tol && !near_threshold && (gap <= tol) == (gap <= t_tol) {
        ensure(moved.colliding() == c.colliding(), || {
            format!("translation: {moved:?} vs {c:?}")
        })?;
    }
    if moved.colliding() == c.colliding() {
        ensure(
            (moved.depth() - c.depth()).abs() <= t_tol
                && (moved.distance() - c.distance()).abs() <= t_tol,
            || format!("translation: {moved:?} vs {c:?}"),
        )?;
    }

    // A rigid motion as the node applies it (rotation, then a far
    // translation): coordinates are rounded, and the stored normals are
    // rotated rather than recomputed. Nothing may move by more than tol.
    let pose = Isometry2::new(Vector::new(-4.2e4, 8.7e4), 0.7345);
    let (ra, rb) = (a.transformed(&pose), b.transformed(&pose));
    let r_tol = tolerance(&ra, &rb, padding);
    let rotated = query(&ra, &rb, padding);
    ensure(intersects(&ra, &rb, padding) == rotated.colliding(), || {
        "rotated: intersects != query".into()
    })?;
    if (gap - r_tol).abs() > r_tol && gap.abs() > r_tol {
        ensure(rotated.colliding() == (gap <= r_tol), || {
            format!("rotated: {rotated:?} vs gap {gap:e}")
        })?;
    }
    if rotated.colliding() == c.colliding() {
        let change = (rotated.depth() - c.depth())
            .abs()
            .max((rotated.distance() - c.distance()).abs());
        stats.worst_motion_error = stats.worst_motion_error.max(change / r_tol);
        ensure(
            (rotated.depth() - c.depth()).abs() <= r_tol
                && (rotated.distance() - c.distance()).abs() <= r_tol,
            || format!("rotated: {rotated:?} vs {c:?}"),
        )?;
    }
    Ok(())
}

fn run_convex(seed: u64) {
    let start = Instant::now();
    let mut rng = Rng::new(seed);
    let mut stats = Stats::default();
    for case in 0..CONVEX_CASES_PER_SEED {
        let (a, b) = convex_pair(&mut rng);
        let padding = random_padding(&mut rng);
        if let Err(e) = check_convex_pair(&a, &b, padding, &mut stats) {
            panic!("seed {seed} case {case}: {e}\nA = {a:?}\nB = {b:?}\npadding = {padding}");
        }
    }
    eprintln!("convex seed {seed}: {stats:?} in {:.2?}", start.elapsed());
    assert_eq!(stats.cases, CONVEX_CASES_PER_SEED);
    // The generator must actually produce every regime.
    assert!(
        stats.apart > stats.cases / 10 && stats.colliding > stats.cases / 10,
        "{stats:?}"
    );
    assert!(
        stats.touching > 100 && stats.padded > 100 && stats.sat_gap_too_small > 100,
        "{stats:?}"
    );
}

#[test]
fn convex_pairs_match_reference_seed_1() {
    run_convex(1);
}

#[test]
fn convex_pairs_match_reference_seed_2() {
    run_convex(2);
}

#[test]
fn convex_pairs_match_reference_seed_3() {
    run_convex(3);
}

#[test]
fn convex_pairs_match_reference_seed_4() {
    run_convex(4);
}

// ---------------------------------------------------------------- circles

/// A circle against its closed-form reference: the signed distance from the
/// centre to the polygon (exact sign), minus the radii. Never a polygonised
/// circle.
fn check_circle_polygon(rng: &mut Rng, stats: &mut Stats) -> Result<(), String> {
    let origin = random_origin(rng);
    let points = if rng.chance(0.6) {
        let size = rng.range(0.05, 3.0);
        ellipse_points(rng, origin, size)
    } else {
        lattice_points(rng, origin)
    };
    let Some((polygon, vertices)) = convex(&points) else {
        return Ok(());
    };
    let radius = rng.range(0.01, 2.0);
    let reach = (rng.range(0.0, 3.0) + radius) * rng.range(0.0, 1.2);
    let angle = rng.range(0.0, TAU);
    // Lattice centres make exact vertex and edge contacts common.
    let centre = match rng.chance(0.3) {
        true => origin + Vector::new(rng.int(-4, 4) as f64, rng.int(-4, 4) as f64) * 0.5,
        false => snap_point(origin + Vector::new(angle.cos(), angle.sin()) * reach),
    };
    let circle = Shape::circle(centre, radius).unwrap();
    let padding = random_padding(rng);
    let circle_is_a = rng.chance(0.5);
    let (a, b) = match circle_is_a {
        true => (&circle, &polygon),
        false => (&polygon, &circle),
    };
    let tol = tolerance(a, b, padding);
    let c = query(a, b, padding);
    ensure(intersects(a, b, padding) == c.colliding(), || {
        "intersects != query".into()
    })?;
    check_contact_shape(&c, tol)?;

    let sd = signed_distance_exact(centre, &vertices);
    let gap = sd - radius - padding;
    check_boolean(&c, sd <= 0.0, gap, tol)?;
    stats.cases += 1;
    // Moving A by t moves the centre by t relative to the polygon when the
    // circle is A, by −t when it is B.
    let sign = if circle_is_a { -1.0 } else { 1.0 };
    if c.colliding() {
        stats.colliding += 1;
        stats.error(c.depth(), (-gap).max(0.0), tol, "circle depth")?;
        let moved = centre + c.mtv() * (-sign);
        if c.depth() > 0.0 {
            let after = signed_distance_convex(moved, &vertices) - radius - padding;
            stats.error(after, 0.0, tol, "circle after MTV")?;
        }
    } else {
        stats.apart += 1;
        stats.error(c.distance(), gap, tol, "circle clearance")?;
        let (p, q) = c.closest().unwrap();
        let (on_circle, on_polygon) = if circle_is_a { (p, q) } else { (q, p) };
        let circle_radius = if circle_is_a {
            radius + padding
        } else {
            radius
        };
        stats.error(
            (on_circle - centre).norm(),
            circle_radius,
            tol,
            "closest point on circle",
        )?;
        let polygon_radius = if circle_is_a { 0.0 } else { padding };
        stats.error(
            signed_distance_convex(on_polygon, &vertices),
            polygon_radius,
            tol,
            "closest point on polygon",
        )?;
        // A's projection lies below B's by exactly the clearance.
        let (lo, hi) = project(&vertices, &c.axis());
        let centre_proj = centre.coords.dot(&c.axis());
        let projection_gap = match circle_is_a {
            true => lo - (centre_proj + radius + padding),
            false => (centre_proj - radius) - (hi + padding),
        };
        stats.error(projection_gap, c.distance(), tol, "circle projection gap")?;
    }
    check_mtv_by_requery(a, b, padding, &c)?;
    let swapped = query(b, a, padding);
    ensure(
        swapped.colliding() == c.colliding() || (gap - tol).abs() <= 0.01 * tol,
        || format!("swap: {swapped:?} vs {c:?}"),
    )?;
    stats.error(swapped.depth(), c.depth(), tol, "swap depth")?;
    stats.error(swapped.distance(), c.distance(), tol, "swap distance")?;
    Ok(())
}

fn check_circle_circle(rng: &mut Rng, stats: &mut Stats) -> Result<(), String> {
    let origin = random_origin(rng);
    let (r1, r2) = (rng.range(0.01, 2.0), rng.range(0.01, 2.0));
    let centre = match rng.int(0, 9) {
        0 => origin, // concentric
        1 => origin + Vector::new(rng.int(-4, 4) as f64, rng.int(-4, 4) as f64) * 0.5,
        _ => {
            let angle = rng.range(0.0, TAU);
            snap_point(
                origin + Vector::new(angle.cos(), angle.sin()) * (r1 + r2) * rng.range(0.0, 1.5),
            )
        }
    };
    let padding = random_padding(rng);
    let (a, b) = (
        Shape::circle(origin, r1).unwrap(),
        Shape::circle(centre, r2).unwrap(),
    );
    let tol = tolerance(&a, &b, padding);
    let c = query(&a, &b, padding);
    ensure(intersects(&a, &b, padding) == c.colliding(), || {
        "intersects != query".into()
    })?;
    check_contact_shape(&c, tol)?;
    let d = (centre - origin).norm();
    let gap = d - r1 - r2 - padding;
    check_boolean(&c, false, gap, tol)?;
    stats.cases += 1;
    let expected_axis = if d > 0.0 {
        (centre - origin) / d
    } else {
        Vector::x()
    };
    ensure((c.axis() - expected_axis).norm() <= 1e-12, || {
        format!("axis {:?} vs {expected_axis:?}", c.axis())
    })?;
    if c.colliding() {
        stats.colliding += 1;
        stats.error(c.depth(), (-gap).max(0.0), tol, "circle–circle depth")?;
    } else {
        stats.apart += 1;
        stats.error(c.distance(), gap, tol, "circle–circle clearance")?;
        let (p, q) = c.closest().unwrap();
        stats.error((p - origin).norm(), r1 + padding, tol, "closest on A")?;
        stats.error((q - centre).norm(), r2, tol, "closest on B")?;
    }
    check_mtv_by_requery(&a, &b, padding, &c)
}

#[test]
fn circles_match_closed_form() {
    let start = Instant::now();
    let mut rng = Rng::new(11);
    let (mut polygon_stats, mut circle_stats) = (Stats::default(), Stats::default());
    for case in 0..CIRCLE_CASES {
        let result = match case % 4 {
            0 => check_circle_circle(&mut rng, &mut circle_stats),
            _ => check_circle_polygon(&mut rng, &mut polygon_stats),
        };
        if let Err(e) = result {
            panic!("seed 11 case {case}: {e}");
        }
    }
    eprintln!(
        "circle–polygon: {polygon_stats:?}\ncircle–circle: {circle_stats:?}\nin {:.2?}",
        start.elapsed()
    );
    assert!(polygon_stats.cases > CIRCLE_CASES / 2 && circle_stats.cases == CIRCLE_CASES / 4);
    for s in [&polygon_stats, &circle_stats] {
        assert!(
            s.apart > s.cases / 10 && s.colliding > s.cases / 10,
            "{s:?}"
        );
    }
}

// ---------------------------------------------------------------- compound

/// A random star-shaped (hence simple) polygon, usually concave.
fn star_points(rng: &mut Rng, centre: Point, size: f64) -> Vec<Point> {
    let k = rng.int(5, 20) as usize;
    let phase = rng.range(0.0, TAU);
    let vertices = (0..k).map(|i| {
        let angle = phase + (i as f64 + rng.range(0.0, 0.8)) * TAU / k as f64;
        let r = size * rng.range(0.25, 1.0);
        (angle, r)
    });
    sat_collision_testkit::shapes::polar_ring(centre, vertices)
        .into_iter()
        .map(snap_point)
        .collect()
}

/// Outline (for the reference) and convex pieces (for the piecewise depth).
fn outline_and_pieces(shape: &Shape) -> (Vec<Point>, Vec<Vec<Point>>) {
    match shape {
        Shape::Convex(p) => (p.vertices().to_vec(), vec![p.vertices().to_vec()]),
        Shape::Compound(c) => (
            c.outline().to_vec(),
            c.pieces().iter().map(|p| p.vertices().to_vec()).collect(),
        ),
        Shape::Circle(_) => unreachable!("polygons only"),
    }
}

/// Concave shapes against the reference on their *outlines* (independent of
/// the decomposition), plus the documented piecewise depth.
fn check_compound(rng: &mut Rng, stats: &mut Stats) -> Result<(), String> {
    let origin = random_origin(rng);
    let size = rng.range(0.5, 3.0);
    let Ok(obstacle) = Shape::polygon(&star_points(rng, origin, size)) else {
        return Ok(());
    };
    let angle = rng.range(0.0, TAU);
    let centre =
        snap_point(origin + Vector::new(angle.cos(), angle.sin()) * size * rng.range(0.0, 1.5));
    let footprint_size = rng.range(0.1, 1.5);
    let footprint = match rng.int(0, 2) {
        0 => Shape::polygon(&ellipse_points(rng, centre, footprint_size)),
        1 => Shape::polygon(&star_points(rng, centre, footprint_size)),
        _ => Shape::circle(centre, footprint_size),
    };
    let Ok(footprint) = footprint else {
        return Ok(());
    };
    let padding = random_padding(rng);
    let (a, b) = (&footprint, &obstacle);
    let tol = tolerance(a, b, padding);
    let c = query(a, b, padding);
    ensure(intersects(a, b, padding) == c.colliding(), || {
        "intersects != query".into()
    })?;
    check_contact_shape(&c, tol)?;
    stats.cases += 1;
    if matches!(a, Shape::Compound(_)) || matches!(b, Shape::Compound(_)) {
        stats.concave += 1;
    }

    let (b_outline, b_pieces) = outline_and_pieces(b);
    // (hit, gap, depth by pieces)
    let (hit, gap, piece_depth) = match a {
        Shape::Circle(circle) => {
            let sd = signed_distance_exact(circle.center(), &b_outline);
            let r = circle.radius() + padding;
            let depth = b_pieces
                .iter()
                .map(|p| r - signed_distance_convex(circle.center(), p))
                .fold(0.0, f64::max);
            (sd <= 0.0, sd - r, depth)
        }
        _ => {
            let (a_outline, a_pieces) = outline_and_pieces(a);
            let hit = polygons_intersect(&a_outline, &b_outline);
            let distance = if hit {
                0.0
            } else {
                polygon_distance(&a_outline, &b_outline)
            };
            // The pieces must cover the outline exactly: same verdict.
            let piece_hit = a_pieces
                .iter()
                .any(|p| b_pieces.iter().any(|q| polygons_intersect(p, q)));
            ensure(piece_hit == hit, || {
                format!("pieces hit {piece_hit}, outlines hit {hit}")
            })?;
            let mut depth: f64 = 0.0;
            for p in &a_pieces {
                for q in &b_pieces {
                    let pair = if polygons_intersect(p, q) {
                        face_depths(Point::origin(), &minkowski_difference(p, q))[0].0 + padding
                    } else {
                        padding - polygon_distance(p, q)
                    };
                    depth = depth.max(pair);
                }
            }
            (hit, distance - padding, depth)
        }
    };
    check_boolean(&c, hit, gap, tol)?;
    if c.colliding() {
        stats.colliding += 1;
        stats.error(c.depth(), piece_depth.max(0.0), tol, "piecewise depth")?;
    } else {
        stats.apart += 1;
        stats.error(c.distance(), gap, tol, "compound clearance")?;
    }
    Ok(())
}

#[test]
fn concave_shapes_match_outline_reference() {
    let start = Instant::now();
    let mut rng = Rng::new(21);
    let mut stats = Stats::default();
    for case in 0..COMPOUND_CASES {
        if let Err(e) = check_compound(&mut rng, &mut stats) {
            panic!("seed 21 case {case}: {e}");
        }
    }
    eprintln!("compound: {stats:?} in {:.2?}", start.elapsed());
    assert!(
        stats.cases > COMPOUND_CASES * 9 / 10 && stats.concave > stats.cases / 2,
        "{stats:?}"
    );
    assert!(
        stats.apart > stats.cases / 10 && stats.colliding > stats.cases / 10,
        "{stats:?}"
    );
}
