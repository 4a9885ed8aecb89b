//! The per-message work of the monitor allocates nothing once its buffers
//! have grown: a new footprint polygon, the flag, the full report into a
//! reused one; and a velocity-gate cycle (`Monitor::place_base` into a
//! reused placement, then `Gate::on_command` on `MonitorChecks`) with a
//! scan source taken off the base and earlier, and stop, slowdown and
//! approach zones; the diagnostics' statistics (an input's arrivals, the
//! decisions' durations and their percentiles, the publication's
//! decision). Counted with a global allocator that counts the calls made
//! by the current thread (the test harness's other threads don't count).

use crate::common::rect;
use nalgebra::{Isometry2, Vector2};
use sat_collision::broadphase::{ObstacleIndex, PointSet};
use sat_collision::diagnostics::{DecisionTimes, InputStats, Level, Publication};
use sat_collision::frames::FrameTree;
use sat_collision::gate::{
    Action, Command, Gate, GateConfig, MonitorChecks, ZoneConfig, ZoneShape,
};
use sat_collision::geometry::{Point, Shape, Vector};
use sat_collision::model::{Obstacle, ObstacleGeometry};
use sat_collision::monitor::{
    BaseFrames, BasePlacement, Monitor, MonitorConfig, SourceKind, SourceSpec,
};
use sat_collision::sensors::{costmap_cells, CostRule, Costmap};
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
fn gate_cycle_allocates_nothing_in_the_steady_state() {
    // A scan taken at time 1 by a laser mounted off the base's origin; the
    // robot has moved by now (time 2): every zone is moved into the
    // laser's frame then (`base_shift_correction`).
    let mut tf = FrameTree::new();
    let then = Isometry2::new(Vector2::new(0.3, -0.2), 0.1);
    let now = Isometry2::new(Vector2::new(0.4, -0.15), 0.15);
    let mount = Isometry2::new(Vector2::new(0.2, 0.05), 0.3);
    for (t, pose) in [(1.0, then), (2.0, now)] {
        assert!(tf.insert("odom", "base", t, Ok(pose), false, t).is_ok());
    }
    assert!(tf
        .insert("base", "laser", 0.0, Ok(mount), true, 0.0)
        .is_ok());
    // Points around the laser, 0.8 to 3 m away: the fixed zones (within
    // 0.5 m of the base) hold none, the approach meets them.
    let mut set = PointSet::new();
    for k in 0..600 {
        let a = k as f64 * TAU / 600.0;
        let r = 0.8 + 2.2 * ((k * 37) % 100) as f64 / 100.0;
        assert!(set.push(Point::new(r * a.cos(), r * a.sin())));
    }
    let mut monitor = Monitor::new(MonitorConfig {
        sources: vec![
            SourceSpec {
                name: "scan".to_owned(),
                kind: SourceKind::Scan,
                timeout: 10.0,
                enabled: true,
            },
            SourceSpec {
                name: "map".to_owned(),
                kind: SourceKind::Costmap,
                timeout: 10.0,
                enabled: true,
            },
        ],
        base_frame: "base".to_owned(),
        ..MonitorConfig::default()
    });
    assert!(monitor.set_source_points("scan", "laser", 1.0, set, 2.0));
    // A costmap in `odom`: a ring of lethal cells 1 to 1.5 m from where
    // the robot is now, which the approach meets too (its k earliest
    // contacts' buffers are kept between cycles).
    let mut costs = vec![0u8; 64 * 64];
    for (k, cost) in costs.iter_mut().enumerate() {
        let (i, j) = ((k % 64) as f64 * 0.1 - 2.8, (k / 64) as f64 * 0.1 - 3.35);
        let r = i.hypot(j);
        if (1.0..1.5).contains(&r) && k % 7 == 0 {
            *cost = 254;
        }
    }
    let map = Costmap {
        resolution: 0.1,
        size_x: 64,
        size_y: 64,
        origin: [-2.8, -3.35],
        orientation: [0.0, 0.0, 0.0, 1.0],
        data: &costs,
    };
    let mut cells = Vec::new();
    costmap_cells(&map, &CostRule::default(), &mut cells).expect("a costmap");
    let cells = ObstacleIndex::new(
        cells
            .into_iter()
            .map(|(i, shape)| Obstacle {
                id: i.to_string(),
                shape: Ok(shape),
                rejected_points: Vec::new(),
            })
            .collect(),
    );
    assert!(monitor.set_source_cells("map", "odom", 1.0, cells, 2.0));
    // An L-shaped footprint (a compound polygon) for the approach.
    let footprint = [
        (-0.3, -0.25),
        (0.35, -0.25),
        (0.35, 0.0),
        (0.1, 0.0),
        (0.1, 0.25),
        (-0.3, 0.25),
    ]
    .map(|(x, y)| Point::new(x, y));
    let zones = vec![
        ZoneConfig::new(
            "stop",
            ZoneShape::Polygon(rect(0.25, -0.15, 0.4, 0.15)),
            Action::Stop,
            2,
        ),
        ZoneConfig::new(
            "slow",
            ZoneShape::Polygon(rect(0.25, -0.25, 0.45, 0.25)),
            Action::Slowdown,
            2,
        ),
        ZoneConfig::new("turn", ZoneShape::Circle(0.45), Action::Slowdown, 2),
        ZoneConfig::new(
            "approach",
            ZoneShape::Dynamic { circle: false },
            Action::Approach,
            2,
        ),
    ];
    let mut gate = match Gate::new(GateConfig {
        base_frame: "base".to_owned(),
        odom_frame: "odom".to_owned(),
        base_shift_correction: true,
        zones,
        ..GateConfig::default()
    }) {
        Ok(gate) => gate,
        Err(e) => panic!("{e}"),
    };
    let Ok(shape) = Shape::polygon(&footprint) else {
        panic!("footprint")
    };
    assert!(gate.set_zone_shape(3, shape));
    let frames = BaseFrames {
        base: "base",
        fixed: Some("odom"),
    };
    // Commands: straight, turning, in place, sideways, backwards.
    let commands: Vec<Command> = [
        (0.5, 0.0, 0.0),
        (0.5, 0.0, 0.2),
        (0.3, 0.1, -0.6),
        (0.0, 0.0, 0.5),
        (0.0, 0.0, -1.5),
        (-0.4, 0.0, 0.3),
        (0.2, -0.3, 0.0),
        (1.0, 0.0, 2.0),
    ]
    .iter()
    .map(|&(x, y, w)| Command::new(x, y, w))
    .collect();
    let mut placed = BasePlacement::default();
    let mut cycle = |gate: &mut Gate, command: Command| {
        monitor.place_base(&tf, frames, 2.0, &mut placed);
        let checks = MonitorChecks {
            monitor: &monitor,
            placed: &placed,
        };
        gate.on_command(&checks, command, 2.0)
    };
    // Warm-up: the buffers grow to their steady size.
    let first: Vec<_> = commands.iter().map(|&c| cycle(&mut gate, c)).collect();
    let mut again = Vec::with_capacity(commands.len());
    let calls = allocations_in(|| {
        for &c in &commands {
            again.push(cycle(&mut gate, c));
        }
    });
    assert_eq!(calls, 0);
    // The same answers (the first's `state_changed` aside: the gate
    // remembers the last check's state).
    let answer = |o: &sat_collision::gate::Output| (o.publish, o.ratio, o.state);
    assert!(again.iter().map(answer).eq(first.iter().map(answer)));
    // The approach acted on some commands (scaled, neither passed nor
    // stopped), and some passed whole.
    assert!(
        first
            .iter()
            .any(|o| o.state.action == Action::Approach && o.ratio > 0.0 && o.ratio < 1.0),
        "{first:?}"
    );
    assert!(first.iter().any(|o| o.ratio == 1.0), "{first:?}");
}

/// Recording an arrival or a decision's duration, reading an input's age
/// and rate, the decisions' percentiles and whether to publish allocate
/// nothing once the statistics are built (the publication once it has
/// seen as many statuses).
#[test]
fn diagnostics_statistics_allocate_nothing_per_event() {
    let mut input = InputStats::new();
    let mut decisions = DecisionTimes::new();
    let mut publication = Publication::default();
    let levels = [Level::Ok, Level::Warn];
    publication.published(0.0, &levels);
    let mut sum = 0.0;
    let mut due = 0;
    // 12 s at 1 kHz: more decisions within a second than the ring holds.
    let calls = allocations_in(|| {
        for k in 0..12_000 {
            let now = 0.001 * k as f64;
            input.record(now);
            decisions.record(now, 1e-6 * (k % 97) as f64);
            if k % 100 == 0 {
                sum += input.rate(now) + input.age(now).unwrap_or(0.0);
                if let Some((p50, p99)) = decisions.percentiles(now) {
                    sum += p50 + p99;
                }
                if publication.due(now, &levels) {
                    publication.published(now, &levels);
                    due += 1;
                }
            }
        }
    });
    assert_eq!(calls, 0);
    // The work was done: a 1 kHz rate, one publication a second after the
    // one at 0.
    assert!((input.rate(11.999) - 1000.0).abs() < 1.0);
    assert!(sum > 0.0);
    assert_eq!(due, 11);
    assert!(decisions.percentiles(11.999).is_some());
}

#[test]
fn the_counter_sees_allocations() {
    let calls = allocations_in(|| {
        std::hint::black_box(vec![1u8; 16]);
    });
    assert_eq!(calls, 1);
}
