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
//! # Two moving shapes
//!
//! [`moving_time_of_impact`]: B moves too (robots that see each other), B
//! placed by its own [`Motion`]; the answer is the first `t` at which A,
//! inflated by `padding`, touches B, both placed at `t`, under the same
//! tolerance policy (one tolerance for the whole span, from both swept
//! boxes and the padding; both translating, from a bound of the boxes, as
//! the translation's closed form: never below a single pose's).
//!
//! * **B does not move** (velocity and turn rate zero): A's motion seen
//!   from B's frame (`Motion::transformed`) and [`time_of_impact`] there,
//!   its tolerance raised to the fixed frame's (B's frame may have smaller
//!   coordinates): the single-body answer (bit for bit when B stands at the
//!   origin, whose tolerance is its own). **A does not move**: the same
//!   with the roles swapped (A inflated by `padding` touches B iff B
//!   inflated by `padding` touches A: the Minkowski sum is symmetric), the
//!   contact turned back (axis negated, closest points swapped).
//! * **Both translate** (both turn rates zero): every point of A moves at
//!   `v_A`, every point of B at `v_B`; in B's frame (which only translates)
//!   B stands still and A translates at `v_A − v_B`: the closed form of the
//!   translation above, exact.
//! * **Either turns**: the conservative advancement above, in the fixed
//!   frame, with both bodies' pieces placed at `t_k`. The gap along the
//!   fixed axis `n` (from A toward B, the direction of the closest points
//!   at `t_k`),
//!
//!   ```text
//!   G(s) = min_y n·y(t_k + s) − max_x n·x(t_k + s) − radii
//!   ```
//!
//!   (`x` over A's core vertices, `y` over B's), is a lower bound of the
//!   clearance at every time (the distance between two sets is at least
//!   the gap between their projections on a unit axis) and equals `d` at
//!   `s = 0`. A's support can rise by at most
//!   `U_A(s) = max_x (c1_x·s + c2_x·s²/2 − behind_x)` (Taylor with the
//!   remainder bounded: `c1_x = n·ẋ(t_k)`, `c2_x >= |ẍ|` at every time, as
//!   above; `behind_x = max_x' n·x' − n·x >= 0`), and B's can fall by at
//!   most `U_B(s)`, the same with `−n` and B's vertices (`c1_y = −n·ẏ`,
//!   `c2_y >= |ÿ|`). So
//!   `G(s) >= d − U_A(s) − U_B(s)`: split the slack `d − tol` into
//!   `σ_A + σ_B` (both `>= 0`) and step by the least `Δ` of the two sides,
//!   each the largest with its `U <= σ` (every vertex on its own, as
//!   above). Then `G > tol` on `[t_k, t_k + Δ]`: **no step passes the first
//!   contact**, whatever the split. The split is what each side's bound
//!   needs over a trial step, `Δ0 = (d − tol)/(a + b)` with `a`, `b` each
//!   body's fastest vertex rate along its direction (the step if every
//!   vertex closed at the fastest rate, to first order): `σ_A = (d − tol)·U_A(Δ0)/(U_A(Δ0) + U_B(Δ0))`,
//!   clamped to `[1/16, 15/16]` of the slack (half each when neither
//!   closes). Near the contact the second-order terms vanish and
//!   `U_A(Δ0)`, `U_B(Δ0)` are the two supports' closings at their rates
//!   `α`, `β` (a vertex level with the support that closes faster counts,
//!   which the support's own rate would miss: an edge turning onto the
//!   other body), so the step tends to `(d − tol)/(α + β)`, the Newton
//!   step on the gap of the two support points (quadratic convergence);
//!   when one body's closing is more than 15 times the other's, the step
//!   still closes at least 15/16 of the slack (linear, ratio 1/16: twelve
//!   orders of magnitude in ten steps).
//!   When one body does not turn, all its points move at its origin's
//!   velocity and its own `U` is exactly linear, `−n·v_B·s` (signed):
//!   folded into the other body's rates (`ẋ − v_B`), no split, the
//!   single-body advancement on the relative velocity.
//!   `exact` as above: converged to touching within
//!   [`MAX_ADVANCEMENT_STEPS`]; otherwise the (never late) time reached.
//!
//! The contact is [`query`](super::query())'s with both shapes placed at the
//! reported time, in the fixed frame.
//!
//! # Failing safe
//!
//! A motion or a duration that is NaN or infinite cannot be advanced: the
//! answer is an impact at time 0 with `exact: false` (stop now), with the
//! contact at the start pose when that pose is finite. A negative duration
//! is 0 (only the start pose is checked); padding follows [`query`](super::query()) (NaN or
//! negative is none). With two moving shapes, either motion unusable is
//! the same answer (the contact at both start poses when both are
//! finite).
//!
//! # Cost
//!
//! No allocation in steady state: A's pieces are placed into a per-thread
//! scratch buffer that keeps its capacity across calls. One SAT clearance
//! (O(n + m)) per piece pair and step; a flat contact under translation
//! takes two steps.

use super::motion::Sweep;
use super::query::{piece_count, query_placed, Contact, Piece, Pieces, PointTarget, FAIL_SAFE};
use super::sat::{separation, Core};
use super::{cross, length_tolerance, Aabb, Circle, ConvexPolygon, Motion, Point, Shape, Vector};
use nalgebra::Isometry2;
use point::{translation_point, PointSwept};
use std::cell::RefCell;
use translation::{translation_convex, Swept};
pub(crate) use twist::closed_form_scale;
use twist::{turning_twist, twist_point};

/// Most advancement steps before giving up on convergence: the time
/// reached is then reported as a (conservative) contact, `exact: false`.
pub const MAX_ADVANCEMENT_STEPS: usize = 256;

/// A pair has converged to touching when its clearance is at most
/// `tol * (1 + CONVERGED)`.
pub const CONVERGED: f64 = 0.125;

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
    /// B's pieces placed at the current time ([`moving_time_of_impact`]).
    placed_b: Vec<ConvexPolygon>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// The first time in `[0, duration]` at which `a` (body frame) placed by
/// `motion`, inflated by `padding`, touches `b` (fixed frame); `None` when
/// it does not. Exact for a translation, a lower bound converging to the
/// contact with rotation. The method, why no step passes the first contact,
/// and the fail-safe answers are documented with the `toi` module
/// (`src/geometry/toi/mod.rs`, private: the operation is this function).
pub fn time_of_impact(
    a: &Shape,
    motion: &Motion,
    duration: f64,
    b: &Shape,
    padding: f64,
) -> Option<Impact> {
    time_of_impact_within(a, motion, duration, b, padding, 0.0)
}

/// [`time_of_impact`] with a tolerance of at least `least` (that of a
/// caller whose scene is larger: [`moving_time_of_impact`] asks in B's
/// frame, under the tolerance of the fixed frame).
fn time_of_impact_within(
    a: &Shape,
    motion: &Motion,
    duration: f64,
    b: &Shape,
    padding: f64,
    least: f64,
) -> Option<Impact> {
    let padding = if padding > 0.0 { padding } else { 0.0 };
    let mut from = (0.0, least);
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
            let tol = length_tolerance(reach.max(pb.aabb().magnitude()).max(padding)).max(least);
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
    advance(a, motion, duration, b, padding, from)
}

/// The first time in `[0, duration]` at which `footprint` (body frame)
/// placed by `motion`, inflated by `padding`, touches the fixed `point`:
/// [`time_of_impact`] with B a point (a circle of radius 0), the same
/// contract and tolerance policy.
///
/// * **Translation**: in closed form (the point's ray, seen from the
///   moving footprint, against its padded convex pieces; see
///   `point::translation_point`): exact, one pass over the edges.
/// * **A constant turning twist** (`Motion::Twist`, or a path segment
///   that only turns): in closed form too (the point's circle about the
///   twist's centre, in the body frame, against the padded pieces' offset
///   edges and vertex circles; see `twist::twist_point`): exact, never
///   late, one `atan2` per crossing.
/// * **Other turning motions** (a path segment that moves and turns), a
///   point touching at the start, and the closed form's own fallbacks (a
///   centre very far away, a crossing within rounding of a full turn): the
///   conservative advancement of [`time_of_impact`], with the point as B's
///   one piece: never later than the contact.
/// * A point that is not finite cannot be measured: time 0, `exact:
///   false`, a fail-safe contact (colliding).
pub fn point_time_of_impact(
    footprint: &Shape,
    motion: &Motion,
    point: Point,
    duration: f64,
    padding: f64,
) -> Option<Impact> {
    let padding = if padding > 0.0 { padding } else { 0.0 };
    if !(point.x.is_finite() && point.y.is_finite()) {
        return Some(Impact {
            time: 0.0,
            contact: FAIL_SAFE,
            exact: false,
            steps: 0,
        });
    }
    let mut from = (0.0, 0.0);
    let usable = motion.is_finite() && duration > 0.0 && duration.is_finite();
    let closed = match (usable, turning_twist(motion)) {
        (false, _) => None,
        (true, Some(twist)) => twist_point(footprint, motion, twist, point, duration, padding),
        (true, None) if motion.angular() == 0.0 => {
            let start = motion.start();
            let velocity = motion.origin_velocity(start);
            Some(translation_point(
                footprint, start, velocity, point, duration, padding,
            ))
        }
        (true, None) => None,
    };
    if let Some(swept) = closed {
        match swept {
            PointSwept::Miss => return None,
            PointSwept::Hit { time, axis } => {
                return Some(Impact {
                    time,
                    contact: Contact::Colliding { depth: 0.0, axis },
                    exact: true,
                    steps: 1,
                })
            }
            // Touching at the start: the advancement's first step reports
            // it with `query`'s contact (depth and MTV).
            PointSwept::Start(tol) => from = (0.0, tol),
        }
    }
    advance(
        footprint,
        motion,
        duration,
        &PointTarget(point),
        padding,
        from,
    )
}

/// The first time in `[0, duration]` at which `a` (body frame) placed by
/// `motion_a`, inflated by `padding`, touches `b` (body frame) placed by
/// `motion_b`: two moving shapes (robot A's footprint against robot B's),
/// both rigid motions with rotation. `None` when they do not touch. The
/// contact is in the fixed frame, both shapes placed at `time`.
///
/// * B still: [`time_of_impact`] in B's frame (A still: the same, roles
///   swapped); both translating: its closed form on the relative velocity.
///   Exact.
/// * Either turning: conservative advancement with both bodies' vertex
///   bounds: never later than the first contact (up to the tolerance),
///   converging to it (`exact` when it did within
///   [`MAX_ADVANCEMENT_STEPS`]).
/// * Either motion, or the duration, NaN or infinite: time 0, `exact:
///   false` (stop now).
///
/// The proof that no step passes the first contact is in the `toi`
/// module's documentation ("Two moving shapes").
///
/// ```
/// use nalgebra::Isometry2;
/// use sat_collision::geometry::{moving_time_of_impact, Motion, Point, Shape, Vector};
///
/// let robot = Shape::polygon(&[
///     Point::new(-0.5, -0.5), Point::new(0.5, -0.5),
///     Point::new(0.5, 0.5), Point::new(-0.5, 0.5),
/// ])?;
/// // Head-on: 4 m between the fronts, closing at 1 + 1 m/s (B faces -x).
/// let a = Motion::twist(&Isometry2::identity(), Vector::new(1.0, 0.0), 0.0);
/// let b_start = Isometry2::new(Vector::new(5.0, 0.0), std::f64::consts::PI);
/// let b = Motion::twist(&b_start, Vector::new(1.0, 0.0), 0.0);
/// let hit = moving_time_of_impact(&robot, &a, &robot, &b, 5.0, 0.0).expect("a contact");
/// assert!(hit.exact && (hit.time - 2.0).abs() < 1e-9);
/// // B turning in place instead (its near side between 4.29 and 4.5 m):
/// // the advancement, never late.
/// let turning = Motion::twist(&b_start, Vector::zeros(), 1.0);
/// let hit = moving_time_of_impact(&robot, &a, &robot, &turning, 5.0, 0.0).expect("a contact");
/// assert!(hit.exact && hit.time > 3.79 && hit.time <= 4.0);
/// # Ok::<(), sat_collision::geometry::ShapeError>(())
/// ```
pub fn moving_time_of_impact(
    a: &Shape,
    motion_a: &Motion,
    b: &Shape,
    motion_b: &Motion,
    duration: f64,
    padding: f64,
) -> Option<Impact> {
    let padding = if padding > 0.0 { padding } else { 0.0 };
    let usable = motion_a.is_finite() && motion_b.is_finite() && duration.is_finite();
    // The fixed frame's tolerance, kept in the reductions below (which
    // work in a body's frame, whose coordinates may be smaller).
    let swept = || moving_tolerance(a, motion_a, b, motion_b, duration.max(0.0), padding);
    if usable && still(motion_b) {
        // B stands at its start pose: the single-body question in B's frame.
        let frame = motion_b.start();
        let relative = motion_a.transformed(&frame.inverse());
        let tol = swept();
        return time_of_impact_within(a, &relative, duration, b, padding, tol).map(|hit| Impact {
            contact: hit.contact.transformed(frame),
            ..hit
        });
    }
    if usable && still(motion_a) {
        // The same with the roles swapped: the contact turned back to A's
        // side (axis from A toward B, closest points on A first).
        let frame = motion_a.start();
        let relative = motion_b.transformed(&frame.inverse());
        let tol = swept();
        return time_of_impact_within(b, &relative, duration, a, padding, tol).map(|hit| Impact {
            contact: swapped(&hit.contact).transformed(frame),
            ..hit
        });
    }
    if usable && motion_a.angular() == 0.0 && motion_b.angular() == 0.0 {
        // Both translate: in B's frame (which only translates) A moves at
        // the relative velocity. The tolerance from a bound of the swept
        // boxes in O(1), as the translation's closed form bounds its own.
        let span = duration.max(0.0);
        let scale = translated_reach(a, motion_a, span)
            .max(translated_reach(b, motion_b, span))
            .max(padding);
        let tol = length_tolerance(scale);
        let frame = *motion_b.start();
        let inverse = frame.inverse();
        let start_a = motion_a.start();
        let velocity = motion_a.origin_velocity(start_a) - motion_b.origin_velocity(&frame);
        let relative = Motion::Interpolated {
            start: inverse * start_a,
            velocity: inverse.rotation * velocity,
            angular: 0.0,
        };
        return time_of_impact_within(a, &relative, duration, b, padding, tol).map(|hit| Impact {
            contact: hit.contact.transformed(&motion_b.pose_at(hit.time)),
            ..hit
        });
    }
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => impact_moving(&mut scratch, a, motion_a, b, motion_b, duration, padding),
        Err(_) => impact_moving(
            &mut Scratch::default(),
            a,
            motion_a,
            b,
            motion_b,
            duration,
            padding,
        ),
    })
}

/// The motion stays at its start pose (velocity and turn rate zero).
fn still(motion: &Motion) -> bool {
    motion.angular() == 0.0 && motion.origin_velocity(motion.start()) == Vector::zeros()
}

/// The contact of B against A seen from A: the axis from A toward B, the
/// closest points on A first.
fn swapped(contact: &Contact) -> Contact {
    match *contact {
        Contact::Colliding { depth, axis } => Contact::Colliding { depth, axis: -axis },
        Contact::Apart {
            distance,
            axis,
            closest,
        } => Contact::Apart {
            distance,
            axis: -axis,
            closest: closest.map(|(on_b, on_a)| (on_a, on_b)),
        },
    }
}

/// The conservative advancement ([`impact`]) in the thread's scratch
/// buffers (fresh ones when they are in use: a re-entrant call).
fn advance(
    a: &Shape,
    motion: &Motion,
    duration: f64,
    b: &impl Pieces,
    padding: f64,
    from: (f64, f64),
) -> Option<Impact> {
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
    put(a, index, pose, placed, circle);
    placed_piece(a, index, placed, circle)
}

/// Moves piece `index` of `shape` to `pose`: into its slot of `placed` (a
/// polygon), or into `circle`.
fn put(
    shape: &Shape,
    index: usize,
    pose: &Isometry2<f64>,
    placed: &mut [ConvexPolygon],
    circle: &mut Circle,
) {
    match shape {
        Shape::Convex(p) => placed[0].set_transformed(p, pose),
        Shape::Compound(c) => placed[index].set_transformed(&c.pieces()[index], pose),
        Shape::Circle(c) => {
            *circle = Circle {
                center: pose * c.center,
                radius: c.radius,
            }
        }
    }
}

/// Piece `index` of `shape` as [`put`] left it: the piece (not inflated by
/// the padding) and its core's vertices.
fn placed_piece<'p>(
    shape: &Shape,
    index: usize,
    placed: &'p [ConvexPolygon],
    circle: &'p Circle,
) -> (Piece<'p>, &'p [Point]) {
    let slot = match shape {
        Shape::Convex(_) => &placed[0],
        Shape::Compound(_) => &placed[index],
        Shape::Circle(_) => return (circle.piece(), std::slice::from_ref(&circle.center)),
    };
    (polygon_piece(slot), slot.vertices())
}

/// One polygon buffer per polygon piece of `shape` (cloned the first time
/// only; later calls reuse their capacity).
fn slots(placed: &mut Vec<ConvexPolygon>, shape: &Shape) {
    match shape {
        Shape::Convex(p) if placed.is_empty() => placed.push(p.clone()),
        Shape::Compound(c) => {
            while placed.len() < c.pieces().len() {
                placed.push(c.pieces()[placed.len()].clone());
            }
        }
        _ => {}
    }
}

fn polygon_piece(polygon: &ConvexPolygon) -> Piece<'_> {
    Piece {
        core: Core::polygon(polygon),
        radius: 0.0,
        aabb: *polygon.aabb(),
    }
}

/// [`query`](super::query()) with A placed at `pose`, without building the placed shape.
fn contact_at(
    a: &Shape,
    pose: &Isometry2<f64>,
    placed: &mut [ConvexPolygon],
    b: &impl Pieces,
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
    let tol = length_tolerance(magnitude.max(b.bounds().magnitude()).max(padding));
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

fn impact(
    scratch: &mut Scratch,
    a: &Shape,
    motion: &Motion,
    duration: f64,
    b: &impl Pieces,
    padding: f64,
    from: (f64, f64),
) -> Option<Impact> {
    let (a_count, b_count) = (piece_count(a), b.count());
    let Scratch { placed, next, .. } = scratch;
    slots(placed, a);
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
    let tol = length_tolerance(swept.magnitude().max(b.bounds().magnitude()).max(padding));
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
                let pb = b.piece(j);
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
                let pb = b.piece(j);
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

/// A shape placed by [`put`] at one time, as the B of a query: its pieces
/// read from the buffers.
struct PlacedShape<'p> {
    shape: &'p Shape,
    placed: &'p [ConvexPolygon],
    circle: &'p Circle,
    bounds: Aabb,
}

impl<'p> PlacedShape<'p> {
    /// Every piece of `shape` put at `pose`.
    fn new(
        shape: &'p Shape,
        pose: &Isometry2<f64>,
        placed: &'p mut [ConvexPolygon],
        circle: &'p mut Circle,
    ) -> Self {
        let count = piece_count(shape);
        for j in 0..count {
            put(shape, j, pose, placed, circle);
        }
        let (placed, circle): (&'p [ConvexPolygon], &'p Circle) = (placed, circle);
        let bounds = (0..count)
            .map(|j| placed_piece(shape, j, placed, circle).0.aabb)
            .reduce(|x, y| x.union(&y))
            .unwrap_or(EVERYWHERE);
        PlacedShape {
            shape,
            placed,
            circle,
            bounds,
        }
    }
}

impl Pieces for PlacedShape<'_> {
    fn count(&self) -> usize {
        piece_count(self.shape)
    }
    fn piece(&self, index: usize) -> Piece<'_> {
        placed_piece(self.shape, index, self.placed, self.circle).0
    }
    fn bounds(&self) -> Aabb {
        self.bounds
    }
}

const EVERYWHERE: Aabb = Aabb {
    min: Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY),
    max: Point::new(f64::INFINITY, f64::INFINITY),
};

/// One body of [`moving_time_of_impact`] at the current time: its piece's
/// core vertices (placed), its origin, the origin's velocity, the turn
/// rate and the twist's share of `|ẍ|` (`|ω|·|v|`, 0 for a path segment).
struct Body<'v> {
    vertices: &'v [Point],
    origin: Point,
    velocity: Vector,
    omega: f64,
    twist_c2: f64,
}

impl Body<'_> {
    /// Each vertex's rate along `n` (m/s), its `|ẍ|` bound and how far it
    /// lies behind the support along `n`.
    fn rates<'s>(&'s self, n: &'s Vector) -> impl Iterator<Item = (f64, f64, f64)> + 's {
        let support = self
            .vertices
            .iter()
            .fold(f64::NEG_INFINITY, |m, x| m.max(x.coords.dot(n)));
        let base = n.dot(&self.velocity);
        let omega2 = self.omega * self.omega;
        self.vertices.iter().map(move |x| {
            let lever = x - self.origin;
            (
                base + self.omega * cross(&lever, n),
                omega2 * lever.norm() + self.twist_c2,
                support - x.coords.dot(n),
            )
        })
    }

    /// The fastest rate of a vertex along `n` (m/s).
    fn fastest(&self, n: &Vector) -> f64 {
        self.rates(n)
            .fold(f64::NEG_INFINITY, |m, (c1, _, _)| m.max(c1))
    }

    /// How far the support along `n` can rise within `delta` (the bound of
    /// the module documentation, `U(delta)`), at least 0.
    fn rise(&self, n: &Vector, delta: f64) -> f64 {
        self.rates(n).fold(0.0, |m, (c1, c2, behind)| {
            m.max(c1 * delta + 0.5 * c2 * delta * delta - behind)
        })
    }

    /// [`proven_apart`] of this body's vertices along `n`, its velocity
    /// taken relative to `frame_velocity`.
    fn apart(&self, frame_velocity: &Vector, n: &Vector, slack: f64) -> f64 {
        proven_apart(
            self.vertices,
            &self.origin,
            &(self.velocity - frame_velocity),
            self.omega,
            self.twist_c2,
            n,
            slack,
        )
    }
}

/// Least share of the slack either body gets when both turn.
const LEAST_SHARE: f64 = 1.0 / 16.0;

/// How long a pair of pieces at clearance `d` along the unit axis `n`
/// (from A toward B), `slack = d − tol`, is proven to stay above `tol`
/// when both bodies move (see "Two moving shapes" in the module
/// documentation).
fn proven_apart_both(a: &Body, b: &Body, n: &Vector, slack: f64) -> f64 {
    let away = -*n;
    if b.omega == 0.0 {
        // B translates: its fall along n is exactly linear, folded in.
        return a.apart(&b.velocity, n, slack);
    }
    if a.omega == 0.0 {
        return b.apart(&a.velocity, &away, slack);
    }
    // The split: what each side's bound needs over the step the fastest
    // vertices would allow (to first order).
    let fastest = a.fastest(n).max(0.0) + b.fastest(&away).max(0.0);
    let (need_a, need_b) = match fastest > 0.0 {
        true => {
            let delta = slack / fastest;
            (a.rise(n, delta), b.rise(&away, delta))
        }
        false => (0.0, 0.0),
    };
    let share = if need_a + need_b > 0.0 {
        (need_a / (need_a + need_b)).clamp(LEAST_SHARE, 1.0 - LEAST_SHARE)
    } else {
        0.5
    };
    let slack_a = slack * share;
    let still = Vector::zeros();
    a.apart(&still, n, slack_a)
        .min(b.apart(&still, &away, slack - slack_a))
}

/// `|ω|·|v|` for a twist (its origin's acceleration), 0 for a path segment.
fn twist_c2(motion: &Motion) -> f64 {
    match motion {
        Motion::Twist { velocity, .. } => motion.angular().abs() * velocity.norm(),
        Motion::Interpolated { .. } => 0.0,
    }
}

/// A box of the path of `shape`'s cores under `sweep` (piece `index`'s,
/// or the whole shape's), and the radius the cores are inflated by.
fn swept_box(shape: &Shape, sweep: &Sweep, index: Option<usize>) -> (Aabb, f64) {
    match (shape, index) {
        (Shape::Convex(p), _) => (sweep.points(p.vertices()), 0.0),
        (Shape::Compound(c), None) => (sweep.points(c.outline()), 0.0),
        (Shape::Compound(c), Some(i)) => (sweep.points(c.pieces()[i].vertices()), 0.0),
        (Shape::Circle(c), _) => (sweep.points(std::slice::from_ref(&c.center)), c.radius),
    }
}

/// The tolerance of two moving shapes: `length_tolerance` of both swept
/// boxes (fixed frame) and the padding.
fn swept_tolerance(a: &Shape, sweep_a: &Sweep, b: &Shape, sweep_b: &Sweep, padding: f64) -> f64 {
    let ((box_a, radius_a), (box_b, radius_b)) =
        (swept_box(a, sweep_a, None), swept_box(b, sweep_b, None));
    let magnitude = box_a
        .inflated(radius_a)
        .magnitude()
        .max(box_b.inflated(radius_b).magnitude());
    length_tolerance(magnitude.max(padding))
}

/// A bound of the magnitude of `shape`'s swept box under the translation
/// `motion` over `[0, duration]`: the origin's (a segment: its ends'),
/// plus the farthest a point of the shape can be from it.
fn translated_reach(shape: &Shape, motion: &Motion, duration: f64) -> f64 {
    let o0 = motion.start().translation.vector;
    let o1 = o0 + motion.origin_velocity(motion.start()) * duration;
    let body = shape.aabb();
    o0.amax().max(o1.amax()) + body.min.coords.abs().sup(&body.max.coords.abs()).norm()
}

/// [`swept_tolerance`] over `[0, duration]` (finite motions).
fn moving_tolerance(
    a: &Shape,
    motion_a: &Motion,
    b: &Shape,
    motion_b: &Motion,
    duration: f64,
    padding: f64,
) -> f64 {
    let (sweep_a, sweep_b) = (
        Sweep::new(motion_a, duration, 1),
        Sweep::new(motion_b, duration, 1),
    );
    swept_tolerance(a, &sweep_a, b, &sweep_b, padding)
}

fn pose_finite(pose: &Isometry2<f64>) -> bool {
    pose.translation.vector.iter().all(|x| x.is_finite())
        && pose.rotation.re.is_finite()
        && pose.rotation.im.is_finite()
}

/// The conservative advancement of two moving shapes (the module
/// documentation, "Two moving shapes").
fn impact_moving(
    scratch: &mut Scratch,
    a: &Shape,
    motion_a: &Motion,
    b: &Shape,
    motion_b: &Motion,
    duration: f64,
    padding: f64,
) -> Option<Impact> {
    let (a_count, b_count) = (piece_count(a), piece_count(b));
    let Scratch {
        placed,
        next,
        placed_b,
    } = scratch;
    slots(placed, a);
    slots(placed_b, b);
    let mut circle_b = Circle {
        center: Point::origin(),
        radius: 0.0,
    };
    let usable = motion_a.is_finite() && motion_b.is_finite() && duration.is_finite();
    if !usable || a_count == 0 || b_count == 0 {
        // Unusable: stop now.
        let (start_a, start_b) = (motion_a.start(), motion_b.start());
        let contact = if pose_finite(start_a) && pose_finite(start_b) && a_count * b_count > 0 {
            let placed_b = PlacedShape::new(b, start_b, placed_b, &mut circle_b);
            contact_at(a, start_a, placed, &placed_b, padding)
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
    let (sweep_a, sweep_b) = (
        Sweep::new(motion_a, duration, 1),
        Sweep::new(motion_b, duration, 1),
    );
    let tol = swept_tolerance(a, &sweep_a, b, &sweep_b, padding);
    let stop = tol * (1.0 + CONVERGED);

    // Time until which each pair (i, j) is proven apart; pairs whose swept
    // boxes stay apart never need a clearance.
    next.clear();
    next.resize(a_count * b_count, 0.0);
    if a_count * b_count > 1 {
        for i in 0..a_count {
            let (bound_a, radius_a) = swept_box(a, &sweep_a, Some(i));
            for j in 0..b_count {
                let (bound_b, radius_b) = swept_box(b, &sweep_b, Some(j));
                if bound_a.distance(&bound_b) - (radius_a + padding + radius_b) > stop {
                    next[i * b_count + j] = f64::INFINITY;
                }
            }
        }
    }

    let (omega_a, omega_b) = (motion_a.angular(), motion_b.angular());
    let (c2_a, c2_b) = (twist_c2(motion_a), twist_c2(motion_b));
    let mut circle = Circle {
        center: Point::origin(),
        radius: 0.0,
    };
    let mut t = 0.0;
    let mut steps = 0u32;
    let mut exact = false;
    while (steps as usize) < MAX_ADVANCEMENT_STEPS {
        steps += 1;
        let (pose_a, pose_b) = (motion_a.pose_at(t), motion_b.pose_at(t));
        // B's pieces that some pair measures now, placed once.
        for j in 0..b_count {
            if (0..a_count).any(|i| next[i * b_count + j] <= t) {
                put(b, j, &pose_b, placed_b, &mut circle_b);
            }
        }
        let (velocity_a, velocity_b) = (
            motion_a.origin_velocity(&pose_a),
            motion_b.origin_velocity(&pose_b),
        );
        let mut next_t = f64::INFINITY;
        let mut touching = false;
        'pieces: for i in 0..a_count {
            let row = &mut next[i * b_count..(i + 1) * b_count];
            if row.iter().all(|&until| until > t) {
                next_t = row.iter().fold(next_t, |m, &until| m.min(until));
                continue;
            }
            let (pa, vertices_a) = place(a, i, &pose_a, placed, &mut circle);
            let body_a = Body {
                vertices: vertices_a,
                origin: Point::from(pose_a.translation.vector),
                velocity: velocity_a,
                omega: omega_a,
                twist_c2: c2_a,
            };
            let radius = pa.radius + padding;
            for (j, until) in row.iter_mut().enumerate() {
                if *until > t {
                    next_t = next_t.min(*until);
                    continue;
                }
                let (pb, vertices_b) = placed_piece(b, j, placed_b, &circle_b);
                let d = separation(pa.core, pb.core);
                let clearance = d.value - (radius + pb.radius);
                if clearance.is_nan() || clearance <= stop {
                    touching = true; // NaN too: fail safe.
                    break 'pieces;
                }
                let body_b = Body {
                    vertices: vertices_b,
                    origin: Point::from(pose_b.translation.vector),
                    velocity: velocity_b,
                    omega: omega_b,
                    twist_c2: c2_b,
                };
                *until = t + proven_apart_both(&body_a, &body_b, &d.axis, clearance - tol);
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
    let placed_b = PlacedShape::new(b, &motion_b.pose_at(t), placed_b, &mut circle_b);
    let mut contact = contact_at(a, &motion_a.pose_at(t), placed, &placed_b, padding);
    if exact {
        if let Contact::Apart { axis, .. } = contact {
            // Converged with the motion's tolerance; the poses' own
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

mod point;
mod translation;
mod twist;

#[cfg(test)]
mod tests;
