//! The velocity the monitor holds, and where it takes the robot
//! ([`Monitor::predict`], `collision_ahead`).

use super::inputs::is_stale;
use super::motion::{MotionImpact, Prediction, Sweep, Velocity};
use super::placement::Transforms;
use super::state::Monitor;
use crate::geometry::{Impact, Motion, Shape, Vector};
use crate::model::{Cause, Status};
use nalgebra::Isometry2;

impl Monitor {
    /// The robot's latest velocity: `linear` (m/s, in `frame_id`'s axes)
    /// and `angular` (rad/s) of `frame_id` (empty: `base_frame`),
    /// received at `now`, not stamped. A non-finite component makes the
    /// prediction `invalid_velocity` until the next one.
    pub fn set_velocity(&mut self, frame_id: &str, linear: Vector, angular: f64, now: f64) {
        self.set_velocity_at(frame_id, 0.0, linear, angular, now);
    }

    /// [`set_velocity`](Self::set_velocity) for a velocity stamped `stamp`
    /// (its header time, s; 0: judged by arrival alone).
    pub fn set_velocity_at(
        &mut self,
        frame_id: &str,
        stamp: f64,
        linear: Vector,
        angular: f64,
        now: f64,
    ) {
        let finite = linear.x.is_finite() && linear.y.is_finite() && angular.is_finite();
        let velocity = self.velocity.get_or_insert_with(|| Velocity {
            frame_id: String::new(),
            twist: None,
            stamp,
            received: now,
            generation: self.generation,
        });
        velocity.frame_id.clear();
        velocity.frame_id.push_str(frame_id);
        velocity.twist = finite.then_some((linear, angular));
        velocity.stamp = stamp;
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
        let timeout = self.config.velocity_timeout;
        if is_stale(timeout, now, velocity.received, velocity.stamp) {
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
    /// is missing, stale, not finite, of no known frame, or in a frame `tf`
    /// cannot relate to the footprint's; then, with `fail_safe`, `ahead`
    /// reads true.
    ///
    /// The velocity is the motion of its frame `B` (the message's frame;
    /// empty: `base_frame`; neither: `unknown_velocity_frame`, never a
    /// guess: a body twist applied to another frame turns about that
    /// frame's origin). The footprint rides on `B`: it is taken into `B`
    /// with `T(P ← B)` at the footprint's stamp (`P` the footprint's
    /// frame), and `B` moves on the arc from that pose.
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
            ("", "") => return fail(Status::UnknownVelocityFrame),
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
            let span = self.set.span(group);
            if let Some((i, hit)) = span.first_impact(shape, &moved, horizon, padding) {
                if best.is_none_or(|(_, b)| hit.time < b.time) {
                    best = Some((i, hit));
                }
            }
        }
        best
    }
}
