//! Convex decomposition of simple polygons.

use super::convex::ConvexPolygon;
use super::polygon::SimplePolygon;
use super::{cross, Point};

/// Splits a simple counter-clockwise polygon into convex pieces whose union
/// is the polygon. Ear clipping: every piece is a triangle.
pub fn convex_decomposition(polygon: &SimplePolygon) -> Vec<ConvexPolygon> {
    let vertices = polygon.vertices();
    if polygon.is_convex() {
        return vec![ConvexPolygon::from_ccw_convex(vertices.to_vec())];
    }
    let mut ring: Vec<usize> = (0..vertices.len()).collect();
    let mut pieces = Vec::with_capacity(vertices.len() - 2);
    while ring.len() > 3 {
        let n = ring.len();
        let ear = (0..n).find(|&i| {
            let a = vertices[ring[(i + n - 1) % n]];
            let b = vertices[ring[i]];
            let c = vertices[ring[(i + 1) % n]];
            cross(&(b - a), &(c - b)) > 0.0
                && !ring
                    .iter()
                    .map(|&k| vertices[k])
                    .filter(|p| *p != a && *p != b && *p != c)
                    .any(|p| in_triangle(p, a, b, c))
        });
        let Some(i) = ear else { break };
        let a = vertices[ring[(i + n - 1) % n]];
        let b = vertices[ring[i]];
        let c = vertices[ring[(i + 1) % n]];
        pieces.push(ConvexPolygon::from_ccw_convex(vec![a, b, c]));
        ring.remove(i);
    }
    if ring.len() == 3 {
        let tri: Vec<Point> = ring.iter().map(|&k| vertices[k]).collect();
        pieces.push(ConvexPolygon::from_ccw_convex(tri));
    }
    pieces
}

fn in_triangle(p: Point, a: Point, b: Point, c: Point) -> bool {
    cross(&(b - a), &(p - a)) >= 0.0
        && cross(&(c - b), &(p - b)) >= 0.0
        && cross(&(a - c), &(p - c)) >= 0.0
}
