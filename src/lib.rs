//! `sat_collision`: Separating Axis Theorem collision monitoring between a
//! robot footprint and obstacles.
//!
//! Layers, each usable on its own:
//! * [`geometry`]: pure 2-D math (validation, convexity, SAT, MTV,
//!   clearance, circles, convex decomposition);
//! * [`scene`]: YAML scenes and zone files, and the per-obstacle report;
//! * [`monitor`]: what the node knows, how fresh it is, and what it decides;
//! * [`broadphase`]: the same report for thousands of obstacles, fast;
//! * `ros` (feature `ros`): the r2r node glue.

pub mod broadphase;
pub mod config;
pub mod geometry;
pub mod limits;
pub mod monitor;
pub mod params_file;
pub mod planner;
#[cfg(feature = "ros")]
pub mod ros;
pub mod scene;
pub mod svg;
pub mod text;
pub mod visual;
