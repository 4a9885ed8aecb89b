//! The obstacle worker (`obstacles` thread): validates and splits obstacle
//! shapes, applies arrays and instances, expires instances, indexes, and
//! hands the decision loop each new obstacle set.

use super::logging::{shown, Warnings};
use super::ros_time::{stamp_of, RosTime};
use super::threads::{lock, lower_priority, trim_heap, OBSTACLES_NICE};
use crate::limits::MAX_INSTANCES;
use crate::model::{Obstacle, ObstacleGeometry, Rejection, Status};
use crate::monitor::{Monitor, ObstacleSet};
use crate::ros::convert;
use crate::ros::inputs::{ArrayInput, Arrival, InstanceInput, PendingObstacles};
use crate::ros::params::Params;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Inputs above this many vertices are large: memory is trimmed after them.
const LARGE_INPUT_VERTICES: usize = 100_000;

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
            let mut changed = false;
            if let Some((input, arrival)) = batch.array {
                large |= self.apply_array(input, arrival);
                changed = true;
            }
            for (input, arrival) in batch.instances {
                self.apply_instance(input, arrival);
                changed = true;
            }
            changed |= self.monitor.expire_instances(reading.ros) > 0;
            if changed {
                self.sets
                    .send_replace(Arc::clone(self.monitor.obstacle_set()));
            }
            self.pending.done();
            if large {
                trim_heap();
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

    fn apply_instance(&mut self, input: InstanceInput, arrival: Arrival) {
        if arrival.generation != self.monitor.generation() {
            return;
        }
        match input {
            InstanceInput::Rejected(rejection) => {
                self.warnings.warn("instances", || {
                    format!("obstacle instance refused: {}", rejection)
                });
                self.monitor.reject_instance(rejection, arrival.time);
            }
            InstanceInput::Instance {
                frame_id,
                stamp,
                id,
                points,
            } => {
                let id = convert::instance_id(id);
                let set = self.monitor.obstacle_set();
                if !set.has_instance(&id) && set.instance_count() >= MAX_INSTANCES {
                    self.warnings.warn("instances", || {
                        format!("obstacle instance refused: more than {MAX_INSTANCES} alive")
                    });
                    self.monitor
                        .reject_instance(Rejection::TooManyObstacles, arrival.time);
                    return;
                }
                let geometry = ObstacleGeometry::Polygon(points);
                let obstacle = Obstacle::new(id.clone(), &geometry);
                if !self
                    .monitor
                    .upsert_instance_at(&frame_id, stamp, obstacle, arrival.time)
                {
                    let age = arrival.time - stamp;
                    self.warnings.warn("instances", || {
                        format!(
                            "obstacle instance `{}` dropped: stamped {age:.3} s before it \
                             arrived, beyond obstacles_timeout",
                            shown(&id)
                        )
                    });
                }
            }
        }
    }
}
