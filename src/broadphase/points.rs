//! Points as obstacles (laser scans, point clouds, range readings): a
//! [`PointSet`] and its queries: the flag ([`PointSet::count_inside`]), the
//! report ([`PointSet::report`]), the markers' list ([`PointSet::inside`]),
//! the first contact along a motion ([`PointSet::first_impact`]), the time
//! by which `k` points are touched ([`PointSet::kth_impact`]), whether a
//! motion takes no point deeper ([`PointSet::escapes`]) and what lies near
//! a path ([`PointSet::near`]).
//!
//! A point is an obstacle of zero size: it collides when it lies in the
//! padded footprint (touching counts, under the tolerance policy of
//! [`geometry`](crate::geometry)), and its clearance is the exact distance
//! from the padded footprint to it: every answer is
//! [`point_contact`](crate::geometry::point_contact)'s for that point, or
//! [`point_time_of_impact`]'s.
//!
//! # How it stays fast
//!
//! The points live in two flat arrays (structure of arrays), with the box
//! of every block of [`BLOCK`] consecutive points. Every query first passes
//! over them with a box test: blocks whose box misses the query's box are
//! skipped whole (sensors give points in scan order, so most are), and in
//! the others groups of [`LANES`] points are tested without a branch (the
//! compiler turns the comparisons and their or-reduction into vector
//! instructions: 8 instructions a point on SSE2), and only a group with a
//! point inside is looked at point by point. Only the points inside the box go on: to
//! bounds from the footprint's faces (`PointProbe`, a few multiplications
//! per edge), and only when those cannot decide, to the exact
//! [`point_contact`](crate::geometry::point_contact). No query allocates
//! (but [`PointSet::near`], which keeps its list).
//!
//! # Why no pruning rule drops an answer
//!
//! Write `tol` for the set's tolerance: `length_tolerance` of the largest of
//! the padded footprint's box, the set's box and the padding (of the swept
//! box too for a motion). It is at least the tolerance of every single
//! point's query, whose own scale is the footprint's, the padding and that
//! one point's. `fp` is the footprint's box grown by the padding: it holds
//! the padded footprint (a disc of radius `padding` swept over a shape
//! inside the footprint's box stays inside that box grown by `padding`).
//!
//! 1. **A colliding point lies in `fp` grown by `2·tol`.** It collides when
//!    its computed clearance is at most its tolerance (`<= tol`); the
//!    computed clearance is the true one up to rounding (a few ulps of the
//!    coordinates, far below `tol`), and the true clearance is at least the
//!    distance from the point to `fp`. So the point is within `tol` plus
//!    rounding of `fp`, and the growth of `2·tol` also covers the rounding
//!    of the box's own corners. The flag, the count, the list and the
//!    report's inside pass only look inside that box.
//! 2. **Face bounds.** For a point in that box, `PointProbe::bounds` gives,
//!    per convex piece of the footprint, the largest separation of the
//!    point beyond the piece's edges, computed exactly as the pair test
//!    computes it. A separation `<= 0` puts the point in the piece's core:
//!    it collides (no exact test needed to count it). `lower`, the least of
//!    those separations minus the piece's radius and the padding, is a
//!    lower bound of the point's clearance and `-lower` an upper bound of
//!    its depth (see `PointProbe`): `lower > tol` proves it apart.
//! 3. **The deepest point** (the report): a point in a core whose depth
//!    bound `-lower` does not exceed the deepest depth found so far cannot
//!    replace it (a tie keeps the earlier point, and points are visited in
//!    index order): it is counted without its contact.
//! 4. **The nearest point** when none collides (the report): start from an
//!    exact clearance `best` (the nearest apart point met in the first
//!    pass, else the point whose box distance to `fp` is least). A point can
//!    only beat or tie it if its clearance is at most `best`, hence if its
//!    distance to `fp` is at most `best` plus rounding: only points in `fp`
//!    grown by `best + 2·tol` are visited; among them, a point whose box
//!    distance or face bound exceeds `best + tol` is skipped (its clearance
//!    is larger than `best`, so it can neither win nor tie). The rest get
//!    their exact contact, and the least `(clearance, index)` wins.
//! 5. **The first contact along a motion.** A point that the padded
//!    footprint touches lies in the box it sweeps
//!    ([`Motion::swept_aabb`], grown by `2·tol`). Every point of the padded
//!    footprint moves at most at `speed = |v| + |ω|·ρ`, with `ρ` the
//!    farthest a point of it can be from the body origin (the corners of
//!    the footprint's box plus the padding), so its distance to a fixed
//!    point shrinks at most at that rate: a point at distance `g` from the
//!    padded footprint's box at the start cannot be reached (within the
//!    tolerance, `<= 2·tol`) before `(g − 3·tol) / speed`. When that is
//!    later than the earliest contact found so far, the point cannot be
//!    touched earlier, nor at the same time: it is not tried. The others
//!    are tried only up to that earliest contact
//!    ([`point_time_of_impact`]'s `duration`): one that is not touched by
//!    then costs one closed form (a translation) or a few advancement
//!    steps. On a tie the point of lower index wins. The `k`-th contact
//!    ([`PointSet::kth_impact`]) is the same search with the latest of the
//!    `k` earliest contacts found so far in place of the earliest, once `k`
//!    are known (a point that cannot beat it could at best tie it, which
//!    leaves the `k`-th time unchanged).
//! 6. **A turning twist** (`ω != 0`) is a rotation about a fixed centre
//!    `C`, whose body coordinates `c = (−v_y/ω, v_x/ω)` do not change: a
//!    fixed point `p` stays, in the body frame, on the circle of radius
//!    `ρ = |p − C|` about `c`. Every point `x` of the padded footprint has
//!    `r_min <= |x − c| <= r_max` (`r_max`: the farthest vertex, or the
//!    circle's far side, plus the padding; `r_min`: the footprint's
//!    distance to `c` minus the padding), so the distance from `p` to it
//!    is at least `ρ − r_max` and at least `r_min − ρ`, at every time. A
//!    point with `ρ` outside `[r_min, r_max]` by more than `4·tol` (plus the
//!    rounding of these distances, `1e-14` of the coordinates involved) is
//!    never touched: it is not tried.

use super::boxes::box_distance;
use super::near::{GapWalk, Nearest};
use crate::geometry::{
    closed_form_scale, distance_to_point, length_tolerance, point_escapes, point_time_of_impact,
    Aabb, Contact, Impact, Motion, Point, PointProbe, Shape, MAX_COORDINATE,
};
use std::ops::{ControlFlow, Range};

/// Points per group of the box pass: one or-reduction each (8 beats 16 by
/// 4 % in instructions, and the byte-mask or bit-mask forms by half).
const LANES: usize = 8;

/// Points per block: each block keeps its box, and the box pass skips a
/// block whose box misses the region. Sensors give their points in scan
/// order (a laser by angle, a cloud by ring or row), so consecutive points
/// are close and most blocks are skipped whole; in any order the cost is
/// one box test per 64 points.
const BLOCK: usize = 64;

/// A set of points in one frame, kept as two arrays (structure of arrays:
/// the queries stream the coordinates) with their bounding box. Filling it
/// again after [`clear`](Self::clear) reuses the arrays: no allocation once
/// they have held as many points.
#[derive(Clone, Debug, Default)]
pub struct PointSet {
    xs: Vec<f64>,
    ys: Vec<f64>,
    /// The box of each block of [`BLOCK`] consecutive points (the last one
    /// possibly partial): `[min x, min y, max x, max y]`.
    blocks: Vec<[f64; 4]>,
    bounds: Bounds,
}

/// The box of the points, empty (inverted) while there is none.
#[derive(Clone, Copy, Debug)]
struct Bounds {
    min: Point,
    max: Point,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            min: Point::new(f64::INFINITY, f64::INFINITY),
            max: Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY),
        }
    }
}

/// What [`PointSet::report`] finds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointsReport {
    /// Points inside the padded footprint (touching counts).
    pub inside: usize,
    /// The deepest point inside and its contact (`Colliding`); on a tie,
    /// the first.
    pub deepest: Option<(usize, Contact)>,
    /// The point of least clearance and its contact (the deepest when some
    /// are inside; on a tie, the first); `None` when the set is empty.
    pub nearest: Option<(usize, Contact)>,
}

impl PointSet {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty set with room for `n` points.
    pub fn with_capacity(n: usize) -> Self {
        PointSet {
            xs: Vec::with_capacity(n),
            ys: Vec::with_capacity(n),
            blocks: Vec::with_capacity(n.div_ceil(BLOCK)),
            bounds: Bounds::default(),
        }
    }

    /// Removes every point (the arrays keep their capacity).
    pub fn clear(&mut self) {
        self.xs.clear();
        self.ys.clear();
        self.blocks.clear();
        self.bounds = Bounds::default();
    }

    /// Adds `p`; false (and not kept) for a point that is not finite or
    /// beyond [`MAX_COORDINATE`] in magnitude.
    pub fn push(&mut self, p: Point) -> bool {
        let usable = |v: f64| v.abs() <= MAX_COORDINATE; // false for NaN and inf
        if !(usable(p.x) && usable(p.y)) {
            return false;
        }
        match (self.xs.len() % BLOCK, self.blocks.last_mut()) {
            (1.., Some(block)) => {
                *block = [
                    block[0].min(p.x),
                    block[1].min(p.y),
                    block[2].max(p.x),
                    block[3].max(p.y),
                ];
            }
            _ => self.blocks.push([p.x, p.y, p.x, p.y]),
        }
        self.xs.push(p.x);
        self.ys.push(p.y);
        let b = &mut self.bounds;
        b.min = Point::new(b.min.x.min(p.x), b.min.y.min(p.y));
        b.max = Point::new(b.max.x.max(p.x), b.max.y.max(p.y));
        true
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.xs.len()
    }

    /// True when the set holds no point.
    pub fn is_empty(&self) -> bool {
        self.xs.is_empty()
    }

    /// Point `i` (`i < len()`).
    pub fn point(&self, i: usize) -> Point {
        Point::new(self.xs[i], self.ys[i])
    }

    /// The points' bounding box; `None` when empty.
    pub fn aabb(&self) -> Option<Aabb> {
        (!self.is_empty()).then_some(Aabb {
            min: self.bounds.min,
            max: self.bounds.max,
        })
    }

    /// Largest absolute coordinate of a point (tolerance scale); 0 when
    /// empty.
    fn magnitude(&self) -> f64 {
        self.aabb().map_or(0.0, |b| b.magnitude())
    }

    /// The set's tolerance for `footprint` inflated by `padding` (`>= 0`):
    /// at least every single point's (see the module documentation).
    fn tolerance(&self, fp: &Aabb, padding: f64) -> f64 {
        length_tolerance(fp.magnitude().max(self.magnitude()).max(padding))
    }

    /// The blocks whose box meets `region` (closed), with their ranges of
    /// points, in index order.
    #[inline]
    fn blocks_near(&self, region: &Aabb) -> impl Iterator<Item = Range<usize>> + '_ {
        let (x0, x1, y0, y1) = (region.min.x, region.max.x, region.min.y, region.max.y);
        let len = self.xs.len();
        self.blocks
            .iter()
            .enumerate()
            .filter(move |(_, b)| b[0] <= x1 && b[2] >= x0 && b[1] <= y1 && b[3] >= y0)
            .map(move |(k, _)| k * BLOCK..((k + 1) * BLOCK).min(len))
    }

    /// Calls `visit` with each point in the closed box `region` (and its
    /// index), in index order, until it breaks. Blocks whose box misses the
    /// region are skipped whole; in the others the test runs on groups of
    /// [`LANES`] points without a branch (an or-reduction, which the
    /// compiler vectorizes); only the points inside reach `visit`.
    #[inline]
    fn scan(
        &self,
        region: &Aabb,
        mut visit: impl FnMut(usize, Point) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let (x0, x1, y0, y1) = (region.min.x, region.max.x, region.min.y, region.max.y);
        for range in self.blocks_near(region) {
            let start = range.start;
            let xs = self.xs[range.clone()].chunks_exact(LANES);
            let ys = self.ys[range].chunks_exact(LANES);
            let (rest_x, rest_y) = (xs.remainder(), ys.remainder());
            for (group, (gx, gy)) in xs.zip(ys).enumerate() {
                let inside =
                    |k: usize| (gx[k] >= x0) & (gx[k] <= x1) & (gy[k] >= y0) & (gy[k] <= y1);
                // An or-reduction without a branch (vector comparisons),
                // then the few groups with a point inside lane by lane.
                let mut any = 0u64;
                for k in 0..LANES {
                    any |= u64::from(inside(k));
                }
                if any == 0 {
                    continue;
                }
                for k in 0..LANES {
                    if inside(k) {
                        visit(start + group * LANES + k, Point::new(gx[k], gy[k]))?;
                    }
                }
            }
            let base = start + (BLOCK.min(self.xs.len() - start) - rest_x.len());
            for (k, (&x, &y)) in rest_x.iter().zip(rest_y).enumerate() {
                if x >= x0 && x <= x1 && y >= y0 && y <= y1 {
                    visit(base + k, Point::new(x, y))?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// The first point whose box distance to `region` is least (`None` when
    /// empty). A block whose own box is not nearer than the least so far
    /// cannot hold a nearer point (nor an earlier one at the same
    /// distance: blocks come in index order), and is skipped whole; in the
    /// others a minimum per lane (no dependency between lanes, so the
    /// compiler vectorizes it) tells whether the block improves on it,
    /// and only then is the block walked for its first point at its
    /// minimum.
    fn nearest_to_box(&self, region: &Aabb) -> Option<usize> {
        let (x0, x1, y0, y1) = (region.min.x, region.max.x, region.min.y, region.max.y);
        // Squared distance from the box [lo, hi] to `region`, in selects
        // (max/min instructions); coordinates are at most MAX_COORDINATE,
        // so the squares stay finite (infinite padding: a gap of 0).
        let squared = |lo_x: f64, lo_y: f64, hi_x: f64, hi_y: f64| {
            let larger = |a: f64, b: f64| if a > b { a } else { b };
            let dx = larger(larger(x0 - hi_x, lo_x - x1), 0.0);
            let dy = larger(larger(y0 - hi_y, lo_y - y1), 0.0);
            dx * dx + dy * dy
        };
        let mut best = (f64::INFINITY, None);
        for (k, b) in self.blocks.iter().enumerate() {
            if best.1.is_some() && squared(b[0], b[1], b[2], b[3]) >= best.0 {
                continue;
            }
            let range = k * BLOCK..((k + 1) * BLOCK).min(self.xs.len());
            let (xs, ys) = (&self.xs[range.clone()], &self.ys[range.clone()]);
            let mut lanes = [f64::INFINITY; LANES];
            let groups = xs.chunks_exact(LANES).zip(ys.chunks_exact(LANES));
            for (gx, gy) in groups {
                for k in 0..LANES {
                    let s = squared(gx[k], gy[k], gx[k], gy[k]);
                    lanes[k] = if s < lanes[k] { s } else { lanes[k] };
                }
            }
            let tail = xs.len() - xs.len() % LANES;
            for (&x, &y) in xs[tail..].iter().zip(&ys[tail..]) {
                let s = squared(x, y, x, y);
                lanes[0] = if s < lanes[0] { s } else { lanes[0] };
            }
            let least = lanes
                .iter()
                .fold(f64::INFINITY, |m, &s| if s < m { s } else { m });
            if best.1.is_some() && least >= best.0 {
                continue;
            }
            let first = xs
                .iter()
                .zip(ys)
                .position(|(&x, &y)| squared(x, y, x, y) == least);
            best = (least, first.map(|i| range.start + i).or(best.1));
        }
        best.1
    }

    /// Points in the padded footprint (touching counts), counting stops at
    /// `enough` (the flag asks `enough = min_points`; 0 counts nothing).
    /// Only points in the padded footprint's box (grown by twice the
    /// tolerance) are looked at (rule 1 of the module documentation); most
    /// of them are settled by the face bounds (rule 2).
    pub fn count_inside(&self, footprint: &Shape, padding: f64, enough: usize) -> usize {
        if enough == 0 {
            return 0;
        }
        let probe = PointProbe::new(footprint, padding);
        let fp = footprint.aabb().inflated(probe.padding());
        let tol = self.tolerance(&fp, probe.padding());
        let mut count = 0;
        let _ = self.scan(&fp.inflated(2.0 * tol), |_, p| {
            if probe.collides(&p) {
                count += 1;
                if count >= enough {
                    return ControlFlow::Break(());
                }
            }
            ControlFlow::Continue(())
        });
        count
    }

    /// The indices of the points inside the padded footprint (for
    /// markers), ascending, appended to `out` (no allocation when `out`
    /// has room).
    pub fn inside(&self, footprint: &Shape, padding: f64, out: &mut Vec<usize>) {
        let probe = PointProbe::new(footprint, padding);
        let fp = footprint.aabb().inflated(probe.padding());
        let tol = self.tolerance(&fp, probe.padding());
        let _ = self.scan(&fp.inflated(2.0 * tol), |i, p| {
            if probe.collides(&p) {
                out.push(i);
            }
            ControlFlow::Continue(())
        });
    }

    /// The points inside the padded footprint, the deepest, and the
    /// nearest (see [`PointsReport`]): exact, with the pruning rules 1 to 4
    /// of the module documentation.
    pub fn report(&self, footprint: &Shape, padding: f64) -> PointsReport {
        let mut report = PointsReport {
            inside: 0,
            deepest: None,
            nearest: None,
        };
        let probe = PointProbe::new(footprint, padding);
        let fp = footprint.aabb().inflated(probe.padding());
        let tol = self.tolerance(&fp, probe.padding());

        // Pass 1: the points that may collide (rule 1); the nearest apart
        // one among those measured exactly.
        let mut deepest: Option<(usize, Contact)> = None;
        let mut nearest: Option<(usize, Contact)> = None;
        let _ = self.scan(&fp.inflated(2.0 * tol), |i, p| {
            let bounds = probe.bounds(&p);
            if !bounds.inside_core && bounds.lower > probe.tolerance(&p) {
                return ControlFlow::Continue(()); // Apart (rule 2).
            }
            let may_win = deepest.is_none_or(|(_, d)| -bounds.lower > d.depth());
            if bounds.inside_core && !may_win {
                report.inside += 1; // Inside, not deeper (rule 3).
                return ControlFlow::Continue(());
            }
            let contact = probe.contact(&p);
            if contact.colliding() {
                report.inside += 1;
                if deepest.is_none_or(|(_, d)| contact.depth() > d.depth()) {
                    deepest = Some((i, contact));
                }
            } else if nearest.is_none_or(|(_, n)| contact.distance() < n.distance()) {
                nearest = Some((i, contact));
            }
            ControlFlow::Continue(())
        });
        if deepest.is_some() {
            report.deepest = deepest;
            report.nearest = deepest;
            return report;
        }

        // Pass 2, nothing inside: the least clearance (rule 4).
        let seed = match nearest {
            Some(seed) => seed,
            None => match self.nearest_to_box(&fp) {
                Some(i) => (i, probe.contact(&self.point(i))),
                None => return report, // Empty.
            },
        };
        let mut best = seed;
        let region = fp.inflated(best.1.distance() + 2.0 * tol);
        let _ = self.scan(&region, |i, p| {
            let limit = best.1.distance() + tol;
            let gaps = fp.gaps(&Aabb { min: p, max: p });
            if i == best.0 || box_distance(gaps.x, gaps.y) > limit {
                return ControlFlow::Continue(());
            }
            if probe.bounds(&p).lower > limit {
                return ControlFlow::Continue(());
            }
            let contact = probe.contact(&p);
            let (d, b) = (contact.distance(), best.1.distance());
            if d < b || (d == b && i < best.0) {
                best = (i, contact);
            }
            ControlFlow::Continue(())
        });
        report.nearest = Some(best);
        report
    }

    /// The first contact of `footprint` (body frame) moved by `motion` over
    /// `[0, duration]`, inflated by `padding`, with any point: the point
    /// and its [`Impact`] (on a tie, the point of lower index). Only points
    /// in the swept box are tried, each only up to the earliest contact
    /// found so far, and not at all when it cannot be reached before it
    /// (rule 5 of the module documentation). A motion or a duration that is
    /// not finite: the fail-safe answer of [`point_time_of_impact`] (time
    /// 0, not exact) with the first point.
    pub fn first_impact(
        &self,
        footprint: &Shape,
        motion: &Motion,
        duration: f64,
        padding: f64,
    ) -> Option<(usize, Impact)> {
        if self.is_empty() {
            return None;
        }
        if !(motion.is_finite() && duration.is_finite()) {
            return point_time_of_impact(footprint, motion, self.point(0), duration, padding)
                .map(|impact| (0, impact));
        }
        let sweep = PointSweep::new(self.magnitude(), footprint, motion, duration, padding, None);
        let mut best = None;
        let _ = self.scan(&sweep.swept, |i, p| {
            sweep.earlier(&mut best, i, p, duration);
            ControlFlow::Continue(())
        });
        best
    }

    /// The `k`-th smallest first-contact time of `footprint` (body frame)
    /// moved by `motion` over `[0, duration]`, inflated by `padding`, over
    /// all points: the earliest time by which `k` distinct points have been
    /// touched (a point inside or touching at the start counts at time 0),
    /// each point's time being [`point_time_of_impact`]'s. `None` when
    /// fewer than `k` points are touched within `[0, duration]`; `k = 1` is
    /// [`first_impact`](Self::first_impact)'s time.
    ///
    /// Points may leave the footprint again, so `k` points need not be
    /// inside *at once* at that time: it is a lower bound of the first time
    /// `k` points are inside together (at that time each of them has
    /// entered), the safe side for a gate that stops on `min_points`. With
    /// rotation each point's time is itself a lower bound (never later than
    /// its contact), so the answer stays one.
    ///
    /// Pruned like `first_impact` (rules 5 and 6 of the module
    /// documentation): only points in the swept box are tried, and once `k`
    /// contacts are known, a point is tried only up to the `k`-th of them
    /// and not at all when it cannot be reached before it (it could only
    /// tie, which leaves the `k`-th time as it is). `k = 0`: `Some(0.0)`
    /// (no point is needed). A motion or a duration that is not finite: the
    /// fail-safe answer `Some(0.0)` when the set is not empty. Allocates a
    /// buffer of `min(k, len())` times per call, nothing per point.
    pub fn kth_impact(
        &self,
        footprint: &Shape,
        motion: &Motion,
        duration: f64,
        padding: f64,
        k: usize,
    ) -> Option<f64> {
        if k == 0 {
            return Some(0.0);
        }
        if self.is_empty() {
            return None;
        }
        if !(motion.is_finite() && duration.is_finite()) {
            return Some(0.0);
        }
        if k > self.len() {
            return None;
        }
        let mut times = Vec::with_capacity(k);
        self.first_impacts(footprint, motion, duration, padding, k, &mut times);
        times.get(k - 1).copied()
    }

    /// The `k` earliest first-contact times (fewer when fewer points are
    /// touched within `[0, duration]`), ascending, appended to `out`: what
    /// [`kth_impact`](Self::kth_impact) takes the last of, and what several
    /// sets' `k`-th time together is merged from. Pruned the same way. A
    /// motion or a duration that is not finite: `k` times 0 (the fail-safe
    /// answer) when the set is not empty.
    pub fn first_impacts(
        &self,
        footprint: &Shape,
        motion: &Motion,
        duration: f64,
        padding: f64,
        k: usize,
        out: &mut Vec<f64>,
    ) {
        if k == 0 || self.is_empty() {
            return;
        }
        if !(motion.is_finite() && duration.is_finite()) {
            out.extend(std::iter::repeat_n(0.0, k));
            return;
        }
        let k = k.min(self.len());
        let sweep = PointSweep::new(self.magnitude(), footprint, motion, duration, padding, None);
        // The k earliest contacts so far, ascending, in `out[first..]`
        // (no other buffer: `kth_impact` allocates this one only).
        let first = out.len();
        out.reserve(k);
        let _ = self.scan(&sweep.swept, |_, p| {
            let full = out.len() - first == k;
            let horizon = if full { out[out.len() - 1] } else { duration };
            if let Some(impact) = sweep.impact_before(p, horizon, full) {
                let t = impact.time;
                if !full || t < horizon {
                    if full {
                        out.pop();
                    }
                    let at = first + out[first..].partition_point(|&u| u <= t);
                    out.insert(at, t);
                }
            }
            // k points at time 0: nothing can come earlier.
            match out.len() - first == k && out[out.len() - 1] <= 0.0 {
                true => ControlFlow::Break(()),
                false => ControlFlow::Continue(()),
            }
        });
    }

    /// True when `zone` (body frame) moved by `motion` over `[0, duration]`
    /// takes no point deeper into it: no point outside the zone at `t = 0`
    /// is touched within the interval, and every point inside or touching
    /// passes [`point_escapes`] (its depth never exceeds its value at
    /// `t = 0`; a sufficient condition, see there). `point_escapes` is
    /// asked only of the points in the swept box whose circle about a
    /// turning twist's centre meets the zone's annulus: the others are
    /// never touched (rules 5 and 6 of the module documentation), which
    /// `point_escapes` itself may fail to prove when its time of impact
    /// stops at the advancement's step cap (a grazing turn: a contact that
    /// is not exact, read as a contact). Stops at the first point that
    /// fails. An empty set: true. A motion or a duration that is not
    /// finite: false. No allocation.
    pub fn escapes(&self, zone: &Shape, motion: &Motion, duration: f64) -> bool {
        if !(motion.is_finite() && duration.is_finite()) {
            return false;
        }
        if self.is_empty() {
            return true;
        }
        let sweep = PointSweep::new(self.magnitude(), zone, motion, duration, 0.0, None);
        self.scan(&sweep.swept, |_, p| {
            match sweep.never_touched(p) || point_escapes(zone, motion, p, duration) {
                true => ControlFlow::Continue(()),
                false => ControlFlow::Break(()),
            }
        })
        .is_continue()
    }

    /// The points near `region` (a path's swept box), for the per-pose
    /// clearances ([`NearPoints::nearest`]) and the per-segment first
    /// contacts ([`NearPoints::first_impact`]) of footprints and motions
    /// inside it, as [`Span::near`](super::Span::near) for obstacles: each
    /// point with its distance to the region, walked nearest first. Builds
    /// its list (one allocation); the queries on it do not allocate.
    pub fn near(&self, region: &Aabb) -> NearPoints<'_> {
        let near = self
            .xs
            .iter()
            .zip(&self.ys)
            .enumerate()
            .map(|(i, (&x, &y))| {
                let p = Point::new(x, y);
                let gaps = region.gaps(&Aabb { min: p, max: p });
                (box_distance(gaps.x, gaps.y), i)
            })
            .collect();
        NearPoints {
            set: self,
            near: GapWalk::new(near),
            magnitude: self.magnitude().max(region.magnitude()),
        }
    }
}

/// The points of a [`PointSet`] near a region (see [`PointSet::near`]),
/// walked nearest first: each query stops at the first point farther from
/// the region than what it needs.
#[derive(Clone, Debug)]
pub struct NearPoints<'a> {
    set: &'a PointSet,
    near: GapWalk,
    /// Tolerance scale of the set and the region.
    magnitude: f64,
}

impl NearPoints<'_> {
    /// Number of points it holds (every point of the set).
    pub fn len(&self) -> usize {
        self.near.len()
    }

    /// True when it holds no point.
    pub fn is_empty(&self) -> bool {
        self.near.is_empty()
    }

    /// The exact clearance from a `footprint` inside the region (inflated
    /// by `padding`) to the nearest point (see [`Nearest`]; on a tie, the
    /// point of lower index; when colliding, the first colliding point
    /// met). The footprint's box is inside the region, so no point is
    /// nearer to it than to the region: the walk stops at the first point
    /// whose gap to the region exceeds the best clearance so far (plus the
    /// tolerance), or at a collision; a point whose box distance or face
    /// bound exceeds it is skipped (rules 2 and 4 of the module
    /// documentation).
    pub fn nearest(&mut self, footprint: &Shape, padding: f64) -> Nearest {
        let mut best = Nearest {
            distance: f64::INFINITY,
            index: None,
            colliding: false,
        };
        let probe = PointProbe::new(footprint, padding);
        let padding = probe.padding();
        let fp = footprint.aabb().inflated(padding);
        let tol = length_tolerance(fp.magnitude().max(self.magnitude).max(padding));
        let set = self.set;
        self.near.walk(|region_gap, i| {
            if region_gap - tol > best.distance {
                return ControlFlow::Break(());
            }
            let p = set.point(i);
            let gaps = fp.gaps(&Aabb { min: p, max: p });
            if box_distance(gaps.x, gaps.y) - tol > best.distance {
                return ControlFlow::Continue(());
            }
            let bounds = probe.bounds(&p);
            let contact = match bounds.inside_core {
                true => None, // Colliding (rule 2): no contact needed.
                false if bounds.lower - tol > best.distance => return ControlFlow::Continue(()),
                false => Some(probe.contact(&p)),
            };
            if contact.is_none_or(|c| c.colliding()) {
                best = Nearest {
                    distance: 0.0,
                    index: Some(i),
                    colliding: true,
                };
                return ControlFlow::Break(());
            }
            let d = contact.map_or(0.0, |c| c.distance());
            if d < best.distance || (d == best.distance && best.index.is_none_or(|j| i < j)) {
                best = Nearest {
                    distance: d,
                    index: Some(i),
                    colliding: false,
                };
            }
            ControlFlow::Continue(())
        });
        best
    }

    /// [`PointSet::first_impact`] for a motion whose swept box is inside
    /// the region (the same answer: on a tie, the point of lower index):
    /// only points within twice the tolerance of the region are tried.
    /// `swept`: the motion's swept box (`motion.swept_aabb(footprint,
    /// padding, duration)`, or any box holding it) when the caller has it
    /// already; `None`: computed here.
    pub fn first_impact(
        &mut self,
        footprint: &Shape,
        motion: &Motion,
        duration: f64,
        padding: f64,
        swept: Option<&Aabb>,
    ) -> Option<(usize, Impact)> {
        let set = self.set;
        let mut best = None;
        if !(motion.is_finite() && duration.is_finite()) {
            // Fail safe, with the first point of the walk.
            self.near.walk(|_, i| {
                best = point_time_of_impact(footprint, motion, set.point(i), duration, padding)
                    .map(|impact| (i, impact));
                ControlFlow::Break(())
            });
            return best;
        }
        let sweep = PointSweep::new(self.magnitude, footprint, motion, duration, padding, swept);
        let reach = 2.0 * sweep.tol;
        self.near.walk(|region_gap, i| {
            if region_gap > reach {
                return ControlFlow::Break(());
            }
            let p = set.point(i);
            if sweep.swept.intersects(&Aabb { min: p, max: p }) {
                sweep.earlier(&mut best, i, p, duration);
            }
            ControlFlow::Continue(())
        });
        best
    }
}

/// One search for the first contact along a motion (rule 5 of the module
/// documentation): the swept box and the speed bound each point's turn
/// needs.
struct PointSweep<'s> {
    footprint: &'s Shape,
    motion: &'s Motion,
    padding: f64,
    /// The box the padded footprint sweeps, grown by `2·tol`.
    swept: Aabb,
    /// The padded footprint's box at the start.
    start: Aabb,
    /// Fastest a point of the padded footprint moves (m/s).
    speed: f64,
    /// A twist that turns: its fixed centre (fixed frame) and the range of
    /// distances from it of the padded footprint's points (grown by the
    /// margin of rule 6).
    about: Option<(Point, f64, f64)>,
    /// At least the tolerance of every point's time of impact.
    tol: f64,
}

impl<'s> PointSweep<'s> {
    /// For a finite motion and duration; `swept`: the swept box when the
    /// caller has it (or any box holding it), else computed.
    fn new(
        magnitude: f64,
        footprint: &'s Shape,
        motion: &'s Motion,
        duration: f64,
        padding: f64,
        swept: Option<&Aabb>,
    ) -> Self {
        let padding = if padding > 0.0 { padding } else { 0.0 };
        let swept = match swept {
            Some(swept) => *swept,
            None => motion.swept_aabb(footprint, padding, duration),
        };
        let start = motion.swept_aabb(footprint, padding, 0.0);
        // The farthest a point of the padded footprint is from the body
        // origin: a corner of the footprint's box, plus the padding.
        let body = footprint.aabb();
        let radius = body.min.coords.abs().sup(&body.max.coords.abs()).norm() + padding;
        let speed = motion.speed() + motion.angular().abs() * radius;
        // The scale of `point_time_of_impact`'s closed form (the origin at
        // both ends plus that radius) is covered too.
        let o0 = motion.start().translation.vector;
        let o1 = motion.pose_at(duration.max(0.0)).translation.vector;
        let reach = o0.amax().max(o1.amax()) + radius;
        let scale = swept.magnitude().max(magnitude).max(padding).max(reach);
        // And that of its closed form for a turning twist (a bound of the
        // swept box's), for any point of the set.
        let scale = closed_form_scale(footprint, motion, duration.max(0.0), padding, magnitude)
            .map_or(scale, |s| scale.max(s));
        let tol = length_tolerance(scale);
        let about = match *motion {
            Motion::Twist {
                start,
                velocity,
                angular,
            } if angular != 0.0 => {
                // The centre in the body frame, and how far from it the
                // padded footprint reaches (its vertices, or the circle's
                // far side) and begins (its distance, minus the padding).
                let centre = Point::new(-velocity.y / angular, velocity.x / angular);
                let far = |p: &Point| (p - centre).norm();
                let farthest = match footprint {
                    Shape::Convex(p) => p.vertices().iter().map(far).fold(0.0, f64::max),
                    Shape::Compound(c) => c.outline().iter().map(far).fold(0.0, f64::max),
                    Shape::Circle(c) => far(&c.center()) + c.radius(),
                };
                let nearest = distance_to_point(footprint, centre);
                let world = start * centre;
                // Rounding of these distances and of the point's own: a
                // few ulps of the coordinates involved.
                let margin = 4.0 * tol + 1e-14 * (world.coords.amax() + farthest + scale);
                Some((
                    world,
                    nearest - padding - margin,
                    farthest + padding + margin,
                ))
            }
            _ => None,
        };
        PointSweep {
            footprint,
            motion,
            padding,
            swept: swept.inflated(2.0 * tol),
            start,
            speed,
            about,
            tol,
        }
    }

    /// The point's circle about the twist's centre misses the padded
    /// footprint's annulus: it is never touched (rule 6).
    #[inline]
    fn never_touched(&self, p: Point) -> bool {
        self.about.is_some_and(|(centre, inner, outer)| {
            let radius = (p - centre).norm();
            radius < inner || radius > outer
        })
    }

    /// The first contact of `p` (inside the swept box) up to `horizon`,
    /// unless it is never touched or, when `bounded` (`horizon` is a
    /// contact already found), its distance at the start proves it cannot
    /// be reached before `horizon` (rules 5 and 6).
    #[inline]
    fn impact_before(&self, p: Point, horizon: f64, bounded: bool) -> Option<Impact> {
        if self.never_touched(p) {
            return None;
        }
        if bounded {
            let gaps = self.start.gaps(&Aabb { min: p, max: p });
            let gap = box_distance(gaps.x, gaps.y) - 3.0 * self.tol;
            // Not reachable before `gap / speed` (also when `speed` is 0).
            if gap > self.speed * horizon {
                return None;
            }
        }
        point_time_of_impact(self.footprint, self.motion, p, horizon, self.padding)
    }

    /// Point `i`'s turn (`p` inside the swept box): tried up to the
    /// earliest contact so far (else `duration`) unless its distance at the
    /// start proves it cannot be reached before that; it becomes `best`
    /// when touched earlier, or at the same time with a lower index.
    #[inline]
    fn earlier(&self, best: &mut Option<(usize, Impact)>, i: usize, p: Point, duration: f64) {
        let horizon = best.map_or(duration, |(_, b)| b.time);
        let Some(impact) = self.impact_before(p, horizon, best.is_some()) else {
            return;
        };
        let earlier =
            best.is_none_or(|(j, b)| impact.time < b.time || (impact.time == b.time && i < j));
        if earlier {
            *best = Some((i, impact));
        }
    }
}

#[cfg(test)]
mod tests;
