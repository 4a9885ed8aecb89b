//! Sensor sources as the core reads them: one [`SourceReader`] per
//! configured source (nav2's `observation_sources`), which owns its
//! decoding through `sensors`, its transform and its limits. An edge lends
//! it the message's numbers and slices (`ros::sources` from rcl's native
//! messages, `replay` from a bag's CDR); the sizes an edge can check before
//! copying anything ([`MAX_SENSOR_POINTS`](crate::sensors::MAX_SENSOR_POINTS),
//! [`MAX_CLOUD_FIELDS`]) are refused there with [`SourceReader::refused`].
//!
//! A scan's and a range reading's points stay in the message's frame
//! (placed by TF like any obstacle group); a point cloud's are moved into
//! `base_frame` by the full 3-D transform of its frame at its stamp
//! (`FrameTree::lookup_3d`), its heights compared there, and marked moved
//! ([`SourceInput::moved`]) when that frame is not `base_frame`. A message that
//! cannot be used becomes the source's cause ([`Cause::InvalidSource`], or
//! the transform's), never a silent "clear".

use super::inputs::SourceInput;
use crate::broadphase::{ObstacleIndex, PointSet};
use crate::config::{NodeConfig, SourceConfig};
use crate::frames::{FrameTree, LookupFault};
use crate::geometry::Point;
use crate::model::{Cause, Obstacle};
use crate::monitor::SourceKind;
use crate::sensors::{
    check_range_header, cloud_points, costmap_cells, range_points, scan_points, CloudFilter,
    Costmap, LaserScan, PointCloud, RangeReading, MAX_SENSOR_POINTS,
};

/// Fields of a point cloud read at most: x, y, z, a height and a few more
/// are all a cloud needs; more is refused as malformed.
pub const MAX_CLOUD_FIELDS: usize = 64;

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

    /// A reader per configured source of `config` (`observation_sources`),
    /// in order: what both edges read with.
    pub fn all(config: &NodeConfig) -> Vec<SourceReader> {
        config
            .sources
            .iter()
            .enumerate()
            .map(|(index, source)| {
                SourceReader::new(
                    index,
                    source.clone(),
                    &config.monitor.base_frame,
                    config.monitor.transform_tolerance,
                )
            })
            .collect()
    }

    /// What it reads.
    pub fn kind(&self) -> SourceKind {
        self.config.kind
    }

    fn input(&self, frame_id: &str, stamp: f64) -> SourceInput {
        SourceInput {
            index: self.index,
            frame_id: frame_id.to_owned(),
            moved: false,
            stamp,
            points: Err(Cause::InvalidSource),
            cells: None,
            reason: "",
        }
    }

    /// A message refused before it was read (an unreadable frame id, a
    /// size over the limits), with the reason logged and the cause it
    /// holds against the answer.
    pub fn refused(&self, reason: &'static str, cause: Cause) -> SourceInput {
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

    /// A `sensor_msgs/LaserScan` in `frame` stamped `stamp`: ranges within
    /// its limits become points in its frame.
    pub fn scan(
        &mut self,
        frame: &str,
        stamp: f64,
        scan: &LaserScan<'_>,
        out: PointSet,
    ) -> SourceInput {
        if scan.ranges.len() > MAX_SENSOR_POINTS {
            return self.refused("too many ranges", Cause::InvalidSource);
        }
        self.decoded(frame, stamp, out, |points| {
            scan_points(scan, points).map(drop).map_err(|e| e.as_str())
        })
    }

    /// A `sensor_msgs/Range` in `frame` stamped `stamp` (its header's
    /// `nanosec` as sent, checked with the frame by
    /// [`check_range_header`], as nav2 checks the header): a reading within
    /// its limits becomes an arc of points in its frame (REP 117).
    pub fn range(
        &mut self,
        frame: &str,
        stamp: f64,
        nanosec: u32,
        reading: &RangeReading,
        out: PointSet,
    ) -> SourceInput {
        if let Err(e) = check_range_header(frame, nanosec) {
            return self.refused(e.as_str(), Cause::InvalidSource);
        }
        let spacing = self.config.obstacles_angle;
        self.decoded(frame, stamp, out, |points| {
            range_points(reading, spacing, points)
                .map(drop)
                .map_err(|e| e.as_str())
        })
    }

    /// A `sensor_msgs/PointCloud2` in `frame` stamped `stamp`: its points
    /// moved into `base_frame` by the full 3-D transform at its stamp, kept
    /// within the height band, planar there. `tf` is asked for that one
    /// transform (the node holds its TF buffer's lock for the lookup only,
    /// not for the decoding).
    pub fn cloud<T: std::ops::Deref<Target = FrameTree>>(
        &mut self,
        frame: &str,
        stamp: f64,
        cloud: &PointCloud<'_>,
        tf: impl FnOnce() -> T,
        now: f64,
        out: PointSet,
    ) -> SourceInput {
        let points = u64::from(cloud.width) * u64::from(cloud.height);
        if points > MAX_SENSOR_POINTS as u64 {
            return self.refused("too_many_points", Cause::InvalidSource);
        }
        if cloud.fields.len() > MAX_CLOUD_FIELDS {
            return self.refused("too many fields", Cause::InvalidSource);
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
        let filter = CloudFilter {
            to_base,
            min_height: self.config.min_height,
            max_height: self.config.max_height,
            min_range: self.config.min_range,
            use_global_height: self.config.use_global_height,
        };
        let base = std::mem::take(&mut self.base_frame);
        let mut input = self.decoded(&base, stamp, out, |points| {
            cloud_points(cloud, &filter, points)
                .map(drop)
                .map_err(|e| e.as_str())
        });
        input.moved = input.points.is_ok() && frame != base;
        self.base_frame = base;
        input
    }
}

impl SourceReader {
    /// A `nav2_msgs/Costmap` in `frame` stamped `stamp`: its obstacle
    /// cells under the source's `cost_threshold` and
    /// `treat_unknown_as_obstacle` ([`costmap_cells`]), each the square it
    /// covers, indexed in its frame (placed by TF like a scan's points).
    /// `out` is the point buffer the input gives back empty.
    pub fn costmap(
        &mut self,
        frame: &str,
        stamp: f64,
        map: &Costmap<'_>,
        mut out: PointSet,
    ) -> SourceInput {
        let mut cells = Vec::new();
        if let Err(e) = costmap_cells(map, &self.config.cost_rule(), &mut cells) {
            return self.refused(e.as_str(), Cause::InvalidSource);
        }
        let obstacles = cells
            .into_iter()
            .map(|(index, shape)| Obstacle {
                id: index.to_string(),
                shape: Ok(shape),
                rejected_points: Vec::new(),
            })
            .collect();
        out.clear();
        SourceInput {
            points: Ok(out),
            cells: Some(ObstacleIndex::new(obstacles)),
            ..self.input(frame, stamp)
        }
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
