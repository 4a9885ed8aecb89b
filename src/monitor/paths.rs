//! The planners' questions: a footprint at many poses
//! ([`Monitor::check_trajectory`]) and along a path
//! ([`Monitor::check_path`]), against the obstacles the monitor holds.

use super::motion::{MotionImpact, PathCheck};
use super::sources::cells_inside;
use super::state::Monitor;
use crate::broadphase::{uncancelled, Cancel, Cancelled, Near, NearPoints, Nearest, PoseCheck};
use crate::geometry::{self, Aabb, Impact, Motion, Shape};
use crate::model::{Cause, Status, Verdict};
use nalgebra::Isometry2;

/// Answer to [`Monitor::check_trajectory`].
#[derive(Clone, Debug, PartialEq)]
pub struct TrajectoryCheck {
    /// The inputs were usable: the answer can be trusted.
    pub valid: bool,
    /// [`Status::Ok`] or why the answer cannot be trusted.
    pub status: Status,
    /// Per pose; with `fail_safe` and not `valid`, every pose colliding.
    pub check: PoseCheck,
}

impl TrajectoryCheck {
    /// The answer `check` computed, as `verdict` judges it: with `valid`
    /// and `status` from it and, when it forces a collision, every pose
    /// colliding (the first one first).
    pub fn judged(verdict: Verdict, mut check: PoseCheck) -> Self {
        if verdict.forces_collision() {
            check.colliding.iter_mut().for_each(|c| *c = true);
            check.first_collision = (!check.colliding.is_empty()).then_some(0);
        }
        TrajectoryCheck {
            valid: verdict.valid(),
            status: verdict.status(),
            check,
        }
    }
}

impl Monitor {
    /// The verdict on a planner query at `now`: the clock, the obstacle
    /// inputs and the groups' transforms (the query brings its own
    /// footprint and poses), with `more` causes.
    fn obstacles_verdict(&self, now: f64, more: impl IntoIterator<Item = Cause>) -> Verdict {
        let causes = [self.clock_cause, self.placements.groups_cause()];
        let obstacles = self.obstacles_cause(now);
        Verdict::of(
            causes.into_iter().chain([obstacles]).flatten().chain(more),
            self.config.fail_safe,
        )
    }

    /// The planner's question: is this robot-frame `footprint`, placed at
    /// each of `poses` (in the obstacles' frame), clear of every current
    /// obstacle with `padding` (added to the configured padding)? Fails safe
    /// like [`evaluate`](Self::evaluate): when the answer cannot be trusted,
    /// `valid` is false and, with `fail_safe`, every pose reads colliding.
    pub fn check_trajectory(
        &self,
        footprint: &Shape,
        poses: &[nalgebra::Isometry2<f64>],
        padding: f64,
        now: f64,
    ) -> TrajectoryCheck {
        uncancelled(|cancel| self.check_trajectory_until(footprint, poses, padding, now, cancel))
    }

    /// [`check_trajectory`](Self::check_trajectory) that stops when
    /// `cancel` is set (looked at before every pose).
    pub fn check_trajectory_until(
        &self,
        footprint: &Shape,
        poses: &[nalgebra::Isometry2<f64>],
        padding: f64,
        now: f64,
        cancel: &Cancel,
    ) -> Result<TrajectoryCheck, Cancelled> {
        let padding = self.config.padding + padding.max(0.0);
        let mut check = PoseCheck {
            colliding: vec![false; poses.len()],
            distance: vec![f64::INFINITY; poses.len()],
            first_collision: None,
            invalid_obstacles: 0,
        };
        let mut local = Vec::with_capacity(poses.len());
        for (group, placement) in self.placed_groups() {
            // The poses are in the global frame; this group's obstacles in
            // its own.
            local.clear();
            match placement.to_global {
                Some(to_global) => {
                    let from_global = to_global.inverse();
                    local.extend(poses.iter().map(|p| from_global * p));
                }
                None => local.extend_from_slice(poses),
            }
            let part = self
                .set
                .span(group)
                .check_poses(footprint, &local, padding, cancel)?;
            for (all, one) in check.colliding.iter_mut().zip(&part.colliding) {
                *all |= *one;
            }
            for (all, one) in check.distance.iter_mut().zip(&part.distance) {
                *all = all.min(*one);
            }
            check.invalid_obstacles += part.invalid_obstacles;
        }
        self.check_points_at_poses(footprint, poses, padding, &mut check, cancel)?;
        check.first_collision = check.colliding.iter().position(|&c| c);
        let invalid = (check.invalid_obstacles > 0).then_some(Cause::InvalidObstacle);
        Ok(TrajectoryCheck::judged(
            self.obstacles_verdict(now, invalid),
            check,
        ))
    }

    /// The sources' points at each pose (global frame) of `footprint`:
    /// the clearance to the nearest point into `check.distance`, and a
    /// collision where the points of all sources together inside the
    /// padded footprint reach `min_points`, as the flag counts them.
    fn check_points_at_poses(
        &self,
        footprint: &Shape,
        poses: &[Isometry2<f64>],
        padding: f64,
        check: &mut PoseCheck,
        cancel: &Cancel,
    ) -> Result<(), Cancelled> {
        let need = self.min_points();
        let mut inside = vec![0usize; poses.len()];
        for source in self.placed_sources() {
            let from_global = source.placement.to_global.map(|p| p.inverse());
            let placed: Vec<Shape> = poses
                .iter()
                .map(|pose| match &from_global {
                    Some(from) => footprint.transformed(&(from * pose)),
                    None => footprint.transformed(pose),
                })
                .collect();
            let Some(region) = placed
                .iter()
                .map(|shape| shape.aabb().inflated(padding.max(0.0)))
                .reduce(|a, b| a.union(&b))
            else {
                continue;
            };
            let mut near = source.points.near(&region);
            for (k, shape) in placed.iter().enumerate() {
                cancel.check()?;
                let nearest = near.nearest(shape, padding);
                check.distance[k] = check.distance[k].min(nearest.distance);
                if nearest.colliding && inside[k] < need {
                    inside[k] += source.points.count_inside(shape, padding, need - inside[k]);
                }
            }
            if !source.cells.is_empty() {
                // A costmap's cells, counted as points are (a fleet's
                // peer: enough alone).
                let cells = source.cells.all();
                let mut near = cells.near(&region);
                for (k, shape) in placed.iter().enumerate() {
                    cancel.check()?;
                    let nearest = near.nearest(shape, padding);
                    check.distance[k] = check.distance[k].min(nearest.distance);
                    if nearest.colliding && inside[k] < need {
                        let peers = !source.moving.is_empty();
                        inside[k] +=
                            cells_inside(source.cells, peers, shape, padding, need - inside[k]);
                    }
                }
            }
        }
        for (colliding, inside) in check.colliding.iter_mut().zip(inside) {
            *colliding |= inside >= need;
        }
        Ok(())
    }

    /// The planner's question about a whole path: `footprint` (robot
    /// frame) at `poses` (global frame), moving between consecutive poses
    /// in a straight line while the yaw turns the short way, both linear
    /// in time, at `times` (s, strictly increasing, one per pose). The
    /// first contact (exact where a segment does not turn, never late
    /// where it does) and the clearance at every pose, with `padding` on
    /// top of the configured one. Fails safe like
    /// [`check_trajectory`](Self::check_trajectory): when the answer
    /// cannot be trusted, `valid` is false and, with `fail_safe`, the path
    /// collides at its first pose.
    pub fn check_path(
        &self,
        footprint: &Shape,
        poses: &[Isometry2<f64>],
        times: &[f64],
        padding: f64,
        now: f64,
    ) -> PathCheck {
        uncancelled(|cancel| self.check_path_until(footprint, poses, times, padding, now, cancel))
    }

    /// [`check_path`](Self::check_path) that stops when `cancel` is set
    /// (looked at before every pose's clearance and every segment's
    /// contact).
    pub fn check_path_until(
        &self,
        footprint: &Shape,
        poses: &[Isometry2<f64>],
        times: &[f64],
        padding: f64,
        now: f64,
        cancel: &Cancel,
    ) -> Result<PathCheck, Cancelled> {
        let padding = self.config.padding + padding.max(0.0);
        let mut check = PathCheck {
            valid: true,
            status: Status::Ok,
            first_collision: None,
            impact: None,
            distance_to_collision: None,
            clearance: vec![f64::INFINITY; poses.len()],
        };
        // The segments, in the global frame: each a straight line with the
        // yaw turning the short way (a path of one pose: the pose itself).
        let segments: Vec<(Motion, f64)> = match poses.len() {
            0 => Vec::new(),
            1 => vec![(Motion::segment(&poses[0], &poses[0], 1.0), 0.0)],
            _ => poses
                .windows(2)
                .zip(times.windows(2))
                .map(|(p, t)| (Motion::segment(&p[0], &p[1], t[1] - t[0]), t[1] - t[0]))
                .collect(),
        };
        // Per group (and per point source): its obstacles near the box the
        // whole path sweeps (nearest first), then every pose's clearance and
        // every segment's first contact from that one list.
        let mut first: Option<(usize, Hit, Impact)> = None;
        for (group, placement) in self.placed_groups() {
            let walk = PathWalk::new(placement.to_global, &segments, footprint, padding);
            if let Some(region) = walk.region() {
                let near = self.set.span(group).near(&region);
                walk.run(
                    near,
                    poses,
                    &mut check.clearance,
                    &mut first,
                    Hit::Obstacle,
                    cancel,
                )?;
            }
        }
        for source in self.placed_sources() {
            if !source.moving.is_empty() {
                // A fleet's peers: where each is at each time of the path.
                let path = TimedPath {
                    poses,
                    times,
                    segments: &segments,
                    start: path_start(times, now),
                };
                let index = source.index;
                timed_peers(
                    &source,
                    footprint,
                    &path,
                    padding,
                    &mut check.clearance,
                    cancel,
                )
                .into_iter()
                .flatten()
                .for_each(|(k, cell, hit)| {
                    let earlier =
                        first.is_none_or(|(fk, _, b)| k < fk || (k == fk && hit.time < b.time));
                    if earlier {
                        first = Some((k, Hit::Cell(index, cell), hit));
                    }
                });
                continue;
            }
            let walk = PathWalk::new(source.placement.to_global, &segments, footprint, padding);
            if let Some(region) = walk.region() {
                let near = source.points.near(&region);
                let index = source.index;
                let hit = move |_| Hit::Source(index);
                walk.run(near, poses, &mut check.clearance, &mut first, hit, cancel)?;
                if !source.cells.is_empty() {
                    // A costmap's cells: obstacles of the source.
                    let near = source.cells.all().near(&region);
                    walk.run(near, poses, &mut check.clearance, &mut first, hit, cancel)?;
                }
            }
        }
        if let Some((k, target, hit)) = first {
            let (segment, _) = &segments[k];
            let travelled: f64 = segments[..k].iter().map(|(m, d)| m.speed() * d).sum();
            let t0 = times.first().copied().unwrap_or(0.0);
            check.first_collision = Some(k);
            check.distance_to_collision = Some(travelled + segment.speed() * hit.time);
            check.impact = Some(MotionImpact {
                time: times[k] - t0 + hit.time,
                obstacle: target.obstacle(),
                source: target.source(),
                cell: target.cell(),
                pose: segment.pose_at(hit.time),
                exact: hit.exact,
            });
        }
        let invalid = self.set.any_invalid().then_some(Cause::InvalidObstacle);
        let verdict = self.obstacles_verdict(now, invalid);
        if !verdict.valid() {
            check.valid = false;
            check.status = verdict.status();
            if verdict.forces_collision() && !poses.is_empty() {
                check.first_collision = Some(0);
                check.distance_to_collision = Some(0.0);
                check.impact = Some(MotionImpact {
                    time: 0.0,
                    obstacle: None,
                    source: None,
                    cell: None,
                    pose: poses[0],
                    exact: false,
                });
                check.clearance.iter_mut().for_each(|c| *c = 0.0);
            }
        }
        Ok(check)
    }
}

/// What a path or a motion touches first: an obstacle of the index, or a
/// point of a sensor source (their positions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Hit {
    Obstacle(usize),
    Source(usize),
    /// A source's cell (a costmap's cell, a fleet's peer): the source,
    /// the cell.
    Cell(usize, usize),
}

impl Hit {
    pub(super) fn obstacle(self) -> Option<usize> {
        match self {
            Hit::Obstacle(i) => Some(i),
            Hit::Source(_) | Hit::Cell(..) => None,
        }
    }

    pub(super) fn source(self) -> Option<usize> {
        match self {
            Hit::Source(i) | Hit::Cell(i, _) => Some(i),
            Hit::Obstacle(_) => None,
        }
    }

    pub(super) fn cell(self) -> Option<usize> {
        match self {
            Hit::Cell(_, i) => Some(i),
            Hit::Obstacle(_) | Hit::Source(_) => None,
        }
    }
}

/// What lies near a path, as [`Monitor::check_path`] asks it: the
/// obstacles of a span ([`Near`]) or the points of a source
/// ([`NearPoints`]).
trait NearQuery {
    fn nearest(&mut self, footprint: &Shape, padding: f64) -> Nearest;
    fn first_impact(
        &mut self,
        footprint: &Shape,
        motion: &Motion,
        duration: f64,
        padding: f64,
        swept: Option<&Aabb>,
    ) -> Option<(usize, Impact)>;
}

impl NearQuery for Near<'_> {
    fn nearest(&mut self, footprint: &Shape, padding: f64) -> Nearest {
        Near::nearest(self, footprint, padding)
    }

    fn first_impact(
        &mut self,
        footprint: &Shape,
        motion: &Motion,
        duration: f64,
        padding: f64,
        swept: Option<&Aabb>,
    ) -> Option<(usize, Impact)> {
        Near::first_impact(self, footprint, motion, duration, padding, swept)
    }
}

impl NearQuery for NearPoints<'_> {
    fn nearest(&mut self, footprint: &Shape, padding: f64) -> Nearest {
        NearPoints::nearest(self, footprint, padding)
    }

    fn first_impact(
        &mut self,
        footprint: &Shape,
        motion: &Motion,
        duration: f64,
        padding: f64,
        swept: Option<&Aabb>,
    ) -> Option<(usize, Impact)> {
        NearPoints::first_impact(self, footprint, motion, duration, padding, swept)
    }
}

/// The absolute time (s) of a path's time 0: its times are its poses'
/// stamps ([`path_times`](super::path_times)) unless they start at 0 (an
/// unstamped path, one second apart): then its first pose is now.
fn path_start(times: &[f64], now: f64) -> f64 {
    match times.first() {
        Some(&t) if t != 0.0 => 0.0,
        _ => now,
    }
}

/// A planner's path in absolute time: its poses (global frame), their
/// times, its segments, and the absolute time of its time 0.
struct TimedPath<'a> {
    poses: &'a [Isometry2<f64>],
    times: &'a [f64],
    segments: &'a [(Motion, f64)],
    start: f64,
}

/// A path against a fleet's peers in time (RMF's conflict: both robots
/// at the same place at the same time): at each pose's time, the
/// clearance to each peer where it is then (into `clearance`); along each
/// segment, split where a peer's plan turns, the first contact of the two
/// moving footprints ([`geometry::moving_time_of_impact`], exact for
/// translations, never late with rotation), each peer padded by its
/// uncertainty. Each peer's first contact: (segment, peer, impact).
fn timed_peers(
    source: &super::sources::PlacedSource<'_>,
    footprint: &Shape,
    path: &TimedPath<'_>,
    padding: f64,
    clearance: &mut [f64],
    cancel: &Cancel,
) -> Result<Vec<(usize, usize, Impact)>, Cancelled> {
    let from_global = source.placement.to_global.map(|p| p.inverse());
    let local = |pose: Isometry2<f64>| from_global.map_or(pose, |f| f * pose);
    let mut hits = Vec::new();
    for (i, peer) in source.moving.iter().enumerate() {
        for (k, clearance) in clearance.iter_mut().enumerate() {
            cancel.check()?;
            let t = path.start + path.times[k];
            let ours = footprint.transformed(&local(path.poses[k]));
            let theirs = peer.shape.transformed(&peer.pose_at_time(t));
            let gap = geometry::query(&ours, &theirs, padding + peer.padding_until(t));
            *clearance = clearance.min(gap.distance());
        }
        'segments: for (k, (segment, duration)) in path.segments.iter().enumerate() {
            let a = path.start + path.times.get(k).copied().unwrap_or(0.0);
            let b = a + duration;
            let cuts: Vec<f64> = std::iter::once(a)
                .chain(peer.breaks(a, b))
                .chain(std::iter::once(b))
                .collect();
            for w in cuts.windows(2) {
                cancel.check()?;
                let (t0, t1) = (w[0], w[1]);
                let span = t1 - t0;
                if span <= 0.0 && *duration > 0.0 {
                    continue;
                }
                let ours = segment.advanced(t0 - a);
                let ours = from_global.map_or(ours, |f| ours.transformed(&f));
                let theirs = if peer.plan.is_empty() {
                    peer.motion.advanced((t0 - peer.since).max(0.0))
                } else {
                    Motion::segment(&peer.pose_at_time(t0), &peer.pose_at_time(t1), span)
                };
                let pad = padding + peer.padding_until(t1);
                if let Some(mut hit) = geometry::moving_time_of_impact(
                    footprint,
                    &ours,
                    &peer.shape,
                    &theirs,
                    span,
                    pad,
                ) {
                    hit.time += t0 - a;
                    hits.push((k, i, hit));
                    break 'segments;
                }
            }
        }
    }
    Ok(hits)
}

/// A path seen from one obstacle group's (or source's) frame.
struct PathWalk<'a> {
    from_global: Option<Isometry2<f64>>,
    /// Each segment's motion in the frame, its duration and its swept box.
    moved: Vec<(Motion, f64, Aabb)>,
    footprint: &'a Shape,
    padding: f64,
}

impl<'a> PathWalk<'a> {
    fn new(
        to_global: Option<Isometry2<f64>>,
        segments: &[(Motion, f64)],
        footprint: &'a Shape,
        padding: f64,
    ) -> Self {
        let from_global = to_global.map(|p| p.inverse());
        let moved = segments
            .iter()
            .map(|(m, d)| {
                let m = match &from_global {
                    Some(from) => m.transformed(from),
                    None => *m,
                };
                (m, *d, m.swept_aabb(footprint, padding, *d))
            })
            .collect();
        PathWalk {
            from_global,
            moved,
            footprint,
            padding,
        }
    }

    /// The box the whole path sweeps (none for no segment).
    fn region(&self) -> Option<Aabb> {
        self.moved
            .iter()
            .map(|(_, _, swept)| *swept)
            .reduce(|a, b| a.union(&b))
    }

    /// Every pose's clearance into `clearance`, and the first contact
    /// over the segments into `first` when earlier than it.
    fn run(
        &self,
        mut near: impl NearQuery,
        poses: &[Isometry2<f64>],
        clearance: &mut [f64],
        first: &mut Option<(usize, Hit, Impact)>,
        hit: impl Fn(usize) -> Hit,
        cancel: &Cancel,
    ) -> Result<(), Cancelled> {
        for (k, clearance) in clearance.iter_mut().enumerate() {
            cancel.check()?;
            let pose = match &self.from_global {
                Some(from) => from * poses[k],
                None => poses[k],
            };
            let placed = self.footprint.transformed(&pose);
            *clearance = clearance.min(near.nearest(&placed, self.padding).distance);
        }
        // Segments after one where something already has a contact cannot
        // hold an earlier one.
        let last = first.map_or(self.moved.len(), |(k, _, _)| k + 1);
        for (k, (motion, duration, swept)) in self.moved.iter().enumerate().take(last) {
            cancel.check()?;
            let horizon = match *first {
                Some((fk, _, hit)) if fk == k => hit.time,
                _ => *duration,
            };
            if let Some((i, contact)) =
                near.first_impact(self.footprint, motion, horizon, self.padding, Some(swept))
            {
                let earlier = match *first {
                    Some((fk, _, b)) => k < fk || contact.time < b.time,
                    None => true,
                };
                if earlier {
                    *first = Some((k, hit(i), contact));
                }
                break;
            }
        }
        Ok(())
    }
}
