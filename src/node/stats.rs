//! The inputs' and decisions' statistics the core keeps where they arrive,
//! for `/diagnostics` (the statuses: `health`).

use crate::config::NodeConfig;
use crate::diagnostics::{DecisionTimes, InputStats};
use crate::model::Flag;

/// The statistics of the inputs and decisions.
#[derive(Debug)]
pub struct InputsHealth {
    /// `footprint_topic`.
    pub footprint: InputStats,
    /// Obstacle sets taken in.
    pub obstacles: InputStats,
    /// `velocity_topic`.
    pub velocity: InputStats,
    /// The gate's commands.
    pub command: InputStats,
    /// Aligned with `observation_sources`.
    pub sources: Vec<InputStats>,
    /// The decisions' durations (when timed).
    pub decisions: DecisionTimes,
    /// The last decision's flag.
    pub flag: Option<Flag>,
}

impl InputsHealth {
    /// Empty statistics for `config`'s inputs.
    pub fn new(config: &NodeConfig) -> Self {
        InputsHealth {
            footprint: InputStats::new(),
            obstacles: InputStats::new(),
            velocity: InputStats::new(),
            command: InputStats::new(),
            sources: config.sources.iter().map(|_| InputStats::new()).collect(),
            decisions: DecisionTimes::new(),
            flag: None,
        }
    }
}
