//! The fleet at scale (issue #32, item 5): what one peer's update costs the
//! node's core while N peers are kept, N = 10, 100, 1,000.
//!
//! ```bash
//! cargo bench --no-default-features --bench fleet
//! # One case in a loop (for callgrind; no criterion), e.g.:
//! FLEET_REPEAT=update_1000 FLEET_REPS=2000 \
//!     valgrind --tool=callgrind target/release/deps/fleet-<hash>
//! ```
//!
//! The scene: this robot (a 0.5 m square at the origin of `map`, driving
//! at 0.5 m/s and turning at 0.3 rad/s, `time_horizon` 2 s, so every
//! decision also predicts `collision_ahead`) among N peers on a warehouse
//! grid (3 m apart, the robot's cell left free), each a chamfered
//! 0.7 × 0.5 m footprint (8 vertices), bounded by 1.5 m/s and 1 rad/s,
//! driving along its lane (1.5 m off the grid lines) at 0.5–1.5 m/s for
//! 2 s, then starting over; those 4 m or more out also turn at up to
//! 0.3 rad/s. No peer reaches the robot (the flag stays clear). Each
//! peer publishes at 10 Hz, so the peers' updates come
//! 1 / (10 N) s apart; peer k's message is its pose moved by its twist to
//! the update's time, stamped then (every peer fresh: its age at most
//! 0.1 s). The node's parameters are those of a fleet robot
//! (`observation_sources: [fleet]`, `fleet_timeout` 0.5 s, the robot's
//! footprint from `robot_footprint` placed by a static `map → base`).
//!
//! Groups (criterion's time per iteration is the time per update):
//! * `fleet_update/N`: one `Core::on_fleet` with one peer's message while
//!   N are kept: the message taken (`Fleet::receive`: its hull), the fleet
//!   source rebuilt from the N peers (`FleetCore::refresh`), the flag and
//!   the prediction: what the node does per fleet message before and
//!   right after its `collision`.
//! * `fleet_refresh/N`: `FleetCore::refresh` alone (N grown hulls, the
//!   ids, an `ObstacleIndex`, the source handed to the monitor).
//! * `fleet_obstacles_at/N`: `Fleet::obstacles_at` alone (the first part
//!   of the refresh: every peer's status, its hull placed and grown).
//!
//! Robot-to-robot time of impact per pair against parry2d's
//! `cast_shapes_nonlinear` is `benches/motion.rs`'s groups
//! `motion_fleet_*` (see BENCHMARKS.md, "Fleet").

use criterion::{criterion_group, BenchmarkId, Criterion, SamplingMode, Throughput};
use nalgebra::Isometry2;
use sat_collision::config::{parameters_of, NodeConfig};
use sat_collision::fleet::{Fleet, PeerEntry, PeerMessage};
use sat_collision::geometry::{Point, Vector};
use sat_collision::model::Obstacle;
use sat_collision::monitor::clock::ClockReading;
use sat_collision::monitor::{Monitor, MovingObstacle};
use sat_collision::node::{
    Arrival, Core, FleetCore, Now, Outputs, TfBuffer, TfSample, VelocityInput,
};
use sat_collision_testkit::shapes::chamfered_rectangle;
use sat_collision_testkit::SplitMix64 as Rng;
use std::hint::black_box;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The parameters file's node name.
const NODE: &str = "collision_monitor";
/// Peers kept in the three sizes.
const SIZES: [usize; 3] = [10, 100, 1000];
/// Each peer's rate (Hz).
const RATE: f64 = 10.0;
/// Grid spacing (m).
const SPACING: f64 = 3.0;
/// A peer's motion starts over every LOOP seconds (s): 3 m at most along
/// its lane, so no peer ever reaches this robot.
const LOOP: f64 = 2.0;
/// The prediction's horizon (s).
const HORIZON: f64 = 2.0;

fn yaml() -> String {
    let robot = "[[0.25, 0.25], [0.25, -0.25], [-0.25, -0.25], [-0.25, 0.25]]";
    format!(
        "{NODE}:
  ros__parameters:
    base_frame: base
    global_frame: map
    robot_footprint: \"{robot}\"
    base_shift_correction: false
    velocity_topic: odom
    velocity_timeout: 0.0
    time_horizon: {HORIZON}
    robot_id: this_robot
    fleet_timeout: 0.5
    max_linear_speed: 1.0
    max_angular_speed: 0.5
    observation_sources: [fleet]
    fleet: {{type: fleet}}
"
    )
}

fn config() -> NodeConfig {
    let values = parameters_of(&yaml(), NODE).expect("rcl reads the parameters");
    let mut config = NodeConfig::default();
    config.start_up(&values).expect("the node starts up");
    config
}

/// A peer's footprint: a 0.7 × 0.5 m rectangle with 5 cm chamfers.
fn footprint() -> Vec<Point> {
    chamfered_rectangle(0.35, 0.25, 0.05)
        .iter()
        .map(|&(a, b)| Point::new(a, b))
        .collect()
}

/// One peer: where it was at t = 0 and how it moves (body twist).
struct Peer {
    id: String,
    start: Isometry2<f64>,
    linear: f64,
    angular: f64,
    sequence: u64,
}

impl Peer {
    /// Its message at `stamp`: pose moved by its twist (a circular arc
    /// when it turns) for `stamp` modulo [`LOOP`] (each peer drives its
    /// lane for that long, then starts over), stamped `stamp`.
    fn message(&mut self, stamp: f64, footprint: &[Point]) -> PeerMessage {
        self.sequence += 1;
        let (v, w) = (self.linear, self.angular);
        let a = self.start.rotation.angle();
        let t = stamp % LOOP;
        let (dx, dy) = if w.abs() < 1e-12 {
            (v * t, 0.0)
        } else {
            ((v / w) * (w * t).sin(), (v / w) * (1.0 - (w * t).cos()))
        };
        let (c, s) = (a.cos(), a.sin());
        let translation =
            self.start.translation.vector + Vector::new(c * dx - s * dy, s * dx + c * dy);
        PeerMessage {
            robot_id: self.id.clone(),
            session: 7,
            sequence: self.sequence,
            frame_id: "map".to_owned(),
            stamp,
            footprint: footprint.to_vec(),
            pose: Isometry2::new(translation, a + w * t),
            linear: Vector::new(v, 0.0),
            angular: w,
            max_linear_speed: 1.5,
            max_angular_speed: 1.0,
            plan: Vec::new(),
        }
    }
}

/// `n` peers on the grid around the origin, each in a lane 1.5 m off the
/// grid lines (so none crosses this robot's cell): lanes along x and y,
/// both ways; peers 4 m or more out also turn (up to 0.3 rad/s).
fn peers(n: usize) -> Vec<Peer> {
    let mut rng = Rng::new(0xf1ee7 ^ n as u64);
    let side = (n as f64).sqrt().ceil() as i64;
    let half = side / 2;
    let mut out = Vec::with_capacity(n);
    'grid: for i in 0..side {
        for j in 0..side {
            if out.len() == n {
                break 'grid;
            }
            let k = out.len();
            let (gx, gy) = ((i - half) as f64 * SPACING, (j - half) as f64 * SPACING);
            let along_x = k % 2 == 0;
            let (x, y) = if along_x {
                (gx + rng.range(-0.5, 0.5), gy + 0.5 * SPACING)
            } else {
                (gx + 0.5 * SPACING, gy + rng.range(-0.5, 0.5))
            };
            let heading = std::f64::consts::FRAC_PI_2 * (k % 4) as f64;
            let angular = if x.abs().min(y.abs()) >= 4.0 {
                rng.range(-0.3, 0.3)
            } else {
                0.0
            };
            out.push(Peer {
                id: format!("robot_{k:04}"),
                start: Isometry2::new(Vector::new(x, y), heading),
                linear: rng.range(0.5, 1.5),
                angular,
                sequence: 0,
            });
        }
    }
    out
}

fn now(t: f64) -> Now {
    Now::of(ClockReading {
        ros: t,
        generation: 0,
        cause: None,
    })
}

/// A configured, active core holding `n` peers (each heard once, in one
/// batch), this robot's velocity held; the simulated time after it.
struct Scene {
    core: Core,
    peers: Vec<Peer>,
    footprint: Vec<Point>,
    t: f64,
    next: usize,
    messages: Vec<(Result<PeerMessage, sat_collision::fleet::Refusal>, f64)>,
}

impl Scene {
    fn new(n: usize) -> Scene {
        let tf = Arc::new(Mutex::new(TfBuffer::default()));
        let (core, stage, _) = Core::configure(config(), Arc::clone(&tf)).expect("configure");
        let mut core = core.with_stage(stage);
        let t = 1.0;
        let arrival = Arrival {
            time: t,
            generation: 0,
        };
        tf.lock().expect("TF").take(
            [TfSample {
                parent: Some("map"),
                child: Some("base"),
                stamp: t,
                translation: [0.0; 3],
                rotation: [0.0, 0.0, 0.0, 1.0],
            }],
            true,
            arrival,
        );
        let mut out = Outputs::default();
        core.set_active(true, now(t), &mut out);
        let velocity = VelocityInput {
            frame_id: String::new(),
            stamp: t,
            linear: (0.5, 0.0),
            angular: 0.3,
            rejected: false,
        };
        core.on_velocity(&velocity, arrival, now(t), &mut out);
        let mut peers = peers(n);
        let footprint = footprint();
        let mut messages: Vec<_> = peers
            .iter_mut()
            .map(|p| (Ok(p.message(t, &footprint)), t))
            .collect();
        let mut out = Outputs::default();
        core.on_fleet(&mut messages, now(t), &mut out);
        let flag = out.flag.expect("a decision");
        assert!(flag.valid, "the scene is judged: {flag:?}");
        assert!(!flag.colliding, "no peer on the robot: {flag:?}");
        assert!(out.ahead.is_some(), "a prediction");
        assert_eq!(core.fleet().statuses().len(), n);
        Scene {
            core,
            peers,
            footprint,
            t,
            next: 0,
            messages,
        }
    }

    /// The next peer's update, 1 / (10 N) s after the previous one.
    fn update(&mut self) -> bool {
        self.t += 1.0 / (RATE * self.peers.len() as f64);
        let t = self.t;
        let message = self.peers[self.next].message(t, &self.footprint);
        self.next = (self.next + 1) % self.peers.len();
        self.messages.push((Ok(message), t));
        let mut out = Outputs::default();
        self.core.on_fleet(&mut self.messages, now(t), &mut out);
        out.flag.is_some_and(|f| f.colliding)
    }
}

/// `FleetCore::refresh` alone on `n` peers, with a monitor of the same
/// configuration.
struct RefreshScene {
    fleet: FleetCore,
    monitor: Monitor,
    t: f64,
}

impl RefreshScene {
    fn new(n: usize) -> RefreshScene {
        let config = config();
        let mut fleet = FleetCore::new(&config, 1);
        let monitor = Monitor::new(config.monitor.clone());
        let footprint = footprint();
        let t = 1.0;
        let mut messages: Vec<_> = peers(n)
            .iter_mut()
            .map(|p| (Ok(p.message(t, &footprint)), t))
            .collect();
        let mut notices = Vec::new();
        fleet.receive(&mut messages, &mut notices);
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(fleet.fleet().len(), n);
        RefreshScene {
            fleet,
            monitor,
            t: t + 0.05,
        }
    }
}

/// `Fleet::obstacles_at`'s buffers.
struct Buffers {
    obstacles: Vec<Obstacle>,
    moving: Vec<MovingObstacle>,
}

fn obstacles_at(fleet: &Fleet, t: f64, b: &mut Buffers) -> usize {
    let mut entries: Vec<PeerEntry<'_>> = Vec::with_capacity(fleet.len());
    fleet.obstacles_at(t, HORIZON, &mut b.obstacles, &mut b.moving, &mut entries);
    entries.len()
}

fn fleet(c: &mut Criterion) {
    let mut group = c.benchmark_group("fleet_update");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .sampling_mode(SamplingMode::Flat)
        .throughput(Throughput::Elements(1));
    for n in SIZES {
        let mut scene = Scene::new(n);
        group.bench_function(BenchmarkId::from_parameter(n), |bench| {
            bench.iter(|| black_box(scene.update()))
        });
    }
    group.finish();

    let mut group = c.benchmark_group("fleet_refresh");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .sampling_mode(SamplingMode::Flat);
    for n in SIZES {
        let mut scene = RefreshScene::new(n);
        group.bench_function(BenchmarkId::from_parameter(n), |bench| {
            bench.iter(|| {
                scene.fleet.refresh(&mut scene.monitor, scene.t, HORIZON);
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("fleet_obstacles_at");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .sampling_mode(SamplingMode::Flat);
    for n in SIZES {
        let scene = RefreshScene::new(n);
        let mut buffers = Buffers {
            obstacles: Vec::new(),
            moving: Vec::new(),
        };
        group.bench_function(BenchmarkId::from_parameter(n), |bench| {
            bench.iter(|| black_box(obstacles_at(scene.fleet.fleet(), scene.t, &mut buffers)))
        });
    }
    group.finish();
}

/// `FLEET_REPEAT=<update|refresh|obstacles_at>_<N>`: that case only,
/// `FLEET_REPS` times (default 1,000) after the setup, for instruction
/// counts (run it with `FLEET_REPS=0` too and subtract).
fn repeat(which: &str) {
    let reps: usize = std::env::var("FLEET_REPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let (case, n) = which
        .rsplit_once('_')
        .and_then(|(c, n)| Some((c, n.parse::<usize>().ok()?)))
        .unwrap_or_else(|| panic!("FLEET_REPEAT={which}: <case>_<N>"));
    let mut count = 0usize;
    match case {
        "update" => {
            let mut scene = Scene::new(n);
            for _ in 0..reps {
                count += usize::from(black_box(scene.update()));
            }
        }
        "refresh" => {
            let mut scene = RefreshScene::new(n);
            for _ in 0..reps {
                scene.fleet.refresh(&mut scene.monitor, scene.t, HORIZON);
                count += 1;
            }
        }
        "obstacles_at" => {
            let scene = RefreshScene::new(n);
            let mut buffers = Buffers {
                obstacles: Vec::new(),
                moving: Vec::new(),
            };
            for _ in 0..reps {
                count += black_box(obstacles_at(scene.fleet.fleet(), scene.t, &mut buffers));
            }
        }
        other => panic!("unknown FLEET_REPEAT case {other}"),
    }
    let what = match case {
        "update" => "flags colliding",
        "refresh" => "refreshes",
        _ => "peers placed",
    };
    eprintln!("{which}: {reps} repetitions ({count} {what})");
}

criterion_group! {
    name = benches;
    config = Criterion::default().nresamples(2_000).without_plots();
    targets = fleet
}

fn main() {
    if let Ok(which) = std::env::var("FLEET_REPEAT") {
        repeat(&which);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
