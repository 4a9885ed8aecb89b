//! `cargo fuzz run bag`: an MCAP bag (input starting with MCAP's magic)
//! or one CDR message (first byte: the type); see tests/bag/fuzz_support.rs
//! for the input and the invariants (shared with the stable replay test).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/bag/fuzz_support.rs"]
mod support;

fuzz_target!(|data: &[u8]| support::check_bag_bytes(data));
