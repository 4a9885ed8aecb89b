//! `/diagnostics`, as `diagnostic_updater` publishes it: a
//! `diagnostic_msgs/DiagnosticArray` (reliable) every
//! [`PUBLISH_PERIOD`](crate::diagnostics::PUBLISH_PERIOD) and at once when
//! a status's level changes, with the status `<node name>: collision` and,
//! with a gate, `<node name>: velocity gate`. What they say is
//! [`crate::diagnostics`] (pure); the statistics they read are kept by the
//! core where the inputs arrive ([`crate::node::Core::statuses`]).

use super::logging::Warnings;
use crate::diagnostics::{DiagnosticStatus, Level, Publication, PUBLISH_PERIOD};
use crate::node::{unconfigured_statuses, StatusContext};
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
        let context = StatusContext {
            node_name: &self.node_name,
            hardware_id: &self.hardware_id,
            lifecycle_state: snapshot.lifecycle_state,
            reports_skipped: skipped,
        };
        match snapshot.configured {
            None => unconfigured_statuses(&context),
            Some(configured) => {
                let now = configured.decision.time.read().ros;
                configured.decision.core.statuses(&context, now)
            }
        }
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
