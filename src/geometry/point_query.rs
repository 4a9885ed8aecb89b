//! Point queries against any shape: distance and containment, through the
//! same pieces (cores inflated by a radius) as the shape–shape queries; the
//! contact of a padded footprint with a point ([`point_contact`]); and
//! [`PointProbe`], the same answers for many points with cheap bounds
//! first (the engine's point sets).

use super::polygon::MAX_COORDINATE;
use super::query::{piece, piece_count, query_pieces, Contact, PointTarget};
use super::sat::{point_bound, separation, Core};
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

/// A padded footprint prepared for many points: [`point_contact`]'s
/// answers, with bounds that settle most points without it.
///
/// The bounds rest on one fact about the pair test [`point_contact`] runs
/// for each convex piece `j` of the footprint (radius `R_j` with the
/// padding): the core's separation `value_j` from the point is at least the
/// largest face separation `s_j` (`sat::point_bound`, the same
/// arithmetic), and equals it when `s_j <= 0`. When the descent of the pair
/// test gives a value below `s_j` by rounding, it has accepted only a value
/// beyond `R_j + tol`: apart either way. Hence, with
/// `lower = min_j (s_j − R_j)`:
///
/// * some `s_j <= 0`: the point is in a core: colliding;
/// * `lower > tol`: every piece is apart: apart, with a clearance at least
///   `lower` (up to the rounding of a descent, a few ulps of the
///   coordinates, far below `tol`);
/// * a depth is at most `max(0, −lower)`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PointProbe<'a> {
    footprint: &'a Shape,
    padding: f64,
    /// The footprint's tolerance scale with the padding's.
    scale: f64,
}

/// [`PointProbe::bounds`] of one point.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PointBounds {
    /// The point is in a core of the footprint: it collides.
    pub(crate) inside_core: bool,
    /// A lower bound of the signed clearance (minus the depth when
    /// colliding), exact when the point is in a core; `-inf` when the
    /// point cannot be bounded (not finite, or beyond `MAX_COORDINATE`).
    pub(crate) lower: f64,
}

impl<'a> PointProbe<'a> {
    /// For `footprint` inflated by `padding` (NaN or negative is none).
    pub(crate) fn new(footprint: &'a Shape, padding: f64) -> Self {
        let padding = if padding > 0.0 { padding } else { 0.0 };
        PointProbe {
            footprint,
            padding,
            scale: footprint.aabb().magnitude().max(padding),
        }
    }

    /// The padding, as [`point_contact`] reads it.
    pub(crate) fn padding(&self) -> f64 {
        self.padding
    }

    /// [`point_contact`]'s tolerance for `p` (the maxima are exact, so the
    /// order in which they are taken does not matter).
    #[inline]
    pub(crate) fn tolerance(&self, p: &Point) -> f64 {
        length_tolerance(self.scale.max(p.x.abs()).max(p.y.abs()))
    }

    /// The bounds of `p` (see the type's documentation).
    #[inline]
    pub(crate) fn bounds(&self, p: &Point) -> PointBounds {
        let usable = |v: f64| v.abs() <= MAX_COORDINATE; // false for NaN and inf
        if !(usable(p.x) && usable(p.y)) {
            return PointBounds {
                inside_core: false,
                lower: f64::NEG_INFINITY,
            };
        }
        let mut bounds = PointBounds {
            inside_core: false,
            lower: f64::INFINITY,
        };
        for j in 0..piece_count(self.footprint) {
            let piece = piece(self.footprint, j);
            let s = point_bound(piece.core, p);
            // The pair test's radius, summed in its order: the piece's,
            // the padding, then B's (0).
            let radius = (piece.radius + self.padding) + 0.0;
            bounds.inside_core |= s <= 0.0;
            let gap = s - radius;
            if gap < bounds.lower {
                bounds.lower = gap;
            }
        }
        bounds
    }

    /// `point_contact(footprint, p, padding).colliding()`, deciding from
    /// the bounds when they can.
    #[inline]
    pub(crate) fn collides(&self, p: &Point) -> bool {
        let bounds = self.bounds(p);
        if bounds.inside_core {
            return true;
        }
        if bounds.lower > self.tolerance(p) {
            return false;
        }
        self.contact(p).colliding()
    }

    /// Exactly [`point_contact`].
    #[inline]
    pub(crate) fn contact(&self, p: &Point) -> Contact {
        point_contact(self.footprint, *p, self.padding)
    }
}
