//! Time of impact: the first time a moving footprint touches an obstacle.
//!
//! Shape A is given in its own (body) frame and placed by a [`Motion`] at
//! every time `t` in `[0, duration]`; shape B does not move. The answer is
//! the first `t` at which A, inflated by `padding`, touches or overlaps B,
//! under the tolerance policy of [`super::query`](mod@super::query): touching counts, and a
//! clearance `<= tol` is touching, with one tolerance for the whole motion,
//!
//! ```text
//! tol = length_tolerance(max(|swept box of A|, |B|, padding))
//! ```
//!
//! (`|X|` the largest absolute coordinate of a box), which is never below the
//! tolerance [`query`](super::query()) uses at any single pose of the motion.
//!
//! # Method
//!
//! Every pair of convex pieces (A's placed piece, B's piece; a circle is a
//! point core with a radius, padding adds to A's radius) is advanced
//! conservatively from `t = 0`: at `t_k` the exact clearance `d` between the
//! pieces and the unit direction `n` of their closest points come from the
//! SAT core ([`super::sat::separation`]). The gap *along the fixed axis `n`*
//! is a lower bound of the clearance at every later time, and it equals `d`
//! at `t_k`; each vertex `x` of A's core approaches B along `n` at most at
//! `c1 + c2·s` after `s` seconds, with `c1 = n·ẋ(t_k)` (its exact rate now)
//! and `c2 = |ẍ| <= ω²·|x − origin| (+ |ω|·|v| for a twist)`. The next time
//! `t_k + Δ` is the largest for which no vertex can have closed its own gap
//! down to `tol` (`c1·Δ + c2·Δ²/2 <= gap − tol`, the vertex's gap being `d`
//! plus how far it lies behind A's support along `n`). So the clearance stays
//! above `tol` on `[t_k, t_k + Δ]` and **no step ever passes the first
//! contact**. A pair stops when `d <= tol·(1 + 1/8)`; pairs are only
//! re-measured when their own bound runs out, and the whole query starts
//! with a swept-box screening of the pairs when there are several.
//!
//! * **Two polygons, pure translation**: in closed form, without the
//!   advancement: a swept SAT over the face normals of `B ⊕ −A` (walked in
//!   angular order, as for a Minkowski sum: one support search, then one
//!   comparison per face; O(n + m), nothing placed or allocated) gives the
//!   latest entry time over the faces, a lower bound of the contact (and an
//!   empty interval a proven miss); when the entry face's support sets
//!   overlap across the normal there, that time *is* the contact. Only an
//!   entry through a rounded corner (padding, or the tolerance) is left to
//!   the advancement below, from that time on.
//! * **Pure translation** (`angular == 0`): all vertices move alike, `c2 = 0`
//!   and the step is `(d − tol) / (n·v)`: a Newton step on the clearance,
//!   which is a convex function of `t` along a straight motion (the distance
//!   from a point on a line to the convex Minkowski difference `B ⊕ −A`,
//!   minus the radii). Newton from the left on a convex decreasing function
//!   never overshoots its root and converges to it: the first contact is
//!   **exact** (clearance within `tol·(1 + 1/8)`, never past the contact),
//!   flat contacts in one step, corner contacts quadratically; only a
//!   grazing contact (a double root) converges linearly, and still within
//!   [`MAX_ADVANCEMENT_STEPS`]. `n·v <= 0` proves the pair never meets.
//! * **With rotation**: the same advancement with the second-order bound
//!   above: a **conservative bound**, never later than the true first
//!   contact (up to the tolerance), which converges to it (quadratically
//!   near the contact, where `Δ` shrinks and the bound tends to the support
//!   vertex's true rate). `exact` is true when it converged to touching
//!   within [`MAX_ADVANCEMENT_STEPS`]; otherwise the time reached is reported
//!   with `exact: false`: a contact may happen there, none happens before.
//! * Already touching or overlapping at `t = 0`: time 0 and the contact of
//!   [`query`](super::query()) (depth and MTV).
//!
//! The reported contact is [`query`](super::query())'s at the reported time, A placed
//! there. When the advancement converged (clearance `<= tol·(1 + 1/8)` with
//! the motion's tolerance), [`query`](super::query()), whose tolerance is that of the single
//! pose, can still see a gap of about `tol`: the contact is then reported as
//! touching (`Colliding` with depth 0) along [`query`](super::query())'s axis.
//!
//! # Failing safe
//!
//! A motion or a duration that is NaN or infinite cannot be advanced: the
//! answer is an impact at time 0 with `exact: false` (stop now), with the
//! contact at the start pose when that pose is finite. A negative duration
//! is 0 (only the start pose is checked); padding follows [`query`](super::query()) (NaN or
//! negative is none).
//!
//! # Cost
//!
//! No allocation in steady state: A's pieces are placed into a per-thread
//! scratch buffer that keeps its capacity across calls. One SAT clearance
//! (O(n + m)) per piece pair and step; a flat contact under translation
//! takes two steps.

use super::query::{piece, piece_count, query_placed, Contact, Piece};
use super::sat::{separation, Core};
use super::{cross, length_tolerance, Aabb, Circle, ConvexPolygon, Point, Shape, Vector};
use nalgebra::{Isometry2, UnitComplex};
use std::cell::RefCell;
use std::f64::consts::{PI, TAU};

/// Most advancement steps before giving up on convergence: the time
/// reached is then reported as a (conservative) contact, `exact: false`.
pub const MAX_ADVANCEMENT_STEPS: usize = 256;

/// A pair has converged to touching when its clearance is at most
/// `tol * (1 + CONVERGED)`.
pub const CONVERGED: f64 = 0.125;

/// A planar rigid motion of a body frame over time, starting at `start`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Motion {
    /// The origin moves along a straight line at constant `velocity` (in
    /// the fixed frame, m/s) while the heading turns at `angular` rad/s
    /// about the origin: a path segment, both linear in time.
    Interpolated {
        start: Isometry2<f64>,
        velocity: Vector,
        angular: f64,
    },
    /// A constant body twist: `velocity` (m/s) is in the body frame, the
    /// body turns at `angular` rad/s; the origin moves on an arc (a
    /// rotation about a fixed point when `angular != 0`).
    Twist {
        start: Isometry2<f64>,
        velocity: Vector,
        angular: f64,
    },
}

impl Motion {
    /// From pose `from` to pose `to` in `duration` seconds (`> 0`): the
    /// origin along the straight line, the yaw the short way round.
    pub fn segment(from: &Isometry2<f64>, to: &Isometry2<f64>, duration: f64) -> Motion {
        let delta_yaw = (from.rotation.inverse() * to.rotation).angle();
        let (velocity, angular) = if duration > 0.0 {
            (
                (to.translation.vector - from.translation.vector) / duration,
                delta_yaw / duration,
            )
        } else {
            (Vector::zeros(), 0.0)
        };
        Motion::Interpolated {
            start: *from,
            velocity,
            angular,
        }
    }

    /// A constant body twist `(vx, vy, wz)` from `start`.
    pub fn twist(start: &Isometry2<f64>, velocity: Vector, angular: f64) -> Motion {
        Motion::Twist {
            start: *start,
            velocity,
            angular,
        }
    }

    pub fn start(&self) -> &Isometry2<f64> {
        match self {
            Motion::Interpolated { start, .. } | Motion::Twist { start, .. } => start,
        }
    }

    /// Turn rate (rad/s).
    pub fn angular(&self) -> f64 {
        match *self {
            Motion::Interpolated { angular, .. } | Motion::Twist { angular, .. } => angular,
        }
    }

    /// Speed of the origin (m/s), constant in both kinds.
    pub fn speed(&self) -> f64 {
        match self {
            Motion::Interpolated { velocity, .. } | Motion::Twist { velocity, .. } => {
                velocity.norm()
            }
        }
    }

    /// No rotation: every point of the body moves along the same straight
    /// line at the same velocity.
    pub fn is_translation(&self) -> bool {
        self.angular() == 0.0
    }

    /// The pose of the body frame at time `t`.
    pub fn pose_at(&self, t: f64) -> Isometry2<f64> {
        match *self {
            Motion::Interpolated {
                start,
                velocity,
                angular,
            } => Isometry2::from_parts(
                (start.translation.vector + velocity * t).into(),
                UnitComplex::new(angular * t) * start.rotation,
            ),
            Motion::Twist {
                start,
                velocity,
                angular,
            } => {
                let x = angular * t;
                // sin(x)/w and (1 - cos(x))/w, stable for small w.
                let half = 0.5 * x;
                let (sinc, sinc_half) = (sinc(x), sinc(half));
                let s = t * sinc;
                let c = t * half * sinc_half * sinc_half;
                let body = Vector::new(
                    s * velocity.x - c * velocity.y,
                    c * velocity.x + s * velocity.y,
                );
                Isometry2::from_parts(
                    (start.translation.vector + start.rotation * body).into(),
                    start.rotation * UnitComplex::new(x),
                )
            }
        }
    }

    /// The same motion seen from another fixed frame: `frame` takes points
    /// of the motion's frame to the other.
    pub fn transformed(&self, frame: &Isometry2<f64>) -> Motion {
        match *self {
            Motion::Interpolated {
                start,
                velocity,
                angular,
            } => Motion::Interpolated {
                start: frame * start,
                velocity: frame.rotation * velocity,
                angular,
            },
            Motion::Twist {
                start,
                velocity,
                angular,
            } => Motion::Twist {
                start: frame * start,
                velocity,
                angular,
            },
        }
    }

    /// Every number of the motion is finite (and the rotation a unit
    /// complex number of finite parts).
    pub fn is_finite(&self) -> bool {
        let (start, velocity, angular) = match self {
            Motion::Interpolated {
                start,
                velocity,
                angular,
            }
            | Motion::Twist {
                start,
                velocity,
                angular,
            } => (start, velocity, *angular),
        };
        start.translation.vector.iter().all(|x| x.is_finite())
            && start.rotation.re.is_finite()
            && start.rotation.im.is_finite()
            && velocity.iter().all(|x| x.is_finite())
            && angular.is_finite()
    }

    /// Velocity of the body origin (fixed frame, m/s) at the pose `pose`
    /// of this motion.
    fn origin_velocity(&self, pose: &Isometry2<f64>) -> Vector {
        match *self {
            Motion::Interpolated { velocity, .. } => velocity,
            Motion::Twist { velocity, .. } => pose.rotation * velocity,
        }
    }

    /// A box holding `shape` (in the body frame) inflated by `padding` at
    /// every pose over `[0, duration]` (a negative duration is 0).
    ///
    /// The box of a swept polygon is the box of its swept vertices, so each
    /// vertex's path is bounded on its own:
    /// * translation: the boxes of the start and end poses (exact);
    /// * twist: an arc about the fixed centre of rotation, exact (its end
    ///   points plus the circle's axis extremes within the swept angle; for
    ///   a turn below 1e-3 rad, whose centre is far, the chord's box grown
    ///   by the sagitta `chord/2 · tan(angle/4)`);
    /// * turning path segment: cut into spans of at most 5.6° (64 at most),
    ///   on each the box of the origin's segment plus the box of the
    ///   vertex's arc about the origin (a sum of boxes: over by at most the
    ///   smaller of the two per span).
    ///
    /// Grown by `1e-14` of the coordinates against rounding. A non-finite
    /// motion, duration or padding gives the infinite box.
    pub fn swept_aabb(&self, shape: &Shape, padding: f64, duration: f64) -> Aabb {
        let padding = if padding > 0.0 { padding } else { 0.0 };
        if !(self.is_finite() && duration.is_finite() && padding.is_finite()) {
            return EVERYWHERE;
        }
        let sweep = Sweep::new(self, duration.max(0.0), 64);
        let bound = match shape {
            Shape::Convex(p) => sweep.points(p.vertices()),
            Shape::Compound(c) => sweep.points(c.outline()),
            Shape::Circle(c) => sweep
                .points(std::slice::from_ref(&c.center))
                .inflated(c.radius),
        };
        bound.inflated(padding)
    }
}

const EVERYWHERE: Aabb = Aabb {
    min: Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY),
    max: Point::new(f64::INFINITY, f64::INFINITY),
};

/// The poses at both ends of `[0, duration]` and what bounds a body point's
/// path in between.
struct Sweep {
    start: Isometry2<f64>,
    end: Isometry2<f64>,
    /// Angle turned (rad, signed).
    angle: f64,
    about: About,
}

enum About {
    /// No rotation: straight paths.
    Translation,
    /// A path segment, cut into `pieces` equal spans: on each, the box of
    /// the origin's segment plus that of the arc about the moving origin.
    Origin {
        velocity: Vector,
        duration: f64,
        pieces: usize,
    },
    /// A twist: an arc about this fixed point.
    Center(Point),
}

impl Sweep {
    /// `pieces`: at most how many spans a turning path segment is cut into
    /// (one per 5.6° turned).
    fn new(motion: &Motion, duration: f64, pieces: usize) -> Sweep {
        let start = *motion.start();
        let end = motion.pose_at(duration);
        let angle = motion.angular() * duration;
        let about = if angle == 0.0 {
            About::Translation
        } else {
            match *motion {
                Motion::Interpolated { velocity, .. } => About::Origin {
                    velocity,
                    duration,
                    // `as` saturates (and the angle is finite here).
                    pieces: ((angle.abs() / (PI / 32.0)).ceil() as usize).clamp(1, pieces.max(1)),
                },
                Motion::Twist {
                    velocity, angular, ..
                } => About::Center(start * Point::new(-velocity.y / angular, velocity.x / angular)),
            }
        };
        Sweep {
            start,
            end,
            angle,
            about,
        }
    }

    /// A box of the path of body point `p`.
    fn point(&self, p: &Point) -> Aabb {
        match self.about {
            About::Translation => two_points(self.start * p, self.end * p),
            About::Origin {
                velocity,
                duration,
                pieces,
            } => {
                let origin = self.start.translation.vector;
                let at = |i: usize| {
                    let t = duration * i as f64 / pieces as f64;
                    let turn = UnitComplex::new(self.angle * i as f64 / pieces as f64);
                    (
                        Point::from(origin + velocity * t),
                        Point::from(turn * (self.start.rotation * p.coords)),
                    )
                };
                let angle = self.angle / pieces as f64;
                let (mut o0, mut u0) = at(0);
                let mut bound: Option<Aabb> = None;
                for i in 1..=pieces {
                    let (o1, u1) = at(i);
                    let path = two_points(o0, o1);
                    let arc = arc_box(Point::origin(), u0, u1, angle);
                    let sum = Aabb {
                        min: path.min + arc.min.coords,
                        max: path.max + arc.max.coords,
                    };
                    bound = Some(bound.map_or(sum, |b| b.union(&sum)));
                    (o0, u0) = (o1, u1);
                }
                let bound = bound.unwrap_or(EVERYWHERE);
                bound.inflated(1e-14 * bound.magnitude())
            }
            About::Center(center) => arc_box(center, self.start * p, self.end * p, self.angle),
        }
    }

    /// A box of the paths of the body points `points` (not empty).
    fn points(&self, points: &[Point]) -> Aabb {
        let mut iter = points.iter();
        let Some(first) = iter.next() else {
            return EVERYWHERE;
        };
        let bound = iter.fold(self.point(first), |b, p| b.union(&self.point(p)));
        bound.inflated(1e-14 * bound.magnitude())
    }
}

fn two_points(p: Point, q: Point) -> Aabb {
    Aabb {
        min: p.inf(&q),
        max: p.sup(&q),
    }
}

/// A box of the arc about `center` from `x0` to `x1`, turning by `angle`
/// (signed, rad).
fn arc_box(center: Point, x0: Point, x1: Point, angle: f64) -> Aabb {
    let mut bound = two_points(x0, x1);
    let sweep = angle.abs();
    if sweep <= 1e-3 {
        // The arc stays within its sagitta of the chord and projects onto
        // it; no need of the centre, far away for a slow turn (whose
        // coordinates would cost precision).
        let chord = (x1 - x0).norm();
        let sagitta = 0.5 * chord * (0.25 * sweep).tan();
        let margin = 1e-14 * (x0.coords.amax().max(x1.coords.amax()) + chord);
        return bound.inflated(sagitta + margin);
    }
    let r0 = x0 - center;
    let rho = r0.norm();
    for u in [Vector::x(), Vector::y(), -Vector::x(), -Vector::y()] {
        // Angle turned from r0 to u in the direction of the motion.
        let mut delta = cross(&r0, &u).atan2(r0.dot(&u));
        if angle < 0.0 {
            delta = -delta;
        }
        if delta < 0.0 {
            delta += TAU;
        }
        if delta <= sweep {
            let e = center + u * rho;
            bound = bound.union(&two_points(e, e));
        }
    }
    bound.inflated(1e-14 * (center.coords.amax() + rho))
}

fn sinc(x: f64) -> f64 {
    if x.abs() < 1e-4 {
        1.0 - x * x / 6.0
    } else {
        x.sin() / x
    }
}

/// Farthest point of `shape` from its frame's origin (m).
pub fn body_radius(shape: &Shape) -> f64 {
    match shape {
        Shape::Circle(c) => c.center().coords.norm() + c.radius(),
        Shape::Convex(p) => p
            .vertices()
            .iter()
            .map(|v| v.coords.norm())
            .fold(0.0, f64::max),
        Shape::Compound(c) => c
            .outline()
            .iter()
            .map(|v| v.coords.norm())
            .fold(0.0, f64::max),
    }
}

/// First contact of a moving shape with a fixed one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Impact {
    /// Time of first contact (s) in `[0, duration]`; 0 when already
    /// touching at the start.
    pub time: f64,
    /// The contact at `time` (A placed at `motion.pose_at(time)`), in the
    /// fixed frame: [`query`](super::query())'s depth and MTV when overlapping at the
    /// start, a touch (depth 0) when the advancement converged, [`query`](super::query())'s
    /// answer (possibly a clearance) when it did not (`exact: false`).
    pub contact: Contact,
    /// True when `time` is the first contact within the tolerance (the
    /// clearance there is at most `tol·(1 + 1/8)`, and above `tol` at every
    /// earlier time); false when it is only a lower bound (never later than
    /// the contact): the step cap was reached, or the input was unusable.
    pub exact: bool,
    /// Advancement steps taken (clearance evaluations of the pairs due).
    pub steps: u32,
}

/// Per-thread buffers: A's pieces placed at the current time, and the time
/// until which each piece pair is proven apart.
#[derive(Default)]
struct Scratch {
    placed: Vec<ConvexPolygon>,
    next: Vec<f64>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// The first time in `[0, duration]` at which `a` (body frame) placed by
/// `motion`, inflated by `padding`, touches `b` (fixed frame); `None` when
/// it does not. Exact for a translation, a lower bound converging to the
/// contact with rotation: see the [module documentation](self).
pub fn time_of_impact(
    a: &Shape,
    motion: &Motion,
    duration: f64,
    b: &Shape,
    padding: f64,
) -> Option<Impact> {
    let padding = if padding > 0.0 { padding } else { 0.0 };
    let mut from = (0.0, 0.0);
    if let (Shape::Convex(pa), Shape::Convex(pb)) = (a, b) {
        if motion.angular() == 0.0 && motion.is_finite() && duration > 0.0 && duration.is_finite() {
            // The common case in closed form: two polygons, a translation.
            let start = motion.start();
            let velocity = motion.origin_velocity(start);
            // A bound of the swept box's magnitude: the origin's, plus
            // the farthest a vertex can be from it.
            let o0 = start.translation.vector;
            let reach = (o0.amax().max((o0 + velocity * duration).amax()))
                + pa.aabb()
                    .min
                    .coords
                    .abs()
                    .sup(&pa.aabb().max.coords.abs())
                    .norm();
            let tol = length_tolerance(reach.max(pb.aabb().magnitude()).max(padding));
            match translation_convex(pa, start, pb, velocity, duration, padding + tol, tol / 16.0) {
                Swept::Miss => return None,
                Swept::Hit { time, axis } => {
                    return Some(Impact {
                        time,
                        contact: Contact::Colliding { depth: 0.0, axis },
                        exact: true,
                        steps: 1,
                    })
                }
                Swept::From(time) => from = (time, tol),
            }
        }
    }
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => impact(&mut scratch, a, motion, duration, b, padding, from),
        Err(_) => impact(
            &mut Scratch::default(),
            a,
            motion,
            duration,
            b,
            padding,
            from,
        ),
    })
}

/// Places piece `index` of A at `pose` (into `placed` or `circle`): the
/// piece (not inflated by the padding) and its core's vertices.
fn place<'p>(
    a: &Shape,
    index: usize,
    pose: &Isometry2<f64>,
    placed: &'p mut [ConvexPolygon],
    circle: &'p mut Circle,
) -> (Piece<'p>, &'p [Point]) {
    let (slot, source) = match a {
        Shape::Convex(p) => (&mut placed[0], p),
        Shape::Compound(c) => (&mut placed[index], &c.pieces()[index]),
        Shape::Circle(c) => {
            *circle = Circle {
                center: pose * c.center,
                radius: c.radius,
            };
            let circle: &'p Circle = circle;
            return (circle.piece(), std::slice::from_ref(&circle.center));
        }
    };
    slot.set_transformed(source, pose);
    let slot: &'p ConvexPolygon = slot;
    (polygon_piece(slot), slot.vertices())
}

fn polygon_piece(polygon: &ConvexPolygon) -> Piece<'_> {
    Piece {
        core: Core::polygon(polygon),
        radius: 0.0,
        aabb: *polygon.aabb(),
    }
}

/// Reported when nothing can be placed: colliding (stop).
const FAIL_SAFE: Contact = Contact::Colliding {
    depth: 0.0,
    axis: Vector::new(1.0, 0.0),
};

/// [`query`](super::query()) with A placed at `pose`, without building the placed shape.
fn contact_at(
    a: &Shape,
    pose: &Isometry2<f64>,
    placed: &mut [ConvexPolygon],
    b: &Shape,
    padding: f64,
) -> Contact {
    let count = piece_count(a);
    let mut circle = Circle {
        center: Point::origin(),
        radius: 0.0,
    };
    let mut magnitude: f64 = 0.0;
    match a {
        Shape::Convex(p) => {
            placed[0].set_transformed(p, pose);
            magnitude = placed[0].aabb().magnitude();
        }
        Shape::Compound(c) => {
            for (slot, source) in placed.iter_mut().zip(c.pieces()) {
                slot.set_transformed(source, pose);
                magnitude = magnitude.max(slot.aabb().magnitude());
            }
        }
        Shape::Circle(c) => {
            circle = Circle {
                center: pose * c.center,
                radius: c.radius,
            };
            magnitude = circle.aabb().magnitude();
        }
    }
    let tol = length_tolerance(magnitude.max(b.aabb().magnitude()).max(padding));
    let placed: &[ConvexPolygon] = placed;
    let circle = &circle;
    match a {
        Shape::Circle(_) => query_placed(count, |_| circle.piece(), b, padding, tol),
        _ => query_placed(count, |i| polygon_piece(&placed[i]), b, padding, tol),
    }
}

/// Largest `Δ >= 0` with `c1·Δ + c2·Δ²/2 <= slack` (`c2 >= 0`): infinite
/// when the vertex never closes its gap.
#[inline]
fn reach(c1: f64, c2: f64, slack: f64) -> f64 {
    if slack.is_nan() || slack <= 0.0 || c1.is_nan() || c2.is_nan() {
        return 0.0; // NaN rates (overflowing input): no proven step.
    }
    if c2 <= 0.0 {
        return if c1 > 0.0 { slack / c1 } else { f64::INFINITY };
    }
    let root = (c1 * c1 + 2.0 * c2 * slack).sqrt();
    // The two forms of the positive root, each free of cancellation on
    // its side.
    if c1 >= 0.0 {
        2.0 * slack / (c1 + root)
    } else {
        (root - c1) / c2
    }
}

/// How long a pair at clearance `d` along the unit axis `n` (from A toward
/// B) is proven to stay above `tol`: every vertex of A's core is bounded
/// on its own (see the module documentation).
#[inline]
fn proven_apart(
    vertices: &[Point],
    origin: &Point,
    velocity: &Vector,
    omega: f64,
    twist_c2: f64,
    n: &Vector,
    slack: f64,
) -> f64 {
    let base = n.dot(velocity);
    if omega == 0.0 {
        return reach(base, 0.0, slack);
    }
    // A's support along n: each vertex's gap is `slack` plus how far it
    // lies behind it.
    let support = vertices
        .iter()
        .fold(f64::NEG_INFINITY, |m, x| m.max(x.coords.dot(n)));
    let omega2 = omega * omega;
    vertices.iter().fold(f64::INFINITY, |best, x| {
        let lever = x - origin;
        let c1 = base + omega * cross(&lever, n);
        let c2 = omega2 * lever.norm() + twist_c2;
        best.min(reach(c1, c2, slack + (support - x.coords.dot(n))))
    })
}

/// What the swept SAT of two polygons under a translation proves.
enum Swept {
    /// No contact over the span.
    Miss,
    /// First contact at `time`, touching along `axis` (from A toward B).
    Hit { time: f64, axis: Vector },
    /// No contact before `time`; the advancement has to finish.
    From(f64),
}

/// The face of the entry so far: whose edge, and the other polygon's
/// support vertex.
#[derive(Clone, Copy)]
enum Face {
    A { edge: usize, support: usize },
    B { edge: usize, support: usize },
}

/// Swept SAT of polygon `a` (placed at the start, moving at `velocity`)
/// against the fixed polygon `b`, both inflated together by `radius` (the
/// padding plus the tolerance), over `[0, duration]`.
///
/// Along every edge normal `u` of either polygon (the face normals of the
/// Minkowski difference `B ⊕ −A`) the gap between the projections changes
/// linearly in time; the shapes can only be within `radius` while every gap
/// is, so the latest entry time is a lower bound of the first contact (the
/// normals bound `B ⊕ −A` grown by `radius` with sharp corners, which holds
/// the rounded one), and an empty interval proves a miss. At that time the
/// entry face's support sets (an edge and the other polygon's support
/// vertex, or the vertices within `eps` of its support line) are `radius`
/// apart along `u`; when their extents across `u` overlap, the shapes are
/// within `radius + eps`: the contact itself. Otherwise the entry is through
/// a rounded corner, which the advancement finishes from there. One
/// support walk per polygon: O(n + m), no allocation.
fn translation_convex(
    a: &ConvexPolygon,
    start: &Isometry2<f64>,
    b: &ConvexPolygon,
    velocity: Vector,
    duration: f64,
    radius: f64,
    eps: f64,
) -> Swept {
    let (av, an) = (a.vertices(), a.normals());
    let (bv, bn) = (b.vertices(), b.normals());
    let (n, m) = (av.len(), bv.len());
    if n < 3 || m < 3 || an.len() != n || bn.len() != m {
        return Swept::From(0.0);
    }
    let rotation = start.rotation;
    let (mut enter, mut exit) = (0.0_f64, duration);
    let mut face = None;
    // One gap `sep` at t = 0 closing at `rate` (m/s): the interval where it
    // stays within `radius`.
    let mut gap = |sep: f64, rate: f64, which: Face| -> bool {
        if sep > radius {
            if rate <= 0.0 {
                return false;
            }
            let t = (sep - radius) / rate;
            if t > enter {
                enter = t;
                face = Some(which);
            }
        } else if rate < 0.0 {
            exit = exit.min((radius - sep) / -rate);
        }
        enter <= exit
    };
    // The faces of B ⊕ −A in angular order (the edges of A and of B merged
    // by the angle of their normals, as for a Minkowski sum): each face's
    // support vertex on the other polygon is the one whose normal cone the
    // face's normal crosses, so it moves forward with the walk; one search
    // for the first, then one comparison per face. A is placed vertex by
    // vertex as the walk reaches it (no buffer).
    let first = start * av[0];
    let mut jb = lowest(bv, &(rotation * an[0]));
    let mut b_left = m;
    for ka in 0..n {
        let u = rotation * an[ka];
        let corner = if ka == 0 { first } else { start * av[ka] };
        // B's edges whose normal comes before A's edge `ka`, against A's
        // vertex `ka` (whose cone they cross).
        while b_left > 0 && cross(&u, &bn[jb]) > 0.0 {
            let normal = &bn[jb];
            let sep = normal.dot(&(corner - bv[jb]));
            if !gap(
                sep,
                -velocity.dot(normal),
                Face::B {
                    edge: jb,
                    support: ka,
                },
            ) {
                return Swept::Miss;
            }
            b_left -= 1;
            jb = if jb + 1 == m { 0 } else { jb + 1 };
        }
        // A's edge `ka` against B's current support vertex.
        let sep = u.dot(&(bv[jb] - corner));
        if !gap(
            sep,
            velocity.dot(&u),
            Face::A {
                edge: ka,
                support: jb,
            },
        ) {
            return Swept::Miss;
        }
    }
    // The rest of B's edges, up to a full turn: against A's vertex 0.
    for _ in 0..b_left {
        let normal = &bn[jb];
        let sep = normal.dot(&(first - bv[jb]));
        if !gap(
            sep,
            -velocity.dot(normal),
            Face::B {
                edge: jb,
                support: 0,
            },
        ) {
            return Swept::Miss;
        }
        jb = if jb + 1 == m { 0 } else { jb + 1 };
    }
    let Some(face) = face else {
        return Swept::From(0.0); // Within `radius` at the start already.
    };
    // Extents across the entry normal (from A toward B) of both support
    // sets, A moved to the entry time.
    let moved = Isometry2::from_parts(
        (start.translation.vector + velocity * enter).into(),
        rotation,
    );
    let (axis, a_range, b_range) = match face {
        Face::A { edge, support } => {
            let u = rotation * an[edge];
            let next = if edge + 1 == n { 0 } else { edge + 1 };
            let across = perp(&u);
            let a_range = range(
                across.dot(&(moved * av[edge]).coords),
                across.dot(&(moved * av[next]).coords),
            );
            // B's vertices on its support line: the support and its
            // neighbours within `eps` of it (an edge parallel to A's).
            let level = bv[support].coords.dot(&u) + eps;
            let on_line = |i: usize| bv[i].coords.dot(&u) <= level;
            let b_range = tied_range(bv, support, |p| across.dot(&p.coords), on_line);
            (u, a_range, b_range)
        }
        Face::B { edge, support } => {
            let u = bn[edge];
            let u_body = rotation.inverse_transform_vector(&u);
            let next = if edge + 1 == m { 0 } else { edge + 1 };
            let across = perp(&u);
            let b_range = range(across.dot(&bv[edge].coords), across.dot(&bv[next].coords));
            let level = av[support].coords.dot(&u_body) + eps;
            let on_line = |i: usize| av[i].coords.dot(&u_body) <= level;
            let a_range = tied_range(av, support, |p| across.dot(&(moved * p).coords), on_line);
            (-u, a_range, b_range)
        }
    };
    if a_range.0 <= b_range.1 && b_range.0 <= a_range.1 {
        Swept::Hit { time: enter, axis }
    } else {
        Swept::From(enter)
    }
}

#[inline]
fn perp(u: &Vector) -> Vector {
    Vector::new(-u.y, u.x)
}

/// Index of a vertex of least projection on `u`.
#[inline]
fn lowest(vertices: &[Point], u: &Vector) -> usize {
    let mut best = (0, f64::INFINITY);
    for (i, p) in vertices.iter().enumerate() {
        let value = p.coords.dot(u);
        if value < best.1 {
            best = (i, value);
        }
    }
    best.0
}

#[inline]
fn range(x: f64, y: f64) -> (f64, f64) {
    (x.min(y), x.max(y))
}

/// Extent of `at` over vertex `support` and its neighbours for which
/// `on_line` holds.
#[inline]
fn tied_range(
    vertices: &[Point],
    support: usize,
    at: impl Fn(&Point) -> f64,
    on_line: impl Fn(usize) -> bool,
) -> (f64, f64) {
    let n = vertices.len();
    let x = at(&vertices[support]);
    let mut r = (x, x);
    for i in [(support + 1) % n, (support + n - 1) % n] {
        if on_line(i) {
            let x = at(&vertices[i]);
            r = (r.0.min(x), r.1.max(x));
        }
    }
    r
}

fn impact(
    scratch: &mut Scratch,
    a: &Shape,
    motion: &Motion,
    duration: f64,
    b: &Shape,
    padding: f64,
    from: (f64, f64),
) -> Option<Impact> {
    let (a_count, b_count) = (piece_count(a), piece_count(b));
    let Scratch { placed, next } = scratch;
    // One buffer per polygon piece of A (cloned the first time only).
    match a {
        Shape::Convex(p) if placed.is_empty() => placed.push(p.clone()),
        Shape::Compound(c) => {
            while placed.len() < a_count {
                placed.push(c.pieces()[placed.len()].clone());
            }
        }
        _ => {}
    }
    let start = *motion.start();
    if !(motion.is_finite() && duration.is_finite()) || a_count == 0 || b_count == 0 {
        // Unusable: stop now.
        let start_finite = start.translation.vector.iter().all(|x| x.is_finite())
            && start.rotation.re.is_finite()
            && start.rotation.im.is_finite();
        let contact = if start_finite && a_count > 0 && b_count > 0 {
            contact_at(a, &start, placed, b, padding)
        } else {
            FAIL_SAFE
        };
        return Some(Impact {
            time: 0.0,
            contact,
            exact: false,
            steps: 0,
        });
    }
    let duration = duration.max(0.0);
    let mut t = from.0;
    let sweep = Sweep::new(motion, duration, 1);
    let swept = match a {
        Shape::Convex(p) => sweep.points(p.vertices()),
        Shape::Compound(c) => sweep.points(c.outline()),
        Shape::Circle(c) => sweep
            .points(std::slice::from_ref(&c.center))
            .inflated(c.radius),
    };
    let tol = length_tolerance(swept.magnitude().max(b.aabb().magnitude()).max(padding));
    // Never below the tolerance a caller's closed form already used.
    let tol = tol.max(from.1);
    let stop = tol * (1.0 + CONVERGED);

    // Time until which each pair (i, j) is proven apart; pairs whose swept
    // boxes stay apart never need a clearance.
    next.clear();
    next.resize(a_count * b_count, 0.0);
    if a_count * b_count > 1 {
        for i in 0..a_count {
            let (bound, radius) = match a {
                Shape::Convex(p) => (sweep.points(p.vertices()), 0.0),
                Shape::Compound(c) => (sweep.points(c.pieces()[i].vertices()), 0.0),
                Shape::Circle(c) => (sweep.points(std::slice::from_ref(&c.center)), c.radius),
            };
            for j in 0..b_count {
                let pb = piece(b, j);
                if bound.distance(&pb.aabb) - (radius + padding + pb.radius) > stop {
                    next[i * b_count + j] = f64::INFINITY;
                }
            }
        }
    }

    let omega = motion.angular();
    let twist_c2 = match motion {
        Motion::Twist { velocity, .. } => omega.abs() * velocity.norm(),
        Motion::Interpolated { .. } => 0.0,
    };
    let mut circle = Circle {
        center: Point::origin(),
        radius: 0.0,
    };
    let mut steps = 0u32;
    let mut exact = false;
    while (steps as usize) < MAX_ADVANCEMENT_STEPS {
        steps += 1;
        let pose = motion.pose_at(t);
        let origin = Point::from(pose.translation.vector);
        let velocity = motion.origin_velocity(&pose);
        let mut next_t = f64::INFINITY;
        let mut touching = false;
        'pieces: for i in 0..a_count {
            let row = &mut next[i * b_count..(i + 1) * b_count];
            if row.iter().all(|&until| until > t) {
                next_t = row.iter().fold(next_t, |m, &until| m.min(until));
                continue;
            }
            let (pa, vertices) = place(a, i, &pose, placed, &mut circle);
            let radius = pa.radius + padding;
            for (j, until) in row.iter_mut().enumerate() {
                if *until > t {
                    next_t = next_t.min(*until);
                    continue;
                }
                let pb = piece(b, j);
                let d = separation(pa.core, pb.core);
                let clearance = d.value - (radius + pb.radius);
                if clearance.is_nan() || clearance <= stop {
                    touching = true; // NaN too: fail safe.
                    break 'pieces;
                }
                let apart = proven_apart(
                    vertices,
                    &origin,
                    &velocity,
                    omega,
                    twist_c2,
                    &d.axis,
                    clearance - tol,
                );
                *until = t + apart;
                next_t = next_t.min(*until);
            }
        }
        if touching {
            exact = true;
            break;
        }
        if next_t > duration {
            return None;
        }
        if next_t.is_nan() || next_t <= t {
            break; // No progress left in f64: report the (safe) time reached.
        }
        t = next_t;
    }
    let mut contact = contact_at(a, &motion.pose_at(t), placed, b, padding);
    if exact {
        if let Contact::Apart { axis, .. } = contact {
            // Converged with the motion's tolerance; the pose's own
            // tolerance may still see a gap of about `tol`.
            contact = Contact::Colliding { depth: 0.0, axis };
        }
    }
    Some(Impact {
        time: t,
        contact,
        exact,
        steps,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::query;

    fn square(cx: f64, cy: f64, half: f64) -> Shape {
        Shape::polygon(&[
            Point::new(cx - half, cy - half),
            Point::new(cx + half, cy - half),
            Point::new(cx + half, cy + half),
            Point::new(cx - half, cy + half),
        ])
        .unwrap()
    }

    #[test]
    fn translation_meets_a_wall() {
        let robot = square(0.0, 0.0, 0.5);
        let wall = Shape::polygon(&[
            Point::new(3.0, -2.0),
            Point::new(3.01, -2.0),
            Point::new(3.01, 2.0),
            Point::new(3.0, 2.0),
        ])
        .unwrap();
        let motion = Motion::segment(
            &Isometry2::identity(),
            &Isometry2::new(Vector::new(5.0, 0.0), 0.0),
            5.0,
        );
        let hit = time_of_impact(&robot, &motion, 5.0, &wall, 0.0).unwrap();
        assert!((hit.time - 2.5).abs() < 1e-9, "{hit:?}");
    }

    fn wall(x0: f64, x1: f64) -> Shape {
        Shape::polygon(&[
            Point::new(x0, -2.0),
            Point::new(x1, -2.0),
            Point::new(x1, 2.0),
            Point::new(x0, 2.0),
        ])
        .unwrap()
    }

    /// First `t` (grid `duration / steps`, then bisection) at which `query`
    /// reports a collision: an independent sampling of the motion.
    fn sampled(a: &Shape, motion: &Motion, duration: f64, b: &Shape, padding: f64) -> Option<f64> {
        let hit = |t: f64| query(&a.transformed(&motion.pose_at(t)), b, padding).colliding();
        let steps = 20_000;
        let mut prev = 0.0;
        for k in 0..=steps {
            let t = duration * k as f64 / steps as f64;
            if hit(t) {
                if k == 0 {
                    return Some(0.0);
                }
                let (mut lo, mut hi) = (prev, t);
                for _ in 0..80 {
                    let mid = 0.5 * (lo + hi);
                    if hit(mid) {
                        hi = mid;
                    } else {
                        lo = mid;
                    }
                }
                return Some(hi);
            }
            prev = t;
        }
        None
    }

    #[test]
    fn thin_wall_between_far_poses_is_not_tunnelled() {
        // A 1 cm wall between two poses 0.5 m apart, 0.1 s.
        let robot = square(0.0, 0.0, 0.1);
        let wall = wall(0.2, 0.21);
        let motion = Motion::segment(
            &Isometry2::identity(),
            &Isometry2::new(Vector::new(0.5, 0.0), 0.0),
            0.1,
        );
        assert!(!query(&robot, &wall, 0.0).colliding());
        assert!(!query(&robot.transformed(&motion.pose_at(0.1)), &wall, 0.0).colliding());
        let hit = time_of_impact(&robot, &motion, 0.1, &wall, 0.0).unwrap();
        assert!(
            hit.exact && hit.time <= 0.02 && hit.time > 0.02 - 1e-12,
            "{hit:?}"
        );
        assert!(hit.contact.colliding() && hit.contact.depth() == 0.0);
        // Parallel edges: the swept SAT alone (closed form).
        assert_eq!(hit.steps, 1, "{hit:?}");
    }

    #[test]
    fn padding_brings_the_contact_forward() {
        let robot = square(0.0, 0.0, 0.2);
        let motion = Motion::segment(
            &Isometry2::identity(),
            &Isometry2::new(Vector::new(0.5, 0.0), 0.0),
            0.1,
        );
        let hit = time_of_impact(&robot, &motion, 0.1, &wall(0.45, 0.46), 0.1).unwrap();
        // Front at 0.2 + 0.1 reaches 0.45 after 0.15 m at 5 m/s.
        assert!((hit.time - 0.03).abs() < 1e-12 && hit.exact, "{hit:?}");
        // Moving diagonally: a rounded corner of the padded square meets
        // the wall's corner.
        let post = square(1.0, 1.0, 0.1);
        let motion = Motion::segment(
            &Isometry2::identity(),
            &Isometry2::new(Vector::new(2.0, 2.0), 0.0),
            1.0,
        );
        let hit = time_of_impact(&robot, &motion, 1.0, &post, 0.1).unwrap();
        let reference = sampled(&robot, &motion, 1.0, &post, 0.1).unwrap();
        assert!(
            hit.time <= reference && reference - hit.time < 1e-9,
            "{hit:?} {reference}"
        );
        // Corner (0.2, 0.2) to corner (0.9, 0.9) along the diagonal, down
        // to the padding: (0.7 - 2t)·√2 = 0.1.
        let expected = (0.7 - 0.1 / 2f64.sqrt()) / 2.0;
        assert!((hit.time - expected).abs() < 1e-9, "{hit:?} {expected}");
    }

    #[test]
    fn long_footprint_turning_in_place_meets_a_post() {
        // navigation2 #3171: a 2 m × 0.2 m footprint turning in place hits a
        // post that neither the start nor the end pose touches.
        let robot = Shape::polygon(&[
            Point::new(-1.0, -0.1),
            Point::new(1.0, -0.1),
            Point::new(1.0, 0.1),
            Point::new(-1.0, 0.1),
        ])
        .unwrap();
        let start = Isometry2::new(Vector::new(3.0, 1.0), 0.2);
        let post = Shape::circle(Point::new(3.5, 1.6), 0.05).unwrap();
        let square_post = square(3.5, 1.6, 0.05);
        for post in [post, square_post] {
            for motion in [
                Motion::segment(&start, &Isometry2::new(Vector::new(3.0, 1.0), 1.7), 1.0),
                Motion::twist(&start, Vector::zeros(), 1.5),
            ] {
                assert!(!query(&robot.transformed(&motion.pose_at(0.0)), &post, 0.0).colliding());
                assert!(!query(&robot.transformed(&motion.pose_at(1.0)), &post, 0.0).colliding());
                let hit = time_of_impact(&robot, &motion, 1.0, &post, 0.0).unwrap();
                let reference = sampled(&robot, &motion, 1.0, &post, 0.0).unwrap();
                assert!(hit.exact, "{hit:?}");
                assert!(hit.time <= reference + 1e-12, "{hit:?} {reference}");
                assert!(reference - hit.time < 1e-9, "{hit:?} {reference}");
                assert!(hit.contact.colliding());
            }
        }
    }

    #[test]
    fn obstacle_inside_the_footprint_is_time_zero_with_the_mtv() {
        // navigation2 #4355: an obstacle entirely inside the footprint.
        let robot = square(0.0, 0.0, 0.5);
        let inside = square(1.1, 2.05, 0.05);
        let start = Isometry2::new(Vector::new(1.0, 2.0), 0.3);
        let motion = Motion::twist(&start, Vector::new(0.5, 0.0), 0.4);
        let hit = time_of_impact(&robot, &motion, 2.0, &inside, 0.0).unwrap();
        let expected = query(&robot.transformed(&start), &inside, 0.0);
        assert_eq!(hit.time, 0.0);
        assert!(hit.exact);
        assert_eq!(hit.contact, expected);
        assert!(hit.contact.depth() > 0.4 && hit.contact.mtv().norm() > 0.4);
    }

    #[test]
    fn circles() {
        let robot = Shape::circle(Point::new(0.1, 0.0), 0.3).unwrap();
        let obstacle = Shape::circle(Point::new(3.0, 0.4), 0.2).unwrap();
        let motion = Motion::segment(
            &Isometry2::identity(),
            &Isometry2::new(Vector::new(4.0, 0.0), 0.0),
            2.0,
        );
        let hit = time_of_impact(&robot, &motion, 2.0, &obstacle, 0.05).unwrap();
        // Centre (0.1 + 2t, 0) reaches distance 0.55 of (3, 0.4).
        let x = 3.0 - (0.55f64 * 0.55 - 0.4 * 0.4).sqrt();
        let expected = (x - 0.1) / 2.0;
        assert!(
            hit.exact && hit.time <= expected && expected - hit.time < 1e-11,
            "{hit:?}"
        );
        // A circle passing by at 0.6 > 0.55: no contact.
        let far = Shape::circle(Point::new(3.0, 0.6), 0.2).unwrap();
        assert_eq!(time_of_impact(&robot, &motion, 2.0, &far, 0.05), None);
        // A square footprint turning onto a circle.
        let robot = square(0.0, 0.0, 0.5);
        let motion = Motion::twist(&Isometry2::identity(), Vector::new(0.3, 0.0), 1.0);
        let post = Shape::circle(Point::new(0.3, 0.75), 0.1).unwrap();
        let hit = time_of_impact(&robot, &motion, 1.0, &post, 0.0).unwrap();
        let reference = sampled(&robot, &motion, 1.0, &post, 0.0).unwrap();
        assert!(hit.exact && hit.time <= reference && reference - hit.time < 1e-9);
    }

    #[test]
    fn concave_obstacle() {
        // A U open toward -x: the footprint enters between the arms and
        // meets the back.
        let u = Shape::polygon(&[
            Point::new(2.0, -1.0),
            Point::new(3.0, -1.0),
            Point::new(3.0, 1.0),
            Point::new(2.0, 1.0),
            Point::new(2.0, 0.8),
            Point::new(2.8, 0.8),
            Point::new(2.8, -0.8),
            Point::new(2.0, -0.8),
        ])
        .unwrap();
        assert!(matches!(u, Shape::Compound(_)));
        let robot = square(0.0, 0.0, 0.3);
        let motion = Motion::segment(
            &Isometry2::identity(),
            &Isometry2::new(Vector::new(4.0, 0.0), 0.0),
            4.0,
        );
        let hit = time_of_impact(&robot, &motion, 4.0, &u, 0.0).unwrap();
        assert!(
            hit.exact && hit.time <= 2.5 && hit.time > 2.5 - 1e-11,
            "{hit:?}"
        );
        // Turning while entering: the rotated corners meet an arm first.
        let motion = Motion::segment(
            &Isometry2::identity(),
            &Isometry2::new(Vector::new(4.0, 0.0), 1.0),
            4.0,
        );
        let hit = time_of_impact(&robot, &motion, 4.0, &u, 0.0).unwrap();
        let reference = sampled(&robot, &motion, 4.0, &u, 0.0).unwrap();
        assert!(
            hit.exact && hit.time <= reference && reference - hit.time < 1e-9,
            "{hit:?} {reference}"
        );
        // A concave footprint too.
        let hit = time_of_impact(
            &u,
            &Motion::segment(
                &Isometry2::identity(),
                &Isometry2::new(Vector::new(-4.0, 0.0), 0.0),
                1.0,
            ),
            1.0,
            &square(0.0, 0.0, 0.3),
            0.0,
        )
        .unwrap();
        // The back (x = 2.8) meets x = 0.3 after 2.5 m at 4 m/s.
        assert!(hit.exact && (hit.time - 2.5 / 4.0).abs() < 1e-11, "{hit:?}");
    }

    #[test]
    fn unusable_input_stops_at_once() {
        let robot = square(0.0, 0.0, 0.3);
        let far = square(10.0, 0.0, 0.3);
        let ok = Motion::twist(&Isometry2::identity(), Vector::new(1.0, 0.0), 0.0);
        for (motion, duration) in [
            (ok, f64::NAN),
            (ok, f64::INFINITY),
            (
                Motion::twist(&Isometry2::identity(), Vector::new(f64::NAN, 0.0), 0.0),
                1.0,
            ),
            (
                Motion::twist(&Isometry2::identity(), Vector::zeros(), f64::INFINITY),
                1.0,
            ),
            (
                Motion::twist(
                    &Isometry2::new(Vector::new(f64::INFINITY, 0.0), 0.0),
                    Vector::zeros(),
                    0.0,
                ),
                1.0,
            ),
        ] {
            let hit = time_of_impact(&robot, &motion, duration, &far, 0.0).unwrap();
            assert_eq!((hit.time, hit.exact), (0.0, false));
            assert!(
                motion.swept_aabb(&robot, 0.0, duration).min.x == f64::NEG_INFINITY
                    || !motion.is_finite()
                    || !duration.is_finite()
            );
        }
        // Negative duration: only the start pose.
        assert_eq!(time_of_impact(&robot, &ok, -1.0, &far, 0.0), None);
        // Huge but finite rates end within the step cap.
        let wild = Motion::twist(&Isometry2::identity(), Vector::new(1e300, 0.0), 1e300);
        let hit = time_of_impact(&robot, &wild, 1.0, &far, 0.0);
        assert!(hit.is_none_or(|h| h.time >= 0.0));
    }

    #[test]
    fn twist_pose_matches_integration() {
        let motion = Motion::twist(
            &Isometry2::new(Vector::new(1.0, 2.0), 0.3),
            Vector::new(0.7, 0.1),
            0.9,
        );
        // Euler integration of the body twist.
        let (mut x, mut y, mut th) = (1.0_f64, 2.0_f64, 0.3_f64);
        let dt = 1e-5;
        for _ in 0..200_000 {
            x += (0.7 * th.cos() - 0.1 * th.sin()) * dt;
            y += (0.7 * th.sin() + 0.1 * th.cos()) * dt;
            th += 0.9 * dt;
        }
        let pose = motion.pose_at(2.0);
        assert!((pose.translation.x - x).abs() < 1e-4);
        assert!((pose.translation.y - y).abs() < 1e-4);
        assert!((pose.rotation.angle() - th).abs() < 1e-9);
    }
}
