//! CDR as ROS 2 writes it (XCDR1, "plain CDR"): a 4-byte encapsulation
//! header (`00 00` big endian, `00 01` little endian, two option bytes),
//! then the fields in order, each aligned to its own size (8 at most)
//! relative to the first byte after the header; a string is a `u32` length
//! counting its NUL, its bytes and the NUL; a sequence a `u32` count and its
//! elements; a fixed array its elements only.
//!
//! [`CdrReader`] reads the primitives with every bound checked (nothing
//! here panics on input), [`CdrWriter`] writes them little endian as rclpy
//! does, and [`Cdr`] is the one trait every field type and message
//! implements: its reading, its writing, its JSON and its part of the
//! schema text.

use serde::ser::{SerializeSeq, Serializer};

/// Why a message's bytes do not decode.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{kind} at byte {offset}{}", field.map_or_else(String::new, |f| format!(" (field `{f}`)")))]
pub struct CdrError {
    /// What is wrong.
    pub kind: CdrErrorKind,
    /// Where, in bytes after the encapsulation header.
    pub offset: usize,
    /// The innermost field being read, when known.
    pub field: Option<&'static str>,
}

/// What is wrong with a message's bytes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CdrErrorKind {
    /// Fewer bytes than the fields need.
    #[error("the message ends early")]
    Truncated,
    /// An encapsulation other than XCDR1 (`00 00`, `00 01`).
    #[error("encapsulation {0:02x} {1:02x} is not plain CDR (00 00 or 00 01)")]
    Encapsulation(u8, u8),
    /// A sequence longer than the node takes (the limit is the node's own,
    /// e.g. the points of one sensor message), refused before anything is
    /// allocated for it.
    #[error("a sequence of {len} elements, more than {max}")]
    TooLong {
        /// The length read.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// A `bool` byte other than 0 or 1.
    #[error("a bool byte {0}")]
    Bool(u8),
    /// More bytes after the last field than alignment padding explains.
    #[error("{0} bytes after the last field")]
    TrailingBytes(usize),
}

/// Bytes after the last field still taken as padding: rclpy writes none,
/// Cyclone DDS pads a message to 4 (the encapsulation options' count); more
/// means another layout.
const MAX_TRAILING: usize = 3;

/// Reads one CDR message, every read bounds-checked.
#[derive(Debug)]
pub struct CdrReader<'a> {
    body: &'a [u8],
    pos: usize,
    little: bool,
    /// The limit on the next sequence's length (one field's limit, see
    /// [`CdrReader::limit_next_sequence`]).
    next_limit: usize,
}

impl<'a> CdrReader<'a> {
    /// A reader of `data`: its encapsulation header checked, the fields to
    /// follow.
    pub fn new(data: &'a [u8]) -> Result<Self, CdrError> {
        let Some((head, body)) = data.split_first_chunk::<4>() else {
            return Err(CdrError {
                kind: CdrErrorKind::Truncated,
                offset: 0,
                field: None,
            });
        };
        let little = match (head[0], head[1]) {
            (0, 0) => false,
            (0, 1) => true,
            (a, b) => {
                return Err(CdrError {
                    kind: CdrErrorKind::Encapsulation(a, b),
                    offset: 0,
                    field: None,
                })
            }
        };
        Ok(Self {
            body,
            pos: 0,
            little,
            next_limit: usize::MAX,
        })
    }

    /// Whether the message is little endian.
    pub fn little_endian(&self) -> bool {
        self.little
    }

    /// Bytes not read yet.
    pub fn remaining(&self) -> usize {
        self.body.len().saturating_sub(self.pos)
    }

    /// The position, in bytes after the encapsulation header.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// An error of `kind` here.
    pub fn error(&self, kind: CdrErrorKind) -> CdrError {
        CdrError {
            kind,
            offset: self.pos,
            field: None,
        }
    }

    /// Skips the padding before a value of `size` bytes (1, 2, 4 or 8).
    pub fn align(&mut self, size: usize) -> Result<(), CdrError> {
        let pad = (size - self.pos % size) % size;
        if pad > self.remaining() {
            return Err(self.error(CdrErrorKind::Truncated));
        }
        self.pos += pad;
        Ok(())
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], CdrError> {
        if n > self.remaining() {
            return Err(self.error(CdrErrorKind::Truncated));
        }
        let bytes = &self.body[self.pos..self.pos + n];
        self.pos += n;
        Ok(bytes)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], CdrError> {
        self.align(N)?;
        let bytes = self.take(N)?;
        let mut out = [0; N];
        out.copy_from_slice(bytes);
        if self.little == cfg!(target_endian = "big") {
            out.reverse();
        }
        Ok(out)
    }

    /// A `uint8` (`byte`, `char`).
    pub fn u8(&mut self) -> Result<u8, CdrError> {
        Ok(self.take(1)?[0])
    }

    /// A `bool`: 0 or 1.
    pub fn bool(&mut self) -> Result<bool, CdrError> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            b => Err(CdrError {
                kind: CdrErrorKind::Bool(b),
                offset: self.pos - 1,
                field: None,
            }),
        }
    }

    /// A `uint32`.
    pub fn u32(&mut self) -> Result<u32, CdrError> {
        self.array().map(u32::from_ne_bytes)
    }

    /// A `float64`.
    pub fn f64(&mut self) -> Result<f64, CdrError> {
        self.array().map(f64::from_ne_bytes)
    }

    /// A `string`: its length (with the NUL), its bytes. Bytes that are not
    /// UTF-8 are replaced (U+FFFD), as a ROS string is any bytes.
    pub fn string(&mut self) -> Result<String, CdrError> {
        let len = self.u32()? as usize;
        let bytes = self.take(len)?;
        let bytes = bytes.strip_suffix(&[0]).unwrap_or(bytes);
        Ok(String::from_utf8_lossy(bytes).into_owned())
    }

    /// Sets the limit of the next sequence read (a field's own limit); it
    /// holds for that one sequence only.
    pub fn limit_next_sequence(&mut self, max: usize) {
        self.next_limit = max;
    }

    /// A sequence's length, checked against the limit set for it and
    /// against the bytes left (each element takes `min_size` bytes at
    /// least): what this returns can be allocated.
    pub fn sequence_len(&mut self, min_size: usize) -> Result<usize, CdrError> {
        let max = std::mem::replace(&mut self.next_limit, usize::MAX);
        let len = self.u32()? as usize;
        if len > max {
            return Err(CdrError {
                kind: CdrErrorKind::TooLong { len, max },
                offset: self.pos - 4,
                field: None,
            });
        }
        if len.saturating_mul(min_size.max(1)) > self.remaining() {
            return Err(self.error(CdrErrorKind::Truncated));
        }
        Ok(len)
    }

    /// Ends the message: at most alignment padding may be left.
    pub fn finish(&self) -> Result<(), CdrError> {
        match self.remaining() {
            n if n > MAX_TRAILING => Err(self.error(CdrErrorKind::TrailingBytes(n))),
            _ => Ok(()),
        }
    }
}

/// Writes one CDR message, little endian (`00 01`), as rclpy does (its
/// bytes but for alignment padding, which is zero here and whatever
/// Fast-CDR's buffer held there).
#[derive(Clone, Debug)]
pub struct CdrWriter {
    buf: Vec<u8>,
    /// A length did not fit in a `u32`: the message cannot be written.
    overflow: bool,
}

impl Default for CdrWriter {
    fn default() -> Self {
        Self::new()
    }
}

impl CdrWriter {
    /// A message with its encapsulation header written.
    pub fn new() -> Self {
        Self {
            buf: vec![0, 1, 0, 0],
            overflow: false,
        }
    }

    /// Pads with zeros before a value of `size` bytes.
    pub fn align(&mut self, size: usize) {
        let pos = self.buf.len() - 4;
        let pad = (size - pos % size) % size;
        self.buf.resize(self.buf.len() + pad, 0);
    }

    /// Raw bytes (a `uint8` sequence's elements).
    pub fn bytes(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// A value of `N` bytes, little endian, aligned to `N`.
    pub fn aligned<const N: usize>(&mut self, le_bytes: [u8; N]) {
        self.align(N);
        self.buf.extend_from_slice(&le_bytes);
    }

    /// A `uint32` (a length).
    pub fn u32(&mut self, v: u32) {
        self.aligned(v.to_le_bytes());
    }

    /// A sequence's or string's length. A length beyond `u32` cannot be
    /// written: the message is refused (`None`) by [`CdrWriter::finish`].
    pub fn len(&mut self, len: usize) {
        match u32::try_from(len) {
            Ok(len) => self.u32(len),
            Err(_) => self.overflow = true,
        }
    }

    /// A `string`: its length with the NUL, its bytes, the NUL.
    pub fn string(&mut self, s: &str) {
        self.len(s.len() + 1);
        self.buf.extend_from_slice(s.as_bytes());
        self.buf.push(0);
    }

    /// The message's bytes (no padding after the last field, as rclpy);
    /// `None` when a length did not fit in a `u32`.
    pub fn finish(self) -> Option<Vec<u8>> {
        (!self.overflow).then_some(self.buf)
    }
}

/// A field type or a message: its CDR, its JSON, its schema.
///
/// Implemented for the primitives, `String`, `Vec<T>`, `[T; N]` and every
/// message of [`super::msgs`] (by one macro from the field list).
pub trait Cdr: Sized {
    /// Fewest bytes one value takes in CDR (a sequence's length is checked
    /// against the bytes left with it before anything is allocated).
    const MIN_SIZE: usize;

    /// The value of a field not set: zero, empty.
    fn zero() -> Self;

    /// Reads one value.
    fn read(r: &mut CdrReader<'_>) -> Result<Self, CdrError>;

    /// Writes one value.
    fn write(&self, w: &mut CdrWriter);

    /// The value as JSON, the fields named as ROS names them; a float that
    /// is not finite as the string `"NaN"`, `"Infinity"` or `"-Infinity"`.
    fn json<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error>;

    /// Adds the `(name, definition)` of every message type this one uses,
    /// itself included, once each (the schema text's parts).
    fn definitions(_out: &mut Vec<(&'static str, &'static str)>) {}

    /// Reads `n` values of a sequence (overridden for bytes, read at once).
    fn read_many(r: &mut CdrReader<'_>, n: usize) -> Result<Vec<Self>, CdrError> {
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            out.push(Self::read(r)?);
        }
        Ok(out)
    }
}

/// `serde::Serialize` of a [`Cdr`] value, by its [`Cdr::json`].
pub struct Json<'a, T>(pub &'a T);

impl<T: Cdr> serde::Serialize for Json<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.json(s)
    }
}

/// A float's JSON: the number, or its name when not finite.
fn float_json<S: Serializer>(
    v: f64,
    s: S,
    number: impl FnOnce(S) -> Result<S::Ok, S::Error>,
) -> Result<S::Ok, S::Error> {
    if v.is_nan() {
        s.serialize_str("NaN")
    } else if v == f64::INFINITY {
        s.serialize_str("Infinity")
    } else if v == f64::NEG_INFINITY {
        s.serialize_str("-Infinity")
    } else {
        number(s)
    }
}

macro_rules! primitive {
    ($t:ty, $n:literal, $ser:ident) => {
        impl Cdr for $t {
            const MIN_SIZE: usize = $n;
            fn zero() -> Self {
                0
            }
            fn read(r: &mut CdrReader<'_>) -> Result<Self, CdrError> {
                r.array::<$n>().map(<$t>::from_ne_bytes)
            }
            fn write(&self, w: &mut CdrWriter) {
                w.aligned(self.to_le_bytes());
            }
            fn json<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.$ser(*self)
            }
        }
    };
}

primitive!(i8, 1, serialize_i8);
primitive!(i16, 2, serialize_i16);
primitive!(u16, 2, serialize_u16);
primitive!(i32, 4, serialize_i32);
primitive!(u32, 4, serialize_u32);
primitive!(i64, 8, serialize_i64);
primitive!(u64, 8, serialize_u64);

impl Cdr for u8 {
    const MIN_SIZE: usize = 1;
    fn zero() -> Self {
        0
    }
    fn read(r: &mut CdrReader<'_>) -> Result<Self, CdrError> {
        r.u8()
    }
    fn write(&self, w: &mut CdrWriter) {
        w.bytes(&[*self]);
    }
    fn json<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(*self)
    }
    fn read_many(r: &mut CdrReader<'_>, n: usize) -> Result<Vec<Self>, CdrError> {
        r.take(n).map(<[u8]>::to_vec)
    }
}

impl Cdr for bool {
    const MIN_SIZE: usize = 1;
    fn zero() -> Self {
        false
    }
    fn read(r: &mut CdrReader<'_>) -> Result<Self, CdrError> {
        r.bool()
    }
    fn write(&self, w: &mut CdrWriter) {
        w.bytes(&[u8::from(*self)]);
    }
    fn json<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bool(*self)
    }
}

impl Cdr for f32 {
    const MIN_SIZE: usize = 4;
    fn zero() -> Self {
        0.0
    }
    fn read(r: &mut CdrReader<'_>) -> Result<Self, CdrError> {
        r.array::<4>().map(f32::from_ne_bytes)
    }
    fn write(&self, w: &mut CdrWriter) {
        w.aligned(self.to_le_bytes());
    }
    fn json<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        float_json(f64::from(*self), s, |s| s.serialize_f32(*self))
    }
}

impl Cdr for f64 {
    const MIN_SIZE: usize = 8;
    fn zero() -> Self {
        0.0
    }
    fn read(r: &mut CdrReader<'_>) -> Result<Self, CdrError> {
        r.f64()
    }
    fn write(&self, w: &mut CdrWriter) {
        w.aligned(self.to_le_bytes());
    }
    fn json<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        float_json(*self, s, |s| s.serialize_f64(*self))
    }
}

impl Cdr for String {
    const MIN_SIZE: usize = 4;
    fn zero() -> Self {
        String::new()
    }
    fn read(r: &mut CdrReader<'_>) -> Result<Self, CdrError> {
        r.string()
    }
    fn write(&self, w: &mut CdrWriter) {
        w.string(self);
    }
    fn json<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self)
    }
}

impl<T: Cdr> Cdr for Vec<T> {
    const MIN_SIZE: usize = 4;
    fn zero() -> Self {
        Vec::new()
    }
    fn read(r: &mut CdrReader<'_>) -> Result<Self, CdrError> {
        let n = r.sequence_len(T::MIN_SIZE)?;
        T::read_many(r, n)
    }
    fn write(&self, w: &mut CdrWriter) {
        w.len(self.len());
        self.iter().for_each(|v| v.write(w));
    }
    fn json<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.len()))?;
        for v in self {
            seq.serialize_element(&Json(v))?;
        }
        seq.end()
    }
    fn definitions(out: &mut Vec<(&'static str, &'static str)>) {
        T::definitions(out);
    }
}

impl<T: Cdr, const N: usize> Cdr for [T; N] {
    const MIN_SIZE: usize = T::MIN_SIZE * N;
    fn zero() -> Self {
        std::array::from_fn(|_| T::zero())
    }
    fn read(r: &mut CdrReader<'_>) -> Result<Self, CdrError> {
        let mut out = Self::zero();
        for v in &mut out {
            *v = T::read(r)?;
        }
        Ok(out)
    }
    fn write(&self, w: &mut CdrWriter) {
        self.iter().for_each(|v| v.write(w));
    }
    fn json<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(N))?;
        for v in self {
            seq.serialize_element(&Json(v))?;
        }
        seq.end()
    }
    fn definitions(out: &mut Vec<(&'static str, &'static str)>) {
        T::definitions(out);
    }
}

/// A ROS message: its type name, CDR and schema.
pub trait RosMessage: Cdr {
    /// The type's name as rosbag2 writes it: `sensor_msgs/msg/LaserScan`.
    const TYPE_NAME: &'static str;

    /// Decodes one message: the encapsulation header, every field, at most
    /// padding after them.
    fn decode(data: &[u8]) -> Result<Self, CdrError> {
        let mut r = CdrReader::new(data)?;
        let message = Self::read(&mut r)?;
        r.finish()?;
        Ok(message)
    }

    /// Encodes the message as rclpy does (little endian); `None` when a
    /// sequence or string is longer than CDR's `u32` lengths.
    fn encode(&self) -> Option<Vec<u8>> {
        let mut w = CdrWriter::new();
        self.write(&mut w);
        w.finish()
    }

    /// The `ros2msg` schema text as rosbag2 writes it: this type's
    /// definition, then each type it uses after a line of 80 `=` and
    /// `MSG: package/msg/Type`.
    fn schema() -> String {
        let mut parts = Vec::new();
        Self::definitions(&mut parts);
        schema_text(&parts)
    }
}

/// The schema text of `parts` (the first is the message's own).
pub(super) fn schema_text(parts: &[(&'static str, &'static str)]) -> String {
    let mut text = String::new();
    for (k, (name, definition)) in parts.iter().enumerate() {
        if k > 0 {
            text.push_str(&"=".repeat(80));
            text.push_str("\nMSG: ");
            text.push_str(name);
            text.push('\n');
        }
        text.push_str(definition);
    }
    text
}

/// A field's ROS name from its Rust name (`r#type` is `type`).
pub(super) fn ros_name(field: &'static str) -> &'static str {
    field.strip_prefix("r#").unwrap_or(field)
}

/// Reads one field: its limit (when it has one) applies to its sequence,
/// and an error is named after the innermost field.
pub(super) fn read_field<T: Cdr>(
    r: &mut CdrReader<'_>,
    name: &'static str,
    limit: Option<usize>,
) -> Result<T, CdrError> {
    if let Some(max) = limit {
        r.limit_next_sequence(max);
    }
    T::read(r).map_err(|mut e| {
        e.field.get_or_insert(name);
        e
    })
}

#[cfg(test)]
mod tests;
