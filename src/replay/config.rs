//! The node's configuration from its parameters file, without ROS, and its
//! topics' names as the node resolves them.

use crate::config::{parameters_of, NodeConfig, Value};

/// The node's name when none is given: the entry read from the parameters
/// file, and the `~` of private topics.
pub const DEFAULT_NODE_NAME: &str = "sat_collision_node";

/// What a replay needs from the parameters file.
#[derive(Clone, Debug)]
pub struct ReplayConfig {
    /// The node's parameters as its start-up reads them.
    pub config: NodeConfig,
    /// `use_sim_time` (default false): ROS time is `/clock`'s.
    pub use_sim_time: bool,
    /// The node's name (the entry read).
    pub node_name: String,
    /// The start-up's notes (names accepted and ignored, ...).
    pub notes: Vec<String>,
}

/// Adds `later` to `values`: a parameter given again replaces the earlier
/// value in its place (rcl's merge of entries).
fn merge(values: &mut Vec<(String, Value)>, later: Vec<(String, Value)>) {
    for (name, value) in later {
        match values.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = value,
            None => values.push((name, value)),
        }
    }
}

/// The node's configuration from the parameters file `text` (named `file`
/// in messages): the entries `/**`, then `node_name` and `/node_name`,
/// merged as rcl merges them, read by
/// [`NodeConfig::start_up`](crate::config::NodeConfig::start_up). A file
/// with no entry for the node is refused (a nav2 file's entry is
/// `collision_monitor`).
pub fn node_config(text: &str, file: &str, node_name: &str) -> Result<ReplayConfig, String> {
    let read = |entry: &str| parameters_of(text, entry).map_err(|e| format!("{file}: {e}"));
    let mut values = read("/**")?;
    let own = read(node_name)?;
    let slashed = read(&format!("/{node_name}"))?;
    if own.is_empty() && slashed.is_empty() {
        return Err(format!(
            "{file}: no parameters for node `{node_name}` (its entry is `{node_name}: \
             {{ros__parameters: ...}}`; --node-name names another, e.g. collision_monitor for \
             a nav2 file)"
        ));
    }
    merge(&mut values, own);
    merge(&mut values, slashed);
    let use_sim_time = match values.iter().find(|(n, _)| n == "use_sim_time") {
        None => false,
        Some((_, Value::Bool(b))) => *b,
        Some(_) => return Err(format!("{file}: use_sim_time: not a bool")),
    };
    let mut config = NodeConfig::default();
    let notes = config
        .start_up(&values)
        .map_err(|e| format!("{file}: {e}"))?;
    Ok(ReplayConfig {
        config,
        use_sim_time,
        node_name: node_name.to_owned(),
        notes,
    })
}

/// A topic name as the node `node_name` (namespace `/`) resolves it:
/// `/x` stays, `~/x` is `/<node_name>/x`, `~` is `/<node_name>`, a relative
/// `x` is `/x`.
pub fn resolve(node_name: &str, name: &str) -> String {
    if name.starts_with('/') {
        name.to_owned()
    } else if name == "~" {
        format!("/{node_name}")
    } else if let Some(rest) = name.strip_prefix("~/") {
        format!("/{node_name}/{rest}")
    } else {
        format!("/{name}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve_as_the_node_resolves_them() {
        assert_eq!(resolve("n", "/tf"), "/tf");
        assert_eq!(resolve("n", "cmd_vel"), "/cmd_vel");
        assert_eq!(resolve("n", "~/points"), "/n/points");
        assert_eq!(resolve("n", "~"), "/n");
    }

    #[test]
    fn the_node_entry_is_merged_over_the_wildcard() {
        let text = "/**:\n  ros__parameters:\n    use_sim_time: true\n    publish_rate: 5.0\n\
                    n:\n  ros__parameters:\n    publish_rate: 20.0\n";
        let read = node_config(text, "p.yaml", "n").expect("reads");
        assert!(read.use_sim_time);
        assert_eq!(read.config.publish_rate, 20.0);
        let missing = node_config(text, "p.yaml", "other").unwrap_err();
        assert!(
            missing.contains("no parameters for node `other`"),
            "{missing}"
        );
    }
}
