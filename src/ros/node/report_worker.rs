//! The report worker (lower scheduling priority): builds and publishes
//! `collision_report` and `collision_markers` while somebody subscribes,
//! and writes the change log, always from the newest state it was handed
//! ([`ReportSlot`] keeps only that one).

use super::change_log::{describe, LogLine, FLAP_WINDOW};
use super::logging::Warnings;
use super::ros_time::{stamp_of, RosTime};
use super::threads::{lock, lower_priority, REPORT_NICE};
use crate::model::Report;
use crate::monitor::Monitor;
use crate::ros::convert;
use crate::ros::markers::{MarkerBuilder, MarkerInput, MAX_DRAWN_SOURCE_POINTS};
use crate::ros::tf::TfBuffer;
use r2r::sat_collision_msgs::msg::CollisionReport;
use r2r::visualization_msgs::msg::MarkerArray;
use r2r::{NativeMsg, Publisher};
use std::borrow::Cow;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// What the report worker is asked to do with a state of the monitor. The
/// report is judged at the time it is built, not at the time it was asked
/// for: a report thread held up by load never publishes a `valid` report
/// about inputs that have gone stale meanwhile.
pub(super) struct ReportJob {
    pub(super) monitor: Monitor,
    pub(super) log: LogLine,
    /// Predict along the velocity too (`velocity_topic` set).
    pub(super) predict: bool,
}

/// The newest report job (keep-latest), and a stop flag.
pub(super) struct ReportSlot {
    inner: Mutex<(Option<ReportJob>, bool)>,
    wake: Condvar,
    /// When the waiting job was handed over.
    since: Mutex<Option<Instant>>,
    /// A job replaced after waiting this long is a report cycle skipped:
    /// the worker fell a whole publish period behind. (Two inputs in one
    /// spin replace each other's job at once: keep-latest at work, not a
    /// skip.)
    period: Duration,
    /// When cycles were skipped, the newest [`SKIPS_KEPT`] of them.
    skips: Mutex<std::collections::VecDeque<Instant>>,
}

/// Skipped cycles remembered (enough to count a second's at any
/// `publish_rate` up to 64 Hz; beyond it the count saturates).
const SKIPS_KEPT: usize = 64;

impl ReportSlot {
    /// A slot for a node deciding every `period` (`1 / publish_rate`).
    pub(super) fn new(period: Duration) -> Self {
        ReportSlot {
            inner: Mutex::new((None, false)),
            wake: Condvar::new(),
            since: Mutex::new(None),
            period,
            skips: Mutex::new(std::collections::VecDeque::with_capacity(SKIPS_KEPT)),
        }
    }
}

impl ReportSlot {
    /// Replaces the waiting job; a log line it carried is kept (a change
    /// is logged once, with the newest state).
    pub(super) fn submit(&self, mut job: ReportJob) {
        let mut inner = lock(&self.inner);
        let now = Instant::now();
        let mut since = lock(&self.since);
        if let Some(old) = inner.0.take() {
            job.log = old.log.merge(job.log);
            let waited = since.map_or(Duration::ZERO, |t| now.duration_since(t));
            if waited >= self.period {
                let mut skips = lock(&self.skips);
                if skips.len() == SKIPS_KEPT {
                    skips.pop_front();
                }
                skips.push_back(now);
                // The replacing job starts a new period.
                *since = Some(now);
            }
        } else {
            *since = Some(now);
        }
        drop(since);
        inner.0 = Some(job);
        drop(inner);
        self.wake.notify_one();
    }

    fn wait(&self) -> Option<ReportJob> {
        let mut inner = lock(&self.inner);
        loop {
            if inner.1 {
                return None;
            }
            if let Some(job) = inner.0.take() {
                return Some(job);
            }
            inner = self
                .wake
                .wait(inner)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }

    /// How many report cycles were skipped within `window` before now: a
    /// job replaced after waiting a whole publish period for the worker.
    pub(super) fn skipped_within(&self, window: Duration) -> u64 {
        let now = Instant::now();
        lock(&self.skips)
            .iter()
            .filter(|t| now.duration_since(**t) <= window)
            .count() as u64
    }

    pub(super) fn stop(&self) {
        lock(&self.inner).1 = true;
        self.wake.notify_all();
    }
}

/// The report worker: report, markers and the change log, off the flag's
/// path.
pub(super) struct ReportWorker {
    pub(super) time: Arc<RosTime>,
    /// Transforms are judged again when the report is built, like every
    /// other input.
    pub(super) tf: Arc<Mutex<TfBuffer>>,
    pub(super) report_pub: Publisher<CollisionReport>,
    pub(super) markers_pub: Publisher<MarkerArray>,
    pub(super) markers_rate: f64,
    pub(super) logger: String,
    pub(super) marker_builder: MarkerBuilder,
    /// The sources' points inside the footprint, for the markers (reused).
    pub(super) source_points: Vec<crate::geometry::Point>,
    pub(super) report: Report,
    pub(super) last_markers: Option<Instant>,
    pub(super) warnings: Warnings,
    /// Lifecycle: set while the node is active; nothing is published
    /// otherwise (a job handed over just before a deactivate included).
    pub(super) outputs: Arc<std::sync::atomic::AtomicBool>,
}

impl ReportWorker {
    pub(super) fn run(mut self, slot: &ReportSlot) {
        lower_priority(REPORT_NICE);
        // The native report lives on this thread (r2r's native messages are
        // not Send); numbers and unchanged strings are rewritten in place.
        let mut report_msg = NativeMsg::<CollisionReport>::new();
        while let Some(job) = slot.wait() {
            self.handle(job, &mut report_msg);
        }
    }

    fn handle(&mut self, mut job: ReportJob, report_msg: &mut NativeMsg<CollisionReport>) {
        // An unknown subscriber count publishes.
        let report_wanted = self
            .report_pub
            .get_inter_process_subscription_count()
            .map_or(true, |n| n > 0);
        let markers_wanted = self.markers_due();
        let active = self.outputs.load(std::sync::atomic::Ordering::Relaxed);
        let (report_wanted, markers_wanted) = (report_wanted && active, markers_wanted && active);
        if !report_wanted && !markers_wanted && job.log == LogLine::Nothing {
            return;
        }
        let reading = self.time.read();
        job.monitor.set_clock(reading.generation, reading.cause);
        let now = reading.ros;
        let prediction = {
            let tf = lock(&self.tf);
            job.monitor.place(&tf.tree, now);
            job.predict.then(|| job.monitor.predict(&tf.tree, now))
        };
        let mut report = std::mem::take(&mut self.report);
        job.monitor.evaluate_into(now, &mut report);
        self.log(&report, job.log);
        let stamp = stamp_of(now);
        if report_wanted {
            let filled = convert::fill_native_collision_report(
                report_msg,
                &report,
                job.monitor.obstacles(),
                &job.monitor.config().sources,
                prediction.as_ref(),
                stamp,
            );
            let published = match filled {
                Ok(()) => self
                    .report_pub
                    .publish_native(report_msg)
                    .map_err(|e| e.to_string()),
                Err(_) => Err("out of memory for the message".to_owned()),
            };
            if let Err(e) = published {
                self.warnings
                    .warn("publish", || format!("could not publish report: {e}"));
            }
        }
        if markers_wanted {
            self.last_markers = Some(Instant::now());
            let groups: Vec<_> = job.monitor.groups_to_global().collect();
            let footprint = match (job.monitor.footprint(), job.monitor.footprint_to_global()) {
                (Some(shape), Some(pose)) if pose != nalgebra::Isometry2::identity() => {
                    Some(Cow::Owned(shape.transformed(&pose)))
                }
                (Some(shape), Some(_)) => Some(Cow::Borrowed(shape)),
                _ => None,
            };
            let mut inside = std::mem::take(&mut self.source_points);
            inside.clear();
            job.monitor
                .source_points_inside(MAX_DRAWN_SOURCE_POINTS, &mut inside);
            let array = self.marker_builder.build(&MarkerInput {
                report: &report,
                footprint: footprint.as_deref(),
                padding: job.monitor.config().padding,
                obstacles: job.monitor.obstacles(),
                groups: &groups,
                obstacles_revision: job.monitor.obstacle_set().revision(),
                prediction: prediction.as_ref(),
                source_points: &inside,
                stamp,
            });
            self.source_points = inside;
            if let Err(e) = self.markers_pub.publish(&array) {
                self.warnings
                    .warn("publish", || format!("could not publish markers: {e}"));
            }
        }
        self.report = report;
    }

    /// Markers are due at most at `markers_rate`, and only while somebody
    /// looks: building them is the costly part.
    fn markers_due(&self) -> bool {
        if self.markers_rate <= 0.0 {
            return false;
        }
        let min_period = Duration::from_secs_f64(1.0 / self.markers_rate);
        if self.last_markers.is_some_and(|t| t.elapsed() < min_period) {
            return false;
        }
        self.markers_pub
            .get_inter_process_subscription_count()
            .unwrap_or(0)
            > 0
    }

    /// One line for a change of the flag or status, or for a flapping flag.
    fn log(&self, report: &Report, line: LogLine) {
        if line == LogLine::Nothing {
            return;
        }
        let state = describe(report);
        match line {
            LogLine::Flapping(n, _) => r2r::log_warn!(
                &self.logger,
                "flag flapping: {n} more changes in the last {} s not logged; now {state}",
                FLAP_WINDOW.as_secs()
            ),
            _ if !report.valid => r2r::log_warn!(&self.logger, "{state}"),
            _ => r2r::log_info!(&self.logger, "{state}"),
        }
    }
}
