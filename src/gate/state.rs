//! The gate: a command in, the zones checked, a command (or silence) out.

use super::checks::ZoneChecks;
use super::command::Command;
use super::config::{Action, GateConfig};
use super::zone::Zone;
use crate::geometry::{Motion, Shape, ShapeError, Vector};
use crate::monitor::SourceFault;
use nalgebra::Isometry2;

/// Why the gate's output is what it is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Reason {
    /// No zone acts: the command passes.
    Clear,
    /// The zone at this index of `polygons` decided.
    Zone(usize),
    /// A source cannot be used now, or the clock cannot judge any
    /// ([`SourceFault`], the rule the flag uses): stop, nav2's `invalid
    /// source`.
    InvalidSource(SourceFault),
    /// The dynamic zone at this index has no shape yet (its
    /// `polygon_sub_topic` or `footprint_topic` never gave one that could
    /// be placed): stop. nav2 warns ("Polygon shape is not set yet") and
    /// checks nothing in it; a zone configured to protect that cannot be
    /// checked is a zone the command cannot be judged by.
    NoZoneShape(usize),
    /// The command was not finite: stop. nav2 drops such a command and
    /// leaves the robot on the previous one; this gate stops it.
    InvalidCommand,
    /// The gate is disabled (`enabled`, `~/toggle`): commands pass.
    Disabled,
}

/// What the gate is doing: `nav2_msgs/msg/CollisionMonitorState`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GateState {
    /// The action applied.
    pub action: Action,
    /// Why.
    pub reason: Reason,
}

impl GateState {
    /// Nothing acts.
    pub const CLEAR: GateState = GateState {
        action: Action::DoNothing,
        reason: Reason::Clear,
    };
}

/// The answer to one command or one re-check.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Output {
    /// What to publish on `cmd_vel_out` now; `None`: nothing (silence
    /// after `stop_pub_timeout` of zeros, or a re-check that changed
    /// nothing).
    pub publish: Option<Command>,
    /// What the command was scaled by (1: passed, 0: stopped).
    pub ratio: f64,
    /// The state after this check.
    pub state: GateState,
    /// The state differs from the previous check's: publish it on
    /// `state_topic`.
    pub state_changed: bool,
}

/// A zone's shape could not be built.
#[derive(Clone, Debug, PartialEq)]
pub struct GateError {
    /// The zone's name.
    pub zone: String,
    /// What is wrong with its shape.
    pub error: ShapeError,
}

impl std::fmt::Display for GateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "zone {}: {:?}", self.zone, self.error)
    }
}

impl std::error::Error for GateError {}

/// The last command received.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Last {
    None,
    Valid(Command),
    Invalid,
}

/// The velocity gate: nav2's collision monitor's decision, with time
/// injected (every call takes `now`, seconds of any monotonic clock).
///
/// # The output's rules
/// * A command arrives ([`on_command`](Self::on_command)): the zones are
///   checked along it and the most restrictive result is published (the
///   smallest ratio; on a tie the zone first in `polygons`).
/// * A zero output (a stop, or a zero command) starts a run of zeros: they
///   are published for `stop_pub_timeout` after the first one, then the
///   output falls silent until a non-zero output. Silence only ever
///   follows a zero.
/// * Between commands ([`on_timer`](Self::on_timer), at the node's
///   `publish_rate`) the zones are checked again along the last command:
///   the state follows, and a result more restrictive than the last output
///   is published at once (an obstacle appearing or a source going stale
///   stops a robot whose controller has gone quiet). A less restrictive one
///   waits for the next command: an old command is never sped up.
/// * A command that is not finite is refused: a stop
///   ([`Reason::InvalidCommand`]), never passed on, even when disabled.
#[derive(Clone, Debug)]
pub struct Gate {
    config: GateConfig,
    zones: Vec<Zone>,
    last: Last,
    /// The last output published and its ratio.
    published: Option<(Command, f64)>,
    /// When the current run of zeros began.
    zeros_since: Option<f64>,
    state: GateState,
}

impl Gate {
    /// The gate of `config`, its zones' shapes built.
    pub fn new(config: GateConfig) -> Result<Self, GateError> {
        let zones = config
            .zones
            .iter()
            .map(|z| {
                Zone::new(z.clone()).map_err(|error| GateError {
                    zone: z.name.clone(),
                    error,
                })
            })
            .collect::<Result<_, _>>()?;
        Ok(Gate {
            config,
            zones,
            last: Last::None,
            published: None,
            zeros_since: None,
            state: GateState::CLEAR,
        })
    }

    /// Its configuration (with the run-time `enabled` flags as set).
    pub fn config(&self) -> &GateConfig {
        &self.config
    }

    /// The state after the last check.
    pub fn state(&self) -> GateState {
        self.state
    }

    /// nav2's `polygon_name` for `state`: the zone's name, `invalid
    /// source`, `invalid command`, or empty.
    pub fn state_name(&self, state: &GateState) -> &str {
        match state.reason {
            Reason::Zone(i) => self.zones.get(i).map_or("", |z| z.config.name.as_str()),
            Reason::InvalidSource(..) => "invalid source",
            Reason::NoZoneShape(_) => "invalid zone",
            Reason::InvalidCommand => "invalid command",
            Reason::Clear | Reason::Disabled => "",
        }
    }

    /// Follows the run-time switches of `config` as they are: the gate's
    /// `enabled` and each zone's (by name), each applied when it differs
    /// from the gate's (a zone switched forgets its debounce). The node
    /// calls it with its parameters at every change and every period, so
    /// the gate's state is the parameters', whichever change events were
    /// lost on the way.
    pub fn follow(&mut self, config: &GateConfig) {
        self.set_enabled(config.enabled);
        for zone in &config.zones {
            let differs = self
                .zone_index(&zone.name)
                .is_some_and(|i| self.config.zones[i].enabled != zone.enabled);
            if differs {
                self.set_zone_enabled(&zone.name, zone.enabled);
            }
        }
    }

    /// Enables or disables the gate (`enabled`, `~/toggle`). Disabled, it
    /// passes every finite command unchanged.
    pub fn set_enabled(&mut self, enabled: bool) {
        if enabled != self.config.enabled {
            self.config.enabled = enabled;
            self.zones.iter_mut().for_each(Zone::reset);
        }
    }

    /// Enables or disables the zone `name` (`<name>.enabled`); false for an
    /// unknown name.
    pub fn set_zone_enabled(&mut self, name: &str, enabled: bool) -> bool {
        let Some(i) = self.zone_index(name) else {
            return false;
        };
        self.config.zones[i].enabled = enabled;
        self.zones[i].config.enabled = enabled;
        self.zones[i].reset();
        true
    }

    /// The first enabled dynamic zone that has no shape yet (the gate
    /// stops while there is one: [`Reason::NoZoneShape`]).
    pub fn zone_without_shape(&self) -> Option<usize> {
        self.zones.iter().position(Zone::lacks_shape)
    }

    /// The index of the zone `name` in `polygons`.
    pub fn zone_index(&self, name: &str) -> Option<usize> {
        self.zones.iter().position(|z| z.config.name == name)
    }

    /// Sets the shape of the dynamic zone at `index` (from its
    /// `polygon_sub_topic` or `footprint_topic`, already in the base
    /// frame). False for a zone whose shape is fixed, or no such zone.
    pub fn set_zone_shape(&mut self, index: usize, shape: Shape) -> bool {
        self.zones
            .get_mut(index)
            .is_some_and(|z| z.set_shape(shape))
    }

    /// The shape the zone at `index` was last checked with (or its fixed
    /// one), in the base frame: what is drawn.
    pub fn zone_shape(&self, index: usize) -> Option<&Shape> {
        self.zones.get(index).and_then(Zone::current)
    }

    /// What triggered the action of the last check, nav2's `triggering
    /// points`: the zone acting (its index) and the shape in which its
    /// sources' points are the ones that triggered it, in the base frame.
    /// A stop, slowdown or limit zone: its shape as checked (the points
    /// inside it now). An approach zone: its shape moved along the command
    /// checked to its contact, and [`APPROACH_DEPTH`] past it (nav2: the
    /// points inside the zone at the simulation step that found the
    /// collision; the contact time is never later than the true first
    /// contact, so the zone there may only touch them); `None` when its
    /// debounce holds it without a contact. `None` when no zone acts
    /// (clear, disabled, an invalid source or command, a zone without a
    /// shape).
    pub fn triggering_zone(&self) -> Option<(usize, Shape)> {
        let Reason::Zone(index) = self.state.reason else {
            return None;
        };
        let zone = self.zones.get(index)?;
        let shape = zone.current()?;
        if zone.config.action != Action::Approach {
            return Some((index, shape.clone()));
        }
        let contact = zone.last_contact?;
        let command = match self.last {
            Last::Valid(command) => command,
            Last::None | Last::Invalid => Command::ZERO,
        };
        if contact <= 0.0 {
            return Some((index, shape.clone()));
        }
        // How fast the zone's farthest point moves: a time that takes it
        // APPROACH_DEPTH deeper.
        let aabb = shape.aabb();
        let reach = [aabb.min, aabb.max]
            .iter()
            .flat_map(|a| [aabb.min, aabb.max].map(move |b| (a.x, b.y)))
            .map(|(x, y)| x.hypot(y))
            .fold(0.0, f64::max);
        let speed = command.speed() + command.w.abs() * reach;
        let extra = match speed > 0.0 {
            true => APPROACH_DEPTH / speed,
            false => 0.0,
        };
        let motion = Motion::twist(
            &Isometry2::identity(),
            Vector::new(command.x, command.y),
            command.w,
        );
        let pose = motion.pose_at(contact + extra);
        Some((index, shape.transformed(&pose)))
    }

    /// A command arrived at `now`.
    pub fn on_command(
        &mut self,
        checks: &(impl ZoneChecks + ?Sized),
        command: Command,
        now: f64,
    ) -> Output {
        let (ratio, state) = if !command.is_finite() {
            self.last = Last::Invalid;
            (0.0, invalid_command())
        } else {
            self.last = Last::Valid(command);
            self.decide(checks, &command)
        };
        let out = match self.last {
            Last::Valid(command) => command.scaled(ratio),
            _ => Command::ZERO,
        };
        let publish = self.emit(out, ratio, now);
        self.finish(publish, ratio, state)
    }

    /// The periodic re-check at `now` along the last command (see the
    /// output's rules on [`Gate`]).
    pub fn on_timer(&mut self, checks: &(impl ZoneChecks + ?Sized), now: f64) -> Output {
        let (ratio, state, out) = match self.last {
            Last::Invalid => (0.0, invalid_command(), Some(Command::ZERO)),
            Last::Valid(command) => {
                let (ratio, state) = self.decide(checks, &command);
                (ratio, state, Some(command.scaled(ratio)))
            }
            // No command yet: the state only, checked as for a robot at rest.
            Last::None => {
                let (ratio, state) = self.decide(checks, &Command::ZERO);
                (ratio, state, None)
            }
        };
        let publish = match (out, self.published) {
            (Some(out), _) if self.zeros_since.is_some() => {
                // In a run of zeros: zeros go on until the timeout; a
                // non-zero result waits for a command.
                match out.is_zero() {
                    true => self.emit(out, ratio, now),
                    false => None,
                }
            }
            (Some(out), Some((_, published))) if ratio < published => self.emit(out, ratio, now),
            _ => None,
        };
        self.finish(publish, ratio, state)
    }

    /// The ratio and state for `command` (finite).
    fn decide(
        &mut self,
        checks: &(impl ZoneChecks + ?Sized),
        command: &Command,
    ) -> (f64, GateState) {
        if !self.config.enabled {
            return (
                1.0,
                GateState {
                    action: Action::DoNothing,
                    reason: Reason::Disabled,
                },
            );
        }
        // What the command cannot be judged by stops it: the sources (by
        // the flag's rule) and the clock, then a zone without a shape.
        if let Some(fault) = checks.invalid_source() {
            return (0.0, stop(Reason::InvalidSource(fault)));
        }
        if let Some(index) = self.zone_without_shape() {
            return (0.0, stop(Reason::NoZoneShape(index)));
        }
        let mut best = (1.0, GateState::CLEAR);
        for (index, zone) in self.zones.iter_mut().enumerate() {
            if !zone.config.enabled {
                continue;
            }
            let Some(ratio) = zone_ratio(zone, checks, command) else {
                continue;
            };
            if ratio < best.0 {
                best = (
                    ratio,
                    GateState {
                        action: zone.config.action,
                        reason: Reason::Zone(index),
                    },
                );
            }
        }
        best
    }

    /// Publishes `out` under the rule of zeros: returns what to publish.
    fn emit(&mut self, out: Command, ratio: f64, now: f64) -> Option<Command> {
        if !out.is_zero() {
            self.zeros_since = None;
            self.published = Some((out, ratio));
            return Some(out);
        }
        let since = *self.zeros_since.get_or_insert(now);
        // `now - since` may be negative after a backward clock jump: then
        // zeros go on (the safe side).
        if now - since > self.config.stop_pub_timeout {
            return None;
        }
        self.published = Some((out, 0.0));
        Some(out)
    }

    fn finish(&mut self, publish: Option<Command>, ratio: f64, state: GateState) -> Output {
        let changed = state.action != self.state.action
            || self.state_name(&state) != self.state_name(&self.state);
        self.state = state;
        Output {
            publish,
            ratio,
            state,
            state_changed: changed,
        }
    }
}

/// How far past its first contact an approach zone is moved to find the
/// points that triggered it ([`Gate::triggering_zone`]), in metres.
pub const APPROACH_DEPTH: f64 = 1e-3;

/// A stop, for `reason`.
fn stop(reason: Reason) -> GateState {
    GateState {
        action: Action::Stop,
        reason,
    }
}

fn invalid_command() -> GateState {
    stop(Reason::InvalidCommand)
}

/// What the zone scales `command` by when it acts (`None`: it does not:
/// no shape yet, clear, or held back by its debounce).
fn zone_ratio(
    zone: &mut Zone,
    checks: &(impl ZoneChecks + ?Sized),
    command: &Command,
) -> Option<f64> {
    zone.choose(command);
    let config = &zone.config;
    let shape = zone.current()?;
    let sources = config.sources.as_slice();
    let min_points = config.min_points.max(1);
    let horizon = config.time_before_collision;
    if config.action == Action::Approach {
        let contact = checks.contact_time(shape, sources, command, horizon, min_points);
        zone.last_contact = contact;
        if !zone.debounce(contact.is_some()) {
            return None;
        }
        // Scaling the twist keeps its path: the contact `t` away at the
        // commanded speed is `time_before_collision` away at `t / T` of it.
        if let Some(t) = contact {
            zone.last_ratio = (t / zone.config.time_before_collision).clamp(0.0, 1.0);
        }
        return Some(zone.last_ratio);
    }
    let triggered = checks.points_inside(shape, sources, min_points) >= min_points
        || checks.polygons_touch(shape, sources);
    // Asked only of a stop zone that lets a robot escape, and only when it
    // is triggered: the query looks along the whole motion.
    let escape = triggered
        && config.action == Action::Stop
        && config.allow_escape
        && checks.escapes(shape, sources, command, horizon);
    let ratio = match config.action {
        Action::Stop if escape => 1.0,
        Action::Stop => 0.0,
        Action::Slowdown => config.slowdown_ratio.clamp(0.0, 1.0),
        Action::Limit => limit_ratio(command, config.linear_limit, config.angular_limit),
        Action::DoNothing | Action::Approach => 1.0,
    };
    zone.debounce(triggered).then_some(ratio)
}

/// nav2's limit: one ratio for every component (the curvature is kept),
/// the largest in `[0, 1]` that brings the speed to `linear` and the turn
/// rate to `angular`.
fn limit_ratio(command: &Command, linear: f64, angular: f64) -> f64 {
    let mut ratio: f64 = 1.0;
    let speed = command.speed();
    if speed != 0.0 {
        ratio = ratio.min(linear / speed);
    }
    if command.w != 0.0 {
        ratio = ratio.min(angular / command.w.abs());
    }
    ratio.clamp(0.0, 1.0)
}
