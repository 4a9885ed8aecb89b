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

use crate::geometry::query::query;
use crate::geometry::Shape;
use crate::model::Obstacle;
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
