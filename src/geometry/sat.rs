//! Separating Axis Theorem between convex *cores*.
//!
//! A core is a convex polygon or a single point (a circle's centre). Shapes
//! are cores inflated by a radius, like Box2D's rounded polygons; the query
//! module adds the radii, this module only measures the cores.
//!
//! # Why the edge normals give exact answers
//!
//! The edge normals of A and of B are the face normals of the Minkowski
//! difference `D = A − B = {a − b}`. The cores overlap iff the origin lies in
//! `D`; the penetration depth is the distance from the origin to `D`'s
//! boundary (containment either way included) and the clearance is the
//! distance from the origin to `D`. Each face of `D` is an edge of one core
//! plus the other core's *support* vertex: its deepest vertex against that
//! edge. The face's separation (how far that vertex lies beyond the edge's
//! line) is the signed distance from the origin to the face's line, so:
//!
//! * overlapping: depth = −(largest separation), along that face's normal;
//! * apart: clearance = the smallest distance between a face's edge and its
//!   vertex. The largest separation alone would underestimate it when the
//!   closest features are two vertices.
//!
//! # Why it is O(n + m)
//!
//! As the edge normals of one core turn counter-clockwise, the other core's
//! support vertex for the opposite direction turns with them. Visiting the
//! faces of `D` in angular order (both cores' normals merged, as in the
//! Minkowski sum of convex polygons) moves one of two pointers forward per
//! face, after a single O(log n) support search.
//!
//! # Clearance without the full walk
//!
//! The closest points of cores that are apart need not visit every face:
//! `separation_from` (what [`query`](super::query()) uses) descends from a
//! separating face near the support vertex for a separating direction to
//! the nearest face, and stops on an exact certificate of optimality (see
//! `descend`); two small polygons whose boxes are apart are measured by
//! brute force over their vertex and vertex–edge pairs (`small_clearance`).
//! `clearance`, the full walk, stays the reference and the fallback.

use super::{cross, unit, ConvexPolygon, Point, Vector};

/// A convex polygon (counter-clockwise vertices, outward unit edge normals)
/// or a point (one vertex, no normals).
#[derive(Clone, Copy, Debug)]
pub struct Core<'a> {
    vertices: &'a [Point],
    normals: &'a [Vector],
}

impl<'a> Core<'a> {
    pub fn polygon(polygon: &'a ConvexPolygon) -> Self {
        Core {
            vertices: polygon.vertices(),
            normals: polygon.normals(),
        }
    }

    pub fn point(point: &'a Point) -> Self {
        Core {
            vertices: std::slice::from_ref(point),
            normals: &[],
        }
    }

    /// A point (a circle's centre) rather than a polygon.
    pub(crate) fn is_point(&self) -> bool {
        self.normals.is_empty()
    }

    /// True when `p` lies in the closed polygon core, up to rounding (a few
    /// ulps of the coordinates, far below the length tolerance). Always
    /// false for a point core. O(log n): `p` must be inside the two edges at
    /// vertex 0, then inside the edge closing the fan triangle
    /// `(v0, vi, vi+1)` whose wedge holds it (bisection on the diagonals).
    /// Rounding can only pick a neighbouring wedge when `p` is within ulps of
    /// the diagonal between them, where both triangles' edges agree.
    pub(crate) fn contains(&self, p: &Point) -> bool {
        let (vertices, normals) = (self.vertices, self.normals);
        let n = normals.len();
        if n < 3 || vertices.len() != n {
            return false;
        }
        let inside = |i: usize| (p - vertices[i]).dot(&normals[i]) <= 0.0;
        if !(inside(0) && inside(n - 1)) {
            return false;
        }
        let v0 = vertices[0];
        let to_p = p - v0;
        // Largest i in [1, n - 2] with `p` on the left of the diagonal v0→vi.
        let (mut lo, mut hi) = (1, n - 2);
        while lo < hi {
            let mid = hi - (hi - lo) / 2;
            if cross(&(vertices[mid] - v0), &to_p) >= 0.0 {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        inside(lo)
    }

    fn as_point(&self) -> Option<Point> {
        match self.normals.is_empty() {
            true => self.vertices.first().copied(),
            false => None,
        }
    }
}

/// Signed distance between two cores.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Separation {
    /// The clearance when `> 0`; minus the penetration depth when `<= 0`.
    pub value: f64,
    /// Unit axis from A toward B: the direction of the closest points when
    /// apart, the axis of least penetration otherwise.
    pub axis: Vector,
    /// Closest points (on A, on B) when apart.
    pub closest: Option<(Point, Point)>,
}

/// Exact signed distance between two cores. No allocation, O(n + m).
pub fn separation(a: Core, b: Core) -> Separation {
    if let (Some(p), Some(q)) = (a.as_point(), b.as_point()) {
        return point_separation(p, q);
    }
    // Overlapping cores only need the deepest face: a light walk that stops
    // at the first face with a positive separation (the cores are apart).
    let (max_sep, axis) = deepest_separation(a, b, |sep| sep > 0.0);
    if max_sep <= 0.0 {
        // The walk visited every face: its deepest face is the answer. A
        // polygon core always has faces; with none, `max_sep` is -inf and
        // this fails safe (overlapping).
        return Separation {
            value: if max_sep.is_finite() { max_sep } else { 0.0 },
            axis,
            closest: None,
        };
    }
    clearance(a, b)
}

/// [`separation`] of cores known to be apart along some face (a walk over
/// every face found a positive separation): exactly what [`separation`]
/// returns for them, without its first walk. Not for two points.
pub(crate) fn clearance(a: Core, b: Core) -> Separation {
    let mut deepest = f64::NEG_INFINITY;
    let mut deepest_axis = Vector::x();
    // The nearest face's squared distance, whether its closest point is
    // inside its edge, and its indices; its closest points are only worked
    // out once it has won.
    let mut nearest: Option<(f64, bool, bool, usize, usize)> = None;
    for_each_face(a, b, |face| {
        if face.sep > deepest {
            deepest = face.sep;
            deepest_axis = face.axis;
        }
        // A face's edge is at least |sep| from its vertex: skip faces that
        // cannot beat the nearest so far. Faces with sep <= 0 are kept: when
        // edges are parallel, rounding can give the face that holds the
        // closest point a separation of exactly 0 and its neighbour 1e-16.
        // Squared distances: no square root until the winner is known.
        if nearest.is_none_or(|(best, ..)| face.sep * face.sep <= best) {
            let candidate = face.candidate();
            let (distance_squared, interior) = (candidate.distance_squared, candidate.interior());
            // On a tie an edge's normal beats a vertex–vertex direction. Ties
            // come from squares underflowing to 0 (cores 1e-160 or less
            // apart): the vertex–vertex direction is then that of a vertex
            // next to the closest point, not of the closest point, and may
            // point anywhere; an edge's normal is a separating axis.
            let better = |(best, best_interior, ..): (f64, bool, bool, usize, usize)| {
                distance_squared < best || (distance_squared == best && interior && !best_interior)
            };
            if nearest.is_none_or(better) {
                nearest = Some((
                    distance_squared,
                    interior,
                    face.edge_on_a,
                    face.edge_index,
                    face.vertex_index,
                ));
            }
        }
        true
    });
    let Some((_, _, edge_on_a, edge, vertex)) = nearest else {
        return Separation {
            value: 0.0,
            axis: Vector::x(),
            closest: None,
        };
    };
    let n = face_at(a, b, edge_on_a, edge, vertex).candidate().closest();
    // Exactly, the clearance is at least every separation; keep that after
    // rounding so that `max_separation`'s early exit agrees. When rounding
    // broke it, the closest points are nearer than the faces' own rounding
    // (e.g. a circle's centre 1e-17 from a vertex, against a separation of
    // 4e-16 that is exactly 0): the direction between them, which then
    // orients the MTV, is noise and may leave the vertex's normal cone. The
    // deepest face's normal is a separating axis: use it.
    let axis = if deepest > n.distance {
        deepest_axis
    } else {
        n.axis
    };
    Separation {
        value: n.distance.max(deepest),
        axis,
        closest: Some((n.on_a, n.on_b)),
    }
}

/// The descent of [`descend`] from the support vertex for `direction`
/// (from A toward B): what [`separation_from`] does when the boxes are
/// apart, without the fallback. The tests' entry point.
#[cfg(test)]
fn clearance_from(a: Core, b: Core, direction: &Vector) -> Option<Separation> {
    descend(a, b, support_face(a, b, direction)?, f64::NEG_INFINITY)
}

/// A face with a positive separation at the support vertex of `A − B`
/// for `direction`: the one leaving it, else the one entering it (when
/// `direction` separates the cores, one of them has). Two points have no
/// face.
fn support_face(a: Core, b: Core, direction: &Vector) -> Option<Face> {
    if a.is_point() && b.is_point() {
        return None;
    }
    let state = (find_support(a, direction), find_support(b, &-direction));
    let after = face_after(a, b, state);
    if after.sep > 0.0 {
        return Some(after);
    }
    let before = face_before(a, b, state);
    (before.sep > 0.0).then_some(before)
}

/// [`clearance`] by a local descent over the faces of `A − B` from `face`
/// (which must have a positive separation), for cores that are apart: O(the
/// faces between it and the closest feature). `None` when it cannot certify
/// its answer, or as soon as a face is no farther than `beyond` (the
/// clearance is at most that): then use [`separation`].
///
/// [`separation_from`] starts it on a face with a positive separation at
/// the support vertex of `A − B` for a direction that separates the cores
/// (O(log n + log m)), or for the normal of the face at which the
/// early-exit walk stopped. From a face whose closest point to the
/// origin is one of its ends, it moves to the neighbouring face at that end
/// unless that face's closest point is the same end. Each move reaches a
/// face with a nearer point (the neighbour's nearest point is not the shared
/// end, so its distance is smaller), so the descent cannot cycle, and it
/// always turns the same way (a face it moved to forward has its closest
/// point past its start).
///
/// It stops with an exact certificate of optimality for convex `A − B`:
/// * a face with a positive separation whose closest point is inside its
///   edge: `A − B` lies in the face's half-plane, at that separation from
///   the origin, and the point is in `A − B`;
/// * an end shared by two faces whose closest points are both that end: the
///   direction to the origin is in that vertex's normal cone.
///
/// Each candidate is computed exactly as [`clearance`] computes it, and the
/// answer is that candidate's: the two differ only when rounding picks a
/// different face among faces that tie to within a few ulps of the
/// coordinates.
fn descend(a: Core, b: Core, face: Face, beyond: f64) -> Option<Separation> {
    if face.sep <= 0.0 {
        return None;
    }
    let beyond_squared = match beyond > 0.0 {
        true => beyond * beyond,
        false => f64::NEG_INFINITY,
    };
    let mut deepest = face.sep;
    let mut deepest_axis = face.axis;
    let mut candidate = face.candidate();
    let (na, nb) = (a.normals.len(), b.normals.len());
    let steps = na + nb;
    for _ in 0..steps {
        if candidate.distance_squared <= beyond_squared {
            return None;
        }
        if candidate.interior() {
            break; // Certified if the origin is beyond the face's line.
        }
        // Closest at the face's start: the face before shares it.
        let at_start = candidate.along <= 0.0;
        let neighbour = match at_start {
            true => face_before(a, b, candidate.face.start_state()),
            false => face_after(a, b, candidate.face.end_state(na, nb)),
        };
        if neighbour.sep > deepest {
            deepest = neighbour.sep;
            deepest_axis = neighbour.axis;
        }
        let next = neighbour.candidate();
        // The neighbour's closest point is the shared end: certified.
        let shared = !next.interior() && (next.along <= 0.0) != at_start;
        if shared {
            let sep = finish(&candidate, deepest, deepest_axis);
            return (sep.value > beyond).then_some(sep);
        }
        candidate = next;
    }
    // Out of steps (rounding broke convexity) or an interior point of a
    // face that does not separate: not certified.
    let certified = candidate.interior() && candidate.face.sep > 0.0;
    let sep = certified.then(|| finish(&candidate, deepest, deepest_axis))?;
    (sep.value > beyond).then_some(sep)
}

/// The separation of a winning candidate, as [`clearance`] finishes it.
fn finish(candidate: &Candidate, deepest: f64, deepest_axis: Vector) -> Separation {
    let n = candidate.closest();
    let axis = if deepest > n.distance {
        deepest_axis
    } else {
        n.axis
    };
    Separation {
        value: n.distance.max(deepest),
        axis,
        closest: Some((n.on_a, n.on_b)),
    }
}

/// [`separation`] with the full walk of [`clearance`] replaced by the
/// descent of [`descend`] (from the support vertex for `direction`
/// when there is one, else for the normal of the face at which the
/// early-exit walk of [`separation`] stopped) whenever `accept` holds for the descent's value.
/// Pass a direction only for cores whose boxes are apart (so the cores are
/// disjoint): two small polygons are then measured by
/// [`small_clearance`]. Callers accept only
/// clearances `> beyond`, far enough (beyond rounding) from their own
/// decision threshold that the full walk could not decide otherwise; the
/// descent gives up as soon as it reaches a face that is not farther.
/// Overlapping cores give exactly [`separation`].
pub(crate) fn separation_from(
    a: Core,
    b: Core,
    direction: Option<&Vector>,
    beyond: f64,
) -> Separation {
    if let Some(direction) = direction {
        if a.normals.len() * b.normals.len() <= SMALL_PAIRS && !a.is_point() && !b.is_point() {
            let sep = small_clearance(a, b);
            return match sep.value > beyond {
                true => sep,
                false => separation(a, b),
            };
        }
        if let Some(start) = support_face(a, b, direction) {
            return descend(a, b, start, beyond).unwrap_or_else(|| separation(a, b));
        }
    }
    if let (Some(p), Some(q)) = (a.as_point(), b.as_point()) {
        return point_separation(p, q);
    }
    // `separation`'s first walk. It stops at the first face with a
    // positive separation, whose normal then separates the cores: the
    // descent starts at the support vertex for it.
    let (max_sep, axis) = deepest_separation(a, b, |sep| sep > 0.0);
    if max_sep <= 0.0 {
        // As `separation`: the deepest face of a complete walk.
        return Separation {
            value: if max_sep.is_finite() { max_sep } else { 0.0 },
            axis,
            closest: None,
        };
    }
    support_face(a, b, &axis)
        .and_then(|face| descend(a, b, face, beyond))
        .unwrap_or_else(|| clearance(a, b))
}

/// Largest `n × m` for which [`small_clearance`] replaces the descent: its
/// loops have fixed trip counts and no data-dependent branch to mispredict
/// (the descent's time for two triangles is mostly its branches).
const SMALL_PAIRS: usize = 16;

/// Clearance of two polygon cores whose boxes are apart (so the polygons
/// are disjoint), by brute force: the distance between disjoint convex
/// polygons is the smallest distance between a vertex of one and an edge
/// of the other, i.e. between two vertices, or from a vertex beyond an edge
/// (positive separation) whose foot falls inside the edge. Every such
/// candidate is the distance between a point of A and a point of B, so none
/// is below the clearance, and the smallest is it. Candidates are measured
/// as [`clearance`] measures its faces (squared separation, squared
/// vertex–vertex distance).
fn small_clearance(a: Core, b: Core) -> Separation {
    // (squared distance, index in A, index in B, which: 0 two vertices,
    // 1 A's edge and B's vertex, 2 B's edge and A's vertex).
    let mut best = (f64::INFINITY, 0, 0, 0);
    for (i, p) in a.vertices.iter().enumerate() {
        for (j, q) in b.vertices.iter().enumerate() {
            let d = q - p;
            let squared = d.dot(&d);
            if squared < best.0 {
                best = (squared, i, j, 0);
            }
        }
    }
    for (owner, other, which) in [(a, b, 1), (b, a, 2)] {
        let n = owner.normals.len();
        for (i, (start, normal)) in owner.vertices.iter().zip(owner.normals).enumerate() {
            let edge = owner.vertices[next(i, n)] - start;
            let length_squared = edge.dot(&edge);
            for (j, vertex) in other.vertices.iter().enumerate() {
                let d = vertex - start;
                let (along, sep) = (d.dot(&edge), d.dot(normal));
                let squared = sep * sep;
                let inside = along > 0.0 && along < length_squared && sep > 0.0;
                if inside && squared < best.0 {
                    best = match which {
                        1 => (squared, i, j, 1),
                        _ => (squared, j, i, 2),
                    };
                }
            }
        }
    }
    let (squared, i, j, which) = best;
    if which != 0 {
        let face = match which {
            1 => edge_face(a, i, b, j, true),
            _ => edge_face(b, j, a, i, false),
        };
        return finish(&face.candidate(), face.sep, face.axis);
    }
    let (p, q) = (a.vertices[i], b.vertices[j]);
    let d = q - p;
    let length = match (1e-290..=1e290).contains(&squared) {
        true => squared.sqrt(),
        false => d.x.hypot(d.y),
    };
    Separation {
        value: length,
        axis: if length > 0.0 {
            unit(d, length)
        } else {
            Vector::x()
        },
        closest: Some((p, q)),
    }
}

/// The largest separation over the faces, stopping at the first one for
/// which `stop` holds. A lower bound of `separation(a, b).value` (equal
/// when overlapping), computed with the same arithmetic: a separation `s`
/// returned here always satisfies `s <= separation(a, b).value`.
pub fn max_separation(a: Core, b: Core, stop: impl Fn(f64) -> bool) -> f64 {
    if let (Some(p), Some(q)) = (a.as_point(), b.as_point()) {
        return point_separation(p, q).value;
    }
    deepest_separation(a, b, stop).0
}

/// [`max_separation`] and the axis (unit, from A toward B) of the first face
/// that reaches it. When `stop` never holds, every face is visited and this
/// is the face [`separation`] reports for overlapping cores. Two points give
/// `(-inf, x)`: use [`separation`] for them.
pub fn deepest_separation(a: Core, b: Core, stop: impl Fn(f64) -> bool) -> (f64, Vector) {
    let mut best = f64::NEG_INFINITY;
    let mut axis = Vector::x();
    for_each_face(a, b, |face| {
        if face.sep > best {
            best = face.sep;
            axis = face.axis;
        }
        !stop(face.sep)
    });
    (best, axis)
}

/// [`max_separation`], and whether it is *witnessed*: the first deepest
/// face's vertex is close to that face's edge, so the cores are no farther
/// apart than this separation or than `near`. Either the vertex's foot falls
/// inside the edge (then `separation(a, b).value` is exactly this separation:
/// same faces, same arithmetic), or the vertex is within `near` of the
/// edge's end (vertex on vertex): then `separation(a, b).value`, whose
/// nearest face is at most that far, exceeds `near` by a few ulps at most.
/// Two points: their exact separation, witnessed. Only a positive
/// separation at which `stop` does not hold is ever witnessed.
pub(crate) fn max_separation_witnessed(
    a: Core,
    b: Core,
    near: f64,
    stop: impl Fn(f64) -> bool,
) -> (f64, bool) {
    if let (Some(p), Some(q)) = (a.as_point(), b.as_point()) {
        return (point_separation(p, q).value, true);
    }
    // The deepest face by its separation and indices: cheaper to keep
    // than the face, which is built again (same arithmetic) if needed.
    let mut sep = f64::NEG_INFINITY;
    let mut deepest = (true, 0, 0);
    for_each_face(a, b, |face| {
        if face.sep > sep {
            sep = face.sep;
            deepest = (face.edge_on_a, face.edge_index, face.vertex_index);
        }
        !stop(face.sep)
    });
    // Only a positive separation at which the walk did not stop needs a
    // witness.
    if sep <= 0.0 || stop(sep) {
        return (sep, false);
    }
    let (edge_on_a, edge, vertex) = deepest;
    let candidate = face_at(a, b, edge_on_a, edge, vertex).candidate();
    (
        sep,
        candidate.interior() || candidate.distance_squared <= near * near,
    )
}

/// A face of `A − B`: an edge of one core and the other core's support
/// vertex for the direction opposite to the edge's outward normal.
#[derive(Clone, Copy, Debug)]
struct Face {
    /// Signed distance of `vertex` beyond the edge's line.
    sep: f64,
    /// The edge's outward normal, oriented from A toward B.
    axis: Vector,
    start: Point,
    end: Point,
    vertex: Point,
    /// Indices of the edge (in its core) and of the vertex (in the other):
    /// enough to rebuild the face, and cheaper to keep than the face.
    edge_index: usize,
    vertex_index: usize,
    edge_on_a: bool,
}

/// Closest points between a face's edge and its vertex.
#[derive(Clone, Copy, Debug)]
struct Closest {
    distance: f64,
    /// Unit, from A toward B.
    axis: Vector,
    on_a: Point,
    on_b: Point,
}

/// The closest points of a face's edge and vertex, measured by their
/// squared distance; [`Candidate::closest`] finishes the winner only.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    face: Face,
    distance_squared: f64,
    /// `(vertex - start) · (end - start)` and `|end - start|²`: the foot of
    /// the perpendicular is inside the edge iff `0 < along < length_squared`
    /// (near the end, see [`Candidate::just_before_end`]).
    along: f64,
    length_squared: f64,
}

impl Candidate {
    fn interior(&self) -> bool {
        self.along > 0.0 && (self.along < self.length_squared || self.just_before_end())
    }

    /// `along` is measured from the edge's start, so near the end it is
    /// rounded: a vertex whose foot is inside the edge by less than that
    /// rounding (e.g. 1e-17 from the end of a 4 m edge) gets
    /// `along == length_squared` and would count as vertex–vertex, with the
    /// direction between two points a rounding error apart as its axis, any
    /// direction at all, which then orients the MTV. Measured from the end,
    /// the sign is right.
    fn just_before_end(&self) -> bool {
        let face = &self.face;
        (face.vertex - face.end).dot(&(face.end - face.start)) < 0.0
    }

    fn corner(&self) -> Point {
        match self.along <= 0.0 {
            true => self.face.start,
            false => self.face.end,
        }
    }

    fn closest(&self) -> Closest {
        let face = &self.face;
        let edge = face.end - face.start;
        let (on_edge, distance, axis) = if self.interior() {
            // The foot of the perpendicular is inside the edge: the distance
            // is |separation| and the axis the normal, both computed without
            // cancellation.
            let t = (self.along / self.length_squared).min(1.0);
            (face.start + edge * t, face.sep.abs(), face.axis)
        } else {
            // Vertex–vertex: the direction between two input points is exact.
            let corner = self.corner();
            let d = face.vertex - corner;
            // `distance_squared` is `d · d`: its square root is within an
            // ulp of `hypot` unless the squares over- or underflow.
            let squared = self.distance_squared;
            let length = match (1e-290..=1e290).contains(&squared) {
                true => squared.sqrt(),
                false => d.x.hypot(d.y),
            };
            let axis = match length > 0.0 {
                true => face.oriented_a_to_b(unit(d, length)),
                false => face.axis,
            };
            (corner, length, axis)
        };
        let (on_a, on_b) = match face.edge_on_a {
            true => (on_edge, face.vertex),
            false => (face.vertex, on_edge),
        };
        Closest {
            distance,
            axis,
            on_a,
            on_b,
        }
    }
}

impl Face {
    fn candidate(&self) -> Candidate {
        let edge = self.end - self.start;
        let along = (self.vertex - self.start).dot(&edge);
        let length_squared = edge.norm_squared();
        let mut candidate = Candidate {
            face: *self,
            distance_squared: self.sep * self.sep,
            along,
            length_squared,
        };
        if !candidate.interior() {
            let d = self.vertex - candidate.corner();
            candidate.distance_squared = d.dot(&d);
        }
        candidate
    }

    /// The walk state `(i, j)` at the face's start: A's next edge and B's.
    fn start_state(&self) -> (usize, usize) {
        match self.edge_on_a {
            true => (self.edge_index, self.vertex_index),
            false => (self.vertex_index, self.edge_index),
        }
    }

    /// The walk state at the face's end: its edge's index moved on (`na`,
    /// `nb`: the cores' edge counts).
    fn end_state(&self, na: usize, nb: usize) -> (usize, usize) {
        let (i, j) = self.start_state();
        match self.edge_on_a {
            true => (next(i, na), j),
            false => (i, next(j, nb)),
        }
    }

    /// Turns a direction from the edge toward the vertex into one from A
    /// toward B.
    fn oriented_a_to_b(&self, edge_to_vertex: Vector) -> Vector {
        match self.edge_on_a {
            true => edge_to_vertex,
            false => -edge_to_vertex,
        }
    }
}

/// Visits every face of `A − B` once, in the angular order of the face
/// normals from A's edge 0 (the boundary of the Minkowski difference: A's
/// edges and B's merged by angle); stops as soon as `visit` returns false
/// and then returns false. One support search, then one angle comparison
/// per face: the next face is A's next edge with B's current support
/// vertex, or B's next edge with A's.
fn for_each_face(a: Core, b: Core, mut visit: impl FnMut(&Face) -> bool) -> bool {
    let (na, nb) = (a.normals.len(), b.normals.len());
    if nb == 0 {
        return point_faces(a, b, true, &mut visit);
    }
    if na == 0 {
        return point_faces(b, a, false, &mut visit);
    }
    let (mut i, mut j) = (0, find_support(b, &-a.normals[0]));
    let (mut left_a, mut left_b) = (na, nb);
    while left_a > 0 || left_b > 0 {
        // Parallel facing edges of A and B make one long face of `A − B`;
        // A's edge goes first, with B's support at the start of B's edge,
        // and B's edge then gets A's support at the end of A's edge: the
        // two faces tile the long one without a gap.
        let a_first = left_b == 0 || (left_a > 0 && !advances(&b.normals[j], &-a.normals[i]));
        let face = if a_first {
            let face = edge_face(a, i, b, j, true);
            i = next(i, na);
            left_a -= 1;
            face
        } else {
            let face = edge_face(b, j, a, i, false);
            j = next(j, nb);
            left_b -= 1;
            face
        };
        if !visit(&face) {
            return false;
        }
    }
    true
}

/// The faces of a polygon core and a point core: the polygon's edges and
/// the point.
fn point_faces(
    polygon: Core,
    point: Core,
    polygon_is_a: bool,
    visit: &mut impl FnMut(&Face) -> bool,
) -> bool {
    if point.vertices.is_empty() {
        return true;
    }
    (0..polygon.normals.len()).all(|i| visit(&edge_face(polygon, i, point, 0, polygon_is_a)))
}

/// A face the walk visited, built again from its indices (same arithmetic).
fn face_at(a: Core, b: Core, edge_on_a: bool, edge: usize, vertex: usize) -> Face {
    match edge_on_a {
        true => edge_face(a, edge, b, vertex, true),
        false => edge_face(b, edge, a, vertex, false),
    }
}

/// The face of `A − B` leaving the walk state `(i, j)` (the vertex
/// `a_i − b_j` of `A − B`: A's next edge is `i`, B's is `j`), with the rule
/// of [`for_each_face`].
fn face_after(a: Core, b: Core, (i, j): (usize, usize)) -> Face {
    let a_first =
        b.normals.is_empty() || (!a.normals.is_empty() && !advances(&b.normals[j], &-a.normals[i]));
    match a_first {
        true => edge_face(a, i, b, j, true),
        false => edge_face(b, j, a, i, false),
    }
}

/// The face of `A − B` entering the walk state `(i, j)`: A's edge `i − 1`
/// or B's edge `j − 1`, whichever comes later in the walk's order (B's on a
/// tie, as the walk takes A's first).
#[inline]
fn face_before(a: Core, b: Core, (i, j): (usize, usize)) -> Face {
    let (na, nb) = (a.normals.len(), b.normals.len());
    let previous = |k: usize, n: usize| if k == 0 { n - 1 } else { k - 1 };
    let a_last =
        nb == 0 || (na > 0 && advances(&b.normals[previous(j, nb)], &-a.normals[previous(i, na)]));
    match a_last {
        true => edge_face(a, previous(i, na), b, j, true),
        false => edge_face(b, previous(j, nb), a, i, false),
    }
}

/// The face made of `owner`'s edge `i` and `other`'s vertex `j`.
#[inline]
fn edge_face(owner: Core, i: usize, other: Core, j: usize, owner_is_a: bool) -> Face {
    let normal = owner.normals[i];
    let start = owner.vertices[i];
    let vertex = other.vertices[j];
    Face {
        sep: (vertex - start).dot(&normal),
        axis: if owner_is_a { normal } else { -normal },
        start,
        // Always there; `get` lets the walks that never read `end` skip it.
        end: owner
            .vertices
            .get(next(i, owner.normals.len()))
            .map_or(start, |end| *end),
        vertex,
        edge_index: i,
        vertex_index: j,
        edge_on_a: owner_is_a,
    }
}

/// True when walking along the edge with outward normal `normal` raises the
/// projection on `direction` (the edge's direction is the normal turned a
/// quarter counter-clockwise). An edge facing exactly `direction` does not.
#[inline]
fn advances(normal: &Vector, direction: &Vector) -> bool {
    cross(normal, direction) > 0.0
}

/// Support vertex of `core` for `direction`: where the walk stops paying off
/// (edge `j - 1` advances, edge `j` does not). O(log n): bisection on the
/// normals' angles measured from the first normal, confirmed with
/// [`advances`] itself, so the answer is the walk's own; a linear scan only
/// if rounding broke the order of the normals.
fn find_support(core: Core, direction: &Vector) -> usize {
    let normals = core.normals;
    let Some(first) = normals.first() else {
        return 0; // A point: its only vertex.
    };
    let n = normals.len();
    if n <= 8 {
        // Bisection only pays off beyond a few normals.
        return find_support_linear(core, direction);
    }
    // Half-turn of a vector counted from `first`: [0, π) or [π, 2π).
    let upper_half = |v: &Vector| {
        let c = cross(first, v);
        !(c > 0.0 || (c == 0.0 && first.dot(v) > 0.0))
    };
    let direction_half = upper_half(direction);
    // Normals strictly before `direction` come first.
    let before = |normal: &Vector| match upper_half(normal) == direction_half {
        true => advances(normal, direction),
        false => direction_half,
    };
    let (mut lo, mut hi) = (0, n);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if before(&normals[mid]) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    let j = if lo == n { 0 } else { lo };
    let previous = if j == 0 { n - 1 } else { j - 1 };
    if advances(&normals[previous], direction) && !advances(&normals[j], direction) {
        return j;
    }
    find_support_linear(core, direction)
}

/// [`find_support`] by scanning every normal: the first transition, else
/// the plain arg-max.
fn find_support_linear(core: Core, direction: &Vector) -> usize {
    let Some(last) = core.normals.last() else {
        return 0;
    };
    let mut previous = advances(last, direction);
    for (j, normal) in core.normals.iter().enumerate() {
        let current = advances(normal, direction);
        if previous && !current {
            return j;
        }
        previous = current;
    }
    support_by_value(core, direction)
}

/// `i + 1` modulo `n`, without a division.
#[inline]
fn next(i: usize, n: usize) -> usize {
    if i + 1 == n {
        0
    } else {
        i + 1
    }
}

/// Plain arg-max; only reached if rounding broke the order of the normals.
fn support_by_value(core: Core, direction: &Vector) -> usize {
    let mut best = 0;
    for (i, v) in core.vertices.iter().enumerate() {
        if v.coords.dot(direction) > core.vertices[best].coords.dot(direction) {
            best = i;
        }
    }
    best
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use sat_collision_testkit::SplitMix64 as Rng;
    use std::f64::consts::TAU;

    /// Convex polygon with `n` vertices at jittered angles on an ellipse,
    /// or a regular one, rotated and moved.
    fn polygon(rng: &mut Rng, n: usize, regular: bool) -> ConvexPolygon {
        let (rx, ry) = (rng.range(0.1, 2.0), rng.range(0.1, 2.0));
        let (rx, ry) = if regular { (rx, rx) } else { (rx, ry) };
        let (s, c) = rng.range(0.0, TAU).sin_cos();
        let centre = Vector::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0));
        let points: Vec<Point> = (0..n)
            .map(|k| {
                let jitter = if regular { 0.0 } else { rng.range(-0.35, 0.35) };
                let t = (k as f64 + jitter) * TAU / n as f64;
                let (x, y) = (rx * t.cos(), ry * t.sin());
                Point::new(c * x - s * y, s * x + c * y) + centre
            })
            .collect();
        ConvexPolygon::new(&points).expect("convex test polygon")
    }

    fn random_polygons(count: usize) -> Vec<ConvexPolygon> {
        let mut rng = Rng(7);
        let sizes = [3, 4, 5, 8, 13, 64, 257];
        (0..count)
            .map(|k| polygon(&mut rng, sizes[k % sizes.len()], k % 3 == 0))
            .collect()
    }

    #[test]
    fn bisection_support_is_the_linear_one() {
        let mut rng = Rng(11);
        for p in random_polygons(300) {
            let core = Core::polygon(&p);
            // Random directions, and every normal exactly and reversed (ties).
            let mut directions: Vec<Vector> = (0..20)
                .map(|_| {
                    let t = rng.range(0.0, TAU);
                    Vector::new(t.cos(), t.sin())
                })
                .collect();
            directions.extend(p.normals().iter().flat_map(|n| [*n, -n]));
            for d in directions {
                assert_eq!(
                    find_support(core, &d),
                    find_support_linear(core, &d),
                    "direction {d:?}"
                );
            }
        }
    }

    #[test]
    fn logarithmic_contains_is_the_half_plane_test() {
        let mut rng = Rng(13);
        for p in random_polygons(300) {
            let core = Core::polygon(&p);
            let aabb = p.aabb().inflated(0.1);
            let all = |q: &Point| {
                p.vertices()
                    .iter()
                    .zip(p.normals())
                    .all(|(v, n)| (q - v).dot(n) <= 0.0)
            };
            let mut points: Vec<Point> = (0..200)
                .map(|_| {
                    Point::new(
                        rng.range(aabb.min.x, aabb.max.x),
                        rng.range(aabb.min.y, aabb.max.y),
                    )
                })
                .collect();
            // Vertices, and points on the diagonals from vertex 0.
            points.extend(p.vertices().iter().copied());
            let v0 = p.vertices()[0];
            points.extend(p.vertices().iter().map(|v| v0 + (v - v0) * 0.5));
            for q in points {
                let inside = core.contains(&q);
                if inside != all(&q) {
                    // Only within rounding of the boundary.
                    let gap = p
                        .vertices()
                        .iter()
                        .zip(p.normals())
                        .map(|(v, n)| (q - v).dot(n))
                        .fold(f64::NEG_INFINITY, f64::max);
                    assert!(gap.abs() < 1e-14, "{q:?}: {inside}, gap {gap:e}");
                }
            }
        }
    }

    /// `b` moved so that its extreme vertex against `d` lies `gap` beyond
    /// `a`'s extreme vertex along the unit `d` (negative: overlapping).
    fn placed(a: &ConvexPolygon, b: &ConvexPolygon, d: Vector, gap: f64) -> ConvexPolygon {
        let top = a.vertices()[a.support_index(&d)];
        let bottom = b.vertices()[b.support_index(&-d)];
        let shift = top + d * gap - bottom;
        b.transformed(&nalgebra::Isometry2::translation(shift.x, shift.y))
    }

    /// The descent (`clearance_from`) and the brute force of small pairs
    /// (`small_clearance`) against the full walk of
    /// `separation`: random convex pairs (regular and jittered, 3 to 257
    /// vertices) far apart, near, nearly touching and overlapping, also
    /// turned and moved 1e5 m away (rounded coordinates, normals turned
    /// rather than recomputed). Whenever the descent answers, its clearance
    /// is the full walk's to within tol / 8 (the margin `query` relies on),
    /// its closest points are on the polygons and that far apart, and its
    /// axis is the full walk's; it answers for nearly every pair apart by
    /// more than the tolerance.
    #[test]
    fn descent_clearance_is_the_full_walk() {
        let mut rng = Rng(17);
        let sizes = [3, 4, 5, 8, 13, 64, 257];
        let gaps = [30.0, 5.0, 0.5, 1e-3, 1e-6, 1e-10, 0.0, -1e-3, -0.3];
        let (mut apart, mut answered, mut answered_close) = (0, 0, 0);
        let (mut answered_from_support, mut small) = (0, 0);
        for k in 0..30_000 {
            let pa = polygon(&mut rng, sizes[k % sizes.len()], k % 3 == 0);
            let pb = polygon(&mut rng, sizes[(k / 3) % sizes.len()], k % 4 == 0);
            let t = rng.range(0.0, TAU);
            let d = Vector::new(t.cos(), t.sin());
            let gap = gaps[k % gaps.len()] * rng.range(0.5, 1.5);
            let pb = placed(&pa, &pb, d, gap);
            let (pa, pb) = match k % 5 {
                0 | 1 => {
                    let pose = nalgebra::Isometry2::new(
                        Vector::new(rng.range(-1e5, 1e5), rng.range(-1e5, 1e5)),
                        rng.range(0.0, TAU),
                    );
                    (pa.transformed(&pose), pb.transformed(&pose))
                }
                _ => (pa, pb),
            };
            let scale = pa.aabb().magnitude().max(pb.aabb().magnitude());
            let tol = super::super::length_tolerance(scale);
            // One pair in six: B is a point (a circle's core), one of its
            // vertices.
            let point_b = k % 6 == 5;
            let vertex_b = pb.vertices()[0];
            let (a, b) = match point_b {
                true => (Core::polygon(&pa), Core::point(&vertex_b)),
                false => (Core::polygon(&pa), Core::polygon(&pb)),
            };
            let full = separation(a, b);
            let direction = match point_b {
                true => vertex_b - pa.aabb().center(),
                false => pb.aabb().center() - pa.aabb().center(),
            };
            let from_support = clearance_from(a, b, &direction);
            if from_support.is_some() {
                answered_from_support += 1;
            }
            let fast = from_support.or_else(|| {
                let sep = separation_from(a, b, None, f64::NEG_INFINITY);
                (sep.value > 0.0).then_some(sep)
            });
            let what = || format!("case {k}: gap {gap:e}, full {full:?}, fast {fast:?}");
            // Small polygons whose boxes are apart: the brute force.
            let gaps = pa.aabb().gaps(pb.aabb());
            if !point_b && (gaps.x > 0.0 || gaps.y > 0.0) && pa.len() * pb.len() <= SMALL_PAIRS {
                small += 1;
                let brute = small_clearance(a, b);
                assert!(
                    (brute.value - full.value).abs() <= tol / 8.0,
                    "{brute:?}: {}",
                    what()
                );
                assert!(
                    full.value <= 1e-9 || (brute.axis - full.axis).norm() <= 1e-9,
                    "{brute:?}: {}",
                    what()
                );
                let (p, q) = brute.closest.expect("closest points");
                assert!(((q - p).norm() - brute.value).abs() <= tol, "{}", what());
            }
            if full.value <= tol {
                // Touching or overlapping: at most a rounding-size clearance.
                assert!(fast.is_none_or(|f| f.value <= tol), "{}", what());
                continue;
            }
            apart += 1;
            let Some(fast) = fast else {
                continue;
            };
            answered += 1;
            if full.value < 1e-2 {
                answered_close += 1;
            }
            assert!((fast.value - full.value).abs() <= tol / 8.0, "{}", what());
            let (p, q) = fast.closest.expect("closest points");
            assert!(((q - p).norm() - fast.value).abs() <= tol, "{}", what());
            if point_b {
                assert_eq!(q, vertex_b, "{}", what());
            }
            for (point, polygon) in [(p, &pa), (q, &pb)] {
                let outside = polygon
                    .vertices()
                    .iter()
                    .zip(polygon.normals())
                    .map(|(v, n)| (point - v).dot(n))
                    .fold(f64::NEG_INFINITY, f64::max);
                assert!(outside.abs() <= tol, "{}: off by {outside:e}", what());
            }
            if full.value > 1e-9 {
                assert!((fast.axis - full.axis).norm() <= 1e-9, "{}", what());
            }
        }
        eprintln!(
            "{answered} of {apart} apart answered, {answered_from_support} from the support; \
             {small} small pairs by brute force"
        );
        assert!(small > 1000, "{small}");
        assert!(answered >= apart * 99 / 100, "{answered} of {apart}");
        assert!(answered_close > 500, "{answered_close}");
    }

    /// The merged walk visits every edge of both cores once, each with the
    /// other core's deepest vertex against it.
    #[test]
    fn merged_walk_visits_every_face_with_its_support() {
        let polygons = random_polygons(120);
        for (k, pa) in polygons.iter().enumerate() {
            for pb in polygons.iter().skip(k % 7).step_by(17) {
                let (a, b) = (Core::polygon(pa), Core::polygon(pb));
                let mut seen_a = vec![0; pa.len()];
                let mut seen_b = vec![0; pb.len()];
                for_each_face(a, b, |face| {
                    let (owner, other, seen) = match face.edge_on_a {
                        true => (pa, pb, &mut seen_a),
                        false => (pb, pa, &mut seen_b),
                    };
                    seen[face.edge_index] += 1;
                    let start = owner.vertices()[face.edge_index];
                    let normal = owner.normals()[face.edge_index];
                    let best = other
                        .vertices()
                        .iter()
                        .map(|v| (v - start).dot(&normal))
                        .fold(f64::INFINITY, f64::min);
                    assert!(
                        (face.sep - best).abs() <= 1e-12,
                        "face {face:?}: {} vs {best}",
                        face.sep
                    );
                    true
                });
                assert!(seen_a.iter().chain(&seen_b).all(|&c| c == 1));
            }
        }
    }
}
