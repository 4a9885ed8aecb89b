//! What lies near a path: [`PointSet::near`] and its [`NearPoints`], on
//! `near`'s lazy walk (shared with [`Near`](super::super::Near)).

use super::super::boxes::box_distance;
use super::super::near::{GapWalk, Nearest};
use super::impact::PointSweep;
use super::set::PointSet;
use crate::geometry::{
    length_tolerance, point_time_of_impact, Aabb, Impact, Motion, Point, PointProbe, Shape,
};
use std::ops::ControlFlow;

impl PointSet {
    /// The points near `region` (a path's swept box), for the per-pose
    /// clearances ([`NearPoints::nearest`]) and the per-segment first
    /// contacts ([`NearPoints::first_impact`]) of footprints and motions
    /// inside it, as [`Span::near`](super::super::Span::near) for obstacles: each
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
