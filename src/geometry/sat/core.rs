//! A convex core: a polygon or a point, what the SAT walk measures.

use super::super::{cross, ConvexPolygon, Point, Vector};

/// A convex polygon (counter-clockwise vertices, outward unit edge normals)
/// or a point (one vertex, no normals).
#[derive(Clone, Copy, Debug)]
pub struct Core<'a> {
    pub(super) vertices: &'a [Point],
    pub(super) normals: &'a [Vector],
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

    pub(super) fn as_point(&self) -> Option<Point> {
        match self.normals.is_empty() {
            true => self.vertices.first().copied(),
            false => None,
        }
    }
}
