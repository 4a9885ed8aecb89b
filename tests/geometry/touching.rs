//! Touching, barely apart and shallow pairs of regular and jittered n-gons
//! (3 to 256 vertices, vertex on vertex as in the narrow-phase benchmark)
//! against the exact reference in `reference.rs`: the cases where no axis
//! separates and the merged face walk, its witnesses and its early exits
//! decide alone. `intersects`, `penetration` and `query` must agree exactly.

use crate::reference::*;
use sat_collision::geometry::details::penetration;
use sat_collision::geometry::{intersects, length_tolerance, query, Point, Shape, Vector};
use std::f64::consts::TAU;

/// Grid-snapped convex n-gon around `centre`: regular, or at jittered angles
/// on an ellipse.
fn ngon(rng: &mut Rng, n: usize, regular: bool, centre: Point) -> Vec<Point> {
    let radius = rng.range(0.2, 2.0);
    let aspect = if regular { 1.0 } else { rng.range(0.3, 1.0) };
    let rotation = rng.range(0.0, TAU);
    let angles = (0..n).map(|k| {
        let jitter = if regular { 0.0 } else { rng.range(-0.35, 0.35) };
        (k as f64 + jitter) * TAU / n as f64
    });
    let points: Vec<Point> = sat_collision_testkit::shapes::ellipse_ring(
        centre,
        radius,
        radius * aspect,
        rotation,
        angles,
    )
    .into_iter()
    .map(snap_point)
    .collect();
    convex_hull(&points)
}

fn support(points: &[Point], d: &Vector) -> Point {
    *points
        .iter()
        .max_by(|p, q| p.coords.dot(d).total_cmp(&q.coords.dot(d)))
        .expect("vertices")
}

fn check(a_points: &[Point], b_points: &[Point], padding: f64) -> Result<(), String> {
    let (Ok(a), Ok(b)) = (Shape::polygon(a_points), Shape::polygon(b_points)) else {
        return Ok(()); // Snapping made a degenerate polygon: not this test's subject.
    };
    let (av, bv) = match (&a, &b) {
        (Shape::Convex(a), Shape::Convex(b)) => (a.vertices().to_vec(), b.vertices().to_vec()),
        _ => return Ok(()),
    };
    let tol = length_tolerance(a.aabb().magnitude().max(b.aabb().magnitude()).max(padding));
    let c = query(&a, &b, padding);
    if intersects(&a, &b, padding) != c.colliding() || intersects(&b, &a, padding) != c.colliding()
    {
        return Err(format!("intersects disagrees with query {c:?}"));
    }
    if penetration(&a, &b, padding) != c.colliding().then_some(c) {
        return Err(format!("penetration disagrees with query {c:?}"));
    }
    let hit = polygons_intersect(&av, &bv);
    if hit && !c.colliding() {
        return Err(format!("reference intersects, reported clear: {c:?}"));
    }
    if !hit {
        let gap = polygon_distance(&av, &bv) - padding;
        if (gap - tol).abs() > 0.01 * tol && c.colliding() != (gap <= tol) {
            return Err(format!("colliding {} but gap {gap:e}", c.colliding()));
        }
        if !c.colliding() && (c.distance() - gap).abs() > tol {
            return Err(format!("clearance {} vs reference {gap}", c.distance()));
        }
    }
    Ok(())
}

#[test]
fn touching_and_shallow_ngons_match_reference() {
    let mut rng = Rng::new(0x70C4);
    let sizes = [3, 4, 5, 8, 8, 8, 16, 64, 256];
    let mut cases = 0;
    for case in 0..20_000 {
        let n = sizes[case % sizes.len()];
        if n >= 64 && case % 4 != 0 {
            continue; // The O(n·m) reference is slow: fewer large pairs.
        }
        let origin = if rng.chance(0.2) {
            snap_point(Point::new(
                1e5 + rng.range(-9.0, 9.0),
                -1e5 + rng.range(-9.0, 9.0),
            ))
        } else {
            Point::origin()
        };
        let regular = rng.chance(0.5);
        let a = ngon(&mut rng, n, regular, origin);
        let b_local = ngon(&mut rng, n, regular, origin);
        let t = rng.range(0.0, TAU);
        let d = Vector::new(t.cos(), t.sin());
        // B's extreme vertex along -d exactly on A's extreme vertex along d
        // (grid differences are exact), then moved by a few grid steps or a
        // shallow overlap.
        let anchor = support(&a, &d) - support(&b_local, &-d);
        let nudge = match rng.int(0, 3) {
            0 => Vector::zeros(),
            1 => Vector::new(rng.int(-3, 3) as f64, rng.int(-3, 3) as f64) * GRID,
            2 => -d * 0.01,
            _ => d * rng.range(0.0, 1e-6),
        };
        let shift = anchor + Vector::new(snap(nudge.x), snap(nudge.y));
        let b: Vec<Point> = b_local.iter().map(|p| p + shift).collect();
        let padding = if rng.chance(0.2) {
            snap(rng.range(0.0, 0.1))
        } else {
            0.0
        };
        if let Err(e) = check(&a, &b, padding) {
            panic!("case {case} (n = {n}, regular {regular}, padding {padding}): {e}\nA = {a:?}\nB = {b:?}");
        }
        cases += 1;
    }
    assert!(cases > 10_000);
}
