//! Safety check of candidate robot poses, for motion planners.
//!
//! The same check the node serves as `check_footprint`, for planners that
//! link the library directly:
//!
//! ```
//! use nalgebra::{Isometry2, Vector2};
//! use sat_collision::geometry::{Point, Shape};
//! use sat_collision::model::{Obstacle, ObstacleGeometry};
//! use sat_collision::planner::check_poses;
//!
//! let robot = Shape::polygon(&[
//!     Point::new(0.5, 0.3), Point::new(-0.5, 0.3),
//!     Point::new(-0.5, -0.3), Point::new(0.5, -0.3),
//! ]).unwrap();
//! let wall = Obstacle::new("wall", &ObstacleGeometry::Polygon(vec![
//!     Point::new(3.0, -1.0), Point::new(3.2, -1.0), Point::new(3.2, 1.0), Point::new(3.0, 1.0),
//! ]));
//! let trajectory: Vec<Isometry2<f64>> = (0..6)
//!     .map(|k| Isometry2::new(Vector2::new(0.5 * k as f64, 0.0), 0.0))
//!     .collect();
//! let check = check_poses(&robot, &trajectory, 0.05, &[wall]);
//! assert_eq!(check.first_collision, Some(5)); // x = 2.5 m: front at 3.0 m
//! assert!(check.distance[4] > 0.4);
//! ```

use crate::geometry::query;
use crate::geometry::MAX_VERTICES;
use crate::geometry::{Point, Shape};
use crate::model::{Obstacle, Status};
use nalgebra::Isometry2;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Asks a running check to stop; clones share the flag. A check looks at
/// it before every pose (and every segment of a path), so a cancelled
/// check ends within one pose's work.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A flag not yet set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks every check that watches this flag (or a clone) to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// True once [`cancel`](Self::cancel) was called on this flag or a
    /// clone.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// `Err(Cancelled)` once cancelled: `cancel.check()?` in a loop.
    pub fn check(&self) -> Result<(), Cancelled> {
        if self.is_cancelled() {
            Err(Cancelled)
        } else {
            Ok(())
        }
    }
}

/// A check stopped by its [`Cancel`] before it was done: it has no answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cancelled;

/// Outcome per pose.
#[derive(Clone, Debug, PartialEq)]
pub struct PoseCheck {
    /// Per pose: the footprint at that pose touches or overlaps a valid
    /// obstacle.
    pub colliding: Vec<bool>,
    /// Per pose: clearance to the nearest valid obstacle (m); 0 when
    /// colliding, infinite when there is no obstacle.
    pub distance: Vec<f64>,
    /// Index of the first colliding pose.
    pub first_collision: Option<usize>,
    /// Obstacles that could not be checked because they are invalid.
    pub invalid_obstacles: usize,
}

/// Places the robot-frame `footprint` at each pose (in the obstacles'
/// frame) and checks it against every valid obstacle, with `padding` metres
/// around the footprint. Invalid obstacles are counted, not guessed at: the
/// caller decides (the node fails safe).
pub fn check_poses(
    footprint: &Shape,
    poses: &[Isometry2<f64>],
    padding: f64,
    obstacles: &[Obstacle],
) -> PoseCheck {
    uncancelled(|cancel| check_poses_until(footprint, poses, padding, obstacles, cancel))
}

/// Runs a cancellable check with a flag nobody can set: the answer of the
/// check's plain form.
pub(crate) fn uncancelled<T>(check: impl FnOnce(&Cancel) -> Result<T, Cancelled>) -> T {
    match check(&Cancel::new()) {
        Ok(answer) => answer,
        Err(Cancelled) => unreachable!("a new Cancel is never cancelled"),
    }
}

/// [`check_poses`] that stops when `cancel` is set (looked at before
/// every pose).
pub fn check_poses_until(
    footprint: &Shape,
    poses: &[Isometry2<f64>],
    padding: f64,
    obstacles: &[Obstacle],
    cancel: &Cancel,
) -> Result<PoseCheck, Cancelled> {
    let mut colliding = Vec::with_capacity(poses.len());
    let mut distance = Vec::with_capacity(poses.len());
    for pose in poses {
        cancel.check()?;
        let placed = footprint.transformed(pose);
        let placed_box = placed.aabb().inflated(padding);
        let mut hit = false;
        let mut nearest = f64::INFINITY;
        for shape in obstacles.iter().filter_map(|o| o.shape.as_ref().ok()) {
            // A box gap larger than the nearest clearance so far cannot win.
            if placed_box.distance(&shape.aabb()) > nearest {
                continue;
            }
            let contact = query(&placed, shape, padding);
            nearest = nearest.min(contact.distance());
            if contact.colliding() {
                hit = true;
                nearest = 0.0;
                break;
            }
        }
        colliding.push(hit);
        distance.push(nearest);
    }
    Ok(PoseCheck {
        first_collision: colliding.iter().position(|&c| c),
        colliding,
        distance,
        invalid_obstacles: obstacles.iter().filter(|o| o.shape.is_err()).count(),
    })
}

/// A shape's vertices and convex pieces (a circle: one of each), what one
/// SAT pair query costs.
fn vertices_and_pieces(shape: &Shape) -> (f64, f64) {
    match shape {
        Shape::Convex(p) => (p.len() as f64, 1.0),
        Shape::Compound(c) => (
            c.pieces().iter().map(|p| p.len() as f64).sum(),
            c.pieces().len() as f64,
        ),
        Shape::Circle(_) => (1.0, 1.0),
    }
}

/// The worst-case work of checking `footprint` at `poses` poses against
/// `obstacles`, in vertex steps: per pose, the footprint placed (its
/// vertices) and, per valid obstacle, every pair of convex pieces walked
/// (the vertices of both): `poses × (Vf + Σ_o (Vf·Po + Vo·Pf))`, `V` the
/// vertices and `P` the convex pieces of the footprint (`f`) and of each
/// obstacle (`o`). Every obstacle counts, near or far, as a path's swept
/// box or a pose's may reach them all.
pub fn request_cost(footprint: &Shape, poses: usize, obstacles: &[Obstacle]) -> f64 {
    let (vf, pf) = vertices_and_pieces(footprint);
    let per_pose = obstacles
        .iter()
        .filter_map(|o| o.shape.as_ref().ok())
        .map(vertices_and_pieces)
        .fold(vf, |sum, (vo, po)| sum + vf * po + vo * pf);
    poses as f64 * per_pose
}

/// A pose check as asked (the node's `check_footprint` service), before it
/// is validated. The footprint and the poses come as iterators that convert
/// one item at a time, so that a request refused for its size is refused
/// before anything of it is converted.
#[derive(Clone, Debug)]
pub struct PoseRequest<F, P> {
    /// The footprint's points, in the robot frame; none: the robot's own
    /// footprint.
    pub footprint: F,
    /// The poses, in the obstacles' frame; `None` for one that is not a
    /// pose (a field not finite, a zero quaternion).
    pub poses: P,
    /// Padding (m) on top of the configured one.
    pub padding: f64,
}

/// A [`PoseRequest`] that passed [`PoseRequest::validate`].
#[derive(Clone, Debug)]
pub struct ValidPoseRequest {
    /// The footprint, validated (robot frame).
    pub footprint: Shape,
    /// The poses, all of them usable.
    pub poses: Vec<Isometry2<f64>>,
    /// Padding (m) on top of the configured one.
    pub padding: f64,
}

impl<F, P> PoseRequest<F, P>
where
    F: ExactSizeIterator<Item = Point>,
    P: ExactSizeIterator<Item = Option<Isometry2<f64>>>,
{
    /// Checks the request before anything is computed, against the robot's
    /// own footprint (`robot`: none configured, or the configured one and
    /// whether it is valid), the obstacles and the most work one request
    /// may ask for. Refused with the first reason, in this order:
    /// * no footprint given and none configured:
    ///   [`Status::NoRobotFootprint`]; the configured one invalid, or the
    ///   one given of more than [`MAX_VERTICES`] points or not a valid
    ///   polygon: [`Status::InvalidFootprint`] (validating it is bounded
    ///   work);
    /// * more work than `max_checks` vertex steps ([`request_cost`]):
    ///   [`Status::RequestTooLarge`], before any pose is converted;
    /// * padding not finite or negative: [`Status::InvalidPadding`];
    /// * a pose that is not one: [`Status::InvalidPose`].
    pub fn validate<E>(
        self,
        robot: Option<&Result<Shape, E>>,
        obstacles: &[Obstacle],
        max_checks: f64,
    ) -> Result<ValidPoseRequest, Status> {
        let footprint = match self.footprint.len() {
            0 => match robot {
                Some(Ok(shape)) => shape.clone(),
                Some(Err(_)) => return Err(Status::InvalidFootprint),
                None => return Err(Status::NoRobotFootprint),
            },
            n if n > MAX_VERTICES => return Err(Status::InvalidFootprint),
            _ => Shape::polygon(&self.footprint.collect::<Vec<_>>())
                .map_err(|_| Status::InvalidFootprint)?,
        };
        if request_cost(&footprint, self.poses.len(), obstacles) > max_checks {
            return Err(Status::RequestTooLarge);
        }
        if !(self.padding.is_finite() && self.padding >= 0.0) {
            return Err(Status::InvalidPadding);
        }
        let poses = self
            .poses
            .collect::<Option<Vec<_>>>()
            .ok_or(Status::InvalidPose)?;
        Ok(ValidPoseRequest {
            footprint,
            poses,
            padding: self.padding,
        })
    }
}

#[cfg(test)]
mod tests;
