//! The `sat_collision_node`: threads, and what each may delay.
//!
//! The collision flag must never wait for heavy work, so the node is split
//! by cost:
//!
//! * **I/O thread** (`ros_io`): spins r2r, takes every input message the
//!   moment rcl has it, stamps its arrival (ROS time), checks its sizes and
//!   strings in native form ([`super::inputs`]) and puts it in a slot that
//!   keeps the newest: the footprint for the decision, obstacle arrays and
//!   instances for the obstacle worker. Nothing queues behind a slow
//!   consumer, and freshness is measured from arrival.
//! * **Decision loop** (the main task): validates each new footprint
//!   (bounded work: a polygon has at most 65,536 vertices, 4,096 if
//!   concave), decides with [`Monitor::flag`] and publishes `collision`;
//!   again at `publish_rate` so staleness shows when nothing arrives. It
//!   hands a cheap copy of the monitor (the obstacle set is shared) to the
//!   report worker and to planner queries, and takes in obstacle sets
//!   built by the obstacle worker.
//! * **Obstacle worker** (`obstacles`): validates and splits obstacle
//!   shapes, applies arrays and instances, expires instances, indexes, and
//!   hands the decision a new obstacle set. While newer obstacle input has
//!   waited longer than
//!   [`MonitorConfig::overload_timeout`](crate::monitor::MonitorConfig::overload_timeout)
//!   ([`crate::monitor::DEFAULT_OVERLOAD_TIMEOUT`]) the answer is not valid
//!   (`overloaded`) and, with `fail_safe`, the flag reads true.
//! * **Report worker** (`report`, lower scheduling priority): builds and
//!   publishes `collision_report` and `collision_markers` while somebody
//!   subscribes, and writes the change log. It always works on the newest
//!   state; reports it could not keep up with are skipped, never queued.
//! * **`check_footprint`** requests are computed on tokio's blocking pool,
//!   bounded by `max_service_checks`, and answered by the decision loop.

use super::convert;
use super::inputs::{
    self, ArrayInput, Arrival, FootprintInput, InstanceInput, LatestFootprint, PendingObstacles,
};
use super::markers::{MarkerBuilder, MarkerInput};
use super::params::Params;
use crate::config::{FootprintTextError, NodeConfig};
use crate::geometry::Shape;
use crate::limits::MAX_INSTANCES;
use crate::model::{Obstacle, ObstacleGeometry, Rejection, Report, Status};
use crate::monitor::clock::{ClockReading, ClockWatch};
use crate::monitor::{Monitor, ObstacleSet};
use crate::params_file;
use crate::scene::Scene;
use crate::text::{escape_for_log, LOG_ID_CHARS};
use futures::stream::FuturesUnordered;
use futures::StreamExt;
use r2r::geometry_msgs::msg::{PolygonInstanceStamped, PolygonStamped};
use r2r::sat_collision_msgs::msg::{CollisionReport, ObstacleArray};
use r2r::sat_collision_msgs::srv::CheckFootprint;
use r2r::std_msgs::msg::Bool;
use r2r::visualization_msgs::msg::MarkerArray;
use r2r::{Clock, NativeMsg, Publisher, QosProfile};
use std::collections::HashMap;
use std::error::Error;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

pub const NODE_NAME: &str = "sat_collision_node";

/// How often a repeating warning may be logged.
const WARN_PERIOD: Duration = Duration::from_secs(5);

/// Logs a repeating warning at most once per [`WARN_PERIOD`] per key; the
/// message is only formatted when it is logged.
#[derive(Debug)]
struct Warnings {
    logger: String,
    last: HashMap<&'static str, Instant>,
}

impl Warnings {
    fn new(logger: &str) -> Self {
        Warnings {
            logger: logger.to_owned(),
            last: HashMap::new(),
        }
    }

    fn warn(&mut self, key: &'static str, message: impl FnOnce() -> String) {
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

/// Most changes of the flag or status logged per [`FLAP_WINDOW`]; beyond
/// that the flag is flapping and the rest are counted into one line.
const MAX_LOGGED_CHANGES: u32 = 10;
const FLAP_WINDOW: Duration = Duration::from_secs(1);

/// What to log after a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LogLine {
    Nothing,
    /// The flag or the status changed.
    Change,
    /// This many changes were not logged in the last window; the line
    /// also gives the current state (so a change that ends the window is
    /// reported by it, not counted).
    Flapping(u32),
}

/// Logs every change of the flag or status, unless they come faster than
/// anybody can read them: a flag flapping at the footprint rate would
/// otherwise write a line per message.
#[derive(Debug, Default)]
struct ChangeLog {
    last: Option<(bool, Status)>,
    window_start: Option<Instant>,
    logged: u32,
    suppressed: u32,
}

impl ChangeLog {
    fn next(&mut self, decision: (bool, Status), now: Instant) -> LogLine {
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
                n => LogLine::Flapping(n),
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

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // The data behind these locks stays consistent at every unlock: after a
    // panic elsewhere, keep using it rather than losing the node.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// An id or frame as it may appear in a log line: control characters
/// escaped, cut to [`LOG_ID_CHARS`].
fn shown(id: &str) -> String {
    escape_for_log(id, LOG_ID_CHARS).to_string()
}

/// ROS time (sim time when enabled), judged by a [`ClockWatch`] against a
/// steady clock. Shared by every thread that stamps or decides.
struct RosTime {
    clock: Arc<Mutex<Clock>>,
    watch: Mutex<ClockWatch>,
    start: Instant,
    /// Seconds ROS time may stand still before it counts as stalled.
    stall_limit: Mutex<f64>,
}

impl RosTime {
    fn new(clock: Arc<Mutex<Clock>>, config: &NodeConfig) -> Self {
        RosTime {
            clock,
            watch: Mutex::new(ClockWatch::default()),
            start: Instant::now(),
            stall_limit: Mutex::new(stall_limit(config)),
        }
    }

    fn read(&self) -> ClockReading {
        let limit = *lock(&self.stall_limit);
        let mut watch = lock(&self.watch);
        let ros = lock(&self.clock)
            .get_now()
            .map(|d| d.as_secs_f64())
            .unwrap_or(0.0);
        watch.observe(ros, self.start.elapsed().as_secs_f64(), limit)
    }

    fn arrival(&self) -> Arrival {
        let r = self.read();
        Arrival {
            time: r.ros,
            generation: r.generation,
        }
    }
}

/// ROS time may stand still for this long before it counts as stalled: the
/// smallest timeout in force (a clock stopped longer would hide staleness).
fn stall_limit(config: &NodeConfig) -> f64 {
    let config = &config.monitor;
    [config.footprint_timeout, config.obstacles_timeout]
        .into_iter()
        .filter(|t| *t > 0.0)
        .reduce(f64::min)
        .unwrap_or(0.0)
}

fn stamp_of(seconds: f64) -> Duration {
    Duration::try_from_secs_f64(seconds.max(0.0)).unwrap_or_default()
}

/// What the report worker is asked to do with a state of the monitor. The
/// report is judged at the time it is built, not at the time it was asked
/// for: a report thread held up by load never publishes a `valid` report
/// about inputs that have gone stale meanwhile.
struct ReportJob {
    monitor: Monitor,
    log: LogLine,
}

/// The newest report job (keep-latest), and a stop flag.
#[derive(Default)]
struct ReportSlot {
    inner: Mutex<(Option<ReportJob>, bool)>,
    wake: Condvar,
}

impl ReportSlot {
    /// Replaces the waiting job; a log line it carried is kept (a change
    /// is logged once, with the newest state).
    fn submit(&self, mut job: ReportJob) {
        let mut inner = lock(&self.inner);
        if let Some(old) = inner.0.take() {
            job.log = old.log.merge(job.log);
        }
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

    fn stop(&self) {
        lock(&self.inner).1 = true;
        self.wake.notify_all();
    }
}

impl LogLine {
    /// Two log requests that were not served one by one.
    fn merge(self, newer: LogLine) -> LogLine {
        match (self, newer) {
            (LogLine::Flapping(a), LogLine::Flapping(b)) => LogLine::Flapping(a + b),
            (LogLine::Flapping(a), _) | (_, LogLine::Flapping(a)) => LogLine::Flapping(a),
            (LogLine::Change, _) | (_, LogLine::Change) => LogLine::Change,
            _ => LogLine::Nothing,
        }
    }
}

/// The report worker: report, markers and the change log, off the flag's
/// path.
struct ReportWorker {
    time: Arc<RosTime>,
    report_pub: Publisher<CollisionReport>,
    markers_pub: Publisher<MarkerArray>,
    markers_rate: f64,
    logger: String,
    marker_builder: MarkerBuilder,
    report: Report,
    last_markers: Option<Instant>,
    warnings: Warnings,
}

impl ReportWorker {
    fn run(mut self, slot: &ReportSlot) {
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
        if !report_wanted && !markers_wanted && job.log == LogLine::Nothing {
            return;
        }
        let reading = self.time.read();
        job.monitor.set_clock(reading.generation, reading.cause);
        let now = reading.ros;
        let mut report = std::mem::take(&mut self.report);
        job.monitor.evaluate_into(now, &mut report);
        self.log(&report, job.log);
        let stamp = stamp_of(now);
        if report_wanted {
            let filled = convert::fill_native_collision_report(
                report_msg,
                &report,
                job.monitor.obstacles(),
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
            let array = self.marker_builder.build(&MarkerInput {
                report: &report,
                footprint: job.monitor.footprint(),
                padding: job.monitor.config().padding,
                obstacles: job.monitor.obstacles(),
                obstacles_revision: job.monitor.obstacle_set().revision(),
                stamp,
            });
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
            LogLine::Flapping(n) => r2r::log_warn!(
                &self.logger,
                "flag flapping: {n} more changes in the last {} s not logged; now {state}",
                FLAP_WINDOW.as_secs()
            ),
            _ if !report.valid => r2r::log_warn!(&self.logger, "{state}"),
            _ => r2r::log_info!(&self.logger, "{state}"),
        }
    }
}

/// Lowers the calling thread's scheduling priority to `nice`, so that on a
/// busy machine the flag's thread and the transport get the cores first.
/// Best effort: a failure leaves the priority as it was.
fn lower_priority(nice: i32) {
    // SAFETY: gettid has no preconditions; setpriority on the calling
    // thread's own id changes only that thread's nice value.
    unsafe {
        let tid = libc::gettid();
        libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, nice);
    }
}

/// Nice value of the report thread: the lowest of the node's threads.
const REPORT_NICE: i32 = 10;
/// Nice value of the obstacle worker: below the flag, above the report.
const OBSTACLES_NICE: i32 = 5;

/// Returns freed heap memory to the system after a large message (glibc
/// keeps it otherwise, and RSS would stay at its peak).
fn trim_heap() {
    #[cfg(target_env = "gnu")]
    // SAFETY: malloc_trim only releases free memory at the top of glibc's
    // heaps; it has no preconditions.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Inputs above this many vertices are large: memory is trimmed after them.
const LARGE_INPUT_VERTICES: usize = 100_000;

/// Messages above this many bytes (native form: strings and points) are
/// large: memory is trimmed once they are freed.
const LARGE_MESSAGE_BYTES: usize = 1 << 20;

/// The obstacle worker: validation and convex splitting of obstacle shapes,
/// arrays, instances and their expiry, off the flag's path.
struct ObstacleWorker {
    monitor: Monitor,
    pending: Arc<PendingObstacles>,
    time: Arc<RosTime>,
    params: Arc<Mutex<Params>>,
    sets: tokio::sync::watch::Sender<Arc<ObstacleSet>>,
    warnings: Warnings,
}

impl ObstacleWorker {
    fn run(mut self) {
        lower_priority(OBSTACLES_NICE);
        loop {
            let wait = self.wait_time();
            let batch = self.pending.take(wait);
            if batch.stop {
                return;
            }
            let config = lock(&self.params).0.monitor.clone();
            let reading = self.time.read();
            if reading.generation != self.monitor.generation() {
                // A jump back: instances from before it would never expire.
                self.monitor.forget_instances();
            }
            self.monitor.set_clock(reading.generation, None);
            self.monitor.set_config(config);
            let mut large = false;
            let mut changed = false;
            if let Some((input, arrival)) = batch.array {
                large |= self.apply_array(input, arrival);
                changed = true;
            }
            for (input, arrival) in batch.instances {
                self.apply_instance(input, arrival);
                changed = true;
            }
            changed |= self.monitor.expire_instances(reading.ros) > 0;
            if changed {
                self.sets
                    .send_replace(Arc::clone(self.monitor.obstacle_set()));
            }
            self.pending.done();
            if large {
                trim_heap();
            }
        }
    }

    /// Until the next instance expires, at most 50 ms.
    fn wait_time(&self) -> Duration {
        let timeout = lock(&self.params).0.monitor.obstacles_timeout;
        let now = self.time.read().ros;
        self.monitor
            .obstacle_set()
            .next_expiry(timeout)
            .map_or(Duration::from_millis(50), |at| {
                stamp_of(at - now).min(Duration::from_millis(50))
            })
    }

    /// Applies an array; true when it was large.
    fn apply_array(&mut self, input: ArrayInput, arrival: Arrival) -> bool {
        if arrival.generation != self.monitor.generation() {
            return false;
        }
        match input {
            ArrayInput::Rejected(rejection) => {
                self.warnings.warn("obstacles", || {
                    format!("obstacle array refused: {}", rejection)
                });
                self.monitor.reject_obstacles(rejection, arrival.time);
                false
            }
            ArrayInput::Obstacles {
                frame_id,
                obstacles,
            } => {
                let vertices: usize = obstacles
                    .iter()
                    .map(|(_, g)| match g {
                        ObstacleGeometry::Polygon(p) => p.len(),
                        ObstacleGeometry::Circle { .. } => 1,
                    })
                    .sum();
                let obstacles: Vec<Obstacle> = obstacles
                    .into_iter()
                    .map(|(id, geometry)| Obstacle::new(id, &geometry))
                    .collect();
                if let Some((bad, error)) = obstacles
                    .iter()
                    .find_map(|o| o.shape.as_ref().err().map(|e| (o, e)))
                {
                    let status = Status::from(error);
                    let message = format!("obstacle `{}` rejected: {status}", shown(&bad.id));
                    self.warnings.warn("obstacles", || message);
                }
                self.monitor
                    .set_obstacles(&frame_id, obstacles, arrival.time);
                vertices > LARGE_INPUT_VERTICES
            }
        }
    }

    fn apply_instance(&mut self, input: InstanceInput, arrival: Arrival) {
        if arrival.generation != self.monitor.generation() {
            return;
        }
        match input {
            InstanceInput::Rejected(rejection) => {
                self.warnings.warn("instances", || {
                    format!("obstacle instance refused: {}", rejection)
                });
                self.monitor.reject_instance(rejection, arrival.time);
            }
            InstanceInput::Instance {
                frame_id,
                id,
                points,
            } => {
                let id = convert::instance_id(id);
                let set = self.monitor.obstacle_set();
                if !set.has_instance(&id) && set.instance_count() >= MAX_INSTANCES {
                    self.warnings.warn("instances", || {
                        format!("obstacle instance refused: more than {MAX_INSTANCES} alive")
                    });
                    self.monitor
                        .reject_instance(Rejection::TooManyObstacles, arrival.time);
                    return;
                }
                let geometry = ObstacleGeometry::Polygon(points);
                let obstacle = Obstacle::new(id, &geometry);
                self.monitor
                    .upsert_instance(&frame_id, obstacle, arrival.time);
            }
        }
    }
}

/// The decision loop's state.
struct Decision {
    monitor: Monitor,
    config: NodeConfig,
    robot: Option<Result<Shape, FootprintTextError>>,
    time: Arc<RosTime>,
    pending: Arc<PendingObstacles>,
    footprints: Arc<LatestFootprint>,
    reports: Arc<ReportSlot>,
    logger: String,
    collision: Publisher<Bool>,
    /// Subscriber counts only: the report worker publishes on them.
    report_pub: Publisher<CollisionReport>,
    markers_pub: Publisher<MarkerArray>,
    /// The `collision` message, published in place (r2r's `publish` would
    /// build a new C message each time).
    flag_msg: NativeMsg<Bool>,
    changes: ChangeLog,
    warnings: Warnings,
}

impl Decision {
    /// Reads the clock into the monitor; the reading.
    fn clock(&mut self) -> ClockReading {
        let reading = self.time.read();
        self.monitor.set_clock(reading.generation, reading.cause);
        self.monitor
            .set_pending_obstacles(self.pending.pending_since());
        reading
    }

    /// Decides and publishes the flag first (it is what a safety consumer
    /// waits for); then hands the state to the report worker when a
    /// report, markers or a log line may be wanted.
    fn publish(&mut self, reading: ClockReading) {
        let now = reading.ros;
        let flag = self.monitor.flag(now);
        self.flag_msg.data = flag.colliding;
        if let Err(e) = self.collision.publish_native(&mut self.flag_msg) {
            self.warnings
                .warn("publish", || format!("could not publish collision: {e}"));
        }
        let log = self
            .changes
            .next((flag.colliding, flag.status), Instant::now());
        let wanted = log != LogLine::Nothing
            || self
                .report_pub
                .get_inter_process_subscription_count()
                .map_or(true, |n| n > 0)
            || self
                .markers_pub
                .get_inter_process_subscription_count()
                .is_ok_and(|n| n > 0);
        if wanted {
            self.reports.submit(ReportJob {
                monitor: self.monitor.clone(),
                log,
            });
        }
    }

    fn tick(&mut self) {
        let reading = self.clock();
        self.publish(reading);
    }

    fn on_footprint(&mut self) {
        let Some((input, arrival)) = self.footprints.take() else {
            return;
        };
        let reading = self.clock();
        if arrival.generation == reading.generation {
            self.apply_footprint(&input, arrival);
        }
        self.footprints.give_back(input);
        self.publish(reading);
    }

    fn apply_footprint(&mut self, input: &FootprintInput, arrival: Arrival) {
        if let Some(rejection) = input.rejected {
            self.monitor.reject_footprint(rejection, arrival.time);
            self.warnings
                .warn("footprint", || format!("footprint refused: {}", rejection));
            return;
        }
        self.monitor
            .set_footprint(&input.frame_id, &input.points, arrival.time);
        if let Some(error) = self.monitor.footprint_error() {
            let message = format!(
                "footprint rejected: {} ({} points)",
                Status::from(error),
                input.points.len()
            );
            self.warnings.warn("footprint", || message);
        }
    }

    fn on_obstacle_set(&mut self, set: Arc<ObstacleSet>) {
        self.monitor.set_obstacle_set(set);
        let reading = self.clock();
        self.publish(reading);
    }

    fn on_parameter(&mut self, name: &str, params: &Mutex<Params>) {
        self.config = lock(params).0.clone();
        self.monitor.set_config(self.config.monitor.clone());
        *lock(&self.time.stall_limit) = stall_limit(&self.config);
        r2r::log_info!(&self.logger, "parameter {name} changed");
        self.tick();
    }

    /// What a `check_footprint` request needs, taken now; the work itself
    /// runs elsewhere.
    fn service_job(&mut self, request: CheckFootprint::Request) -> ServiceJob {
        self.clock();
        ServiceJob {
            monitor: self.monitor.clone(),
            robot: self.robot.clone(),
            fail_safe: self.config.monitor.fail_safe,
            max_checks: self.config.max_service_checks,
            time: Arc::clone(&self.time),
            request,
        }
    }
}

/// A `check_footprint` request with the state it is answered against.
struct ServiceJob {
    monitor: Monitor,
    robot: Option<Result<Shape, FootprintTextError>>,
    fail_safe: bool,
    max_checks: f64,
    time: Arc<RosTime>,
    request: CheckFootprint::Request,
}

impl ServiceJob {
    fn answer(self) -> CheckFootprint::Response {
        let request = &self.request;
        let poses = request.poses.len();
        let fail_safe = self.fail_safe;
        let refuse = |status: Status| CheckFootprint::Response {
            valid: false,
            status: status.as_str().to_owned(),
            colliding: vec![fail_safe; poses],
            distance: vec![0.0; poses],
            first_collision: if fail_safe && poses > 0 { 0 } else { -1 },
        };
        // Bounded work: refused before anything is computed.
        let pairs = poses as f64 * self.monitor.obstacles().len().max(1) as f64;
        if pairs > self.max_checks {
            return refuse(Status::RequestTooLarge);
        }
        let footprint = if request.footprint.points.is_empty() {
            match &self.robot {
                Some(Ok(shape)) => shape.clone(),
                Some(Err(_)) => return refuse(Status::InvalidFootprint),
                None => return refuse(Status::NoRobotFootprint),
            }
        } else if request.footprint.points.len() > crate::geometry::polygon::MAX_VERTICES {
            return refuse(Status::InvalidFootprint);
        } else {
            match Shape::polygon(&convert::points(&request.footprint)) {
                Ok(shape) => shape,
                Err(_) => return refuse(Status::InvalidFootprint),
            }
        };
        if !(request.padding.is_finite() && request.padding >= 0.0) {
            return refuse(Status::InvalidPadding);
        }
        let Some(poses) = request
            .poses
            .iter()
            .map(convert::planar_pose)
            .collect::<Option<Vec<_>>>()
        else {
            return refuse(Status::InvalidPose);
        };
        // Judged when the answer is ready: inputs that went stale, a clock
        // that jumped or stalled while it was computed make it not valid.
        // (Inputs keep the generation they arrived under: after a jump they
        // read `clock_jumped_back` through the monitor's own rule.)
        let mut monitor = self.monitor;
        let reading = self.time.read();
        monitor.set_clock(reading.generation, reading.cause);
        let result = monitor.check_trajectory(&footprint, &poses, request.padding, reading.ros);
        CheckFootprint::Response {
            valid: result.valid,
            status: result.status.as_str().to_owned(),
            colliding: result.check.colliding,
            distance: result.check.distance,
            first_collision: result
                .check
                .first_collision
                .and_then(|i| i32::try_from(i).ok())
                .unwrap_or(-1),
        }
    }
}

/// The decision in words, for the log (ids escaped and cut).
fn describe(report: &Report) -> String {
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

/// Loads the zones file: a bad file or a bad zone stops start-up, with a
/// message naming the file and line (`zones_file: <path>:<line>: ...`).
/// Only a regular file is read, with a size cap ([`crate::scene`]).
fn load_zones(path: &str) -> Result<(String, Vec<Obstacle>), String> {
    let text =
        crate::scene::read_capped(Path::new(path)).map_err(|e| format!("zones_file: {e}"))?;
    let scene = Scene::from_yaml(&text, Path::new(path)).map_err(|e| format!("zones_file: {e}"))?;
    let zones = scene.obstacles();
    if let Some(bad) = zones.iter().find(|z| z.shape.is_err()) {
        let reason = bad
            .shape
            .as_ref()
            .err()
            .map_or_else(String::new, |e| e.to_string());
        let line = crate::scene::obstacle_line(&text, &bad.id)
            .map(|l| format!(":{l}"))
            .unwrap_or_default();
        return Err(format!(
            "zones_file: {path}{line}: zone `{}`: {reason}",
            shown(&bad.id)
        ));
    }
    Ok((scene.frame_id, zones))
}

/// Creates the r2r context. rcl parses the command line here; r2r panics
/// when it cannot (an unreadable or malformed `--params-file`, a bad
/// `--ros-args` rule): that becomes a one-line error instead of a panic.
fn create_context() -> Result<r2r::Context, String> {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let result = std::panic::catch_unwind(r2r::Context::create);
    std::panic::set_hook(previous);
    match result {
        Ok(context) => context.map_err(|e| format!("cannot initialise ROS: {e}")),
        Err(payload) => {
            let message = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_else(|| "unknown error".to_owned());
            Err(format!("cannot start: {message}"))
        }
    }
}

/// The next item of `stream` if one is ready now.
fn ready_now<S: futures::Stream + Unpin>(stream: &mut S) -> Option<S::Item> {
    futures::FutureExt::now_or_never(stream.next()).flatten()
}

/// Spins the node on its own thread: subscriptions are created there (r2r's
/// native messages are not Send), every message is stamped and read the
/// moment it is taken, then handed on. Reports set-up errors through
/// `started`.
fn io_thread(
    mut node: r2r::Node,
    time: Arc<RosTime>,
    footprints: Arc<LatestFootprint>,
    pending: Arc<PendingObstacles>,
    running: Arc<AtomicBool>,
    started: std::sync::mpsc::Sender<Result<(), String>>,
) {
    let subscribed = (|| -> r2r::Result<_> {
        Ok((
            node.subscribe_native::<PolygonStamped>("footprint", QosProfile::default())?,
            node.subscribe_native::<ObstacleArray>("obstacles", QosProfile::default())?,
            node.subscribe_native::<PolygonInstanceStamped>(
                "obstacle_instances",
                QosProfile::default(),
            )?,
        ))
    })();
    let (mut footprint_sub, mut array_sub, mut instance_sub) = match subscribed {
        Ok(subs) => {
            let _ = started.send(Ok(()));
            subs
        }
        Err(e) => {
            let _ = started.send(Err(format!("cannot subscribe: {e}")));
            return;
        }
    };
    while running.load(Ordering::Relaxed) {
        node.spin_once(Duration::from_millis(5));
        // Drained after every spin: r2r's channels (10 deep, dropping the
        // newest when full) never fill.
        let mut large = false;
        while let Some(msg) = ready_now(&mut footprint_sub) {
            large |= inputs::footprint_bytes(&msg) > LARGE_MESSAGE_BYTES;
            footprints.put(&msg, time.arrival());
        }
        while let Some(msg) = ready_now(&mut array_sub) {
            let arrival = time.arrival();
            large |= inputs::array_bytes(&msg) > LARGE_MESSAGE_BYTES;
            pending.put_array(ArrayInput::read(&msg), arrival);
        }
        while let Some(msg) = ready_now(&mut instance_sub) {
            let arrival = time.arrival();
            large |= inputs::instance_bytes(&msg) > LARGE_MESSAGE_BYTES;
            pending.put_instance(InstanceInput::read(&msg), arrival);
        }
        if large {
            trim_heap();
        }
    }
}

/// Runs the node until Ctrl-C (SIGINT) or SIGTERM.
pub async fn run() -> Result<(), Box<dyn Error>> {
    // rcl opens a `--params-file` with a plain open: a FIFO would hang
    // start-up, a device would be read forever. Read (and refused) before
    // rcl sees it; once the node exists, every file must have an entry for
    // it: one whose keys all name other nodes (a typo in the top key) would
    // otherwise be ignored silently, `fail_safe: false` and all.
    let args: Vec<String> = std::env::args().collect();
    let params_files =
        params_file::read_params_files(&args).map_err(|e| format!("--params-file {e}"))?;
    let ctx = create_context()?;
    let mut node = r2r::Node::create(ctx, NODE_NAME, "")?;
    let logger = node.logger().to_owned();
    let fqn = node.fully_qualified_name()?;
    params_file::check_params_files(&params_files, &fqn, &node.name()?)
        .map_err(|e| format!("--params-file {e}"))?;

    let params = Arc::new(Mutex::new(Params::default()));
    let (param_handler, mut param_events) = node
        .make_derived_parameter_handler(params.clone())
        .map_err(|e| format!("invalid parameter: {e}"))?;
    let config = lock(&params).0.clone();

    if node
        .get_parameter::<Option<bool>>("use_sim_time")
        .ok()
        .flatten()
        .unwrap_or(false)
    {
        node.get_time_source().enable_sim_time(&mut node)?;
    }
    let time = Arc::new(RosTime::new(node.get_ros_clock(), &config));

    let mut obstacle_monitor = Monitor::new(config.monitor.clone());
    if !config.zones_file.is_empty() {
        let (frame, zones) = load_zones(&config.zones_file)?;
        r2r::log_info!(
            &logger,
            "{} keep-out zones from {} (frame {})",
            zones.len(),
            shown(&config.zones_file),
            shown(&frame)
        );
        obstacle_monitor.set_zones(&frame, zones);
    }
    let mut monitor = Monitor::new(config.monitor.clone());
    monitor.set_obstacle_set(Arc::clone(obstacle_monitor.obstacle_set()));

    let mut service =
        node.create_service::<CheckFootprint::Service>("check_footprint", QosProfile::default())?;
    let collision = node.create_publisher::<Bool>("collision", QosProfile::default())?;
    let report_pub =
        node.create_publisher::<CollisionReport>("collision_report", QosProfile::default())?;
    let markers_pub =
        node.create_publisher::<MarkerArray>("collision_markers", QosProfile::default())?;

    let footprints = Arc::new(LatestFootprint::default());
    let pending = Arc::new(PendingObstacles::default());
    let reports = Arc::new(ReportSlot::default());
    let (sets_tx, mut sets_rx) =
        tokio::sync::watch::channel(Arc::clone(obstacle_monitor.obstacle_set()));

    let obstacle_worker = ObstacleWorker {
        monitor: obstacle_monitor,
        pending: Arc::clone(&pending),
        time: Arc::clone(&time),
        params: Arc::clone(&params),
        sets: sets_tx,
        warnings: Warnings::new(&logger),
    };
    let obstacle_thread = std::thread::Builder::new()
        .name("obstacles".into())
        .spawn(move || obstacle_worker.run())?;

    let report_worker = ReportWorker {
        time: Arc::clone(&time),
        report_pub: report_pub.clone(),
        markers_pub: markers_pub.clone(),
        markers_rate: config.markers_rate,
        logger: logger.clone(),
        marker_builder: MarkerBuilder::default(),
        report: Report::default(),
        last_markers: None,
        warnings: Warnings::new(&logger),
    };
    let report_slot = Arc::clone(&reports);
    let report_thread = std::thread::Builder::new()
        .name("report".into())
        .spawn(move || report_worker.run(&report_slot))?;

    tokio::spawn(param_handler);
    let running = Arc::new(AtomicBool::new(true));
    let (started_tx, started_rx) = std::sync::mpsc::channel();
    let io = {
        let (time, footprints, pending, running) = (
            Arc::clone(&time),
            Arc::clone(&footprints),
            Arc::clone(&pending),
            Arc::clone(&running),
        );
        std::thread::Builder::new()
            .name("ros_io".into())
            .spawn(move || io_thread(node, time, footprints, pending, running, started_tx))?
    };
    let stop_workers = |running: &AtomicBool| {
        running.store(false, Ordering::Relaxed);
        pending.stop();
        reports.stop();
    };
    match started_rx.recv() {
        Ok(Ok(())) => {}
        Ok(Err(e)) => {
            stop_workers(&running);
            return Err(e.into());
        }
        Err(_) => {
            stop_workers(&running);
            return Err("the ROS thread ended during start-up".into());
        }
    }

    let mut decision = Decision {
        monitor,
        robot: config.robot_shape(),
        time,
        pending: Arc::clone(&pending),
        footprints: Arc::clone(&footprints),
        reports: Arc::clone(&reports),
        logger: logger.clone(),
        collision,
        report_pub,
        markers_pub,
        flag_msg: NativeMsg::new(),
        changes: ChangeLog::default(),
        warnings: Warnings::new(&logger),
        config,
    };

    // Registered once, before "started" is logged: a Ctrl-C that arrives while a
    // message is being handled is not lost.
    let mut interrupt = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt())?;
    let mut terminate = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    r2r::log_info!(
        &logger,
        "started: publish_rate {} Hz, timeouts {} s / {} s, fail_safe {}, padding {} m",
        decision.config.publish_rate,
        decision.config.monitor.footprint_timeout,
        decision.config.monitor.obstacles_timeout,
        decision.config.monitor.fail_safe,
        decision.config.monitor.padding
    );
    let mut tick =
        tokio::time::interval(Duration::from_secs_f64(1.0 / decision.config.publish_rate));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut answers = FuturesUnordered::new();

    loop {
        tokio::select! {
            biased;
            _ = interrupt.recv() => break,
            _ = terminate.recv() => break,
            () = footprints.ready() => decision.on_footprint(),
            Ok(()) = sets_rx.changed() => {
                let set = Arc::clone(&sets_rx.borrow_and_update());
                decision.on_obstacle_set(set);
            }
            _ = tick.tick() => decision.tick(),
            Some((name, _)) = param_events.next() => decision.on_parameter(&name, &params),
            Some(req) = service.next() => {
                let job = decision.service_job(req.message.clone());
                let work = tokio::task::spawn_blocking(move || job.answer());
                answers.push(async move { (req, work.await) });
            }
            Some((req, answer)) = answers.next(), if !answers.is_empty() => {
                let response = match answer {
                    Ok(response) => response,
                    Err(_) => CheckFootprint::Response {
                        valid: false,
                        status: Status::InternalError.as_str().to_owned(),
                        ..Default::default()
                    },
                };
                if let Err(e) = req.respond(response) {
                    decision.warnings.warn("service", || format!("could not answer check_footprint: {e}"),
                    );
                }
            }
        }
    }
    r2r::log_info!(&logger, "shutting down");
    stop_workers(&running);
    let _ = io.join();
    let _ = obstacle_thread.join();
    let _ = report_thread.join();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(log.next(clear, at(1000)), LogLine::Flapping(5));
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
            LogLine::Flapping(3)
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
