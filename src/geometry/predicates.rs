//! Orientation predicates: the one set every geometry module uses.
//!
//! * [`orient`] is **exact** (its sign is that of the real determinant, for
//!   any finite coordinates within [`MAX_COORDINATE`](super::polygon::MAX_COORDINATE)):
//!   every topological decision of the convex decomposition is such a sign.
//!   [`orient_filtered`] is its floating-point filter alone, for pruning.
//! * [`turn_float`] and [`orientation_float`] are the same determinant in
//!   plain floating point, kept (and named) where a **tolerance** is
//!   intended and the result must stay what it always was:
//!   - the validation's segment test (`polygon::segments_within`) pairs
//!     the sign of [`orientation_float`] with distances compared to `tol`
//!     (the tolerance policy of the [module documentation](super)): a sign
//!     that rounding gets wrong belongs to a point within rounding of the
//!     other segment's line, where the `tol` distance tests decide almost
//!     always; that [`orient`] would give the same verdict on every input
//!     is not proved, and validation results must not change, so the float
//!     sign stays;
//!   - [`turn_float`] is the turn the SAT code and the convexity check
//!     compute (`(b − a) × (c − b)`, not `(b − a) × (c − a)`: the two
//!     round differently): the decomposition checks its pieces with it so
//!     that what it emits is convex for them, not only exactly convex.

use super::{cross, Point};

/// [`orient`]'s floating-point filter alone: its value when the sign is
/// certain, 0 otherwise.
#[inline]
pub(crate) fn orient_filtered(a: Point, b: Point, c: Point) -> f64 {
    let left = (a.x - c.x) * (b.y - c.y);
    let right = (a.y - c.y) * (b.x - c.x);
    let det = left - right;
    if det.abs() > ORIENT_FILTER * (left.abs() + right.abs()) {
        det
    } else {
        0.0
    }
}

/// Error bound of the floating-point orientation, relative to the sum of
/// the magnitudes of its two products: `(3 + 16ε)ε`, ε = 2⁻⁵³ (Shewchuk).
const ORIENT_FILTER: f64 = (3.0 + 16.0 * f64::EPSILON / 2.0) * (f64::EPSILON / 2.0);

/// Orientation of the triangle `abc`: positive when counter-clockwise,
/// negative when clockwise, zero when collinear, with the **sign exact**
/// (the magnitude is only an estimate).
///
/// Every decision of the ear clipper and of the merging is such a sign. With
/// plain floating point, two tests of nearly collinear points can disagree
/// (a vertex "outside" an ear whose apex nevertheless "turns left" past
/// it), the remaining ring stops being simple and later ears amplify the
/// error into uncovered area. Exact signs make the triangulation exact for
/// the given coordinates.
///
/// Floating-point filter first (Shewchuk's `orient2d` bound); only nearly
/// collinear points take the exact path. Exact as long as no product of two
/// coordinates underflows (coordinates are at most
/// [`MAX_COORDINATE`](super::polygon::MAX_COORDINATE) by validation, so
/// none overflows).
pub(crate) fn orient(a: Point, b: Point, c: Point) -> f64 {
    let left = (a.x - c.x) * (b.y - c.y);
    let right = (a.y - c.y) * (b.x - c.x);
    let det = left - right;
    let bound = ORIENT_FILTER * (left.abs() + right.abs());
    if det > bound || -det > bound {
        det
    } else {
        exact_orient(a, b, c)
    }
}

/// Sign (as ±1 or 0) of `(a.x − c.x)(b.y − c.y) − (a.y − c.y)(b.x − c.x)`
/// computed exactly: expanded into six products of coordinates, each split
/// into two doubles with a fused multiply-add, summed as a non-overlapping
/// expansion whose largest component carries the sign.
#[cold]
fn exact_orient(a: Point, b: Point, c: Point) -> f64 {
    let products = [
        (a.x, b.y),
        (-a.x, c.y),
        (-c.x, b.y),
        (-a.y, b.x),
        (a.y, c.x),
        (c.y, b.x),
    ];
    // Shewchuk's Grow-Expansion: components in increasing magnitude, none
    // overlapping; at most 12 here.
    let mut expansion = [0.0f64; 12];
    let mut len = 0;
    for (x, y) in products {
        let product = x * y;
        let error = x.mul_add(y, -product);
        for term in [error, product] {
            let mut q = term;
            for slot in expansion.iter_mut().take(len) {
                let (sum, tail) = two_sum(q, *slot);
                *slot = tail;
                q = sum;
            }
            expansion[len] = q;
            len += 1;
        }
    }
    expansion[..len]
        .iter()
        .rev()
        .find(|&&x| x != 0.0)
        .map_or(0.0, |x| x.signum())
}

/// `a + b` as `(rounded sum, exact rounding error)` (Knuth).
#[inline]
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let sum = a + b;
    let b_virtual = sum - a;
    let a_virtual = sum - b_virtual;
    (sum, (a - a_virtual) + (b - b_virtual))
}

/// Turn at `b` on the way `a → b → c` in plain floating point, as the
/// polygon validation and the SAT code see it: the convex decomposition
/// requires its pieces to turn strictly left by this measure too, on top of
/// [`orient`], so that a piece it emits is convex for the SAT code.
#[inline]
pub(crate) fn turn_float(a: Point, b: Point, c: Point) -> f64 {
    cross(&(b - a), &(c - b))
}

/// Orientation of `abc` in plain floating point, `(b − a) × (c − a)`: the
/// sign the validation's segment test pairs with its `tol` distances (see
/// the module documentation for why it is not [`orient`]).
#[inline]
pub(crate) fn orientation_float(a: Point, b: Point, c: Point) -> f64 {
    cross(&(b - a), &(c - a))
}
