//! Independent brute-force reference for the collision queries.
//!
//! Deliberately built differently from the library:
//! * booleans use *exact* predicates: every generated coordinate lies on the
//!   dyadic grid `2^-GRID_BITS`, so coordinates convert exactly to integers
//!   and orientation tests are exact `i128` arithmetic (segment intersection
//!   plus winding-number point-in-polygon, touching counts);
//! * clearance is the minimum over *all* vertex–edge distances (O(n·m));
//! * depth and MTV come from the explicit Minkowski difference `A − B`: the
//!   convex hull (monotone chain, exact predicates) of all `a_i − b_j`, then
//!   the distance from the origin to its boundary;
//! * circles use the closed form of a disc against a polygon (signed distance
//!   of the centre minus the radius), never a polygonised circle.
#![allow(dead_code)]

use nalgebra::{Isometry2, UnitComplex};
use sat_collision::geometry::{Motion, Point, Vector};

pub const GRID_BITS: i32 = 30;
/// Grid step (about 9.3e-10 m). At 1e5 m the integers stay below 2^47, so the
/// products in `orient` (< 2^97) fit in an i128.
pub const GRID: f64 = 1.0 / (1u64 << GRID_BITS) as f64;

/// Nearest grid value.
pub fn snap(x: f64) -> f64 {
    (x / GRID).round() * GRID
}

pub fn snap_point(p: Point) -> Point {
    Point::new(snap(p.x), snap(p.y))
}

/// A difference of grid coordinates (exact in f64: below 2^18 on a 2^-30
/// grid) as an integer number of grid steps.
fn steps(d: f64) -> i64 {
    let scaled = d * (1u64 << GRID_BITS) as f64;
    let n = scaled as i64;
    assert!(
        n as f64 == scaled,
        "{d} is not a difference of grid coordinates"
    );
    n
}

/// Exact sign of the orientation of `(a, b, c)`: > 0 counter-clockwise.
/// Products of two 49-bit integers fit in an i128.
pub fn orient(a: Point, b: Point, c: Point) -> i128 {
    let (ux, uy) = (steps(b.x - a.x) as i128, steps(b.y - a.y) as i128);
    let (vx, vy) = (steps(c.x - a.x) as i128, steps(c.y - a.y) as i128);
    (ux * vy - uy * vx).signum()
}

/// `p` on the closed segment `ab` (exact).
pub fn on_segment(p: Point, a: Point, b: Point) -> bool {
    orient(a, b, p) == 0
        && p.x >= a.x.min(b.x)
        && p.x <= a.x.max(b.x)
        && p.y >= a.y.min(b.y)
        && p.y <= a.y.max(b.y)
}

/// Closed segments intersect (exact).
pub fn segments_intersect(a0: Point, a1: Point, b0: Point, b1: Point) -> bool {
    // Disjoint bounding boxes (exact comparisons): no need for predicates.
    if a0.x.max(a1.x) < b0.x.min(b1.x)
        || b0.x.max(b1.x) < a0.x.min(a1.x)
        || a0.y.max(a1.y) < b0.y.min(b1.y)
        || b0.y.max(b1.y) < a0.y.min(a1.y)
    {
        return false;
    }
    let d1 = orient(a0, a1, b0);
    let d2 = orient(a0, a1, b1);
    let d3 = orient(b0, b1, a0);
    let d4 = orient(b0, b1, a1);
    if d1 * d2 < 0 && d3 * d4 < 0 {
        return true;
    }
    on_segment(b0, a0, a1)
        || on_segment(b1, a0, a1)
        || on_segment(a0, b0, b1)
        || on_segment(a1, b0, b1)
}

/// `p` in the closed simple polygon (any orientation), exact: boundary
/// check, then winding number.
pub fn point_in_polygon(p: Point, polygon: &[Point]) -> bool {
    let n = polygon.len();
    let mut winding = 0i32;
    for i in 0..n {
        let (a, b) = (polygon[i], polygon[(i + 1) % n]);
        if on_segment(p, a, b) {
            return true;
        }
        if a.y <= p.y {
            if b.y > p.y && orient(a, b, p) > 0 {
                winding += 1;
            }
        } else if b.y <= p.y && orient(a, b, p) < 0 {
            winding -= 1;
        }
    }
    winding != 0
}

/// Closed simple polygons share a point (exact).
pub fn polygons_intersect(a: &[Point], b: &[Point]) -> bool {
    for i in 0..a.len() {
        for j in 0..b.len() {
            if segments_intersect(a[i], a[(i + 1) % a.len()], b[j], b[(j + 1) % b.len()]) {
                return true;
            }
        }
    }
    point_in_polygon(a[0], b) || point_in_polygon(b[0], a)
}

/// Distance from `p` to the closed segment `ab`.
pub fn point_segment_distance(p: Point, a: Point, b: Point) -> f64 {
    let ab = b - a;
    let t = ((p - a).dot(&ab) / ab.norm_squared()).clamp(0.0, 1.0);
    (p - (a + ab * t)).norm()
}

/// Distance from `p` to the boundary of a polygon.
pub fn boundary_distance(p: Point, polygon: &[Point]) -> f64 {
    let n = polygon.len();
    (0..n)
        .map(|i| point_segment_distance(p, polygon[i], polygon[(i + 1) % n]))
        .fold(f64::INFINITY, f64::min)
}

/// Euclidean distance between closed polygons: 0 when they intersect, else
/// the minimum over all vertex–edge pairs.
pub fn polygon_distance(a: &[Point], b: &[Point]) -> f64 {
    if polygons_intersect(a, b) {
        return 0.0;
    }
    let from_a = a.iter().map(|&p| boundary_distance(p, b));
    let from_b = b.iter().map(|&p| boundary_distance(p, a));
    from_a.chain(from_b).fold(f64::INFINITY, f64::min)
}

/// Signed distance from a grid point `p` to a closed simple polygon:
/// negative inside (minus the distance to the boundary), exact sign.
pub fn signed_distance_exact(p: Point, polygon: &[Point]) -> f64 {
    let d = boundary_distance(p, polygon);
    if point_in_polygon(p, polygon) {
        -d
    } else {
        d
    }
}

/// Signed distance from any point `p` to a counter-clockwise convex polygon
/// (floating-point sign: only used where the magnitude is what matters).
pub fn signed_distance_convex(p: Point, polygon: &[Point]) -> f64 {
    let n = polygon.len();
    let inside = (0..n).all(|i| {
        let (a, b) = (polygon[i], polygon[(i + 1) % n]);
        (b - a).perp(&(p - a)) >= 0.0
    });
    let d = boundary_distance(p, polygon);
    if inside {
        -d
    } else {
        d
    }
}

/// Convex hull (counter-clockwise, no collinear vertices) by Andrew's
/// monotone chain with exact predicates.
pub fn convex_hull(points: &[Point]) -> Vec<Point> {
    let mut pts: Vec<Point> = points.to_vec();
    pts.sort_by(|p, q| p.x.total_cmp(&q.x).then(p.y.total_cmp(&q.y)));
    pts.dedup();
    if pts.len() < 3 {
        return pts;
    }
    let mut hull: Vec<Point> = Vec::with_capacity(2 * pts.len());
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &Point>> = match pass {
            0 => Box::new(pts.iter()),
            _ => Box::new(pts.iter().rev()),
        };
        for &p in iter {
            while hull.len() >= start + 2
                && orient(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    hull
}

/// The Minkowski difference `A − B` as a convex polygon.
pub fn minkowski_difference(a: &[Point], b: &[Point]) -> Vec<Point> {
    let mut points = Vec::with_capacity(a.len() * b.len());
    for p in a {
        for q in b {
            points.push(Point::from(p - q));
        }
    }
    convex_hull(&points)
}

/// For a point inside the convex polygon `hull`: the distances to its edge
/// lines sorted ascending, each with the edge's outward unit normal.
pub fn face_depths(p: Point, hull: &[Point]) -> Vec<(f64, Vector)> {
    let n = hull.len();
    let mut depths: Vec<(f64, Vector)> = (0..n)
        .map(|i| {
            let (a, b) = (hull[i], hull[(i + 1) % n]);
            let e = b - a;
            let normal = Vector::new(e.y, -e.x) / e.norm();
            ((a - p).dot(&normal), normal)
        })
        .collect();
    depths.sort_by(|x, y| x.0.total_cmp(&y.0));
    depths
}

/// Largest gap between the projections of `a` and `b` over every edge normal
/// of both: what the SAT alone would call the clearance.
pub fn sat_gap(a: &[Point], b: &[Point]) -> f64 {
    let mut best = f64::NEG_INFINITY;
    for polygon in [a, b] {
        let n = polygon.len();
        for i in 0..n {
            let e = polygon[(i + 1) % n] - polygon[i];
            let axis = Vector::new(e.y, -e.x) / e.norm();
            let (a_lo, a_hi) = project(a, &axis);
            let (b_lo, b_hi) = project(b, &axis);
            best = best.max(b_lo - a_hi).max(a_lo - b_hi);
        }
    }
    best
}

pub fn project(polygon: &[Point], axis: &Vector) -> (f64, f64) {
    polygon
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            let d = p.coords.dot(axis);
            (lo.min(d), hi.max(d))
        })
}

/// Deterministic generator (SplitMix64): every failure is reproducible from
/// the seed printed with it.
pub use sat_collision_testkit::SplitMix64 as Rng;

/// The pose at `t` along `motion`, computed independently of
/// `Motion::pose_at`: an interpolated motion moves its origin along a line
/// and turns it; a twist with `ω != 0` is a rotation about its fixed
/// instantaneous centre.
pub fn motion_pose(motion: &Motion, t: f64) -> Isometry2<f64> {
    match *motion {
        Motion::Interpolated {
            start,
            velocity,
            angular,
        } => Isometry2::from_parts(
            (start.translation.vector + velocity * t).into(),
            UnitComplex::new(start.rotation.angle() + angular * t),
        ),
        Motion::Twist {
            start,
            velocity,
            angular,
        } => {
            if angular == 0.0 {
                return Isometry2::from_parts(
                    (start.translation.vector + start.rotation * (velocity * t)).into(),
                    start.rotation,
                );
            }
            let center = start * Point::new(-velocity.y / angular, velocity.x / angular);
            let turn = UnitComplex::new(angular * t);
            let origin = center + turn * (Point::from(start.translation.vector) - center);
            Isometry2::from_parts(
                origin.coords.into(),
                UnitComplex::new(start.rotation.angle() + angular * t),
            )
        }
    }
}
