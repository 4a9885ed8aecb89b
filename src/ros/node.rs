//! The `sat_collision_node` event loop.
//!
//! One task owns the [`Monitor`]; r2r's executor spins on a blocking thread
//! and hands messages over through streams. Every input change and every
//! tick of `publish_rate` publishes `collision` first, from
//! [`Monitor::flag`] (no report needed), then `collision_report` while it
//! has a subscriber; markers follow at most at `markers_rate`, and only
//! while somebody subscribes to them. The footprint path allocates nothing
//! of its own in the steady state: points, polygon and flag message are
//! reused.

use super::convert;
use super::markers::{MarkerBuilder, MarkerInput};
use super::params::Params;
use crate::config::NodeConfig;
use crate::geometry::{Point, Shape, ShapeError};
use crate::monitor::{Monitor, Report};
use crate::scene::Scene;
use futures::StreamExt;
use r2r::geometry_msgs::msg::{PolygonInstanceStamped, PolygonStamped};
use r2r::sat_collision_msgs::msg::{CollisionReport, ObstacleArray};
use r2r::sat_collision_msgs::srv::CheckFootprint;
use r2r::std_msgs::msg::Bool;
use r2r::visualization_msgs::msg::MarkerArray;
use r2r::{Clock, NativeMsg, Publisher, QosProfile, ServiceRequest};
use std::collections::HashMap;
use std::error::Error;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub const NODE_NAME: &str = "sat_collision_node";

/// How often a repeating warning may be logged.
const WARN_PERIOD: Duration = Duration::from_secs(5);

/// Logs a repeating warning at most once per [`WARN_PERIOD`] per key.
struct Throttle {
    last: HashMap<String, Instant>,
}

impl Throttle {
    fn allow(&mut self, key: &str) -> bool {
        let now = Instant::now();
        match self.last.get(key) {
            Some(t) if now.duration_since(*t) < WARN_PERIOD => false,
            _ => {
                self.last.insert(key.to_owned(), now);
                true
            }
        }
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
    last: Option<(bool, &'static str)>,
    window_start: Option<Instant>,
    logged: u32,
    suppressed: u32,
}

impl ChangeLog {
    fn next(&mut self, decision: (bool, &'static str), now: Instant) -> LogLine {
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

/// Publishers of the node.
struct Outputs {
    collision: Publisher<Bool>,
    report: Publisher<CollisionReport>,
    markers: Publisher<MarkerArray>,
}

/// Everything the event loop owns.
struct State {
    monitor: Monitor,
    config: NodeConfig,
    robot: Option<Result<Shape, ShapeError>>,
    clock: Arc<Mutex<Clock>>,
    logger: String,
    outputs: Outputs,
    marker_builder: MarkerBuilder,
    report: Report,
    /// The `collision_report` message, updated and published in place.
    report_msg: NativeMsg<CollisionReport>,
    /// The `collision` message, published in place (r2r's `publish` would
    /// build a new C message each time).
    flag_msg: NativeMsg<Bool>,
    /// Footprint points of the message being handled.
    points: Vec<Point>,
    last_markers: Option<Instant>,
    changes: ChangeLog,
    throttle: Throttle,
}

impl State {
    /// ROS time (sim time when enabled) since its epoch.
    fn now(&self) -> Duration {
        self.clock
            .lock()
            .ok()
            .and_then(|mut c| c.get_now().ok())
            .unwrap_or_default()
    }

    fn warn_throttled(&mut self, key: &str, message: &str) {
        if self.throttle.allow(key) {
            r2r::log_warn!(&self.logger, "{message}");
        }
    }

    /// Answers an input change or a tick: the flag first, from the flag-only
    /// query (it is what a safety consumer waits for), then the report,
    /// markers and log line, each only when somebody is waiting for it.
    fn publish(&mut self) {
        let stamp = self.now();
        let now = stamp.as_secs_f64();
        self.monitor.expire_instances(now);
        let flag = self.monitor.flag(now);
        self.flag_msg.data = flag.colliding;
        if let Err(e) = self.outputs.collision.publish_native(&mut self.flag_msg) {
            self.warn_throttled("publish", &format!("could not publish collision: {e}"));
        }
        let log_line = self
            .changes
            .next((flag.colliding, flag.status), Instant::now());
        // A report of a thousand results costs far more than the flag (the
        // full evaluation, then 80 kB to serialise): only while somebody
        // listens. An unknown count publishes.
        let report_wanted = self
            .outputs
            .report
            .get_inter_process_subscription_count()
            .map_or(true, |n| n > 0);
        let markers_wanted = self.markers_due();
        if !report_wanted && !markers_wanted && log_line == LogLine::Nothing {
            return;
        }
        // The report and its message are reused from call to call.
        let mut report = std::mem::take(&mut self.report);
        self.monitor.evaluate_into(now, &mut report);
        debug_assert_eq!(
            (report.colliding, report.status),
            (flag.colliding, flag.status)
        );
        self.log(&report, log_line);
        if report_wanted {
            let filled = convert::fill_native_collision_report(
                &mut self.report_msg,
                &report,
                self.monitor.obstacles(),
                stamp,
            );
            let published = match filled {
                Ok(()) => self
                    .outputs
                    .report
                    .publish_native(&mut self.report_msg)
                    .map_err(|e| e.to_string()),
                Err(_) => Err("out of memory for the message".to_owned()),
            };
            if let Err(e) = published {
                self.warn_throttled("publish", &format!("could not publish report: {e}"));
            }
        }
        if markers_wanted {
            self.publish_markers(&report, stamp);
        }
        self.report = report;
    }

    /// Markers are due at most at `markers_rate`, and only while somebody
    /// looks: building them is the costly part.
    fn markers_due(&self) -> bool {
        if self.config.markers_rate <= 0.0 {
            return false;
        }
        let min_period = Duration::from_secs_f64(1.0 / self.config.markers_rate);
        if self.last_markers.is_some_and(|t| t.elapsed() < min_period) {
            return false;
        }
        self.outputs
            .markers
            .get_inter_process_subscription_count()
            .unwrap_or(0)
            > 0
    }

    fn publish_markers(&mut self, report: &Report, stamp: Duration) {
        self.last_markers = Some(Instant::now());
        let array = self.marker_builder.build(&MarkerInput {
            report,
            footprint: self.monitor.footprint(),
            padding: self.config.padding,
            obstacles: self.monitor.obstacles(),
            stamp,
        });
        if let Err(e) = self.outputs.markers.publish(&array) {
            self.warn_throttled("publish", &format!("could not publish markers: {e}"));
        }
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

    fn on_footprint(&mut self, msg: PolygonStamped) {
        let now = self.now().as_secs_f64();
        convert::points_into(&msg.polygon, &mut self.points);
        self.monitor
            .set_footprint(&msg.header.frame_id, &self.points, now);
        if let Some(error) = self.monitor.footprint_error() {
            let message = format!(
                "footprint rejected: {} ({} points)",
                error.status(),
                self.points.len()
            );
            self.warn_throttled("footprint", &message);
        }
        self.publish();
    }

    fn on_obstacles(&mut self, msg: ObstacleArray) {
        let now = self.now().as_secs_f64();
        let obstacles: Vec<_> = msg.obstacles.iter().map(convert::obstacle).collect();
        if let Some(bad) = obstacles.iter().find(|o| o.shape.is_err()) {
            let status = bad.shape.as_ref().err().map_or("invalid", |e| e.status());
            let message = format!("obstacle `{}` rejected: {status}", bad.id);
            self.warn_throttled("obstacles", &message);
        }
        self.monitor
            .set_obstacles(&msg.header.frame_id, obstacles, now);
        self.publish();
    }

    fn on_instance(&mut self, msg: PolygonInstanceStamped) {
        let now = self.now().as_secs_f64();
        let id = convert::instance_id(msg.polygon.id);
        let geometry =
            crate::monitor::ObstacleGeometry::Polygon(convert::points(&msg.polygon.polygon));
        let obstacle = crate::monitor::Obstacle::new(id, &geometry);
        self.monitor
            .upsert_instance(&msg.header.frame_id, obstacle, now);
        self.publish();
    }

    fn on_parameter(&mut self, name: &str, params: &Mutex<Params>) {
        if let Ok(p) = params.lock() {
            self.config = p.0.clone();
        }
        self.monitor.set_config(self.config.monitor());
        r2r::log_info!(&self.logger, "parameter {name} changed");
        self.publish();
    }

    fn on_check_footprint(&mut self, req: ServiceRequest<CheckFootprint::Service>) {
        let response = self.check_footprint(&req.message);
        if let Err(e) = req.respond(response) {
            self.warn_throttled("service", &format!("could not answer check_footprint: {e}"));
        }
    }

    fn check_footprint(&self, request: &CheckFootprint::Request) -> CheckFootprint::Response {
        let poses = request.poses.len();
        let refuse = |status: &str| CheckFootprint::Response {
            valid: false,
            status: status.to_owned(),
            colliding: vec![self.config.fail_safe; poses],
            distance: vec![0.0; poses],
            first_collision: if self.config.fail_safe && poses > 0 {
                0
            } else {
                -1
            },
        };
        let footprint = if request.footprint.points.is_empty() {
            match &self.robot {
                Some(Ok(shape)) => shape.clone(),
                Some(Err(_)) => return refuse("invalid_footprint"),
                None => return refuse("no_robot_footprint"),
            }
        } else {
            match Shape::polygon(&convert::points(&request.footprint)) {
                Ok(shape) => shape,
                Err(_) => return refuse("invalid_footprint"),
            }
        };
        if !(request.padding.is_finite() && request.padding >= 0.0) {
            return refuse("invalid_padding");
        }
        let Some(poses) = request
            .poses
            .iter()
            .map(convert::planar_pose)
            .collect::<Option<Vec<_>>>()
        else {
            return refuse("invalid_pose");
        };
        let now = self.now().as_secs_f64();
        let result = self
            .monitor
            .check_trajectory(&footprint, &poses, request.padding, now);
        CheckFootprint::Response {
            valid: result.valid,
            status: result.status.to_owned(),
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

/// The decision in words, for the log.
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
            .map(|c| c.depth)
            .fold(0.0, f64::max);
        return format!(
            "COLLISION with {} (depth {depth:.3} m)",
            report.nearest_obstacle_id
        );
    }
    let nearest = match report.nearest_obstacle_id.as_str() {
        "" => "-",
        id => id,
    };
    format!("clear (nearest {nearest} at {:.3} m)", report.min_distance)
}

/// Loads the zones file: a bad file or a bad zone stops start-up, with a
/// message naming the file and line (`zones_file: <path>:<line>: ...`).
fn load_zones(path: &str) -> Result<(String, Vec<crate::monitor::Obstacle>), String> {
    let scene = Scene::load(Path::new(path)).map_err(|e| format!("zones_file: {e}"))?;
    let zones = scene.obstacles();
    if let Some(bad) = zones.iter().find(|z| z.shape.is_err()) {
        let reason = bad
            .shape
            .as_ref()
            .err()
            .map_or_else(String::new, |e| e.to_string());
        let line = std::fs::read_to_string(path)
            .ok()
            .and_then(|text| crate::scene::obstacle_line(&text, &bad.id))
            .map(|l| format!(":{l}"))
            .unwrap_or_default();
        return Err(format!(
            "zones_file: {path}{line}: zone `{}`: {reason}",
            bad.id
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

/// Runs the node until Ctrl-C (SIGINT) or SIGTERM.
pub async fn run() -> Result<(), Box<dyn Error>> {
    let ctx = create_context()?;
    let mut node = r2r::Node::create(ctx, NODE_NAME, "")?;
    let logger = node.logger().to_owned();

    let params = Arc::new(Mutex::new(Params::default()));
    let (param_handler, mut param_events) = node
        .make_derived_parameter_handler(params.clone())
        .map_err(|e| format!("invalid parameter: {e}"))?;
    let config = params
        .lock()
        .map_err(|_| "parameter lock poisoned")?
        .0
        .clone();

    if node
        .get_parameter::<Option<bool>>("use_sim_time")
        .ok()
        .flatten()
        .unwrap_or(false)
    {
        node.get_time_source().enable_sim_time(&mut node)?;
    }

    let mut monitor = Monitor::new(config.monitor());
    if !config.zones_file.is_empty() {
        let (frame, zones) = load_zones(&config.zones_file)?;
        r2r::log_info!(
            &logger,
            "{} keep-out zones from {} (frame {frame})",
            zones.len(),
            config.zones_file
        );
        monitor.set_zones(&frame, zones);
    }

    let mut footprints = node.subscribe::<PolygonStamped>("footprint", QosProfile::default())?;
    let mut obstacle_arrays =
        node.subscribe::<ObstacleArray>("obstacles", QosProfile::default())?;
    let mut instances =
        node.subscribe::<PolygonInstanceStamped>("obstacle_instances", QosProfile::default())?;
    let mut service =
        node.create_service::<CheckFootprint::Service>("check_footprint", QosProfile::default())?;
    let outputs = Outputs {
        collision: node.create_publisher::<Bool>("collision", QosProfile::default())?,
        report: node
            .create_publisher::<CollisionReport>("collision_report", QosProfile::default())?,
        markers: node
            .create_publisher::<MarkerArray>("collision_markers", QosProfile::default())?,
    };

    let mut state = State {
        monitor,
        robot: config.robot_shape(),
        clock: node.get_ros_clock(),
        logger: logger.clone(),
        outputs,
        marker_builder: MarkerBuilder::default(),
        report: Report::default(),
        report_msg: NativeMsg::new(),
        flag_msg: NativeMsg::new(),
        points: Vec::new(),
        last_markers: None,
        changes: ChangeLog::default(),
        throttle: Throttle {
            last: HashMap::new(),
        },
        config,
    };

    tokio::spawn(param_handler);
    let running = Arc::new(AtomicBool::new(true));
    let spinning = running.clone();
    let spinner = tokio::task::spawn_blocking(move || {
        while spinning.load(Ordering::Relaxed) {
            node.spin_once(Duration::from_millis(5));
        }
    });

    // Registered once, before "started" is logged: a Ctrl-C that arrives while a
    // message is being handled is not lost (a fresh `ctrl_c()` per iteration would
    // miss it).
    let mut interrupt = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt())?;
    let mut terminate = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    r2r::log_info!(
        &logger,
        "started: publish_rate {} Hz, timeouts {} s / {} s, fail_safe {}, padding {} m",
        state.config.publish_rate,
        state.config.footprint_timeout,
        state.config.obstacles_timeout,
        state.config.fail_safe,
        state.config.padding
    );
    let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / state.config.publish_rate));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);

    loop {
        tokio::select! {
            Some(msg) = footprints.next() => state.on_footprint(msg),
            Some(msg) = obstacle_arrays.next() => state.on_obstacles(msg),
            Some(msg) = instances.next() => state.on_instance(msg),
            Some(req) = service.next() => state.on_check_footprint(req),
            Some((name, _)) = param_events.next() => state.on_parameter(&name, &params),
            _ = tick.tick() => state.publish(),
            _ = interrupt.recv() => break,
            _ = terminate.recv() => break,
        }
    }
    r2r::log_info!(&logger, "shutting down");
    running.store(false, Ordering::Relaxed);
    spinner.await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_change_is_logged_until_the_flag_flaps() {
        let start = Instant::now();
        let at = |ms: u64| start + Duration::from_millis(ms);
        let (clear, hit) = ((false, "ok"), (true, "ok"));
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
            log.next((k % 2 == 0, "ok"), at(k));
        }
        // 10 logged, 3 counted; the next change comes after the window.
        assert_eq!(log.next((false, "ok"), at(1500)), LogLine::Flapping(3));
        assert_eq!(log.next((true, "ok"), at(1501)), LogLine::Change);
    }

    #[test]
    fn a_status_change_with_the_same_flag_is_a_change() {
        let now = Instant::now();
        let mut log = ChangeLog::default();
        assert_eq!(log.next((true, "no_footprint"), now), LogLine::Change);
        assert_eq!(log.next((true, "stale_obstacles"), now), LogLine::Change);
        assert_eq!(log.next((true, "stale_obstacles"), now), LogLine::Nothing);
    }
}
