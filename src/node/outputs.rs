//! What the core answers an event with: the messages to publish
//! ([`Outputs`], one slot per output topic, filled in the order the node
//! publishes them) and what to log ([`Notice`]).

use crate::gate::{Action, Command, GateState};
use crate::geometry::Point;
use crate::model::Flag;
use crate::text::{escape_for_log, LOG_ID_CHARS};

/// How a notice is logged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// `INFO`.
    Info,
    /// `WARN`.
    Warn,
}

/// A line for the node's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// `Some`: a repeating line, logged at most once per period per key
    /// (one sender's flood of bad messages never floods the log); `None`:
    /// logged every time (a change of the gate's state).
    pub key: Option<&'static str>,
    /// Its level.
    pub level: Level,
    /// The line.
    pub text: String,
}

impl Notice {
    /// A repeating warning, throttled by `key`.
    pub fn warn(key: &'static str, text: String) -> Self {
        Notice {
            key: Some(key),
            level: Level::Warn,
            text,
        }
    }

    /// A line logged every time.
    pub fn once(level: Level, text: String) -> Self {
        Notice {
            key: None,
            level,
            text,
        }
    }
}

/// The gated command to publish on `cmd_vel_out_topic`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GatedCommand {
    /// The twist.
    pub command: Command,
    /// `Some(now)`: a `TwistStamped` is stamped `now` (a re-check's zeros);
    /// `None`: it keeps the stamp and frame of the command it gates
    /// ([`Core::last_command`](super::Core::last_command)).
    pub restamp: Option<f64>,
}

/// Which zones' polygons to publish.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ZonePolygons {
    /// None.
    #[default]
    None,
    /// Every `visualize` zone's.
    All,
    /// The zones whose shape changed (`Outputs::changed_zones`).
    Changed,
}

/// What one event makes the node publish. Filled by the core, read and
/// cleared by the edge; its fields are in the order the node publishes.
/// Nothing is published while the node is inactive (the core leaves the
/// slots empty), except the notices.
#[derive(Clone, Debug, Default)]
pub struct Outputs {
    /// `cmd_vel_out_topic`.
    pub command: Option<GatedCommand>,
    /// `state_topic` (and nav2's log line, in `notices`): the gate's state
    /// changed.
    pub state: Option<GateState>,
    /// The zones' `PolygonStamped` (`visualize`).
    pub zone_polygons: ZonePolygons,
    /// With [`ZonePolygons::Changed`]: those zones.
    pub changed_zones: Vec<usize>,
    /// `~/collision_points_marker` is due (the points inside each zone:
    /// [`Core::zone_points`](super::Core::zone_points)).
    pub zone_points: bool,
    /// `~/triggering_points` is due (at every check while active: the
    /// points that triggered the current action, none when nothing acts:
    /// [`Core::triggering_points`](super::Core::triggering_points)).
    pub triggering_points: bool,
    /// `collision`.
    pub flag: Option<Flag>,
    /// `collision_ahead`.
    pub ahead: Option<bool>,
    /// A decision was published: a report of this state may be wanted.
    pub report: bool,
    /// Lines for the log.
    pub notices: Vec<Notice>,
    /// This robot's state on the fleet topic (`robot_id`, at
    /// `fleet_rate`).
    pub fleet_robot: Option<crate::fleet::PeerMessage>,
}

impl Outputs {
    /// Empties every slot (buffers kept).
    pub fn clear(&mut self) {
        self.command = None;
        self.state = None;
        self.zone_polygons = ZonePolygons::None;
        self.changed_zones.clear();
        self.zone_points = false;
        self.triggering_points = false;
        self.flag = None;
        self.ahead = None;
        self.report = false;
        self.notices.clear();
        self.fleet_robot = None;
    }

    /// Whether anything is to be published (notices aside).
    pub fn is_empty(&self) -> bool {
        self.command.is_none()
            && self.state.is_none()
            && self.zone_polygons == ZonePolygons::None
            && !self.zone_points
            && !self.triggering_points
            && self.flag.is_none()
            && self.ahead.is_none()
            && self.fleet_robot.is_none()
    }
}

/// What `~/triggering_points` shows (nav2's `triggering_points`): the
/// points that triggered the gate's current action, by source.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TriggeringPoints {
    /// The action and the zone acting (its index in `polygons`); `None`:
    /// no zone acts (clear, disabled, an invalid source or command), and
    /// `sources` is empty.
    pub zone: Option<(Action, usize)>,
    /// Each of the zone's sources (an index into `observation_sources`, in
    /// the zone's `sources_names` order) with points that triggered it:
    /// those points, in the base frame. Polygon sources have no points.
    pub sources: Vec<(usize, Vec<Point>)>,
}

/// An id or frame as it may appear in a log line: control characters
/// escaped, cut to the crate's length for ids in logs (64 characters).
pub fn shown(id: &str) -> String {
    escape_for_log(id, LOG_ID_CHARS).to_string()
}
