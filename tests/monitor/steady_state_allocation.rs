//! The per-message work of the monitor allocates nothing once its buffers
//! have grown: a new footprint polygon, the flag, the full report into a
//! reused one. Counted with a global allocator that counts the calls made
//! by the current thread (the test harness's other threads don't count).

use sat_collision::geometry::{Point, Vector};
use sat_collision::model::{Obstacle, ObstacleGeometry};
use sat_collision::monitor::{Monitor, MonitorConfig};
use sat_collision_testkit::alloc::allocations_in;
use std::f64::consts::TAU;

/// A chamfered 1.0 × 0.6 m rectangle (an octagon) at `(x, y, yaw)`, with
/// a repeated point and a collinear one that validation must remove.
fn footprint(x: f64, y: f64, yaw: f64) -> Vec<Point> {
    let (w, h, c) = (0.5, 0.3, 0.08);
    let (s, co) = yaw.sin_cos();
    [
        (w, -h + c),
        (w, 0.0),
        (w, h - c),
        (w, h - c),
        (w - c, h),
        (-w + c, h),
        (-w, h - c),
        (-w, -h + c),
        (-w + c, -h),
        (w - c, -h),
    ]
    .iter()
    .map(|&(px, py)| Point::new(x + co * px - s * py, y + s * px + co * py))
    .collect()
}

/// A ring of obstacles around the origin: polygons, circles, one concave.
fn obstacles() -> Vec<Obstacle> {
    (0..400)
        .map(|k| {
            let t = k as f64 * TAU / 400.0;
            let c = Point::new(6.0 * t.cos(), 6.0 * t.sin()) + Vector::new(0.0, 0.01 * k as f64);
            let geometry = match k % 3 {
                0 => ObstacleGeometry::Circle {
                    center: c,
                    radius: 0.2,
                },
                1 => ObstacleGeometry::Polygon(
                    [
                        (0.0, 0.0),
                        (0.4, 0.0),
                        (0.4, 0.1),
                        (0.1, 0.1),
                        (0.1, 0.4),
                        (0.0, 0.4),
                    ]
                    .iter()
                    .map(|&(x, y)| c + Vector::new(x, y))
                    .collect(),
                ),
                _ => ObstacleGeometry::Polygon(
                    (0..6)
                        .map(|j| {
                            let a = j as f64 * TAU / 6.0;
                            c + Vector::new(a.cos(), a.sin()) * 0.25
                        })
                        .collect(),
                ),
            };
            Obstacle::new(format!("o{k}"), &geometry)
        })
        .collect()
}

#[test]
fn footprint_flag_and_report_allocate_nothing_in_the_steady_state() {
    for exact_range in [1.0, f64::INFINITY] {
        let mut monitor = Monitor::new(MonitorConfig {
            padding: 0.05,
            exact_range,
            ..Default::default()
        });
        monitor.set_obstacles("map", obstacles(), 0.0);
        // Poses from the centre out to the ring: clear, near, colliding.
        let poses: Vec<Vec<Point>> = (0..60)
            .map(|k| {
                let r = 5.0 + 0.02 * k as f64;
                let t = 0.3 * k as f64;
                footprint(r * t.cos(), r * t.sin(), t)
            })
            .collect();
        let mut report = monitor.evaluate(0.0);
        let mut step = |points: &[Point]| {
            monitor.set_footprint("map", points, 0.0);
            let flag = monitor.flag(0.0);
            monitor.evaluate_into(0.0, &mut report);
            (flag, report.colliding)
        };
        // Warm-up: the buffers grow to their steady size.
        let mut outcomes = Vec::new();
        for points in &poses {
            outcomes.push(step(points));
        }
        let calls = allocations_in(|| {
            for (points, first) in poses.iter().zip(&outcomes) {
                assert_eq!(step(points), *first);
            }
        });
        assert_eq!(calls, 0, "exact range {exact_range}");
        // The poses did reach both answers.
        assert!(outcomes.iter().any(|(flag, _)| flag.colliding));
        assert!(outcomes.iter().any(|(flag, _)| !flag.colliding));
        assert!(outcomes.iter().all(|(flag, c)| flag.colliding == *c));
    }
}

#[test]
fn the_counter_sees_allocations() {
    let calls = allocations_in(|| {
        std::hint::black_box(vec![1u8; 16]);
    });
    assert_eq!(calls, 1);
}
