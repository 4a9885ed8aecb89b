//! The scene (obstacles at constant density) and the footprints sent to the
//! targets, each with the collision flag the node must answer.

use r2r::geometry_msgs::msg::Polygon;
use r2r::sat_collision_msgs::msg::ObstacleArray;
use r2r::std_msgs::msg::Header;
use sat_collision::config::NodeConfig;
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
