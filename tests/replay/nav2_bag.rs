//! nav2 main's own bag test (`nav2_collision_monitor/test/
//! collision_monitor_node_bag.cpp`, navigation2 main, commit
//! `a3a97043ee93d92fe8d70ec56d183933169beb1c`): its recorded bag
//! (`test/bags/cm_moving_obstacle`: 11.5 s of `/clock`, a 5 × 5 m local
//! costmap in `base_footprint` with one lethal cell at its centre from 3 s
//! to 8 s, and 0.2 m/s on `/cmd_vel_smoothed`) replayed through the node
//! configured by nav2's `collision_monitor_node_bag.yaml` (a costmap
//! source, a stop circle of 1 m), and judged by nav2's metrics with nav2's
//! thresholds: stopped within 0.6 s of 3 s, at least 90 % of the
//! commands between 3 s and 8 s stopped, moving again within 0.6 s of
//! 8 s, at most 5 % stopped outside 2.8–8.2 s.

use super::common::scratch;
use sat_collision::bag::{self, Message};
use sat_collision::replay::{self, Options};
use std::path::Path;

const DATA: &str = "tests/data/nav2_main";

/// nav2's `MetricsCatcher` parameters.
const STOP_WINDOW: (f64, f64) = (3.0, 8.0);
const STOP_THRESH: f64 = 0.02;
const RESUME_THRESH: f64 = 0.10;
const DEBOUNCE_N: usize = 3;
const MAX_TIME_TO_STOP: f64 = 0.6;
const MIN_HOLD_PCT: f64 = 0.90;
const MAX_TIME_TO_RESUME: f64 = 0.6;
const MAX_FALSE_STOP_PCT: f64 = 0.05;

/// A `/cmd_vel` sample: the simulated time it went out, its `linear.x`.
#[derive(Clone, Copy, Debug)]
struct Sample {
    t: f64,
    vx: f64,
}

/// nav2's `first_transition_time`: the time of the `k`-th of the first
/// `k` samples in a row that are stopped (`to_stop`) or moving.
fn first_transition(seg: &[Sample], to_stop: bool, thr: f64, k: usize) -> Option<f64> {
    let mut run = 0;
    for s in seg {
        let ok = if to_stop {
            s.vx.abs() <= thr
        } else {
            s.vx >= thr
        };
        run = if ok { run + 1 } else { 0 };
        if run >= k {
            return Some(s.t);
        }
    }
    None
}

#[test]
fn nav2s_costmap_bag_stops_and_resumes_by_nav2s_metrics() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(DATA);
    let bag_path = root.join("cm_moving_obstacle/_tmp_cm_bag_0.mcap.zstd");
    let dir = scratch("nav2_bag");
    let options = Options {
        bag: bag_path.clone(),
        params: root.join("collision_monitor_node_bag.yaml"),
        node_name: "collision_monitor".to_owned(),
        jsonl: Some(dir.join("out.jsonl")),
        out: None,
        svg: None,
    };
    let summary = replay::replay(&options).expect("replays");
    assert!(summary.skipped.is_empty(), "{:?}", summary.skipped);

    // The simulated time at each log time: the latest /clock, and when
    // the first costmap came (nav2's catcher collects from then on).
    let mut clock: Vec<(u64, f64)> = Vec::new();
    let mut first_costmap: Option<u64> = None;
    for record in bag::open(&bag_path).expect("the bag opens") {
        let record = record.expect("a record");
        match &*record.topic {
            "/clock" => {
                if let Ok(Some(Message::Clock(c))) = record.decode() {
                    let t = f64::from(c.clock.sec) + f64::from(c.clock.nanosec) * 1e-9;
                    clock.push((record.log_time_ns, t));
                }
            }
            "/local_costmap/costmap" => {
                first_costmap.get_or_insert(record.log_time_ns);
            }
            _ => {}
        }
    }
    let live = first_costmap.expect("costmaps").max(clock[0].0);
    let sim = |log: u64| -> f64 {
        let i = clock.partition_point(|&(l, _)| l <= log);
        clock[i.max(1) - 1].1
    };
    let text = std::fs::read_to_string(dir.join("out.jsonl")).expect("jsonl");
    let mut samples = Vec::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        if v["topic"] != "/cmd_vel" {
            continue;
        }
        let log = v["log_time_ns"].as_u64().expect("log_time_ns");
        if log < live {
            continue;
        }
        let vx = v["message"]["linear"]["x"].as_f64().expect("linear.x");
        samples.push(Sample { t: sim(log), vx });
    }
    assert!(samples.len() > 100, "{} samples", samples.len());
    let last = samples.last().expect("samples").t;
    let in_range = |t0: f64, t1: f64| -> Vec<Sample> {
        samples
            .iter()
            .copied()
            .filter(|s| s.t >= t0 && s.t <= t1)
            .collect()
    };
    let stop_seg = in_range(STOP_WINDOW.0, STOP_WINDOW.1);
    let pre_seg = in_range(0.0, STOP_WINDOW.0 - 0.2);
    let post_seg = in_range(STOP_WINDOW.1 + 0.2, last);

    let time_to_stop = first_transition(&stop_seg, true, STOP_THRESH, DEBOUNCE_N)
        .map_or(f64::INFINITY, |t| t - STOP_WINDOW.0);
    let stopped = |seg: &[Sample]| seg.iter().filter(|s| s.vx.abs() <= STOP_THRESH).count();
    let hold = stopped(&stop_seg) as f64 / stop_seg.len() as f64;
    let time_to_resume = first_transition(&post_seg, false, RESUME_THRESH, DEBOUNCE_N)
        .map_or(f64::INFINITY, |t| t - STOP_WINDOW.1);
    let false_stop =
        (stopped(&pre_seg) + stopped(&post_seg)) as f64 / (pre_seg.len() + post_seg.len()) as f64;
    let results = format!(
        "t_stop {time_to_stop:.3} s, hold {:.1} %, t_resume {time_to_resume:.3} s, false {:.1} %",
        hold * 100.0,
        false_stop * 100.0
    );
    println!("nav2's metrics: {results}");
    assert!(time_to_stop <= MAX_TIME_TO_STOP, "{results}");
    assert!(hold >= MIN_HOLD_PCT, "{results}");
    assert!(time_to_resume <= MAX_TIME_TO_RESUME, "{results}");
    assert!(false_stop <= MAX_FALSE_STOP_PCT, "{results}");
    // And the replay's own account: the circle stopped the robot, for
    // the 5 s the cell was there.
    let zone = summary
        .zone_times
        .iter()
        .find(|z| z.zone == "Detection" && z.action == "stop")
        .expect("Detection stopped the robot");
    assert!((zone.seconds - 5.0).abs() < 0.1, "{zone:?}");
}
