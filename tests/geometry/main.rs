//! Integration tests of the geometry layer (`sat_collision::geometry`), one
//! test binary: one module per former test file, and the shared harnesses.
//!
//! * `cases`: hand-computed pairs with exact expected values;
//! * `properties`, `touching`: random and touching pairs against the
//!   brute-force `reference`;
//! * `polygon_validation`, `decomposition_properties`: validation and the
//!   convex decomposition;
//! * `toi_properties`: time of impact against a dense-sampling reference
//!   and parry2d;
//! * `gate_queries`: the velocity gate's queries along a motion
//!   (`PointSet::kth_impact`, `point_escapes`, `polygon_escapes`,
//!   `PointSet::escapes`) against sampled motions;
//! * `points`: points as obstacles (`point_contact`,
//!   `point_time_of_impact`, the engine's `PointSet`) against a reference of
//!   outlines, crossing numbers and rays;
//! * `fuzz_corpus`, `fuzz_regressions`: the fuzz targets' corpora and
//!   findings through `fuzz_support` (also included by `fuzz/fuzz_targets/`).
//!
//! proptest keeps the seeds of past failures in
//! `tests/proptest-regressions/<module>.txt` (its rule for a test binary with
//! a `main.rs`; for example `polygon_validation.txt`), not beside the module.
//!
//! Run one module with a filter: `cargo test --test geometry touching::`.

// Counts each thread's allocations (tests run on parallel threads): the
// "does not allocate" tests of `cases` and `toi_properties` read it.
#[global_allocator]
static ALLOCATOR: sat_collision_testkit::alloc::CountingAllocator =
    sat_collision_testkit::alloc::CountingAllocator;

mod cases;
mod decomposition_properties;
mod fuzz_corpus;
mod fuzz_regressions;
mod fuzz_support;
mod gate_queries;
mod points;
mod polygon_validation;
mod properties;
mod reference;
mod toi_properties;
mod touching;
