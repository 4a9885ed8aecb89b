//! A bag's decoded messages read as the node reads its subscriptions
//! (`ros::inputs`, `ros::sources`, `ros::tf`, the gate's inputs): frame ids
//! checked by the crate's id rules, sizes against the node's limits, then
//! copied into the core's inputs ([`crate::node`]).

use crate::bag::msgs;
use crate::broadphase::PointSet;
use crate::fleet::{planar_yaw, PeerMessage, Refusal, MAX_PEER_VERTICES, MAX_ROBOT_ID_BYTES};
use crate::frames::FrameTree;
use crate::gate::Command;
use crate::geometry::{Point, Vector, MAX_VERTICES};
use crate::limits::{MAX_OBSTACLES_PER_MESSAGE, MAX_VERTICES_PER_MESSAGE};
use crate::model::{Cause, ObstacleGeometry, Rejection};
use crate::node::{
    ArrayInput, CommandIn, FootprintInput, InstanceInput, SourceInput, SourceReader, TfBuffer,
    TfSample, VelocityInput, MAX_CLOUD_FIELDS,
};
use crate::sensors::{Costmap, LaserScan, PointCloud, PointField, RangeReading, MAX_SENSOR_POINTS};
use crate::text::{check_name, MAX_FRAME_ID_BYTES, MAX_ID_BYTES};
use nalgebra::Isometry2;
use std::sync::MutexGuard;

/// A frame id as the node takes one, or its refusal.
fn frame(s: &str) -> Result<&str, Rejection> {
    check_name(s.as_bytes(), MAX_FRAME_ID_BYTES).map_err(|_| Rejection::InvalidFrameId)
}

/// A stamp in seconds.
pub(super) fn seconds(t: &msgs::Time) -> f64 {
    f64::from(t.sec) + f64::from(t.nanosec) * 1e-9
}

fn points_of(polygon: &msgs::Polygon) -> Vec<Point> {
    polygon
        .points
        .iter()
        .map(|p| Point::new(f64::from(p.x), f64::from(p.y)))
        .collect()
}

/// A `PolygonStamped` footprint (or a dynamic zone's shape).
pub(super) fn footprint(msg: &msgs::PolygonStamped) -> FootprintInput {
    let mut input = FootprintInput {
        stamp: seconds(&msg.header.stamp),
        ..FootprintInput::default()
    };
    match frame(&msg.header.frame_id) {
        Err(r) => input.rejected = Some(r),
        Ok(_) if msg.polygon.points.len() > MAX_VERTICES => {
            input.rejected = Some(Rejection::TooManyVertices)
        }
        Ok(id) => {
            input.frame_id.push_str(id);
            input.points = points_of(&msg.polygon);
        }
    }
    input
}

/// An obstacle array: counts first, then every id, then the points.
pub(super) fn array(msg: &msgs::ObstacleArray) -> ArrayInput {
    let read = || -> Result<ArrayInput, Rejection> {
        let frame_id = frame(&msg.header.frame_id)?.to_owned();
        if msg.obstacles.len() > MAX_OBSTACLES_PER_MESSAGE {
            return Err(Rejection::TooManyObstacles);
        }
        let vertices = msg
            .obstacles
            .iter()
            .map(|o| o.polygon.points.len())
            .fold(0usize, usize::saturating_add);
        if vertices > MAX_VERTICES_PER_MESSAGE {
            return Err(Rejection::TooManyVertices);
        }
        let mut obstacles = Vec::with_capacity(msg.obstacles.len());
        for o in &msg.obstacles {
            let id = check_name(o.id.as_bytes(), MAX_ID_BYTES).map_err(|_| Rejection::InvalidId)?;
            let geometry =
                ObstacleGeometry::from_points_and_radius(points_of(&o.polygon), o.radius);
            obstacles.push((id.to_owned(), geometry));
        }
        Ok(ArrayInput::Obstacles {
            frame_id,
            stamp: seconds(&msg.header.stamp),
            obstacles,
        })
    };
    read().unwrap_or_else(ArrayInput::Rejected)
}

/// An obstacle instance (`source`: the polygon source it came from).
pub(super) fn instance(msg: &msgs::PolygonInstanceStamped, source: Option<usize>) -> InstanceInput {
    let frame_id = match frame(&msg.header.frame_id) {
        Ok(id) => id.to_owned(),
        Err(r) => return InstanceInput::Rejected(r),
    };
    if msg.polygon.polygon.points.len() > MAX_VERTICES {
        return InstanceInput::Rejected(Rejection::TooManyVertices);
    }
    InstanceInput::Instance {
        frame_id,
        stamp: seconds(&msg.header.stamp),
        id: msg.polygon.id,
        source,
        points: points_of(&msg.polygon.polygon),
    }
}

fn velocity(header: Option<(&str, f64)>, twist: &msgs::Twist) -> VelocityInput {
    let mut input = VelocityInput {
        stamp: header.map_or(0.0, |(_, stamp)| stamp),
        linear: (twist.linear.x, twist.linear.y),
        angular: twist.angular.z,
        ..VelocityInput::default()
    };
    if let Some((id, _)) = header {
        match frame(id) {
            Ok(id) => input.frame_id.push_str(id),
            Err(_) => input.rejected = true,
        }
    }
    input
}

/// `nav_msgs/Odometry`: the twist of `child_frame_id`, at its header's stamp.
pub(super) fn odometry(msg: &msgs::Odometry) -> VelocityInput {
    let stamp = seconds(&msg.header.stamp);
    velocity(Some((&msg.child_frame_id, stamp)), &msg.twist.twist)
}

/// `geometry_msgs/TwistStamped` as a velocity.
pub(super) fn twist_stamped(msg: &msgs::TwistStamped) -> VelocityInput {
    let stamp = seconds(&msg.header.stamp);
    velocity(Some((&msg.header.frame_id, stamp)), &msg.twist)
}

/// `geometry_msgs/Twist` as a velocity (of the robot's frame).
pub(super) fn twist(msg: &msgs::Twist) -> VelocityInput {
    velocity(None, msg)
}

/// A command for the gate; a `TwistStamped`'s header is kept (its frame id
/// empty when it cannot be read).
pub(super) fn command(twist: &msgs::Twist, header: Option<&msgs::Header>) -> CommandIn {
    let mut command = CommandIn {
        command: Command::new(twist.linear.x, twist.linear.y, twist.angular.z),
        ..CommandIn::default()
    };
    if let Some(header) = header {
        command.sec = header.stamp.sec;
        command.nanosec = header.stamp.nanosec;
        if let Ok(id) = frame(&header.frame_id) {
            command.frame_id.push_str(id);
        }
    }
    command
}

/// A TF message's transforms as the buffer takes them (`None` beyond
/// [`crate::node::MAX_TRANSFORMS_PER_MESSAGE`]: refused unread).
pub(super) fn tf_samples(msg: &msgs::TFMessage) -> Option<impl Iterator<Item = TfSample<'_>>> {
    if msg.transforms.len() > crate::node::MAX_TRANSFORMS_PER_MESSAGE {
        return None;
    }
    Some(msg.transforms.iter().map(|t| {
        let (tr, q) = (&t.transform.translation, &t.transform.rotation);
        TfSample {
            parent: frame(&t.header.frame_id).ok(),
            child: frame(&t.child_frame_id).ok(),
            stamp: seconds(&t.header.stamp),
            translation: [tr.x, tr.y, tr.z],
            rotation: [q.x, q.y, q.z, q.w],
        }
    }))
}

/// A `sensor_msgs/LaserScan` for its source (`tf` for its exclusion
/// zones).
pub(super) fn scan<'t>(
    reader: &mut SourceReader,
    msg: &msgs::LaserScan,
    tf: impl FnOnce() -> Tree<'t>,
    now: f64,
    out: PointSet,
) -> SourceInput {
    let Ok(frame) = frame(&msg.header.frame_id) else {
        return reader.refused("invalid frame id", Cause::InvalidSource);
    };
    let scan = LaserScan {
        angle_min: msg.angle_min,
        angle_max: msg.angle_max,
        angle_increment: msg.angle_increment,
        range_min: msg.range_min,
        range_max: msg.range_max,
        ranges: &msg.ranges,
    };
    reader.scan(frame, seconds(&msg.header.stamp), &scan, tf, now, out)
}

/// A `sensor_msgs/Range` for its source (`tf` for its exclusion zones).
pub(super) fn range<'t>(
    reader: &mut SourceReader,
    msg: &msgs::Range,
    tf: impl FnOnce() -> Tree<'t>,
    now: f64,
    out: PointSet,
) -> SourceInput {
    let Ok(frame) = frame(&msg.header.frame_id) else {
        return reader.refused("invalid frame id", Cause::InvalidSource);
    };
    let reading = RangeReading {
        field_of_view: msg.field_of_view,
        min_range: msg.min_range,
        max_range: msg.max_range,
        range: msg.range,
    };
    let stamp = &msg.header.stamp;
    reader.range(frame, seconds(stamp), stamp.nanosec, &reading, tf, now, out)
}

/// A `nav2_msgs/Costmap` for its source: its obstacle cells, those its
/// exclusion zones hold masked (`tf` as for a scan).
pub(super) fn costmap<'t>(
    reader: &mut SourceReader,
    msg: &msgs::Costmap,
    tf: impl FnOnce() -> Tree<'t>,
    now: f64,
    out: PointSet,
) -> SourceInput {
    let Ok(frame) = frame(&msg.header.frame_id) else {
        return reader.refused("invalid frame id", Cause::InvalidSource);
    };
    let meta = &msg.metadata;
    let (p, q) = (&meta.origin.position, &meta.origin.orientation);
    let map = Costmap {
        resolution: meta.resolution,
        size_x: meta.size_x,
        size_y: meta.size_y,
        origin: [p.x, p.y],
        orientation: [q.x, q.y, q.z, q.w],
        data: &msg.data,
    };
    reader.costmap(frame, seconds(&msg.header.stamp), &map, tf, now, out)
}

/// The TF buffer locked for one lookup: its tree.
pub(super) struct Tree<'a>(pub(super) MutexGuard<'a, TfBuffer>);

impl std::ops::Deref for Tree<'_> {
    type Target = FrameTree;

    fn deref(&self) -> &FrameTree {
        &self.0.tree
    }
}

/// A `sensor_msgs/PointCloud2` for its source, moved into the base frame
/// by the transform `tf` gives at its stamp.
pub(super) fn cloud<'t>(
    reader: &mut SourceReader,
    msg: &msgs::PointCloud2,
    tf: impl FnOnce() -> Tree<'t>,
    now: f64,
    out: PointSet,
) -> SourceInput {
    let Ok(frame) = frame(&msg.header.frame_id) else {
        return reader.refused("invalid frame id", Cause::InvalidSource);
    };
    if u64::from(msg.width) * u64::from(msg.height) > MAX_SENSOR_POINTS as u64 {
        return reader.refused("too_many_points", Cause::InvalidSource);
    }
    if msg.fields.len() > MAX_CLOUD_FIELDS {
        return reader.refused("too many fields", Cause::InvalidSource);
    }
    let mut fields = [PointField::default(); MAX_CLOUD_FIELDS];
    for (field, f) in fields.iter_mut().zip(&msg.fields) {
        *field = PointField {
            name: f.name.as_bytes(),
            offset: f.offset,
            datatype: f.datatype,
            count: f.count,
        };
    }
    let cloud = PointCloud {
        height: msg.height,
        width: msg.width,
        fields: &fields[..msg.fields.len()],
        is_bigendian: msg.is_bigendian,
        point_step: msg.point_step,
        row_step: msg.row_step,
        data: &msg.data,
    };
    reader.cloud(frame, seconds(&msg.header.stamp), &cloud, tf, now, out)
}

/// A `sat_collision_msgs/FleetRobot` as the node reads it
/// (`ros::fleet::read`, natively): its id and frame checked, its pose and
/// plan planar, the rest judged by the fleet.
pub(super) fn fleet_robot(msg: &msgs::FleetRobot) -> Result<PeerMessage, Refusal> {
    let id = check_name(msg.robot_id.as_bytes(), MAX_ROBOT_ID_BYTES).map_err(|_| Refusal::BadId)?;
    let frame = check_name(msg.header.frame_id.as_bytes(), MAX_FRAME_ID_BYTES)
        .map_err(|_| Refusal::WrongFrame("(not a frame id)".to_owned()))?;
    let vertices = msg.footprint.points.len();
    if vertices > MAX_PEER_VERTICES {
        return Err(Refusal::TooManyVertices(vertices));
    }
    let pose_of = |p: &msgs::Pose, refusal: Refusal| {
        let q = &p.orientation;
        let yaw = planar_yaw(q.x, q.y, q.z, q.w).ok_or(refusal)?;
        Ok(Isometry2::new(Vector::new(p.position.x, p.position.y), yaw))
    };
    let plan = msg
        .plan
        .poses
        .iter()
        .map(|p| {
            Ok((
                seconds(&p.header.stamp),
                pose_of(&p.pose, Refusal::BadPlan)?,
            ))
        })
        .collect::<Result<Vec<_>, Refusal>>()?;
    Ok(PeerMessage {
        robot_id: id.to_owned(),
        session: msg.session,
        sequence: msg.sequence,
        frame_id: frame.to_owned(),
        stamp: seconds(&msg.header.stamp),
        footprint: msg
            .footprint
            .points
            .iter()
            .map(|p| Point::new(f64::from(p.x), f64::from(p.y)))
            .collect(),
        pose: pose_of(&msg.pose, Refusal::NotFinite)?,
        linear: Vector::new(msg.twist.linear.x, msg.twist.linear.y),
        angular: msg.twist.angular.z,
        max_linear_speed: msg.max_linear_speed,
        max_angular_speed: msg.max_angular_speed,
        plan,
    })
}
