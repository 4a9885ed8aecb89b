//! The node's health for `/diagnostics`: the inputs' statistics the core
//! keeps where they arrive ([`InputsHealth`](super::InputsHealth)) and the statuses they give
//! ([`Core::statuses`]); what the statuses say is [`crate::diagnostics`]'s.

use super::decision::Core;
use crate::diagnostics::{
    collision_status, exclusion_status, fleet_status, gate_status, CollisionHealth,
    DiagnosticStatus, ExclusionHealth, FleetHealth, GateHealth, InputHealth,
};
use crate::model::{Flag, Status};

/// Who the statuses are of, and what the edge adds to them.
#[derive(Clone, Copy, Debug)]
pub struct StatusContext<'a> {
    /// The node's name.
    pub node_name: &'a str,
    /// `hardware_id`.
    pub hardware_id: &'a str,
    /// The lifecycle state's label.
    pub lifecycle_state: &'a str,
    /// Report cycles skipped in the last second.
    pub reports_skipped: u64,
}

/// The status of a node that is not configured (no core).
pub fn unconfigured_statuses(context: &StatusContext<'_>) -> Vec<DiagnosticStatus> {
    let health = CollisionHealth {
        lifecycle_state: context.lifecycle_state,
        active: false,
        valid: false,
        status: Status::Inactive,
        gate_only: false,
        overloaded: false,
        inputs: &[],
        decision_times: None,
        reports_skipped: 0,
        obstacles: 0,
        points: 0,
    };
    vec![collision_status(
        &health,
        context.node_name,
        context.hardware_id,
    )]
}

impl Core {
    /// `<node>: collision` and, with a gate, `<node>: velocity gate`, at
    /// `now` (ROS time, s).
    pub fn statuses(&mut self, context: &StatusContext<'_>, now: f64) -> Vec<DiagnosticStatus> {
        let (node, hw) = (context.node_name, context.hardware_id);
        let active = self.is_active();
        let from_tf = self.footprint_from_tf();
        let has_gate = self.has_gate();
        let config = self.config().clone();
        // A gate with no robot shape: the flag's footprint could only come
        // on the `footprint` topic, which nav2's configuration has not.
        let gate_only = has_gate && config.robot_shape().is_none();
        let overloaded = self.monitor().overloaded(now);
        let obstacles = self.monitor().obstacles().len();
        let points = self.monitor().source_points_in_use();
        let apart = self.monitor().cause_apart_from_footprint(now);
        let stats = self.health();
        let mut flag = stats.flag.unwrap_or(Flag {
            colliding: true,
            valid: false,
            status: Status::Inactive,
        });
        // A gate alone: not judging the flag is no fault, but `no_footprint`
        // comes before every other cause in precedence, and must not hide
        // one (a source stale or never received): that one is the status.
        let gate_only = match (gate_only, flag.status, apart) {
            (true, Status::NoFootprint, Some(cause)) => {
                flag.status = Status::from(cause);
                false
            }
            (gate_only, _, _) => gate_only,
        };
        let mut inputs = Vec::with_capacity(4 + stats.sources.len());
        if !from_tf {
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
            // A fleet's health is its own status (`<node>: fleet`): a robot
            // alone receives nothing, and that is no fault.
            if spec.enabled && spec.kind != crate::monitor::SourceKind::Fleet {
                inputs.push(InputHealth::of(&spec.name, source, spec.timeout, now));
            }
        }
        if has_gate {
            inputs.push(InputHealth::of("cmd_vel_in", &stats.command, 0.0, now));
        }
        let decision_times = stats.decisions.percentiles(now);
        let command_age = stats.command.age(now);
        let health = CollisionHealth {
            lifecycle_state: context.lifecycle_state,
            active,
            valid: flag.valid,
            status: flag.status,
            gate_only,
            overloaded,
            inputs: &inputs,
            decision_times,
            reports_skipped: context.reports_skipped,
            obstacles,
            points,
        };
        let mut all = vec![collision_status(&health, node, hw)];
        if let Some(gate) = self.gate() {
            let health = GateHealth::of(gate, active, command_age);
            all.push(gate_status(&health, node, hw));
        }
        if let Some(status) = self.exclusion_status(context) {
            all.push(status);
        }
        if self.fleet().in_use() {
            let rate = self.health().fleet.rate(now);
            let fleet = self.fleet();
            let health = FleetHealth {
                robot_id: &config.fleet.robot_id,
                peers: fleet.statuses(),
                refusing: fleet.sees() && fleet.fleet().refusing(now),
                rate,
            };
            all.push(fleet_status(&health, node, hw));
        }
        all
    }

    /// `<node>: exclusion zones`, when some source has exclusion zones:
    /// each zone, and those not placed for their source's latest message.
    fn exclusion_status(&mut self, context: &StatusContext<'_>) -> Option<DiagnosticStatus> {
        let states = self.exclusion_zones().states();
        if states.is_empty() {
            return None;
        }
        let sources: Vec<String> = self
            .config()
            .sources
            .iter()
            .map(|s| s.name.clone())
            .collect();
        let unplaced = &self.health().unplaced_zones;
        let zones: Vec<ExclusionHealth<'_>> = states
            .iter()
            .map(|state| {
                let index = sources.iter().position(|s| *s == state.source);
                let not_placed = index
                    .and_then(|i| unplaced.get(i))
                    .and_then(|list| list.iter().find(|u| u.zone == state.zone));
                ExclusionHealth {
                    source: &state.source,
                    zone: &state.zone,
                    enabled: state.enabled,
                    added: !state.from_parameters,
                    unplaced: not_placed.map(|u| (u.frame.as_str(), Status::from(u.cause))),
                }
            })
            .collect();
        Some(exclusion_status(
            &zones,
            context.node_name,
            context.hardware_id,
        ))
    }
}
