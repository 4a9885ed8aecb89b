//! Collision queries between a footprint (shape A) and an obstacle (B).
//!
//! # Model
//!
//! Every shape is a union of convex *pieces*, each a core (a convex polygon,
//! or a circle's centre) inflated by a radius: a convex polygon is one piece
//! of radius 0, a circle one point of radius `r`, a concave polygon its
//! convex decomposition. `padding` inflates A by a disc (a Minkowski sum,
//! i.e. rounded corners, exactly like Box2D's polygon radius), so it adds to
//! A's radius. Distances between inflated pieces follow from the distances
//! between their cores ([`super::sat`]): subtract the radii.
//!
//! # Tolerance
//!
//! `tol = length_tolerance(max(|A|, |B|, padding))` where `|S|` is the
//! largest absolute coordinate of S's bounding box. Shapes are closed sets
//! and a gap `<= tol` is touching: colliding with depth 0.
//!
//! # Concave shapes
//!
//! A concave shape collides iff one of its pieces does, and its clearance is
//! the smallest over piece pairs. Depth, MTV and axis come from the piece
//! pair with the *greatest* depth. To separate A from a union, A has to be
//! cleared from every piece at once, so this depth is a **lower bound** of
//! the translation that separates A from the whole shape: moving A by the
//! reported MTV may leave it in another piece. It is exact when one piece
//! pair dominates (e.g. A overlaps a single piece, or the pieces it overlaps
//! are all cleared by the same move).
//!
//! Nothing here allocates.

use super::sat::Separation;
use super::sat::{clearance, deepest_separation, max_separation_witnessed, separation_from, Core};
use super::{length_tolerance, Aabb, Circle, ConvexPolygon, Point, Shape, Vector};

/// Result of a query between shape A (the footprint) and shape B (an
/// obstacle). Everything refers to A inflated by the padding.
///
/// Two cases, so that a contact cannot be colliding with a clearance, or
/// apart with a depth: the other quantities follow from the case
/// ([`depth`](Contact::depth), [`mtv`](Contact::mtv),
/// [`distance`](Contact::distance), ...).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Contact {
    /// A touches or overlaps B (closed sets: a gap `<= tol` counts).
    Colliding {
        /// Penetration depth (m), `>= 0`; 0 when just touching.
        depth: f64,
        /// Unit normal from A toward B: the axis of least overlap. The
        /// minimum translation vector is `-axis * depth`.
        axis: Vector,
    },
    /// A and B are apart.
    Apart {
        /// Euclidean clearance (m) between the closed shapes, `> 0`: exact
        /// from [`query`]; a lower bound where a caller says so (the broad
        /// phase's far obstacles).
        distance: f64,
        /// Unit separating axis from A toward B (A's projection lies below
        /// B's), along the closest points when they are known.
        axis: Vector,
        /// Closest points (on A, on B), when known.
        closest: Option<(Point, Point)>,
    },
}

impl Contact {
    /// Touching or overlapping.
    #[inline]
    pub fn colliding(&self) -> bool {
        matches!(self, Contact::Colliding { .. })
    }

    /// Penetration depth (m), `>= 0`; 0 when apart or just touching.
    #[inline]
    pub fn depth(&self) -> f64 {
        match *self {
            Contact::Colliding { depth, .. } => depth,
            Contact::Apart { .. } => 0.0,
        }
    }

    /// Translation of A that separates it from B: `-axis * depth` when
    /// colliding (`|mtv| == depth`), zero when apart.
    #[inline]
    pub fn mtv(&self) -> Vector {
        match *self {
            Contact::Colliding { depth, axis } => -axis * depth,
            Contact::Apart { .. } => Vector::zeros(),
        }
    }

    /// Clearance (m); 0 when colliding.
    #[inline]
    pub fn distance(&self) -> f64 {
        match *self {
            Contact::Colliding { .. } => 0.0,
            Contact::Apart { distance, .. } => distance,
        }
    }

    /// Unit normal from A toward B (see the variants).
    #[inline]
    pub fn axis(&self) -> Vector {
        match *self {
            Contact::Colliding { axis, .. } | Contact::Apart { axis, .. } => axis,
        }
    }

    /// Closest points (on A, on B) when apart and known.
    #[inline]
    pub fn closest(&self) -> Option<(Point, Point)> {
        match *self {
            Contact::Colliding { .. } => None,
            Contact::Apart { closest, .. } => closest,
        }
    }

    /// The same contact seen from another frame, `pose` taking points of
    /// the frame it was computed in to the other: the axis (and so the
    /// MTV) rotated, the closest points moved. Depth and clearance do not
    /// change under a rigid motion.
    #[inline]
    pub fn transformed(&self, pose: &nalgebra::Isometry2<f64>) -> Contact {
        match *self {
            Contact::Colliding { depth, axis } => Contact::Colliding {
                depth,
                axis: pose.rotation * axis,
            },
            Contact::Apart {
                distance,
                axis,
                closest,
            } => Contact::Apart {
                distance,
                axis: pose.rotation * axis,
                closest: closest.map(|(a, b)| (pose * a, pose * b)),
            },
        }
    }
}

/// True when A inflated by `padding` touches or overlaps B. Same verdict as
/// [`query`]`(..).colliding`, but stops at the first separating axis.
pub fn intersects(a: &Shape, b: &Shape, padding: f64) -> bool {
    let padding = sanitize(padding);
    let tol = tolerance(a, b, padding);
    if let (Shape::Convex(pa), Shape::Convex(pb)) = (a, b) {
        // The common case, without the loops over pieces.
        return pieces_collide(
            &Piece::polygon(pa).inflated(padding),
            &Piece::polygon(pb),
            tol,
        );
    }
    if piece_count(a) == 0 || piece_count(b) == 0 {
        return true; // Fail safe; validated shapes always have pieces.
    }
    for i in 0..piece_count(a) {
        let pa = piece(a, i).inflated(padding);
        for j in 0..piece_count(b) {
            if pieces_collide(&pa, &piece(b, j), tol) {
                return true;
            }
        }
    }
    false
}

/// Full answer: collision, depth and MTV, or clearance and closest points.
pub fn query(a: &Shape, b: &Shape, padding: f64) -> Contact {
    let padding = sanitize(padding);
    let tol = tolerance(a, b, padding);
    if let (Shape::Convex(pa), Shape::Convex(pb)) = (a, b) {
        // The common case, without the loops over pieces: what the loops
        // make of a single pair.
        return pair_contact(
            &Piece::polygon(pa).inflated(padding),
            &Piece::polygon(pb),
            tol,
        );
    }
    let mut best: Option<Contact> = None;
    for i in 0..piece_count(a) {
        let pa = piece(a, i).inflated(padding);
        for j in 0..piece_count(b) {
            let pb = piece(b, j);
            if let Some(best) = &best {
                // Boxes farther apart than the best clearance so far: this
                // pair can neither collide nor be nearer.
                let box_gap = pa.aabb.distance(&pb.aabb) - (pa.radius + pb.radius);
                if box_gap > tol && box_gap >= best.distance() {
                    continue;
                }
            }
            let contact = pair_contact(&pa, &pb, tol);
            best = Some(match best {
                Some(best) => more_relevant(best, contact),
                None => contact,
            });
        }
    }
    // Fail safe; validated shapes always have pieces.
    best.unwrap_or(FAIL_SAFE)
}

/// The collision part of [`query`]: when A (inflated by `padding`) touches
/// or overlaps B, `Some` of exactly what [`query`] returns; `None` when they
/// are apart. Like [`intersects`] it stops at the first separating axis and
/// never computes a clearance, so it costs about as much as [`intersects`]
/// (one walk over the faces when overlapping).
pub fn penetration(a: &Shape, b: &Shape, padding: f64) -> Option<Contact> {
    let padding = sanitize(padding);
    let tol = tolerance(a, b, padding);
    if let (Shape::Convex(pa), Shape::Convex(pb)) = (a, b) {
        // The common case, without the loops over pieces.
        return colliding_contact(
            &Piece::polygon(pa).inflated(padding),
            &Piece::polygon(pb),
            tol,
        );
    }
    if piece_count(a) == 0 || piece_count(b) == 0 {
        return Some(FAIL_SAFE); // Validated shapes always have pieces.
    }
    let mut best: Option<Contact> = None;
    for i in 0..piece_count(a) {
        let pa = piece(a, i).inflated(padding);
        for j in 0..piece_count(b) {
            if let Some(contact) = colliding_contact(&pa, &piece(b, j), tol) {
                best = Some(match best {
                    Some(best) => more_relevant(best, contact),
                    None => contact,
                });
            }
        }
    }
    best
}

/// Reported when nothing can be measured: a shape without pieces (never,
/// once validated), or a motion whose start cannot be placed. Colliding,
/// so the caller stops.
pub(crate) const FAIL_SAFE: Contact = Contact::Colliding {
    depth: 0.0,
    axis: Vector::new(1.0, 0.0),
};

/// A convex piece of a shape: `core` inflated by `radius`. `aabb` bounds the
/// core only.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Piece<'a> {
    pub core: Core<'a>,
    pub radius: f64,
    pub aabb: Aabb,
}

impl<'a> Piece<'a> {
    fn polygon(polygon: &'a ConvexPolygon) -> Self {
        Piece {
            core: Core::polygon(polygon),
            radius: 0.0,
            aabb: *polygon.aabb(),
        }
    }

    fn inflated(self, padding: f64) -> Self {
        Piece {
            radius: self.radius + padding,
            ..self
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

/// What shape A is measured against: a union of convex pieces (a shape,
/// or a single point) and the box that sets its tolerance scale. The
/// queries are generic over it, so a point is measured by the same loop,
/// the same pair test and the same tolerance rule as a shape.
pub(crate) trait Pieces {
    /// Number of pieces.
    fn count(&self) -> usize;
    /// Piece `index < count()`.
    fn piece(&self, index: usize) -> Piece<'_>;
    /// Bounding box (tolerance scale).
    fn bounds(&self) -> Aabb;
}

impl Pieces for Shape {
    #[inline]
    fn count(&self) -> usize {
        piece_count(self)
    }
    #[inline]
    fn piece(&self, index: usize) -> Piece<'_> {
        piece(self, index)
    }
    #[inline]
    fn bounds(&self) -> Aabb {
        self.aabb()
    }
}

/// A single point as B: one piece, the point as its core, radius 0 (a
/// circle of radius 0).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PointTarget(pub Point);

impl Pieces for PointTarget {
    #[inline]
    fn count(&self) -> usize {
        1
    }
    #[inline]
    fn piece(&self, _: usize) -> Piece<'_> {
        Piece {
            core: Core::point(&self.0),
            radius: 0.0,
            aabb: self.bounds(),
        }
    }
    #[inline]
    fn bounds(&self) -> Aabb {
        Aabb {
            min: self.0,
            max: self.0,
        }
    }
}

/// [`query`] of `a` against any [`Pieces`]: the loop over piece pairs with
/// its box pruning, under [`query`]'s tolerance.
pub(crate) fn query_pieces(a: &Shape, b: &impl Pieces, padding: f64) -> Contact {
    let padding = sanitize(padding);
    let scale = a
        .aabb()
        .magnitude()
        .max(b.bounds().magnitude())
        .max(padding);
    let tol = length_tolerance(scale);
    query_placed(piece_count(a), |i| piece(a, i), b, padding, tol)
}

pub(crate) fn piece_count(shape: &Shape) -> usize {
    match shape {
        Shape::Convex(_) | Shape::Circle(_) => 1,
        Shape::Compound(c) => c.pieces().len(),
    }
}

/// Piece `index < piece_count(shape)`.
pub(crate) fn piece(shape: &Shape, index: usize) -> Piece<'_> {
    match shape {
        Shape::Convex(p) => Piece::polygon(p),
        Shape::Compound(c) => Piece::polygon(&c.pieces()[index]),
        Shape::Circle(c) => c.piece(),
    }
}

/// Padding is validated by the caller; NaN or negative counts as none.
fn sanitize(padding: f64) -> f64 {
    if padding > 0.0 {
        padding
    } else {
        0.0
    }
}

fn tolerance(a: &Shape, b: &Shape, padding: f64) -> f64 {
    let scale = a.aabb().magnitude().max(b.aabb().magnitude()).max(padding);
    length_tolerance(scale)
}

/// The one test that decides "apart", used by every path so that
/// [`intersects`] and [`query`] always agree.
#[inline]
fn apart(core_distance: f64, radius: f64, tol: f64) -> bool {
    core_distance - radius > tol
}

/// The box test of every path: `Some` lower bound of the boxes' distance
/// when it is `apart`. The distance is at least either axis gap (and equals
/// the other when one is 0), so `hypot` is only needed when both gaps are
/// positive and neither decides alone.
#[inline]
fn boxes_apart(a: &Aabb, b: &Aabb, radius: f64, tol: f64) -> Option<f64> {
    let gaps = a.gaps(b);
    let larger = gaps.x.max(gaps.y);
    if apart(larger, radius, tol) {
        return Some(larger);
    }
    if gaps.x > 0.0 && gaps.y > 0.0 {
        let distance = gaps.x.hypot(gaps.y);
        if apart(distance, radius, tol) {
            return Some(distance);
        }
    }
    None
}

#[inline]
fn pieces_collide(a: &Piece, b: &Piece, tol: f64) -> bool {
    let radius = a.radius + b.radius;
    if boxes_apart(&a.aabb, &b.aabb, radius, tol).is_some() {
        return false;
    }
    cores_collide(a, b, radius, tol)
}

/// [`pieces_collide`] once the boxes do not rule the pair out.
#[inline(never)]
fn cores_collide(a: &Piece, b: &Piece, radius: f64, tol: f64) -> bool {
    // A point in both cores proves the overlap without visiting every face
    // (deep overlaps, containment). The centre of the boxes' overlap is a
    // good guess. Rounding can only accept a point within a few ulps of
    // both cores, i.e. a gap far below `tol`: colliding either way, so this
    // agrees with `query`.
    let guess = Point::from(
        (a.aabb.min.coords.sup(&b.aabb.min.coords) + a.aabb.max.coords.inf(&b.aabb.max.coords))
            * 0.5,
    );
    if a.core.contains(&guess) && b.core.contains(&guess) {
        return true;
    }
    // A vertex within half the allowance of its face's edge end is
    // "touching" for `query` too, far beyond its few ulps of rounding.
    let near = 0.5 * (tol + radius);
    let (max_sep, witnessed) =
        max_separation_witnessed(a.core, b.core, near, |sep| apart(sep, radius, tol));
    if apart(max_sep, radius, tol) {
        return false; // A separating axis.
    }
    if max_sep <= 0.0 {
        return true; // No axis separates the cores: they overlap.
    }
    if witnessed {
        // The cores are at most `max_sep` or `near` apart: not apart
        // (touching, or within the radii).
        return true;
    }
    // Apart along every normal by at most the radii: vertex–vertex cases
    // need the exact distance. The walk above saw every face and a positive
    // separation, so `clearance` is `separation` without its first walk.
    !apart(clearance(a.core, b.core).value, radius, tol)
}

/// [`pair_contact`] when the pieces collide, `None` when they are apart,
/// with the early exits of [`pieces_collide`]. When the cores overlap, the
/// walk that proved it already holds the deepest face, which is what
/// [`separation`](super::sat::separation) would report: no second walk.
#[inline]
fn colliding_contact(a: &Piece, b: &Piece, tol: f64) -> Option<Contact> {
    let radius = a.radius + b.radius;
    if boxes_apart(&a.aabb, &b.aabb, radius, tol).is_some() {
        return None;
    }
    cores_contact(a, b, radius, tol)
}

/// [`colliding_contact`] once the boxes do not rule the pair out.
#[inline(never)]
fn cores_contact(a: &Piece, b: &Piece, radius: f64, tol: f64) -> Option<Contact> {
    if !(a.core.is_point() && b.core.is_point()) {
        let (max_sep, axis) = deepest_separation(a.core, b.core, |sep| apart(sep, radius, tol));
        if apart(max_sep, radius, tol) {
            return None; // A separating axis.
        }
        if max_sep <= 0.0 {
            // Exactly what `pair_contact` makes of `separation` here.
            let depth = (radius - max_sep).max(0.0);
            return Some(Contact::Colliding { depth, axis });
        }
        // Every face seen, a positive separation: `separation` would only
        // repeat this walk before `clearance`.
        let contact = contact_from(a, b, clearance(a.core, b.core), tol);
        return contact.colliding().then_some(contact);
    }
    let contact = pair_contact(a, b, tol);
    contact.colliding().then_some(contact)
}

fn pair_contact(a: &Piece, b: &Piece, tol: f64) -> Contact {
    let radius = a.radius + b.radius;
    // The descent's clearance differs from the full walk's by a few ulps of
    // the coordinates at most (far below tol / 8): beyond that margin from
    // the threshold both decide "apart", so `intersects` agrees.
    // Boxes apart along an axis: so are the cores, and the offset of the
    // boxes' centres is a good first guess of the closest points'.
    let gaps = a.aabb.gaps(&b.aabb);
    let direction = b.aabb.center() - a.aabb.center();
    let likely_apart = gaps.x > 0.0 || gaps.y > 0.0;
    let beyond = radius + tol + ACCEPT_MARGIN * tol;
    let sep = separation_from(a.core, b.core, likely_apart.then_some(&direction), beyond);
    contact_from(a, b, sep, tol)
}

/// How far beyond the apart threshold, in units of tol, a clearance found
/// by the descent must be to be used: it then cannot decide otherwise than
/// the full walk.
const ACCEPT_MARGIN: f64 = 0.125;

/// The contact of two pieces whose cores are `sep = separation(..)` apart.
fn contact_from(a: &Piece, b: &Piece, sep: Separation, tol: f64) -> Contact {
    let radius = a.radius + b.radius;
    // `intersects` trusts the box test; so must we, even after rounding.
    // Cores apart by themselves need not ask it: the boxes' distance is
    // not larger than theirs beyond rounding.
    let value = match apart(sep.value, radius, tol) {
        true => sep.value,
        false => match boxes_apart(&a.aabb, &b.aabb, radius, tol) {
            Some(box_gap) => sep.value.max(box_gap),
            None => sep.value,
        },
    };
    if apart(value, radius, tol) {
        Contact::Apart {
            distance: value - radius,
            axis: sep.axis,
            closest: sep
                .closest
                .map(|(p, q)| (p + sep.axis * a.radius, q - sep.axis * b.radius)),
        }
    } else {
        Contact::Colliding {
            depth: (radius - value).max(0.0),
            axis: sep.axis,
        }
    }
}

/// What matters for a union: the deepest collision, else the nearest piece.
fn more_relevant(best: Contact, candidate: Contact) -> Contact {
    match (best, candidate) {
        (Contact::Apart { .. }, Contact::Colliding { .. }) => candidate,
        (Contact::Colliding { depth: best, .. }, Contact::Colliding { depth, .. })
            if depth > best =>
        {
            candidate
        }
        (Contact::Apart { distance: best, .. }, Contact::Apart { distance, .. })
            if distance < best =>
        {
            candidate
        }
        _ => best,
    }
}

/// [`query`] of a shape A given as its pieces already placed
/// (`a_piece(i)` for `i < a_count`, not inflated by `padding`) against `b`
/// (a shape or a point),
/// with the caller's tolerance `tol` (that of [`query`] for the placed A):
/// the same loop, so the same answer as [`query`] on the placed shape,
/// without building it (time of impact, [`super::toi`]).
pub(crate) fn query_placed<'a>(
    a_count: usize,
    a_piece: impl Fn(usize) -> Piece<'a>,
    b: &impl Pieces,
    padding: f64,
    tol: f64,
) -> Contact {
    let padding = sanitize(padding);
    let mut best: Option<Contact> = None;
    for i in 0..a_count {
        let pa = a_piece(i).inflated(padding);
        for j in 0..b.count() {
            let pb = b.piece(j);
            if let Some(best) = &best {
                let box_gap = pa.aabb.distance(&pb.aabb) - (pa.radius + pb.radius);
                if box_gap > tol && box_gap >= best.distance() {
                    continue;
                }
            }
            let contact = pair_contact(&pa, &pb, tol);
            best = Some(match best {
                Some(best) => more_relevant(best, contact),
                None => contact,
            });
        }
    }
    best.unwrap_or(FAIL_SAFE)
}
