//! The obstacle stage: validates and splits obstacle shapes, applies
//! arrays and instances, expires instances, indexes, and says when the
//! decision's obstacle set changed. The node runs it on its `obstacles`
//! thread (so the flag never waits for a decomposition); a replay runs it
//! inline, at the same events.
//!
//! The instances of one batch are applied as one change of the set
//! ([`Monitor::upsert_instances`]): within the limits on live instances
//! ([`crate::monitor::MAX_INSTANCES`],
//! [`crate::monitor::MAX_INSTANCE_VERTICES`]), each refused with its
//! status. A change beyond [`LARGE_INPUT_VERTICES`] vertices is reported
//! as large, so the node can give freed memory back at once.

use super::inputs::{ArrayInput, Arrival, InstanceInput};
use super::outputs::{shown, Notice};
use crate::limits::{MAX_INSTANCES, MAX_INSTANCE_VERTICES};
use crate::model::{Obstacle, ObstacleGeometry, Status};
use crate::monitor::clock::ClockReading;
use crate::monitor::{
    InstanceUpdate, InstancesApplied, Monitor, MonitorConfig, ObstacleSet, SourceKind,
};
use std::sync::Arc;

/// A change of more vertices than this is large.
pub const LARGE_INPUT_VERTICES: usize = 100_000;

/// The id an obstacle instance gets in reports: `instance_<id>`.
pub fn instance_id(id: i64) -> String {
    format!("instance_{id}")
}

/// Obstacle inputs taken together.
#[derive(Debug, Default)]
pub struct ObstacleBatch {
    /// The newest obstacle array, if one came.
    pub array: Option<(ArrayInput, Arrival)>,
    /// Instances, in arrival order.
    pub instances: Vec<(InstanceInput, Arrival)>,
}

/// What one pass of the stage did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Applied {
    /// The obstacle set changed: hand the decision the new one.
    pub changed: bool,
    /// More than [`LARGE_INPUT_VERTICES`] came or went.
    pub large: bool,
}

/// The obstacle stage's own monitor: it holds the obstacle set.
#[derive(Clone, Debug)]
pub struct ObstacleStage {
    monitor: Monitor,
}

impl ObstacleStage {
    /// A stage over `monitor` (with the `zones_file`'s zones set).
    pub fn new(monitor: Monitor) -> Self {
        ObstacleStage { monitor }
    }

    /// The current obstacle set.
    pub fn obstacle_set(&self) -> &Arc<ObstacleSet> {
        self.monitor.obstacle_set()
    }

    /// When the next instance expires (ROS time, s), if any does.
    pub fn next_expiry(&self, obstacles_timeout: f64) -> Option<f64> {
        self.monitor.obstacle_set().next_expiry(obstacles_timeout)
    }

    /// One pass at `reading` with the parameters `config`: `batch` applied,
    /// disabled polygon sources' polygons dropped, instances expired.
    /// What was refused is told in `notices`.
    pub fn apply(
        &mut self,
        batch: ObstacleBatch,
        reading: ClockReading,
        config: MonitorConfig,
        notices: &mut Vec<Notice>,
    ) -> Applied {
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
            large |= self.apply_array(input, arrival, notices);
            changed = true;
        }
        if !batch.instances.is_empty() {
            large |= self.apply_instances(batch.instances, notices);
            changed = true;
        }
        let alive = self.monitor.obstacle_set().instance_vertices();
        if self.monitor.expire_instances(reading.ros) > 0 {
            changed = true;
            let left = self.monitor.obstacle_set().instance_vertices();
            large |= alive.saturating_sub(left) > LARGE_INPUT_VERTICES;
        }
        Applied { changed, large }
    }

    /// Applies an array; whether it was large.
    fn apply_array(
        &mut self,
        input: ArrayInput,
        arrival: Arrival,
        notices: &mut Vec<Notice>,
    ) -> bool {
        if arrival.generation != self.monitor.generation() {
            return false;
        }
        match input {
            ArrayInput::Rejected(rejection) => {
                notices.push(Notice::warn(
                    "obstacles",
                    format!("obstacle array refused: {rejection}"),
                ));
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
                    notices.push(Notice::warn(
                        "obstacles",
                        format!("obstacle `{}` rejected: {status}", shown(&bad.id)),
                    ));
                }
                self.monitor
                    .set_obstacles_at(&frame_id, stamp, obstacles, arrival.time);
                vertices > LARGE_INPUT_VERTICES
            }
        }
    }

    /// Drops the polygons of polygon sources that are disabled; how many.
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

    /// Applies a batch of instances; whether it was large.
    fn apply_instances(
        &mut self,
        batch: Vec<(InstanceInput, Arrival)>,
        notices: &mut Vec<Notice>,
    ) -> bool {
        let generation = self.monitor.generation();
        let mut updates = Vec::with_capacity(batch.len());
        let mut vertices = 0usize;
        for (input, arrival) in batch {
            if arrival.generation != generation {
                continue;
            }
            match input {
                InstanceInput::Rejected(rejection) => {
                    notices.push(Notice::warn(
                        "instances",
                        format!("obstacle instance refused: {rejection}"),
                    ));
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
                        None => (instance_id(id), None),
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
                notices.push(Notice::warn(
                    "instances",
                    format!(
                        "obstacle instance `{}` dropped: stamped {age:.3} s before it arrived, \
                         beyond obstacles_timeout",
                        shown(id)
                    ),
                ));
            }
            if let Some((id, rejection)) = refused.last() {
                let set = self.monitor.obstacle_set();
                notices.push(Notice::warn(
                    "instances",
                    format!(
                        "obstacle instance `{}` refused: {rejection} ({} refused; {} alive with \
                         {} vertices, at most {MAX_INSTANCES} and {MAX_INSTANCE_VERTICES})",
                        shown(id),
                        refused.len(),
                        set.instance_count(),
                        set.instance_vertices(),
                    ),
                ));
            }
        }
        vertices > LARGE_INPUT_VERTICES
    }
}
