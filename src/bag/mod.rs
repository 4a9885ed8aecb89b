//! Recorded rosbag2 bags, without ROS: their records read as a stream, the
//! CDR of the messages the node reads and publishes decoded into plain
//! structs (and encoded back), their JSON, and an MCAP writer.
//!
//! | you have | call | you get |
//! | --- | --- | --- |
//! | a bag: a rosbag2 directory, an `.mcap` or an `.mcap.zstd` | [`open`] | [`Messages`]: an iterator of [`Record`] (time, topic, type, CDR bytes), its [`Topic`]s and [`Stats`] |
//! | MCAP bytes from elsewhere | [`read_mcap`] | the same |
//! | a record | [`Record::decode`] | a [`Message`] (one variant per type of [`KNOWN_TYPES`]), `None` for another type |
//! | CDR of a type you name | [`RosMessage::decode`] (`LaserScan::decode(&bytes)`) | the struct ([`msgs`]) |
//! | a message to record | [`RosMessage::encode`], [`BagWriter`] | CDR as rclpy writes it; an MCAP with `ros2msg` schemas |
//! | a message as JSON | `serde_json::to_value(&message)`, [`Message::to_json`], [`JsonLine`] | fields named as ROS names them |
//!
//! # Reading
//!
//! [`open`] reads a directory's `metadata.yaml` (its
//! `relative_file_paths` in order, `compression_mode` and
//! `compression_format`, its topics), or takes a file as it is; then the
//! files are read one after the other through `mcap`'s sans-io reader, a
//! megabyte at a time: memory follows the largest chunk (checked whole
//! against its CRC before any of its messages is delivered), never the
//! bag. An MCAP's chunks may be compressed with zstd or lz4; a file may be
//! one zstd stream (`.mcap.zstd`, rosbag2's `--compression-mode file`),
//! and each message's data one zstd frame (`--compression-mode message`).
//! On its way to `mcap` the stream's framing is followed (`guard`, private):
//! `mcap` 0.26 panics on a record running past its chunk and on an
//! attachment too short for its CRC, which become [`BagError::Malformed`]
//! here.
//!
//! # Bad input
//!
//! Errors of the bag are [`BagError`]s; an error of [`Messages`] is its
//! last item, after every message before it. Errors of one message are
//! the decoder's ([`DecodeError`]): the bag reads on, and the caller
//! counts the skip.
//!
//! | input | gives |
//! | --- | --- |
//! | a path that is not there, unreadable | [`BagError::Io`] from [`open`] |
//! | a directory without `metadata.yaml` | [`BagError::NoMetadata`] from [`open`] |
//! | `metadata.yaml` that is not rosbag2's, names no file or a missing one | [`BagError::Metadata`] from [`open`] |
//! | a `sqlite3` bag; a bag compression other than zstd | [`BagError::UnsupportedStorage`], [`BagError::UnsupportedCompression`] from [`open`] |
//! | a FIFO or a device | [`BagError::NotABag`] |
//! | not MCAP (bad magic) | [`BagError::NotMcap`], the first item |
//! | a file cut short (a recorder killed) | every complete message, then [`BagError::Truncated`] |
//! | a chunk whose CRC fails | the messages before that chunk, then [`BagError::Crc`] (`chunk`); a data or summary section's: after every message |
//! | a chunk compression other than zstd or lz4 | [`BagError::UnsupportedCompression`] (`chunk`) |
//! | a record over [`MAX_RECORD_BYTES`] | [`BagError::TooLarge`], before it is read |
//! | compressed data that does not decompress | [`BagError::Decompress`] |
//! | anything else malformed (a message on a channel never defined, conflicting channels, a record running past the end of its chunk) | [`BagError::Malformed`] |
//! | log times going backwards | delivered in the file's order, counted in [`Stats::backwards`] |
//! | a message encoding other than `cdr` | [`DecodeError::Encoding`] from [`Record::decode`] |
//! | a type not in [`KNOWN_TYPES`] (or a channel without schema) | `Ok(None)` from [`Record::decode`] |
//! | CDR that does not decode as its type (short, a bool not 0 or 1, not XCDR1, more than 3 bytes of padding left over) | [`DecodeError::Cdr`] |
//! | a sequence longer than the node takes (`limits`: a scan's ranges, an obstacle array's obstacles, a polygon's points) | [`CdrErrorKind::TooLong`], before anything is allocated for it |
//!
//! No input panics, and no length read from the input allocates more than
//! the bytes that carry it (a sequence's length is checked against the
//! bytes left): the `bag` fuzz target (`fuzz/`) checks both.
//!
//! # CDR
//!
//! XCDR1 as ROS 2 writes it ([`CdrReader`], [`CdrWriter`]): the
//! encapsulation header `00 01` (little endian) or `00 00` (big endian),
//! alignment relative to the byte after it, strings with their NUL. One
//! trait, [`Cdr`], for every field type and message; the messages'
//! structs ([`msgs`]) are Jazzy's layouts (`sensor_msgs/Range` with
//! `variance`, `visualization_msgs/Marker` with its texture and mesh
//! fields), written once each as a field list.
//!
//! # JSON
//!
//! A message's JSON is an object of its fields, named as ROS names them,
//! in order; numbers as numbers (a `float32` as the shortest decimal that
//! reads back as the same `float32`), a float that is not finite as the
//! string `"NaN"`, `"Infinity"` or `"-Infinity"`, bytes (`uint8[]`) as an
//! array of numbers. [`JsonLine`] is one line of `sat_collision bag-dump`.

mod any;
mod cdr;
mod error;
mod guard;
mod metadata;
pub mod msgs;
mod read;
mod write;

pub use any::{full_type_name, JsonLine, Message, KNOWN_TYPES};
pub use cdr::{Cdr, CdrError, CdrErrorKind, CdrReader, CdrWriter, Json, RosMessage};
pub use error::{BagError, DecodeError};
pub use read::{open, read_mcap, Messages, Record, Stats, Topic, MAX_RECORD_BYTES};
pub use write::BagWriter;
