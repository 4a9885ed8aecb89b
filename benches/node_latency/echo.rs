//! The benchmark's own child processes: the echoes (the transport floor)
//! and the sink (a consumer of the node's markers and reports).

use crate::Res;
use futures::{FutureExt, StreamExt};
use r2r::geometry_msgs::msg::{PolygonInstanceStamped, PolygonStamped};
use r2r::sat_collision_msgs::msg::ObstacleArray;
use r2r::sat_collision_msgs::srv::CheckFootprint;
use r2r::sensor_msgs::msg::PointCloud2;
use r2r::std_msgs::msg::Bool;
use r2r::tf2_msgs::msg::TFMessage;
use r2r::QosProfile;
use sat_collision::ros::sources::SOURCE_QOS;
use sat_collision::ros::spin::{spin_until, ShutdownSignals, Spinner, StopFlag, SPIN_TIMEOUT};
use std::time::{Duration, Instant};

/// Environment variable of the echo: µs of busy work after each answer.
pub const BURN_VAR: &str = "NODE_LATENCY_BURN_US";

/// Like the node: r2r spins on a blocking thread, a tokio task answers.
/// With `entities`, the node also has the node's other subscriptions and
/// services (idle), so r2r's per-spin wait set is as large as the node's.
pub fn echo(ns: &str, entities: bool) -> Res<()> {
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
        let spinner = Spinner::start(node);
        let mut signals = ShutdownSignals::register()?;
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
                _ = signals.recv() => break,
            }
        }
        spinner.stop().await?;
        Ok(())
    })
}

/// The node's `/tf` subscription QoS (best effort, depth 100).
const TF_QOS: QosProfile = QosProfile::default().best_effort().keep_last(100);

/// The floor of `--tf`: [`echo`] for `/tf` messages, on `NS/tf` (the
/// node's type and QoS; its own topic so that the node does not take the
/// echo's transforms): the bit is the parity of the first transform's
/// stamp nanoseconds.
pub fn echo_tf(ns: &str) -> Res<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(async {
        let ctx = r2r::Context::create()?;
        let mut node = r2r::Node::create(ctx, "echo_tf", ns)?;
        let mut transforms = node.subscribe::<TFMessage>("tf", TF_QOS)?;
        let flags = node.create_publisher::<Bool>("collision", QosProfile::default())?;
        let spinner = Spinner::start(node);
        let mut signals = ShutdownSignals::register()?;
        let mut flag = r2r::NativeMsg::<Bool>::new();
        loop {
            tokio::select! {
                Some(msg) = transforms.next() => {
                    let Some(t) = msg.transforms.first() else { continue };
                    flag.data = t.header.stamp.nanosec & 1 == 1;
                    flags.publish_native(&mut flag)?;
                }
                _ = signals.recv() => break,
            }
        }
        spinner.stop().await?;
        Ok(())
    })
}

/// The floor of `--cloud`: [`echo`] for point clouds on `NS/cloud`, taken
/// as the node takes them (`subscribe_native` with the node's source QoS:
/// the C message rmw deserialises into, no Rust copy) and answered at once
/// without reading the points: the bit is the parity of the stamp's
/// nanoseconds.
pub fn echo_cloud(ns: &str) -> Res<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(async {
        let ctx = r2r::Context::create()?;
        let mut node = r2r::Node::create(ctx, "echo_cloud", ns)?;
        let mut clouds = node.subscribe_native::<PointCloud2>("cloud", SOURCE_QOS)?;
        let flags = node.create_publisher::<Bool>("collision", QosProfile::default())?;
        let spinner = Spinner::start(node);
        let mut signals = ShutdownSignals::register()?;
        let mut flag = r2r::NativeMsg::<Bool>::new();
        loop {
            tokio::select! {
                Some(msg) = clouds.next() => {
                    flag.data = msg.header.stamp.nanosec & 1 == 1;
                    flags.publish_native(&mut flag)?;
                }
                _ = signals.recv() => break,
            }
        }
        spinner.stop().await?;
        Ok(())
    })
}

/// Stopped when SIGINT or SIGTERM arrives (a small runtime on a side
/// thread waits for it).
pub fn until_signal() -> StopFlag {
    let stop = StopFlag::new();
    let flag = stop.clone();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        rt.block_on(async {
            if let Ok(mut signals) = ShutdownSignals::register() {
                signals.recv().await;
            }
        });
        flag.stop();
    });
    stop
}

/// Answers from the spinning thread: no hand-over.
pub fn echo_single_thread(ns: &str) -> Res<()> {
    let running = until_signal();
    let ctx = r2r::Context::create()?;
    let mut node = r2r::Node::create(ctx, "echo_st", ns)?;
    let mut footprints = node.subscribe::<PolygonStamped>("footprint", QosProfile::default())?;
    let flags = node.create_publisher::<Bool>("collision", QosProfile::default())?;
    let mut flag = r2r::NativeMsg::<Bool>::new();
    while !running.is_stopped() {
        node.spin_once(SPIN_TIMEOUT);
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
pub fn sink(ns: &str) -> Res<()> {
    let running = until_signal();
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
    spin_until(&mut node, &running, || {
        while let Some(Some(m)) = markers.next().now_or_never() {
            arrays += 1;
            bytes = m.len();
        }
        while let Some(Some(_)) = reports.next().now_or_never() {
            report_count += 1;
        }
    });
    println!("sink: {arrays} marker arrays (last {bytes} bytes), {report_count} reports");
    Ok(())
}
