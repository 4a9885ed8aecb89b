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
//! (`zones_file`). This module only wires them together in [`run`].

mod change_log;
mod context;
mod decision;
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
use super::spin::{ShutdownSignals, StopFlag};
use super::tf::TfBuffer;
use crate::config::VelocityType;
use crate::model::{Report, Status};
use crate::monitor::Monitor;
use crate::params_file;
use crate::planner::{Cancel, Cancelled};
use change_log::ChangeLog;
use context::create_context;
use decision::{Decision, PredictionOutput};
use futures::stream::FuturesUnordered;
use futures::StreamExt;
use io_thread::{io_thread, Sinks};
use logging::{shown, Throttle, Warnings};
use obstacle_worker::ObstacleWorker;
use r2r::sat_collision_msgs::msg::CollisionReport;
use r2r::sat_collision_msgs::srv::{CheckFootprint, CheckPath};
use r2r::std_msgs::msg::Bool;
use r2r::visualization_msgs::msg::MarkerArray;
use r2r::{NativeMsg, QosProfile};
use report_worker::{ReportSlot, ReportWorker};
use ros_time::RosTime;
use std::error::Error;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use threads::lock;
use zones::load_zones;

pub const NODE_NAME: &str = "sat_collision_node";

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
        node.create_service::<CheckFootprintService>("check_footprint", QosProfile::default())?;
    let mut path_service =
        node.create_service::<CheckPathService>("check_path", QosProfile::default())?;
    let collision = node.create_publisher::<Bool>("collision", QosProfile::default())?;
    let velocities =
        (!config.velocity_topic.is_empty()).then(|| Arc::new(LatestVelocity::default()));
    // Always advertised (the node's names do not depend on its
    // parameters); published only with `velocity_topic`.
    let ahead_pub = node.create_publisher::<Bool>("collision_ahead", QosProfile::default())?;
    let report_pub =
        node.create_publisher::<CollisionReport>("collision_report", QosProfile::default())?;
    let markers_pub =
        node.create_publisher::<MarkerArray>("collision_markers", QosProfile::default())?;

    let footprints = Arc::new(LatestFootprint::default());
    let tf = Arc::new(Mutex::new(TfBuffer::default()));
    let tf_footprint = config.footprint_from_tf();
    let tf_moved = Arc::new(tokio::sync::Notify::new());
    if tf_footprint.is_some() {
        r2r::log_info!(
            &logger,
            "footprint: the robot's shape placed in {} from TF (the footprint topic is not used)",
            shown(&config.monitor.base_frame)
        );
    } else if !config.monitor.base_frame.is_empty() {
        r2r::log_warn!(
            &logger,
            "base_frame is set but neither robot_footprint nor robot_radius is: the footprint comes from the footprint topic"
        );
    }
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
        tf: Arc::clone(&tf),
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
    let stop_io = StopFlag::new();
    let (started_tx, started_rx) = std::sync::mpsc::channel();
    let io = {
        let sinks = Sinks {
            time: Arc::clone(&time),
            footprints: tf_footprint.is_none().then(|| Arc::clone(&footprints)),
            pending: Arc::clone(&pending),
            tf: Arc::clone(&tf),
            tf_moved: tf_footprint.is_some().then(|| Arc::clone(&tf_moved)),
            reliability: config.input_reliability,
            velocity: velocities.as_ref().map(|slot| {
                (
                    config.velocity_topic.clone(),
                    config.velocity_type,
                    Arc::clone(slot),
                )
            }),
        };
        let stop = stop_io.clone();
        std::thread::Builder::new()
            .name("ros_io".into())
            .spawn(move || io_thread(node, sinks, stop, started_tx))?
    };
    let stop_workers = |stop_io: &StopFlag| {
        stop_io.stop();
        pending.stop();
        reports.stop();
    };
    match started_rx.recv() {
        Ok(Ok(())) => {}
        Ok(Err(e)) => {
            stop_workers(&stop_io);
            return Err(e.into());
        }
        Err(_) => {
            stop_workers(&stop_io);
            return Err("the ROS thread ended during start-up".into());
        }
    }

    let mut decision = Decision {
        monitor,
        robot: config.robot_shape(),
        time,
        pending: Arc::clone(&pending),
        footprints: Arc::clone(&footprints),
        tf,
        tf_footprint,
        tf_log: std::time::Instant::now(),
        reports: Arc::clone(&reports),
        logger: logger.clone(),
        collision,
        report_pub,
        markers_pub,
        flag_msg: NativeMsg::new(),
        changes: ChangeLog::default(),
        warnings: Warnings::new(&logger),
        parameter_log: Throttle::default(),
        prediction: velocities.map(|velocities| PredictionOutput {
            velocities,
            ahead: ahead_pub,
            ahead_msg: NativeMsg::new(),
        }),
        jobs: Cancel::new(),
        config,
    };
    if let Some(topic) =
        (!decision.config.velocity_topic.is_empty()).then_some(&decision.config.velocity_topic)
    {
        r2r::log_info!(
            &logger,
            "prediction: {} on {} over {} s, collision_ahead published",
            decision.config.velocity_type,
            shown(topic),
            decision.config.monitor.time_horizon
        );
        if decision.config.velocity_type == VelocityType::Twist
            && decision.config.monitor.base_frame.is_empty()
        {
            r2r::log_warn!(
                &logger,
                "velocity_type twist without base_frame: a Twist names no frame, so it is \
                 never predicted (prediction_status unknown_velocity_frame, collision_ahead \
                 true with fail_safe); set base_frame"
            );
        }
    }

    // Registered once, before "started" is logged: a Ctrl-C that arrives while a
    // message is being handled is not lost.
    let mut signals = ShutdownSignals::register()?;
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
    let mut path_answers = FuturesUnordered::new();

    loop {
        tokio::select! {
            biased;
            () = signals.recv() => break,
            () = footprints.ready() => decision.on_footprint(),
            // A `/tf` message while the footprint comes from TF: the robot
            // moved; decide now, as at a tick.
            () = tf_moved.notified() => decision.tick(),
            Ok(()) = sets_rx.changed() => {
                let set = Arc::clone(&sets_rx.borrow_and_update());
                decision.on_obstacle_set(set);
            }
            _ = tick.tick() => decision.tick(),
            Some((name, _)) = param_events.next() => decision.on_parameter(&name, &params),
            Some(mut req) = service.next() => {
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
                let response = match answer {
                    Ok(Ok(response)) => response,
                    // Cancelled: only at shutdown, which ends this loop first.
                    Ok(Err(Cancelled)) => continue,
                    Err(_) => CheckPath::Response {
                        valid: false,
                        status: Status::InternalError.as_str().to_owned(),
                        first_collision: 0,
                        ..Default::default()
                    },
                };
                if let Err(e) = req.respond(response) {
                    decision.warnings.warn("service", || format!("could not answer check_path: {e}"));
                }
            }
            Some((req, answer)) = answers.next(), if !answers.is_empty() => {
                let response = match answer {
                    Ok(Ok(response)) => response,
                    Ok(Err(Cancelled)) => continue,
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
    // Running service jobs stop within a pose; nothing waits for them
    // (their answers are dropped with `answers`, and the runtime is shut
    // down without waiting: `sat_collision_node`'s `main`).
    decision.jobs.cancel();
    stop_workers(&stop_io);
    let _ = io.join();
    let _ = obstacle_thread.join();
    let _ = report_thread.join();
    Ok(())
}
