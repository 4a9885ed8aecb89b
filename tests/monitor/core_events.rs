//! The node's rules tested in its core (`sat_collision::node::Core`),
//! without ROS: events in with their time injected, the [`Outputs`] to
//! publish out. Each child module is one group of rules that the rclpy
//! tests (`tests/python/`) check over a live ROS graph; here they run in
//! milliseconds.
//!
//! * `freshness`: the flag over a footprint, a scan source and an obstacle
//!   array, stale past their timeouts and back;
//! * `gate_actions`: the gate's actions over time (stop, its zeros then
//!   silence, slowdown, limit, approach, the state once per change);
//! * `invariant`: no command but zeros while the clock, a source or a
//!   polygon source cannot be judged, or after a backward jump of the
//!   clock (scenarios, then random sequences against a reference written
//!   here);
//! * `lifecycle`: nothing published while inactive, at once on activation;
//! * `diagnostics`: the statuses' levels;
//! * `dynamic_zone`: a zone whose shape comes on a topic: none yet stops,
//!   placed by TF (held until it can), a bad one refused;
//! * `parameters`: `follow`, its revision, `toggle`;
//! * `determinism`: the same events give the same outputs;
//! * `tf`: a source TF cannot place stops the gate until it can; a
//!   dynamic transform that stops is stale past `transform_tolerance`;
//! * `clock`: simulated time read as the node reads it (`ClockWatch`):
//!   no clock ever, a clock that stops;
//! * `zones`: `min_points`, `allow_escape`, the points and shapes drawn;
//! * `triggering_points`: the points that triggered the action (stop,
//!   slowdown, limit, approach), none when nothing acts, none while
//!   inactive;
//! * `prediction`: `collision_ahead` within the horizon, fail-safe without
//!   a usable velocity;
//! * `base_frame`: a source in the base frame needs no transform (nav2's
//!   configuration, `base_shift_correction` on, no `odom`), every other
//!   source still does;
//! * `gate_only`: a gate with no footprint configured: `/diagnostics`
//!   reads it healthy, the flag stays not valid (never a false clear);
//! * `costmap`: a costmap source's cells as the squares they cover,
//!   counted toward `min_points`, its parameters, malformed and stale
//!   costmaps.
//!
//! Time is in binary fractions of a second (multiples of 1/64 s) so that
//! every sum is exact and a timeout's boundary is where the test says.

mod base_frame;
mod clock;
mod costmap;
mod determinism;
mod diagnostics;
mod dynamic_zone;
mod exclusion;
mod fleet;
mod freshness;
mod gate_actions;
mod gate_only;
mod invariant;
mod lifecycle;
mod parameters;
mod prediction;
mod tf;
mod triggering_points;
mod zones;

use sat_collision::broadphase::PointSet;
use sat_collision::config::{parameters_of, NodeConfig};
use sat_collision::gate::Command;
use sat_collision::geometry::Point;
use sat_collision::model::{Cause, ObstacleGeometry};
use sat_collision::monitor::clock::ClockReading;
use sat_collision::node::{
    ArrayInput, Arrival, CommandIn, Core, FootprintInput, InstanceInput, Now, ObstacleBatch,
    Outputs, SourceInput, TfBuffer, TfSample,
};
use std::sync::{Arc, Mutex};

/// The node's name in the parameters files below.
pub(crate) const NODE: &str = "collision_monitor";
/// The robot's frame.
pub(crate) const BASE: &str = "base";
/// Every source's `source_timeout` in the scenes (s).
pub(crate) const SOURCE_TIMEOUT: f64 = 0.5;
/// The gate's `stop_pub_timeout` (s).
pub(crate) const STOP_PUB_TIMEOUT: f64 = 1.0;
/// The period of `publish_rate` (16 Hz), exact in binary.
pub(crate) const PERIOD: f64 = 1.0 / 16.0;
/// `slowdown_ratio` of the slowdown zone.
pub(crate) const SLOWDOWN_RATIO: f64 = 0.25;
/// `linear_limit`, `angular_limit` of the limit zone.
pub(crate) const LINEAR_LIMIT: f64 = 0.2;
/// See [`LINEAR_LIMIT`].
pub(crate) const ANGULAR_LIMIT: f64 = 0.3;
/// `time_before_collision` of the approach zone (s).
pub(crate) const TIME_BEFORE_COLLISION: f64 = 2.0;

/// The gate scene's sources, in `observation_sources`' order: one scan
/// per zone (`sources_names`), so that what one test puts in one zone is
/// seen by that zone only (test_gate.py's layout).
pub(crate) const S_STOP: usize = 0;
/// The slowdown zone's scan.
pub(crate) const S_SLOW: usize = 1;
/// The limit zone's scan.
pub(crate) const S_LIMIT: usize = 2;
/// The approach zone's scan.
pub(crate) const S_APPR: usize = 3;

/// A point inside the zones in front of the robot (x in [0.3, 0.6]) and
/// outside the robot's footprint (the 0.4 m square).
pub(crate) const IN_FRONT: (f64, f64) = (0.4, 0.0);

/// The gate scene (test_gate.py's, in the base frame `base`): the robot a
/// 0.4 m square (`robot_footprint`: the flag places it from TF), four scan
/// sources, a stop, a slowdown and a limit zone in front of the robot
/// (x in [0.3, 0.6]) and an approach zone that is the robot's own square.
/// `extra`: more lines of `ros__parameters` (4 spaces of indentation).
pub(crate) fn gate_yaml(extra: &str) -> String {
    let front = "[[0.6, 0.3], [0.6, -0.3], [0.3, -0.3], [0.3, 0.3]]";
    let robot = "[[0.2, 0.2], [0.2, -0.2], [-0.2, -0.2], [-0.2, 0.2]]";
    format!(
        "{NODE}:
  ros__parameters:
    base_frame_id: {BASE}
    robot_footprint: \"{robot}\"
    publish_rate: 16.0
    base_shift_correction: false
    stop_pub_timeout: {STOP_PUB_TIMEOUT}
    source_timeout: {SOURCE_TIMEOUT}
    observation_sources: [s_stop, s_slow, s_limit, s_appr]
    s_stop: {{type: scan, topic: s_stop}}
    s_slow: {{type: scan, topic: s_slow}}
    s_limit: {{type: scan, topic: s_limit}}
    s_appr: {{type: scan, topic: s_appr}}
    polygons: [stop, slow, limit, approach]
    stop: {{type: polygon, points: \"{front}\", action_type: stop, min_points: 1,
            sources_names: [s_stop], visualize: true}}
    slow: {{type: polygon, points: \"{front}\", action_type: slowdown,
            slowdown_ratio: {SLOWDOWN_RATIO}, min_points: 1, sources_names: [s_slow]}}
    limit: {{type: polygon, points: \"{front}\", action_type: limit,
             linear_limit: {LINEAR_LIMIT}, angular_limit: {ANGULAR_LIMIT}, min_points: 1,
             sources_names: [s_limit]}}
    approach: {{type: polygon, points: \"{robot}\", action_type: approach,
                time_before_collision: {TIME_BEFORE_COLLISION}, min_points: 1,
                sources_names: [s_appr]}}
{extra}"
    )
}

/// The node's configuration from a parameters file's text, as the node
/// starts up from it.
pub(crate) fn config_of(yaml: &str) -> NodeConfig {
    let values = parameters_of(yaml, NODE).expect("rcl reads the parameters");
    assert!(!values.is_empty(), "the file has {NODE}'s parameters");
    let mut config = NodeConfig::default();
    config.start_up(&values).expect("the node starts up");
    config
}

/// The gated twist published, if any.
pub(crate) fn published(out: &Outputs) -> Option<Command> {
    out.command.map(|c| c.command)
}

/// Whether `out` publishes a command that is not all zeros.
pub(crate) fn goes(out: &Outputs) -> bool {
    published(out).is_some_and(|c| !c.is_zero())
}

/// Asserts that two commands are equal within `tolerance` per component.
pub(crate) fn assert_close(got: Command, want: Command, tolerance: f64, what: &str) {
    let close = (got.x - want.x).abs() <= tolerance
        && (got.y - want.y).abs() <= tolerance
        && (got.w - want.w).abs() <= tolerance;
    assert!(close, "{what}: got {got:?}, want {want:?}");
}

/// A core fed by events at an injected time, every answer kept (as its
/// `Debug` text) in `log`.
pub(crate) struct Rig {
    /// The core under test.
    pub core: Core,
    /// ROS time now (s).
    pub t: f64,
    /// The clock's generation.
    pub generation: u32,
    /// The clock's fault (`NoClock`, `ClockStalled`), injected.
    pub clock_fault: Option<Cause>,
    /// Each scan source's points now (in its frame), sent by
    /// [`sense`](Self::sense); aligned with `observation_sources`.
    pub scene: Vec<Vec<(f64, f64)>>,
    /// Each scan source's frame.
    pub frames: Vec<String>,
    /// Which sources [`sense`](Self::sense) sends (a silent one is not).
    pub sending: Vec<bool>,
    /// How long before their arrival [`sense`](Self::sense)'s scans are
    /// stamped (s; 0: stamped now).
    pub stamp_lag: f64,
    /// Every answer, in order.
    pub log: Vec<String>,
    spare: Vec<PointSet>,
}

impl Rig {
    /// A configured core (inactive), its obstacle stage inline, at t = 1 s;
    /// `scans` sources are sent by [`sense`](Self::sense), all in `BASE`.
    pub fn new(config: NodeConfig, scans: usize) -> Rig {
        let tf = Arc::new(Mutex::new(TfBuffer::default()));
        let (core, stage, _notices) = Core::configure(config, tf).expect("configure");
        Rig {
            core: core.with_stage(stage),
            t: 1.0,
            generation: 0,
            clock_fault: None,
            scene: vec![Vec::new(); scans],
            frames: vec![BASE.to_owned(); scans],
            sending: vec![true; scans],
            stamp_lag: 0.0,
            log: Vec::new(),
            spare: Vec::new(),
        }
    }

    /// [`new`](Self::new) of the gate scene ([`gate_yaml`] with `extra`),
    /// every scan sent clear, then activated.
    pub fn gate(extra: &str) -> Rig {
        let mut rig = Rig::new(config_of(&gate_yaml(extra)), 4);
        rig.sense();
        rig.set_active(true);
        rig
    }

    /// The time of the next event: the clock's reading now.
    pub fn now(&self) -> Now {
        Now::of(ClockReading {
            ros: self.t,
            generation: self.generation,
            cause: self.clock_fault,
        })
    }

    /// An arrival now.
    pub fn arrival(&self) -> Arrival {
        Arrival {
            time: self.t,
            generation: self.generation,
        }
    }

    /// Time passes.
    pub fn advance(&mut self, dt: f64) {
        self.t += dt;
    }

    fn keep(&mut self, out: Outputs) -> Outputs {
        self.log.push(format!("{out:?}"));
        out
    }

    /// Every sending scan source's points (`scene`) arrive now, stamped
    /// `stamp_lag` before.
    pub fn sense(&mut self) -> Outputs {
        let mut inputs = Vec::new();
        for index in 0..self.scene.len() {
            if !self.sending[index] {
                continue;
            }
            let mut points = self.spare.pop().unwrap_or_default();
            points.clear();
            for &(x, y) in &self.scene[index] {
                assert!(points.push(Point::new(x, y)));
            }
            let input = SourceInput {
                index,
                frame_id: self.frames[index].clone(),
                moved: false,
                stamp: self.t - self.stamp_lag,
                points: Ok(points),
                cells: None,
                reason: "",
                exclusion: Default::default(),
            };
            inputs.push((input, self.arrival()));
        }
        self.sources(inputs)
    }

    /// One source's message refused for `cause`.
    pub fn refused(&mut self, index: usize, cause: Cause) -> Outputs {
        let input = SourceInput {
            index,
            frame_id: String::new(),
            moved: false,
            stamp: 0.0,
            points: Err(cause),
            cells: None,
            reason: "refused by the test",
            exclusion: Default::default(),
        };
        let arrival = self.arrival();
        self.sources(vec![(input, arrival)])
    }

    /// Sources' messages as read, each with its arrival.
    pub fn sources(&mut self, mut inputs: Vec<(SourceInput, Arrival)>) -> Outputs {
        let mut out = Outputs::default();
        let now = self.now();
        self.core
            .on_sources(&mut inputs, &mut self.spare, now, &mut out);
        self.keep(out)
    }

    /// A polygon from the polygon source at `source` (its id `id`, in
    /// `frame`), stamped now.
    pub fn polygon(
        &mut self,
        source: usize,
        id: i64,
        frame: &str,
        points: &[(f64, f64)],
    ) -> Outputs {
        let input = InstanceInput::Instance {
            frame_id: frame.to_owned(),
            stamp: self.t,
            id,
            source: Some(source),
            points: points.iter().map(|&(x, y)| Point::new(x, y)).collect(),
        };
        let batch = ObstacleBatch {
            array: None,
            instances: vec![(input, self.arrival())],
        };
        self.obstacle_batch(batch)
    }

    /// An obstacle array in `frame`, stamped now.
    pub fn obstacles(
        &mut self,
        frame: &str,
        obstacles: Vec<(String, ObstacleGeometry)>,
    ) -> Outputs {
        let input = ArrayInput::Obstacles {
            frame_id: frame.to_owned(),
            stamp: self.t,
            obstacles,
        };
        let batch = ObstacleBatch {
            array: Some((input, self.arrival())),
            instances: Vec::new(),
        };
        self.obstacle_batch(batch)
    }

    fn obstacle_batch(&mut self, batch: ObstacleBatch) -> Outputs {
        let mut out = Outputs::default();
        let now = self.now();
        self.core.on_obstacles(batch, now, &mut out);
        self.keep(out)
    }

    /// A footprint in `frame`, stamped now.
    pub fn footprint(&mut self, frame: &str, points: &[(f64, f64)]) -> Outputs {
        let input = FootprintInput {
            frame_id: frame.to_owned(),
            stamp: self.t,
            points: points.iter().map(|&(x, y)| Point::new(x, y)).collect(),
            rejected: None,
        };
        let mut out = Outputs::default();
        let (arrival, now) = (self.arrival(), self.now());
        self.core.on_footprint(&input, arrival, now, &mut out);
        self.keep(out)
    }

    /// A command `(x, y, w)` for the gate, now.
    pub fn command(&mut self, x: f64, y: f64, w: f64) -> Outputs {
        let command = CommandIn {
            command: Command::new(x, y, w),
            ..CommandIn::default()
        };
        let mut out = Outputs::default();
        let (arrival, now) = (self.arrival(), self.now());
        self.core.on_command(&command, arrival, now, &mut out);
        self.keep(out)
    }

    /// A period of `publish_rate`, now.
    pub fn tick(&mut self) -> Outputs {
        let mut out = Outputs::default();
        let now = self.now();
        self.core.tick(now, &mut out);
        self.keep(out)
    }

    /// Activate or deactivate, now.
    pub fn set_active(&mut self, active: bool) -> Outputs {
        let mut out = Outputs::default();
        let now = self.now();
        self.core.set_active(active, now, &mut out);
        self.keep(out)
    }

    /// A static transform `parent` → `child` (translation `x`, `y`, yaw
    /// `yaw`), received now.
    pub fn static_tf(&mut self, parent: &str, child: &str, x: f64, y: f64, yaw: f64) {
        let sample = TfSample {
            parent: Some(parent),
            child: Some(child),
            stamp: self.t,
            translation: [x, y, 0.0],
            rotation: [0.0, 0.0, (yaw / 2.0).sin(), (yaw / 2.0).cos()],
        };
        let arrival = self.arrival();
        let tf = Arc::clone(self.core.tf());
        let mut buffer = tf.lock().expect("the TF buffer");
        buffer.take([sample], true, arrival);
    }
}
