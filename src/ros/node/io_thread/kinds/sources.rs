//! One sensor source of `observation_sources` (scan, point cloud, range,
//! costmap, polygon): its topic read by the core's [`SourceReader`] into the
//! sources' keep-latest slot; a polygon source's polygons into the obstacle
//! stage's queue as instances of that source.

use super::kind::{InputKind, Intake, LARGE_MESSAGE_BYTES};
use crate::monitor::SourceKind;
use crate::ros::inputs::{self, InstanceInput, PendingObstacles};
use crate::ros::node::io_thread::pool::{Lease, Subscriber};
use crate::ros::node::io_thread::sinks::Sinks;
use crate::ros::node::threads::lock;
use crate::ros::sources::{LatestSources, NativeSource, SourceReader, SOURCE_QOS};
use crate::ros::tf::TfBuffer;
use r2r::geometry_msgs::msg::PolygonInstanceStamped;
use r2r::nav2_msgs::msg::Costmap;
use r2r::sensor_msgs::msg::{LaserScan, PointCloud2, Range};
use std::sync::Arc;

/// The subscription, of the source's type.
enum Sub {
    Scan(Lease<LaserScan>),
    Cloud(Lease<PointCloud2>),
    Range(Lease<Range>),
    Costmap(Lease<Costmap>),
    /// A polygon source: its polygons are obstacle instances.
    Polygon(Lease<PolygonInstanceStamped>),
}

/// One source.
pub(crate) struct Source {
    sub: Sub,
    reader: SourceReader,
    latest: Arc<LatestSources>,
    pending: Arc<PendingObstacles>,
}

/// The TF buffer locked for one lookup: its tree.
struct TreeGuard<'a>(std::sync::MutexGuard<'a, TfBuffer>);

impl std::ops::Deref for TreeGuard<'_> {
    type Target = crate::frames::FrameTree;

    fn deref(&self) -> &Self::Target {
        &self.0.tree
    }
}

impl Source {
    pub(crate) fn subscribe(
        subscriber: &mut Subscriber<'_>,
        sinks: &Sinks,
        reader: SourceReader,
    ) -> r2r::Result<Option<Box<dyn InputKind>>> {
        let topic = reader.config.topic.as_str();
        let sub = match reader.kind() {
            SourceKind::Scan => Sub::Scan(subscriber.subscribe(topic, SOURCE_QOS)?),
            SourceKind::PointCloud => Sub::Cloud(subscriber.subscribe(topic, SOURCE_QOS)?),
            SourceKind::Range => Sub::Range(subscriber.subscribe(topic, SOURCE_QOS)?),
            SourceKind::Polygon => Sub::Polygon(subscriber.subscribe(topic, SOURCE_QOS)?),
            SourceKind::Costmap => Sub::Costmap(subscriber.subscribe(topic, SOURCE_QOS)?),
            // The fleet topic is its own kind (`kinds::fleet`).
            SourceKind::Fleet => return Ok(None),
        };
        Ok(Some(Box::new(Source {
            sub,
            reader,
            latest: Arc::clone(&sinks.latest_sources),
            pending: Arc::clone(&sinks.pending),
        })))
    }
}

impl InputKind for Source {
    fn take(&mut self, intake: &mut Intake<'_>) {
        let (time, tf) = (intake.time, intake.tf);
        let (reader, latest) = (&mut self.reader, &self.latest);
        let mut large = false;
        match &mut self.sub {
            Sub::Scan(sub) => sub.each(|msg| {
                let arrival = time.arrival();
                let tree = || TreeGuard(lock(tf));
                let input = reader.native_scan(msg, tree, arrival.time, latest.buffer());
                latest.put(input, arrival);
            }),
            // Never `large`: a cloud comes every sensor period, the size of
            // the one before, into the memory that one freed. Trimming
            // after each would hand those pages back only for the next take
            // to fault them in again, before decoding starts (a 3.2 MB
            // cloud: 781 page faults, about 1 ms; BENCHMARKS.md, "Node
            // latency, point clouds").
            Sub::Cloud(sub) => sub.each(|msg| {
                let arrival = time.arrival();
                let buffer = latest.buffer();
                let tree = || TreeGuard(lock(tf));
                let input = reader.native_cloud(msg, tree, arrival.time, buffer);
                latest.put(input, arrival);
            }),
            Sub::Range(sub) => sub.each(|msg| {
                let arrival = time.arrival();
                let tree = || TreeGuard(lock(tf));
                let input = reader.native_range(msg, tree, arrival.time, latest.buffer());
                latest.put(input, arrival);
            }),
            // A costmap is large (40,000 bytes at 200 x 200) but comes at
            // a costmap's rate, a few hertz.
            Sub::Costmap(sub) => sub.each(|msg| {
                let arrival = time.arrival();
                let tree = || TreeGuard(lock(tf));
                let input = reader.native_costmap(msg, tree, arrival.time, latest.buffer());
                latest.put(input, arrival);
            }),
            Sub::Polygon(sub) => {
                let pending = &self.pending;
                sub.each(|msg| {
                    let arrival = time.arrival();
                    large |= inputs::instance_bytes(msg) > LARGE_MESSAGE_BYTES;
                    let input = InstanceInput::read_from(msg, Some(reader.index));
                    pending.put_instance(input, arrival);
                });
            }
        }
        intake.large |= large;
    }
}
