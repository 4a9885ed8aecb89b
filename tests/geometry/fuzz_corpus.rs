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
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "empty corpus {}", dir.display());
    for path in &files {
        let data = match std::fs::read(path) {
            Ok(data) => data,
            // A fuzzer running meanwhile replaces corpus files.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => panic!("{}: {e}", path.display()),
        };
        let result = std::panic::catch_unwind(|| check(&data));
        assert!(result.is_ok(), "corpus file {} fails", path.display());
    }
    println!("{target}: {} files replayed", files.len());
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
