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
    let mut deepest: Option<Face> = None;
    let mut nearest: Option<Closest> = None;
    for_each_face(a, b, |face| {
        if deepest.is_none_or(|d| face.sep > d.sep) {
            deepest = Some(*face);
        }
        // A face's edge is at least |sep| from its vertex: skip faces that
        // cannot beat the nearest so far. Faces with sep <= 0 are kept: when
        // edges are parallel, rounding can give the face that holds the
        // closest point a separation of exactly 0 and its neighbour 1e-16.
        if nearest.is_none_or(|n| face.sep.abs() < n.distance) {
            let candidate = face.closest();
            if nearest.is_none_or(|n| candidate.distance < n.distance) {
                nearest = Some(candidate);
            }
        }
        true
    });
    // A polygon core always has faces; fail safe (overlapping) otherwise.
    let Some(deepest) = deepest else {
        return Separation {
            value: 0.0,
            axis: Vector::x(),
            closest: None,
        };
    };
    match nearest {
        Some(n) if deepest.sep > 0.0 => Separation {
            // Exactly, the clearance is at least every separation; keep that
            // after rounding so that `max_separation`'s early exit agrees.
            value: n.distance.max(deepest.sep),
            axis: n.axis,
            closest: Some((n.on_a, n.on_b)),
        },
        _ => Separation {
            value: deepest.sep,
            axis: deepest.axis,
            closest: None,
        },
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
    let mut best = f64::NEG_INFINITY;
    for_each_face(a, b, |face| {
        best = best.max(face.sep);
        !stop(face.sep)
    });
    best
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

impl Face {
    fn closest(&self) -> Closest {
        let edge = self.end - self.start;
        let t = (self.vertex - self.start).dot(&edge) / edge.norm_squared();
        let (on_edge, distance, axis) = if t > 0.0 && t < 1.0 {
            // The foot of the perpendicular is inside the edge: the distance
            // is |separation| and the axis the normal, both computed without
            // cancellation.
            (self.start + edge * t, self.sep.abs(), self.axis)
        } else {
            // Vertex–vertex: the direction between two input points is exact.
            let corner = if t <= 0.0 { self.start } else { self.end };
            let d = self.vertex - corner;
            let length = d.x.hypot(d.y);
            let axis = match length > 0.0 {
                true => self.oriented_a_to_b(d / length),
                false => self.axis,
            };
            (corner, length, axis)
        };
        let (on_a, on_b) = match self.edge_on_a {
            true => (on_edge, self.vertex),
            false => (self.vertex, on_edge),
        };
        Closest {
            distance,
            axis,
            on_a,
            on_b,
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
            end: owner.vertices[(i + 1) % n],
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
    let n = core.normals.len();
    (0..n)
        .find(|&j| {
            advances(&core.normals[(j + n - 1) % n], direction, tie)
                && !advances(&core.normals[j], direction, tie)
        })
        .unwrap_or_else(|| support_by_value(core, direction))
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
        j = (j + 1) % n;
    }
    j
}
