//! `cargo fuzz run pair_query`: see tests/geometry/fuzz_support.rs for the input
//! decoding and the invariants (shared with the stable replay tests).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/geometry/fuzz_support.rs"]
mod support;

fuzz_target!(|data: &[u8]| support::check_pair_bytes(data));
