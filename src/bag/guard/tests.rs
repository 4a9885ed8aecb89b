use super::*;
use std::io::Cursor;

/// An MCAP of a few messages in uncompressed chunks (or compressed ones).
fn sample(compression: Option<mcap::Compression>) -> Vec<u8> {
    let mut w = mcap::WriteOptions::new()
        .compression(compression)
        .chunk_size(Some(100))
        .compression_threads(0)
        .create(Cursor::new(Vec::new()))
        .unwrap();
    let s = w
        .add_schema("std_msgs/msg/Bool", "ros2msg", b"bool data")
        .unwrap();
    let c = w.add_channel(s, "/b", "cdr", &Default::default()).unwrap();
    for k in 0..20u32 {
        let header = mcap::records::MessageHeader {
            channel_id: c,
            sequence: k,
            log_time: u64::from(k),
            publish_time: u64::from(k),
        };
        w.write_to_known_channel(&header, &[0, 1, 0, 0, 1]).unwrap();
    }
    // Attachments are followed too (outside chunks).
    w.attach(&mcap::Attachment {
        log_time: 1,
        create_time: 2,
        name: "calibration.yaml".into(),
        media_type: "text/yaml".into(),
        data: std::borrow::Cow::Borrowed(b"k: 1\n"),
    })
    .unwrap();
    w.finish().unwrap();
    w.into_inner().into_inner()
}

/// Reads `data` through a guard `step` bytes at a time.
fn pass(data: &[u8], step: usize) -> std::io::Result<Vec<u8>> {
    let mut guard = ChunkGuard::new(Cursor::new(data.to_vec()));
    let mut out = Vec::new();
    let mut buf = vec![0; step];
    loop {
        let n = guard.read(&mut buf)?;
        if n == 0 {
            return Ok(out);
        }
        out.extend_from_slice(&buf[..n]);
    }
}

#[test]
fn a_good_file_passes_unchanged_whatever_the_read_sizes() {
    for compression in [None, Some(mcap::Compression::Zstd)] {
        let data = sample(compression);
        for step in [1, 2, 7, 9, 33, 4096] {
            assert_eq!(
                pass(&data, step).unwrap(),
                data,
                "{compression:?} by {step}"
            );
        }
    }
}

#[test]
fn a_record_running_past_its_chunk_is_an_error() {
    let mut data = sample(None);
    // The first chunk: its first inner record's length made too large.
    let mut at = 8;
    loop {
        let len = u64::from_le_bytes(data[at + 1..at + 9].try_into().unwrap()) as usize;
        if data[at] == CHUNK {
            break;
        }
        at += 9 + len;
    }
    let body = at + 9;
    let name = u32::from_le_bytes(data[body + 28..body + 32].try_into().unwrap()) as usize;
    assert_eq!(name, 0, "uncompressed");
    let records = body + CHUNK_FIXED + 8;
    let records_len = u64::from_le_bytes(data[records - 8..records].try_into().unwrap());
    data[records + 1..records + 9].copy_from_slice(&records_len.to_le_bytes());
    for step in [1, 5, 4096] {
        let e = pass(&data, step).unwrap_err();
        assert!(e.get_ref().is_some_and(|e| e.is::<Overrun>()), "{e}");
    }
}

#[test]
fn an_attachment_too_short_for_its_crc_is_an_error() {
    let mut data = sample(None);
    let mut at = 8;
    loop {
        let len = u64::from_le_bytes(data[at + 1..at + 9].try_into().unwrap()) as usize;
        if data[at] == ATTACHMENT {
            break;
        }
        at += 9 + len;
    }
    // Its body cut to its header and 3 bytes: mcap would slice 4 before the
    // end, before its header's end.
    let body = at + 9;
    let name = u32::from_le_bytes(data[body + 16..body + 20].try_into().unwrap()) as usize;
    let media_at = body + 20 + name;
    let media = u32::from_le_bytes(data[media_at..media_at + 4].try_into().unwrap()) as usize;
    let header = 20 + name + 4 + media + 8;
    data[at + 1..at + 9].copy_from_slice(&(header as u64 + 3).to_le_bytes());
    data.truncate(body + header + 3);
    let e = pass(&data, 3).unwrap_err();
    assert!(e.get_ref().is_some_and(|e| e.is::<Overrun>()), "{e}");
}
