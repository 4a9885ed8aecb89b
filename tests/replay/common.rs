//! The bags the tests replay, written with `bag::BagWriter`.

use sat_collision::bag::{msgs, BagWriter, Message};
use sat_collision::replay::{self, Options, Summary};
use std::io::Cursor;
use std::path::{Path, PathBuf};

/// The worked example's parameters (committed).
pub fn params() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/replay/params.yaml")
}

/// Where the worked example's bag is kept for the README.
pub fn example_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/replay/stop_zone.mcap")
}

/// The bag starts at this log time (s).
pub const T0: f64 = 100.0;
/// Commands and /tf come every 50 ms, scans every 100 ms, for 4 s.
pub const STEPS: u64 = 80;
/// The obstacle enters the stop zone at this time (s after T0): scans
/// read 0.3 m ahead from then.
pub const ENTERS: f64 = 2.0;
/// And touches the robot from this time: 0.15 m, inside its radius.
pub const TOUCHES: f64 = 3.0;
/// The commanded speed (m/s).
pub const SPEED: f64 = 0.3;

pub fn ns(t: f64) -> u64 {
    (t * 1e9).round() as u64
}

pub fn time(t: f64) -> msgs::Time {
    let sec = t.floor();
    msgs::Time {
        sec: sec as i32,
        nanosec: ((t - sec) * 1e9).round() as u32,
    }
}

pub fn header(frame: &str, t: f64) -> msgs::Header {
    msgs::Header {
        stamp: time(t),
        frame_id: frame.to_owned(),
    }
}

pub fn transform(parent: &str, child: &str, t: f64, x: f64, z: f64) -> msgs::TransformStamped {
    let mut tf = msgs::TransformStamped {
        header: header(parent, t),
        child_frame_id: child.to_owned(),
        ..Default::default()
    };
    tf.transform.translation.x = x;
    tf.transform.translation.z = z;
    tf.transform.rotation.w = 1.0;
    tf
}

/// A scan of 11 rays over ±0.5 rad, every one reading `range`.
pub fn scan(t: f64, range: f32) -> msgs::LaserScan {
    msgs::LaserScan {
        header: header("laser", t),
        angle_min: -0.5,
        angle_max: 0.5,
        angle_increment: 0.1,
        range_min: 0.05,
        range_max: 10.0,
        ranges: vec![range; 11],
        ..Default::default()
    }
}

pub fn twist(x: f64) -> msgs::Twist {
    let mut twist = msgs::Twist::default();
    twist.linear.x = x;
    twist
}

/// One step of the example: `/tf`, a scan every other step, a command.
pub fn write_step(w: &mut BagWriter<Cursor<Vec<u8>>>, i: u64) {
    let s = i as f64 * 0.05;
    let t = T0 + s;
    let tf = msgs::TFMessage {
        transforms: vec![transform("odom", "base_link", t, 0.0, 0.0)],
    };
    w.write("/tf", ns(t), &tf).expect("tf");
    if i % 2 == 0 {
        let range = match s {
            s if s >= TOUCHES - 1e-9 => 0.15,
            s if s >= ENTERS - 1e-9 => 0.3,
            _ => 5.0,
        };
        w.write("/scan", ns(t), &scan(t, range)).expect("scan");
    }
    w.write("/cmd_vel_smoothed", ns(t), &twist(SPEED))
        .expect("command");
}

/// The worked example: the static laser, then `STEPS` steps.
pub fn example_bag() -> Vec<u8> {
    let mut w = BagWriter::new(Cursor::new(Vec::new())).expect("writer");
    let statics = msgs::TFMessage {
        transforms: vec![transform("base_link", "laser", T0, 0.0, 0.1)],
    };
    w.write("/tf_static", ns(T0), &statics).expect("tf_static");
    for i in 0..STEPS {
        write_step(&mut w, i);
    }
    w.finish().expect("finish").into_inner()
}

/// A temporary directory of the test's own, emptied.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("replay")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Replays `bag` with the example's parameters, every output into `dir`.
pub fn run(bag: &Path, dir: &Path) -> Summary {
    replay::replay(&options(bag, dir)).expect("replays")
}

pub fn options(bag: &Path, dir: &Path) -> Options {
    Options {
        bag: bag.to_owned(),
        params: params(),
        node_name: replay::DEFAULT_NODE_NAME.to_owned(),
        jsonl: Some(dir.join("out.jsonl")),
        out: Some(dir.join("out.mcap")),
        svg: Some(dir.join("timeline.svg")),
    }
}

/// Writes `bytes` at `path` and returns it.
pub fn write(path: &Path, bytes: &[u8]) -> PathBuf {
    std::fs::write(path, bytes).expect("write");
    path.to_owned()
}

/// The JSON lines of a replay.
pub fn lines(dir: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(dir.join("out.jsonl"))
        .expect("jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// A message of any type written raw (for types and data the writer's
/// structs cannot make).
pub fn raw(w: &mut BagWriter<Cursor<Vec<u8>>>, topic: &str, type_name: &str, t: f64, data: &[u8]) {
    let schema = Message::schema_of(type_name).unwrap_or_default();
    w.write_raw(topic, type_name, &schema, ns(t), data)
        .expect("raw");
}
