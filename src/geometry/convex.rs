//! Convex polygon with precomputed outward edge normals.

use super::polygon::{PolygonError, SimplePolygon};
use super::{Aabb, Point, Vector};
use nalgebra::Isometry2;

/// A strictly convex, counter-clockwise polygon. Edge `i` runs from
/// `vertices[i]` to `vertices[(i + 1) % n]`; `normals[i]` is its outward
/// unit normal. Built only from validated input, so queries never meet a
/// degenerate polygon.
#[derive(Clone, Debug, PartialEq)]
pub struct ConvexPolygon {
    vertices: Vec<Point>,
    normals: Vec<Vector>,
    aabb: Aabb,
}

impl ConvexPolygon {
    /// Validates raw points; concave input is [`PolygonError::NotConvex`].
    pub fn new(points: &[Point]) -> Result<Self, PolygonError> {
        Self::try_from(SimplePolygon::new(points)?)
    }

    /// Builds from vertices already known to be convex and counter-clockwise
    /// with no repeated or collinear vertex (pieces of a decomposition,
    /// transformed copies of a valid polygon).
    pub(crate) fn from_ccw_convex(vertices: Vec<Point>) -> Self {
        let normals = Vec::with_capacity(vertices.len());
        Self::from_ccw_convex_in(vertices, normals)
    }

    /// [`from_ccw_convex`](Self::from_ccw_convex) with the normals written
    /// into `normals` (cleared first), e.g. the buffer of a polygon no
    /// longer needed ([`into_buffers`](Self::into_buffers)).
    pub(crate) fn from_ccw_convex_in(vertices: Vec<Point>, normals: Vec<Vector>) -> Self {
        let mut polygon = ConvexPolygon {
            normals,
            aabb: Aabb {
                min: Point::origin(),
                max: Point::origin(),
            },
            vertices,
        };
        polygon.update_derived();
        polygon
    }

    fn update_derived(&mut self) {
        let n = self.vertices.len();
        self.normals.clear();
        self.normals.extend((0..n).map(|i| {
            let edge = self.vertices[(i + 1) % n] - self.vertices[i];
            Vector::new(edge.y, -edge.x).normalize()
        }));
        if let Some(aabb) = Aabb::from_points(&self.vertices) {
            self.aabb = aabb;
        }
    }

    /// Counter-clockwise vertices, first vertex not repeated at the end.
    pub fn vertices(&self) -> &[Point] {
        &self.vertices
    }

    /// The vertex and normal buffers, for another polygon to reuse.
    pub(crate) fn into_buffers(self) -> (Vec<Point>, Vec<Vector>) {
        (self.vertices, self.normals)
    }

    /// Outward unit normal of each edge, in edge order.
    pub fn normals(&self) -> &[Vector] {
        &self.normals
    }

    /// Bounding box of the vertices.
    pub fn aabb(&self) -> &Aabb {
        &self.aabb
    }

    /// Number of vertices (at least 3).
    pub fn len(&self) -> usize {
        self.vertices.len()
    }

    /// Never true for a validated polygon; present for API completeness
    /// alongside [`len`](Self::len).
    pub fn is_empty(&self) -> bool {
        self.vertices.is_empty()
    }

    /// This polygon moved by a rigid transform (rotation keeps convexity and
    /// orientation).
    pub fn transformed(&self, pose: &Isometry2<f64>) -> Self {
        let mut out = self.clone();
        out.set_transformed(self, pose);
        out
    }

    /// Overwrites `self` with `source` moved by `pose`, reusing `self`'s
    /// buffers: no allocation once they are large enough.
    pub fn set_transformed(&mut self, source: &ConvexPolygon, pose: &Isometry2<f64>) {
        self.vertices.clear();
        self.vertices
            .extend(source.vertices.iter().map(|p| pose * p));
        self.normals.clear();
        self.normals
            .extend(source.normals.iter().map(|n| pose.rotation * n));
        if let Some(aabb) = Aabb::from_points(&self.vertices) {
            self.aabb = aabb;
        }
    }

    /// Interval `[min, max]` of the projections of the vertices on `axis`.
    pub fn project(&self, axis: &Vector) -> (f64, f64) {
        self.vertices
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                let d = v.coords.dot(axis);
                (lo.min(d), hi.max(d))
            })
    }
}

impl TryFrom<SimplePolygon> for ConvexPolygon {
    type Error = PolygonError;

    fn try_from(polygon: SimplePolygon) -> Result<Self, PolygonError> {
        if !polygon.is_convex() {
            return Err(PolygonError::NotConvex);
        }
        Ok(Self::from_ccw_convex(polygon.into_vertices()))
    }
}
