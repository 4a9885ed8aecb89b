//! The faces of the Minkowski difference `A − B` and the support search
//! that starts their walk (see the [module documentation](super)).

use super::super::{cross, unit, Point, Vector};
use super::core::Core;

/// A face of `A − B`: an edge of one core and the other core's support
/// vertex for the direction opposite to the edge's outward normal.
#[derive(Clone, Copy, Debug)]
pub(super) struct Face {
    /// Signed distance of `vertex` beyond the edge's line.
    pub(super) sep: f64,
    /// The edge's outward normal, oriented from A toward B.
    pub(super) axis: Vector,
    pub(super) start: Point,
    pub(super) end: Point,
    pub(super) vertex: Point,
    /// Indices of the edge (in its core) and of the vertex (in the other):
    /// enough to rebuild the face, and cheaper to keep than the face.
    pub(super) edge_index: usize,
    pub(super) vertex_index: usize,
    pub(super) edge_on_a: bool,
}

/// Closest points between a face's edge and its vertex.
#[derive(Clone, Copy, Debug)]
pub(super) struct Closest {
    pub(super) distance: f64,
    /// Unit, from A toward B.
    pub(super) axis: Vector,
    pub(super) on_a: Point,
    pub(super) on_b: Point,
}

/// The closest points of a face's edge and vertex, measured by their
/// squared distance; [`Candidate::closest`] finishes the winner only.
#[derive(Clone, Copy, Debug)]
pub(super) struct Candidate {
    pub(super) face: Face,
    pub(super) distance_squared: f64,
    /// `(vertex - start) · (end - start)` and `|end - start|²`: the foot of
    /// the perpendicular is inside the edge iff `0 < along < length_squared`
    /// (near the end, see [`Candidate::just_before_end`]).
    pub(super) along: f64,
    pub(super) length_squared: f64,
}

impl Candidate {
    pub(super) fn interior(&self) -> bool {
        self.along > 0.0 && (self.along < self.length_squared || self.just_before_end())
    }

    /// `along` is measured from the edge's start, so near the end it is
    /// rounded: a vertex whose foot is inside the edge by less than that
    /// rounding (e.g. 1e-17 from the end of a 4 m edge) gets
    /// `along == length_squared` and would count as vertex–vertex, with the
    /// direction between two points a rounding error apart as its axis, any
    /// direction at all, which then orients the MTV. Measured from the end,
    /// the sign is right.
    pub(super) fn just_before_end(&self) -> bool {
        let face = &self.face;
        (face.vertex - face.end).dot(&(face.end - face.start)) < 0.0
    }

    pub(super) fn corner(&self) -> Point {
        match self.along <= 0.0 {
            true => self.face.start,
            false => self.face.end,
        }
    }

    pub(super) fn closest(&self) -> Closest {
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
    pub(super) fn candidate(&self) -> Candidate {
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
    pub(super) fn start_state(&self) -> (usize, usize) {
        match self.edge_on_a {
            true => (self.edge_index, self.vertex_index),
            false => (self.vertex_index, self.edge_index),
        }
    }

    /// The walk state at the face's end: its edge's index moved on (`na`,
    /// `nb`: the cores' edge counts).
    pub(super) fn end_state(&self, na: usize, nb: usize) -> (usize, usize) {
        let (i, j) = self.start_state();
        match self.edge_on_a {
            true => (next(i, na), j),
            false => (i, next(j, nb)),
        }
    }

    /// Turns a direction from the edge toward the vertex into one from A
    /// toward B.
    pub(super) fn oriented_a_to_b(&self, edge_to_vertex: Vector) -> Vector {
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
pub(super) fn for_each_face(a: Core, b: Core, mut visit: impl FnMut(&Face) -> bool) -> bool {
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
pub(super) fn point_faces(
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
pub(super) fn face_at(a: Core, b: Core, edge_on_a: bool, edge: usize, vertex: usize) -> Face {
    match edge_on_a {
        true => edge_face(a, edge, b, vertex, true),
        false => edge_face(b, edge, a, vertex, false),
    }
}

/// The face of `A − B` leaving the walk state `(i, j)` (the vertex
/// `a_i − b_j` of `A − B`: A's next edge is `i`, B's is `j`), with the rule
/// of [`for_each_face`].
pub(super) fn face_after(a: Core, b: Core, (i, j): (usize, usize)) -> Face {
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
pub(super) fn face_before(a: Core, b: Core, (i, j): (usize, usize)) -> Face {
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
pub(super) fn edge_face(owner: Core, i: usize, other: Core, j: usize, owner_is_a: bool) -> Face {
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
pub(super) fn advances(normal: &Vector, direction: &Vector) -> bool {
    cross(normal, direction) > 0.0
}

/// Support vertex of `core` for `direction`: where the walk stops paying off
/// (edge `j - 1` advances, edge `j` does not). O(log n): bisection on the
/// normals' angles measured from the first normal, confirmed with
/// [`advances`] itself, so the answer is the walk's own; a linear scan only
/// if rounding broke the order of the normals.
pub(super) fn find_support(core: Core, direction: &Vector) -> usize {
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
pub(super) fn find_support_linear(core: Core, direction: &Vector) -> usize {
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
pub(super) fn next(i: usize, n: usize) -> usize {
    if i + 1 == n {
        0
    } else {
        i + 1
    }
}

/// Plain arg-max; only reached if rounding broke the order of the normals.
pub(super) fn support_by_value(core: Core, direction: &Vector) -> usize {
    let mut best = 0;
    for (i, v) in core.vertices.iter().enumerate() {
        if v.coords.dot(direction) > core.vertices[best].coords.dot(direction) {
            best = i;
        }
    }
    best
}
