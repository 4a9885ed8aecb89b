//! The obstacle worker (`obstacles` thread): validates and splits obstacle
//! shapes, applies arrays and instances, expires instances, indexes, and
//! hands the decision loop each new obstacle set.
//!
//! The instances of one batch are applied as one change of the set
//! ([`Monitor::upsert_instances`]): within the limits on live instances
//! ([`crate::monitor::MAX_INSTANCES`],
//! [`crate::monitor::MAX_INSTANCE_VERTICES`]), each refused with its
//! status. After a large change (an array, instances arriving or expiring,
//! more than [`LARGE_INPUT_VERTICES`] vertices) freed memory is given back
//! at once and again [`TRIM_AGAIN`] later, when the decision and the
//! report have let go of the sets it replaced.

use super::logging::{shown, Warnings};
use super::ros_time::{stamp_of, RosTime};
use super::threads::{lock, lower_priority, trim_heap, OBSTACLES_NICE};
use crate::limits::{MAX_INSTANCES, MAX_INSTANCE_VERTICES};
use crate::model::{Obstacle, ObstacleGeometry, Status};
use crate::monitor::{InstanceUpdate, InstancesApplied, Monitor, ObstacleSet, SourceKind};
use crate::ros::convert;
use crate::ros::inputs::{ArrayInput, Arrival, InstanceInput, PendingObstacles};
use crate::ros::params::Params;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Inputs above this many vertices are large: memory is trimmed after them.
const LARGE_INPUT_VERTICES: usize = 100_000;

/// After a large change, memory is trimmed again this much later: by then
/// the decision and the report have let go of the sets it replaced.
const TRIM_AGAIN: Duration = Duration::from_secs(1);

/// The obstacle worker: validation and convex splitting of obstacle shapes,
/// arrays, instances and their expiry, off the flag's path.
pub(super) struct ObstacleWorker {
    pub(super) monitor: Monitor,
    pub(super) pending: Arc<PendingObstacles>,
    pub(super) time: Arc<RosTime>,
    pub(super) params: Arc<Mutex<Params>>,
    pub(super) sets: tokio::sync::watch::Sender<Arc<ObstacleSet>>,
    pub(super) warnings: Warnings,
}

impl ObstacleWorker {
    pub(super) fn run(mut self) {
        lower_priority(OBSTACLES_NICE);
        let mut trim_again: Option<Instant> = None;
        loop {
            let wait = self.wait_time();
            let batch = self.pending.take(wait);
            if batch.stop {
                return;
            }
            let config = lock(&self.params).0.monitor.clone();
            let reading = self.time.read();
            if reading.generation != self.monitor.generation() {
                // A jump back: instances from before it would never expire.
                self.monitor.forget_instances();
            }
            self.monitor.set_clock(reading.generation, None);
            self.monitor.set_config(config);
            let mut large = false;
            // A disabled polygon source counts for nothing: its polygons go.
            let mut changed = self.drop_disabled_sources() > 0;
            if let Some((input, arrival)) = batch.array {
                large |= self.apply_array(input, arrival);
                changed = true;
            }
            if !batch.instances.is_empty() {
                large |= self.apply_instances(batch.instances);
                changed = true;
            }
            let alive = self.monitor.obstacle_set().instance_vertices();
            if self.monitor.expire_instances(reading.ros) > 0 {
                changed = true;
                let left = self.monitor.obstacle_set().instance_vertices();
                large |= alive.saturating_sub(left) > LARGE_INPUT_VERTICES;
            }
            if changed {
                self.sets
                    .send_replace(Arc::clone(self.monitor.obstacle_set()));
            }
            self.pending.done();
            if large {
                trim_heap();
                trim_again = Some(Instant::now() + TRIM_AGAIN);
            } else if trim_again.is_some_and(|at| Instant::now() >= at) {
                trim_heap();
                trim_again = None;
            }
        }
    }

    /// Until the next instance expires, at most 50 ms.
    fn wait_time(&self) -> Duration {
        let timeout = lock(&self.params).0.monitor.obstacles_timeout;
        let now = self.time.read().ros;
        self.monitor
            .obstacle_set()
            .next_expiry(timeout)
            .map_or(Duration::from_millis(50), |at| {
                stamp_of(at - now).min(Duration::from_millis(50))
            })
    }

    /// Applies an array; true when it was large.
    fn apply_array(&mut self, input: ArrayInput, arrival: Arrival) -> bool {
        if arrival.generation != self.monitor.generation() {
            return false;
        }
        match input {
            ArrayInput::Rejected(rejection) => {
                self.warnings.warn("obstacles", || {
                    format!("obstacle array refused: {}", rejection)
                });
                self.monitor.reject_obstacles(rejection, arrival.time);
                false
            }
            ArrayInput::Obstacles {
                frame_id,
                stamp,
                obstacles,
            } => {
                let vertices: usize = obstacles
                    .iter()
                    .map(|(_, g)| match g {
                        ObstacleGeometry::Polygon(p) => p.len(),
                        ObstacleGeometry::Circle { .. } => 1,
                    })
                    .sum();
                let obstacles: Vec<Obstacle> = obstacles
                    .into_iter()
                    .map(|(id, geometry)| Obstacle::new(id, &geometry))
                    .collect();
                if let Some((bad, error)) = obstacles
                    .iter()
                    .find_map(|o| o.shape.as_ref().err().map(|e| (o, e)))
                {
                    let status = Status::from(error);
                    let message = format!("obstacle `{}` rejected: {status}", shown(&bad.id));
                    self.warnings.warn("obstacles", || message);
                }
                self.monitor
                    .set_obstacles_at(&frame_id, stamp, obstacles, arrival.time);
                vertices > LARGE_INPUT_VERTICES
            }
        }
    }

    /// Applies a batch of instances (one per id, and the newest refusal)
    /// as one change of the set; true when they were large.
    /// Drops the polygons of the polygon sources that are disabled.
    /// Returns how many.
    fn drop_disabled_sources(&mut self) -> usize {
        let disabled: Vec<String> = self
            .monitor
            .config()
            .sources
            .iter()
            .filter(|s| s.kind == SourceKind::Polygon && !s.enabled)
            .map(|s| crate::monitor::source_polygon_prefix(&s.name))
            .collect();
        disabled
            .iter()
            .map(|prefix| self.monitor.drop_instances_of(prefix))
            .sum()
    }

    fn apply_instances(&mut self, batch: Vec<(InstanceInput, Arrival)>) -> bool {
        let generation = self.monitor.generation();
        let mut updates = Vec::with_capacity(batch.len());
        let mut vertices = 0usize;
        for (input, arrival) in batch {
            if arrival.generation != generation {
                continue;
            }
            match input {
                InstanceInput::Rejected(rejection) => {
                    self.warnings.warn("instances", || {
                        format!("obstacle instance refused: {rejection}")
                    });
                    self.monitor.reject_instance(rejection, arrival.time);
                }
                InstanceInput::Instance {
                    frame_id,
                    stamp,
                    id,
                    source,
                    points,
                } => {
                    // A polygon source's: named after it, living its
                    // `source_timeout`; nothing while it is disabled.
                    let (name, lifetime) = match source {
                        None => (convert::instance_id(id), None),
                        Some(index) => match self.monitor.config().sources.get(index) {
                            Some(spec) if spec.enabled => (
                                crate::monitor::source_polygon_id(&spec.name, id),
                                Some(spec.timeout),
                            ),
                            _ => continue,
                        },
                    };
                    vertices += points.len();
                    let geometry = ObstacleGeometry::Polygon(points);
                    updates.push(InstanceUpdate {
                        frame_id,
                        stamp,
                        obstacle: Obstacle::new(name, &geometry),
                        received: arrival.time,
                        lifetime,
                    });
                }
            }
        }
        if !updates.is_empty() {
            let InstancesApplied { refused, stale } = self.monitor.upsert_instances(updates);
            if let Some((id, age)) = stale.last() {
                self.warnings.warn("instances", || {
                    format!(
                        "obstacle instance `{}` dropped: stamped {age:.3} s before it arrived, \
                         beyond obstacles_timeout",
                        shown(id)
                    )
                });
            }
            if let Some((id, rejection)) = refused.last() {
                let set = self.monitor.obstacle_set();
                let message = format!(
                    "obstacle instance `{}` refused: {rejection} ({} refused; {} alive with {} \
                     vertices, at most {MAX_INSTANCES} and {MAX_INSTANCE_VERTICES})",
                    shown(id),
                    refused.len(),
                    set.instance_count(),
                    set.instance_vertices(),
                );
                self.warnings.warn("instances", || message);
            }
        }
        vertices > LARGE_INPUT_VERTICES
    }
}
