//! The settings that shape the monitor's decision.

use super::motion::{DEFAULT_TIME_HORIZON, DEFAULT_VELOCITY_TIMEOUT};

/// [`MonitorConfig::transform_tolerance`] by default (s).
pub const DEFAULT_TRANSFORM_TOLERANCE: f64 = 0.3;

/// [`MonitorConfig::overload_timeout`] by default (s).
pub const DEFAULT_OVERLOAD_TIMEOUT: f64 = 0.5;

/// Settings that shape the decision.
#[derive(Clone, Debug, PartialEq)]
pub struct MonitorConfig {
    /// Seconds after which the footprint is stale (by arrival or by stamp:
    /// see [Freshness](super#freshness)); 0 = never.
    pub footprint_timeout: f64,
    /// Seconds after which the obstacle array is stale and an obstacle
    /// instance expires (by arrival or by stamp); 0 = never.
    pub obstacles_timeout: f64,
    /// Report a collision whenever the report is not valid.
    pub fail_safe: bool,
    /// Metres by which the footprint is inflated.
    pub padding: f64,
    /// Per-obstacle results stay exact for obstacles whose box is within
    /// this many metres of the padded footprint's box; farther ones get an
    /// honest, flagged lower bound ([`ObstacleOutcome::exact`](crate::model::ObstacleOutcome::exact) false),
    /// which makes a report over thousands of obstacles cost little more
    /// than the pass over their boxes. The collision flag, `min_distance`
    /// and the nearest obstacle stay exact whatever the range.
    /// `f64::INFINITY` (the default), NaN or a negative value: every
    /// outcome exact.
    pub exact_range: f64,
    /// Seconds newer obstacle information may wait to be taken in (validated,
    /// split into convex pieces, indexed) before the answer is
    /// [`Cause::Overloaded`](crate::model::Cause::Overloaded); 0 = never.
    pub overload_timeout: f64,
    /// The frame of the report, the markers and the planner's poses; empty:
    /// the footprint's frame (else the obstacles'). Must be fixed in the
    /// world (`map`, `odom`) when inputs are stamped at different times:
    /// see `src/monitor/placement.rs`.
    pub global_frame: String,
    /// How far (s) a transform may be from the time asked before it counts
    /// as missing: a stamp past the newest sample, or (for the latest
    /// transform) the newest sample's arrival before now.
    pub transform_tolerance: f64,
    /// The robot's own frame (empty: none): where the footprint is placed
    /// from TF when the node has a robot shape, and the frame of a
    /// velocity that names none.
    pub base_frame: String,
    /// Seconds the footprint is projected along the velocity
    /// ([`Monitor::predict`](super::Monitor::predict)).
    pub time_horizon: f64,
    /// Seconds after which the velocity is stale (by arrival or by stamp);
    /// 0 = never.
    pub velocity_timeout: f64,
    /// The sensor sources (`observation_sources`), in order.
    pub sources: Vec<SourceSpec>,
    /// Points of all point sources together inside the padded footprint
    /// that make the flag true (at least 1; polygon obstacles collide
    /// alone).
    pub min_points: usize,
}

impl Default for MonitorConfig {
    fn default() -> Self {
        MonitorConfig {
            footprint_timeout: 1.0,
            obstacles_timeout: 1.0,
            fail_safe: true,
            padding: 0.0,
            exact_range: f64::INFINITY,
            overload_timeout: DEFAULT_OVERLOAD_TIMEOUT,
            global_frame: String::new(),
            transform_tolerance: DEFAULT_TRANSFORM_TOLERANCE,
            base_frame: String::new(),
            time_horizon: DEFAULT_TIME_HORIZON,
            velocity_timeout: DEFAULT_VELOCITY_TIMEOUT,
            sources: Vec::new(),
            min_points: 1,
        }
    }
}

impl MonitorConfig {
    /// How long (s of a steady clock) ROS time may stand still before it
    /// counts as stalled ([`clock::ClockWatch::observe`](super::clock::ClockWatch::observe)):
    /// the smallest timeout in force, since a clock stopped longer would
    /// hide that input going stale. Every one counts: `footprint_timeout`,
    /// `obstacles_timeout`, each enabled source's `source_timeout`,
    /// `velocity_timeout` when a velocity is read (`velocity`), and
    /// `transform_tolerance` (how old a transform may be). When none is in
    /// force (every one 0, "never"), [`DEFAULT_STALL_LIMIT`](super::clock::DEFAULT_STALL_LIMIT):
    /// a stopped clock still stops what is judged by it.
    pub fn stall_limit(&self, velocity: bool) -> f64 {
        let sources = self.sources.iter().filter(|s| s.enabled).map(|s| s.timeout);
        [
            self.footprint_timeout,
            self.obstacles_timeout,
            self.transform_tolerance,
        ]
        .into_iter()
        .chain(velocity.then_some(self.velocity_timeout))
        .chain(sources)
        .filter(|t| *t > 0.0)
        .reduce(f64::min)
        .unwrap_or(super::clock::DEFAULT_STALL_LIMIT)
    }
}

/// What a source reads: nav2's `<name>.type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceKind {
    /// `scan`: `sensor_msgs/LaserScan`.
    Scan,
    /// `pointcloud`: `sensor_msgs/PointCloud2`.
    PointCloud,
    /// `range`: `sensor_msgs/Range`.
    Range,
    /// `polygon`: `geometry_msgs/PolygonInstanceStamped`, each polygon kept
    /// exactly and expiring on its own.
    Polygon,
    /// `costmap`: `nav2_msgs/Costmap` (nav2 main), each obstacle cell the
    /// square it covers.
    Costmap,
    /// `fleet`: the other robots on the fleet topic
    /// (`sat_collision_msgs/FleetRobot`), each its footprint grown by its
    /// age and moving by its twist (see [`crate::fleet`]).
    Fleet,
}

impl SourceKind {
    /// Every kind, in the order of the parameter's documentation.
    pub const ALL: [SourceKind; 6] = [
        SourceKind::Scan,
        SourceKind::PointCloud,
        SourceKind::Range,
        SourceKind::Polygon,
        SourceKind::Costmap,
        SourceKind::Fleet,
    ];

    /// nav2's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            SourceKind::Scan => "scan",
            SourceKind::PointCloud => "pointcloud",
            SourceKind::Range => "range",
            SourceKind::Polygon => "polygon",
            SourceKind::Costmap => "costmap",
            SourceKind::Fleet => "fleet",
        }
    }

    /// Reads nav2's spelling; the error is the message a user sees.
    pub fn parse(text: &str) -> Result<Self, String> {
        SourceKind::ALL
            .into_iter()
            .find(|k| k.as_str() == text)
            .ok_or_else(|| "must be scan, pointcloud, range, polygon, costmap or fleet".to_owned())
    }

    /// Its data are its latest message, placed as one group (the points of
    /// a scan, a point cloud or a range reading; a costmap's cells), not
    /// polygons that each live on their own; a fleet's peers, rebuilt at
    /// each decision).
    pub fn is_points(self) -> bool {
        self != SourceKind::Polygon
    }
}

impl std::fmt::Display for SourceKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One source as the monitor needs it.
#[derive(Clone, Debug, PartialEq)]
pub struct SourceSpec {
    /// Its name in `observation_sources`: the report's id for its entry.
    pub name: String,
    /// What it reads.
    pub kind: SourceKind,
    /// `<name>.source_timeout` (s): its data are stale after it, by arrival
    /// or by stamp; 0 = never.
    pub timeout: f64,
    /// `<name>.enabled`: a disabled source counts for nothing (no cause, no
    /// points, no report entry).
    pub enabled: bool,
}
