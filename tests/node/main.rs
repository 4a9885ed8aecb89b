//! The node over real ROS 2 (feature `ros`), one test binary: one module per
//! former test file, on the shared harness `node_common` (which starts the
//! `sat_collision_node` binary as a child process per test).
//!
//! * `topics`: footprints and obstacles in, `collision_report` out;
//! * `markers`: `collision_markers` as a subscriber sees them;
//! * `flag`: the collision flag on its own;
//! * `service`: the `check_footprint` and `check_path` services;
//! * `failsafe`: failing safe under load and against broken inputs.
//!
//! Each test starts its own node in a namespace of its own. The tests run
//! on the harness's default threads (one per core), as each former binary's
//! tests did: merging the binaries changes which tests run side by side,
//! not how many.
//!
//! Run one module with a filter: `cargo test --test node failsafe::`.

#![cfg(feature = "ros")]

mod failsafe;
mod flag;
mod markers;
mod node_common;
mod service;
mod topics;
