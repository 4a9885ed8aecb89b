//! A bag far larger than what the reader keeps: memory stays flat.

use sat_collision::bag;
use std::io::{Cursor, Read};

/// Bytes of one generated message.
const MESSAGE_BYTES: usize = 4 << 20;
/// Messages generated: 256 MiB in all.
const MESSAGES: usize = 64;

/// An MCAP stream made on the fly: a file of one message, its message
/// record repeated `MESSAGES` times (no chunks, no data CRC), never held
/// whole.
struct Generated {
    parts: [Vec<u8>; 3],
    /// Which part is being served (1 repeats) and how far.
    part: usize,
    repeats: usize,
    at: usize,
}

impl Generated {
    fn new() -> Self {
        let mut w = mcap::WriteOptions::new()
            .use_chunks(false)
            .calculate_data_section_crc(false)
            .create(Cursor::new(Vec::new()))
            .expect("writer");
        let schema = w
            .add_schema("std_msgs/msg/Bool", "ros2msg", b"bool data")
            .expect("schema");
        let channel = w
            .add_channel(schema, "/big", "cdr", &Default::default())
            .expect("channel");
        let header = mcap::records::MessageHeader {
            channel_id: channel,
            sequence: 0,
            log_time: 7,
            publish_time: 7,
        };
        w.write_to_known_channel(&header, &vec![0xAB; MESSAGE_BYTES])
            .expect("message");
        w.finish().expect("finish");
        let file = w.into_inner().into_inner();
        // The one message record: opcode 5, its length, its body.
        let mut at = 8;
        let (start, end) = loop {
            let len = u64::from_le_bytes(file[at + 1..at + 9].try_into().expect("8")) as usize;
            if file[at] == 0x05 {
                break (at, at + 9 + len);
            }
            at += 9 + len;
        };
        Self {
            parts: [
                file[..start].to_vec(),
                file[start..end].to_vec(),
                file[end..].to_vec(),
            ],
            part: 0,
            repeats: 0,
            at: 0,
        }
    }
}

impl Read for Generated {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.part < 3 {
            let part = &self.parts[self.part];
            if self.at < part.len() {
                let n = buf.len().min(part.len() - self.at);
                buf[..n].copy_from_slice(&part[self.at..self.at + n]);
                self.at += n;
                return Ok(n);
            }
            self.at = 0;
            if self.part == 1 {
                self.repeats += 1;
                if self.repeats < MESSAGES {
                    continue;
                }
            }
            self.part += 1;
        }
        Ok(0)
    }
}

/// The process's peak resident memory so far, bytes.
fn peak_rss() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<usize>().ok())
        .map_or(0, |kb| kb * 1024)
}

#[test]
fn a_bag_larger_than_memory_allows_streams() {
    let before = peak_rss();
    let mut count = 0;
    for record in bag::read_mcap("generated.mcap", Generated::new()) {
        let record = record.expect("reads");
        assert_eq!(record.data.len(), MESSAGE_BYTES);
        count += 1;
    }
    assert_eq!(count, MESSAGES);
    let grown = peak_rss().saturating_sub(before);
    // 256 MiB went through; a few messages' worth may be held at once.
    assert!(
        grown < 16 * MESSAGE_BYTES,
        "peak memory grew by {grown} bytes"
    );
    println!("256 MiB read, peak memory grown by {} MiB", grown >> 20);
}
