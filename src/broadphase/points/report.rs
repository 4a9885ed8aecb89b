//! The flag, the report and the markers' list: the points inside the
//! padded footprint ([`PointSet::count_inside`], [`PointSet::inside`]) and
//! the deepest and nearest ([`PointSet::report`]), under rules 1 to 4 of
//! the [module documentation](super).

use super::super::boxes::box_distance;
use super::set::PointSet;
use crate::geometry::{Aabb, Contact, PointProbe, Shape};
use std::ops::ControlFlow;

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
}
