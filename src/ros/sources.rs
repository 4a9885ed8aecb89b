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
use crate::config::SourceConfig;
use crate::frames::{FrameTree, LookupFault};
use crate::geometry::Point;
use crate::model::Cause;
use crate::monitor::SourceKind;
use crate::sensors::{
    cloud_points, range_points, scan_points, CloudFilter, LaserScan, PointCloud, PointField,
    RangeReading, MAX_SENSOR_POINTS,
};
use r2r_msg_gen::{
    sensor_msgs__msg__LaserScan as NativeScan, sensor_msgs__msg__PointCloud2 as NativeCloud,
    sensor_msgs__msg__Range as NativeRange,
};
use std::sync::{Mutex, MutexGuard};

/// The QoS of the sources' subscriptions: best effort, as sensor data are
/// published (any publisher connects), a few deep: the newest is taken at
/// every spin.
pub const SOURCE_QOS: r2r::QosProfile = r2r::QosProfile::default().best_effort().keep_last(5);

/// Fields of a point cloud read at most: x, y, z, a height and a few more
/// are all a cloud needs; more is refused as malformed.
const MAX_CLOUD_FIELDS: usize = 64;

/// One source's latest message, read: its points (in `frame_id`), or why it
/// cannot be used.
#[derive(Debug)]
pub struct SourceInput {
    /// The source's position in `observation_sources`.
    pub index: usize,
    /// The frame of the points (a cloud's: `base_frame`).
    pub frame_id: String,
    /// Header stamp (s).
    pub stamp: f64,
    /// The points, or the cause the message holds against the answer.
    pub points: Result<PointSet, Cause>,
    /// Why it was refused, for the log (empty when it was not).
    pub reason: &'static str,
}

/// Reads one source's messages.
#[derive(Debug)]
pub struct SourceReader {
    /// The source's position in `observation_sources`.
    pub index: usize,
    /// Its configuration.
    pub config: SourceConfig,
    /// The robot's frame: where a cloud's heights are compared.
    base_frame: String,
    /// `transform_tolerance` (s).
    tolerance: f64,
    /// Decoded points before they go into a [`PointSet`].
    scratch: Vec<Point>,
}

impl SourceReader {
    /// A reader for the source at `index`.
    pub fn new(index: usize, config: SourceConfig, base_frame: &str, tolerance: f64) -> Self {
        SourceReader {
            index,
            config,
            base_frame: base_frame.to_owned(),
            tolerance,
            scratch: Vec::new(),
        }
    }

    /// What it reads.
    pub fn kind(&self) -> SourceKind {
        self.config.kind
    }

    fn input(&self, frame_id: &str, stamp: f64) -> SourceInput {
        SourceInput {
            index: self.index,
            frame_id: frame_id.to_owned(),
            stamp,
            points: Err(Cause::InvalidSource),
            reason: "",
        }
    }

    fn refused(&self, reason: &'static str, cause: Cause) -> SourceInput {
        SourceInput {
            points: Err(cause),
            reason,
            ..self.input("", 0.0)
        }
    }

    /// The points `decode` reads (into the reader's scratch buffer), in
    /// `frame_id` stamped `stamp`, moved into `out`; or the source refused
    /// with the reason `decode` gives.
    fn decoded(
        &mut self,
        frame_id: &str,
        stamp: f64,
        mut out: PointSet,
        decode: impl FnOnce(&mut Vec<Point>) -> Result<(), &'static str>,
    ) -> SourceInput {
        self.scratch.clear();
        if let Err(reason) = decode(&mut self.scratch) {
            return self.refused(reason, Cause::InvalidSource);
        }
        let mut input = self.input(frame_id, stamp);
        out.clear();
        for p in self.scratch.drain(..) {
            out.push(p);
        }
        input.points = Ok(out);
        input
    }

    /// A `sensor_msgs/LaserScan`: ranges within its limits become points in
    /// its frame.
    pub fn scan(&mut self, msg: &NativeScan, out: PointSet) -> SourceInput {
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
        self.decoded(frame, stamp, out, |points| {
            scan_points(&scan, points).map(drop).map_err(|e| e.as_str())
        })
    }

    /// A `sensor_msgs/Range`: a reading within its limits becomes an arc
    /// of points in its frame (REP 117).
    pub fn range(&mut self, msg: &NativeRange, out: PointSet) -> SourceInput {
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
        let spacing = self.config.obstacles_angle;
        self.decoded(frame, stamp, out, |points| {
            range_points(&reading, spacing, points)
                .map(drop)
                .map_err(|e| e.as_str())
        })
    }

    /// A `sensor_msgs/PointCloud2`: its points moved into `base_frame` by
    /// the full 3-D transform at its stamp, kept within the height band,
    /// planar there. `tf` is asked for that one transform (the node holds
    /// its TF buffer's lock for the lookup only, not for the decoding).
    pub fn cloud<T: std::ops::Deref<Target = FrameTree>>(
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
        let to_base = if frame == self.base_frame {
            nalgebra::Isometry3::identity()
        } else {
            let found = tf().lookup_3d(&self.base_frame, frame, stamp, now, self.tolerance);
            match found {
                Ok(pose) => pose,
                Err(fault) => {
                    return self.refused("no transform to base_frame", transform_cause(fault))
                }
            }
        };
        let cloud = PointCloud {
            height: msg.height,
            width: msg.width,
            fields: &fields[..native_fields.len()],
            is_bigendian: msg.is_bigendian,
            point_step: msg.point_step,
            row_step: msg.row_step,
            data: native::items(&msg.data),
        };
        let filter = CloudFilter {
            to_base,
            min_height: self.config.min_height,
            max_height: self.config.max_height,
            min_range: self.config.min_range,
            use_global_height: self.config.use_global_height,
        };
        let base = std::mem::take(&mut self.base_frame);
        let input = self.decoded(&base, stamp, out, |points| {
            cloud_points(&cloud, &filter, points)
                .map(drop)
                .map_err(|e| e.as_str())
        });
        self.base_frame = base;
        input
    }
}

/// A failed 3-D lookup as the cause the source reports.
fn transform_cause(fault: LookupFault) -> Cause {
    match fault {
        LookupFault::Unavailable => Cause::TransformUnavailable,
        LookupFault::TooManyFrames => Cause::TooManyFrames,
        LookupFault::Stale => Cause::StaleTransform,
        LookupFault::Invalid(_) => Cause::InvalidTransform,
        LookupFault::Conflict => Cause::TransformConflict,
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
