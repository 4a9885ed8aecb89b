//! When to publish `/diagnostics`.

use super::status::Level;

/// `diagnostic_updater`'s default period (s).
pub const PUBLISH_PERIOD: f64 = 1.0;

/// When the statuses are published: every `period`, and at once when a
/// level differs from the one last published (as `diagnostic_updater`'s
/// `force_update` on a change). Time injected (s).
///
/// The period counts from the last publication. When time goes back (ROS
/// time reset), the next check is due at once.
#[derive(Clone, Debug)]
pub struct Publication {
    period: f64,
    /// When the statuses were last published.
    last: Option<f64>,
    /// Their levels then, in order.
    levels: Vec<Level>,
}

impl Default for Publication {
    fn default() -> Self {
        Publication::new(PUBLISH_PERIOD)
    }
}

impl Publication {
    /// Publishing every `period` seconds (not finite or not positive:
    /// [`PUBLISH_PERIOD`]).
    pub fn new(period: f64) -> Self {
        Publication {
            period: if period.is_finite() && period > 0.0 {
                period
            } else {
                PUBLISH_PERIOD
            },
            last: None,
            levels: Vec::new(),
        }
    }

    /// The period (s).
    pub fn period(&self) -> f64 {
        self.period
    }

    /// Publish now: never published yet, a period has passed since the
    /// last publication (or time went back), or `levels` (the statuses'
    /// levels, in their order) differ from those last published.
    pub fn due(&self, now: f64, levels: &[Level]) -> bool {
        match self.last {
            None => true,
            Some(last) => {
                !(now - last < self.period && now >= last) || self.levels.as_slice() != levels
            }
        }
    }

    /// The statuses with `levels` were published at `now`. Allocates only
    /// when more levels than ever before are kept.
    pub fn published(&mut self, now: f64, levels: &[Level]) {
        self.last = Some(now);
        self.levels.clear();
        self.levels.extend_from_slice(levels);
    }
}
