//! Circles and points.
//!
//! A circle is its centre (a one-point core) inflated by its radius, so
//! circle–polygon goes through the same face walk as polygon–polygon
//! ([`super::sat`]): the polygon's edge normals give the depth when the
//! centre is inside, and when it is outside the nearest face gives the exact
//! clearance, including the vertex–centre axis when the centre is in a
//! vertex region. Only circle–circle (two points) is special, and lives
//! here, together with point queries against any shape.

use super::query::{piece, piece_count, Piece};
use super::sat::{separation, Core, Separation};
use super::{length_tolerance, unit, Aabb, Circle, Point, Shape, Vector};

/// Separation between two points (the cores of two circles). Coincident
/// points overlap along `+x`: a fixed axis rather than a NaN.
pub fn point_separation(a: Point, b: Point) -> Separation {
    let d = b - a;
    let length = d.x.hypot(d.y);
    if length > 0.0 {
        Separation {
            value: length,
            axis: unit(d, length),
            closest: Some((a, b)),
        }
    } else {
        Separation {
            value: 0.0,
            axis: Vector::x(),
            closest: None,
        }
    }
}

impl Circle {
    /// The circle as a piece: its centre inflated by its radius.
    pub(crate) fn piece(&self) -> Piece<'_> {
        Piece {
            core: Core::point(&self.center),
            radius: self.radius,
            aabb: Aabb {
                min: self.center,
                max: self.center,
            },
        }
    }
}

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
