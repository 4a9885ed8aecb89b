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

mod node_common;

use node_common::*;
use r2r::geometry_msgs::msg::{Polygon, PolygonStamped, Pose, Quaternion};
use r2r::sat_collision_msgs::msg::{CollisionReport, Obstacle, ObstacleArray};
use r2r::sat_collision_msgs::srv::CheckFootprint;
use r2r::std_msgs::msg::Bool;
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
    let dir = std::env::temp_dir().join(format!(
        "sat_failsafe_{}_{name}",
        std::process::id()
    ));
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
async fn drain_until<T>(rx: &mut UnboundedReceiver<(Instant, T)>, until: Instant) -> Vec<(Instant, T)> {
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
        poses: vec![quat_pose(0.0, 0.0, (0.0, 0.0, 0.0, 1.0)), quat_pose(0.0, 0.0, q)],
        padding: 0.0,
    };
    let unit = h.check_footprint(request((0.0, 0.0, half, half))).await;
    assert!(unit.valid, "{unit:?}");
    assert_eq!(unit.status, "ok");
    assert_eq!(unit.colliding, [false, true], "yaw 0 clear, yaw 90 colliding: {unit:?}");
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
    assert_eq!(status.code(), Some(1), "exit status {status:?}; output:\n{out}");
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
        assert!(log.contains("padding 0.25 m"), "{key}: file not applied:\n{log}");
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
    assert_eq!(status.code(), Some(1), "exit status {status:?}; output:\n{out}");
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
