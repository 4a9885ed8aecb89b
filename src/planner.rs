//! Safety check of candidate robot poses, for motion planners.
//!
//! The same check the node serves as `check_footprint`, for planners that
//! link the library directly:
//!
//! ```
//! use nalgebra::{Isometry2, Vector2};
//! use sat_collision::broadphase::ObstacleIndex;
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
//! // Indexed once, for as many checks as the planner asks.
//! let obstacles = ObstacleIndex::new(vec![wall]);
//! let check = check_poses(&robot, &trajectory, 0.05, &obstacles);
//! assert_eq!(check.first_collision, Some(5)); // x = 2.5 m: front at 3.0 m
//! assert!(check.distance[4] > 0.4);
//! ```

use crate::broadphase::{uncancelled, ObstacleIndex};
use crate::geometry::MAX_VERTICES;
use crate::geometry::{Point, Shape};
use crate::model::{Obstacle, Status};
use nalgebra::Isometry2;

pub use crate::broadphase::{Cancel, Cancelled, PoseCheck};

/// Places the robot-frame `footprint` at each pose (in the obstacles'
/// frame) and checks it against every valid obstacle of `obstacles`, with
/// `padding` metres around the footprint. Invalid obstacles are counted,
/// not guessed at: the caller decides (the node fails safe). The index is
/// built once for any number of checks
/// ([`ObstacleIndex::new`](crate::broadphase::ObstacleIndex::new)); the
/// check is the engine's
/// ([`Span::check_poses`](crate::broadphase::Span::check_poses)).
pub fn check_poses(
    footprint: &Shape,
    poses: &[Isometry2<f64>],
    padding: f64,
    obstacles: &ObstacleIndex,
) -> PoseCheck {
    uncancelled(|cancel| check_poses_until(footprint, poses, padding, obstacles, cancel))
}

/// [`check_poses`] that stops when `cancel` is set (looked at before
/// every pose).
pub fn check_poses_until(
    footprint: &Shape,
    poses: &[Isometry2<f64>],
    padding: f64,
    obstacles: &ObstacleIndex,
    cancel: &Cancel,
) -> Result<PoseCheck, Cancelled> {
    obstacles
        .all()
        .check_poses(footprint, poses, padding, cancel)
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
