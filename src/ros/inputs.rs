//! Input messages, read in their native (C) form as they are taken from
//! rcl, and handed on through slots that keep the newest.
//!
//! Sizes and strings are checked against the crate's input limits and its
//! id and frame-id rules before anything is copied, so an oversized
//! message costs the node no more than reading its lengths, and a frame id
//! with a NUL or bytes that are not UTF-8 is refused instead of being
//! compared after a lossy conversion (r2r's own conversion stops at a NUL
//! and turns invalid UTF-8 into an empty string). The native reading
//! itself (strings as bytes, sequences as slices) is `ros::native`'s: this
//! module holds no `unsafe`.
//!
//! Every input is stamped with its arrival (ROS time and clock generation)
//! the moment it is taken, on the thread that spins the node: freshness is
//! measured from there, however long the message then waits, and from its
//! header stamp (see [`crate::monitor`]'s freshness rule).
//!
//! Service requests are read the same way: [`CheckFootprintService`] and
//! [`CheckPathService`] are the generated services (same type support,
//! same response) whose request is a [`CheckedRequest`], read from the
//! native request with the checks of the topics before it is copied.

#![forbid(unsafe_code)]

use super::native;
use crate::geometry::Point;
use crate::geometry::MAX_VERTICES;
use crate::limits::{
    MAX_INSTANCES, MAX_INSTANCE_VERTICES, MAX_OBSTACLES_PER_MESSAGE, MAX_VERTICES_PER_MESSAGE,
};
use crate::model::{ObstacleGeometry, Rejection, Status};
pub use crate::node::{shrink, ArrayInput, Arrival, FootprintInput, InstanceInput, VelocityInput};
use r2r::geometry_msgs::msg::Pose;
use r2r::sat_collision_msgs::srv::{CheckFootprint, CheckPath};
use r2r::{WrappedServiceTypeSupport, WrappedTypesupport};
use r2r_msg_gen::{
    geometry_msgs__msg__Point32 as NativePoint, geometry_msgs__msg__Polygon as NativePolygon,
    geometry_msgs__msg__PolygonInstanceStamped as NativeInstance,
    geometry_msgs__msg__PolygonStamped as NativeFootprint,
    geometry_msgs__msg__Twist as NativeTwist,
    geometry_msgs__msg__TwistStamped as NativeTwistStamped,
    nav_msgs__msg__Odometry as NativeOdometry,
    sat_collision_msgs__msg__ObstacleArray as NativeArray,
    sat_collision_msgs__srv__CheckFootprint_Request as NativeFootprintRequest,
    sat_collision_msgs__srv__CheckPath_Request as NativePathRequest,
};
use r2r_rcl::{
    rosidl_message_type_support_t, rosidl_runtime_c__String as NativeString,
    rosidl_service_type_support_t,
};
use serde::{Deserialize, Serialize};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

fn points_of(polygon: &NativePolygon) -> &[NativePoint] {
    native::items(&polygon.points)
}

/// A checked frame id, copied into `out`.
fn frame_into(s: &NativeString, out: &mut String) -> Result<(), Rejection> {
    let frame = native::frame_id(s)?;
    out.clear();
    out.push_str(frame);
    Ok(())
}

fn push_points(points: &[NativePoint], out: &mut Vec<Point>) {
    out.extend(
        points
            .iter()
            .map(|p| Point::new(f64::from(p.x), f64::from(p.y))),
    );
}

/// Size of a point in a native polygon.
const POINT_BYTES: usize = std::mem::size_of::<NativePoint>();

/// About how many bytes a native footprint holds (strings and points).
pub fn footprint_bytes(msg: &NativeFootprint) -> usize {
    msg.header.frame_id.size + POINT_BYTES * msg.polygon.points.size
}

/// About how many bytes a native obstacle array holds.
pub fn array_bytes(msg: &NativeArray) -> usize {
    native::items(&msg.obstacles)
        .iter()
        .map(|o| o.id.size + POINT_BYTES * o.polygon.points.size)
        .fold(msg.header.frame_id.size, usize::saturating_add)
}

/// About how many bytes a native obstacle instance holds.
pub fn instance_bytes(msg: &NativeInstance) -> usize {
    msg.header.frame_id.size + POINT_BYTES * msg.polygon.polygon.points.size
}

/// A stamp of an owned (non-native) message in seconds.
pub fn seconds_of(stamp: &r2r::builtin_interfaces::msg::Time) -> f64 {
    f64::from(stamp.sec) + f64::from(stamp.nanosec) * 1e-9
}

impl FootprintInput {
    /// Reads a native footprint into `self`. More points than a polygon may
    /// have are refused unread (validation would refuse them anyway).
    pub fn read(&mut self, msg: &NativeFootprint) {
        self.points.clear();
        self.rejected = None;
        self.stamp = native::seconds(&msg.header.stamp);
        if let Err(r) = frame_into(&msg.header.frame_id, &mut self.frame_id) {
            self.rejected = Some(r);
            return;
        }
        let Some(points) = native::items_within(&msg.polygon.points, MAX_VERTICES) else {
            self.rejected = Some(Rejection::TooManyVertices);
            return;
        };
        push_points(points, &mut self.points);
        shrink(&mut self.points);
    }
}

impl ArrayInput {
    /// Reads a native obstacle array: counts first, then every string,
    /// then the points.
    pub fn read(msg: &NativeArray) -> ArrayInput {
        match Self::try_read(msg) {
            Ok(input) => input,
            Err(r) => ArrayInput::Rejected(r),
        }
    }

    fn try_read(msg: &NativeArray) -> Result<ArrayInput, Rejection> {
        let mut frame_id = String::new();
        frame_into(&msg.header.frame_id, &mut frame_id)?;
        let list = native::items_within(&msg.obstacles, MAX_OBSTACLES_PER_MESSAGE)
            .ok_or(Rejection::TooManyObstacles)?;
        let vertices = list
            .iter()
            .map(|o| o.polygon.points.size)
            .fold(0usize, usize::saturating_add);
        if vertices > MAX_VERTICES_PER_MESSAGE {
            return Err(Rejection::TooManyVertices);
        }
        let mut obstacles = Vec::with_capacity(list.len());
        for o in list {
            let id = native::obstacle_id(&o.id)?;
            let mut points = Vec::with_capacity(o.polygon.points.size);
            push_points(points_of(&o.polygon), &mut points);
            let geometry = ObstacleGeometry::from_points_and_radius(points, o.radius);
            obstacles.push((id.to_owned(), geometry));
        }
        Ok(ArrayInput::Obstacles {
            frame_id,
            stamp: native::seconds(&msg.header.stamp),
            obstacles,
        })
    }
}

impl InstanceInput {
    /// Reads a native obstacle instance; more points than a polygon may
    /// have are refused unread.
    pub fn read(msg: &NativeInstance) -> InstanceInput {
        Self::read_from(msg, None)
    }

    /// [`read`](Self::read) for the polygon source at `source`.
    pub fn read_from(msg: &NativeInstance, source: Option<usize>) -> InstanceInput {
        let mut frame_id = String::new();
        if let Err(r) = frame_into(&msg.header.frame_id, &mut frame_id) {
            return InstanceInput::Rejected(r);
        }
        let Some(points) = native::items_within(&msg.polygon.polygon.points, MAX_VERTICES) else {
            return InstanceInput::Rejected(Rejection::TooManyVertices);
        };
        let mut out = Vec::with_capacity(points.len());
        push_points(points, &mut out);
        InstanceInput::Instance {
            frame_id,
            stamp: native::seconds(&msg.header.stamp),
            id: msg.polygon.id,
            source,
            points: out,
        }
    }
}

impl VelocityInput {
    fn of(header: Option<(&NativeString, f64)>, twist: &NativeTwist) -> VelocityInput {
        let mut input = VelocityInput {
            stamp: header.map_or(0.0, |(_, stamp)| stamp),
            linear: (twist.linear.x, twist.linear.y),
            angular: twist.angular.z,
            ..VelocityInput::default()
        };
        if let Some((frame, _)) = header {
            input.rejected = frame_into(frame, &mut input.frame_id).is_err();
        }
        input
    }

    /// `nav_msgs/Odometry`: the twist is of `child_frame_id`, in its axes,
    /// stamped by its header.
    pub fn odometry(msg: &NativeOdometry) -> VelocityInput {
        let stamp = native::seconds(&msg.header.stamp);
        Self::of(Some((&msg.child_frame_id, stamp)), &msg.twist.twist)
    }

    /// `geometry_msgs/TwistStamped`: of `header.frame_id`, at its stamp.
    pub fn twist_stamped(msg: &NativeTwistStamped) -> VelocityInput {
        let stamp = native::seconds(&msg.header.stamp);
        Self::of(Some((&msg.header.frame_id, stamp)), &msg.twist)
    }

    /// `geometry_msgs/Twist` (a velocity command): of the robot's frame.
    pub fn twist(msg: &NativeTwist) -> VelocityInput {
        Self::of(None, msg)
    }
}

/// A service request as read from its native form: the request (copied
/// only once its strings and counts passed), or why it was refused, with
/// what a refusal's answer needs (how many poses, the first one).
///
/// Refused as read, nothing else copied: a frame id (the path's or a
/// pose's) that is too long, holds a NUL or is not UTF-8
/// ([`Status::InvalidFrameId`], as a topic's frame id; r2r's own
/// conversion would turn it into "" and fall back to another frame), a
/// footprint of more than [`MAX_VERTICES`] points
/// ([`Status::InvalidFootprint`], as validation would).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct CheckedRequest<R> {
    /// The request; empty when refused.
    pub message: R,
    /// Why the request was refused as it was read.
    #[serde(skip)]
    pub refused: Option<Status>,
    /// How many poses the request has (refused or not).
    pub poses: usize,
    /// The first pose (a refused path's fail-safe answer names it).
    pub first_pose: Option<Pose>,
}

impl<R> CheckedRequest<R> {
    fn refused(status: Status, poses: usize, first_pose: Option<Pose>) -> Self
    where
        R: Default,
    {
        CheckedRequest {
            message: R::default(),
            refused: Some(status),
            poses,
            first_pose,
        }
    }
}

/// The footprint's point count against [`MAX_VERTICES`].
fn footprint_refusal(polygon: &NativePolygon) -> Option<Status> {
    (native::len(&polygon.points) > MAX_VERTICES).then_some(Status::InvalidFootprint)
}

impl WrappedTypesupport for CheckedRequest<CheckFootprint::Request> {
    type CStruct = NativeFootprintRequest;

    fn get_ts() -> &'static rosidl_message_type_support_t {
        <CheckFootprint::Request as WrappedTypesupport>::get_ts()
    }
    fn create_msg() -> *mut NativeFootprintRequest {
        CheckFootprint::Request::create_msg()
    }
    fn destroy_msg(msg: *mut NativeFootprintRequest) {
        CheckFootprint::Request::destroy_msg(msg)
    }
    /// A `check_footprint` request has no strings: only its footprint's
    /// size is checked before the copy.
    fn from_native(msg: &NativeFootprintRequest) -> Self {
        let poses = msg.poses.size;
        if let Some(status) = footprint_refusal(&msg.footprint) {
            return Self::refused(status, poses, None);
        }
        CheckedRequest {
            message: CheckFootprint::Request::from_native(msg),
            refused: None,
            poses,
            first_pose: None,
        }
    }
    /// The request as accepted (a refused one was never copied: empty).
    fn copy_to_native(&self, msg: &mut NativeFootprintRequest) {
        self.message.copy_to_native(msg)
    }
}

impl WrappedTypesupport for CheckedRequest<CheckPath::Request> {
    type CStruct = NativePathRequest;

    fn get_ts() -> &'static rosidl_message_type_support_t {
        <CheckPath::Request as WrappedTypesupport>::get_ts()
    }
    fn create_msg() -> *mut NativePathRequest {
        CheckPath::Request::create_msg()
    }
    fn destroy_msg(msg: *mut NativePathRequest) {
        CheckPath::Request::destroy_msg(msg)
    }
    /// Every frame id (the path's, each pose's) checked as bytes, and the
    /// footprint's size, before the copy.
    fn from_native(msg: &NativePathRequest) -> Self {
        let path = &msg.path;
        let poses = native::items(&path.poses);
        let first_pose = poses.first().map(|p| Pose::from_native(&p.pose));
        let frame_ok = |s: &NativeString| native::frame_id(s).is_ok();
        let refusal = if !frame_ok(&path.header.frame_id)
            || !poses.iter().all(|p| frame_ok(&p.header.frame_id))
        {
            Some(Status::InvalidFrameId)
        } else {
            footprint_refusal(&msg.footprint)
        };
        if let Some(status) = refusal {
            return Self::refused(status, poses.len(), first_pose);
        }
        CheckedRequest {
            message: CheckPath::Request::from_native(msg),
            refused: None,
            poses: poses.len(),
            first_pose,
        }
    }
    /// The request as accepted (a refused one was never copied: empty).
    fn copy_to_native(&self, msg: &mut NativePathRequest) {
        self.message.copy_to_native(msg)
    }
}

/// `sat_collision_msgs/srv/CheckFootprint` with its request read by
/// [`CheckedRequest`].
#[derive(Clone, Debug)]
pub struct CheckFootprintService;

impl WrappedServiceTypeSupport for CheckFootprintService {
    type Request = CheckedRequest<CheckFootprint::Request>;
    type Response = CheckFootprint::Response;

    fn get_ts() -> &'static rosidl_service_type_support_t {
        CheckFootprint::Service::get_ts()
    }
}

/// `sat_collision_msgs/srv/CheckPath` with its request read by
/// [`CheckedRequest`].
#[derive(Clone, Debug)]
pub struct CheckPathService;

impl WrappedServiceTypeSupport for CheckPathService {
    type Request = CheckedRequest<CheckPath::Request>;
    type Response = CheckPath::Response;

    fn get_ts() -> &'static rosidl_service_type_support_t {
        CheckPath::Service::get_ts()
    }
}

/// Keeps the newest velocity for the decision.
#[derive(Debug, Default)]
pub struct LatestVelocity {
    inner: Mutex<Option<(VelocityInput, Arrival)>>,
}

impl LatestVelocity {
    /// Keeps `input` as the latest velocity, replacing the previous one.
    pub fn put(&self, input: VelocityInput, arrival: Arrival) {
        *self
            .inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some((input, arrival));
    }

    /// The newest velocity not taken yet.
    pub fn take(&self) -> Option<(VelocityInput, Arrival)> {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
    }
}

/// Keeps the newest footprint for the decision: a newer message replaces
/// one not yet taken (its buffers are reused), so a slow consumer always
/// gets the latest, never a queue of old ones.
#[derive(Debug, Default)]
pub struct LatestFootprint {
    inner: Mutex<LatestInner>,
    ready: tokio::sync::Notify,
}

#[derive(Debug, Default)]
struct LatestInner {
    latest: Option<(FootprintInput, Arrival)>,
    spare: Option<FootprintInput>,
    /// Messages replaced before they were taken (superseded).
    superseded: u64,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding one of these locks leaves plain data behind:
    // keep going with it rather than losing the node.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl LatestFootprint {
    /// Reads `msg` into a reused buffer and makes it the newest.
    pub fn put(&self, msg: &NativeFootprint, arrival: Arrival) {
        let mut buffer = lock(&self.inner).spare.take().unwrap_or_default();
        buffer.read(msg);
        let mut inner = lock(&self.inner);
        if let Some((old, _)) = inner.latest.replace((buffer, arrival)) {
            inner.superseded += 1;
            inner.spare = Some(old);
        }
        drop(inner);
        self.ready.notify_one();
    }

    /// The newest footprint, if one came since the last call.
    pub fn take(&self) -> Option<(FootprintInput, Arrival)> {
        lock(&self.inner).latest.take()
    }

    /// Returns a buffer for reuse.
    pub fn give_back(&self, buffer: FootprintInput) {
        let mut inner = lock(&self.inner);
        if inner.spare.is_none() {
            inner.spare = Some(buffer);
        }
    }

    /// Waits until a footprint is put.
    pub async fn ready(&self) {
        self.ready.notified().await;
    }
}

/// Obstacle inputs waiting to be taken in (validated, split, indexed) by
/// the obstacle worker: the newest array, the newest message of each
/// instance id (both keep-latest) and the newest refused instance, with the
/// arrival of the oldest input not yet in the obstacle set the decision
/// uses.
///
/// The instances queued are bounded like the live ones: at most
/// [`MAX_INSTANCES`] ids and [`MAX_INSTANCE_VERTICES`] points in all. An
/// instance with a new id beyond the first is queued as a refusal,
/// `too_many_obstacles`, one that would take the points beyond the second
/// as `too_many_vertices` (its points dropped at once): the worker would
/// refuse it for the same reason, and the answer is not valid for
/// `obstacles_timeout`, as for any refused instance.
#[derive(Debug, Default)]
pub struct PendingObstacles {
    inner: Mutex<PendingInner>,
    wake: Condvar,
}

#[derive(Debug, Default)]
struct PendingInner {
    queued: Batch,
    /// Points of the queued instances.
    queued_vertices: usize,
    /// Oldest arrival among the queued inputs.
    queued_since: Option<f64>,
    /// Oldest arrival among the inputs the worker is taking in now.
    working_since: Option<f64>,
}

/// Obstacle inputs taken together by the worker.
#[derive(Debug, Default)]
pub struct Batch {
    /// The newest obstacle array, if one arrived.
    pub array: Option<(ArrayInput, Arrival)>,
    /// One per instance id, and at most one refusal (the newest).
    pub instances: Vec<(InstanceInput, Arrival)>,
    /// The node is shutting down.
    pub stop: bool,
}

fn min_time(a: Option<f64>, b: f64) -> Option<f64> {
    Some(a.map_or(b, |a| a.min(b)))
}

/// Points of a queued instance (0 for a refusal).
fn points_in(input: &InstanceInput) -> usize {
    match input {
        InstanceInput::Instance { points, .. } => points.len(),
        InstanceInput::Rejected(_) => 0,
    }
}

impl PendingInner {
    /// Queues an instance in place of the one with its id (a refusal in
    /// place of the queued refusal), or as a refusal beyond the bounds.
    fn queue_instance(&mut self, input: InstanceInput, arrival: Arrival) {
        let queued = &mut self.queued.instances;
        let id = match &input {
            InstanceInput::Instance { id, source, .. } => Some((*id, *source)),
            InstanceInput::Rejected(_) => None,
        };
        let same = |(queued, _): &(InstanceInput, Arrival)| match queued {
            InstanceInput::Instance { id: q, source, .. } => Some((*q, *source)) == id,
            InstanceInput::Rejected(_) => id.is_none(),
        };
        let old = queued.iter().position(same);
        let replaced = old.map_or(0, |i| points_in(&queued[i].0));
        let vertices = self.queued_vertices - replaced + points_in(&input);
        let refused = |(q, _): &(InstanceInput, Arrival)| matches!(q, InstanceInput::Rejected(_));
        let ids = queued.len() - queued.iter().filter(|q| refused(q)).count();
        let input = if old.is_none() && id.is_some() && ids >= MAX_INSTANCES {
            InstanceInput::Rejected(Rejection::TooManyObstacles)
        } else if vertices > MAX_INSTANCE_VERTICES {
            InstanceInput::Rejected(Rejection::TooManyVertices)
        } else {
            input
        };
        let refusal = matches!(input, InstanceInput::Rejected(_));
        match (refusal, old) {
            (false, Some(i)) => {
                self.queued_vertices = vertices;
                queued[i] = (input, arrival);
            }
            (false, None) => {
                self.queued_vertices = vertices;
                queued.push((input, arrival));
            }
            (true, _) => {
                // The newest refusal, last (in arrival order).
                queued.retain(|q| !refused(q));
                queued.push((input, arrival));
            }
        }
    }
}

impl PendingObstacles {
    /// Queues an obstacle array, replacing a queued one, and wakes the
    /// worker.
    pub fn put_array(&self, input: ArrayInput, arrival: Arrival) {
        let mut inner = lock(&self.inner);
        inner.queued.array = Some((input, arrival));
        inner.queued_since = min_time(inner.queued_since, arrival.time);
        drop(inner);
        self.wake.notify_one();
    }

    /// Queues an obstacle instance and wakes the worker.
    pub fn put_instance(&self, input: InstanceInput, arrival: Arrival) {
        let mut inner = lock(&self.inner);
        inner.queue_instance(input, arrival);
        inner.queued_since = min_time(inner.queued_since, arrival.time);
        drop(inner);
        self.wake.notify_one();
    }

    /// Waits for inputs (or `timeout`, or a stop) and takes them all; they
    /// count as pending until [`done`](Self::done).
    pub fn take(&self, timeout: Duration) -> Batch {
        let mut inner = lock(&self.inner);
        let q = &inner.queued;
        if q.array.is_none() && q.instances.is_empty() && !q.stop {
            inner = self
                .wake
                .wait_timeout(inner, timeout)
                .map(|(guard, _)| guard)
                .unwrap_or_else(|e| e.into_inner().0);
        }
        let stop = inner.queued.stop;
        let taken = std::mem::replace(
            &mut inner.queued,
            Batch {
                stop,
                ..Batch::default()
            },
        );
        inner.working_since = inner.queued_since.take();
        inner.queued_vertices = 0;
        taken
    }

    /// The inputs last taken are in the set the decision now has.
    pub fn done(&self) {
        lock(&self.inner).working_since = None;
    }

    /// Arrival of the oldest obstacle input not yet in the decision's set.
    pub fn pending_since(&self) -> Option<f64> {
        let inner = lock(&self.inner);
        match (inner.queued_since, inner.working_since) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Tells the worker to stop.
    pub fn stop(&self) {
        lock(&self.inner).queued.stop = true;
        self.wake.notify_all();
    }
}

#[cfg(test)]
mod tests;
