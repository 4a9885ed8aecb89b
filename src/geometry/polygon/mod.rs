//! Polygon validation and normalisation.
//!
//! Raw points from the outside world are turned into a [`SimplePolygon`]:
//! finite, counter-clockwise, without repeated or collinear vertices, and
//! simple (no self-intersection). Everything that cannot be repaired without
//! guessing is a typed [`PolygonError`].
//!
//! With `tol` the length tolerance of the input's coordinates (see
//! [`length_tolerance`]), in order:
//!
//! 1. At most [`MAX_VERTICES`] points, each coordinate finite and at most
//!    [`MAX_COORDINATE`] in magnitude.
//! 2. A point within `tol` of the previous one is merged into it, closing
//!    points within `tol` of the first are dropped; at least three remain.
//! 3. If the net area is negligible (`|2A| <= tol × perimeter`) and every
//!    point is within `tol` of one line: `zero_area`.
//! 4. A clockwise ring is reversed.
//! 5. Collinear vertices are dropped: a vertex goes when it, and every
//!    vertex dropped beside it, lies within `tol` of the edge that replaces
//!    them, so the boundary never moves by more than `tol`. Where the
//!    boundary doubles back on itself (a zero-width spike, or an edge
//!    ending within `tol` of its neighbour edge) it is self-intersecting.
//! 6. Turning left at every vertex and winding once is convex. Anything
//!    else has at most [`MAX_CONCAVE_VERTICES`] vertices and no two edges
//!    within `tol` of each other (except neighbours, at their shared
//!    vertex): a point visited twice, a vertex on another edge, crossing
//!    edges are all self-intersections. A simple ring whose area is
//!    negligible (a sliver thinner than `tol`) is `zero_area`.
//!
//! Errors name edges in the caller's numbering: edge `k` joins input point
//! `k` to the next one, whatever the orientation.

use super::{cross, length_tolerance, Aabb, Point, Vector};
use intersection::find_self_intersection;
use intersection::point_segment_distance;
use std::f64::consts::TAU;

/// Most vertices accepted for any polygon.
pub const MAX_VERTICES: usize = 65_536;

/// Most vertices accepted for a concave polygon: the simplicity check and
/// the decomposition of concave polygons cost more than linear time (about
/// `n log n` for ordinary outlines, more for dense arrangements of long
/// edges whose bounding boxes overlap, such as a spiky star).
pub const MAX_CONCAVE_VERTICES: usize = 4_096;

/// Largest accepted coordinate magnitude (metres). Beyond it, differences
/// and cross products of coordinates could overflow to infinity and every
/// geometric predicate would silently become NaN; such points are reported
/// as [`PolygonError::NonFinite`].
pub const MAX_COORDINATE: f64 = 1e150;

/// Why a list of points is not a usable polygon.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PolygonError {
    /// Fewer than three distinct points (after merging repeated points).
    #[error("polygon needs at least 3 distinct points, got {distinct}")]
    TooFewPoints {
        /// Distinct points found.
        distinct: usize,
    },
    /// A coordinate is NaN, infinite, or larger in magnitude than
    /// [`MAX_COORDINATE`].
    #[error("point {index} has a NaN, infinite or out-of-range coordinate")]
    NonFinite {
        /// Index of the first such point in the input.
        index: usize,
    },
    /// All points lie on one line (within tolerance): the polygon has no area.
    #[error("polygon has zero area (all points collinear)")]
    ZeroArea,
    /// Two edges cross or overlap, or a vertex lies on a non-adjacent edge.
    ///
    /// Edge `k` joins input point `k` to the next input point, numbered as
    /// given (whatever the orientation); `first_edge <= second_edge`. When
    /// repeated or collinear points were merged, the edge reported is the
    /// first input edge of non-zero length of the merged edge.
    #[error("polygon is self-intersecting (edges {first_edge} and {second_edge})")]
    SelfIntersecting {
        /// The lower-numbered edge.
        first_edge: usize,
        /// The other edge.
        second_edge: usize,
    },
    /// More vertices than this library accepts for this kind of polygon.
    #[error("polygon has {count} vertices, at most {max} are accepted")]
    TooManyVertices {
        /// Vertices given.
        count: usize,
        /// Vertices accepted.
        max: usize,
    },
    /// A convex polygon was required but the points form a concave one.
    #[error("polygon is not convex")]
    NotConvex,
}

/// Shape class of a closed polyline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Convexity {
    /// Every interior angle below 180 degrees.
    Convex,
    /// Simple but with at least one reflex vertex.
    Concave,
    /// Two edges cross or overlap: not a simple polygon.
    SelfIntersecting,
}

/// A validated simple polygon: finite, counter-clockwise, at least three
/// vertices, no repeated or collinear vertices, no self-intersection. The
/// vertices are input points, in input order (reversed if the input was
/// clockwise), starting from the first one kept.
#[derive(Clone, Debug, PartialEq)]
pub struct SimplePolygon {
    vertices: Vec<Point>,
    convex: bool,
}

impl SimplePolygon {
    /// Validates and normalises raw points (see the module documentation).
    ///
    /// Cost: linear for convex polygons; for non-convex ones the simplicity
    /// check is a sweep over the edges' x extents whose candidates come
    /// from a box tree, about `n log n` for ordinary outlines but
    /// proportional to the number of overlapping edge boxes at worst, which
    /// is why they are capped at [`MAX_CONCAVE_VERTICES`].
    pub fn new(points: &[Point]) -> Result<Self, PolygonError> {
        Self::new_in(points, Vec::new(), &mut Scratch::default())
    }

    /// [`new`](Self::new) with the vertices written into `vertices`
    /// (cleared first) and the work done in `scratch`: no allocation once
    /// both have grown to the input's size.
    pub(crate) fn new_in(
        points: &[Point],
        vertices: Vec<Point>,
        scratch: &mut Scratch,
    ) -> Result<Self, PolygonError> {
        if points.len() > MAX_VERTICES {
            return Err(PolygonError::TooManyVertices {
                count: points.len(),
                max: MAX_VERTICES,
            });
        }
        if let Some(index) = points.iter().position(|p| !coordinates_usable(p)) {
            return Err(PolygonError::NonFinite { index });
        }
        let aabb = Aabb::from_points(points).ok_or(PolygonError::TooFewPoints { distinct: 0 })?;
        let tol = length_tolerance(aabb.magnitude());

        let Scratch {
            input_index,
            first_pass,
            kept,
        } = scratch;
        let mut ring = Ring::dedup(points, tol, vertices, input_index);
        if ring.len() < 3 {
            return Err(PolygonError::TooFewPoints {
                distinct: ring.len(),
            });
        }
        let twice_area = twice_signed_area(&ring.vertices);
        // Negligible net area: either every point is on one line, or a sliver
        // thinner than the tolerance, or lobes of opposite orientation
        // cancel out (a figure eight). Only the simplicity check below can
        // tell the last two apart.
        let negligible_area = twice_area.abs() <= tol * perimeter(&ring.vertices);
        if negligible_area && max_line_deviation(&ring.vertices) <= tol {
            return Err(PolygonError::ZeroArea);
        }
        if twice_area < 0.0 {
            ring.reverse();
        }
        ring.remove_collinear(tol, first_pass, kept)?;
        if ring.len() < 3 {
            return Err(PolygonError::ZeroArea);
        }
        let convexity = classify_ccw(&ring.vertices);
        if convexity == Convexity::Convex {
            // Left turns only, winding once: simple, no further check needed.
            if negligible_area {
                return Err(PolygonError::ZeroArea);
            }
            return Ok(SimplePolygon {
                vertices: ring.vertices,
                convex: true,
            });
        }
        if ring.len() > MAX_CONCAVE_VERTICES {
            return Err(PolygonError::TooManyVertices {
                count: ring.len(),
                max: MAX_CONCAVE_VERTICES,
            });
        }
        if let Some(error) = ring.find_self_intersection(tol) {
            return Err(error);
        }
        if convexity == Convexity::SelfIntersecting {
            // Left turns only but winding more than once cannot be simple;
            // the sweep should have found the crossing. Never accept it.
            return Err(ring.intersection_error(0, 0));
        }
        if negligible_area {
            return Err(PolygonError::ZeroArea);
        }
        Ok(SimplePolygon {
            vertices: ring.vertices,
            convex: false,
        })
    }

    /// Counter-clockwise vertices, first vertex not repeated at the end.
    pub fn vertices(&self) -> &[Point] {
        &self.vertices
    }

    /// True when every vertex is convex.
    pub fn is_convex(&self) -> bool {
        self.convex
    }

    /// [`Convexity::Convex`] or [`Convexity::Concave`] (a validated
    /// polygon is simple).
    pub fn convexity(&self) -> Convexity {
        if self.convex {
            Convexity::Convex
        } else {
            Convexity::Concave
        }
    }

    /// Area in square metres (positive).
    pub fn area(&self) -> f64 {
        0.5 * twice_signed_area(&self.vertices)
    }

    /// The counter-clockwise vertices, by value.
    pub fn into_vertices(self) -> Vec<Point> {
        self.vertices
    }
}

/// Classifies raw points without normalising them into a polygon.
/// Invalid input (non-finite, too few points, zero area) is an error.
pub fn classify(points: &[Point]) -> Result<Convexity, PolygonError> {
    match SimplePolygon::new(points) {
        Ok(polygon) => Ok(polygon.convexity()),
        Err(PolygonError::SelfIntersecting { .. }) => Ok(Convexity::SelfIntersecting),
        Err(other) => Err(other),
    }
}

/// Finite and small enough that differences and cross products of
/// coordinates cannot overflow.
fn coordinates_usable(p: &Point) -> bool {
    p.x.abs() <= MAX_COORDINATE && p.y.abs() <= MAX_COORDINATE
}

/// Work buffers of validation, kept from polygon to polygon by a caller
/// that validates many (see [`PolygonBuilder`](super::PolygonBuilder)).
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    input_index: Vec<usize>,
    first_pass: Vec<usize>,
    kept: Vec<usize>,
}

/// The ring being normalised, with, for each vertex, the input index of the
/// point it came from, so that errors name edges as the caller numbered
/// them.
struct Ring<'s> {
    vertices: Vec<Point>,
    /// Input index of each vertex: the last of a run of repeated points, so
    /// that the input edge starting there has non-zero length.
    input_index: &'s mut Vec<usize>,
    /// The ring runs opposite to the input.
    reversed: bool,
}

impl<'s> Ring<'s> {
    /// Drops points within `tol` of their predecessor, and closing points
    /// within `tol` of the first. The ring lives in the two buffers given
    /// (cleared first).
    fn dedup(
        points: &[Point],
        tol: f64,
        mut vertices: Vec<Point>,
        input_index: &'s mut Vec<usize>,
    ) -> Self {
        vertices.clear();
        input_index.clear();
        for (index, p) in points.iter().enumerate() {
            match vertices.last() {
                Some(last) if (p - last).norm() <= tol => {
                    // Same point again: the edge onward starts here.
                    if let Some(slot) = input_index.last_mut() {
                        *slot = index;
                    }
                }
                _ => {
                    vertices.push(*p);
                    input_index.push(index);
                }
            }
        }
        // Closing points come before the first point in cyclic order, so the
        // first vertex keeps its own (later) index.
        while vertices.len() > 1 && (vertices[vertices.len() - 1] - vertices[0]).norm() <= tol {
            vertices.pop();
            input_index.pop();
        }
        Ring {
            vertices,
            input_index,
            reversed: false,
        }
    }

    fn len(&self) -> usize {
        self.vertices.len()
    }

    fn reverse(&mut self) {
        self.vertices.reverse();
        self.input_index.reverse();
        self.reversed = !self.reversed;
    }

    /// Input number of the ring edge from vertex `from` to vertex `to`: the
    /// edge starts at whichever end comes first in input order.
    fn input_edge(&self, from: usize, to: usize) -> usize {
        if self.reversed {
            self.input_index[to]
        } else {
            self.input_index[from]
        }
    }

    /// The error for ring edges `i` and `j` touching, in input numbering.
    fn intersection_error(&self, i: usize, j: usize) -> PolygonError {
        let n = self.len();
        self.edge_pair_error((i, (i + 1) % n), (j, (j + 1) % n))
    }

    /// A pair of touching edges, in input numbering, if any. The sweep
    /// stops at the first pair it meets (deterministic, not necessarily the
    /// lowest numbers): rejecting garbage with millions of crossings must
    /// stay fast.
    fn find_self_intersection(&self, tol: f64) -> Option<PolygonError> {
        find_self_intersection(&self.vertices, tol).map(|(i, j)| self.intersection_error(i, j))
    }

    /// Drops collinear vertices: a vertex goes when it, and every vertex
    /// dropped next to it, lies within `tol` of the edge that replaces them.
    /// Checking only against the current neighbours would let the error
    /// add up along a finely sampled arc (each vertex within `tol` of its
    /// neighbours' chord, the final chord many `tol` away), shrinking the
    /// polygon by more than the tolerance promises.
    ///
    /// Linear: a first greedy pass from vertex 0 finds a corner, a second
    /// pass starts there so that the wrap-around at vertex 0 is handled like
    /// any other place. Then no two neighbouring edges may overlap (a
    /// zero-width spike), which the self-intersection sweep does not check.
    fn remove_collinear(
        &mut self,
        tol: f64,
        first_pass: &mut Vec<usize>,
        kept: &mut Vec<usize>,
    ) -> Result<(), PolygonError> {
        self.keep_corners(0, tol, first_pass)?;
        let start = first_pass[first_pass.len() / 2];
        self.keep_corners(start, tol, kept)?;
        // Keep the input's order and starting point as far as possible.
        if let Some(first) = kept
            .iter()
            .enumerate()
            .min_by_key(|&(_, &v)| v)
            .map(|(i, _)| i)
        {
            kept.rotate_left(first);
        }
        // `kept` now increases, so the ring compacts in place: every read is
        // at or after the slot being written.
        for (slot, &i) in kept.iter().enumerate() {
            self.vertices[slot] = self.vertices[i];
            self.input_index[slot] = self.input_index[i];
        }
        self.vertices.truncate(kept.len());
        self.input_index.truncate(kept.len());
        if self.len() < 3 {
            return Ok(()); // Degenerate: the caller reports zero area.
        }
        self.reject_spikes(tol)
    }

    /// Greedy sleeve fitting around the ring from `start`: ring positions of
    /// the vertices kept, `start` first, written into `kept` (cleared first).
    fn keep_corners(
        &self,
        start: usize,
        tol: f64,
        kept: &mut Vec<usize>,
    ) -> Result<(), PolygonError> {
        let n = self.len();
        let at = |k: usize| (start + k) % n;
        kept.clear();
        kept.push(start);
        // Edge being grown from `anchor` (ring offset) to the candidate end
        // `end`; the vertices strictly between have been dropped.
        let mut anchor = 0;
        let mut end = 1;
        let mut sleeve = Sleeve::new(self.vertices[start], self.vertices[at(1)]);
        for next in 2..=n {
            let candidate = self.vertices[at(end)];
            let mut grown = sleeve;
            grown.admit(candidate, tol);
            if grown.holds(self.vertices[at(next)], tol) {
                sleeve = grown;
            } else {
                self.check_progress(start, anchor, end)?;
                kept.push(at(end));
                anchor = end;
                sleeve = Sleeve::new(candidate, self.vertices[at(next)]);
            }
            end = next;
        }
        // The last edge closes the ring at `start`.
        self.check_progress(start, anchor, n)
    }

    /// The vertices dropped between ring offsets `anchor` and `end` (from
    /// `start`) must advance along the new edge: going back means the
    /// boundary runs over itself.
    fn check_progress(&self, start: usize, anchor: usize, end: usize) -> Result<(), PolygonError> {
        let n = self.len();
        let at = |k: usize| (start + k) % n;
        let origin = self.vertices[at(anchor)];
        let direction = self.vertices[at(end)] - origin;
        let mut previous = 0.0;
        for k in anchor + 1..=end {
            let along = direction.dot(&(self.vertices[at(k)] - origin));
            if along < previous {
                // The boundary turns back at vertex k - 1.
                let (a, b, c) = (at(k + n - 2), at(k + n - 1), at(k));
                return Err(self.edge_pair_error((a, b), (b, c)));
            }
            previous = along;
        }
        Ok(())
    }

    /// Neighbouring edges overlap when either far end lies within `tol` of
    /// the other edge: the boundary doubles back.
    fn reject_spikes(&self, tol: f64) -> Result<(), PolygonError> {
        let n = self.len();
        for b in 0..n {
            let (a, c) = ((b + n - 1) % n, (b + 1) % n);
            let (pa, pb, pc) = (self.vertices[a], self.vertices[b], self.vertices[c]);
            if point_segment_distance(pc, pa, pb) <= tol
                || point_segment_distance(pa, pb, pc) <= tol
            {
                return Err(self.edge_pair_error((a, b), (b, c)));
            }
        }
        Ok(())
    }

    fn edge_pair_error(&self, first: (usize, usize), second: (usize, usize)) -> PolygonError {
        let a = self.input_edge(first.0, first.1);
        let b = self.input_edge(second.0, second.1);
        PolygonError::SelfIntersecting {
            first_edge: a.min(b),
            second_edge: a.max(b),
        }
    }
}

/// The directions in which a line from `anchor` passes within the
/// tolerance of every point admitted so far, as an interval of angles
/// relative to `reference` (the direction of the first point). Admitting a
/// point at distance `d` and angle `θ` narrows it to `θ ± asin(tol / d)`.
/// Only directions ahead are tracked: a point behind the anchor empties it.
#[derive(Clone, Copy, Debug)]
struct Sleeve {
    anchor: Point,
    reference: Vector,
    low: f64,
    high: f64,
}

impl Sleeve {
    fn new(anchor: Point, toward: Point) -> Self {
        Sleeve {
            anchor,
            reference: toward - anchor,
            low: -std::f64::consts::FRAC_PI_2,
            high: std::f64::consts::FRAC_PI_2,
        }
    }

    fn angle(&self, direction: &Vector) -> f64 {
        cross(&self.reference, direction).atan2(self.reference.dot(direction))
    }

    fn admit(&mut self, point: Point, tol: f64) {
        let offset = point - self.anchor;
        let distance = offset.norm();
        if distance <= tol {
            return;
        }
        let angle = self.angle(&offset);
        let spread = (tol / distance).asin();
        self.low = self.low.max(angle - spread);
        self.high = self.high.min(angle + spread);
    }

    /// The line from the anchor through `point` passes within the tolerance
    /// of every admitted point.
    fn holds(&self, point: Point, tol: f64) -> bool {
        let offset = point - self.anchor;
        if offset.norm() <= tol {
            return false; // Back at the anchor: no line to speak of.
        }
        let angle = self.angle(&offset);
        self.low <= angle && angle <= self.high
    }
}

/// Twice the signed area (shoelace), positive for counter-clockwise.
/// Coordinates are taken relative to the first vertex to keep precision
/// far from the origin.
pub(crate) fn twice_signed_area(vertices: &[Point]) -> f64 {
    let origin = vertices[0];
    let mut sum = 0.0;
    for i in 1..vertices.len().saturating_sub(1) {
        sum += cross(&(vertices[i] - origin), &(vertices[i + 1] - origin));
    }
    sum
}

fn perimeter(vertices: &[Point]) -> f64 {
    let n = vertices.len();
    (0..n)
        .map(|i| (vertices[(i + 1) % n] - vertices[i]).norm())
        .sum()
}

/// Largest distance of a vertex from the line through the first vertex and
/// the vertex farthest from it.
fn max_line_deviation(vertices: &[Point]) -> f64 {
    let origin = vertices[0];
    let far = vertices
        .iter()
        .map(|p| p - origin)
        .fold(Vector::zeros(), |best, d| {
            if d.norm_squared() > best.norm_squared() {
                d
            } else {
                best
            }
        });
    let length = far.norm();
    if length == 0.0 {
        return 0.0;
    }
    let direction = far / length;
    vertices
        .iter()
        .map(|p| cross(&direction, &(p - origin)).abs())
        .fold(0.0, f64::max)
}

/// Convexity of a counter-clockwise ring without collinear vertices.
///
/// Every turn must be a left turn *and* the turns must add up to exactly one
/// full turn: a pentagram turns left at every vertex but winds twice.
fn classify_ccw(vertices: &[Point]) -> Convexity {
    let n = vertices.len();
    let mut total_turn = 0.0;
    let mut all_left = true;
    for i in 0..n {
        let incoming = vertices[i] - vertices[(i + n - 1) % n];
        let outgoing = vertices[(i + 1) % n] - vertices[i];
        let turn = cross(&incoming, &outgoing);
        if turn <= 0.0 {
            all_left = false;
        }
        total_turn += turn.atan2(incoming.dot(&outgoing));
    }
    if all_left && (total_turn - TAU).abs() < 1e-6 {
        Convexity::Convex
    } else if all_left {
        Convexity::SelfIntersecting
    } else {
        Convexity::Concave
    }
}

mod intersection;

#[cfg(test)]
mod tests;
