//! The gate never says "go" when the node cannot judge: a property over
//! random sequences of events.
//!
//! One monitor and one gate, as the node holds them: two scan sources (one
//! in a laser frame that TF learns late, one in the base frame), a polygon
//! source, a costmap source, a fleet source, a stop zone, a slowdown zone and a dynamic
//! zone. Random events: scans, polygons, costmaps and the fleet's peers arriving (fresh, stamped late, malformed,
//! crossing themselves, in a frame TF does not know), time passing, the simulated
//! clock stopping and going again, polygons expiring, parameters changing
//! (sources, zones, the gate), the dynamic zone getting its shape, commands
//! and the periodic re-check.
//!
//! The reference is written here, from the rules as ARCHITECTURE.md
//! states them, not from the library's code: a source is valid when it is
//! enabled and its last data arrived, within its timeout by arrival and by
//! stamp, well formed, in a frame TF knows; a polygon source when it holds
//! at least one polygon and every one it holds is so; the clock when ROS
//! time is set and has advanced within the smallest timeout in force; a
//! dynamic zone when it has a shape. Asserted after every check:
//!
//! * **The invariant**: whenever the gate publishes a non-zero command,
//!   the clock, every enabled source and every enabled zone were valid.
//! * The gate's `/diagnostics` status is never OK, and the collision flag
//!   never valid, while the clock or an enabled source is not.
//! * Not vacuous: both outcomes happen many times over the sequences.

use nalgebra::Isometry2;
use sat_collision::broadphase::{ObstacleIndex, PointSet};
use sat_collision::diagnostics::{gate_status, GateHealth, Level};
use sat_collision::fleet::{Fleet, FleetConfig, PeerMessage, PeerStatus};
use sat_collision::frames::FrameTree;
use sat_collision::gate::{
    Action, Command, Gate, GateConfig, MonitorChecks, Output, ZoneConfig, ZoneShape,
};
use sat_collision::geometry::{Point, Shape};
use sat_collision::model::{Obstacle, ObstacleGeometry};
use sat_collision::monitor::clock::ClockWatch;
use sat_collision::monitor::MovingObstacle;
use sat_collision::monitor::{
    BaseFrames, BasePlacement, InstanceUpdate, Monitor, MonitorConfig, SourceKind, SourceSpec,
};
use sat_collision::sensors::{self, CostRule, Costmap};
use sat_collision_testkit::SplitMix64;
use std::collections::BTreeMap;

const SOURCES: [(&str, SourceKind, f64); 5] = [
    ("front", SourceKind::Scan, 0.5),
    ("side", SourceKind::Scan, 1.0),
    ("people", SourceKind::Polygon, 0.8),
    ("map", SourceKind::Costmap, 1.5),
    ("robots", SourceKind::Fleet, 1.2),
];
const PEOPLE: usize = 2;
const MAP: usize = 3;
const ROBOTS: usize = 4;
const DYNAMIC_ZONE: usize = 2;
const FRAMES: [&str; 3] = ["base", "laser", "nowhere"];
/// `transform_tolerance`, the smallest timeout in force with the sources'.
const TRANSFORM_TOLERANCE: f64 = 0.3;

/// What the reference knows of one source's last data.
#[derive(Clone, Debug)]
struct Data {
    frame: &'static str,
    stamp: f64,
    received: f64,
    well_formed: bool,
}

struct Reference {
    enabled: [bool; 5],
    /// The scans' last data.
    scans: [Option<Data>; 2],
    /// The costmap's last message.
    costmap: Option<Data>,
    /// The fleet's last peers (or its refusal).
    fleet: Option<Data>,
    /// The polygon source's polygons by id.
    polygons: BTreeMap<u32, Data>,
    laser_known: bool,
    /// ROS time (s), and the steady time at which it last advanced.
    ros: f64,
    steady: f64,
    advanced_at: f64,
    clock_running: bool,
    gate_enabled: bool,
    zones_enabled: [bool; 3],
    dynamic_shape: bool,
}

impl Reference {
    fn fresh(&self, data: &Data, timeout: f64) -> bool {
        let now = self.ros;
        now - data.received <= timeout && (data.stamp == 0.0 || (now - data.stamp).abs() <= timeout)
    }

    fn placed(&self, frame: &str) -> bool {
        frame == "base" || (frame == "laser" && self.laser_known)
    }

    fn usable(&self, data: &Data, timeout: f64) -> bool {
        data.well_formed && self.fresh(data, timeout) && self.placed(data.frame)
    }

    fn source_valid(&self, index: usize) -> bool {
        let timeout = SOURCES[index].2;
        if !self.enabled[index] {
            return true;
        }
        if index == PEOPLE {
            return !self.polygons.is_empty()
                && self.polygons.values().all(|p| self.usable(p, timeout));
        }
        if index == MAP {
            return self
                .costmap
                .as_ref()
                .is_some_and(|d| self.usable(d, timeout));
        }
        if index == ROBOTS {
            return self.fleet.as_ref().is_some_and(|d| self.usable(d, timeout));
        }
        self.scans[index]
            .as_ref()
            .is_some_and(|d| self.usable(d, timeout))
    }

    /// ROS time is set and advanced within the smallest timeout in force.
    fn clock_valid(&self) -> bool {
        let limit = SOURCES
            .iter()
            .zip(self.enabled)
            .filter(|(_, on)| *on)
            .map(|(s, _)| s.2)
            .fold(TRANSFORM_TOLERANCE, f64::min);
        self.ros > 0.0 && self.steady - self.advanced_at <= limit
    }

    fn sources_valid(&self) -> bool {
        self.clock_valid() && (0..SOURCES.len()).all(|i| self.source_valid(i))
    }

    fn zones_valid(&self) -> bool {
        !self.zones_enabled[DYNAMIC_ZONE] || self.dynamic_shape
    }

    fn gate_config(&self, base: &GateConfig) -> GateConfig {
        let mut config = base.clone();
        config.enabled = self.gate_enabled;
        for (zone, on) in config.zones.iter_mut().zip(self.zones_enabled) {
            zone.enabled = on;
        }
        config
    }
}

fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<Point> {
    vec![
        Point::new(x0, y0),
        Point::new(x1, y0),
        Point::new(x1, y1),
        Point::new(x0, y1),
    ]
}

fn gate_config() -> GateConfig {
    let mut stop = ZoneConfig::new(
        "stop",
        ZoneShape::Polygon(rect(0.0, -0.3, 0.6, 0.3)),
        Action::Stop,
        1,
    );
    stop.sources = vec![0, 1, 2, 3];
    stop.min_points = 2;
    let mut slow = ZoneConfig::new(
        "slow",
        ZoneShape::Polygon(rect(-0.8, -0.8, 0.8, 0.8)),
        Action::Slowdown,
        1,
    );
    slow.sources = vec![1];
    let mut dynamic = ZoneConfig::new("dyn", ZoneShape::Dynamic { circle: false }, Action::Stop, 1);
    dynamic.polygon_sub_topic = "dyn_shape".to_owned();
    dynamic.sources = vec![0];
    GateConfig {
        base_frame: "base".to_owned(),
        zones: vec![stop, slow, dynamic],
        ..GateConfig::default()
    }
}

fn monitor() -> Monitor {
    Monitor::new(MonitorConfig {
        sources: SOURCES
            .iter()
            .map(|(name, kind, timeout)| SourceSpec {
                name: (*name).to_owned(),
                kind: *kind,
                timeout: *timeout,
                enabled: true,
            })
            .collect(),
        base_frame: "base".to_owned(),
        footprint_timeout: 0.0,
        obstacles_timeout: 0.0,
        transform_tolerance: TRANSFORM_TOLERANCE,
        ..MonitorConfig::default()
    })
}

/// Points now and then inside the zones, mostly outside.
fn scan_points(rng: &mut SplitMix64) -> PointSet {
    let mut set = PointSet::new();
    for _ in 0..rng.below_usize(6) {
        let reach = if rng.chance(0.3) { 0.7 } else { 3.0 };
        let p = Point::new(rng.range(-reach, reach), rng.range(-reach, reach));
        assert!(set.push(p));
    }
    set
}

/// A fleet's peers as the node gives them: up to three robots, 0.4 m
/// squares, now and then near the robot, each a little old and moving,
/// through `fleet::Fleet` in `frame`.
fn fleet_peers(
    rng: &mut SplitMix64,
    frame: &'static str,
    now: f64,
) -> (ObstacleIndex, Vec<MovingObstacle>, Vec<PeerStatus>) {
    let mut fleet = Fleet::new(FleetConfig {
        frame: frame.to_owned(),
        ..FleetConfig::default()
    });
    for k in 0..rng.below_usize(4) {
        let reach = if rng.chance(0.1) { 0.8 } else { 4.0 };
        let message = PeerMessage {
            robot_id: format!("r{k}"),
            session: 1,
            sequence: 1,
            frame_id: frame.to_owned(),
            stamp: now - rng.range(0.0, 0.2),
            footprint: rect(-0.2, -0.2, 0.2, 0.2),
            pose: Isometry2::new(
                nalgebra::Vector2::new(rng.range(-reach, reach), rng.range(-reach, reach)),
                rng.range(-3.0, 3.0),
            ),
            linear: nalgebra::Vector2::new(rng.range(-0.5, 0.5), 0.0),
            angular: rng.range(-0.5, 0.5),
            max_linear_speed: 0.5,
            max_angular_speed: 0.5,
            plan: Vec::new(),
        };
        fleet.receive(message, now).expect("a peer");
    }
    let (mut obstacles, mut moving, mut entries) = (Vec::new(), Vec::new(), Vec::new());
    fleet.obstacles_at(now, 2.0, &mut obstacles, &mut moving, &mut entries);
    let statuses = entries.iter().map(|e| e.status).collect();
    (ObstacleIndex::new(obstacles), moving, statuses)
}

/// A costmap's cells: 8 x 8 cells of 0.25 m from (-1, -1), a few lethal
/// (now and then in the stop zone), read as the node reads them.
fn costmap_cells(rng: &mut SplitMix64) -> ObstacleIndex {
    let mut data = vec![0u8; 64];
    for _ in 0..rng.below_usize(3) {
        let cell = rng.below_usize(64);
        data[cell] = 254;
    }
    let map = Costmap {
        resolution: 0.25,
        size_x: 8,
        size_y: 8,
        origin: [-1.0, -1.0],
        orientation: [0.0, 0.0, 0.0, 1.0],
        data: &data,
    };
    let mut cells = Vec::new();
    sensors::costmap_cells(&map, &CostRule::default(), &mut cells).expect("a costmap");
    let obstacles = cells
        .into_iter()
        .map(|(i, shape)| Obstacle {
            id: i.to_string(),
            shape: Ok(shape),
            rejected_points: Vec::new(),
        })
        .collect();
    ObstacleIndex::new(obstacles)
}

/// A polygon: a small square, or one that crosses itself or is too short.
fn polygon(rng: &mut SplitMix64) -> (Vec<Point>, bool) {
    let (x, y) = (rng.range(-2.0, 2.0), rng.range(-2.0, 2.0));
    match rng.below_usize(10) {
        0 => (
            vec![
                Point::new(x, y),
                Point::new(x + 0.3, y + 0.3),
                Point::new(x + 0.3, y),
                Point::new(x, y + 0.3),
            ],
            false,
        ),
        1 => (vec![Point::new(x, y), Point::new(x + 0.3, y)], false),
        _ => (rect(x, y, x + 0.2, y + 0.2), true),
    }
}

fn stamp_of(rng: &mut SplitMix64, now: f64) -> f64 {
    match rng.below_usize(6) {
        0 => 0.0,
        1 => (now - rng.range(0.0, 2.0)).max(0.0),
        _ => now,
    }
}

fn frame_of(rng: &mut SplitMix64) -> &'static str {
    match rng.below_usize(12) {
        0 => FRAMES[2],
        1..=4 => FRAMES[1],
        _ => FRAMES[0],
    }
}

#[derive(Default)]
struct Tally {
    go: usize,
    stopped_for_a_fault: usize,
}

/// One random sequence of `steps` events.
fn run(seed: u64, steps: usize, tally: &mut Tally) {
    let mut rng = SplitMix64::new(seed);
    let base_config = gate_config();
    let mut gate = Gate::new(base_config.clone()).expect("zones");
    let mut m = monitor();
    // The robot's own shape in its base frame, so that the flag judges the
    // sources (and not a missing footprint).
    let footprint = Shape::polygon(&rect(-0.2, -0.2, 0.2, 0.2)).expect("footprint");
    let mut tf = FrameTree::new();
    let mut watch = ClockWatch::default();
    let mut placed = BasePlacement::default();
    let mut r = Reference {
        enabled: [true; 5],
        scans: [None, None],
        costmap: None,
        fleet: None,
        polygons: BTreeMap::new(),
        laser_known: false,
        ros: 0.0,
        steady: 0.0,
        advanced_at: 0.0,
        clock_running: rng.chance(0.9),
        gate_enabled: true,
        zones_enabled: [true; 3],
        dynamic_shape: false,
    };
    let frames = BaseFrames {
        base: "base",
        fixed: None,
    };
    let (mut fleet_frame, mut fleet_refusing) = (FRAMES[0], false);
    for step in 0..steps {
        // Time passes; the simulated clock may stand still.
        let dt = rng.range(0.0, 0.25);
        r.steady += dt;
        if rng.chance(0.03) {
            r.clock_running = !r.clock_running;
        }
        if r.clock_running && dt > 0.0 {
            r.ros += dt;
            r.advanced_at = r.steady;
        }
        let limit = m.config().stall_limit(false);
        let reading = watch.observe(r.ros, r.steady, limit);
        m.set_clock(reading.generation, reading.cause);
        let now = r.ros;
        match rng.below_usize(22) {
            0..=5 => {
                let index = rng.below_usize(2);
                let name = SOURCES[index].0;
                let data = Data {
                    frame: frame_of(&mut rng),
                    stamp: stamp_of(&mut rng, now),
                    received: now,
                    well_formed: !rng.chance(0.08),
                };
                match data.well_formed {
                    true => {
                        let points = scan_points(&mut rng);
                        assert!(m.set_source_points(name, data.frame, data.stamp, points, now));
                    }
                    false => {
                        let cause = sat_collision::model::Cause::InvalidSource;
                        assert!(m.reject_source(name, cause, now));
                    }
                }
                r.scans[index] = Some(data);
            }
            6..=7 if r.enabled[PEOPLE] => {
                let id = rng.below_usize(3) as u32;
                let (points, well_formed) = polygon(&mut rng);
                let data = Data {
                    frame: frame_of(&mut rng),
                    stamp: stamp_of(&mut rng, now),
                    received: now,
                    well_formed,
                };
                let name = format!("people/{id}");
                m.upsert_instances([InstanceUpdate {
                    frame_id: data.frame.to_owned(),
                    stamp: data.stamp,
                    obstacle: Obstacle::new(name, &ObstacleGeometry::Polygon(points)),
                    received: now,
                    lifetime: Some(SOURCES[PEOPLE].2),
                }]);
                r.polygons.insert(id, data);
            }
            8 => {
                // The obstacle worker's expiry.
                m.expire_instances(now);
                let timeout = SOURCES[PEOPLE].2;
                let stale: Vec<u32> = r
                    .polygons
                    .iter()
                    .filter(|(_, d)| !r.fresh(d, timeout))
                    .map(|(id, _)| *id)
                    .collect();
                for id in stale {
                    r.polygons.remove(&id);
                }
            }
            9 if !r.laser_known => {
                let mount = Isometry2::new(nalgebra::Vector2::new(0.2, 0.0), 0.0);
                assert!(tf
                    .insert("base", "laser", 0.0, Ok(mount), true, now)
                    .is_ok());
                r.laser_known = true;
            }
            10 => {
                // A source switched (`<source>.enabled`).
                let index = rng.below_usize(SOURCES.len());
                let on = !r.enabled[index];
                r.enabled[index] = on;
                assert!(m.set_source_enabled(SOURCES[index].0, on));
                if index == PEOPLE && !on {
                    m.drop_instances_of("people/");
                    r.polygons.clear();
                }
            }
            11 => {
                // A zone switched, or the gate (`enabled`, `~/toggle`).
                match rng.below_usize(4) {
                    3 => r.gate_enabled = !r.gate_enabled,
                    zone => r.zones_enabled[zone] = !r.zones_enabled[zone],
                }
                gate.follow(&r.gate_config(&base_config));
            }
            13..=14 => {
                // A costmap: its cells now and then in the stop zone.
                let data = Data {
                    frame: frame_of(&mut rng),
                    stamp: stamp_of(&mut rng, now),
                    received: now,
                    well_formed: !rng.chance(0.08),
                };
                let name = SOURCES[MAP].0;
                match data.well_formed {
                    true => {
                        let cells = costmap_cells(&mut rng);
                        assert!(m.set_source_cells(name, data.frame, data.stamp, cells, now));
                    }
                    false => {
                        let cause = sat_collision::model::Cause::InvalidSource;
                        assert!(m.reject_source(name, cause, now));
                    }
                }
                r.costmap = Some(data);
            }
            20..=21 => {
                // The fleet: its shared frame changes (TF may not know it),
                // or robots start or stop being refused for lack of room.
                fleet_frame = match rng.below_usize(10) {
                    0 => FRAMES[2],
                    1 => FRAMES[1],
                    _ => FRAMES[0],
                };
                fleet_refusing = rng.chance(0.15);
            }
            12 if !r.dynamic_shape => {
                let shape = Shape::polygon(&rect(0.0, -0.5, 1.0, 0.5)).expect("shape");
                assert!(gate.set_zone_shape(DYNAMIC_ZONE, shape));
                r.dynamic_shape = true;
            }
            _ => {}
        }
        // The fleet's peers given before every check, as the node does
        // (grown by their ages, moving), or its refusal.
        let data = Data {
            frame: fleet_frame,
            stamp: now,
            received: now,
            well_formed: !fleet_refusing,
        };
        let name = SOURCES[ROBOTS].0;
        match data.well_formed {
            true => {
                let (cells, moving, statuses) = fleet_peers(&mut rng, data.frame, now);
                assert!(m.set_source_peers(name, data.frame, cells, moving, statuses, now));
            }
            false => {
                let cause = sat_collision::model::Cause::InvalidSource;
                assert!(m.reject_source(name, cause, now));
            }
        }
        r.fleet = Some(data);
        m.set_footprint_shape("base", footprint.clone(), now);
        m.place(&tf, now);
        m.place_base(&tf, frames, now, &mut placed);
        let checks = MonitorChecks {
            monitor: &m,
            placed: &placed,
        };
        let out: Output = match rng.chance(0.7) {
            true => {
                let command = Command::new(
                    rng.range(-0.5, 0.5),
                    rng.range(-0.1, 0.1),
                    rng.range(-0.5, 0.5),
                );
                gate.on_command(&checks, command, now)
            }
            false => gate.on_timer(&checks, now),
        };
        let go = out.publish.is_some_and(|c| !c.is_zero());
        let context = || {
            format!(
                "seed {seed} step {step}: clock {} sources {:?} zones {} gate {:?}",
                r.clock_valid(),
                (0..SOURCES.len())
                    .map(|i| r.source_valid(i))
                    .collect::<Vec<_>>(),
                r.zones_valid(),
                out.state
            )
        };
        if go && r.gate_enabled {
            assert!(r.sources_valid(), "a go on a fault: {}", context());
            assert!(
                r.zones_valid(),
                "a go on a zone without shape: {}",
                context()
            );
            tally.go += 1;
        }
        if r.gate_enabled && !r.sources_valid() {
            assert!(!go, "{}", context());
            let health = GateHealth::of(&gate, true, None);
            let status = gate_status(&health, "/cm", "");
            assert_ne!(status.level, Level::Ok, "{}: {}", status.message, context());
            tally.stopped_for_a_fault += 1;
        }
        if !r.sources_valid() {
            let flag = m.flag(now);
            assert!(
                !flag.valid && flag.colliding,
                "flag {flag:?}: {}",
                context()
            );
        }
    }
}

#[test]
fn the_gate_never_passes_a_command_the_sources_cannot_judge() {
    let mut tally = Tally::default();
    for seed in 0..500 {
        run(seed, 170, &mut tally);
    }
    println!(
        "{} commands passed, {} checks met a fault",
        tally.go, tally.stopped_for_a_fault
    );
    assert!(tally.go > 2_000, "too few commands passed: {}", tally.go);
    assert!(
        tally.stopped_for_a_fault > 2_000,
        "too few faults met: {}",
        tally.stopped_for_a_fault
    );
}
