//! [`Core`]: the node's decisions as a machine driven by events, the time
//! injected with each.

use super::exclusion::ExclusionZones;
use super::fleet::FleetCore;
use super::gate::GateCore;
use super::inputs::{Arrival, CommandIn, FootprintInput, ShapeInput, SourceInput, VelocityInput};
use super::obstacles::ObstacleStage;
use super::outputs::{shown, Notice, Outputs};
use super::stats::InputsHealth;
use super::tf::TfBuffer;
use super::zones::load_zones;
use crate::broadphase::PointSet;
use crate::config::{FootprintTextError, NodeConfig};
use crate::geometry::{Point, Shape, Vector};
use crate::model::{Flag, Status};
use crate::monitor::clock::ClockReading;
use crate::monitor::{is_stale, Monitor, ObstacleSet};
use std::sync::{Arc, Mutex, MutexGuard};

/// The time an event is handled at: the clock's reading (ROS time, its
/// generation and its fault) and, when obstacles are validated on another
/// thread, since when newer obstacle input has waited for it (`None`:
/// nothing waits; see
/// [`MonitorConfig::overload_timeout`](crate::monitor::MonitorConfig::overload_timeout)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Now {
    /// The clock's reading.
    pub reading: ClockReading,
    /// Since when obstacle input has waited to be taken in.
    pub pending_obstacles: Option<f64>,
}

impl Now {
    /// `reading`, nothing waiting.
    pub fn of(reading: ClockReading) -> Self {
        Now {
            reading,
            pending_obstacles: None,
        }
    }

    /// ROS time (s).
    pub fn ros(&self) -> f64 {
        self.reading.ros
    }
}

/// A steady clock (s) to time decisions with, for `/diagnostics`; without
/// one none are timed (a replay is then the same bytes every run).
pub type Stopwatch = Box<dyn Fn() -> f64 + Send>;

/// The node's decisions, without ROS: the monitor (the flag, the report's
/// state, the prediction), the velocity gate, the frame tree, the inputs'
/// statistics and the lifecycle's switch of the outputs. Every method is
/// an event handled at the time it is given and answers with the
/// [`Outputs`] to publish: the same events in give the same outputs out.
///
/// The node holds one between configure and cleanup and feeds it what its
/// subscriptions read (`ros::node`); `sat_collision replay` feeds it a
/// recorded bag.
pub struct Core {
    monitor: Monitor,
    /// The parameters as last followed.
    config: NodeConfig,
    /// The revision `config` was read at (`u64::MAX`: none yet).
    revision: u64,
    robot: Option<Result<Shape, FootprintTextError>>,
    tf: Arc<Mutex<TfBuffer>>,
    /// The robot's shape when the footprint comes from TF: placed in
    /// `base_frame` at every decision.
    tf_footprint: Option<Shape>,
    gate: Option<GateCore>,
    health: InputsHealth,
    active: bool,
    /// The obstacle stage, when the core runs it itself (a replay).
    stage: Option<ObstacleStage>,
    stopwatch: Option<Stopwatch>,
    /// The sources' exclusion zones, shared with their readers.
    exclusion: ExclusionZones,
    /// The other robots, and this one's state for them.
    fleet: FleetCore,
}

impl std::fmt::Debug for Core {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Core")
            .field("active", &self.active)
            .field("gate", &self.gate.is_some())
            .finish_non_exhaustive()
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Core {
    /// Configure: the core of `config` (parameters as they are now), its
    /// `zones_file` loaded, on the TF buffer `tf`; and the obstacle stage,
    /// which holds the obstacle set and runs where the caller wants it
    /// (inline: [`with_stage`](Self::with_stage)).
    pub fn configure(
        config: NodeConfig,
        tf: Arc<Mutex<TfBuffer>>,
    ) -> Result<(Core, ObstacleStage, Vec<Notice>), String> {
        let mut notices = Vec::new();
        let mut obstacle_monitor = Monitor::new(config.monitor.clone());
        if !config.zones_file.is_empty() {
            let (frame, zones) = load_zones(&config.zones_file)?;
            notices.push(Notice::once(
                super::outputs::Level::Info,
                format!(
                    "{} keep-out zones from {} (frame {})",
                    zones.len(),
                    shown(&config.zones_file),
                    shown(&frame)
                ),
            ));
            obstacle_monitor.set_zones(&frame, zones);
        }
        let mut monitor = Monitor::new(config.monitor.clone());
        monitor.set_obstacle_set(Arc::clone(obstacle_monitor.obstacle_set()));
        let gate = match config.gate.zones.is_empty() {
            true => None,
            false => Some(GateCore::new(&config).map_err(|e| e.to_string())?),
        };
        let core = Core {
            monitor,
            robot: config.robot_shape(),
            tf,
            tf_footprint: config.footprint_from_tf(),
            gate,
            health: InputsHealth::new(&config),
            active: false,
            stage: None,
            stopwatch: None,
            exclusion: ExclusionZones::new(&config),
            fleet: FleetCore::new(&config, 0),
            config,
            revision: u64::MAX,
        };
        Ok((core, ObstacleStage::new(obstacle_monitor), notices))
    }

    /// Runs `stage` inline: obstacle input is taken in at once
    /// ([`on_obstacles`](Self::on_obstacles)) and instances expire at
    /// every tick.
    pub fn with_stage(mut self, stage: ObstacleStage) -> Self {
        self.stage = Some(stage);
        self
    }

    /// This node's fleet session (drawn by the node at start; 0 in a
    /// replay): its own messages heard back are not a peer, another
    /// publisher of its `robot_id` is a conflict.
    pub fn with_fleet_session(mut self, session: u64) -> Self {
        self.fleet = FleetCore::new(&self.config, session);
        self
    }

    /// The fleet (peers kept, their statuses).
    pub fn fleet(&self) -> &FleetCore {
        &self.fleet
    }

    /// Other robots' fleet messages (each with its arrival time), then a
    /// decision (the flag with the peers moved).
    pub fn on_fleet(
        &mut self,
        messages: &mut Vec<(
            Result<crate::fleet::PeerMessage, crate::fleet::Refusal>,
            f64,
        )>,
        now: Now,
        out: &mut Outputs,
    ) {
        if messages.is_empty() {
            return;
        }
        self.clock(now);
        self.health.fleet.record(now.ros());
        self.fleet.receive(messages, &mut out.notices);
        self.decide(now, out);
    }

    /// A fleet publisher's liveliness was lost: its peer reads stale.
    pub fn on_fleet_liveliness_lost(&mut self, robot_id: &str, now: Now) {
        self.fleet.liveliness_lost(robot_id, now.ros());
    }

    /// Forgets the fleet's peers (the node's cleanup).
    pub fn forget_fleet(&mut self) {
        self.fleet.clear();
    }

    /// The monitor's fleet source given the peers at `now`.
    fn refresh_fleet(&mut self, now: f64) {
        if !self.fleet.sees() {
            return;
        }
        // The gate looks ahead by each zone's `time_before_collision`:
        // `approach`, and a stop zone's escape (`allow_escape`).
        let gate_horizon = self
            .config
            .gate
            .zones
            .iter()
            .map(|z| z.time_before_collision)
            .fold(0.0, f64::max);
        let horizon = self.config.monitor.time_horizon.max(gate_horizon);
        self.fleet.refresh(&mut self.monitor, now, horizon);
    }

    /// Times each decision with `stopwatch` (for `/diagnostics`).
    pub fn with_stopwatch(mut self, stopwatch: Stopwatch) -> Self {
        self.stopwatch = Some(stopwatch);
        self
    }

    /// The monitor (the flag's state, for a report or a service request).
    pub fn monitor(&self) -> &Monitor {
        &self.monitor
    }

    /// The parameters as last followed.
    pub fn config(&self) -> &NodeConfig {
        &self.config
    }

    /// The robot's shape from `robot_footprint` or `robot_radius`.
    pub fn robot(&self) -> &Option<Result<Shape, FootprintTextError>> {
        &self.robot
    }

    /// The TF buffer.
    pub fn tf(&self) -> &Arc<Mutex<TfBuffer>> {
        &self.tf
    }

    /// Whether the footprint comes from TF (`base_frame` with the robot's
    /// shape) rather than the footprint topic.
    pub fn footprint_from_tf(&self) -> bool {
        self.tf_footprint.is_some()
    }

    /// Whether there is a velocity gate (`polygons` names zones).
    pub fn has_gate(&self) -> bool {
        self.gate.is_some()
    }

    /// The gate, for `/diagnostics`.
    pub fn gate(&self) -> Option<&crate::gate::Gate> {
        self.gate.as_ref().map(|g| &g.gate)
    }

    /// The last command the gate took (its header is the stamped
    /// output's).
    pub fn last_command(&self) -> Option<&CommandIn> {
        self.gate.as_ref().map(|g| &g.command)
    }

    /// Between activate and deactivate.
    pub fn is_active(&self) -> bool {
        self.active
    }

    /// The inputs' statistics and the last flag, for `/diagnostics`.
    pub fn health(&mut self) -> &mut InputsHealth {
        &mut self.health
    }

    /// The clock's stall limit the parameters ask for: the smallest
    /// timeout in force ([`crate::monitor::MonitorConfig::stall_limit`]).
    pub fn stall_limit(&self) -> f64 {
        stall_limit(&self.config)
    }

    /// Follows the parameters when their revision is not the one last
    /// read (whether or not their change events arrived: r2r drops them
    /// beyond 10): the monitor, the clock's stall limit and the gate. At
    /// every change event and every period. `read` gives them.
    pub fn follow(&mut self, revision: u64, read: impl FnOnce() -> NodeConfig) -> bool {
        if revision == self.revision {
            return false;
        }
        self.revision = revision;
        self.config = read();
        self.monitor.set_config(self.config.monitor.clone());
        if let Some(gate) = &mut self.gate {
            gate.follow(&self.config);
        }
        self.exclusion.follow(&self.config);
        self.fleet.invalidate();
        true
    }

    /// The sources' exclusion zones, which their readers mask with
    /// ([`SourceReader::with_zones`](super::SourceReader::with_zones)).
    pub fn exclusion_zones(&self) -> &ExclusionZones {
        &self.exclusion
    }

    /// `~/<source>/add_exclusion_zone`: `zone` (checked by
    /// [`ExclusionZoneConfig::from_description`](crate::config::ExclusionZoneConfig::from_description))
    /// added to `source`'s zones ([`ExclusionZones::add`]); the answer's
    /// message, `Err` when refused (nothing changed).
    pub fn add_exclusion_zone(
        &mut self,
        source: &str,
        zone: crate::config::ExclusionZoneConfig,
    ) -> Result<String, String> {
        self.exclusion.add(source, zone)
    }

    /// `~/<source>/remove_exclusion_zone` ([`ExclusionZones::remove`]).
    pub fn remove_exclusion_zone(
        &mut self,
        source: &str,
        name: &str,
        all: bool,
    ) -> Result<String, String> {
        self.exclusion.remove(source, name, all)
    }

    /// `~/toggle`: the gate on or off, as the parameter `enabled` (the
    /// caller sets the parameter itself; the next
    /// [`follow`](Self::follow) reads the same). The answer's message.
    pub fn toggle(&mut self, enable: bool) -> String {
        self.config.gate.enabled = enable;
        if let Some(gate) = &mut self.gate {
            gate.gate.follow(&self.config.gate);
        }
        format!(
            "Collision monitor toggled {} successfully",
            if enable { "on" } else { "off" }
        )
    }

    /// Activate (`true`): every output publishes again, at once (a tick);
    /// deactivate: none does.
    pub fn set_active(&mut self, active: bool, now: Now, out: &mut Outputs) {
        self.active = active;
        if active {
            self.tick(now, out);
        }
    }

    /// Reads the clock into the monitor.
    fn clock(&mut self, now: Now) {
        self.monitor
            .set_clock(now.reading.generation, now.reading.cause);
        self.monitor.set_pending_obstacles(now.pending_obstacles);
    }

    /// The velocity (`velocity_topic`), for the next decision's
    /// prediction: it publishes nothing itself.
    pub fn on_velocity(
        &mut self,
        input: &VelocityInput,
        arrival: Arrival,
        now: Now,
        out: &mut Outputs,
    ) {
        self.clock(now);
        self.health.velocity.record(arrival.time);
        if arrival.generation != now.reading.generation {
            return;
        }
        let timeout = self.monitor.config().velocity_timeout;
        warn_stamp(&mut out.notices, "velocity", timeout, input.stamp, arrival);
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

    /// Decides and publishes the flag first (it is what a safety consumer
    /// waits for), then the prediction; a report of this state may be
    /// wanted.
    fn decide(&mut self, now: Now, out: &mut Outputs) {
        let started = self.stopwatch.as_ref().map(|watch| watch());
        self.refresh_fleet(now.ros());
        self.place(now.ros());
        let flag = self.monitor.flag(now.ros());
        if let (Some(watch), Some(started)) = (&self.stopwatch, started) {
            self.health.decisions.record(now.ros(), watch() - started);
        }
        self.health.flag = Some(flag);
        if !self.active {
            return;
        }
        out.flag = Some(flag);
        // After the flag: the prediction never delays it.
        if !self.config.velocity_topic.is_empty() {
            let prediction = self.monitor.predict(&lock(&self.tf).tree, now.ros());
            out.ahead = Some(prediction.ahead);
        }
        out.report = true;
    }

    /// Places the footprint with the current transforms (the robot's own
    /// shape in `base_frame` first, when it comes from TF).
    fn place(&mut self, now: f64) {
        if let Some(shape) = &self.tf_footprint {
            self.monitor
                .set_footprint_shape(&self.config.monitor.base_frame, shape.clone(), now);
        }
        let tf = lock(&self.tf);
        self.monitor.place(&tf.tree, now);
    }

    /// A decision at `publish_rate` (and whenever the robot moved, when
    /// the footprint comes from TF): instances expired (inline stage), the
    /// gate's re-check, then the flag.
    pub fn tick(&mut self, now: Now, out: &mut Outputs) {
        self.clock(now);
        if self.stage.is_some() {
            self.run_stage(super::obstacles::ObstacleBatch::default(), now, out);
        }
        self.refresh_fleet(now.ros());
        if let Some(gate) = &mut self.gate {
            gate.on_timer(&self.monitor, &self.tf, now.ros(), self.active, out);
        }
        self.decide(now, out);
        if self.active {
            let robot = self.robot.as_ref().and_then(|r| r.as_ref().ok());
            let tf = lock(&self.tf);
            out.fleet_robot = self
                .fleet
                .own_state(&self.monitor, robot, &tf.tree, now.ros());
        }
    }

    /// A command for the gate: gated and published before anything else.
    pub fn on_command(
        &mut self,
        command: &CommandIn,
        arrival: Arrival,
        now: Now,
        out: &mut Outputs,
    ) {
        if self.gate.is_none() {
            return;
        }
        self.monitor
            .set_clock(now.reading.generation, now.reading.cause);
        self.monitor.set_pending_obstacles(now.pending_obstacles);
        let _ = arrival;
        self.health.command.record(now.ros());
        self.refresh_fleet(now.ros());
        let Some(gate) = &mut self.gate else {
            return;
        };
        gate.on_command(
            &self.monitor,
            &self.tf,
            command,
            now.ros(),
            self.active,
            out,
        );
    }

    /// New shapes of the gate's dynamic zones (aligned with the zones;
    /// taken out of `shapes`).
    pub fn on_zone_shapes(
        &mut self,
        shapes: &mut [Option<ShapeInput>],
        now: Now,
        out: &mut Outputs,
    ) {
        if let Some(gate) = &mut self.gate {
            gate.on_shapes(shapes, &self.tf, now.ros(), out);
            if !self.active {
                out.zone_polygons = super::outputs::ZonePolygons::None;
                out.changed_zones.clear();
            }
        }
    }

    /// A footprint (`footprint_topic`), then a decision.
    pub fn on_footprint(
        &mut self,
        input: &FootprintInput,
        arrival: Arrival,
        now: Now,
        out: &mut Outputs,
    ) {
        self.clock(now);
        self.health.footprint.record(arrival.time);
        if arrival.generation == now.reading.generation {
            self.apply_footprint(input, arrival, out);
        }
        self.decide(now, out);
    }

    fn apply_footprint(&mut self, input: &FootprintInput, arrival: Arrival, out: &mut Outputs) {
        if let Some(rejection) = input.rejected {
            self.monitor.reject_footprint(rejection, arrival.time);
            out.notices.push(Notice::warn(
                "footprint",
                format!("footprint refused: {rejection}"),
            ));
            return;
        }
        self.monitor
            .set_footprint_at(&input.frame_id, input.stamp, &input.points, arrival.time);
        let timeout = self.monitor.config().footprint_timeout;
        warn_stamp(&mut out.notices, "footprint", timeout, input.stamp, arrival);
        if let Some(error) = self.monitor.footprint_error() {
            out.notices.push(Notice::warn(
                "footprint",
                format!(
                    "footprint rejected: {} ({} points)",
                    Status::from(error),
                    input.points.len()
                ),
            ));
        }
    }

    /// The sensor sources' newest inputs (drained from `inputs`), then a
    /// decision. The point buffers they replace go to `spare` for reuse.
    pub fn on_sources(
        &mut self,
        inputs: &mut Vec<(SourceInput, Arrival)>,
        spare: &mut Vec<PointSet>,
        now: Now,
        out: &mut Outputs,
    ) {
        if inputs.is_empty() {
            return;
        }
        self.clock(now);
        for (input, arrival) in inputs.drain(..) {
            if arrival.generation != now.reading.generation {
                if let Ok(points) = input.points {
                    spare.push(points);
                }
                continue;
            }
            self.apply_source(input, arrival, spare, out);
        }
        self.decide(now, out);
    }

    fn apply_source(
        &mut self,
        input: SourceInput,
        arrival: Arrival,
        spare: &mut Vec<PointSet>,
        out: &mut Outputs,
    ) {
        let Some(spec) = self.config.monitor.sources.get(input.index) else {
            return;
        };
        let name = spec.name.clone();
        if let Some(stats) = self.health.sources.get_mut(input.index) {
            stats.record(arrival.time);
        }
        if input.points.is_ok() {
            let notices = &mut out.notices;
            self.health
                .note_exclusion(input.index, &name, &input.exclusion, notices);
        }
        match (input.points, input.cells) {
            (Ok(points), Some(cells)) => {
                let timeout = spec.timeout;
                spare.push(points);
                self.monitor.set_source_cells(
                    &name,
                    &input.frame_id,
                    input.stamp,
                    cells,
                    arrival.time,
                );
                warn_stamp(&mut out.notices, "source", timeout, input.stamp, arrival);
            }
            (Ok(points), None) => {
                let timeout = spec.timeout;
                spare.push(self.monitor.recycle_source_points(&name));
                let set = match input.moved {
                    true => Monitor::set_moved_source_points,
                    false => Monitor::set_source_points,
                };
                set(
                    &mut self.monitor,
                    &name,
                    &input.frame_id,
                    input.stamp,
                    points,
                    arrival.time,
                );
                warn_stamp(&mut out.notices, "source", timeout, input.stamp, arrival);
            }
            (Err(cause), _) => {
                self.monitor.reject_source(&name, cause, arrival.time);
                out.notices.push(Notice::warn(
                    "source",
                    format!(
                        "source {} refused a message: {} ({})",
                        shown(&name),
                        input.reason,
                        Status::from(cause)
                    ),
                ));
            }
        }
    }

    /// A new obstacle set (from the obstacle stage), then a decision.
    pub fn on_obstacle_set(&mut self, set: Arc<ObstacleSet>, now: Now, out: &mut Outputs) {
        self.monitor.set_obstacle_set(set);
        self.clock(now);
        self.health.obstacles.record(now.ros());
        self.decide(now, out);
    }

    /// Obstacle input for the inline stage (an array, instances): taken in
    /// at once, then a decision when the set changed. Without an inline
    /// stage nothing happens (the node's stage runs on its own thread).
    pub fn on_obstacles(
        &mut self,
        batch: super::obstacles::ObstacleBatch,
        now: Now,
        out: &mut Outputs,
    ) {
        if self.stage.is_some() {
            self.run_stage(batch, now, out);
        }
    }

    fn run_stage(&mut self, batch: super::obstacles::ObstacleBatch, now: Now, out: &mut Outputs) {
        let Some(stage) = &mut self.stage else {
            return;
        };
        let config = self.config.monitor.clone();
        let applied = stage.apply(batch, now.reading, config, &mut out.notices);
        if applied.changed {
            let set = Arc::clone(stage.obstacle_set());
            self.on_obstacle_set(set, now, out);
        }
    }

    /// A change of parameter `name` (already applied to the parameters of
    /// revision `revision`, which `read` gives): followed, then a tick.
    pub fn on_parameter(
        &mut self,
        revision: u64,
        read: impl FnOnce() -> NodeConfig,
        now: Now,
        out: &mut Outputs,
    ) {
        self.follow(revision, read);
        self.tick(now, out);
    }

    /// The points inside gate zone `index` at the last check, at most
    /// `max`, into `points` (for `~/collision_points_marker`).
    pub fn zone_points(&self, index: usize, max: usize, points: &mut Vec<Point>) {
        match &self.gate {
            Some(gate) => gate.zone_points(&self.monitor, index, max, points),
            None => points.clear(),
        }
    }

    /// The points that triggered the gate's current action, at most `max`
    /// per source, into `out` (for `~/triggering_points`; see
    /// [`TriggeringPoints`](super::TriggeringPoints)): empty without a gate
    /// or when no zone acts.
    pub fn triggering_points(&self, max: usize, out: &mut super::TriggeringPoints) {
        match &self.gate {
            Some(gate) => gate.triggering_points(&self.monitor, max, out),
            None => {
                out.zone = None;
                out.sources.clear();
            }
        }
    }

    /// Whether anything of gate zone `index`'s sources (points, or a
    /// polygon source's polygons) lies in it at the last check.
    pub fn zone_occupied(&self, index: usize) -> bool {
        self.gate
            .as_ref()
            .is_some_and(|gate| gate.zone_occupied(&self.monitor, index))
    }

    /// Gate zone `index`'s shape in the base frame (`None`: a dynamic
    /// zone whose shape has not come).
    pub fn zone_shape(&self, index: usize) -> Option<&Shape> {
        self.gate.as_ref().and_then(|g| g.gate.zone_shape(index))
    }

    /// The monitor with the footprint placed now, for a service request
    /// computed elsewhere (`check_footprint`, `check_path`).
    pub fn snapshot(&mut self, now: Now) -> Monitor {
        self.clock(now);
        self.place(now.ros());
        self.monitor.clone()
    }

    /// The last decision's flag (`None` before the first).
    pub fn last_flag(&self) -> Option<Flag> {
        self.health.flag
    }
}

/// The clock's stall limit of `config`.
pub fn stall_limit(config: &NodeConfig) -> f64 {
    config
        .monitor
        .stall_limit(!config.velocity_topic.is_empty())
}

/// Warns (throttled) when an input is stale on arrival by its stamp: most
/// often the publisher's clock is not the node's.
fn warn_stamp(
    notices: &mut Vec<Notice>,
    input: &'static str,
    timeout: f64,
    stamp: f64,
    arrival: Arrival,
) {
    if is_stale(timeout, arrival.time, arrival.time, stamp) {
        let age = arrival.time - stamp;
        notices.push(Notice::warn(
            input,
            format!(
                "{input} stamped {age:.3} s before it arrived, beyond its timeout: stale (is \
                 the publisher's clock the node's?)"
            ),
        ));
    }
}
