//! What configure makes and cleanup releases: the monitors (with the
//! `zones_file`'s zones), the publishers, the gate, the slots the threads
//! share, the obstacle and report workers, the inputs' subscriptions on the
//! I/O thread and the decision. Activate and deactivate only switch the
//! outputs ([`Pipeline::set_active`]): the inputs keep arriving while
//! inactive, so an activated node decides on fresh data at once.

use super::decision::{Decision, DecisionParts};
use super::exclusion::{self, ExclusionEdge, ExclusionRequest, ExclusionRequests};
use super::gate::{self, GateEdge, GateEndpoints, GateParts, ToggleRequests};
use super::io_thread::{IoThread, Sinks};
use super::logging::{shown, Warnings};
use super::obstacle_worker::ObstacleWorker;
use super::report_worker::{ReportSlot, ReportWorker};
use super::ros_time::{stall_limit, RosTime};
use super::threads::lock;
use super::threads::{release, Release};
use crate::config::{NodeConfig, VelocityType};
use crate::geometry::Shape;
use crate::model::Report;
use crate::monitor::ObstacleSet;
use crate::node::{Core, ExclusionZones, ObstacleStage};
use crate::ros::fleet::LatestFleet;
use crate::ros::inputs::{LatestFootprint, LatestVelocity, PendingObstacles};
use crate::ros::markers::MarkerBuilder;
use crate::ros::params::Params;
use crate::ros::sources::{LatestSources, SourceReader};
use crate::ros::tf::TfBuffer;
use r2r::sat_collision_msgs::msg::CollisionReport;
use r2r::sat_collision_msgs::msg::FleetRobot;
use r2r::std_msgs::msg::Bool;
use r2r::visualization_msgs::msg::MarkerArray;
use r2r::{Publisher, QosProfile};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The node's outputs, made at configure on the I/O thread (which owns
/// the node) and destroyed at cleanup.
struct Publishers {
    collision: Publisher<Bool>,
    /// Published only with `velocity_topic`.
    ahead: Publisher<Bool>,
    report: Publisher<CollisionReport>,
    markers: Publisher<MarkerArray>,
    /// The velocity gate's, when it has zones.
    gate: Option<GateEndpoints>,
    /// The point sources' exclusion zone services.
    exclusion: futures::stream::BoxStream<'static, ExclusionRequest>,
    /// The `visualize` exclusion zones' publishers.
    exclusion_edge: Option<ExclusionEdge>,
    /// This robot on `fleet_topic`, with a `robot_id`.
    fleet: Option<Publisher<FleetRobot>>,
}

impl Publishers {
    fn create(node: &mut r2r::Node, config: &NodeConfig) -> r2r::Result<Self> {
        let gate = match config.gate.zones.is_empty() {
            true => None,
            false => Some(GateEndpoints::create(node, &config.gate)?),
        };
        Ok(Publishers {
            collision: node.create_publisher::<Bool>("collision", QosProfile::default())?,
            ahead: node.create_publisher::<Bool>("collision_ahead", QosProfile::default())?,
            report: node
                .create_publisher::<CollisionReport>("collision_report", QosProfile::default())?,
            markers: node
                .create_publisher::<MarkerArray>("collision_markers", QosProfile::default())?,
            gate,
            exclusion: exclusion::create(node, config)?,
            exclusion_edge: ExclusionEdge::create(node, config)?,
            fleet: match config.fleet.robot_id.is_empty() {
                true => None,
                false => Some(node.create_publisher::<FleetRobot>(
                    &config.fleet_topic,
                    crate::ros::fleet::publisher_qos(config.fleet.timeout),
                )?),
            },
        })
    }
}

/// What the threads share: the clock, the parameters, the slots inputs go
/// through and the TF buffer.
pub(super) struct Shared {
    time: Arc<RosTime>,
    params: Arc<Mutex<Params>>,
    pub(super) footprints: Arc<LatestFootprint>,
    /// With `velocity_topic`.
    velocities: Option<Arc<LatestVelocity>>,
    tf: Arc<Mutex<TfBuffer>>,
    /// The robot's shape when the footprint comes from TF (`base_frame`).
    tf_footprint: Option<Shape>,
    /// Woken by each `/tf` message while the footprint comes from TF.
    pub(super) tf_moved: Arc<tokio::sync::Notify>,
    pending: Arc<PendingObstacles>,
    reports: Arc<ReportSlot>,
    pub(super) sources: Arc<LatestSources>,
    /// With a fleet source: the other robots' messages.
    pub(super) fleet: Option<Arc<LatestFleet>>,
    /// Lifecycle: the report worker publishes only while this is set.
    outputs: Arc<AtomicBool>,
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
            reports: Arc::new(ReportSlot::new(Duration::from_secs_f64(
                1.0 / config.publish_rate,
            ))),
            sources: Arc::new(LatestSources::default()),
            fleet: config
                .monitor
                .sources
                .iter()
                .any(|s| s.kind == crate::monitor::SourceKind::Fleet)
                .then(|| Arc::new(LatestFleet::default())),
            outputs: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Stops the workers (they end within their wait).
    fn stop_workers(&self) {
        self.pending.stop();
        self.reports.stop();
    }
}

/// The worker threads, running.
struct Workers {
    obstacles: JoinHandle<()>,
    report: JoinHandle<()>,
}

/// What the event loop waits for from a configured node.
pub(super) struct Waits {
    /// Obstacle sets built by the obstacle worker.
    pub(super) sets: tokio::sync::watch::Receiver<Arc<ObstacleSet>>,
    /// `~/toggle` (the gate's; never ready without a gate).
    pub(super) toggle: ToggleRequests,
    /// The sources' `add_exclusion_zone` and `remove_exclusion_zone`.
    pub(super) exclusion: ExclusionRequests,
    pub(super) commands: Option<Arc<gate::CommandSlot>>,
    pub(super) shapes: Option<Arc<gate::ZoneShapes>>,
    pub(super) footprints: Arc<LatestFootprint>,
    pub(super) sources: Arc<LatestSources>,
    /// With a fleet source: the other robots' messages.
    pub(super) fleet: Option<Arc<LatestFleet>>,
    pub(super) tf_moved: Arc<tokio::sync::Notify>,
    /// The decision at `publish_rate`.
    pub(super) tick: tokio::time::Interval,
}

/// A configured node: everything configure made.
pub(super) struct Pipeline {
    pub(super) decision: Decision,
    shared: Shared,
    workers: Workers,
    active: bool,
}

impl Pipeline {
    /// Configure: reads the parameters as they are now, loads the zones
    /// file, makes the publishers, starts the workers and subscribes the
    /// inputs. On an error, what was made is released again and the
    /// reason returned.
    pub(super) async fn configure(
        io: &IoThread,
        params: &Arc<Mutex<Params>>,
        time: &Arc<RosTime>,
        logger: &str,
    ) -> Result<(Pipeline, Waits), String> {
        let config = lock(params).0.clone();
        *lock(&time.stall_limit) = stall_limit(&config);
        let shared = Shared::new(&config, Arc::clone(time), Arc::clone(params));
        let (core, stage, notices) = Core::configure(config.clone(), Arc::clone(&shared.tf))?;
        Warnings::new(logger).notices(&mut { notices });
        let started = Instant::now();
        let core = core
            .with_stopwatch(Box::new(move || started.elapsed().as_secs_f64()))
            .with_fleet_session(fleet_session());
        let for_io = config.clone();
        let publishers = io
            .with_node(move |node| Publishers::create(node, &for_io).map_err(|e| e.to_string()))
            .await??;
        let Publishers {
            collision,
            ahead,
            report,
            markers,
            gate,
            exclusion,
            exclusion_edge,
            fleet,
        } = publishers;
        let mut made = vec![
            release(collision.clone()),
            release(ahead.clone()),
            release(report.clone()),
            release(markers.clone()),
        ];
        made.extend(fleet.clone().map(release));
        let gate = gate.map(|e| GateEdge::create(e, &config.gate, logger));
        let (sets, sets_rx) = tokio::sync::watch::channel(Arc::clone(stage.obstacle_set()));
        let workers =
            match start_workers(stage, sets, &shared, (&report, &markers), &config, logger) {
                Ok(workers) => workers,
                Err(e) => {
                    shared.stop_workers();
                    release_all(io, gate_releases(gate.map(|parts| parts.edge), made)).await;
                    return Err(e.to_string());
                }
            };
        let (gate, gate_sinks, toggle) = match gate {
            Some(GateParts {
                edge,
                sinks,
                toggle,
            }) => (Some(edge), Some(sinks), Some(toggle)),
            None => (None, None, None),
        };
        let sinks = sinks(&shared, &config, gate_sinks, core.exclusion_zones());
        if let Err(e) = io.subscribe(sinks).await {
            shared.stop_workers();
            let _ = workers.obstacles.join();
            let _ = workers.report.join();
            release_all(io, gate_releases(gate, made)).await;
            return Err(e);
        }
        let mut decision = Decision::new(DecisionParts {
            core,
            params: Arc::clone(&shared.params),
            time: Arc::clone(&shared.time),
            pending: Arc::clone(&shared.pending),
            footprints: Arc::clone(&shared.footprints),
            sources: Arc::clone(&shared.sources),
            velocities: shared.velocities.clone(),
            fleet: shared.fleet.clone(),
            fleet_pub: fleet,
            reports: Arc::clone(&shared.reports),
            logger: logger.to_owned(),
            collision,
            ahead,
            report_pub: report,
            markers_pub: markers,
        });
        let commands = gate.as_ref().map(GateEdge::commands);
        let shapes = gate.as_ref().map(GateEdge::shapes);
        decision.gate = gate;
        decision.exclusion = exclusion_edge;
        log_footprint_source(&config, logger);
        exclusion::log_services(&config, logger);
        log_prediction(&config, logger);
        let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / config.publish_rate));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let waits = Waits {
            sets: sets_rx,
            toggle: toggle
                .unwrap_or_else(|| futures::StreamExt::boxed_local(futures::stream::pending())),
            // Never over (a stream of no services ends at once).
            exclusion: futures::StreamExt::boxed_local(futures::StreamExt::chain(
                exclusion,
                futures::stream::pending(),
            )),
            commands,
            shapes,
            footprints: Arc::clone(&shared.footprints),
            sources: Arc::clone(&shared.sources),
            fleet: shared.fleet.clone(),
            tf_moved: Arc::clone(&shared.tf_moved),
            tick,
        };
        Ok((
            Pipeline {
                decision,
                shared,
                workers,
                active: false,
            },
            waits,
        ))
    }

    /// Report cycles the report worker skipped in the last second (it was
    /// a whole publish period behind).
    pub(super) fn reports_skipped(&self) -> u64 {
        self.shared.reports.skipped_within(Duration::from_secs(1))
    }

    /// True between activate and deactivate.
    pub(super) fn is_active(&self) -> bool {
        self.active
    }

    /// Activate (`true`): every output publishes again, at once;
    /// deactivate: none does (`collision`, `collision_ahead`, the report,
    /// the markers, the gate's command, state and markers).
    pub(super) fn set_active(&mut self, active: bool) {
        self.active = active;
        self.shared.outputs.store(active, Ordering::Relaxed);
        self.decision.set_active(active);
    }

    /// Cleanup: running service jobs stop, the inputs are released (their
    /// subscriptions go back to the I/O thread's pool, where nothing they
    /// take is read), the workers end and are joined, the publishers
    /// destroyed.
    pub(super) async fn release(mut self, io: &IoThread) {
        self.set_active(false);
        self.decision.jobs.cancel();
        io.unsubscribe().await;
        self.shared.stop_workers();
        let _ = self.workers.obstacles.join();
        let _ = self.workers.report.join();
        release_all(io, self.decision.release()).await;
    }

    /// At process exit: as [`release`](Self::release), without destroying
    /// the publishers one by one (the node goes with the process).
    pub(super) fn stop(mut self) {
        self.set_active(false);
        self.decision.jobs.cancel();
        self.shared.stop_workers();
        let _ = self.workers.obstacles.join();
        let _ = self.workers.report.join();
    }
}

/// The gate's publishers (when there is a gate) and the core ones.
fn gate_releases(gate: Option<GateEdge>, mut made: Vec<Release>) -> Vec<Release> {
    if let Some(gate) = gate {
        made.extend(gate.release());
    }
    made
}

/// Destroys `publishers` on the I/O thread.
async fn release_all(io: &IoThread, publishers: Vec<Release>) {
    let _ = io
        .with_node(move |node| {
            for release in publishers {
                release(node);
            }
        })
        .await;
}

/// Starts the obstacle worker (`obstacles`) and the report worker
/// (`report`).
fn start_workers(
    stage: ObstacleStage,
    sets: tokio::sync::watch::Sender<Arc<ObstacleSet>>,
    shared: &Shared,
    (report_pub, markers_pub): (&Publisher<CollisionReport>, &Publisher<MarkerArray>),
    config: &NodeConfig,
    logger: &str,
) -> std::io::Result<Workers> {
    let obstacle_worker = ObstacleWorker {
        stage,
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
        report_pub: report_pub.clone(),
        markers_pub: markers_pub.clone(),
        markers_rate: config.markers_rate,
        logger: logger.to_owned(),
        marker_builder: MarkerBuilder::default(),
        source_points: Vec::new(),
        report: Report::default(),
        last_markers: None,
        warnings: Warnings::new(logger),
        outputs: Arc::clone(&shared.outputs),
    };
    let report_slot = Arc::clone(&shared.reports);
    let report = match std::thread::Builder::new()
        .name("report".into())
        .spawn(move || report_worker.run(&report_slot))
    {
        Ok(report) => report,
        Err(e) => {
            shared.stop_workers();
            let _ = obstacles.join();
            return Err(e);
        }
    };
    Ok(Workers { obstacles, report })
}

/// Where the I/O thread puts what it reads.
fn sinks(
    shared: &Shared,
    config: &NodeConfig,
    gate: Option<gate::GateSinks>,
    zones: &ExclusionZones,
) -> Sinks {
    Sinks {
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
        sources: SourceReader::all(config)
            .into_iter()
            .map(|reader| reader.with_zones(zones))
            .collect(),
        latest_sources: Arc::clone(&shared.sources),
        gate,
        fleet: shared
            .fleet
            .as_ref()
            .map(|slot| (config.fleet_topic.clone(), Arc::clone(slot))),
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

/// This node's fleet session: a number drawn at start (the std's random
/// hasher keys, seeded from the OS), so that a restarted node or a second
/// publisher of its `robot_id` is told apart from it.
fn fleet_session() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    hasher.write_u32(std::process::id());
    hasher.finish()
}
