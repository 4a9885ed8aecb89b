//! ROS time as every thread of the node reads it: sim time when enabled,
//! judged against a steady clock ([`RosTime`]).

use super::threads::lock;
use crate::config::NodeConfig;
use crate::monitor::clock::{ClockReading, ClockWatch};
use crate::ros::inputs::Arrival;
use r2r::Clock;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// ROS time (sim time when enabled), judged by a [`ClockWatch`] against a
/// steady clock. Shared by every thread that stamps or decides.
pub(super) struct RosTime {
    clock: Arc<Mutex<Clock>>,
    watch: Mutex<ClockWatch>,
    start: Instant,
    /// Seconds ROS time may stand still before it counts as stalled.
    pub(super) stall_limit: Mutex<f64>,
}

impl RosTime {
    pub(super) fn new(clock: Arc<Mutex<Clock>>, config: &NodeConfig) -> Self {
        RosTime {
            clock,
            watch: Mutex::new(ClockWatch::default()),
            start: Instant::now(),
            stall_limit: Mutex::new(stall_limit(config)),
        }
    }

    pub(super) fn read(&self) -> ClockReading {
        let limit = *lock(&self.stall_limit);
        let mut watch = lock(&self.watch);
        let ros = lock(&self.clock)
            .get_now()
            .map(|d| d.as_secs_f64())
            .unwrap_or(0.0);
        watch.observe(ros, self.start.elapsed().as_secs_f64(), limit)
    }

    pub(super) fn arrival(&self) -> Arrival {
        let r = self.read();
        Arrival {
            time: r.ros,
            generation: r.generation,
        }
    }
}

/// ROS time may stand still for this long before it counts as stalled
/// ([`MonitorConfig::stall_limit`](crate::monitor::MonitorConfig::stall_limit)).
pub(super) use crate::node::stall_limit;

pub(super) fn stamp_of(seconds: f64) -> Duration {
    Duration::try_from_secs_f64(seconds.max(0.0)).unwrap_or_default()
}
