//! What the monitor answers: the whole report, and the decision alone.

use super::{ObstacleOutcome, Status};

/// One report, mirroring `sat_collision_msgs/CollisionReport`.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The footprint touches an obstacle, or (with `fail_safe`) the report
    /// is not valid.
    pub colliding: bool,
    /// Every input was usable: the answer can be trusted.
    pub valid: bool,
    /// [`Status::Ok`] or the first [`Cause`](super::Cause) found.
    pub status: Status,
    /// The frame of the report: the monitor's global frame.
    pub frame_id: String,
    /// Smallest clearance to a valid obstacle (m); 0 when colliding,
    /// infinite when there is none.
    pub min_distance: f64,
    /// Id of the nearest obstacle (the deepest colliding one, else the
    /// closest); empty when there is none.
    pub nearest_obstacle_id: String,
    /// Obstacles in the order of the monitor's obstacles (zones, array, instances).
    pub outcomes: Vec<ObstacleOutcome>,
}

/// The decision alone: what the monitor's `flag` returns, equal to the
/// same fields of the [`Report`] of its `evaluate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flag {
    /// As [`Report::colliding`].
    pub colliding: bool,
    /// As [`Report::valid`].
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
