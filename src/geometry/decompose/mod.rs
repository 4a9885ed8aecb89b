//! Convex decomposition of simple polygons.
//!
//! Collisions against a concave polygon are reported from its convex pieces,
//! so the pieces must cover the polygon exactly: a hole in the cover is a
//! wrong "clear".
//!
//! # Algorithm
//!
//! 1. **Ear clipping** triangulates the polygon. Only vertices that are not
//!    strictly convex can lie inside a candidate ear, so only they are tested
//!    against it, found in a box tree over them (subtrees whose box misses
//!    the ear's box, or lies certainly outside one side of the ear, are
//!    skipped), and the ear status of a vertex is recomputed only when its
//!    neighbours change (the two neighbours of each clipped ear). An ear
//!    test costs about `log r` plus the reflex vertices near the ear, for
//!    `r` reflex vertices: about `n log n` in all for ordinary outlines,
//!    `O(n · r)` at worst.
//! 2. **Hertel–Mehlhorn** merging walks the diagonals of the triangulation
//!    once and removes every diagonal whose removal leaves both its
//!    endpoints convex (a straight angle counts as convex; the vertex is then
//!    dropped from the piece). `O(n)` on a half-edge structure.
//!
//! Every decision (convex or reflex, inside an ear or not, convex after a
//! merge) is the sign of an orientation determinant computed **exactly**
//! (floating-point filter, exact expansion arithmetic when the filter cannot
//! tell). Plain floating point lets two nearly collinear tests contradict
//! each other; the remaining ring then stops being simple and later ears
//! turn a rounding error into a visible hole or overlap.
//!
//! # Guarantees
//!
//! For a valid [`SimplePolygon`] with `n` vertices, `r` of them reflex:
//!
//! * Every piece is strictly convex and counter-clockwise: at least three
//!   distinct vertices, each turning left both exactly and by the plain
//!   `cross(incoming, outgoing) > 0` the validation and the SAT code use.
//! * The pieces have disjoint interiors and their union is the polygon. The
//!   triangulation is exact; the only loss is where a vertex is so nearly
//!   straight in a piece that floating point sees no turn and it is dropped:
//!   a sliver as thin as the rounding error, far below
//!   [`length_tolerance`](super::length_tolerance).
//! * Piece vertices are polygon vertices; there are at most `n − 2` pieces,
//!   and at most `2r + 1` — at most four times the optimum, which needs at
//!   least `⌈r / 2⌉ + 1`. (A vertex that clipping leaves exactly straight is
//!   removed from the ring and the diagonals beside it can no longer be
//!   merged; this can cost pieces beyond `2r + 1`, never coverage.)
//! * A convex polygon is returned as its single piece, unchanged.
//! * It terminates, never panics and is deterministic.
//!
//! In exact arithmetic every simple polygon has an ear, so the clipper
//! cannot get stuck. Should it anyway (no vertex of what is left passes the
//! ear test, even after recomputing every status), the rest is covered by a
//! **trapezoid decomposition**: vertical slabs between consecutive vertex
//! abscissas, cut into trapezoids between the pairs of edges that cross them
//! (even–odd), merged along x while bounded by the same two edges. That
//! cover needs no ear and is exact up to rounding for any closed ring, but
//! its pieces have new vertices on the polygon's edges and the count bounds
//! above do not hold for it.

use super::boxtree::BoxTree;
use super::convex::ConvexPolygon;
use super::polygon::SimplePolygon;
use super::predicates::{orient, orient_filtered, turn_float};
use super::{Aabb, Point};

/// No half-edge / no vertex.
const NONE: usize = usize::MAX;

/// Splits a simple counter-clockwise polygon into convex pieces whose union
/// is the polygon (see the module documentation).
pub fn convex_decomposition(polygon: &SimplePolygon) -> Vec<ConvexPolygon> {
    let vertices = polygon.vertices();
    if polygon.is_convex() {
        return vec![ConvexPolygon::from_ccw_convex(vertices.to_vec())];
    }
    decompose_ring(vertices, usize::MAX)
        .into_iter()
        .map(ConvexPolygon::from_ccw_convex)
        .collect()
}

/// Convex pieces of a counter-clockwise simple ring, as vertex lists.
/// `ear_budget` limits the ears clipped before handing the rest to the
/// fallback (tests use it to exercise the fallback).
fn decompose_ring(points: &[Point], ear_budget: usize) -> Vec<Vec<Point>> {
    let mut mesh = Mesh::default();
    let leftover = EarClipper::new(points).triangulate(&mut mesh, ear_budget);
    mesh.merge_inessential_diagonals(points);
    let mut pieces = mesh.pieces(points);
    if let Some(ring) = leftover {
        let ring: Vec<Point> = ring.iter().map(|&v| points[v]).collect();
        pieces.extend(trapezoid_cover(&ring));
    }
    pieces
}

/// `p` in the closed triangle `abc` (counter-clockwise), exactly.
#[inline]
fn in_closed_triangle(p: Point, a: Point, b: Point, c: Point) -> bool {
    orient(a, b, p) >= 0.0 && orient(b, c, p) >= 0.0 && orient(c, a, p) >= 0.0
}

/// Every point of `node` is strictly outside the counter-clockwise
/// triangle `abc`: for one side, even the box corner farthest to its left
/// is certainly (by the floating-point filter of [`orient`]) strictly to
/// its right. Undecided corners (nearly on the side's line) keep the box:
/// pruning only saves work, it never decides.
#[inline]
fn box_outside_triangle(node: &Aabb, a: Point, b: Point, c: Point) -> bool {
    [(a, b), (b, c), (c, a)].iter().any(|&(from, to)| {
        // The sign of a difference of two doubles is exact.
        let corner = Point::new(
            if to.y < from.y {
                node.max.x
            } else {
                node.min.x
            },
            if to.x > from.x {
                node.max.y
            } else {
                node.min.y
            },
        );
        orient_filtered(from, to, corner) < 0.0
    })
}

// ---------------------------------------------------------------------------
// Triangulation.
// ---------------------------------------------------------------------------

/// The remaining ring during ear clipping, as a doubly linked list over the
/// polygon's vertex indices.
struct EarClipper<'a> {
    points: &'a [Point],
    /// Links of the ring. A vertex that left the ring keeps the links it
    /// had then, so a live vertex is found by following `prev`.
    prev: Vec<usize>,
    next: Vec<usize>,
    alive: Vec<bool>,
    len: usize,
    /// Vertices not strictly convex: the only ones that can lie inside an
    /// ear, in a box tree so that an ear test only looks at those near its
    /// triangle. Vertices that stop blocking (clipped, or turned convex)
    /// are removed from it; none is ever added.
    blockers: BoxTree,
    is_blocker: Vec<bool>,
    /// Ear status, computed when the clipper first needs it after the
    /// vertex's neighbourhood last changed (`None` until then).
    is_ear: Vec<Option<bool>>,
    /// For the ring edge from `v` to `next[v]`: the half-edge of an already
    /// clipped triangle on its other side, or [`NONE`] for a polygon edge.
    across: Vec<usize>,
    /// Work lists of [`settle`](Self::settle), kept between clips.
    pending: Vec<usize>,
    touched: Vec<usize>,
}

impl<'a> EarClipper<'a> {
    fn new(points: &'a [Point]) -> Self {
        let n = points.len();
        let mut clipper = EarClipper {
            points,
            prev: (0..n).map(|v| (v + n - 1) % n).collect(),
            next: (0..n).map(|v| (v + 1) % n).collect(),
            alive: vec![true; n],
            len: n,
            blockers: BoxTree::default(),
            is_blocker: vec![false; n],
            is_ear: vec![None; n],
            across: vec![NONE; n],
            pending: Vec::new(),
            touched: Vec::new(),
        };
        for v in 0..n {
            clipper.is_blocker[v] = clipper.turn_at(v) <= 0.0;
        }
        let blockers = (0..n).filter(|&v| clipper.is_blocker[v]).collect();
        clipper.blockers = BoxTree::new(blockers, n, |v| Aabb {
            min: points[v],
            max: points[v],
        });
        clipper
    }

    /// Whether `v` is an ear, tested now if its status is not known.
    fn ear_status(&mut self, v: usize) -> bool {
        match self.is_ear[v] {
            Some(ear) => ear,
            None => {
                let ear = self.ear_test(v);
                self.is_ear[v] = Some(ear);
                ear
            }
        }
    }

    /// Exact-sign turn at `v` in the current ring.
    fn turn_at(&self, v: usize) -> f64 {
        let p = self.points;
        orient(p[self.prev[v]], p[v], p[self.next[v]])
    }

    /// `v` is strictly convex and no blocker lies in the closed triangle it
    /// forms with its neighbours. Closed, so that a vertex touching the
    /// would-be diagonal blocks it and the rest stays simple.
    fn ear_test(&self, v: usize) -> bool {
        let (a, c) = (self.prev[v], self.next[v]);
        if self.turn_at(v) <= 0.0 {
            return false;
        }
        let p = self.points;
        let (pa, pb, pc) = (p[a], p[v], p[c]);
        let (min_x, max_x) = (pa.x.min(pb.x).min(pc.x), pa.x.max(pb.x).max(pc.x));
        let (min_y, max_y) = (pa.y.min(pb.y).min(pc.y), pa.y.max(pb.y).max(pc.y));
        let bounds = Aabb {
            min: Point::new(min_x, min_y),
            max: Point::new(max_x, max_y),
        };
        !self.blockers.search(
            |node| node.intersects(&bounds) && !box_outside_triangle(node, pa, pb, pc),
            |b| {
                let q = p[b];
                self.is_blocker[b]
                    && b != a
                    && b != c
                    && (min_x..=max_x).contains(&q.x)
                    && (min_y..=max_y).contains(&q.y)
                    && in_closed_triangle(q, pa, pb, pc)
            },
        )
    }

    fn refresh_ears(&mut self, start: usize) {
        let mut v = start;
        for _ in 0..self.len {
            self.is_ear[v] = Some(self.ear_test(v));
            v = self.next[v];
        }
    }

    /// Clips ears into `mesh` until a triangle is left. Returns the rest of
    /// the ring when no ear can be found (or the budget is spent).
    fn triangulate(mut self, mesh: &mut Mesh, mut ear_budget: usize) -> Option<Vec<usize>> {
        // Vertex 0 is in the ring until something is clipped.
        let mut v = 0;
        let mut misses = 0;
        let mut refreshed = false;
        while self.len > 3 {
            if self.ear_status(v) {
                if ear_budget == 0 {
                    return Some(self.ring_from(v));
                }
                ear_budget -= 1;
                v = self.clip(v, mesh);
                misses = 0;
                refreshed = false;
                continue;
            }
            v = self.next[v];
            misses += 1;
            if misses > self.len {
                // A full lap without an ear. Statuses are exact in exact
                // arithmetic; recompute them once in case rounding made one
                // stale, then give up on ears.
                if refreshed {
                    return Some(self.ring_from(v));
                }
                self.refresh_ears(v);
                refreshed = true;
                misses = 0;
            }
        }
        self.last_triangle(v, mesh);
        None
    }

    fn ring_from(&self, start: usize) -> Vec<usize> {
        let mut ring = Vec::with_capacity(self.len);
        let mut v = start;
        for _ in 0..self.len {
            ring.push(v);
            v = self.next[v];
        }
        ring
    }

    /// Cuts off the ear at `v`; returns where to look for the next ear.
    fn clip(&mut self, v: usize, mesh: &mut Mesh) -> usize {
        let (a, c) = (self.prev[v], self.next[v]);
        let far_side = mesh.add_triangle([a, v, c], [self.across[a], self.across[v]]);
        self.unlink(v);
        self.across[a] = far_side;
        self.settle(a, c);
        // Continue just after the cut, where statuses just changed (going
        // on forward gave 5-10% fewer pieces after merging than going back
        // to `a`, on random polygons).
        self.live_near(c)
    }

    /// `v`, or the ring vertex that preceded it when it left the ring.
    fn live_near(&self, mut v: usize) -> usize {
        // Each step reaches a vertex that left the ring later, or never.
        while !self.alive[v] {
            v = self.prev[v];
        }
        v
    }

    /// Removes `v` from the ring (not from the mesh).
    fn unlink(&mut self, v: usize) {
        let (a, c) = (self.prev[v], self.next[v]);
        self.next[a] = c;
        self.prev[c] = a;
        self.alive[v] = false;
        self.is_blocker[v] = false;
        self.is_ear[v] = Some(false);
        self.len -= 1;
    }

    /// Recomputes the status of `a` and `c`, neighbours whose neighbours
    /// changed. A vertex that became exactly straight (on the segment
    /// between its neighbours) is dropped from the ring: it adds nothing to
    /// the region and no triangle can be cut at it.
    fn settle(&mut self, a: usize, c: usize) {
        let mut pending = std::mem::take(&mut self.pending);
        pending.clear();
        pending.extend([a, c]);
        // Vertices whose triangle (with their neighbours) changed.
        let mut touched = std::mem::take(&mut self.touched);
        touched.clear();
        touched.extend([a, c]);
        let mut changed_blockers = false;
        while let Some(u) = pending.pop() {
            if !self.alive[u] || self.len <= 3 {
                continue;
            }
            let t = self.turn_at(u);
            if t == 0.0 && self.goes_forward(u) {
                let (p, n) = (self.prev[u], self.next[u]);
                changed_blockers |= self.is_blocker[u];
                self.unlink(u);
                // The merged edge matches no single clipped triangle edge.
                self.across[p] = NONE;
                pending.extend([p, n]);
                touched.extend([p, n]);
                continue;
            }
            let blocker = t <= 0.0;
            changed_blockers |= blocker != self.is_blocker[u];
            self.is_blocker[u] = blocker;
        }
        if changed_blockers {
            // Only vertices met here can have stopped blocking.
            for &u in &touched {
                if !self.is_blocker[u] {
                    self.blockers.remove(u);
                }
            }
        }
        // Other vertices keep their status: a vertex that stopped blocking
        // cannot have been the only one inside another ear candidate (in
        // exact arithmetic some reflex vertex would be inside too). The
        // touched ones are tested again when the clipper reaches them.
        for &u in &touched {
            if self.alive[u] {
                self.is_ear[u] = None;
            }
        }
        self.pending = pending;
        self.touched = touched;
    }

    /// The ring runs on through `v` without turning back.
    fn goes_forward(&self, v: usize) -> bool {
        let p = self.points;
        (p[v] - p[self.prev[v]]).dot(&(p[self.next[v]] - p[v])) > 0.0
    }

    /// The final three vertices. If rounding left them without a strictly
    /// positive turn everywhere, they enclose no area worth a piece.
    fn last_triangle(&mut self, v: usize, mesh: &mut Mesh) {
        let (a, c) = (self.prev[v], self.next[v]);
        let p = self.points;
        if orient(p[a], p[v], p[c]) > 0.0 {
            mesh.add_triangle([a, v, c], [self.across[a], self.across[v]]);
            // The third side, c → a, faces the triangle clipped last.
            let last = mesh.origin.len() - 1;
            mesh.pair(last, self.across[c]);
        }
    }
}

// ---------------------------------------------------------------------------
// Hertel–Mehlhorn merging on a half-edge structure.
// ---------------------------------------------------------------------------

/// Pieces as cycles of half-edges. Half-edge `h` runs from vertex
/// `origin[h]` to `origin[next[h]]`; `twin[h]` is the opposite half-edge
/// of the neighbouring piece across a diagonal, or [`NONE`] on the polygon
/// boundary.
#[derive(Default)]
struct Mesh {
    origin: Vec<usize>,
    next: Vec<usize>,
    prev: Vec<usize>,
    twin: Vec<usize>,
    /// Removed by a merge.
    dead: Vec<bool>,
}

impl Mesh {
    /// Adds the counter-clockwise triangle `a, b, c` with `twins` for its
    /// sides `ab` and `bc`; returns the half-edge `c → a`.
    fn add_triangle(&mut self, [a, b, c]: [usize; 3], twins: [usize; 2]) -> usize {
        let base = self.origin.len();
        self.origin.extend([a, b, c]);
        self.next.extend([base + 1, base + 2, base]);
        self.prev.extend([base + 2, base, base + 1]);
        self.twin.extend([NONE; 3]);
        self.dead.extend([false; 3]);
        self.pair(base, twins[0]);
        self.pair(base + 1, twins[1]);
        base + 2
    }

    fn pair(&mut self, h: usize, twin: usize) {
        if twin != NONE {
            self.twin[h] = twin;
            self.twin[twin] = h;
        }
    }

    fn dest(&self, h: usize) -> usize {
        self.origin[self.next[h]]
    }

    /// Removes every inessential diagonal. One pass suffices: merging only
    /// widens angles, so a diagonal that is essential stays essential.
    fn merge_inessential_diagonals(&mut self, points: &[Point]) {
        // Creation order; sorting by length changed piece counts by about 1%
        // on random polygons, not worth the `n log n`.
        for h in 0..self.origin.len() {
            let t = self.twin[h];
            if t != NONE && h < t && self.stays_convex(h, points) {
                self.merge(h);
            }
        }
    }

    /// Whether both ends of the diagonal `h` stay convex once it is gone.
    /// `h` runs `u → v` in one piece, its twin `v → u` in the other.
    fn stays_convex(&self, h: usize, points: &[Point]) -> bool {
        let t = self.twin[h];
        let (u, v) = (self.origin[h], self.origin[t]);
        let at_u = orient(
            points[self.origin[self.prev[h]]],
            points[u],
            points[self.dest(self.next[t])],
        );
        let at_v = orient(
            points[self.origin[self.prev[t]]],
            points[v],
            points[self.dest(self.next[h])],
        );
        at_u >= 0.0 && at_v >= 0.0
    }

    /// Joins the two pieces on either side of `h` into one cycle.
    fn merge(&mut self, h: usize) {
        let t = self.twin[h];
        let (hp, hn, tp, tn) = (self.prev[h], self.next[h], self.prev[t], self.next[t]);
        self.next[hp] = tn;
        self.prev[tn] = hp;
        self.next[tp] = hn;
        self.prev[hn] = tp;
        self.dead[h] = true;
        self.dead[t] = true;
    }

    /// The vertex lists of the pieces, in half-edge order (deterministic).
    fn pieces(&self, points: &[Point]) -> Vec<Vec<Point>> {
        let mut seen = vec![false; self.origin.len()];
        let mut pieces = Vec::new();
        for start in 0..self.origin.len() {
            if self.dead[start] || seen[start] {
                continue;
            }
            let mut ring = Vec::new();
            let mut h = start;
            loop {
                seen[h] = true;
                ring.push(points[self.origin[h]]);
                h = self.next[h];
                if h == start || seen[h] {
                    break;
                }
            }
            pieces.extend(strictly_convex(ring));
        }
        pieces
    }
}

/// Drops the vertices of a convex ring that do not turn strictly left: the
/// straight junctions left by merging (exactly straight), and vertices so
/// nearly straight that floating point sees no turn (the piece then loses a
/// sliver at the rounding level). Floating point could also miss the turn
/// of a needle tip, whose loss would not be small, but that takes two
/// vertices closer than the rounding error and validation keeps distinct
/// vertices more than the tolerance apart. `None` when fewer than three
/// vertices remain (no area).
fn strictly_convex(ring: Vec<Point>) -> Option<Vec<Point>> {
    let n = ring.len();
    if n < 3 {
        return None;
    }
    let drops = |a: Point, b: Point, c: Point| {
        a == b || orient(a, b, c) <= 0.0 || turn_float(a, b, c) <= 0.0
    };
    // Usually nothing drops: keep the ring as it is.
    if !(0..n).any(|i| drops(ring[(i + n - 1) % n], ring[i], ring[(i + 1) % n])) {
        return Some(ring);
    }
    // Walk around, dropping one vertex at a time (two at once could be the
    // two copies of a repeated point) and stepping back to recheck the
    // neighbour that changed, until a full lap finds nothing. A linked
    // list makes each drop O(1) (a large piece can lose many straight
    // vertices).
    let mut prev: Vec<usize> = (0..n).map(|i| (i + n - 1) % n).collect();
    let mut next: Vec<usize> = (0..n).map(|i| (i + 1) % n).collect();
    let mut alive = vec![true; n];
    let (mut len, mut i, mut clean) = (n, 0, 0);
    while len >= 3 && clean < len {
        let (a, c) = (prev[i], next[i]);
        if drops(ring[a], ring[i], ring[c]) {
            next[a] = c;
            prev[c] = a;
            alive[i] = false;
            len -= 1;
            clean = 0;
            i = a;
        } else {
            i = c;
            clean += 1;
        }
    }
    if len < 3 {
        return None;
    }
    Some(
        ring.iter()
            .zip(&alive)
            .filter_map(|(p, &keep)| keep.then_some(*p))
            .collect(),
    )
}

// ---------------------------------------------------------------------------
// Fallback: trapezoid decomposition.
// ---------------------------------------------------------------------------

/// Convex pieces covering the even–odd interior of a closed ring: slabs
/// between consecutive distinct vertex abscissas, cut into trapezoids
/// between consecutive pairs of the edges crossing the slab, a trapezoid
/// extended into the next slab while bounded by the same two edges.
/// `O(n²)`; used only when ear clipping is stuck.
fn trapezoid_cover(ring: &[Point]) -> Vec<Vec<Point>> {
    let n = ring.len();
    let edge = |e: usize| (ring[e], ring[(e + 1) % n]);
    let mut xs: Vec<f64> = ring.iter().map(|p| p.x).collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    // Open trapezoids: (lower edge, upper edge, starting x).
    let mut open: Vec<(usize, usize, f64)> = Vec::new();
    let mut pieces = Vec::new();
    for slab in xs.windows(2) {
        let (x0, x1) = (slab[0], slab[1]);
        let middle = 0.5 * (x0 + x1);
        let mut crossing: Vec<(f64, usize)> = (0..n)
            .filter_map(|e| {
                let (a, b) = edge(e);
                let spans = a.x.min(b.x) <= x0 && a.x.max(b.x) >= x1;
                spans.then(|| (y_at(a, b, middle), e))
            })
            .collect();
        crossing.sort_by(|l, r| l.0.total_cmp(&r.0).then(l.1.cmp(&r.1)));
        let mut still_open = Vec::with_capacity(crossing.len() / 2);
        for pair in crossing.chunks_exact(2) {
            let (lower, upper) = (pair[0].1, pair[1].1);
            match open.iter().position(|&(l, u, _)| l == lower && u == upper) {
                Some(i) => still_open.push(open.swap_remove(i)),
                None => still_open.push((lower, upper, x0)),
            }
        }
        for (lower, upper, start) in open.drain(..) {
            pieces.extend(trapezoid(edge(lower), edge(upper), start, x0));
        }
        open = still_open;
    }
    if let Some(&end) = xs.last() {
        for (lower, upper, start) in open {
            pieces.extend(trapezoid(edge(lower), edge(upper), start, end));
        }
    }
    pieces
}

/// The part of the vertical strip `x0 ≤ x ≤ x1` between two edges that
/// span it, `lower` below `upper`, counter-clockwise.
fn trapezoid(lower: (Point, Point), upper: (Point, Point), x0: f64, x1: f64) -> Option<Vec<Point>> {
    let low = |x| y_at(lower.0, lower.1, x);
    let high = |x| y_at(upper.0, upper.1, x);
    let ring = vec![
        Point::new(x0, low(x0)),
        Point::new(x1, low(x1)),
        Point::new(x1, high(x1).max(low(x1))),
        Point::new(x0, high(x0).max(low(x0))),
    ];
    strictly_convex(ring)
}

/// Ordinate of the line through `a` and `b` (not vertical) at `x`, exact at
/// the endpoints so that edges meeting at a vertex meet in the cover too.
fn y_at(a: Point, b: Point, x: f64) -> f64 {
    if x == a.x {
        a.y
    } else if x == b.x {
        b.y
    } else {
        a.y + (b.y - a.y) * ((x - a.x) / (b.x - a.x))
    }
}

#[cfg(test)]
mod tests;
