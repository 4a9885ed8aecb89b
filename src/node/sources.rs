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
//!
//! The source's exclusion zones (`super::exclusion`) mask its points as
//! they are read: placed in the message's frame under the TF buffer's lock
//! (with a cloud's own lookup, in the same lock), applied to the decoded
//! points outside it, before they go into the [`PointSet`];
//! [`SourceInput::exclusion`] says what they did.

use super::exclusion::{transform_cause, Exclusion, ExclusionZones, Placed, ReaderZones};
use super::inputs::SourceInput;
use crate::broadphase::{ObstacleIndex, PointSet};
use crate::config::{NodeConfig, SourceConfig};
use crate::frames::FrameTree;
use crate::geometry::Point;
use crate::model::{Cause, Obstacle};
use crate::monitor::SourceKind;
use crate::sensors::{
    check_range_header, cloud_points, cloud_points_with_heights, costmap_cells, range_points,
    scan_points, CloudFilter, Costmap, LaserScan, PointCloud, RangeReading, MAX_SENSOR_POINTS,
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
    /// Every source's exclusion zones (shared), and this source's copy.
    zones: ExclusionZones,
    local: ReaderZones,
    /// This source's zones placed for the message being read.
    placed: Placed,
    /// A cloud's kept points' heights in the base frame, when a zone's
    /// height band needs them.
    heights: Vec<f64>,
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
            zones: ExclusionZones::default(),
            local: ReaderZones::default(),
            placed: Placed::default(),
            heights: Vec::new(),
        }
    }

    /// The reader masking with `zones` (its source's, by its index): the
    /// core's ([`Core::exclusion_zones`](super::Core::exclusion_zones)).
    pub fn with_zones(mut self, zones: &ExclusionZones) -> Self {
        self.zones = zones.clone();
        self
    }

    /// A reader per configured source of `config` (`observation_sources`),
    /// in order: what both edges read with (each then given the core's
    /// exclusion zones, [`with_zones`](Self::with_zones)).
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

    /// Places the source's enabled zones for a message in `frame` at
    /// `stamp` (see [`ReaderZones::place`]) with the tree `tf` gives,
    /// asked only when a zone is enabled.
    fn place_zones<T: std::ops::Deref<Target = FrameTree>>(
        &mut self,
        at: (&str, f64, bool, bool),
        tf: impl FnOnce() -> T,
        now: f64,
    ) {
        self.zones.refresh(self.index, &mut self.local);
        if self.local.any_enabled() {
            let tree = tf();
            self.local.place(&tree, at, now, &mut self.placed);
        } else {
            self.placed.clear();
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
            moved: false,
            stamp,
            points: Err(Cause::InvalidSource),
            cells: None,
            reason: "",
            exclusion: Exclusion::default(),
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

    /// The points `decode` reads (into the reader's scratch buffer, with
    /// their heights when it gives them), in `frame_id` stamped `stamp`,
    /// those the placed zones mask dropped, the rest moved into `out`; or
    /// the source refused with the reason `decode` gives.
    fn decoded(
        &mut self,
        frame_id: &str,
        stamp: f64,
        mut out: PointSet,
        decode: impl FnOnce(&mut Vec<Point>, &mut Vec<f64>) -> Result<(), &'static str>,
    ) -> SourceInput {
        self.scratch.clear();
        self.heights.clear();
        if let Err(reason) = decode(&mut self.scratch, &mut self.heights) {
            return self.refused(reason, Cause::InvalidSource);
        }
        let mut input = self.input(frame_id, stamp);
        input.exclusion = if self.placed.is_empty() {
            self.placed.unplaced_only()
        } else {
            self.placed.mask(&mut self.scratch, &mut self.heights)
        };
        out.clear();
        for p in self.scratch.drain(..) {
            out.push(p);
        }
        input.points = Ok(out);
        input
    }

    /// A `sensor_msgs/LaserScan` in `frame` stamped `stamp`: ranges within
    /// its limits become points in its frame, those of its exclusion zones
    /// masked (`tf` asked, at `now`, only when a zone is enabled).
    pub fn scan<T: std::ops::Deref<Target = FrameTree>>(
        &mut self,
        frame: &str,
        stamp: f64,
        scan: &LaserScan<'_>,
        tf: impl FnOnce() -> T,
        now: f64,
        out: PointSet,
    ) -> SourceInput {
        if scan.ranges.len() > MAX_SENSOR_POINTS {
            return self.refused("too many ranges", Cause::InvalidSource);
        }
        self.place_zones((frame, stamp, false, false), tf, now);
        self.decoded(frame, stamp, out, |points, _| {
            scan_points(scan, points).map(drop).map_err(|e| e.as_str())
        })
    }

    /// A `sensor_msgs/Range` in `frame` stamped `stamp` (its header's
    /// `nanosec` as sent, checked with the frame by
    /// [`check_range_header`], as nav2 checks the header): a reading within
    /// its limits becomes an arc of points in its frame (REP 117), those of
    /// its exclusion zones masked (`tf` asked, at `now`, only when a zone
    /// is enabled).
    #[allow(clippy::too_many_arguments)]
    pub fn range<T: std::ops::Deref<Target = FrameTree>>(
        &mut self,
        frame: &str,
        stamp: f64,
        nanosec: u32,
        reading: &RangeReading,
        tf: impl FnOnce() -> T,
        now: f64,
        out: PointSet,
    ) -> SourceInput {
        if let Err(e) = check_range_header(frame, nanosec) {
            return self.refused(e.as_str(), Cause::InvalidSource);
        }
        self.place_zones((frame, stamp, false, false), tf, now);
        let spacing = self.config.obstacles_angle;
        self.decoded(frame, stamp, out, |points, _| {
            range_points(reading, spacing, points)
                .map(drop)
                .map_err(|e| e.as_str())
        })
    }

    /// A `sensor_msgs/PointCloud2` in `frame` stamped `stamp`: its points
    /// moved into `base_frame` by the full 3-D transform at its stamp, kept
    /// within the height band, planar there, those of its exclusion zones
    /// masked. `tf` is asked for that one transform and the zones'
    /// placement (the node holds its TF buffer's lock for the lookups
    /// only, not for the decoding).
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
        self.zones.refresh(self.index, &mut self.local);
        let zones = self.local.any_enabled();
        let in_base = frame == self.base_frame;
        // One lock for the cloud's lookup and the zones' placement.
        let tree = (zones || !in_base).then(tf);
        let to_base = match tree.as_deref() {
            Some(tree) if !in_base => {
                let found = tree.lookup_3d(&self.base_frame, frame, stamp, now, self.tolerance);
                match found {
                    Ok(pose) => pose,
                    Err(fault) => {
                        return self.refused("no transform to base_frame", transform_cause(fault))
                    }
                }
            }
            _ => nalgebra::Isometry3::identity(),
        };
        match tree.as_deref() {
            Some(tree) if zones => {
                // In the base frame where it was at `stamp`, moved there
                // from another frame; the heights come with the points.
                let at = (self.base_frame.as_str(), stamp, !in_base, true);
                self.local.place(tree, at, now, &mut self.placed);
            }
            _ => self.placed.clear(),
        }
        drop(tree);
        let heights = self.placed.needs_heights();
        let filter = CloudFilter {
            to_base,
            min_height: self.config.min_height,
            max_height: self.config.max_height,
            min_range: self.config.min_range,
            use_global_height: self.config.use_global_height,
        };
        let base = std::mem::take(&mut self.base_frame);
        let mut input = self.decoded(&base, stamp, out, |points, z| {
            match heights {
                true => cloud_points_with_heights(cloud, &filter, points, z),
                false => cloud_points(cloud, &filter, points),
            }
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
    /// covers, indexed in its frame (placed by TF like a scan's points),
    /// those wholly in one of its exclusion zones masked (`tf` asked, at
    /// `now`, only when a zone is enabled; `Placed::mask_cells`). `out` is
    /// the point buffer the input gives back empty.
    pub fn costmap<T: std::ops::Deref<Target = FrameTree>>(
        &mut self,
        frame: &str,
        stamp: f64,
        map: &Costmap<'_>,
        tf: impl FnOnce() -> T,
        now: f64,
        mut out: PointSet,
    ) -> SourceInput {
        let mut cells = Vec::new();
        if let Err(e) = costmap_cells(map, &self.config.cost_rule(), &mut cells) {
            return self.refused(e.as_str(), Cause::InvalidSource);
        }
        self.place_zones((frame, stamp, false, false), tf, now);
        let exclusion = if self.placed.is_empty() {
            self.placed.unplaced_only()
        } else {
            self.placed.mask_cells(&mut cells)
        };
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
            exclusion,
            ..self.input(frame, stamp)
        }
    }
}
