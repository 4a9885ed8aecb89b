//! `--cloud`: the point clouds sent to the node's `pointcloud` source and
//! the flag each must be answered with, the node's parameters for it, and
//! what the node computes per cloud before the flag, timed here.
//!
//! A cloud is what a depth camera on the robot sees of a room, in
//! `base_link`: x, y, z, intensity as float32 (16-byte points, dense, one
//! row). About 40 % of the points lie on the floor (z within ±2 cm: below
//! `min_height`, removed by height), the rest on the four walls (2 to 4.5 m
//! away) from the floor up to 2.5 m (a fifth of them within the height
//! band: kept, far from the robot). The colliding cloud has 8 of its points,
//! in the middle of the cloud (as a camera's rows would order them), on a
//! small object inside the robot's octagon (z 0.1–0.4 m); the clear one
//! has those 8 on a wall: both have the same size and layout, and about the
//! same number of kept points.

use crate::Res;
use r2r::sensor_msgs::msg::{PointCloud2, PointField};
use r2r::std_msgs::msg::Header;
use sat_collision::config::{NodeConfig, Value};
use sat_collision::frames::FrameTree;
use sat_collision::monitor::Monitor;
use sat_collision::sensors::{self, CloudFilter};
use sat_collision_testkit::SplitMix64;
use std::f64::consts::TAU;
use std::time::Instant;

/// The robot frame, the clouds' frame and `base_frame`.
pub const BASE: &str = "base_link";
/// The source's name in `observation_sources`.
pub const SOURCE: &str = "camera";
/// Points of the colliding cloud inside the robot.
const INSIDE: usize = 8;
/// Fewest points a cloud may have: the 8 inside and a room.
pub const MIN_POINTS: usize = 64;
/// `sensor_msgs/PointField` FLOAT32.
const FLOAT32: u8 = 7;
/// Bytes per point: x, y, z, intensity.
const POINT_STEP: u32 = 16;
/// The room's walls around the robot (x0, y0, x1, y1), base_link.
const ROOM: (f64, f64, f64, f64) = (-3.5, -3.0, 4.5, 2.0);

/// The robot: a regular octagon of circumradius 0.3 m.
pub fn octagon() -> Vec<(f64, f64)> {
    (0..8)
        .map(|k| {
            let t = (k as f64 + 0.5) * TAU / 8.0;
            (0.3 * t.cos(), 0.3 * t.sin())
        })
        .collect()
}

/// The node's parameters for a cloud source on `topic`, as name and value:
/// the robot's shape from `robot_footprint` in `base_frame` (so no
/// footprint topic), one `pointcloud` source with nav2's defaults
/// otherwise (heights 0.05–0.5 m), never stale (the client drives another
/// process between blocks).
pub fn node_values(topic: &str) -> Vec<(String, Value)> {
    let footprint: Vec<String> = octagon()
        .iter()
        .map(|(x, y)| format!("[{x:.6},{y:.6}]"))
        .collect();
    let text = |s: &str| Value::String(s.to_owned());
    vec![
        ("base_frame".into(), text(BASE)),
        (
            "robot_footprint".into(),
            text(&format!("[{}]", footprint.join(","))),
        ),
        ("source_timeout".into(), Value::Double(0.0)),
        (
            "observation_sources".into(),
            Value::StringArray(vec![SOURCE.into()]),
        ),
        (format!("{SOURCE}.type"), text("pointcloud")),
        (format!("{SOURCE}.topic"), text(topic)),
    ]
}

/// [`node_values`] as `-p` arguments (`name:=YAML`).
pub fn node_params(values: &[(String, Value)]) -> Vec<String> {
    values
        .iter()
        .map(|(name, value)| match value {
            Value::String(s) if s.starts_with('[') => format!("{name}:=\"{s}\""),
            Value::String(s) => format!("{name}:={s}"),
            Value::Double(x) => format!("{name}:={x:?}"),
            Value::StringArray(list) => format!("{name}:=[{}]", list.join(",")),
            other => unreachable!("no such parameter here: {other:?}"),
        })
        .collect()
}

/// One cloud: `n` points of the room, with [`INSIDE`] of them inside the
/// robot when `colliding`. Unstamped (the client stamps it when it sends).
pub fn room_cloud(n: usize, colliding: bool) -> PointCloud2 {
    let mut rng = SplitMix64(0xC10D_0000 ^ n as u64);
    let (x0, y0, x1, y1) = ROOM;
    let (w, h) = (x1 - x0, y1 - y0);
    let mut data = Vec::with_capacity(n * POINT_STEP as usize);
    let mut push = |x: f64, y: f64, z: f64, intensity: f64| {
        for v in [x, y, z, intensity] {
            data.extend_from_slice(&(v as f32).to_le_bytes());
        }
    };
    let wall = |rng: &mut SplitMix64, z: f64| -> (f64, f64, f64) {
        // A point along the walls' outline, uniform by length: the
        // south, east, north and west walls in turn.
        let s = rng.range(0.0, 2.0 * (w + h));
        let (x, y) = match s {
            s if s < w => (x0 + s, y0),
            s if s < w + h => (x1, y0 + (s - w)),
            s if s < 2.0 * w + h => (x1 - (s - w - h), y1),
            s => (x0, y1 - (s - 2.0 * w - h)),
        };
        (x, y, z)
    };
    let object = n / 2..n / 2 + INSIDE;
    for k in 0..n {
        if object.contains(&k) {
            // A small object on the floor, in the robot or on a wall.
            let z = rng.range(0.1, 0.4);
            let (x, y, z) = if colliding {
                let (r, t) = (rng.range(0.0, 0.15), rng.range(0.0, TAU));
                (r * t.cos(), r * t.sin(), z)
            } else {
                wall(&mut rng, z)
            };
            push(x, y, z, 200.0);
        } else if rng.unit() < 0.4 {
            // The floor, under the robot too: removed by height.
            let (x, y, z) = (rng.range(x0, x1), rng.range(y0, y1), rng.range(-0.02, 0.02));
            push(x, y, z, 40.0);
        } else {
            let z = rng.range(0.0, 2.5);
            let (x, y, z) = wall(&mut rng, z);
            push(x, y, z, 120.0);
        }
    }
    let field = |name: &str, offset: u32| PointField {
        name: name.to_owned(),
        offset,
        datatype: FLOAT32,
        count: 1,
    };
    PointCloud2 {
        header: Header {
            frame_id: BASE.to_owned(),
            ..Header::default()
        },
        height: 1,
        width: n as u32,
        fields: vec![
            field("x", 0),
            field("y", 4),
            field("z", 8),
            field("intensity", 12),
        ],
        is_bigendian: false,
        point_step: POINT_STEP,
        row_step: POINT_STEP * n as u32,
        data,
        is_dense: true,
    }
}

/// What the node computes per cloud, in this process, with the node's
/// configuration ([`node_values`]), in its steps (µs per cloud; index 0 the
/// colliding cloud, 1 the clear one): `decode`, `cloud_points` (layout
/// check, height filter, planar points) into a kept buffer (the I/O
/// thread); `copy`, the points into a `broadphase::PointSet` (as
/// `ros::sources` does) and `set_source_points`; `flag`, `place` and
/// `flag` (the decision, before `collision` is published); `report`,
/// `evaluate_into`, which the report worker runs after the flag when the
/// flag changed (a log line) or a report is subscribed.
pub struct InProcess {
    pub decode: [Vec<f64>; 2],
    pub copy: [Vec<f64>; 2],
    pub flag: [Vec<f64>; 2],
    pub report: [Vec<f64>; 2],
    /// Points kept (in the height band) of the colliding and the clear cloud.
    pub kept: [usize; 2],
}

pub fn check_clouds(clouds: &[(PointCloud2, bool)], rounds: usize) -> Res<InProcess> {
    let mut config = NodeConfig::default();
    config
        .start_up(&node_values("cloud"))
        .map_err(|e| format!("cloud parameters refused: {e:?}"))?;
    let shape = config
        .footprint_from_tf()
        .ok_or("robot_footprint is not a valid shape")?;
    let source = config.source(SOURCE).ok_or("no camera source")?.clone();
    let filter = CloudFilter {
        min_height: source.min_height,
        max_height: source.max_height,
        min_range: source.min_range,
        use_global_height: source.use_global_height,
        ..CloudFilter::default()
    };
    let mut monitor = Monitor::new(config.monitor.clone());
    let tree = FrameTree::new();
    let mut scratch = Vec::new();
    let mut report = monitor.evaluate(0.0);
    let mut out = InProcess {
        decode: [Vec::new(), Vec::new()],
        copy: [Vec::new(), Vec::new()],
        flag: [Vec::new(), Vec::new()],
        report: [Vec::new(), Vec::new()],
        kept: [0; 2],
    };
    for k in 0..rounds {
        let (msg, colliding) = &clouds[k % clouds.len()];
        let names: Vec<&[u8]> = msg.fields.iter().map(|f| f.name.as_bytes()).collect();
        let fields: Vec<sensors::PointField<'_>> = msg
            .fields
            .iter()
            .zip(&names)
            .map(|(f, name)| sensors::PointField {
                name,
                offset: f.offset,
                datatype: f.datatype,
                count: f.count,
            })
            .collect();
        let cloud = sensors::PointCloud {
            height: msg.height,
            width: msg.width,
            fields: &fields,
            is_bigendian: msg.is_bigendian,
            point_step: msg.point_step,
            row_step: msg.row_step,
            data: &msg.data,
        };
        let now = 1.0 + k as f64 * 0.033;
        let mut points = monitor.recycle_source_points(SOURCE);
        let t0 = Instant::now();
        scratch.clear();
        sensors::cloud_points(&cloud, &filter, &mut scratch)
            .map_err(|e| format!("cloud {k} refused: {e}"))?;
        let t1 = Instant::now();
        if k < 2 {
            out.kept[usize::from(!colliding)] = scratch.len();
        }
        points.clear();
        for p in scratch.drain(..) {
            points.push(p);
        }
        monitor.set_source_points(SOURCE, BASE, now, points, now);
        monitor.set_footprint_shape(BASE, shape.clone(), now);
        let t2 = Instant::now();
        monitor.place(&tree, now);
        let flag = monitor.flag(now);
        let t3 = Instant::now();
        monitor.evaluate_into(now, &mut report);
        let t4 = Instant::now();
        if !flag.valid || flag.colliding != *colliding {
            return Err(format!(
                "cloud {k}: flag {} ({}), expected {colliding}",
                flag.colliding, flag.status
            )
            .into());
        }
        if report.colliding != *colliding {
            return Err(format!(
                "cloud {k}: report {}, expected {colliding}",
                report.colliding
            )
            .into());
        }
        let kind = usize::from(!colliding);
        let us = |a: Instant, b: Instant| (b - a).as_secs_f64() * 1e6;
        out.decode[kind].push(us(t0, t1));
        out.copy[kind].push(us(t1, t2));
        out.flag[kind].push(us(t2, t3));
        out.report[kind].push(us(t3, t4));
    }
    Ok(out)
}
