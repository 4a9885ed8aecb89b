//! Sensor messages into points (`sat_collision::sensors`) against an
//! independent reference.
//!
//! * Random point clouds built here byte by byte (random field order,
//!   offsets and padding, float32 or float64 per field, either byte order,
//!   padded rows, organised or not, decoy fields, NaN and infinite
//!   coordinates, a `height` field) decoded by a reader written here (one
//!   point at a time, explicit byte positions, `nalgebra`'s `Isometry3 *
//!   Point3` for the transform, `norm()` for the range): the same points in
//!   the same order, and the same counts.
//! * A camera 1 m up, pitched 20° down, looking at a flat floor with a
//!   0.3 m box: no floor point with `min_height` 0.05, the box kept; a
//!   transform that drops the pitch would keep the floor.
//! * Malformed clouds (one fault at a time, and random headers over random
//!   bytes): the error the documented checks predict, in their order, and
//!   never a panic.
//! * Laser scans and range readings (REP 117) against their rules; range
//!   readings against nav2's validation (navigation2 #6231) and its tests.
//! * No allocation once `out` has grown.
//!
//! Random cases come from `SplitMix64`; a failure names its seed.

use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use sat_collision::broadphase::PointSet;
use sat_collision::config::{NodeConfig, SourceConfig};
use sat_collision::frames::FrameTree;
use sat_collision::geometry::{Point, MAX_COORDINATE};
use sat_collision::model::Cause;
use sat_collision::monitor::SourceKind;
use sat_collision::node::SourceReader;
use sat_collision::sensors::{
    check_range_header, cloud_points, range_points, scan_points, CloudError, CloudFilter,
    CloudStats, LaserScan, PointCloud, PointField, RangeError, RangeReading, ScanError,
    DEFAULT_OBSTACLES_ANGLE, MAX_RANGE_ARC_POINTS, MAX_SENSOR_POINTS,
};
use sat_collision_testkit::alloc::allocations_in;
use sat_collision_testkit::SplitMix64;

/// Points equal to rounding: the decoder and the reference transform with
/// different arithmetic (a matrix, a quaternion), on coordinates of a few
/// metres.
const EPS: f64 = 1e-9;

/// How far every random point is kept from a filter's edges (height,
/// range), so that rounding cannot decide it.
const CLEAR: f64 = 1e-6;

fn same(a: Point, b: Point) -> bool {
    (a - b).norm() <= EPS * (1.0 + b.coords.norm())
}

// ------------------------------------------------------------ messages

/// A field of a message built here (owned; [`Msg::view`] lends it).
#[derive(Clone, Debug)]
struct Field {
    name: String,
    offset: u32,
    datatype: u8,
    count: u32,
}

/// A `sensor_msgs/PointCloud2` built here.
#[derive(Clone, Debug)]
struct Msg {
    height: u32,
    width: u32,
    fields: Vec<Field>,
    big: bool,
    point_step: u32,
    row_step: u32,
    data: Vec<u8>,
}

impl Msg {
    fn fields(&self) -> Vec<PointField<'_>> {
        self.fields
            .iter()
            .map(|f| PointField {
                name: f.name.as_bytes(),
                offset: f.offset,
                datatype: f.datatype,
                count: f.count,
            })
            .collect()
    }

    fn view<'a>(&'a self, fields: &'a [PointField<'a>]) -> PointCloud<'a> {
        PointCloud {
            height: self.height,
            width: self.width,
            fields,
            is_bigendian: self.big,
            point_step: self.point_step,
            row_step: self.row_step,
            data: &self.data,
        }
    }

    fn decode(&self, filter: &CloudFilter, out: &mut Vec<Point>) -> Result<CloudStats, CloudError> {
        let fields = self.fields();
        cloud_points(&self.view(&fields), filter, out)
    }
}

/// Size in bytes of a `sensor_msgs/PointField` datatype (1..=8), 0 for an
/// unknown one.
fn datatype_size(datatype: u8) -> usize {
    match datatype {
        1 | 2 => 1,
        3 | 4 => 2,
        5..=7 => 4,
        8 => 8,
        _ => 0,
    }
}

fn write_float(data: &mut [u8], at: usize, datatype: u8, big: bool, v: f64) {
    match (datatype, big) {
        (7, false) => data[at..at + 4].copy_from_slice(&(v as f32).to_le_bytes()),
        (7, true) => data[at..at + 4].copy_from_slice(&(v as f32).to_be_bytes()),
        (8, false) => data[at..at + 8].copy_from_slice(&v.to_le_bytes()),
        (8, true) => data[at..at + 8].copy_from_slice(&v.to_be_bytes()),
        _ => unreachable!("the test writes floats only"),
    }
}

// ------------------------------------------------------------ reference

/// The reference reader: the first field of a name, read at its explicit
/// byte position, one point at a time.
fn read_field(msg: &Msg, name: &str, point_start: usize) -> f64 {
    let f = msg
        .fields
        .iter()
        .find(|f| f.name == name)
        .expect("the field");
    let at = point_start + f.offset as usize;
    let d = &msg.data;
    match (f.datatype, msg.big) {
        (7, false) => f64::from(f32::from_le_bytes([d[at], d[at + 1], d[at + 2], d[at + 3]])),
        (7, true) => f64::from(f32::from_be_bytes([d[at], d[at + 1], d[at + 2], d[at + 3]])),
        (8, big) => {
            let mut b = [0u8; 8];
            b.copy_from_slice(&d[at..at + 8]);
            if big {
                f64::from_be_bytes(b)
            } else {
                f64::from_le_bytes(b)
            }
        }
        _ => unreachable!("checked float fields"),
    }
}

/// What the reference makes of one point: `None` when not finite, else
/// its base-frame `(x, y)`, its height and its range.
fn reference_point(msg: &Msg, filter: &CloudFilter, start: usize) -> Option<(Point, f64, f64)> {
    let p = Point3::new(
        read_field(msg, "x", start),
        read_field(msg, "y", start),
        read_field(msg, "z", start),
    );
    let height = filter
        .use_global_height
        .then(|| read_field(msg, "height", start));
    let finite = |v: f64| v.is_finite();
    if !(p.iter().all(|&v| finite(v)) && height.is_none_or(finite)) {
        return None;
    }
    let b = filter.to_base * p;
    Some((Point::new(b.x, b.y), height.unwrap_or(b.z), p.coords.norm()))
}

/// The reference decode of a well-formed message.
fn reference(msg: &Msg, filter: &CloudFilter) -> (Vec<Point>, CloudStats) {
    let mut kept = Vec::new();
    let mut stats = CloudStats {
        read: (msg.width * msg.height) as usize,
        ..CloudStats::default()
    };
    for r in 0..msg.height as usize {
        for c in 0..msg.width as usize {
            let start = r * msg.row_step as usize + c * msg.point_step as usize;
            match reference_point(msg, filter, start) {
                None => stats.non_finite += 1,
                Some((b, h, range)) => {
                    if h >= filter.min_height && h <= filter.max_height && range >= filter.min_range
                    {
                        kept.push(b);
                    }
                }
            }
        }
    }
    stats.kept = kept.len();
    (kept, stats)
}

/// The documented checks, in their order: the error a message must get.
fn expected_error(msg: &Msg, filter: &CloudFilter) -> Option<&'static str> {
    if u64::from(msg.width) * u64::from(msg.height) > MAX_SENSOR_POINTS as u64 {
        return Some("too_many_points");
    }
    let mut names = vec![
        ("x", "missing_field_x"),
        ("y", "missing_field_y"),
        ("z", "missing_field_z"),
    ];
    if filter.use_global_height {
        names.push(("height", "missing_field_height"));
    }
    for (name, missing) in names {
        let Some(f) = msg.fields.iter().find(|f| f.name == name) else {
            return Some(missing);
        };
        if f.datatype != 7 && f.datatype != 8 {
            return Some("unsupported_datatype");
        }
        if f.count != 1 {
            return Some("unsupported_count");
        }
        if u64::from(f.offset) + datatype_size(f.datatype) as u64 > u64::from(msg.point_step) {
            return Some("field_outside_point_step");
        }
    }
    if u64::from(msg.row_step) < u64::from(msg.width) * u64::from(msg.point_step) {
        return Some("row_step_too_short");
    }
    if (msg.data.len() as u64) < u64::from(msg.row_step) * u64::from(msg.height) {
        return Some("data_too_short");
    }
    None
}

// ------------------------------------------------------------ random clouds

fn random_filter(rng: &mut SplitMix64) -> CloudFilter {
    let axis = Vector3::new(
        rng.range(-1.0, 1.0),
        rng.range(-1.0, 1.0),
        rng.range(-1.0, 1.0),
    );
    let rotation = if axis.norm() < 1e-3 {
        UnitQuaternion::identity()
    } else {
        UnitQuaternion::from_axis_angle(&nalgebra::Unit::new_normalize(axis), rng.range(-3.1, 3.1))
    };
    let translation = Translation3::new(
        rng.range(-2.0, 2.0),
        rng.range(-2.0, 2.0),
        rng.range(-2.0, 2.0),
    );
    let min_height = rng.range(-2.0, 1.0);
    CloudFilter {
        to_base: Isometry3::from_parts(translation, rotation),
        min_height,
        max_height: min_height + rng.range(0.0, 3.0),
        min_range: if rng.chance(0.5) {
            0.0
        } else {
            rng.range(0.0, 4.0)
        },
        use_global_height: rng.chance(0.3),
    }
}

/// A random well-formed message for `filter`, and what it holds.
fn random_cloud(rng: &mut SplitMix64, filter: &CloudFilter) -> Msg {
    let (width, height) = if rng.chance(0.3) {
        (rng.below_usize(300) as u32, 1)
    } else {
        (rng.below_usize(40) as u32, 1 + rng.below_usize(6) as u32)
    };
    let big = rng.chance(0.5);
    // The fields read, then others (any type), in a random order of
    // offsets with random gaps.
    let mut specs: Vec<(String, u8)> = ["x", "y", "z"]
        .iter()
        .map(|n| (n.to_string(), if rng.chance(0.5) { 7 } else { 8 }))
        .collect();
    if filter.use_global_height || rng.chance(0.3) {
        specs.push(("height".into(), if rng.chance(0.5) { 7 } else { 8 }));
    }
    for name in ["intensity", "rgb", "ring"] {
        if rng.chance(0.4) {
            specs.push((name.into(), 1 + rng.below_usize(8) as u8));
        }
    }
    for i in (1..specs.len()).rev() {
        specs.swap(i, rng.below_usize(i + 1));
    }
    let mut fields = Vec::new();
    let mut end = 0u32;
    for (name, datatype) in specs {
        let offset = end + rng.below_usize(5) as u32;
        end = offset + datatype_size(datatype) as u32;
        fields.push(Field {
            name,
            offset,
            datatype,
            count: 1,
        });
    }
    let point_step = end + rng.below_usize(9) as u32;
    // Listed in another random order; sometimes a decoy of a read name
    // after the real one (the first of a name is read).
    for i in (1..fields.len()).rev() {
        fields.swap(i, rng.below_usize(i + 1));
    }
    if rng.chance(0.3) {
        let decoy = ["x", "y", "z"][rng.below_usize(3)];
        fields.push(Field {
            name: decoy.into(),
            offset: 0,
            datatype: 7,
            count: 1,
        });
    }
    let row_step = width * point_step
        + if rng.chance(0.5) {
            0
        } else {
            rng.below_usize(21) as u32
        };
    let len = (row_step * height) as usize + rng.below_usize(11);
    // Garbage everywhere first: padding and other fields stay random.
    let data: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
    let mut msg = Msg {
        height,
        width,
        fields,
        big,
        point_step,
        row_step,
        data,
    };
    let place = |msg: &Msg, name: &str| {
        let f = msg.fields.iter().find(|f| f.name == name).expect("placed");
        (f.offset as usize, f.datatype)
    };
    let read: Vec<(usize, u8)> = ["x", "y", "z", "height"]
        .iter()
        .filter(|n| msg.fields.iter().any(|f| f.name == **n))
        .map(|n| place(&msg, n))
        .collect();
    for r in 0..height as usize {
        for c in 0..width as usize {
            let start = r * row_step as usize + c * point_step as usize;
            // Draw until the point is clear of the filter's edges.
            loop {
                for (k, &(offset, datatype)) in read.iter().enumerate() {
                    let v = if rng.chance(0.03) {
                        [f64::NAN, f64::INFINITY, f64::NEG_INFINITY][rng.below_usize(3)]
                    } else if k < 3 {
                        rng.range(-5.0, 5.0)
                    } else {
                        rng.range(-1.0, 2.0)
                    };
                    write_float(&mut msg.data, start + offset, datatype, big, v);
                }
                let clear = match reference_point(&msg, filter, start) {
                    None => true,
                    Some((_, h, range)) => {
                        (h - filter.min_height).abs() > CLEAR
                            && (h - filter.max_height).abs() > CLEAR
                            && (range - filter.min_range).abs() > CLEAR
                    }
                };
                if clear {
                    break;
                }
            }
        }
    }
    msg
}

#[test]
fn random_clouds_decode_as_the_reference_does() {
    let mut kept_total = 0;
    let mut non_finite_total = 0;
    for seed in 0..3_000u64 {
        let mut rng = SplitMix64::new(seed);
        let filter = random_filter(&mut rng);
        let msg = random_cloud(&mut rng, &filter);
        assert_eq!(expected_error(&msg, &filter), None, "seed {seed}");
        let (want, want_stats) = reference(&msg, &filter);
        let mut out = vec![Point::new(-1.0, -1.0)];
        let stats = msg
            .decode(&filter, &mut out)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(stats, want_stats, "seed {seed}");
        assert_eq!(out[0], Point::new(-1.0, -1.0), "seed {seed}: appended");
        assert_eq!(out.len() - 1, want.len(), "seed {seed}");
        for (i, (got, want)) in out[1..].iter().zip(&want).enumerate() {
            assert!(
                same(*got, *want),
                "seed {seed}, point {i}: {got:?} vs {want:?}"
            );
        }
        kept_total += want.len();
        non_finite_total += want_stats.non_finite;
    }
    // The cases are not vacuous.
    assert!(
        kept_total > 20_000 && non_finite_total > 2_000,
        "{kept_total} {non_finite_total}"
    );
}

#[test]
fn clouds_larger_than_a_block_keep_their_order() {
    // 5 rows of 1,000 points, padded rows, float32 little endian (the
    // specialised loop) and the same points as float64 big endian.
    let filter = CloudFilter {
        min_height: -0.5,
        max_height: 0.5,
        ..CloudFilter::default()
    };
    for (datatype, big) in [(7, false), (8, true)] {
        let size = datatype_size(datatype) as u32;
        let (width, height) = (1_000u32, 5u32);
        let point_step = 3 * size + 4;
        let row_step = width * point_step + 12;
        let mut msg = Msg {
            height,
            width,
            fields: ["x", "y", "z"]
                .iter()
                .enumerate()
                .map(|(k, n)| Field {
                    name: n.to_string(),
                    offset: k as u32 * size,
                    datatype,
                    count: 1,
                })
                .collect(),
            big,
            point_step,
            row_step,
            data: vec![0x55; (row_step * height) as usize],
        };
        for i in 0..(width * height) as usize {
            let start = (i / 1_000) * row_step as usize + (i % 1_000) * point_step as usize;
            let z = if i % 7 == 0 { 1.0 } else { 0.0 };
            for (k, v) in [i as f64, -(i as f64), z].into_iter().enumerate() {
                write_float(&mut msg.data, start + k * size as usize, datatype, big, v);
            }
        }
        let mut out = Vec::new();
        let stats = msg.decode(&filter, &mut out).expect("valid");
        let want: Vec<Point> = (0..5_000)
            .filter(|i| i % 7 != 0)
            .map(|i| Point::new(i as f64, -(i as f64)))
            .collect();
        assert_eq!(stats.kept, want.len());
        assert_eq!(out, want);
    }
}

// ------------------------------------------------------------ the pitched camera

/// A camera link (x forward, REP-103) 1 m up, pitched 20° down.
fn pitched_camera() -> Isometry3<f64> {
    Isometry3::from_parts(
        Translation3::new(0.0, 0.0, 1.0),
        UnitQuaternion::from_axis_angle(&Vector3::y_axis(), 20f64.to_radians()),
    )
}

/// What the camera sees, in its own frame: rays over ±30° across and
/// ±15° up and down around its axis, hitting the floor (z = 0 in the base
/// frame) or the box `[1.5, 1.8] x [-0.2, 0.2] x [0, 0.3]`. Returns the
/// points and, for each, whether it lies on the box.
fn camera_view() -> Vec<([f64; 3], bool)> {
    let camera = pitched_camera();
    let origin = camera.translation.vector;
    let (lo, hi) = (Vector3::new(1.5, -0.2, 0.0), Vector3::new(1.8, 0.2, 0.3));
    let mut seen = Vec::new();
    for u in 0..80 {
        for v in 0..60 {
            let yaw = (-30.0 + 60.0 * f64::from(u) / 79.0).to_radians();
            let pitch = (-15.0 + 30.0 * f64::from(v) / 59.0).to_radians();
            // The ray in the camera's frame, then in the base frame.
            let ray_c = Vector3::new(
                pitch.cos() * yaw.cos(),
                pitch.cos() * yaw.sin(),
                pitch.sin(),
            );
            let ray = camera.rotation * ray_c;
            // The box first (slab test), then the floor.
            let (mut t0, mut t1) = (0.0f64, f64::INFINITY);
            for k in 0..3 {
                let (a, b) = ((lo[k] - origin[k]) / ray[k], (hi[k] - origin[k]) / ray[k]);
                t0 = t0.max(a.min(b));
                t1 = t1.min(a.max(b));
            }
            let (t, on_box) = if t0 <= t1 {
                (t0, true)
            } else if ray.z < 0.0 {
                (-origin.z / ray.z, false)
            } else {
                continue; // above the horizon: no return
            };
            let p = ray_c * t;
            seen.push(([p.x, p.y, p.z], on_box));
        }
    }
    seen
}

fn camera_cloud(points: &[[f64; 3]]) -> Msg {
    let mut data = Vec::new();
    for p in points {
        for v in p {
            data.extend_from_slice(&(*v as f32).to_le_bytes());
        }
        data.extend_from_slice(&[0; 4]);
    }
    Msg {
        height: 1,
        width: points.len() as u32,
        fields: ["x", "y", "z"]
            .iter()
            .enumerate()
            .map(|(k, n)| Field {
                name: n.to_string(),
                offset: 4 * k as u32,
                datatype: 7,
                count: 1,
            })
            .collect(),
        big: false,
        point_step: 16,
        row_step: 16 * points.len() as u32,
        data,
    }
}

#[test]
fn a_pitched_camera_sees_the_box_and_not_the_floor() {
    let seen = camera_view();
    let floor = seen.iter().filter(|(_, b)| !b).count();
    let on_box: Vec<[f64; 3]> = seen.iter().filter(|(_, b)| *b).map(|(p, _)| *p).collect();
    assert!(
        floor > 1_000 && on_box.len() > 50,
        "{floor} {}",
        on_box.len()
    );
    let points: Vec<[f64; 3]> = seen.iter().map(|(p, _)| *p).collect();
    let msg = camera_cloud(&points);
    // Up to 2 m: nothing but the box rises above the floor.
    let filter = CloudFilter {
        to_base: pitched_camera(),
        min_height: 0.05,
        max_height: 2.0,
        ..CloudFilter::default()
    };
    let mut out = Vec::new();
    let stats = msg.decode(&filter, &mut out).expect("valid");
    // The box's points at 0.05 m and above (float32 rounding of the
    // camera's coordinates moves a point by micrometres: none is near).
    let camera = pitched_camera();
    let box_high = on_box
        .iter()
        .filter(|p| (camera * Point3::new(p[0], p[1], p[2])).z >= 0.05)
        .count();
    assert!(box_high > 50);
    assert_eq!(stats.kept, box_high, "{stats:?}");
    for p in &out {
        assert!(
            (1.5 - 1e-4..=1.8 + 1e-4).contains(&p.x) && (-0.2 - 1e-4..=0.2 + 1e-4).contains(&p.y),
            "{p:?} is not on the box"
        );
    }
    // The same cloud moved by a planar transform (the camera's height and
    // yaw, here none, without its pitch) would keep floor points: the
    // pitch matters.
    let planar = CloudFilter {
        to_base: Isometry3::translation(0.0, 0.0, 1.0),
        ..filter
    };
    out.clear();
    let flat = msg.decode(&planar, &mut out).expect("valid");
    assert!(flat.kept > box_high + 100, "{flat:?}");
}

// ------------------------------------------------------------ malformed clouds

/// One fault at a time, on a valid random cloud: the error the checks
/// predict.
#[test]
fn malformed_clouds_get_the_predicted_error() {
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..3_000u64 {
        let mut rng = SplitMix64::new(seed ^ 0xC10D);
        let filter = random_filter(&mut rng);
        let mut msg = random_cloud(&mut rng, &filter);
        let read = ["x", "y", "z"][rng.below_usize(3)];
        let field = msg
            .fields
            .iter()
            .position(|f| f.name == read)
            .expect("placed");
        match rng.below_usize(9) {
            0 => msg.fields.retain(|f| f.name != read),
            1 => msg.fields[field].datatype = [0, 1, 2, 3, 4, 5, 6, 9, 255][rng.below_usize(9)],
            2 => msg.fields[field].count = [0, 2, 3, u32::MAX][rng.below_usize(4)],
            3 => msg.fields[field].offset = msg.point_step - rng.below_usize(4) as u32,
            4 => {
                msg.row_step =
                    (msg.width * msg.point_step).saturating_sub(1 + rng.below_usize(5) as u32)
            }
            5 => msg
                .data
                .truncate((msg.row_step * msg.height).saturating_sub(1) as usize),
            6 => msg.height += 1 + rng.below_usize(3) as u32,
            7 => {
                msg.width = 1 << 11;
                msg.height = 1 + (1 << 10);
            }
            _ => msg.point_step = rng.below_usize(12) as u32,
        }
        let mut out = vec![Point::origin()];
        let got = msg.decode(&filter, &mut out);
        match expected_error(&msg, &filter) {
            Some(e) => {
                assert_eq!(got.map_err(CloudError::as_str), Err(e), "seed {seed}");
                seen.insert(e);
                assert_eq!(out, vec![Point::origin()], "seed {seed}: out unchanged");
            }
            None => {
                // The fault happened to be harmless (an empty cloud, a
                // field that still fits): the reference reads it.
                let stats = got.unwrap_or_else(|e| panic!("seed {seed}: {e}"));
                assert_eq!(stats.read, (msg.width * msg.height) as usize, "seed {seed}");
            }
        }
    }
    let all = [
        "missing_field_x",
        "missing_field_y",
        "missing_field_z",
        "unsupported_datatype",
        "unsupported_count",
        "field_outside_point_step",
        "row_step_too_short",
        "data_too_short",
        "too_many_points",
    ];
    for e in all {
        assert!(seen.contains(e), "{e} never produced: {seen:?}");
    }
}

/// Random headers and fields over random bytes: never a panic, the
/// predicted error or, when the message is well formed, finite points
/// within the geometry's range.
#[test]
fn random_bytes_never_panic() {
    let names = ["x", "y", "z", "height", "x", "rgb"];
    let mut oks = 0;
    for seed in 0..20_000u64 {
        let mut rng = SplitMix64::new(seed ^ 0xB17E5);
        let fields = (0..rng.below_usize(7))
            .map(|_| Field {
                name: names[rng.below_usize(names.len())].into(),
                offset: if rng.chance(0.05) {
                    u32::MAX - rng.below_usize(8) as u32
                } else {
                    rng.below_usize(40) as u32
                },
                datatype: if rng.chance(0.8) {
                    7 + rng.below_usize(2) as u8
                } else {
                    rng.next_u64() as u8
                },
                count: if rng.chance(0.9) {
                    1
                } else {
                    rng.next_u64() as u32
                },
            })
            .collect();
        let big_numbers = rng.chance(0.05);
        let pick = |rng: &mut SplitMix64, small: usize| {
            if big_numbers && rng.chance(0.5) {
                rng.next_u64() as u32
            } else {
                rng.below_usize(small) as u32
            }
        };
        let mut msg = Msg {
            height: pick(&mut rng, 5),
            width: pick(&mut rng, 50),
            fields,
            big: rng.chance(0.5),
            point_step: pick(&mut rng, 48),
            row_step: pick(&mut rng, 1_500),
            data: (0..rng.below_usize(3_000))
                .map(|_| rng.next_u64() as u8)
                .collect(),
        };
        let filter = CloudFilter {
            use_global_height: rng.chance(0.3),
            min_height: -1e300,
            max_height: 1e300,
            ..random_filter(&mut rng)
        };
        if seed % 2 == 0 {
            // A well-formed layout over random bytes: any float, huge,
            // subnormal, NaN.
            msg = random_cloud(&mut rng, &filter);
            msg.data.iter_mut().for_each(|b| *b = rng.next_u64() as u8);
        }
        let mut out = Vec::new();
        let got = msg.decode(&filter, &mut out);
        match expected_error(&msg, &filter) {
            Some(e) => assert_eq!(got.map_err(CloudError::as_str), Err(e), "seed {seed}"),
            None => {
                let stats = got.unwrap_or_else(|e| panic!("seed {seed}: {e}"));
                assert_eq!(stats.read, (msg.width * msg.height) as usize, "seed {seed}");
                assert!(stats.kept + stats.non_finite <= stats.read);
                assert!(out
                    .iter()
                    .all(|p| p.x.abs() <= MAX_COORDINATE && p.y.abs() <= MAX_COORDINATE));
                oks += 1;
            }
        }
    }
    assert!(oks > 9_000, "{oks}");
}

#[test]
fn a_bad_filter_is_refused_before_the_message() {
    let msg = camera_cloud(&[[1.0, 0.0, 0.2]]);
    for filter in [
        CloudFilter {
            min_height: f64::NAN,
            ..CloudFilter::default()
        },
        CloudFilter {
            min_range: f64::NAN,
            ..CloudFilter::default()
        },
        CloudFilter {
            to_base: Isometry3::translation(0.0, f64::NAN, 0.0),
            ..CloudFilter::default()
        },
        CloudFilter {
            to_base: Isometry3::translation(0.0, 0.0, 1e200),
            ..CloudFilter::default()
        },
    ] {
        let mut bad = msg.clone();
        bad.fields.clear();
        assert_eq!(
            bad.decode(&filter, &mut Vec::new())
                .map_err(CloudError::as_str),
            Err("invalid_filter")
        );
    }
}

// ------------------------------------------------------------ scans

#[test]
fn random_scans_are_their_ranges_within_the_limits() {
    for seed in 0..500u64 {
        let mut rng = SplitMix64::new(seed ^ 0x5CA9);
        let range_min = rng.range(0.0, 1.0) as f32;
        let range_max = range_min + rng.range(0.0, 20.0) as f32;
        let ranges: Vec<f32> = (0..rng.below_usize(2_000))
            .map(|_| match rng.below_usize(10) {
                0 => f32::NAN,
                1 => f32::INFINITY,
                2 => f32::NEG_INFINITY,
                3 => range_min,
                4 => range_max,
                _ => rng.range(-1.0, 25.0) as f32,
            })
            .collect();
        let angle_min = rng.range(-4.0, 4.0) as f32;
        let angle_increment = rng.range(-0.02, 0.02) as f32;
        let last = ranges.len().saturating_sub(1) as f64;
        let scan = LaserScan {
            angle_min,
            angle_max: (f64::from(angle_min) + last * f64::from(angle_increment)) as f32,
            angle_increment,
            range_min,
            range_max,
            ranges: &ranges,
        };
        // REP 117's -inf (closer than range_min) is a point at range_min.
        let want: Vec<Point> = ranges
            .iter()
            .map(|&r| if r == f32::NEG_INFINITY { range_min } else { r })
            .enumerate()
            .filter(|(_, r)| r.is_finite() && *r >= range_min && *r <= range_max)
            .map(|(i, r)| {
                let a = f64::from(scan.angle_min) + i as f64 * f64::from(scan.angle_increment);
                Point::new(f64::from(r) * a.cos(), f64::from(r) * a.sin())
            })
            .collect();
        let mut out = Vec::new();
        assert_eq!(scan_points(&scan, &mut out), Ok(want.len()), "seed {seed}");
        for (got, want) in out.iter().zip(&want) {
            assert!(same(*got, *want), "seed {seed}: {got:?} vs {want:?}");
        }
    }
}

#[test]
fn scans_with_bad_headers_are_refused() {
    let ranges = [1.0f32; 3];
    let good = LaserScan {
        angle_min: 0.0,
        angle_max: 0.2,
        angle_increment: 0.1,
        range_min: 0.1,
        range_max: 5.0,
        ranges: &ranges,
    };
    let cases = [
        (
            LaserScan {
                angle_min: f32::NAN,
                ..good
            },
            "invalid_angle",
        ),
        (
            LaserScan {
                angle_increment: f32::NEG_INFINITY,
                ..good
            },
            "invalid_angle",
        ),
        (
            LaserScan {
                angle_max: f32::NAN,
                ..good
            },
            "invalid_angle",
        ),
        (
            LaserScan {
                angle_max: 1.0,
                ..good
            },
            "inconsistent_angles",
        ),
        (
            LaserScan {
                range_max: f32::INFINITY,
                ..good
            },
            "invalid_limits",
        ),
        (
            LaserScan {
                range_min: 6.0,
                ..good
            },
            "invalid_limits",
        ),
        (
            LaserScan {
                range_min: -1.0,
                ..good
            },
            "invalid_limits",
        ),
    ];
    for (scan, e) in cases {
        let mut out = Vec::new();
        assert_eq!(
            scan_points(&scan, &mut out).map_err(ScanError::as_str),
            Err(e)
        );
        assert!(out.is_empty());
    }
}

// ------------------------------------------------------------ range readings (REP 117)

#[test]
fn range_readings_follow_rep_117() {
    let base = RangeReading {
        field_of_view: 0.4,
        min_range: 0.02,
        max_range: 4.0,
        range: 1.0,
    };
    let arc = |r: &RangeReading, step: f64| -> Result<Vec<Point>, &'static str> {
        let mut out = Vec::new();
        range_points(r, step, &mut out).map_err(RangeError::as_str)?;
        Ok(out)
    };
    // Within the limits (both included): an arc at the range, from -fov/2
    // to +fov/2 in steps of obstacles_angle, both ends included.
    for range in [0.02f32, 1.0, 4.0] {
        let points = arc(&RangeReading { range, ..base }, DEFAULT_OBSTACLES_ANGLE).expect("valid");
        // 0.4 rad in steps of 1°: 22.9 steps, 23 points below the end, then the end.
        let r = f64::from(range);
        let half = f64::from(0.4f32) / 2.0;
        let below = (0..)
            .take_while(|&k| -half + f64::from(k) * DEFAULT_OBSTACLES_ANGLE < half)
            .count();
        assert_eq!((below, points.len()), (23, 24));
        for (k, p) in points.iter().enumerate() {
            let a = if k == 23 {
                half
            } else {
                -half + k as f64 * DEFAULT_OBSTACLES_ANGLE
            };
            assert!(same(*p, Point::new(r * a.cos(), r * a.sin())), "{k}: {p:?}");
        }
    }
    // +inf: nothing detected: valid, no points. -inf: closer than
    // min_range: the arc at min_range.
    assert_eq!(
        arc(
            &RangeReading {
                range: f32::INFINITY,
                ..base
            },
            0.1
        ),
        Ok(vec![])
    );
    let near = arc(
        &RangeReading {
            range: f32::NEG_INFINITY,
            ..base
        },
        0.1,
    )
    .expect("valid");
    // -h + k * 0.1 below h, then h, with h = 0.4f32 / 2 (a little above
    // 0.2: five below it, then the end).
    let half = f64::from(0.4f32) / 2.0;
    let below = (0..)
        .take_while(|&k| -half + f64::from(k) * 0.1 < half)
        .count();
    assert_eq!((below, near.len()), (5, 6));
    assert!(near
        .iter()
        .all(|p| (p.coords.norm() - f64::from(0.02f32)).abs() < 1e-12));
    // Invalid readings make the source invalid.
    for (r, step, e) in [
        (
            RangeReading {
                range: f32::NAN,
                ..base
            },
            0.1,
            "nan_range",
        ),
        (
            RangeReading {
                range: 0.01,
                ..base
            },
            0.1,
            "range_out_of_limits",
        ),
        (
            RangeReading { range: 4.5, ..base },
            0.1,
            "range_out_of_limits",
        ),
        (
            RangeReading {
                field_of_view: -0.1,
                ..base
            },
            0.1,
            "invalid_field_of_view",
        ),
        (
            RangeReading {
                max_range: f32::NAN,
                ..base
            },
            0.1,
            "invalid_limits",
        ),
        (base, 0.0, "invalid_obstacles_angle"),
        (base, 1e-6, "too_many_points"),
    ] {
        assert_eq!(arc(&r, step), Err(e), "{r:?} {step}");
    }
    // The cap: the widest field of view (the f32 below pi) at a tenth of a
    // degree fits, at a hundredth not.
    let turn = RangeReading {
        field_of_view: std::f32::consts::PI.next_down(),
        ..base
    };
    let fine = arc(&turn, DEFAULT_OBSTACLES_ANGLE / 10.0).expect("within the cap");
    assert!(fine.len() <= MAX_RANGE_ARC_POINTS && fine.len() > 1_790);
    assert_eq!(
        arc(&turn, DEFAULT_OBSTACLES_ANGLE / 100.0),
        Err("too_many_points")
    );
}

/// nav2's range validation (navigation2 #6231, commit 9134dc0:
/// `nav2::validateMsg(sensor_msgs::msg::Range)` and `Range::getData`'s
/// point limit), its test cases (`test_validation_messages.cpp`'s
/// `RangeCheck`, `sources_test.cpp`'s `testRangeMessageValidation` and
/// `testRangeGeneratedPointLimit`): what nav2 refuses is refused here, but
/// REP 117's infinities, which keep their meaning.
#[test]
fn range_readings_are_validated_as_nav2_validates_them() {
    let arc = |r: &RangeReading, step: f64| -> Result<usize, &'static str> {
        let mut out = Vec::new();
        range_points(r, step, &mut out).map_err(RangeError::as_str)
    };
    // RangeCheck: fov pi/2, limits [0.1, 2], range 1.
    let valid = RangeReading {
        field_of_view: std::f32::consts::FRAC_PI_2,
        min_range: 0.1,
        max_range: 2.0,
        range: 1.0,
    };
    assert!(arc(&valid, DEFAULT_OBSTACLES_ANGLE).is_ok());
    assert_eq!(check_range_header("range_sensor", 456_789), Ok(()));
    let pi_plus = (std::f64::consts::PI + 0.1) as f32;
    for (reading, e) in [
        (f32::NAN, "invalid_field_of_view"),
        (f32::INFINITY, "invalid_field_of_view"),
        (0.0, "invalid_field_of_view"),
        (-0.1, "invalid_field_of_view"),
        (pi_plus, "field_of_view_above_pi"),
        // nav2 compares the f32 in double precision: the f32 nearest pi is
        // above pi.
        (std::f32::consts::PI, "field_of_view_above_pi"),
    ]
    .map(|(fov, e)| {
        (
            RangeReading {
                field_of_view: fov,
                ..valid
            },
            e,
        )
    }) {
        assert_eq!(
            arc(&reading, DEFAULT_OBSTACLES_ANGLE),
            Err(e),
            "{reading:?}"
        );
    }
    for (reading, e) in [
        (
            RangeReading {
                range: f32::NAN,
                ..valid
            },
            "nan_range",
        ),
        (
            RangeReading {
                min_range: -0.1,
                ..valid
            },
            "invalid_limits",
        ),
        (
            RangeReading {
                max_range: valid.min_range,
                ..valid
            },
            "invalid_limits",
        ),
        (
            RangeReading {
                min_range: f32::INFINITY,
                ..valid
            },
            "invalid_limits",
        ),
    ] {
        assert_eq!(
            arc(&reading, DEFAULT_OBSTACLES_ANGLE),
            Err(e),
            "{reading:?}"
        );
    }
    // The header: a frame id, a stamp's nanoseconds below 1e9.
    assert_eq!(
        check_range_header("", 0).map_err(RangeError::as_str),
        Err("empty_frame_id")
    );
    assert_eq!(
        check_range_header("sonar", 1_000_000_000).map_err(RangeError::as_str),
        Err("invalid_stamp")
    );
    assert_eq!(check_range_header("sonar", 999_999_999), Ok(()));
    // REP 117, where nav2 refuses every infinite range: nothing detected,
    // and an object closer than min_range.
    let inf = RangeReading {
        range: f32::INFINITY,
        ..valid
    };
    assert_eq!(arc(&inf, DEFAULT_OBSTACLES_ANGLE), Ok(0));
    let near = RangeReading {
        range: f32::NEG_INFINITY,
        ..valid
    };
    assert!(arc(&near, DEFAULT_OBSTACLES_ANGLE).is_ok_and(|n| n > 0));

    // testRangeMessageValidation: fov 0 refused, then pi/10 accepted.
    let sonar = RangeReading {
        field_of_view: 0.0,
        min_range: 0.1,
        max_range: 1.1,
        range: 1.0,
    };
    assert_eq!(
        arc(&sonar, DEFAULT_OBSTACLES_ANGLE),
        Err("invalid_field_of_view")
    );
    let sonar = RangeReading {
        field_of_view: std::f32::consts::PI / 10.0,
        ..sonar
    };
    assert!(arc(&sonar, DEFAULT_OBSTACLES_ANGLE).is_ok());

    // testRangeGeneratedPointLimit: a half turn at pi/1e5 is refused (nav2:
    // over its 1e4 points; here over MAX_RANGE_ARC_POINTS), at pi/999 it
    // is 1000 points. nav2's test sets the message past its validation
    // with fov = (float)M_PI, which the validation refuses: the f32 below
    // pi here.
    let half_turn = RangeReading {
        field_of_view: std::f32::consts::PI.next_down(),
        ..sonar
    };
    assert_eq!(
        arc(&half_turn, std::f64::consts::PI / 1e5),
        Err("too_many_points")
    );
    assert_eq!(arc(&half_turn, std::f64::consts::PI / 999.0), Ok(1000));

    // The outcome: the message refused makes the source invalid (its
    // status, fail-safe), never an empty "clear" reading.
    let node = NodeConfig::default();
    let config = SourceConfig::new("sonar", SourceKind::Range, &node);
    let mut reader = SourceReader::new(0, config, "base_link", 0.1);
    let wide = RangeReading {
        field_of_view: 4.0,
        ..valid
    };
    let tree = FrameTree::new();
    let input = reader.range("sonar", 1.0, 0, &wide, || &tree, 1.0, PointSet::new());
    assert_eq!(input.points.err(), Some(Cause::InvalidSource));
    assert_eq!(input.reason, "field_of_view_above_pi");
    let input = reader.range("sonar", 1.0, 0, &valid, || &tree, 1.0, PointSet::new());
    assert!(input.points.is_ok_and(|p| !p.is_empty()));
}

// ------------------------------------------------------------ allocation

#[test]
fn decoding_allocates_nothing_once_out_has_grown() {
    let mut rng = SplitMix64::new(77);
    let points: Vec<[f64; 3]> = (0..5_000)
        .map(|_| {
            [
                rng.range(0.0, 5.0),
                rng.range(-2.0, 2.0),
                rng.range(-1.0, 1.0),
            ]
        })
        .collect();
    let fast = camera_cloud(&points);
    let fast_fields = fast.fields();
    let fast_view = fast.view(&fast_fields);
    let filter = CloudFilter {
        to_base: pitched_camera(),
        min_range: 0.5,
        min_height: -10.0,
        max_height: 10.0,
        ..CloudFilter::default()
    };
    let general = random_cloud(
        &mut rng,
        &CloudFilter {
            use_global_height: true,
            ..filter
        },
    );
    let general_fields = general.fields();
    let general_view = general.view(&general_fields);
    let global = CloudFilter {
        use_global_height: true,
        ..filter
    };
    let ranges = vec![2.0f32; 720];
    let scan = LaserScan {
        angle_min: -3.1,
        angle_max: 3.1553,
        angle_increment: 0.0087,
        range_min: 0.1,
        range_max: 10.0,
        ranges: &ranges,
    };
    let reading = RangeReading {
        field_of_view: 0.5,
        min_range: 0.02,
        max_range: 4.0,
        range: 1.0,
    };
    let mut out = Vec::new();
    let run = |out: &mut Vec<Point>| {
        out.clear();
        let a = cloud_points(&fast_view, &filter, out).map(|s| s.kept);
        let b = cloud_points(&general_view, &global, out).map(|s| s.kept);
        let c = scan_points(&scan, out);
        let d = range_points(&reading, DEFAULT_OBSTACLES_ANGLE, out);
        (a, b, c, d)
    };
    let first = run(&mut out);
    assert!(first.0.is_ok_and(|k| k > 1_000) && first.1.is_ok() && first.2 == Ok(720));
    let calls = allocations_in(|| {
        for _ in 0..10 {
            assert_eq!(run(&mut out), first);
        }
    });
    assert_eq!(calls, 0);
}
