//! The node's health as `diagnostic_updater` would publish it on
//! `/diagnostics`, as pure data: no ROS, time injected (seconds, `f64`, the
//! node's ROS time).
//!
//! * [`Level`] and [`DiagnosticStatus`]: what the edge copies into
//!   `diagnostic_msgs/DiagnosticStatus`.
//! * [`InputStats`] (one per input: its age and its rate) and
//!   [`DecisionTimes`] (the decisions' durations, p50 and p99 over the
//!   last second): statistics in fixed memory, no allocation per recorded
//!   event once built.
//! * [`CollisionHealth`] and [`collision_status`]: the status
//!   `<node name>: collision`; [`GateHealth`] and [`gate_status`]: the
//!   status `<node name>: velocity gate`. Each level rule is written once,
//!   in these two functions.
//! * [`Publication`]: when to publish (every [`PUBLISH_PERIOD`], and at once
//!   when a level changes).

mod publication;
mod stats;
mod status;

pub use publication::{Publication, PUBLISH_PERIOD};
pub use stats::{
    DecisionTimes, InputStats, DECISION_SAMPLES, DECISION_WINDOW, RATE_BUCKET, RATE_BUCKETS,
    RATE_WINDOW,
};
pub use status::{
    collision_status, exclusion_status, fleet_status, gate_status, CollisionHealth,
    DiagnosticStatus, ExclusionHealth, FleetHealth, GateHealth, InputHealth, Level, NOT_JUDGED,
};

#[cfg(test)]
mod tests;
