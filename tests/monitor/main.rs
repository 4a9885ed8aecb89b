//! Integration tests of the layers above geometry (frames, monitor,
//! planner, scene, config) and of the offline CLI, one test binary: one
//! module per former test file.
//!
//! * `frames_properties`: random TF trees against an independent reference;
//! * `frames`, `motion`: the monitor over several frames; `check_path` and
//!   `predict`;
//! * `steady_state_allocation`: the monitor's per-message work allocates
//!   nothing;
//! * `params_table`: the parameter tables against the node's reference
//!   (`docs/node.md`) and `config/sat_collision.yaml`;
//! * `docs_reference`: the documentation's relative links and anchors, and
//!   the statuses, topics and services of the node's reference against the
//!   code;
//! * `gate`: the velocity gate's zones on the monitor's sources, against
//!   references computed in the test;
//! * `gate_invariant`: the gate never passes a command while the clock, a
//!   source or a zone cannot be judged, over random sequences of events;
//! * `sensors`: laser scans, point clouds and range readings into points
//!   (`sat_collision::sensors`) against an independent reference;
//! * `nav2_main`: nav2 main's parameters files (`tests/data/nav2_main/`)
//!   start the node unchanged; nav2's `collision_monitor_node_test.cpp`
//!   scenarios through the core (`nav2_main::scenarios`);
//! * `common`: the scene builders several modules share (`pose`, `rect`);
//! * `cli`: the `sat_collision` binary as a user runs it (and the demo's
//!   command line with the `ros` feature).
//!
//! proptest keeps the seeds of past failures in
//! `tests/proptest-regressions/<module>.txt` (its rule for a test binary with
//! a `main.rs`; for example `frames_properties.txt`), not beside the module.
//!
//! Run one module with a filter: `cargo test --test monitor cli::`.

// Counts each thread's allocations (tests run on parallel threads): read by
// `frames_properties` and `steady_state_allocation`.
#[global_allocator]
static ALLOCATOR: sat_collision_testkit::alloc::CountingAllocator =
    sat_collision_testkit::alloc::CountingAllocator;

mod cli;
mod common;
mod core_events;
mod docs_reference;
mod frames;
mod frames_properties;
mod gate;
mod gate_invariant;
mod motion;
mod nav2_main;
mod params_table;
mod sensors;
mod steady_state_allocation;
