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
//!   concave), decides with [`Monitor::flag`](crate::monitor::Monitor::flag) and publishes `collision`;
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
//! # Lifecycle
//!
//! The node is a managed (lifecycle) node, as `rcl_lifecycle` exposes one
//! (`lifecycle`: the five services and `~/transition_event`, on
//! [`crate::lifecycle::Machine`]). What exists when:
//!
//! * **Always** (made at start-up, before the node moves to the I/O
//!   thread): the parameters, the lifecycle services, `check_footprint`
//!   and `check_path` (they answer `inactive`, not valid, outside active),
//!   the bond's publisher and `/diagnostics`. The I/O thread owns the node
//!   and spins it from start to exit, so every state answers.
//! * **Configure** makes the rest (`pipeline`): the parameters as they are
//!   then, the `zones_file`, the monitors, the publishers, the gate, the
//!   workers and the inputs' subscriptions (made on the I/O thread, which
//!   owns the node). A failure is logged and answered `success: false`;
//!   what was made is released and the node stays unconfigured.
//!   **Cleanup** releases it all again (publishers destroyed, inputs
//!   released to the I/O thread's pool of subscriptions, workers joined).
//! * **Activate** switches the outputs on and starts the bond's heartbeat
//!   (`bond`); **deactivate** switches every output off (`collision`,
//!   `collision_ahead`, the report, the markers, the gate's command, state
//!   and markers) and breaks the bond. Inputs keep arriving while inactive.
//! * **Shutdown** answers, then the process ends (exit status 0), as on
//!   SIGINT or SIGTERM; the bond's `active: false` is sent either way.
//!
//! `autostart` (default true) configures and activates at start-up, so
//! the node used alone behaves as it always has.
//!
//! One file per job: `io_thread`, `decision`, `obstacle_worker`,
//! `report_worker` (with `change_log`: a line per change of the flag, and
//! the count when it flaps) and `service` for the above; `pipeline` (what
//! configure makes), `lifecycle`, `bond` and `health` (`/diagnostics`);
//! what they share: `ros_time` (arrival stamps and the clock watch),
//! `logging` (throttled warnings, ids as logged) and `threads` (locks,
//! priorities, heap trim); start-up: `context` (r2r's context without its
//! panic) and `zones` (`zones_file`). This module only wires them
//! together: [`run`] reads as the node's life (the node and its
//! parameters, the services, the lifecycle, the bond, `/diagnostics`, the
//! I/O thread, autostart, the event loop, shutdown).

mod bond;
mod change_log;
mod context;
mod decision;
mod exclusion;
mod gate;
mod health;
mod io_thread;
mod lifecycle;
mod logging;
mod obstacle_worker;
mod pipeline;
mod report_worker;
mod ros_time;
mod service;
mod threads;

use super::inputs::{CheckFootprintService, CheckPathService};
use super::params::Params;
use super::spin::ShutdownSignals;
use crate::lifecycle::{Callback, CallbackResult, Transition};
use crate::model::Status;
use crate::params_file;
use crate::planner::Cancelled;
use bond::Bond;
use context::create_context;
use futures::stream::{FuturesUnordered, Stream};
use futures::StreamExt;
use health::{Health, Snapshot};
use io_thread::IoThread;
use lifecycle::{LifecycleServer, Step};
use pipeline::{Pipeline, Waits};
use r2r::sat_collision_msgs::srv::{CheckFootprint, CheckPath};
use r2r::{ParameterValue, QosProfile, ServiceRequest};
use ros_time::RosTime;
use std::error::Error;
use std::future::Future;
use std::sync::{Arc, Mutex};
use threads::lock;

/// The node's name.
pub const NODE_NAME: &str = "sat_collision_node";

/// Runs the node until Ctrl-C (SIGINT), SIGTERM or the lifecycle's
/// shutdown.
pub async fn run() -> Result<(), Box<dyn Error>> {
    let mut node = create_node()?;
    let logger = node.logger().to_owned();
    let name = node.name()?;
    let (params, param_handler, param_events) = declare_parameters(&mut node)?;
    for note in lock(&params).notes() {
        r2r::log_info!(&logger, "{}", crate::text::escape_for_log(note, 400));
    }
    follow_sim_time(&mut node)?;
    let start = lock(&params).0.clone();
    let time = Arc::new(RosTime::new(node.get_ros_clock(), &start));
    let services = create_services(&mut node)?;
    let lifecycle = LifecycleServer::create(&mut node, &logger)?;
    let bond = Bond::create(&mut node, &name, start.bond_heartbeat_period, &logger)?;
    let health = Health::create(&mut node, &name, &start.hardware_id, &logger)?;
    let io = IoThread::start(node)?;
    tokio::spawn(param_handler);
    // Registered before anything is logged as started: a Ctrl-C that
    // arrives while a message is being handled is not lost.
    let signals = ShutdownSignals::register()?;
    let mut life = Life {
        io: Some(io),
        params,
        time,
        logger,
        lifecycle,
        bond,
        health,
        pipeline: None,
        waits: None,
    };
    if start.autostart {
        // Standalone use: configured and activated at once; a configure
        // that fails stops the node, as before there was a lifecycle.
        if let Err(e) = life.autostart().await {
            life.shut_down();
            return Err(e.into());
        }
        log_started(&life, &start);
    } else {
        r2r::log_info!(
            &life.logger,
            "started: unconfigured (autostart false), waiting for a lifecycle manager (change_state)"
        );
    }
    let events = Events {
        signals,
        param_events,
        footprint_service: services.0,
        path_service: services.1,
    };
    serve(&mut life, events).await;
    life.shut_down();
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

/// `check_footprint` and `check_path`, their requests read by
/// [`super::inputs::CheckedRequest`]. They exist in every lifecycle state
/// and answer `inactive` (not valid) outside active.
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

fn log_started(life: &Life, config: &crate::config::NodeConfig) {
    r2r::log_info!(
        &life.logger,
        "started: publish_rate {} Hz, timeouts {} s / {} s, fail_safe {}, padding {} m",
        config.publish_rate,
        config.monitor.footprint_timeout,
        config.monitor.obstacles_timeout,
        config.monitor.fail_safe,
        config.monitor.padding
    );
}

/// The node's life: the I/O thread that owns the node, the lifecycle
/// machine and its services, the bond, and what configure made.
struct Life {
    /// `None` once stopped.
    io: Option<IoThread>,
    params: Arc<Mutex<Params>>,
    time: Arc<RosTime>,
    logger: String,
    lifecycle: LifecycleServer,
    bond: Bond,
    health: Health,
    /// Between configure and cleanup.
    pipeline: Option<Pipeline>,
    waits: Option<Waits>,
}

/// What the event loop does after a lifecycle request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    /// Shut down: the process ends.
    Exit,
}

impl Life {
    fn now(&self) -> f64 {
        self.time.read().ros
    }

    /// `fail_safe` as it is now (it may change at run time): the
    /// services' answers while inactive.
    fn fail_safe(&self) -> bool {
        lock(&self.params).0.monitor.fail_safe
    }

    /// `/diagnostics`, when due.
    fn update_health(&mut self) {
        let now = self.now();
        let lifecycle_state = self.lifecycle.state().label();
        let configured = self.pipeline.as_mut().map(|p| health::Configured {
            skipped: p.reports_skipped(),
            decision: &mut p.decision,
        });
        self.health.update(Snapshot {
            now,
            lifecycle_state,
            configured,
        });
    }

    /// `autostart`: configure, then activate, as a manager would ask.
    async fn autostart(&mut self) -> Result<(), String> {
        for id in [Transition::CONFIGURE, Transition::ACTIVATE] {
            let now = self.now();
            let mut change = self
                .lifecycle
                .begin(id, now)
                .map_err(|e| format!("autostart: {e}"))?;
            let (result, reason) = self.callback(change.begun.callback).await;
            let now = self.now();
            if let Step::Done { success: false } | Step::ErrorProcessing =
                self.lifecycle.finish(&mut change, result, now)
            {
                return Err(reason.unwrap_or_else(|| "autostart failed".to_owned()));
            }
        }
        Ok(())
    }

    /// A lifecycle request: a query answered, a change carried through.
    async fn on_lifecycle(&mut self, request: lifecycle::LifecycleRequest) -> Flow {
        let now = self.now();
        let Some(mut change) = self.lifecycle.handle(request, now) else {
            return Flow::Continue;
        };
        let callback = change.begun.callback;
        let (result, _) = self.callback(callback).await;
        let now = self.now();
        if self.lifecycle.finish(&mut change, result, now) == Step::ErrorProcessing {
            // on_error: release everything configure made.
            self.on_error().await;
            let now = self.now();
            self.lifecycle
                .finish_error(&mut change, CallbackResult::Success, now);
        }
        // Shut down (or finalized by a failed error processing): the
        // process ends.
        let finalized = self.lifecycle.state() == crate::lifecycle::State::Finalized;
        match callback == Callback::Shutdown || finalized {
            true => Flow::Exit,
            false => Flow::Continue,
        }
    }

    /// Runs a transition's callback; its result, and the reason of a
    /// failure.
    async fn callback(&mut self, callback: Callback) -> (CallbackResult, Option<String>) {
        match callback {
            Callback::Configure => self.configure().await,
            Callback::Activate => match &mut self.pipeline {
                Some(pipeline) => {
                    pipeline.set_active(true);
                    let now = self.now();
                    self.bond.start(now);
                    (CallbackResult::Success, None)
                }
                None => (CallbackResult::Error, Some("not configured".to_owned())),
            },
            Callback::Deactivate => {
                if let Some(pipeline) = &mut self.pipeline {
                    pipeline.set_active(false);
                }
                let now = self.now();
                self.bond.stop(now);
                (CallbackResult::Success, None)
            }
            Callback::Cleanup => {
                self.release().await;
                (CallbackResult::Success, None)
            }
            Callback::Shutdown => {
                let now = self.now();
                self.bond.stop(now);
                self.release().await;
                (CallbackResult::Success, None)
            }
        }
    }

    /// Configure: the parameters as they are now; a failure is logged and
    /// leaves the node unconfigured.
    async fn configure(&mut self) -> (CallbackResult, Option<String>) {
        let Some(io) = &self.io else {
            return (CallbackResult::Failure, Some(io_thread_ended()));
        };
        match Pipeline::configure(io, &self.params, &self.time, &self.logger).await {
            Ok((pipeline, waits)) => {
                self.pipeline = Some(pipeline);
                self.waits = Some(waits);
                lock(&self.params).set_configured(true);
                (CallbackResult::Success, None)
            }
            Err(reason) => {
                r2r::log_error!(
                    &self.logger,
                    "configure failed, still unconfigured: {}",
                    crate::text::escape_for_log(&reason, 400)
                );
                (CallbackResult::Failure, Some(reason))
            }
        }
    }

    /// Releases what configure made.
    async fn release(&mut self) {
        self.waits = None;
        if let (Some(pipeline), Some(io)) = (self.pipeline.take(), &self.io) {
            pipeline.release(io).await;
        }
        lock(&self.params).set_configured(false);
    }

    /// Error processing: the bond broken, what configure made released
    /// (the node is unconfigured again).
    async fn on_error(&mut self) {
        let now = self.now();
        self.bond.stop(now);
        self.release().await;
    }

    /// At process exit: the bond broken (its last messages sent), the
    /// workers and the I/O thread stopped and joined. Running service jobs
    /// stop within a pose and are not waited for.
    fn shut_down(&mut self) {
        r2r::log_info!(&self.logger, "shutting down");
        let time = Arc::clone(&self.time);
        self.bond.exit(|| time.read().ros);
        self.waits = None;
        if let Some(pipeline) = self.pipeline.take() {
            pipeline.stop();
        }
        if let Some(io) = self.io.take() {
            io.stop();
        }
    }
}

fn io_thread_ended() -> String {
    "the ROS thread has ended".to_owned()
}

/// What the event loop waits for, besides the configured node's slots.
struct Events<P, F, C> {
    signals: ShutdownSignals,
    /// Run-time parameter changes.
    param_events: P,
    footprint_service: F,
    path_service: C,
}

/// The event loop, until a shutdown signal or the lifecycle's shutdown:
/// lifecycle requests, every input, tick, parameter change and request in
/// turn; service requests computed on tokio's blocking pool and answered
/// here.
async fn serve<P, F, C>(life: &mut Life, events: Events<P, F, C>)
where
    P: Stream<Item = (String, ParameterValue)> + Unpin,
    F: Stream<Item = ServiceRequest<CheckFootprintService>> + Unpin,
    C: Stream<Item = ServiceRequest<CheckPathService>> + Unpin,
{
    let Events {
        mut signals,
        mut param_events,
        mut footprint_service,
        mut path_service,
    } = events;
    let mut answers = FuturesUnordered::new();
    let mut path_answers = FuturesUnordered::new();
    // `/diagnostics`: every period, and within this of a level's change.
    let mut health_tick = tokio::time::interval(HEALTH_CHECK);
    health_tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);

    loop {
        // The configured node's slots, or nothing that is ever ready.
        let waits = life.waits.as_mut();
        let (commands, shapes, footprints, sources, tf_moved) = match &waits {
            Some(w) => (
                w.commands.clone(),
                w.shapes.clone(),
                Some(Arc::clone(&w.footprints)),
                Some(Arc::clone(&w.sources)),
                Some(Arc::clone(&w.tf_moved)),
            ),
            None => (None, None, None, None, None),
        };
        let fleet = waits.as_ref().and_then(|w| w.fleet.clone());
        let (sets, toggle, exclusion, tick) = match waits {
            Some(w) => (
                Some(&mut w.sets),
                Some(&mut w.toggle),
                Some(&mut w.exclusion),
                Some(&mut w.tick),
            ),
            None => (None, None, None, None),
        };
        tokio::select! {
            biased;
            () = signals.recv() => break,
            Some(request) = life.lifecycle.next() => {
                if life.on_lifecycle(request).await == Flow::Exit {
                    break;
                }
            }
            // First: a command is gated the moment it arrives.
            () = when_some(commands.as_deref(), gate::CommandSlot::ready) => {
                if let Some(p) = &mut life.pipeline { p.decision.on_command() }
            }
            () = when_some(footprints.as_deref(), super::inputs::LatestFootprint::ready) => {
                if let Some(p) = &mut life.pipeline { p.decision.on_footprint() }
            }
            () = when_some(sources.as_deref(), super::sources::LatestSources::ready) => {
                if let Some(p) = &mut life.pipeline { p.decision.on_sources() }
            }
            () = when_some(fleet.as_deref(), super::fleet::LatestFleet::ready) => {
                if let Some(p) = &mut life.pipeline { p.decision.on_fleet() }
            }
            // A `/tf` message while the footprint comes from TF: the robot
            // moved; decide now, as at a tick.
            () = when_some(tf_moved.as_deref(), tokio::sync::Notify::notified) => {
                if let Some(p) = &mut life.pipeline { p.decision.tick() }
            }
            Some(set) = next_set(sets) => {
                if let Some(p) = &mut life.pipeline { p.decision.on_obstacle_set(set) }
            }
            () = when_some(shapes.as_deref(), gate::ZoneShapes::ready) => {
                if let Some(p) = &mut life.pipeline { p.decision.on_zone_shapes() }
            }
            Some(()) = next_tick(tick) => {
                if let Some(p) = &mut life.pipeline { p.decision.tick() }
            }
            Some(req) = next_toggle(toggle) => {
                if let Some(p) = &mut life.pipeline { p.decision.on_toggle(req) }
            }
            Some(req) = next_exclusion(exclusion) => {
                if let Some(p) = &mut life.pipeline { p.decision.on_exclusion(req) }
            }
            _ = health_tick.tick() => life.update_health(),
            () = life.bond.due() => {
                let now = life.now();
                life.bond.on_due(now);
            }
            Some((name, _)) = param_events.next() => {
                if let Some(p) = &mut life.pipeline {
                    p.decision.on_parameter(&name);
                }
            }
            Some(mut req) = footprint_service.next() => {
                let request = std::mem::take(&mut req.message);
                let fail_safe = life.fail_safe();
                match &mut life.pipeline {
                    Some(p) if p.is_active() => {
                        // The answer if a cleanup cancels the job.
                        let inactive = service::inactive_footprint(&request, fail_safe);
                        let job = p.decision.service_job(request);
                        let work = tokio::task::spawn_blocking(move || job.answer());
                        answers.push(async move { (req, work.await, inactive) });
                    }
                    _ => respond(req, service::inactive_footprint(&request, fail_safe), &life.logger),
                }
            }
            Some(mut req) = path_service.next() => {
                let request = std::mem::take(&mut req.message);
                let fail_safe = life.fail_safe();
                match &mut life.pipeline {
                    Some(p) if p.is_active() => {
                        let inactive = service::inactive_path(&request, fail_safe);
                        let job = p.decision.path_job(request);
                        let work = tokio::task::spawn_blocking(move || job.answer());
                        path_answers.push(async move { (req, work.await, inactive) });
                    }
                    _ => respond(req, service::inactive_path(&request, fail_safe), &life.logger),
                }
            }
            // Cancelled by a cleanup: answered `inactive`. (At shutdown this
            // loop has ended: not answered.)
            Some((req, answer, inactive)) = path_answers.next(), if !path_answers.is_empty() => {
                respond(req, path_response(answer).unwrap_or(inactive), &life.logger);
            }
            Some((req, answer, inactive)) = answers.next(), if !answers.is_empty() => {
                respond(req, footprint_response(answer).unwrap_or(inactive), &life.logger);
            }
        }
    }
}

/// How often the statuses are checked for a change of level.
const HEALTH_CHECK: std::time::Duration = std::time::Duration::from_millis(100);

/// Answers a service request; a failure is logged.
fn respond<T: r2r::WrappedServiceTypeSupport + 'static>(
    request: ServiceRequest<T>,
    response: T::Response,
    logger: &str,
) {
    if let Err(e) = request.respond(response) {
        r2r::log_warn!(logger, "could not answer a service request: {e}");
    }
}

/// The next obstacle set, when configured.
async fn next_set(
    sets: Option<&mut tokio::sync::watch::Receiver<Arc<crate::monitor::ObstacleSet>>>,
) -> Option<Arc<crate::monitor::ObstacleSet>> {
    match sets {
        Some(sets) => match sets.changed().await {
            Ok(()) => Some(Arc::clone(&sets.borrow_and_update())),
            Err(_) => futures::future::pending().await,
        },
        None => futures::future::pending().await,
    }
}

/// The next decision tick, when configured.
async fn next_tick(tick: Option<&mut tokio::time::Interval>) -> Option<()> {
    match tick {
        Some(tick) => {
            tick.tick().await;
            Some(())
        }
        None => futures::future::pending().await,
    }
}

/// The next `~/toggle` request, when configured with a gate.
async fn next_toggle(
    toggle: Option<&mut gate::ToggleRequests>,
) -> Option<ServiceRequest<r2r::nav2_msgs::srv::Toggle::Service>> {
    match toggle {
        Some(toggle) => toggle.next().await,
        None => futures::future::pending().await,
    }
}

/// The next request to a source's exclusion zone services, when
/// configured.
async fn next_exclusion(
    requests: Option<&mut exclusion::ExclusionRequests>,
) -> Option<exclusion::ExclusionRequest> {
    match requests {
        Some(requests) => requests.next().await,
        None => futures::future::pending().await,
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
/// panicked (`internal_error`, not valid); `None`: cancelled.
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
