//! What the monitor answers: the whole report, and the decision alone.

use super::{ObstacleOutcome, Status};

/// One report, mirroring `sat_collision_msgs/CollisionReport`.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub colliding: bool,
    pub valid: bool,
    /// [`Status::Ok`] or the first [`Cause`](super::Cause) found.
    pub status: Status,
    pub frame_id: String,
    pub min_distance: f64,
    pub nearest_obstacle_id: String,
    /// Obstacles in the order of the monitor's obstacles (zones, array, instances).
    pub outcomes: Vec<ObstacleOutcome>,
}

/// The decision alone: what the monitor's `flag` returns, equal to the
/// same fields of the [`Report`] of its `evaluate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flag {
    pub colliding: bool,
    pub valid: bool,
    /// [`Status::Ok`] or the first [`Cause`](super::Cause) found.
    pub status: Status,
}

impl Default for Report {
    /// An empty report, not valid: nothing has been decided yet.
    fn default() -> Self {
        Report {
            colliding: false,
            valid: false,
            status: Status::NoFootprint,
            frame_id: String::new(),
            min_distance: f64::INFINITY,
            nearest_obstacle_id: String::new(),
            outcomes: Vec::new(),
        }
    }
}
