//! Sensor sources at the ROS edge: one [`SourceReader`] per configured
//! source (nav2's `observation_sources`), which owns its topic's decoding,
//! its transform and its limits, and one keep-latest slot per source
//! ([`LatestSources`]) between the I/O thread and the decision.
//!
//! Each message is read in native form the moment it is taken: its sizes
//! are checked against [`MAX_SENSOR_POINTS`] before anything is copied,
//! then `sensors` turns it into planar points: a scan's and a range
//! reading's in the message's frame (placed by TF like any obstacle group),
//! a point cloud's in `base_frame` after the full 3-D transform of its
//! frame at its stamp (`FrameTree::lookup_3d`), its heights compared
//! there. A message that cannot be used becomes the source's cause
//! ([`Cause::InvalidSource`], or the transform's), never a silent "clear".

#![forbid(unsafe_code)]

use super::inputs::Arrival;
use super::native;
use crate::broadphase::PointSet;
use crate::frames::FrameTree;
use crate::model::Cause;
use crate::node::MAX_CLOUD_FIELDS;
use crate::sensors::{
    Costmap, LaserScan, PointCloud, PointField, RangeReading, MAX_COSTMAP_CELLS, MAX_SENSOR_POINTS,
};
use r2r_msg_gen::{
    nav2_msgs__msg__Costmap as NativeCostmap, sensor_msgs__msg__LaserScan as NativeScan,
    sensor_msgs__msg__PointCloud2 as NativeCloud, sensor_msgs__msg__Range as NativeRange,
};
use std::sync::{Mutex, MutexGuard};

/// The QoS of the sources' subscriptions: best effort, as sensor data are
/// published (any publisher connects), a few deep: the newest is taken at
/// every spin.
pub const SOURCE_QOS: r2r::QosProfile = r2r::QosProfile::default().best_effort().keep_last(5);

/// A source's reader, with the readings of rcl's native messages.
pub use crate::node::{SourceInput, SourceReader};

/// `reader` reads native messages: their frame ids and sizes checked
/// before anything is copied, their numbers and slices lent to the core's
/// [`SourceReader`].
pub trait NativeSource {
    /// A native `sensor_msgs/LaserScan`; `tf` is asked for its exclusion
    /// zones' placement (when one is enabled).
    fn native_scan<T: std::ops::Deref<Target = FrameTree>>(
        &mut self,
        msg: &NativeScan,
        tf: impl FnOnce() -> T,
        now: f64,
        out: PointSet,
    ) -> SourceInput;
    /// A native `sensor_msgs/Range`; `tf` as for a scan.
    fn native_range<T: std::ops::Deref<Target = FrameTree>>(
        &mut self,
        msg: &NativeRange,
        tf: impl FnOnce() -> T,
        now: f64,
        out: PointSet,
    ) -> SourceInput;
    /// A native `nav2_msgs/Costmap`; `tf` as for a scan.
    fn native_costmap<T: std::ops::Deref<Target = FrameTree>>(
        &mut self,
        msg: &NativeCostmap,
        tf: impl FnOnce() -> T,
        now: f64,
        out: PointSet,
    ) -> SourceInput;
    /// A native `sensor_msgs/PointCloud2`; `tf` is asked for its transform.
    fn native_cloud<T: std::ops::Deref<Target = FrameTree>>(
        &mut self,
        msg: &NativeCloud,
        tf: impl FnOnce() -> T,
        now: f64,
        out: PointSet,
    ) -> SourceInput;
}

impl NativeSource for SourceReader {
    fn native_scan<T: std::ops::Deref<Target = FrameTree>>(
        &mut self,
        msg: &NativeScan,
        tf: impl FnOnce() -> T,
        now: f64,
        out: PointSet,
    ) -> SourceInput {
        let Ok(frame) = native::frame_id(&msg.header.frame_id) else {
            return self.refused("invalid frame id", Cause::InvalidSource);
        };
        let Some(ranges) = native::items_within(&msg.ranges, MAX_SENSOR_POINTS) else {
            return self.refused("too many ranges", Cause::InvalidSource);
        };
        let scan = LaserScan {
            angle_min: msg.angle_min,
            angle_max: msg.angle_max,
            angle_increment: msg.angle_increment,
            range_min: msg.range_min,
            range_max: msg.range_max,
            ranges,
        };
        let stamp = native::seconds(&msg.header.stamp);
        self.scan(frame, stamp, &scan, tf, now, out)
    }

    fn native_range<T: std::ops::Deref<Target = FrameTree>>(
        &mut self,
        msg: &NativeRange,
        tf: impl FnOnce() -> T,
        now: f64,
        out: PointSet,
    ) -> SourceInput {
        let Ok(frame) = native::frame_id(&msg.header.frame_id) else {
            return self.refused("invalid frame id", Cause::InvalidSource);
        };
        let reading = RangeReading {
            field_of_view: msg.field_of_view,
            min_range: msg.min_range,
            max_range: msg.max_range,
            range: msg.range,
        };
        let stamp = native::seconds(&msg.header.stamp);
        let nanosec = msg.header.stamp.nanosec;
        self.range(frame, stamp, nanosec, &reading, tf, now, out)
    }

    fn native_costmap<T: std::ops::Deref<Target = FrameTree>>(
        &mut self,
        msg: &NativeCostmap,
        tf: impl FnOnce() -> T,
        now: f64,
        out: PointSet,
    ) -> SourceInput {
        let Ok(frame) = native::frame_id(&msg.header.frame_id) else {
            return self.refused("invalid frame id", Cause::InvalidSource);
        };
        let Some(data) = native::items_within(&msg.data, MAX_COSTMAP_CELLS) else {
            return self.refused("too_many_cells", Cause::InvalidSource);
        };
        let meta = &msg.metadata;
        let (p, q) = (&meta.origin.position, &meta.origin.orientation);
        let map = Costmap {
            resolution: meta.resolution,
            size_x: meta.size_x,
            size_y: meta.size_y,
            origin: [p.x, p.y],
            orientation: [q.x, q.y, q.z, q.w],
            data,
        };
        let stamp = native::seconds(&msg.header.stamp);
        self.costmap(frame, stamp, &map, tf, now, out)
    }

    fn native_cloud<T: std::ops::Deref<Target = FrameTree>>(
        &mut self,
        msg: &NativeCloud,
        tf: impl FnOnce() -> T,
        now: f64,
        out: PointSet,
    ) -> SourceInput {
        let Ok(frame) = native::frame_id(&msg.header.frame_id) else {
            return self.refused("invalid frame id", Cause::InvalidSource);
        };
        let stamp = native::seconds(&msg.header.stamp);
        let points = u64::from(msg.width) * u64::from(msg.height);
        if points > MAX_SENSOR_POINTS as u64 {
            return self.refused("too_many_points", Cause::InvalidSource);
        }
        let Some(native_fields) = native::items_within(&msg.fields, MAX_CLOUD_FIELDS) else {
            return self.refused("too many fields", Cause::InvalidSource);
        };
        let mut fields = [PointField::default(); MAX_CLOUD_FIELDS];
        for (field, native_field) in fields.iter_mut().zip(native_fields) {
            *field = PointField {
                name: native::bytes(&native_field.name),
                offset: native_field.offset,
                datatype: native_field.datatype,
                count: native_field.count,
            };
        }
        let cloud = PointCloud {
            height: msg.height,
            width: msg.width,
            fields: &fields[..native_fields.len()],
            is_bigendian: msg.is_bigendian,
            point_step: msg.point_step,
            row_step: msg.row_step,
            data: native::items(&msg.data),
        };
        self.cloud(frame, stamp, &cloud, tf, now, out)
    }
}

/// The newest input of every source for the decision: a newer message
/// replaces one not yet taken (its point buffer kept for reuse).
#[derive(Debug, Default)]
pub struct LatestSources {
    inner: Mutex<LatestInner>,
    ready: tokio::sync::Notify,
}

#[derive(Debug, Default)]
struct LatestInner {
    latest: Vec<Option<(SourceInput, Arrival)>>,
    spare: Vec<PointSet>,
    /// Messages replaced before they were taken.
    superseded: u64,
}

/// Point buffers kept for reuse at most (one per source is enough).
const MAX_SPARE: usize = 8;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl LatestSources {
    /// A point buffer to read the next message into.
    pub fn buffer(&self) -> PointSet {
        lock(&self.inner).spare.pop().unwrap_or_default()
    }

    /// Makes `input` its source's newest.
    pub fn put(&self, input: SourceInput, arrival: Arrival) {
        let mut inner = lock(&self.inner);
        let index = input.index;
        if inner.latest.len() <= index {
            inner.latest.resize_with(index + 1, || None);
        }
        if let Some((old, _)) = inner.latest[index].replace((input, arrival)) {
            inner.superseded += 1;
            if let Ok(points) = old.points {
                if inner.spare.len() < MAX_SPARE {
                    inner.spare.push(points);
                }
            }
        }
        drop(inner);
        self.ready.notify_one();
    }

    /// Every source's newest input that came since the last call, into
    /// `out`.
    pub fn take(&self, out: &mut Vec<(SourceInput, Arrival)>) {
        out.extend(lock(&self.inner).latest.iter_mut().filter_map(Option::take));
    }

    /// Returns a point buffer for reuse.
    pub fn give_back(&self, mut points: PointSet) {
        points.clear();
        let mut inner = lock(&self.inner);
        if inner.spare.len() < MAX_SPARE {
            inner.spare.push(points);
        }
    }

    /// Waits until an input is put.
    pub async fn ready(&self) {
        self.ready.notified().await;
    }
}
