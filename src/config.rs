//! The node's parameters: one table ([`PARAMS`]) with each one's type,
//! default, range, run-time behaviour and description, the checks derived
//! from it, and nav2's footprint string; the sensor sources' parameters
//! (`<name>.<suffix>`, [`SOURCE_PARAMS`]) and the velocity gate's zones'
//! (`<zone>.<suffix>`, [`ZONE_PARAMS`]; `<zone>.<shape>.<suffix>`,
//! [`VELOCITY_SHAPE_PARAMS`]) with the same machinery, so that nav2's
//! collision monitor parameters start the node unchanged. Pure, so every
//! rule is testable without ROS.
//!
//! Laid out by table (private children, their public items re-exported
//! here): the shared machinery (`spec`: [`ParamSpec`], [`Kind`], [`Value`]),
//! what the tables write (`settings`: [`NodeConfig`], [`SourceConfig`]),
//! the node's table (`node`: [`PARAMS`]), the sources' (`sources`), the
//! zones' (`zones`), the sources' exclusion zones' (`exclusion`:
//! [`EXCLUSION_ZONE_PARAMS`]), nav2's footprint string (`footprint`) and a parameters
//! file read as rcl reads it (`rcl_yaml`: [`parameters_of`]). The rules
//! over all of them are `impl NodeConfig` blocks, each in a child of its
//! own: the start-up reading (`start_up`: [`NodeConfig::start_up`]), the
//! run-time rules (`runtime`: [`NodeConfig::set`], [`NodeConfig::get`],
//! [`NodeConfig::runtime`]), the name checks with their "did you mean"
//! hints (`names`: [`NodeConfig::check_name`], [`NodeConfig::check_other`])
//! and the robot's shape (`robot`: [`NodeConfig::robot_shape`]).

mod exclusion;
mod footprint;
mod node;
mod rcl_yaml;
mod settings;
mod sources;
mod spec;
mod zones;

// Not in the alphabet's order: rustdoc lists `NodeConfig`'s methods impl
// block by impl block, in the order of these modules.
mod runtime;
mod start_up;

mod names;
mod robot;

pub use crate::limits::{MAX_EXCLUSION_ZONES, MAX_EXCLUSION_ZONE_VERTICES};
pub use exclusion::{
    check_exclusion_polygon, exclusion_param, ExclusionDescription, ExclusionParam,
    EXCLUSION_ZONE_PARAMS,
};
pub use footprint::{parse_footprint, FootprintTextError};
pub use node::{param, NAV2_ONLY_PARAMS, PARAMS};
pub use rcl_yaml::{parameters_of, RclYamlError};
pub use settings::{ExclusionZoneConfig, InputReliability, NodeConfig, SourceConfig, VelocityType};
pub use sources::{source_param, SourceParam, NAV2_ONLY_SOURCE_PARAMS, SOURCE_PARAMS};
pub use spec::{
    ConfigError, Kind, ParamSpec, Value, MAX_SOURCES, MAX_SOURCE_NAME_BYTES, MAX_VELOCITY_SHAPES,
    MAX_ZONES,
};
pub use zones::{
    parse_zone_points, velocity_shape_param, zone_param, VelocityShapeParam, ZoneDefault,
    ZoneParam, NAV2_ONLY_ZONE_PARAMS, VELOCITY_SHAPE_PARAMS, ZONE_PARAMS,
};

#[cfg(test)]
mod tests;
