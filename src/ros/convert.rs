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
    polygon
        .points
        .iter()
        .map(|p: &Point32| Point::new(f64::from(p.x), f64::from(p.y)))
        .collect()
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

pub fn obstacle_result(obstacle: &Obstacle, outcome: &ObstacleOutcome) -> ObstacleResult {
    let zero = Vector::zeros();
    let contact = outcome.contact;
    ObstacleResult {
        id: obstacle.id.clone(),
        status: outcome.status.to_owned(),
        colliding: outcome.colliding(),
        penetration_depth: contact.map_or(0.0, |c| c.depth),
        mtv: vector3(&contact.map_or(zero, |c| c.mtv)),
        distance: contact.map_or(0.0, |c| c.distance),
        separating_axis: vector3(&contact.map_or(zero, |c| c.axis)),
    }
}

pub fn collision_report(
    report: &Report,
    obstacles: &[Obstacle],
    stamp: Duration,
) -> CollisionReport {
    CollisionReport {
        header: header(&report.frame_id, stamp),
        colliding: report.colliding,
        valid: report.valid,
        status: report.status.to_owned(),
        min_distance: report.min_distance,
        nearest_obstacle_id: report.nearest_obstacle_id.clone(),
        results: obstacles
            .iter()
            .zip(&report.outcomes)
            .map(|(o, r)| obstacle_result(o, r))
            .collect(),
    }
}
