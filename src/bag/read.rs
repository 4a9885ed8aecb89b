//! Reading a bag as a stream of records: MCAP through `mcap`'s sans-io
//! reader, fed a block at a time (memory follows the largest chunk or
//! record, never the file).

use super::any::Message;
use super::error::{BagError, DecodeError};
use super::guard::{ChunkGuard, Overrun};
use super::metadata::{self, Compression};
use mcap::sans_io::{LinearReaderOptions, MessageReadEvent, MessageReader};
use mcap::McapError;
use std::collections::{HashMap, VecDeque};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Largest record read: a message, or a chunk compressed or not (a
/// 2-million-point cloud of 48-byte points is 96 MiB). A larger one is
/// refused ([`BagError::TooLarge`]) before it is read.
pub const MAX_RECORD_BYTES: usize = 256 << 20;

/// Bytes asked of the file at a time.
const READ_BLOCK: usize = 1 << 20;

/// One message of the bag, its data as recorded (decompressed when
/// rosbag2 compressed each message).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// When it was recorded, ns (the recorder's clock).
    pub log_time_ns: u64,
    /// When it was published, ns (as the recorder saw it; often the same).
    pub publish_time_ns: u64,
    /// The channel's sequence number (0 when the writer kept none).
    pub sequence: u32,
    /// The topic.
    pub topic: Arc<str>,
    /// The type (the channel's schema name): `sensor_msgs/msg/LaserScan`;
    /// empty when the channel has no schema.
    pub schema_name: Arc<str>,
    /// The message encoding: `cdr` for ROS 2.
    pub encoding: Arc<str>,
    /// The serialized message.
    pub data: Vec<u8>,
}

impl Record {
    /// The message decoded: `Ok(None)` for a type this module does not
    /// know ([`super::KNOWN_TYPES`]).
    pub fn decode(&self) -> Result<Option<Message>, DecodeError> {
        if &*self.encoding != "cdr" {
            return Err(DecodeError::Encoding(self.encoding.to_string()));
        }
        Ok(Message::decode(&self.schema_name, &self.data)?)
    }
}

/// A topic of the bag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Topic {
    /// Its name.
    pub name: Arc<str>,
    /// Its type: `sensor_msgs/msg/LaserScan`.
    pub type_name: Arc<str>,
    /// Its message encoding: `cdr`.
    pub encoding: Arc<str>,
}

/// What the reading has met so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Messages delivered.
    pub messages: u64,
    /// Messages whose log time is before the previous message's (they are
    /// delivered in the file's order, not reordered).
    pub backwards: u64,
    /// Files opened.
    pub files: usize,
}

/// The messages of a bag, in the order of its files and their records
/// (see [`super`] for what each bad input gives).
pub struct Messages {
    files: VecDeque<PathBuf>,
    compression: Compression,
    current: Option<FileReader>,
    topics: Vec<Topic>,
    stats: Stats,
    last_log_time: Option<u64>,
    done: bool,
}

/// Opens a bag: a rosbag2 directory (its `metadata.yaml`: the files in
/// order, their compression), an `.mcap` file, or an `.mcap.zstd` file
/// (rosbag2's whole-file compression). Nothing but `metadata.yaml` is
/// read yet.
pub fn open(path: impl AsRef<Path>) -> Result<Messages, BagError> {
    let path = path.as_ref();
    let meta = std::fs::metadata(path).map_err(|source| BagError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    if meta.is_dir() {
        let bag = metadata::read(path)?;
        let topics = bag
            .topics
            .into_iter()
            .map(|(name, type_name, encoding)| Topic {
                name: name.into(),
                type_name: type_name.into(),
                encoding: encoding.into(),
            })
            .collect();
        return Ok(Messages::new(bag.files, bag.compression, topics));
    }
    if !meta.is_file() {
        return Err(BagError::NotABag(path.to_path_buf()));
    }
    Ok(Messages::new(
        vec![path.to_path_buf()],
        Compression::None,
        Vec::new(),
    ))
}

/// The messages of one MCAP stream (`name` names it in errors): for
/// bytes that are not in a file, such as a test's or a fuzzer's.
pub fn read_mcap(name: impl Into<PathBuf>, source: impl Read + Send + 'static) -> Messages {
    let mut messages = Messages::new(Vec::new(), Compression::None, Vec::new());
    messages.current = Some(FileReader::new(name.into(), Box::new(source)));
    messages.stats.files = 1;
    messages
}

impl Messages {
    fn new(files: Vec<PathBuf>, compression: Compression, topics: Vec<Topic>) -> Self {
        Self {
            files: files.into(),
            compression,
            current: None,
            topics,
            stats: Stats::default(),
            last_log_time: None,
            done: false,
        }
    }

    /// The topics known so far: a directory's from its metadata, then
    /// every channel met while reading.
    pub fn topics(&self) -> &[Topic] {
        &self.topics
    }

    /// What the reading has met so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    fn fail(&mut self, e: BagError) -> Option<Result<Record, BagError>> {
        self.done = true;
        self.current = None;
        Some(Err(e))
    }

    fn record(&mut self, message: mcap::Message<'static>) -> Result<Record, BagError> {
        let reader = self.current.as_mut().ok_or_else(|| BagError::Malformed {
            path: PathBuf::new(),
            reason: "no file".into(),
        })?;
        let channel = &message.channel;
        let info = reader
            .channels
            .entry(channel.id)
            .or_insert_with(|| ChannelInfo {
                topic: channel.topic.as_str().into(),
                schema_name: channel
                    .schema
                    .as_ref()
                    .map_or("", |s| s.name.as_str())
                    .into(),
                encoding: channel.message_encoding.as_str().into(),
            })
            .clone();
        let mut data = message.data.into_owned();
        if self.compression == Compression::Message {
            data = unzstd(&data).map_err(|reason| BagError::Decompress {
                path: reader.path.clone(),
                reason: format!("a message on {}: {reason}", info.topic),
            })?;
        }
        if !self.topics.iter().any(|t| {
            t.name == info.topic && t.type_name == info.schema_name && t.encoding == info.encoding
        }) {
            self.topics.push(Topic {
                name: info.topic.clone(),
                type_name: info.schema_name.clone(),
                encoding: info.encoding.clone(),
            });
        }
        self.stats.messages += 1;
        if self.last_log_time.is_some_and(|t| message.log_time < t) {
            self.stats.backwards += 1;
        }
        self.last_log_time = Some(message.log_time);
        Ok(Record {
            log_time_ns: message.log_time,
            publish_time_ns: message.publish_time,
            sequence: message.sequence,
            topic: info.topic,
            schema_name: info.schema_name,
            encoding: info.encoding,
            data,
        })
    }
}

impl Iterator for Messages {
    type Item = Result<Record, BagError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        loop {
            let Some(reader) = self.current.as_mut() else {
                let Some(path) = self.files.pop_front() else {
                    self.done = true;
                    return None;
                };
                match FileReader::open(path, self.compression) {
                    Ok(reader) => {
                        self.current = Some(reader);
                        self.stats.files += 1;
                        continue;
                    }
                    Err(e) => return self.fail(e),
                }
            };
            match reader.next_message() {
                None => self.current = None,
                Some(Err(e)) => return self.fail(e),
                Some(Ok(message)) => {
                    return match self.record(message) {
                        Ok(record) => Some(Ok(record)),
                        Err(e) => self.fail(e),
                    }
                }
            }
        }
    }
}

impl std::iter::FusedIterator for Messages {}

#[derive(Clone)]
struct ChannelInfo {
    topic: Arc<str>,
    schema_name: Arc<str>,
    encoding: Arc<str>,
}

/// One MCAP stream being read.
struct FileReader {
    path: PathBuf,
    source: Box<dyn Read + Send>,
    /// Whether `source` decompresses (its errors are the data's).
    compressed: bool,
    reader: MessageReader,
    channels: HashMap<u16, ChannelInfo>,
}

impl FileReader {
    fn new(path: PathBuf, source: Box<dyn Read + Send>) -> Self {
        let options = LinearReaderOptions::default()
            .with_prevalidate_chunk_crcs(true)
            .with_validate_data_section_crc(true)
            .with_validate_summary_section_crc(true)
            .with_record_length_limit(MAX_RECORD_BYTES);
        Self {
            path,
            source: Box::new(ChunkGuard::new(source)),
            compressed: false,
            reader: MessageReader::new_with_options(options),
            channels: HashMap::new(),
        }
    }

    /// Opens `path`: zstd-decompressed as a stream when its name ends in
    /// `.zstd` or the bag compresses its files.
    fn open(path: PathBuf, compression: Compression) -> Result<Self, BagError> {
        let io = |source| BagError::Io {
            path: path.clone(),
            source,
        };
        let file = std::fs::File::open(&path).map_err(io)?;
        if !file.metadata().map_err(io)?.is_file() {
            return Err(BagError::NotABag(path));
        }
        let zstd_name = path.extension().is_some_and(|e| e == "zstd");
        if zstd_name || compression == Compression::File {
            let decoder = zstd::stream::read::Decoder::new(file).map_err(io)?;
            let mut reader = Self::new(path, Box::new(decoder));
            reader.compressed = true;
            Ok(reader)
        } else {
            Ok(Self::new(path, Box::new(file)))
        }
    }

    fn next_message(&mut self) -> Option<Result<mcap::Message<'static>, BagError>> {
        loop {
            // The guard (`super::guard`) keeps the reader from the inputs it
            // is known to panic on; any other panic of it ends the file as
            // malformed rather than the program (the reader is not used
            // again).
            let event =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.reader.next_event()));
            let event = match event {
                Ok(event) => event?,
                Err(_) => {
                    return Some(Err(BagError::Malformed {
                        path: self.path.clone(),
                        reason: "the MCAP reader failed on it".into(),
                    }))
                }
            };
            match event {
                Ok(MessageReadEvent::ReadRequest(need)) => {
                    let buf = self.reader.insert(need.clamp(1, READ_BLOCK));
                    let read = loop {
                        match self.source.read(buf) {
                            Ok(n) => break n,
                            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                            Err(e) => return Some(Err(self.read_error(e))),
                        }
                    };
                    self.reader.notify_read(read);
                }
                Ok(MessageReadEvent::Message(message)) => return Some(Ok(message)),
                Err(e) => return Some(Err(self.mcap_error(e))),
            }
        }
    }

    fn read_error(&self, e: std::io::Error) -> BagError {
        let path = self.path.clone();
        if e.get_ref().is_some_and(|inner| inner.is::<Overrun>()) {
            BagError::Malformed {
                path,
                reason: e.to_string(),
            }
        } else if e.kind() == std::io::ErrorKind::UnexpectedEof {
            BagError::Truncated(path)
        } else if self.compressed {
            BagError::Decompress {
                path,
                reason: format!("zstd: {e}"),
            }
        } else {
            BagError::Io { path, source: e }
        }
    }

    fn mcap_error(&self, e: McapError) -> BagError {
        let path = self.path.clone();
        let crc = |what, saved, computed| BagError::Crc {
            path: self.path.clone(),
            what,
            saved,
            computed,
        };
        let too_large = |len| BagError::TooLarge {
            path: self.path.clone(),
            len,
            max: MAX_RECORD_BYTES as u64,
        };
        match e {
            McapError::UnexpectedEof => BagError::Truncated(path),
            McapError::BadMagic => BagError::NotMcap(path),
            McapError::BadChunkCrc { saved, calculated } => crc("chunk", saved, calculated),
            McapError::BadDataCrc { saved, calculated } => crc("data section", saved, calculated),
            McapError::BadSummaryCrc { saved, calculated } => {
                crc("summary section", saved, calculated)
            }
            McapError::UnsupportedCompression(format) => BagError::UnsupportedCompression {
                path,
                what: "chunk",
                format,
            },
            McapError::RecordTooLarge { len, .. } | McapError::ChunkTooLarge(len) => too_large(len),
            McapError::DecompressionError(reason) => BagError::Decompress { path, reason },
            McapError::Io(e) => self.read_error(e),
            e => BagError::Malformed {
                path,
                reason: e.to_string(),
            },
        }
    }
}

/// A message's data compressed by rosbag2 (one zstd frame), at most
/// [`MAX_RECORD_BYTES`] once decompressed.
fn unzstd(data: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    zstd::stream::read::Decoder::with_buffer(data)
        .and_then(|d| d.take(MAX_RECORD_BYTES as u64 + 1).read_to_end(&mut out))
        .map_err(|e| format!("zstd: {e}"))?;
    if out.len() > MAX_RECORD_BYTES {
        return Err(format!("more than {MAX_RECORD_BYTES} bytes decompressed"));
    }
    Ok(out)
}
