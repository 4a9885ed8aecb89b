//! Conversions between ROS messages and the library's types.

use crate::geometry::{Point, Vector};
use crate::monitor::{Obstacle, ObstacleGeometry, ObstacleOutcome, Report};
use nalgebra::{Isometry2, Vector2};
use r2r::builtin_interfaces::msg::Time;
use r2r::geometry_msgs::msg::{Point32, Polygon, Pose, Vector3};
use r2r::sat_collision_msgs::msg::{CollisionReport, ObstacleResult};
use r2r::std_msgs::msg::Header;
use std::time::Duration;

/// `Point32` (float32, as `geometry_msgs/Polygon` stores them) to f64.
pub fn points(polygon: &Polygon) -> Vec<Point> {
    let mut out = Vec::with_capacity(polygon.points.len());
    points_into(polygon, &mut out);
    out
}

/// [`points`] into a reused buffer (cleared first).
pub fn points_into(polygon: &Polygon, out: &mut Vec<Point>) {
    out.clear();
    out.extend(
        polygon
            .points
            .iter()
            .map(|p: &Point32| Point::new(f64::from(p.x), f64::from(p.y))),
    );
}

pub fn obstacle(msg: &r2r::sat_collision_msgs::msg::Obstacle) -> Obstacle {
    let geometry = ObstacleGeometry::from_points_and_radius(points(&msg.polygon), msg.radius);
    Obstacle::new(msg.id.clone(), &geometry)
}

/// The id an obstacle instance gets in reports: `instance_<id>`.
pub fn instance_id(id: i64) -> String {
    format!("instance_{id}")
}

/// A planar pose: position and yaw from the quaternion. `None` when any
/// field is not finite or the quaternion has no length.
pub fn planar_pose(pose: &Pose) -> Option<Isometry2<f64>> {
    let q = &pose.orientation;
    let p = &pose.position;
    let values = [p.x, p.y, q.x, q.y, q.z, q.w];
    if values.iter().any(|v| !v.is_finite()) {
        return None;
    }
    let norm = (q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w).sqrt();
    if norm < 1e-9 {
        return None;
    }
    let (x, y, z, w) = (q.x / norm, q.y / norm, q.z / norm, q.w / norm);
    let yaw = (2.0 * (w * z + x * y)).atan2(1.0 - 2.0 * (y * y + z * z));
    Some(Isometry2::new(Vector2::new(p.x, p.y), yaw))
}

pub fn vector3(v: &Vector) -> Vector3 {
    Vector3 {
        x: v.x,
        y: v.y,
        z: 0.0,
    }
}

pub fn time(since_epoch: Duration) -> Time {
    Time {
        sec: i32::try_from(since_epoch.as_secs()).unwrap_or(i32::MAX),
        nanosec: since_epoch.subsec_nanos(),
    }
}

pub fn header(frame_id: &str, stamp: Duration) -> Header {
    Header {
        stamp: time(stamp),
        frame_id: frame_id.to_owned(),
    }
}

/// Writes one obstacle's result into `out`, reusing its strings.
fn fill_obstacle_result(out: &mut ObstacleResult, obstacle: &Obstacle, outcome: &ObstacleOutcome) {
    let zero = Vector::zeros();
    let contact = outcome.contact;
    out.id.clear();
    out.id.push_str(&obstacle.id);
    out.status.clear();
    out.status.push_str(outcome.status);
    out.colliding = outcome.colliding();
    out.penetration_depth = contact.map_or(0.0, |c| c.depth);
    out.mtv = vector3(&contact.map_or(zero, |c| c.mtv));
    out.distance = contact.map_or(0.0, |c| c.distance);
    out.separating_axis = vector3(&contact.map_or(zero, |c| c.axis));
    out.exact = outcome.exact;
}

/// Writes `report` into `msg`, reusing its buffers (the results vector and
/// every string), so a steady stream of reports does not reallocate them.
pub fn fill_collision_report(
    msg: &mut CollisionReport,
    report: &Report,
    obstacles: &[Obstacle],
    stamp: Duration,
) {
    msg.header.stamp = time(stamp);
    msg.header.frame_id.clear();
    msg.header.frame_id.push_str(&report.frame_id);
    msg.colliding = report.colliding;
    msg.valid = report.valid;
    msg.status.clear();
    msg.status.push_str(report.status);
    msg.min_distance = report.min_distance;
    msg.nearest_obstacle_id.clear();
    msg.nearest_obstacle_id
        .push_str(&report.nearest_obstacle_id);
    let n = report.outcomes.len().min(obstacles.len());
    msg.results.resize_with(n, ObstacleResult::default);
    for ((out, obstacle), outcome) in msg.results.iter_mut().zip(obstacles).zip(&report.outcomes) {
        fill_obstacle_result(out, obstacle, outcome);
    }
}
