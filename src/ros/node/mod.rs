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
//! * **`check_footprint`** and **`check_path`** requests are read natively
//!   on the I/O thread (frame ids and sizes checked before the copy,
//!   [`super::inputs::CheckedRequest`]), computed on tokio's blocking pool,
//!   bounded by `max_service_checks` vertex steps, and answered by the
//!   decision loop. At shutdown (SIGINT, SIGTERM) running ones are
//!   cancelled ([`crate::planner::Cancel`], seen within a pose) and never
//!   waited for: the process ends within a second, whatever was asked.
//!
//! One file per job: `io_thread`, `decision`, `obstacle_worker`,
//! `report_worker` (with `change_log`: a line per change of the flag, and
//! the count when it flaps) and `service` for the above; what they share:
//! `ros_time` (arrival stamps and the clock watch), `logging` (throttled
//! warnings, ids as logged) and `threads` (locks, priorities, heap trim);
//! start-up: `context` (r2r's context without its panic) and `zones`
//! (`zones_file`). This module only wires them together: [`run`] reads as
//! the node's life, one function per job (the node and its parameters,
//! the monitors, services, publishers, the shared slots, the worker
//! threads, the I/O thread, the decision, the event loop, shutdown).

mod change_log;
mod context;
mod decision;
mod gate;
mod io_thread;
mod logging;
mod obstacle_worker;
mod report_worker;
mod ros_time;
mod service;
mod threads;
mod zones;

use super::inputs::{
    CheckFootprintService, CheckPathService, LatestFootprint, LatestVelocity, PendingObstacles,
};
use super::markers::MarkerBuilder;
use super::params::Params;
use super::sources::{LatestSources, SourceReader};
use super::spin::{ShutdownSignals, StopFlag};
use super::tf::TfBuffer;
use crate::config::{NodeConfig, VelocityType};
use crate::geometry::Shape;
use crate::model::{Report, Status};
use crate::monitor::{Monitor, ObstacleSet};
use crate::params_file;
use crate::planner::{Cancel, Cancelled};
use change_log::ChangeLog;
use context::create_context;
use decision::{Decision, PredictionOutput};
use futures::stream::{FuturesUnordered, Stream};
use futures::StreamExt;
use gate::{GateNode, GateParts, ToggleRequests};
use io_thread::{io_thread, Sinks};
use logging::{shown, Throttle, Warnings};
use obstacle_worker::ObstacleWorker;
use r2r::sat_collision_msgs::msg::CollisionReport;
use r2r::sat_collision_msgs::srv::{CheckFootprint, CheckPath};
use r2r::std_msgs::msg::Bool;
use r2r::visualization_msgs::msg::MarkerArray;
use r2r::{NativeMsg, ParameterValue, Publisher, QosProfile, ServiceRequest};
use report_worker::{ReportSlot, ReportWorker};
use ros_time::RosTime;
use std::error::Error;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;
use threads::lock;
use zones::load_zones;

/// The node's name.
pub const NODE_NAME: &str = "sat_collision_node";

/// Runs the node until Ctrl-C (SIGINT) or SIGTERM.
pub async fn run() -> Result<(), Box<dyn Error>> {
    let mut node = create_node()?;
    let logger = node.logger().to_owned();
    let (params, param_handler, param_events) = declare_parameters(&mut node)?;
    let config = lock(&params).0.clone();
    for note in lock(&params).notes() {
        r2r::log_info!(&logger, "{}", crate::text::escape_for_log(note, 400));
    }
    follow_sim_time(&mut node)?;
    let time = Arc::new(RosTime::new(node.get_ros_clock(), &config));
    let (obstacle_monitor, monitor) = create_monitors(&config, &logger)?;
    let services = create_services(&mut node)?;
    let publishers = Publishers::create(&mut node)?;
    let gate = GateNode::create(&mut node, &config, &logger)?;
    let shared = Shared::new(&config, time, params);
    log_footprint_source(&config, &logger);
    let (sets, sets_rx) = tokio::sync::watch::channel(Arc::clone(obstacle_monitor.obstacle_set()));
    let workers = start_workers(
        obstacle_monitor,
        sets,
        &shared,
        &publishers,
        &config,
        &logger,
    )?;
    tokio::spawn(param_handler);
    let (gate, gate_sinks, toggle) = match gate {
        Some(GateParts {
            node,
            sinks,
            toggle,
        }) => (Some(node), Some(sinks), Some(toggle)),
        None => (None, None, None),
    };
    let threads = start_io_thread(node, &shared, &config, workers, gate_sinks)?;
    let mut decision = create_decision(monitor, config, &shared, publishers, &logger);
    decision.gate = gate;
    log_prediction(&decision.config, &logger);
    // Registered once, before "started" is logged: a Ctrl-C that arrives while a
    // message is being handled is not lost.
    let signals = ShutdownSignals::register()?;
    log_started(&decision.config, &logger);
    let events = Events {
        signals,
        sets: sets_rx,
        param_events,
        footprint_service: services.0,
        path_service: services.1,
        toggle: toggle.unwrap_or_else(|| futures::stream::pending().boxed_local()),
    };
    serve(&mut decision, &shared, events).await;
    shut_down(&decision, &shared, threads, &logger);
    Ok(())
}

/// Creates the node, with its `--params-file`s checked.
///
/// rcl opens a `--params-file` with a plain open: a FIFO would hang
/// start-up, a device would be read forever. Read (and refused) before
/// rcl sees it; once the node exists, every file must have an entry for
/// it: one whose keys all name other nodes (a typo in the top key) would
/// otherwise be ignored silently, `fail_safe: false` and all.
fn create_node() -> Result<r2r::Node, Box<dyn Error>> {
    let args: Vec<String> = std::env::args().collect();
    let params_files =
        params_file::read_params_files(&args).map_err(|e| format!("--params-file {e}"))?;
    let ctx = create_context()?;
    let node = r2r::Node::create(ctx, NODE_NAME, "")?;
    let fqn = node.fully_qualified_name()?;
    params_file::check_params_files(&params_files, &fqn, &node.name()?)
        .map_err(|e| format!("--params-file {e}"))?;
    Ok(node)
}

/// Declares the parameters of [`crate::config::PARAMS`] (a bad value
/// stops the node): the shared values, r2r's parameter services (to be
/// spawned) and the stream of run-time changes.
#[allow(clippy::type_complexity)]
fn declare_parameters(
    node: &mut r2r::Node,
) -> Result<
    (
        Arc<Mutex<Params>>,
        impl Future<Output = ()> + Send,
        impl Stream<Item = (String, ParameterValue)>,
    ),
    Box<dyn Error>,
> {
    let params = Arc::new(Mutex::new(Params::default()));
    let (param_handler, param_events) = node
        .make_derived_parameter_handler(params.clone())
        .map_err(|e| format!("invalid parameter: {e}"))?;
    Ok((params, param_handler, param_events))
}

/// With `use_sim_time`, the node's ROS clock follows `/clock`.
fn follow_sim_time(node: &mut r2r::Node) -> Result<(), Box<dyn Error>> {
    if node
        .get_parameter::<Option<bool>>("use_sim_time")
        .ok()
        .flatten()
        .unwrap_or(false)
    {
        node.get_time_source().enable_sim_time(node)?;
    }
    Ok(())
}

/// The obstacle worker's monitor (with the `zones_file`'s zones) and the
/// decision's, which shares its obstacle set.
fn create_monitors(
    config: &NodeConfig,
    logger: &str,
) -> Result<(Monitor, Monitor), Box<dyn Error>> {
    let mut obstacle_monitor = Monitor::new(config.monitor.clone());
    if !config.zones_file.is_empty() {
        let (frame, zones) = load_zones(&config.zones_file)?;
        r2r::log_info!(
            logger,
            "{} keep-out zones from {} (frame {})",
            zones.len(),
            shown(&config.zones_file),
            shown(&frame)
        );
        obstacle_monitor.set_zones(&frame, zones);
    }
    let mut monitor = Monitor::new(config.monitor.clone());
    monitor.set_obstacle_set(Arc::clone(obstacle_monitor.obstacle_set()));
    Ok((obstacle_monitor, monitor))
}

/// `check_footprint` and `check_path`, their requests read by
/// [`super::inputs::CheckedRequest`].
#[allow(clippy::type_complexity)]
fn create_services(
    node: &mut r2r::Node,
) -> Result<
    (
        impl Stream<Item = ServiceRequest<CheckFootprintService>> + Unpin,
        impl Stream<Item = ServiceRequest<CheckPathService>> + Unpin,
    ),
    Box<dyn Error>,
> {
    let footprint =
        node.create_service::<CheckFootprintService>("check_footprint", QosProfile::default())?;
    let path = node.create_service::<CheckPathService>("check_path", QosProfile::default())?;
    Ok((footprint, path))
}

/// The node's publishers: all always advertised (the node's names do not
/// depend on its parameters).
struct Publishers {
    collision: Publisher<Bool>,
    /// Published only with `velocity_topic`.
    ahead: Publisher<Bool>,
    report: Publisher<CollisionReport>,
    markers: Publisher<MarkerArray>,
}

impl Publishers {
    fn create(node: &mut r2r::Node) -> Result<Self, Box<dyn Error>> {
        Ok(Publishers {
            collision: node.create_publisher::<Bool>("collision", QosProfile::default())?,
            ahead: node.create_publisher::<Bool>("collision_ahead", QosProfile::default())?,
            report: node
                .create_publisher::<CollisionReport>("collision_report", QosProfile::default())?,
            markers: node
                .create_publisher::<MarkerArray>("collision_markers", QosProfile::default())?,
        })
    }
}

/// What the threads share: the clock, the parameters, the slots inputs go
/// through and the TF buffer.
struct Shared {
    time: Arc<RosTime>,
    params: Arc<Mutex<Params>>,
    footprints: Arc<LatestFootprint>,
    /// With `velocity_topic`.
    velocities: Option<Arc<LatestVelocity>>,
    tf: Arc<Mutex<TfBuffer>>,
    /// The robot's shape when the footprint comes from TF (`base_frame`).
    tf_footprint: Option<Shape>,
    /// Woken by each `/tf` message while the footprint comes from TF.
    tf_moved: Arc<tokio::sync::Notify>,
    pending: Arc<PendingObstacles>,
    reports: Arc<ReportSlot>,
    sources: Arc<LatestSources>,
}

impl Shared {
    fn new(config: &NodeConfig, time: Arc<RosTime>, params: Arc<Mutex<Params>>) -> Self {
        Shared {
            time,
            params,
            footprints: Arc::new(LatestFootprint::default()),
            velocities: (!config.velocity_topic.is_empty())
                .then(|| Arc::new(LatestVelocity::default())),
            tf: Arc::new(Mutex::new(TfBuffer::default())),
            tf_footprint: config.footprint_from_tf(),
            tf_moved: Arc::new(tokio::sync::Notify::new()),
            pending: Arc::new(PendingObstacles::default()),
            reports: Arc::new(ReportSlot::default()),
            sources: Arc::new(LatestSources::default()),
        }
    }

    /// Stops the I/O thread and the workers (they end within their wait).
    fn stop(&self, stop_io: &StopFlag) {
        stop_io.stop();
        self.pending.stop();
        self.reports.stop();
    }
}

/// Where the footprint comes from: TF (`base_frame` with the robot's
/// shape) or the footprint topic.
fn log_footprint_source(config: &NodeConfig, logger: &str) {
    if config.footprint_from_tf().is_some() {
        r2r::log_info!(
            logger,
            "footprint: the robot's shape placed in {} from TF (the footprint topic is not used)",
            shown(&config.monitor.base_frame)
        );
    } else if !config.monitor.base_frame.is_empty() {
        r2r::log_warn!(
            logger,
            "base_frame is set but neither robot_footprint nor robot_radius is: the footprint comes from the footprint topic"
        );
    }
}

/// The worker threads, running.
struct Workers {
    obstacles: JoinHandle<()>,
    report: JoinHandle<()>,
}

/// The node's threads, to stop and join at shutdown.
struct Threads {
    stop_io: StopFlag,
    io: JoinHandle<()>,
    workers: Workers,
}

/// Starts the obstacle worker (`obstacles`) and the report worker
/// (`report`).
fn start_workers(
    obstacle_monitor: Monitor,
    sets: tokio::sync::watch::Sender<Arc<ObstacleSet>>,
    shared: &Shared,
    publishers: &Publishers,
    config: &NodeConfig,
    logger: &str,
) -> Result<Workers, Box<dyn Error>> {
    let obstacle_worker = ObstacleWorker {
        monitor: obstacle_monitor,
        pending: Arc::clone(&shared.pending),
        time: Arc::clone(&shared.time),
        params: Arc::clone(&shared.params),
        sets,
        warnings: Warnings::new(logger),
    };
    let obstacles = std::thread::Builder::new()
        .name("obstacles".into())
        .spawn(move || obstacle_worker.run())?;

    let report_worker = ReportWorker {
        time: Arc::clone(&shared.time),
        tf: Arc::clone(&shared.tf),
        report_pub: publishers.report.clone(),
        markers_pub: publishers.markers.clone(),
        markers_rate: config.markers_rate,
        logger: logger.to_owned(),
        marker_builder: MarkerBuilder::default(),
        source_points: Vec::new(),
        report: Report::default(),
        last_markers: None,
        warnings: Warnings::new(logger),
    };
    let report_slot = Arc::clone(&shared.reports);
    let report = std::thread::Builder::new()
        .name("report".into())
        .spawn(move || report_worker.run(&report_slot))?;
    Ok(Workers { obstacles, report })
}

/// Starts the I/O thread (`ros_io`), which takes the node, and waits until
/// its subscriptions exist; when they cannot be made, the workers are
/// stopped and the error returned.
fn start_io_thread(
    node: r2r::Node,
    shared: &Shared,
    config: &NodeConfig,
    workers: Workers,
    gate: Option<gate::GateSinks>,
) -> Result<Threads, Box<dyn Error>> {
    let stop_io = StopFlag::new();
    let (started_tx, started_rx) = std::sync::mpsc::channel();
    let sinks = Sinks {
        time: Arc::clone(&shared.time),
        footprints: shared
            .tf_footprint
            .is_none()
            .then(|| Arc::clone(&shared.footprints)),
        pending: Arc::clone(&shared.pending),
        tf: Arc::clone(&shared.tf),
        tf_moved: shared
            .tf_footprint
            .is_some()
            .then(|| Arc::clone(&shared.tf_moved)),
        reliability: config.input_reliability,
        velocity: shared.velocities.as_ref().map(|slot| {
            (
                config.velocity_topic.clone(),
                config.velocity_type,
                Arc::clone(slot),
            )
        }),
        sources: source_readers(config),
        latest_sources: Arc::clone(&shared.sources),
        gate,
    };
    let stop = stop_io.clone();
    let io = std::thread::Builder::new()
        .name("ros_io".into())
        .spawn(move || io_thread(node, sinks, stop, started_tx))?;
    match started_rx.recv() {
        Ok(Ok(())) => Ok(Threads {
            stop_io,
            io,
            workers,
        }),
        Ok(Err(e)) => {
            shared.stop(&stop_io);
            Err(e.into())
        }
        Err(_) => {
            shared.stop(&stop_io);
            Err("the ROS thread ended during start-up".into())
        }
    }
}

/// The decision loop's state.
/// A reader per configured source (`observation_sources`), in order.
fn source_readers(config: &NodeConfig) -> Vec<SourceReader> {
    config
        .sources
        .iter()
        .enumerate()
        .map(|(index, source)| {
            SourceReader::new(
                index,
                source.clone(),
                &config.monitor.base_frame,
                config.monitor.transform_tolerance,
            )
        })
        .collect()
}

fn create_decision(
    monitor: Monitor,
    config: NodeConfig,
    shared: &Shared,
    publishers: Publishers,
    logger: &str,
) -> Decision {
    Decision {
        monitor,
        robot: config.robot_shape(),
        time: Arc::clone(&shared.time),
        pending: Arc::clone(&shared.pending),
        footprints: Arc::clone(&shared.footprints),
        sources: Arc::clone(&shared.sources),
        source_inputs: Vec::new(),
        tf: Arc::clone(&shared.tf),
        tf_footprint: shared.tf_footprint.clone(),
        tf_log: std::time::Instant::now(),
        reports: Arc::clone(&shared.reports),
        logger: logger.to_owned(),
        collision: publishers.collision,
        report_pub: publishers.report,
        markers_pub: publishers.markers,
        flag_msg: NativeMsg::new(),
        changes: ChangeLog::default(),
        warnings: Warnings::new(logger),
        parameter_log: Throttle::default(),
        prediction: shared
            .velocities
            .clone()
            .map(|velocities| PredictionOutput {
                velocities,
                ahead: publishers.ahead,
                ahead_msg: NativeMsg::new(),
            }),
        jobs: Cancel::new(),
        gate: None,
        config,
    }
}

/// With `velocity_topic`: what is predicted, and a warning when a `twist`
/// can never be placed.
fn log_prediction(config: &NodeConfig, logger: &str) {
    if config.velocity_topic.is_empty() {
        return;
    }
    r2r::log_info!(
        logger,
        "prediction: {} on {} over {} s, collision_ahead published",
        config.velocity_type,
        shown(&config.velocity_topic),
        config.monitor.time_horizon
    );
    if config.velocity_type == VelocityType::Twist && config.monitor.base_frame.is_empty() {
        r2r::log_warn!(
            logger,
            "velocity_type twist without base_frame: a Twist names no frame, so it is \
             never predicted (prediction_status unknown_velocity_frame, collision_ahead \
             true with fail_safe); set base_frame"
        );
    }
}

fn log_started(config: &NodeConfig, logger: &str) {
    r2r::log_info!(
        logger,
        "started: publish_rate {} Hz, timeouts {} s / {} s, fail_safe {}, padding {} m",
        config.publish_rate,
        config.monitor.footprint_timeout,
        config.monitor.obstacles_timeout,
        config.monitor.fail_safe,
        config.monitor.padding
    );
}

/// What the decision loop waits for, besides the shared slots.
struct Events<P, F, C> {
    signals: ShutdownSignals,
    /// Obstacle sets built by the obstacle worker.
    sets: tokio::sync::watch::Receiver<Arc<ObstacleSet>>,
    /// Run-time parameter changes.
    param_events: P,
    footprint_service: F,
    path_service: C,
    /// `~/toggle` (the gate's; never ready without a gate).
    toggle: ToggleRequests,
}

/// The decision loop, until a shutdown signal: every input, tick,
/// parameter change and request in turn; service requests computed on
/// tokio's blocking pool and answered here.
async fn serve<P, F, C>(decision: &mut Decision, shared: &Shared, events: Events<P, F, C>)
where
    P: Stream<Item = (String, ParameterValue)> + Unpin,
    F: Stream<Item = ServiceRequest<CheckFootprintService>> + Unpin,
    C: Stream<Item = ServiceRequest<CheckPathService>> + Unpin,
{
    let Events {
        mut signals,
        mut sets,
        mut param_events,
        mut footprint_service,
        mut path_service,
        mut toggle,
    } = events;
    let commands = decision.gate.as_ref().map(GateNode::commands);
    let shapes = decision.gate.as_ref().map(GateNode::shapes);
    let mut tick =
        tokio::time::interval(Duration::from_secs_f64(1.0 / decision.config.publish_rate));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut answers = FuturesUnordered::new();
    let mut path_answers = FuturesUnordered::new();

    loop {
        tokio::select! {
            biased;
            () = signals.recv() => break,
            // First: a command is gated the moment it arrives.
            () = when_some(commands.as_deref(), gate::CommandSlot::ready) => decision.on_command(),
            () = shared.footprints.ready() => decision.on_footprint(),
            () = shared.sources.ready() => decision.on_sources(),
            // A `/tf` message while the footprint comes from TF: the robot
            // moved; decide now, as at a tick.
            () = shared.tf_moved.notified() => decision.tick(),
            Ok(()) = sets.changed() => {
                let set = Arc::clone(&sets.borrow_and_update());
                decision.on_obstacle_set(set);
            }
            () = when_some(shapes.as_deref(), gate::ZoneShapes::ready) => decision.on_zone_shapes(),
            _ = tick.tick() => decision.tick(),
            Some(req) = toggle.next() => decision.on_toggle(req),
            Some((name, _)) = param_events.next() => decision.on_parameter(&name, &shared.params),
            Some(mut req) = footprint_service.next() => {
                let job = decision.service_job(std::mem::take(&mut req.message));
                let work = tokio::task::spawn_blocking(move || job.answer());
                answers.push(async move { (req, work.await) });
            }
            Some(mut req) = path_service.next() => {
                let job = decision.path_job(std::mem::take(&mut req.message));
                let work = tokio::task::spawn_blocking(move || job.answer());
                path_answers.push(async move { (req, work.await) });
            }
            Some((req, answer)) = path_answers.next(), if !path_answers.is_empty() => {
                // Cancelled: only at shutdown, which ends this loop first.
                let Some(response) = path_response(answer) else { continue };
                if let Err(e) = req.respond(response) {
                    decision.warnings.warn("service", || format!("could not answer check_path: {e}"));
                }
            }
            Some((req, answer)) = answers.next(), if !answers.is_empty() => {
                let Some(response) = footprint_response(answer) else { continue };
                if let Err(e) = req.respond(response) {
                    decision.warnings.warn("service", || format!("could not answer check_footprint: {e}"));
                }
            }
        }
    }
}

/// `wait` on `slot` when there is one; never ready otherwise.
async fn when_some<'a, T, F, Fut>(slot: Option<&'a T>, wait: F)
where
    F: FnOnce(&'a T) -> Fut,
    Fut: Future<Output = ()>,
{
    match slot {
        Some(slot) => wait(slot).await,
        None => futures::future::pending().await,
    }
}

/// A finished job's answer, or what its request is answered when the job
/// panicked (`internal_error`, not valid); `None`: cancelled, no answer.
type Answer<R> = Result<Result<R, Cancelled>, tokio::task::JoinError>;

fn footprint_response(
    answer: Answer<CheckFootprint::Response>,
) -> Option<CheckFootprint::Response> {
    match answer {
        Ok(Ok(response)) => Some(response),
        Ok(Err(Cancelled)) => None,
        Err(_) => Some(CheckFootprint::Response {
            valid: false,
            status: Status::InternalError.as_str().to_owned(),
            ..Default::default()
        }),
    }
}

/// As [`footprint_response`], for `check_path`.
fn path_response(answer: Answer<CheckPath::Response>) -> Option<CheckPath::Response> {
    match answer {
        Ok(Ok(response)) => Some(response),
        Ok(Err(Cancelled)) => None,
        Err(_) => Some(CheckPath::Response {
            valid: false,
            status: Status::InternalError.as_str().to_owned(),
            first_collision: 0,
            ..Default::default()
        }),
    }
}

/// Running service jobs stop within a pose; nothing waits for them (their
/// answers were dropped with the loop, and the runtime is shut down without
/// waiting: `sat_collision_node`'s `main`). The threads end within their
/// waits and are joined.
fn shut_down(decision: &Decision, shared: &Shared, threads: Threads, logger: &str) {
    r2r::log_info!(logger, "shutting down");
    decision.jobs.cancel();
    shared.stop(&threads.stop_io);
    let _ = threads.io.join();
    let _ = threads.workers.obstacles.join();
    let _ = threads.workers.report.join();
}
