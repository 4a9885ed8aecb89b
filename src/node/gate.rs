//! The velocity gate in the core (nav2's collision monitor): a command
//! gated at once, the re-check at `publish_rate`, the dynamic zones'
//! shapes moved into the base frame, nav2's log lines at a change of
//! state. The rules are [`crate::gate::Gate`]'s; this module places the
//! base frame in each source's frame for every check
//! ([`Monitor::place_base`]) and turns the gate's answers into
//! [`Outputs`].

use super::inputs::{CommandIn, ShapeInput};
use super::outputs::{shown, GatedCommand, Level, Notice, Outputs, TriggeringPoints, ZonePolygons};
use super::tf::TfBuffer;
use crate::config::NodeConfig;
use crate::gate::{Action, Gate, GateError, GateState, MonitorChecks, Output, Reason, ZoneChecks};
use crate::geometry::{Point, Shape};
use crate::monitor::{BaseFrames, BasePlacement, Monitor, Transforms};
use std::sync::{Mutex, MutexGuard};

/// The gate, its last command and the shapes TF could not place yet.
#[derive(Debug)]
pub(super) struct GateCore {
    pub(super) gate: Gate,
    /// The last command gated (its header is copied to the output).
    pub(super) command: CommandIn,
    placed: BasePlacement,
    /// Shapes received and not yet moved into the base frame (TF could not
    /// place them yet), aligned with the zones.
    pending: Vec<Option<ShapeInput>>,
    /// `transform_tolerance` (s): for a dynamic zone's shape.
    transform_tolerance: f64,
    /// The configured sources' names (`observation_sources`), for the log.
    source_names: Vec<String>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl GateCore {
    /// The gate of `config` (which has zones).
    pub(super) fn new(config: &NodeConfig) -> Result<Self, GateError> {
        Ok(GateCore {
            gate: Gate::new(config.gate.clone())?,
            command: CommandIn::default(),
            placed: BasePlacement::default(),
            pending: Vec::new(),
            transform_tolerance: config.monitor.transform_tolerance,
            source_names: config.sources.iter().map(|s| s.name.clone()).collect(),
        })
    }

    /// Follows the parameters: the gate's run-time switches and the
    /// tolerance a dynamic zone's shape is placed with.
    pub(super) fn follow(&mut self, config: &NodeConfig) {
        self.gate.follow(&config.gate);
        self.transform_tolerance = config.monitor.transform_tolerance;
    }

    /// Places the base frame in every source's frame for one check.
    fn place(&mut self, monitor: &Monitor, tf: &Mutex<TfBuffer>, now: f64) {
        let config = self.gate.config();
        let frames = BaseFrames {
            base: &config.base_frame,
            fixed: config
                .base_shift_correction
                .then_some(config.odom_frame.as_str()),
        };
        let tree = lock(tf);
        monitor.place_base(&tree.tree, frames, now, &mut self.placed);
    }

    /// Gates `command` at `now` (ROS time, s). Inactive: taken and
    /// dropped (nav2's `process_active_`).
    pub(super) fn on_command(
        &mut self,
        monitor: &Monitor,
        tf: &Mutex<TfBuffer>,
        command: &CommandIn,
        now: f64,
        active: bool,
        out: &mut Outputs,
    ) {
        self.command.copy_from(command);
        if !active {
            return;
        }
        self.place(monitor, tf, now);
        let checks = MonitorChecks {
            monitor,
            placed: &self.placed,
        };
        let answer = self.gate.on_command(&checks, self.command.command, now);
        self.emit(&answer, None, out);
        out.triggering_points = true;
    }

    /// The re-check at `publish_rate`: what is more restrictive (and the
    /// zeros of a stop run), the state on change, the zones' polygons and
    /// the points the zones act on.
    pub(super) fn on_timer(
        &mut self,
        monitor: &Monitor,
        tf: &Mutex<TfBuffer>,
        now: f64,
        active: bool,
        out: &mut Outputs,
    ) {
        self.apply_pending(tf, now, out);
        if !active {
            // Nothing is published while inactive; an activation
            // publishes every zone.
            out.zone_polygons = ZonePolygons::None;
            out.changed_zones.clear();
            return;
        }
        let enabled = self.gate.config().enabled;
        if let Some(index) = self.gate.zone_without_shape().filter(|_| enabled) {
            let name = &self.gate.config().zones[index].name;
            out.notices.push(Notice::warn(
                "gate_zone_shape",
                format!(
                    "Polygon shape is not set yet: zone {} stops the robot until its shape \
                     arrives",
                    shown(name)
                ),
            ));
        }
        self.place(monitor, tf, now);
        let checks = MonitorChecks {
            monitor,
            placed: &self.placed,
        };
        let answer = self.gate.on_timer(&checks, now);
        self.emit(&answer, Some(now), out);
        out.zone_polygons = ZonePolygons::All;
        out.zone_points = true;
        out.triggering_points = true;
    }

    /// The command and the state of one check; `restamp`: the stamped
    /// output carries this time (a re-check) rather than the command's.
    fn emit(&self, answer: &Output, restamp: Option<f64>, out: &mut Outputs) {
        if let Some(command) = answer.publish {
            out.command = Some(GatedCommand { command, restamp });
        }
        if answer.state_changed {
            out.state = Some(answer.state);
            out.notices.push(self.state_line(&answer.state));
        }
    }

    /// The log line nav2's `notifyActionState` writes.
    fn state_line(&self, state: &GateState) -> Notice {
        let name = self.gate.state_name(state);
        let zone = match state.reason {
            Reason::Zone(i) | Reason::NoZoneShape(i) => self.gate.config().zones.get(i),
            _ => None,
        };
        let (level, text) = match (state.action, state.reason) {
            (Action::Stop, Reason::InvalidSource(fault)) => {
                let status = crate::model::Status::from(fault.cause);
                match fault.source.and_then(|i| self.source_names.get(i)) {
                    Some(source) => (
                        Level::Warn,
                        format!(
                            "Robot to stop due to invalid source (source {}: {status}). Either \
                             due to data not published yet, or to lack of new data received \
                             within the sensor timeout, or if impossible to transform data to \
                             base frame",
                            shown(source)
                        ),
                    ),
                    None => (
                        Level::Warn,
                        format!(
                            "Robot to stop due to invalid source (clock: {status}): ROS time \
                             cannot judge any source's freshness"
                        ),
                    ),
                }
            }
            (Action::Stop, Reason::NoZoneShape(_)) => (
                Level::Warn,
                format!(
                    "Robot to stop: polygon shape of {} is not set yet (nothing received on its \
                     topic, or not placed in the base frame)",
                    shown(zone.map_or("", |z| z.name.as_str()))
                ),
            ),
            (Action::Stop, Reason::InvalidCommand) => (
                Level::Warn,
                "Robot to stop due to an invalid command (NaN or infinite velocity)".to_owned(),
            ),
            (Action::Stop, _) => (
                Level::Info,
                format!("Robot to stop due to {} polygon", shown(name)),
            ),
            (Action::Slowdown, _) => (
                Level::Info,
                format!(
                    "Robot to slowdown for {} percents due to {} polygon",
                    zone.map_or(0.0, |z| z.slowdown_ratio * 100.0),
                    shown(name)
                ),
            ),
            (Action::Limit, _) => (
                Level::Info,
                format!("Robot to limit speed due to {} polygon", shown(name)),
            ),
            (Action::Approach, _) => (
                Level::Info,
                format!(
                    "Robot to approach for {} seconds away from collision ({} polygon)",
                    zone.map_or(0.0, |z| z.time_before_collision),
                    shown(name)
                ),
            ),
            (Action::DoNothing, Reason::Disabled) => (
                Level::Info,
                "Collision monitor disabled: commands pass".to_owned(),
            ),
            (Action::DoNothing, _) => {
                (Level::Info, "Robot to continue normal operation".to_owned())
            }
        };
        Notice::once(level, text)
    }

    /// Takes the dynamic zones' new shapes (aligned with the zones) and
    /// sets those TF can place.
    pub(super) fn on_shapes(
        &mut self,
        shapes: &mut [Option<ShapeInput>],
        tf: &Mutex<TfBuffer>,
        now: f64,
        out: &mut Outputs,
    ) {
        if self.pending.len() < shapes.len() {
            self.pending.resize_with(shapes.len(), || None);
        }
        for (slot, new) in self.pending.iter_mut().zip(shapes.iter_mut()) {
            if let Some(new) = new.take() {
                *slot = Some(new);
            }
        }
        self.apply_pending(tf, now, out);
    }

    /// Moves each pending shape into the base frame and sets it; one TF
    /// cannot place yet stays pending; a bad one is refused with a warning
    /// (the zone keeps its previous one). The zones whose shape changed go
    /// to `out` (published while active).
    fn apply_pending(&mut self, tf: &Mutex<TfBuffer>, now: f64, out: &mut Outputs) {
        if self.pending.iter().all(Option::is_none) {
            return;
        }
        let base = self.gate.config().base_frame.clone();
        let tolerance = self.transform_tolerance;
        for index in 0..self.pending.len() {
            let Some(input) = self.pending[index].take() else {
                continue;
            };
            let name = self
                .gate
                .config()
                .zones
                .get(index)
                .map_or(String::new(), |z| z.name.clone());
            let shape = match &input {
                ShapeInput::Radius(radius) => Shape::circle(Point::origin(), *radius)
                    .map_err(|e| format!("radius {radius}: {e:?}")),
                ShapeInput::Polygon(polygon) => {
                    if let Some(rejection) = polygon.rejected {
                        Err(format!("{rejection}"))
                    } else {
                        let pose = {
                            let tree = lock(tf);
                            Transforms::lookup(
                                &tree.tree,
                                &base,
                                &polygon.frame_id,
                                0.0,
                                now,
                                tolerance,
                            )
                        };
                        match pose {
                            Ok(pose) => {
                                let points: Vec<Point> =
                                    polygon.points.iter().map(|p| pose * p).collect();
                                Shape::polygon(&points)
                                    .map_err(|e| format!("{} points: {e:?}", polygon.points.len()))
                            }
                            Err(cause) => {
                                out.notices.push(Notice::warn(
                                    "gate_zone_tf",
                                    format!(
                                        "zone {}: cannot move its shape from {} into {}: {} \
                                         (retried at publish_rate)",
                                        shown(&name),
                                        shown(&polygon.frame_id),
                                        shown(&base),
                                        crate::model::Status::from(cause)
                                    ),
                                ));
                                self.pending[index] = Some(input);
                                continue;
                            }
                        }
                    }
                }
            };
            match shape {
                Ok(shape) => {
                    if self.gate.set_zone_shape(index, shape) {
                        out.changed_zones.push(index);
                        if out.zone_polygons == ZonePolygons::None {
                            out.zone_polygons = ZonePolygons::Changed;
                        }
                    }
                }
                Err(why) => out.notices.push(Notice::warn(
                    "gate_zone",
                    format!(
                        "zone {} refused a shape ({why}): it keeps its previous one",
                        shown(&name)
                    ),
                )),
            }
        }
    }

    /// Whether anything of zone `index`'s sources lies in it at the last
    /// check's placement: a point inside or touching it, or a polygon
    /// source's polygon touching it (false for a zone disabled or without
    /// a shape). Stops at the first.
    pub(super) fn zone_occupied(&self, monitor: &Monitor, index: usize) -> bool {
        let Some(zone) = self.gate.config().zones.get(index) else {
            return false;
        };
        let (true, Some(shape)) = (zone.enabled, self.gate.zone_shape(index)) else {
            return false;
        };
        let checks = MonitorChecks {
            monitor,
            placed: &self.placed,
        };
        checks.points_inside(shape, &zone.sources, 1) > 0
            || checks.polygons_touch(shape, &zone.sources)
    }

    /// The points that triggered the last check's action (nav2's
    /// `triggering_points`), at most `max` per source, into `out`: those of
    /// each of the acting zone's sources in the shape
    /// [`Gate::triggering_zone`] gives, at the last check's placement.
    pub(super) fn triggering_points(
        &self,
        monitor: &Monitor,
        max: usize,
        out: &mut TriggeringPoints,
    ) {
        out.zone = None;
        let mut spare: Vec<Vec<Point>> = out.sources.drain(..).map(|(_, p)| p).collect();
        let Some((index, shape)) = self.gate.triggering_zone() else {
            return;
        };
        let Some(zone) = self.gate.config().zones.get(index) else {
            return;
        };
        out.zone = Some((zone.action, index));
        let checks = MonitorChecks {
            monitor,
            placed: &self.placed,
        };
        for &source in &zone.sources {
            let mut points = spare.pop().unwrap_or_default();
            points.clear();
            checks.points_in(&shape, &[source], max, &mut points);
            if !points.is_empty() {
                out.sources.push((source, points));
            }
        }
    }

    /// The points inside zone `index` (in the base frame, at the last
    /// check's placement), at most `max`, into `out`; nothing for a zone
    /// disabled or without a shape.
    pub(super) fn zone_points(
        &self,
        monitor: &Monitor,
        index: usize,
        max: usize,
        out: &mut Vec<Point>,
    ) {
        out.clear();
        let Some(zone) = self.gate.config().zones.get(index) else {
            return;
        };
        if let (true, Some(shape)) = (zone.enabled, self.gate.zone_shape(index)) {
            let checks = MonitorChecks {
                monitor,
                placed: &self.placed,
            };
            checks.points_in(shape, &zone.sources, max, out);
        }
    }
}
