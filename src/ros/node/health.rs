//! `/diagnostics`, as `diagnostic_updater` publishes it: a
//! `diagnostic_msgs/DiagnosticArray` (reliable) every
//! [`PUBLISH_PERIOD`](crate::diagnostics::PUBLISH_PERIOD) and at once when
//! a status's level changes, with the status `<node name>: collision` and,
//! with a gate, `<node name>: velocity gate`. What they say is
//! [`crate::diagnostics`] (pure); the statistics they read are kept by the
//! decision loop (`decision::InputsHealth`), where the inputs arrive.

use super::logging::Warnings;
use crate::diagnostics::{
    collision_status, gate_status, CollisionHealth, DiagnosticStatus, GateHealth, InputHealth,
    Level, Publication, PUBLISH_PERIOD,
};
use crate::model::{Flag, Status};
use r2r::diagnostic_msgs::msg::{DiagnosticArray, DiagnosticStatus as StatusMsg, KeyValue};
use r2r::{Publisher, QosProfile};
use std::time::Instant;

/// `/diagnostics`' QoS: diagnostic_updater's (reliable, depth 10).
const DIAGNOSTICS_QOS: QosProfile = QosProfile::default();

/// The publisher and its schedule.
pub(super) struct Health {
    publisher: Publisher<DiagnosticArray>,
    node_name: String,
    hardware_id: String,
    publication: Publication,
    /// The schedule's clock (steady: a paused simulation still publishes).
    started: Instant,
    warnings: Warnings,
}

/// What the node is, for its statuses.
pub(super) struct Snapshot<'a> {
    /// ROS time (s): the array's stamp.
    pub(super) now: f64,
    pub(super) lifecycle_state: &'a str,
    /// `None`: not configured.
    pub(super) configured: Option<Configured<'a>>,
}

/// A configured node's parts the statuses read.
pub(super) struct Configured<'a> {
    pub(super) active: bool,
    pub(super) decision: &'a mut super::decision::Decision,
    /// Report cycles skipped in the last second.
    pub(super) skipped: u64,
}

impl Health {
    pub(super) fn create(
        node: &mut r2r::Node,
        node_name: &str,
        hardware_id: &str,
        logger: &str,
    ) -> r2r::Result<Self> {
        Ok(Health {
            publisher: node.create_publisher("/diagnostics", DIAGNOSTICS_QOS)?,
            node_name: node_name.to_owned(),
            hardware_id: hardware_id.to_owned(),
            publication: Publication::new(PUBLISH_PERIOD),
            started: Instant::now(),
            warnings: Warnings::new(logger),
        })
    }

    /// Publishes when due: a period passed, or a level changed.
    pub(super) fn update(&mut self, snapshot: Snapshot<'_>) {
        let clock = self.started.elapsed().as_secs_f64();
        let skipped = snapshot.configured.as_ref().map_or(0, |c| c.skipped);
        let stamp = snapshot.now;
        let statuses = self.statuses(snapshot, skipped);
        let levels: Vec<Level> = statuses.iter().map(|s| s.level).collect();
        if !self.publication.due(clock, &levels) {
            return;
        }
        self.publication.published(clock, &levels);
        let mut msg = DiagnosticArray {
            status: statuses.into_iter().map(status_msg).collect(),
            ..Default::default()
        };
        msg.header.stamp = crate::ros::convert::time(super::ros_time::stamp_of(stamp));
        if let Err(e) = self.publisher.publish(&msg) {
            self.warnings.warn("diagnostics", || {
                format!("could not publish /diagnostics: {e}")
            });
        }
    }

    fn statuses(&self, snapshot: Snapshot<'_>, skipped: u64) -> Vec<DiagnosticStatus> {
        let (node, hw) = (self.node_name.as_str(), self.hardware_id.as_str());
        let Some(configured) = snapshot.configured else {
            let health = CollisionHealth {
                lifecycle_state: snapshot.lifecycle_state,
                active: false,
                valid: false,
                status: Status::Inactive,
                overloaded: false,
                inputs: &[],
                decision_times: None,
                reports_skipped: 0,
                obstacles: 0,
                points: 0,
            };
            return vec![collision_status(&health, node, hw)];
        };
        let decision = configured.decision;
        let now = decision.time.read().ros;
        let monitor = &decision.monitor;
        let config = &decision.config;
        let stats = &mut decision.health;
        let flag = stats.flag.unwrap_or(Flag {
            colliding: true,
            valid: false,
            status: Status::Inactive,
        });
        let mut inputs = Vec::with_capacity(4 + stats.sources.len());
        if decision.tf_footprint.is_none() {
            let timeout = config.monitor.footprint_timeout;
            inputs.push(InputHealth::of("footprint", &stats.footprint, timeout, now));
        }
        inputs.push(InputHealth::of(
            "obstacles",
            &stats.obstacles,
            config.monitor.obstacles_timeout,
            now,
        ));
        if !config.velocity_topic.is_empty() {
            let timeout = config.monitor.velocity_timeout;
            inputs.push(InputHealth::of("velocity", &stats.velocity, timeout, now));
        }
        for (spec, source) in config.monitor.sources.iter().zip(&stats.sources) {
            if spec.enabled {
                inputs.push(InputHealth::of(&spec.name, source, spec.timeout, now));
            }
        }
        if decision.gate.is_some() {
            inputs.push(InputHealth::of("cmd_vel_in", &stats.command, 0.0, now));
        }
        let health = CollisionHealth {
            lifecycle_state: snapshot.lifecycle_state,
            active: configured.active,
            valid: flag.valid,
            status: flag.status,
            overloaded: monitor.overloaded(now),
            inputs: &inputs,
            decision_times: stats.decisions.percentiles(now),
            reports_skipped: skipped,
            obstacles: monitor.obstacles().len(),
            points: monitor.source_points_in_use(),
        };
        let mut all = vec![collision_status(&health, node, hw)];
        if let Some(gate) = &decision.gate {
            let age = stats.command.age(now);
            let health = GateHealth::of(gate.gate(), configured.active, age);
            all.push(gate_status(&health, node, hw));
        }
        all
    }
}

fn status_msg(status: DiagnosticStatus) -> StatusMsg {
    StatusMsg {
        level: status.level.as_byte(),
        name: status.name,
        message: status.message,
        hardware_id: status.hardware_id,
        values: status
            .values
            .into_iter()
            .map(|(key, value)| KeyValue { key, value })
            .collect(),
    }
}
