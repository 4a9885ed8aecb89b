//! Log lines the node's threads share: a repeating warning is logged at most
//! once per period per key ([`Warnings`]), a repeating line that must not be
//! lost entirely at most once per period per key with a count of the rest
//! ([`Throttle`]), and ids and frames appear in a line escaped and cut
//! ([`shown`]).

use std::collections::HashMap;
use std::time::{Duration, Instant};

/// How often a repeating warning may be logged.
const WARN_PERIOD: Duration = Duration::from_secs(5);

/// Logs a repeating warning at most once per [`WARN_PERIOD`] per key (the
/// [`Throttle`]'s rule; the lines not logged are not reported); the
/// message is only formatted when it is logged.
#[derive(Debug)]
pub(super) struct Warnings {
    logger: String,
    throttle: Throttle,
}

impl Warnings {
    pub(super) fn new(logger: &str) -> Self {
        Warnings {
            logger: logger.to_owned(),
            throttle: Throttle::default(),
        }
    }

    pub(super) fn warn(&mut self, key: &'static str, message: impl FnOnce() -> String) {
        if let Admit::Log(_) = self.throttle.admit(key, Instant::now()) {
            r2r::log_warn!(&self.logger, "{}", message());
        }
    }

    /// An information line, logged every time.
    pub(super) fn info(&self, text: &str) {
        r2r::log_info!(&self.logger, "{text}");
    }

    /// The core's notices: a keyed one throttled as [`warn`](Self::warn),
    /// one without a key logged every time at its level.
    pub(super) fn notices(&mut self, notices: &mut Vec<crate::node::Notice>) {
        for notice in notices.drain(..) {
            match (notice.key, notice.level) {
                (Some(key), _) => self.warn(key, || notice.text),
                (None, crate::node::Level::Warn) => {
                    r2r::log_warn!(&self.logger, "{}", notice.text)
                }
                (None, crate::node::Level::Info) => self.info(&notice.text),
            }
        }
    }
}

/// What [`Throttle::admit`] says of a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Admit {
    /// Log it; this many lines about the key were not logged before it.
    Log(u32),
    /// Counted, not logged.
    Counted,
}

/// Lets a line about a key through at most once per [`WARN_PERIOD`] and
/// counts the others, so that the next line (or a closing one,
/// [`Throttle::overdue`]) says how many were not logged. Time is injected.
#[derive(Debug, Default)]
pub(super) struct Throttle {
    /// When a line about the key was last logged, and how many were counted
    /// since.
    keys: HashMap<&'static str, (Instant, u32)>,
}

impl Throttle {
    pub(super) fn admit(&mut self, key: &'static str, now: Instant) -> Admit {
        match self.keys.get_mut(key) {
            Some((last, counted)) if now.duration_since(*last) < WARN_PERIOD => {
                *counted = counted.saturating_add(1);
                Admit::Counted
            }
            Some((last, counted)) => {
                *last = now;
                Admit::Log(std::mem::take(counted))
            }
            None => {
                self.keys.insert(key, (now, 0));
                Admit::Log(0)
            }
        }
    }

    /// The keys with lines counted and a period over since the last one
    /// logged, with their counts: what a closing line reports (they count
    /// as logged now).
    pub(super) fn overdue(&mut self, now: Instant) -> Vec<(&'static str, u32)> {
        let mut due = Vec::new();
        for (key, (last, counted)) in &mut self.keys {
            if *counted > 0 && now.duration_since(*last) >= WARN_PERIOD {
                due.push((*key, std::mem::take(counted)));
                *last = now;
            }
        }
        due.sort_unstable();
        due
    }
}

/// An id or frame as it may appear in a log line: control characters
/// escaped, cut (the core's [`crate::node::shown`]).
pub(super) fn shown(id: &str) -> String {
    crate::node::shown(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_logged_once_per_period_with_the_count_of_the_rest() {
        let start = Instant::now();
        let at = |ms: u64| start + Duration::from_millis(ms);
        let mut t = Throttle::default();
        assert_eq!(t.admit("padding", at(0)), Admit::Log(0));
        assert_eq!(t.admit("fail_safe", at(1)), Admit::Log(0), "keys apart");
        for k in 0..1999 {
            assert_eq!(t.admit("padding", at(2 + k)), Admit::Counted);
        }
        assert_eq!(t.overdue(at(4999)), [], "the period is not over");
        assert_eq!(t.admit("padding", at(5000)), Admit::Log(1999));
        assert_eq!(t.admit("padding", at(5001)), Admit::Counted);
        assert_eq!(t.admit("padding", at(5002)), Admit::Counted);
        // Nothing more comes: a closing line reports the two, once.
        assert_eq!(t.overdue(at(9000)), []);
        assert_eq!(t.overdue(at(10_000)), [("padding", 2)]);
        assert_eq!(t.overdue(at(20_000)), []);
        assert_eq!(t.admit("padding", at(20_001)), Admit::Log(0));
    }
}
