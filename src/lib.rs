//! `sat_collision`: Separating Axis Theorem collision monitoring between a
//! robot footprint and obstacles.
//!
//! Layers, dependencies pointing down this list only (checked by
//! `tests/module_layers.rs`; see ARCHITECTURE.md):
//! * [`geometry`]: pure 2-D math (validation, convexity, SAT, MTV,
//!   clearance, circles, convex decomposition); [`text`], [`limits`];
//! * [`model`]: obstacles, per-obstacle outcomes, reports, typed statuses;
//!   [`frames`]: the TF tree (planar transforms by frame and time, lookups
//!   and their fail-safe rules);
//! * [`broadphase`] (the report for thousands of obstacles, fast),
//!   [`planner`] (poses along a trajectory), [`visual`];
//! * [`monitor`]: what the node knows, how fresh it is, and what it decides;
//!   [`scene`]: YAML scenes and zone files;
//! * [`config`] (the node's parameter table), [`params_file`], [`svg`];
//!   [`cli`]: what the binaries share about their command lines;
//! * `ros` (feature `ros`): the r2r node glue.

pub mod broadphase;
pub mod cli;
pub mod config;
pub mod frames;
pub mod geometry;
pub mod limits;
pub mod model;
pub mod monitor;
pub mod params_file;
pub mod planner;
#[cfg(feature = "ros")]
pub mod ros;
pub mod scene;
pub mod svg;
pub mod text;
pub mod visual;
