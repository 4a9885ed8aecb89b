//! A convex polygon grown by a distance: its Minkowski sum with a regular
//! octagon whose inscribed circle has that radius (so the result holds
//! every point within the distance of the polygon), built by merging the
//! two polygons' edges in angular order: O(n + 8), nothing sorted, no
//! validation to redo.

use super::predicates::orient;
use super::{ConvexPolygon, Point, Vector};

/// The most a polygon is grown by (m): far beyond any robot's world, far
/// below [`MAX_COORDINATE`](super::MAX_COORDINATE).
pub const MAX_GROWTH: f64 = 1e12;

/// The octagon's circumradius for an inscribed radius of 1 (1 / cos(π/8)),
/// with a relative margin far above the sums' rounding.
const OCTAGON_SCALE: f64 = 1.082_392_200_292_394 * (1.0 + 1e-9);

/// `polygon` grown by `by` metres: every point within `by` of it lies
/// inside the result, and every point of the result within `by / cos(π/8)`
/// (8 % more, at the corners) of it. `by` NaN or not above 0: the polygon
/// itself; above [`MAX_GROWTH`] (infinity included): grown by that, which
/// covers any place a robot can be.
///
/// The sum's vertices are each a vertex of the polygon plus one of the
/// octagon's, walked from both lowest vertices in the order of their edges'
/// directions; a vertex that does not turn left (exactly: collinear, or
/// reflex by the sums' rounding, which the 1e-9 margin of the octagon
/// dwarfs) is dropped, so the result is strictly convex.
///
/// ```
/// use sat_collision::geometry::{grown_convex, ConvexPolygon, Point};
///
/// let square = ConvexPolygon::new(&[
///     Point::new(0.0, 0.0), Point::new(1.0, 0.0), Point::new(1.0, 1.0), Point::new(0.0, 1.0),
/// ])?;
/// let grown = grown_convex(&square, 0.5);
/// assert_eq!(grown.vertices().len(), 8); // the octagon's corners at the square's
/// let (lo, hi) = (grown.aabb().min, grown.aabb().max);
/// assert!((lo.x + 0.5).abs() < 1e-6 && (hi.y - 1.5).abs() < 1e-6);
/// # Ok::<(), sat_collision::geometry::PolygonError>(())
/// ```
pub fn grown_convex(polygon: &ConvexPolygon, by: f64) -> ConvexPolygon {
    if by.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
        return polygon.clone();
    }
    let radius = by.min(MAX_GROWTH) * OCTAGON_SCALE;
    let octagon: [Vector; 8] = std::array::from_fn(|k| {
        let angle = std::f64::consts::FRAC_PI_8 + std::f64::consts::FRAC_PI_4 * k as f64;
        Vector::new(radius * angle.cos(), radius * angle.sin())
    });
    let p = polygon.vertices();
    let (n, m) = (p.len(), octagon.len());
    let (p0, o0) = (
        lowest(p.iter().copied()),
        lowest(octagon.iter().map(|v| Point::from(*v))),
    );
    let pv = |i: usize| p[(p0 + i) % n];
    let ov = |j: usize| octagon[(o0 + j) % m];
    let mut sum: Vec<Point> = Vec::with_capacity(n + m);
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        sum.push(pv(i) + ov(j));
        let turn = super::cross(&(pv(i + 1) - pv(i)), &(ov(j + 1) - ov(j)));
        let advance_p = j == m || (i < n && turn >= 0.0);
        let advance_o = i == n || (j < m && turn <= 0.0);
        if !advance_p && !advance_o {
            // Only a NaN turn: not for finite input.
            i += 1;
            j += 1;
        }
        i += usize::from(advance_p);
        j += usize::from(advance_o);
    }
    // The first vertex is the sum's lowest: on the hull. A scan in the
    // walk's (angular) order drops what does not turn left.
    let mut hull: Vec<Point> = Vec::with_capacity(sum.len());
    for v in sum {
        while hull.len() >= 2 && orient(hull[hull.len() - 2], hull[hull.len() - 1], v) <= 0.0 {
            hull.pop();
        }
        hull.push(v);
    }
    while hull.len() >= 3 && orient(hull[hull.len() - 2], hull[hull.len() - 1], hull[0]) <= 0.0 {
        hull.pop();
    }
    ConvexPolygon::from_ccw_convex(hull)
}

/// The index of the lowest point (least y, then least x).
fn lowest(points: impl Iterator<Item = Point>) -> usize {
    points
        .enumerate()
        .min_by(|(_, a), (_, b)| a.y.total_cmp(&b.y).then(a.x.total_cmp(&b.x)))
        .map_or(0, |(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{distance_to_point, Shape};

    fn random_convex(seed: &mut u64) -> ConvexPolygon {
        let mut next = || {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            (*seed >> 11) as f64 / (1u64 << 53) as f64
        };
        loop {
            let k = 3 + (next() * 10.0) as usize;
            let (cx, cy, r) = (
                next() * 20.0 - 10.0,
                next() * 20.0 - 10.0,
                0.1 + next() * 2.0,
            );
            let mut angles: Vec<f64> = (0..k).map(|_| next() * std::f64::consts::TAU).collect();
            angles.sort_by(f64::total_cmp);
            let points: Vec<Point> = angles
                .iter()
                .map(|a| Point::new(cx + r * a.cos(), cy + r * a.sin()))
                .collect();
            if let Ok(p) = ConvexPolygon::new(&points) {
                return p;
            }
        }
    }

    #[test]
    fn every_point_within_the_distance_is_inside_and_none_much_beyond() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        for case in 0..500 {
            let polygon = random_convex(&mut seed);
            let by = [0.001, 0.05, 0.3, 2.0, 40.0][case % 5];
            let grown = grown_convex(&polygon, by);
            let original = Shape::Convex(polygon.clone());
            let outer = Shape::Convex(grown.clone());
            // The grown polygon's vertices: within by / cos(π/8) of the
            // original, and not nearer than by (each is a corner).
            for v in grown.vertices() {
                let d = distance_to_point(&original, *v);
                assert!(
                    d <= by * OCTAGON_SCALE * (1.0 + 1e-9) + 1e-9,
                    "case {case}: {d} > {by}"
                );
                assert!(d >= by * (1.0 - 1e-9) - 1e-9, "case {case}: {d} < {by}");
            }
            // Points at `by` from the original, all round: inside.
            for v in polygon.vertices() {
                for k in 0..64 {
                    let a = std::f64::consts::TAU * k as f64 / 64.0;
                    let q = Point::new(v.x + by * a.cos(), v.y + by * a.sin());
                    assert!(
                        crate::geometry::contains_point(&outer, q),
                        "case {case}: {q:?} at {by} from a vertex is outside"
                    );
                }
            }
        }
    }

    #[test]
    fn nothing_to_grow_gives_the_polygon() {
        let mut seed = 7;
        let polygon = random_convex(&mut seed);
        assert_eq!(grown_convex(&polygon, 0.0), polygon);
        assert_eq!(grown_convex(&polygon, -1.0), polygon);
        assert_eq!(grown_convex(&polygon, f64::NAN), polygon);
        let everywhere = grown_convex(&polygon, f64::INFINITY);
        assert!(everywhere.aabb().max.x >= MAX_GROWTH);
    }
}
