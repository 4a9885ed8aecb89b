//! The `check_footprint` service: a request is answered on tokio's blocking
//! pool against the state the decision loop took when it arrived. What is
//! refused, and why, is decided by [`PoseRequest::validate`]; here only the
//! messages are read and written.

use super::ros_time::RosTime;
use crate::config::FootprintTextError;
use crate::geometry::Shape;
use crate::model::Status;
use crate::monitor::Monitor;
use crate::planner::{PoseRequest, ValidPoseRequest};
use crate::ros::convert;
use r2r::sat_collision_msgs::srv::CheckFootprint;
use std::sync::Arc;

/// A `check_footprint` request with the state it is answered against.
pub(super) struct ServiceJob {
    pub(super) monitor: Monitor,
    pub(super) robot: Option<Result<Shape, FootprintTextError>>,
    pub(super) fail_safe: bool,
    pub(super) max_checks: f64,
    pub(super) time: Arc<RosTime>,
    pub(super) request: CheckFootprint::Request,
}

impl ServiceJob {
    pub(super) fn answer(self) -> CheckFootprint::Response {
        let request = &self.request;
        let poses = request.poses.len();
        let fail_safe = self.fail_safe;
        let refuse = |status: Status| CheckFootprint::Response {
            valid: false,
            status: status.as_str().to_owned(),
            colliding: vec![fail_safe; poses],
            distance: vec![0.0; poses],
            first_collision: if fail_safe && poses > 0 { 0 } else { -1 },
        };
        // Bounded work: refused before anything is computed.
        let checked = PoseRequest {
            footprint: request.footprint.points.iter().map(convert::point),
            poses: request.poses.iter().map(convert::planar_pose),
            padding: request.padding,
        }
        .validate(
            self.robot.as_ref(),
            self.monitor.obstacles().len(),
            self.max_checks,
        );
        let ValidPoseRequest {
            footprint,
            poses,
            padding,
        } = match checked {
            Ok(valid) => valid,
            Err(status) => return refuse(status),
        };
        // Judged when the answer is ready: inputs that went stale, a clock
        // that jumped or stalled while it was computed make it not valid.
        // (Inputs keep the generation they arrived under: after a jump they
        // read `clock_jumped_back` through the monitor's own rule.)
        let mut monitor = self.monitor;
        let reading = self.time.read();
        monitor.set_clock(reading.generation, reading.cause);
        let result = monitor.check_trajectory(&footprint, &poses, padding, reading.ros);
        CheckFootprint::Response {
            valid: result.valid,
            status: result.status.as_str().to_owned(),
            colliding: result.check.colliding,
            distance: result.check.distance,
            first_collision: result
                .check
                .first_collision
                .and_then(|i| i32::try_from(i).ok())
                .unwrap_or(-1),
        }
    }
}
