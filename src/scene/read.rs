//! Reading scene, zones and parameters files, and checking their YAML
//! before it is deserialised: the limits of the
//! [module documentation](super), and the errors that name the file (and
//! the line and column) when one is not met.

use serde::Deserialize;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Largest scene, zones or parameters file read, in bytes (16 MiB). A
/// 100,000-obstacle zones file in flow style is about 8 MiB.
pub const MAX_SCENE_BYTES: u64 = 16 * 1024 * 1024;

/// Deepest nesting of YAML collections accepted (a scene needs 5: the top
/// mapping, `obstacles`, an obstacle, `polygon`, a point).
pub const MAX_YAML_DEPTH: usize = 32;

/// YAML documents accepted in one scene or zones file.
pub const MAX_YAML_DOCUMENTS: usize = 1;

/// A file that could not be used, with where the problem is.
#[derive(Debug, thiserror::Error)]
pub enum SceneError {
    /// The file could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Not YAML, or not YAML this reader accepts (anchors, depth, documents).
    #[error("{}{}: {message}", path.display(), location(*line, *column))]
    Parse {
        /// The file.
        path: PathBuf,
        /// Line (1-based), when known.
        line: Option<usize>,
        /// Column (1-based), when known.
        column: Option<usize>,
        /// What is wrong there.
        message: String,
    },
    /// Read, but unusable: not UTF-8, or a value out of range (padding,
    /// velocity, ...).
    #[error("{}: {message}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        message: String,
    },
    /// The path names something other than a regular file (`kind`: "a
    /// FIFO", "a directory", ...); it was not read.
    #[error("{}: not a regular file ({kind}); give a YAML file", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What it names instead.
        kind: &'static str,
    },
    /// The file is larger than `limit` bytes.
    #[error(
        "{}: larger than the limit of {limit} bytes ({} MiB)",
        path.display(),
        limit / (1024 * 1024)
    )]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The limit (bytes).
        limit: u64,
    },
}

/// `:line:column` (each when known) after a path.
fn location(line: Option<usize>, column: Option<usize>) -> String {
    [line, column]
        .into_iter()
        .flatten()
        .map(|n| format!(":{n}"))
        .collect()
}

/// What kind of non-regular file `file_type` is, for error messages.
fn file_kind(file_type: std::fs::FileType) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    if file_type.is_file() {
        None
    } else if file_type.is_dir() {
        Some("a directory")
    } else if file_type.is_fifo() {
        Some("a FIFO")
    } else if file_type.is_char_device() {
        Some("a character device")
    } else if file_type.is_block_device() {
        Some("a block device")
    } else if file_type.is_socket() {
        Some("a socket")
    } else {
        Some("not a file")
    }
}

/// Reads a text file of at most [`MAX_SCENE_BYTES`]: see [`read_capped_to`].
pub fn read_capped(path: &Path) -> Result<String, SceneError> {
    read_capped_to(path, MAX_SCENE_BYTES)
}

/// Reads the UTF-8 text of the regular file at `path` (a symlink to one is
/// fine), of at most `max_bytes` bytes.
///
/// A FIFO, a device, a directory or a socket is refused
/// ([`SceneError::NotAFile`]) from its metadata, before it is opened; the
/// file is then opened with `O_NONBLOCK` (so that a path swapped for a FIFO
/// in between cannot block the open) and `O_NOCTTY`, and the opened file's
/// own metadata is checked again. At most `max_bytes + 1` bytes are read,
/// so a file that grows while it is read (or reports no size, as in
/// `/proc`) cannot exceed the cap: more than `max_bytes` is
/// [`SceneError::TooLarge`].
pub fn read_capped_to(path: &Path, max_bytes: u64) -> Result<String, SceneError> {
    use std::os::unix::fs::OpenOptionsExt;
    let io = |source: std::io::Error| SceneError::Io {
        path: path.to_owned(),
        source,
    };
    let not_a_file = |kind| SceneError::NotAFile {
        path: path.to_owned(),
        kind,
    };
    let too_large = || SceneError::TooLarge {
        path: path.to_owned(),
        limit: max_bytes,
    };
    let metadata = std::fs::metadata(path).map_err(io)?;
    if let Some(kind) = file_kind(metadata.file_type()) {
        return Err(not_a_file(kind));
    }
    if metadata.len() > max_bytes {
        return Err(too_large());
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(io)?;
    let opened = file.metadata().map_err(io)?;
    if let Some(kind) = file_kind(opened.file_type()) {
        return Err(not_a_file(kind));
    }
    let capacity = usize::try_from(opened.len().min(max_bytes)).unwrap_or(0);
    let mut bytes = Vec::with_capacity(capacity);
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if u64::try_from(bytes.len()).map_or(true, |n| n > max_bytes) {
        return Err(too_large());
    }
    String::from_utf8(bytes).map_err(|e| SceneError::Invalid {
        path: path.to_owned(),
        message: format!(
            "not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ),
    })
}

/// serde_yaml's error `e` about the file at `path`, with its line and
/// column when it has them.
pub(super) fn parse_error(path: &Path, e: &serde_yaml::Error) -> SceneError {
    let location = e.location();
    SceneError::Parse {
        path: path.to_owned(),
        line: location.as_ref().map(|l| l.line()),
        column: location.as_ref().map(|l| l.column()),
        message: e.to_string(),
    }
}

/// The first syntax error serde_yaml's parser (libyaml) finds in `text`, if
/// any, without building any value (aliases are not followed): used to give
/// the usual message when the event parser of [`check_yaml_shape`] stops.
fn libyaml_syntax_error(text: &str, path: &Path) -> Option<SceneError> {
    use serde::de::IgnoredAny;
    serde_yaml::Deserializer::from_str(text)
        .find_map(|document| IgnoredAny::deserialize(document).err())
        .map(|e| parse_error(path, &e))
}

/// The error for a text the event parser stopped on. Its own flow-nesting
/// limit (about 250 levels, met while it looks ahead) is the nesting error.
/// Otherwise libyaml's message is preferred (the one serde_yaml gives for
/// malformed YAML), from the text up to the end of the line saphyr stopped
/// on: that prefix is shallow, and libyaml takes time quadratic in flow
/// nesting (16,000 levels: 0.8 s), so it never sees the rest. When libyaml
/// finds nothing there, saphyr's error stands: refused either way.
fn syntax_error(text: &str, path: &Path, e: &saphyr_parser::ScanError) -> SceneError {
    let line = e.marker().line();
    let at = |message: String| SceneError::Parse {
        path: path.to_owned(),
        line: Some(line),
        column: Some(e.marker().col() + 1),
        message,
    };
    if e.info().contains("recursion limit") {
        return at(format!(
            "YAML nested deeper than the limit of {MAX_YAML_DEPTH} levels"
        ));
    }
    let prefix_end = text
        .match_indices('\n')
        .nth(line.saturating_sub(1))
        .map_or(text.len(), |(at, _)| at + 1);
    match libyaml_syntax_error(&text[..prefix_end], path) {
        Some(libyaml @ SceneError::Parse { line: Some(l), .. }) if l <= line => libyaml,
        _ => at(format!("invalid YAML: {}", e.info())),
    }
}

/// Refuses YAML that could make deserialisation blow up, before serde_yaml
/// sees it: anchors and aliases (`&a`, `*a`: the "billion laughs"), nesting
/// deeper than [`MAX_YAML_DEPTH`], more than [`MAX_YAML_DOCUMENTS`]
/// documents. Walks the events of a streaming parser (saphyr-parser), so an
/// `&` or `*` inside a quoted string is text, and stops at the first
/// problem. Errors name the line and column.
pub fn check_yaml_shape(text: &str, path: &Path) -> Result<(), SceneError> {
    use saphyr_parser::{Event, Parser};
    let mut depth = 0usize;
    let mut documents = 0usize;
    for item in Parser::new_from_str(text) {
        let (event, span) = match item {
            Ok(item) => item,
            Err(e) => return Err(syntax_error(text, path, &e)),
        };
        let at = |message: String| SceneError::Parse {
            path: path.to_owned(),
            line: Some(span.start.line()),
            column: Some(span.start.col() + 1),
            message,
        };
        let anchor = match &event {
            Event::Alias(_) => {
                return Err(at(
                    "YAML aliases (`*name`) are not accepted: write the value out".to_owned(),
                ))
            }
            Event::DocumentStart(_) => {
                documents += 1;
                if documents > MAX_YAML_DOCUMENTS {
                    return Err(at(format!(
                        "more than {MAX_YAML_DOCUMENTS} YAML document (`---`) in the file"
                    )));
                }
                0
            }
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                depth += 1;
                if depth > MAX_YAML_DEPTH {
                    return Err(at(format!(
                        "YAML nested deeper than the limit of {MAX_YAML_DEPTH} levels"
                    )));
                }
                *anchor
            }
            Event::SequenceEnd | Event::MappingEnd => {
                depth = depth.saturating_sub(1);
                0
            }
            Event::Scalar(_, _, anchor, _) => *anchor,
            _ => 0,
        };
        if anchor != 0 {
            return Err(at(
                "YAML anchors (`&name`) are not accepted: write the value out".to_owned(),
            ));
        }
    }
    Ok(())
}
