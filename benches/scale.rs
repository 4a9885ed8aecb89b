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
//! * `exact_no_broadphase`: [`query`] on every obstacle in a plain loop +
//!   [`summarize`], every outcome exact (the narrow phase on every
//!   obstacle, no index: the reference the engine is measured against);
//! * `broadphase_range_0`, `broadphase_range_1m`: the engine's report
//!   ([`Span::report`](sat_collision::broadphase::Span::report) over the
//!   whole [`ObstacleIndex`]) with an exact range of 0 and 1 m: the flag,
//!   `min_distance` and the nearest obstacle exact, far obstacles a flagged
//!   lower bound;
//! * `broadphase_all_exact`: the same with an infinite range (every outcome
//!   exact: the engine's one pass without the boxes, against
//!   `exact_no_broadphase`);
//! * `index_rebuild`: re-indexing the boxes after an obstacle message
//!   ([`ObstacleIndex::update`]);
//! * `monitor_evaluate_into_1m`: [`Monitor::evaluate_into`] with an exact
//!   range of 1 m: the whole report the node builds when somebody wants
//!   one, into a reused report;
//! * `monitor_flag_clear`: [`Monitor::flag`], the decision alone that the
//!   node publishes before any report, for a clear footprint (every box is
//!   looked at).
//!
//! The setup asserts that every broad-phase report decides exactly as the
//! plain loop (same summary) before anything is timed.
//!
//! Group `frames` (TF issue): 10,000 obstacles of the same scene, the
//! footprint in `map`, `global_frame` `map`, exact range 1 m, each
//! iteration [`Monitor::place`] (with a [`FrameTree`]) and then the answer,
//! as the node does per cycle:
//! * `single_frame_*`: every obstacle in `map` (one array);
//! * `two_frames_*`: the same obstacles moved into other frames, the first
//!   5,000 as zones in `odom`, the other 5,000 as the array in `sensor`,
//!   with static, non-identity `map → odom` and `odom → sensor`
//!   transforms: the footprint is placed in each frame and every result is
//!   turned back into `map`;
//! * `*_place_evaluate_into_1m`: the full report (footprint colliding);
//!   `*_place_flag_clear`: the flag, clear footprint (obstacle 0 left out).
//!
//! The setup asserts once that both setups give the same reports (decision,
//! nearest, `min_distance`, per obstacle the collision, and distance, depth
//! and axis in `map` wherever both are exact, within 1e-9; once with every
//! outcome exact).
//! `SCALE_FRAMES_RUNS=N` runs `place_and_evaluate` (report) and
//! `place_and_flag` (flag, clear) N times each outside criterion, on the
//! single-frame setup or, with `SCALE_FRAMES_SETUP=two`, the two-frame one
//! (instruction counts per call; the setup does not call them):
//!
//! ```bash
//! for setup in single two; do
//!   SCALE_FRAMES_RUNS=200 SCALE_FRAMES_SETUP=$setup valgrind --tool=callgrind \
//!     --callgrind-out-file=cg.$setup target/release/deps/scale-<hash>
//!   callgrind_annotate --inclusive=yes cg.$setup | grep -E 'scale::place_and_'
//! done
//! ```

use criterion::{criterion_group, BenchmarkId, Criterion, SamplingMode};
use nalgebra::Isometry2;
use sat_collision::broadphase::ObstacleIndex;
use sat_collision::frames::FrameTree;
use sat_collision::geometry::{query, Point, Shape, Vector};
use sat_collision::model::{
    summarize, Obstacle, ObstacleGeometry, ObstacleOutcome, Report, Status,
};
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

fn geometry(rng: &mut Rng, k: usize, centre: Point) -> ObstacleGeometry {
    let kind = rng.unit();
    if kind < 0.2 {
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
        let vertices = (0..n).map(|j| {
            let t = rotation + (j as f64 + rng.range(-0.3, 0.3)) * TAU / n as f64;
            (t, r)
        });
        ObstacleGeometry::Polygon(sat_collision_testkit::shapes::polar_ring(centre, vertices))
    }
}

/// `count` obstacles at constant density around the origin: the first one
/// overlaps the footprint, the next three are within a metre, the rest
/// farther than 2 m from its centre.
fn scene(count: usize) -> Vec<Obstacle> {
    scene_geometry(count)
        .iter()
        .enumerate()
        .map(|(k, geometry)| Obstacle::new(format!("obstacle_{k}"), geometry))
        .collect()
}

/// The geometry of [`scene`]'s obstacles, in order.
fn scene_geometry(count: usize) -> Vec<ObstacleGeometry> {
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
            geometry(&mut rng, k, centre)
        })
        .collect()
}

/// Every obstacle's exact outcome, in a plain loop over [`query`] (no
/// index), into `out` (cleared first): the reference of
/// `exact_no_broadphase`.
fn exact_outcomes(
    footprint: &Shape,
    padding: f64,
    obstacles: &[Obstacle],
    out: &mut Vec<ObstacleOutcome>,
) {
    out.clear();
    out.extend(obstacles.iter().map(|obstacle| match &obstacle.shape {
        Ok(shape) => ObstacleOutcome {
            status: Status::Ok,
            contact: Some(query(footprint, shape, padding)),
            exact: true,
        },
        Err(e) => ObstacleOutcome {
            status: Status::from(e),
            contact: None,
            exact: true,
        },
    }));
}

/// The engine's report over every obstacle of `index`, into `out`
/// (cleared first).
fn engine_report(
    index: &ObstacleIndex,
    footprint: &Shape,
    range: f64,
    out: &mut Vec<ObstacleOutcome>,
) -> sat_collision::model::Summary {
    out.clear();
    index.all().report(footprint, PADDING, range, None, out)
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
        let index = ObstacleIndex::new(obstacles.clone());
        let mut out = Vec::with_capacity(count);
        let mut exact = Vec::with_capacity(count);
        exact_outcomes(&robot, PADDING, &obstacles, &mut exact);
        let want = summarize(&exact);
        assert!(want.any_colliding && want.nearest == Some(0), "{want:?}");
        for range in [0.0, 1.0, f64::INFINITY] {
            let got = engine_report(&index, &robot, range, &mut out);
            assert_eq!(got, want, "N = {count}, range {range}");
            let exact_count = out.iter().filter(|o| o.exact).count();
            eprintln!("scale/{count}: exact range {range} m: {exact_count} exact outcomes");
        }
        // The fastest of many single reports: what one quiet core can do
        // (criterion's mean also carries whatever else the machine runs).
        let best = (0..300)
            .map(|_| {
                let start = Instant::now();
                black_box(engine_report(&index, &robot, 1.0, &mut out));
                start.elapsed()
            })
            .min()
            .unwrap();
        eprintln!("scale/{count}: exact range 1 m: fastest of 300 reports {best:?}");

        group.bench_function(BenchmarkId::new("exact_no_broadphase", count), |b| {
            b.iter(|| {
                exact_outcomes(black_box(&robot), PADDING, &obstacles, &mut out);
                black_box(summarize(&out))
            })
        });
        for (name, range) in [
            ("broadphase_range_0", 0.0),
            ("broadphase_range_1m", 1.0),
            ("broadphase_all_exact", f64::INFINITY),
        ] {
            group.bench_function(BenchmarkId::new(name, count), |b| {
                b.iter(|| engine_report(&index, black_box(&robot), range, &mut out))
            });
        }
        let mut rebuilt = ObstacleIndex::new(obstacles.clone());
        group.bench_function(BenchmarkId::new("index_rebuild", count), |b| {
            b.iter(|| rebuilt.update(|held| black_box(held.len())))
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

/// Obstacles of the frames benchmarks.
const FRAMES_COUNT: usize = 10_000;
/// `odom` in `map` and `sensor` in `odom` (x, y, yaw): static, not the
/// identity.
const MAP_ODOM: (f64, f64, f64) = (3.7, -1.2, 0.6);
const ODOM_SENSOR: (f64, f64, f64) = (0.35, 0.1, -1.1);
/// Node time (s) of the frames benchmarks.
const NOW: f64 = 1.0;

fn pose((x, y, yaw): (f64, f64, f64)) -> Isometry2<f64> {
    Isometry2::new(Vector::new(x, y), yaw)
}

/// `geometry` moved by `pose` (points of its frame into another).
fn moved(geometry: &ObstacleGeometry, pose: &Isometry2<f64>) -> ObstacleGeometry {
    match geometry {
        ObstacleGeometry::Circle { center, radius } => ObstacleGeometry::Circle {
            center: pose * center,
            radius: *radius,
        },
        ObstacleGeometry::Polygon(points) => {
            ObstacleGeometry::Polygon(points.iter().map(|p| pose * p).collect())
        }
    }
}

/// A monitor with `global_frame` `map`, the footprint in `map`, exact
/// range 1 m, inputs never stale.
fn frames_monitor() -> Monitor {
    let mut monitor = Monitor::new(MonitorConfig {
        padding: PADDING,
        footprint_timeout: 0.0,
        obstacles_timeout: 0.0,
        exact_range: 1.0,
        global_frame: "map".into(),
        ..Default::default()
    });
    monitor.set_footprint("map", &footprint(), NOW);
    monitor
}

/// The scene's obstacles `range` (ids kept), all in `map`.
fn in_map(geometry: &[ObstacleGeometry], range: std::ops::Range<usize>) -> Vec<Obstacle> {
    range
        .map(|k| Obstacle::new(format!("obstacle_{k}"), &geometry[k]))
        .collect()
}

/// The same obstacles seen from `frame` (`frame_in_map`: its pose in `map`).
fn in_frame(
    geometry: &[ObstacleGeometry],
    range: std::ops::Range<usize>,
    frame_in_map: &Isometry2<f64>,
) -> Vec<Obstacle> {
    let from_map = frame_in_map.inverse();
    range
        .map(|k| Obstacle::new(format!("obstacle_{k}"), &moved(&geometry[k], &from_map)))
        .collect()
}

/// The single-frame setup: `obstacles` (scene indices) all in `map`, one
/// array.
fn single_frame(geometry: &[ObstacleGeometry], first: usize) -> Monitor {
    let mut monitor = frames_monitor();
    monitor.set_obstacles("map", in_map(geometry, first..geometry.len()), NOW);
    monitor
}

/// The two-frame setup: the same obstacles, the first half as zones in
/// `odom`, the second half as the array in `sensor`.
fn two_frames(geometry: &[ObstacleGeometry], first: usize) -> Monitor {
    let half = geometry.len() / 2;
    let odom = pose(MAP_ODOM);
    let sensor = odom * pose(ODOM_SENSOR);
    let mut monitor = frames_monitor();
    monitor.set_zones("odom", in_frame(geometry, first..half, &odom));
    monitor.set_obstacles(
        "sensor",
        in_frame(geometry, half..geometry.len(), &sensor),
        NOW,
    );
    monitor
}

/// The TF tree of the two-frame setup: static `map → odom → sensor`.
fn frame_tree() -> FrameTree {
    let mut tree = FrameTree::new();
    tree.insert("map", "odom", 0.0, Ok(pose(MAP_ODOM)), true, 0.0)
        .expect("map -> odom");
    tree.insert("odom", "sensor", 0.0, Ok(pose(ODOM_SENSOR)), true, 0.0)
        .expect("odom -> sensor");
    tree
}

/// The two reports agree: decision, nearest obstacle, `min_distance`, and
/// per obstacle the collision and, where both are exact, the distance and
/// the axis (in `map`). Far obstacles' lower bounds come from boxes in
/// each group's frame, so they may differ (both stay honest bounds).
fn assert_same_report(single: &Report, two: &Report) {
    assert!(
        single.valid && two.valid,
        "{} / {}",
        single.status,
        two.status
    );
    assert_eq!(single.colliding, two.colliding);
    assert_eq!(single.frame_id, "map");
    assert_eq!(two.frame_id, "map");
    assert_eq!(single.nearest_obstacle_id, two.nearest_obstacle_id);
    assert!((single.min_distance - two.min_distance).abs() <= 1e-9);
    assert_eq!(single.outcomes.len(), two.outcomes.len());
    let mut compared = 0;
    for (k, (a, b)) in single.outcomes.iter().zip(&two.outcomes).enumerate() {
        assert_eq!(a.colliding(), b.colliding(), "obstacle_{k}");
        if let (true, true, Some(ca), Some(cb)) = (a.exact, b.exact, a.contact, b.contact) {
            assert!(
                (ca.distance() - cb.distance()).abs() <= 1e-9,
                "obstacle_{k}"
            );
            assert!((ca.depth() - cb.depth()).abs() <= 1e-9, "obstacle_{k}");
            assert!((ca.axis() - cb.axis()).norm() <= 1e-9, "obstacle_{k}");
            compared += 1;
        }
    }
    eprintln!(
        "frames/{}: reports agree (colliding {}, nearest {}, min_distance {:.6} m; {compared} exact outcomes compared)",
        single.outcomes.len(),
        single.colliding,
        single.nearest_obstacle_id,
        single.min_distance
    );
}

/// `place` + `evaluate_into`: what the node does per report.
#[inline(never)]
fn place_and_evaluate(monitor: &mut Monitor, tree: &FrameTree, report: &mut Report) {
    monitor.place(tree, black_box(NOW));
    monitor.evaluate_into(black_box(NOW), report);
}

/// `place` + `flag`: what the node does before it publishes the flag.
#[inline(never)]
fn place_and_flag(monitor: &mut Monitor, tree: &FrameTree) -> bool {
    monitor.place(tree, black_box(NOW));
    monitor.flag(black_box(NOW)).colliding
}

/// The four monitors: report (footprint colliding) and flag (clear: the
/// overlapping obstacle left out), single frame and two frames, checked to
/// agree.
struct FramesSetups {
    tree: FrameTree,
    single: Monitor,
    two: Monitor,
    single_clear: Monitor,
    two_clear: Monitor,
    report: Report,
}

fn frames_setups() -> FramesSetups {
    let geometry = scene_geometry(FRAMES_COUNT);
    let tree = frame_tree();
    let (mut single, mut two) = (single_frame(&geometry, 0), two_frames(&geometry, 0));
    let mut a = single.evaluate(NOW);
    let mut b = two.evaluate(NOW);
    for (monitor, report) in [(&mut single, &mut a), (&mut two, &mut b)] {
        monitor.place(&tree, NOW);
        monitor.evaluate_into(NOW, report);
    }
    assert!(
        a.colliding && a.nearest_obstacle_id == "obstacle_0",
        "{a:?}"
    );
    assert_same_report(&a, &b);
    // Every outcome exact once: all 10,000 distances and axes compared.
    for monitor in [&mut single, &mut two] {
        monitor.set_exact_range(f64::INFINITY);
    }
    assert_same_report(&single.evaluate(NOW), &two.evaluate(NOW));
    for monitor in [&mut single, &mut two] {
        monitor.set_exact_range(1.0);
    }
    // Without TF the two-frame setup cannot be decided: the tree is used.
    two.place(&sat_collision::monitor::NoTransforms, NOW);
    assert!(!two.flag(NOW).valid);
    let (mut single_clear, mut two_clear) = (single_frame(&geometry, 1), two_frames(&geometry, 1));
    for monitor in [&mut single_clear, &mut two_clear] {
        monitor.place(&tree, NOW);
        let flag = monitor.flag(NOW);
        assert!(flag.valid && !flag.colliding, "{flag:?}");
    }
    assert_same_report(&single_clear.evaluate(NOW), &two_clear.evaluate(NOW));
    FramesSetups {
        tree,
        single,
        two,
        single_clear,
        two_clear,
        report: a,
    }
}

/// Reports for 10,000 obstacles in two frames other than `global_frame`
/// (5,000 zones in `odom`, 5,000 in the array in `sensor`, static TF
/// `map → odom → sensor`) against the same obstacles all in `map`, each
/// `place` + `evaluate_into` (range 1 m) and `place` + `flag` (clear).
fn frames(c: &mut Criterion) {
    let FramesSetups {
        tree,
        mut single,
        mut two,
        mut single_clear,
        mut two_clear,
        mut report,
    } = frames_setups();
    let mut group = c.benchmark_group("frames");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_millis(800))
        .sampling_mode(SamplingMode::Flat);
    let n = FRAMES_COUNT;
    // Alternated so that both see the same load.
    for (name, monitor) in [
        ("single_frame_place_evaluate_into_1m", &mut single),
        ("two_frames_place_evaluate_into_1m", &mut two),
    ] {
        group.bench_function(BenchmarkId::new(name, n), |b| {
            b.iter(|| place_and_evaluate(monitor, &tree, &mut report))
        });
    }
    for (name, monitor) in [
        ("single_frame_place_flag_clear", &mut single_clear),
        ("two_frames_place_flag_clear", &mut two_clear),
    ] {
        group.bench_function(BenchmarkId::new(name, n), |b| {
            b.iter(|| place_and_flag(monitor, &tree))
        });
    }
    group.finish();
}

/// Obstacles of the path benchmark.
const PATH_OBSTACLES: usize = 1_000;
/// Poses of the path benchmark.
const PATH_POSES: usize = 100;

/// The path benchmark's monitor (footprint at the origin, the 1,000-obstacle
/// scene without the obstacle that overlaps it: clear at the start, so the
/// path check has a path to sweep), its robot, poses and times.
fn path_setup() -> (Monitor, Shape, Vec<Isometry2<f64>>, Vec<f64>) {
    let robot = Shape::polygon(&footprint()).expect("valid footprint");
    let mut monitor = Monitor::new(MonitorConfig {
        footprint_timeout: 0.0,
        obstacles_timeout: 0.0,
        padding: PADDING,
        // The node's default.
        exact_range: 5.0,
        ..Default::default()
    });
    monitor.set_footprint("map", &footprint(), 0.0);
    monitor.set_obstacles("map", scene(PATH_OBSTACLES)[1..].to_vec(), 0.0);
    // 10 cm apart, 0.2 s apart, the heading weaving by up to 0.3 rad: most
    // segments turn (conservative advancement), a planner's local path.
    // The worst case sweeps every segment: the first such path found by
    // moving the same weave across the scene (deterministic).
    let times: Vec<f64> = (0..PATH_POSES).map(|k| 0.2 * k as f64).collect();
    let weave = |x0: f64, y0: f64| -> Vec<Isometry2<f64>> {
        (0..PATH_POSES)
            .map(|k| {
                let t = k as f64;
                let (x, y) = (x0 + 0.1 * t, y0 + 0.5 * (t / 15.0).sin());
                Isometry2::new(Vector::new(x, y), 0.3 * (t / 10.0).sin())
            })
            .collect()
    };
    let poses = (0..400)
        .map(|k| weave(-25.0 + 0.5 * (k % 20) as f64, -25.0 + 2.5 * (k / 20) as f64))
        .find(|poses| {
            monitor
                .check_path(&robot, poses, &times, 0.0, 0.0)
                .first_collision
                .is_none()
        })
        .expect("a clear path through the scene");
    (monitor, robot, poses, times)
}

/// `check_path` with 100 poses against 1,000 obstacles, and the single-pose
/// report of the same run (target: the path at most 20x the report).
fn path(c: &mut Criterion) {
    let (monitor, robot, poses, times) = path_setup();
    let check = monitor.check_path(&robot, &poses, &times, 0.0, 0.0);
    assert!(check.valid, "{:?}", check.status);
    // Cross-check against the per-pose answer: every pose before the
    // segment where contact begins is clear, and a colliding pose is never
    // after it.
    let per_pose = monitor.check_trajectory(&robot, &poses, 0.0, 0.0);
    let first = check.first_collision.unwrap_or(PATH_POSES);
    assert!(per_pose.check.first_collision.is_none_or(|k| k >= first));
    for (a, b) in check.clearance.iter().zip(&per_pose.check.distance) {
        assert!((a - b).abs() <= 1e-9, "clearance {a} vs {b}");
    }
    eprintln!(
        "path: {} poses, {} obstacles: first contact in segment {:?} at {:?} s",
        PATH_POSES,
        PATH_OBSTACLES - 1,
        check.first_collision,
        check.impact.map(|i| i.time)
    );
    let mut report = monitor.evaluate(0.0);
    let mut group = c.benchmark_group("path");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(1500))
        .sampling_mode(SamplingMode::Flat);
    group.bench_function(
        BenchmarkId::new("report_single_pose", PATH_OBSTACLES),
        |b| b.iter(|| monitor.evaluate_into(black_box(0.0), &mut report)),
    );
    group.bench_function(
        BenchmarkId::new("check_path_100_poses", PATH_OBSTACLES),
        |b| b.iter(|| monitor.check_path(black_box(&robot), &poses, &times, 0.0, 0.0)),
    );
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().nresamples(2_000).without_plots();
    targets = scale, frames, path
}

fn main() {
    // Instruction counts of the path benchmark under callgrind:
    // SCALE_PATH_RUNS=N runs N single-pose reports, then N path checks.
    if let Some(runs) = std::env::var("SCALE_PATH_RUNS")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
    {
        let (monitor, robot, poses, times) = path_setup();
        let mut report = monitor.evaluate(0.0);
        for _ in 0..runs {
            report_runs(&monitor, &mut report);
        }
        for _ in 0..runs {
            black_box(path_runs(&monitor, &robot, &poses, &times));
        }
        eprintln!("path: {runs} reports and {runs} path checks");
        return;
    }
    if let Some(runs) = std::env::var("SCALE_FRAMES_RUNS")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
    {
        let two = std::env::var("SCALE_FRAMES_SETUP").is_ok_and(|v| v == "two");
        let mut s = frames_setups();
        let (report_monitor, flag_monitor) = if two {
            (&mut s.two, &mut s.two_clear)
        } else {
            (&mut s.single, &mut s.single_clear)
        };
        for _ in 0..runs {
            place_and_evaluate(report_monitor, &s.tree, &mut s.report);
        }
        for _ in 0..runs {
            black_box(place_and_flag(flag_monitor, &s.tree));
        }
        eprintln!(
            "frames: {runs} runs of place_and_evaluate and place_and_flag, {} setup",
            if two { "two-frame" } else { "single-frame" }
        );
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}

#[inline(never)]
fn report_runs(monitor: &Monitor, report: &mut Report) {
    monitor.evaluate_into(black_box(0.0), report);
}

#[inline(never)]
fn path_runs(
    monitor: &Monitor,
    robot: &Shape,
    poses: &[Isometry2<f64>],
    times: &[f64],
) -> sat_collision::monitor::PathCheck {
    monitor.check_path(black_box(robot), poses, times, 0.0, 0.0)
}
