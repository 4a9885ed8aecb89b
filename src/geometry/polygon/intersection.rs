//! Whether a ring's edges come within `tol` of each other: the sweep along
//! x over a box tree of the edges that [`SimplePolygon`](super::SimplePolygon)
//! validation runs on concave rings.

use super::super::boxtree::{BoxTree, Slab};
use super::super::predicates::orientation_float;
use super::super::{cross, Aabb, Point, Vector};

/// A pair of ring edges `(i, j)`, `i < j`, that come within `tol` of each
/// other anywhere other than at the vertex shared by neighbours.
///
/// Edges are ranked by the smallest x of their boxes (inflated by `tol`);
/// the pair reported is the first one met by a sweep along x that compares
/// each edge with the later-ranked edges whose boxes meet its own, in rank
/// order. Instead of scanning every later edge that overlaps in x (quadratic
/// when many edges span the same x range, as in a comb with its teeth
/// along x), the candidates are found in a box tree over the edges: each
/// edge costs `O(log n + k)` for the `k` edges whose boxes meet its own,
/// so a simple outline costs about `n log n`. The answer, pair included, is
/// exactly the sweep's (see `find_self_intersection_reference`).
pub(super) fn find_self_intersection(vertices: &[Point], tol: f64) -> Option<(usize, usize)> {
    find_self_intersection_scanning(vertices, tol, SCAN)
}

/// [`find_self_intersection`] scanning at most `scan` later edges directly
/// (tests use 0: every candidate from the tree).
pub(super) fn find_self_intersection_scanning(
    vertices: &[Point],
    tol: f64,
    scan: usize,
) -> Option<(usize, usize)> {
    let n = vertices.len();
    let boxes = edge_boxes(vertices, tol);
    let order = rank_order(&boxes);
    let mut rank = vec![0; n];
    for (k, &i) in order.iter().enumerate() {
        rank[i] = k;
    }
    let starts: Vec<f64> = order.iter().map(|&i| boxes[i].min.x).collect();
    let tree = BoxTree::over_segments(
        (0..n).collect(),
        n,
        |i| boxes[i],
        |i| (vertices[i], vertices[(i + 1) % n]),
        |i| rank[i] as u32,
    );
    let margin = 3.0 * tol;
    let mut candidates = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        let own = &boxes[i];
        let (a0, a1) = (vertices[i], vertices[(i + 1) % n]);
        let beside = Beside::new(a0, a1, tol);
        candidates.clear();
        // The later edges that start (in x) before this one ends: scanned
        // directly when few, as the sweep does; found in the tree when many.
        let end = starts.partition_point(|&x| x <= own.max.x).max(k + 1);
        if end - (k + 1) <= scan {
            for &j in &order[k + 1..end] {
                let adjacent = (i + 1) % n == j || (j + 1) % n == i;
                if !adjacent
                    && boxes[j].intersects(own)
                    && segments_within(a0, a1, vertices[j], vertices[(j + 1) % n], tol)
                {
                    return Some((i.min(j), i.max(j)));
                }
            }
            continue;
        }
        tree.search_nodes(
            |node| {
                tree.node_max_key(node) as usize > k
                    && tree.node_box(node).intersects(own)
                    && !slab_far(tree.node_slab(node), a0, a1, margin)
            },
            |j| {
                // Neighbours share one vertex; that they do not overlap was
                // checked with the spikes.
                let adjacent = (i + 1) % n == j || (j + 1) % n == i;
                if rank[j] > k
                    && !adjacent
                    && boxes[j].intersects(own)
                    && !beside.far_segment(vertices[j], vertices[(j + 1) % n])
                {
                    candidates.push(j);
                }
                false
            },
        );
        candidates.sort_unstable_by_key(|&j| rank[j]);
        for &j in &candidates {
            if segments_within(a0, a1, vertices[j], vertices[(j + 1) % n], tol) {
                return Some((i.min(j), i.max(j)));
            }
        }
    }
    None
}

/// Every point of the segment `a0a1` is more than `margin` (three
/// tolerances) beyond the slab: no segment of the node comes within two
/// tolerances of it (the normal has unit length up to rounding, and the
/// margin dwarfs the rounding of the dot products, as for
/// [`Beside::far_segment`]), so [`segments_within`] is false for all of them.
#[inline]
fn slab_far(slab: &Slab, a0: Point, a1: Point, margin: f64) -> bool {
    let v0 = slab.normal.x * a0.x + slab.normal.y * a0.y;
    let v1 = slab.normal.x * a1.x + slab.normal.y * a1.y;
    v0.max(v1) < slab.lo - margin || v0.min(v1) > slab.hi + margin
}

/// Most later edges overlapping in x that the sweep scans one by one
/// rather than through the tree.
pub(super) const SCAN: usize = 48;

/// The line through an edge, to rule out boxes of edges far from it: long
/// edges have large boxes that meet many others (a spiky star), but few of
/// those boxes come near the edge itself.
struct Beside {
    origin: Point,
    direction: Vector,
    /// Three tolerances, in units of `cross(direction, offset)`.
    reach: f64,
}

impl Beside {
    fn new(a0: Point, a1: Point, tol: f64) -> Self {
        let direction = a1 - a0;
        Beside {
            origin: a0,
            direction,
            reach: 3.0 * tol * direction.norm(),
        }
    }

    /// Both ends of the segment `b0b1` are more than three tolerances from
    /// the line, on the same side: no point of it comes within two
    /// tolerances of the line, so it neither crosses the edge nor has an
    /// end within `tol` of it, nor the edge an end within `tol` of it
    /// ([`segments_within`] is false). The margin dwarfs the rounding of
    /// the cross products (relative 1e-15 of coordinates whose tolerance is
    /// 1e-12 of their magnitude). Never true for an edge of zero length.
    #[inline]
    fn far_segment(&self, b0: Point, b1: Point) -> bool {
        let s0 = cross(&self.direction, &(b0 - self.origin));
        let s1 = cross(&self.direction, &(b1 - self.origin));
        (s0 > self.reach && s1 > self.reach) || (s0 < -self.reach && s1 < -self.reach)
    }
}

/// Box of each ring edge, inflated by `tol`.
pub(super) fn edge_boxes(vertices: &[Point], tol: f64) -> Vec<Aabb> {
    let n = vertices.len();
    (0..n)
        .map(|i| {
            let (a, b) = (vertices[i], vertices[(i + 1) % n]);
            Aabb {
                min: Point::new(a.x.min(b.x), a.y.min(b.y)),
                max: Point::new(a.x.max(b.x), a.y.max(b.y)),
            }
            .inflated(tol)
        })
        .collect()
}

/// Edges by the smallest x of their boxes, ties by number.
pub(super) fn rank_order(boxes: &[Aabb]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..boxes.len()).collect();
    order.sort_by(|&i, &j| boxes[i].min.x.total_cmp(&boxes[j].min.x).then(i.cmp(&j)));
    order
}

/// True when the closed segments `a0a1` and `b0b1` come within `tol` of each
/// other.
pub(super) fn segments_within(a0: Point, a1: Point, b0: Point, b1: Point, tol: f64) -> bool {
    let d1 = orientation_float(a0, a1, b0);
    let d2 = orientation_float(a0, a1, b1);
    let d3 = orientation_float(b0, b1, a0);
    let d4 = orientation_float(b0, b1, a1);
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
    {
        return true;
    }
    point_segment_distance(b0, a0, a1) <= tol
        || point_segment_distance(b1, a0, a1) <= tol
        || point_segment_distance(a0, b0, b1) <= tol
        || point_segment_distance(a1, b0, b1) <= tol
}

/// Distance from `p` to the closed segment `ab`.
pub(super) fn point_segment_distance(p: Point, a: Point, b: Point) -> f64 {
    let ab = b - a;
    let length_squared = ab.norm_squared();
    let t = if length_squared > 0.0 {
        ((p - a).dot(&ab) / length_squared).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p - (a + ab * t)).norm()
}
