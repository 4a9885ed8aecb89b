//! A footprint under a turning twist against a fixed point, in closed form:
//! the point's circle, seen from the footprint, against its padded convex
//! pieces.
//!
//! # The point's path in the body frame
//!
//! A constant body twist `(v, ω)` with `ω != 0` turns the body about a
//! point fixed in the world, which is also fixed in the body frame: `c =
//! (−v_y/ω, v_x/ω)` (the point of the body whose velocity `v + ω × c` is
//! zero). Seen from the body, a fixed point `p` (at `q0` in the body frame
//! at `t = 0`) turns about `c` by `−ω·t`: it runs on the circle of radius
//! `ρ = |q0 − c|` about `c`, at the constant angular rate `|ω|`, in the
//! known direction. After one full turn (`2π/|ω|` seconds) it is back at
//! its start: a contact within the span, if any, happens within the first
//! turn.
//!
//! # Why the earliest crossing is the first contact
//!
//! As in `point` (the translation), a convex core `C` inflated by `r` is
//! the union of `C`, a disc of radius `r` at each vertex and the band of
//! each edge (the points whose foot on the edge falls inside it, at most
//! `r` beyond it). A path that starts outside this union is, at its first
//! contact, on the union's boundary, which lies on the discs' circles and
//! the bands' outer sides (the edges moved out by `r`). Every point of
//! those circles and segments is in the union: every crossing of the
//! path with them is a contact. So the first contact is the earliest of
//! the crossings of the point's circle with
//!
//! * each vertex's circle (radius `r`): a circle–circle intersection;
//! * each edge moved out by `r`: a circle–line intersection whose foot
//!   falls inside the edge (a quadratic, solved from the distance of `c`
//!   to the line: `s = s0 ± √((ρ − |h|)(ρ + |h|))`).
//!
//! Each crossing's angle from the start, in the direction of travel, comes
//! from one `atan2` (in `[0, 2π)`), its time is that angle over `|ω|`. A
//! compound footprint: the earliest over its pieces (its union's first
//! contact is the first contact of one of them); a circle footprint: its
//! disc's circle.
//!
//! # Tolerance
//!
//! `r` is the piece's radius plus the padding plus `tol·(1 + 1/16)`, as in
//! `point`: the crossing found is where the clearance is `tol·(1 + 1/16)`,
//! before it reaches `tol`. `tol` is `length_tolerance` of a bound of the
//! swept box (every body point runs on a circle about the world centre
//! `C`, within `|C| + |c| + R` of the origin, `R` the footprint's reach),
//! the point and the padding. The closed form is only used when the centre
//! is near (`|c| <= 16 ×` the scale of the start and end poses, the point
//! and the padding): the coordinates involved are then all within a few
//! times the scale, their rounding a few ulps of it, against a margin of
//! `tol/16 = 6e-14` of it (about 280 ulps): a crossing by at least that
//! margin is never lost to rounding (the tangent cases' square roots are
//! taken of the factored `(ρ − a)(ρ + a)`), and an angle's error (a few
//! ulps of `2π`) moves the point by far less than it. A turn so slow that
//! the centre is farther (the path nearly straight, the circle huge) is
//! left to the advancement, as is a crossing whose angle is within `1e-9`
//! of a full turn (it may be a crossing just after the start that rounding
//! put just before it: the closed form could then be late). A point within
//! `r` at the start is left to the advancement's first step, which reports
//! `query`'s contact.

use super::super::{cross, length_tolerance, unit, ConvexPolygon, Motion, Point, Shape, Vector};
use super::point::PointSwept;
use nalgebra::Isometry2;
use std::f64::consts::TAU;

/// The closed form is used when the body-frame centre is within this many
/// times the scale of the poses, the point and the padding.
const NEAR_CENTRE: f64 = 16.0;

/// A crossing whose angle is within this of a full turn is ambiguous
/// (rad): it may be just after the start.
const WRAP: f64 = 1e-9;

/// Beyond this scale, squares may overflow: left to the advancement.
const HUGE: f64 = 1e100;

/// A constant body twist `(velocity, angular)` from `start`, turning
/// (`angular != 0`): `Motion::Twist`, or a path segment whose origin does
/// not move (the same pure rotation). `None` for any other motion.
pub(super) fn turning_twist(motion: &Motion) -> Option<(Isometry2<f64>, Vector, f64)> {
    match *motion {
        Motion::Twist {
            start,
            velocity,
            angular,
        } if angular != 0.0 => Some((start, velocity, angular)),
        // Origin still, heading linear in time: the twist (0, ω).
        Motion::Interpolated {
            start,
            velocity,
            angular,
        } if angular != 0.0 && velocity == Vector::zeros() => {
            Some((start, Vector::zeros(), angular))
        }
        _ => None,
    }
}

/// The scale of the closed form's tolerance for a point of magnitude (its
/// largest absolute coordinate) at most `point_magnitude`: a bound of the
/// swept box's magnitude (every body point runs on a circle about the
/// world centre `C`, within `|C| + |c| + R` of the origin, `R` the
/// footprint's reach from its origin), the start and end poses', the
/// point's, the padding. `None` when the closed form does not apply to
/// `motion` (not a turning twist, a far centre, a huge scale). Increasing
/// in `point_magnitude`, and `Some` for a larger one when `Some` for a
/// smaller one: a point set's scale from its magnitude covers each point's.
pub(crate) fn closed_form_scale(
    footprint: &Shape,
    motion: &Motion,
    duration: f64,
    padding: f64,
    point_magnitude: f64,
) -> Option<f64> {
    let (start, velocity, angular) = turning_twist(motion)?;
    let body = footprint.aabb();
    let reach = body.min.coords.abs().sup(&body.max.coords.abs()).norm();
    let o0 = start.translation.vector;
    let o1 = motion.pose_at(duration).translation.vector;
    let base = (o0.amax().max(o1.amax()) + reach)
        .max(point_magnitude)
        .max(padding)
        .max(1.0);
    let centre = Point::new(-velocity.y / angular, velocity.x / angular);
    let lever = centre.coords.norm();
    if !(lever <= NEAR_CENTRE * base && base <= HUGE) {
        return None;
    }
    let world = start * centre;
    Some(base.max(world.coords.amax() + lever + reach))
}

/// First contact of `footprint` (body frame) moved by `motion`, the
/// constant twist `(velocity, angular)` from `start` (`angular != 0`, all
/// finite), over `[0, duration]` (`> 0`, finite), inflated by `padding`
/// (`>= 0`), with the fixed `point` (finite). `None` when the closed form
/// does not apply (a far centre, an ambiguous crossing, a huge scale):
/// the caller advances. See the module documentation.
pub(super) fn twist_point(
    footprint: &Shape,
    motion: &Motion,
    (start, velocity, angular): (Isometry2<f64>, Vector, f64),
    point: Point,
    duration: f64,
    padding: f64,
) -> Option<PointSwept> {
    let point_magnitude = point.x.abs().max(point.y.abs());
    let scale = closed_form_scale(footprint, motion, duration, padding, point_magnitude)?;
    let tol = length_tolerance(scale);
    let centre = Point::new(-velocity.y / angular, velocity.x / angular);
    let grown = padding + tol + tol / 16.0;

    let q0 = start.inverse_transform_point(&point);
    let mut arc = Arc {
        centre,
        from: q0 - centre,
        radius: (q0 - centre).norm(),
        direction: if angular > 0.0 { -1.0 } else { 1.0 },
        limit: angular.abs() * duration,
        best: None,
        ambiguous: false,
    };
    let inside = match footprint {
        Shape::Convex(p) => arc.polygon(p, q0, grown),
        Shape::Compound(c) => c
            .pieces()
            .iter()
            .try_for_each(|p| arc.polygon(p, q0, grown)),
        Shape::Circle(c) => arc.disc(c.center(), c.radius() + grown, q0),
    };
    if inside.is_err() {
        return Some(PointSwept::Start(tol));
    }
    if arc.ambiguous || !arc.radius.is_finite() {
        return None;
    }
    Some(match arc.best {
        None => PointSwept::Miss,
        Some((angle, axis)) => {
            let time = (angle / angular.abs()).min(duration);
            PointSwept::Hit {
                time,
                axis: motion.pose_at(time).rotation * axis,
            }
        }
    })
}

/// The point is within the inflated piece at the start.
struct Inside;

/// The point's circle in the body frame, and the earliest crossing so far.
struct Arc {
    centre: Point,
    /// From the centre to the point at `t = 0`.
    from: Vector,
    radius: f64,
    /// +1: counterclockwise (ω < 0), −1: clockwise.
    direction: f64,
    /// The angle travelled over the span (rad).
    limit: f64,
    /// The smallest angle of a crossing so far, with the axis there (body
    /// frame, from the footprint toward the point).
    best: Option<(f64, Vector)>,
    /// A crossing within [`WRAP`] of a full turn was seen.
    ambiguous: bool,
}

impl Arc {
    /// A crossing at `x` (on the point's circle), the contact along `axis`.
    fn crossing(&mut self, x: Point, axis: Vector) {
        let r = x - self.centre;
        let mut angle = self.direction * cross(&self.from, &r).atan2(self.from.dot(&r));
        if angle < 0.0 {
            angle += TAU;
        }
        if angle >= TAU - WRAP || angle.is_nan() {
            self.ambiguous = true; // NaN too: fail safe.
            return;
        }
        if angle <= self.limit && self.best.is_none_or(|(b, _)| angle < b) {
            self.best = Some((angle, axis));
        }
    }

    /// The crossings with the circle of `radius` about `v` (outside it at
    /// the start).
    fn circle(&mut self, v: Point, radius: f64) {
        let d = v - self.centre;
        let distance = d.norm();
        let rho = self.radius;
        if distance.is_nan()
            || distance <= 0.0
            || distance > rho + radius
            || distance < (rho - radius).abs()
        {
            return; // Concentric, apart, or one within the other.
        }
        // Along `d` from the centre, and across (clamped: rounding at a
        // tangency).
        let along = ((distance - radius) * (distance + radius) + rho * rho) / (2.0 * distance);
        let across = ((rho - along) * (rho + along)).max(0.0).sqrt();
        let e = d / distance;
        let perp = Vector::new(-e.y, e.x);
        for side in [-1.0, 1.0] {
            let x = self.centre + e * along + perp * (side * across);
            let to = x - v;
            let length = to.norm();
            let axis = if length > 0.0 { unit(to, length) } else { -e };
            self.crossing(x, axis);
        }
    }

    /// Inside the disc of `radius` about `v` at the start, else its
    /// crossings.
    fn disc(&mut self, v: Point, radius: f64, q0: Point) -> Result<(), Inside> {
        let c = (q0 - v).norm_squared() - radius * radius;
        if c.is_nan() || c <= 0.0 {
            return Err(Inside); // NaN too: fail safe.
        }
        self.circle(v, radius);
        Ok(())
    }

    /// Inside `polygon` inflated by `radius` at the start, else the
    /// crossings with its vertices' circles and its edges moved out.
    fn polygon(&mut self, polygon: &ConvexPolygon, q0: Point, radius: f64) -> Result<(), Inside> {
        let (vertices, normals) = (polygon.vertices(), polygon.normals());
        let n = vertices.len();
        // The start first (as `point`'s ray): in the core, a band or a disc.
        let mut inside_core = n >= 3;
        for (i, (v, normal)) in vertices.iter().zip(normals).enumerate() {
            let edge = vertices[if i + 1 == n { 0 } else { i + 1 }] - v;
            let f = q0 - v;
            let sep = f.dot(normal);
            let along = f.dot(&edge);
            if sep > 0.0 {
                inside_core = false;
            }
            if sep >= 0.0 && sep <= radius && along >= 0.0 && along <= edge.norm_squared() {
                return Err(Inside);
            }
            let c = f.norm_squared() - radius * radius;
            if c.is_nan() || c <= 0.0 {
                return Err(Inside);
            }
        }
        if inside_core {
            return Err(Inside);
        }
        let rho = self.radius;
        for (i, (v, normal)) in vertices.iter().zip(normals).enumerate() {
            self.circle(*v, radius);
            let edge = vertices[if i + 1 == n { 0 } else { i + 1 }] - v;
            let length = edge.norm();
            if length.is_nan() || length <= 0.0 {
                continue;
            }
            let tangent = edge / length;
            // The edge moved out: `x = base + s·tangent`, `s` in [0, length].
            let base = v + normal * radius;
            let g = base - self.centre;
            let h = g.dot(normal).abs(); // Distance from the centre to it.
            if h > rho {
                continue;
            }
            let half = ((rho - h) * (rho + h)).sqrt();
            let foot = -g.dot(&tangent);
            for s in [foot - half, foot + half] {
                if (0.0..=length).contains(&s) {
                    self.crossing(base + tangent * s, *normal);
                }
            }
        }
        Ok(())
    }
}
