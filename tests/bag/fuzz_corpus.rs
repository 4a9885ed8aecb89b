//! Replays every file of the committed corpus `fuzz/corpus/bag/` through
//! the fuzz target's own checks, on stable and without `cargo fuzz`.

use crate::fuzz_support::check_bag_bytes;
use std::path::PathBuf;

#[test]
fn bag_corpus() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/bag");
    let n = sat_collision_testkit::corpus::replay(&dir, check_bag_bytes);
    println!("bag: {n} files replayed");
}

/// Writes the hand-made seeds of the corpus (`fuzz/corpus/bag/seed_*`):
/// small MCAP files in every chunk form, and one message of every known
/// type (default, then the samples). Run after a change of the formats:
/// `cargo test --test bag -- --ignored write_seeds`.
#[test]
#[ignore]
fn write_seeds() {
    use crate::corrupt::{mcap, sample};
    use sat_collision::bag::{Message, KNOWN_TYPES};
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/bag");
    std::fs::create_dir_all(&dir).expect("corpus dir");
    let mut recs = sample();
    recs.truncate(5);
    let forms = [
        ("zstd", Some(mcap::Compression::Zstd), Some(150)),
        ("lz4", Some(mcap::Compression::Lz4), Some(150)),
        ("chunks", None, Some(150)),
        ("plain", None, None),
    ];
    for (name, compression, chunk) in forms {
        std::fs::write(
            dir.join(format!("seed_mcap_{name}")),
            mcap(&recs, compression, chunk),
        )
        .expect("seed");
    }
    for (k, name) in KNOWN_TYPES.iter().enumerate() {
        // The default message: a decoded empty one, encoded.
        let empty = (0..1024)
            .map(|n| {
                vec![0, 1, 0, 0]
                    .into_iter()
                    .chain(std::iter::repeat_n(0, n))
                    .collect()
            })
            .find_map(|data: Vec<u8>| Message::decode(name, &data).ok().flatten())
            .expect("an empty message decodes");
        let mut seed = vec![k as u8];
        seed.extend(empty.encode().expect("encodes"));
        std::fs::write(
            dir.join(format!("seed_cdr_{}", name.replace('/', "_"))),
            seed,
        )
        .expect("seed");
    }
    for (n, r) in sample().iter().take(4).enumerate() {
        let k = KNOWN_TYPES
            .iter()
            .position(|t| *t == r.type_name)
            .expect("known");
        let mut seed = vec![k as u8];
        seed.extend(&r.data);
        std::fs::write(dir.join(format!("seed_cdr_sample_{n}")), seed).expect("seed");
    }
}
