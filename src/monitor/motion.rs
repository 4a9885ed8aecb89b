//! Where the robot is going: the footprint swept along a path
//! ([`Monitor::check_path`](super::Monitor::check_path), the planners'
//! `check_path`) and along the current velocity
//! ([`Monitor::predict`](super::Monitor::predict), `collision_ahead`): what
//! they answer. The answers themselves are computed in [`super`].
//!
//! Both use the geometry's time of impact ([`crate::geometry::toi`]): exact
//! when the motion is a translation, a lower bound (never later than the
//! true contact) when it turns. Each obstacle group is checked in its own
//! frame, with the motion moved there (one motion per group, not one shape
//! per obstacle), and its index only tries obstacles whose box meets the
//! box the footprint sweeps.

use crate::geometry::Motion;
use crate::geometry::Shape;
use crate::model::Status;
use nalgebra::Isometry2;

/// [`MonitorConfig::time_horizon`](super::MonitorConfig::time_horizon) by
/// default (s).
pub const DEFAULT_TIME_HORIZON: f64 = 2.0;

/// [`MonitorConfig::velocity_timeout`](super::MonitorConfig::velocity_timeout)
/// by default (s).
pub const DEFAULT_VELOCITY_TIMEOUT: f64 = 0.5;

/// An obstacle that moves on its own (a fleet's peer, see
/// [`crate::fleet`]): `shape` in its body frame, placed by `motion` (in
/// its source's frame) from the decision time on, inflated by `padding`
/// (m: how far it may be from where `motion` says). The prediction and the
/// gate's `approach` meet it with both motions
/// ([`crate::geometry::moving_time_of_impact`]).
#[derive(Clone, Debug)]
pub struct MovingObstacle {
    /// Its shape, body frame.
    pub shape: Shape,
    /// Where its body frame is `t` s after the decision.
    pub motion: Motion,
    /// Its uncertainty (m, >= 0).
    pub padding: f64,
    /// Its timed plan, if it published one: its body frame's pose at each
    /// time (absolute, s, strictly increasing; the first entry its pose
    /// at its stamp). Empty: `motion` over time (see
    /// [`pose_at_time`](Self::pose_at_time)).
    pub plan: std::sync::Arc<[(f64, Isometry2<f64>)]>,
    /// The absolute time (s) `motion` starts at (the decision's).
    pub since: f64,
    /// For one whose motion is unknown (a stale peer): it may be anywhere
    /// within `spread · (t − origin)` (m) of its shape at time `t`:
    /// `(origin, spread)`; `padding` is that at the prediction's horizon.
    pub growth: Option<(f64, f64)>,
}

impl MovingObstacle {
    /// Where its body frame is at the absolute time `t`: along its plan
    /// (straight between two poses, the yaw the short way, linear in
    /// time, as [`Motion::segment`]; before the plan its first pose,
    /// after it its last), or by `motion` from `since` (before `since`:
    /// its start).
    pub fn pose_at_time(&self, t: f64) -> Isometry2<f64> {
        let plan = &*self.plan;
        let (Some(first), Some(last)) = (plan.first(), plan.last()) else {
            return self.motion.pose_at((t - self.since).max(0.0));
        };
        if t <= first.0 {
            return first.1;
        }
        if t >= last.0 {
            return last.1;
        }
        let k = plan
            .partition_point(|(time, _)| *time <= t)
            .saturating_sub(1);
        let ((t0, p0), (t1, p1)) = (plan[k], plan[(k + 1).min(plan.len() - 1)]);
        Motion::segment(&p0, &p1, t1 - t0).pose_at(t - t0)
    }

    /// Its uncertainty over `[from, to]` (absolute times): `padding`, or
    /// for one that grows, its growth at `to`.
    pub fn padding_until(&self, to: f64) -> f64 {
        match self.growth {
            Some((origin, spread)) => spread * (to - origin).max(0.0),
            None => self.padding,
        }
    }

    /// The times in `(from, to)` at which its motion changes (its plan's
    /// poses), in order.
    pub fn breaks(&self, from: f64, to: f64) -> impl Iterator<Item = f64> + '_ {
        self.plan
            .iter()
            .map(|(t, _)| *t)
            .filter(move |t| *t > from && *t < to)
    }
}

/// The first contact along a motion.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MotionImpact {
    /// Seconds from the start of the motion.
    pub time: f64,
    /// Index in [`Monitor::obstacles`](super::Monitor::obstacles); `None`
    /// for the fail-safe answer.
    pub obstacle: Option<usize>,
    /// When the contact is with a point of a sensor source: the source's
    /// position in [`MonitorConfig::sources`](super::MonitorConfig::sources)
    /// (and `obstacle` is `None`); name it with
    /// [`Monitor::impact_id`](super::Monitor::impact_id).
    pub source: Option<usize>,
    /// With `source`, when the contact is with one of its cells (a
    /// costmap's cell, a fleet's peer): its position in the source's data.
    pub cell: Option<usize>,
    /// The robot frame's pose at `time`, in the global frame.
    pub pose: Isometry2<f64>,
    /// `time` is the exact first contact; false: a lower bound (rotation).
    pub exact: bool,
}

/// The footprint swept by a prediction, for drawing: `shape` in the body
/// frame moved by `motion` (global frame) over `[0, duration]`.
#[derive(Clone, Debug)]
pub struct Sweep {
    /// The footprint, in the body frame.
    pub shape: Shape,
    /// The motion of the body frame (global frame).
    pub motion: Motion,
    /// Seconds swept.
    pub duration: f64,
}

/// Answer of [`Monitor::predict`](super::Monitor::predict).
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
    /// The status is `Ok`: the prediction can be trusted.
    pub fn valid(&self) -> bool {
        self.status.is_ok()
    }
}

/// Answer of [`Monitor::check_path`](super::Monitor::check_path).
#[derive(Clone, Debug, PartialEq)]
pub struct PathCheck {
    /// The inputs were usable: the answer can be trusted.
    pub valid: bool,
    /// [`Status::Ok`] or why the answer cannot be trusted.
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
