//! A rosbag2 directory's `metadata.yaml`: its files in order, their
//! compression, its topics.

use super::error::BagError;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Largest `metadata.yaml` read (a bag of thousands of files and topics
/// stays far below).
const MAX_METADATA_BYTES: u64 = 16 << 20;

/// How the bag's files or messages are compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Compression {
    /// Not compressed (chunks may be: that is MCAP's own).
    None,
    /// Each file is one zstd stream (`.mcap.zstd`, `--compression-mode file`).
    File,
    /// Each message's data is a zstd frame (`--compression-mode message`).
    Message,
}

/// What a directory's metadata says.
#[derive(Debug)]
pub(super) struct Bag {
    /// The files, in order, resolved in the directory.
    pub files: Vec<PathBuf>,
    /// Their compression.
    pub compression: Compression,
    /// The topics: name, type, serialization format.
    pub topics: Vec<(String, String, String)>,
}

#[derive(serde::Deserialize)]
struct File {
    rosbag2_bagfile_information: Info,
}

#[derive(serde::Deserialize)]
struct Info {
    #[serde(default)]
    storage_identifier: String,
    #[serde(default)]
    relative_file_paths: Vec<String>,
    #[serde(default)]
    compression_format: String,
    #[serde(default)]
    compression_mode: String,
    #[serde(default)]
    topics_with_message_count: Vec<TopicCount>,
}

#[derive(serde::Deserialize)]
struct TopicCount {
    topic_metadata: TopicMetadata,
}

#[derive(serde::Deserialize)]
struct TopicMetadata {
    name: String,
    #[serde(rename = "type")]
    type_name: String,
    #[serde(default)]
    serialization_format: String,
}

/// Reads `dir/metadata.yaml`.
pub(super) fn read(dir: &Path) -> Result<Bag, BagError> {
    let path = dir.join("metadata.yaml");
    let meta = match std::fs::metadata(&path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(BagError::NoMetadata(dir.to_path_buf()))
        }
        Err(source) => return Err(BagError::Io { path, source }),
    };
    let bad = |reason: String| BagError::Metadata {
        path: path.clone(),
        reason,
    };
    if !meta.is_file() {
        return Err(bad("not a regular file".into()));
    }
    let mut text = String::new();
    std::fs::File::open(&path)
        .and_then(|f| f.take(MAX_METADATA_BYTES + 1).read_to_string(&mut text))
        .map_err(|source| BagError::Io {
            path: path.clone(),
            source,
        })?;
    if text.len() as u64 > MAX_METADATA_BYTES {
        return Err(bad(format!("larger than {MAX_METADATA_BYTES} bytes")));
    }
    let info = serde_yaml::from_str::<File>(&text)
        .map_err(|e| bad(format!("not rosbag2's metadata: {e}")))?
        .rosbag2_bagfile_information;
    if !info.storage_identifier.is_empty() && info.storage_identifier != "mcap" {
        return Err(BagError::UnsupportedStorage {
            path: dir.to_path_buf(),
            storage: info.storage_identifier,
        });
    }
    let compression = match info.compression_mode.to_ascii_lowercase().as_str() {
        "" | "none" => Compression::None,
        mode => {
            if !info.compression_format.eq_ignore_ascii_case("zstd") {
                return Err(BagError::UnsupportedCompression {
                    path: dir.to_path_buf(),
                    what: if mode == "message" { "message" } else { "file" },
                    format: info.compression_format,
                });
            }
            match mode {
                "file" => Compression::File,
                "message" => Compression::Message,
                _ => return Err(bad(format!("compression_mode `{mode}`"))),
            }
        }
    };
    if info.relative_file_paths.is_empty() {
        return Err(bad("relative_file_paths names no file".into()));
    }
    let files = info
        .relative_file_paths
        .iter()
        .map(|name| resolve(dir, name).ok_or_else(|| bad(format!("`{name}` is not in the bag"))))
        .collect::<Result<Vec<_>, _>>()?;
    let topics = info
        .topics_with_message_count
        .into_iter()
        .map(|t| {
            let m = t.topic_metadata;
            (m.name, m.type_name, m.serialization_format)
        })
        .collect();
    Ok(Bag {
        files,
        compression,
        topics,
    })
}

/// A file of the bag: relative to the directory, or (rosbag2 before
/// Galactic wrote the directory's name in front) its last component.
fn resolve(dir: &Path, name: &str) -> Option<PathBuf> {
    let direct = dir.join(name);
    if direct.is_file() {
        return Some(direct);
    }
    let last = dir.join(Path::new(name).file_name()?);
    last.is_file().then_some(last)
}
