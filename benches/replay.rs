//! Throughput of `sat_collision replay` ([`sat_collision::replay::replay`]):
//! a recorded bag through the node's core, no ROS, as fast as it reads.
//!
//! ```bash
//! cargo bench --no-default-features --bench replay
//! # One case in a loop, no criterion (for callgrind; the bags kept in
//! # REPLAY_BAG_DIR and written only when missing, so that valgrind does
//! # not run the writing):
//! REPLAY_BAG_DIR=/tmp/replay_bags REPLAY_CASE=big REPLAY_RUNS=1 \
//!     valgrind --tool=callgrind target/release/deps/replay-<hash>
//! callgrind_annotate --inclusive=yes callgrind.out.<pid>   # replay::driver::replay's line
//! ```
//!
//! The setup writes two bags into a directory of its own under
//! `std::env::temp_dir()` (removed at the end), with `bag::BagWriter`
//! (zstd chunks, as `sat_collision replay --out` writes them), and the
//! parameters files next to them: nav2's
//! `collision_monitor` section (`config/collision_monitor.yaml`, nav2
//! Jazzy's `PolygonStop`, `PolygonSlow`, `FootprintApproach`), with
//! `robot_radius: 0.22` added (nav2's default robot; the node's flag and
//! report then run at every tick, a round footprint placed from TF).
//!
//! * **big**: 60 s of a 16-ring lidar (`sensor_msgs/PointCloud2`, 24,000
//!   points of x, y, z float32, 10 Hz) ray-cast in a 10 m × 10 m room with
//!   a pillar and a box that comes into `PolygonSlow` and `PolygonStop`
//!   for 4 s of every 20 and goes away again; the source is upstream's
//!   `pointcloud` (`min_height` 0.1, `max_height` 0.5). Commands
//!   (`geometry_msgs/Twist` on `cmd_vel_smoothed`) and `/tf`
//!   (`odom → base_footprint`) at 20 Hz, the local costmap's
//!   `published_footprint` at 5 Hz, `/tf_static` once.
//! * **small**: 11 s of a 360-ray laser scan at 10 Hz (the config's own
//!   `scan` source), the same box, commands and `/tf` at 20 Hz, the
//!   footprint at 5 Hz.
//!
//! Cases: `summary` (`Options` with no output: the summary alone),
//! `jsonl` (every output message as a JSON line into `/dev/null`) and
//! `no_radius` (the parameters file as shipped: the gate alone, no
//! footprint, so no flag and no decision at `/tf`). The
//! real-time factor (the bag's 60 s or 11 s over the wall time of one
//! replay) is printed after each group, for the fastest and the median
//! replay criterion ran, with the thread's CPU time. Results:
//! BENCHMARKS.md, "Replay throughput".

use criterion::{criterion_group, Criterion, SamplingMode};
use sat_collision::bag::{msgs, BagWriter};
use sat_collision::replay::{self, Options, Summary};
use sat_collision_testkit::SplitMix64 as Rng;
use std::cell::RefCell;
use std::f64::consts::{PI, TAU};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The bags start at this log time (s).
const T0: f64 = 1_000.0;
/// The big bag's length (s) and cloud size: 16 rings × 1,500 azimuths.
const BIG_SECONDS: f64 = 60.0;
const RINGS: usize = 16;
const AZIMUTHS: usize = 1_500;
/// The small bag's length (s) and scan size.
const SMALL_SECONDS: f64 = 11.0;
const RAYS: usize = 360;
/// The commanded speed (m/s), also the robot's speed along x in `odom`.
const SPEED: f64 = 0.2;
/// nav2's default robot: `robot_radius` 0.22, costmap `footprint_padding`
/// 0.01.
const ROBOT_RADIUS: f64 = 0.22;
const FOOTPRINT_PADDING: f64 = 0.01;
/// The lidar in `base_footprint`; the laser.
const LIDAR: [f64; 3] = [0.1, 0.0, 0.3];
const LASER: [f64; 3] = [-0.032, 0.0, 0.172];
/// The node's name: the parameters file's section.
const NODE: &str = "collision_monitor";
/// The footprint topic of `FootprintApproach`.
const FOOTPRINT_TOPIC: &str = "/local_costmap/published_footprint";

// ---------------------------------------------------------------------------
// Messages.

fn ns(t: f64) -> u64 {
    (t * 1e9).round() as u64
}

fn time(t: f64) -> msgs::Time {
    let sec = t.floor();
    msgs::Time {
        sec: sec as i32,
        nanosec: (((t - sec) * 1e9).round() as u32).min(999_999_999),
    }
}

fn header(frame: &str, t: f64) -> msgs::Header {
    msgs::Header {
        stamp: time(t),
        frame_id: frame.to_owned(),
    }
}

fn transform(parent: &str, child: &str, t: f64, xyz: [f64; 3]) -> msgs::TransformStamped {
    let mut tf = msgs::TransformStamped {
        header: header(parent, t),
        child_frame_id: child.to_owned(),
        ..Default::default()
    };
    tf.transform.translation.x = xyz[0];
    tf.transform.translation.y = xyz[1];
    tf.transform.translation.z = xyz[2];
    tf.transform.rotation.w = 1.0;
    tf
}

/// The robot's x in `odom` at `t` (s after the start).
fn robot_x(s: f64) -> f64 {
    SPEED * s
}

/// The box's near face (x in the base frame) at `s` s after the start:
/// every 20 s it comes from 3 m to 0.25 m in 7.86 s (inside `PolygonSlow`
/// from 7.4 s, `PolygonStop` from 7.7 s), stays 4 s, goes back.
fn box_at(s: f64) -> f64 {
    let p = s % 20.0;
    let (far, near, rate) = (3.0, 0.25, 0.35);
    let come = (far - near) / rate;
    if p < come {
        far - rate * p
    } else if p < come + 4.0 {
        near
    } else {
        (near + rate * (p - come - 4.0)).min(far)
    }
}

/// The box: x in `[d, d + 0.3]`, y in `[-0.2, 0.2]`, z in `[0, 0.4]`.
const BOX_DEPTH: f64 = 0.3;
const BOX_HALF_WIDTH: f64 = 0.2;
const BOX_HEIGHT: f64 = 0.4;
/// A pillar (infinite height) at (1.5, 1.0), radius 0.1; the room's walls
/// at ±5 m about the robot; the ceiling at 2.5 m.
const PILLAR: [f64; 3] = [1.5, 1.0, 0.1];
const ROOM: f64 = 5.0;
const CEILING: f64 = 2.5;

/// Distance along the ray from `o` in direction `d` (unit) to the first
/// surface of the scene with the box at `near`.
fn cast(o: [f64; 3], d: [f64; 3], near: f64) -> f64 {
    let mut t = f64::INFINITY;
    // Floor and ceiling.
    if d[2] < 0.0 {
        t = t.min(-o[2] / d[2]);
    } else if d[2] > 0.0 {
        t = t.min((CEILING - o[2]) / d[2]);
    }
    // Walls.
    for axis in 0..2 {
        if d[axis] != 0.0 {
            let wall = ROOM.copysign(d[axis]);
            t = t.min((wall - o[axis]) / d[axis]);
        }
    }
    // The box (slabs).
    let (lo, hi) = (
        [near, -BOX_HALF_WIDTH, 0.0],
        [near + BOX_DEPTH, BOX_HALF_WIDTH, BOX_HEIGHT],
    );
    let (mut enter, mut exit) = (0.0f64, f64::INFINITY);
    for axis in 0..3 {
        if d[axis] == 0.0 {
            if o[axis] < lo[axis] || o[axis] > hi[axis] {
                exit = -1.0;
            }
            continue;
        }
        let (a, b) = (
            (lo[axis] - o[axis]) / d[axis],
            (hi[axis] - o[axis]) / d[axis],
        );
        enter = enter.max(a.min(b));
        exit = exit.min(a.max(b));
    }
    if enter <= exit && exit >= 0.0 {
        t = t.min(enter);
    }
    // The pillar (a circle in the plane).
    let (px, py) = (o[0] - PILLAR[0], o[1] - PILLAR[1]);
    let a = d[0] * d[0] + d[1] * d[1];
    if a > 0.0 {
        let b = px * d[0] + py * d[1];
        let c = px * px + py * py - PILLAR[2] * PILLAR[2];
        let disc = b * b - a * c;
        if disc >= 0.0 {
            let hit = (-b - disc.sqrt()) / a;
            if hit > 0.0 {
                t = t.min(hit);
            }
        }
    }
    t
}

/// The lidar's cloud at `s` s after the start, stamped `t`: column by
/// column (16 rings at -15°..15° each), 1 cm of range noise.
fn lidar_cloud(rng: &mut Rng, s: f64, t: f64) -> msgs::PointCloud2 {
    let near = box_at(s);
    let mut data = Vec::with_capacity(RINGS * AZIMUTHS * 12);
    for j in 0..AZIMUTHS {
        let az = -PI + TAU * j as f64 / AZIMUTHS as f64;
        for k in 0..RINGS {
            let el = (-15.0 + 2.0 * k as f64).to_radians();
            let d = [el.cos() * az.cos(), el.cos() * az.sin(), el.sin()];
            let range = cast(LIDAR, d, near) + rng.range(-0.01, 0.01);
            for c in d {
                data.extend_from_slice(&((c * range) as f32).to_le_bytes());
            }
        }
    }
    let field = |name: &str, offset| msgs::PointField {
        name: name.into(),
        offset,
        datatype: 7,
        count: 1,
    };
    let n = (RINGS * AZIMUTHS) as u32;
    msgs::PointCloud2 {
        header: header("velodyne", t),
        height: 1,
        width: n,
        fields: vec![field("x", 0), field("y", 4), field("z", 8)],
        is_bigendian: false,
        point_step: 12,
        row_step: 12 * n,
        data,
        is_dense: true,
    }
}

/// The laser's scan at `s` s after the start, stamped `t`: 360 rays over
/// the full turn, 0.12 to 12 m, 1 cm of noise.
fn laser_scan(rng: &mut Rng, s: f64, t: f64) -> msgs::LaserScan {
    let near = box_at(s);
    let increment = TAU / RAYS as f64;
    let ranges = (0..RAYS)
        .map(|i| {
            let a = -PI + increment * i as f64;
            let range = cast(LASER, [a.cos(), a.sin(), 0.0], near) + rng.range(-0.01, 0.01);
            range as f32
        })
        .collect();
    msgs::LaserScan {
        header: header("base_scan", t),
        angle_min: -PI as f32,
        angle_max: (-PI + increment * (RAYS - 1) as f64) as f32,
        angle_increment: increment as f32,
        time_increment: 0.0,
        scan_time: 0.1,
        range_min: 0.12,
        range_max: 12.0,
        ranges,
        intensities: Vec::new(),
    }
}

/// What the local costmap publishes on `published_footprint`: the 16-gon
/// of `robot_radius`, padded, in `odom` at the robot's pose.
fn footprint(s: f64, t: f64) -> msgs::PolygonStamped {
    let x0 = robot_x(s);
    let sign = |v: f64| {
        if v > 0.0 {
            1.0
        } else if v < 0.0 {
            -1.0
        } else {
            0.0
        }
    };
    let points = (0..16)
        .map(|i| {
            let a = i as f64 * TAU / 16.0;
            let (x, y) = (a.cos() * ROBOT_RADIUS, a.sin() * ROBOT_RADIUS);
            msgs::Point32 {
                x: (x0 + x + sign(x) * FOOTPRINT_PADDING) as f32,
                y: (y + sign(y) * FOOTPRINT_PADDING) as f32,
                z: 0.0,
            }
        })
        .collect();
    msgs::PolygonStamped {
        header: header("odom", t),
        polygon: msgs::Polygon { points },
    }
}

fn twist(x: f64) -> msgs::Twist {
    let mut twist = msgs::Twist::default();
    twist.linear.x = x;
    twist
}

/// Which sensor a bag carries.
#[derive(Clone, Copy, PartialEq)]
enum Sensor {
    Lidar,
    Laser,
}

/// Writes a bag of `seconds` at `path`: steps of 50 ms (`/tf`, the sensor
/// every other step, the footprint every fourth, a command).
fn write_bag(path: &Path, seconds: f64, sensor: Sensor) {
    let mut w = BagWriter::create(path).expect("the bag");
    let mut rng = Rng::new(0x5eed);
    let (frame, at) = match sensor {
        Sensor::Lidar => ("velodyne", LIDAR),
        Sensor::Laser => ("base_scan", LASER),
    };
    let statics = msgs::TFMessage {
        transforms: vec![transform("base_footprint", frame, T0, at)],
    };
    w.write("/tf_static", ns(T0), &statics).expect("tf_static");
    let steps = (seconds / 0.05).round() as u64;
    for i in 0..steps {
        let s = i as f64 * 0.05;
        let t = T0 + s;
        let tf = msgs::TFMessage {
            transforms: vec![transform(
                "odom",
                "base_footprint",
                t,
                [robot_x(s), 0.0, 0.0],
            )],
        };
        w.write("/tf", ns(t), &tf).expect("tf");
        if i % 2 == 0 {
            // Stamped 20 ms before it is logged (the driver's latency).
            let stamp = t - 0.02;
            match sensor {
                Sensor::Lidar => w
                    .write("/points", ns(t), &lidar_cloud(&mut rng, s, stamp))
                    .expect("cloud"),
                Sensor::Laser => w
                    .write("/scan", ns(t), &laser_scan(&mut rng, s, stamp))
                    .expect("scan"),
            }
        }
        if i % 4 == 0 {
            w.write(FOOTPRINT_TOPIC, ns(t), &footprint(s, t))
                .expect("footprint");
        }
        w.write("/cmd_vel_smoothed", ns(t), &twist(SPEED))
            .expect("command");
    }
    w.finish().expect("finish");
}

/// `config/collision_monitor.yaml` with `robot_radius` and, for the
/// lidar, upstream's `pointcloud` source instead of `scan`.
fn write_params(path: &Path, sensor: Sensor, radius: bool) {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("config/collision_monitor.yaml");
    let mut text = std::fs::read_to_string(source).expect("config/collision_monitor.yaml");
    let mut edit = |from: &str, to: &str| {
        assert!(
            text.contains(from),
            "{from:?} in config/collision_monitor.yaml"
        );
        text = text.replace(from, to);
    };
    if radius {
        edit(
            "    base_frame_id: \"base_footprint\"\n",
            "    base_frame_id: \"base_footprint\"\n    robot_radius: 0.22\n",
        );
    }
    if sensor == Sensor::Lidar {
        edit(
            "    observation_sources: [\"scan\"]\n    scan:\n      type: \"scan\"\n      topic: \"scan\"\n",
            "    observation_sources: [\"pointcloud\"]\n    pointcloud:\n      type: \"pointcloud\"\n      \
             topic: \"points\"\n      min_height: 0.1\n      max_height: 0.5\n",
        );
    }
    std::fs::write(path, text).expect("params");
}

// ---------------------------------------------------------------------------
// The scratch directory.

/// The bags' directory: `REPLAY_BAG_DIR` (kept, bags written when
/// missing), else a new one under the temporary directory, removed when
/// dropped.
struct Scratch {
    dir: PathBuf,
    keep: bool,
}

impl Scratch {
    fn new() -> Self {
        if let Some(dir) = std::env::var_os("REPLAY_BAG_DIR") {
            let dir = PathBuf::from(dir);
            std::fs::create_dir_all(&dir).expect("REPLAY_BAG_DIR");
            return Scratch { dir, keep: true };
        }
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir = std::env::temp_dir().join(format!(
            "sat_collision_replay_bench_{}_{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        Scratch { dir, keep: false }
    }

    /// The bag of `name` (written unless a kept one is there), its
    /// parameters with `robot_radius` and without.
    fn case(&self, name: &str, seconds: f64, sensor: Sensor) -> (PathBuf, PathBuf, PathBuf) {
        let (bag, params, no_radius) = (
            self.dir.join(format!("{name}.mcap")),
            self.dir.join(format!("{name}.yaml")),
            self.dir.join(format!("{name}_no_radius.yaml")),
        );
        if !(self.keep && bag.exists()) {
            let start = Instant::now();
            write_bag(&bag, seconds, sensor);
            let size = std::fs::metadata(&bag).map_or(0, |m| m.len());
            eprintln!(
                "{name}: wrote {} ({:.1} MB) in {:.1} s",
                bag.display(),
                size as f64 / 1e6,
                start.elapsed().as_secs_f64()
            );
        }
        write_params(&params, sensor, true);
        write_params(&no_radius, sensor, false);
        (bag, params, no_radius)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

// ---------------------------------------------------------------------------
// The measurement.

fn options(bag: &Path, params: &Path, jsonl: bool) -> Options {
    Options {
        bag: bag.to_owned(),
        params: params.to_owned(),
        node_name: NODE.to_owned(),
        jsonl: jsonl.then(|| PathBuf::from("/dev/null")),
        out: None,
        svg: None,
    }
}

/// The calling thread's CPU time.
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec for the call to write.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

fn run(options: &Options) -> Summary {
    replay::replay(options).expect("replays")
}

/// What one replay found, checked: every message used, the zones met.
fn check(name: &str, summary: &Summary, clouds_or_scans: u64) {
    assert!(summary.skipped.is_empty(), "{name}: {:?}", summary.skipped);
    assert!(
        summary.bag_error.is_none(),
        "{name}: {:?}",
        summary.bag_error
    );
    assert!(
        summary.zone_stops > 0,
        "{name}: the box stops the robot\n{summary}"
    );
    let stops: Vec<String> = summary
        .zone_times
        .iter()
        .map(|z| format!("{} {} {:.2} s", z.action, z.zone, z.seconds))
        .collect();
    eprintln!(
        "{name}: {} messages ({clouds_or_scans} sensor), {} ticks, {} commands in, {} out ({} zeros), \
         {} stops; {}; least clearance {:?}",
        summary.messages,
        summary.ticks,
        summary.commands_in,
        summary.commands_out,
        summary.zeros_out,
        summary.zone_stops,
        stops.join(", "),
        summary.least_clearance.as_ref().map(|c| c.metres),
    );
}

/// Wall and CPU time of each replay criterion ran (warm-up included).
type Times = RefCell<Vec<(Duration, Duration)>>;

fn print_factor(name: &str, seconds: f64, times: &Times) {
    let mut times = times.borrow_mut();
    if times.is_empty() {
        return;
    }
    times.sort();
    let (fastest, median) = (times[0], times[times.len() / 2]);
    let mut cpu: Vec<Duration> = times.iter().map(|t| t.1).collect();
    cpu.sort();
    println!(
        "{name}: {} replays of {seconds} s; wall fastest {:.1} ms ({:.0}× real time), median \
         {:.1} ms ({:.0}×); CPU fastest {:.1} ms ({:.0}×)",
        times.len(),
        fastest.0.as_secs_f64() * 1e3,
        seconds / fastest.0.as_secs_f64(),
        median.0.as_secs_f64() * 1e3,
        seconds / median.0.as_secs_f64(),
        cpu[0].as_secs_f64() * 1e3,
        seconds / cpu[0].as_secs_f64(),
    );
    times.clear();
}

fn replay_bench(c: &mut Criterion) {
    let scratch = Scratch::new();
    let cases = [
        ("big", BIG_SECONDS, Sensor::Lidar, 600),
        ("small", SMALL_SECONDS, Sensor::Laser, 110),
    ];
    for (name, seconds, sensor, sensor_messages) in cases {
        let (bag, params, no_radius) = scratch.case(name, seconds, sensor);
        check(name, &run(&options(&bag, &params, false)), sensor_messages);
        let mut group = c.benchmark_group(format!("replay_{name}"));
        group
            .sample_size(10)
            .sampling_mode(SamplingMode::Flat)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(if name == "big" { 12 } else { 3 }));
        let variants = [
            ("summary", &params, false),
            ("jsonl", &params, true),
            ("no_radius", &no_radius, false),
        ];
        for (case, params, jsonl) in variants {
            let options = options(&bag, params, jsonl);
            let times = Times::default();
            group.bench_function(case, |b| {
                b.iter_custom(|iters| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        let (wall, cpu) = (Instant::now(), thread_cpu());
                        black_box(run(black_box(&options)));
                        let (wall, cpu) = (wall.elapsed(), thread_cpu() - cpu);
                        times.borrow_mut().push((wall, cpu));
                        total += wall;
                    }
                    total
                })
            });
            print_factor(&format!("replay_{name}/{case}"), seconds, &times);
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().without_plots();
    targets = replay_bench
}

/// `REPLAY_RUNS=N` (with `REPLAY_CASE=big|small`, `REPLAY_JSONL=1`,
/// `REPLAY_NO_RADIUS=1`, `REPLAY_PRINT=1` for the summary): the
/// case N times outside criterion, each replay's wall and CPU time
/// printed (for callgrind).
fn count_mode(runs: &str) {
    let runs: usize = runs.parse().expect("REPLAY_RUNS: a count");
    let case = std::env::var("REPLAY_CASE").unwrap_or_else(|_| "big".to_owned());
    let (seconds, sensor) = match case.as_str() {
        "big" => (BIG_SECONDS, Sensor::Lidar),
        "small" => (SMALL_SECONDS, Sensor::Laser),
        other => panic!("REPLAY_CASE: big or small, not {other}"),
    };
    let jsonl = std::env::var_os("REPLAY_JSONL").is_some();
    let scratch = Scratch::new();
    let (bag, params, no_radius) = scratch.case(&case, seconds, sensor);
    let params = match std::env::var_os("REPLAY_NO_RADIUS") {
        Some(_) => no_radius,
        None => params,
    };
    let options = options(&bag, &params, jsonl);
    let times = Times::default();
    let mut last = None;
    for _ in 0..runs {
        let (wall, cpu) = (Instant::now(), thread_cpu());
        last = Some(black_box(run(&options)));
        times
            .borrow_mut()
            .push((wall.elapsed(), thread_cpu() - cpu));
    }
    print_factor(&case, seconds, &times);
    if let Some(summary) = last {
        check(&case, &summary, if case == "big" { 600 } else { 110 });
        if std::env::var_os("REPLAY_PRINT").is_some() {
            println!("{summary}");
        }
    }
}

fn main() {
    if let Ok(runs) = std::env::var("REPLAY_RUNS") {
        count_mode(&runs);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
