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
use super::{cross, Aabb, Point};

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

/// Turn at `b` on the way `a → b → c` in plain floating point, as the
/// polygon validation and the SAT code see it. Pieces must turn strictly
/// left by this measure too.
#[inline]
fn float_turn(a: Point, b: Point, c: Point) -> f64 {
    cross(&(b - a), &(c - b))
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

/// [`orient`]'s floating-point filter alone: its value when the sign is
/// certain, 0 otherwise.
#[inline]
fn orient_filtered(a: Point, b: Point, c: Point) -> f64 {
    let left = (a.x - c.x) * (b.y - c.y);
    let right = (a.y - c.y) * (b.x - c.x);
    let det = left - right;
    if det.abs() > ORIENT_FILTER * (left.abs() + right.abs()) {
        det
    } else {
        0.0
    }
}

/// Error bound of the floating-point orientation, relative to the sum of
/// the magnitudes of its two products: `(3 + 16ε)ε`, ε = 2⁻⁵³ (Shewchuk).
const ORIENT_FILTER: f64 = (3.0 + 16.0 * f64::EPSILON / 2.0) * (f64::EPSILON / 2.0);

/// Orientation of the triangle `abc`: positive when counter-clockwise,
/// negative when clockwise, zero when collinear, with the **sign exact**
/// (the magnitude is only an estimate).
///
/// Every decision of the ear clipper and of the merging is such a sign. With
/// plain floating point, two tests of nearly collinear points can disagree
/// (a vertex "outside" an ear whose apex nevertheless "turns left" past
/// it), the remaining ring stops being simple and later ears amplify the
/// error into uncovered area. Exact signs make the triangulation exact for
/// the given coordinates.
///
/// Floating-point filter first (Shewchuk's `orient2d` bound); only nearly
/// collinear points take the exact path. Exact as long as no product of two
/// coordinates underflows (coordinates are at most
/// [`MAX_COORDINATE`](super::polygon::MAX_COORDINATE) by validation, so
/// none overflows).
fn orient(a: Point, b: Point, c: Point) -> f64 {
    let left = (a.x - c.x) * (b.y - c.y);
    let right = (a.y - c.y) * (b.x - c.x);
    let det = left - right;
    let bound = ORIENT_FILTER * (left.abs() + right.abs());
    if det > bound || -det > bound {
        det
    } else {
        exact_orient(a, b, c)
    }
}

/// Sign (as ±1 or 0) of `(a.x − c.x)(b.y − c.y) − (a.y − c.y)(b.x − c.x)`
/// computed exactly: expanded into six products of coordinates, each split
/// into two doubles with a fused multiply-add, summed as a non-overlapping
/// expansion whose largest component carries the sign.
#[cold]
fn exact_orient(a: Point, b: Point, c: Point) -> f64 {
    let products = [
        (a.x, b.y),
        (-a.x, c.y),
        (-c.x, b.y),
        (-a.y, b.x),
        (a.y, c.x),
        (c.y, b.x),
    ];
    // Shewchuk's Grow-Expansion: components in increasing magnitude, none
    // overlapping; at most 12 here.
    let mut expansion = [0.0f64; 12];
    let mut len = 0;
    for (x, y) in products {
        let product = x * y;
        let error = x.mul_add(y, -product);
        for term in [error, product] {
            let mut q = term;
            for slot in expansion.iter_mut().take(len) {
                let (sum, tail) = two_sum(q, *slot);
                *slot = tail;
                q = sum;
            }
            expansion[len] = q;
            len += 1;
        }
    }
    expansion[..len]
        .iter()
        .rev()
        .find(|&&x| x != 0.0)
        .map_or(0.0, |x| x.signum())
}

/// `a + b` as `(rounded sum, exact rounding error)` (Knuth).
#[inline]
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let sum = a + b;
    let b_virtual = sum - a;
    let a_virtual = sum - b_virtual;
    (sum, (a - a_virtual) + (b - b_virtual))
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
        a == b || orient(a, b, c) <= 0.0 || float_turn(a, b, c) <= 0.0
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
mod tests {
    use super::*;
    use crate::geometry::polygon::{twice_signed_area, MAX_CONCAVE_VERTICES};
    use sat_collision_testkit::SplitMix64 as Rng;

    fn pts(coords: &[(f64, f64)]) -> Vec<Point> {
        coords.iter().map(|&(x, y)| Point::new(x, y)).collect()
    }

    fn inside_even_odd(ring: &[Point], p: Point) -> bool {
        let n = ring.len();
        let mut inside = false;
        for i in 0..n {
            let (a, b) = (ring[i], ring[(i + 1) % n]);
            if (a.y > p.y) != (b.y > p.y) && a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y) > p.x {
                inside = !inside;
            }
        }
        inside
    }

    /// Pieces strictly convex, areas adding up, random points inside the
    /// ring in some piece, outside in none.
    fn check_cover(ring: &[Point], pieces: &[Vec<Point>], rng: &mut Rng) {
        for piece in pieces {
            let m = piece.len();
            assert!(m >= 3);
            for i in 0..m {
                let (a, b, c) = (piece[(i + m - 1) % m], piece[i], piece[(i + 1) % m]);
                assert!(
                    float_turn(a, b, c) > 0.0 && orient(a, b, c) > 0.0,
                    "{piece:?}"
                );
            }
        }
        let expected = twice_signed_area(ring);
        let sum: f64 = pieces.iter().map(|p| twice_signed_area(p.as_slice())).sum();
        assert!(
            (sum - expected).abs() <= 1e-9 * expected,
            "{sum} vs {expected}"
        );
        let (lo, hi) = ring.iter().fold((ring[0], ring[0]), |(lo, hi), p| {
            (
                Point::new(lo.x.min(p.x), lo.y.min(p.y)),
                Point::new(hi.x.max(p.x), hi.y.max(p.y)),
            )
        });
        for _ in 0..200 {
            let p = Point::new(
                lo.x + (hi.x - lo.x) * rng.unit(),
                lo.y + (hi.y - lo.y) * rng.unit(),
            );
            let covered = pieces.iter().any(|piece| {
                let m = piece.len();
                (0..m).all(|i| orient(piece[i], piece[(i + 1) % m], p) >= 0.0)
            });
            assert_eq!(covered, inside_even_odd(ring, p), "{p:?}");
        }
    }

    fn random_star(rng: &mut Rng, n: usize) -> Vec<Point> {
        (0..n)
            .map(|k| {
                let a = (k as f64 + 0.9 * rng.unit()) * std::f64::consts::TAU / n as f64;
                let r = 0.2 + 0.8 * rng.unit();
                Point::new(r * a.cos(), r * a.sin())
            })
            .collect()
    }

    fn random_histogram(rng: &mut Rng, columns: usize) -> Vec<Point> {
        let mut ring = vec![Point::new(0.0, 0.0), Point::new(columns as f64, 0.0)];
        for i in (0..columns).rev() {
            let h = (1 + rng.below(5)) as f64;
            ring.push(Point::new((i + 1) as f64, h));
            ring.push(Point::new(i as f64, h));
        }
        ring
    }

    /// Exact sign of the orientation of integer points scaled by 2^-shift.
    fn reference_sign(a: (i64, i64), b: (i64, i64), c: (i64, i64)) -> f64 {
        let det =
            (a.0 - c.0) as i128 * (b.1 - c.1) as i128 - (a.1 - c.1) as i128 * (b.0 - c.0) as i128;
        det.signum() as f64
    }

    #[test]
    fn orient_sign_is_exact_for_nearly_collinear_points() {
        let mut rng = Rng(7);
        let scale = (2.0f64).powi(-30);
        let to_point = |p: (i64, i64)| Point::new(p.0 as f64 * scale, p.1 as f64 * scale);
        let mut degenerate = 0;
        for _ in 0..20_000 {
            // Two random points and a third on, or one unit off, their line,
            // far from the origin: the float filter cannot decide these.
            let base = 1i64 << 45;
            let a = (base + rng.below(1 << 20), base + rng.below(1 << 20));
            let d = (rng.below(1 << 10) - 512, rng.below(1 << 10) - 512);
            let k = rng.below(1 << 10) + 1;
            let b = (a.0 + d.0, a.1 + d.1);
            let wobble = rng.below(3) - 1;
            let c = (a.0 + k * d.0 + wobble, a.1 + k * d.1);
            let expected = reference_sign(a, b, c);
            let got = orient(to_point(a), to_point(b), to_point(c)).signum();
            let got = if orient(to_point(a), to_point(b), to_point(c)) == 0.0 {
                0.0
            } else {
                got
            };
            assert_eq!(got, expected, "{a:?} {b:?} {c:?}");
            degenerate += (expected == 0.0) as usize;
        }
        assert!(degenerate > 1000);
        // The classic failure of the naive formula (Kettner et al.).
        let p = Point::new(0.5 + 2f64.powi(-52) * 3.0, 0.5 + 2f64.powi(-52) * 3.0);
        assert_eq!(
            orient(p, Point::new(12.0, 12.0), Point::new(24.0, 24.0)),
            0.0
        );
    }

    #[test]
    fn orient_agrees_with_plain_formula_when_clear() {
        let (a, b, c) = (
            Point::new(0.0, 0.0),
            Point::new(1.0, 0.0),
            Point::new(0.0, 1.0),
        );
        assert!(orient(a, b, c) > 0.0);
        assert!(orient(a, c, b) < 0.0);
        assert_eq!(orient(a, b, Point::new(2.0, 0.0)), 0.0);
    }

    /// The trapezoid fallback, alone and after part of the ears were
    /// clipped, covers exactly.
    #[test]
    fn fallback_covers_what_ear_clipping_left() {
        let mut rng = Rng(11);
        for round in 0..300 {
            let ring = if round % 2 == 0 {
                random_star(&mut rng, 4 + (round % 40))
            } else {
                random_histogram(&mut rng, 1 + (round % 15))
            };
            let polygon = SimplePolygon::new(&ring).unwrap();
            let points = polygon.vertices();
            let n = points.len();
            check_cover(points, &trapezoid_cover(points), &mut rng);
            for budget in [0, 1, n / 3, n / 2] {
                check_cover(points, &decompose_ring(points, budget), &mut rng);
            }
        }
    }

    /// Triangles (before merging) and pieces (after) add up to the area.
    fn check_areas(ring: &[Point]) {
        let polygon = SimplePolygon::new(ring).unwrap();
        let points = polygon.vertices();
        let mut mesh = Mesh::default();
        let leftover = EarClipper::new(points).triangulate(&mut mesh, usize::MAX);
        assert!(leftover.is_none());
        let expected = twice_signed_area(points);
        let triangles: f64 = mesh
            .origin
            .chunks(3)
            .map(|t| twice_signed_area(&[points[t[0]], points[t[1]], points[t[2]]]))
            .sum();
        assert!(
            (triangles - expected).abs() < 1e-9 * expected,
            "triangles {triangles} vs {expected}"
        );
        mesh.merge_inessential_diagonals(points);
        let pieces: f64 = mesh
            .pieces(points)
            .iter()
            .map(|p| twice_signed_area(p.as_slice()))
            .sum();
        assert!(
            (pieces - expected).abs() < 1e-9 * expected,
            "pieces {pieces} vs {expected}"
        );
    }

    /// A rotated orthogonal polygon: many nearly collinear diagonals. With
    /// plain floating-point predicates the remaining ring stopped being
    /// simple and the triangles covered 3% more than the polygon.
    #[test]
    fn rotated_grid_polygon_triangulates_exactly() {
        check_areas(&pts(&[
            (0.4563079922344965, 0.0046965796160298775),
            (0.45474246569581983, 0.15679924369419537),
            (0.30263980161765436, 0.15523371715551873),
            (0.3010742750789777, 0.30733638123368423),
            (0.14897161100081224, 0.3057708546950076),
            (0.1474060844621356, 0.4578735187731731),
            (0.29950874854030113, 0.4594390453118497),
            (0.2979432220016245, 0.6115417093900152),
            (0.14584055792345899, 0.6099761828513386),
            (0.14427503138478237, 0.762078846929504),
            (0.29637769546294784, 0.7636443734681807),
            (0.2948121689242712, 0.9157470375463462),
            (0.44691483300243673, 0.9173125640850227),
            (0.4453493064637601, 1.0694152281631883),
            (-0.010958685770736382, 1.0647186485471585),
            (-0.012524212309413007, 1.216821312625324),
            (-0.925140196778406, 1.207428153393264),
            (-0.9235746702397293, 1.0553254893150987),
            (-0.6193693420833984, 1.058456542392452),
            (-0.6178038155447217, 0.9063538783142864),
            (-0.7699064796228872, 0.9047883517756098),
            (-0.766775426545534, 0.6005830236192788),
            (-0.31046743431103746, 0.6052796032353087),
            (-0.30733638123368423, 0.3010742750789777),
            (-0.7636443734681807, 0.29637769546294784),
            (-0.762078846929504, 0.14427503138478237),
            (-0.9141815110076695, 0.14270950484610573),
            (-0.912615984468993, -0.009393159232059755),
        ]));
    }

    /// Exact grid polygon: clipping makes vertices exactly straight.
    #[test]
    fn straight_vertices_are_dropped_from_the_ring() {
        check_areas(&pts(&[
            (0., 0.),
            (1., 0.),
            (1., -1.),
            (2., -1.),
            (2., 0.),
            (3., 0.),
            (3., 3.),
            (2., 3.),
            (2., 1.),
            (1., 1.),
            (1., 2.),
            (0., 2.),
        ]));
        let mut rng = Rng(3);
        for columns in 1..40 {
            check_areas(&random_histogram(&mut rng, columns));
        }
    }

    #[test]
    fn convex_input_is_one_unchanged_piece() {
        let square = SimplePolygon::new(&pts(&[(0., 0.), (1., 0.), (1., 1.), (0., 1.)])).unwrap();
        let pieces = convex_decomposition(&square);
        assert_eq!(pieces.len(), 1);
        assert_eq!(pieces[0].vertices(), square.vertices());
    }

    /// A 4,096-vertex comb (teeth along x, the worst case of a sweep over
    /// x extents) validates, and decomposes into convex pieces whose areas
    /// add up to its area.
    #[test]
    fn comb_at_the_concave_limit_validates_and_decomposes() {
        let teeth = (MAX_CONCAVE_VERTICES - 4) / 4;
        let mut ring = vec![Point::new(0.0, 0.0), Point::new(1.0, 0.0)];
        for k in 0..teeth {
            let y = k as f64;
            let length = 5.0 + (k % 7) as f64;
            ring.extend([
                Point::new(1.0, y + 0.2),
                Point::new(1.0 + length, y + 0.25),
                Point::new(1.0 + length, y + 0.7),
                Point::new(1.0, y + 0.8),
            ]);
        }
        ring.extend([Point::new(1.0, teeth as f64), Point::new(0.0, teeth as f64)]);
        assert_eq!(ring.len(), MAX_CONCAVE_VERTICES);
        let polygon = SimplePolygon::new(&ring).unwrap();
        assert!(!polygon.is_convex());
        assert_eq!(polygon.vertices().len(), MAX_CONCAVE_VERTICES);
        let pieces = convex_decomposition(&polygon);
        assert!(pieces.len() > teeth);
        for piece in &pieces {
            let v = piece.vertices();
            let m = v.len();
            assert!(m >= 3);
            for i in 0..m {
                let (a, b, c) = (v[(i + m - 1) % m], v[i], v[(i + 1) % m]);
                assert!(cross(&(b - a), &(c - b)) > 0.0, "{v:?}");
            }
        }
        let sum: f64 = pieces.iter().map(|p| twice_signed_area(p.vertices())).sum();
        let expected = 2.0 * polygon.area();
        assert!(
            (sum - expected).abs() <= 1e-9 * expected,
            "{sum} vs {expected}"
        );
    }
}
