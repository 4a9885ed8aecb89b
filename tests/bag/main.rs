//! Recorded bags (`sat_collision::bag`): hand-made corrupt and large
//! inputs, and the `bag` fuzz target's corpus replayed (its checks in
//! `fuzz_support.rs`, shared with `fuzz/fuzz_targets/bag.rs`). rclpy's side
//! of the CDR is tests/python/test_bag_cdr.py.

mod corrupt;
mod fuzz_corpus;
mod fuzz_support;
mod stream;
