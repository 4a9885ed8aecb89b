//! The decision loop's state: takes each new footprint and obstacle set,
//! decides and publishes `collision`, hands the state on to the report
//! worker, and takes what a `check_footprint` request needs.

use super::change_log::{ChangeLog, LogLine};
use super::gate::GateNode;
use super::logging::{shown, Admit, Throttle, Warnings};
use super::report_worker::{ReportJob, ReportSlot};
use super::ros_time::{stall_limit, RosTime};
use super::service::{PathJob, ServiceJob};
use super::threads::lock;
use crate::config::{FootprintTextError, NodeConfig};
use crate::diagnostics::{DecisionTimes, InputStats};
use crate::geometry::Shape;
use crate::geometry::Vector;
use crate::model::Flag;
use crate::model::Status;
use crate::monitor::clock::ClockReading;
use crate::monitor::{is_stale, Monitor, ObstacleSet};
use crate::planner::Cancel;
use crate::ros::inputs::{
    Arrival, CheckedRequest, FootprintInput, LatestFootprint, LatestVelocity, PendingObstacles,
};
use crate::ros::params::Params;
use crate::ros::sources::{LatestSources, SourceInput};
use crate::ros::tf::TfBuffer;
use r2r::sat_collision_msgs::msg::CollisionReport;
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
    pub(super) monitor: Monitor,
    /// The parameters as the decision last read them (see
    /// [`follow_parameters`](Self::follow_parameters)).
    pub(super) config: NodeConfig,
    /// The parameters, and the revision `config` was read at.
    pub(super) params: Arc<Mutex<Params>>,
    pub(super) params_revision: u64,
    pub(super) robot: Option<Result<Shape, FootprintTextError>>,
    pub(super) time: Arc<RosTime>,
    pub(super) pending: Arc<PendingObstacles>,
    pub(super) footprints: Arc<LatestFootprint>,
    /// The sensor sources' newest inputs, and a buffer to take them into.
    pub(super) sources: Arc<LatestSources>,
    pub(super) source_inputs: Vec<(SourceInput, Arrival)>,
    pub(super) tf: Arc<Mutex<TfBuffer>>,
    /// The robot's shape when the footprint comes from TF: placed in
    /// `base_frame` at every decision.
    pub(super) tf_footprint: Option<Shape>,
    /// When TF's refusals were last logged.
    pub(super) tf_log: Instant,
    pub(super) reports: Arc<ReportSlot>,
    pub(super) logger: String,
    pub(super) collision: Publisher<Bool>,
    /// Subscriber counts only: the report worker publishes on them.
    pub(super) report_pub: Publisher<CollisionReport>,
    pub(super) markers_pub: Publisher<MarkerArray>,
    /// The `collision` message, published in place (r2r's `publish` would
    /// build a new C message each time).
    pub(super) flag_msg: NativeMsg<Bool>,
    pub(super) changes: ChangeLog,
    pub(super) warnings: Warnings,
    /// "parameter ... changed" lines, throttled per parameter.
    pub(super) parameter_log: Throttle,
    /// With `velocity_topic`: the newest velocity, `collision_ahead` and
    /// its message (published in place).
    pub(super) prediction: Option<PredictionOutput>,
    /// Set at shutdown: every running service job stops.
    pub(super) jobs: Cancel,
    /// The velocity gate, when `polygons` names zones.
    pub(super) gate: Option<GateNode>,
    /// `collision_ahead`'s publisher (also held by `prediction`), to
    /// destroy at cleanup.
    pub(super) ahead_pub: Publisher<Bool>,
    /// Lifecycle: decisions are made in every configured state, published
    /// only while active.
    pub(super) active: bool,
    /// The inputs' ages and rates and the decisions' durations, for
    /// `/diagnostics`.
    pub(super) health: InputsHealth,
}

/// What the prediction needs on the decision loop.
pub(super) struct PredictionOutput {
    pub(super) velocities: Arc<LatestVelocity>,
    pub(super) ahead: Publisher<Bool>,
    pub(super) ahead_msg: NativeMsg<Bool>,
}

impl Decision {
    /// Reads the clock into the monitor; the reading.
    /// The newest velocity is taken first: its arrival is then never
    /// after the reading (which would read as a clock that jumped back).
    fn clock(&mut self) -> ClockReading {
        let velocity = self.prediction.as_ref().and_then(|o| o.velocities.take());
        let reading = self.time.read();
        self.monitor.set_clock(reading.generation, reading.cause);
        if let Some((input, arrival)) = velocity {
            self.health.velocity.record(arrival.time);
            if arrival.generation == reading.generation {
                let timeout = self.monitor.config().velocity_timeout;
                self.warn_stamp("velocity", timeout, input.stamp, arrival);
                match input.rejected {
                    true => self.monitor.reject_velocity(arrival.time),
                    false => self.monitor.set_velocity_at(
                        &input.frame_id,
                        input.stamp,
                        Vector::new(input.linear.0, input.linear.1),
                        input.angular,
                        arrival.time,
                    ),
                }
            }
        }
        self.monitor
            .set_pending_obstacles(self.pending.pending_since());
        reading
    }

    /// Decides and publishes the flag first (it is what a safety consumer
    /// waits for); then hands the state to the report worker when a
    /// report, markers or a log line may be wanted.
    fn publish(&mut self, reading: ClockReading) {
        let now = reading.ros;
        let started = Instant::now();
        self.place(now);
        let flag = self.monitor.flag(now);
        self.health
            .decisions
            .record(now, started.elapsed().as_secs_f64());
        self.health.flag = Some(flag);
        if !self.active {
            return;
        }
        self.flag_msg.data = flag.colliding;
        if let Err(e) = self.collision.publish_native(&mut self.flag_msg) {
            self.warnings
                .warn("publish", || format!("could not publish collision: {e}"));
        }
        // After the flag: the prediction never delays it.
        if let Some(output) = &mut self.prediction {
            let prediction = self.monitor.predict(&lock(&self.tf).tree, now);
            output.ahead_msg.data = prediction.ahead;
            if let Err(e) = output.ahead.publish_native(&mut output.ahead_msg) {
                self.warnings.warn("publish", || {
                    format!("could not publish collision_ahead: {e}")
                });
            }
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
                predict: self.prediction.is_some(),
            });
        }
    }

    /// Places the footprint with the current transforms (the robot's own
    /// shape in `base_frame` first, when it comes from TF), and logs what
    /// TF refused since the last time.
    fn place(&mut self, now: f64) {
        if let Some(shape) = &self.tf_footprint {
            self.monitor
                .set_footprint_shape(&self.config.monitor.base_frame, shape.clone(), now);
        }
        let mut tf = lock(&self.tf);
        self.monitor.place(&tf.tree, now);
        // What TF refused, summed over the warning period.
        if self.tf_log.elapsed() >= TF_LOG_PERIOD {
            let intake = tf.take_intake();
            drop(tf);
            self.tf_log = Instant::now();
            if !intake.is_clean() {
                r2r::log_warn!(
                    &self.logger,
                    "TF refused in the last {} s: {intake}",
                    TF_LOG_PERIOD.as_secs()
                );
            }
        }
    }

    /// Warns (throttled) when an input is stale on arrival by its stamp:
    /// most often the publisher's clock is not the node's.
    fn warn_stamp(&mut self, input: &'static str, timeout: f64, stamp: f64, arrival: Arrival) {
        if is_stale(timeout, arrival.time, arrival.time, stamp) {
            let age = arrival.time - stamp;
            self.warnings.warn(input, || {
                format!(
                    "{input} stamped {age:.3} s before it arrived, beyond its timeout: \
                     stale (is the publisher's clock the node's?)"
                )
            });
        }
    }

    pub(super) fn tick(&mut self) {
        self.follow_parameters();
        let reading = self.clock();
        if let Some(gate) = &mut self.gate {
            gate.on_timer(&self.monitor, &self.tf, reading.ros);
        }
        self.publish(reading);
        self.log_parameters_counted();
    }

    /// A command for the gate: gated and published before anything else.
    pub(super) fn on_command(&mut self) {
        if !self.gate.as_mut().is_some_and(GateNode::take_command) {
            return;
        }
        let reading = self.clock();
        self.health.command.record(reading.ros);
        if let Some(gate) = &mut self.gate {
            gate.on_command(&self.monitor, &self.tf, reading.ros);
        }
    }

    /// New shapes of the gate's dynamic zones.
    pub(super) fn on_zone_shapes(&mut self) {
        let reading = self.time.read();
        if let Some(gate) = &mut self.gate {
            gate.on_shapes(&self.tf, reading.ros);
        }
    }

    /// A `~/toggle` request: sets `enabled`.
    pub(super) fn on_toggle(
        &mut self,
        request: r2r::ServiceRequest<r2r::nav2_msgs::srv::Toggle::Service>,
    ) {
        if let Some(gate) = &mut self.gate {
            gate.toggle(request, &self.params, &mut self.config);
        }
    }

    /// Reads the parameters again when they changed since `config` was
    /// read (whether or not their change events arrived: r2r drops them
    /// beyond 10), and makes the monitor, the clock's stall limit and the
    /// gate follow them. At every change event and every period.
    fn follow_parameters(&mut self) {
        let params = lock(&self.params);
        if params.revision() == self.params_revision {
            return;
        }
        self.params_revision = params.revision();
        self.config = params.0.clone();
        drop(params);
        self.monitor.set_config(self.config.monitor.clone());
        *lock(&self.time.stall_limit) = stall_limit(&self.config);
        if let Some(gate) = &mut self.gate {
            gate.follow(&self.config);
        }
    }

    pub(super) fn on_footprint(&mut self) {
        let Some((input, arrival)) = self.footprints.take() else {
            return;
        };
        let reading = self.clock();
        self.health.footprint.record(arrival.time);
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
            .set_footprint_at(&input.frame_id, input.stamp, &input.points, arrival.time);
        let timeout = self.monitor.config().footprint_timeout;
        self.warn_stamp("footprint", timeout, input.stamp, arrival);
        if let Some(error) = self.monitor.footprint_error() {
            let message = format!(
                "footprint rejected: {} ({} points)",
                Status::from(error),
                input.points.len()
            );
            self.warnings.warn("footprint", || message);
        }
    }

    /// Takes the sources' newest inputs into the monitor, then decides.
    pub(super) fn on_sources(&mut self) {
        let mut inputs = std::mem::take(&mut self.source_inputs);
        self.sources.take(&mut inputs);
        if inputs.is_empty() {
            self.source_inputs = inputs;
            return;
        }
        let reading = self.clock();
        for (input, arrival) in inputs.drain(..) {
            if arrival.generation != reading.generation {
                if let Ok(points) = input.points {
                    self.sources.give_back(points);
                }
                continue;
            }
            self.apply_source(input, arrival);
        }
        self.source_inputs = inputs;
        self.publish(reading);
    }

    fn apply_source(&mut self, input: SourceInput, arrival: Arrival) {
        let Some(spec) = self.config.monitor.sources.get(input.index) else {
            return;
        };
        let name = spec.name.clone();
        if let Some(stats) = self.health.sources.get_mut(input.index) {
            stats.record(arrival.time);
        }
        match input.points {
            Ok(points) => {
                let timeout = spec.timeout;
                let old = self.monitor.recycle_source_points(&name);
                self.sources.give_back(old);
                self.monitor.set_source_points(
                    &name,
                    &input.frame_id,
                    input.stamp,
                    points,
                    arrival.time,
                );
                self.warn_stamp("source", timeout, input.stamp, arrival);
            }
            Err(cause) => {
                self.monitor.reject_source(&name, cause, arrival.time);
                let reason = input.reason;
                self.warnings.warn("source", || {
                    format!(
                        "source {} refused a message: {reason} ({})",
                        shown(&name),
                        crate::model::Status::from(cause)
                    )
                });
            }
        }
    }

    pub(super) fn on_obstacle_set(&mut self, set: Arc<ObstacleSet>) {
        self.monitor.set_obstacle_set(set);
        let reading = self.clock();
        self.health.obstacles.record(reading.ros);
        self.publish(reading);
    }

    pub(super) fn on_parameter(&mut self, name: &str) {
        self.follow_parameters();
        // Every change applies; a flood of them is logged once per 5 s per
        // parameter, with a count.
        // A source's parameter (`<name>.enabled`) is throttled with the
        // others of its kind, and logged by its own name.
        let key = match crate::config::param(name) {
            Some(spec) => spec.name,
            None if self.config.runtime(name).is_some() => "<source>.enabled",
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

    /// The publishers, to destroy at cleanup (the gate's too).
    pub(super) fn release(self) -> Vec<super::threads::Release> {
        let mut all = vec![
            super::threads::release(self.collision),
            super::threads::release(self.ahead_pub),
            super::threads::release(self.report_pub),
            super::threads::release(self.markers_pub),
        ];
        drop(self.prediction);
        if let Some(gate) = self.gate {
            all.extend(gate.release());
        }
        all
    }

    /// What a `check_footprint` request needs, taken now; the work itself
    /// runs elsewhere.
    pub(super) fn service_job(
        &mut self,
        request: CheckedRequest<CheckFootprint::Request>,
    ) -> ServiceJob {
        let reading = self.clock();
        self.place(reading.ros);
        ServiceJob {
            monitor: self.monitor.clone(),
            robot: self.robot.clone(),
            fail_safe: self.config.monitor.fail_safe,
            max_checks: self.config.max_service_checks,
            time: Arc::clone(&self.time),
            cancel: self.jobs.clone(),
            request,
        }
    }

    /// What a `check_path` request needs, taken now.
    pub(super) fn path_job(&mut self, request: CheckedRequest<CheckPath::Request>) -> PathJob {
        let reading = self.clock();
        self.place(reading.ros);
        PathJob {
            monitor: self.monitor.clone(),
            robot: self.robot.clone(),
            fail_safe: self.config.monitor.fail_safe,
            max_checks: self.config.max_service_checks,
            time: Arc::clone(&self.time),
            tf: Arc::clone(&self.tf),
            cancel: self.jobs.clone(),
            request,
        }
    }
}

/// The decision loop's statistics of its inputs and decisions.
pub(super) struct InputsHealth {
    pub(super) footprint: InputStats,
    pub(super) obstacles: InputStats,
    pub(super) velocity: InputStats,
    pub(super) command: InputStats,
    /// Aligned with `observation_sources`.
    pub(super) sources: Vec<InputStats>,
    pub(super) decisions: DecisionTimes,
    /// The last decision's flag.
    pub(super) flag: Option<Flag>,
}

impl InputsHealth {
    pub(super) fn new(config: &NodeConfig) -> Self {
        InputsHealth {
            footprint: InputStats::new(),
            obstacles: InputStats::new(),
            velocity: InputStats::new(),
            command: InputStats::new(),
            sources: config.sources.iter().map(|_| InputStats::new()).collect(),
            decisions: DecisionTimes::new(),
            flag: None,
        }
    }
}
