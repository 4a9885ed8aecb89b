//! The decision and the report: whether the footprint touches anything
//! ([`Span::any_collision`]), and one outcome per obstacle with their
//! summary ([`Span::report`]).

use super::boxes::{box_distance, exact, far_outcome, Probe};
use super::index::Span;
use crate::geometry::{intersects, Shape, Vector};
use crate::model::{ObstacleOutcome, Status, Summary};
use nalgebra::Isometry2;

/// Near obstacles remembered on the stack by one report; more are found by
/// a second pass over the boxes.
const NEAR_CAPACITY: usize = 64;

impl Span<'_> {
    /// Whether `footprint` (inflated by `padding`) touches or overlaps any
    /// of the span's obstacles: the `any_colliding` of
    /// [`report`](Self::report), without the report. One pass over the
    /// boxes; only obstacles whose box comes within the threshold `report`
    /// uses for "could collide" get the exact test, and it stops at the
    /// first collision.
    pub fn any_collision(&self, footprint: &Shape, padding: f64) -> bool {
        let padding = padding.max(0.0);
        let (boxes, obstacles) = (&self.index.boxes, &self.index.obstacles);
        let probe = Probe::new(self.magnitude, footprint, padding);
        let reach = 2.0 * probe.tol;
        (self.start..)
            .zip(boxes.iter(self.range()))
            .any(|(i, aabb)| {
                let (dx, dy) = probe.gaps(&aabb);
                // Per-axis first: most boxes are rejected without the square
                // root.
                dx <= reach
                    && dy <= reach
                    && box_distance(dx, dy) <= reach
                    && obstacles[i]
                        .shape
                        .as_ref()
                        .is_ok_and(|shape| intersects(footprint, shape, padding))
            })
    }

    /// How many of the span's obstacles `footprint` (inflated by
    /// `padding`) touches or overlaps, counting stops at `limit`: the count
    /// of [`any_collision`](Self::any_collision), by the same box pass and
    /// exact test (a costmap's cells, counted as points are).
    pub fn count_colliding(&self, footprint: &Shape, padding: f64, limit: usize) -> usize {
        let padding = padding.max(0.0);
        let (boxes, obstacles) = (&self.index.boxes, &self.index.obstacles);
        let probe = Probe::new(self.magnitude, footprint, padding);
        let reach = 2.0 * probe.tol;
        (self.start..)
            .zip(boxes.iter(self.range()))
            .filter(|(i, aabb)| {
                let (dx, dy) = probe.gaps(aabb);
                dx <= reach
                    && dy <= reach
                    && box_distance(dx, dy) <= reach
                    && obstacles[*i]
                        .shape
                        .as_ref()
                        .is_ok_and(|shape| intersects(footprint, shape, padding))
            })
            .take(limit)
            .count()
    }

    /// The report for `footprint` (inflated by `padding`) against the
    /// span's obstacles: one outcome per obstacle, in order, **appended**
    /// to `out` (what is already there stays: a report over several frames
    /// writes each frame's span into one buffer), each turned by `pose`
    /// (`None`: as it is) as it is written, the obstacles' frame into the
    /// report's (see [`ObstacleOutcome::transform`]). Returns what
    /// [`summarize`](crate::model::summarize) would return over the
    /// appended outcomes, its `nearest` a position in the index.
    ///
    /// Outcomes of obstacles farther than `exact_range` (box to box) that
    /// cannot be the nearest are lower bounds (see the module
    /// documentation); their axes come from a table of the four turned box
    /// normals, so turning costs the pass over 10,000 obstacles nothing per
    /// obstacle. `exact_range = f64::INFINITY`: every outcome is exact,
    /// [`query`](crate::geometry::query()) on each obstacle, in one pass
    /// without the boxes. No allocation once `out` has room for the
    /// outcomes.
    pub fn report(
        &self,
        footprint: &Shape,
        padding: f64,
        exact_range: f64,
        pose: Option<&Isometry2<f64>>,
        out: &mut Vec<ObstacleOutcome>,
    ) -> Summary {
        let padding = padding.max(0.0);
        if exact_range == f64::INFINITY {
            return self.report_exact(footprint, padding, pose, out);
        }
        let normals = [Vector::x(), -Vector::x(), Vector::y(), -Vector::y()];
        let axes = pose.map_or(normals, |p| normals.map(|n| p.rotation * n));
        let (boxes, obstacles) = (&self.index.boxes, &self.index.obstacles);
        let (start, end) = (self.start, self.end);
        let probe = Probe::new(self.magnitude, footprint, padding);
        let tol = probe.tol;
        let each_box = || (start..).zip(boxes.iter(start..end));

        // Pass 1, over the boxes only: the obstacle whose box is nearest.
        // One exact query against it bounds the nearest clearance: anything
        // whose box is farther cannot be the nearest, nor collide.
        let mut nearest_box = None;
        let mut nearest_squared = f64::INFINITY;
        for (i, aabb) in each_box() {
            let (dx, dy) = probe.gaps(&aabb);
            let squared = dx * dx + dy * dy;
            if squared < nearest_squared {
                nearest_squared = squared;
                nearest_box = Some(i);
            }
        }
        let first = nearest_box.map(|i| (i, exact(footprint, padding, &obstacles[i])));
        let threshold = match first {
            Some((_, outcome)) => exact_range.max(outcome.contact.map_or(0.0, |c| c.distance())),
            None => exact_range,
        } + 2.0 * tol;

        // Pass 2: every obstacle gets its honest far answer (a tight loop
        // that only streams boxes in and outcomes out); the few within the
        // threshold are remembered (on the stack: no allocation).
        let mut near = [0usize; NEAR_CAPACITY];
        let mut near_len = 0;
        // Obstacle `i`'s outcome is `out[base + (i - start)]`.
        let base = out.len();
        out.extend(each_box().map(|(i, aabb)| {
            let (dx, dy) = probe.gaps(&aabb);
            let distance = box_distance(dx, dy);
            if distance <= threshold {
                if near_len < NEAR_CAPACITY {
                    near[near_len] = i;
                }
                near_len += 1;
            }
            far_outcome(distance - tol, probe.axis(&aabb, dx, dy, &axes))
        }));

        // Pass 3: exact answers within the threshold, and the summary over
        // them in obstacle order (ties resolve as in `summarize`: the first
        // one wins). Far outcomes cannot change it: their distance exceeds
        // the nearest's. More near obstacles than the stack holds: find
        // them again.
        let mut summary = Summary::empty();
        summary.any_invalid = self.any_invalid();
        let mut visit = |i: usize| {
            if obstacles[i].shape.is_err() {
                return;
            }
            let mut outcome = match first {
                Some((j, outcome)) if j == i => outcome,
                _ => exact(footprint, padding, &obstacles[i]),
            };
            if let Some(pose) = pose {
                outcome.transform(pose);
            }
            out[base + (i - start)] = outcome;
            if let Some(contact) = &outcome.contact {
                summary.record(i, contact);
            }
        };
        if near_len <= NEAR_CAPACITY {
            near[..near_len].iter().for_each(|&i| visit(i));
        } else {
            each_box()
                .filter(|(_, aabb)| {
                    let (dx, dy) = probe.gaps(aabb);
                    box_distance(dx, dy) <= threshold
                })
                .for_each(|(i, _)| visit(i));
        }
        for &i in self.invalid() {
            let status = match &obstacles[i].shape {
                Err(e) => Status::from(e),
                Ok(_) => unreachable!("the boxes are rebuilt with the obstacles"),
            };
            out[base + (i - start)] = ObstacleOutcome {
                status,
                contact: None,
                exact: true,
            };
        }
        summary
    }

    /// [`report`](Self::report) with every outcome exact: one pass, each
    /// obstacle's [`query`](crate::geometry::query()) (or its shape error)
    /// turned by `pose` and recorded in order.
    fn report_exact(
        &self,
        footprint: &Shape,
        padding: f64,
        pose: Option<&Isometry2<f64>>,
        out: &mut Vec<ObstacleOutcome>,
    ) -> Summary {
        let mut summary = Summary::empty();
        summary.any_invalid = self.any_invalid();
        let start = self.start;
        out.extend(self.obstacles().iter().enumerate().map(|(k, obstacle)| {
            let mut outcome = exact(footprint, padding, obstacle);
            if let Some(pose) = pose {
                outcome.transform(pose);
            }
            if let Some(contact) = &outcome.contact {
                summary.record(start + k, contact);
            }
            outcome
        }));
        summary
    }
}
