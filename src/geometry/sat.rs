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
//! support vertex for the opposite direction turns with them, so one pointer
//! walked forward finds every support (rotating calipers).

use super::circle::point_separation;
use super::{cross, ConvexPolygon, Point, Vector};

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
    /// false for a point core.
    pub(crate) fn contains(&self, p: &Point) -> bool {
        !self.normals.is_empty()
            && self
                .vertices
                .iter()
                .zip(self.normals)
                .all(|(v, n)| (p - v).dot(n) <= 0.0)
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
    let mut deepest: Option<Face> = None;
    let mut nearest: Option<Candidate> = None;
    for_each_face(a, b, |face| {
        if deepest.is_none_or(|d| face.sep > d.sep) {
            deepest = Some(*face);
        }
        // A face's edge is at least |sep| from its vertex: skip faces that
        // cannot beat the nearest so far. Faces with sep <= 0 are kept: when
        // edges are parallel, rounding can give the face that holds the
        // closest point a separation of exactly 0 and its neighbour 1e-16.
        // Squared distances: no square root until the winner is known.
        if nearest.is_none_or(|n| face.sep * face.sep < n.distance_squared) {
            let candidate = face.candidate();
            if nearest.is_none_or(|n| candidate.distance_squared < n.distance_squared) {
                nearest = Some(candidate);
            }
        }
        true
    });
    let (Some(deepest), Some(nearest)) = (deepest, nearest) else {
        return Separation {
            value: 0.0,
            axis: Vector::x(),
            closest: None,
        };
    };
    let n = nearest.closest();
    Separation {
        // Exactly, the clearance is at least every separation; keep that
        // after rounding so that `max_separation`'s early exit agrees.
        value: n.distance.max(deepest.sep),
        axis: n.axis,
        closest: Some((n.on_a, n.on_b)),
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

/// [`max_separation`], and whether it is *witnessed*: the foot of the first
/// deepest face's vertex falls inside that face's edge, so the cores are no
/// farther apart than this separation and `separation(a, b).value` is
/// exactly it (same faces, same arithmetic). Two points: their exact
/// separation, witnessed.
pub(crate) fn max_separation_witnessed(
    a: Core,
    b: Core,
    stop: impl Fn(f64) -> bool,
) -> (f64, bool) {
    if let (Some(p), Some(q)) = (a.as_point(), b.as_point()) {
        return (point_separation(p, q).value, true);
    }
    let mut deepest: Option<Face> = None;
    for_each_face(a, b, |face| {
        if deepest.is_none_or(|d| face.sep > d.sep) {
            deepest = Some(*face);
        }
        !stop(face.sep)
    });
    match deepest {
        Some(face) => (face.sep, face.candidate().interior()),
        None => (f64::NEG_INFINITY, false),
    }
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
    /// the perpendicular is inside the edge iff `0 < along < length_squared`.
    along: f64,
    length_squared: f64,
}

impl Candidate {
    fn interior(&self) -> bool {
        self.along > 0.0 && self.along < self.length_squared
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
            let t = self.along / self.length_squared;
            (face.start + edge * t, face.sep.abs(), face.axis)
        } else {
            // Vertex–vertex: the direction between two input points is exact.
            let corner = self.corner();
            let d = face.vertex - corner;
            let length = d.x.hypot(d.y);
            let axis = match length > 0.0 {
                true => face.oriented_a_to_b(d / length),
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

    /// Turns a direction from the edge toward the vertex into one from A
    /// toward B.
    fn oriented_a_to_b(&self, edge_to_vertex: Vector) -> Vector {
        match self.edge_on_a {
            true => edge_to_vertex,
            false => -edge_to_vertex,
        }
    }
}

/// Visits every face of `A − B` (A's edges, then B's); stops as soon as
/// `visit` returns false and then returns false.
fn for_each_face(a: Core, b: Core, mut visit: impl FnMut(&Face) -> bool) -> bool {
    faces_on_edges_of(a, b, true, &mut visit) && faces_on_edges_of(b, a, false, &mut visit)
}

/// The faces made of `owner`'s edges and `other`'s support vertices.
fn faces_on_edges_of(
    owner: Core,
    other: Core,
    owner_is_a: bool,
    visit: &mut impl FnMut(&Face) -> bool,
) -> bool {
    // Parallel facing edges of A and B make one long face of `A − B`; the
    // walks must agree on which comes first or their faces leave a gap.
    // A's edge goes first: A's walk stops at the start of B's edge, B's walk
    // steps over A's edge to its end.
    let tie = !owner_is_a;
    let n = owner.normals.len();
    let mut support = 0;
    for i in 0..n {
        let normal = owner.normals[i];
        let direction = -normal;
        support = match i {
            0 => find_support(other, &direction, tie),
            _ => walk_support(other, &direction, support, tie),
        };
        let start = owner.vertices[i];
        let vertex = other.vertices[support];
        let face = Face {
            sep: (vertex - start).dot(&normal),
            axis: if owner_is_a { normal } else { -normal },
            start,
            end: owner.vertices[next(i, n)],
            vertex,
            edge_on_a: owner_is_a,
        };
        if !visit(&face) {
            return false;
        }
    }
    true
}

/// True when walking along the edge with outward normal `normal` raises the
/// projection on `direction` (the edge's direction is the normal turned a
/// quarter counter-clockwise). With `tie`, also steps over an edge facing
/// exactly `direction`.
#[inline]
fn advances(normal: &Vector, direction: &Vector, tie: bool) -> bool {
    let c = cross(normal, direction);
    c > 0.0 || (tie && c == 0.0 && normal.dot(direction) > 0.0)
}

/// Support vertex of `core` for `direction`: where the walk stops paying off.
/// O(n); used once per walk.
fn find_support(core: Core, direction: &Vector, tie: bool) -> usize {
    let Some(last) = core.normals.last() else {
        return 0; // A point: its only vertex.
    };
    let mut previous = advances(last, direction, tie);
    for (j, normal) in core.normals.iter().enumerate() {
        let current = advances(normal, direction, tie);
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

/// Walks `from` (the support for a direction turned clockwise from
/// `direction` by less than half a turn) forward to the support for
/// `direction`. Amortised O(1) over a full turn.
fn walk_support(core: Core, direction: &Vector, from: usize, tie: bool) -> usize {
    let n = core.normals.len();
    let mut j = from;
    for _ in 0..n {
        if !advances(&core.normals[j], direction, tie) {
            break;
        }
        j = next(j, n);
    }
    j
}
