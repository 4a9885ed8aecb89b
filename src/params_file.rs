//! ROS 2 parameters files (`--ros-args --params-file PATH`): which of their
//! entries apply to this node. Pure, so it is testable without ROS.
//!
//! rcl reads a parameters file into entries keyed by node name: the keys
//! above `ros__parameters`, joined with `/` (`robot1: {sat_collision_node:
//! {ros__parameters: ...}}` is the entry `robot1/sat_collision_node`). r2r
//! applies an entry when its name is exactly `/**`, `**`, the node's fully
//! qualified name (`/robot1/sat_collision_node`) or its plain name
//! (`sat_collision_node`), and silently ignores every other entry: a
//! misspelt node name would leave every parameter at its default.
//! [`check_params_file_keys`] turns that into an error.

use crate::scene::{read_capped, SceneError};
use crate::text::{escape_for_log, LOG_ID_CHARS};
use saphyr_parser::{Event, Parser};
use std::path::Path;

/// Names listed in the error, at most.
const LISTED_NAMES: usize = 10;

/// Deepest mapping followed when looking for `ros__parameters`; a deeper
/// file is left to rcl.
const MAX_NAME_DEPTH: usize = 32;

/// The walk stopped: a parse error, or something rcl itself refuses.
struct Stop;

type Events<'a> = Parser<'a, saphyr_parser::StrInput<'a>>;

fn next_event<'a>(events: &mut Events<'a>) -> Result<Event<'a>, Stop> {
    match events.next() {
        Some(Ok((event, _))) => Ok(event),
        _ => Err(Stop),
    }
}

/// Consumes the rest of a node whose first event was `first`.
fn skip_node(first: &Event<'_>, events: &mut Events<'_>) -> Result<(), Stop> {
    let mut depth = match first {
        Event::MappingStart(..) | Event::SequenceStart(..) => 1usize,
        Event::Scalar(..) | Event::Alias(_) => return Ok(()),
        _ => return Err(Stop),
    };
    while depth > 0 {
        match next_event(events)? {
            Event::MappingStart(..) | Event::SequenceStart(..) => depth += 1,
            Event::MappingEnd | Event::SequenceEnd => depth -= 1,
            Event::Scalar(..) | Event::Alias(_) => {}
            _ => return Err(Stop),
        }
    }
    Ok(())
}

/// Walks a mapping (its `MappingStart` consumed) at node-name level,
/// recording the name of each entry (the keys in `path`, joined with `/`)
/// that has a `ros__parameters` key.
fn walk_names(
    events: &mut Events<'_>,
    path: &mut Vec<String>,
    names: &mut Vec<String>,
) -> Result<(), Stop> {
    if path.len() > MAX_NAME_DEPTH {
        return Err(Stop);
    }
    loop {
        let key = match next_event(events)? {
            Event::MappingEnd => return Ok(()),
            Event::Scalar(key, ..) => key,
            // A collection or an alias as a key: rcl refuses those.
            _ => return Err(Stop),
        };
        let value = next_event(events)?;
        // rcl compares only the prefix (strncmp with the key's length).
        if key.starts_with("ros__parameters") {
            if !path.is_empty() {
                names.push(path.join("/"));
            }
            skip_node(&value, events)?;
        } else if matches!(value, Event::MappingStart(..)) {
            path.push(key.into_owned());
            let walked = walk_names(events, path, names);
            path.pop();
            walked?;
        } else {
            skip_node(&value, events)?;
        }
    }
}

/// The names of the entries of a parameters file (see the module doc), or
/// `None` when the text cannot be walked (rcl reports its own errors).
fn entry_names(yaml_text: &str) -> Option<Vec<String>> {
    let mut events = Parser::new_from_str(yaml_text);
    let mut names = Vec::new();
    let mut walk = || -> Result<(), Stop> {
        loop {
            match next_event(&mut events)? {
                Event::StreamEnd => return Ok(()),
                Event::MappingStart(..) => walk_names(&mut events, &mut Vec::new(), &mut names)?,
                event @ (Event::SequenceStart(..) | Event::Scalar(..) | Event::Alias(_)) => {
                    skip_node(&event, &mut events)?
                }
                _ => {}
            }
        }
    };
    walk().ok()?;
    Some(names)
}

/// Checks that a ROS 2 parameters file has an entry for this node when it
/// has entries at all. `fully_qualified_name` is the node's namespace and
/// name (`/robot1/sat_collision_node`), `node_name` the plain name.
///
/// An entry applies when its name is `/**`, `**`, `fully_qualified_name`
/// or `node_name` (r2r's rule). A file with entries none of which applies
/// is an error naming them (escaped for the log) and the node; a file with
/// no entries, or that does not parse, is `Ok` (rcl reports its own
/// parse errors).
pub fn check_params_file_keys(
    yaml_text: &str,
    fully_qualified_name: &str,
    node_name: &str,
) -> Result<(), ParamsFileError> {
    let Some(names) = entry_names(yaml_text) else {
        return Ok(());
    };
    let applies = |name: &str| {
        name == "/**" || name == "**" || name == fully_qualified_name || name == node_name
    };
    if names.is_empty() || names.iter().any(|n| applies(n)) {
        return Ok(());
    }
    let mut listed: Vec<String> = names
        .iter()
        .take(LISTED_NAMES)
        .map(|n| escape_for_log(n, LOG_ID_CHARS).into_owned())
        .collect();
    if names.len() > LISTED_NAMES {
        listed.push(format!("... ({} more)", names.len() - LISTED_NAMES));
    }
    let node = escape_for_log(node_name, LOG_ID_CHARS);
    let fqn = escape_for_log(fully_qualified_name, LOG_ID_CHARS);
    let hint = if fully_qualified_name == format!("/{node_name}") {
        format!("{node} or /**")
    } else {
        format!("{node}, {fqn} or /**")
    };
    Err(ParamsFileError::NoEntryForNode {
        node: fqn.into_owned(),
        keys: listed,
        hint,
    })
}

/// Why a parameters file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ParamsFileError {
    /// Not a regular file, larger than the limit, or unreadable.
    #[error(transparent)]
    Read(#[from] SceneError),
    /// The file has entries, none of which applies to this node. Every
    /// string is already escaped for the log; `keys` lists the first few.
    #[error(
        "params file names no entry for this node ({node}): its {} {}; use {hint}",
        if keys.len() == 1 { "key is" } else { "keys are" },
        keys.join(", ")
    )]
    NoEntryForNode {
        /// The node's name.
        node: String,
        /// The file's first few top-level keys.
        keys: Vec<String>,
        /// How to name the node in the file.
        hint: String,
    },
    /// A problem with the file at `path`.
    #[error("{path}: {source}")]
    InFile {
        /// The file's path (escaped).
        path: String,
        /// What is wrong with it.
        source: Box<ParamsFileError>,
    },
}

/// Options of rcl's `--ros-args` sections that take the next argument as
/// their value.
const ROS_OPTIONS_WITH_VALUE: &[&str] = &[
    "-r",
    "--remap",
    "-p",
    "--param",
    "--params-file",
    "-e",
    "--enclave",
    "--log-level",
    "--log-config-file",
    "--log-file-name",
];

/// The paths given with `--params-file PATH` in the `--ros-args ... [--]`
/// sections of a command line (rcl's syntax: `--ros-args` starts a section,
/// `--` ends it, `--params-file` takes the next argument whatever it is).
/// `args` may start with the program name or not.
pub fn params_files_from_args(args: &[String]) -> Vec<String> {
    let mut files = Vec::new();
    let mut in_ros_args = false;
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        if !in_ros_args {
            in_ros_args = arg == "--ros-args";
        } else if arg == "--" {
            in_ros_args = false;
        } else if ROS_OPTIONS_WITH_VALUE.contains(&arg) {
            if arg == "--params-file" {
                if let Some(path) = args.get(i + 1) {
                    files.push(path.clone());
                }
            }
            i += 1;
        }
        i += 1;
    }
    files
}

/// One `--params-file`, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamsFile {
    /// The path as given.
    pub path: String,
    /// The file's contents.
    pub text: String,
}

/// Reads each `--params-file` of `args` with the capped regular-file
/// reader ([`read_capped`]: a FIFO or a device is refused without blocking,
/// at most [`crate::scene::MAX_SCENE_BYTES`]). Done before rcl opens them
/// (rcl would block on a FIFO); the first problem, naming the file.
pub fn read_params_files(args: &[String]) -> Result<Vec<ParamsFile>, ParamsFileError> {
    params_files_from_args(args)
        .into_iter()
        .map(|path| {
            let text = read_capped(Path::new(&path))?;
            Ok(ParamsFile { path, text })
        })
        .collect()
}

/// Checks each file read by [`read_params_files`] with
/// [`check_params_file_keys`]; the first problem, naming the file.
pub fn check_params_files(
    files: &[ParamsFile],
    fully_qualified_name: &str,
    node_name: &str,
) -> Result<(), ParamsFileError> {
    for file in files {
        check_params_file_keys(&file.text, fully_qualified_name, node_name).map_err(|e| {
            ParamsFileError::InFile {
                path: file.path.clone(),
                source: Box::new(e),
            }
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
