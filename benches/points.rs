//! Points as obstacles (laser scans, point clouds): the engine's
//! [`PointSet`] against a faithful port of nav2 collision monitor's own
//! algorithm, in the same run.
//!
//! ```bash
//! cargo bench --no-default-features --bench points -- --noplot
//! # One case in a loop (for callgrind; no criterion):
//! POINTS_REPEAT=ours_flag POINTS_REPS=1000 \
//!     valgrind --tool=callgrind target/release/deps/points-<hash>
//! ```
//!
//! The scene: a room of 10 m × 10 m around the robot (walls sampled every
//! 2 mm with 1 cm of noise), furniture (a shelf, chair legs), a box 0.5 m
//! ahead of the robot and a person to its left: 24,000 points. The robot:
//! an 8-vertex footprint of 0.7 m × 0.5 m with cut corners, padding 5 cm
//! (ours: a disc, exact rounded corners; the peer's polygon is padded
//! beforehand by nav2_costmap_2d's `padFootprint`, each vertex pushed out
//! by 5 cm along x and along y). Nothing
//! is inside the footprint, so a flag has to look at every point. A laser
//! scan of the same room: 360 rays.
//!
//! Groups (ours, then the peer):
//! * `points_flag`: `count_inside(.., 1)` on the cloud (`ours`: in the
//!   sensor's order; `ours_shuffled`: the same points in a random order, so
//!   that no block of points can be skipped whole); `nav2`:
//!   `Polygon::getPointsInside` (crossing number on every point).
//! * `points_report`: `report` (inside, deepest, nearest with its exact
//!   clearance); nav2 has no equivalent.
//! * `points_toi_translation` / `points_toi_rotation`: `first_impact` along
//!   a twist over 2 s (0.4 m/s; 0.3 m/s turning at 0.4 rad/s); `nav2`:
//!   `Polygon::getCollisionTime` (steps of `simulation_time_step` = 0.1 s,
//!   every point moved backwards and tested, `min_points` = 1 here so both
//!   answer the same question).
//! * `points_scan_flag`: the flag on the 360-point scan.
//!
//! Results, ratios and instruction counts: BENCHMARKS.md, "Points".

use criterion::{criterion_group, BenchmarkId, Criterion, SamplingMode};
use nalgebra::Isometry2;
use sat_collision::broadphase::PointSet;
use sat_collision::geometry::{point_contact, Motion, Point, Shape, Vector};
use sat_collision_testkit::nav2::{
    self, Point as Nav2Point, Polygon as Nav2Polygon, Velocity as Nav2Velocity,
};
use sat_collision_testkit::SplitMix64 as Rng;
use std::f64::consts::TAU;
use std::hint::black_box;
use std::time::Duration;

const PADDING: f64 = 0.05;
const DURATION: f64 = 2.0;
/// The cloud's size.
const CLOUD: usize = 24_000;
/// nav2's default `simulation_time_step` (s).
const NAV2_STEP: f64 = 0.1;
/// nav2's `min_points`: 1 here, so that its answers are ours (its default
/// is 4).
const NAV2_MIN_POINTS: i32 = 1;

/// The robot: 0.7 m × 0.5 m, corners cut by 5 cm / 10 cm.
const FOOTPRINT: [(f64, f64); 8] = [
    (0.35, -0.15),
    (0.35, 0.15),
    (0.30, 0.25),
    (-0.30, 0.25),
    (-0.35, 0.15),
    (-0.35, -0.15),
    (-0.30, -0.25),
    (0.30, -0.25),
];

fn footprint() -> Shape {
    let points: Vec<Point> = FOOTPRINT.iter().map(|&(x, y)| Point::new(x, y)).collect();
    Shape::polygon(&points).expect("a valid footprint")
}

/// The box ahead: x in [0.9, 1.3], y in [-0.2, 0.2].
const BOX: (f64, f64, f64, f64) = (0.9, 1.3, -0.2, 0.2);
/// The person: a disc of 0.2 m at (-0.2, 0.8).
const PERSON: (f64, f64, f64) = (-0.2, 0.8, 0.2);

/// The cloud: walls, furniture, the box and the person, in the robot's
/// frame (the robot at the origin, heading +x).
fn cloud() -> Vec<Point> {
    let mut rng = Rng::new(0x9017);
    let mut points = Vec::with_capacity(CLOUD);
    let noise = |rng: &mut Rng| Vector::new(rng.range(-0.01, 0.01), rng.range(-0.01, 0.01));
    // Walls: 4 × 5,000 points, 2 mm apart.
    for k in 0..20_000 {
        let (wall, s) = (k / 5_000, (k % 5_000) as f64 * 0.002 - 5.0);
        let p = match wall {
            0 => Point::new(5.0, s),
            1 => Point::new(-5.0, s),
            2 => Point::new(s, 5.0),
            _ => Point::new(s, -5.0),
        };
        points.push(p + noise(&mut rng));
    }
    // A shelf along the left wall, x in [-3, 1], y in [4.4, 4.8]: 1,500
    // points on its outline.
    for k in 0..1_500 {
        let t = k as f64 / 1_500.0 * 8.8;
        let p = if t < 4.0 {
            Point::new(-3.0 + t, 4.4)
        } else if t < 4.4 {
            Point::new(1.0, 4.4 + (t - 4.0))
        } else if t < 8.4 {
            Point::new(1.0 - (t - 4.4), 4.8)
        } else {
            Point::new(-3.0, 4.8 - (t - 8.4))
        };
        points.push(p + noise(&mut rng));
    }
    // Chair and table legs: 6 discs of 2 cm, 250 points each.
    for (cx, cy) in [
        (2.5, 2.0),
        (2.9, 2.0),
        (2.5, 2.4),
        (2.9, 2.4),
        (-3.0, -2.0),
        (-3.5, -2.5),
    ] {
        for k in 0..250 {
            let a = TAU * k as f64 / 250.0;
            points
                .push(Point::new(cx + 0.02 * a.cos(), cy + 0.02 * a.sin()) + noise(&mut rng) * 0.1);
        }
    }
    // The box ahead: 500 points on its outline (the side facing the robot
    // first).
    let (x0, x1, y0, y1) = BOX;
    for k in 0..500 {
        let t = k as f64 / 500.0 * 1.6;
        let p = if t < 0.4 {
            Point::new(x0, y0 + t)
        } else if t < 0.8 {
            Point::new(x0 + (t - 0.4), y1)
        } else if t < 1.2 {
            Point::new(x1, y1 - (t - 0.8))
        } else {
            Point::new(x1 - (t - 1.2), y0)
        };
        points.push(p + noise(&mut rng) * 0.1);
    }
    // The person: the rest, on a disc's outline.
    let (px, py, pr) = PERSON;
    while points.len() < CLOUD {
        let a = rng.range(0.0, TAU);
        points.push(Point::new(px + pr * a.cos(), py + pr * a.sin()) + noise(&mut rng) * 0.2);
    }
    points
}

/// A laser scan at the robot's origin: 360 rays, each the nearest of the
/// room's walls, the box and the person.
fn scan() -> Vec<Point> {
    (0..360)
        .map(|k| {
            let a = TAU * k as f64 / 360.0;
            let d = Vector::new(a.cos(), a.sin());
            let mut range = f64::INFINITY;
            // Walls at ±5 m.
            for (axis, value) in [(0, 5.0), (0, -5.0), (1, 5.0), (1, -5.0)] {
                let t = value / d[axis];
                if t > 0.0 {
                    range = range.min(t);
                }
            }
            // The box (slabs).
            let (x0, x1, y0, y1) = BOX;
            let (tx0, tx1) = ((x0 / d.x).min(x1 / d.x), (x0 / d.x).max(x1 / d.x));
            let (ty0, ty1) = ((y0 / d.y).min(y1 / d.y), (y0 / d.y).max(y1 / d.y));
            let (enter, exit) = (tx0.max(ty0), tx1.min(ty1));
            if enter <= exit && enter > 0.0 {
                range = range.min(enter);
            }
            // The person.
            let (px, py, pr) = PERSON;
            let c = Vector::new(px, py);
            let b = d.dot(&c);
            let disc = b * b - (c.dot(&c) - pr * pr);
            if disc >= 0.0 && b - disc.sqrt() > 0.0 {
                range = range.min(b - disc.sqrt());
            }
            Point::from(d * range)
        })
        .collect()
}

fn point_set(points: &[Point]) -> PointSet {
    let mut set = PointSet::with_capacity(points.len());
    for &p in points {
        assert!(set.push(p));
    }
    set
}

fn twist(rotating: bool) -> Motion {
    match rotating {
        false => Motion::twist(&Isometry2::identity(), Vector::new(0.4, 0.0), 0.0),
        true => Motion::twist(&Isometry2::identity(), Vector::new(0.3, 0.0), 0.4),
    }
}

// ---------------------------------------------------------------------------
// The peer: nav2 collision monitor, ported line by line
// (nav2_collision_monitor/src/polygon.cpp, kinematics.cpp), in
// `testkit::nav2`. Its types: a point and a pose as plain structs of
// doubles, the points in a vector. Its collision time is
// `Polygon::simulate`, `getCollisionTime` without the static check (no
// point is inside the footprint here: the same answer, one pass less).

fn nav2_polygon() -> Nav2Polygon {
    let mut poly: Vec<Nav2Point> = FOOTPRINT.iter().map(|&(x, y)| Nav2Point { x, y }).collect();
    nav2::pad_footprint(&mut poly, PADDING);
    Nav2Polygon {
        poly,
        min_points: NAV2_MIN_POINTS,
        time_before_collision: DURATION,
        simulation_time_step: NAV2_STEP,
    }
}

fn nav2_points(points: &[Point]) -> Vec<Nav2Point> {
    points
        .iter()
        .map(|p| Nav2Point { x: p.x, y: p.y })
        .collect()
}

fn nav2_velocity(rotating: bool) -> Nav2Velocity {
    match rotating {
        false => Nav2Velocity {
            x: 0.4,
            y: 0.0,
            tw: 0.0,
        },
        true => Nav2Velocity {
            x: 0.3,
            y: 0.0,
            tw: 0.4,
        },
    }
}

// ---------------------------------------------------------------------------

struct Scene {
    footprint: Shape,
    cloud: PointSet,
    /// The same cloud in a random order (no two consecutive points near
    /// each other: the blocks' boxes cover the room, none is skipped).
    shuffled: PointSet,
    scan: PointSet,
    nav2: Nav2Polygon,
    nav2_cloud: Vec<Nav2Point>,
    nav2_scan: Vec<Nav2Point>,
}

fn scene() -> Scene {
    let (cloud, scan) = (cloud(), scan());
    let mut shuffled = cloud.clone();
    let mut rng = Rng::new(0x5415);
    for i in (1..shuffled.len()).rev() {
        shuffled.swap(i, rng.below_usize(i + 1));
    }
    Scene {
        footprint: footprint(),
        cloud: point_set(&cloud),
        shuffled: point_set(&shuffled),
        scan: point_set(&scan),
        nav2: nav2_polygon(),
        nav2_cloud: nav2_points(&cloud),
        nav2_scan: nav2_points(&scan),
    }
}

/// Checks the answers before anything is timed, and prints them.
fn check(s: &Scene) {
    for (name, set, theirs) in [
        ("cloud", &s.cloud, &s.nav2_cloud),
        ("shuffled", &s.shuffled, &s.nav2_cloud),
        ("scan", &s.scan, &s.nav2_scan),
    ] {
        let brute = (0..set.len())
            .filter(|&i| point_contact(&s.footprint, set.point(i), PADDING).colliding())
            .count();
        assert_eq!(set.count_inside(&s.footprint, PADDING, usize::MAX), brute);
        let report = set.report(&s.footprint, PADDING);
        assert_eq!(report.inside, brute);
        let (i, nearest) = report.nearest.expect("points");
        let least = (0..set.len())
            .map(|k| point_contact(&s.footprint, set.point(k), PADDING).distance())
            .fold(f64::INFINITY, f64::min);
        assert_eq!(nearest.distance(), least);
        eprintln!(
            "{name}: {} points, {brute} inside (nav2: {}), nearest #{i} at {:.4} m",
            set.len(),
            s.nav2.get_points_inside(theirs),
            nearest.distance()
        );
    }
    for rotating in [false, true] {
        let ours = s
            .cloud
            .first_impact(&s.footprint, &twist(rotating), DURATION, PADDING);
        let theirs = s.nav2.simulate(&s.nav2_cloud, nav2_velocity(rotating));
        let (i, impact) = ours.expect("the twists hit something");
        let (j, again) = s
            .shuffled
            .first_impact(&s.footprint, &twist(rotating), DURATION, PADDING)
            .expect("the same points");
        assert!((again.time - impact.time).abs() <= 1e-9);
        assert_eq!(s.shuffled.point(j), s.cloud.point(i));
        eprintln!(
            "first impact ({}): ours #{i} at {:.6} s (exact: {}), nav2 {theirs:.1} s",
            if rotating { "rotation" } else { "translation" },
            impact.time,
            impact.exact
        );
    }
}

fn bench_points(c: &mut Criterion) {
    let s = scene();
    check(&s);
    let configure = |group: &mut criterion::BenchmarkGroup<'_, _>| {
        group
            .sample_size(20)
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(2))
            .sampling_mode(SamplingMode::Flat);
    };

    let mut group = c.benchmark_group("points_flag");
    configure(&mut group);
    group.bench_function(BenchmarkId::new("ours", CLOUD), |b| {
        b.iter(|| black_box(s.cloud.count_inside(black_box(&s.footprint), PADDING, 1)))
    });
    group.bench_function(BenchmarkId::new("ours_shuffled", CLOUD), |b| {
        b.iter(|| black_box(s.shuffled.count_inside(black_box(&s.footprint), PADDING, 1)))
    });
    group.bench_function(BenchmarkId::new("nav2", CLOUD), |b| {
        b.iter(|| black_box(s.nav2.get_points_inside(black_box(&s.nav2_cloud))))
    });
    group.finish();

    let mut group = c.benchmark_group("points_report");
    configure(&mut group);
    group.bench_function(BenchmarkId::new("ours", CLOUD), |b| {
        b.iter(|| black_box(s.cloud.report(black_box(&s.footprint), PADDING)))
    });
    group.bench_function(BenchmarkId::new("ours_shuffled", CLOUD), |b| {
        b.iter(|| black_box(s.shuffled.report(black_box(&s.footprint), PADDING)))
    });
    group.finish();

    for (rotating, name) in [
        (false, "points_toi_translation"),
        (true, "points_toi_rotation"),
    ] {
        let motion = twist(rotating);
        let velocity = nav2_velocity(rotating);
        let mut group = c.benchmark_group(name);
        configure(&mut group);
        group.bench_function(BenchmarkId::new("ours", CLOUD), |b| {
            b.iter(|| {
                black_box(
                    s.cloud
                        .first_impact(black_box(&s.footprint), &motion, DURATION, PADDING),
                )
            })
        });
        group.bench_function(BenchmarkId::new("ours_shuffled", CLOUD), |b| {
            b.iter(|| {
                black_box(s.shuffled.first_impact(
                    black_box(&s.footprint),
                    &motion,
                    DURATION,
                    PADDING,
                ))
            })
        });
        group.bench_function(BenchmarkId::new("nav2", CLOUD), |b| {
            b.iter(|| black_box(s.nav2.simulate(black_box(&s.nav2_cloud), velocity)))
        });
        group.finish();
    }

    let mut group = c.benchmark_group("points_scan_flag");
    configure(&mut group);
    group.bench_function(BenchmarkId::new("ours", 360), |b| {
        b.iter(|| black_box(s.scan.count_inside(black_box(&s.footprint), PADDING, 1)))
    });
    group.bench_function(BenchmarkId::new("nav2", 360), |b| {
        b.iter(|| black_box(s.nav2.get_points_inside(black_box(&s.nav2_scan))))
    });
    group.finish();
}

/// `POINTS_REPEAT=<case>`: that case only, `POINTS_REPS` times (default
/// 1,000), for instruction counts. Cases: `ours_flag`,
/// `ours_flag_shuffled`, `nav2_flag`, `ours_report`, `ours_report_shuffled`, `ours_toi_translation`, `nav2_toi_translation`,
/// `ours_toi_rotation`, `nav2_toi_rotation`, `ours_scan_flag`,
/// `nav2_scan_flag`, and `setup` (none: the cost of building the scene).
fn repeat(which: &str) {
    let reps: usize = std::env::var("POINTS_REPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000);
    let s = scene();
    let fp = &s.footprint;
    let mut sink = 0.0;
    for _ in 0..reps {
        sink += match which {
            "setup" => 0.0,
            "ours_flag" => s.cloud.count_inside(black_box(fp), PADDING, 1) as f64,
            "ours_flag_shuffled" => s.shuffled.count_inside(black_box(fp), PADDING, 1) as f64,
            "ours_report_shuffled" => s.shuffled.report(black_box(fp), PADDING).inside as f64,
            "nav2_flag" => s.nav2.get_points_inside(black_box(&s.nav2_cloud)) as f64,
            "ours_report" => s.cloud.report(black_box(fp), PADDING).inside as f64,
            "ours_toi_translation" | "ours_toi_rotation" => {
                let motion = twist(which.ends_with("rotation"));
                s.cloud
                    .first_impact(black_box(fp), &motion, DURATION, PADDING)
                    .map_or(-1.0, |(_, impact)| impact.time)
            }
            "nav2_toi_translation" | "nav2_toi_rotation" => {
                let velocity = nav2_velocity(which.ends_with("rotation"));
                s.nav2.simulate(black_box(&s.nav2_cloud), velocity)
            }
            "ours_scan_flag" => s.scan.count_inside(black_box(fp), PADDING, 1) as f64,
            "nav2_scan_flag" => s.nav2.get_points_inside(black_box(&s.nav2_scan)) as f64,
            other => panic!("unknown POINTS_REPEAT={other}"),
        };
    }
    eprintln!("{which}: {reps} queries, sum {sink}");
}

criterion_group! {
    name = benches;
    config = Criterion::default().nresamples(2_000).without_plots();
    targets = bench_points
}

fn main() {
    if let Ok(which) = std::env::var("POINTS_REPEAT") {
        repeat(&which);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
