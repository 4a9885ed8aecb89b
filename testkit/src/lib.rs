//! Test and benchmark support of `sat_collision`, in one place for the
//! library's unit tests (`#[cfg(test)]` modules), the integration tests in
//! `tests/` and the benchmarks in `benches/`:
//!
//! * [`SplitMix64`]: the deterministic generator behind every random case;
//! * [`alloc`]: a global allocator that counts the current thread's
//!   allocation calls;
//! * [`corpus`]: a committed fuzz corpus replayed through its target's check;
//! * [`nav2`]: the benchmarks' peer, a faithful port of nav2 Jazzy's
//!   collision monitor algorithm (its point-in-polygon count, collision
//!   time, `padFootprint`);
//! * [`process`]: child processes that never outlive the test or benchmark
//!   that started them;
//! * [`mod@reference`]: independent answers shared by tests in more than one
//!   place (the even-odd point-in-polygon test);
//! * [`shapes`]: the shape generators, one place for every test and
//!   benchmark (ellipse and star rings, the random concave families, the
//!   [`spiral`]);
//! * `ros` (feature `ros`): ROS 2 message builders, readers of the node's
//!   outputs, the node's command line and r2r peer helpers.
//!
//! The crate does not depend on the `sat_collision` library (the library's
//! unit tests would otherwise see two copies of its types): helpers that
//! need the library's types stay next to the tests that use them
//! (`tests/geometry/reference.rs`, `tests/geometry/fuzz_support.rs`, `tests/node/node_common.rs`).

pub mod alloc;
pub mod corpus;
pub mod nav2;
pub mod process;
pub mod reference;
mod rng;
#[cfg(feature = "ros")]
pub mod ros;
pub mod shapes;

pub use rng::SplitMix64;
pub use shapes::spiral;
