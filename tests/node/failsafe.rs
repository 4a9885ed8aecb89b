//! `sat_collision_node` failing safe over ROS 2, under load and against
//! hostile or broken inputs: freshness measured from arrival while the
//! node is busy, a collision flag that no heavy work can starve, sim time
//! (no clock, a clock that stalls, one that jumps back), oversized inputs
//! and strings, scaled quaternions in `check_footprint`, and start-up
//! files that are not what they should be.
//!
//! Every test drives the real `sat_collision_node` binary and asserts what
//! comes back over ROS 2 (or, for start-up, the exit status and output).
//! Deadlines are generous (the machine may be busy with other tests); the
//! only timing bounds asserted are the behavioural ones: 1 s between two
//! `collision` messages, 1 s (+ margin) for a footprint's freshness.
#![cfg(feature = "ros")]

use crate::node_common::*;
use r2r::geometry_msgs::msg::{PolygonInstanceStamped, PolygonStamped, Pose, Quaternion};
use r2r::sat_collision_msgs::msg::{CollisionReport, Obstacle, ObstacleArray};
use r2r::sat_collision_msgs::srv::CheckFootprint;
use r2r::std_msgs::msg::Bool;
use r2r::QosProfile;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tokio::sync::mpsc::UnboundedReceiver;

/// Start-up failures must come this fast (a hang is a failure).
const PROMPT_EXIT: Duration = Duration::from_secs(20);

/// Longest allowed time between two `collision` messages (the node
/// publishes at 10 Hz; 1 s is what a safety consumer may wait).
const MAX_FLAG_GAP: Duration = Duration::from_secs(1);

// ---------------------------------------------------------------------------
// Shapes

/// A zig-zag ("comb") polygon of `n` vertices (n >= 5): a straight bottom
/// edge from (x0, y0) to (x0 + (n - 3) * step, y0), a sawtooth top between
/// y0 + 1 and y0 + 2. Concave, simple; every coordinate exact in float32
/// for the steps and origins used here.
fn comb(n: usize, x0: f64, y0: f64, step: f64) -> Vec<(f64, f64)> {
    assert!(n >= 5);
    let teeth = n - 2; // top vertices, right to left
    let right = x0 + (teeth - 1) as f64 * step;
    let mut points = vec![(x0, y0), (right, y0)];
    for j in 0..teeth {
        let x = right - j as f64 * step;
        let y = if j % 2 == 0 { y0 + 1.0 } else { y0 + 2.0 };
        points.push((x, y));
    }
    points
}

/// A unique temporary directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sat_failsafe_{}_{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("run mkfifo");
    assert!(status.success(), "mkfifo {}", path.display());
}

/// Appends `figure` to the notes that the closing report quotes.
fn note(figure: &str) {
    use std::io::Write;
    eprintln!("[figure] {figure}");
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open("/tmp/node_failsafe_figures.txt")
    {
        let _ = writeln!(f, "{figure}");
    }
}

/// The longest gap between consecutive stamped messages (and the count).
fn largest_gap<T>(stamped: &[(Instant, T)]) -> (Duration, usize) {
    let gap = stamped
        .windows(2)
        .map(|w| w[1].0.duration_since(w[0].0))
        .max()
        .unwrap_or_default();
    (gap, stamped.len())
}

/// Everything `rx` holds now, and what arrives until `until`.
async fn drain_until<T>(
    rx: &mut UnboundedReceiver<(Instant, T)>,
    until: Instant,
) -> Vec<(Instant, T)> {
    let mut out = Vec::new();
    loop {
        let deadline = tokio::time::Instant::from_std(until);
        match tokio::time::timeout_at(deadline, rx.recv()).await {
            Ok(Some(msg)) => out.push(msg),
            Ok(None) | Err(_) => break,
        }
    }
    while let Ok(msg) = rx.try_recv() {
        if msg.0 <= until {
            out.push(msg);
        }
    }
    out
}

// ---------------------------------------------------------------------------
// 6. check_footprint: a scaled quaternion

fn quat_pose(x: f64, y: f64, q: (f64, f64, f64, f64)) -> Pose {
    let mut p = pose(x, y, 0.0);
    p.orientation = Quaternion {
        x: q.0,
        y: q.1,
        z: q.2,
        w: q.3,
    };
    p
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn service_pose_with_a_huge_quaternion_is_the_same_rotation() {
    let mut h = Harness::start("fs_quat", &[]).await;
    // A wall beside the robot: y in [0.4, 0.6]. The robot (1 m long,
    // 0.5 m wide) at the origin is clear at yaw 0 (0.15 m) and reaches
    // y = 0.5 when turned 90 degrees: colliding.
    h.set_obstacles(Some(obstacles(
        "map",
        vec![obstacle("side", &rect(-1.0, 0.4, 1.0, 0.6))],
    )));
    h.set_footprint(Some(footprint("map", &square(-5.0, -5.0, 0.5))));
    h.report_where("valid", SETTLE, |r| r.valid).await;

    let half = std::f64::consts::FRAC_1_SQRT_2;
    let request = |q| CheckFootprint::Request {
        footprint: polygon(&rect(-0.5, -0.25, 0.5, 0.25)),
        poses: vec![
            quat_pose(0.0, 0.0, (0.0, 0.0, 0.0, 1.0)),
            quat_pose(0.0, 0.0, q),
        ],
        padding: 0.0,
    };
    let unit = h.check_footprint(request((0.0, 0.0, half, half))).await;
    assert!(unit.valid, "{unit:?}");
    assert_eq!(unit.status, "ok");
    assert_eq!(
        unit.colliding,
        [false, true],
        "yaw 0 clear, yaw 90 colliding: {unit:?}"
    );
    assert!((unit.distance[0] - 0.15).abs() < 1e-6, "{unit:?}");
    assert_eq!(unit.first_collision, 1);

    for q in [(0.0, 0.0, 1e200, 1e200), (0.0, 0.0, -1e200, -1e200)] {
        let scaled = h.check_footprint(request(q)).await;
        assert!(scaled.valid, "{q:?}: {scaled:?}");
        assert_eq!(scaled.status, "ok", "{q:?}");
        assert_eq!(scaled.colliding, unit.colliding, "{q:?}: {scaled:?}");
        assert_eq!(scaled.first_collision, unit.first_collision, "{q:?}");
        for (a, b) in scaled.distance.iter().zip(&unit.distance) {
            assert!((a - b).abs() < 1e-9, "{q:?}: {scaled:?} vs {unit:?}");
        }
    }
}

// ---------------------------------------------------------------------------
// 7. --params-file for another node name, or that is a FIFO

#[test]
fn params_file_naming_another_node_stops_start_up() {
    let dir = temp_dir("params");
    let typo = dir.join("typo.yaml");
    std::fs::write(
        &typo,
        "sat_colision_node:\n  ros__parameters:\n    padding: 0.25\n",
    )
    .unwrap();
    let (status, out) = NodeProcess::run_with_args_to_exit(
        "/t_fs_ptypo",
        &[],
        &["--params-file", typo.to_str().unwrap()],
        PROMPT_EXIT,
    );
    assert_eq!(
        status.code(),
        Some(1),
        "exit status {status:?}; output:\n{out}"
    );
    let expected = format!(
        "--params-file {}: params file names no entry for this node \
         (/t_fs_ptypo/sat_collision_node): its key is sat_colision_node; \
         use sat_collision_node, /t_fs_ptypo/sat_collision_node or /**",
        typo.display()
    );
    assert!(out.contains(&expected), "expected `{expected}` in:\n{out}");
    assert!(!out.contains("started:"), "{out}");

    // `/**` and the node's own name apply: the node starts, with the
    // file's value.
    for (name, key) in [("pall", "/**"), ("pname", "sat_collision_node")] {
        let file = dir.join(format!("{name}.yaml"));
        std::fs::write(
            &file,
            format!("{key}:\n  ros__parameters:\n    padding: 0.25\n"),
        )
        .unwrap();
        let mut node = NodeProcess::spawn_with_args(
            &format!("/t_fs_{name}"),
            &[],
            &["--params-file", file.to_str().unwrap()],
        );
        let deadline = Instant::now() + STARTUP;
        while !node.log_text().contains("started:") {
            assert!(
                node.is_running() && Instant::now() < deadline,
                "{key}: node did not start; output:\n{}",
                node.log_text()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let log = node.log_text();
        assert!(
            log.contains("padding 0.25 m"),
            "{key}: file not applied:\n{log}"
        );
        assert!(node.is_running(), "{key}: {log}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn params_file_that_is_a_fifo_exits_promptly() {
    let dir = temp_dir("pfifo");
    let fifo = dir.join("params.yaml");
    mkfifo(&fifo);
    let started = Instant::now();
    let (status, out) = NodeProcess::run_with_args_to_exit(
        "/t_fs_pfifo",
        &[],
        &["--params-file", fifo.to_str().unwrap()],
        PROMPT_EXIT,
    );
    note(&format!(
        "7 params-file FIFO: exit {:?} after {:?}",
        status.code(),
        started.elapsed()
    ));
    assert_eq!(
        status.code(),
        Some(1),
        "exit status {status:?}; output:\n{out}"
    );
    assert!(
        out.contains("--params-file") && out.contains("not a regular file (a FIFO)"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------
// 8. zones_file that is not a regular file

#[test]
fn zones_file_that_is_a_device_or_a_fifo_exits_promptly() {
    let dir = temp_dir("zfifo");
    let fifo = dir.join("zones.yaml");
    mkfifo(&fifo);
    for (path, kind) in [
        ("/dev/zero".to_owned(), "character device"),
        (fifo.to_str().unwrap().to_owned(), "FIFO"),
    ] {
        let started = Instant::now();
        let (status, out) =
            NodeProcess::run_to_exit("/t_fs_zones", &[("zones_file", &path)], PROMPT_EXIT);
        note(&format!(
            "8 zones_file {path}: exit {:?} after {:?}",
            status.code(),
            started.elapsed()
        ));
        assert_eq!(status.code(), Some(1), "{path}: {status:?}; output:\n{out}");
        assert!(out.contains("zones_file"), "{path}: {out}");
        assert!(out.contains("not a regular file"), "{path}: {out}");
        assert!(out.contains(kind), "{path}: {out}");
        assert!(!out.contains("started:"), "{path}: {out}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------
// Publishing one-off messages

/// Publishes (`publish`) every 200 ms until a report satisfies `pred` (at
/// most [`SETTLE`]); the report.
async fn publish_until(
    h: &mut Harness,
    what: &str,
    mut publish: impl FnMut(),
    mut pred: impl FnMut(&CollisionReport) -> bool,
) -> CollisionReport {
    let deadline = Instant::now() + SETTLE;
    let mut last = None;
    loop {
        publish();
        let until = tokio::time::Instant::now() + Duration::from_millis(200);
        while let Ok(Some(r)) = tokio::time::timeout_at(until, h.reports.recv()).await {
            if pred(&r) {
                return r;
            }
            last = Some(r);
        }
        assert!(
            Instant::now() < deadline,
            "no report {what} within {SETTLE:?}; last one: {last:#?}\n{}",
            h.context_text()
        );
    }
}

/// Like [`publish_until`], for the flag.
async fn publish_until_flag(h: &mut Harness, expected: bool, mut publish: impl FnMut()) {
    let deadline = Instant::now() + SETTLE;
    while h.flags.try_recv().is_ok() {}
    loop {
        publish();
        let until = tokio::time::Instant::now() + Duration::from_millis(200);
        while let Ok(Some(b)) = tokio::time::timeout_at(until, h.flags.recv()).await {
            if b.data == expected {
                return;
            }
        }
        assert!(
            Instant::now() < deadline,
            "flag never {expected}; {}",
            h.context_text()
        );
    }
}

/// Writes `bytes` (any bytes: NULs, invalid UTF-8) into a native string.
fn set_native_string(s: &mut r2r_rcl::rosidl_runtime_c__String, bytes: &[u8]) {
    // SAFETY: `s` is an initialised rosidl string owned by a live native
    // message; assignn copies `bytes.len()` bytes from a valid slice
    // (NULs included) into a new buffer and frees the old one.
    let ok = unsafe {
        r2r_rcl::rosidl_runtime_c__String__assignn(s, bytes.as_ptr().cast(), bytes.len())
    };
    assert!(ok, "rosidl string assign failed");
}

// ---------------------------------------------------------------------------
// 5. Frame ids that are not strings a C consumer or a comparison can use

/// Frame ids the node must refuse, built natively: one that is not UTF-8
/// (r2r's own conversion would read it as "") and one over the 256-byte
/// limit.
fn bad_frames() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("not UTF-8", b"\xff\xfe".to_vec()),
        ("300 bytes", vec![b'm'; 300]),
    ]
}

/// Publishes footprints, then obstacle arrays, with `frame` (natively)
/// until the report says `invalid_frame_id` and the flag reads true; back
/// to a valid scene after each.
async fn refuses_frame(
    h: &mut Harness,
    what: &str,
    frame: &[u8],
    footprints: &r2r::Publisher<PolygonStamped>,
    arrays: &r2r::Publisher<ObstacleArray>,
    robot: &[(f64, f64)],
    scene: &ObstacleArray,
) {
    let mut msg = r2r::NativeMsg::<PolygonStamped>::from(&footprint("map", robot));
    set_native_string(&mut msg.header.frame_id, frame);
    h.set_footprint(None);
    let r = publish_until(
        h,
        &format!("with status invalid_frame_id (footprint frame {what})"),
        || footprints.publish_native(&mut msg).expect("publish"),
        |r| r.status == "invalid_frame_id",
    )
    .await;
    assert!(!r.valid, "{what}: {r:#?}");
    publish_until_flag(h, true, || {
        footprints.publish_native(&mut msg).expect("publish")
    })
    .await;
    h.set_footprint(Some(footprint("map", robot)));
    h.report_where("valid again", SETTLE, |r| r.valid).await;

    let mut msg = r2r::NativeMsg::<ObstacleArray>::from(scene);
    set_native_string(&mut msg.header.frame_id, frame);
    h.set_obstacles(None);
    let r = publish_until(
        h,
        &format!("with status invalid_frame_id (obstacles frame {what})"),
        || arrays.publish_native(&mut msg).expect("publish"),
        |r| r.status == "invalid_frame_id",
    )
    .await;
    assert!(!r.valid, "{what}: {r:#?}");
    publish_until_flag(h, true, || {
        arrays.publish_native(&mut msg).expect("publish")
    })
    .await;
    h.set_obstacles(Some(scene.clone()));
    h.report_where("valid again", SETTLE, |r| r.valid && !r.colliding)
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn frame_ids_not_utf8_or_too_long_are_refused() {
    let mut h = Harness::start("fs_frames", &[]).await;
    let robot = square(0.0, 0.0, 0.5);
    let scene = obstacles("map", vec![obstacle("far", &rect(5.0, -1.0, 6.0, 1.0))]);
    h.set_obstacles(Some(scene.clone()));
    h.set_footprint(Some(footprint("map", &robot)));
    h.report_where("valid", SETTLE, |r| r.valid && !r.colliding)
        .await;
    let footprints = h.matched_publisher::<PolygonStamped>("footprint").await;
    let arrays = h.matched_publisher::<ObstacleArray>("obstacles").await;
    for (what, frame) in bad_frames() {
        refuses_frame(&mut h, what, &frame, &footprints, &arrays, &robot, &scene).await;
    }
    assert!(h.node.is_running());
}

/// A frame id with an embedded NUL ("map\0odom": r2r's conversion, like
/// any C consumer, would read "map"). Whether the NUL reaches a subscriber
/// at all depends on the middleware: rmw_fastrtps serialises a rosidl
/// string as a C string (`cdr << str->data`), so "map\0odom" goes on the
/// wire as "map" (and it reads one back with `String__assign(tmp.c_str())`,
/// which would cut a NUL that came on the wire). The test first looks at what a native subscriber of the
/// peer receives: when the NUL arrives, the node must refuse the frame
/// (`invalid_frame_id`); when the middleware cut it, the node can only
/// judge "map", and the report must say so (`frame_id` "map").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn frame_id_with_a_nul_is_refused_when_it_reaches_the_node() {
    let mut h = Harness::start("fs_nul", &[]).await;
    let robot = square(0.0, 0.0, 0.5);
    let scene = obstacles("map", vec![obstacle("far", &rect(5.0, -1.0, 6.0, 1.0))]);
    h.set_obstacles(Some(scene.clone()));
    h.set_footprint(Some(footprint("map", &robot)));
    h.report_where("valid", SETTLE, |r| r.valid && !r.colliding)
        .await;
    // The peer listens natively on a topic of its own.
    let mut wire = h
        .peer_node()
        .lock()
        .unwrap()
        .subscribe_native::<PolygonStamped>("nul_probe", r2r::QosProfile::default())
        .expect("subscribe nul_probe");
    let probe = h
        .peer_node()
        .lock()
        .unwrap()
        .create_publisher::<PolygonStamped>("nul_probe", r2r::QosProfile::default())
        .expect("probe publisher");
    let frame: &[u8] = b"map\0odom";
    let mut msg = r2r::NativeMsg::<PolygonStamped>::from(&footprint("map", &robot));
    set_native_string(&mut msg.header.frame_id, frame);
    let deadline = Instant::now() + STARTUP;
    let received: Vec<u8> = loop {
        probe.publish_native(&mut msg).expect("publish probe");
        let next = tokio::time::timeout(
            Duration::from_millis(200),
            futures::StreamExt::next(&mut wire),
        )
        .await;
        if let Ok(Some(got)) = next {
            let s = &got.header.frame_id;
            // SAFETY: an initialised rosidl string owns `size` bytes.
            break unsafe { std::slice::from_raw_parts(s.data.cast::<u8>(), s.size) }.to_vec();
        }
        assert!(Instant::now() < deadline, "the probe never arrived");
    };
    note(&format!(
        "5 NUL frame id: sent {frame:?}, a native subscriber receives {:?}",
        String::from_utf8_lossy(&received)
    ));
    let footprints = h.matched_publisher::<PolygonStamped>("footprint").await;
    let arrays = h.matched_publisher::<ObstacleArray>("obstacles").await;
    if received == frame {
        refuses_frame(&mut h, "NUL", frame, &footprints, &arrays, &robot, &scene).await;
    } else {
        // Nothing the node can tell apart from "map": documented, not
        // judged (see the notes of this test).
        assert_eq!(received, b"map", "the middleware cut the string at the NUL");
    }
    assert!(h.node.is_running());
}

// ---------------------------------------------------------------------------
// 4. Oversized inputs and ids that would forge log lines

fn longest_line(log: &str) -> usize {
    log.lines().map(|l| l.chars().count()).max().unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_16_mb_obstacle_id_is_refused_without_memory_or_log_blowup() {
    // Reliable: a 16 MB message over best effort loses fragments under load
    // and may never arrive whole; this test is about the limit, not QoS.
    let mut h = Harness::start("fs_bigid", &[("input_reliability", "reliable")]).await;
    let scene = obstacles("map", vec![obstacle("far", &rect(5.0, -1.0, 6.0, 1.0))]);
    h.set_obstacles(Some(scene.clone()));
    h.set_footprint(Some(footprint("map", &square(0.0, 0.0, 0.5))));
    h.report_where("valid", SETTLE, |r| r.valid).await;
    let arrays = h.matched_publisher::<ObstacleArray>("obstacles").await;
    // Settled: RSS before the message.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let before = h.node.rss_kb().expect("VmRSS");

    let huge = obstacles(
        "map",
        vec![obstacle(&"x".repeat(16 << 20), &rect(5.0, -1.0, 6.0, 1.0))],
    );
    h.set_obstacles(None);
    let mut peak = before;
    let mut sent = 0;
    let r = {
        let node = &h.node;
        let mut publish = || {
            arrays.publish(&huge).expect("publish 16 MB id");
            sent += 1;
            peak = peak.max(node.rss_kb().unwrap_or(0));
        };
        // Closure borrows h.node: wait on the reports through a second
        // borrow-free loop.
        let deadline = Instant::now() + SETTLE;
        let mut last = None;
        'outer: loop {
            publish();
            let until = tokio::time::Instant::now() + Duration::from_millis(400);
            while let Ok(Some(r)) = tokio::time::timeout_at(until, h.reports.recv()).await {
                if r.status == "invalid_id" {
                    break 'outer r;
                }
                last = Some(r);
            }
            assert!(
                Instant::now() < deadline,
                "no invalid_id report; last {last:#?}\n{}",
                node.log_text()
            );
        }
    };
    assert!(!r.valid, "{r:#?}");
    assert!(r.colliding, "fail_safe: {r:#?}");
    // Keep it the newest for a while (the node gets it a few more times).
    for _ in 0..3 {
        arrays.publish(&huge).expect("publish 16 MB id");
        sent += 1;
        tokio::time::sleep(Duration::from_millis(300)).await;
        peak = peak.max(h.node.rss_kb().unwrap_or(0));
    }
    let after_status = h.report_where("(next)", SETTLE, |_| true).await;
    assert!(!after_status.valid, "{after_status:#?}");
    assert!(h.node.is_running(), "node died: {}", h.node.log_text());
    let after = h.node.rss_kb().expect("VmRSS");

    h.set_obstacles(Some(scene));
    h.report_where("valid again", SETTLE, |r| r.valid && !r.colliding)
        .await;
    let log = h.node.log_text();
    let longest = longest_line(&log);
    note(&format!(
        "4a 16 MB id ({sent} messages): VmRSS before {before} kB, peak seen {peak} kB, \
         after {after} kB (+{} kB); longest log line {longest} chars",
        after as i64 - before as i64
    ));
    assert!(
        peak < before + 150 * 1024 && after < before + 150 * 1024,
        "RSS before {before} kB, peak {peak} kB, after {after} kB"
    );
    assert!(
        longest <= 1000,
        "a log line of {longest} chars:\n{}",
        &log[..log.len().min(4000)]
    );
    assert!(log.contains("obstacle array refused: invalid_id"), "{log}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_100000_obstacle_array_is_refused_and_a_normal_one_recovers() {
    let mut h = Harness::start("fs_manyobs", &[]).await;
    let scene = obstacles("map", vec![obstacle("far", &rect(5.0, -1.0, 6.0, 1.0))]);
    h.set_obstacles(Some(scene.clone()));
    h.set_footprint(Some(footprint("map", &square(0.0, 0.0, 0.5))));
    h.report_where("valid", SETTLE, |r| r.valid).await;
    let arrays = h.matched_publisher::<ObstacleArray>("obstacles").await;

    let many = obstacles(
        "map",
        (0..100_000)
            .map(|i| {
                circle(
                    &format!("c{i}"),
                    10.0 + f64::from(i % 1000),
                    f64::from(i / 1000),
                    0.25,
                )
            })
            .collect(),
    );
    h.set_obstacles(None);
    let r = publish_until(
        &mut h,
        "with status too_many_obstacles",
        || arrays.publish(&many).expect("publish"),
        |r| r.status == "too_many_obstacles",
    )
    .await;
    assert!(!r.valid, "{r:#?}");
    assert!(r.colliding, "fail_safe: {r:#?}");
    publish_until_flag(&mut h, true, || arrays.publish(&many).expect("publish")).await;

    h.set_obstacles(Some(scene));
    let r = h
        .report_where("valid again", SETTLE, |r| r.valid && !r.colliding)
        .await;
    assert_eq!(result_ids(&r), ["far"]);
    h.flag_settles(false).await;
    assert!(h.node.is_running());
}

/// Short, but with a newline and an ANSI escape (red) in it.
const FORGING_ID: &str = "a\nFAKE LOG LINE\x1b[31m";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ids_are_escaped_in_log_lines_even_when_the_flag_flaps() {
    let mut h = Harness::start("fs_forge", &[]).await;
    h.set_obstacles(Some(obstacles(
        "map",
        vec![obstacle(FORGING_ID, &rect(2.8, -1.0, 3.5, 1.0))],
    )));
    let clear = footprint("map", &square(0.0, 0.0, 0.5));
    let hit = footprint("map", &square(2.5, 0.0, 0.5));
    h.set_footprint(Some(clear.clone()));
    let r = h.report_where("valid", SETTLE, |r| r.valid).await;
    assert_eq!(
        r.nearest_obstacle_id, FORGING_ID,
        "the id itself round-trips"
    );
    h.flag_settles(false).await;

    // Collides and clears, faster than the change log logs each change.
    for k in 0..40 {
        let colliding = k % 2 == 0;
        h.set_footprint(Some(if colliding {
            hit.clone()
        } else {
            clear.clone()
        }));
        h.flag_within(colliding, SETTLE).await;
    }
    let r = h
        .report_where("clear at the end", SETTLE, |r| r.valid && !r.colliding)
        .await;
    assert_eq!(r.nearest_obstacle_id, FORGING_ID);
    // The flapping count comes with a publication after the window.
    let deadline = Instant::now() + SETTLE;
    while !h.node.log_text().contains("flag flapping") && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let log = h.node.log_text();
    let escaped = r"a\nFAKE LOG LINE\u{1b}[31m";
    let mentions = log.matches(escaped).count();
    note(&format!(
        "4c forging id: {mentions} log lines name it escaped; flapping line: {}",
        log.contains("flag flapping")
    ));
    assert!(
        mentions > 0,
        "the id is not in the log in escaped form:\n{log}"
    );
    assert!(log.contains("flag flapping"), "no flapping line:\n{log}");
    // Every mention is the escaped one: no raw newline before, no raw ESC
    // after "FAKE LOG LINE".
    assert_eq!(
        log.matches("FAKE LOG LINE").count(),
        mentions,
        "an unescaped mention of the id:\n{log:?}"
    );
    assert!(!log.contains("LINE\x1b"), "raw ESC in the log:\n{log:?}");
    // rcutils colours its own lines only when told to.
    if std::env::var("RCUTILS_COLORIZED_OUTPUT").as_deref() != Ok("1") {
        assert!(!log.contains('\x1b'), "raw ESC in the log:\n{log:?}");
    }
    assert!(
        !log.lines().any(|l| l.starts_with("FAKE LOG LINE")),
        "a forged log line:\n{log}"
    );
    assert!(!log.contains("\nFAKE LOG LINE"), "{log:?}");
}

// ---------------------------------------------------------------------------
// 3. Sim time: no clock, a clock that stalls, one that jumps back

/// What the test's `/clock` publisher does.
struct SimClock {
    running: bool,
    /// Sim time (s) at `since`.
    at: f64,
    since: Instant,
}

impl SimClock {
    fn now(&self) -> f64 {
        if self.running {
            self.at + self.since.elapsed().as_secs_f64()
        } else {
            self.at
        }
    }

    fn set(&mut self, running: bool, at: f64) {
        *self = SimClock {
            running,
            at,
            since: Instant::now(),
        };
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sim_time_no_clock_stalled_clock_and_a_jump_back_are_not_valid() {
    use r2r::rosgraph_msgs::msg::Clock;
    use std::sync::{Arc, Mutex};
    let mut h = Harness::start("fs_sim", &[("use_sim_time", "true")]).await;
    let peer = h.peer_node();
    let clock_pub = peer
        .lock()
        .unwrap()
        .create_publisher::<Clock>("/clock", r2r::QosProfile::default())
        .expect("/clock publisher");
    let arrays = peer
        .lock()
        .unwrap()
        .create_publisher::<ObstacleArray>("obstacles", r2r::QosProfile::default())
        .expect("obstacles publisher");
    let clock = Arc::new(Mutex::new(SimClock {
        running: false,
        at: 0.0,
        since: Instant::now(),
    }));
    // /clock at 50 Hz while running; silent otherwise.
    let clock_task = {
        let clock = clock.clone();
        tokio::spawn(async move {
            loop {
                let now = {
                    let c = clock.lock().unwrap();
                    c.running.then(|| c.now())
                };
                if let Some(t) = now {
                    let msg = Clock {
                        clock: r2r::builtin_interfaces::msg::Time {
                            sec: t.floor() as i32,
                            nanosec: ((t - t.floor()) * 1e9) as u32,
                        },
                    };
                    let _ = clock_pub.publish(&msg);
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        })
    };
    // Obstacles at 2 Hz (fresh for the 1 s timeout; slow enough that the
    // array from before a jump stays in use for a while), the footprint at
    // 10 Hz by the feeder. A clear scene: the flag is true only by
    // fail_safe.
    let scene = obstacles("map", vec![obstacle("far", &rect(5.0, -1.0, 6.0, 1.0))]);
    let obstacle_task = tokio::spawn(async move {
        loop {
            let _ = arrays.publish(&scene);
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    });
    h.set_footprint(Some(footprint("map", &square(0.0, 0.0, 0.5))));

    // No /clock: ROS time reads 0.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let r = h.report_with_status("no_clock").await;
    assert!(!r.valid && r.colliding, "{r:#?}");
    h.flag_settles(true).await;

    // /clock from 1000 s, in real time: valid and clear.
    clock.lock().unwrap().set(true, 1000.0);
    let r = h
        .report_where("valid with /clock", SETTLE, |r| r.valid)
        .await;
    assert!(!r.colliding, "{r:#?}");
    assert!(r.header.stamp.sec >= 1000, "stamped in sim time: {r:#?}");
    h.flag_within(false, SETTLE).await;

    // /clock stops, inputs keep coming: stalled.
    let stopped = Instant::now();
    {
        let mut c = clock.lock().unwrap();
        let t = c.now();
        c.set(false, t);
    }
    let r = h.report_with_status("clock_stalled").await;
    let stall_after = stopped.elapsed();
    assert!(!r.valid && r.colliding, "{r:#?}");
    // Every report from there on (until the clock restarts) is not valid.
    for _ in 0..5 {
        let r = h.report_where("(next)", SETTLE, |_| true).await;
        assert_eq!(r.status, "clock_stalled", "{r:#?}");
    }
    h.flag_within(true, SETTLE).await;

    // Restarted where it stopped: valid again.
    {
        let mut c = clock.lock().unwrap();
        let t = c.now();
        c.set(true, t);
    }
    h.report_where("valid after the restart", SETTLE, |r| r.valid)
        .await;

    // Jump back from ~1000 s to 10 s, /clock and inputs keep coming.
    let jumped = Instant::now();
    clock.lock().unwrap().set(true, 10.0);
    let r = h.report_with_status("clock_jumped_back").await;
    let jump_seen_after = jumped.elapsed();
    assert!(!r.valid && r.colliding, "{r:#?}");
    let r = h
        .report_where("valid after the jump", SETTLE, |r| r.valid)
        .await;
    let valid_after = jumped.elapsed();
    assert!(!r.colliding, "{r:#?}");
    assert!(r.header.stamp.sec < 1000, "stamped after the jump: {r:#?}");
    note(&format!(
        "3 sim time: clock_stalled {stall_after:?} after /clock stopped; \
         clock_jumped_back {jump_seen_after:?} after the jump, valid again after {valid_after:?}"
    ));
    clock_task.abort();
    obstacle_task.abort();
}

// ---------------------------------------------------------------------------
// 1. Freshness from arrival under load, and 2. a flag never starved

/// Vertices of each heavy obstacle (a comb), and how many of them: 240,000
/// vertices in one message, under the 262,144 limit.
const HEAVY_VERTICES: usize = 4_000;
const HEAVY_COUNT: usize = 60;

/// The wall, and 60 concave combs far from the robot (y >= 10).
fn heavy_array(wall: &Obstacle) -> ObstacleArray {
    let mut list = vec![wall.clone()];
    for i in 0..HEAVY_COUNT {
        let points = comb(HEAVY_VERTICES, -2.0, 10.0 + 3.0 * i as f64, 1.0 / 1024.0);
        list.push(obstacle(&format!("comb{i}"), &points));
    }
    obstacles("map", list)
}

/// Checks the gaps between stamped flags; the largest.
fn assert_flag_gaps(flags: &[(Instant, Bool)], what: &str) -> Duration {
    let (gap, count) = largest_gap(flags);
    assert!(count >= 2, "{what}: {count} collision messages");
    assert!(
        gap <= MAX_FLAG_GAP,
        "{what}: {gap:?} between two collision messages ({count} received)"
    );
    gap
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn heavy_obstacle_array_neither_keeps_an_old_footprint_valid_nor_starves_the_flag() {
    let mut h = Harness::start("fs_heavy", &[]).await;
    let mut flags = h.subscribe_stamped_flags();
    let mut reports = h.subscribe_stamped_reports();
    let wall = obstacle("wall", &rect(2.8, -1.0, 3.5, 1.0));
    let clear = footprint("map", &square(0.0, 0.0, 0.5));
    let hit = footprint("map", &square(2.5, 0.0, 0.5));
    h.set_obstacles(Some(obstacles("map", vec![wall.clone()])));
    h.set_footprint(Some(clear));
    h.report_where("valid and clear", SETTLE, |r| r.valid && !r.colliding)
        .await;
    h.flag_settles(false).await;
    // Both stamped subscriptions are matched by now.
    tokio::time::sleep(Duration::from_millis(500)).await;
    while flags.try_recv().is_ok() {}
    while reports.try_recv().is_ok() {}

    // The heavy array, re-published at 10 Hz by the feeder; the colliding
    // footprint 300 ms later, while the node takes it in.
    let heavy = heavy_array(&wall);
    let load_start = Instant::now();
    h.set_obstacles(Some(heavy));
    tokio::time::sleep(Duration::from_millis(300)).await;
    let hit_sent = Instant::now();
    h.set_footprint(Some(hit));
    let end = hit_sent + Duration::from_secs(8);
    let stamped_flags = drain_until(&mut flags, end).await;
    let stamped_reports = drain_until(&mut reports, Instant::now()).await;
    let bound = hit_sent + MAX_FLAG_GAP;

    // 1a: the flag reads true within 1 s of the colliding footprint, and
    // stays so; no report says "valid and clear" after that.
    let first_true = stamped_flags
        .iter()
        .find(|(t, b)| *t >= hit_sent && b.data)
        .map(|(t, _)| t.duration_since(hit_sent));
    let late_false: Vec<Duration> = stamped_flags
        .iter()
        .filter(|(t, b)| *t > bound && !b.data)
        .map(|(t, _)| t.duration_since(hit_sent))
        .collect();
    let late_clear: Vec<(Duration, &str, usize)> = stamped_reports
        .iter()
        .filter(|(t, r)| *t > bound && r.valid && !r.colliding)
        .map(|(t, r)| {
            (
                t.duration_since(hit_sent),
                r.status.as_str(),
                r.results.len(),
            )
        })
        .collect();
    let taken_in = stamped_reports
        .iter()
        .find(|(_, r)| r.results.len() == HEAVY_COUNT + 1)
        .map(|(t, _)| t.duration_since(load_start));
    let statuses: std::collections::BTreeMap<&str, usize> =
        stamped_reports
            .iter()
            .fold(Default::default(), |mut m, (_, r)| {
                *m.entry(r.status.as_str()).or_default() += 1;
                m
            });
    // 2c: the flag keeps coming while the array is taken in.
    let (gap, count) = largest_gap(&stamped_flags);
    note(&format!(
        "1a/2c heavy array ({HEAVY_COUNT} x {HEAVY_VERTICES} vertices at 10 Hz): first true flag \
         {first_true:?} after the colliding footprint; array first in a report {taken_in:?} after \
         it was sent; largest gap between collision messages {gap:?} ({count} in 8.3 s); \
         report statuses {statuses:?}"
    ));
    assert!(
        first_true.is_some_and(|d| d <= MAX_FLAG_GAP),
        "no true flag within 1 s of the colliding footprint: {first_true:?}; {}",
        h.context_text()
    );
    assert!(
        late_false.is_empty(),
        "clear flags after 1 s: {late_false:?}"
    );
    assert!(
        late_clear.is_empty(),
        "valid and clear reports after 1 s (age, status, results): {late_clear:?}"
    );
    assert!(
        taken_in.is_some(),
        "the heavy array never showed in a report (statuses {statuses:?}); {}",
        h.context_text()
    );
    assert_flag_gaps(&stamped_flags, "heavy obstacle array");
    assert!(h.node.is_running());
}

/// The footprint of item 1b: a 4,094-vertex comb (concave), its bottom-left
/// corner at (`x0`, 0); 4091/1024 m long.
fn comb_footprint(x0: f64) -> PolygonStamped {
    footprint("map", &comb(4_094, x0, 0.0, 1.0 / 1024.0))
}

const COMB_LENGTH: f64 = 4091.0 / 1024.0;
/// The obstacle ahead: its near side at x = 8.
const AHEAD_X: f64 = 8.0;
/// Footprint k is shifted by (k mod 256) / 256 m along x.
const SHIFT: f64 = 1.0 / 256.0;

/// Which footprint (mod 256) a report's `min_distance` is about.
fn footprint_index(min_distance: f64) -> Option<usize> {
    let k = (AHEAD_X - COMB_LENGTH - min_distance) / SHIFT;
    let rounded = k.round();
    ((k - rounded).abs() < 1e-3 && (0.0..256.0).contains(&rounded)).then_some(rounded as usize)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn valid_reports_are_about_footprints_younger_than_the_timeout() {
    let mut h = Harness::start("fs_fresh", &[]).await;
    let mut reports = h.subscribe_stamped_reports();
    h.set_obstacles(Some(obstacles(
        "map",
        vec![obstacle("ahead", &rect(AHEAD_X, -1.0, AHEAD_X + 1.0, 3.0))],
    )));
    h.set_footprint(Some(comb_footprint(0.0)));
    h.report_where("valid", SETTLE, |r| r.valid).await;
    let footprints = h.matched_publisher::<PolygonStamped>("footprint").await;
    h.set_footprint(None);
    tokio::time::sleep(Duration::from_millis(300)).await;
    while reports.try_recv().is_ok() {}

    // 160 footprints at 20 Hz, each remembered with its send time.
    const COUNT: usize = 160;
    let messages: Vec<PolygonStamped> = (0..COUNT)
        .map(|k| comb_footprint(k as f64 * SHIFT))
        .collect();
    let mut sent: Vec<Instant> = Vec::with_capacity(COUNT);
    let mut received = Vec::new();
    let start = tokio::time::Instant::now();
    for (k, msg) in messages.iter().enumerate() {
        tokio::time::sleep_until(start + Duration::from_millis(50) * k as u32).await;
        sent.push(Instant::now());
        footprints.publish(msg).expect("publish footprint");
        while let Ok(r) = reports.try_recv() {
            received.push(r);
        }
    }
    // Reports after the last footprint: until it is stale for sure.
    received.extend(drain_until(&mut reports, Instant::now() + Duration::from_secs(2)).await);

    let margin = Duration::from_millis(500);
    let mut valid = 0;
    let mut oldest = Duration::ZERO;
    let mut oldest_streaming = Duration::ZERO;
    let last_sent = *sent.last().expect("footprints sent");
    let mut problems = Vec::new();
    for (at, r) in &received {
        if !r.valid {
            continue;
        }
        valid += 1;
        let Some(k) = footprint_index(r.min_distance).filter(|k| *k < sent.len()) else {
            problems.push(format!("valid report about no footprint sent: {r:?}"));
            continue;
        };
        let age = at.saturating_duration_since(sent[k]);
        oldest = oldest.max(age);
        if *at < last_sent {
            oldest_streaming = oldest_streaming.max(age);
        }
        if age > Duration::from_secs(1) + margin {
            problems.push(format!(
                "valid report received {age:?} after footprint {k} was sent (min_distance {})",
                r.min_distance
            ));
        }
    }
    let statuses: std::collections::BTreeMap<&str, usize> =
        received.iter().fold(Default::default(), |mut m, (_, r)| {
            *m.entry(r.status.as_str()).or_default() += 1;
            m
        });
    note(&format!(
        "1b 4,094-vertex footprints at 20 Hz: {} reports ({statuses:?}), {valid} valid; \
         oldest footprint behind a valid report: {oldest:?} ({oldest_streaming:?} while \
         footprints were coming)",
        received.len()
    ));
    assert!(problems.is_empty(), "{problems:#?}\n{}", h.context_text());
    assert!(
        valid >= 20,
        "only {valid} valid reports for {COUNT} footprints ({statuses:?})"
    );
    // The last footprint is stale 1 s after it arrived: the last report says so.
    let last = &received.last().expect("reports").1;
    assert_eq!(last.status, "stale_footprint", "{last:#?}");
}

/// 10,000 small squares along +x, farthest first: every pose of a
/// trajectory near the origin is checked exactly against each (each is
/// nearer than the ones before, so no box test skips it).
fn far_to_near_obstacles() -> ObstacleArray {
    obstacles(
        "map",
        (0..10_000)
            .map(|i| {
                obstacle(
                    &format!("o{i}"),
                    &square(20.0 + f64::from(10_000 - i), 0.0, 0.25),
                )
            })
            .collect(),
    )
}

fn robot_request(poses: usize) -> CheckFootprint::Request {
    CheckFootprint::Request {
        footprint: polygon(&rect(-0.5, -0.25, 0.5, 0.25)),
        poses: (0..poses)
            .map(|k| {
                pose(
                    (k % 100) as f64 * 0.01,
                    (k / 100 % 100) as f64 * 0.01,
                    k as f64 * 0.001,
                )
            })
            .collect(),
        padding: 0.0,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn check_footprint_neither_starves_the_flag_nor_computes_a_request_too_large() {
    let mut h = Harness::start("fs_service", &[]).await;
    let mut flags = h.subscribe_stamped_flags();
    h.set_obstacles(Some(far_to_near_obstacles()));
    h.set_footprint(Some(footprint("map", &square(0.0, 0.0, 0.5))));
    h.report_where("valid, 10,000 obstacles", SETTLE, |r| {
        r.valid && r.results.len() == 10_000
    })
    .await;

    // 2b: 100,000 poses x 10,000 obstacles = 1e9 pairs > 1e7 (default).
    let (r, took) = h
        .check_footprint_once(robot_request(100_000), Duration::from_secs(60))
        .await;
    note(&format!(
        "2b 100,000 poses x 10,000 obstacles: answered in {took:?} ({})",
        r.status
    ));
    assert!(!r.valid, "{:?}", (&r.status, r.colliding.len()));
    assert_eq!(r.status, "request_too_large");
    assert_eq!(r.colliding.len(), 100_000);
    assert!(
        r.colliding.iter().all(|&c| c),
        "fail_safe: every pose colliding"
    );
    assert_eq!(r.first_collision, 0);
    assert!(
        took < Duration::from_secs(10),
        "not answered promptly: {took:?}"
    );

    // 2a: a request that is computed, and takes a while.
    let set = h
        .set_parameter("max_service_checks", double_value(1e12))
        .await;
    assert!(set.successful, "{set:?}");
    let poses = 1_500;
    tokio::time::sleep(Duration::from_millis(500)).await;
    while flags.try_recv().is_ok() {}
    let call_start = Instant::now();
    let (r, took) = h
        .check_footprint_once(robot_request(poses), Duration::from_secs(120))
        .await;
    let stamped = drain_until(&mut flags, Instant::now()).await;
    let during: Vec<(Instant, Bool)> = stamped
        .into_iter()
        .filter(|(t, _)| *t >= call_start)
        .collect();
    let (gap, count) = largest_gap(&during);
    note(&format!(
        "2a {poses} poses x 10,000 obstacles (max_service_checks 1e12): answered in {took:?}; \
         largest gap between collision messages {gap:?} ({count} received meanwhile)"
    ));
    assert!(r.valid, "{:?}", r.status);
    assert_eq!(r.colliding.len(), poses);
    assert!(r.colliding.iter().all(|&c| !c), "all clear");
    assert_eq!(r.first_collision, -1);
    // The nearest square (i = 9,999) has its near side at x = 20.75.
    assert!(
        r.distance.iter().all(|d| *d > 19.0 && *d < 21.0),
        "{:?}",
        &r.distance[..5]
    );
    assert_flag_gaps(&during, "check_footprint computing");
    assert!(h.node.is_running());
}

// ---------------------------------------------------------------------------
// 8. Floods: obstacle instances (memory) and set_parameters (the log)

/// `n` points on a circle of radius 1 around (x, y).
fn ring(n: usize, x: f64, y: f64) -> Vec<(f64, f64)> {
    (0..n)
        .map(|k| {
            let a = std::f64::consts::TAU * k as f64 / n as f64;
            (x + a.cos(), y + a.sin())
        })
        .collect()
}

/// How long the instance flood lasts at most.
const INSTANCE_FLOOD: Duration = Duration::from_secs(6);
/// The flood stops once the node passes this VmRSS (a build without the
/// bound would go on to GBs and take the machine with it).
const INSTANCE_FLOOD_CAP_KB: u64 = 1_536 * 1024;
/// What the flood may add to the node's peak RSS. The live instances hold
/// at most 262,144 vertices (8 MB as validated polygons, 32 B a vertex;
/// the decision, the report and the worker may each hold a copy of the
/// set while a new one is built), the worker's queue at most 262,144
/// points (4 MB), and the middleware buffers a few 786 kB messages: tens
/// of MB, bounded; 200 MB leaves room for the allocator's arenas on a
/// busy machine.
const INSTANCE_FLOOD_PEAK_KB: u64 = 200 * 1024;
/// What may stay once the instances have expired and memory was given
/// back.
const INSTANCE_FLOOD_AFTER_KB: u64 = 100 * 1024;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_instance_flood_is_bounded_in_memory_refused_and_given_back() {
    use sat_collision_testkit::process::proc_status_kb;
    let mut h = Harness::start("fs_instflood", &[("obstacles_timeout", "2.0")]).await;
    let scene = obstacles("map", vec![obstacle("far", &rect(5.0, -1.0, 6.0, 1.0))]);
    h.set_obstacles(Some(scene));
    h.set_footprint(Some(footprint("map", &square(0.0, 0.0, 0.5))));
    h.report_where("valid", SETTLE, |r| r.valid && !r.colliding)
        .await;
    let publisher = h
        .matched_publisher::<PolygonInstanceStamped>("obstacle_instances")
        .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let before = h.node.rss_kb().expect("VmRSS");
    let mut flags = h.subscribe_stamped_flags();

    // One sender: 1,000 ids of 65,536 vertices each, as fast as it can.
    let mut msg = instance("map", 0, &ring(65_536, 20.0, 0.0));
    let start = Instant::now();
    let mut sent = 0u64;
    let mut rss = before;
    let mut statuses = std::collections::BTreeSet::new();
    let mut refused = None;
    while start.elapsed() < INSTANCE_FLOOD && rss < INSTANCE_FLOOD_CAP_KB {
        msg.polygon.id = (sent % 1000) as i64;
        publisher.publish(&msg).expect("publish instance");
        sent += 1;
        if sent % 4 == 0 {
            rss = h.node.rss_kb().unwrap_or(0);
            while let Ok(r) = h.reports.try_recv() {
                statuses.insert(r.status.clone());
                if r.status == "too_many_vertices" && refused.is_none() {
                    refused = Some(r);
                }
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }
    let flood = start.elapsed();
    let flood_end = Instant::now();
    let peak = proc_status_kb(h.node.pid(), "VmHWM:").unwrap_or(rss);
    // The refusal lives `obstacles_timeout` from the last refused instance.
    if refused.is_none() {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(3);
        while let Ok(Some(r)) = tokio::time::timeout_at(deadline, h.reports.recv()).await {
            statuses.insert(r.status.clone());
            if r.status == "too_many_vertices" {
                refused = Some(r);
                break;
            }
        }
    }
    let during = drain_until(&mut flags, flood_end).await;
    let (gap, count) = largest_gap(&during);
    note(&format!(
        "8a instance flood: {sent} instances of 65,536 vertices in {:.1} s; VmRSS before \
         {before} kB, peak (VmHWM) {peak} kB (+{} kB); statuses {statuses:?}; {count} flags \
         during the flood, largest gap {gap:?}",
        flood.as_secs_f64(),
        peak as i64 - before as i64,
    ));
    assert!(
        peak < before + INSTANCE_FLOOD_PEAK_KB,
        "peak RSS {peak} kB, before {before} kB"
    );
    assert!(h.node.is_running(), "node died: {}", h.node.log_text());

    // Once the flood stops, the instances expire and memory goes back.
    let r = h
        .report_where("valid again, the instances expired", SETTLE, |r| {
            r.valid && !r.colliding
        })
        .await;
    let mut after = h.node.rss_kb().expect("VmRSS");
    let deadline = Instant::now() + SETTLE;
    while after >= before + INSTANCE_FLOOD_AFTER_KB && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(200)).await;
        after = h.node.rss_kb().expect("VmRSS");
    }
    let log = h.node.log_text();
    note(&format!(
        "8a after the flood: VmRSS {after} kB once the instances expired (+{} kB)",
        after as i64 - before as i64,
    ));
    assert!(
        after < before + INSTANCE_FLOOD_AFTER_KB,
        "RSS {after} kB after the instances expired, before {before} kB"
    );
    let refused = refused.unwrap_or_else(|| {
        panic!(
            "no too_many_vertices report (statuses {statuses:?}); {}",
            h.context_text()
        )
    });
    assert!(
        !refused.valid && refused.colliding,
        "fail_safe: {refused:#?}"
    );
    assert!(count > 0, "no collision flag during the flood");
    assert!(gap <= 3 * MAX_FLAG_GAP, "the flag stopped for {gap:?}");
    assert_eq!(result_ids(&r), ["far"], "the instances expired");
    assert!(
        log.contains("refused: too_many_vertices"),
        "no refusal logged:\n{log}"
    );
}

/// How many `set_parameters` calls the flood makes.
const PARAMETER_FLOOD: usize = 2_000;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_set_parameters_flood_applies_every_change_and_logs_a_few_lines() {
    use r2r::rcl_interfaces::msg::Parameter;
    use r2r::rcl_interfaces::srv::{GetParameters, SetParameters};
    let mut h = Harness::start("fs_paramflood", &[]).await;
    h.set_obstacles(Some(obstacles(
        "map",
        vec![obstacle("near", &rect(0.8, -1.0, 1.0, 1.0))],
    )));
    h.set_footprint(Some(footprint("map", &square(0.0, 0.0, 0.5))));
    h.report_where("valid and clear", SETTLE, |r| r.valid && !r.colliding)
        .await;
    // Discovery and the first call, with the harness's retries.
    assert!(
        h.set_parameter("padding", double_value(0.0))
            .await
            .successful
    );

    let node = h.peer_node();
    let service = format!("{}/sat_collision_node/set_parameters", h.ns);
    let client = node
        .lock()
        .unwrap()
        .create_client::<SetParameters::Service>(&service, QosProfile::default())
        .expect("set_parameters client");
    let start = Instant::now();
    let mut answered = 0;
    for k in 1..=PARAMETER_FLOOD {
        // Alternating paddings; the last one (k = 2,000) is 0.35.
        let padding = if k % 2 == 0 { 0.35 } else { 0.1 };
        let request = SetParameters::Request {
            parameters: vec![Parameter {
                name: "padding".to_owned(),
                value: double_value(padding),
            }],
        };
        let answer = client.request(&request).expect("send request");
        if let Ok(Ok(response)) = tokio::time::timeout(Duration::from_secs(5), answer).await {
            assert!(response.results.iter().all(|r| r.successful), "{k}");
            answered += 1;
        }
    }
    let flood = start.elapsed();
    assert!(h.node.is_running(), "node died: {}", h.node.log_text());

    // Applied: 0.35 of padding reaches the obstacle 0.3 m away.
    let r = h
        .report_where("colliding with the last padding", SETTLE, |r| {
            r.valid && r.colliding
        })
        .await;
    assert_eq!(r.nearest_obstacle_id, "near");
    let get = node
        .lock()
        .unwrap()
        .create_client::<GetParameters::Service>(
            &format!("{}/sat_collision_node/get_parameters", h.ns),
            QosProfile::default(),
        )
        .expect("get_parameters client");
    let request = GetParameters::Request {
        names: vec!["padding".to_owned()],
    };
    let value = tokio::time::timeout(SETTLE, get.request(&request).expect("send request"))
        .await
        .expect("get_parameters answers")
        .expect("get_parameters response");
    assert_eq!(value.values.len(), 1);
    assert_eq!(value.values[0].double_value, 0.35);

    // A closing line counts what was not logged once the period is over.
    let deadline = Instant::now() + SETTLE;
    while !h.node.log_text().contains("not logged one by one") && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let log = h.node.log_text();
    let lines = log
        .lines()
        .filter(|l| l.contains("parameter padding changed"))
        .count();
    note(&format!(
        "8b set_parameters flood: {answered} of {} calls answered in {:.1} s; {lines} log \
         lines about padding",
        PARAMETER_FLOOD,
        flood.as_secs_f64()
    ));
    assert!(answered >= PARAMETER_FLOOD - 10, "{answered} answered");
    assert!(lines <= 10, "{lines} lines about padding:\n{log}");
    assert!(
        log.contains("not logged one by one"),
        "no closing line with the count:\n{log}"
    );
}
