//! Scale: one footprint against 10 … 10,000 obstacles, full report (issue
//! item 3), with and without the broad phase.
//!
//! ```bash
//! cargo bench --no-default-features --bench scale
//! ```
//!
//! Scene: obstacles scattered at a constant density of one per 4 m² around
//! the footprint (so the square grows with N, as a costmap's view does):
//! 70 % convex polygons (3–8 vertices, 0.1–0.5 m), 20 % circles, 10 %
//! concave L shapes (two convex pieces each). The footprint is a chamfered
//! 1.0 × 0.6 m rectangle (an octagon) with 5 cm padding; one obstacle
//! overlaps it and a few are within a metre, so every report has a
//! collision, a nearest obstacle and exact near results to compute.
//!
//! Functions per N:
//! * `exact_no_broadphase`: [`check_obstacles`] + [`summarize`], every
//!   outcome exact (the narrow phase on every obstacle);
//! * `broadphase_range_0`, `broadphase_range_1m`: [`ObstacleIndex::check`]
//!   with an exact range of 0 and 1 m: the flag, `min_distance` and the
//!   nearest obstacle exact, far obstacles a flagged lower bound;
//! * `broadphase_all_exact`: the same with an infinite range (nothing can be
//!   skipped: the broad phase's overhead);
//! * `index_rebuild`: re-indexing after an obstacle message;
//! * `monitor_evaluate_into_1m`: [`Monitor::evaluate_into`] with an exact
//!   range of 1 m: the whole report the node builds when somebody wants
//!   one, into a reused report;
//! * `monitor_flag_clear`: [`Monitor::flag`], the decision alone that the
//!   node publishes before any report, for a clear footprint (every box is
//!   looked at).
//!
//! The setup asserts that every broad-phase report decides exactly as the
//! exact one (same summary) before anything is timed.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode};
use sat_collision::broadphase::ObstacleIndex;
use sat_collision::geometry::{Point, Shape, Vector};
use sat_collision::model::{check_obstacles, summarize, Obstacle, ObstacleGeometry};
use sat_collision::monitor::{Monitor, MonitorConfig};
use sat_collision_testkit::SplitMix64 as Rng;
use std::f64::consts::TAU;
use std::hint::black_box;
use std::time::{Duration, Instant};

const COUNTS: [usize; 4] = [10, 100, 1_000, 10_000];
/// Obstacles per square metre.
const DENSITY: f64 = 0.25;
const PADDING: f64 = 0.05;

fn footprint() -> Vec<Point> {
    let (w, h, c) = (0.5, 0.3, 0.08);
    vec![
        Point::new(w, -h + c),
        Point::new(w, h - c),
        Point::new(w - c, h),
        Point::new(-w + c, h),
        Point::new(-w, h - c),
        Point::new(-w, -h + c),
        Point::new(-w + c, -h),
        Point::new(w - c, -h),
    ]
}

fn obstacle(rng: &mut Rng, k: usize, centre: Point) -> Obstacle {
    let kind = rng.unit();
    let geometry = if kind < 0.2 {
        ObstacleGeometry::Circle {
            center: centre,
            radius: rng.range(0.1, 0.4),
        }
    } else if kind < 0.3 {
        let s = rng.range(0.3, 0.8);
        let t = 0.3 * s;
        ObstacleGeometry::Polygon(
            [(0.0, 0.0), (s, 0.0), (s, t), (t, t), (t, s), (0.0, s)]
                .iter()
                .map(|&(x, y)| centre + Vector::new(x, y))
                .collect(),
        )
    } else {
        let n = 3 + (k % 6);
        let r = rng.range(0.1, 0.5);
        let rotation = rng.range(0.0, TAU);
        ObstacleGeometry::Polygon(
            (0..n)
                .map(|j| {
                    let t = rotation + (j as f64 + rng.range(-0.3, 0.3)) * TAU / n as f64;
                    centre + Vector::new(t.cos(), t.sin()) * r
                })
                .collect(),
        )
    };
    Obstacle::new(format!("obstacle_{k}"), &geometry)
}

/// `count` obstacles at constant density around the origin: the first one
/// overlaps the footprint, the next three are within a metre, the rest
/// farther than 2 m from its centre.
fn scene(count: usize) -> Vec<Obstacle> {
    let mut rng = Rng(0xC0FFEE ^ count as u64);
    let half = 0.5 * (count as f64 / DENSITY).sqrt().max(3.0);
    (0..count)
        .map(|k| {
            let centre = match k {
                0 => Point::new(0.55, 0.1),
                1..=3 => {
                    let a = k as f64 * 2.1;
                    Point::new(1.2 * a.cos(), 1.0 * a.sin())
                }
                // The rest keep 2 m away from the footprint.
                _ => loop {
                    let p = Point::new(rng.range(-half, half), rng.range(-half, half));
                    if p.coords.norm() > 2.0 {
                        break p;
                    }
                },
            };
            obstacle(&mut rng, k, centre)
        })
        .collect()
}

fn scale(c: &mut Criterion) {
    let robot = Shape::polygon(&footprint()).expect("valid footprint");
    let mut group = c.benchmark_group("scale");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_millis(800))
        .sampling_mode(SamplingMode::Flat);
    for count in COUNTS {
        let obstacles = scene(count);
        let index = ObstacleIndex::new(&obstacles);
        let mut out = Vec::with_capacity(count);
        let mut exact = Vec::with_capacity(count);
        check_obstacles(&robot, PADDING, &obstacles, &mut exact);
        let want = summarize(&exact);
        assert!(want.any_colliding && want.nearest == Some(0), "{want:?}");
        for range in [0.0, 1.0, f64::INFINITY] {
            let got = index.check(&robot, PADDING, &obstacles, range, &mut out);
            assert_eq!(got, want, "N = {count}, range {range}");
            let exact_count = out.iter().filter(|o| o.exact).count();
            eprintln!("scale/{count}: exact range {range} m: {exact_count} exact outcomes");
        }
        // The fastest of many single reports: what one quiet core can do
        // (criterion's mean also carries whatever else the machine runs).
        let best = (0..300)
            .map(|_| {
                let start = Instant::now();
                black_box(index.check(&robot, PADDING, &obstacles, 1.0, &mut out));
                start.elapsed()
            })
            .min()
            .unwrap();
        eprintln!("scale/{count}: exact range 1 m: fastest of 300 reports {best:?}");

        group.bench_function(BenchmarkId::new("exact_no_broadphase", count), |b| {
            b.iter(|| {
                check_obstacles(black_box(&robot), PADDING, &obstacles, &mut out);
                black_box(summarize(&out))
            })
        });
        for (name, range) in [
            ("broadphase_range_0", 0.0),
            ("broadphase_range_1m", 1.0),
            ("broadphase_all_exact", f64::INFINITY),
        ] {
            group.bench_function(BenchmarkId::new(name, count), |b| {
                b.iter(|| index.check(black_box(&robot), PADDING, &obstacles, range, &mut out))
            });
        }
        let mut rebuilt = ObstacleIndex::new(&obstacles);
        group.bench_function(BenchmarkId::new("index_rebuild", count), |b| {
            b.iter(|| rebuilt.rebuild(black_box(&obstacles)))
        });
        let mut monitor = Monitor::new(MonitorConfig {
            padding: PADDING,
            footprint_timeout: 0.0,
            obstacles_timeout: 0.0,
            exact_range: 1.0,
            ..Default::default()
        });
        monitor.set_footprint("map", &footprint(), 0.0);
        monitor.set_obstacles("map", obstacles.clone(), 0.0);
        let mut report = monitor.evaluate(0.0);
        assert!(report.valid && report.colliding && report.nearest_obstacle_id == "obstacle_0");
        group.bench_function(BenchmarkId::new("monitor_evaluate_into_1m", count), |b| {
            b.iter(|| monitor.evaluate_into(black_box(0.0), &mut report))
        });
        // The flag alone, as the node publishes it before any report. Clear
        // (the overlapping obstacle left out) is its worst case: every box
        // is looked at, where a collision may stop at the first.
        monitor.set_obstacles("map", obstacles[1..].to_vec(), 0.0);
        let flag = monitor.flag(0.0);
        assert!(flag.valid && !flag.colliding, "{flag:?}");
        assert_eq!(monitor.evaluate(0.0).colliding, flag.colliding);
        group.bench_function(BenchmarkId::new("monitor_flag_clear", count), |b| {
            b.iter(|| monitor.flag(black_box(0.0)))
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().nresamples(2_000).without_plots();
    targets = scale
}
criterion_main!(benches);
