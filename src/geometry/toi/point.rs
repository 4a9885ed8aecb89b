//! A footprint translating against a fixed point, in closed form: the
//! point's ray, seen from the footprint, against its padded convex pieces.
//!
//! # Why the first hit is the first contact
//!
//! In A's body frame the footprint stands still and the point moves along
//! the ray `q(t) = q0 + t·d` (`q0` the point seen from the start pose, `d`
//! minus the velocity turned into the body frame). A convex core `C`
//! inflated by `r` is the union of `C`, a disc of radius `r` at each vertex
//! and, on the outside of each edge, the band of the points whose foot on
//! the edge's line falls inside the edge and which lie at most `r` beyond
//! it. A ray that starts outside this union enters it for the first time
//! through the boundary of a disc or through the outer side of a band (a
//! band's ends lie in the discs, its inner side on `C`'s boundary, which is
//! inside the union): the first contact is the earliest of
//!
//! * each disc: `|q(t) − v|² = r²`, the smaller root (in the form without
//!   cancellation, `t = c / (−b + √(b² − a·c))`), when the point comes
//!   closer (`b < 0`);
//! * each edge: the crossing of its line moved out by `r`, when the point
//!   moves inward and the crossing's foot falls inside the edge.
//!
//! `r` is the piece's radius plus the padding plus `tol·(1 + 1/16)`: the
//! time found is when the clearance reaches `tol·(1 + 1/16)`, before it
//! reaches `tol` (the contact under the tolerance policy) by far more than
//! the rounding of these few operations (a few ulps of the coordinates,
//! against `tol = 1e-12` of them): never late, and within the `tol·(1 +
//! 1/8)` of an exact answer. A point already within `r` at the start is
//! left to the advancement, whose first step reports it with `query`'s
//! contact.

use super::super::{length_tolerance, unit, ConvexPolygon, Point, Shape, Vector};
use nalgebra::Isometry2;

/// What the closed form proves for a point under a translation.
pub(super) enum PointSwept {
    /// No contact over the span.
    Miss,
    /// First contact at `time`, touching along `axis` (fixed frame, from
    /// the footprint toward the point).
    Hit { time: f64, axis: Vector },
    /// Within the tolerance at the start: the advancement reports it, with
    /// at least this tolerance.
    Start(f64),
}

/// First contact of `footprint` (body frame) placed at `start` and moving
/// at `velocity` (fixed frame) over `[0, duration]`, inflated by `padding`
/// (`>= 0`), with the fixed `point` (finite). See the module
/// documentation.
pub(super) fn translation_point(
    footprint: &Shape,
    start: &Isometry2<f64>,
    velocity: Vector,
    point: Point,
    duration: f64,
    padding: f64,
) -> PointSwept {
    // The tolerance of `time_of_impact`'s closed form: a bound of the swept
    // box's magnitude (the origin's, plus the farthest a point of the
    // footprint can be from it), the point's, the padding.
    let o0 = start.translation.vector;
    let body = footprint.aabb();
    let reach = o0.amax().max((o0 + velocity * duration).amax())
        + body.min.coords.abs().sup(&body.max.coords.abs()).norm();
    let scale = reach.max(point.x.abs()).max(point.y.abs()).max(padding);
    let tol = length_tolerance(scale);
    let grown = padding + tol + tol / 16.0;

    let ray = Ray {
        origin: start.inverse_transform_point(&point),
        direction: -start.rotation.inverse_transform_vector(&velocity),
    };
    let first = match footprint {
        Shape::Convex(p) => ray.polygon(p, grown),
        Shape::Compound(c) => c
            .pieces()
            .iter()
            .try_fold(None, |best, p| Ok(earliest(best, ray.polygon(p, grown)?))),
        Shape::Circle(c) => ray.disc(c.center(), c.radius() + grown),
    };
    match first {
        Err(Inside) => PointSwept::Start(tol),
        Ok(Some((time, axis))) if time <= duration => PointSwept::Hit {
            time,
            axis: start.rotation * axis,
        },
        Ok(_) => PointSwept::Miss,
    }
}

/// The point is within the inflated piece at the start.
struct Inside;

/// The earliest hit so far: a time and the body-frame axis from the
/// footprint toward the point there.
type Hit = Option<(f64, Vector)>;

fn earliest(a: Hit, b: Hit) -> Hit {
    match (a, b) {
        (Some(x), Some(y)) => Some(if y.0 < x.0 { y } else { x }),
        (x, None) => x,
        (None, y) => y,
    }
}

/// The point's path in the footprint's body frame.
struct Ray {
    origin: Point,
    direction: Vector,
}

impl Ray {
    /// First entry into `polygon` inflated by `radius` (`> 0`).
    fn polygon(&self, polygon: &ConvexPolygon, radius: f64) -> Result<Hit, Inside> {
        let (vertices, normals) = (polygon.vertices(), polygon.normals());
        let n = vertices.len();
        let d = self.direction;
        let mut inside_core = n >= 3;
        let mut best = None;
        for (i, (v, normal)) in vertices.iter().zip(normals).enumerate() {
            let edge = vertices[if i + 1 == n { 0 } else { i + 1 }] - v;
            let f = self.origin - v;
            let sep = f.dot(normal);
            let along = f.dot(&edge);
            let length_squared = edge.norm_squared();
            if sep > 0.0 {
                inside_core = false;
            }
            if sep >= 0.0 && sep <= radius && along >= 0.0 && along <= length_squared {
                return Err(Inside); // In the edge's band.
            }
            let c = f.norm_squared() - radius * radius;
            if c <= 0.0 {
                return Err(Inside); // In the vertex's disc.
            }
            // The edge's line moved out by `radius`, crossed inward.
            let rate = d.dot(normal);
            if sep > radius && rate < 0.0 {
                let t = (sep - radius) / -rate;
                let foot = along + t * d.dot(&edge);
                if foot >= 0.0 && foot <= length_squared {
                    best = earliest(best, Some((t, *normal)));
                }
            }
            best = earliest(best, self.circle(f, c));
        }
        if inside_core {
            return Err(Inside);
        }
        Ok(best)
    }

    /// First entry into the disc of `radius` about `center`.
    fn disc(&self, center: Point, radius: f64) -> Result<Hit, Inside> {
        let f = self.origin - center;
        let c = f.norm_squared() - radius * radius;
        if c.is_nan() || c <= 0.0 {
            return Err(Inside); // NaN too: fail safe.
        }
        Ok(self.circle(f, c))
    }

    /// First entry into a circle, the ray's origin at `f` from its centre
    /// (`c = |f|² − r² > 0`: outside).
    fn circle(&self, f: Vector, c: f64) -> Hit {
        let d = self.direction;
        let b = f.dot(&d);
        if b.is_nan() || b >= 0.0 {
            return None; // Not coming closer.
        }
        let discriminant = b * b - d.norm_squared() * c;
        if discriminant.is_nan() || discriminant < 0.0 {
            return None; // Passes by.
        }
        let t = c / (discriminant.sqrt() - b);
        let at = f + d * t;
        let length = at.norm();
        let axis = match length > 0.0 {
            true => unit(at, length),
            false => -d.normalize(),
        };
        Some((t, axis))
    }
}
