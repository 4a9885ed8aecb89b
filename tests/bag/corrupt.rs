//! Hand-made bad bags: cut short, a chunk's CRC wrong, an unknown chunk
//! compression, message encoding or type, an oversized record, times
//! going backwards, directories without or with bad metadata. Each gives
//! the messages before the fault, then one clear error (or a counted
//! skip), never a panic.

use sat_collision::bag::msgs::{
    Clock, Header, LaserScan, TFMessage, Time, TransformStamped, Twist,
};
use sat_collision::bag::{
    self, BagError, BagWriter, CdrErrorKind, DecodeError, Message, Messages, Record, RosMessage,
};
use std::collections::BTreeMap;
use std::io::Cursor;

/// One message to write: topic, type, message encoding, log time, data.
pub struct Rec {
    pub topic: &'static str,
    pub type_name: &'static str,
    pub encoding: &'static str,
    pub time: u64,
    pub data: Vec<u8>,
}

/// A few messages of the node's inputs, 20 ms apart.
pub fn sample() -> Vec<Rec> {
    let mut out = Vec::new();
    for k in 0..12u32 {
        let time = 1_000_000_000 + 20_000_000 * u64::from(k);
        let stamp = Time {
            sec: 1,
            nanosec: k * 20_000_000,
        };
        let (topic, type_name, data) = match k % 4 {
            0 => {
                let scan = LaserScan {
                    header: Header {
                        stamp,
                        frame_id: "laser".into(),
                    },
                    angle_min: -1.0,
                    angle_max: 1.0,
                    angle_increment: 0.5,
                    range_max: 10.0,
                    ranges: vec![1.0, 2.0, f32::INFINITY, 3.0, 4.0],
                    ..Default::default()
                };
                ("/scan", LaserScan::TYPE_NAME, scan.encode())
            }
            1 => {
                let mut twist = Twist::default();
                twist.linear.x = 0.5;
                ("/cmd_vel", Twist::TYPE_NAME, twist.encode())
            }
            2 => {
                let mut t = TransformStamped {
                    header: Header {
                        stamp,
                        frame_id: "odom".into(),
                    },
                    child_frame_id: "base_link".into(),
                    ..Default::default()
                };
                t.transform.rotation.w = 1.0;
                (
                    "/tf",
                    TFMessage::TYPE_NAME,
                    TFMessage {
                        transforms: vec![t],
                    }
                    .encode(),
                )
            }
            _ => ("/clock", Clock::TYPE_NAME, Clock { clock: stamp }.encode()),
        };
        out.push(Rec {
            topic,
            type_name,
            encoding: "cdr",
            time,
            data: data.expect("encodes"),
        });
    }
    out
}

/// An MCAP of `recs`: chunks of about `chunk` bytes compressed with
/// `compression`, or no chunks.
pub fn mcap(recs: &[Rec], compression: Option<mcap::Compression>, chunk: Option<u64>) -> Vec<u8> {
    let mut w = mcap::WriteOptions::new()
        .profile("ros2")
        .compression(compression)
        .use_chunks(chunk.is_some())
        .chunk_size(chunk)
        .compression_threads(0)
        .create(Cursor::new(Vec::new()))
        .expect("writer");
    let mut channels = BTreeMap::new();
    for (k, r) in recs.iter().enumerate() {
        let key = (r.topic, r.type_name, r.encoding);
        let id = match channels.get(&key) {
            Some(&id) => id,
            None => {
                let schema = Message::schema_of(r.type_name).unwrap_or_default();
                let s = w
                    .add_schema(r.type_name, "ros2msg", schema.as_bytes())
                    .expect("schema");
                let id = w
                    .add_channel(s, r.topic, r.encoding, &BTreeMap::new())
                    .expect("channel");
                channels.insert(key, id);
                id
            }
        };
        let header = mcap::records::MessageHeader {
            channel_id: id,
            sequence: k as u32,
            log_time: r.time,
            publish_time: r.time,
        };
        w.write_to_known_channel(&header, &r.data).expect("message");
    }
    w.finish().expect("finish");
    w.into_inner().into_inner()
}

/// Top-level records of an MCAP: (offset of the opcode, opcode, body length).
fn records(data: &[u8]) -> Vec<(usize, u8, usize)> {
    let mut out = Vec::new();
    let mut at = 8;
    while at + 9 <= data.len() {
        let len = u64::from_le_bytes(data[at + 1..at + 9].try_into().expect("8 bytes")) as usize;
        out.push((at, data[at], len));
        at += 9 + len;
    }
    out
}

const CHUNK: u8 = 0x06;
const MESSAGE: u8 = 0x05;

/// Every item of `messages`: the records, then the error if any.
fn drain(messages: Messages) -> (Vec<Record>, Option<BagError>) {
    let mut records = Vec::new();
    for item in messages {
        match item {
            Ok(r) => records.push(r),
            Err(e) => return (records, Some(e)),
        }
    }
    (records, None)
}

fn read(data: &[u8]) -> (Vec<Record>, Option<BagError>) {
    drain(bag::read_mcap("test.mcap", Cursor::new(data.to_vec())))
}

#[test]
fn every_form_reads_the_same_records() {
    let recs = sample();
    for (compression, chunk) in [
        (Some(mcap::Compression::Zstd), Some(200)),
        (Some(mcap::Compression::Lz4), Some(200)),
        (None, Some(200)),
        (None, None),
    ] {
        let (got, error) = read(&mcap(&recs, compression, chunk));
        assert!(error.is_none(), "{error:?}");
        assert_eq!(got.len(), recs.len());
        for (g, r) in got.iter().zip(&recs) {
            assert_eq!(
                (&*g.topic, &*g.schema_name, &*g.encoding),
                (r.topic, r.type_name, "cdr")
            );
            assert_eq!((g.log_time_ns, &g.data), (r.time, &r.data));
            assert!(g.decode().expect("decodes").is_some());
        }
    }
}

#[test]
fn a_file_cut_anywhere_gives_its_first_messages_then_truncated() {
    let recs = sample();
    for (compression, chunk) in [(None, None), (Some(mcap::Compression::Zstd), Some(200))] {
        let data = mcap(&recs, compression, chunk);
        let mut last = 0;
        for cut in 0..data.len() {
            let (got, error) = read(&data[..cut]);
            assert!(
                matches!(error, Some(BagError::Truncated(_))),
                "cut at {cut} of {}: {error:?}",
                data.len()
            );
            for (g, r) in got.iter().zip(&recs) {
                assert_eq!(g.data, r.data);
            }
            assert!(
                got.len() >= last,
                "cut at {cut}: fewer messages than before"
            );
            last = got.len();
        }
        assert_eq!(last, recs.len());
    }
}

#[test]
fn a_chunk_whose_crc_fails_stops_before_its_messages() {
    let recs = sample();
    let mut data = mcap(&recs, None, Some(200));
    let chunks: Vec<_> = records(&data)
        .into_iter()
        .filter(|r| r.1 == CHUNK)
        .collect();
    assert!(chunks.len() >= 4, "{} chunks", chunks.len());
    // The last byte of a middle chunk's records (a message's data).
    let bad = chunks.len() / 2;
    let (at, _, len) = chunks[bad];
    data[at + 9 + len - 1] ^= 0x55;
    let (got, error) = read(&data);
    let Some(BagError::Crc { what: "chunk", .. }) = error else {
        panic!("{error:?}")
    };
    // Exactly the messages of the chunks before came first (a chunk's
    // header starts with its messages' first and last log times).
    let before = chunks[..bad]
        .iter()
        .map(|&(at, _, _)| u64::from_le_bytes(data[at + 17..at + 25].try_into().expect("8 bytes")))
        .max()
        .unwrap_or(0);
    let in_before = recs.iter().filter(|r| r.time <= before).count();
    assert!(in_before > 0 && in_before < recs.len());
    assert_eq!(got.len(), in_before);
}

#[test]
fn an_unknown_chunk_compression_is_named() {
    let mut data = mcap(&sample(), Some(mcap::Compression::Zstd), Some(200));
    let (at, _, _) = records(&data)
        .into_iter()
        .find(|r| r.1 == CHUNK)
        .expect("a chunk");
    // The compression string follows start, end, size, CRC and its length.
    let name = at + 9 + 8 + 8 + 8 + 4 + 4;
    assert_eq!(&data[name..name + 4], b"zstd");
    data[name..name + 4].copy_from_slice(b"brot");
    let (got, error) = read(&data);
    assert!(got.is_empty());
    let Some(BagError::UnsupportedCompression {
        what: "chunk",
        format,
        ..
    }) = error
    else {
        panic!("{error:?}")
    };
    assert_eq!(format, "brot");
}

#[test]
fn a_record_beyond_the_limit_is_refused_before_it_is_read() {
    let mut data = mcap(&sample(), None, None);
    let (at, _, _) = records(&data)
        .into_iter()
        .find(|r| r.1 == MESSAGE)
        .expect("a message");
    data[at + 1..at + 9].copy_from_slice(&(1u64 << 40).to_le_bytes());
    let (got, error) = read(&data);
    assert!(got.is_empty());
    assert!(
        matches!(error, Some(BagError::TooLarge { len, .. }) if len == 1 << 40),
        "{error:?}"
    );
}

#[test]
fn not_mcap_is_said_so() {
    let (got, error) = read(b"SQLite format 3\0 and more bytes");
    assert!(got.is_empty());
    assert!(matches!(error, Some(BagError::NotMcap(_))), "{error:?}");
}

#[test]
fn unknown_encodings_and_types_are_skips_and_times_are_not_reordered() {
    let mut recs = sample();
    recs[2].encoding = "protobuf";
    recs[3].type_name = "my_msgs/msg/Unknown";
    recs[5].time = 5; // before everything
    let short = recs[4].data.len() - 9;
    recs[4].data.truncate(short); // a scan that does not decode
    let data = mcap(&recs, Some(mcap::Compression::Zstd), Some(300));
    let mut messages = bag::read_mcap("test.mcap", Cursor::new(data));
    let got: Vec<Record> = messages.by_ref().map(|r| r.expect("reads")).collect();
    assert_eq!(got.len(), recs.len());
    assert_eq!(
        got.iter().map(|r| r.log_time_ns).collect::<Vec<_>>(),
        recs.iter().map(|r| r.time).collect::<Vec<_>>()
    );
    assert_eq!(messages.stats().backwards, 1);
    assert_eq!(messages.stats().messages, recs.len() as u64);
    assert_eq!(
        got[2].decode(),
        Err(DecodeError::Encoding("protobuf".into()))
    );
    assert_eq!(got[3].decode(), Ok(None));
    assert!(matches!(
        got[4].decode(),
        Err(DecodeError::Cdr(e)) if e.kind == CdrErrorKind::Truncated
    ));
    assert!(got[8].decode().expect("decodes").is_some());
    // Every channel met is a topic.
    let topics: Vec<_> = messages
        .topics()
        .iter()
        .map(|t| (&*t.name, &*t.encoding))
        .collect();
    assert!(topics.contains(&("/tf", "protobuf")) && topics.contains(&("/scan", "cdr")));
}

#[test]
fn directories_without_or_with_bad_metadata_are_errors() {
    let dir = std::env::temp_dir().join(format!("sat_collision_bag_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    assert!(matches!(bag::open(&dir), Err(BagError::NoMetadata(_))));
    let meta = dir.join("metadata.yaml");
    let cases = [
        ("just: [a, list", "not rosbag2's metadata"),
        (
            "rosbag2_bagfile_information: {relative_file_paths: []}",
            "names no file",
        ),
        (
            "rosbag2_bagfile_information: {relative_file_paths: [gone.mcap]}",
            "`gone.mcap` is not in the bag",
        ),
    ];
    for (text, says) in cases {
        std::fs::write(&meta, text).expect("write");
        let e = bag::open(&dir).err().expect("an error");
        assert!(matches!(e, BagError::Metadata { .. }), "{e:?}");
        assert!(e.to_string().contains(says), "{e}");
    }
    std::fs::write(
        &meta,
        "rosbag2_bagfile_information: {storage_identifier: sqlite3, relative_file_paths: [b.db3]}",
    )
    .expect("write");
    assert!(matches!(
        bag::open(&dir),
        Err(BagError::UnsupportedStorage { .. })
    ));
    std::fs::write(
        &meta,
        "rosbag2_bagfile_information: {compression_mode: FILE, compression_format: lz4, \
         relative_file_paths: [b.mcap]}",
    )
    .expect("write");
    assert!(matches!(
        bag::open(&dir),
        Err(BagError::UnsupportedCompression { what: "file", .. })
    ));
    // A file named in the metadata but truncated: its messages, then the error.
    let data = mcap(&sample(), Some(mcap::Compression::Lz4), Some(200));
    let (last_chunk, _, len) = records(&data)
        .into_iter()
        .rfind(|r| r.1 == CHUNK)
        .expect("a chunk");
    std::fs::write(dir.join("b_0.mcap"), &data[..last_chunk + len / 2]).expect("write");
    std::fs::write(
        &meta,
        "rosbag2_bagfile_information: {relative_file_paths: [b_0.mcap]}",
    )
    .expect("write");
    let (got, error) = drain(bag::open(&dir).expect("opens"));
    assert!(!got.is_empty() && got.len() < sample().len());
    assert!(matches!(error, Some(BagError::Truncated(_))), "{error:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_writer_writes_what_the_reader_reads() {
    let recs = sample();
    let mut w = BagWriter::new(Cursor::new(Vec::new())).expect("writer");
    for r in &recs {
        let message = Message::decode(r.type_name, &r.data)
            .expect("decodes")
            .expect("known");
        w.write_message(r.topic, r.time, &message).expect("write");
    }
    let data = w.finish().expect("finish").into_inner();
    let (got, error) = read(&data);
    assert!(error.is_none(), "{error:?}");
    for (g, r) in got.iter().zip(&recs) {
        assert_eq!(
            (&*g.topic, g.log_time_ns, &g.data),
            (r.topic, r.time, &r.data)
        );
    }
    // The same messages give the same bytes.
    let mut w = BagWriter::new(Cursor::new(Vec::new())).expect("writer");
    for r in &recs {
        let message = Message::decode(r.type_name, &r.data)
            .expect("decodes")
            .expect("known");
        w.write_message(r.topic, r.time, &message).expect("write");
    }
    assert_eq!(w.finish().expect("finish").into_inner(), data);
}

/// The first record of `opcode` in `data`: its offset.
fn first(data: &[u8], opcode: u8) -> usize {
    records(data)
        .into_iter()
        .find(|r| r.1 == opcode)
        .map(|r| r.0)
        .expect("a record")
}

#[test]
fn framing_that_mcap_would_panic_on_is_malformed() {
    // A record inside an uncompressed chunk (CRC 0: not checked) running
    // past the chunk's end.
    let mut data = mcap(&sample(), None, Some(200));
    let chunk = first(&data, CHUNK) + 9;
    data[chunk + 24..chunk + 28].copy_from_slice(&[0; 4]);
    let records = chunk + 32 + 8;
    let records_len = data[records - 8..records].to_vec();
    data[records + 1..records + 9].copy_from_slice(&records_len);
    let (got, error) = read(&data);
    assert!(got.is_empty());
    assert!(
        matches!(&error, Some(BagError::Malformed { reason, .. }) if reason.contains("past the end")),
        "{error:?}"
    );

    // An attachment whose body ends 3 bytes after its header (mcap slices
    // its data up to 4 bytes before the end).
    let mut w = mcap::WriteOptions::new()
        .create(Cursor::new(Vec::new()))
        .expect("writer");
    w.attach(&mcap::Attachment {
        log_time: 1,
        create_time: 2,
        name: "a".into(),
        media_type: "b".into(),
        data: std::borrow::Cow::Borrowed(b"xyz"),
    })
    .expect("attach");
    w.finish().expect("finish");
    let mut data = w.into_inner().into_inner();
    let at = first(&data, 0x09);
    let header = 20 + 1 + 4 + 1 + 8;
    data[at + 1..at + 9].copy_from_slice(&(header as u64 + 3).to_le_bytes());
    data.truncate(at + 9 + header + 3);
    let (_, error) = read(&data);
    assert!(
        matches!(error, Some(BagError::Malformed { .. })),
        "{error:?}"
    );
}
