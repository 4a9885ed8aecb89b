//! Text that arrives from outside (ids, frame ids, file keys): checked
//! before use, and escaped before it is logged, so that a newline or an
//! ANSI escape sequence in an id cannot forge a log line or drive the
//! terminal, and a 1 MB id does not flood the log.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Characters of an id or frame id shown in a log line (see
/// [`escape_for_log`]).
pub const LOG_ID_CHARS: usize = 64;

/// Longest obstacle id accepted, in bytes.
pub const MAX_ID_BYTES: usize = 256;

/// Longest frame id accepted, in bytes.
pub const MAX_FRAME_ID_BYTES: usize = 256;

/// True for characters that are escaped in logs: C0 controls, DEL, C1
/// controls, the backslash (so an escape in the output is unambiguous), and
/// the Unicode line separators and bidirectional overrides, which can make
/// a log line look like something it is not.
fn needs_escape(c: char) -> bool {
    matches!(
        c,
        '\0'..='\u{1f}'
            | '\u{7f}'..='\u{9f}'
            | '\\'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{200e}'
            | '\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}'
    )
}

/// `s` made safe for one log line: `\n`, `\r`, `\t` and `\\` become those
/// two-character escapes; other control characters (C0 including ESC, DEL,
/// C1), Unicode line separators and bidirectional controls become
/// `\u{..}`. At most `max_chars` characters of `s` are kept; the rest is
/// replaced by `…(+N bytes)`, N being the bytes of `s` left out.
/// Borrowed when `s` needs neither.
pub fn escape_for_log(s: &str, max_chars: usize) -> Cow<'_, str> {
    let cut = s.char_indices().nth(max_chars).map(|(at, _)| at);
    let kept = &s[..cut.unwrap_or(s.len())];
    if cut.is_none() && !kept.chars().any(needs_escape) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(kept.len() + 16);
    for c in kept.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\\' => out.push_str("\\\\"),
            c if needs_escape(c) => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    if let Some(at) = cut {
        let _ = write!(out, "…(+{} bytes)", s.len() - at);
    }
    Cow::Owned(out)
}

/// Why raw bytes cannot be used as an id or a frame id.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// More than the allowed number of bytes.
    #[error("{len} bytes, longer than the limit of {max} bytes")]
    TooLong {
        /// Bytes given.
        len: usize,
        /// Bytes allowed.
        max: usize,
    },
    /// A NUL byte, which would cut a C string short.
    #[error("contains a NUL byte at offset {offset}")]
    ContainsNul {
        /// Byte offset of the NUL.
        offset: usize,
    },
    /// Not valid UTF-8.
    #[error("not valid UTF-8 (invalid byte at offset {offset})")]
    NotUtf8 {
        /// Byte offset of the first invalid byte.
        offset: usize,
    },
}

// The library reports a bad name as a `model::Rejection`; these spellings
// tell the errors apart in the tests.
#[cfg(test)]
impl NameError {
    /// Snake_case status: `too_long`, `contains_nul` or `not_utf8`.
    pub fn status(&self) -> &'static str {
        match self {
            NameError::TooLong { .. } => "too_long",
            NameError::ContainsNul { .. } => "contains_nul",
            NameError::NotUtf8 { .. } => "not_utf8",
        }
    }
}

/// `bytes` as a `&str` when they can be used as an id or a frame id: at
/// most `max_bytes` bytes (checked first, so a huge input costs nothing
/// more), no NUL, valid UTF-8. An empty name passes (callers decide what
/// empty means).
pub fn check_name(bytes: &[u8], max_bytes: usize) -> Result<&str, NameError> {
    if bytes.len() > max_bytes {
        return Err(NameError::TooLong {
            len: bytes.len(),
            max: max_bytes,
        });
    }
    if let Some(offset) = bytes.iter().position(|&b| b == 0) {
        return Err(NameError::ContainsNul { offset });
    }
    std::str::from_utf8(bytes).map_err(|e| NameError::NotUtf8 {
        offset: e.valid_up_to(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_borrowed_unchanged() {
        for s in ["", "shelf_3", "zone ä 区域 🚧", "a\"b'c &*"] {
            assert!(matches!(escape_for_log(s, LOG_ID_CHARS), Cow::Borrowed(t) if t == s));
        }
    }

    #[test]
    fn controls_and_backslashes_are_escaped() {
        assert_eq!(escape_for_log("a\nb\rc\td", 64), "a\\nb\\rc\\td");
        assert_eq!(escape_for_log("a\\nb", 64), "a\\\\nb");
        assert_eq!(
            escape_for_log("\u{1b}[31mred\u{1b}[0m", 64),
            "\\u{1b}[31mred\\u{1b}[0m"
        );
        assert_eq!(
            escape_for_log("\0\u{7}\u{7f}\u{85}\u{9b}", 64),
            "\\u{0}\\u{7}\\u{7f}\\u{85}\\u{9b}"
        );
        assert_eq!(
            escape_for_log("x\u{2028}y\u{202e}z", 64),
            "x\\u{2028}y\\u{202e}z"
        );
        // The output never holds a raw control character.
        let all: String = (0u32..0x100).filter_map(char::from_u32).collect();
        let escaped = escape_for_log(&all, 1000);
        assert!(!escaped.chars().any(|c| c.is_control()), "{escaped}");
    }

    #[test]
    fn long_text_is_cut_at_a_character_boundary_with_a_count() {
        let id = "é".repeat(100); // 200 bytes
        let out = escape_for_log(&id, 64);
        assert_eq!(out, format!("{}…(+72 bytes)", "é".repeat(64)));
        assert_eq!(escape_for_log("abcdef", 3), "abc…(+3 bytes)");
        assert_eq!(escape_for_log("abc", 3), "abc");
        assert_eq!(escape_for_log("abc", 0), "…(+3 bytes)");
        // Characters are counted before escaping.
        assert_eq!(escape_for_log("\n\n\nx", 2), "\\n\\n…(+2 bytes)");
    }

    #[test]
    fn names_within_limits_pass() {
        assert_eq!(check_name(b"map", MAX_FRAME_ID_BYTES), Ok("map"));
        assert_eq!(check_name(b"", MAX_ID_BYTES), Ok(""));
        assert_eq!(check_name("区域".as_bytes(), 6), Ok("区域"));
        let long = vec![b'a'; MAX_ID_BYTES];
        assert!(check_name(&long, MAX_ID_BYTES).is_ok());
    }

    #[test]
    fn bad_names_have_distinct_errors_and_statuses() {
        let long = vec![b'a'; MAX_ID_BYTES + 1];
        let too_long = check_name(&long, MAX_ID_BYTES);
        assert_eq!(too_long, Err(NameError::TooLong { len: 257, max: 256 }));
        let nul = check_name(b"ab\0c", MAX_ID_BYTES);
        assert_eq!(nul, Err(NameError::ContainsNul { offset: 2 }));
        let utf8 = check_name(b"ok\xff", MAX_ID_BYTES);
        assert_eq!(utf8, Err(NameError::NotUtf8 { offset: 2 }));
        // A cut multi-byte character is invalid too.
        let cut = &"é".as_bytes()[..1];
        assert_eq!(check_name(cut, 8), Err(NameError::NotUtf8 { offset: 0 }));
        let statuses: Vec<_> = [too_long, nul, utf8]
            .iter()
            .filter_map(|r| r.as_ref().err().map(NameError::status))
            .collect();
        assert_eq!(statuses, ["too_long", "contains_nul", "not_utf8"]);
        // Length is checked first: a huge input is refused as too long
        // whatever it holds.
        let huge_bad = vec![0u8; 10_000];
        assert_eq!(
            check_name(&huge_bad, MAX_ID_BYTES).map_err(|e| e.status()),
            Err("too_long")
        );
        assert_eq!(
            NameError::ContainsNul { offset: 2 }.to_string(),
            "contains a NUL byte at offset 2"
        );
    }
}
