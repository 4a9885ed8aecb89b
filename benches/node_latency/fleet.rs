//! `--fleet N`: the node with a fleet source (`observation_sources:
//! [fleet]`) while N peers publish on its fleet topic at 10 Hz each, from a
//! process of their own (`--fleet-peers`, this binary, r2r): the node's CPU
//! per peer update, and the flag latency from the fleet message that moves
//! one peer (the probe) into the robot's footprint, or out of it, to the
//! `collision` that reads so, against the echo floor.
//!
//! * **Robot**: its footprint (a 0.5 m square at the origin of `map`) on
//!   the node's footprint topic once (`footprint_timeout:=0`), a velocity
//!   once (0.5 m/s, 0.3 rad/s, `velocity_timeout:=0`, `time_horizon` 2 s:
//!   every decision also predicts `collision_ahead`), `fleet_frame` `map`,
//!   `fleet_timeout` 0.5 s, no `robot_id` (the node does not publish).
//! * **Peers**: the scene of `benches/fleet.rs`: N robots on a 3 m grid,
//!   each a chamfered 0.7 × 0.5 m footprint (8 vertices) driving its lane
//!   (1.5 m off the grid lines, 0.5–1.5 m/s, those 4 m or more out also
//!   turning) for 2 s, then starting over; never on the robot. The peer
//!   process publishes them round robin, one message every 1 / (10 N) s
//!   (late messages are sent at once, in bursts), with the fleet
//!   publisher's QoS (`ros::fleet::publisher_qos`), stamped with the wall
//!   clock, each in native form updated in place.
//! * **Probe**: one more peer, `probe`, published by this process on the
//!   same topic with the same QoS: alternately on the robot (colliding) and
//!   10 m away (clear), so the node's flag flips with every probe; its
//!   answer is the first `collision` that reads the expected value (the
//!   node publishes a `collision` per decision, and every peer update is
//!   one: those before the probe's decision read the previous value).
//! * **Floor** (`--echo-fleet`): an echo with the node's architecture
//!   (r2r spinning on its own thread, a tokio task) subscribed to the same
//!   fleet topic with the node's subscription QoS, taking every message in
//!   native form (so it carries the N peers' traffic too) and answering
//!   only its own probe (`echo_probe`, another session: the bit is the
//!   sequence's parity) with a `Bool`. The node takes `echo_probe` too,
//!   as a peer 200 m away.
//! * **CPU per update**: over a window of `--fleet-window` seconds with
//!   only the peers publishing (no probe), user + system time of the node,
//!   the echo and the peer process from `/proc/PID/stat`, divided by the
//!   messages the peer process sent in that window (best effort: received
//!   ≤ sent; on one host nothing is lost while the readers keep up); and
//!   net of the idle rate (the same window before the peers started: the
//!   node's timers and wake-ups).
//! * **Pacing**: one probe in flight, the next `--period-us` after the
//!   previous (default 20,000: 50 Hz), node and echo in interleaved blocks.

use crate::cli::Options;
use crate::echo::until_signal;
use crate::process::{cpu_time, echo_command, loadavg, node_command, work_dir, ChildProcess};
use crate::stats::stats;
use crate::Res;
use futures::{FutureExt, Stream, StreamExt};
use r2r::geometry_msgs::msg::{Point32, PolygonStamped, Twist};
use r2r::sat_collision_msgs::msg::FleetRobot;
use r2r::std_msgs::msg::Bool;
use r2r::{NativeMsg, Publisher, QosProfile};
use sat_collision::ros::fleet::{publisher_qos, FLEET_SUBSCRIPTION_QOS};
use sat_collision::ros::spin::{ShutdownSignals, Spinner};
use sat_collision_testkit::ros::msg;
use sat_collision_testkit::shapes::chamfered_rectangle;
use sat_collision_testkit::SplitMix64 as Rng;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Each peer's rate (Hz).
pub const RATE: f64 = 10.0;
/// The fleet's frame and the robot's.
const FRAME: &str = "map";
/// `fleet_timeout` (s): the node's and the publishers' lifespan.
const TIMEOUT: f64 = 0.5;
/// Grid spacing (m).
const SPACING: f64 = 3.0;
/// A peer's motion starts over every LOOP seconds.
const LOOP: f64 = 2.0;
/// Sessions: the peers', the node's probe's, the echo's probe's.
const PEER_SESSION: u64 = 7;
const PROBE_SESSION: u64 = 0x0090_0be0;
pub const ECHO_SESSION: u64 = 0x00ec_4000;
/// Environment of the child processes: the fleet topic, the peers'
/// count, the file where the peer process keeps its count of messages sent.
pub const TOPIC_VAR: &str = "NODE_LATENCY_FLEET_TOPIC";
pub const PEERS_VAR: &str = "NODE_LATENCY_FLEET_PEERS";
pub const SENT_VAR: &str = "NODE_LATENCY_FLEET_SENT";
/// An answer later than this is lost.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(2);

/// The wall clock (s since the epoch) as a stamp.
fn wall() -> (i32, u32, f64) {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    (now.as_secs() as i32, now.subsec_nanos(), now.as_secs_f64())
}

/// A peer's footprint: a 0.7 × 0.5 m rectangle with 5 cm chamfers.
fn footprint() -> Vec<Point32> {
    chamfered_rectangle(0.35, 0.25, 0.05)
        .iter()
        .map(|&(x, y)| Point32 {
            x: x as f32,
            y: y as f32,
            z: 0.0,
        })
        .collect()
}

/// One peer of the grid: where it starts and how it moves (body twist).
struct Lane {
    x: f64,
    y: f64,
    heading: f64,
    linear: f64,
    angular: f64,
}

impl Lane {
    /// Its pose `t` s into its loop (a circular arc when it turns).
    fn pose(&self, t: f64) -> (f64, f64, f64) {
        let (v, w) = (self.linear, self.angular);
        let t = t % LOOP;
        let (dx, dy) = if w.abs() < 1e-12 {
            (v * t, 0.0)
        } else {
            ((v / w) * (w * t).sin(), (v / w) * (1.0 - (w * t).cos()))
        };
        let (c, s) = (self.heading.cos(), self.heading.sin());
        (
            self.x + c * dx - s * dy,
            self.y + s * dx + c * dy,
            self.heading + w * t,
        )
    }
}

/// `n` peers on the grid around the origin, as `benches/fleet.rs` places
/// them.
fn lanes(n: usize) -> Vec<Lane> {
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
            let (x, y) = if k % 2 == 0 {
                (gx + rng.range(-0.5, 0.5), gy + 0.5 * SPACING)
            } else {
                (gx + 0.5 * SPACING, gy + rng.range(-0.5, 0.5))
            };
            let angular = if x.abs().min(y.abs()) >= 4.0 {
                rng.range(-0.3, 0.3)
            } else {
                0.0
            };
            out.push(Lane {
                x,
                y,
                heading: std::f64::consts::FRAC_PI_2 * (k % 4) as f64,
                linear: rng.range(0.5, 1.5),
                angular,
            });
        }
    }
    out
}

/// A fleet message of `id` (`session`) at `pose`, moving by `(v, w)`,
/// bounded by `(max_v, max_w)`, unstamped.
fn robot(
    id: &str,
    session: u64,
    pose: (f64, f64, f64),
    (v, w): (f64, f64),
    (max_v, max_w): (f64, f64),
) -> FleetRobot {
    let mut m = FleetRobot {
        header: msg::header(FRAME),
        robot_id: id.to_owned(),
        session,
        ..FleetRobot::default()
    };
    m.footprint.points = footprint();
    set_pose(&mut m.pose, pose);
    m.twist.linear.x = v;
    m.twist.angular.z = w;
    m.max_linear_speed = max_v;
    m.max_angular_speed = max_w;
    m
}

fn set_pose(p: &mut r2r::geometry_msgs::msg::Pose, (x, y, yaw): (f64, f64, f64)) {
    p.position.x = x;
    p.position.y = y;
    p.orientation.z = (yaw / 2.0).sin();
    p.orientation.w = (yaw / 2.0).cos();
}

/// The peer process: `NODE_LATENCY_FLEET_PEERS` robots on
/// `NODE_LATENCY_FLEET_TOPIC`, each at [`RATE`], round robin; the count of
/// messages sent kept in `NODE_LATENCY_FLEET_SENT` (every 100 ms).
pub fn fleet_peers() -> Res<()> {
    let var = |name: &str| std::env::var(name).map_err(|_| format!("{name} not set"));
    let topic = var(TOPIC_VAR)?;
    let n: usize = var(PEERS_VAR)?.parse()?;
    let sent_file = PathBuf::from(var(SENT_VAR)?);
    let running = until_signal();
    let ctx = r2r::Context::create()?;
    let mut node = r2r::Node::create(ctx, "fleet_peers", "")?;
    let publisher: Publisher<FleetRobot> = node.create_publisher(&topic, publisher_qos(TIMEOUT))?;
    let lanes = lanes(n.max(1));
    let mut messages: Vec<NativeMsg<FleetRobot>> = lanes
        .iter()
        .enumerate()
        .map(|(k, lane)| {
            NativeMsg::from(&robot(
                &format!("robot_{k:04}"),
                PEER_SESSION,
                lane.pose(0.0),
                (lane.linear, lane.angular),
                (1.5, 1.0),
            ))
        })
        .collect();
    let period = Duration::from_secs_f64(1.0 / (RATE * lanes.len() as f64));
    let start = Instant::now();
    let mut sent: u64 = 0;
    let mut noted = Instant::now();
    while !running.is_stopped() {
        let due = start + period.mul_f64(sent as f64);
        let now = Instant::now();
        if now < due {
            std::thread::sleep((due - now).min(Duration::from_millis(1)));
            continue;
        }
        let k = (sent % lanes.len() as u64) as usize;
        let (sec, nanosec, t) = wall();
        let m = &mut messages[k];
        m.sequence = sent / lanes.len() as u64 + 1;
        m.header.stamp.sec = sec;
        m.header.stamp.nanosec = nanosec;
        let (x, y, yaw) = lanes[k].pose(t);
        m.pose.position.x = x;
        m.pose.position.y = y;
        m.pose.orientation.z = (yaw / 2.0).sin();
        m.pose.orientation.w = (yaw / 2.0).cos();
        publisher.publish_native(m)?;
        sent += 1;
        if noted.elapsed() >= Duration::from_millis(100) {
            noted = Instant::now();
            write_count(&sent_file, sent)?;
            node.spin_once(Duration::ZERO);
        }
    }
    write_count(&sent_file, sent)?;
    println!(
        "fleet peers: {n} robots, {sent} messages in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn write_count(path: &Path, count: u64) -> Res<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, count.to_string())?;
    std::fs::rename(tmp, path)?;
    Ok(())
}

fn read_count(path: &Path) -> u64 {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0)
}

/// The floor: every fleet message taken (native, the node's QoS), only
/// [`ECHO_SESSION`]'s answered on `NS/collision` with its sequence's parity.
pub fn echo_fleet(ns: &str) -> Res<()> {
    let topic = std::env::var(TOPIC_VAR).map_err(|_| format!("{TOPIC_VAR} not set"))?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(async {
        let ctx = r2r::Context::create()?;
        let mut node = r2r::Node::create(ctx, "echo_fleet", ns)?;
        let mut robots = node.subscribe_native::<FleetRobot>(&topic, FLEET_SUBSCRIPTION_QOS)?;
        let flags = node.create_publisher::<Bool>("collision", QosProfile::default())?;
        let spinner = Spinner::start(node);
        let mut signals = ShutdownSignals::register()?;
        let mut flag = NativeMsg::<Bool>::new();
        loop {
            tokio::select! {
                Some(msg) = robots.next() => {
                    if msg.session == ECHO_SESSION {
                        flag.data = msg.sequence & 1 == 1;
                        flags.publish_native(&mut flag)?;
                    }
                }
                _ = signals.recv() => break,
            }
        }
        spinner.stop().await?;
        Ok(())
    })
}

type Flags = Box<dyn Stream<Item = Bool> + Unpin>;

struct Target {
    label: &'static str,
    process: ChildProcess,
    flags: Flags,
    /// The probe this target answers (robot id, session).
    probe: FleetRobot,
    sequence: u64,
    samples: Vec<f64>,
    lost: usize,
    /// `collision` messages taken (the node publishes one per decision).
    flags_taken: u64,
}

impl Target {
    fn drain(&mut self) {
        while let Some(Some(_)) = self.flags.next().now_or_never() {
            self.flags_taken += 1;
        }
    }

    /// The probe's next message, on the robot (`inside`) or clear, stamped
    /// now; the flag that answers it (the echo: the sequence's parity).
    fn probe(&mut self, inside: bool) -> (FleetRobot, bool) {
        let echo = self.probe.session == ECHO_SESSION;
        // The echo's bit is the parity: the next sequence with it.
        self.sequence += 1;
        if echo && (self.sequence & 1 == 1) != inside {
            self.sequence += 1;
        }
        let mut m = self.probe.clone();
        m.sequence = self.sequence;
        let (sec, nanosec, _) = wall();
        m.header.stamp.sec = sec;
        m.header.stamp.nanosec = nanosec;
        if !echo {
            set_pose(
                &mut m.pose,
                if inside {
                    (0.1, 0.0, 0.3)
                } else {
                    (-10.0, 0.0, 0.0)
                },
            );
        }
        (m, inside)
    }
}

struct Client {
    node: r2r::Node,
    fleet: Publisher<FleetRobot>,
}

impl Client {
    fn spin(&mut self, d: Duration, targets: &mut [Target]) {
        let end = Instant::now() + d;
        while let Some(left) = end.checked_duration_since(Instant::now()) {
            self.node.spin_once(left.min(Duration::from_millis(5)));
            for t in targets.iter_mut() {
                t.drain();
            }
        }
    }

    /// Sends `t`'s probe (on the robot or not) and waits for its answer.
    fn round_trip(&mut self, t: &mut Target, inside: bool) -> Option<Duration> {
        let (m, expected) = t.probe(inside);
        t.drain();
        let t0 = Instant::now();
        self.fleet.publish(&m).ok()?;
        loop {
            while let Some(Some(b)) = t.flags.next().now_or_never() {
                if b.data == expected {
                    return Some(t0.elapsed());
                }
            }
            let left = ANSWER_TIMEOUT.checked_sub(t0.elapsed())?;
            self.node.spin_once(left.min(Duration::from_millis(5)));
        }
    }

    /// Probes until two answers in a row come (the node: once its
    /// footprint, its velocity and the probe are in).
    fn setup(&mut self, t: &mut Target, mut before: impl FnMut() -> Res<()>) -> Res<()> {
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut in_a_row = 0;
        let mut inside = false;
        while in_a_row < 2 {
            t.process.check_running()?;
            if Instant::now() > deadline {
                return Err(format!("{}: no answer within 60 s", t.label).into());
            }
            before()?;
            inside = !inside;
            in_a_row = match self.round_trip(t, inside) {
                Some(_) => in_a_row + 1,
                None => 0,
            };
        }
        Ok(())
    }
}

pub fn latency_fleet(o: &Options, n: usize) -> Res<()> {
    let pid = std::process::id();
    let dir = work_dir()?;
    let topic = format!("/lat{pid}_fleet/robots");
    std::env::set_var(TOPIC_VAR, &topic);
    std::env::set_var(PEERS_VAR, n.to_string());
    let sent_file = dir.join("fleet_sent");
    std::env::set_var(SENT_VAR, &sent_file);
    let node_ns = format!("/lat{pid}_node_fleet");
    let params: Vec<String> = vec![
        format!("fleet_topic:={topic}"),
        format!("fleet_frame:={FRAME}"),
        format!("fleet_timeout:={TIMEOUT:?}"),
        "observation_sources:=[fleet]".to_owned(),
        "fleet.type:=fleet".to_owned(),
        "velocity_topic:=cmd_vel".to_owned(),
        "velocity_type:=twist".to_owned(),
        "velocity_timeout:=0.0".to_owned(),
        "time_horizon:=2.0".to_owned(),
    ];
    println!(
        "fleet: {n} peers at {RATE} Hz each ({:.0} messages/s) on {topic} from a peer process; probe → collision, one in flight every {} µs, {} samples per target after {} warm-up, blocks of {}; node -p {}",
        n as f64 * RATE,
        o.period.as_micros(),
        o.samples,
        o.warmup,
        o.block,
        params.join(" -p ")
    );
    println!(
        "ROS_DOMAIN_ID={} RMW_IMPLEMENTATION={} nproc {}",
        std::env::var("ROS_DOMAIN_ID").unwrap_or_else(|_| "(unset: 0)".into()),
        std::env::var("RMW_IMPLEMENTATION").unwrap_or_else(|_| "(default)".into()),
        std::thread::available_parallelism().map_or(0, |n| n.get()),
    );
    let mut cmd = node_command(o, &node_ns, 0.0);
    for p in &params {
        cmd.arg("-p").arg(p);
    }
    let node_process = ChildProcess::spawn("node_fleet", cmd, &dir)?;
    let echo_ns = format!("/lat{pid}_echo_fleet");
    let echo_process =
        ChildProcess::spawn("echo_fleet", echo_command("--echo-fleet", &echo_ns)?, &dir)?;

    let ctx = r2r::Context::create()?;
    let mut node = r2r::Node::create(ctx, "fleet_latency_client", "")?;
    let fleet = node.create_publisher::<FleetRobot>(&topic, publisher_qos(TIMEOUT))?;
    let footprint = node.create_publisher::<PolygonStamped>(
        &format!("{node_ns}/footprint"),
        QosProfile::default(),
    )?;
    let velocity =
        node.create_publisher::<Twist>(&format!("{node_ns}/cmd_vel"), QosProfile::default())?;
    let mut flags = |ns: &str| -> Res<Flags> {
        Ok(Box::new(node.subscribe::<Bool>(
            &format!("{ns}/collision"),
            QosProfile::default(),
        )?))
    };
    let node_flags = flags(&node_ns)?;
    let echo_flags = flags(&echo_ns)?;
    // The probes: slow (their growth while another target is driven stays
    // far from the robot), on the robot or 10 m away; the echo's, for the
    // node, 200 m away.
    let mut target_node = Target {
        label: "node, fleet source",
        process: node_process,
        flags: node_flags,
        probe: robot(
            "probe",
            PROBE_SESSION,
            (-10.0, 0.0, 0.0),
            (0.0, 0.0),
            (0.5, 0.2),
        ),
        sequence: 0,
        samples: Vec::new(),
        lost: 0,
        flags_taken: 0,
    };
    let mut target_echo = Target {
        label: "echo of the fleet message (floor)",
        process: echo_process,
        flags: echo_flags,
        probe: robot(
            "echo_probe",
            ECHO_SESSION,
            (200.0, 200.0, 0.0),
            (0.0, 0.0),
            (0.5, 0.2),
        ),
        sequence: 0,
        samples: Vec::new(),
        lost: 0,
        flags_taken: 0,
    };
    let mut client = Client { node, fleet };
    let mut robot_footprint = PolygonStamped {
        header: msg::header(FRAME),
        ..PolygonStamped::default()
    };
    robot_footprint.polygon.points = [(0.25, 0.25), (0.25, -0.25), (-0.25, -0.25), (-0.25, 0.25)]
        .iter()
        .map(|&(x, y)| Point32 { x, y, z: 0.0 })
        .collect();
    let mut twist = Twist::default();
    (twist.linear.x, twist.angular.z) = (0.5, 0.3);
    client.setup(&mut target_node, || {
        footprint.publish(&robot_footprint)?;
        velocity.publish(&twist)?;
        Ok(())
    })?;
    client.setup(&mut target_echo, || Ok(()))?;

    // CPU per update: the same window idle (no peers: the node's timers
    // and wake-ups), then with the peers alone; the difference per message.
    let window = Duration::from_secs_f64(o.fleet_window);
    let mut targets = [target_echo, target_node];
    let idle_pids = [targets[1].process.pid(), targets[0].process.pid()];
    client.spin(Duration::from_secs(1), &mut targets);
    let idle0 = idle_pids.map(cpu_time);
    let t0 = Instant::now();
    client.spin(window, &mut targets);
    let idle1 = idle_pids.map(cpu_time);
    let idle_rate = |k: usize| (idle1[k] - idle0[k]).as_secs_f64() / t0.elapsed().as_secs_f64();

    // The peers, then discovery and a steady state.
    let peers = ChildProcess::spawn("fleet_peers", echo_command("--fleet-peers", "/")?, &dir)?;
    client.spin(Duration::from_secs(3), &mut targets);
    let pids = [
        targets[1].process.pid(),
        targets[0].process.pid(),
        peers.pid(),
    ];
    let cpu0 = pids.map(cpu_time);
    let (sent0, t0, load0) = (read_count(&sent_file), Instant::now(), loadavg());
    let flags0 = targets[1].flags_taken;
    client.spin(window, &mut targets);
    let cpu1 = pids.map(cpu_time);
    let decisions = targets[1].flags_taken - flags0;
    let (sent1, elapsed) = (read_count(&sent_file), t0.elapsed().as_secs_f64());
    let updates = sent1.saturating_sub(sent0).max(1);
    let busy = |k: usize| (cpu1[k] - cpu0[k]).as_secs_f64();
    let per = |k: usize| busy(k) * 1e6 / updates as f64;
    let net = |k: usize| (busy(k) - idle_rate(k) * elapsed) * 1e6 / updates as f64;
    println!(
        "\nCPU over {elapsed:.1} s of peers alone: {updates} messages sent ({:.0}/s, {:.0} expected; load average {load0} before, {} after); idle: the same window before the peers started",
        updates as f64 / elapsed,
        n as f64 * RATE,
        loadavg()
    );
    println!(
        "the node's collision messages (one per decision, and the 10 Hz timer's): {decisions} ({:.0}/s), {:.1} peer updates per message",
        decisions as f64 / elapsed,
        updates as f64 / decisions.max(1) as f64
    );
    println!("| process | CPU per peer update | net of idle | CPU share | idle share |");
    println!("|---|---:|---:|---:|---:|");
    for (k, label) in ["node", "echo (floor)", "peer process"].iter().enumerate() {
        let (net, idle) = match k {
            2 => ("–".to_owned(), "–".to_owned()),
            _ => (
                format!("{:.1} µs", net(k)),
                format!("{:.1} %", idle_rate(k) * 100.0),
            ),
        };
        println!(
            "| {label} | {:.1} µs | {net} | {:.1} % | {idle} |",
            per(k),
            busy(k) / elapsed * 100.0
        );
    }

    // Latency: the probes, node and echo in interleaved blocks.
    let load0 = loadavg();
    let started = Instant::now();
    let mut inside = false;
    for record in [false, true] {
        let total = if record { o.samples } else { o.warmup };
        let (mut done, mut round) = (0, 0);
        while done < total {
            let count = o.block.min(total - done);
            for i in 0..targets.len() {
                let j = (i + round) % targets.len();
                let mut next = Instant::now();
                for _ in 0..count {
                    if let Some(left) = next.checked_duration_since(Instant::now()) {
                        client.spin(left, &mut targets);
                    }
                    next = Instant::now() + o.period;
                    inside = !inside;
                    let t = &mut targets[j];
                    match client.round_trip(t, inside) {
                        Some(d) if record => t.samples.push(d.as_secs_f64() * 1e6),
                        Some(_) => {}
                        None => t.lost += 1,
                    }
                }
            }
            done += count;
            round += 1;
        }
    }
    for t in targets.iter_mut() {
        t.process.check_running()?;
    }
    let peers_log = peers.log.clone();
    drop(peers);
    println!(
        "\nlatency: {:.1} s, load average {load0} before, {} after; {}",
        started.elapsed().as_secs_f64(),
        loadavg(),
        std::fs::read_to_string(peers_log)
            .unwrap_or_default()
            .lines()
            .find(|l| l.starts_with("fleet peers:"))
            .unwrap_or("fleet peers: no summary")
    );
    println!("\nprobe (fleet message) → collision, {n} peers at {RATE} Hz (µs)");
    println!("| target | n | lost | min | p50 | p90 | p99 | max | mean |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for t in &targets {
        let s = stats(&t.samples);
        println!(
            "| {} | {} | {} | {:.0} | {:.0} | {:.0} | {:.0} | {:.0} | {:.0} |",
            t.label, s.n, t.lost, s.min, s.p50, s.p90, s.p99, s.max, s.mean
        );
    }
    let (echo, node) = (stats(&targets[0].samples), stats(&targets[1].samples));
    println!(
        "ratio node / echo: p50 {:.2}×, p90 {:.2}×, p99 {:.2}×, mean {:.2}× (p50 {:+.0} µs)",
        node.p50 / echo.p50,
        node.p90 / echo.p90,
        node.p99 / echo.p99,
        node.mean / echo.mean,
        node.p50 - echo.p50
    );
    Ok(())
}
