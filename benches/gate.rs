//! One velocity-gate cycle (`gate::Gate` on the monitor's sources) against
//! a faithful port of nav2 collision monitor's cycle, in the same run, on
//! the same inputs.
//!
//! ```bash
//! cargo bench --no-default-features --bench gate -- --noplot
//! # One case in a loop (for callgrind; no criterion; `setup` for the
//! # scene alone, to subtract):
//! GATE_REPEAT=ours_turn GATE_REPS=20 \
//!     valgrind --tool=callgrind target/release/deps/gate-<hash>
//! ```
//!
//! The configuration is `config/collision_monitor.yaml` read through the
//! node's parameter table (`config::NodeConfig::start_up`): `PolygonStop`
//! (stop, `[0, 0.3] × [-0.3, 0.3]`, 4 points), `PolygonSlow` (slowdown to
//! 0.3, `[-0.4, 0.4]²`, 4 points) and `FootprintApproach` (approach, the
//! robot's footprint, `time_before_collision` 2 s, 6 points, nav2's
//! `simulation_time_step` 0.1 s), with its one source swapped for a point
//! cloud (`pointcloud`, upstream's other source). The robot's footprint is
//! what nav2's default robot publishes on `published_footprint`: the
//! 16-gon of `robot_radius` 0.22 (`makeFootprintFromRadius`) padded by
//! `footprint_padding` 0.01 (`padFootprint`), in float32 (`Point32`);
//! ours gets it by `Gate::set_zone_shape`.
//!
//! The scene, 24,000 points (and ×10: 240,000) in the robot's base frame
//! at the cloud's stamp, 50 ms before now (the robot has moved since
//! along the first command; `base_shift_correction` carries the points to
//! now through `odom`): a 10 m × 10 m room's walls, a shelf, a table whose
//! two near legs stand beside the robot inside `PolygonSlow` (500
//! points there, none in `PolygonStop`), a box 0.9 m ahead, a person
//! (`24000_wall`: the same room with its front wall 1 m ahead instead of
//! 5 m, and no box). Both sides take the slowdown (ratio 0.3); the
//! approach zone sees the box (the wall) ahead when driving on (`turn`:
//! 0.5 m/s at 0.2 rad/s) and nothing when turning in place (`rotation`:
//! 0.5 rad/s, where nav2 steps through its whole horizon). nav2's
//! `updatePolygon` (the footprint fetched from its subscriber each cycle)
//! is left out, as ours gets its shape outside the cycle.
//!
//! Two worlds follow nav2 main (issue #34). `costmap_200`: the room (the
//! table left out) as a 200 x 200 local costmap of 5 cm cells, a `costmap`
//! source; the port is `CostmapSource::getSourceData` (every cell, an
//! obstacle's centre moved into the base frame), ours holds each obstacle
//! cell as its square, so the two may differ, ours never less cautious
//! (asserted). `24000_masked`: the room's cloud as a `PointCloud2` read
//! by the node's `SourceReader` with an exclusion zone over the table;
//! the port masks in every cycle (`ExclusionZone::apply`), ours once per
//! message as it reads it (group `exclusion_read`: the read with the zone
//! and without).
//!
//! Groups:
//! * `gate_turn`, `gate_rotation`: one cycle. `ours`:
//!   `Monitor::place_base` + `Gate::on_command` (everything a cycle does
//!   once the points are in the monitor). `nav2`: `CollisionMonitor::process`
//!   without its messages: each source's `getData` (the stamp check, the
//!   transform to the base frame now, looked up in the same `FrameTree`
//!   ours uses, and the points moved into the base frame one by one into
//!   a new vector), then every zone in order (`processStopSlowdownLimit`:
//!   `getPointsInside` over every point; `processApproach`:
//!   `getCollisionTime`).
//! * `gate_zones_turn`, `gate_zones_rotation`: each zone alone, the
//!   points already placed: ours `on_command` on a gate of that zone only
//!   (`place_base` done once outside), nav2 its `process*` on the points
//!   already in the base frame.
//!
//! Results, ratios and instruction counts: BENCHMARKS.md, "Velocity gate".

use criterion::{criterion_group, BenchmarkId, Criterion, SamplingMode};
use nalgebra::{Isometry2, Vector2};
use sat_collision::broadphase::PointSet;
use sat_collision::config::{parameters_of, NodeConfig, Value};
use sat_collision::frames::FrameTree;
use sat_collision::gate::{
    Action, Command, Gate, GateConfig, MonitorChecks, Output, ZoneConfig, ZoneShape,
};
use sat_collision::geometry::{Point, Shape, Vector};
use sat_collision::monitor::{BaseFrames, BasePlacement, Monitor, Transforms};
use sat_collision::node::ExclusionZones;
use sat_collision::node::SourceReader;
use sat_collision::sensors::{Costmap, PointCloud, PointField, DATATYPE_FLOAT32};
use sat_collision_testkit::nav2::{self, Point as Nav2Point, Velocity as Nav2Velocity};
use sat_collision_testkit::SplitMix64 as Rng;
use std::cell::RefCell;
use std::collections::HashMap;
use std::f64::consts::TAU;
use std::hint::black_box;
use std::time::Duration;

/// The cloud's size, and the scaling case's.
const CLOUD: usize = 24_000;
const BIG: usize = 240_000;
/// Where the room's front wall is: 5 m ahead, or 1 m (`wall`).
const ROOM: f64 = 5.0;
const WALL: f64 = 1.0;
/// Now, and the cloud's stamp (50 ms earlier).
const NOW: f64 = 100.0;
const STAMP: f64 = 99.95;
/// nav2's `robot_radius` (nav2_params.yaml) and costmap `footprint_padding`
/// (a float parameter: 0.01f).
const ROBOT_RADIUS: f64 = 0.22;
const FOOTPRINT_PADDING: f32 = 0.01;
/// The two commands: (x, y, w).
const TURN: (f64, f64, f64) = (0.5, 0.0, 0.2);
const ROTATION: (f64, f64, f64) = (0.0, 0.0, 0.5);
/// The cloud's source, as upstream names its point cloud source.
const SOURCE: &str = "pointcloud";
/// The local costmap's cells a side (10 m at 5 cm) and its resolution;
/// the inscribed band, in cells.
const COSTMAP: u32 = 200;
const COSTMAP_RESOLUTION: f32 = 0.05;
const INFLATED: i64 = 3;

// ---------------------------------------------------------------------------
// The configuration: config/collision_monitor.yaml as rcl reads it.

/// The node's configuration from `config/collision_monitor.yaml`, its
/// `scan` source replaced by a point cloud, and nav2's
/// `simulation_time_step` (which the node reads and ignores).
fn configuration(kind: &str) -> (NodeConfig, f64) {
    configuration_with(kind, &[])
}

/// [`configuration`] with more parameters (name, value).
fn configuration_with(kind: &str, extra: &[(&str, Value)]) -> (NodeConfig, f64) {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("config/collision_monitor.yaml");
    let yaml = std::fs::read_to_string(path).expect("config/collision_monitor.yaml");
    let mut values = parameters_of(&yaml, "collision_monitor").expect("rcl reads it");
    values.retain(|(name, _)| !name.starts_with("scan."));
    for (name, value) in &mut values {
        if name == "observation_sources" {
            *value = Value::StringArray(vec![SOURCE.to_owned()]);
        }
    }
    values.push((format!("{SOURCE}.type"), Value::String(kind.into())));
    values.push((format!("{SOURCE}.topic"), Value::String("points".into())));
    values.extend(extra.iter().map(|(n, v)| ((*n).to_owned(), v.clone())));
    let step = values
        .iter()
        .find_map(|(name, value)| match (name.as_str(), value) {
            ("FootprintApproach.simulation_time_step", Value::Double(x)) => Some(*x),
            _ => None,
        })
        .expect("simulation_time_step");
    let mut config = NodeConfig::default();
    config.start_up(&values).expect("the configuration starts");
    (config, step)
}

/// nav2's default robot's `published_footprint`: a 16-gon of
/// `robot_radius` (`makeFootprintFromRadius`), padded (`padFootprint`:
/// each vertex pushed out along x and y by the sign of its coordinate),
/// carried as float32.
fn footprint_points() -> Vec<Point> {
    let padding = f64::from(FOOTPRINT_PADDING);
    (0..16)
        .map(|i| {
            let angle = i as f64 * TAU / 16.0;
            let (x, y) = (angle.cos() * ROBOT_RADIUS, angle.sin() * ROBOT_RADIUS);
            let (x, y) = (x + nav2::sign0(x) * padding, y + nav2::sign0(y) * padding);
            Point::new(f64::from(x as f32), f64::from(y as f32))
        })
        .collect()
}

// ---------------------------------------------------------------------------
// The scene.

/// The cloud, `n` points (`CLOUD` or `BIG`: every part scaled), in the
/// robot's base frame as it was at the stamp, the room's front wall at
/// `x = front` (`ROOM`: 5 m; `WALL`: 1 m, the box left out).
fn cloud(n: usize, front: f64) -> Vec<Point> {
    let scale = n / CLOUD;
    let mut rng = Rng::new(0x6a7e);
    let mut points = Vec::with_capacity(n);
    let noise = |rng: &mut Rng| Vector::new(rng.range(-0.01, 0.01), rng.range(-0.01, 0.01));
    // Walls: 4 × 5,000 points (2 mm apart in the 10 m × 10 m room), 1 cm
    // of noise.
    let per_wall = 5_000 * scale;
    for k in 0..4 * per_wall {
        let (wall, u) = (k / per_wall, (k % per_wall) as f64 / per_wall as f64);
        let p = match wall {
            0 => Point::new(front, u * 10.0 - 5.0),
            1 => Point::new(-5.0, u * 10.0 - 5.0),
            2 => Point::new(u * (front + 5.0) - 5.0, 5.0),
            _ => Point::new(u * (front + 5.0) - 5.0, -5.0),
        };
        points.push(p + noise(&mut rng));
    }
    // A shelf along the left wall, x in [-3, 1], y in [4.4, 4.8]: 1,500.
    let shelf = 1_500 * scale;
    for k in 0..shelf {
        let t = k as f64 / shelf as f64 * 8.8;
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
    // A table to the robot's left: four legs (2 cm discs), 250 points each;
    // the two near ones, at y = 0.35, inside PolygonSlow and clear of
    // PolygonStop and of the footprint.
    let leg = 250 * scale;
    for (cx, cy) in [(-0.3, 0.35), (0.3, 0.35), (-0.3, 1.1), (0.3, 1.1)] {
        for k in 0..leg {
            let a = TAU * k as f64 / leg as f64;
            points
                .push(Point::new(cx + 0.02 * a.cos(), cy + 0.02 * a.sin()) + noise(&mut rng) * 0.1);
        }
    }
    // A box ahead, x in [0.9, 1.3], y in [-0.2, 0.2]: 500 points on its
    // outline, the side facing the robot first (not behind a near wall).
    let boxed = if front > 1.3 { 500 * scale } else { 0 };
    for k in 0..boxed {
        let t = k as f64 / boxed as f64 * 1.6;
        let p = if t < 0.4 {
            Point::new(0.9, -0.2 + t)
        } else if t < 0.8 {
            Point::new(0.9 + (t - 0.4), 0.2)
        } else if t < 1.2 {
            Point::new(1.3, 0.2 - (t - 0.8))
        } else {
            Point::new(1.3 - (t - 1.2), -0.2)
        };
        points.push(p + noise(&mut rng) * 0.1);
    }
    // A person to the right, a 0.2 m disc at (0.5, -1.5): the rest.
    while points.len() < n {
        let a = rng.range(0.0, TAU);
        points.push(Point::new(0.5 + 0.2 * a.cos(), -1.5 + 0.2 * a.sin()) + noise(&mut rng) * 0.2);
    }
    points
}

/// The robot's pose in `odom` at `t`: driving the first command (`TURN`)
/// from the origin at `NOW - 1`.
fn robot_at(t: f64) -> Isometry2<f64> {
    let (v, _, w) = TURN;
    let dt = t - (NOW - 1.0);
    let theta = w * dt;
    let r = v / w;
    Isometry2::new(
        Vector2::new(r * theta.sin(), r * (1.0 - theta.cos())),
        theta,
    )
}

/// TF: `odom → base_footprint` every 10 ms over the last second.
fn transforms(base: &str, odom: &str) -> FrameTree {
    let mut tf = FrameTree::new();
    for k in 0..=100 {
        let t = NOW - 1.0 + k as f64 * 0.01;
        tf.insert(odom, base, t, Ok(robot_at(t)), false, t)
            .expect("a transform");
    }
    tf
}

// ---------------------------------------------------------------------------
// The peer: nav2 collision monitor's cycle, ported line by line
// (collision_monitor_node.cpp `process`, `processStopSlowdownLimit`,
// `processApproach`; polygon.cpp; kinematics.cpp; pointcloud.cpp
// `getData`; source.cpp `sourceValid`, `getTransform`), on the polygon's
// algorithm in `testkit::nav2`. Its types: plain
// structs of doubles, the points in vectors, the sources' points in a map
// by name, made anew each cycle.

/// nav2's `Action`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Nav2Action<'a> {
    action_type: Action,
    req_vel: Nav2Velocity,
    polygon_name: &'a str,
}

/// nav2's `Polygon` (the parts the cycle reads): the shape and the
/// approach's parameters in `shape`, the rest here.
struct Nav2Polygon {
    name: String,
    action_type: Action,
    shape: nav2::Polygon,
    slowdown_ratio: f64,
    linear_limit: f64,
    angular_limit: f64,
    sources_names: Vec<String>,
    enabled: bool,
}

impl Nav2Polygon {
    /// `getPointsInside(sources_collision_points_map)`.
    fn get_points_inside_map(&self, map: &HashMap<String, Vec<Nav2Point>>) -> i32 {
        let mut num = 0;
        for source_name in &self.sources_names {
            if let Some(points) = map.get(source_name) {
                num += self.shape.get_points_inside(points);
            }
        }
        num
    }

    /// `getCollisionTime`: -1 when nothing is hit.
    fn get_collision_time(
        &self,
        map: &HashMap<String, Vec<Nav2Point>>,
        velocity: Nav2Velocity,
    ) -> f64 {
        let mut collision_points: Vec<Nav2Point> = Vec::new();
        for source_name in &self.sources_names {
            if let Some(points) = map.get(source_name) {
                collision_points.extend_from_slice(points);
            }
        }
        self.shape.get_collision_time(&collision_points, velocity)
    }
}

/// nav2's `PointCloud` source (what `getData` reads): the latest message's
/// points in its frame, its stamp.
struct Nav2Source {
    name: String,
    frame: String,
    stamp: f64,
    points: Vec<Nav2Point>,
    source_timeout: f64,
    enabled: bool,
    /// nav2 main's exclusion zones of the source (`exclusion_zone.cpp`):
    /// polygons in the base frame, heights unbounded; none: empty.
    exclusion: Vec<nav2::Polygon>,
}

/// nav2's `CollisionMonitor` (what `process` reads).
struct Nav2Monitor {
    sources: Vec<Nav2Source>,
    costmaps: Vec<Nav2Costmap>,
    polygons: Vec<Nav2Polygon>,
    base_frame_id: String,
    global_frame_id: String,
    transform_tolerance: f64,
    enabled: bool,
}

impl Nav2Source {
    /// `sourceValid`.
    fn source_valid(&self, curr_time: f64) -> bool {
        let dt = curr_time - self.stamp;
        !(self.source_timeout != 0.0 && dt > self.source_timeout)
    }

    /// `PointCloud::getData` (planar: the transform's 2-D part applied to
    /// each point; the height filter and range check left out, as they
    /// are left out of ours, done when the cloud was decoded).
    fn get_data(
        &self,
        monitor: &Nav2Monitor,
        tf: &FrameTree,
        curr_time: f64,
        data: &mut Vec<Nav2Point>,
    ) -> bool {
        if !self.source_valid(curr_time) {
            return false;
        }
        let Some([c, s, tx, ty]) = monitor.get_transform(tf, &self.frame, self.stamp, curr_time)
        else {
            return false;
        };
        // `Source::getData`: the source's points into a buffer of its own,
        // each exclusion zone's `apply` on it, then appended.
        let mut source_data = Vec::with_capacity(self.points.len());
        for p in &self.points {
            source_data.push(Nav2Point {
                x: c * p.x - s * p.y + tx,
                y: s * p.x + c * p.y + ty,
            });
        }
        for zone in &self.exclusion {
            // A zone in the base frame: `getZoneToBaseTransform` is the
            // identity; the height band unbounded (2-D points, z = 0).
            source_data.retain(|p| !zone.is_point_inside(p));
        }
        data.extend(source_data);
        true
    }
}

/// nav2 main's `CostmapSource` (`costmap.cpp`, what `getSourceData`
/// reads): the latest `nav2_msgs/Costmap`, its cost rule.
struct Nav2Costmap {
    name: String,
    frame: String,
    stamp: f64,
    resolution: f32,
    size_x: u32,
    size_y: u32,
    origin: (f64, f64),
    data: Vec<u8>,
    cost_threshold: u8,
    treat_unknown_as_obstacle: bool,
    source_timeout: f64,
}

impl Nav2Costmap {
    /// `getSourceData`: `sourceValid`, the transform to the base frame now
    /// (`getTransform` with `base_shift_correction`), then every cell in
    /// row-major order, an obstacle's centre moved into the base frame.
    fn get_data(
        &self,
        monitor: &Nav2Monitor,
        tf: &FrameTree,
        curr_time: f64,
        data: &mut Vec<Nav2Point>,
    ) -> bool {
        let dt = curr_time - self.stamp;
        if self.source_timeout != 0.0 && dt > self.source_timeout {
            return false;
        }
        let Some([c, s, tx, ty]) = monitor.get_transform(tf, &self.frame, self.stamp, curr_time)
        else {
            return false;
        };
        let resolution = f64::from(self.resolution);
        for y in 0..self.size_y {
            for x in 0..self.size_x {
                let cost = self.data[(y * self.size_x + x) as usize];
                let is_obstacle = (cost >= self.cost_threshold && cost < 255)
                    || (self.treat_unknown_as_obstacle && cost == 255);
                if is_obstacle {
                    let wx = self.origin.0 + (f64::from(x) + 0.5) * resolution;
                    let wy = self.origin.1 + (f64::from(y) + 0.5) * resolution;
                    data.push(Nav2Point {
                        x: c * wx - s * wy + tx,
                        y: s * wx + c * wy + ty,
                    });
                }
            }
        }
        true
    }
}

impl Nav2Monitor {
    /// `Source::getTransform` with `base_shift_correction`: tf2's
    /// `lookupTransform(base, curr_time, frame, stamp, global frame)`, as
    /// the cosine and sine of its angle and its translation; `None` when a
    /// lookup fails.
    fn get_transform(
        &self,
        tf: &FrameTree,
        frame: &str,
        stamp: f64,
        curr_time: f64,
    ) -> Option<[f64; 4]> {
        let tolerance = self.transform_tolerance;
        let (base, global) = (&self.base_frame_id, &self.global_frame_id);
        let base_in_global =
            Transforms::lookup(tf, base, global, 0.0, curr_time, tolerance).ok()?;
        let global_in_source =
            Transforms::lookup(tf, global, frame, stamp, curr_time, tolerance).ok()?;
        let t = base_in_global * global_in_source;
        let (c, s) = (t.rotation.cos_angle(), t.rotation.sin_angle());
        Some([c, s, t.translation.x, t.translation.y])
    }

    /// `process`, without the messages: the action it publishes.
    fn process(&self, tf: &FrameTree, cmd_vel_in: Nav2Velocity, curr_time: f64) -> Nav2Action<'_> {
        let mut map: HashMap<String, Vec<Nav2Point>> = HashMap::new();
        let mut robot_action = Nav2Action {
            action_type: Action::DoNothing,
            req_vel: cmd_vel_in,
            polygon_name: "",
        };
        for source in &self.sources {
            let data = map.entry(source.name.clone()).or_default();
            if source.enabled
                && !source.get_data(self, tf, curr_time, data)
                && source.source_timeout != 0.0
            {
                robot_action = Nav2Action {
                    action_type: Action::Stop,
                    req_vel: Nav2Velocity {
                        x: 0.0,
                        y: 0.0,
                        tw: 0.0,
                    },
                    polygon_name: "invalid source",
                };
                break;
            }
        }
        let sources_valid = robot_action.action_type == Action::DoNothing;
        for source in self.costmaps.iter().filter(|_| sources_valid) {
            let data = map.entry(source.name.clone()).or_default();
            if !source.get_data(self, tf, curr_time, data) && source.source_timeout != 0.0 {
                robot_action = Nav2Action {
                    action_type: Action::Stop,
                    req_vel: Nav2Velocity {
                        x: 0.0,
                        y: 0.0,
                        tw: 0.0,
                    },
                    polygon_name: "invalid source",
                };
                break;
            }
        }
        self.zones(&map, cmd_vel_in, &mut robot_action, &self.polygons);
        robot_action
    }

    /// `process`'s loop over the polygons.
    fn zones<'a>(
        &self,
        map: &HashMap<String, Vec<Nav2Point>>,
        cmd_vel_in: Nav2Velocity,
        robot_action: &mut Nav2Action<'a>,
        polygons: &'a [Nav2Polygon],
    ) {
        for polygon in polygons {
            if !polygon.enabled || !self.enabled {
                continue;
            }
            if robot_action.action_type == Action::Stop {
                break;
            }
            match polygon.action_type {
                Action::Stop | Action::Slowdown | Action::Limit => {
                    process_stop_slowdown_limit(polygon, map, cmd_vel_in, robot_action);
                }
                Action::Approach => {
                    process_approach(polygon, map, cmd_vel_in, robot_action);
                }
                Action::DoNothing => {}
            }
        }
    }
}

/// `processStopSlowdownLimit`.
fn process_stop_slowdown_limit<'a>(
    polygon: &'a Nav2Polygon,
    map: &HashMap<String, Vec<Nav2Point>>,
    velocity: Nav2Velocity,
    robot_action: &mut Nav2Action<'a>,
) -> bool {
    if !polygon.shape.is_shape_set() {
        return false;
    }
    if polygon.get_points_inside_map(map) >= polygon.shape.min_points {
        let safe_vel = match polygon.action_type {
            Action::Stop => {
                *robot_action = Nav2Action {
                    action_type: Action::Stop,
                    req_vel: velocity.times(0.0),
                    polygon_name: &polygon.name,
                };
                return true;
            }
            Action::Slowdown => velocity.times(polygon.slowdown_ratio),
            _ => {
                let linear_vel = velocity.x.hypot(velocity.y);
                let mut ratio: f64 = 1.0;
                if linear_vel != 0.0 {
                    ratio = ratio.min(polygon.linear_limit / linear_vel);
                }
                if velocity.tw != 0.0 {
                    ratio = ratio.min(polygon.angular_limit / velocity.tw.abs());
                }
                velocity.times(ratio.clamp(0.0, 1.0))
            }
        };
        if safe_vel.less(&robot_action.req_vel) {
            *robot_action = Nav2Action {
                action_type: polygon.action_type,
                req_vel: safe_vel,
                polygon_name: &polygon.name,
            };
            return true;
        }
    }
    false
}

/// `processApproach`.
fn process_approach<'a>(
    polygon: &'a Nav2Polygon,
    map: &HashMap<String, Vec<Nav2Point>>,
    velocity: Nav2Velocity,
    robot_action: &mut Nav2Action<'a>,
) -> bool {
    if !polygon.shape.is_shape_set() {
        return false;
    }
    let collision_time = polygon.get_collision_time(map, velocity);
    if collision_time >= 0.0 {
        let change_ratio = collision_time / polygon.shape.time_before_collision;
        let safe_vel = velocity.times(change_ratio);
        if safe_vel.less(&robot_action.req_vel) {
            *robot_action = Nav2Action {
                action_type: Action::Approach,
                req_vel: safe_vel,
                polygon_name: &polygon.name,
            };
            return true;
        }
    }
    false
}

fn nav2_points(points: &[Point]) -> Vec<Nav2Point> {
    points
        .iter()
        .map(|p| Nav2Point { x: p.x, y: p.y })
        .collect()
}

/// nav2's polygon for a zone of the configuration (a dynamic zone gets the
/// footprint, as `updatePolygon` gets it from `footprint_topic`).
fn nav2_polygon(zone: &ZoneConfig, footprint: &[Point], step: f64) -> Nav2Polygon {
    let points = match &zone.shape {
        ZoneShape::Polygon(points) => points.as_slice(),
        ZoneShape::Dynamic { circle: false } => footprint,
        other => panic!("the bench has no {other:?}"),
    };
    Nav2Polygon {
        name: zone.name.clone(),
        action_type: zone.action,
        shape: nav2::Polygon {
            poly: nav2_points(points),
            min_points: i32::try_from(zone.min_points).expect("min_points"),
            time_before_collision: zone.time_before_collision,
            simulation_time_step: step,
        },
        slowdown_ratio: zone.slowdown_ratio,
        linear_limit: zone.linear_limit,
        angular_limit: zone.angular_limit,
        sources_names: vec![SOURCE.to_owned()],
        enabled: zone.enabled,
    }
}

// ---------------------------------------------------------------------------

/// One cloud's world: the monitor holding it (ours), nav2's monitor
/// holding it (the peer), the TF both look up.
struct World {
    /// The points, and `_wall` when the front wall is near.
    name: String,
    monitor: Monitor,
    nav2: Nav2Monitor,
    tf: FrameTree,
}

struct Scene {
    gate_config: GateConfig,
    footprint: Shape,
    /// 24,000 and 240,000 points in the room; 24,000 facing a wall; the
    /// room as a 200 x 200 local costmap; 24,000 points with the table
    /// masked by an exclusion zone.
    worlds: [World; 5],
    /// The masked world's cloud as a message, and its readers.
    masked: Masked,
    readers: RefCell<Readers>,
}

impl Scene {
    fn frames(&self) -> BaseFrames<'_> {
        let gate = &self.gate_config;
        BaseFrames {
            base: &gate.base_frame,
            fixed: gate
                .base_shift_correction
                .then_some(gate.odom_frame.as_str()),
        }
    }

    /// Our gate of the configuration's zones (`only`: that zone alone),
    /// the approach zone's shape set to the footprint.
    fn gate(&self, only: Option<usize>) -> Gate {
        let mut config = self.gate_config.clone();
        if let Some(i) = only {
            config.zones = vec![config.zones[i].clone()];
        }
        let dynamic: Vec<usize> = config
            .zones
            .iter()
            .enumerate()
            .filter(|(_, z)| matches!(z.shape, ZoneShape::Dynamic { .. }))
            .map(|(i, _)| i)
            .collect();
        let mut gate = Gate::new(config).expect("the zones");
        for i in dynamic {
            assert!(gate.set_zone_shape(i, self.footprint.clone()));
        }
        gate
    }
}

/// The local costmap of the room (`COSTMAP` cells a side, 5 cm, in
/// `odom`, centred on the robot at the stamp, as nav2's rolling window):
/// the cloud's points but the table's (whose near legs would stop both
/// gates at once) as lethal cells (254), each grown by `INFLATED` cells of
/// inscribed cost (253, an obstacle at nav2's default threshold) and then
/// by as many of a lower cost (128, free at that threshold).
fn costmap_data(size: u32) -> (Vec<u8>, (f64, f64)) {
    let at_stamp = robot_at(STAMP);
    let origin = (
        at_stamp.translation.x - f64::from(size) * COSTMAP_RESOLUTION as f64 / 2.0,
        at_stamp.translation.y - f64::from(size) * COSTMAP_RESOLUTION as f64 / 2.0,
    );
    let resolution = f64::from(COSTMAP_RESOLUTION);
    let mut data = vec![0u8; (size * size) as usize];
    let table = |p: &Point| p.x.abs() < 0.5 && p.y > 0.2 && p.y < 1.3;
    let mut lethal = Vec::new();
    for p in cloud(CLOUD, ROOM).iter().filter(|p| !table(p)) {
        let q = at_stamp * p;
        let (i, j) = ((q.x - origin.0) / resolution, (q.y - origin.1) / resolution);
        if i >= 0.0 && j >= 0.0 && i < f64::from(size) && j < f64::from(size) {
            lethal.push((i as i64, j as i64));
        }
    }
    let grow = 2 * INFLATED;
    for &(i, j) in &lethal {
        for dj in -grow..=grow {
            for di in -grow..=grow {
                let (x, y) = (i + di, j + dj);
                if x < 0 || y < 0 || x >= i64::from(size) || y >= i64::from(size) {
                    continue;
                }
                let ring = di.abs().max(dj.abs());
                let cost = match ring {
                    0 => 254,
                    r if r <= INFLATED => 253,
                    _ => 128,
                };
                let cell = &mut data[(y * i64::from(size) + x) as usize];
                *cell = (*cell).max(cost);
            }
        }
    }
    (data, origin)
}

fn scene() -> Scene {
    let (config, step) = configuration("pointcloud");
    let footprint_points = footprint_points();
    let footprint = Shape::polygon(&footprint_points).expect("the footprint");
    let gate_config = config.gate.clone();
    let world = |n: usize, front: f64| {
        let points = cloud(n, front);
        let mut set = PointSet::with_capacity(n);
        for &p in &points {
            assert!(set.push(p));
        }
        let mut monitor = Monitor::new(config.monitor.clone());
        assert!(monitor.set_source_points(SOURCE, &gate_config.base_frame, STAMP, set, NOW));
        let source = config.source(SOURCE).expect("the source");
        let nav2 = Nav2Monitor {
            sources: vec![Nav2Source {
                name: SOURCE.to_owned(),
                frame: gate_config.base_frame.clone(),
                stamp: STAMP,
                points: nav2_points(&points),
                source_timeout: source.spec().timeout,
                enabled: true,
                exclusion: Vec::new(),
            }],
            costmaps: Vec::new(),
            polygons: gate_config
                .zones
                .iter()
                .map(|z| nav2_polygon(z, &footprint_points, step))
                .collect(),
            base_frame_id: gate_config.base_frame.clone(),
            global_frame_id: gate_config.odom_frame.clone(),
            transform_tolerance: config.monitor.transform_tolerance,
            enabled: gate_config.enabled,
        };
        World {
            name: match front < ROOM {
                true => format!("{n}_wall"),
                false => n.to_string(),
            },
            monitor,
            nav2,
            tf: transforms(&gate_config.base_frame, &gate_config.odom_frame),
        }
    };
    let costmap_world = {
        let (costmap_config, _) = configuration("costmap");
        let source = costmap_config.source(SOURCE).expect("the source");
        let (data, origin) = costmap_data(COSTMAP);
        let mut reader = SourceReader::all(&costmap_config).remove(0);
        let map = Costmap {
            resolution: COSTMAP_RESOLUTION,
            size_x: COSTMAP,
            size_y: COSTMAP,
            origin: [origin.0, origin.1],
            orientation: [0.0, 0.0, 0.0, 1.0],
            data: &data,
        };
        let odom = &gate_config.odom_frame;
        let tf0 = transforms(&gate_config.base_frame, odom);
        let cells = reader
            .costmap(odom, STAMP, &map, || &tf0, NOW, PointSet::new())
            .cells
            .expect("the costmap's cells");
        let mut monitor = Monitor::new(costmap_config.monitor.clone());
        assert!(monitor.set_source_cells(SOURCE, odom, STAMP, cells, NOW));
        let mut nav2 = world(0, ROOM).nav2;
        nav2.sources.clear();
        nav2.costmaps.push(Nav2Costmap {
            name: SOURCE.to_owned(),
            frame: odom.clone(),
            stamp: STAMP,
            resolution: COSTMAP_RESOLUTION,
            size_x: COSTMAP,
            size_y: COSTMAP,
            origin,
            data,
            cost_threshold: source.cost_threshold,
            treat_unknown_as_obstacle: source.treat_unknown_as_obstacle,
            source_timeout: source.spec().timeout,
        });
        World {
            name: format!("costmap_{COSTMAP}"),
            monitor,
            nav2,
            tf: transforms(&gate_config.base_frame, odom),
        }
    };
    let (masked, readers, masked_world) = masked_world(&gate_config, &footprint_points, step);
    Scene {
        footprint,
        worlds: [
            world(CLOUD, ROOM),
            world(BIG, ROOM),
            world(CLOUD, WALL),
            costmap_world,
            masked_world,
        ],
        gate_config,
        masked,
        readers: RefCell::new(readers),
    }
}

/// The exclusion zone of the masked world (nav2 main's parameters): a
/// polygon about the table, in the base frame, enabled.
const DOCK: &str = "[[-0.5, 0.2], [0.5, 0.2], [0.5, 1.3], [-0.5, 1.3]]";

/// The masked world's message and reader: the 24,000-point cloud as a
/// `sensor_msgs/PointCloud2` (x, y, z float32, z 0.2 m: within the height
/// band), in the base frame at the stamp, and the source's reader with
/// the zone.
struct Masked {
    data: Vec<u8>,
    fields: [PointField<'static>; 3],
}

/// The masked world's source read with its zone, and without (what
/// masking adds).
struct Readers {
    masking: SourceReader,
    plain: SourceReader,
}

impl Masked {
    fn cloud(&self) -> PointCloud<'_> {
        PointCloud {
            height: 1,
            width: (self.data.len() / 12) as u32,
            fields: &self.fields,
            is_bigendian: false,
            point_step: 12,
            row_step: self.data.len() as u32,
            data: &self.data,
        }
    }
}

/// Reads the masked world's cloud as the node does when it arrives: the
/// points decoded, moved (here: already in the base frame) and, with the
/// zone, masked; their number.
fn read_masked(reader: &mut SourceReader, masked: &Masked, tf: &FrameTree, base: &str) -> usize {
    let cloud = masked.cloud();
    let input = reader.cloud(
        base,
        STAMP,
        &cloud,
        || tf,
        NOW,
        PointSet::with_capacity(CLOUD),
    );
    input.points.map_or(0, |p| p.len())
}

fn masked_world(
    gate_config: &GateConfig,
    footprint: &[Point],
    step: f64,
) -> (Masked, Readers, World) {
    let extra = [
        (
            "pointcloud.exclusion_zones",
            Value::StringArray(vec!["dock".to_owned()]),
        ),
        ("dock.type", Value::String("polygon".into())),
        ("dock.points", Value::String(DOCK.into())),
        ("dock.enabled", Value::Bool(true)),
    ];
    let (config, _) = configuration_with("pointcloud", &extra);
    let (plain_config, _) = configuration("pointcloud");
    let zones = ExclusionZones::new(&config);
    let points = cloud(CLOUD, ROOM);
    let mut data = Vec::with_capacity(points.len() * 12);
    for p in &points {
        for v in [p.x as f32, p.y as f32, 0.2f32] {
            data.extend_from_slice(&v.to_le_bytes());
        }
    }
    let field = |name: &'static str, offset| PointField {
        name: name.as_bytes(),
        offset,
        datatype: DATATYPE_FLOAT32,
        count: 1,
    };
    let masked = Masked {
        data,
        fields: [field("x", 0), field("y", 4), field("z", 8)],
    };
    let mut readers = Readers {
        masking: SourceReader::all(&config).remove(0).with_zones(&zones),
        plain: SourceReader::all(&plain_config).remove(0),
    };
    let base = &gate_config.base_frame;
    let tf = transforms(base, &gate_config.odom_frame);
    let cloud = masked.cloud();
    let input = readers
        .masking
        .cloud(base, STAMP, &cloud, || &tf, NOW, PointSet::new());
    let set = input.points.expect("the cloud is read");
    // The points as the message carries them (float32), for both sides.
    let read: Vec<Point> = masked
        .data
        .chunks_exact(12)
        .map(|c| {
            let f = |k: usize| f64::from(f32::from_le_bytes([c[k], c[k + 1], c[k + 2], c[k + 3]]));
            Point::new(f(0), f(4))
        })
        .collect();
    let mut monitor = Monitor::new(config.monitor.clone());
    assert!(monitor.set_source_points(SOURCE, base, STAMP, set, NOW));
    let source = config.source(SOURCE).expect("the source");
    let dock = nav2::Polygon {
        poly: nav2_points(&zones_points(DOCK)),
        min_points: 0,
        time_before_collision: 0.0,
        simulation_time_step: step,
    };
    let nav2 = Nav2Monitor {
        sources: vec![Nav2Source {
            name: SOURCE.to_owned(),
            frame: base.clone(),
            stamp: STAMP,
            points: nav2_points(&read),
            source_timeout: source.spec().timeout,
            enabled: true,
            exclusion: vec![dock],
        }],
        costmaps: Vec::new(),
        polygons: gate_config
            .zones
            .iter()
            .map(|z| nav2_polygon(z, footprint, step))
            .collect(),
        base_frame_id: base.clone(),
        global_frame_id: gate_config.odom_frame.clone(),
        transform_tolerance: config.monitor.transform_tolerance,
        enabled: gate_config.enabled,
    };
    let world = World {
        name: format!("{CLOUD}_masked"),
        monitor,
        nav2,
        tf,
    };
    (masked, readers, world)
}

/// A nav2 points string's vertices.
fn zones_points(text: &str) -> Vec<Point> {
    let values: Vec<f64> = text
        .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().expect("a number"))
        .collect();
    values
        .chunks_exact(2)
        .map(|xy| Point::new(xy[0], xy[1]))
        .collect()
}

fn command((x, y, w): (f64, f64, f64)) -> Command {
    Command::new(x, y, w)
}

fn nav2_velocity((x, y, tw): (f64, f64, f64)) -> Nav2Velocity {
    Nav2Velocity { x, y, tw }
}

/// Ours: one cycle.
fn ours_cycle(
    s: &Scene,
    w: &World,
    gate: &mut Gate,
    placed: &mut BasePlacement,
    command: Command,
) -> Output {
    w.monitor.place_base(&w.tf, s.frames(), NOW, placed);
    let checks = MonitorChecks {
        monitor: &w.monitor,
        placed,
    };
    gate.on_command(&checks, command, NOW)
}

/// nav2's points in the base frame now, by source (what `process` builds
/// before its zones), for the zones alone.
fn nav2_map(w: &World) -> HashMap<String, Vec<Nav2Point>> {
    let mut map = HashMap::new();
    for source in &w.nav2.sources {
        let data = map.entry(source.name.clone()).or_default();
        assert!(source.get_data(&w.nav2, &w.tf, NOW, data));
    }
    for source in &w.nav2.costmaps {
        let data = map.entry(source.name.clone()).or_default();
        assert!(source.get_data(&w.nav2, &w.tf, NOW, data));
    }
    map
}

/// Whether ours and nav2 read the same obstacles (points), so that their
/// answers must agree exactly; a costmap's cells are squares here and
/// their centres in nav2 (ours then never less cautious).
fn exact(w: &World) -> bool {
    w.nav2.costmaps.is_empty()
}

/// Checks the answers before anything is timed, and prints them.
fn check(s: &Scene) {
    for w in &s.worlds {
        let n = &w.name;
        let mut placed = BasePlacement::default();
        w.monitor.place_base(&w.tf, s.frames(), NOW, &mut placed);
        assert_eq!(placed.fault(), None);
        let map = nav2_map(w);
        // Each zone's points inside: ours counted to the end, nav2's.
        for (zone, polygon) in s.gate_config.zones.iter().zip(&w.nav2.polygons) {
            let shape = match &zone.shape {
                ZoneShape::Polygon(points) => Shape::polygon(points).expect("a zone"),
                _ => s.footprint.clone(),
            };
            let ours = w
                .monitor
                .region_points_inside(&placed, &shape, &zone.sources, usize::MAX);
            let theirs = polygon.get_points_inside_map(&map);
            // A costmap's cells are squares here, centres in nav2: every
            // cell whose centre is inside is counted, and those reaching in.
            match exact(w) {
                true => assert_eq!(ours as i64, i64::from(theirs), "{}", zone.name),
                false => assert!(ours as i64 >= i64::from(theirs), "{}", zone.name),
            }
            eprintln!("{n} points: {} holds {ours} (nav2: {theirs})", zone.name);
        }
        for (name, twist) in [("turn", TURN), ("rotation", ROTATION)] {
            let mut gate = s.gate(None);
            let ours = ours_cycle(s, w, &mut gate, &mut placed, command(twist));
            let theirs = w.nav2.process(&w.tf, nav2_velocity(twist), NOW);
            let published = ours.publish.expect("a command");
            let wanted = theirs.req_vel;
            if exact(w) {
                assert_eq!(ours.state.action, theirs.action_type, "{name}");
                assert_eq!(
                    gate.state_name(&ours.state),
                    theirs.polygon_name,
                    "{name}: the deciding zone"
                );
                if ours.state.action == Action::Approach {
                    // nav2 slows by the start of the first 0.1 s step that
                    // holds the points, up to one step early: ours is the
                    // exact contact, within that step's ratio of nav2's.
                    let (v, _, _) = twist;
                    let (ours_ratio, theirs_ratio) = (published.x / v, wanted.x / v);
                    let step = w.nav2.polygons[0].shape.simulation_time_step;
                    let window = step / 2.0; // time_before_collision: 2 s
                    assert!(
                        ours_ratio >= theirs_ratio - 1e-12
                            && ours_ratio <= theirs_ratio + window + 1e-12,
                        "{name}: {published:?} against {wanted:?}"
                    );
                } else {
                    assert!(
                        (published.x - wanted.x).abs() <= 1e-12
                            && (published.y - wanted.y).abs() <= 1e-12
                            && (published.w - wanted.tw).abs() <= 1e-12,
                        "{name}: {published:?} against {wanted:?}"
                    );
                }
            } else {
                // Never faster than nav2's answer on the cells' centres.
                assert!(
                    published.x.abs() <= wanted.x.abs() + 1e-12
                        && published.w.abs() <= wanted.tw.abs() + 1e-12,
                    "{name}: {published:?} against {wanted:?}"
                );
            }
            // The approach zone alone: its contact time and ratio.
            let approach = s
                .gate_config
                .zones
                .iter()
                .position(|z| z.action == Action::Approach)
                .expect("an approach zone");
            let zone = &s.gate_config.zones[approach];
            let (v, _, omega) = twist;
            let contact = w.monitor.region_contact(
                &placed,
                &s.footprint,
                &zone.sources,
                Vector::new(v, 0.0),
                omega,
                zone.time_before_collision,
                zone.min_points,
            );
            let nav2_time =
                w.nav2.polygons[approach].get_collision_time(&map, nav2_velocity(twist));
            // nav2 answers the start of the first step whose end pose holds
            // `min_points`: the exact time lies within that step.
            let step = w.nav2.polygons[approach].shape.simulation_time_step;
            match contact {
                Some(t) => assert!(
                    (t >= nav2_time || !exact(w)) && t <= nav2_time + step
                        || !exact(w) && nav2_time < 0.0,
                    "{name}: {t} against nav2's {nav2_time}"
                ),
                None => assert_eq!(nav2_time, -1.0, "{name}"),
            }
            let mut alone = s.gate(Some(approach));
            let out = ours_cycle(s, w, &mut alone, &mut placed, command(twist));
            let mut nav2_action = Nav2Action {
                action_type: Action::DoNothing,
                req_vel: nav2_velocity(twist),
                polygon_name: "",
            };
            process_approach(
                &w.nav2.polygons[approach],
                &map,
                nav2_velocity(twist),
                &mut nav2_action,
            );
            eprintln!(
                "{n} points, {name}: both {} by {} to {:?}; approach alone: ours contact {:?} s, \
                 ratio {:.4} ({}), nav2 {nav2_time:.1} s, ratio {:.4} ({})",
                ours.state.action.as_str(),
                theirs.polygon_name,
                wanted,
                contact,
                out.ratio,
                out.state.action.as_str(),
                nav2_action.req_vel.x.hypot(nav2_action.req_vel.tw) / v.hypot(omega),
                nav2_action.action_type.as_str(),
            );
        }
    }
}

/// The zones' indices: stop, slowdown, approach.
fn zone_names(s: &Scene) -> Vec<(usize, &'static str)> {
    s.gate_config
        .zones
        .iter()
        .enumerate()
        .map(|(i, z)| {
            let name = match z.action {
                Action::Stop => "stop",
                Action::Slowdown => "slowdown",
                Action::Approach => "approach",
                Action::Limit => "limit",
                Action::DoNothing => "none",
            };
            (i, name)
        })
        .collect()
}

fn bench_gate(c: &mut Criterion) {
    let s = scene();
    check(&s);
    let configure = |group: &mut criterion::BenchmarkGroup<'_, _>| {
        group
            .sample_size(20)
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(2))
            .sampling_mode(SamplingMode::Flat);
    };
    let mut placed = BasePlacement::default();

    for (name, twist) in [("gate_turn", TURN), ("gate_rotation", ROTATION)] {
        let mut group = c.benchmark_group(name);
        configure(&mut group);
        for w in &s.worlds {
            let n = &w.name;
            let mut gate = s.gate(None);
            group.bench_function(BenchmarkId::new("ours", n), |b| {
                b.iter(|| black_box(ours_cycle(&s, w, &mut gate, &mut placed, command(twist))))
            });
            group.bench_function(BenchmarkId::new("nav2", n), |b| {
                b.iter(|| {
                    black_box(
                        w.nav2
                            .process(&w.tf, black_box(nav2_velocity(twist)), NOW)
                            .req_vel,
                    )
                })
            });
        }
        group.finish();
    }

    // The masked cloud read as it arrives: ours masks once per message
    // (the cycles above take the points already masked); nav2's port masks
    // inside every cycle (`gate_*/nav2/24000_masked`).
    {
        let base = s.gate_config.base_frame.clone();
        let tf = transforms(&base, &s.gate_config.odom_frame);
        let (masked, mut readers) = (&s.masked, s.readers.borrow_mut());
        let mut group = c.benchmark_group("exclusion_read");
        configure(&mut group);
        group.bench_function("ours_masked", |b| {
            b.iter(|| black_box(read_masked(&mut readers.masking, masked, &tf, &base)))
        });
        group.bench_function("ours_unmasked", |b| {
            b.iter(|| black_box(read_masked(&mut readers.plain, masked, &tf, &base)))
        });
        group.finish();
    }

    // Each zone alone, on the points already placed.
    let w = &s.worlds[0];
    w.monitor.place_base(&w.tf, s.frames(), NOW, &mut placed);
    let map = nav2_map(w);
    for (name, twist) in [("gate_zones_turn", TURN), ("gate_zones_rotation", ROTATION)] {
        let mut group = c.benchmark_group(name);
        configure(&mut group);
        for (i, zone) in zone_names(&s) {
            let mut gate = s.gate(Some(i));
            let checks = MonitorChecks {
                monitor: &w.monitor,
                placed: &placed,
            };
            group.bench_function(BenchmarkId::new("ours", zone), |b| {
                b.iter(|| black_box(gate.on_command(&checks, command(twist), NOW)))
            });
            let polygons = std::slice::from_ref(&w.nav2.polygons[i]);
            group.bench_function(BenchmarkId::new("nav2", zone), |b| {
                b.iter(|| {
                    let velocity = nav2_velocity(twist);
                    let mut action = Nav2Action {
                        action_type: Action::DoNothing,
                        req_vel: velocity,
                        polygon_name: "",
                    };
                    w.nav2
                        .zones(&map, black_box(velocity), &mut action, polygons);
                    black_box(action.req_vel)
                })
            });
        }
        group.finish();
    }
}

/// `GATE_REPEAT=<case>`: that case only, `GATE_REPS` times (default 100),
/// for instruction counts. Cases: `ours_turn`, `nav2_turn`,
/// `ours_rotation`, `nav2_rotation` (24,000 points), the same with
/// `_big` (240,000 points), `_wall` (24,000 points, a wall 1 m ahead),
/// `_costmap` (the 200 x 200 local costmap) or `_masked` (24,000 points,
/// the table masked by an exclusion zone); `read_masked`,
/// `read_plain_masked` (the masked world's cloud read with its zone and
/// without);
/// and `setup` (none: the cost of building the scene).
fn repeat(which: &str) {
    let reps: usize = std::env::var("GATE_REPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100);
    let s = scene();
    let (case, w) = if let Some(case) = which.strip_suffix("_big") {
        (case, &s.worlds[1])
    } else if let Some(case) = which.strip_suffix("_costmap") {
        (case, &s.worlds[3])
    } else if let Some(case) = which.strip_suffix("_masked") {
        (case, &s.worlds[4])
    } else if let Some(case) = which.strip_suffix("_wall") {
        (case, &s.worlds[2])
    } else {
        (which, &s.worlds[0])
    };
    let mut gate = s.gate(None);
    let mut placed = BasePlacement::default();
    let mut sink = 0.0;
    let base = s.gate_config.base_frame.clone();
    let tf = transforms(&base, &s.gate_config.odom_frame);
    let mut readers = s.readers.borrow_mut();
    for _ in 0..reps {
        sink += match case {
            "setup" => 0.0,
            "read" => read_masked(&mut readers.masking, &s.masked, &tf, &base) as f64,
            "read_plain" => read_masked(&mut readers.plain, &s.masked, &tf, &base) as f64,
            "ours_turn" => ours_cycle(&s, w, &mut gate, &mut placed, command(TURN)).ratio,
            "ours_rotation" => ours_cycle(&s, w, &mut gate, &mut placed, command(ROTATION)).ratio,
            "nav2_turn" => {
                w.nav2
                    .process(&w.tf, black_box(nav2_velocity(TURN)), NOW)
                    .req_vel
                    .x
            }
            "nav2_rotation" => {
                w.nav2
                    .process(&w.tf, black_box(nav2_velocity(ROTATION)), NOW)
                    .req_vel
                    .tw
            }
            other => panic!("unknown GATE_REPEAT={other}"),
        };
    }
    eprintln!("{which}: {reps} cycles, sum {sink}");
}

criterion_group! {
    name = benches;
    config = Criterion::default().nresamples(2_000).without_plots();
    targets = bench_gate
}

fn main() {
    if let Ok(which) = std::env::var("GATE_REPEAT") {
        repeat(&which);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
