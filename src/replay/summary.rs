//! What a replay found, for people: the [`Summary`] and the bookkeeping
//! that fills it as the events go by (bounded: counts, and lists capped at
//! [`MAX_LISTED`]).

use crate::gate::{Action, GateState, Reason};
use crate::model::Flag;
use std::collections::BTreeMap;
use std::fmt;

/// Intervals and stops listed at most; more are counted.
pub const MAX_LISTED: usize = 1_000;

/// Time the gate spent in one action for one zone (or reason).
#[derive(Clone, Debug, PartialEq)]
pub struct ZoneTime {
    /// The state's `polygon_name` (a zone, `invalid source`, ...).
    pub zone: String,
    /// The action (`stop`, `slowdown`, `limit`, `approach`).
    pub action: &'static str,
    /// Seconds of ROS time.
    pub seconds: f64,
}

/// Something appeared in a zone, then the gate stopped for it.
#[derive(Clone, Debug, PartialEq)]
pub struct StopLatency {
    /// The zone.
    pub zone: String,
    /// When points (of any of its sources) first lay in it (ROS time,
    /// s); `None` when none did (a polygon source's polygon: the core
    /// lists the points in a zone, not the polygons).
    pub appeared: Option<f64>,
    /// When the gate's state became a stop for it.
    pub stopped: f64,
}

impl StopLatency {
    /// From appearance to stop (s).
    pub fn latency(&self) -> Option<f64> {
        self.appeared.map(|a| self.stopped - a)
    }
}

/// The least clearance between the footprint and what the monitor holds
/// (obstacles, source points), over the valid reports of the ticks.
#[derive(Clone, Debug, PartialEq)]
pub struct Clearance {
    /// Metres (0: touching or inside).
    pub metres: f64,
    /// When (ROS time, s): the first tick that found it.
    pub at: f64,
    /// The nearest obstacle's id, or the source's name.
    pub nearest: String,
}

/// An interval of ROS time (s) where the flag was not valid.
#[derive(Clone, Debug, PartialEq)]
pub struct Interval {
    /// Its start.
    pub start: f64,
    /// Its end (the first valid decision, or the replay's end).
    pub end: f64,
    /// The flag's status throughout.
    pub status: String,
}

/// What a replay read, skipped and found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// The node's name.
    pub node_name: String,
    /// `use_sim_time`.
    pub use_sim_time: bool,
    /// ROS time (s) of the first and the last message replayed.
    pub span: Option<(f64, f64)>,
    /// Records read from the bag.
    pub messages: u64,
    /// Records handed to the core.
    pub used: u64,
    /// Records skipped, by reason and topic (`"unknown type: /camera"`).
    pub skipped: BTreeMap<String, u64>,
    /// The first decode error of each topic whose messages did not decode.
    pub decode_errors: BTreeMap<String, String>,
    /// The error that ended the bag early, after every message before it.
    pub bag_error: Option<String>,
    /// `use_sim_time` and no `/clock`: ROS time read 0 throughout.
    pub no_clock: bool,
    /// Ticks run.
    pub ticks: u64,
    /// Flags decided (published), and how many read a valid collision.
    pub decisions: u64,
    /// Flags that read colliding and valid.
    pub collisions: u64,
    /// The first of them (ROS time, s).
    pub first_collision: Option<f64>,
    /// Commands taken by the gate, and published by it (zeros apart).
    pub commands_in: u64,
    /// Commands the gate published.
    pub commands_out: u64,
    /// Of which zeros.
    pub zeros_out: u64,
    /// The least clearance at a tick, when a valid report had any.
    pub least_clearance: Option<Clearance>,
    /// Time per zone and action (stops, slowdowns, limits, approaches).
    pub zone_times: Vec<ZoneTime>,
    /// Times the gate's state became a stop for a zone.
    pub zone_stops: u64,
    /// Appearance to stop, per stop for a zone.
    pub stops: Vec<StopLatency>,
    /// Where the flag was not valid.
    pub invalid: Vec<Interval>,
    /// Intervals and stops beyond [`MAX_LISTED`].
    pub not_listed: u64,
    /// The log's lines by key (`state` for the gate's state changes).
    pub notices: BTreeMap<String, u64>,
    /// Output messages per topic.
    pub outputs: BTreeMap<String, u64>,
    /// Start-up notes of the parameters, and what the replay left out.
    pub notes: Vec<String>,
}

impl Summary {
    /// Whether the gate stopped the robot for a zone or the flag read a
    /// valid collision at some decision (a stop for an invalid source, as
    /// at the start before any sensor data, is in
    /// [`zone_times`](Self::zone_times) but not here).
    pub fn stopped_or_collided(&self) -> bool {
        self.collisions > 0 || self.zone_stops > 0
    }

    /// The CLI's exit status: 2 when the bag ended on an error or the
    /// clock never ran (`use_sim_time` without `/clock`), else 1 when the
    /// gate stopped the robot for a zone or a collision was flagged, else 0.
    pub fn exit_code(&self) -> u8 {
        if self.bag_error.is_some() || self.no_clock {
            2
        } else if self.stopped_or_collided() {
            1
        } else {
            0
        }
    }
}

fn seconds(t: f64) -> String {
    format!("{t:.3} s")
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "node {} (use_sim_time {})",
            self.node_name, self.use_sim_time
        )?;
        match self.span {
            Some((a, b)) => writeln!(
                f,
                "replayed: {} of ROS time, {} to {}",
                seconds(b - a),
                seconds(a),
                seconds(b)
            )?,
            None => writeln!(f, "replayed: nothing (no message the node takes)")?,
        }
        let skipped: u64 = self.skipped.values().sum();
        writeln!(
            f,
            "messages: {} read, {} used, {skipped} skipped",
            self.messages, self.used
        )?;
        for (why, n) in &self.skipped {
            writeln!(f, "  skipped {n}: {why}")?;
        }
        for (topic, e) in &self.decode_errors {
            writeln!(f, "  first decode error on {topic}: {e}")?;
        }
        writeln!(
            f,
            "ticks: {}; flags: {} decided, {} colliding{}",
            self.ticks,
            self.decisions,
            self.collisions,
            self.first_collision
                .map_or(String::new(), |t| format!(" (first at {})", seconds(t)))
        )?;
        writeln!(
            f,
            "gate: {} commands in, {} out ({} zeros)",
            self.commands_in, self.commands_out, self.zeros_out
        )?;
        match &self.least_clearance {
            Some(c) => writeln!(
                f,
                "least clearance: {:.3} m at {} ({})",
                c.metres,
                seconds(c.at),
                c.nearest
            )?,
            None => writeln!(
                f,
                "least clearance: none (no valid report with an obstacle)"
            )?,
        }
        for z in &self.zone_times {
            writeln!(f, "  {} {}: {}", z.action, z.zone, seconds(z.seconds))?;
        }
        for s in &self.stops {
            match (s.appeared, s.latency()) {
                (Some(appeared), Some(latency)) => writeln!(
                    f,
                    "  stop for {}: points in it at {}, stopped at {} ({} later)",
                    s.zone,
                    seconds(appeared),
                    seconds(s.stopped),
                    seconds(latency)
                )?,
                _ => writeln!(
                    f,
                    "  stop for {}: stopped at {} (no source points in it: a polygon source's \
                     polygon)",
                    s.zone,
                    seconds(s.stopped)
                )?,
            }
        }
        if self.decisions == 0 {
            writeln!(f, "flag: never decided")?;
        } else if self.invalid.is_empty() {
            writeln!(f, "flag valid throughout")?;
        }
        for i in &self.invalid {
            writeln!(
                f,
                "flag not valid {} to {} ({}): {}",
                seconds(i.start),
                seconds(i.end),
                seconds(i.end - i.start),
                i.status
            )?;
        }
        if self.not_listed > 0 {
            writeln!(
                f,
                "({} more intervals and stops not listed)",
                self.not_listed
            )?;
        }
        for (key, n) in &self.notices {
            writeln!(f, "log: {n} {key}")?;
        }
        for (topic, n) in &self.outputs {
            writeln!(f, "published: {n} on {topic}")?;
        }
        for note in &self.notes {
            writeln!(f, "note: {note}")?;
        }
        if self.no_clock {
            writeln!(
                f,
                "error: use_sim_time is true and the bag has no /clock: ROS time read 0, the \
                 node never decided (every flag no_clock)"
            )?;
        }
        if let Some(e) = &self.bag_error {
            writeln!(f, "error: the bag ended early: {e}")?;
        }
        Ok(())
    }
}

/// The bookkeeping of the summary's findings, event by event.
#[derive(Debug, Default)]
pub(super) struct Tracker {
    /// The gate's state, its name and since when.
    state: Option<(String, Action, f64)>,
    times: BTreeMap<(String, &'static str), f64>,
    /// Per gate zone: since when points lie in it, and whether its stop
    /// was already counted.
    occupied: Vec<(Option<f64>, bool)>,
    /// The open interval of invalid flags.
    invalid: Option<Interval>,
}

impl Tracker {
    pub(super) fn new(zones: usize) -> Self {
        Tracker {
            occupied: vec![(None, false); zones],
            ..Tracker::default()
        }
    }

    fn push_listed<T>(list: &mut Vec<T>, item: T, not_listed: &mut u64) {
        if list.len() < MAX_LISTED {
            list.push(item);
        } else {
            *not_listed += 1;
        }
    }

    /// Whether points lie in zone `index` now (after a gate check at `t`).
    pub(super) fn occupancy(&mut self, index: usize, occupied: bool, t: f64) {
        if let Some(slot) = self.occupied.get_mut(index) {
            match (occupied, slot.0) {
                (true, None) => *slot = (Some(t), false),
                (false, _) => *slot = (None, false),
                (true, Some(_)) => {}
            }
        }
    }

    /// The gate's state changed at `t` to `state`, named `name`.
    pub(super) fn state(&mut self, summary: &mut Summary, state: &GateState, name: &str, t: f64) {
        self.close_state(t);
        self.state = Some((name.to_owned(), state.action, t));
        if let (Action::Stop, Reason::Zone(i)) = (state.action, state.reason) {
            summary.zone_stops += 1;
            if let Some((appeared, counted)) = self.occupied.get_mut(i) {
                // One stop per appearance; without points in the zone,
                // every stop.
                if !*counted {
                    *counted = appeared.is_some();
                    let stop = StopLatency {
                        zone: name.to_owned(),
                        appeared: *appeared,
                        stopped: t,
                    };
                    Self::push_listed(&mut summary.stops, stop, &mut summary.not_listed);
                }
            }
        }
    }

    fn close_state(&mut self, t: f64) {
        if let Some((name, action, since)) = self.state.take() {
            if action != Action::DoNothing {
                *self.times.entry((name, action.as_str())).or_default() += (t - since).max(0.0);
            }
        }
    }

    /// A flag decided at `t`.
    pub(super) fn flag(&mut self, summary: &mut Summary, flag: &Flag, t: f64) {
        summary.decisions += 1;
        if flag.valid && flag.colliding {
            summary.collisions += 1;
            summary.first_collision.get_or_insert(t);
        }
        let status = flag.status.to_string();
        match &mut self.invalid {
            Some(open) if !flag.valid && open.status == status => open.end = t,
            _ => {
                self.close_invalid(summary, t);
                if !flag.valid {
                    self.invalid = Some(Interval {
                        start: t,
                        end: t,
                        status,
                    });
                }
            }
        }
    }

    fn close_invalid(&mut self, summary: &mut Summary, t: f64) {
        if let Some(mut open) = self.invalid.take() {
            open.end = t;
            Self::push_listed(&mut summary.invalid, open, &mut summary.not_listed);
        }
    }

    /// A tick's valid report found `metres` to `nearest` at `t`.
    pub(super) fn clearance(summary: &mut Summary, metres: f64, nearest: &str, t: f64) {
        if summary
            .least_clearance
            .as_ref()
            .is_none_or(|c| metres < c.metres)
        {
            summary.least_clearance = Some(Clearance {
                metres,
                at: t,
                nearest: nearest.to_owned(),
            });
        }
    }

    /// The replay ended at `t`: the open state and interval closed.
    pub(super) fn finish(mut self, summary: &mut Summary, t: f64) {
        self.close_state(t);
        self.close_invalid(summary, t);
        summary.zone_times = self
            .times
            .into_iter()
            .map(|((zone, action), seconds)| ZoneTime {
                zone,
                action,
                seconds,
            })
            .collect();
    }
}
