//! Node latency over ROS 2 (issue item 4): footprint message in → `collision`
//! out, next to the transport floor measured in the same run; plus a soak
//! (resident memory at 1 kHz) and an allocation count per message.
//!
//! ```bash
//! source scripts/env.sh
//! export ROS_DOMAIN_ID=142                       # default: 101 + PID % 100
//! cargo bench --bench node_latency               # latency table (~15 s)
//! cargo bench --bench node_latency -- --help     # every mode and option
//! scripts/bench_node.sh                          # latency, allocations, soak
//! ```
//!
//! One client process (this binary) with an r2r node of its own starts the
//! real `sat_collision_node` (built by the same `cargo bench`, bench profile
//! = release) and the echo processes as children, then drives them over ROS 2
//! topics on this machine (Fast DDS, default transports: shared memory and
//! UDP on loopback).
//!
//! * **Scene**: 1,000 obstacles (75 % convex polygons with 3–8 vertices,
//!   25 % circles) scattered at one per 4 m² over a 63 m square, all in
//!   `map`, published once (`obstacles_timeout:=0` and
//!   `footprint_timeout:=0`, so nothing goes stale between blocks); the node
//!   runs with its default parameters otherwise (`exact_range` 5 m,
//!   `publish_rate` 10 Hz) and `markers_rate:=0.0`.
//! * **Messages**: `PolygonStamped` footprints (a chamfered 1.0 × 0.6 m
//!   octagon) at 200 precomputed poses that alternate between colliding and
//!   clear; the expected answer of every pose is computed beforehand with
//!   the library (`Monitor::evaluate` on the same float32 inputs). The `Bool`
//!   carries no sequence number, but consecutive answers alternate, so the
//!   answer to message k is the first `Bool` that reads `expected(k)`: a
//!   timer re-publication (which repeats the previous answer) is skipped and
//!   counted, a wrong answer shows as a lost message. `--steady` sends clear
//!   footprints only (the flag never changes, so the node never logs a
//!   transition; a timer re-publication can then pass for an answer, about
//!   one sample in 500, always a short one).
//! * **Floor**: `--echo` is a mode of this binary with the node's
//!   architecture (r2r spinning on a blocking thread, a tokio task on the
//!   subscription stream) that answers each footprint with a `Bool` at once
//!   (the expected bit rides in `header.stamp.nanosec`). Measured next to
//!   it: `--echo-entities`, the same echo with the node's other
//!   subscriptions and services (r2r rebuilds its wait set with every entity
//!   on every wake-up), and `--echo-st`, which answers from the spinning
//!   thread itself (no hand-over to tokio). `--echo-burn-us US` adds an echo
//!   that computes for US µs right after each answer, as the node does when
//!   it builds its report after the flag.
//! * **Pacing**: one message in flight; the next is sent `--period-us` after
//!   the previous one (default 1000: 1 kHz) or at once when the answer came
//!   later (`--period-us 0`: back to back). Targets are driven in
//!   interleaved blocks (`--block`, rotating order), so all of them see the
//!   same machine load.
//! * `--report`: another phase with a node whose `collision_report` (one
//!   result per obstacle, built and published after each flag) is
//!   subscribed by another process (`--sink`, raw: no deserialisation),
//!   against the echo. With `--allocs`: that node's allocations too.
//! * `--markers`: another phase with a node at `markers_rate` 10 Hz whose
//!   `collision_markers` and `collision_report` are subscribed by the sink,
//!   against the echo.
//! * `--soak SECONDS --rate HZ`: the node alone, driven at a fixed rate
//!   (one in flight when the node keeps up; an answer not in before the next
//!   send is counted late), resident memory (`VmRSS`) read from
//!   `/proc/PID/status` every `--rss-every` seconds.
//! * `--allocs`: builds a tiny `LD_PRELOAD` library (C, with `cc`) that
//!   counts every `malloc`/`calloc`/`realloc`/`memalign` of a process into
//!   a shared file, starts the node, the echo and the echo with the node's
//!   entities with it and reports the
//!   allocation calls per message (raw, and net of the idle rate measured
//!   just before). Nothing in the node is changed for it.

mod common;

use common::Rng;
use futures::{FutureExt, Stream, StreamExt};
use r2r::geometry_msgs::msg::{Point32, Polygon, PolygonInstanceStamped, PolygonStamped};
use r2r::sat_collision_msgs::msg::{CollisionReport, Obstacle as ObstacleMsg, ObstacleArray};
use r2r::sat_collision_msgs::srv::CheckFootprint;
use r2r::std_msgs::msg::{Bool, Header};
use r2r::{Publisher, QosProfile};
use sat_collision::config::NodeConfig;
use sat_collision::monitor::{Monitor, MonitorConfig};
use sat_collision::ros::convert;
use std::error::Error;
use std::f64::consts::TAU;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

type Res<T> = Result<T, Box<dyn Error>>;
type BoolStream = Box<dyn Stream<Item = Bool> + Unpin>;

const NODE_BIN: &str = env!("CARGO_BIN_EXE_sat_collision_node");
const FRAME: &str = "map";
/// Obstacles per square metre (as in `benches/scale.rs`).
const DENSITY: f64 = 0.25;
/// Environment variable of the echo: µs of busy work after each answer.
const BURN_VAR: &str = "NODE_LATENCY_BURN_US";
/// Answer deadline of one message; later = lost.
const TIMEOUT: Duration = Duration::from_secs(1);

const USAGE: &str = "\
node_latency: sat_collision_node latency over ROS 2 against the transport floor

  cargo bench --bench node_latency -- [OPTIONS]

latency (default):
  --samples N      measured messages per target (default 2000)
  --warmup N       unmeasured messages per target first (default 300)
  --block N        messages per target before switching (default 50)
  --period-us US   send period, one in flight; 0 = back to back (default 1000)
  --obstacles N    obstacles in the scene (default 1000)
  --report         also: a node whose report is subscribed, vs the echo
  --markers        also: a node publishing markers to a subscriber, vs the echo
  --no-echo-st     skip the single-threaded echo
  --echo-burn-us US  also: an echo that computes for US µs after each answer
                   (what the node's post-flag work costs the flag's delivery)
  --steady         only clear footprints (the flag never changes; a timer
                   re-publication can then pass for an answer: ~0.2 % of samples)
soak:
  --soak SECONDS   drive the node alone for SECONDS
  --rate HZ        soak rate (default 1000)
  --rss-every S    RSS sample period in seconds (default 5)
  (the soak always uses --steady)
allocations:
  --allocs         count allocation calls per message in the node, the echo and
                   the echo with the node's entities (with --report: also the
                   node with its report subscribed)
                   (always --steady: the steady state the target is about)
node:
  --node-bin PATH  the node binary (default: the one cargo built with this bench)
  --node-param P   extra `-p P` for the node, e.g. exact_range:=1.0 (repeatable)
internal:
  --echo NS        run the echo (tokio hand-over, like the node) in namespace NS
  --echo-entities NS  the same echo with the node's other ROS entities
                   (2 more subscriptions, 7 services: the same wait set)
  --echo-st NS     run the single-threaded echo in namespace NS
  --sink NS        subscribe (raw) to NS/collision_markers and NS/collision_report";

// ---------------------------------------------------------------------------
// Options

#[derive(Clone)]
struct Options {
    samples: usize,
    warmup: usize,
    block: usize,
    period: Duration,
    obstacles: usize,
    markers: bool,
    report: bool,
    echo_st: bool,
    soak: Option<f64>,
    rate: f64,
    rss_every: f64,
    allocs: bool,
    steady: bool,
    node_bin: PathBuf,
    node_params: Vec<String>,
    burn: Option<u64>,
}

enum Mode {
    Client(Options),
    /// The echo; `true`: with the node's ROS entities.
    Echo(String, bool),
    EchoSingleThread(String),
    Sink(String),
}

fn parse_args() -> Res<Mode> {
    let mut o = Options {
        samples: 2000,
        warmup: 300,
        block: 50,
        period: Duration::from_micros(1000),
        obstacles: 1000,
        markers: false,
        report: false,
        echo_st: true,
        soak: None,
        rate: 1000.0,
        rss_every: 5.0,
        allocs: false,
        steady: false,
        node_bin: PathBuf::from(NODE_BIN),
        node_params: Vec::new(),
        burn: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| -> Res<String> {
            args.next()
                .ok_or_else(|| format!("{name} needs a value").into())
        };
        match arg.as_str() {
            // `cargo bench` passes --bench; filters are not used here.
            "--bench" => {}
            "--help" | "-h" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            "--echo" => return Ok(Mode::Echo(value("--echo")?, false)),
            "--echo-entities" => return Ok(Mode::Echo(value("--echo-entities")?, true)),
            "--echo-st" => return Ok(Mode::EchoSingleThread(value("--echo-st")?)),
            "--sink" => return Ok(Mode::Sink(value("--sink")?)),
            "--samples" => o.samples = value(&arg)?.parse()?,
            "--warmup" => o.warmup = value(&arg)?.parse()?,
            "--block" => o.block = value(&arg)?.parse::<usize>()?.max(1),
            "--period-us" => o.period = Duration::from_micros(value(&arg)?.parse()?),
            "--obstacles" => o.obstacles = value(&arg)?.parse()?,
            "--markers" => o.markers = true,
            "--report" => o.report = true,
            "--no-echo-st" => o.echo_st = false,
            "--soak" => o.soak = Some(value(&arg)?.parse()?),
            "--rate" => o.rate = value(&arg)?.parse()?,
            "--rss-every" => o.rss_every = value(&arg)?.parse()?,
            "--allocs" => o.allocs = true,
            "--steady" => o.steady = true,
            "--node-bin" => o.node_bin = PathBuf::from(value(&arg)?),
            "--node-param" => o.node_params.push(value(&arg)?),
            "--echo-burn-us" => o.burn = Some(value(&arg)?.parse()?),
            other => return Err(format!("unknown argument `{other}`\n\n{USAGE}").into()),
        }
    }
    if !(o.rate > 0.0 && o.rss_every > 0.0) {
        return Err("--rate and --rss-every must be > 0".into());
    }
    Ok(Mode::Client(o))
}

// ---------------------------------------------------------------------------
// Scene and footprints

fn point32(x: f64, y: f64) -> Point32 {
    Point32 {
        x: x as f32,
        y: y as f32,
        z: 0.0,
    }
}

fn header(stamp_nanosec: u32) -> Header {
    let mut h = Header {
        frame_id: FRAME.to_owned(),
        ..Default::default()
    };
    h.stamp.nanosec = stamp_nanosec;
    h
}

/// Obstacle centres and the scene message: `count` obstacles at constant
/// density around the origin.
fn scene(count: usize) -> (Vec<(f64, f64)>, ObstacleArray) {
    let mut rng = Rng(0x5EED_0004 ^ count as u64);
    let half = 0.5 * (count as f64 / DENSITY).sqrt().max(3.0);
    let mut centres = Vec::with_capacity(count);
    let mut obstacles = Vec::with_capacity(count);
    for k in 0..count {
        let (cx, cy) = (rng.range(-half, half), rng.range(-half, half));
        centres.push((cx, cy));
        let (points, radius) = if rng.unit() < 0.25 {
            (vec![point32(cx, cy)], rng.range(0.1, 0.4))
        } else {
            let n = 3 + (k % 6);
            let r = rng.range(0.15, 0.5);
            let rotation = rng.range(0.0, TAU);
            let points = (0..n)
                .map(|j| {
                    let t = rotation + (j as f64 + rng.range(-0.3, 0.3)) * TAU / n as f64;
                    point32(cx + r * t.cos(), cy + r * t.sin())
                })
                .collect();
            (points, 0.0)
        };
        obstacles.push(ObstacleMsg {
            id: format!("obstacle_{k}"),
            polygon: Polygon { points },
            radius,
        });
    }
    let msg = ObstacleArray {
        header: header(0),
        obstacles,
    };
    (centres, msg)
}

/// The robot: a chamfered 1.0 × 0.6 m rectangle (octagon), robot frame.
const FOOTPRINT: [(f64, f64); 8] = [
    (0.5, -0.22),
    (0.5, 0.22),
    (0.42, 0.3),
    (-0.42, 0.3),
    (-0.5, 0.22),
    (-0.5, -0.22),
    (-0.42, -0.3),
    (0.42, -0.3),
];

fn placed(x: f64, y: f64, yaw: f64) -> Polygon {
    let (s, c) = yaw.sin_cos();
    Polygon {
        points: FOOTPRINT
            .iter()
            .map(|&(px, py)| point32(x + c * px - s * py, y + s * px + c * py))
            .collect(),
    }
}

/// One footprint to send and the collision flag the node must answer.
struct Probe {
    polygon: Polygon,
    colliding: bool,
}

/// `2 × pairs` probes alternating colliding / clear, each checked with the
/// library on the float32 coordinates the node will see.
fn probes(centres: &[(f64, f64)], scene: &ObstacleArray, pairs: usize) -> Vec<Probe> {
    let config = MonitorConfig {
        footprint_timeout: 0.0,
        obstacles_timeout: 0.0,
        ..NodeConfig::default().monitor
    };
    let mut monitor = Monitor::new(config);
    let obstacles = scene.obstacles.iter().map(convert::obstacle).collect();
    monitor.set_obstacles(FRAME, obstacles, 0.0);
    let mut check = |polygon: &Polygon| {
        monitor.set_footprint(FRAME, &convert::points(polygon), 0.0);
        let report = monitor.evaluate(0.0);
        assert!(report.valid, "scene not valid: {}", report.status);
        report
    };
    let mut rng = Rng(0xF00D);
    let half = 0.5 * (centres.len() as f64 / DENSITY).sqrt().max(3.0) - 1.0;
    let mut out = Vec::with_capacity(2 * pairs);
    while out.len() < 2 * pairs {
        // Colliding: centred on an obstacle (every obstacle contains its centre).
        let (cx, cy) = centres[(rng.unit() * centres.len() as f64) as usize % centres.len()];
        let polygon = placed(cx, cy, rng.range(0.0, TAU));
        assert!(
            check(&polygon).colliding,
            "a footprint on an obstacle must collide"
        );
        out.push(Probe {
            polygon,
            colliding: true,
        });
        // Clear: anywhere at least 5 cm from every obstacle.
        loop {
            let polygon = placed(
                rng.range(-half, half),
                rng.range(-half, half),
                rng.range(0.0, TAU),
            );
            let report = check(&polygon);
            if !report.colliding && report.min_distance > 0.05 {
                out.push(Probe {
                    polygon,
                    colliding: false,
                });
                break;
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Child processes

extern "C" {
    fn prctl(option: i32, ...) -> i32;
    fn kill(pid: i32, sig: i32) -> i32;
}
const PR_SET_PDEATHSIG: i32 = 1;
const SIGKILL: i32 = 9;
const SIGTERM: i32 = 15;

/// A child (node or echo): SIGTERM, then SIGKILL, on drop; the kernel kills
/// it if this process dies first.
struct ChildProcess {
    name: String,
    child: Child,
    log: PathBuf,
}

impl ChildProcess {
    fn spawn(name: &str, mut cmd: Command, dir: &Path) -> Res<ChildProcess> {
        let log = dir.join(format!("{name}.log"));
        let file = std::fs::File::create(&log)?;
        cmd.stdin(Stdio::null())
            .stdout(file.try_clone()?)
            .stderr(file);
        unsafe {
            use std::os::unix::process::CommandExt;
            cmd.pre_exec(|| {
                prctl(PR_SET_PDEATHSIG, SIGKILL);
                Ok(())
            });
        }
        let child = cmd
            .spawn()
            .map_err(|e| format!("cannot start {name} ({cmd:?}): {e}"))?;
        Ok(ChildProcess {
            name: name.to_owned(),
            child,
            log,
        })
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    fn check_running(&mut self) -> Res<()> {
        if let Some(status) = self.child.try_wait()? {
            let log = std::fs::read_to_string(&self.log).unwrap_or_default();
            return Err(format!("{} exited ({status}); log:\n{log}", self.name).into());
        }
        Ok(())
    }
}

impl Drop for ChildProcess {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            unsafe {
                kill(self.child.id() as i32, SIGTERM);
            }
            let deadline = Instant::now() + Duration::from_secs(5);
            while Instant::now() < deadline {
                if !matches!(self.child.try_wait(), Ok(None)) {
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn node_command(o: &Options, ns: &str, markers_rate: f64) -> Command {
    let mut cmd = Command::new(&o.node_bin);
    cmd.args(["--ros-args", "-r", &format!("__ns:={ns}")]);
    for p in [
        format!("markers_rate:={markers_rate:.1}"),
        "footprint_timeout:=0.0".to_owned(),
        "obstacles_timeout:=0.0".to_owned(),
    ] {
        cmd.arg("-p").arg(p);
    }
    for p in &o.node_params {
        cmd.arg("-p").arg(p);
    }
    cmd
}

fn echo_command(flag: &str, ns: &str) -> Res<Command> {
    let mut cmd = Command::new(std::env::current_exe()?);
    cmd.args([flag, ns]);
    Ok(cmd)
}

/// Makes `cmd` count its allocations into `counter`.
fn with_alloc_counter(cmd: &mut Command, lib: &Path, counter: &Path) -> Res<()> {
    std::fs::write(counter, [0u8; 4096])?;
    cmd.env("LD_PRELOAD", lib).env("MALLOC_COUNT_FILE", counter);
    Ok(())
}

// ---------------------------------------------------------------------------
// /proc

fn status_kb(pid: u32, field: &str) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    text.lines()
        .find(|l| l.starts_with(field))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// User + system CPU time of a process.
fn cpu_time(pid: u32) -> Duration {
    let Ok(text) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return Duration::ZERO;
    };
    // Fields after the command name (which may contain spaces).
    let rest = text.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of stat, i.e. 11 and 12 after `)`.
    let ticks: u64 = [11, 12]
        .iter()
        .filter_map(|&i| fields.get(i)?.parse::<u64>().ok())
        .sum();
    // USER_HZ is 100 on Linux.
    Duration::from_millis(ticks * 10)
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

// ---------------------------------------------------------------------------
// The client

/// One process answering footprints with `Bool`s.
struct Target {
    label: String,
    ns: String,
    footprint: Publisher<PolygonStamped>,
    flags: BoolStream,
    process: ChildProcess,
    samples: Vec<f64>,
    lost: usize,
    skipped: usize,
    cpu: Duration,
    counter: Option<PathBuf>,
}

struct Client {
    node: r2r::Node,
    probes: Vec<Probe>,
    scene: ObstacleArray,
    sent: usize,
    dir: PathBuf,
}

/// Alternating bit carried in the echo's message: `expected` as parity.
fn stamp_for(expected: bool) -> u32 {
    u32::from(expected)
}

impl Client {
    fn message(&self, k: usize) -> (PolygonStamped, bool) {
        let probe = &self.probes[k % self.probes.len()];
        let msg = PolygonStamped {
            header: header(stamp_for(probe.colliding)),
            polygon: probe.polygon.clone(),
        };
        (msg, probe.colliding)
    }

    fn target(&mut self, label: &str, ns: String, process: ChildProcess) -> Res<Target> {
        let footprint = self.node.create_publisher::<PolygonStamped>(
            &format!("{ns}/footprint"),
            QosProfile::default(),
        )?;
        let flags = Box::new(
            self.node
                .subscribe::<Bool>(&format!("{ns}/collision"), QosProfile::default())?,
        );
        Ok(Target {
            label: label.to_owned(),
            ns,
            footprint,
            flags,
            process,
            samples: Vec::new(),
            lost: 0,
            skipped: 0,
            cpu: Duration::ZERO,
            counter: None,
        })
    }

    /// Spins for `d`, dropping what arrives on `targets`' flag streams.
    fn idle(&mut self, d: Duration, targets: &mut [Target]) {
        let end = Instant::now() + d;
        while let Some(left) = end.checked_duration_since(Instant::now()) {
            self.node.spin_once(left.min(Duration::from_millis(5)));
            for t in targets.iter_mut() {
                while let Some(Some(_)) = t.flags.next().now_or_never() {}
            }
        }
    }

    /// Publishes the scene and a footprint until the node's report is valid
    /// and covers every obstacle.
    fn setup_node(&mut self, t: &mut Target) -> Res<()> {
        let mut reports = self.node.subscribe::<CollisionReport>(
            &format!("{}/collision_report", t.ns),
            QosProfile::default(),
        )?;
        let obstacles = self.node.create_publisher::<ObstacleArray>(
            &format!("{}/obstacles", t.ns),
            QosProfile::default(),
        )?;
        let (msg, _) = self.message(1);
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut last = String::from("no report");
        loop {
            t.process.check_running()?;
            if Instant::now() > deadline {
                return Err(format!("{}: no valid report within 60 s ({last})", t.label).into());
            }
            obstacles.publish(&self.scene)?;
            t.footprint.publish(&msg)?;
            let until = Instant::now() + Duration::from_millis(300);
            while Instant::now() < until {
                self.node.spin_once(Duration::from_millis(10));
                while let Some(Some(r)) = reports.next().now_or_never() {
                    if r.status == "ok" && r.results.len() == self.scene.obstacles.len() {
                        drop(reports);
                        // r2r drops the subscription when its next message
                        // finds the stream gone; a timer report does that.
                        self.idle(Duration::from_millis(500), std::slice::from_mut(t));
                        return Ok(());
                    }
                    last = format!("status {}, {} results", r.status, r.results.len());
                }
                while let Some(Some(_)) = t.flags.next().now_or_never() {}
            }
        }
    }

    /// Sends footprints until the echo answers.
    fn setup_echo(&mut self, t: &mut Target) -> Res<()> {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            t.process.check_running()?;
            if Instant::now() > deadline {
                return Err(format!("{}: no answer within 60 s", t.label).into());
            }
            let (msg, _) = self.message(0);
            t.footprint.publish(&msg)?;
            let until = Instant::now() + Duration::from_millis(300);
            while Instant::now() < until {
                self.node.spin_once(Duration::from_millis(10));
                if let Some(Some(_)) = t.flags.next().now_or_never() {
                    self.idle(Duration::from_millis(200), std::slice::from_mut(t));
                    return Ok(());
                }
            }
        }
    }

    /// Sends one message to `t` and waits for its answer: the round trip,
    /// or `None` when it did not come within [`TIMEOUT`].
    fn round_trip(&mut self, t: &mut Target) -> Option<Duration> {
        let (msg, expected) = self.message(self.sent);
        self.sent += 1;
        while let Some(Some(_)) = t.flags.next().now_or_never() {}
        let t0 = Instant::now();
        if t.footprint.publish(&msg).is_err() {
            return None;
        }
        loop {
            while let Some(Some(b)) = t.flags.next().now_or_never() {
                if b.data == expected {
                    return Some(t0.elapsed());
                }
                t.skipped += 1;
            }
            let left = TIMEOUT.checked_sub(t0.elapsed())?;
            self.node.spin_once(left.min(Duration::from_millis(5)));
        }
    }

    /// `count` paced round trips to `t`; recorded when `record`.
    fn drive(&mut self, t: &mut Target, count: usize, period: Duration, record: bool) {
        let mut next = Instant::now();
        for _ in 0..count {
            while let Some(left) = next.checked_duration_since(Instant::now()) {
                self.node.spin_once(left);
            }
            next = Instant::now() + period;
            match self.round_trip(t) {
                Some(d) if record => t.samples.push(d.as_secs_f64() * 1e6),
                Some(_) => {}
                None => {
                    t.lost += 1;
                    // Let a late answer arrive and be dropped.
                    self.idle(Duration::from_millis(50), std::slice::from_mut(t));
                }
            }
        }
    }

    /// Interleaved blocks over `targets` until each has `samples` measured
    /// round trips (after `warmup` unmeasured ones each).
    fn compare(&mut self, targets: &mut [Target], o: &Options) {
        for record in [false, true] {
            let total = if record { o.samples } else { o.warmup };
            let start: Vec<Duration> = targets.iter().map(|t| cpu_time(t.process.pid())).collect();
            let mut done = 0;
            let mut round = 0;
            while done < total {
                let n = o.block.min(total - done);
                for i in 0..targets.len() {
                    let j = (i + round) % targets.len();
                    self.drive(&mut targets[j], n, o.period, record);
                }
                done += n;
                round += 1;
            }
            if record {
                for (t, s) in targets.iter_mut().zip(start) {
                    t.cpu = cpu_time(t.process.pid()).saturating_sub(s);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Statistics and tables

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

struct Stats {
    n: usize,
    min: f64,
    p50: f64,
    p90: f64,
    p99: f64,
    max: f64,
    mean: f64,
}

fn stats(samples: &[f64]) -> Stats {
    let mut s = samples.to_vec();
    s.sort_by(f64::total_cmp);
    Stats {
        n: s.len(),
        min: s.first().copied().unwrap_or(f64::NAN),
        p50: percentile(&s, 50.0),
        p90: percentile(&s, 90.0),
        p99: percentile(&s, 99.0),
        max: s.last().copied().unwrap_or(f64::NAN),
        mean: s.iter().sum::<f64>() / s.len().max(1) as f64,
    }
}

fn print_table(title: &str, targets: &[Target], floor: usize) {
    let mut out = String::new();
    let _ = writeln!(out, "\n{title}");
    let _ = writeln!(
        out,
        "| target | n | min | p50 | p90 | p99 | max | mean | lost | timer Bools skipped | CPU per message |"
    );
    let _ = writeln!(
        out,
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    let all: Vec<Stats> = targets.iter().map(|t| stats(&t.samples)).collect();
    for (t, s) in targets.iter().zip(&all) {
        let cpu = t.cpu.as_secs_f64() * 1e6 / s.n.max(1) as f64;
        let _ = writeln!(
            out,
            "| {} | {} | {:.0} µs | {:.0} µs | {:.0} µs | {:.0} µs | {:.0} µs | {:.0} µs | {} | {} | {:.0} µs |",
            t.label, s.n, s.min, s.p50, s.p90, s.p99, s.max, s.mean, t.lost, t.skipped, cpu
        );
    }
    let slowest: Vec<String> = targets
        .iter()
        .filter_map(|t| {
            let (k, max) = t
                .samples
                .iter()
                .enumerate()
                .max_by(|a, b| a.1.total_cmp(b.1))?;
            Some(format!("{} #{} ({:.0} µs)", t.label, k + 1, max))
        })
        .collect();
    let _ = writeln!(out, "slowest sample: {}", slowest.join(", "));
    let f = &all[floor];
    for (i, (t, s)) in targets.iter().zip(&all).enumerate() {
        if i == floor {
            continue;
        }
        let _ = writeln!(
            out,
            "ratio {} / {}: p50 {:.2}×, p90 {:.2}×, p99 {:.2}×, mean {:.2}× (p50 {:+.0} µs)",
            t.label,
            targets[floor].label,
            s.p50 / f.p50,
            s.p90 / f.p90,
            s.p99 / f.p99,
            s.mean / f.mean,
            s.p50 - f.p50
        );
    }
    print!("{out}");
}

// ---------------------------------------------------------------------------
// Modes of the client

fn work_dir_path() -> PathBuf {
    std::env::temp_dir().join(format!("node_latency_{}", std::process::id()))
}

/// Children's logs and the allocation counter's files.
fn work_dir() -> Res<PathBuf> {
    let dir = work_dir_path();
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

fn make_client(o: &Options) -> Res<Client> {
    let ctx = r2r::Context::create()?;
    let node = r2r::Node::create(ctx, "node_latency_client", "")?;
    let (centres, scene) = scene(o.obstacles);
    let mut probes = probes(&centres, &scene, 100);
    if o.steady || o.soak.is_some() || o.allocs {
        probes.retain(|p| !p.colliding);
    }
    Ok(Client {
        node,
        probes,
        scene,
        sent: 0,
        dir: work_dir()?,
    })
}

fn header_lines(o: &Options) {
    println!(
        "ROS_DOMAIN_ID={} RMW_IMPLEMENTATION={} node={} {}",
        std::env::var("ROS_DOMAIN_ID").unwrap_or_else(|_| "(unset: 0)".into()),
        std::env::var("RMW_IMPLEMENTATION").unwrap_or_else(|_| "(default)".into()),
        o.node_bin.display(),
        o.node_params
            .iter()
            .map(|p| format!("-p {p}"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    println!(
        "{} obstacles; {} samples per target after {} warm-up, blocks of {}, period {} µs ({}); nproc {}",
        o.obstacles,
        o.samples,
        o.warmup,
        o.block,
        o.period.as_micros(),
        if o.period.is_zero() {
            "back to back"
        } else {
            "one in flight"
        },
        std::thread::available_parallelism().map_or(0, |n| n.get()),
    );
    println!(
        "footprints: {}",
        if o.steady || o.allocs {
            "steady (all clear, the flag never changes)"
        } else {
            "alternating colliding / clear (the flag changes with every message)"
        }
    );
}

/// What the node computes before it publishes the flag, timed in this
/// process on the same scene and footprints: `convert::points_into` +
/// `Monitor::set_footprint` + `Monitor::flag`; and the report it builds
/// after the flag when somebody needs one, `Monitor::evaluate_into` (µs per
/// call, p50 and p99 of `rounds` calls).
fn in_process(client: &Client, rounds: usize) -> (Stats, Stats) {
    let config = MonitorConfig {
        footprint_timeout: 0.0,
        obstacles_timeout: 0.0,
        ..NodeConfig::default().monitor
    };
    let mut monitor = Monitor::new(config);
    let obstacles = client
        .scene
        .obstacles
        .iter()
        .map(convert::obstacle)
        .collect();
    monitor.set_obstacles(FRAME, obstacles, 0.0);
    let mut report = monitor.evaluate(0.0);
    let mut points = Vec::new();
    let (mut before_flag, mut evaluate) = (Vec::new(), Vec::new());
    for k in 0..rounds {
        let probe = &client.probes[k % client.probes.len()];
        let t0 = Instant::now();
        convert::points_into(&probe.polygon, &mut points);
        monitor.set_footprint(FRAME, &points, 0.0);
        let flag = monitor.flag(0.0);
        let t1 = Instant::now();
        monitor.evaluate_into(0.0, &mut report);
        let t2 = Instant::now();
        assert_eq!(flag.colliding, probe.colliding);
        assert_eq!(report.colliding, probe.colliding);
        before_flag.push((t1 - t0).as_secs_f64() * 1e6);
        evaluate.push((t2 - t1).as_secs_f64() * 1e6);
    }
    (stats(&before_flag), stats(&evaluate))
}

fn latency(o: &Options) -> Res<()> {
    header_lines(o);
    let mut client = make_client(o)?;
    let (before_flag, evaluate) = in_process(&client, 2000);
    println!(
        "in this process, per footprint: before the flag (points + set_footprint + flag) p50 {:.1} µs, p99 {:.1} µs; the report after it (evaluate_into) p50 {:.1} µs, p99 {:.1} µs",
        before_flag.p50, before_flag.p99, evaluate.p50, evaluate.p99
    );
    let pid = std::process::id();
    let dir = client.dir.clone();

    let ns = format!("/lat{pid}_node");
    let process = ChildProcess::spawn("node", node_command(o, &ns, 0.0), &dir)?;
    let mut node = client.target("node", ns, process)?;
    let ns = format!("/lat{pid}_echo");
    let process = ChildProcess::spawn("echo", echo_command("--echo", &ns)?, &dir)?;
    let mut echo = client.target("echo (floor)", ns, process)?;
    client.setup_node(&mut node)?;
    client.setup_echo(&mut echo)?;
    let ns = format!("/lat{pid}_echo_entities");
    let process =
        ChildProcess::spawn("echo_entities", echo_command("--echo-entities", &ns)?, &dir)?;
    let mut echo_entities = client.target("echo, node's entities", ns, process)?;
    client.setup_echo(&mut echo_entities)?;
    let mut targets = vec![echo, node, echo_entities];
    if let Some(us) = o.burn {
        let ns = format!("/lat{pid}_echo_burn");
        let mut cmd = echo_command("--echo", &ns)?;
        cmd.env(BURN_VAR, us.to_string());
        let process = ChildProcess::spawn("echo_burn", cmd, &dir)?;
        let mut t = client.target(&format!("echo + {us} µs after"), ns, process)?;
        client.setup_echo(&mut t)?;
        targets.push(t);
    }
    if o.echo_st {
        let ns = format!("/lat{pid}_echo_st");
        let process = ChildProcess::spawn("echo_st", echo_command("--echo-st", &ns)?, &dir)?;
        let mut t = client.target("echo, single thread", ns, process)?;
        client.setup_echo(&mut t)?;
        targets.push(t);
    }
    let load0 = loadavg();
    let t0 = Instant::now();
    client.compare(&mut targets, o);
    println!(
        "\nphase 1: {:.1} s, load average {} before, {} after",
        t0.elapsed().as_secs_f64(),
        load0,
        loadavg()
    );
    print_table(
        &format!(
            "footprint → collision, {} obstacles, markers_rate 0 (µs)",
            o.obstacles
        ),
        &targets,
        0,
    );
    for t in &mut targets {
        t.process.check_running()?;
    }

    // Nodes with subscribed outputs, each alone with the echo: their work
    // must not load the first phase.
    let mut phases = Vec::new();
    if o.report {
        phases.push((
            "report",
            "node, report subscribed",
            0.0,
            "footprint → collision, collision_report subscribed by another process (µs)",
        ));
    }
    if o.markers {
        phases.push((
            "markers",
            "node, markers subscribed",
            10.0,
            "footprint → collision, markers_rate 10, markers and report subscribed by another process (µs)",
        ));
    }
    for (k, (name, label, markers_rate, title)) in phases.into_iter().enumerate() {
        targets.truncate(1);
        let ns = format!("/lat{pid}_{name}");
        let process = ChildProcess::spawn(
            &format!("node_{name}"),
            node_command(o, &ns, markers_rate),
            &dir,
        )?;
        let mut t = client.target(label, ns.clone(), process)?;
        client.setup_node(&mut t)?;
        let sink =
            ChildProcess::spawn(&format!("sink_{name}"), echo_command("--sink", &ns)?, &dir)?;
        // Discovery: reports and markers are built only once the node sees
        // the sink.
        client.idle(Duration::from_secs(2), &mut []);
        targets.push(t);
        for t in &mut targets {
            t.samples.clear();
            t.skipped = 0;
            t.lost = 0;
        }
        let load0 = loadavg();
        let t0 = Instant::now();
        client.compare(&mut targets, o);
        let sink_log = sink.log.clone();
        drop(sink);
        println!(
            "\nphase {}: {:.1} s, load average {} before, {} after; {}",
            k + 2,
            t0.elapsed().as_secs_f64(),
            load0,
            loadavg(),
            std::fs::read_to_string(sink_log)
                .unwrap_or_default()
                .lines()
                .find(|l| l.starts_with("sink:"))
                .unwrap_or("sink: no summary")
        );
        print_table(title, &targets, 0);
    }
    Ok(())
}

fn soak(o: &Options, seconds: f64) -> Res<()> {
    let mut client = make_client(o)?;
    let dir = client.dir.clone();
    let ns = format!("/lat{}_soak", std::process::id());
    let process = ChildProcess::spawn("node", node_command(o, &ns, 0.0), &dir)?;
    let mut t = client.target("node", ns, process)?;
    client.setup_node(&mut t)?;
    let pid = t.process.pid();
    println!(
        "soak: {} obstacles, {seconds} s at {} Hz, steady footprints, node pid {pid} ({} {}), ROS_DOMAIN_ID={}, load average {}",
        o.obstacles,
        o.rate,
        o.node_bin.display(),
        o.node_params.join(" "),
        std::env::var("ROS_DOMAIN_ID").unwrap_or_default(),
        loadavg()
    );
    // A few seconds of the target rate first: r2r, DDS and the report
    // buffers reach their working size.
    let period = Duration::from_secs_f64(1.0 / o.rate);
    let mut samples: Vec<f32> = Vec::new();
    let mut rss: Vec<(f64, u64)> = Vec::new();
    let (mut sent, mut answered, mut late) = (0usize, 0usize, 0usize);
    let cpu0 = cpu_time(pid);
    let start = Instant::now();
    let mut next_send = start;
    let mut next_rss = start;
    let mut waiting: Option<(Instant, bool)> = None;
    let end = start + Duration::from_secs_f64(seconds);
    println!("|   t (s) | VmRSS (kB) | RssAnon (kB) | answered | late |");
    loop {
        let now = Instant::now();
        if now >= next_rss {
            t.process.check_running()?;
            let kb = status_kb(pid, "VmRSS:").unwrap_or(0);
            let t_s = now.duration_since(start).as_secs_f64();
            println!(
                "| {t_s:7.1} | {kb:10} | {:12} | {answered:8} | {late:4} |",
                status_kb(pid, "RssAnon:").unwrap_or(0)
            );
            rss.push((t_s, kb));
            next_rss += Duration::from_secs_f64(o.rss_every);
            if now >= end {
                break;
            }
        }
        if now >= next_send {
            if waiting.is_some() {
                late += 1;
            }
            let (msg, expected) = client.message(client.sent);
            client.sent += 1;
            let t0 = Instant::now();
            t.footprint.publish(&msg)?;
            waiting = Some((t0, expected));
            sent += 1;
            next_send += period;
            if next_send < now {
                // Fell behind (a stall of this process): do not burst.
                next_send = now + period;
            }
        }
        let wake = next_send.min(next_rss);
        if let Some(left) = wake.checked_duration_since(Instant::now()) {
            client.node.spin_once(left.min(Duration::from_millis(5)));
        }
        while let Some(Some(b)) = t.flags.next().now_or_never() {
            if let Some((t0, expected)) = waiting {
                if b.data == expected {
                    samples.push((t0.elapsed().as_secs_f64() * 1e6) as f32);
                    answered += 1;
                    waiting = None;
                }
            }
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    let cpu = cpu_time(pid).saturating_sub(cpu0).as_secs_f64();
    let first = rss.first().map_or(0, |r| r.1);
    let last = rss.last().map_or(0, |r| r.1);
    let max = rss.iter().map(|r| r.1).max().unwrap_or(0);
    let min = rss.iter().map(|r| r.1).min().unwrap_or(0);
    // Least-squares slope of RSS over time, second half (after start-up).
    let half: Vec<(f64, u64)> = rss[rss.len() / 2..].to_vec();
    let slope = {
        let n = half.len() as f64;
        let mx = half.iter().map(|r| r.0).sum::<f64>() / n;
        let my = half.iter().map(|r| r.1 as f64).sum::<f64>() / n;
        let sxy: f64 = half.iter().map(|r| (r.0 - mx) * (r.1 as f64 - my)).sum();
        let sxx: f64 = half.iter().map(|r| (r.0 - mx).powi(2)).sum();
        if sxx > 0.0 {
            sxy / sxx * 60.0
        } else {
            0.0
        }
    };
    let samples: Vec<f64> = samples.iter().map(|&s| f64::from(s)).collect();
    let s = stats(&samples);
    println!(
        "\nsoak {elapsed:.0} s at {} Hz: sent {sent} ({:.0}/s), answered in time {answered}, late {late}; node CPU {:.0} % of one core ({:.0} µs per message)",
        o.rate,
        sent as f64 / elapsed,
        100.0 * cpu / elapsed,
        cpu * 1e6 / sent.max(1) as f64
    );
    println!(
        "RSS: first sample {first} kB, last {last} kB, min {min} kB, max {max} kB (last − first {:+} kB); slope over the second half {slope:+.1} kB/min; VmHWM {} kB",
        last as i64 - first as i64,
        status_kb(pid, "VmHWM:").unwrap_or(0)
    );
    println!(
        "latency of in-time answers: p50 {:.0} µs, p90 {:.0} µs, p99 {:.0} µs, max {:.0} µs; load average {}",
        s.p50,
        s.p90,
        s.p99,
        s.max,
        loadavg()
    );
    Ok(())
}

/// LD_PRELOAD library: counts allocation calls and bytes into the first 24
/// bytes of the file named by `MALLOC_COUNT_FILE` (shared mapping), and
/// forwards to glibc.
const MALLOC_COUNT_C: &str = r#"
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);
struct counters { uint64_t allocs, frees, bytes; };
static struct counters before_init;
static struct counters *c = &before_init;
__attribute__((constructor)) static void init(void) {
    const char *path = getenv("MALLOC_COUNT_FILE");
    if (!path) return;
    int fd = open(path, O_RDWR);
    if (fd < 0) return;
    void *p = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p != MAP_FAILED) c = p;
}
static inline void count(size_t n) {
    __atomic_fetch_add(&c->allocs, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&c->bytes, n, __ATOMIC_RELAXED);
}
void *malloc(size_t n) { count(n); return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { count(a * b); return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { count(n); return __libc_realloc(p, n); }
void *memalign(size_t a, size_t n) { count(n); return __libc_memalign(a, n); }
void *aligned_alloc(size_t a, size_t n) { count(n); return __libc_memalign(a, n); }
void *valloc(size_t n) { count(n); return __libc_memalign(sysconf(_SC_PAGESIZE), n); }
int posix_memalign(void **out, size_t a, size_t n) {
    if (a < sizeof(void *) || (a & (a - 1))) return EINVAL;
    count(n);
    void *p = __libc_memalign(a, n);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}
void free(void *p) {
    if (p) __atomic_fetch_add(&c->frees, 1, __ATOMIC_RELAXED);
    __libc_free(p);
}
"#;

fn build_alloc_counter(dir: &Path) -> Res<PathBuf> {
    let src = dir.join("malloc_count.c");
    let lib = dir.join("malloc_count.so");
    std::fs::write(&src, MALLOC_COUNT_C)?;
    let status = Command::new("cc")
        .args(["-O2", "-shared", "-fPIC", "-o"])
        .arg(&lib)
        .arg(&src)
        .status()?;
    if !status.success() {
        return Err("cc could not build the allocation counter".into());
    }
    Ok(lib)
}

/// (allocation calls, frees, bytes) so far.
fn read_counter(path: &Path) -> Res<[u64; 3]> {
    let bytes = std::fs::read(path)?;
    let word = |i: usize| u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().unwrap_or([0; 8]));
    Ok([word(0), word(1), word(2)])
}

fn allocs(o: &Options) -> Res<()> {
    header_lines(o);
    let mut client = make_client(o)?;
    let dir = client.dir.clone();
    let lib = build_alloc_counter(&dir)?;
    let pid = std::process::id();
    let mut targets = Vec::new();
    // The echo with the node's entities shows what r2r's per-spin wait set
    // costs for them: the node's own share is what exceeds that.
    /// What one counted process is.
    enum Counted {
        Echo(&'static str),
        Node { report_sink: bool },
    }
    let mut processes = vec![
        ("echo", "echo (floor)", Counted::Echo("--echo")),
        (
            "echo_entities",
            "echo, node's entities",
            Counted::Echo("--echo-entities"),
        ),
        ("node", "node", Counted::Node { report_sink: false }),
    ];
    if o.report {
        processes.push((
            "node_report",
            "node, report subscribed",
            Counted::Node { report_sink: true },
        ));
    }
    // Sinks (not counted) for the nodes whose report is subscribed.
    let mut sinks = Vec::new();
    for (name, label, kind) in processes {
        let ns = format!("/lat{pid}_alloc_{name}");
        let counter = dir.join(format!("{name}.count"));
        let mut cmd = match kind {
            Counted::Node { .. } => node_command(o, &ns, 0.0),
            Counted::Echo(mode) => echo_command(mode, &ns)?,
        };
        with_alloc_counter(&mut cmd, &lib, &counter)?;
        let process = ChildProcess::spawn(name, cmd, &dir)?;
        let mut t = client.target(label, ns, process)?;
        t.counter = Some(counter);
        match kind {
            Counted::Node { report_sink } => {
                client.setup_node(&mut t)?;
                if report_sink {
                    let sink = echo_command("--sink", &t.ns)?;
                    sinks.push(ChildProcess::spawn("sink_report", sink, &dir)?);
                }
            }
            Counted::Echo(_) => client.setup_echo(&mut t)?,
        }
        targets.push(t);
    }
    if !sinks.is_empty() {
        // Discovery: the report is built only once the node sees the sink.
        client.idle(Duration::from_secs(2), &mut []);
    }
    // Warm up both (buffers reach their working size), then per target: an
    // idle window, then `samples` messages at the chosen pacing.
    client.compare(
        &mut targets,
        &Options {
            samples: 0,
            ..o.clone()
        },
    );
    println!("\nallocation calls (malloc/calloc/realloc/memalign) in each process:");
    println!(
        "| process | idle calls/s | messages | calls per message, raw | net of idle | bytes per message, raw | frees per message |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for t in &mut targets {
        let counter = t.counter.clone().unwrap_or_default();
        let idle = Duration::from_secs(3);
        let a = read_counter(&counter)?;
        client.idle(idle, std::slice::from_mut(t));
        let b = read_counter(&counter)?;
        let t0 = Instant::now();
        client.drive(t, o.samples, o.period, true);
        let busy = t0.elapsed().as_secs_f64();
        let c = read_counter(&counter)?;
        let n = o.samples as f64;
        let idle_rate = (b[0] - a[0]) as f64 / idle.as_secs_f64();
        let raw = (c[0] - b[0]) as f64 / n;
        println!(
            "| {} | {:.0} | {} | {:.1} | {:.1} | {:.0} | {:.1} |",
            t.label,
            idle_rate,
            o.samples,
            raw,
            raw - idle_rate * busy / n,
            (c[2] - b[2]) as f64 / n,
            (c[1] - b[1]) as f64 / n
        );
        t.process.check_running()?;
    }
    println!("load average {}", loadavg());
    Ok(())
}

// ---------------------------------------------------------------------------
// Echo processes

/// Like the node: r2r spins on a blocking thread, a tokio task answers.
/// With `entities`, the node also has the node's other subscriptions and
/// services (idle), so r2r's per-spin wait set is as large as the node's.
fn echo(ns: &str, entities: bool) -> Res<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(async {
        let ctx = r2r::Context::create()?;
        let mut node = r2r::Node::create(ctx, "echo", ns)?;
        let mut footprints =
            node.subscribe::<PolygonStamped>("footprint", QosProfile::default())?;
        let flags = node.create_publisher::<Bool>("collision", QosProfile::default())?;
        // Kept alive (and never polled) for the wait set only.
        let mut idle_entities: Vec<Box<dyn std::any::Any + Send>> = Vec::new();
        if entities {
            let (handler, events) = node.make_parameter_handler()?;
            tokio::spawn(handler);
            idle_entities.push(Box::new(events));
            idle_entities.push(Box::new(
                node.subscribe::<ObstacleArray>("obstacles", QosProfile::default())?,
            ));
            idle_entities.push(Box::new(node.subscribe::<PolygonInstanceStamped>(
                "obstacle_instances",
                QosProfile::default(),
            )?));
            idle_entities.push(Box::new(node.create_service::<CheckFootprint::Service>(
                "check_footprint",
                QosProfile::default(),
            )?));
        }
        let burn = std::env::var(BURN_VAR)
            .ok()
            .and_then(|v| v.parse().ok())
            .map(Duration::from_micros);
        let running = Arc::new(AtomicBool::new(true));
        let spinning = running.clone();
        let spinner = tokio::task::spawn_blocking(move || {
            while spinning.load(Ordering::Relaxed) {
                node.spin_once(Duration::from_millis(5));
            }
        });
        let mut terminate =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
        let mut flag = r2r::NativeMsg::<Bool>::new();
        loop {
            tokio::select! {
                Some(msg) = footprints.next() => {
                    // Published in place, like the node's flag.
                    flag.data = msg.header.stamp.nanosec & 1 == 1;
                    flags.publish_native(&mut flag)?;
                    if let Some(burn) = burn {
                        // Like the node's report after its flag: CPU work
                        // in the same task, right after the answer.
                        let t0 = Instant::now();
                        while t0.elapsed() < burn {
                            std::hint::spin_loop();
                        }
                    }
                }
                _ = terminate.recv() => break,
            }
        }
        running.store(false, Ordering::Relaxed);
        spinner.await?;
        Ok(())
    })
}

/// True until SIGTERM arrives (a small runtime on a side thread waits for it).
fn until_sigterm() -> Arc<AtomicBool> {
    let running = Arc::new(AtomicBool::new(true));
    let flag = running.clone();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        rt.block_on(async {
            if let Ok(mut s) =
                tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            {
                s.recv().await;
            }
        });
        flag.store(false, Ordering::Relaxed);
    });
    running
}

/// Answers from the spinning thread: no hand-over.
fn echo_single_thread(ns: &str) -> Res<()> {
    let running = until_sigterm();
    let ctx = r2r::Context::create()?;
    let mut node = r2r::Node::create(ctx, "echo_st", ns)?;
    let mut footprints = node.subscribe::<PolygonStamped>("footprint", QosProfile::default())?;
    let flags = node.create_publisher::<Bool>("collision", QosProfile::default())?;
    let mut flag = r2r::NativeMsg::<Bool>::new();
    while running.load(Ordering::Relaxed) {
        node.spin_once(Duration::from_millis(5));
        while let Some(Some(msg)) = footprints.next().now_or_never() {
            flag.data = msg.header.stamp.nanosec & 1 == 1;
            flags.publish_native(&mut flag)?;
        }
    }
    Ok(())
}

/// A consumer of the node's markers and reports in a process of its own
/// (like RViz), so that receiving 1.6 MB marker arrays does not load the
/// client that times the flags. Raw: no deserialisation.
fn sink(ns: &str) -> Res<()> {
    let running = until_sigterm();
    let ctx = r2r::Context::create()?;
    let mut node = r2r::Node::create(ctx, "sink", ns)?;
    let mut markers = node.subscribe_raw(
        "collision_markers",
        "visualization_msgs/msg/MarkerArray",
        QosProfile::default(),
    )?;
    let mut reports = node.subscribe_raw(
        "collision_report",
        "sat_collision_msgs/msg/CollisionReport",
        QosProfile::default(),
    )?;
    let (mut arrays, mut bytes, mut report_count) = (0usize, 0usize, 0usize);
    while running.load(Ordering::Relaxed) {
        node.spin_once(Duration::from_millis(5));
        while let Some(Some(m)) = markers.next().now_or_never() {
            arrays += 1;
            bytes = m.len();
        }
        while let Some(Some(_)) = reports.next().now_or_never() {
            report_count += 1;
        }
    }
    println!("sink: {arrays} marker arrays (last {bytes} bytes), {report_count} reports");
    Ok(())
}

fn main() {
    let result = parse_args().and_then(|mode| match mode {
        Mode::Echo(ns, entities) => echo(&ns, entities),
        Mode::EchoSingleThread(ns) => echo_single_thread(&ns),
        Mode::Sink(ns) => sink(&ns),
        Mode::Client(o) => {
            // A domain of our own unless one was chosen (the children
            // inherit it): never the default 0 that other work may use.
            if std::env::var("ROS_DOMAIN_ID").map_or(true, |v| v.trim().is_empty()) {
                std::env::set_var(
                    "ROS_DOMAIN_ID",
                    (101 + std::process::id() % 100).to_string(),
                );
            }
            let result = if let Some(seconds) = o.soak {
                soak(&o, seconds)
            } else if o.allocs {
                allocs(&o)
            } else {
                latency(&o)
            };
            // The children's logs are kept only when something failed.
            if result.is_ok() {
                let _ = std::fs::remove_dir_all(work_dir_path());
            } else {
                eprintln!("logs: {}", work_dir_path().display());
            }
            result
        }
    });
    if let Err(e) = result {
        eprintln!("node_latency: {e}");
        std::process::exit(1);
    }
}
