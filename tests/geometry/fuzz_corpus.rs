//! Replays every committed fuzz corpus file (`fuzz/corpus/<target>/`)
//! through the fuzz targets' own checks (`tests/geometry/fuzz_support.rs`), on
//! stable and without `cargo fuzz`: what the fuzzer once found interesting
//! stays checked by `cargo test`. The corpora are minimised (`cargo fuzz
//! cmin`), a few hundred small files each.

use crate::fuzz_support;

use std::path::PathBuf;

fn replay(target: &str, check: fn(&[u8])) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz")
        .join("corpus")
        .join(target);
    let n = sat_collision_testkit::corpus::replay(&dir, check);
    println!("{target}: {n} files replayed");
}

#[test]
fn scene_yaml_corpus() {
    replay("scene_yaml", fuzz_support::check_scene_yaml);
}

#[test]
fn polygon_corpus() {
    replay("polygon", fuzz_support::check_polygon_bytes);
}

#[test]
fn pair_query_corpus() {
    replay("pair_query", fuzz_support::check_pair_bytes);
}
