//! A check on an MCAP stream as it passes to `mcap`'s reader: the records
//! inside an uncompressed chunk must end within it.
//!
//! `mcap` 0.26's linear reader takes a record inside an uncompressed
//! chunk without comparing its length with what is left of the chunk, then
//! subtracts it from that: past zero, a panic where overflow is checked (a
//! debug build, the tests) and, in a release build, the rest of the file
//! read as the chunk's records; and it slices an attachment's data up to
//! 4 bytes before its end without checking that its header left them (a
//! panic in every build). Both were found by the `bag` fuzz target. A chunk
//! whose CRC is checked cannot hold such a record unless its writer wrote
//! it so, but a CRC of 0 means "not computed". This reads only the
//! records' framing (opcode and length, the lengths in a chunk's and an
//! attachment's header), never their contents, and holds at most 32 bytes:
//! the bytes go on unchanged.

use std::io::Read;

/// The error a guarded stream gives for a record that overruns its chunk
/// (or an attachment too short for its CRC).
#[derive(Debug)]
pub(super) struct Overrun;

impl std::fmt::Display for Overrun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a record runs past the end of its chunk, or an attachment past its own")
    }
}

impl std::error::Error for Overrun {}

const FOOTER: u8 = 0x02;
const CHUNK: u8 = 0x06;
const ATTACHMENT: u8 = 0x09;
/// A record's opcode and length.
const FRAME: usize = 9;
/// A chunk's fields before its compression string: start and end times,
/// uncompressed size, CRC, the string's length.
const CHUNK_FIXED: usize = 32;
/// An attachment's fields before its name: log and create times, the
/// name's length.
const ATTACHMENT_FIXED: usize = 20;

/// Where the stream is. `left` counts the bytes left in the current
/// record's body.
#[derive(Clone, Copy, Debug)]
enum State {
    /// Bytes passed as they are (the magic, a record's body, a string).
    Skip { left: u64, then: Next },
    /// Collecting a record's frame (opcode and length): in a chunk's
    /// uncompressed records when `chunk` is `Some((left in the records,
    /// left in the chunk after them))`.
    Frame { chunk: Option<(u64, u64)> },
    /// Collecting what the next step reads.
    Collect { want: usize, step: Step },
    /// The stream is no longer followed (after the footer, or framing
    /// `mcap` refuses by itself).
    Off,
}

/// What follows a skip.
#[derive(Clone, Copy, Debug)]
enum Next {
    /// A top-level record's frame.
    TopFrame,
    /// The next record of a chunk's uncompressed records: left in them,
    /// left in the chunk after them.
    InChunk(u64, u64),
    /// Collecting for a step.
    Collect(usize, Step),
    /// Nothing more to follow.
    Off,
}

/// What collected bytes are.
#[derive(Clone, Copy, Debug)]
enum Step {
    /// A chunk's fixed fields.
    ChunkFixed { left: u64 },
    /// A chunk's records' length (after its compression string).
    ChunkRecords { left: u64, compressed: bool },
    /// An attachment's times and name length.
    AttachmentFixed { left: u64 },
    /// An attachment's media type length.
    AttachmentMedia { left: u64 },
    /// An attachment's data length.
    AttachmentData { left: u64 },
}

/// Passes `inner`'s bytes on, following the MCAP framing (see the module).
pub(super) struct ChunkGuard<R> {
    inner: R,
    state: State,
    /// The frame or fields being collected (at most 32 bytes).
    pending: Vec<u8>,
}

impl<R: Read> ChunkGuard<R> {
    /// A guard of a stream that starts with MCAP's magic.
    pub(super) fn new(inner: R) -> Self {
        Self {
            inner,
            state: State::Skip {
                left: 8,
                then: Next::TopFrame,
            },
            pending: Vec::new(),
        }
    }

    fn after(next: Next) -> State {
        match next {
            Next::TopFrame => State::Frame { chunk: None },
            Next::InChunk(0, after) => State::Skip {
                left: after,
                then: Next::TopFrame,
            },
            Next::InChunk(left, after) => State::Frame {
                chunk: Some((left, after)),
            },
            Next::Collect(want, step) => State::Collect { want, step },
            Next::Off => State::Off,
        }
    }

    /// `want` bytes to collect for `step` out of a body with `left`
    /// bytes; when they are not there, `mcap` refuses the record itself.
    fn collect_for(want: usize, left: u64, step: Step) -> State {
        if want as u64 > left {
            State::Off
        } else {
            State::Collect { want, step }
        }
    }

    /// Follows `bytes`; an error for a record that overruns its chunk.
    fn observe(&mut self, mut bytes: &[u8]) -> Result<(), Overrun> {
        while !bytes.is_empty() {
            match self.state {
                State::Off => return Ok(()),
                State::Skip { left, then } => {
                    let n = (bytes.len() as u64).min(left);
                    bytes = &bytes[n as usize..];
                    self.state = if n == left {
                        Self::after(then)
                    } else {
                        State::Skip {
                            left: left - n,
                            then,
                        }
                    };
                }
                State::Frame { chunk } => {
                    if chunk.is_some_and(|(left, _)| left < FRAME as u64) {
                        return Err(Overrun);
                    }
                    if !self.collect(&mut bytes, FRAME) {
                        continue;
                    }
                    let opcode = self.pending[0];
                    let len = le_u64(&self.pending[1..]);
                    self.pending.clear();
                    self.state = match chunk {
                        Some((left, after)) => {
                            let rest = left - FRAME as u64;
                            if len > rest {
                                return Err(Overrun);
                            }
                            State::Skip {
                                left: len,
                                then: Next::InChunk(rest - len, after),
                            }
                        }
                        None if opcode == CHUNK => {
                            Self::collect_for(CHUNK_FIXED, len, Step::ChunkFixed { left: len })
                        }
                        None if opcode == ATTACHMENT => Self::collect_for(
                            ATTACHMENT_FIXED,
                            len,
                            Step::AttachmentFixed { left: len },
                        ),
                        None if opcode == FOOTER => State::Skip {
                            left: len,
                            then: Next::Off,
                        },
                        None => State::Skip {
                            left: len,
                            then: Next::TopFrame,
                        },
                    };
                }
                State::Collect { want, step } => {
                    if !self.collect(&mut bytes, want) {
                        continue;
                    }
                    let fields = std::mem::take(&mut self.pending);
                    self.state = Self::step(step, want as u64, &fields)?;
                }
            }
        }
        Ok(())
    }

    /// The state after `step`'s `fields` (`taken` bytes of the body).
    fn step(step: Step, taken: u64, fields: &[u8]) -> Result<State, Overrun> {
        // A string's length, then `want` bytes after it, out of `left`.
        let string = |len: u32, left: u64, want: usize, then: Step| {
            let len = u64::from(len);
            if len.saturating_add(want as u64) > left {
                State::Off
            } else {
                State::Skip {
                    left: len,
                    then: Next::Collect(want, then),
                }
            }
        };
        Ok(match step {
            Step::ChunkFixed { left } => {
                let left = left - taken;
                let name = le_u32(&fields[28..]);
                let compressed = name > 0;
                string(
                    name,
                    left,
                    8,
                    Step::ChunkRecords {
                        left: left.saturating_sub(u64::from(name)),
                        compressed,
                    },
                )
            }
            Step::ChunkRecords { left, compressed } => {
                let body = left - taken;
                let records = le_u64(fields);
                match body.checked_sub(records) {
                    // The records' length beyond the chunk: mcap refuses it.
                    None => State::Off,
                    Some(_) if compressed => State::Skip {
                        left: body,
                        then: Next::TopFrame,
                    },
                    Some(after) => Self::after(Next::InChunk(records, after)),
                }
            }
            Step::AttachmentFixed { left } => {
                let left = left - taken;
                let name = le_u32(&fields[16..]);
                string(
                    name,
                    left,
                    4,
                    Step::AttachmentMedia {
                        left: left.saturating_sub(u64::from(name)),
                    },
                )
            }
            Step::AttachmentMedia { left } => {
                let left = left - taken;
                let media = le_u32(fields);
                string(
                    media,
                    left,
                    8,
                    Step::AttachmentData {
                        left: left.saturating_sub(u64::from(media)),
                    },
                )
            }
            Step::AttachmentData { left } => {
                // mcap takes the data and a CRC after the header: 4 bytes
                // at least must be left (it slices without checking).
                let left = left - taken;
                if left < 4 {
                    return Err(Overrun);
                }
                State::Skip {
                    left,
                    then: Next::TopFrame,
                }
            }
        })
    }

    /// Moves bytes into `pending` until it holds `want`: whether it does.
    fn collect(&mut self, bytes: &mut &[u8], want: usize) -> bool {
        let n = want.saturating_sub(self.pending.len()).min(bytes.len());
        self.pending.extend_from_slice(&bytes[..n]);
        *bytes = &bytes[n..];
        self.pending.len() >= want
    }
}

/// The little-endian `u64` that `bytes` starts with (0 when shorter).
fn le_u64(bytes: &[u8]) -> u64 {
    bytes
        .first_chunk::<8>()
        .map_or(0, |b| u64::from_le_bytes(*b))
}

/// The little-endian `u32` that `bytes` starts with (0 when shorter).
fn le_u32(bytes: &[u8]) -> u32 {
    bytes
        .first_chunk::<4>()
        .map_or(0, |b| u32::from_le_bytes(*b))
}

impl<R: Read> Read for ChunkGuard<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.observe(&buf[..n])
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
        Ok(n)
    }
}

#[cfg(test)]
mod tests;
