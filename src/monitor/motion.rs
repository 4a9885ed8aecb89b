//! Where the robot is going: the footprint swept along a path
//! ([`Monitor::check_path`], the planners' `check_path`) and along the
//! current velocity ([`Monitor::predict`], `collision_ahead`).
//!
//! Both use the geometry's time of impact ([`crate::geometry::toi`]): exact
//! when the motion is a translation, a lower bound (never later than the
//! true contact) when it turns. Each obstacle group is checked in its own
//! frame, with the motion moved there (one motion per group, not one shape
//! per obstacle), and its index only tries obstacles whose box meets the
//! box the footprint sweeps.

use super::{Monitor, Transforms};
use crate::geometry::toi::{Impact, Motion};
use crate::geometry::{Shape, Vector};
use crate::model::{Cause, Status};
use nalgebra::Isometry2;

/// [`MonitorConfig::time_horizon`](super::MonitorConfig::time_horizon) by
/// default (s).
pub const DEFAULT_TIME_HORIZON: f64 = 2.0;

/// [`MonitorConfig::velocity_timeout`](super::MonitorConfig::velocity_timeout)
/// by default (s).
pub const DEFAULT_VELOCITY_TIMEOUT: f64 = 0.5;

/// The robot's latest velocity: a body twist of `frame_id`.
#[derive(Clone, Debug)]
pub(super) struct Velocity {
    /// The frame whose motion it is (empty: the robot's, see
    /// [`Monitor::predict`]).
    frame_id: String,
    /// m/s in `frame_id`'s axes, and rad/s; `None`: not finite.
    twist: Option<(Vector, f64)>,
    received: f64,
    generation: u32,
}

/// The first contact along a motion.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MotionImpact {
    /// Seconds from the start of the motion.
    pub time: f64,
    /// Index in [`Monitor::obstacles`]; `None` for the fail-safe answer.
    pub obstacle: Option<usize>,
    /// The robot frame's pose at `time`, in the global frame.
    pub pose: Isometry2<f64>,
    /// `time` is the exact first contact; false: a lower bound (rotation).
    pub exact: bool,
}

/// The footprint swept by a prediction, for drawing: `shape` in the body
/// frame moved by `motion` (global frame) over `[0, duration]`.
#[derive(Clone, Debug)]
pub struct Sweep {
    pub shape: Shape,
    pub motion: Motion,
    pub duration: f64,
}

/// Answer of [`Monitor::predict`].
#[derive(Clone, Debug)]
pub struct Prediction {
    /// `Ok`, or why the prediction cannot be trusted (the report's own
    /// status first).
    pub status: Status,
    /// The first contact within the horizon.
    pub impact: Option<MotionImpact>,
    /// Contact predicted within the horizon, or (with `fail_safe`) the
    /// prediction is not valid: what `collision_ahead` publishes.
    pub ahead: bool,
    /// What was swept (absent when there was nothing to sweep).
    pub sweep: Option<Sweep>,
}

impl Prediction {
    pub fn valid(&self) -> bool {
        self.status.is_ok()
    }
}

/// Answer of [`Monitor::check_path`].
#[derive(Clone, Debug, PartialEq)]
pub struct PathCheck {
    pub valid: bool,
    pub status: Status,
    /// The pose that starts the segment in which contact begins (0: the
    /// first pose collides).
    pub first_collision: Option<usize>,
    /// The contact: seconds from the first pose, the obstacle, the pose.
    pub impact: Option<MotionImpact>,
    /// Path length (m) travelled by the robot origin until the contact.
    pub distance_to_collision: Option<f64>,
    /// Per pose: clearance (m) to the nearest valid obstacle; 0 when
    /// colliding; infinite when there is none.
    pub clearance: Vec<f64>,
}

impl Monitor {
    /// The robot's latest velocity: `linear` (m/s, in `frame_id`'s axes)
    /// and `angular` (rad/s) of `frame_id` (empty: the robot's frame),
    /// received at `now`. A non-finite component makes the prediction
    /// `invalid_velocity` until the next one.
    pub fn set_velocity(&mut self, frame_id: &str, linear: Vector, angular: f64, now: f64) {
        let finite = linear.x.is_finite() && linear.y.is_finite() && angular.is_finite();
        let velocity = self.velocity.get_or_insert_with(|| Velocity {
            frame_id: String::new(),
            twist: None,
            received: now,
            generation: self.generation,
        });
        velocity.frame_id.clear();
        velocity.frame_id.push_str(frame_id);
        velocity.twist = finite.then_some((linear, angular));
        velocity.received = now;
        velocity.generation = self.generation;
    }

    /// A velocity message refused (a bad frame id): `invalid_velocity`
    /// until the next one.
    pub fn reject_velocity(&mut self, now: f64) {
        self.set_velocity("", Vector::new(f64::NAN, 0.0), 0.0, now);
    }

    /// Why the velocity cannot be used at `now`, if it cannot.
    fn velocity_cause(&self, now: f64) -> Result<&Velocity, Status> {
        let Some(velocity) = &self.velocity else {
            return Err(Status::NoVelocity);
        };
        if self.before_jump(velocity.received, velocity.generation, now) {
            return Err(Status::ClockJumpedBack);
        }
        if Self::is_stale(velocity.received, self.config.velocity_timeout, now) {
            return Err(Status::StaleVelocity);
        }
        if velocity.twist.is_none() {
            return Err(Status::InvalidVelocity);
        }
        Ok(velocity)
    }

    /// The footprint moved along the latest velocity (a constant body
    /// twist: an arc) over `time_horizon`: the first contact within it.
    /// Not valid when the report is not (its status), or when the velocity
    /// is missing, stale, not finite, or in a frame `tf` cannot relate to
    /// the footprint's; then, with `fail_safe`, `ahead` reads true.
    ///
    /// The velocity is the motion of its frame `B` (the message's frame;
    /// empty: `base_frame`, else the footprint's frame `P`). The footprint
    /// rides on `B`: it is taken into `B` with `T(P ← B)` at the
    /// footprint's stamp, and `B` moves on the arc from that pose.
    pub fn predict(&self, tf: &(impl Transforms + ?Sized), now: f64) -> Prediction {
        let fail = |status: Status| Prediction {
            status,
            impact: None,
            ahead: self.config.fail_safe,
            sweep: None,
        };
        let cause = self
            .input_cause(now)
            .or(self.set.any_invalid().then_some(Cause::InvalidObstacle));
        if let Some(cause) = cause {
            return fail(Status::from(cause));
        }
        let velocity = match self.velocity_cause(now) {
            Ok(velocity) => velocity,
            Err(status) => return fail(status),
        };
        let (Some(footprint), Some(shape)) = (&self.footprint, self.footprint()) else {
            return fail(Status::NoFootprint); // `input_cause` said otherwise.
        };
        let Some((linear, angular)) = velocity.twist else {
            return fail(Status::InvalidVelocity);
        };
        let frame = match (velocity.frame_id.as_str(), self.config.base_frame.as_str()) {
            ("", "") => footprint.frame_id.as_str(),
            ("", base) => base,
            (frame, _) => frame,
        };
        // T(P ← B): where the moving frame is, in the footprint's.
        let body = if frame == footprint.frame_id {
            Isometry2::identity()
        } else {
            match tf.lookup(
                &footprint.frame_id,
                frame,
                footprint.stamp,
                now,
                self.config.transform_tolerance,
            ) {
                Ok(pose) => pose,
                Err(cause) => return fail(Status::from(cause)),
            }
        };
        let body_shape = match body == Isometry2::identity() {
            true => shape.clone(),
            false => shape.transformed(&body.inverse()),
        };
        let motion = Motion::twist(&body, linear, angular);
        let horizon = self.config.time_horizon.max(0.0);
        let to_global = self
            .footprint_to_global()
            .unwrap_or_else(Isometry2::identity);
        let global = motion.transformed(&to_global);
        let impact = self.first_impact(&body_shape, &motion, horizon, self.config.padding);
        let impact = impact.map(|(obstacle, hit)| MotionImpact {
            time: hit.time,
            obstacle: Some(obstacle),
            pose: global.pose_at(hit.time),
            exact: hit.exact,
        });
        Prediction {
            status: Status::Ok,
            ahead: impact.is_some(),
            sweep: Some(Sweep {
                shape: body_shape,
                motion: global,
                duration: impact.map_or(horizon, |i| i.time),
            }),
            impact,
        }
    }

    /// The first contact of `shape` (body frame) moved by `motion` (in the
    /// footprint's frame) over `[0, duration]`, over every placed group:
    /// the obstacle (index in [`obstacles`](Self::obstacles)) and the
    /// impact.
    fn first_impact(
        &self,
        shape: &Shape,
        motion: &Motion,
        duration: f64,
        padding: f64,
    ) -> Option<(usize, Impact)> {
        let mut best: Option<(usize, Impact)> = None;
        for (group, placement) in self.placed_groups() {
            let moved = match &placement.pose {
                Some(pose) => motion.transformed(pose),
                None => *motion,
            };
            let horizon = best.map_or(duration, |(_, b)| b.time);
            let members = &self.set.obstacles[group.range.clone()];
            if let Some((i, hit)) = group
                .index
                .first_impact(shape, &moved, horizon, padding, members)
            {
                if best.is_none_or(|(_, b)| hit.time < b.time) {
                    best = Some((group.range.start + i, hit));
                }
            }
        }
        best
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
        // Per group: its obstacles near the box the whole path sweeps
        // (nearest first), then every pose's clearance and every segment's
        // first contact from that one list.
        let mut first: Option<(usize, usize, Impact)> = None;
        for (group, placement) in self.placed_groups() {
            let from_global = placement.to_global.map(|p| p.inverse());
            let local = |m: &Motion| match &from_global {
                Some(from) => m.transformed(from),
                None => *m,
            };
            let moved: Vec<(Motion, f64)> = segments.iter().map(|(m, d)| (local(m), *d)).collect();
            let Some(region) = moved
                .iter()
                .map(|(m, d)| m.swept_aabb(footprint, padding, *d))
                .reduce(|a, b| a.union(&b))
            else {
                continue;
            };
            let members = &self.set.obstacles[group.range.clone()];
            let near = group.index.candidates(&region, members);
            for (k, clearance) in check.clearance.iter_mut().enumerate() {
                let pose = match &from_global {
                    Some(from) => from * poses[k],
                    None => poses[k],
                };
                let placed = footprint.transformed(&pose);
                *clearance = clearance.min(near.nearest(&placed, padding, members).distance);
            }
            // Segments after one where this group already has a contact
            // cannot hold an earlier one.
            let last = first.map_or(moved.len(), |(k, _, _)| k + 1);
            for (k, (motion, duration)) in moved.iter().enumerate().take(last) {
                let horizon = match first {
                    Some((fk, _, hit)) if fk == k => hit.time,
                    _ => *duration,
                };
                if let Some((i, hit)) =
                    near.first_impact(footprint, motion, horizon, padding, members)
                {
                    let earlier = match first {
                        Some((fk, _, b)) => k < fk || hit.time < b.time,
                        None => true,
                    };
                    if earlier {
                        first = Some((k, group.range.start + i, hit));
                    }
                    break;
                }
            }
        }
        if let Some((k, obstacle, hit)) = first {
            let (segment, _) = &segments[k];
            let travelled: f64 = segments[..k].iter().map(|(m, d)| m.speed() * d).sum();
            let t0 = times.first().copied().unwrap_or(0.0);
            check.first_collision = Some(k);
            check.distance_to_collision = Some(travelled + segment.speed() * hit.time);
            check.impact = Some(MotionImpact {
                time: times[k] - t0 + hit.time,
                obstacle: Some(obstacle),
                pose: segment.pose_at(hit.time),
                exact: hit.exact,
            });
        }
        let cause = self
            .clock_cause
            .or_else(|| self.obstacles_cause(now))
            .or_else(|| self.placements.groups_cause())
            .or_else(|| self.set.any_invalid().then_some(Cause::InvalidObstacle));
        if let Some(cause) = cause {
            check.valid = false;
            check.status = Status::from(cause);
            if self.config.fail_safe && !poses.is_empty() {
                check.first_collision = Some(0);
                check.distance_to_collision = Some(0.0);
                check.impact = Some(MotionImpact {
                    time: 0.0,
                    obstacle: None,
                    pose: poses[0],
                    exact: false,
                });
                check.clearance.iter_mut().for_each(|c| *c = 0.0);
            }
        }
        check
    }
}

/// The times of a path's poses: their stamps (s) when they strictly
/// increase (and are finite), else one second apart from 0.
pub fn path_times(stamps: &[f64]) -> Vec<f64> {
    let increasing = stamps.iter().all(|s| s.is_finite()) && stamps.windows(2).all(|w| w[1] > w[0]);
    if increasing && !stamps.is_empty() {
        stamps.to_vec()
    } else {
        (0..stamps.len()).map(|k| k as f64).collect()
    }
}
