//! Log lines the node's threads share: a repeating warning is logged at most
//! once per period per key ([`Warnings`]), and ids and frames appear in a
//! line escaped and cut ([`shown`]).

use crate::text::{escape_for_log, LOG_ID_CHARS};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// How often a repeating warning may be logged.
const WARN_PERIOD: Duration = Duration::from_secs(5);

/// Logs a repeating warning at most once per [`WARN_PERIOD`] per key; the
/// message is only formatted when it is logged.
#[derive(Debug)]
pub(super) struct Warnings {
    logger: String,
    last: HashMap<&'static str, Instant>,
}

impl Warnings {
    pub(super) fn new(logger: &str) -> Self {
        Warnings {
            logger: logger.to_owned(),
            last: HashMap::new(),
        }
    }

    pub(super) fn warn(&mut self, key: &'static str, message: impl FnOnce() -> String) {
        let now = Instant::now();
        if self
            .last
            .get(key)
            .is_some_and(|t| now.duration_since(*t) < WARN_PERIOD)
        {
            return;
        }
        self.last.insert(key, now);
        r2r::log_warn!(&self.logger, "{}", message());
    }
}

/// An id or frame as it may appear in a log line: control characters
/// escaped, cut to [`LOG_ID_CHARS`].
pub(super) fn shown(id: &str) -> String {
    escape_for_log(id, LOG_ID_CHARS).to_string()
}
