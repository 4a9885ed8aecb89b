//! Contacts along a motion: the first ([`PointSet::first_impact`]), the
//! `k`-th ([`PointSet::kth_impact`], [`PointSet::first_impacts`]) and
//! whether a motion takes no point deeper ([`PointSet::escapes`]), on one
//! `PointSweep` each, under rules 5 and 6 of the
//! [module documentation](super).

use super::super::boxes::box_distance;
use super::set::PointSet;
use crate::geometry::{
    closed_form_scale, distance_to_point, length_tolerance, point_escapes, point_time_of_impact,
    Aabb, Impact, Motion, Point, Shape,
};
use std::ops::ControlFlow;

impl PointSet {
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
}

/// One search for the first contact along a motion (rule 5 of the module
/// documentation): the swept box and the speed bound each point's turn
/// needs.
pub(super) struct PointSweep<'s> {
    footprint: &'s Shape,
    motion: &'s Motion,
    padding: f64,
    /// The box the padded footprint sweeps, grown by `2·tol`.
    pub(super) swept: Aabb,
    /// The padded footprint's box at the start.
    start: Aabb,
    /// Fastest a point of the padded footprint moves (m/s).
    speed: f64,
    /// A twist that turns: its fixed centre (fixed frame) and the range of
    /// distances from it of the padded footprint's points (grown by the
    /// margin of rule 6).
    about: Option<(Point, f64, f64)>,
    /// At least the tolerance of every point's time of impact.
    pub(super) tol: f64,
}

impl<'s> PointSweep<'s> {
    /// For a finite motion and duration; `swept`: the swept box when the
    /// caller has it (or any box holding it), else computed.
    pub(super) fn new(
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
    pub(super) fn earlier(
        &self,
        best: &mut Option<(usize, Impact)>,
        i: usize,
        p: Point,
        duration: f64,
    ) {
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
