//! The scene (obstacles at constant density) and the footprints sent to the
//! targets, each with the collision flag the node must answer; for `--tf`,
//! the same robot poses as `/tf` transforms `odom → base_link` under a
//! static `map → odom`.

use nalgebra::{Isometry2, Vector2};
use r2r::geometry_msgs::msg::{Polygon, Quaternion, Transform, TransformStamped, Vector3};
use r2r::sat_collision_msgs::msg::ObstacleArray;
use r2r::std_msgs::msg::Header;
use r2r::tf2_msgs::msg::TFMessage;
use sat_collision::config::NodeConfig;
use sat_collision::frames::{planar_transform, FrameTree};
use sat_collision::monitor::{Monitor, MonitorConfig};
use sat_collision::ros::convert;
use sat_collision_testkit::ros::msg::{self, circle, obstacle, point32};
use sat_collision_testkit::SplitMix64;
use std::f64::consts::TAU;

pub const FRAME: &str = "map";
/// Obstacles per square metre (as in `benches/scale.rs`).
const DENSITY: f64 = 0.25;

/// A header in [`FRAME`] whose stamp carries `stamp_nanosec` (the echo's
/// expected bit).
pub fn header(stamp_nanosec: u32) -> Header {
    let mut h = msg::header(FRAME);
    h.stamp.nanosec = stamp_nanosec;
    h
}

/// Obstacle centres and the scene message: `count` obstacles at constant
/// density around the origin.
pub fn scene(count: usize) -> (Vec<(f64, f64)>, ObstacleArray) {
    let mut rng = SplitMix64(0x5EED_0004 ^ count as u64);
    let half = 0.5 * (count as f64 / DENSITY).sqrt().max(3.0);
    let mut centres = Vec::with_capacity(count);
    let mut obstacles = Vec::with_capacity(count);
    for k in 0..count {
        let (cx, cy) = (rng.range(-half, half), rng.range(-half, half));
        centres.push((cx, cy));
        let id = format!("obstacle_{k}");
        obstacles.push(if rng.unit() < 0.25 {
            circle(&id, cx, cy, rng.range(0.1, 0.4))
        } else {
            let n = 3 + (k % 6);
            let r = rng.range(0.15, 0.5);
            let rotation = rng.range(0.0, TAU);
            let points: Vec<(f64, f64)> = (0..n)
                .map(|j| {
                    let t = rotation + (j as f64 + rng.range(-0.3, 0.3)) * TAU / n as f64;
                    (cx + r * t.cos(), cy + r * t.sin())
                })
                .collect();
            obstacle(&id, &points)
        });
    }
    (centres, msg::obstacles(FRAME, obstacles))
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
pub struct Probe {
    pub polygon: Polygon,
    /// The robot's pose in [`FRAME`] (x, y, yaw) that `polygon` is placed
    /// at: what `--tf` sends.
    pub pose: (f64, f64, f64),
    pub colliding: bool,
}

/// A monitor like the node's (default parameters, inputs never stale) with
/// the obstacles of `scene`.
pub fn monitor(scene: &ObstacleArray) -> Monitor {
    let config = MonitorConfig {
        footprint_timeout: 0.0,
        obstacles_timeout: 0.0,
        ..NodeConfig::default().monitor
    };
    let mut monitor = Monitor::new(config);
    let obstacles = scene.obstacles.iter().map(convert::obstacle).collect();
    monitor.set_obstacles(FRAME, obstacles, 0.0);
    monitor
}

/// `2 × pairs` probes alternating colliding / clear, each checked with the
/// library on the float32 coordinates the node will see.
pub fn probes(centres: &[(f64, f64)], scene: &ObstacleArray, pairs: usize) -> Vec<Probe> {
    let mut monitor = monitor(scene);
    let mut check = |polygon: &Polygon| {
        monitor.set_footprint(FRAME, &convert::points(polygon), 0.0);
        let report = monitor.evaluate(0.0);
        assert!(report.valid, "scene not valid: {}", report.status);
        report
    };
    let mut rng = SplitMix64(0xF00D);
    let half = 0.5 * (centres.len() as f64 / DENSITY).sqrt().max(3.0) - 1.0;
    let mut out = Vec::with_capacity(2 * pairs);
    while out.len() < 2 * pairs {
        // Colliding: centred on an obstacle (every obstacle contains its centre).
        let (cx, cy) = centres[(rng.unit() * centres.len() as f64) as usize % centres.len()];
        let pose = (cx, cy, rng.range(0.0, TAU));
        let polygon = placed(pose.0, pose.1, pose.2);
        assert!(
            check(&polygon).colliding,
            "a footprint on an obstacle must collide"
        );
        out.push(Probe {
            polygon,
            pose,
            colliding: true,
        });
        // Clear: anywhere at least 5 cm from every obstacle.
        loop {
            let pose = (
                rng.range(-half, half),
                rng.range(-half, half),
                rng.range(0.0, TAU),
            );
            let polygon = placed(pose.0, pose.1, pose.2);
            let report = check(&polygon);
            if !report.colliding && report.min_distance > 0.05 {
                out.push(Probe {
                    polygon,
                    pose,
                    colliding: false,
                });
                break;
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------
// `--tf`: the footprint from TF

/// The odometry frame: static in [`FRAME`].
pub const ODOM: &str = "odom";
/// The robot frame (`base_frame`).
pub const BASE: &str = "base_link";
/// `odom` in `map` (x, y, yaw): static, not the identity.
const MAP_ODOM: (f64, f64, f64) = (2.5, -1.5, 0.4);

fn isometry((x, y, yaw): (f64, f64, f64)) -> Isometry2<f64> {
    Isometry2::new(Vector2::new(x, y), yaw)
}

/// The node's parameters for `--tf`: `base_frame`, `global_frame` and the
/// robot's footprint ([`FOOTPRINT`]), as a YAML string.
pub fn tf_node_params() -> Vec<String> {
    let points: Vec<String> = FOOTPRINT
        .iter()
        .map(|(x, y)| format!("[{x},{y}]"))
        .collect();
    vec![
        format!("base_frame:={BASE}"),
        format!("global_frame:={FRAME}"),
        format!("robot_footprint:=\"[{}]\"", points.join(",")),
    ]
}

/// `child` in `parent` at `pose` (planar), stamped `stamp_ns` (ns).
fn transform(parent: &str, child: &str, pose: Isometry2<f64>, stamp_ns: u64) -> TransformStamped {
    let mut header = msg::header(parent);
    header.stamp.sec = (stamp_ns / 1_000_000_000) as i32;
    header.stamp.nanosec = (stamp_ns % 1_000_000_000) as u32;
    let yaw = pose.rotation.angle();
    TransformStamped {
        header,
        child_frame_id: child.to_owned(),
        transform: Transform {
            translation: Vector3 {
                x: pose.translation.x,
                y: pose.translation.y,
                z: 0.0,
            },
            rotation: Quaternion {
                x: 0.0,
                y: 0.0,
                z: (yaw / 2.0).sin(),
                w: (yaw / 2.0).cos(),
            },
        },
    }
}

/// The static transform `map → odom` (for `/tf_static`).
pub fn tf_static() -> TFMessage {
    TFMessage {
        transforms: vec![transform(FRAME, ODOM, isometry(MAP_ODOM), 0)],
    }
}

/// `odom → base_link` putting the robot at `pose` in `map`, stamped
/// `stamp_ns` (the echo's expected bit rides in the parity of its
/// nanoseconds).
pub fn tf_message(pose: (f64, f64, f64), stamp_ns: u64) -> TFMessage {
    let base_in_odom = isometry(MAP_ODOM).inverse() * isometry(pose);
    TFMessage {
        transforms: vec![transform(ODOM, BASE, base_in_odom, stamp_ns)],
    }
}

/// Checks every probe the way the node decides on a `/tf` message (the
/// message's transform read as the node reads it into a [`FrameTree`]
/// holding the static `map → odom`, the robot's shape set in `base_link`,
/// `place`, `flag`) and returns the time of that work per probe (µs),
/// `rounds` probes.
pub fn check_tf_probes(probes: &[Probe], scene: &ObstacleArray, rounds: usize) -> Vec<f64> {
    let mut node_config = NodeConfig {
        robot_footprint: format!(
            "[{}]",
            FOOTPRINT
                .iter()
                .map(|(x, y)| format!("[{x},{y}]"))
                .collect::<Vec<_>>()
                .join(",")
        ),
        ..NodeConfig::default()
    };
    node_config.monitor.base_frame = BASE.to_owned();
    let shape = node_config
        .footprint_from_tf()
        .expect("the footprint parameter is a valid shape");
    let mut monitor = monitor(scene);
    let mut config = monitor.config().clone();
    config.global_frame = FRAME.to_owned();
    monitor.set_config(config);
    let mut tree = FrameTree::new();
    let (x, y, yaw) = MAP_ODOM;
    let q = [0.0, 0.0, (yaw / 2.0).sin(), (yaw / 2.0).cos()];
    tree.insert(
        FRAME,
        ODOM,
        0.0,
        planar_transform([x, y, 0.0], q),
        true,
        0.0,
    )
    .expect("map -> odom");
    let mut report = monitor.evaluate(0.0);
    let mut times = Vec::with_capacity(rounds);
    for k in 0..rounds {
        let probe = &probes[k % probes.len()];
        let now = 1.0 + k as f64 * 1e-3;
        let msg = tf_message(probe.pose, 0);
        let t = &msg.transforms[0].transform;
        let (tr, q) = (&t.translation, &t.rotation);
        let t0 = std::time::Instant::now();
        let transform = planar_transform([tr.x, tr.y, tr.z], [q.x, q.y, q.z, q.w]);
        tree.insert(ODOM, BASE, now, transform, false, now)
            .expect("odom -> base_link");
        monitor.set_footprint_shape(BASE, shape.clone(), now);
        monitor.place(&tree, now);
        let flag = monitor.flag(now);
        times.push(t0.elapsed().as_secs_f64() * 1e6);
        assert!(flag.valid, "TF scene not valid: {}", flag.status);
        assert_eq!(flag.colliding, probe.colliding, "probe {k}");
        if k < probes.len() {
            monitor.evaluate_into(now, &mut report);
            assert_eq!(report.colliding, probe.colliding, "probe {k}");
            assert!(report.valid && report.frame_id == FRAME);
        }
    }
    times
}
