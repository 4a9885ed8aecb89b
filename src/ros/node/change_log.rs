//! The change log: one line per change of the collision flag or status,
//! throttled when the flag flaps ([`ChangeLog`], [`LogLine`]), and the
//! decision in words ([`describe`]).

use super::logging::shown;
use crate::model::{Report, Status};
use std::time::{Duration, Instant};

/// Most changes of the flag or status logged per [`FLAP_WINDOW`]; beyond
/// that the flag is flapping and the rest are counted into one line.
const MAX_LOGGED_CHANGES: u32 = 10;
pub(super) const FLAP_WINDOW: Duration = Duration::from_secs(1);

/// What to log after a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum LogLine {
    Nothing,
    /// The flag or the status changed.
    Change,
    /// This many changes were not logged in the last window; the line
    /// also gives the current state (so a change that ends the window is
    /// reported by it, not counted), and whether that state was itself a
    /// change (for [`merge`](LogLine::merge), which must not lose it).
    Flapping(u32, bool),
}

/// Logs every change of the flag or status, unless they come faster than
/// anybody can read them: a flag flapping at the footprint rate would
/// otherwise write a line per message.
#[derive(Debug, Default)]
pub(super) struct ChangeLog {
    last: Option<(bool, Status)>,
    window_start: Option<Instant>,
    logged: u32,
    suppressed: u32,
}

impl ChangeLog {
    pub(super) fn next(&mut self, decision: (bool, Status), now: Instant) -> LogLine {
        let changed = self.last != Some(decision);
        self.last = Some(decision);
        let window_over = self
            .window_start
            .is_none_or(|start| now.duration_since(start) >= FLAP_WINDOW);
        if window_over && (changed || self.suppressed > 0) {
            self.window_start = Some(now);
            self.logged = 1;
            return match std::mem::take(&mut self.suppressed) {
                0 => LogLine::Change,
                n => LogLine::Flapping(n, changed),
            };
        }
        if !changed {
            LogLine::Nothing
        } else if self.logged < MAX_LOGGED_CHANGES {
            self.logged += 1;
            LogLine::Change
        } else {
            self.suppressed += 1;
            LogLine::Nothing
        }
    }
}

impl LogLine {
    /// Two log requests that were not served one by one (the report
    /// worker was a job behind). No change goes unaccounted: the newer
    /// decision is the line's "now", every change before it is counted
    /// (two change lines become one flapping line of one change).
    pub(super) fn merge(self, newer: LogLine) -> LogLine {
        // Every change a line stands for: those it counts, and its "now"
        // when that was a change.
        let changes = |line: LogLine| match line {
            LogLine::Nothing => 0,
            LogLine::Change => 1,
            LogLine::Flapping(n, now_changed) => n + u32::from(now_changed),
        };
        match (self, newer) {
            (LogLine::Nothing, line) | (line, LogLine::Nothing) => line,
            (older, LogLine::Change) => LogLine::Flapping(changes(older), true),
            (older, LogLine::Flapping(n, now_changed)) => {
                LogLine::Flapping(changes(older) + n, now_changed)
            }
        }
    }
}

/// The decision in words, for the log (ids escaped and cut). Not the
/// demo's `describe`: that one words a `CollisionReport` message for a
/// console, in its own words, which its tests and the README quote.
pub(super) fn describe(report: &Report) -> String {
    if !report.valid {
        return format!(
            "report not valid ({}): collision flag {}",
            report.status, report.colliding
        );
    }
    if report.colliding {
        let depth = report
            .outcomes
            .iter()
            .filter_map(|o| o.contact)
            .map(|c| c.depth())
            .fold(0.0, f64::max);
        return format!(
            "COLLISION with {} (depth {depth:.3} m)",
            shown(&report.nearest_obstacle_id)
        );
    }
    let nearest = match report.nearest_obstacle_id.as_str() {
        "" => "-".to_owned(),
        id => shown(id),
    };
    format!("clear (nearest {nearest} at {:.3} m)", report.min_distance)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merged_lines_count_every_change() {
        use LogLine::{Change, Flapping, Nothing};
        assert_eq!(Nothing.merge(Nothing), Nothing);
        assert_eq!(Nothing.merge(Change), Change);
        assert_eq!(Change.merge(Nothing), Change);
        assert_eq!(Change.merge(Change), Flapping(1, true));
        // A flapping line's "now" that was a change is counted once
        // another change replaces it; one that was not, is not.
        assert_eq!(Flapping(3, true).merge(Change), Flapping(4, true));
        assert_eq!(Flapping(3, false).merge(Change), Flapping(3, true));
        assert_eq!(Change.merge(Flapping(2, false)), Flapping(3, false));
        assert_eq!(
            Flapping(2, true).merge(Flapping(5, true)),
            Flapping(8, true)
        );
        // Three changes merged: two counted, the last the line's "now".
        assert_eq!(Change.merge(Change).merge(Change), Flapping(2, true));
    }

    #[test]
    fn every_change_is_logged_until_the_flag_flaps() {
        let start = Instant::now();
        let at = |ms: u64| start + Duration::from_millis(ms);
        let (clear, hit) = ((false, Status::Ok), (true, Status::Ok));
        let mut log = ChangeLog::default();
        assert_eq!(log.next(clear, at(0)), LogLine::Change);
        assert_eq!(log.next(clear, at(1)), LogLine::Nothing);
        // Nine more changes in the same second are logged...
        for k in 0..9u64 {
            let decision = if k % 2 == 0 { hit } else { clear };
            assert_eq!(log.next(decision, at(2 + k)), LogLine::Change, "{k}");
        }
        // ... the next five are only counted.
        for k in 0..5u64 {
            let decision = if k % 2 == 0 { clear } else { hit };
            assert_eq!(log.next(decision, at(20 + k)), LogLine::Nothing, "{k}");
        }
        assert_eq!(log.next(clear, at(999)), LogLine::Nothing);
        // Once the second is over, the next decision (a tick: no change)
        // says how many went unlogged, and a new window starts.
        assert_eq!(log.next(clear, at(1000)), LogLine::Flapping(5, false));
        assert_eq!(log.next(clear, at(1001)), LogLine::Nothing);
        assert_eq!(log.next(hit, at(1002)), LogLine::Change);
    }

    /// A change that ends a window with unlogged changes is reported by the
    /// flapping line itself (its "now"), not counted in it.
    #[test]
    fn a_change_after_the_window_carries_the_count() {
        let start = Instant::now();
        let at = |ms: u64| start + Duration::from_millis(ms);
        let mut log = ChangeLog::default();
        for k in 0..13u64 {
            log.next((k % 2 == 0, Status::Ok), at(k));
        }
        // 10 logged, 3 counted; the next change comes after the window.
        assert_eq!(
            log.next((false, Status::Ok), at(1500)),
            LogLine::Flapping(3, true)
        );
        assert_eq!(log.next((true, Status::Ok), at(1501)), LogLine::Change);
    }

    #[test]
    fn a_status_change_with_the_same_flag_is_a_change() {
        let now = Instant::now();
        let mut log = ChangeLog::default();
        assert_eq!(log.next((true, Status::NoFootprint), now), LogLine::Change);
        assert_eq!(
            log.next((true, Status::StaleObstacles), now),
            LogLine::Change
        );
        assert_eq!(
            log.next((true, Status::StaleObstacles), now),
            LogLine::Nothing
        );
    }
}
