//! Point queries against any shape: distance and containment, through the
//! same pieces (cores inflated by a radius) as the shape–shape queries.

use super::query::{piece, piece_count};
use super::sat::{separation, Core};
use super::{length_tolerance, Point, Shape};

/// Euclidean distance from `point` to the closed `shape`; 0 inside or on it.
pub fn distance_to_point(shape: &Shape, point: Point) -> f64 {
    let mut nearest = f64::INFINITY;
    for i in 0..piece_count(shape) {
        let p = piece(shape, i);
        let value = separation(p.core, Core::point(&point)).value;
        nearest = nearest.min((value - p.radius).max(0.0));
    }
    nearest
}

/// True when `point` is in the closed `shape`, or within the tolerance of
/// its boundary (see the module-level tolerance policy).
pub fn contains_point(shape: &Shape, point: Point) -> bool {
    let scale = shape
        .aabb()
        .magnitude()
        .max(point.x.abs())
        .max(point.y.abs());
    let tol = length_tolerance(scale);
    (0..piece_count(shape)).any(|i| {
        let p = piece(shape, i);
        separation(p.core, Core::point(&point)).value - p.radius <= tol
    })
}
