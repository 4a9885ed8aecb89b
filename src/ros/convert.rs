//! Conversions between ROS messages and the library's types. The native
//! writing (strings, the results sequence) is `ros::native`'s.

#![forbid(unsafe_code)]

pub use super::native::NativeAllocError;
use super::native::{resize_results, set_string};
use crate::geometry::{Contact, Point, Vector};
use crate::model::{Obstacle, ObstacleGeometry, Report};
use crate::monitor::{MotionImpact, Prediction, SourceSpec};
use nalgebra::{Isometry2, Vector2};
use r2r::builtin_interfaces::msg::Time;
use r2r::geometry_msgs::msg::{Point32, Polygon, Pose};
use r2r::sat_collision_msgs::msg::CollisionReport;
use r2r::std_msgs::msg::Header;
use r2r::NativeMsg;
use r2r_msg_gen::sat_collision_msgs__msg__ObstacleResult as NativeResult;
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
    out.extend(polygon.points.iter().map(point));
}

/// One `Point32` to f64 (z is dropped).
pub fn point(p: &Point32) -> Point {
    Point::new(f64::from(p.x), f64::from(p.y))
}

/// An obstacle message to an [`Obstacle`], validated (one point with a
/// radius: a circle).
pub fn obstacle(msg: &r2r::sat_collision_msgs::msg::Obstacle) -> Obstacle {
    let geometry = ObstacleGeometry::from_points_and_radius(points(&msg.polygon), msg.radius);
    Obstacle::new(msg.id.clone(), &geometry)
}

/// The id an obstacle instance gets in reports: `instance_<id>`.
pub fn instance_id(id: i64) -> String {
    format!("instance_{id}")
}

/// A planar pose: position and yaw from the quaternion (roll and pitch
/// are ignored: the check is planar). The quaternion need not be unit
/// length: it is scaled by its largest component first, so huge or tiny
/// components neither overflow nor underflow. `None` when any field is not
/// finite or the quaternion is zero (not a rotation).
pub fn planar_pose(pose: &Pose) -> Option<Isometry2<f64>> {
    let q = &pose.orientation;
    let p = &pose.position;
    let values = [p.x, p.y, q.x, q.y, q.z, q.w];
    if values.iter().any(|v| !v.is_finite()) {
        return None;
    }
    let scale = [q.x, q.y, q.z, q.w]
        .iter()
        .fold(0.0_f64, |m, v| m.max(v.abs()));
    if scale == 0.0 {
        return None;
    }
    let (x, y, z, w) = (q.x / scale, q.y / scale, q.z / scale, q.w / scale);
    let norm = (x * x + y * y + z * z + w * w).sqrt();
    let (x, y, z, w) = (x / norm, y / norm, z / norm, w / norm);
    let yaw = (2.0 * (w * z + x * y)).atan2(1.0 - 2.0 * (y * y + z * z));
    Some(Isometry2::new(Vector2::new(p.x, p.y), yaw))
}

/// A duration since the epoch as a message `Time` (seconds saturate at
/// `i32::MAX`).
pub fn time(since_epoch: Duration) -> Time {
    Time {
        sec: i32::try_from(since_epoch.as_secs()).unwrap_or(i32::MAX),
        nanosec: since_epoch.subsec_nanos(),
    }
}

/// A message header with `frame_id` and `stamp`.
pub fn header(frame_id: &str, stamp: Duration) -> Header {
    Header {
        stamp: time(stamp),
        frame_id: frame_id.to_owned(),
    }
}

/// Writes `report` into r2r's native (C) `CollisionReport`, for
/// `publish_native`: numbers are written in place, strings only rewritten
/// when they change (ids change with obstacle messages, not with
/// footprints), the results sequence only rebuilt when the obstacle count
/// changes. r2r's `publish` would instead build a new C message per call,
/// with two string allocations per result.
pub fn fill_native_collision_report(
    msg: &mut NativeMsg<CollisionReport>,
    report: &Report,
    obstacles: &[Obstacle],
    sources: &[SourceSpec],
    prediction: Option<&Prediction>,
    stamp: Duration,
) -> Result<(), NativeAllocError> {
    let impact = prediction.and_then(|p| p.impact);
    msg.time_to_collision = impact.map_or(-1.0, |i| i.time);
    // A fleet's peer met first: its id (`<source>/<robot id>`).
    let peer = impact.and_then(|i| {
        let index = (i.source?, i.cell?);
        report.peers.iter().find(|p| p.index == index)
    });
    let predicted = match (impact, peer) {
        (
            Some(MotionImpact {
                obstacle: Some(i), ..
            }),
            _,
        ) => obstacles.get(i).map_or("", |o| o.id.as_str()),
        (_, Some(peer)) => peer.id.as_str(),
        (
            Some(MotionImpact {
                source: Some(i), ..
            }),
            None,
        ) => sources.get(i).map_or("", |s| s.name.as_str()),
        _ => "",
    };
    set_string(&mut msg.predicted_obstacle_id, predicted)?;
    set_string(
        &mut msg.prediction_status,
        prediction.map_or("", |p| p.status.as_str()),
    )?;
    let stamp = time(stamp);
    msg.header.stamp.sec = stamp.sec;
    msg.header.stamp.nanosec = stamp.nanosec;
    set_string(&mut msg.header.frame_id, &report.frame_id)?;
    msg.colliding = report.colliding;
    msg.valid = report.valid;
    set_string(&mut msg.status, report.status.as_str())?;
    msg.min_distance = report.min_distance;
    set_string(&mut msg.nearest_obstacle_id, &report.nearest_obstacle_id)?;
    let n = report.outcomes.len().min(obstacles.len());
    let total = n + report.sources.len() + report.peers.len();
    let results = resize_results(&mut msg.results, total)?;
    let (results, rest) = results.split_at_mut(n);
    let (source_results, peer_results) = rest.split_at_mut(report.sources.len());
    for (out, peer) in peer_results.iter_mut().zip(&report.peers) {
        set_string(&mut out.id, &peer.id)?;
        set_string(&mut out.status, peer.status.as_str())?;
        out.colliding = peer.colliding;
        let contact = peer.contact;
        set_contact(
            out,
            contact,
            contact.map_or(f64::INFINITY, |c| c.distance()),
        );
        out.exact = true;
        out.points_inside = 0;
    }
    for (out, source) in source_results.iter_mut().zip(&report.sources) {
        set_string(&mut out.id, &source.name)?;
        set_string(&mut out.status, source.status.as_str())?;
        out.colliding = source.colliding;
        // No point at all: nothing is near (infinite, as min_distance).
        set_contact(out, source.contact, source.distance());
        out.exact = true;
        out.points_inside = u32::try_from(source.points_inside).unwrap_or(u32::MAX);
    }
    for ((out, obstacle), outcome) in results.iter_mut().zip(obstacles).zip(&report.outcomes) {
        let contact = outcome.contact;
        set_string(&mut out.id, &obstacle.id)?;
        set_string(&mut out.status, outcome.status.as_str())?;
        out.colliding = outcome.colliding();
        set_contact(out, contact, contact.map_or(0.0, |c| c.distance()));
        out.exact = outcome.exact;
        out.points_inside = 0;
    }
    Ok(())
}

/// A result's geometry from `contact` (zeros without one) and its
/// `distance`.
fn set_contact(out: &mut NativeResult, contact: Option<Contact>, distance: f64) {
    let zero = Vector::zeros();
    out.penetration_depth = contact.map_or(0.0, |c| c.depth());
    let mtv = contact.map_or(zero, |c| c.mtv());
    (out.mtv.x, out.mtv.y, out.mtv.z) = (mtv.x, mtv.y, 0.0);
    out.distance = distance;
    let axis = contact.map_or(zero, |c| c.axis());
    (
        out.separating_axis.x,
        out.separating_axis.y,
        out.separating_axis.z,
    ) = (axis.x, axis.y, 0.0);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::monitor::{Monitor, MonitorConfig};
    use r2r::geometry_msgs::msg::Vector3;
    use r2r::sat_collision_msgs::msg::ObstacleResult;
    use r2r::WrappedTypesupport;

    fn vector3(v: Vector) -> Vector3 {
        Vector3 {
            x: v.x,
            y: v.y,
            z: 0.0,
        }
    }

    /// The message as the `.msg` files define it, built field by field
    /// from the report.
    fn expected(report: &Report, obstacles: &[Obstacle], stamp: Duration) -> CollisionReport {
        CollisionReport {
            header: header(&report.frame_id, stamp),
            colliding: report.colliding,
            valid: report.valid,
            status: report.status.as_str().to_owned(),
            min_distance: report.min_distance,
            nearest_obstacle_id: report.nearest_obstacle_id.clone(),
            time_to_collision: -1.0,
            predicted_obstacle_id: String::new(),
            prediction_status: String::new(),
            results: obstacles
                .iter()
                .zip(&report.outcomes)
                .map(|(obstacle, outcome)| {
                    let contact = outcome.contact;
                    ObstacleResult {
                        id: obstacle.id.clone(),
                        status: outcome.status.as_str().to_owned(),
                        colliding: outcome.colliding(),
                        penetration_depth: contact.map_or(0.0, |c| c.depth()),
                        mtv: vector3(contact.map_or(Vector::zeros(), |c| c.mtv())),
                        distance: contact.map_or(0.0, |c| c.distance()),
                        separating_axis: vector3(contact.map_or(Vector::zeros(), |c| c.axis())),
                        exact: outcome.exact,
                        points_inside: 0,
                    }
                })
                .collect(),
        }
    }

    fn square(cx: f64, cy: f64, half: f64) -> Vec<Point> {
        [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
            .iter()
            .map(|&(x, y)| Point::new(cx + half * x, cy + half * y))
            .collect()
    }

    fn obstacles(count: usize, shift: f64) -> Vec<Obstacle> {
        (0..count)
            .map(|k| {
                let points = match k % 3 {
                    // A bow tie: invalid, its own status.
                    2 => vec![
                        Point::new(5.0, 0.0),
                        Point::new(6.0, 1.0),
                        Point::new(6.0, 0.0),
                        Point::new(5.0, 1.0),
                    ],
                    _ => square(shift + 1.5 * k as f64, 0.2, 0.4),
                };
                Obstacle::new(format!("o{k}"), &ObstacleGeometry::Polygon(points))
            })
            .collect()
    }

    /// The native message, read back, is exactly the message built field by
    /// field from the same report, across changes of obstacle count, ids,
    /// statuses, frames and geometry.
    #[test]
    fn native_report_reads_back_as_the_rust_report() {
        let mut monitor = Monitor::new(MonitorConfig::default());
        let mut native = NativeMsg::<CollisionReport>::new();
        let mut any_colliding = false;
        let scenes = [
            (3, 0.0),
            (5, 0.0),
            (5, 0.3),
            (5, 0.3),
            (1, 0.1),
            (0, 0.0),
            (4, 0.6),
        ];
        for (step, &(count, shift)) in scenes.iter().enumerate() {
            let frame = if step % 2 == 0 { "map" } else { "odom" };
            monitor.set_obstacles(frame, obstacles(count, shift), 0.0);
            monitor.set_footprint(frame, &square(shift, 0.0, 0.5), 0.0);
            let report = monitor.evaluate(0.0);
            let stamp = Duration::new(100 + step as u64, 5_000 * step as u32);
            fill_native_collision_report(
                &mut native,
                &report,
                monitor.obstacles(),
                &[],
                None,
                stamp,
            )
            .expect("native report");
            let want = expected(&report, monitor.obstacles(), stamp);
            assert_eq!(CollisionReport::from_native(&native), want, "step {step}");
            assert_eq!(want.results.len(), count, "step {step}");
            any_colliding |= want.results.iter().any(|r| r.colliding);
        }
        assert!(any_colliding);
    }

    #[test]
    fn native_strings_hold_exactly_the_bytes_given() {
        let mut native = NativeMsg::<CollisionReport>::new();
        for value in ["wall", "", "pallet\0hidden", "Gabelstapler_ü", "wall"] {
            set_string(&mut native.status, value).expect("assign");
            assert_eq!(
                super::super::native::bytes(&native.status),
                value.as_bytes()
            );
        }
    }

    fn pose(qx: f64, qy: f64, qz: f64, qw: f64) -> Pose {
        let mut p = Pose::default();
        (
            p.orientation.x,
            p.orientation.y,
            p.orientation.z,
            p.orientation.w,
        ) = (qx, qy, qz, qw);
        p
    }

    fn yaw(p: &Pose) -> Option<f64> {
        planar_pose(p).map(|iso| iso.rotation.angle())
    }

    /// A scaled quaternion is the same rotation: (0, 0, 1e200, 1e200) is
    /// yaw 90°, as (0, 0, 1, 1) and the unit one are; it once read as 0
    /// because the norm overflowed.
    #[test]
    fn scaled_quaternions_give_the_same_yaw() {
        let quarter = std::f64::consts::FRAC_PI_2;
        for s in [
            1e-300,
            1e-150,
            1e-3,
            1.0,
            1e3,
            1e150,
            1e200,
            1e300,
            f64::MAX / 2.0,
        ] {
            let y = yaw(&pose(0.0, 0.0, s, s)).expect("a rotation");
            assert!((y - quarter).abs() < 1e-12, "scale {s}: yaw {y}");
        }
        let y = yaw(&pose(0.0, 0.0, -1e200, 1e200)).expect("a rotation");
        assert!((y + quarter).abs() < 1e-12, "{y}");
    }

    #[test]
    fn zero_or_non_finite_quaternions_are_not_rotations() {
        assert_eq!(yaw(&pose(0.0, 0.0, 0.0, 0.0)), None);
        assert_eq!(yaw(&pose(0.0, 0.0, f64::NAN, 1.0)), None);
        assert_eq!(yaw(&pose(0.0, 0.0, f64::INFINITY, 1.0)), None);
        assert_eq!(
            yaw(&pose(0.0, 0.0, 0.0, 5e-324)),
            Some(0.0),
            "subnormal still a rotation"
        );
    }
}
