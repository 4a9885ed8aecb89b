//! `--gate`: the velocity gate's latency, `cmd_vel_in` → `cmd_vel_out`
//! (`geometry_msgs/Twist`), while a point cloud of POINTS points (the clear
//! room of [`crate::cloud`]) arrives at 10 Hz on the node's `pointcloud`
//! source, against an echo of the Twist with the node's architecture
//! (`--echo-twist`: r2r spinning on a thread of its own, a tokio task that
//! answers each command at once).
//!
//! The node's gate: a stop zone in front of the robot and an approach zone
//! (the robot's octagon, `time_before_collision` 1 s), both checked
//! against the camera, `base_frame_id` = the clouds' frame (no TF). The
//! room's walls are 2 m away or more: every command (0.3 m/s forward) passes
//! unchanged, after the approach's contact query over the cloud's kept
//! points. Command k carries `linear.x = 0.3 + (k mod 1000) · 1e-5`: its
//! answer is the first output with that value (a gate that changed it would
//! show as lost). One command in flight, `--period-us` apart; echo and node
//! in interleaved blocks; the cloud feeder runs on a thread of this process
//! with a node of its own for the whole run.

use crate::cli::Options;
use crate::cloud::{self, room_cloud};
use crate::process::{echo_command, node_command, work_dir, ChildProcess};
use crate::stats::stats;
use crate::Res;
use futures::{FutureExt, StreamExt};
use r2r::geometry_msgs::msg::Twist;
use r2r::sensor_msgs::msg::PointCloud2;
use r2r::{NativeMsg, Publisher, QosProfile};
use sat_collision::ros::sources::SOURCE_QOS;
use sat_collision::ros::spin::{ShutdownSignals, Spinner, StopFlag};
use std::time::{Duration, Instant};

/// The gate's command QoS (nav2's: reliable, depth 1).
const COMMAND_QOS: QosProfile = QosProfile::default().keep_last(1);
/// An answer later than this is lost.
const TIMEOUT: Duration = Duration::from_millis(500);
/// Cloud period: 10 Hz.
const CLOUD_PERIOD: Duration = Duration::from_millis(100);

/// The echo: each Twist on `NS/cmd_in` back on `NS/cmd_out`.
pub fn echo_twist(ns: &str) -> Res<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(async {
        let ctx = r2r::Context::create()?;
        let mut node = r2r::Node::create(ctx, "echo_twist", ns)?;
        let mut commands = node.subscribe_native::<Twist>("cmd_in", COMMAND_QOS)?;
        let out = node.create_publisher::<Twist>("cmd_out", COMMAND_QOS)?;
        let spinner = Spinner::start(node);
        let mut signals = ShutdownSignals::register()?;
        let mut msg = NativeMsg::<Twist>::new();
        loop {
            tokio::select! {
                Some(cmd) = commands.next() => {
                    msg.linear.x = cmd.linear.x;
                    msg.linear.y = cmd.linear.y;
                    msg.angular.z = cmd.angular.z;
                    out.publish_native(&mut msg)?;
                }
                _ = signals.recv() => break,
            }
        }
        spinner.stop().await?;
        Ok(())
    })
}

/// The node's parameters: the camera source of [`cloud::node_values`] and
/// the gate.
fn gate_params(cloud_topic: &str) -> Vec<String> {
    let octagon: Vec<String> = cloud::octagon()
        .iter()
        .map(|(x, y)| format!("[{x:.6},{y:.6}]"))
        .collect();
    let mut params = cloud::node_params(&cloud::node_values(cloud_topic));
    params.extend([
        format!("base_frame_id:={}", cloud::BASE),
        "base_shift_correction:=false".to_owned(),
        "cmd_vel_in_topic:=cmd_in".to_owned(),
        "cmd_vel_out_topic:=cmd_out".to_owned(),
        "polygons:=[stop,approach]".to_owned(),
        "stop.type:=polygon".to_owned(),
        "stop.points:=\"[[0.5,0.3],[0.5,-0.3],[0.0,-0.3],[0.0,0.3]]\"".to_owned(),
        "stop.action_type:=stop".to_owned(),
        "approach.type:=polygon".to_owned(),
        format!("approach.points:=\"[{}]\"", octagon.join(",")),
        "approach.action_type:=approach".to_owned(),
        "approach.time_before_collision:=1.0".to_owned(),
    ]);
    params
}

/// Publishes the clear room cloud on `topic` at 10 Hz until `stop`.
fn feed_clouds(topic: String, points: usize, stop: StopFlag) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let run = || -> Res<()> {
            let ctx = r2r::Context::create()?;
            let mut node = r2r::Node::create(ctx, "gate_latency_clouds", "")?;
            let publisher: Publisher<PointCloud2> = node.create_publisher(&topic, SOURCE_QOS)?;
            let mut msg = NativeMsg::<PointCloud2>::from(&room_cloud(points, false));
            let mut next = Instant::now();
            while !stop.is_stopped() {
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .unwrap_or_default();
                msg.header.stamp.sec = now.as_secs() as i32;
                msg.header.stamp.nanosec = now.subsec_nanos();
                publisher.publish_native(&mut msg)?;
                next += CLOUD_PERIOD;
                node.spin_once(next.saturating_duration_since(Instant::now()));
                std::thread::sleep(next.saturating_duration_since(Instant::now()));
            }
            Ok(())
        };
        if let Err(e) = run() {
            eprintln!("cloud feeder: {e}");
        }
    })
}

struct Target {
    label: &'static str,
    process: ChildProcess,
    commands: Publisher<Twist>,
    outputs: Box<dyn futures::Stream<Item = NativeMsg<Twist>> + Unpin>,
    samples: Vec<f64>,
    lost: usize,
}

impl Target {
    fn drain(&mut self) {
        while let Some(Some(_)) = self.outputs.next().now_or_never() {}
    }
}

fn command(k: usize) -> Twist {
    let mut twist = Twist::default();
    twist.linear.x = 0.3 + (k % 1000) as f64 * 1e-5;
    twist
}

/// Sends command `k` and waits for its answer.
fn round_trip(node: &mut r2r::Node, t: &mut Target, k: usize) -> Option<Duration> {
    t.drain();
    let msg = command(k);
    let t0 = Instant::now();
    t.commands.publish(&msg).ok()?;
    loop {
        while let Some(Some(out)) = t.outputs.next().now_or_never() {
            if out.linear.x == msg.linear.x {
                return Some(t0.elapsed());
            }
        }
        let left = TIMEOUT.checked_sub(t0.elapsed())?;
        node.spin_once(left.min(Duration::from_millis(5)));
    }
}

/// Commands until one is answered unchanged (the node: once its first
/// cloud is in).
fn setup(node: &mut r2r::Node, t: &mut Target) -> Res<()> {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut k = 0;
    while Instant::now() < deadline {
        t.process.check_running()?;
        k += 1;
        if round_trip(node, t, k).is_some() {
            return Ok(());
        }
    }
    Err(format!("{}: no command passed within 60 s", t.label).into())
}

pub fn latency_gate(o: &Options, points: usize) -> Res<()> {
    match &o.dds_profile {
        Some(path) => {
            std::env::set_var("FASTRTPS_DEFAULT_PROFILES_FILE", path);
            std::env::set_var("FASTDDS_DEFAULT_PROFILES_FILE", path);
        }
        None => {
            std::env::remove_var("FASTRTPS_DEFAULT_PROFILES_FILE");
            std::env::remove_var("FASTDDS_DEFAULT_PROFILES_FILE");
        }
    }
    let pid = std::process::id();
    let dir = work_dir()?;
    let node_ns = format!("/lat{pid}_node_gate");
    let cloud_topic = format!("{node_ns}/cloud");
    let params = gate_params(&cloud_topic);
    println!(
        "gate: Twist cmd_in → cmd_out, one in flight every {} µs, {} samples per target after {} warm-up, blocks of {}; a {points}-point cloud at 10 Hz on the node's camera source; node -p {}",
        o.period.as_micros(),
        o.samples,
        o.warmup,
        o.block,
        params.join(" -p ")
    );
    let stop = StopFlag::new();
    let feeder = feed_clouds(cloud_topic, points, stop.clone());
    let ctx = r2r::Context::create()?;
    let mut node = r2r::Node::create(ctx, "gate_latency_client", "")?;
    let mut make = |label, ns: &str, process| -> Res<Target> {
        Ok(Target {
            label,
            process,
            commands: node.create_publisher(&format!("{ns}/cmd_in"), COMMAND_QOS)?,
            outputs: Box::new(
                node.subscribe_native::<Twist>(&format!("{ns}/cmd_out"), QosProfile::default())?,
            ),
            samples: Vec::new(),
            lost: 0,
        })
    };
    let mut cmd = node_command(o, &node_ns, 0.0);
    for p in &params {
        cmd.arg("-p").arg(p);
    }
    let gate = make(
        "node, gate",
        &node_ns,
        ChildProcess::spawn("node_gate", cmd, &dir)?,
    )?;
    let echo_ns = format!("/lat{pid}_echo_twist");
    let echo_process =
        ChildProcess::spawn("echo_twist", echo_command("--echo-twist", &echo_ns)?, &dir)?;
    let echo = make("echo of the Twist (floor)", &echo_ns, echo_process)?;
    let mut targets = [echo, gate];
    for t in targets.iter_mut() {
        setup(&mut node, t)?;
    }
    let mut k = 0;
    for record in [false, true] {
        let total = if record { o.samples } else { o.warmup };
        let mut done = 0;
        let mut round = 0;
        while done < total {
            let n = o.block.min(total - done);
            for i in 0..targets.len() {
                let t = &mut targets[(i + round) % 2];
                let mut next = Instant::now();
                for _ in 0..n {
                    while let Some(left) = next.checked_duration_since(Instant::now()) {
                        node.spin_once(left);
                        t.drain();
                    }
                    next = Instant::now() + o.period;
                    k += 1;
                    match round_trip(&mut node, t, k) {
                        Some(d) if record => t.samples.push(d.as_secs_f64() * 1e6),
                        Some(_) => {}
                        None => t.lost += 1,
                    }
                }
            }
            done += n;
            round += 1;
        }
    }
    stop.stop();
    let _ = feeder.join();
    println!("| target | n | lost | p50 | p90 | p99 | max (µs) |");
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    for t in &targets {
        let s = stats(&t.samples);
        println!(
            "| {} | {} | {} | {:.0} | {:.0} | {:.0} | {:.0} |",
            t.label, s.n, t.lost, s.p50, s.p90, s.p99, s.max
        );
    }
    let (echo, gate) = (stats(&targets[0].samples), stats(&targets[1].samples));
    println!(
        "node / echo: p50 {:.2}×, p90 {:.2}×, p99 {:.2}× (load {})",
        gate.p50 / echo.p50,
        gate.p90 / echo.p90,
        gate.p99 / echo.p99,
        crate::process::loadavg()
    );
    Ok(())
}
