//! Planar rigid motions of a body frame over time ([`Motion`]) and the
//! boxes their swept shapes stay in: what the monitor, the broad phase, the
//! scene and the time of impact ([`super::toi`]) share.

use super::{cross, Aabb, Point, Shape, Vector};
use nalgebra::{Isometry2, UnitComplex};
use std::f64::consts::{PI, TAU};

/// A planar rigid motion of a body frame over time, starting at `start`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Motion {
    /// The origin moves along a straight line at constant `velocity` (in
    /// the fixed frame, m/s) while the heading turns at `angular` rad/s
    /// about the origin: a path segment, both linear in time.
    Interpolated {
        /// The pose at time 0.
        start: Isometry2<f64>,
        /// Velocity of the origin, fixed frame (m/s).
        velocity: Vector,
        /// Turn rate (rad/s).
        angular: f64,
    },
    /// A constant body twist: `velocity` (m/s) is in the body frame, the
    /// body turns at `angular` rad/s; the origin moves on an arc (a
    /// rotation about a fixed point when `angular != 0`).
    Twist {
        /// The pose at time 0.
        start: Isometry2<f64>,
        /// Velocity of the origin, body frame (m/s).
        velocity: Vector,
        /// Turn rate (rad/s).
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

    /// The pose at time 0.
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

    /// The same motion started `dt` seconds later: its pose at `dt` is
    /// the new start, its velocities unchanged (`advanced(dt).pose_at(t)
    /// == pose_at(dt + t)`).
    pub fn advanced(&self, dt: f64) -> Motion {
        let start = self.pose_at(dt);
        match *self {
            Motion::Interpolated {
                velocity, angular, ..
            } => Motion::Interpolated {
                start,
                velocity,
                angular,
            },
            Motion::Twist {
                velocity, angular, ..
            } => Motion::Twist {
                start,
                velocity,
                angular,
            },
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

    /// Every number of the motion is finite (and the rotation a unit
    /// complex number of finite parts).
    pub fn is_finite(&self) -> bool {
        let (start, velocity, angular) = match self {
            Motion::Interpolated {
                start,
                velocity,
                angular,
            }
            | Motion::Twist {
                start,
                velocity,
                angular,
            } => (start, velocity, *angular),
        };
        start.translation.vector.iter().all(|x| x.is_finite())
            && start.rotation.re.is_finite()
            && start.rotation.im.is_finite()
            && velocity.iter().all(|x| x.is_finite())
            && angular.is_finite()
    }

    /// Velocity of the body origin (fixed frame, m/s) at the pose `pose`
    /// of this motion.
    pub(crate) fn origin_velocity(&self, pose: &Isometry2<f64>) -> Vector {
        match *self {
            Motion::Interpolated { velocity, .. } => velocity,
            Motion::Twist { velocity, .. } => pose.rotation * velocity,
        }
    }

    /// A box holding `shape` (in the body frame) inflated by `padding` at
    /// every pose over `[0, duration]` (a negative duration is 0).
    ///
    /// The box of a swept polygon is the box of its swept vertices, so each
    /// vertex's path is bounded on its own:
    /// * translation: the boxes of the start and end poses (exact);
    /// * twist: an arc about the fixed centre of rotation, exact (its end
    ///   points plus the circle's axis extremes within the swept angle; for
    ///   a turn below 1e-3 rad, whose centre is far, the chord's box grown
    ///   by the sagitta `chord/2 · tan(angle/4)`);
    /// * turning path segment: cut into spans of at most 5.6° (64 at most),
    ///   on each the box of the origin's segment plus the box of the
    ///   vertex's arc about the origin (a sum of boxes: over by at most the
    ///   smaller of the two per span).
    ///
    /// Grown by `1e-14` of the coordinates against rounding. A non-finite
    /// motion, duration or padding gives the infinite box.
    pub fn swept_aabb(&self, shape: &Shape, padding: f64, duration: f64) -> Aabb {
        let padding = if padding > 0.0 { padding } else { 0.0 };
        if !(self.is_finite() && duration.is_finite() && padding.is_finite()) {
            return EVERYWHERE;
        }
        let sweep = Sweep::new(self, duration.max(0.0), 64);
        let bound = match shape {
            Shape::Convex(p) => sweep.points(p.vertices()),
            Shape::Compound(c) => sweep.points(c.outline()),
            Shape::Circle(c) => sweep
                .points(std::slice::from_ref(&c.center))
                .inflated(c.radius),
        };
        bound.inflated(padding)
    }
}

const EVERYWHERE: Aabb = Aabb {
    min: Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY),
    max: Point::new(f64::INFINITY, f64::INFINITY),
};

/// The poses at both ends of `[0, duration]` and what bounds a body point's
/// path in between.
pub(crate) struct Sweep {
    start: Isometry2<f64>,
    end: Isometry2<f64>,
    /// Angle turned (rad, signed).
    angle: f64,
    about: About,
}

enum About {
    /// No rotation: straight paths.
    Translation,
    /// A path segment, cut into `pieces` equal spans: on each, the box of
    /// the origin's segment plus that of the arc about the moving origin.
    Origin {
        velocity: Vector,
        duration: f64,
        pieces: usize,
    },
    /// A twist: an arc about this fixed point.
    Center(Point),
}

impl Sweep {
    /// `pieces`: at most how many spans a turning path segment is cut into
    /// (one per 5.6° turned).
    pub(crate) fn new(motion: &Motion, duration: f64, pieces: usize) -> Sweep {
        let start = *motion.start();
        let end = motion.pose_at(duration);
        let angle = motion.angular() * duration;
        let about = if angle == 0.0 {
            About::Translation
        } else {
            match *motion {
                Motion::Interpolated { velocity, .. } => About::Origin {
                    velocity,
                    duration,
                    // `as` saturates (and the angle is finite here).
                    pieces: ((angle.abs() / (PI / 32.0)).ceil() as usize).clamp(1, pieces.max(1)),
                },
                Motion::Twist {
                    velocity, angular, ..
                } => About::Center(start * Point::new(-velocity.y / angular, velocity.x / angular)),
            }
        };
        Sweep {
            start,
            end,
            angle,
            about,
        }
    }

    /// A box of the path of body point `p`.
    fn point(&self, p: &Point) -> Aabb {
        match self.about {
            About::Translation => two_points(self.start * p, self.end * p),
            About::Origin {
                velocity,
                duration,
                pieces,
            } => {
                let origin = self.start.translation.vector;
                let at = |i: usize| {
                    let t = duration * i as f64 / pieces as f64;
                    let turn = UnitComplex::new(self.angle * i as f64 / pieces as f64);
                    (
                        Point::from(origin + velocity * t),
                        Point::from(turn * (self.start.rotation * p.coords)),
                    )
                };
                let angle = self.angle / pieces as f64;
                let (mut o0, mut u0) = at(0);
                let mut bound: Option<Aabb> = None;
                for i in 1..=pieces {
                    let (o1, u1) = at(i);
                    let path = two_points(o0, o1);
                    let arc = arc_box(Point::origin(), u0, u1, angle);
                    let sum = Aabb {
                        min: path.min + arc.min.coords,
                        max: path.max + arc.max.coords,
                    };
                    bound = Some(bound.map_or(sum, |b| b.union(&sum)));
                    (o0, u0) = (o1, u1);
                }
                let bound = bound.unwrap_or(EVERYWHERE);
                bound.inflated(1e-14 * bound.magnitude())
            }
            About::Center(center) => arc_box(center, self.start * p, self.end * p, self.angle),
        }
    }

    /// A box of the paths of the body points `points` (not empty).
    pub(crate) fn points(&self, points: &[Point]) -> Aabb {
        let mut iter = points.iter();
        let Some(first) = iter.next() else {
            return EVERYWHERE;
        };
        let bound = iter.fold(self.point(first), |b, p| b.union(&self.point(p)));
        bound.inflated(1e-14 * bound.magnitude())
    }
}

fn two_points(p: Point, q: Point) -> Aabb {
    Aabb {
        min: p.inf(&q),
        max: p.sup(&q),
    }
}

/// A box of the arc about `center` from `x0` to `x1`, turning by `angle`
/// (signed, rad).
fn arc_box(center: Point, x0: Point, x1: Point, angle: f64) -> Aabb {
    let mut bound = two_points(x0, x1);
    let sweep = angle.abs();
    if sweep <= 1e-3 {
        // The arc stays within its sagitta of the chord and projects onto
        // it; no need of the centre, far away for a slow turn (whose
        // coordinates would cost precision).
        let chord = (x1 - x0).norm();
        let sagitta = 0.5 * chord * (0.25 * sweep).tan();
        let margin = 1e-14 * (x0.coords.amax().max(x1.coords.amax()) + chord);
        return bound.inflated(sagitta + margin);
    }
    let r0 = x0 - center;
    let rho = r0.norm();
    for u in [Vector::x(), Vector::y(), -Vector::x(), -Vector::y()] {
        // Angle turned from r0 to u in the direction of the motion.
        let mut delta = cross(&r0, &u).atan2(r0.dot(&u));
        if angle < 0.0 {
            delta = -delta;
        }
        if delta < 0.0 {
            delta += TAU;
        }
        if delta <= sweep {
            let e = center + u * rho;
            bound = bound.union(&two_points(e, e));
        }
    }
    bound.inflated(1e-14 * (center.coords.amax() + rho))
}

/// `sin(x) / x`, stable near 0.
pub(crate) fn sinc(x: f64) -> f64 {
    if x.abs() < 1e-4 {
        1.0 - x * x / 6.0
    } else {
        x.sin() / x
    }
}
