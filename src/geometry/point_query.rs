//! Point queries against any shape: distance and containment, through the
//! same pieces (cores inflated by a radius) as the shape–shape queries; the
//! contact of a padded footprint with a point ([`point_contact`]).

use super::query::{piece, piece_count, query_pieces, Contact, PointTarget};
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

/// The contact of `footprint` inflated by `padding` (A) with `point` (B, an
/// obstacle of zero size): [`query`](super::query()) with B a point, the
/// same conventions and tolerance policy
/// (`tol = length_tolerance(max(|footprint|, |point|, padding))`).
///
/// * `Colliding { depth, axis }` when the point is in the padded footprint
///   or within `tol` of it (touching: depth 0): `depth` is how far inside it
///   is (for a convex footprint, its distance to the padded boundary; for a
///   concave one the deepest piece's, a lower bound, as in
///   [`query`](super::query())); the MTV `-axis * depth` moves the
///   footprint off the point.
/// * `Apart { distance, axis, closest: Some((on_footprint, point)) }`: the
///   exact clearance from the padded footprint to the point, the unit axis
///   from the footprint toward it.
///
/// A point that is not finite cannot be measured: colliding (fail safe).
pub fn point_contact(footprint: &Shape, point: Point, padding: f64) -> Contact {
    query_pieces(footprint, &PointTarget(point), padding)
}
