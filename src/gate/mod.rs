//! The velocity gate: nav2's collision monitor, exactly.
//!
//! Between a controller and the wheels: a commanded twist comes in, the
//! zones around the robot (in its base frame) are checked against the
//! monitor's sensor sources, and the command goes out stopped, slowed
//! down, limited, or scaled so that contact stays a set time away. Zones
//! are checked in their list order and the most restrictive result wins,
//! as in nav2. Configured from nav2's parameters ([`GateConfig`], read by
//! [`crate::config`]).

mod checks;
mod command;
mod config;
mod state;
mod world;
mod zone;

pub use checks::ZoneChecks;
pub use command::Command;
pub use config::{
    Action, GateConfig, VelocityShape, ZoneConfig, ZoneShape, DEFAULT_LIMIT,
    DEFAULT_SLOWDOWN_RATIO, DEFAULT_STOP_PUB_TIMEOUT, DEFAULT_TIME_BEFORE_COLLISION,
    DEFAULT_ZONE_MIN_POINTS,
};
pub use state::{Gate, GateError, GateState, Output, Reason, APPROACH_DEPTH};
pub use world::MonitorChecks;

#[cfg(test)]
mod tests;
