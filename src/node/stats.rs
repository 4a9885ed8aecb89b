//! The inputs' and decisions' statistics the core keeps where they arrive,
//! for `/diagnostics` (the statuses: `health`).

use super::exclusion::{Exclusion, Unplaced};
use super::outputs::{shown, Notice};
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
    /// Fleet messages taken in (`fleet_topic`).
    pub fleet: InputStats,
    /// Aligned with `observation_sources`.
    pub sources: Vec<InputStats>,
    /// The decisions' durations (when timed).
    pub decisions: DecisionTimes,
    /// The last decision's flag.
    pub flag: Option<Flag>,
    /// Aligned with `observation_sources`: the exclusion zones that could
    /// not be placed for the source's latest message read (they masked
    /// nothing).
    pub unplaced_zones: Vec<Vec<Unplaced>>,
}

impl InputsHealth {
    /// Empty statistics for `config`'s inputs.
    pub fn new(config: &NodeConfig) -> Self {
        InputsHealth {
            footprint: InputStats::new(),
            obstacles: InputStats::new(),
            velocity: InputStats::new(),
            command: InputStats::new(),
            fleet: InputStats::new(),
            sources: config.sources.iter().map(|_| InputStats::new()).collect(),
            decisions: DecisionTimes::new(),
            flag: None,
            unplaced_zones: config.sources.iter().map(|_| Vec::new()).collect(),
        }
    }

    /// What source `index` (`name`)'s zones did with its latest message
    /// read: the zones that could not be placed kept for `/diagnostics`,
    /// each said in a throttled warning.
    pub fn note_exclusion(
        &mut self,
        index: usize,
        name: &str,
        exclusion: &Exclusion,
        notices: &mut Vec<Notice>,
    ) {
        for unplaced in &exclusion.unplaced {
            notices.push(Notice::warn(
                "exclusion_zone",
                format!("source {}: {unplaced}", shown(name)),
            ));
        }
        if let Some(kept) = self.unplaced_zones.get_mut(index) {
            kept.clone_from(&exclusion.unplaced);
        }
    }
}
