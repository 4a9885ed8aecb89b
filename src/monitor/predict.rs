//! The velocity the monitor holds, and where it takes the robot
//! ([`Monitor::predict`], `collision_ahead`).

use super::inputs::{Twist, Velocity};
use super::motion::{MotionImpact, Prediction, Sweep};
use super::paths::Hit;
use super::placement::Transforms;
use super::sources::first_moving_impact;
use super::state::Monitor;
use crate::geometry::{Impact, Motion, Shape, Vector};
use crate::model::{Cause, Status, Verdict};
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
        let at = self.now(now);
        let velocity = self
            .velocity
            .get_or_insert_with(|| Velocity::new("", stamp, Twist { twist: None }, at));
        velocity.frame_id.clear();
        velocity.frame_id.push_str(frame_id);
        velocity.payload.twist = finite.then_some((linear, angular));
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
    fn velocity_cause(&self, now: f64) -> Option<Cause> {
        match &self.velocity {
            None => Some(Cause::NoVelocity),
            Some(velocity) => velocity.cause(self.now(now), self.config.velocity_timeout),
        }
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
        let fail = |cause: Cause| {
            let verdict = Verdict::of([cause], self.config.fail_safe);
            Prediction {
                status: verdict.status(),
                impact: None,
                ahead: verdict.forces_collision(),
                sweep: None,
            }
        };
        let invalid = self.set.any_invalid().then_some(Cause::InvalidObstacle);
        if let Some(cause) = self
            .verdict(now, [invalid, self.velocity_cause(now)])
            .cause()
        {
            return fail(cause);
        }
        // The verdict is valid: there is a footprint and a finite velocity.
        let (Some(footprint), Some(shape)) = (&self.footprint, self.footprint()) else {
            return fail(Cause::NoFootprint);
        };
        let Some((velocity, (linear, angular))) = self
            .velocity
            .as_ref()
            .and_then(|v| v.payload.twist.map(|t| (v, t)))
        else {
            return fail(Cause::InvalidVelocity);
        };
        let frame = match (velocity.frame_id.as_str(), self.config.base_frame.as_str()) {
            ("", "") => return fail(Cause::UnknownVelocityFrame),
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
                Err(cause) => return fail(cause),
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
        let impact = impact.map(|(target, hit)| MotionImpact {
            time: hit.time,
            obstacle: target.obstacle(),
            source: target.source(),
            cell: target.cell(),
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

    /// The id of what `impact` touches: an obstacle's id, or a source's
    /// name; `None` for the fail-safe answer.
    pub fn impact_id(&self, impact: &MotionImpact) -> Option<&str> {
        match (impact.obstacle, impact.source, impact.cell) {
            (Some(i), _, _) => self.obstacles().get(i).map(|o| o.id.as_str()),
            (None, Some(s), Some(c)) if self.source_is_fleet(s) => self
                .source_cells(s)
                .and_then(|cells| cells.obstacles().get(c))
                .map(|o| o.id.as_str()),
            (None, Some(i), _) => self.config.sources.get(i).map(|s| s.name.as_str()),
            (None, None, _) => None,
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
    ) -> Option<(Hit, Impact)> {
        let mut best: Option<(Hit, Impact)> = None;
        for (group, placement) in self.placed_groups() {
            let moved = match &placement.pose {
                Some(pose) => motion.transformed(pose),
                None => *motion,
            };
            let horizon = best.map_or(duration, |(_, b)| b.time);
            let span = self.set.span(group);
            if let Some((i, hit)) = span.first_impact(shape, &moved, horizon, padding) {
                if best.is_none_or(|(_, b)| hit.time < b.time) {
                    best = Some((Hit::Obstacle(i), hit));
                }
            }
        }
        // Each point source's points, as obstacles of zero size.
        for source in self.placed_sources() {
            let moved = match &source.placement.pose {
                Some(pose) => motion.transformed(pose),
                None => *motion,
            };
            let horizon = best.map_or(duration, |(_, b)| b.time);
            let first = source.points.first_impact(shape, &moved, horizon, padding);
            if let Some((_, hit)) = first {
                if best.is_none_or(|(_, b)| hit.time < b.time) {
                    best = Some((Hit::Source(source.index), hit));
                }
            }
            // A costmap's cells, as obstacles of the source; a fleet's
            // peers, each moving by its own motion.
            let horizon = best.map_or(duration, |(_, b)| b.time);
            let first = if source.moving.is_empty() {
                source
                    .cells
                    .all()
                    .first_impact(shape, &moved, horizon, padding)
            } else {
                first_moving_impact(shape, &moved, source.moving, horizon, padding)
            };
            if let Some((cell, hit)) = first {
                if best.is_none_or(|(_, b)| hit.time < b.time) {
                    best = Some((Hit::Cell(source.index, cell), hit));
                }
            }
        }
        best
    }
}
