//! What the layers above geometry exchange: obstacles, per-obstacle
//! outcomes, reports and typed statuses.
//!
//! Depends on [`crate::geometry`] only. The broad phase, the planner check,
//! the monitor, the scene files and the ROS edge all speak these types.

mod obstacle;
mod outcome;
mod report;
mod status;
mod verdict;

pub use obstacle::{Obstacle, ObstacleGeometry};
pub use outcome::{summarize, ObstacleOutcome, Summary};
pub use report::{Flag, PeerOutcome, PeerStatus, Report, SourceOutcome};
pub use status::{Cause, Rejection, Status};
pub use verdict::{FirstCause, Verdict};
