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

use crate::geometry::polygon::MAX_VERTICES;
use crate::geometry::query::query;
use crate::geometry::{Point, Shape};
use crate::model::{Obstacle, Status};
use nalgebra::Isometry2;

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
    let mut colliding = Vec::with_capacity(poses.len());
    let mut distance = Vec::with_capacity(poses.len());
    for pose in poses {
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
    PoseCheck {
        first_collision: colliding.iter().position(|&c| c),
        colliding,
        distance,
        invalid_obstacles: obstacles.iter().filter(|o| o.shape.is_err()).count(),
    }
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
    pub footprint: Shape,
    pub poses: Vec<Isometry2<f64>>,
    pub padding: f64,
}

impl<F, P> PoseRequest<F, P>
where
    F: ExactSizeIterator<Item = Point>,
    P: ExactSizeIterator<Item = Option<Isometry2<f64>>>,
{
    /// Checks the request before anything is computed, against the robot's
    /// own footprint (`robot`: none configured, or the configured one and
    /// whether it is valid), the number of obstacles and the most
    /// pose–obstacle pairs one request may check. Refused with the first
    /// reason, in this order:
    /// * more pairs than `max_checks` (poses × obstacles, at least one
    ///   obstacle counted): [`Status::RequestTooLarge`];
    /// * no footprint given and none configured:
    ///   [`Status::NoRobotFootprint`]; the configured one invalid, or the
    ///   one given of more than [`MAX_VERTICES`] points or not a valid
    ///   polygon: [`Status::InvalidFootprint`];
    /// * padding not finite or negative: [`Status::InvalidPadding`];
    /// * a pose that is not one: [`Status::InvalidPose`].
    pub fn validate<E>(
        self,
        robot: Option<&Result<Shape, E>>,
        obstacles: usize,
        max_checks: f64,
    ) -> Result<ValidPoseRequest, Status> {
        let pairs = self.poses.len() as f64 * obstacles.max(1) as f64;
        if pairs > max_checks {
            return Err(Status::RequestTooLarge);
        }
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
mod tests {
    use super::*;
    use nalgebra::Vector2;

    fn square(half: f64) -> Vec<Point> {
        vec![
            Point::new(-half, -half),
            Point::new(half, -half),
            Point::new(half, half),
            Point::new(-half, half),
        ]
    }

    fn pose(x: f64) -> Option<Isometry2<f64>> {
        Some(Isometry2::new(Vector2::new(x, 0.0), 0.0))
    }

    type Request =
        PoseRequest<std::vec::IntoIter<Point>, std::vec::IntoIter<Option<Isometry2<f64>>>>;

    fn request(footprint: Vec<Point>, poses: Vec<Option<Isometry2<f64>>>, padding: f64) -> Request {
        PoseRequest {
            footprint: footprint.into_iter(),
            poses: poses.into_iter(),
            padding,
        }
    }

    /// The robot's own footprint: valid, invalid, none configured.
    fn robot(kind: &str) -> Option<Result<Shape, String>> {
        match kind {
            "ok" => Some(Ok(Shape::polygon(&square(0.5)).expect("a square"))),
            "bad" => Some(Err("two points".to_owned())),
            _ => None,
        }
    }

    fn refusal(
        request: Request,
        robot_kind: &str,
        obstacles: usize,
        max_checks: f64,
    ) -> Option<Status> {
        request
            .validate(robot(robot_kind).as_ref(), obstacles, max_checks)
            .err()
    }

    #[test]
    fn a_valid_request_keeps_its_footprint_poses_and_padding() {
        let valid = request(square(0.25), vec![pose(0.0), pose(1.0)], 0.1)
            .validate(robot("none").as_ref(), 3, 6.0)
            .expect("valid");
        assert_eq!(
            valid.footprint,
            Shape::polygon(&square(0.25)).expect("a square")
        );
        assert_eq!(valid.poses, vec![pose(0.0).unwrap(), pose(1.0).unwrap()]);
        assert_eq!(valid.padding, 0.1);
        // No footprint given: the robot's own.
        let own = request(vec![], vec![pose(0.0)], 0.0)
            .validate(robot("ok").as_ref(), 0, 1.0)
            .expect("valid");
        assert_eq!(
            own.footprint,
            Shape::polygon(&square(0.5)).expect("a square")
        );
    }

    #[test]
    fn too_many_pairs_are_refused_first() {
        // 3 poses x 4 obstacles = 12 pairs.
        let poses = || vec![pose(0.0), None, pose(2.0)];
        assert_eq!(
            refusal(request(vec![], poses(), f64::NAN), "none", 4, 11.0),
            Some(Status::RequestTooLarge)
        );
        assert_eq!(
            refusal(request(square(0.5), poses(), 0.0), "ok", 4, 12.0),
            Some(Status::InvalidPose)
        );
        // No obstacle still counts one pair per pose.
        assert_eq!(
            refusal(request(square(0.5), poses(), 0.0), "ok", 0, 2.0),
            Some(Status::RequestTooLarge)
        );
    }

    #[test]
    fn the_footprint_is_the_given_one_or_the_robots() {
        let one = || vec![pose(0.0)];
        assert_eq!(
            refusal(request(vec![], one(), 0.0), "none", 1, 10.0),
            Some(Status::NoRobotFootprint)
        );
        assert_eq!(
            refusal(request(vec![], one(), 0.0), "bad", 1, 10.0),
            Some(Status::InvalidFootprint)
        );
        // A footprint given is used even when none is configured, and
        // refused when it is not a polygon, whatever the robot's.
        assert_eq!(
            refusal(request(square(0.5), one(), 0.0), "none", 1, 10.0),
            None
        );
        let line = vec![Point::new(0.0, 0.0), Point::new(1.0, 0.0)];
        assert_eq!(
            refusal(request(line, one(), 0.0), "ok", 1, 10.0),
            Some(Status::InvalidFootprint)
        );
        let ring: Vec<Point> = (0..=MAX_VERTICES)
            .map(|k| {
                let a = k as f64 * std::f64::consts::TAU / (MAX_VERTICES + 1) as f64;
                Point::new(a.cos(), a.sin())
            })
            .collect();
        assert_eq!(
            refusal(request(ring, one(), 0.0), "ok", 1, 10.0),
            Some(Status::InvalidFootprint)
        );
        // An invalid footprint is refused before the padding and the poses.
        assert_eq!(
            refusal(request(vec![], vec![None], -1.0), "bad", 1, 10.0),
            Some(Status::InvalidFootprint)
        );
    }

    #[test]
    fn padding_then_poses() {
        for padding in [-0.1, f64::NAN, f64::INFINITY] {
            assert_eq!(
                refusal(request(square(0.5), vec![None], padding), "none", 1, 10.0),
                Some(Status::InvalidPadding),
                "{padding}"
            );
        }
        assert_eq!(
            refusal(
                request(square(0.5), vec![pose(0.0), None], 0.0),
                "none",
                1,
                10.0
            ),
            Some(Status::InvalidPose)
        );
        assert_eq!(
            refusal(request(square(0.5), vec![], 0.0), "none", 1, 10.0),
            None
        );
    }
}
