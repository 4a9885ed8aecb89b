//! The decision loop's state: takes each input from its slot, hands it to
//! the core ([`crate::node::Core`]) at the time the clock reads, and
//! publishes what the core answers: the flag first, then the prediction,
//! the gate's command, state and zones, and a report job for the report
//! worker. It also takes what a `check_footprint` or `check_path` request
//! needs.

use super::change_log::{ChangeLog, LogLine};
use super::gate::GateEdge;
use super::logging::{Admit, Throttle, Warnings};
use super::report_worker::{ReportJob, ReportSlot};
use super::ros_time::RosTime;
use super::service::{PathJob, ServiceJob};
use super::threads::lock;
use crate::broadphase::PointSet;
use crate::fleet::{PeerMessage, Refusal};
use crate::monitor::ObstacleSet;
use crate::node::{Core, Now, Outputs};
use crate::planner::Cancel;
use crate::ros::fleet::LatestFleet;
use crate::ros::inputs::{
    Arrival, CheckedRequest, LatestFootprint, LatestVelocity, PendingObstacles,
};
use crate::ros::params::Params;
use crate::ros::sources::{LatestSources, SourceInput};
use r2r::sat_collision_msgs::msg::{CollisionReport, FleetRobot};
use r2r::sat_collision_msgs::srv::{CheckFootprint, CheckPath};
use r2r::std_msgs::msg::Bool;
use r2r::visualization_msgs::msg::MarkerArray;
use r2r::{NativeMsg, Publisher};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// TF's refusals are summed and logged at most this often.
const TF_LOG_PERIOD: std::time::Duration = std::time::Duration::from_secs(5);

/// The decision loop's state.
pub(super) struct Decision {
    /// The decisions.
    pub(super) core: Core,
    /// What the core answered the current event with.
    out: Outputs,
    /// The parameters (the core follows them by their revision).
    pub(super) params: Arc<Mutex<Params>>,
    pub(super) time: Arc<RosTime>,
    pub(super) pending: Arc<PendingObstacles>,
    pub(super) footprints: Arc<LatestFootprint>,
    /// The sensor sources' newest inputs, a buffer to take them into and
    /// the point buffers they replaced.
    pub(super) sources: Arc<LatestSources>,
    pub(super) source_inputs: Vec<(SourceInput, Arrival)>,
    spare: Vec<PointSet>,
    /// With `velocity_topic`: the newest velocity.
    pub(super) velocities: Option<Arc<LatestVelocity>>,
    /// With a fleet source: the other robots' messages, and a buffer to
    /// take them into.
    pub(super) fleet: Option<Arc<LatestFleet>>,
    fleet_inputs: Vec<(Result<PeerMessage, Refusal>, f64)>,
    /// With a `robot_id`: this robot on `fleet_topic`.
    pub(super) fleet_pub: Option<Publisher<FleetRobot>>,
    /// When TF's refusals were last logged.
    pub(super) tf_log: Instant,
    pub(super) reports: Arc<ReportSlot>,
    pub(super) logger: String,
    pub(super) collision: Publisher<Bool>,
    /// `collision_ahead` (published only with `velocity_topic`).
    pub(super) ahead: Publisher<Bool>,
    /// Subscriber counts only: the report worker publishes on them.
    pub(super) report_pub: Publisher<CollisionReport>,
    pub(super) markers_pub: Publisher<MarkerArray>,
    /// The `collision` and `collision_ahead` messages, published in place
    /// (r2r's `publish` would build a new C message each time).
    pub(super) flag_msg: NativeMsg<Bool>,
    pub(super) ahead_msg: NativeMsg<Bool>,
    pub(super) changes: ChangeLog,
    pub(super) warnings: Warnings,
    /// "parameter ... changed" lines, throttled per parameter.
    pub(super) parameter_log: Throttle,
    /// Set at shutdown: every running service job stops.
    pub(super) jobs: Cancel,
    /// The velocity gate's edge, when `polygons` names zones.
    pub(super) gate: Option<GateEdge>,
    /// The `visualize` exclusion zones' publishers, when there are some.
    pub(super) exclusion: Option<super::exclusion::ExclusionEdge>,
}

/// The parts of a [`Decision`] made at configure.
pub(super) struct DecisionParts {
    pub(super) core: Core,
    pub(super) params: Arc<Mutex<Params>>,
    pub(super) time: Arc<RosTime>,
    pub(super) pending: Arc<PendingObstacles>,
    pub(super) footprints: Arc<LatestFootprint>,
    pub(super) sources: Arc<LatestSources>,
    pub(super) velocities: Option<Arc<LatestVelocity>>,
    pub(super) fleet: Option<Arc<LatestFleet>>,
    pub(super) fleet_pub: Option<Publisher<FleetRobot>>,
    pub(super) reports: Arc<ReportSlot>,
    pub(super) logger: String,
    pub(super) collision: Publisher<Bool>,
    pub(super) ahead: Publisher<Bool>,
    pub(super) report_pub: Publisher<CollisionReport>,
    pub(super) markers_pub: Publisher<MarkerArray>,
}

impl Decision {
    /// The decision of `parts`, without a gate yet.
    pub(super) fn new(parts: DecisionParts) -> Self {
        Decision {
            core: parts.core,
            out: Outputs::default(),
            params: parts.params,
            time: parts.time,
            pending: parts.pending,
            footprints: parts.footprints,
            sources: parts.sources,
            source_inputs: Vec::new(),
            spare: Vec::new(),
            velocities: parts.velocities,
            fleet: parts.fleet,
            fleet_inputs: Vec::new(),
            fleet_pub: parts.fleet_pub,
            tf_log: Instant::now(),
            reports: parts.reports,
            warnings: Warnings::new(&parts.logger),
            logger: parts.logger,
            collision: parts.collision,
            ahead: parts.ahead,
            report_pub: parts.report_pub,
            markers_pub: parts.markers_pub,
            flag_msg: NativeMsg::new(),
            ahead_msg: NativeMsg::new(),
            changes: ChangeLog::default(),
            parameter_log: Throttle::default(),
            jobs: Cancel::new(),
            gate: None,
            exclusion: None,
        }
    }

    /// The time of the next event: the newest velocity is handed to the
    /// core first (its arrival is then never after the reading, which
    /// would read as a clock that jumped back), then the clock read.
    fn now(&mut self) -> Now {
        let velocity = self.velocities.as_ref().and_then(|slot| slot.take());
        let now = Now {
            reading: self.time.read(),
            pending_obstacles: self.pending.pending_since(),
        };
        if let Some((input, arrival)) = velocity {
            self.core.on_velocity(&input, arrival, now, &mut self.out);
        }
        now
    }

    /// Publishes what the core answered, in order: the gate's command,
    /// state and zones, then the flag (what a safety consumer waits for),
    /// the prediction, and the report job when a report, markers or a log
    /// line may be wanted; then logs the notices.
    fn publish(&mut self, now: Now) {
        if let Some(gate) = &mut self.gate {
            gate.publish(&self.core, &self.out, now.ros());
        }
        if let Some(flag) = self.out.flag {
            self.flag_msg.data = flag.colliding;
            if let Err(e) = self.collision.publish_native(&mut self.flag_msg) {
                self.warnings
                    .warn("publish", || format!("could not publish collision: {e}"));
            }
        }
        if let Some(ahead) = self.out.ahead {
            self.ahead_msg.data = ahead;
            if let Err(e) = self.ahead.publish_native(&mut self.ahead_msg) {
                self.warnings.warn("publish", || {
                    format!("could not publish collision_ahead: {e}")
                });
            }
        }
        if let (true, Some(flag)) = (self.out.report, self.out.flag) {
            self.submit_report(flag);
        }
        if let (Some(robot), Some(publisher)) = (self.out.fleet_robot.take(), &self.fleet_pub) {
            if let Err(e) = publisher.publish(&crate::ros::fleet::message_of(&robot)) {
                self.warnings.warn("publish", || {
                    format!("could not publish this robot on the fleet topic: {e}")
                });
            }
        }
        self.warnings.notices(&mut self.out.notices);
        self.out.clear();
        self.log_tf();
    }

    /// Hands the state to the report worker when a report, markers or a
    /// log line may be wanted.
    fn submit_report(&mut self, flag: crate::model::Flag) {
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
                monitor: self.core.monitor().clone(),
                log,
                predict: !self.core.config().velocity_topic.is_empty(),
            });
        }
    }

    /// Logs what TF refused since the last time, summed over the period.
    fn log_tf(&mut self) {
        if self.tf_log.elapsed() < TF_LOG_PERIOD {
            return;
        }
        self.tf_log = Instant::now();
        let intake = lock(self.core.tf()).take_intake();
        if !intake.is_clean() {
            r2r::log_warn!(
                &self.logger,
                "TF refused in the last {} s: {intake}",
                TF_LOG_PERIOD.as_secs()
            );
        }
    }

    /// Makes the core follow the parameters when they changed (by their
    /// revision: whether or not their change events arrived), and the
    /// clock's stall limit with them.
    fn follow_parameters(&mut self) {
        let params = lock(&self.params);
        let revision = params.revision();
        if self.core.follow(revision, || params.0.clone()) {
            drop(params);
            *lock(&self.time.stall_limit) = self.core.stall_limit();
        }
    }

    /// Other robots' fleet messages: taken in, then a decision.
    pub(super) fn on_fleet(&mut self) {
        let Some(slot) = &self.fleet else {
            return;
        };
        slot.take(&mut self.fleet_inputs);
        if self.fleet_inputs.is_empty() {
            return;
        }
        self.follow_parameters();
        let now = self.now();
        self.core
            .on_fleet(&mut self.fleet_inputs, now, &mut self.out);
        self.publish(now);
    }

    /// A decision at `publish_rate` (and at each `/tf` message while the
    /// footprint comes from TF).
    pub(super) fn tick(&mut self) {
        self.follow_parameters();
        let now = self.now();
        self.core.tick(now, &mut self.out);
        self.publish(now);
        if let (Some(edge), true) = (&mut self.exclusion, self.core.is_active()) {
            let tf = Arc::clone(self.core.tf());
            edge.publish(&self.core, &lock(&tf), now.ros(), &self.logger);
        }
        self.log_parameters_counted();
    }

    /// A command for the gate: gated and published before anything else.
    pub(super) fn on_command(&mut self) {
        let now = self.now();
        let Some(gate) = &mut self.gate else {
            return;
        };
        let Some((command, arrival)) = gate.take_command() else {
            return;
        };
        self.core.on_command(command, arrival, now, &mut self.out);
        self.publish(now);
    }

    /// New shapes of the gate's dynamic zones.
    pub(super) fn on_zone_shapes(&mut self) {
        let now = Now::of(self.time.read());
        let Some(gate) = &mut self.gate else {
            return;
        };
        let shapes = gate.take_shapes();
        self.core.on_zone_shapes(shapes, now, &mut self.out);
        self.publish(now);
    }

    /// A request to a source's `add_exclusion_zone` or
    /// `remove_exclusion_zone`: answered by the core (its readers mask with
    /// the zones from their next message).
    pub(super) fn on_exclusion(&mut self, request: super::exclusion::ExclusionRequest) {
        super::exclusion::answer(&mut self.core, request, &self.logger);
    }

    /// A `~/toggle` request: sets `enabled`.
    pub(super) fn on_toggle(
        &mut self,
        request: r2r::ServiceRequest<r2r::nav2_msgs::srv::Toggle::Service>,
    ) {
        if let Some(gate) = &mut self.gate {
            gate.toggle(request, &self.params, &mut self.core);
        }
    }

    pub(super) fn on_footprint(&mut self) {
        let Some((input, arrival)) = self.footprints.take() else {
            return;
        };
        let now = self.now();
        self.core.on_footprint(&input, arrival, now, &mut self.out);
        self.footprints.give_back(input);
        self.publish(now);
    }

    /// Takes the sources' newest inputs into the core, then decides.
    pub(super) fn on_sources(&mut self) {
        let mut inputs = std::mem::take(&mut self.source_inputs);
        self.sources.take(&mut inputs);
        if inputs.is_empty() {
            self.source_inputs = inputs;
            return;
        }
        let now = self.now();
        self.core
            .on_sources(&mut inputs, &mut self.spare, now, &mut self.out);
        self.source_inputs = inputs;
        for points in self.spare.drain(..) {
            self.sources.give_back(points);
        }
        self.publish(now);
    }

    pub(super) fn on_obstacle_set(&mut self, set: Arc<ObstacleSet>) {
        let now = self.now();
        self.core.on_obstacle_set(set, now, &mut self.out);
        self.publish(now);
    }

    pub(super) fn on_parameter(&mut self, name: &str) {
        self.follow_parameters();
        // Every change applies; a flood of them is logged once per 5 s per
        // parameter, with a count.
        // A source's parameter (`<name>.enabled`) is throttled with the
        // others of its kind, and logged by its own name.
        let key = match crate::config::param(name) {
            Some(spec) => spec.name,
            None if self.core.config().runtime(name).is_some() => "<source>.enabled",
            None => "(other)",
        };
        let shown = if key == "(other)" { key } else { name };
        let shown = super::logging::shown(shown);
        match self.parameter_log.admit(key, Instant::now()) {
            Admit::Log(0) => r2r::log_info!(&self.logger, "parameter {shown} changed"),
            Admit::Log(n) => r2r::log_info!(
                &self.logger,
                "parameter {shown} changed ({n} earlier changes not logged)"
            ),
            Admit::Counted => {}
        }
        self.tick();
    }

    /// Logs the changes of parameters counted and not logged, once their
    /// period is over (a flood that stopped).
    fn log_parameters_counted(&mut self) {
        for (key, n) in self.parameter_log.overdue(Instant::now()) {
            r2r::log_info!(
                &self.logger,
                "parameter {key} changed {n} more times, not logged one by one"
            );
        }
    }

    /// Activate (`true`): the core publishes again, at once; deactivate:
    /// nothing is published.
    pub(super) fn set_active(&mut self, active: bool) {
        self.follow_parameters();
        let now = self.now();
        self.core.set_active(active, now, &mut self.out);
        self.publish(now);
    }

    /// The publishers, to destroy at cleanup (the gate's too).
    pub(super) fn release(self) -> Vec<super::threads::Release> {
        let mut all = vec![
            super::threads::release(self.collision),
            super::threads::release(self.ahead),
            super::threads::release(self.report_pub),
            super::threads::release(self.markers_pub),
        ];
        if let Some(gate) = self.gate {
            all.extend(gate.release());
        }
        if let Some(exclusion) = self.exclusion {
            all.extend(exclusion.release());
        }
        all
    }

    /// What a `check_footprint` request needs, taken now; the work itself
    /// runs elsewhere.
    pub(super) fn service_job(
        &mut self,
        request: CheckedRequest<CheckFootprint::Request>,
    ) -> ServiceJob {
        let now = self.now();
        let monitor = self.core.snapshot(now);
        ServiceJob {
            monitor,
            robot: self.core.robot().clone(),
            fail_safe: self.core.config().monitor.fail_safe,
            max_checks: self.core.config().max_service_checks,
            time: Arc::clone(&self.time),
            cancel: self.jobs.clone(),
            request,
        }
    }

    /// What a `check_path` request needs, taken now.
    pub(super) fn path_job(&mut self, request: CheckedRequest<CheckPath::Request>) -> PathJob {
        let now = self.now();
        let monitor = self.core.snapshot(now);
        PathJob {
            monitor,
            robot: self.core.robot().clone(),
            fail_safe: self.core.config().monitor.fail_safe,
            max_checks: self.core.config().max_service_checks,
            time: Arc::clone(&self.time),
            tf: Arc::clone(self.core.tf()),
            cancel: self.jobs.clone(),
            request,
        }
    }
}
