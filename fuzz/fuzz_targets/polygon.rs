//! `cargo fuzz run polygon`: see tests/fuzz_support/mod.rs for the input
//! decoding and the invariants (shared with the stable replay tests).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/fuzz_support/mod.rs"]
mod support;

fuzz_target!(|data: &[u8]| support::check_polygon_bytes(data));
