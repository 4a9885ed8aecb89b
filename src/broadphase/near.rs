//! What lies near a region (a path's swept box, a trajectory's poses):
//! built once, it answers every pose's clearance and every segment's first
//! contact inside the region.

use super::impact::Sweep;
use super::index::{ObstacleIndex, Span};
use crate::geometry::{length_tolerance, query, Aabb, Impact, Motion, Shape};
use std::cmp::Ordering;
use std::ops::ControlFlow;

/// Shortest clearance found by [`Near::nearest`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Nearest {
    /// Exact clearance (m) from the padded footprint to the nearest valid
    /// obstacle; 0 when one touches or overlaps it; infinite when there is
    /// none.
    pub distance: f64,
    /// That obstacle, by its position in the index (the first colliding
    /// one found when colliding).
    pub index: Option<usize>,
    /// It touches or overlaps the padded footprint (touching counts).
    pub colliding: bool,
}

/// The valid obstacles of a span near a region, each with the gap between
/// its box and the region (a lower bound of its distance to anything inside
/// the region), walked nearest first (ties: the earlier obstacle first).
/// A query walks them in that order and stops at the first gap beyond what
/// it needs, instead of passing over every box again.
///
/// Sorted lazily: only as far as the queries have walked (the first 32,
/// then doubling), so a region asked about once costs one pass to measure
/// the gaps and a partial selection, not a sort of every obstacle.
#[derive(Clone, Debug)]
pub struct Near<'a> {
    index: &'a ObstacleIndex,
    near: GapWalk,
    /// Tolerance scale of the span and the region.
    magnitude: f64,
}

/// Items (an obstacle, a point) by their gap to a region, walked nearest
/// first (ties: the earlier position first), sorted lazily: only as far as
/// the walks go (the first 32, then doubling). What [`Near`] and
/// [`NearPoints`](super::NearPoints) walk.
#[derive(Clone, Debug, Default)]
pub(super) struct GapWalk {
    /// (gap to the region, position): ascending by [`by_gap`] up to
    /// `sorted`; none after it comes before any of those.
    near: Vec<(f64, usize)>,
    sorted: usize,
}

/// The first sorted stretch of a [`GapWalk`]; each next one doubles it.
const FIRST_SORTED: usize = 32;

/// The walk's order: by gap, then by position (a total order, so the walk
/// does not depend on how far it was sorted).
fn by_gap(a: &(f64, usize), b: &(f64, usize)) -> Ordering {
    a.0.total_cmp(&b.0).then(a.1.cmp(&b.1))
}

impl<'a> Span<'a> {
    /// The span's valid obstacles near `region` (see [`Near`]): for
    /// footprints inside it ([`Near::nearest`]) and motions whose swept box
    /// is inside it ([`Near::first_impact`]).
    pub fn near(&self, region: &Aabb) -> Near<'a> {
        let index = self.index;
        let near = (self.start..self.end)
            .filter(|&i| index.obstacles[i].shape.is_ok())
            .map(|i| (region.distance(&index.boxes.aabb(i)), i))
            .collect();
        Near {
            index,
            near: GapWalk::new(near),
            magnitude: self.magnitude.max(region.magnitude()),
        }
    }
}

impl<'a> Near<'a> {
    /// Number of valid obstacles it holds.
    pub fn len(&self) -> usize {
        self.near.len()
    }

    /// True when it holds no obstacle.
    pub fn is_empty(&self) -> bool {
        self.near.is_empty()
    }

    /// The exact clearance from a `footprint` inside the region (inflated
    /// by `padding`) to the nearest valid obstacle: the `min_distance` and
    /// `any_colliding` of [`Span::report`] without a report. Its box is
    /// inside the region, so no obstacle nearer to it than the region's gap
    /// exists: the walk stops at the first gap beyond the best clearance so
    /// far, or at a collision.
    pub fn nearest(&mut self, footprint: &Shape, padding: f64) -> Nearest {
        let mut best = Nearest {
            distance: f64::INFINITY,
            index: None,
            colliding: false,
        };
        let padding = padding.max(0.0);
        let fp = footprint.aabb().inflated(padding);
        let tol = length_tolerance(fp.magnitude().max(self.magnitude).max(padding));
        let index = self.index;
        self.near.walk(|region_gap, i| {
            if best.colliding || region_gap - tol >= best.distance {
                return ControlFlow::Break(());
            }
            let Ok(shape) = &index.obstacles[i].shape else {
                return ControlFlow::Continue(());
            };
            if fp.distance(&index.boxes.aabb(i)) - tol >= best.distance {
                return ControlFlow::Continue(());
            }
            let contact = query(footprint, shape, padding);
            if contact.distance() < best.distance || (contact.colliding() && !best.colliding) {
                best = Nearest {
                    distance: contact.distance(),
                    index: Some(i),
                    colliding: contact.colliding(),
                };
            }
            ControlFlow::Continue(())
        });
        best
    }

    /// [`Span::first_impact`] for a motion whose swept box is inside the
    /// region: only obstacles touching the region are tried. `swept`: the
    /// motion's swept box (`motion.swept_aabb(footprint, padding,
    /// duration)`, or any box holding it) when the caller has it already;
    /// `None`: computed here.
    pub fn first_impact(
        &mut self,
        footprint: &Shape,
        motion: &Motion,
        duration: f64,
        padding: f64,
        swept: Option<&Aabb>,
    ) -> Option<(usize, Impact)> {
        let sweep = Sweep::new(
            self.index,
            self.magnitude,
            footprint,
            motion,
            duration,
            padding,
            swept,
        );
        let reach = 2.0 * sweep.tol;
        let mut best = None;
        self.near.walk(|region_gap, i| {
            if region_gap > reach {
                return ControlFlow::Break(());
            }
            sweep.earlier(&mut best, i, duration);
            ControlFlow::Continue(())
        });
        best
    }
}

impl GapWalk {
    /// Walks `near`, (gap, position) pairs in any order.
    pub(super) fn new(near: Vec<(f64, usize)>) -> Self {
        GapWalk { near, sorted: 0 }
    }

    /// Number of items.
    pub(super) fn len(&self) -> usize {
        self.near.len()
    }

    /// True when it holds no item.
    pub(super) fn is_empty(&self) -> bool {
        self.near.is_empty()
    }

    /// Calls `visit` with each item's gap and position, in the walk's
    /// order, until it breaks; sorts as it goes.
    pub(super) fn walk(&mut self, mut visit: impl FnMut(f64, usize) -> ControlFlow<()>) {
        let mut k = 0;
        while k < self.near.len() {
            if k == self.sorted {
                self.sort_next();
            }
            let (gap, i) = self.near[k];
            if visit(gap, i).is_break() {
                return;
            }
            k += 1;
        }
    }

    /// Sorts the next stretch: the smallest of the rest (as many as are
    /// sorted already, at least [`FIRST_SORTED`]) selected, then sorted.
    fn sort_next(&mut self) {
        let rest = &mut self.near[self.sorted..];
        let take = rest.len().min(self.sorted.max(FIRST_SORTED));
        if take == 0 {
            return;
        }
        if take < rest.len() {
            rest.select_nth_unstable_by(take - 1, by_gap);
        }
        rest[..take].sort_unstable_by(by_gap);
        self.sorted += take;
    }
}
