//! Escape: a motion of a zone that never takes anything deeper into it.
//!
//! A zone (a shape in the body frame) is moved by a [`Motion`]; a point or
//! an obstacle stays fixed. [`point_escapes`] and [`polygon_escapes`] ask
//! whether its penetration depth never exceeds its value at `t = 0` over
//! `[0, duration]`, and answer with a *sufficient* condition: true is a
//! proof (up to the rounding of the inputs, see [Precision](#precision)),
//! false may be a motion that does escape but could not be proved to.
//!
//! Something that does not touch the zone at `t = 0` (by the time of
//! impact's tolerance) escapes when it is never touched:
//! [`point_time_of_impact`] or [`time_of_impact`] finds no contact (neither
//! is ever late, so `None` is a proof). Something touched later does not
//! escape. The rules below are for what touches or overlaps at `t = 0`.
//!
//! # The frame and the motion
//!
//! Everything is written in the start frame `B`, the zone's body frame at
//! `t = 0`: the obstacle is fixed there (`y = start⁻¹·Y`) and the zone
//! moves by `M(t)·x = R(φ)·x + b(t)`, `φ = ω·t`, with, for a body twist
//! `(v, ω)`, `b(t) = sin φ/ω · v + (1 − cos φ)/ω · v⊥` (`v⊥ = (−v_y, v_x)`;
//! `b(t) = v·t` when `ω = 0`): `Motion::pose_at(t) = start · M(t)`. A path
//! segment (`Motion::Interpolated`) without rotation is the twist of body
//! velocity `start⁻¹·velocity`; a path segment that turns is not a constant
//! twist (its origin moves on a line while it turns): refused.
//!
//! # Waves
//!
//! Every quantity followed over time is `F(t) = F(0) + f(t)` with
//!
//! ```text
//! f(t) = a·(1 − cos φ) + b·sin φ + s·sin φ/ω + c·(1 − cos φ)/ω + q·(1 − cos φ)/ω²
//! ```
//!
//! (`ω = 0`: `f(t) = s·t + q·t²/2`), a [`Wave`], evaluated in the forms
//! `t·sinc φ` and `t·(φ/2)·sinc²(φ/2)`, which stay exact as `ω → 0`.
//!
//! * **Its maximum over `[0, T]`.** For `ω ≠ 0`, `f = K·(1 − cos φ) + L·sin φ`
//!   is a sinusoid of period `2π/|ω|` plus a constant. A differentiable
//!   function takes its maximum over `[0, T]` at `0`, at `T` or at an
//!   interior local maximum, and every local maximum of a sinusoid has the
//!   same value: so `max f = max(f(0), f(T), f(t₁))` with `t₁` the first
//!   local maximum after 0 when it is in `(0, T)`. In closed form:
//!   `f'(t) = sin φ·(ωa + c + q/ω) + cos φ·(ωb + s)`; with `θ = |ω|·t`,
//!   `|ω|·f' = A·sin θ + B·cos θ`, `A = ω(ωa + c) + q`, `B = |ω|(ωb + s)`
//!   (no division by `ω`), which changes from positive to negative at
//!   `θ₁ = π − atan2(B, A) = atan2(B, −A)` (mod 2π; the second form has no
//!   cancellation when `θ₁` is small). For `ω = 0`, `q <= 0`
//!   (always here): a concave parabola, its peak at `−s/q` when `s > 0`.
//! * **The test** `f <= σ` over `[0, T]`, for a slack `σ >= 0`: `f(T)` and
//!   `f(t₁)` (when `t₁` is in `(0, T)`) are at most `σ − tol`. As
//!   `f(0) = 0 <= σ`, the maximum is then at most `σ`.
//!
//! # Convex shapes: separating axes
//!
//! For convex `Z` (the zone) and `O` (the obstacle) and a unit direction
//! `u` (from `Z` toward `O`), `ov_u = h_Z(u) + h_O(−u)` (`h` the support
//! function, radii included) is the overlap of their projections on `u`,
//! and the penetration depth is `depth = max(0, min_u ov_u)`. The minimum
//! over all `u` is reached on a finite set of axes: the face normals of
//! both polygons, and, against a disc or a point, the direction from the
//! polygon's vertex nearest to the centre to the centre (two discs: the
//! line of centres). So `D₀ = max(0, min ov(0))` over those axes is
//! `depth(0)`.
//!
//! **Sufficient condition.** For any axis `u` kept fixed over time (turning
//! with the zone, or fixed in `B`), `depth(t) <= max(0, ov_u(t))` (the
//! minimum over all directions is at most the value at one). Take an axis
//! `a` with `ov_a(0) <= D₀` (an axis of least overlap at `t = 0`, or any
//! separating axis when nothing overlaps); if `ov_a(t) <= D₀` over
//! `[0, T]`, then `depth(t) <= D₀ = depth(0)`. Each axis of least overlap is
//! tried until one passes. `ov_a` is the maximum of one term per vertex of
//! the other shape, each `F(0) + f(t)` with `f` a [`Wave`]: every term must
//! stay at most `D₀`, the slack of term `i` being `σᵢ = D₀ − Fᵢ(0) >= 0`:
//!
//! * `u` turning with the zone (a zone face normal, the zone vertex axis):
//!   `h_Z(u)` is constant and the obstacle's vertex `y` is seen at
//!   `M(t)⁻¹·y`: `F_y(t) = h_Z(u) + r_O − u·M(t)⁻¹y`, a wave with
//!   `a = u·y`, `b = −u×y`, `s = u·v`, `c = u×v`.
//! * `u` fixed in `B` (an obstacle face normal, reversed; the obstacle
//!   vertex axis): `h_O(−u)` is constant and the zone's vertex `x` is at
//!   `M(t)·x`: `F_x(t) = h_O(−u) + r_Z + u·M(t)x`, a wave with
//!   `a = −u·x`, `b = −u×x`, `s = u·v`, `c = −u×v`.
//!
//! A point in a convex polygon is the case of an obstacle of one vertex:
//! the axes are the zone's edge normals (and the vertex axis, never below
//! them for a point inside), `ov_j = d_j`, the point's inside distance to
//! edge `j`, and `depth = min_j d_j`: the edge whose `d_j(0)` is the depth
//! must keep `d_j(t) <= d_j(0)`.
//!
//! # A point in a disc
//!
//! `depth = r − |q(t) − c|`: it never grows when the distance from the
//! centre never shrinks. In `B` the point is fixed and the centre moves by
//! `D(t) = M(t)·c − c`: with `u = q − c`,
//! `k(t) = |u|² − |u − D(t)|² = 2u·D − |D|²`, and `k/2` is a wave with
//! `a = −c·q`, `b = c×q`, `s = v·u`, `c' = v×(q + c)`, `q' = −|v|²` (from
//! `D = (R(φ) − I)(c − v⊥/ω)` and `|D|² = 2(1 − cos φ)|c − v⊥/ω|²`; a
//! concave parabola `u·v·t − |v|²t²/2` for `ω = 0`). Its maximum over
//! `[0, T]` is at 0 (`k = 0`), `T` or its first peak: both must have
//! `|u − D(t)| >= |u| + tol` (the distance from the centre grown), so
//! `k <= 0` throughout. This is exact (no axis is fixed): a point moving
//! tangentially away is accepted.
//!
//! # Refused
//!
//! * A concave zone (`Shape::Compound`) with something inside or touching
//!   it: the depth of a union is not the maximum of simple functions of
//!   time; no sufficient condition is offered here.
//! * A motion that keeps the depth exactly but not term by term (turning
//!   about the centre of a disc zone): within the rounding it cannot be
//!   told from one that goes deeper (the margin below).
//! * A path segment that turns.
//!
//! # Accepted without a margin: a term that does not change
//!
//! A term whose wave is zero as computed (`ω = 0` and `s = u·v = 0`: the
//! zone slides along the face whose normal is `u`, the point beside it
//! never nearer that face; or every coefficient zero) is constant: it stays
//! at its value at `t = 0`, at most `D₀` by the choice of the axis, with no
//! comparison that rounding could tip. The coefficient `s` is itself a
//! rounded product: a computed 0 is a true `|u·v|` of a few ulps of `|v|`,
//! which moves the term by at most a few ulps of `S` over `[0, T]`, the
//! guarantee of [Precision](#precision). This is the common case of backing
//! straight away from a wall wider than the zone: the wall's points beside
//! the zone's side edges are deepest across those edges, which the motion
//! runs parallel to.
//!
//! # Precision
//!
//! `tol = length_tolerance(S)`, `S` twice the sum of the magnitudes of the
//! zone, the obstacle (or point), the start pose's translation and the
//! distance `|v|·T` (every coordinate in `B`, every `F(0)` and every `f(t)`
//! is bounded by it: `|(1 − cos φ)/ω| <= |t|`). Each of these values is
//! a few products and sums of such quantities by unit vectors and bounded
//! factors, so its rounding is a few dozen ulps of `S`, below `tol`
//! (`1e-12·S`, thousands of ulps): every comparison is made with the margin
//! `tol` on the side of refusing, so a true answer holds for the exact
//! values. What rounding can still move is the location of a peak `t₁`;
//! near a maximum that error changes `f` to second order only. The depth
//! at `t = 0` is itself known only up to the rounding of `start⁻¹·Y`: the
//! guarantee is that the depth never exceeds its start value by more than
//! a few ulps of `S`. Input whose scale exceeds [`MAX_COORDINATE`] (where
//! squares could overflow), or that is not finite, is refused.

use super::motion::sinc;
use super::{
    cross, length_tolerance, point_time_of_impact, time_of_impact, unit, Circle, ConvexPolygon,
    Motion, Point, Shape, Vector, MAX_COORDINATE,
};
use nalgebra::Isometry2;
use std::f64::consts::TAU;
use std::ops::ControlFlow;

/// True only if the fixed point `p` is never taken deeper into `zone` (body
/// frame) moved by `motion` over `[0, duration]`: its penetration depth
/// (distance to the zone's boundary, inside; 0 outside) never exceeds its
/// value at `t = 0`, up to the rounding of the inputs.
///
/// * A point not touching the zone at `t = 0`: true when it is never
///   touched ([`point_time_of_impact`] finds no contact), false when it
///   is (or may be: a contact that is not exact counts).
/// * A point inside or touching: a convex polygon zone keeps, over the
///   interval, the inside distance to an edge whose distance is the depth
///   at `t = 0` from growing; a disc zone keeps the point's distance from
///   its centre from shrinking (both in closed form: the module
///   documentation of `geometry/escape.rs` has the proofs). A concave zone
///   (`Shape::Compound`): false (no sufficient condition is offered).
/// * A zone that does not move, or a duration `<= 0`: true. A path segment
///   that turns: false unless the point is never touched. A motion, a
///   duration or a point that is not finite: false.
///
/// A sufficient condition: false may be a motion that escapes. A motion
/// parallel to the active edge keeps the depth exactly and is accepted
/// (the module documentation, *Accepted without a margin*). No
/// allocation.
pub fn point_escapes(zone: &Shape, motion: &Motion, p: Point, duration: f64) -> bool {
    if !(motion.is_finite() && duration.is_finite() && p.x.is_finite() && p.y.is_finite()) {
        return false;
    }
    if duration <= 0.0 {
        return true;
    }
    match point_time_of_impact(zone, motion, p, duration, 0.0) {
        None => return true,
        Some(impact) if impact.time > 0.0 => return false,
        Some(_) => {}
    }
    let Some(twist) = Twist::of(motion) else {
        return false;
    };
    if twist.still() {
        return true;
    }
    let start = motion.start();
    let scale = zone.aabb().magnitude() + p.x.abs().max(p.y.abs());
    let Some(tol) = tolerance(scale, start, &twist, duration) else {
        return false;
    };
    match zone {
        Shape::Convex(polygon) => Pair {
            zone: Piece::polygon(polygon),
            obstacle: Piece::point(&p),
            start,
            twist,
            duration,
            tol,
        }
        .escapes(),
        Shape::Circle(disc) => disc_keeps_point_out(
            disc,
            start.inverse_transform_point(&p),
            &twist,
            duration,
            tol,
        ),
        Shape::Compound(_) => false,
    }
}

/// True only if the fixed `obstacle` is never taken deeper into `zone`
/// (body frame) moved by `motion` over `[0, duration]`: their separating
/// axis penetration depth never exceeds its value at `t = 0`, up to the
/// rounding of the inputs.
///
/// * An obstacle not touching the zone at `t = 0`: true when it is never
///   touched ([`time_of_impact`] finds no contact), false when it is (or
///   may be: a contact that is not exact counts).
/// * Overlapping or touching: take an axis of least overlap at `t = 0` (an
///   edge normal of the zone, turning with it, or of the obstacle, fixed;
///   against a disc, also the axis from the nearest vertex to its centre);
///   its overlap, the maximum over the other shape's vertices of closed-form
///   functions of time, must never exceed the depth at `t = 0` (the module
///   documentation of `geometry/escape.rs` has the proof). A concave
///   obstacle: every convex piece must pass (each piece's depth never
///   exceeds its own start value, 0 for a piece apart, so the deepest
///   piece's never does). A concave zone: false.
/// * A zone that does not move, or a duration `<= 0`: true. A path segment
///   that turns: false unless the obstacle is never touched. A motion or a
///   duration that is not finite: false.
///
/// A sufficient condition: false may be a motion that escapes. No
/// allocation.
pub fn polygon_escapes(zone: &Shape, motion: &Motion, obstacle: &Shape, duration: f64) -> bool {
    if !(motion.is_finite() && duration.is_finite()) {
        return false;
    }
    if duration <= 0.0 {
        return true;
    }
    match time_of_impact(zone, motion, duration, obstacle, 0.0) {
        None => return true,
        Some(impact) if impact.time > 0.0 => return false,
        Some(_) => {}
    }
    let Some(twist) = Twist::of(motion) else {
        return false;
    };
    if twist.still() {
        return true;
    }
    let zone_piece = match zone {
        Shape::Convex(polygon) => Piece::polygon(polygon),
        Shape::Circle(disc) => Piece::disc(disc),
        Shape::Compound(_) => return false,
    };
    let start = motion.start();
    let scale = zone.aabb().magnitude() + obstacle.aabb().magnitude();
    let Some(tol) = tolerance(scale, start, &twist, duration) else {
        return false;
    };
    let escapes = |piece: Piece| {
        Pair {
            zone: zone_piece,
            obstacle: piece,
            start,
            twist,
            duration,
            tol,
        }
        .escapes()
    };
    match obstacle {
        Shape::Convex(polygon) => escapes(Piece::polygon(polygon)),
        Shape::Circle(disc) => escapes(Piece::disc(disc)),
        Shape::Compound(c) => c.pieces().iter().all(|p| escapes(Piece::polygon(p))),
    }
}

/// The tolerance of the module documentation's [Precision](#precision):
/// `scale` is the zone's and the obstacle's magnitudes; `None` beyond
/// [`MAX_COORDINATE`].
fn tolerance(scale: f64, start: &Isometry2<f64>, twist: &Twist, duration: f64) -> Option<f64> {
    let scale = 2.0 * (scale + start.translation.vector.amax() + twist.v.norm() * duration);
    (scale <= MAX_COORDINATE).then(|| length_tolerance(scale))
}

/// The zone's motion in its start frame `B`: a constant body twist.
#[derive(Clone, Copy, Debug)]
struct Twist {
    /// Body velocity (m/s).
    v: Vector,
    /// Turn rate (rad/s).
    w: f64,
}

impl Twist {
    /// `None` for a path segment that turns (not a constant twist).
    fn of(motion: &Motion) -> Option<Twist> {
        match *motion {
            Motion::Twist {
                velocity, angular, ..
            } => Some(Twist {
                v: velocity,
                w: angular,
            }),
            // (A float pattern compares with `==`: -0.0 is 0.0 too.)
            Motion::Interpolated {
                start,
                velocity,
                angular: 0.0,
            } => Some(Twist {
                v: start.rotation.inverse() * velocity,
                w: 0.0,
            }),
            Motion::Interpolated { .. } => None,
        }
    }

    /// The zone does not move: every depth is constant.
    fn still(&self) -> bool {
        self.v == Vector::zeros() && self.w == 0.0
    }

    /// `[1 − cos φ, sin φ, sin φ/ω, (1 − cos φ)/ω, (1 − cos φ)/ω²]` at
    /// `t` (`φ = ωt`), in forms exact as `ω → 0` (`[0, 0, t, 0, t²/2]` at
    /// `ω = 0`).
    fn basis(&self, t: f64) -> [f64; 5] {
        let x = self.w * t;
        let half = 0.5 * x;
        let (sin_half, sinc_half) = (half.sin(), sinc(half));
        [
            2.0 * sin_half * sin_half,
            x.sin(),
            t * sinc(x),
            t * half * sinc_half * sinc_half,
            0.5 * t * t * sinc_half * sinc_half,
        ]
    }

    /// `M(t)·x − x`: how far the body point `x` has moved at `t`, in `B`.
    fn displacement(&self, x: &Point, t: f64) -> Vector {
        let [one_minus_cos, sin, sin_w, one_minus_cos_w, _] = self.basis(t);
        let x_perp = Vector::new(-x.y, x.x);
        let v_perp = Vector::new(-self.v.y, self.v.x);
        x_perp * sin - x.coords * one_minus_cos + self.v * sin_w + v_perp * one_minus_cos_w
    }
}

/// `f(t) = a(1 − cos φ) + b sin φ + s sin φ/ω + c (1 − cos φ)/ω + q (1 −
/// cos φ)/ω²`, `f(0) = 0` (module documentation, *Waves*).
#[derive(Clone, Copy, Debug)]
struct Wave {
    a: f64,
    b: f64,
    s: f64,
    c: f64,
    q: f64,
}

impl Wave {
    fn at(&self, twist: &Twist, t: f64) -> f64 {
        let [one_minus_cos, sin, sin_w, one_minus_cos_w, one_minus_cos_w2] = twist.basis(t);
        self.a * one_minus_cos
            + self.b * sin
            + self.s * sin_w
            + self.c * one_minus_cos_w
            + self.q * one_minus_cos_w2
    }

    /// Whether `f` is zero at every `t` as computed: `s·t + q·t²/2` with
    /// `s = q = 0` for `ω = 0`, every coefficient zero otherwise.
    fn is_zero(&self, twist: &Twist) -> bool {
        let line = self.s == 0.0 && self.q == 0.0;
        match twist.w == 0.0 {
            true => line,
            false => line && self.a == 0.0 && self.b == 0.0 && self.c == 0.0,
        }
    }

    /// The first local maximum after 0 (`None`: none, for `ω = 0`; NaN
    /// when it cannot be located: refused by the callers).
    fn first_peak(&self, w: f64) -> Option<f64> {
        if w == 0.0 {
            // f' = s + q·t, q <= 0.
            return (self.q < 0.0 && self.s > 0.0).then(|| -self.s / self.q);
        }
        let a = w * (w * self.a + self.c) + self.q;
        let b = w.abs() * (w * self.b + self.s);
        let mut theta = b.atan2(-a);
        if theta < 0.0 {
            theta += TAU;
        }
        Some(theta / w.abs())
    }

    /// `holds` at `duration` and at the first peak when it is inside
    /// `(0, duration)`: the maximum of the wave over `[0, duration]` is at
    /// 0 or at one of those (module documentation, *Waves*).
    fn holds_at_peaks(&self, twist: &Twist, duration: f64, holds: impl Fn(f64) -> bool) -> bool {
        if !holds(duration) {
            return false;
        }
        match self.first_peak(twist.w) {
            Some(t) if t.is_nan() => false,
            Some(t) if t > 0.0 && t < duration => holds(t),
            _ => true,
        }
    }

    /// `f <= limit` over `(0, duration]` (`limit = σ − tol`).
    fn stays_below(&self, twist: &Twist, duration: f64, limit: f64) -> bool {
        self.holds_at_peaks(twist, duration, |t| self.at(twist, t) <= limit)
    }
}

/// The exact rule for a point `q` (in `B`) inside or touching a disc zone:
/// its distance from the moving centre never shrinks (module
/// documentation, *A point in a disc*).
fn disc_keeps_point_out(disc: &Circle, q: Point, twist: &Twist, duration: f64, tol: f64) -> bool {
    let centre = disc.center;
    let u = q - centre;
    let reach = u.norm() + tol;
    let wave = Wave {
        a: -centre.coords.dot(&q.coords),
        b: cross(&centre.coords, &q.coords),
        s: twist.v.dot(&u),
        c: cross(&twist.v, &(q.coords + centre.coords)),
        q: -twist.v.norm_squared(),
    };
    wave.holds_at_peaks(twist, duration, |t| {
        (u - twist.displacement(&centre, t)).norm() >= reach
    })
}

/// A convex piece as the separating axis test sees it: its vertices (one
/// for a disc or a point), its outward edge normals (none for a disc or a
/// point) and its radius.
#[derive(Clone, Copy, Debug)]
struct Piece<'a> {
    vertices: &'a [Point],
    normals: &'a [Vector],
    radius: f64,
}

impl<'a> Piece<'a> {
    fn polygon(polygon: &'a ConvexPolygon) -> Self {
        Piece {
            vertices: polygon.vertices(),
            normals: polygon.normals(),
            radius: 0.0,
        }
    }

    fn disc(disc: &'a Circle) -> Self {
        Piece {
            vertices: std::slice::from_ref(&disc.center),
            normals: &[],
            radius: disc.radius,
        }
    }

    fn point(p: &'a Point) -> Self {
        Piece {
            vertices: std::slice::from_ref(p),
            normals: &[],
            radius: 0.0,
        }
    }
}

/// A separating axis: the unit direction `u` from the zone toward the
/// obstacle, turning with the zone (`Zone`, body frame) or fixed (`Fixed`,
/// in `B`).
#[derive(Clone, Copy, Debug)]
enum Axis {
    Zone(Vector),
    Fixed(Vector),
}

/// A convex piece of the zone (body frame) against a convex piece of the
/// obstacle (fixed frame), at `t = 0` and along the motion.
struct Pair<'a> {
    zone: Piece<'a>,
    obstacle: Piece<'a>,
    /// The zone's pose at `t = 0`: `B` in the fixed frame.
    start: &'a Isometry2<f64>,
    twist: Twist,
    duration: f64,
    tol: f64,
}

impl Pair<'_> {
    /// The sufficient condition of the module documentation (*Convex
    /// shapes*): some axis of least overlap at `t = 0` never overlaps more
    /// than the depth at `t = 0`.
    fn escapes(&self) -> bool {
        let mut least = f64::INFINITY;
        let _ = self.axes(|axis| {
            least = least.min(self.overlap(axis));
            ControlFlow::Continue(())
        });
        if !least.is_finite() {
            return false;
        }
        let depth = least.max(0.0);
        self.axes(
            |axis| match self.overlap(axis) <= depth && self.holds(axis, depth) {
                true => ControlFlow::Break(()),
                false => ControlFlow::Continue(()),
            },
        )
        .is_break()
    }

    /// Obstacle vertex `i` in `B`.
    fn obstacle_vertex(&self, i: usize) -> Point {
        self.start
            .inverse_transform_point(&self.obstacle.vertices[i])
    }

    /// Every axis on which the least overlap is reached (module
    /// documentation, *Convex shapes*), until `visit` breaks.
    fn axes(&self, mut visit: impl FnMut(Axis) -> ControlFlow<()>) -> ControlFlow<()> {
        for n in self.zone.normals {
            visit(Axis::Zone(*n))?;
        }
        for m in self.obstacle.normals {
            visit(Axis::Fixed(
                -self.start.rotation.inverse_transform_vector(m),
            ))?;
        }
        let direction = |d: Vector| {
            let length = d.norm();
            (length > 0.0).then(|| unit(d, length))
        };
        match (
            self.zone.normals.is_empty(),
            self.obstacle.normals.is_empty(),
        ) {
            (false, false) => {}
            (false, true) => {
                // A disc or a point against the zone's polygon: from the
                // zone's vertex nearest to its centre.
                let centre = self.obstacle_vertex(0);
                let nearest = nearest(self.zone.vertices.iter().copied(), &centre);
                if let Some(u) = direction(centre - nearest) {
                    visit(Axis::Zone(u))?;
                }
            }
            (true, false) => {
                // A disc zone against a polygon: toward the obstacle's
                // vertex nearest to its centre.
                let centre = self.zone.vertices[0];
                let vertices = (0..self.obstacle.vertices.len()).map(|i| self.obstacle_vertex(i));
                let nearest = nearest(vertices, &centre);
                if let Some(u) = direction(nearest - centre) {
                    visit(Axis::Fixed(u))?;
                }
            }
            (true, true) => {
                // Two discs (or a disc and a point): the line of centres
                // (any axis when they coincide: every one overlaps by the
                // sum of the radii).
                let d = self.obstacle_vertex(0) - self.zone.vertices[0];
                visit(Axis::Zone(direction(d).unwrap_or_else(Vector::x)))?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Each term of the overlap along `axis` (one per vertex of the other
    /// piece): its value at `t = 0` and its wave.
    fn terms(&self, axis: Axis, visit: impl FnMut(f64, Wave) -> ControlFlow<()>) -> bool {
        self.each_term(axis, visit).is_continue()
    }

    fn each_term(
        &self,
        axis: Axis,
        mut visit: impl FnMut(f64, Wave) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let v = self.twist.v;
        let radii = self.zone.radius + self.obstacle.radius;
        match axis {
            Axis::Zone(u) => {
                let support = support(self.zone.vertices.iter().copied(), &u);
                for i in 0..self.obstacle.vertices.len() {
                    let y = self.obstacle_vertex(i).coords;
                    let wave = Wave {
                        a: u.dot(&y),
                        b: -cross(&u, &y),
                        s: u.dot(&v),
                        c: cross(&u, &v),
                        q: 0.0,
                    };
                    visit((support + radii) - u.dot(&y), wave)?;
                }
            }
            Axis::Fixed(u) => {
                let vertices = (0..self.obstacle.vertices.len()).map(|i| self.obstacle_vertex(i));
                let support = support(vertices, &-u);
                for x in self.zone.vertices {
                    let wave = Wave {
                        a: -u.dot(&x.coords),
                        b: -cross(&u, &x.coords),
                        s: u.dot(&v),
                        c: -cross(&u, &v),
                        q: 0.0,
                    };
                    visit((support + radii) + u.dot(&x.coords), wave)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// The overlap along `axis` at `t = 0`.
    fn overlap(&self, axis: Axis) -> f64 {
        let mut most = f64::NEG_INFINITY;
        self.terms(axis, |value, _| {
            most = most.max(value);
            ControlFlow::Continue(())
        });
        most
    }

    /// Every term along `axis` stays at most `depth` over the interval
    /// (each term's value at `t = 0` is at most `depth`: the axis was
    /// chosen so).
    fn holds(&self, axis: Axis, depth: f64) -> bool {
        self.terms(axis, |value, wave| {
            if wave.is_zero(&self.twist) {
                // Constant (module documentation, *Accepted without a
                // margin*): it stays at `value <= depth`.
                return ControlFlow::Continue(());
            }
            let limit = (depth - value) - self.tol;
            match wave.stays_below(&self.twist, self.duration, limit) {
                true => ControlFlow::Continue(()),
                false => ControlFlow::Break(()),
            }
        })
    }
}

/// `max p·u` over `points`.
fn support(points: impl Iterator<Item = Point>, u: &Vector) -> f64 {
    points.fold(f64::NEG_INFINITY, |m, p| m.max(p.coords.dot(u)))
}

/// The point of `points` (not empty) nearest to `to` (the first on a tie).
fn nearest(points: impl Iterator<Item = Point>, to: &Point) -> Point {
    let mut best = (f64::INFINITY, *to);
    for p in points {
        let d = (p - to).norm_squared();
        if d < best.0 {
            best = (d, p);
        }
    }
    best.1
}

#[cfg(test)]
mod tests;
