//! The convex hull of a set of points (Andrew's monotone chain), its turns
//! decided by the exact orientation ([`orient`]): a point is dropped only
//! when it lies exactly on or inside the hull, so the hull always
//! contains every input point.

use super::predicates::orient;
use super::Point;

/// The convex hull of `points`, counter-clockwise, without repeated or
/// collinear vertices; empty when fewer than three points are finite and
/// not all collinear. Points with a NaN or infinite coordinate are
/// skipped. O(n log n); allocates the result only.
///
/// Every finite input point lies inside or on the returned polygon
/// (exact: the turns are exact signs), so a shape built from it
/// ([`Shape::polygon`](super::Shape::polygon)) covers the points.
///
/// ```
/// use sat_collision::geometry::{convex_hull, Point};
///
/// let l_shape = [
///     Point::new(0.0, 0.0), Point::new(2.0, 0.0), Point::new(2.0, 1.0),
///     Point::new(1.0, 1.0), Point::new(1.0, 2.0), Point::new(0.0, 2.0),
/// ];
/// // The notch's corner (1, 1) is inside the hull.
/// assert_eq!(convex_hull(&l_shape).len(), 5);
/// ```
pub fn convex_hull(points: &[Point]) -> Vec<Point> {
    let mut sorted: Vec<Point> = points
        .iter()
        .filter(|p| p.x.is_finite() && p.y.is_finite())
        .copied()
        .collect();
    sorted.sort_unstable_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    sorted.dedup();
    if sorted.len() < 3 {
        return Vec::new();
    }
    let mut hull: Vec<Point> = Vec::with_capacity(sorted.len() + 1);
    // Lower chain left to right, then upper chain right to left; a point
    // that does not turn strictly left is popped.
    for pass in 0..2 {
        let floor = hull.len();
        let walk: Box<dyn Iterator<Item = &Point>> = if pass == 0 {
            Box::new(sorted.iter())
        } else {
            Box::new(sorted.iter().rev())
        };
        for &p in walk {
            while hull.len() >= floor + 2
                && orient(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0
            {
                hull.pop();
            }
            hull.push(p);
        }
        // The chain's last point starts the other chain.
        hull.pop();
    }
    if hull.len() < 3 {
        hull.clear();
    }
    hull
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_with_inner_and_edge_points() {
        let points = [
            Point::new(0.0, 0.0),
            Point::new(1.0, 0.0),
            Point::new(0.5, 0.0),
            Point::new(1.0, 1.0),
            Point::new(0.5, 0.5),
            Point::new(0.0, 1.0),
            Point::new(f64::NAN, 0.0),
        ];
        let hull = convex_hull(&points);
        assert_eq!(hull.len(), 4);
        // Counter-clockwise, starting at the lowest-leftmost point.
        assert_eq!(hull[0], Point::new(0.0, 0.0));
        assert_eq!(hull[1], Point::new(1.0, 0.0));
        assert_eq!(hull[2], Point::new(1.0, 1.0));
    }

    #[test]
    fn degenerate_inputs_give_no_hull() {
        assert!(convex_hull(&[]).is_empty());
        assert!(convex_hull(&[Point::new(0.0, 0.0), Point::new(1.0, 1.0)]).is_empty());
        let line = [
            Point::new(0.0, 0.0),
            Point::new(1.0, 1.0),
            Point::new(2.0, 2.0),
        ];
        assert!(convex_hull(&line).is_empty());
    }

    #[test]
    fn every_point_is_inside_or_on_the_hull() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64 * 10.0 - 5.0
        };
        for _ in 0..200 {
            let points: Vec<Point> = (0..40).map(|_| Point::new(next(), next())).collect();
            let hull = convex_hull(&points);
            assert!(hull.len() >= 3);
            for i in 0..hull.len() {
                let (a, b) = (hull[i], hull[(i + 1) % hull.len()]);
                for &p in &points {
                    assert!(orient(a, b, p) >= 0.0, "{p:?} right of {a:?}-{b:?}");
                }
            }
        }
    }
}
