//! The set and its arrays: [`PointSet`]'s coordinates and block boxes,
//! filled in place, and the box pass every query of the
//! [module documentation](super) runs first (`scan`, `nearest_to_box`).

use crate::geometry::{length_tolerance, Aabb, Point, MAX_COORDINATE};
use std::ops::{ControlFlow, Range};

/// Points per group of the box pass: one or-reduction each (8 beats 16 by
/// 4 % in instructions, and the byte-mask or bit-mask forms by half).
pub(super) const LANES: usize = 8;

/// Points per block: each block keeps its box, and the box pass skips a
/// block whose box misses the region. Sensors give their points in scan
/// order (a laser by angle, a cloud by ring or row), so consecutive points
/// are close and most blocks are skipped whole; in any order the cost is
/// one box test per 64 points.
pub(super) const BLOCK: usize = 64;

/// A set of points in one frame, kept as two arrays (structure of arrays:
/// the queries stream the coordinates) with their bounding box. Filling it
/// again after [`clear`](Self::clear) reuses the arrays: no allocation once
/// they have held as many points.
#[derive(Clone, Debug, Default)]
pub struct PointSet {
    pub(super) xs: Vec<f64>,
    pub(super) ys: Vec<f64>,
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
    pub(super) fn magnitude(&self) -> f64 {
        self.aabb().map_or(0.0, |b| b.magnitude())
    }

    /// The set's tolerance for `footprint` inflated by `padding` (`>= 0`):
    /// at least every single point's (see the module documentation).
    pub(super) fn tolerance(&self, fp: &Aabb, padding: f64) -> f64 {
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
    pub(super) fn scan(
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
    pub(super) fn nearest_to_box(&self, region: &Aabb) -> Option<usize> {
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
}
