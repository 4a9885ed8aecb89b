//! Replaying a committed fuzz corpus (`fuzz/corpus/<target>/`) through the
//! fuzz target's own check, on stable and without `cargo fuzz`: what the
//! fuzzer once found interesting stays checked by `cargo test`.

use std::path::{Path, PathBuf};

/// Runs `check` on every file of `dir` (in name order), each under
/// `catch_unwind`: a panic fails with the file's name. An empty or missing
/// corpus fails too. Returns how many files were replayed.
pub fn replay(dir: &Path, check: impl Fn(&[u8])) -> usize {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
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
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(&data)));
        assert!(result.is_ok(), "corpus file {} fails", path.display());
    }
    files.len()
}
