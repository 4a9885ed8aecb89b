//! A uniform grid over the obstacles' boxes: the obstacles whose box a
//! footprint's box meets, without a pass over all of them. What a single
//! pose's questions ask (`Index::collides`, the nearest and the deepest
//! obstacle of `Index::check`).
//!
//! Each obstacle is listed, with its box, in every cell its box covers,
//! and visited once per query: in the first cell (along x and along y) that
//! both its box and the query's box cover.
//! An obstacle covering more than [`BIG`] cells is kept aside and tried by
//! its box on every query.

use sat_collision::geometry::{Aabb, Point};
use std::ops::ControlFlow;

/// Most cells an obstacle is listed in; a larger one is tried on every
/// query.
const BIG: usize = 64;

/// Most cells along one side.
const MAX_SIDE: usize = 1024;

/// An obstacle as a cell lists it.
#[derive(Clone, Copy, Debug)]
struct Item {
    aabb: Aabb,
    /// Its position in the index.
    index: u32,
    /// The first cell its box covers, along x and along y.
    first: [u16; 2],
}

/// The grid: cells in rows, each a run of `items`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Grid {
    /// The box of every obstacle's box.
    bounds: Option<Aabb>,
    /// The side of a cell (m), the smaller one.
    side: f64,
    origin: Point,
    /// Cells per metre along x and y.
    scale: [f64; 2],
    /// Cells along x and y.
    size: [usize; 2],
    /// Cell `c`'s obstacles are `items[starts[c]..starts[c + 1]]`.
    starts: Vec<u32>,
    items: Vec<Item>,
    /// Obstacles listed in no cell (too large): tried on every query.
    big: Vec<u32>,
}

impl Grid {
    /// The grid over `boxes` (finite): at most four cells per obstacle, a cell
    /// no smaller than the median box.
    pub(crate) fn new(boxes: &[Aabb]) -> Grid {
        let Some(bounds) = boxes.iter().copied().reduce(|a, b| a.union(&b)) else {
            return Grid::default();
        };
        let mut sides: Vec<f64> = boxes
            .iter()
            .map(|b| (b.max.x - b.min.x).max(b.max.y - b.min.y))
            .collect();
        let middle = sides.len() / 2;
        let (_, median, _) = sides.select_nth_unstable_by(middle, f64::total_cmp);
        let (w, h) = (bounds.max.x - bounds.min.x, bounds.max.y - bounds.min.y);
        let per_obstacle =
            (w.max(f64::MIN_POSITIVE) * h.max(f64::MIN_POSITIVE) / boxes.len() as f64).sqrt();
        let cell = median.max(per_obstacle * 0.5);
        let cells = |extent: f64| -> usize {
            if cell > 0.0 && (extent / cell).is_finite() {
                ((extent / cell).ceil() as usize).clamp(1, MAX_SIDE)
            } else {
                1
            }
        };
        let size = [cells(w), cells(h)];
        let per_metre = |n: usize, extent: f64| -> f64 {
            if extent > 0.0 && (n as f64 / extent).is_finite() {
                n as f64 / extent
            } else {
                0.0
            }
        };
        let mut grid = Grid {
            bounds: Some(bounds),
            side: if cell > 0.0 && cell.is_finite() {
                cell
            } else {
                1.0
            },
            origin: bounds.min,
            scale: [per_metre(size[0], w), per_metre(size[1], h)],
            size,
            starts: vec![0; size[0] * size[1] + 1],
            items: Vec::new(),
            big: Vec::new(),
        };
        // Count, then fill (cells in rows).
        let mut listed = vec![false; boxes.len()];
        for (i, b) in boxes.iter().enumerate() {
            let ([x0, y0], [x1, y1]) = (grid.cell(&b.min), grid.cell(&b.max));
            if (x1 - x0 + 1) * (y1 - y0 + 1) > BIG {
                grid.big.push(i as u32);
                continue;
            }
            listed[i] = true;
            for y in y0..=y1 {
                for x in x0..=x1 {
                    grid.starts[y * size[0] + x + 1] += 1;
                }
            }
        }
        for c in 1..grid.starts.len() {
            grid.starts[c] += grid.starts[c - 1];
        }
        let mut next = grid.starts.clone();
        let none = Item {
            aabb: bounds,
            index: 0,
            first: [0, 0],
        };
        grid.items = vec![none; grid.starts.last().copied().unwrap_or(0) as usize];
        for (i, b) in boxes.iter().enumerate() {
            if !listed[i] {
                continue;
            }
            let ([x0, y0], [x1, y1]) = (grid.cell(&b.min), grid.cell(&b.max));
            let item = Item {
                aabb: *b,
                index: i as u32,
                // Below MAX_SIDE.
                first: [x0 as u16, y0 as u16],
            };
            for y in y0..=y1 {
                for x in x0..=x1 {
                    let slot = &mut next[y * size[0] + x];
                    grid.items[*slot as usize] = item;
                    *slot += 1;
                }
            }
        }
        grid
    }

    /// The box of every obstacle's box; none without obstacles.
    pub(crate) fn bounds(&self) -> Option<Aabb> {
        self.bounds
    }

    /// The side of a cell (m).
    pub(crate) fn side(&self) -> f64 {
        self.side
    }

    /// The cell holding `p`, clamped to the grid.
    #[inline]
    fn cell(&self, p: &Point) -> [usize; 2] {
        // `as` saturates (and NaN is 0): a point off the grid falls in a
        // border cell.
        let x = ((p.x - self.origin.x) * self.scale[0]) as usize;
        let y = ((p.y - self.origin.y) * self.scale[1]) as usize;
        [
            x.min(self.size[0].saturating_sub(1)),
            y.min(self.size[1].saturating_sub(1)),
        ]
    }

    /// Calls `visit` once with each obstacle whose box (`boxes`, as built)
    /// meets `reach`, until it breaks.
    pub(crate) fn each(
        &self,
        reach: &Aabb,
        boxes: &[Aabb],
        mut visit: impl FnMut(usize) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        for &i in &self.big {
            if reach.intersects(&boxes[i as usize]) {
                visit(i as usize)?;
            }
        }
        if !self.bounds.is_some_and(|b| b.intersects(reach)) {
            return ControlFlow::Continue(());
        }
        let ([x0, y0], [x1, y1]) = (self.cell(&reach.min), self.cell(&reach.max));
        for y in y0..=y1 {
            for x in x0..=x1 {
                let c = y * self.size[0] + x;
                let (start, end) = (self.starts[c] as usize, self.starts[c + 1] as usize);
                for item in &self.items[start..end] {
                    // Visited in the first cell both boxes cover only.
                    let first = [
                        usize::from(item.first[0]).max(x0),
                        usize::from(item.first[1]).max(y0),
                    ];
                    if first == [x, y] && reach.intersects(&item.aabb) {
                        visit(item.index as usize)?;
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }
}
