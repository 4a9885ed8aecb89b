//! The obstacle worker (`obstacles` thread): runs the core's obstacle stage
//! ([`crate::node::ObstacleStage`]: validates and splits obstacle shapes,
//! applies arrays and instances, expires instances, indexes) on the
//! batches the I/O thread queues, and hands the decision loop each new
//! obstacle set. After a large change ([`crate::node::LARGE_INPUT_VERTICES`])
//! freed memory is given back at once and again [`TRIM_AGAIN`] later, when
//! the decision and the report have let go of the sets it replaced.

use super::logging::Warnings;
use super::ros_time::{stamp_of, RosTime};
use super::threads::{lock, lower_priority, trim_heap, OBSTACLES_NICE};
use crate::monitor::ObstacleSet;
use crate::node::{ObstacleBatch, ObstacleStage};
use crate::ros::inputs::PendingObstacles;
use crate::ros::params::Params;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Freed memory is given back again this long after a large change.
const TRIM_AGAIN: Duration = Duration::from_secs(1);

/// The obstacle worker's state.
pub(super) struct ObstacleWorker {
    pub(super) stage: ObstacleStage,
    pub(super) pending: Arc<PendingObstacles>,
    pub(super) time: Arc<RosTime>,
    pub(super) params: Arc<Mutex<Params>>,
    pub(super) sets: tokio::sync::watch::Sender<Arc<ObstacleSet>>,
    pub(super) warnings: Warnings,
}

impl ObstacleWorker {
    /// Runs until the pending queue is stopped.
    pub(super) fn run(mut self) {
        lower_priority(OBSTACLES_NICE);
        let mut trim_again: Option<Instant> = None;
        let mut notices = Vec::new();
        loop {
            let wait = self.wait_time();
            let batch = self.pending.take(wait);
            if batch.stop {
                return;
            }
            let config = lock(&self.params).0.monitor.clone();
            let reading = self.time.read();
            let batch = ObstacleBatch {
                array: batch.array,
                instances: batch.instances,
            };
            let applied = self.stage.apply(batch, reading, config, &mut notices);
            self.warnings.notices(&mut notices);
            if applied.changed {
                self.sets
                    .send_replace(Arc::clone(self.stage.obstacle_set()));
            }
            self.pending.done();
            if applied.large {
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
        self.stage
            .next_expiry(timeout)
            .map_or(Duration::from_millis(50), |at| {
                stamp_of(at - now).min(Duration::from_millis(50))
            })
    }
}
