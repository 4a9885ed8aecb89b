//! The `check_footprint` and `check_path` services: a request is answered
//! on tokio's blocking pool against the state the decision loop took when
//! it arrived. A request is read natively ([`CheckedRequest`]: frame ids
//! and sizes checked before it is copied); what is refused then, and why,
//! is decided by [`PoseRequest::validate`] (both services bound their work
//! the same way: its vertex steps, [`crate::planner::request_cost`], at
//! most `max_service_checks`); here only the messages are read and
//! written, and a path's frames looked up. Every job watches the node's
//! [`Cancel`]: at shutdown a running one stops within a pose and is not
//! answered.

use super::ros_time::RosTime;
use crate::config::FootprintTextError;
use crate::geometry::Shape;
use crate::model::{Status, Verdict};
use crate::monitor::{path_times, Monitor, TrajectoryCheck, Transforms};
use crate::planner::{Cancel, Cancelled, PoseCheck, PoseRequest, ValidPoseRequest};
use crate::ros::convert;
use crate::ros::inputs::{seconds_of, CheckedRequest};
use crate::ros::tf::TfBuffer;
use nalgebra::Isometry2;
use r2r::geometry_msgs::msg::Pose;
use r2r::sat_collision_msgs::srv::{CheckFootprint, CheckPath};
use std::sync::{Arc, Mutex};

/// A `check_footprint` request with the state it is answered against.
pub(super) struct ServiceJob {
    pub(super) monitor: Monitor,
    pub(super) robot: Option<Result<Shape, FootprintTextError>>,
    pub(super) fail_safe: bool,
    pub(super) max_checks: f64,
    pub(super) time: Arc<RosTime>,
    pub(super) cancel: Cancel,
    pub(super) request: CheckedRequest<CheckFootprint::Request>,
}

impl ServiceJob {
    /// The answer; `Err` when the node's [`Cancel`] stopped it.
    pub(super) fn answer(self) -> Result<CheckFootprint::Response, Cancelled> {
        let request = &self.request.message;
        let poses = self.request.poses;
        let fail_safe = self.fail_safe;
        let refuse = |status: Status| refused_footprint(status, poses, fail_safe);
        if let Some(status) = self.request.refused {
            return Ok(refuse(status));
        }
        // Bounded work: refused before anything is computed.
        let checked = PoseRequest {
            footprint: request.footprint.points.iter().map(convert::point),
            poses: request.poses.iter().map(convert::planar_pose),
            padding: request.padding,
        }
        .validate(
            self.robot.as_ref(),
            self.monitor.obstacles(),
            self.max_checks,
        );
        let ValidPoseRequest {
            footprint,
            poses,
            padding,
        } = match checked {
            Ok(valid) => valid,
            Err(status) => return Ok(refuse(status)),
        };
        // Judged when the answer is ready: inputs that went stale, a clock
        // that jumped or stalled while it was computed make it not valid.
        // (Inputs keep the generation they arrived under: after a jump they
        // read `clock_jumped_back` through the monitor's own rule.)
        let mut monitor = self.monitor;
        let reading = self.time.read();
        monitor.set_clock(reading.generation, reading.cause);
        let result = monitor.check_trajectory_until(
            &footprint,
            &poses,
            padding,
            reading.ros,
            &self.cancel,
        )?;
        Ok(footprint_response(result))
    }
}

/// A refused `check_footprint` request: nothing computed (every distance
/// 0), judged like any answer that cannot be trusted.
fn refused_footprint(status: Status, poses: usize, fail_safe: bool) -> CheckFootprint::Response {
    let nothing = PoseCheck {
        colliding: vec![false; poses],
        distance: vec![0.0; poses],
        first_collision: None,
        invalid_obstacles: 0,
    };
    footprint_response(TrajectoryCheck::judged(
        Verdict::refused(status, fail_safe),
        nothing,
    ))
}

/// The answer while the node is not active (lifecycle): `inactive`, not
/// valid, fail-safe with `fail_safe`.
pub(super) fn inactive_footprint(
    request: &CheckedRequest<CheckFootprint::Request>,
    fail_safe: bool,
) -> CheckFootprint::Response {
    refused_footprint(Status::Inactive, request.poses, fail_safe)
}

/// The answer while the node is not active (lifecycle).
pub(super) fn inactive_path(
    request: &CheckedRequest<CheckPath::Request>,
    fail_safe: bool,
) -> CheckPath::Response {
    refused_path(
        Status::Inactive,
        request.poses,
        request.first_pose.as_ref(),
        fail_safe,
    )
}

/// A refused `check_path` request: nothing computed (every clearance 0),
/// judged like any answer that cannot be trusted (a fail-safe contact at
/// the first pose, as sent).
fn refused_path(
    status: Status,
    count: usize,
    first_pose: Option<&Pose>,
    fail_safe: bool,
) -> CheckPath::Response {
    let verdict = Verdict::refused(status, fail_safe);
    let first = first_pose.filter(|_| verdict.forces_collision());
    CheckPath::Response {
        valid: verdict.valid(),
        status: verdict.status().as_str().to_owned(),
        first_collision: if first.is_some() { 0 } else { -1 },
        time_to_collision: if first.is_some() { 0.0 } else { -1.0 },
        distance_to_collision: if first.is_some() { 0.0 } else { -1.0 },
        obstacle_id: String::new(),
        collision_pose: first.cloned().unwrap_or_default(),
        clearance: vec![0.0; count],
    }
}

/// The `check_footprint` response for an answer.
fn footprint_response(result: TrajectoryCheck) -> CheckFootprint::Response {
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

/// A `check_path` request with the state it is answered against.
pub(super) struct PathJob {
    pub(super) monitor: Monitor,
    pub(super) robot: Option<Result<Shape, FootprintTextError>>,
    pub(super) fail_safe: bool,
    pub(super) max_checks: f64,
    pub(super) time: Arc<RosTime>,
    pub(super) tf: Arc<Mutex<TfBuffer>>,
    pub(super) cancel: Cancel,
    pub(super) request: CheckedRequest<CheckPath::Request>,
}

impl PathJob {
    /// The answer; `Err` when the node's [`Cancel`] stopped it.
    pub(super) fn answer(self) -> Result<CheckPath::Response, Cancelled> {
        let request = &self.request.message;
        let path = &request.path;
        let count = self.request.poses;
        let fail_safe = self.fail_safe;
        let first_pose = self.request.first_pose.as_ref();
        let refuse = |status: Status| refused_path(status, count, first_pose, fail_safe);
        if let Some(status) = self.request.refused {
            return Ok(refuse(status));
        }
        let checked = PoseRequest {
            footprint: request.footprint.points.iter().map(convert::point),
            poses: path.poses.iter().map(|p| convert::planar_pose(&p.pose)),
            padding: request.padding,
        }
        .validate(
            self.robot.as_ref(),
            self.monitor.obstacles(),
            self.max_checks,
        );
        let ValidPoseRequest {
            footprint,
            poses,
            padding,
        } = match checked {
            Ok(valid) => valid,
            Err(status) => return Ok(refuse(status)),
        };
        let mut monitor = self.monitor;
        let reading = self.time.read();
        monitor.set_clock(reading.generation, reading.cause);
        // Each pose's frame (its own, else the path's; every one checked
        // as read) into the global frame, with the latest transforms; one
        // lookup per run of poses in the same frame.
        let global = monitor.frame_id().to_owned();
        let tolerance = monitor.config().transform_tolerance;
        let mut in_global = Vec::with_capacity(poses.len());
        {
            let tf = super::threads::lock(&self.tf);
            let mut last: Option<(&str, Isometry2<f64>)> = None;
            for (stamped, pose) in path.poses.iter().zip(&poses) {
                let frame = match stamped.header.frame_id.as_str() {
                    "" => path.header.frame_id.as_str(),
                    own => own,
                };
                let to_global = match last {
                    Some((f, t)) if f == frame => t,
                    // No global frame yet (nothing received): the monitor
                    // answers `no_obstacles` (or another input status).
                    _ if frame.is_empty() || global.is_empty() || frame == global => {
                        Isometry2::identity()
                    }
                    _ => match Transforms::lookup(
                        &tf.tree,
                        &global,
                        frame,
                        0.0,
                        reading.ros,
                        tolerance,
                    ) {
                        Ok(t) => t,
                        Err(cause) => return Ok(refuse(Status::from(cause))),
                    },
                };
                last = Some((frame, to_global));
                in_global.push(to_global * pose);
            }
        }
        let stamps: Vec<f64> = path
            .poses
            .iter()
            .map(|p| seconds_of(&p.header.stamp))
            .collect();
        let times = path_times(&stamps);
        let result = monitor.check_path_until(
            &footprint,
            &in_global,
            &times,
            padding,
            reading.ros,
            &self.cancel,
        )?;
        let impact = result.impact;
        Ok(CheckPath::Response {
            valid: result.valid,
            status: result.status.as_str().to_owned(),
            first_collision: result
                .first_collision
                .and_then(|i| i32::try_from(i).ok())
                .unwrap_or(-1),
            time_to_collision: impact.map_or(-1.0, |i| i.time),
            distance_to_collision: result.distance_to_collision.unwrap_or(-1.0),
            obstacle_id: impact
                .and_then(|i| monitor.impact_id(&i))
                .map(str::to_owned)
                .unwrap_or_default(),
            collision_pose: impact.map(|i| pose_msg(&i.pose)).unwrap_or_default(),
            clearance: result.clearance,
        })
    }
}

/// A planar pose as a `geometry_msgs/Pose` (z 0, yaw about z).
fn pose_msg(pose: &Isometry2<f64>) -> Pose {
    let half = 0.5 * pose.rotation.angle();
    let mut msg = Pose::default();
    msg.position.x = pose.translation.x;
    msg.position.y = pose.translation.y;
    msg.orientation.z = half.sin();
    msg.orientation.w = half.cos();
    msg
}
