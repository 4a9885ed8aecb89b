//! The statuses: levels, the collision check's health, the gate's.

use super::stats::InputStats;
use crate::gate::{Gate, GateState, Reason};
use crate::model::Status;
use std::fmt::Write as _;

/// A status's level: `diagnostic_msgs/DiagnosticStatus`' byte values.
/// Ordered by seriousness.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// `OK` (0).
    Ok = 0,
    /// `WARN` (1).
    Warn = 1,
    /// `ERROR` (2).
    Error = 2,
    /// `STALE` (3): no news (the aggregator's; this node never sets it).
    Stale = 3,
}

impl Level {
    /// The message's byte (`DiagnosticStatus.level`).
    pub fn as_byte(self) -> u8 {
        self as u8
    }

    /// `diagnostic_msgs`' constant name: `OK`, `WARN`, `ERROR`, `STALE`.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Ok => "OK",
            Level::Warn => "WARN",
            Level::Error => "ERROR",
            Level::Stale => "STALE",
        }
    }
}

/// One status of a `diagnostic_msgs/DiagnosticArray`, field for field.
#[derive(Clone, Debug, PartialEq)]
pub struct DiagnosticStatus {
    /// Its level.
    pub level: Level,
    /// `<node name>: <what>`.
    pub name: String,
    /// One line: the level's reason.
    pub message: String,
    /// The `hardware_id` parameter.
    pub hardware_id: String,
    /// Key values, in a fixed order.
    pub values: Vec<(String, String)>,
}

impl DiagnosticStatus {
    /// The value of `key`, if present.
    pub fn value(&self, key: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// One input's health, as [`CollisionHealth`] lists it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InputHealth<'a> {
    /// The input's name: `footprint`, `obstacles`, `obstacle_instances`,
    /// `velocity`, a source's name, `cmd_vel_in`.
    pub name: &'a str,
    /// Seconds since its latest message ([`InputStats::age`]); `None`:
    /// never.
    pub age: Option<f64>,
    /// Its rate (Hz, [`InputStats::rate`]).
    pub rate: f64,
    /// Its timeout (s: `footprint_timeout`, `obstacles_timeout`, a
    /// source's `source_timeout`); 0: none (the input is not judged late).
    pub timeout: f64,
}

impl<'a> InputHealth<'a> {
    /// The health of the input `name` of `stats` at `now`.
    pub fn of(name: &'a str, stats: &InputStats, timeout: f64, now: f64) -> Self {
        InputHealth {
            name,
            age: stats.age(now),
            rate: stats.rate(now),
            timeout,
        }
    }

    /// Late: it has a timeout and its latest message is older than half of
    /// it. An input never received is not late: if the verdict needs it,
    /// the verdict is not valid (`no_footprint`, `no_source_data`, ...);
    /// if not (no obstacle array beside sources), a permanent warning
    /// would be noise.
    pub fn late(&self) -> bool {
        self.timeout > 0.0 && self.age.is_some_and(|age| age > 0.5 * self.timeout)
    }
}

/// The collision check's health, filled by the edge once per period
/// (borrowing what it holds): what [`collision_status`] reads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CollisionHealth<'a> {
    /// The lifecycle state's label (`unconfigured`, `inactive`, `active`,
    /// ...).
    pub lifecycle_state: &'a str,
    /// Active: the check runs and its outputs are published.
    pub active: bool,
    /// The verdict now: valid.
    pub valid: bool,
    /// The verdict's status.
    pub status: Status,
    /// A velocity gate with no footprint configured: zones in `polygons`
    /// and no robot shape (`robot_footprint`, `robot_radius`), so the
    /// flag's footprint could only come on the `footprint` topic (nav2's
    /// configuration, which has no such topic). While none has arrived
    /// (`no_footprint`), the flag is not judged and that is no fault: see
    /// [`collision_status`]. The caller sets it only when no other input
    /// holds a cause (`Monitor::cause_apart_from_footprint`), and gives that
    /// cause as `status` otherwise: `no_footprint` comes first in
    /// precedence and must not hide it.
    pub gate_only: bool,
    /// The monitor is overloaded (`Cause::Overloaded` holds, whether or
    /// not it is the deciding cause).
    pub overloaded: bool,
    /// Every input, in the order to show them.
    pub inputs: &'a [InputHealth<'a>],
    /// p50 and p99 of the decisions' durations over the last second (s,
    /// [`DecisionTimes::percentiles`](super::DecisionTimes::percentiles)).
    pub decision_times: Option<(f64, f64)>,
    /// Reports skipped in the last second (the report worker was busy).
    pub reports_skipped: u64,
    /// Obstacles in use.
    pub obstacles: usize,
    /// Sensor points in use.
    pub points: usize,
}

/// Seconds with millisecond resolution, or `never`.
fn age_text(age: Option<f64>) -> String {
    age.map_or_else(|| "never".to_owned(), |a| format!("{a:.3}"))
}

/// The message of the collision status of a gate with no footprint
/// configured ([`CollisionHealth::gate_only`]), while none has arrived.
pub const NOT_JUDGED: &str =
    "no footprint configured: the collision flag is not judged (gate only)";

/// OK, or WARN with `; <name> late` and `; reports skipped` added to
/// `message` when an input is late or reports were skipped.
fn degraded(health: &CollisionHealth, message: &mut String) -> Level {
    let mut level = Level::Ok;
    for input in health.inputs.iter().filter(|i| i.late()) {
        let _ = write!(message, "; {} late", input.name);
        level = Level::Warn;
    }
    if health.reports_skipped > 0 {
        message.push_str("; reports skipped");
        level = Level::Warn;
    }
    level
}

/// The status `<node_name>: collision`.
///
/// # Levels
/// * **WARN** when not `active`: the check is not running (message: the
///   lifecycle state, `unconfigured` or `inactive`).
/// * **OK** when active, `gate_only` and not valid for `no_footprint` (no
///   footprint has arrived), and nothing else below holds (message
///   [`NOT_JUDGED`]): what the user did not configure is no fault, and the
///   gate's own status says whether the gate works. The flag is not
///   claimed clear: it stays not valid (with `fail_safe`, `collision`
///   reads true). WARN with an input late, as below; ERROR when
///   `overloaded`. Any other cause (a clock that cannot judge, a footprint
///   that arrived and went stale or was refused) is the ERROR below.
/// * **ERROR** when active and not `valid`, or `overloaded` (message: the
///   status's spelling, and `overloaded` when it is not the status).
/// * **WARN** when active, valid but degraded: an input later than half
///   its timeout ([`InputHealth::late`]), or reports skipped in the last
///   second (message: `ok; <name> late; reports skipped`).
/// * **OK** otherwise (message: `ok`).
///
/// # Values, in this order
/// `status`, `valid`, `lifecycle_state`; per input `<name> age` (s, 3
/// decimals, or `never`) and `<name> rate` (Hz, 2 decimals);
/// `decision time p50`, `decision time p99` (ms, 3 decimals, or `none`);
/// `reports skipped`, `obstacles`, `points`.
pub fn collision_status(
    health: &CollisionHealth,
    node_name: &str,
    hardware_id: &str,
) -> DiagnosticStatus {
    let mut message = health.status.as_str().to_owned();
    let level = if !health.active {
        message = match health.lifecycle_state {
            "" | "active" => "inactive".to_owned(),
            state => state.to_owned(),
        };
        Level::Warn
    } else if health.gate_only && health.status == Status::NoFootprint && !health.overloaded {
        message = NOT_JUDGED.to_owned();
        degraded(health, &mut message)
    } else if !health.valid || health.overloaded {
        if health.overloaded && health.status != Status::Overloaded {
            message.push_str("; overloaded");
        }
        Level::Error
    } else {
        degraded(health, &mut message)
    };

    let mut values = vec![
        ("status".to_owned(), health.status.as_str().to_owned()),
        ("valid".to_owned(), health.valid.to_string()),
        (
            "lifecycle_state".to_owned(),
            health.lifecycle_state.to_owned(),
        ),
    ];
    for input in health.inputs {
        values.push((format!("{} age", input.name), age_text(input.age)));
        values.push((format!("{} rate", input.name), format!("{:.2}", input.rate)));
    }
    let ms = |s: Option<f64>| s.map_or_else(|| "none".to_owned(), |s| format!("{:.3}", 1e3 * s));
    values.push((
        "decision time p50".to_owned(),
        ms(health.decision_times.map(|(p50, _)| p50)),
    ));
    values.push((
        "decision time p99".to_owned(),
        ms(health.decision_times.map(|(_, p99)| p99)),
    ));
    values.push((
        "reports skipped".to_owned(),
        health.reports_skipped.to_string(),
    ));
    values.push(("obstacles".to_owned(), health.obstacles.to_string()));
    values.push(("points".to_owned(), health.points.to_string()));

    DiagnosticStatus {
        level,
        name: format!("{node_name}: collision"),
        message,
        hardware_id: hardware_id.to_owned(),
        values,
    }
}

/// The velocity gate's health: what [`gate_status`] reads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GateHealth<'a> {
    /// Active: the gate runs and publishes.
    pub active: bool,
    /// `enabled` (and `~/toggle`).
    pub enabled: bool,
    /// The state after its last check.
    pub state: GateState,
    /// The zone that decided (`polygons`' name), or empty.
    pub zone: &'a str,
    /// nav2's `polygon_name` for the state ([`Gate::state_name`]): the
    /// zone, `invalid source`, `invalid command`, or empty.
    pub state_name: &'a str,
    /// Seconds since the last command on `cmd_vel_in`; `None`: never.
    pub last_command_age: Option<f64>,
}

impl<'a> GateHealth<'a> {
    /// The health of `gate` now.
    pub fn of(gate: &'a Gate, active: bool, last_command_age: Option<f64>) -> Self {
        let state = gate.state();
        let state_name = gate.state_name(&state);
        GateHealth {
            active,
            enabled: gate.config().enabled,
            state,
            zone: match state.reason {
                Reason::Zone(i) | Reason::NoZoneShape(i) => {
                    gate.config().zones.get(i).map_or("", |z| z.name.as_str())
                }
                _ => "",
            },
            state_name,
            last_command_age,
        }
    }
}

/// The status `<node_name>: velocity gate`.
///
/// # Levels, nav2's meaning
/// A zone stopping, slowing or limiting the robot is the gate doing its
/// job, not a fault: **OK** (message: `<action>: <zone>`, or `clear`).
/// * **WARN** when not `active` (message `inactive`: nothing passes, as
///   nav2's inactive collision monitor), or when disabled (message
///   `disabled`: commands pass unchecked, the protection is off).
/// * **ERROR** when the gate stops the robot because it cannot check: a
///   source it cannot use or a clock that cannot judge any (message
///   `stop: invalid source (<status>)`, the status the flag reads for it),
///   a dynamic zone without a shape (`stop: invalid zone (<zone>: no shape
///   yet)`) or a command that is not finite (`stop: invalid command`); this
///   wins over disabled, since such a command is stopped even then.
///
/// # Values, in this order
/// `action` (nav2's spelling), `zone`, `state` (nav2's `polygon_name`),
/// `enabled`, `last command age` (s, 3 decimals, or `never`).
pub fn gate_status(health: &GateHealth, node_name: &str, hardware_id: &str) -> DiagnosticStatus {
    let action = health.state.action.as_str();
    let (level, message) = if !health.active {
        (Level::Warn, "inactive".to_owned())
    } else {
        match health.state.reason {
            Reason::InvalidSource(fault) => (
                Level::Error,
                format!(
                    "stop: invalid source ({})",
                    Status::from(fault.cause).as_str()
                ),
            ),
            Reason::NoZoneShape(_) => (
                Level::Error,
                format!("stop: invalid zone ({}: no shape yet)", health.zone),
            ),
            Reason::InvalidCommand => (Level::Error, "stop: invalid command".to_owned()),
            _ if !health.enabled => (Level::Warn, "disabled".to_owned()),
            Reason::Zone(_) => (Level::Ok, format!("{action}: {}", health.zone)),
            Reason::Clear | Reason::Disabled => (Level::Ok, "clear".to_owned()),
        }
    };
    let values = vec![
        ("action".to_owned(), action.to_owned()),
        ("zone".to_owned(), health.zone.to_owned()),
        ("state".to_owned(), health.state_name.to_owned()),
        ("enabled".to_owned(), health.enabled.to_string()),
        (
            "last command age".to_owned(),
            age_text(health.last_command_age),
        ),
    ];
    DiagnosticStatus {
        level,
        name: format!("{node_name}: velocity gate"),
        message,
        hardware_id: hardware_id.to_owned(),
        values,
    }
}

/// One exclusion zone's health, as [`exclusion_status`] lists it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExclusionHealth<'a> {
    /// Its source's name.
    pub source: &'a str,
    /// Its name.
    pub zone: &'a str,
    /// `enabled`.
    pub enabled: bool,
    /// Added by the source's `add_exclusion_zone` service (else a
    /// parameter's).
    pub added: bool,
    /// When it could not be placed for its source's latest message read
    /// (it masked nothing): the frame and why.
    pub unplaced: Option<(&'a str, Status)>,
}

/// The status `<node_name>: exclusion zones`, published when some source
/// has exclusion zones.
///
/// # Levels
/// * **WARN** when an enabled zone could not be placed for its source's
///   latest message (a frame TF does not know, or its latest transform
///   older than its hold): it masked nothing, the fail-safe side, but
///   what it should hide is seen (message: `<source>/<zone> masks nothing:
///   <status> (frame <frame>)` for each, `; ` apart).
/// * **OK** otherwise (message: `ok`).
///
/// # Values, in this order
/// Per zone, `<source>/<zone>`: `masking`, `disabled` or `masks nothing:
/// <status> (frame <frame>)`, with ` (added)` for a zone the service
/// added.
pub fn exclusion_status(
    zones: &[ExclusionHealth],
    node_name: &str,
    hardware_id: &str,
) -> DiagnosticStatus {
    let mut level = Level::Ok;
    let mut message = String::new();
    let mut values = Vec::with_capacity(zones.len());
    for zone in zones {
        let key = format!("{}/{}", zone.source, zone.zone);
        let mut state = match (zone.enabled, zone.unplaced) {
            (false, _) => "disabled".to_owned(),
            (true, None) => "masking".to_owned(),
            (true, Some((frame, status))) => {
                let what = format!("masks nothing: {status} (frame {frame})");
                if !message.is_empty() {
                    message.push_str("; ");
                }
                let _ = write!(message, "{key} {what}");
                level = Level::Warn;
                what
            }
        };
        if zone.added {
            state.push_str(" (added)");
        }
        values.push((key, state));
    }
    if message.is_empty() {
        message.push_str("ok");
    }
    DiagnosticStatus {
        level,
        name: format!("{node_name}: exclusion zones"),
        message,
        hardware_id: hardware_id.to_owned(),
        values,
    }
}

/// The fleet, as `<node>: fleet` shows it (see [`fleet_status`]).
#[derive(Clone, Debug, Default)]
pub struct FleetHealth<'a> {
    /// This robot's id (`robot_id`; empty: not published).
    pub robot_id: &'a str,
    /// Each peer's id and status.
    pub peers: &'a [(String, crate::model::PeerStatus)],
    /// Robots refused for lack of room within `fleet_timeout`.
    pub refusing: bool,
    /// Fleet messages taken in over the last second.
    pub rate: f64,
}

/// `<node>: fleet`: OK with every peer fresh; WARN naming the peers that
/// are stale, whose clocks disagree or whose id is claimed twice; ERROR
/// while robots are refused for lack of room (the fleet is not judged:
/// the flag fails safe, the gate stops).
pub fn fleet_status(
    fleet: &FleetHealth<'_>,
    node_name: &str,
    hardware_id: &str,
) -> DiagnosticStatus {
    use crate::model::PeerStatus;
    let mut level = Level::Ok;
    let mut named = Vec::new();
    for (id, status) in fleet.peers {
        if *status != PeerStatus::Ok {
            level = Level::Warn;
            named.push(format!("{id} {}", status.as_str()));
        }
    }
    let message = if fleet.refusing {
        level = Level::Error;
        format!(
            "more robots than {} on the fleet topic: the fleet is not judged",
            crate::limits::MAX_PEERS
        )
    } else if named.is_empty() {
        format!("{} peers", fleet.peers.len())
    } else {
        named.join("; ")
    };
    let count = |s: PeerStatus| {
        fleet
            .peers
            .iter()
            .filter(|(_, p)| *p == s)
            .count()
            .to_string()
    };
    DiagnosticStatus {
        level,
        name: format!("{node_name}: fleet"),
        message,
        hardware_id: hardware_id.to_owned(),
        values: vec![
            ("robot_id".to_owned(), fleet.robot_id.to_owned()),
            ("peers".to_owned(), fleet.peers.len().to_string()),
            ("stale_peer".to_owned(), count(PeerStatus::StalePeer)),
            ("clock_skew".to_owned(), count(PeerStatus::ClockSkew)),
            ("peer_id_conflict".to_owned(), count(PeerStatus::IdConflict)),
            (
                "messages per second".to_owned(),
                format!("{:.1}", fleet.rate),
            ),
        ],
    }
}
