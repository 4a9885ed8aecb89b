//! Writing an MCAP that rosbag2, Foxglove and Lichtblick open: `ros2`
//! profile, `ros2msg` schemas as rosbag2 writes them, `cdr` messages,
//! zstd chunks with their CRCs and the summary. The same messages in give
//! the same bytes out.

use super::any::Message;
use super::cdr::RosMessage;
use super::error::BagError;
use std::collections::{BTreeMap, HashMap};
use std::io::{BufWriter, Seek, Write};
use std::path::Path;

/// Writes messages into an MCAP file.
pub struct BagWriter<W: Write + Seek> {
    writer: mcap::Writer<W>,
    /// Schema id by type name.
    schemas: HashMap<String, u16>,
    /// Channel id and its last sequence number, by topic and type.
    channels: HashMap<(String, String), (u16, u32)>,
}

impl BagWriter<BufWriter<std::fs::File>> {
    /// Creates (or truncates) the file at `path`.
    pub fn create(path: impl AsRef<Path>) -> Result<Self, BagError> {
        let path = path.as_ref();
        let file = std::fs::File::create(path).map_err(|source| BagError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Self::new(BufWriter::new(file))
    }
}

fn write_error(e: mcap::McapError) -> BagError {
    BagError::Write(e.to_string())
}

impl<W: Write + Seek> BagWriter<W> {
    /// A writer into `w` (zstd chunks, compressed on this thread).
    pub fn new(w: W) -> Result<Self, BagError> {
        let writer = mcap::WriteOptions::new()
            .profile("ros2")
            .library(concat!("sat_collision ", env!("CARGO_PKG_VERSION")))
            .compression(Some(mcap::Compression::Zstd))
            .compression_threads(0)
            .create(w)
            .map_err(write_error)?;
        Ok(Self {
            writer,
            schemas: HashMap::new(),
            channels: HashMap::new(),
        })
    }

    /// Writes `message` on `topic` at `log_time_ns` (also its publish
    /// time).
    pub fn write<M: RosMessage>(
        &mut self,
        topic: &str,
        log_time_ns: u64,
        message: &M,
    ) -> Result<(), BagError> {
        let data = message.encode().ok_or_else(|| too_long(M::TYPE_NAME))?;
        self.write_raw(topic, M::TYPE_NAME, &M::schema(), log_time_ns, &data)
    }

    /// Writes a message of any known type.
    pub fn write_message(
        &mut self,
        topic: &str,
        log_time_ns: u64,
        message: &Message,
    ) -> Result<(), BagError> {
        let type_name = message.type_name();
        let data = message.encode().ok_or_else(|| too_long(type_name))?;
        let schema = Message::schema_of(type_name).unwrap_or_default();
        self.write_raw(topic, type_name, &schema, log_time_ns, &data)
    }

    /// Writes serialized `data` (CDR) of type `type_name` whose `ros2msg`
    /// schema text is `schema` (used the first time the type is written).
    pub fn write_raw(
        &mut self,
        topic: &str,
        type_name: &str,
        schema: &str,
        log_time_ns: u64,
        data: &[u8],
    ) -> Result<(), BagError> {
        let key = (topic.to_owned(), type_name.to_owned());
        let (channel_id, sequence) = match self.channels.get_mut(&key) {
            Some(entry) => {
                entry.1 = entry.1.wrapping_add(1);
                *entry
            }
            None => {
                let schema_id = match self.schemas.get(type_name) {
                    Some(&id) => id,
                    None => {
                        let id = self
                            .writer
                            .add_schema(type_name, "ros2msg", schema.as_bytes())
                            .map_err(write_error)?;
                        self.schemas.insert(type_name.to_owned(), id);
                        id
                    }
                };
                let id = self
                    .writer
                    .add_channel(schema_id, topic, "cdr", &BTreeMap::new())
                    .map_err(write_error)?;
                self.channels.insert(key, (id, 1));
                (id, 1)
            }
        };
        self.writer
            .write_to_known_channel(
                &mcap::records::MessageHeader {
                    channel_id,
                    sequence,
                    log_time: log_time_ns,
                    publish_time: log_time_ns,
                },
                data,
            )
            .map_err(write_error)
    }

    /// Writes the summary and the end of the file; returns the output.
    pub fn finish(mut self) -> Result<W, BagError> {
        self.writer.finish().map_err(write_error)?;
        Ok(self.writer.into_inner())
    }
}

fn too_long(type_name: &str) -> BagError {
    BagError::Write(format!(
        "a {type_name} with a sequence or string longer than CDR's u32 length"
    ))
}
