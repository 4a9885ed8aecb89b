//! Time of impact: the first time a moving footprint touches an obstacle.
//!
//! Shape A is given in its own (body) frame and placed by a [`Motion`] at
//! every time `t` in `[0, duration]`; shape B does not move. The answer is
//! the first `t` at which A, inflated by `padding`, touches or overlaps B
//! (closed sets, the tolerance policy of [`super::query`]).
//!
//! * Already touching at `t = 0`: time 0 with the contact of [`query`]
//!   (depth and MTV).
//! * Otherwise, conservative advancement: the clearance `d` at `t` cannot
//!   shrink faster than the fastest point of A approaches B, so no contact
//!   happens before `t + d / rate`. Every step is a proven lower bound of
//!   the first contact: the time reported is never later than the true
//!   one.

use super::query::{query, Contact};
use super::{length_tolerance, Aabb, Point, Shape, Vector};
use nalgebra::{Isometry2, UnitComplex};

/// Most advancement steps before giving up on convergence: the time
/// reached is then reported as a (conservative) contact.
pub const MAX_ADVANCEMENT_STEPS: usize = 256;

/// A planar rigid motion of a body frame over time, starting at `start`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Motion {
    /// The origin moves along a straight line at constant `velocity` (in
    /// the fixed frame, m/s) while the heading turns at `angular` rad/s:
    /// a path segment, both linear in time.
    Interpolated {
        start: Isometry2<f64>,
        velocity: Vector,
        angular: f64,
    },
    /// A constant body twist: `velocity` (m/s) is in the body frame, the
    /// body turns at `angular` rad/s; the origin moves on an arc.
    Twist {
        start: Isometry2<f64>,
        velocity: Vector,
        angular: f64,
    },
}

impl Motion {
    /// From pose `from` to pose `to` in `duration` seconds (`> 0`): the
    /// origin along the straight line, the yaw the short way round.
    pub fn segment(from: &Isometry2<f64>, to: &Isometry2<f64>, duration: f64) -> Motion {
        let delta_yaw = (from.rotation.inverse() * to.rotation).angle();
        let (velocity, angular) = if duration > 0.0 {
            (
                (to.translation.vector - from.translation.vector) / duration,
                delta_yaw / duration,
            )
        } else {
            (Vector::zeros(), 0.0)
        };
        Motion::Interpolated {
            start: *from,
            velocity,
            angular,
        }
    }

    /// A constant body twist `(vx, vy, wz)` from `start`.
    pub fn twist(start: &Isometry2<f64>, velocity: Vector, angular: f64) -> Motion {
        Motion::Twist {
            start: *start,
            velocity,
            angular,
        }
    }

    pub fn start(&self) -> &Isometry2<f64> {
        match self {
            Motion::Interpolated { start, .. } | Motion::Twist { start, .. } => start,
        }
    }

    /// Turn rate (rad/s).
    pub fn angular(&self) -> f64 {
        match *self {
            Motion::Interpolated { angular, .. } | Motion::Twist { angular, .. } => angular,
        }
    }

    /// Speed of the origin (m/s), constant in both kinds.
    pub fn speed(&self) -> f64 {
        match self {
            Motion::Interpolated { velocity, .. } | Motion::Twist { velocity, .. } => {
                velocity.norm()
            }
        }
    }

    /// No rotation: every point of the body moves along the same straight
    /// line at the same velocity.
    pub fn is_translation(&self) -> bool {
        self.angular() == 0.0
    }

    /// The pose of the body frame at time `t`.
    pub fn pose_at(&self, t: f64) -> Isometry2<f64> {
        match *self {
            Motion::Interpolated {
                start,
                velocity,
                angular,
            } => Isometry2::from_parts(
                (start.translation.vector + velocity * t).into(),
                UnitComplex::new(angular * t) * start.rotation,
            ),
            Motion::Twist {
                start,
                velocity,
                angular,
            } => {
                let x = angular * t;
                // sin(x)/w and (1 - cos(x))/w, stable for small w.
                let half = 0.5 * x;
                let (sinc, sinc_half) = (sinc(x), sinc(half));
                let s = t * sinc;
                let c = t * half * sinc_half * sinc_half;
                let body = Vector::new(
                    s * velocity.x - c * velocity.y,
                    c * velocity.x + s * velocity.y,
                );
                Isometry2::from_parts(
                    (start.translation.vector + start.rotation * body).into(),
                    start.rotation * UnitComplex::new(x),
                )
            }
        }
    }

    /// The same motion seen from another fixed frame: `frame` takes points
    /// of the motion's frame to the other.
    pub fn transformed(&self, frame: &Isometry2<f64>) -> Motion {
        match *self {
            Motion::Interpolated {
                start,
                velocity,
                angular,
            } => Motion::Interpolated {
                start: frame * start,
                velocity: frame.rotation * velocity,
                angular,
            },
            Motion::Twist {
                start,
                velocity,
                angular,
            } => Motion::Twist {
                start: frame * start,
                velocity,
                angular,
            },
        }
    }

    /// A box holding `shape` (in the body frame) inflated by `padding` at
    /// every pose over `[0, duration]`.
    pub fn swept_aabb(&self, shape: &Shape, padding: f64, duration: f64) -> Aabb {
        let padding = padding.max(0.0);
        let duration = duration.max(0.0);
        if self.is_translation() {
            let start = shape.transformed(self.start()).aabb();
            let end = shape.transformed(&self.pose_at(duration)).aabb();
            return start.union(&end).inflated(padding);
        }
        // Every point of the body stays within `radius` of the origin, and
        // the origin within the box of its path.
        let radius = body_radius(shape) + padding;
        let origin = self.origin_aabb(duration);
        origin.inflated(radius)
    }

    /// A box holding the origin's path over `[0, duration]`.
    fn origin_aabb(&self, duration: f64) -> Aabb {
        let p0 = Point::from(self.start().translation.vector);
        let p1 = Point::from(self.pose_at(duration).translation.vector);
        let mut aabb = Aabb { min: p0, max: p0 }.union(&Aabb { min: p1, max: p1 });
        if let Motion::Twist {
            velocity, angular, ..
        } = *self
        {
            if angular != 0.0 {
                // The arc stays within its circle; include the circle's
                // extreme points the arc passes (bounded by the chord
                // box grown by the sagitta, here simply the whole circle
                // clipped to what the speed allows).
                let reach = velocity.norm() * duration;
                let radius = velocity.norm() / angular.abs();
                let grow = reach.min(2.0 * radius);
                aabb = aabb.inflated(grow);
            }
        }
        aabb
    }
}

fn sinc(x: f64) -> f64 {
    if x.abs() < 1e-4 {
        1.0 - x * x / 6.0
    } else {
        x.sin() / x
    }
}

/// Farthest point of `shape` from its frame's origin (m).
pub fn body_radius(shape: &Shape) -> f64 {
    let aabb = shape.aabb();
    let far = |a: f64, b: f64| a.abs().max(b.abs());
    match shape {
        Shape::Circle(c) => c.center().coords.norm() + c.radius(),
        Shape::Convex(p) => p
            .vertices()
            .iter()
            .map(|v| v.coords.norm())
            .fold(0.0, f64::max),
        Shape::Compound(c) => c
            .outline()
            .iter()
            .map(|v| v.coords.norm())
            .fold(0.0, f64::max)
            .min(far(aabb.min.x, aabb.max.x).hypot(far(aabb.min.y, aabb.max.y))),
    }
}

/// First contact of a moving shape with a fixed one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Impact {
    /// Time of first contact (s) in `[0, duration]`; 0 when already
    /// touching at the start.
    pub time: f64,
    /// The contact at `time` (A placed at `motion.pose_at(time)`), in the
    /// fixed frame: depth and MTV when overlapping at the start, a touch
    /// (depth 0) or a clearance within the tolerance otherwise.
    pub contact: Contact,
    /// True when `time` is the exact first contact (within the tolerance);
    /// false when it is a lower bound (never later than the contact).
    pub exact: bool,
}

/// The first time in `[0, duration]` at which `a` (body frame) placed by
/// `motion`, inflated by `padding`, touches `b`; `None` when it does not.
pub fn time_of_impact(
    a: &Shape,
    motion: &Motion,
    duration: f64,
    b: &Shape,
    padding: f64,
) -> Option<Impact> {
    let duration = if duration.is_finite() {
        duration.max(0.0)
    } else {
        0.0
    };
    let rate_bound = motion.speed() + motion.angular().abs() * body_radius(a);
    let mut t = 0.0;
    for _ in 0..MAX_ADVANCEMENT_STEPS {
        let placed = a.transformed(&motion.pose_at(t));
        let contact = query(&placed, b, padding);
        if contact.colliding() {
            return Some(Impact {
                time: t,
                contact,
                exact: true,
            });
        }
        let tol = length_tolerance(placed.aabb().magnitude().max(b.aabb().magnitude()));
        if rate_bound.is_nan() || rate_bound <= 0.0 {
            return None;
        }
        // Step a hair short of the bound so the contact is met from
        // outside, within the tolerance.
        let step = (contact.distance() - 0.5 * tol).max(0.0) / rate_bound;
        if step <= 0.0 {
            return Some(Impact {
                time: t,
                contact,
                exact: false,
            });
        }
        t += step;
        if t > duration {
            return None;
        }
    }
    let contact = query(&a.transformed(&motion.pose_at(t)), b, padding);
    Some(Impact {
        time: t,
        contact,
        exact: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(cx: f64, cy: f64, half: f64) -> Shape {
        Shape::polygon(&[
            Point::new(cx - half, cy - half),
            Point::new(cx + half, cy - half),
            Point::new(cx + half, cy + half),
            Point::new(cx - half, cy + half),
        ])
        .unwrap()
    }

    #[test]
    fn translation_meets_a_wall() {
        let robot = square(0.0, 0.0, 0.5);
        let wall = Shape::polygon(&[
            Point::new(3.0, -2.0),
            Point::new(3.01, -2.0),
            Point::new(3.01, 2.0),
            Point::new(3.0, 2.0),
        ])
        .unwrap();
        let motion = Motion::segment(
            &Isometry2::identity(),
            &Isometry2::new(Vector::new(5.0, 0.0), 0.0),
            5.0,
        );
        let hit = time_of_impact(&robot, &motion, 5.0, &wall, 0.0).unwrap();
        assert!((hit.time - 2.5).abs() < 1e-9, "{hit:?}");
    }

    #[test]
    fn twist_pose_matches_integration() {
        let motion = Motion::twist(
            &Isometry2::new(Vector::new(1.0, 2.0), 0.3),
            Vector::new(0.7, 0.1),
            0.9,
        );
        // Euler integration of the body twist.
        let (mut x, mut y, mut th) = (1.0_f64, 2.0_f64, 0.3_f64);
        let dt = 1e-5;
        for _ in 0..200_000 {
            x += (0.7 * th.cos() - 0.1 * th.sin()) * dt;
            y += (0.7 * th.sin() + 0.1 * th.cos()) * dt;
            th += 0.9 * dt;
        }
        let pose = motion.pose_at(2.0);
        assert!((pose.translation.x - x).abs() < 1e-4);
        assert!((pose.translation.y - y).abs() < 1e-4);
        assert!((pose.rotation.angle() - th).abs() < 1e-9);
    }
}
