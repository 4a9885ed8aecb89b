//! What a bag or a record can go wrong with.

use super::cdr::CdrError;
use std::path::PathBuf;

/// Why a bag cannot be read (further), or written. Every error of
/// [`super::Messages`] is its last item: the messages before it were
/// delivered, none after.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BagError {
    /// The file or directory cannot be opened or read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// Neither a directory nor a regular file (a FIFO, a device).
    #[error("{0}: not a bag (a rosbag2 directory, an .mcap or an .mcap.zstd file)")]
    NotABag(PathBuf),
    /// A directory without `metadata.yaml`.
    #[error(
        "{0}: a directory without metadata.yaml: not a rosbag2 bag (`ros2 bag reindex` writes \
         it again, or name the bag's .mcap file)"
    )]
    NoMetadata(PathBuf),
    /// `metadata.yaml` does not read as rosbag2's, or names a file that
    /// is not there.
    #[error("{path}: {reason}")]
    Metadata {
        /// The `metadata.yaml`.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A storage other than MCAP (rosbag2's `sqlite3`).
    #[error(
        "{path}: storage `{storage}` is not read, only mcap (`ros2 bag convert` writes an \
         MCAP copy)"
    )]
    UnsupportedStorage {
        /// The bag.
        path: PathBuf,
        /// Its storage identifier.
        storage: String,
    },
    /// A compression other than zstd (the bag's) or zstd and lz4 (an
    /// MCAP chunk's).
    #[error("{path}: {what} compression `{format}` is not read")]
    UnsupportedCompression {
        /// The bag or file.
        path: PathBuf,
        /// `file`, `message` or `chunk`.
        what: &'static str,
        /// The format named.
        format: String,
    },
    /// Not an MCAP file (its magic is wrong).
    #[error("{0}: not an MCAP file (a rosbag2 sqlite3 .db3 is not read)")]
    NotMcap(PathBuf),
    /// The file ends inside a record or a compressed frame: truncated (a
    /// recorder stopped without closing it).
    #[error("{0}: the file ends in the middle of a record (truncated)")]
    Truncated(PathBuf),
    /// A CRC does not match: a chunk's (before any of its messages is
    /// delivered), the data section's or the summary's (after every
    /// message).
    #[error(
        "{path}: the {what}'s CRC does not match (saved {saved:08x}, computed {computed:08x})"
    )]
    Crc {
        /// The file.
        path: PathBuf,
        /// `chunk`, `data section` or `summary section`.
        what: &'static str,
        /// The CRC in the file.
        saved: u32,
        /// The CRC of the bytes.
        computed: u32,
    },
    /// A record (a message, a chunk) larger than [`super::MAX_RECORD_BYTES`],
    /// refused before it is read.
    #[error("{path}: a record of {len} bytes, more than {max}")]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its length.
        len: u64,
        /// The limit.
        max: u64,
    },
    /// Compressed data that does not decompress.
    #[error("{path}: {reason}")]
    Decompress {
        /// The file.
        path: PathBuf,
        /// The decompressor's error.
        reason: String,
    },
    /// Any other malformed MCAP (a record that does not parse, a message
    /// of a channel never defined, conflicting channels).
    #[error("{path}: malformed MCAP: {reason}")]
    Malformed {
        /// The file.
        path: PathBuf,
        /// The reader's error.
        reason: String,
    },
    /// The output cannot be written ([`super::BagWriter`]).
    #[error("cannot write the bag: {0}")]
    Write(String),
}

/// Why one record does not decode (the bag reads on).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// A message encoding other than `cdr`.
    #[error("message encoding `{0}` is not cdr")]
    Encoding(String),
    /// Its CDR does not decode as its type.
    #[error(transparent)]
    Cdr(#[from] CdrError),
}
