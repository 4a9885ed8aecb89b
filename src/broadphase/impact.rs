//! Contacts along a motion: the first one over a span
//! ([`Span::first_impact`]; [`Near::first_impact`](super::Near::first_impact)
//! inside a region), the `k` first ([`Span::first_impacts`]), and each
//! obstacle's own ([`Span::impacts`]). One
//! [`Sweep`] tries every obstacle for all of them.

use super::index::{ObstacleIndex, Span};
use crate::geometry::{length_tolerance, time_of_impact, Aabb, Impact, Motion, Shape};

/// The buffers of [`Span::first_impacts`], kept by its caller: the
/// candidates in the order tried, the earliest times so far.
#[derive(Clone, Debug, Default)]
pub struct ImpactBuffers {
    order: Vec<(f64, usize)>,
    best: Vec<f64>,
}

/// One search along a motion: the box the padded footprint sweeps (grown
/// by twice the tolerance) and what each obstacle's turn needs.
pub(super) struct Sweep<'s> {
    index: &'s ObstacleIndex,
    footprint: &'s Shape,
    motion: &'s Motion,
    padding: f64,
    /// The swept box, grown by `2 * tol`.
    swept: Aabb,
    /// At least the tolerance of every pair tried.
    pub(super) tol: f64,
}

impl<'s> Sweep<'s> {
    /// `footprint` (body frame) moved by `motion` over `[0, duration]`,
    /// inflated by `padding`, against obstacles of tolerance scale
    /// `magnitude`; `swept`: the swept box when the caller has it (or any
    /// box holding it), else computed.
    pub(super) fn new(
        index: &'s ObstacleIndex,
        magnitude: f64,
        footprint: &'s Shape,
        motion: &'s Motion,
        duration: f64,
        padding: f64,
        swept: Option<&Aabb>,
    ) -> Self {
        let padding = padding.max(0.0);
        let swept = match swept {
            Some(swept) => *swept,
            None => motion.swept_aabb(footprint, padding, duration),
        };
        let tol = length_tolerance(swept.magnitude().max(magnitude).max(padding));
        Sweep {
            index,
            footprint,
            motion,
            padding,
            swept: swept.inflated(2.0 * tol),
            tol,
        }
    }

    /// Obstacle `i`'s first contact up to `horizon`: tried only when it is
    /// valid and its box meets the swept box.
    pub(super) fn impact(&self, i: usize, horizon: f64) -> Option<Impact> {
        if !self.swept.intersects(&self.index.boxes.aabb(i)) {
            return None;
        }
        let shape = self.index.obstacles[i].shape.as_ref().ok()?;
        time_of_impact(self.footprint, self.motion, horizon, shape, self.padding)
    }

    /// Obstacle `i`'s turn in a search for the first contact: tried only up
    /// to the earliest contact found so far (else up to `duration`), it
    /// becomes `best` when it is touched earlier (on a tie the one tried
    /// first stays).
    pub(super) fn earlier(&self, best: &mut Option<(usize, Impact)>, i: usize, duration: f64) {
        let horizon = best.map_or(duration, |(_, impact)| impact.time);
        if let Some(impact) = self.impact(i, horizon) {
            if best.is_none_or(|(_, b)| impact.time < b.time) {
                *best = Some((i, impact));
            }
        }
    }
}

impl Span<'_> {
    /// The first contact of `footprint` (in its body frame) moved by
    /// `motion` over `[0, duration]`, inflated by `padding`, with any of
    /// the span's valid obstacles: the obstacle (its position in the index)
    /// and its [`Impact`]. Only obstacles whose box meets the box swept by
    /// the footprint are tried, in order, each one only up to the earliest
    /// contact found so far.
    pub fn first_impact(
        &self,
        footprint: &Shape,
        motion: &Motion,
        duration: f64,
        padding: f64,
    ) -> Option<(usize, Impact)> {
        let sweep = Sweep::new(
            self.index,
            self.magnitude,
            footprint,
            motion,
            duration,
            padding,
            None,
        );
        let mut best = None;
        for i in self.start..self.end {
            sweep.earlier(&mut best, i, duration);
        }
        best
    }

    /// The `k` earliest first contacts of distinct obstacles of the span
    /// with the moving footprint (as in [`first_impact`](Self::first_impact)),
    /// their times appended to `times` in increasing order (fewer when
    /// fewer are touched within `duration`). Once `k` are found, each
    /// further obstacle is tried only up to the `k`-th earliest so far: one
    /// touched later cannot be among them. What a costmap's cells need
    /// when `min_points` of them must be reached.
    /// `buffers` are the search's own, kept by the caller between calls:
    /// no allocation once they have grown.
    #[allow(clippy::too_many_arguments)]
    pub fn first_impacts(
        &self,
        footprint: &Shape,
        motion: &Motion,
        duration: f64,
        padding: f64,
        k: usize,
        buffers: &mut ImpactBuffers,
        times: &mut Vec<f64>,
    ) {
        // Nothing to try: no allocation (a gate cycle without a costmap).
        if k == 0 || self.is_empty() {
            return;
        }
        let new_sweep = |horizon| {
            Sweep::new(
                self.index,
                self.magnitude,
                footprint,
                motion,
                horizon,
                padding,
                None,
            )
        };
        let mut sweep = new_sweep(duration);
        let mut swept_for = duration;
        // The obstacles the sweep can reach, nearest to the footprint's
        // start first, so that the `k`-th time falls early and bounds the
        // rest: their sweep is cut to it once it is well below the last.
        let start = motion.swept_aabb(footprint, padding.max(0.0), 0.0);
        let boxes = &self.index.boxes;
        let ImpactBuffers { order, best } = buffers;
        order.clear();
        order.extend(
            (self.start..self.end)
                .filter(|&i| sweep.swept.intersects(&boxes.aabb(i)))
                .map(|i| (start.distance(&boxes.aabb(i)), i)),
        );
        order.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        // Sorted, at most `k`.
        best.clear();
        for &(_, i) in order.iter() {
            let horizon = match best.len() == k {
                true => best[k - 1],
                false => duration,
            };
            if horizon < 0.75 * swept_for {
                sweep = new_sweep(horizon);
                swept_for = horizon;
            }
            if let Some(hit) = sweep.impact(i, horizon) {
                if hit.time <= horizon {
                    let at = best.partition_point(|t| *t <= hit.time);
                    best.insert(at, hit.time);
                    best.truncate(k);
                }
            }
        }
        times.extend_from_slice(best);
    }

    /// Each obstacle's own first contact with the moving footprint (as in
    /// [`first_impact`](Self::first_impact), each tried up to `duration`):
    /// one entry per obstacle of the span, in order; `None` for an invalid
    /// obstacle, one whose box the swept box misses, or one not touched
    /// within `duration`. What the offline scene reports per obstacle.
    pub fn impacts(
        &self,
        footprint: &Shape,
        motion: &Motion,
        duration: f64,
        padding: f64,
    ) -> Vec<Option<Impact>> {
        let sweep = Sweep::new(
            self.index,
            self.magnitude,
            footprint,
            motion,
            duration,
            padding,
            None,
        );
        (self.start..self.end)
            .map(|i| sweep.impact(i, duration).filter(|hit| hit.time <= duration))
            .collect()
    }
}
